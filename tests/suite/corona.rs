//! Corona (two-round t-of-n threshold lattice signature) through its parties on the simulator:
//! any t-subset (and larger sets) of several (t, n) signs and every signer combines the same
//! verified signature; t − 1 cannot start; a wrong z_i ends the session without a signature
//! and names nobody (the scheme cannot); garbage, replays, bad MACs, foreign senders and
//! another challenge are dropped and named without consuming state; strict decoders for
//! every frame; verification refuses every flipped part.
//!
//! Run: `cargo test --features sim,hazmat --test suite corona::`.
#![cfg(all(feature = "sim", feature = "hazmat"))]
#![allow(clippy::unwrap_used)]

use crate::common;

use common::sim::*;
use quasar_pq::corona::{
    self, Error, GroupKey, KeyShare, SignParams, Signed, Signer, COMMIT_MAGIC, RESPONSE_MAGIC, SIGNATURE_LEN,
};
use quasar_pq::party::hazmat::Cheat;
use quasar_pq::party::sim::party_rng;
use quasar_pq::party::{Incoming, Outgoing, Party, Step};
use quasar_pq::PartyId;
use rand_chacha::rand_core::SeedableRng;

fn dealt(t: usize, n: usize, label: &str) -> (GroupKey, Vec<KeyShare>) {
    let mut rng = rand_chacha::ChaCha20Rng::from_seed(sid(label));
    corona::deal(t, n, &mut rng).unwrap()
}

fn start(
    shares: &[KeyShare],
    params: &SignParams,
    cheat: Option<(PartyId, Cheat)>,
) -> Vec<(Signer, Outgoing)> {
    shares
        .iter()
        .filter(|s| params.signers().contains(&s.id()))
        .map(|s| {
            let mut rng = party_rng(b"corona test", s.id());
            match cheat {
                Some((who, c)) if who == s.id() => Signer::start_cheating(s, params, c, &mut rng).unwrap(),
                _ => Signer::start(s, params, &mut rng).unwrap(),
            }
        })
        .collect()
}

/// Signs with `signers`; every signer must reach the same signature, which verifies.
fn sign(key: &GroupKey, shares: &[KeyShare], signers: &[PartyId], message: &[u8]) -> Signed {
    let params = SignParams::new(sid(&format!("{signers:?}{message:?}")), signers, message, b"ctx").unwrap();
    let (outcomes, _) = run(start(shares, &params, None), None);
    assert_eq!(outcomes.len(), signers.len());
    let signed: Vec<Signed> = outcomes.into_values().map(|o| o.unwrap()).collect();
    for s in &signed[1..] {
        assert_eq!(
            s.signature, signed[0].signature,
            "every signer combines the same signature"
        );
    }
    assert!(signed.iter().all(|s| s.dropped.is_empty()));
    let sig = &signed[0].signature;
    assert_eq!(sig.len(), SIGNATURE_LEN);
    key.verify(message, b"ctx", sig).unwrap();
    assert_eq!(key.verify(b"another", b"ctx", sig), Err(Error::InvalidSignature));
    assert_eq!(key.verify(message, b"ctx2", sig), Err(Error::InvalidSignature));
    signed.into_iter().next().unwrap()
}

#[test]
fn any_t_subset_and_larger_sets_sign() {
    let (key, shares) = dealt(2, 3, "2 of 3");
    for set in [[1, 2], [1, 3], [2, 3]] {
        sign(&key, &shares, &ids(set), b"block");
    }
    sign(&key, &shares, &ids(1..=3), b"block");
    let (key5, shares5) = dealt(3, 5, "3 of 5");
    for set in [vec![1, 2, 3], vec![2, 4, 5], vec![1, 3, 5], vec![1, 2, 4, 5]] {
        let signed = sign(&key5, &shares5, &ids(set.clone()), b"block");
        // Another group's key refuses it.
        assert_eq!(
            key.verify(b"block", b"ctx", &signed.signature),
            Err(Error::InvalidSignature)
        );
    }
}

