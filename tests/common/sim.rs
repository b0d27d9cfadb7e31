//! Drivers for the protocol tests (features `sim` and `hazmat`): every party is the
//! library's own bytes-in/bytes-out [`Party`], run on the in-process simulator
//! ([`Network`]) with per-party seeded RNGs; faults are tamper closures on the envelopes.
//!
//! - [`run`]: any parties, an optional [`Tamper`]; outcomes and the message log.
//! - LSS dealings ([`lss_deal`]), Lens dealings ([`lens_deal`]) and signing sessions
//!   ([`lens_sign`]), Pulsar key ceremonies ([`pulsar_group`]) and sessions
//!   ([`pulsar_session`]).
//! - The peer-fault matrix of a dealing ([`Fault`], [`dealing_plan`], [`check_plan`]):
//!   one tamper per fault kind, the exact messages every honest party must drop (and name
//!   the sender of), the blame every honest party must agree on.
//! - Independent Schnorr verifiers for Lens signatures ([`standard_verify`]).
#![allow(dead_code)]
// Helpers outside `#[test]` functions unwrap too: a panic here is a failed test
// (clippy.toml's allow-unwrap-in-tests covers only the test functions themselves).
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use quasar_pq::lens::{self, CoordinatorParty, Curve, KeyShare as LensShare, PublicKeyPackage};
use quasar_pq::lss::{self, ActivationCertificate, Ceremony, DealingParty, KeyShare, Outcome};
use quasar_pq::mldsa::{self, Mode};
use quasar_pq::party::hazmat::Cheat;
use quasar_pq::party::sim::{map_output, party_rng, Channel, Envelope, Network, Sent};
use quasar_pq::party::{Blame, Outgoing, Party};
use quasar_pq::pulsar::custody::{
    self, AnnouncedKey, Combined, CombinerKey, CombinerParty, GroupKey, Session, Signed,
};
use quasar_pq::vss::{self, Curve as Group, Ristretto255};
use quasar_pq::PartyId;

/// A rewrite of every envelope in flight: what to deliver instead.
pub(crate) type Tamper = Box<dyn FnMut(Envelope) -> Vec<Envelope>>;
/// Each party's result.
pub(crate) type Outcomes<O> = BTreeMap<PartyId, Result<O, quasar_pq::Error>>;

// ---------------------------------------------------------------------------------------
// Ids, sessions, codes

pub(crate) fn pid(v: u16) -> PartyId {
    PartyId::new(v).unwrap()
}

pub(crate) fn ids(range: impl IntoIterator<Item = u16>) -> Vec<PartyId> {
    range.into_iter().map(pid).collect()
}

/// A session id from a label (SHA-256, so labels of any length are unique ids).
pub(crate) fn sid(label: &str) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    Sha256::digest(label.as_bytes()).into()
}

