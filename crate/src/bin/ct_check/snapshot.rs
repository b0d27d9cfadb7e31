//! Encrypted share snapshots: seal an LSS key share under a secret snapshot key, open it
//! (key check, AEAD decryption) and decode the share from the secret payload; and the
//! same share as a keyring entry (the `QKRE` framing written around the secret share,
//! sealed, opened, the framing read and the share decoded).

use quasar_pq::keystore::{
    open_entry, seal_current, Entry, Metadata, OpenedSnapshot, Snapshot, SnapshotKey, Storable,
};
use quasar_pq::lss::{Ceremony, KeyShare};
use quasar_pq::party::keyring::Custody;
use quasar_pq::vss::{Mode, Ristretto255};
use quasar_pq::PartyId;
use zeroize::Zeroizing;

use crate::lss::{deal, ids, pid};
use crate::rng::{secret_bytes, SecretRng};
use crate::{path, Path};

pub(crate) fn paths() -> Vec<Path> {
    vec![
        path("snapshot/seal+open+key-check", snapshot),
        path("keystore/keyring-entry/seal+open", keyring_entry),
    ]
}

/// An LSS share as a keyring holds it (the harness's stand-in scheme: the real schemes'
/// decoders are checked on their own paths).
struct Held(KeyShare<Ristretto255>);

impl Custody for Held {
    type Pending = Held;
    type Certificate = ();
    fn owner(&self) -> PartyId {
        self.0.id()
    }
    fn generation(&self) -> u64 {
        self.0.generation()
    }
    fn pending_generation(pending: &Held) -> u64 {
        pending.0.generation()
    }
    fn activate(pending: Held, _: &()) -> Result<Option<Held>, (Held, quasar_pq::Error)> {
        Ok(Some(pending))
    }
}

impl Storable for Held {
    fn share_to_bytes(&self) -> Zeroizing<Vec<u8>> {
        self.0.to_bytes()
    }
    fn share_from_bytes(bytes: &[u8]) -> Result<Held, quasar_pq::Error> {
        // As above: only the share pair is secret content.
        quasar_pq::ct::declassify_slice(&bytes[..10]);
        quasar_pq::ct::declassify_slice(&bytes[74..]);
        Ok(Held(KeyShare::from_bytes(bytes)?))
    }
    fn pending_to_bytes(pending: &Held) -> Zeroizing<Vec<u8>> {
        pending.0.to_bytes()
    }
    fn pending_from_bytes(bytes: &[u8]) -> Result<Held, quasar_pq::Error> {
        Held::share_from_bytes(bytes)
    }
}

fn keyring_entry() {
    let dkg = Ceremony::<Ristretto255>::dkg([9; 32], Mode::Pedersen, &ids(1..=2), 2).expect("dkg");
    let mut shares = deal(&dkg, &Default::default(), "keyring entry dkg");
    let held = Held(shares.remove(&pid(1)).expect("share"));
    let key = SnapshotKey::from_bytes(&secret_bytes::<32>("keystore key"));
    let meta = Metadata::new("ct", b"group", 0, 2, pid(1), 0).expect("metadata");
    let sealed = seal_current(&key, &meta, &held, &mut SecretRng::new("entry nonce")).expect("seal");
    let stored = Snapshot::from_bytes(&sealed.to_bytes()).expect("decode");
    match open_entry::<Held>(&stored, &key).expect("open") {
        Entry::Current(back) => assert_eq!(back.0.id(), pid(1)),
        Entry::Pending(_) => panic!("a current share was sealed"),
    }
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
