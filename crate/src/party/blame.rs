//! Blame: who misbehaved, and how — one vocabulary for every protocol.
//!
//! A [`Blame`] names a party and a [`BlameReason`]. Reasons fall in two groups:
//!
//! - **Message faults** ([`BlameReason::is_message_fault`]): a message that failed a check
//!   at the receiver (it did not decode, belongs to another session, names another
//!   recipient, comes from a party with no such role, …). The message is dropped; the
//!   evidence is the receiver's own, so only the parties that received it name the
//!   sender. Such a fault never aborts a step.
//! - **Protocol faults**: misbehaviour proven by public evidence (a dealer whose opening
//!   does not match its broadcast commitments, a signature share that fails against its
//!   signer's verifying share, …). Every honest party reaches the same list.
//!
//! Codes ([`BlameReason::code`]) are API: what JavaScript and the CLI show, never renamed.
//! A fault that a module can also report as an error uses the same code there.

use core::fmt;

use crate::wire;
use crate::PartyId;

/// A party named for misbehaving, and why.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Blame {
    /// The party (as named by the authenticated transport, or by public evidence).
    pub party: PartyId,
    /// What it did.
    pub reason: BlameReason,
}

impl Blame {
    /// `party` blamed for `reason`.
    pub fn new(party: PartyId, reason: BlameReason) -> Blame {
        Blame { party, reason }
    }
}

impl fmt::Display for Blame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.party, self.reason)
    }
}

/// Why a party was blamed. See the module docs for the two groups.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BlameReason {
    // ----------------------------------------------------------------- message faults
    /// The bytes did not decode.
    Malformed(wire::Error),
    /// A message of a kind this round does not take (another round's, another protocol's).
    WrongKind,
    /// The sender has no role that sends this message (not a member, not a dealer, not a
    /// receiver, not a signer of the session).
    UnknownParty,
    /// The message's `from` field differs from the transport's sender.
    SenderMismatch {
        /// The sender the message claims.
        claimed: PartyId,
    },
    /// The message belongs to another session (a replay from another run).
    WrongSession,
    /// A private message addressed to another party.
    WrongRecipient {
        /// The addressee it names.
        to: PartyId,
    },
    /// The message is for another generation of the key.
    WrongGeneration {
        /// The generation this party is at.
        expected: u64,
        /// The message's generation.
        got: u64,
    },
    /// The message is bound to another message to sign (a replay for another message).
    WrongMessage,
    /// The message's parameters (kind, commitment mode, curve, purpose) differ from the
    /// session's.
    ParameterMismatch,
    /// A second copy of a message already received this round.
    DuplicateMessage,
    /// Two different messages of one kind from one sender in one round (equivocation).
    ConflictingMessage,

    // ---------------------------------------------------------------- protocol faults
    /// A dealer sent no deal broadcast.
    MissingDeal,
    /// A dealer's broadcast has the wrong kind, mode or number of commitments.
    MalformedDeal,
    /// A dealer's proof of knowledge (Feldman DKG) does not verify.
    InvalidProof,
    /// A dealer's constant-term commitment is not what the dealing requires (the identity
    /// for a refresh, `λ_i^Q` times the commitment to its old share for a reshare).
    WrongConstant,
    /// A dealer's commitments are not in the prime-order subgroup (Ed25519 torsion).
    InvalidCommitment,
    /// A dealer did not open the share of a receiver who complained.
    UnansweredComplaint {
        /// The complainer.
        complainer: PartyId,
    },
    /// A dealer's opening for a complainer does not match its commitments.
    InvalidOpening {
        /// The complainer.
        complainer: PartyId,
    },
    /// A receiver complained about a dealer although the share it published as evidence
    /// verifies against the dealer's commitments: the complaint is provably false.
    FalseComplaint {
        /// The dealer wrongly accused.
        dealer: PartyId,
    },
    /// A receiver complained about a party that is not a dealer.
    InvalidComplaint {
        /// The party named.
        dealer: PartyId,
    },
    /// A released share that does not open the public commitments at its sender's id (or
    /// an envelope, matching the sender's authenticated commitment, that does not
    /// decrypt to a well-formed share).
    InvalidShare,
    /// A proof of possession of a new share that does not verify (activation).
    InvalidPossessionProof,
    /// A key announcement (Pulsar's key ceremony) whose transcript or proof of
    /// possession does not verify against the receiver's own sharing.
    InvalidAnnouncement,
    /// A committee signer's revealed commitment vector that does not match the hash it
    /// committed to in round 1 (Pulsar committee).
    BrokenReveal,
    /// A Corona round-1 message whose MAC for the receiver does not verify under the pair's
    /// key (MACs are symmetric: the receiver's own evidence, not transferable).
    InvalidMac,
    /// A Corona round-2 message echoing another challenge than the receiver computed: the
    /// sender saw other round-1 messages (an equivocation upstream, or its own fault).
    DifferentChallenge,
}

