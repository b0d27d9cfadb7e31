//! A process's part of a networked cluster: the switchboard that files what the transport
//! delivers (commands, reports, frames) with the run's local nodes, the router that sends
//! what local nodes send, and the two ways a process takes part in a run — conducting it
//! (process 0: the conductor and node 0) or serving its nodes (every other process).
//!
//! Every message is checked before it is filed: its run id must be the run's; a command,
//! a hello or a bye must come from process 0; a report or a frame must come from the
//! process that hosts its sender node, and a frame must be addressed to nodes hosted here.
//! Anything else is dropped (and counted).
//!
//! Every public frame (a broadcast, a publication) carries its sending process's signature
//! of `(run, command, sender, SHA3-256 of the bytes)`, checked on arrival. Before a node
//! steps, it echoes to the other nodes stepping the digests and signatures of the public
//! frames it received, and reads theirs (bounded by the timeout): a sender whose signature
//! stands on two different digests for one command equivocated — every honest node sees
//! both, drops that sender's broadcast from the inbox and names it (`EQUIVOCATION`); a
//! forged echo cannot frame an honest sender, whose signature it cannot make.
//!
//! A direct message (it may carry a share) leaves its process sealed to the receiving
//! process's ML-KEM-768 key from the roster (`pulsar::custody::envelope::seal_message`,
//! bound to the run, command, sender and recipient), so it stays confidential against a
//! recorder with a future quantum computer even though Noise's key exchange is X25519; a
//! sealed frame that does not open is dropped.

use core::sync::atomic::{AtomicU64, Ordering};
use core::time::Duration;
use std::collections::BTreeMap;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Instant;

use libp2p::identity::{Keypair, PublicKey};
use libp2p::PeerId;
use quasar_pq::pulsar::custody::envelope::{open_message, seal_message};
use quasar_pq::pulsar::custody::{CombinerKey, CombinerPublicKey};
use zeroize::Zeroizing;

use super::roster::Process;
use super::transport::{Outbox, Transport};
use super::wire::{broadcast_statement, digest, frame_binding, Wire, WireCmd, WireReport};
use crate::conduct::Event;
use crate::driver::{self, Cluster, Cmd, Node, Report};
use crate::flow::Phase;
use crate::net::{Addr, Consistency, Endpoint, Frame, Packet};
use crate::report::Failure;

/// What the switchboard hands the process's main thread.
#[derive(Debug)]
pub(crate) enum Control {
    /// Process 0 starts a run.
    Hello {
        /// The run id.
        run: [u8; 32],
        /// The demo's arguments.
        args: Vec<String>,
    },
    /// A process is ready for the run.
    Ready {
        /// The process.
        from: usize,
        /// The run id.
        run: [u8; 32],
    },
    /// Process 0 ends the run.
    Bye {
        /// The run id.
        run: [u8; 32],
    },
}

/// A node's command channel.
type Ctrl = Sender<(u32, Cmd<Phase>)>;

/// An echo: the command, the echoing node, and its `(sender, digest, signature)` entries.
type Echo = (u32, Addr, Vec<(Addr, [u8; 32], Vec<u8>)>);

/// The run's local nodes: their command channels, and their threads with the router's.
type Started = (BTreeMap<Addr, Ctrl>, Vec<JoinHandle<()>>);

/// Where the current run's messages go.
#[derive(Default)]
struct Board {
    run: [u8; 32],
    inboxes: BTreeMap<Addr, Sender<Frame>>,
    ctrl: BTreeMap<Addr, Ctrl>,
    echoes: BTreeMap<Addr, Sender<Echo>>,
    reports: Option<Sender<Report>>,
}

/// This process's place in the cluster.
pub(crate) struct Network {
    /// The roster.
    pub processes: Vec<Process>,
    /// This process's index.
    pub me: usize,
    /// How long a node waits for a round's frames, and (doubled, plus the slowest step) the
    /// conductor for a command's reports.
    pub timeout: Duration,
    transport: Option<Transport>,
    outbox: Outbox,
    identity: Keypair,
    /// The fault drill `--equivocate`: this process's router sends different broadcasts to
    /// different processes.
    pub equivocate: bool,
    board: Arc<Mutex<Board>>,
    /// What the switchboard hands the main thread.
    pub control: Receiver<Control>,
    /// Messages dropped by the switchboard's checks.
    pub dropped: Arc<AtomicU64>,
    switchboard: Option<JoinHandle<()>>,
}

