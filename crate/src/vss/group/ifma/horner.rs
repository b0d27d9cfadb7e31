//! Horner's rule over the scalar field of Curve25519 (order `ℓ = 2^252 + δ`) at eight small
//! public ids at once: a dealer's shares for eight receivers. Each lane holds one receiver's
//! accumulator in five 52-bit limbs; every lane reads the same coefficient.
//!
//! A step is `A·x + c` with `A < 2^254`, `x < 2^16` and `c < ℓ`: below `2^271`. Its bits from
//! 252 up, `q < 2^19`, are folded back as `−q·δ` (a product below `2^144`), and `ℓ` is added so
//! no limb sum goes below zero: the result is again below `2^254`, congruent, with one
//! multiplication by the 125-bit `δ` a step. One final fold makes it canonical. Every step
//! is the same instructions whatever the values: constant time in the coefficients.

use alloc::vec::Vec;
use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_cmplt_epi64_mask, _mm512_loadu_si512,
    _mm512_madd52hi_epu64, _mm512_madd52lo_epu64, _mm512_mask_mov_epi64, _mm512_or_si512,
    _mm512_setzero_si512, _mm512_slli_epi64, _mm512_srai_epi64, _mm512_srli_epi64, _mm512_storeu_si512,
    _mm512_sub_epi64,
};

use curve25519_dalek::Scalar;

use super::field::splat64;
use zeroize::Zeroize;

/// `δ = ℓ − 2^252` in 52-bit limbs.
const DELTA: [u64; 3] = [0x2_631a_5cf5_d3ed, 0xd_ea2f_79cd_6581, 0x14_def9];
/// `2^44`: `ℓ`'s limb 4 (bit 252 is bit 44 of limb 4); its limbs 0–2 are `δ`'s, limb 3 zero.
const L4: u64 = 1 << 44;
const MASK: u64 = (1 << 52) - 1;

/// Five limbs of eight lanes.
type Acc = [__m512i; 5];

/// `polys[p]` at each of `xs`: `out[p][i] = Σ_k polys[p][k]·xs[i]^k mod ℓ`. All polynomials
/// have one length (`None` otherwise, or without AVX-512 IFMA). Two of them (a Pedersen
/// dealer's values and blinds) run their steps side by side.
pub(super) fn at_ids(polys: &[&[Scalar]], xs: &[u16]) -> Option<Vec<Vec<Scalar>>> {
    let len = polys.first().map_or(0, |p| p.len());
    if !super::available() || polys.iter().any(|p| p.len() != len) {
        return None;
    }
    let mut out: Vec<Vec<Scalar>> = polys.iter().map(|_| Vec::with_capacity(xs.len())).collect();
    // Each coefficient in limbs, once for all the batches.
    let mut limbs: Vec<Vec<[u64; 5]>> = polys.iter().map(|p| p.iter().map(to_limbs).collect()).collect();
    for batch in xs.chunks(8) {
        let mut lanes = [0u64; 8];
        for (l, x) in lanes.iter_mut().zip(batch) {
            *l = u64::from(*x);
        }
        let mut i = 0;
        while i < limbs.len() {
            // Two chains at a time where there are two: each step waits on the one before.
            if i + 1 < limbs.len() {
                // SAFETY: `available()` above found AVX-512F and AVX-512 IFMA on this CPU.
                let [a, b] = unsafe { horner([&limbs[i], &limbs[i + 1]], &lanes) };
                out[i].extend_from_slice(&a[..batch.len()]);
                out[i + 1].extend_from_slice(&b[..batch.len()]);
                i += 2;
            } else {
                // SAFETY: as above.
                let [a] = unsafe { horner([&limbs[i]], &lanes) };
                out[i].extend_from_slice(&a[..batch.len()]);
                i += 1;
            }
        }
    }
    for p in &mut limbs {
        for c in p.iter_mut() {
            c.zeroize();
        }
    }
    Some(out)
}

/// A canonical scalar's five 52-bit limbs.
fn to_limbs(s: &Scalar) -> [u64; 5] {
    let mut w = [0u64; 4];
    for (word, chunk) in w.iter_mut().zip(s.as_bytes().chunks_exact(8)) {
        let mut b = [0u8; 8];
        b.copy_from_slice(chunk);
        *word = u64::from_le_bytes(b);
    }
    let limbs = [
        w[0] & MASK,
        ((w[0] >> 52) | (w[1] << 12)) & MASK,
        ((w[1] >> 40) | (w[2] << 24)) & MASK,
        ((w[2] >> 28) | (w[3] << 36)) & MASK,
        w[3] >> 16,
    ];
    w.zeroize();
    limbs
}

