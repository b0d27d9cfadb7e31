//! BLS12-381 bindings (full build only): the byte API of [`crate::bls`], ciphersuite
//! `BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_` (minimal-pubkey-size: keys in G1, 48 bytes;
//! signatures and proofs in G2, 96 bytes), so JavaScript can cross-check it against other
//! implementations. The light build verifies BLS only inside certificates ([`super::cert`]).
//!
//! Lists of keys or signatures cross as one concatenation of fixed-size entries (48 or 96
//! bytes each), built by the JS boundary from checked `Uint8Array`s.
//!
//! Verifiers return `false` for anything an attacker controls (a signature, a proof, a key
//! that fails KeyValidate); the signer side throws a typed error (`INVALID_SECRET_KEY`,
//! `IKM_TOO_SHORT`, …) for the caller's bad input.

use alloc::vec::Vec;

use js_sys::Array;
use wasm_bindgen::prelude::*;
use zeroize::Zeroizing;

use super::to_js_error;
use crate::bls::{self, PUBLIC_KEY_LEN, SIGNATURE_LEN};

/// Entries of `len` bytes each, or a `RangeError` (a wrapper bug, not user input).
fn chunks(bytes: &[u8], len: usize) -> Result<Vec<&[u8]>, JsValue> {
    if !bytes.len().is_multiple_of(len) {
        return Err(js_sys::RangeError::new("a list of fixed-size entries has a partial entry").into());
    }
    Ok(bytes.chunks_exact(len).collect())
}

/// KeyGen (§2.3) from `ikm` (at least 32 secret bytes) and `key_info`: `[secretKey (32,
/// big-endian), publicKey (48, compressed G1)]`.
///
/// # Errors
/// `IKM_TOO_SHORT`.
#[wasm_bindgen(js_name = "blsKeygen")]
pub fn bls_keygen(ikm: Vec<u8>, key_info: &[u8]) -> Result<Array, JsValue> {
    let ikm = Zeroizing::new(ikm);
    let sk = bls::keygen(&ikm, key_info).map_err(to_js_error)?;
    let pk = bls::sk_to_pk(&sk[..]).map_err(to_js_error)?;
    let out = Array::new();
    out.push(&js_sys::Uint8Array::from(&sk[..]));
    out.push(&js_sys::Uint8Array::from(&pk[..]));
    Ok(out)
}

/// SkToPk (§2.4): the compressed public key of a 32-byte secret key.
///
/// # Errors
/// `INVALID_LENGTH`, `INVALID_SECRET_KEY`.
#[wasm_bindgen(js_name = "blsSkToPk")]
pub fn bls_sk_to_pk(sk: Vec<u8>) -> Result<Vec<u8>, JsValue> {
    let sk = Zeroizing::new(sk);
    Ok(bls::sk_to_pk(&sk).map_err(to_js_error)?.to_vec())
}

/// Sign (§2.6): the compressed signature on `msg`.
///
/// # Errors
/// `INVALID_LENGTH`, `INVALID_SECRET_KEY`.
#[wasm_bindgen(js_name = "blsSign")]
pub fn bls_sign(sk: Vec<u8>, msg: &[u8]) -> Result<Vec<u8>, JsValue> {
    let sk = Zeroizing::new(sk);
    Ok(bls::sign(&sk, msg).map_err(to_js_error)?.to_vec())
}

/// PopProve (§3.3.2): the proof of possession of a secret key.
///
/// # Errors
/// `INVALID_LENGTH`, `INVALID_SECRET_KEY`.
#[wasm_bindgen(js_name = "blsPopProve")]
pub fn bls_pop_prove(sk: Vec<u8>) -> Result<Vec<u8>, JsValue> {
    let sk = Zeroizing::new(sk);
    Ok(bls::pop_prove(&sk).map_err(to_js_error)?.to_vec())
}

/// Verify (§2.7): `false` for a key or signature that does not decode, or does not verify.
#[wasm_bindgen(js_name = "blsVerify")]
pub fn bls_verify(pk: &[u8], msg: &[u8], sig: &[u8]) -> bool {
    bls::verify(pk, msg, sig).is_ok()
}

/// PopVerify (§3.3.3): `false` for a key or proof that does not decode, or does not verify.
#[wasm_bindgen(js_name = "blsPopVerify")]
pub fn bls_pop_verify(pk: &[u8], proof: &[u8]) -> bool {
    bls::pop_verify(pk, proof).is_ok()
}

/// Aggregate (§2.8) the concatenated 96-byte signatures `sigs`.
///
/// # Errors
/// `EMPTY_INPUT`, a signature's decoding error, `IDENTITY_ELEMENT` for a sum at infinity.
#[wasm_bindgen(js_name = "blsAggregate")]
pub fn bls_aggregate(sigs: &[u8]) -> Result<Vec<u8>, JsValue> {
    let list = chunks(sigs, SIGNATURE_LEN)?;
    Ok(bls::aggregate(&list).map_err(to_js_error)?.to_vec())
}

/// FastAggregateVerify (§3.3.4): every key of the concatenated 48-byte `pks` signed `msg`.
/// `false` for no keys, anything that does not decode, or a signature that does not verify.
/// Every key must come with a verified proof of possession (the caller's duty).
#[wasm_bindgen(js_name = "blsFastAggregateVerify")]
pub fn bls_fast_aggregate_verify(pks: &[u8], msg: &[u8], sig: &[u8]) -> Result<bool, JsValue> {
    let list = chunks(pks, PUBLIC_KEY_LEN)?;
    Ok(bls::fast_aggregate_verify(&list, msg, sig).is_ok())
}
