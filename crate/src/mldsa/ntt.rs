//! Arithmetic in Z_q and the number-theoretic transform (FIPS 204 §7.5–7.6, Alg. 41–49).
//!
//! Products use Montgomery reduction with R = 2^32. The zetas are stored in Montgomery
//! form, so `ntt` maps plain coefficients to plain NTT coefficients; a pointwise product
//! of two plain NTT values picks up a factor R^-1, which `inv_ntt` (the reference's
//! "invntt_tomont") cancels by multiplying with R. No step branches on data.
//!
//! The four kernels every ML-DSA operation spends its arithmetic in — [`ntt`], [`inv_ntt`],
//! [`pointwise`] and [`pointwise_acc`] — each have a portable definition (`portable.rs`)
//! and SIMD versions that return the same i32s bit for bit (NEON: for every input but the
//! product i32::MIN · i32::MIN, far outside the ranges below), so nothing downstream can
//! tell them apart:
//! - x86-64 with `std`: AVX2 (`avx2.rs`), chosen at run time with `is_x86_feature_detected!`;
//! - wasm32 with `simd128` (`simd128.rs`) and aarch64 (NEON is baseline there, `neon.rs`):
//!   four-lane vectors, both through the one generic NTT of `lanes4.rs`. Not in the light
//!   (verify-only) WebAssembly build: compiled for size (opt-level s), the kernels made its
//!   verification about 5 % slower than the portable code, and its module 4.8 KB larger;
//! - everywhere else, the portable code.
//!
//! The target files are the only ones here allowed `unsafe`: a `#[target_feature]` call
//! after detection, and unaligned vector loads and stores. [`set_backend`] (public under
//! `bench-internals`) forces the portable kernels for the whole process, so benches show
//! the gain and tests compare the two in one binary.

/// The modulus q = 2^23 − 2^13 + 1.
pub(super) const Q: i32 = 8_380_417;
/// q^-1 mod 2^32.
pub(super) const QINV: i32 = 58_728_449;
/// ζ = 1753, a primitive 512-th root of unity mod q (FIPS 204 §7.5).
const ZETA: i64 = 1753;

use core::sync::atomic::{AtomicBool, Ordering};

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

/// −ζ_1 · scale, in Montgomery form: the last layer's twiddle with the scale folded in.
// Montgomery reduction at compile time: `p as i32` keeps p mod 2^32 on purpose.
#[allow(clippy::cast_possible_truncation)]
const LAST_ZETA_SCALED: i32 = {
    let p = (-(ZETAS[1] as i64)) * INV_NTT_SCALE as i64;
    // Montgomery reduction of p, at compile time.
    let t = (p as i32).wrapping_mul(QINV);
    ((p - (t as i64) * (Q as i64)) >> 32) as i32
};

mod portable;

#[cfg(all(target_arch = "x86_64", feature = "std"))]
#[allow(unsafe_code)] // target-feature calls after detection, vector loads and stores
mod avx2;
#[cfg(any(
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128", not(feature = "light"))
))]
mod lanes4;
#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)] // vector loads and stores
mod neon;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(feature = "light")))]
#[allow(unsafe_code)] // vector loads and stores
mod simd128;

/// The four-lane vector of this target, for `lanes4`'s kernels.
#[cfg(target_arch = "aarch64")]
type Lanes = neon::V;
/// The four-lane vector of this target, for `lanes4`'s kernels.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(feature = "light")))]
type Lanes = simd128::V;

/// Which kernels [`ntt`], [`inv_ntt`], [`pointwise`] and [`pointwise_acc`] may use (for
/// benchmarks and tests).
#[cfg_attr(not(feature = "bench-internals"), allow(dead_code))] // benches and tests
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// The fastest the CPU supports (the default).
    Auto,
    /// The portable scalar code, as on a target without SIMD.
    Portable,
}

static PORTABLE_ONLY: AtomicBool = AtomicBool::new(false);

/// Restricts the kernels ML-DSA's arithmetic may use, for the whole process: benchmarks
/// measure what a target without SIMD runs, tests compare the backends.
#[cfg_attr(not(feature = "bench-internals"), allow(dead_code))] // benches and tests
pub fn set_backend(b: Backend) {
    PORTABLE_ONLY.store(b == Backend::Portable, Ordering::Relaxed);
}

/// Whether the switch lets a SIMD kernel run.
#[cfg_attr(
    not(any(
        all(target_arch = "x86_64", feature = "std"),
        target_arch = "aarch64",
        all(target_arch = "wasm32", target_feature = "simd128", not(feature = "light"))
    )),
    allow(dead_code)
)]
#[inline]
pub(super) fn simd_allowed() -> bool {
    !PORTABLE_ONLY.load(Ordering::Relaxed)
}

/// FIPS 204 Alg. 41 NTT, in place. Input |a| < q; output |a| < 9q.
#[inline]
pub fn ntt(a: &mut [i32; 256]) {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if let Some(k) = avx2::Avx2::get() {
        return k.ntt(a);
    }
    #[cfg(any(
        target_arch = "aarch64",
        all(target_arch = "wasm32", target_feature = "simd128", not(feature = "light"))
    ))]
    if simd_allowed() {
        return lanes4::ntt::<Lanes>(a);
    }
    portable::ntt(a);
}

