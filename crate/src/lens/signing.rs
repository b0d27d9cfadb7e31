//! FROST signing (RFC 9591 §5) as two parties: each signer's [`SignerParty`] and the
//! coordinator's [`CoordinatorParty`].
//!
//! | step | signer | coordinator |
//! |---|---|---|
//! | start | commits: `LNC1` to the coordinator | — |
//! | round 1 | — | reads the `LNC1`s; broadcasts the `LNSP` signing package to the signers |
//! | round 1 (signer) / 2 (coordinator) | reads the `LNSP`, signs: `LNZ2` to the coordinator ([`Step::Done`]) | reads the `LNZ2`s, aggregates ([`Step::Done`]) |
//!
//! Messages go over authenticated channels; nothing in them is secret. The coordinator is
//! trusted only for liveness: it learns nothing secret and cannot forge.
//!
//! **Robustness.** A message that fails a check is dropped and its sender named in the
//! party's `dropped` list. The coordinator builds the package from every valid
//! commitment of a member of the key's current epoch (at least `t`); a signer signs only
//! a package of its key's epoch, for the message it agreed to sign, that holds its own
//! commitment — a package from another session, for another message or another
//! generation is dropped and the signer keeps waiting ([`Step::Waiting`]) with its
//! nonces unused. The coordinator collects shares until every signer of the package sent
//! one (waiting, [`Step::Waiting`], meanwhile). FROST is not robust in its
//! last round: an invalid share makes aggregation fail with a typed error naming every
//! culprit ([`Error::InvalidSignatureShare`]), and the session is retried without them.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;

use rand_core::CryptoRngCore;

use super::aggregate::{aggregate, Signature};
use super::keys::PublicKeyPackage;
use super::round1::{commit, SigningCommitments, SigningNonces, MAGIC_SIGNING_COMMITMENTS};
use super::round2::{sign, SignatureShare, SigningPackage, MAGIC_SIGNATURE_SHARE, MAGIC_SIGNING_PACKAGE};
use super::share::KeyShare;
use super::{Curve, Error, KeyEpoch};
use crate::party::inbox::{tidy, unique};
use crate::party::{misbehave, Blame, BlameReason, Incoming, Misbehaviour, Outgoing, Party, Round, Step};
use crate::wire;
use crate::PartyId;

/// The reason to drop a Lens message that failed to decode.
fn decode_fault(e: Error) -> BlameReason {
    match e {
        Error::Decode(w) => BlameReason::Malformed(w),
        Error::WrongCurve { .. } => BlameReason::ParameterMismatch,
        Error::DuplicateSigner { .. } => BlameReason::Malformed(wire::Error::InvalidValue("repeated signer")),
        _ => BlameReason::Malformed(wire::Error::InvalidValue("lens message")),
    }
}

/// The reason to drop a message of epoch `got` at a party of epoch `expected`.
fn epoch_fault(expected: KeyEpoch, got: KeyEpoch) -> Option<BlameReason> {
    if got == expected {
        None
    } else if got.generation != expected.generation {
        Some(BlameReason::WrongGeneration {
            expected: expected.generation,
            got: got.generation,
        })
    } else {
        // Same number, another dealing: a replay from another sharing of that generation.
        Some(BlameReason::WrongSession)
    }
}

/// What a signer ends with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignerOutcome {
    /// The signers of the package it signed, increasing.
    pub signers: Vec<PartyId>,
    /// Messages this signer dropped, with their senders and why.
    pub dropped: Vec<Blame>,
}

/// One signer of a FROST signing session: see the module docs.
///
/// # Security
/// Holds a copy of the key share and the round-1 nonces: wiped on drop; the nonces sign
/// at most one package.
pub struct SignerParty {
    share: KeyShare,
    coordinator: PartyId,
    message: Vec<u8>,
    nonces: Option<SigningNonces>,
    dropped: Vec<Blame>,
    cheat: Misbehaviour,
}

impl fmt::Debug for SignerParty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("lens::SignerParty")
            .field("me", &self.share.party())
            .field("coordinator", &self.coordinator)
            .field("round", &self.round())
            .finish_non_exhaustive()
    }
}

