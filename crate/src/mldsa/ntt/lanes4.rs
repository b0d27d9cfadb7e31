//! The NTT, its inverse and the pointwise products on four-lane vectors, written once for
//! NEON (`neon.rs`) and simd128 (`simd128.rs`), which supply the [`Vec4`] operations.
//! Results are bit-identical to the portable code: the same butterflies on the same
//! values, with a lane-wise Montgomery reduction each target proves exact.
//!
//! Each transform is two passes over the 64 vectors, holding eight in registers: layers
//! 1–3 (len 128, 64, 32) on vectors of stride 32, then layers 4–8 on 32 consecutive
//! coefficients, the last two after shuffles that put each butterfly's two coefficients in
//! the same lane of two registers. Their lane-varying twiddles are compile-time tables.

use super::{INV_NTT_SCALE, LAST_ZETA_SCALED, QINV, ZETAS};

/// Four i32 lanes and the operations the kernels need.
pub(super) trait Vec4: Copy {
    /// Loads four coefficients.
    fn load(a: &[i32; 4]) -> Self;
    /// Stores four coefficients.
    fn store(self, a: &mut [i32; 4]);
    /// The same value in every lane.
    fn splat(x: i32) -> Self;
    /// Lane-wise wrapping sum.
    fn add(self, b: Self) -> Self;
    /// Lane-wise wrapping difference.
    fn sub(self, b: Self) -> Self;
    /// Lane-wise Montgomery product self·z·2^-32, given zq = z·q^-1 mod 2^32; the same
    /// i32 as `mont_mul(self, z)`.
    fn mul_tw(self, z: Self, zq: Self) -> Self;
    /// Lane-wise `mont_mul(self, b)`.
    fn mul(self, b: Self) -> Self;
    /// [a0 a1 b0 b1].
    fn zip64_lo(self, b: Self) -> Self;
    /// [a2 a3 b2 b3].
    fn zip64_hi(self, b: Self) -> Self;
    /// [a0 a2 b0 b2].
    fn even(self, b: Self) -> Self;
    /// [a1 a3 b1 b3].
    fn odd(self, b: Self) -> Self;
    /// [a0 b0 a1 b1].
    fn zip32_lo(self, b: Self) -> Self;
    /// [a2 b2 a3 b3].
    fn zip32_hi(self, b: Self) -> Self;
}

/// Twiddles of a lane-varying layer, one vector per 8 coefficients, with z·q^-1 mod 2^32.
struct Lanes {
    z: [[i32; 4]; 32],
    zq: [[i32; 4]; 32],
}

/// Lane `l` of vector `m` (coefficients 8m..8m+8) for the two shuffled layers of each
/// direction, in the lane orders the kernels produce.
const fn lanes(layer: usize) -> Lanes {
    // After `even`/`odd` the pairs are (c0,c1), (c4,c5), (c2,c3), (c6,c7).
    const PAIR: [usize; 4] = [0, 2, 1, 3];
    let mut t = Lanes {
        z: [[0; 4]; 32],
        zq: [[0; 4]; 32],
    };
    let mut m = 0;
    while m < 32 {
        let mut l = 0;
        while l < 4 {
            let z = match layer {
                // Forward, len 2: lanes [c0 c1 c4 c5], blocks of four 2m, 2m+1.
                2 => ZETAS[64 + 2 * m + l / 2],
                // Forward, len 1: lanes [c0 c4 c2 c6].
                1 => ZETAS[128 + 4 * m + PAIR[l]],
                // Inverse: −ζ from the top of the table, same lane orders.
                11 => -ZETAS[255 - (4 * m + PAIR[l])],
                _ => -ZETAS[127 - (2 * m + l / 2)],
            };
            t.z[m][l] = z;
            t.zq[m][l] = z.wrapping_mul(QINV);
            l += 1;
        }
        m += 1;
    }
    t
}

const FWD2: Lanes = lanes(2);
const FWD1: Lanes = lanes(1);
const INV1: Lanes = lanes(11);
const INV2: Lanes = lanes(12);

/// A twiddle ζ and ζ·q^-1.
#[derive(Clone, Copy)]
struct Tw<V>(V, V);

#[inline(always)]
fn splat<V: Vec4>(z: i32) -> Tw<V> {
    Tw(V::splat(z), V::splat(z.wrapping_mul(QINV)))
}

#[inline(always)]
fn vary<V: Vec4>(t: &Lanes, m: usize) -> Tw<V> {
    Tw(V::load(&t.z[m]), V::load(&t.zq[m]))
}

/// Forward butterfly, as in the portable NTT: t = ζ·y, (x + t, x − t).
#[inline(always)]
fn ct<V: Vec4>(x: V, y: V, w: Tw<V>) -> (V, V) {
    let t = y.mul_tw(w.0, w.1);
    (x.add(t), x.sub(t))
}

