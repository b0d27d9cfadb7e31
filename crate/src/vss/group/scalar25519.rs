//! Horner's rule over the scalar field of Curve25519 (order `ℓ = 2^252 + δ`) at a small
//! public `x`, for dealing shares to party ids.
//!
//! Each step `acc·x + c` with `x < 2^16` stays below `2^269`, so it is reduced with one
//! multiplication by the 125-bit `δ` instead of dalek's general product (two Montgomery
//! reductions and a byte round trip per step): a dealer at n = 128 evaluates two
//! polynomials of 86 coefficients at 128 ids, and that general product was a third of its
//! time. Limbs are four little-endian `u64`, every step constant time in the values.
//!
//! Natively two sums over many scalars avoid dalek's general product the same way:
//! `power_sums` (a batch check's weights at party ids, each power from the one before by a
//! small product, each sum reduced once) and `dot_pair` (a share's weighted value and blind:
//! products added unreduced, reduced once every 64 terms, constant time).

use curve25519_dalek::Scalar;
use zeroize::Zeroize;

/// `ℓ − 2^252`, in two 64-bit limbs.
const DELTA: [u64; 2] = [0x5812_631a_5cf5_d3ed, 0x14de_f9de_a2f7_9cd6];
/// `ℓ` in four 64-bit limbs.
const ELL: [u64; 4] = [DELTA[0], DELTA[1], 0, 1 << 60];

/// `Σ_k coefficients[k]·x^k mod ℓ`.
pub(super) fn horner_small(coefficients: &[Scalar], x: u16) -> Scalar {
    let [out] = horner_small_many([coefficients], x);
    out
}

/// [`horner_small`] of two vectors at one `x`. Of one length (a Pedersen dealer's values and
/// blinds), their steps are interleaved: each step waits on the one before it, so two
/// independent chains run in about the time of one.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn horner_small_pair(f: &[Scalar], g: &[Scalar], x: u16) -> (Scalar, Scalar) {
    if f.len() != g.len() {
        return (horner_small(f, x), horner_small(g, x));
    }
    let [a, b] = horner_small_many([f, g], x);
    (a, b)
}

/// [`horner_small`] of `N` vectors of one length, step by step together.
fn horner_small_many<const N: usize>(polys: [&[Scalar]; N], x: u16) -> [Scalar; N] {
    let mut acc = [[0u64; 4]; N];
    for k in (0..polys[0].len()).rev() {
        for (a, p) in acc.iter_mut().zip(&polys) {
            let mut limbs = to_limbs(&p[k]);
            *a = mul_small_add(a, u64::from(x), &limbs);
            limbs.zeroize();
        }
    }
    acc.map(|mut a| {
        let mut bytes = [0u8; 32];
        for (chunk, limb) in bytes.chunks_exact_mut(8).zip(a) {
            chunk.copy_from_slice(&limb.to_le_bytes());
        }
        a.zeroize();
        // Already below ℓ: the reduction leaves it as it is.
        let out = Scalar::from_bytes_mod_order(bytes);
        bytes.zeroize();
        out
    })
}

/// `σ_k = Σ_i w_i·x_i^k mod ℓ` for `k < t`, public inputs (a batch check's weights at
/// party ids). Each power comes from the one before with one small product, and each sum is
/// kept in five limbs and reduced once: dalek's product for every step was 0.75 ms of an
/// 86-of-128 check.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn power_sums(terms: &[(u16, Scalar)], t: usize) -> alloc::vec::Vec<Scalar> {
    let mut sums = alloc::vec![[0u64; 5]; t];
    for (x, w) in terms {
        let mut power = to_limbs(w);
        for sum in sums.iter_mut() {
            // Each power is below ℓ < 2^253, so the fifth limb counts carries and never
            // overflows.
            let mut carry = 0u64;
            for (limb, p) in sum.iter_mut().zip(power) {
                let (v, c1) = limb.overflowing_add(p);
                let (v, c2) = v.overflowing_add(carry);
                *limb = v;
                carry = u64::from(c1) + u64::from(c2);
            }
            sum[4] += carry;
            power = mul_small_add(&power, u64::from(*x), &[0; 4]);
        }
    }
    sums.iter().map(|sum| reduce_wide(sum)).collect()
}

