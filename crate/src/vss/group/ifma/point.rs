//! Eight edwards25519 points at once: fixed-base multiplication on a radix-16 table and the
//! Ristretto encoding, in constant time (no branch or memory index depends on a scalar:
//! table entries are picked by a register permutation, signs and zeros by lane masks).

use alloc::vec::Vec;
use core::arch::x86_64::{
    __m512i, __mmask8, _mm512_abs_epi64, _mm512_cmpeq_epi64_mask, _mm512_cmplt_epi64_mask,
    _mm512_loadu_si512, _mm512_mask_mov_epi64, _mm512_permutexvar_epi64, _mm512_set_epi64,
    _mm512_setzero_si512, _mm512_storeu_si512, _mm512_sub_epi64, _mm512_xor_si512,
};

use zeroize::Zeroize;

use super::field::{self, splat64, F8};
use super::reference::{self, Ext, Fe};

/// Eight points in extended coordinates (X : Y : Z : T), `x = X/Z`, `y = Y/Z`, `T = XY/Z`.
#[derive(Clone, Copy)]
pub(super) struct Ext8 {
    pub(super) x: F8,
    pub(super) y: F8,
    pub(super) z: F8,
    pub(super) t: F8,
}

/// Eight affine points as (y + x, y − x, 2d·x·y).
#[derive(Clone, Copy)]
struct Niels8 {
    y_plus_x: F8,
    y_minus_x: F8,
    xy2d: F8,
}

/// The completed sum of a point and an affine point (dalek's `AddAffineNiels`, and the
/// formulas of Hisil–Wong–Carter–Dawson 2008 §3.1 with `k = 2d`).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn add_affine(p: &Ext8, q: &Niels8) -> Ext8 {
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
    let bits = 16 - xs.iter().max().copied().unwrap_or(0).leading_zeros();
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
        // acc·x by double-and-add from the top bit of the largest x, each lane adding
        // where its own bit is set (a lane whose x is 0 keeps the identity).
        let mut m = identity();
        for i in (0..bits as usize).rev() {
            m = double(&m);
            let sum = add(&m, &acc, &d2);
            m = Ext8 {
                x: field::select(&m.x, &sum.x, masks[i]),
                y: field::select(&m.y, &sum.y, masks[i]),
                z: field::select(&m.z, &sum.z, masks[i]),
                t: field::select(&m.t, &sum.t, masks[i]),
            };
        }
        acc = add(&m, &point(k), &d2);
    }
    acc
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

/// The multiples `1..=8` of `256^i·B` for `i` in `0..32`, as affine (y + x, y − x, 2d·x·y),
/// limb-major: `rows[i][limb][multiple − 1]` with limbs 0–4 of y + x, 5–9 of y − x and
/// 10–14 of 2d·x·y, so one limb of all eight multiples is one register.
pub(super) struct Table {
    rows: Vec<[[u64; 8]; 15]>,
    /// The same entries for one multiplication spread over the lanes: `spread[s][limb][m]`
    /// holds, in lane `j`, limb `limb` of multiple `m + 1` of row `4j + s`.
    spread: Vec<[[[u64; 8]; 8]; 15]>,
}

impl Table {
    /// The table of `base` (public).
    pub(super) fn new(base: &Ext) -> Table {
        let mut points = Vec::with_capacity(256);
        let mut row_base = *base;
        for _ in 0..32 {
            let mut multiple = row_base;
            for _ in 0..8 {
                points.push(multiple);
                multiple = multiple.add(&row_base);
            }
            for _ in 0..8 {
                row_base = row_base.add(&row_base);
            }
        }
        let inverses = reference::batch_invert(&points.iter().map(|p| p.z).collect::<Vec<_>>());
        let d2 = reference::D.add(reference::D);
        let rows: Vec<[[u64; 8]; 15]> = points
            .chunks_exact(8)
            .zip(inverses.chunks_exact(8))
            .map(|(row, inv)| {
                let mut limbs = [[0u64; 8]; 15];
                for (m, (p, zi)) in row.iter().zip(inv).enumerate() {
                    let (x, y) = (p.x.mul(*zi), p.y.mul(*zi));
                    let entry = [y.add(x), y.sub(x), d2.mul(x).mul(y)];
                    for (f, value) in entry.iter().enumerate() {
                        for (l, limb) in value.reduced().0.iter().enumerate() {
                            limbs[5 * f + l][m] = *limb;
                        }
                    }
                }
                limbs
            })
            .collect();
        let spread = (0..4)
            .map(|step| {
                core::array::from_fn(|limb| {
                    core::array::from_fn(|m| core::array::from_fn(|lane| rows[4 * lane + step][limb][m]))
                })
            })
            .collect();
        Table { rows, spread }
    }

