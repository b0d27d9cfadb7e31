//! Plumbing shared by the protocol bindings: arguments from JS (party ids, session ids,
//! seeds, generations, a reshare's parameters and member), result objects (outgoing
//! messages, blame lists, activation certificates) and the snapshot helpers of the key-share
//! holders. With feature `hazmat` (the demo build only), the slot a misbehaviour is armed in.
//!
//! Exported to JS: `ReshareWasm`, a reshare's parameters in one argument, and, in the demo
//! build only, `hazmatArm`. Blame
//! reaches JS as `{ party, code, reason, related? }` with the code and text of
//! [`BlameReason`] itself: the one table is the Rust one.

use alloc::vec::Vec;

use js_sys::{Array, Object, Reflect, Uint8Array};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use wasm_bindgen::prelude::*;
use zeroize::Zeroizing;

use super::rng::RngWasm;
use super::{js_error, js_number};
use crate::keystore::{Metadata, Snapshot, SnapshotKey};
use crate::lss::ActivationCertificate;
use crate::party::{Blame, Outgoing};
use crate::PartyId;

/// A `RangeError` (an argument the JS wrapper should have rejected).
pub(super) fn range_error(msg: &str) -> JsValue {
    js_sys::RangeError::new(msg).into()
}

/// The party id `id`, or a `RangeError` for zero.
pub(super) fn party_id(id: u16) -> Result<PartyId, JsValue> {
    PartyId::new(id).ok_or_else(|| range_error("party id must be in 1..65535"))
}

/// Party ids from JS (each non-zero).
pub(super) fn party_ids(ids: &[u16]) -> Result<Vec<PartyId>, JsValue> {
    ids.iter().map(|&i| party_id(i)).collect()
}

/// A 32-byte session id or transcript hash.
pub(super) fn array32(what: &str, bytes: &[u8]) -> Result<[u8; 32], JsValue> {
    bytes
        .try_into()
        .map_err(|_| range_error(&alloc::format!("{what} must be 32 bytes")))
}

/// The public parameters of a reshare, identical at every participant, read once from JS
/// (`new ReshareWasm(...)`) and consumed by the reshare factory it is passed to.
#[wasm_bindgen(js_name = "ReshareWasm")]
pub struct Reshare {
    pub(super) session: [u8; 32],
    pub(super) dealers: Vec<PartyId>,
    pub(super) receivers: Vec<PartyId>,
    pub(super) threshold: u16,
}

#[wasm_bindgen(js_class = "ReshareWasm")]
impl Reshare {
    /// The reshare of session `session` by `dealers` to `receivers` with threshold
    /// `threshold`.
    ///
    /// # Errors
    /// `RangeError` for a session that is not 32 bytes or a zero party id.
    #[wasm_bindgen(constructor)]
    pub fn new(
        session: &[u8],
        dealers: &[u16],
        receivers: &[u16],
        threshold: u16,
    ) -> Result<Reshare, JsValue> {
        Ok(Reshare {
            session: array32("session", session)?,
            dealers: party_ids(dealers)?,
            receivers: party_ids(receivers)?,
            threshold,
        })
    }
}

/// One party of a reshare, as the factory knows it: its id, its current share (none for a
/// new member) and its generator.
pub(super) struct Member<'a, S> {
    pub(super) id: PartyId,
    pub(super) share: Option<&'a S>,
    pub(super) rng: &'a mut RngWasm,
}

impl<'a, S> Member<'a, S> {
    /// The holder `id` of `share`.
    pub(super) fn holder(id: PartyId, share: &'a S, rng: &'a mut RngWasm) -> Self {
        Member {
            id,
            share: Some(share),
            rng,
        }
    }

    /// New member `id` (no share yet).
    pub(super) fn joining(id: PartyId, rng: &'a mut RngWasm) -> Self {
        Member { id, share: None, rng }
    }
}

/// A generation number from JS: a non-negative safe integer.
// The range check below makes the float-to-integer `as` exact; no `From` exists.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
pub(super) fn generation(g: f64) -> Result<u64, JsValue> {
    // 2^53 - 1, the largest integer a JS number holds exactly.
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    if (0.0..=MAX_SAFE).contains(&g) && g.fract() == 0.0 {
        // In range and integral: the conversion is exact.
        Ok(g as u64)
    } else {
        Err(range_error("generation must be a non-negative safe integer"))
    }
}