/// FIPS 204 Alg. 42 NTT^-1, in place, times the Montgomery factor 2^32.
/// Input |a| < q; output |a| < q.
#[inline]
pub fn inv_ntt(a: &mut [i32; 256]) {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if let Some(k) = avx2::Avx2::get() {
        return k.inv_ntt(a);
    }
    #[cfg(any(
        target_arch = "aarch64",
        all(target_arch = "wasm32", target_feature = "simd128", not(feature = "light"))
    ))]
    if simd_allowed() {
        return lanes4::inv_ntt::<Lanes>(a);
    }
    portable::inv_ntt(a);
}

/// r = a ∘ b: the Montgomery product of each pair of coefficients (FIPS 204 Alg. 45
/// MultiplyNTT, times 2^-32). For |a_i·b_i| < 2^31·q, |r_i| < q.
#[inline]
pub fn pointwise(r: &mut [i32; 256], a: &[i32; 256], b: &[i32; 256]) {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if let Some(k) = avx2::Avx2::get() {
        return k.pointwise(r, a, b);
    }
    #[cfg(any(
        target_arch = "aarch64",
        all(target_arch = "wasm32", target_feature = "simd128", not(feature = "light"))
    ))]
    if simd_allowed() {
        return lanes4::pointwise::<Lanes, false>(r, a, b);
    }
    portable::pointwise(r, a, b);
}

/// r += a ∘ b (ranges as for [`pointwise`]; the sum must not overflow).
#[cfg_attr(not(feature = "threshold"), allow(dead_code))] // rows of Â: threshold signing
#[inline]
pub fn pointwise_acc(r: &mut [i32; 256], a: &[i32; 256], b: &[i32; 256]) {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if let Some(k) = avx2::Avx2::get() {
        return k.pointwise_acc(r, a, b);
    }
    #[cfg(any(
        target_arch = "aarch64",
        all(target_arch = "wasm32", target_feature = "simd128", not(feature = "light"))
    ))]
    if simd_allowed() {
        return lanes4::pointwise::<Lanes, true>(r, a, b);
    }
    portable::pointwise_acc(r, a, b);
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use alloc::{vec, vec::Vec};

    /// Test inputs for comparing the SIMD kernels with the portable ones (xorshift64*).
    pub(crate) struct Rng(u64);

    // Test data: the casts keep chosen bits.
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_possible_wrap,
        clippy::cast_sign_loss
    )]
    impl Rng {
        pub(crate) fn new(seed: u64) -> Self {
            Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
        }

        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }

        /// A uniform byte.
        pub(crate) fn byte(&mut self) -> u8 {
            (self.next() >> 56) as u8
        }

        /// Uniform in [−bound, bound].
        pub(crate) fn coeff(&mut self, bound: i32) -> i32 {
            let span = 2 * i64::from(bound) + 1;
            ((self.next() >> 1) as i64 % span - i64::from(bound)) as i32
        }

        pub(crate) fn poly(&mut self, bound: i32) -> [i32; 256] {
            core::array::from_fn(|_| self.coeff(bound))
        }

        /// Polynomials with |coefficients| ≤ `bound`: the extremes (all ±bound, alternating
        /// signs, one non-zero coefficient, zero) and 300 uniform ones.
        pub(crate) fn polys(&mut self, bound: i32) -> Vec<[i32; 256]> {
            let mut v = vec![[bound; 256], [-bound; 256], [0; 256]];
            v.push(core::array::from_fn(|i| if i % 2 == 0 { bound } else { -bound }));
            v.push(core::array::from_fn(|i| if i < 128 { bound } else { -bound }));
            for i in [0, 1, 127, 128, 255] {
                let mut a = [0; 256];
                a[i] = bound;
                v.push(a);
            }
            for _ in 0..300 {
                let b = self.poly(bound);
                v.push(b);
            }
            v
        }

        /// (a, b, accumulator) triples for the pointwise kernels: NTT-domain ranges
        /// (|a|, |b| < 9q), products near the Montgomery bound, the whole i32 range but
        /// i32::MIN, and their extremes; accumulators with |r| < 2^29.
        pub(super) fn pointwise_cases(&mut self) -> Vec<([i32; 256], [i32; 256], [i32; 256])> {
            let max = i32::MAX;
            let mut v = Vec::new();
            for (ba, bb) in [(9 * Q, 9 * Q), (Q - 1, Q - 1), (max, 255), (max, max)] {
                v.push(([ba; 256], [bb; 256], [0; 256]));
                v.push(([-ba; 256], [bb; 256], [1 << 28; 256]));
                v.push(([-ba; 256], [-bb; 256], [-(1 << 28); 256]));
                for _ in 0..100 {
                    let c = (self.poly(ba), self.poly(bb), self.poly(1 << 29));
                    v.push(c);
                }
            }
            v
        }
    }

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
