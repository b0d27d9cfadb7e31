//! Encrypted share snapshots: in-memory seal/open, strict decoding, tamper detection,
//! passphrase keys, and the file store (rollback, crash safety), and a keyring in the store:
//! saved, reloaded exactly, its old share erased only for the keyring's activation receipt.
#![cfg(all(feature = "std", feature = "threshold"))]
// Helpers outside `#[test]` functions unwrap too: a panic here is a failed test
// (clippy.toml's allow-unwrap-in-tests covers only the test functions themselves).
#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};

use quasar_pq::keystore::{
    Corruption, Error, Kdf, KdfParams, Metadata, Snapshot, SnapshotKey, SnapshotStore, STATE_FILE,
};
use quasar_pq::PartyId;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn rng(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

fn key(byte: u8) -> SnapshotKey {
    SnapshotKey::from_bytes(&[byte; 32])
}

/// Small Argon2id parameters so tests run fast (never use these for real).
fn small_kdf() -> KdfParams {
    KdfParams::new(64, 1, 1).unwrap()
}

fn metadata(generation: u64) -> Metadata {
    Metadata::new(
        "lens-ed25519",
        &[0xAB; 32],
        generation,
        2,
        PartyId::new(3).unwrap(),
        1_000 + generation,
    )
    .unwrap()
}

fn payload(generation: u64) -> Vec<u8> {
    format!("secret share of generation {generation}").into_bytes()
}

fn seal(key: &SnapshotKey, generation: u64) -> Snapshot {
    Snapshot::seal(
        key,
        &metadata(generation),
        &payload(generation),
        &mut rng(generation),
    )
    .unwrap()
}

fn gen_path(dir: &Path, generation: u64) -> PathBuf {
    dir.join(format!("gen-{generation:020}.qsnp"))
}

fn file_generations(dir: &Path) -> Vec<u64> {
    let mut gens: Vec<u64> = fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_prefix("gen-")?.strip_suffix(".qsnp")?.parse().ok()
        })
        .collect();
    gens.sort_unstable();
    gens
}

fn store_with(dir: &Path, key_byte: u8, generations: impl IntoIterator<Item = u64>) -> SnapshotStore {
    let mut store = SnapshotStore::open(dir, key(key_byte)).unwrap();
    for g in generations {
        let snap = store.seal(&metadata(g), &payload(g), &mut rng(g)).unwrap();
        store.save(g, &snap).unwrap();
    }
    store
}

// ---------------------------------------------------------------- in memory

#[test]
fn seal_open_round_trip() {
    let k = key(7);
    let snap = seal(&k, 5);
    assert_eq!(snap.metadata(), &metadata(5));
    assert_eq!(snap.kdf(), &Kdf::Raw);
    assert_eq!(snap.payload_len(), payload(5).len());
    assert_eq!(&snap.open(&k).unwrap()[..], &payload(5)[..]);

    let decoded = Snapshot::from_bytes(&snap.to_bytes()).unwrap();
    assert_eq!(decoded, snap);
    assert_eq!(decoded.to_bytes(), snap.to_bytes());
    assert_eq!(&decoded.open(&k).unwrap()[..], &payload(5)[..]);

    // Empty payloads are allowed; the plaintext never appears in the encoding.
    let empty = Snapshot::seal(&k, &metadata(1), &[], &mut rng(1)).unwrap();
    assert!(empty.open(&k).unwrap().is_empty());
    let bytes = snap.to_bytes();
    assert!(!bytes.windows(payload(5).len()).any(|w| w == &payload(5)[..]));

    // Fresh nonces: sealing twice differs.
    let again = Snapshot::seal(&k, &metadata(5), &payload(5), &mut rng(99)).unwrap();
    assert_ne!(again.to_bytes(), snap.to_bytes());
}

#[test]
fn wrong_key_is_a_clear_error() {
    let snap = seal(&key(7), 5);
    let err = snap.open(&key(8)).unwrap_err();
    assert_eq!(err, Error::WrongKey);
    assert_eq!(err.code(), "WRONG_KEY");
}

#[test]
fn every_byte_flip_is_detected_in_memory() {
    let k = key(7);
    let bytes = seal(&k, 5).to_bytes();
    for i in 0..bytes.len() {
        for bit in [0x01u8, 0x80] {
            let mut bad = bytes.clone();
            bad[i] ^= bit;
            let err = Snapshot::from_bytes(&bad).and_then(|s| s.open(&k)).unwrap_err();
            assert!(
                err.is_integrity_failure(),
                "byte {i} bit {bit:#x}: {err:?} is not an integrity failure"
            );
            assert!(
                matches!(err.code(), "SNAPSHOT_MALFORMED" | "SNAPSHOT_CORRUPT"),
                "byte {i}: {err:?}"
            );
        }
    }
}

#[test]
fn tampering_with_a_recomputed_digest_fails_authentication() {
    // An attacker who edits the header and recomputes the unkeyed digest is still
    // caught by the AEAD tag (the whole header is associated data).
    let k = key(7);
    let bytes = seal(&k, 5).to_bytes();
    let n = bytes.len();
    // The generation field: magic 4 + version 2 + kdf 1 + label 4+12 + group 4+32.
    let gen_at = 4 + 2 + 1 + 4 + 12 + 4 + 32;
    assert_eq!(&bytes[gen_at..gen_at + 8], &5u64.to_be_bytes());
    for (offset, name) in [
        (gen_at + 7, "generation"),
        (n - 32 - 16 - 1, "ciphertext"),
        (n - 33, "tag"),
    ] {
        let mut bad = bytes[..n - 32].to_vec();
        bad[offset] ^= 1;
        let mut t = quasar_pq::hash::Transcript::new("QUASAR-LSS-SNAPSHOT-DIGEST-v1");
        t.append(&bad);
        let d: [u8; 32] = t.finalize();
        bad.extend_from_slice(&d);
        let snap = Snapshot::from_bytes(&bad).expect(name);
        assert_eq!(
            snap.open(&k).unwrap_err(),
            Error::Corrupt(Corruption::Authentication),
            "{name}"
        );
    }
}

