//! A Lens key share in a [`Keyring`](crate::party::keyring::Keyring).

use super::super::{verify_activation, KeyShare, PublicKeyPackage};
use crate::lss::ActivationCertificate;
use crate::party::keyring::Custody;
use crate::PartyId;

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
