//! The one driver of every protocol: one thread per node, each holding the library's
//! lifecycle party for the current path and only routing its bytes.
//!
//! A run is a list of paths (the library's lifecycle paths: setup, sign, reshare, and the
//! local steps between them). For each path the conductor (the main thread) issues
//! commands to the node threads and waits for all of them (a barrier per command):
//!
//! 1. **publish** — each node hands others the public inputs the path starts from (the
//!    group's public record for a joining member or the combiner, a signature to verify):
//!    bytes, through the router like every other message;
//! 2. **start** — each node reads what was published to it and starts its role: none, a
//!    local step, or a library [`Party`] (`start` returns it and its first [`Outgoing`]);
//! 3. **flush** — the parties send what `start` returned;
//! 4. **step**, repeated — every unfinished party reads the messages sent to it in the
//!    previous command and runs [`Party::step`]; it sends what the step returns, until
//!    every party is done. A party that is still waiting for a message steps again next
//!    time; one whose step fails drops out of the phase with its typed error. A party
//!    still waiting when nothing is left in flight fails with `MISSING_MESSAGE`, naming the
//!    senders of the messages it dropped so far ([`Party::dropped_so_far`]: a protocol that
//!    is not robust, such as the Pulsar committee or Corona, waits after dropping a bad
//!    message, and its host names who broke the session).
//!
//! A broadcast goes to every other node that runs a party in the path, a direct message
//! to its recipient. Nothing here knows any protocol: the flows (`pulsar`, `lens`) only
//! say, per path, which lifecycle party each node starts and what it keeps from the
//! output, and which row of the timing table each of the party's rounds belongs to (a
//! path may span several rows: Pulsar's setup is the DKG, the key ceremony and the key
//! certification).

mod cluster;

pub(crate) use cluster::{Cluster, PhaseResult};

use core::any::Any;
use core::panic::AssertUnwindSafe;
use core::time::Duration;
use std::collections::BTreeMap;
use std::panic::catch_unwind;
use std::sync::mpsc::Receiver;
use std::sync::Arc;

use quasar_pq::party::{Incoming, Outgoing, Party, Round, Step};
use quasar_pq::PartyId;
use zeroize::Zeroizing;

use crate::conduct::Event;
use crate::net::{cpu, Addr, Endpoint, Frame, HUB};
use crate::report::Failure;

/// The hub's party id inside the protocols (parties are 1..=256).
pub(crate) const HUB_ID: u16 = 1000;

/// The most step commands one phase may take (no protocol here needs more than five).
const MAX_STEPS: usize = 64;

/// The protocol id of node `a`.
pub(crate) fn party_id(a: Addr) -> PartyId {
    PartyId::new(if a == HUB { HUB_ID } else { a }).unwrap_or_else(|| unreachable!("HUB_ID is not 0"))
}

/// The node of protocol id `p`.
pub(crate) fn addr(p: PartyId) -> Addr {
    if p.get() == HUB_ID {
        HUB
    } else {
        p.get()
    }
}

/// A party's output, its type erased (the node that started the party knows it: see
/// [`output`]).
pub(crate) type Output = Box<dyn Any>;

/// A started party of any protocol.
pub(crate) trait Running {
    /// [`Party::step`], the output boxed.
    fn advance(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<Output>, quasar_pq::Error>;
    /// [`Party::round`].
    fn at(&self) -> Option<Round>;
    /// [`Party::dropped_so_far`], as blame events.
    fn dropped(&self) -> Vec<Event>;
}

impl<P: Party> Running for P
where
    P::Output: 'static,
{
    fn advance(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<Output>, quasar_pq::Error> {
        Ok(self.step(inbox)?.map(|o| Box::new(o) as Output))
    }

    fn at(&self) -> Option<Round> {
        self.round()
    }

    fn dropped(&self) -> Vec<Event> {
        Event::blame(None, [self.dropped_so_far()])
    }
}

/// The output of the party a node started, as the type it has.
pub(crate) fn output<T: 'static>(out: Output) -> Result<T, Failure> {
    out.downcast::<T>()
        .map(|b| *b)
        .map_err(|_| Failure::local("INTERNAL", "a party ended with an unexpected output".into()))
}

/// What a node does in a phase.
pub(crate) enum Role {
    /// Nothing.
    Idle,
    /// A local computation, already done (a signature checked, a share erased).
    Local(Vec<Event>),
    /// A protocol party and the messages its `start` returned.
    Party(Box<dyn Running>, Outgoing),
}

impl Role {
    /// A started library party.
    pub(crate) fn party<P: Party + 'static>((party, first): (P, Outgoing)) -> Role
    where
        P::Output: 'static,
    {
        Role::Party(Box::new(party), first)
    }
}

/// Bytes a node hands to others before a phase starts: public (signed and echoed on a
/// network) unless made with [`Publication::secret`].
pub(crate) struct Publication {
    /// The recipients.
    pub to: Vec<Addr>,
    /// The bytes (wiped when dropped: a secret one is a key package).
    pub bytes: Zeroizing<Vec<u8>>,
    /// Whether they are secret (a dealer's key package): sent as a direct message, which a
    /// network seals to the recipient's process.
    pub secret: bool,
}

impl Publication {
    /// Public `bytes` for the nodes `to`.
    pub(crate) fn new(to: &[Addr], bytes: Vec<u8>) -> Publication {
        Publication {
            to: to.to_vec(),
            bytes: Zeroizing::new(bytes),
            secret: false,
        }
    }

