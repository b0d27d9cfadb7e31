//! Key formats (full build only): thin byte-level wrappers over [`crate::keyfmt`].
//!
//! ```text
//! keyfmtSpkiEncode(alg, publicKey, pem)            → DER, or the PEM text's UTF-8 bytes
//! keyfmtSpkiDecode(input, pem)                     → { alg, publicKey }
//! keyfmtPkcs8Encode(alg, seed?, secretKey?, publicKey?, form, withPublic, pem)
//! keyfmtPkcs8Decode(input, pem)                    → { alg, seed?, secretKey, publicKey }
//! keyfmtJwkEncode / keyfmtCoseEncode(alg, publicKey?, seed?, secretKey?)
//! keyfmtJwkDecode(utf8) / keyfmtCoseDecode(bytes)  → { alg, publicKey, seed?, secretKey? }
//! keyfmtJwkThumbprint(alg, publicKey) → string;  keyfmtCoseThumbprint(alg, publicKey) → 32 bytes
//! ```
//!
//! Algorithms are named by their standard names (`"ML-DSA-65"`, `"SLH-DSA-SHAKE-128s"`).
//! Text (PEM, JWK) crosses this boundary as UTF-8 bytes in both directions, so that the
//! copies holding a private key, on either side, can be wiped: inputs are taken as owned
//! `Vec<u8>` and wiped on return, outputs holding a secret are copied straight from a
//! [`Zeroizing`] buffer into a new `Uint8Array`. Every object returned has no prototype.
//! Errors are the crate's (`KEY_TRUNCATED`, `KEY_MISMATCH`, `UNKNOWN_ALGORITHM`, …; module
//! `keyfmt`).

use alloc::vec::Vec;

use js_sys::{Object, Uint8Array};
use subtle::ConstantTimeEq;
use wasm_bindgen::prelude::*;
use zeroize::Zeroizing;

use super::{define, null_object, to_js_error};
use crate::keyfmt::{self, AkpKey, Algorithm, Error, MlDsaForm, PrivateKey, PublicKey};

/// The algorithm of a standard name, or `UNKNOWN_ALGORITHM`.
fn algorithm(name: &str) -> Result<Algorithm, JsValue> {
    Algorithm::from_name(name).ok_or_else(|| to_js_error(Error::UnknownAlgorithm))
}

/// Text given as UTF-8 bytes (the JS wrapper encodes it, so it is always valid).
fn text<'a>(bytes: &'a [u8], what: &'static str) -> Result<&'a str, JsValue> {
    core::str::from_utf8(bytes).map_err(|_| to_js_error(Error::Malformed(what)))
}

/// A fresh `Uint8Array` copied from `bytes` (no intermediate `Vec` left in WASM memory).
fn out(bytes: &[u8]) -> Uint8Array {
    Uint8Array::from(bytes)
}

/// `{ alg, publicKey }`.
fn public_object(pk: &PublicKey) -> Object {
    let o = null_object();
    define(&o, "alg", &JsValue::from_str(pk.algorithm().name()));
    define(&o, "publicKey", &out(pk.as_bytes()));
    o
}

/// `{ alg, publicKey, seed?, secretKey }`.
fn private_object(key: &PrivateKey) -> Object {
    let o = public_object(key.public_key());
    if let Some(seed) = key.seed() {
        define(&o, "seed", &out(seed));
    }
    define(&o, "secretKey", &out(key.secret_key()));
    o
}

/// The private key the caller's parts name: an ML-DSA `seed` (and, when given, the expanded
/// `secretKey` it must produce) or expanded `secretKey` alone; an SLH-DSA `secretKey`. A
/// `publicKey`, when given, must be the key's.
fn private_key(
    alg: Algorithm,
    seed: Option<&[u8]>,
    secret_key: Option<&[u8]>,
    public_key: Option<&[u8]>,
) -> Result<PrivateKey, Error> {
    let key = match (alg, seed, secret_key) {
        (Algorithm::MlDsa(mode), Some(seed), expanded) => {
            let s: &[u8; 32] = seed.try_into().map_err(|_| Error::KeyLength {
                what: "ML-DSA seed",
                expected: 32,
                got: seed.len(),
            })?;
            let key = PrivateKey::ml_dsa_from_seed(mode, s);
            if let Some(e) = expanded {
                if !bool::from(key.secret_key().ct_eq(e)) {
                    return Err(Error::KeyMismatch("the secret key is not the seed's key"));
                }
            }
            key
        }
        (Algorithm::MlDsa(mode), None, Some(sk)) => PrivateKey::ml_dsa_from_expanded(mode, sk)?,
        (Algorithm::SlhDsa(_), Some(_), _) => {
            return Err(Error::UnsupportedFormat(
                "an SLH-DSA private key has no seed form: give its secretKey",
            ))
        }
        (Algorithm::SlhDsa(mode), None, Some(sk)) => PrivateKey::slh_dsa_from_bytes(mode, sk)?,
        (_, None, None) => return Err(Error::MissingField("seed or secretKey")),
    };
    if let Some(p) = public_key {
        if p != key.public_key().as_bytes() {
            return Err(Error::KeyMismatch(
                "the public key does not belong to the private key",
            ));
        }
    }
    Ok(key)
}