/// The `N` polynomials (as limbs, of one length) at the eight `xs`.
#[target_feature(enable = "avx512f,avx512ifma")]
fn horner<const N: usize>(polys: [&[[u64; 5]]; N], xs: &[u64; 8]) -> [[Scalar; 8]; N] {
    // SAFETY: `xs` is eight u64, the 64 bytes one unaligned load reads.
    let x = unsafe { _mm512_loadu_si512(xs.as_ptr().cast()) };
    let zero = _mm512_setzero_si512();
    let mut acc: [Acc; N] = [[zero; 5]; N];
    let len = polys[0].len();
    for k in (0..len).rev() {
        for (a, p) in acc.iter_mut().zip(&polys) {
            let c = p[k].map(|l| splat64(l));
            *a = step(a, x, &c);
        }
    }
    acc.map(|a| {
        let reduced = canonical(&a);
        let mut limbs = [[0u64; 8]; 5];
        for (out, l) in limbs.iter_mut().zip(&reduced) {
            // SAFETY: `out` is eight u64, the 64 bytes one unaligned store writes.
            unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), *l) };
        }
        let scalars = core::array::from_fn(|lane| {
            let mut bytes = from_limbs(core::array::from_fn(|i| limbs[i][lane]));
            // Canonical already: the reduction leaves it as it is.
            let s = Scalar::from_bytes_mod_order(bytes);
            bytes.zeroize();
            s
        });
        limbs.zeroize();
        scalars
    })
}

/// 32 little-endian bytes of five 52-bit limbs (a value below `2^256`).
fn from_limbs(l: [u64; 5]) -> [u8; 32] {
    let w = [
        l[0] | (l[1] << 52),
        (l[1] >> 12) | (l[2] << 40),
        (l[2] >> 24) | (l[3] << 28),
        (l[3] >> 36) | (l[4] << 16),
    ];
    let mut out = [0u8; 32];
    for (chunk, word) in out.chunks_exact_mut(8).zip(w) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    out
}

/// `a·x + c` folded below `2^254` (see the module docs).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn step(a: &Acc, x: __m512i, c: &Acc) -> Acc {
    let zero = _mm512_setzero_si512();
    // v = a·x + c, limb i taking the low half of a_i·x and the high half of a_{i−1}·x.
    let lo: Acc = core::array::from_fn(|i| _mm512_madd52lo_epu64(c[i], a[i], x));
    let hi: Acc = core::array::from_fn(|i| _mm512_madd52hi_epu64(zero, a[i], x));
    let mut v = [zero; 6];
    v[0] = lo[0];
    for i in 1..5 {
        v[i] = _mm512_add_epi64(lo[i], hi[i - 1]);
    }
    v[5] = hi[4];
    carry(&mut v);
    let (low, q) = split(&v);
    fold(&low, q)
}

/// Propagates carries so that limbs 0–4 are below `2^52` (limb 5 takes the rest).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn carry(v: &mut [__m512i; 6]) {
    let mask = splat64(MASK);
    for i in 0..5 {
        let c = _mm512_srai_epi64::<52>(v[i]);
        v[i] = _mm512_and_si512(v[i], mask);
        v[i + 1] = _mm512_add_epi64(v[i + 1], c);
    }
}

/// A normalized value's bits below 252 (as limbs) and `q`, its bits from 252 up.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn split(v: &[__m512i; 6]) -> (Acc, __m512i) {
    let q = _mm512_or_si512(_mm512_srli_epi64::<44>(v[4]), _mm512_slli_epi64::<8>(v[5]));
    let low = [v[0], v[1], v[2], v[3], _mm512_and_si512(v[4], splat64(L4 - 1))];
    (low, q)
}

/// `low + ℓ − q·δ` (`ℓ` added so that no value goes below zero), limbs normalized; `q`
/// below `2^52`, the result below `2^254` for `q < 2^19`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn fold(low: &Acc, q: __m512i) -> Acc {
    let mut v = fold_signed(low, q, true);
    carry(&mut v);
    // Limb 5 is zero: the value is positive and below 2^260.
    [v[0], v[1], v[2], v[3], v[4]]
}

/// The canonical value (below `ℓ`) of an accumulator below `2^254`: `low − q·δ` with
/// `q ≤ 3` lies in `(−2^127, 2^252)`, and `ℓ` is added back in the lanes where it is
/// negative.
#[target_feature(enable = "avx512f,avx512ifma")]
fn canonical(a: &Acc) -> Acc {
    let mut v = [a[0], a[1], a[2], a[3], a[4], _mm512_setzero_si512()];
    carry(&mut v);
    let (low, q) = split(&v);
    let mut r = fold_signed(&low, q, false);
    carry(&mut r);
    // Carried arithmetically, a negative value has limbs 0–4 in range and limb 5 = −1.
    let negative = _mm512_cmplt_epi64_mask(r[5], _mm512_setzero_si512());
    let mut plus = r;
    add_ell(&mut plus);
    carry(&mut plus);
    core::array::from_fn(|i| _mm512_mask_mov_epi64(r[i], negative, plus[i]))
}

