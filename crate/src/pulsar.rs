//! Pulsar: threshold ML-DSA whose output is a standard FIPS 204 signature.
//!
//! **Trust model (custody).** The 32-byte ML-DSA seed is derived from a group secret
//! that is Shamir-shared with Pedersen (perfectly hiding) commitments. At rest no party,
//! and no coalition below t, knows the key. To sign, t parties release their shares,
//! encrypted, to one combiner, which rebuilds the key in memory, signs, verifies, and
//! zeroizes. The combiner is trusted for that moment. This is the reference design
//! ("reconstruct-on-aggregator"), done with real verification and encryption.
//!
//! What is **not** protected: a malicious or compromised combiner sees the whole key
//! while it signs and can keep it; after that, the threshold no longer protects the key
//! (resharing does not help, since the key itself never changes). Run the combiner where
//! you would run a single-key signer (an HSM, a TEE, a hardened host), pick a fresh
//! combiner key per session, and prefer [`crate::lens`] or the committee scheme where
//! no single machine may ever hold the key.
//!
//! What is protected, and how (research/pulsar.md §1.1 lists what the reference got
//! wrong; none of it is inherited):
//!
//! - Shares never travel in the clear: each goes to the combiner alone, in an ML-KEM-768
//!   encapsulation plus XChaCha20-Poly1305 whose key comes from fresh encapsulation
//!   randomness (never from public values) and whose associated data binds the session,
//!   the message digest, the generation, the sender and the combiner.
//! - No DKG member learns the secret: the key ceremony is the LSS Pedersen DKG, which
//!   publishes nothing like `x·G`.
//! - Every share is checked against the public Pedersen commitments before use; a bad
//!   share, a failed decryption, a replay from another session, message or generation,
//!   or a message from a non-member is rejected and **names its sender**.
//! - The key is rebuilt with Lagrange coefficients over the set actually used, and the
//!   combiner refuses to sign unless the rebuilt public key equals the group key
//!   ([`Error::GroupKeyMismatch`]); every signature is verified before it is returned.
//!
//! The custody protocol lives in [`custody`]; the reference's `PULS`/`PULG` frames in
//! [`frame`].
// FIPS 204 symbols (xi, rho, …) are kept as in the standard inside algorithms.
#![allow(non_snake_case, clippy::similar_names, clippy::many_single_char_names)]

pub mod custody;
pub mod frame;

use alloc::vec::Vec;

use crate::{lss, mldsa, wire, PartyId};

/// One party blamed by the combiner, with the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blame {
    /// The party (as named by the authenticated transport).
    pub party: PartyId,
    /// Why: one of the per-party variants of [`Error`] (its
    /// [`culprits`](Error::culprits) is `[party]`).
    pub error: Error,
}

