//! `PartyWasm`: one class for every protocol party. It holds the library's own
//! [`Party`] (an LSS dealing party, a Lens dealing party, signer or coordinator, a Pulsar
//! signer, combiner or certification party), started by a factory of [`super::lens`] or
//! [`super::pulsar`], and steps it on framed inboxes.
//!
//! # The framed inbox
//!
//! `step(inbox)` takes every message of the round in one byte string: entries of
//! `u16 from ‖ u32 length ‖ bytes` (big-endian), back to back. The JS boundary builds it
//! from checked `Uint8Array`s; it is decoded completely (and bounded by the party's
//! [`PartyWasm::max_inbox_bytes`]) before the party is touched, so a bad inbox throws a
//! typed error and the party keeps its whole state. `from` is the sender the transport
//! authenticated: every check and every blame rests on it.
//!
//! # The step result
//!
//! `{ done, waiting, round, outgoing: { broadcast?, direct: [{ to, bytes }] }, outcome?,
//! dropped }`: `waiting` is the library's [`crate::party::Step::Waiting`], an ordinary
//! result (nothing to do yet, nothing sent: step again when more messages arrive), `round`
//! is the next round (`{ number, name }`, `null` once done), `outgoing` what to send
//! now (also when done: a Pulsar signer's envelope, a combiner's announcement), `outcome`
//! the protocol's result once done (its fields are documented in `js/protocols.d.ts`;
//! secrets stay in WASM-held key-share objects), `dropped` the messages this party dropped,
//! with their senders and why: complete once done; before that, what the party reports so
//! far ([`Party::dropped_so_far`]: a Pulsar committee member's drops as they happen, so a
//! host that gives up on a stalled session can name who sent garbage).

use alloc::boxed::Box;
use alloc::vec::Vec;

use wasm_bindgen::prelude::*;

use super::js::{outgoing, Obj};
use super::to_js_error;
use crate::party::{Blame, Incoming, Outgoing, Party, Round};
use crate::wire::Reader;
use crate::PartyId;

/// What a finished party ends with, for JS.
pub(super) struct Finished {
    /// The protocol's outcome object.
    pub(super) outcome: Obj,
    /// The messages it dropped.
    pub(super) dropped: Vec<Blame>,
}

impl Finished {
    /// A finished party's `outcome`, with `dropped` also set as its `dropped` field.
    pub(super) fn ok(outcome: Obj, dropped: Vec<Blame>) -> Result<Finished, JsValue> {
        outcome.blame("dropped", &dropped);
        Ok(Finished { outcome, dropped })
    }

    /// A finished party whose outcome is the one list of parties `key` (a signer's).
    pub(super) fn listing(key: &str, parties: &[PartyId], dropped: Vec<Blame>) -> Result<Finished, JsValue> {
        let outcome = Obj::new();
        outcome.ids(key, parties);
        Finished::ok(outcome, dropped)
    }
}

/// Turns a party's output into its JS outcome (may check it further: an activation
/// certificate against the expected generation, a key share against its group key).
pub(super) type Finish<O> = Box<dyn FnOnce(O) -> Result<Finished, JsValue>>;

/// The `PartyWasm` of `protocol` hosting the started `party` (its start sent `out`), its
/// inboxes bounded to `max_inbox` bytes, its output turned into JS by `finish`.
pub(super) fn host<P: Party + 'static>(
    protocol: &'static str,
    (party, out): (P, Outgoing),
    max_inbox: usize,
    finish: Finish<P::Output>,
) -> PartyWasm {
    PartyWasm::new(Box::new(Host::new(party, max_inbox, finish)), protocol, out)
}

/// A party with what the binding needs to host it.
struct Host<P: Party> {
    party: P,
    max_inbox: usize,
    finish: Option<Finish<P::Output>>,
}

impl<P: Party> Host<P> {
    /// Hosts `party`, bounding its inboxes to `max_inbox` bytes and converting its output
    /// with `finish`.
    fn new(party: P, max_inbox: usize, finish: Finish<P::Output>) -> Host<P> {
        Host {
            party,
            max_inbox,
            finish: Some(finish),
        }
    }
}

/// What one hosted step ended with.
enum Stepped {
    /// Another round: send these.
    Continue(Outgoing),
    /// Nothing to do yet: step again when more messages arrive.
    Waiting,
    /// Finished: send these (maybe nothing), and the outcome.
    Done(Outgoing, Finished),
}

/// The object-safe face of a hosted party.
trait Hosted {
    fn id(&self) -> PartyId;
    fn round(&self) -> Option<Round>;
    fn max_inbox(&self) -> usize;
    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Stepped, JsValue>;
    fn dropped_so_far(&self) -> &[Blame];
}

impl<P: Party> Hosted for Host<P> {
    fn id(&self) -> PartyId {
        self.party.id()
    }

    fn round(&self) -> Option<Round> {
        self.party.round()
    }

    fn max_inbox(&self) -> usize {
        self.max_inbox
    }

    fn dropped_so_far(&self) -> &[Blame] {
        self.party.dropped_so_far()
    }

    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Stepped, JsValue> {
        match self.party.step(inbox).map_err(to_js_error)? {
            crate::party::Step::Continue(out) => Ok(Stepped::Continue(out)),
            crate::party::Step::Waiting => Ok(Stepped::Waiting),
            crate::party::Step::Done(out, output) => {
                let finish = self
                    .finish
                    .take()
                    .ok_or_else(|| to_js_error(crate::party::Error::Finished))?;
                Ok(Stepped::Done(out, finish(output)?))
            }
        }
    }
}

/// A bound on one round's inbox for `participants` parties sending messages of at most
/// `message` bytes (a broadcast and a private message each, framing included).
pub(super) fn inbox_bound(participants: usize, message: usize) -> usize {
    2 * participants.max(1) * (message + 6) + 64
}

