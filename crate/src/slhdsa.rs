//! SLH-DSA, the Stateless Hash-Based Digital Signature Algorithm (FIPS 205), SHAKE sets.
//!
//! Six parameter sets — [`Shake128s`], [`Shake128f`], [`Shake192s`], [`Shake192f`],
//! [`Shake256s`], [`Shake256f`] — with:
//! - key generation from the three n-byte seeds SK.seed, SK.prf, PK.seed (FIPS 205
//!   Alg. 18 slh_keygen_internal, which Alg. 21 slh_keygen calls with fresh randomness);
//! - signing through the pure interface with a context string of at most 255 bytes
//!   (Alg. 22), hedged with n caller-supplied random bytes or deterministic
//!   (opt_rand = PK.seed);
//! - verification (Alg. 24), and [`verify_batch`] for many signatures at once (a light
//!   client checking a validator set's votes);
//! - the internal interface on the message representative M′ (Alg. 19, 20) in [`hazmat`];
//! - the standard encodings: pk = PK.seed ‖ PK.root, sk = SK.seed ‖ SK.prf ‖ PK.seed ‖
//!   PK.root, signature R ‖ SIG_FORS ‖ SIG_HT.
//!
//! Two API shapes, as in [`crate::mldsa`]: typed keys and signatures ([`SigningKey`],
//! [`VerifyingKey`], [`Signature`]) generic over the set, each with `TryFrom<&[u8]>` and
//! `to_bytes`, and byte functions ([`keygen`], [`sign`], [`verify`]) taking a runtime
//! [`Mode`].
//!
//! # Speed
//! Almost all the work is Keccak-f\[1600\] on inputs of one block. Every F, H and PRF call
//! builds its Keccak state directly (no sponge object) and independent calls run four at
//! a time (`hash::keccak_x4`: AVX-512VL or AVX2 on x86-64, detected at run time;
//! two lanes of simd128 on wasm32; scalar elsewhere): the chains of a WOTS+ layer sorted
//! by length, the leaves and levels of FORS trees, the XMSS leaves in groups of four, and
//! in [`verify_batch`] the same step of different signatures.
//!
//! # Security
//! SK.seed, SK.prf and every secret intermediate (WOTS+ and FORS secret values) are
//! zeroized when dropped. No branch or table index depends on a secret: the tree indices
//! and WOTS+ digits come from the message digest and are revealed by the signature itself.
//! Randomness is always supplied by the caller.
//!
//! ```
//! use quasar_pq::slhdsa::{Shake128f, SigningKey};
//!
//! let sk = SigningKey::<Shake128f>::from_seeds(&[1; 16], &[2; 16], &[3; 16]).unwrap();
//! let vk = sk.verifying_key();
//! let sig = sk.sign_deterministic(b"block 42", b"example").unwrap();
//! assert!(vk.verify(b"block 42", b"example", &sig).is_ok());
//! assert!(vk.verify(b"block 43", b"example", &sig).is_err());
//! ```
#![allow(non_snake_case, clippy::similar_names, clippy::many_single_char_names)] // matches the spec's notation

use alloc::vec::Vec;

use zeroize::Zeroizing;

mod address;
mod api;
mod fors;
mod hash;
mod hypertree;
mod internal;
mod keys;
mod params;
mod wots;
mod xmss;

pub use keys::{Signature, SigningKey, VerifyingKey};
pub use params::{Params, Shake128f, Shake128s, Shake192f, Shake192s, Shake256f, Shake256s};

/// Errors from SLH-DSA operations.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A key, seed, randomness or signature has the wrong number of bytes for its set.
    #[error("{what} must be {expected} bytes, got {got}")]
    InvalidLength {
        /// Which input: `"public key"`, `"secret key"`, `"signature"`, `"SK.seed"`, ….
        what: &'static str,
        /// The length the parameter set requires.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// The context string is longer than 255 bytes.
    #[error("context must be at most 255 bytes, got {len}")]
    ContextTooLong {
        /// The length given.
        len: usize,
    },
    /// The signature does not verify (wrong key, message or context, or altered bytes).
    #[error("signature is invalid")]
    InvalidSignature,
    /// A mode byte that names no SLH-DSA parameter set.
    #[error("unknown SLH-DSA mode {0:#04x}")]
    UnknownMode(u8),
}

impl Error {
    /// A stable code for this error, as JavaScript sees it.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidLength { .. } => "INVALID_LENGTH",
            Error::ContextTooLong { .. } => "CONTEXT_TOO_LONG",
            Error::InvalidSignature => "INVALID_SIGNATURE",
            Error::UnknownMode(_) => "UNKNOWN_MODE",
        }
    }
}

