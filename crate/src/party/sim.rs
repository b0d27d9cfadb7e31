//! An in-process network of parties, for tests, benches and known-answer vectors
//! (feature `sim`).
//!
//! [`Network`] holds any parties that share an output type (wrap parties of different
//! roles with [`map_output`]), delivers every round's messages synchronously — a
//! broadcast to every other party of the network, a direct message to its recipient —
//! and steps every unfinished party with its inbox until all are done. It records what
//! was sent ([`Network::sent`]) and lets a test rewrite, drop, duplicate or misaddress any
//! message on its way ([`Network::tamper`]).
//!
//! The protocols' parties draw their randomness from the RNG given at `start`; give each
//! party its own seeded RNG ([`party_rng`]) and a run is reproducible byte for byte.
//!
//! ```
//! # use quasar_pq::party::sim::{party_rng, Network};
//! # use quasar_pq::lss::{Ceremony, DealingParty};
//! # use quasar_pq::vss::{Mode, Ristretto255};
//! # use quasar_pq::PartyId;
//! let ids: Vec<PartyId> = (1..=3).filter_map(PartyId::new).collect();
//! let dkg = Ceremony::<Ristretto255>::dkg([7; 32], Mode::Pedersen, &ids, 2).unwrap();
//! let mut net = Network::new();
//! for &p in &ids {
//!     let (party, first) = DealingParty::start(dkg.clone(), p, None, &mut party_rng(b"doc", p)).unwrap();
//!     net.add(party, first);
//! }
//! let outcomes = net.run();
//! assert!(outcomes.values().all(|o| o.as_ref().unwrap().key_share.is_some()));
//! ```

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use rand_core::SeedableRng;
use zeroize::Zeroizing;

use super::{Incoming, Outgoing, Party, Round, Step};
use crate::hash::{tags, Transcript};
use crate::PartyId;

/// How a message travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    /// A copy of a broadcast.
    Broadcast,
    /// A private message.
    Direct,
}

/// One message on its way to one recipient.
#[derive(Debug, Clone)]
pub struct Envelope {
    /// The round it was sent in (0 = at `start`).
    pub round: u32,
    /// The sender the transport reports.
    pub from: PartyId,
    /// The recipient.
    pub to: PartyId,
    /// How it travels.
    pub channel: Channel,
    /// The bytes.
    pub bytes: Zeroizing<Vec<u8>>,
}

/// What one party sent in one round.
#[derive(Debug)]
pub struct Sent {
    /// The round (0 = at `start`).
    pub round: u32,
    /// The sender.
    pub from: PartyId,
    /// The messages.
    pub outgoing: Outgoing,
}

type Tamper = Box<dyn FnMut(Envelope) -> Vec<Envelope>>;

/// Parties in one process; see the module docs.
pub struct Network<O> {
    parties: BTreeMap<PartyId, Box<dyn Party<Output = O> + Send>>,
    outputs: BTreeMap<PartyId, Result<O, crate::Error>>,
    sent: Vec<Sent>,
    tamper: Option<Tamper>,
    round: u32,
    parallel: bool,
}

impl<O> Default for Network<O> {
    fn default() -> Self {
        Network {
            parties: BTreeMap::new(),
            outputs: BTreeMap::new(),
            sent: Vec::new(),
            tamper: None,
            round: 0,
            parallel: false,
        }
    }
}

/// The most rounds a run may take before the simulator gives up (no protocol here has
/// more than a handful).
pub const MAX_ROUNDS: u32 = 128;