/// The SubjectPublicKeyInfo of `publicKey`: DER, or (`pem`) the `PUBLIC KEY` block's bytes.
///
/// # Errors
/// `UNKNOWN_ALGORITHM`, `KEY_LENGTH_MISMATCH`.
#[wasm_bindgen(js_name = "keyfmtSpkiEncode")]
pub fn spki_encode(alg: &str, public_key: &[u8], pem: bool) -> Result<Vec<u8>, JsValue> {
    let pk = PublicKey::new(algorithm(alg)?, public_key).map_err(to_js_error)?;
    Ok(if pem {
        pk.to_pem().into_bytes()
    } else {
        pk.to_spki_der()
    })
}

/// Decodes a SubjectPublicKeyInfo (DER, or with `pem` a `PUBLIC KEY` block's UTF-8 bytes)
/// into `{ alg, publicKey }`.
///
/// # Errors
/// The DER and PEM errors of [`crate::keyfmt`].
#[wasm_bindgen(js_name = "keyfmtSpkiDecode")]
pub fn spki_decode(input: &[u8], pem: bool) -> Result<Object, JsValue> {
    let pk = if pem {
        PublicKey::from_pem(text(input, "PEM text")?)
    } else {
        PublicKey::from_spki_der(input)
    }
    .map_err(to_js_error)?;
    Ok(public_object(&pk))
}

/// The OneAsymmetricKey (PKCS #8) of a private key: DER, or with `pem` the `PRIVATE KEY`
/// block's bytes. `form` is the ML-DSA CHOICE (`"seed"`, `"expanded"`, `"both"`; ignored for
/// SLH-DSA); `with_public` adds the public key (version 1).
///
/// # Errors
/// `UNKNOWN_ALGORITHM`, `KEY_LENGTH_MISMATCH`, `KEY_MISMATCH`, `MISSING_FIELD`,
/// `UNSUPPORTED_FORMAT` (an SLH-DSA seed), `NO_SEED`, `MALFORMED_KEY`; a `RangeError` for an
/// unknown form (the wrapper checks it).
///
/// # Security
/// The secret inputs are wiped on return, and so is the encoding.
#[wasm_bindgen(js_name = "keyfmtPkcs8Encode")]
pub fn pkcs8_encode(
    alg: &str,
    seed: Option<Vec<u8>>,
    secret_key: Option<Vec<u8>>,
    public_key: Option<Vec<u8>>,
    form: &str,
    with_public: bool,
    pem: bool,
) -> Result<Uint8Array, JsValue> {
    let seed = seed.map(Zeroizing::new);
    let secret_key = secret_key.map(Zeroizing::new);
    let form = match form {
        "seed" => MlDsaForm::Seed,
        "expanded" => MlDsaForm::Expanded,
        "both" => MlDsaForm::Both,
        _ => return Err(js_sys::RangeError::new("form must be seed, expanded or both").into()),
    };
    let key = private_key(
        algorithm(alg)?,
        seed.as_deref().map(Vec::as_slice),
        secret_key.as_deref().map(Vec::as_slice),
        public_key.as_deref(),
    )
    .map_err(to_js_error)?;
    if pem {
        let text = key.to_pkcs8_pem_with(form, with_public).map_err(to_js_error)?;
        Ok(out(text.as_bytes()))
    } else {
        let der = key.to_pkcs8_der_with(form, with_public).map_err(to_js_error)?;
        Ok(out(&der))
    }
}

/// Decodes a OneAsymmetricKey (DER, or with `pem` a `PRIVATE KEY` block's bytes), any ML-DSA
/// CHOICE or an SLH-DSA key, checked against itself: `{ alg, seed?, secretKey, publicKey }`.
///
/// # Errors
/// The DER, PEM and consistency errors of [`crate::keyfmt`].
///
/// # Security
/// The input is wiped on return.
#[wasm_bindgen(js_name = "keyfmtPkcs8Decode")]
pub fn pkcs8_decode(input: Vec<u8>, pem: bool) -> Result<Object, JsValue> {
    let input = Zeroizing::new(input);
    let key = if pem {
        PrivateKey::from_pkcs8_pem(text(&input, "PEM text")?)
    } else {
        PrivateKey::from_pkcs8_der(&input)
    }
    .map_err(to_js_error)?;
    Ok(private_object(&key))
}

/// The object of a decoded AKP key.
fn akp_object(key: &AkpKey) -> Object {
    match key {
        AkpKey::Public(pk) => public_object(pk),
        AkpKey::Private(k) => private_object(k),
    }
}

/// The public key (`seed` and `secret_key` absent) or private key the parts name.
enum Parts {
    Public(PublicKey),
    Private(PrivateKey),
}

