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

/// The transcript hash of a completed dealing (see the module docs). Every party of a
/// process hashes the same public transcript, so with `in-process-sharing` it is hashed once
/// per process (`party::shared`, keyed by the elements themselves, compared in full: copying
/// and comparing them costs a small fraction of hashing them).
#[allow(clippy::too_many_arguments)]
pub(crate) fn transcript_hash<C: Curve>(
    ceremony: &Ceremony<C>,
    deals: &BTreeMap<PartyId, DealMessage<C>>,
    complaints: &BTreeMap<PartyId, ComplaintMessage<C>>,
    responses: &BTreeMap<PartyId, ResponseMessage<C>>,
    qualified: &[PartyId],
    blame: &[Blame],
    commitments: &Commitments<C>,
) -> [u8; 32] {
    let each = |sink: &mut dyn FnMut(&[u8])| {
        elements(
            ceremony,
            deals,
            complaints,
            responses,
            qualified,
            blame,
            commitments,
            sink,
        )
    };
    #[cfg(feature = "in-process-sharing")]
    {
        let mut parts: Vec<Vec<u8>> = Vec::new();
        each(&mut |e| parts.push(e.to_vec()));
        let key = || crate::party::shared::key_of(parts.iter().map(Vec::as_slice));
        let hash = crate::party::shared::memo(b"lss-transcript", key, 32, || {
            let mut t = Transcript::new(tags::LSS_TRANSCRIPT);
            for part in &parts {
                t.append(part);
            }
            t.finalize::<32>()
        });
        *hash
    }
    #[cfg(not(feature = "in-process-sharing"))]
    {
        let mut t = Transcript::new(tags::LSS_TRANSCRIPT);
        each(&mut |e| {
            t.append(e);
        });
        t.finalize()
    }
}

/// The transcript's tuple elements, in order (labels and values alike), to `sink`.
#[allow(clippy::too_many_arguments)]
fn elements<C: Curve>(
    ceremony: &Ceremony<C>,
    deals: &BTreeMap<PartyId, DealMessage<C>>,
    complaints: &BTreeMap<PartyId, ComplaintMessage<C>>,
    responses: &BTreeMap<PartyId, ResponseMessage<C>>,
    qualified: &[PartyId],
    blame: &[Blame],
    commitments: &Commitments<C>,
    sink: &mut dyn FnMut(&[u8]),
) {
    sink(b"curve");
    sink(C::NAME.as_bytes());
    sink(b"kind");
    sink(&[ceremony.kind.to_byte()]);
    sink(b"mode");
    sink(&[ceremony.mode.to_byte()]);
    sink(b"session");
    sink(&ceremony.session);
    sink(b"generation");
    sink(&ceremony.new_generation().to_be_bytes());
    sink(b"threshold");
    sink(&ceremony.threshold.to_be_bytes());
    sink(b"dealers");
    sink(&ids(&ceremony.dealers));
    sink(b"receivers");
    sink(&ids(&ceremony.receivers));
    let old = ceremony.old.as_ref().map(|o| o.to_bytes()).unwrap_or_default();
    sink(b"old");
    sink(&old);
    for d in &ceremony.dealers {
        sink(b"deal");
        sink(&d.get().to_be_bytes());
        sink(deals.get(d).map_or(&[][..], |m| m.as_bytes()));
    }
    for r in &ceremony.receivers {
        sink(b"complaint");
        sink(&r.get().to_be_bytes());
        sink(complaints.get(r).map_or(&[][..], |m| m.raw.as_slice()));
    }
    for d in &ceremony.dealers {
        sink(b"response");
        sink(&d.get().to_be_bytes());
        sink(responses.get(d).map_or(&[][..], |m| m.raw.as_slice()));
    }
    sink(b"qualified");
    sink(&ids(qualified));
    let mut b = Vec::with_capacity(5 * blame.len());
    for entry in blame {
        b.extend_from_slice(&entry.party.get().to_be_bytes());
        b.push(reason_byte(&entry.reason));
        b.extend_from_slice(&entry.reason.related().map_or(0, |p| p.get()).to_be_bytes());
    }
    sink(b"blame");
    sink(&b);
    let mut w = Writer::new();
    commitments.write(&mut w);
    sink(b"commitments");
    sink(&w.into_bytes());
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