/// Inverse butterfly, as in the portable inverse: (x + y, ζ·(x − y)).
#[inline(always)]
fn gs<V: Vec4>(x: V, y: V, w: Tw<V>) -> (V, V) {
    (x.add(y), x.sub(y).mul_tw(w.0, w.1))
}

/// Butterflies `$f` (`ct` or `gs`) on pairs of registers of `$r`, with literal indices so
/// the eight registers never go through memory.
macro_rules! pairs {
    ($f:ident, $r:ident, $(($i:literal, $j:literal, $w:expr)),* $(,)?) => {
        $( ($r[$i], $r[$j]) = $f($r[$i], $r[$j], $w); )*
    };
}

/// Eight vectors of `v` at `i0`, `i0 + step`, …
#[inline(always)]
fn load8<V: Vec4>(v: &[[i32; 4]], i0: usize, step: usize) -> [V; 8] {
    let l = |k: usize| V::load(&v[i0 + k * step]);
    [l(0), l(1), l(2), l(3), l(4), l(5), l(6), l(7)]
}

/// Stores what [`load8`] loaded.
#[inline(always)]
fn store8<V: Vec4>(v: &mut [[i32; 4]], i0: usize, step: usize, r: [V; 8]) {
    let [r0, r1, r2, r3, r4, r5, r6, r7] = r;
    r0.store(&mut v[i0]);
    r1.store(&mut v[i0 + step]);
    r2.store(&mut v[i0 + 2 * step]);
    r3.store(&mut v[i0 + 3 * step]);
    r4.store(&mut v[i0 + 4 * step]);
    r5.store(&mut v[i0 + 5 * step]);
    r6.store(&mut v[i0 + 6 * step]);
    r7.store(&mut v[i0 + 7 * step]);
}

/// Forward layers len 4, 2, 1 on the `m`-th block of 8 coefficients (`r0` = c0..c3,
/// `r1` = c4..c7).
#[inline(always)]
fn ntt_tail<V: Vec4>(r0: V, r1: V, m: usize) -> (V, V) {
    let (r0, r1) = ct(r0, r1, splat(ZETAS[32 + m]));
    // len 2: [c0 c1 c4 c5] against [c2 c3 c6 c7].
    let (x, y) = ct(r0.zip64_lo(r1), r0.zip64_hi(r1), vary(&FWD2, m));
    // len 1: [c0 c4 c2 c6] against [c1 c5 c3 c7].
    let (x, y) = ct(x.even(y), x.odd(y), vary(&FWD1, m));
    // Back: [c0 c1 c4 c5], [c2 c3 c6 c7], then [c0..c3], [c4..c7].
    let (x, y) = (x.zip32_lo(y), x.zip32_hi(y));
    (x.zip64_lo(y), x.zip64_hi(y))
}

/// Inverse layers len 1, 2, 4 on the `m`-th block of 8 coefficients.
#[inline(always)]
fn inv_head<V: Vec4>(r0: V, r1: V, m: usize) -> (V, V) {
    let (x, y) = (r0.zip64_lo(r1), r0.zip64_hi(r1));
    // len 1: [c0 c4 c2 c6] against [c1 c5 c3 c7].
    let (x, y) = gs(x.even(y), x.odd(y), vary(&INV1, m));
    // len 2: [c0 c1 c4 c5] against [c2 c3 c6 c7].
    let (x, y) = gs(x.zip32_lo(y), x.zip32_hi(y), vary(&INV2, m));
    // len 4: [c0..c3] against [c4..c7].
    gs(x.zip64_lo(y), x.zip64_hi(y), splat(-ZETAS[63 - m]))
}

/// [`super::ntt`].
#[inline(always)]
pub(super) fn ntt<V: Vec4>(a: &mut [i32; 256]) {
    let (v, _) = a.as_chunks_mut::<4>();
    // Layers 1–3: vector 8i + g holds coefficients 32i + 4g .. +4.
    for g in 0..8 {
        let mut r = load8::<V>(v, g, 8);
        let w = splat(ZETAS[1]);
        pairs!(ct, r, (0, 4, w), (1, 5, w), (2, 6, w), (3, 7, w));
        let (w0, w1) = (splat(ZETAS[2]), splat(ZETAS[3]));
        pairs!(ct, r, (0, 2, w0), (1, 3, w0), (4, 6, w1), (5, 7, w1));
        let w = [4, 5, 6, 7].map(|k| splat(ZETAS[k]));
        pairs!(ct, r, (0, 1, w[0]), (2, 3, w[1]), (4, 5, w[2]), (6, 7, w[3]));
        store8(v, g, 8, r);
    }
    // Layers 4–8 on 32 consecutive coefficients (vectors 8b .. 8b+8).
    for b in 0..8 {
        let mut r = load8::<V>(v, 8 * b, 1);
        let w = splat(ZETAS[8 + b]);
        pairs!(ct, r, (0, 4, w), (1, 5, w), (2, 6, w), (3, 7, w));
        let (w0, w1) = (splat(ZETAS[16 + 2 * b]), splat(ZETAS[17 + 2 * b]));
        pairs!(ct, r, (0, 2, w0), (1, 3, w0), (4, 6, w1), (5, 7, w1));
        (r[0], r[1]) = ntt_tail(r[0], r[1], 4 * b);
        (r[2], r[3]) = ntt_tail(r[2], r[3], 4 * b + 1);
        (r[4], r[5]) = ntt_tail(r[4], r[5], 4 * b + 2);
        (r[6], r[7]) = ntt_tail(r[6], r[7], 4 * b + 3);
        store8(v, 8 * b, 1, r);
    }
}

