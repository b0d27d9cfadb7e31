//! Refresh (same set, same threshold, same secret): HJKY-style zero sharings. Each
//! dealer shares 0 (and, in Pedersen mode, a zero blind), so its constant-term
//! commitment must be the identity — which proves the constant is zero (in Pedersen mode
//! `0·G + b·H` is the identity only for `b = 0`, since nobody knows `log_G H`). Each
//! party adds what it receives to its old share; the new commitments are the old ones
//! plus the qualified dealers'.

use alloc::vec::Vec;

use super::ceremony::{check_dealers, checked_set};
use super::{ActivationKind, Ceremony, Error, GroupPublic, Kind};
use crate::vss::Curve;
use crate::PartyId;

impl<C: Curve> Ceremony<C> {
    /// A refresh of the group `old` by `dealers` (old parties; at least `t` of them).
    /// Receivers are all old parties; the threshold and mode are unchanged.
    ///
    /// # Errors
    /// [`Error::DuplicateParty`], [`Error::DealerNotInOldSet`],
    /// [`Error::NotEnoughDealers`].
    pub fn refresh(session: [u8; 32], old: &GroupPublic<C>, dealers: &[PartyId]) -> Result<Self, Error> {
        let dealers = checked_set(dealers)?;
        check_dealers(&dealers, old, usize::from(old.threshold()))?;
        Ok(Ceremony {
            session,
            kind: Kind::Refresh,
            mode: old.mode(),
            dealers,
            receivers: old.parties().to_vec(),
            threshold: old.threshold(),
            old: Some(old.clone()),
            weights: Vec::new(),
            activation: (ActivationKind::Lss, Vec::new()),
        })
    }
}
