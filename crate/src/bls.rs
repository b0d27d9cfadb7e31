//! BLS12-381 aggregate signatures for the classical leg of the finality certificate.
//!
//! Ciphersuite `BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_` of draft-irtf-cfrg-bls-signature-05
//! §4.2.3, the one Ethereum's consensus layer uses:
//! - **minimal-pubkey-size**: public keys are points of G1 (48 bytes compressed), signatures
//!   points of G2 (96 bytes compressed), in the ZCash compressed encoding (draft Appendix A);
//! - messages hash to G2 with `BLS12381G2_XMD:SHA-256_SSWU_RO_` (RFC 9380 §8.8.2) under the
//!   domain separation tag [`DST_SIGNATURE`]; proofs of possession hash the compressed public
//!   key under [`DST_POP`] (`BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_`).
//!
//! Operations: KeyGen (§2.3, with the salt of draft version 4, i.e. Ethereum's EIP-2333
//! `HKDF_mod_r`), SkToPk (§2.4), Sign (§2.6), Verify (§2.7), Aggregate (§2.8), AggregateVerify
//! (§2.9), PopProve / PopVerify (§3.3.2–3), FastAggregateVerify (§3.3.4), and the
//! [`PreparedSet`] that light clients keep per validator set. Key generation and signing are
//! left out of the verify-only `light` build.
//!
//! # Trust statement
//! **Minimal-pubkey-size BLS, proof-of-possession scheme: aggregation of keys is safe only for
//! keys whose PoP was verified.** Without a verified proof of possession for every key, one
//! party can register a rogue key `pk' = x·G − Σ pk_i` and forge an aggregate "signed by
//! everybody" alone. [`PreparedSet::new`] verifies every key's PoP once, when the set is
//! built; [`fast_aggregate_verify`] and [`Signature::verify_fast_aggregate`] leave that duty
//! to the caller.
//!
//! # Decoding is validation
//! [`VerifyingKey`], [`Signature`] and [`ProofOfPossession`] only exist for points that passed
//! KeyValidate (§2.5) or its signature counterpart: canonical compressed encoding (compression
//! flag set, coordinates below p, infinity flag only with all other bits zero), on the curve,
//! in the prime-order subgroup, and not the identity. Each failure is its own [`Error`]
//! variant. A decoded signature is therefore subgroup-checked exactly once and never again.
//!
//! # Prepared validator sets
//! A [`PreparedSet`] holds a validator set's keys, decompressed and validated once, and their
//! sum. Verifying a certificate's aggregate against a signer bitmap then costs one
//! hash-to-curve, one signature decompression and one two-pair pairing check (a two-term
//! Miller loop and one final exponentiation), whatever the set size: the signers' key is the
//! full aggregate minus the absent keys when more than half signed, the sum of the present
//! keys otherwise. The bitmap convention is documented on [`SignerBitmap`].
//!
//! ```
//! # #[cfg(not(feature = "light"))] {
//! use quasar_pq::bls::{PreparedSet, SigningKey, Signature, SignerBitmap};
//!
//! let sks: Vec<SigningKey> = (0u8..4)
//!     .map(|i| SigningKey::keygen(&[i; 32], b"").unwrap())
//!     .collect();
//! let members: Vec<_> = sks.iter().map(|sk| (sk.verifying_key(), sk.prove_possession())).collect();
//! let set = PreparedSet::new(&members).unwrap();
//!
//! // Validators 0, 1 and 3 sign block 42.
//! let sigs: Vec<Signature> = [0, 1, 3].iter().map(|&i| sks[i].sign(b"block 42")).collect();
//! let aggregate = Signature::aggregate(&sigs).unwrap();
//! let bitmap = SignerBitmap::from_indices(4, &[0, 1, 3]).unwrap();
//! assert_eq!(bitmap, [0b0000_1011]);
//! assert!(set.verify_aggregate(b"block 42", &aggregate, &bitmap).is_ok());
//! assert!(set.verify_aggregate(b"block 43", &aggregate, &bitmap).is_err());
//! # }
//! ```
//!
//! # Security
//! Secret keys are wiped on drop and print `<redacted>`. Signing and key derivation use the
//! constant-time scalar multiplication of `bls12_381`; verification works on public data only.
//! The underlying `bls12_381` crate (zkcrypto) has not been independently audited.

use alloc::vec::Vec;

mod aggregate;
mod hash;
#[cfg(not(feature = "light"))]
mod keygen;
mod keys;
mod points;
mod pop;
mod prepared;
mod sign;

#[cfg(not(feature = "light"))]
pub use keygen::SigningKey;
pub use keys::VerifyingKey;
pub use pop::ProofOfPossession;
pub use prepared::{PreparedSet, SignerBitmap, MAX_SET_SIZE};
pub use sign::Signature;

