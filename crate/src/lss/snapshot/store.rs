//! A directory of snapshot generations with a retention window, rollback, and atomic,
//! crash-safe writes.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use rand_core::CryptoRngCore;
use subtle::ConstantTimeEq;

use super::format::{digest, digest_matches, DIGEST_LEN, MAX_PAYLOAD_LEN};
use super::key::{Kdf, KdfParams, SnapshotKey};
use super::{Corruption, Error, OpenedSnapshot, Snapshot, KEY_CHECK_LEN};
use crate::wire::{self, Reader, Writer};

/// Generations kept by default.
pub const DEFAULT_RETENTION: usize = 8;
/// Rollbacks kept in the state file's history (the oldest are dropped beyond this).
pub const MAX_HISTORY: usize = 1024;
/// Name of the state file inside the store directory.
pub const STATE_FILE: &str = "state.qsst";

const STATE_MAGIC: [u8; 4] = *b"QSST";
const STATE_VERSION: u16 = 1;
const STATE_CHECK_CONTEXT: &[u8] = b"QSST";
const TMP_SUFFIX: &str = ".tmp";
const MAX_SNAPSHOT_FILE: u64 = MAX_PAYLOAD_LEN as u64 + 4096;
const MAX_STATE_FILE: u64 = 64 * 1024;

/// One recorded rollback: the store's current generation went from `from` back to `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rollback {
    /// The generation that was current before the rollback.
    pub from: u64,
    /// The earlier generation made current.
    pub to: u64,
}

/// A directory of encrypted snapshots, one file per generation, with a state file.
///
/// # Examples
///
/// ```
/// use chacha20poly1305::aead::OsRng;
/// use quasar_pq::lss::snapshot::{Metadata, SnapshotKey, SnapshotStore};
/// use quasar_pq::PartyId;
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let dir = tempfile::tempdir()?;
/// let key = SnapshotKey::generate(&mut OsRng);
/// let mut store = SnapshotStore::open(dir.path(), key)?;
/// let meta = Metadata::new("pulsar", &[0x22; 32], 1, 3, PartyId::new(2).unwrap(), 0)?;
/// for generation in 1..=3 {
///     let meta = meta.next(generation, generation);
///     let sealed = store.seal(&meta, b"share of this generation", &mut OsRng)?;
///     store.save(generation, &sealed)?;
/// }
/// store.rollback(2)?;
/// assert_eq!(store.latest()?.metadata().generation(), 2);
/// assert_eq!(store.generations()?, vec![1, 2, 3]);
/// # Ok(())
/// # }
/// ```
///
/// # Layout
///
/// - `gen-<generation as 20 decimal digits>.qsnp`: one [`Snapshot`] per generation.
/// - `state.qsst` ([`STATE_FILE`]): `QSST`, u16 version 1, the KDF descriptor (as in
///   snapshot headers, so [`SnapshotStore::open_with_passphrase`] finds the salt), u64
///   current generation, u64 high-water mark, u32 count (≤ [`MAX_HISTORY`]) of rollback
///   records (u64 from, u64 to), a 16-byte key check, a 32-byte MAC
///   `TupleHash(QUASAR-LSS-SNAPSHOT-STATE-v1; K, all bytes before)`, and the 32-byte
///   unkeyed digest. Decoded strictly, like snapshots; tampering is
///   [`Error::StateCorrupt`], another store's key is [`Error::WrongKey`].
/// - `*.tmp`: files being written; left over only by a crash, and removed by
///   [`SnapshotStore::open`].
///
/// # Generations and rollback
///
/// Every save must use a generation above the store's **high-water mark**, the highest
/// generation ever stored, and becomes current. [`SnapshotStore::rollback`] makes an
/// earlier, still-retained generation current again and records `from → to` in the state
/// file; it deletes nothing, and generation numbers are never reused: after rolling back
/// from 10 to 7, the next save must be 11 or above (the next reshare starts from the
/// restored share but gets a fresh generation number, as in the reference's rollback).
///
/// # Retention
///
/// After each save the store keeps the [`DEFAULT_RETENTION`] (8, configurable with
/// [`SnapshotStore::set_retention`]) highest-numbered generation files and deletes older
/// ones — only after the new snapshot and the state file are durable, and never the
/// current generation.
///
/// # Crash safety
///
/// Every file is written as `<name>.tmp`, fsynced, renamed over `<name>`, and the
/// directory fsynced (on Unix; elsewhere the rename is still atomic but its durability
/// is the platform's). The rename of the snapshot file is the commit point of a save:
/// - a crash before it leaves a temp file, which [`SnapshotStore::open`] deletes; the
///   store is as before the save;
/// - a crash after it but before the state file is rewritten leaves a valid snapshot
///   above the state's high-water mark; [`SnapshotStore::open`] adopts it as current
///   (the save had committed);
/// - a crash before pruning leaves extra old files, pruned by the next save.
///
/// A single process must own a store directory at a time; there is no lock.
///
/// # Security
///
/// Files are created with mode 0600 and a created directory with 0700 (Unix). All
/// snapshot bytes on disk are encrypted; the state file is authenticated under the
/// store key. Someone with write access to the directory can still delete files, or
/// replay an older state file together with older snapshots; keep the directory on
/// storage only the party controls.
#[derive(Debug)]
pub struct SnapshotStore {
    dir: PathBuf,
    key: SnapshotKey,
    retention: usize,
    current: Option<u64>,
    high_water: Option<u64>,
    history: Vec<Rollback>,
    recorded_kdf: Kdf,
}

