//! Pulsar custody: key ceremony, signing with standard FIPS 204 output, resharing with an
//! unchanged group key and activation certificates, misbehaving parties, strict decoders.
#![cfg(feature = "threshold")]

mod common;

use std::collections::{BTreeMap, BTreeSet};

use quasar_pq::lss::{self, ActivationCertificate, Ceremony, GroupPublic};
use quasar_pq::mldsa::{self, Mode};
use quasar_pq::pulsar::custody::{
    self, activation_certificate, activation_session, hazmat, verify_activation, verify_activation_expected,
    CombineState, Combiner, CombinerKey, CombinerPublicKey, GroupKey, GroupKeyAnnouncement, KeyShare,
    Round1Message, Round2Message, Session, ACTIVATION_CONTEXT,
};
use quasar_pq::pulsar::frame::SignatureFrame;
use quasar_pq::pulsar::{Blame, Error};
use quasar_pq::vss::{self, Ristretto255};
use quasar_pq::{wire, PartyId};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

type R = Ristretto255;
type LssShare = lss::KeyShare<R>;

fn pid(v: u16) -> PartyId {
    PartyId::new(v).unwrap()
}

fn ids(range: impl IntoIterator<Item = u16>) -> Vec<PartyId> {
    range.into_iter().map(pid).collect()
}