impl Network {
    /// Joins the cluster as process `me`: starts the transport and the switchboard.
    pub(crate) fn join(
        processes: Vec<Process>,
        me: usize,
        (key, kem): (libp2p::identity::Keypair, CombinerKey),
        timeout: Duration,
        crash_at: Option<u32>,
    ) -> Result<Network, String> {
        let mine = processes
            .get(me)
            .ok_or_else(|| format!("no process {me} in the roster"))?;
        if key.public().to_peer_id() != mine.peer || kem.public_key() != &mine.kem {
            return Err(format!("the keys of process {me} do not match its roster entry"));
        }
        let peers = processes
            .iter()
            .filter(|p| p.index != me)
            .map(|p| (p.peer, p.listen.clone()))
            .collect();
        let identity = key.clone();
        let mut transport = Transport::start(key, mine.listen.clone(), peers)?;
        let outbox = transport.sender();
        let inbound = core::mem::replace(&mut transport.inbound, mpsc::channel().1);
        let board = Arc::new(Mutex::new(Board::default()));
        let dropped = Arc::new(AtomicU64::new(0));
        let (control_tx, control) = mpsc::channel();
        let switchboard = {
            let (board, dropped, processes) = (Arc::clone(&board), Arc::clone(&dropped), processes.clone());
            thread::Builder::new()
                .name("switchboard".into())
                .spawn(move || {
                    for (peer, bytes) in inbound {
                        if let (Some(n), Some(Wire::Command { no, .. })) =
                            (crash_at, Wire::from_bytes(&bytes))
                        {
                            if no >= n {
                                // The fault drill of `--crash-at`: gone mid-run, as if killed.
                                eprintln!("process {me}: crashing at command {no} (--crash-at)");
                                std::process::exit(75);
                            }
                        }
                        if !file(&processes, me, &board, &control_tx, &kem, peer, &bytes) {
                            dropped.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                })
                .map_err(|e| format!("cannot start the switchboard: {e}"))?
        };
        Ok(Network {
            processes,
            me,
            timeout,
            transport: Some(transport),
            outbox,
            identity,
            equivocate: false,
            board,
            control,
            dropped,
            switchboard: Some(switchboard),
        })
    }

    /// The nodes this process hosts.
    pub(crate) fn local(&self) -> &[Addr] {
        &self.processes[self.me].addrs
    }

    fn host_of(&self, a: Addr) -> Option<&Process> {
        self.processes.iter().find(|p| p.addrs.contains(&a))
    }

    /// Sends `w` to process `to`.
    pub(crate) fn send(&self, to: usize, w: &Wire) {
        if let Some(p) = self.processes.get(to) {
            self.outbox.send(p.peer, w.to_bytes());
        }
    }

    fn board(&self) -> std::sync::MutexGuard<'_, Board> {
        self.board
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Starts the run's local nodes `0..=max` that this process hosts (each in its own
    /// thread, as `make` builds it), reporting to `report`; returns their command channels
    /// and threads. The router thread delivers what they send.
    fn start_local<N, F>(
        &self,
        run: [u8; 32],
        max: Addr,
        make: F,
        report: impl Fn(Report) + Send + Sync + Clone + 'static,
    ) -> Result<Started, Failure>
    where
        N: Node<Phase = Phase>,
        F: Fn(Addr) -> N + Send + Sync + 'static,
    {
        let make = Arc::new(make);
        let (router_tx, router_rx) = mpsc::channel::<Packet>();
        let mut board = self.board();
        *board = Board {
            run,
            ..Board::default()
        };
        let mut ctrl = BTreeMap::new();
        let mut threads = Vec::new();
        let keys: Arc<BTreeMap<Addr, (PeerId, Option<PublicKey>)>> = Arc::new(
            self.processes
                .iter()
                .flat_map(|p| p.addrs.iter().map(move |&a| (a, (p.peer, identity_of(&p.peer)))))
                .collect(),
        );
        let mine: Vec<Addr> = self.local().iter().copied().filter(|&a| a <= max).collect();
        // Echo channels first: a node echoes to the nodes of its own process directly.
        let mut echo_rx = BTreeMap::new();
        for &a in &mine {
            let (echo_tx, echoes) = mpsc::channel();
            board.echoes.insert(a, echo_tx);
            echo_rx.insert(a, echoes);
        }
        let local_echoes = Arc::new(board.echoes.clone());
        for &a in &mine {
            let (inbox_tx, inbox) = mpsc::channel();
            board.inboxes.insert(a, inbox_tx);
            let (tx, rx) = mpsc::channel::<(u32, Cmd<Phase>)>();
            ctrl.insert(a, tx);
            let echoes = echo_rx
                .remove(&a)
                .ok_or_else(|| Failure::local("INTERNAL", "no echo channel".into()))?;
            let links = EchoLinks {
                keys: Arc::clone(&keys),
                local: Arc::clone(&local_echoes),
                outbox: self.outbox.clone(),
            };
            let check = echo_round(run, a, links, echoes, self.timeout);
            let endpoint = Endpoint::new(a, router_tx.clone(), inbox)
                .with_timeout(self.timeout)
                .with_consistency(check);
            let (make, report) = (Arc::clone(&make), report.clone());
            let t = thread::Builder::new()
                .name(format!("node-{a}"))
                .stack_size(8 << 20)
                .spawn(move || {
                    driver::serve(make(a), endpoint, &rx, |r| {
                        report(r);
                        true
                    });
                })
                .map_err(|e| Failure::local("INTERNAL", format!("cannot start a thread: {e}")))?;
            threads.push(t);
        }
        drop(router_tx);
        let routes: BTreeMap<Addr, Sender<Frame>> = board.inboxes.clone();
        drop(board);
        let hosts: BTreeMap<Addr, (PeerId, CombinerPublicKey)> = self
            .processes
            .iter()
            .flat_map(|p| p.addrs.iter().map(move |&a| (a, (p.peer, p.kem.clone()))))
            .collect();
        let outbox = self.outbox.clone();
        let (identity, equivocate) = (self.identity.clone(), self.equivocate);
        let router = thread::Builder::new()
            .name("router".into())
            .spawn(move || {
                let sign = |tag: u32, from: Addr, bytes: &[u8]| {
                    identity
                        .sign(&broadcast_statement(&run, tag, from, &digest(bytes)))
                        .unwrap_or_default()
                };
                route(run, &router_rx, &routes, &hosts, &outbox, &sign, equivocate);
            })
            .map_err(|e| Failure::local("INTERNAL", format!("cannot start the router: {e}")))?;
        threads.push(router);
        Ok((ctrl, threads))
    }

    /// Process 0: says hello to every other process with the demo's `args`, waits until
    /// each is ready, and returns the cluster of nodes `0..=max` — node 0 here, the
    /// others reached over the network — for the conductor.
    pub(crate) fn conduct<N, F>(
        &self,
        args: Vec<String>,
        max: Addr,
        make: F,
    ) -> Result<Cluster<Phase>, Failure>
    where
        N: Node<Phase = Phase>,
        F: Fn(Addr) -> N + Send + Sync + 'static,
    {
        for a in 0..=max {
            if self.host_of(a).is_none() {
                return Err(Failure::local(
                    "ROSTER",
                    format!("the run needs node {a}, which no process of the roster hosts"),
                ));
            }
        }
        let run = super::fresh_bytes();
        let (report_tx, reports) = mpsc::channel::<Report>();
        self.board().reports = None;
        let local_reports = report_tx.clone();
        let (mut local, mut threads) =
            self.start_local(run, max, make, move |r| drop(local_reports.send(r)))?;
        self.board().reports = Some(report_tx);
        let others: Vec<usize> = (0..self.processes.len()).filter(|&i| i != self.me).collect();
        for &i in &others {
            self.send(
                i,
                &Wire::Hello {
                    run,
                    args: args.clone(),
                },
            );
        }
        let mut ready = vec![false; self.processes.len()];
        ready[self.me] = true;
        let deadline = Instant::now() + self.timeout;
        while ready.iter().any(|r| !r) {
            match self
                .control
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(Control::Ready { from, run: r }) if r == run => ready[from] = true,
                Ok(_) => {}
                Err(_) => {
                    let missing: Vec<String> = ready
                        .iter()
                        .enumerate()
                        .filter(|(_, r)| !**r)
                        .map(|(i, _)| i.to_string())
                        .collect();
                    return Err(Failure::local(
                        "TIMEOUT",
                        format!(
                            "process(es) {} did not answer within {} s",
                            missing.join(", "),
                            self.timeout.as_secs()
                        ),
                    ));
                }
            }
        }
        let mut ctrl = Vec::new();
        for a in 0..=max {
            if let Some(tx) = local.remove(&a) {
                ctrl.push(tx);
                continue;
            }
            let (tx, rx) = mpsc::channel::<(u32, Cmd<Phase>)>();
            ctrl.push(tx);
            let host = self.host_of(a).map_or(0, |p| p.index);
            let (outbox, peer) = (self.outbox.clone(), self.processes[host].peer);
            let t = thread::Builder::new()
                .name(format!("to-node-{a}"))
                .spawn(move || {
                    for (no, cmd) in rx {
                        let cmd = WireCmd::of(&cmd);
                        outbox.send(peer, Wire::Command { run, no, to: a, cmd }.to_bytes());
                    }
                })
                .map_err(|e| Failure::local("INTERNAL", format!("cannot start a thread: {e}")))?;
            threads.push(t);
        }
        // A command's reports wait for every node's round: its frames (at most `timeout`)
        // and its step.
        Ok(Cluster::assemble(ctrl, reports, threads, None, self.timeout * 3))
    }

    /// Process 0, after the run: tells every other process it is over.
    pub(crate) fn bye(&self) {
        let run = self.board().run;
        for i in (0..self.processes.len()).filter(|&i| i != self.me) {
            self.send(i, &Wire::Bye { run });
        }
    }

    /// Any other process: serves run `run`'s local nodes (as `make` builds them) until
    /// process 0 says bye, or nothing has come from it for `idle`.
    pub(crate) fn serve<N, F>(&self, run: [u8; 32], max: Addr, make: F, idle: Duration) -> Result<(), Failure>
    where
        N: Node<Phase = Phase>,
        F: Fn(Addr) -> N + Send + Sync + 'static,
    {
        let (outbox, conductor) = (self.outbox.clone(), self.processes[0].peer);
        let report = move |r: Report| {
            outbox.send(
                conductor,
                Wire::Report {
                    run,
                    report: WireReport::of(&r),
                }
                .to_bytes(),
            );
        };
        let (ctrl, threads) = self.start_local(run, max, make, report)?;
        self.board().ctrl = ctrl;
        self.send(
            0,
            &Wire::Ready {
                run,
                addrs: self.local().to_vec(),
            },
        );
        let result = loop {
            match self.control.recv_timeout(idle) {
                Ok(Control::Bye { run: r }) if r == run => break Ok(()),
                Ok(_) => {}
                Err(_) => {
                    break Err(Failure::local(
                        "TIMEOUT",
                        format!("nothing from the conductor for {} s", idle.as_secs()),
                    ))
                }
            }
        };
        // Closing the command channels ends the node threads, then the router.
        self.board().ctrl.clear();
        *self.board() = Board::default();
        for t in threads {
            let _ = t.join();
        }
        result
    }

    /// Stops the transport (after letting the last messages leave) and the switchboard.
    pub(crate) fn close(self) {
        let Network {
            transport,
            outbox,
            switchboard,
            ..
        } = self;
        // The swarm ends when its last sending handle is gone.
        drop(outbox);
        if let Some(t) = transport {
            t.stop(Duration::from_millis(300));
        }
        if let Some(s) = switchboard {
            let _ = s.join();
        }
    }
}

/// The public identity key inside an Ed25519 peer id (its identity multihash).
fn identity_of(peer: &PeerId) -> Option<PublicKey> {
    let mh = peer.as_ref();
    (mh.code() == 0).then(|| PublicKey::try_decode_protobuf(mh.digest()).ok())?
}

/// Where a node's echoes go: to the nodes of its own process directly, to the others over
/// the network; with every node's process identity, to check signatures.
struct EchoLinks {
    keys: Arc<BTreeMap<Addr, (PeerId, Option<PublicKey>)>>,
    local: Arc<BTreeMap<Addr, Sender<Echo>>>,
    outbox: Outbox,
}

/// Node `me`'s echo round (see the module docs), as its endpoint's consistency check.
fn echo_round(
    run: [u8; 32],
    me: Addr,
    links: EchoLinks,
    echoes: Receiver<Echo>,
    timeout: Duration,
) -> Consistency {
    let EchoLinks { keys, local, outbox } = links;
    // Echoes of later commands that arrived early.
    let mut early: Vec<Echo> = Vec::new();
    Box::new(move |tag: u32, stepping: &[Addr], frames: &mut Vec<Frame>| {
        let mine: Vec<(Addr, [u8; 32], Vec<u8>)> = frames
            .iter()
            .filter(|f| !f.signature.is_empty())
            .map(|f| (f.from, digest(&f.bytes), f.signature.clone()))
            .collect();
        let others: Vec<Addr> = stepping.iter().copied().filter(|&a| a != me).collect();
        for &to in &others {
            if let Some(tx) = local.get(&to) {
                let _ = tx.send((tag, me, mine.clone()));
            } else if let Some((peer, _)) = keys.get(&to) {
                let w = Wire::Echo {
                    run,
                    tag,
                    from: me,
                    to,
                    entries: mine.clone(),
                };
                outbox.send(*peer, w.to_bytes());
            }
        }
        let mut heard: Vec<Echo> = Vec::new();
        early.retain(|e| {
            if e.0 == tag {
                heard.push(e.clone());
            }
            e.0 > tag
        });
        let deadline = Instant::now() + timeout;
        let answered = |heard: &[Echo]| others.iter().all(|o| heard.iter().any(|e| e.1 == *o));
        while !answered(&heard) {
            match echoes.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(e) if e.0 == tag && others.contains(&e.1) => heard.push(e),
                Ok(e) if e.0 > tag => early.push(e),
                Ok(_) => {}
                Err(_) => break,
            }
        }
        // A sender equivocated if its own signature stands on a digest other than ours.
        let mut equivocators = std::collections::BTreeSet::new();
        for (_, _, entries) in &heard {
            for (j, d, sig) in entries {
                let Some((_, ours, _)) = mine.iter().find(|m| m.0 == *j) else {
                    continue;
                };
                // Only a differing digest is worth a signature check.
                if d == ours || equivocators.contains(j) {
                    continue;
                }
                let signed = keys
                    .get(j)
                    .and_then(|(_, k)| k.as_ref())
                    .is_some_and(|k| k.verify(&broadcast_statement(&run, tag, *j, d), sig));
                if signed {
                    equivocators.insert(*j);
                }
            }
        }
        frames.retain(|f| f.signature.is_empty() || !equivocators.contains(&f.from));
        equivocators
            .into_iter()
            .map(|j| Event::Blame {
                phase: None,
                party: j,
                code: "EQUIVOCATION",
                reason: "signed two different broadcasts for one round (shown by the echo); its broadcast was dropped everywhere".into(),
            })
            .collect()
    })
}