impl<O: Send + 'static> Network<O> {
    /// An empty network.
    pub fn new() -> Self {
        Network::default()
    }

    /// Adds a started party and the messages its `start` returned.
    pub fn add(&mut self, party: impl Party<Output = O> + Send + 'static, first: Outgoing) {
        let id = party.id();
        self.post(id, first);
        self.parties.insert(id, Box::new(party));
    }

    /// Routes every message through `f` before delivery: it returns what to deliver
    /// instead (nothing drops it; several copies duplicate it; another `to` misaddresses
    /// it; other bytes rewrite it).
    pub fn tamper(&mut self, f: impl FnMut(Envelope) -> Vec<Envelope> + 'static) {
        self.tamper = Some(Box::new(f));
    }

    /// Steps the parties of each round concurrently, on every core rayon has (feature
    /// `parallel`; without it the parties still step one after another). Messages, the
    /// log and the outputs are the same either way: results are applied in party order.
    pub fn parallel(&mut self, on: bool) -> &mut Self {
        self.parallel = on;
        self
    }

    /// What every party sent, round by round, in sending order.
    pub fn sent(&self) -> &[Sent] {
        &self.sent
    }

    /// The ids of every party added.
    pub fn ids(&self) -> Vec<PartyId> {
        let mut ids: Vec<PartyId> = self.parties.keys().chain(self.outputs.keys()).copied().collect();
        ids.sort_unstable();
        ids
    }

    /// The round each unfinished party is in.
    pub fn rounds(&self) -> BTreeMap<PartyId, Option<Round>> {
        self.parties
            .iter()
            .map(|(p, party)| (*p, party.round()))
            .collect()
    }

    fn post(&mut self, from: PartyId, out: Outgoing) {
        self.sent.push(Sent {
            round: self.round,
            from,
            outgoing: out,
        });
    }

    /// Runs one round: delivers what was sent and steps every unfinished party. Returns
    /// whether another round can make progress (a party is still running and messages
    /// are in flight).
    pub fn step(&mut self) -> bool {
        let round = self.round;
        let everyone = self.ids();
        // With a tamper, every message goes through it as an envelope of its own (a copy).
        let delivered: Option<Vec<Envelope>> = self.tamper.as_mut().map(|f| {
            deliveries(&self.sent, round, &everyone)
                .map(|(to, from, channel, bytes)| Envelope {
                    round,
                    from,
                    to,
                    channel,
                    bytes: Zeroizing::new(bytes.to_vec()),
                })
                .flat_map(f.as_mut())
                .collect()
        });
        self.round += 1;
        let inboxes = route(&self.sent, delivered.as_deref(), round, &everyone);
        let empty = Vec::new();
        let step = |(id, party): (&PartyId, &mut Box<dyn Party<Output = O> + Send>)| {
            let inbox = everyone.binary_search(id).map_or(&empty, |at| &inboxes[at]);
            (*id, party.step(inbox))
        };
        #[cfg(feature = "parallel")]
        let results: Vec<(PartyId, Result<Step<O>, crate::Error>)> = if self.parallel {
            use rayon::prelude::*;
            // One party per task: the busy parties of a round are often neighbours (the
            // dealers, the first ids), and rayon's adaptive split would leave a run of them
            // to one thread.
            let parties: Vec<_> = self.parties.iter_mut().collect();
            parties.into_par_iter().with_max_len(1).map(step).collect()
        } else {
            self.parties.iter_mut().map(step).collect()
        };
        #[cfg(not(feature = "parallel"))]
        let results: Vec<(PartyId, Result<Step<O>, crate::Error>)> =
            self.parties.iter_mut().map(step).collect();
        drop(inboxes);
        for (id, result) in results {
            match result {
                Ok(Step::Continue(out)) => self.post(id, out),
                Ok(Step::Done(out, output)) => {
                    self.post(id, out);
                    self.parties.remove(&id);
                    self.outputs.insert(id, Ok(output));
                }
                // A party waiting for a message that has not arrived yet steps again next
                // round.
                Ok(Step::Waiting) => {}
                Err(e) => {
                    self.parties.remove(&id);
                    self.outputs.insert(id, Err(e));
                }
            }
        }
        let in_flight = self
            .sent
            .iter()
            .any(|s| s.round == self.round && !s.outgoing.is_empty());
        !self.parties.is_empty() && in_flight
    }

    /// Runs until every party has finished (or failed), at most [`MAX_ROUNDS`] rounds; a
    /// party still running after that fails with [`super::Error::Waiting`] on itself.
    pub fn finish(&mut self) {
        while self.round < MAX_ROUNDS && self.step() {}
        let stuck: Vec<PartyId> = self.parties.keys().copied().collect();
        for id in stuck {
            self.parties.remove(&id);
            self.outputs
                .insert(id, Err(super::Error::Waiting { party: id }.into()));
        }
    }

    /// Runs to the end ([`Network::finish`]) and returns each party's output.
    pub fn run(mut self) -> BTreeMap<PartyId, Result<O, crate::Error>> {
        self.finish();
        self.outputs
    }

    /// As [`Network::run`], also returning what was sent.
    pub fn run_logged(mut self) -> (BTreeMap<PartyId, Result<O, crate::Error>>, Vec<Sent>) {
        self.finish();
        (self.outputs, self.sent)
    }
}