#[test]
fn truncation_and_extension_are_typed_errors() {
    let bytes = seal(&key(7), 5).to_bytes();
    for cut in 0..bytes.len() {
        let err = Snapshot::from_bytes(&bytes[..cut]).unwrap_err();
        assert!(
            matches!(err, Error::Malformed(_)) || err == Error::Corrupt(Corruption::Digest),
            "cut {cut}: {err:?}"
        );
    }
    let mut long = bytes.clone();
    long.push(0);
    assert_eq!(
        Snapshot::from_bytes(&long).unwrap_err(),
        Error::Malformed(quasar_pq::wire::Error::TrailingBytes { extra: 1 })
    );
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert!(matches!(
        Snapshot::from_bytes(&magic),
        Err(Error::Malformed(quasar_pq::wire::Error::BadMagic { .. }))
    ));
    let mut version = bytes.clone();
    version[5] = 2;
    assert_eq!(
        Snapshot::from_bytes(&version).unwrap_err(),
        Error::Malformed(quasar_pq::wire::Error::BadVersion(2))
    );
    let mut kdf = bytes;
    kdf[6] = 9;
    assert_eq!(
        Snapshot::from_bytes(&kdf).unwrap_err(),
        Error::Malformed(quasar_pq::wire::Error::UnknownMode(9))
    );
}

#[test]
fn metadata_is_validated() {
    let p = PartyId::new(1).unwrap();
    for (label, group, t) in [
        ("", &[1u8][..], 1),
        ("has space", &[1], 1),
        ("x", &[], 1),
        ("x", &[1], 0),
    ] {
        let err = Metadata::new(label, group, 0, t, p, 0).unwrap_err();
        assert_eq!(err.code(), "INVALID_METADATA");
    }
    assert!(Metadata::new(&"a".repeat(65), &[1], 0, 1, p, 0).is_err());
    assert!(Metadata::new("pulsar", &[1; 65], 0, 1, p, 0).is_err());
    let m = Metadata::new("pulsar", &[1; 64], 9, 5, p, 42).unwrap();
    assert_eq!(
        (
            m.label(),
            m.group_id().len(),
            m.generation(),
            m.threshold(),
            m.party(),
            m.created()
        ),
        ("pulsar", 64, 9, 5, p, 42)
    );
    assert_eq!(m.next(10, 43).generation(), 10);
}

#[test]
fn passphrase_round_trip() {
    let salt = SnapshotKey::generate_salt(&mut rng(1));
    let k = SnapshotKey::from_passphrase(b"correct horse battery staple", &salt, small_kdf()).unwrap();
    assert_eq!(
        k.kdf(),
        &Kdf::Argon2id {
            params: small_kdf(),
            salt
        }
    );
    let snap = Snapshot::seal(&k, &metadata(3), &payload(3), &mut rng(3)).unwrap();
    let snap = Snapshot::from_bytes(&snap.to_bytes()).unwrap();

    // Re-derived from the header alone.
    let opened = snap
        .open_with_passphrase(b"correct horse battery staple", &small_kdf())
        .unwrap();
    assert_eq!(&opened[..], &payload(3)[..]);
    assert_eq!(&snap.open(&k).unwrap()[..], &payload(3)[..]);
    assert_eq!(
        snap.open_with_passphrase(b"wrong horse", &small_kdf())
            .unwrap_err(),
        Error::WrongKey
    );
    // Costs above the caller's limits are refused before deriving anything.
    let tighter = KdfParams::new(32, 1, 1).unwrap();
    assert_eq!(
        snap.open_with_passphrase(b"correct horse battery staple", &tighter)
            .unwrap_err()
            .code(),
        "KDF_TOO_COSTLY"
    );
    // A raw-key snapshot has no salt to re-derive with.
    assert_eq!(
        seal(&key(1), 1)
            .open_with_passphrase(b"x", &small_kdf())
            .unwrap_err(),
        Error::NotPassphraseSealed
    );
    // Debug never shows key bytes.
    assert!(format!("{k:?}").contains("<redacted>"));
}

#[test]
fn kdf_params_are_validated() {
    assert_eq!(KdfParams::default(), KdfParams::DEFAULT);
    assert_eq!(
        (
            KdfParams::DEFAULT.memory_kib(),
            KdfParams::DEFAULT.passes(),
            KdfParams::DEFAULT.lanes()
        ),
        (65536, 3, 1)
    );
    for (m, t, p) in [
        (64, 0, 1),
        (64, 1, 0),
        (7, 1, 1),
        (15, 1, 2),
        (u32::MAX, 1, 1),
        (64, 65, 1),
    ] {
        assert_eq!(KdfParams::new(m, t, p).unwrap_err().code(), "INVALID_KDF_PARAMS");
    }
}

#[test]
fn secrets_are_redacted_in_debug() {
    let k = key(0x5A);
    let debug = format!("{k:?}");
    assert!(!debug.contains("90") && debug.contains("<redacted>"), "{debug}");
    let dir = tempfile::tempdir().unwrap();
    let store = store_with(dir.path(), 1, [1]);
    let opened = store.latest().unwrap();
    let debug = format!("{opened:?}");
    assert!(
        debug.contains("<redacted>") && !debug.contains("secret share"),
        "{debug}"
    );
}

// ---------------------------------------------------------------- file store

