//! Pulsar custody through the library's parties on the simulator: the key ceremony and
//! the certified group key, signing with standard FIPS 204 output checked by the peer
//! ML-DSA implementations, every peer fault in signing and in resharing, blame
//! only on evidence (an envelope altered in transit never gets an honest signer blamed),
//! the `hazmat` cheats, parties keeping their state on error, resharing with the key
//! byte-identical and generations never mixed, strict decoders, and activation
//! certificates the old set cannot make, forged group keys refused, reserved contexts.
//!
//! Run: `cargo test --features sim,hazmat --test suite pulsar_custody::`.

// Helpers outside `#[test]` functions unwrap too: a panic here is a failed test
// (clippy.toml's allow-unwrap-in-tests covers only the test functions themselves).
#![allow(clippy::unwrap_used)]

use crate::common;

use std::collections::BTreeMap;

use common::sim::*;
use quasar_pq::lss::{
    self, ActivationCertificate, ActivationFault, ActivationKind, ActivationParty, Ceremony,
};
use quasar_pq::mldsa::{self, Mode};
use quasar_pq::party::hazmat::Cheat;
use quasar_pq::party::sim::{map_output, party_rng, Envelope, Network};
use quasar_pq::party::{Party, Step};
use quasar_pq::pulsar::custody::{
    self, hazmat, CombinerKey, CombinerParty, CombinerPublicKey, GroupKey, GroupKeyAnnouncement, KeyShare,
    Round1Message, Round2Message, Session, Signed, SignerParty, ACTIVATION_CONTEXT, CEREMONY_CONTEXT,
};
use quasar_pq::pulsar::frame::{GroupKeyFrame, SignatureFrame};
use quasar_pq::pulsar::Error;
use quasar_pq::vss;
use quasar_pq::{wire, PartyId};

// ---------------------------------------------------------------------------------------
// Helpers

fn combiner_id() -> PartyId {
    pid(COMBINER)
}

fn signed_of(out: &Outcomes<PulsarOut>) -> &Signed {
    out[&combiner_id()]
        .as_ref()
        .unwrap_or_else(|e| panic!("combiner: {e}"))
        .signed()
}

/// A copy of a combiner key (a combiner party consumes its key).
fn copy_key(key: &CombinerKey) -> CombinerKey {
    CombinerKey::from_bytes(&key.to_bytes()).unwrap()
}

/// A signing session of `group` by `signers` with a fresh combiner key.
fn sign_session(group: &PulsarGroup, signers: &[PartyId], msg: &[u8], label: &str) -> (Session, CombinerKey) {
    let key = combiner_key(label);
    let s = Session::sign(
        sid(label),
        &group.key,
        &group.public,
        signers,
        key.public_key(),
        msg,
        b"",
    )
    .unwrap();
    (s, key)
}

/// The next generation of `group` after a dealing `c` (refresh or reshare bound to the
/// group key) ran without faults: every participant agrees and holds the same
/// certificate, which verifies for the new generation; the group key record is
/// re-certified, the ML-DSA key byte-identical, and exactly `t_new` new members sign.
fn next_generation(group: &PulsarGroup, c: &Ceremony<R>, label: &str) -> PulsarGroup {
    advance(group, c, label).0
}

/// As [`next_generation`], also returning the dealing's log.
fn advance(
    group: &PulsarGroup,
    c: &Ceremony<R>,
    label: &str,
) -> (PulsarGroup, Vec<quasar_pq::party::sim::Sent>) {
    let (out, log) = lss_deal(c, &group.old(), &[], None, label);
    let roles = Roles::of(c);
    let honest = check_plan(&Plan::clean(), &out, &roles, label);
    let first = honest.values().next().unwrap();
    let public = first.public.clone();
    let cert = first.activation.clone().unwrap();
    drop(honest);
    assert_eq!(public.generation(), group.public.generation() + 1);
    assert_eq!(
        public.group_commitment_bytes(),
        group.public.group_commitment_bytes()
    );
    custody::verify_activation(
        &public,
        &group.key,
        public.generation(),
        public.transcript_hash(),
        &cert,
    )
    .unwrap();
    assert!(custody::verify_activation(
        &group.public,
        &group.key,
        public.generation(),
        public.transcript_hash(),
        &cert
    )
    .is_err());
    assert_eq!(cert.kind(), ActivationKind::Pulsar);
    assert_eq!(cert.key(), group.key.scheme_key());
    let key = group.key.reactivated(&public, cert).unwrap();
    assert_eq!(key.public_key(), group.key.public_key());
    assert_eq!(key.generation(), public.generation());
    assert!(KeyShare::new(
        copy_share(group.shares.values().next().unwrap().lss()),
        key.clone()
    )
    .is_err());
    let shares: BTreeMap<PartyId, KeyShare> = lss_shares(out)
        .into_iter()
        .map(|(p, s)| (p, KeyShare::new(s, key.clone()).unwrap()))
        .collect();
    assert_eq!(shares.len(), c.receivers().len());
    let next = PulsarGroup {
        public,
        announced: group.announced.clone(),
        key,
        shares,
    };
    let t = usize::from(next.public.threshold());
    let parties = next.public.parties().to_vec();
    pulsar_sign(
        &next,
        &parties[parties.len() - t..],
        b"after resharing",
        b"",
        &format!("{label} sign"),
    );
    (next, log)
}

// ---------------------------------------------------------------------------------------
// Key ceremony, signing, standard verification

#[test]
fn ceremony_sign_and_verify_with_plain_mldsa() {
    let cases = [
        (Mode::MlDsa65, 2, 3),
        (Mode::MlDsa65, 3, 5),
        (Mode::MlDsa44, 2, 3),
        (Mode::MlDsa87, 2, 3),
        (Mode::MlDsa44, 1, 3),
        (Mode::MlDsa44, 4, 4),
    ];
    for (mode, t, n) in cases {
        let label = format!("ceremony {mode:?} {t} {n}");
        let g = pulsar_group(mode, n, t, &label);
        assert!(g.public.group_key().is_none(), "Pedersen mode publishes no x·G");
        assert_eq!(g.key.mode(), mode);
        assert_eq!(g.key.public_key().len(), mode.public_key_len());
        assert_eq!(g.key.generation(), 0);
        for signers in [ids(n - t + 1..=n), ids(1..=n)] {
            let msg = format!("block {t}-of-{n}");
            let signed = pulsar_sign(&g, &signers, msg.as_bytes(), b"ctx", &label);
            assert_eq!(signed.signature().len(), mode.signature_len());
            assert_eq!(signed.signers().len(), usize::from(t));
            assert!(signed.missing().is_empty() && signed.unattributed() == 0);
            let frame = signed.to_frame();
            assert_eq!(
                SignatureFrame::decode(&frame).unwrap().signature,
                signed.signature()
            );
            g.key.verify_frame(msg.as_bytes(), b"ctx", &frame).unwrap();
            let pulg = g.key.frame();
            assert!(GroupKeyFrame::decode(&pulg)
                .unwrap()
                .verify(msg.as_bytes(), b"ctx", &frame));
        }
        let (p, share) = g.shares.iter().next().unwrap();
        let back = KeyShare::from_bytes(&share.to_bytes()).unwrap();
        assert_eq!((back.id(), back.group_key()), (*p, &g.key));
        assert!(format!("{share:?}").contains("redacted"));
        assert_eq!(GroupKey::from_bytes(&g.key.to_bytes(), &g.public).unwrap(), g.key);
    }
}

/// Runs a session whose combiner signs deterministically.
fn deterministic(group: &PulsarGroup, signers: &[PartyId], msg: &[u8], label: &str) -> Signed {
    let (session, key) = sign_session(group, signers, msg, label);
    let mut net = Network::new();
    let (c, o) = CombinerParty::start_deterministic(key, &session).unwrap();
    net.add(map_output(c, PulsarOut::Combiner), o);
    for s in group.lss(signers) {
        let (p, o) = SignerParty::start(s, &session, &mut party_rng(label.as_bytes(), s.id())).unwrap();
        net.add(map_output(p, PulsarOut::Signer), o);
    }
    net.run()[&combiner_id()].as_ref().unwrap().signed().clone()
}

