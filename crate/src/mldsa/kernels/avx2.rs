//! The AVX2 kernels of [`super`]: ExpandA's rejection sampling eight candidates at a time,
//! and HighBits, LowBits, MakeHint and UseHint eight coefficients at a time, bit-identical
//! to the portable code. The rounding kernels are lane-wise arithmetic, masks and compares:
//! no branch or index depends on the (secret, in signing) coefficients.
//!
//! Rejection sampling spreads 24 bytes over eight 32-bit lanes, compares them with q and
//! moves the accepted lanes to the front with a permutation looked up by the 8-bit accept
//! mask (public data: the stream of ρ), then stores all eight lanes and advances by the
//! number accepted; the lanes past it are overwritten by the next store or never read.

use core::arch::x86_64::*;

use super::super::ntt::{Q, QINV};
use super::{Poly, N};

/// Proof that the CPU has AVX2 and the backend switch allows it: only [`Avx2::get`]
/// makes one, so its methods may call the `#[target_feature]` kernels.
#[derive(Clone, Copy)]
pub(super) struct Avx2(());

impl Avx2 {
    /// The token, if the switch allows SIMD and the CPU has AVX2.
    #[inline]
    pub(super) fn get() -> Option<Self> {
        (super::super::ntt::simd_allowed() && std::is_x86_feature_detected!("avx2")).then_some(Avx2(()))
    }

    /// [`super::rej_ntt`]'s vector part: the number of bytes of `block` it consumed.
    #[inline]
    pub(super) fn rej_ntt(self, block: &[u8], a: &mut [i32; N], filled: &mut usize) -> usize {
        // SAFETY: `self` exists only if the CPU has AVX2 (`Avx2::get`).
        unsafe { rej_ntt(block, a, filled) }
    }

    /// [`super::use_hint_poly`].
    #[inline]
    pub(super) fn use_hint(self, w1: &mut [i32; N], h: &[bool; N], r: &[i32; N], gamma2: i32) {
        if gamma2 == (Q - 1) / 32 {
            // SAFETY: `self` exists only if the CPU has AVX2 (`Avx2::get`).
            unsafe { use_hint::<false>(w1, h, r) }
        } else {
            // SAFETY: as above.
            unsafe { use_hint::<true>(w1, h, r) }
        }
    }
}

impl Avx2 {
    /// [`super::dot_poly`].
    #[inline]
    pub(super) fn dot(self, r: &mut [i32; N], a: &[Poly], b: &[Poly], minus: Option<(&Poly, &Poly)>) {
        // SAFETY: `self` exists only if the CPU has AVX2 (`Avx2::get`).
        unsafe { dot(r, a, b, minus) }
    }

    /// [`super::bits_poly`].
    #[inline]
    pub(super) fn bits<const HIGH: bool>(self, out: &mut [i32; N], r: &[i32; N], gamma2: i32) {
        if gamma2 == (Q - 1) / 32 {
            // SAFETY: `self` exists only if the CPU has AVX2 (`Avx2::get`).
            unsafe { bits::<false, HIGH>(out, r) }
        } else {
            // SAFETY: as above.
            unsafe { bits::<true, HIGH>(out, r) }
        }
    }

    /// [`super::reduce_poly`].
    #[inline]
    pub(super) fn reduce<const FREEZE: bool>(self, a: &mut [i32; N]) {
        // SAFETY: `self` exists only if the CPU has AVX2 (`Avx2::get`).
        unsafe { reduce::<FREEZE>(a) }
    }

    /// [`super::exceeds_poly`].
    #[inline]
    pub(super) fn exceeds(self, a: &[i32; N], bound: i32) -> bool {
        // SAFETY: `self` exists only if the CPU has AVX2 (`Avx2::get`).
        unsafe { exceeds(a, bound) }
    }

