//! Eight edwards25519 points at once: their additions and doublings, the Ristretto and
//! Edwards encodings (in constant time) and decodings, and the evaluation of a committed
//! polynomial at eight ids. The fixed-base products that make commitments are in `fixed`.

use core::arch::x86_64::{__mmask8, _mm512_loadu_si512, _mm512_permutexvar_epi64, _mm512_storeu_si512};

use super::field::{self, splat64, F8};
use super::reference::{self, Fe};

/// Eight points in extended coordinates (X : Y : Z : T), `x = X/Z`, `y = Y/Z`, `T = XY/Z`.
#[derive(Clone, Copy)]
pub(in crate::vss::group) struct Ext8 {
    pub(super) x: F8,
    pub(super) y: F8,
    pub(super) z: F8,
    pub(super) t: F8,
}

/// Eight affine points as (y + x, y − x, 2d·x·y).
#[derive(Clone, Copy)]
pub(super) struct Niels8 {
    pub(super) y_plus_x: F8,
    pub(super) y_minus_x: F8,
    pub(super) xy2d: F8,
}

/// The completed sum of a point and an affine point (dalek's `AddAffineNiels`, and the
/// formulas of Hisil–Wong–Carter–Dawson 2008 §3.1 with `k = 2d`).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn add_affine(p: &Ext8, q: &Niels8) -> Ext8 {
    let pp = field::mul(&field::add(&p.y, &p.x), &q.y_plus_x);
    let mm = field::mul(&field::sub(&p.y, &p.x), &q.y_minus_x);
    let tt = field::mul(&p.t, &q.xy2d);
    let zz2 = field::add_lazy(&p.z, &p.z);
    completed_to_extended(
        &field::sub(&pp, &mm),
        &field::add(&pp, &mm),
        &field::add(&zz2, &tt),
        &field::sub(&zz2, &tt),
    )
}

/// `(X : Z) × (Y : T)` back to extended coordinates.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn completed_to_extended(x: &F8, y: &F8, z: &F8, t: &F8) -> Ext8 {
    Ext8 {
        x: field::mul(x, t),
        y: field::mul(y, z),
        z: field::mul(z, t),
        t: field::mul(x, y),
    }
}

/// `2p` (dbl-2008-hwcd).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn double(p: &Ext8) -> Ext8 {
    let xx = field::square(&p.x);
    let yy = field::square(&p.y);
    let zz = field::square(&p.z);
    let zz2 = field::add_lazy(&zz, &zz);
    let xy2 = field::square(&field::add(&p.x, &p.y));
    let y = field::add(&yy, &xx);
    let z = field::sub(&yy, &xx);
    completed_to_extended(&field::sub(&xy2, &y), &y, &z, &field::sub(&zz2, &z))
}

/// `p + q`, both in extended coordinates (add-2008-hwcd-3, complete).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn add(p: &Ext8, q: &Ext8, d2: &F8) -> Ext8 {
    let a = field::mul(&field::sub(&p.y, &p.x), &field::sub(&q.y, &q.x));
    let b = field::mul(&field::add(&p.y, &p.x), &field::add(&q.y, &q.x));
    let c = field::mul(&field::mul(&p.t, d2), &q.t);
    let zz = field::mul(&p.z, &q.z);
    let d = field::add_lazy(&zz, &zz);
    completed_to_extended(
        &field::sub(&b, &a),
        &field::add(&b, &a),
        &field::add(&d, &c),
        &field::sub(&d, &c),
    )
}

/// Eight points as (y + x, y − x, 2d·t, z): an addend prepared once for many additions.
#[derive(Clone, Copy)]
pub(super) struct Cached8 {
    y_plus_x: F8,
    y_minus_x: F8,
    t2d: F8,
    z: F8,
}

impl Cached8 {
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn of(p: &Ext8, d2: &F8) -> Cached8 {
        Cached8 {
            y_plus_x: field::add(&p.y, &p.x),
            y_minus_x: field::sub(&p.y, &p.x),
            t2d: field::mul(&p.t, d2),
            z: p.z,
        }
    }

    /// `−p`: `(x, y) ↦ (−x, y)` swaps y + x with y − x and negates t.
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn neg(&self) -> Cached8 {
        Cached8 {
            y_plus_x: self.y_minus_x,
            y_minus_x: self.y_plus_x,
            t2d: field::neg(&self.t2d),
            z: self.z,
        }
    }
}

/// `p + q` (add-2008-hwcd-3 with `q` prepared, complete).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn add_cached(p: &Ext8, q: &Cached8) -> Ext8 {
    let [x, y, z, t] = cached_sum(p, q);
    completed_to_extended(&x, &y, &z, &t)
}

