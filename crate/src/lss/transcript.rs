//! The transcript hash of a dealing: everything public, in a fixed order, through
//! [`crate::hash::Transcript`] (TupleHash-style cSHAKE256, function name `QUASAR`,
//! customization `QUASAR-LSS-TRANSCRIPT-v1`). Every element is a separate tuple element
//! preceded by its ASCII label:
//!
//! 1. `"curve"` name, `"kind"` byte, `"mode"` byte, `"session"` (32), `"generation"`
//!    (u64, the new one), `"threshold"` (u16, the new one), `"dealers"` and
//!    `"receivers"` (u16 ids, increasing);
//! 2. `"old"`: the old group's `LSG1` encoding (threshold, parties, commitments,
//!    generation, transcript hash), or empty for a DKG;
//! 3. per announced dealer, increasing: `"deal"`, its id, then its `LSD1` message or an
//!    empty element if absent;
//! 4. per receiver: `"complaint"`, id, its `LSC1` message or empty;
//! 5. per dealer: `"response"`, id, its `LSR1` message or empty;
//! 6. `"qualified"` (ids), `"blame"` (per entry: u16 party ‖ u8 reason ‖ u16 related
//!    party or 0), `"commitments"` (the new commitment vector).
//!
//! Private share messages are not part of it.
//!
//! Items 1–3 are known once the deals are in: with `in-process-sharing` one party of the
//! process hashes them during the share checks ([`prepare`]), and finalize goes on from that
//! state (the deals are most of the transcript: some 120 KB at n = 128).

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use super::{Ceremony, ComplaintMessage, DealMessage, ResponseMessage};
use crate::hash::{tags, Transcript};
use crate::party::shared::Held;
use crate::party::{id_bytes, Blame, BlameReason};
use crate::vss::{Commitments, Curve};
use crate::wire::Writer;
use crate::PartyId;

/// Where the transcript's tuple elements go: the hash, or with `in-process-sharing` the
/// key of its memo.
trait Sink<'s> {
    fn bytes(&mut self, element: &[u8]);

    /// A deal's bytes, as the parties of a process share them.
    fn deal(&mut self, raw: &'s Held<Vec<u8>>) {
        self.bytes(raw);
    }
}

impl Sink<'_> for Transcript {
    fn bytes(&mut self, element: &[u8]) {
        self.append(element);
    }
}

/// A memo key of the elements: each with its length, a deal marked by a length no element
/// has and listed in `parts`.
#[cfg(feature = "in-process-sharing")]
struct Key<'s> {
    head: Vec<u8>,
    parts: Vec<&'s Held<Vec<u8>>>,
}

#[cfg(feature = "in-process-sharing")]
impl<'s> Sink<'s> for Key<'s> {
    fn bytes(&mut self, element: &[u8]) {
        self.head.extend_from_slice(&(element.len() as u64).to_le_bytes());
        self.head.extend_from_slice(element);
    }

    fn deal(&mut self, raw: &'s Held<Vec<u8>>) {
        self.head.extend_from_slice(&u64::MAX.to_le_bytes());
        self.parts.push(raw);
    }
}

/// The transcript hash of a completed dealing (see the module docs). Every party of a
/// process hashes the same public transcript, so with `in-process-sharing` it is hashed once
/// per process (`party::shared`, keyed by the elements themselves, compared in full; the
/// deals, the bulk of it, as the process's shared copies of their bytes, so that no party
/// copies them into a key).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(crate) fn transcript_hash<'a, C: Curve>(
    ceremony: &Ceremony<C>,
    deals: &'a BTreeMap<PartyId, DealMessage<C>>,
    complaints: &BTreeMap<PartyId, ComplaintMessage<C>>,
    responses: &BTreeMap<PartyId, ResponseMessage<C>>,
    qualified: &[PartyId],
    blame: &[Blame],
    commitments: &Commitments<C>,
) -> [u8; 32] {
    let tail = |sink: &mut dyn Sink<'a>| {
        tail_elements(
            ceremony,
            complaints,
            responses,
            qualified,
            blame,
            commitments,
            sink,
        );
    };
    let hash = || {
        let mut t = head_state(ceremony, deals);
        tail(&mut t);
        t.finalize::<32>()
    };
    // The key moves into the table's slot; on a miss `hash` builds the head's key again
    // (once per process), which costs less than copying the key for every party that hits.
    #[cfg(feature = "in-process-sharing")]
    {
        let mut key = head_key(ceremony, deals);
        tail(&mut key);
        *crate::party::shared::memo_over(b"lss-transcript", || key.head, &key.parts, 32, hash)
    }
    #[cfg(not(feature = "in-process-sharing"))]
    hash()
}

/// Hashes the transcript's head (items 1–3: the ceremony, the old group, the deals) ahead
/// of finalize, where parties of this process need it later: the first party to call this
/// hashes it while the others go on, where at finalize every party would need it at once
/// (at n = 128 the deals are some 120 KB to hash, most of the transcript). It never waits.
pub(crate) fn prepare<C: Curve>(ceremony: &Ceremony<C>, deals: &BTreeMap<PartyId, DealMessage<C>>) {
    #[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
    {
        let key = head_key(ceremony, deals);
        crate::party::shared::prepare_over(
            b"lss-transcript-head",
            || key.head,
            &key.parts,
            HEAD_SIZE,
            || head_hashed(ceremony, deals),
        );
    }
    #[cfg(not(all(feature = "in-process-sharing", not(target_arch = "wasm32"))))]
    let _ = (ceremony, deals);
}

/// About the size of a hash state, for the sharing table's budget.
#[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
const HEAD_SIZE: usize = 400;

