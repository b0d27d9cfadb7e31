//! Verification on public inputs only (spec §4.9), and the parts of it Combine shares: the
//! message digest μ, the challenge c̃ → c, and the verifier's commitment
//! w = Round_ν(A·z − 2^ξ·c·b̃). Compiled in every build, the light client's included.
//!
//! ```text
//! let key = GroupKey::from_bytes(corg)?;          // CORG, 4,654 bytes
//! key.verify(message, context, cors)?;            // one-shot: expands A from ρ
//! let prepared = PreparedGroupKey::new(&key);     // once per key: A and 2^ξ·b̃ in the NTT domain
//! prepared.verify(message, context, cors)?;       // then per signature
//! ```

use alloc::vec::Vec;

use super::arith::centred;
use super::codec::pack;
use super::key::GroupKey;
use super::ntt::{inv_ntt, pointwise};
use super::params::{BOUND_SQUARED, N, NU, ROWS, XI};
use super::ring::{poly_sub, to_ntt, Matrix, Poly, ZERO};
use super::sample::{round_nu, sample_in_ball};
use super::Error;
use crate::hash::{tags, Transcript};

/// μ = TH(MSG; tr, ctx, M; 64).
pub(crate) fn message_digest(tr: &[u8; 64], ctx: &[u8], message: &[u8]) -> [u8; 64] {
    let mut t = Transcript::new(tags::CORONA_MSG);
    t.append(tr).append(ctx).append(message);
    t.finalize()
}

/// c̃ = TH(HC; tr, μ, enc19(h̃); 32).
pub(crate) fn challenge_seed(tr: &[u8; 64], mu: &[u8; 64], h: &[[u32; N]]) -> [u8; 32] {
    let mut bytes = Vec::with_capacity(ROWS * 32 * 19);
    pack(h.iter().flatten().map(|&v| u64::from(v)), 19, &mut bytes);
    let mut t = Transcript::new(tags::CORONA_HC);
    t.append(tr).append(mu).append(&bytes);
    t.finalize()
}

/// c = SampleInBall(XOF(BALL; c̃)).
pub(crate) fn challenge(c_tilde: &[u8; 32]) -> Poly {
    let mut t = Transcript::new(tags::CORONA_BALL);
    t.append(c_tilde);
    sample_in_ball(&mut t.finalize_xof())
}

/// A Corona signature's values: c̃, z ∈ R_q^7, Δ ∈ [−2^18, 2^18)^{8×256}.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Signature {
    pub(crate) c_tilde: [u8; 32],
    pub(crate) z: Vec<Poly>,
    pub(crate) delta: Vec<[i32; N]>,
}

/// A group key prepared for repeated verification: A and 2^ξ·b̃ in the NTT domain (about
/// 130 KB), so each signature costs 8 forward and 8 inverse NTTs, the 64 slot products and
/// two hashes. What a light client keeps per key era.
#[derive(Clone)]
pub struct PreparedGroupKey {
    key: GroupKey,
    a: Matrix,
    /// NTT(2^ξ·b̃_r), one per row.
    b_hat: Vec<Poly>,
}

impl core::fmt::Debug for PreparedGroupKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("corona::PreparedGroupKey")
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl PreparedGroupKey {
    /// Expands A from ρ and lifts b̃ (the cost of one verification, once).
    pub fn new(key: &GroupKey) -> PreparedGroupKey {
        let b_hat = key
            .b_tilde
            .iter()
            .map(|row| {
                let mut lifted = ZERO;
                for (l, &x) in lifted.iter_mut().zip(row.iter()) {
                    // b̃ < 2^18, so 2^ξ·b̃ < 2^48 < q: a residue already.
                    *l = u64::from(x) << XI;
                }
                to_ntt(&lifted)
            })
            .collect();
        PreparedGroupKey {
            key: key.clone(),
            a: Matrix::expand(&key.rho),
            b_hat,
        }
    }

    /// The group key.
    pub fn group_key(&self) -> &GroupKey {
        &self.key
    }

    /// The expanded A.
    #[cfg(feature = "ristretto255")]
    pub(crate) fn matrix(&self) -> &Matrix {
        &self.a
    }

    /// Verifies a `CORS` signature on `message` under `context`, as [`GroupKey::verify`].
    ///
    /// # Errors
    /// [`Error::ContextTooLong`], [`Error::Malformed`] (the signature frame),
    /// [`Error::InvalidSignature`].
    pub fn verify(&self, message: &[u8], context: &[u8], signature: &[u8]) -> Result<(), Error> {
        if context.len() > 255 {
            return Err(Error::ContextTooLong { len: context.len() });
        }
        let sig = super::encoding::decode_signature(signature)?;
        let mu = message_digest(&self.key.digest, context, message);
        if self.verify_values(&mu, &sig) {
            Ok(())
        } else {
            Err(Error::InvalidSignature)
        }
    }

    /// w = Round_ν(A·z − 2^ξ·c·b̃), row by row, in the NTT domain until the last step.
    pub(crate) fn commitment(&self, z: &[Poly], c: &Poly) -> Vec<[u32; N]> {
        let z_hat: Vec<Poly> = z.iter().map(to_ntt).collect();
        let c_hat = to_ntt(c);
        let mut cb = ZERO;
        self.a
            .apply_hat(&z_hat)
            .iter()
            .zip(&self.b_hat)
            .map(|(az, b)| {
                pointwise(&c_hat, b, &mut cb);
                let mut w = poly_sub(az, &cb);
                inv_ntt(&mut w);
                let mut r = [0u32; N];
                for (r, &x) in r.iter_mut().zip(w.iter()) {
                    *r = round_nu(x);
                }
                r
            })
            .collect()
    }

    /// Verify on values (spec §4.9) under the bound B².
    pub(crate) fn verify_values(&self, mu: &[u8; 64], sig: &Signature) -> bool {
        self.verify_bounded(mu, sig, BOUND_SQUARED)
    }

    /// [`PreparedGroupKey::verify_values`] against the norm bound `bound` (the tests'
    /// bound-tightness checks).
    pub(crate) fn verify_bounded(&self, mu: &[u8; 64], sig: &Signature, bound: u128) -> bool {
        let w = self.commitment(&sig.z, &challenge(&sig.c_tilde));
        let restored: Vec<[u32; N]> = w
            .iter()
            .zip(&sig.delta)
            .map(|(wr, dr)| {
                let mut r = [0u32; N];
                for ((r, &x), &d) in r.iter_mut().zip(wr.iter()).zip(dr.iter()) {
                    // Exact: masked to 19 bits.
                    #[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation)]
                    let v = ((i64::from(x) + i64::from(d)) as u64 & ((1 << 19) - 1)) as u32;
                    *r = v;
                }
                r
            })
            .collect();
        challenge_seed(&self.key.digest, mu, &restored) == sig.c_tilde && norm_squared(sig) <= bound
    }
}

/// N2 = Σ cent_q(z)² + 2^{2ν}·Σ Δ² (u128: at most about 2^105.9 for every encodable z and Δ).
pub(crate) fn norm_squared(sig: &Signature) -> u128 {
    let mut norm: u128 = 0;
    for &v in sig.z.iter().flatten() {
        let c = i128::from(centred(v));
        norm += (c * c).unsigned_abs();
    }
    let mut delta: u128 = 0;
    for &d in sig.delta.iter().flatten() {
        delta += u128::from(d.unsigned_abs()) * u128::from(d.unsigned_abs());
    }
    norm + (delta << (2 * NU))
}
