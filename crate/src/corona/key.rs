//! Trusted-dealer key generation (spec §4.2). The dealer knows s, every share and every
//! pairwise key while it deals, and must erase them: Corona keys are dealer-generated until a
//! reviewed distributed key generation exists (the spec's DKG sketch is research, §4.3).
//!
//! Everything comes from one 32-byte dealer seed σ_D expanded with the `KEYGEN` tag (kind 0:
//! s, 1: e, 2: Shamir coefficients, 3: pairwise keys), so known-answer tests can fix it; the
//! public matrix comes from ρ with the `A` tag, a different key (the reference drew both from
//! one stream).

use alloc::vec::Vec;

use sha3::digest::XofReader;
use zeroize::{Zeroize, Zeroizing};

use super::arith::{add, mul};
use super::params::{COLS, N, ROWS};
use super::ring::{poly_add, poly_from_small, to_ntt, Matrix, Poly, ZERO};
use super::sample::{gaussian_poly, round_xi, uniform_poly};
use crate::hash::{tags, Transcript};

/// The public key: ρ (A's seed) and b̃ = Round_ξ(A·s + e) ∈ Z_{2^18}^{8×256}.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct GroupKey {
    pub(crate) rho: [u8; 32],
    pub(crate) b_tilde: Vec<[u32; N]>,
}

/// A pair's keys, as one of its two parties holds them: the other party's abscissa, the PRF
/// key of the pair's zero-sum masks and the MAC key of its round-1 messages.
pub(crate) type PairKeys = (u16, [u8; 32], [u8; 32]);

/// One party's package from the dealer: its abscissa, the threshold, its Shamir share of s
/// and its keys with every other party.
pub(crate) struct Package {
    pub(crate) x: u16,
    pub(crate) t: u16,
    pub(crate) n: u16,
    /// s_i = f(x_i) ∈ R_q^7 (secret).
    pub(crate) share: Zeroizing<Vec<Poly>>,
    /// (x_j, k^prf_ij, k^mac_ij) for every j ≠ i (secret).
    pub(crate) pairwise: Zeroizing<Vec<PairKeys>>,
}

/// The dealer's stream of `kind` and `index`.
fn dealer_stream(seed: &[u8; 32], kind: u8, index: u16) -> impl XofReader {
    let mut t = Transcript::new(tags::CORONA_KEYGEN);
    t.append(seed).append(&[kind]).append(&index.to_be_bytes());
    t.finalize_xof()
}

/// Deals a (t, n) key from the dealer seed: the group key and one package per party x = 1..n.
/// 2 ≤ t ≤ n ≤ 1024 is the caller's to check.
pub(crate) fn deal(t: u16, n: u16, rho: [u8; 32], seed: &[u8; 32]) -> (GroupKey, Vec<Package>) {
    let a = Matrix::expand(&rho);
    // s ← D_σE^{7×256}, e ← D_σE^{8×256}.
    let mut small = Zeroizing::new([0i64; N]);
    let mut s: Zeroizing<Vec<Poly>> = Zeroizing::new(Vec::with_capacity(COLS));
    for k in 0..COLS {
        // Exact: k < 7.
        #[allow(clippy::cast_possible_truncation)]
        gaussian_poly(&mut dealer_stream(seed, 0, k as u16), &mut small);
        s.push(poly_from_small(&small));
    }
    let s_hat: Zeroizing<Vec<Poly>> = Zeroizing::new(s.iter().map(to_ntt).collect());
    let mut b = a.apply(&s_hat);
    let mut b_tilde = Vec::with_capacity(ROWS);
    for (k, row) in b.iter_mut().enumerate() {
        #[allow(clippy::cast_possible_truncation)]
        gaussian_poly(&mut dealer_stream(seed, 1, k as u16), &mut small);
        *row = poly_add(row, &poly_from_small(&small));
        let mut rounded = [0u32; N];
        for (r, &c) in rounded.iter_mut().zip(row.iter()) {
            *r = round_xi(c);
        }
        b_tilde.push(rounded);
    }
    b.zeroize();
    // f(X) = s + Σ_{k=1}^{t−1} a_k X^k, a_k uniform in R_q^7.
    let mut coeffs: Zeroizing<Vec<Vec<Poly>>> = Zeroizing::new(Vec::new());
    for k in 1..t {
        let mut stream = dealer_stream(seed, 2, k);
        let mut vec = Vec::with_capacity(COLS);
        for _ in 0..COLS {
            let mut p = ZERO;
            uniform_poly(&mut stream, &mut p);
            vec.push(p);
        }
        coeffs.push(vec);
    }
    let mut packages: Vec<Package> = (1..=n)
        .map(|x| Package {
            x,
            t,
            n,
            share: Zeroizing::new(evaluate(&s, &coeffs, u64::from(x))),
            pairwise: Zeroizing::new(Vec::new()),
        })
        .collect();
    let mut pair = 0u16;
    for i in 1..=n {
        for j in i + 1..=n {
            let mut keys = Zeroizing::new([0u8; 64]);
            dealer_stream(seed, 3, pair).read(&mut keys[..]);
            pair = pair.wrapping_add(1);
            let (prf, mac) = keys.split_at(32);
            let (prf, mac): ([u8; 32], [u8; 32]) = (
                prf.try_into().unwrap_or_default(),
                mac.try_into().unwrap_or_default(),
            );
            packages[usize::from(i) - 1].pairwise.push((j, prf, mac));
            packages[usize::from(j) - 1].pairwise.push((i, prf, mac));
        }
    }
    for p in &mut packages {
        p.pairwise.sort_by_key(|e| e.0);
    }
    (GroupKey { rho, b_tilde }, packages)
}

/// f(x) = s + Σ a_k x^k, coefficient-wise by Horner (constant flow in the secrets).
fn evaluate(s: &[Poly], coeffs: &[Vec<Poly>], x: u64) -> Vec<Poly> {
    (0..COLS)
        .map(|col| {
            let mut acc = ZERO;
            for a in coeffs.iter().rev() {
                for (v, &c) in acc.iter_mut().zip(a[col].iter()) {
                    *v = add(mul(*v, x), c);
                }
            }
            for (v, &c) in acc.iter_mut().zip(s[col].iter()) {
                *v = add(mul(*v, x), c);
            }
            acc
        })
        .collect()
}
