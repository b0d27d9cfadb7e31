//! The devnet's Corona group ([`crate::corona`]): the first [`CORONA_GROUP_MAX`] validators of
//! a set hold shares of a key a trusted dealer made ([`crate::corona::deal`], the scheme's one
//! key generation; here the devnet is that dealer, so a devnet Corona key is never one anyone
//! relies on), and any ⌊2m/3⌋ + 1 of the m members sign the Corona leg through the library's
//! `Signer` parties on the simulator. This file only routes bytes.
//!
//! A Corona key is never reshared: when an epoch change alters the group's members, the next
//! set gets a newly dealt key, in the next key era.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use super::group::session_id;
use super::two_thirds_plus_one;
use crate::corona::{self, GroupKey, KeyShare, SignParams, Signer};
use crate::party::sim::{party_rng, Network};
use crate::{Error, PartyId};

/// The first element of the Corona sessions' ids.
const SESSION: &[u8] = b"devnet corona session";

/// The most members a devnet Corona group has: the set's first eight validators, so a
/// certificate costs about six signers' two rounds (a devnet's choice, not the scheme's
/// bound of 1024).
pub const CORONA_GROUP_MAX: usize = 8;

/// A dealt Corona group: its members (the validators' devnet numbers, set order), its key,
/// and each member's share under party id position + 1.
#[derive(Clone)]
pub(crate) struct Group {
    pub(crate) members: Vec<u16>,
    pub(crate) key: GroupKey,
    shares: BTreeMap<PartyId, KeyShare>,
}

impl Group {
    /// The threshold: ⌊2m/3⌋ + 1 of the m members.
    pub(crate) fn threshold(&self) -> usize {
        two_thirds_plus_one(self.members.len())
    }
}

/// The group of the validators `numbers` (set order): the first [`CORONA_GROUP_MAX`].
pub(crate) fn members_of(numbers: &[u16]) -> Vec<u16> {
    numbers[..numbers.len().min(CORONA_GROUP_MAX)].to_vec()
}

/// Deals a key to `members` (at least two) from the devnet's `label`.
pub(crate) fn deal(label: &[u8], members: Vec<u16>) -> Result<Group, Error> {
    let m = members.len();
    let t = two_thirds_plus_one(m).max(corona::MIN_THRESHOLD);
    let dealer = PartyId::new(1).ok_or(Error::Corona(corona::Error::InvalidThreshold { t, n: m }))?;
    let (key, shares) = corona::deal(t, m, &mut party_rng(label, dealer))?;
    let shares = shares.into_iter().map(|s| (s.id(), s)).collect();
    Ok(Group { members, key, shares })
}

/// The first `t` of the members at group positions `signers` sign `message` with context
/// `ctx`: the `CORS` frame every signer combined and verified.
pub(crate) fn sign(
    label: &[u8],
    group: &Group,
    signers: &[usize],
    message: &[u8],
    ctx: &[u8],
) -> Result<Vec<u8>, Error> {
    let t = group.threshold();
    let chosen: Vec<PartyId> = signers
        .iter()
        .filter_map(|&i| u16::try_from(i + 1).ok().and_then(PartyId::new))
        .filter(|p| group.shares.contains_key(p))
        .take(t)
        .collect();
    let params = SignParams::new(session_id(SESSION, label), &chosen, message, ctx)?;
    let mut net = Network::new();
    for p in &chosen {
        let share = group
            .shares
            .get(p)
            .ok_or(Error::Corona(corona::Error::UnknownParty { party: *p }))?;
        let (signer, first) = Signer::start(share, &params, &mut party_rng(label, *p))?;
        net.add(signer, first);
    }
    let mut signature = None;
    for (_, signed) in net.run() {
        signature = Some(signed?.signature);
    }
    signature.ok_or(Error::Corona(corona::Error::WrongSignerCount {
        min: t,
        max: group.members.len(),
        got: 0,
    }))
}
