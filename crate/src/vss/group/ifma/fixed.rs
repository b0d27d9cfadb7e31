//! Products of the fixed bases `G` and `H`, in constant time: eight at a time (a dealer's
//! commitments) or one spread over the lanes (a single commitment).
//!
//! ```text
//! Table::new(base)                 once per base and process (public points)
//! mul_bases(tables, scalars)       eight sets of scalars, one per lane
//!   └ Digits::of (radix 64), Table::select, point::add_affine, point::double
//! mul_bases_one(tables, scalars)   one set, its rows spread over the lanes
//!   └ signed_digits (radix 16), Table::select_spread, point::add, three lane exchanges
//! ```
//!
//! Why two radices. Eight products at a time read one entry per lane and digit, picked by
//! register permutations: a two-source permutation picks among sixteen multiples as cheaply
//! as a one-source one among eight, so signed radix-64 digits (32 multiples a row, four
//! registers a limb, two permutations and a blend) take 43 additions per base where radix 16
//! took 64, for a few more permutations per addition. One product spread over the lanes
//! reads every entry of a row under a mask, so it keeps radix 16's eight multiples.
//!
//! Constant time: no branch or memory address depends on a digit; signs and zeros are
//! lane masks; the digits are wiped.

use alloc::vec::Vec;
use core::arch::x86_64::{
    __m512i, __mmask8, _mm512_abs_epi64, _mm512_cmpeq_epi64_mask, _mm512_cmplt_epi64_mask,
    _mm512_loadu_si512, _mm512_mask_blend_epi64, _mm512_mask_mov_epi64, _mm512_permutex2var_epi64,
    _mm512_permutexvar_epi64, _mm512_set_epi64, _mm512_setzero_si512, _mm512_sub_epi64,
    _mm512_test_epi64_mask, _mm512_xor_si512,
};

use zeroize::Zeroize;

use super::field::{self, splat64, F8};
use super::point::{add, add_affine, double, identity, Ext8, Niels8};
use super::reference::{self, Ext};

/// Bits per digit of the eight-lane products, and their digits per scalar (258 bits cover
/// the canonical scalars' 253).
const WIDE: usize = 6;
const WIDE_DIGITS: usize = 43;
/// The wide table's rows: one per pair of digits (the odd digits are summed first, then
/// multiplied by 64).
const WIDE_ROWS: usize = WIDE_DIGITS.div_ceil(2);

/// A base's multiples, as affine (y + x, y − x, 2d·x·y) and limb-major: `[limb][multiple − 1]`
/// with limbs 0–4 of y + x, 5–9 of y − x and 10–14 of 2d·x·y, so one limb of eight
/// multiples is one register.
pub(super) struct Table {
    /// The multiples `1..=32` of `2^(12j)·B` for `j` in `0..22`.
    wide: Vec<[[u64; 32]; 15]>,
    /// For one product spread over the lanes: `spread[s][limb][m]` holds, in lane `j`, limb
    /// `limb` of multiple `m + 1` of `256^(4j + s)·B`.
    spread: Vec<[[[u64; 8]; 8]; 15]>,
}

impl Table {
    /// The table of `base` (public).
    pub(super) fn new(base: &Ext) -> Table {
        let narrow = rows::<8>(base, 32, 8);
        let spread = (0..4)
            .map(|step| {
                core::array::from_fn(|limb| {
                    core::array::from_fn(|m| core::array::from_fn(|lane| narrow[4 * lane + step][limb][m]))
                })
            })
            .collect();
        Table {
            wide: rows::<32>(base, WIDE_ROWS, 2 * WIDE),
            spread,
        }
    }

    /// Row `j`'s multiple `|d|` in each lane, negated where `d < 0`, the identity where
    /// `d = 0` (digits in −32..=32).
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn select(&self, j: usize, d: __m512i) -> Niels8 {
        // |d| − 1 in 0..32 picks the multiple: bits 0–3 within a pair of registers, bit 4
        // the pair. For d = 0 it wraps, and the identity replaces what it picks.
        let index = _mm512_sub_epi64(_mm512_abs_epi64(d), splat64(1));
        let upper = _mm512_test_epi64_mask(index, splat64(16));
        let row = &self.wide[j];
        let limbs = core::array::from_fn(|limb| {
            // SAFETY: each `row[limb][8 * k..]` starts eight u64 inside the row, the 64 bytes
            // one unaligned load reads; AVX-512F is this function's target feature.
            let at = |k: usize| unsafe { _mm512_loadu_si512(row[limb][8 * k..].as_ptr().cast()) };
            let low = _mm512_permutex2var_epi64(at(0), index, at(1));
            let high = _mm512_permutex2var_epi64(at(2), index, at(3));
            _mm512_mask_blend_epi64(upper, low, high)
        });
        signed(&limbs, d)
    }

    /// In lane `j`, row `4j + step`'s multiple `|d_j|`, negated where `d_j < 0`, the identity
    /// where `d_j = 0`: every multiple is read and the lane's kept by mask.
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn select_spread(&self, step: usize, d: __m512i) -> Niels8 {
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
        signed(&limbs, d)
    }
}

