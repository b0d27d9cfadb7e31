//! The public Combine (threshold-mldsa spec §3.5): from the signers' summed reveals and
//! their responses, the first slot whose summed z passes FIPS 204's bounds becomes a
//! standard signature. Only public data: any party or an untrusted relay can run it.
//! The result is checked with the ordinary verifier before it is returned (fail closed).

use alloc::vec::Vec;

use super::rounds::{centered, challenge, Matrix};
use crate::mldsa::encode::{pk_decode, sig_encode};
use crate::mldsa::hint::make_hint;
use crate::mldsa::ntt::freeze;
use crate::mldsa::params::Params;
use crate::mldsa::poly::{zero_vec, Poly, PolyVec};
use crate::mldsa::rounding::D;

/// A combined signature: which slot produced it, and its bytes.
pub(crate) struct Combined {
    pub(crate) slot: usize,
    pub(crate) signature: Vec<u8>,
}

/// Combines slot by slot; `responses[p][κ]` is signer p's z for slot κ (`None`: rejected).
/// `None` when no slot passes: the run failed and a new one starts from round 1.
pub(crate) fn combine<P: Params>(
    public_key: &[u8],
    mu: &[u8; 64],
    sums: &[PolyVec],
    responses: &[Vec<Option<PolyVec>>],
) -> Option<Combined> {
    let (rho, t1) = pk_decode::<P>(public_key);
    let a = Matrix::expand::<P>(&rho);
    let mut t1_hat = zero_vec();
    for i in 0..P::K {
        for (x, &t) in t1_hat[i].0.iter_mut().zip(t1[i].0.iter()) {
            *x = t << D;
        }
        t1_hat[i].ntt();
    }
    for (slot, w) in sums.iter().enumerate() {
        let Some(z) = summed_response::<P>(responses, slot) else {
            continue;
        };
        // ‖z‖∞ < γ1 − β (strict), on the centered sum.
        if z[..P::L].iter().any(|p| p.exceeds(P::GAMMA1 - P::BETA)) {
            continue;
        }
        let (c_tilde, c_hat) = challenge::<P>(mu, w);
        // f = A·z − c·t1·2^d − w; the verifier's A·z − c·t1·2^d is w + f.
        let mut z_hat = z;
        for p in z_hat.iter_mut().take(P::L) {
            p.ntt();
        }
        let mut approx = zero_vec();
        a.apply::<P>(&z_hat, &mut approx);
        let mut ct1 = Poly::default();
        let mut f_ok = true;
        let mut ones = 0usize;
        let mut h = zero_vec();
        for i in 0..P::K {
            ct1.pointwise(&c_hat, &t1_hat[i]);
            ct1.inv_ntt();
            approx[i].sub(&ct1);
            approx[i].freeze();
            for (n, &v) in approx[i].0.iter().enumerate() {
                let f = centered(v - w[i].0[n]);
                f_ok &= f.abs() < P::GAMMA2;
                let bit = make_hint(v, w[i].0[n], P::GAMMA2);
                h[i].0[n] = bit;
                ones += usize::from(bit == 1);
            }
        }
        if !f_ok || ones > P::OMEGA {
            continue;
        }
        let mut signature = alloc::vec![0u8; P::SIG_LEN];
        sig_encode::<P>(&c_tilde[..P::C_TILDE_LEN], &z, &h, &mut signature);
        return Some(Combined { slot, signature });
    }
    None
}

/// Σ_p z_p for one slot, centered, or `None` when some signer rejected it.
fn summed_response<P: Params>(responses: &[Vec<Option<PolyVec>>], slot: usize) -> Option<PolyVec> {
    let mut z = zero_vec();
    for party in responses {
        let part = party.get(slot)?.as_ref()?;
        for j in 0..P::L {
            z[j].add(&part[j]);
        }
    }
    for p in z.iter_mut().take(P::L) {
        for c in p.0.iter_mut() {
            *c = centered(freeze(*c));
        }
    }
    Some(z)
}
