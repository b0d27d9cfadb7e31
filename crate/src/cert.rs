//! The Quasar finality certificate and the light client that follows it.
//!
//! A block is final for a light client when a certificate over its [`Header`] carries, for
//! every leg the **caller's** [`Policy`] requires, a valid signature by the validator set
//! the client trusts for that epoch, with a weighted quorum where the leg has weights. The
//! client moves to the next epoch's set only through a certificate, final under the current
//! set, whose header commits to the new set's root ([`LightClient`]).
//!
//! | piece | type | wire |
//! |---|---|---|
//! | validator set of an epoch | [`ValidatorSet`] (owned), [`ValidatorSetView`] (borrowed) | `QVST` ([`set`]) |
//! | the set, keys validated and prepared once | [`TrustedSet`] | — |
//! | block header, finality message | [`Header`], [`Header::message`] | inside `QCRT` ([`header`]) |
//! | certificate | [`CertificateView`] (zero-copy), [`CertificateBuilder`] | `QCRT` ([`view`]) |
//! | what to require | [`Policy`], [`LegKind`], [`LegSet`] | never on the wire |
//! | the verdict | [`Report`], [`LegReport`], [`Verdict`] | — |
//!
//! # Legs
//!
//! | kind | byte | signs the finality message with | weighted quorum |
//! |---|---|---|---|
//! | [`LegKind::Bls`] | 1 | BLS12-381 min-pk aggregate of the signers in a bitmap ([`crate::bls`]) | yes |
//! | [`LegKind::Pulsar`] | 2 | one ML-DSA signature (`PULS` frame) under the epoch's Pulsar group key (`PULG`) | no: the group's threshold |
//! | [`LegKind::Corona`] | 3 | one Corona t-of-n threshold lattice signature (`CORS` frame) under the epoch's Corona group key (`CORG`, [`crate::corona`]) | no: the group's threshold |
//! | [`LegKind::Magnetar`] | 4 | per-validator SLH-DSA signatures (Magnetar aggregate) | yes |
//! | [`LegKind::MlDsaSet`] | 5 | per-validator ML-DSA signatures of the signers in a bitmap | yes |
//!
//! # Verification order
//!
//! [`verify`] parses the certificate into borrowed views ([`CertificateView::parse`]: magic,
//! version, exact lengths, legs in increasing kind order, no trailing bytes), checks the
//! header against the trusted set (chain, epoch, set root, key era), then every required leg's
//! structure (present, keyed by the set, bitmap of the set's size, modes, the signers' weight
//! against the quorum) — all without any signature work and without allocating — and only
//! then the signatures, cheapest first (Pulsar, Corona, BLS, ML-DSA set, Magnetar). It stops at the
//! first failure unless the caller asks for the full report ([`Options::full`]).
//!
//! # Security
//! Verification works on public data only. The policy and the trusted set come from the
//! caller; nothing in a certificate can lower what is required. The Pulsar leg proves that a
//! threshold of the custody group signed *through a combiner* (see [`crate::pulsar`] for that
//! trust model). The Corona leg proves that a threshold of the Corona group signed with no
//! aggregator able to sign alone: every signer combines and verifies, and no machine holds
//! the key after the dealer that made it ([`crate::corona`]'s trust model: a trusted dealer).
//! Neither says anything about stake, which is why every policy also needs a weighted leg.

use crate::{bls, corona, magnetar, mldsa, slhdsa, wire};

mod bitmap;
#[cfg(not(feature = "light"))]
mod builder;
// The `devnet` feature has it too (the WASM `testChain`), with the simulator kept private.
#[cfg(all(any(feature = "sim", feature = "devnet"), not(feature = "light")))]
pub mod devnet;
pub mod header;
mod light;
mod policy;
mod report;
pub mod set;
mod trusted;
mod verify;
pub mod view;

pub use bitmap::Bitmap;
#[cfg(not(feature = "light"))]
pub use builder::CertificateBuilder;
pub use header::{Header, HEADER_VERSION};
pub use light::{Accepted, LightClient, Refused};
pub use policy::{LegKind, LegSet, Policy};
pub use report::{LegReport, Report, Verdict};
pub use set::{SetParams, Validator, ValidatorSet, ValidatorSetView, MAX_SET_LEN, MAX_VALIDATORS};
pub use trusted::TrustedSet;
pub use verify::{check, verify, Checked, Options, Tally};
pub use view::{max_certificate_len, CertificateView, LegView};