#[test]
fn every_generation_is_kept_until_one_is_activated() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with(dir.path(), 1, 1..=10);
    // No window: nothing is pruned by saving.
    assert_eq!(store.generations().unwrap(), (1..=10).collect::<Vec<_>>());
    assert_eq!(file_generations(dir.path()), (1..=10).collect::<Vec<_>>());
    assert_eq!(store.current(), Some(10));
    assert_eq!(store.activated(), None);
    for g in 1..=10 {
        let opened = store.load(g).unwrap();
        assert_eq!(opened.payload(), &payload(g)[..]);
        assert_eq!(opened.metadata(), &metadata(g));
    }
    assert_eq!(store.load(11).unwrap_err(), Error::UnknownGeneration(11));
    // Only our files are in the directory.
    let mut names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names.len(), 11);
    assert_eq!(names[10], STATE_FILE);
}

#[test]
fn generations_must_increase() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = store_with(dir.path(), 1, [1, 2, 5]);
    for g in [0, 2, 5] {
        let snap = seal(&key(1), g);
        assert_eq!(
            store.save(g, &snap).unwrap_err(),
            Error::StaleGeneration {
                generation: g,
                high_water: 5
            }
        );
    }
    let snap = seal(&key(1), 7);
    assert_eq!(
        store.save(6, &snap).unwrap_err(),
        Error::GenerationMismatch {
            expected: 6,
            found: 7
        }
    );
    // A snapshot sealed under another key is refused before anything is written.
    assert_eq!(store.save(7, &seal(&key(2), 7)).unwrap_err(), Error::WrongKey);
    assert_eq!(store.generations().unwrap(), vec![1, 2, 5]);
    store.save(7, &snap).unwrap();
    assert_eq!(store.current(), Some(7));
}

#[test]
fn rollback_then_load_and_continue() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = store_with(dir.path(), 1, 1..=10);
    assert_eq!(
        store.rollback(10).unwrap_err(),
        Error::RollbackNotEarlier { to: 10, current: 10 }
    );
    assert_eq!(store.rollback(0).unwrap_err(), Error::UnknownGeneration(0));

    store.rollback(7).unwrap();
    assert_eq!(store.current(), Some(7));
    assert_eq!(store.high_water(), Some(10));
    assert_eq!(store.latest().unwrap().payload(), &payload(7)[..]);
    assert_eq!(store.load(7).unwrap().metadata().generation(), 7);
    // Nothing was deleted; the newer generations stay readable.
    assert_eq!(store.generations().unwrap(), (1..=10).collect::<Vec<_>>());
    assert_eq!(store.load(9).unwrap().payload(), &payload(9)[..]);
    // Only earlier generations.
    assert_eq!(
        store.rollback(8).unwrap_err(),
        Error::RollbackNotEarlier { to: 8, current: 7 }
    );

    store.rollback(4).unwrap();
    let history: Vec<(u64, u64)> = store.history().iter().map(|r| (r.from, r.to)).collect();
    assert_eq!(history, vec![(10, 7), (7, 4)]);

    // The state survives reopening.
    drop(store);
    let mut store = SnapshotStore::open(dir.path(), key(1)).unwrap();
    assert_eq!(store.current(), Some(4));
    assert_eq!(store.high_water(), Some(10));
    assert_eq!(store.history().len(), 2);
    assert_eq!(store.latest().unwrap().payload(), &payload(4)[..]);

    // Generation numbers are never reused: the next save is above the high-water mark.
    let snap8 = seal(&key(1), 8);
    assert!(matches!(
        store.save(8, &snap8),
        Err(Error::StaleGeneration { high_water: 10, .. })
    ));
    let snap11 = seal(&key(1), 11);
    store.save(11, &snap11).unwrap();
    assert_eq!(store.current(), Some(11));
    assert_eq!(store.generations().unwrap(), (1..=11).collect::<Vec<_>>());
    assert_eq!(store.history().len(), 2);
}

#[test]
fn a_flipped_byte_in_a_file_is_detected_and_others_still_load() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with(dir.path(), 1, 1..=3);
    let path = gen_path(dir.path(), 2);
    let original = fs::read(&path).unwrap();
    for i in 0..original.len() {
        let mut bad = original.clone();
        bad[i] ^= 1 << (i % 8);
        fs::write(&path, &bad).unwrap();
        let err = store.load(2).unwrap_err();
        assert_eq!(err.generation(), Some(2), "byte {i}: {err:?}");
        assert!(err.is_integrity_failure(), "byte {i}: {err:?}");
        assert!(err.to_string().starts_with("generation 2: "), "{err}");
    }
    // The others are unaffected, and so is reopening the store.
    for g in [1, 3] {
        assert_eq!(store.load(g).unwrap().payload(), &payload(g)[..]);
    }
    let reopened = SnapshotStore::open(dir.path(), key(1)).unwrap();
    assert_eq!(reopened.current(), Some(3));
    assert_eq!(reopened.load(2).unwrap_err().code(), "SNAPSHOT_CORRUPT");
    fs::write(&path, &original).unwrap();
    assert_eq!(store.load(2).unwrap().payload(), &payload(2)[..]);
}

#[test]
fn truncated_extended_and_misplaced_files() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with(dir.path(), 1, 1..=3);
    let path = gen_path(dir.path(), 2);
    let original = fs::read(&path).unwrap();
    for cut in [
        0,
        1,
        5,
        6,
        40,
        original.len() / 2,
        original.len() - 33,
        original.len() - 1,
    ] {
        fs::write(&path, &original[..cut]).unwrap();
        let err = store.load(2).unwrap_err();
        assert_eq!(err.generation(), Some(2));
        assert!(err.is_integrity_failure(), "cut {cut}: {err:?}");
    }
    let mut long = original.clone();
    long.extend_from_slice(b"xyz");
    fs::write(&path, &long).unwrap();
    assert_eq!(
        store.load(2).unwrap_err().root(),
        &Error::Malformed(quasar_pq::wire::Error::TrailingBytes { extra: 3 })
    );
    // A valid snapshot of another generation under this name.
    fs::copy(gen_path(dir.path(), 3), &path).unwrap();
    assert_eq!(
        store.load(2).unwrap_err(),
        Error::InGeneration {
            generation: 2,
            error: Box::new(Error::Corrupt(Corruption::Misplaced { found: 3 }))
        }
    );
    fs::write(&path, &original).unwrap();
    assert!(store.load(2).is_ok());
}