impl BlameReason {
    /// The stable code of this reason (API: never renamed).
    pub fn code(&self) -> &'static str {
        match self {
            BlameReason::Malformed(_) => "MALFORMED_MESSAGE",
            BlameReason::WrongKind => "WRONG_KIND",
            BlameReason::UnknownParty => "UNKNOWN_PARTY",
            BlameReason::SenderMismatch { .. } => "SENDER_MISMATCH",
            BlameReason::WrongSession => "WRONG_SESSION",
            BlameReason::WrongRecipient { .. } => "WRONG_RECIPIENT",
            BlameReason::WrongGeneration { .. } => "WRONG_GENERATION",
            BlameReason::WrongMessage => "WRONG_MESSAGE",
            BlameReason::ParameterMismatch => "PARAMETER_MISMATCH",
            BlameReason::DuplicateMessage => "DUPLICATE_MESSAGE",
            BlameReason::ConflictingMessage => "CONFLICTING_MESSAGE",
            BlameReason::MissingDeal => "MISSING_DEAL",
            BlameReason::MalformedDeal => "MALFORMED_DEAL",
            BlameReason::InvalidProof => "INVALID_PROOF",
            BlameReason::WrongConstant => "WRONG_CONSTANT",
            BlameReason::InvalidCommitment => "INVALID_COMMITMENT",
            BlameReason::UnansweredComplaint { .. } => "UNANSWERED_COMPLAINT",
            BlameReason::InvalidOpening { .. } => "INVALID_OPENING",
            BlameReason::FalseComplaint { .. } => "FALSE_COMPLAINT",
            BlameReason::InvalidComplaint { .. } => "INVALID_COMPLAINT",
            BlameReason::InvalidShare => "INVALID_SHARE",
            BlameReason::InvalidPossessionProof => "INVALID_POSSESSION_PROOF",
            BlameReason::InvalidAnnouncement => "INVALID_ANNOUNCEMENT",
            BlameReason::BrokenReveal => "BROKEN_REVEAL",
            BlameReason::InvalidMac => "INVALID_MAC",
            BlameReason::DifferentChallenge => "DIFFERENT_CHALLENGE",
        }
    }

    /// Whether this is a message fault (the message was dropped on the receiver's own
    /// evidence) rather than a protocol fault proven by public evidence.
    pub fn is_message_fault(&self) -> bool {
        matches!(
            self,
            BlameReason::Malformed(_)
                | BlameReason::WrongKind
                | BlameReason::UnknownParty
                | BlameReason::SenderMismatch { .. }
                | BlameReason::WrongSession
                | BlameReason::WrongRecipient { .. }
                | BlameReason::WrongGeneration { .. }
                | BlameReason::WrongMessage
                | BlameReason::ParameterMismatch
                | BlameReason::DuplicateMessage
                | BlameReason::ConflictingMessage
        )
    }

    /// The other party the reason names, if any.
    pub fn related(&self) -> Option<PartyId> {
        match *self {
            BlameReason::UnansweredComplaint { complainer } | BlameReason::InvalidOpening { complainer } => {
                Some(complainer)
            }
            BlameReason::FalseComplaint { dealer } | BlameReason::InvalidComplaint { dealer } => Some(dealer),
            BlameReason::SenderMismatch { claimed } => Some(claimed),
            BlameReason::WrongRecipient { to } => Some(to),
            _ => None,
        }
    }

    /// Whether the blamed party is a dealer that is disqualified for it (LSS).
    pub fn disqualifies_dealer(&self) -> bool {
        matches!(
            self,
            BlameReason::MissingDeal
                | BlameReason::MalformedDeal
                | BlameReason::InvalidProof
                | BlameReason::WrongConstant
                | BlameReason::InvalidCommitment
                | BlameReason::UnansweredComplaint { .. }
                | BlameReason::InvalidOpening { .. }
        )
    }
}

