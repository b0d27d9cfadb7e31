//! The test chain (full build only): `testChain` routes a [`ChainSpec`] to
//! [`crate::cert::devnet::chain`] and its sets and certificates back as bytes. Nothing here
//! signs or decides: the devnet's validators and its Pulsar group do.
//!
//! Returns `{ sets: [QVST…], blocks: [{ certificate, nextSet? }…] }`, null-prototype objects
//! and arrays of fresh `Uint8Array`s; a block has `nextSet` (the same bytes as the next entry
//! of `sets`) exactly when it ends its epoch.

use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;

use super::{null_object, to_js_error};
use crate::cert::devnet::{chain, ChainSpec, PulsarSigning};
use crate::cert::Policy;
use crate::{magnetar, mldsa, wire};

/// Sets `key` on a fresh null-prototype object (an own data property; cannot fail).
fn set(o: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(o, &JsValue::from_str(key), value);
}

/// A caller's value that names nothing (`INVALID_VALUE`).
fn invalid(what: &'static str) -> JsValue {
    to_js_error(crate::Error::Wire(wire::Error::InvalidValue(what)))
}

/// The chain of `validators` validators over `epochs` epochs of `blocks` blocks, on chain
/// `chain_id`, from the 32-byte `seed`, meeting the policy named `policy_name`, with ML-DSA
/// level `level` (44, 65, 87: the Pulsar group and the ML-DSA-set leg) and the Magnetar mode
/// byte `magnetar_mode`, the Pulsar leg signed by `pulsar_signing` (`custody` or `committee`;
/// see the module docs).
///
/// # Errors
/// `LENGTH_MISMATCH` for a seed that is not 32 bytes, `UNKNOWN_POLICY`, `INVALID_VALUE` for
/// an unknown level, mode or Pulsar signing or a count of zero, `COUNT_TOO_LARGE` for a count over its bound
/// ([`crate::cert::devnet::MAX_CHAIN_VALIDATORS`] and the others).
// A flat binding: one argument per field of the spec, each routed unchanged.
#[allow(clippy::too_many_arguments)]
#[wasm_bindgen(js_name = "testChain")]
pub fn test_chain(
    seed: &[u8],
    chain_id: u64,
    validators: u32,
    policy_name: &str,
    epochs: u32,
    blocks: u32,
    level: u32,
    magnetar_mode: u8,
    pulsar_signing: &str,
) -> Result<JsValue, JsValue> {
    let seed: [u8; 32] = seed.try_into().map_err(|_| {
        to_js_error(wire::Error::LengthMismatch {
            expected: 32,
            got: seed.len(),
        })
    })?;
    let count = |n: u32| usize::try_from(n).unwrap_or(usize::MAX);
    let spec = ChainSpec {
        chain_id,
        seed,
        validators: count(validators),
        policy: Policy::from_name(policy_name).map_err(to_js_error)?,
        epochs: count(epochs),
        blocks: count(blocks),
        mldsa: u16::try_from(level)
            .ok()
            .and_then(mldsa::Mode::from_level)
            .ok_or_else(|| invalid("ML-DSA level (44, 65 or 87)"))?,
        magnetar: magnetar::Mode::from_byte(magnetar_mode).ok_or_else(|| invalid("Magnetar mode"))?,
        pulsar_signing: PulsarSigning::from_name(pulsar_signing)
            .ok_or_else(|| invalid("Pulsar signing (custody or committee)"))?,
    };
    let made = chain(&spec).map_err(to_js_error)?;
    let sets = Array::new();
    for s in &made.sets {
        sets.push(&Uint8Array::from(s.as_bytes()));
    }
    let list = Array::new();
    for b in &made.blocks {
        let o = null_object();
        set(&o, "certificate", &Uint8Array::from(&b.certificate[..]));
        if let Some(next) = &b.next_set {
            set(&o, "nextSet", &Uint8Array::from(next.as_bytes()));
        }
        list.push(&o);
    }
    let out = null_object();
    set(&out, "sets", &sets);
    set(&out, "blocks", &list);
    Ok(out.into())
}