    /// Row `i`'s multiple `|d|` in each lane, negated where `d < 0`, the identity where
    /// `d = 0` (digits in −8..=8).
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn select(&self, i: usize, d: __m512i) -> Niels8 {
        let zero = _mm512_setzero_si512();
        let negative = _mm512_cmplt_epi64_mask(d, zero);
        let none = _mm512_cmpeq_epi64_mask(d, zero);
        // |d| − 1 in 0..8 picks the multiple; for d = 0 it wraps to 7, replaced below.
        let index = _mm512_sub_epi64(_mm512_abs_epi64(d), splat64(1));
        let row = &self.rows[i];
        let pick = |limb: usize| -> __m512i {
            // SAFETY: `row[limb]` is eight u64, the 64 bytes one unaligned load reads; the
            // caller has AVX-512F (this function's target feature).
            let all = unsafe { _mm512_loadu_si512(row[limb].as_ptr().cast()) };
            _mm512_permutexvar_epi64(index, all)
        };
        let part = |first: usize| F8(core::array::from_fn(|l| pick(first + l)));
        let (one, zero_f) = (F8::one(), F8::zero());
        let y_plus_x = field::select(&part(0), &one, none);
        let y_minus_x = field::select(&part(5), &one, none);
        let xy2d = field::select(&part(10), &zero_f, none);
        Niels8 {
            y_plus_x: field::select(&y_plus_x, &y_minus_x, negative),
            y_minus_x: field::select(&y_minus_x, &y_plus_x, negative),
            xy2d: field::select(&xy2d, &field::neg(&xy2d), negative),
        }
    }
}

impl Table {
    /// In lane `j`, row `4j + step`'s multiple `|d_j|`, negated where `d_j < 0`, the identity
    /// where `d_j = 0`: every multiple is read and the lane's kept by mask.
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn select_spread(&self, step: usize, d: __m512i) -> Niels8 {
        let zero = _mm512_setzero_si512();
        let negative = _mm512_cmplt_epi64_mask(d, zero);
        let magnitude = _mm512_abs_epi64(d);
        let spread = &self.spread[step];
        let masks: [__mmask8; 8] =
            core::array::from_fn(|m| _mm512_cmpeq_epi64_mask(magnitude, splat64(m as u64 + 1)));
        let mut limbs = [_mm512_setzero_si512(); 15];
        for (out, entries) in limbs.iter_mut().zip(spread) {
            for (entry, here) in entries.iter().zip(masks) {
                // SAFETY: eight u64, the 64 bytes one unaligned load reads; AVX-512F is this
                // function's target feature.
                let entry = unsafe { _mm512_loadu_si512(entry.as_ptr().cast()) };
                *out = _mm512_mask_mov_epi64(*out, here, entry);
            }
        }
        let none = _mm512_cmpeq_epi64_mask(d, zero);
        let part = |first: usize| F8(core::array::from_fn(|l| limbs[first + l]));
        let y_plus_x = field::select(&part(0), &F8::one(), none);
        let y_minus_x = field::select(&part(5), &F8::one(), none);
        let xy2d = part(10);
        Niels8 {
            y_plus_x: field::select(&y_plus_x, &y_minus_x, negative),
            y_minus_x: field::select(&y_minus_x, &y_plus_x, negative),
            xy2d: field::select(&xy2d, &field::neg(&xy2d), negative),
        }
    }
}