/// [`add_cached`] without the sum's `t` (left zero), for a sum that is only doubled next:
/// [`double`] does not read `t`, and leaving it out saves a field product.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn add_cached_without_t(p: &Ext8, q: &Cached8) -> Ext8 {
    let [x, y, z, t] = cached_sum(p, q);
    Ext8 {
        x: field::mul(&x, &t),
        y: field::mul(&y, &z),
        z: field::mul(&z, &t),
        t: F8::zero(),
    }
}

/// `p + q` in completed coordinates `(X : Z) × (Y : T)`, as [`completed_to_extended`] takes
/// them.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn cached_sum(p: &Ext8, q: &Cached8) -> [F8; 4] {
    let pp = field::mul(&field::add(&p.y, &p.x), &q.y_plus_x);
    let mm = field::mul(&field::sub(&p.y, &p.x), &q.y_minus_x);
    let tt = field::mul(&p.t, &q.t2d);
    let zz = field::mul(&p.z, &q.z);
    let zz2 = field::add_lazy(&zz, &zz);
    [
        field::sub(&pp, &mm),
        field::add(&pp, &mm),
        field::add(&zz2, &tt),
        field::sub(&zz2, &tt),
    ]
}

impl Ext8 {
    /// Lane `lane`'s point in every lane.
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn broadcast(&self, lane: usize) -> Ext8 {
        let index = splat64(lane as u64 & 7);
        let spread = |f: &F8| F8(f.0.map(|v| _mm512_permutexvar_epi64(index, v)));
        Ext8 {
            x: spread(&self.x),
            y: spread(&self.y),
            z: spread(&self.z),
            t: spread(&self.t),
        }
    }
}

/// Eight field elements from eight encodings (the top bit ignored).
#[target_feature(enable = "avx512f,avx512ifma")]
fn load(bytes: &[[u8; 32]; 8]) -> F8 {
    let limbs = bytes.map(|b| Fe::from_bytes(&b).0);
    F8(core::array::from_fn(|k| {
        let lanes: [u64; 8] = core::array::from_fn(|l| limbs[l][k]);
        // SAFETY: `lanes` is eight u64, the 64 bytes one unaligned load reads.
        unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) }
    }))
}

/// Eight Ristretto encodings decoded (RFC 9496 §4.3.1) to Edwards representatives, for
/// public points only, and the lanes that decoded; a lane's bytes must be canonical, which
/// the caller makes sure of (they are dalek's encodings).
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn decode_ristretto(bytes: &[[u8; 32]; 8]) -> (Ext8, __mmask8) {
    let sqrt_m1 = F8::splat(&reference::SQRT_M1.0);
    let s = load(bytes);
    let ss = field::square(&s);
    let one = F8::one();
    let u1 = field::sub(&one, &ss);
    let u2 = field::add(&one, &ss);
    let u2_sqr = field::square(&u2);
    let d = F8::splat(&reference::D.0);
    let v = field::sub(&field::neg(&field::mul(&d, &field::square(&u1))), &u2_sqr);
    let (square, invsqrt) = field::sqrt_ratio_m1(&one, &field::mul(&v, &u2_sqr), &sqrt_m1);
    let den_x = field::mul(&invsqrt, &u2);
    let den_y = field::mul(&field::mul(&invsqrt, &den_x), &v);
    let x = field::abs(&field::mul(&field::add(&s, &s), &den_x));
    let y = field::mul(&u1, &den_y);
    let t = field::mul(&x, &y);
    let ok = square & !field::is_negative(&t) & !field::is_zero(&y) & !field::is_negative(&s);
    (Ext8 { x, y, z: one, t }, ok)
}

/// Eight compressed Edwards encodings decoded (RFC 8032 §5.1.3), for public points only,
/// and the lanes that decoded; a lane's bytes must be canonical (the caller's are dalek's).
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn decode_edwards(bytes: &[[u8; 32]; 8]) -> (Ext8, __mmask8) {
    let sqrt_m1 = F8::splat(&reference::SQRT_M1.0);
    let y = load(bytes);
    let one = F8::one();
    let yy = field::square(&y);
    let d = F8::splat(&reference::D.0);
    let (square, x) = field::sqrt_ratio_m1(
        &field::sub(&yy, &one),
        &field::add(&field::mul(&d, &yy), &one),
        &sqrt_m1,
    );
    let mut sign: __mmask8 = 0;
    for (lane, b) in bytes.iter().enumerate() {
        sign |= (b[31] >> 7) << lane;
    }
    let x = field::select(&x, &field::neg(&x), sign ^ field::is_negative(&x));
    let ok = square & !(field::is_zero(&x) & sign);
    (
        Ext8 {
            t: field::mul(&x, &y),
            x,
            y,
            z: one,
        },
        ok,
    )
}

