//! Lens: FROST, dishonest majority, signatures verify under standard Ed25519/BIP-340.
//!
//! Lens is threshold Schnorr signing per RFC 9591 (FROST), through the Zcash
//! Foundation's `frost-ed25519`, `frost-secp256k1-tr` (BIP-340/Taproot) and
//! `frost-ristretto255` crates, with LSS resharing of the key. A signature made by any
//! `t` of the `n` parties is a plain Schnorr signature: on [`Curve::Ed25519`] it verifies
//! under any RFC 8032 Ed25519 verifier (`ed25519-dalek`'s `verify_strict` included), on
//! [`Curve::Secp256k1`] under any BIP-340 verifier with the x-only group key, and on
//! [`Curve::Ristretto255`] under the RFC 9591 §6.2 verification equation.
//!
//! # Trust model
//!
//! - **Unforgeability against a dishonest majority**: any coalition of fewer than `t`
//!   parties — even `t − 1` of them, which may be most of the group — cannot sign. The
//!   coordinator (who collects commitments, builds the signing package and aggregates)
//!   learns nothing secret and is trusted only for liveness: a malicious coordinator can
//!   stall a signing session, not forge.
//! - **No peer can knock a party out**: every party is a [`crate::party::Party`]; a
//!   message that fails a check is dropped and its sender named. A signature share that
//!   does not verify against its signer's verifying share makes the coordinator's last
//!   round fail with [`Error::InvalidSignatureShare`] naming every culprit (FROST is not
//!   robust in that round: the session is retried without them).
//! - **Key generation**: [`Ceremony::keygen`] runs the [`crate::lss`] kernel's DKG in
//!   Feldman mode with proofs of knowledge and batched checks; a cheating dealer is
//!   **excluded and named** while the others still get a working key. With [`deal`]
//!   (RFC 9591 Appendix C) a trusted dealer sees the key once instead. Both need a
//!   broadcast channel and confidential, authenticated channels for the shares.
//! - **Resharing** ([`Ceremony::refresh`], [`Ceremony::reshare`]): LSS refresh and
//!   redistribution to a new `(t, n)` keep the group key byte-identical; every key share
//!   carries the [`KeyEpoch`] of the dealing that made it, and shares of different epochs
//!   are never combined.
//!
//! Messages between parties are bytes: a 4-byte magic, a u16 version (1), the curve byte
//! ([`Curve::to_byte`]), then the fields of the message, with `frost-core`'s own
//! serialization for frost objects. Decoders are strict (trailing bytes, a wrong curve,
//! non-canonical frost encodings and unsorted or repeated party lists are errors) and take
//! the curve the caller expects.
//!
//! | object | magic | from → to | channel |
//! |---|---|---|---|
//! | [`DealerShare`] | `LNDS` | dealer → one party | confidential, authenticated |
//! | [`PublicKeyPackage`] | `LNPK` | anyone → anyone | public |
//! | [`KeyShare`] | `LNKS` | storage only | secret |
//! | dealing messages ([`DealingParty`]) | `LSD1`…`LSR1` | see [`crate::lss`] | broadcast / private |
//! | [`SigningCommitments`] | `LNC1` | signer → coordinator | authenticated |
//! | [`SigningPackage`] | `LNSP` | coordinator → signers | authenticated |
//! | [`SignatureShare`] | `LNZ2` | signer → coordinator | authenticated |
//!
//! **Group keys** are exposed and accepted in one encoding, the one each standard defines:
//! [`GROUP_KEY_LEN`] = 32 bytes on every curve — on secp256k1 BIP-340's x-only key, so
//! BIP-340's own test vectors and any Taproot tooling work as given. The 33-byte SEC 1
//! forms are refused by [`verify`] with a `LengthMismatch` naming the 32 expected bytes.
//! Frames change nothing: an `LNPK` carries the Feldman commitment, whose `C_0` is the
//! group key as a group element (33-byte SEC 1 on secp256k1, parity included, as resharing
//! needs it), and [`PublicKeyPackage::group_key_bytes`] derives the x-only key from it.
//! Activation certificates of a secp256k1 key name its x-only key.
//!
//! # Examples
//!
//! A trusted-dealer 2-of-3 key, then one signing session; every message crosses as bytes.
//!
//! ```
//! use quasar_pq::lens::{self, CoordinatorParty, Curve, KeyShare, SignerParty};
//! use quasar_pq::party::{Incoming, Party, Step};
//! use quasar_pq::PartyId;
//! use rand_chacha::rand_core::SeedableRng;
//!
//! let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
//! let parties: Vec<PartyId> = (1..=3).filter_map(PartyId::new).collect();
//! let (dealt, public) = lens::deal(Curve::Ed25519, 2, &parties.iter().copied().collect(), &mut rng).unwrap();
//! let shares: Vec<KeyShare> = dealt
//!     .into_values()
//!     .map(|d| KeyShare::from_dealer(d, &public).unwrap())
//!     .collect();
//!
//! // The coordinator (id 100) and two signers; each signer commits at start.
//! let hub = PartyId::new(100).unwrap();
//! let (mut coordinator, _) = CoordinatorParty::start(hub, &public, b"hello").unwrap();
//! let mut signers = Vec::new();
//! let mut commitments = Vec::new();
//! for share in &shares[..2] {
//!     let (signer, out) = SignerParty::start(share, hub, b"hello", &mut rng).unwrap();
//!     commitments.push((share.party(), out.direct[0].bytes.to_vec()));
//!     signers.push(signer);
//! }
//! let inbox: Vec<Incoming> = commitments.iter().map(|(p, b)| Incoming::new(*p, b)).collect();
//! let Step::Continue(out) = coordinator.step(&inbox).unwrap() else { unreachable!() };
//! let package = out.broadcast.unwrap();
//! // Each signer signs the package.
//! let mut sig_shares = Vec::new();
//! for signer in &mut signers {
//!     let Step::Done(out, _) = signer.step(&[Incoming::new(hub, &package)]).unwrap() else { unreachable!() };
//!     sig_shares.push((signer.id(), out.direct[0].bytes.to_vec()));
//! }
//! let inbox: Vec<Incoming> = sig_shares.iter().map(|(p, b)| Incoming::new(*p, b)).collect();
//! let Step::Done(_, outcome) = coordinator.step(&inbox).unwrap() else { unreachable!() };
//! lens::verify(Curve::Ed25519, &public.group_key_bytes(), b"hello", &outcome.signature.to_bytes())
//!     .unwrap();
//! ```

