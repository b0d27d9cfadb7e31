//! A Lens key share in a [`Keyring`](crate::party::keyring::Keyring).

use alloc::vec::Vec;

use zeroize::Zeroizing;

use super::super::{verify_activation, Curve, KeyShare, PublicKeyPackage};
use crate::keystore::Storable;
use crate::lss::ActivationCertificate;
use crate::party::keyring::Custody;
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// Longest component of a stored entry (a share, a public key package).
const MAX_STORED_COMPONENT: usize = 1 << 24;

/// A generation of a Lens key dealt to a member but not yet activated: its new share
/// (none for a member leaving the group) and the new generation's public key package.
///
/// # Security
/// Holds the new share: wiped on drop.
#[derive(Debug)]
pub struct Pending {
    share: Option<KeyShare>,
    public: PublicKeyPackage,
}

impl Pending {
    /// The pending generation a refresh or reshare left a member (for hosts that run
    /// [`super::super::DealingParty`] themselves; the lifecycle stages it on its own).
    pub fn new(share: Option<KeyShare>, public: PublicKeyPackage) -> Pending {
        Pending { share, public }
    }

    /// The new generation's public key package.
    pub fn public(&self) -> &PublicKeyPackage {
        &self.public
    }
}

impl Custody for KeyShare {
    type Pending = Pending;
    type Certificate = ActivationCertificate;

    fn owner(&self) -> PartyId {
        self.party()
    }

    fn generation(&self) -> u64 {
        self.epoch().generation
    }

    fn pending_generation(pending: &Pending) -> u64 {
        pending.public.epoch().generation
    }

    /// The certificate must activate the pending package's own epoch for its group key.
    fn activate(
        pending: Pending,
        certificate: &ActivationCertificate,
    ) -> Result<Option<KeyShare>, (Pending, crate::Error)> {
        let epoch = pending.public.epoch();
        if pending.share.as_ref().is_some_and(|s| s.epoch() != epoch) {
            let e = super::super::Error::EpochMismatch {
                party: None,
                expected: epoch,
                found: pending.share.as_ref().map_or(epoch, KeyShare::epoch),
            };
            return Err((pending, e.into()));
        }
        match verify_activation(&pending.public, epoch.generation, &epoch.transcript, certificate) {
            Ok(()) => Ok(pending.share),
            Err(e) => Err((pending, e.into())),
        }
    }
}

/// A Lens keyring at rest: u8 curve ‖ the current share (`LNKS`); a pending generation as
/// u8 curve ‖ u8 flag ‖ (u32 length ‖ the new share, if the flag is 1) ‖ u32 length ‖ the
/// new public key package.
impl Storable for KeyShare {
    fn share_to_bytes(&self) -> Zeroizing<Vec<u8>> {
        let inner = self.to_bytes();
        let mut w = Writer::with_capacity(1 + inner.len());
        w.u8(self.curve().to_byte()).put(&inner);
        w.into_secret()
    }

    fn share_from_bytes(bytes: &[u8]) -> Result<Self, crate::Error> {
        let (&curve, rest) = bytes
            .split_first()
            .ok_or(wire::Error::TooShort { needed: 1, got: 0 })?;
        Ok(KeyShare::from_bytes(Curve::from_byte(curve)?, rest)?)
    }

    fn pending_to_bytes(pending: &Pending) -> Zeroizing<Vec<u8>> {
        let mut w = Writer::new();
        w.u8(pending.public.curve().to_byte());
        match &pending.share {
            Some(share) => {
                let inner = share.to_bytes();
                w.u8(1).bytes(&inner);
            }
            None => {
                w.u8(0);
            }
        }
        w.bytes(&pending.public.to_bytes());
        w.into_secret()
    }

    fn pending_from_bytes(bytes: &[u8]) -> Result<Pending, crate::Error> {
        let mut r = Reader::new(bytes);
        let curve = Curve::from_byte(r.u8()?)?;
        let share = match r.u8()? {
            0 => None,
            1 => Some(KeyShare::from_bytes(curve, r.bytes(MAX_STORED_COMPONENT)?)?),
            _ => return Err(wire::Error::InvalidValue("share flag").into()),
        };
        let public = PublicKeyPackage::from_bytes(curve, r.bytes(MAX_STORED_COMPONENT)?)?;
        r.finish()?;
        Ok(Pending { share, public })
    }
}
