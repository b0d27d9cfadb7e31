use quasar_pq::lss::{Ceremony, DealingParty, KeyShare, Outcome};
use quasar_pq::party::sim::{party_rng, Channel, Envelope, Network};
use quasar_pq::vss::{Mode, Ristretto255 as C};
use quasar_pq::PartyId;
use std::collections::BTreeMap;

fn id(v: u16) -> PartyId {
    PartyId::new(v).unwrap()
}

fn run(
    c: &Ceremony<C>,
    old: &BTreeMap<PartyId, KeyShare<C>>,
    tamper: Option<Box<dyn FnMut(Envelope) -> Vec<Envelope>>>,
) -> BTreeMap<PartyId, Result<Outcome<C>, quasar_pq::Error>> {
    let mut ids: Vec<PartyId> = c.dealers().iter().chain(c.receivers()).copied().collect();
    ids.sort();
    ids.dedup();
    let mut net = Network::new();
    for &p in &ids {
        let (party, out) = DealingParty::start(c.clone(), p, old.get(&p), &mut party_rng(b"t", p)).unwrap();
        net.add(party, out);
    }
    if let Some(t) = tamper {
        net.tamper(t);
    }
    net.run()
}

#[test]
fn misaddressed_share_is_dropped_and_dealing_completes() {
    let dkg = Ceremony::<C>::dkg([1; 32], Mode::Pedersen, &[id(1), id(2), id(3)], 2).unwrap();
    let out = run(&dkg, &BTreeMap::new(), None);
    let public = out[&id(1)].as_ref().unwrap().public.clone();
    let shares: BTreeMap<_, _> = out
        .into_iter()
        .map(|(p, o)| (p, o.unwrap().key_share.unwrap()))
        .collect();
    let new_set = [id(4), id(5), id(6), id(7)];
    let reshare = Ceremony::reshare([2; 32], &public, &[id(1), id(2)], &new_set, 3).unwrap();
    // Dealer 1 hands 4 and 5 the message it made for 6.
    let mut for6: Option<Vec<u8>> = None;
    let tamper = Box::new(move |e: Envelope| {
        if e.from == id(1) && e.channel == Channel::Direct {
            if e.to == id(6) {
                for6 = Some(e.bytes.to_vec());
            }
        }
        vec![e]
    });
    let _ = tamper;
    // simpler: rewrite in a second pass
    let mut stash: BTreeMap<PartyId, Vec<u8>> = BTreeMap::new();
    let _ = &mut stash;
    let out = run(
        &reshare,
        &shares,
        Some(Box::new({
            let mut seen6: Option<zeroize::Zeroizing<Vec<u8>>> = None;
            let mut held: Vec<Envelope> = Vec::new();
            move |e: Envelope| {
                if e.round == 0 && e.from == id(1) && e.channel == Channel::Direct {
                    if e.to == id(6) {
                        seen6 = Some(e.bytes.clone());
                        let mut outv = vec![e];
                        for mut h in held.drain(..) {
                            h.bytes = seen6.clone().unwrap();
                            outv.push(h);
                        }
                        return outv;
                    }
                    if e.to == id(4) || e.to == id(5) {
                        if let Some(b) = &seen6 {
                            let mut e = e;
                            e.bytes = b.clone();
                            return vec![e];
                        }
                        held.push(e);
                        return vec![];
                    }
                }
                vec![e]
            }
        })),
    );
    for p in &new_set {
        let o = out[p].as_ref().expect("honest party completes");
        assert!(o.key_share.is_some(), "{p} has a share");
        println!("{p}: blame {:?} dropped {:?}", o.blame, o.dropped);
    }
    for p in [id(4), id(5)] {
        assert!(out[&p]
            .as_ref()
            .unwrap()
            .dropped
            .iter()
            .any(|b| b.party == id(1) && b.reason.code() == "WRONG_RECIPIENT"));
    }
    let g: Vec<_> = new_set
        .iter()
        .map(|p| out[p].as_ref().unwrap().public.clone())
        .collect();
    assert!(g.windows(2).all(|w| w[0] == w[1]));
}

mod flows {
    use super::*;
    use quasar_pq::lens::{self, CoordinatorParty, Curve, SignerParty as LensSigner};
    use quasar_pq::lss::AnyKeyShare;
    use quasar_pq::mldsa::Mode as M;
    use quasar_pq::party::sim::map_output;
    use quasar_pq::pulsar::custody::{
        self, certification_party, Combined, CombinerKey, CombinerParty, GroupKey, KeyShare as PKS, Session,
        SignerParty,
    };

    fn session(shares: &[&KeyShare<C>], s: &Session, key: CombinerKey) -> Combined {
        let mut net = Network::new();
        let (c, o) = CombinerParty::start(key, s, &mut party_rng(b"c", id(99))).unwrap();
        net.add(map_output(c, Some), o);
        for sh in shares {
            let (p, o) = SignerParty::start(sh, s, &mut party_rng(b"s", sh.id())).unwrap();
            net.add(map_output(p, |_| None), o);
        }
        net.run().into_values().find_map(|o| o.unwrap()).unwrap()
    }

