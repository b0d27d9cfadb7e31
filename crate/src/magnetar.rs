//! Magnetar: per-validator SLH-DSA (FIPS 205) signatures, the reference's `MAGS`/`MAGG`
//! envelopes, batch verification, and aggregate certificates checked against a weighted
//! validator registry with a quorum rule.
//!
//! # Trust model
//!
//! Every validator holds its own SLH-DSA key; there is no threshold and no shared secret.
//! An aggregate certificate is a list of ordinary FIPS 205 signatures, one per signer, on
//! one message; it grows linearly (16,256 bytes per signer at SHAKE-192s).
//!
//! A certificate that passes [`AggregateCertificate::verify`] proves: validators of the
//! given [`Registry`] whose weights sum to more than the [`Quorum`](crate::quorum::Quorum)
//! (by default 2/3) of the registry's total each produced a valid signature on exactly this
//! message and context under the key the registry holds for them. Its strength is that of
//! SLH-DSA alone (second-preimage and PRF properties of SHAKE256), unforgeable per key.
//!
//! It does **not** prove:
//! - that the registry is the right validator set: the caller supplies it, and a light
//!   client must obtain it from a trusted start and verified epoch changes;
//! - what the message means, or that it is fresh: bind the chain, epoch, height and
//!   purpose into the message (and use the context for the domain), or a certificate can
//!   be replayed wherever the same bytes are accepted;
//! - anything about the validators who are not listed (absence is not evidence), nor that
//!   the signers are honest, only that they signed;
//! - uniqueness: different signer subsets give different valid certificates.
//!
//! Unlike the reference: an unknown signer and a duplicated signer are errors (it counted
//! the first as invalid and silently dropped the second); the quorum rule is applied here
//! (it returned a count and left the rule to the caller); signatures are checked under the
//! registered keys only (the certificate carries no keys to compare); and every decoder
//! rejects trailing bytes.
//!
//! # Verdict rule
//!
//! One invalid signature makes the whole certificate invalid (`INVALID_SIGNATURE`), even
//! when the valid rest would meet the quorum. A certificate is a claim about who signed;
//! an aggregator can check each contribution before adding it ([`verify_batch`]), so a bad
//! entry means a faulty or hostile aggregator, and accepting the remainder would let a
//! relay attribute votes to validators who never cast them. The light client's answer is
//! then a plain yes or no; [`AggregateCertificate::check`] still reports who failed
//! ([`Report::failed`]) and the weights, and the error names the failed signers too.
//!
//! # Wire formats (all integers big-endian)
//!
//! `MAGS` (signature) and `MAGG` (public key) envelopes, exactly as the reference:
//!
//! | offset | bytes | field | `MAGS` | `MAGG` |
//! |---|---|---|---|---|
//! | 0 | 4 | magic | `4D 41 47 53` | `4D 41 47 47` |
//! | 4 | 2 | version | `00 01` | `00 01` |
//! | 6 | 1 | mode | 0x01 SHAKE-192s, 0x02 SHAKE-192f, 0x03 SHAKE-256s | same |
//! | 7 | 4 | length: must equal the mode's size | 16224, 35664, 29792 | 48, 48, 64 |
//! | 11 | length | payload | the FIPS 205 signature | PK.seed ‖ PK.root |
//!
//! Decoding checks, in this order: at least 11 bytes, magic, version, known mode, declared
//! length equal to the mode's, the payload present, nothing after it. Stripping the header
//! leaves stock FIPS 205 bytes.
//!
//! `MAGA` aggregate certificate (ours; the reference has no codec of its own):
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 4 | magic `4D 41 47 41` (`MAGA`) |
//! | 4 | 2 | version `00 01` |
//! | 6 | 1 | mode (as above) |
//! | 7 | 2 | N, the signer count: 1 ≤ N ≤ [`MAX_SIGNERS`] (1024) |
//! | 9 | 32·N | the signers' [`ValidatorId`]s, strictly ascending |
//! | 9 + 32·N | S·N | their raw FIPS 205 signatures in the same order, S = the mode's size |
//!
//! The total length must be exactly 9 + N·(32 + S), checked from the header before any
//! entry is read; a repeated id is `DUPLICATE_SIGNER`, a descending one `INVALID_VALUE`.
//! At SHAKE-192s, 21 signers take 341,385 bytes (the reference's layout, which also
//! repeats every public key, took 342,389).
//!
//! # Modes and keys
//!
//! [`Mode`] has the reference's three sets only. Keys come from the three FIPS 205 seeds
//! ([`SigningKey::from_seeds`]) or from the reference's single 4n-byte seed
//! ([`SigningKey::from_seed`]). Signing is pure SLH-DSA with a context of at most 255
//! bytes (the reference always uses an empty one), deterministic or hedged.
//!
//! # Example
//!
//! ```
//! use quasar_pq::magnetar::{AggregateCertificate, Mode, Registry, SigningKey, Validator, ValidatorId};
//! use quasar_pq::quorum::Quorum;
//!
//! let mode = Mode::Shake192f;
//! let keys: Vec<SigningKey> = (0..4u8)
//!     .map(|i| SigningKey::from_seed(mode, &[i; 96]).unwrap())
//!     .collect();
//! let id = |i: usize| ValidatorId([i as u8 + 1; 32]);
//! let registry = Registry::new(
//!     mode,
//!     keys.iter()
//!         .enumerate()
//!         .map(|(i, k)| Validator { id: id(i), key: k.public_key(), weight: 10 })
//!         .collect(),
//! )
//! .unwrap();
//!
//! // Three of four validators sign block 42: 30 of 40 is more than 2/3.
//! let msg = b"chain 7, height 42, block 0xab..";
//! let ctx = b"example-finality";
//! let votes: Vec<(ValidatorId, Vec<u8>)> =
//!     (0..3).map(|i| (id(i), keys[i].sign_deterministic(msg, ctx).unwrap())).collect();
//! let contributions: Vec<(ValidatorId, &[u8])> = votes.iter().map(|(i, s)| (*i, &s[..])).collect();
//! let bytes = AggregateCertificate::encode(mode, &contributions).unwrap();
//!
//! let cert = AggregateCertificate::decode(&bytes).unwrap();
//! let report = cert.verify(&registry, msg, ctx, Quorum::default()).unwrap();
//! assert_eq!((report.signed_weight, report.total_weight), (30, 40));
//! // Two of four is not enough.
//! let two = AggregateCertificate::encode(mode, &contributions[..2]).unwrap();
//! let err = AggregateCertificate::decode(&two).unwrap().verify(&registry, msg, ctx, Quorum::default());
//! assert_eq!(err.unwrap_err().code(), "QUORUM_NOT_MET");
//! ```

