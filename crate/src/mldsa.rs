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
//! Two API shapes: typed keys ([`SigningKey`], [`VerifyingKey`]) generic over the set,
//! and byte functions ([`keygen`], [`sign`], [`verify`]) taking a runtime [`Mode`], as
//! used by the JavaScript bindings.
//!
//! # Security
//! Secret keys and every secret intermediate are zeroized when dropped. Signing takes
//! no secret-dependent branch or table index except the accept/reject decision of each
//! rejection-sampling attempt and the rejection sampling of s1, s2 from the seed, as the
//! standard itself does. Randomness is always supplied by the caller.
#![allow(non_snake_case)] // matches the spec's notation

use alloc::vec;
use alloc::vec::Vec;
use core::marker::PhantomData;

use zeroize::{Zeroize, Zeroizing};

use crate::hash::Shake256Absorb;

mod encode;
mod hint;
mod keygen;
mod ntt;
mod params;
mod poly;
mod rounding;
mod sample;
mod sign;
mod verify;

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

/// A public key of a runtime-chosen set, expanded for repeated verification (the byte
/// API's counterpart of [`PreparedVerifyingKey`]).
#[derive(Clone)]
pub struct PreparedPublicKey {
    mode: Mode,
    key: verify::Prepared,
}

impl core::fmt::Debug for PreparedPublicKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "PreparedPublicKey<{}>", self.mode.name())
    }
}

impl PreparedPublicKey {
    /// Expands the encoded public key `pk` of set `mode`.
    ///
    /// # Errors
    /// [`Error::InvalidLength`].
    pub fn new(mode: Mode, pk: &[u8]) -> Result<Self, Error> {
        check_len("public key", mode.public_key_len(), pk.len())?;
        let key = dispatch!(mode, P => verify::Prepared::new::<P>(pk));
        Ok(PreparedPublicKey { mode, key })
    }

    /// The parameter set.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// FIPS 204 Alg. 3 ML-DSA.Verify with context `ctx`; same result as [`verify`].
    ///
    /// # Errors
    /// [`Error::InvalidLength`] for a signature of the wrong length,
    /// [`Error::ContextTooLong`], [`Error::InvalidSignature`].
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
        check_context(ctx)?;
        let mu = mu_from_tr(&self.key.tr, &[&pure_prefix(ctx), ctx], msg);
        dispatch!(self.mode, P => {
            check_len("signature", P::SIG_LEN, sig.len())?;
            if verify::verify_mu_prepared::<P>(&self.key, &mu, sig) {
                Ok(())
            } else {
                Err(Error::InvalidSignature)
            }
        })
    }
}

/// Expert interfaces: the internal functions of FIPS 204 and external μ.
///
/// # Security
/// These skip the domain separation of the pure interface. Signing an M′ that was not
/// built as `0 ‖ |ctx| ‖ ctx ‖ M` (or `1 ‖ …` for HashML-DSA) produces signatures that
/// may be valid for unintended messages; use them only to implement a protocol or to
/// run test vectors.
pub mod hazmat {
    use super::*;

    /// FIPS 204 Alg. 7 ML-DSA.Sign_internal on the message representative M′.
    ///
    /// # Errors
    /// [`Error::InvalidLength`], [`Error::MalformedSecretKey`].
    pub fn sign_internal(mode: Mode, sk: &[u8], m_prime: &[u8], rnd: &[u8; 32]) -> Result<Vec<u8>, Error> {
        dispatch!(mode, P => {
            check_len("secret key", P::SK_LEN, sk.len())?;
            let mu = mu_from_tr(&tr_in_sk(sk), &[], m_prime);
            sign_generic::<P>(sk, &mu, rnd)
        })
    }

    /// FIPS 204 Alg. 8 ML-DSA.Verify_internal on the message representative M′.
    ///
    /// # Errors
    /// [`Error::InvalidLength`], [`Error::InvalidSignature`].
    pub fn verify_internal(mode: Mode, pk: &[u8], m_prime: &[u8], sig: &[u8]) -> Result<(), Error> {
        dispatch!(mode, P => {
            check_len("public key", P::PK_LEN, pk.len())?;
            let mu = mu_from_tr(&tr_of(pk), &[], m_prime);
            verify_generic::<P>(pk, &mu, sig)
        })
    }

