//! Misbehaviour, for demos and tests: one cheating-party model shared by every protocol,
//! the WASM demo, the CLI and the tests (feature `hazmat`).
//!
//! A cheating party misbehaves only in what it sends; an honest party facing it drops and
//! names it (message faults) or proves it cheated (protocol faults). Each [`Cheat`] says
//! which blame code honest parties report, so every front end can assert the same one.
//!
//! # Security
//! These hooks make a party send wrong messages on purpose. They exist to show and test
//! detection; they never weaken the honest parties, but a party running one is, by
//! definition, not honest.

use alloc::vec::Vec;

use super::Outgoing;

/// How a party misbehaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Cheat {
    /// Dealing (DKG, refresh, reshare): every private share is off by one, and the
    /// complaints are "answered" with the same wrong shares. Honest parties disqualify
    /// the dealer: `INVALID_OPENING`.
    BadShares,
    /// Dealing: each receiver is handed the well-formed share message made for another
    /// receiver. The receivers drop it (`WRONG_RECIPIENT`) and complain; the dealer's
    /// honest openings then settle the shares, and the dealing completes.
    Misaddress,
    /// Signing: an invalid contribution — Lens: a signature share off by one
    /// (`INVALID_SIGNATURE_SHARE`); Pulsar: a released share off by one, committed to in
    /// round 1 (`INVALID_SHARE`).
    BadContribution,
    /// Any round: the broadcast cut short by one byte (or, in a round where the party
    /// sends only private messages — a Lens signer —, each of them), so it does not
    /// decode (`MALFORMED_MESSAGE`; in a dealing, the dealer then also has no deal:
    /// `MISSING_DEAL`).
    Garbage,
}

impl Cheat {
    /// Every misbehaviour.
    pub const ALL: [Cheat; 4] = [
        Cheat::BadShares,
        Cheat::Misaddress,
        Cheat::BadContribution,
        Cheat::Garbage,
    ];

    /// The name front ends use (`"bad-shares"`, `"misaddress"`, `"bad-contribution"`,
    /// `"garbage"`).
    pub fn name(self) -> &'static str {
        match self {
            Cheat::BadShares => "bad-shares",
            Cheat::Misaddress => "misaddress",
            Cheat::BadContribution => "bad-contribution",
            Cheat::Garbage => "garbage",
        }
    }

    /// The misbehaviour named `name`.
    pub fn from_name(name: &str) -> Option<Cheat> {
        Cheat::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Whether the misbehaviour acts in dealings.
    pub fn in_dealing(self) -> bool {
        matches!(self, Cheat::BadShares | Cheat::Misaddress | Cheat::Garbage)
    }

    /// Whether the misbehaviour acts in signing sessions.
    pub fn in_signing(self) -> bool {
        matches!(self, Cheat::BadContribution | Cheat::Garbage)
    }
}

/// Applies the byte-level misbehaviours ([`Cheat::Misaddress`], [`Cheat::Garbage`]) to
/// what a party is about to send; the others act inside the protocols.
pub(crate) fn apply(cheat: Option<Cheat>, out: &mut Outgoing) {
    match cheat {
        Some(Cheat::Misaddress) if out.direct.len() > 1 => {
            // Receiver i gets the message made for receiver i + 1.
            let mut bytes: Vec<_> = out
                .direct
                .iter_mut()
                .map(|d| core::mem::take(&mut d.bytes))
                .collect();
            bytes.rotate_left(1);
            for (d, b) in out.direct.iter_mut().zip(bytes) {
                d.bytes = b;
            }
        }
        Some(Cheat::Garbage) => match out.broadcast.as_mut() {
            Some(b) => {
                b.pop();
            }
            // A party that sends only privately (a Lens signer, a Pulsar signer's
            // release): each private message cut short.
            None => {
                for d in out.direct.iter_mut() {
                    d.bytes.pop();
                }
            }
        },
        _ => {}
    }
}
