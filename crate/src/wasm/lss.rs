//! Plumbing shared by the protocol bindings ([`super::lens`], [`super::pulsar`]): party
//! ids, session ids and seeds from JS, inboxes (messages tagged with their transport
//! sender), result objects, blame lists, the byte-level LSS dealing driver, and the
//! misbehaving-dealer hook of the demo's cheating-party toggle.
//!
//! Nothing here is exported to JS directly; the party classes call it.
//!
//! # The misbehaving dealer
//!
//! A dealer with the `dealing` flag sends every receiver a share whose value is off by one
//! ([`crate::lss::ShareMessage::tampered`]) and, when receivers complain, "opens" those
//! same wrong values in its response. Honest parties then disqualify it through the
//! kernel's own checks (`INVALID_OPENING`, naming the complainer): nothing in this module
//! tells them who cheated.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use js_sys::{Array, Object, Reflect, Uint8Array};
use rand_chacha::ChaCha20Rng;
use rand_core::{CryptoRngCore, SeedableRng};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use zeroize::Zeroizing;

use super::{js_error, to_js_error, to_js_error_blaming};
use crate::lss::snapshot::{Metadata, Snapshot, SnapshotKey};
use crate::lss::{self, Blame, BlameReason, Ceremony, KeyShare, Opening, ResponseMessage, ShareMessage};
use crate::vss::{self, Mode, Share};
use crate::wire::{self, Reader};
use crate::PartyId;

/// Messages received in one round, by transport sender. Zeroized on drop (direct
/// messages carry secret shares).
pub(super) type Inbox = BTreeMap<PartyId, Zeroizing<Vec<u8>>>;

/// A `RangeError` (an argument the JS wrapper should have rejected).
pub(super) fn range_error(msg: &str) -> JsValue {
    js_sys::RangeError::new(msg).into()
}

/// A plain `Error` for a method called out of order.
pub(super) fn order_error(class: &str, method: &str, expected: &str, phase: &str) -> JsValue {
    js_sys::Error::new(&alloc::format!(
        "{class}.{method}: expected {expected} first (current phase: '{phase}')"
    ))
    .into()
}

/// The party id `id`, or a `RangeError` for zero.
pub(super) fn party_id(id: u16) -> Result<PartyId, JsValue> {
    PartyId::new(id).ok_or_else(|| range_error("party id must be in 1..65535"))
}

/// Party ids from JS (each non-zero).
pub(super) fn party_ids(ids: &[u16]) -> Result<Vec<PartyId>, JsValue> {
    ids.iter().map(|&i| party_id(i)).collect()
}

/// A 32-byte session id.
pub(super) fn session_id(bytes: &[u8]) -> Result<[u8; 32], JsValue> {
    bytes
        .try_into()
        .map_err(|_| range_error("session must be 32 bytes"))
}

/// This instance's RNG: ChaCha20 seeded with the 32 bytes from JS (wiped after use).
pub(super) fn rng_from_seed(seed: Vec<u8>) -> Result<ChaCha20Rng, JsValue> {
    let seed = Zeroizing::new(seed);
    let array: Zeroizing<[u8; 32]> = Zeroizing::new(
        seed.as_slice()
            .try_into()
            .map_err(|_| range_error("seed must be 32 bytes"))?,
    );
    Ok(ChaCha20Rng::from_seed(*array))
}

/// An inbox from parallel lists of senders and `Uint8Array`s. Identical duplicates are
/// merged; two different messages from one sender are `CONFLICTING_MESSAGE`, blaming it.
pub(super) fn inbox(from: &[u16], msgs: &Array) -> Result<Inbox, JsValue> {
    if from.len() != msgs.length() as usize {
        return Err(range_error("senders and messages differ in length"));
    }
    let mut out = Inbox::new();
    for (i, &f) in from.iter().enumerate() {
        let p = party_id(f)?;
        let bytes = msgs
            .get(i as u32)
            .dyn_into::<Uint8Array>()
            .map_err(|_| JsValue::from(js_sys::TypeError::new("messages must be Uint8Arrays")))?;
        let bytes = Zeroizing::new(bytes.to_vec());
        if let Some(prev) = out.get(&p) {
            if prev.as_slice() != bytes.as_slice() {
                return Err(to_js_error(lss::Error::ConflictingMessage { party: p }));
            }
            continue;
        }
        out.insert(p, bytes);
    }
    Ok(out)
}

/// An inbox without this party's own message (the state machines keep their own
/// broadcasts; an echo from the network is ignored).
pub(super) fn inbox_of_others(me: PartyId, from: &[u16], msgs: &Array) -> Result<Inbox, JsValue> {
    let mut m = inbox(from, msgs)?;
    m.remove(&me);
    Ok(m)
}

