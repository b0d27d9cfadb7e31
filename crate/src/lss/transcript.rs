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

/// One tuple element: bytes, or a deal's bytes as the parties of a process share them.
enum Element<'t, 's> {
    Bytes(&'t [u8]),
    Shared(&'s Held<Vec<u8>>),
}

impl Element<'_, '_> {
    fn bytes(&self) -> &[u8] {
        match self {
            Element::Bytes(b) => b,
            Element::Shared(b) => b,
        }
    }
}

/// The transcript hash of a completed dealing (see the module docs). Every party of a
/// process hashes the same public transcript, so with `in-process-sharing` it is hashed once
/// per process (`party::shared`, keyed by the elements themselves, compared in full; the
/// deals, the bulk of it, as the process's shared copies of their bytes, so that no party
/// copies them into a key).
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
    let each = |sink: &mut dyn FnMut(Element<'_, '_>)| {
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
        // The key: each element with its length, a shared one marked by a length no
        // element has and listed in `parts`.
        let mut head = Vec::new();
        let mut parts = Vec::with_capacity(ceremony.dealers.len());
        elements(
            ceremony,
            deals,
            complaints,
            responses,
            qualified,
            blame,
            commitments,
            &mut |e| match e {
                Element::Bytes(b) => {
                    head.extend_from_slice(&(b.len() as u64).to_le_bytes());
                    head.extend_from_slice(b);
                }
                Element::Shared(b) => {
                    head.extend_from_slice(&u64::MAX.to_le_bytes());
                    parts.push(b);
                }
            },
        );
        let hash = crate::party::shared::memo_over(
            b"lss-transcript",
            || head,
            &parts,
            32,
            || {
                let mut t = Transcript::new(tags::LSS_TRANSCRIPT);
                each(&mut |e| {
                    t.append(e.bytes());
                });
                t.finalize::<32>()
            },
        );
        *hash
    }
    #[cfg(not(feature = "in-process-sharing"))]
    {
        let mut t = Transcript::new(tags::LSS_TRANSCRIPT);
        each(&mut |e| {
            t.append(e.bytes());
        });
        t.finalize()
    }
}

/// The transcript's tuple elements, in order (labels and values alike), to `sink`.
#[allow(clippy::too_many_arguments)]
fn elements<'s, C: Curve>(
    ceremony: &Ceremony<C>,
    deals: &'s BTreeMap<PartyId, DealMessage<C>>,
    complaints: &BTreeMap<PartyId, ComplaintMessage<C>>,
    responses: &BTreeMap<PartyId, ResponseMessage<C>>,
    qualified: &[PartyId],
    blame: &[Blame],
    commitments: &Commitments<C>,
    sink: &mut dyn FnMut(Element<'_, 's>),
) {
    use Element::{Bytes, Shared};
    sink(Bytes(b"curve"));
    sink(Bytes(C::NAME.as_bytes()));
    sink(Bytes(b"kind"));
    sink(Bytes(&[ceremony.kind.to_byte()]));
    sink(Bytes(b"mode"));
    sink(Bytes(&[ceremony.mode.to_byte()]));
    sink(Bytes(b"session"));
    sink(Bytes(&ceremony.session));
    sink(Bytes(b"generation"));
    sink(Bytes(&ceremony.new_generation().to_be_bytes()));
    sink(Bytes(b"threshold"));
    sink(Bytes(&ceremony.threshold.to_be_bytes()));
    sink(Bytes(b"dealers"));
    sink(Bytes(&ids(&ceremony.dealers)));
    sink(Bytes(b"receivers"));
    sink(Bytes(&ids(&ceremony.receivers)));
    let old = ceremony.old.as_ref().map(|o| o.to_bytes()).unwrap_or_default();
    sink(Bytes(b"old"));
    sink(Bytes(&old));
    for d in &ceremony.dealers {
        sink(Bytes(b"deal"));
        sink(Bytes(&d.get().to_be_bytes()));
        sink(deals.get(d).map_or(Bytes(&[]), |m| Shared(&m.raw)));
    }
    for r in &ceremony.receivers {
        sink(Bytes(b"complaint"));
        sink(Bytes(&r.get().to_be_bytes()));
        sink(Bytes(complaints.get(r).map_or(&[][..], |m| m.raw.as_slice())));
    }
    for d in &ceremony.dealers {
        sink(Bytes(b"response"));
        sink(Bytes(&d.get().to_be_bytes()));
        sink(Bytes(responses.get(d).map_or(&[][..], |m| m.raw.as_slice())));
    }
    sink(Bytes(b"qualified"));
    sink(Bytes(&ids(qualified)));
    let mut b = Vec::with_capacity(5 * blame.len());
    for entry in blame {
        b.extend_from_slice(&entry.party.get().to_be_bytes());
        b.push(reason_byte(&entry.reason));
        b.extend_from_slice(&entry.reason.related().map_or(0, |p| p.get()).to_be_bytes());
    }
    sink(Bytes(b"blame"));
    sink(Bytes(&b));
    let mut w = Writer::new();
    commitments.write(&mut w);
    sink(Bytes(b"commitments"));
    sink(Bytes(&w.into_bytes()));
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