mod aggregate;
mod batch;
pub mod envelope;
mod keys;
mod registry;

pub use aggregate::{AggregateCertificate, Report, MAX_SIGNERS};
pub use batch::{verify_batch, BatchItem};
pub use envelope::{PublicKeyFrame, SignatureFrame};
pub use keys::{verify_bytes, verify_frames, PublicKey, SigningKey};
pub use registry::{Registry, Validator, ValidatorId, MAX_VALIDATORS};

/// The aggregate certificate's magic and version.
pub mod certificate {
    pub use super::aggregate::{HEADER_LEN, MAGIC, VERSION};
}

use alloc::vec::Vec;

use crate::{quorum, slhdsa, wire};

/// A Magnetar parameter set; its discriminant is the envelopes' mode byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Mode {
    /// SLH-DSA-SHAKE-192s (NIST category 3, small signatures; the reference's choice).
    Shake192s = 0x01,
    /// SLH-DSA-SHAKE-192f (category 3, fast signing).
    Shake192f = 0x02,
    /// SLH-DSA-SHAKE-256s (category 5).
    Shake256s = 0x03,
}

impl Mode {
    /// The three sets, by mode byte.
    pub const ALL: [Mode; 3] = [Mode::Shake192s, Mode::Shake192f, Mode::Shake256s];