/// Decodes every message, dropping (and recording in `dropped`) those that fail.
pub(super) fn decode_all<T>(
    messages: &Inbox,
    dropped: &mut Vec<PartyId>,
    decode: impl Fn(&[u8]) -> Option<T>,
) -> BTreeMap<PartyId, T> {
    let mut out = BTreeMap::new();
    for (sender, bytes) in messages {
        match decode(bytes) {
            Some(m) => {
                out.insert(*sender, m);
            }
            None => dropped.push(*sender),
        }
    }
    out
}

/// Decodes every message; the first that fails throws its decoding error, blaming the
/// sender.
pub(super) fn decode_strict<T, E: Into<crate::Error>>(
    messages: &Inbox,
    decode: impl Fn(&[u8]) -> Result<T, E>,
) -> Result<BTreeMap<PartyId, T>, JsValue> {
    let mut out = BTreeMap::new();
    for (sender, bytes) in messages {
        let m = decode(bytes).map_err(|e| to_js_error_blaming(e, &[*sender]))?;
        out.insert(*sender, m);
    }
    Ok(out)
}

/// A plain JS object under construction.
pub(super) struct Obj(Object);

impl Obj {
    /// An empty object.
    pub(super) fn new() -> Obj {
        Obj(Object::new())
    }

    /// Sets `key` to `value`.
    pub(super) fn set(&self, key: &str, value: impl Into<JsValue>) -> &Obj {
        // Setting a property of a fresh plain object cannot fail.
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

    /// The object.
    pub(super) fn into_js(self) -> JsValue {
        self.0.into()
    }
}

/// An array of party ids as numbers.
pub(super) fn id_array(ids: &[PartyId]) -> Array {
    ids.iter().map(|p| JsValue::from(p.get())).collect()
}

/// `{ broadcast?, direct: [{ to, bytes }] }`.
pub(super) fn round_output<'a>(
    broadcast: Option<&[u8]>,
    direct: impl IntoIterator<Item = (PartyId, &'a [u8])>,
) -> JsValue {
    let o = Obj::new();
    if let Some(b) = broadcast {
        o.bytes("broadcast", b);
    }
    let list = Array::new();
    for (to, bytes) in direct {
        let d = Obj::new();
        d.set("to", to.get()).bytes("bytes", bytes);
        list.push(&d.into_js());
    }
    o.set("direct", list);
    o.into_js()
}

/// One blame entry: `{ party, code, reason, related? }`.
pub(super) fn blame_entry(party: PartyId, code: &str, reason: &str, related: Option<PartyId>) -> JsValue {
    let o = Obj::new();
    o.set("party", party.get())
        .set("code", code)
        .set("reason", reason);
    if let Some(r) = related {
        o.set("related", r.get());
    }
    o.into_js()
}

/// The stable code of an LSS blame reason.
fn reason_code(reason: &BlameReason) -> &'static str {
    match reason {
        BlameReason::MissingDeal => "MISSING_DEAL",
        BlameReason::MalformedDeal => "MALFORMED_DEAL",
        BlameReason::InvalidProof => "INVALID_PROOF",
        BlameReason::WrongConstant => "WRONG_CONSTANT",
        BlameReason::InvalidCommitment => "INVALID_COMMITMENT",
        BlameReason::UnansweredComplaint { .. } => "UNANSWERED_COMPLAINT",
        BlameReason::InvalidOpening { .. } => "INVALID_OPENING",
        BlameReason::FalseComplaint { .. } => "FALSE_COMPLAINT",
        BlameReason::InvalidComplaint { .. } => "INVALID_COMPLAINT",
    }
}

/// A human-readable explanation of an LSS blame reason.
fn reason_text(reason: &BlameReason) -> String {
    match reason {
        BlameReason::MissingDeal => "sent no deal".into(),
        BlameReason::MalformedDeal => "sent a deal of the wrong shape".into(),
        BlameReason::InvalidProof => "proof of knowledge does not verify".into(),
        BlameReason::WrongConstant => "dealt a different secret (constant term)".into(),
        BlameReason::InvalidCommitment => "commitments outside the prime-order group".into(),
        BlameReason::UnansweredComplaint { complainer } => {
            alloc::format!("did not answer the complaint of party {}", complainer.get())
        }
        BlameReason::InvalidOpening { complainer } => alloc::format!(
            "its share for party {} does not match its commitments",
            complainer.get()
        ),
        BlameReason::FalseComplaint { dealer } => {
            alloc::format!("complained about party {}, whose share was valid", dealer.get())
        }
        BlameReason::InvalidComplaint { dealer } => {
            alloc::format!("complained about party {}, which is not a dealer", dealer.get())
        }
    }
}

