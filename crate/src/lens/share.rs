//! A party's [`KeyShare`]: its frost key package for one [`super::KeyEpoch`], with the
//! group's public key package.

use alloc::vec::Vec;
use core::fmt;

use frost_core::keys as fk;
use zeroize::{ZeroizeOnDrop, Zeroizing};

use super::ciphersuite::{element_bytes, ident, with_suite, ByCurve, Family, Suite, MAX_COMPONENT};
use super::dealer::DealerShare;
use super::keys::{PublicKeyPackage, KEY_SHARE_VERSION, MAGIC_KEY_SHARE};
use super::{Curve, Error, KeyEpoch};
use crate::wire;
use crate::PartyId;

pub(crate) struct KeyPackageF;
impl Family for KeyPackageF {
    type Of<C: Suite> = fk::KeyPackage<C>;
}

/// One party's share of the group key, for one [`KeyEpoch`], with the group's
/// [`PublicKeyPackage`].
///
/// # Security
/// Holds the party's secret signing share. Never send it; store it only encrypted (the
/// bytes of [`KeyShare::to_bytes`] are secret). It is wiped from memory when dropped and
/// its `Debug` output is redacted.
pub struct KeyShare {
    party: PartyId,
    pub(crate) inner: ByCurve<KeyPackageF>,
    public: PublicKeyPackage,
}

// The frost `KeyPackage` inside zeroizes its signing share on drop; nothing else here is
// secret.
impl ZeroizeOnDrop for KeyShare {}

impl fmt::Debug for KeyShare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyShare")
            .field("party", &self.party)
            .field("curve", &self.curve())
            .field("epoch", &self.public.epoch)
            .field("signing_share", &"<redacted>")
            .finish()
    }
}

impl KeyShare {
    /// A second copy (for a party that keeps the share across rounds).
    ///
    /// # Security
    /// Both copies hold the secret and are wiped when dropped.
    pub(crate) fn duplicate(&self) -> KeyShare {
        KeyShare {
            party: self.party,
            inner: self.inner.clone(),
            public: self.public.clone(),
        }
    }

    /// Builds and validates a key share: the frost key package must belong to `party`,
    /// match the public package, and its signing share must match its verifying share.
    pub(crate) fn from_parts<C: Suite>(
        party: PartyId,
        key_package: fk::KeyPackage<C>,
        public: PublicKeyPackage,
    ) -> Result<KeyShare, Error> {
        let bad = |what| Error::Decode(wire::Error::InvalidValue(what));
        if !public.contains(party) {
            return Err(Error::UnknownParty { party });
        }
        let st = public.state::<C>()?;
        let id = ident::<C>(party)?;
        if *key_package.identifier() != id {
            return Err(bad("key package identifier"));
        }
        if *key_package.min_signers() != public.threshold {
            return Err(bad("key package threshold"));
        }
        if key_package.verifying_key() != st.frost.verifying_key() {
            return Err(bad("key package group key"));
        }
        if Some(key_package.verifying_share()) != st.frost.verifying_shares().get(&id) {
            return Err(bad("key package verifying share"));
        }
        // Public: s_i·G is this party's verifying share, published in the key package.
        let derived = crate::ct::public(fk::VerifyingShare::<C>::from(*key_package.signing_share()));
        if derived != *key_package.verifying_share() {
            return Err(bad("signing share does not match its verifying share"));
        }
        Ok(KeyShare {
            party,
            inner: C::wrap(key_package),
            public,
        })
    }

    /// Accepts the share a trusted dealer sent (RFC 9591 Appendix C.2 `vss_verify`): checks
    /// it against the dealer's commitment and that the commitment is the one in the
    /// broadcast public key package, so every party has the same view.
    ///
    /// # Errors
    /// [`Error::WrongCurve`], [`Error::EpochMismatch`], [`Error::UnknownParty`],
    /// [`Error::InvalidSecretShare`] (with no culprit: the dealer is at fault) when the
    /// share or the commitment does not match.
    pub fn from_dealer(share: DealerShare, public: &PublicKeyPackage) -> Result<KeyShare, Error> {
        if share.curve() != public.curve() {
            return Err(Error::WrongCurve {
                expected: public.curve(),
                found: share.curve(),
            });
        }
        if share.epoch != public.epoch {
            return Err(Error::EpochMismatch {
                party: None,
                expected: public.epoch,
                found: share.epoch,
            });
        }
        let to = share.to;
        with_suite!(public.curve(), C => {
            let ss = share.inner.get::<C>()?;
            if *ss.identifier() != ident::<C>(to)? {
                return Err(Error::InvalidSecretShare { culprit: None });
            }
            let expected = &public.state::<C>()?.commitment;
            let theirs = ss.commitment().serialize().map_err(|_| Error::InvalidSecretShare { culprit: None })?;
            let ours: Vec<Vec<u8>> = expected.iter().map(element_bytes::<C>).collect::<Result<_, _>>()?;
            if theirs != ours {
                return Err(Error::InvalidSecretShare { culprit: None });
            }
            let kp = fk::KeyPackage::<C>::try_from(ss.clone())
                .map_err(|_| Error::InvalidSecretShare { culprit: None })?;
            KeyShare::from_parts::<C>(to, kp, public.clone())
        })
    }

