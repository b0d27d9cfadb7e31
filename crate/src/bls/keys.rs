//! Public keys: points of G1 (draft-irtf-cfrg-bls-signature-05 §2.4–2.5).

use core::fmt;

use bls12_381::G1Affine;

use super::points::{decode_g1, fixed};
use super::{hash, sign, Error, ProofOfPossession, Signature, PUBLIC_KEY_LEN};

const WHAT: &str = "public key";

/// A BLS public key: a G1 point that passed KeyValidate (§2.5) — canonical, on the curve, in
/// the prime-order subgroup, not the identity.
///
/// # Security
/// A key alone may verify its own signatures. Before its signatures are aggregated with
/// others', its proof of possession must have been verified ([`verify_possession`]), or a
/// rogue key can forge aggregates.
///
/// [`verify_possession`]: VerifyingKey::verify_possession
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct VerifyingKey {
    point: G1Affine,
}

impl fmt::Debug for VerifyingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("VerifyingKey(")?;
        for b in self.to_bytes() {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}

impl VerifyingKey {
    /// pubkey_to_point plus KeyValidate (§2.5) on a 48-byte compressed key.
    ///
    /// # Errors
    /// [`Error::NotCompressed`], [`Error::InvalidInfinityEncoding`],
    /// [`Error::IdentityElement`], [`Error::NonCanonical`], [`Error::NotOnCurve`],
    /// [`Error::NotInSubgroup`].
    pub fn from_bytes(bytes: &[u8; PUBLIC_KEY_LEN]) -> Result<Self, Error> {
        Ok(VerifyingKey {
            point: decode_g1(bytes, WHAT)?,
        })
    }

    /// point_to_pubkey: the 48-byte compressed encoding.
    pub fn to_bytes(&self) -> [u8; PUBLIC_KEY_LEN] {
        self.point.to_compressed()
    }

    /// Verify (§2.7 CoreVerify): `signature` is this key's signature on `message`.
    ///
    /// # Errors
    /// [`Error::InvalidSignature`].
    pub fn verify(&self, message: &[u8], signature: &Signature) -> Result<(), Error> {
        let q = hash::hash_message(message);
        if sign::pairing_check(&self.point, &q, signature.point()) {
            Ok(())
        } else {
            Err(Error::InvalidSignature)
        }
    }

    /// PopVerify (§3.3.3): `proof` proves possession of this key's secret.
    ///
    /// # Errors
    /// [`Error::InvalidProofOfPossession`] with index 0.
    pub fn verify_possession(&self, proof: &ProofOfPossession) -> Result<(), Error> {
        let q = hash::hash_public_key(&self.to_bytes());
        if sign::pairing_check(&self.point, &q, proof.point()) {
            Ok(())
        } else {
            Err(Error::InvalidProofOfPossession { index: 0 })
        }
    }

    /// Wraps a point known to be valid (computed from a secret key, or decoded before).
    pub(super) fn from_point(point: G1Affine) -> Self {
        VerifyingKey { point }
    }

    pub(super) fn point(&self) -> &G1Affine {
        &self.point
    }
}

impl TryFrom<&[u8]> for VerifyingKey {
    type Error = Error;

    /// [`VerifyingKey::from_bytes`] after checking the length.
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        VerifyingKey::from_bytes(fixed(bytes, WHAT)?)
    }
}
