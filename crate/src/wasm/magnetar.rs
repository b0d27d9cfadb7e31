//! Magnetar bindings: per-validator SLH-DSA in `MAGS`/`MAGG` envelopes, batch verification
//! with a per-signer bitmap, the `MAGA` aggregate certificate checked against a validator
//! registry held in WASM memory ([`crate::magnetar`] has the trust model and formats).
//!
//! Modes are the envelopes' mode byte (0x01 SHAKE-192s, 0x02 SHAKE-192f, 0x03 SHAKE-256s);
//! any other byte is a `RangeError`, since only the wrappers call this layer.
//!
//! # Lists cross as one framed byte string
//!
//! Several byte strings (a batch, a registry's keys, contributions) cross in one argument:
//! entries of `u32 length ‖ bytes` (big-endian) back to back, built by the JS boundary from
//! checked `Uint8Array`s and decoded completely, with `wire::Reader`, before anything else
//! happens. Validator ids cross as one string of 32-byte ids.
//!
//! # Verdicts
//!
//! What an attacker controls (signatures, envelopes, certificates) never makes these throw:
//! a bad signature is `false` in a bitmap, a bad certificate is `{ ok: false, code, reason }`.
//! They throw only for the caller's own mistakes: a public key that does not decode, a
//! context over 255 bytes, an invalid registry or quorum rule, a malformed frame from the
//! wrapper.
//!
//! The `light` build keeps the verifiers and the registry; key generation, signing and
//! aggregation are in the full build only.

use alloc::vec::Vec;

use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
#[cfg(not(feature = "light"))]
use zeroize::Zeroizing;

use super::{js_u32, null_object, to_js_error};
use crate::magnetar::{
    self, AggregateCertificate, BatchItem, Error, Mode, PublicKey, Registry, Report, Validator, ValidatorId,
};
use crate::quorum::Quorum;
use crate::wire::Reader;

/// The mode of a mode byte, or a `RangeError` (a wrapper bug, not user input).
fn mode(byte: u8) -> Result<Mode, JsValue> {
    Mode::from_byte(byte).ok_or_else(|| {
        js_sys::RangeError::new("unknown Magnetar mode; expected 1 (192s), 2 (192f) or 3 (256s)").into()
    })
}

/// The entries of a framed list (see the module docs), each at most `max` bytes.
fn entries(bytes: &[u8], max: usize) -> Result<Vec<&[u8]>, JsValue> {
    let mut r = Reader::new(bytes);
    let mut out = Vec::new();
    while r.remaining() > 0 {
        out.push(r.bytes(max).map_err(to_js_error)?);
    }
    Ok(out)
}

/// Validator ids from `32·N` bytes.
fn ids(bytes: &[u8]) -> Result<Vec<ValidatorId>, JsValue> {
    if !bytes.len().is_multiple_of(32) {
        return Err(js_sys::RangeError::new("validator ids must be 32 bytes each").into());
    }
    Ok(bytes
        .chunks_exact(32)
        .map(|c| {
            let mut id = [0u8; 32];
            id.copy_from_slice(c);
            ValidatorId(id)
        })
        .collect())
}

/// Sets `key` on a fresh null-prototype object (an own data property; cannot fail).
fn set(o: &Object, key: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(o, &JsValue::from_str(key), &value.into());
}

/// A list of validator ids as fresh `Uint8Array`s.
fn id_list<'a>(list: impl IntoIterator<Item = &'a ValidatorId>) -> Array {
    list.into_iter()
        .map(|id| JsValue::from(Uint8Array::from(&id.0[..])))
        .collect()
}

/// `{ signers, bitmap, signedWeight, claimedWeight, totalWeight, quorumMet, failed }` of a
/// report; weights are `BigInt`s (u64).
fn report_js(o: &Object, r: &Report) {
    set(o, "signers", id_list(&r.signers));
    set(
        o,
        "bitmap",
        r.bitmap.iter().map(|&b| JsValue::from(b)).collect::<Array>(),
    );
    set(o, "signedWeight", r.signed_weight);
    set(o, "claimedWeight", r.claimed_weight);
    set(o, "totalWeight", r.total_weight);
    set(o, "quorumMet", r.quorum_met);
    set(o, "failed", id_list(&r.failed()));
}

/// `ok: false` with the error's `code` and `reason` (and `failed`, the signers whose
/// signatures did not verify, for `INVALID_SIGNATURE`).
fn refusal(o: &Object, e: &Error) {
    set(o, "ok", false);
    set(o, "code", e.code());
    set(o, "reason", alloc::format!("{e}"));
    if let Error::InvalidSignatures { failed } = e {
        set(o, "failed", id_list(failed));
    }
}

