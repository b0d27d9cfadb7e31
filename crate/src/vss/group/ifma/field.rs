//! Eight elements of GF(2^255 − 19) at once: one 512-bit register per radix-2^51 limb, one
//! lane per element, products with the 52-bit multiply-adds of AVX-512 IFMA.
//!
//! Every function here needs AVX-512F and AVX-512 IFMA; callers reach them only after
//! [`super::available`]. Bounds: a *loose* element has limbs below 2^51 + 2^16, which every
//! operation returns; a product's inputs need limbs below 2^52 (the multiplier reads 52
//! bits), so sums and differences are carried before they are multiplied.

use core::arch::x86_64::{
    __m512i, __mmask8, _mm512_add_epi64, _mm512_and_si512, _mm512_cmpeq_epi64_mask, _mm512_madd52hi_epu64,
    _mm512_madd52lo_epu64, _mm512_mask_mov_epi64, _mm512_or_si512, _mm512_set1_epi64, _mm512_setzero_si512,
    _mm512_slli_epi64, _mm512_srli_epi64, _mm512_sub_epi64,
};

/// Eight field elements, limb-major.
#[derive(Clone, Copy)]
pub(super) struct F8(pub(super) [__m512i; 5]);

const MASK51: u64 = (1 << 51) - 1;
/// 2p, limb by limb: what a subtraction adds so that no limb goes negative.
const TWO_P: [u64; 5] = [
    (1 << 52) - 38,
    (1 << 52) - 2,
    (1 << 52) - 2,
    (1 << 52) - 2,
    (1 << 52) - 2,
];

#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn splat64(v: u64) -> __m512i {
    _mm512_set1_epi64(v.cast_signed())
}

impl F8 {
    /// The same element in every lane (limbs below 2^51).
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn splat(limbs: &[u64; 5]) -> F8 {
        F8([
            splat64(limbs[0]),
            splat64(limbs[1]),
            splat64(limbs[2]),
            splat64(limbs[3]),
            splat64(limbs[4]),
        ])
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn zero() -> F8 {
        F8([_mm512_setzero_si512(); 5])
    }

    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) fn one() -> F8 {
        F8::splat(&[1, 0, 0, 0, 0])
    }
}

/// `19·x` by shifts (a 64-bit vector product is three micro-ops).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn times19(x: __m512i) -> __m512i {
    _mm512_add_epi64(
        _mm512_add_epi64(x, _mm512_slli_epi64::<1>(x)),
        _mm512_slli_epi64::<4>(x),
    )
}

/// One carry step on every limb at once (inputs below 2^62): loose output.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn carry(r: [__m512i; 5]) -> F8 {
    let m = splat64(MASK51);
    let c = r.map(|v| _mm512_srli_epi64::<51>(v));
    let l = r.map(|v| _mm512_and_si512(v, m));
    F8([
        _mm512_add_epi64(l[0], times19(c[4])),
        _mm512_add_epi64(l[1], c[0]),
        _mm512_add_epi64(l[2], c[1]),
        _mm512_add_epi64(l[3], c[2]),
        _mm512_add_epi64(l[4], c[3]),
    ])
}

/// Columns `k` and `k + 5` of a product folded (`2^255 ≡ 19`), then carried. `lo[k]` holds
/// the low 52 bits of the partial products of column `k`, `hi[k]` their high parts, which
/// weigh 2^52 = 2·2^51 and so belong to column `k + 1`, doubled.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn fold(lo: &[__m512i; 9], hi: &[__m512i; 9]) -> F8 {
    let column = |k: usize| -> __m512i {
        let low = lo.get(k).copied().unwrap_or_else(|| _mm512_setzero_si512());
        match k.checked_sub(1) {
            None => low,
            Some(j) => _mm512_add_epi64(low, _mm512_slli_epi64::<1>(hi[j])),
        }
    };
    carry(core::array::from_fn(|k| {
        _mm512_add_epi64(column(k), times19(column(k + 5)))
    }))
}