use core::fmt;

use crate::wire::{self, Reader, Writer};
use crate::PartyId;

mod activation;
mod aggregate;
mod ciphersuite;
mod convert;
mod dealer;
mod dealing;
mod keys;
pub mod lifecycle;
mod round1;
mod round2;
mod share;
mod signing;

pub use activation::verify_activation;
pub use aggregate::{verify, Signature, GROUP_KEY_LEN, SIGNATURE_LEN};
pub use dealer::{deal, DealerShare};
pub use dealing::{Ceremony, DealingParty, Outcome};
pub use keys::PublicKeyPackage;
pub use round1::{SigningCommitments, SigningNonces};
pub use round2::{SignatureShare, SigningPackage, MAX_MESSAGE_LEN};
pub use share::KeyShare;
pub use signing::{CoordinatorOutcome, CoordinatorParty, SignerOutcome, SignerParty};

/// The curves Lens signs over, by value (the LSS group of the same name); its wire byte
/// is [`Curve::to_byte`].
///
/// - [`Curve::Ed25519`]: FROST(Ed25519, SHA-512), RFC 9591 §6.1 — standard Ed25519
///   (RFC 8032) signatures under the group key.
/// - [`Curve::Secp256k1`]: FROST(secp256k1, SHA-256) in its BIP-340 (Taproot) form, as
///   `frost-secp256k1-tr` implements it — standard BIP-340 signatures under the x-only
///   group key.
/// - [`Curve::Ristretto255`]: FROST(ristretto255, SHA-512), RFC 9591 §6.2.
pub use crate::vss::CurveId as Curve;

