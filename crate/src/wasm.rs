//! The generated JavaScript layer: flat `wasm-bindgen` functions over byte slices, and one
//! generic protocol-party class.
//!
//! This module is compiled only for `wasm32`. It is not the public JS API: the hand-written
//! wrappers in `js/` validate every argument at one boundary (`js/common.js`, `bytes()`),
//! pick the randomness and call these functions. Every function takes bytes and returns
//! fresh bytes (`Vec<u8>` becomes a new `Uint8Array`, never a view into WASM memory).
//!
//! Errors from the library reach JS as real `Error`s with `name = 'QuasarError'`, a stable
//! `code` (from [`crate::Error::code`]), the `module` that raised it and `culprits` (the
//! parties [`crate::Error::culprits`] blames; always empty for ML-DSA), each an own
//! property. Every object returned (verdicts, reports, step results) has no prototype
//! ([`null_object`]): a realm whose `Object.prototype` was given an `ok`, a `code` or an
//! `outcome` cannot add to, hide or replace what this layer says. No error message repeats
//! more than [`ECHO_CHARS`] characters of a caller's string ([`echo`]).
//!
//! - [`mldsa`]: ML-DSA keygen, sign, verify (both builds; the `light` build, for light
//!   clients, keeps only verification).
//! - [`slhdsa`]: SLH-DSA (the six SHAKE sets) keygen, sign, verify, the same way.
//! - [`magnetar`]: Magnetar envelopes, batch verification and aggregate certificates
//!   against a registry held in WASM memory (both builds; keygen, signing and aggregation
//!   in the full build only).
//! - [`cert`]: finality certificates (`certVerify`) and the light client that follows them
//!   (both builds: they only verify).
//! - [`devnet`]: `testChain`, a deterministic chain of validator sets and certificates
//!   across epoch changes, from a seed (full build only), for tests and examples.
//! - [`bls`]: the BLS12-381 byte API (keygen, sign, proofs of possession, aggregation,
//!   verification), in the full build only, for cross-checks against other implementations.
//! - [`keyfmt`]: public and private keys as SubjectPublicKeyInfo, PKCS #8 (DER, PEM), JWK
//!   and COSE_Key, and their thumbprints (full build only).
//! - The full build binds the threshold protocols. Every protocol party is the library's
//!   own [`crate::party::Party`], held by one class, `PartyWasm` ([`party`]); factory
//!   functions per protocol start one ([`lens`], [`pulsar`], [`corona`]); key shares stay in
//!   WASM memory in holder classes (`LensKeyShareWasm`, `PulsarKeyShareWasm`, `LssShareWasm`,
//!   `CoronaShareWasm`) and are passed to factories by reference, never as raw secret
//!   bytes. Every factory draws from a party's generator, `RngWasm` ([`rng`]), which a
//!   party may keep across the protocols it starts. Nothing here implements a round.
//!
//! # No call back into JS while an object is borrowed
//!
//! A party's `step` takes its whole inbox as **one** framed byte string (see
//! [`party`]), built by the JS boundary from checked `Uint8Array`s, so the generated glue
//! copies it into WASM memory before the method borrows the party, and the Rust side
//! decodes it completely before touching the party. A bad inbox fails the call with a
//! typed error and leaves the party exactly as it was (and freeable).
//!
//! # Misbehaviour (feature `hazmat`)
//!
//! The full WASM build enables `hazmat` for the demo's cheating-party toggle: a factory's
//! `cheat` argument (`"bad-shares"`, `"misaddress"`, `"bad-contribution"`, `"garbage"`,
//! [`crate::party::hazmat::Cheat`]) makes **that one party** send wrong messages. It never
//! weakens an honest party: every other party checks and blames exactly as it would facing
//! a real attacker. The light build has no protocols and no hooks.

use alloc::vec::Vec;

use alloc::string::String;

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;

