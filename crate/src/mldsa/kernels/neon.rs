//! The aarch64 NEON kernels of [`super`]: ExpandA's rejection sampling four candidates at a
//! time and UseHint four coefficients at a time, bit-identical to the portable code. NEON is
//! baseline on aarch64; the steps are those of the simd128 kernels (`simd128.rs`), with
//! table lookups (`vqtbl1q_u8`) for byte swizzles.

use core::arch::aarch64::*;

use super::super::ntt::Q;
use super::N;

/// Byte lookups by accept mask (see [`super::compact4`]).
const COMPACT4: [[u8; 16]; 16] = super::compact4();

/// 16 bytes as a vector.
#[inline(always)]
fn bytes(b: &[u8; 16]) -> uint8x16_t {
    // SAFETY: reads the 16 bytes of `b` (byte loads need no alignment; NEON is baseline).
    unsafe { vld1q_u8(b.as_ptr()) }
}

/// [`super::rej_ntt`]'s vector part, four candidates (12 bytes) a step, the last of a block
/// through a copy so that no load reads past it: the number of bytes consumed.
pub(super) fn rej_ntt(block: &[u8], a: &mut [i32; N], filled: &mut usize) -> usize {
    const SPREAD: [u8; 16] = [0, 1, 2, 0xff, 3, 4, 5, 0xff, 6, 7, 8, 0xff, 9, 10, 11, 0xff];
    const BITS: [u32; 4] = [1, 2, 4, 8];
    let mut off = 0;
    while off + 12 <= block.len() && *filled + 4 <= N {
        let raw = if off + 16 <= block.len() {
            let b: &[u8; 16] = block[off..off + 16].try_into().unwrap_or_else(|_| unreachable!());
            bytes(b)
        } else {
            let mut buf = [0u8; 16];
            buf[..12].copy_from_slice(&block[off..off + 12]);
            bytes(&buf)
        };
        let out: &mut [i32; 4] = (&mut a[*filled..*filled + 4])
            .try_into()
            .unwrap_or_else(|_| unreachable!());
        // SAFETY: register operations, then a store of the 16 bytes of `out` (element
        // alignment only); NEON is baseline on aarch64.
        let m = unsafe {
            let v = vandq_u32(
                vreinterpretq_u32_u8(vqtbl1q_u8(raw, bytes(&SPREAD))),
                vdupq_n_u32(0x7f_ffff),
            );
            // Exact: Q is positive.
            #[allow(clippy::cast_sign_loss)]
            let good = vcltq_u32(v, vdupq_n_u32(Q as u32));
            let m = vaddvq_u32(vandq_u32(good, vld1q_u32(BITS.as_ptr()))) as usize;
            let packed = vqtbl1q_u8(vreinterpretq_u8_u32(v), bytes(&COMPACT4[m]));
            vst1q_s32(out.as_mut_ptr(), vreinterpretq_s32_u8(packed));
            m
        };
        *filled += m.count_ones() as usize;
        off += 12;
    }
    off
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
    for ((w, h), r) in w1
        .chunks_exact_mut(4)
        .zip(h.chunks_exact(4))
        .zip(r.chunks_exact(4))
    {
        let hv: [i32; 4] = core::array::from_fn(|i| i32::from(h[i]));
        // SAFETY: loads of the 16 bytes of `r` and `hv`, register operations, a store of the 16
        // bytes of `w` (element alignment only); NEON is baseline on aarch64.
        unsafe {
            let r = vld1q_s32(r.as_ptr());
            let hv = vld1q_s32(hv.as_ptr());
            let r1 = vshrq_n_s32::<7>(vaddq_s32(r, vdupq_n_s32(127)));
            let r1 = if G88 {
                let r1 = vshrq_n_s32::<24>(vmlaq_s32(vdupq_n_s32(1 << 23), r1, vdupq_n_s32(11275)));
                // r1 = 44 (r near q − 1) wraps to 0.
                vbicq_s32(r1, vreinterpretq_s32_u32(vcgtq_s32(r1, vdupq_n_s32(43))))
            } else {
                let r1 = vshrq_n_s32::<22>(vmlaq_s32(vdupq_n_s32(1 << 21), r1, vdupq_n_s32(1025)));
                vandq_s32(r1, vdupq_n_s32(15))
            };
            let r0 = vmlsq_s32(r, r1, vdupq_n_s32(2 * gamma2));
            let over = vreinterpretq_s32_u32(vcgtq_s32(r0, vdupq_n_s32((Q - 1) / 2)));
            let r0 = vsubq_s32(r0, vandq_s32(over, vdupq_n_s32(Q)));
            // d = ±1 where the hint is set: +1 if r0 > 0, else −1.
            let pos = vreinterpretq_s32_u32(vcgtq_s32(r0, vdupq_n_s32(0)));
            let s = vnegq_s32(vaddq_s32(vaddq_s32(pos, pos), vdupq_n_s32(1)));
            let d = vandq_s32(s, vnegq_s32(hv));
            let mut t = vaddq_s32(r1, d);
            if G88 {
                // Mod 44: −1 → 43, 44 → 0.
                let m = vdupq_n_s32(44);
                t = vaddq_s32(t, vandq_s32(vshrq_n_s32::<31>(t), m));
                t = vsubq_s32(
                    t,
                    vandq_s32(vreinterpretq_s32_u32(vcgtq_s32(t, vdupq_n_s32(43))), m),
                );
            } else {
                t = vandq_s32(t, vdupq_n_s32(15));
            }
            vst1q_s32(w.as_mut_ptr(), t);
        }
    }
}