/// The parameter set as a runtime value. Its discriminant is the wire byte of the
/// `MAGS`/`MAGG` frames: 0x01–0x03 are the Magnetar modes (SHAKE-192s, -192f, -256s);
/// the other three sets follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Mode {
    /// SLH-DSA-SHAKE-192s.
    Shake192s = 0x01,
    /// SLH-DSA-SHAKE-192f.
    Shake192f = 0x02,
    /// SLH-DSA-SHAKE-256s.
    Shake256s = 0x03,
    /// SLH-DSA-SHAKE-128s.
    Shake128s = 0x04,
    /// SLH-DSA-SHAKE-128f.
    Shake128f = 0x05,
    /// SLH-DSA-SHAKE-256f.
    Shake256f = 0x06,
}

impl Mode {
    /// All six sets, in FIPS 205 Table 2 order.
    pub const ALL: [Mode; 6] = [
        Mode::Shake128s,
        Mode::Shake128f,
        Mode::Shake192s,
        Mode::Shake192f,
        Mode::Shake256s,
        Mode::Shake256f,
    ];

    /// The set for a wire byte.
    ///
    /// # Errors
    /// [`Error::UnknownMode`] for any other byte.
    pub fn from_byte(b: u8) -> Result<Mode, Error> {
        Mode::ALL
            .into_iter()
            .find(|m| *m as u8 == b)
            .ok_or(Error::UnknownMode(b))
    }

    /// The wire byte.
    pub fn to_byte(self) -> u8 {
        self as u8
    }

    /// The set for its standard name, e.g. `"SLH-DSA-SHAKE-192s"`.
    pub fn from_name(name: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The standard name, e.g. `"SLH-DSA-SHAKE-192s"`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Shake128s => "SLH-DSA-SHAKE-128s",
            Mode::Shake128f => "SLH-DSA-SHAKE-128f",
            Mode::Shake192s => "SLH-DSA-SHAKE-192s",
            Mode::Shake192f => "SLH-DSA-SHAKE-192f",
            Mode::Shake256s => "SLH-DSA-SHAKE-256s",
            Mode::Shake256f => "SLH-DSA-SHAKE-256f",
        }
    }

    /// The security parameter n: bytes of each seed, of `addrnd`, of each hash value.
    pub fn n(self) -> usize {
        dispatch!(self, P => P::N)
    }

    /// Public key length in bytes (2n).
    pub fn public_key_len(self) -> usize {
        dispatch!(self, P => P::PK_LEN)
    }

    /// Secret key length in bytes (4n).
    pub fn secret_key_len(self) -> usize {
        dispatch!(self, P => P::SK_LEN)
    }

    /// Signature length in bytes.
    pub fn signature_len(self) -> usize {
        dispatch!(self, P => P::SIG_LEN)
    }
}

/// Runs `$body` with `$P` bound to the parameter-set type of `$mode`: the one place a
/// runtime mode meets the generic code.
macro_rules! dispatch {
    ($mode:expr, $P:ident => $body:expr) => {
        match $mode {
            Mode::Shake128s => {
                type $P = Shake128s;
                $body
            }
            Mode::Shake128f => {
                type $P = Shake128f;
                $body
            }
            Mode::Shake192s => {
                type $P = Shake192s;
                $body
            }
            Mode::Shake192f => {
                type $P = Shake192f;
                $body
            }
            Mode::Shake256s => {
                type $P = Shake256s;
                $body
            }
            Mode::Shake256f => {
                type $P = Shake256f;
                $body
            }
        }
    };
}
use dispatch;

fn check_len(what: &'static str, expected: usize, got: usize) -> Result<(), Error> {
    if expected == got {
        Ok(())
    } else {
        Err(Error::InvalidLength { what, expected, got })
    }
}

fn check_context(ctx: &[u8]) -> Result<(), Error> {
    if ctx.len() > 255 {
        Err(Error::ContextTooLong { len: ctx.len() })
    } else {
        Ok(())
    }
}

fn keygen_generic<P: Params>(
    sk_seed: &[u8],
    sk_prf: &[u8],
    pk_seed: &[u8],
) -> Result<(Vec<u8>, Zeroizing<Vec<u8>>), Error> {
    check_len("SK.seed", P::N, sk_seed.len())?;
    check_len("SK.prf", P::N, sk_prf.len())?;
    check_len("PK.seed", P::N, pk_seed.len())?;
    let mut pk = alloc::vec![0u8; P::PK_LEN];
    let mut sk = Zeroizing::new(alloc::vec![0u8; P::SK_LEN]);
    internal::keygen::<P>(sk_seed, sk_prf, pk_seed, &mut pk, &mut sk);
    Ok((pk, sk))
}

// ----------------------------------------------------------------------------------
// Byte API with a runtime mode
// ----------------------------------------------------------------------------------

