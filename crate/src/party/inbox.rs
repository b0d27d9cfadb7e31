//! The first filter every round applies to its inbox: one message per sender and kind.
//!
//! Messages from the party itself are ignored (a party keeps its own broadcasts; an echo
//! proves nothing). For each other sender, messages are grouped by their 4-byte magic:
//! a byte-identical copy is dropped as [`BlameReason::DuplicateMessage`]; two different
//! messages of one kind are both dropped as [`BlameReason::ConflictingMessage`] (an
//! equivocating sender loses that message at this party). Bytes shorter than a magic are
//! [`BlameReason::Malformed`].

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use super::{Blame, BlameReason, Incoming};
use crate::wire;
use crate::PartyId;

/// The messages left after [`unique`]: at most one per (sender, magic), in increasing
/// sender order.
pub(crate) struct Unique<'a> {
    pub(crate) messages: Vec<(PartyId, [u8; 4], &'a [u8])>,
}

/// Applies the filter of the module docs, recording what it drops in `dropped`.
pub(crate) fn unique<'a>(me: PartyId, inbox: &[Incoming<'a>], dropped: &mut Vec<Blame>) -> Unique<'a> {
    // (sender, magic) -> Some(bytes) while unique, None once conflicting.
    let mut seen: BTreeMap<(PartyId, [u8; 4]), Option<&'a [u8]>> = BTreeMap::new();
    for m in inbox {
        if m.from == me {
            continue;
        }
        let Some(magic) = m.bytes.get(..4) else {
            dropped.push(Blame::new(
                m.from,
                BlameReason::Malformed(wire::Error::TooShort {
                    needed: 4,
                    got: m.bytes.len(),
                }),
            ));
            continue;
        };
        let mut key_magic = [0u8; 4];
        key_magic.copy_from_slice(magic);
        match seen.get_mut(&(m.from, key_magic)) {
            None => {
                seen.insert((m.from, key_magic), Some(m.bytes));
            }
            Some(slot) => match slot {
                Some(prev) if *prev == m.bytes => {
                    dropped.push(Blame::new(m.from, BlameReason::DuplicateMessage));
                }
                Some(_) => {
                    dropped.push(Blame::new(m.from, BlameReason::ConflictingMessage));
                    *slot = None;
                }
                None => {}
            },
        }
    }
    Unique {
        messages: seen
            .into_iter()
            .filter_map(|((from, magic), bytes)| bytes.map(|b| (from, magic, b)))
            .collect(),
    }
}

/// Sorts a list of blame by party, then code, and removes exact repeats.
pub(crate) fn tidy(list: &mut Vec<Blame>) {
    list.sort_by(|a, b| (a.party, a.reason.code()).cmp(&(b.party, b.reason.code())));
    list.dedup();
}
