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

// Without the threshold stack (the verify-only `light` build) only the frames remain.
#[cfg(feature = "protocols")]
pub mod committee;
// Custody's LSS runs over Ristretto255.
#[cfg(feature = "ristretto255")]
pub mod custody;
pub mod frame;

#[cfg(feature = "protocols")]
use alloc::vec::Vec;

#[cfg(feature = "protocols")]
use crate::party::Blame;
#[cfg(feature = "protocols")]
use crate::{lss, mldsa, wire, PartyId};

/// Errors from Pulsar. None carries secret data.
///
/// Variants that a party can cause name it ([`Error::culprits`]); the layer that knows
/// the transport's sender attaches the id.
#[cfg(feature = "protocols")]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
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
    /// Too few valid shares (or commitments) to rebuild the key: the session failed.
    #[error(
        "{got} valid shares, {needed} needed; culprits: {}",
        crate::party::Parties(culprits)
    )]
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
    /// Ordinary signing was asked to use a context reserved for activation or the key
    /// ceremony.
    #[error("the context is reserved for activation or the key ceremony")]
    ReservedContext,
    /// A sealed direct message did not open (`custody::envelope::open_message`): altered,
    /// truncated, or sealed for another key or binding.
    #[error("the envelope does not open: altered, or sealed for another key or binding")]
    EnvelopeNotOpened,
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

#[cfg(feature = "protocols")]
impl Error {
    /// A stable, upper-case code for this error, as JavaScript sees it. Codes are API.
    pub fn code(&self) -> &'static str {
        match self {
            Error::UnknownParty { .. } => "UNKNOWN_PARTY",
            Error::DuplicateSigner { .. } => "DUPLICATE_PARTY",
            Error::NotEnoughValidShares { .. } => "NOT_ENOUGH_VALID_SHARES",
            Error::NotEnoughSigners { .. } => "NOT_ENOUGH_SIGNERS",
            Error::NotASigner { .. } => "NOT_A_SIGNER",
            Error::GenerationMismatch { .. } => "WRONG_GENERATION",
            Error::GroupMismatch => "GROUP_MISMATCH",
            Error::NotPedersen => "NOT_PEDERSEN",
            Error::GroupKeyMismatch => "GROUP_KEY_MISMATCH",
            Error::CombinerMismatch => "COMBINER_MISMATCH",
            Error::PurposeMismatch => "PURPOSE_MISMATCH",
            Error::InvalidAnnouncement => "INVALID_ANNOUNCEMENT",
            Error::ReservedContext => "RESERVED_CONTEXT",
            Error::EnvelopeNotOpened => "ENVELOPE_NOT_OPENED",
            Error::MlDsa(e) => e.code(),
            Error::Decode(e) => e.code(),
            Error::Lss(e) => e.code(),
        }
    }

    /// The parties this error blames (empty when nobody is to blame).
    pub fn culprits(&self) -> &[PartyId] {
        match self {
            Error::UnknownParty { party } => core::slice::from_ref(party),
            Error::NotEnoughValidShares { culprits, .. } => culprits,
            Error::Lss(e) => e.culprits(),
            Error::DuplicateSigner { .. }
            | Error::NotEnoughSigners { .. }
            | Error::NotASigner { .. }
            | Error::GenerationMismatch { .. }
            | Error::GroupMismatch
            | Error::NotPedersen
            | Error::GroupKeyMismatch
            | Error::CombinerMismatch
            | Error::PurposeMismatch
            | Error::InvalidAnnouncement
            | Error::ReservedContext
            | Error::EnvelopeNotOpened
            | Error::MlDsa(_)
            | Error::Decode(_) => &[],
        }
    }
}