#[test]
fn wrong_key_store() {
    let dir = tempfile::tempdir().unwrap();
    drop(store_with(dir.path(), 1, 1..=3));
    // The state file tells right away.
    assert_eq!(
        SnapshotStore::open(dir.path(), key(2)).unwrap_err(),
        Error::WrongKey
    );
    // Without a state file, the snapshots do.
    fs::remove_file(dir.path().join(STATE_FILE)).unwrap();
    assert_eq!(
        SnapshotStore::open(dir.path(), key(2)).unwrap_err(),
        Error::WrongKey
    );
    // Per file, with the generation named.
    let store = SnapshotStore::open(dir.path(), key(1)).unwrap();
    assert_eq!(store.current(), Some(3));
    let foreign = tempfile::tempdir().unwrap();
    drop(store_with(foreign.path(), 2, [2]));
    fs::copy(gen_path(foreign.path(), 2), gen_path(dir.path(), 2)).unwrap();
    let err = store.load(2).unwrap_err();
    assert_eq!(
        (err.code(), err.generation(), err.root()),
        ("WRONG_KEY", Some(2), &Error::WrongKey)
    );
}

#[test]
fn state_file_tampering_is_detected() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = store_with(dir.path(), 1, 1..=4);
    store.rollback(2).unwrap();
    let path = dir.path().join(STATE_FILE);
    let original = fs::read(&path).unwrap();
    for i in 0..original.len() {
        let mut bad = original.clone();
        bad[i] ^= 0x10;
        fs::write(&path, &bad).unwrap();
        let err = SnapshotStore::open(dir.path(), key(1)).unwrap_err();
        assert!(err.is_integrity_failure(), "byte {i}: {err:?}");
    }
    for cut in 0..original.len() {
        fs::write(&path, &original[..cut]).unwrap();
        let err = SnapshotStore::open(dir.path(), key(1)).unwrap_err();
        assert_eq!(err.code(), "STATE_MALFORMED", "cut {cut}");
    }
    fs::write(&path, &original).unwrap();
    assert_eq!(
        SnapshotStore::open(dir.path(), key(1)).unwrap().current(),
        Some(2)
    );
    // Deleting it rebuilds the current generation from the snapshots (history is lost).
    fs::remove_file(&path).unwrap();
    let store = SnapshotStore::open(dir.path(), key(1)).unwrap();
    assert_eq!((store.current(), store.high_water()), (Some(4), Some(4)));
    assert!(store.history().is_empty());
}

#[test]
fn crash_between_write_and_rename_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    drop(store_with(dir.path(), 1, 1..=3));
    let state_before = fs::read(dir.path().join(STATE_FILE)).unwrap();
    // The crash: generation 4's temp file was partly written, never renamed; and a
    // state temp file too.
    let full = seal(&key(1), 4).to_bytes();
    let tmp = dir.path().join(format!("gen-{:020}.qsnp.tmp", 4));
    fs::write(&tmp, &full[..full.len() / 2]).unwrap();
    let state_tmp = dir.path().join(format!("{STATE_FILE}.tmp"));
    fs::write(&state_tmp, b"QSST garbage").unwrap();
    // An unrelated file is left alone.
    fs::write(dir.path().join("notes.txt"), b"keep me").unwrap();

    let mut store = SnapshotStore::open(dir.path(), key(1)).unwrap();
    assert!(!tmp.exists() && !state_tmp.exists());
    assert!(dir.path().join("notes.txt").exists());
    assert_eq!(store.generations().unwrap(), vec![1, 2, 3]);
    assert_eq!(store.current(), Some(3));
    for g in 1..=3 {
        assert_eq!(store.load(g).unwrap().payload(), &payload(g)[..]);
    }
    assert_eq!(fs::read(dir.path().join(STATE_FILE)).unwrap(), state_before);
    // The interrupted save can simply be redone.
    store.save(4, &seal(&key(1), 4)).unwrap();
    assert_eq!(store.latest().unwrap().payload(), &payload(4)[..]);
}

#[test]
fn crash_after_rename_before_state_update_is_consistent() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = store_with(dir.path(), 1, 1..=3);
    store.rollback(2).unwrap();
    drop(store);
    // The crash: generation 4 was renamed into place; the state still says current 2,
    // high-water 3.
    fs::write(gen_path(dir.path(), 4), seal(&key(1), 4).to_bytes()).unwrap();

    let mut store = SnapshotStore::open(dir.path(), key(1)).unwrap();
    assert_eq!(store.current(), Some(4));
    assert_eq!(store.high_water(), Some(4));
    assert_eq!(store.history().len(), 1);
    assert_eq!(store.latest().unwrap().payload(), &payload(4)[..]);
    assert!(matches!(
        store.save(4, &seal(&key(1), 4)),
        Err(Error::StaleGeneration { .. })
    ));
    store.save(5, &seal(&key(1), 5)).unwrap();
    drop(store);
    let store = SnapshotStore::open(dir.path(), key(1)).unwrap();
    assert_eq!((store.current(), store.high_water()), (Some(5), Some(5)));
    assert_eq!(store.generations().unwrap(), vec![1, 2, 3, 4, 5]);

    // A damaged file above the high-water mark is not adopted, but its number is
    // never reused.
    let bytes = seal(&key(1), 6).to_bytes();
    fs::write(gen_path(dir.path(), 6), &bytes[..bytes.len() - 1]).unwrap();
    let mut store = SnapshotStore::open(dir.path(), key(1)).unwrap();
    assert_eq!((store.current(), store.high_water()), (Some(5), Some(6)));
    assert!(store.load(6).unwrap_err().is_integrity_failure());
    assert!(matches!(
        store.save(6, &seal(&key(1), 6)),
        Err(Error::StaleGeneration { .. })
    ));
    store.save(7, &seal(&key(1), 7)).unwrap();
}

