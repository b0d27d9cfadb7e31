//! ML-DSA (FIPS 204) bindings: keygen, sign, verify, the expert interfaces and a prepared
//! public key.
//!
//! Parameter sets are named by their level (`44`, `65` or `87`); any other level throws a
//! `RangeError`, since only the wrappers call this layer.
//!
//! Verification never throws for a bad *signature* (wrong length, malformed encoding, or
//! simply not valid): it returns `false`. It throws only for arguments the caller controls,
//! a public key of the wrong length or a context longer than 255 bytes.
//!
//! Secret inputs (seeds, secret keys, signing randomness) are taken as owned `Vec<u8>` rather
//! than `&[u8]`, so that the copy the bindings place in WASM memory is wiped on return.
//!
//! The `light` feature builds verification alone: the key generation and signing functions
//! are left out. `wasm-mldsa-verify` without `wasm-mldsa` builds `mlDsaVerify` alone, the
//! plain verification `pulsar.verify` needs in the custody and committee modules.

#[cfg(feature = "wasm-mldsa")]
use alloc::vec::Vec;
#[cfg(all(feature = "wasm-mldsa", not(feature = "light")))]
use js_sys::{Array, Uint8Array};

use wasm_bindgen::prelude::*;
#[cfg(all(feature = "wasm-mldsa", not(feature = "light")))]
use zeroize::Zeroizing;

#[cfg(all(feature = "wasm-mldsa", not(feature = "light")))]
use super::js_u32;
use super::scheme_error;
use crate::mldsa::{self, Mode};

/// An ML-DSA error as JS sees it (the message, code and module of [`crate::Error`]'s).
fn to_js_error(err: mldsa::Error) -> JsValue {
    scheme_error("ML-DSA", &err, err.code(), "mldsa")
}

/// The parameter set for `level`, or a `RangeError` (a wrapper bug, not user input).
fn mode(level: u16) -> Result<Mode, JsValue> {
    Mode::from_level(level).ok_or_else(|| {
        js_sys::RangeError::new(&alloc::format!(
            "unknown ML-DSA level {level}; expected 44, 65 or 87"
        ))
        .into()
    })
}

/// Copy `bytes` into a fixed-size array, or an `INVALID_LENGTH` error naming `what`.
#[cfg(feature = "wasm-mldsa")]
fn fixed<const N: usize>(what: &'static str, bytes: &[u8]) -> Result<[u8; N], JsValue> {
    bytes.try_into().map_err(|_| {
        to_js_error(mldsa::Error::InvalidLength {
            what,
            expected: N,
            got: bytes.len(),
        })
    })
}

/// Check a public key's length: a wrong-size key is the caller's mistake, so it throws.
fn check_public_key(mode: Mode, pk: &[u8]) -> Result<(), JsValue> {
    if pk.len() == mode.public_key_len() {
        Ok(())
    } else {
        Err(to_js_error(mldsa::Error::InvalidLength {
            what: "public key",
            expected: mode.public_key_len(),
            got: pk.len(),
        }))
    }
}

/// Map a verification result to a verdict: a bad signature is `false`; other errors throw.
fn verdict(result: Result<(), mldsa::Error>) -> Result<bool, JsValue> {
    match result {
        Ok(()) => Ok(true),
        Err(mldsa::Error::InvalidSignature) => Ok(false),
        Err(e) => Err(to_js_error(e)),
    }
}

/// Generate an ML-DSA key pair from a 32-byte seed ξ; returns `[publicKey, secretKey]`.
///
/// FIPS 204, Algorithm 6 (ML-DSA.KeyGen_internal).
///
/// # Errors
/// `INVALID_LENGTH` when `seed` is not 32 bytes; a `RangeError` for an unknown level.
///
/// # Security
/// The seed determines the secret key: it must be uniformly random and kept secret.
#[cfg(all(feature = "wasm-mldsa", not(feature = "light")))]
#[wasm_bindgen(js_name = "mlDsaKeygen")]
pub fn ml_dsa_keygen(level: u16, seed: Vec<u8>) -> Result<Array, JsValue> {
    let mode = mode(level)?;
    let seed = Zeroizing::new(seed);
    let seed = Zeroizing::new(fixed::<32>("seed", &seed)?);
    let (pk, sk) = mldsa::keygen(mode, &seed);
    let out = Array::new();
    out.push(&Uint8Array::from(&pk[..]));
    out.push(&Uint8Array::from(&sk[..]));
    Ok(out)
}