/// Errors from Pulsar. None carries secret data.
///
/// Variants that a party can cause name it ([`Error::culprits`]); the layer that knows
/// the transport's sender attaches the id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A share does not open the public Pedersen commitments at its sender's id, or the
    /// decrypted opening is malformed.
    #[error("the share from {party} does not match the public commitments")]
    InvalidShare {
        /// The sender.
        party: PartyId,
    },
    /// A message came from a party that is not a signer of this session (a non-member
    /// or a member not in the announced signing set).
    #[error("message from {party}, which is not a signer of this session")]
    UnknownParty {
        /// The transport's sender.
        party: PartyId,
    },
    /// A signing set lists a party twice.
    #[error("{party} is listed twice in the signing set")]
    DuplicateSigner {
        /// The repeated party.
        party: PartyId,
    },
    /// A message's `from` differs from the transport's sender.
    #[error("message from {party} claims to come from {claimed}")]
    SenderMismatch {
        /// The transport's sender.
        party: PartyId,
        /// What the message says.
        claimed: PartyId,
    },
    /// A message names another session (a replay from another session).
    #[error("message from {party} belongs to another session")]
    WrongSession {
        /// The sender.
        party: PartyId,
    },
    /// A message is bound to another message digest (a replay for another message).
    #[error("message from {party} is bound to another message")]
    WrongMessage {
        /// The sender.
        party: PartyId,
    },
    /// A message is bound to another generation of the sharing (for example a share
    /// from before a reshare).
    #[error("message from {party} is for generation {got}, expected {expected}")]
    WrongGeneration {
        /// The sender.
        party: PartyId,
        /// The session's generation.
        expected: u64,
        /// The message's generation.
        got: u64,
    },
    /// A message is addressed to another combiner.
    #[error("message from {party} is addressed to {to}")]
    WrongRecipient {
        /// The sender.
        party: PartyId,
        /// The addressee it names.
        to: PartyId,
    },
    /// A message's purpose (key ceremony or signing) or ML-DSA mode differs from the
    /// session's.
    #[error("message from {party} has parameters that differ from the session")]
    ParameterMismatch {
        /// The sender.
        party: PartyId,
    },
    /// An envelope arrived without a valid round-1 commitment from its sender.
    #[error("envelope from {party} has no valid round-1 commitment")]
    MissingCommitment {
        /// The sender.
        party: PartyId,
    },
    /// An envelope differs from the one its sender committed to in round 1.
    #[error("envelope from {party} does not match its round-1 commitment")]
    CommitmentMismatch {
        /// The sender.
        party: PartyId,
    },
    /// A signer committed in round 1 but sent no envelope.
    #[error("{party} committed but sent no envelope")]
    MissingEnvelope {
        /// The signer.
        party: PartyId,
    },
    /// An envelope does not decrypt (tampered ciphertext, or bound to other data).
    #[error("the envelope from {party} does not decrypt")]
    DecryptionFailed {
        /// The sender.
        party: PartyId,
    },
    /// The round-1 broadcast map holds a commitment under this party's own id that is not
    /// the one it made.
    #[error("the round-1 commitment under {party} is not the one it made")]
    ConflictingMessage {
        /// The party whose commitment was altered.
        party: PartyId,
    },
    /// Too few valid shares (or commitments) to rebuild the key: the session failed.
    #[error("{got} valid shares, {needed} needed; culprits {culprits:?}")]
    NotEnoughValidShares {
        /// The threshold.
        needed: usize,
        /// Valid shares (or commitments) received.
        got: usize,
        /// Every party blamed, increasing.
        culprits: Vec<PartyId>,
        /// Why each was blamed, in the same order.
        blame: Vec<Blame>,
    },
    /// A signing set smaller than the threshold.
    #[error("{got} signers, at least {needed} needed")]
    NotEnoughSigners {
        /// The threshold.
        needed: usize,
        /// Signers given.
        got: usize,
    },
    /// This party is not in the session's signing set.
    #[error("{party} is not a signer of this session")]
    NotASigner {
        /// The party.
        party: PartyId,
    },
    /// A local key share is from another generation than the session's: old-generation
    /// shares are never mixed with new ones.
    #[error("key share is from generation {got}, the session is at generation {expected}")]
    GenerationMismatch {
        /// The session's generation.
        expected: u64,
        /// The key share's generation.
        got: u64,
    },
    /// A key share, sharing or certificate belongs to another group (its group
    /// commitment, public data or key differ from the expected ones).
    #[error("the key share or sharing belongs to another group")]
    GroupMismatch,
    /// A sharing uses Feldman commitments, which publish `x·G`: Pulsar custody accepts
    /// only Pedersen (perfectly hiding) sharings.
    #[error("the sharing is not Pedersen-committed")]
    NotPedersen,
    /// The rebuilt ML-DSA public key differs from the group key: no signature was made.
    #[error("the rebuilt public key does not equal the group key")]
    GroupKeyMismatch,
    /// The combiner's key does not match the session's combiner.
    #[error("the combiner key does not match the session")]
    CombinerMismatch,
    /// An operation for one purpose was called on a session of another (for example
    /// signing on a key-ceremony session).
    #[error("the session has another purpose")]
    PurposeMismatch,
    /// A group-key announcement does not match the sharing or its proof of possession
    /// does not verify.
    #[error("invalid group-key announcement")]
    InvalidAnnouncement,
    /// An activation certificate does not verify under the group key.
    #[error("invalid activation certificate")]
    InvalidActivation,
    /// An ML-DSA error (context too long, or a signature that failed its own check).
    #[error("ML-DSA: {0}")]
    MlDsa(#[from] mldsa::Error),
    /// A decoding error (no sender known at this layer).
    #[error("decoding: {0}")]
    Decode(#[from] wire::Error),
    /// A resharing-kernel error.
    #[error("LSS: {0}")]
    Lss(#[from] lss::Error),
}

impl Error {
    /// A stable, upper-case code for this error, as JavaScript sees it. Codes are API.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidShare { .. } => "INVALID_SHARE",
            Error::UnknownParty { .. } => "UNKNOWN_PARTY",
            Error::DuplicateSigner { .. } => "DUPLICATE_SIGNER",
            Error::SenderMismatch { .. } => "SENDER_MISMATCH",
            Error::WrongSession { .. } => "WRONG_SESSION",
            Error::WrongMessage { .. } => "WRONG_MESSAGE",
            Error::WrongGeneration { .. } => "WRONG_GENERATION",
            Error::WrongRecipient { .. } => "WRONG_RECIPIENT",
            Error::ParameterMismatch { .. } => "PARAMETER_MISMATCH",
            Error::MissingCommitment { .. } => "MISSING_COMMITMENT",
            Error::CommitmentMismatch { .. } => "COMMITMENT_MISMATCH",
            Error::MissingEnvelope { .. } => "MISSING_ENVELOPE",
            Error::DecryptionFailed { .. } => "DECRYPTION_FAILED",
            Error::ConflictingMessage { .. } => "CONFLICTING_MESSAGE",
            Error::NotEnoughValidShares { .. } => "NOT_ENOUGH_VALID_SHARES",
            Error::NotEnoughSigners { .. } => "NOT_ENOUGH_SIGNERS",
            Error::NotASigner { .. } => "NOT_A_SIGNER",
            Error::GenerationMismatch { .. } => "GENERATION_MISMATCH",
            Error::GroupMismatch => "GROUP_MISMATCH",
            Error::NotPedersen => "NOT_PEDERSEN",
            Error::GroupKeyMismatch => "GROUP_KEY_MISMATCH",
            Error::CombinerMismatch => "COMBINER_MISMATCH",
            Error::PurposeMismatch => "PURPOSE_MISMATCH",
            Error::InvalidAnnouncement => "INVALID_ANNOUNCEMENT",
            Error::InvalidActivation => "INVALID_ACTIVATION",
            Error::MlDsa(e) => e.code(),
            Error::Decode(e) => e.code(),
            Error::Lss(e) => e.code(),
        }
    }

    /// The parties this error blames (empty when nobody is to blame).
    pub fn culprits(&self) -> &[PartyId] {
        match self {
            Error::InvalidShare { party }
            | Error::UnknownParty { party }
            | Error::SenderMismatch { party, .. }
            | Error::WrongSession { party }
            | Error::WrongMessage { party }
            | Error::WrongGeneration { party, .. }
            | Error::WrongRecipient { party, .. }
            | Error::ParameterMismatch { party }
            | Error::MissingCommitment { party }
            | Error::CommitmentMismatch { party }
            | Error::MissingEnvelope { party }
            | Error::DecryptionFailed { party } => core::slice::from_ref(party),
            Error::NotEnoughValidShares { culprits, .. } => culprits,
            Error::Lss(e) => e.culprits(),
            Error::DuplicateSigner { .. }
            | Error::ConflictingMessage { .. }
            | Error::NotEnoughSigners { .. }
            | Error::NotASigner { .. }
            | Error::GenerationMismatch { .. }
            | Error::GroupMismatch
            | Error::NotPedersen
            | Error::GroupKeyMismatch
            | Error::CombinerMismatch
            | Error::PurposeMismatch
            | Error::InvalidAnnouncement
            | Error::InvalidActivation
            | Error::MlDsa(_)
            | Error::Decode(_) => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_culprits_name_the_party() {
        let p = PartyId::new(7).unwrap();
        let all = [
            Error::InvalidShare { party: p },
            Error::UnknownParty { party: p },
            Error::DuplicateSigner { party: p },
            Error::SenderMismatch { party: p, claimed: p },
            Error::WrongSession { party: p },
            Error::WrongMessage { party: p },
            Error::WrongGeneration {
                party: p,
                expected: 1,
                got: 0,
            },
            Error::WrongRecipient { party: p, to: p },
            Error::ParameterMismatch { party: p },
            Error::MissingCommitment { party: p },
            Error::CommitmentMismatch { party: p },
            Error::MissingEnvelope { party: p },
            Error::DecryptionFailed { party: p },
            Error::ConflictingMessage { party: p },
            Error::NotEnoughValidShares {
                needed: 2,
                got: 1,
                culprits: alloc::vec![p],
                blame: Vec::new(),
            },
            Error::NotEnoughSigners { needed: 2, got: 1 },
            Error::NotASigner { party: p },
            Error::GenerationMismatch { expected: 1, got: 0 },
            Error::GroupMismatch,
            Error::NotPedersen,
            Error::GroupKeyMismatch,
            Error::CombinerMismatch,
            Error::PurposeMismatch,
            Error::InvalidAnnouncement,
            Error::InvalidActivation,
        ];
        let mut codes: Vec<&str> = all.iter().map(Error::code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), all.len());
        for e in &all {
            assert!(e.code().bytes().all(|b| b.is_ascii_uppercase() || b == b'_'));
            let blames = !e.culprits().is_empty();
            assert_eq!(blames, e.culprits() == [p], "{e:?}");
        }
    }
}
