//! Verification (FIPS 204 §6.3, Alg. 8 ML-DSA.Verify_internal). All inputs are public,
//! so this code may branch on them.

use alloc::vec::Vec;

use subtle::ConstantTimeEq;

use super::encode::{pk_decode, sig_decode, w1_encode_poly};
use super::kernels::{dot_poly, use_hint_poly};
use super::params::Params;
#[cfg(not(feature = "light"))]
use super::poly::{zero_vec, PolyVec};
use super::poly::{Poly, MAX_K};
use super::rounding::D;
use super::sample::{sample_in_ball, ExpandA};
use crate::hash::Shake256Absorb;

/// Where Â and NTT(t1·2^d) come from: expanded on the fly from the encoded key (one
/// pass, no storage), or precomputed in a [`Prepared`] key.
trait KeyMaterial {
    /// Calls `f(i, row)` with each row i < k of Â (ℓ entries), in order.
    fn for_each_a_row(&self, k: usize, l: usize, f: impl FnMut(usize, &[Poly]));
    /// NTT(t1[i]·2^d)
    fn t1_hat(&self, i: usize) -> Poly;
}

#[cfg(not(feature = "light"))]
struct OnTheFly {
    rho: [u8; 32],
    t1: PolyVec,
}

#[cfg(not(feature = "light"))]
impl KeyMaterial for OnTheFly {
    fn for_each_a_row(&self, k: usize, l: usize, mut f: impl FnMut(usize, &[Poly])) {
        let mut a_hat = ExpandA::new(&self.rho, k, l);
        let mut row = zero_vec();
        for i in 0..k {
            a_hat.next_row(&mut row[..l]);
            f(i, &row[..l]);
        }
    }

    fn t1_hat(&self, i: usize) -> Poly {
        shifted_t1_hat(&self.t1[i])
    }
}

pub(super) fn shifted_t1_hat(t1: &Poly) -> Poly {
    let mut p = Poly::default();
    for (x, &t) in p.0.iter_mut().zip(t1.0.iter()) {
        *x = t << D;
    }
    p.ntt();
    p
}

/// A public key expanded for repeated verification: Â (k·ℓ polynomials), NTT(t1·2^d)
/// and tr = H(pk, 64).
#[derive(Clone)]
pub(super) struct Prepared {
    pub tr: [u8; 64],
    a_hat: Vec<Poly>,
    t1_hat: Vec<Poly>,
}

impl Prepared {
    /// Expands an encoded public key of exactly `P::PK_LEN` bytes.
    pub(super) fn new<P: Params>(pk: &[u8]) -> Self {
        let mut key = Self::expand::<P>(pk);
        crate::hash::shake256_into(&[pk], &mut key.tr);
        key
    }

    /// Â and t̂1 of `pk`, without tr (left zero).
    fn expand<P: Params>(pk: &[u8]) -> Self {
        let (rho, t1) = pk_decode::<P>(pk);
        let mut a_hat = alloc::vec![Poly::default(); P::K * P::L];
        let mut rows = ExpandA::new(&rho, P::K, P::L);
        for row in a_hat.chunks_exact_mut(P::L) {
            rows.next_row(row);
        }
        let t1_hat = t1[..P::K].iter().map(shifted_t1_hat).collect();
        Prepared {
            tr: [0; 64],
            a_hat,
            t1_hat,
        }
    }
}

impl KeyMaterial for Prepared {
    fn for_each_a_row(&self, k: usize, l: usize, mut f: impl FnMut(usize, &[Poly])) {
        for (i, row) in self.a_hat.chunks_exact(l).enumerate().take(k) {
            f(i, row);
        }
    }

    fn t1_hat(&self, i: usize) -> Poly {
        self.t1_hat[i]
    }
}

