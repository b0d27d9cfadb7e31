//! The committee's errors.

use alloc::vec::Vec;

use crate::party::Blame;
use crate::PartyId;

/// Errors of the Pulsar committee. None carries secret data.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// (T, N) outside 2 ≤ T ≤ N ≤ 6, or a member list that is not strictly increasing.
    #[error("invalid committee: {0}")]
    InvalidCommittee(&'static str),
    /// A signing set whose size is not the threshold (the scheme signs with exactly T).
    #[error("{got} signers, exactly {needed} needed")]
    WrongSignerCount {
        /// The threshold T.
        needed: usize,
        /// Signers given.
        got: usize,
    },
    /// A signing set lists a party twice.
    #[error("{party} is listed twice in the signing set")]
    DuplicateSigner {
        /// The repeated party.
        party: PartyId,
    },
    /// A signer that is not a member of the committee.
    #[error("{party} is not a member of the committee")]
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
    /// A share that belongs to another committee key than the one given.
    #[error("the share belongs to another committee key")]
    KeyMismatch,
    /// A context string longer than FIPS 204's 255 bytes.
    #[error("context of {len} bytes (at most 255)")]
    ContextTooLong {
        /// Its length.
        len: usize,
    },
    /// A signer proved to misbehave (a reveal that breaks its commitment): this session
    /// cannot produce a signature. The party keeps its state; start a new session without
    /// the culprits.
    #[error("signing aborted; culprits: {}", crate::party::Parties(culprits))]
    Aborted {
        /// Every party blamed, increasing.
        culprits: Vec<PartyId>,
        /// Why each was blamed.
        blame: Vec<Blame>,
    },
    /// Every run of the session failed (each succeeds with probability at least ½, so this
    /// means bad luck far below 2^-runs, or a signer sending wrong responses).
    #[error("no signature after {runs} runs")]
    RunsExhausted {
        /// Runs made.
        runs: u16,
    },
    /// A combined signature did not verify under the committee key (fail closed: a signer
    /// sent a response that breaks the scheme's equations in a way Combine's checks missed).
    #[error("the combined signature does not verify; nothing was released")]
    CombinedSignatureInvalid,
}

impl Error {
    /// A stable code for this error.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidCommittee(_) => "INVALID_COMMITTEE",
            Error::WrongSignerCount { .. } => "WRONG_SIGNER_COUNT",
            Error::DuplicateSigner { .. } => "DUPLICATE_PARTY",
            Error::UnknownParty { .. } => "UNKNOWN_PARTY",
            Error::NotASigner { .. } => "NOT_A_SIGNER",
            Error::KeyMismatch => "GROUP_MISMATCH",
            Error::ContextTooLong { .. } => "CONTEXT_TOO_LONG",
            Error::Aborted { .. } => "SIGNING_ABORTED",
            Error::RunsExhausted { .. } => "RUNS_EXHAUSTED",
            Error::CombinedSignatureInvalid => "COMBINED_SIGNATURE_INVALID",
        }
    }

    /// The parties this error blames.
    pub fn culprits(&self) -> &[PartyId] {
        match self {
            Error::Aborted { culprits, .. } => culprits,
            _ => &[],
        }
    }
}
