//! The devnet's Pulsar custody group, run through the library's parties on the simulator:
//! key ceremony (Pedersen DKG → key derivation → key certification), signing, and resharing
//! to the next epoch's validators under the unchanged key.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use crate::lss::{self, Ceremony, DealingParty, GroupPublic};
use crate::mldsa::Mode;
use crate::party::sim::{map_output, party_rng, Network};
use crate::pulsar::custody::{
    self, certification_party, Combined, CombinerKey, CombinerParty, GroupKey, KeyShare, Session, SignerParty,
};
use crate::vss::{self, Ristretto255};
use crate::{Error, PartyId};

type R = Ristretto255;

/// The combiner's party id (validators are numbered from 1).
const COMBINER: u16 = u16::MAX;

/// A failure of the devnet's own honest run.
fn broken(what: &'static str) -> Error {
    Error::Wire(crate::wire::Error::InvalidValue(what))
}

/// A certified Pulsar custody group: the sharing's public data, the group key and every
/// member's custody share.
pub(crate) struct Group {
    pub(crate) public: GroupPublic<R>,
    pub(crate) key: GroupKey,
    pub(crate) shares: BTreeMap<PartyId, KeyShare>,
}

fn combiner() -> Result<PartyId, Error> {
    PartyId::new(COMBINER).ok_or(broken("combiner id"))
}

/// Runs one custody session (key ceremony or signing) among `shares` and a fresh combiner.
fn session(
    label: &[u8],
    shares: &[&lss::KeyShare<R>],
    make: impl FnOnce(&CombinerKey) -> Result<Session, Error>,
) -> Result<Combined, Error> {
    let c = combiner()?;
    let key = CombinerKey::generate(c, &mut party_rng(&[label, b" combiner key"].concat(), c));
    let session = make(&key)?;
    let mut net = Network::new();
    let (combiner, first) = CombinerParty::start(key, &session, &mut party_rng(label, c))?;
    net.add(map_output(combiner, Some), first);
    for share in shares {
        let (signer, first) = SignerParty::start(share, &session, &mut party_rng(label, share.id()))?;
        net.add(map_output(signer, |_| None), first);
    }
    let mut out = net.run();
    out.remove(&c)
        .ok_or(broken("no combiner output"))??
        .ok_or(broken("no combiner output"))
}

/// A dealing's result: the receivers' shares and the activation certificate.
type Dealt = (
    BTreeMap<PartyId, lss::KeyShare<R>>,
    Option<lss::ActivationCertificate>,
);

/// Runs an LSS dealing among its dealers and receivers; returns the receivers' shares and
/// the activation certificate (for key-bound dealings).
fn deal(
    label: &[u8],
    ceremony: &Ceremony<R>,
    old: &BTreeMap<PartyId, &lss::KeyShare<R>>,
) -> Result<Dealt, Error> {
    let mut all: Vec<PartyId> = ceremony
        .dealers()
        .iter()
        .chain(ceremony.receivers())
        .copied()
        .collect();
    all.sort();
    all.dedup();
    let mut net = Network::new();
    for p in all {
        let (party, first) = DealingParty::start(
            ceremony.clone(),
            p,
            old.get(&p).copied(),
            &mut party_rng(label, p),
        )?;
        net.add(party, first);
    }
    let mut shares = BTreeMap::new();
    let mut activation = None;
    for (p, outcome) in net.run() {
        let outcome = outcome?;
        if activation.is_none() {
            activation = outcome.activation.clone();
        }
        if let Some(share) = outcome.key_share {
            shares.insert(p, share);
        }
    }
    Ok((shares, activation))
}

fn session_id(label: &[u8]) -> [u8; 32] {
    let mut t = crate::hash::Transcript::new(crate::hash::tags::SIM_RNG);
    t.append(b"devnet session").append(label);
    t.finalize()
}

