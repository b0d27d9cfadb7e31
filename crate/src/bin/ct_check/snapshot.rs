//! Encrypted share snapshots: seal an LSS key share under a secret snapshot key, open it
//! (key check, AEAD decryption) and decode the share from the secret payload.

use quasar_pq::keystore::{Metadata, OpenedSnapshot, Snapshot, SnapshotKey};
use quasar_pq::lss::{Ceremony, KeyShare};
use quasar_pq::vss::{Mode, Ristretto255};

use crate::lss::{deal, ids, pid};
use crate::rng::{secret_bytes, SecretRng};
use crate::{path, Path};

pub fn paths() -> Vec<Path> {
    vec![path("snapshot/seal+open+key-check", snapshot)]
}

fn snapshot() {
    let dkg = Ceremony::<Ristretto255>::dkg([8; 32], Mode::Pedersen, &ids(1..=2), 2).expect("dkg");
    let shares = deal(&dkg, &Default::default(), "snapshot dkg");
    let share = &shares[&pid(1)];
    let key = SnapshotKey::from_bytes(&secret_bytes::<32>("snapshot key"));
    let meta = Metadata::new("ct", b"group", share.generation(), 2, pid(1), 0).expect("metadata");
    let sealed = Snapshot::seal(&key, &meta, &share.to_bytes(), &mut SecretRng::new("nonce")).expect("seal");
    let stored = Snapshot::from_bytes(&sealed.to_bytes()).expect("decode");
    let opened = OpenedSnapshot::open(&stored, &key).expect("open");
    // All of the decrypted payload is tainted by the key stream; only its share pair
    // (after a 10-byte header, two 32-byte scalars) is secret content.
    let payload = opened.payload();
    quasar_pq::ct::declassify_slice(&payload[..10]);
    quasar_pq::ct::declassify_slice(&payload[74..]);
    let back = KeyShare::<Ristretto255>::from_bytes(payload).expect("share");
    assert_eq!(back.id(), pid(1));
    let other = SnapshotKey::from_bytes(&secret_bytes::<32>("another key"));
    assert!(OpenedSnapshot::open(&stored, &other).is_err());
}
