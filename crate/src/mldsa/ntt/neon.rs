//! The aarch64 backend of [`super`]: the four-lane kernels of `lanes4.rs` on NEON, which
//! is baseline on aarch64 (no detection needed).
//!
//! The Montgomery product uses doubling high multiplies instead of widening ones, and is
//! still bit-identical to [`super::mont_reduce`]: with P = a·b and t = lo32(P)·q^-1, U = t·q,
//! P ≡ U (mod 2^32), so P − U = k·2^32 with k the portable result. `vqdmulhq_s32` returns
//! ⌊2P / 2^32⌋ = ⌊P / 2^31⌋; it saturates only for a = b = −2^31, which no caller passes
//! (pointwise inputs are NTT-domain values, |a| < 9q) and t·q never is. Since P and U agree in
//! their low 32 bits, ⌊P/2^31⌋ − ⌊U/2^31⌋ = 2k exactly, and `vhsubq_s32` halves that
//! difference without overflow: k. As |P| < 2^62 and |U| < 2^54, |k| < 2^31, so the
//! portable code's `as i32` truncation is exact too.

use core::arch::aarch64::*;

use super::lanes4::Vec4;
use super::{Q, QINV};

/// Four i32 lanes in a NEON register.
#[derive(Clone, Copy)]
pub(super) struct V(int32x4_t);

impl Vec4 for V {
    #[inline(always)]
    fn load(a: &[i32; 4]) -> Self {
        // SAFETY: reads the 16 bytes of `a` (NEON loads need only element alignment; NEON is
        // baseline on aarch64).
        V(unsafe { vld1q_s32(a.as_ptr()) })
    }
    #[inline(always)]
    fn store(self, a: &mut [i32; 4]) {
        // SAFETY: writes the 16 bytes of `a` (NEON stores need only element alignment; NEON is
        // baseline on aarch64).
        unsafe { vst1q_s32(a.as_mut_ptr(), self.0) }
    }
    #[inline(always)]
    fn splat(x: i32) -> Self {
        // SAFETY: NEON is part of every aarch64 target (the intrinsics need no more).
        unsafe { V(vdupq_n_s32(x)) }
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        // SAFETY: NEON is part of every aarch64 target (the intrinsics need no more).
        unsafe { V(vaddq_s32(self.0, b.0)) }
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        // SAFETY: NEON is part of every aarch64 target (the intrinsics need no more).
        unsafe { V(vsubq_s32(self.0, b.0)) }
    }
    #[inline(always)]
    fn mul_tw(self, z: Self, zq: Self) -> Self {
        // SAFETY: NEON is part of every aarch64 target (the intrinsics need no more).
        unsafe {
            let t = vmulq_s32(self.0, zq.0);
            let p = vqdmulhq_s32(self.0, z.0);
            let u = vqdmulhq_s32(t, vdupq_n_s32(Q));
            V(vhsubq_s32(p, u))
        }
    }
    #[inline(always)]
    fn mul(self, b: Self) -> Self {
        // SAFETY: NEON is part of every aarch64 target (the intrinsics need no more).
        unsafe {
            let t = vmulq_s32(vmulq_s32(self.0, b.0), vdupq_n_s32(QINV));
            let p = vqdmulhq_s32(self.0, b.0);
            let u = vqdmulhq_s32(t, vdupq_n_s32(Q));
            V(vhsubq_s32(p, u))
        }
    }
    #[inline(always)]
    fn zip64_lo(self, b: Self) -> Self {
        // SAFETY: NEON is part of every aarch64 target (the intrinsics need no more).
        unsafe {
            V(vreinterpretq_s32_s64(vzip1q_s64(
                vreinterpretq_s64_s32(self.0),
                vreinterpretq_s64_s32(b.0),
            )))
        }
    }
    #[inline(always)]
    fn zip64_hi(self, b: Self) -> Self {
        // SAFETY: NEON is part of every aarch64 target (the intrinsics need no more).
        unsafe {
            V(vreinterpretq_s32_s64(vzip2q_s64(
                vreinterpretq_s64_s32(self.0),
                vreinterpretq_s64_s32(b.0),
            )))
        }
    }
    #[inline(always)]
    fn even(self, b: Self) -> Self {
        // SAFETY: NEON is part of every aarch64 target (the intrinsics need no more).
        unsafe { V(vuzp1q_s32(self.0, b.0)) }
    }
    #[inline(always)]
    fn odd(self, b: Self) -> Self {
        // SAFETY: NEON is part of every aarch64 target (the intrinsics need no more).
        unsafe { V(vuzp2q_s32(self.0, b.0)) }
    }
    #[inline(always)]
    fn zip32_lo(self, b: Self) -> Self {
        // SAFETY: NEON is part of every aarch64 target (the intrinsics need no more).
        unsafe { V(vzip1q_s32(self.0, b.0)) }
    }
    #[inline(always)]
    fn zip32_hi(self, b: Self) -> Self {
        // SAFETY: NEON is part of every aarch64 target (the intrinsics need no more).
        unsafe { V(vzip2q_s32(self.0, b.0)) }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn kernels_match_portable() {
        super::super::lanes4::check_against_portable::<super::V>();
    }
}