/// One protocol party, its secret state in WASM memory (see the module docs).
///
/// # Security
/// Holds the party's secrets (dealing polynomials, received shares, nonces, a combiner's
/// decapsulation key); all are wiped when freed (`free()` in JS).
#[wasm_bindgen(js_name = "PartyWasm")]
pub struct PartyWasm {
    inner: Box<dyn Hosted>,
    protocol: &'static str,
    start: Option<Outgoing>,
    info: Vec<(&'static str, Vec<u8>)>,
    done: bool,
}

impl PartyWasm {
    /// A started party of `protocol`, with the messages its start sends.
    fn new(inner: Box<dyn Hosted>, protocol: &'static str, start: Outgoing) -> PartyWasm {
        PartyWasm {
            inner,
            protocol,
            start: Some(start),
            info: Vec::new(),
            done: false,
        }
    }

    /// Also publishes `bytes` as `info()[name]` (a combiner's session and key).
    pub(super) fn with_info(mut self, name: &'static str, bytes: Vec<u8>) -> PartyWasm {
        self.info.push((name, bytes));
        self
    }
}

fn round_js(round: Option<Round>) -> JsValue {
    match round {
        None => JsValue::NULL,
        Some(r) => {
            let o = Obj::new();
            o.set("number", r.number).set("name", r.name);
            o.into_js()
        }
    }
}

/// Decodes a framed inbox (see the module docs), at most `max` bytes.
fn decode_inbox(bytes: &[u8], max: usize) -> Result<Vec<Incoming<'_>>, JsValue> {
    if bytes.len() > max {
        return Err(to_js_error(crate::wire::Error::CountTooLarge {
            got: bytes.len(),
            max,
        }));
    }
    let mut r = Reader::new(bytes);
    let mut out = Vec::new();
    while r.remaining() > 0 {
        let from = PartyId::read(&mut r).map_err(to_js_error)?;
        let len = r.u32().map_err(to_js_error)? as usize;
        out.push(Incoming::new(from, r.take(len).map_err(to_js_error)?));
    }
    Ok(out)
}

#[wasm_bindgen(js_class = "PartyWasm")]
impl PartyWasm {
    /// This party's id.
    pub fn id(&self) -> u16 {
        self.inner.id().get()
    }

    /// The protocol (`"lens-dealing"`, `"lens-signer"`, `"pulsar-combiner"`, …).
    pub fn protocol(&self) -> String {
        self.protocol.into()
    }

    /// The round the next step runs (`{ number, name }`), or `null` once done.
    pub fn round(&self) -> JsValue {
        if self.done {
            JsValue::NULL
        } else {
            round_js(self.inner.round())
        }
    }

    /// Whether the party has finished.
    pub fn done(&self) -> bool {
        self.done
    }

    /// The largest framed inbox a step accepts, in bytes (the party count times the
    /// protocol's largest message).
    #[wasm_bindgen(js_name = "maxInboxBytes")]
    pub fn max_inbox_bytes(&self) -> u32 {
        u32::try_from(self.inner.max_inbox()).unwrap_or(u32::MAX)
    }

    /// Public data of the start: `{}`, or for a Pulsar combiner `{ session, combinerKey }`
    /// (the session, `PCSS`, for its signers; its ML-KEM public key, `PCEK`).
    pub fn info(&self) -> JsValue {
        let o = Obj::new();
        for (name, bytes) in &self.info {
            o.bytes(name, bytes);
        }
        o.into_js()
    }

    /// The messages the start sends, as a step result (once; later calls: nothing to send).
    #[wasm_bindgen(js_name = "takeStart")]
    pub fn take_start(&mut self) -> JsValue {
        let out = self.start.take().unwrap_or_default();
        let o = Obj::new();
        o.set("done", false)
            .set("waiting", false)
            .set("round", self.round())
            .set("outgoing", outgoing(&out))
            .blame("dropped", &[]);
        o.into_js()
    }

    /// Runs one round on the framed `inbox` (see the module docs).
    ///
    /// # Errors
    /// Waiting for more messages is a result (`waiting: true`), never an error.
    /// Decoding errors of the frame (the party is untouched); `PARTY_FINISHED` after the
    /// last round; the protocol's own errors (too few honest parties, this party's own
    /// inconsistent input) with their culprits. On every error the party keeps its state.
    pub fn step(&mut self, inbox: Vec<u8>) -> Result<JsValue, JsValue> {
        // Direct messages carry secret shares: wipe the copy on return.
        let inbox = zeroize::Zeroizing::new(inbox);
        if self.done {
            return Err(to_js_error(crate::party::Error::Finished));
        }
        let messages = decode_inbox(&inbox, self.inner.max_inbox())?;
        let o = Obj::new();
        match self.inner.step(&messages)? {
            Stepped::Continue(out) => {
                o.set("done", false)
                    .set("waiting", false)
                    .set("round", round_js(self.inner.round()))
                    .set("outgoing", outgoing(&out))
                    .blame("dropped", self.inner.dropped_so_far());
            }
            Stepped::Waiting => {
                o.set("done", false)
                    .set("waiting", true)
                    .set("round", round_js(self.inner.round()))
                    .set("outgoing", outgoing(&Outgoing::none()))
                    .blame("dropped", self.inner.dropped_so_far());
            }
            Stepped::Done(out, f) => {
                self.done = true;
                o.set("done", true)
                    .set("waiting", false)
                    .set("round", JsValue::NULL)
                    .set("outgoing", outgoing(&out))
                    .set("outcome", f.outcome.into_js())
                    .blame("dropped", &f.dropped);
            }
        }
        Ok(o.into_js())
    }
}
