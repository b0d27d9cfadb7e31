//! The Lens member and coordinator parties.

use alloc::vec::Vec;

use rand_core::CryptoRngCore;

use super::keyring::Pending;
use super::KNOWN;
use crate::lens::round1::MAGIC_SIGNING_COMMITMENTS;
use crate::lens::round2::{MAGIC_SIGNATURE_SHARE, MAGIC_SIGNING_PACKAGE};
use crate::lens::{
    Ceremony, CoordinatorOutcome, CoordinatorParty, DealingParty, Error, KeyShare, PublicKeyPackage,
    SignerOutcome, SignerParty,
};
use crate::lss::{ActivationCertificate, DEALING_MAGICS};
use crate::party::inbox::merged;
use crate::party::keyring::{Activated, Keyring};
use crate::party::route::route;
use crate::party::{Blame, Incoming, Outgoing, Party, Round, Step};
use crate::PartyId;

/// What a member ends the key generation with.
#[derive(Debug)]
pub struct Setup {
    /// Its key share (generation 0).
    pub key_share: KeyShare,
    /// The key's public package.
    pub public: PublicKeyPackage,
    /// The qualified dealers, increasing.
    pub qualified: Vec<PartyId>,
    /// Protocol faults (identical at every honest member).
    pub blame: Vec<Blame>,
    /// Every message this member dropped, with its sender and why.
    pub dropped: Vec<Blame>,
}

/// What a member ends a refresh or reshare with.
#[derive(Debug)]
pub struct Reshared {
    /// The keyring: the new generation current and the old share erased when
    /// `activated` is `Ok`; otherwise the old share current and the new one pending.
    pub keyring: Keyring<KeyShare>,
    /// What accepting the activation certificate did, or why it was refused.
    pub activated: Result<Activated, crate::Error>,
    /// The activation certificate of the new generation.
    pub certificate: Option<ActivationCertificate>,
    /// The new generation's public package.
    pub public: PublicKeyPackage,
    /// The qualified dealers, increasing.
    pub qualified: Vec<PartyId>,
    /// Protocol faults.
    pub blame: Vec<Blame>,
    /// Every message this member dropped.
    pub dropped: Vec<Blame>,
}

/// What a Lens member ends a path with.
#[derive(Debug)]
// One value per party, moved once per phase: boxing the larger variants would buy
// nothing next to the cryptography of a step.
#[allow(clippy::large_enum_variant)]
pub enum MemberOutcome {
    /// Key generation.
    Setup(Setup),
    /// Signing: its signature share went to the coordinator.
    Signed(SignerOutcome),
    /// Refresh or reshare.
    Reshared(Reshared),
}

impl MemberOutcome {
    /// The key generation's result.
    pub fn into_setup(self) -> Option<Setup> {
        match self {
            MemberOutcome::Setup(s) => Some(s),
            _ => None,
        }
    }

    /// The reshare's result.
    pub fn into_reshared(self) -> Option<Reshared> {
        match self {
            MemberOutcome::Reshared(r) => Some(r),
            _ => None,
        }
    }
}

// One value per party, moved once per phase: boxing the larger variants would buy
// nothing next to the cryptography of a step.
#[allow(clippy::large_enum_variant)]
enum Path {
    Setup(DealingParty),
    Sign(SignerParty),
    Reshare(DealingParty, Option<Keyring<KeyShare>>),
    Finished,
}

/// A member of a Lens group on one of its paths (see the [module docs](super)).
///
/// # Security
/// Holds its share, nonces or keyring: wiped on drop.
pub struct Member {
    me: PartyId,
    path: Path,
    dropped: Vec<Blame>,
}

impl core::fmt::Debug for Member {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("lens::Member")
            .field("id", &self.me)
            .finish_non_exhaustive()
    }
}

impl Member {
    /// Starts `me`'s key generation (`ceremony` from [`Ceremony::keygen`]).
    ///
    /// # Errors
    /// As [`Ceremony::start`].
    pub fn keygen(
        me: PartyId,
        ceremony: &Ceremony,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Member, Outgoing), Error> {
        let (party, out) = ceremony.start(me, None, rng)?;
        Ok((Member::new(me, Path::Setup(party)), out))
    }