/// The decoded (not yet authenticated) state file.
struct StateFile {
    kdf: Kdf,
    current: u64,
    high_water: u64,
    history: Vec<Rollback>,
    key_check: [u8; KEY_CHECK_LEN],
    mac: [u8; 32],
    mac_offset: usize,
}

impl SnapshotStore {
    /// Opens (creating if needed) the store in `dir`, whose snapshots are sealed under
    /// `key`: removes leftover temp files, reads the state file, and adopts any snapshot
    /// committed after the state file was last written. Without a state file the current
    /// generation is the highest one that opens under `key`.
    ///
    /// # Errors
    /// [`Error::Io`]; [`Error::StateMalformed`], [`Error::StateCorrupt`] (delete the
    /// state file to rebuild it from the snapshots, losing the rollback history);
    /// [`Error::WrongKey`] if the state file, or (without one) every readable
    /// snapshot, was written under another key.
    pub fn open(dir: impl AsRef<Path>, key: SnapshotKey) -> Result<SnapshotStore, Error> {
        let dir = dir.as_ref().to_path_buf();
        create_dir(&dir)?;
        clean_temp_files(&dir)?;
        let generations = list_generations(&dir)?;
        let mut store = SnapshotStore {
            recorded_kdf: *key.kdf(),
            dir,
            key,
            retention: DEFAULT_RETENTION,
            current: None,
            high_water: generations.last().copied(),
            history: Vec::new(),
        };
        match store.read_state()? {
            Some((bytes, state)) => {
                store.verify_state(&bytes, &state)?;
                if matches!(state.kdf, Kdf::Argon2id { .. }) {
                    store.recorded_kdf = state.kdf;
                }
                store.current = Some(state.current);
                store.high_water = store.high_water.max(Some(state.high_water));
                store.history = state.history;
                // Saves that committed (renamed) but crashed before the state update.
                for &g in generations.iter().rev().take_while(|&&g| g > state.high_water) {
                    if store.load(g).is_ok() {
                        store.current = Some(g);
                        break;
                    }
                }
            }
            None => {
                let mut wrong_key = false;
                for &g in generations.iter().rev() {
                    match store.load(g) {
                        Ok(_) => {
                            store.current = Some(g);
                            break;
                        }
                        Err(e) => wrong_key |= e.root() == &Error::WrongKey,
                    }
                }
                if store.current.is_none() && wrong_key {
                    return Err(Error::WrongKey);
                }
            }
        }
        Ok(store)
    }

