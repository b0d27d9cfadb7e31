//! `quasar node serve --store DIR`: each Pulsar party's keyring at rest, in the library's
//! snapshot store, so a node that stops (or is killed) and starts again loses no share.
//!
//! ```text
//! DIR/party-<id>/        one SnapshotStore per party (passphrase: QUASAR_NODE_PASSPHRASE,
//!                        Argon2id; the store records its salt)
//! setup done         →   save_keyring (generation g, the working share)
//! reshare activated  →   activate (g + 1 written, then g erased — only for the keyring's
//!                        receipt of a verified activation certificate)
//! a run with --resume →  load_keyring at the node's start: it signs with the stored share
//! ```

use std::path::{Path, PathBuf};

use quasar_pq::keystore::{KdfParams, Metadata, SnapshotStore};
use quasar_pq::party::keyring::{Activated, Keyring};
use quasar_pq::pulsar::custody::KeyShare;
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;

use crate::report::Failure;

/// The environment variable holding the stores' passphrase.
pub(crate) const PASSPHRASE: &str = "QUASAR_NODE_PASSPHRASE";

/// One party's store.
pub(crate) struct Store {
    party: PartyId,
    inner: SnapshotStore,
}

fn failed(what: &str, e: impl core::fmt::Display) -> Failure {
    Failure::local("STORE", format!("{what}: {e}"))
}

impl Store {
    /// Opens (or creates) party `party`'s store under `dir`.
    pub(crate) fn open(dir: &Path, party: PartyId, rng: &mut ChaCha20Rng) -> Result<Store, Failure> {
        let passphrase = std::env::var(PASSPHRASE)
            .ok()
            .filter(|p| !p.is_empty())
            .ok_or_else(|| {
                failed(
                    "--store",
                    format!("set {PASSPHRASE}: the shares are sealed under it"),
                )
            })?;
        let path: PathBuf = dir.join(format!("party-{}", party.get()));
        std::fs::create_dir_all(&path)
            .map_err(|e| failed(&format!("cannot create {}", path.display()), e))?;
        let inner =
            SnapshotStore::open_with_passphrase(&path, passphrase.as_bytes(), KdfParams::DEFAULT, rng)
                .map_err(|e| failed(&format!("cannot open {}", path.display()), e))?;
        Ok(Store { party, inner })
    }

    /// The metadata of `share`'s snapshot.
    fn metadata(&self, share: &KeyShare) -> Result<Metadata, Failure> {
        let group = crate::conduct::digest(share.group_key().public_key());
        let created = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Metadata::new(
            "pulsar",
            &group,
            share.generation(),
            share.public().threshold(),
            self.party,
            created,
        )
        .map_err(|e| failed("snapshot metadata", e))
    }

    /// Saves `keyring` (after the setup: its working share).
    pub(crate) fn save(&mut self, keyring: &Keyring<KeyShare>, rng: &mut ChaCha20Rng) -> Result<(), Failure> {
        let Some(share) = keyring.current() else {
            return Ok(());
        };
        let meta = self.metadata(share)?;
        self.inner
            .save_keyring(keyring, &meta, rng)
            .map_err(|e| failed("cannot save the keyring", e))
    }

    /// Mirrors an activation the keyring made: the new generation written, the old erased.
    pub(crate) fn activate(
        &mut self,
        keyring: &Keyring<KeyShare>,
        receipt: &Activated,
        rng: &mut ChaCha20Rng,
    ) -> Result<(), Failure> {
        let Some(share) = keyring.current() else {
            return Ok(());
        };
        let meta = self.metadata(share)?;
        self.inner
            .activate(keyring, receipt, &meta, rng)
            .map_err(|e| failed("cannot store the activation", e))
    }

    /// The keyring stored here (empty if nothing was stored).
    pub(crate) fn load(&mut self) -> Result<Keyring<KeyShare>, Failure> {
        self.inner
            .load_keyring()
            .map_err(|e| failed("cannot load the stored keyring", e))
    }
}
