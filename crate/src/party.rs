//! The one shape every protocol party has: bytes in, bytes out, one round at a time.
//!
//! A party of any protocol here (LSS dealing, Lens and Pulsar signing, and the protocols
//! still to come) is built by its protocol's `start` function, which returns the party
//! and its first [`Outgoing`] messages. From then on the caller delivers, round by round,
//! an inbox of [`Incoming`] messages — each the transport's authenticated sender and the
//! bytes — to [`Party::step`], which returns either the next [`Outgoing`]
//! ([`Step::Continue`]) or the party's last messages and its output ([`Step::Done`]).
//! Networking is not the protocol's business: a channel, a server, a Web Worker pool or
//! the in-process [`sim`]ulator deliver the bytes, and nothing above the protocol modules
//! ever implements a round.
//!
//! ```text
//! start(params, rng) ──► (party, Outgoing)
//! party.step(inbox₁) ──► Continue(Outgoing)
//!   …
//! party.step(inboxₖ) ──► Done(Outgoing, Output)      (Output carries the blame)
//! ```
//!
//! # The robustness rule
//!
//! A peer can never knock a party out. A message that fails any check — decoding,
//! session, recipient, kind, sender, generation, set membership, duplicate — is dropped
//! and its sender is named ([`Blame`], with a message-fault [`BlameReason`]); it never
//! aborts the step and never consumes the party's state. A step fails only on the
//! caller's own inconsistent input, or when too few honest parties remain (a typed
//! error; old key shares are never touched). **On every error the party keeps its whole
//! state**: it is exactly where it was before the call, so a step can be retried with
//! another inbox, and the party can always be dropped (which wipes its secrets).
//!
//! # Channels
//!
//! [`Outgoing::broadcast`] goes to every other participant of the protocol over a
//! reliable, authenticated broadcast channel; each [`Direct`] message goes to its one
//! recipient over a confidential, authenticated channel (each protocol's docs say which
//! messages are secret). `Incoming::from` must be the sender the transport
//! authenticated — every check and every blame rests on it.

mod blame;
#[cfg(feature = "hazmat")]
pub mod hazmat;
mod id;
#[cfg(feature = "threshold")]
pub(crate) mod inbox;
#[cfg(feature = "sim")]
pub mod sim;

use alloc::vec::Vec;
use core::fmt;

use zeroize::Zeroizing;

pub use blame::{culprits, Blame, BlameReason};
pub use id::{Parties, PartyId};

/// The misbehaviour kinds: [`hazmat::Cheat`] with the `hazmat` feature, none without.
#[cfg(feature = "hazmat")]
pub(crate) use hazmat::Cheat as CheatKind;

/// Without the `hazmat` feature there is no misbehaviour (an uninhabited type).
#[cfg(all(feature = "threshold", not(feature = "hazmat")))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CheatKind {}

/// How a party misbehaves, if at all (always `None` without the `hazmat` feature).
#[cfg(feature = "threshold")]
pub(crate) type Misbehaviour = Option<CheatKind>;

/// Applies the byte-level misbehaviours to what a party is about to send (a no-op
/// without the `hazmat` feature).
#[cfg(feature = "threshold")]
pub(crate) fn misbehave(_cheat: Misbehaviour, _out: &mut Outgoing) {
    #[cfg(feature = "hazmat")]
    hazmat::apply(_cheat, _out);
}

/// One private message: its recipient and the bytes.
///
/// # Security
/// May hold secret material (a share): the buffer is wiped when dropped. Send it over a
/// confidential, authenticated channel.
pub struct Direct {
    /// The recipient.
    pub to: PartyId,
    /// The message.
    pub bytes: Zeroizing<Vec<u8>>,
}

impl fmt::Debug for Direct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Direct")
            .field("to", &self.to)
            .field("len", &self.bytes.len())
            .finish()
    }
}

