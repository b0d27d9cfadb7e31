//! The wasm32 backend of [`super`]: the four-lane kernels of `lanes4.rs` on simd128
//! (compiled only with that target feature, which the crate's wasm build enables, and not
//! in the light build: see [`super`]).
//!
//! The Montgomery product follows [`super::mont_reduce`] step for step: t = lo32(a·b)·q^-1
//! with 32-bit multiplies, the 64-bit products a·b and t·q with `i64x2_extmul_*_i32x4`
//! (two lanes at a time), and the high halves of their difference, whose low halves are
//! zero, so the result is the portable one bit for bit.

use core::arch::wasm32::*;

use super::lanes4::Vec4;
use super::{Q, QINV};

/// Four i32 lanes in a simd128 register.
#[derive(Clone, Copy)]
pub(super) struct V(v128);

/// The high halves of a·b − t·q, lane by lane.
#[inline(always)]
fn high_diff(a: v128, b: v128, t: v128) -> v128 {
    let q = i32x4_splat(Q);
    let lo = i64x2_sub(i64x2_extmul_low_i32x4(a, b), i64x2_extmul_low_i32x4(t, q));
    let hi = i64x2_sub(i64x2_extmul_high_i32x4(a, b), i64x2_extmul_high_i32x4(t, q));
    i32x4_shuffle::<1, 3, 5, 7>(lo, hi)
}

impl Vec4 for V {
    #[inline(always)]
    fn load(a: &[i32; 4]) -> Self {
        // SAFETY: reads the 16 bytes of `a`; wasm loads have no alignment requirement.
        V(unsafe { v128_load(a.as_ptr().cast()) })
    }
    #[inline(always)]
    fn store(self, a: &mut [i32; 4]) {
        // SAFETY: writes the 16 bytes of `a`; wasm stores have no alignment requirement.
        unsafe { v128_store(a.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn splat(x: i32) -> Self {
        V(i32x4_splat(x))
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        V(i32x4_add(self.0, b.0))
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        V(i32x4_sub(self.0, b.0))
    }
    #[inline(always)]
    fn mul_tw(self, z: Self, zq: Self) -> Self {
        V(high_diff(self.0, z.0, i32x4_mul(self.0, zq.0)))
    }
    #[inline(always)]
    fn mul(self, b: Self) -> Self {
        let t = i32x4_mul(i32x4_mul(self.0, b.0), i32x4_splat(QINV));
        V(high_diff(self.0, b.0, t))
    }
    #[inline(always)]
    fn zip64_lo(self, b: Self) -> Self {
        V(i32x4_shuffle::<0, 1, 4, 5>(self.0, b.0))
    }
    #[inline(always)]
    fn zip64_hi(self, b: Self) -> Self {
        V(i32x4_shuffle::<2, 3, 6, 7>(self.0, b.0))
    }
    #[inline(always)]
    fn even(self, b: Self) -> Self {
        V(i32x4_shuffle::<0, 2, 4, 6>(self.0, b.0))
    }
    #[inline(always)]
    fn odd(self, b: Self) -> Self {
        V(i32x4_shuffle::<1, 3, 5, 7>(self.0, b.0))
    }
    #[inline(always)]
    fn zip32_lo(self, b: Self) -> Self {
        V(i32x4_shuffle::<0, 4, 1, 5>(self.0, b.0))
    }
    #[inline(always)]
    fn zip32_hi(self, b: Self) -> Self {
        V(i32x4_shuffle::<2, 6, 3, 7>(self.0, b.0))
    }
}