/// FIPS 204 Alg. 8 ML-DSA.Verify_internal from μ (steps 6–7 done by the caller).
/// `pk` and `sig` have exactly `P::PK_LEN` and `P::SIG_LEN` bytes.
pub(super) fn verify_mu<P: Params>(pk: &[u8], mu: &[u8; 64], sig: &[u8]) -> bool {
    // The verify modules (`light`) expand the whole matrix first, as a prepared key does: one
    // copy of the verifier per set instead of two (the ML-DSA module's size budget), for the
    // same hashing and K·ℓ KB more memory for the call.
    #[cfg(feature = "light")]
    return verify_with::<P>(&Prepared::expand::<P>(pk), mu, sig);
    #[cfg(not(feature = "light"))]
    {
        let (rho, t1) = pk_decode::<P>(pk);
        verify_with::<P>(&OnTheFly { rho, t1 }, mu, sig)
    }
}

/// As [`verify_mu`], with a prepared key made from the same parameter set.
pub(super) fn verify_mu_prepared<P: Params>(key: &Prepared, mu: &[u8; 64], sig: &[u8]) -> bool {
    verify_with::<P>(key, mu, sig)
}

/// Â (k rows of ℓ entries) and NTT(t1·2^d) that the caller already has.
#[cfg(all(feature = "ristretto255", not(target_arch = "wasm32")))]
struct Expanded<'a> {
    a_hat: &'a [[Poly; MAX_K]; MAX_K],
    t1_hat: &'a [Poly],
}

#[cfg(all(feature = "ristretto255", not(target_arch = "wasm32")))]
impl KeyMaterial for Expanded<'_> {
    fn for_each_a_row(&self, k: usize, l: usize, mut f: impl FnMut(usize, &[Poly])) {
        for (i, row) in self.a_hat.iter().enumerate().take(k) {
            f(i, &row[..l]);
        }
    }

    fn t1_hat(&self, i: usize) -> Poly {
        self.t1_hat[i]
    }
}

/// As [`verify_mu`], with the key's Â and NTT(t1·2^d) given.
#[cfg(all(feature = "ristretto255", not(target_arch = "wasm32")))]
pub(super) fn verify_mu_expanded<P: Params>(
    a_hat: &[[Poly; MAX_K]; MAX_K],
    t1_hat: &[Poly],
    mu: &[u8; 64],
    sig: &[u8],
) -> bool {
    verify_with::<P>(&Expanded { a_hat, t1_hat }, mu, sig)
}

fn verify_with<P: Params>(key: &impl KeyMaterial, mu: &[u8; 64], sig: &[u8]) -> bool {
    let c_tilde = &sig[..P::C_TILDE_LEN];
    let Some(mut parts) = sig_decode::<P>(sig) else {
        return false;
    };
    // ‖z‖∞ < γ1 − β
    if parts.z[..P::L].iter().any(|z| z.exceeds(P::GAMMA1 - P::BETA)) {
        return false;
    }

    let mut c_hat = sample_in_ball::<P>(c_tilde);
    c_hat.ntt();
    for z in parts.z[..P::L].iter_mut() {
        z.ntt();
    }

    // w′_approx ← NTT^-1(Â ∘ NTT(z) − NTT(c) ∘ NTT(t1·2^d)), row by row; w1′ ← UseHint(h, w′_approx)
    let w1_len = 32 * P::W1_BITS;
    let mut w1_bytes = [0u8; MAX_K * 32 * 6];
    let mut w1 = Poly::default();
    key.for_each_a_row(P::K, P::L, |i, row| {
        let mut acc = Poly::default();
        dot_poly(&mut acc.0, row, &parts.z[..P::L], Some((&c_hat, &key.t1_hat(i))));
        acc.inv_ntt();
        acc.freeze();
        use_hint_poly(&mut w1.0, &parts.h[i], &acc.0, P::GAMMA2);
        w1_encode_poly::<P>(&w1, &mut w1_bytes[i * w1_len..]);
    });

    // c̃′ ← H(μ ‖ w1Encode(w1′), λ/4); accept iff c̃′ = c̃
    let mut hasher = Shake256Absorb::default();
    hasher.absorb(mu);
    hasher.absorb(&w1_bytes[..P::K * w1_len]);
    let mut c_tilde2 = [0u8; 64];
    hasher.finalize_into(&mut c_tilde2[..P::C_TILDE_LEN]);
    bool::from(c_tilde2[..P::C_TILDE_LEN].ct_eq(c_tilde))
}