/// Domain separation tag for signatures (draft-irtf-cfrg-bls-signature-05 §4.2.3).
pub const DST_SIGNATURE: &[u8] = b"BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_";

/// Domain separation tag for proofs of possession (draft-irtf-cfrg-bls-signature-05 §4.2.3).
pub const DST_POP: &[u8] = b"BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_";

/// Length of a compressed public key (a G1 point).
pub const PUBLIC_KEY_LEN: usize = 48;

/// Length of a compressed signature or proof of possession (a G2 point).
pub const SIGNATURE_LEN: usize = 96;

/// Length of an encoded secret key (big-endian integer 1 ≤ SK < r).
pub const SECRET_KEY_LEN: usize = 32;

/// Minimum length of KeyGen's input keying material (draft §2.3).
pub const MIN_IKM_LEN: usize = 32;

/// Errors from BLS operations.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An input has the wrong number of bytes.
    #[error("{what} must be {expected} bytes, got {got}")]
    InvalidLength {
        /// Which input: `"public key"`, `"signature"`, `"proof of possession"`, `"secret key"`,
        /// `"signer bitmap"`.
        what: &'static str,
        /// The length required.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// An input is longer than the operation allows.
    #[error("{what} must be at most {max} bytes, got {got}")]
    TooLong {
        /// Which input (`"domain separation tag"`, `"expanded message"`).
        what: &'static str,
        /// The maximum.
        max: usize,
        /// The length given.
        got: usize,
    },
    /// The compression flag (top bit of the first byte) is clear: only compressed points are
    /// accepted.
    #[error("{what}: compression flag not set")]
    NotCompressed {
        /// Which input.
        what: &'static str,
    },
    /// The infinity flag is set but the sort flag or a coordinate bit is set too.
    #[error("{what}: malformed encoding of the point at infinity")]
    InvalidInfinityEncoding {
        /// Which input.
        what: &'static str,
    },
    /// A well-formed encoding of the identity (the point at infinity), which no key, signature
    /// or proof may be.
    #[error("{what} is the identity element")]
    IdentityElement {
        /// Which input.
        what: &'static str,
    },
    /// A coordinate is not below the field modulus p.
    #[error("{what}: coordinate not reduced modulo p")]
    NonCanonical {
        /// Which input.
        what: &'static str,
    },
    /// No curve point has this x-coordinate.
    #[error("{what} is not on the curve")]
    NotOnCurve {
        /// Which input.
        what: &'static str,
    },
    /// The point is on the curve but outside the prime-order subgroup.
    #[error("{what} is not in the prime-order subgroup")]
    NotInSubgroup {
        /// Which input.
        what: &'static str,
    },
    /// A secret key that is zero or not below the group order r.
    #[error("secret key out of range")]
    InvalidSecretKey,
    /// KeyGen's input keying material is shorter than 32 bytes.
    #[error("IKM must be at least 32 bytes, got {got}")]
    IkmTooShort {
        /// The length given.
        got: usize,
    },
    /// The signature does not verify.
    #[error("signature is invalid")]
    InvalidSignature,
    /// A proof of possession does not verify for its key.
    #[error("proof of possession of member {index} is invalid")]
    InvalidProofOfPossession {
        /// The member's position in its list (0 for a single key).
        index: usize,
    },
    /// An operation that needs at least one item got none (no signatures to aggregate, no
    /// keys, an empty validator set).
    #[error("no {what} given")]
    Empty {
        /// What was missing.
        what: &'static str,
    },
    /// Two lists that must be parallel have different lengths.
    #[error("{what}: {left} vs {right} items")]
    CountMismatch {
        /// Which lists.
        what: &'static str,
        /// Items in the first.
        left: usize,
        /// Items in the second.
        right: usize,
    },
    /// A validator set larger than [`MAX_SET_SIZE`].
    #[error("validator set of {got} keys exceeds the limit {max}")]
    TooManyKeys {
        /// Keys given.
        got: usize,
        /// The limit.
        max: usize,
    },
    /// The same public key appears twice in a validator set.
    #[error("members {first} and {second} have the same public key")]
    DuplicateKey {
        /// The first position.
        first: usize,
        /// The second position.
        second: usize,
    },
    /// A member of a validator set given as bytes failed to decode.
    #[error("member {index}: {error}")]
    InvalidMember {
        /// The member's position.
        index: usize,
        /// Why.
        error: alloc::boxed::Box<Error>,
    },
    /// A signer bitmap has a bit set at or beyond the set size.
    #[error("signer bitmap marks position {index}, beyond the set of {set_size}")]
    BitmapExtraBits {
        /// The first such position.
        index: usize,
        /// The set size.
        set_size: usize,
    },
    /// A signer bitmap with no bit set.
    #[error("signer bitmap names no signer")]
    NoSigners,
}