    /// Starts a signing path with `share`: commitments to `coordinator` for `message`.
    ///
    /// # Errors
    /// As [`SignerParty::start`].
    pub fn sign(
        share: &KeyShare,
        coordinator: PartyId,
        message: &[u8],
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Member, Outgoing), Error> {
        let (party, out) = SignerParty::start(share, coordinator, message, rng)?;
        Ok((Member::new(share.party(), Path::Sign(party)), out))
    }

    /// Starts `me`'s refresh or reshare (`ceremony` from [`Ceremony::refresh`] or
    /// [`Ceremony::reshare`]) with its `keyring` (empty for a joining member); on success
    /// the keyring moves into the party and comes back in [`Reshared::keyring`] (or
    /// [`Member::into_keyring`]), on error it is untouched.
    ///
    /// # Errors
    /// As [`Ceremony::start`].
    pub fn reshare(
        me: PartyId,
        keyring: &mut Keyring<KeyShare>,
        ceremony: &Ceremony,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Member, Outgoing), Error> {
        let (party, out) = ceremony.start(me, keyring.current(), rng)?;
        let keyring = core::mem::take(keyring);
        Ok((Member::new(me, Path::Reshare(party, Some(keyring))), out))
    }

    /// As [`Member::keygen`], for a member that misbehaves as `cheat` says.
    ///
    /// # Errors
    /// As [`Member::keygen`].
    #[cfg(feature = "hazmat")]
    pub fn keygen_cheating(
        me: PartyId,
        ceremony: &Ceremony,
        cheat: crate::party::hazmat::Cheat,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Member, Outgoing), Error> {
        let (party, out) = ceremony.start_cheating(me, None, cheat, rng)?;
        Ok((Member::new(me, Path::Setup(party)), out))
    }

    /// As [`Member::sign`], for a signer that misbehaves as `cheat` says.
    ///
    /// # Errors
    /// As [`Member::sign`].
    #[cfg(feature = "hazmat")]
    pub fn sign_cheating(
        share: &KeyShare,
        coordinator: PartyId,
        message: &[u8],
        cheat: crate::party::hazmat::Cheat,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Member, Outgoing), Error> {
        let (party, out) = SignerParty::start_cheating(share, coordinator, message, cheat, rng)?;
        Ok((Member::new(share.party(), Path::Sign(party)), out))
    }

    /// As [`Member::reshare`], for a participant that misbehaves as `cheat` says.
    ///
    /// # Errors
    /// As [`Member::reshare`].
    #[cfg(feature = "hazmat")]
    pub fn reshare_cheating(
        me: PartyId,
        keyring: &mut Keyring<KeyShare>,
        ceremony: &Ceremony,
        cheat: crate::party::hazmat::Cheat,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Member, Outgoing), Error> {
        let (party, out) = ceremony.start_cheating(me, keyring.current(), cheat, rng)?;
        let keyring = core::mem::take(keyring);
        Ok((Member::new(me, Path::Reshare(party, Some(keyring))), out))
    }

    fn new(me: PartyId, path: Path) -> Member {
        Member {
            me,
            path,
            dropped: Vec::new(),
        }
    }

    /// The keyring of a reshare path that has not finished.
    pub fn into_keyring(self) -> Option<Keyring<KeyShare>> {
        match self.path {
            Path::Reshare(_, keyring) => keyring,
            _ => None,
        }
    }
}

impl Party for Member {
    type Output = MemberOutcome;

    fn id(&self) -> PartyId {
        self.me
    }

    fn round(&self) -> Option<Round> {
        match &self.path {
            Path::Setup(p) | Path::Reshare(p, _) => p.round(),
            Path::Sign(p) => p.round(),
            Path::Finished => None,
        }
    }

    /// # Errors
    /// The inner protocol's terminal failures; [`crate::party::Error::Finished`]. On
    /// error the member is exactly where it was.
    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<MemberOutcome>, crate::Error> {
        let before = self.dropped.len();
        let result = self.advance(inbox);
        if result.is_err() {
            self.dropped.truncate(before);
        }
        result
    }
}

