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
//! party.step(inbox₂) ──► Waiting                     (nothing to do yet: deliver more)
//!   …
//! party.step(inboxₖ) ──► Done(Outgoing, Output)      (Output carries the blame)
//! ```
//!
//! [`Step::Waiting`] is an ordinary result, as round-based's `NeedsOneMoreMessage`: the
//! party needs a message that has not arrived (a lifecycle member waiting for the
//! combiner's session, a signer waiting for the signing package). It changed nothing but
//! what it recorded about dropped messages; deliver more and step again. A transport never
//! has to catch an error to learn that a party is simply waiting.
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
#[cfg(feature = "protocols")]
pub(crate) mod inbox;
#[cfg(feature = "protocols")]
pub mod keyring;
#[cfg(feature = "protocols")]
pub(crate) mod route;
#[cfg(feature = "protocols")]
pub(crate) mod shared;
#[cfg(feature = "sim")]
pub mod sim;
// The devnet (`cert::devnet`) runs its Pulsar group on the simulator; the `devnet` feature has
// the devnet without offering the simulator, whose test hooks it leaves unused.
#[cfg(all(feature = "devnet", not(feature = "sim"), not(feature = "light")))]
#[allow(dead_code, unreachable_pub)]
pub(crate) mod sim;

use alloc::vec::Vec;
use core::fmt;

use zeroize::Zeroizing;

pub use blame::{culprits, Blame, BlameReason};
#[cfg(feature = "protocols")]
pub(crate) use id::{id_bytes, sorted_distinct};
pub use id::{Parties, PartyId};
#[cfg(all(feature = "protocols", feature = "in-process-sharing"))]
pub use shared::release as release_shared;

/// The misbehaviour kinds: [`hazmat::Cheat`] with the `hazmat` feature, none without.
#[cfg(feature = "hazmat")]
pub(crate) use hazmat::Cheat as CheatKind;

/// Without the `hazmat` feature there is no misbehaviour (an uninhabited type).
#[cfg(all(feature = "protocols", not(feature = "hazmat")))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CheatKind {}

/// How a party misbehaves, if at all (always `None` without the `hazmat` feature).
#[cfg(feature = "protocols")]
pub(crate) type Misbehaviour = Option<CheatKind>;

/// Applies the byte-level misbehaviours to what a party is about to send (a no-op
/// without the `hazmat` feature).
#[cfg(feature = "protocols")]
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
    /// The party needs a message it has not received yet: it sends nothing and stays in
    /// its round; call [`Party::step`] again with the next messages. Not a fault: a
    /// message that failed a check was still dropped and named.
    Waiting,
}

/// Nothing to send (what [`Step::outgoing`] shows for [`Step::Waiting`]).
static NOTHING: Outgoing = Outgoing {
    broadcast: None,
    direct: Vec::new(),
};

impl<O> Step<O> {
    /// The messages to send (none while waiting).
    pub fn outgoing(&self) -> &Outgoing {
        match self {
            Step::Continue(o) | Step::Done(o, _) => o,
            Step::Waiting => &NOTHING,
        }
    }

    /// Whether the party is waiting for more messages.
    pub fn is_waiting(&self) -> bool {
        matches!(self, Step::Waiting)
    }

    /// Maps the output.
    pub fn map<P>(self, f: impl FnOnce(O) -> P) -> Step<P> {
        match self {
            Step::Continue(o) => Step::Continue(o),
            Step::Done(o, out) => Step::Done(o, f(out)),
            Step::Waiting => Step::Waiting,
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

    /// The messages this party has dropped so far, with their senders and why. A robust
    /// party reports its drops with its output and returns nothing here (the default); a
    /// party of a protocol that cannot finish without every participant (the Pulsar
    /// committee) reports them as they happen, so that a host giving up on it while it waits
    /// can still name who sent what it dropped.
    fn dropped_so_far(&self) -> &[Blame] {
        &[]
    }
}

/// Errors of the party layer itself.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A step was called after the party finished.
    #[error("the party has finished")]
    Finished,
    /// A party was still waiting for a message when its host gave up on it (the
    /// in-process simulator after its round limit, or a host's timeout). A
    /// step itself never fails with this: waiting is [`Step::Waiting`].
    #[error("no valid message from {party} in this round")]
    Waiting {
        /// Whose message is needed.
        party: PartyId,
    },
    /// A keyring was asked to activate with no generation pending.
    #[error("no generation is pending activation")]
    NothingPending,
    /// A keyring was given a pending generation that is not above its current one.
    #[error("pending generation {pending} is not above the current generation {current}")]
    StaleGeneration {
        /// The keyring's current generation.
        current: u64,
        /// The generation offered.
        pending: u64,
    },
}

impl Error {
    /// A stable code for this error.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Finished => "PARTY_FINISHED",
            Error::Waiting { .. } => "MISSING_MESSAGE",
            Error::NothingPending => "NOTHING_PENDING",
            Error::StaleGeneration { .. } => "STALE_PENDING_GENERATION",
        }
    }

    /// The parties this error blames.
    pub fn culprits(&self) -> &[PartyId] {
        match self {
            // A missing message proves nothing (the network may have lost it).
            Error::Finished
            | Error::Waiting { .. }
            | Error::NothingPending
            | Error::StaleGeneration { .. } => &[],
        }
    }
}