/// The multiples `1..=M` of `2^(shift·i)·base` for `i` in `0..count`, as [`Table`] keeps them.
fn rows<const M: usize>(base: &Ext, count: usize, shift: usize) -> Vec<[[u64; M]; 15]> {
    let mut points = Vec::with_capacity(count * M);
    let mut row_base = *base;
    for _ in 0..count {
        let mut multiple = row_base;
        for _ in 0..M {
            points.push(multiple);
            multiple = multiple.add(&row_base);
        }
        for _ in 0..shift {
            row_base = row_base.add(&row_base);
        }
    }
    let inverses = reference::batch_invert(&points.iter().map(|p| p.z).collect::<Vec<_>>());
    let d2 = reference::D.add(reference::D);
    points
        .chunks_exact(M)
        .zip(inverses.chunks_exact(M))
        .map(|(row, inv)| {
            let mut limbs = [[0u64; M]; 15];
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
        .collect()
}

/// The entry picked for `|d|` (`limbs`, as [`Table`] lays them out), negated where `d < 0`
/// (y + x and y − x swapped, 2d·x·y negated), the identity where `d = 0`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn signed(limbs: &[__m512i; 15], d: __m512i) -> Niels8 {
    let zero = _mm512_setzero_si512();
    let negative = _mm512_cmplt_epi64_mask(d, zero);
    let none = _mm512_cmpeq_epi64_mask(d, zero);
    let part = |first: usize| F8(core::array::from_fn(|l| limbs[first + l]));
    let y_plus_x = field::select(&part(0), &F8::one(), none);
    let y_minus_x = field::select(&part(5), &F8::one(), none);
    let xy2d = field::select(&part(10), &F8::zero(), none);
    Niels8 {
        y_plus_x: field::select(&y_plus_x, &y_minus_x, negative),
        y_minus_x: field::select(&y_minus_x, &y_plus_x, negative),
        xy2d: field::select(&xy2d, &field::neg(&xy2d), negative),
    }
}

/// `Σ_j scalars_j[lane]·B_j` for each lane, with `B_j` the base of `tables[j]` (scalars
/// canonical, below 2^253): the odd digits of every scalar summed, multiplied by 64 with
/// six doublings, then the even digits added (one accumulator for all the bases).
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn mul_bases(tables: &[&Table], scalars: &[&[[u8; 32]; 8]]) -> Ext8 {
    let digits: Vec<Digits> = scalars.iter().map(|s| Digits::of(s)).collect();
    let mut acc = identity();
    for i in (1..WIDE_DIGITS).step_by(2) {
        for (table, d) in tables.iter().zip(&digits) {
            acc = add_affine(&acc, &table.select(i / 2, d.get(i)));
        }
    }
    for _ in 0..WIDE {
        acc = double(&acc);
    }
    for i in (0..WIDE_DIGITS).step_by(2) {
        for (table, d) in tables.iter().zip(&digits) {
            acc = add_affine(&acc, &table.select(i / 2, d.get(i)));
        }
    }
    acc
}

/// The signed radix-64 digits of eight canonical scalars as 43 registers of eight lanes:
/// `digits[i]` holds digit `i` of each lane's scalar.
struct Digits([[i64; 8]; WIDE_DIGITS]);

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
        let mut out = Digits([[0; 8]; WIDE_DIGITS]);
        for (lane, bytes) in scalars.iter().enumerate() {
            let mut d = signed_digits::<WIDE_DIGITS>(bytes, WIDE);
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

/// The `N` signed digits of radix `2^width` of a canonical scalar (below 2^253, `N·width`
/// bits enough for it), each in `−2^(width−1)..2^(width−1)` but the top one, which is
/// small and not negative. Arithmetic only: no branch or index depends on the scalar.
pub(super) fn signed_digits<const N: usize>(bytes: &[u8; 32], width: usize) -> [i64; N] {
    let mask = (1u16 << width) - 1;
    let mut d = [0i64; N];
    for (i, digit) in d.iter_mut().enumerate() {
        // The (public) bit position decides which bytes are read, never their values.
        let (at, shift) = (width * i / 8, width * i % 8);
        let low = u16::from(bytes.get(at).copied().unwrap_or(0));
        let high = u16::from(bytes.get(at + 1).copied().unwrap_or(0));
        *digit = i64::from(((low | high << 8) >> shift) & mask);
    }
    // Digits of 2^(width−1) and above borrow from the next.
    let half = 1i64 << (width - 1);
    for i in 0..N - 1 {
        let carry = (d[i] + half) >> width;
        d[i] -= carry << width;
        d[i + 1] += carry;
    }
    d
}

/// `Σ_j scalars[j]·B_j` for one set of scalars, spread over the lanes: lane `j` adds the
/// digits of rows `4j..4j + 4` (the odd ones apart, then times 16), and the lanes are summed
/// by three exchanges. Every lane ends with the sum.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn mul_bases_one(tables: &[&Table], scalars: &[&[u8; 32]]) -> Ext8 {
    let d2 = F8::splat(&reference::D.add(reference::D).reduced().0);
    let mut digits: Vec<[i64; 64]> = scalars.iter().map(|s| signed_digits::<64>(s, 4)).collect();
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