/// Files one message from `peer` (see the module docs); false if it was dropped.
fn file(
    processes: &[Process],
    me: usize,
    board: &Mutex<Board>,
    control: &Sender<Control>,
    kem: &CombinerKey,
    peer: PeerId,
    bytes: &[u8],
) -> bool {
    let Some(from) = processes.iter().find(|p| p.peer == peer) else {
        return false;
    };
    let Some(wire) = Wire::from_bytes(bytes) else {
        return false;
    };
    let board = board.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let conductor = from.index == 0 && me != 0;
    match wire {
        Wire::Hello { run, args } if conductor => control.send(Control::Hello { run, args }).is_ok(),
        Wire::Bye { run } if conductor => control.send(Control::Bye { run }).is_ok(),
        Wire::Ready { run, .. } if me == 0 => control
            .send(Control::Ready {
                from: from.index,
                run,
            })
            .is_ok(),
        Wire::Command { run, no, to, cmd } if conductor && run == board.run => {
            match (board.ctrl.get(&to), cmd.cmd()) {
                (Some(tx), Some(cmd)) => tx.send((no, cmd)).is_ok(),
                _ => false,
            }
        }
        Wire::Report { run, report } if run == board.run && from.addrs.contains(&report.addr()) => {
            match &board.reports {
                Some(tx) => tx.send(report.report()).is_ok(),
                None => false,
            }
        }
        Wire::Frame {
            run,
            tag,
            from: sender,
            to,
            sealed,
            bytes,
            signature,
        } if run == board.run && from.addrs.contains(&sender) => {
            let bytes = if sealed {
                match open_message(kem, &frame_binding(&run, tag, sender, &to), &bytes) {
                    Some(b) => b,
                    None => return false,
                }
            } else {
                let statement = broadcast_statement(&run, tag, sender, &digest(&bytes));
                if !identity_of(&from.peer).is_some_and(|k| k.verify(&statement, &signature)) {
                    return false;
                }
                Zeroizing::new(bytes)
            };
            let signature = if sealed { Vec::new() } else { signature };
            // Every recipient must be hosted here, or the frame is dropped whole.
            let inboxes: Option<Vec<&Sender<Frame>>> = to.iter().map(|a| board.inboxes.get(a)).collect();
            match inboxes {
                Some(inboxes) if !inboxes.is_empty() => {
                    for inbox in inboxes {
                        let _ = inbox.send(Frame {
                            tag,
                            from: sender,
                            bytes: bytes.clone(),
                            signature: signature.clone(),
                        });
                    }
                    true
                }
                _ => false,
            }
        }
        Wire::Echo {
            run,
            tag,
            from: echoer,
            to,
            entries,
        } if run == board.run && from.addrs.contains(&echoer) => match board.echoes.get(&to) {
            Some(tx) => tx.send((tag, echoer, entries)).is_ok(),
            None => false,
        },
        _ => false,
    }
}

