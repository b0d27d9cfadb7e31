//! Heapsort for every sort in the library (party lists, blame, complaints, registries).
//!
//! `slice::sort*` instantiates the standard library's generic sorting code (driftsort or
//! ipnsort, with their small-sort networks and fallbacks) once per element type, about
//! 10–25 KB of WASM each — over 80 KB of the Lens and Pulsar modules before this was used
//! everywhere; these are a few hundred bytes. O(n log n) on any input (a peer's list cannot
//! make it quadratic). [`heapsort`] and [`heapsort_by`] allocate nothing and are not stable;
//! [`sort_by_key_stable`] is, for lists whose order among equal keys is part of the result.

use core::cmp::Ordering;

/// Sorts `v` ascending.
pub(crate) fn heapsort<T: Ord>(v: &mut [T]) {
    heapsort_by(v, T::cmp);
}

/// Sorts `v` ascending by `cmp`.
pub(crate) fn heapsort_by<T>(v: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    let n = v.len();
    for start in (0..n / 2).rev() {
        sift_down(v, start, n, &cmp);
    }
    for end in (1..n).rev() {
        v.swap(0, end);
        sift_down(v, 0, end, &cmp);
    }
}

/// Sorts `v` by `key`, keeping the input order among equal keys (each element is tagged
/// with its position, which breaks ties).
pub(crate) fn sort_by_key_stable<T, K: Ord>(v: &mut alloc::vec::Vec<T>, key: impl Fn(&T) -> K) {
    let mut tagged: alloc::vec::Vec<(K, usize, T)> =
        v.drain(..).enumerate().map(|(i, x)| (key(&x), i, x)).collect();
    heapsort_by(&mut tagged, |a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    v.extend(tagged.into_iter().map(|(_, _, x)| x));
}

/// The map of `pairs` (a later value for the same key wins, as with `collect`), built by
/// inserting: `BTreeMap`'s `FromIterator` sorts its input with the standard library's stable
/// sort first, a driftsort instantiation per map type.
#[cfg(feature = "protocols")]
pub(crate) fn map_of<K: Ord, V>(
    pairs: impl IntoIterator<Item = (K, V)>,
) -> alloc::collections::BTreeMap<K, V> {
    let mut map = alloc::collections::BTreeMap::new();
    for (k, v) in pairs {
        map.insert(k, v);
    }
    map
}

/// Restores the max-heap property of `v[..end]` below `root` (all indices stay below `end`).
fn sift_down<T>(v: &mut [T], mut root: usize, end: usize, cmp: &impl Fn(&T, &T) -> Ordering) {
    loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && cmp(&v[child], &v[child + 1]) == Ordering::Less {
            child += 1;
        }
        if cmp(&v[root], &v[child]) != Ordering::Less {
            return;
        }
        v.swap(root, child);
        root = child;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_the_standard_library() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for n in [0usize, 1, 2, 3, 7, 16, 100, 1025] {
            let mut v: alloc::vec::Vec<u16> = (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x % 50) as u16
                })
                .collect();
            let mut want = v.clone();
            want.sort_unstable();
            heapsort(&mut v);
            assert_eq!(v, want, "n = {n}");
            let mut pairs: alloc::vec::Vec<(u16, usize)> = want.iter().rev().copied().zip(0..).collect();
            heapsort_by(&mut pairs, |a, b| a.0.cmp(&b.0));
            assert!(pairs.windows(2).all(|w| w[0].0 <= w[1].0));
            let mut stable = pairs.clone();
            let mut want = pairs.clone();
            want.sort_by_key(|p| p.0);
            sort_by_key_stable(&mut stable, |p| p.0);
            assert_eq!(stable, want, "stable, n = {n}");
        }
    }
}
