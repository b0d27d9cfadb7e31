//! ML-DSA, the Module-Lattice-Based Digital Signature Algorithm (FIPS 204).
//!
//! Three parameter sets — [`MlDsa44`], [`MlDsa65`], [`MlDsa87`] — with:
//! - key generation from a 32-byte seed ξ (FIPS 204 Alg. 1 / 6), the seed being the
//!   recommended private-key format;
//! - signing through the pure interface with a context string of at most 255 bytes
//!   (Alg. 2), hedged with 32 caller-supplied random bytes or deterministic;
//! - verification (Alg. 3);
//! - the internal interface (message representative M′) and external μ in [`hazmat`];
//! - the standard byte encodings of keys and signatures (Alg. 22–27).
//!
//! Two API shapes: typed keys and signatures ([`SigningKey`], [`VerifyingKey`],
//! [`Signature`]) generic over the set, each with `TryFrom<&[u8]>` and `to_bytes` (as in
//! [`crate::slhdsa`] and [`crate::bls`]), and byte functions ([`keygen`], [`sign`],
//! [`verify`]) taking a runtime [`Mode`], as used by the JavaScript bindings and the KATs.
//!
//! ```
//! use quasar_pq::mldsa::{MlDsa44, Signature, SigningKey, VerifyingKey};
//!
//! let sk = SigningKey::<MlDsa44>::from_seed(&[7u8; 32]);
//! let sig = sk.sign(b"block 42", b"example", &[9u8; 32]).unwrap();
//! // Keys and signatures travel as bytes and come back typed.
//! let vk = VerifyingKey::<MlDsa44>::try_from(sk.verifying_key().as_bytes()).unwrap();
//! let sig = Signature::<MlDsa44>::try_from(sig.to_bytes().as_slice()).unwrap();
//! assert!(vk.verify(b"block 42", b"example", &sig).is_ok());
//! assert!(Signature::<MlDsa44>::try_from(&sig.as_bytes()[1..]).is_err());
//! ```
//!
//! # Security
//! Secret keys and every secret intermediate are zeroized when dropped. Signing takes
//! no secret-dependent branch or table index except the accept/reject decision of each
//! rejection-sampling attempt and the rejection sampling of s1, s2 from the seed, as the
//! standard itself does. Randomness is always supplied by the caller.
#![allow(non_snake_case)] // matches the spec's notation

use alloc::vec;
use alloc::vec::Vec;

use zeroize::Zeroizing;

use crate::hash::Shake256Absorb;

#[cfg(not(feature = "light"))]
mod consistency;
mod encode;
// Its one user is Pulsar custody's combiner (Ristretto255), natively.
#[cfg(all(feature = "ristretto255", not(target_arch = "wasm32")))]
mod from_seed;
pub mod hazmat;
mod hint;
mod kernels;
mod keygen;
mod keys;
// The NTT and pointwise kernels (portable, AVX2, NEON, simd128); public with their backend
// switch only under `bench-internals` (benches force the portable kernels).
#[cfg(feature = "bench-internals")]
pub mod ntt;
#[cfg(not(feature = "bench-internals"))]
#[allow(unreachable_pub)] // public only under `bench-internals`
mod ntt;
mod params;
pub(crate) mod poly;
mod rounding;
mod sample;
mod sign;
// The kernel of the Pulsar committee (threshold ML-DSA without reconstruction), bit-exact
// with the published reference; `pulsar::committee` runs it.
#[cfg(feature = "protocols")]
pub(crate) mod threshold;
mod verify;

#[cfg(not(feature = "light"))]
pub(crate) use consistency::public_from_expanded;
pub use keys::{PreparedPublicKey, PreparedVerifyingKey, Signature, SigningKey, VerifyingKey};
pub use params::{MlDsa44, MlDsa65, MlDsa87, Params};

/// Errors from ML-DSA operations.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A key or signature has the wrong number of bytes for its parameter set.
    #[error("{what} must be {expected} bytes, got {got}")]
    InvalidLength {
        /// Which input: `"public key"`, `"secret key"`, `"signature"`, `"seed"`, ….
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
    /// The secret key has a coefficient of s1 or s2 outside [−η, η]; no key generated
    /// by ML-DSA.KeyGen looks like this.
    #[error("secret key is malformed")]
    MalformedSecretKey,
    /// The signature does not verify (wrong key, message or context, or a malformed
    /// hint or out-of-range z).
    #[error("signature is invalid")]
    InvalidSignature,
    /// A mode byte or level that names no ML-DSA parameter set.
    #[error("unknown ML-DSA mode {0:#04x}")]
    UnknownMode(u8),
}

