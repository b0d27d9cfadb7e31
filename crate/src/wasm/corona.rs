//! Corona (the two-round t-of-n threshold lattice signature, [`crate::corona`]) for
//! JavaScript: the trusted dealer, a party's key share held in WASM memory
//! ([`CoronaShareWasm`]), the leaderless signer as a `PartyWasm`, and verification.
//!
//! | call | outcome |
//! |---|---|
//! | [`corona_deal`] | `{ threshold, parties, groupKey, shares: [{ id, keyPackage }] }` (each party loads its `CORK` with `fromDealer` against the `CORG`) |
//! | [`corona_sign`] (one party per signer, any t ≤ \|T\| ≤ [`MAX_JS_SIGNERS`]) | `{ signature, bytesSent, dropped }` |
//! | [`corona_verify`] | `true` / `false` |
//!
//! **Trust model.** The dealer knows the key while it deals; afterwards no party holds it, and
//! any t of the n parties sign in two rounds of broadcasts, every signer combining and
//! verifying the signature itself. A wrong response cannot be attributed: it ends the session
//! with `UNATTRIBUTABLE_ABORT` and no signature. A malformed, replayed, equivocated or badly
//! MACed message is dropped and its sender named in `dropped`.
//!
//! **Signing sets.** The library signs with up to 1024 parties; this binding refuses more than
//! [`MAX_JS_SIGNERS`] signers (a `RangeError`): each round-1 message is 614,666 + 36·|T| bytes,
//! and one step's inbox holds |T| − 1 of them.

use alloc::boxed::Box;
use alloc::vec::Vec;

use js_sys::Array;
use wasm_bindgen::prelude::*;
use zeroize::Zeroizing;

use super::js::{self, array32, party_ids, range_error, start_with_cheat, Obj};
use super::party::{host, inbox_bound, Finished, PartyWasm};
use super::rng::RngWasm;
use super::{js_u32, to_js_error};
use crate::corona::{self, GroupKey, KeyShare, SignParams, Signed, Signer, GROUP_KEY_LEN};

/// The most signers a JS signing session may have (the library allows up to
/// [`corona::MAX_PARTIES`]); the JS wrapper refuses more first.
const MAX_JS_SIGNERS: usize = 64;

/// The inbox bound of a signer among `signers`: its largest message is round 1's. The bound
/// (two messages per party, [`inbox_bound`]) also admits the other signers' round-2 messages
/// (11,048 bytes each) arriving in the same inbox as their last round-1 messages.
fn bound(signers: usize) -> usize {
    inbox_bound(signers, corona::commit_len(signers))
}

/// A signing set from JS: at most [`MAX_JS_SIGNERS`] ids.
fn signing_set(signers: &[u16]) -> Result<Vec<crate::PartyId>, JsValue> {
    if signers.len() > MAX_JS_SIGNERS {
        return Err(range_error(&alloc::format!(
            "at most {MAX_JS_SIGNERS} signers in a Corona session here, got {}",
            signers.len()
        )));
    }
    party_ids(signers)
}

/// A group key (`CORG`).
fn group_key(bytes: &[u8]) -> Result<GroupKey, JsValue> {
    GroupKey::from_bytes(bytes).map_err(to_js_error)
}

/// A Corona party's key share (`CORK`) with its group key (`CORG`), in WASM memory.
///
/// # Security
/// Holds the party's Shamir share and its pairwise PRF and MAC keys: wiped when freed. Only
/// [`CoronaShareWasm::seal`] lets it out, encrypted.
#[wasm_bindgen(js_name = "CoronaShareWasm")]
pub struct CoronaShareWasm {
    share: KeyShare,
}

#[wasm_bindgen(js_class = "CoronaShareWasm")]
impl CoronaShareWasm {
    /// The owner's id.
    pub fn id(&self) -> u16 {
        self.share.id().get()
    }

    /// `{ id, threshold, parties, groupKey (CORG), digest }`.
    #[wasm_bindgen(js_name = "publicInfo")]
    pub fn public_info(&self) -> JsValue {
        let s = &self.share;
        let o = Obj::new();
        o.set("id", s.id().get())
            .set("threshold", js_u32(s.threshold()))
            .set("parties", js_u32(s.parties()))
            .bytes("groupKey", &s.group_key().to_bytes())
            .bytes("digest", s.group_key().digest());
        o.into_js()
    }

    /// Seals the share under the 32-byte snapshot `key` (`seed`: 32 bytes) as a `QSNP`
    /// snapshot labelled `corona` with the group key's digest: its payload is the `CORG`
    /// followed by the `CORK` (which decodes only against its group key).
    ///
    /// # Errors
    /// `RangeError` for a key or seed that is not 32 bytes; snapshot errors.
    pub fn seal(&self, key: Vec<u8>, seed: Vec<u8>) -> Result<Vec<u8>, JsValue> {
        let s = &self.share;
        let group = s.group_key();
        let label = js::ShareLabel {
            label: "corona",
            group_id: group.digest(),
            generation: 0,
            threshold: u16::try_from(s.threshold()).unwrap_or(u16::MAX),
            party: s.id(),
        };
        let cork = s.to_bytes();
        let mut payload = Zeroizing::new(Vec::with_capacity(GROUP_KEY_LEN + cork.len()));
        payload.extend_from_slice(&group.to_bytes());
        payload.extend_from_slice(&cork);
        js::seal(key, seed, label, &payload)
    }

