//! Finality-certificate bindings (both builds): the stateless `certVerify` and the light
//! client class `CertLightClientWasm` ([`crate::cert`] has the formats, the verification
//! order and the trust model).
//!
//! # Verdicts, not exceptions
//!
//! What an attacker controls — the certificate, and the next validator set a certificate
//! commits to — never makes these throw: a bad one is a report `{ ok: false, code, reason,
//! legs }`. They throw only for the caller's own mistakes: a policy name that names no policy
//! (`UNKNOWN_POLICY`), and a *trusted* validator set (the one the caller vouches for) that
//! does not decode or whose keys do not validate.
//!
//! # Reports
//!
//! `{ ok, code?, reason?, id?, policy, totalWeight, header?, legs: [{ kind, required, present,
//! verdict, ok, code?, reason?, signers?, weight?, micros? }], micros? }`, in the order of
//! [`crate::cert::Report::legs`]; `id` (32 bytes, only when `ok`) is
//! [`crate::cert::Report::id`]; weights and the header's integers are `BigInt`s (u64).
//! `micros` (the leg's signature check, in microseconds) is there only when a clock was
//! given: `certVerify` times with `performance.now()` as it was when the generated glue loaded
//! (scripts/harden-glue.mjs captures it then, so a `now` replaced later is never called); the
//! light client never calls into JavaScript while it is borrowed, so its reports carry no
//! timings.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;

use super::{js_number, js_u32, null_object, to_js_error};
use crate::cert::{verify, Error, Header, LightClient, Options, Policy, Report, TrustedSet};

#[wasm_bindgen]
extern "C" {
    /// `performance.now()` as the glue captured it when it loaded, caught and returned as
    /// it came: a failure (no `performance`, a `now` that throws) is an `Err`, and a value
    /// that is not a number (a BigInt, a string) is checked here, so nothing a replaced clock
    /// does can throw through Rust frames (where it would skip every destructor).
    #[wasm_bindgen(catch, js_namespace = performance, js_name = now)]
    fn performance_now() -> Result<JsValue, JsValue>;
}

/// A monotonic clock in nanoseconds from `performance.now()` (0 when it fails or is not a
/// number).
// The float-to-integer `as` saturates, which is the intent here; no `From` exists.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn clock_ns() -> u64 {
    match performance_now().ok().and_then(|v| v.as_f64()) {
        // Non-negative and far below 2^64 ns for any real page; `as` saturates otherwise.
        Some(ms) if ms.is_finite() && ms >= 0.0 => (ms * 1_000_000.0) as u64,
        _ => 0,
    }
}

/// Sets `key` on a fresh null-prototype object (an own data property; cannot fail).
fn set(o: &Object, key: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(o, &JsValue::from_str(key), &value.into());
}

/// The policy named `name`, or `UNKNOWN_POLICY` (a caller's mistake: it throws).
fn policy(name: &str) -> Result<Policy, JsValue> {
    Policy::from_name(name).map_err(to_js_error)
}

/// `code` and `reason` of an error on `o`.
fn reason(o: &Object, e: &Error) {
    set(o, "code", e.code());
    set(o, "reason", format!("{e}"));
}

/// The header as `{ chainId, epoch, height, round, blockHash, setRoot, nextSetRoot?, keyEra,
/// message }`.
fn header_js(h: &Header) -> Object {
    let o = null_object();
    set(&o, "chainId", h.chain_id);
    set(&o, "epoch", h.epoch);
    set(&o, "height", h.height);
    set(&o, "round", h.round);
    set(&o, "blockHash", Uint8Array::from(&h.block_hash[..]));
    set(&o, "setRoot", Uint8Array::from(&h.set_root[..]));
    if let Some(r) = &h.next_set_root {
        set(&o, "nextSetRoot", Uint8Array::from(&r[..]));
    }
    set(&o, "keyEra", h.key_era);
    set(&o, "message", Uint8Array::from(&h.message()[..]));
    o
}

/// A report as a plain object (see the module docs).
fn report_js(r: &Report) -> Object {
    let o = null_object();
    set(&o, "ok", r.is_valid());
    if let Some(e) = r.error() {
        reason(&o, e);
    }
    if let Some(id) = r.id() {
        set(&o, "id", Uint8Array::from(&id[..]));
    }
    set(&o, "policy", r.policy().name());
    set(&o, "totalWeight", r.total_weight());
    if let Some(h) = r.header() {
        set(&o, "header", header_js(h));
    }
    let legs = Array::new();
    for leg in r.legs() {
        let l = null_object();
        set(&l, "kind", leg.kind.name());
        set(&l, "required", leg.required);
        set(&l, "present", leg.present);
        set(&l, "verdict", leg.verdict.name());
        set(&l, "ok", leg.verdict == crate::cert::Verdict::Valid);
        if let Some(e) = &leg.reason {
            reason(&l, e);
        }
        if let Some(s) = leg.signers {
            set(&l, "signers", js_u32(s));
        }
        if let Some(w) = leg.weight {
            set(&l, "weight", w);
        }
        if let Some(t) = leg.time_ns {
            set(&l, "micros", js_number(t) / 1000.0);
        }
        legs.push(&l);
    }
    set(&o, "legs", legs);
    if let Some(t) = r.time_ns() {
        set(&o, "micros", js_number(t) / 1000.0);
    }
    o
}

