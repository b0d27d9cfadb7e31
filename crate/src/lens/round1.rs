//! Signing round 1 (RFC 9591 §5.1, `commit`): each signer draws a pair of nonces and
//! publishes their commitments.

use alloc::vec::Vec;
use core::fmt;

use frost_core::round1 as fr1;
use rand_core::CryptoRngCore;
use zeroize::ZeroizeOnDrop;

use super::ciphersuite::{frame, open, put_component, read_component, with_suite, ByCurve, Family, Suite};
use super::keys::Hex;
use super::share::KeyShare;
use super::{Curve, Error, KeyEpoch};
use crate::PartyId;

/// Magic of an encoded [`SigningCommitments`].
pub(super) const MAGIC_SIGNING_COMMITMENTS: &[u8; 4] = b"LNC1";

pub(crate) struct NoncesF;
impl Family for NoncesF {
    type Of<C: Suite> = fr1::SigningNonces<C>;
}

pub(crate) struct CommitmentsF;
impl Family for CommitmentsF {
    type Of<C: Suite> = fr1::SigningCommitments<C>;
}

/// A signer's secret nonces for one signing session (RFC 9591 §5.1: `hiding_nonce`,
/// `binding_nonce`), kept between round 1 and round 2.
///
/// # Security
/// Never sent, never stored, used once: signing (a [`super::SignerParty`] given the signing
/// package) consumes them, so a nonce cannot sign twice (reuse would reveal the signing
/// share). There is no `Clone`; they are wiped on drop and `Debug` is redacted.
pub struct SigningNonces {
    party: PartyId,
    epoch: KeyEpoch,
    pub(crate) inner: ByCurve<NoncesF>,
}

impl ZeroizeOnDrop for SigningNonces {}

impl fmt::Debug for SigningNonces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningNonces")
            .field("party", &self.party)
            .field("curve", &self.inner.curve())
            .field("nonces", &"<redacted>")
            .finish()
    }
}

impl SigningNonces {
    /// The signer these nonces belong to.
    pub fn party(&self) -> PartyId {
        self.party
    }

    /// The epoch of the key share that made them.
    pub fn epoch(&self) -> KeyEpoch {
        self.epoch
    }

    /// The curve.
    pub fn curve(&self) -> Curve {
        self.inner.curve()
    }
}

/// A signer's round-1 message: the commitments `(D_i, E_i)` to its two nonces, with the
/// signer's id and the epoch of its key share.
///
/// Sent by each signer to the coordinator over an authenticated channel; the coordinator
/// collects them into a [`SigningPackage`](super::SigningPackage), keyed by the
/// transport-authenticated sender.
#[derive(Clone, PartialEq)]
pub struct SigningCommitments {
    from: PartyId,
    epoch: KeyEpoch,
    pub(crate) inner: ByCurve<CommitmentsF>,
}

impl fmt::Debug for SigningCommitments {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningCommitments")
            .field("from", &self.from)
            .field("curve", &self.curve())
            .field("epoch", &self.epoch)
            .field("bytes", &Hex(&self.to_bytes()))
            .finish()
    }
}

impl SigningCommitments {
    pub(crate) fn new<C: Suite>(
        from: PartyId,
        epoch: KeyEpoch,
        commitments: fr1::SigningCommitments<C>,
    ) -> Self {
        SigningCommitments {
            from,
            epoch,
            inner: C::wrap(commitments),
        }
    }

    /// The signer, as the message claims (checked against the transport's sender).
    pub fn from(&self) -> PartyId {
        self.from
    }

    /// The epoch of the signer's key share.
    pub fn epoch(&self) -> KeyEpoch {
        self.epoch
    }

    /// The curve.
    pub fn curve(&self) -> Curve {
        self.inner.curve()
    }

    /// Encodes: `LNC1` ‖ u16 1 ‖ curve ‖ epoch (u64 ‖ 32 B) ‖ u16 from ‖ u32 len ‖ frost
    /// `SigningCommitments`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = frame(MAGIC_SIGNING_COMMITMENTS, self.curve());
        self.epoch.write(&mut w);
        self.from.write(&mut w);
        with_suite!(self.curve(), C => {
            if let Ok(c) = self.inner.get::<C>() {
                put_component(&mut w, &c.serialize().unwrap_or_default());
            }
        });
        w.into_bytes()
    }

    /// Decodes a round-1 message of the expected curve.
    ///
    /// # Errors
    /// [`Error::Decode`] (truncation, trailing bytes, bad header, a malformed or identity
    /// commitment), [`Error::WrongCurve`].
    pub fn from_bytes(curve: Curve, bytes: &[u8]) -> Result<SigningCommitments, Error> {
        with_suite!(curve, C => {
            let mut r = open(MAGIC_SIGNING_COMMITMENTS, C::CURVE, bytes)?;
            let epoch = KeyEpoch::read(&mut r)?;
            let from = PartyId::read(&mut r)?;
            let c = read_component(
                &mut r,
                |b| fr1::SigningCommitments::<C>::deserialize(b).ok(),
                |v| v.serialize().ok(),
            )?;
            r.finish()?;
            Ok(SigningCommitments::new::<C>(from, epoch, c))
        })
    }
}

/// Round 1 (RFC 9591 §5.1): draws fresh nonces for `key_share`'s party and commits to
/// them.
///
/// Keep the [`SigningNonces`] for round 2; send the [`SigningCommitments`] to the
/// coordinator.
///
/// # Security
/// The nonces mix 32 bytes from `rng` with the signing share (RFC 9591 `nonce_generate`),
/// so a weak `rng` alone does not repeat nonces; `rng` must still be a CSPRNG.
pub(super) fn commit<R: CryptoRngCore + ?Sized>(
    key_share: &KeyShare,
    rng: &mut R,
) -> (SigningNonces, SigningCommitments) {
    fn go<C: Suite, R: CryptoRngCore + ?Sized>(
        kp: &frost_core::keys::KeyPackage<C>,
        party: PartyId,
        epoch: KeyEpoch,
        rng: &mut R,
    ) -> (SigningNonces, SigningCommitments) {
        let (nonces, commitments) = fr1::commit::<C, _>(kp.signing_share(), &mut &mut *rng);
        // Public: the commitments D_i, E_i are sent (both copies, the one inside the nonces
        // is compared with the coordinator's package in round 2).
        let commitments = crate::ct::public(commitments);
        let nonces = crate::ct::public_part(nonces, |n| n.commitments());
        (
            SigningNonces {
                party,
                epoch,
                inner: C::wrap(nonces),
            },
            SigningCommitments::new::<C>(party, epoch, commitments),
        )
    }
    let (party, epoch) = (key_share.party(), key_share.epoch());
    match &key_share.inner {
        #[cfg(feature = "ed25519")]
        ByCurve::Ed25519(kp) => go(kp, party, epoch, rng),
        #[cfg(feature = "secp256k1")]
        ByCurve::Secp256k1(kp) => go(kp, party, epoch, rng),
        #[cfg(feature = "ristretto255")]
        ByCurve::Ristretto255(kp) => go(kp, party, epoch, rng),
    }
}
