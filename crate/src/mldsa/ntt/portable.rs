//! The portable kernels of [`super`]: plain Rust, one coefficient at a time. They define
//! the results: every SIMD backend must return the same i32s for inputs in the ranges
//! documented on [`super::ntt`], [`super::inv_ntt`] and [`super::pointwise`].

use super::{mont_mul, INV_NTT_SCALE, LAST_ZETA_SCALED, ZETAS};

/// FIPS 204 Alg. 41 NTT, in place. Input |a| < q; output |a| < 9q.
pub(super) fn ntt(a: &mut [i32; 256]) {
    let mut k = 0;
    let mut len = 128;
    while len > 0 {
        let mut start = 0;
        while start < 256 {
            k += 1;
            let zeta = ZETAS[k];
            let (lo, hi) = a[start..start + 2 * len].split_at_mut(len);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let t = mont_mul(zeta, *y);
                *y = *x - t;
                *x += t;
            }
            start += 2 * len;
        }
        len >>= 1;
    }
}

/// FIPS 204 Alg. 42 NTT^-1, in place, times the Montgomery factor 2^32.
/// Input |a| < q; output |a| < q.
///
/// The final scaling by 256^-1 (step 21) is folded into the last layer: its sums are
/// multiplied by the scale, its differences by ζ·scale, saving a pass over the array.
pub(super) fn inv_ntt(a: &mut [i32; 256]) {
    let mut k = 256;
    let mut len = 1;
    while len < 128 {
        let mut start = 0;
        while start < 256 {
            k -= 1;
            let zeta = -ZETAS[k];
            let (lo, hi) = a[start..start + 2 * len].split_at_mut(len);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let t = *x;
                *x = t + *y;
                *y = mont_mul(zeta, t - *y);
            }
            start += 2 * len;
        }
        len <<= 1;
    }
    // Last layer (len = 128, k = 1). Sums reach at most 256·q < 2^31.
    let (lo, hi) = a.split_at_mut(128);
    for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
        let t = *x;
        *x = mont_mul(INV_NTT_SCALE, t + *y);
        *y = mont_mul(LAST_ZETA_SCALED, t - *y);
    }
}

/// r = a ∘ b, coefficient by coefficient (Montgomery products).
pub(super) fn pointwise(r: &mut [i32; 256], a: &[i32; 256], b: &[i32; 256]) {
    for ((r, x), y) in r.iter_mut().zip(a.iter()).zip(b.iter()) {
        *r = mont_mul(*x, *y);
    }
}

/// r += a ∘ b.
#[cfg_attr(not(feature = "threshold"), allow(dead_code))] // rows of Â: threshold signing
pub(super) fn pointwise_acc(r: &mut [i32; 256], a: &[i32; 256], b: &[i32; 256]) {
    for ((r, x), y) in r.iter_mut().zip(a.iter()).zip(b.iter()) {
        *r += mont_mul(*x, *y);
    }
}