/// `(party, code)` of every entry, sorted and de-duplicated (the library's own order).
pub(crate) fn codes(list: &[Blame]) -> Vec<(PartyId, &'static str)> {
    let mut out: Vec<(PartyId, &'static str)> = list.iter().map(|b| (b.party, b.reason.code())).collect();
    out.sort();
    out.dedup();
    out
}

/// The first four bytes.
pub(crate) fn magic(bytes: &[u8]) -> [u8; 4] {
    let mut m = [0u8; 4];
    m.copy_from_slice(&bytes[..4]);
    m
}

/// Pseudo-random bytes (no known magic: they start with `JUNK`).
pub(crate) fn junk(len: usize, label: &str) -> Vec<u8> {
    use sha3::digest::{ExtendableOutput, Update, XofReader};
    let mut h = sha3::Shake256::default();
    h.update(label.as_bytes());
    let mut out = vec![0u8; len.max(4)];
    h.finalize_xof().read(&mut out);
    out[..4].copy_from_slice(b"JUNK");
    out
}

// ---------------------------------------------------------------------------------------
// Running parties

/// Runs started parties to the end on the simulator; returns every result and the log.
pub(crate) fn run<P>(started: Vec<(P, Outgoing)>, tamper: Option<Tamper>) -> (Outcomes<P::Output>, Vec<Sent>)
where
    P: Party + Send + 'static,
    P::Output: Send + 'static,
{
    let mut net = Network::new();
    for (p, o) in started {
        net.add(p, o);
    }
    if let Some(t) = tamper {
        net.tamper(t);
    }
    net.run_logged()
}

/// Applies the tampers one after the other.
pub(crate) fn chain(mut tampers: Vec<Tamper>) -> Tamper {
    Box::new(move |e| {
        let mut batch = vec![e];
        for t in tampers.iter_mut() {
            batch = batch.into_iter().flat_map(t).collect();
        }
        batch
    })
}

/// Drops every envelope addressed to one of `to`.
pub(crate) fn drop_to(to: Vec<PartyId>) -> Tamper {
    Box::new(move |e| if to.contains(&e.to) { vec![] } else { vec![e] })
}

/// What `from` broadcast in `round` (0 = at start), if anything.
pub(crate) fn broadcast_of(log: &[Sent], from: PartyId, round: u32) -> Option<Vec<u8>> {
    log.iter()
        .find(|s| s.from == from && s.round == round)
        .and_then(|s| s.outgoing.broadcast.clone())
}

/// What `from` sent `to` privately in `round`, if anything.
pub(crate) fn direct_of(log: &[Sent], from: PartyId, round: u32, to: PartyId) -> Option<Vec<u8>> {
    log.iter()
        .filter(|s| s.from == from && s.round == round)
        .flat_map(|s| s.outgoing.direct.iter())
        .find(|d| d.to == to)
        .map(|d| d.bytes.to_vec())
}

/// Every broadcast of `round` whose magic is `m`, by sender.
pub(crate) fn broadcasts_with(log: &[Sent], round: u32, m: &[u8; 4]) -> BTreeMap<PartyId, Vec<u8>> {
    log.iter()
        .filter(|s| s.round == round)
        .filter_map(|s| s.outgoing.broadcast.as_ref().map(|b| (s.from, b.clone())))
        .filter(|(_, b)| b.len() >= 4 && &b[..4] == m)
        .collect()
}

// ---------------------------------------------------------------------------------------
// LSS dealings

/// Dealers and receivers of a ceremony, increasing.
pub(crate) fn participants<C: Group>(c: &Ceremony<C>) -> Vec<PartyId> {
    let mut all: Vec<PartyId> = c.dealers().iter().chain(c.receivers()).copied().collect();
    all.sort();
    all.dedup();
    all
}

/// Runs an LSS dealing among all its participants (`old`: the current shares; `cheats`:
/// parties running a `hazmat` misbehaviour).
pub(crate) fn lss_deal<C: Group>(
    c: &Ceremony<C>,
    old: &BTreeMap<PartyId, KeyShare<C>>,
    cheats: &[(PartyId, Cheat)],
    tamper: Option<Tamper>,
    label: &str,
) -> (Outcomes<Outcome<C>>, Vec<Sent>) {
    let started = participants(c)
        .into_iter()
        .map(|p| {
            let mut rng = party_rng(label.as_bytes(), p);
            match cheats.iter().find(|(q, _)| *q == p) {
                Some((_, cheat)) => {
                    DealingParty::start_cheating(c.clone(), p, old.get(&p), *cheat, &mut rng).unwrap()
                }
                None => DealingParty::start(c.clone(), p, old.get(&p), &mut rng).unwrap(),
            }
        })
        .collect();
    run(started, tamper)
}

/// The key shares of every successful receiver (the outcomes are consumed).
pub(crate) fn lss_shares<C: Group>(outcomes: Outcomes<Outcome<C>>) -> BTreeMap<PartyId, KeyShare<C>> {
    outcomes
        .into_iter()
        .filter_map(|(p, o)| o.ok().and_then(|o| o.key_share).map(|k| (p, k)))
        .collect()
}

/// A copy of a key share (through its encoding).
pub(crate) fn copy_share<C: Group>(s: &KeyShare<C>) -> KeyShare<C> {
    KeyShare::from_bytes(&s.to_bytes()).unwrap()
}

/// The group secret (and blind) from exactly the given shares; the pair must open the
/// group commitment. Test-only: it puts the secret in one place.
pub(crate) fn reconstruct<C: Group>(shares: &[&KeyShare<C>]) -> (C::Scalar, C::Scalar) {
    let value: Vec<(PartyId, C::Scalar)> = shares.iter().map(|s| (s.id(), *s.secret_share())).collect();
    let blind: Vec<(PartyId, C::Scalar)> = shares.iter().map(|s| (s.id(), *s.blind_share())).collect();
    let x = vss::reconstruct::<C>(&value).unwrap();
    let r = vss::reconstruct::<C>(&blind).unwrap();
    let public = shares[0].public();
    let opened = match public.mode() {
        vss::Mode::Pedersen => C::mul_base_h(&x, &r),
        vss::Mode::Feldman => C::mul_base(&x),
    };
    assert_eq!(opened, public.group_commitment(), "the shares do not open C_0");
    (x, r)
}

// ---------------------------------------------------------------------------------------
// What every dealing outcome offers (LSS and Lens)

/// The parts of a dealing outcome the fault checks compare.
pub(crate) trait DealView {
    fn dropped(&self) -> &[Blame];
    fn blame(&self) -> &[Blame];
    fn qualified(&self) -> &[PartyId];
    fn public_bytes(&self) -> Vec<u8>;
    fn transcript(&self) -> [u8; 32];
    fn activation(&self) -> Option<&ActivationCertificate>;
    fn holds_share(&self) -> bool;
}

impl<C: Group> DealView for Outcome<C> {
    fn dropped(&self) -> &[Blame] {
        &self.dropped
    }
    fn blame(&self) -> &[Blame] {
        &self.blame
    }
    fn qualified(&self) -> &[PartyId] {
        &self.qualified
    }
    fn public_bytes(&self) -> Vec<u8> {
        self.public.to_bytes()
    }
    fn transcript(&self) -> [u8; 32] {
        *self.transcript_hash()
    }
    fn activation(&self) -> Option<&ActivationCertificate> {
        self.activation.as_ref()
    }
    fn holds_share(&self) -> bool {
        self.key_share.is_some()
    }
}

impl DealView for lens::Outcome {
    fn dropped(&self) -> &[Blame] {
        &self.dropped
    }
    fn blame(&self) -> &[Blame] {
        &self.blame
    }
    fn qualified(&self) -> &[PartyId] {
        &self.qualified
    }
    fn public_bytes(&self) -> Vec<u8> {
        self.public.to_bytes()
    }
    fn transcript(&self) -> [u8; 32] {
        self.public.epoch().transcript
    }
    fn activation(&self) -> Option<&ActivationCertificate> {
        self.activation.as_ref()
    }
    fn holds_share(&self) -> bool {
        self.key_share.is_some()
    }
}

// ---------------------------------------------------------------------------------------
// The peer-fault matrix of a dealing

/// One kind of bad peer message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fault {
    /// Dealer F hands receiver B the well-formed share message it made for receiver A.
    Misaddressed,
    /// F's deal is replaced by its deal of another session (same ceremony, other id).
    WrongSession,
    /// F's round-3 response is replaced by a message of another kind (its own deal).
    WrongKind,
    /// An outsider (party 99) sends every participant a copy of F's deal.
    NonMember,
    /// F replays its messages of the dealing that made the current generation (its deal,
    /// and its proof of possession of that generation when it is a new member again).
    OtherGeneration,
    /// F's deal arrives twice, byte for byte.
    DuplicateIdentical,
    /// F's share for A arrives twice with different bytes (equivocation).
    DuplicateConflicting,
    /// F's share for A arrives cut short by one byte.
    Truncated,
    /// F's deal is replaced by random bytes.
    Garbage,
}