    /// [`super::make_hint_poly`].
    #[inline]
    pub(super) fn make_hint(self, h: &mut [i32; N], r: &[i32; N], ct0: &[i32; N], gamma2: i32) -> usize {
        if gamma2 == (Q - 1) / 32 {
            // SAFETY: `self` exists only if the CPU has AVX2 (`Avx2::get`).
            unsafe { make_hint::<false>(h, r, ct0) }
        } else {
            // SAFETY: as above.
            unsafe { make_hint::<true>(h, r, ct0) }
        }
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn load(a: &[i32]) -> __m256i {
    debug_assert!(a.len() == 8);
    let a: &[i32; 8] = a.try_into().unwrap_or_else(|_| unreachable!());
    // SAFETY: reads the 32 bytes of `a`; no alignment requirement.
    unsafe { _mm256_loadu_si256(a.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2")]
fn store(a: &mut [i32], v: __m256i) {
    let a: &mut [i32; 8] = a.try_into().unwrap_or_else(|_| unreachable!());
    // SAFETY: writes the 32 bytes of `a`; no alignment requirement.
    unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), v) }
}

/// Σ a_j·b_j in 64-bit lanes (even and odd 32-bit lanes apart, as `_mm256_mul_epi32`
/// takes them), then one Montgomery reduction: t = lo32(sum)·q^-1, (sum − t·q) >> 32, the
/// low halves cancelling as in [`super::super::ntt::mont_reduce`].
#[inline]
#[target_feature(enable = "avx2")]
fn dot(r: &mut [i32; N], a: &[Poly], b: &[Poly], minus: Option<(&Poly, &Poly)>) {
    let q = _mm256_set1_epi32(Q);
    let qinv = _mm256_set1_epi32(QINV);
    for (c, out) in r.chunks_exact_mut(8).enumerate() {
        let (mut se, mut so) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        for (x, y) in a.iter().zip(b.iter()) {
            let x = load(&x.0[8 * c..8 * c + 8]);
            let y = load(&y.0[8 * c..8 * c + 8]);
            se = _mm256_add_epi64(se, _mm256_mul_epi32(x, y));
            so = _mm256_add_epi64(
                so,
                _mm256_mul_epi32(_mm256_srli_epi64::<32>(x), _mm256_srli_epi64::<32>(y)),
            );
        }
        if let Some((x, y)) = minus {
            let x = load(&x.0[8 * c..8 * c + 8]);
            let y = load(&y.0[8 * c..8 * c + 8]);
            se = _mm256_sub_epi64(se, _mm256_mul_epi32(x, y));
            so = _mm256_sub_epi64(
                so,
                _mm256_mul_epi32(_mm256_srli_epi64::<32>(x), _mm256_srli_epi64::<32>(y)),
            );
        }
        let de = _mm256_sub_epi64(se, _mm256_mul_epi32(_mm256_mul_epi32(se, qinv), q));
        let d_o = _mm256_sub_epi64(so, _mm256_mul_epi32(_mm256_mul_epi32(so, qinv), q));
        store(out, _mm256_blend_epi32::<0xAA>(_mm256_srli_epi64::<32>(de), d_o));
    }
}

/// reduce32 (t = (a + 2^22) >> 23, a − t·q) of eight lanes at a time, then (`FREEZE`) q
/// added where the result is negative: the arithmetic of `ntt::reduce32` and `ntt::caddq`.
#[inline]
#[target_feature(enable = "avx2")]
fn reduce<const FREEZE: bool>(a: &mut [i32; N]) {
    let q = _mm256_set1_epi32(Q);
    let half = _mm256_set1_epi32(1 << 22);
    for c in a.chunks_exact_mut(8) {
        let x = load(c);
        let t = _mm256_srai_epi32::<23>(_mm256_add_epi32(x, half));
        let mut x = _mm256_sub_epi32(x, _mm256_mullo_epi32(t, q));
        if FREEZE {
            x = _mm256_add_epi32(x, _mm256_and_si256(_mm256_srai_epi32::<31>(x), q));
        }
        store(c, x);
    }
}

/// Whether some |a| ≥ `bound`: the OR over all lanes of (bound − 1) − |a| has its sign bit
/// set exactly then (|a| < 2^31 in the `reduce32` range). No branch on the data; the one
/// bit leaves through a movemask.
#[inline]
#[target_feature(enable = "avx2")]
fn exceeds(a: &[i32; N], bound: i32) -> bool {
    let b = _mm256_set1_epi32(bound - 1);
    let mut flag = _mm256_setzero_si256();
    for c in a.chunks_exact(8) {
        flag = _mm256_or_si256(flag, _mm256_sub_epi32(b, _mm256_abs_epi32(load(c))));
    }
    _mm256_movemask_ps(_mm256_castsi256_ps(flag)) != 0
}

/// HighBits (`HIGH`) or LowBits of each coefficient.
#[inline]
#[target_feature(enable = "avx2")]
fn bits<const G88: bool, const HIGH: bool>(out: &mut [i32; N], r: &[i32; N]) {
    let gamma2 = if G88 { (Q - 1) / 88 } else { (Q - 1) / 32 };
    for (o, r) in out.chunks_exact_mut(8).zip(r.chunks_exact(8)) {
        let (r1, r0) = decompose::<G88>(load(r), gamma2);
        store(o, if HIGH { r1 } else { r0 });
    }
}

/// MakeHint as signing calls it: 1 where HighBits(freeze(r + ct0)) ≠ HighBits(r), and the
/// number of ones (a sum of lanes, no branch).
#[inline]
#[target_feature(enable = "avx2")]
fn make_hint<const G88: bool>(h: &mut [i32; N], r: &[i32; N], ct0: &[i32; N]) -> usize {
    let gamma2 = if G88 { (Q - 1) / 88 } else { (Q - 1) / 32 };
    let q = _mm256_set1_epi32(Q);
    let one = _mm256_set1_epi32(1);
    let mut count = _mm256_setzero_si256();
    for ((h, r), c) in h
        .chunks_exact_mut(8)
        .zip(r.chunks_exact(8))
        .zip(ct0.chunks_exact(8))
    {
        let r = load(r);
        // freeze(r + ct0): reduce32, then add q to negatives (as `ntt::freeze`).
        let x = _mm256_add_epi32(r, load(c));
        let t = _mm256_srai_epi32::<23>(_mm256_add_epi32(x, _mm256_set1_epi32(1 << 22)));
        let x = _mm256_sub_epi32(x, _mm256_mullo_epi32(t, q));
        let x = _mm256_add_epi32(x, _mm256_and_si256(_mm256_srai_epi32::<31>(x), q));
        let same = _mm256_cmpeq_epi32(decompose::<G88>(x, gamma2).0, decompose::<G88>(r, gamma2).0);
        let bit = _mm256_andnot_si256(same, one);
        count = _mm256_add_epi32(count, bit);
        store(h, bit);
    }
    let mut lanes = [0i32; 8];
    store(&mut lanes, count);
    // Exact: at most 256 ones.
    #[allow(clippy::cast_sign_loss)]
    let ones = lanes.iter().sum::<i32>() as usize;
    ones
}

/// For each 8-bit accept mask, the lanes to gather, accepted ones first, in order.
// Exact: lane indices below 8.
#[allow(clippy::cast_possible_truncation)]
const COMPACT8: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut m = 0;
    while m < 256 {
        let (mut k, mut j) = (0usize, 0usize);
        while j < 8 {
            if (m >> j) & 1 == 1 {
                t[m][k] = j as u8;
                k += 1;
            }
            j += 1;
        }
        m += 1;
    }
    t
};

/// 24 bytes from `b` (which holds at least that many) in the low 24 bytes of a vector.
#[inline]
#[target_feature(enable = "avx2")]
fn load24(b: &[u8]) -> __m256i {
    if b.len() >= 32 {
        // SAFETY: reads 32 bytes of `b`, which holds at least 32; no alignment requirement.
        unsafe { _mm256_loadu_si256(b.as_ptr().cast()) }
    } else {
        let mut buf = [0u8; 32];
        buf[..24].copy_from_slice(&b[..24]);
        // SAFETY: reads the 32 bytes of `buf`.
        unsafe { _mm256_loadu_si256(buf.as_ptr().cast()) }
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn rej_ntt(block: &[u8], a: &mut [i32; N], filled: &mut usize) -> usize {
    // Bytes 0..16 to the low half, 8..24 to the high half; then each 3-byte candidate to a
    // 32-bit lane (-1 selects zero).
    #[rustfmt::skip]
    let spread = _mm256_setr_epi8(
        0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
        4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1,
    );
    let mask = _mm256_set1_epi32(0x7f_ffff);
    let q = _mm256_set1_epi32(Q);
    let mut off = 0;
    while off + 24 <= block.len() && *filled + 8 <= N {
        let v = _mm256_permute4x64_epi64::<0x94>(load24(&block[off..]));
        let v = _mm256_and_si256(_mm256_shuffle_epi8(v, spread), mask);
        let good = _mm256_cmpgt_epi32(q, v);
        // Exact: a movemask has 8 bits.
        #[allow(clippy::cast_sign_loss)]
        let m = _mm256_movemask_ps(_mm256_castsi256_ps(good)) as usize;
        let idx = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(i64::from_le_bytes(COMPACT8[m])));
        let out: &mut [i32; 8] = (&mut a[*filled..*filled + 8])
            .try_into()
            .unwrap_or_else(|_| unreachable!());
        // SAFETY: writes the 32 bytes of `out`; no alignment requirement.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), _mm256_permutevar8x32_epi32(v, idx)) };
        *filled += m.count_ones() as usize;
        off += 24;
    }
    off
}

/// UseHint on eight lanes: r1 from Decompose, moved by ±1 mod m where the hint is set
/// (up if r0 > 0), as [`super::super::hint::use_hint`] does with branches.
#[inline]
#[target_feature(enable = "avx2")]
fn use_hint<const G88: bool>(w1: &mut [i32; N], h: &[bool; N], r: &[i32; N]) {
    let gamma2 = if G88 { (Q - 1) / 88 } else { (Q - 1) / 32 };
    let zero = _mm256_setzero_si256();
    let one = _mm256_set1_epi32(1);
    for ((w, h), r) in w1
        .chunks_exact_mut(8)
        .zip(h.chunks_exact(8))
        .zip(r.chunks_exact(8))
    {
        // SAFETY: reads the 32 bytes of `r`; no alignment requirement.
        let r = unsafe { _mm256_loadu_si256(r.as_ptr().cast()) };
        // SAFETY: reads the 8 bytes of `h` (a bool is one byte, 0 or 1); no alignment requirement.
        let hv = _mm256_cvtepu8_epi32(unsafe { _mm_loadl_epi64(h.as_ptr().cast()) });
        let (r1, r0) = decompose::<G88>(r, gamma2);
        // d = ±1 where the hint is set: +1 if r0 > 0, else −1.
        let pos = _mm256_cmpgt_epi32(r0, zero);
        let s = _mm256_sub_epi32(zero, _mm256_add_epi32(_mm256_add_epi32(pos, pos), one));
        let d = _mm256_and_si256(s, _mm256_sub_epi32(zero, hv));
        let mut t = _mm256_add_epi32(r1, d);
        if G88 {
            // Mod 44: −1 → 43, 44 → 0.
            let m = _mm256_set1_epi32(44);
            t = _mm256_add_epi32(t, _mm256_and_si256(_mm256_srai_epi32::<31>(t), m));
            t = _mm256_sub_epi32(
                t,
                _mm256_and_si256(_mm256_cmpgt_epi32(t, _mm256_set1_epi32(43)), m),
            );
        } else {
            t = _mm256_and_si256(t, _mm256_set1_epi32(15));
        }
        // SAFETY: writes the 32 bytes of `w`; no alignment requirement.
        unsafe { _mm256_storeu_si256(w.as_mut_ptr().cast(), t) };
    }
}

/// Decompose (Alg. 36) of r in [0, q) on eight lanes, the arithmetic of
/// [`super::super::rounding::decompose`]: (r1, r0).
#[inline]
#[target_feature(enable = "avx2")]
fn decompose<const G88: bool>(r: __m256i, gamma2: i32) -> (__m256i, __m256i) {
    let r1 = _mm256_srai_epi32::<7>(_mm256_add_epi32(r, _mm256_set1_epi32(127)));
    let r1 = if G88 {
        let r1 = _mm256_mullo_epi32(r1, _mm256_set1_epi32(11275));
        let r1 = _mm256_srai_epi32::<24>(_mm256_add_epi32(r1, _mm256_set1_epi32(1 << 23)));
        // r1 = 44 (r near q − 1) wraps to 0.
        _mm256_andnot_si256(_mm256_cmpgt_epi32(r1, _mm256_set1_epi32(43)), r1)
    } else {
        let r1 = _mm256_mullo_epi32(r1, _mm256_set1_epi32(1025));
        let r1 = _mm256_srai_epi32::<22>(_mm256_add_epi32(r1, _mm256_set1_epi32(1 << 21)));
        _mm256_and_si256(r1, _mm256_set1_epi32(15))
    };
    let r0 = _mm256_sub_epi32(r, _mm256_mullo_epi32(r1, _mm256_set1_epi32(2 * gamma2)));
    let over = _mm256_cmpgt_epi32(r0, _mm256_set1_epi32((Q - 1) / 2));
    (
        r1,
        _mm256_sub_epi32(r0, _mm256_and_si256(over, _mm256_set1_epi32(Q))),
    )
}
