//! The Pulsar custody lifecycle as parties: every path (setup, sign, reshare →
//! activation) run whole through `party::sim`, with peer faults injected in every phase
//! (garbage, duplicates, misaddressed messages, drops, replays from another phase) — the
//! honest parties finish and name the culprit, or fail typed with their state intact —
//! and a keyring that never erases the old share unless the activation verifies.
//!
//! Run: `cargo test --features sim,hazmat --test suite lifecycle::`.

// Helpers outside `#[test]` functions unwrap too: a panic here is a failed test
// (clippy.toml's allow-unwrap-in-tests covers only the test functions themselves).
#![allow(clippy::unwrap_used)]

use crate::common;

use std::collections::BTreeMap;

use common::sim::*;
use quasar_pq::mldsa::Mode;
use quasar_pq::party::hazmat::Cheat;
use quasar_pq::party::keyring::Keyring;
use quasar_pq::party::sim::{map_output, party_rng, Channel, Envelope, Network, Sent};
use quasar_pq::party::Blame;
use quasar_pq::pulsar::custody::lifecycle::{
    Certified, Combiner, CombinerOutcome, Member, MemberOutcome, Pending, ReshareParams, Reshared, Setup,
    SetupParams, SignParams,
};
use quasar_pq::pulsar::custody::{KeyShare, Signed};
use quasar_pq::PartyId;

/// A party's output, whatever its role.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
enum Out {
    Member(MemberOutcome),
    Combiner(CombinerOutcome),
}

impl Out {
    fn setup(self) -> Setup {
        match self {
            Out::Member(m) => m.into_setup().expect("a setup"),
            other => panic!("not a member: {other:?}"),
        }
    }
    fn certified(self) -> Certified {
        match self {
            Out::Combiner(c) => c.into_certified().expect("certified"),
            other => panic!("not the combiner: {other:?}"),
        }
    }
    fn signed(self) -> Signed {
        match self {
            Out::Combiner(c) => c.into_signed().expect("signed"),
            other => panic!("not the combiner: {other:?}"),
        }
    }
    fn reshared(self) -> Reshared {
        match self {
            Out::Member(m) => m.into_reshared().expect("reshared"),
            other => panic!("not a member: {other:?}"),
        }
    }
    /// What this party dropped.
    fn dropped(&self) -> Vec<Blame> {
        match self {
            Out::Member(MemberOutcome::Setup(s)) => s.dropped.clone(),
            Out::Member(MemberOutcome::Released(s)) => s.dropped.clone(),
            Out::Member(MemberOutcome::Reshared(r)) => r.dropped.clone(),
            Out::Combiner(CombinerOutcome::Certified(c)) => c.dropped.clone(),
            Out::Combiner(CombinerOutcome::Signed(s)) => s.blame().to_vec(),
        }
    }
}

const MODE: Mode = Mode::MlDsa44;

fn combiner() -> PartyId {
    pid(COMBINER)
}

fn setup_params(n: u16, t: u16, signers: &[PartyId]) -> SetupParams {
    SetupParams::new(sid("lifecycle setup"), MODE, &ids(1..=n), t, signers, combiner()).unwrap()
}

/// The setup path among `1..=n` and the combiner (`cheats`: members running a `hazmat`
/// misbehaviour).
fn run_setup(
    params: &SetupParams,
    cheats: &[(PartyId, Cheat)],
    tamper: Option<Tamper>,
) -> (Outcomes<Out>, Vec<Sent>) {
    let mut net = Network::new();
    for &p in params.members() {
        let mut rng = party_rng(b"setup", p);
        let (m, o) = match cheats.iter().find(|(q, _)| *q == p) {
            Some((_, cheat)) => Member::setup_cheating(p, params, *cheat, &mut rng).unwrap(),
            None => Member::setup(p, params, &mut rng).unwrap(),
        };
        net.add(map_output(m, Out::Member), o);
    }
    let (c, o) = Combiner::setup(params, &mut party_rng(b"setup", combiner()));
    net.add(map_output(c, Out::Combiner), o);
    if let Some(t) = tamper {
        net.tamper(t);
    }
    net.run_logged()
}

