//! LSS dealings through the library's dealing party on the simulator: DKG (Pedersen and
//! Feldman, every curve), refresh, reshare (same set, new set, expansion, contraction,
//! threshold up and down); every peer fault on every flavour; every blame
//! variant with its exact culprits; the `hazmat` cheating model; a party keeping its state
//! on error; strict decoders; and the activation certificate (who can make
//! one, and every way a wrong one is refused).
//!
//! Run: `cargo test --features sim,hazmat --test suite lss::`.

// Helpers outside `#[test]` functions unwrap too: a panic here is a failed test
// (clippy.toml's allow-unwrap-in-tests covers only the test functions themselves).
#![allow(clippy::unwrap_used)]

use crate::common;

use std::collections::BTreeMap;

use common::sim::*;
use group::Group as _;
use quasar_pq::lss::{
    self, ActivationCertificate, ActivationFault, ActivationKind, ActivationParty, Ceremony, Complaint,
    ComplaintMessage, DealMessage, DealingParty, GroupPublic, KeyShare, Opening, Outcome, ResponseMessage,
    ShareMessage,
};
use quasar_pq::party::hazmat::Cheat;
use quasar_pq::party::sim::{party_rng, Channel, Envelope, Sent};
use quasar_pq::party::{BlameReason, Party, Step};
use quasar_pq::vss::{self, Commitments, Curve, Ed25519, Mode, Ristretto255, Secp256k1, Share};
use quasar_pq::{wire, PartyId};

// ---------------------------------------------------------------------------------------
// Helpers

/// A dealing's new shares, public data, certificate and log.
type Dealt<C> = (
    BTreeMap<PartyId, KeyShare<C>>,
    GroupPublic<C>,
    Option<ActivationCertificate>,
    Vec<Sent>,
);

/// A group's shares, public data, secret and the log of the dealing that made it.
type Base<C> = (
    BTreeMap<PartyId, KeyShare<C>>,
    GroupPublic<C>,
    <C as Curve>::Scalar,
    Vec<Sent>,
);

/// A successful run without faults: every participant agrees (public data, transcript,
/// blame, certificate); returns the new shares by receiver, the public data, the
/// certificate (refresh, reshare) and the log.
fn clean<C: Curve>(c: &Ceremony<C>, old: &BTreeMap<PartyId, KeyShare<C>>, label: &str) -> Dealt<C> {
    let (out, log) = lss_deal(c, old, &[], None, label);
    let roles = Roles::of(c);
    let honest = check_plan(&Plan::clean(), &out, &roles, label);
    let first = honest.values().next().unwrap();
    let public = first.public.clone();
    let cert = first.activation.clone();
    assert_eq!(first.qualified, c.dealers());
    drop(honest);
    let shares = lss_shares(out);
    for (p, s) in &shares {
        assert_eq!(s.id(), *p);
        assert_eq!(s.public(), &public);
        let again = KeyShare::<C>::from_bytes(&s.to_bytes()).unwrap();
        assert_eq!(again.secret_share(), s.secret_share());
    }
    if let Some(cert) = &cert {
        check_certificate(cert, &public);
    }
    (shares, public, cert, log)
}

/// The certificate activates `public` (as a third party checks it) and names at least
/// `t` members of it.
fn check_certificate<C: Curve>(cert: &ActivationCertificate, public: &GroupPublic<C>) {
    cert.verify_expected(
        public,
        ActivationKind::Lss,
        &[],
        public.generation(),
        public.transcript_hash(),
    )
    .unwrap();
    let again = ActivationCertificate::from_bytes(&cert.to_bytes()).unwrap();
    assert_eq!(&again, cert);
    assert!(cert.members().len() >= usize::from(public.threshold()));
    assert!(cert.members().iter().all(|m| public.parties().contains(m)));
    assert_eq!(cert.generation(), public.generation());
    assert_eq!(cert.transcript_hash(), public.transcript_hash());
}

/// The secret from exactly `t` of `shares` (the first and the last `t`), the same from
/// both, opening the group commitment; `t − 1` shares give another value.
fn secret_of<C: Curve>(shares: &BTreeMap<PartyId, KeyShare<C>>, public: &GroupPublic<C>) -> C::Scalar {
    let t = usize::from(public.threshold());
    let all: Vec<&KeyShare<C>> = shares.values().collect();
    assert!(all.len() >= t, "{} holders, threshold {t}", all.len());
    let (x, _) = reconstruct(&all[..t]);
    let (y, _) = reconstruct(&all[all.len() - t..]);
    assert_eq!(x, y);
    if t > 1 {
        let few: Vec<(PartyId, C::Scalar)> =
            all[..t - 1].iter().map(|k| (k.id(), *k.secret_share())).collect();
        assert_ne!(vss::reconstruct::<C>(&few).unwrap(), x);
    }
    x
}

fn dkg<C: Curve>(
    mode: Mode,
    n: u16,
    t: u16,
    label: &str,
) -> (BTreeMap<PartyId, KeyShare<C>>, GroupPublic<C>, C::Scalar) {
    let c = Ceremony::<C>::dkg(sid(label), mode, &ids(1..=n), t).unwrap();
    let (shares, public, cert, _) = clean(&c, &BTreeMap::new(), label);
    assert!(cert.is_none());
    assert_eq!(public.generation(), 0);
    assert_eq!(shares.len(), usize::from(n));
    let x = secret_of(&shares, &public);
    match mode {
        Mode::Feldman => {
            assert_eq!(public.group_key(), Some(C::mul_base(&x)));
            for (id, ks) in &shares {
                assert_eq!(public.verifying_share(*id), Some(C::mul_base(ks.secret_share())));
            }
        }
        Mode::Pedersen => assert_eq!(public.group_key(), None),
    }
    (shares, public, x)
}

/// A refresh (`receivers: None`) or reshare, checked: same secret and group commitment,
/// generation + 1, fresh shares, a certificate of the new set.
fn renew<C: Curve>(
    old: &BTreeMap<PartyId, KeyShare<C>>,
    old_public: &GroupPublic<C>,
    secret: C::Scalar,
    dealers: &[PartyId],
    receivers: Option<(&[PartyId], u16)>,
    label: &str,
) -> (BTreeMap<PartyId, KeyShare<C>>, GroupPublic<C>) {
    let c = match receivers {
        Some((r, t)) => Ceremony::<C>::reshare(sid(label), old_public, dealers, r, t).unwrap(),
        None => Ceremony::<C>::refresh(sid(label), old_public, dealers).unwrap(),
    };
    let (shares, public, cert, _) = clean(&c, old, label);
    assert!(cert.is_some());
    assert_eq!(public.generation(), old_public.generation() + 1);
    assert_eq!(public.group_commitment(), old_public.group_commitment());
    assert_eq!(
        public.group_commitment_bytes(),
        old_public.group_commitment_bytes()
    );
    assert_eq!(public.parties(), c.receivers());
    assert_eq!(shares.len(), c.receivers().len());
    assert_eq!(secret_of(&shares, &public), secret);
    for (id, ks) in &shares {
        assert_eq!(ks.generation(), old_public.generation() + 1);
        assert_eq!(ks.transcript_hash(), public.transcript_hash());
        if let Some(o) = old.get(id) {
            assert_ne!(o.secret_share(), ks.secret_share(), "share of {id} not renewed");
        }
    }
    (shares, public)
}

/// The share inside an encoded `LSP1` (the type keeps it private): its last bytes.
fn share_in<C: Curve>(bytes: &[u8], mode: Mode) -> Share<C> {
    let len = Share::<C>::encoded_len(mode);
    let mut r = wire::Reader::new(&bytes[bytes.len() - len..]);
    Share::read(mode, &mut r).unwrap()
}

// ---------------------------------------------------------------------------------------
// Every flavour, every curve