/// `(Σ w_i·a_i, Σ w_i·b_i) mod ℓ` for `terms` `(w_i, a_i, b_i)`, in constant time: the
/// products are added unreduced and reduced once every 64 terms, where dalek reduces each
/// (two Montgomery reductions a product). Canonical scalars are below `ℓ < 2^253`, so a
/// product is below `2^506` and 64 of them fit the 512 bits of the sums.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn dot_pair<'a>(
    terms: impl Iterator<Item = (&'a Scalar, &'a Scalar, &'a Scalar)>,
) -> (Scalar, Scalar) {
    let mut sums = [[0u64; 8]; 2];
    let mut out = [Scalar::ZERO; 2];
    let mut pending = 0;
    for (w, a, b) in terms {
        let mut limbs = [to_limbs(w), to_limbs(a), to_limbs(b)];
        multiply_add(&mut sums[0], &limbs[0], &limbs[1]);
        multiply_add(&mut sums[1], &limbs[0], &limbs[2]);
        limbs.zeroize();
        pending += 1;
        // The count is public: how many terms there are.
        if pending == 64 {
            reduce_into(&mut out, &mut sums);
            pending = 0;
        }
    }
    reduce_into(&mut out, &mut sums);
    let [a, b] = out;
    (a, b)
}

/// `sum += a·b`, schoolbook, every carry carried to the top limb.
#[cfg(not(target_arch = "wasm32"))]
#[allow(clippy::cast_possible_truncation)] // `as u64` takes a 128-bit word's low limb
fn multiply_add(sum: &mut [u64; 8], a: &[u64; 4], b: &[u64; 4]) {
    for (i, x) in a.iter().enumerate() {
        let mut carry = 0u128;
        for (j, y) in b.iter().enumerate() {
            let t = u128::from(sum[i + j]) + u128::from(*x) * u128::from(*y) + carry;
            sum[i + j] = t as u64;
            carry = t >> 64;
        }
        for limb in &mut sum[i + 4..] {
            let t = u128::from(*limb) + carry;
            *limb = t as u64;
            carry = t >> 64;
        }
    }
}

/// Adds each of `sums`, reduced, to `out`, and clears them.
#[cfg(not(target_arch = "wasm32"))]
fn reduce_into(out: &mut [Scalar; 2], sums: &mut [[u64; 8]; 2]) {
    for (o, sum) in out.iter_mut().zip(sums.iter_mut()) {
        *o += reduce_wide(sum);
        sum.zeroize();
    }
}

/// Little-endian limbs (at most eight: below 2^512) reduced mod ℓ; the bytes made on the
/// way are wiped.
#[cfg(not(target_arch = "wasm32"))]
fn reduce_wide(limbs: &[u64]) -> Scalar {
    let mut wide = [0u8; 64];
    for (chunk, limb) in wide.chunks_exact_mut(8).zip(limbs) {
        chunk.copy_from_slice(&limb.to_le_bytes());
    }
    let out = Scalar::from_bytes_mod_order_wide(&wide);
    wide.zeroize();
    out
}

fn to_limbs(s: &Scalar) -> [u64; 4] {
    let mut limbs = [0u64; 4];
    for (limb, chunk) in limbs.iter_mut().zip(s.as_bytes().chunks_exact(8)) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        *limb = u64::from_le_bytes(word);
    }
    limbs
}

