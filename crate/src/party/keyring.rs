//! A member's keys across generations: the share it signs with now, and the share a
//! refresh or reshare dealt it that is not activated yet.
//!
//! ```text
//! Keyring::new(share)                       current = generation g
//!   ├─ stage(pending)                       pending = generation g + 1 (dealt, not yet activated)
//!   ├─ activate(&certificate)  ── verified ─► current = g + 1, the share of g erased
//!   │                          ── refused ──► nothing changes (the old share keeps signing)
//!   └─ discard_pending()                    the failed generation is dropped; g stays
//! ```
//!
//! **Accepting a verified activation is the only way an old share is erased.** Nothing
//! else replaces or drops the current share: [`Keyring::stage`] only adds a pending
//! generation next to it, and [`Keyring::activate`] checks the activation certificate
//! against the pending generation's own public data (through the scheme's
//! [`Custody::activate`]) before it promotes it. A member that leaves the group (an old
//! dealer with no share of the new generation) ends with an empty keyring, again only once
//! the certificate verified: it proves that at least `t_new` members hold working shares of
//! the new generation, so the old one is no longer needed.
//!
//! The lifecycle parties ([`crate::pulsar::custody::lifecycle`], [`crate::lens::lifecycle`])
//! end a reshare by staging the new generation and applying the certificate they collected;
//! a host persists the keyring after each change ([`crate::keystore`]: `save_keyring` after
//! a stage, `activate` with the [`Activated`] receipt after an activation — the store
//! erases a stored share only for such a receipt, so the rule lives here alone).
//!
//! # Security
//! The keyring owns secret shares: they are wiped when dropped (each scheme's share type
//! zeroizes itself). `Debug` shows generations only.

use core::fmt;

use crate::PartyId;

/// A scheme's key share as a keyring holds it.
pub trait Custody: Sized {
    /// What a dealing leaves a member before its generation is activated: the new share
    /// (if the member is in the new set) and the public data the certificate is checked
    /// against.
    type Pending;
    /// The activation certificate of a generation.
    type Certificate;

    /// The owner of the share.
    fn owner(&self) -> PartyId;

    /// The share's generation.
    fn generation(&self) -> u64;

    /// The generation a pending entry is for.
    fn pending_generation(pending: &Self::Pending) -> u64;

    /// Verifies that `certificate` activates `pending` (at least `t_new` members of the
    /// new generation proved possession of their shares, for this scheme's key) and
    /// returns the member's share of the new generation (`None` when it is not a member
    /// of it). On a refusal the pending entry is handed back with the reason.
    ///
    /// # Errors
    /// The scheme's refusal of the certificate.
    #[allow(clippy::result_large_err)]
    fn activate(
        pending: Self::Pending,
        certificate: &Self::Certificate,
    ) -> Result<Option<Self>, (Self::Pending, crate::Error)>;
}

/// What an accepted activation did: the generation now current and the generation whose
/// share was erased. It is the keyring's receipt: only [`Keyring::activate`] makes one,
/// and the key store erases a stored share only when handed one
/// ([`crate::keystore::SnapshotStore::activate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Activated {
    generation: u64,
    erased: Option<u64>,
    member: bool,
}

impl Activated {
    /// The generation activated (the keyring's new current generation, or the generation
    /// the member left the group at).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The generation whose share was erased, if the keyring held one.
    pub fn erased(&self) -> Option<u64> {
        self.erased
    }

    /// Whether the member holds a share of the activated generation (false: it left).
    pub fn member(&self) -> bool {
        self.member
    }
}

/// A member's current and pending generations (see the module docs).
pub struct Keyring<S: Custody> {
    current: Option<S>,
    pending: Option<S::Pending>,
}

impl<S: Custody> fmt::Debug for Keyring<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Keyring")
            .field("current", &self.current.as_ref().map(S::generation))
            .field("pending", &self.pending.as_ref().map(S::pending_generation))
            .finish()
    }
}

impl<S: Custody> Default for Keyring<S> {
    fn default() -> Self {
        Keyring::empty()
    }
}

impl<S: Custody> Keyring<S> {
    /// A keyring holding `share` as its current generation.
    pub fn new(share: S) -> Self {
        Keyring {
            current: Some(share),
            pending: None,
        }
    }

    /// A keyring with no share yet (a member joining the group at a reshare).
    pub fn empty() -> Self {
        Keyring {
            current: None,
            pending: None,
        }
    }

    /// The share the member signs with now.
    pub fn current(&self) -> Option<&S> {
        self.current.as_ref()
    }

    /// The current generation.
    pub fn generation(&self) -> Option<u64> {
        self.current.as_ref().map(S::generation)
    }

    /// The generation dealt but not yet activated, if any.
    pub fn pending(&self) -> Option<&S::Pending> {
        self.pending.as_ref()
    }

    /// The pending generation's number.
    pub fn pending_generation(&self) -> Option<u64> {
        self.pending.as_ref().map(S::pending_generation)
    }

    /// Records a newly dealt generation next to the current one (a pending generation of
    /// an earlier, never activated attempt is replaced). The current share is untouched.
    ///
    /// # Errors
    /// [`super::Error::StaleGeneration`] unless the pending generation is above the
    /// current one.
    pub fn stage(&mut self, pending: S::Pending) -> Result<(), super::Error> {
        let next = S::pending_generation(&pending);
        if let Some(current) = self.generation().filter(|&g| next <= g) {
            return Err(super::Error::StaleGeneration {
                current,
                pending: next,
            });
        }
        self.pending = Some(pending);
        Ok(())
    }

    /// Verifies `certificate` against the pending generation and, if it activates it,
    /// makes it current and erases the old share. On any error nothing changes.
    ///
    /// # Errors
    /// [`super::Error::NothingPending`]; the scheme's refusal of the certificate.
    #[allow(clippy::result_large_err)]
    pub fn activate(&mut self, certificate: &S::Certificate) -> Result<Activated, crate::Error> {
        let pending = self.pending.take().ok_or(super::Error::NothingPending)?;
        let generation = S::pending_generation(&pending);
        match S::activate(pending, certificate) {
            Ok(next) => {
                let erased = self.current.as_ref().map(S::generation);
                let member = next.is_some();
                // The old share is dropped (and wiped) here, and only here.
                self.current = next;
                Ok(Activated {
                    generation,
                    erased,
                    member,
                })
            }
            Err((pending, e)) => {
                self.pending = Some(pending);
                Err(e)
            }
        }
    }

    /// Stages `pending` and applies `certificate` to it: how every reshare path ends at a
    /// member. Without a certificate (the activation round collected too few proofs) the
    /// new generation stays pending and `missing` is the refusal.
    ///
    /// # Errors
    /// As [`Keyring::stage`] and [`Keyring::activate`]; `missing`.
    #[allow(clippy::result_large_err)]
    pub(crate) fn stage_and_activate(
        &mut self,
        pending: S::Pending,
        certificate: Option<&S::Certificate>,
        missing: crate::Error,
    ) -> Result<Activated, crate::Error> {
        self.stage(pending)?;
        match certificate {
            Some(certificate) => self.activate(certificate),
            None => Err(missing),
        }
    }

    /// Drops the pending generation (a reshare that will not be activated); the current
    /// share is untouched.
    pub fn discard_pending(&mut self) {
        self.pending = None;
    }

    /// The current share, consuming the keyring (a pending generation is dropped).
    pub fn into_current(self) -> Option<S> {
        self.current
    }
}