/// Whether `e` is the caller's own mistake (it throws) rather than the certificate's.
fn callers_fault(e: &Error) -> bool {
    matches!(
        e,
        Error::SlhDsa(crate::slhdsa::Error::ContextTooLong { .. })
            | Error::Quorum(crate::quorum::Error::InvalidQuorum { .. })
    )
}

/// The quorum rule "more than `numerator / denominator` of the total weight".
fn quorum(numerator: u64, denominator: u64) -> Result<Quorum, JsValue> {
    Quorum::new(numerator, denominator).map_err(to_js_error)
}

/// Generate a validator key of mode `mode`: from `seed` = SK.seed ‖ SK.prf ‖ PK.seed (3n
/// bytes, FIPS 205 Algorithm 18), or with `reference` from the reference's single 4n-byte
/// seed. Returns `[publicKey (MAGG), secretKey (FIPS 205, 4n bytes)]`.
///
/// # Errors
/// `INVALID_LENGTH` for a seed of another size.
///
/// # Security
/// The seed determines the secret key: it must be uniformly random and kept secret.
#[cfg(not(feature = "light"))]
#[wasm_bindgen(js_name = "magnetarKeygen")]
pub fn magnetar_keygen(mode_byte: u8, seed: Vec<u8>, reference: bool) -> Result<Array, JsValue> {
    let mode = mode(mode_byte)?;
    let seed = Zeroizing::new(seed);
    let n = mode.slhdsa().n();
    let key = if reference {
        magnetar::SigningKey::from_seed(mode, &seed)
    } else if seed.len() == 3 * n {
        magnetar::SigningKey::from_seeds(mode, &seed[..n], &seed[n..2 * n], &seed[2 * n..])
    } else {
        Err(Error::SlhDsa(crate::slhdsa::Error::InvalidLength {
            what: "seed",
            expected: 3 * n,
            got: seed.len(),
        }))
    }
    .map_err(to_js_error)?;
    let out = Array::new();
    out.push(&Uint8Array::from(&key.public_key().to_frame()[..]));
    out.push(&Uint8Array::from(&key.to_bytes()[..]));
    Ok(out)
}

/// Sign `msg` under context `ctx` with a validator's secret key (4n bytes) of mode `mode`;
/// `addrnd` is n bytes or `undefined` for the deterministic variant. Returns the `MAGS`
/// envelope.
///
/// # Errors
/// `INVALID_LENGTH` for a secret key or `addrnd` of another size, `CONTEXT_TOO_LONG`.
#[cfg(not(feature = "light"))]
#[wasm_bindgen(js_name = "magnetarSign")]
pub fn magnetar_sign(
    mode_byte: u8,
    sk: Vec<u8>,
    msg: &[u8],
    ctx: &[u8],
    addrnd: Option<Vec<u8>>,
) -> Result<Vec<u8>, JsValue> {
    let mode = mode(mode_byte)?;
    let sk = Zeroizing::new(sk);
    let addrnd = addrnd.map(Zeroizing::new);
    let key = magnetar::SigningKey::from_bytes(mode, &sk).map_err(to_js_error)?;
    match addrnd.as_deref() {
        Some(r) => key.sign(msg, ctx, r),
        None => key.sign_deterministic(msg, ctx),
    }
    .map_err(to_js_error)
}

/// Encode an aggregate certificate (`MAGA`) of mode `mode` from contributions: `ids` (32
/// bytes each) and the framed list of their `MAGS` envelopes, in any order.
///
/// # Errors
/// `NO_SIGNERS`, `COUNT_TOO_LARGE`, an envelope's decoding error, `WRONG_MODE`,
/// `DUPLICATE_SIGNER`.
#[cfg(not(feature = "light"))]
#[wasm_bindgen(js_name = "magnetarAggregate")]
pub fn magnetar_aggregate(mode_byte: u8, ids_bytes: &[u8], signatures: &[u8]) -> Result<Vec<u8>, JsValue> {
    let mode = mode(mode_byte)?;
    let ids = ids(ids_bytes)?;
    let sigs = entries(signatures, usize::MAX)?;
    if ids.len() != sigs.len() {
        return Err(js_sys::RangeError::new("as many ids as signatures are needed").into());
    }
    let contributions: Vec<(ValidatorId, &[u8])> = ids.into_iter().zip(sigs).collect();
    AggregateCertificate::encode(mode, &contributions).map_err(to_js_error)
}

