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

#[inline(always)]
fn ct_at<V: Vec4>(r: &mut [V; 8], i: usize, j: usize, w: Tw<V>) {
    (r[i], r[j]) = ct(r[i], r[j], w);
}

#[inline(always)]
fn gs_at<V: Vec4>(r: &mut [V; 8], i: usize, j: usize, w: Tw<V>) {
    (r[i], r[j]) = gs(r[i], r[j], w);
}

/// [`super::ntt`].
#[inline(always)]
pub(super) fn ntt<V: Vec4>(a: &mut [i32; 256]) {
    let (v, _) = a.as_chunks_mut::<4>();
    // Layers 1–3: vector 8i + g holds coefficients 32i + 4g .. +4.
    for g in 0..8 {
        let mut r: [V; 8] = core::array::from_fn(|i| V::load(&v[8 * i + g]));
        for i in 0..4 {
            ct_at(&mut r, i, i + 4, splat(ZETAS[1]));
        }
        for i in [0, 1, 4, 5] {
            ct_at(&mut r, i, i + 2, splat(ZETAS[2 + i / 4]));
        }
        for i in [0, 2, 4, 6] {
            ct_at(&mut r, i, i + 1, splat(ZETAS[4 + i / 2]));
        }
        for (i, x) in r.iter().enumerate() {
            x.store(&mut v[8 * i + g]);
        }
    }
    // Layers 4–8 on 32 consecutive coefficients (vectors 8b .. 8b+8).
    for b in 0..8 {
        let mut r: [V; 8] = core::array::from_fn(|i| V::load(&v[8 * b + i]));
        for i in 0..4 {
            ct_at(&mut r, i, i + 4, splat(ZETAS[8 + b]));
        }
        for i in [0, 1, 4, 5] {
            ct_at(&mut r, i, i + 2, splat(ZETAS[16 + 2 * b + i / 4]));
        }
        for p in 0..4 {
            let m = 4 * b + p;
            ct_at(&mut r, 2 * p, 2 * p + 1, splat(ZETAS[32 + m]));
            let (r0, r1) = (r[2 * p], r[2 * p + 1]);
            // len 2: [c0 c1 c4 c5] against [c2 c3 c6 c7].
            let (x, y) = ct(r0.zip64_lo(r1), r0.zip64_hi(r1), vary(&FWD2, m));
            // len 1: [c0 c4 c2 c6] against [c1 c5 c3 c7].
            let (x, y) = ct(x.even(y), x.odd(y), vary(&FWD1, m));
            // Back: [c0 c1 c4 c5], [c2 c3 c6 c7], then [c0..c3], [c4..c7].
            let (x, y) = (x.zip32_lo(y), x.zip32_hi(y));
            (r[2 * p], r[2 * p + 1]) = (x.zip64_lo(y), x.zip64_hi(y));
        }
        for (i, x) in r.iter().enumerate() {
            x.store(&mut v[8 * b + i]);
        }
    }
}

/// [`super::inv_ntt`]: the forward passes in reverse, with the inverse butterfly.
#[inline(always)]
pub(super) fn inv_ntt<V: Vec4>(a: &mut [i32; 256]) {
    let (v, _) = a.as_chunks_mut::<4>();
    for b in 0..8 {
        let mut r: [V; 8] = core::array::from_fn(|i| V::load(&v[8 * b + i]));
        for p in 0..4 {
            let m = 4 * b + p;
            let (r0, r1) = (r[2 * p], r[2 * p + 1]);
            let (x, y) = (r0.zip64_lo(r1), r0.zip64_hi(r1));
            // len 1: [c0 c4 c2 c6] against [c1 c5 c3 c7].
            let (x, y) = gs(x.even(y), x.odd(y), vary(&INV1, m));
            // len 2: [c0 c1 c4 c5] against [c2 c3 c6 c7].
            let (x, y) = gs(x.zip32_lo(y), x.zip32_hi(y), vary(&INV2, m));
            // len 4: [c0..c3] against [c4..c7].
            (r[2 * p], r[2 * p + 1]) = gs(x.zip64_lo(y), x.zip64_hi(y), splat(-ZETAS[63 - m]));
        }
        for i in [0, 1, 4, 5] {
            gs_at(&mut r, i, i + 2, splat(-ZETAS[31 - (2 * b + i / 4)]));
        }
        for i in 0..4 {
            gs_at(&mut r, i, i + 4, splat(-ZETAS[15 - b]));
        }
        for (i, x) in r.iter().enumerate() {
            x.store(&mut v[8 * b + i]);
        }
    }
    // Layers len 32, 64 and 128 (with the scale) on vectors of stride 32.
    for g in 0..8 {
        let mut r: [V; 8] = core::array::from_fn(|i| V::load(&v[8 * i + g]));
        for i in [0, 2, 4, 6] {
            gs_at(&mut r, i, i + 1, splat(-ZETAS[7 - i / 2]));
        }
        for i in [0, 1, 4, 5] {
            gs_at(&mut r, i, i + 2, splat(-ZETAS[3 - i / 4]));
        }
        let (scale, last) = (splat::<V>(INV_NTT_SCALE), splat::<V>(LAST_ZETA_SCALED));
        for i in 0..4 {
            let (t, y) = (r[i], r[i + 4]);
            r[i] = t.add(y).mul_tw(scale.0, scale.1);
            r[i + 4] = t.sub(y).mul_tw(last.0, last.1);
        }
        for (i, x) in r.iter().enumerate() {
            x.store(&mut v[8 * i + g]);
        }
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
