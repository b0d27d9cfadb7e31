//! LSS kernel: DKG, refresh, reshare (same set, new set, expansion, contraction,
//! threshold up and down), blame for misbehaving dealers and complainers, strict
//! decoders, envelope checks. Every message crosses between parties as bytes.
//!
//! Run: `cargo test --test lss`.
#![cfg(feature = "threshold")]

use std::collections::{BTreeMap, BTreeSet};

use group::Group;
use quasar_pq::lss::{
    self, activation_message, ActivationKind, BlameReason, Ceremony, Complaint, ComplaintMessage,
    DealMessage, Error, GroupPublic, KeyShare, Kind, Opening, Outcome, ResponseMessage, ShareMessage,
};
use quasar_pq::vss::{self, Commitments, Curve, Ed25519, Mode, Ristretto255, Secp256k1, Share};
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

fn pid(v: u16) -> PartyId {
    PartyId::new(v).unwrap()
}

fn ids(range: impl IntoIterator<Item = u16>) -> Vec<PartyId> {
    range.into_iter().map(pid).collect()
}

fn session(label: &str) -> [u8; 32] {
    let mut s = [0u8; 32];
    let b = label.as_bytes();
    s[..b.len().min(32)].copy_from_slice(&b[..b.len().min(32)]);
    s
}

/// Misbehaviour injected by the test network.
#[derive(Default)]
struct Adversary {
    /// (dealer, receiver): the dealer's share to the receiver is off by one, and when
    /// the receiver complains the dealer "opens" that same wrong share.
    bad_shares: Vec<(u16, u16)>,
    /// Dealers whose round-3 responses are dropped.
    silent: Vec<u16>,
    /// (complainer, dealer): the complainer accuses an honest dealer.
    false_complaints: Vec<(u16, u16)>,
    /// Dealers whose deal broadcast the test patches.
    patched: Vec<u16>,
    /// (dealer, receiver): the share is damaged in transit; the dealer is honest and
    /// opens the right share when the receiver complains.
    damaged_in_transit: Vec<(u16, u16)>,
}

impl Adversary {
    /// The misbehaving parties: their own state machines ran honestly while the network
    /// saw something else, so their outcomes are not checked.
    fn cheaters(&self) -> BTreeSet<PartyId> {
        self.bad_shares
            .iter()
            .map(|x| x.0)
            .chain(self.silent.iter().copied())
            .chain(self.false_complaints.iter().map(|x| x.0))
            .chain(self.patched.iter().copied())
            .map(pid)
            .collect()
    }
}

type DealPatch<'a, C> = &'a dyn Fn(PartyId, DealMessage<C>) -> DealMessage<C>;

/// Runs one ceremony among all its participants, everything through bytes.
fn run<C: Curve>(
    ceremony: &Ceremony<C>,
    old: &BTreeMap<PartyId, KeyShare<C>>,
    adv: &Adversary,
    seed: u64,
) -> BTreeMap<PartyId, Result<Outcome<C>, Error>> {
    run_with(ceremony, old, adv, seed, &|_, m| m)
}