/// Signs a public frame: `(command, sender, bytes) → signature`.
type Signer<'a> = dyn Fn(u32, Addr, &[u8]) -> Vec<u8> + 'a;

/// The router of a run: delivers each packet a local node sends to the local recipients'
/// inboxes, and to each other process hosting recipients as one frame (a direct message
/// sealed to that process).
fn route(
    run: [u8; 32],
    rx: &Receiver<Packet>,
    local: &BTreeMap<Addr, Sender<Frame>>,
    hosts: &BTreeMap<Addr, (PeerId, CombinerPublicKey)>,
    outbox: &Outbox,
    sign: &Signer<'_>,
    equivocate: bool,
) {
    let mut rng = super::fresh_rng();
    for Packet { to, frame, secret } in rx {
        let signature = if secret {
            Vec::new()
        } else {
            sign(frame.tag, frame.from, &frame.bytes)
        };
        let mut remote: BTreeMap<PeerId, Vec<Addr>> = BTreeMap::new();
        for a in to {
            if let Some(inbox) = local.get(&a) {
                let _ = inbox.send(Frame {
                    tag: frame.tag,
                    from: frame.from,
                    bytes: frame.bytes.clone(),
                    signature: signature.clone(),
                });
            } else if let Some((peer, _)) = hosts.get(&a) {
                remote.entry(*peer).or_default().push(a);
            }
        }
        for (i, (peer, to)) in remote.into_iter().enumerate() {
            let (sealed, bytes, signature) = match (secret, to.first().and_then(|a| hosts.get(a))) {
                (true, Some((_, kem))) => {
                    let binding = frame_binding(&run, frame.tag, frame.from, &to);
                    (
                        true,
                        seal_message(kem, &binding, &frame.bytes, &mut rng),
                        Vec::new(),
                    )
                }
                // The fault drill: every other process gets other bytes, signed as well.
                (false, _) if equivocate && i % 2 == 1 && !frame.bytes.is_empty() => {
                    let mut other = frame.bytes.to_vec();
                    let last = other.len() - 1;
                    other[last] ^= 1;
                    let signature = sign(frame.tag, frame.from, &other);
                    (false, other, signature)
                }
                // A broadcast or a publication: public bytes.
                _ => (false, frame.bytes.to_vec(), signature.clone()),
            };
            let w = Wire::Frame {
                run,
                tag: frame.tag,
                from: frame.from,
                to,
                sealed,
                bytes,
                signature,
            };
            outbox.send(peer, w.to_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use libp2p::identity::Keypair;

    fn roster(kem: &CombinerKey, ids: &[Keypair]) -> Vec<Process> {
        ids.iter()
            .enumerate()
            .map(|(i, id)| Process {
                index: i,
                peer: id.public().to_peer_id(),
                listen: "/ip4/127.0.0.1/tcp/1".parse().unwrap(),
                kem: kem.public_key().clone(),
                addrs: vec![u16::try_from(i).unwrap()],
            })
            .collect()
    }

    /// A public frame from node `from`, signed with `key`.
    fn frame(key: &Keypair, run: [u8; 32], from: Addr, to: Vec<Addr>) -> Vec<u8> {
        let bytes = b"LSD1....".to_vec();
        let signature = key
            .sign(&broadcast_statement(&run, 4, from, &digest(&bytes)))
            .unwrap();
        Wire::Frame {
            run,
            tag: 4,
            from,
            to,
            sealed: false,
            bytes,
            signature,
        }
        .to_bytes()
    }

    #[test]
    fn the_switchboard_files_only_what_the_roster_allows() {
        let kem = CombinerKey::generate(
            quasar_pq::PartyId::new(3).unwrap(),
            &mut super::super::fresh_rng(),
        );
        let ids: Vec<Keypair> = (0..3).map(|_| Keypair::generate_ed25519()).collect();
        let processes = roster(&kem, &ids);
        // Process 2's switchboard, in run [9; 32], hosting node 2.
        let board = Mutex::new(Board {
            run: [9; 32],
            ..Board::default()
        });
        let (inbox_tx, inbox) = mpsc::channel();
        board.lock().unwrap().inboxes.insert(2, inbox_tx);
        let (ctrl_tx, ctrl) = mpsc::channel();
        board.lock().unwrap().ctrl.insert(2, ctrl_tx);
        let (control, _control_rx) = mpsc::channel();
        let p = |i: usize| processes[i].peer;
        let file = |peer, bytes: &[u8]| file(&processes, 2, &board, &control, &kem, peer, bytes);

        // A frame from node 1, sent and signed by process 1, to node 2: filed.
        assert!(file(p(1), &frame(&ids[1], [9; 32], 1, vec![2])));
        assert_eq!(inbox.try_recv().unwrap().from, 1);
        // Process 1 speaking for node 0, another run, a node not hosted here, a stranger,
        // a signature by another process, garbage: all dropped, nothing filed.
        assert!(!file(p(1), &frame(&ids[1], [9; 32], 0, vec![2])));
        assert!(!file(p(1), &frame(&ids[1], [8; 32], 1, vec![2])));
        assert!(!file(p(1), &frame(&ids[1], [9; 32], 1, vec![1])));
        let stranger = Keypair::generate_ed25519().public().to_peer_id();
        assert!(!file(stranger, &frame(&ids[1], [9; 32], 1, vec![2])));
        assert!(!file(p(1), &frame(&ids[0], [9; 32], 1, vec![2])));
        assert!(!file(p(1), b"\xff\xff\xff"));
        assert!(inbox.try_recv().is_err());

        // A sealed frame opens only with its binding: resealed for another recipient or
        // command, or altered, it is dropped.
        let mut rng = super::super::fresh_rng();
        let mut sealed = |tag: u32, to: Addr, bytes: &[u8]| {
            let binding = frame_binding(&[9; 32], tag, 1, &[to]);
            Wire::Frame {
                run: [9; 32],
                tag: 4,
                from: 1,
                to: vec![2],
                sealed: true,
                bytes: seal_message(kem.public_key(), &binding, bytes, &mut rng),
                signature: Vec::new(),
            }
            .to_bytes()
        };
        assert!(file(p(1), &sealed(4, 2, b"LSD1 share")));
        assert_eq!(&inbox.try_recv().unwrap().bytes[..], b"LSD1 share");
        assert!(!file(p(1), &sealed(5, 2, b"LSD1 share")));
        assert!(!file(p(1), &sealed(4, 1, b"LSD1 share")));
        let mut bad = sealed(4, 2, b"LSD1 share");
        let last = bad.len() - 1;
        bad[last] ^= 1;
        assert!(!file(p(1), &bad));
        assert!(inbox.try_recv().is_err());

        // Commands come from the conductor (process 0) only.
        let cmd = Wire::Command {
            run: [9; 32],
            no: 1,
            to: 2,
            cmd: WireCmd::Start { from: 0, expect: 0 },
        }
        .to_bytes();
        assert!(!file(p(1), &cmd));
        assert!(ctrl.try_recv().is_err());
        assert!(file(p(0), &cmd));
        assert!(matches!(ctrl.try_recv().unwrap(), (1, Cmd::Start { .. })));
    }

    #[test]
    fn the_echo_names_a_sender_only_on_two_of_its_own_signatures() {
        let ids: Vec<Keypair> = (0..4).map(|_| Keypair::generate_ed25519()).collect();
        let keys: Arc<BTreeMap<Addr, (PeerId, Option<PublicKey>)>> = Arc::new(
            ids.iter()
                .enumerate()
                .map(|(i, k)| {
                    let peer = k.public().to_peer_id();
                    (u16::try_from(i).unwrap(), (peer, identity_of(&peer)))
                })
                .collect(),
        );
        let run = [5; 32];
        let signed = |k: &Keypair, from: Addr, bytes: &[u8]| {
            (
                from,
                digest(bytes),
                k.sign(&broadcast_statement(&run, 7, from, &digest(bytes)))
                    .unwrap(),
            )
        };
        let frame = |from: Addr, bytes: &[u8]| Frame {
            tag: 7,
            from,
            bytes: Zeroizing::new(bytes.to_vec()),
            signature: signed(&ids[usize::from(from)], from, bytes).2,
        };
        // Node 2 steps with nodes 0 and 3; it received broadcasts from 1 and 3.
        let (tx, rx) = mpsc::channel();
        let links = EchoLinks {
            keys: Arc::clone(&keys),
            local: Arc::new(BTreeMap::new()),
            outbox: Transport::detached(),
        };
        let mut check = echo_round(run, 2, links, rx, Duration::from_secs(2));
        // Node 0 echoes 1's broadcast with another digest under node 3's signature (a
        // forgery: 1 did not sign it) and 3's with another digest signed by 3 itself.
        tx.send((
            7,
            0,
            vec![signed(&ids[3], 1, b"other"), signed(&ids[3], 3, b"BBB2 variant")],
        ))
        .unwrap();
        tx.send((7, 3, vec![])).unwrap();
        let mut frames = vec![frame(1, b"AAA1 broadcast"), frame(3, b"BBB2 broadcast")];
        let blamed = check(7, &[0, 2, 3], &mut frames);
        assert_eq!(frames.len(), 1);
        assert_eq!(frames[0].from, 1);
        assert!(matches!(
            &blamed[..],
            [Event::Blame {
                party: 3,
                code: "EQUIVOCATION",
                ..
            }]
        ));
    }
}