impl Fault {
    pub(crate) const ALL: [Fault; 9] = [
        Fault::Misaddressed,
        Fault::WrongSession,
        Fault::WrongKind,
        Fault::NonMember,
        Fault::OtherGeneration,
        Fault::DuplicateIdentical,
        Fault::DuplicateConflicting,
        Fault::Truncated,
        Fault::Garbage,
    ];
}

/// The outsider that injects messages.
pub(crate) const OUTSIDER: u16 = 99;

/// Who plays which role in a dealing (for the fault plans).
#[derive(Debug, Clone)]
pub(crate) struct Roles {
    pub participants: Vec<PartyId>,
    pub dealers: Vec<PartyId>,
    pub receivers: Vec<PartyId>,
    /// Whether the dealing ends with an activation round (refresh, reshare).
    pub activation: bool,
}

impl Roles {
    pub(crate) fn of<C: Group>(c: &Ceremony<C>) -> Roles {
        Roles {
            participants: participants(c),
            dealers: c.dealers().to_vec(),
            receivers: c.receivers().to_vec(),
            activation: c.kind() != lss::Kind::Dkg,
        }
    }

    pub(crate) fn of_lens(c: &lens::Ceremony, activation: bool) -> Roles {
        Roles {
            participants: c.participants(),
            dealers: c.dealers().to_vec(),
            receivers: c.receivers().to_vec(),
            activation,
        }
    }
}

/// Bytes a fault replays: F's messages in a run of the same ceremony under another
/// session id, and in the dealing that made the current generation (`None` for a DKG:
/// then the other session stands in, since a DKG has no earlier generation).
pub(crate) struct Replays<'a> {
    pub other_session: &'a [Sent],
    pub previous: Option<&'a [Sent]>,
}

