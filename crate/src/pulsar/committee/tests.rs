//! What a coalition below the threshold holds: never every subset, and the key it would
//! rebuild from what it holds is not the committee's (while any T members rebuild it, which
//! shows the attempt is the right one).

use alloc::vec::Vec;

use rand_chacha::rand_core::SeedableRng;

use super::deal;
use crate::mldsa::threshold::{self as kernel, SubsetSecret};
use crate::mldsa::Mode;
use crate::PartyId;

/// The distinct subset secrets the members at `positions` hold together.
fn pooled<'a>(shares: &'a [super::KeyShare], positions: &[usize]) -> Vec<&'a SubsetSecret> {
    let mut out: Vec<&SubsetSecret> = Vec::new();
    for &p in positions {
        for s in &shares[p].secret.secrets {
            if !out.iter().any(|o| o.mask == s.mask) {
                out.push(s);
            }
        }
    }
    out
}

fn coalitions(n: usize, size: usize) -> Vec<Vec<usize>> {
    (0u32..1 << n)
        .filter(|m| m.count_ones() as usize == size)
        .map(|m| (0..n).filter(|i| m >> i & 1 == 1).collect())
        .collect()
}

// Exact: N ≤ 6.
#[allow(clippy::cast_possible_truncation)]
#[test]
fn no_coalition_below_the_threshold_rebuilds_the_key() {
    for mode in [Mode::MlDsa44, Mode::MlDsa87] {
        for n in 2..=6usize {
            for t in 2..=n {
                let members: Vec<PartyId> = (1..=n as u16).filter_map(PartyId::new).collect();
                let mut rng = rand_chacha::ChaCha20Rng::from_seed([n as u8 * 8 + t as u8; 32]);
                let (key, shares) = deal(mode, t, &members, &mut rng).unwrap();
                let all = kernel::subsets(t as u8, n as u8).len();
                let mut rho = [0u8; 32];
                rho.copy_from_slice(&key.public_key()[..32]);
                let a = kernel::matrix(mode, &rho);
                for c in coalitions(n, t) {
                    let held = pooled(&shares, &c);
                    assert_eq!(held.len(), all);
                    assert_eq!(kernel::public_key_of(mode, &rho, &held), key.public_key());
                    // The key generation's way: Σ t_I of the published parts.
                    let parts: Vec<Vec<u8>> = held.iter().map(|s| kernel::subset_t(mode, &a, s)).collect();
                    let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
                    assert_eq!(
                        kernel::public_key_from_parts(mode, &rho, &parts).unwrap(),
                        key.public_key()
                    );
                }
                for c in coalitions(n, t - 1) {
                    let held = pooled(&shares, &c);
                    assert!(held.len() < all, "({t},{n}) {c:?} holds every subset");
                    assert_ne!(kernel::public_key_of(mode, &rho, &held), key.public_key());
                }
                // One share alone: its subsets only, C(N−1, N−T) of C(N, T−1).
                assert!(shares.iter().all(|s| s.subsets() < all || t == 1));
            }
        }
    }
}
