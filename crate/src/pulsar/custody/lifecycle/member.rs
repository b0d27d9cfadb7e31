//! The member role: one party type for every path a member of a custody group runs.

use rand_core::CryptoRngCore;

use super::params::{ReshareParams, SetupParams, SignParams};
use super::reshare::{MemberReshare, Reshared};
use super::setup::{MemberSetup, Setup};
use super::sign::MemberSign;
use crate::lss::DealingParty;
use crate::party::keyring::Keyring;
use crate::party::{Incoming, Misbehaviour, Outgoing, Party, Round, Step};
use crate::pulsar::custody::{KeyShare, SignerOutcome};
use crate::pulsar::Error;
use crate::vss::Ristretto255 as R;
use crate::PartyId;

/// What a member ends a path with.
#[derive(Debug)]
// One value per party, moved once per phase: boxing the larger variants would buy
// nothing next to the cryptography of a step.
#[allow(clippy::large_enum_variant)]
pub enum MemberOutcome {
    /// The setup path: its custody share of the certified group key.
    Setup(Setup),
    /// The sign path: its share was released to the combiner of the session it checked.
    Released(SignerOutcome),
    /// The reshare path: its keyring at the new generation (or the old one kept, if the
    /// activation was refused).
    Reshared(Reshared),
}

impl MemberOutcome {
    /// The setup result, if this was the setup path.
    pub fn into_setup(self) -> Option<Setup> {
        match self {
            MemberOutcome::Setup(s) => Some(s),
            _ => None,
        }
    }

    /// The signer's result, if this was the sign path.
    pub fn into_released(self) -> Option<SignerOutcome> {
        match self {
            MemberOutcome::Released(s) => Some(s),
            _ => None,
        }
    }

    /// The reshare result, if this was the reshare path.
    pub fn into_reshared(self) -> Option<Reshared> {
        match self {
            MemberOutcome::Reshared(r) => Some(r),
            _ => None,
        }
    }
}

// One per member, never in a collection; boxing the paths cost the Pulsar custody module
// 0.2 KB gzip of its 200 KB budget.
#[allow(clippy::large_enum_variant)]
enum Path {
    Setup(MemberSetup),
    Sign(MemberSign),
    Reshare(MemberReshare),
}

/// A member of a Pulsar custody group, on one of its paths (see the
/// [module docs](super) for the call sequences).
///
/// # Security
/// Holds its share (and, on the reshare path, its keyring): wiped on drop. On the sign
/// path it releases its share only to the combiner of a session it checked against its
/// own parameters — a combiner it must trust while it signs.
pub struct Member {
    path: Path,
}

impl core::fmt::Debug for Member {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("custody::Member")
            .field("id", &self.id())
            .field("round", &self.round())
            .finish_non_exhaustive()
    }
}

impl Member {
    /// Starts `me`'s setup path: the DKG's first messages.
    ///
    /// # Errors
    /// [`Error::Lss`] with `NotAParticipant` (not a member of `params`).
    pub fn setup(
        me: PartyId,
        params: &SetupParams,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Member, Outgoing), Error> {
        Self::setup_with(me, params, None, rng)
    }

    /// Starts a sign path with `share`: the member waits for the combiner's session.
    ///
    /// # Errors
    /// [`Error::NotASigner`].
    pub fn sign(
        share: &KeyShare,
        params: &SignParams,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Member, Outgoing), Error> {
        Self::sign_with(share, params, None, rng)
    }

    /// Starts `me`'s reshare path with its `keyring` (empty for a member joining the
    /// group): the dealing's first messages. On success the keyring moves into the party
    /// (left empty here) and comes back in [`Reshared::keyring`] (or through
    /// [`Member::into_keyring`]); on error it is untouched.
    ///
    /// # Errors
    /// As [`crate::lss::DealingParty::start`] ([`Error::Lss`]).
    pub fn reshare(
        me: PartyId,
        keyring: &mut Keyring<KeyShare>,
        params: &ReshareParams,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Member, Outgoing), Error> {
        Self::reshare_with(me, keyring, params, None, rng)
    }

    /// As [`Member::setup`], for a member that misbehaves as `cheat` says (in the DKG and
    /// its release).
    ///
    /// # Errors
    /// As [`Member::setup`].
    #[cfg(feature = "hazmat")]
    pub fn setup_cheating(
        me: PartyId,
        params: &SetupParams,
        cheat: crate::party::hazmat::Cheat,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Member, Outgoing), Error> {
        Self::setup_with(me, params, Some(cheat), rng)
    }