    /// Secret `bytes` for node `to` only.
    pub(crate) fn secret(to: Addr, bytes: Vec<u8>) -> Publication {
        Publication {
            to: vec![to],
            bytes: Zeroizing::new(bytes),
            secret: true,
        }
    }

    /// `bytes` for the hub.
    pub(crate) fn to_hub(bytes: Vec<u8>) -> Publication {
        Publication::new(&[HUB], bytes)
    }
}

/// What was published to a node for this phase.
pub(crate) struct Published(Vec<Frame>);

impl Published {
    /// What `frames` (sender, bytes) would have published, in order (unit tests).
    #[cfg(test)]
    pub(crate) fn of(frames: Vec<(Addr, Vec<u8>)>) -> Published {
        Published(
            frames
                .into_iter()
                .map(|(from, bytes)| Frame {
                    tag: 0,
                    from,
                    bytes: Zeroizing::new(bytes),
                    signature: Vec::new(),
                })
                .collect(),
        )
    }

    /// The first copy `from` sent.
    pub(crate) fn from(&self, from: Addr) -> Option<&[u8]> {
        self.0.iter().find(|f| f.from == from).map(|f| f.bytes.as_slice())
    }

    /// Everything `from` sent, in order (a dealer's key package and group key).
    pub(crate) fn all_from(&self, from: Addr) -> Vec<&[u8]> {
        self.0
            .iter()
            .filter(|f| f.from == from)
            .map(|f| f.bytes.as_slice())
            .collect()
    }

    /// The value more than half of `senders` sent, among the copies `decode` accepts
    /// (public data every sender holds, such as a sharing or a group key: the library's
    /// decoder tells the kinds apart).
    pub(crate) fn agreed<T>(
        &self,
        senders: &[Addr],
        decode: impl Fn(&[u8]) -> Option<T>,
    ) -> Result<T, Failure> {
        self.agreed_with(None, senders, decode)
    }

    /// As [`Published::agreed`], counting `own` — this node's copy, `(its address, bytes)`,
    /// when it is one of the senders: nobody publishes to itself, so without it two senders
    /// could never agree.
    pub(crate) fn agreed_with<T>(
        &self,
        own: Option<(Addr, &[u8])>,
        senders: &[Addr],
        decode: impl Fn(&[u8]) -> Option<T>,
    ) -> Result<T, Failure> {
        let copies: BTreeMap<Addr, &[u8]> = self
            .0
            .iter()
            .map(|f| (f.from, f.bytes.as_slice()))
            .chain(own)
            .filter(|(_, b)| decode(b).is_some())
            .collect();
        let bytes = crate::conduct::agreed(&copies, senders)?;
        decode(&bytes).ok_or_else(|| Failure::local("INTERNAL", "agreed bytes do not decode".into()))
    }
}

/// One node of a flow: see the module docs.
pub(crate) trait Node {
    /// The phases of the flow.
    type Phase;
    /// Step 1: the public inputs this node hands to others.
    fn publish(&mut self, phase: &Self::Phase) -> Result<Vec<Publication>, Failure>;
    /// Step 2: this node's role, given what was published to it.
    fn start(&mut self, phase: &Self::Phase, published: &Published) -> Result<Role, Failure>;
    /// The output of the party this node started; returns what to report.
    fn finish(&mut self, phase: &Self::Phase, output: Output) -> Result<Vec<Event>, Failure>;
    /// The row of the timing table (an index into the path's labels) that the party's
    /// next step, in `round`, belongs to.
    fn label(&self, _phase: &Self::Phase, _round: Option<Round>) -> usize {
        0
    }
}

/// A conductor's command to one node (the node's host runs it and reports).
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) enum Cmd<P> {
    /// Hand others the public inputs of the path.
    Publish(Arc<P>),
    /// Start, reading the `expect` frames of command `from`.
    Start {
        /// The command whose frames to read.
        from: u32,
        /// How many were sent to this node.
        expect: u32,
    },
    /// Send what `start` returned to these members.
    Flush(Arc<Vec<Addr>>),
    /// Step, reading the `expect` frames of command `from`.
    Step {
        /// The command whose frames to read.
        from: u32,
        /// How many were sent to this node.
        expect: u32,
        /// The members a broadcast goes to.
        members: Arc<Vec<Addr>>,
        /// The nodes stepping on this command (they echo each other's broadcasts on a
        /// network).
        running: Arc<Vec<Addr>>,
    },
}

