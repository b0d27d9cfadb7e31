//! Lens key generation, refresh and reshare: the [`crate::lss`] dealing party in Feldman
//! mode, with its outcome turned into Lens key shares and public key packages.
//!
//! **Key generation** ([`Ceremony::keygen`], the recommended way to make a Lens key
//! without a trusted dealer): every party deals a random polynomial with a Schnorr proof
//! of knowledge of its constant term (bound to the session, the curve and the dealer,
//! against rogue-key contributions); the key is the sum over the **qualified** dealers.
//! A dealer with a bad share, proof or commitment is excluded and named while the others
//! still get a working key (the FROST DKG of RFC 9591's companion papers aborts instead,
//! and its finish step costs `O(n²·t)` scalar multiplications across the group; the
//! kernel batches every check). On secp256k1 the result is post-processed exactly as
//! `frost-secp256k1-tr` post-processes its DKG keys (BIP-340 even-`y`, BIP-341 tweak), so
//! signatures verify under BIP-340 with the x-only group key.
//!
//! **Refresh and reshare** ([`Ceremony::refresh`], [`Ceremony::reshare`]): new shares of
//! the same key for the same or a new set and threshold, the group key byte-identical;
//! every dealer's contribution is checked against the current commitment. Old shares are
//! never modified: if the run fails, the old generation keeps signing. The new shares and
//! package carry the epoch `(generation + 1, transcript hash)`, and signing refuses to mix
//! epochs.
//!
//! Each participant runs a [`DealingParty`] ([`Ceremony::start`]) with the rounds of the
//! LSS dealing party: broadcasts need a reliable broadcast channel, shares a confidential,
//! authenticated one.

use alloc::vec::Vec;
use core::fmt;

use rand_core::CryptoRngCore;

use super::ciphersuite::{with_suite, Suite};
use super::convert::{keygen_share_g, public_from_lss_g, share_from_lss_g};
use super::keys::{check_keygen_params, PublicKeyPackage};
use super::share::KeyShare;
use super::{Curve, Error, KeyEpoch};
use crate::lss::{
    self, ActivationCertificate, ActivationKind, AnyCeremony, AnyKeyShare, AnyOutcome, Dealing,
};
use crate::party::{culprits, Blame, Incoming, Outgoing, Party, Round, Step};
use crate::vss::Mode;
use crate::PartyId;

/// What a dealing is for, and so how its outcome becomes Lens keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose {
    /// Generation 0, with the ciphersuite's DKG post-processing.
    Keygen,
    /// A new generation of the key of this epoch.
    Reshare(KeyEpoch),
}

/// The public parameters of one Lens dealing, identical at every participant.
#[derive(Clone)]
pub struct Ceremony {
    inner: AnyCeremony,
    purpose: Purpose,
}

impl fmt::Debug for Ceremony {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("lens::Ceremony")
            .field("purpose", &self.purpose)
            .field("inner", &self.inner)
            .finish()
    }
}

impl Ceremony {
    /// A key generation among `parties` (any order) with threshold `threshold`.
    ///
    /// `session` must be unique to this run and the same at every party; it is bound into
    /// every message and the transcript.
    ///
    /// # Errors
    /// [`Error::InvalidThreshold`] unless 2 ≤ `threshold` ≤ `parties.len()`;
    /// [`Error::Lss`] with `DuplicateParty` for a repeated party.
    pub fn keygen(
        curve: Curve,
        session: [u8; 32],
        parties: &[PartyId],
        threshold: u16,
    ) -> Result<Ceremony, Error> {
        let mut set: Vec<PartyId> = parties.to_vec();
        crate::sort::heapsort(&mut set);
        set.dedup();
        if set.len() == parties.len() {
            check_keygen_params(threshold, &set.iter().copied().collect())?;
        }
        let inner = AnyCeremony::dkg(curve, session, Mode::Feldman, parties, threshold)?;
        Ok(Ceremony {
            inner,
            purpose: Purpose::Keygen,
        })
    }

