//! Encrypted share snapshots: in-memory seal/open, strict decoding, tamper detection,
//! passphrase keys, and the file store (activation and erasure, rollback, crash safety).
#![cfg(all(feature = "std", feature = "threshold"))]

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
fn activation_erases_every_older_generation() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = store_with(dir.path(), 1, 1..=6);
    assert_eq!(store.activate(9).unwrap_err(), Error::UnknownGeneration(9));
    store.activate(4).unwrap();
    assert_eq!(store.activated(), Some(4));
    assert_eq!(store.current(), Some(6));
    assert_eq!(file_generations(dir.path()), vec![4, 5, 6]);
    for g in 1..=3 {
        assert_eq!(store.load(g).unwrap_err(), Error::UnknownGeneration(g));
    }
    // An older activation is refused and changes nothing.
    assert_eq!(
        store.activate(3).unwrap_err(),
        Error::StaleActivation {
            generation: 3,
            activated: 4
        }
    );
    // Rolling back stops at the activated generation.
    assert_eq!(
        store.rollback(3).unwrap_err(),
        Error::RollbackBeforeActivation { to: 3, activated: 4 }
    );
    store.rollback(4).unwrap();
    assert_eq!(store.current(), Some(4));
    // Nothing at or above the activated generation can be retired: the current and
    // activated one, nor the abandoned newer ones (the next activation erases those).
    assert_eq!(store.retire(4).unwrap_err(), Error::CannotRetire(4));
    assert_eq!(
        store.retire(6).unwrap_err(),
        Error::NotSuperseded {
            generation: 6,
            activated: Some(4)
        }
    );
    assert_eq!(file_generations(dir.path()), vec![4, 5, 6]);

    // The activation survives reopening, and activating the newest erases the rest.
    drop(store);
    let mut store = SnapshotStore::open(dir.path(), key(1)).unwrap();
    assert_eq!(store.activated(), Some(4));
    assert_eq!(store.current(), Some(4));
    store.activate(5).unwrap();
    assert_eq!(store.current(), Some(5));
    assert_eq!(file_generations(dir.path()), vec![5, 6]);
    store.activate(6).unwrap();
    assert_eq!(file_generations(dir.path()), vec![6]);
}

/// The share that still works is never erased by `retire`: with generation 2 saved but not
/// activated, generation 1 is the only working share, so retiring it is refused and a
/// rollback to it still works; once generation 2 is activated, generation 1 is erased.
#[test]
fn retire_never_erases_the_working_share() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = store_with(dir.path(), 1, [1, 2]);
    assert_eq!(store.activated(), None);
    let e = store.retire(1).unwrap_err();
    assert_eq!(
        e,
        Error::NotSuperseded {
            generation: 1,
            activated: None
        }
    );
    assert_eq!(e.code(), "NOT_SUPERSEDED");
    assert_eq!(file_generations(dir.path()), vec![1, 2]);
    store.rollback(1).unwrap();
    assert_eq!(store.latest().unwrap().payload(), &payload(1)[..]);
    // Nothing activated: neither the current one nor the abandoned newer one goes.
    assert_eq!(store.retire(1).unwrap_err(), Error::CannotRetire(1));
    assert_eq!(
        store.retire(2).unwrap_err(),
        Error::NotSuperseded {
            generation: 2,
            activated: None
        }
    );
    // Generation 3 saved and activated: every older generation is erased, and retiring
    // one of them finds nothing, as before.
    let snap = store.seal(&metadata(3), &payload(3), &mut rng(3)).unwrap();
    store.save(3, &snap).unwrap();
    store.activate(3).unwrap();
    assert_eq!(file_generations(dir.path()), vec![3]);
    assert_eq!(store.retire(1).unwrap_err(), Error::UnknownGeneration(1));
    assert_eq!(store.retire(3).unwrap_err(), Error::CannotRetire(3));
    // A generation saved after the activated one is not superseded either.
    let snap = store.seal(&metadata(4), &payload(4), &mut rng(4)).unwrap();
    store.save(4, &snap).unwrap();
    store.rollback(3).unwrap();
    assert_eq!(
        store.retire(4).unwrap_err(),
        Error::NotSuperseded {
            generation: 4,
            activated: Some(3)
        }
    );
    assert_eq!(file_generations(dir.path()), vec![3, 4]);
}

/// A generation below the activated one left on disk (a crash during the activation's
/// erasure, the store not reopened since) is superseded: `retire` erases it.
#[test]
fn retire_erases_a_generation_an_activation_superseded() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = store_with(dir.path(), 1, [1, 2]);
    let leftover = fs::read(gen_path(dir.path(), 1)).unwrap();
    store.activate(2).unwrap();
    fs::write(gen_path(dir.path(), 1), &leftover).unwrap();
    store.retire(1).unwrap();
    assert_eq!(file_generations(dir.path()), vec![2]);
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
    // No generation is activated: every one may be the share that works, so none is
    // retired.
    assert_eq!(
        store.retire(2).unwrap_err(),
        Error::NotSuperseded {
            generation: 2,
            activated: None
        }
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
