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

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use super::{Ceremony, ComplaintMessage, DealMessage, ResponseMessage};
use crate::hash::{tags, Transcript};
use crate::party::shared::Held;
use crate::party::{Blame, BlameReason};
use crate::vss::{Commitments, Curve};
use crate::wire::Writer;
use crate::PartyId;

/// Ids as bytes, u16 big-endian each (the transcript's id lists; the shared checks' keys).
pub(super) fn ids(list: &[PartyId]) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 * list.len());
    for p in list {
        out.extend_from_slice(&p.get().to_be_bytes());
    }
    out
}

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
    let walk = |sink: &mut dyn Sink<'a>| {
        elements(
            ceremony,
            deals,
            complaints,
            responses,
            qualified,
            blame,
            commitments,
            sink,
        );
    };
    let hash = || {
        let mut t = Transcript::new(tags::LSS_TRANSCRIPT);
        walk(&mut t);
        t.finalize::<32>()
    };
    #[cfg(feature = "in-process-sharing")]
    {
        let mut key = Key {
            head: Vec::new(),
            parts: Vec::with_capacity(ceremony.dealers.len()),
        };
        walk(&mut key);
        *crate::party::shared::memo_over(b"lss-transcript", || key.head, &key.parts, 32, hash)
    }
    #[cfg(not(feature = "in-process-sharing"))]
    hash()
}

/// The transcript's tuple elements, in order (labels and values alike), to `sink`. Never
/// inlined: it is called for the key and for the hash, and two inlined copies of it per
/// group cost the full WebAssembly module 22 KB of code.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn elements<'s, C: Curve>(
    ceremony: &Ceremony<C>,
    deals: &'s BTreeMap<PartyId, DealMessage<C>>,
    complaints: &BTreeMap<PartyId, ComplaintMessage<C>>,
    responses: &BTreeMap<PartyId, ResponseMessage<C>>,
    qualified: &[PartyId],
    blame: &[Blame],
    commitments: &Commitments<C>,
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
    sink.bytes(&ids(&ceremony.dealers));
    sink.bytes(b"receivers");
    sink.bytes(&ids(&ceremony.receivers));
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
    sink.bytes(&ids(qualified));
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