    /// A refresh (same set, same threshold, fresh shares of the same key) by `dealers`
    /// (at least `t` current parties; more lets a cheater be dropped).
    ///
    /// # Errors
    /// [`Error::Lss`]: `DuplicateParty`, `DealerNotInOldSet`, `NotEnoughDealers`.
    pub fn refresh(
        session: [u8; 32],
        public: &PublicKeyPackage,
        dealers: &[PartyId],
    ) -> Result<Ceremony, Error> {
        let inner = AnyCeremony::refresh(session, &public.to_lss()?, dealers)?
            .with_key(ActivationKind::Lens, &public.group_key_bytes())?;
        Ok(Ceremony {
            inner,
            purpose: Purpose::Reshare(public.epoch()),
        })
    }

    /// A reshare of the key to `receivers` with threshold `threshold`, dealt by `dealers`:
    /// at least `t_old` current parties (more lets a cheater be dropped without
    /// restarting). Receivers may overlap the current set or not.
    ///
    /// # Errors
    /// [`Error::Lss`]: `DuplicateParty`, `DealerNotInOldSet`, `NotEnoughDealers`,
    /// `InvalidThreshold`.
    pub fn reshare(
        session: [u8; 32],
        public: &PublicKeyPackage,
        dealers: &[PartyId],
        receivers: &[PartyId],
        threshold: u16,
    ) -> Result<Ceremony, Error> {
        let inner = AnyCeremony::reshare(session, &public.to_lss()?, dealers, receivers, threshold)?
            .with_key(ActivationKind::Lens, &public.group_key_bytes())?;
        Ok(Ceremony {
            inner,
            purpose: Purpose::Reshare(public.epoch()),
        })
    }

    /// The curve.
    pub fn curve(&self) -> Curve {
        self.inner.curve()
    }

    /// The dealers, increasing.
    pub fn dealers(&self) -> &[PartyId] {
        self.inner.dealers()
    }

    /// The receivers (the parties of the new generation), increasing.
    pub fn receivers(&self) -> &[PartyId] {
        self.inner.receivers()
    }

    /// Every participant, increasing.
    pub fn participants(&self) -> Vec<PartyId> {
        self.inner.participants()
    }