#[test]
fn store_with_a_passphrase() {
    let dir = tempfile::tempdir().unwrap();
    let pass = b"a long and memorable passphrase";
    let mut store = SnapshotStore::open_with_passphrase(dir.path(), pass, small_kdf(), &mut rng(1)).unwrap();
    assert!(matches!(store.kdf(), Kdf::Argon2id { .. }));
    for g in 1..=2 {
        let snap = store.seal(&metadata(g), &payload(g), &mut rng(g)).unwrap();
        store.save(g, &snap).unwrap();
    }
    let salt = *store.kdf();
    drop(store);

    // The salt and parameters come back from the store; the RNG is not consulted.
    let store = SnapshotStore::open_with_passphrase(dir.path(), pass, small_kdf(), &mut rng(2)).unwrap();
    assert_eq!(store.kdf(), &salt);
    assert_eq!(store.latest().unwrap().payload(), &payload(2)[..]);
    // Each file opens from its own header too.
    let sealed = store.load_sealed(1).unwrap();
    assert_eq!(
        &sealed.open_with_passphrase(pass, &small_kdf()).unwrap()[..],
        &payload(1)[..]
    );

    assert_eq!(
        SnapshotStore::open_with_passphrase(dir.path(), b"wrong", small_kdf(), &mut rng(3)).unwrap_err(),
        Error::WrongKey
    );
    let tight = KdfParams::new(32, 1, 1).unwrap();
    assert_eq!(
        SnapshotStore::open_with_passphrase(dir.path(), pass, tight, &mut rng(3))
            .unwrap_err()
            .code(),
        "KDF_TOO_COSTLY"
    );
    // Without the state file the salt is found in the snapshot headers.
    fs::remove_file(dir.path().join(STATE_FILE)).unwrap();
    let store = SnapshotStore::open_with_passphrase(dir.path(), pass, small_kdf(), &mut rng(4)).unwrap();
    assert_eq!(store.current(), Some(2));
    // A raw-key store has no salt.
    let raw = tempfile::tempdir().unwrap();
    drop(store_with(raw.path(), 1, [1]));
    assert_eq!(
        SnapshotStore::open_with_passphrase(raw.path(), pass, small_kdf(), &mut rng(5)).unwrap_err(),
        Error::NotPassphraseSealed
    );
}

#[test]
fn empty_store() {
    let dir = tempfile::tempdir().unwrap();
    let nested = dir.path().join("a/b");
    let mut store = SnapshotStore::open(&nested, key(1)).unwrap();
    assert_eq!(store.current(), None);
    assert_eq!(store.generations().unwrap(), Vec::<u64>::new());
    assert_eq!(store.latest().unwrap_err(), Error::EmptyStore);
    assert_eq!(store.rollback(0).unwrap_err(), Error::EmptyStore);
    assert_eq!(store.load(0).unwrap_err().code(), "UNKNOWN_GENERATION");
    // Generation 0 is a valid first generation.
    store.save(0, &seal(&key(1), 0)).unwrap();
    assert_eq!(store.current(), Some(0));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(gen_path(&nested, 0)).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        let mode = fs::metadata(&nested).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
    }
}