#[test]
fn deterministic_signing_is_fips204_under_the_rebuilt_key() {
    for mode in Mode::ALL {
        let g = pulsar_group(mode, 5, 3, &format!("deterministic {mode:?}"));
        // Rebuild x the way only a test may, and derive the key independently.
        let three: Vec<&LssShare> = g.lss(&ids(1..=3));
        let (x, _) = reconstruct(&three);
        let seed = hazmat::derive_seed(mode, &x);
        let (pk, sk) = mldsa::keygen(mode, &seed);
        assert_eq!(pk, g.key.public_key());
        let msg = b"deterministic";
        let expected = mldsa::sign(mode, &sk, msg, b"", None).unwrap();
        for signers in [ids([1, 2, 3]), ids([2, 4, 5]), ids(1..=5)] {
            assert_eq!(deterministic(&g, &signers, msg, "det").signature(), &expected[..]);
        }
        let a = pulsar_sign(&g, &ids([1, 2, 3]), msg, b"", "hedged a");
        let b = pulsar_sign(&g, &ids([1, 2, 3]), msg, b"", "hedged b");
        assert_ne!(a.signature(), b.signature());
        assert_ne!(a.signature(), &expected[..]);
    }
}

// ---------------------------------------------------------------------------------------
// Resharing and activation

#[test]
fn resharing_keeps_the_group_key_and_activates() {
    let g0 = pulsar_group(Mode::MlDsa65, 7, 5, "resharing");
    let pk = g0.key.public_key().to_vec();
    let c = custody::refresh(sid("refresh"), &g0.key, &g0.public, &ids(1..=7)).unwrap();
    let g1 = next_generation(&g0, &c, "refresh");
    let c = custody::reshare(
        sid("new set"),
        &g1.key,
        &g1.public,
        &ids(1..=5),
        &ids(101..=107),
        5,
    )
    .unwrap();
    let g2 = next_generation(&g1, &c, "new set");
    let c = custody::reshare(
        sid("expand"),
        &g2.key,
        &g2.public,
        &ids(101..=107),
        &ids(201..=221),
        14,
    )
    .unwrap();
    let g3 = next_generation(&g2, &c, "expand");
    let c = custody::reshare(
        sid("contract"),
        &g3.key,
        &g3.public,
        &ids(201..=214),
        &ids(301..=307),
        5,
    )
    .unwrap();
    let g4 = next_generation(&g3, &c, "contract");
    let c = custody::reshare(
        sid("up"),
        &g4.key,
        &g4.public,
        &ids(301..=305),
        &ids(301..=307),
        7,
    )
    .unwrap();
    let g5 = next_generation(&g4, &c, "up");
    let c = custody::reshare(
        sid("down"),
        &g5.key,
        &g5.public,
        &ids(301..=307),
        &ids(301..=307),
        2,
    )
    .unwrap();
    let g6 = next_generation(&g5, &c, "down");
    assert_eq!(g6.public.generation(), 6);
    assert_eq!(g6.key.public_key(), &pk[..]);
    // Old-generation shares are refused, never mixed in.
    let old = g5.shares[&pid(301)].lss();
    let (session, _) = sign_session(&g6, &ids([301, 302]), b"m", "mix");
    let e = SignerParty::start(old, &session, &mut party_rng(b"mix", pid(301))).unwrap_err();
    assert_eq!(e, Error::GenerationMismatch { expected: 6, got: 5 });
    assert_eq!(e.code(), "WRONG_GENERATION");
    // A session of the old generation cannot be built from the new record.
    let key = combiner_key("stale");
    assert!(Session::sign(
        [0; 32],
        &g6.key,
        &g5.public,
        &ids([301, 302]),
        key.public_key(),
        b"m",
        b""
    )
    .is_err());
}

/// Every old party's outcome of a reshare carries the same certificate as the new
/// members', and it verifies with `verify_activation(new public, generation, transcript)`.
#[test]
fn every_old_party_holds_the_new_members_certificate() {
    let g = pulsar_group(Mode::MlDsa44, 3, 2, "same cert");
    let c = custody::reshare(sid("same cert"), &g.key, &g.public, &ids(1..=3), &ids(4..=7), 3).unwrap();
    let (out, _) = lss_deal(&c, &g.old(), &[], None, "same cert");
    let o4 = out[&pid(4)].as_ref().unwrap();
    let cert = o4.activation.clone().unwrap();
    for p in ids(1..=7) {
        let o = out[&p].as_ref().unwrap();
        assert_eq!(o.activation.as_ref(), Some(&cert), "{p}");
        assert_eq!(o.key_share.is_none(), p.get() <= 3);
    }
    custody::verify_activation(&o4.public, &g.key, 1, o4.public.transcript_hash(), &cert).unwrap();
    assert_eq!(cert.members(), ids(4..=7));
}

// ---------------------------------------------------------------------------------------
// Every peer fault in a signing session

/// A group at generation 1 (the ceremony, then a refresh), with its generation-0 record.
fn generation_one(mode: Mode, label: &str) -> (PulsarGroup, PulsarGroup) {
    let g0 = pulsar_group(mode, 4, 2, label);
    let c = custody::refresh(sid(&format!("{label} refresh")), &g0.key, &g0.public, &ids(1..=4)).unwrap();
    let g1 = next_generation(&g0, &c, &format!("{label} refresh"));
    (g0, g1)
}

/// The commitment (`PCR1`) `share`'s owner broadcasts at the start of `session`.
fn round1_of(share: &LssShare, session: &Session) -> Vec<u8> {
    let (_, o) = SignerParty::start(share, session, &mut party_rng(b"replay", share.id())).unwrap();
    o.broadcast.unwrap()
}

