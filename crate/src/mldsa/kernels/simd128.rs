//! The wasm32 simd128 kernels of [`super`]: ExpandA's rejection sampling four candidates at
//! a time, and HighBits, LowBits, MakeHint and UseHint four coefficients at a time,
//! bit-identical to the portable code. The rounding kernels are lane-wise arithmetic, masks
//! and compares: no branch or index depends on the (secret, in signing) coefficients.
//!
//! Rejection sampling spreads 12 bytes over four 32-bit lanes with a byte swizzle, compares
//! them with q and moves the accepted lanes to the front with a second swizzle looked up by
//! the 4-bit accept mask (public data: the stream of ρ), then stores all four lanes and
//! advances by the number accepted.

use core::arch::wasm32::*;

use super::super::ntt::{Q, QINV};
use super::{Poly, N};

/// Byte swizzles by accept mask (see [`super::compact4`]).
const COMPACT4: [[u8; 16]; 16] = super::compact4();

/// 16 bytes as a vector.
#[inline(always)]
fn bytes(b: &[u8; 16]) -> v128 {
    // SAFETY: reads the 16 bytes of `b`; wasm loads have no alignment requirement.
    unsafe { v128_load(b.as_ptr().cast()) }
}

/// [`super::rej_ntt`]'s vector part, four candidates (12 bytes) a step, the last of a block
/// through a copy so that no load reads past it: the number of bytes consumed.
pub(super) fn rej_ntt(block: &[u8], a: &mut [i32; N], filled: &mut usize) -> usize {
    let spread = i8x16(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    let mask = i32x4_splat(0x7f_ffff);
    let q = i32x4_splat(Q);
    let mut off = 0;
    while off + 12 <= block.len() && *filled + 4 <= N {
        let v = if off + 16 <= block.len() {
            let b: &[u8; 16] = block[off..off + 16].try_into().unwrap_or_else(|_| unreachable!());
            bytes(b)
        } else {
            let mut buf = [0u8; 16];
            buf[..12].copy_from_slice(&block[off..off + 12]);
            bytes(&buf)
        };
        let v = v128_and(i8x16_swizzle(v, spread), mask);
        let m = usize::from(i32x4_bitmask(i32x4_lt(v, q)));
        let out: &mut [i32; 4] = (&mut a[*filled..*filled + 4])
            .try_into()
            .unwrap_or_else(|_| unreachable!());
        // SAFETY: writes the 16 bytes of `out`; wasm stores have no alignment requirement.
        unsafe { v128_store(out.as_mut_ptr().cast(), i8x16_swizzle(v, bytes(&COMPACT4[m]))) };
        *filled += m.count_ones() as usize;
        off += 12;
    }
    off
}

#[inline(always)]
fn load(a: &[i32]) -> v128 {
    let a: &[i32; 4] = a.try_into().unwrap_or_else(|_| unreachable!());
    // SAFETY: reads the 16 bytes of `a`; wasm loads have no alignment requirement.
    unsafe { v128_load(a.as_ptr().cast()) }
}

#[inline(always)]
fn store(a: &mut [i32], v: v128) {
    let a: &mut [i32; 4] = a.try_into().unwrap_or_else(|_| unreachable!());
    // SAFETY: writes the 16 bytes of `a`; wasm stores have no alignment requirement.
    unsafe { v128_store(a.as_mut_ptr().cast(), v) }
}

/// Σ a_j·b_j in 64-bit lanes (`i64x2_extmul_*`), then one Montgomery reduction:
/// t = lo32(sum)·q^-1, (sum − t·q) >> 32, the low halves cancelling as in
/// [`super::super::ntt::mont_reduce`].
pub(super) fn dot(r: &mut [i32; N], a: &[Poly], b: &[Poly], minus: Option<(&Poly, &Poly)>) {
    let q = i32x4_splat(Q);
    let qinv = i32x4_splat(QINV);
    for (c, out) in r.chunks_exact_mut(4).enumerate() {
        let (mut lo, mut hi) = (i64x2_splat(0), i64x2_splat(0));
        for (x, y) in a.iter().zip(b.iter()) {
            let x = load(&x.0[4 * c..4 * c + 4]);
            let y = load(&y.0[4 * c..4 * c + 4]);
            lo = i64x2_add(lo, i64x2_extmul_low_i32x4(x, y));
            hi = i64x2_add(hi, i64x2_extmul_high_i32x4(x, y));
        }
        if let Some((x, y)) = minus {
            let x = load(&x.0[4 * c..4 * c + 4]);
            let y = load(&y.0[4 * c..4 * c + 4]);
            lo = i64x2_sub(lo, i64x2_extmul_low_i32x4(x, y));
            hi = i64x2_sub(hi, i64x2_extmul_high_i32x4(x, y));
        }
        let t = i32x4_mul(i32x4_shuffle::<0, 2, 4, 6>(lo, hi), qinv);
        let lo = i64x2_sub(lo, i64x2_extmul_low_i32x4(t, q));
        let hi = i64x2_sub(hi, i64x2_extmul_high_i32x4(t, q));
        store(out, i32x4_shuffle::<1, 3, 5, 7>(lo, hi));
    }
}

/// HighBits (`HIGH`) or LowBits of each coefficient.
pub(super) fn bits<const HIGH: bool>(out: &mut [i32; N], r: &[i32; N], gamma2: i32) {
    let g88 = gamma2 != (Q - 1) / 32;
    for (o, r) in out.chunks_exact_mut(4).zip(r.chunks_exact(4)) {
        let (r1, r0) = if g88 {
            decompose::<true>(load(r), gamma2)
        } else {
            decompose::<false>(load(r), gamma2)
        };
        store(o, if HIGH { r1 } else { r0 });
    }
}

/// MakeHint as signing calls it, as the AVX2 kernel (`avx2.rs`) does on eight lanes.
pub(super) fn make_hint(h: &mut [i32; N], r: &[i32; N], ct0: &[i32; N], gamma2: i32) -> usize {
    if gamma2 == (Q - 1) / 32 {
        make_hint_with::<false>(h, r, ct0)
    } else {
        make_hint_with::<true>(h, r, ct0)
    }
}

#[inline(always)]
fn make_hint_with<const G88: bool>(h: &mut [i32; N], r: &[i32; N], ct0: &[i32; N]) -> usize {
    let gamma2 = if G88 { (Q - 1) / 88 } else { (Q - 1) / 32 };
    let q = i32x4_splat(Q);
    let one = i32x4_splat(1);
    let mut count = i32x4_splat(0);
    for ((h, r), c) in h
        .chunks_exact_mut(4)
        .zip(r.chunks_exact(4))
        .zip(ct0.chunks_exact(4))
    {
        let r = load(r);
        // freeze(r + ct0): reduce32, then add q to negatives (as `ntt::freeze`).
        let x = i32x4_add(r, load(c));
        let t = i32x4_shr(i32x4_add(x, i32x4_splat(1 << 22)), 23);
        let x = i32x4_sub(x, i32x4_mul(t, q));
        let x = i32x4_add(x, v128_and(i32x4_shr(x, 31), q));
        let same = i32x4_eq(decompose::<G88>(x, gamma2).0, decompose::<G88>(r, gamma2).0);
        let bit = v128_andnot(one, same);
        count = i32x4_add(count, bit);
        store(h, bit);
    }
    let lanes = [
        i32x4_extract_lane::<0>(count),
        i32x4_extract_lane::<1>(count),
        i32x4_extract_lane::<2>(count),
        i32x4_extract_lane::<3>(count),
    ];
    // Exact: at most 256 ones.
    #[allow(clippy::cast_sign_loss)]
    let ones = lanes.iter().sum::<i32>() as usize;
    ones
}

/// UseHint on four lanes, as the AVX2 kernel (`avx2.rs`) does on eight.
pub(super) fn use_hint(w1: &mut [i32; N], h: &[bool; N], r: &[i32; N], gamma2: i32) {
    if gamma2 == (Q - 1) / 32 {
        use_hint_with::<false>(w1, h, r);
    } else {
        use_hint_with::<true>(w1, h, r);
    }
}

#[inline(always)]
fn use_hint_with<const G88: bool>(w1: &mut [i32; N], h: &[bool; N], r: &[i32; N]) {
    let gamma2 = if G88 { (Q - 1) / 88 } else { (Q - 1) / 32 };
    let zero = i32x4_splat(0);
    let one = i32x4_splat(1);
    for ((w, h), r) in w1
        .chunks_exact_mut(4)
        .zip(h.chunks_exact(4))
        .zip(r.chunks_exact(4))
    {
        // SAFETY: reads the 16 bytes of `r`; wasm loads have no alignment requirement.
        let r = unsafe { v128_load(r.as_ptr().cast()) };
        // SAFETY: reads the 4 bytes of `h` (a bool is one byte, 0 or 1), widened to 32 bits.
        let hv = u32x4_extend_low_u16x8(u16x8_extend_low_u8x16(unsafe {
            v128_load32_zero(h.as_ptr().cast())
        }));
        let (r1, r0) = decompose::<G88>(r, gamma2);
        // d = ±1 where the hint is set: +1 if r0 > 0, else −1.
        let pos = i32x4_gt(r0, zero);
        let s = i32x4_sub(zero, i32x4_add(i32x4_add(pos, pos), one));
        let d = v128_and(s, i32x4_sub(zero, hv));
        let mut t = i32x4_add(r1, d);
        if G88 {
            // Mod 44: −1 → 43, 44 → 0.
            let m = i32x4_splat(44);
            t = i32x4_add(t, v128_and(i32x4_shr(t, 31), m));
            t = i32x4_sub(t, v128_and(i32x4_gt(t, i32x4_splat(43)), m));
        } else {
            t = v128_and(t, i32x4_splat(15));
        }
        // SAFETY: writes the 16 bytes of `w`; wasm stores have no alignment requirement.
        unsafe { v128_store(w.as_mut_ptr().cast(), t) };
    }
}

/// Decompose (Alg. 36) of r in [0, q) on four lanes, the arithmetic of
/// [`super::super::rounding::decompose`]: (r1, r0).
#[inline(always)]
fn decompose<const G88: bool>(r: v128, gamma2: i32) -> (v128, v128) {
    let r1 = i32x4_shr(i32x4_add(r, i32x4_splat(127)), 7);
    let r1 = if G88 {
        let r1 = i32x4_shr(
            i32x4_add(i32x4_mul(r1, i32x4_splat(11275)), i32x4_splat(1 << 23)),
            24,
        );
        // r1 = 44 (r near q − 1) wraps to 0.
        v128_andnot(r1, i32x4_gt(r1, i32x4_splat(43)))
    } else {
        let r1 = i32x4_shr(
            i32x4_add(i32x4_mul(r1, i32x4_splat(1025)), i32x4_splat(1 << 21)),
            22,
        );
        v128_and(r1, i32x4_splat(15))
    };
    let r0 = i32x4_sub(r, i32x4_mul(r1, i32x4_splat(2 * gamma2)));
    let over = i32x4_gt(r0, i32x4_splat((Q - 1) / 2));
    (r1, i32x4_sub(r0, v128_and(over, i32x4_splat(Q))))
}
