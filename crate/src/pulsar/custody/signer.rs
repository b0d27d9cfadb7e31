//! A signer of a custody session: seals its share to the combiner, broadcasts a
//! commitment to the envelope, and releases the envelope once enough signers committed.
//!
//! | step | inbox | sends |
//! |---|---|---|
//! | [`SignerParty::start`] | — | `PCR1` broadcast (to the other signers and the combiner) |
//! | round 1 "release" | the other signers' `PCR1`s | `PCR2` to the combiner ([`Step::Done`]) |

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;

use rand_core::CryptoRngCore;

use super::round1::{Round1Message, ROUND1_MAGIC};
use super::round2::{seal, Round2Message, ROUND2_MAGIC};
use super::session::Session;
use crate::lss;
use crate::party::inbox::{tidy, unique};
use crate::party::{misbehave, Blame, BlameReason, Incoming, Misbehaviour, Outgoing, Party, Round, Step};
use crate::pulsar::Error;
use crate::vss::Ristretto255;
use crate::wire;
use crate::PartyId;

/// What a signer ends with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignerOutcome {
    /// The signers whose valid commitments this signer saw (itself included), increasing.
    pub committed: Vec<PartyId>,
    /// Messages this signer dropped, with their senders and why.
    pub dropped: Vec<Blame>,
}

/// One signer of a custody session (signing, key ceremony or activation).
///
/// # Security
/// Holds only the sealed envelope (ciphertext); the share itself is not kept. Releasing
/// the envelope gives the session's combiner the key for the time it signs: only start a
/// session with a combiner you trust with it.
pub struct SignerParty {
    session: Session,
    me: PartyId,
    commitment: Round1Message,
    envelope: Option<Round2Message>,
    dropped: Vec<Blame>,
    cheat: Misbehaviour,
}

impl fmt::Debug for SignerParty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("custody::SignerParty")
            .field("me", &self.me)
            .field("session", &self.session)
            .field("round", &self.round())
            .finish_non_exhaustive()
    }
}

/// What is wrong, if anything, with a round-1 message `m` from `sender` in `session`.
pub(crate) fn round1_fault(sender: PartyId, m: &Round1Message, session: &Session) -> Option<BlameReason> {
    let h = &m.header;
    if !session.is_signer(sender) {
        Some(BlameReason::UnknownParty)
    } else if h.from != sender {
        Some(BlameReason::SenderMismatch { claimed: h.from })
    } else if h.purpose != session.purpose || h.mode != session.mode {
        Some(BlameReason::ParameterMismatch)
    } else if h.session != session.id {
        Some(BlameReason::WrongSession)
    } else if h.digest != session.digest {
        Some(BlameReason::WrongMessage)
    } else if h.generation != session.generation() {
        Some(BlameReason::WrongGeneration {
            expected: session.generation(),
            got: h.generation,
        })
    } else if h.to != session.combiner.id() {
        Some(BlameReason::WrongRecipient { to: h.to })
    } else {
        None
    }
}

/// The reason to drop a custody message whose magic a round does not take.
pub(crate) fn kind_fault(magic: &[u8; 4], expected: &[u8; 4]) -> BlameReason {
    if magic == ROUND1_MAGIC || magic == ROUND2_MAGIC {
        BlameReason::WrongKind
    } else {
        BlameReason::Malformed(wire::Error::BadMagic {
            found: *magic,
            expected: *expected,
        })
    }
}

