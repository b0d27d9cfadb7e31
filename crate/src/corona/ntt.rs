//! The negacyclic NTT of R_q (spec §6.1): X^256 + 1 splits completely mod q, with
//! ψ = 11^((q−1)/512) a primitive 512th root of unity. Cooley–Tukey forward, Gentleman–Sande
//! inverse, twiddles in bit-reversed order and Montgomery form, as in FIPS 204's NTT; the
//! ordering of the slots is internal (no wire format or hash sees NTT values).

use super::arith::{add, mont_mul, sub, Q, R2_MOD_Q, R_MOD_Q};
use super::params::N;

/// ψ, a primitive 512th root of unity mod q (ψ^256 = −1).
pub(crate) const PSI: u64 = 182_013_311_964_515;
/// 256⁻¹ mod q.
const N_INV: u64 = 280_375_465_101_751;

const fn mul_mod(a: u64, b: u64) -> u64 {
    // Exact: the remainder is below q.
    #[allow(clippy::cast_possible_truncation)]
    let r = ((a as u128 * b as u128) % Q as u128) as u64;
    r
}

const fn pow_mod(mut a: u64, mut e: u64) -> u64 {
    let mut r = 1;
    while e > 0 {
        if e & 1 == 1 {
            r = mul_mod(r, a);
        }
        a = mul_mod(a, a);
        e >>= 1;
    }
    r
}

const fn bit_reverse_8(k: usize) -> u64 {
    let mut r = 0;
    let mut i = 0;
    while i < 8 {
        r |= ((k >> i) & 1) << (7 - i);
        i += 1;
    }
    r as u64
}

/// ψ^brv8(k)·R mod q, k = 0..255.
const ZETAS: [u64; N] = {
    let mut z = [0u64; N];
    let mut k = 0;
    while k < N {
        z[k] = mul_mod(pow_mod(PSI, bit_reverse_8(k)), R_MOD_Q);
        k += 1;
    }
    z
};

/// 256⁻¹·R mod q: the inverse transform's final scaling in Montgomery form.
const N_INV_MONT: u64 = mul_mod(N_INV, R_MOD_Q);

/// In place: coefficients (each < q) → the 256 evaluations at the odd powers of ψ.
pub(crate) fn ntt(a: &mut [u64; N]) {
    let mut k = 0;
    let mut len = N / 2;
    while len > 0 {
        let mut start = 0;
        while start < N {
            k += 1;
            let zeta = ZETAS[k];
            for j in start..start + len {
                let t = mont_mul(zeta, a[j + len]);
                a[j + len] = sub(a[j], t);
                a[j] = add(a[j], t);
            }
            start += 2 * len;
        }
        len >>= 1;
    }
}

/// In place: the inverse of [`ntt`].
pub(crate) fn inv_ntt(a: &mut [u64; N]) {
    let mut k = N;
    let mut len = 1;
    while len < N {
        let mut start = 0;
        while start < N {
            k -= 1;
            // −ζ: the inverse butterfly's twiddle.
            let zeta = Q - ZETAS[k];
            for j in start..start + len {
                let t = a[j];
                a[j] = add(t, a[j + len]);
                a[j + len] = mont_mul(zeta, sub(t, a[j + len]));
            }
            start += 2 * len;
        }
        len <<= 1;
    }
    for c in a.iter_mut() {
        *c = mont_mul(*c, N_INV_MONT);
    }
}

/// The product of two NTT-domain polynomials, slot by slot (exact residues).
pub(crate) fn pointwise(a: &[u64; N], b: &[u64; N], out: &mut [u64; N]) {
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        *o = mont_mul(mont_mul(x, y), R2_MOD_Q);
    }
}