/// Verify the `MAGS` envelope `signature` on `msg` under context `ctx` and the `MAGG`
/// envelope `public_key`: `false` for a signature that does not decode, is of another mode
/// than the key, or does not verify.
///
/// # Errors
/// The key envelope's decoding errors (`TOO_SHORT`, `BAD_MAGIC`, …: the key is the caller's),
/// `CONTEXT_TOO_LONG`.
#[wasm_bindgen(js_name = "magnetarVerify")]
pub fn magnetar_verify(public_key: &[u8], msg: &[u8], ctx: &[u8], signature: &[u8]) -> Result<bool, JsValue> {
    let key = PublicKey::from_frame(public_key).map_err(to_js_error)?;
    if ctx.len() > 255 {
        return Err(to_js_error(crate::slhdsa::Error::ContextTooLong {
            len: ctx.len(),
        }));
    }
    Ok(key.verify(msg, ctx, signature).is_ok())
}

/// Verify many (key, message, signature) triples under one context: `keys`, `messages`
/// and `signatures` are framed lists of equal length (`MAGG` envelopes, messages, `MAGS`
/// envelopes). Returns the bitmap, one byte (0 or 1) per item.
///
/// # Errors
/// `INVALID_VALUE`-like `RangeError` for lists of different lengths; a key envelope's
/// decoding error; `CONTEXT_TOO_LONG`.
#[wasm_bindgen(js_name = "magnetarVerifyBatch")]
pub fn magnetar_verify_batch(
    keys: &[u8],
    messages: &[u8],
    signatures: &[u8],
    ctx: &[u8],
) -> Result<Vec<u8>, JsValue> {
    let keys = entries(keys, usize::MAX)?
        .into_iter()
        .map(PublicKey::from_frame)
        .collect::<Result<Vec<_>, _>>()
        .map_err(to_js_error)?;
    let messages = entries(messages, usize::MAX)?;
    let signatures = entries(signatures, usize::MAX)?;
    if keys.len() != messages.len() || keys.len() != signatures.len() {
        return Err(js_sys::RangeError::new("as many keys, messages and signatures are needed").into());
    }
    let items: Vec<BatchItem<'_>> = keys
        .iter()
        .zip(messages)
        .zip(signatures)
        .map(|((key, message), signature)| BatchItem {
            key,
            message,
            signature,
        })
        .collect();
    let bitmap = magnetar::verify_batch(&items, ctx).map_err(to_js_error)?;
    Ok(bitmap.into_iter().map(u8::from).collect())
}

/// A validator registry (ids, `MAGG` keys, weights) decoded once and held in WASM memory,
/// for verifying contributions and aggregate certificates. Holds only public data; call
/// `free()` when done.
#[wasm_bindgen(js_name = "MagnetarRegistryWasm")]
pub struct RegistryWasm(Registry);