/// Sign `msg` with context `ctx` (pure ML-DSA); `rnd` is 32 bytes, or `undefined` for the
/// deterministic variant (rnd = 0³²).
///
/// FIPS 204, Algorithm 2 (ML-DSA.Sign).
///
/// # Errors
/// `INVALID_LENGTH` for a secret key or `rnd` of the wrong size, `CONTEXT_TOO_LONG` for a
/// context over 255 bytes, `MALFORMED_SECRET_KEY` for a secret key that does not decode.
///
/// # Security
/// Hedged signing (a fresh random `rnd`) is the default in the JS wrapper; never reuse `rnd`
/// values chosen by an adversary.
#[cfg(all(feature = "wasm-mldsa", not(feature = "light")))]
#[wasm_bindgen(js_name = "mlDsaSign")]
pub fn ml_dsa_sign(
    level: u16,
    sk: Vec<u8>,
    msg: &[u8],
    ctx: &[u8],
    rnd: Option<Vec<u8>>,
) -> Result<Vec<u8>, JsValue> {
    let mode = mode(level)?;
    let sk = Zeroizing::new(sk);
    let rnd = match rnd {
        Some(r) => {
            let r = Zeroizing::new(r);
            Some(Zeroizing::new(fixed::<32>("rnd", &r)?))
        }
        None => None,
    };
    mldsa::sign(mode, &sk, msg, ctx, rnd.as_deref()).map_err(to_js_error)
}

