//! The AVX2 kernels of [`super`]: the NTT, its inverse and the pointwise products on eight
//! coefficients per 256-bit register, bit-identical to the portable code.
//!
//! Montgomery products lane by lane: `_mm256_mul_epi32` multiplies the even 32-bit lanes
//! into 64-bit products (the odd lanes after a 32-bit shift), t = lo32(a·b)·q^-1 comes from
//! the product's low half, and the result is the high half of a·b − t·q, exactly as
//! [`super::mont_reduce`] computes it (the low halves cancel, so nothing is rounded).
//!
//! Each transform is two passes over the 32 vectors of a polynomial, holding eight of them
//! in registers: layers 1–3 (len 128, 64, 32) on vectors of stride 32, then layers 4–8 on
//! 64 consecutive coefficients, the last three after shuffles that put each butterfly's
//! two coefficients in the same lane of two registers. The lane-varying twiddles of those
//! layers are compile-time tables.

use core::arch::x86_64::*;

use super::{INV_NTT_SCALE, LAST_ZETA_SCALED, Q, QINV, ZETAS};

/// Proof that the CPU has AVX2 and the backend switch allows it: only [`Avx2::get`]
/// makes one, so its methods may call the `#[target_feature]` kernels.
#[derive(Clone, Copy)]
pub(super) struct Avx2(());

impl Avx2 {
    /// The token, if the switch allows SIMD and the CPU has AVX2 (std caches the
    /// detection: one atomic load).
    #[inline]
    pub(super) fn get() -> Option<Self> {
        (super::simd_allowed() && std::is_x86_feature_detected!("avx2")).then_some(Avx2(()))
    }

    /// [`super::ntt`].
    #[inline]
    pub(super) fn ntt(self, a: &mut [i32; 256]) {
        // SAFETY: `self` exists only if the CPU has AVX2 (`Avx2::get`).
        unsafe { ntt(a) }
    }

    /// [`super::inv_ntt`].
    #[inline]
    pub(super) fn inv_ntt(self, a: &mut [i32; 256]) {
        // SAFETY: `self` exists only if the CPU has AVX2 (`Avx2::get`).
        unsafe { inv_ntt(a) }
    }

    /// [`super::pointwise`].
    #[inline]
    pub(super) fn pointwise(self, r: &mut [i32; 256], a: &[i32; 256], b: &[i32; 256]) {
        // SAFETY: `self` exists only if the CPU has AVX2 (`Avx2::get`).
        unsafe { pointwise::<false>(r, a, b) }
    }

    /// [`super::pointwise_acc`].
    #[inline]
    pub(super) fn pointwise_acc(self, r: &mut [i32; 256], a: &[i32; 256], b: &[i32; 256]) {
        // SAFETY: `self` exists only if the CPU has AVX2 (`Avx2::get`).
        unsafe { pointwise::<true>(r, a, b) }
    }
}

/// Twiddles of a lane-varying layer, one vector per 16 coefficients (`z`), with z·q^-1
/// mod 2^32 (`zq`) for the Montgomery reduction.
struct Lanes {
    z: [[i32; 8]; 16],
    zq: [[i32; 8]; 16],
}

/// The twiddle of lane `l` of vector `i` (coefficients 16i..16i+16) for one of the six
/// shuffled layers; the lane orders are those the kernels below produce.
const fn lanes(layer: usize) -> Lanes {
    let mut t = Lanes {
        z: [[0; 8]; 16],
        zq: [[0; 8]; 16],
    };
    let mut i = 0;
    while i < 16 {
        let mut l = 0;
        while l < 8 {
            let z = match layer {
                // Forward, len 4: lanes [c0..c3 | c8..c11], 8-coefficient blocks 2i, 2i+1.
                4 => ZETAS[32 + 2 * i + l / 4],
                // Forward, len 2: lanes [c0 c1 c4 c5 | c8 c9 c12 c13], blocks of 4.
                2 => ZETAS[64 + 4 * i + l / 2],
                // Forward, len 1: lanes [c0 c2 … c14], pairs (c2l, c2l+1).
                1 => ZETAS[128 + 8 * i + l],
                // Inverse, in the same lane orders: −ζ taken from the top of the table.
                11 => -ZETAS[255 - (8 * i + l)],
                12 => -ZETAS[127 - (4 * i + l / 2)],
                _ => -ZETAS[63 - (2 * i + l / 4)],
            };
            t.z[i][l] = z;
            t.zq[i][l] = z.wrapping_mul(QINV);
            l += 1;
        }
        i += 1;
    }
    t
}