    /// μ = H(H(pk, 64) ‖ 0 ‖ |ctx| ‖ ctx ‖ msg, 64): the external-μ message
    /// representative of the pure interface, computable without the secret key.
    ///
    /// # Errors
    /// [`Error::InvalidLength`], [`Error::ContextTooLong`].
    pub fn compute_mu(mode: Mode, pk: &[u8], msg: &[u8], ctx: &[u8]) -> Result<[u8; 64], Error> {
        check_context(ctx)?;
        check_len("public key", mode.public_key_len(), pk.len())?;
        Ok(mu_from_tr(&tr_of(pk), &[&pure_prefix(ctx), ctx], msg))
    }

    /// Signs a precomputed μ (external μ; FIPS 204 Alg. 7 from step 7).
    ///
    /// # Errors
    /// [`Error::InvalidLength`], [`Error::MalformedSecretKey`].
    pub fn sign_mu(mode: Mode, sk: &[u8], mu: &[u8; 64], rnd: &[u8; 32]) -> Result<Vec<u8>, Error> {
        dispatch!(mode, P => {
            check_len("secret key", P::SK_LEN, sk.len())?;
            sign_generic::<P>(sk, mu, rnd)
        })
    }

    /// Verifies a signature on a precomputed μ (external μ).
    ///
    /// # Errors
    /// [`Error::InvalidLength`], [`Error::InvalidSignature`].
    pub fn verify_mu(mode: Mode, pk: &[u8], mu: &[u8; 64], sig: &[u8]) -> Result<(), Error> {
        dispatch!(mode, P => {
            check_len("public key", P::PK_LEN, pk.len())?;
            verify_generic::<P>(pk, mu, sig)
        })
    }
}

// ----------------------------------------------------------------------------------
// Typed keys
// ----------------------------------------------------------------------------------

/// An ML-DSA signing key for parameter set `P` (the encoded secret key, and the seed
/// when it was generated from one).
///
/// # Security
/// Wiped on drop. `Debug` does not show it. Never send it anywhere.
pub struct SigningKey<P: Params> {
    sk: Zeroizing<Vec<u8>>,
    seed: Option<Zeroizing<[u8; 32]>>,
    _p: PhantomData<P>,
}

impl<P: Params> core::fmt::Debug for SigningKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SigningKey<{}>(<redacted>)", P::MODE.name())
    }
}

impl<P: Params> SigningKey<P> {
    /// FIPS 204 Alg. 1 / 6: the key determined by the 32-byte seed ξ.
    pub fn from_seed(seed: &[u8; 32]) -> Self {
        let mut pk = vec![0u8; P::PK_LEN];
        let mut sk = Zeroizing::new(vec![0u8; P::SK_LEN]);
        keygen::keygen_internal::<P>(seed, &mut pk, &mut sk);
        SigningKey {
            sk,
            seed: Some(Zeroizing::new(*seed)),
            _p: PhantomData,
        }
    }

    /// Decodes an encoded secret key (FIPS 204 Alg. 25 skDecode).
    ///
    /// # Errors
    /// [`Error::InvalidLength`], [`Error::MalformedSecretKey`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        check_len("secret key", P::SK_LEN, bytes.len())?;
        if encode::sk_decode::<P>(bytes).is_none() {
            return Err(Error::MalformedSecretKey);
        }
        Ok(SigningKey {
            sk: Zeroizing::new(bytes.to_vec()),
            seed: None,
            _p: PhantomData,
        })
    }

    /// The encoded secret key (`P::SK_LEN` bytes).
    ///
    /// # Security
    /// These bytes are the key: keep them secret.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        self.sk.clone()
    }

    /// The seed ξ the key was generated from, if it was.
    ///
    /// # Security
    /// These bytes are the key: keep them secret.
    pub fn seed(&self) -> Option<&[u8; 32]> {
        self.seed.as_deref()
    }

    /// The matching verifying key, rebuilt from the secret key.
    pub fn verifying_key(&self) -> VerifyingKey<P> {
        // The seed regenerates pk exactly; a key decoded from bytes recomputes t from s1, s2.
        let seed = match &self.seed {
            Some(s) => **s,
            None => {
                return VerifyingKey {
                    pk: public_from_secret::<P>(&self.sk),
                    _p: PhantomData,
                }
            }
        };
        let mut pk = vec![0u8; P::PK_LEN];
        let mut sk = Zeroizing::new(vec![0u8; P::SK_LEN]);
        keygen::keygen_internal::<P>(&seed, &mut pk, &mut sk);
        VerifyingKey { pk, _p: PhantomData }
    }

    /// FIPS 204 Alg. 2 ML-DSA.Sign, hedged with the 32 random bytes `rnd`.
    ///
    /// # Errors
    /// [`Error::ContextTooLong`].
    pub fn sign(&self, msg: &[u8], ctx: &[u8], rnd: &[u8; 32]) -> Result<Vec<u8>, Error> {
        sign(P::MODE, &self.sk, msg, ctx, Some(rnd))
    }

    /// FIPS 204 Alg. 2 ML-DSA.Sign, deterministic variant (rnd = 0^32).
    ///
    /// # Errors
    /// [`Error::ContextTooLong`].
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Vec<u8>, Error> {
        sign(P::MODE, &self.sk, msg, ctx, None)
    }
}