/// A fault, ready to run: the tamper, the party whose own view is not checked (its
/// messages were replaced, so its state machine saw something else), and what every
/// honest party must report.
pub(crate) struct Plan {
    pub fault: Option<Fault>,
    pub tamper: Tamper,
    pub cheater: Option<PartyId>,
    /// `(party, code)` each honest participant must have dropped, exactly.
    pub dropped: BTreeMap<PartyId, Vec<(PartyId, &'static str)>>,
    /// `(party, code)` every honest participant must agree on as blame, exactly.
    pub blame: Vec<(PartyId, &'static str)>,
}

impl Plan {
    /// No fault: nothing dropped, no blame.
    pub(crate) fn clean() -> Plan {
        Plan {
            fault: None,
            tamper: Box::new(|e| vec![e]),
            cheater: None,
            dropped: BTreeMap::new(),
            blame: vec![],
        }
    }

    /// The tamper, to hand to the network (a pass-through is left in its place).
    pub(crate) fn take_tamper(&mut self) -> Tamper {
        core::mem::replace(&mut self.tamper, Box::new(|e| vec![e]))
    }
}

/// The plan of `fault` by dealer `f`; `a < b` are two receivers other than `f`.
pub(crate) fn dealing_plan(
    fault: Fault,
    roles: &Roles,
    f: PartyId,
    a: PartyId,
    b: PartyId,
    replays: &Replays,
) -> Plan {
    assert!(a < b && a != f && b != f, "victims");
    assert!(roles.dealers.contains(&f) && roles.receivers.contains(&a) && roles.receivers.contains(&b));
    let everyone_but_f: Vec<PartyId> = roles.participants.iter().copied().filter(|&p| p != f).collect();
    let at = |who: &[PartyId],
              list: Vec<(PartyId, &'static str)>|
     -> BTreeMap<PartyId, Vec<(PartyId, &'static str)>> {
        who.iter().map(|&p| (p, list.clone())).collect()
    };
    let earlier = replays.previous.unwrap_or(replays.other_session);
    let old_deal = broadcast_of(earlier, f, 0).expect("F dealt in the earlier run");
    let other_deal = broadcast_of(replays.other_session, f, 0).expect("F dealt in the other session");
    // When F's messages are replaced, F's own transcript differs from everyone else's:
    // its proof of possession (when it is a new member) is then for another dealing.
    let f_proves = roles.activation && roles.receivers.contains(&f);
    let act = |mut list: Vec<(PartyId, &'static str)>| {
        if f_proves {
            list.push((f, "WRONG_SESSION"));
        }
        list.sort();
        list.dedup();
        list
    };
    let is_f = move |e: &Envelope, round: u32, channel: Channel| {
        e.from == f && e.round == round && e.channel == channel
    };
    match fault {
        Fault::Misaddressed => {
            let mut for_a: Option<zeroize::Zeroizing<Vec<u8>>> = None;
            Plan {
                fault: Some(fault),
                tamper: Box::new(move |mut e| {
                    if is_f(&e, 0, Channel::Direct) {
                        if e.to == a {
                            for_a = Some(e.bytes.clone());
                        } else if e.to == b {
                            e.bytes = for_a.clone().expect("a < b: A's message passes first");
                        }
                    }
                    vec![e]
                }),
                cheater: None,
                dropped: at(&[b], vec![(f, "WRONG_RECIPIENT")]),
                blame: vec![],
            }
        }
        Fault::WrongSession => Plan {
            fault: Some(fault),
            tamper: Box::new(move |mut e| {
                if is_f(&e, 0, Channel::Broadcast) {
                    e.bytes = other_deal.clone().into();
                }
                vec![e]
            }),
            cheater: Some(f),
            dropped: at(&everyone_but_f, act(vec![(f, "WRONG_SESSION")])),
            blame: vec![(f, "MISSING_DEAL")],
        },
        Fault::WrongKind => {
            let mut deal: Option<Vec<u8>> = None;
            Plan {
                fault: Some(fault),
                tamper: Box::new(move |mut e| {
                    if is_f(&e, 0, Channel::Broadcast) {
                        deal = Some(e.bytes.to_vec());
                    }
                    if is_f(&e, 2, Channel::Broadcast) {
                        e.bytes = deal.clone().unwrap().into();
                    }
                    vec![e]
                }),
                cheater: Some(f),
                dropped: at(&everyone_but_f, act(vec![(f, "WRONG_KIND")])),
                blame: vec![],
            }
        }
        Fault::NonMember => {
            let outsider = pid(OUTSIDER);
            let mut f_served = false;
            Plan {
                fault: Some(fault),
                tamper: Box::new(move |e| {
                    let mut out = Vec::new();
                    if is_f(&e, 0, Channel::Broadcast) {
                        let mut copy = e.clone();
                        copy.from = outsider;
                        out.push(copy);
                        if !f_served {
                            f_served = true;
                            let mut to_f = e.clone();
                            to_f.from = outsider;
                            to_f.to = f;
                            out.push(to_f);
                        }
                    }
                    out.push(e);
                    out
                }),
                cheater: None,
                dropped: at(&roles.participants, vec![(outsider, "UNKNOWN_PARTY")]),
                blame: vec![],
            }
        }
        Fault::OtherGeneration => {
            let old_proof = replays
                .previous
                .and_then(|log| broadcast_of(log, f, 3))
                .filter(|_| f_proves);
            let mut list = vec![(f, "WRONG_SESSION")];
            if old_proof.is_some() {
                list.push((f, "WRONG_GENERATION"));
            } else if f_proves {
                list.push((f, "WRONG_SESSION"));
            }
            list.sort();
            list.dedup();
            Plan {
                fault: Some(fault),
                tamper: Box::new(move |mut e| {
                    if is_f(&e, 0, Channel::Broadcast) {
                        e.bytes = old_deal.clone().into();
                    }
                    if let Some(p) = &old_proof {
                        if is_f(&e, 3, Channel::Broadcast) {
                            e.bytes = p.clone().into();
                        }
                    }
                    vec![e]
                }),
                cheater: Some(f),
                dropped: at(&everyone_but_f, list),
                blame: vec![(f, "MISSING_DEAL")],
            }
        }
        Fault::DuplicateIdentical => Plan {
            fault: Some(fault),
            tamper: Box::new(move |e| {
                if is_f(&e, 0, Channel::Broadcast) {
                    vec![e.clone(), e]
                } else {
                    vec![e]
                }
            }),
            cheater: None,
            dropped: at(&everyone_but_f, vec![(f, "DUPLICATE_MESSAGE")]),
            blame: vec![],
        },
        Fault::DuplicateConflicting => Plan {
            fault: Some(fault),
            tamper: Box::new(move |e| {
                if is_f(&e, 0, Channel::Direct) && e.to == a {
                    let mut other = e.clone();
                    let last = other.bytes.len() - 1;
                    other.bytes[last] ^= 0x01;
                    vec![e, other]
                } else {
                    vec![e]
                }
            }),
            cheater: None,
            dropped: at(&[a], vec![(f, "CONFLICTING_MESSAGE")]),
            blame: vec![],
        },
        Fault::Truncated => Plan {
            fault: Some(fault),
            tamper: Box::new(move |mut e| {
                if is_f(&e, 0, Channel::Direct) && e.to == a {
                    e.bytes.pop();
                }
                vec![e]
            }),
            cheater: None,
            dropped: at(&[a], vec![(f, "MALFORMED_MESSAGE")]),
            blame: vec![],
        },
        Fault::Garbage => {
            let len = other_deal.len();
            Plan {
                fault: Some(fault),
                tamper: Box::new(move |mut e| {
                    if is_f(&e, 0, Channel::Broadcast) {
                        e.bytes = junk(len, "garbage deal").into();
                    }
                    vec![e]
                }),
                cheater: Some(f),
                dropped: at(&everyone_but_f, act(vec![(f, "MALFORMED_MESSAGE")])),
                blame: vec![(f, "MISSING_DEAL")],
            }
        }
    }
}

/// Checks a dealing run against its plan: every honest participant completed, dropped
/// exactly the planned messages (naming their senders), and all honest participants
/// agree on the public data, transcript hash, qualified set, blame (the planned one) and
/// activation certificate. Returns the honest participants' outcomes.
pub(crate) fn check_plan<'a, O: DealView>(
    plan: &Plan,
    outcomes: &'a Outcomes<O>,
    roles: &Roles,
    what: &str,
) -> BTreeMap<PartyId, &'a O> {
    let mut honest = BTreeMap::new();
    for &p in &roles.participants {
        if Some(p) == plan.cheater {
            continue;
        }
        let o = match &outcomes[&p] {
            Ok(o) => o,
            Err(e) => panic!("{what} / {:?}: honest {p} failed: {e} ({})", plan.fault, e.code()),
        };
        let want = plan.dropped.get(&p).cloned().unwrap_or_default();
        assert_eq!(
            codes(o.dropped()),
            want,
            "{what} / {:?}: what {p} dropped",
            plan.fault
        );
        assert_eq!(
            codes(o.blame()),
            plan.blame,
            "{what} / {:?}: blame at {p}",
            plan.fault
        );
        honest.insert(p, o);
    }
    let first = honest.values().next().expect("an honest party");
    for (p, o) in &honest {
        assert_eq!(
            o.public_bytes(),
            first.public_bytes(),
            "{what} / {:?}: {p}'s public data",
            plan.fault
        );
        assert_eq!(
            o.transcript(),
            first.transcript(),
            "{what} / {:?}: {p}'s transcript",
            plan.fault
        );
        assert_eq!(
            o.qualified(),
            first.qualified(),
            "{what} / {:?}: {p}'s qualified set",
            plan.fault
        );
        assert_eq!(o.blame(), first.blame(), "{what} / {:?}: {p}'s blame", plan.fault);
        assert_eq!(
            o.activation().map(ActivationCertificate::to_bytes),
            first.activation().map(ActivationCertificate::to_bytes),
            "{what} / {:?}: {p}'s certificate",
            plan.fault
        );
        assert_eq!(
            o.activation().is_some(),
            roles.activation,
            "{what}: {p} certificate present"
        );
        assert_eq!(
            o.holds_share(),
            roles.receivers.contains(p),
            "{what}: {p} holds a share"
        );
    }
    for (party, code) in &plan.blame {
        if *code == "MISSING_DEAL" {
            assert!(!first.qualified().contains(party), "{what}: {party} disqualified");
        }
    }
    if let Some(cert) = first.activation() {
        let members = cert.members();
        assert!(members
            .iter()
            .all(|m| honest.contains_key(m) && roles.receivers.contains(m)));
    }
    honest
}

// ---------------------------------------------------------------------------------------
// Lens

/// The coordinator's id in Lens sessions.
pub(crate) const COORDINATOR: u16 = 100;

/// Runs a Lens dealing (key generation, refresh or reshare).
pub(crate) fn lens_deal(
    c: &lens::Ceremony,
    old: &BTreeMap<PartyId, LensShare>,
    cheats: &[(PartyId, Cheat)],
    tamper: Option<Tamper>,
    label: &str,
) -> (Outcomes<lens::Outcome>, Vec<Sent>) {
    let started = c
        .participants()
        .into_iter()
        .map(|p| {
            let mut rng = party_rng(label.as_bytes(), p);
            match cheats.iter().find(|(q, _)| *q == p) {
                Some((_, cheat)) => c.start_cheating(p, old.get(&p), *cheat, &mut rng).unwrap(),
                None => c.start(p, old.get(&p), &mut rng).unwrap(),
            }
        })
        .collect();
    run(started, tamper)
}

/// The Lens key shares of every successful receiver.
pub(crate) fn lens_shares(outcomes: Outcomes<lens::Outcome>) -> BTreeMap<PartyId, LensShare> {
    outcomes
        .into_iter()
        .filter_map(|(p, o)| o.ok().and_then(|o| o.key_share).map(|k| (p, k)))
        .collect()
}

/// A Lens key generation by parties `1..=n` with threshold `t`, run by the library's
/// lifecycle members; every party agrees.
pub(crate) fn lens_keygen(
    curve: Curve,
    n: u16,
    t: u16,
    label: &str,
) -> (BTreeMap<PartyId, LensShare>, PublicKeyPackage) {
    let c = lens::Ceremony::keygen(curve, sid(label), &ids(1..=n), t).unwrap();
    let mut net = Network::new();
    for p in ids(1..=n) {
        let (m, o) = lens::lifecycle::Member::keygen(p, &c, &mut party_rng(label.as_bytes(), p)).unwrap();
        net.add(m, o);
    }
    let mut shares = BTreeMap::new();
    for (p, out) in net.run() {
        let setup = out.unwrap().into_setup().unwrap();
        assert!(setup.blame.is_empty() && setup.dropped.is_empty(), "{p}");
        shares.insert(p, setup.key_share);
    }
    assert_eq!(shares.len(), usize::from(n));
    let public = shares.values().next().unwrap().public().clone();
    assert!(shares.values().all(|s| s.public() == &public));
    (shares, public)
}

/// A copy of a Lens key share.
pub(crate) fn copy_lens(s: &LensShare) -> LensShare {
    LensShare::from_bytes(s.curve(), &s.to_bytes()).unwrap()
}

/// What a Lens signing party ends with.
#[derive(Debug)]
pub(crate) enum LensOut {
    Coordinator(lens::CoordinatorOutcome),
    Signer(lens::SignerOutcome),
}

impl LensOut {
    pub(crate) fn coordinator(&self) -> &lens::CoordinatorOutcome {
        match self {
            LensOut::Coordinator(c) => c,
            LensOut::Signer(_) => panic!("not the coordinator"),
        }
    }
    pub(crate) fn signer(&self) -> &lens::SignerOutcome {
        match self {
            LensOut::Signer(s) => s,
            LensOut::Coordinator(_) => panic!("not a signer"),
        }
    }
}

/// One FROST session: the coordinator ([`COORDINATOR`]) and `signers`, on the simulator.
pub(crate) fn lens_session(
    signers: &[&LensShare],
    public: &PublicKeyPackage,
    msg: &[u8],
    cheats: &[(PartyId, Cheat)],
    tamper: Option<Tamper>,
    label: &str,
) -> (Outcomes<LensOut>, Vec<Sent>) {
    let mut net = Network::new();
    let hub = pid(COORDINATOR);
    let (c, o) = CoordinatorParty::start(hub, public, msg).unwrap();
    net.add(map_output(c, LensOut::Coordinator), o);
    for s in signers {
        let mut rng = party_rng(label.as_bytes(), s.party());
        let (p, o) = match cheats.iter().find(|(q, _)| *q == s.party()) {
            Some((_, cheat)) => lens::SignerParty::start_cheating(s, hub, msg, *cheat, &mut rng).unwrap(),
            None => lens::SignerParty::start(s, hub, msg, &mut rng).unwrap(),
        };
        net.add(map_output(p, LensOut::Signer), o);
    }
    if let Some(t) = tamper {
        net.tamper(t);
    }
    net.run_logged()
}

/// Signs `msg` with exactly `signers`; the signature verifies under `lens::verify` and the
/// independent verifier of the curve. Returns it.
pub(crate) fn lens_sign(
    signers: &[&LensShare],
    public: &PublicKeyPackage,
    msg: &[u8],
    label: &str,
) -> lens::Signature {
    let (out, _) = lens_session(signers, public, msg, &[], None, label);
    let c = out[&pid(COORDINATOR)].as_ref().unwrap().coordinator().clone();
    let mut want: Vec<PartyId> = signers.iter().map(|s| s.party()).collect();
    want.sort();
    assert_eq!(c.signers, want);
    assert!(c.dropped.is_empty(), "{:?}", c.dropped);
    check_lens_signature(public, msg, &c.signature);
    c.signature
}

/// A Lens signature verifies under the library and the curve's independent verifier, and
/// not for another message.
pub(crate) fn check_lens_signature(public: &PublicKeyPackage, msg: &[u8], sig: &lens::Signature) {
    let curve = public.curve();
    let gk = public.group_key_bytes();
    lens::verify(curve, &gk, msg, sig.as_bytes()).unwrap();
    assert!(
        standard_verify(curve, &gk, msg, sig.as_bytes()),
        "{curve}: independent verifier"
    );
    assert!(!standard_verify(curve, &gk, b"another message", sig.as_bytes()));
}

/// Verifies with a verifier that shares no code with frost: `ed25519-dalek`'s
/// `verify_strict`, `k256`'s BIP-340 `verify_raw` with the x-only key, and RFC 9591 §6.2
/// written on curve25519-dalek for Ristretto255.
pub(crate) fn standard_verify(curve: Curve, group_key: &[u8], msg: &[u8], sig: &[u8; 64]) -> bool {
    match curve {
        Curve::Ed25519 => {
            let vk = ed25519_dalek::VerifyingKey::from_bytes(group_key.try_into().unwrap()).unwrap();
            vk.verify_strict(msg, &ed25519_dalek::Signature::from_bytes(sig))
                .is_ok()
        }
        Curve::Secp256k1 => {
            let vk = k256::schnorr::VerifyingKey::from_bytes(group_key).unwrap();
            let s = k256::schnorr::Signature::try_from(&sig[..]).unwrap();
            vk.verify_raw(msg, &s).is_ok()
        }
        Curve::Ristretto255 => ristretto_verify(group_key, msg, sig),
    }
}

/// RFC 9591 §6.2 FROST(ristretto255, SHA-512) verification, written independently on
/// curve25519-dalek: `c = H2(R ‖ PK ‖ msg)` with `H2(m) = SHA-512(contextString ‖ "chal" ‖
/// m)` reduced wide; accept iff `z·G == R + c·PK`.
pub(crate) fn ristretto_verify(group_key: &[u8], msg: &[u8], sig: &[u8; 64]) -> bool {
    use curve25519_dalek::ristretto::CompressedRistretto;
    use curve25519_dalek::{RistrettoPoint, Scalar};
    use sha2::{Digest, Sha512};
    let decompress = |b: &[u8]| {
        CompressedRistretto::from_slice(b)
            .ok()
            .and_then(|c| c.decompress())
    };
    let (Some(pk), Some(r)) = (decompress(group_key), decompress(&sig[..32])) else {
        return false;
    };
    let z: Option<Scalar> = Scalar::from_canonical_bytes(sig[32..].try_into().unwrap()).into();
    let Some(z) = z else { return false };
    let mut h = Sha512::new();
    h.update(b"FROST-RISTRETTO255-SHA512-v1");
    h.update(b"chal");
    h.update(&sig[..32]);
    h.update(group_key);
    h.update(msg);
    let c = Scalar::from_bytes_mod_order_wide(&h.finalize().into());
    RistrettoPoint::mul_base(&z) == r + c * pk
}

// ---------------------------------------------------------------------------------------
// Pulsar custody

pub(crate) type R = Ristretto255;
pub(crate) type LssShare = KeyShare<R>;

/// The combiner's id in Pulsar sessions.
pub(crate) const COMBINER: u16 = 1000;

/// A certified Pulsar group: the sharing, the group key, every party's custody share.
pub(crate) struct PulsarGroup {
    pub public: lss::GroupPublic<R>,
    pub announced: AnnouncedKey,
    pub key: GroupKey,
    pub shares: BTreeMap<PartyId, custody::KeyShare>,
}

impl PulsarGroup {
    pub(crate) fn lss(&self, set: &[PartyId]) -> Vec<&LssShare> {
        set.iter().map(|p| self.shares[p].lss()).collect()
    }