fn run_with<C: Curve>(
    ceremony: &Ceremony<C>,
    old: &BTreeMap<PartyId, KeyShare<C>>,
    adv: &Adversary,
    seed: u64,
    patch_deal: DealPatch<'_, C>,
) -> BTreeMap<PartyId, Result<Outcome<C>, Error>> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let participants: BTreeSet<PartyId> = ceremony
        .dealers()
        .iter()
        .chain(ceremony.receivers())
        .copied()
        .collect();
    let mode = ceremony.mode();
    let sid = *ceremony.session();
    let cheaters = adv.cheaters();

    // Round 1.
    let mut states = BTreeMap::new();
    let mut deal_bytes: BTreeMap<PartyId, Vec<u8>> = BTreeMap::new();
    let mut share_bytes: BTreeMap<(PartyId, PartyId), Vec<u8>> = BTreeMap::new();
    let mut bad_values: BTreeMap<(PartyId, PartyId), Share<C>> = BTreeMap::new();
    for &p in &participants {
        let (state, out) = lss::round1(ceremony.clone(), p, old.get(&p), &mut rng).unwrap();
        if let Some(d) = out.broadcast {
            deal_bytes.insert(p, patch_deal(p, d).to_bytes());
        }
        for m in out.shares {
            let to = m.to();
            let m = if adv.damaged_in_transit.contains(&(p.get(), to.get())) {
                m.tampered()
            } else if adv.bad_shares.contains(&(p.get(), to.get())) {
                let t = m.tampered();
                let bad = ShareMessage::<C>::from_bytes(&t.to_bytes()).unwrap();
                bad_values.insert((p, to), share_of(&bad, mode));
                t
            } else {
                m
            };
            share_bytes.insert((p, to), m.to_bytes().to_vec());
        }
        states.insert(p, state);
    }

    // Round 2.
    let mut states2 = BTreeMap::new();
    let mut complaint_bytes: BTreeMap<PartyId, Vec<u8>> = BTreeMap::new();
    for (p, state) in states {
        let deals: BTreeMap<PartyId, DealMessage<C>> = deal_bytes
            .iter()
            .filter(|(&d, _)| d != p || !cheaters.contains(&p))
            .filter_map(|(&d, b)| DealMessage::from_bytes(b).ok().map(|m| (d, m)))
            .collect();
        let shares: BTreeMap<PartyId, ShareMessage<C>> = share_bytes
            .iter()
            .filter(|((_, to), _)| *to == p)
            .map(|((from, _), b)| (*from, ShareMessage::from_bytes(b).unwrap()))
            .collect();
        let (s2, complaint) = state.round2(deals, shares).unwrap();
        if let Some(mut c) = complaint {
            for &(j, d) in &adv.false_complaints {
                if j == p.get() {
                    // Accuse an honest dealer, with the (valid) share received as evidence.
                    let received = ShareMessage::<C>::from_bytes(&share_bytes[&(pid(d), p)]).unwrap();
                    let mut list: Vec<Complaint<C>> = c.complaints().to_vec();
                    list.push(Complaint {
                        dealer: pid(d),
                        evidence: Some(share_of(&received, mode)),
                    });
                    c = ComplaintMessage::new(mode, sid, p, list);
                }
            }
            complaint_bytes.insert(p, c.to_bytes());
        }
        states2.insert(p, s2);
    }

    // Round 3.
    let mut states3 = BTreeMap::new();
    let mut response_bytes: BTreeMap<PartyId, Vec<u8>> = BTreeMap::new();
    for (p, state) in states2 {
        let complaints: BTreeMap<PartyId, ComplaintMessage<C>> = complaint_bytes
            .iter()
            .filter(|(&j, _)| j != p || !cheaters.contains(&p))
            .map(|(&j, b)| (j, ComplaintMessage::from_bytes(b).unwrap()))
            .collect();
        let (s3, response) = state.round3(complaints).unwrap();
        if let Some(r) = response {
            if adv.silent.contains(&p.get()) {
                // dropped
            } else {
                // A cheating dealer "opens" the wrong shares it sent.
                let openings: Vec<Opening<C>> = r
                    .openings()
                    .iter()
                    .map(|o| match bad_values.get(&(p, o.receiver)) {
                        Some(bad) => Opening {
                            receiver: o.receiver,
                            share: bad.duplicate(),
                        },
                        None => o.clone(),
                    })
                    .collect();
                let r = ResponseMessage::new(mode, sid, p, openings);
                response_bytes.insert(p, r.to_bytes());
            }
        }
        states3.insert(p, s3);
    }

    // Finalize.
    states3
        .into_iter()
        .filter(|(p, _)| !cheaters.contains(p))
        .map(|(p, state)| {
            let responses: BTreeMap<PartyId, ResponseMessage<C>> = response_bytes
                .iter()
                .filter(|(&d, _)| d != p || !cheaters.contains(&p))
                .map(|(&d, b)| (d, ResponseMessage::from_bytes(b).unwrap()))
                .collect();
            (p, state.finalize(responses))
        })
        .collect()
}

fn share_of<C: Curve>(m: &ShareMessage<C>, mode: Mode) -> Share<C> {
    // Re-read the share from the message bytes (the type keeps it private).
    let bytes = m.to_bytes();
    let len = Share::<C>::encoded_len(mode);
    let tail = &bytes[bytes.len() - len..];
    let mut r = quasar_pq::wire::Reader::new(tail);
    Share::read(mode, &mut r).unwrap()
}

/// All outcomes succeed and agree; returns the receivers' key shares and the public data.
fn expect_success<C: Curve>(
    outcomes: BTreeMap<PartyId, Result<Outcome<C>, Error>>,
) -> (BTreeMap<PartyId, KeyShare<C>>, GroupPublic<C>, Vec<lss::Blame>) {
    let mut shares = BTreeMap::new();
    let mut public: Option<GroupPublic<C>> = None;
    let mut blame = None;
    for (p, o) in outcomes {
        let o = o.unwrap_or_else(|e| panic!("{p} failed: {e}"));
        if let Some(prev) = &public {
            assert_eq!(prev, &o.public, "{p} disagrees on the public data");
            assert_eq!(prev.transcript_hash(), &o.transcript_hash);
        }
        if let Some(b) = &blame {
            assert_eq!(b, &o.blame, "{p} disagrees on blame");
        }
        blame = Some(o.blame.clone());
        public = Some(o.public.clone());
        if let Some(ks) = o.key_share {
            assert_eq!(ks.id(), p);
            // Key shares round-trip through bytes.
            let again = KeyShare::<C>::from_bytes(&ks.to_bytes()).unwrap();
            assert_eq!(again.secret_share(), ks.secret_share());
            shares.insert(p, ks);
        }
    }
    (shares, public.unwrap(), blame.unwrap())
}