/// A certified group: every member's keyring and the combiner's record.
struct Group {
    keyrings: BTreeMap<PartyId, Keyring<KeyShare>>,
    record: Certified,
}

fn group(n: u16, t: u16) -> Group {
    let params = setup_params(n, t, &ids(1..=t));
    let (mut out, _) = run_setup(&params, &[], None);
    let record = out.remove(&combiner()).unwrap().unwrap().certified();
    let keyrings = out
        .into_iter()
        .map(|(p, o)| (p, Keyring::new(o.unwrap().setup().key_share)))
        .collect();
    Group { keyrings, record }
}

/// The sign path: `signers` of `group` sign `msg`.
fn run_sign(
    keyrings: &BTreeMap<PartyId, Keyring<KeyShare>>,
    record: (
        &quasar_pq::pulsar::custody::GroupKey,
        &quasar_pq::lss::GroupPublic<R>,
    ),
    signers: &[PartyId],
    msg: &[u8],
    cheats: &[(PartyId, Cheat)],
    tamper: Option<Tamper>,
) -> (Outcomes<Out>, Vec<Sent>) {
    let params = SignParams::new(sid(&format!("sign {msg:?}")), signers, msg, b"ctx", combiner()).unwrap();
    let mut net = Network::new();
    let (c, o) = Combiner::sign(&params, record.0, record.1, &mut party_rng(b"sign", combiner())).unwrap();
    net.add(map_output(c, Out::Combiner), o);
    for &p in signers {
        let share = keyrings[&p].current().unwrap();
        let mut rng = party_rng(b"sign", p);
        let (m, o) = match cheats.iter().find(|(q, _)| *q == p) {
            Some((_, cheat)) => Member::sign_cheating(share, &params, *cheat, &mut rng).unwrap(),
            None => Member::sign(share, &params, &mut rng).unwrap(),
        };
        net.add(map_output(m, Out::Member), o);
    }
    if let Some(t) = tamper {
        net.tamper(t);
    }
    net.run_logged()
}

/// Every honest party finished; the honest parties are never named; `culprit` is named
/// with `code` by at least one of them.
fn check_named(out: &Outcomes<Out>, culprit: PartyId, code: &str, what: &str) {
    let mut seen = false;
    for (p, o) in out {
        // The culprit's own run saw other messages than it sent: not checked.
        if *p == culprit {
            continue;
        }
        let o = o.as_ref().unwrap_or_else(|e| panic!("{what}: {p} failed: {e}"));
        for b in o.dropped() {
            assert_eq!(b.party, culprit, "{what}: {p} named an honest party: {b}");
            seen |= b.reason.code() == code;
        }
    }
    assert!(seen, "{what}: nobody named {culprit} for {code}");
}

// ---------------------------------------------------------------------------------------
// Whole paths

