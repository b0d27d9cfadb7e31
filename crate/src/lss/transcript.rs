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

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::vec;
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

/// The transcript hash of a completed dealing (see the module docs). Every party of a
/// process hashes the same public transcript, so it is hashed once per process
/// (`party::shared`, keyed by the elements themselves, compared in full: copying and
/// comparing them costs a small fraction of hashing them).
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
    let elements = elements(
        ceremony,
        deals,
        complaints,
        responses,
        qualified,
        blame,
        commitments,
    );
    let hash = crate::party::shared::memo(
        b"lss-transcript",
        || crate::party::shared::key_of(elements.iter().map(|e| &e[..])),
        32,
        || {
            let mut t = Transcript::new(tags::LSS_TRANSCRIPT);
            for e in &elements {
                t.append(e);
            }
            t.finalize::<32>()
        },
    );
    *hash
}

/// The transcript's tuple elements, in order (labels and values alike).
#[allow(clippy::too_many_arguments)]
fn elements<'a, C: Curve>(
    ceremony: &'a Ceremony<C>,
    deals: &'a BTreeMap<PartyId, DealMessage<C>>,
    complaints: &'a BTreeMap<PartyId, ComplaintMessage<C>>,
    responses: &'a BTreeMap<PartyId, ResponseMessage<C>>,
    qualified: &[PartyId],
    blame: &[Blame],
    commitments: &Commitments<C>,
) -> Vec<Cow<'a, [u8]>> {
    let n = ceremony.dealers.len();
    let mut e: Vec<Cow<'a, [u8]>> = Vec::with_capacity(24 + 6 * n + 3 * ceremony.receivers.len());
    let id = |p: &PartyId| Cow::Owned(p.get().to_be_bytes().to_vec());
    let label = |l: &'static [u8]| Cow::Borrowed(l);
    e.extend([label(b"curve"), Cow::Borrowed(C::NAME.as_bytes())]);
    e.extend([label(b"kind"), Cow::Owned(vec![ceremony.kind.to_byte()])]);
    e.extend([label(b"mode"), Cow::Owned(vec![ceremony.mode.to_byte()])]);
    e.extend([label(b"session"), Cow::Borrowed(&ceremony.session[..])]);
    e.extend([
        label(b"generation"),
        Cow::Owned(ceremony.new_generation().to_be_bytes().to_vec()),
    ]);
    e.extend([
        label(b"threshold"),
        Cow::Owned(ceremony.threshold.to_be_bytes().to_vec()),
    ]);
    e.extend([label(b"dealers"), Cow::Owned(ids(&ceremony.dealers))]);
    e.extend([label(b"receivers"), Cow::Owned(ids(&ceremony.receivers))]);
    let old = ceremony.old.as_ref().map(|o| o.to_bytes()).unwrap_or_default();
    e.extend([label(b"old"), Cow::Owned(old)]);
    for d in &ceremony.dealers {
        e.extend([label(b"deal"), id(d)]);
        e.push(Cow::Borrowed(deals.get(d).map_or(&[][..], |m| m.as_bytes())));
    }
    for r in &ceremony.receivers {
        e.extend([label(b"complaint"), id(r)]);
        e.push(Cow::Borrowed(
            complaints.get(r).map_or(&[][..], |m| m.raw.as_slice()),
        ));
    }
    for d in &ceremony.dealers {
        e.extend([label(b"response"), id(d)]);
        e.push(Cow::Borrowed(
            responses.get(d).map_or(&[][..], |m| m.raw.as_slice()),
        ));
    }
    e.extend([label(b"qualified"), Cow::Owned(ids(qualified))]);
    let mut b = Vec::with_capacity(5 * blame.len());
    for entry in blame {
        b.extend_from_slice(&entry.party.get().to_be_bytes());
        b.push(reason_byte(&entry.reason));
        b.extend_from_slice(&entry.reason.related().map_or(0, |p| p.get()).to_be_bytes());
    }
    e.extend([label(b"blame"), Cow::Owned(b)]);
    let mut w = Writer::new();
    commitments.write(&mut w);
    e.extend([label(b"commitments"), Cow::Owned(w.into_bytes())]);
    e
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
