//! The devnet's Pulsar custody group, run through the library's lifecycle parties on the
//! simulator: setup (DKG → key ceremony → key certification), signing, and resharing to
//! the next epoch's validators under the unchanged key. This file only routes: every
//! ceremony is [`crate::pulsar::custody::lifecycle`]'s.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use super::group::session_id;
use crate::lss::GroupPublic;
use crate::mldsa::Mode;
use crate::party::keyring::Keyring;
use crate::party::sim::{map_output, party_rng, Network};
use crate::pulsar::custody::lifecycle::{Combiner, Member, Outcome, ReshareParams, SetupParams, SignParams};
use crate::pulsar::custody::{CombinerKey, GroupKey, KeyShare};
use crate::vss::Ristretto255;
use crate::{Error, PartyId};

/// The first element of the custody group's session ids.
const SESSION: &[u8] = b"devnet session";

type R = Ristretto255;

/// The combiner's party id (validators are numbered from 1).
const COMBINER: u16 = u16::MAX;

/// A failure of the devnet's own honest run.
fn broken(what: &'static str) -> Error {
    Error::Wire(crate::wire::Error::InvalidValue(what))
}

/// A certified Pulsar custody group: the sharing's public data, the group key and every
/// member's keyring.
pub(crate) struct Group {
    pub(crate) public: GroupPublic<R>,
    pub(crate) key: GroupKey,
    pub(crate) keyrings: BTreeMap<PartyId, Keyring<KeyShare>>,
}

fn combiner() -> Result<PartyId, Error> {
    PartyId::new(COMBINER).ok_or(broken("combiner id"))
}

/// Runs a network to the end; every party must succeed.
fn run(net: Network<Outcome>) -> Result<BTreeMap<PartyId, Outcome>, Error> {
    net.run().into_iter().map(|(p, o)| Ok((p, o?))).collect()
}

/// The setup path among `members` with threshold `t`; the first `t` derive the key.
pub(crate) fn ceremony(label: &[u8], mode: Mode, members: &[PartyId], t: u16) -> Result<Group, Error> {
    let c = combiner()?;
    let deriving: Vec<PartyId> = members.iter().take(usize::from(t)).copied().collect();
    let params = SetupParams::with_sessions(
        session_id(SESSION, &[label, b" dkg"].concat()),
        session_id(SESSION, &[label, b" ceremony"].concat()),
        mode,
        members,
        t,
        &deriving,
        c,
    )?;
    let mut net = Network::new();
    for &p in members {
        let (member, first) = Member::setup(p, &params, &mut party_rng(&[label, b" dkg"].concat(), p))?;
        net.add(map_output(member, Outcome::Member), first);
    }
    let (combiner, first) = Combiner::setup(&params, &mut party_rng(&[label, b" ceremony"].concat(), c));
    net.add(map_output(combiner, Outcome::Combiner), first);
    let mut record = None;
    let mut keyrings = BTreeMap::new();
    for (p, out) in run(net)? {
        match out {
            Outcome::Combiner(o) => record = o.into_certified(),
            Outcome::Member(o) => {
                let setup = o.into_setup().ok_or(broken("no setup"))?;
                keyrings.insert(p, Keyring::new(setup.key_share));
            }
        }
    }
    let record = record.ok_or(broken("no certified key"))?;
    Ok(Group {
        public: record.public,
        key: record.group_key,
        keyrings,
    })
}

/// Reshares `group` from all its members to `receivers` with threshold `t`: the same key,
/// the next generation, activated by the new members. `group` stays usable (the devnet
/// signs the epoch's last certificate with it): its members reshare copies of their
/// shares.
pub(crate) fn reshare(label: &[u8], group: &Group, receivers: &[PartyId], t: u16) -> Result<Group, Error> {
    let dealers: Vec<PartyId> = group.keyrings.keys().copied().collect();
    let params = ReshareParams::reshare(
        session_id(SESSION, label),
        &group.key,
        &group.public,
        &dealers,
        receivers,
        t,
    )?;
    let mut net = Network::new();
    for p in params.participants() {
        let mut keyring = match group.keyrings.get(&p).and_then(Keyring::current) {
            Some(share) => Keyring::new(share.duplicate()),
            None => Keyring::empty(),
        };
        let (member, first) = Member::reshare(p, &mut keyring, &params, &mut party_rng(label, p))?;
        net.add(map_output(member, Outcome::Member), first);
    }
    let mut public = None;
    let mut keyrings = BTreeMap::new();
    for (p, out) in run(net)? {
        let Outcome::Member(o) = out else { continue };
        let reshared = o.into_reshared().ok_or(broken("no reshare"))?;
        reshared.activated?;
        public = Some(reshared.public);
        if reshared.keyring.current().is_some() {
            keyrings.insert(p, reshared.keyring);
        }
    }
    let key = keyrings
        .values()
        .find_map(|k| k.current().map(|s| s.group_key().clone()))
        .ok_or(broken("no reshared share"))?;
    Ok(Group {
        public: public.ok_or(broken("no reshare"))?,
        key,
        keyrings,
    })
}

/// `signers` sign `message` with context `ctx` through the sign path: the `PULS` frame.
pub(crate) fn sign(
    label: &[u8],
    group: &Group,
    signers: &[PartyId],
    message: &[u8],
    ctx: &[u8],
) -> Result<Vec<u8>, Error> {
    let c = combiner()?;
    let params = SignParams::new(session_id(SESSION, label), signers, message, ctx, c)?;
    let key = CombinerKey::generate(c, &mut party_rng(&[label, b" combiner key"].concat(), c));
    let mut net = Network::new();
    let (combiner, first) =
        Combiner::sign_with_key(key, &params, &group.key, &group.public, &mut party_rng(label, c))?;
    net.add(map_output(combiner, Outcome::Combiner), first);
    for p in signers {
        let share = group
            .keyrings
            .get(p)
            .and_then(Keyring::current)
            .ok_or(broken("signer without a share"))?;
        let (member, first) = Member::sign(share, &params, &mut party_rng(label, *p))?;
        net.add(map_output(member, Outcome::Member), first);
    }
    let signed = run(net)?
        .remove(&c)
        .and_then(|o| match o {
            Outcome::Combiner(o) => o.into_signed(),
            Outcome::Member(_) => None,
        })
        .ok_or(broken("the signing session made no signature"))?;
    Ok(signed.to_frame())
}
