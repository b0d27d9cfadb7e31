//! The Pulsar committee (threshold ML-DSA, no reconstruction) through its parties on the
//! simulator: every (T, N) at ML-DSA-44 signs with every T-subset and the signatures verify
//! under ours and the peer implementations (RustCrypto `ml-dsa`, `fips204`, libcrux); the
//! other levels on a sample (all of them with `QUASAR_SLOW=1`); cheating and faulty peers
//! named, never an invalid signature; messages that fail a check dropped without consuming
//! state; strict key and share decoders; round state single-use.
//!
//! Run: `cargo test --features sim,hazmat --test suite committee::`.
#![cfg(all(feature = "sim", feature = "hazmat"))]
#![allow(clippy::unwrap_used)]

use crate::common;

use common::peers::peers;
use common::sim::*;
use quasar_pq::mldsa::Mode;
use quasar_pq::party::hazmat::Cheat;
use quasar_pq::party::sim::{party_rng, Envelope};
use quasar_pq::party::{Incoming, Party, Step};
use quasar_pq::pulsar::committee::{
    self, CommitteeKey, Dkg, DkgParams, Error, KeyShare, Keyed, SignParams, Signed, Signer, COMMIT_MAGIC,
    DKG_PUBLISH_MAGIC, DKG_SEEDS_MAGIC, RESPONSE_MAGIC, REVEAL_MAGIC,
};
use quasar_pq::PartyId;
use rand_chacha::rand_core::SeedableRng;

fn slow() -> bool {
    std::env::var("QUASAR_SLOW").is_ok_and(|v| v == "1")
}

/// Members with gaps in their ids (ids are not positions).
// Exact: n ≤ 6.
#[allow(clippy::cast_possible_truncation)]
fn members(n: usize) -> Vec<PartyId> {
    (0..n).map(|i| pid(3 * i as u16 + 2)).collect()
}

fn dealt(mode: Mode, t: usize, n: usize, label: &str) -> (CommitteeKey, Vec<KeyShare>) {
    let mut rng = rand_chacha::ChaCha20Rng::from_seed(sid(label));
    committee::deal(mode, t, &members(n), &mut rng).unwrap()
}

