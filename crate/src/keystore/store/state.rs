//! The state file: current generation, high-water mark, activated generation, rollback
//! history, authenticated under the store key.

use alloc::vec::Vec;
use std::path::Path;

use super::super::format::{digest_matches, DIGEST_LEN};
use super::super::key::Kdf;
use super::super::{Corruption, Error, Snapshot, KEY_CHECK_LEN};
use super::files::{generation_file_name, list_generations, read_capped};
use super::{
    Rollback, MAX_HISTORY, MAX_SNAPSHOT_FILE, MAX_STATE_FILE, STATE_FILE, STATE_MAGIC, STATE_VERSION,
};
use crate::wire::{self, Reader};

/// The decoded (not yet authenticated) state file.
pub(super) struct StateFile {
    pub(super) kdf: Kdf,
    pub(super) current: u64,
    pub(super) high_water: u64,
    pub(super) activated: Option<u64>,
    pub(super) history: Vec<Rollback>,
    pub(super) key_check: [u8; KEY_CHECK_LEN],
    pub(super) mac: [u8; 32],
    pub(super) mac_offset: usize,
}

/// Strictly decodes a state file and checks its digest (no key needed).
pub(super) fn decode_state(bytes: &[u8]) -> Result<StateFile, Error> {
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
    let activated = match r.u8()? {
        0 => None,
        1 => Some(r.u64()?),
        _ => return Err(wire::Error::InvalidValue("activation flag")),
    };
    if activated.is_some_and(|a| a > high_water) {
        return Err(wire::Error::InvalidValue(
            "activated generation above the high-water mark",
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
        activated,
        history,
        key_check,
        mac,
        mac_offset,
    })
}

/// The passphrase KDF recorded in the store at `dir`: the state file's, else the newest
/// readable snapshot's. `Some(Kdf::Raw)` if snapshots exist but none used a passphrase.
pub(super) fn recorded_passphrase_kdf(dir: &Path) -> Result<Option<Kdf>, Error> {
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
