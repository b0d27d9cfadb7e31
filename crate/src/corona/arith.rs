//! Arithmetic modulo q = 2^48 + 18945 (spec §6): canonical residues in [0, q) held in u64,
//! Montgomery multiplication with R = 2^64, masked conditional subtractions (no branch on a
//! value). WebAssembly has no 64×64 → 128-bit product: there the wide product is built from
//! four 32×32 → 64-bit products instead of Rust's u128 multiplication (a `__multi3` call).

/// The modulus: prime, 49 bits, q ≡ 1 (mod 512).
pub(crate) const Q: u64 = (1 << 48) + 18945;
/// −q⁻¹ mod 2^64.
pub(crate) const Q_INV_NEG: u64 = 0xfb52_171e_d29c_49ff;
/// R = 2^64 mod q.
pub(crate) const R_MOD_Q: u64 = 281_473_735_150_081;
/// R² mod q.
pub(crate) const R2_MOD_Q: u64 = 162_731_912_135_324;

/// The 128-bit product a·b as (low, high) words.
#[inline(always)]
pub(crate) fn mul_wide(a: u64, b: u64) -> (u64, u64) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let p = u128::from(a) * u128::from(b);
        // Exact: the two halves of the product.
        #[allow(clippy::cast_possible_truncation)]
        (p as u64, (p >> 64) as u64)
    }
    #[cfg(target_arch = "wasm32")]
    {
        mul_wide_32(a, b)
    }
}

/// [`mul_wide`] from four 32×32 → 64-bit products (WebAssembly's way; tested natively).
#[cfg(any(test, target_arch = "wasm32"))]
#[inline(always)]
pub(crate) fn mul_wide_32(a: u64, b: u64) -> (u64, u64) {
    let (a0, a1) = (a & 0xffff_ffff, a >> 32);
    let (b0, b1) = (b & 0xffff_ffff, b >> 32);
    let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
    // The middle column: three terms below 2^32 each, so no overflow.
    let mid = (p00 >> 32) + (p01 & 0xffff_ffff) + (p10 & 0xffff_ffff);
    let lo = (p00 & 0xffff_ffff) | (mid << 32);
    let hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    (lo, hi)
}

/// x − q if x ≥ q, else x (for x < 2q), by a mask.
#[inline(always)]
pub(crate) fn csub(x: u64) -> u64 {
    let (d, borrow) = x.overflowing_sub(Q);
    d.wrapping_add(Q & 0u64.wrapping_sub(u64::from(borrow)))
}

/// a + b mod q, for a, b < q.
#[inline(always)]
pub(crate) fn add(a: u64, b: u64) -> u64 {
    csub(a + b)
}

/// a − b mod q, for a, b < q.
#[inline(always)]
pub(crate) fn sub(a: u64, b: u64) -> u64 {
    let (d, borrow) = a.overflowing_sub(b);
    d.wrapping_add(Q & 0u64.wrapping_sub(u64::from(borrow)))
}

/// a·b·2^−64 mod q, in [0, q), for a·b < q·2^64 (any a < 2^64 with b < q).
#[inline(always)]
pub(crate) fn mont_mul(a: u64, b: u64) -> u64 {
    let (lo, hi) = mul_wide(a, b);
    let m = lo.wrapping_mul(Q_INV_NEG);
    let (_, mq_hi) = mul_wide(m, Q);
    // lo + low(m·q) is 0 mod 2^64: it carries exactly when lo ≠ 0.
    csub(hi + mq_hi + u64::from(lo != 0))
}

/// a·b mod q, for a, b < q.
#[inline(always)]
pub(crate) fn mul(a: u64, b: u64) -> u64 {
    mont_mul(mont_mul(a, b), R2_MOD_Q)
}

/// w mod q for any 64-bit w, in constant time (w·R·R⁻¹).
#[inline(always)]
pub(crate) fn reduce(w: u64) -> u64 {
    mont_mul(w, R_MOD_Q)
}

/// a^e mod q (variable time in e, which is public).
pub(crate) fn pow(mut a: u64, mut e: u64) -> u64 {
    let mut r = 1;
    while e > 0 {
        if e & 1 == 1 {
            r = mul(r, a);
        }
        a = mul(a, a);
        e >>= 1;
    }
    r
}

/// a⁻¹ mod q by Fermat, for a ≠ 0 (public values: Lagrange coefficients).
pub(crate) fn inv(a: u64) -> u64 {
    pow(a, Q - 2)
}

/// The centred representative of a < q: in [−(q−1)/2, (q−1)/2].
// Exact: a < q < 2^49 fits i64.
#[allow(clippy::cast_possible_wrap)]
#[inline(always)]
pub(crate) fn centred(a: u64) -> i64 {
    let big = 0u64.wrapping_sub(u64::from(a > (Q - 1) / 2));
    (a as i64) - ((Q & big) as i64)
}

/// The residue of a small signed integer (|x| < q).
// Exact: |x| < q.
#[allow(clippy::cast_sign_loss)]
#[inline(always)]
pub(crate) fn from_i64(x: i64) -> u64 {
    let negative = 0u64.wrapping_sub(u64::from(x < 0));
    (x as u64).wrapping_add(Q & negative)
}