    /// Starts `me`'s part: `share` is `me`'s current key share (required for the dealers
    /// of a refresh or reshare and every party of a refresh; `None` for key generation
    /// and new receivers).
    ///
    /// # Errors
    /// [`Error::WrongCurve`], [`Error::EpochMismatch`] for a share of another epoch;
    /// [`Error::Lss`]: `NotAParticipant`, `MissingOldShare`, `OldShareMismatch`.
    ///
    /// # Security
    /// Randomness comes from `rng` only.
    pub fn start(
        &self,
        me: PartyId,
        share: Option<&KeyShare>,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(DealingParty, Outgoing), Error> {
        let old = self.old_share(me, share)?;
        let (inner, out) = Dealing::start(self.inner.clone(), me, old.as_ref(), rng)?;
        Ok((
            DealingParty {
                inner,
                purpose: self.purpose,
            },
            out,
        ))
    }

    /// As [`Ceremony::start`], for a party that misbehaves as `cheat` says.
    ///
    /// # Errors
    /// As [`Ceremony::start`].
    #[cfg(feature = "hazmat")]
    pub fn start_cheating(
        &self,
        me: PartyId,
        share: Option<&KeyShare>,
        cheat: crate::party::hazmat::Cheat,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(DealingParty, Outgoing), Error> {
        let old = self.old_share(me, share)?;
        let (inner, out) = Dealing::start_cheating(self.inner.clone(), me, old.as_ref(), cheat, rng)?;
        Ok((
            DealingParty {
                inner,
                purpose: self.purpose,
            },
            out,
        ))
    }

    /// The LSS form of `share`, after checking its curve, owner and epoch.
    fn old_share(&self, me: PartyId, share: Option<&KeyShare>) -> Result<Option<AnyKeyShare>, Error> {
        let Some(share) = share else { return Ok(None) };
        if share.curve() != self.curve() {
            return Err(Error::WrongCurve {
                expected: self.curve(),
                found: share.curve(),
            });
        }
        if share.party() != me {
            return Err(lss::Error::OldShareMismatch { party: me }.into());
        }
        match self.purpose {
            Purpose::Reshare(epoch) if share.epoch() != epoch => Err(Error::EpochMismatch {
                party: None,
                expected: epoch,
                found: share.epoch(),
            }),
            // Key generation takes no share; a reshare's share is of its epoch.
            Purpose::Keygen => Ok(None),
            Purpose::Reshare(_) => Ok(Some(share.to_lss()?)),
        }
    }
}

/// What a finished dealing gives a participant.
#[derive(Debug)]
pub struct Outcome {
    /// This party's key share of the new generation (receivers only). The old share is
    /// untouched.
    pub key_share: Option<KeyShare>,
    /// The new generation's public key package (identical at every honest participant):
    /// same group key, new epoch.
    pub public: PublicKeyPackage,
    /// The dealers whose contributions were used, increasing.
    pub qualified: Vec<PartyId>,
    /// Protocol faults proven by public evidence (identical at every honest party). A
    /// disqualified dealer of a key generation still holds a share of the key: exclude
    /// it from signing if you no longer trust it.
    pub blame: Vec<Blame>,
    /// Messages this party dropped, with their senders and why.
    pub dropped: Vec<Blame>,
    /// Refresh and reshare: the certificate that activates the new generation (at least
    /// `t_new` new members proved their shares; check it with
    /// [`super::verify_activation`]). Erase an old share only once you hold it. `None`
    /// for key generation.
    pub activation: Option<ActivationCertificate>,
}

impl Outcome {
    /// Everyone named, increasing.
    pub fn culprits(&self) -> Vec<PartyId> {
        culprits([self.blame.as_slice(), self.dropped.as_slice()])
    }
}

/// One participant of a Lens dealing: the LSS dealing party, whose outcome becomes Lens
/// keys. See the module docs.
///
/// # Security
/// Holds the dealer's secret polynomial and the shares received; wiped on drop.
pub struct DealingParty {
    inner: Dealing,
    purpose: Purpose,
}

impl fmt::Debug for DealingParty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("lens::DealingParty")
            .field("purpose", &self.purpose)
            .field("inner", &self.inner)
            .finish()
    }
}

impl DealingParty {
    /// The curve.
    pub fn curve(&self) -> Curve {
        self.inner.ceremony().curve()
    }

    // Not inlined into `step`: the full WebAssembly module compresses worse with it there.
    #[inline(never)]
    fn convert(&self, outcome: AnyOutcome) -> Result<Outcome, Error> {
        with_suite!(outcome.curve(), C => {
            let o = outcome.into_curve::<<C as Suite>::Vss>()?;
            let (key_share, public) = match (self.purpose, &o.key_share) {
                (Purpose::Keygen, Some(share)) => {
                    let share = keygen_share_g::<C>(share)?;
                    let public = share.public().clone();
                    (Some(share), public)
                }
                (Purpose::Keygen, None) => return Err(Error::Internal("a key-generation party without a share")),
                (Purpose::Reshare(_), share) => {
                    let public = public_from_lss_g::<C>(&o.public)?;
                    let share = share.as_ref().map(|s| share_from_lss_g::<C>(s, &public)).transpose()?;
                    (share, public)
                }
            };
            Ok(Outcome {
                key_share,
                public,
                qualified: o.qualified,
                blame: o.blame,
                dropped: o.dropped,
                activation: o.activation,
            })
        })
    }
}

impl Party for DealingParty {
    type Output = Outcome;

    fn id(&self) -> PartyId {
        self.inner.id()
    }

    fn round(&self) -> Option<Round> {
        self.inner.round()
    }

    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<Outcome>, crate::Error> {
        match self.inner.step(inbox)? {
            Step::Continue(out) => Ok(Step::Continue(out)),
            Step::Waiting => Ok(Step::Waiting),
            Step::Done(out, outcome) => Ok(Step::Done(out, self.convert(outcome)?)),
        }
    }
}