/// What a node's command left.
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) enum Status {
    /// No role in this path.
    Idle,
    /// Published (whether to anyone but itself).
    Published(bool),
    /// A local step, done.
    Local(Vec<Event>),
    /// A party running.
    Running,
    /// Still waiting, after reading messages; what the party dropped so far.
    Read(Vec<Event>),
    /// Still waiting, with nothing read; what the party dropped so far.
    Waiting(Vec<Event>),
    Done(Vec<Event>),
    Failed(Failure),
}

/// A node's report on one command.
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct Report {
    /// The command.
    pub no: u32,
    /// The node.
    pub addr: Addr,
    /// Its time on the command.
    pub cpu: Duration,
    /// What the command left.
    pub status: Status,
    /// The row this node's work belongs to (`None`: it did nothing worth counting).
    pub label: Option<usize>,
    /// Frames sent, by recipient.
    pub sent: BTreeMap<Addr, u32>,
    /// Bytes sent (each recipient's copy counted).
    pub bytes: u64,
}

/// A node's thread: the node, its running party and what that party has yet to send.
struct Host<N: Node> {
    node: N,
    net: Endpoint,
    phase: Option<Arc<N::Phase>>,
    party: Option<Box<dyn Running>>,
    unsent: Option<Outgoing>,
    /// Equivocators the network's echo named during the running path.
    blamed: Vec<Event>,
}

impl<N: Node> Host<N> {
    fn send(&mut self, no: u32, out: Outgoing, members: &[Addr]) {
        if let Some(b) = out.broadcast {
            self.net.send(no, members, Zeroizing::new(b));
        }
        for d in out.direct {
            self.net.send_direct(no, addr(d.to), d.bytes);
        }
    }

    fn phase(&self) -> Result<Arc<N::Phase>, Failure> {
        self.phase
            .clone()
            .ok_or_else(|| Failure::local("INTERNAL", "no phase".into()))
    }

    /// The row of the running party's next step.
    fn label(&self) -> Option<usize> {
        let (phase, party) = (self.phase.as_ref()?, self.party.as_ref()?);
        Some(self.node.label(phase, party.at()))
    }

    fn run(&mut self, no: u32, cmd: Cmd<N::Phase>) -> (Result<Status, Failure>, Option<usize>) {
        let label = self.label();
        let status = self.command(no, cmd);
        let label = match &status {
            // A party that only waited with nothing to read did no work.
            Ok(Status::Idle | Status::Published(false) | Status::Waiting(_)) => None,
            Ok(Status::Running) if label.is_none() => self.label(),
            Ok(Status::Local(_) | Status::Published(true)) => Some(0),
            _ => label,
        };
        (status, label)
    }