/// Recomputes pk = (ρ, t1) from an encoded secret key: t = NTT^-1(Â ∘ NTT(s1)) + s2.
fn public_from_secret<P: Params>(sk: &[u8]) -> Vec<u8> {
    let mut pk = vec![0u8; P::PK_LEN];
    // Length and coefficient ranges were checked when the key was decoded.
    if let Some(mut parts) = encode::sk_decode::<P>(sk) {
        let (s1, s2) = (parts.s1, parts.s2);
        let t1 = keygen::compute_t::<P>(&parts.rho, &s1, &s2, &mut parts.t0);
        encode::pk_encode::<P>(&parts.rho, &t1, &mut pk);
        let (mut s1, mut s2) = (s1, s2);
        s1.zeroize();
        s2.zeroize();
    }
    pk
}

/// An ML-DSA verifying (public) key for parameter set `P`.
#[derive(Clone, PartialEq, Eq)]
pub struct VerifyingKey<P: Params> {
    pk: Vec<u8>,
    _p: PhantomData<P>,
}

impl<P: Params> core::fmt::Debug for VerifyingKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "VerifyingKey<{}>({} bytes)", P::MODE.name(), self.pk.len())
    }
}

impl<P: Params> VerifyingKey<P> {
    /// Decodes an encoded public key (FIPS 204 Alg. 23 pkDecode; every byte string of
    /// the right length is a valid key).
    ///
    /// # Errors
    /// [`Error::InvalidLength`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        check_len("public key", P::PK_LEN, bytes.len())?;
        Ok(VerifyingKey {
            pk: bytes.to_vec(),
            _p: PhantomData,
        })
    }

    /// The encoded public key (`P::PK_LEN` bytes).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.pk.clone()
    }

    /// The encoded public key, borrowed.
    pub fn as_bytes(&self) -> &[u8] {
        &self.pk
    }

    /// FIPS 204 Alg. 3 ML-DSA.Verify with context `ctx`.
    ///
    /// # Errors
    /// [`Error::InvalidLength`] for a signature of the wrong length,
    /// [`Error::ContextTooLong`], [`Error::InvalidSignature`].
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
        verify(P::MODE, &self.pk, msg, ctx, sig)
    }

    /// Expands the key once (the matrix Â, NTT(t1·2^d) and tr) for verifying many
    /// signatures under it: each verification then skips the k·ℓ SHAKE128 matrix
    /// expansions that dominate a cold verification.
    pub fn prepare(&self) -> PreparedVerifyingKey<P> {
        let key = PreparedPublicKey {
            mode: P::MODE,
            key: verify::Prepared::new::<P>(&self.pk),
        };
        PreparedVerifyingKey { key, _p: PhantomData }
    }
}

/// A verifying key expanded for repeated verification (see [`VerifyingKey::prepare`]).
/// It holds only public data: about (k·ℓ + k) KiB.
#[derive(Clone)]
pub struct PreparedVerifyingKey<P: Params> {
    key: PreparedPublicKey,
    _p: PhantomData<P>,
}

impl<P: Params> core::fmt::Debug for PreparedVerifyingKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "PreparedVerifyingKey<{}>", P::MODE.name())
    }
}

impl<P: Params> PreparedVerifyingKey<P> {
    /// FIPS 204 Alg. 3 ML-DSA.Verify with context `ctx`; same result as
    /// [`VerifyingKey::verify`].
    ///
    /// # Errors
    /// [`Error::InvalidLength`] for a signature of the wrong length,
    /// [`Error::ContextTooLong`], [`Error::InvalidSignature`].
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
        self.key.verify(msg, ctx, sig)
    }
}