fn parts(
    alg: &str,
    public_key: Option<Vec<u8>>,
    seed: Option<Vec<u8>>,
    secret_key: Option<Vec<u8>>,
) -> Result<Parts, JsValue> {
    let alg = algorithm(alg)?;
    let seed = seed.map(Zeroizing::new);
    let secret_key = secret_key.map(Zeroizing::new);
    if seed.is_none() && secret_key.is_none() {
        let pk = public_key.ok_or_else(|| to_js_error(Error::MissingField("publicKey")))?;
        return Ok(Parts::Public(PublicKey::new(alg, &pk).map_err(to_js_error)?));
    }
    let key = private_key(
        alg,
        seed.as_deref().map(Vec::as_slice),
        secret_key.as_deref().map(Vec::as_slice),
        public_key.as_deref(),
    )
    .map_err(to_js_error)?;
    Ok(Parts::Private(key))
}

/// The JWK (`kty` `AKP`, RFC 9964) as UTF-8 bytes: public when only `publicKey` is given,
/// private (`priv` the ML-DSA seed or the SLH-DSA key) when `seed` or `secretKey` is.
///
/// # Errors
/// As [`keyfmtPkcs8Encode`](pkcs8_encode), and `UNSUPPORTED_FORMAT` for the SLH-DSA sets JOSE
/// does not define, `NO_SEED` for an ML-DSA key given without its seed.
#[wasm_bindgen(js_name = "keyfmtJwkEncode")]
pub fn jwk_encode(
    alg: &str,
    public_key: Option<Vec<u8>>,
    seed: Option<Vec<u8>>,
    secret_key: Option<Vec<u8>>,
) -> Result<Uint8Array, JsValue> {
    match parts(alg, public_key, seed, secret_key)? {
        Parts::Public(pk) => Ok(out(pk.to_jwk().map_err(to_js_error)?.as_bytes())),
        Parts::Private(k) => Ok(out(k.to_jwk().map_err(to_js_error)?.as_bytes())),
    }
}

/// Decodes a JWK `AKP` key (its UTF-8 bytes): `{ alg, publicKey }` or, with `priv`,
/// `{ alg, publicKey, seed?, secretKey }` (checked against `pub`).
///
/// # Errors
/// The JSON and key errors of [`keyfmt::decode_jwk`].
#[wasm_bindgen(js_name = "keyfmtJwkDecode")]
pub fn jwk_decode(input: Vec<u8>) -> Result<Object, JsValue> {
    let input = Zeroizing::new(input);
    let key = keyfmt::decode_jwk(text(&input, "JWK text")?).map_err(to_js_error)?;
    Ok(akp_object(&key))
}

/// The COSE_Key (`kty` 7, deterministic CBOR): public or private as
/// [`keyfmtJwkEncode`](jwk_encode).
///
/// # Errors
/// As [`keyfmtJwkEncode`](jwk_encode); `UNSUPPORTED_FORMAT` for every SLH-DSA set.
#[wasm_bindgen(js_name = "keyfmtCoseEncode")]
pub fn cose_encode(
    alg: &str,
    public_key: Option<Vec<u8>>,
    seed: Option<Vec<u8>>,
    secret_key: Option<Vec<u8>>,
) -> Result<Uint8Array, JsValue> {
    match parts(alg, public_key, seed, secret_key)? {
        Parts::Public(pk) => Ok(out(&pk.to_cose_key().map_err(to_js_error)?)),
        Parts::Private(k) => Ok(out(&k.to_cose_key().map_err(to_js_error)?)),
    }
}

/// Decodes a COSE_Key `AKP` key, as [`keyfmtJwkDecode`](jwk_decode).
///
/// # Errors
/// The CBOR and key errors of [`keyfmt::decode_cose_key`].
#[wasm_bindgen(js_name = "keyfmtCoseDecode")]
pub fn cose_decode(input: Vec<u8>) -> Result<Object, JsValue> {
    let input = Zeroizing::new(input);
    let key = keyfmt::decode_cose_key(&input).map_err(to_js_error)?;
    Ok(akp_object(&key))
}

/// The JWK thumbprint (RFC 7638, base64url) of a public key.
///
/// # Errors
/// `UNKNOWN_ALGORITHM`, `KEY_LENGTH_MISMATCH`, `UNSUPPORTED_FORMAT`.
#[wasm_bindgen(js_name = "keyfmtJwkThumbprint")]
pub fn jwk_thumbprint(alg: &str, public_key: &[u8]) -> Result<alloc::string::String, JsValue> {
    let pk = PublicKey::new(algorithm(alg)?, public_key).map_err(to_js_error)?;
    pk.jwk_thumbprint().map_err(to_js_error)
}

/// The COSE Key thumbprint (RFC 9679, SHA-256) of a public key.
///
/// # Errors
/// `UNKNOWN_ALGORITHM`, `KEY_LENGTH_MISMATCH`, `UNSUPPORTED_FORMAT`.
#[wasm_bindgen(js_name = "keyfmtCoseThumbprint")]
pub fn cose_thumbprint(alg: &str, public_key: &[u8]) -> Result<Vec<u8>, JsValue> {
    let pk = PublicKey::new(algorithm(alg)?, public_key).map_err(to_js_error)?;
    Ok(pk.cose_thumbprint().map_err(to_js_error)?.to_vec())
}