impl fmt::Display for BlameReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BlameReason::Malformed(e) => write!(f, "sent bytes that do not decode ({e})"),
            BlameReason::WrongKind => f.write_str("sent a message this round does not take"),
            BlameReason::UnknownParty => f.write_str("sent a message its role does not send"),
            BlameReason::SenderMismatch { claimed } => {
                write!(f, "sent a message claiming to be from party {}", claimed.get())
            }
            BlameReason::WrongSession => f.write_str("sent a message of another session"),
            BlameReason::WrongRecipient { to } => {
                write!(f, "sent a private message addressed to party {}", to.get())
            }
            BlameReason::WrongGeneration { expected, got } => {
                write!(f, "sent a message for generation {got} (expected {expected})")
            }
            BlameReason::WrongMessage => f.write_str("sent a message bound to another message to sign"),
            BlameReason::ParameterMismatch => {
                f.write_str("sent a message with other parameters than the session's")
            }
            BlameReason::DuplicateMessage => f.write_str("sent the same message twice"),
            BlameReason::ConflictingMessage => f.write_str("sent two different messages in one round"),
            BlameReason::MissingDeal => f.write_str("sent no deal"),
            BlameReason::MalformedDeal => f.write_str("sent a deal of the wrong shape"),
            BlameReason::InvalidProof => f.write_str("sent a proof of knowledge that does not verify"),
            BlameReason::WrongConstant => f.write_str("dealt a different secret (constant term)"),
            BlameReason::InvalidCommitment => f.write_str("sent commitments outside the prime-order group"),
            BlameReason::UnansweredComplaint { complainer } => {
                write!(f, "did not answer the complaint of party {}", complainer.get())
            }
            BlameReason::InvalidOpening { complainer } => write!(
                f,
                "opened a share for party {} that does not match its commitments",
                complainer.get()
            ),
            BlameReason::FalseComplaint { dealer } => {
                write!(
                    f,
                    "complained about party {}, whose share was valid",
                    dealer.get()
                )
            }
            BlameReason::InvalidComplaint { dealer } => {
                write!(
                    f,
                    "complained about party {}, which is not a dealer",
                    dealer.get()
                )
            }
            BlameReason::InvalidShare => {
                f.write_str("released a share that does not match the public commitments")
            }
            BlameReason::InvalidPossessionProof => {
                f.write_str("sent a proof of possession of its new share that does not verify")
            }
            BlameReason::InvalidAnnouncement => {
                f.write_str("announced a group key whose proof does not verify for the sharing")
            }
            BlameReason::BrokenReveal => f.write_str("revealed a vector that does not match its commitment"),
            BlameReason::InvalidMac => f.write_str("sent a round-1 message whose MAC does not verify"),
            BlameReason::DifferentChallenge => {
                f.write_str("answered another challenge than the one the round-1 messages give")
            }
        }
    }
}

/// Sorted, de-duplicated parties named in `lists`.
pub fn culprits<'a>(lists: impl IntoIterator<Item = &'a [Blame]>) -> alloc::vec::Vec<PartyId> {
    let mut out: alloc::vec::Vec<PartyId> = lists.into_iter().flatten().map(|b| b.party).collect();
    crate::sort::heapsort(&mut out);
    out.dedup();
    out
}