impl Member {
    fn advance(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<MemberOutcome>, crate::Error> {
        let me = self.me;
        match &mut self.path {
            Path::Setup(party) => {
                let msgs = route(me, inbox, &DEALING_MAGICS[..4], &[], &KNOWN, &mut self.dropped);
                let (out, o) = match party.step(&msgs)? {
                    Step::Done(out, o) => (out, o),
                    Step::Continue(out) => return Ok(Step::Continue(out)),
                    Step::Waiting => return Ok(Step::Waiting),
                };
                let key_share = o
                    .key_share
                    .ok_or(Error::Internal("a key-generation party without a share"))?;
                let dropped = merged(&mut self.dropped, o.dropped);
                self.path = Path::Finished;
                Ok(Step::Done(
                    out,
                    MemberOutcome::Setup(Setup {
                        key_share,
                        public: o.public,
                        qualified: o.qualified,
                        blame: o.blame,
                        dropped,
                    }),
                ))
            }
            Path::Sign(party) => {
                let msgs = route(
                    me,
                    inbox,
                    &[MAGIC_SIGNING_PACKAGE],
                    &[],
                    &KNOWN,
                    &mut self.dropped,
                );
                match party.step(&msgs)? {
                    Step::Done(out, mut o) => {
                        o.dropped.append(&mut self.dropped);
                        crate::party::inbox::tidy(&mut o.dropped);
                        self.path = Path::Finished;
                        Ok(Step::Done(out, MemberOutcome::Signed(o)))
                    }
                    Step::Continue(o) => Ok(Step::Continue(o)),
                    Step::Waiting => Ok(Step::Waiting),
                }
            }
            Path::Reshare(party, keyring) => {
                let msgs = route(me, inbox, &DEALING_MAGICS, &[], &KNOWN, &mut self.dropped);
                let o = match party.step(&msgs)? {
                    Step::Done(_, o) => o,
                    Step::Continue(out) => return Ok(Step::Continue(out)),
                    Step::Waiting => return Ok(Step::Waiting),
                };
                let mut keyring = keyring.take().unwrap_or_default();
                let activated = keyring.stage_and_activate(
                    Pending::new(o.key_share, o.public.clone()),
                    o.activation.as_ref(),
                    crate::party::Error::NothingPending.into(),
                );
                let dropped = merged(&mut self.dropped, o.dropped);
                self.path = Path::Finished;
                Ok(Step::Done(
                    Outgoing::none(),
                    MemberOutcome::Reshared(Reshared {
                        keyring,
                        activated,
                        certificate: o.activation,
                        public: o.public,
                        qualified: o.qualified,
                        blame: o.blame,
                        dropped,
                    }),
                ))
            }
            Path::Finished => Err(crate::party::Error::Finished.into()),
        }
    }
}

/// The coordinator of a Lens signing path.
pub struct Coordinator {
    inner: CoordinatorParty,
    dropped: Vec<Blame>,
}

impl core::fmt::Debug for Coordinator {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("lens::Coordinator")
            .field("id", &self.inner.id())
            .finish_non_exhaustive()
    }
}

impl Coordinator {
    /// Starts coordinating the signature of `message` under `public`'s key as `me`.
    ///
    /// # Errors
    /// As [`CoordinatorParty::start`].
    pub fn sign(
        me: PartyId,
        public: &PublicKeyPackage,
        message: &[u8],
    ) -> Result<(Coordinator, Outgoing), Error> {
        let (inner, out) = CoordinatorParty::start(me, public, message)?;
        Ok((
            Coordinator {
                inner,
                dropped: Vec::new(),
            },
            out,
        ))
    }
}

impl Party for Coordinator {
    type Output = CoordinatorOutcome;

    fn id(&self) -> PartyId {
        self.inner.id()
    }

    fn round(&self) -> Option<Round> {
        self.inner.round()
    }

    /// # Errors
    /// As [`CoordinatorParty`]'s step (an invalid signature share names every culprit).
    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<CoordinatorOutcome>, crate::Error> {
        let before = self.dropped.len();
        let kinds = [MAGIC_SIGNING_COMMITMENTS, MAGIC_SIGNATURE_SHARE];
        let msgs = route(self.inner.id(), inbox, &kinds, &[], &KNOWN, &mut self.dropped);
        match self.inner.step(&msgs) {
            Ok(Step::Done(out, mut o)) => {
                o.dropped.append(&mut self.dropped);
                crate::party::inbox::tidy(&mut o.dropped);
                Ok(Step::Done(out, o))
            }
            Ok(other) => Ok(other),
            Err(e) => {
                self.dropped.truncate(before);
                Err(e)
            }
        }
    }
}
