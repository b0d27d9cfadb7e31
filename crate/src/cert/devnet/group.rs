//! Which group signs the devnet's Pulsar leg, and how it moves to the next set: a custody
//! group (every validator; reshared under the same key) or a committee (the first
//! [`COMMITTEE_MAX`] validators; a changed committee is a new key in the next key era). The
//! rounds are the library's parties, run in `pulsar` and `committee`.

use alloc::boxed::Box;
use alloc::vec::Vec;

use super::{committee, pulsar, too_many, two_thirds_plus_one, Devnet, COMMITTEE_MAX};
use crate::{mldsa, Error, PartyId};

/// Who signs a devnet's Pulsar leg. Either way the leg is one plain ML-DSA signature under the
/// set's Pulsar key, and the verifier is the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PulsarSigning {
    /// A custody group of all n validators, threshold ⌊2n/3⌋ + 1 ([`crate::pulsar::custody`]):
    /// the combiner rebuilds the key while it signs. Reshared to the next set under the same
    /// key at an epoch change.
    #[default]
    Custody,
    /// A committee of the set's first min(n, [`COMMITTEE_MAX`]) validators (set order),
    /// threshold ⌊2N/3⌋ + 1 of its N members ([`crate::pulsar::committee`]): the key comes from
    /// a distributed key generation and no machine ever holds it, not even while signing. A
    /// committee key is never reshared: when an epoch change alters the committee, the next
    /// set gets a new committee key in the next key era.
    Committee,
}

impl PulsarSigning {
    /// Its name: `custody` or `committee`.
    pub fn name(self) -> &'static str {
        match self {
            PulsarSigning::Custody => "custody",
            PulsarSigning::Committee => "committee",
        }
    }

    /// The signing of a name ([`PulsarSigning::name`]).
    pub fn from_name(name: &str) -> Option<PulsarSigning> {
        match name {
            "custody" => Some(PulsarSigning::Custody),
            "committee" => Some(PulsarSigning::Committee),
            _ => None,
        }
    }
}

/// The current set's Pulsar group.
pub(super) enum PulsarGroup {
    Custody(Box<pulsar::Group>),
    Committee(committee::Group),
}

impl PulsarGroup {
    pub(super) fn threshold(&self) -> usize {
        match self {
            PulsarGroup::Custody(g) => usize::from(g.public.threshold()),
            PulsarGroup::Committee(c) => c.key.threshold(),
        }
    }

    pub(super) fn frame(&self) -> Result<Vec<u8>, Error> {
        match self {
            PulsarGroup::Custody(g) => Ok(g.key.frame()),
            PulsarGroup::Committee(c) => c.frame(),
        }
    }
}

/// A session id of the devnet's own runs: `kind` names the group's protocol, `label` the call.
pub(super) fn session_id(kind: &[u8], label: &[u8]) -> [u8; 32] {
    let mut t = crate::hash::Transcript::new(crate::hash::tags::SIM_RNG);
    t.append(kind).append(label);
    t.finalize()
}

/// A custody group's threshold among `members`: ⌊2n/3⌋ + 1.
fn custody_threshold(members: &[PartyId]) -> Result<u16, Error> {
    u16::try_from(two_thirds_plus_one(members.len())).map_err(|_| too_many())
}

impl Devnet {
    /// A new Pulsar group among the validators `numbers` (set order) from a key generation:
    /// a custody group of all, or a committee of the first [`COMMITTEE_MAX`].
    pub(super) fn new_group(&mut self, mode: mldsa::Mode, numbers: &[u16]) -> Result<PulsarGroup, Error> {
        let label = self.label("key ceremony");
        Ok(match self.config.pulsar_signing {
            PulsarSigning::Custody => {
                let ids = self.party_ids(numbers)?;
                let t = custody_threshold(&ids)?;
                PulsarGroup::Custody(Box::new(pulsar::ceremony(&label, mode, &ids, t)?))
            }
            PulsarSigning::Committee => {
                let ids = self.committee_of(numbers)?;
                PulsarGroup::Committee(committee::keygen(&label, mode, &ids)?)
            }
        })
    }

    /// The committee of the validators `numbers` (set order): the first
    /// [`COMMITTEE_MAX`], as increasing party ids.
    fn committee_of(&self, numbers: &[u16]) -> Result<Vec<PartyId>, Error> {
        let first = &numbers[..numbers.len().min(COMMITTEE_MAX)];
        self.party_ids(first)
    }

    /// The next set's group (validators `next`, set order) and whether it has a new key: a new
    /// key ceremony when `new_key` or the committee changed; else the custody group reshared,
    /// or the same committee.
    pub(super) fn next_group(
        &mut self,
        next: &[u16],
        new_key: bool,
    ) -> Result<(Option<PulsarGroup>, bool), Error> {
        let new_committee = match &self.pulsar {
            Some(PulsarGroup::Committee(c)) => self.committee_of(next)? != c.members(),
            _ => false,
        };
        let new_key = new_key || new_committee;
        let group = match (self.pulsar.is_some(), self.config.pulsar) {
            (true, Some(mode)) if new_key => Some(self.new_group(mode, next)?),
            (true, Some(_)) => {
                let label = self.label("reshare");
                match &self.pulsar {
                    Some(PulsarGroup::Custody(group)) => {
                        let ids = self.party_ids(next)?;
                        let t = custody_threshold(&ids)?;
                        Some(PulsarGroup::Custody(Box::new(pulsar::reshare(
                            &label, group, &ids, t,
                        )?)))
                    }
                    // The same committee keeps its key.
                    Some(PulsarGroup::Committee(c)) => Some(PulsarGroup::Committee(c.clone())),
                    None => None,
                }
            }
            _ => None,
        };
        Ok((group, new_key))
    }
}