#[test]
fn io_errors_name_the_path_not_the_payload() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-dir");
    fs::write(&file, b"x").unwrap();
    let err = SnapshotStore::open(file.join("store"), key(1)).unwrap_err();
    assert_eq!(err.code(), "SNAPSHOT_IO");
    match err {
        Error::Io { path, kind, .. } => {
            assert!(path.contains("not-a-dir"));
            assert!(!kind.is_empty());
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn snapshot_kat_decodes_and_reencodes() {
    // A committed snapshot (kats/snapshot-v1.hex): key = 32 × 0x42, generation 7,
    // sealed with ChaCha20Rng seed 2024. It must decode, re-encode byte for byte, and
    // open to the recorded payload.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("kats/snapshot-v1.hex");
    let k = SnapshotKey::from_bytes(&[0x42; 32]);
    let meta = Metadata::new(
        "lens-ed25519",
        &[0x11; 32],
        7,
        14,
        PartyId::new(5).unwrap(),
        1_700_000_000,
    )
    .unwrap();
    let fresh = Snapshot::seal(&k, &meta, b"kat share bytes", &mut rng(2024)).unwrap();
    if std::env::var_os("REGENERATE_KATS").is_some() {
        fs::write(&path, hex::encode(fresh.as_bytes()) + "\n").unwrap();
    }
    let text = fs::read_to_string(&path).expect("kats/snapshot-v1.hex (REGENERATE_KATS=1 writes it)");
    let bytes = hex::decode(text.trim()).unwrap();
    let snap = Snapshot::from_bytes(&bytes).unwrap();
    assert_eq!(snap.as_bytes(), &bytes[..]);
    assert_eq!(snap, fresh, "the format changed");
    assert_eq!(snap.metadata(), &meta);
    assert_eq!(&snap.open(&k).unwrap()[..], b"kat share bytes");
}

// ---------------------------------------------------------------- a keyring in the store

/// A stand-in scheme: a 32-byte "share" per generation, and a "certificate" that
/// activates a pending generation when it names that generation (the store's logic is
/// what is tested here; the real schemes' keyrings run in `tests/suite/lifecycle.rs`).
mod toy {
    use quasar_pq::keystore::Storable;
    use quasar_pq::party::keyring::Custody;
    use quasar_pq::{wire, PartyId};
    use zeroize::Zeroizing;

    #[derive(Debug, PartialEq, Eq)]
    pub(crate) struct Share {
        pub(crate) generation: u64,
        pub(crate) secret: [u8; 32],
    }

    /// The new generation, and the member's new share if it stays in the group.
    #[derive(Debug, PartialEq, Eq)]
    pub(crate) struct Pending {
        pub(crate) generation: u64,
        pub(crate) share: Option<[u8; 32]>,
    }

    pub(crate) fn secret(generation: u64, attempt: u8) -> [u8; 32] {
        let mut s = [0x5A ^ attempt; 32];
        s[..8].copy_from_slice(&generation.to_be_bytes());
        s
    }

    impl Custody for Share {
        type Pending = Pending;
        type Certificate = u64;
        fn owner(&self) -> PartyId {
            PartyId::new(3).unwrap()
        }
        fn generation(&self) -> u64 {
            self.generation
        }
        fn pending_generation(pending: &Pending) -> u64 {
            pending.generation
        }
        fn activate(
            pending: Pending,
            certificate: &u64,
        ) -> Result<Option<Share>, (Pending, quasar_pq::Error)> {
            if *certificate != pending.generation {
                return Err((pending, wire::Error::InvalidValue("toy certificate").into()));
            }
            Ok(pending.share.map(|secret| Share {
                generation: pending.generation,
                secret,
            }))
        }
    }

    fn read(bytes: &[u8], kind: u8) -> Result<(u64, Option<[u8; 32]>), quasar_pq::Error> {
        let mut r = wire::Reader::new(bytes);
        if r.u8()? != kind {
            return Err(wire::Error::InvalidValue("toy kind").into());
        }
        let generation = r.u64()?;
        let share = match r.u8()? {
            0 => None,
            _ => Some(r.array()?),
        };
        r.finish()?;
        Ok((generation, share))
    }

    impl Storable for Share {
        fn share_to_bytes(&self) -> Zeroizing<Vec<u8>> {
            let mut w = wire::Writer::new();
            w.u8(1).u64(self.generation).u8(1).put(&self.secret);
            w.into_secret()
        }
        fn share_from_bytes(bytes: &[u8]) -> Result<Self, quasar_pq::Error> {
            match read(bytes, 1)? {
                (generation, Some(secret)) => Ok(Share { generation, secret }),
                _ => Err(wire::Error::InvalidValue("toy share").into()),
            }
        }
        fn pending_to_bytes(pending: &Pending) -> Zeroizing<Vec<u8>> {
            let mut w = wire::Writer::new();
            w.u8(2).u64(pending.generation);
            match &pending.share {
                Some(s) => w.u8(1).put(s),
                None => w.u8(0),
            };
            w.into_secret()
        }
        fn pending_from_bytes(bytes: &[u8]) -> Result<Pending, quasar_pq::Error> {
            let (generation, share) = read(bytes, 2)?;
            Ok(Pending { generation, share })
        }
    }
}

type Ring = quasar_pq::party::keyring::Keyring<toy::Share>;

fn share(generation: u64) -> toy::Share {
    toy::Share {
        generation,
        secret: toy::secret(generation, 0),
    }
}

fn pending(generation: u64, attempt: u8) -> toy::Pending {
    toy::Pending {
        generation,
        share: Some(toy::secret(generation, attempt)),
    }
}

/// What a keyring holds, compared across a restart.
fn view(k: &Ring) -> (Option<&toy::Share>, Option<&toy::Pending>) {
    (k.current(), k.pending())
}

fn reopen(dir: &Path) -> SnapshotStore {
    SnapshotStore::open(dir, key(1)).unwrap()
}

/// Whether any 32-byte run of `file` (past its header) is still in the directory.
fn any_chunk_on_disk(dir: &Path, file: &[u8]) -> bool {
    fs::read_dir(dir).unwrap().any(|e| {
        let bytes = fs::read(e.unwrap().path()).unwrap();
        file.chunks(32)
            .filter(|c| c.len() == 32)
            .skip(4)
            .any(|c| bytes.windows(32).any(|w| w == c))
    })
}

/// A member restarted from storage resumes with exactly its keyring, at every step of a
/// reshare; a refused activation changes nothing on disk; the keyring's receipt erases
/// the old share, not a byte of whose file is left.
#[test]
fn a_keyring_survives_restarts_and_its_old_share_goes_only_with_the_receipt() {
    let dir = tempfile::tempdir().unwrap();
    let meta = metadata(0);
    let mut r = rng(7);
    let mut store = reopen(dir.path());
    let mut keyring = Ring::new(share(0));
    store.save_keyring(&keyring, &meta, &mut r).unwrap();
    assert_eq!(file_generations(dir.path()), vec![0]);
    let loaded = reopen(dir.path()).load_keyring::<toy::Share>().unwrap();
    assert_eq!(view(&loaded), view(&keyring));
    // Saving again writes nothing new.
    store.save_keyring(&keyring, &meta, &mut r).unwrap();
    assert_eq!(file_generations(dir.path()), vec![0]);

    // A reshare deals generation 1: both stored, the old share still the working one.
    keyring.stage(pending(1, 0)).unwrap();
    store.save_keyring(&keyring, &meta, &mut r).unwrap();
    assert_eq!(file_generations(dir.path()), vec![0, 1]);
    let old_file = fs::read(gen_path(dir.path(), 0)).unwrap();
    drop(store);
    let mut store = reopen(dir.path());
    let mut keyring = store.load_keyring::<toy::Share>().unwrap();
    assert_eq!(view(&keyring), (Some(&share(0)), Some(&pending(1, 0))));

    // A refused activation: nothing changes, in the keyring or on disk.
    assert!(keyring.activate(&7).is_err());
    assert_eq!(view(&keyring), (Some(&share(0)), Some(&pending(1, 0))));
    assert_eq!(file_generations(dir.path()), vec![0, 1]);
    let reloaded = reopen(dir.path()).load_keyring::<toy::Share>().unwrap();
    assert_eq!(view(&reloaded), view(&keyring), "the old share is still loadable");

    // A keyring that activated is saved only with its receipt.
    let receipt = keyring.activate(&1).unwrap();
    assert_eq!(
        store.save_keyring(&keyring, &meta, &mut r).unwrap_err().code(),
        "ACTIVATION_NOT_RECORDED"
    );
    assert_eq!(file_generations(dir.path()), vec![0, 1]);
    store.activate(&keyring, &receipt, &meta, &mut r).unwrap();
    assert_eq!(file_generations(dir.path()), vec![1]);
    assert_eq!(store.activated(), Some(1));
    assert!(
        !any_chunk_on_disk(dir.path(), &old_file),
        "the old share's file is erased"
    );
    // Recording it again is a no-op; the keyring resumes as generation 1 alone.
    store.activate(&keyring, &receipt, &meta, &mut r).unwrap();
    let loaded = reopen(dir.path()).load_keyring::<toy::Share>().unwrap();
    assert_eq!(view(&loaded), (Some(&share_of(1, 0)), None));
    // No rollback below the activation.
    assert_eq!(
        store.rollback(0).unwrap_err(),
        Error::RollbackBeforeActivation { to: 0, activated: 1 }
    );
}

fn share_of(generation: u64, attempt: u8) -> toy::Share {
    toy::Share {
        generation,
        secret: toy::secret(generation, attempt),
    }
}

/// Receipts that do not describe the keyring, stale receipts and stale pending
/// generations are refused with typed errors, and change nothing.
#[test]
fn the_store_accepts_only_what_the_keyring_decided() {
    let dir = tempfile::tempdir().unwrap();
    let meta = metadata(0);
    let mut r = rng(8);
    let mut store = reopen(dir.path());
    let mut keyring = Ring::new(share(0));
    store.save_keyring(&keyring, &meta, &mut r).unwrap();
    keyring.stage(pending(1, 0)).unwrap();
    store.save_keyring(&keyring, &meta, &mut r).unwrap();

    // A receipt from another keyring (activated generation 1) against this one (still 0).
    let mut other = Ring::new(share(0));
    other.stage(pending(1, 0)).unwrap();
    let foreign = other.activate(&1).unwrap();
    let e = store.activate(&keyring, &foreign, &meta, &mut r).unwrap_err();
    assert_eq!(e.code(), "RECEIPT_MISMATCH");
    assert_eq!(file_generations(dir.path()), vec![0, 1]);

    // The real one; then generation 2 dealt and activated; the receipt of 1 is stale.
    let receipt1 = keyring.activate(&1).unwrap();
    store.activate(&keyring, &receipt1, &meta, &mut r).unwrap();
    keyring.stage(pending(2, 0)).unwrap();
    store.save_keyring(&keyring, &meta, &mut r).unwrap();
    let receipt2 = keyring.activate(&2).unwrap();
    store.activate(&keyring, &receipt2, &meta, &mut r).unwrap();
    assert_eq!(file_generations(dir.path()), vec![2]);
    let e = store.activate(&other, &receipt1, &meta, &mut r).unwrap_err();
    assert_eq!(e.code(), "STALE_ACTIVATION");
    // An old keyring is not saved over a newer one.
    let e = store.save_keyring(&other, &meta, &mut r).unwrap_err();
    assert_eq!(e.code(), "STALE_ACTIVATION");
    assert_eq!(file_generations(dir.path()), vec![2]);
}

/// A pending generation replaced by a retry of the same reshare, or dropped, is mirrored:
/// the store resumes with the keyring's own pending generation; the current share's file
/// is never touched.
#[test]
fn a_replaced_or_discarded_pending_generation_is_mirrored() {
    let dir = tempfile::tempdir().unwrap();
    let meta = metadata(0);
    let mut r = rng(9);
    let mut store = reopen(dir.path());
    let mut keyring = Ring::new(share(0));
    store.save_keyring(&keyring, &meta, &mut r).unwrap();
    let current_file = fs::read(gen_path(dir.path(), 0)).unwrap();
    keyring.stage(pending(1, 0)).unwrap();
    store.save_keyring(&keyring, &meta, &mut r).unwrap();
    // The reshare failed; a retry deals generation 1 again, differently.
    keyring.stage(pending(1, 1)).unwrap();
    store.save_keyring(&keyring, &meta, &mut r).unwrap();
    let loaded = reopen(dir.path()).load_keyring::<toy::Share>().unwrap();
    assert_eq!(view(&loaded), (Some(&share(0)), Some(&pending(1, 1))));
    // A later attempt at generation 3, then dropped.
    keyring.stage(pending(3, 0)).unwrap();
    store.save_keyring(&keyring, &meta, &mut r).unwrap();
    assert_eq!(file_generations(dir.path()), vec![0, 3]);
    keyring.discard_pending();
    store.save_keyring(&keyring, &meta, &mut r).unwrap();
    assert_eq!(file_generations(dir.path()), vec![0]);
    let loaded = reopen(dir.path()).load_keyring::<toy::Share>().unwrap();
    assert_eq!(view(&loaded), (Some(&share(0)), None));
    assert_eq!(fs::read(gen_path(dir.path(), 0)).unwrap(), current_file);
    // A rollback to the current share is still possible (a save never erases it).
    let mut again = Ring::new(share(0));
    again.stage(pending(2, 0)).unwrap();
    store.save_keyring(&again, &meta, &mut r).unwrap();
    store.rollback(0).unwrap();
    assert_eq!(store.current(), Some(0));
}

/// A member joining at a reshare (no current share) and one leaving (no share of the new
/// generation) resume exactly too; the leaver keeps nothing once the receipt is recorded.
#[test]
fn joining_and_leaving_members_resume_exactly() {
    let meta = metadata(0);
    let mut r = rng(10);
    // Joining.
    let dir = tempfile::tempdir().unwrap();
    let mut store = reopen(dir.path());
    let mut joiner = Ring::empty();
    joiner.stage(pending(5, 0)).unwrap();
    store.save_keyring(&joiner, &meta, &mut r).unwrap();
    let mut loaded = reopen(dir.path()).load_keyring::<toy::Share>().unwrap();
    assert_eq!(view(&loaded), (None, Some(&pending(5, 0))));
    let receipt = loaded.activate(&5).unwrap();
    store.activate(&loaded, &receipt, &meta, &mut r).unwrap();
    let again = reopen(dir.path()).load_keyring::<toy::Share>().unwrap();
    assert_eq!(view(&again), (Some(&share(5)), None));

    // Leaving.
    let dir = tempfile::tempdir().unwrap();
    let mut store = reopen(dir.path());
    let mut leaver = Ring::new(share(0));
    store.save_keyring(&leaver, &meta, &mut r).unwrap();
    leaver
        .stage(toy::Pending {
            generation: 1,
            share: None,
        })
        .unwrap();
    store.save_keyring(&leaver, &meta, &mut r).unwrap();
    let receipt = leaver.activate(&1).unwrap();
    assert!(!receipt.member());
    store.activate(&leaver, &receipt, &meta, &mut r).unwrap();
    assert_eq!(file_generations(dir.path()), Vec::<u64>::new());
    let mut store = reopen(dir.path());
    let gone = store.load_keyring::<toy::Share>().unwrap();
    assert_eq!(view(&gone), (None, None));
    store.save_keyring(&gone, &meta, &mut r).unwrap();
    // A pending generation not above the activated one is refused, and nothing written.
    let mut stale = Ring::empty();
    stale.stage(pending(1, 3)).unwrap();
    let e = store.save_keyring(&stale, &meta, &mut r).unwrap_err();
    assert_eq!(e.code(), "STALE_GENERATION");
    assert_eq!(file_generations(dir.path()), Vec::<u64>::new());
}

/// A crash after `activate` wrote the new share but before the state file recorded it:
/// the next load finishes the activation (the old share erased).
#[test]
fn an_interrupted_activation_is_finished_on_load() {
    let dir = tempfile::tempdir().unwrap();
    let meta = metadata(0);
    let mut r = rng(11);
    let mut store = reopen(dir.path());
    let mut keyring = Ring::new(share(0));
    store.save_keyring(&keyring, &meta, &mut r).unwrap();
    keyring.stage(pending(1, 0)).unwrap();
    store.save_keyring(&keyring, &meta, &mut r).unwrap();
    let state = fs::read(dir.path().join(STATE_FILE)).unwrap();
    let old = fs::read(gen_path(dir.path(), 0)).unwrap();
    let receipt = keyring.activate(&1).unwrap();
    store.activate(&keyring, &receipt, &meta, &mut r).unwrap();
    drop(store);
    // Put back what the crash would have left: the old state file and the old share.
    fs::write(dir.path().join(STATE_FILE), &state).unwrap();
    fs::write(gen_path(dir.path(), 0), &old).unwrap();
    let mut store = reopen(dir.path());
    assert_eq!(store.activated(), Some(0));
    let loaded = store.load_keyring::<toy::Share>().unwrap();
    assert_eq!(view(&loaded), (Some(&share(1)), None));
    assert_eq!(store.activated(), Some(1));
    assert_eq!(file_generations(dir.path()), vec![1]);
}

/// A stored keyring's files flipped, truncated, extended, swapped for a snapshot that is
/// not a keyring entry, or read under another key: typed errors naming the generation.
#[test]
fn a_damaged_stored_keyring_is_refused_with_typed_errors() {
    let dir = tempfile::tempdir().unwrap();
    let meta = metadata(0);
    let mut r = rng(12);
    let mut store = reopen(dir.path());
    let mut keyring = Ring::new(share(0));
    store.save_keyring(&keyring, &meta, &mut r).unwrap();
    keyring.stage(pending(1, 0)).unwrap();
    store.save_keyring(&keyring, &meta, &mut r).unwrap();
    drop(store);
    let load = |dir: &Path| reopen(dir).load_keyring::<toy::Share>().map(|_| ());

    for g in [0u64, 1] {
        let path = gen_path(dir.path(), g);
        let good = fs::read(&path).unwrap();
        let mut cases: Vec<(Vec<u8>, &str)> = Vec::new();
        for i in [0, good.len() / 2, good.len() - 40, good.len() - 1] {
            let mut bad = good.clone();
            bad[i] ^= 0x01;
            let code = if i == 0 {
                "SNAPSHOT_MALFORMED"
            } else {
                "SNAPSHOT_CORRUPT"
            };
            cases.push((bad, code));
        }
        cases.push((good[..good.len() - 1].to_vec(), "SNAPSHOT_MALFORMED"));
        cases.push((good[..10].to_vec(), "SNAPSHOT_MALFORMED"));
        let mut extended = good.clone();
        extended.push(0);
        cases.push((extended, "SNAPSHOT_MALFORMED"));
        // A valid snapshot of the same generation whose payload is not a keyring entry.
        cases.push((
            Snapshot::seal(&key(1), &metadata(g), &payload(g), &mut rng(g))
                .unwrap()
                .to_bytes(),
            "ENTRY_MALFORMED",
        ));
        // The generation's entry sealed under another key.
        cases.push((seal(&key(2), g).to_bytes(), "WRONG_KEY"));
        for (bytes, code) in cases {
            fs::write(&path, &bytes).unwrap();
            let e = load(dir.path()).unwrap_err();
            assert_eq!(e.code(), code, "generation {g}");
            match e {
                quasar_pq::Error::Keystore(e) => assert_eq!(e.generation(), Some(g), "{code}"),
                other => panic!("{other:?}"),
            }
        }
        fs::write(&path, &good).unwrap();
        load(dir.path()).unwrap();
    }
    // Entries swapped between generations: the header names the other generation.
    let (a, b) = (gen_path(dir.path(), 0), gen_path(dir.path(), 1));
    let (fa, fb) = (fs::read(&a).unwrap(), fs::read(&b).unwrap());
    fs::write(&a, &fb).unwrap();
    fs::write(&b, &fa).unwrap();
    assert_eq!(load(dir.path()).unwrap_err().code(), "SNAPSHOT_CORRUPT");
}
