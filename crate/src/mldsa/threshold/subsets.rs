//! Replicated short sharing (threshold-mldsa spec §2.1, §2.4): the secret is a sum of one
//! short secret per subset of N − T + 1 parties, held by every member of its subset. Any T
//! parties hold every subset secret; T − 1 miss the subset of the others. A signing set of
//! exactly T parties splits the subsets among its members by a fixed public partition, so
//! their partial secrets add up to the key with nothing counted twice and stay short.
//!
//! Parties are numbered 0..N; a subset is an N-bit mask (bit j: party j is a member).

use alloc::vec::Vec;

/// Every subset of N − T + 1 of N parties, in increasing mask order (the order in which the
/// dealer's stream hands out their seeds: Gosper's next-combination walk).
pub(crate) fn subsets(threshold: u8, parties: u8) -> Vec<u8> {
    let size = u32::from(parties - threshold + 1);
    let end = 1u16 << parties;
    let mut x: u16 = (1 << size) - 1;
    let mut out = Vec::new();
    while x < end {
        // Exact: x < 2^N ≤ 64.
        #[allow(clippy::cast_possible_truncation)]
        out.push(x as u8);
        let c = x & x.wrapping_neg();
        let r = x + c;
        x = (((r ^ x) >> 2) / c) | r;
    }
    out
}

/// The canonical partition for the signing set {0, …, T−1} (spec §2.4; each row lists the
/// subsets canonical party p uses). T = N needs none: each party uses its singleton.
fn canonical_rows(threshold: u8, parties: u8) -> &'static [&'static [u8]] {
    match (threshold, parties) {
        (2, 3) => &[&[3, 5], &[6]],
        (2, 4) => &[&[11, 13], &[7, 14]],
        (3, 4) => &[&[3, 9], &[6, 10], &[12, 5]],
        (2, 5) => &[&[27, 29, 23], &[30, 15]],
        (3, 5) => &[&[25, 11, 19, 13], &[7, 14, 22, 26], &[28, 21]],
        (4, 5) => &[&[3, 9, 17], &[6, 10, 18], &[12, 5, 20], &[24]],
        (2, 6) => &[&[61, 47, 55], &[62, 31, 59]],
        (3, 6) => &[
            &[27, 23, 43, 57, 39],
            &[51, 58, 46, 30, 54],
            &[45, 53, 29, 15, 60],
        ],
        (4, 6) => &[
            &[19, 13, 35, 7, 49],
            &[42, 26, 38, 50, 22],
            &[52, 21, 44, 28, 37],
            &[25, 11, 14, 56, 41],
        ],
        (5, 6) => &[
            &[3, 5, 33],
            &[6, 10, 34],
            &[12, 20, 36],
            &[9, 24, 40],
            &[48, 17, 18],
        ],
        _ => &[],
    }
}

/// The subsets party `me` uses when the parties of `active` (a mask of exactly T members,
/// `me` among them) sign. The canonical rows are relabelled: the active parties in
/// increasing order take canonical slots 0..T, the others slots T..N.
pub(crate) fn assigned(threshold: u8, parties: u8, active: u8, me: u8) -> Vec<u8> {
    debug_assert_eq!(active.count_ones(), u32::from(threshold));
    debug_assert!(active >> me & 1 == 1);
    if threshold == parties {
        return alloc::vec![1 << me];
    }
    let members = (0..parties).filter(|j| active >> j & 1 == 1);
    let others = (0..parties).filter(|j| active >> j & 1 == 0);
    let perm: Vec<u8> = members.clone().chain(others).collect();
    let rank = members.take_while(|&j| j != me).count();
    canonical_rows(threshold, parties)[rank]
        .iter()
        .map(|&mask| {
            (0..parties)
                .filter(|b| mask >> b & 1 == 1)
                .fold(0u8, |acc, b| acc | 1 << perm[usize::from(b)])
        })
        .collect()
}

#[cfg(test)]
/// The most subsets a party uses in one run: ⌈C(N, T−1) / T⌉ (the load the radii assume).
pub(crate) fn max_load(threshold: u8, parties: u8) -> usize {
    subsets(threshold, parties).len().div_ceil(usize::from(threshold))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binomial(n: usize, k: usize) -> usize {
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }

    #[test]
    fn subsets_are_all_of_the_right_size_in_order() {
        for n in 2..=6u8 {
            for t in 2..=n {
                let s = subsets(t, n);
                assert_eq!(s.len(), binomial(usize::from(n), usize::from(t - 1)));
                assert!(s.windows(2).all(|w| w[0] < w[1]));
                assert!(s
                    .iter()
                    .all(|m| m.count_ones() == u32::from(n - t + 1) && *m < 1 << n));
            }
        }
    }

    /// Every signing set of every (T, N) covers each subset exactly once, each party only
    /// with subsets it belongs to and never more than the design load.
    #[test]
    fn every_signing_set_covers_every_subset_once() {
        for n in 2..=6u8 {
            for t in 2..=n {
                let all = subsets(t, n);
                let load = max_load(t, n);
                for active in 0..(1u8 << n) {
                    if active.count_ones() != u32::from(t) {
                        continue;
                    }
                    let mut used = Vec::new();
                    for me in (0..n).filter(|j| active >> j & 1 == 1) {
                        let mine = assigned(t, n, active, me);
                        assert!(mine.len() <= load, "({t},{n}) {active:#b} party {me}");
                        assert!(mine.iter().all(|m| m >> me & 1 == 1));
                        used.extend(mine);
                    }
                    crate::sort::heapsort(&mut used);
                    assert_eq!(used, all, "({t},{n}) {active:#b}");
                }
            }
        }
    }

    #[test]
    fn the_spec_worked_example() {
        // (2,3), active {0, 2}: party 0 uses {5, 3}, party 2 uses {6}.
        assert_eq!(assigned(2, 3, 0b101, 0), [5, 3]);
        assert_eq!(assigned(2, 3, 0b101, 2), [6]);
    }
}