#[test]
fn dkg_on_every_curve_and_mode() {
    fn go<C: Curve>(mode: Mode) {
        for (n, t) in [(3, 2), (5, 3), (4, 4), (3, 1)] {
            dkg::<C>(mode, n, t, &format!("dkg {} {mode:?} {n} {t}", C::NAME));
        }
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Ristretto255>(Mode::Feldman);
    go::<Ed25519>(Mode::Pedersen);
    go::<Ed25519>(Mode::Feldman);
    go::<Secp256k1>(Mode::Pedersen);
    go::<Secp256k1>(Mode::Feldman);
}

#[test]
fn refresh_keeps_the_secret() {
    fn go<C: Curve>(mode: Mode) {
        let (shares, public, secret) = dkg::<C>(mode, 5, 3, "refresh dkg");
        let (s1, p1) = renew(&shares, &public, secret, &ids(1..=5), None, "refresh 1");
        // A refresh dealt by a subset (t of the 5).
        let (_, p2) = renew(&s1, &p1, secret, &ids([1, 3, 4]), None, "refresh 2");
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
        let (shares, public, secret) = dkg::<C>(mode, 7, 5, "same dkg");
        renew(
            &shares,
            &public,
            secret,
            &ids(1..=7),
            Some((&ids(1..=7), 5)),
            "same all",
        );
        // A minimal quorum of t_old dealers.
        renew(
            &shares,
            &public,
            secret,
            &ids([2, 3, 5, 6, 7]),
            Some((&ids(1..=7), 5)),
            "same min",
        );
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Ed25519>(Mode::Feldman);
    go::<Secp256k1>(Mode::Feldman);
}

#[test]
fn reshare_to_a_new_set_and_back() {
    fn go<C: Curve>(mode: Mode) {
        let (shares, public, secret) = dkg::<C>(mode, 5, 3, "new dkg");
        let new = ids(100..=106);
        let (s1, p1) = renew(
            &shares,
            &public,
            secret,
            &ids([1, 2, 4, 5]),
            Some((&new, 4)),
            "new set",
        );
        // An overlapping set with a threshold change.
        let next = ids([2, 3, 101, 104, 200]);
        renew(
            &s1,
            &p1,
            secret,
            &ids([100, 102, 103, 105]),
            Some((&next, 2)),
            "next set",
        );
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Ed25519>(Mode::Feldman);
    go::<Secp256k1>(Mode::Pedersen);
}

#[test]
fn threshold_up_and_down() {
    fn go<C: Curve>(mode: Mode) {
        let (shares, public, secret) = dkg::<C>(mode, 9, 3, "updown dkg");
        // Up: 3-of-9 → 8-of-9.
        let (s1, p1) = renew(
            &shares,
            &public,
            secret,
            &ids(1..=4),
            Some((&ids(1..=9), 8)),
            "up",
        );
        assert_eq!(p1.threshold(), 8);
        // Down: 8-of-9 → 2-of-9, dealt by all 9 (more than t_old).
        let (_, p2) = renew(&s1, &p1, secret, &ids(1..=9), Some((&ids(1..=9), 2)), "down");
        assert_eq!(p2.threshold(), 2);
        // 1-of-1.
        renew(
            &shares,
            &public,
            secret,
            &ids(1..=3),
            Some((&ids([42]), 1)),
            "one of one",
        );
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Ed25519>(Mode::Feldman);
}

fn expansion_and_contraction<C: Curve>(mode: Mode) {
    let (shares, public, secret) = dkg::<C>(mode, 21, 14, "expand dkg");
    let (s64, p64) = renew(
        &shares,
        &public,
        secret,
        &ids(1..=14),
        Some((&ids(1..=64), 43)),
        "21 to 64",
    );
    let dealers: Vec<PartyId> = ids(11..=55);
    renew(
        &s64,
        &p64,
        secret,
        &dealers,
        Some((&ids(200..=220), 14)),
        "64 to 21",
    );
}

#[test]
fn expansion_21_to_64_and_contraction_64_to_21() {
    expansion_and_contraction::<Ristretto255>(Mode::Pedersen);
}

/// The same sizes in Feldman mode on Ed25519.
#[test]
fn expansion_21_to_64_and_contraction_64_to_21_ed25519() {
    expansion_and_contraction::<Ed25519>(Mode::Feldman);
}

/// The seeds' headline scale: a 128-party DKG, a reshare 128 → 128 to a new set and a
/// contraction 128 → 64, every check and the activation certificate on, the secret kept
/// (a few seconds in the optimised test build).
#[test]
fn dkg_and_reshares_at_128_parties() {
    let (shares, public, secret) = dkg::<Ristretto255>(Mode::Pedersen, 128, 86, "dkg 128");
    let (s128, p128) = renew(
        &shares,
        &public,
        secret,
        &ids(1..=86),
        Some((&ids(201..=328), 86)),
        "128 to 128",
    );
    renew(
        &s128,
        &p128,
        secret,
        &ids(243..=328),
        Some((&ids(401..=464), 43)),
        "128 to 64",
    );
}

// ---------------------------------------------------------------------------------------
// Every peer fault in every flavour

/// One dealing of the fault matrix: the ceremony, the current shares, the logs the
/// replays come from, the secret (refresh, reshare), the faulty dealer and two victims.
struct Row<C: Curve> {
    name: String,
    ceremony: Ceremony<C>,
    old: BTreeMap<PartyId, KeyShare<C>>,
    old_public: Option<GroupPublic<C>>,
    other_session: Vec<Sent>,
    previous: Option<Vec<Sent>>,
    secret: Option<C::Scalar>,
    f: PartyId,
    a: PartyId,
    b: PartyId,
}

fn honest_shares<C: Curve>(honest: &BTreeMap<PartyId, &Outcome<C>>) -> BTreeMap<PartyId, KeyShare<C>> {
    honest
        .iter()
        .filter_map(|(p, o)| o.key_share.as_ref().map(|k| (*p, copy_share(k))))
        .collect()
}

/// Runs every fault of [`Fault::ALL`] on the row, then the too-few-honest case.
fn run_row<C: Curve>(row: Row<C>) {
    let roles = Roles::of(&row.ceremony);
    let t_new = usize::from(row.ceremony.threshold());
    for fault in Fault::ALL {
        let replays = Replays {
            other_session: &row.other_session,
            previous: row.previous.as_deref(),
        };
        let mut plan = dealing_plan(fault, &roles, row.f, row.a, row.b, &replays);
        let label = format!("{} {fault:?}", row.name);
        let (out, _) = lss_deal(&row.ceremony, &row.old, &[], Some(plan.take_tamper()), &label);
        let honest = check_plan(&plan, &out, &roles, &row.name);
        let first = honest.values().next().unwrap();
        let public = first.public.clone();
        if let Some(cert) = &first.activation {
            check_certificate(cert, &public);
        }
        // At least t_new honest holders, proven by rebuilding the secret from exactly t_new.
        let shares = honest_shares(&honest);
        assert!(shares.len() >= t_new, "{label}: {} holders", shares.len());
        let x = secret_of(&shares, &public);
        if let Some(s) = row.secret {
            assert_eq!(x, s, "{label}: the secret changed");
        }
        if let Some(old) = &row.old_public {
            assert_eq!(public.group_commitment(), old.group_commitment());
        }
    }
    too_few_honest(&row);
}

/// Garbage deals from so many dealers that fewer than the minimum qualify: every honest
/// participant fails with the same typed error naming them, and the old shares (never
/// touched) still rebuild the secret.
fn too_few_honest<C: Curve>(row: &Row<C>) {
    let c = &row.ceremony;
    let k = c.dealers().len() - c.min_qualified() + 1;
    let bad: Vec<PartyId> = c.dealers()[..k].to_vec();
    let junked = bad.clone();
    let tamper: Tamper = Box::new(move |mut e: Envelope| {
        if junked.contains(&e.from) && e.round == 0 && e.channel == Channel::Broadcast {
            e.bytes = junk(e.bytes.len(), "too few").into();
        }
        vec![e]
    });
    let (out, _) = lss_deal(c, &row.old, &[], Some(tamper), &format!("{} too few", row.name));
    let want = lss::Error::NotEnoughQualified {
        needed: c.min_qualified(),
        qualified: c.dealers().len() - k,
        culprits: bad.clone(),
    };
    for p in participants(c) {
        if bad.contains(&p) {
            continue;
        }
        match &out[&p] {
            Err(quasar_pq::Error::Lss(e)) => {
                assert_eq!(e, &want, "{}: {p}", row.name);
                assert_eq!(e.culprits(), &bad[..]);
                assert_eq!(e.code(), "NOT_ENOUGH_QUALIFIED");
            }
            other => panic!("{}: {p} expected NotEnoughQualified, got {other:?}", row.name),
        }
    }
    if let (Some(public), Some(secret)) = (&row.old_public, row.secret) {
        assert!(row.old.values().all(|s| s.public() == public));
        assert_eq!(
            secret_of(&row.old, public),
            secret,
            "{}: the old shares still work",
            row.name
        );
    }
}

fn dkg_row<C: Curve>(mode: Mode, t: u16) -> Row<C> {
    let name = format!("dkg {} {mode:?}", C::NAME);
    let ceremony = Ceremony::<C>::dkg(sid(&name), mode, &ids(1..=4), t).unwrap();
    let other = Ceremony::<C>::dkg(sid(&format!("{name} other")), mode, &ids(1..=4), t).unwrap();
    let (_, _, _, other_session) = clean(&other, &BTreeMap::new(), &format!("{name} other"));
    Row {
        name,
        ceremony,
        old: BTreeMap::new(),
        old_public: None,
        other_session,
        // A DKG has no earlier generation: the other session's messages stand in.
        previous: None,
        secret: None,
        f: pid(1),
        a: pid(2),
        b: pid(3),
    }
}

/// A group at generation 1 (DKG then refresh), with the refresh's log.
fn generation_one<C: Curve>(mode: Mode, n: u16, t: u16, name: &str) -> Base<C> {
    let (s0, p0, x) = dkg::<C>(mode, n, t, &format!("{name} dkg"));
    let c = Ceremony::<C>::refresh(sid(&format!("{name} gen 1")), &p0, &ids(1..=n)).unwrap();
    let (s1, p1, _, log) = clean(&c, &s0, &format!("{name} gen 1"));
    (s1, p1, x, log)
}

fn renewal_row<C: Curve>(
    name: &str,
    base: Base<C>,
    make: impl Fn(&str, &GroupPublic<C>) -> Ceremony<C>,
    (f, a, b): (u16, u16, u16),
) -> Row<C> {
    let (old, public, secret, previous) = base;
    let ceremony = make(name, &public);
    let other = make(&format!("{name} other"), &public);
    let (_, _, _, other_session) = clean(&other, &old, &format!("{name} other"));
    Row {
        name: name.to_string(),
        ceremony,
        old,
        old_public: Some(public),
        other_session,
        previous: Some(previous),
        secret: Some(secret),
        f: pid(f),
        a: pid(a),
        b: pid(b),
    }
}

#[test]
fn peer_faults_in_a_pedersen_dkg_ristretto255() {
    run_row(dkg_row::<Ristretto255>(Mode::Pedersen, 2));
}

#[test]
fn peer_faults_in_a_pedersen_dkg_secp256k1() {
    run_row(dkg_row::<Secp256k1>(Mode::Pedersen, 3));
}

#[test]
fn peer_faults_in_a_pedersen_dkg_ed25519() {
    run_row(dkg_row::<Ed25519>(Mode::Pedersen, 2));
}

#[test]
fn peer_faults_in_a_feldman_dkg_ed25519() {
    run_row(dkg_row::<Ed25519>(Mode::Feldman, 3));
}

#[test]
fn peer_faults_in_a_feldman_dkg_secp256k1() {
    run_row(dkg_row::<Secp256k1>(Mode::Feldman, 2));
}

#[test]
fn peer_faults_in_a_feldman_dkg_ristretto255() {
    run_row(dkg_row::<Ristretto255>(Mode::Feldman, 3));
}

#[test]
fn peer_faults_in_a_refresh() {
    let base = generation_one::<Ristretto255>(Mode::Pedersen, 4, 3, "refresh row");
    let row = renewal_row(
        "refresh",
        base,
        |name, public| Ceremony::refresh(sid(name), public, &ids(1..=4)).unwrap(),
        (2, 1, 3),
    );
    run_row(row);
}

#[test]
fn peer_faults_in_a_reshare_with_expansion() {
    // 2-of-3 → 3-of-5 {2, …, 6}; the faulty dealer 1 leaves.
    let base = generation_one::<Ed25519>(Mode::Feldman, 3, 2, "expansion row");
    let row = renewal_row(
        "reshare 2-of-3 to 3-of-5",
        base,
        |name, public| Ceremony::reshare(sid(name), public, &ids(1..=3), &ids(2..=6), 3).unwrap(),
        (1, 2, 4),
    );
    run_row(row);
}

#[test]
fn peer_faults_in_a_reshare_with_contraction() {
    // 3-of-5 → 2-of-3 {2, 4, 9}; the faulty dealer 2 stays.
    let base = generation_one::<Secp256k1>(Mode::Pedersen, 5, 3, "contraction row");
    let row = renewal_row(
        "reshare 3-of-5 to 2-of-3",
        base,
        |name, public| Ceremony::reshare(sid(name), public, &ids(1..=5), &ids([2, 4, 9]), 2).unwrap(),
        (2, 4, 9),
    );
    run_row(row);
}

// ---------------------------------------------------------------------------------------
// The misaddressed-reshare attack, and messages from parties whose role does not send them

/// 2-of-3 DKG; reshare to {4, 5, 6, 7} with t = 3 dealt by 1 and 2; dealer 1 hands
/// receivers 4 and 5 the well-formed share message it made for 6.
#[test]
fn misaddressed_shares_in_a_reshare() {
    let (shares, public, secret) = dkg::<Ristretto255>(Mode::Pedersen, 3, 2, "misaddressed reshare dkg");
    let new_set = ids(4..=7);
    let c = Ceremony::reshare(sid("misaddressed reshare"), &public, &ids([1, 2]), &new_set, 3).unwrap();
    let tamper = misaddressed_reshare_tamper();
    let (out, _) = lss_deal(&c, &shares, &[], Some(tamper), "misaddressed reshare");
    let mut holders = BTreeMap::new();
    let mut cert = None;
    for p in participants(&c) {
        let o = out[&p].as_ref().unwrap_or_else(|e| panic!("{p} failed: {e}"));
        let want: Vec<(PartyId, &str)> = if p == pid(4) || p == pid(5) {
            vec![(pid(1), "WRONG_RECIPIENT")]
        } else {
            vec![]
        };
        assert_eq!(codes(&o.dropped), want, "{p}");
        if p == pid(4) || p == pid(5) {
            assert_eq!(
                o.dropped[0].reason,
                BlameReason::WrongRecipient { to: pid(6) },
                "the message named receiver 6"
            );
        }
        assert!(o.blame.is_empty(), "dealer 1's openings settle it: no blame");
        assert_eq!(o.qualified, ids([1, 2]));
        cert.get_or_insert_with(|| o.activation.clone().unwrap());
        assert_eq!(o.activation.as_ref(), cert.as_ref(), "{p}: the same certificate");
        if let Some(k) = &o.key_share {
            holders.insert(p, copy_share(k));
        }
    }
    assert_eq!(
        holders.keys().copied().collect::<Vec<_>>(),
        new_set,
        "all of 4–7 hold shares"
    );
    let new_public = holders[&pid(4)].public().clone();
    let cert = cert.unwrap();
    check_certificate(&cert, &new_public);
    assert_eq!(cert.members(), new_set);
    // Exactly three of them rebuild the secret, whichever three.
    for three in [ids([4, 5, 6]), ids([4, 5, 7]), ids([5, 6, 7])] {
        let set: Vec<&KeyShare<Ristretto255>> = three.iter().map(|p| &holders[p]).collect();
        assert_eq!(reconstruct(&set).0, secret, "{three:?}");
    }
}

/// A new party that deals nothing broadcasts an `LSD1`, an old dealer that receives
/// nothing broadcasts an `LSC1`: both are dropped and named `UNKNOWN_PARTY` by everyone,
/// and nobody aborts.
#[test]
fn a_deal_from_a_non_dealer_and_a_complaint_from_a_non_receiver_are_dropped() {
    type C = Ristretto255;
    let (shares, public, secret) = dkg::<C>(Mode::Pedersen, 3, 2, "roles dkg");
    let c = Ceremony::reshare(sid("roles"), &public, &ids([1, 2]), &ids(4..=7), 3).unwrap();
    let everyone = participants(&c);
    let complaint = ComplaintMessage::<C>::new(
        Mode::Pedersen,
        *c.session(),
        pid(1),
        vec![Complaint {
            dealer: pid(2),
            evidence: None,
        }],
    )
    .to_bytes();
    let mut injected_complaint = false;
    let mut served_2 = false;
    let all = everyone.clone();
    let tamper: Tamper = Box::new(move |e: Envelope| {
        let mut out = Vec::new();
        // Party 4 re-broadcasts dealer 2's deal as its own (transport sender 4).
        if e.round == 0 && e.from == pid(2) && e.channel == Channel::Broadcast && e.to != pid(4) {
            let mut copy = e.clone();
            copy.from = pid(4);
            out.push(copy);
            if !served_2 {
                served_2 = true;
                let mut to2 = e.clone();
                to2.from = pid(4);
                to2.to = pid(2);
                out.push(to2);
            }
        }
        // Dealer 1 (no receiver) broadcasts a complaint against dealer 2 in round 1.
        if e.round == 1 && !injected_complaint {
            injected_complaint = true;
            for &to in all.iter().filter(|&&p| p != pid(1)) {
                out.push(Envelope {
                    round: 1,
                    from: pid(1),
                    to,
                    channel: Channel::Broadcast,
                    bytes: complaint.clone().into(),
                });
            }
        }
        out.push(e);
        out
    });
    let (out, _) = lss_deal(&c, &shares, &[], Some(tamper), "roles");
    let mut holders = BTreeMap::new();
    for p in everyone {
        let o = out[&p].as_ref().unwrap_or_else(|e| panic!("{p} aborted: {e}"));
        let mut want = Vec::new();
        if p != pid(1) {
            want.push((pid(1), "UNKNOWN_PARTY"));
        }
        if p != pid(4) {
            want.push((pid(4), "UNKNOWN_PARTY"));
        }
        assert_eq!(codes(&o.dropped), want, "{p}");
        assert!(o.blame.is_empty());
        if let Some(k) = &o.key_share {
            holders.insert(p, copy_share(k));
        }
    }
    assert_eq!(holders.len(), 4);
    let p1 = holders[&pid(4)].public().clone();
    assert_eq!(secret_of(&holders, &p1), secret);
}

// ---------------------------------------------------------------------------------------
// The `hazmat` cheating model: the codes every front end reports

#[test]
fn cheat_names_round_trip() {
    for c in Cheat::ALL {
        assert_eq!(Cheat::from_name(c.name()), Some(c));
    }
    assert_eq!(Cheat::from_name("nonsense"), None);
    assert!(Cheat::BadShares.in_dealing() && !Cheat::BadShares.in_signing());
    assert!(Cheat::Misaddress.in_dealing() && !Cheat::Misaddress.in_signing());
    assert!(!Cheat::BadContribution.in_dealing() && Cheat::BadContribution.in_signing());
    assert!(Cheat::Garbage.in_dealing() && Cheat::Garbage.in_signing());
}

/// `bad-shares`: every share off by one and the complaints "answered" with the same
/// wrong shares: disqualified with `INVALID_OPENING` (the first complainer's), and the
/// dealing completes without it.
#[test]
fn cheat_bad_shares_is_an_invalid_opening() {
    fn go<C: Curve>(mode: Mode) {
        let (shares, public, secret) = dkg::<C>(mode, 5, 3, "bad shares dkg");
        let c = Ceremony::reshare(sid("bad shares"), &public, &ids(1..=5), &ids(1..=5), 3).unwrap();
        let (out, _) = lss_deal(&c, &shares, &[(pid(2), Cheat::BadShares)], None, "bad shares");
        let mut holders = BTreeMap::new();
        for p in ids([1, 3, 4, 5]) {
            let o = out[&p].as_ref().unwrap();
            assert_eq!(
                o.blame,
                vec![quasar_pq::party::Blame::new(
                    pid(2),
                    BlameReason::InvalidOpening { complainer: pid(1) }
                )],
                "{p}"
            );
            assert_eq!(o.blame[0].reason.code(), "INVALID_OPENING");
            assert!(o.dropped.is_empty());
            assert_eq!(o.qualified, ids([1, 3, 4, 5]));
            assert_eq!(o.culprits(), vec![pid(2)]);
            holders.insert(p, copy_share(o.key_share.as_ref().unwrap()));
        }
        let p1 = holders[&pid(1)].public().clone();
        assert_eq!(secret_of(&holders, &p1), secret);
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Secp256k1>(Mode::Feldman);
}

/// One cheating dealer among 64 (wrong shares to everyone, the same wrong shares
/// opened), with every party in this process: each receiver's shared check fails, its
/// per-dealer check finds the cheater, and every honest party names exactly it, as a
/// party alone does; the other 63 dealers' re-weighted sharing keeps the secret.
#[test]
fn one_cheating_dealer_among_64_is_named_with_the_shared_checks_on() {
    let (shares, public, secret) = dkg::<Ristretto255>(Mode::Pedersen, 64, 43, "64 dkg");
    let c = Ceremony::reshare(sid("one among 64"), &public, &ids(1..=64), &ids(1..=64), 43).unwrap();
    let (out, _) = lss_deal(&c, &shares, &[(pid(17), Cheat::BadShares)], None, "one among 64");
    let mut holders = BTreeMap::new();
    for p in ids(1..=64).into_iter().filter(|p| *p != pid(17)) {
        let o = out[&p].as_ref().unwrap();
        assert_eq!(
            o.blame,
            vec![quasar_pq::party::Blame::new(
                pid(17),
                BlameReason::InvalidOpening { complainer: pid(1) }
            )],
            "{p}"
        );
        assert_eq!(o.culprits(), vec![pid(17)]);
        assert_eq!(o.qualified.len(), 63);
        holders.insert(p, copy_share(o.key_share.as_ref().unwrap()));
    }
    let new_public = holders[&pid(1)].public().clone();
    assert_eq!(new_public.group_commitment(), public.group_commitment());
    assert_eq!(secret_of(&holders, &new_public), secret);
}

/// What a run sent, per message: round, sender, broadcast, direct messages.
type SentBytes = Vec<(u32, PartyId, Option<Vec<u8>>, Vec<Vec<u8>>)>;

fn sent_bytes(sent: &[Sent]) -> SentBytes {
    sent.iter()
        .map(|s| {
            let direct = s.outgoing.direct.iter().map(|d| d.bytes.to_vec()).collect();
            (s.round, s.from, s.outgoing.broadcast.clone(), direct)
        })
        .collect()
}

/// The eight-lane arithmetic (AVX-512 IFMA, where this CPU has it: the dealers' commitments,
/// the deals kept as encodings, the aggregate, the evaluations and the sums made in lanes)
/// and the portable path send the same bytes and reach the same outcomes: 21 → 64 and
/// 64 → 21, Pedersen on Ristretto255 and Feldman on Ed25519, with one cheating dealer too
/// (the shared check fails and every receiver names it). Without the lanes both runs take
/// the portable path.
#[test]
fn the_lanes_and_the_portable_path_send_the_same_bytes() {
    fn both<C: Curve>(mode: Mode, label: &str) {
        let (shares, public, _) = dkg::<C>(mode, 21, 14, label);
        let up = Ceremony::reshare(sid(label), &public, &ids(1..=21), &ids(1..=64), 43).unwrap();
        let go = |c: &Ceremony<C>,
                  old: &BTreeMap<PartyId, KeyShare<C>>,
                  cheats: &[(PartyId, Cheat)],
                  lanes: bool| {
            quasar_pq::party::release_shared();
            quasar_pq::vss::group::use_lanes(lanes);
            let run = lss_deal(c, old, cheats, None, label);
            quasar_pq::vss::group::use_lanes(true);
            run
        };
        let (grown, _) = go(&up, &shares, &[], true);
        let grown = lss_shares(grown);
        let down_public = grown[&pid(1)].public().clone();
        let down = Ceremony::reshare(sid(label), &down_public, &ids(1..=64), &ids(1..=21), 14).unwrap();
        for (c, old) in [(&up, &shares), (&down, &grown)] {
            for cheats in [&[][..], &[(pid(5), Cheat::BadShares)][..]] {
                let (lanes, lanes_sent) = go(c, old, cheats, true);
                let (portable, portable_sent) = go(c, old, cheats, false);
                assert_eq!(
                    sent_bytes(&lanes_sent),
                    sent_bytes(&portable_sent),
                    "{label} {cheats:?}"
                );
                assert_eq!(lanes.len(), portable.len());
                for (p, o) in &lanes {
                    let (a, b) = (o.as_ref().unwrap(), portable[p].as_ref().unwrap());
                    assert_eq!(a.transcript_hash(), b.transcript_hash());
                    assert_eq!(a.blame, b.blame);
                    if !cheats.is_empty() && *p != pid(5) {
                        assert_eq!(a.culprits(), vec![pid(5)], "{label} {p}");
                    }
                    assert_eq!(
                        a.key_share.as_ref().map(KeyShare::to_bytes),
                        b.key_share.as_ref().map(KeyShare::to_bytes)
                    );
                }
            }
        }
    }
    both::<Ristretto255>(Mode::Pedersen, "lanes ristretto255");
    both::<Ed25519>(Mode::Feldman, "lanes ed25519");
}

/// With `parallel` the simulator steps a round's parties concurrently (and they share out
/// the decoding and the aggregate check); without a tamper it hands each party the bytes
/// where they were sent, and with a tamper every message is an envelope of its own (a
/// pass-through tamper here). All four runs (sequential or parallel, with or without the tamper) send the
/// same bytes, in the same order, and reach the same outcomes, with one cheating dealer too
/// (the shared check fails, every receiver falls back to its per-dealer checks).
#[cfg(feature = "parallel")]
#[test]
fn parallel_and_enveloped_rounds_send_the_same_bytes_as_sequential_ones() {
    use quasar_pq::party::sim::Network;
    let (shares, public, _) = dkg::<Ed25519>(Mode::Feldman, 21, 14, "parallel dkg");
    let c = Ceremony::reshare(sid("parallel"), &public, &ids(1..=21), &ids(1..=21), 14).unwrap();
    let go = |cheater: Option<PartyId>, parallel: bool, enveloped: bool| {
        quasar_pq::party::release_shared();
        let mut net = Network::new();
        for p in participants(&c) {
            let mut rng = party_rng(b"parallel", p);
            let (party, out) = match cheater {
                Some(q) if q == p => {
                    DealingParty::start_cheating(c.clone(), p, shares.get(&p), Cheat::BadShares, &mut rng)
                }
                _ => DealingParty::start(c.clone(), p, shares.get(&p), &mut rng),
            }
            .unwrap();
            net.add(party, out);
        }
        net.parallel(parallel);
        if enveloped {
            net.tamper(|e| vec![e]);
        }
        net.run_logged()
    };
    for cheater in [None, Some(pid(5))] {
        let (one, one_sent) = go(cheater, false, false);
        assert_eq!(one.len(), 21);
        for (parallel, enveloped) in [(true, false), (false, true), (true, true)] {
            let (all, all_sent) = go(cheater, parallel, enveloped);
            assert_eq!(
                sent_bytes(&one_sent),
                sent_bytes(&all_sent),
                "{cheater:?} {parallel} {enveloped}"
            );
            for (p, o) in &one {
                let (a, b) = (o.as_ref().unwrap(), all[p].as_ref().unwrap());
                assert_eq!(a.transcript_hash(), b.transcript_hash());
                assert_eq!(a.blame, b.blame);
                assert_eq!(a.dropped, b.dropped);
                if Some(*p) != cheater {
                    let named: Vec<PartyId> = cheater.into_iter().collect();
                    assert_eq!(a.culprits(), named, "{p}");
                }
                assert_eq!(
                    a.key_share.as_ref().unwrap().to_bytes(),
                    b.key_share.as_ref().unwrap().to_bytes()
                );
            }
        }
    }
}

/// `misaddress`: each receiver gets the message made for the next one: `WRONG_RECIPIENT`
/// at every receiver, the dealer's honest openings settle it, everyone completes (the
/// misbehaving party's own view included) with no blame.
#[test]
fn cheat_misaddress_is_a_wrong_recipient_and_completes() {
    type C = Ed25519;
    let c = Ceremony::<C>::dkg(sid("misaddress"), Mode::Feldman, &ids(1..=4), 3).unwrap();
    let (out, _) = lss_deal(
        &c,
        &BTreeMap::new(),
        &[(pid(1), Cheat::Misaddress)],
        None,
        "misaddress",
    );
    let mut holders = BTreeMap::new();
    let mut public = None;
    for p in ids(1..=4) {
        let o = out[&p].as_ref().unwrap();
        let want = if p == pid(1) {
            vec![]
        } else {
            vec![(pid(1), "WRONG_RECIPIENT")]
        };
        assert_eq!(codes(&o.dropped), want, "{p}");
        assert!(o.blame.is_empty());
        assert_eq!(o.qualified, ids(1..=4));
        public.get_or_insert_with(|| o.public.clone());
        assert_eq!(Some(&o.public), public.as_ref());
        holders.insert(p, copy_share(o.key_share.as_ref().unwrap()));
    }
    secret_of(&holders, &public.unwrap());
}

/// `garbage`: every broadcast cut short: `MALFORMED_MESSAGE` at every other party, and
/// `MISSING_DEAL` in the agreed blame; the dealing completes without it.
#[test]
fn cheat_garbage_is_malformed_and_a_missing_deal() {
    type C = Ristretto255;
    let (shares, public, secret) = dkg::<C>(Mode::Pedersen, 4, 3, "garbage dkg");
    let c = Ceremony::refresh(sid("garbage"), &public, &ids(1..=4)).unwrap();
    let (out, _) = lss_deal(&c, &shares, &[(pid(3), Cheat::Garbage)], None, "garbage");
    let mut holders = BTreeMap::new();
    let mut cert = None;
    for p in ids([1, 2, 4]) {
        let o = out[&p].as_ref().unwrap();
        assert_eq!(codes(&o.dropped), vec![(pid(3), "MALFORMED_MESSAGE")], "{p}");
        assert_eq!(codes(&o.blame), vec![(pid(3), "MISSING_DEAL")]);
        assert_eq!(o.qualified, ids([1, 2, 4]));
        cert.get_or_insert_with(|| o.activation.clone().unwrap());
        holders.insert(p, copy_share(o.key_share.as_ref().unwrap()));
    }
    let p1 = holders[&pid(1)].public().clone();
    let cert = cert.unwrap();
    check_certificate(&cert, &p1);
    assert_eq!(
        cert.members(),
        ids([1, 2, 4]),
        "party 3's proof was cut short too"
    );
    assert_eq!(secret_of(&holders, &p1), secret);
}

// ---------------------------------------------------------------------------------------
// Every blame variant, with its exact culprits

/// A tamper that rewrites `dealer`'s deal broadcast.
fn patch_deal<C: Curve>(dealer: u16, f: impl Fn(DealMessage<C>) -> DealMessage<C> + 'static) -> Tamper {
    Box::new(move |mut e: Envelope| {
        if e.round == 0 && e.from == pid(dealer) && e.channel == Channel::Broadcast {
            let m = DealMessage::<C>::from_bytes(&e.bytes).unwrap();
            e.bytes = f(m).to_bytes().into();
        }
        vec![e]
    })
}

/// Checks the honest parties (everyone but `cheaters`): success, the exact blame, and
/// no drop but one: in a refresh or reshare, a cheater that is a new member proves
/// possession for its own (other) view of the dealing, so its proof names another
/// transcript (`WRONG_SESSION`). Returns their shares.
fn blamed<C: Curve>(
    out: &Outcomes<Outcome<C>>,
    c: &Ceremony<C>,
    cheaters: &[u16],
    blame: &[quasar_pq::party::Blame],
) -> (BTreeMap<PartyId, KeyShare<C>>, GroupPublic<C>) {
    let mut holders = BTreeMap::new();
    let mut public = None;
    for p in participants(c) {
        if cheaters.contains(&p.get()) {
            continue;
        }
        let o = out[&p].as_ref().unwrap_or_else(|e| panic!("{p}: {e}"));
        assert_eq!(o.blame, blame, "{p}");
        let want: Vec<(PartyId, &str)> = cheaters
            .iter()
            .map(|&q| pid(q))
            .filter(|q| c.kind() != lss::Kind::Dkg && c.is_receiver(*q))
            .map(|q| (q, "WRONG_SESSION"))
            .collect();
        assert_eq!(codes(&o.dropped), want, "{p}");
        public.get_or_insert_with(|| o.public.clone());
        assert_eq!(Some(&o.public), public.as_ref(), "{p}");
        if let Some(k) = &o.key_share {
            holders.insert(p, copy_share(k));
        }
    }
    (holders, public.unwrap())
}

fn blame(party: u16, reason: BlameReason) -> quasar_pq::party::Blame {
    quasar_pq::party::Blame::new(pid(party), reason)
}

/// A bad share to one receiver then a wrong opening: `INVALID_OPENING`; the same
/// cheater not answering: `UNANSWERED_COMPLAINT`. Either way it is excluded and the
/// reshare (five dealers for t_old = 4) completes.
#[test]
fn a_dealer_with_a_bad_share_is_blamed_and_excluded() {
    fn go<C: Curve>(mode: Mode) {
        let (shares, public, secret) = dkg::<C>(mode, 7, 4, "bad share dkg");
        let c = Ceremony::<C>::reshare(sid("bad share"), &public, &ids(1..=5), &ids(10..=16), 5).unwrap();
        for silent in [false, true] {
            let mut bad: Option<Share<C>> = None;
            let tamper: Tamper = Box::new(move |mut e: Envelope| {
                if e.from != pid(3) {
                    return vec![e];
                }
                if e.round == 0 && e.to == pid(12) && e.channel == Channel::Direct {
                    let m = ShareMessage::<C>::from_bytes(&e.bytes).unwrap().tampered();
                    e.bytes = m.to_bytes();
                    bad = Some(share_in::<C>(&e.bytes, mode));
                }
                if e.round == 2 {
                    if silent {
                        return vec![];
                    }
                    let r = ResponseMessage::<C>::from_bytes(&e.bytes).unwrap();
                    let openings: Vec<Opening<C>> = r
                        .openings()
                        .iter()
                        .map(|o| Opening {
                            receiver: o.receiver,
                            share: if o.receiver == pid(12) {
                                bad.as_ref().unwrap().duplicate()
                            } else {
                                o.share.duplicate()
                            },
                        })
                        .collect();
                    e.bytes = ResponseMessage::new(mode, *r.session(), pid(3), openings)
                        .to_bytes()
                        .into();
                }
                vec![e]
            });
            let (out, _) = lss_deal(&c, &shares, &[], Some(tamper), "bad share");
            let reason = if silent {
                BlameReason::UnansweredComplaint { complainer: pid(12) }
            } else {
                BlameReason::InvalidOpening { complainer: pid(12) }
            };
            let (new, p1) = blamed(&out, &c, &[3], &[blame(3, reason)]);
            assert_eq!(new.len(), 7);
            assert_eq!(secret_of(&new, &p1), secret);
            let o = out[&pid(10)].as_ref().unwrap();
            assert_eq!(o.qualified, ids([1, 2, 4, 5]));
            assert_eq!(o.culprits(), vec![pid(3)]);
        }
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Ed25519>(Mode::Feldman);
    go::<Secp256k1>(Mode::Pedersen);
}

/// A receiver accusing an honest dealer, its valid share as evidence: `FALSE_COMPLAINT`
/// on the complainer. A share damaged in transit, opened validly by its dealer, blames
/// nobody (it is indistinguishable from a dealer that sent a bad share and opened a
/// good one). A complaint against a party that is not a dealer: `INVALID_COMPLAINT`.
#[test]
fn false_and_invalid_complaints_blame_the_complainer() {
    fn go<C: Curve>(mode: Mode) {
        let (shares, public, secret) = dkg::<C>(mode, 5, 3, "complaint dkg");
        let c = Ceremony::<C>::refresh(sid("false complaint"), &public, &ids(1..=5)).unwrap();
        let session = *c.session();
        let mut received: Option<Share<C>> = None;
        let tamper: Tamper = Box::new(move |mut e: Envelope| {
            if e.round == 0 && e.from == pid(2) && e.to == pid(4) && e.channel == Channel::Direct {
                received = Some(share_in::<C>(&e.bytes, mode));
            }
            if e.round == 1 && e.from == pid(4) {
                let complaint = Complaint {
                    dealer: pid(2),
                    evidence: received.as_ref().map(Share::duplicate),
                };
                e.bytes = ComplaintMessage::<C>::new(mode, session, pid(4), vec![complaint])
                    .to_bytes()
                    .into();
            }
            vec![e]
        });
        let (out, _) = lss_deal(&c, &shares, &[], Some(tamper), "false complaint");
        let (new, p1) = blamed(
            &out,
            &c,
            &[4],
            &[blame(4, BlameReason::FalseComplaint { dealer: pid(2) })],
        );
        assert_eq!(
            out[&pid(1)].as_ref().unwrap().qualified,
            ids(1..=5),
            "complaining does not disqualify"
        );
        assert_eq!(secret_of(&new, &p1), secret);

        // Damaged in transit: no blame; the receiver uses the opened share.
        let tamper: Tamper = Box::new(move |mut e: Envelope| {
            if e.round == 0 && e.from == pid(2) && e.to == pid(5) && e.channel == Channel::Direct {
                e.bytes = ShareMessage::<C>::from_bytes(&e.bytes)
                    .unwrap()
                    .tampered()
                    .to_bytes();
            }
            vec![e]
        });
        let (out, _) = lss_deal(&c, &shares, &[], Some(tamper), "damaged");
        let (new, p1) = blamed(&out, &c, &[], &[]);
        assert!(new.contains_key(&pid(5)));
        assert_eq!(secret_of(&new, &p1), secret);

        // Complaining about a party that deals nothing.
        let r =
            Ceremony::<C>::reshare(sid("invalid complaint"), &public, &ids(1..=3), &ids(1..=5), 3).unwrap();
        let session = *r.session();
        let tamper: Tamper = Box::new(move |mut e: Envelope| {
            if e.round == 1 && e.from == pid(5) {
                let complaint = Complaint {
                    dealer: pid(4),
                    evidence: None,
                };
                e.bytes = ComplaintMessage::<C>::new(mode, session, pid(5), vec![complaint])
                    .to_bytes()
                    .into();
            }
            vec![e]
        });
        let (out, _) = lss_deal(&r, &shares, &[], Some(tamper), "invalid complaint");
        let (new, p1) = blamed(
            &out,
            &r,
            &[5],
            &[blame(5, BlameReason::InvalidComplaint { dealer: pid(4) })],
        );
        assert_eq!(secret_of(&new, &p1), secret);
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Ed25519>(Mode::Feldman);
}

/// Feldman DKG: a forged proof of knowledge, and a rogue-key attempt (a constant term
/// without a matching proof): `INVALID_PROOF`; with two forgers of three the DKG fails
/// naming both.
#[test]
fn a_feldman_dkg_forgery_is_an_invalid_proof() {
    fn go<C: Curve>() {
        let c = Ceremony::<C>::dkg(sid("pok"), Mode::Feldman, &ids(1..=4), 2).unwrap();
        let (out, _) = lss_deal(
            &c,
            &BTreeMap::new(),
            &[],
            Some(patch_deal::<C>(3, |m| m.with_tampered_proof())),
            "pok",
        );
        let (shares, public) = blamed(&out, &c, &[3], &[blame(3, BlameReason::InvalidProof)]);
        let x = secret_of(&shares, &public);
        assert_eq!(public.group_key(), Some(C::mul_base(&x)));
        // Rogue key: A_0 negated, the proof made for the real one.
        let rogue = patch_deal::<C>(3, |m| {
            let mut pts = m.commitments().points().to_vec();
            pts[0] = -pts[0];
            m.with_commitments(Commitments::from_points(Mode::Feldman, pts).unwrap())
        });
        let (out, _) = lss_deal(&c, &BTreeMap::new(), &[], Some(rogue), "rogue");
        blamed(&out, &c, &[3], &[blame(3, BlameReason::InvalidProof)]);
        // Too many forgers.
        let c = Ceremony::<C>::dkg(sid("pok2"), Mode::Feldman, &ids(1..=3), 2).unwrap();
        let two = chain(vec![
            patch_deal::<C>(2, |m| m.with_tampered_proof()),
            patch_deal::<C>(3, |m| m.with_tampered_proof()),
        ]);
        let (out, _) = lss_deal(&c, &BTreeMap::new(), &[], Some(two), "pok2");
        let e = out[&pid(1)].as_ref().unwrap_err();
        assert_eq!(
            e,
            &quasar_pq::Error::Lss(lss::Error::NotEnoughQualified {
                needed: 2,
                qualified: 1,
                culprits: ids([2, 3])
            })
        );
        assert_eq!(e.culprits(), &ids([2, 3])[..]);
    }
    go::<Ristretto255>();
    go::<Ed25519>();
    go::<Secp256k1>();
}

/// A dealer whose constant term is not what the dealing requires (changing the secret in
/// a reshare, a non-zero constant in a refresh): `WRONG_CONSTANT`; a deal of the wrong
/// shape: `MALFORMED_DEAL`.
#[test]
fn a_dealer_cannot_change_the_secret() {
    fn go<C: Curve>(mode: Mode) {
        let (shares, public, secret) = dkg::<C>(mode, 5, 3, "shift dkg");
        for c in [
            Ceremony::<C>::reshare(sid("shift"), &public, &ids(1..=5), &ids(6..=9), 3).unwrap(),
            Ceremony::<C>::refresh(sid("shift"), &public, &ids(1..=5)).unwrap(),
        ] {
            let shift = patch_deal::<C>(2, |m| {
                let mut pts = m.commitments().points().to_vec();
                pts[0] += C::Point::generator();
                m.with_commitments(Commitments::from_points(m.commitments().mode(), pts).unwrap())
            });
            let (out, _) = lss_deal(&c, &shares, &[], Some(shift), "shift");
            let (new, p1) = blamed(&out, &c, &[2], &[blame(2, BlameReason::WrongConstant)]);
            assert_eq!(secret_of(&new, &p1), secret);
            assert_eq!(p1.group_commitment(), public.group_commitment());

            let short = patch_deal::<C>(4, |m| {
                let pts = m.commitments().points()[..2].to_vec();
                m.with_commitments(Commitments::from_points(m.commitments().mode(), pts).unwrap())
            });
            let (out, _) = lss_deal(&c, &shares, &[], Some(short), "short");
            let (new, p1) = blamed(&out, &c, &[4], &[blame(4, BlameReason::MalformedDeal)]);
            assert_eq!(secret_of(&new, &p1), secret);
        }
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Ed25519>(Mode::Feldman);
    go::<Secp256k1>(Mode::Pedersen);
}

/// Ed25519: a dealer whose commitments carry an order-8 component: `INVALID_COMMITMENT`,
/// whatever the receivers' ids (the batch checks are blind to torsion, so every honest
/// party reaches the same verdict at finalize).
#[test]
fn ed25519_torsion_in_commitments_is_an_invalid_commitment() {
    use curve25519_dalek::constants::EIGHT_TORSION;
    let (shares, public, secret) = dkg::<Ed25519>(Mode::Pedersen, 4, 2, "torsion dkg");
    let torsion = || {
        patch_deal::<Ed25519>(4, |m| {
            let mut pts = m.commitments().points().to_vec();
            pts[1] += EIGHT_TORSION[1];
            m.with_commitments(Commitments::from_points(Mode::Pedersen, pts).unwrap())
        })
    };
    // Receivers whose ids are multiples of 8 do not see the torsion in their own share
    // check; only the combined check catches it.
    for (receivers, t) in [(ids([8, 16, 24, 32]), 2), (ids(1..=5), 3)] {
        let c = Ceremony::<Ed25519>::reshare(sid("torsion"), &public, &ids(1..=4), &receivers, t).unwrap();
        let (out, _) = lss_deal(&c, &shares, &[], Some(torsion()), "torsion");
        let (new, p1) = blamed(&out, &c, &[4], &[blame(4, BlameReason::InvalidCommitment)]);
        assert!(p1.commitments().points().iter().all(|p| p.is_torsion_free()));
        assert_eq!(secret_of(&new, &p1), secret);
    }
    // Strict decoders refuse the torsion point itself.
    let bad = (Ed25519::generator_h() + EIGHT_TORSION[1]).compress().to_bytes();
    assert!(vss::group::point_from_bytes::<Ed25519>(&bad).is_err());
}

// ---------------------------------------------------------------------------------------
// A party keeps its state on error; setup errors

/// Finalize fails for too few responses (the accused dealers' openings missing): a typed
/// error naming them, the party where it was (the round and the drops of the failed
/// attempt forgotten); stepped again with the full inbox it succeeds. A step after the
/// end: `PARTY_FINISHED`.
#[test]
fn a_failed_finalize_keeps_the_state_and_succeeds_on_retry() {
    type C = Ristretto255;
    let c = Ceremony::<C>::dkg(sid("retry"), Mode::Pedersen, &ids(1..=4), 3).unwrap();
    let mut parties = BTreeMap::new();
    let mut mail = Vec::new();
    for p in ids(1..=4) {
        let mut rng = party_rng(b"retry", p);
        let (party, out) = if p.get() <= 2 {
            DealingParty::start_cheating(c.clone(), p, None, Cheat::Misaddress, &mut rng).unwrap()
        } else {
            DealingParty::start(c.clone(), p, None, &mut rng).unwrap()
        };
        parties.insert(p, party);
        mail.push((p, out));
    }
    for _ in 0..2 {
        (mail, _) = lockstep(&mut parties, &mail);
    }
    // Party 3 at finalize: without the responses of dealers 1 and 2, whom it accused.
    let me = pid(3);
    let full = inbox_for(&mail, me);
    let mut partial: Vec<(PartyId, Vec<u8>)> = full.iter().filter(|(p, _)| p.get() > 2).cloned().collect();
    partial.push((pid(4), junk(20, "noise")));
    let party = parties.get_mut(&me).unwrap();
    assert_eq!(party.round().unwrap().number, 3);
    let err = party.step(&incoming(&partial)).unwrap_err();
    assert_eq!(
        err,
        quasar_pq::Error::Lss(lss::Error::NotEnoughQualified {
            needed: 3,
            qualified: 2,
            culprits: ids([1, 2])
        })
    );
    assert_eq!(err.code(), "NOT_ENOUGH_QUALIFIED");
    assert_eq!(err.culprits(), &ids([1, 2])[..]);
    assert_eq!(party.round().unwrap().number, 3, "the party stays at finalize");
    let Step::Done(last, outcome) = party.step(&incoming(&full)).unwrap() else {
        panic!("a DKG ends at finalize")
    };
    assert!(last.is_empty());
    assert!(outcome.blame.is_empty());
    assert_eq!(
        codes(&outcome.dropped),
        vec![(pid(1), "WRONG_RECIPIENT"), (pid(2), "WRONG_RECIPIENT")],
        "the noise of the failed attempt is forgotten"
    );
    assert!(outcome.key_share.is_some());
    assert_eq!(party.round(), None);
    let again = party.step(&incoming(&full)).unwrap_err();
    assert_eq!(again.code(), "PARTY_FINISHED");
    assert_eq!(again, quasar_pq::Error::Party(quasar_pq::party::Error::Finished));
    // Its outcome is everyone's.
    let (_, done) = lockstep(&mut parties, &mail);
    for o in done.values() {
        assert_eq!(o.public, outcome.public);
    }
}

/// The activation round below the threshold: `NOT_ENOUGH_POSSESSION_PROOFS` naming the
/// party whose proof was bad, the party still waiting; with every proof it finishes.
#[test]
fn a_failed_activation_keeps_the_state_and_succeeds_on_retry() {
    type C = Secp256k1;
    let (shares, public, _) = dkg::<C>(Mode::Feldman, 4, 3, "activation retry dkg");
    let c = Ceremony::<C>::refresh(sid("activation retry"), &public, &ids(1..=4)).unwrap();
    let mut parties = BTreeMap::new();
    let mut mail = Vec::new();
    for p in ids(1..=4) {
        let (party, out) =
            DealingParty::start(c.clone(), p, shares.get(&p), &mut party_rng(b"act retry", p)).unwrap();
        parties.insert(p, party);
        mail.push((p, out));
    }
    for _ in 0..3 {
        (mail, _) = lockstep(&mut parties, &mail);
    }
    let me = pid(1);
    let full = inbox_for(&mail, me);
    assert_eq!(full.len(), 3, "three proofs of possession");
    let mut partial = vec![full[0].clone(), (full[1].0, junk(full[1].1.len(), "bad proof"))];
    partial[1].1[..4].copy_from_slice(b"LSV1");
    let party = parties.get_mut(&me).unwrap();
    assert_eq!(party.round().unwrap().name, "activate");
    let err = party.step(&incoming(&partial)).unwrap_err();
    assert_eq!(
        err,
        quasar_pq::Error::Lss(lss::Error::NotEnoughPossessionProofs {
            needed: 3,
            got: 2,
            culprits: vec![full[1].0]
        })
    );
    assert_eq!(err.code(), "NOT_ENOUGH_POSSESSION_PROOFS");
    assert_eq!(party.round().unwrap().name, "activate");
    let Step::Done(_, outcome) = party.step(&incoming(&full)).unwrap() else {
        panic!("activation is the last round")
    };
    assert!(outcome.dropped.is_empty(), "{:?}", outcome.dropped);
    let cert = outcome.activation.unwrap();
    assert_eq!(cert.members(), ids(1..=4));
    check_certificate(&cert, &outcome.public);
    assert_eq!(party.step(&[]).unwrap_err().code(), "PARTY_FINISHED");
}

#[test]
fn setup_errors_are_typed() {
    type C = Ristretto255;
    let mut rng = party_rng(b"setup", pid(1));
    let e = |r: Result<Ceremony<C>, lss::Error>| r.unwrap_err();
    assert_eq!(
        e(Ceremony::dkg([0; 32], Mode::Pedersen, &ids([1, 2, 2]), 2)),
        lss::Error::DuplicateParty { party: pid(2) }
    );
    assert_eq!(
        e(Ceremony::dkg([0; 32], Mode::Pedersen, &ids(1..=3), 4)),
        lss::Error::InvalidThreshold {
            threshold: 4,
            parties: 3
        }
    );
    assert_eq!(
        e(Ceremony::dkg([0; 32], Mode::Pedersen, &ids(1..=3), 0)),
        lss::Error::InvalidThreshold {
            threshold: 0,
            parties: 3
        }
    );
    let c = Ceremony::<C>::dkg([0; 32], Mode::Pedersen, &ids(1..=3), 2).unwrap();
    assert_eq!(
        DealingParty::start(c, pid(7), None, &mut rng).unwrap_err(),
        lss::Error::NotAParticipant { party: pid(7) }
    );
    let (shares, public, _) = dkg::<C>(Mode::Pedersen, 3, 2, "setup dkg");
    let r = Ceremony::<C>::refresh([1; 32], &public, &ids(1..=3)).unwrap();
    assert_eq!(
        DealingParty::start(r.clone(), pid(1), None, &mut rng).unwrap_err(),
        lss::Error::MissingOldShare { party: pid(1) }
    );
    assert_eq!(
        DealingParty::start(r, pid(1), shares.get(&pid(2)), &mut rng).unwrap_err(),
        lss::Error::OldShareMismatch { party: pid(1) }
    );
    assert_eq!(
        e(Ceremony::reshare([0; 32], &public, &ids([1, 9]), &ids(1..=3), 2)),
        lss::Error::DealerNotInOldSet { party: pid(9) }
    );
    assert_eq!(
        e(Ceremony::reshare([0; 32], &public, &ids([1]), &ids(1..=3), 2)),
        lss::Error::NotEnoughDealers { needed: 2, got: 1 }
    );
    assert_eq!(
        e(Ceremony::refresh([0; 32], &public, &ids([3]))),
        lss::Error::NotEnoughDealers { needed: 2, got: 1 }
    );
    // A new receiver of a reshare needs no share; a dealer does.
    let rs = Ceremony::<C>::reshare([2; 32], &public, &ids([1, 2]), &ids([2, 5]), 2).unwrap();
    assert!(DealingParty::start(rs.clone(), pid(5), None, &mut rng).is_ok());
    assert_eq!(
        DealingParty::start(rs, pid(2), None, &mut rng).unwrap_err(),
        lss::Error::MissingOldShare { party: pid(2) }
    );
    // An activation party given a share of another generation.
    assert_eq!(
        ActivationParty::start(
            pid(1),
            shares.get(&pid(1)),
            &{
                let mut other = public.clone();
                other = GroupPublic::new(other.commitments().clone(), other.parties().to_vec(), 5, [0; 32])
                    .unwrap();
                other
            },
            ActivationKind::Lss,
            &[],
            &mut rng
        )
        .unwrap_err(),
        lss::Error::OldShareMismatch { party: pid(1) }
    );
    assert_eq!(
        GroupPublic::new(public.commitments().clone(), ids([2, 1, 3]), 0, [0; 32]).unwrap_err(),
        lss::Error::UnsortedParties
    );
}

// ---------------------------------------------------------------------------------------
// Damaged bytes at a party and at the decoders

/// Every truncation, one extra byte and every bit flip of every message a party takes,
/// fed to the party in its round: the step never fails, and a message it drops names its
/// sender — only its sender.
#[test]
fn every_damaged_message_is_dropped_and_only_its_sender_named() {
    type C = Ristretto255;
    let c = Ceremony::<C>::dkg(sid("damage"), Mode::Pedersen, &ids(1..=3), 2).unwrap();
    // The honest inboxes of party 1, round by round.
    let start = |p: PartyId| DealingParty::start(c.clone(), p, None, &mut party_rng(b"damage", p)).unwrap();
    let mut parties = BTreeMap::new();
    let mut mail = Vec::new();
    for p in ids(1..=3) {
        let (party, out) = start(p);
        parties.insert(p, party);
        mail.push((p, out));
    }
    let mut rounds = vec![inbox_for(&mail, pid(1))];
    for _ in 0..2 {
        (mail, _) = lockstep(&mut parties, &mail);
        rounds.push(inbox_for(&mail, pid(1)));
    }
    // A fresh party 1 at round `r` (replaying the honest inboxes before it).
    let at_round = |r: usize| {
        let (mut party, _) = start(pid(1));
        for inbox in &rounds[..r] {
            party.step(&incoming(inbox)).unwrap();
        }
        party
    };
    let mut checked = 0;
    for (r, inbox) in rounds.iter().enumerate() {
        for (i, (sender, bytes)) in inbox.iter().enumerate() {
            let mut variants: Vec<Vec<u8>> = (0..bytes.len()).map(|cut| bytes[..cut].to_vec()).collect();
            variants.push([bytes.as_slice(), &[0]].concat());
            for bit in 0..bytes.len() * 8 {
                let mut b = bytes.clone();
                b[bit / 8] ^= 1 << (bit % 8);
                variants.push(b);
            }
            for (v, bad) in variants.iter().enumerate() {
                let mut damaged = inbox.clone();
                damaged[i].1 = bad.clone();
                let mut party = at_round(r);
                let step = party.step(&incoming(&damaged));
                let step = step.unwrap_or_else(|e| panic!("round {} message {i} variant {v}: {e}", r + 1));
                let dropped = match &step {
                    Step::Done(_, outcome) => outcome.dropped.clone(),
                    Step::Continue(_) | Step::Waiting => party.dropped().to_vec(),
                };
                assert!(
                    dropped
                        .iter()
                        .all(|b| b.party == *sender && b.reason.is_message_fault()),
                    "round {} variant {v}: {dropped:?}",
                    r + 1
                );
                if v <= bytes.len() {
                    // Truncations and the extension never decode.
                    assert_eq!(
                        codes(&dropped),
                        vec![(*sender, "MALFORMED_MESSAGE")],
                        "round {} cut {v}",
                        r + 1
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 5000, "{checked}");
}

/// Every way to damage an encoding gives a typed error, never a panic: each truncation,
/// one extra byte, each bit flip of the header (magic, version, curve or scheme byte).
fn check_decoder<T>(name: &str, bytes: &[u8], decode: impl Fn(&[u8]) -> Result<T, wire::Error>) {
    check_decoder_header(name, bytes, 7, decode)
}

/// As [`check_decoder`], with the first `header` bytes all strict (every flip refused).
fn check_decoder_header<T>(
    name: &str,
    bytes: &[u8],
    header: usize,
    decode: impl Fn(&[u8]) -> Result<T, wire::Error>,
) {
    use wire::Error as W;
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
    for bit in 0..(header * 8) {
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
    for bit in 0..bytes.len() * 8 {
        let mut b = bytes.to_vec();
        b[bit / 8] ^= 1 << (bit % 8);
        let _ = decode(&b);
    }
}

#[test]
fn decoders_reject_damage() {
    fn go<C: Curve>(mode: Mode) {
        let (shares, public, _) = dkg::<C>(mode, 3, 2, "decoders dkg");
        let c = Ceremony::<C>::refresh(sid("decoders"), &public, &ids(1..=3)).unwrap();
        let (_, p1, cert, log) = clean(&c, &shares, "decoders");
        let deal = broadcast_of(&log, pid(1), 0).unwrap();
        check_decoder("deal", &deal, DealMessage::<C>::from_bytes);
        let share = direct_of(&log, pid(1), 0, pid(2)).unwrap();
        check_decoder("share", &share, ShareMessage::<C>::from_bytes);
        let evidence = share_in::<C>(&share, mode);
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
        check_decoder(
            "empty complaint",
            &broadcast_of(&log, pid(2), 1).unwrap(),
            ComplaintMessage::<C>::from_bytes,
        );
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
        check_decoder("group public", &p1.to_bytes(), GroupPublic::<C>::from_bytes);
        let ks = shares[&pid(2)].to_bytes();
        check_decoder("key share", &ks, KeyShare::<C>::from_bytes);
        // The certificate's byte 6 is the scheme (another valid scheme decodes; its
        // verification then refuses it: `wrong_certificates_are_refused_with_their_reason`).
        check_decoder_header(
            "certificate",
            &cert.unwrap().to_bytes(),
            6,
            ActivationCertificate::from_bytes,
        );
        // A key share whose share was altered, an unsorted complaint list.
        let mut bad = ks.to_vec();
        bad[6 + 2 + 2 + 5] ^= 1;
        assert!(KeyShare::<C>::from_bytes(&bad).is_err());
        let mut unsorted = complaint.clone();
        let first = 6 + 2 + 32 + 2 + 2;
        let second = first + 2 + 1 + Share::<C>::encoded_len(mode);
        unsorted.swap(first + 1, second + 1);
        assert!(ComplaintMessage::<C>::from_bytes(&unsorted).is_err());
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Ed25519>(Mode::Feldman);
    go::<Secp256k1>(Mode::Pedersen);
    // Curve confusion.
    let (_, public, _) = dkg::<Ristretto255>(Mode::Feldman, 3, 2, "confusion");
    assert!(GroupPublic::<Ed25519>::from_bytes(&public.to_bytes()).is_err());
    assert!(lss::AnyGroupPublic::from_bytes(&public.to_bytes()).is_ok());
}

#[test]
fn transcripts_bind_the_session_and_secrets_are_redacted() {
    type C = Ristretto255;
    let (shares, public, _) = dkg::<C>(Mode::Pedersen, 4, 3, "transcript dkg");
    let a = Ceremony::<C>::reshare(sid("transcript a"), &public, &ids(1..=4), &ids(5..=9), 3).unwrap();
    let b = Ceremony::<C>::reshare(sid("transcript b"), &public, &ids(1..=4), &ids(5..=9), 3).unwrap();
    let (_, pa, _, _) = clean(&a, &shares, "same randomness");
    let (_, pb, _, _) = clean(&b, &shares, "same randomness");
    assert_ne!(pa.transcript_hash(), pb.transcript_hash());
    assert_eq!(a.kind(), lss::Kind::Reshare);
    let ks = &shares[&pid(1)];
    let dbg = format!("{ks:?}");
    assert!(dbg.contains("redacted"));
    let hex: String = ks
        .secret_share()
        .to_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(!dbg.contains(&hex));
    let s = Share::<C>::new(*ks.secret_share(), *ks.blind_share());
    assert_eq!(format!("{s:?}"), "Share(<redacted>)");
}

// ---------------------------------------------------------------------------------------
// Activation certificates

fn fault_of(r: Result<(), lss::Error>) -> ActivationFault {
    match r {
        Err(lss::Error::InvalidActivation(f)) => f,
        other => panic!("expected a refused certificate, got {other:?}"),
    }
}

/// Every old party's outcome of a reshare carries the new members' certificate, and it
/// verifies against the new generation's public data (and nothing else).
#[test]
fn every_party_of_a_reshare_holds_the_same_certificate() {
    type C = Ristretto255;
    let (shares, public, _) = dkg::<C>(Mode::Pedersen, 3, 2, "same cert dkg");
    let c = Ceremony::<C>::reshare(sid("same cert"), &public, &ids(1..=3), &ids(4..=7), 3).unwrap();
    let (out, _) = lss_deal(&c, &shares, &[], None, "same cert");
    let new_public = out[&pid(4)].as_ref().unwrap().public.clone();
    let cert = out[&pid(4)].as_ref().unwrap().activation.clone().unwrap();
    for p in ids(1..=7) {
        let o = out[&p].as_ref().unwrap();
        assert_eq!(o.activation.as_ref(), Some(&cert), "{p}");
        assert_eq!(o.key_share.is_some(), p.get() >= 4, "{p}: old parties leave");
    }
    assert_eq!(cert.members(), ids(4..=7));
    assert_eq!(cert.kind(), ActivationKind::Lss);
    assert!(cert.key().is_empty());
    check_certificate(&cert, &new_public);
    assert_eq!(
        fault_of(cert.verify(&public, ActivationKind::Lss, &[])),
        ActivationFault::WrongGeneration { expected: 0, got: 1 }
    );
}

/// A generation of more members than one part of the possession batch (32 proofs): the
/// batch made in parts names exactly the bad proofs, whichever part holds them, in a
/// certificate and in the activation round.
#[test]
fn possession_batches_of_several_parts_name_exactly_the_bad_proofs() {
    type C = Ristretto255;
    let (s0, p0, _) = dkg::<C>(Mode::Pedersen, 70, 47, "parts dkg");
    let c = Ceremony::<C>::refresh(sid("parts"), &p0, &ids(1..=70)).unwrap();
    let (_, p1, cert, log) = clean(&c, &s0, "parts");
    let cert = cert.unwrap();
    assert_eq!(cert.members(), ids(1..=70));
    let verify = |cert: &ActivationCertificate| cert.verify(&p1, ActivationKind::Lss, &[]);
    verify(&cert).unwrap();
    let fields = Lsa2::of(&cert);
    for bad_members in [vec![70], vec![6, 41, 70], vec![33]] {
        let mut bad = fields.clone();
        for m in &bad_members {
            let proof = &mut bad.proofs[usize::from(*m) - 1].1;
            let last = proof.len() - 1;
            proof[last] ^= 1;
        }
        assert_eq!(
            fault_of(verify(&bad.cert())),
            ActivationFault::InvalidProof {
                members: ids(bad_members.iter().copied())
            },
            "{bad_members:?}"
        );
    }
    // In the round: member 41's proof (the second part) bit-flipped on its way.
    let mut flipped = broadcast_of(&log, pid(41), 3).unwrap();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    let tamper: Tamper = Box::new(move |mut e: Envelope| {
        if e.from == pid(41) && e.round == 3 {
            e.bytes = flipped.clone().into();
        }
        vec![e]
    });
    let (out, _) = lss_deal(&c, &s0, &[], Some(tamper), "parts");
    for p in ids(1..=70).into_iter().filter(|p| p.get() != 41) {
        let o = out[&p].as_ref().unwrap();
        assert_eq!(
            codes(&o.dropped),
            vec![(pid(41), "INVALID_POSSESSION_PROOF")],
            "{p}"
        );
        let members = o.activation.as_ref().unwrap().members();
        assert_eq!(members, ids((1..=70).filter(|m| *m != 41)), "{p}");
    }
}

#[test]
fn wrong_certificates_are_refused_with_their_reason() {
    fn go<C: Curve>(mode: Mode) {
        let (s0, p0, _) = dkg::<C>(mode, 4, 3, "refusals dkg");
        let c1 = Ceremony::<C>::refresh(sid("refusals 1"), &p0, &ids(1..=4)).unwrap();
        let (s1, p1, cert1, _) = clean(&c1, &s0, "refusals 1");
        let cert1 = cert1.unwrap();
        let c2 = Ceremony::<C>::refresh(sid("refusals 2"), &p1, &ids(1..=4)).unwrap();
        let (_, p2, _, _) = clean(&c2, &s1, "refusals 2");
        let c1b = Ceremony::<C>::refresh(sid("refusals 1b"), &p0, &ids(1..=4)).unwrap();
        let (_, p1b, _, _) = clean(&c1b, &s0, "refusals 1b");
        let (g1, t1) = (p1.generation(), *p1.transcript_hash());
        let verify = |cert: &ActivationCertificate, public: &GroupPublic<C>, g: u64, t: &[u8; 32]| {
            cert.verify_expected(public, ActivationKind::Lss, &[], g, t)
        };
        verify(&cert1, &p1, g1, &t1).unwrap();
        let fields = Lsa2::of(&cert1);
        assert_eq!(fields.proofs.len(), 4);

        // t_new − 1 members.
        let mut few = fields.clone();
        few.proofs.truncate(2);
        let f = fault_of(verify(&few.cert(), &p1, g1, &t1));
        assert_eq!(f, ActivationFault::TooFewMembers { needed: 3, got: 2 });
        assert_eq!(f.code(), "ACTIVATION_TOO_FEW_MEMBERS");
        let mut three = fields.clone();
        three.proofs.remove(1);
        verify(&three.cert(), &p1, g1, &t1).unwrap();

        // Generation g replayed for g + 1.
        let f = fault_of(verify(&cert1, &p2, 2, p2.transcript_hash()));
        assert_eq!(f, ActivationFault::WrongGeneration { expected: 2, got: 1 });
        assert_eq!(f.code(), "ACTIVATION_WRONG_GENERATION");
        assert_eq!(
            fault_of(cert1.verify(&p2, ActivationKind::Lss, &[])),
            ActivationFault::WrongGeneration { expected: 2, got: 1 }
        );
        assert_eq!(
            fault_of(verify(&cert1, &p1, 2, &t1)),
            ActivationFault::WrongGeneration { expected: 2, got: 1 }
        );
        // Relabelled as generation 2: the statement differs, so its proofs fail.
        let mut relabelled = fields.clone();
        relabelled.generation = 2;
        relabelled.transcript = *p2.transcript_hash();
        assert_eq!(
            fault_of(verify(&relabelled.cert(), &p2, 2, p2.transcript_hash())),
            ActivationFault::InvalidProof { members: ids(1..=4) }
        );

        // Another transcript of the same generation.
        let f = fault_of(verify(&cert1, &p1b, 1, p1b.transcript_hash()));
        assert_eq!(f, ActivationFault::WrongTranscript);
        assert_eq!(f.code(), "ACTIVATION_WRONG_TRANSCRIPT");
        assert_eq!(
            fault_of(verify(&cert1, &p1, 1, p1b.transcript_hash())),
            ActivationFault::WrongTranscript
        );
        let mut moved = fields.clone();
        moved.transcript = *p1b.transcript_hash();
        assert_eq!(
            fault_of(verify(&moved.cert(), &p1b, 1, p1b.transcript_hash())),
            ActivationFault::InvalidProof { members: ids(1..=4) }
        );

        // A non-member.
        let mut stranger = fields.clone();
        stranger.proofs[3].0 = 99;
        let f = fault_of(verify(&stranger.cert(), &p1, g1, &t1));
        assert_eq!(f, ActivationFault::NotAMember { party: pid(99) });
        assert_eq!(f.code(), "ACTIVATION_NOT_A_MEMBER");

        // Bad proofs: a changed response, a changed commitment, proofs swapped.
        let mut bad = fields.clone();
        let last = bad.proofs[1].1.len() - 1;
        bad.proofs[1].1[last] ^= 1;
        let f = fault_of(verify(&bad.cert(), &p1, g1, &t1));
        assert_eq!(
            f,
            ActivationFault::InvalidProof {
                members: vec![pid(2)]
            }
        );
        assert_eq!(f.code(), "ACTIVATION_INVALID_PROOF");
        // Another valid commitment R (member 2's) in member 1's proof fails to verify; a
        // commitment that is no canonical group element does not even decode.
        let point_len = fields.proofs[0].1.len()
            - match mode {
                Mode::Pedersen => 64,
                Mode::Feldman => 32,
            };
        let mut bad = fields.clone();
        let other_r = bad.proofs[1].1[..point_len].to_vec();
        bad.proofs[0].1[..point_len].copy_from_slice(&other_r);
        assert_eq!(
            fault_of(verify(&bad.cert(), &p1, g1, &t1)),
            ActivationFault::InvalidProof {
                members: vec![pid(1)]
            }
        );
        let undecodable = (0..=255u8).find_map(|x| {
            let mut bad = fields.clone();
            bad.proofs[0].1[..point_len].fill(x);
            ActivationCertificate::from_bytes(&bad.encode()).err()
        });
        assert!(matches!(undecodable, Some(wire::Error::InvalidValue(_))));
        // A response that is no canonical scalar (all ones, above every group order) does
        // not decode either: no proof has two encodings.
        let mut wide = fields.clone();
        wide.proofs[0].1[point_len..point_len + 32].fill(0xFF);
        assert!(matches!(
            ActivationCertificate::from_bytes(&wide.encode()),
            Err(wire::Error::InvalidValue(_))
        ));
        let mut swapped = fields.clone();
        let p = swapped.proofs[0].1.clone();
        swapped.proofs[0].1 = swapped.proofs[2].1.clone();
        swapped.proofs[2].1 = p;
        assert_eq!(
            fault_of(verify(&swapped.cert(), &p1, g1, &t1)),
            ActivationFault::InvalidProof { members: ids([1, 3]) }
        );
        // A member twice does not even decode.
        let mut twice = fields.clone();
        twice.proofs[1] = twice.proofs[0].clone();
        assert!(ActivationCertificate::from_bytes(&twice.encode()).is_err());

        // Another scheme, another key.
        assert_eq!(
            fault_of(cert1.verify(&p1, ActivationKind::Lens, &[])),
            ActivationFault::WrongGroup
        );
        assert_eq!(
            fault_of(cert1.verify(&p1, ActivationKind::Lss, b"key")),
            ActivationFault::WrongKey
        );
        assert_eq!(ActivationFault::WrongGroup.code(), "ACTIVATION_WRONG_GROUP");
        assert_eq!(ActivationFault::WrongKey.code(), "ACTIVATION_WRONG_KEY");

        // No bit flip of the encoding ever verifies.
        let bytes = cert1.to_bytes();
        for bit in 0..bytes.len() * 8 {
            let mut b = bytes.clone();
            b[bit / 8] ^= 1 << (bit % 8);
            if let Ok(c) = ActivationCertificate::from_bytes(&b) {
                assert!(verify(&c, &p1, g1, &t1).is_err(), "bit {bit} verifies");
            }
        }
    }
    go::<Ristretto255>(Mode::Pedersen);
    go::<Ed25519>(Mode::Feldman);
    go::<Secp256k1>(Mode::Feldman);
}

/// The chained activation attack: a reshare leaves only 2 of 4 new holders (threshold 3) —
/// receivers 6 and 7 get nothing at all — so nobody activates the new generation; the
/// old set, which still holds working shares, builds every certificate it can: none
/// activates the new generation.
#[test]
fn the_old_set_cannot_activate_the_new_generation() {
    type C = Ristretto255;
    let (old, public, secret) = dkg::<C>(Mode::Pedersen, 3, 2, "chained dkg");
    let c = Ceremony::<C>::reshare(sid("chained"), &public, &ids(1..=3), &ids(4..=7), 3).unwrap();
    let (out, log) = lss_deal(&c, &old, &[], Some(drop_to(ids([6, 7]))), "chained");
    // 6 and 7 got no deal: too few dealers qualify in their view.
    for p in ids([6, 7]) {
        assert_eq!(
            out[&p].as_ref().unwrap_err().code(),
            "NOT_ENOUGH_QUALIFIED",
            "{p}"
        );
    }
    // Everyone else finalized, but only 4 and 5 prove possession: every one of them fails
    // with the same typed error, and no certificate exists.
    let want = quasar_pq::Error::Lss(lss::Error::NotEnoughPossessionProofs {
        needed: 3,
        got: 2,
        culprits: vec![],
    });
    for p in ids(1..=5) {
        assert_eq!(out[&p].as_ref().unwrap_err(), &want, "{p}");
    }
    // The old shares still work.
    assert_eq!(secret_of(&old, &public), secret);

    let new_public = observed_group::<C>(c.dealers(), c.receivers(), 3, Mode::Pedersen, &log, pid(4));
    let (g, t) = (new_public.generation(), *new_public.transcript_hash());
    let verify =
        |cert: &ActivationCertificate| cert.verify_expected(&new_public, ActivationKind::Lss, &[], g, &t);
    // (a) An activation round over the old generation, with the old shares: a valid
    // certificate — of generation 0.
    let started = ids(1..=3)
        .into_iter()
        .map(|p| {
            ActivationParty::start(
                p,
                old.get(&p),
                &public,
                ActivationKind::Lss,
                &[],
                &mut party_rng(b"old set", p),
            )
            .unwrap()
        })
        .collect();
    let (certs, _) = run(started, None);
    let old_cert = certs[&pid(1)].as_ref().unwrap().clone();
    old_cert.verify(&public, ActivationKind::Lss, &[]).unwrap();
    assert_eq!(
        fault_of(verify(&old_cert)),
        ActivationFault::WrongGeneration { expected: 1, got: 0 }
    );
    // (b) An activation party of the new generation holding an old share: refused.
    assert_eq!(
        ActivationParty::start(
            pid(1),
            old.get(&pid(1)),
            &new_public,
            ActivationKind::Lss,
            &[],
            &mut party_rng(b"x", pid(1))
        )
        .unwrap_err(),
        lss::Error::OldShareMismatch { party: pid(1) }
    );
    // (c) The old proofs patched into a certificate for the new generation.
    let mut patched = Lsa2::of(&old_cert);
    patched.generation = g;
    patched.transcript = t;
    assert_eq!(
        fault_of(verify(&patched.cert())),
        ActivationFault::NotAMember { party: pid(1) }
    );
    for (m, id) in patched.proofs.iter_mut().zip([4u16, 6, 7]) {
        m.0 = id;
    }
    assert_eq!(
        fault_of(verify(&patched.cert())),
        ActivationFault::InvalidProof {
            members: ids([4, 6, 7])
        }
    );
    // (d) The two real new proofs and an old one posing as 6's: only the forgery fails
    // (so the observed public data is the real one).
    let proofs = broadcasts_with(&log, 3, b"LSV1");
    let real = |p: u16| (p, possession_parts(&proofs[&pid(p)]).3);
    let mut mixed = patched.clone();
    mixed.proofs = vec![real(4), real(5), (6, patched.proofs[0].1.clone())];
    assert_eq!(
        fault_of(verify(&mixed.cert())),
        ActivationFault::InvalidProof {
            members: vec![pid(6)]
        }
    );
    // (e) The two real proofs alone.
    mixed.proofs.truncate(2);
    assert_eq!(
        fault_of(verify(&mixed.cert())),
        ActivationFault::TooFewMembers { needed: 3, got: 2 }
    );
}

/// Peer faults in the activation round of a refresh (4 members, t = 3): the faulty
/// member's proof is dropped and named, the other three activate; with two faulty
/// members nobody can, and every honest party fails with the same typed error.
#[test]
fn peer_faults_in_the_activation_round() {
    type C = Ristretto255;
    let (s1, p1, x, previous) = generation_one::<C>(Mode::Pedersen, 4, 3, "act faults");
    let c = Ceremony::<C>::refresh(sid("act faults"), &p1, &ids(1..=4)).unwrap();
    let (_, _, _, log) = clean(&c, &s1, "act faults clean");
    let f = pid(2);
    let lsv1 = broadcast_of(&log, f, 3).unwrap();
    let lsd1 = broadcast_of(&log, f, 0).unwrap();
    let old_lsv1 = broadcast_of(&previous, f, 3).unwrap();
    let mut bad_proof = lsv1.clone();
    let last = bad_proof.len() - 1;
    bad_proof[last] ^= 1;
    let replace = |bytes: Vec<u8>| -> Tamper {
        Box::new(move |mut e: Envelope| {
            if e.from == pid(2) && e.round == 3 {
                e.bytes = bytes.clone().into();
            }
            vec![e]
        })
    };
    let extra = |from: u16, bytes: Vec<u8>| -> Tamper {
        Box::new(move |e: Envelope| {
            if e.from == pid(2) && e.round == 3 {
                let mut copy = e.clone();
                copy.from = pid(from);
                copy.bytes = bytes.clone().into();
                if copy.to == copy.from {
                    copy.to = pid(2);
                }
                vec![e, copy]
            } else {
                vec![e]
            }
        })
    };
    // (tamper, who dropped what, whether F's proof still counts)
    let cases: Vec<(&str, Tamper, &str, bool)> = vec![
        (
            "garbage",
            replace(junk(lsv1.len(), "lsv1")),
            "MALFORMED_MESSAGE",
            false,
        ),
        (
            "cut short",
            replace(lsv1[..lsv1.len() - 1].to_vec()),
            "MALFORMED_MESSAGE",
            false,
        ),
        (
            "previous generation",
            replace(old_lsv1),
            "WRONG_GENERATION",
            false,
        ),
        (
            "invalid proof",
            replace(bad_proof.clone()),
            "INVALID_POSSESSION_PROOF",
            false,
        ),
        ("wrong kind", replace(lsd1), "WRONG_KIND", false),
        ("duplicate", extra(2, lsv1.clone()), "DUPLICATE_MESSAGE", true),
        (
            "conflicting",
            extra(2, bad_proof.clone()),
            "CONFLICTING_MESSAGE",
            false,
        ),
    ];
    for (name, tamper, code, counts) in cases {
        let (out, _) = lss_deal(&c, &s1, &[], Some(tamper), "act faults clean");
        let mut cert = None;
        for p in ids([1, 3, 4]) {
            let o = out[&p].as_ref().unwrap_or_else(|e| panic!("{name}: {p}: {e}"));
            assert_eq!(codes(&o.dropped), vec![(f, code)], "{name}: {p}");
            cert.get_or_insert_with(|| o.activation.clone().unwrap());
            assert_eq!(o.activation.as_ref(), cert.as_ref(), "{name}: {p}");
        }
        let cert = cert.unwrap();
        let public = out[&pid(1)].as_ref().unwrap().public.clone();
        check_certificate(&cert, &public);
        let want = if counts { ids(1..=4) } else { ids([1, 3, 4]) };
        assert_eq!(cert.members(), want, "{name}");
    }
    // A possession message from a non-member (an outsider, a copy of F's).
    let (out, _) = lss_deal(
        &c,
        &s1,
        &[],
        Some(extra(OUTSIDER, lsv1.clone())),
        "act faults clean",
    );
    for p in ids(1..=4) {
        let o = out[&p].as_ref().unwrap();
        let want = if p == f {
            vec![]
        } else {
            vec![(pid(OUTSIDER), "UNKNOWN_PARTY")]
        };
        assert_eq!(codes(&o.dropped), want, "{p}");
        assert_eq!(o.activation.as_ref().unwrap().members(), ids(1..=4));
    }
    // F's proof sent under 3's transport id (3's own lost): SENDER_MISMATCH naming 3.
    let under_3: Tamper = Box::new(move |mut e: Envelope| {
        if e.from == pid(3) && e.round == 3 {
            e.bytes = lsv1.clone().into();
        }
        vec![e]
    });
    let (out, _) = lss_deal(&c, &s1, &[], Some(under_3), "act faults clean");
    for p in ids([1, 2, 4]) {
        let o = out[&p].as_ref().unwrap();
        assert_eq!(codes(&o.dropped), vec![(pid(3), "SENDER_MISMATCH")], "{p}");
        assert_eq!(o.dropped[0].reason, BlameReason::SenderMismatch { claimed: f });
        assert_eq!(o.activation.as_ref().unwrap().members(), ids([1, 2, 4]));
    }
    // Two faulty members: nobody honest can activate.
    let two: Tamper = Box::new(|mut e: Envelope| {
        if (e.from == pid(2) || e.from == pid(4)) && e.round == 3 {
            e.bytes = junk(e.bytes.len(), "two").into();
        }
        vec![e]
    });
    let (out, _) = lss_deal(&c, &s1, &[], Some(two), "act faults clean");
    let want = quasar_pq::Error::Lss(lss::Error::NotEnoughPossessionProofs {
        needed: 3,
        got: 2,
        culprits: ids([2, 4]),
    });
    for p in ids([1, 3]) {
        assert_eq!(out[&p].as_ref().unwrap_err(), &want, "{p}");
    }
    // The generation is not activated: the old shares must be (and are) still usable.
    assert_eq!(secret_of(&s1, &p1), x);
}
