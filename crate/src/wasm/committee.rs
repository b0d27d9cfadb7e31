//! The Pulsar committee (threshold ML-DSA with no reconstruction) for JavaScript: a
//! trusted-dealer split, the distributed key generation and the leaderless signer as
//! `PartyWasm`s, and a member's share held in WASM memory ([`PulsarCommitteeShareWasm`]).
//!
//! | call | outcome |
//! |---|---|
//! | [`deal`] | `{ level, threshold, members, publicKey, key, slots, shares: [{ id, dealerShare }] }` (each member loads its bytes with `fromDealer`) |
//! | [`keygen`] (one party per member) | the key's fields and this member's `keyShare` |
//! | [`sign`] (one party per signer, exactly T) | `{ signature, level, runs, slot, bytesSent, rejected }` |

use alloc::boxed::Box;
use alloc::vec::Vec;

use js_sys::Array;
use wasm_bindgen::prelude::*;
use zeroize::Zeroizing;

use super::js::{self, array32, party_id, party_ids, start_with_cheat, Obj};
use super::party::{host, inbox_bound, Finished, PartyWasm};
use super::rng::RngWasm;
use super::{js_u32, mldsa_mode as mode, to_js_error};
use crate::mldsa::threshold as kernel;
use crate::mldsa::Mode;
use crate::pulsar::committee::{
    self, CommitteeKey, Dkg, DkgParams, KeyShare, Keyed, SignParams, Signed, Signer,
};

/// `{ level, threshold, members, publicKey, key (PQCK), slots }` of a committee key.
fn key_info(key: &CommitteeKey) -> Obj {
    let o = Obj::new();
    o.set("level", key.mode().level())
        .set("threshold", js_u32(key.threshold()))
        .ids("members", key.members())
        .bytes("publicKey", key.public_key())
        .bytes("key", &key.to_bytes())
        .set("slots", js_u32(key.slots()));
    o
}

/// The inbox bound of a committee party at `mode` among `n` members whose runs have `slots`
/// slots (0 for a key generation): its largest message is a reveal, the responses, or the
/// published parts of up to 20 subsets.
fn bound(mode: Mode, n: usize, slots: u16) -> usize {
    let reveal = kernel::reveal_len(mode, slots);
    let slots = usize::from(slots);
    let responses = slots.div_ceil(8) + slots * kernel::slot_response_len(mode);
    let parts = 1 + 20 * (1 + kernel::subset_t_len(mode));
    inbox_bound(n, 64 + reveal.max(responses).max(parts))
}

/// A committee member's share (`PQCS`), in WASM memory.
///
/// # Security
/// Holds the member's subset seeds: wiped when freed. Only
/// [`PulsarCommitteeShareWasm::seal`] lets it out, encrypted.
#[wasm_bindgen(js_name = "PulsarCommitteeShareWasm")]
pub struct PulsarCommitteeShareWasm {
    share: KeyShare,
}

#[wasm_bindgen(js_class = "PulsarCommitteeShareWasm")]
impl PulsarCommitteeShareWasm {
    /// The owner's id.
    pub fn id(&self) -> u16 {
        self.share.id().get()
    }

    /// `{ id, level, threshold, members, publicKey, key, slots, subsets }`.
    #[wasm_bindgen(js_name = "publicInfo")]
    pub fn public_info(&self) -> JsValue {
        let o = key_info(self.share.committee());
        o.set("id", self.share.id().get())
            .set("subsets", js_u32(self.share.subsets()));
        o.into_js()
    }

    /// Seals the share (`PQCS`) under the 32-byte snapshot `key` (`seed`: 32 bytes).
    ///
    /// # Errors
    /// `RangeError` for a key or seed that is not 32 bytes; snapshot errors.
    pub fn seal(&self, key: Vec<u8>, seed: Vec<u8>) -> Result<Vec<u8>, JsValue> {
        let s = &self.share;
        let id = s.committee().id();
        let label = js::ShareLabel {
            label: "pulsar-committee",
            group_id: &id,
            generation: 0,
            threshold: u16::try_from(s.committee().threshold()).unwrap_or(u16::MAX),
            party: s.id(),
        };
        js::seal(key, seed, label, &s.to_bytes())
    }

    /// Accepts the share a trusted dealer sent (`PQCS`, wiped after use), checked to belong to
    /// the committee key `key` (`PQCK`, the same at every member).
    ///
    /// # Errors
    /// Decoding errors; `GROUP_MISMATCH` for a share of another key.
    #[wasm_bindgen(js_name = "fromDealer")]
    pub fn from_dealer(dealer_share: Vec<u8>, key: &[u8]) -> Result<PulsarCommitteeShareWasm, JsValue> {
        let bytes = Zeroizing::new(dealer_share);
        let share = KeyShare::from_bytes(&bytes).map_err(to_js_error)?;
        let key = CommitteeKey::from_bytes(key).map_err(to_js_error)?;
        if share.committee() != &key {
            return Err(to_js_error(committee::Error::KeyMismatch));
        }
        Ok(PulsarCommitteeShareWasm { share })
    }