    pub(crate) fn key_package<C: Suite>(&self) -> Result<&fk::KeyPackage<C>, Error> {
        self.inner.get::<C>()
    }

    /// This share's party.
    pub fn party(&self) -> PartyId {
        self.party
    }

    /// The curve.
    pub fn curve(&self) -> Curve {
        self.inner.curve()
    }

    /// The epoch of this share.
    pub fn epoch(&self) -> KeyEpoch {
        self.public.epoch
    }

    /// The threshold.
    pub fn threshold(&self) -> u16 {
        self.public.threshold
    }

    /// The group's public key package.
    pub fn public(&self) -> &PublicKeyPackage {
        &self.public
    }

    /// The group key bytes (see [`PublicKeyPackage::group_key_bytes`]).
    pub fn group_key_bytes(&self) -> Vec<u8> {
        self.public.group_key_bytes()
    }

    /// Encodes for storage: `LNKS` ‖ u16 version 2 ‖ curve ‖ u16 party ‖ signing share
    /// (32-byte scalar) ‖ u32 length ‖ [`PublicKeyPackage`] bytes. (Version 2 writes the
    /// scalar itself instead of frost's serialization of the key package, whose growing
    /// buffer left copies of the share in freed memory; the verifying share, group key
    /// and threshold come from the package.)
    ///
    /// # Security
    /// The output contains the secret signing share: encrypt it at rest (the LSS
    /// snapshot store does) and never send it. It is written into one buffer of the
    /// right size, wiped when dropped.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        let public = self.public.to_bytes();
        let mut w = wire::Writer::with_capacity(6 + 1 + 2 + 32 + 4 + public.len());
        w.put(MAGIC_KEY_SHARE)
            .u16(KEY_SHARE_VERSION)
            .u8(self.curve().to_byte());
        self.party.write(&mut w);
        with_suite!(self.curve(), C => {
            if let Ok(kp) = self.key_package::<C>() {
                let share = Zeroizing::new(kp.signing_share().serialize());
                w.put(&share);
            }
        });
        w.bytes(&public);
        w.into_secret()
    }

    /// Decodes a stored share of the expected curve and checks it (see
    /// [`PublicKeyPackage::from_bytes`] for the public part; the signing share must match
    /// this party's verifying share in it).
    ///
    /// # Errors
    /// [`Error::Decode`], [`Error::WrongCurve`], [`Error::UnknownParty`], and the errors of
    /// [`PublicKeyPackage::from_bytes`].
    pub fn from_bytes(curve: Curve, bytes: &[u8]) -> Result<KeyShare, Error> {
        with_suite!(curve, C => {
            let mut r = wire::Reader::new(bytes);
            r.header(MAGIC_KEY_SHARE, KEY_SHARE_VERSION)?;
            let found = Curve::from_byte(r.u8()?)?;
            if found != C::CURVE {
                return Err(Error::WrongCurve { expected: C::CURVE, found });
            }
            let party = PartyId::read(&mut r)?;
            // Through the kernel's decoder: frost's branches on the secret scalar's validity.
            let share = fk::SigningShare::<C>::new(crate::vss::group::read_scalar::<<C as Suite>::Vss>(&mut r)?);
            let public = PublicKeyPackage::from_bytes(C::CURVE, r.bytes(MAX_COMPONENT)?)?;
            r.finish()?;
            let id = ident::<C>(party)?;
            let st = public.state::<C>()?;
            let verifying_share = *st
                .frost
                .verifying_shares()
                .get(&id)
                .ok_or(Error::UnknownParty { party })?;
            let kp = fk::KeyPackage::new(id, share, verifying_share, *st.frost.verifying_key(), public.threshold());
            KeyShare::from_parts::<C>(party, kp, public)
        })
    }
}