    /// The LSS shares by party, copied (for a dealing's `old`).
    pub(crate) fn old(&self) -> BTreeMap<PartyId, LssShare> {
        self.shares
            .iter()
            .map(|(p, s)| (*p, copy_share(s.lss())))
            .collect()
    }
}

/// What a Pulsar session party ends with.
#[derive(Debug)]
pub(crate) enum PulsarOut {
    Combiner(Combined),
    Signer(custody::SignerOutcome),
}

impl PulsarOut {
    pub(crate) fn signed(&self) -> &Signed {
        match self {
            PulsarOut::Combiner(Combined::Signed(s)) => s,
            other => panic!("not a signature: {other:?}"),
        }
    }
    pub(crate) fn signer(&self) -> &custody::SignerOutcome {
        match self {
            PulsarOut::Signer(s) => s,
            other => panic!("not a signer: {other:?}"),
        }
    }
}

/// One custody session (signing or key ceremony) on the simulator.
pub(crate) fn pulsar_session(
    shares: &[&LssShare],
    session: &Session,
    key: CombinerKey,
    cheats: &[(PartyId, Cheat)],
    tamper: Option<Tamper>,
    label: &str,
) -> (Outcomes<PulsarOut>, Vec<Sent>) {
    let mut net = Network::new();
    let (c, o) = CombinerParty::start(key, session, &mut party_rng(label.as_bytes(), pid(COMBINER))).unwrap();
    net.add(map_output(c, PulsarOut::Combiner), o);
    for s in shares {
        let mut rng = party_rng(label.as_bytes(), s.id());
        let (p, o) = match cheats.iter().find(|(q, _)| *q == s.id()) {
            Some((_, cheat)) => custody::SignerParty::start_cheating(s, session, *cheat, &mut rng).unwrap(),
            None => custody::SignerParty::start(s, session, &mut rng).unwrap(),
        };
        net.add(map_output(p, PulsarOut::Signer), o);
    }
    if let Some(t) = tamper {
        net.tamper(t);
    }
    net.run_logged()
}

/// A combiner key for a session labelled `label`.
pub(crate) fn combiner_key(label: &str) -> CombinerKey {
    CombinerKey::generate(
        pid(COMBINER),
        &mut party_rng(format!("combiner key {label}").as_bytes(), pid(COMBINER)),
    )
}

/// The Pulsar setup path among `1..=n` (threshold `t`), run by the library's lifecycle
/// parties: the Pedersen DKG, key derivation by the first `t`, certification by all.
pub(crate) fn pulsar_group(mode: Mode, n: u16, t: u16, label: &str) -> PulsarGroup {
    use quasar_pq::pulsar::custody::lifecycle::{Combiner, Member, Outcome, SetupParams};
    let parties = ids(1..=n);
    let params = SetupParams::with_sessions(
        sid(&format!("{label} dkg")),
        sid(&format!("{label} ceremony")),
        mode,
        &parties,
        t,
        &parties[..usize::from(t)],
        pid(COMBINER),
    )
    .unwrap();
    let mut net = Network::new();
    for &p in &parties {
        let (m, o) = Member::setup(p, &params, &mut party_rng(format!("{label} dkg").as_bytes(), p)).unwrap();
        net.add(map_output(m, Outcome::Member), o);
    }
    let (c, o) = Combiner::setup(&params, &mut party_rng(label.as_bytes(), pid(COMBINER)));
    net.add(map_output(c, Outcome::Combiner), o);
    let mut out = net.run();
    let Outcome::Combiner(c) = out.remove(&pid(COMBINER)).unwrap().unwrap() else {
        panic!("the combiner's outcome")
    };
    let record = c.into_certified().unwrap();
    assert!(record.dropped.is_empty(), "{:?}", record.dropped);
    let announced = custody::GroupKeyAnnouncement::from_bytes(&record.announcement.to_bytes())
        .unwrap()
        .verify(&record.public)
        .unwrap();
    let shares: BTreeMap<PartyId, custody::KeyShare> = out
        .into_iter()
        .map(|(p, o)| {
            let Outcome::Member(m) = o.unwrap() else {
                panic!("{p}: a member")
            };
            let setup = m.into_setup().unwrap();
            assert!(setup.dropped.is_empty() && setup.blame.is_empty(), "{p}");
            (p, setup.key_share)
        })
        .collect();
    assert_eq!(shares.len(), usize::from(n));
    assert!(shares.values().all(|s| s.group_key() == &record.group_key));
    PulsarGroup {
        public: record.public,
        announced,
        key: record.group_key,
        shares,
    }
}

/// Signs `msg` (context `ctx`) with exactly `signers` through one session; the signature
/// verifies under the library and every peer ML-DSA implementation.
pub(crate) fn pulsar_sign(
    group: &PulsarGroup,
    signers: &[PartyId],
    msg: &[u8],
    ctx: &[u8],
    label: &str,
) -> Signed {
    let key = combiner_key(label);
    let session = Session::sign(
        sid(label),
        &group.key,
        &group.public,
        signers,
        key.public_key(),
        msg,
        ctx,
    )
    .unwrap();
    let (out, _) = pulsar_session(&group.lss(signers), &session, key, &[], None, label);
    let signed = out[&pid(COMBINER)].as_ref().unwrap().signed().clone();
    assert!(signed.blame().is_empty(), "{:?}", signed.blame());
    check_mldsa(
        group.key.mode(),
        group.key.public_key(),
        msg,
        ctx,
        signed.signature(),
    );
    signed
}

/// An ML-DSA signature verifies under ours and every peer implementation, and not for
/// another message.
pub(crate) fn check_mldsa(mode: Mode, pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) {
    mldsa::verify(mode, pk, msg, ctx, sig).unwrap();
    assert!(mldsa::verify(mode, pk, b"another message", ctx, sig).is_err());
    for peer in super::peers::peers(mode) {
        assert!(
            (peer.verify)(pk, msg, ctx, sig),
            "{} rejects the signature",
            peer.name
        );
    }
}

// ---------------------------------------------------------------------------------------
// Activation certificates, byte by byte (what an attacker can build)

/// The fields of an `LSA2` certificate, parsed independently of the library (layout:
/// `LSA2` ‖ u16 1 ‖ u8 scheme ‖ u8 curve ‖ u8 mode ‖ u64 generation ‖ transcript (32) ‖
/// u32 length ‖ key ‖ u16 count ‖ count × (u16 member ‖ proof)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lsa2 {
    pub scheme: u8,
    pub curve: u8,
    pub mode: u8,
    pub generation: u64,
    pub transcript: [u8; 32],
    pub key: Vec<u8>,
    pub proofs: Vec<(u16, Vec<u8>)>,
}

