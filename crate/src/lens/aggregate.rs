//! Aggregation (RFC 9591 §5.3) with identification of misbehaving signers, the final
//! [`Signature`], and verification.

use alloc::collections::BTreeMap;
use core::fmt;

use frost_core::CheaterDetection;

use super::ciphersuite::{frost_err, ident, with_suite, Suite};
use super::keys::{Hex, PublicKeyPackage};
use super::round2::{SignatureShare, SigningPackage};
use super::{Curve, Error};
use crate::wire;
use crate::PartyId;

/// Length of a Lens signature on every curve.
pub const SIGNATURE_LEN: usize = 64;

/// A Schnorr signature under the group key, in its curve's standard 64-byte encoding:
/// Ed25519 `R ‖ S` (RFC 8032), BIP-340 `x(R) ‖ s`, Ristretto255 `R ‖ z` (RFC 9591 §6.2).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Signature {
    curve: Curve,
    bytes: [u8; SIGNATURE_LEN],
}

impl fmt::Debug for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Signature")
            .field("curve", &self.curve)
            .field("bytes", &Hex(&self.bytes))
            .finish()
    }
}

impl Signature {
    /// The curve.
    pub fn curve(&self) -> Curve {
        self.curve
    }

    /// The standard 64-byte encoding.
    pub fn to_bytes(&self) -> [u8; SIGNATURE_LEN] {
        self.bytes
    }

    /// The standard 64-byte encoding, borrowed.
    pub fn as_bytes(&self) -> &[u8; SIGNATURE_LEN] {
        &self.bytes
    }

    /// Decodes a signature of `curve`: exactly 64 bytes, a valid `R`, a canonical scalar.
    ///
    /// # Errors
    /// [`Error::Decode`] with [`wire::Error::LengthMismatch`] or
    /// [`wire::Error::InvalidValue`].
    pub fn from_bytes(curve: Curve, bytes: &[u8]) -> Result<Signature, Error> {
        let arr: [u8; SIGNATURE_LEN] = bytes.try_into().map_err(|_| wire::Error::LengthMismatch {
            expected: SIGNATURE_LEN,
            got: bytes.len(),
        })?;
        with_suite!(curve, C => {
            frost_core::Signature::<C>::deserialize(&arr)
                .map_err(|_| wire::Error::InvalidValue("signature"))?;
        });
        Ok(Signature { curve, bytes: arr })
    }

    /// Verifies under `group_key` (see [`verify`]).
    ///
    /// # Errors
    /// As [`verify`].
    pub fn verify(&self, group_key: &[u8], message: &[u8]) -> Result<(), Error> {
        verify(self.curve, group_key, message, &self.bytes)
    }
}

/// Aggregation (RFC 9591 §5.3): sums the signature shares into a signature and verifies
/// it; if it does not verify, checks every share against its signer's verifying share and
/// names all who cheated. Run by the coordinator.
///
/// `shares` is keyed by the transport-authenticated sender.
///
/// # Errors
/// [`Error::WrongCurve`]; [`Error::EpochMismatch`] when the package is not of `public`'s
/// epoch, or a share (naming its sender) is of another epoch; [`Error::SenderMismatch`];
/// [`Error::UnknownParty`] for a share from a party that is not a signer of the package,
/// or a signer without a share in `public`; [`Error::MissingMessage`] for a signer whose
/// share is missing; [`Error::NotEnoughSigners`]; [`Error::InvalidSignatureShare`] with
/// every culprit.
pub(super) fn aggregate(
    public: &PublicKeyPackage,
    package: &SigningPackage,
    shares: &BTreeMap<PartyId, SignatureShare>,
) -> Result<Signature, Error> {
    let curve = public.curve();
    if package.curve() != curve {
        return Err(Error::WrongCurve {
            expected: curve,
            found: package.curve(),
        });
    }
    if package.epoch() != public.epoch() {
        return Err(Error::EpochMismatch {
            party: None,
            expected: public.epoch(),
            found: package.epoch(),
        });
    }
    for s in package.signers() {
        if !public.contains(*s) {
            return Err(Error::UnknownParty { party: *s });
        }
    }
    if package.signers().len() < usize::from(public.threshold()) {
        return Err(Error::NotEnoughSigners {
            needed: public.threshold(),
            got: package.signers().len(),
        });
    }
    for (party, share) in shares {
        if share.curve() != curve {
            return Err(Error::WrongCurve {
                expected: curve,
                found: share.curve(),
            });
        }
        if share.from() != *party {
            return Err(Error::SenderMismatch {
                party: *party,
                claimed: share.from(),
            });
        }
        if !package.contains(*party) {
            return Err(Error::UnknownParty { party: *party });
        }
        if share.epoch() != package.epoch() {
            return Err(Error::EpochMismatch {
                party: Some(*party),
                expected: package.epoch(),
                found: share.epoch(),
            });
        }
    }
    for s in package.signers() {
        if !shares.contains_key(s) {
            return Err(Error::MissingMessage { party: *s });
        }
    }
    with_suite!(curve, C => aggregate_g::<C>(public, package, shares))
}