/// Domain-separation tags of Lens's own hashes (cSHAKE256 customization strings with
/// function name `"QUASAR"`, DESIGN §5). FROST's signing hashes are the ciphersuites'
/// RFC 9591 hashes and are not tagged here.
pub mod tags {
    /// Transcript of a key generation (dealer or DKG): the epoch of generation 0.
    pub const LENS_KEYGEN: &str = "QUASAR-LENS-KEYGEN-v1";
    /// Weights of the batched check that verifying shares match the Feldman commitment.
    pub const LENS_SHARE_CHECK: &str = "QUASAR-LENS-SHARE-CHECK-v1";
}

/// Which dealing a key share belongs to: a generation number (0 for key generation,
/// incremented by every refresh or reshare) and the 32-byte transcript hash of that
/// dealing.
///
/// Every key share, public key package and signing message carries its epoch; signing
/// and aggregation refuse to combine objects of different epochs, so shares of an old
/// generation are never mixed with shares of a new one (they would not interpolate to
/// the key anyway; the epoch check names the stale party before any arithmetic).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyEpoch {
    /// Generation number: 0 at key generation, +1 per refresh or reshare.
    pub generation: u64,
    /// Transcript hash of the dealing that produced this generation.
    pub transcript: [u8; 32],
}

impl KeyEpoch {
    /// Encoded length: u64 generation ‖ 32-byte transcript.
    pub const LEN: usize = 40;

    pub(crate) fn write(&self, w: &mut Writer) {
        w.u64(self.generation);
        w.put(&self.transcript);
    }

    pub(crate) fn read(r: &mut Reader<'_>) -> Result<KeyEpoch, wire::Error> {
        Ok(KeyEpoch {
            generation: r.u64()?,
            transcript: r.array()?,
        })
    }
}

impl fmt::Display for KeyEpoch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "generation {} (", self.generation)?;
        for b in &self.transcript[..4] {
            write!(f, "{b:02x}")?;
        }
        f.write_str("…)")
    }
}