    /// As [`Member::sign`], for a signer that misbehaves as `cheat` says.
    ///
    /// # Errors
    /// As [`Member::sign`].
    #[cfg(feature = "hazmat")]
    pub fn sign_cheating(
        share: &KeyShare,
        params: &SignParams,
        cheat: crate::party::hazmat::Cheat,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Member, Outgoing), Error> {
        Self::sign_with(share, params, Some(cheat), rng)
    }

    /// As [`Member::reshare`], for a participant that misbehaves as `cheat` says.
    ///
    /// # Errors
    /// As [`Member::reshare`].
    #[cfg(feature = "hazmat")]
    pub fn reshare_cheating(
        me: PartyId,
        keyring: &mut Keyring<KeyShare>,
        params: &ReshareParams,
        cheat: crate::party::hazmat::Cheat,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Member, Outgoing), Error> {
        Self::reshare_with(me, keyring, params, Some(cheat), rng)
    }

    fn setup_with(
        me: PartyId,
        params: &SetupParams,
        cheat: Misbehaviour,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Member, Outgoing), Error> {
        let (inner, out) = MemberSetup::start(me, params, cheat, rng)?;
        Ok((
            Member {
                path: Path::Setup(inner),
            },
            out,
        ))
    }

    fn sign_with(
        share: &KeyShare,
        params: &SignParams,
        cheat: Misbehaviour,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Member, Outgoing), Error> {
        let (inner, out) = MemberSign::start(share, params, cheat, rng)?;
        Ok((
            Member {
                path: Path::Sign(inner),
            },
            out,
        ))
    }

    fn reshare_with(
        me: PartyId,
        keyring: &mut Keyring<KeyShare>,
        params: &ReshareParams,
        cheat: Misbehaviour,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Member, Outgoing), Error> {
        let (inner, out) = MemberReshare::start(me, keyring, params, cheat, rng)?;
        Ok((
            Member {
                path: Path::Reshare(inner),
            },
            out,
        ))
    }

    /// The dealing party inside, while the member is in a dealing (for its
    /// [`DealingParty::dropped`] list so far).
    pub fn dealing(&self) -> Option<&DealingParty<R>> {
        match &self.path {
            Path::Setup(p) => p.dealing(),
            Path::Reshare(p) => p.dealing(),
            Path::Sign(_) => None,
        }
    }

    /// The keyring a reshare path holds (for example after a step failed for good): the
    /// old share is still current unless a verified activation replaced it.
    pub fn into_keyring(self) -> Option<Keyring<KeyShare>> {
        match self.path {
            Path::Reshare(p) => p.into_keyring(),
            _ => None,
        }
    }
}

/// Numbers the phases of a path for progress displays.
pub(super) fn round(name: Option<&'static str>) -> Option<Round> {
    let names = [
        "DKG",
        "dealing",
        "await sharing",
        "await session",
        "release",
        "combine",
        "await announcement",
        "certify",
        "observe certification",
    ];
    let name = name?;
    let number = names.iter().position(|n| *n == name).map_or(1, |i| i + 1);
    Some(Round {
        number: u8::try_from(number).unwrap_or(u8::MAX),
        name,
    })
}

impl Party for Member {
    type Output = MemberOutcome;

    fn id(&self) -> PartyId {
        match &self.path {
            Path::Setup(p) => p.id(),
            Path::Sign(p) => p.id(),
            Path::Reshare(p) => p.id(),
        }
    }

    /// The phase the next step runs (numbered by phase, not by inbox).
    /// The path's phase; on the reshare path the keyed dealing's own round ("check
    /// shares", …, "activate"), which is the whole path.
    fn round(&self) -> Option<Round> {
        match &self.path {
            Path::Setup(p) => round(p.phase()),
            Path::Sign(p) => round(p.phase()),
            Path::Reshare(p) => p.dealing().and_then(Party::round).or_else(|| round(p.phase())),
        }
    }

    /// # Errors
    /// The inner protocol's terminal failures (too few honest parties: the dealing's
    /// `NotEnoughQualified`, the session's `NotEnoughSigners`, the certification's
    /// `NotEnoughPossessionProofs`) with every culprit; [`crate::party::Error::Finished`].
    /// A peer's bad message is never an error. On error the member is exactly where it
    /// was.
    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<MemberOutcome>, crate::Error> {
        match &mut self.path {
            Path::Setup(p) => Ok(p.step(inbox)?.map(MemberOutcome::Setup)),
            Path::Sign(p) => Ok(p.step(inbox)?.map(MemberOutcome::Released)),
            Path::Reshare(p) => Ok(p.step(inbox)?.map(MemberOutcome::Reshared)),
        }
    }
}
