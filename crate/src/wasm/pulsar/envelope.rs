//! The direct-message envelope for JavaScript hosts that carry secrets over a network
//! (`pulsar::custody::envelope::seal_message` / `open_message`): ML-KEM-768 +
//! XChaCha20-Poly1305 bound to associated data the transport chooses (run, round, sender,
//! recipient), so a message stays confidential against a recorder with a future quantum
//! computer whatever channel carries it.
//!
//! ```text
//! recipient: { encapsulationKey, key } = pulsarEnvelopeKeygen(id, rng)
//!            its PCEK encapsulation key is published (a roster), its key kept secret
//! sender:    sealed = pulsarSealMessage(recipientKey, aad, bytes, rng)
//! recipient: bytes  = pulsarOpenMessage(secretKey, aad, sealed)   // throws ENVELOPE_NOT_OPENED
//! ```

use alloc::vec::Vec;

use wasm_bindgen::prelude::*;

use super::super::js::{party_id, Obj};
use super::super::rng::RngWasm;
use super::super::to_js_error;
use crate::pulsar::custody::envelope::{open_message, seal_message};
use crate::pulsar::custody::{CombinerKey, CombinerPublicKey};

/// A fresh ML-KEM-768 key pair for member `id`: `{ encapsulationKey (PCEK, public), key
/// (secret: the decapsulation key's bytes, as a `quasar node keys` key file holds them) }`.
///
/// # Errors
/// `RangeError` for an id of 0.
#[wasm_bindgen(js_name = "pulsarEnvelopeKeygen")]
pub fn pulsar_envelope_keygen(id: u16, rng: &mut RngWasm) -> Result<JsValue, JsValue> {
    let key = CombinerKey::generate(party_id(id)?, rng.get());
    let o = Obj::new();
    o.bytes("encapsulationKey", &key.public_key().to_bytes())
        .bytes("key", &key.to_bytes());
    Ok(o.into_js())
}

/// Seals `message` for the holder of the ML-KEM-768 encapsulation key `recipient` (`PCEK`
/// bytes), bound to `aad`.
///
/// # Errors
/// Decoding errors for a malformed `recipient`.
#[wasm_bindgen(js_name = "pulsarSealMessage")]
pub fn pulsar_seal_message(
    recipient: &[u8],
    aad: &[u8],
    message: &[u8],
    rng: &mut RngWasm,
) -> Result<Vec<u8>, JsValue> {
    let to = CombinerPublicKey::from_bytes(recipient).map_err(to_js_error)?;
    Ok(seal_message(&to, aad, message, rng.get()))
}

/// Opens what [`pulsar_seal_message`] sealed, with the secret key (`CombinerKey` bytes, as a
/// `quasar node keys` key file holds it) and the same `aad`.
///
/// # Errors
/// `ENVELOPE_NOT_OPENED` when the envelope is short, altered, or sealed for another key or
/// other associated data; decoding errors for a malformed `key`.
#[wasm_bindgen(js_name = "pulsarOpenMessage")]
pub fn pulsar_open_message(key: &[u8], aad: &[u8], sealed: &[u8]) -> Result<Vec<u8>, JsValue> {
    let key = CombinerKey::from_bytes(key).map_err(to_js_error)?;
    open_message(&key, aad, sealed)
        .map(|b| b.to_vec())
        .ok_or_else(|| to_js_error(crate::pulsar::Error::EnvelopeNotOpened))
}