/// The key ceremony among `members` with threshold `t`: DKG, key derivation by the first
/// `t`, certification by all.
pub(crate) fn ceremony(label: &[u8], mode: Mode, members: &[PartyId], t: u16) -> Result<Group, Error> {
    let dkg = Ceremony::<R>::dkg(
        session_id(&[label, b" dkg"].concat()),
        vss::Mode::Pedersen,
        members,
        t,
    )?;
    let (lss_shares, _) = deal(&[label, b" dkg"].concat(), &dkg, &BTreeMap::new())?;
    let public = lss_shares
        .values()
        .next()
        .ok_or(broken("no DKG share"))?
        .public()
        .clone();
    let deriving: Vec<PartyId> = members.iter().take(usize::from(t)).copied().collect();
    let signers: Vec<&lss::KeyShare<R>> = deriving.iter().filter_map(|p| lss_shares.get(p)).collect();
    let label_ceremony = [label, b" ceremony"].concat();
    let combined = session(&label_ceremony, &signers, |key| {
        Ok(Session::key_ceremony(
            session_id(&label_ceremony),
            mode,
            &public,
            &deriving,
            key.public_key(),
        )?)
    })?;
    let Combined::Announcement(announcement) = combined else {
        return Err(broken("the key ceremony made no announcement"));
    };
    let announced = announcement.verify(&public)?;
    let mut net = Network::new();
    let label_cert = [label, b" certification"].concat();
    for (p, share) in &lss_shares {
        let (party, first) = certification_party(
            *p,
            Some(share),
            &public,
            &announced,
            &mut party_rng(&label_cert, *p),
        )?;
        net.add(party, first);
    }
    let certificate = net
        .run()
        .into_values()
        .next()
        .ok_or(broken("no certification"))??;
    let key = GroupKey::new(announced, &public, certificate)?;
    let shares = lss_shares
        .into_iter()
        .map(|(p, s)| Ok((p, KeyShare::new(s, key.clone())?)))
        .collect::<Result<_, Error>>()?;
    Ok(Group { public, key, shares })
}

/// Reshares `group` from all its members to `receivers` with threshold `t`: the same key,
/// the next generation, activated by the new members.
pub(crate) fn reshare(label: &[u8], group: &Group, receivers: &[PartyId], t: u16) -> Result<Group, Error> {
    let dealers: Vec<PartyId> = group.shares.keys().copied().collect();
    let ceremony = custody::reshare(
        session_id(label),
        &group.key,
        &group.public,
        &dealers,
        receivers,
        t,
    )?;
    let old: BTreeMap<PartyId, &lss::KeyShare<R>> = group.shares.iter().map(|(p, s)| (*p, s.lss())).collect();
    let (lss_shares, activation) = deal(label, &ceremony, &old)?;
    let certificate = activation.ok_or(broken("no activation certificate"))?;
    let public = lss_shares
        .values()
        .next()
        .ok_or(broken("no reshared share"))?
        .public()
        .clone();
    let key = group.key.reactivated(&public, certificate)?;
    let shares = lss_shares
        .into_iter()
        .map(|(p, s)| Ok((p, KeyShare::new(s, key.clone())?)))
        .collect::<Result<_, Error>>()?;
    Ok(Group { public, key, shares })
}

/// `signers` sign `message` with context `ctx` through one custody session: the `PULS` frame.
pub(crate) fn sign(
    label: &[u8],
    group: &Group,
    signers: &[PartyId],
    message: &[u8],
    ctx: &[u8],
) -> Result<Vec<u8>, Error> {
    let shares: Vec<&lss::KeyShare<R>> = signers
        .iter()
        .map(|p| {
            group
                .shares
                .get(p)
                .map(KeyShare::lss)
                .ok_or(broken("signer without a share"))
        })
        .collect::<Result<_, _>>()?;
    let combined = session(label, &shares, |key| {
        Ok(Session::sign(
            session_id(label),
            &group.key,
            &group.public,
            signers,
            key.public_key(),
            message,
            ctx,
        )?)
    })?;
    match combined {
        Combined::Signed(signed) => Ok(signed.to_frame()),
        _ => Err(broken("the signing session made no signature")),
    }
}
