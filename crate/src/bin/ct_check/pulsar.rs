//! Pulsar custody through the lifecycle parties: the setup path (the Pedersen DKG, the key
//! ceremony — envelopes sealed to the combiner, opened, shares checked, the group secret
//! rebuilt, the ML-DSA key derived — and the key's certification), a sign path (envelopes,
//! rebuild, FIPS 204 sign), and a combiner key decoded from secret bytes.

use quasar_pq::mldsa::{self, Mode};
use quasar_pq::party::sim::{map_output, Network};
use quasar_pq::pulsar::custody::lifecycle::{Combiner, Member, Outcome, SetupParams, SignParams};
use quasar_pq::pulsar::custody::CombinerKey;

use crate::lss::{ids, pid};
use crate::rng::SecretRng;
use crate::{path, Path};

pub(crate) fn paths() -> Vec<Path> {
    vec![
        path("pulsar/combiner-key/ML-KEM-768", combiner_key_decode),
        path("envelope/direct-message/ML-KEM-768", direct_message),
        path("pulsar/ceremony+certify+sign/ML-DSA-44", || {
            custody(Mode::MlDsa44)
        }),
        path("pulsar/ceremony+certify+sign/ML-DSA-65", || {
            custody(Mode::MlDsa65)
        }),
    ]
}

const COMBINER: u16 = 1000;

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

/// A direct message (a secret share, as `quasar node` sends one) sealed to a process's
/// ML-KEM-768 key and opened with it: the plaintext and the decapsulation key are secret.
fn direct_message() {
    let key = combiner_key("direct message");
    let mut share = *b"LSD1 a dealer's secret share....";
    quasar_pq::ct::secret_slice(&share);
    let mut rng = SecretRng::new("direct message seal");
    let sealed =
        quasar_pq::pulsar::custody::envelope::seal_message(key.public_key(), b"binding", &share, &mut rng);
    let opened =
        quasar_pq::pulsar::custody::envelope::open_message(&key, b"binding", &sealed).expect("opens");
    assert_eq!(opened.len(), share.len());
    share.fill(0);
}

/// The lifecycle's setup path (DKG, key ceremony, certification) and one sign path, every
/// party drawing from its own [`SecretRng`] (the lifecycle derives each phase's generator
/// from a seed it draws, so every secret stays marked); this file only routes.
fn custody(mode: Mode) {
    let parties = ids(1..=3);
    let combiner = pid(COMBINER);
    let params = SetupParams::with_sessions([5; 32], [6; 32], mode, &parties, 2, &[pid(1), pid(2)], combiner)
        .expect("params");
    let mut net = Network::new();
    for &p in &parties {
        let (m, o) =
            Member::setup(p, &params, &mut SecretRng::new(&format!("pulsar dkg {p}"))).expect("member");
        net.add(map_output(m, Outcome::Member), o);
    }
    let (c, o) = Combiner::setup(&params, &mut SecretRng::new("ceremony combiner"));
    net.add(map_output(c, Outcome::Combiner), o);
    let mut shares = std::collections::BTreeMap::new();
    let mut certified = None;
    for (p, out) in net.run() {
        match out.expect("setup") {
            Outcome::Combiner(c) => certified = c.into_certified(),
            Outcome::Member(m) => {
                shares.insert(p, m.into_setup().expect("a setup").key_share);
            }
        }
    }
    let certified = certified.expect("the certified key");
    let group = certified.group_key;

    let msg = b"pulsar block 9";
    let signers = [pid(2), pid(3)];
    let params = SignParams::new([7; 32], &signers, msg, b"", combiner).expect("params");
    let mut net = Network::new();
    let (c, o) = Combiner::sign_with_key(
        combiner_key("sign"),
        &params,
        &group,
        &certified.public,
        &mut SecretRng::new("sign combiner"),
    )
    .expect("combiner");
    net.add(map_output(c, Outcome::Combiner), o);
    for p in signers {
        let (m, o) =
            Member::sign(&shares[&p], &params, &mut SecretRng::new(&format!("sign {p}"))).expect("signer");
        net.add(map_output(m, Outcome::Member), o);
    }
    let Some(Ok(Outcome::Combiner(c))) = net.run().remove(&combiner) else {
        panic!("the combiner did not finish")
    };
    let signed = c.into_signed().expect("a signature");
    mldsa::verify(mode, group.public_key(), msg, b"", signed.signature()).expect("verify");
}