    /// Opens the store in `dir` with a key derived from `passphrase` by Argon2id, using
    /// the salt and parameters recorded in the store (state file, else the newest
    /// readable snapshot). A new store gets a fresh salt from `rng` and `params`; an
    /// existing one must record parameters no costlier than `params`.
    ///
    /// # Errors
    /// As [`SnapshotStore::open`]; [`Error::KdfTooCostly`]; [`Error::NotPassphraseSealed`]
    /// if the store holds snapshots but none was sealed with a passphrase;
    /// [`Error::InvalidKdfParams`], [`Error::KdfMemory`]. A wrong passphrase is
    /// [`Error::WrongKey`].
    pub fn open_with_passphrase(
        dir: impl AsRef<Path>,
        passphrase: &[u8],
        params: KdfParams,
        rng: &mut impl CryptoRngCore,
    ) -> Result<SnapshotStore, Error> {
        let dir = dir.as_ref();
        let key = match recorded_passphrase_kdf(dir)? {
            Some(Kdf::Argon2id {
                params: recorded,
                salt,
            }) => {
                recorded.check_within(&params)?;
                SnapshotKey::from_passphrase(passphrase, &salt, recorded)?
            }
            Some(_) => return Err(Error::NotPassphraseSealed),
            None => SnapshotKey::from_passphrase(passphrase, &SnapshotKey::generate_salt(rng), params)?,
        };
        SnapshotStore::open(dir, key)
    }

    /// Sets how many generations are kept (default [`DEFAULT_RETENTION`]); applied at
    /// the next save.
    ///
    /// # Errors
    /// [`Error::InvalidRetention`] for zero.
    pub fn set_retention(&mut self, retention: usize) -> Result<(), Error> {
        if retention == 0 {
            return Err(Error::InvalidRetention);
        }
        self.retention = retention;
        Ok(())
    }

    /// How many generations are kept.
    pub fn retention(&self) -> usize {
        self.retention
    }

    /// The store directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The store key's derivation (public).
    pub fn kdf(&self) -> &Kdf {
        self.key.kdf()
    }

    /// The current generation (the last saved, or the target of the last rollback).
    pub fn current(&self) -> Option<u64> {
        self.current
    }

    /// The highest generation ever stored; the next save must be above it.
    pub fn high_water(&self) -> Option<u64> {
        self.high_water
    }

    /// The recorded rollbacks, oldest first (at most [`MAX_HISTORY`]).
    pub fn history(&self) -> &[Rollback] {
        &self.history
    }

    /// Seals `payload` with the store key (see [`Snapshot::seal`]); save the result
    /// with [`SnapshotStore::save`].
    ///
    /// # Errors
    /// As [`Snapshot::seal`].
    pub fn seal(
        &self,
        metadata: &super::Metadata,
        payload: &[u8],
        rng: &mut impl CryptoRngCore,
    ) -> Result<Snapshot, Error> {
        Snapshot::seal(&self.key, metadata, payload, rng)
    }

    /// Durably stores `snapshot` as generation `generation`, makes it current, then
    /// prunes generations beyond the retention window.
    ///
    /// # Errors
    /// [`Error::GenerationMismatch`] if the snapshot's header says another generation;
    /// [`Error::StaleGeneration`] unless `generation` is above the high-water mark;
    /// [`Error::WrongKey`] / [`Error::Corrupt`] if the snapshot does not open under the
    /// store key (it is checked before anything is written); [`Error::Io`]. An I/O
    /// error after the snapshot file was renamed into place leaves the save committed
    /// (see the crash-safety rules above).
    pub fn save(&mut self, generation: u64, snapshot: &Snapshot) -> Result<(), Error> {
        let found = snapshot.metadata().generation();
        if found != generation {
            return Err(Error::GenerationMismatch {
                expected: generation,
                found,
            });
        }
        if let Some(high_water) = self.high_water {
            if generation <= high_water {
                return Err(Error::StaleGeneration {
                    generation,
                    high_water,
                });
            }
        }
        drop(snapshot.open(&self.key)?);
        write_atomic(&self.dir, &generation_file_name(generation), snapshot.as_bytes())?;
        self.current = Some(generation);
        self.high_water = Some(generation);
        self.write_state(generation, generation, &self.history)?;
        self.prune()
    }

