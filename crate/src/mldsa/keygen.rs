//! Key generation (FIPS 204 §6.1, Alg. 6 ML-DSA.KeyGen_internal).

use zeroize::Zeroizing;

use super::encode::{pk_encode, sk_encode, SecretParts};
use super::params::Params;
use super::poly::{zero_vec, Poly, PolyVec};
use super::rounding::power2round;
use super::sample::{expand_s, ExpandA};
use crate::hash::shake256_into;

/// FIPS 204 Alg. 6 ML-DSA.KeyGen_internal(ξ): writes pk (`P::PK_LEN` bytes) and
/// sk (`P::SK_LEN` bytes).
pub(super) fn keygen_internal<P: Params>(xi: &[u8; 32], pk: &mut [u8], sk: &mut [u8]) {
    let mut parts = secret_parts::<P>(xi);
    let t1 = compute_t::<P>(&parts.rho, &parts.s1, &parts.s2, &mut parts.t0);

    pk_encode::<P>(&parts.rho, &t1, pk);
    // Public: the public key is this function's public output.
    crate::ct::public_slice(&pk[..P::PK_LEN]);
    // tr ← H(pk, 64)
    shake256_into(&[&pk[..P::PK_LEN]], &mut parts.tr);
    sk_encode::<P>(&parts, sk);
}

/// (ρ, ρ′, K) ← H(ξ ‖ k ‖ ℓ, 128) and (s1, s2) ← ExpandS(ρ′) (Alg. 6 steps 1–4): the key's
/// parts but t0 and tr, ρ declared public.
// Exact: k, ℓ ≤ 8 fit in a byte.
#[allow(clippy::cast_possible_truncation)]
#[inline(always)]
pub(super) fn secret_parts<P: Params>(xi: &[u8; 32]) -> SecretParts {
    let mut seeds = Zeroizing::new([0u8; 128]);
    shake256_into(&[xi, &[P::K as u8, P::L as u8]], &mut seeds[..]);
    let mut rho_prime = Zeroizing::new([0u8; 64]);
    rho_prime.copy_from_slice(&seeds[32..96]);

    let mut parts = SecretParts {
        rho: [0; 32],
        key: [0; 32],
        tr: [0; 64],
        s1: zero_vec(),
        s2: zero_vec(),
        t0: zero_vec(),
    };
    parts.rho.copy_from_slice(&seeds[..32]);
    // Public: ρ is the first field of the public key (Alg. 22); ExpandA branches on its stream.
    crate::ct::public_slice(&parts.rho);
    parts.key.copy_from_slice(&seeds[96..128]);
    expand_s::<P>(&rho_prime, &mut parts.s1[..P::L], &mut parts.s2[..P::K]);
    parts
}

/// t ← NTT^-1(Â ∘ NTT(s1)) + s2 and (t1, t0) ← Power2Round(t) (FIPS 204 Alg. 6 steps
/// 5–6); writes t0 and returns t1. Â is expanded row by row ([`ExpandA`]), never stored whole.
pub(super) fn compute_t<P: Params>(rho: &[u8; 32], s1: &PolyVec, s2: &PolyVec, t0: &mut PolyVec) -> PolyVec {
    let mut s1_hat = Zeroizing::new(*s1);
    for p in s1_hat.iter_mut().take(P::L) {
        p.ntt();
    }
    let mut t1 = zero_vec();
    let mut row = zero_vec();
    let mut a_hat = ExpandA::new(rho, P::K, P::L);
    for i in 0..P::K {
        a_hat.next_row(&mut row[..P::L]);
        t_row::<P>(&row[..P::L], &s1_hat, &s2[i], &mut t1[i], &mut t0[i]);
    }
    t1
}

/// Row i of t = NTT^-1(Â ∘ NTT(s1)) + s2, split by Power2Round into `t1` and `t0`, from row
/// i of Â (ℓ entries) and NTT(s1).
// Inlined into each caller as the loop it was (the Pulsar module's size budget).
#[inline(always)]
pub(super) fn t_row<P: Params>(a_row: &[Poly], s1_hat: &PolyVec, s2: &Poly, t1: &mut Poly, t0: &mut Poly) {
    let mut t = Zeroizing::new(Poly::default());
    super::kernels::dot_poly(&mut t.0, a_row, &s1_hat[..P::L], None);
    t.reduce();
    t.inv_ntt();
    t.add(s2);
    t.freeze();
    for ((&c, hi), lo) in t.0.iter().zip(t1.0.iter_mut()).zip(t0.0.iter_mut()) {
        (*hi, *lo) = power2round(c);
    }
}