/// An LSS blame list as JS.
pub(super) fn lss_blame(blame: &[Blame]) -> Array {
    blame
        .iter()
        .map(|b| {
            blame_entry(
                b.party,
                reason_code(&b.reason),
                &reason_text(&b.reason),
                b.reason.related(),
            )
        })
        .collect()
}

/// The fields every dealing outcome has (see `DealingOutcome` in js/protocols.d.ts),
/// for the new generation `public`.
pub(super) fn dealing_outcome<V: vss::Curve>(
    has_share: bool,
    public: &lss::GroupPublic<V>,
    qualified: &[PartyId],
    blame: &[Blame],
    dropped: &[PartyId],
) -> Obj {
    let o = sharing_info(public);
    o.set("hasShare", has_share)
        .ids("qualified", qualified)
        .set("blame", lss_blame(blame))
        .ids("dropped", dropped);
    o
}

/// `{ threshold, parties, generation, transcriptHash }` of a sharing.
pub(super) fn sharing_info<V: vss::Curve>(public: &lss::GroupPublic<V>) -> Obj {
    let o = Obj::new();
    o.set("threshold", public.threshold())
        .ids("parties", public.parties())
        .set("generation", public.generation() as f64)
        .bytes("transcriptHash", public.transcript_hash());
    o
}

// ---------------------------------------------------------------------------------------
// The misbehaving dealer (byte level, so Lens and Pulsar share it).

/// The share inside an encoded share message (the type keeps it private): the mode byte
/// follows magic, version, curve and kind; the share is the tail.
fn share_of<V: vss::Curve>(message: &[u8]) -> Result<Share<V>, wire::Error> {
    let mode = Mode::from_byte(*message.get(8).ok_or(wire::Error::TooShort {
        needed: 9,
        got: message.len(),
    })?)?;
    let len = Share::<V>::encoded_len(mode);
    let start = message.len().checked_sub(len).ok_or(wire::Error::TooShort {
        needed: len,
        got: message.len(),
    })?;
    let mut r = Reader::new(&message[start..]);
    let share = Share::<V>::read(mode, &mut r)?;
    r.finish()?;
    Ok(share)
}

/// The share message `bytes` with its value off by one.
pub(super) fn tamper_share<V: vss::Curve>(bytes: &[u8]) -> Result<Zeroizing<Vec<u8>>, wire::Error> {
    Ok(ShareMessage::<V>::from_bytes(bytes)?.tampered().to_bytes())
}

/// The response `bytes` with each opening for a receiver in `bad` replaced by the wrong
/// share that receiver was sent.
pub(super) fn rewrite_response<V: vss::Curve>(
    bytes: &[u8],
    mode: Mode,
    bad: &BTreeMap<PartyId, Zeroizing<Vec<u8>>>,
) -> Result<Vec<u8>, wire::Error> {
    let response = ResponseMessage::<V>::from_bytes(bytes)?;
    let mut openings: Vec<Opening<V>> = Vec::with_capacity(response.openings().len());
    for o in response.openings() {
        let share = match bad.get(&o.receiver) {
            Some(m) => share_of::<V>(m)?,
            None => o.share.duplicate(),
        };
        openings.push(Opening {
            receiver: o.receiver,
            share,
        });
    }
    Ok(ResponseMessage::new(mode, *response.session(), response.from(), openings).to_bytes())
}

// ---------------------------------------------------------------------------------------
// The byte-level LSS dealing driver (Pulsar's DKG and reshare; Lens uses lens::reshare).

/// What a participant keeps across the rounds of one dealing besides the kernel state.
pub(super) struct DealCtx {
    /// The commitment mode.
    pub(super) mode: Mode,
    /// Senders whose messages did not decode.
    pub(super) dropped: Vec<PartyId>,
    /// Misbehaving dealer: the wrong share message sent to each receiver.
    pub(super) bad: BTreeMap<PartyId, Zeroizing<Vec<u8>>>,
}

