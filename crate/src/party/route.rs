//! Routing inside a lifecycle party: which messages of an inbox belong to the phase the
//! party is in. (The randomness of its later phases is Pulsar custody's `PhaseRng`.)
//!
//! Every message of a lifecycle starts with the 4-byte magic of its kind, and each kind
//! belongs to exactly one phase of the path (a dealing's `LSD1`…`LSR1`, the custody
//! session's `PCSS`, `PCR1`, `PCR2`, …): the magic is the routing tag. A phase names the
//! kinds it takes and the kinds it may overhear (broadcasts of a phase running at the same
//! time that this role has no part in, such as the signers' commitments reaching a member
//! that does not sign). Everything else is dropped and its sender named: a kind of the
//! lifecycle that belongs to another phase, early or late, is
//! [`BlameReason::WrongKind`]; bytes with no known magic are
//! [`BlameReason::Malformed`]. The messages a phase takes then go through the inner
//! party's own checks (session, sender, recipient, generation, duplicates).

use alloc::vec::Vec;

use super::inbox::peer_magic;
use super::{Blame, BlameReason, Incoming};
use crate::wire;
use crate::PartyId;

/// The messages of `inbox` a phase takes (kinds in `takes`); kinds in `overhears` are
/// ignored; everything else is recorded in `dropped` (see the module docs). `known` is
/// every kind of the lifecycle. Messages from `me` are ignored, and bytes shorter than a
/// magic dropped, as by every inbox filter ([`peer_magic`]).
pub(crate) fn route<'a>(
    me: PartyId,
    inbox: &[Incoming<'a>],
    takes: &[&[u8; 4]],
    overhears: &[&[u8; 4]],
    known: &[&[u8; 4]],
    dropped: &mut Vec<Blame>,
) -> Vec<Incoming<'a>> {
    let mut out = Vec::new();
    for m in inbox {
        let Some(magic) = peer_magic(me, m, dropped) else {
            continue;
        };
        if takes.contains(&&magic) {
            out.push(*m);
        } else if overhears.contains(&&magic) {
            // A broadcast of a concurrent phase this role has no part in.
        } else if known.contains(&&magic) {
            dropped.push(Blame::new(m.from, BlameReason::WrongKind));
        } else {
            let expected = takes.first().map_or(*b"????", |t| **t);
            dropped.push(Blame::new(
                m.from,
                BlameReason::Malformed(wire::Error::BadMagic {
                    found: magic,
                    expected,
                }),
            ));
        }
    }
    out
}