    #[test]
    fn pulsar_end_to_end() {
        let ids: Vec<PartyId> = (1..=5).map(id).collect();
        let dkg = Ceremony::<C>::dkg([1; 32], Mode::Pedersen, &ids, 3).unwrap();
        let out = run(&dkg, &BTreeMap::new(), None);
        let shares: BTreeMap<_, _> = out
            .into_iter()
            .map(|(p, o)| (p, o.unwrap().key_share.unwrap()))
            .collect();
        let public = shares[&id(1)].public().clone();
        let key = CombinerKey::generate(id(99), &mut party_rng(b"k", id(99)));
        let s = Session::key_ceremony([2; 32], M::MlDsa65, &public, &ids[..3], key.public_key()).unwrap();
        let Combined::Announcement(a) =
            session(&[&shares[&id(1)], &shares[&id(2)], &shares[&id(3)]], &s, key)
        else {
            panic!()
        };
        let announced = a.verify(&public).unwrap();
        let mut net = Network::new();
        for &p in &ids {
            let (party, o) = certification_party(
                p,
                Some(&shares[&p]),
                &public,
                &announced,
                &mut party_rng(b"cert", p),
            )
            .unwrap();
            net.add(party, o);
        }
        let certs = net.run();
        let cert = certs[&id(1)].as_ref().unwrap().clone();
        let gk = GroupKey::new(announced.clone(), &public, cert).unwrap();
        let stored: BTreeMap<_, _> = shares
            .iter()
            .map(|(p, s)| {
                (
                    *p,
                    PKS::new(KeyShare::from_bytes(&s.to_bytes()).unwrap(), gk.clone()).unwrap(),
                )
            })
            .collect();
        // PCKS round trip
        let again = PKS::from_bytes(&stored[&id(1)].to_bytes()).unwrap();
        assert_eq!(again.group_key(), &gk);
        // sign
        let key = CombinerKey::generate(id(99), &mut party_rng(b"k2", id(99)));
        let s = Session::sign([3; 32], &gk, &public, &ids[1..4], key.public_key(), b"hello", b"").unwrap();
        let Combined::Signed(sig) = session(
            &[stored[&id(2)].lss(), stored[&id(3)].lss(), stored[&id(4)].lss()],
            &s,
            key,
        ) else {
            panic!()
        };
        quasar_pq::mldsa::verify(M::MlDsa65, gk.public_key(), b"hello", b"", sig.signature()).unwrap();
        // reserved context refused
        let key = CombinerKey::generate(id(99), &mut party_rng(b"k3", id(99)));
        assert!(Session::sign(
            [4; 32],
            &gk,
            &public,
            &ids[1..4],
            key.public_key(),
            b"x",
            custody::ACTIVATION_CONTEXT
        )
        .is_err());
        // reshare to 6..9 t=3
        let new_set: Vec<PartyId> = (6..=9).map(id).collect();
        let c = custody::reshare([5; 32], &gk, &public, &ids[..3], &new_set, 3).unwrap();
        let old: BTreeMap<_, _> = stored
            .iter()
            .map(|(p, s)| (*p, KeyShare::from_bytes(&s.lss().to_bytes()).unwrap()))
            .collect();
        let out = run(&c, &old, None);
        let o6 = out[&id(6)].as_ref().unwrap();
        let cert = o6.activation.clone().unwrap();
        assert!(out[&id(1)].as_ref().unwrap().activation.is_some());
        let new_public = o6.public.clone();
        custody::verify_activation(&new_public, &gk, 1, new_public.transcript_hash(), &cert).unwrap();
        // old public (gen 0) refuses the new cert
        assert!(custody::verify_activation(&public, &gk, 1, new_public.transcript_hash(), &cert).is_err());
        assert!(
            custody::verify_activation(&new_public, &gk, 2, new_public.transcript_hash(), &cert).is_err()
        );
        let gk1 = gk.reactivated(&new_public, cert).unwrap();
        let new_shares: BTreeMap<_, _> = out
            .into_iter()
            .filter_map(|(p, o)| {
                o.unwrap()
                    .key_share
                    .map(|s| (p, PKS::new(s, gk1.clone()).unwrap()))
            })
            .collect();
        assert_eq!(new_shares.len(), 4);
        let key = CombinerKey::generate(id(99), &mut party_rng(b"k4", id(99)));
        let s = Session::sign(
            [6; 32],
            &gk1,
            &new_public,
            &new_set[1..],
            key.public_key(),
            b"again",
            b"",
        )
        .unwrap();
        let Combined::Signed(sig) = session(
            &[
                new_shares[&id(7)].lss(),
                new_shares[&id(8)].lss(),
                new_shares[&id(9)].lss(),
            ],
            &s,
            key,
        ) else {
            panic!()
        };
        quasar_pq::mldsa::verify(M::MlDsa65, gk.public_key(), b"again", b"", sig.signature()).unwrap();
        let _ = AnyKeyShare::from(KeyShare::<C>::from_bytes(&new_shares[&id(7)].lss().to_bytes()).unwrap());
    }