fn rng(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

fn session_id(label: &str) -> [u8; 32] {
    let mut id = [0u8; 32];
    id[..label.len()].copy_from_slice(label.as_bytes());
    id
}

const COMBINER: u16 = 1000;

// ---------------------------------------------------------------------------------
// Drivers: the LSS dealing and the custody rounds, all parties in one process.
// ---------------------------------------------------------------------------------

/// Runs one LSS dealing to completion; returns the new shares by receiver and the new
/// public data.
fn deal(
    ceremony: Ceremony<R>,
    old: &BTreeMap<PartyId, &LssShare>,
    rng: &mut ChaCha20Rng,
) -> (BTreeMap<PartyId, LssShare>, GroupPublic<R>) {
    let participants: BTreeSet<PartyId> = ceremony
        .dealers()
        .iter()
        .chain(ceremony.receivers())
        .copied()
        .collect();
    let mut states = Vec::new();
    let mut deals = BTreeMap::new();
    let mut private: BTreeMap<PartyId, BTreeMap<PartyId, lss::ShareMessage<R>>> = BTreeMap::new();
    for &p in &participants {
        let (s, out) = lss::round1(ceremony.clone(), p, old.get(&p).copied(), rng).unwrap();
        if let Some(b) = out.broadcast {
            deals.insert(p, b);
        }
        for m in out.shares {
            private.entry(m.to()).or_default().insert(m.from(), m);
        }
        states.push((p, s));
    }
    let mut complaints = BTreeMap::new();
    let mut r2 = Vec::new();
    for (p, s) in states {
        let (s, c) = s
            .round2(deals.clone(), private.remove(&p).unwrap_or_default())
            .unwrap();
        if let Some(c) = c {
            complaints.insert(p, c);
        }
        r2.push((p, s));
    }
    let mut responses = BTreeMap::new();
    let mut r3 = Vec::new();
    for (p, s) in r2 {
        let (s, r) = s.round3(complaints.clone()).unwrap();
        if let Some(r) = r {
            responses.insert(p, r);
        }
        r3.push((p, s));
    }
    let mut shares = BTreeMap::new();
    let mut public = None;
    for (p, s) in r3 {
        let out = s.finalize(responses.clone()).unwrap();
        assert!(out.blame.is_empty());
        if let Some(k) = out.key_share {
            shares.insert(p, k);
        }
        public = Some(out.public);
    }
    (shares, public.unwrap())
}

/// The signers' rounds: returns the round-1 broadcasts and the round-2 envelopes.
fn signer_rounds(
    shares: &[&LssShare],
    session: &Session,
    rng: &mut ChaCha20Rng,
) -> (BTreeMap<PartyId, Round1Message>, BTreeMap<PartyId, Round2Message>) {
    let mut r1 = BTreeMap::new();
    let mut states = Vec::new();
    for share in shares {
        let (s, m) = custody::round1(share, session, rng).unwrap();
        r1.insert(share.id(), m);
        states.push(s);
    }
    let r2 = states
        .into_iter()
        .map(|s| (s.me(), s.round2(&r1).unwrap()))
        .collect();
    (r1, r2)
}

/// A copy of a combiner key (so a test can run the combine step several times).
fn copy_key(key: &CombinerKey) -> CombinerKey {
    CombinerKey::from_bytes(&key.to_bytes()).unwrap()
}

fn combine_state(
    key: &CombinerKey,
    session: &Session,
    r1: &BTreeMap<PartyId, Round1Message>,
) -> CombineState {
    Combiner::new(copy_key(key), session).unwrap().round1(r1).unwrap()
}

struct Group {
    shares: BTreeMap<PartyId, KeyShare>,
    public: GroupPublic<R>,
    key: GroupKey,
}

impl Group {
    fn lss(&self, set: &[PartyId]) -> Vec<&LssShare> {
        set.iter().map(|p| self.shares[p].lss()).collect()
    }
}

/// DKG + key derivation by `signers` (default: the first t) + storage.
fn key_ceremony(mode: Mode, n: u16, t: u16, rng: &mut ChaCha20Rng) -> Group {
    let parties = ids(1..=n);
    let dkg = Ceremony::<R>::dkg(session_id("dkg"), vss::Mode::Pedersen, &parties, t).unwrap();
    let (lss_shares, public) = deal(dkg, &BTreeMap::new(), rng);
    assert!(public.group_key().is_none(), "Pedersen mode publishes no x·G");

    let combiner = CombinerKey::generate(pid(COMBINER), rng);
    let signers = &parties[..usize::from(t)];
    let session = Session::key_ceremony(
        session_id("ceremony"),
        mode,
        &public,
        signers,
        combiner.public_key(),
    )
    .unwrap();
    let used: Vec<&LssShare> = signers.iter().map(|p| &lss_shares[p]).collect();
    let (r1, r2) = signer_rounds(&used, &session, rng);
    let state = Combiner::new(combiner, &session).unwrap().round1(&r1).unwrap();
    let announcement = state.finish_key_ceremony(&r2, rng).unwrap();
    assert!(announcement.blame().is_empty());

    // Every party decodes the broadcast announcement and checks it against its sharing.
    let bytes = announcement.to_bytes();
    let mut key = None;
    let mut shares = BTreeMap::new();
    for (p, s) in lss_shares {
        let a = GroupKeyAnnouncement::from_bytes(&bytes).unwrap();
        let k = a.verify(s.public()).unwrap();
        key.get_or_insert_with(|| k.clone());
        shares.insert(p, KeyShare::new(s, k).unwrap());
    }
    let key = key.unwrap();
    assert_eq!(key.mode(), mode);
    assert_eq!(key.public_key().len(), mode.public_key_len());
    Group { shares, public, key }
}

/// A full signing session by `signers`; returns the combine state and envelopes.
fn prepare(
    group: &Group,
    signers: &[PartyId],
    id: &str,
    msg: &[u8],
    ctx: &[u8],
    rng: &mut ChaCha20Rng,
) -> (
    Session,
    CombinerKey,
    BTreeMap<PartyId, Round1Message>,
    BTreeMap<PartyId, Round2Message>,
) {
    let combiner = CombinerKey::generate(pid(COMBINER), rng);
    let session = Session::sign(
        session_id(id),
        &group.key,
        &group.public,
        signers,
        combiner.public_key(),
        msg,
        ctx,
    )
    .unwrap();
    let (r1, r2) = signer_rounds(&group.lss(signers), &session, rng);
    (session, combiner, r1, r2)
}

fn sign(
    group: &Group,
    signers: &[PartyId],
    msg: &[u8],
    ctx: &[u8],
    rng: &mut ChaCha20Rng,
) -> custody::Signed {
    let (session, key, r1, r2) = prepare(group, signers, "sign", msg, ctx, rng);
    Combiner::new(key, &session)
        .unwrap()
        .round1(&r1)
        .unwrap()
        .combine(&r2, rng)
        .unwrap()
}

// ---------------------------------------------------------------------------------
// Ceremony, signing, standard verification
// ---------------------------------------------------------------------------------

#[test]
fn ceremony_sign_and_verify_with_plain_mldsa() {
    let mut rng = rng(1);
    let cases = [
        (Mode::MlDsa65, 2, 3),
        (Mode::MlDsa65, 3, 5),
        (Mode::MlDsa65, 5, 7),
        (Mode::MlDsa44, 2, 3),
        (Mode::MlDsa87, 2, 3),
        (Mode::MlDsa44, 1, 3),
        (Mode::MlDsa44, 4, 4),
    ];
    for (mode, t, n) in cases {
        let g = key_ceremony(mode, n, t, &mut rng);
        // Any t signers (here the last t, not the ceremony's), and a larger set.
        for signers in [ids(n - t + 1..=n), ids(1..=n)] {
            let msg = format!("block {t}-of-{n}");
            let signed = sign(&g, &signers, msg.as_bytes(), b"ctx", &mut rng);
            assert_eq!(signed.signature().len(), mode.signature_len());
            assert_eq!(signed.signers().len(), usize::from(t));
            assert!(signed.blame().is_empty());
            mldsa::verify(
                mode,
                g.key.public_key(),
                msg.as_bytes(),
                b"ctx",
                signed.signature(),
            )
            .unwrap();
            assert!(mldsa::verify(mode, g.key.public_key(), b"other", b"ctx", signed.signature()).is_err());
            // Independent FIPS 204 verifiers accept it too.
            for peer in common::peers::peers(mode) {
                assert!(
                    (peer.verify)(g.key.public_key(), msg.as_bytes(), b"ctx", signed.signature()),
                    "{} rejects a threshold signature",
                    peer.name
                );
            }
            // PULS/PULG frames.
            let frame = signed.to_frame();
            assert_eq!(
                SignatureFrame::decode(&frame).unwrap().signature,
                signed.signature()
            );
            g.key.verify_frame(msg.as_bytes(), b"ctx", &frame).unwrap();
            let pulg_bytes = g.key.frame();
            let pulg = quasar_pq::pulsar::frame::GroupKeyFrame::decode(&pulg_bytes).unwrap();
            assert!(pulg.verify(msg.as_bytes(), b"ctx", &frame));
        }
        // Custody key shares round-trip through their encoding.
        let (p, share) = g.shares.iter().next().unwrap();
        let back = KeyShare::from_bytes(&share.to_bytes()).unwrap();
        assert_eq!((back.id(), back.group_key()), (*p, &g.key));
        assert!(format!("{share:?}").contains("redacted"));
        assert_eq!(GroupKey::from_bytes(&g.key.to_bytes()).unwrap(), g.key);
    }
}

#[test]
fn deterministic_signing_is_fips204_under_the_rebuilt_key() {
    let mut rng = rng(2);
    for mode in Mode::ALL {
        let g = key_ceremony(mode, 5, 3, &mut rng);
        // Rebuild x the way only a test may, and derive the key independently.
        let points: Vec<(PartyId, _)> = g
            .shares
            .values()
            .take(3)
            .map(|s| (s.id(), *s.lss().secret_share()))
            .collect();
        let x = vss::reconstruct::<R>(&points).unwrap();
        let seed = hazmat::derive_seed(mode, &x);
        let (pk, sk) = mldsa::keygen(mode, &seed);
        assert_eq!(pk, g.key.public_key());

        let msg = b"deterministic";
        let expected = mldsa::sign(mode, &sk, msg, b"", None).unwrap();
        for signers in [ids([1, 2, 3]), ids([2, 4, 5]), ids(1..=5)] {
            let (session, key, r1, r2) = prepare(&g, &signers, "det", msg, b"", &mut rng);
            let signed = Combiner::new(key, &session)
                .unwrap()
                .round1(&r1)
                .unwrap()
                .combine_deterministic(&r2)
                .unwrap();
            assert_eq!(signed.signature(), &expected[..]);
        }
        // Hedged signatures differ from run to run and still verify.
        let a = sign(&g, &ids([1, 2, 3]), msg, b"", &mut rng);
        let b = sign(&g, &ids([1, 2, 3]), msg, b"", &mut rng);
        assert_ne!(a.signature(), b.signature());
        assert_ne!(a.signature(), &expected[..]);
        mldsa::verify(mode, &pk, msg, b"", b.signature()).unwrap();
    }
}

// ---------------------------------------------------------------------------------
// Resharing and activation
// ---------------------------------------------------------------------------------

/// Runs an LSS refresh/reshare of `group` and returns the next generation, after
/// checking the unchanged group key, the activation certificate and a new signature,
/// and that the old shares are refused.
fn reshare_and_activate(group: Group, ceremony: Ceremony<R>, rng: &mut ChaCha20Rng) -> Group {
    let old: BTreeMap<PartyId, &LssShare> = group.shares.iter().map(|(p, s)| (*p, s.lss())).collect();
    let (new_shares, public) = deal(ceremony, &old, rng);
    assert_eq!(public.generation(), group.public.generation() + 1);
    assert_eq!(
        public.group_commitment_bytes(),
        group.public.group_commitment_bytes()
    );

    // Each new party stores its share with the unchanged group key.
    let shares: BTreeMap<PartyId, KeyShare> = new_shares
        .into_iter()
        .map(|(p, s)| (p, KeyShare::new(s, group.key.clone()).unwrap()))
        .collect();
    let next = Group {
        shares,
        public,
        key: group.key.clone(),
    };

    // The new set signs the activation certificate; anyone verifies it with plain ML-DSA.
    let t = usize::from(next.public.threshold());
    let signers: Vec<PartyId> = next.public.parties()[next.public.parties().len() - t..].to_vec();
    let combiner = CombinerKey::generate(pid(COMBINER), rng);
    let session = activation_session(
        session_id("activate"),
        &next.key,
        &next.public,
        &signers,
        combiner.public_key(),
    )
    .unwrap();
    let (r1, r2) = signer_rounds(&next.lss(&signers), &session, rng);
    let signed = Combiner::new(combiner, &session)
        .unwrap()
        .round1(&r1)
        .unwrap()
        .combine(&r2, rng)
        .unwrap();
    let cert = activation_certificate(&next.key, &next.public, &signed).unwrap();
    let cert = ActivationCertificate::from_bytes(&cert.to_bytes()).unwrap();
    let message = lss::activation_message(
        lss::ActivationKind::Pulsar,
        next.public.transcript_hash(),
        next.public.generation(),
    );
    assert_eq!(cert.message(), message);
    mldsa::verify(
        group.key.mode(),
        group.key.public_key(),
        &message,
        ACTIVATION_CONTEXT,
        &cert.signature,
    )
    .unwrap();
    verify_activation(&cert, &group.key).unwrap();
    verify_activation_expected(&cert, &group.key, &next.public).unwrap();
    assert_eq!(
        verify_activation_expected(&cert, &group.key, &group.public),
        Err(Error::Lss(lss::Error::ActivationMismatch))
    );
    let mut forged = cert.clone();
    forged.generation += 1;
    assert_eq!(
        verify_activation(&forged, &group.key),
        Err(Error::InvalidActivation)
    );

    // The new set signs again under the byte-identical key.
    let signed = sign(&next, &signers, b"after reshare", b"", rng);
    mldsa::verify(
        group.key.mode(),
        group.key.public_key(),
        b"after reshare",
        b"",
        signed.signature(),
    )
    .unwrap();

    // Old-generation shares are refused, never mixed in.
    let (old_id, old_share) = group.shares.iter().next().unwrap();
    if next.public.parties().contains(old_id) {
        let combiner = CombinerKey::generate(pid(COMBINER), rng);
        let session = Session::sign(
            session_id("mix"),
            &next.key,
            &next.public,
            &signers_with(&next, *old_id),
            combiner.public_key(),
            b"m",
            b"",
        )
        .unwrap();
        let err = custody::round1(old_share.lss(), &session, rng).unwrap_err();
        assert_eq!(
            err,
            Error::GenerationMismatch {
                expected: next.public.generation(),
                got: group.public.generation(),
            }
        );
    }
    next
}

/// t signers of `group` including `p`.
fn signers_with(group: &Group, p: PartyId) -> Vec<PartyId> {
    let t = usize::from(group.public.threshold());
    let mut set: Vec<PartyId> = vec![p];
    set.extend(
        group
            .public
            .parties()
            .iter()
            .copied()
            .filter(|&q| q != p)
            .take(t - 1),
    );
    set.sort();
    set
}

#[test]
fn resharing_keeps_the_group_key_and_activates() {
    let mut rng = rng(3);
    let g0 = key_ceremony(Mode::MlDsa65, 7, 5, &mut rng);
    let key_bytes = g0.key.to_bytes();
    let pk = g0.key.public_key().to_vec();

    // Refresh (same set, same threshold).
    let c = Ceremony::refresh(session_id("refresh"), &g0.public, &ids(1..=7)).unwrap();
    let g1 = reshare_and_activate(g0, c, &mut rng);
    // Reshare to a disjoint new set of 7.
    let c = Ceremony::reshare(session_id("new-set"), &g1.public, &ids(1..=5), &ids(101..=107), 5).unwrap();
    let g2 = reshare_and_activate(g1, c, &mut rng);
    // Expansion 7 → 21.
    let c = Ceremony::reshare(
        session_id("expand"),
        &g2.public,
        &ids(101..=107),
        &ids(201..=221),
        14,
    )
    .unwrap();
    let g3 = reshare_and_activate(g2, c, &mut rng);
    // Contraction 21 → 7.
    let c = Ceremony::reshare(
        session_id("contract"),
        &g3.public,
        &ids(201..=214),
        &ids(301..=307),
        5,
    )
    .unwrap();
    let g4 = reshare_and_activate(g3, c, &mut rng);
    // Threshold up (5 → 7 of the same 7), then down (7 → 2).
    let c = Ceremony::reshare(session_id("up"), &g4.public, &ids(301..=305), &ids(301..=307), 7).unwrap();
    let g5 = reshare_and_activate(g4, c, &mut rng);
    let c = Ceremony::reshare(
        session_id("down"),
        &g5.public,
        &ids(301..=307),
        &ids(301..=307),
        2,
    )
    .unwrap();
    let g6 = reshare_and_activate(g5, c, &mut rng);
    assert_eq!(g6.public.generation(), 6);
    assert_eq!(g6.key.to_bytes(), key_bytes);
    assert_eq!(g6.key.public_key(), &pk[..]);
}

#[test]
fn old_generation_envelopes_are_rejected_with_blame() {
    let mut rng = rng(4);
    let g0 = key_ceremony(Mode::MlDsa44, 3, 2, &mut rng);
    let old: BTreeMap<PartyId, &LssShare> = g0.shares.iter().map(|(p, s)| (*p, s.lss())).collect();
    let c = Ceremony::refresh(session_id("refresh"), &g0.public, &ids(1..=3)).unwrap();
    let (new_shares, public) = deal(c, &old, &mut rng);
    let g1 = Group {
        shares: new_shares
            .into_iter()
            .map(|(p, s)| (p, KeyShare::new(s, g0.key.clone()).unwrap()))
            .collect(),
        public,
        key: g0.key.clone(),
    };
    // Party 3 answers with its generation-0 share, in a session it built at generation 0
    // (same id, same message, same combiner).
    let combiner = CombinerKey::generate(pid(COMBINER), &mut rng);
    let signers = ids(1..=3);
    let session = Session::sign(
        session_id("s"),
        &g1.key,
        &g1.public,
        &signers,
        combiner.public_key(),
        b"m",
        b"",
    )
    .unwrap();
    let stale = Session::sign(
        session_id("s"),
        &g0.key,
        &g0.public,
        &signers,
        combiner.public_key(),
        b"m",
        b"",
    )
    .unwrap();
    let (mut r1, mut r2) = signer_rounds(&g1.lss(&ids(1..=2)), &session, &mut rng);
    let stale_shares: Vec<&LssShare> = [1, 3].iter().map(|&i| g0.shares[&pid(i)].lss()).collect();
    let (stale_r1, stale_r2) = signer_rounds(&stale_shares, &stale, &mut rng);
    r1.insert(pid(3), stale_r1[&pid(3)].clone());
    r2.insert(pid(3), stale_r2[&pid(3)].clone());
    let wrong_generation = Error::WrongGeneration {
        party: pid(3),
        expected: 1,
        got: 0,
    };
    let state = combine_state(&combiner, &session, &r1);
    assert_eq!(
        state.blame(),
        &[Blame {
            party: pid(3),
            error: wrong_generation.clone()
        }]
    );
    let signed = state.combine(&r2, &mut rng).unwrap();
    assert_eq!(signed.signers(), &ids(1..=2)[..]);
    assert_eq!(
        signed.blame()[0],
        Blame {
            party: pid(3),
            error: wrong_generation.clone()
        }
    );
    mldsa::verify(Mode::MlDsa44, g0.key.public_key(), b"m", b"", signed.signature()).unwrap();

    // With only party 1 honest, nothing is signed and party 3 is named.
    let mut r1_small = r1.clone();
    r1_small.remove(&pid(2));
    let mut r2_small = r2.clone();
    r2_small.remove(&pid(2));
    let session2 = Session::sign(
        session_id("s"),
        &g1.key,
        &g1.public,
        &ids([1, 3]),
        combiner.public_key(),
        b"m",
        b"",
    )
    .unwrap();
    let err = Combiner::new(copy_key(&combiner), &session2)
        .unwrap()
        .round1(&r1_small)
        .unwrap_err();
    assert_eq!(err.culprits(), &[pid(3)]);
    assert_eq!(err.code(), "NOT_ENOUGH_VALID_SHARES");
}

// ---------------------------------------------------------------------------------
// Misbehaving parties: each a typed error naming the party; never a wrong signature
// ---------------------------------------------------------------------------------

fn only_blame(signed: &custody::Signed) -> &Blame {
    assert_eq!(signed.blame().len(), 1, "{:?}", signed.blame());
    &signed.blame()[0]
}

fn not_enough(needed: usize, got: usize, party: PartyId, error: Error) -> Error {
    Error::NotEnoughValidShares {
        needed,
        got,
        culprits: vec![party],
        blame: vec![Blame { party, error }],
    }
}

/// Rewrites a round-2 message's `from` field (bytes 80..82).
fn with_from(m: &Round2Message, from: u16) -> Round2Message {
    let mut b = m.to_bytes();
    b[80..82].copy_from_slice(&from.to_be_bytes());
    Round2Message::from_bytes(&b).unwrap()
}

fn r1_with_from(m: &Round1Message, from: u16) -> Round1Message {
    let mut b = m.to_bytes();
    b[80..82].copy_from_slice(&from.to_be_bytes());
    Round1Message::from_bytes(&b).unwrap()
}

#[test]
fn a_non_member_is_named() {
    let mut rng = rng(5);
    let g = key_ceremony(Mode::MlDsa44, 3, 2, &mut rng);
    let (session, key, mut r1, mut r2) = prepare(&g, &ids(1..=2), "s", b"m", b"", &mut rng);
    // Party 99 (no member) injects a copy of party 1's messages under its own id.
    r1.insert(pid(99), r1_with_from(&r1[&pid(1)], 99));
    r2.insert(pid(99), with_from(&r2[&pid(1)], 99));
    let unknown = Error::UnknownParty { party: pid(99) };
    let signed = combine_state(&key, &session, &r1).combine(&r2, &mut rng).unwrap();
    assert_eq!(
        only_blame(&signed),
        &Blame {
            party: pid(99),
            error: unknown.clone()
        }
    );
    assert_eq!(unknown.culprits(), &[pid(99)]);
    mldsa::verify(Mode::MlDsa44, g.key.public_key(), b"m", b"", signed.signature()).unwrap();
    // A member outside the signing set is just as unknown to this session.
    let mut r2b = r2.clone();
    r2b.remove(&pid(99));
    r2b.insert(pid(3), with_from(&r2[&pid(1)], 3));
    let signed = combine_state(&key, &session, &r1)
        .combine(&r2b, &mut rng)
        .unwrap();
    assert!(signed
        .blame()
        .iter()
        .any(|b| b.error == Error::UnknownParty { party: pid(3) }));
    // A message filed under another sender is a sender mismatch.
    let mut r2c = r2.clone();
    r2c.remove(&pid(99));
    let one = r2c.remove(&pid(1)).unwrap();
    r2c.insert(pid(2), one);
    let err = combine_state(&key, &session, &r1)
        .combine(&r2c, &mut rng)
        .unwrap_err();
    assert!(err.culprits().contains(&pid(2)));
    assert!(matches!(&err, Error::NotEnoughValidShares { blame, .. }
        if blame.iter().any(|b| b.error == Error::SenderMismatch { party: pid(2), claimed: pid(1) })));
    // Setup errors: duplicates and non-members in the signing set.
    assert_eq!(
        Session::sign(
            [0; 32],
            &g.key,
            &g.public,
            &ids([1, 2, 1]),
            key.public_key(),
            b"m",
            b""
        )
        .unwrap_err(),
        Error::DuplicateSigner { party: pid(1) }
    );
    assert_eq!(
        Session::sign(
            [0; 32],
            &g.key,
            &g.public,
            &ids([1, 99]),
            key.public_key(),
            b"m",
            b""
        )
        .unwrap_err(),
        Error::UnknownParty { party: pid(99) }
    );
    assert_eq!(
        Session::sign([0; 32], &g.key, &g.public, &ids([1]), key.public_key(), b"m", b"").unwrap_err(),
        Error::NotEnoughSigners { needed: 2, got: 1 }
    );
}

#[test]
fn replays_from_another_session_or_message_are_named() {
    let mut rng = rng(6);
    let g = key_ceremony(Mode::MlDsa44, 3, 2, &mut rng);
    let signers = ids(1..=3);
    let combiner = CombinerKey::generate(pid(COMBINER), &mut rng);
    let make = |id: &str, msg: &[u8], rng: &mut ChaCha20Rng| {
        let s = Session::sign(
            session_id(id),
            &g.key,
            &g.public,
            &signers,
            combiner.public_key(),
            msg,
            b"",
        )
        .unwrap();
        let (r1, r2) = signer_rounds(&g.lss(&signers), &s, rng);
        (s, r1, r2)
    };
    let (_, old_r1, old_r2) = make("old", b"m", &mut rng);
    let (_, other_r1, other_r2) = make("new", b"other message", &mut rng);
    let (session, r1, r2) = make("new", b"m", &mut rng);

    for (label, src_r1, src_r2, error) in [
        ("session", &old_r1, &old_r2, Error::WrongSession { party: pid(2) }),
        (
            "message",
            &other_r1,
            &other_r2,
            Error::WrongMessage { party: pid(2) },
        ),
    ] {
        // The replayed envelope alone (party 2's fresh commitment stays).
        let mut bad = r2.clone();
        bad.insert(pid(2), src_r2[&pid(2)].clone());
        let signed = combine_state(&combiner, &session, &r1)
            .combine(&bad, &mut rng)
            .unwrap();
        assert_eq!(
            only_blame(&signed),
            &Blame {
                party: pid(2),
                error: error.clone()
            },
            "{label}"
        );
        assert_eq!(signed.signers(), &ids([1, 3])[..]);
        // Replayed commitment and envelope: refused in round 1 already.
        let mut bad_r1 = r1.clone();
        bad_r1.insert(pid(2), src_r1[&pid(2)].clone());
        let state = combine_state(&combiner, &session, &bad_r1);
        assert_eq!(
            state.blame(),
            &[Blame {
                party: pid(2),
                error: error.clone()
            }]
        );
        // With only two signers, the session fails naming party 2.
        let mut r2_two = bad.clone();
        r2_two.remove(&pid(3));
        let mut r1_two = r1.clone();
        r1_two.remove(&pid(3));
        let err = combine_state(&combiner, &session, &r1_two)
            .combine(&r2_two, &mut rng)
            .unwrap_err();
        assert_eq!(err, not_enough(2, 1, pid(2), error.clone()));
        assert_eq!(err.culprits(), &[pid(2)]);
    }

    // The replayed envelope relabelled for this session: its commitment no longer
    // matches; committed to by its sender, it no longer decrypts (the AAD binds the
    // session), so the sender is named either way.
    let mut relabelled = old_r2[&pid(2)].to_bytes();
    let fresh = r2[&pid(2)].to_bytes();
    relabelled[6..80].copy_from_slice(&fresh[6..80]);
    let relabelled = Round2Message::from_bytes(&relabelled).unwrap();
    let mut bad = r2.clone();
    bad.insert(pid(2), relabelled.clone());
    let signed = combine_state(&combiner, &session, &r1)
        .combine(&bad, &mut rng)
        .unwrap();
    assert_eq!(
        only_blame(&signed).error,
        Error::CommitmentMismatch { party: pid(2) }
    );
    let mut bad_r1 = r1.clone();
    bad_r1.insert(pid(2), Round1Message::committing_to(&session, &relabelled));
    let signed = combine_state(&combiner, &session, &bad_r1)
        .combine(&bad, &mut rng)
        .unwrap();
    assert_eq!(
        only_blame(&signed).error,
        Error::DecryptionFailed { party: pid(2) }
    );

    // An envelope addressed to another combiner.
    let other = CombinerKey::generate(pid(COMBINER + 1), &mut rng);
    let s_other = Session::sign(
        session_id("new"),
        &g.key,
        &g.public,
        &signers,
        other.public_key(),
        b"m",
        b"",
    )
    .unwrap();
    let (_, r2_other) = signer_rounds(&g.lss(&signers), &s_other, &mut rng);
    let mut bad = r2.clone();
    bad.insert(pid(1), r2_other[&pid(1)].clone());
    let signed = combine_state(&combiner, &session, &r1)
        .combine(&bad, &mut rng)
        .unwrap();
    assert_eq!(
        only_blame(&signed).error,
        Error::WrongRecipient {
            party: pid(1),
            to: pid(COMBINER + 1)
        }
    );
}

#[test]
fn other_protocol_faults_are_named() {
    let mut rng = rng(12);
    let g = key_ceremony(Mode::MlDsa44, 3, 2, &mut rng);
    let (session, key, r1, r2) = prepare(&g, &ids(1..=3), "s", b"m", b"", &mut rng);
    // A key-ceremony message (same session id, same combiner) in a signing session.
    let ks = Session::key_ceremony(
        session_id("s"),
        Mode::MlDsa44,
        &g.public,
        &ids(1..=3),
        session.combiner(),
    )
    .unwrap();
    let (kr1, _) = signer_rounds(&g.lss(&ids(1..=3)), &ks, &mut rng);
    let mut bad_r1 = r1.clone();
    bad_r1.insert(pid(3), kr1[&pid(3)].clone());
    let state = combine_state(&key, &session, &bad_r1);
    let mismatch = Error::ParameterMismatch { party: pid(3) };
    assert_eq!(
        state.blame(),
        &[Blame {
            party: pid(3),
            error: mismatch.clone()
        }]
    );
    assert_eq!(mismatch.culprits(), &[pid(3)]);
    // So its envelope arrives without a valid commitment.
    let signed = state.combine(&r2, &mut rng).unwrap();
    assert_eq!(
        only_blame(&signed),
        &Blame {
            party: pid(3),
            error: mismatch
        }
    );
    let mut r1_two = r1.clone();
    r1_two.remove(&pid(3));
    let signed = combine_state(&key, &session, &r1_two)
        .combine(&r2, &mut rng)
        .unwrap();
    assert_eq!(
        only_blame(&signed).error,
        Error::MissingCommitment { party: pid(3) }
    );
    // A signer whose own commitment was replaced in its view refuses to release.
    let (s1, _) = custody::round1(g.shares[&pid(1)].lss(), &session, &mut rng).unwrap();
    assert_eq!(
        s1.round2(&r1).unwrap_err(),
        Error::ConflictingMessage { party: pid(1) }
    );
    // A signer that sees fewer than t commitments does not release either.
    let (s1, m1) = custody::round1(g.shares[&pid(1)].lss(), &session, &mut rng).unwrap();
    let alone: BTreeMap<_, _> = [(pid(1), m1)].into_iter().collect();
    assert_eq!(
        s1.round2(&alone).unwrap_err(),
        Error::NotEnoughSigners { needed: 2, got: 1 }
    );
    // The crate-wide error keeps code, module and culprits.
    let e = quasar_pq::Error::from(Error::DecryptionFailed { party: pid(2) });
    assert_eq!(
        (e.code(), e.module(), e.culprits()),
        ("DECRYPTION_FAILED", "pulsar", &[pid(2)][..])
    );
}

#[test]
fn tampered_ciphertexts_are_named() {
    let mut rng = rng(7);
    let g = key_ceremony(Mode::MlDsa44, 3, 2, &mut rng);
    let (session, key, r1, r2) = prepare(&g, &ids(1..=2), "s", b"m", b"", &mut rng);
    let good = r2[&pid(1)].to_bytes();
    let body = 6 + 78; // magic, version, header
    let mut flips = 0;
    for i in (body..good.len()).step_by(29).chain([good.len() - 1]) {
        let mut b = good.clone();
        b[i] ^= 0x01;
        let tampered = Round2Message::from_bytes(&b).unwrap();
        let mut bad = r2.clone();
        bad.insert(pid(1), tampered.clone());
        // Not what party 1 committed to.
        let err = combine_state(&key, &session, &r1)
            .combine(&bad, &mut rng)
            .unwrap_err();
        assert_eq!(
            err,
            not_enough(2, 1, pid(1), Error::CommitmentMismatch { party: pid(1) }),
            "byte {i}"
        );
        // Committed to (a signer tampering with its own envelope): does not decrypt.
        let mut bad_r1 = r1.clone();
        bad_r1.insert(pid(1), Round1Message::committing_to(&session, &tampered));
        let err = combine_state(&key, &session, &bad_r1)
            .combine(&bad, &mut rng)
            .unwrap_err();
        assert_eq!(
            err,
            not_enough(2, 1, pid(1), Error::DecryptionFailed { party: pid(1) }),
            "byte {i}"
        );
        flips += 1;
    }
    assert!(flips > 40);
    // Untouched, it signs.
    combine_state(&key, &session, &r1).combine(&r2, &mut rng).unwrap();
}

#[test]
fn a_share_that_fails_its_commitment_is_named() {
    let mut rng = rng(8);
    let g = key_ceremony(Mode::MlDsa65, 5, 3, &mut rng);
    let signers = ids(1..=4);
    let combiner = CombinerKey::generate(pid(COMBINER), &mut rng);
    let session = Session::sign(
        session_id("s"),
        &g.key,
        &g.public,
        &signers,
        combiner.public_key(),
        b"m",
        b"",
    )
    .unwrap();
    let mut r1 = BTreeMap::new();
    let mut states = Vec::new();
    for share in g.lss(&signers) {
        let (s, m) = if share.id() == pid(2) {
            custody::round1_with_bad_share(share, &session, &mut rng).unwrap()
        } else {
            custody::round1(share, &session, &mut rng).unwrap()
        };
        r1.insert(share.id(), m);
        states.push(s);
    }
    let r2: BTreeMap<_, _> = states
        .into_iter()
        .map(|s| (s.me(), s.round2(&r1).unwrap()))
        .collect();
    let invalid = Error::InvalidShare { party: pid(2) };
    let signed = combine_state(&combiner, &session, &r1)
        .combine(&r2, &mut rng)
        .unwrap();
    assert_eq!(
        only_blame(&signed),
        &Blame {
            party: pid(2),
            error: invalid.clone()
        }
    );
    assert_eq!(signed.signers(), &ids([1, 3, 4])[..]);
    mldsa::verify(Mode::MlDsa65, g.key.public_key(), b"m", b"", signed.signature()).unwrap();

    // Fewer than t valid shares: a typed error naming the party, and no signature.
    let mut r1_3 = r1.clone();
    r1_3.remove(&pid(4));
    let mut r2_3 = r2.clone();
    r2_3.remove(&pid(4));
    let err = combine_state(&combiner, &session, &r1_3)
        .combine(&r2_3, &mut rng)
        .unwrap_err();
    assert_eq!(err, not_enough(3, 2, pid(2), invalid));
    assert_eq!(quasar_pq::Error::from(err.clone()).culprits(), &[pid(2)]);
    assert_eq!(quasar_pq::Error::from(err).module(), "pulsar");

    // A committed signer that withholds its envelope is named too.
    let mut r2_missing = r2.clone();
    r2_missing.remove(&pid(2));
    r2_missing.remove(&pid(3));
    let err = combine_state(&combiner, &session, &r1)
        .combine(&r2_missing, &mut rng)
        .unwrap_err();
    assert_eq!(err.culprits(), &[pid(2), pid(3)]);
}

#[test]
fn never_a_signature_under_a_wrong_key() {
    let mut rng = rng(9);
    let g = key_ceremony(Mode::MlDsa44, 3, 2, &mut rng);
    let other = key_ceremony(Mode::MlDsa44, 3, 2, &mut rng);
    // A group key claiming this sharing but holding another ML-DSA key.
    let mut b = g.key.to_bytes();
    let pk_at = b.len() - g.key.public_key().len();
    b[pk_at..].copy_from_slice(other.key.public_key());
    let wrong = GroupKey::from_bytes(&b).unwrap();
    let combiner = CombinerKey::generate(pid(COMBINER), &mut rng);
    let session = Session::sign(
        session_id("s"),
        &wrong,
        &g.public,
        &ids(1..=2),
        combiner.public_key(),
        b"m",
        b"",
    )
    .unwrap();
    let (r1, r2) = signer_rounds(&g.lss(&ids(1..=2)), &session, &mut rng);
    let state = combine_state(&combiner, &session, &r1);
    assert_eq!(state.combine(&r2, &mut rng).unwrap_err(), Error::GroupKeyMismatch);
    let state = combine_state(&combiner, &session, &r1);
    assert_eq!(
        state.combine_deterministic(&r2).unwrap_err(),
        Error::GroupKeyMismatch
    );

    // A sharing that is not of this key, or a combiner key that is not the session's.
    assert_eq!(
        Session::sign(
            [0; 32],
            &g.key,
            &other.public,
            &ids(1..=2),
            combiner.public_key(),
            b"m",
            b""
        )
        .unwrap_err(),
        Error::GroupMismatch
    );
    let stranger = CombinerKey::generate(pid(COMBINER), &mut rng);
    assert_eq!(
        Combiner::new(stranger, &session).unwrap_err(),
        Error::CombinerMismatch
    );
    // Another group's announcement does not verify against this sharing.
    assert!(KeyShare::new(
        lss::KeyShare::from_bytes(&g.shares[&pid(1)].lss().to_bytes()).unwrap(),
        other.key.clone()
    )
    .is_err());
    // A key-ceremony state refuses to sign, a signing state to announce.
    let st = combine_state(&combiner, &session, &r1);
    assert_eq!(
        st.finish_key_ceremony(&r2, &mut rng).unwrap_err(),
        Error::PurposeMismatch
    );
    // A share of this group used in a session of the other is refused locally.
    let s_other = Session::sign(
        [0; 32],
        &other.key,
        &other.public,
        &ids(1..=2),
        combiner.public_key(),
        b"m",
        b"",
    )
    .unwrap();
    assert_eq!(
        custody::round1(g.shares[&pid(1)].lss(), &s_other, &mut rng).unwrap_err(),
        Error::GroupMismatch
    );
    let s3 = Session::sign(
        [0; 32],
        &g.key,
        &g.public,
        &ids(1..=2),
        combiner.public_key(),
        b"m",
        b"",
    )
    .unwrap();
    assert_eq!(
        custody::round1(g.shares[&pid(3)].lss(), &s3, &mut rng).unwrap_err(),
        Error::NotASigner { party: pid(3) }
    );
    assert!(matches!(
        Session::sign(
            [0; 32],
            &g.key,
            &g.public,
            &ids(1..=2),
            combiner.public_key(),
            b"m",
            &[0; 256]
        ),
        Err(Error::MlDsa(mldsa::Error::ContextTooLong { len: 256 }))
    ));
}

// ---------------------------------------------------------------------------------
// Decoders
// ---------------------------------------------------------------------------------

fn strict<T: std::fmt::Debug, E: std::fmt::Debug>(
    name: &str,
    bytes: &[u8],
    decode: impl Fn(&[u8]) -> Result<T, E>,
    is_trailing: impl Fn(&E) -> bool,
) {
    decode(bytes).unwrap_or_else(|e| panic!("{name}: valid input refused: {e:?}"));
    for cut in 0..bytes.len() {
        assert!(
            decode(&bytes[..cut]).is_err(),
            "{name}: truncation at {cut} accepted"
        );
    }
    let mut long = bytes.to_vec();
    long.push(0);
    let err = decode(&long).expect_err("extension accepted");
    assert!(is_trailing(&err), "{name}: extension gives {err:?}");
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
    let mut rng = rng(10);
    let g = key_ceremony(Mode::MlDsa44, 3, 2, &mut rng);
    let (session, key, r1, r2) = prepare(&g, &ids(1..=2), "s", b"m", b"", &mut rng);
    let m1 = r1[&pid(1)].to_bytes();
    let m2 = r2[&pid(1)].to_bytes();
    assert_eq!(m1.len(), custody::ROUND1_LEN);
    assert_eq!(m2.len(), custody::ROUND2_LEN);
    assert_eq!(Round1Message::from_bytes(&m1).unwrap(), r1[&pid(1)]);
    assert_eq!(Round2Message::from_bytes(&m2).unwrap(), r2[&pid(1)]);
    strict("round 1", &m1, Round1Message::from_bytes, trailing);
    strict("round 2", &m2, Round2Message::from_bytes, trailing);
    // Purpose and mode bytes, and zero ids.
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

    let pk = session.combiner().to_bytes();
    assert_eq!(&CombinerPublicKey::from_bytes(&pk).unwrap(), key.public_key());
    strict("combiner key", &pk, CombinerPublicKey::from_bytes, trailing);
    let sk = key.to_bytes();
    strict("combiner secret key", &sk, CombinerKey::from_bytes, trailing);

    let gk = g.key.to_bytes();
    strict("group key", &gk, GroupKey::from_bytes, trailing);

    // The announcement.
    let combiner = CombinerKey::generate(pid(COMBINER), &mut rng);
    let s = Session::key_ceremony(
        [5; 32],
        Mode::MlDsa44,
        &g.public,
        &ids(2..=3),
        combiner.public_key(),
    )
    .unwrap();
    let (a1, a2) = signer_rounds(&g.lss(&ids(2..=3)), &s, &mut rng);
    let ann = Combiner::new(combiner, &s)
        .unwrap()
        .round1(&a1)
        .unwrap()
        .finish_key_ceremony(&a2, &mut rng)
        .unwrap();
    // The ceremony can be re-run: same sharing and mode give the same public key.
    assert_eq!(ann.verify(&g.public).unwrap().public_key(), g.key.public_key());
    let ab = ann.to_bytes();
    assert_eq!(GroupKeyAnnouncement::from_bytes(&ab).unwrap(), ann);
    strict("announcement", &ab, GroupKeyAnnouncement::from_bytes, trailing);
    // A tampered announcement fails its check (never a wrong key stored).
    for i in (6..ab.len()).step_by(53) {
        let mut bad = ab.clone();
        bad[i] ^= 0x10;
        if let Ok(a) = GroupKeyAnnouncement::from_bytes(&bad) {
            assert!(a.verify(&g.public).is_err(), "announcement byte {i}");
        }
    }

    // Custody key shares: strict, and a bad share inside is refused.
    let ks = g.shares[&pid(1)].to_bytes();
    strict("key share", &ks, KeyShare::from_bytes, |e| {
        matches!(e, Error::Decode(wire::Error::TrailingBytes { extra: 1 }))
    });
    for i in (10..ks.len()).step_by(7) {
        let mut bad = ks.to_vec();
        bad[i] ^= 0x04;
        let _ = KeyShare::from_bytes(&bad); // never panics
    }

    // The signature frame of a combined signature is strict too.
    let signed = combine_state(&key, &session, &r1).combine(&r2, &mut rng).unwrap();
    let frame = signed.to_frame();
    strict(
        "PULS",
        &frame,
        |b| SignatureFrame::decode(b).map(|f| f.signature.len()),
        trailing,
    );
    // Random bytes never panic any decoder.
    for len in [0usize, 5, 6, 100, 116, 1262, 2000] {
        let mut junk = vec![0u8; len];
        rng.fill_bytes(&mut junk);
        let _ = Round1Message::from_bytes(&junk);
        let _ = Round2Message::from_bytes(&junk);
        let _ = GroupKeyAnnouncement::from_bytes(&junk);
        let _ = GroupKey::from_bytes(&junk);
        let _ = KeyShare::from_bytes(&junk);
    }
}

// ---------------------------------------------------------------------------------
// Large committees (the LSS DKG of all n parties in one process dominates the time)
// ---------------------------------------------------------------------------------

fn large_committee(n: u16, t: u16) {
    let mut rng = rng(u64::from(n));
    let g = key_ceremony(Mode::MlDsa65, n, t, &mut rng);
    let signers = ids(n - t + 1..=n);
    let signed = sign(&g, &signers, b"large committee", b"", &mut rng);
    mldsa::verify(
        Mode::MlDsa65,
        g.key.public_key(),
        b"large committee",
        b"",
        signed.signature(),
    )
    .unwrap();
    assert_eq!(signed.signers().len(), usize::from(t));
}

#[test]
fn committee_of_64() {
    large_committee(64, 43);
}

/// About 6 s natively (the in-process 128-party DKG); run with
/// `cargo test --test pulsar_custody -- --ignored`.
#[test]
#[ignore]
fn committee_of_128() {
    large_committee(128, 86);
}
