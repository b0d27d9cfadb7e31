//! Proofs of possession (draft-irtf-cfrg-bls-signature-05 §3.3.2–3.3.3): a signature on the
//! signer's own compressed public key under [`DST_POP`](super::DST_POP).

use core::fmt;

use bls12_381::G2Affine;

use super::points::{decode_g2, fixed};
use super::{Error, SIGNATURE_LEN};

const WHAT: &str = "proof of possession";

/// A proof of possession: a G2 point, validated like a signature but typed apart from one, so
/// that neither can be passed for the other. Produced by
/// `SigningKey::prove_possession`, checked by
/// [`VerifyingKey::verify_possession`](super::VerifyingKey::verify_possession).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct ProofOfPossession {
    point: G2Affine,
}

impl fmt::Debug for ProofOfPossession {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProofOfPossession(")?;
        for b in self.to_bytes() {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}

impl ProofOfPossession {
    /// Decodes a 96-byte compressed proof with the checks of [`Signature::from_bytes`].
    ///
    /// # Errors
    /// [`Error::NotCompressed`], [`Error::InvalidInfinityEncoding`],
    /// [`Error::IdentityElement`], [`Error::NonCanonical`], [`Error::NotOnCurve`],
    /// [`Error::NotInSubgroup`].
    ///
    /// [`Signature::from_bytes`]: super::Signature::from_bytes
    pub fn from_bytes(bytes: &[u8; SIGNATURE_LEN]) -> Result<Self, Error> {
        Ok(ProofOfPossession {
            point: decode_g2(bytes, WHAT)?,
        })
    }

    /// The 96-byte compressed encoding.
    pub fn to_bytes(&self) -> [u8; SIGNATURE_LEN] {
        self.point.to_compressed()
    }

    /// Wraps a point computed by PopProve.
    #[cfg(not(feature = "light"))]
    pub(super) fn from_point(point: G2Affine) -> Self {
        ProofOfPossession { point }
    }

    pub(super) fn point(&self) -> &G2Affine {
        &self.point
    }
}

impl TryFrom<&[u8]> for ProofOfPossession {
    type Error = Error;

    /// [`ProofOfPossession::from_bytes`] after checking the length.
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        ProofOfPossession::from_bytes(fixed(bytes, WHAT)?)
    }
}