#[test]
fn peer_faults_in_signing() {
    let (g0, g1) = generation_one(Mode::MlDsa44, "signing faults");
    let f = pid(2);
    let signers = ids(1..=3);
    let msg = b"fault".to_vec();
    let id = sid("signing faults session");
    let key = combiner_key("signing faults");
    let session = Session::sign(id, &g1.key, &g1.public, &signers, key.public_key(), &msg, b"").unwrap();
    // What F could send instead of its commitment.
    let other_combiner = CombinerKey::generate(pid(COMBINER + 1), &mut party_rng(b"other", pid(1)));
    let to_other = Session::sign(
        id,
        &g1.key,
        &g1.public,
        &signers,
        other_combiner.public_key(),
        &msg,
        b"",
    )
    .unwrap();
    let other_id = Session::sign(
        sid("another id"),
        &g1.key,
        &g1.public,
        &signers,
        key.public_key(),
        &msg,
        b"",
    )
    .unwrap();
    let old_gen = Session::sign(id, &g0.key, &g0.public, &signers, key.public_key(), &msg, b"").unwrap();
    let ceremony = Session::key_ceremony(id, Mode::MlDsa44, &g1.public, &signers, key.public_key()).unwrap();
    let other_message = Session::sign(
        id,
        &g1.key,
        &g1.public,
        &signers,
        key.public_key(),
        b"another message",
        b"",
    )
    .unwrap();
    let misaddressed = round1_of(g1.shares[&f].lss(), &to_other);
    let wrong_session = round1_of(g1.shares[&f].lss(), &other_id);
    let old_generation = round1_of(g0.shares[&f].lss(), &old_gen);
    let key_ceremony = round1_of(g1.shares[&f].lss(), &ceremony);
    let another_message = round1_of(g1.shares[&f].lss(), &other_message);
    // F's envelope of another run of this session (a PCR2: a message of another kind).
    let (_, log) = pulsar_session(
        &g1.lss(&signers),
        &session,
        copy_key(&key),
        &[],
        None,
        "reference",
    );
    let envelope = direct_of(&log, f, 1, combiner_id()).unwrap();
    assert_eq!(&envelope[..4], b"PCR2");

    let from_f0 = move |e: &Envelope| e.from == f && e.round == 0;
    let replace = move |bytes: Vec<u8>| -> Tamper {
        Box::new(move |mut e: Envelope| {
            if from_f0(&e) {
                e.bytes = bytes.clone().into();
            }
            vec![e]
        })
    };
    let outsider = move |from: u16| -> Tamper {
        Box::new(move |e: Envelope| {
            if from_f0(&e) {
                let mut copy = e.clone();
                copy.from = pid(from);
                vec![e, copy]
            } else {
                vec![e]
            }
        })
    };
    // (name, tamper, party named, code, whether F's commitment still counts)
    let cases: Vec<(&str, Tamper, PartyId, &str, bool)> = vec![
        ("misaddressed", replace(misaddressed), f, "WRONG_RECIPIENT", false),
        (
            "wrong session",
            replace(wrong_session.clone()),
            f,
            "WRONG_SESSION",
            false,
        ),
        (
            "another message",
            replace(another_message),
            f,
            "WRONG_MESSAGE",
            false,
        ),
        ("wrong kind", replace(envelope), f, "WRONG_KIND", false),
        (
            "non-member",
            outsider(OUTSIDER),
            pid(OUTSIDER),
            "UNKNOWN_PARTY",
            true,
        ),
        (
            "member outside the signing set",
            outsider(4),
            pid(4),
            "UNKNOWN_PARTY",
            true,
        ),
        (
            "other generation",
            replace(old_generation),
            f,
            "WRONG_GENERATION",
            false,
        ),
        (
            "other purpose",
            replace(key_ceremony),
            f,
            "PARAMETER_MISMATCH",
            false,
        ),
        (
            "duplicate",
            Box::new(move |e: Envelope| if from_f0(&e) { vec![e.clone(), e] } else { vec![e] }),
            f,
            "DUPLICATE_MESSAGE",
            true,
        ),
        (
            "conflicting",
            Box::new(move |e: Envelope| {
                if from_f0(&e) {
                    let mut other = e.clone();
                    other.bytes = wrong_session.clone().into();
                    vec![e, other]
                } else {
                    vec![e]
                }
            }),
            f,
            "CONFLICTING_MESSAGE",
            false,
        ),
        (
            "truncated",
            Box::new(move |mut e: Envelope| {
                if from_f0(&e) {
                    e.bytes.pop();
                }
                vec![e]
            }),
            f,
            "MALFORMED_MESSAGE",
            false,
        ),
        (
            "garbage",
            replace(junk(custody::ROUND1_LEN, "pulsar garbage")),
            f,
            "MALFORMED_MESSAGE",
            false,
        ),
    ];
    for (name, tamper, named, code, counted) in cases {
        let (out, _) = pulsar_session(
            &g1.lss(&signers),
            &session,
            copy_key(&key),
            &[],
            Some(tamper),
            name,
        );
        let signed = signed_of(&out);
        assert_eq!(codes(signed.blame()), vec![(named, code)], "{name}: combiner");
        assert!(signed.blame().iter().all(|b| b.reason.is_message_fault()));
        let want_signers = if counted { ids([1, 2]) } else { ids([1, 3]) };
        assert_eq!(signed.signers(), &want_signers[..], "{name}");
        assert!(signed.missing().is_empty(), "{name}");
        // F's real envelope matches no commitment when its commitment was dropped.
        assert_eq!(signed.unattributed(), usize::from(!counted), "{name}");
        check_mldsa(Mode::MlDsa44, g1.key.public_key(), &msg, b"", signed.signature());
        for p in &signers {
            let s = out[p]
                .as_ref()
                .unwrap_or_else(|e| panic!("{name}: {p}: {e}"))
                .signer();
            let want = if *p == f { vec![] } else { vec![(named, code)] };
            assert_eq!(codes(&s.dropped), want, "{name}: signer {p}");
            let committed = if counted || *p == f {
                signers.clone()
            } else {
                ids([1, 3])
            };
            assert_eq!(s.committed, committed, "{name}: signer {p}");
        }
    }
    // A commitment under another signer's transport id (3's own lost): SENDER_MISMATCH
    // naming the transport's sender, 3.
    let as_3: Tamper = Box::new(move |e: Envelope| {
        if e.from == pid(3) && e.round == 0 {
            vec![]
        } else if from_f0(&e) && e.to != pid(3) {
            let mut copy = e.clone();
            copy.from = pid(3);
            vec![e, copy]
        } else {
            vec![e]
        }
    });
    let (out, _) = pulsar_session(
        &g1.lss(&signers),
        &session,
        copy_key(&key),
        &[],
        Some(as_3),
        "as 3",
    );
    let signed = signed_of(&out);
    assert_eq!(codes(signed.blame()), vec![(pid(3), "SENDER_MISMATCH")]);
    assert_eq!(signed.signers(), &ids([1, 2])[..]);
    assert_eq!(signed.unattributed(), 1, "3's envelope matches no commitment");
}