/// `Σ_j scalars[j]·B_j` for one set of scalars, spread over the lanes: lane `j` adds the
/// digits of rows `4j..4j + 4` (the odd ones apart, then times 16), and the lanes are summed
/// by three exchanges. Every lane ends with the sum.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn mul_bases_one(tables: &[&Table], scalars: &[&[u8; 32]]) -> Ext8 {
    let d2 = F8::splat(&reference::D.add(reference::D).reduced().0);
    let mut digits: Vec<[i64; 64]> = scalars
        .iter()
        .map(|s| {
            let mut eight = [[0u8; 32]; 8];
            eight[0] = **s;
            let d = Digits::of(&eight);
            let out = core::array::from_fn(|i| d.0[i][0]);
            eight.zeroize();
            out
        })
        .collect();
    let (mut even, mut odd) = (identity(), identity());
    for step in 0..4 {
        for (table, d) in tables.iter().zip(&digits) {
            let pick = |offset: usize| -> __m512i {
                let lanes: [i64; 8] = core::array::from_fn(|j| d[2 * (4 * j + step) + offset]);
                // SAFETY: eight i64, the 64 bytes one unaligned load reads.
                unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) }
            };
            even = add_affine(&even, &table.select_spread(step, pick(0)));
            odd = add_affine(&odd, &table.select_spread(step, pick(1)));
        }
    }
    digits.zeroize();
    for _ in 0..4 {
        odd = double(&odd);
    }
    let mut sum = add(&even, &odd, &d2);
    for shift in [4u64, 2, 1] {
        let partner = _mm512_xor_si512(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), splat64(shift));
        let other = Ext8 {
            x: F8(sum.x.0.map(|v| _mm512_permutexvar_epi64(partner, v))),
            y: F8(sum.y.0.map(|v| _mm512_permutexvar_epi64(partner, v))),
            z: F8(sum.z.0.map(|v| _mm512_permutexvar_epi64(partner, v))),
            t: F8(sum.t.0.map(|v| _mm512_permutexvar_epi64(partner, v))),
        };
        sum = add(&sum, &other, &d2);
    }
    sum
}

/// The signed radix-16 digits of a canonical scalar, in −8..=8 (the top one in 0..=8), as
/// 64 registers of eight lanes: `digits[i]` holds digit `i` of each lane's scalar.
struct Digits([[i64; 8]; 64]);

impl Zeroize for Digits {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl Drop for Digits {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl Digits {
    fn of(scalars: &[[u8; 32]; 8]) -> Digits {
        let mut out = Digits([[0; 8]; 64]);
        for (lane, bytes) in scalars.iter().enumerate() {
            let mut d = [0i64; 64];
            for (i, b) in bytes.iter().enumerate() {
                d[2 * i] = i64::from(b & 15);
                d[2 * i + 1] = i64::from(b >> 4);
            }
            // Digits above 7 borrow from the next: arithmetic, no branch.
            for i in 0..63 {
                let carry = (d[i] + 8) >> 4;
                d[i] -= carry << 4;
                d[i + 1] += carry;
            }
            for (i, v) in d.iter().enumerate() {
                out.0[i][lane] = *v;
            }
            d.zeroize();
        }
        out
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn get(&self, i: usize) -> __m512i {
        // SAFETY: `self.0[i]` is eight i64, the 64 bytes one unaligned load reads.
        unsafe { _mm512_loadu_si512(self.0[i].as_ptr().cast()) }
    }
}

/// `Σ_j scalars_j[lane]·B_j` for each lane, with `B_j` the base of `tables[j]` (scalars
/// canonical, below 2^253): the odd digits of every scalar summed, multiplied by 16 with
/// four doublings, then the even digits added (one accumulator for all the bases).
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn mul_bases(tables: &[&Table], scalars: &[&[[u8; 32]; 8]]) -> Ext8 {
    let digits: Vec<Digits> = scalars.iter().map(|s| Digits::of(s)).collect();
    let mut acc = identity();
    for i in (1..64).step_by(2) {
        for (table, d) in tables.iter().zip(&digits) {
            acc = add_affine(&acc, &table.select(i / 2, d.get(i)));
        }
    }
    for _ in 0..4 {
        acc = double(&acc);
    }
    for i in (0..64).step_by(2) {
        for (table, d) in tables.iter().zip(&digits) {
            acc = add_affine(&acc, &table.select(i / 2, d.get(i)));
        }
    }
    acc
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
fn bytes(a: &F8) -> [[u8; 32]; 8] {
    let limbs = field::freeze(a).0.map(|v| {
        let mut lanes = [0u64; 8];
        // SAFETY: `lanes` is 64 writable bytes, what one unaligned store writes.
        unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), v) };
        lanes
    });
    core::array::from_fn(|lane| Fe(limbs.map(|l| l[lane])).to_bytes())
}