impl Error {
    /// A stable code for this error, as JavaScript sees it.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidLength { .. } => "INVALID_LENGTH",
            Error::TooLong { .. } => "TOO_LONG",
            Error::NotCompressed { .. } => "NOT_COMPRESSED",
            Error::InvalidInfinityEncoding { .. } => "INVALID_INFINITY_ENCODING",
            Error::IdentityElement { .. } => "IDENTITY_ELEMENT",
            Error::NonCanonical { .. } => "NON_CANONICAL",
            Error::NotOnCurve { .. } => "NOT_ON_CURVE",
            Error::NotInSubgroup { .. } => "NOT_IN_SUBGROUP",
            Error::InvalidSecretKey => "INVALID_SECRET_KEY",
            Error::IkmTooShort { .. } => "IKM_TOO_SHORT",
            Error::InvalidSignature => "INVALID_SIGNATURE",
            Error::InvalidProofOfPossession { .. } => "INVALID_PROOF_OF_POSSESSION",
            Error::Empty { .. } => "EMPTY_INPUT",
            Error::CountMismatch { .. } => "COUNT_MISMATCH",
            Error::TooManyKeys { .. } => "TOO_MANY_KEYS",
            Error::DuplicateKey { .. } => "DUPLICATE_KEY",
            Error::InvalidMember { .. } => "INVALID_MEMBER",
            Error::BitmapExtraBits { .. } => "BITMAP_EXTRA_BITS",
            Error::NoSigners => "NO_SIGNERS",
        }
    }

    /// Whether the error is about the *encoding* of an input (length, flags, range, curve,
    /// subgroup, identity) rather than a verification that failed.
    pub fn is_decoding(&self) -> bool {
        matches!(
            self,
            Error::InvalidLength { .. }
                | Error::NotCompressed { .. }
                | Error::InvalidInfinityEncoding { .. }
                | Error::IdentityElement { .. }
                | Error::NonCanonical { .. }
                | Error::NotOnCurve { .. }
                | Error::NotInSubgroup { .. }
        )
    }
}

// ----------------------------------------------------------------------------------
// Byte API
// ----------------------------------------------------------------------------------

/// KeyGen (draft-irtf-cfrg-bls-signature-05 §2.3) from at least 32 bytes of secret `ikm`,
/// with the optional `key_info` (empty by default): the 32-byte big-endian secret key.
///
/// # Errors
/// [`Error::IkmTooShort`].
///
/// # Security
/// The output is the key: keep it secret. `ikm` must be infeasible to guess.
#[cfg(not(feature = "light"))]
pub fn keygen(ikm: &[u8], key_info: &[u8]) -> Result<zeroize::Zeroizing<[u8; 32]>, Error> {
    Ok(SigningKey::keygen(ikm, key_info)?.to_bytes())
}

/// SkToPk (§2.4): the compressed public key of a 32-byte big-endian secret key.
///
/// # Errors
/// [`Error::InvalidLength`], [`Error::InvalidSecretKey`].
#[cfg(not(feature = "light"))]
pub fn sk_to_pk(secret_key: &[u8]) -> Result<[u8; PUBLIC_KEY_LEN], Error> {
    Ok(SigningKey::try_from(secret_key)?.verifying_key().to_bytes())
}

/// Sign (§2.6 CoreSign with [`DST_SIGNATURE`]): the compressed signature on `message`.
///
/// # Errors
/// [`Error::InvalidLength`], [`Error::InvalidSecretKey`].
#[cfg(not(feature = "light"))]
pub fn sign(secret_key: &[u8], message: &[u8]) -> Result<[u8; SIGNATURE_LEN], Error> {
    Ok(SigningKey::try_from(secret_key)?.sign(message).to_bytes())
}

/// PopProve (§3.3.2): the compressed proof of possession of a secret key.
///
/// # Errors
/// [`Error::InvalidLength`], [`Error::InvalidSecretKey`].
#[cfg(not(feature = "light"))]
pub fn pop_prove(secret_key: &[u8]) -> Result<[u8; SIGNATURE_LEN], Error> {
    Ok(SigningKey::try_from(secret_key)?.prove_possession().to_bytes())
}

/// Verify (§2.7 CoreVerify with [`DST_SIGNATURE`]) from bytes.
///
/// # Errors
/// A decoding error (see [`Error::is_decoding`]) naming the public key or the signature, and
/// [`Error::InvalidSignature`] when the signature does not verify.
///
/// # Security
/// The proof-of-possession scheme (draft §3.3) asks every key it is used with to come with a
/// verified PoP; that is what makes aggregating the key safe. A single signature under a
/// single key needs none to be unforgeable.
pub fn verify(public_key: &[u8], message: &[u8], signature: &[u8]) -> Result<(), Error> {
    let pk = VerifyingKey::try_from(public_key)?;
    let sig = Signature::try_from(signature)?;
    pk.verify(message, &sig)
}