#[test]
fn too_few_or_foreign_signers_cannot_start() {
    let (_, shares) = dealt(3, 4, "refusals");
    let rng = &mut party_rng(b"refusals", pid(1));
    let two = SignParams::new([1; 32], &ids([1, 2]), b"x", b"").unwrap();
    assert_eq!(
        Signer::start(&shares[0], &two, rng).unwrap_err(),
        Error::WrongSignerCount {
            min: 3,
            max: 4,
            got: 2
        }
    );
    let stranger = SignParams::new([1; 32], &ids([1, 2, 9]), b"x", b"").unwrap();
    assert_eq!(
        Signer::start(&shares[0], &stranger, rng).unwrap_err(),
        Error::UnknownParty { party: pid(9) }
    );
    let others = SignParams::new([1; 32], &ids([2, 3, 4]), b"x", b"").unwrap();
    assert_eq!(
        Signer::start(&shares[0], &others, rng).unwrap_err(),
        Error::NotASigner { party: pid(1) }
    );
    assert_eq!(
        SignParams::new([1; 32], &ids([1, 1, 2]), b"x", b"").unwrap_err(),
        Error::DuplicateSigner { party: pid(1) }
    );
    assert_eq!(
        SignParams::new([1; 32], &ids([1, 2]), b"x", &[0; 256]).unwrap_err(),
        Error::ContextTooLong { len: 256 }
    );
    let rng = &mut rand_chacha::ChaCha20Rng::from_seed([0; 32]);
    for (t, n) in [(1, 3), (4, 3), (2, 1025)] {
        assert_eq!(
            corona::deal(t, n, rng).unwrap_err(),
            Error::InvalidThreshold { t, n }
        );
    }
}

#[test]
fn a_wrong_response_ends_the_session_without_a_signature_or_a_name() {
    let (_, shares) = dealt(2, 3, "wrong z");
    let params = SignParams::new(sid("wrong z"), &ids(1..=3), b"msg", b"").unwrap();
    let (outcomes, _) = run(
        start(&shares, &params, Some((pid(2), Cheat::BadContribution))),
        None,
    );
    for (id, o) in &outcomes {
        let e = o.as_ref().unwrap_err();
        assert_eq!(e.code(), "UNATTRIBUTABLE_ABORT", "{id}");
        assert!(e.culprits().is_empty());
    }
}

#[test]
fn garbage_is_named_and_never_signs() {
    let (_, shares) = dealt(2, 3, "garbage");
    let params = SignParams::new(sid("garbage"), &ids([1, 2]), b"msg", b"").unwrap();
    let started = start(&shares, &params, Some((pid(2), Cheat::Garbage)));
    let (outcomes, _) = run(started, None);
    assert_eq!(outcomes[&pid(1)].as_ref().unwrap_err().code(), "MISSING_MESSAGE");
}

fn next(step: Step<Signed>) -> Vec<u8> {
    match step {
        Step::Continue(out) => out.broadcast.unwrap(),
        other => panic!("{other:?}"),
    }
}