    /// Restores a share sealed by [`PulsarCommitteeShareWasm::seal`].
    ///
    /// # Errors
    /// Snapshot errors, decoding errors.
    pub fn restore(snapshot: &[u8], key: Vec<u8>) -> Result<PulsarCommitteeShareWasm, JsValue> {
        let payload = js::open(snapshot, key)?;
        let share = KeyShare::from_bytes(&payload).map_err(to_js_error)?;
        Ok(PulsarCommitteeShareWasm { share })
    }
}

/// A trusted dealer's split: `threshold` of `members` (increasing) at ML-DSA level `level`:
/// `{ …key fields, shares: [{ id, dealerShare }] }`, each `dealerShare` (`PQCS`, secret) for its
/// member only, which loads it with `PulsarCommitteeShareWasm::fromDealer`. The dealer (this
/// call) knows the key while it deals and keeps nothing; the returned bytes are JS memory, which
/// cannot be wiped: send each one on and drop it.
///
/// # Errors
/// `INVALID_COMMITTEE`; `RangeError`s.
#[wasm_bindgen(js_name = "pulsarCommitteeDeal")]
pub fn deal(level: u16, threshold: u16, members: Vec<u16>, rng: &mut RngWasm) -> Result<JsValue, JsValue> {
    let members = party_ids(&members)?;
    let (key, shares) =
        committee::deal(mode(level)?, usize::from(threshold), &members, rng.get()).map_err(to_js_error)?;
    let o = key_info(&key);
    let list = Array::new();
    for share in shares {
        let entry = Obj::new();
        entry
            .set("id", share.id().get())
            .bytes("dealerShare", &share.to_bytes());
        list.push(&entry.into_js());
    }
    o.set("shares", list);
    Ok(o.into_js())
}

/// Starts member `me` of the distributed key generation of `threshold` of `members` at
/// level `level` in session `session` (32 bytes).
///
/// # Errors
/// `INVALID_COMMITTEE`, `UNKNOWN_PARTY`; `RangeError`s.
#[wasm_bindgen(js_name = "pulsarCommitteeKeygen")]
pub fn keygen(
    session: &[u8],
    level: u16,
    threshold: u16,
    members: Vec<u16>,
    me: u16,
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let mode = mode(level)?;
    let ids = party_ids(&members)?;
    let params = DkgParams::new(array32("session", session)?, mode, usize::from(threshold), &ids)
        .map_err(to_js_error)?;
    let started = Dkg::start(party_id(me)?, &params, rng.get()).map_err(to_js_error)?;
    let b = bound(mode, members.len(), 0);
    Ok(host(
        "pulsar-committee-keygen",
        started,
        b,
        Box::new(|k: Keyed| {
            let o = key_info(&k.key);
            o.set("keyShare", PulsarCommitteeShareWasm { share: k.share });
            Finished::ok(o, k.dropped)
        }),
    ))
}

/// Starts the holder of `share` as a signer of `session` (32 bytes), in which exactly the
/// threshold's number of `signers` sign `message` under `context`, with at most `max_runs`
/// runs (0: the default).
///
/// # Errors
/// `WRONG_SIGNER_COUNT`, `DUPLICATE_PARTY`, `UNKNOWN_PARTY`, `NOT_A_SIGNER`,
/// `CONTEXT_TOO_LONG`; `RangeError`s.
#[wasm_bindgen(js_name = "pulsarCommitteeSign")]
pub fn sign(
    share: &PulsarCommitteeShareWasm,
    session: &[u8],
    signers: Vec<u16>,
    message: &[u8],
    context: &[u8],
    max_runs: u16,
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let mut params = SignParams::new(
        array32("session", session)?,
        &party_ids(&signers)?,
        message,
        context,
    )
    .map_err(to_js_error)?;
    if max_runs > 0 {
        params = params.with_max_runs(max_runs);
    }
    let s = &share.share;
    let rng = rng.get();
    let started = start_with_cheat!(Signer::start(s, &params, rng),
        k => Signer::start_cheating(s, &params, k, rng));
    let key = s.committee();
    let b = bound(
        key.mode(),
        key.members().len(),
        u16::try_from(key.slots()).unwrap_or(u16::MAX),
    );
    let level = key.mode().level();
    Ok(host(
        "pulsar-committee-signer",
        started,
        b,
        Box::new(move |o: Signed| {
            let info = Obj::new();
            info.bytes("signature", &o.signature)
                .set("level", level)
                .set("runs", o.runs)
                .set("slot", js_u32(o.slot))
                .set("bytesSent", js_u32(o.bytes_sent))
                .set("rejected", js_u32(o.rejected));
            Finished::ok(info, o.dropped)
        }),
    ))
}
