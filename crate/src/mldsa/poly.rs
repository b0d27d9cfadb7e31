//! Polynomials of R_q = Z_q[X]/(X^256 + 1) and fixed-capacity vectors of them.
//!
//! Vectors have room for the largest set (k = 8, ℓ = 7) and are used up to `P::K` or
//! `P::L`, so nothing is heap-allocated in the hot paths.

use zeroize::Zeroize;

use super::kernels;
use super::ntt;

/// Coefficients per polynomial.
pub(super) const N: usize = 256;
/// The largest k and ℓ of any parameter set.
pub(super) const MAX_K: usize = 8;

/// A polynomial; coefficients are i32 in whatever range the caller documents.
#[derive(Clone, Copy)]
pub(crate) struct Poly(pub [i32; N]);

impl Zeroize for Poly {
    fn zeroize(&mut self) {
        // The slice form: one fill behind zeroize's optimisation barrier. The derived (array)
        // form writes the 256 coefficients one volatile store at a time, which cost ML-DSA
        // signing several per cent (its vectors of up to 8 polynomials are wiped on drop).
        self.0.as_mut_slice().zeroize();
    }
}

impl Default for Poly {
    fn default() -> Self {
        Poly([0; N])
    }
}

impl Poly {
    /// Forward NTT in place.
    #[inline]
    pub(super) fn ntt(&mut self) {
        ntt::ntt(&mut self.0);
    }

    /// Inverse NTT in place (times 2^32, cancelling one pointwise product).
    #[inline]
    pub(super) fn inv_ntt(&mut self) {
        ntt::inv_ntt(&mut self.0);
    }

    /// self = a ∘ b (pointwise Montgomery product of NTT-domain polynomials).
    #[inline]
    pub(super) fn pointwise(&mut self, a: &Poly, b: &Poly) {
        ntt::pointwise(&mut self.0, &a.0, &b.0);
    }

    /// self += a ∘ b.
    #[cfg_attr(not(feature = "threshold"), allow(dead_code))] // rows of Â: threshold signing
    #[inline]
    pub(super) fn pointwise_acc(&mut self, a: &Poly, b: &Poly) {
        ntt::pointwise_acc(&mut self.0, &a.0, &b.0);
    }

    /// self += a.
    #[inline]
    pub(super) fn add(&mut self, a: &Poly) {
        for (r, x) in self.0.iter_mut().zip(a.0.iter()) {
            *r += *x;
        }
    }

    /// self −= a.
    #[inline]
    pub(super) fn sub(&mut self, a: &Poly) {
        for (r, x) in self.0.iter_mut().zip(a.0.iter()) {
            *r -= *x;
        }
    }

    /// Reduces every coefficient into the `reduce32` range (AVX2 where the CPU has it:
    /// `kernels::reduce_poly`).
    #[inline]
    pub(super) fn reduce(&mut self) {
        kernels::reduce_poly::<false>(&mut self.0);
    }

    /// Maps every coefficient from the `reduce32` range into [0, q).
    #[inline]
    pub(super) fn freeze(&mut self) {
        kernels::reduce_poly::<true>(&mut self.0);
    }

    /// Whether some |coefficient| ≥ `bound`, for coefficients in the `reduce32` range.
    /// Examines every coefficient (no early exit, no branch on the sign).
    #[inline]
    pub(super) fn exceeds(&self, bound: i32) -> bool {
        kernels::exceeds_poly(&self.0, bound)
    }
}

/// A vector of up to [`MAX_K`] polynomials.
pub(crate) type PolyVec = [Poly; MAX_K];

/// An all-zero vector.
pub(super) fn zero_vec() -> PolyVec {
    [Poly::default(); MAX_K]
}
