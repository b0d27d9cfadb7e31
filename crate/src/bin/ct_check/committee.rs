//! The Pulsar committee: the distributed key generation and a signing session among its
//! members (every party drawing from a [`SecretRng`]), and a member's share decoded from
//! secret bytes. The ellipsoid sampler's Box–Muller arithmetic is the documented exception
//! (its stream is declassified where it enters the floats); everything else a member computes
//! from its seeds — the subset secrets, t_I, the partial secret, c·s, the responses before
//! they are published — must be constant-flow.

use quasar_pq::mldsa::Mode;
use quasar_pq::party::sim::Network;
use quasar_pq::pulsar::committee::{Dkg, DkgParams, KeyShare, Keyed, SignParams, Signed, Signer};

use crate::lss::{ids, pid};
use crate::rng::SecretRng;
use crate::{path, Path};

pub(crate) fn paths() -> Vec<Path> {
    vec![
        path("committee/dkg+sign/ML-DSA-44", || dkg_and_sign(Mode::MlDsa44)),
        path("committee/share-decode/ML-DSA-44", share_decode),
    ]
}

fn keyed(mode: Mode) -> Vec<Keyed> {
    let members = ids(1..=3);
    let params = DkgParams::new([3; 32], mode, 2, &members).expect("params");
    let mut net: Network<Keyed> = Network::new();
    for &p in &members {
        let (d, o) =
            Dkg::start(p, &params, &mut SecretRng::new(&format!("committee dkg {p}"))).expect("member");
        net.add(d, o);
    }
    net.run().into_values().map(|o| o.expect("keygen")).collect()
}

fn dkg_and_sign(mode: Mode) {
    let keyed = keyed(mode);
    let signers = [pid(1), pid(3)];
    let params = SignParams::new([4; 32], &signers, b"committee block", b"").expect("params");
    let mut net: Network<Signed> = Network::new();
    for k in keyed.iter().filter(|k| signers.contains(&k.share.id())) {
        let rng = &mut SecretRng::new(&format!("committee sign {}", k.share.id().get()));
        let (s, o) = Signer::start(&k.share, &params, rng).expect("signer");
        net.add(s, o);
    }
    for out in net.run().into_values() {
        out.expect("signed");
    }
}

/// `PQCS`: header (6), the key's fields, the owner's position, the hedging key (32, secret),
/// the subset count, then per subset a mask and its 64-byte seed (secret).
fn share_decode() {
    let keyed = keyed(Mode::MlDsa44);
    let bytes = keyed[0].share.to_bytes();
    let key_len = 3 + 2 * 3 + Mode::MlDsa44.public_key_len();
    let hedge = 6 + key_len + 1;
    quasar_pq::ct::secret_slice(&bytes[hedge..hedge + 32]);
    let count = usize::from(bytes[hedge + 32]);
    for i in 0..count {
        let at = hedge + 33 + i * 65 + 1;
        quasar_pq::ct::secret_slice(&bytes[at..at + 64]);
    }
    KeyShare::from_bytes(&bytes).expect("decode");
}
