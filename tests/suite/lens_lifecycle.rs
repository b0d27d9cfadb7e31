//! The Lens lifecycle as parties: key generation, signing and reshare → activation into
//! the keyring run whole through `party::sim` on two curves, and a message of another
//! phase replayed into a dealing dropped and its sender named.
//!
//! Run: `cargo test --features sim,hazmat --test suite lens_lifecycle::`.

// Helpers outside `#[test]` functions unwrap too: a panic here is a failed test
// (clippy.toml's allow-unwrap-in-tests covers only the test functions themselves).
#![allow(clippy::unwrap_used)]

use crate::common;

use std::collections::BTreeMap;

use common::sim::*;
use quasar_pq::lens::lifecycle::{Coordinator, Member as LensMember, MemberOutcome as LensOutcome};
use quasar_pq::lens::{Ceremony, CoordinatorOutcome, Curve, KeyShare as LensShare, PublicKeyPackage};
use quasar_pq::party::keyring::Keyring;
use quasar_pq::party::sim::{map_output, party_rng, Channel, Envelope, Network};
use quasar_pq::party::Blame;
use quasar_pq::PartyId;

#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
enum LOut {
    Member(LensOutcome),
    Coordinator(CoordinatorOutcome),
}

const HUB: u16 = 100;

struct LensGroup {
    keyrings: BTreeMap<PartyId, Keyring<LensShare>>,
    public: PublicKeyPackage,
    /// What each member dropped.
    dropped: BTreeMap<PartyId, Vec<Blame>>,
}

fn keygen(curve: Curve, tamper: Option<Tamper>) -> LensGroup {
    let c = Ceremony::keygen(curve, sid("lens keygen"), &ids(1..=3), 2).unwrap();
    let mut net = Network::new();
    for p in ids(1..=3) {
        let (m, o) = LensMember::keygen(p, &c, &mut party_rng(b"lens keygen", p)).unwrap();
        net.add(map_output(m, LOut::Member), o);
    }
    if let Some(t) = tamper {
        net.tamper(t);
    }
    let (mut keyrings, mut dropped, mut public) = (BTreeMap::new(), BTreeMap::new(), None);
    for (p, o) in net.run() {
        let Ok(LOut::Member(LensOutcome::Setup(s))) = o else {
            panic!("{p}: {o:?}")
        };
        public = Some(s.public);
        dropped.insert(p, s.dropped);
        keyrings.insert(p, Keyring::new(s.key_share));
    }
    LensGroup {
        keyrings,
        public: public.unwrap(),
        dropped,
    }
}

fn sign(
    keyrings: &BTreeMap<PartyId, Keyring<LensShare>>,
    public: &PublicKeyPackage,
    signers: &[PartyId],
    msg: &[u8],
) -> CoordinatorOutcome {
    let hub = pid(HUB);
    let mut net = Network::new();
    let (c, o) = Coordinator::sign(hub, public, msg).unwrap();
    net.add(map_output(c, LOut::Coordinator), o);
    for &p in signers {
        let share = keyrings[&p].current().unwrap();
        let (m, o) = LensMember::sign(share, hub, msg, &mut party_rng(b"lens sign", p)).unwrap();
        net.add(map_output(m, LOut::Member), o);
    }
    let mut out = net.run();
    match out.remove(&hub).unwrap().unwrap() {
        LOut::Coordinator(o) => o,
        other => panic!("{other:?}"),
    }
}

#[test]
fn lens_keygen_sign_and_reshare_run_whole_as_parties() {
    for curve in [Curve::Ed25519, Curve::Secp256k1] {
        let g = keygen(curve, None);
        let signed = sign(&g.keyrings, &g.public, &ids([1, 3]), b"lens block");
        assert!(standard_verify(
            curve,
            &g.public.group_key_bytes(),
            b"lens block",
            &signed.signature.to_bytes()
        ));
        let c = Ceremony::reshare(sid("lens reshare"), &g.public, &ids(1..=3), &ids(2..=4), 2).unwrap();
        let mut keyrings = g.keyrings;
        let mut net = Network::new();
        for p in c.participants() {
            let mut keyring = keyrings.remove(&p).unwrap_or_default();
            let (m, o) =
                LensMember::reshare(p, &mut keyring, &c, &mut party_rng(b"lens reshare", p)).unwrap();
            net.add(map_output(m, LOut::Member), o);
        }
        let mut after = BTreeMap::new();
        let mut public = None;
        for (p, o) in net.run() {
            let Ok(LOut::Member(LensOutcome::Reshared(r))) = o else {
                panic!("{p}: {o:?}")
            };
            let a = r.activated.unwrap();
            assert_eq!(
                (a.generation(), a.erased(), a.member()),
                (1, (p.get() <= 3).then_some(0), p.get() >= 2)
            );
            public = Some(r.public);
            after.insert(p, r.keyring);
        }
        let public = public.unwrap();
        assert_eq!(
            public.group_key_bytes(),
            g.public.group_key_bytes(),
            "the key never changes"
        );
        let signed = sign(&after, &public, &ids([2, 4]), b"lens block 2");
        assert!(standard_verify(
            curve,
            &public.group_key_bytes(),
            b"lens block 2",
            &signed.signature.to_bytes()
        ));
    }
}

#[test]
fn lens_keygen_names_a_replay_from_the_signing_phase() {
    // Member 2 injects a signing commitment (LNC1, another phase's kind) into the
    // DKG's second round: every other member drops it and names 2.
    let g = keygen(Curve::Ed25519, None);
    let share = g.keyrings[&pid(2)].current().unwrap();
    let (_, o) = LensMember::sign(share, pid(HUB), b"x", &mut party_rng(b"replay", pid(2))).unwrap();
    let commitment = o.direct[0].bytes.to_vec();
    let mut done = false;
    let tamper: Tamper = Box::new(move |e: Envelope| {
        if e.round == 1 && e.from == pid(2) && !done {
            done = true;
            let mut out = vec![e.clone()];
            for to in ids([1, 3]) {
                out.push(Envelope {
                    to,
                    channel: Channel::Direct,
                    bytes: commitment.clone().into(),
                    ..e.clone()
                });
            }
            return out;
        }
        vec![e]
    });
    let g = keygen(Curve::Ed25519, Some(tamper));
    for p in ids([1, 3]) {
        assert_eq!(codes(&g.dropped[&p]), vec![(pid(2), "WRONG_KIND")], "{p}");
    }
    assert!(g.dropped[&pid(2)].is_empty());
}
