//! Signing (FIPS 204 §6.2, Alg. 7 ML-DSA.Sign_internal).

use zeroize::Zeroizing;

use super::encode::{sig_encode, sk_decode, w1_encode_poly, SecretParts};
use super::kernels::{bits_poly, dot_poly, make_hint_poly};
use super::params::Params;
use super::poly::{zero_vec, Poly, PolyVec, MAX_K};
use super::sample::{expand_mask, sample_in_ball, ExpandA};
use super::Error;
use crate::hash::{shake256_into, Shake256Absorb};

/// FIPS 204 Alg. 7 ML-DSA.Sign_internal, from the message representative μ
/// (steps 6–7 are done by the caller). Writes `P::SIG_LEN` bytes to `out`.
///
/// Secret data takes no branch except the accept/reject decision of each attempt.
pub(super) fn sign_mu<P: Params>(
    sk: &[u8],
    mu: &[u8; 64],
    rnd: &[u8; 32],
    out: &mut [u8],
) -> Result<(), Error> {
    let parts = sk_decode::<P>(sk).ok_or(Error::MalformedSecretKey)?;
    let mut a_hat = [[Poly::default(); MAX_K]; MAX_K];
    let mut s1_hat = Zeroizing::new(zero_vec());
    expand::<P>(&parts, &mut a_hat, &mut s1_hat);
    sign_expanded::<P>(&parts, &a_hat, &s1_hat, mu, rnd, out);
    Ok(())
}

/// Â ← ExpandA(ρ) (k rows of ℓ entries) and NTT(s1), what signing keeps for all its
/// attempts, into the caller's buffers (Â is 64 KB: returned by value, it was copied).
#[inline(always)]
pub(super) fn expand<P: Params>(parts: &SecretParts, a_hat: &mut [PolyVec; MAX_K], s1_hat: &mut PolyVec) {
    let mut rows = ExpandA::new(&parts.rho, P::K, P::L);
    for row in a_hat.iter_mut().take(P::K) {
        rows.next_row(&mut row[..P::L]);
    }
    *s1_hat = parts.s1;
    for p in s1_hat.iter_mut().take(P::L) {
        p.ntt();
    }
}