/// `a·b`. Columns are below 2^57, folded below 2^62.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn mul(a: &F8, b: &F8) -> F8 {
    let mut lo = [_mm512_setzero_si512(); 9];
    let mut hi = [_mm512_setzero_si512(); 9];
    for (i, x) in a.0.iter().enumerate() {
        for (j, y) in b.0.iter().enumerate() {
            lo[i + j] = _mm512_madd52lo_epu64(lo[i + j], *x, *y);
            hi[i + j] = _mm512_madd52hi_epu64(hi[i + j], *x, *y);
        }
    }
    fold(&lo, &hi)
}

/// `a²`: each cross product once, doubled with a shift.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn square(a: &F8) -> F8 {
    let mut lo = [_mm512_setzero_si512(); 9];
    let mut hi = [_mm512_setzero_si512(); 9];
    for i in 0..5 {
        for j in i + 1..5 {
            lo[i + j] = _mm512_madd52lo_epu64(lo[i + j], a.0[i], a.0[j]);
            hi[i + j] = _mm512_madd52hi_epu64(hi[i + j], a.0[i], a.0[j]);
        }
    }
    let mut lo = lo.map(|v| _mm512_slli_epi64::<1>(v));
    let mut hi = hi.map(|v| _mm512_slli_epi64::<1>(v));
    for i in 0..5 {
        lo[2 * i] = _mm512_madd52lo_epu64(lo[2 * i], a.0[i], a.0[i]);
        hi[2 * i] = _mm512_madd52hi_epu64(hi[2 * i], a.0[i], a.0[i]);
    }
    fold(&lo, &hi)
}

/// `a^(2^k)`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn square_times(a: &F8, k: u32) -> F8 {
    let mut r = *a;
    for _ in 0..k {
        r = square(&r);
    }
    r
}

/// `a + b` (inputs below 2^53), loose.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn add(a: &F8, b: &F8) -> F8 {
    carry(core::array::from_fn(|k| _mm512_add_epi64(a.0[k], b.0[k])))
}

/// `a + b` without carrying: limbs below 2^53, for a further addition or subtraction only.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn add_lazy(a: &F8, b: &F8) -> F8 {
    F8(core::array::from_fn(|k| _mm512_add_epi64(a.0[k], b.0[k])))
}

/// `a − b` (`a` below 2^54, `b` loose), loose.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn sub(a: &F8, b: &F8) -> F8 {
    carry(core::array::from_fn(|k| {
        _mm512_sub_epi64(_mm512_add_epi64(a.0[k], splat64(TWO_P[k])), b.0[k])
    }))
}

/// `−a` (loose `a`), loose.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn neg(a: &F8) -> F8 {
    sub(&F8::zero(), a)
}

/// Per lane, `b` where `mask` is set and `a` elsewhere.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn select(a: &F8, b: &F8, mask: __mmask8) -> F8 {
    F8(core::array::from_fn(|k| {
        _mm512_mask_mov_epi64(a.0[k], mask, b.0[k])
    }))
}

/// The canonical limbs (value below p, limbs below 2^51).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn freeze(a: &F8) -> F8 {
    let m = splat64(MASK51);
    let mut l = a.0;
    // Two sequential carries: limbs below 2^51, the first below 2^51 + 19.
    for _ in 0..2 {
        for k in 0..4 {
            l[k + 1] = _mm512_add_epi64(l[k + 1], _mm512_srli_epi64::<51>(l[k]));
            l[k] = _mm512_and_si512(l[k], m);
        }
        l[0] = _mm512_add_epi64(l[0], times19(_mm512_srli_epi64::<51>(l[4])));
        l[4] = _mm512_and_si512(l[4], m);
    }
    // q = 1 exactly when the value is at least p: the carry out of value + 19.
    let mut q = _mm512_srli_epi64::<51>(_mm512_add_epi64(l[0], splat64(19)));
    for limb in &l[1..] {
        q = _mm512_srli_epi64::<51>(_mm512_add_epi64(*limb, q));
    }
    l[0] = _mm512_add_epi64(l[0], times19(q));
    for k in 0..4 {
        l[k + 1] = _mm512_add_epi64(l[k + 1], _mm512_srli_epi64::<51>(l[k]));
        l[k] = _mm512_and_si512(l[k], m);
    }
    l[4] = _mm512_and_si512(l[4], m);
    F8(l)
}