/// Rebuilds (secret, blind) from the first, last and a scattered `t` shares; all agree,
/// and the pair opens the group commitment. Test-only: puts the secret in one place.
fn reconstruct<C: Curve>(shares: &BTreeMap<PartyId, KeyShare<C>>, public: &GroupPublic<C>) -> C::Scalar {
    let t = usize::from(public.threshold());
    let all: Vec<&KeyShare<C>> = shares.values().collect();
    assert!(all.len() >= t);
    let subsets: Vec<Vec<&KeyShare<C>>> = vec![
        all[..t].to_vec(),
        all[all.len() - t..].to_vec(),
        all.iter()
            .step_by((all.len() / t).max(1))
            .take(t)
            .copied()
            .collect(),
    ];
    let mut secret = None;
    for subset in subsets {
        assert_eq!(subset.len(), t);
        let s = vss::reconstruct::<C>(
            &subset
                .iter()
                .map(|k| (k.id(), *k.secret_share()))
                .collect::<Vec<_>>(),
        )
        .unwrap();
        let b = vss::reconstruct::<C>(
            &subset
                .iter()
                .map(|k| (k.id(), *k.blind_share()))
                .collect::<Vec<_>>(),
        )
        .unwrap();
        let opened = match public.mode() {
            Mode::Pedersen => C::mul_base_h(&s, &b),
            Mode::Feldman => C::mul_base(&s),
        };
        assert_eq!(
            opened,
            public.group_commitment(),
            "shares do not open the group commitment"
        );
        if let Some(prev) = secret {
            assert_eq!(prev, s);
        }
        secret = Some(s);
    }
    // t − 1 shares give something else (with overwhelming probability).
    if t > 1 {
        let few: Vec<(PartyId, C::Scalar)> =
            all[..t - 1].iter().map(|k| (k.id(), *k.secret_share())).collect();
        assert_ne!(vss::reconstruct::<C>(&few).unwrap(), secret.unwrap());
    }
    secret.unwrap()
}

fn dkg<C: Curve>(
    mode: Mode,
    n: u16,
    t: u16,
    seed: u64,
) -> (BTreeMap<PartyId, KeyShare<C>>, GroupPublic<C>, C::Scalar) {
    let c = Ceremony::<C>::dkg(session("dkg"), mode, &ids(1..=n), t).unwrap();
    let (shares, public, blame) = expect_success(run(&c, &BTreeMap::new(), &Adversary::default(), seed));
    assert!(blame.is_empty());
    assert_eq!(public.generation(), 0);
    let secret = reconstruct(&shares, &public);
    if mode == Mode::Feldman {
        assert_eq!(public.group_key(), Some(C::mul_base(&secret)));
        for (id, ks) in &shares {
            assert_eq!(public.verifying_share(*id), Some(C::mul_base(ks.secret_share())));
        }
    } else {
        assert_eq!(public.group_key(), None);
    }
    (shares, public, secret)
}

/// Reshare (or refresh when `receivers` is `None`) and check everything.
#[allow(clippy::too_many_arguments)]
fn reshare_and_check<C: Curve>(
    old_shares: &BTreeMap<PartyId, KeyShare<C>>,
    old_public: &GroupPublic<C>,
    secret: C::Scalar,
    dealers: &[PartyId],
    receivers: Option<(&[PartyId], u16)>,
    seed: u64,
) -> (BTreeMap<PartyId, KeyShare<C>>, GroupPublic<C>) {
    let c = match receivers {
        Some((r, t)) => Ceremony::<C>::reshare(session("reshare"), old_public, dealers, r, t).unwrap(),
        None => Ceremony::<C>::refresh(session("refresh"), old_public, dealers).unwrap(),
    };
    let (shares, public, blame) = expect_success(run(&c, old_shares, &Adversary::default(), seed));
    assert!(blame.is_empty(), "{blame:?}");
    assert_eq!(public.generation(), old_public.generation() + 1);
    assert_eq!(public.group_commitment(), old_public.group_commitment());
    assert_eq!(
        public.group_commitment_bytes(),
        old_public.group_commitment_bytes()
    );
    assert_eq!(public.parties(), c.receivers());
    assert_eq!(shares.len(), c.receivers().len());
    assert_eq!(reconstruct(&shares, &public), secret);
    for (id, ks) in &shares {
        assert_eq!(ks.generation(), old_public.generation() + 1);
        assert_eq!(ks.transcript_hash(), public.transcript_hash());
        if let Some(old) = old_shares.get(id) {
            assert_ne!(old.secret_share(), ks.secret_share(), "share of {id} not renewed");
        }
    }
    (shares, public)
}