// `unreachable_pub` is allowed in the modules that export to JS: `#[wasm_bindgen]` takes
// only `pub` functions (its macro refuses `pub(crate)`), and their API is the JS glue, not a
// Rust path. Helpers there are `pub(super)` or `pub(crate)`.
//
// Each export family is a feature (`wasm-mldsa`, …, `wasm-corona`; Cargo.toml): a module holds
// the families it was built with, and only what they reach is linked.
#[cfg(all(feature = "wasm-bls", not(feature = "light")))]
#[allow(unreachable_pub)]
mod bls;
#[cfg(feature = "wasm-cert")]
#[allow(unreachable_pub)]
mod cert;
#[cfg(all(feature = "wasm-devnet", not(feature = "light")))]
#[allow(unreachable_pub)]
mod devnet;
#[cfg(all(feature = "wasm-keyfmt", not(feature = "light")))]
#[allow(unreachable_pub)]
mod keyfmt;
#[cfg(feature = "wasm-magnetar")]
#[allow(unreachable_pub)]
mod magnetar;
#[cfg(feature = "wasm-mldsa-verify")]
#[allow(unreachable_pub)]
mod mldsa;
#[cfg(feature = "wasm-slhdsa")]
#[allow(unreachable_pub)]
mod slhdsa;

// Threshold protocols (never in a `light` module), and what their parties share: the party
// class, the generator, the argument and result helpers, the keyrings. A module with one
// family leaves some of the shared helpers unused.
#[cfg(all(feature = "wasm-committee", not(feature = "light")))]
#[allow(unreachable_pub)]
mod committee;
#[cfg(all(feature = "wasm-corona", not(feature = "light")))]
#[allow(unreachable_pub)]
mod corona;
#[cfg(all(feature = "wasm-parties", not(feature = "light")))]
#[cfg_attr(not(feature = "full"), allow(dead_code))]
mod js;
#[cfg(all(any(feature = "wasm-lens", feature = "wasm-pulsar"), not(feature = "light")))]
#[cfg_attr(not(all(feature = "wasm-lens", feature = "wasm-pulsar")), allow(dead_code))]
mod keyring;
#[cfg(all(feature = "wasm-lens", not(feature = "light")))]
#[allow(unreachable_pub)]
mod lens;
#[cfg(all(feature = "wasm-parties", not(feature = "light")))]
#[cfg_attr(not(feature = "full"), allow(dead_code))]
mod party;
#[cfg(all(feature = "wasm-pulsar", not(feature = "light")))]
#[allow(unreachable_pub)]
mod pulsar;
#[cfg(all(feature = "wasm-parties", not(feature = "light")))]
mod rng;

// The verify modules' allocator, by measurement (see its docs): dlmalloc is a third of the
// ML-DSA verifier.
#[cfg(feature = "wasm-small-heap")]
#[allow(unsafe_code)]
mod heap;
#[cfg(feature = "wasm-small-heap")]
#[global_allocator]
static HEAP: heap::SizeClasses = heap::SizeClasses::new();

/// A fresh JS object with no prototype: every object this layer returns is one (verdicts,
/// reports, step results, outgoing messages, public data). Setting a key on it creates an own
/// data property whatever `Object.prototype` holds (a setter there never runs, a getter there
/// never hides a value), and reading a key it lacks gives `undefined`, never an inherited value.
#[cfg_attr(not(feature = "full"), allow(dead_code))] // a module of fewer families may not need it
pub(crate) fn null_object() -> Object {
    Object::create(JsValue::NULL.unchecked_ref())
}

/// Defines `key` on `target` as an own, enumerable, writable data property (for objects that
/// have a prototype, such as an `Error`). `Reflect.set` in the hardened glue
/// (scripts/harden-glue.mjs) defines an own data property, so an inherited setter never runs.
pub(crate) fn define(target: &JsValue, key: &str, value: &JsValue) {
    // Defining a key of a fresh, extensible object cannot fail.
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}