/// PopVerify (§3.3.3) from bytes.
///
/// # Errors
/// A decoding error naming the public key or the proof, and
/// [`Error::InvalidProofOfPossession`] (index 0) when the proof does not verify.
pub fn pop_verify(public_key: &[u8], proof: &[u8]) -> Result<(), Error> {
    let pk = VerifyingKey::try_from(public_key)?;
    let pop = ProofOfPossession::try_from(proof)?;
    pk.verify_possession(&pop)
}

/// Aggregate (§2.8) compressed signatures into one.
///
/// # Errors
/// [`Error::Empty`] for no signatures, a decoding error for a malformed one (the identity
/// included), and [`Error::IdentityElement`] if the sum is the identity.
pub fn aggregate(signatures: &[&[u8]]) -> Result<[u8; SIGNATURE_LEN], Error> {
    let sigs = signatures
        .iter()
        .map(|s| Signature::try_from(*s))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Signature::aggregate(&sigs)?.to_bytes())
}

/// FastAggregateVerify (§3.3.4) from bytes: every key signed the same `message`.
///
/// # Errors
/// [`Error::Empty`] for no keys, a decoding error for a malformed key or signature,
/// [`Error::InvalidSignature`].
///
/// # Security
/// Every key must have a verified proof of possession (the trust statement in the module
/// docs); otherwise this check proves nothing. Prefer a [`PreparedSet`].
pub fn fast_aggregate_verify(public_keys: &[&[u8]], message: &[u8], signature: &[u8]) -> Result<(), Error> {
    let sig = Signature::try_from(signature)?;
    let keys = public_keys
        .iter()
        .map(|k| VerifyingKey::try_from(*k))
        .collect::<Result<Vec<_>, _>>()?;
    sig.verify_fast_aggregate(&keys, message)
}

/// AggregateVerify (§3.3, i.e. §2.9 CoreAggregateVerify): key `i` signed `messages[i]`.
/// The proof-of-possession scheme does not require the messages to be distinct.
///
/// # Errors
/// [`Error::Empty`], [`Error::CountMismatch`], a decoding error, [`Error::InvalidSignature`].
///
/// # Security
/// Every key must have a verified proof of possession.
pub fn aggregate_verify(public_keys: &[&[u8]], messages: &[&[u8]], signature: &[u8]) -> Result<(), Error> {
    if public_keys.len() != messages.len() {
        return Err(Error::CountMismatch {
            what: "public keys and messages",
            left: public_keys.len(),
            right: messages.len(),
        });
    }
    let sig = Signature::try_from(signature)?;
    let keys = public_keys
        .iter()
        .map(|k| VerifyingKey::try_from(*k))
        .collect::<Result<Vec<_>, _>>()?;
    let pairs: Vec<(&VerifyingKey, &[u8])> = keys.iter().zip(messages.iter().copied()).collect();
    sig.verify_aggregate(&pairs)
}

/// Building blocks exposed for test vectors: RFC 9380 hashing.
///
/// # Security
/// Nothing here is needed to sign or verify; a wrong domain separation tag silently produces
/// unrelated points.
pub mod hazmat {
    use super::Error;

    /// RFC 9380 §5.3.1 expand_message_xmd with SHA-256: `len` uniform bytes from `msg`
    /// under `dst`.
    ///
    /// # Errors
    /// [`Error::TooLong`] for a DST over 255 bytes or `len` over 8160 (255 SHA-256 blocks).
    pub fn expand_message_xmd(msg: &[u8], dst: &[u8], len: usize) -> Result<alloc::vec::Vec<u8>, Error> {
        if len > super::hash::MAX_XMD_LEN {
            return Err(Error::TooLong {
                what: "expanded message",
                max: super::hash::MAX_XMD_LEN,
                got: len,
            });
        }
        let mut out = alloc::vec![0u8; len];
        super::hash::expand_message_xmd(msg, dst, &mut out)?;
        Ok(out)
    }

    /// RFC 9380 §3 hash_to_curve with suite `BLS12381G2_XMD:SHA-256_SSWU_RO_` (§8.8.2): the
    /// point as 192 uncompressed bytes `x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0`, each big-endian.
    ///
    /// # Errors
    /// [`Error::TooLong`] for a DST over 255 bytes.
    pub fn hash_to_g2(msg: &[u8], dst: &[u8]) -> Result<[u8; 192], Error> {
        Ok(super::hash::hash_to_g2(msg, dst)?.to_uncompressed())
    }
}