const FWD4: Lanes = lanes(4);
const FWD2: Lanes = lanes(2);
const FWD1: Lanes = lanes(1);
const INV1: Lanes = lanes(11);
const INV2: Lanes = lanes(12);
const INV4: Lanes = lanes(14);

/// A twiddle vector split for `_mm256_mul_epi32`: ζ and ζ·q^-1 in the even lanes
/// (`z`, `zq`) and the odd lanes moved down (`zo`, `zqo`).
#[derive(Clone, Copy)]
struct Tw {
    z: __m256i,
    zo: __m256i,
    zq: __m256i,
    zqo: __m256i,
}

#[inline]
#[target_feature(enable = "avx2")]
fn load(a: &[i32; 8]) -> __m256i {
    // SAFETY: reads the 32 bytes of `a`; the load has no alignment requirement.
    unsafe { _mm256_loadu_si256(a.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2")]
fn store(a: &mut [i32; 8], v: __m256i) {
    // SAFETY: writes the 32 bytes of `a`; the store has no alignment requirement.
    unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), v) }
}

/// The same twiddle ζ in every lane.
#[inline]
#[target_feature(enable = "avx2")]
fn splat(z: i32) -> Tw {
    let zq = _mm256_set1_epi32(z.wrapping_mul(QINV));
    let z = _mm256_set1_epi32(z);
    Tw {
        z,
        zo: z,
        zq,
        zqo: zq,
    }
}

/// Vector `i` of a lane-varying table.
#[inline]
#[target_feature(enable = "avx2")]
fn vary(t: &Lanes, i: usize) -> Tw {
    let z = load(&t.z[i]);
    let zq = load(&t.zq[i]);
    Tw {
        z,
        zo: _mm256_srli_epi64::<32>(z),
        zq,
        zqo: _mm256_srli_epi64::<32>(zq),
    }
}

/// From the 64-bit lanes p_e, p_o (products of the even and odd lanes) and u_e, u_o (their
/// t·q), the high halves of p − u, back in 32-bit lane order. The low halves are equal,
/// so this is (p − u) >> 32 exactly, as in [`super::mont_reduce`].
#[inline]
#[target_feature(enable = "avx2")]
fn high_diff(pe: __m256i, po: __m256i, ue: __m256i, uo: __m256i) -> __m256i {
    let de = _mm256_sub_epi64(pe, ue);
    let d_o = _mm256_sub_epi64(po, uo);
    _mm256_blend_epi32::<0xAA>(_mm256_srli_epi64::<32>(de), d_o)
}

/// Lane-wise Montgomery product a·ζ·2^-32 with a twiddle.
#[inline]
#[target_feature(enable = "avx2")]
fn mul_tw(a: __m256i, w: Tw) -> __m256i {
    let q = _mm256_set1_epi32(Q);
    let ao = _mm256_srli_epi64::<32>(a);
    let pe = _mm256_mul_epi32(a, w.z);
    let po = _mm256_mul_epi32(ao, w.zo);
    // lo32(a·ζ·q^-1) = lo32(lo32(a·ζ)·q^-1): t in the low half of each 64-bit lane.
    let te = _mm256_mul_epi32(a, w.zq);
    let to = _mm256_mul_epi32(ao, w.zqo);
    high_diff(pe, po, _mm256_mul_epi32(te, q), _mm256_mul_epi32(to, q))
}

/// Lane-wise Montgomery product a·b·2^-32 of two variable vectors.
#[inline]
#[target_feature(enable = "avx2")]
fn mul(a: __m256i, b: __m256i) -> __m256i {
    let q = _mm256_set1_epi32(Q);
    let qinv = _mm256_set1_epi32(QINV);
    let pe = _mm256_mul_epi32(a, b);
    let po = _mm256_mul_epi32(_mm256_srli_epi64::<32>(a), _mm256_srli_epi64::<32>(b));
    let te = _mm256_mul_epi32(pe, qinv);
    let to = _mm256_mul_epi32(po, qinv);
    high_diff(pe, po, _mm256_mul_epi32(te, q), _mm256_mul_epi32(to, q))
}