    #[test]
    fn lens_end_to_end() {
        for curve in Curve::ALL {
            let ids: Vec<PartyId> = (1..=4).map(id).collect();
            let cer = lens::Ceremony::keygen(curve, [1; 32], &ids, 3).unwrap();
            let mut net = Network::new();
            for &p in &ids {
                let (party, o) = cer.start(p, None, &mut party_rng(b"kg", p)).unwrap();
                net.add(party, o);
            }
            let out = net.run();
            let shares: BTreeMap<_, _> = out
                .into_iter()
                .map(|(p, o)| (p, o.unwrap().key_share.unwrap()))
                .collect();
            let public = shares[&id(1)].public().clone();
            let sign = |shares: &BTreeMap<PartyId, lens::KeyShare>,
                        public: &lens::PublicKeyPackage,
                        who: &[PartyId],
                        msg: &[u8]| {
                let mut net = Network::new();
                let (c, o) = CoordinatorParty::start(id(100), public, msg).unwrap();
                net.add(map_output(c, |o| Some(o.signature)), o);
                for p in who {
                    let (s, o) =
                        LensSigner::start(&shares[p], id(100), msg, &mut party_rng(b"sg", *p)).unwrap();
                    net.add(map_output(s, |_| None), o);
                }
                net.run().into_values().find_map(|o| o.unwrap()).unwrap()
            };
            let sig = sign(&shares, &public, &ids[..3], b"hi");
            lens::verify(curve, &public.group_key_bytes(), b"hi", &sig.to_bytes()).unwrap();
            let r = lens::Ceremony::reshare([2; 32], &public, &ids[..3], &[id(5), id(6), id(7)], 2).unwrap();
            let mut net = Network::new();
            for p in r.participants() {
                let (party, o) = r.start(p, shares.get(&p), &mut party_rng(b"rs", p)).unwrap();
                net.add(party, o);
            }
            let out = net.run();
            let o5 = out[&id(5)].as_ref().unwrap();
            let np = o5.public.clone();
            lens::verify_activation(&np, 1, &np.epoch().transcript, o5.activation.as_ref().unwrap()).unwrap();
            assert_eq!(np.group_key_bytes(), public.group_key_bytes());
            let ns: BTreeMap<_, _> = out
                .into_iter()
                .filter_map(|(p, o)| o.unwrap().key_share.map(|s| (p, s)))
                .collect();
            let sig = sign(&ns, &np, &[id(5), id(7)], b"after");
            lens::verify(curve, &public.group_key_bytes(), b"after", &sig.to_bytes()).unwrap();
        }
    }
}

#[test]
fn lens_share_round_trip() {
    use quasar_pq::lens::{self, Curve, KeyShare};
    use quasar_pq::party::sim::party_rng;
    for curve in Curve::ALL {
        let ids: std::collections::BTreeSet<PartyId> = (1..=3).map(id).collect();
        let (dealt, public) = lens::deal(curve, 2, &ids, &mut party_rng(b"d", id(1))).unwrap();
        for (_, d) in dealt {
            let s = KeyShare::from_dealer(d, &public).unwrap();
            let b = s.to_bytes();
            let back = KeyShare::from_bytes(curve, &b).unwrap();
            assert_eq!(back.to_bytes(), b);
        }
    }
}

#[test]
fn secp256k1_key_has_one_encoding() {
    use quasar_pq::lens::{self, CoordinatorParty, Curve, SignerParty};
    use quasar_pq::party::sim::{map_output, party_rng};
    let ids: std::collections::BTreeSet<PartyId> = (1..=3).map(id).collect();
    let (dealt, public) = lens::deal(Curve::Secp256k1, 2, &ids, &mut party_rng(b"d", id(1))).unwrap();
    let shares: Vec<_> = dealt
        .into_values()
        .map(|d| lens::KeyShare::from_dealer(d, &public).unwrap())
        .collect();
    let mut net = Network::new();
    let (c, o) = CoordinatorParty::start(id(100), &public, b"m").unwrap();
    net.add(map_output(c, |o| Some(o.signature)), o);
    for s in &shares[..2] {
        let (p, o) = SignerParty::start(s, id(100), b"m", &mut party_rng(b"s", s.party())).unwrap();
        net.add(map_output(p, |_| None), o);
    }
    let sig = net
        .run()
        .into_values()
        .find_map(|o| o.unwrap())
        .unwrap()
        .to_bytes();
    let key = public.group_key_bytes();
    assert_eq!(key[0], 0x02);
    lens::verify(Curve::Secp256k1, &key, b"m", &sig).unwrap();
    let mut odd = key.clone();
    odd[0] = 0x03;
    assert!(lens::verify(Curve::Secp256k1, &odd, b"m", &sig).is_err());
    assert!(lens::verify(Curve::Secp256k1, &key[1..], b"m", &sig).is_err());
}
