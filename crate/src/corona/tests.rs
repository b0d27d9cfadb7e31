//! The ring and the samplers against plain u128 arithmetic and the spec's facts.

use alloc::vec::Vec;

use sha2::{Digest, Sha256};

use super::arith::{self, Q, Q_INV_NEG, R2_MOD_Q, R_MOD_Q};
use super::ntt::{inv_ntt, ntt, pointwise, PSI};
use super::params::N;
use super::sample::{cdt_sample, gaussian_poly, uniform_poly, CDT, CDT_TAIL};
use crate::hash::shake256;

/// A deterministic stream of u64 values (xorshift), for operands.
fn values(seed: u64, count: usize) -> Vec<u64> {
    let mut x = seed | 1;
    (0..count)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect()
}

fn mul_ref(a: u64, b: u64) -> u64 {
    u64::try_from(u128::from(a) * u128::from(b) % u128::from(Q)).unwrap_or(u64::MAX)
}

#[test]
fn the_constants_are_what_the_spec_derives() {
    assert_eq!(Q, 281_474_976_729_601);
    assert_eq!((Q - 1) % 512, 0);
    assert_eq!(Q_INV_NEG.wrapping_mul(Q), u64::MAX, "−q⁻¹ mod 2^64");
    assert_eq!(u128::from(R_MOD_Q), (1u128 << 64) % u128::from(Q));
    assert_eq!(R2_MOD_Q, mul_ref(R_MOD_Q, R_MOD_Q));
    assert_eq!(arith::pow(PSI, 256), Q - 1, "ψ^256 = −1");
    assert_eq!(arith::pow(PSI, 512), 1);
    assert_eq!(arith::pow(11, (Q - 1) / 512), PSI);
    assert_eq!(arith::mul(arith::inv(256), 256), 1);
}

#[test]
fn products_and_reductions_match_u128_arithmetic() {
    let edges = [0, 1, 2, Q - 2, Q - 1, (Q - 1) / 2, Q.div_ceil(2)];
    let mut operands: Vec<u64> = values(7, 2000).into_iter().map(|v| v % Q).collect();
    operands.extend(edges);
    for (i, &a) in operands.iter().enumerate() {
        let b = operands[(i * 7 + 3) % operands.len()];
        assert_eq!(arith::mul(a, b), mul_ref(a, b), "{a}·{b}");
        assert_eq!(
            arith::add(a, b),
            u64::try_from((u128::from(a) + u128::from(b)) % u128::from(Q)).unwrap()
        );
        assert_eq!(arith::sub(a, b), (a + Q - b) % Q);
        assert_eq!(arith::from_i64(arith::centred(a)), a);
        assert!(arith::centred(a).unsigned_abs() <= (Q - 1) / 2);
    }
    for w in values(11, 2000).into_iter().chain([u64::MAX, Q, 2 * Q, 0]) {
        assert_eq!(arith::reduce(w), w % Q, "{w} mod q");
    }
    // The 32-bit wide product WebAssembly uses.
    for (i, &a) in values(13, 500).iter().enumerate() {
        let b = values(17 + i as u64, 1)[0];
        assert_eq!(arith::mul_wide_32(a, b), arith::mul_wide(a, b));
    }
    assert_eq!(arith::mul_wide_32(u64::MAX, u64::MAX), (1, u64::MAX - 1));
}

/// X^256 + 1 negacyclic schoolbook product.
#[allow(clippy::needless_range_loop)]
fn schoolbook(a: &[u64; N], b: &[u64; N]) -> [u64; N] {
    let mut c = [0u64; N];
    for i in 0..N {
        for j in 0..N {
            let p = mul_ref(a[i], b[j]);
            let k = i + j;
            if k < N {
                c[k] = arith::add(c[k], p);
            } else {
                c[k - N] = arith::sub(c[k - N], p);
            }
        }
    }
    c
}

#[test]
fn the_ntt_multiplies_in_the_negacyclic_ring_and_inverts() {
    for seed in 0..4u64 {
        let mut a = [0u64; N];
        let mut b = [0u64; N];
        for (i, v) in values(seed * 2 + 1, 2 * N).into_iter().enumerate() {
            if i < N {
                a[i] = v % Q;
            } else {
                b[i - N] = v % Q;
            }
        }
        if seed == 0 {
            // X^255 · X = X^256 = −1.
            a = [0; N];
            b = [0; N];
            a[255] = 1;
            b[1] = 1;
        }
        let want = schoolbook(&a, &b);
        let (mut ah, mut bh) = (a, b);
        ntt(&mut ah);
        ntt(&mut bh);
        let mut back = ah;
        inv_ntt(&mut back);
        assert_eq!(back, a, "inverse");
        let mut c = [0u64; N];
        pointwise(&ah, &bh, &mut c);
        inv_ntt(&mut c);
        assert_eq!(c, want, "seed {seed}");
    }
}

#[test]
fn the_cdt_is_the_specs_and_samples_like_sigma_e() {
    let mut h = Sha256::new();
    for t in CDT {
        h.update(t.to_be_bytes());
    }
    assert_eq!(
        hex::encode(h.finalize()),
        "dfd4c95cf58728afe856311452215e8d978312988fcafeaeeab0c1d4e9b66033"
    );
    assert_eq!(CDT[77], 0x7fff_ffff_ffff_ffff_ffff_ffff_ffff_ffa9);
    // Extremes: r = 0 gives 0; r at the top gives the tail; the sign bit negates.
    assert_eq!(cdt_sample(0, 0), 0);
    assert_eq!(cdt_sample(1, 0), 0, "−0 is 0");
    assert_eq!(cdt_sample(u64::MAX - 1, u64::MAX), CDT_TAIL);
    assert_eq!(cdt_sample(u64::MAX, u64::MAX), -CDT_TAIL);
    // 64 polynomials (16,384 samples): mean near 0, variance near σ_E² = 37.31.
    let mut stream = shake256(&[b"corona cdt test"]);
    let (mut sum, mut sq) = (0i64, 0i64);
    let mut poly = [0i64; N];
    for _ in 0..64 {
        gaussian_poly(&mut stream, &mut poly);
        for &x in &poly {
            assert!(x.abs() <= CDT_TAIL);
            sum += x;
            sq += x * x;
        }
    }
    // In integers: |mean| < 0.2 and |variance − 37.31| < 1.5.
    let n = 64 * i64::try_from(N).unwrap_or(256);
    assert!(5 * sum.abs() < n, "sum {sum} over {n}");
    assert!(
        (100 * sq - 3731 * n).abs() < 150 * n,
        "sum of squares {sq} over {n}"
    );
}

#[test]
fn uniform_polys_are_canonical_and_spread() {
    let mut stream = shake256(&[b"corona uniform test"]);
    let mut p = [0u64; N];
    let mut high = 0;
    for _ in 0..16 {
        uniform_poly(&mut stream, &mut p);
        assert!(p.iter().all(|&c| c < Q));
        high += p.iter().filter(|&&c| c > Q / 2).count();
    }
    // About half of 4096 coefficients above q/2.
    assert!((1800..2300).contains(&high), "{high}");
}