    /// The set of a mode byte (0x01–0x03), if any.
    pub fn from_byte(b: u8) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.to_byte() == b)
    }

    /// The mode byte.
    pub fn to_byte(self) -> u8 {
        self as u8
    }

    /// The reference's name, e.g. `"Magnetar-SHAKE-192s"`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Shake192s => "Magnetar-SHAKE-192s",
            Mode::Shake192f => "Magnetar-SHAKE-192f",
            Mode::Shake256s => "Magnetar-SHAKE-256s",
        }
    }

    /// The SLH-DSA parameter set.
    pub fn slhdsa(self) -> slhdsa::Mode {
        match self {
            Mode::Shake192s => slhdsa::Mode::Shake192s,
            Mode::Shake192f => slhdsa::Mode::Shake192f,
            Mode::Shake256s => slhdsa::Mode::Shake256s,
        }
    }

    /// Raw public-key bytes (2n): 48, 48, 64.
    pub fn public_key_len(self) -> usize {
        self.slhdsa().public_key_len()
    }

    /// Raw signature bytes: 16224, 35664, 29792.
    pub fn signature_len(self) -> usize {
        self.slhdsa().signature_len()
    }

    /// Bytes of the reference's key seed ([`SigningKey::from_seed`]): 4n = 96, 96, 128.
    pub fn seed_len(self) -> usize {
        self.slhdsa().secret_key_len()
    }
}

/// Errors from Magnetar. Wrapped errors keep their own codes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An envelope or certificate that does not decode (`TOO_SHORT`, `BAD_MAGIC`, …).
    #[error(transparent)]
    Decode(#[from] wire::Error),
    /// An SLH-DSA error: `INVALID_LENGTH`, `CONTEXT_TOO_LONG`, `INVALID_SIGNATURE`.
    #[error(transparent)]
    SlhDsa(#[from] slhdsa::Error),
    /// A quorum or weight error: `QUORUM_NOT_MET`, `ZERO_TOTAL_WEIGHT`, `WEIGHT_OVERFLOW`, ….
    #[error(transparent)]
    Quorum(#[from] quorum::Error),
    /// A key, signature, certificate or registry of another mode than required.
    #[error("mode mismatch: expected {}, got {}", expected.name(), got.name())]
    WrongMode {
        /// The mode required (the key's, the registry's).
        expected: Mode,
        /// The mode found.
        got: Mode,
    },
    /// A certificate names a signer the registry does not hold.
    #[error("signer {id} is not in the registry")]
    UnknownSigner {
        /// The signer.
        id: ValidatorId,
    },
    /// A certificate (or a set of contributions) names a signer twice.
    #[error("signer {id} appears twice")]
    DuplicateSigner {
        /// The signer.
        id: ValidatorId,
    },
    /// A certificate with no signer.
    #[error("the certificate names no signer")]
    NoSigners,
    /// A certificate whose signatures do not all verify.
    #[error("{} signature(s) do not verify", failed.len())]
    InvalidSignatures {
        /// Every signer whose signature failed, ascending.
        failed: Vec<ValidatorId>,
    },
    /// A registry lists a validator id twice.
    #[error("validator {id} appears twice in the registry")]
    DuplicateValidator {
        /// The validator.
        id: ValidatorId,
    },
    /// A registry gives one public key to two validators.
    #[error("validators {first} and {second} have the same key")]
    DuplicateKey {
        /// One of them.
        first: ValidatorId,
        /// The other.
        second: ValidatorId,
    },
    /// A registry over [`MAX_VALIDATORS`].
    #[error("registry of {got} validators exceeds the limit {max}")]
    TooManyValidators {
        /// Validators given.
        got: usize,
        /// The limit.
        max: usize,
    },
}

impl Error {
    /// A stable code for this error, as JavaScript sees it.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Decode(e) => e.code(),
            Error::SlhDsa(e) => e.code(),
            Error::Quorum(e) => e.code(),
            Error::WrongMode { .. } => "WRONG_MODE",
            Error::UnknownSigner { .. } => "UNKNOWN_SIGNER",
            Error::DuplicateSigner { .. } => "DUPLICATE_SIGNER",
            Error::NoSigners => "NO_SIGNERS",
            Error::InvalidSignatures { .. } => "INVALID_SIGNATURE",
            Error::DuplicateValidator { .. } => "DUPLICATE_VALIDATOR",
            Error::DuplicateKey { .. } => "DUPLICATE_KEY",
            Error::TooManyValidators { .. } => "TOO_MANY_KEYS",
        }
    }
}
