//! Corona: a trusted dealer's key generation and a signing session (every party drawing from a
//! [`SecretRng`]), and a party's key package decoded from secret bytes. Public by the scheme
//! and declassified where the library publishes it: b̃, each D_i and each z_i, and the verdict
//! of each uniform-sampling rejection; everything else a party computes from its share, its
//! pairwise keys and its round-1 seed — the Gaussian samples, Shamir evaluation, NTT(R'_i),
//! λ·c·s_i, the masks — must be constant-flow.

use quasar_pq::corona::{self, KeyShare, SignParams, Signed, Signer};
use quasar_pq::party::sim::Network;

use crate::lss::pid;
use crate::rng::SecretRng;
use crate::{path, Path};

pub(crate) fn paths() -> Vec<Path> {
    vec![
        path("corona/deal+sign", deal_and_sign),
        path("corona/package-decode", package_decode),
        path("corona/sealed-deal+open", sealed_deal_and_open),
    ]
}

fn dealt() -> (corona::GroupKey, Vec<KeyShare>) {
    corona::deal(2, 3, &mut SecretRng::new("corona dealer")).expect("deal")
}

fn deal_and_sign() {
    let (_, shares) = dealt();
    let signers = [pid(1), pid(3)];
    let params = SignParams::new([5; 32], &signers, b"corona block", b"").expect("params");
    let mut net: Network<Signed> = Network::new();
    for share in shares.iter().filter(|s| signers.contains(&s.id())) {
        let rng = &mut SecretRng::new(&format!("corona sign {}", share.id().get()));
        let (s, o) = Signer::start(share, &params, rng).expect("signer");
        net.add(s, o);
    }
    for out in net.run().into_values() {
        out.expect("signed");
    }
}

/// `CORK`: header (6), t, n, x (6), tr (64), the share (7 × enc49, secret), the count (2),
/// then per other party its id (2) and two 32-byte keys (secret).
fn package_decode() {
    let (key, shares) = dealt();
    let bytes = shares[0].to_bytes();
    let share_at = 6 + 6 + 64;
    let share_len = 7 * 1568;
    quasar_pq::ct::secret_slice(&bytes[share_at..share_at + share_len]);
    let pairs_at = share_at + share_len + 2;
    for i in 0..2 {
        let at = pairs_at + i * 66 + 2;
        quasar_pq::ct::secret_slice(&bytes[at..at + 64]);
    }
    KeyShare::from_bytes(&bytes, &key).expect("decode");
}

/// The dealer sealing every package to its party's ML-KEM-768 key, and a party opening its
/// own with its secret decapsulation key.
fn sealed_deal_and_open() {
    use quasar_pq::pulsar::custody::CombinerKey;
    let kems: Vec<CombinerKey> = (1..=3)
        .map(|i| CombinerKey::generate(pid(i), &mut SecretRng::new(&format!("corona kem {i}"))))
        .collect();
    let keys: Vec<_> = kems.iter().map(|k| k.public_key().clone()).collect();
    let (group, sealed) =
        corona::deal_sealed(2, &keys, &mut SecretRng::new("corona sealed dealer")).expect("deal");
    KeyShare::open_sealed(&sealed[1], &kems[1], &group).expect("open");
}
