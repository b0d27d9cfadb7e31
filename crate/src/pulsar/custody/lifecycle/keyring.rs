//! A custody share in a [`Keyring`](crate::party::keyring::Keyring): what a refresh or
//! reshare leaves pending, and how its activation certificate promotes it.

use alloc::vec::Vec;

use zeroize::Zeroizing;

use crate::keystore::Storable;
use crate::lss::{self, ActivationCertificate, GroupPublic};
use crate::party::keyring::Custody;
use crate::pulsar::custody::{GroupKey, KeyShare};
use crate::pulsar::Error;
use crate::vss::Ristretto255 as R;
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// Longest component of a stored pending generation (a share, a sharing, a key record).
const MAX_STORED_COMPONENT: usize = 1 << 24;

/// A generation of the group's sharing dealt to a member but not yet activated: its new
/// LSS share (none for a member leaving the group), the new generation's public data and
/// the group key record of the generation it replaces.
///
/// # Security
/// Holds the new share: wiped on drop.
#[derive(Debug)]
pub struct Pending {
    pub(crate) share: Option<lss::KeyShare<R>>,
    pub(crate) public: GroupPublic<R>,
    pub(crate) group_key: GroupKey,
}

impl Pending {
    /// The pending generation a refresh or reshare left `share`'s owner: its new share
    /// (`None` for a member leaving the group) and the new generation's `public` data, for
    /// the group whose current key record is `group_key` (for hosts that run the
    /// single-protocol [`crate::lss::DealingParty`] themselves; the lifecycle's reshare path
    /// stages it on its own).
    pub fn new(share: Option<lss::KeyShare<R>>, public: GroupPublic<R>, group_key: GroupKey) -> Pending {
        Pending {
            share,
            public,
            group_key,
        }
    }

    /// The new generation's public data.
    pub fn public(&self) -> &GroupPublic<R> {
        &self.public
    }

    /// Whether the member holds a share of the new generation.
    pub fn is_member(&self) -> bool {
        self.share.is_some()
    }
}

impl Custody for KeyShare {
    type Pending = Pending;
    type Certificate = ActivationCertificate;

    fn owner(&self) -> PartyId {
        self.id()
    }

    fn generation(&self) -> u64 {
        KeyShare::generation(self)
    }

    fn pending_generation(pending: &Pending) -> u64 {
        pending.public.generation()
    }

    /// The certificate must bind the group key to the pending generation's own public
    /// data (at least `t_new` valid possession proofs of its members), and that
    /// generation must follow the key record's.
    fn activate(
        pending: Pending,
        certificate: &ActivationCertificate,
    ) -> Result<Option<KeyShare>, (Pending, crate::Error)> {
        if pending.public.generation() <= pending.group_key.generation() {
            let e = Error::GenerationMismatch {
                expected: pending.group_key.generation() + 1,
                got: pending.public.generation(),
            };
            return Err((pending, e.into()));
        }
        if pending
            .share
            .as_ref()
            .is_some_and(|s| s.public() != &pending.public)
        {
            return Err((pending, Error::GroupMismatch.into()));
        }
        let key = match pending
            .group_key
            .reactivated(&pending.public, certificate.clone())
        {
            Ok(key) => key,
            Err(e) => return Err((pending, e.into())),
        };
        // The share is of `public`, for which `key` was just certified.
        Ok(pending.share.map(|share| KeyShare {
            share,
            group_key: key,
        }))
    }
}

/// A custody keyring at rest: the current share as `PCKS`; a pending generation as u8
/// flag ‖ (u32 length ‖ the new `LSS` share, if the flag is 1) ‖ u32 length ‖ the new
/// sharing (`LSG1`) ‖ u32 length ‖ the key record it replaces (`PCGK`).
impl Storable for KeyShare {
    fn share_to_bytes(&self) -> Zeroizing<Vec<u8>> {
        self.to_bytes()
    }

    fn share_from_bytes(bytes: &[u8]) -> Result<Self, crate::Error> {
        Ok(KeyShare::from_bytes(bytes)?)
    }

    fn pending_to_bytes(pending: &Pending) -> Zeroizing<Vec<u8>> {
        let mut w = Writer::new();
        match &pending.share {
            Some(share) => {
                let inner = share.to_bytes();
                w.u8(1).bytes(&inner);
            }
            None => {
                w.u8(0);
            }
        }
        w.bytes(&pending.public.to_bytes())
            .bytes(&pending.group_key.to_bytes());
        w.into_secret()
    }

    fn pending_from_bytes(bytes: &[u8]) -> Result<Pending, crate::Error> {
        let mut r = Reader::new(bytes);
        let share = match r.u8()? {
            0 => None,
            1 => Some(lss::KeyShare::<R>::from_bytes(r.bytes(MAX_STORED_COMPONENT)?)?),
            _ => return Err(wire::Error::InvalidValue("share flag").into()),
        };
        let public = GroupPublic::<R>::from_bytes(r.bytes(MAX_STORED_COMPONENT)?)?;
        let group_key = GroupKey::from_stored(r.bytes(MAX_STORED_COMPONENT)?)?;
        r.finish()?;
        if share.as_ref().is_some_and(|s| s.public() != &public) {
            return Err(Error::GroupMismatch.into());
        }
        Ok(Pending {
            share,
            public,
            group_key,
        })
    }
}