/// This party's RNG: ChaCha20 seeded with the 32 bytes from JS (wiped after use).
pub(super) fn rng_from_seed(seed: Vec<u8>) -> Result<ChaCha20Rng, JsValue> {
    let seed = Zeroizing::new(seed);
    let array: Zeroizing<[u8; 32]> = Zeroizing::new(
        seed.as_slice()
            .try_into()
            .map_err(|_| range_error("seed must be 32 bytes"))?,
    );
    Ok(ChaCha20Rng::from_seed(*array))
}

/// The misbehaviour armed for the next party a factory starts (feature `hazmat`): 0 for
/// none, else 1 + its index in [`Cheat::ALL`](crate::party::hazmat::Cheat::ALL). One WASM
/// instance runs one call at a time, so the slot is never shared between two starts.
#[cfg(feature = "hazmat")]
static ARMED: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

/// Demo and test builds only (feature `hazmat`; the published package is built without it,
/// so this export does not exist there): arms the misbehaviour named `name` for the next
/// party a factory starts (`undefined` disarms). The start takes it, so it applies once.
#[cfg(feature = "hazmat")]
#[allow(unreachable_pub)] // `#[wasm_bindgen]` exports only `pub` functions
#[wasm_bindgen(js_name = "hazmatArm")]
pub fn hazmat_arm(name: Option<alloc::string::String>) -> Result<(), JsValue> {
    use crate::party::hazmat::Cheat;
    let slot = match name {
        None => 0,
        Some(n) => Cheat::ALL
            .iter()
            .position(|c| c.name() == n)
            .and_then(|i| u8::try_from(i + 1).ok())
            .ok_or_else(|| {
                range_error("cheat must be bad-shares, misaddress, bad-contribution or garbage")
            })?,
    };
    ARMED.store(slot, core::sync::atomic::Ordering::Relaxed);
    Ok(())
}

/// Takes the armed misbehaviour (`None`: an honest party), leaving the slot empty.
#[cfg(feature = "hazmat")]
pub(super) fn take_cheat() -> Option<crate::party::hazmat::Cheat> {
    let slot = ARMED.swap(0, core::sync::atomic::Ordering::Relaxed);
    crate::party::hazmat::Cheat::ALL
        .get(usize::from(slot).checked_sub(1)?)
        .copied()
}

/// Starts a party: honestly (`$honest`), or, in a `hazmat` build with a misbehaviour armed by
/// [`hazmat_arm`], cheating as `$k` (`$cheating`). The started party and its first messages,
/// or `?` with the start's JS error. Without `hazmat` only `$honest` is compiled.
macro_rules! start_with_cheat {
    ($honest:expr, $k:ident => $cheating:expr) => {{
        #[cfg(feature = "hazmat")]
        let started = match $crate::wasm::js::take_cheat() {
            None => $honest,
            Some($k) => $cheating,
        };
        #[cfg(not(feature = "hazmat"))]
        let started = $honest;
        started.map_err($crate::wasm::to_js_error)?
    }};
}
pub(super) use start_with_cheat;

/// A JS object under construction, with no prototype ([`super::null_object`]).
pub(super) struct Obj(Object);

impl Obj {
    /// An empty object.
    pub(super) fn new() -> Obj {
        Obj(super::null_object())
    }

    /// Sets `key` to `value` (an own data property).
    pub(super) fn set(&self, key: &str, value: impl Into<JsValue>) -> &Obj {
        // Setting a property of a fresh null-prototype object cannot fail.
        let _ = Reflect::set(&self.0, &JsValue::from_str(key), &value.into());
        self
    }

    /// Sets `key` to a fresh `Uint8Array` copy of `bytes`.
    pub(super) fn bytes(&self, key: &str, bytes: &[u8]) -> &Obj {
        self.set(key, Uint8Array::from(bytes))
    }

    /// Sets `key` to an array of party ids (numbers).
    pub(super) fn ids(&self, key: &str, ids: &[PartyId]) -> &Obj {
        self.set(key, id_array(ids))
    }

    /// Sets `key` to a blame list.
    pub(super) fn blame(&self, key: &str, blame: &[Blame]) -> &Obj {
        self.set(key, blame_list(blame))
    }

    /// The object.
    pub(super) fn into_js(self) -> JsValue {
        self.0.into()
    }
}

/// An array of party ids as numbers.
pub(super) fn id_array(ids: &[PartyId]) -> Array {
    ids.iter().map(|p| JsValue::from(p.get())).collect()
}