/// Steps one signer by hand: every bad message is dropped and named, the state stays, and
/// the genuine message delivered afterwards completes the round.
#[test]
fn bad_messages_are_dropped_and_named_without_consuming_state() {
    let (key, shares) = dealt(2, 3, "by hand");
    let params = SignParams::new(sid("by hand"), &ids([1, 2]), b"msg", b"ctx").unwrap();
    let other_session = SignParams::new(sid("another session"), &ids([1, 2]), b"msg", b"ctx").unwrap();
    let other_set = SignParams::new(sid("by hand"), &ids([1, 2, 3]), b"msg", b"ctx").unwrap();
    let mut started = start(&shares, &params, None);
    let (mut b, b_out) = started.pop().unwrap();
    let (mut a, a_out) = started.pop().unwrap();
    let rng = &mut party_rng(b"x", pid(1));
    let replay = Signer::start(&shares[0], &other_session, rng)
        .unwrap()
        .1
        .broadcast
        .unwrap();
    let wrong_set = Signer::start(&shares[0], &other_set, rng)
        .unwrap()
        .1
        .broadcast
        .unwrap();
    let genuine = a_out.broadcast.clone().unwrap();
    assert_eq!(magic(&genuine), COMMIT_MAGIC);
    assert_eq!(genuine.len(), 614_666 + 36 * 2);
    assert_eq!(genuine.len(), corona::commit_len(2));
    let mut bad_mac = genuine.clone();
    let last = bad_mac.len() - 1;
    bad_mac[last] ^= 1;
    // The first coefficient of D set to 2^49 − 1 (≥ q).
    let mut big = genuine.clone();
    let d_at = 4 + 2 + 32 + 2 + 2 + 2 * 2;
    big[d_at..d_at + 6].fill(0xff);
    big[d_at + 6] |= 0x01;
    let mut bad: Vec<(PartyId, Vec<u8>, &str)> = vec![
        (pid(1), genuine[..genuine.len() - 1].to_vec(), "MALFORMED_MESSAGE"),
        (pid(1), [genuine.as_slice(), &[0]].concat(), "MALFORMED_MESSAGE"),
        (pid(1), junk(75, "commit"), "WRONG_KIND"),
        (pid(1), big, "MALFORMED_MESSAGE"),
        (pid(1), replay, "WRONG_SESSION"),
        (pid(1), wrong_set, "PARAMETER_MISMATCH"),
        (pid(1), bad_mac, "INVALID_MAC"),
        (pid(1), b_out.broadcast.clone().unwrap(), "SENDER_MISMATCH"),
        (pid(3), genuine.clone(), "UNKNOWN_PARTY"),
        (pid(77), b"CO".to_vec(), "MALFORMED_MESSAGE"),
        (pid(77), junk(3, "short"), "UNKNOWN_PARTY"),
    ];
    // Flips in the header, the set, D and the MAC list: each fails some check.
    for at in [4, 6, 40, 43, 100, genuine.len() - 40] {
        let mut flipped = genuine.clone();
        flipped[at] ^= 0x01;
        bad.push((pid(1), flipped, "x"));
    }
    for (i, (from, bytes, code)) in bad.iter().enumerate() {
        let step = b.step(&[Incoming::new(*from, bytes)]).unwrap();
        assert!(step.is_waiting(), "{i}: {code}");
        let so_far = b.dropped_so_far();
        assert_eq!(so_far.len(), i + 1, "{i}: {code}");
        assert_eq!(so_far[i].party, *from, "{code}");
        if *code != "x" {
            assert_eq!(so_far[i].reason.code(), *code, "{i}");
        }
    }
    let resp_b = next(b.step(&[Incoming::new(pid(1), &genuine)]).unwrap());
    assert_eq!(magic(&resp_b), RESPONSE_MAGIC);
    assert_eq!(resp_b.len(), 11_048);
    assert_eq!(resp_b.len(), corona::RESPONSE_LEN);
    // A commitment again after the round: named, never re-counted.
    assert!(b.step(&[Incoming::new(pid(1), &genuine)]).unwrap().is_waiting());
    let resp_a = next(
        a.step(&[Incoming::new(pid(2), b_out.broadcast.as_ref().unwrap())])
            .unwrap(),
    );
    // A response echoing another challenge is named; the true one completes.
    let mut other_c = resp_a.clone();
    other_c[4 + 2 + 32 + 2] ^= 1;
    assert!(b.step(&[Incoming::new(pid(1), &other_c)]).unwrap().is_waiting());
    let mut off_z = resp_a.clone();
    let end = off_z.len() - 1;
    off_z[end] = 0xff; // z's last coefficient ≥ q
    assert!(b.step(&[Incoming::new(pid(1), &off_z)]).unwrap().is_waiting());
    let sb = b.step(&[Incoming::new(pid(1), &resp_a)]).unwrap();
    let sa = a.step(&[Incoming::new(pid(2), &resp_b)]).unwrap();
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
                "INVALID_MAC",
                "PARAMETER_MISMATCH",
                "DUPLICATE_MESSAGE",
                "DIFFERENT_CHALLENGE",
            ] {
                assert!(named.iter().any(|(_, c)| *c == code), "{code} in {named:?}");
            }
            assert!(
                named.iter().all(|(p, _)| *p != pid(2)),
                "never the receiver itself"
            );
            assert!(b.step(&[]).is_err(), "finished: the round-1 state answered once");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_equivocated_commitment_stops_the_session_and_names_the_view_that_differs() {
    // Party 1 shows party 3 another commitment (fresh randomness, the right session and set,
    // valid MACs): 3 computes another challenge, and the signers who saw the first name 3
    // (DIFFERENT_CHALLENGE: its view differs) — here the victim, not the equivocator. Without
    // signed round-1 messages nobody can prove who sent what to whom, so the blame says only
    // whose view differs; the session cannot finish and no signature is made.
    let (_, shares) = dealt(2, 3, "equivocation");
    let params = SignParams::new(sid("equivocation"), &ids(1..=3), b"msg", b"").unwrap();
    let mut started = start(&shares, &params, None);
    let (mut s3, o3) = started.pop().unwrap();
    let (mut s2, o2) = started.pop().unwrap();
    let (mut s1, o1) = started.pop().unwrap();
    let (o1, o2, o3) = (
        o1.broadcast.unwrap(),
        o2.broadcast.unwrap(),
        o3.broadcast.unwrap(),
    );
    let twin = Signer::start(&shares[0], &params, &mut party_rng(b"twin", pid(1)))
        .unwrap()
        .1
        .broadcast
        .unwrap();
    let r1 = next(
        s1.step(&[Incoming::new(pid(2), &o2), Incoming::new(pid(3), &o3)])
            .unwrap(),
    );
    let r2 = next(
        s2.step(&[Incoming::new(pid(1), &o1), Incoming::new(pid(3), &o3)])
            .unwrap(),
    );
    let r3 = next(
        s3.step(&[Incoming::new(pid(1), &twin), Incoming::new(pid(2), &o2)])
            .unwrap(),
    );
    assert!(s1
        .step(&[Incoming::new(pid(2), &r2), Incoming::new(pid(3), &r3)])
        .unwrap()
        .is_waiting());
    assert!(s2
        .step(&[Incoming::new(pid(1), &r1), Incoming::new(pid(3), &r3)])
        .unwrap()
        .is_waiting());
    for s in [&s1, &s2] {
        assert_eq!(codes(s.dropped_so_far()), [(pid(3), "DIFFERENT_CHALLENGE")]);
    }
}