/// Lanes whose element is zero.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn is_zero(a: &F8) -> __mmask8 {
    let f = freeze(a);
    let any = _mm512_or_si512(
        _mm512_or_si512(f.0[0], f.0[1]),
        _mm512_or_si512(_mm512_or_si512(f.0[2], f.0[3]), f.0[4]),
    );
    _mm512_cmpeq_epi64_mask(any, _mm512_setzero_si512())
}

/// Lanes where `a = b`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn equal(a: &F8, b: &F8) -> __mmask8 {
    is_zero(&sub(a, b))
}

/// Lanes whose element is "negative" (RFC 9496: odd in canonical form).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn is_negative(a: &F8) -> __mmask8 {
    let low = _mm512_and_si512(freeze(a).0[0], splat64(1));
    _mm512_cmpeq_epi64_mask(low, splat64(1))
}

/// `|a|`: `a` or `−a`, whichever is non-negative.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn abs(a: &F8) -> F8 {
    select(a, &neg(a), is_negative(a))
}

/// RFC 9496's SQRT_RATIO_M1: lanes where `u/v` is a square, and per lane the non-negative
/// `√(u/v)` (or `√(i·u/v)` where it is not).
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn sqrt_ratio_m1(u: &F8, v: &F8, sqrt_m1: &F8) -> (__mmask8, F8) {
    let v3 = mul(&square(v), v);
    let v7 = mul(&square(&v3), v);
    let r = mul(&mul(u, &v3), &pow_p58(&mul(u, &v7)));
    let check = mul(v, &square(&r));
    let minus_u = neg(u);
    let correct = equal(&check, u);
    let flipped = equal(&check, &minus_u);
    let flipped_i = equal(&check, &mul(&minus_u, sqrt_m1));
    let r = select(&r, &mul(&r, sqrt_m1), flipped | flipped_i);
    (correct | flipped, abs(&r))
}

/// `(a^(2^250 − 1), a^11)`: the common prefix of the chains below.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn pow22501(a: &F8) -> (F8, F8) {
    let t0 = square(a); // 2
    let t1 = square_times(&t0, 2); // 8
    let t1 = mul(a, &t1); // 9
    let a11 = mul(&t0, &t1); // 11
    let t0 = square(&a11); // 22
    let t0 = mul(&t1, &t0); // 2^5 − 1
    let t1 = square_times(&t0, 5);
    let t0 = mul(&t1, &t0); // 2^10 − 1
    let t1 = square_times(&t0, 10);
    let t1 = mul(&t1, &t0); // 2^20 − 1
    let t2 = square_times(&t1, 20);
    let t1 = mul(&t2, &t1); // 2^40 − 1
    let t1 = square_times(&t1, 10);
    let t0 = mul(&t1, &t0); // 2^50 − 1
    let t1 = square_times(&t0, 50);
    let t1 = mul(&t1, &t0); // 2^100 − 1
    let t2 = square_times(&t1, 100);
    let t1 = mul(&t2, &t1); // 2^200 − 1
    let t1 = square_times(&t1, 50);
    (mul(&t1, &t0), a11) // 2^250 − 1
}

/// `a^((p − 5)/8) = a^(2^252 − 3)`: 250 squarings and 11 products, plus 2 and 1.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn pow_p58(a: &F8) -> F8 {
    let (t, _) = pow22501(a);
    mul(&square_times(&t, 2), a)
}

/// `1/a = a^(p − 2) = a^(2^255 − 21)` (0 for 0).
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn invert(a: &F8) -> F8 {
    let (t, a11) = pow22501(a);
    mul(&square_times(&t, 5), &a11)
}

/// Lane `lane`'s limbs.
#[cfg(test)]
pub(super) fn lane(a: &F8, lane: usize) -> [u64; 5] {
    a.0.map(|v| {
        let mut out = [0u64; 8];
        // SAFETY: `out` is 64 writable bytes; the store needs AVX-512F, which the caller
        // (a test that checked `available()`) has.
        unsafe { core::arch::x86_64::_mm512_storeu_si512(out.as_mut_ptr().cast(), v) };
        out[lane]
    })
}