/// [`super::inv_ntt`]: the forward passes in reverse, with the inverse butterfly.
#[inline(always)]
pub(super) fn inv_ntt<V: Vec4>(a: &mut [i32; 256]) {
    let (v, _) = a.as_chunks_mut::<4>();
    for b in 0..8 {
        let mut r = load8::<V>(v, 8 * b, 1);
        (r[0], r[1]) = inv_head(r[0], r[1], 4 * b);
        (r[2], r[3]) = inv_head(r[2], r[3], 4 * b + 1);
        (r[4], r[5]) = inv_head(r[4], r[5], 4 * b + 2);
        (r[6], r[7]) = inv_head(r[6], r[7], 4 * b + 3);
        let (w0, w1) = (splat(-ZETAS[31 - 2 * b]), splat(-ZETAS[30 - 2 * b]));
        pairs!(gs, r, (0, 2, w0), (1, 3, w0), (4, 6, w1), (5, 7, w1));
        let w = splat(-ZETAS[15 - b]);
        pairs!(gs, r, (0, 4, w), (1, 5, w), (2, 6, w), (3, 7, w));
        store8(v, 8 * b, 1, r);
    }
    // Layers len 32, 64 and 128 (with the scale) on vectors of stride 32.
    let (scale, last) = (splat::<V>(INV_NTT_SCALE), splat::<V>(LAST_ZETA_SCALED));
    for g in 0..8 {
        let mut r = load8::<V>(v, g, 8);
        let w = [7, 6, 5, 4].map(|k| splat(-ZETAS[k]));
        pairs!(gs, r, (0, 1, w[0]), (2, 3, w[1]), (4, 5, w[2]), (6, 7, w[3]));
        let (w0, w1) = (splat(-ZETAS[3]), splat(-ZETAS[2]));
        pairs!(gs, r, (0, 2, w0), (1, 3, w0), (4, 6, w1), (5, 7, w1));
        let [r0, r1, r2, r3, r4, r5, r6, r7] = r;
        let out = |t: V, y: V| (t.add(y).mul_tw(scale.0, scale.1), t.sub(y).mul_tw(last.0, last.1));
        let ((s0, d0), (s1, d1)) = (out(r0, r4), out(r1, r5));
        let ((s2, d2), (s3, d3)) = (out(r2, r6), out(r3, r7));
        store8(v, g, 8, [s0, s1, s2, s3, d0, d1, d2, d3]);
    }
}

/// [`super::pointwise`] (`ACC` false) and [`super::pointwise_acc`] (`ACC` true).
#[inline(always)]
pub(super) fn pointwise<V: Vec4, const ACC: bool>(r: &mut [i32; 256], a: &[i32; 256], b: &[i32; 256]) {
    let (r, _) = r.as_chunks_mut::<4>();
    let (a, _) = a.as_chunks::<4>();
    let (b, _) = b.as_chunks::<4>();
    for ((r, a), b) in r.iter_mut().zip(a).zip(b) {
        let p = V::load(a).mul(V::load(b));
        let p = if ACC { V::load(r).add(p) } else { p };
        p.store(r);
    }
}

/// The comparison with the portable kernels, run by each target's tests.
#[cfg(test)]
pub(super) fn check_against_portable<V: Vec4>() {
    use super::{portable, tests::Rng, Q};
    for a in Rng::new(1).polys(Q - 1) {
        let (mut x, mut y) = (a, a);
        ntt::<V>(&mut x);
        portable::ntt(&mut y);
        assert_eq!(x, y, "ntt of {a:?}");
        let (mut x, mut y) = (a, a);
        inv_ntt::<V>(&mut x);
        portable::inv_ntt(&mut y);
        assert_eq!(x, y, "inv_ntt of {a:?}");
    }
    for (a, b, acc) in Rng::new(3).pointwise_cases() {
        let (mut x, mut y) = ([0; 256], [0; 256]);
        pointwise::<V, false>(&mut x, &a, &b);
        portable::pointwise(&mut y, &a, &b);
        assert_eq!(x, y);
        let (mut x, mut y) = (acc, acc);
        pointwise::<V, true>(&mut x, &a, &b);
        portable::pointwise_acc(&mut y, &a, &b);
        assert_eq!(x, y);
    }
}