#[test]
fn frames_decode_strictly() {
    let (key, shares) = dealt(2, 3, "frames");
    let g = key.to_bytes();
    assert_eq!(g.len(), corona::GROUP_KEY_LEN);
    assert_eq!(GroupKey::from_bytes(&g).unwrap(), key);
    let k = shares[1].to_bytes();
    assert_eq!(k.len(), 11_054 + 66 * 2);
    let back = KeyShare::from_bytes(&k, &key).unwrap();
    assert_eq!(back.to_bytes(), k);
    assert_eq!(back.id(), pid(2));
    let (other, _) = dealt(2, 3, "another key");
    assert_eq!(KeyShare::from_bytes(&k, &other).unwrap_err(), Error::KeyMismatch);
    let signed = sign(&key, &shares, &ids([1, 3]), b"frames");
    let s = signed.signature;
    // Every truncation, one extra byte, a bad magic, versions 0, 1, 3, a wrong length.
    let groups: [(&[u8], &str); 3] = [(&g, "group key"), (&k, "key package"), (&s, "signature")];
    for (bytes, what) in groups {
        let check = |b: &[u8]| match what {
            "group key" => GroupKey::from_bytes(b).map(|_| ()),
            "key package" => KeyShare::from_bytes(b, &key).map(|_| ()),
            _ => key.verify(b"frames", b"ctx", b),
        };
        for len in (0..bytes.len()).step_by(97).chain([bytes.len() - 1]) {
            assert!(
                matches!(check(&bytes[..len]), Err(Error::Malformed { .. })),
                "{what} cut at {len}"
            );
        }
        assert!(matches!(
            check(&[bytes, &[0]].concat()),
            Err(Error::Malformed { .. })
        ));
        let mut m = bytes.to_vec();
        m[0] ^= 1;
        assert_eq!(check(&m).unwrap_err().code(), "BAD_MAGIC");
        for v in [0u8, 1, 3] {
            let mut m = bytes.to_vec();
            m[5] = v;
            if what == "key package" && v == 1 {
                continue;
            }
            assert_eq!(check(&m).unwrap_err().code(), "BAD_VERSION", "{what} v{v}");
        }
        if what != "key package" {
            let mut m = bytes.to_vec();
            m[9] ^= 1; // the first declared length
            assert_eq!(check(&m).unwrap_err().code(), "LENGTH_MISMATCH");
        }
    }
    // A share coefficient = q (2^48 + 18945) and = 2^49 − 1.
    let at = 12 + 64;
    for value in [(1u64 << 48) + 18945, (1 << 49) - 1] {
        let mut m = k.to_vec();
        let mut acc = u64::from_le_bytes(m[at..at + 8].try_into().unwrap());
        acc = (acc & !((1 << 49) - 1)) | value;
        m[at..at + 8].copy_from_slice(&acc.to_le_bytes());
        assert_eq!(
            KeyShare::from_bytes(&m, &key).unwrap_err().code(),
            "INVALID_VALUE"
        );
    }
}