/// Too few honest signers: the honest signer does not release (a typed error, its
/// envelope kept), the combiner fails naming the culprits, and the honest shares still
/// sign in a later session.
#[test]
fn too_few_honest_signers_fail_with_a_typed_error() {
    let g = pulsar_group(Mode::MlDsa44, 4, 2, "too few");
    let signers = ids(1..=3);
    let (session, key) = sign_session(&g, &signers, b"m", "too few");
    let two: Tamper = Box::new(|mut e: Envelope| {
        if (e.from == pid(2) || e.from == pid(3)) && e.round == 0 {
            e.bytes = junk(e.bytes.len(), "too few").into();
        }
        vec![e]
    });
    let (out, _) = pulsar_session(&g.lss(&signers), &session, key, &[], Some(two), "too few");
    let e = out[&combiner_id()].as_ref().unwrap_err();
    assert_eq!(e.code(), "NOT_ENOUGH_VALID_SHARES");
    assert_eq!(e.culprits(), &ids([2, 3])[..]);
    match e {
        quasar_pq::Error::Pulsar(Error::NotEnoughValidShares {
            needed, got, blame, ..
        }) => {
            assert_eq!((*needed, *got), (2, 1));
            assert_eq!(
                codes(blame),
                vec![(pid(2), "MALFORMED_MESSAGE"), (pid(3), "MALFORMED_MESSAGE")]
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        out[&pid(1)].as_ref().unwrap_err(),
        &quasar_pq::Error::Pulsar(Error::NotEnoughSigners { needed: 2, got: 1 })
    );
    pulsar_sign(&g, &ids([1, 4]), b"m", b"", "still signs");
}

// ---------------------------------------------------------------------------------------
// Blame only on evidence

/// An envelope altered in transit — any byte of it — or sent under another party's
/// transport id never gets an honest signer blamed: it matches no commitment, is
/// counted as unattributed, and its signer is listed as missing.
#[test]
fn an_envelope_altered_in_transit_never_blames_its_signer() {
    let g = pulsar_group(Mode::MlDsa44, 3, 2, "evidence");
    let signers = ids(1..=3);
    let (session, key) = sign_session(&g, &signers, b"evidence", "evidence");
    let (_, log) = pulsar_session(&g.lss(&signers), &session, copy_key(&key), &[], None, "evidence");
    let commitments: Vec<(PartyId, Vec<u8>)> = signers
        .iter()
        .map(|&p| (p, broadcast_of(&log, p, 0).unwrap()))
        .collect();
    let envelopes: Vec<(PartyId, Vec<u8>)> = signers
        .iter()
        .map(|&p| (p, direct_of(&log, p, 1, combiner_id()).unwrap()))
        .collect();
    assert_eq!(envelopes[1].1.len(), custody::ROUND2_LEN);
    // A combiner that collected the three commitments.
    let collected = || {
        let (mut c, _) =
            CombinerParty::start(copy_key(&key), &session, &mut party_rng(b"c", combiner_id())).unwrap();
        assert!(matches!(
            c.step(&incoming(&commitments)).unwrap(),
            Step::Continue(_)
        ));
        c
    };
    for i in 0..custody::ROUND2_LEN {
        let mut inbox = envelopes.clone();
        inbox[1].1[i] ^= 0x01;
        let mut c = collected();
        let Step::Done(_, done) = c.step(&incoming(&inbox)).unwrap() else {
            panic!("byte {i}")
        };
        let custody::Combined::Signed(signed) = done else {
            panic!()
        };
        assert!(signed.blame().is_empty(), "byte {i}: {:?}", signed.blame());
        assert_eq!(signed.missing(), &[pid(2)], "byte {i}");
        assert_eq!(signed.unattributed(), 1, "byte {i}");
        assert_eq!(signed.signers(), &ids([1, 3])[..]);
        if i % 200 == 0 {
            check_mldsa(
                Mode::MlDsa44,
                g.key.public_key(),
                b"evidence",
                b"",
                signed.signature(),
            );
        }
    }
    // With only two signers, an altered envelope leaves too few shares: still nobody blamed.
    let mut inbox = envelopes[..2].to_vec();
    inbox[1].1[100] ^= 0x80;
    let mut c = collected();
    let e = c.step(&incoming(&inbox)).unwrap_err();
    assert_eq!(e.code(), "NOT_ENOUGH_VALID_SHARES");
    assert!(e.culprits().is_empty());
    // Under other transport ids (swapped, and a non-member's): attributed by commitment.
    let swapped = vec![
        (pid(3), envelopes[1].1.clone()),
        (pid(2), envelopes[2].1.clone()),
        (pid(99), envelopes[0].1.clone()),
    ];
    let Step::Done(_, custody::Combined::Signed(signed)) = collected().step(&incoming(&swapped)).unwrap()
    else {
        panic!()
    };
    assert!(signed.blame().is_empty());
    assert!(signed.missing().is_empty());
    assert_eq!(signed.unattributed(), 0);
    assert_eq!(signed.signers(), &ids([1, 2])[..]);
    // A replayed envelope of another session: unattributed, its signer missing.
    let (other, other_key) = sign_session(&g, &signers, b"evidence", "evidence other");
    let (_, other_log) = pulsar_session(&g.lss(&signers), &other, other_key, &[], None, "other");
    let mut inbox = envelopes.clone();
    inbox[2].1 = direct_of(&other_log, pid(3), 1, combiner_id()).unwrap();
    let Step::Done(_, custody::Combined::Signed(signed)) = collected().step(&incoming(&inbox)).unwrap()
    else {
        panic!()
    };
    assert!(signed.blame().is_empty());
    assert_eq!(signed.missing(), &[pid(3)]);
    assert_eq!(signed.unattributed(), 1);
}

/// `bad-contribution`: a signer that commits to an envelope holding a bad share is blamed
/// `INVALID_SHARE` (it committed to it) and the others sign; with too few others, the
/// session fails naming it. `garbage`: its commitment cut short: `MALFORMED_MESSAGE`.
#[test]
fn cheats_in_signing() {
    let g = pulsar_group(Mode::MlDsa65, 5, 3, "cheats");
    let signers = ids(1..=4);
    let (session, key) = sign_session(&g, &signers, b"m", "cheats");
    let (out, _) = pulsar_session(
        &g.lss(&signers),
        &session,
        copy_key(&key),
        &[(pid(2), Cheat::BadContribution)],
        None,
        "bad",
    );
    let signed = signed_of(&out);
    assert_eq!(
        signed.blame(),
        &[quasar_pq::party::Blame::new(
            pid(2),
            quasar_pq::party::BlameReason::InvalidShare
        )]
    );
    assert_eq!(signed.blame()[0].reason.code(), "INVALID_SHARE");
    assert_eq!(signed.signers(), &ids([1, 3, 4])[..]);
    check_mldsa(Mode::MlDsa65, g.key.public_key(), b"m", b"", signed.signature());
    // Exactly t signers, one of them cheating.
    let (s3, k3) = sign_session(&g, &ids(1..=3), b"m", "cheats three");
    let (out, _) = pulsar_session(
        &g.lss(&ids(1..=3)),
        &s3,
        k3,
        &[(pid(2), Cheat::BadContribution)],
        None,
        "bad3",
    );
    let e = out[&combiner_id()].as_ref().unwrap_err();
    assert_eq!(e.code(), "NOT_ENOUGH_VALID_SHARES");
    assert_eq!(e.culprits(), &[pid(2)]);
    assert_eq!(e.module(), "pulsar");
    // Garbage.
    let (out, _) = pulsar_session(
        &g.lss(&signers),
        &session,
        key,
        &[(pid(4), Cheat::Garbage)],
        None,
        "garbage",
    );
    let signed = signed_of(&out);
    assert_eq!(codes(signed.blame()), vec![(pid(4), "MALFORMED_MESSAGE")]);
    assert_eq!(signed.signers(), &ids(1..=3)[..]);
    assert_eq!(
        signed.unattributed(),
        1,
        "its envelope (cut short too) matches nothing"
    );
    for p in ids(1..=3) {
        assert_eq!(
            codes(&out[&p].as_ref().unwrap().signer().dropped),
            vec![(pid(4), "MALFORMED_MESSAGE")]
        );
    }
}

/// The combiner below the threshold (commitments, then envelopes) keeps its state and
/// succeeds when retried with everything; a signer that saw too few commitments keeps
/// its envelope. Steps after the end: `PARTY_FINISHED`.
#[test]
fn pulsar_parties_keep_their_state_on_error() {
    let g = pulsar_group(Mode::MlDsa44, 3, 2, "state");
    let signers = ids(1..=2);
    let (session, key) = sign_session(&g, &signers, b"state", "state");
    let mut parties = BTreeMap::new();
    let mut commitments = Vec::new();
    for s in g.lss(&signers) {
        let (p, o) = SignerParty::start(s, &session, &mut party_rng(b"state", s.id())).unwrap();
        commitments.push((s.id(), o.broadcast.unwrap()));
        parties.insert(s.id(), p);
    }
    let s1 = parties.get_mut(&pid(1)).unwrap();
    let e = s1.step(&[]).unwrap_err();
    assert_eq!(
        e,
        quasar_pq::Error::Pulsar(Error::NotEnoughSigners { needed: 2, got: 1 })
    );
    assert_eq!(s1.round().unwrap().name, "release");
    let mut envelopes = Vec::new();
    for (p, s) in parties.iter_mut() {
        let others: Vec<(PartyId, Vec<u8>)> = commitments.iter().filter(|(q, _)| q != p).cloned().collect();
        let Step::Done(o, outcome) = s.step(&incoming(&others)).unwrap() else {
            panic!()
        };
        assert_eq!(outcome.committed, signers);
        envelopes.push((*p, o.direct[0].bytes.to_vec()));
        assert_eq!(s.step(&[]).unwrap_err().code(), "PARTY_FINISHED");
    }
    let (mut c, first) = CombinerParty::start(key, &session, &mut party_rng(b"c", combiner_id())).unwrap();
    assert!(first.is_empty());
    let e = c.step(&incoming(&commitments[..1])).unwrap_err();
    assert_eq!(e.code(), "NOT_ENOUGH_VALID_SHARES");
    assert_eq!(c.round().unwrap().number, 1);
    assert!(matches!(
        c.step(&incoming(&commitments)).unwrap(),
        Step::Continue(_)
    ));
    let e = c.step(&incoming(&envelopes[..1])).unwrap_err();
    assert_eq!(
        e,
        quasar_pq::Error::Pulsar(Error::NotEnoughValidShares {
            needed: 2,
            got: 1,
            culprits: vec![],
            blame: vec![]
        })
    );
    assert_eq!(c.round().unwrap().number, 2);
    let Step::Done(_, custody::Combined::Signed(signed)) = c.step(&incoming(&envelopes)).unwrap() else {
        panic!()
    };
    check_mldsa(
        Mode::MlDsa44,
        g.key.public_key(),
        b"state",
        b"",
        signed.signature(),
    );
    assert_eq!(c.step(&[]).unwrap_err().code(), "PARTY_FINISHED");
}

// ---------------------------------------------------------------------------------------
// Peer faults in resharing: every peer fault, proven by ML-DSA signatures

#[test]
fn peer_faults_in_a_reshare() {
    let g0 = pulsar_group(Mode::MlDsa44, 4, 2, "reshare faults");
    let c1 = custody::refresh(sid("reshare faults refresh"), &g0.key, &g0.public, &ids(1..=4)).unwrap();
    let (g1, previous) = advance(&g0, &c1, "reshare faults refresh");
    // 2-of-4 {1..4} → 3-of-5 {2..6}; the faulty dealer 2 stays.
    let make =
        |label: &str| custody::reshare(sid(label), &g1.key, &g1.public, &ids(1..=4), &ids(2..=6), 3).unwrap();
    let c = make("reshare faults");
    let roles = Roles::of(&c);
    let (_, other_session) = lss_deal(&make("reshare faults other"), &g1.old(), &[], None, "other");
    let replays = Replays {
        other_session: &other_session,
        previous: Some(&previous),
    };
    for fault in Fault::ALL {
        let mut plan = dealing_plan(fault, &roles, pid(2), pid(3), pid(4), &replays);
        let label = format!("reshare fault {fault:?}");
        let (out, _) = lss_deal(&c, &g1.old(), &[], Some(plan.take_tamper()), &label);
        let honest = check_plan(&plan, &out, &roles, "pulsar reshare");
        let first = honest.values().next().unwrap();
        let public = first.public.clone();
        let cert = first.activation.clone().unwrap();
        custody::verify_activation(&public, &g1.key, 2, public.transcript_hash(), &cert).unwrap();
        let key = g1.key.reactivated(&public, cert).unwrap();
        let shares: BTreeMap<PartyId, KeyShare> = honest
            .iter()
            .filter_map(|(p, o)| {
                o.key_share
                    .as_ref()
                    .map(|k| (*p, KeyShare::new(copy_share(k), key.clone()).unwrap()))
            })
            .collect();
        let holders: Vec<PartyId> = shares.keys().copied().collect();
        assert!(holders.len() >= 3, "{label}");
        let next = PulsarGroup {
            public,
            announced: g1.announced.clone(),
            key,
            shares,
        };
        pulsar_sign(&next, &holders[..3], label.as_bytes(), b"", &label);
    }
}

/// The misaddressed-reshare attack on a Pulsar key (reshare to {4, 5, 6, 7}, t = 3, dealer 1 hands 4
/// and 5 the message it made for 6): everyone completes, exactly three new members sign.
#[test]
fn misaddressed_shares_in_a_reshare() {
    let g = pulsar_group(Mode::MlDsa44, 3, 2, "misaddressed reshare");
    let c = custody::reshare(
        sid("misaddressed reshare"),
        &g.key,
        &g.public,
        &ids([1, 2]),
        &ids(4..=7),
        3,
    )
    .unwrap();
    let (out, _) = lss_deal(
        &c,
        &g.old(),
        &[],
        Some(misaddressed_reshare_tamper()),
        "misaddressed reshare",
    );
    for p in participants(&c) {
        let o = out[&p].as_ref().unwrap();
        let want: Vec<(PartyId, &str)> = if p == pid(4) || p == pid(5) {
            vec![(pid(1), "WRONG_RECIPIENT")]
        } else {
            vec![]
        };
        assert_eq!(codes(&o.dropped), want, "{p}");
        assert!(o.blame.is_empty());
    }
    let o = out[&pid(4)].as_ref().unwrap();
    let key = g
        .key
        .reactivated(&o.public, o.activation.clone().unwrap())
        .unwrap();
    let public = o.public.clone();
    let shares = lss_shares(out)
        .into_iter()
        .map(|(p, s)| (p, KeyShare::new(s, key.clone()).unwrap()))
        .collect();
    let next = PulsarGroup {
        public,
        announced: g.announced.clone(),
        key,
        shares,
    };
    pulsar_sign(
        &next,
        &ids([4, 5, 6]),
        b"after the misaddressed reshare",
        b"",
        "misaddressed reshare a",
    );
    pulsar_sign(
        &next,
        &ids([5, 6, 7]),
        b"after the misaddressed reshare",
        b"",
        "misaddressed reshare b",
    );
}

// ---------------------------------------------------------------------------------------
// Activation, group keys, reserved contexts

fn refused(r: Result<(), Error>) -> ActivationFault {
    match r {
        Err(Error::Lss(lss::Error::InvalidActivation(f))) => f,
        other => panic!("expected a refused certificate, got {other:?}"),
    }
}

/// The chained activation attack on a Pulsar key: the reshare leaves only 2 of 4 new holders
/// (t = 3), nobody activates, and no certificate the old set can build activates the new
/// generation — nor can it sign one under the activation context.
#[test]
fn the_old_set_cannot_activate_the_new_generation() {
    let g = pulsar_group(Mode::MlDsa44, 3, 2, "chained");
    let c = custody::reshare(sid("chained"), &g.key, &g.public, &ids(1..=3), &ids(4..=7), 3).unwrap();
    let (out, log) = lss_deal(&c, &g.old(), &[], Some(drop_to(ids([6, 7]))), "chained");
    let want = quasar_pq::Error::Lss(lss::Error::NotEnoughPossessionProofs {
        needed: 3,
        got: 2,
        culprits: vec![],
    });
    for p in ids(1..=5) {
        assert_eq!(out[&p].as_ref().unwrap_err(), &want, "{p}");
    }
    for p in ids([6, 7]) {
        assert_eq!(out[&p].as_ref().unwrap_err().code(), "NOT_ENOUGH_QUALIFIED");
    }
    pulsar_sign(&g, &ids([1, 3]), b"the old set still signs", b"", "old signs");
    let new_public = observed_group::<R>(c.dealers(), c.receivers(), 3, vss::Mode::Pedersen, &log, pid(4));
    let t = *new_public.transcript_hash();
    let verify = |cert: &ActivationCertificate| custody::verify_activation(&new_public, &g.key, 1, &t, cert);
    // What the old set can make: an activation round of its own generation for the key.
    let frame = g.key.scheme_key();
    let started = ids(1..=3)
        .into_iter()
        .map(|p| {
            ActivationParty::start(
                p,
                Some(g.shares[&p].lss()),
                &g.public,
                ActivationKind::Pulsar,
                &frame,
                &mut party_rng(b"old", p),
            )
            .unwrap()
        })
        .collect();
    let (certs, _) = run(started, None);
    let old_cert = certs[&pid(1)].as_ref().unwrap().clone();
    custody::verify_activation(&g.public, &g.key, 0, g.public.transcript_hash(), &old_cert).unwrap();
    assert_eq!(
        refused(verify(&old_cert)),
        ActivationFault::WrongGeneration { expected: 1, got: 0 }
    );
    assert_eq!(
        refused(verify(g.key.certificate())),
        ActivationFault::WrongGeneration { expected: 1, got: 0 }
    );
    assert!(g.key.reactivated(&new_public, old_cert.clone()).is_err());
    let mut patched = Lsa2::of(&old_cert);
    patched.generation = 1;
    patched.transcript = t;
    assert_eq!(
        refused(verify(&patched.cert())),
        ActivationFault::NotAMember { party: pid(1) }
    );
    for (m, id) in patched.proofs.iter_mut().zip([4u16, 6, 7]) {
        m.0 = id;
    }
    assert_eq!(
        refused(verify(&patched.cert())),
        ActivationFault::InvalidProof {
            members: ids([4, 6, 7])
        }
    );
    let proofs = broadcasts_with(&log, 3, b"LSV1");
    let real = |p: u16| (p, possession_parts(&proofs[&pid(p)]).3);
    let mut mixed = patched.clone();
    mixed.proofs = vec![real(4), real(5), (6, patched.proofs[0].1.clone())];
    assert_eq!(
        refused(verify(&mixed.cert())),
        ActivationFault::InvalidProof {
            members: vec![pid(6)]
        }
    );
    mixed.proofs.truncate(2);
    assert_eq!(
        refused(verify(&mixed.cert())),
        ActivationFault::TooFewMembers { needed: 3, got: 2 }
    );
    // An ordinary signing session with the activation context is refused.
    let key = combiner_key("chained ctx");
    let e = Session::sign(
        [0; 32],
        &g.key,
        &g.public,
        &ids([1, 2]),
        key.public_key(),
        &t,
        ACTIVATION_CONTEXT,
    )
    .unwrap_err();
    assert_eq!(e, Error::ReservedContext);
}

#[test]
fn wrong_certificates_are_refused() {
    let (g0, g1) = generation_one(Mode::MlDsa44, "refusals");
    let cert1 = g1.key.certificate().clone();
    let (p1, t1) = (&g1.public, *g1.public.transcript_hash());
    let verify = |cert: &ActivationCertificate| custody::verify_activation(p1, &g1.key, 1, &t1, cert);
    verify(&cert1).unwrap();
    let c2 = custody::refresh(sid("refusals 2"), &g1.key, &g1.public, &ids(1..=4)).unwrap();
    let g2 = next_generation(&g1, &c2, "refusals 2");
    let c1b = custody::refresh(sid("refusals 1b"), &g0.key, &g0.public, &ids(1..=4)).unwrap();
    let g1b = next_generation(&g0, &c1b, "refusals 1b");
    let fields = Lsa2::of(&cert1);
    let mut few = fields.clone();
    few.proofs.truncate(1);
    assert_eq!(
        refused(verify(&few.cert())),
        ActivationFault::TooFewMembers { needed: 2, got: 1 }
    );
    assert_eq!(
        refused(custody::verify_activation(
            &g2.public,
            &g2.key,
            2,
            g2.public.transcript_hash(),
            &cert1
        )),
        ActivationFault::WrongGeneration { expected: 2, got: 1 }
    );
    assert_eq!(
        refused(custody::verify_activation(
            &g1b.public,
            &g1b.key,
            1,
            g1b.public.transcript_hash(),
            &cert1
        )),
        ActivationFault::WrongTranscript
    );
    let mut stranger = fields.clone();
    let last = stranger.proofs.len() - 1;
    stranger.proofs[last].0 = 99;
    assert_eq!(
        refused(verify(&stranger.cert())),
        ActivationFault::NotAMember { party: pid(99) }
    );
    let mut bad = fields.clone();
    let last = bad.proofs[0].1.len() - 1;
    bad.proofs[0].1[last] ^= 1;
    assert_eq!(
        refused(verify(&bad.cert())),
        ActivationFault::InvalidProof {
            members: vec![pid(1)]
        }
    );
    let mut lens = fields.clone();
    lens.scheme = ActivationKind::Lens as u8;
    assert_eq!(refused(verify(&lens.cert())), ActivationFault::WrongGroup);
    // A certificate of another key of the same sharing.
    let mut other_key = fields.clone();
    other_key.key = pulsar_group(Mode::MlDsa44, 4, 2, "refusals other")
        .key
        .scheme_key();
    assert_eq!(refused(verify(&other_key.cert())), ActivationFault::WrongKey);
    let bytes = cert1.to_bytes();
    for bit in (0..bytes.len() * 8).step_by(3) {
        let mut b = bytes.clone();
        b[bit / 8] ^= 1 << (bit % 8);
        if let Ok(c) = ActivationCertificate::from_bytes(&b) {
            assert!(verify(&c).is_err(), "bit {bit}");
        }
    }
}

/// The record of another ML-DSA key with this sharing's `C_0` and certificate copied:
/// `PCGK` is well formed, but reading it against the sharing refuses it (so no session,
/// share or reshare can be given it), and `PCKS` decoding refuses it; a certificate for it
/// needs `t` members.
#[test]
fn a_forged_group_key_with_the_right_commitment_is_refused() {
    let g = pulsar_group(Mode::MlDsa44, 3, 2, "forged");
    let other = pulsar_group(Mode::MlDsa44, 3, 2, "forged other");
    let frame_at = 6 + 32 + 32 + 4;
    let frame_len = g.key.frame().len();
    let swap_frame = |bytes: &[u8], at: usize| {
        let mut b = bytes.to_vec();
        assert_eq!(&b[at..at + frame_len], &g.key.frame()[..]);
        b[at..at + frame_len].copy_from_slice(&other.key.frame());
        b
    };
    let forged = swap_frame(&g.key.to_bytes(), frame_at);
    let wrong_key = Error::Lss(lss::Error::InvalidActivation(ActivationFault::WrongKey));
    assert_eq!(GroupKey::from_bytes(&forged, &g.public).unwrap_err(), wrong_key);
    assert_eq!(wrong_key.code(), "ACTIVATION_WRONG_KEY");
    // PCKS: the LSK1 share first, then the group-key body.
    let pcks = g.shares[&pid(1)].to_bytes();
    let lsk_len = u32::from_be_bytes(pcks[6..10].try_into().unwrap()) as usize;
    let forged_pcks = swap_frame(&pcks, 10 + lsk_len + 32 + 32 + 4);
    assert_eq!(KeyShare::from_bytes(&forged_pcks).unwrap_err(), wrong_key);
    KeyShare::from_bytes(&pcks).unwrap();
    // Another group's record entirely: another C_0.
    assert_eq!(
        other.key.check_sharing(&g.public).unwrap_err(),
        Error::GroupMismatch
    );
    assert_eq!(
        GroupKey::from_bytes(&other.key.to_bytes(), &g.public).unwrap_err(),
        Error::GroupMismatch
    );
    let key = combiner_key("forged");
    assert_eq!(
        Session::sign(
            [0; 32],
            &other.key,
            &g.public,
            &ids([1, 2]),
            key.public_key(),
            b"m",
            b""
        )
        .unwrap_err(),
        Error::GroupMismatch
    );
    assert_eq!(
        custody::reshare(sid("forged"), &other.key, &g.public, &ids(1..=3), &ids(4..=7), 3).unwrap_err(),
        Error::GroupMismatch
    );
    // Certifying the forged key needs t members: one member's proof is not enough.
    let mut forged_key = g.key.scheme_key();
    let at = forged_key.len() - frame_len;
    forged_key[at..].copy_from_slice(&other.key.frame());
    let (certs, _) = run(
        vec![ActivationParty::start(
            pid(1),
            Some(g.shares[&pid(1)].lss()),
            &g.public,
            ActivationKind::Pulsar,
            &forged_key,
            &mut party_rng(b"one", pid(1)),
        )
        .unwrap()],
        None,
    );
    assert_eq!(
        certs[&pid(1)].as_ref().unwrap_err().code(),
        "NOT_ENOUGH_POSSESSION_PROOFS"
    );
}

/// Every way to change a record by one step: each byte with one bit flipped (bit `i % 8`
/// of byte `i`), every truncation, and one byte more.
fn record_mutations(record: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::with_capacity(2 * record.len() + 1);
    for i in 0..record.len() {
        let mut m = record.to_vec();
        m[i] ^= 1 << (i % 8);
        out.push((format!("byte {i} flipped"), m));
    }
    for cut in 0..record.len() {
        out.push((format!("cut to {cut} bytes"), record[..cut].to_vec()));
    }
    let mut long = record.to_vec();
    long.push(0);
    out.push(("one byte more".into(), long));
    out
}

/// Whether `verify_activation(sharing, record, generation, transcript, cert)` accepts
/// `record`, read (the one strict check) against `own`, the sharing of its generation —
/// `sharing` itself for the record of the generation `cert` activates, as
/// `pulsar.verifyActivation` reads it.
fn verify_activation_takes(
    own: &lss::GroupPublic<R>,
    sharing: &lss::GroupPublic<R>,
    record: &[u8],
    generation: u64,
    cert: &ActivationCertificate,
) -> bool {
    GroupKey::from_bytes(record, own).is_ok_and(|k| {
        custody::verify_activation(sharing, &k, generation, sharing.transcript_hash(), cert).is_ok()
    })
}

/// Whether a signing combiner starts on `record` (`pulsar.sign.combiner`).
fn combiner_takes(sharing: &lss::GroupPublic<R>, record: &[u8], key: &CombinerKey) -> bool {
    GroupKey::from_bytes(record, sharing).is_ok_and(|k| {
        Session::sign([7; 32], &k, sharing, &ids([1, 2]), key.public_key(), b"m", b"")
            .is_ok_and(|s| CombinerParty::start_deterministic(copy_key(key), &s).is_ok())
    })
}

/// Every byte of a group key record (`PCGK`) is bound: one flipped bit anywhere (header,
/// `C_0`, the ceremony transcript hash, the `PULG` frame, the embedded `LSA2`
/// certificate), a truncation or an extension, and `verify_activation`, a signing
/// combiner and `PCKS` decoding (which embeds the record's body) all refuse it — for the
/// record of the generation an activation makes and for the older record it came from.
#[test]
fn every_byte_of_a_key_record_is_bound() {
    let (g0, g1) = generation_one(Mode::MlDsa44, "record bytes");
    let cert = g1.key.certificate().clone();
    let combiner = combiner_key("record bytes");
    for (name, group) in [("generation 0", &g0), ("generation 1", &g1)] {
        let record = group.key.to_bytes();
        // PCKS: header, the LSK1 share, then the record without its 6-byte header.
        let pcks = group.shares[&pid(1)].to_bytes();
        let lsk_len = u32::from_be_bytes(pcks[6..10].try_into().unwrap()) as usize;
        let pcks_prefix = &pcks[..10 + lsk_len];
        assert_eq!(&pcks[10 + lsk_len..], &record[6..]);
        assert!(
            verify_activation_takes(&group.public, &g1.public, &record, 1, &cert),
            "{name}"
        );
        assert!(combiner_takes(&group.public, &record, &combiner), "{name}");
        let mut taken = Vec::new();
        for (what, m) in record_mutations(&record) {
            let mut by = Vec::new();
            if verify_activation_takes(&group.public, &g1.public, &m, 1, &cert) {
                by.push("verify_activation");
            }
            if combiner_takes(&group.public, &m, &combiner) {
                by.push("combiner");
            }
            if m.len() >= 6 && m[..6] == record[..6] {
                let mut share = pcks_prefix.to_vec();
                share.extend_from_slice(&m[6..]);
                if KeyShare::from_bytes(&share).is_ok() {
                    by.push("PCKS");
                }
            }
            if !by.is_empty() {
                taken.push(format!("{what}: {}", by.join(", ")));
            }
        }
        assert!(
            taken.is_empty(),
            "{name} ({} bytes): {} changed records accepted:\n{}",
            record.len(),
            taken.len(),
            taken.join("\n")
        );
    }
}

/// A new member told a forged key for a reshare (its ceremony bound to that key) sees
/// every honest message as of another session: it fails the dealing (it stores nothing),
/// everyone else names it and completes without it.
#[test]
fn a_new_member_given_a_forged_key_fails_the_dealing() {
    let g = pulsar_group(Mode::MlDsa44, 3, 2, "forged member");
    let other = pulsar_group(Mode::MlDsa44, 3, 2, "forged member other");
    let honest = custody::reshare(
        sid("forged member"),
        &g.key,
        &g.public,
        &ids(1..=3),
        &ids(4..=7),
        3,
    )
    .unwrap();
    let fooled = lss::Ceremony::reshare(sid("forged member"), &g.public, &ids(1..=3), &ids(4..=7), 3)
        .unwrap()
        .with_key(ActivationKind::Pulsar, &other.key.scheme_key())
        .unwrap();
    let old = g.old();
    let started = participants(&honest)
        .into_iter()
        .map(|p| {
            let c = if p == pid(7) {
                fooled.clone()
            } else {
                honest.clone()
            };
            lss::DealingParty::start(c, p, old.get(&p), &mut party_rng(b"forged member", p)).unwrap()
        })
        .collect();
    let (out, _) = run(started, None);
    let e = out[&pid(7)].as_ref().unwrap_err();
    assert_eq!(e.code(), "NOT_ENOUGH_QUALIFIED");
    for p in ids(1..=6) {
        let o = out[&p].as_ref().unwrap();
        assert_eq!(codes(&o.dropped), vec![(pid(7), "WRONG_SESSION")], "{p}");
        assert!(o.blame.is_empty());
        assert_eq!(o.activation.as_ref().unwrap().members(), ids(4..=6));
    }
    let o = out[&pid(4)].as_ref().unwrap();
    let key = g
        .key
        .reactivated(&o.public, o.activation.clone().unwrap())
        .unwrap();
    assert_eq!(key.public_key(), g.key.public_key());
    let public = o.public.clone();
    let shares = lss_shares(out)
        .into_iter()
        .map(|(p, s)| (p, KeyShare::new(s, key.clone()).unwrap()))
        .collect();
    let next = PulsarGroup {
        public,
        announced: g.announced.clone(),
        key,
        shares,
    };
    pulsar_sign(&next, &ids(4..=6), b"without the fooled member", b"", "fooled");
}

/// Ordinary signing refuses the activation and key-ceremony contexts (and anything
/// starting with an activation tag): `RESERVED_CONTEXT`.
#[test]
fn reserved_contexts_are_refused() {
    let g = pulsar_group(Mode::MlDsa44, 3, 2, "reserved");
    let key = combiner_key("reserved");
    let mut tagged = ACTIVATION_CONTEXT.to_vec();
    tagged.extend_from_slice(b" and more");
    for ctx in [
        ACTIVATION_CONTEXT,
        CEREMONY_CONTEXT,
        b"QUASAR-LENS-ACTIVATE-v1".as_slice(),
        b"QUASAR-LSS-ACTIVATE-v1".as_slice(),
        &tagged,
    ] {
        let e = Session::sign(
            [0; 32],
            &g.key,
            &g.public,
            &ids([1, 2]),
            key.public_key(),
            b"m",
            ctx,
        )
        .unwrap_err();
        assert_eq!(e, Error::ReservedContext);
        assert_eq!(e.code(), "RESERVED_CONTEXT");
    }
    pulsar_sign(&g, &ids([1, 2]), b"m", b"an ordinary context", "ordinary");
}

#[test]
fn session_setup_errors_are_typed() {
    let g = pulsar_group(Mode::MlDsa44, 3, 2, "setup");
    let other = pulsar_group(Mode::MlDsa44, 3, 2, "setup other");
    let key = combiner_key("setup");
    let sign = |signers: &[PartyId], ctx: &[u8]| {
        Session::sign([0; 32], &g.key, &g.public, signers, key.public_key(), b"m", ctx).unwrap_err()
    };
    assert_eq!(
        sign(&ids([1, 2, 1]), b""),
        Error::DuplicateSigner { party: pid(1) }
    );
    assert_eq!(sign(&ids([1, 99]), b""), Error::UnknownParty { party: pid(99) });
    assert_eq!(
        sign(&ids([1]), b""),
        Error::NotEnoughSigners { needed: 2, got: 1 }
    );
    assert!(matches!(
        sign(&ids([1, 2]), &[0; 256]),
        Error::MlDsa(mldsa::Error::ContextTooLong { len: 256 })
    ));
    assert_eq!(
        Session::sign(
            [0; 32],
            &g.key,
            &other.public,
            &ids([1, 2]),
            key.public_key(),
            b"m",
            b""
        )
        .unwrap_err(),
        Error::GroupMismatch
    );
    let session = Session::sign(
        [0; 32],
        &g.key,
        &g.public,
        &ids([1, 2]),
        key.public_key(),
        b"m",
        b"",
    )
    .unwrap();
    let stranger = combiner_key("stranger");
    assert_eq!(
        CombinerParty::start(stranger, &session, &mut party_rng(b"s", pid(1))).unwrap_err(),
        Error::CombinerMismatch
    );
    let mut rng = party_rng(b"setup", pid(1));
    assert_eq!(
        SignerParty::start(g.shares[&pid(3)].lss(), &session, &mut rng).unwrap_err(),
        Error::NotASigner { party: pid(3) }
    );
    assert_eq!(
        SignerParty::start(other.shares[&pid(1)].lss(), &session, &mut rng).unwrap_err(),
        Error::GroupMismatch
    );
    // Session encodings rebuild through the same checks.
    assert_eq!(
        Session::from_bytes(&session.to_bytes()).unwrap().to_bytes(),
        session.to_bytes()
    );
    let ceremony =
        Session::key_ceremony([1; 32], Mode::MlDsa44, &g.public, &ids([2, 3]), key.public_key()).unwrap();
    assert_eq!(
        Session::from_bytes(&ceremony.to_bytes()).unwrap().to_bytes(),
        ceremony.to_bytes()
    );
}

// ---------------------------------------------------------------------------------------
// Decoders

fn strict<T, E: core::fmt::Debug>(
    name: &str,
    bytes: &[u8],
    decode: impl Fn(&[u8]) -> Result<T, E>,
    is_trailing: impl Fn(&E) -> bool,
) {
    if let Err(e) = decode(bytes) {
        panic!("{name}: valid input refused: {e:?}");
    }
    for cut in 0..bytes.len() {
        assert!(
            decode(&bytes[..cut]).is_err(),
            "{name}: truncation at {cut} accepted"
        );
    }
    let mut long = bytes.to_vec();
    long.push(0);
    match decode(&long) {
        Err(e) => assert!(is_trailing(&e), "{name}: extension gives {e:?}"),
        Ok(_) => panic!("{name}: extension accepted"),
    }
    for bit in 0..6 * 8 {
        let mut bad = bytes.to_vec();
        bad[bit / 8] ^= 1 << (bit % 8);
        assert!(decode(&bad).is_err(), "{name}: header bit {bit} accepted");
    }
}

fn trailing(e: &wire::Error) -> bool {
    matches!(e, wire::Error::TrailingBytes { extra: 1 })
}

#[test]
fn decoders_are_strict() {
    let g = pulsar_group(Mode::MlDsa44, 3, 2, "decoders");
    let signers = ids(1..=2);
    let (session, key) = sign_session(&g, &signers, b"m", "decoders");
    let (out, log) = pulsar_session(&g.lss(&signers), &session, copy_key(&key), &[], None, "decoders");
    let m1 = broadcast_of(&log, pid(1), 0).unwrap();
    let m2 = direct_of(&log, pid(1), 1, combiner_id()).unwrap();
    assert_eq!(m1.len(), custody::ROUND1_LEN);
    assert_eq!(m2.len(), custody::ROUND2_LEN);
    assert_eq!(Round1Message::from_bytes(&m1).unwrap().to_bytes(), m1);
    assert_eq!(Round2Message::from_bytes(&m2).unwrap().to_bytes(), m2);
    strict("round 1", &m1, Round1Message::from_bytes, trailing);
    strict("round 2", &m2, Round2Message::from_bytes, trailing);
    for (offset, what) in [(6usize, "purpose"), (7, "mode")] {
        for bit in 0..8 {
            let mut bad = m1.clone();
            bad[offset] ^= 1 << bit;
            assert!(Round1Message::from_bytes(&bad).is_err(), "{what} bit {bit}");
        }
    }
    let mut zero_from = m1.clone();
    zero_from[80..82].copy_from_slice(&[0, 0]);
    assert!(matches!(
        Round1Message::from_bytes(&zero_from),
        Err(wire::Error::InvalidValue(_))
    ));
    let pk = key.public_key().to_bytes();
    assert_eq!(&CombinerPublicKey::from_bytes(&pk).unwrap(), key.public_key());
    strict("combiner key", &pk, CombinerPublicKey::from_bytes, trailing);
    strict(
        "combiner secret key",
        &key.to_bytes(),
        CombinerKey::from_bytes,
        trailing,
    );
    strict(
        "group key",
        &g.key.to_bytes(),
        |b| GroupKey::from_bytes(b, &g.public),
        |e| matches!(e, Error::Decode(wire::Error::TrailingBytes { extra: 1 })),
    );
    strict("session", &session.to_bytes(), Session::from_bytes, |e| {
        matches!(e, Error::Decode(wire::Error::TrailingBytes { extra: 1 }))
    });
    // The announcement of a re-run of the ceremony: the same sharing and mode give the
    // same key.
    let ck = combiner_key("decoders ceremony");
    let s = Session::key_ceremony([5; 32], Mode::MlDsa44, &g.public, &ids(2..=3), ck.public_key()).unwrap();
    let (ann_out, _) = pulsar_session(&g.lss(&ids(2..=3)), &s, ck, &[], None, "decoders ceremony");
    let Ok(PulsarOut::Combiner(custody::Combined::Announcement(ann))) = &ann_out[&combiner_id()] else {
        panic!()
    };
    assert_eq!(ann.verify(&g.public).unwrap().public_key(), g.key.public_key());
    let ab = ann.to_bytes();
    assert_eq!(&GroupKeyAnnouncement::from_bytes(&ab).unwrap(), ann);
    strict("announcement", &ab, GroupKeyAnnouncement::from_bytes, trailing);
    for i in (6..ab.len()).step_by(53) {
        let mut bad = ab.clone();
        bad[i] ^= 0x10;
        if let Ok(a) = GroupKeyAnnouncement::from_bytes(&bad) {
            assert!(a.verify(&g.public).is_err(), "announcement byte {i}");
        }
    }
    let ks = g.shares[&pid(1)].to_bytes();
    strict("key share", &ks, KeyShare::from_bytes, |e| {
        matches!(e, Error::Decode(wire::Error::TrailingBytes { extra: 1 }))
    });
    for i in (10..ks.len()).step_by(7) {
        let mut bad = ks.to_vec();
        bad[i] ^= 0x04;
        let _ = KeyShare::from_bytes(&bad);
    }
    let frame = signed_of(&out).to_frame();
    strict(
        "PULS",
        &frame,
        |b| SignatureFrame::decode(b).map(|f| f.signature.len()),
        trailing,
    );
    for len in [0usize, 5, 6, 100, 116, 1262, 2000] {
        let junk = junk(len, "decoders");
        let _ = Round1Message::from_bytes(&junk);
        let _ = Round2Message::from_bytes(&junk);
        let _ = GroupKeyAnnouncement::from_bytes(&junk);
        let _ = GroupKey::from_bytes(&junk, &g.public);
        let _ = KeyShare::from_bytes(&junk);
        let _ = Session::from_bytes(&junk);
    }
}

// ---------------------------------------------------------------------------------------
// Large committees (the in-process DKG of all n parties dominates the time)

fn large_committee(n: u16, t: u16) {
    let g = pulsar_group(Mode::MlDsa65, n, t, &format!("committee {n}"));
    let signers = ids(n - t + 1..=n);
    pulsar_sign(&g, &signers, b"large committee", b"", "large");
    // Every signer outside this process reads the session (which carries the key record,
    // its certificate naming all n members) from its bytes.
    let (session, _) = sign_session(&g, &signers, b"large committee", "large bytes");
    let bytes = session.to_bytes();
    assert_eq!(Session::from_bytes(&bytes).unwrap().to_bytes(), bytes);
}

#[test]
fn committee_of_64() {
    large_committee(64, 43);
}

/// About 15–20 s natively on 2 cores (the in-process 128-party DKG, 128 possession
/// proofs checked by every party, ML-DSA-65 signing with 86 shares); run with
/// `cargo test --features sim,hazmat --test suite pulsar_custody:: -- --ignored`.
#[test]
#[ignore]
fn committee_of_128() {
    large_committee(128, 86);
}
