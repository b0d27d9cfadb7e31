//! The first filter every round applies to its inbox: one message per sender and kind.
//!
//! Messages from the party itself are ignored (a party keeps its own broadcasts; an echo
//! proves nothing). For each other sender, messages are grouped by their 4-byte magic:
//! a byte-identical copy is dropped as [`BlameReason::DuplicateMessage`]; two different
//! messages of one kind are both dropped as [`BlameReason::ConflictingMessage`] (an
//! equivocating sender loses that message at this party). Bytes shorter than a magic are
//! [`BlameReason::Malformed`].

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

/// Applies the filter of the module docs, recording what it drops in `dropped` in inbox
/// order. Sorts the messages by (sender, magic, position) and walks each group, where a
/// map would allocate a node per entry: every party's every round starts here, 172
/// messages per receiver at 128 → 64. Never inlined: every party calls it, and an inlined
/// copy costs a WebAssembly module 2.5 KB.
#[inline(never)]
pub(crate) fn unique<'a>(me: PartyId, inbox: &[Incoming<'a>], dropped: &mut Vec<Blame>) -> Unique<'a> {
    // Sender, magic and position in one integer (a sort of integers is the least code):
    // the high half names the group, the low half is a position (a `usize`, so the casts
    // back lose nothing).
    let key = |from: PartyId, magic: [u8; 4], i: usize| {
        (u128::from(from.get()) << 96) | (u128::from(u32::from_be_bytes(magic)) << 64) | i as u128
    };
    #[allow(clippy::cast_possible_truncation)]
    let position = |k: u128| k as u64 as usize;
    #[allow(clippy::cast_possible_truncation)]
    let magic_of = |k: u128| ((k >> 64) as u32).to_be_bytes();
    let mut keyed: Vec<u128> = Vec::with_capacity(inbox.len());
    // What each message costs its sender, if anything, by position.
    let mut blamed: Vec<Option<Blame>> = Vec::with_capacity(inbox.len());
    let mut malformed = Vec::new();
    for (i, m) in inbox.iter().enumerate() {
        if let Some(magic) = peer_magic(me, m, &mut malformed) {
            keyed.push(key(m.from, magic, i));
        }
        blamed.push(malformed.pop());
    }
    // A simulator or a router delivers in sender order: nothing to sort then.
    if !keyed.is_sorted() {
        crate::sort::heapsort(&mut keyed);
    }
    let mut messages = Vec::with_capacity(keyed.len());
    let mut group = 0;
    while group < keyed.len() {
        let first = position(keyed[group]);
        let (from, kept) = (inbox[first].from, inbox[first].bytes);
        let mut conflicting = false;
        let mut next = group + 1;
        while let Some(&k) = keyed.get(next).filter(|&&k| k >> 64 == keyed[group] >> 64) {
            let i = position(k);
            if conflicting {
                // Both already dropped: a third message of the kind changes nothing.
            } else if crate::ct::bytes_eq(kept, inbox[i].bytes) {
                // Without an early exit: a direct message may carry a secret share.
                blamed[i] = Some(Blame::new(from, BlameReason::DuplicateMessage));
            } else {
                blamed[i] = Some(Blame::new(from, BlameReason::ConflictingMessage));
                conflicting = true;
            }
            next += 1;
        }
        if !conflicting {
            messages.push((from, magic_of(keyed[group]), kept));
        }
        group = next;
    }
    dropped.extend(blamed.into_iter().flatten());
    Unique { messages }
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

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::collections::BTreeMap;
    use rand_core::{RngCore, SeedableRng};

    /// The filter as first written, with a map: the oracle for [`unique`].
    fn unique_by_map<'a>(
        me: PartyId,
        inbox: &[Incoming<'a>],
        dropped: &mut Vec<Blame>,
    ) -> Vec<(PartyId, [u8; 4], &'a [u8])> {
        let mut seen: BTreeMap<(PartyId, [u8; 4]), Option<&'a [u8]>> = BTreeMap::new();
        for m in inbox {
            let Some(magic) = peer_magic(me, m, dropped) else {
                continue;
            };
            match seen.get_mut(&(m.from, magic)) {
                None => {
                    seen.insert((m.from, magic), Some(m.bytes));
                }
                Some(Some(prev)) if *prev == m.bytes => {
                    dropped.push(Blame::new(m.from, BlameReason::DuplicateMessage))
                }
                Some(slot @ Some(_)) => {
                    dropped.push(Blame::new(m.from, BlameReason::ConflictingMessage));
                    *slot = None;
                }
                Some(None) => {}
            }
        }
        seen.into_iter()
            .filter_map(|((f, g), b)| b.map(|b| (f, g, b)))
            .collect()
    }

    #[test]
    fn keeps_and_blames_as_a_map_would_in_inbox_order() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
        // Few senders, kinds and bodies, so that repeats, conflicts and triples are common.
        let bodies: Vec<Vec<u8>> = [&b"LSD1a"[..], b"LSD1b", b"LSP1a", b"LSP1b", b"LS", b"", b"LSC1"]
            .iter()
            .map(|b| b.to_vec())
            .collect();
        let me = PartyId::new(2).unwrap();
        for _ in 0..500 {
            let len = (rng.next_u32() % 12) as usize;
            let inbox: Vec<Incoming<'_>> = (0..len)
                .map(|_| {
                    let from = PartyId::new(1 + (rng.next_u32() % 4) as u16).unwrap();
                    Incoming::new(from, &bodies[(rng.next_u32() as usize) % bodies.len()])
                })
                .collect();
            let (mut got, mut want) = (Vec::new(), Vec::new());
            let kept = unique(me, &inbox, &mut got).messages;
            assert_eq!(kept, unique_by_map(me, &inbox, &mut want));
            assert_eq!(got, want);
        }
    }
}