impl Lsa2 {
    pub(crate) fn parse(bytes: &[u8]) -> Lsa2 {
        assert_eq!(&bytes[..6], b"LSA2\x00\x01");
        let key_len = u32::from_be_bytes(bytes[49..53].try_into().unwrap()) as usize;
        let key = bytes[53..53 + key_len].to_vec();
        let at = 53 + key_len;
        let count = usize::from(u16::from_be_bytes(bytes[at..at + 2].try_into().unwrap()));
        let rest = &bytes[at + 2..];
        let each = rest.len() / count.max(1);
        let proofs = rest
            .chunks(each)
            .map(|c| (u16::from_be_bytes([c[0], c[1]]), c[2..].to_vec()))
            .collect();
        Lsa2 {
            scheme: bytes[6],
            curve: bytes[7],
            mode: bytes[8],
            generation: u64::from_be_bytes(bytes[9..17].try_into().unwrap()),
            transcript: bytes[17..49].try_into().unwrap(),
            key,
            proofs,
        }
    }

    pub(crate) fn of(cert: &ActivationCertificate) -> Lsa2 {
        let parsed = Lsa2::parse(&cert.to_bytes());
        assert_eq!(parsed.encode(), cert.to_bytes(), "the test's LSA2 codec");
        parsed
    }

