//! Aggregation (draft-irtf-cfrg-bls-signature-05 §2.8) and the aggregate verifications:
//! FastAggregateVerify (§3.3.4) for one message, AggregateVerify (§2.9) for one message per key.

use alloc::vec::Vec;

use bls12_381::{
    multi_miller_loop, G1Affine, G1Projective, G2Affine, G2Prepared, G2Projective, Gt, MillerLoopResult,
};

use super::{hash, Error, Signature, VerifyingKey};

/// Pairs per Miller loop in [`Signature::verify_aggregate`].
const CHUNK: usize = 8;

impl Signature {
    /// Aggregate (§2.8): the sum of the signatures.
    ///
    /// # Errors
    /// [`Error::Empty`] for no signatures, [`Error::IdentityElement`] if they sum to the
    /// identity (which no honest set of signatures does).
    pub fn aggregate(signatures: &[Signature]) -> Result<Signature, Error> {
        if signatures.is_empty() {
            return Err(Error::Empty { what: "signatures" });
        }
        let sum = signatures
            .iter()
            .fold(G2Projective::identity(), |acc, s| acc.add_mixed(s.point()));
        let point = G2Affine::from(sum);
        if bool::from(point.is_identity()) {
            return Err(Error::IdentityElement {
                what: "aggregate signature",
            });
        }
        Ok(Signature::from_point(point))
    }

    /// FastAggregateVerify (§3.3.4): every key in `public_keys` signed `message`, and `self`
    /// is the aggregate of their signatures.
    ///
    /// # Errors
    /// [`Error::Empty`] for no keys, [`Error::InvalidSignature`].
    ///
    /// # Security
    /// Every key must have a verified proof of possession; see the module's trust statement.
    pub fn verify_fast_aggregate(&self, public_keys: &[VerifyingKey], message: &[u8]) -> Result<(), Error> {
        if public_keys.is_empty() {
            return Err(Error::Empty { what: "public keys" });
        }
        let sum = public_keys
            .iter()
            .fold(G1Projective::identity(), |acc, pk| acc.add_mixed(pk.point()));
        self.verify_with_key(&G1Affine::from(sum), message)
    }

    /// AggregateVerify (§3.3 with §2.9 CoreAggregateVerify): key `i` signed message `i`;
    /// n + 1 Miller-loop terms and one final exponentiation. The terms run in chunks of
    /// 8 so that memory stays bounded (a prepared G2 point is about 20 KB).
    ///
    /// # Errors
    /// [`Error::Empty`] for no pairs, [`Error::InvalidSignature`].
    ///
    /// # Security
    /// Every key must have a verified proof of possession.
    pub fn verify_aggregate(&self, pairs: &[(&VerifyingKey, &[u8])]) -> Result<(), Error> {
        if pairs.is_empty() {
            return Err(Error::Empty { what: "public keys" });
        }
        // C1 = ∏ e(PK_i, H(m_i)), accumulated chunk by chunk before the final exponentiation.
        let mut c1 = MillerLoopResult::default();
        for chunk in pairs.chunks(CHUNK) {
            let prepared: Vec<G2Prepared> = chunk
                .iter()
                .map(|(_, m)| G2Prepared::from(hash::hash_message(m)))
                .collect();
            let terms: Vec<(&G1Affine, &G2Prepared)> = chunk
                .iter()
                .map(|(pk, _)| pk.point())
                .zip(prepared.iter())
                .collect();
            c1 += multi_miller_loop(&terms);
        }
        // C1 · e(−P1, R) = 1.
        let neg_p1 = -G1Affine::generator();
        let r = G2Prepared::from(*self.point());
        if (c1 + multi_miller_loop(&[(&neg_p1, &r)])).final_exponentiation() == Gt::identity() {
            Ok(())
        } else {
            Err(Error::InvalidSignature)
        }
    }
}