impl Error {
    /// A stable code for this error, as JavaScript sees it.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidLength { .. } => "INVALID_LENGTH",
            Error::ContextTooLong { .. } => "CONTEXT_TOO_LONG",
            Error::MalformedSecretKey => "MALFORMED_SECRET_KEY",
            Error::InvalidSignature => "INVALID_SIGNATURE",
            Error::UnknownMode(_) => "UNKNOWN_MODE",
        }
    }
}

/// The parameter set as a runtime value. Its discriminant is the wire byte of the
/// `PULS`/`PULG` frames (0x2C, 0x41, 0x57).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Mode {
    /// ML-DSA-44.
    MlDsa44 = 0x2C,
    /// ML-DSA-65.
    MlDsa65 = 0x41,
    /// ML-DSA-87.
    MlDsa87 = 0x57,
}

impl Mode {
    /// All three sets, smallest first.
    pub const ALL: [Mode; 3] = [Mode::MlDsa44, Mode::MlDsa65, Mode::MlDsa87];

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

    /// The set for a level number: 44, 65 or 87.
    pub fn from_level(level: u16) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.level() == level)
    }

    /// The level number: 44, 65 or 87.
    pub fn level(self) -> u16 {
        match self {
            Mode::MlDsa44 => 44,
            Mode::MlDsa65 => 65,
            Mode::MlDsa87 => 87,
        }
    }

    /// The set for its standard name, e.g. `"ML-DSA-65"`.
    pub fn from_name(name: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The standard name, e.g. `"ML-DSA-65"`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::MlDsa44 => "ML-DSA-44",
            Mode::MlDsa65 => "ML-DSA-65",
            Mode::MlDsa87 => "ML-DSA-87",
        }
    }

    /// Public key length in bytes.
    pub fn public_key_len(self) -> usize {
        dispatch!(self, P => P::PK_LEN)
    }

    /// Secret key length in bytes.
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
            Mode::MlDsa44 => {
                type $P = MlDsa44;
                $body
            }
            Mode::MlDsa65 => {
                type $P = MlDsa65;
                $body
            }
            Mode::MlDsa87 => {
                type $P = MlDsa87;
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

/// μ ← H(tr ‖ M′, 64) where tr = H(pk, 64) and M′ = `prefix` ‖ `msg`.
fn mu_from_tr(tr: &[u8; 64], prefix: &[&[u8]], msg: &[u8]) -> [u8; 64] {
    let mut h = Shake256Absorb::default();
    h.absorb(tr);
    for p in prefix {
        h.absorb(p);
    }
    h.absorb(msg);
    let mut mu = [0u8; 64];
    h.finalize_into(&mut mu);
    mu
}

/// μ of the pure interface for `msg` under context `ctx` and the encoded key `pk` (whose
/// length the caller checked): what a threshold signer hashes the message to.
///
/// # Errors
/// [`Error::ContextTooLong`].
#[cfg(feature = "protocols")]
pub(crate) fn pure_mu(pk: &[u8], msg: &[u8], ctx: &[u8]) -> Result<[u8; 64], Error> {
    check_context(ctx)?;
    Ok(mu_from_tr(&tr_of(pk), &[&pure_prefix(ctx), ctx], msg))
}

fn tr_of(pk: &[u8]) -> [u8; 64] {
    let mut tr = [0u8; 64];
    crate::hash::shake256_into(&[pk], &mut tr);
    tr
}

/// tr as stored in an encoded secret key (bytes 64..128).
fn tr_in_sk(sk: &[u8]) -> [u8; 64] {
    let mut tr = [0u8; 64];
    tr.copy_from_slice(&sk[64..128]);
    tr
}

/// The pure interface's M′ prefix: 0 ‖ |ctx| (FIPS 204 Alg. 2 step 10).
// Exact: callers have checked |ctx| ≤ 255 (FIPS 204 Alg. 2 step 1).
#[allow(clippy::cast_possible_truncation)]
fn pure_prefix(ctx: &[u8]) -> [u8; 2] {
    [0, ctx.len() as u8]
}

fn sign_generic<P: Params>(sk: &[u8], mu: &[u8; 64], rnd: &[u8; 32]) -> Result<Vec<u8>, Error> {
    let mut sig = vec![0u8; P::SIG_LEN];
    sign::sign_mu::<P>(sk, mu, rnd, &mut sig)?;
    Ok(sig)
}

fn verify_generic<P: Params>(pk: &[u8], mu: &[u8; 64], sig: &[u8]) -> Result<(), Error> {
    check_len("signature", P::SIG_LEN, sig.len())?;
    if verify::verify_mu::<P>(pk, mu, sig) {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}

// ----------------------------------------------------------------------------------
// Byte API with a runtime mode
// ----------------------------------------------------------------------------------

/// FIPS 204 Alg. 1 ML-DSA.KeyGen from the seed ξ: returns (public key, secret key).
pub fn keygen(mode: Mode, seed: &[u8; 32]) -> (Vec<u8>, Zeroizing<Vec<u8>>) {
    dispatch!(mode, P => {
        let mut pk = vec![0u8; P::PK_LEN];
        let mut sk = Zeroizing::new(vec![0u8; P::SK_LEN]);
        keygen::keygen_internal::<P>(seed, &mut pk, &mut sk);
        (pk, sk)
    })
}

/// FIPS 204 Alg. 2 ML-DSA.Sign (pure interface) with context `ctx`. `rnd` is the
/// 32-byte hedging randomness; `None` selects the deterministic variant (rnd = 0^32).
///
/// # Errors
/// [`Error::InvalidLength`] for a secret key of the wrong length,
/// [`Error::ContextTooLong`], [`Error::MalformedSecretKey`].
pub fn sign(mode: Mode, sk: &[u8], msg: &[u8], ctx: &[u8], rnd: Option<&[u8; 32]>) -> Result<Vec<u8>, Error> {
    check_context(ctx)?;
    dispatch!(mode, P => {
        check_len("secret key", P::SK_LEN, sk.len())?;
        let mu = mu_from_tr(&tr_in_sk(sk), &[&pure_prefix(ctx), ctx], msg);
        sign_generic::<P>(sk, &mu, rnd.unwrap_or(&[0u8; 32]))
    })
}

/// ML-DSA.KeyGen_internal from the seed ξ and, if its public key is `expected`, Sign (pure
/// interface, context `ctx`, hedged with `rnd` or deterministic) and Verify, in one pass:
/// Â expanded once, the secret key never encoded. `Ok(None)`: ξ derives another key.
/// The same signature as [`keygen`], [`sign`] and [`verify`] in turn.
///
/// # Errors
/// [`Error::ContextTooLong`], [`Error::InvalidLength`] for `expected`,
/// [`Error::InvalidSignature`] if the signature made does not verify (a fault).
#[cfg(all(feature = "ristretto255", not(target_arch = "wasm32")))]
pub(crate) fn sign_from_seed(
    mode: Mode,
    seed: &[u8; 32],
    expected: &[u8],
    msg: &[u8],
    ctx: &[u8],
    rnd: Option<&[u8; 32]>,
) -> Result<Option<Vec<u8>>, Error> {
    check_context(ctx)?;
    dispatch!(mode, P => {
        check_len("public key", P::PK_LEN, expected.len())?;
        let mut sig = vec![0u8; P::SIG_LEN];
        let prefix = pure_prefix(ctx);
        let mu_of = |tr: &[u8; 64]| mu_from_tr(tr, &[&prefix, ctx], msg);
        let signed = from_seed::sign::<P>(seed, expected, mu_of, rnd.unwrap_or(&[0u8; 32]), &mut sig)?;
        Ok(signed.then_some(sig))
    })
}

/// FIPS 204 Alg. 3 ML-DSA.Verify (pure interface) with context `ctx`.
///
/// # Errors
/// [`Error::InvalidLength`] for a key or signature of the wrong length,
/// [`Error::ContextTooLong`], and [`Error::InvalidSignature`] when the signature does
/// not verify.
pub fn verify(mode: Mode, pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
    check_context(ctx)?;
    dispatch!(mode, P => {
        check_len("public key", P::PK_LEN, pk.len())?;
        let mu = mu_from_tr(&tr_of(pk), &[&pure_prefix(ctx), ctx], msg);
        verify_generic::<P>(pk, &mu, sig)
    })
}