/// A blame list: `[{ party, code, reason, related? }]`, from [`crate::party::BlameReason`]'s
/// own code and text.
pub(super) fn blame_list(blame: &[Blame]) -> Array {
    blame
        .iter()
        .map(|b| {
            let o = Obj::new();
            o.set("party", b.party.get())
                .set("code", b.reason.code())
                .set("reason", alloc::format!("{}", b.reason));
            if let Some(r) = b.reason.related() {
                o.set("related", r.get());
            }
            o.into_js()
        })
        .collect()
}

/// `{ broadcast?, direct: [{ to, bytes }] }` of what a party sends.
pub(super) fn outgoing(out: &Outgoing) -> JsValue {
    let o = Obj::new();
    if let Some(b) = &out.broadcast {
        o.bytes("broadcast", b);
    }
    let list = Array::new();
    for d in &out.direct {
        let e = Obj::new();
        e.set("to", d.to.get()).bytes("bytes", &d.bytes);
        list.push(&e.into_js());
    }
    o.set("direct", list);
    o.into_js()
}

/// `{ certificate, generation, transcriptHash, members, verified }` of an activation
/// certificate this party checked (`verified` says it passed
/// `verify_activation` against the new generation, for the expected generation and
/// transcript).
pub(super) fn activation(cert: &ActivationCertificate, verified: bool) -> JsValue {
    let o = Obj::new();
    o.bytes("certificate", &cert.to_bytes())
        .set("generation", js_number(cert.generation()))
        .bytes("transcriptHash", cert.transcript_hash())
        .ids("members", &cert.members())
        .set("verified", verified);
    o.into_js()
}

/// A verdict `{ ok: true }` or `{ ok: false, code, reason }`.
pub(super) fn verdict(result: Result<(), crate::Error>) -> JsValue {
    let o = Obj::new();
    match result {
        Ok(()) => {
            o.set("ok", true);
        }
        Err(e) => {
            o.set("ok", false)
                .set("code", e.code())
                .set("reason", alloc::format!("{e}"));
        }
    }
    o.into_js()
}

/// Adds `blame` to a JS error whose library error carries a blame list (a Pulsar session
/// that ran out of valid shares, a committee session aborted on a broken reveal).
pub(super) fn attach_blame(js: &JsValue, err: &crate::Error) {
    let blame = match err {
        crate::Error::Pulsar(crate::pulsar::Error::NotEnoughValidShares { blame, .. }) => blame,
        crate::Error::Committee(crate::pulsar::committee::Error::Aborted { blame, .. }) => blame,
        _ => return,
    };
    super::define(js, "blame", &blame_list(blame).into());
}

/// A snapshot key from JS bytes.
fn snapshot_key(key: Vec<u8>) -> Result<SnapshotKey, JsValue> {
    let key = Zeroizing::new(key);
    let array: Zeroizing<[u8; 32]> = Zeroizing::new(
        key.as_slice()
            .try_into()
            .map_err(|_| range_error("snapshot key must be 32 bytes"))?,
    );
    Ok(SnapshotKey::from_bytes(&array))
}

/// A key-storage error as a `QuasarError` (module `keystore`).
fn snapshot_error(e: crate::keystore::Error) -> JsValue {
    js_error(&alloc::format!("{e}"), e.code(), "keystore", &[])
}

/// What a snapshot's metadata says about the share it holds.
pub(super) struct ShareLabel<'a> {
    pub label: &'a str,
    pub group_id: &'a [u8],
    pub generation: u64,
    pub threshold: u16,
    pub party: PartyId,
}

/// Seals a serialized key share (`payload`) under `key` as a `QSNP` snapshot.
pub(super) fn seal(
    key: Vec<u8>,
    seed: Vec<u8>,
    share: ShareLabel<'_>,
    payload: &[u8],
) -> Result<Vec<u8>, JsValue> {
    let key = snapshot_key(key)?;
    let mut rng = rng_from_seed(seed)?;
    let ShareLabel {
        label,
        group_id,
        generation,
        threshold,
        party,
    } = share;
    let meta = Metadata::new(label, group_id, generation, threshold, party, 0).map_err(snapshot_error)?;
    let sealed = Snapshot::seal(&key, &meta, payload, &mut rng).map_err(snapshot_error)?;
    Ok(sealed.to_bytes())
}

/// Opens a `QSNP` snapshot with the 32-byte `key`: the serialized key share.
pub(super) fn open(snapshot: &[u8], key: Vec<u8>) -> Result<Zeroizing<Vec<u8>>, JsValue> {
    let key = snapshot_key(key)?;
    Snapshot::from_bytes(snapshot)
        .and_then(|s| s.open(&key))
        .map_err(snapshot_error)
}