/// The key of the transcript's head, to which the tail's elements are added for the key of
/// the whole.
#[cfg(feature = "in-process-sharing")]
fn head_key<'a, C: Curve>(ceremony: &Ceremony<C>, deals: &'a BTreeMap<PartyId, DealMessage<C>>) -> Key<'a> {
    let mut key = Key {
        head: Vec::new(),
        parts: Vec::with_capacity(ceremony.dealers.len()),
    };
    head_elements(ceremony, deals, &mut key);
    key
}

/// The hash state after the head: with `in-process-sharing` made once per process (ahead
/// of time by [`prepare`], or here), natively; on WebAssembly, where nothing is prepared,
/// hashed here (the whole transcript is made once per process all the same).
fn head_state<C: Curve>(ceremony: &Ceremony<C>, deals: &BTreeMap<PartyId, DealMessage<C>>) -> Transcript {
    #[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
    {
        let key = head_key(ceremony, deals);
        let made = crate::party::shared::memo_over(
            b"lss-transcript-head",
            || key.head,
            &key.parts,
            HEAD_SIZE,
            || head_hashed(ceremony, deals),
        );
        (*made).clone()
    }
    #[cfg(not(all(feature = "in-process-sharing", not(target_arch = "wasm32"))))]
    head_hashed(ceremony, deals)
}

fn head_hashed<C: Curve>(ceremony: &Ceremony<C>, deals: &BTreeMap<PartyId, DealMessage<C>>) -> Transcript {
    let mut t = Transcript::new(tags::LSS_TRANSCRIPT);
    head_elements(ceremony, deals, &mut t);
    t
}

/// The transcript's first tuple elements (items 1–3 of the module docs), in order (labels
/// and values alike), to `sink`. Never inlined, nor is [`tail_elements`]: each is called
/// for the key and for the hash, and two inlined copies per group cost the full
/// WebAssembly module 22 KB of code.
#[inline(never)]
fn head_elements<'s, C: Curve>(
    ceremony: &Ceremony<C>,
    deals: &'s BTreeMap<PartyId, DealMessage<C>>,
    sink: &mut dyn Sink<'s>,
) {
    sink.bytes(b"curve");
    sink.bytes(C::NAME.as_bytes());
    sink.bytes(b"kind");
    sink.bytes(&[ceremony.kind.to_byte()]);
    sink.bytes(b"mode");
    sink.bytes(&[ceremony.mode.to_byte()]);
    sink.bytes(b"session");
    sink.bytes(&ceremony.session);
    sink.bytes(b"generation");
    sink.bytes(&ceremony.new_generation().to_be_bytes());
    sink.bytes(b"threshold");
    sink.bytes(&ceremony.threshold.to_be_bytes());
    sink.bytes(b"dealers");
    sink.bytes(&id_bytes(&ceremony.dealers));
    sink.bytes(b"receivers");
    sink.bytes(&id_bytes(&ceremony.receivers));
    let old = ceremony.old.as_ref().map(|o| o.to_bytes()).unwrap_or_default();
    sink.bytes(b"old");
    sink.bytes(&old);
    for d in &ceremony.dealers {
        sink.bytes(b"deal");
        sink.bytes(&d.get().to_be_bytes());
        match deals.get(d) {
            Some(m) => sink.deal(&m.raw),
            None => sink.bytes(&[]),
        }
    }
}

/// The rest of the transcript's tuple elements (items 4–6), in order, to `sink`.
#[inline(never)]
fn tail_elements<C: Curve>(
    ceremony: &Ceremony<C>,
    complaints: &BTreeMap<PartyId, ComplaintMessage<C>>,
    responses: &BTreeMap<PartyId, ResponseMessage<C>>,
    qualified: &[PartyId],
    blame: &[Blame],
    commitments: &Commitments<C>,
    sink: &mut dyn Sink<'_>,
) {
    for r in &ceremony.receivers {
        sink.bytes(b"complaint");
        sink.bytes(&r.get().to_be_bytes());
        sink.bytes(complaints.get(r).map_or(&[][..], |m| m.raw.as_slice()));
    }
    for d in &ceremony.dealers {
        sink.bytes(b"response");
        sink.bytes(&d.get().to_be_bytes());
        sink.bytes(responses.get(d).map_or(&[][..], |m| m.raw.as_slice()));
    }
    sink.bytes(b"qualified");
    sink.bytes(&id_bytes(qualified));
    let mut b = Vec::with_capacity(5 * blame.len());
    for entry in blame {
        b.extend_from_slice(&entry.party.get().to_be_bytes());
        b.push(reason_byte(&entry.reason));
        b.extend_from_slice(&entry.reason.related().map_or(0, |p| p.get()).to_be_bytes());
    }
    sink.bytes(b"blame");
    sink.bytes(&b);
    let mut w = Writer::new();
    commitments.write(&mut w);
    sink.bytes(b"commitments");
    sink.bytes(&w.into_bytes());
}

/// The transcript byte of an agreed-blame reason (only the dealing's protocol faults are
/// ever agreed; anything else would be a kernel bug, hashed as 0).
fn reason_byte(reason: &BlameReason) -> u8 {
    match reason {
        BlameReason::MissingDeal => 1,
        BlameReason::MalformedDeal => 2,
        BlameReason::InvalidProof => 3,
        BlameReason::WrongConstant => 4,
        BlameReason::InvalidCommitment => 5,
        BlameReason::UnansweredComplaint { .. } => 6,
        BlameReason::InvalidOpening { .. } => 7,
        BlameReason::FalseComplaint { .. } => 8,
        BlameReason::InvalidComplaint { .. } => 9,
        _ => 0,
    }
}