    /// Accepts the key package a trusted dealer sent (`CORK`, wiped after use), decoded against
    /// the group key `group_key` (`CORG`, the same at every party).
    ///
    /// # Errors
    /// Decoding errors of either; `GROUP_MISMATCH` for a package of another group key.
    #[wasm_bindgen(js_name = "fromDealer")]
    pub fn from_dealer(key_package: Vec<u8>, group_key_bytes: &[u8]) -> Result<CoronaShareWasm, JsValue> {
        let bytes = Zeroizing::new(key_package);
        let group = group_key(group_key_bytes)?;
        let share = KeyShare::from_bytes(&bytes, &group).map_err(to_js_error)?;
        Ok(CoronaShareWasm { share })
    }

    /// Restores a share sealed by [`CoronaShareWasm::seal`].
    ///
    /// # Errors
    /// Snapshot errors, decoding errors.
    pub fn restore(snapshot: &[u8], key: Vec<u8>) -> Result<CoronaShareWasm, JsValue> {
        let payload = js::open(snapshot, key)?;
        let (corg, cork) = payload.split_at(GROUP_KEY_LEN.min(payload.len()));
        let group = group_key(corg)?;
        let share = KeyShare::from_bytes(cork, &group).map_err(to_js_error)?;
        Ok(CoronaShareWasm { share })
    }
}

/// A trusted dealer's `threshold`-of-`parties` key for parties 1..=`parties`: `{ threshold,
/// parties, groupKey, shares: [{ id, keyPackage }] }`, each `keyPackage` (`CORK`, secret) for
/// its party only, which loads it with `CoronaShareWasm::fromDealer` against `groupKey`
/// (`CORG`). The dealer (this call) knows the key while it deals and keeps nothing; the
/// returned bytes are JS memory, which cannot be wiped: send each one on and drop it.
///
/// # Errors
/// `INVALID_THRESHOLD` unless 2 ≤ threshold ≤ parties ≤ 1024.
#[wasm_bindgen(js_name = "coronaDeal")]
pub fn corona_deal(threshold: u16, parties: u16, rng: &mut RngWasm) -> Result<JsValue, JsValue> {
    let (group, shares) =
        corona::deal(usize::from(threshold), usize::from(parties), rng.get()).map_err(to_js_error)?;
    let o = Obj::new();
    o.set("threshold", threshold)
        .set("parties", parties)
        .bytes("groupKey", &group.to_bytes());
    let list = Array::new();
    for share in shares {
        let entry = Obj::new();
        entry
            .set("id", share.id().get())
            .bytes("keyPackage", &share.to_bytes());
        list.push(&entry.into_js());
    }
    o.set("shares", list);
    Ok(o.into_js())
}

/// Starts the holder of `share` as a signer of `session` (32 bytes), in which `signers` (any
/// t ≤ |T| ≤ n of the group's parties, at most [`MAX_JS_SIGNERS`]) sign `message` under
/// `context`. Its outcome: `{ signature (CORS), bytesSent, dropped }`.
///
/// # Errors
/// `WRONG_SIGNER_COUNT`, `DUPLICATE_PARTY`, `UNKNOWN_PARTY`, `NOT_A_SIGNER`,
/// `CONTEXT_TOO_LONG`; `RangeError`s (a session that is not 32 bytes, a zero id, more than
/// [`MAX_JS_SIGNERS`] signers).
#[wasm_bindgen(js_name = "coronaSign")]
pub fn corona_sign(
    share: &CoronaShareWasm,
    session: &[u8],
    signers: Vec<u16>,
    message: &[u8],
    context: &[u8],
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let ids = signing_set(&signers)?;
    let params =
        SignParams::new(array32("session", session)?, &ids, message, context).map_err(to_js_error)?;
    let s = &share.share;
    let rng = rng.get();
    let started = start_with_cheat!(Signer::start(s, &params, rng),
        k => Signer::start_cheating(s, &params, k, rng));
    Ok(host(
        "corona-signer",
        started,
        bound(params.signers().len()),
        Box::new(|o: Signed| {
            let info = Obj::new();
            info.bytes("signature", &o.signature)
                .set("bytesSent", js_u32(o.bytes_sent));
            Finished::ok(info, o.dropped)
        }),
    ))
}

/// Whether `signature` (`CORS`) is a Corona signature on `message` under `context` by the
/// group key `group_key` (`CORG`): public inputs only. A signature that does not decode, or
/// does not verify, is `false`.
///
/// # Errors
/// Decoding errors of the group key (the verifier's own input); `CONTEXT_TOO_LONG`.
#[wasm_bindgen(js_name = "coronaVerify")]
pub fn corona_verify(
    group_key_bytes: &[u8],
    message: &[u8],
    context: &[u8],
    signature: &[u8],
) -> Result<bool, JsValue> {
    let group = group_key(group_key_bytes)?;
    match group.verify(message, context, signature) {
        Ok(()) => Ok(true),
        Err(corona::Error::InvalidSignature | corona::Error::Malformed { .. }) => Ok(false),
        Err(e) => Err(to_js_error(e)),
    }
}