impl SignerParty {
    /// Starts signing `message` with `share`: draws the nonces and sends the commitments
    /// to `coordinator`.
    ///
    /// # Errors
    /// [`Error::ReservedMessage`] for a message that starts with an activation tag.
    ///
    /// # Security
    /// Sign only messages you mean to sign: the party refuses a package for any other
    /// message. Nonces come from `rng` (mixed with the share, RFC 9591 `nonce_generate`).
    pub fn start(
        share: &KeyShare,
        coordinator: PartyId,
        message: &[u8],
        rng: &mut impl CryptoRngCore,
    ) -> Result<(SignerParty, Outgoing), Error> {
        Self::start_with(share, coordinator, message, None, rng)
    }

    /// As [`SignerParty::start`], for a signer that misbehaves as `cheat` says.
    ///
    /// # Errors
    /// As [`SignerParty::start`].
    #[cfg(feature = "hazmat")]
    pub fn start_cheating(
        share: &KeyShare,
        coordinator: PartyId,
        message: &[u8],
        cheat: crate::party::hazmat::Cheat,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(SignerParty, Outgoing), Error> {
        Self::start_with(share, coordinator, message, Some(cheat), rng)
    }

    fn start_with(
        share: &KeyShare,
        coordinator: PartyId,
        message: &[u8],
        cheat: Misbehaviour,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(SignerParty, Outgoing), Error> {
        if super::activation::is_reserved(message) {
            return Err(Error::ReservedMessage);
        }
        let (nonces, commitments) = commit(share, rng);
        let party = SignerParty {
            share: share.duplicate(),
            coordinator,
            message: message.to_vec(),
            nonces: Some(nonces),
            dropped: Vec::new(),
            cheat,
        };
        let mut out = Outgoing::to(coordinator, commitments.to_bytes().into());
        misbehave(cheat, &mut out);
        Ok((party, out))
    }

    /// The messages dropped so far, with their senders.
    pub fn dropped(&self) -> &[Blame] {
        &self.dropped
    }

    /// The valid signing package in `inbox`, if any (the rest dropped and named).
    fn package(&mut self, inbox: &[Incoming<'_>]) -> Option<SigningPackage> {
        let me = self.share.party();
        let mut found = None;
        for (from, magic, bytes) in unique(me, inbox, &mut self.dropped).messages {
            let fault = if from != self.coordinator {
                Some(BlameReason::UnknownParty)
            } else if &magic != MAGIC_SIGNING_PACKAGE {
                Some(kind_fault(&magic))
            } else {
                match decode_package(self.share.curve(), bytes) {
                    Err(e) => Some(decode_fault(e)),
                    // A package without this signer is a session it is not in: no fault of
                    // anyone's (the coordinator may never have received its commitment), so
                    // it is ignored and the signer keeps waiting.
                    Ok(p) if !p.contains(me) => None,
                    Ok(p) => {
                        let fault = epoch_fault(self.share.epoch(), p.epoch())
                            .or_else(|| {
                                (p.message() != self.message.as_slice()).then_some(BlameReason::WrongMessage)
                            })
                            .or_else(|| {
                                let members = p.signers().iter().all(|s| self.share.public().contains(*s));
                                let enough = p.signers().len() >= usize::from(self.share.threshold());
                                (!members || !enough).then_some(BlameReason::ParameterMismatch)
                            })
                            .or_else(|| {
                                // Other commitments than its fresh ones under its id: a
                                // package of another session.
                                let mine = self.nonces.as_ref().is_some_and(|n| p.holds(me, n));
                                (!mine).then_some(BlameReason::WrongSession)
                            });
                        if fault.is_none() {
                            found = Some(p);
                        }
                        fault
                    }
                }
            };
            if let Some(reason) = fault {
                self.dropped.push(Blame::new(from, reason));
            }
        }
        found
    }
}

/// The reason to drop a message whose magic a round does not take.
fn kind_fault(magic: &[u8; 4]) -> BlameReason {
    let lens = [
        MAGIC_SIGNING_COMMITMENTS,
        MAGIC_SIGNING_PACKAGE,
        MAGIC_SIGNATURE_SHARE,
    ];
    if lens.contains(&magic) {
        BlameReason::WrongKind
    } else {
        BlameReason::Malformed(wire::Error::BadMagic {
            found: *magic,
            expected: *MAGIC_SIGNING_PACKAGE,
        })
    }
}

impl Party for SignerParty {
    type Output = SignerOutcome;

    fn id(&self) -> PartyId {
        self.share.party()
    }

    fn round(&self) -> Option<Round> {
        self.nonces.as_ref().map(|_| Round {
            number: 1,
            name: "sign",
        })
    }

    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<SignerOutcome>, crate::Error> {
        if self.nonces.is_none() {
            return Err(crate::party::Error::Finished.into());
        }
        let Some(package) = self.package(inbox) else {
            return Ok(Step::Waiting);
        };
        let nonces = self.nonces.take().ok_or(crate::party::Error::Finished)?;
        let share = sign(&self.share, nonces, &package)?;
        #[allow(unused_mut)]
        let mut bytes = share.to_bytes();
        #[cfg(feature = "hazmat")]
        if self.cheat == Some(crate::party::hazmat::Cheat::BadContribution) {
            bytes = SignatureShare::corrupted(self.share.curve(), &bytes);
        }
        let mut out = Outgoing::to(self.coordinator, bytes.into());
        misbehave(self.cheat, &mut out);
        let mut dropped = core::mem::take(&mut self.dropped);
        tidy(&mut dropped);
        Ok(Step::Done(
            out,
            SignerOutcome {
                signers: package.signers().to_vec(),
                dropped,
            },
        ))
    }
}

/// What the coordinator ends with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoordinatorOutcome {
    /// The signature: standard Ed25519 / BIP-340 / RFC 9591 under the group key.
    pub signature: Signature,
    /// The signers, increasing.
    pub signers: Vec<PartyId>,
    /// Messages the coordinator dropped, with their senders and why.
    pub dropped: Vec<Blame>,
}

enum CoordinatorStage {
    Collecting,
    /// The package sent, and the valid shares received so far.
    Signing(SigningPackage, BTreeMap<PartyId, SignatureShare>),
    Finished,
}

/// The coordinator of one FROST signing session: see the module docs. Holds only public
/// data.
pub struct CoordinatorParty {
    me: PartyId,
    public: PublicKeyPackage,
    message: Vec<u8>,
    stage: CoordinatorStage,
    dropped: Vec<Blame>,
}

impl fmt::Debug for CoordinatorParty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("lens::CoordinatorParty")
            .field("me", &self.me)
            .field("round", &self.round())
            .finish_non_exhaustive()
    }
}

