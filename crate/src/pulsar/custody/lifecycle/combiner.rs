//! The combiner role: one party type for the paths a combiner runs.

use rand_core::CryptoRngCore;

use super::member::round;
use super::params::{SetupParams, SignParams};
use super::setup::{Certified, CombinerSetup};
use super::sign::CombinerSign;
use crate::lss::GroupPublic;
use crate::party::{Incoming, Outgoing, Party, Round, Step};
use crate::pulsar::custody::{CombinerKey, GroupKey, Signed};
use crate::pulsar::Error;
use crate::vss::Ristretto255 as R;
use crate::PartyId;

/// What the combiner ends a path with.
#[derive(Debug)]
// One value per party, moved once per phase: boxing the larger variants would buy
// nothing next to the cryptography of a step.
#[allow(clippy::large_enum_variant)]
pub enum CombinerOutcome {
    /// The setup path: the group's certified public record.
    Certified(Certified),
    /// The sign path: the signature.
    Signed(Signed),
}

impl CombinerOutcome {
    /// The setup result, if this was the setup path.
    pub fn into_certified(self) -> Option<Certified> {
        match self {
            CombinerOutcome::Certified(c) => Some(c),
            CombinerOutcome::Signed(_) => None,
        }
    }

    /// The signature, if this was the sign path.
    pub fn into_signed(self) -> Option<Signed> {
        match self {
            CombinerOutcome::Signed(s) => Some(s),
            CombinerOutcome::Certified(_) => None,
        }
    }
}

// One value per party, moved once per phase: boxing the larger variants would buy
// nothing next to the cryptography of a step.
#[allow(clippy::large_enum_variant)]
enum Path {
    Setup(CombinerSetup),
    Sign(CombinerSign),
}

/// The combiner of a Pulsar custody group, on one of its paths (see the
/// [module docs](super) for the call sequences).
///
/// # Security
/// **The combiner is trusted while it signs**: it rebuilds the group's ML-DSA key in
/// memory (at the key ceremony and in every signing session) and could keep it. It holds
/// a fresh ML-KEM decapsulation key per session, wiped on drop.
pub struct Combiner {
    me: PartyId,
    path: Path,
}

impl core::fmt::Debug for Combiner {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("custody::Combiner")
            .field("id", &self.me)
            .field("round", &self.round())
            .finish_non_exhaustive()
    }
}

impl Combiner {
    /// Starts the combiner's setup path (it waits for the members' sharing reports).
    pub fn setup(params: &SetupParams, rng: &mut impl CryptoRngCore) -> (Combiner, Outgoing) {
        let (inner, out) = CombinerSetup::start(params, rng);
        (
            Combiner {
                me: params.combiner,
                path: Path::Setup(inner),
            },
            out,
        )
    }

    /// Starts a sign path for the group whose public record is (`group_key`, `public`):
    /// a fresh combiner key, the session, and its broadcast.
    ///
    /// # Errors
    /// As [`crate::pulsar::custody::Session::sign`].
    pub fn sign(
        params: &SignParams,
        group_key: &GroupKey,
        public: &GroupPublic<R>,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Combiner, Outgoing), Error> {
        let (inner, out) = CombinerSign::start(params, group_key, public, false, rng)?;
        Ok((
            Combiner {
                me: params.combiner,
                path: Path::Sign(inner),
            },
            out,
        ))
    }

    /// As [`Combiner::sign`], with a combiner key made elsewhere (it must be
    /// `params`' combiner's; use a fresh one per session): the signing randomness still
    /// comes from `rng`.
    ///
    /// # Errors
    /// As [`Combiner::sign`]; [`Error::CombinerMismatch`] for another combiner's key.
    pub fn sign_with_key(
        key: CombinerKey,
        params: &SignParams,
        group_key: &GroupKey,
        public: &GroupPublic<R>,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Combiner, Outgoing), Error> {
        let (inner, out) = CombinerSign::start_with_key(key, params, group_key, public, false, rng)?;
        Ok((
            Combiner {
                me: params.combiner,
                path: Path::Sign(inner),
            },
            out,
        ))
    }

    /// As [`Combiner::sign`], signing deterministically (FIPS 204 `rnd = 0³²`): the
    /// same shares give the same signature (known-answer vectors).
    ///
    /// # Errors
    /// As [`Combiner::sign`].
    pub fn sign_deterministic(
        params: &SignParams,
        group_key: &GroupKey,
        public: &GroupPublic<R>,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Combiner, Outgoing), Error> {
        let (inner, out) = CombinerSign::start(params, group_key, public, true, rng)?;
        Ok((
            Combiner {
                me: params.combiner,
                path: Path::Sign(inner),
            },
            out,
        ))
    }
}

impl Party for Combiner {
    type Output = CombinerOutcome;

    fn id(&self) -> PartyId {
        self.me
    }

    fn round(&self) -> Option<Round> {
        round(match &self.path {
            Path::Setup(p) => p.phase(),
            Path::Sign(p) => p.phase(),
        })
    }

    /// # Errors
    /// The session's terminal failure ([`Error::NotEnoughValidShares`] with every
    /// culprit), [`Error::GroupKeyMismatch`]; [`crate::party::Error::Finished`]. A peer's
    /// bad message is never an error. On error the combiner is exactly where it was.
    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<CombinerOutcome>, crate::Error> {
        match &mut self.path {
            Path::Setup(p) => Ok(p.step(inbox)?.map(CombinerOutcome::Certified)),
            Path::Sign(p) => Ok(p.step(inbox)?.map(CombinerOutcome::Signed)),
        }
    }
}
