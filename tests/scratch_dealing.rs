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
