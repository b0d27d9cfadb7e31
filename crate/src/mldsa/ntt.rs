//! Arithmetic in Z_q and the number-theoretic transform (FIPS 204 §7.5–7.6, Alg. 41–49).
//!
//! Products use Montgomery reduction with R = 2^32. The zetas are stored in Montgomery
//! form, so `ntt` maps plain coefficients to plain NTT coefficients; a pointwise product
//! of two plain NTT values picks up a factor R^-1, which `inv_ntt` (the reference's
//! "invntt_tomont") cancels by multiplying with R. No step branches on data.

/// The modulus q = 2^23 − 2^13 + 1.
pub(super) const Q: i32 = 8_380_417;
/// q^-1 mod 2^32.
const QINV: i32 = 58_728_449;
/// ζ = 1753, a primitive 512-th root of unity mod q (FIPS 204 §7.5).
const ZETA: i64 = 1753;

const fn pow_mod(base: i64, mut exp: u32) -> i64 {
    let mut acc = 1i64;
    let mut b = base % Q as i64;
    while exp > 0 {
        if exp & 1 == 1 {
            acc = acc * b % Q as i64;
        }
        b = b * b % Q as i64;
        exp >>= 1;
    }
    acc
}

/// Centred representative of `x · 2^32 mod q`.
// Exact: r is centred, |r| ≤ q/2 < 2^31.
#[allow(clippy::cast_possible_truncation)]
const fn to_mont_centered(x: i64) -> i32 {
    let r = (x % Q as i64) * pow_mod(2, 32) % Q as i64;
    let r = if r > (Q as i64) / 2 { r - Q as i64 } else { r };
    r as i32
}

/// ζ^BitRev8(k) in Montgomery form, k = 0..255 (FIPS 204 Appendix B, built at compile time).
// Exact: k < 256.
#[allow(clippy::cast_possible_truncation)]
const ZETAS: [i32; 256] = {
    let mut z = [0i32; 256];
    let mut k = 0;
    while k < 256 {
        let brv = (k as u8).reverse_bits() as u32;
        z[k] = to_mont_centered(pow_mod(ZETA, brv));
        k += 1;
    }
    z
};

/// 2^64 / 256 mod q in Montgomery form: scales by 256^-1 and re-enters Montgomery form.
const INV_NTT_SCALE: i32 = to_mont_centered(pow_mod(2, 32) * pow_mod(8_347_681, 1) % Q as i64);

/// Montgomery reduction: for |a| < 2^31·q, returns r ≡ a·2^-32 (mod q) with |r| < q.
#[inline(always)]
// Montgomery reduction: `a as i32` keeps a mod 2^32 on purpose.
#[allow(clippy::cast_possible_truncation)]
pub(super) fn mont_reduce(a: i64) -> i32 {
    let t = (a as i32).wrapping_mul(QINV);
    ((a - i64::from(t) * i64::from(Q)) >> 32) as i32
}

/// Montgomery product a·b·2^-32 mod q.
#[inline(always)]
pub(super) fn mont_mul(a: i32, b: i32) -> i32 {
    mont_reduce(i64::from(a) * i64::from(b))
}

/// For a ≤ 2^31 − 2^22 − 1, returns r ≡ a (mod q) with −6283009 ≤ r ≤ 6283008.
#[inline(always)]
pub(super) fn reduce32(a: i32) -> i32 {
    let t = (a + (1 << 22)) >> 23;
    a - t * Q
}

/// Adds q if a is negative (branch-free).
#[inline(always)]
pub(super) fn caddq(a: i32) -> i32 {
    a + ((a >> 31) & Q)
}

/// The standard representative in [0, q) of a value within the range of `reduce32`.
#[inline(always)]
pub(super) fn freeze(a: i32) -> i32 {
    caddq(reduce32(a))
}

/// FIPS 204 Alg. 41 NTT, in place. Input |a| < q; output |a| < 9q.
pub(super) fn ntt(a: &mut [i32; 256]) {
    let mut k = 0;
    let mut len = 128;
    while len > 0 {
        let mut start = 0;
        while start < 256 {
            k += 1;
            let zeta = ZETAS[k];
            let (lo, hi) = a[start..start + 2 * len].split_at_mut(len);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let t = mont_mul(zeta, *y);
                *y = *x - t;
                *x += t;
            }
            start += 2 * len;
        }
        len >>= 1;
    }
}

/// FIPS 204 Alg. 42 NTT^-1, in place, times the Montgomery factor 2^32.
/// Input |a| < q; output |a| < q.
///
/// The final scaling by 256^-1 (step 21) is folded into the last layer: its sums are
/// multiplied by the scale, its differences by ζ·scale, saving a pass over the array.
pub(super) fn inv_ntt(a: &mut [i32; 256]) {
    let mut k = 256;
    let mut len = 1;
    while len < 128 {
        let mut start = 0;
        while start < 256 {
            k -= 1;
            let zeta = -ZETAS[k];
            let (lo, hi) = a[start..start + 2 * len].split_at_mut(len);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let t = *x;
                *x = t + *y;
                *y = mont_mul(zeta, t - *y);
            }
            start += 2 * len;
        }
        len <<= 1;
    }
    // Last layer (len = 128, k = 1). Sums reach at most 256·q < 2^31.
    let (lo, hi) = a.split_at_mut(128);
    for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
        let t = *x;
        *x = mont_mul(INV_NTT_SCALE, t + *y);
        *y = mont_mul(LAST_ZETA_SCALED, t - *y);
    }
}

/// −ζ_1 · scale, in Montgomery form: the last layer's twiddle with the scale folded in.
// Montgomery reduction at compile time: `p as i32` keeps p mod 2^32 on purpose.
#[allow(clippy::cast_possible_truncation)]
const LAST_ZETA_SCALED: i32 = {
    let p = (-(ZETAS[1] as i64)) * INV_NTT_SCALE as i64;
    // Montgomery reduction of p, at compile time.
    let t = (p as i32).wrapping_mul(QINV);
    ((p - (t as i64) * (Q as i64)) >> 32) as i32
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zetas_match_the_reference_table() {
        // First entries of the round-3 reference table (Montgomery form).
        assert_eq!(&ZETAS[1..6], &[25847, -2608894, -518909, 237124, -777960]);
        assert_eq!(ZETAS[255], 1976782);
        assert_eq!(INV_NTT_SCALE, 41978);
    }

    #[test]
    // Test data: i < 256.
    #[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
    fn inverse_undoes_forward() {
        let mut a = [0i32; 256];
        for (i, x) in a.iter_mut().enumerate() {
            *x = (i as i32 * 7919 + 13) % Q - Q / 2;
        }
        let orig = a;
        ntt(&mut a);
        inv_ntt(&mut a);
        for (x, o) in a.iter().zip(orig.iter()) {
            // inv_ntt leaves a factor 2^32; one Montgomery reduction removes it.
            assert_eq!(freeze(mont_reduce(i64::from(*x))), freeze(*o));
        }
    }

    #[test]
    fn pointwise_product_is_negacyclic_convolution() {
        let mut a = [0i32; 256];
        let mut b = [0i32; 256];
        a[255] = 3; // 3·X^255
        b[1] = 5; // 5·X
        ntt(&mut a);
        ntt(&mut b);
        let mut c = [0i32; 256];
        for i in 0..256 {
            c[i] = mont_mul(a[i], b[i]);
        }
        inv_ntt(&mut c);
        // X^256 = −1, so the product is −15.
        assert_eq!(freeze(c[0]), Q - 15);
        assert!(c[1..].iter().all(|&x| freeze(x) == 0));
    }
}