    /// Reads, authenticates and decrypts generation `generation`.
    ///
    /// # Errors
    /// [`Error::UnknownGeneration`] if there is no such file; [`Error::InGeneration`]
    /// naming the generation and wrapping [`Error::Malformed`], [`Error::Corrupt`]
    /// (including a file holding another generation) or [`Error::WrongKey`];
    /// [`Error::Io`].
    pub fn load(&self, generation: u64) -> Result<OpenedSnapshot, Error> {
        let snapshot = self.load_sealed(generation)?;
        OpenedSnapshot::open(&snapshot, &self.key).map_err(|e| e.in_generation(generation))
    }

    /// Reads generation `generation` and checks its structure, digest and generation
    /// number, without decrypting it.
    ///
    /// # Errors
    /// As [`SnapshotStore::load`], except [`Error::WrongKey`] and tag failures.
    pub fn load_sealed(&self, generation: u64) -> Result<Snapshot, Error> {
        let path = self.dir.join(generation_file_name(generation));
        let bytes = read_capped(&path, MAX_SNAPSHOT_FILE)
            .map_err(|e| e.in_generation(generation))?
            .ok_or(Error::UnknownGeneration(generation))?;
        let snapshot = Snapshot::from_bytes(&bytes).map_err(|e| e.in_generation(generation))?;
        let found = snapshot.metadata().generation();
        if found != generation {
            return Err(Error::Corrupt(Corruption::Misplaced { found }).in_generation(generation));
        }
        Ok(snapshot)
    }

    /// Loads the current generation.
    ///
    /// # Errors
    /// [`Error::EmptyStore`]; otherwise as [`SnapshotStore::load`].
    pub fn latest(&self) -> Result<OpenedSnapshot, Error> {
        self.load(self.current.ok_or(Error::EmptyStore)?)
    }

    /// The generations with a file in the store, ascending (whether or not they are
    /// intact: [`SnapshotStore::load`] tells).
    ///
    /// # Errors
    /// [`Error::Io`].
    pub fn generations(&self) -> Result<Vec<u64>, Error> {
        list_generations(&self.dir)
    }

    /// Makes the earlier generation `to` current again and records the rollback in the
    /// state file (written atomically). No file is deleted; the next save must still be
    /// above the high-water mark.
    ///
    /// # Errors
    /// [`Error::EmptyStore`]; [`Error::RollbackNotEarlier`] unless `to` is below the
    /// current generation; [`Error::UnknownGeneration`] if it is not retained; its load
    /// errors if it does not open; [`Error::Io`]. On error nothing changes.
    pub fn rollback(&mut self, to: u64) -> Result<(), Error> {
        let current = self.current.ok_or(Error::EmptyStore)?;
        if to >= current {
            return Err(Error::RollbackNotEarlier { to, current });
        }
        drop(self.load(to)?);
        let mut history = self.history.clone();
        history.push(Rollback { from: current, to });
        if history.len() > MAX_HISTORY {
            history.drain(..history.len() - MAX_HISTORY);
        }
        let high_water = self.high_water.unwrap_or(current);
        self.write_state(to, high_water, &history)?;
        self.current = Some(to);
        self.history = history;
        Ok(())
    }

    /// Deletes the oldest generations beyond the retention window, never the current one.
    fn prune(&self) -> Result<(), Error> {
        let generations = list_generations(&self.dir)?;
        let excess = generations.len().saturating_sub(self.retention);
        let mut removed = false;
        for &g in &generations[..excess] {
            if Some(g) == self.current {
                continue;
            }
            let path = self.dir.join(generation_file_name(g));
            match fs::remove_file(&path) {
                Ok(()) => removed = true,
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(io_error("remove", &path, &e)),
            }
        }
        if removed {
            sync_dir(&self.dir)?;
        }
        Ok(())
    }

    fn state_path(&self) -> PathBuf {
        self.dir.join(STATE_FILE)
    }

