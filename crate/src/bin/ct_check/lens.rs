//! Lens (FROST): key generation on the LSS kernel, a 2-of-3 signing session (round 1
//! nonces and commitments, round 2 signature shares, aggregation) and a key share decoded
//! from secret bytes, on each curve.

use std::collections::BTreeMap;

use quasar_pq::lens::{self, CoordinatorParty, Curve, KeyShare, SignerParty};
use quasar_pq::party::sim::{map_output, Network};

use crate::lss::{ids, pid};
use crate::rng::SecretRng;
use crate::{path, Path};

pub(crate) fn paths() -> Vec<Path> {
    [Curve::Ed25519, Curve::Secp256k1, Curve::Ristretto255]
        .into_iter()
        .map(|curve| path(format!("lens/keygen+sign+share/{curve}"), move || lens(curve)))
        .collect()
}

enum Out {
    Coordinator(lens::CoordinatorOutcome),
    Signer,
}

fn lens(curve: Curve) {
    let c = lens::Ceremony::keygen(curve, [4; 32], &ids(1..=3), 2).expect("keygen");
    let mut net = Network::new();
    for p in c.participants() {
        let (party, first) = c
            .start(p, None, &mut SecretRng::new(&format!("lens {p}")))
            .expect("start");
        net.add(party, first);
    }
    let shares: BTreeMap<_, KeyShare> = net
        .run()
        .into_iter()
        .map(|(p, o)| (p, o.expect("keygen").key_share.expect("share")))
        .collect();
    let public = shares[&pid(1)].public().clone();

    let msg = b"lens block 7";
    let hub = pid(100);
    let mut net = Network::new();
    let (coord, first) = CoordinatorParty::start(hub, &public, msg).expect("coordinator");
    net.add(map_output(coord, Out::Coordinator), first);
    for p in [pid(1), pid(3)] {
        let (s, first) = SignerParty::start(&shares[&p], hub, msg, &mut SecretRng::new(&format!("sign {p}")))
            .expect("signer");
        net.add(map_output(s, |_| Out::Signer), first);
    }
    let out = net.run();
    let Ok(Out::Coordinator(done)) = &out[&hub] else {
        panic!("no signature")
    };
    lens::verify(curve, &public.group_key_bytes(), msg, done.signature.as_bytes()).expect("verify");

    // Decoding a stored share: only the 32-byte signing share (after magic, version,
    // curve and party) is secret.
    let bytes = shares[&pid(2)].to_bytes();
    quasar_pq::ct::secret_slice(&bytes[9..41]);
    KeyShare::from_bytes(curve, &bytes).expect("decode");
}