/// Verify the certificate `cert` (`QCRT`) against the validator set `set` (`QVST`, trusted
/// by the caller) under the policy named `policy_name`; with `full` every required leg is
/// checked even after a failure. Returns the report (see the module docs).
///
/// # Errors
/// Only the caller's mistakes: `UNKNOWN_POLICY`; the set's decoding or key-validation error.
#[wasm_bindgen(js_name = "certVerify")]
pub fn cert_verify(cert: &[u8], set_bytes: &[u8], policy_name: &str, full: bool) -> Result<JsValue, JsValue> {
    let policy = policy(policy_name)?;
    let trusted = TrustedSet::from_bytes(set_bytes).map_err(to_js_error)?;
    let options = Options {
        full,
        clock: Some(clock_ns),
    };
    Ok(report_js(&verify(cert, &trusted, &policy, &options)).into())
}

/// The longest certificate the validator set `set` (`QVST`) admits
/// ([`crate::cert::max_certificate_len`]): `certVerify` refuses longer ones, so JavaScript
/// refuses them without copying them into WASM memory.
///
/// # Errors
/// The set's decoding error (it is the caller's trusted set).
#[wasm_bindgen(js_name = "certMaxLength")]
pub fn cert_max_length(set_bytes: &[u8]) -> Result<usize, JsValue> {
    let view = crate::cert::ValidatorSetView::parse(set_bytes).map_err(to_js_error)?;
    Ok(crate::cert::max_certificate_len(view.len()))
}

/// The longest validator set (`QVST`) any certificate API accepts
/// ([`crate::cert::MAX_SET_LEN`]).
#[wasm_bindgen(js_name = "certMaxSetLength")]
pub fn cert_max_set_length() -> usize {
    crate::cert::MAX_SET_LEN
}

/// The named policies, mildest first, each with the legs it requires, as one line per
/// policy: `name:leg,leg` (Rust's [`Policy::ALL`] table; JavaScript keeps no copy of it).
#[wasm_bindgen(js_name = "certPolicyTable")]
pub fn cert_policy_table() -> String {
    let mut out = String::new();
    for p in Policy::ALL {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(p.name());
        out.push(':');
        for (i, leg) in p.legs().iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(leg.name());
        }
    }
    out
}

/// A light client in WASM memory ([`crate::cert::LightClient`]): trusts one validator set and
/// follows certificates and epoch changes under one policy. Holds only public data; call
/// `free()` when done.
#[wasm_bindgen(js_name = "CertLightClientWasm")]
pub struct LightClientWasm(LightClient);

#[wasm_bindgen(js_class = "CertLightClientWasm")]
impl LightClientWasm {
    /// A client trusting the set `set` (`QVST`) under the policy named `policy_name` (with
    /// `full`, its reports check every required leg).
    ///
    /// # Errors
    /// `UNKNOWN_POLICY`; the set's decoding or key-validation error (the caller vouches for
    /// this set: a bad one is the caller's mistake).
    #[wasm_bindgen(constructor)]
    pub fn new(set_bytes: &[u8], policy_name: &str, full: bool) -> Result<LightClientWasm, JsValue> {
        let policy = policy(policy_name)?;
        let set = crate::cert::ValidatorSet::from_bytes(set_bytes).map_err(to_js_error)?;
        let client = LightClient::new(set, policy).map_err(to_js_error)?;
        Ok(LightClientWasm(
            client.with_options(Options { full, clock: None }),
        ))
    }

    /// Verify the certificate `cert` against the current set, changing nothing: the report
    /// (no leg timings here: the client is borrowed, so no call leaves WASM).
    pub fn verify(&self, cert: &[u8]) -> JsValue {
        report_js(&self.0.verify(cert)).into()
    }

    /// Follow the certificate `cert`, with `next_set` (`QVST`) on an epoch's last block. Returns
    /// `{ accepted, code?, reason?, epoch, newEpoch?, header?, report? }`: `report` is the
    /// verification report whenever verification ran; nothing changes on a refusal.
    pub fn update(&mut self, cert: &[u8], next_set: Option<Vec<u8>>) -> JsValue {
        let o = null_object();
        match self.0.update(cert, next_set.as_deref()) {
            Ok(a) => {
                set(&o, "accepted", true);
                set(&o, "header", header_js(&a.header));
                set(&o, "report", report_js(&a.report));
                if let Some(e) = a.new_epoch {
                    set(&o, "newEpoch", e);
                }
            }
            Err(refused) => {
                set(&o, "accepted", false);
                reason(&o, &refused.error);
                if let Some(r) = &refused.report {
                    set(&o, "report", report_js(r));
                }
            }
        }
        set(&o, "epoch", self.0.epoch());
        o.into()
    }

    /// The current epoch.
    pub fn epoch(&self) -> u64 {
        self.0.epoch()
    }

    /// The last finalized height (`undefined` before the first accepted certificate).
    pub fn height(&self) -> Option<u64> {
        self.0.latest().map(|h| h.height)
    }

    /// The current set's root (32 bytes).
    pub fn root(&self) -> Vec<u8> {
        self.0.root().to_vec()
    }

    /// The current set's total weight.
    #[wasm_bindgen(js_name = "totalWeight")]
    pub fn total_weight(&self) -> u64 {
        self.0.total_weight()
    }

    /// The current set's key era.
    #[wasm_bindgen(js_name = "keyEra")]
    pub fn key_era(&self) -> u64 {
        self.0.trusted().set().key_era()
    }

    /// The longest certificate the current set admits.
    #[wasm_bindgen(js_name = "maxCertificateLength")]
    pub fn max_certificate_length(&self) -> usize {
        self.0.max_certificate_len()
    }

    /// The current set's size.
    pub fn validators(&self) -> usize {
        self.0.trusted().set().len()
    }

    /// The policy's name.
    pub fn policy(&self) -> String {
        self.0.policy().name().into()
    }
}
