//! Signatures: points of G2 (draft-irtf-cfrg-bls-signature-05 §2.6–2.9) and the pairing check
//! every verification ends in.

use core::fmt;

use bls12_381::{multi_miller_loop, G1Affine, G2Affine, G2Prepared, Gt};

use super::points::{decode_g2, fixed};
use super::{hash, Error, SIGNATURE_LEN};

const WHAT: &str = "signature";

/// e(pk, q) = e(P1, r), checked as e(pk, q) · e(−P1, r) = 1: a two-term Miller loop and one
/// final exponentiation (the verify kernel of §2.7, §3.3.3 and §3.3.4).
pub(super) fn pairing_check(pk: &G1Affine, q: &G2Affine, r: &G2Affine) -> bool {
    let neg_p1 = -G1Affine::generator();
    let q = G2Prepared::from(*q);
    let r = G2Prepared::from(*r);
    multi_miller_loop(&[(pk, &q), (&neg_p1, &r)]).final_exponentiation() == Gt::identity()
}

/// A BLS signature (or an aggregate of signatures): a G2 point that passed
/// signature_subgroup_check, and is not the identity.
///
/// Decoding does the only subgroup check a signature ever gets; verification trusts it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Signature {
    point: G2Affine,
}

impl fmt::Debug for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Signature(")?;
        for b in self.to_bytes() {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}

impl Signature {
    /// signature_to_point plus signature_subgroup_check on a 96-byte compressed signature; the
    /// identity is refused too (no valid signature under a valid key is the identity).
    ///
    /// # Errors
    /// [`Error::NotCompressed`], [`Error::InvalidInfinityEncoding`],
    /// [`Error::IdentityElement`], [`Error::NonCanonical`], [`Error::NotOnCurve`],
    /// [`Error::NotInSubgroup`].
    pub fn from_bytes(bytes: &[u8; SIGNATURE_LEN]) -> Result<Self, Error> {
        Ok(Signature {
            point: decode_g2(bytes, WHAT)?,
        })
    }

    /// point_to_signature: the 96-byte compressed encoding.
    pub fn to_bytes(&self) -> [u8; SIGNATURE_LEN] {
        self.point.to_compressed()
    }

    /// CoreVerify against an already aggregated key point (which may be the identity: the
    /// check then fails, since `self` is not).
    pub(super) fn verify_with_key(&self, key: &G1Affine, message: &[u8]) -> Result<(), Error> {
        let q = hash::hash_message(message);
        if pairing_check(key, &q, &self.point) {
            Ok(())
        } else {
            Err(Error::InvalidSignature)
        }
    }

    /// Wraps a point computed by signing or aggregation.
    pub(super) fn from_point(point: G2Affine) -> Self {
        Signature { point }
    }

    pub(super) fn point(&self) -> &G2Affine {
        &self.point
    }
}

impl TryFrom<&[u8]> for Signature {
    type Error = Error;

    /// [`Signature::from_bytes`] after checking the length.
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Signature::from_bytes(fixed(bytes, WHAT)?)
    }
}