/// Forward (Cooley–Tukey) butterfly, as in the portable NTT: t = ζ·y, (x + t, x − t).
#[inline]
#[target_feature(enable = "avx2")]
fn ct(x: &mut __m256i, y: &mut __m256i, w: Tw) {
    let t = mul_tw(*y, w);
    *y = _mm256_sub_epi32(*x, t);
    *x = _mm256_add_epi32(*x, t);
}

/// Inverse (Gentleman–Sande) butterfly, as in the portable inverse: (x + y, ζ·(x − y)).
#[inline]
#[target_feature(enable = "avx2")]
fn gs(x: &mut __m256i, y: &mut __m256i, w: Tw) {
    let t = *x;
    *x = _mm256_add_epi32(t, *y);
    *y = mul_tw(_mm256_sub_epi32(t, *y), w);
}

/// Butterflies `$f` (`ct` or `gs`) on pairs of registers of `$r`, with literal indices so
/// the eight registers never go through memory.
macro_rules! pairs {
    ($f:ident, $r:ident, $(($i:literal, $j:literal, $w:expr)),* $(,)?) => {
        $({
            let (mut x, mut y) = ($r[$i], $r[$j]);
            $f(&mut x, &mut y, $w);
            ($r[$i], $r[$j]) = (x, y);
        })*
    };
}

/// Eight vectors of `$v` at `$i0`, `$i0 + $step`, …, as an array. A macro, not a function:
/// LLVM kept the function out of line (4 % of ML-DSA-65 signing in the call and the
/// array passed through memory), and `#[inline(always)]` cannot go with `#[target_feature]`.
macro_rules! load8 {
    ($v:expr, $i0:expr, $step:expr) => {{
        let (v, i0, step): (&[[i32; 8]], usize, usize) = ($v, $i0, $step);
        let l = |k: usize| load(&v[i0 + k * step]);
        [l(0), l(1), l(2), l(3), l(4), l(5), l(6), l(7)]
    }};
}

/// Stores what `load8!` loaded (a macro for the same reason).
macro_rules! store8 {
    ($v:expr, $i0:expr, $step:expr, $r:expr) => {{
        let (v, i0, step): (&mut [[i32; 8]], usize, usize) = ($v, $i0, $step);
        let [r0, r1, r2, r3, r4, r5, r6, r7]: [__m256i; 8] = $r;
        store(&mut v[i0], r0);
        store(&mut v[i0 + step], r1);
        store(&mut v[i0 + 2 * step], r2);
        store(&mut v[i0 + 3 * step], r3);
        store(&mut v[i0 + 4 * step], r4);
        store(&mut v[i0 + 5 * step], r5);
        store(&mut v[i0 + 6 * step], r6);
        store(&mut v[i0 + 7 * step], r7);
    }};
}

/// Forward layers len 4, 2, 1 on 16 consecutive coefficients (`r0` = c0..c7, `r1` =
/// c8..c15), the `i`-th such block.
#[inline]
#[target_feature(enable = "avx2")]
fn ntt_tail(r0: __m256i, r1: __m256i, i: usize) -> (__m256i, __m256i) {
    // len 4: x = [c0..c3 | c8..c11], y = [c4..c7 | c12..c15].
    let mut x = _mm256_permute2x128_si256::<0x20>(r0, r1);
    let mut y = _mm256_permute2x128_si256::<0x31>(r0, r1);
    ct(&mut x, &mut y, vary(&FWD4, i));
    // len 2: x = [c0 c1 c4 c5 | c8 c9 c12 c13], y = [c2 c3 c6 c7 | …].
    let (mut x2, mut y2) = (_mm256_unpacklo_epi64(x, y), _mm256_unpackhi_epi64(x, y));
    ct(&mut x2, &mut y2, vary(&FWD2, i));
    // len 1: x = the even coefficients [c0 c2 c4 c6 | …], y = the odd ones.
    let mut x1 = _mm256_blend_epi32::<0xAA>(x2, _mm256_slli_epi64::<32>(y2));
    let mut y1 = _mm256_blend_epi32::<0xAA>(_mm256_srli_epi64::<32>(x2), y2);
    ct(&mut x1, &mut y1, vary(&FWD1, i));
    // Back to natural order: [c0..c3 | c8..c11] and [c4..c7 | c12..c15], then halves.
    let lo = _mm256_unpacklo_epi32(x1, y1);
    let hi = _mm256_unpackhi_epi32(x1, y1);
    (
        _mm256_permute2x128_si256::<0x20>(lo, hi),
        _mm256_permute2x128_si256::<0x31>(lo, hi),
    )
}

