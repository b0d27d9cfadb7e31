//! A custody share in a [`Keyring`](crate::party::keyring::Keyring): what a refresh or
//! reshare leaves pending, and how its activation certificate promotes it.

use crate::lss::{self, ActivationCertificate, GroupPublic};
use crate::party::keyring::Custody;
use crate::pulsar::custody::{GroupKey, KeyShare};
use crate::pulsar::Error;
use crate::vss::Ristretto255 as R;
use crate::PartyId;

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
