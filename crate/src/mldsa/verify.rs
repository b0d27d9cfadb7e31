//! Verification (FIPS 204 §6.3, Alg. 8 ML-DSA.Verify_internal). All inputs are public,
//! so this code may branch on them.

use subtle::ConstantTimeEq;

use super::encode::{pk_decode, sig_decode, w1_encode_poly};
use super::hint::use_hint;
use super::params::Params;
use super::poly::{zero_vec, Poly, MAX_K};
use super::rounding::D;
use super::sample::{rej_ntt_poly, sample_in_ball};
use crate::hash::Shake256Absorb;

/// FIPS 204 Alg. 8 ML-DSA.Verify_internal from μ (steps 6–7 done by the caller).
/// `pk` and `sig` have exactly `P::PK_LEN` and `P::SIG_LEN` bytes.
pub fn verify_mu<P: Params>(pk: &[u8], mu: &[u8; 64], sig: &[u8]) -> bool {
    let (rho, t1) = pk_decode::<P>(pk);
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
    let mut acc = Poly::default();
    let mut tmp = Poly::default();
    let mut w1 = zero_vec();
    for i in 0..P::K {
        acc = Poly::default();
        for j in 0..P::L {
            acc.pointwise_acc(&rej_ntt_poly(&rho, j as u8, i as u8), &parts.z[j]);
        }
        for (x, &t) in tmp.0.iter_mut().zip(t1[i].0.iter()) {
            *x = t << D;
        }
        tmp.ntt();
        let ct1 = {
            let mut p = Poly::default();
            p.pointwise(&c_hat, &tmp);
            p
        };
        acc.sub(&ct1);
        acc.reduce();
        acc.inv_ntt();
        acc.freeze();
        for n in 0..256 {
            w1[i].0[n] = use_hint(parts.h[i][n], acc.0[n], P::GAMMA2);
        }
        w1_encode_poly::<P>(&w1[i], &mut w1_bytes[i * w1_len..]);
    }
    let _ = acc;

    // c̃′ ← H(μ ‖ w1Encode(w1′), λ/4); accept iff c̃′ = c̃
    let mut hasher = Shake256Absorb::default();
    hasher.absorb(mu);
    hasher.absorb(&w1_bytes[..P::K * w1_len]);
    let mut c_tilde2 = [0u8; 64];
    hasher.finalize_into(&mut c_tilde2[..P::C_TILDE_LEN]);
    bool::from(c_tilde2[..P::C_TILDE_LEN].ct_eq(c_tilde))
}
