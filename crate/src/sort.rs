//! In-place heapsort for the few sorts on the WebAssembly builds' paths (validator
//! registries, error culprit lists).
//!
//! `slice::sort*` instantiates the standard library's generic sorting code (driftsort or
//! ipnsort, with their small-sort networks and fallbacks) once per element type, about
//! 10–25 KB of WASM each; these are a few hundred bytes. O(n log n), no allocation, not
//! stable: callers sort by unique keys, or reject equal ones right after sorting.
//! (`bls::prepared` keeps its own copy for the same reason.)

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
        }
    }
}
