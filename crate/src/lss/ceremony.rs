//! The public description of one dealing run, identical at every party: session id,
//! flavour, commitment mode, dealers, receivers, new threshold and (for refresh and
//! reshare) the old group's public data. Built by [`Ceremony::dkg`] (`dkg.rs`),
//! [`Ceremony::refresh`] (`refresh.rs`) and [`Ceremony::reshare`] (`redistribute.rs`).

use alloc::vec::Vec;
use core::fmt;

use super::{Error, GroupPublic, MAX_PARTIES};
use crate::vss::{Curve, Mode};
use crate::wire;
use crate::PartyId;

/// The flavour of a dealing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Kind {
    /// Distributed key generation: a fresh random secret. Wire byte 1.
    Dkg = 1,
    /// Same set, same threshold, same secret, fresh shares. Wire byte 2.
    Refresh = 2,
    /// Any new set and threshold, same secret. Wire byte 3.
    Reshare = 3,
}

impl Kind {
    /// The wire byte.
    pub fn to_byte(self) -> u8 {
        self as u8
    }

    /// Decodes the wire byte.
    ///
    /// # Errors
    /// [`wire::Error::UnknownMode`].
    pub fn from_byte(b: u8) -> Result<Kind, wire::Error> {
        match b {
            1 => Ok(Kind::Dkg),
            2 => Ok(Kind::Refresh),
            3 => Ok(Kind::Reshare),
            other => Err(wire::Error::UnknownMode(other)),
        }
    }
}

/// One dealing run's public parameters. Every participant must build the same value
/// (same session id, sets and old group data); the transcript hash binds all of it.
///
/// The session id must be unique per run (for example a hash of the chain id, the epoch
/// and the purpose): messages of other sessions are rejected.
#[derive(Clone)]
pub struct Ceremony<C: Curve> {
    pub(crate) session: [u8; 32],
    pub(crate) kind: Kind,
    pub(crate) mode: Mode,
    pub(crate) dealers: Vec<PartyId>,
    pub(crate) receivers: Vec<PartyId>,
    pub(crate) threshold: u16,
    pub(crate) old: Option<GroupPublic<C>>,
    /// Reshare only: `λ_i^Q` for each dealer, in dealer order.
    pub(crate) weights: Vec<C::Scalar>,
    /// The scheme and key the activation certificate binds.
    pub(crate) activation: (super::ActivationKind, Vec<u8>),
}

impl<C: Curve> fmt::Debug for Ceremony<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ceremony")
            .field("curve", &C::NAME)
            .field("kind", &self.kind)
            .field("mode", &self.mode)
            .field("dealers", &self.dealers)
            .field("receivers", &self.receivers)
            .field("threshold", &self.threshold)
            .field("old", &self.old)
            .finish_non_exhaustive()
    }
}

impl<C: Curve> Ceremony<C> {
    /// The session id.
    pub fn session(&self) -> &[u8; 32] {
        &self.session
    }

    /// The flavour.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The commitment mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The dealers, increasing.
    pub fn dealers(&self) -> &[PartyId] {
        &self.dealers
    }

    /// The receivers (the new set), increasing.
    pub fn receivers(&self) -> &[PartyId] {
        &self.receivers
    }

    /// The new threshold.
    pub fn threshold(&self) -> u16 {
        self.threshold
    }

    /// The old group's public data (refresh and reshare).
    pub fn old(&self) -> Option<&GroupPublic<C>> {
        self.old.as_ref()
    }

    /// Binds the dealing to the scheme `kind` and its public `key` (Lens: the group key;
    /// Pulsar: the announced key, `C_0` ‖ ceremony hash ‖ `PULG` frame): the session becomes
    /// `cSHAKE256-tuple("QUASAR-LSS-KEYED-SESSION-v1"; session, scheme tag, key)`, so a
    /// participant told another key than the others' sees all their messages as of
    /// another session, and the activation certificate's statement names the key.
    ///
    /// # Errors
    /// [`Error::Vss`] for a key longer than 4096 bytes.
    pub fn with_key(mut self, kind: super::ActivationKind, key: &[u8]) -> Result<Self, Error> {
        if key.len() > super::activation::MAX_KEY_LEN {
            return Err(crate::vss::Error::LengthMismatch {
                expected: super::activation::MAX_KEY_LEN,
                got: key.len(),
            }
            .into());
        }
        let mut t = crate::hash::Transcript::new(crate::hash::tags::LSS_KEYED_SESSION);
        t.append(&self.session).append(kind.tag().as_bytes()).append(key);
        self.session = t.finalize();
        self.activation = (kind, key.to_vec());
        Ok(self)
    }

    /// The scheme the activation certificate names.
    pub fn activation_kind(&self) -> super::ActivationKind {
        self.activation.0
    }

    /// The scheme key the dealing is bound to (empty unless [`Ceremony::with_key`]).
    pub fn key(&self) -> &[u8] {
        &self.activation.1
    }

    /// The generation the run produces: 0 for a DKG, old + 1 otherwise.
    pub fn new_generation(&self) -> u64 {
        self.old.as_ref().map_or(0, |o| o.generation() + 1)
    }

    /// How many dealers must qualify for the run to succeed: the old threshold for a
    /// reshare (enough old shares to carry the secret), the threshold for a DKG or
    /// refresh (so at least one honest dealer contributes randomness while fewer than
    /// `t` parties are corrupt).
    pub fn min_qualified(&self) -> usize {
        match self.kind {
            Kind::Reshare => self.old.as_ref().map_or(1, |o| usize::from(o.threshold())),
            Kind::Dkg | Kind::Refresh => usize::from(self.threshold),
        }
    }

    /// Whether `party` deals.
    pub fn is_dealer(&self, party: PartyId) -> bool {
        self.dealers.binary_search(&party).is_ok()
    }

    /// Whether `party` receives a new share.
    pub fn is_receiver(&self, party: PartyId) -> bool {
        self.receivers.binary_search(&party).is_ok()
    }

    pub(crate) fn dealer_index(&self, party: PartyId) -> Option<usize> {
        self.dealers.binary_search(&party).ok()
    }
}

/// Sorts and checks a party list: non-empty, no duplicates, at most [`MAX_PARTIES`].
pub(crate) fn checked_set(set: &[PartyId]) -> Result<Vec<PartyId>, Error> {
    let sorted = crate::vss::shamir::sorted_set(set).map_err(|e| match e {
        crate::vss::Error::DuplicateParty { party } => Error::DuplicateParty { party },
        other => Error::Vss(other),
    })?;
    if sorted.len() > MAX_PARTIES {
        return Err(Error::InvalidThreshold {
            threshold: 0,
            parties: sorted.len(),
        });
    }
    Ok(sorted)
}

/// Checks `1 ≤ threshold ≤ n`.
pub(crate) fn check_threshold(threshold: u16, n: usize) -> Result<(), Error> {
    if threshold == 0 || usize::from(threshold) > n {
        return Err(Error::InvalidThreshold {
            threshold: usize::from(threshold),
            parties: n,
        });
    }
    Ok(())
}

/// Checks that every dealer is an old party and that there are at least `needed`.
pub(crate) fn check_dealers<C: Curve>(
    dealers: &[PartyId],
    old: &GroupPublic<C>,
    needed: usize,
) -> Result<(), Error> {
    for &d in dealers {
        if old.parties().binary_search(&d).is_err() {
            return Err(Error::DealerNotInOldSet { party: d });
        }
    }
    if dealers.len() < needed {
        return Err(Error::NotEnoughDealers {
            needed,
            got: dealers.len(),
        });
    }
    Ok(())
}