    pub(crate) fn encode(&self) -> Vec<u8> {
        let mut out = b"LSA2\x00\x01".to_vec();
        out.extend([self.scheme, self.curve, self.mode]);
        out.extend(self.generation.to_be_bytes());
        out.extend(self.transcript);
        out.extend(
            u32::try_from(self.key.len())
                .expect("key length fits u32")
                .to_be_bytes(),
        );
        out.extend(&self.key);
        out.extend(
            u16::try_from(self.proofs.len())
                .expect("proof count fits u16")
                .to_be_bytes(),
        );
        for (m, p) in &self.proofs {
            out.extend(m.to_be_bytes());
            out.extend(p);
        }
        out
    }

    /// The certificate these fields encode (the library's strict decoder).
    pub(crate) fn cert(&self) -> ActivationCertificate {
        ActivationCertificate::from_bytes(&self.encode()).unwrap()
    }
}

/// `LSV1` possession message fields: generation, transcript hash, sender, proof.
pub(crate) fn possession_parts(bytes: &[u8]) -> (u64, [u8; 32], u16, Vec<u8>) {
    assert_eq!(&bytes[..6], b"LSV1\x00\x01");
    (
        u64::from_be_bytes(bytes[8..16].try_into().unwrap()),
        bytes[16..48].try_into().unwrap(),
        u16::from_be_bytes([bytes[48], bytes[49]]),
        bytes[50..].to_vec(),
    )
}