fn aggregate_g<C: Suite>(
    public: &PublicKeyPackage,
    package: &SigningPackage,
    shares: &BTreeMap<PartyId, SignatureShare>,
) -> Result<Signature, Error> {
    let mut map = BTreeMap::new();
    for (party, share) in shares {
        map.insert(ident::<C>(*party)?, *share.inner.get::<C>()?);
    }
    let signature = frost_core::aggregate_custom::<C>(
        package.inner.get::<C>()?,
        &map,
        &public.state::<C>()?.frost,
        CheaterDetection::AllCheaters,
    )
    .map_err(|e| frost_err::<C>(e, package.signers()))?;
    let bytes = signature
        .serialize()
        .map_err(|_| Error::Internal("signature encoding"))?;
    let bytes: [u8; SIGNATURE_LEN] = bytes
        .as_slice()
        .try_into()
        .map_err(|_| Error::Internal("signature length"))?;
    Ok(Signature {
        curve: C::CURVE,
        bytes,
    })
}

/// Length of a Lens group key on every curve: the Ed25519 compressed point, the
/// Ristretto255 encoding, or the BIP-340 x-only key on secp256k1.
pub const GROUP_KEY_LEN: usize = 32;

/// Verifies a Lens signature: `z·G = R + c·PK` with the ciphersuite's challenge `c`
/// (RFC 9591 §6; BIP-340 for secp256k1).
///
/// `group_key` is the group key as [`PublicKeyPackage::group_key_bytes`] gives it, in the
/// one encoding each standard defines: 32 bytes on every curve, on secp256k1 BIP-340's
/// x-only key (the even-`y` point with that `x`). The 33-byte SEC 1 forms `02‖x` and
/// `03‖x` are refused by length, so one key has exactly one accepted encoding. Group
/// elements must be canonical, non-identity and (Ed25519) torsion-free, the scalar
/// canonical; on secp256k1 `x` and `r` must be below the field size and name curve points.
///
/// # Errors
/// [`Error::Decode`] for a key or signature of the wrong length
/// ([`wire::Error::LengthMismatch`] names the expected 32 or 64 bytes) or malformed;
/// [`Error::InvalidSignature`] when it does not verify.
pub fn verify(curve: Curve, group_key: &[u8], message: &[u8], signature: &[u8]) -> Result<(), Error> {
    with_suite!(curve, C => verify_g::<C>(group_key, message, signature))
}

fn verify_g<C: Suite>(group_key: &[u8], message: &[u8], signature: &[u8]) -> Result<(), Error> {
    if group_key.len() != GROUP_KEY_LEN {
        return Err(wire::Error::LengthMismatch {
            expected: GROUP_KEY_LEN,
            got: group_key.len(),
        }
        .into());
    }
    if signature.len() != SIGNATURE_LEN {
        return Err(wire::Error::LengthMismatch {
            expected: SIGNATURE_LEN,
            got: signature.len(),
        }
        .into());
    }
    // BIP-340's lift_x: the x-only key names the even-y point, SEC 1's `02‖x`.
    let point = match C::CURVE {
        #[cfg(feature = "secp256k1")]
        Curve::Secp256k1 => [&[0x02], group_key].concat(),
        #[allow(unreachable_patterns)] // a build of secp256k1 alone
        _ => group_key.to_vec(),
    };
    let vk = frost_core::VerifyingKey::<C>::deserialize(&point)
        .map_err(|_| wire::Error::InvalidValue("group key"))?;
    let sig = frost_core::Signature::<C>::deserialize(signature)
        .map_err(|_| wire::Error::InvalidValue("signature"))?;
    vk.verify(message, &sig).map_err(|_| Error::InvalidSignature)
}