#[test]
fn pulsar_setup_sign_and_reshare_run_whole_as_parties() {
    let g = group(4, 2);
    let key = &g.record.group_key;
    for (p, k) in &g.keyrings {
        let share = k.current().unwrap();
        assert_eq!(share.id(), *p);
        assert_eq!(
            share.group_key(),
            key,
            "every member holds the combiner's certified key"
        );
        assert_eq!(share.generation(), 0);
    }
    // Sign with members 2 and 4.
    let (mut out, _) = run_sign(
        &g.keyrings,
        (key, &g.record.public),
        &ids([2, 4]),
        b"block 1",
        &[],
        None,
    );
    let signed = out.remove(&combiner()).unwrap().unwrap().signed();
    check_mldsa(MODE, key.public_key(), b"block 1", b"ctx", signed.signature());
    assert!(out.values().all(|o| o.is_ok()));

    // Reshare to {3, 4, 5, 6} with threshold 3, dealt by 1, 2, 3.
    let params = ReshareParams::reshare(
        sid("lifecycle reshare"),
        key,
        &g.record.public,
        &ids(1..=3),
        &ids(3..=6),
        3,
    )
    .unwrap();
    let mut keyrings = g.keyrings;
    let mut net = Network::new();
    for p in params.participants() {
        let mut keyring = keyrings.remove(&p).unwrap_or_default();
        let (m, o) = Member::reshare(p, &mut keyring, &params, &mut party_rng(b"reshare", p)).unwrap();
        assert!(keyring.current().is_none(), "the keyring moved into the party");
        net.add(map_output(m, Out::Member), o);
    }
    let mut after = BTreeMap::new();
    let mut public = None;
    for (p, o) in net.run() {
        let r = o.unwrap().reshared();
        let activated = r.activated.as_ref().unwrap();
        assert_eq!(activated.generation(), 1);
        assert!(r.dropped.is_empty() && r.blame.is_empty());
        assert_eq!(activated.member(), (3..=6).contains(&p.get()), "{p}");
        assert_eq!(activated.erased(), (p.get() <= 4).then_some(0), "{p}");
        assert_eq!(r.keyring.pending_generation(), None);
        public = Some(r.public.clone());
        if let Some(share) = r.keyring.current() {
            assert_eq!(share.generation(), 1);
            assert_eq!(
                share.group_key().public_key(),
                key.public_key(),
                "the key never changes"
            );
        }
        after.insert(p, r.keyring);
    }
    assert!(
        after[&pid(1)].current().is_none(),
        "a member that left holds nothing"
    );
    let new_key = after[&pid(3)].current().unwrap().group_key().clone();
    let (mut out, _) = run_sign(
        &after,
        (&new_key, &public.unwrap()),
        &ids([4, 5, 6]),
        b"block 2",
        &[],
        None,
    );
    let signed = out.remove(&combiner()).unwrap().unwrap().signed();
    check_mldsa(MODE, key.public_key(), b"block 2", b"ctx", signed.signature());
}

// ---------------------------------------------------------------------------------------
// Peer faults in every phase of the setup path

/// Where the culprit's message is changed.
#[derive(Debug, Clone, Copy)]
enum Tampering {
    Garbage,
    Duplicate,
    Misaddress(PartyId),
    Drop,
    /// The culprit's round-0 deal replayed in this round (another phase's message).
    ForeignPhase,
}

/// Tampers with what `f` sends in `round` (every copy).
fn tamper_round(f: PartyId, round: u32, how: Tampering, log: &[Sent]) -> Tamper {
    let deal = broadcast_of(log, f, 0).unwrap_or_default();
    let mut injected = false;
    let everyone: Vec<PartyId> = log.iter().map(|s| s.from).collect();
    Box::new(move |mut e: Envelope| {
        if e.round == round && !injected {
            if let Tampering::ForeignPhase = how {
                injected = true;
                let mut out = vec![e];
                for &to in everyone.iter().filter(|&&p| p != f) {
                    out.push(Envelope {
                        round,
                        from: f,
                        to,
                        channel: Channel::Broadcast,
                        bytes: deal.clone().into(),
                    });
                }
                out.sort_by_key(|x| x.to);
                out.dedup_by_key(|x| (x.to, x.bytes.to_vec()));
                return out;
            }
        }
        if e.from != f || e.round != round {
            return vec![e];
        }
        match how {
            Tampering::Garbage => {
                e.bytes = junk(e.bytes.len(), "garbage").into();
                vec![e]
            }
            Tampering::Duplicate => vec![e.clone(), e],
            // A private message handed to another party than its addressee.
            Tampering::Misaddress(to) if e.channel == Channel::Direct && e.to != to => {
                e.to = to;
                vec![e]
            }
            Tampering::Misaddress(_) => vec![e],
            Tampering::Drop => vec![],
            Tampering::ForeignPhase => vec![e],
        }
    })
}