/// `low − q·δ` (plus `ℓ` where `plus_ell`), limb by limb, before carries: limbs may be
/// negative. `q` below `2^52`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn fold_signed(low: &Acc, q: __m512i, plus_ell: bool) -> [__m512i; 6] {
    let zero = _mm512_setzero_si512();
    let d: [__m512i; 3] = DELTA.map(|l| splat64(l));
    let qd_lo: [__m512i; 3] = core::array::from_fn(|j| _mm512_madd52lo_epu64(zero, q, d[j]));
    let qd_hi: [__m512i; 3] = core::array::from_fn(|j| _mm512_madd52hi_epu64(zero, q, d[j]));
    let mut v = [
        _mm512_sub_epi64(low[0], qd_lo[0]),
        _mm512_sub_epi64(low[1], _mm512_add_epi64(qd_lo[1], qd_hi[0])),
        _mm512_sub_epi64(low[2], _mm512_add_epi64(qd_lo[2], qd_hi[1])),
        _mm512_sub_epi64(low[3], qd_hi[2]),
        low[4],
        zero,
    ];
    if plus_ell {
        add_ell(&mut v);
    }
    v
}

/// Adds `ℓ` limb by limb (limbs 0–2 are `δ`'s, limb 3 zero, limb 4 `2^44`).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn add_ell(v: &mut [__m512i; 6]) {
    for (vi, l) in v.iter_mut().zip(DELTA) {
        *vi = _mm512_add_epi64(*vi, splat64(l));
    }
    v[4] = _mm512_add_epi64(v[4], splat64(L4));
}

// The shares against dalek's scalar arithmetic (skipped, with a note, without IFMA).
#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use curve25519_dalek::Scalar;

    use super::super::tests::{scalars, skip};

    #[test]
    fn scalars_at_ids_match_horner_on_dalek_scalars() {
        if skip() {
            return;
        }
        let reference = |c: &[Scalar], x: u16| {
            let x = Scalar::from(u64::from(x));
            c.iter().rev().fold(Scalar::ZERO, |acc, k| acc * x + k)
        };
        let top = -Scalar::ONE;
        // ℓ − 2^252 and its neighbours: the folds' edge cases.
        let delta = Scalar::from_bytes_mod_order({
            let mut b = [0u8; 32];
            b[..16].copy_from_slice(&0x14de_f9de_a2f7_9cd6_5812_631a_5cf5_d3ed_u128.to_le_bytes());
            b
        });
        let xs: Vec<u16> = [
            0u16, 1, 2, 7, 64, 65, 127, 128, 129, 192, 255, 256, 1024, 65534, 65535, 3, 5,
        ]
        .into_iter()
        .collect();
        for len in [1usize, 2, 9, 43, 86] {
            let f = scalars(len, 60 + len as u64);
            let g = scalars(len, 70 + len as u64);
            let tops = alloc::vec![top; len];
            let edges: Vec<Scalar> = (0..len)
                .map(|k| [delta, -delta, top - delta, Scalar::ONE, top][k % 5])
                .collect();
            for polys in [
                alloc::vec![f.as_slice()],
                alloc::vec![f.as_slice(), g.as_slice()],
                alloc::vec![tops.as_slice(), edges.as_slice(), f.as_slice()],
            ] {
                // Every batch size from one id to two batches and a part.
                for count in [1usize, 8, 9, xs.len()] {
                    let got = super::super::scalars_at_ids(&polys, &xs[..count]).expect("lanes");
                    assert_eq!(got.len(), polys.len());
                    for (p, values) in polys.iter().zip(&got) {
                        let want: Vec<Scalar> = xs[..count].iter().map(|x| reference(p, *x)).collect();
                        assert_eq!(values, &want, "len {len}, {count} ids");
                    }
                }
            }
        }
        // Polynomials of different lengths are refused; no ids give empty lists.
        let (a, b) = (scalars(3, 1), scalars(4, 2));
        assert!(super::super::scalars_at_ids(&[&a, &b], &[1, 2]).is_none());
        assert_eq!(
            super::super::scalars_at_ids(&[&a], &[]),
            Some(alloc::vec![Vec::new()])
        );
    }
}