    /// The state file's bytes and decoded fields, if it exists.
    fn read_state(&self) -> Result<Option<(Vec<u8>, StateFile)>, Error> {
        match read_capped(&self.state_path(), MAX_STATE_FILE)? {
            Some(bytes) => {
                let state = decode_state(&bytes)?;
                Ok(Some((bytes, state)))
            }
            None => Ok(None),
        }
    }

    /// Checks the state file's key check, then its MAC (constant time).
    fn verify_state(&self, bytes: &[u8], state: &StateFile) -> Result<(), Error> {
        if !self.key.matches_check(STATE_CHECK_CONTEXT, &state.key_check) {
            return Err(Error::WrongKey);
        }
        let body = bytes.get(..state.mac_offset).unwrap_or_default();
        if bool::from(self.key.state_mac(body).ct_eq(&state.mac)) {
            Ok(())
        } else {
            Err(Error::StateCorrupt(Corruption::Authentication))
        }
    }

    fn write_state(&self, current: u64, high_water: u64, history: &[Rollback]) -> Result<(), Error> {
        let kdf = match self.key.kdf() {
            k @ Kdf::Argon2id { .. } => *k,
            _ => self.recorded_kdf,
        };
        let mut w = Writer::with_header(&STATE_MAGIC, STATE_VERSION);
        kdf.write(&mut w);
        // At most MAX_HISTORY entries, far below 2^32.
        w.u64(current).u64(high_water).u32(history.len() as u32);
        for r in history {
            w.u64(r.from).u64(r.to);
        }
        w.put(&self.key.key_check(STATE_CHECK_CONTEXT));
        let mut bytes = w.into_bytes();
        let mac = self.key.state_mac(&bytes);
        bytes.extend_from_slice(&mac);
        let d = digest(&bytes);
        bytes.extend_from_slice(&d);
        write_atomic(&self.dir, STATE_FILE, &bytes)
    }
}

/// Strictly decodes a state file and checks its digest (no key needed).
fn decode_state(bytes: &[u8]) -> Result<StateFile, Error> {
    let state = decode_state_fields(bytes).map_err(Error::StateMalformed)?;
    if !digest_matches(bytes) {
        return Err(Error::StateCorrupt(Corruption::Digest));
    }
    Ok(state)
}

fn decode_state_fields(bytes: &[u8]) -> Result<StateFile, wire::Error> {
    let mut r = Reader::new(bytes);
    r.header(&STATE_MAGIC, STATE_VERSION)?;
    let kdf = Kdf::read(&mut r)?;
    let current = r.u64()?;
    let high_water = r.u64()?;
    if high_water < current {
        return Err(wire::Error::InvalidValue(
            "high-water mark below the current generation",
        ));
    }
    let count = r.count(MAX_HISTORY, 16)?;
    let mut history = Vec::with_capacity(count);
    for _ in 0..count {
        let (from, to) = (r.u64()?, r.u64()?);
        if to >= from || from > high_water {
            return Err(wire::Error::InvalidValue("rollback record"));
        }
        history.push(Rollback { from, to });
    }
    let key_check = r.array()?;
    let mac_offset = bytes.len() - r.remaining();
    let mac = r.array()?;
    r.take(DIGEST_LEN)?;
    r.finish()?;
    Ok(StateFile {
        kdf,
        current,
        high_water,
        history,
        key_check,
        mac,
        mac_offset,
    })
}

/// The passphrase KDF recorded in the store at `dir`: the state file's, else the newest
/// readable snapshot's. `Some(Kdf::Raw)` if snapshots exist but none used a passphrase.
fn recorded_passphrase_kdf(dir: &Path) -> Result<Option<Kdf>, Error> {
    if !dir.exists() {
        return Ok(None);
    }
    if let Ok(Some(bytes)) = read_capped(&dir.join(STATE_FILE), MAX_STATE_FILE) {
        if let Ok(state) = decode_state(&bytes) {
            if matches!(state.kdf, Kdf::Argon2id { .. }) {
                return Ok(Some(state.kdf));
            }
        }
    }
    let mut any = false;
    for g in list_generations(dir)?.into_iter().rev() {
        let path = dir.join(generation_file_name(g));
        if let Ok(Some(bytes)) = read_capped(&path, MAX_SNAPSHOT_FILE) {
            if let Ok(snapshot) = Snapshot::from_bytes(&bytes) {
                any = true;
                if matches!(snapshot.kdf(), Kdf::Argon2id { .. }) {
                    return Ok(Some(*snapshot.kdf()));
                }
            }
        }
    }
    Ok(any.then_some(Kdf::Raw))
}