/// Errors from Lens. Frost's errors are mapped into these variants; parties are named by
/// [`PartyId`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Bytes did not decode (the wire layer says what was wrong).
    #[error("decoding: {0}")]
    Decode(#[from] wire::Error),
    /// An object of one curve was given where another was expected (a message's curve
    /// byte, or objects of different curves combined).
    #[error("expected a {expected} object, found {found}")]
    WrongCurve {
        /// The curve the caller or the other inputs use.
        expected: Curve,
        /// The curve of the offending object.
        found: Curve,
    },
    /// The threshold is not in `1..=parties` (key generation needs at least 2).
    #[error("threshold {threshold} is invalid for {parties} parties")]
    InvalidThreshold {
        /// The requested threshold.
        threshold: u16,
        /// The number of parties.
        parties: usize,
    },
    /// A message came from, or names, a party that is not in the expected set.
    #[error("{party} is not a member of this key or session")]
    UnknownParty {
        /// The party.
        party: PartyId,
    },
    /// A party appears twice in a list that must name each party once.
    #[error("{party} appears more than once")]
    DuplicateSigner {
        /// The repeated party.
        party: PartyId,
    },
    /// A message's `from` field differs from the transport-authenticated sender.
    #[error("message from {party} claims to be from {claimed}")]
    SenderMismatch {
        /// The authenticated sender (the culprit).
        party: PartyId,
        /// The sender the message claims.
        claimed: PartyId,
    },
    /// An expected message is missing.
    #[error("no message from {party}")]
    MissingMessage {
        /// The party whose message is missing.
        party: PartyId,
    },
    /// Fewer signers than the threshold.
    #[error("{got} signers, at least {needed} needed")]
    NotEnoughSigners {
        /// The threshold.
        needed: u16,
        /// How many signers there are.
        got: usize,
    },
    /// Objects of different key epochs (generations) were combined.
    #[error("key epoch mismatch: expected {expected}, found {found}")]
    EpochMismatch {
        /// The party whose message has the wrong epoch (`None` when the mismatch is
        /// between the caller's own objects).
        party: Option<PartyId>,
        /// The epoch of the key share or public key package in use.
        expected: KeyEpoch,
        /// The epoch of the offending object.
        found: KeyEpoch,
    },
    /// The signer is not in the signing package, or the package holds commitments other
    /// than the ones its nonces made.
    #[error("the signing package does not hold {party}'s commitments from round 1")]
    CommitmentMismatch {
        /// The signer.
        party: PartyId,
    },
    /// Signature shares that do not verify against their signers' verifying shares.
    #[error("invalid signature shares from {}", crate::party::Parties(culprits))]
    InvalidSignatureShare {
        /// Every signer whose share is invalid.
        culprits: Vec<PartyId>,
    },
    /// A secret share does not match its dealer's commitment.
    #[error("invalid secret share from {}", match culprit { Some(p) => alloc::format!("{p}"), None => "the trusted dealer".into() })]
    InvalidSecretShare {
        /// The DKG participant who sent it; `None` for the trusted dealer of [`deal`].
        culprit: Option<PartyId>,
    },
    /// The signature does not verify.
    #[error("invalid signature")]
    InvalidSignature,
    /// Ordinary signing was asked to sign a message that starts with a tag reserved for
    /// activation statements.
    #[error("the message starts with a tag reserved for activation")]
    ReservedMessage,
    /// An LSS (resharing) error, with its blame.
    #[error("resharing: {0}")]
    Lss(#[from] crate::lss::Error),
    /// An internal invariant failed (a bug, not bad input).
    #[error("internal error: {0}")]
    Internal(&'static str),
}

impl Error {
    /// A stable code for this error, as JavaScript sees it. Decoding errors keep the
    /// wire layer's code.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Decode(e) => e.code(),
            Error::WrongCurve { .. } => "WRONG_CURVE",
            Error::InvalidThreshold { .. } => "INVALID_THRESHOLD",
            Error::UnknownParty { .. } => "UNKNOWN_PARTY",
            Error::DuplicateSigner { .. } => "DUPLICATE_PARTY",
            Error::SenderMismatch { .. } => "SENDER_MISMATCH",
            Error::MissingMessage { .. } => "MISSING_MESSAGE",
            Error::NotEnoughSigners { .. } => "NOT_ENOUGH_SIGNERS",
            Error::EpochMismatch { .. } => "WRONG_GENERATION",
            Error::CommitmentMismatch { .. } => "PACKAGE_MISMATCH",
            Error::InvalidSignatureShare { .. } => "INVALID_SIGNATURE_SHARE",
            Error::InvalidSecretShare { .. } => "INVALID_SHARE",
            Error::InvalidSignature => "INVALID_SIGNATURE",
            Error::ReservedMessage => "RESERVED_MESSAGE",
            Error::Lss(e) => e.code(),
            Error::Internal(_) => "INTERNAL",
        }
    }

    /// The parties this error blames: senders of provably bad messages (invalid shares or
    /// proofs, a forged `from`, a misaddressed message, a message of the wrong epoch).
    /// Empty when nobody is to blame or the fault cannot be attributed.
    pub fn culprits(&self) -> &[PartyId] {
        match self {
            Error::InvalidSignatureShare { culprits } => culprits,
            Error::InvalidSecretShare { culprit } => culprit.as_slice(),
            Error::SenderMismatch { party, .. } => core::slice::from_ref(party),
            Error::EpochMismatch { party, .. } => party.as_slice(),
            Error::Lss(e) => e.culprits(),
            Error::Decode(_)
            | Error::WrongCurve { .. }
            | Error::InvalidThreshold { .. }
            | Error::UnknownParty { .. }
            | Error::DuplicateSigner { .. }
            | Error::MissingMessage { .. }
            | Error::NotEnoughSigners { .. }
            | Error::CommitmentMismatch { .. }
            | Error::InvalidSignature
            | Error::ReservedMessage
            | Error::Internal(_) => &[],
        }
    }
}
