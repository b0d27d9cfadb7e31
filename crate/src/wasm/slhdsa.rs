//! SLH-DSA (FIPS 205, the six SHAKE sets) bindings: keygen, sign, verify and the internal
//! interface on M′.
//!
//! Parameter sets are named by their standard name (`"SLH-DSA-SHAKE-192s"`, …); any other
//! name throws a `RangeError`, since only the wrappers call this layer.
//!
//! Verification never throws for a bad *signature* (wrong length or simply not valid): it
//! returns `false`. It throws only for arguments the caller controls, a public key of the
//! wrong length or a context longer than 255 bytes.
//!
//! Secret inputs (seeds, secret keys, signing randomness) are taken as owned `Vec<u8>` rather
//! than `&[u8]`, so that the copy the bindings place in WASM memory is wiped on return.
//!
//! The `light` feature builds the verify-only module: key generation and signing are left out.

use alloc::vec::Vec;
#[cfg(not(feature = "light"))]
use js_sys::{Array, Uint8Array};

use wasm_bindgen::prelude::*;
#[cfg(not(feature = "light"))]
use zeroize::Zeroizing;

use super::{js_u32, scheme_error};
use crate::slhdsa::{self, hazmat, Mode};

/// An SLH-DSA error as JS sees it (the message, code and module of [`crate::Error`]'s).
fn to_js_error(err: slhdsa::Error) -> JsValue {
    scheme_error("SLH-DSA", &err, err.code(), "slhdsa")
}

/// The parameter set named `name`, or a `RangeError` (a wrapper bug, not user input).
fn mode(name: &str) -> Result<Mode, JsValue> {
    Mode::from_name(name).ok_or_else(|| {
        js_sys::RangeError::new(&alloc::format!(
            "unknown SLH-DSA parameter set {}; expected SLH-DSA-SHAKE-128s … SLH-DSA-SHAKE-256f",
            super::echo(name)
        ))
        .into()
    })
}

/// An `INVALID_LENGTH` error naming `what` unless `got == expected`.
fn check_len(what: &'static str, expected: usize, got: usize) -> Result<(), JsValue> {
    if got == expected {
        Ok(())
    } else {
        Err(to_js_error(slhdsa::Error::InvalidLength { what, expected, got }))
    }
}

/// Map a verification result to a verdict: a bad signature is `false`; other errors throw.
fn verdict(result: Result<(), slhdsa::Error>) -> Result<bool, JsValue> {
    match result {
        Ok(()) => Ok(true),
        Err(slhdsa::Error::InvalidSignature) => Ok(false),
        Err(e) => Err(to_js_error(e)),
    }
}

/// Generate a key pair from `seed` = SK.seed ‖ SK.prf ‖ PK.seed (3n bytes, the order of
/// `@noble/post-quantum`'s `keygen(seed)`); returns `[publicKey, secretKey]`.
///
/// FIPS 205, Algorithm 18 (slh_keygen_internal).
///
/// # Errors
/// `INVALID_LENGTH` when `seed` is not 3n bytes; a `RangeError` for an unknown set.
///
/// # Security
/// The seed determines the secret key: it must be uniformly random and kept secret.
#[cfg(not(feature = "light"))]
#[wasm_bindgen(js_name = "slhDsaKeygen")]
pub fn slh_dsa_keygen(set: &str, seed: Vec<u8>) -> Result<Array, JsValue> {
    let mode = mode(set)?;
    let seed = Zeroizing::new(seed);
    let n = mode.n();
    check_len("seed", 3 * n, seed.len())?;
    let (sk_seed, rest) = seed.split_at(n);
    let (sk_prf, pk_seed) = rest.split_at(n);
    let (pk, sk) = slhdsa::keygen(mode, sk_seed, sk_prf, pk_seed).map_err(to_js_error)?;
    let out = Array::new();
    out.push(&Uint8Array::from(&pk[..]));
    out.push(&Uint8Array::from(&sk[..]));
    Ok(out)
}