#[test]
fn pulsar_setup_names_every_peer_fault_in_every_phase() {
    // 4 members, t = 2, signers {1, 2, 3}: one signer's release can be lost.
    let params = setup_params(4, 2, &ids(1..=3));
    let (clean, log) = run_setup(&params, &[], None);
    assert!(clean.values().all(|o| o.is_ok()));
    let rounds = log.iter().map(|s| s.round).max().unwrap();
    // Every round in which a member or the combiner sends something.
    let mut cases = 0;
    for round in 0..=rounds {
        for s in log.iter().filter(|s| s.round == round && !s.outgoing.is_empty()) {
            let f = s.from;
            let other = if f == pid(4) { pid(1) } else { pid(4) };
            for how in [
                Tampering::Garbage,
                Tampering::Duplicate,
                Tampering::ForeignPhase,
                Tampering::Misaddress(other),
            ] {
                // The combiner's own messages are not tampered with here (members only
                // wait for it); its faults are checked on the sign path.
                if f == combiner() && !matches!(how, Tampering::Duplicate) {
                    continue;
                }
                if round == 0 && matches!(how, Tampering::ForeignPhase) {
                    continue;
                }
                let what = format!("{f} round {round} {how:?}");
                let (out, _) = run_setup(&params, &[], Some(tamper_round(f, round, how, &log)));
                let code = match how {
                    Tampering::Garbage => "MALFORMED_MESSAGE",
                    Tampering::Duplicate => "DUPLICATE_MESSAGE",
                    Tampering::ForeignPhase => "WRONG_KIND",
                    Tampering::Misaddress(_) => "",
                    Tampering::Drop => "",
                };
                let sends_direct = !s.outgoing.direct.is_empty();
                // An envelope (PCR2) is attributed by its commitment, never by who
                // delivers it: a copy or a damaged one is not evidence against anyone
                // (`custody::CombinerParty`), so the run just completes.
                let envelope = s.outgoing.direct.iter().any(|d| d.bytes.starts_with(b"PCR2"));
                if envelope && matches!(how, Tampering::Duplicate | Tampering::Garbage) {
                    assert!(out.values().all(|o| o.is_ok()), "{what}");
                    continue;
                }
                if code.is_empty() {
                    // A misaddressed private message is dropped by the party it reached.
                    if sends_direct {
                        let named = out
                            .values()
                            .filter_map(|o| o.as_ref().ok())
                            .any(|o| o.dropped().iter().any(|b| b.party == f));
                        assert!(named, "{what}: nobody named {f}: {out:?}");
                    }
                    continue;
                }
                // A garbage broadcast in the DKG also makes its dealer a missing deal.
                let ok = out.iter().all(|(p, o)| *p == f || o.is_ok());
                if !ok {
                    // Too few honest parties left in some phase: a typed failure.
                    for o in out.values() {
                        if let Err(e) = o {
                            assert!(!e.code().is_empty(), "{what}");
                        }
                    }
                    continue;
                }
                check_named(&out, f, code, &what);
                cases += 1;
            }
        }
    }
    assert!(cases >= 12, "{cases} cases ran");
}

#[test]
fn pulsar_setup_survives_a_lost_sharing_report_and_a_lost_release() {
    let params = setup_params(4, 2, &ids(1..=3));
    let (_, log) = run_setup(&params, &[], None);
    // Member 4's report (round 3, to the combiner) lost: the others' suffice.
    let (out, _) = run_setup(&params, &[], Some(tamper_round(pid(4), 3, Tampering::Drop, &log)));
    assert!(out.values().all(|o| o.is_ok()), "{out:?}");
    // Signer 3's envelope lost: the combiner rebuilds from 1 and 2.
    let release = log
        .iter()
        .find(|s| s.from == pid(3) && s.outgoing.direct.iter().any(|d| d.bytes.starts_with(b"PCR2")))
        .unwrap()
        .round;
    let (mut out, _) = run_setup(
        &params,
        &[],
        Some(tamper_round(pid(3), release, Tampering::Drop, &log)),
    );
    let record = out.remove(&combiner()).unwrap().unwrap().certified();
    assert_eq!(record.announcement.signers(), &ids([1, 2])[..]);
    assert!(out.values().all(|o| o.is_ok()));
}

#[test]
fn pulsar_setup_blames_a_cheating_dealer_and_still_makes_the_key() {
    let params = setup_params(4, 2, &ids([1, 2]));
    let (mut out, _) = run_setup(&params, &[(pid(3), Cheat::BadShares)], None);
    out.remove(&combiner()).unwrap().unwrap().certified();
    for (p, o) in out {
        let s = o.unwrap().setup();
        if p != pid(3) {
            assert_eq!(codes(&s.blame), vec![(pid(3), "INVALID_OPENING")], "{p}");
            assert!(!s.qualified.contains(&pid(3)));
        }
    }
}

