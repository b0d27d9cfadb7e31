//! The devnet's Pulsar committee ([`crate::pulsar::committee`]): the first
//! [`COMMITTEE_MAX`] validators of a set generate a key with the distributed key generation
//! (nobody, the devnet included, ever holds it) and any T of them sign the Pulsar leg. This
//! file only routes: the rounds are the committee's own parties, run on the simulator.
//!
//! A committee key is never reshared (the committee module docs say why): when the
//! committee's members change at an epoch change, the next set gets a new committee with a
//! new key, and the key era moves on.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use super::group::session_id;
use crate::mldsa::Mode;
use crate::party::sim::{party_rng, Network};
use crate::pulsar::committee::{self, CommitteeKey, Dkg, DkgParams, KeyShare, SignParams, Signer};
use crate::pulsar::frame::{GroupKeyFrame, SignatureFrame};
use crate::{Error, PartyId};

/// The first element of the committee's session ids.
const SESSION: &[u8] = b"devnet committee session";

/// The most members a devnet committee has: the scheme's bound.
pub const COMMITTEE_MAX: usize = committee::MAX_PARTIES;

/// A committee's threshold: ⌊2N/3⌋ + 1 of its N members.
pub(crate) fn threshold(members: usize) -> usize {
    super::two_thirds_plus_one(members)
}

/// A committee: its key, and each member's share (held by the devnet's simulated members;
/// no one of them determines the key).
#[derive(Clone)]
pub(crate) struct Group {
    pub(crate) key: CommitteeKey,
    pub(crate) shares: BTreeMap<PartyId, KeyShare>,
}

impl Group {
    /// The members, increasing.
    pub(crate) fn members(&self) -> &[PartyId] {
        self.key.members()
    }

    /// The committee's `PULG` frame (the plain ML-DSA public key).
    pub(crate) fn frame(&self) -> Result<Vec<u8>, Error> {
        Ok(GroupKeyFrame::encode(self.key.mode(), self.key.public_key())?)
    }
}

/// The committee of `members` (at most [`COMMITTEE_MAX`]) from a distributed key generation.
pub(crate) fn keygen(label: &[u8], mode: Mode, members: &[PartyId]) -> Result<Group, Error> {
    let params = DkgParams::new(
        session_id(SESSION, label),
        mode,
        threshold(members.len()),
        members,
    )?;
    let mut net = Network::new();
    for &p in members {
        let (dkg, first) = Dkg::start(p, &params, &mut party_rng(label, p))?;
        net.add(dkg, first);
    }
    let mut key = None;
    let mut shares = BTreeMap::new();
    for (p, keyed) in net.run() {
        let keyed = keyed?;
        key = Some(keyed.key);
        shares.insert(p, keyed.share);
    }
    let key = key.ok_or(Error::Committee(committee::Error::InvalidCommittee(
        "a committee without members",
    )))?;
    Ok(Group { key, shares })
}

/// The first T of `signers` who are members sign `message` with context `ctx`: the `PULS`
/// frame of the plain ML-DSA signature every signer combined and verified.
pub(crate) fn sign(
    label: &[u8],
    group: &Group,
    signers: &[PartyId],
    message: &[u8],
    ctx: &[u8],
) -> Result<Vec<u8>, Error> {
    let t = group.key.threshold();
    let chosen: Vec<PartyId> = signers
        .iter()
        .copied()
        .filter(|p| group.shares.contains_key(p))
        .take(t)
        .collect();
    let params = SignParams::new(session_id(SESSION, label), &chosen, message, ctx)?;
    let mut net = Network::new();
    for p in &chosen {
        let share = group
            .shares
            .get(p)
            .ok_or(Error::Committee(committee::Error::UnknownParty { party: *p }))?;
        let (signer, first) = Signer::start(share, &params, &mut party_rng(label, *p))?;
        net.add(signer, first);
    }
    let mut signature = None;
    for (_, signed) in net.run() {
        signature = Some(signed?.signature);
    }
    let signature = signature.ok_or(Error::Committee(committee::Error::WrongSignerCount {
        needed: t,
        got: 0,
    }))?;
    Ok(SignatureFrame::encode(group.key.mode(), &signature)?)
}