/// `Σ_k x^k·points[k]` in each lane, for the lane's public `x` (`xs`, below 2^16), with
/// `points` given eight to an `Ext8` (lane `k % 8` of `points[k / 8]`), `count` of them.
/// Variable time in `xs` only: every lane runs the doublings of the largest `x`, and adds
/// under its own mask.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn evaluate(points: &[Ext8], count: usize, xs: &[u16; 8]) -> Ext8 {
    let d2 = F8::splat(&reference::D.add(reference::D).reduced().0);
    let bits = 16 - xs.iter().max().copied().unwrap_or(0).leading_zeros() as usize;
    let point = |k: usize| points[k / 8].broadcast(k % 8);
    let mut acc = match count.checked_sub(1) {
        Some(top) => point(top),
        None => return identity(),
    };
    let masks: [__mmask8; 16] = core::array::from_fn(|i| {
        let mut set: __mmask8 = 0;
        for (lane, x) in xs.iter().enumerate() {
            set |= u8::from(x >> i & 1 == 1) << lane;
        }
        set
    });
    for k in (0..count - 1).rev() {
        // acc·x by double-and-add from the top bit of the largest x: a lane starts from acc
        // where that bit is set (the identity elsewhere, so a lane whose x is 0 keeps it),
        // then adds acc, prepared once, where its own bit is set.
        let product = match bits.checked_sub(1) {
            None => identity(),
            Some(top) => {
                let addend = Cached8::of(&acc, &d2);
                let mut m = select(&identity(), &acc, masks[top]);
                for i in (0..top).rev() {
                    m = double(&m);
                    // Only the last sum is added to next; the others are only doubled.
                    let sum = if i == 0 {
                        add_cached(&m, &addend)
                    } else {
                        add_cached_without_t(&m, &addend)
                    };
                    m = select(&m, &sum, masks[i]);
                }
                m
            }
        };
        acc = add(&product, &point(k), &d2);
    }
    acc
}

/// `b` in the lanes of `mask`, `a` elsewhere.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn select(a: &Ext8, b: &Ext8, mask: __mmask8) -> Ext8 {
    Ext8 {
        x: field::select(&a.x, &b.x, mask),
        y: field::select(&a.y, &b.y, mask),
        z: field::select(&a.z, &b.z, mask),
        t: field::select(&a.t, &b.t, mask),
    }
}

#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn identity() -> Ext8 {
    Ext8 {
        x: F8::zero(),
        y: F8::one(),
        z: F8::one(),
        t: F8::zero(),
    }
}

/// The Ristretto encodings of eight points (RFC 9496 §4.3.2), in constant time.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn encode_ristretto(p: &Ext8) -> [[u8; 32]; 8] {
    let sqrt_m1 = F8::splat(&reference::SQRT_M1.0);
    let u1 = field::mul(&field::add(&p.z, &p.y), &field::sub(&p.z, &p.y));
    let u2 = field::mul(&p.x, &p.y);
    let (_, invsqrt) = field::sqrt_ratio_m1(&F8::one(), &field::mul(&u1, &field::square(&u2)), &sqrt_m1);
    let den1 = field::mul(&invsqrt, &u1);
    let den2 = field::mul(&invsqrt, &u2);
    let z_inv = field::mul(&field::mul(&den1, &den2), &p.t);
    let rotate = field::is_negative(&field::mul(&p.t, &z_inv));
    let x = field::select(&p.x, &field::mul(&p.y, &sqrt_m1), rotate);
    let y = field::select(&p.y, &field::mul(&p.x, &sqrt_m1), rotate);
    let enchanted = field::mul(&den1, &F8::splat(&reference::INVSQRT_A_MINUS_D.0));
    let den_inv = field::select(&den2, &enchanted, rotate);
    let y = field::select(&y, &field::neg(&y), field::is_negative(&field::mul(&x, &z_inv)));
    bytes(&field::abs(&field::mul(&den_inv, &field::sub(&p.z, &y))))
}

/// The compressed Edwards encodings of eight points (y, and x's sign in the top bit), in
/// constant time.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn encode_edwards(p: &Ext8) -> [[u8; 32]; 8] {
    let z_inv = field::invert(&p.z);
    let negative = field::is_negative(&field::mul(&p.x, &z_inv));
    let mut out = bytes(&field::mul(&p.y, &z_inv));
    for (lane, e) in out.iter_mut().enumerate() {
        e[31] |= u8::from(negative >> lane & 1 == 1) << 7;
    }
    out
}

/// Each lane's canonical 32 bytes (public values only: encodings being made).
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn bytes(a: &F8) -> [[u8; 32]; 8] {
    let limbs = field::freeze(a).0.map(|v| {
        let mut lanes = [0u64; 8];
        // SAFETY: `lanes` is 64 writable bytes, what one unaligned store writes.
        unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), v) };
        lanes
    });
    core::array::from_fn(|lane| Fe(limbs.map(|l| l[lane])).to_bytes())
}