// ---------------------------------------------------------------------------------------
// The sign path: the session is a message, checked before anything is released

#[test]
fn pulsar_signers_refuse_a_session_for_another_message() {
    let g = group(3, 2);
    let key = &g.record.group_key;
    // The combiner's session broadcast replaced by one for another message: every
    // signer drops it and names the combiner, and releases nothing.
    let other_params = SignParams::new(sid("sign [98]"), &ids([1, 2]), b"other", b"ctx", combiner()).unwrap();
    let (_, other) = Combiner::sign(
        &other_params,
        key,
        &g.record.public,
        &mut party_rng(b"x", combiner()),
    )
    .unwrap();
    let other = other.broadcast.unwrap();
    let tamper: Tamper = Box::new(move |mut e: Envelope| {
        if e.from == pid(COMBINER) && e.round == 0 {
            e.bytes = other.clone().into();
        }
        vec![e]
    });
    let (out, log) = run_sign(
        &g.keyrings,
        (key, &g.record.public),
        &ids([1, 2]),
        b"b",
        &[],
        Some(tamper),
    );
    for p in ids([1, 2]) {
        assert_eq!(
            out[&p].as_ref().unwrap_err().code(),
            "MISSING_MESSAGE",
            "{p} keeps waiting"
        );
        assert!(
            log.iter().filter(|s| s.from == p).all(|s| s.outgoing.is_empty()),
            "{p} sent nothing"
        );
    }
}

#[test]
fn pulsar_sign_path_names_a_bad_contribution() {
    let g = group(3, 2);
    let key = &g.record.group_key;
    let (mut out, _) = run_sign(
        &g.keyrings,
        (key, &g.record.public),
        &ids(1..=3),
        b"b",
        &[(pid(2), Cheat::BadContribution)],
        None,
    );
    let signed = out.remove(&combiner()).unwrap().unwrap().signed();
    assert_eq!(codes(signed.blame()), vec![(pid(2), "INVALID_SHARE")]);
    assert_eq!(signed.signers(), &ids([1, 3])[..]);
    check_mldsa(MODE, key.public_key(), b"b", b"ctx", signed.signature());
}

#[test]
fn pulsar_sign_path_drops_replays_from_another_phase() {
    let g = group(3, 2);
    let key = &g.record.group_key;
    let (_, log) = run_sign(&g.keyrings, (key, &g.record.public), &ids(1..=3), b"b", &[], None);
    // Signer 3's round-1 commitment replayed into round 2 (the release is over by then)
    // and its envelope cut short.
    let commit = broadcast_of(&log, pid(3), 1).unwrap();
    let tamper: Tamper = Box::new(move |mut e: Envelope| {
        if e.from == pid(3) && e.round == 2 {
            e.bytes.pop();
            let replay = Envelope {
                channel: Channel::Broadcast,
                bytes: commit.clone().into(),
                ..e.clone()
            };
            return vec![e, replay];
        }
        vec![e]
    });
    let (mut out, _) = run_sign(
        &g.keyrings,
        (key, &g.record.public),
        &ids(1..=3),
        b"b",
        &[],
        Some(tamper),
    );
    let signed = out.remove(&combiner()).unwrap().unwrap().signed();
    assert_eq!(signed.signers(), &ids([1, 2])[..]);
    assert_eq!(
        signed.missing(),
        &ids([3])[..],
        "the cut envelope is not attributed"
    );
}

// ---------------------------------------------------------------------------------------
// Reshare → activation: the keyring

fn reshare_params(g: &Group) -> ReshareParams {
    ReshareParams::reshare(
        sid("keyring reshare"),
        &g.record.group_key,
        &g.record.public,
        &ids(1..=3),
        &ids(2..=5),
        3,
    )
    .unwrap()
}

