//! The reshare path: the keyed LSS dealing (refresh or reshare) with its activation
//! round, ending in the member's keyring.
//!
//! | phase | takes | sends |
//! |---|---|---|
//! | dealing | `LSD1` `LSP1` `LSC1` `LSR1` | as [`crate::lss::DealingParty`] |
//! | activation | `LSV1` | — ([`Reshared`]) |
//!
//! When the dealing finishes, the member stages the new generation in its keyring
//! ([`Keyring::stage`]) and applies the activation certificate the round collected
//! ([`Keyring::activate`]): only if it verifies is the old share erased.

use alloc::vec::Vec;

use rand_core::CryptoRngCore;

use super::keyring::Pending;
use super::params::ReshareParams;
use super::{start_dealing, KNOWN};
use crate::lss::{ActivationCertificate, DealingParty, GroupPublic, DEALING_MAGICS};
use crate::party::inbox::merged;
use crate::party::keyring::{Activated, Keyring};
use crate::party::route::route;
use crate::party::{Blame, Incoming, Misbehaviour, Outgoing, Party, Step};
use crate::pulsar::custody::KeyShare;
use crate::pulsar::Error;
use crate::vss::Ristretto255 as R;
use crate::PartyId;

/// What a member ends the reshare path with.
#[derive(Debug)]
pub struct Reshared {
    /// The member's keyring: the new generation current and the old share erased when
    /// `activated` is `Ok`; otherwise the old share current and the new one pending.
    pub keyring: Keyring<KeyShare>,
    /// What accepting the activation certificate did, or why it was refused.
    pub activated: Result<Activated, crate::Error>,
    /// The activation certificate of the new generation (publish it: it is the new key
    /// record's certificate).
    pub certificate: Option<ActivationCertificate>,
    /// The new generation's public data.
    pub public: GroupPublic<R>,
    /// The qualified dealers, increasing.
    pub qualified: Vec<PartyId>,
    /// Protocol faults (identical at every honest participant).
    pub blame: Vec<Blame>,
    /// Every message this member dropped, with its sender and why.
    pub dropped: Vec<Blame>,
}

/// A participant of the reshare path (see the module docs).
pub(super) struct MemberReshare {
    me: PartyId,
    params: ReshareParams,
    party: Option<DealingParty<R>>,
    keyring: Option<Keyring<KeyShare>>,
    dropped: Vec<Blame>,
}

impl MemberReshare {
    /// Starts `me`'s part with its current share from `keyring` (none for a new member);
    /// on success the keyring moves into the party, on error it is left as it was.
    pub(super) fn start(
        me: PartyId,
        keyring: &mut Keyring<KeyShare>,
        params: &ReshareParams,
        cheat: Misbehaviour,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(MemberReshare, Outgoing), Error> {
        let old = keyring.current().map(KeyShare::lss);
        let (party, out) = start_dealing(params.ceremony.clone(), me, old, cheat, rng)?;
        let member = MemberReshare {
            me,
            params: params.clone(),
            party: Some(party),
            keyring: Some(core::mem::take(keyring)),
            dropped: Vec::new(),
        };
        Ok((member, out))
    }

    pub(super) fn id(&self) -> PartyId {
        self.me
    }

    pub(super) fn phase(&self) -> Option<&'static str> {
        self.party.as_ref().map(|_| "dealing")
    }

    pub(super) fn dealing(&self) -> Option<&DealingParty<R>> {
        self.party.as_ref()
    }

    /// The keyring (until the path finishes, when the output carries it).
    pub(super) fn into_keyring(self) -> Option<Keyring<KeyShare>> {
        self.keyring
    }

    pub(super) fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<Reshared>, crate::Error> {
        let before = self.dropped.len();
        let Some(party) = self.party.as_mut() else {
            return Err(crate::party::Error::Finished.into());
        };
        let msgs = route(self.me, inbox, &DEALING_MAGICS, &[], &KNOWN, &mut self.dropped);
        let outcome = match party.step(&msgs) {
            Ok(Step::Done(_, outcome)) => outcome,
            Ok(Step::Continue(o)) => return Ok(Step::Continue(o)),
            Ok(Step::Waiting) => return Ok(Step::Waiting),
            Err(e) => {
                self.dropped.truncate(before);
                return Err(e);
            }
        };
        self.party = None;
        let mut keyring = self.keyring.take().unwrap_or_default();
        let pending = Pending {
            share: outcome.key_share,
            public: outcome.public.clone(),
            group_key: self.params.group_key.clone(),
        };
        let missing = crate::lss::Error::NotEnoughPossessionProofs {
            needed: usize::from(outcome.public.threshold()),
            got: 0,
            culprits: Vec::new(),
        };
        let activated = keyring.stage_and_activate(pending, outcome.activation.as_ref(), missing.into());
        let dropped = merged(&mut self.dropped, outcome.dropped);
        Ok(Step::Done(
            Outgoing::none(),
            Reshared {
                keyring,
                activated,
                certificate: outcome.activation,
                public: outcome.public,
                qualified: outcome.qualified,
                blame: outcome.blame,
                dropped,
            },
        ))
    }
}
