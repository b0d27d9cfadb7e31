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

/// The magic of `m`, a message in `me`'s inbox: `None` for `me`'s own message (ignored)
/// and for bytes shorter than a magic (recorded in `dropped` as
/// [`BlameReason::Malformed`]). Every filter of an inbox starts here.
pub(crate) fn peer_magic(me: PartyId, m: &Incoming<'_>, dropped: &mut Vec<Blame>) -> Option<[u8; 4]> {
    if m.from == me {
        return None;
    }
    let Some(magic) = m.bytes.first_chunk::<4>() else {
        dropped.push(Blame::new(
            m.from,
            BlameReason::Malformed(wire::Error::TooShort {
                needed: 4,
                got: m.bytes.len(),
            }),
        ));
        return None;
    };
    Some(*magic)
}

/// Applies the filter of the module docs, recording what it drops in `dropped`.
pub(crate) fn unique<'a>(me: PartyId, inbox: &[Incoming<'a>], dropped: &mut Vec<Blame>) -> Unique<'a> {
    // (sender, magic) -> Some(bytes) while unique, None once conflicting.
    let mut seen: BTreeMap<(PartyId, [u8; 4]), Option<&'a [u8]>> = BTreeMap::new();
    for m in inbox {
        let Some(magic) = peer_magic(me, m, dropped) else {
            continue;
        };
        match seen.get_mut(&(m.from, magic)) {
            None => {
                seen.insert((m.from, magic), Some(m.bytes));
            }
            Some(slot) => match slot {
                // Without an early exit: a direct message may carry a secret share.
                Some(prev) if crate::ct::bytes_eq(prev, m.bytes) => {
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

/// What a composite party drops (`outer`, emptied here), then what its inner party
/// dropped (`inner`), as one tidied list ([`tidy`]): the `dropped` of a path's outcome.
pub(crate) fn merged(outer: &mut Vec<Blame>, inner: impl IntoIterator<Item = Blame>) -> Vec<Blame> {
    let mut all = core::mem::take(outer);
    all.extend(inner);
    tidy(&mut all);
    all
}

/// Sorts a list of blame by party, then code, and removes exact repeats.
pub(crate) fn tidy(list: &mut Vec<Blame>) {
    crate::sort::sort_by_key_stable(list, |b| (b.party, b.reason.code()));
    list.dedup();
}