/// The body of [`sign_mu`] for a key already in hand: its parts (tr unused), Â (k rows of
/// ℓ entries) and NTT(s1). Also what signing from a seed runs (`from_seed`), which
/// has these from deriving the key.
// Exact: ℓ ≤ 7 (κ += ℓ), and a hint bit is 0 or 1 (counted with a cast, not a branch).
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
pub(super) fn sign_expanded<P: Params>(
    parts: &SecretParts,
    a_hat: &[PolyVec; MAX_K],
    s1_hat: &PolyVec,
    mu: &[u8; 64],
    rnd: &[u8; 32],
    out: &mut [u8],
) {
    #[cfg(feature = "ct-check")]
    crate::ct::planted_leak(&parts.key);
    let to_ntt = |v: &PolyVec, len: usize| {
        let mut out = Zeroizing::new(*v);
        for p in out.iter_mut().take(len) {
            p.ntt();
        }
        out
    };
    let s2_hat = to_ntt(&parts.s2, P::K);
    let t0_hat = to_ntt(&parts.t0, P::K);

    // ρ″ ← H(K ‖ rnd ‖ μ, 64)
    let mut rho_pp = Zeroizing::new([0u8; 64]);
    shake256_into(&[&parts.key, rnd, mu], &mut rho_pp[..]);

    let mut y = Zeroizing::new(zero_vec());
    let mut y_hat = Zeroizing::new(zero_vec());
    let mut w = Zeroizing::new(zero_vec());
    let mut z = Zeroizing::new(zero_vec());
    let mut h = zero_vec();
    let mut tmp = Zeroizing::new(Poly::default());
    let mut w1_bytes = [0u8; MAX_K * 32 * 6];
    let mut c_tilde = [0u8; 64];
    let mut kappa: u16 = 0;

    loop {
        // y ← ExpandMask(ρ″, κ); w ← NTT^-1(Â ∘ NTT(y)); w1 ← HighBits(w)
        expand_mask::<P>(&rho_pp, kappa, &mut y[..P::L]);
        for j in 0..P::L {
            y_hat[j] = y[j];
            y_hat[j].ntt();
        }
        kappa = kappa.wrapping_add(P::L as u16);
        let w1_len = 32 * P::W1_BITS;
        for i in 0..P::K {
            dot_poly(&mut w[i].0, &a_hat[i][..P::L], &y_hat[..P::L], None);
            w[i].reduce();
            w[i].inv_ntt();
            w[i].freeze();
            bits_poly::<true>(&mut tmp.0, &w[i].0, P::GAMMA2);
            w1_encode_poly::<P>(&tmp, &mut w1_bytes[i * w1_len..]);
        }

        // c̃ ← H(μ ‖ w1Encode(w1), λ/4); c ← SampleInBall(c̃)
        let mut hasher = Shake256Absorb::default();
        hasher.absorb(mu);
        hasher.absorb(&w1_bytes[..P::K * w1_len]);
        hasher.finalize_into(&mut c_tilde[..P::C_TILDE_LEN]);
        // Public: c̃ goes into the signature if this attempt is accepted; a rejected one is
        // a hash of a discarded commitment. SampleInBall branches on it, as FIPS 204 does.
        crate::ct::public_slice(&c_tilde[..P::C_TILDE_LEN]);
        let mut c_hat = sample_in_ball::<P>(&c_tilde[..P::C_TILDE_LEN]);
        c_hat.ntt();

        // z ← y + ⟨⟨c·s1⟩⟩. An attempt stops at the first failed bound; which bound
        // failed is independent of the key (as in the reference implementation).
        if !z_within_bound::<P>(&c_hat, s1_hat, &y, &mut z) {
            continue;
        }

        let mut ones = 0usize;
        let mut reject = false;
        for i in 0..P::K {
            // r ← w − ⟨⟨c·s2⟩⟩; r0 ← LowBits(r)
            tmp.pointwise(&c_hat, &s2_hat[i]);
            tmp.inv_ntt();
            let mut r = Zeroizing::new(w[i]);
            r.sub(&tmp);
            r.freeze();
            bits_poly::<false>(&mut tmp.0, &r.0, P::GAMMA2);
            // Public: a rejection decision (Alg. 7 line 23) only says this attempt is retried.
            if crate::ct::public(tmp.exceeds(P::GAMMA2 - P::BETA)) {
                reject = true;
                break;
            }

            // ⟨⟨c·t0⟩⟩, its bound, and h ← MakeHint(−ct0, r + ct0)
            tmp.pointwise(&c_hat, &t0_hat[i]);
            tmp.inv_ntt();
            tmp.reduce();
            // Public: a rejection decision (Alg. 7 line 28).
            if crate::ct::public(tmp.exceeds(P::GAMMA2)) {
                reject = true;
                break;
            }
            ones += make_hint_poly(&mut h[i].0, &r.0, &tmp.0, P::GAMMA2);
        }
        // Public: a rejection decision (Alg. 7 line 28, the hint weight).
        if reject || crate::ct::public(ones > P::OMEGA) {
            continue;
        }

        // Public: the accepted attempt's h and z are the signature (HintBitPack indexes by h).
        crate::ct::public_slice(&h[..P::K]);
        crate::ct::public_slice(&z[..P::L]);
        sig_encode::<P>(&c_tilde[..P::C_TILDE_LEN], &z, &h, out);
        return;
    }
}

/// z ← y + ⟨⟨c·s1⟩⟩ and the check ‖z‖∞ < γ1 − β, stopping at the first failing row.
fn z_within_bound<P: Params>(c_hat: &Poly, s1_hat: &PolyVec, y: &PolyVec, z: &mut PolyVec) -> bool {
    for j in 0..P::L {
        z[j].pointwise(c_hat, &s1_hat[j]);
        z[j].inv_ntt();
        z[j].add(&y[j]);
        z[j].reduce();
        // Public: a rejection decision (Alg. 7 line 23).
        if crate::ct::public(z[j].exceeds(P::GAMMA1 - P::BETA)) {
            return false;
        }
    }
    true
}