#[test]
fn a_reshare_whose_activation_fails_never_erases_the_old_share() {
    let g = group(3, 2);
    let params = reshare_params(&g);
    let mut keyrings = g.keyrings;
    let mut parties = BTreeMap::new();
    let mut mail = Vec::new();
    for p in params.participants() {
        let mut keyring = keyrings.remove(&p).unwrap_or_default();
        let (m, o) = Member::reshare(p, &mut keyring, &params, &mut party_rng(b"r", p)).unwrap();
        parties.insert(p, m);
        mail.push((p, o));
    }
    // Every proof of possession lost: nobody can activate. Stepped by hand to keep the
    // parties after they fail.
    let mut failed = BTreeMap::new();
    for _round in 0..8 {
        let sent = core::mem::take(&mut mail);
        for (p, m) in parties.iter_mut() {
            if failed.contains_key(p) {
                continue;
            }
            let inbox: Vec<(PartyId, Vec<u8>)> = inbox_for(&sent, *p)
                .into_iter()
                .filter(|(_, b)| !b.starts_with(b"LSV1"))
                .collect();
            match quasar_pq::party::Party::step(m, &incoming(&inbox)) {
                Ok(quasar_pq::party::Step::Continue(o)) => mail.push((*p, o)),
                Ok(quasar_pq::party::Step::Waiting) => {}
                Ok(quasar_pq::party::Step::Done(..)) => panic!("{p} activated without proofs"),
                Err(e) => {
                    failed.insert(*p, e.code());
                }
            }
        }
    }
    assert_eq!(failed.len(), params.participants().len());
    for (p, code) in &failed {
        assert_eq!(*code, "NOT_ENOUGH_POSSESSION_PROOFS", "{p}");
    }
    for (p, m) in parties {
        let keyring = m.into_keyring().unwrap();
        assert_eq!(keyring.pending_generation(), None, "{p}: nothing staged");
        if p.get() <= 3 {
            assert_eq!(
                keyring.generation(),
                Some(0),
                "{p}: the old share is still current"
            );
        } else {
            assert!(keyring.current().is_none());
        }
    }
}

#[test]
fn a_keyring_erases_the_old_share_only_for_the_new_generations_certificate() {
    let g = group(3, 2);
    let params = reshare_params(&g);
    // The dealing run by the expert parties; member 2 stages its new share by hand.
    let old: BTreeMap<PartyId, LssShare> = g
        .keyrings
        .iter()
        .map(|(p, k)| (*p, copy_share(k.current().unwrap().lss())))
        .collect();
    let (out, _) = lss_deal(params.ceremony(), &old, &[], None, "keyring by hand");
    let mut out = out;
    let o2 = out.remove(&pid(2)).unwrap().unwrap();
    let new_certificate = o2.activation.clone().unwrap();
    let mut keyring = g.keyrings.into_iter().find(|(p, _)| *p == pid(2)).unwrap().1;
    keyring
        .stage(Pending::new(
            o2.key_share,
            o2.public.clone(),
            g.record.group_key.clone(),
        ))
        .unwrap();
    // The old generation's certificate (made by the old set) does not activate it.
    let e = keyring.activate(g.record.group_key.certificate()).unwrap_err();
    assert!(e.code().starts_with("ACTIVATION_"), "{}", e.code());
    assert_eq!(keyring.generation(), Some(0), "the old share is still current");
    assert_eq!(keyring.pending_generation(), Some(1), "the new one still pending");
    // A certificate of another member's view forged by dropping members: refused too.
    let mut short = Lsa2::of(&new_certificate);
    short.proofs.truncate(1);
    assert!(keyring.activate(&short.cert()).is_err());
    assert_eq!(keyring.generation(), Some(0));
    // The new generation's own certificate: activated, the old share erased.
    let done = keyring.activate(&new_certificate).unwrap();
    assert_eq!(
        (done.generation(), done.erased(), done.member()),
        (1, Some(0), true)
    );
    assert_eq!(keyring.generation(), Some(1));
    assert_eq!(keyring.pending_generation(), None);
    assert_eq!(
        keyring.activate(&new_certificate).unwrap_err().code(),
        "NOTHING_PENDING"
    );
    // A stale generation is never staged over a newer current one.
    let e = keyring
        .stage(Pending::new(
            None,
            g.record.public.clone(),
            g.record.group_key.clone(),
        ))
        .unwrap_err();
    assert_eq!(e.code(), "STALE_PENDING_GENERATION");
}