/// The valid round-1 commitments in `inbox`, by signer; the rest is recorded in `dropped`.
pub(crate) fn commitments(
    me: PartyId,
    session: &Session,
    inbox: &[Incoming<'_>],
    dropped: &mut Vec<Blame>,
) -> BTreeMap<PartyId, [u8; 32]> {
    let mut out = BTreeMap::new();
    for (from, magic, bytes) in unique(me, inbox, dropped).messages {
        let fault = if &magic != ROUND1_MAGIC {
            Some(kind_fault(&magic, ROUND1_MAGIC))
        } else {
            match Round1Message::from_bytes(bytes) {
                Err(e) => Some(BlameReason::Malformed(e)),
                Ok(m) => round1_fault(from, &m, session).or_else(|| {
                    out.insert(from, m.commitment);
                    None
                }),
            }
        };
        if let Some(reason) = fault {
            dropped.push(Blame::new(from, reason));
        }
    }
    out
}

impl SignerParty {
    /// Starts `share`'s owner's part in `session`: seals the share to the combiner and
    /// broadcasts the commitment to the envelope.
    ///
    /// `share` is the LSS key share (for signing: [`super::KeyShare::lss`]); it must be of
    /// the session's sharing and generation, and its owner a signer of the session.
    ///
    /// # Errors
    /// [`Error::NotASigner`], [`Error::GenerationMismatch`] (an old-generation share is
    /// never used), [`Error::GroupMismatch`] (a share of another sharing).
    ///
    /// # Security
    /// Fresh randomness from `rng` is used for the encapsulation.
    pub fn start(
        share: &lss::KeyShare<Ristretto255>,
        session: &Session,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(SignerParty, Outgoing), Error> {
        Self::start_with(share, session, None, rng)
    }

    /// As [`SignerParty::start`], for a signer that misbehaves as `cheat` says.
    ///
    /// # Errors
    /// As [`SignerParty::start`].
    #[cfg(feature = "hazmat")]
    pub fn start_cheating(
        share: &lss::KeyShare<Ristretto255>,
        session: &Session,
        cheat: crate::party::hazmat::Cheat,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(SignerParty, Outgoing), Error> {
        Self::start_with(share, session, Some(cheat), rng)
    }

    fn start_with(
        share: &lss::KeyShare<Ristretto255>,
        session: &Session,
        cheat: Misbehaviour,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(SignerParty, Outgoing), Error> {
        #[cfg(feature = "hazmat")]
        let corrupt = cheat == Some(crate::party::hazmat::Cheat::BadContribution);
        #[cfg(not(feature = "hazmat"))]
        let corrupt = false;
        let envelope = seal(share, session, corrupt, rng)?;
        let commitment = envelope.commitment(session.public().transcript_hash());
        let mut out = Outgoing::broadcast(commitment.to_bytes());
        misbehave(cheat, &mut out);
        let party = SignerParty {
            session: session.clone(),
            me: share.id(),
            commitment,
            envelope: Some(envelope),
            dropped: Vec::new(),
            cheat,
        };
        Ok((party, out))
    }

    /// The session.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The round-1 message this signer broadcast.
    pub fn commitment(&self) -> &Round1Message {
        &self.commitment
    }
}

impl Party for SignerParty {
    type Output = SignerOutcome;

    fn id(&self) -> PartyId {
        self.me
    }

    fn round(&self) -> Option<Round> {
        self.envelope.as_ref().map(|_| Round {
            number: 1,
            name: "release",
        })
    }

    /// Releases the envelope once at least `t` signers (this one included) committed in
    /// this session, for this message and generation.
    ///
    /// # Errors
    /// [`Error::NotEnoughSigners`] (the party keeps its envelope and can be stepped again).
    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<SignerOutcome>, crate::Error> {
        if self.envelope.is_none() {
            return Err(crate::party::Error::Finished.into());
        }
        let before = self.dropped.len();
        let mut committed = commitments(self.me, &self.session, inbox, &mut self.dropped);
        committed.insert(self.me, self.commitment.commitment);
        let needed = self.session.threshold();
        if committed.len() < needed {
            self.dropped.truncate(before);
            return Err(Error::NotEnoughSigners {
                needed,
                got: committed.len(),
            }
            .into());
        }
        let envelope = self.envelope.take().ok_or(crate::party::Error::Finished)?;
        let mut out = Outgoing::to(self.session.combiner.id(), envelope.to_bytes().into());
        misbehave(self.cheat, &mut out);
        let mut dropped = core::mem::take(&mut self.dropped);
        tidy(&mut dropped);
        Ok(Step::Done(
            out,
            SignerOutcome {
                committed: committed.into_keys().collect(),
                dropped,
            },
        ))
    }
}
