//! A process's part of a networked cluster: the router that sends what local nodes send
//! (sealing direct messages, signing public ones), the run's local nodes with their
//! switchboard routes (`switchboard`) and echo rounds (`echo`), and the two ways a process
//! takes part in a run — conducting it (process 0: the conductor and node 0) or serving its
//! nodes (every other process).
//!
//! A direct message (it may carry a share) leaves its process sealed to the receiving
//! process's ML-KEM-768 key from the roster (`pulsar::custody::envelope::seal_message`,
//! bound to the run, command, sender and recipient), so it stays confidential against a
//! recorder with a future quantum computer even though Noise's key exchange is X25519. A
//! public frame (a broadcast, a publication) carries its process's signature of `(run,
//! command, sender, SHA3-256 of the bytes)`, which the receiving switchboard checks and the
//! echo round carries.

use core::sync::atomic::{AtomicU64, Ordering};
use core::time::Duration;
use std::collections::BTreeMap;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Instant;

use libp2p::identity::{Keypair, PublicKey};
use libp2p::{Multiaddr, PeerId};
use quasar_pq::pulsar::custody::envelope::seal_message;
use quasar_pq::pulsar::custody::{CombinerKey, CombinerPublicKey};

use super::drill::{Conditions, Drills};
use super::echo::{echo_round, EchoLinks};
use super::roster::Process;
use super::switchboard::{file, Board, Control};
use super::transport::{Outbox, Transport};
use super::wire::{broadcast_statement, digest, frame_binding, Wire};
use crate::driver::{self, Cluster, Cmd, Node, Report};
use crate::flow::Phase;
use crate::net::{Addr, Endpoint, Frame, Packet};
use crate::report::Failure;

/// A node's command channel.
type Ctrl = Sender<(u32, Cmd<Phase>)>;

/// The run's local nodes: their command channels, and their threads with the router's.
type Started = (BTreeMap<Addr, Ctrl>, Vec<JoinHandle<()>>);

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
        drills: Drills,
        delay: Duration,
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
        let listen = mine
            .listen
            .clone()
            .ok_or_else(|| format!("process {me} is a browser process: a page plays it"))?;
        let listen: Vec<Multiaddr> = core::iter::once(listen).chain(mine.ws.clone()).collect();
        let conditions = Arc::new(Conditions::with_delay(delay));
        let mut transport = Transport::start(key, listen, peers, Arc::clone(&conditions))?;
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
                        // Decoded once, here; `file` checks the rest.
                        let Some(wire) = Wire::from_bytes(&bytes) else {
                            dropped.fetch_add(1, Ordering::Relaxed);
                            continue;
                        };
                        if let Wire::Command { no, .. } = &wire {
                            drills.on_command(me, *no, &conditions);
                        }
                        if !file(&processes, me, &board, &control_tx, &kem, peer, wire) {
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
        let keys: Arc<BTreeMap<Addr, (PeerId, PublicKey)>> = Arc::new(
            self.processes
                .iter()
                .flat_map(|p| p.addrs.iter().map(move |&a| (a, (p.peer, p.identity.clone()))))
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
            outbox.send(conductor, Wire::Report { run, report: r }.to_bytes());
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