fn generation_file_name(generation: u64) -> String {
    alloc::format!("gen-{generation:020}.qsnp")
}

/// The generation named by `gen-<20 digits>.qsnp`, exactly.
fn parse_generation_file_name(name: &str) -> Option<u64> {
    let digits = name.strip_prefix("gen-")?.strip_suffix(".qsnp")?;
    if digits.len() != 20 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

fn io_error(op: &'static str, path: &Path, e: &io::Error) -> Error {
    Error::Io {
        op,
        kind: alloc::format!("{:?}", e.kind()),
        path: path.display().to_string(),
    }
}

fn create_dir(dir: &Path) -> Result<(), Error> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(dir)
        .map_err(|e| io_error("create directory", dir, &e))
}

/// File names in `dir` (entries that are not valid UTF-8 are skipped).
fn file_names(dir: &Path) -> Result<Vec<String>, Error> {
    let mut names = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| io_error("list", dir, &e))? {
        let entry = entry.map_err(|e| io_error("list", dir, &e))?;
        if let Ok(name) = entry.file_name().into_string() {
            names.push(name);
        }
    }
    Ok(names)
}

fn list_generations(dir: &Path) -> Result<Vec<u64>, Error> {
    let mut generations: Vec<u64> = file_names(dir)?
        .iter()
        .filter_map(|n| parse_generation_file_name(n))
        .collect();
    generations.sort_unstable();
    Ok(generations)
}

/// Deletes temp files left by a crash before their rename.
fn clean_temp_files(dir: &Path) -> Result<(), Error> {
    let mut removed = false;
    for name in file_names(dir)? {
        let Some(stem) = name.strip_suffix(TMP_SUFFIX) else {
            continue;
        };
        if stem != STATE_FILE && parse_generation_file_name(stem).is_none() {
            continue;
        }
        let path = dir.join(&name);
        match fs::remove_file(&path) {
            Ok(()) => removed = true,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(io_error("remove", &path, &e)),
        }
    }
    if removed {
        sync_dir(dir)?;
    }
    Ok(())
}

/// Reads a whole file of at most `cap` bytes; `None` if it does not exist.
fn read_capped(path: &Path, cap: u64) -> Result<Option<Vec<u8>>, Error> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error("open", path, &e)),
    };
    let too_large = |len: u64| Error::FileTooLarge {
        path: path.display().to_string(),
        len,
        max: cap,
    };
    let len = file.metadata().map_err(|e| io_error("stat", path, &e))?.len();
    if len > cap {
        return Err(too_large(len));
    }
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io_error("read", path, &e))?;
    if bytes.len() as u64 > cap {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(Some(bytes))
}

/// Writes `bytes` to `dir/name` atomically: `name.tmp`, write, fsync, rename, fsync dir.
fn write_atomic(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), Error> {
    let tmp = dir.join(alloc::format!("{name}{TMP_SUFFIX}"));
    let path = dir.join(name);
    match fs::remove_file(&tmp) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_error("remove", &tmp, &e)),
    }
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let result = options
        .open(&tmp)
        .and_then(|mut f| {
            f.write_all(bytes)?;
            f.sync_all()
        })
        .map_err(|e| io_error("write", &tmp, &e));
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    if let Err(e) = fs::rename(&tmp, &path) {
        let _ = fs::remove_file(&tmp);
        return Err(io_error("rename", &path, &e));
    }
    sync_dir(dir)
}

/// Makes directory entries (renames, deletions) durable.
fn sync_dir(dir: &Path) -> Result<(), Error> {
    #[cfg(unix)]
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| io_error("sync directory", dir, &e))?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}