#[test]
fn every_part_of_a_signature_is_bound() {
    let (key, shares) = dealt(2, 3, "flips");
    let s = sign(&key, &shares, &ids([2, 3]), b"flips").signature;
    // c̃ at 10..42, z at 46..10,798, Δ at 10,802..: flips in each.
    for at in [
        10,
        30,
        41,
        46,
        47,
        5000,
        10_797,
        10_802,
        12_000,
        SIGNATURE_LEN - 1,
    ] {
        for bit in [0, 5] {
            let mut m = s.clone();
            m[at] ^= 1 << bit;
            assert_eq!(
                key.verify(b"flips", b"ctx", &m),
                Err(Error::InvalidSignature),
                "{at}.{bit}"
            );
        }
    }
}

#[test]
fn sealed_key_packages_open_only_for_their_party_and_sign() {
    use quasar_pq::pulsar::custody::CombinerKey;
    let rng = &mut rand_chacha::ChaCha20Rng::from_seed(sid("sealed"));
    let kems: Vec<CombinerKey> = (1..=3).map(|i| CombinerKey::generate(pid(i), rng)).collect();
    let keys: Vec<_> = kems.iter().map(|k| k.public_key().clone()).collect();
    let (group, sealed) = corona::deal_sealed(2, &keys, rng).unwrap();
    assert!(sealed
        .iter()
        .all(|s| s.starts_with(&corona::SEALED_PACKAGE_MAGIC)));
    let shares: Vec<KeyShare> = sealed
        .iter()
        .zip(&kems)
        .map(|(s, k)| KeyShare::open_sealed(s, k, &group).unwrap())
        .collect();
    assert_eq!(shares[1].id(), pid(2));
    sign(&group, &shares, &ids([2, 3]), b"sealed");
    // Another party's key, an altered byte anywhere, another group, bad frames.
    assert_eq!(
        KeyShare::open_sealed(&sealed[0], &kems[1], &group).unwrap_err(),
        Error::NotASigner { party: pid(2) }
    );
    let (other, _) = dealt(2, 3, "other group");
    assert_eq!(
        KeyShare::open_sealed(&sealed[0], &kems[0], &other).unwrap_err(),
        Error::KeyMismatch
    );
    for at in [72, 100, 1200, sealed[0].len() - 20, sealed[0].len() - 1] {
        let mut m = sealed[0].clone();
        m[at] ^= 1;
        assert!(
            matches!(
                KeyShare::open_sealed(&m, &kems[0], &group),
                Err(Error::Malformed { .. })
            ),
            "flip at {at}"
        );
    }
    let s = &sealed[0];
    for cut in [0, 5, 71, 1000, s.len() - 1] {
        assert!(matches!(
            KeyShare::open_sealed(&s[..cut], &kems[0], &group),
            Err(Error::Malformed { .. })
        ));
    }
    assert!(matches!(
        KeyShare::open_sealed(&[s.as_slice(), &[0]].concat(), &kems[0], &group),
        Err(Error::Malformed { .. })
    ));
    // Keys out of order are refused before anything is dealt.
    let swapped = [keys[1].clone(), keys[0].clone(), keys[2].clone()];
    assert_eq!(
        corona::deal_sealed(2, &swapped, rng).unwrap_err(),
        Error::UnknownParty { party: pid(2) }
    );
}