impl CoordinatorParty {
    /// Starts coordinating a session that signs `message` under `public`'s key, as party
    /// `me` (an id the signers send their messages to; it need not hold a share).
    ///
    /// # Errors
    /// [`Error::Decode`] for a message over [`super::MAX_MESSAGE_LEN`].
    pub fn start(
        me: PartyId,
        public: &PublicKeyPackage,
        message: &[u8],
    ) -> Result<(CoordinatorParty, Outgoing), Error> {
        if message.len() > super::MAX_MESSAGE_LEN {
            return Err(Error::Decode(wire::Error::CountTooLarge {
                got: message.len(),
                max: super::MAX_MESSAGE_LEN,
            }));
        }
        let party = CoordinatorParty {
            me,
            public: public.clone(),
            message: message.to_vec(),
            stage: CoordinatorStage::Collecting,
            dropped: Vec::new(),
        };
        Ok((party, Outgoing::none()))
    }

    /// The messages dropped so far, with their senders.
    pub fn dropped(&self) -> &[Blame] {
        &self.dropped
    }

    fn curve(&self) -> Curve {
        self.public.curve()
    }

    /// Round 1: the valid commitments, by signer.
    fn commitments(&mut self, inbox: &[Incoming<'_>]) -> BTreeMap<PartyId, SigningCommitments> {
        let mut valid = BTreeMap::new();
        for (from, magic, bytes) in unique(self.me, inbox, &mut self.dropped).messages {
            let fault = if !self.public.contains(from) {
                Some(BlameReason::UnknownParty)
            } else if &magic != MAGIC_SIGNING_COMMITMENTS {
                Some(kind_fault(&magic))
            } else {
                match SigningCommitments::from_bytes(self.curve(), bytes) {
                    Err(e) => Some(decode_fault(e)),
                    Ok(c) if c.from() != from => Some(BlameReason::SenderMismatch { claimed: c.from() }),
                    Ok(c) => match epoch_fault(self.public.epoch(), c.epoch()) {
                        Some(reason) => Some(reason),
                        None => {
                            valid.insert(from, c);
                            None
                        }
                    },
                }
            };
            if let Some(reason) = fault {
                self.dropped.push(Blame::new(from, reason));
            }
        }
        valid
    }

    /// Round 2: the valid signature shares of the package's signers.
    fn shares(
        &mut self,
        package: &SigningPackage,
        inbox: &[Incoming<'_>],
    ) -> BTreeMap<PartyId, SignatureShare> {
        let mut valid = BTreeMap::new();
        for (from, magic, bytes) in unique(self.me, inbox, &mut self.dropped).messages {
            let fault = if !package.contains(from) {
                Some(BlameReason::UnknownParty)
            } else if &magic != MAGIC_SIGNATURE_SHARE {
                Some(kind_fault(&magic))
            } else {
                match SignatureShare::from_bytes(self.curve(), bytes) {
                    Err(e) => Some(decode_fault(e)),
                    Ok(s) if s.from() != from => Some(BlameReason::SenderMismatch { claimed: s.from() }),
                    Ok(s) => match epoch_fault(package.epoch(), s.epoch()) {
                        Some(reason) => Some(reason),
                        None => {
                            valid.insert(from, s);
                            None
                        }
                    },
                }
            };
            if let Some(reason) = fault {
                self.dropped.push(Blame::new(from, reason));
            }
        }
        valid
    }
}

impl Party for CoordinatorParty {
    type Output = CoordinatorOutcome;

    fn id(&self) -> PartyId {
        self.me
    }

    fn round(&self) -> Option<Round> {
        match self.stage {
            CoordinatorStage::Collecting => Some(Round {
                number: 1,
                name: "build package",
            }),
            CoordinatorStage::Signing(..) => Some(Round {
                number: 2,
                name: "aggregate",
            }),
            CoordinatorStage::Finished => None,
        }
    }

    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<CoordinatorOutcome>, crate::Error> {
        match core::mem::replace(&mut self.stage, CoordinatorStage::Finished) {
            CoordinatorStage::Collecting => {
                let before = self.dropped.len();
                let commitments = self.commitments(inbox);
                match SigningPackage::new(&self.public, &commitments, &self.message) {
                    Ok(package) => {
                        // To every signer at once: those not in the package drop it.
                        let out = Outgoing::broadcast(package.to_bytes());
                        self.stage = CoordinatorStage::Signing(package, BTreeMap::new());
                        Ok(Step::Continue(out))
                    }
                    Err(e) => {
                        self.dropped.truncate(before);
                        self.stage = CoordinatorStage::Collecting;
                        Err(e.into())
                    }
                }
            }
            CoordinatorStage::Signing(package, mut shares) => {
                let before = self.dropped.len();
                for (p, s) in self.shares(&package, inbox) {
                    shares.entry(p).or_insert(s);
                }
                // Shares may arrive over several rounds: wait until every signer's has.
                if package.signers().iter().any(|p| !shares.contains_key(p)) {
                    self.stage = CoordinatorStage::Signing(package, shares);
                    return Ok(Step::Waiting);
                }
                match aggregate(&self.public, &package, &shares) {
                    Ok(signature) => {
                        let mut dropped = core::mem::take(&mut self.dropped);
                        tidy(&mut dropped);
                        Ok(Step::Done(
                            Outgoing::none(),
                            CoordinatorOutcome {
                                signature,
                                signers: package.signers().to_vec(),
                                dropped,
                            },
                        ))
                    }
                    Err(e) => {
                        self.dropped.truncate(before);
                        self.stage = CoordinatorStage::Signing(package, shares);
                        Err(e.into())
                    }
                }
            }
            CoordinatorStage::Finished => Err(crate::party::Error::Finished.into()),
        }
    }
}

/// The coordinator's package, decoded once per process (`party::shared`: every signer of a
/// process gets the same broadcast, 2t points to decompress); an error is made again where
/// it happens.
fn decode_package(curve: crate::lens::Curve, bytes: &[u8]) -> Result<SigningPackage, Error> {
    let key = || crate::party::shared::key_of([[curve.to_byte()].as_slice(), bytes]);
    let size = 2 * bytes.len();
    let made = crate::party::shared::memo(b"lens-signing-package", key, size, || {
        SigningPackage::from_bytes(curve, bytes).ok()
    });
    match made.as_ref() {
        Some(package) => Ok(package.clone()),
        None => SigningPackage::from_bytes(curve, bytes),
    }
}