/// Every size-`t` subset of `items`, in lexicographic order.
fn subsets_of(items: &[PartyId], t: usize) -> Vec<Vec<PartyId>> {
    if t == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        for mut rest in subsets_of(&items[i + 1..], t - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

fn start(
    shares: &[KeyShare],
    params: &SignParams,
    cheat: Option<(PartyId, Cheat)>,
) -> Vec<(Signer, quasar_pq::party::Outgoing)> {
    shares
        .iter()
        .filter(|s| params.signers().contains(&s.id()))
        .map(|s| {
            let mut rng = party_rng(b"committee test", s.id());
            match cheat {
                Some((who, c)) if who == s.id() => Signer::start_cheating(s, params, c, &mut rng).unwrap(),
                _ => Signer::start(s, params, &mut rng).unwrap(),
            }
        })
        .collect()
}

/// Signs `message` with `signers`; every signer must reach the same verified signature.
fn sign(shares: &[KeyShare], signers: &[PartyId], message: &[u8], context: &[u8]) -> Signed {
    let params = SignParams::new(sid(&format!("{signers:?}{message:?}")), signers, message, context).unwrap();
    let (outcomes, _) = run(start(shares, &params, None), None);
    assert_eq!(outcomes.len(), signers.len());
    let signed: Vec<Signed> = outcomes.into_values().map(|o| o.unwrap()).collect();
    for s in &signed[1..] {
        assert_eq!(
            s.signature, signed[0].signature,
            "every signer combines the same signature"
        );
        assert_eq!(s.runs, signed[0].runs);
    }
    assert!(signed.iter().all(|s| s.dropped.is_empty()));
    signed.into_iter().next().unwrap()
}

fn verify_everywhere(key: &CommitteeKey, message: &[u8], context: &[u8], signature: &[u8]) {
    key.verify(message, context, signature).unwrap();
    for peer in peers(key.mode()) {
        assert!(
            (peer.verify)(key.public_key(), message, context, signature),
            "{} rejects a committee signature",
            peer.name
        );
    }
    let mut wrong = message.to_vec();
    wrong.push(0);
    assert!(key.verify(&wrong, context, signature).is_err());
}

fn check_shape(mode: Mode, t: usize, n: usize, every_subset: bool) {
    let (key, shares) = dealt(mode, t, n, &format!("{mode:?} {t} of {n}"));
    assert_eq!(key.public_key().len(), mode.public_key_len());
    let sets = subsets_of(key.members(), t);
    let sets = if every_subset {
        sets
    } else {
        vec![sets[sets.len() / 2].clone()]
    };
    for (i, set) in sets.iter().enumerate() {
        let message = format!("block {i} of {mode:?} ({t},{n})");
        let signed = sign(&shares, set, message.as_bytes(), b"ctx");
        assert_eq!(signed.signature.len(), mode.signature_len());
        verify_everywhere(&key, message.as_bytes(), b"ctx", &signed.signature);
    }
}

#[test]
fn every_shape_at_44_signs_with_every_signing_set() {
    for n in committee::MIN_PARTIES..=committee::MAX_PARTIES {
        for t in 2..=n {
            check_shape(Mode::MlDsa44, t, n, true);
        }
    }
}

#[test]
fn the_other_levels_sign() {
    for mode in [Mode::MlDsa65, Mode::MlDsa87] {
        for n in committee::MIN_PARTIES..=committee::MAX_PARTIES {
            for t in 2..=n {
                // The heavy sets (K in the hundreds) only on request: 65 (4,6) sends 6 MB per
                // party per run.
                let light = n <= 4 || t == 2 || t == n && n == 5;
                if slow() || light {
                    check_shape(mode, t, n, slow());
                }
            }
        }
    }
}

#[test]
fn sign_params_and_start_refuse_what_cannot_sign() {
    let (_, shares) = dealt(Mode::MlDsa44, 2, 3, "refusals");
    let m = members(3);
    assert_eq!(
        SignParams::new([1; 32], &[m[0], m[0]], b"x", b"").unwrap_err(),
        Error::DuplicateSigner { party: m[0] }
    );
    assert_eq!(
        SignParams::new([1; 32], &m[..2], b"x", &[0; 256]).unwrap_err(),
        Error::ContextTooLong { len: 256 }
    );
    let rng = &mut party_rng(b"refusals", m[0]);
    let all = SignParams::new([1; 32], &m, b"x", b"").unwrap();
    assert_eq!(
        Signer::start(&shares[0], &all, rng).unwrap_err(),
        Error::WrongSignerCount { needed: 2, got: 3 }
    );
    let stranger = SignParams::new([1; 32], &[m[0], pid(99)], b"x", b"").unwrap();
    assert_eq!(
        Signer::start(&shares[0], &stranger, rng).unwrap_err(),
        Error::UnknownParty { party: pid(99) }
    );
    let others = SignParams::new([1; 32], &m[1..], b"x", b"").unwrap();
    assert_eq!(
        Signer::start(&shares[0], &others, rng).unwrap_err(),
        Error::NotASigner { party: m[0] }
    );
    let rng = &mut rand_chacha::ChaCha20Rng::from_seed([0; 32]);
    for (t, n) in [(1, 3), (4, 3), (2, 7), (7, 7)] {
        assert!(matches!(
            committee::deal(Mode::MlDsa44, t, &members(n), rng),
            Err(Error::InvalidCommittee(_))
        ));
    }
    let unsorted = [pid(5), pid(2), pid(9)];
    assert!(matches!(
        committee::deal(Mode::MlDsa44, 2, &unsorted, rng),
        Err(Error::InvalidCommittee(_))
    ));
}

#[test]
fn a_reveal_that_breaks_its_commitment_names_its_sender_and_ends_the_session() {
    let (_, shares) = dealt(Mode::MlDsa44, 3, 4, "broken reveal");
    let m = members(4);
    let signers = [m[0], m[2], m[3]];
    let params = SignParams::new(sid("broken"), &signers, b"msg", b"").unwrap();
    let (outcomes, _) = run(
        start(&shares, &params, Some((m[2], Cheat::BadContribution))),
        None,
    );
    for (id, o) in &outcomes {
        if *id == m[2] {
            continue;
        }
        match o.as_ref().unwrap_err() {
            quasar_pq::Error::Committee(Error::Aborted { culprits, blame }) => {
                assert_eq!(culprits, &[m[2]]);
                assert_eq!(codes(blame), [(m[2], "BROKEN_REVEAL")]);
            }
            other => panic!("{id}: {other:?}"),
        }
        assert_eq!(o.as_ref().unwrap_err().code(), "SIGNING_ABORTED");
    }
}

#[test]
fn garbage_is_named_and_never_signs() {
    let (_, shares) = dealt(Mode::MlDsa44, 2, 3, "garbage");
    let m = members(3);
    let params = SignParams::new(sid("garbage"), &m[..2], b"msg", b"").unwrap();
    let (outcomes, _) = run(start(&shares, &params, Some((m[1], Cheat::Garbage))), None);
    // The honest signer waits for a valid commitment until the host gives up.
    assert_eq!(outcomes[&m[0]].as_ref().unwrap_err().code(), "MISSING_MESSAGE");
}

/// Steps one signer by hand: every bad message is dropped and named, the state stays, and
/// the genuine message delivered afterwards completes the round.
#[test]
fn bad_messages_are_dropped_and_named_without_consuming_state() {
    let (key, shares) = dealt(Mode::MlDsa44, 2, 3, "by hand");
    let m = members(3);
    let params = SignParams::new(sid("by hand"), &m[..2], b"msg", b"ctx").unwrap();
    let other = SignParams::new(sid("another session"), &m[..2], b"msg", b"ctx").unwrap();
    let mut started = start(&shares, &params, None);
    let (mut b, b_out) = started.pop().unwrap();
    let (mut a, a_out) = started.pop().unwrap();
    let (_, replay_out) = Signer::start(&shares[0], &other, &mut party_rng(b"x", m[0])).unwrap();
    let genuine = a_out.broadcast.clone().unwrap();
    let replay = replay_out.broadcast.unwrap();

    let mut bad: Vec<(PartyId, Vec<u8>, &str)> = vec![
        (m[0], genuine[..genuine.len() - 1].to_vec(), "MALFORMED_MESSAGE"),
        (m[0], [genuine.as_slice(), &[0]].concat(), "MALFORMED_MESSAGE"),
        (m[0], junk(75, "commit"), "MALFORMED_MESSAGE"),
        (m[0], replay, "WRONG_SESSION"),
        (m[0], b_out.broadcast.clone().unwrap(), "SENDER_MISMATCH"),
        (m[2], genuine.clone(), "UNKNOWN_PARTY"),
        (pid(77), junk(3, "short"), "MALFORMED_MESSAGE"),
    ];
    for at in [4, 6, 7, 39, 41] {
        let mut flipped = genuine.clone();
        flipped[at] ^= 0x01;
        bad.push((m[0], flipped, "x"));
    }
    for (i, (from, bytes, code)) in bad.iter().enumerate() {
        let step = b.step(&[Incoming::new(*from, bytes)]).unwrap();
        assert!(step.is_waiting(), "{code}");
        if *code != "x" {
            assert_eq!(b.run(), 1);
        }
        // Named while it waits (a host giving up on a stalled session can say who sent what).
        let so_far = b.dropped_so_far();
        assert_eq!(so_far.len(), i + 1, "{code}");
        assert_eq!(so_far[i].party, *from, "{code}");
        if *code != "x" {
            assert_eq!(so_far[i].reason.code(), *code);
        }
    }
    let reveal_b = match b.step(&[Incoming::new(m[0], &genuine)]).unwrap() {
        Step::Continue(out) => out.broadcast.unwrap(),
        other => panic!("{other:?}"),
    };
    assert_eq!(magic(&reveal_b), *REVEAL_MAGIC);
    let reveal_a = match a
        .step(&[Incoming::new(m[1], b_out.broadcast.as_ref().unwrap())])
        .unwrap()
    {
        Step::Continue(out) => out.broadcast.unwrap(),
        other => panic!("{other:?}"),
    };
    // A reveal altered in transit is dropped (its sender named for what arrived), and the
    // true one still completes the round.
    let mut off = reveal_a.clone();
    let last = off.len() - 1;
    off[last] ^= 0x80;
    assert!(b.step(&[Incoming::new(m[0], &off[..last])]).unwrap().is_waiting());
    let mut resp_b = match b.step(&[Incoming::new(m[0], &reveal_a)]).unwrap() {
        Step::Continue(out) => out.broadcast.unwrap(),
        other => panic!("{other:?}"),
    };
    assert_eq!(magic(&resp_b), *RESPONSE_MAGIC);
    let mut resp_a = match a.step(&[Incoming::new(m[1], &reveal_b)]).unwrap() {
        Step::Continue(out) => out.broadcast.unwrap(),
        other => panic!("{other:?}"),
    };
    // Runs go on until one signs; both parties stay in step.
    loop {
        let sa = a.step(&[Incoming::new(m[1], &resp_b)]).unwrap();
        let sb = b.step(&[Incoming::new(m[0], &resp_a)]).unwrap();
        match (sa, sb) {
            (Step::Done(_, x), Step::Done(_, y)) => {
                assert_eq!(x.signature, y.signature);
                key.verify(b"msg", b"ctx", &x.signature).unwrap();
                let named = codes(&y.dropped);
                for code in [
                    "MALFORMED_MESSAGE",
                    "SENDER_MISMATCH",
                    "WRONG_SESSION",
                    "UNKNOWN_PARTY",
                ] {
                    assert!(named.iter().any(|(_, c)| *c == code), "{code} in {named:?}");
                }
                assert!(named.iter().all(|(p, _)| *p != m[1]), "never the receiver itself");
                assert!(b.step(&[]).is_err(), "finished");
                break;
            }
            (Step::Continue(oa), Step::Continue(ob)) => {
                // A new run: commitments, then reveals, then responses.
                let (ca, cb) = (oa.broadcast.unwrap(), ob.broadcast.unwrap());
                assert_eq!(magic(&ca), *COMMIT_MAGIC);
                let ra = next(a.step(&[Incoming::new(m[1], &cb)]).unwrap());
                let rb = next(b.step(&[Incoming::new(m[0], &ca)]).unwrap());
                resp_a = next(a.step(&[Incoming::new(m[1], &rb)]).unwrap());
                resp_b = next(b.step(&[Incoming::new(m[0], &ra)]).unwrap());
            }
            other => panic!("signers out of step: {other:?}"),
        }
    }
}

fn next<O: core::fmt::Debug>(step: Step<O>) -> Vec<u8> {
    match step {
        Step::Continue(out) => out.broadcast.unwrap(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_response_altered_in_transit_never_yields_an_invalid_signature() {
    let (key, shares) = dealt(Mode::MlDsa44, 2, 2, "altered response");
    let m = members(2);
    let params = SignParams::new(sid("altered"), &m, b"msg", b"")
        .unwrap()
        .with_max_runs(3);
    // Every response from m[1] to m[0] has one accepted coefficient moved (well-formed, wrong).
    let (from, to) = (m[1], m[0]);
    let tamper: Tamper = Box::new(move |mut e: Envelope| {
        if e.from == from && e.to == to && magic(&e.bytes) == *RESPONSE_MAGIC && e.bytes.len() > 44 {
            let last = e.bytes.len() - 1;
            e.bytes[last] ^= 0x01;
        }
        vec![e]
    });
    let (outcomes, _) = run(start(&shares, &params, None), Some(tamper));
    match &outcomes[&m[0]] {
        Ok(s) => key.verify(b"msg", b"", &s.signature).unwrap(),
        Err(e) => assert!(["RUNS_EXHAUSTED", "MISSING_MESSAGE"].contains(&e.code()), "{e}"),
    }
}

#[test]
fn keys_and_shares_round_trip_and_decode_strictly() {
    let (key, shares) = dealt(Mode::MlDsa65, 3, 5, "codec");
    let kb = key.to_bytes();
    assert_eq!(CommitteeKey::from_bytes(&kb).unwrap(), key);
    for s in &shares {
        let bytes = s.to_bytes();
        let back = KeyShare::from_bytes(&bytes).unwrap();
        assert_eq!(back.id(), s.id());
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(back.subsets(), 6, "C(4, 2) subsets of 10 per member at (3,5)");
    }
    for cut in 0..kb.len() {
        assert!(CommitteeKey::from_bytes(&kb[..cut]).is_err());
    }
    assert!(CommitteeKey::from_bytes(&[kb.as_slice(), &[0]].concat()).is_err());
    let sb = shares[1].to_bytes();
    for cut in (0..sb.len()).step_by(7) {
        assert!(KeyShare::from_bytes(&sb[..cut]).is_err());
    }
    assert!(KeyShare::from_bytes(&[sb.as_slice(), &[0]].concat()).is_err());
    // Mode, threshold, member count, an id order, the owner's position, a subset mask.
    let header = 6;
    for (at, what) in [
        (header, "mode"),
        (header + 1, "T"),
        (header + 2, "N"),
        (header + 4, "id"),
    ] {
        let mut bad = sb.to_vec();
        bad[at] ^= 0x40;
        assert!(KeyShare::from_bytes(&bad).is_err(), "{what}");
    }
    let owner_at = header + 3 + 10 + Mode::MlDsa65.public_key_len();
    let mut bad = sb.to_vec();
    bad[owner_at] = 5;
    assert!(KeyShare::from_bytes(&bad).is_err(), "owner position");
    let mask_at = owner_at + 1 + 32 + 1;
    let mut bad = sb.to_vec();
    bad[mask_at] ^= 0x01;
    assert!(KeyShare::from_bytes(&bad).is_err(), "subset mask");
    // A decoded share signs like the dealt one.
    let back: Vec<KeyShare> = shares
        .iter()
        .map(|s| KeyShare::from_bytes(&s.to_bytes()).unwrap())
        .collect();
    let set = &key.members()[1..4];
    let signed = sign(&back, set, b"after storage", b"");
    verify_everywhere(&key, b"after storage", b"", &signed.signature);
}

#[test]
fn traffic_is_what_the_spec_says() {
    // ML-DSA-44 (2,3): K = 3; per run 32 + 3·4·736 + at most 3·4·576 bytes plus headers.
    let (key, shares) = dealt(Mode::MlDsa44, 2, 3, "traffic");
    assert_eq!(key.slots(), 3);
    let signed = sign(&shares, &key.members()[..2], b"traffic", b"");
    let header = 43;
    let per_run_max = 3 * header + 32 + 3 * 4 * 736 + 1 + 3 * 4 * 576;
    let per_run_min = 3 * header + 32 + 3 * 4 * 736 + 1;
    let runs = usize::from(signed.runs);
    assert!(signed.bytes_sent <= runs * per_run_max && signed.bytes_sent >= runs * per_run_min);
}

/// Runs a key generation of `t` of `n` members at `mode`, with an optional tamper.
fn generate(mode: Mode, t: usize, n: usize, label: &str, tamper: Option<Tamper>) -> Outcomes<Keyed> {
    let params = DkgParams::new(sid(label), mode, t, &members(n)).unwrap();
    let started = members(n)
        .into_iter()
        .map(|me| Dkg::start(me, &params, &mut party_rng(label.as_bytes(), me)).unwrap())
        .collect();
    run(started, tamper).0
}

fn generated(mode: Mode, t: usize, n: usize, label: &str) -> (CommitteeKey, Vec<KeyShare>) {
    let outcomes = generate(mode, t, n, label, None);
    let keyed: Vec<Keyed> = outcomes.into_values().map(|o| o.unwrap()).collect();
    let key = keyed[0].key.clone();
    for k in &keyed {
        assert_eq!(k.key, key, "every member ends with the same key");
        assert!(k.dropped.is_empty());
        assert_eq!(k.share.committee(), &key);
    }
    (key, keyed.into_iter().map(|k| k.share).collect())
}

#[test]
fn the_distributed_key_generation_gives_a_key_every_signing_set_signs_under() {
    for n in committee::MIN_PARTIES..=committee::MAX_PARTIES {
        for t in 2..=n {
            let (key, shares) = generated(Mode::MlDsa44, t, n, &format!("dkg {t} of {n}"));
            let sets = subsets_of(key.members(), t);
            // Every set for the small committees, three spread over the list otherwise.
            let picked: Vec<&Vec<PartyId>> = if sets.len() <= 6 {
                sets.iter().collect()
            } else {
                vec![&sets[0], &sets[sets.len() / 2], &sets[sets.len() - 1]]
            };
            for set in picked {
                let message = format!("dkg-signed by {set:?}");
                let signed = sign(&shares, set, message.as_bytes(), b"");
                verify_everywhere(&key, message.as_bytes(), b"", &signed.signature);
            }
        }
    }
    for mode in [Mode::MlDsa65, Mode::MlDsa87] {
        let (key, shares) = generated(mode, 2, 3, &format!("dkg {mode:?}"));
        let signed = sign(&shares, &key.members()[1..], b"dkg", b"");
        verify_everywhere(&key, b"dkg", b"", &signed.signature);
    }
}

#[test]
fn a_wrong_seed_names_its_owner_and_no_member_finishes_with_the_key() {
    let m = members(4);
    // Member m[0] owns every subset containing it; the seeds it sends m[2] are altered.
    let victim = m[2];
    let tamper: Tamper = Box::new(move |mut e: Envelope| {
        if e.to == victim && magic(&e.bytes) == *DKG_SEEDS_MAGIC && e.from == pid(2) {
            let last = e.bytes.len() - 1;
            e.bytes[last] ^= 0x01;
        }
        vec![e]
    });
    let outcomes = generate(Mode::MlDsa44, 3, 4, "wrong seed", Some(tamper));
    match outcomes[&victim].as_ref().unwrap_err() {
        quasar_pq::Error::Committee(Error::Aborted { culprits, blame }) => {
            assert_eq!(culprits, &[m[0]]);
            assert_eq!(codes(&blame[..]), [(m[0], "INVALID_SHARE")]);
        }
        other => panic!("{other:?}"),
    }
    for (id, o) in &outcomes {
        assert!(o.is_err(), "{id} finished without the victim's confirmation");
    }
}

/// A private seeds message (`PQD2`) delivered twice is named `DUPLICATE_MESSAGE` (told from
/// a conflicting copy without an early exit: the seeds are secret), one copy is used, and
/// every member ends with the key; two different copies in one inbox are equivocation: both
/// are dropped as `CONFLICTING_MESSAGE` and nobody finishes.
#[test]
fn a_repeated_seeds_message_is_named_and_one_copy_used_an_equivocated_one_stops_the_key() {
    let m = members(3);
    // m[0] owns the subsets it shares with m[1] (their lowest member) and sends it the seeds.
    let (owner, receiver) = (m[0], m[1]);
    for conflicting in [false, true] {
        let tamper: Tamper = Box::new(move |e: Envelope| {
            if e.to == receiver && magic(&e.bytes) == *DKG_SEEDS_MAGIC && e.from == owner {
                let mut copy = e.clone();
                if conflicting {
                    let last = copy.bytes.len() - 1;
                    copy.bytes[last] ^= 0x01;
                }
                return vec![e, copy];
            }
            vec![e]
        });
        let outcomes = generate(Mode::MlDsa44, 2, 3, "repeated seeds", Some(tamper));
        if conflicting {
            assert!(outcomes.values().all(Result::is_err), "nobody finishes");
            continue;
        }
        let keyed: Vec<&Keyed> = outcomes.values().map(|o| o.as_ref().unwrap()).collect();
        assert!(keyed.iter().all(|k| k.key == keyed[0].key));
        let named = codes(&outcomes[&receiver].as_ref().unwrap().dropped);
        assert_eq!(named, [(owner, "DUPLICATE_MESSAGE")]);
    }
}

#[test]
fn a_published_part_that_breaks_its_commitment_names_its_owner() {
    let m = members(3);
    let tamper: Tamper = Box::new(move |mut e: Envelope| {
        if magic(&e.bytes) == *DKG_PUBLISH_MAGIC && e.from == pid(2) {
            let at = e.bytes.len() - 5;
            e.bytes[at] ^= 0x01;
        }
        vec![e]
    });
    let outcomes = generate(Mode::MlDsa44, 2, 3, "broken part", Some(tamper));
    for (id, o) in &outcomes {
        if *id == m[0] {
            continue;
        }
        match o.as_ref().unwrap_err() {
            quasar_pq::Error::Committee(Error::Aborted { culprits, blame }) => {
                assert_eq!(culprits, &[m[0]]);
                assert_eq!(codes(&blame[..]), [(m[0], "BROKEN_REVEAL")]);
            }
            other => panic!("{id}: {other:?}"),
        }
    }
}
