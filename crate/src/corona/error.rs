//! Corona's errors.

use crate::wire;
use crate::PartyId;

/// Errors of Corona. None carries secret data.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// (t, n) outside 2 ≤ t ≤ n ≤ 1024.
    #[error("invalid threshold: {t} of {n} (2 ≤ t ≤ n ≤ 1024)")]
    InvalidThreshold {
        /// The threshold.
        t: usize,
        /// The number of parties.
        n: usize,
    },
    /// A signing set smaller than the threshold, or larger than the group.
    #[error("{got} signers, between {min} and {max} needed")]
    WrongSignerCount {
        /// The threshold t.
        min: usize,
        /// The group size n.
        max: usize,
        /// Signers given.
        got: usize,
    },
    /// A signing set lists a party twice.
    #[error("{party} is listed twice in the signing set")]
    DuplicateSigner {
        /// The repeated party.
        party: PartyId,
    },
    /// A signer that is not a party of the group.
    #[error("{party} is not a party of the group")]
    UnknownParty {
        /// The party.
        party: PartyId,
    },
    /// This share's owner is not in the signing set.
    #[error("{party} is not a signer of this session")]
    NotASigner {
        /// The share's owner.
        party: PartyId,
    },
    /// A key package whose digest of the group key is not the group key given with it.
    #[error("the key package belongs to another group key")]
    KeyMismatch,
    /// A context string longer than 255 bytes.
    #[error("context of {len} bytes (at most 255)")]
    ContextTooLong {
        /// Its length.
        len: usize,
    },
    /// Bytes that do not decode as the object named.
    #[error("malformed {what}: {source}")]
    Malformed {
        /// What was being decoded (`"signature"`, `"group key"`, `"key package"`).
        what: &'static str,
        /// Why.
        source: wire::Error,
    },
    /// A signature that does not verify.
    #[error("the signature does not verify")]
    InvalidSignature,
    /// The sum of the round-1 commitments is degenerate in some NTT slot (the spec's
    /// full-rank check). An honest sum fails with probability about 2^-1990, so a signer
    /// crafted its commitment; the check cannot say which one. Start a new session.
    #[error("the round-1 commitments sum to a degenerate matrix; nobody can be named")]
    DegenerateCommitments,
    /// The combined signature does not verify (fail closed: nothing is released). Some
    /// signer sent a wrong response; Corona's responses carry no per-party verification
    /// equation, so nobody can be named. Start a new session, if need be without suspects.
    #[error("the combined signature does not verify; nobody can be named and nothing was released")]
    UnattributableAbort,
    /// The combined response left the encodable range |z| < 2^47 (never honestly).
    #[error("the combined response is out of range; nothing was released")]
    ResponseOutOfRange,
}

impl Error {
    /// A stable code for this error.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidThreshold { .. } => "INVALID_THRESHOLD",
            Error::WrongSignerCount { .. } => "WRONG_SIGNER_COUNT",
            Error::DuplicateSigner { .. } => "DUPLICATE_PARTY",
            Error::UnknownParty { .. } => "UNKNOWN_PARTY",
            Error::NotASigner { .. } => "NOT_A_SIGNER",
            Error::KeyMismatch => "GROUP_MISMATCH",
            Error::ContextTooLong { .. } => "CONTEXT_TOO_LONG",
            Error::Malformed { source, .. } => source.code(),
            Error::InvalidSignature => "INVALID_SIGNATURE",
            Error::DegenerateCommitments => "DEGENERATE_COMMITMENTS",
            Error::UnattributableAbort => "UNATTRIBUTABLE_ABORT",
            Error::ResponseOutOfRange => "RESPONSE_OUT_OF_RANGE",
        }
    }

    /// The parties this error blames.
    ///
    /// Always empty: a Corona party names misbehaving peers in its dropped messages
    /// ([`Party::dropped_so_far`](crate::party::Party::dropped_so_far)), and its terminal
    /// failures cannot be attributed.
    pub fn culprits(&self) -> &[PartyId] {
        &[]
    }

    pub(crate) fn malformed(what: &'static str) -> impl Fn(wire::Error) -> Error {
        move |source| Error::Malformed { what, source }
    }
}