/// The messages a party sends after a step.
#[derive(Debug, Default)]
pub struct Outgoing {
    /// To every other participant (reliable, authenticated broadcast), if any.
    pub broadcast: Option<Vec<u8>>,
    /// To one recipient each (confidential, authenticated), in increasing recipient order.
    pub direct: Vec<Direct>,
}

impl Outgoing {
    /// Nothing to send.
    pub fn none() -> Outgoing {
        Outgoing::default()
    }

    /// A broadcast only.
    pub fn broadcast(bytes: Vec<u8>) -> Outgoing {
        Outgoing {
            broadcast: Some(bytes),
            direct: Vec::new(),
        }
    }

    /// One private message only.
    pub fn to(to: PartyId, bytes: Zeroizing<Vec<u8>>) -> Outgoing {
        Outgoing {
            broadcast: None,
            direct: alloc::vec![Direct { to, bytes }],
        }
    }

    /// Whether there is nothing to send.
    pub fn is_empty(&self) -> bool {
        self.broadcast.is_none() && self.direct.is_empty()
    }
}

/// One received message: the transport's authenticated sender and the bytes.
#[derive(Debug, Clone, Copy)]
pub struct Incoming<'a> {
    /// Who sent it, as the transport authenticated it.
    pub from: PartyId,
    /// The bytes.
    pub bytes: &'a [u8],
}

impl<'a> Incoming<'a> {
    /// A message from `from`.
    pub fn new(from: PartyId, bytes: &'a [u8]) -> Self {
        Incoming { from, bytes }
    }
}

/// What a step returns.
#[derive(Debug)]
pub enum Step<O> {
    /// More rounds follow: send these, then call [`Party::step`] with the next inbox.
    Continue(Outgoing),
    /// This party is finished: send these last messages (often none) and take the output.
    Done(Outgoing, O),
}

impl<O> Step<O> {
    /// The messages to send.
    pub fn outgoing(&self) -> &Outgoing {
        match self {
            Step::Continue(o) | Step::Done(o, _) => o,
        }
    }

    /// Maps the output.
    pub fn map<P>(self, f: impl FnOnce(O) -> P) -> Step<P> {
        match self {
            Step::Continue(o) => Step::Continue(o),
            Step::Done(o, out) => Step::Done(o, f(out)),
        }
    }
}

/// A round of a protocol, for progress displays: its number (1 = the inbox after
/// `start`) and a short name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Round {
    /// The number of the inbox the next [`Party::step`] expects (1-based).
    pub number: u8,
    /// What the party does with that inbox (`"check shares"`, `"sign"`, …).
    pub name: &'static str,
}

/// A protocol party: see the module docs.
pub trait Party {
    /// What the party ends with (it carries the blame).
    type Output;

    /// This party's id.
    fn id(&self) -> PartyId;

    /// The round the next [`Party::step`] runs, or `None` once finished.
    fn round(&self) -> Option<Round>;

    /// Runs one round on the messages received for it.
    ///
    /// # Errors
    /// [`Error::Finished`] after the last round; otherwise only the protocol's own
    /// terminal failures (too few honest parties) or the caller's inconsistent input —
    /// never a peer's bad message. On error the party keeps its state.
    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<Self::Output>, crate::Error>;
}

/// Errors of the party layer itself.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A step was called after the party finished.
    #[error("the party has finished")]
    Finished,
    /// A round needs a message that no valid inbox entry provided (the party keeps
    /// waiting: call the step again with the message).
    #[error("no valid message from {party} in this round")]
    Waiting {
        /// Whose message is needed.
        party: PartyId,
    },
}

impl Error {
    /// A stable code for this error.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Finished => "PARTY_FINISHED",
            Error::Waiting { .. } => "MISSING_MESSAGE",
        }
    }

    /// The parties this error blames.
    pub fn culprits(&self) -> &[PartyId] {
        match self {
            // A missing message proves nothing (the network may have lost it).
            Error::Finished | Error::Waiting { .. } => &[],
        }
    }
}
