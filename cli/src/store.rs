//! `quasar node serve --store DIR`: each party's share at rest, in the library's snapshot
//! store, so a node that stops (or is killed) and starts again loses no share — a Pulsar
//! party's keyring, a committee member's or a Corona party's share ([`Held`]).
//!
//! ```text
//! DIR/party-<id>/        one SnapshotStore per party (passphrase: QUASAR_NODE_PASSPHRASE,
//!                        Argon2id; the store records its salt)
//! setup done         →   save_keyring (generation g, the working share)
//! reshare activated  →   activate (g + 1 written, then g erased — only for the keyring's
//!                        receipt of a verified activation certificate)
//! a run with --resume →  load_keyring at the node's start: it signs with the stored share
//!
//! committee / Corona:    a new key is a new generation (a committee key is never reshared,
//!                        a Corona key is dealt once): save_share after the key generation or
//!                        the deal, load_share on a resumed run
//! ```

use std::path::{Path, PathBuf};

use quasar_pq::keystore::{KdfParams, Metadata, SnapshotStore};
use quasar_pq::party::keyring::{Activated, Keyring};
use quasar_pq::pulsar::custody::KeyShare;
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;
use zeroize::Zeroizing;

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

    /// Saves a share that lives outside a keyring as the store's next generation: `scheme`
    /// labels it, `group` is the group's public key.
    pub(crate) fn save_share(
        &mut self,
        scheme: &str,
        group: &[u8],
        threshold: usize,
        payload: &[u8],
        rng: &mut ChaCha20Rng,
    ) -> Result<(), Failure> {
        let generation = self.inner.high_water().map_or(0, |g| g + 1);
        let threshold = u16::try_from(threshold).map_err(|e| failed("threshold", e))?;
        let created = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let group = crate::conduct::digest(group);
        let meta = Metadata::new(scheme, &group, generation, threshold, self.party, created)
            .map_err(|e| failed("snapshot metadata", e))?;
        let snapshot = self
            .inner
            .seal(&meta, payload, rng)
            .map_err(|e| failed("cannot seal the share", e))?;
        self.inner
            .save(generation, &snapshot)
            .map_err(|e| failed("cannot save the share", e))
    }

    /// The share saved last, which must be a `scheme` share.
    pub(crate) fn load_share(&self, scheme: &str) -> Result<Zeroizing<Vec<u8>>, Failure> {
        let opened = self
            .inner
            .latest()
            .map_err(|e| failed("cannot load the stored share", e))?;
        if opened.metadata().label() != scheme {
            return Err(failed(
                "cannot resume",
                format!(
                    "the store holds a {} share, not a {scheme} one",
                    opened.metadata().label()
                ),
            ));
        }
        Ok(opened.into_payload())
    }

    /// The keyring stored here (empty if nothing was stored).
    pub(crate) fn load(&mut self) -> Result<Keyring<KeyShare>, Failure> {
        self.inner
            .load_keyring()
            .map_err(|e| failed("cannot load the stored keyring", e))
    }
}

/// Where a party keeps its share (a Pulsar party its keyring through [`Held::store`], a
/// committee member or a Corona party its one share through [`Held::keep`]): the `--store`
/// directory, the store once opened, and whether the run resumes from it.
pub(crate) struct Held {
    dir: Option<PathBuf>,
    store: Option<Store>,
    /// Whether the run resumes (no key generation: the party signs with what it stored).
    pub resume: bool,
}

impl Held {
    /// Party storage under `dir` (none without `--store`).
    pub(crate) fn new(dir: Option<PathBuf>, resume: bool) -> Held {
        Held {
            dir,
            store: None,
            resume,
        }
    }

    /// Party `party`'s store, opened on first use; `None` without `--store`.
    pub(crate) fn store(&mut self, party: PartyId) -> Result<Option<&mut Store>, Failure> {
        if self.store.is_none() {
            if let Some(dir) = &self.dir {
                self.store = Some(Store::open(dir, party, &mut crate::node::fresh_rng())?);
            }
        }
        Ok(self.store.as_mut())
    }

    /// Whether the store has been opened.
    pub(crate) fn is_open(&self) -> bool {
        self.store.is_some()
    }

    /// Keeps party `party`'s new `scheme` share (a no-op without `--store`).
    pub(crate) fn keep(
        &mut self,
        party: PartyId,
        scheme: &str,
        group: &[u8],
        threshold: usize,
        payload: &[u8],
    ) -> Result<(), Failure> {
        match self.store(party)? {
            Some(store) => store.save_share(scheme, group, threshold, payload, &mut crate::node::fresh_rng()),
            None => Ok(()),
        }
    }

    /// On a resumed run, the `scheme` share party `party` kept; `None` otherwise.
    pub(crate) fn resumed(
        &mut self,
        party: PartyId,
        scheme: &str,
    ) -> Result<Option<Zeroizing<Vec<u8>>>, Failure> {
        if !self.resume {
            return Ok(None);
        }
        match self.store(party)? {
            Some(store) => store.load_share(scheme).map(Some),
            None => Err(failed(
                "cannot resume",
                "this process keeps no store (quasar node serve --store DIR)",
            )),
        }
    }
}