/// The ML-DSA context of the Pulsar leg's signature (FIPS 204 pure signing with context).
pub const PULSAR_CONTEXT: &[u8] = crate::hash::tags::CERT_PULSAR_CONTEXT.as_bytes();

/// The Corona context of the Corona leg's signature.
pub const CORONA_CONTEXT: &[u8] = crate::hash::tags::CERT_CORONA_CONTEXT.as_bytes();

/// The ML-DSA context of every signature of the ML-DSA-set leg.
pub const MLDSA_CONTEXT: &[u8] = crate::hash::tags::CERT_MLDSA_CONTEXT.as_bytes();

/// The SLH-DSA context of every signature of the Magnetar leg.
pub const MAGNETAR_CONTEXT: &[u8] = crate::hash::tags::CERT_MAGNETAR_CONTEXT.as_bytes();

/// Errors of certificates, validator sets, policies and the light client. Each has a
/// stable code ([`Error::code`]); wrappers of another module's error report its code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Bytes that do not decode (truncated, trailing bytes, bad magic or version, …).
    #[error("decoding: {0}")]
    Decode(#[from] wire::Error),
    /// A certificate or validator set longer than any its format admits
    /// ([`view::max_certificate_len`] for the trusted set's size, [`set::MAX_SET_LEN`]).
    #[error("the {what} is {len} bytes, longer than the {max} its format admits")]
    TooLong {
        /// `"certificate"` or `"validator set"`.
        what: &'static str,
        /// Its length.
        len: usize,
        /// The most admitted.
        max: usize,
    },
    /// A leg kind byte that names no leg.
    #[error("unknown leg kind {0}")]
    UnknownLeg(u8),
    /// Two legs of one kind, or legs out of increasing kind order.
    #[error("leg {0} repeated or out of order")]
    DuplicateLeg(LegKind),
    /// Validator ids out of increasing order.
    #[error("validator {index} is out of order")]
    UnsortedValidators {
        /// The position of the first id not above its predecessor.
        index: usize,
    },
    /// Two validators with one id.
    #[error("validators {index} and {} have the same id", index - 1)]
    DuplicateValidator {
        /// The position of the second.
        index: usize,
    },
    /// A validator of weight zero.
    #[error("validator {index} has weight 0")]
    ZeroWeight {
        /// Its position.
        index: usize,
    },
    /// The weights add up to more than 2^64 − 1.
    #[error("the total weight overflows 64 bits")]
    WeightOverflow,
    /// A validator's BLS key or proof of possession fails its checks, or a set-level BLS
    /// check fails (a repeated key).
    #[error("validator {index}: {error}")]
    InvalidBlsKey {
        /// The validator's position.
        index: usize,
        /// Why.
        error: bls::Error,
    },
    /// A validator's (or the group's) ML-DSA key fails its checks.
    #[error("ML-DSA key: {0}")]
    InvalidMlDsaKey(mldsa::Error),
    /// Two validators registered one ML-DSA key: one signature would count for both.
    #[error("validators {first} and {second} have the same ML-DSA key")]
    DuplicateMlDsaKey {
        /// The position of the first.
        first: usize,
        /// The position of the second.
        second: usize,
    },
    /// A validator's SLH-DSA key fails its checks.
    #[error("SLH-DSA key: {0}")]
    InvalidSlhDsaKey(slhdsa::Error),
    /// The set's Corona group key, or the Corona leg's signature frame, fails to decode (the
    /// Corona error says why, with its own code).
    #[error("corona: {0}")]
    Corona(corona::Error),
    /// The certificate is for another chain than the trusted set.
    #[error("certificate for chain {got}, the set is for chain {expected}")]
    WrongChain {
        /// The set's chain.
        expected: u64,
        /// The header's.
        got: u64,
    },
    /// The certificate is for another epoch than the trusted set's.
    #[error("certificate for epoch {got}, the set is for epoch {expected}")]
    WrongEpoch {
        /// The set's epoch.
        expected: u64,
        /// The header's.
        got: u64,
    },
    /// The header names another validator set than the trusted one.
    #[error("the header's validator-set root is not the trusted set's")]
    SetRootMismatch,
    /// The header names another key era than the trusted set's.
    #[error("certificate for key era {got}, the set is for era {expected}")]
    KeyEraMismatch {
        /// The set's era.
        expected: u64,
        /// The header's.
        got: u64,
    },
    /// A leg the policy requires is absent.
    #[error("the policy requires the {0} leg, which the certificate lacks")]
    MissingLeg(LegKind),
    /// The trusted set has no keys for a leg the policy requires.
    #[error("the validator set has no keys for the {0} leg")]
    MissingKeys(LegKind),
    /// A leg's parameter set (ML-DSA or SLH-DSA mode) is not the set's.
    #[error("the {0} leg uses another parameter set than the validator set")]
    LegModeMismatch(LegKind),
    /// A signer bitmap sized for another set.
    #[error("{kind} leg: bitmap for {got} validators, the set has {expected}")]
    BitmapSize {
        /// The leg.
        kind: LegKind,
        /// The set size.
        expected: usize,
        /// The bitmap's declared size.
        got: usize,
    },
    /// A signer the validator set does not have (a bit beyond the set, an unknown id).
    #[error("{kind} leg: signer {index} is not in the validator set")]
    UnknownSigner {
        /// The leg.
        kind: LegKind,
        /// The bit position, or the signer's position in the leg.
        index: usize,
    },
    /// A signer listed twice in one leg.
    #[error("{kind} leg: signer {index} is listed twice")]
    DuplicateSigner {
        /// The leg.
        kind: LegKind,
        /// The validator's position in the set.
        index: usize,
    },
    /// A leg that names no signer.
    #[error("{0} leg names no signer")]
    NoSigners(LegKind),
    /// The signers' weight does not reach the policy's quorum.
    #[error("{kind} leg: signed weight {signed} of {total} is not a quorum")]
    QuorumNotMet {
        /// The leg.
        kind: LegKind,
        /// The signers' weight.
        signed: u64,
        /// The set's total weight.
        total: u64,
    },
    /// A leg's signature does not verify.
    #[error("{kind} leg: the signature does not verify")]
    InvalidSignature {
        /// The leg.
        kind: LegKind,
        /// For per-validator legs, the set position of the first signer whose signature
        /// fails.
        signer: Option<usize>,
    },
    /// A leg's signature does not decode (BLS: a compressed G2 point that is not canonical,
    /// not on the curve or not in the subgroup).
    #[error("{kind} leg: malformed signature: {error}")]
    MalformedSignature {
        /// The leg.
        kind: LegKind,
        /// Why.
        error: bls::Error,
    },
    /// The Magnetar leg's aggregate certificate, or the set's SLH-DSA keys as a Magnetar
    /// registry, failed (the Magnetar error says why, with its own code).
    #[error("magnetar leg: {0}")]
    Magnetar(magnetar::Error),
    /// A policy that cannot be used (no leg, no weighted leg, or a leg not supported yet).
    #[error("invalid policy: {0}")]
    InvalidPolicy(&'static str),
    /// A policy name that names no policy.
    #[error("unknown policy name")]
    UnknownPolicy,
    /// A certificate older than what the light client already accepted.
    #[error("stale certificate: epoch {epoch} height {height}, already at epoch {current_epoch} height {current_height}")]
    StaleCertificate {
        /// The certificate's epoch.
        epoch: u64,
        /// The certificate's height.
        height: u64,
        /// The client's epoch.
        current_epoch: u64,
        /// The client's last accepted height.
        current_height: u64,
    },
    /// A certificate or validator set for an epoch the client cannot reach from its own
    /// (it must follow every epoch change).
    #[error("epoch {got} is not reachable from epoch {current} without skipping an epoch change")]
    SkippedEpoch {
        /// The client's epoch.
        current: u64,
        /// The epoch given.
        got: u64,
    },
    /// The certificate ends the epoch (commits to a next set) but no next set was given.
    #[error("the certificate commits to a next validator set; give it")]
    MissingNextSet,
    /// A next set was given with a certificate that commits to none.
    #[error("a next validator set was given but the certificate commits to none")]
    UnexpectedNextSet,
    /// The next set given is not the one the certificate commits to.
    #[error("the next validator set's root is not the one the certificate commits to")]
    NextSetMismatch,
    /// The next set goes back to an earlier key era.
    #[error("the next validator set's key era {got} is before the current era {current}")]
    KeyEraRegression {
        /// The current era.
        current: u64,
        /// The next set's.
        got: u64,
    },
    /// The next set keeps the key era but carries another Pulsar or Corona group key.
    #[error("the next validator set keeps key era {0} with another threshold group key")]
    EraKeyChanged(u64),
}

impl Error {
    /// A stable, upper-case code for this error, as JavaScript sees it. Codes are API.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Decode(e) => e.code(),
            Error::TooLong { .. } => "TOO_LONG",
            Error::UnknownLeg(_) => "UNKNOWN_LEG",
            Error::DuplicateLeg(_) => "DUPLICATE_LEG",
            Error::UnsortedValidators { .. } => "UNSORTED_VALIDATORS",
            Error::DuplicateValidator { .. } => "DUPLICATE_VALIDATOR",
            Error::ZeroWeight { .. } => "ZERO_WEIGHT",
            Error::WeightOverflow => "WEIGHT_OVERFLOW",
            Error::InvalidBlsKey { error, .. } => error.code(),
            Error::InvalidMlDsaKey(e) => e.code(),
            Error::DuplicateMlDsaKey { .. } => "DUPLICATE_KEY",
            Error::InvalidSlhDsaKey(e) => e.code(),
            Error::Corona(e) => e.code(),
            Error::WrongChain { .. } => "WRONG_CHAIN",
            Error::WrongEpoch { .. } => "WRONG_EPOCH",
            Error::SetRootMismatch => "SET_ROOT_MISMATCH",
            Error::KeyEraMismatch { .. } => "KEY_ERA_MISMATCH",
            Error::MissingLeg(_) => "MISSING_LEG",
            Error::MissingKeys(_) => "MISSING_KEYS",
            Error::LegModeMismatch(_) => "LEG_MODE_MISMATCH",
            Error::BitmapSize { .. } => "BITMAP_SIZE_MISMATCH",
            Error::UnknownSigner { .. } => "UNKNOWN_SIGNER",
            Error::DuplicateSigner { .. } => "DUPLICATE_SIGNER",
            Error::NoSigners(_) => "NO_SIGNERS",
            Error::QuorumNotMet { .. } => "QUORUM_NOT_MET",
            Error::InvalidSignature { .. } => "INVALID_SIGNATURE",
            Error::MalformedSignature { error, .. } => error.code(),
            Error::Magnetar(e) => e.code(),
            Error::InvalidPolicy(_) => "INVALID_POLICY",
            Error::UnknownPolicy => "UNKNOWN_POLICY",
            Error::StaleCertificate { .. } => "STALE_CERTIFICATE",
            Error::SkippedEpoch { .. } => "SKIPPED_EPOCH",
            Error::MissingNextSet => "MISSING_NEXT_SET",
            Error::UnexpectedNextSet => "UNEXPECTED_NEXT_SET",
            Error::NextSetMismatch => "NEXT_SET_MISMATCH",
            Error::KeyEraRegression { .. } => "KEY_ERA_REGRESSION",
            Error::EraKeyChanged(_) => "ERA_KEY_CHANGED",
        }
    }

    /// The leg this error is about, if it is about one.
    pub fn leg(&self) -> Option<LegKind> {
        match self {
            Error::DuplicateLeg(k)
            | Error::MissingLeg(k)
            | Error::MissingKeys(k)
            | Error::LegModeMismatch(k)
            | Error::NoSigners(k) => Some(*k),
            Error::Magnetar(_) => Some(LegKind::Magnetar),
            Error::Corona(_) => Some(LegKind::Corona),
            Error::BitmapSize { kind, .. }
            | Error::UnknownSigner { kind, .. }
            | Error::DuplicateSigner { kind, .. }
            | Error::QuorumNotMet { kind, .. }
            | Error::InvalidSignature { kind, .. }
            | Error::MalformedSignature { kind, .. } => Some(*kind),
            _ => None,
        }
    }
}