/// Sign `msg` with context `ctx` (pure SLH-DSA); `addrnd` is n bytes, or `undefined` for the
/// deterministic variant (opt_rand = PK.seed).
///
/// FIPS 205, Algorithm 22 (slh_sign).
///
/// # Errors
/// `INVALID_LENGTH` for a secret key or `addrnd` of the wrong size, `CONTEXT_TOO_LONG` for a
/// context over 255 bytes.
#[cfg(not(feature = "light"))]
#[wasm_bindgen(js_name = "slhDsaSign")]
pub fn slh_dsa_sign(
    set: &str,
    sk: Vec<u8>,
    msg: &[u8],
    ctx: &[u8],
    addrnd: Option<Vec<u8>>,
) -> Result<Vec<u8>, JsValue> {
    let mode = mode(set)?;
    let sk = Zeroizing::new(sk);
    let addrnd = addrnd.map(Zeroizing::new);
    slhdsa::sign(mode, &sk, msg, ctx, addrnd.as_deref().map(Vec::as_slice)).map_err(to_js_error)
}

/// Sign the already formatted message M′ (expert use: test vectors, custom framings);
/// `addrnd` as in `slhDsaSign`.
///
/// FIPS 205, Algorithm 19 (slh_sign_internal).
///
/// # Errors
/// `INVALID_LENGTH` for a secret key or `addrnd` of the wrong size.
///
/// # Security
/// Skips the domain separation of the pure interface: M′ must be framed by the caller.
#[cfg(not(feature = "light"))]
#[wasm_bindgen(js_name = "slhDsaSignInternal")]
pub fn slh_dsa_sign_internal(
    set: &str,
    sk: Vec<u8>,
    m_prime: &[u8],
    addrnd: Option<Vec<u8>>,
) -> Result<Vec<u8>, JsValue> {
    let mode = mode(set)?;
    let sk = Zeroizing::new(sk);
    let addrnd = addrnd.map(Zeroizing::new);
    hazmat::sign_internal(mode, &sk, m_prime, addrnd.as_deref().map(Vec::as_slice)).map_err(to_js_error)
}

/// Verify signature `sig` on `msg` with context `ctx` (pure SLH-DSA) under public key `pk`.
///
/// FIPS 205, Algorithm 24 (slh_verify). Returns `false` for any signature problem.
///
/// # Errors
/// `INVALID_LENGTH` for a public key of the wrong size, `CONTEXT_TOO_LONG` for a context over
/// 255 bytes.
#[wasm_bindgen(js_name = "slhDsaVerify")]
pub fn slh_dsa_verify(set: &str, pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<bool, JsValue> {
    let mode = mode(set)?;
    check_len("public key", mode.public_key_len(), pk.len())?;
    if sig.len() != mode.signature_len() {
        return Ok(false);
    }
    verdict(slhdsa::verify(mode, pk, msg, ctx, sig))
}

/// Verify a signature on the already formatted message M′ (expert use).
///
/// FIPS 205, Algorithm 20 (slh_verify_internal). Returns `false` for any signature problem.
///
/// # Errors
/// `INVALID_LENGTH` for a public key of the wrong size.
#[wasm_bindgen(js_name = "slhDsaVerifyInternal")]
pub fn slh_dsa_verify_internal(set: &str, pk: &[u8], m_prime: &[u8], sig: &[u8]) -> Result<bool, JsValue> {
    let mode = mode(set)?;
    check_len("public key", mode.public_key_len(), pk.len())?;
    if sig.len() != mode.signature_len() {
        return Ok(false);
    }
    verdict(hazmat::verify_internal(mode, pk, m_prime, sig))
}

/// The byte lengths of a parameter set: `[n, publicKey, secretKey, signature]`.
///
/// FIPS 205, Table 2.
#[wasm_bindgen(js_name = "slhDsaLengths")]
pub fn slh_dsa_lengths(set: &str) -> Result<Vec<u32>, JsValue> {
    let mode = mode(set)?;
    // The lengths are at most 49,856 bytes, so they fit in u32.
    Ok(alloc::vec![
        js_u32(mode.n()),
        js_u32(mode.public_key_len()),
        js_u32(mode.secret_key_len()),
        js_u32(mode.signature_len()),
    ])
}