/// The code of an activation refusal.
pub(crate) fn refusal(e: impl Into<quasar_pq::Error>) -> &'static str {
    e.into().code()
}

// ---------------------------------------------------------------------------------------
// Stepping parties by hand

/// What every party sent in one round.
pub(crate) type Mail = Vec<(PartyId, Outgoing)>;

/// What `to` receives of `mail` (each sender's outgoing): every other sender's broadcast
/// and the direct messages addressed to it.
pub(crate) fn inbox_for(mail: &[(PartyId, Outgoing)], to: PartyId) -> Vec<(PartyId, Vec<u8>)> {
    let mut out = Vec::new();
    for (from, o) in mail {
        if *from == to {
            continue;
        }
        if let Some(b) = &o.broadcast {
            out.push((*from, b.clone()));
        }
        for d in o.direct.iter().filter(|d| d.to == to) {
            out.push((*from, d.bytes.to_vec()));
        }
    }
    out
}

/// The inbox as the party API takes it.
pub(crate) fn incoming(v: &[(PartyId, Vec<u8>)]) -> Vec<quasar_pq::party::Incoming<'_>> {
    v.iter()
        .map(|(p, b)| quasar_pq::party::Incoming::new(*p, b))
        .collect()
}

/// Steps every party once with what the others sent last round; returns the new mail
/// (parties that finish report `Done` and stay in the map). Panics on an error.
pub(crate) fn lockstep<P: Party>(
    parties: &mut BTreeMap<PartyId, P>,
    mail: &[(PartyId, Outgoing)],
) -> (Mail, BTreeMap<PartyId, P::Output>) {
    let mut next = Vec::new();
    let mut done = BTreeMap::new();
    for (p, party) in parties.iter_mut() {
        if party.round().is_none() {
            continue;
        }
        let inbox = inbox_for(mail, *p);
        match party.step(&incoming(&inbox)) {
            Ok(quasar_pq::party::Step::Continue(o)) => next.push((*p, o)),
            Ok(quasar_pq::party::Step::Waiting) => {}
            Ok(quasar_pq::party::Step::Done(o, out)) => {
                next.push((*p, o));
                done.insert(*p, out);
            }
            Err(e) => panic!("{p}: {e}"),
        }
    }
    (next, done)
}

/// The misaddressed-reshare attack to {4, 5, 6, 7}: dealer 1 hands receivers 4 and 5 the
/// well-formed share message it made for 6 (6 gets its own).
pub(crate) fn misaddressed_reshare_tamper() -> Tamper {
    let mut for6: Option<zeroize::Zeroizing<Vec<u8>>> = None;
    let mut held: Vec<Envelope> = Vec::new();
    Box::new(move |mut e: Envelope| {
        if e.round != 0 || e.from != pid(1) || e.channel != Channel::Direct {
            return vec![e];
        }
        if e.to == pid(6) {
            for6 = Some(e.bytes.clone());
            let mut out: Vec<Envelope> = held
                .drain(..)
                .map(|mut h| {
                    h.bytes = e.bytes.clone();
                    h
                })
                .collect();
            out.push(e);
            return out;
        }
        if e.to == pid(4) || e.to == pid(5) {
            match &for6 {
                Some(b) => e.bytes = b.clone(),
                None => {
                    held.push(e);
                    return vec![];
                }
            }
        }
        vec![e]
    })
}

/// The new public data of a dealing as any observer rebuilds it from the broadcasts in
/// `log`: the sum of the deals' commitments (valid when nobody was disqualified), the
/// receivers, and the generation and transcript hash that `member`'s possession message
/// names.
pub(crate) fn observed_group<C: Group>(
    dealers: &[PartyId],
    receivers: &[PartyId],
    threshold: u16,
    mode: vss::Mode,
    log: &[Sent],
    member: PartyId,
) -> lss::GroupPublic<C> {
    use group::Group as _;
    let deals = broadcasts_with(log, 0, b"LSD1");
    let mut sum = vec![C::Point::identity(); usize::from(threshold)];
    for d in dealers {
        let m = lss::DealMessage::<C>::from_bytes(&deals[d]).unwrap();
        for (s, p) in sum.iter_mut().zip(m.commitments().points()) {
            *s += p;
        }
    }
    let (generation, transcript, from, _) = possession_parts(&broadcasts_with(log, 3, b"LSV1")[&member]);
    assert_eq!(from, member.get());
    lss::GroupPublic::new(
        vss::Commitments::from_points(mode, sum).unwrap(),
        receivers.to_vec(),
        generation,
        transcript,
    )
    .unwrap()
}