/// A party whose output is mapped by `f` (to put parties of different roles in one
/// [`Network`]).
pub struct MapOutput<P, F> {
    inner: P,
    f: F,
}

/// Wraps `party` so that its output is `f(output)`.
pub fn map_output<P: Party, T, F: FnMut(P::Output) -> T>(party: P, f: F) -> MapOutput<P, F> {
    MapOutput { inner: party, f }
}

impl<P: Party, T, F: FnMut(P::Output) -> T> Party for MapOutput<P, F> {
    type Output = T;

    fn id(&self) -> PartyId {
        self.inner.id()
    }

    fn round(&self) -> Option<Round> {
        self.inner.round()
    }

    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<T>, crate::Error> {
        Ok(self.inner.step(inbox)?.map(&mut self.f))
    }
}

/// Everything sent in `round`, in sending order, as `(to, from, channel, bytes)`: a
/// broadcast to every other party of `everyone`, a direct message to its recipient.
fn deliveries<'a>(
    sent: &'a [Sent],
    round: u32,
    everyone: &'a [PartyId],
) -> impl Iterator<Item = (PartyId, PartyId, Channel, &'a [u8])> + 'a {
    sent.iter().filter(move |s| s.round == round).flat_map(move |s| {
        let broadcast = s.outgoing.broadcast.as_deref().into_iter().flat_map(move |b| {
            everyone
                .iter()
                .filter(move |&&p| p != s.from)
                .map(move |&to| (to, s.from, Channel::Broadcast, b))
        });
        let direct = s
            .outgoing
            .direct
            .iter()
            .map(move |d| (d.to, s.from, Channel::Direct, &d.bytes[..]));
        broadcast.chain(direct)
    })
}

/// Each party's inbox, in delivery order (one pass over what was delivered), at its place in
/// `everyone`: what `delivered` holds where a tamper rewrote the round, else what was sent
/// in `round`, read where it lies (a broadcast is not copied for each of its, at n = 128,
/// 170 recipients). This pass runs before the parties step, on one thread, and at n = 128
/// it delivers some 30,000 messages a round; a message to no party of the network
/// (misaddressed) reaches nobody. Not generic, so one copy serves every network.
#[inline(never)]
fn route<'a>(
    sent: &'a [Sent],
    delivered: Option<&'a [Envelope]>,
    round: u32,
    everyone: &'a [PartyId],
) -> Vec<Vec<Incoming<'a>>> {
    let mut inboxes: Vec<Vec<Incoming<'a>>> = everyone.iter().map(|_| Vec::new()).collect();
    let mut deliver = |to: PartyId, from: PartyId, bytes: &'a [u8]| {
        if let Ok(at) = everyone.binary_search(&to) {
            let inbox = &mut inboxes[at];
            if inbox.capacity() == 0 {
                // Room for one message from everyone, the usual round, from the start.
                inbox.reserve(everyone.len());
            }
            inbox.push(Incoming::new(from, bytes));
        }
    };
    match delivered {
        Some(envelopes) => envelopes.iter().for_each(|e| deliver(e.to, e.from, &e.bytes)),
        None => deliveries(sent, round, everyone).for_each(|(to, from, _, bytes)| deliver(to, from, bytes)),
    }
    inboxes
}

/// A reproducible RNG for party `id` of a run labelled `label`: ChaCha20 seeded with
/// `cSHAKE256-tuple("QUASAR-SIM-RNG-v1"; label, u16 id)`.
pub fn party_rng(label: &[u8], id: PartyId) -> rand_chacha::ChaCha20Rng {
    let mut t = Transcript::new(tags::SIM_RNG);
    t.append(label).append(&id.get().to_be_bytes());
    rand_chacha::ChaCha20Rng::from_seed(t.finalize())
}
