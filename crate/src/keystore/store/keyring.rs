//! A member's keyring in the store: its current share and its pending generation, each a
//! sealed keyring entry in the file of its generation.
//!
//! The store mirrors what the keyring decided and decides nothing itself: it writes the
//! current share once, replaces or erases only pending entries the keyring itself replaced
//! ([`Keyring::stage`]) or dropped ([`Keyring::discard_pending`]), and erases a current
//! share only when handed the [`Activated`] receipt that [`Keyring::activate`] returns
//! after the certificate verified.

use rand_core::CryptoRngCore;

use super::files::{erase, generation_file_name, list_generations, write_atomic};
use super::SnapshotStore;
use crate::keystore::entry::{keyring_of, open_entry, seal_current, seal_pending, Entry, Storable};
use crate::keystore::{Error, Metadata};
use crate::party::keyring::{Activated, Keyring};

impl SnapshotStore {
    /// Persists `keyring` (see the type docs, "A keyring"): writes its current share if
    /// the store has none yet (a new group's first share), and its pending generation, if
    /// any, replacing a pending entry of an earlier attempt. A pending entry the keyring no
    /// longer holds is erased; the current share's file is never touched. `metadata` gives
    /// the label, group id, threshold, party and creation counter of the files written
    /// (each gets its entry's generation).
    ///
    /// # Errors
    /// [`Error::ActivationNotRecorded`] if the keyring's current share is not the store's
    /// (a keyring that activated a generation is saved with [`SnapshotStore::activate`]
    /// and its receipt); [`Error::StaleActivation`] for a keyring older than the store's;
    /// [`Error::StaleGeneration`] for a pending generation not above the current one;
    /// [`Error::Io`]; as [`Snapshot::seal`](crate::keystore::Snapshot::seal). On error
    /// the stored keyring is the one before the call.
    #[allow(clippy::result_large_err)]
    pub fn save_keyring<S: Storable>(
        &mut self,
        keyring: &Keyring<S>,
        metadata: &Metadata,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(), crate::Error> {
        let stored = self.activated;
        match (keyring.generation(), stored) {
            (Some(g), Some(a)) if g == a => {}
            (Some(g), Some(a)) if g < a => {
                return Err(Error::StaleActivation {
                    generation: g,
                    activated: a,
                }
                .into())
            }
            (Some(g), None) if self.generations()?.is_empty() => {
                // A new group's first share: nothing older exists, nothing is erased.
                let share = keyring
                    .current()
                    .ok_or(Error::ActivationNotRecorded { generation: g })?;
                let sealed = seal_current(&self.key, metadata, share, rng)?;
                write_atomic(&self.dir, &generation_file_name(g), sealed.as_bytes())?;
                self.record(g, Some(g), g)?;
            }
            (Some(g), _) => return Err(Error::ActivationNotRecorded { generation: g }.into()),
            // A member that left (its activated generation has no file), or one that has
            // not joined yet.
            (None, Some(a)) if self.file_exists(a) => {
                return Err(Error::ActivationNotRecorded { generation: a }.into())
            }
            (None, _) => {}
        }
        let floor = self.activated;
        match keyring.pending() {
            Some(pending) => {
                let p = S::pending_generation(pending);
                if let Some(a) = floor.filter(|&a| p <= a) {
                    return Err(Error::StaleGeneration {
                        generation: p,
                        high_water: a,
                    }
                    .into());
                }
                let sealed = seal_pending::<S>(&self.key, metadata, pending, rng)?;
                write_atomic(&self.dir, &generation_file_name(p), sealed.as_bytes())?;
                let high_water = self.high_water.unwrap_or(p).max(p);
                self.record(p, floor, high_water)?;
                self.erase_pending_except(Some(p))?;
            }
            None => {
                if let Some(a) = floor.filter(|&a| self.current != Some(a)) {
                    let high_water = self.high_water.unwrap_or(a).max(a);
                    self.record(a, floor, high_water)?;
                }
                self.erase_pending_except(None)?;
            }
        }
        Ok(())
    }

    /// The keyring stored here: the share of the activated generation (none for a member
    /// that left, or one that has not joined yet) and the pending generation, if any.
    /// Finishes an activation a crash interrupted (its new share written, the state file
    /// not yet): only [`SnapshotStore::activate`] writes a current share above the
    /// recorded one, so such a file is the receipt's record.
    ///
    /// # Errors
    /// [`Error::InGeneration`] for a file that does not open (wrong key, tampered,
    /// truncated, extended); [`Error::EntryMalformed`]; the scheme's decoding errors;
    /// [`Error::Io`].
    #[allow(clippy::result_large_err)]
    pub fn load_keyring<S: Storable>(&mut self) -> Result<Keyring<S>, crate::Error> {
        let mut current = None;
        if let Some(a) = self.activated.filter(|&a| self.file_exists(a)) {
            match self.entry::<S>(a)? {
                Entry::Current(share) => current = Some(share),
                Entry::Pending(_) => return Err(misplaced(a)),
            }
        }
        let mut pending = None;
        let above = |g: u64| self.activated.is_none_or(|a| g > a);
        if let Some(c) = self.current.filter(|&c| above(c) && self.file_exists(c)) {
            match self.entry::<S>(c)? {
                Entry::Pending(p) => pending = Some(p),
                Entry::Current(share) => {
                    // An interrupted activation of `c`: finish it.
                    let high_water = self.high_water.unwrap_or(c).max(c);
                    self.record(c, Some(c), high_water)?;
                    self.erase_all_but(Some(c))?;
                    current = Some(share);
                }
            }
        }
        keyring_of(current, pending)
    }

    /// Records what `keyring` did when it accepted a verified activation — `activated` is
    /// the receipt [`Keyring::activate`] returned — and erases every other generation:
    /// the old share, and pending entries of abandoned attempts. The new share is written
    /// first (replacing its pending entry), then the state file, then the erasure; a crash
    /// in between is finished by [`SnapshotStore::load_keyring`] or [`SnapshotStore::open`].
    /// A member that left the group keeps nothing. Recording a receipt twice is a no-op.
    ///
    /// The store applies no rule of its own: whether the old share may go is the keyring's
    /// decision, which it makes only for a certificate that verifies.
    ///
    /// # Errors
    /// [`Error::ReceiptMismatch`] if `keyring` is not in the state the receipt describes;
    /// [`Error::StaleActivation`] below the recorded activation; [`Error::Io`]; as
    /// [`Snapshot::seal`](crate::keystore::Snapshot::seal).
    #[allow(clippy::result_large_err)]
    pub fn activate<S: Storable>(
        &mut self,
        keyring: &Keyring<S>,
        activated: &Activated,
        metadata: &Metadata,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(), crate::Error> {
        let g = activated.generation();
        let holds = if activated.member() {
            keyring.generation() == Some(g)
        } else {
            keyring.current().is_none()
        };
        if !holds {
            return Err(Error::ReceiptMismatch { generation: g }.into());
        }
        match self.activated {
            Some(a) if a == g => return Ok(()),
            Some(a) if g < a => {
                return Err(Error::StaleActivation {
                    generation: g,
                    activated: a,
                }
                .into())
            }
            _ => {}
        }
        let keep = match keyring.current() {
            Some(share) if activated.member() => {
                let sealed = seal_current(&self.key, metadata, share, rng)?;
                write_atomic(&self.dir, &generation_file_name(g), sealed.as_bytes())?;
                Some(g)
            }
            _ => None,
        };
        let high_water = self.high_water.unwrap_or(g).max(g);
        self.record(g, Some(g), high_water)?;
        self.erase_all_but(keep)?;
        Ok(())
    }

    /// Opens the keyring entry of generation `generation`.
    #[allow(clippy::result_large_err)]
    fn entry<S: Storable>(&self, generation: u64) -> Result<Entry<S>, crate::Error> {
        let sealed = self.load_sealed(generation)?;
        open_entry::<S>(&sealed, &self.key).map_err(|e| match e {
            crate::Error::Keystore(e) => e.in_generation(generation).into(),
            e => e,
        })
    }

    fn file_exists(&self, generation: u64) -> bool {
        self.dir.join(generation_file_name(generation)).exists()
    }

    /// Writes the state file, then updates the fields.
    fn record(&mut self, current: u64, activated: Option<u64>, high_water: u64) -> Result<(), Error> {
        self.write_state(current, high_water, activated, &self.history)?;
        self.current = Some(current);
        self.activated = activated;
        self.high_water = Some(high_water);
        Ok(())
    }

    /// Erases the pending entries (the files above the activated generation) except
    /// `keep`.
    fn erase_pending_except(&self, keep: Option<u64>) -> Result<(), Error> {
        for g in list_generations(&self.dir)? {
            if self.activated.is_none_or(|a| g > a) && Some(g) != keep {
                erase(&self.dir, &self.dir.join(generation_file_name(g)))?;
            }
        }
        Ok(())
    }

    /// Erases every generation except `keep`.
    fn erase_all_but(&self, keep: Option<u64>) -> Result<(), Error> {
        for g in list_generations(&self.dir)? {
            if Some(g) != keep {
                erase(&self.dir, &self.dir.join(generation_file_name(g)))?;
            }
        }
        Ok(())
    }
}

/// A pending entry where the current share belongs.
fn misplaced(generation: u64) -> crate::Error {
    Error::EntryMalformed(crate::wire::Error::InvalidValue(
        "a pending entry at the activated generation",
    ))
    .in_generation(generation)
    .into()
}