/// Verify signature `sig` on `msg` with context `ctx` (pure ML-DSA) under public key `pk`.
///
/// FIPS 204, Algorithm 3 (ML-DSA.Verify).
///
/// Returns `false` for any signature problem (wrong length, malformed, invalid).
///
/// # Errors
/// `INVALID_LENGTH` for a public key of the wrong size, `CONTEXT_TOO_LONG` for a context over
/// 255 bytes.
#[wasm_bindgen(js_name = "mlDsaVerify")]
pub fn ml_dsa_verify(level: u16, pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<bool, JsValue> {
    let mode = mode(level)?;
    check_public_key(mode, pk)?;
    if sig.len() != mode.signature_len() {
        return Ok(false);
    }
    verdict(mldsa::verify(mode, pk, msg, ctx, sig))
}

/// Sign the already formatted message M′ (expert use: test vectors, custom framings).
///
/// FIPS 204, Algorithm 7 (ML-DSA.Sign_internal). `rnd` must be 32 bytes (all zero for the
/// deterministic variant).
///
/// # Errors
/// `INVALID_LENGTH` for a secret key or `rnd` of the wrong size, `MALFORMED_SECRET_KEY` for a
/// secret key that does not decode.
///
/// # Security
/// Skips the domain separation of the pure interface: M′ must be framed by the caller.
#[cfg(all(feature = "wasm-mldsa", not(feature = "light")))]
#[wasm_bindgen(js_name = "mlDsaSignInternal")]
pub fn ml_dsa_sign_internal(
    level: u16,
    sk: Vec<u8>,
    m_prime: &[u8],
    rnd: Vec<u8>,
) -> Result<Vec<u8>, JsValue> {
    let mode = mode(level)?;
    let (sk, rnd) = (Zeroizing::new(sk), Zeroizing::new(rnd));
    let rnd = Zeroizing::new(fixed::<32>("rnd", &rnd)?);
    mldsa::hazmat::sign_internal(mode, &sk, m_prime, &rnd).map_err(to_js_error)
}

/// Verify a signature on the already formatted message M′ (expert use).
///
/// FIPS 204, Algorithm 8 (ML-DSA.Verify_internal). Returns `false` for any signature problem.
///
/// # Errors
/// `INVALID_LENGTH` for a public key of the wrong size.
#[cfg(feature = "wasm-mldsa")]
#[wasm_bindgen(js_name = "mlDsaVerifyInternal")]
pub fn ml_dsa_verify_internal(level: u16, pk: &[u8], m_prime: &[u8], sig: &[u8]) -> Result<bool, JsValue> {
    let mode = mode(level)?;
    check_public_key(mode, pk)?;
    if sig.len() != mode.signature_len() {
        return Ok(false);
    }
    verdict(mldsa::hazmat::verify_internal(mode, pk, m_prime, sig))
}

/// Sign an externally computed 64-byte message representative μ (expert use).
///
/// FIPS 204, Algorithm 7 (ML-DSA.Sign_internal) from step 7, with μ supplied (§6.2, external μ).
///
/// # Errors
/// `INVALID_LENGTH` for μ, `rnd` or a secret key of the wrong size, `MALFORMED_SECRET_KEY`
/// for a secret key that does not decode.
///
/// # Security
/// μ must be H(tr ‖ M′) for the signer's own public key; signing an attacker-chosen μ signs
/// whatever message it stands for.
#[cfg(all(feature = "wasm-mldsa", not(feature = "light")))]
#[wasm_bindgen(js_name = "mlDsaSignMu")]
pub fn ml_dsa_sign_mu(level: u16, sk: Vec<u8>, mu: &[u8], rnd: Vec<u8>) -> Result<Vec<u8>, JsValue> {
    let mode = mode(level)?;
    let (sk, rnd) = (Zeroizing::new(sk), Zeroizing::new(rnd));
    let mu = fixed::<64>("mu", mu)?;
    let rnd = Zeroizing::new(fixed::<32>("rnd", &rnd)?);
    mldsa::hazmat::sign_mu(mode, &sk, &mu, &rnd).map_err(to_js_error)
}

/// Verify a signature on an externally computed 64-byte μ (expert use).
///
/// FIPS 204, Algorithm 8 (ML-DSA.Verify_internal) from step 7, with μ supplied.
/// Returns `false` for any signature problem.
///
/// # Errors
/// `INVALID_LENGTH` for a public key or μ of the wrong size.
#[cfg(feature = "wasm-mldsa")]
#[wasm_bindgen(js_name = "mlDsaVerifyMu")]
pub fn ml_dsa_verify_mu(level: u16, pk: &[u8], mu: &[u8], sig: &[u8]) -> Result<bool, JsValue> {
    let mode = mode(level)?;
    check_public_key(mode, pk)?;
    let mu = fixed::<64>("mu", mu)?;
    if sig.len() != mode.signature_len() {
        return Ok(false);
    }
    verdict(mldsa::hazmat::verify_mu(mode, pk, &mu, sig))
}

/// Compute the message representative μ = H(H(pk) ‖ 0 ‖ |ctx| ‖ ctx ‖ msg, 64) for pure ML-DSA.
///
/// FIPS 204, Algorithm 2 (ML-DSA.Sign) step 10 with Algorithm 7 step 6.
///
/// # Errors
/// `INVALID_LENGTH` for a public key of the wrong size, `CONTEXT_TOO_LONG` for a context over
/// 255 bytes.
#[cfg(feature = "wasm-mldsa")]
#[wasm_bindgen(js_name = "mlDsaComputeMu")]
pub fn ml_dsa_compute_mu(level: u16, pk: &[u8], msg: &[u8], ctx: &[u8]) -> Result<Vec<u8>, JsValue> {
    let mode = mode(level)?;
    check_public_key(mode, pk)?;
    mldsa::hazmat::compute_mu(mode, pk, msg, ctx)
        .map(|mu| mu.to_vec())
        .map_err(to_js_error)
}

/// The byte lengths of a parameter set: `[publicKey, secretKey, signature]`.
///
/// FIPS 204, Table 2. In the full modules only, where the tests check the JS table against it
/// (the verify modules' JS takes the same table; the ML-DSA verifier's budget has no room).
#[cfg(all(feature = "wasm-mldsa", not(feature = "light")))]
#[wasm_bindgen(js_name = "mlDsaLengths")]
pub fn ml_dsa_lengths(level: u16) -> Result<Vec<u32>, JsValue> {
    let mode = mode(level)?;
    // The lengths are at most a few kilobytes, so they fit in u32.
    Ok(alloc::vec![
        js_u32(mode.public_key_len()),
        js_u32(mode.secret_key_len()),
        js_u32(mode.signature_len()),
    ])
}

/// A public key expanded once for verifying many signatures (a light client checking
/// certificates under one group key). Holds only public data; call `free()` when done.
#[cfg(feature = "wasm-mldsa")]
#[wasm_bindgen(js_name = "MlDsaPreparedKey")]
pub struct MlDsaPreparedKey(mldsa::PreparedPublicKey);

#[cfg(feature = "wasm-mldsa")]
#[wasm_bindgen(js_class = "MlDsaPreparedKey")]
impl MlDsaPreparedKey {
    /// Expand public key `pk` of parameter set `level`.
    ///
    /// # Errors
    /// `INVALID_LENGTH` for a public key of the wrong size.
    #[wasm_bindgen(constructor)]
    pub fn new(level: u16, pk: &[u8]) -> Result<MlDsaPreparedKey, JsValue> {
        let mode = mode(level)?;
        check_public_key(mode, pk)?;
        mldsa::PreparedPublicKey::new(mode, pk)
            .map(MlDsaPreparedKey)
            .map_err(to_js_error)
    }

    /// Verify `sig` on `msg` with context `ctx`: the same verdict as `mlDsaVerify`.
    ///
    /// # Errors
    /// `CONTEXT_TOO_LONG` for a context over 255 bytes.
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<bool, JsValue> {
        if sig.len() != self.0.mode().signature_len() {
            return Ok(false);
        }
        verdict(self.0.verify(msg, ctx, sig))
    }
}