/// A member restarted from storage resumes with exactly its keyring across a reshare:
/// its old share and its pending generation are both stored and reload byte for byte; a
/// refused activation leaves the old share loadable; the verified one's receipt erases it
/// from disk (not a 32-byte run of its sealed file is left), and the member resumes with
/// the new generation alone.
#[test]
fn a_stored_keyring_resumes_across_a_reshare_and_loses_its_old_share_only_on_activation() {
    use quasar_pq::keystore::{Metadata, SnapshotKey, SnapshotStore};
    use rand_chacha::rand_core::SeedableRng;

    let g = group(3, 2);
    let params = reshare_params(&g);
    let old: BTreeMap<PartyId, LssShare> = g
        .keyrings
        .iter()
        .map(|(p, k)| (*p, copy_share(k.current().unwrap().lss())))
        .collect();
    let (mut out, _) = lss_deal(params.ceremony(), &old, &[], None, "keyring at rest");
    let o2 = out.remove(&pid(2)).unwrap().unwrap();
    let new_certificate = o2.activation.clone().unwrap();
    let mut keyring = g.keyrings.into_iter().find(|(p, _)| *p == pid(2)).unwrap().1;

    let dir = tempfile::tempdir().unwrap();
    let key = || SnapshotKey::from_bytes(&[0x42; 32]);
    let meta = Metadata::new("pulsar", g.record.group_key.commitment(), 0, 2, pid(2), 0).unwrap();
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
    let mut store = SnapshotStore::open(dir.path(), key()).unwrap();
    store.save_keyring(&keyring, &meta, &mut rng).unwrap();
    keyring
        .stage(Pending::new(
            o2.key_share,
            o2.public.clone(),
            g.record.group_key.clone(),
        ))
        .unwrap();
    store.save_keyring(&keyring, &meta, &mut rng).unwrap();
    let old_bytes = keyring.current().unwrap().to_bytes();
    let old_file = std::fs::read(dir.path().join(format!("gen-{:020}.qsnp", 0))).unwrap();
    drop((store, keyring));

    // Restarted: the same keyring.
    let mut store = SnapshotStore::open(dir.path(), key()).unwrap();
    let mut keyring = store.load_keyring::<KeyShare>().unwrap();
    assert_eq!(keyring.generation(), Some(0));
    assert_eq!(keyring.pending_generation(), Some(1));
    assert_eq!(keyring.current().unwrap().to_bytes(), old_bytes);
    assert_eq!(keyring.pending().unwrap().public(), &o2.public);

    // The old generation's certificate does not activate it: nothing changes anywhere.
    assert!(keyring.activate(g.record.group_key.certificate()).is_err());
    assert_eq!(store.generations().unwrap(), vec![0, 1]);
    let again = SnapshotStore::open(dir.path(), key())
        .unwrap()
        .load_keyring::<KeyShare>()
        .unwrap();
    assert_eq!(
        again.current().unwrap().to_bytes(),
        old_bytes,
        "the old share still loads"
    );
    assert_eq!(again.pending_generation(), Some(1));

    // The new generation's certificate: the receipt erases the old share on disk.
    let receipt = keyring.activate(&new_certificate).unwrap();
    store.activate(&keyring, &receipt, &meta, &mut rng).unwrap();
    assert_eq!(store.generations().unwrap(), vec![1]);
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        for chunk in old_file.chunks(32).filter(|c| c.len() == 32).skip(4) {
            assert!(
                !bytes.windows(32).any(|w| w == chunk),
                "part of the old share's file is on disk"
            );
        }
    }
    let new_bytes = keyring.current().unwrap().to_bytes();
    drop((store, keyring));
    let mut store = SnapshotStore::open(dir.path(), key()).unwrap();
    let keyring = store.load_keyring::<KeyShare>().unwrap();
    assert_eq!(keyring.generation(), Some(1));
    assert_eq!(keyring.pending_generation(), None);
    assert_eq!(keyring.current().unwrap().to_bytes(), new_bytes);
}