/// Inverse layers len 1, 2, 4 on the `i`-th block of 16 coefficients.
#[inline]
#[target_feature(enable = "avx2")]
fn inv_head(r0: __m256i, r1: __m256i, i: usize) -> (__m256i, __m256i) {
    let lo = _mm256_castsi256_ps(_mm256_permute2x128_si256::<0x20>(r0, r1));
    let hi = _mm256_castsi256_ps(_mm256_permute2x128_si256::<0x31>(r0, r1));
    // len 1: even coefficients [c0 c2 c4 c6 | …] against the odd ones.
    let mut x1 = _mm256_castps_si256(_mm256_shuffle_ps::<0x88>(lo, hi));
    let mut y1 = _mm256_castps_si256(_mm256_shuffle_ps::<0xDD>(lo, hi));
    gs(&mut x1, &mut y1, vary(&INV1, i));
    // len 2: [c0 c1 c4 c5 | …] against [c2 c3 c6 c7 | …].
    let mut x2 = _mm256_blend_epi32::<0xAA>(x1, _mm256_slli_epi64::<32>(y1));
    let mut y2 = _mm256_blend_epi32::<0xAA>(_mm256_srli_epi64::<32>(x1), y1);
    gs(&mut x2, &mut y2, vary(&INV2, i));
    // len 4: [c0..c3 | c8..c11] against [c4..c7 | c12..c15].
    let mut x = _mm256_unpacklo_epi64(x2, y2);
    let mut y = _mm256_unpackhi_epi64(x2, y2);
    gs(&mut x, &mut y, vary(&INV4, i));
    (
        _mm256_permute2x128_si256::<0x20>(x, y),
        _mm256_permute2x128_si256::<0x31>(x, y),
    )
}

/// [`super::ntt`] on AVX2.
#[target_feature(enable = "avx2")]
fn ntt(a: &mut [i32; 256]) {
    let (v, _) = a.as_chunks_mut::<8>();
    // Layers 1–3: vector 4i + g holds coefficients 32i + 8g .. +8, so for each g the eight
    // vectors i = 0..8 are closed under len 128, 64 and 32.
    for g in 0..4 {
        let mut r = load8!(v, g, 4);
        let w = splat(ZETAS[1]);
        pairs!(ct, r, (0, 4, w), (1, 5, w), (2, 6, w), (3, 7, w));
        let (w0, w1) = (splat(ZETAS[2]), splat(ZETAS[3]));
        pairs!(ct, r, (0, 2, w0), (1, 3, w0), (4, 6, w1), (5, 7, w1));
        let w = [4, 5, 6, 7].map(|k| splat(ZETAS[k]));
        pairs!(ct, r, (0, 1, w[0]), (2, 3, w[1]), (4, 5, w[2]), (6, 7, w[3]));
        store8!(v, g, 4, r);
    }
    // Layers 4–8 on 64 consecutive coefficients (vectors 8b .. 8b+8).
    for b in 0..4 {
        let mut r = load8!(v, 8 * b, 1);
        let (w0, w1) = (splat(ZETAS[8 + 2 * b]), splat(ZETAS[9 + 2 * b]));
        pairs!(ct, r, (0, 2, w0), (1, 3, w0), (4, 6, w1), (5, 7, w1));
        let w = [0, 1, 2, 3].map(|p| splat(ZETAS[16 + 4 * b + p]));
        pairs!(ct, r, (0, 1, w[0]), (2, 3, w[1]), (4, 5, w[2]), (6, 7, w[3]));
        (r[0], r[1]) = ntt_tail(r[0], r[1], 4 * b);
        (r[2], r[3]) = ntt_tail(r[2], r[3], 4 * b + 1);
        (r[4], r[5]) = ntt_tail(r[4], r[5], 4 * b + 2);
        (r[6], r[7]) = ntt_tail(r[6], r[7], 4 * b + 3);
        store8!(v, 8 * b, 1, r);
    }
}

