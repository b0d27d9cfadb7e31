//! A directory of snapshot generations: atomic, crash-safe writes; rollback before
//! activation; a member's keyring persisted, and secure erasure of its old share once the
//! keyring accepted a verified activation.

mod files;
mod keyring;
mod state;

use alloc::vec::Vec;
use std::path::{Path, PathBuf};

use rand_core::CryptoRngCore;
use subtle::ConstantTimeEq;

use self::files::{
    clean_temp_files, create_dir, erase, generation_file_name, list_generations, read_capped, write_atomic,
};
use self::state::{decode_state, recorded_passphrase_kdf, StateFile};
use super::format::{digest, MAX_PAYLOAD_LEN};
use super::key::{Kdf, KdfParams, SnapshotKey};
use super::{Corruption, Error, OpenedSnapshot, Snapshot};
use crate::wire::Writer;

/// Rollbacks kept in the state file's history (the oldest are dropped beyond this).
pub const MAX_HISTORY: usize = 1024;
/// Name of the state file inside the store directory.
pub const STATE_FILE: &str = "state.qsst";

const STATE_MAGIC: [u8; 4] = *b"QSST";
const STATE_VERSION: u16 = 2;
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
/// use quasar_pq::keystore::{Metadata, SnapshotKey, SnapshotStore};
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
/// // Nothing is erased by a save or a rollback.
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
/// - `state.qsst` ([`STATE_FILE`]): `QSST`, u16 version 2, the KDF descriptor (as in
///   snapshot headers, so [`SnapshotStore::open_with_passphrase`] finds the salt), u64
///   current generation, u64 high-water mark, u8 flag ‖ (u64 activated generation, if
///   the flag is 1), u32 count (≤ [`MAX_HISTORY`]) of rollback records (u64 from, u64
///   to), a 16-byte key check, a 32-byte MAC
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
/// # A keyring, and erasure
///
/// A member's [`Keyring`](crate::party::keyring::Keyring) is stored as keyring entries
/// (see [`crate::keystore`]): its current share in the file of the **activated**
/// generation, its pending generation, if any, in the file of that generation (the
/// current generation of the state file). [`SnapshotStore::save_keyring`] writes what a
/// stage added; [`SnapshotStore::load_keyring`] gives back exactly the keyring saved.
///
/// Nothing here decides that an old share may go. Until the keyring accepts the new
/// generation's activation certificate the old share is the one that works, and it stays
/// (a refused activation changes nothing, in the keyring or on disk). When
/// [`Keyring::activate`](crate::party::keyring::Keyring::activate) accepts one, it
/// returns an [`Activated`](crate::party::keyring::Activated) receipt — the only value
/// that makes [`SnapshotStore::activate`] erase: it writes the new share, records the
/// activation in the state file and then **erases every other generation** — each file
/// overwritten with zeros, synced, unlinked, the directory synced — so stealing the store
/// later yields no pre-reshare share. After that no rollback goes below the activated
/// generation. The only other files ever erased are pending entries the keyring itself
/// replaced or dropped.
///
/// # Crash safety
///
/// Every file is written as `<name>.tmp`, fsynced, renamed over `<name>`, and the
/// directory fsynced (on Unix; elsewhere the rename is still atomic but its durability
/// is the platform's). The rename of the snapshot file is the commit point of a save:
/// - a crash before it leaves a temp file, which [`SnapshotStore::open`] deletes; the
///   store is as before the save;
/// - a save does not rewrite the state file: a valid snapshot above the state's
///   high-water mark is the newest save, and [`SnapshotStore::open`] adopts it as
///   current (a rollback, a keyring save or an activation rewrites the state file);
/// - a crash during [`SnapshotStore::activate`], after the new share was written but
///   before the state file recorded it, is finished by [`SnapshotStore::load_keyring`];
///   a crash during its erasure, after the state file recorded the activation, leaves
///   older files that [`SnapshotStore::open`] erases.
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
    current: Option<u64>,
    high_water: Option<u64>,
    activated: Option<u64>,
    history: Vec<Rollback>,
    recorded_kdf: Kdf,
}

impl SnapshotStore {
    /// Opens (creating if needed) the store in `dir`, whose snapshots are sealed under
    /// `key`: removes leftover temp files, reads the state file, and adopts any snapshot
    /// committed after the state file was last written. Without a state file the current
    /// generation is the highest one that opens under `key`. Finishes an erasure that a
    /// crash interrupted (generations older than the activated one).
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
            current: None,
            high_water: generations.last().copied(),
            activated: None,
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
                store.activated = state.activated;
                store.history = state.history;
                if let Some(a) = state.activated {
                    store.erase_below(a)?;
                }
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

    /// The highest activated generation, if any (nothing older is stored).
    pub fn activated(&self) -> Option<u64> {
        self.activated
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

    /// Durably stores `snapshot` as generation `generation` and makes it current. Older
    /// generations stay (only a keyring's activation erases: [`SnapshotStore::activate`]).
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
        // The rename inside is the commit point; the state file is not rewritten (open
        // adopts the newest snapshot above the recorded high-water mark), so a durable
        // save costs one file and one directory sync after the first.
        write_atomic(&self.dir, &generation_file_name(generation), snapshot.as_bytes())?;
        self.current = Some(generation);
        self.high_water = Some(generation);
        // A store's first save also writes the state file, so a later open under the
        // wrong key is refused at once rather than by trying every snapshot.
        if !self.state_path().exists() {
            self.write_state(generation, generation, self.activated, &self.history)?;
        }
        Ok(())
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
    /// current generation; [`Error::RollbackBeforeActivation`] below the activated
    /// generation; [`Error::UnknownGeneration`] if it is not stored; its load errors if
    /// it does not open; [`Error::Io`]. On error nothing changes.
    pub fn rollback(&mut self, to: u64) -> Result<(), Error> {
        let current = self.current.ok_or(Error::EmptyStore)?;
        if to >= current {
            return Err(Error::RollbackNotEarlier { to, current });
        }
        if let Some(activated) = self.activated.filter(|&a| to < a) {
            return Err(Error::RollbackBeforeActivation { to, activated });
        }
        drop(self.load(to)?);
        let mut history = self.history.clone();
        history.push(Rollback { from: current, to });
        if history.len() > MAX_HISTORY {
            history.drain(..history.len() - MAX_HISTORY);
        }
        let high_water = self.high_water.unwrap_or(current);
        self.write_state(to, high_water, self.activated, &history)?;
        self.current = Some(to);
        self.history = history;
        Ok(())
    }

    /// Erases every stored generation below `generation`.
    fn erase_below(&self, generation: u64) -> Result<(), Error> {
        for g in list_generations(&self.dir)?
            .into_iter()
            .filter(|&g| g < generation)
        {
            erase(&self.dir, &self.dir.join(generation_file_name(g)))?;
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

    fn write_state(
        &self,
        current: u64,
        high_water: u64,
        activated: Option<u64>,
        history: &[Rollback],
    ) -> Result<(), Error> {
        let kdf = match self.key.kdf() {
            k @ Kdf::Argon2id { .. } => *k,
            _ => self.recorded_kdf,
        };
        let mut w = Writer::with_header(&STATE_MAGIC, STATE_VERSION);
        kdf.write(&mut w);
        // At most MAX_HISTORY entries, far below 2^32.
        w.u64(current).u64(high_water);
        match activated {
            Some(a) => w.u8(1).u64(a),
            None => w.u8(0),
        };
        w.u32(crate::wire::len_u32(history.len()));
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
