//! Pulsar custody: the Pedersen DKG, the key ceremony (envelopes sealed to the combiner,
//! opened, shares checked, the group secret rebuilt, the ML-DSA key derived), the key's
//! certification, a signing session (envelopes, rebuild, FIPS 204 sign), and a combiner
//! key decoded from secret bytes.

use std::collections::BTreeMap;

use quasar_pq::lss::{self, Ceremony};
use quasar_pq::mldsa::{self, Mode};
use quasar_pq::party::sim::{map_output, Network};
use quasar_pq::pulsar::custody::{
    self, certification_party, Combined, CombinerKey, CombinerParty, GroupKey, GroupKeyAnnouncement, Session,
    SignerParty,
};
use quasar_pq::vss::{self, Ristretto255};
use quasar_pq::PartyId;

use crate::lss::{deal, ids, pid};
use crate::rng::SecretRng;
use crate::{path, Path};

type Share = lss::KeyShare<Ristretto255>;

pub fn paths() -> Vec<Path> {
    vec![
        path("pulsar/combiner-key/ML-KEM-768", combiner_key_decode),
        path("pulsar/ceremony+certify+sign/ML-DSA-44", || {
            custody(Mode::MlDsa44)
        }),
        path("pulsar/ceremony+certify+sign/ML-DSA-65", || {
            custody(Mode::MlDsa65)
        }),
    ]
}

const COMBINER: u16 = 1000;

enum Out {
    Combiner(Combined),
    Signer,
}

fn combiner_key(label: &str) -> CombinerKey {
    CombinerKey::generate(pid(COMBINER), &mut SecretRng::new(label))
}

/// dk = dk_pke (1152, secret) ‖ ek (1184) ‖ H(ek) (32) ‖ z (32, secret), after an 8-byte
/// header.
fn combiner_key_decode() {
    let bytes = combiner_key("decode").to_bytes();
    quasar_pq::ct::secret_slice(&bytes[8..8 + 1152]);
    quasar_pq::ct::secret_slice(&bytes[8 + 2368..8 + 2400]);
    CombinerKey::from_bytes(&bytes).expect("decode");
}

fn session(shares: &[&Share], session: &Session, key: CombinerKey, label: &str) -> Combined {
    let mut net = Network::new();
    let (c, o) =
        CombinerParty::start(key, session, &mut SecretRng::new(&format!("{label} combiner"))).expect("c");
    net.add(map_output(c, Out::Combiner), o);
    for s in shares {
        let (p, o) = SignerParty::start(s, session, &mut SecretRng::new(&format!("{label} {}", s.id())))
            .expect("signer");
        net.add(map_output(p, |_| Out::Signer), o);
    }
    match net.run().remove(&pid(COMBINER)) {
        Some(Ok(Out::Combiner(c))) => c,
        _ => panic!("the combiner did not finish"),
    }
}

fn custody(mode: Mode) {
    let parties = ids(1..=3);
    let dkg = Ceremony::<Ristretto255>::dkg([5; 32], vss::Mode::Pedersen, &parties, 2).expect("dkg");
    let lss = deal(&dkg, &BTreeMap::new(), "pulsar dkg");
    let public = lss[&pid(1)].public().clone();
    let signers: Vec<&Share> = [pid(1), pid(2)].iter().map(|p| &lss[p]).collect();

    let key = combiner_key("ceremony");
    let s =
        Session::key_ceremony([6; 32], mode, &public, &[pid(1), pid(2)], key.public_key()).expect("session");
    let Combined::Announcement(ann) = session(&signers, &s, key, "ceremony") else {
        panic!("no announcement")
    };
    let announced = GroupKeyAnnouncement::from_bytes(&ann.to_bytes())
        .expect("announcement")
        .verify(&public)
        .expect("verify");
    let mut net = Network::new();
    for &p in &parties {
        let (party, first) = certification_party(
            p,
            Some(&lss[&p]),
            &public,
            &announced,
            &mut SecretRng::new(&format!("cert {p}")),
        )
        .expect("certify");
        net.add(party, first);
    }
    let certs: BTreeMap<PartyId, _> = net.run();
    let cert = certs[&pid(1)].as_ref().expect("certificate").clone();
    let group = GroupKey::new(announced, &public, cert).expect("group key");
    let _stored = custody::KeyShare::new(
        Share::from_bytes(&lss[&pid(3)].to_bytes()).expect("copy"),
        group.clone(),
    )
    .expect("custody share");

    let key = combiner_key("sign");
    let msg = b"pulsar block 9";
    let s = Session::sign(
        [7; 32],
        &group,
        &public,
        &[pid(2), pid(3)],
        key.public_key(),
        msg,
        b"",
    )
    .expect("s");
    let signers: Vec<&Share> = [pid(2), pid(3)].iter().map(|p| &lss[p]).collect();
    let Combined::Signed(signed) = session(&signers, &s, key, "sign") else {
        panic!("no signature")
    };
    mldsa::verify(mode, group.public_key(), msg, b"", signed.signature()).expect("verify");
}