/// Round 1: deal (dealers) and start. Returns the state, the context and the
/// `{ broadcast?, direct }` output.
pub(super) fn deal<V: vss::Curve>(
    ceremony: Ceremony<V>,
    me: PartyId,
    old: Option<&KeyShare<V>>,
    cheat: bool,
    rng: &mut impl CryptoRngCore,
) -> Result<(lss::Round1State<V>, DealCtx, JsValue), JsValue> {
    let mode = ceremony.mode();
    let (state, out) = lss::round1(ceremony, me, old, rng).map_err(to_js_error)?;
    let mut ctx = DealCtx {
        mode,
        dropped: Vec::new(),
        bad: BTreeMap::new(),
    };
    let mut direct: Vec<(PartyId, Zeroizing<Vec<u8>>)> = Vec::with_capacity(out.shares.len());
    for m in &out.shares {
        let bytes = if cheat {
            let bad = m.tampered().to_bytes();
            ctx.bad.insert(m.to(), bad.clone());
            bad
        } else {
            m.to_bytes()
        };
        direct.push((m.to(), bytes));
    }
    let broadcast = out.broadcast.as_ref().map(|d| d.to_bytes());
    let js = round_output(
        broadcast.as_deref(),
        direct.iter().map(|(p, b)| (*p, b.as_slice())),
    );
    Ok((state, ctx, js))
}

/// Round 2: check deals and shares; returns the complaint broadcast.
pub(super) fn check<V: vss::Curve>(
    state: lss::Round1State<V>,
    ctx: &mut DealCtx,
    deals: &Inbox,
    shares: &Inbox,
) -> Result<(lss::Round2State<V>, JsValue), JsValue> {
    let deals = decode_all(deals, &mut ctx.dropped, |b| {
        lss::DealMessage::<V>::from_bytes(b).ok()
    });
    let shares = decode_all(shares, &mut ctx.dropped, |b| {
        ShareMessage::<V>::from_bytes(b).ok()
    });
    let (state, complaint) = state.round2(deals, shares).map_err(to_js_error)?;
    let bytes = complaint.map(|c| c.to_bytes());
    Ok((state, round_output(bytes.as_deref(), core::iter::empty())))
}

/// Round 3: read complaints; returns the response broadcast (a misbehaving dealer opens
/// the wrong shares it sent).
pub(super) fn answer<V: vss::Curve>(
    state: lss::Round2State<V>,
    ctx: &mut DealCtx,
    complaints: &Inbox,
) -> Result<(lss::Round3State<V>, JsValue), JsValue> {
    let complaints = decode_all(complaints, &mut ctx.dropped, |b| {
        lss::ComplaintMessage::<V>::from_bytes(b).ok()
    });
    let (state, response) = state.round3(complaints).map_err(to_js_error)?;
    let mut bytes = response.map(|r| r.to_bytes());
    if let (Some(b), false) = (&bytes, ctx.bad.is_empty()) {
        bytes = Some(rewrite_response::<V>(b, ctx.mode, &ctx.bad).map_err(to_js_error)?);
    }
    Ok((state, round_output(bytes.as_deref(), core::iter::empty())))
}

/// Finalize: read responses; returns the kernel's outcome (`dropped` sorted in `ctx`).
pub(super) fn finish<V: vss::Curve>(
    state: lss::Round3State<V>,
    ctx: &mut DealCtx,
    responses: &Inbox,
) -> Result<lss::Outcome<V>, JsValue> {
    let responses = decode_all(responses, &mut ctx.dropped, |b| {
        ResponseMessage::<V>::from_bytes(b).ok()
    });
    ctx.dropped.sort_unstable();
    ctx.dropped.dedup();
    state.finalize(responses).map_err(to_js_error)
}

/// A snapshot key from JS bytes.
pub(super) fn snapshot_key(key: Vec<u8>) -> Result<SnapshotKey, JsValue> {
    let key = Zeroizing::new(key);
    let array: Zeroizing<[u8; 32]> = Zeroizing::new(
        key.as_slice()
            .try_into()
            .map_err(|_| range_error("snapshot key must be 32 bytes"))?,
    );
    Ok(SnapshotKey::from_bytes(&array))
}

/// A snapshot error as a `QuasarError` (module `snapshot`).
pub(super) fn snapshot_error(e: crate::lss::snapshot::Error) -> JsValue {
    js_error(&alloc::format!("{e}"), e.code(), "snapshot", &[])
}

/// Seals a serialized key share (`payload`) under `key` as a `QSNP` snapshot.
pub(super) fn seal_snapshot(
    key: &SnapshotKey,
    meta: &Metadata,
    payload: &[u8],
    rng: &mut ChaCha20Rng,
) -> Result<Vec<u8>, JsValue> {
    let sealed = Snapshot::seal(key, meta, payload, rng).map_err(snapshot_error)?;
    Ok(sealed.to_bytes())
}

/// Opens a `QSNP` snapshot with the 32-byte JS `key`: the serialized key share.
pub(super) fn open_snapshot(snapshot: &[u8], key: Vec<u8>) -> Result<Zeroizing<Vec<u8>>, JsValue> {
    let key = snapshot_key(key)?;
    Snapshot::from_bytes(snapshot)
        .and_then(|s| s.open(&key))
        .map_err(snapshot_error)
}