/// [`super::inv_ntt`] on AVX2: the forward passes in reverse, with the inverse butterfly.
#[target_feature(enable = "avx2")]
fn inv_ntt(a: &mut [i32; 256]) {
    let (v, _) = a.as_chunks_mut::<8>();
    // Layers len 1..32 on 64 consecutive coefficients.
    for b in 0..4 {
        let mut r = load8!(v, 8 * b, 1);
        (r[0], r[1]) = inv_head(r[0], r[1], 4 * b);
        (r[2], r[3]) = inv_head(r[2], r[3], 4 * b + 1);
        (r[4], r[5]) = inv_head(r[4], r[5], 4 * b + 2);
        (r[6], r[7]) = inv_head(r[6], r[7], 4 * b + 3);
        let w = [0, 1, 2, 3].map(|p| splat(-ZETAS[31 - (4 * b + p)]));
        pairs!(gs, r, (0, 1, w[0]), (2, 3, w[1]), (4, 5, w[2]), (6, 7, w[3]));
        let (w0, w1) = (splat(-ZETAS[15 - 2 * b]), splat(-ZETAS[14 - 2 * b]));
        pairs!(gs, r, (0, 2, w0), (1, 3, w0), (4, 6, w1), (5, 7, w1));
        let w = splat(-ZETAS[7 - b]);
        pairs!(gs, r, (0, 4, w), (1, 5, w), (2, 6, w), (3, 7, w));
        store8!(v, 8 * b, 1, r);
    }
    // Layers len 64 and 128 (with the scale) on vectors of stride 32.
    let (scale, last) = (splat(INV_NTT_SCALE), splat(LAST_ZETA_SCALED));
    for g in 0..4 {
        let mut r = load8!(v, g, 4);
        let (w0, w1) = (splat(-ZETAS[3]), splat(-ZETAS[2]));
        pairs!(gs, r, (0, 2, w0), (1, 3, w0), (4, 6, w1), (5, 7, w1));
        let [r0, r1, r2, r3, r4, r5, r6, r7] = r;
        let out = |t: __m256i, y: __m256i| {
            (
                mul_tw(_mm256_add_epi32(t, y), scale),
                mul_tw(_mm256_sub_epi32(t, y), last),
            )
        };
        let ((s0, d0), (s1, d1), (s2, d2), (s3, d3)) = (out(r0, r4), out(r1, r5), out(r2, r6), out(r3, r7));
        store8!(v, g, 4, [s0, s1, s2, s3, d0, d1, d2, d3]);
    }
}

/// [`super::pointwise`] (`ACC` false) and [`super::pointwise_acc`] (`ACC` true) on AVX2.
#[target_feature(enable = "avx2")]
fn pointwise<const ACC: bool>(r: &mut [i32; 256], a: &[i32; 256], b: &[i32; 256]) {
    let (r, _) = r.as_chunks_mut::<8>();
    let (a, _) = a.as_chunks::<8>();
    let (b, _) = b.as_chunks::<8>();
    for ((r, a), b) in r.iter_mut().zip(a).zip(b) {
        let p = mul(load(a), load(b));
        let p = if ACC { _mm256_add_epi32(load(r), p) } else { p };
        store(r, p);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{portable, tests::Rng, Q};
    use super::Avx2;

    fn avx2() -> Option<Avx2> {
        let k = Avx2::get();
        if k.is_none() {
            eprintln!("no AVX2 on this CPU: skipped");
        }
        k
    }

    #[test]
    fn ntt_matches_portable() {
        let Some(k) = avx2() else { return };
        for a in Rng::new(1).polys(Q - 1) {
            let (mut x, mut y) = (a, a);
            k.ntt(&mut x);
            portable::ntt(&mut y);
            assert_eq!(x, y, "input {a:?}");
        }
    }

    #[test]
    fn inv_ntt_matches_portable() {
        let Some(k) = avx2() else { return };
        for a in Rng::new(2).polys(Q - 1) {
            let (mut x, mut y) = (a, a);
            k.inv_ntt(&mut x);
            portable::inv_ntt(&mut y);
            assert_eq!(x, y, "input {a:?}");
        }
    }

    #[test]
    fn pointwise_matches_portable() {
        let Some(k) = avx2() else { return };
        let mut rng = Rng::new(3);
        for (a, b, acc) in rng.pointwise_cases() {
            let (mut x, mut y) = ([0; 256], [0; 256]);
            k.pointwise(&mut x, &a, &b);
            portable::pointwise(&mut y, &a, &b);
            assert_eq!(x, y);
            let (mut x, mut y) = (acc, acc);
            k.pointwise_acc(&mut x, &a, &b);
            portable::pointwise_acc(&mut y, &a, &b);
            assert_eq!(x, y);
        }
    }
}