/// Generates the key pair determined by the n-byte seeds SK.seed, SK.prf and PK.seed:
/// returns (public key, secret key).
///
/// FIPS 205, Algorithm 18 (slh_keygen_internal); Algorithm 21 (slh_keygen) is this with
/// three fresh random seeds.
///
/// # Errors
/// [`Error::InvalidLength`] for a seed that is not n bytes.
pub fn keygen(
    mode: Mode,
    sk_seed: &[u8],
    sk_prf: &[u8],
    pk_seed: &[u8],
) -> Result<(Vec<u8>, Zeroizing<Vec<u8>>), Error> {
    dispatch!(mode, P => keygen_generic::<P>(sk_seed, sk_prf, pk_seed))
}

/// Signs `msg` under context `ctx` with the encoded secret key `sk`. `addrnd` is the n-byte
/// hedging randomness; `None` selects the deterministic variant (opt_rand = PK.seed).
///
/// FIPS 205, Algorithm 22 (slh_sign), the pure interface.
///
/// # Errors
/// [`Error::InvalidLength`] for a secret key or `addrnd` of the wrong length,
/// [`Error::ContextTooLong`].
pub fn sign(mode: Mode, sk: &[u8], msg: &[u8], ctx: &[u8], addrnd: Option<&[u8]>) -> Result<Vec<u8>, Error> {
    dispatch!(mode, P => api::sign::<P>(sk, msg, ctx, addrnd))
}

/// Verifies signature `sig` on `msg` under context `ctx` and the encoded public key `pk`.
///
/// FIPS 205, Algorithm 24 (slh_verify), the pure interface.
///
/// # Errors
/// [`Error::InvalidLength`] for a key or signature of the wrong length,
/// [`Error::ContextTooLong`], and [`Error::InvalidSignature`] when the signature does
/// not verify.
pub fn verify(mode: Mode, pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
    dispatch!(mode, P => api::verify::<P>(pk, msg, ctx, sig))
}

/// One signature for [`verify_batch`]: public key, message, context and signature bytes.
#[derive(Debug, Clone, Copy)]
pub struct BatchItem<'a> {
    /// The encoded public key (2n bytes).
    pub public_key: &'a [u8],
    /// The message M.
    pub message: &'a [u8],
    /// The context string (at most 255 bytes).
    pub context: &'a [u8],
    /// The signature.
    pub signature: &'a [u8],
}

/// Verifies many signatures of set `mode` at once (FIPS 205, Algorithm 24 (slh_verify) on
/// each item): `result[i]` is
/// whether item i verifies (`false` also for a wrong-length key or signature, or a
/// context over 255 bytes). Same verdicts as calling [`verify`] on each item, faster:
/// every step runs across the signatures, so the Keccak lanes stay full (lane j takes
/// the same step of signature j; WOTS+ chains of one layer are pooled and sorted).
pub fn verify_batch(mode: Mode, items: &[BatchItem<'_>]) -> Vec<bool> {
    dispatch!(mode, P => api::verify_batch::<P>(items, false))
}

/// Expert interfaces: the internal functions of FIPS 205 on the message representative M′.
///
/// # Security
/// These skip the domain separation of the pure interface. Signing an M′ that was not
/// built as `0 ‖ |ctx| ‖ ctx ‖ M` (or `1 ‖ …` for HashSLH-DSA) produces signatures that
/// may be valid for unintended messages; use them only to implement a protocol or to run
/// test vectors.
pub mod hazmat {
    use super::*;

    /// Signs the message representative M′ directly; `addrnd` = `None` is the
    /// deterministic variant (opt_rand = PK.seed).
    ///
    /// FIPS 205, Algorithm 19 (slh_sign_internal).
    ///
    /// # Errors
    /// [`Error::InvalidLength`] for a secret key or `addrnd` of the wrong length.
    pub fn sign_internal(
        mode: Mode,
        sk: &[u8],
        m_prime: &[u8],
        addrnd: Option<&[u8]>,
    ) -> Result<Vec<u8>, Error> {
        dispatch!(mode, P => api::sign_parts::<P>(sk, &[m_prime], addrnd))
    }

    /// Verifies a signature on the message representative M′.
    ///
    /// FIPS 205, Algorithm 20 (slh_verify_internal).
    ///
    /// # Errors
    /// [`Error::InvalidLength`], [`Error::InvalidSignature`].
    pub fn verify_internal(mode: Mode, pk: &[u8], m_prime: &[u8], sig: &[u8]) -> Result<(), Error> {
        dispatch!(mode, P => api::verify_parts::<P>(pk, [m_prime, &[], &[]], sig))
    }

    /// Verifies many (pk, M′, signature) items at once (FIPS 205, Algorithm 20
    /// (slh_verify_internal) on each); each item's `message` is M′ and its `context` is
    /// ignored.
    pub fn verify_internal_batch(mode: Mode, items: &[BatchItem<'_>]) -> Vec<bool> {
        dispatch!(mode, P => api::verify_batch::<P>(items, true))
    }
}