/// `(a·x + c) mod ℓ` for `a < ℓ`, `c < 2^256`, `x < 2^16`; the result is below `ℓ`.
#[allow(clippy::cast_possible_truncation)] // `as u64` takes a 128-bit word's low limb
fn mul_small_add(a: &[u64; 4], x: u64, c: &[u64; 4]) -> [u64; 4] {
    // v = a·x + c < 2^269: four limbs and a top of at most 14 bits.
    let mut v = [0u64; 4];
    let mut carry = 0u128;
    for i in 0..4 {
        let t = u128::from(a[i]) * u128::from(x) + u128::from(c[i]) + carry;
        v[i] = t as u64;
        carry = t >> 64;
    }
    // q = ⌊v / 2^252⌋ < 2^18; v ≡ (v mod 2^252) − q·δ (mod ℓ), which lies in (−2^143, 2^252).
    let q = (v[3] >> 60) | ((carry as u64) << 4);
    v[3] &= (1 << 60) - 1;
    let lo = u128::from(q) * u128::from(DELTA[0]);
    let hi = u128::from(q) * u128::from(DELTA[1]) + (lo >> 64);
    let qd = [lo as u64, hi as u64, (hi >> 64) as u64, 0];
    let mut r = [0u64; 4];
    let mut borrow = 0u64;
    for i in 0..4 {
        let (d, b1) = v[i].overflowing_sub(qd[i]);
        let (d, b2) = d.overflowing_sub(borrow);
        r[i] = d;
        borrow = u64::from(b1) | u64::from(b2);
    }
    // A negative difference (borrow out) gets ℓ added back, through a mask, not a branch.
    let mask = borrow.wrapping_neg();
    let mut carry = 0u64;
    for i in 0..4 {
        let t = u128::from(r[i]) + u128::from(ELL[i] & mask) + u128::from(carry);
        r[i] = t as u64;
        carry = (t >> 64) as u64;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    fn reference(coefficients: &[Scalar], x: u16) -> Scalar {
        let x = Scalar::from(u64::from(x));
        coefficients.iter().rev().fold(Scalar::ZERO, |acc, c| acc * x + c)
    }

    #[test]
    fn pairs_match_two_single_evaluations() {
        let mut rng = ChaCha20Rng::seed_from_u64(2);
        let mut random = |len: usize| -> Vec<Scalar> { (0..len).map(|_| random_scalar(&mut rng)).collect() };
        for (f_len, g_len) in [(1, 1), (43, 43), (86, 86), (5, 9)] {
            let (f, g) = (random(f_len), random(g_len));
            for x in [0u16, 1, 64, 128, u16::MAX] {
                assert_eq!(
                    horner_small_pair(&f, &g, x),
                    (reference(&f, x), reference(&g, x)),
                    "{f_len}, {g_len} at {x}"
                );
            }
        }
    }

    fn random_scalar(rng: &mut ChaCha20Rng) -> Scalar {
        let mut wide = [0u8; 64];
        rng.fill_bytes(&mut wide);
        Scalar::from_bytes_mod_order_wide(&wide)
    }

    #[test]
    fn power_sums_match_the_general_products() {
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        let mut random = || random_scalar(&mut rng);
        let top = Scalar::ZERO - Scalar::ONE;
        for (count, t) in [(0u16, 3), (1, 1), (3, 0), (14, 14), (86, 86), (300, 5)] {
            let terms: Vec<(u16, Scalar)> = (0..count)
                .map(|i| match i % 3 {
                    0 => (u16::MAX - i, top),
                    _ => (i, random()),
                })
                .collect();
            let expected: Vec<Scalar> = (0..t)
                .map(|k| {
                    terms.iter().fold(Scalar::ZERO, |acc, (x, w)| {
                        let x = Scalar::from(u64::from(*x));
                        acc + (0..k).fold(*w, |p, _| p * x)
                    })
                })
                .collect();
            assert_eq!(power_sums(&terms, t), expected, "{count} terms, t = {t}");
        }
    }

    #[test]
    fn dot_pairs_match_the_general_products() {
        let mut rng = ChaCha20Rng::seed_from_u64(4);
        let mut random = || random_scalar(&mut rng);
        let top = Scalar::ZERO - Scalar::ONE;
        // 300 terms of `ℓ − 1` would overflow 512 bits unreduced (the last case).
        for (count, tops) in [
            (0usize, 4),
            (1, 4),
            (2, 4),
            (63, 4),
            (64, 4),
            (65, 4),
            (86, 4),
            (129, 4),
            (300, 1),
        ] {
            let terms: Vec<[Scalar; 3]> = (0..count)
                .map(|i| match i % tops {
                    0 => [top, top, top],
                    _ => [random(), random(), random()],
                })
                .collect();
            let expected = terms
                .iter()
                .fold((Scalar::ZERO, Scalar::ZERO), |(x, y), [w, a, b]| {
                    (x + w * a, y + w * b)
                });
            assert_eq!(
                dot_pair(terms.iter().map(|[w, a, b]| (w, a, b))),
                expected,
                "{count} terms"
            );
        }
    }

    #[test]
    fn matches_the_general_product() {
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        for len in [1usize, 2, 3, 86] {
            let coefficients: Vec<Scalar> = (0..len).map(|_| random_scalar(&mut rng)).collect();
            for x in [0u16, 1, 2, 7, 128, 255, 1024, u16::MAX - 1, u16::MAX] {
                assert_eq!(
                    horner_small(&coefficients, x),
                    reference(&coefficients, x),
                    "len {len}, x {x}"
                );
            }
        }
    }

    #[test]
    fn extremes_reduce() {
        // ℓ − 1 everywhere: every step's product is as large as it gets.
        let top = -Scalar::ONE;
        for len in [1usize, 2, 40] {
            let coefficients = vec![top; len];
            for x in [1u16, 2, u16::MAX] {
                assert_eq!(horner_small(&coefficients, x), reference(&coefficients, x));
            }
        }
        // Steps whose difference is just below zero or just at ℓ.
        let delta = Scalar::from_bytes_mod_order({
            let mut b = [0u8; 32];
            b[..8].copy_from_slice(&DELTA[0].to_le_bytes());
            b[8..16].copy_from_slice(&DELTA[1].to_le_bytes());
            b
        });
        for c in [delta, -delta, Scalar::ZERO, Scalar::ONE, -Scalar::ONE - delta] {
            for x in [1u16, 16, u16::MAX] {
                let coefficients = [c, top, c, -c];
                assert_eq!(horner_small(&coefficients, x), reference(&coefficients, x));
            }
        }
    }
}
