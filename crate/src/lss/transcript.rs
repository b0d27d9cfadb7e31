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

fn ids(list: &[PartyId]) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 * list.len());
    for p in list {
        out.extend_from_slice(&p.get().to_be_bytes());
    }
    out
}

/// The transcript hash of a completed dealing (see the module docs).
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
    let mut t = Transcript::new(tags::LSS_TRANSCRIPT);
    t.append(b"curve").append(C::NAME.as_bytes());
    t.append(b"kind").append(&[ceremony.kind.to_byte()]);
    t.append(b"mode").append(&[ceremony.mode.to_byte()]);
    t.append(b"session").append(&ceremony.session);
    t.append(b"generation")
        .append(&ceremony.new_generation().to_be_bytes());
    t.append(b"threshold").append(&ceremony.threshold.to_be_bytes());
    t.append(b"dealers").append(&ids(&ceremony.dealers));
    t.append(b"receivers").append(&ids(&ceremony.receivers));
    let old = ceremony.old.as_ref().map(|o| o.to_bytes()).unwrap_or_default();
    t.append(b"old").append(&old);
    for d in &ceremony.dealers {
        t.append(b"deal").append(&d.get().to_be_bytes());
        t.append(deals.get(d).map_or(&[][..], |m| m.as_bytes()));
    }
    for r in &ceremony.receivers {
        t.append(b"complaint").append(&r.get().to_be_bytes());
        t.append(complaints.get(r).map_or(&[][..], |m| m.raw.as_slice()));
    }
    for d in &ceremony.dealers {
        t.append(b"response").append(&d.get().to_be_bytes());
        t.append(responses.get(d).map_or(&[][..], |m| m.raw.as_slice()));
    }
    t.append(b"qualified").append(&ids(qualified));
    let mut b = Vec::with_capacity(5 * blame.len());
    for entry in blame {
        b.extend_from_slice(&entry.party.get().to_be_bytes());
        b.push(reason_byte(&entry.reason));
        b.extend_from_slice(&entry.reason.related().map_or(0, |p| p.get()).to_be_bytes());
    }
    t.append(b"blame").append(&b);
    let mut w = Writer::new();
    commitments.write(&mut w);
    t.append(b"commitments").append(&w.into_bytes());
    t.finalize()
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