    fn command(&mut self, no: u32, cmd: Cmd<N::Phase>) -> Result<Status, Failure> {
        match cmd {
            Cmd::Publish(phase) => {
                self.party = None;
                self.unsent = None;
                self.blamed.clear();
                let list = self.node.publish(&phase)?;
                self.phase = Some(phase);
                let any = list.iter().any(|p| p.to.iter().any(|&a| a != self.net.me()));
                for p in list {
                    if p.secret {
                        // A direct message to each recipient (one, by `Publication::secret`).
                        for &to in &p.to {
                            self.net.send_direct(no, to, p.bytes.clone());
                        }
                    } else {
                        self.net.send(no, &p.to, p.bytes);
                    }
                }
                Ok(Status::Published(any))
            }
            Cmd::Start { from, expect } => {
                let published = Published(self.net.receive(from, expect, None));
                let phase = self.phase()?;
                match self.node.start(&phase, &published)? {
                    Role::Idle => Ok(Status::Idle),
                    Role::Local(events) => Ok(Status::Local(events)),
                    Role::Party(party, first) => {
                        self.party = Some(party);
                        self.unsent = Some(first);
                        Ok(Status::Running)
                    }
                }
            }
            Cmd::Flush(members) => {
                if let Some(out) = self.unsent.take() {
                    self.send(no, out, &members);
                }
                Ok(Status::Running)
            }
            Cmd::Step {
                from,
                expect,
                members,
                running,
            } => {
                let frames = self.net.receive(from, expect, Some(&running));
                // Senders a network's echo proved to have equivocated: their broadcasts were
                // removed before the party read its inbox; the blame goes with the outcome.
                for e in self.net.take_blamed() {
                    if !self.blamed.contains(&e) {
                        self.blamed.push(e);
                    }
                }
                let inbox: Vec<Incoming<'_>> = frames
                    .iter()
                    .map(|f| Incoming::new(party_id(f.from), &f.bytes))
                    .collect();
                let party = self
                    .party
                    .as_mut()
                    .ok_or_else(|| Failure::local("INTERNAL", "no party".into()))?;
                match party.advance(&inbox) {
                    Ok(Step::Continue(out)) => {
                        self.send(no, out, &members);
                        Ok(Status::Running)
                    }
                    // Messages read and kept (or dropped): work, in the row it waits in.
                    Ok(Step::Waiting) if !inbox.is_empty() => {
                        Ok(Status::Read(with_blamed(party.dropped(), &self.blamed)))
                    }
                    Ok(Step::Done(out, output)) => {
                        self.party = None;
                        self.send(no, out, &members);
                        let phase = self.phase()?;
                        let mut events = self.node.finish(&phase, output)?;
                        events.append(&mut self.blamed);
                        Ok(Status::Done(events))
                    }
                    Ok(Step::Waiting) => Ok(Status::Waiting(with_blamed(party.dropped(), &self.blamed))),
                    Err(e) => {
                        self.party = None;
                        let mut f = Failure::from(e);
                        // What the echo proved is part of why the step failed.
                        for b in &self.blamed {
                            if let Event::Blame { party, code, .. } = b {
                                if !f.culprits.contains(party) {
                                    f.culprits.push(*party);
                                }
                                f.message
                                    .push_str(&format!("; the echo round named party {party} ({code})"));
                            }
                        }
                        Err(f)
                    }
                }
            }
        }
    }
}

/// `dropped`, then the echo's blame so far (a waiting party's report).
fn with_blamed(mut dropped: Vec<Event>, blamed: &[Event]) -> Vec<Event> {
    dropped.extend(blamed.iter().cloned());
    dropped
}

/// Runs one node: each command `rx` brings, until it closes or `report` returns false
/// (the conductor is gone). Used by the in-process cluster's threads and by a network
/// node's (`node`).
pub(crate) fn serve<N: Node>(
    node: N,
    net: Endpoint,
    rx: &Receiver<(u32, Cmd<N::Phase>)>,
    report: impl Fn(Report) -> bool,
) {
    let addr = net.me();
    let mut host = Host {
        node,
        net,
        phase: None,
        party: None,
        unsent: None,
        blamed: Vec::new(),
    };
    while let Ok((no, cmd)) = rx.recv() {
        let ((result, label), cpu) = cpu::timed(|| {
            catch_unwind(AssertUnwindSafe(|| host.run(no, cmd)))
                .unwrap_or_else(|_| (Err(Failure::local("PANIC", "a node panicked".into())), None))
        });
        let status = result.unwrap_or_else(Status::Failed);
        let (sent, bytes) = host.net.take_sent();
        if !report(Report {
            no,
            addr,
            cpu,
            status,
            label,
            sent,
            bytes,
        }) {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;
    use crate::net::{Endpoint, Packet};

    /// A node that publishes one public and one secret frame.
    struct Dealer;

    impl Node for Dealer {
        type Phase = ();

        fn publish(&mut self, (): &()) -> Result<Vec<Publication>, Failure> {
            Ok(vec![
                Publication::new(&[1, 2], b"CORG public".to_vec()),
                Publication::secret(2, b"CORK secret".to_vec()),
            ])
        }

        fn start(&mut self, (): &(), _: &Published) -> Result<Role, Failure> {
            Ok(Role::Idle)
        }

        fn finish(&mut self, (): &(), _: Output) -> Result<Vec<Event>, Failure> {
            Ok(Vec::new())
        }
    }

    #[test]
    fn a_secret_publication_leaves_as_a_direct_message_for_the_network_to_seal() {
        let (router, packets) = mpsc::channel();
        let (_inbox_tx, inbox) = mpsc::channel();
        let mut host = Host {
            node: Dealer,
            net: Endpoint::new(0, router, inbox),
            phase: None,
            party: None,
            unsent: None,
            blamed: Vec::new(),
        };
        let (status, _) = host.run(1, Cmd::Publish(Arc::new(())));
        assert!(matches!(status, Ok(Status::Published(true))));
        let sent: Vec<(Vec<Addr>, Vec<u8>, bool)> = packets
            .try_iter()
            .map(|p: Packet| (p.to, p.frame.bytes.to_vec(), p.secret))
            .collect();
        assert_eq!(
            sent,
            vec![
                (vec![1, 2], b"CORG public".to_vec(), false),
                (vec![2], b"CORK secret".to_vec(), true),
            ]
        );
    }
}