#[wasm_bindgen(js_class = "MagnetarRegistryWasm")]
impl RegistryWasm {
    /// The registry of mode `mode`: validator `i` has id `ids[32i..32i+32]`, the `MAGG`
    /// key at entry i of the framed list `keys`, and weight `weights[i]`.
    ///
    /// # Errors
    /// A key envelope's decoding error, `WRONG_MODE`, `DUPLICATE_VALIDATOR`, `DUPLICATE_KEY`,
    /// `TOO_MANY_KEYS`, `WEIGHT_OVERFLOW`, `ZERO_TOTAL_WEIGHT`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        mode_byte: u8,
        ids_bytes: &[u8],
        keys: &[u8],
        weights: Vec<u64>,
    ) -> Result<RegistryWasm, JsValue> {
        let mode = mode(mode_byte)?;
        let ids = ids(ids_bytes)?;
        let keys = entries(keys, usize::MAX)?;
        if ids.len() != keys.len() || ids.len() != weights.len() {
            return Err(js_sys::RangeError::new("as many ids, keys and weights are needed").into());
        }
        let mut validators = Vec::with_capacity(ids.len().min(magnetar::MAX_VALIDATORS));
        for ((id, key), weight) in ids.into_iter().zip(keys).zip(weights) {
            let key = PublicKey::from_frame(key).map_err(to_js_error)?;
            validators.push(Validator { id, key, weight });
        }
        Registry::new(mode, validators)
            .map(RegistryWasm)
            .map_err(to_js_error)
    }

    /// The mode byte.
    pub fn mode(&self) -> u8 {
        self.0.mode().to_byte()
    }

    /// How many validators.
    pub fn size(&self) -> u32 {
        // At most MAX_VALIDATORS (1024).
        js_u32(self.0.len())
    }

    /// The sum of all weights.
    #[wasm_bindgen(js_name = "totalWeight")]
    pub fn total_weight(&self) -> u64 {
        self.0.total_weight()
    }

    /// The validators, ascending by id: `[{ id, publicKey (MAGG), weight }]`.
    pub fn validators(&self) -> Array {
        self.0
            .validators()
            .iter()
            .map(|v| {
                let o = null_object();
                set(&o, "id", Uint8Array::from(&v.id.0[..]));
                set(&o, "publicKey", Uint8Array::from(&v.key.to_frame()[..]));
                set(&o, "weight", v.weight);
                JsValue::from(o)
            })
            .collect()
    }

    /// Verify contributions on one message: `ids` (32 bytes each) and the framed list of
    /// their `MAGS` envelopes. Returns the bitmap, one byte per contribution: 0 for an
    /// unregistered id, an envelope that does not decode or is of another mode, or a
    /// signature that does not verify under the registered key.
    ///
    /// # Errors
    /// `CONTEXT_TOO_LONG`; a `RangeError` for lists of different lengths.
    #[wasm_bindgen(js_name = "verifyBatch")]
    pub fn verify_batch(
        &self,
        ids_bytes: &[u8],
        signatures: &[u8],
        msg: &[u8],
        ctx: &[u8],
    ) -> Result<Vec<u8>, JsValue> {
        let ids = ids(ids_bytes)?;
        let signatures = entries(signatures, usize::MAX)?;
        if ids.len() != signatures.len() {
            return Err(js_sys::RangeError::new("as many ids as signatures are needed").into());
        }
        let mut slots = Vec::with_capacity(ids.len());
        let mut items = Vec::with_capacity(ids.len());
        for (i, (id, signature)) in ids.iter().zip(signatures).enumerate() {
            if let Some(v) = self.0.get(id) {
                slots.push(i);
                items.push(BatchItem {
                    key: &v.key,
                    message: msg,
                    signature,
                });
            }
        }
        let mut bitmap = alloc::vec![0u8; ids.len()];
        for (ok, i) in magnetar::verify_batch(&items, ctx)
            .map_err(to_js_error)?
            .into_iter()
            .zip(slots)
        {
            bitmap[i] = u8::from(ok);
        }
        Ok(bitmap)
    }

    /// The light client's verdict on the aggregate certificate `cert` for `msg` under `ctx`
    /// and the rule "more than `numerator / denominator` of the weight"
    /// ([`AggregateCertificate::verify`]): `{ ok: true, signers, bitmap, signedWeight,
    /// claimedWeight, totalWeight, quorumMet, failed }` or `{ ok: false, code, reason,
    /// failed? }`. With `diagnose` every signature is checked and reported whatever the
    /// verdict ([`AggregateCertificate::check`]), so a refusal carries the report too.
    ///
    /// # Errors
    /// Only the caller's mistakes: `CONTEXT_TOO_LONG`, `INVALID_QUORUM`.
    #[wasm_bindgen(js_name = "verifyAggregate")]
    pub fn verify_aggregate(
        &self,
        cert: &[u8],
        msg: &[u8],
        ctx: &[u8],
        numerator: u64,
        denominator: u64,
        diagnose: bool,
    ) -> Result<JsValue, JsValue> {
        let q = quorum(numerator, denominator)?;
        if ctx.len() > 255 {
            return Err(to_js_error(crate::slhdsa::Error::ContextTooLong {
                len: ctx.len(),
            }));
        }
        let o = null_object();
        let decoded = AggregateCertificate::decode(cert);
        let cert_mode = decoded.as_ref().ok().map(AggregateCertificate::mode);
        let result = decoded.and_then(|c| {
            if diagnose {
                c.check(&self.0, msg, ctx, q)
            } else {
                c.verify(&self.0, msg, ctx, q)
            }
        });
        match result {
            Ok(report) => {
                match report.verdict() {
                    Ok(()) => set(&o, "ok", true),
                    Err(e) => refusal(&o, &e),
                }
                report_js(&o, &report);
            }
            Err(e) if callers_fault(&e) => return Err(to_js_error(e)),
            Err(e) => refusal(&o, &e),
        }
        if let Some(m) = cert_mode {
            set(&o, "mode", m.to_byte());
        }
        Ok(o.into())
    }
}