/// `n` as a JS number: exact up to 2^53, which every generation, count and duration this
/// layer reports stays far below.
// A JS number is an `f64`: above 2^53 the nearest one is what JS itself would hold.
#[allow(clippy::cast_precision_loss)]
#[cfg_attr(not(feature = "full"), allow(dead_code))] // a module of fewer families may not need it
pub(crate) fn js_number(n: u64) -> f64 {
    n as f64
}

/// A length or count as a JS `u32` (saturating: every length this layer reports is far
/// below 2^32).
#[cfg_attr(not(feature = "full"), allow(dead_code))] // a module of fewer families may not need it
pub(crate) fn js_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The ML-DSA parameter set of a level number (44, 65 or 87), or a `RangeError`: how the
/// Pulsar custody and committee calls name their set.
#[cfg(all(
    any(feature = "wasm-pulsar", feature = "wasm-committee"),
    not(feature = "light")
))]
pub(crate) fn mldsa_mode(level: u16) -> Result<crate::mldsa::Mode, JsValue> {
    crate::mldsa::Mode::from_level(level).ok_or_else(|| js::range_error("ML-DSA level must be 44, 65 or 87"))
}

/// How many characters of a caller's string an error message repeats at most.
#[cfg_attr(not(feature = "full"), allow(dead_code))] // a module of fewer families may not need it
pub(crate) const ECHO_CHARS: usize = 64;

/// A caller's string as an error message shows it: quoted, cut after [`ECHO_CHARS`]
/// characters with an ellipsis and its length, so a 64 MiB argument is not copied into the
/// message.
#[cfg_attr(not(feature = "full"), allow(dead_code))] // a module of fewer families may not need it
pub(crate) fn echo(s: &str) -> String {
    let count = s.chars().count();
    if count <= ECHO_CHARS {
        alloc::format!("{s:?}")
    } else {
        let cut: String = s.chars().take(ECHO_CHARS).collect();
        alloc::format!("{cut:?}… ({count} characters)")
    }
}

/// A JS `Error` with `name = 'QuasarError'`, `code`, `module` and `culprits` (party ids), each
/// an own property (defined, so no accessor on `Object.prototype` replaces or sees it).
pub(crate) fn js_error(message: &str, code: &str, module: &str, culprits: &[u16]) -> JsValue {
    let js = js_sys::Error::new(message);
    js.set_name("QuasarError");
    let obj: &JsValue = js.as_ref();
    let list = Array::new();
    for &p in culprits {
        list.push(&JsValue::from(p));
    }
    define(obj, "code", &JsValue::from_str(code));
    define(obj, "module", &JsValue::from_str(module));
    define(obj, "culprits", &list);
    js.into()
}

/// One scheme's error as [`to_js_error`] throws it once converted into [`crate::Error`]
/// (`"{prefix}: {err}"`, its code and module, nobody blamed), without converting: the
/// crate-wide error's `Display` reaches every module's messages, which a one-family module
/// (the ML-DSA or SLH-DSA verifier) must not link. `error.rs`'s tests keep the prefixes equal.
#[cfg(any(feature = "wasm-mldsa-verify", feature = "wasm-slhdsa"))]
pub(crate) fn scheme_error(prefix: &str, err: &impl core::fmt::Display, code: &str, module: &str) -> JsValue {
    js_error(&alloc::format!("{prefix}: {err}"), code, module, &[])
}

/// Turn a library error into a JS `Error` with `name`, `code`, `module` and `culprits`
/// (the parties [`crate::Error::culprits`] blames, increasing).
#[cfg_attr(not(feature = "full"), allow(dead_code))] // a module of fewer families may not need it
pub(crate) fn to_js_error(err: impl Into<crate::Error>) -> JsValue {
    let err: crate::Error = err.into();
    let mut culprits: Vec<u16> = err.culprits().iter().map(|p| p.get()).collect();
    crate::sort::heapsort(&mut culprits);
    culprits.dedup();
    let js = js_error(&alloc::format!("{err}"), err.code(), err.module(), &culprits);
    #[cfg(all(feature = "wasm-parties", not(feature = "light")))]
    js::attach_blame(&js, &err);
    js
}