#[test]
fn refresh_keeps_the_secret() {
    fn go<C: Curve>(mode: Mode) {
        let (shares, public, secret) = dkg::<C>(mode, 5, 3, 1);
        let (s1, p1) = reshare_and_check(&shares, &public, secret, &ids(1..=5), None, 2);
        // A refresh by a subset of dealers.
        let (_, p2) = reshare_and_check(&s1, &p1, secret, &ids([1, 3, 4]), None, 3);
        assert_eq!(p2.generation(), 2);
        assert_ne!(p1.commitments().points()[1], public.commitments().points()[1]);
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Ed25519>(Mode::Feldman);
    go::<Secp256k1>(Mode::Feldman);
    go::<Secp256k1>(Mode::Pedersen);
}

#[test]
fn reshare_to_the_same_set() {
    fn go<C: Curve>(mode: Mode) {
        let (shares, public, secret) = dkg::<C>(mode, 7, 5, 4);
        reshare_and_check(&shares, &public, secret, &ids(1..=7), Some((&ids(1..=7), 5)), 5);
        // A minimal quorum of t_old dealers.
        reshare_and_check(
            &shares,
            &public,
            secret,
            &ids([2, 3, 5, 6, 7]),
            Some((&ids(1..=7), 5)),
            6,
        );
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Ed25519>(Mode::Feldman);
    go::<Secp256k1>(Mode::Feldman);
}

#[test]
fn reshare_to_a_new_set_and_back() {
    fn go<C: Curve>(mode: Mode) {
        let (shares, public, secret) = dkg::<C>(mode, 5, 3, 7);
        let new = ids(100..=106);
        let (s1, p1) = reshare_and_check(&shares, &public, secret, &ids([1, 2, 4, 5]), Some((&new, 4)), 8);
        // Overlapping set with a threshold change.
        let next = ids([2, 3, 101, 104, 200]);
        reshare_and_check(&s1, &p1, secret, &ids([100, 102, 103, 105]), Some((&next, 2)), 9);
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Ed25519>(Mode::Feldman);
    go::<Secp256k1>(Mode::Pedersen);
}

#[test]
fn threshold_up_and_down() {
    fn go<C: Curve>(mode: Mode) {
        let (shares, public, secret) = dkg::<C>(mode, 9, 3, 10);
        // Up: 3-of-9 → 8-of-9.
        let (s1, p1) = reshare_and_check(&shares, &public, secret, &ids(1..=4), Some((&ids(1..=9), 8)), 11);
        assert_eq!(p1.threshold(), 8);
        // Down: 8-of-9 → 2-of-9 (dealers: all 9, more than t_old).
        let (_, p2) = reshare_and_check(&s1, &p1, secret, &ids(1..=9), Some((&ids(1..=9), 2)), 12);
        assert_eq!(p2.threshold(), 2);
        // 1-of-1 edge case.
        reshare_and_check(&shares, &public, secret, &ids(1..=3), Some((&ids([42]), 1)), 13);
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Ed25519>(Mode::Feldman);
}

#[test]
fn expansion_21_to_64_and_contraction_64_to_21() {
    fn go<C: Curve>(mode: Mode) {
        let (shares, public, secret) = dkg::<C>(mode, 21, 14, 20);
        let big = ids(1..=64);
        let (s64, p64) = reshare_and_check(&shares, &public, secret, &ids(1..=14), Some((&big, 43)), 21);
        let small = ids(200..=220);
        let dealers: Vec<PartyId> = ids((1..=64).step_by(1)).into_iter().skip(10).take(45).collect();
        reshare_and_check(&s64, &p64, secret, &dealers, Some((&small, 14)), 22);
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Ed25519>(Mode::Feldman);
}

#[test]
fn a_dealer_with_a_bad_share_is_blamed_and_excluded() {
    fn go<C: Curve>(mode: Mode) {
        let (shares, public, secret) = dkg::<C>(mode, 7, 4, 30);
        // Five dealers for t_old = 4: one can be dropped.
        let c = Ceremony::<C>::reshare(session("bad"), &public, &ids(1..=5), &ids(10..=16), 5).unwrap();
        let adv = Adversary {
            bad_shares: vec![(3, 12)],
            ..Default::default()
        };
        let (new, p1, blame) = expect_success(run(&c, &shares, &adv, 31));
        assert_eq!(
            blame,
            vec![lss::Blame {
                party: pid(3),
                reason: BlameReason::InvalidOpening { complainer: pid(12) }
            }]
        );
        assert_eq!(reconstruct(&new, &p1), secret);
        assert_eq!(p1.group_commitment(), public.group_commitment());

        // The same cheater staying silent instead.
        let adv = Adversary {
            bad_shares: vec![(3, 12)],
            silent: vec![3],
            ..Default::default()
        };
        let (new, p1, blame) = expect_success(run(&c, &shares, &adv, 32));
        assert_eq!(
            blame,
            vec![lss::Blame {
                party: pid(3),
                reason: BlameReason::UnansweredComplaint { complainer: pid(12) }
            }]
        );
        assert_eq!(reconstruct(&new, &p1), secret);
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Ed25519>(Mode::Feldman);
    go::<Secp256k1>(Mode::Pedersen);
}

#[test]
fn a_false_complaint_blames_the_complainer() {
    fn go<C: Curve>(mode: Mode) {
        let (shares, public, secret) = dkg::<C>(mode, 5, 3, 40);
        let c = Ceremony::<C>::refresh(session("false"), &public, &ids(1..=5)).unwrap();
        let adv = Adversary {
            false_complaints: vec![(4, 2)],
            ..Default::default()
        };
        let (new, p1, blame) = expect_success(run(&c, &shares, &adv, 41));
        assert_eq!(
            blame,
            vec![lss::Blame {
                party: pid(4),
                reason: BlameReason::FalseComplaint { dealer: pid(2) }
            }]
        );
        assert_eq!(p1.generation(), 1);
        assert!(
            !new.contains_key(&pid(4)),
            "the cheater's own outcome is not checked"
        );
        assert_eq!(reconstruct(&new, &p1), secret);

        // An honest receiver whose share was damaged in transit complains with the bad
        // share as evidence; the dealer's valid opening settles it. From the outside this
        // is indistinguishable from a dealer who sent a bad share and then opened a good
        // one, so nobody is blamed, and the receiver uses the opened share.
        let adv = Adversary {
            damaged_in_transit: vec![(2, 5)],
            ..Default::default()
        };
        let (new, p1, blame) = expect_success(run(&c, &shares, &adv, 42));
        assert_eq!(blame, vec![]);
        assert!(new.contains_key(&pid(5)));
        assert_eq!(reconstruct(&new, &p1), secret);
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Ed25519>(Mode::Feldman);
}

#[test]
fn too_few_honest_dealers_fails_and_the_old_shares_still_work() {
    fn go<C: Curve>(mode: Mode) {
        let (shares, public, secret) = dkg::<C>(mode, 7, 4, 50);
        let c = Ceremony::<C>::reshare(session("few"), &public, &ids(1..=5), &ids(1..=7), 4).unwrap();
        let adv = Adversary {
            bad_shares: vec![(2, 6), (4, 1)],
            silent: vec![4],
            ..Default::default()
        };
        for (p, o) in run(&c, &shares, &adv, 51) {
            match o {
                Err(e @ Error::NotEnoughQualified { .. }) => {
                    assert_eq!(e.culprits(), &[pid(2), pid(4)], "at {p}");
                    assert_eq!(e.code(), "NOT_ENOUGH_QUALIFIED");
                    assert_eq!(quasar_pq::Error::from(e.clone()).culprits(), &[pid(2), pid(4)]);
                    assert_eq!(
                        e,
                        Error::NotEnoughQualified {
                            needed: 4,
                            qualified: 3,
                            culprits: vec![pid(2), pid(4)]
                        }
                    );
                }
                other => panic!("{p}: expected NotEnoughQualified, got {other:?}"),
            }
        }
        // The old generation is untouched and still reconstructs.
        assert_eq!(reconstruct(&shares, &public), secret);
        assert!(shares.values().all(|k| k.generation() == 0));
        // … and can reshare again without the cheaters.
        reshare_and_check(
            &shares,
            &public,
            secret,
            &ids([1, 3, 5, 6]),
            Some((&ids(1..=7), 4)),
            52,
        );
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Secp256k1>(Mode::Feldman);
}

#[test]
fn dkg_proof_of_knowledge_forgery_is_detected() {
    fn go<C: Curve>() {
        let c = Ceremony::<C>::dkg(session("pok"), Mode::Feldman, &ids(1..=4), 2).unwrap();
        let patch = |p: PartyId, m: DealMessage<C>| if p == pid(3) { m.with_tampered_proof() } else { m };
        let adv = Adversary {
            patched: vec![3],
            ..Default::default()
        };
        let (shares, public, blame) = expect_success(run_with(&c, &BTreeMap::new(), &adv, 60, &patch));
        assert_eq!(
            blame,
            vec![lss::Blame {
                party: pid(3),
                reason: BlameReason::InvalidProof
            }]
        );
        let secret = reconstruct(&shares, &public);
        assert_eq!(public.group_key(), Some(C::mul_base(&secret)));
        // A rogue-key attempt: dealer 3 publishes A_0 = G − (sum of the others) with a
        // proof made for another key: rejected.
        let rogue = |p: PartyId, m: DealMessage<C>| {
            if p == pid(3) {
                let mut pts = m.commitments().points().to_vec();
                pts[0] = -pts[0];
                m.with_commitments(Commitments::from_points(Mode::Feldman, pts).unwrap())
            } else {
                m
            }
        };
        let (_, _, blame) = expect_success(run_with(&c, &BTreeMap::new(), &adv, 61, &rogue));
        assert_eq!(blame[0].party, pid(3));
        assert_eq!(blame[0].reason, BlameReason::InvalidProof);
        // Too many forgers: the DKG fails with both named.
        let c = Ceremony::<C>::dkg(session("pok2"), Mode::Feldman, &ids(1..=3), 2).unwrap();
        let two = |p: PartyId, m: DealMessage<C>| if p != pid(1) { m.with_tampered_proof() } else { m };
        let adv = Adversary {
            patched: vec![2, 3],
            ..Default::default()
        };
        for (_, o) in run_with(&c, &BTreeMap::new(), &adv, 62, &two) {
            assert_eq!(o.unwrap_err().culprits(), &[pid(2), pid(3)]);
        }
    }
    go::<Ristretto255>();
    go::<Ed25519>();
    go::<Secp256k1>();
}

#[test]
fn a_dealer_cannot_change_the_secret() {
    fn go<C: Curve>(mode: Mode) {
        let (shares, public, secret) = dkg::<C>(mode, 5, 3, 70);
        let shift = |p: PartyId, m: DealMessage<C>| {
            if p == pid(2) {
                let mut pts = m.commitments().points().to_vec();
                pts[0] += C::Point::generator();
                m.with_commitments(Commitments::from_points(m.commitments().mode(), pts).unwrap())
            } else {
                m
            }
        };
        for c in [
            Ceremony::<C>::reshare(session("shift"), &public, &ids(1..=5), &ids(6..=9), 3).unwrap(),
            Ceremony::<C>::refresh(session("shift"), &public, &ids(1..=5)).unwrap(),
        ] {
            let adv = Adversary {
                patched: vec![2],
                ..Default::default()
            };
            let (new, p1, blame) = expect_success(run_with(&c, &shares, &adv, 71, &shift));
            assert_eq!(
                blame,
                vec![lss::Blame {
                    party: pid(2),
                    reason: BlameReason::WrongConstant
                }]
            );
            assert_eq!(reconstruct(&new, &p1), secret);
        }
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Ed25519>(Mode::Feldman);
    go::<Secp256k1>(Mode::Pedersen);
}

#[test]
fn ed25519_torsion_in_commitments_is_blamed() {
    use curve25519_dalek::constants::EIGHT_TORSION;
    let (shares, public, secret) = dkg::<Ed25519>(Mode::Pedersen, 4, 2, 80);
    // Receivers whose ids are multiples of 8 do not see an order-8 component in the
    // linear coefficient: only the combined check catches it.
    let receivers = ids([8, 16, 24, 32]);
    let c = Ceremony::<Ed25519>::reshare(session("torsion"), &public, &ids(1..=4), &receivers, 2).unwrap();
    let torsion = |p: PartyId, m: DealMessage<Ed25519>| {
        if p == pid(4) {
            let mut pts = m.commitments().points().to_vec();
            pts[1] += EIGHT_TORSION[1];
            m.with_commitments(Commitments::from_points(Mode::Pedersen, pts).unwrap())
        } else {
            m
        }
    };
    let adv = Adversary {
        patched: vec![4],
        ..Default::default()
    };
    let (new, p1, blame) = expect_success(run_with(&c, &shares, &adv, 81, &torsion));
    assert_eq!(
        blame,
        vec![lss::Blame {
            party: pid(4),
            reason: BlameReason::InvalidCommitment
        }]
    );
    assert!(p1.commitments().points().iter().all(|p| p.is_torsion_free()));
    assert_eq!(reconstruct(&new, &p1), secret);
    // Any receivers: the batch checks are blind to torsion (weights are multiples of
    // 8), so every honest party reaches the same verdict at finalize.
    let c = Ceremony::<Ed25519>::reshare(session("torsion2"), &public, &ids(1..=4), &ids(1..=5), 3).unwrap();
    let (new, p1, blame) = expect_success(run_with(&c, &shares, &adv, 82, &torsion));
    assert_eq!(
        blame,
        vec![lss::Blame {
            party: pid(4),
            reason: BlameReason::InvalidCommitment
        }]
    );
    assert_eq!(reconstruct(&new, &p1), secret);
    // Strict decoders reject the torsion point itself.
    let bad = (Ed25519::generator_h() + EIGHT_TORSION[1]).compress().to_bytes();
    assert!(vss::group::point_from_bytes::<Ed25519>(&bad).is_err());
}

#[test]
fn envelope_errors_name_the_party() {
    type C = Ristretto255;
    let mut rng = ChaCha20Rng::seed_from_u64(90);
    let c = Ceremony::<C>::dkg(session("env"), Mode::Pedersen, &ids(1..=3), 2).unwrap();
    let mut outs = BTreeMap::new();
    let mut states = BTreeMap::new();
    for p in ids(1..=3) {
        let (s, o) = lss::round1(c.clone(), p, None, &mut rng).unwrap();
        outs.insert(p, o);
        states.insert(p, s);
    }
    let deal =
        |p: u16| DealMessage::<C>::from_bytes(&outs[&pid(p)].broadcast.as_ref().unwrap().to_bytes()).unwrap();
    let share = |from: u16, to: u16| {
        let m = outs[&pid(from)]
            .shares
            .iter()
            .find(|m| m.to() == pid(to))
            .unwrap();
        ShareMessage::<C>::from_bytes(&m.to_bytes()).unwrap()
    };
    let fresh = |p: u16| {
        lss::round1(c.clone(), pid(p), None, &mut ChaCha20Rng::seed_from_u64(1))
            .unwrap()
            .0
    };

    // Unknown sender.
    let deals = BTreeMap::from([(pid(9), deal(2))]);
    let e = fresh(1).round2(deals, BTreeMap::new()).unwrap_err();
    assert_eq!(e, Error::UnknownParty { party: pid(9) });
    assert_eq!(e.culprits(), &[pid(9)]);
    // Mismatched sender.
    let deals = BTreeMap::from([(pid(3), deal(2))]);
    let e = fresh(1).round2(deals, BTreeMap::new()).unwrap_err();
    assert_eq!(
        e,
        Error::SenderMismatch {
            party: pid(3),
            claimed: pid(2)
        }
    );
    assert_eq!(e.culprits(), &[pid(3)]);
    // A share addressed to someone else.
    let shares = BTreeMap::from([(pid(2), share(2, 3))]);
    let e = fresh(1).round2(BTreeMap::new(), shares).unwrap_err();
    assert_eq!(
        e,
        Error::WrongRecipient {
            party: pid(2),
            to: pid(3)
        }
    );
    assert_eq!(e.culprits(), &[pid(2)]);
    // Another session.
    let other = Ceremony::<C>::dkg(session("other"), Mode::Pedersen, &ids(1..=3), 2).unwrap();
    let (_, o2) = lss::round1(other, pid(2), None, &mut rng).unwrap();
    let deals = BTreeMap::from([(pid(2), o2.broadcast.unwrap())]);
    let e = fresh(1).round2(deals, BTreeMap::new()).unwrap_err();
    assert_eq!(e, Error::SessionMismatch { party: pid(2) });
    assert_eq!(e.code(), "SESSION_MISMATCH");
    // A forged echo of this party's own deal.
    let deals = BTreeMap::from([(pid(1), deal(1))]);
    let e = fresh(1).round2(deals, BTreeMap::new()).unwrap_err();
    assert_eq!(e, Error::ConflictingMessage { party: pid(1) });
    // Duplicates and bad thresholds in setup.
    assert_eq!(
        Ceremony::<C>::dkg(session("d"), Mode::Pedersen, &ids([1, 2, 2]), 2).unwrap_err(),
        Error::DuplicateParty { party: pid(2) }
    );
    assert_eq!(
        Ceremony::<C>::dkg(session("d"), Mode::Pedersen, &ids(1..=3), 4).unwrap_err(),
        Error::InvalidThreshold {
            threshold: 4,
            parties: 3
        }
    );
    assert!(matches!(
        lss::round1(c.clone(), pid(7), None, &mut rng),
        Err(Error::NotAParticipant { party }) if party == pid(7)
    ));
    // Complaints from a non-receiver, responses from a non-dealer.
    let mut s = BTreeMap::new();
    for p in ids(1..=3) {
        let deals = ids(1..=3).into_iter().map(|d| (d, deal(d.get()))).collect();
        let shares = ids(1..=3)
            .into_iter()
            .filter(|&d| d != p)
            .map(|d| (d, share(d.get(), p.get())))
            .collect();
        s.insert(p, states.remove(&p).unwrap().round2(deals, shares).unwrap());
    }
    let (s1, c1) = s.remove(&pid(1)).unwrap();
    let c1 = c1.unwrap();
    assert!(c1.complaints().is_empty());
    let e = s1.round3(BTreeMap::from([(pid(5), c1.clone())])).unwrap_err();
    assert_eq!(e, Error::UnknownParty { party: pid(5) });
    let (s2, c2) = s.remove(&pid(2)).unwrap();
    let (s3, r2) = s2.round3(BTreeMap::from([(pid(2), c2.unwrap())])).unwrap();
    let e = s3.finalize(BTreeMap::from([(pid(3), r2.unwrap())])).unwrap_err();
    assert_eq!(
        e,
        Error::SenderMismatch {
            party: pid(3),
            claimed: pid(2)
        }
    );
    // Refresh and reshare need the old share.
    let (shares, public, _) = dkg::<C>(Mode::Pedersen, 3, 2, 91);
    let r = Ceremony::<C>::refresh(session("r"), &public, &ids(1..=3)).unwrap();
    assert_eq!(
        lss::round1(r.clone(), pid(1), None, &mut rng).unwrap_err(),
        Error::MissingOldShare { party: pid(1) }
    );
    assert_eq!(
        lss::round1(r, pid(1), shares.get(&pid(2)), &mut rng).unwrap_err(),
        Error::OldShareMismatch { party: pid(1) }
    );
    assert_eq!(
        Ceremony::<C>::reshare(session("r"), &public, &ids([1, 9]), &ids(1..=3), 2).unwrap_err(),
        Error::DealerNotInOldSet { party: pid(9) }
    );
    assert_eq!(
        Ceremony::<C>::reshare(session("r"), &public, &ids([1]), &ids(1..=3), 2).unwrap_err(),
        Error::NotEnoughDealers { needed: 2, got: 1 }
    );
}

/// Every way to damage an encoding gives a typed error, never a panic: each truncation,
/// one extra byte, each bit flip of the header (magic, version, curve byte).
fn check_decoder<T>(name: &str, bytes: &[u8], decode: impl Fn(&[u8]) -> Result<T, quasar_pq::wire::Error>) {
    use quasar_pq::wire::Error as W;
    assert!(decode(bytes).is_ok(), "{name}: the original must decode");
    for cut in 0..bytes.len() {
        assert!(
            decode(&bytes[..cut]).is_err(),
            "{name}: truncation to {cut} accepted"
        );
    }
    let mut long = bytes.to_vec();
    long.push(0);
    assert_eq!(
        decode(&long).err(),
        Some(W::TrailingBytes { extra: 1 }),
        "{name}: extension"
    );
    for bit in 0..(7 * 8) {
        let mut b = bytes.to_vec();
        b[bit / 8] ^= 1 << (bit % 8);
        let e = decode(&b).err();
        assert!(e.is_some(), "{name}: header bit {bit} flip accepted");
        if bit < 32 {
            assert!(matches!(e, Some(W::BadMagic { .. })), "{name}: bit {bit}: {e:?}");
        } else if bit < 48 {
            assert!(matches!(e, Some(W::BadVersion(_))), "{name}: bit {bit}: {e:?}");
        }
    }
    // Any single bit flip anywhere: no panic.
    for bit in 0..bytes.len() * 8 {
        let mut b = bytes.to_vec();
        b[bit / 8] ^= 1 << (bit % 8);
        let _ = decode(&b);
    }
}

#[test]
fn decoders_reject_damage() {
    fn go<C: Curve>(mode: Mode) {
        // A run with a complaint and an opening, to have non-empty messages of each kind.
        let c = Ceremony::<C>::dkg(session("dec"), mode, &ids(1..=3), 2).unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(100);
        let (_, o1) = lss::round1(c.clone(), pid(1), None, &mut rng).unwrap();
        let deal = o1.broadcast.unwrap().to_bytes();
        check_decoder("deal", &deal, DealMessage::<C>::from_bytes);
        let share = o1.shares[0].to_bytes();
        check_decoder("share", &share, ShareMessage::<C>::from_bytes);
        let s = ShareMessage::<C>::from_bytes(&share).unwrap();
        let evidence = share_of(&s, mode);
        let complaint = ComplaintMessage::<C>::new(
            mode,
            *c.session(),
            pid(2),
            vec![
                Complaint {
                    dealer: pid(1),
                    evidence: Some(evidence.duplicate()),
                },
                Complaint {
                    dealer: pid(3),
                    evidence: None,
                },
            ],
        )
        .to_bytes();
        check_decoder("complaint", &complaint, ComplaintMessage::<C>::from_bytes);
        let response = ResponseMessage::<C>::new(
            mode,
            *c.session(),
            pid(1),
            vec![Opening {
                receiver: pid(2),
                share: evidence,
            }],
        )
        .to_bytes();
        check_decoder("response", &response, ResponseMessage::<C>::from_bytes);
        let (shares, public, _) = dkg::<C>(mode, 3, 2, 101);
        check_decoder("group public", &public.to_bytes(), GroupPublic::<C>::from_bytes);
        let ks = shares[&pid(2)].to_bytes();
        check_decoder("key share", &ks, KeyShare::<C>::from_bytes);
        // Semantic checks: a key share whose share was altered, an unsorted list.
        let mut bad = ks.to_vec();
        let at = 6 + 2 + 2 + 5; // inside the share value
        bad[at] ^= 1;
        assert!(KeyShare::<C>::from_bytes(&bad).is_err());
        let mut unsorted = complaint.clone();
        // swap the two dealer ids (1 and 3) at their known offsets
        let first = 6 + 2 + 32 + 2 + 2;
        let second = first + 2 + 1 + Share::<C>::encoded_len(mode);
        unsorted.swap(first + 1, second + 1);
        assert!(ComplaintMessage::<C>::from_bytes(&unsorted).is_err());
        // A message for another curve is refused.
        let cert = lss::ActivationCertificate {
            kind: ActivationKind::Lens,
            transcript_hash: *public.transcript_hash(),
            generation: 0,
            group_key: public.group_commitment_bytes(),
            signature: vec![1; 64],
        };
        check_decoder(
            "activation",
            &cert.to_bytes(),
            lss::ActivationCertificate::from_bytes,
        );
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Ed25519>(Mode::Feldman);
    go::<Secp256k1>(Mode::Pedersen);
    // Curve confusion.
    let (_, public, _) = dkg::<Ristretto255>(Mode::Feldman, 3, 2, 102);
    assert!(GroupPublic::<Ed25519>::from_bytes(&public.to_bytes()).is_err());
}

#[test]
fn transcript_and_activation() {
    type C = Ristretto255;
    let (shares, public, secret) = dkg::<C>(Mode::Feldman, 4, 3, 110);
    let c = Ceremony::<C>::reshare(session("act"), &public, &ids(1..=4), &ids(5..=9), 3).unwrap();
    let (new, p1, _) = expect_success(run(&c, &shares, &Adversary::default(), 111));
    let msg = activation_message(ActivationKind::Lens, p1.transcript_hash(), p1.generation());
    assert_eq!(msg.len(), 23 + 32 + 8);
    assert_eq!(&msg[..23], b"QUASAR-LENS-ACTIVATE-v1");
    // A toy Schnorr signature by the new set's reconstructed key (test only) under the
    // unchanged group key.
    let x = reconstruct(&new, &p1);
    assert_eq!(x, secret);
    let mut rng = ChaCha20Rng::seed_from_u64(112);
    let k = <C as Curve>::Scalar::random(&mut rng);
    let r = C::mul_base(&k);
    let ch = |r: &<C as Curve>::Point, m: &[u8]| {
        let mut t = quasar_pq::hash::Transcript::new("TEST-SCHNORR");
        t.append(&r.compress().to_bytes()).append(m);
        C::scalar_from_wide(&t.finalize::<64>())
    };
    let z = k + ch(&r, &msg) * x;
    let mut sig = r.compress().to_bytes().to_vec();
    sig.extend_from_slice(&z.to_bytes());
    let cert = lss::ActivationCertificate {
        kind: ActivationKind::Lens,
        transcript_hash: *p1.transcript_hash(),
        generation: p1.generation(),
        group_key: p1.group_commitment_bytes(),
        signature: sig,
    };
    let key = p1.group_key().unwrap();
    let verifier = |m: &[u8], s: &[u8]| {
        let r = vss::group::point_from_bytes::<C>(&s[..32]).unwrap();
        let z = vss::group::scalar_from_bytes::<C>(&s[32..]).unwrap();
        C::mul_base(&z) == r + key * ch(&r, m)
    };
    let cert = lss::ActivationCertificate::from_bytes(&cert.to_bytes()).unwrap();
    cert.verify_expected(
        ActivationKind::Lens,
        public_hash(&p1),
        1,
        &public.group_commitment_bytes(),
        verifier,
    )
    .unwrap();
    assert_eq!(
        cert.verify_expected(
            ActivationKind::Lens,
            &[0; 32],
            1,
            &public.group_commitment_bytes(),
            verifier
        ),
        Err(Error::ActivationMismatch)
    );
    // Transcripts differ between runs and bind the session.
    let c2 = Ceremony::<C>::reshare(session("act2"), &public, &ids(1..=4), &ids(5..=9), 3).unwrap();
    let (_, p2, _) = expect_success(run(&c2, &shares, &Adversary::default(), 111));
    assert_ne!(p1.transcript_hash(), p2.transcript_hash());
    assert_eq!(c.kind(), Kind::Reshare);
}

fn public_hash<C: Curve>(p: &GroupPublic<C>) -> &[u8; 32] {
    p.transcript_hash()
}

#[test]
fn secrets_are_redacted() {
    let (shares, _, _) = dkg::<Ristretto255>(Mode::Pedersen, 3, 2, 120);
    let ks = &shares[&pid(1)];
    let dbg = format!("{ks:?}");
    assert!(dbg.contains("redacted"));
    let secret_hex: String = ks
        .secret_share()
        .to_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(!dbg.contains(&secret_hex));
    let s = Share::<Ristretto255>::new(*ks.secret_share(), *ks.blind_share());
    assert_eq!(format!("{s:?}"), "Share(<redacted>)");
}
