//! The in-process network: one thread per node, a router thread that forwards bytes and
//! counts them, and a conductor (the main thread) that starts each step on every node and
//! waits for all of them (a barrier per step, as the browser demo's coordinator does).
//!
//! Nodes exchange only bytes: each protocol message is its `to_bytes()` encoding, routed
//! by address. Address 0 is the combiner (Pulsar) or coordinator (Lens); 1..=256 are the
//! parties. A broadcast to k peers is k point-to-point deliveries, and is counted so. An
//! empty frame is a "nothing this round" marker (what a real network learns from a
//! timeout); it is delivered but not counted.
//!
//! Within one step a node reads what the previous steps sent it, computes, and sends;
//! it never waits on a peer's work of the same step, so steps are clean phases.
//!
//! Per-node times are the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`) where the OS has
//! it, so they do not grow when more threads than cores share the machine. Set
//! `QUASAR_TRACE=1` to print every step's wall-clock and CPU times to stderr.

use std::collections::{BTreeMap, BTreeSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, RwLock};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use zeroize::Zeroizing;

use crate::report::Failure;

/// A node's address: 0 for the combiner / coordinator, otherwise the party id.
pub type Addr = u16;

/// The combiner's / coordinator's address.
pub const HUB: Addr = 0;

/// How long a node waits for a message that the previous step should have delivered.
const RECV_TIMEOUT: Duration = Duration::from_secs(60);

/// What a message is, so a node can take its messages in any arrival order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Chan {
    /// Public data of the group (a sharing, a public key package, a group key).
    Public,
    /// A second piece of public data sent with [`Chan::Public`].
    GroupKey,
    /// A DKG / dealing broadcast.
    Deal,
    /// A private share.
    Share,
    /// A complaint broadcast.
    Complaint,
    /// A response broadcast.
    Response,
    /// The combiner's encapsulation key.
    CombinerKey,
    /// A signing round-1 message.
    Round1,
    /// A signing package (Lens).
    Package,
    /// A signing round-2 message.
    Round2,
    /// A result (signature, announcement, certificate).
    Result,
}

/// One message on the wire.
pub struct Frame {
    step: u32,
    from: Addr,
    chan: Chan,
    bytes: Zeroizing<Vec<u8>>,
}

struct Packet {
    to: Vec<Addr>,
    frame: Frame,
}

/// Messages and bytes delivered, by step.
#[derive(Debug, Default, Clone)]
pub struct Traffic {
    /// `step → (messages, bytes)`.
    pub by_step: BTreeMap<u32, (u64, u64)>,
}

/// A node's connection to the router.
pub struct Endpoint {
    me: Addr,
    step: u32,
    router: Sender<Packet>,
    inbox: Receiver<Frame>,
    pending: Vec<Frame>,
    /// Nodes that dropped out: nobody waits for them (a real network's timeout).
    offline: Arc<RwLock<BTreeSet<Addr>>>,
}

impl Endpoint {
    fn post(&self, to: Vec<Addr>, chan: Chan, bytes: Zeroizing<Vec<u8>>) {
        if to.is_empty() {
            return;
        }
        let frame = Frame {
            step: self.step,
            from: self.me,
            chan,
            bytes,
        };
        // The router outlives every endpoint; a send error means the run is being torn down.
        let _ = self.router.send(Packet { to, frame });
    }

    /// Sends `bytes` to one node.
    pub fn send(&self, to: Addr, chan: Chan, bytes: impl Into<Zeroizing<Vec<u8>>>) {
        self.post(vec![to], chan, bytes.into());
    }

    /// Sends the same bytes to every node of `to` except this one.
    pub fn broadcast(
        &self,
        to: impl IntoIterator<Item = Addr>,
        chan: Chan,
        bytes: impl Into<Zeroizing<Vec<u8>>>,
    ) {
        let to: Vec<Addr> = to.into_iter().filter(|&a| a != self.me).collect();
        self.post(to, chan, bytes.into());
    }

    /// Tells every node of `to` that nothing comes from this node on `chan` this round.
    pub fn withhold(&self, to: impl IntoIterator<Item = Addr>, chan: Chan) {
        self.broadcast(to, chan, Vec::new());
    }

    /// Takes one frame on `chan` from every node of `from` (this node excluded). Senders
    /// that withheld are absent from the result.
    pub fn collect(
        &mut self,
        chan: Chan,
        from: &[Addr],
    ) -> Result<BTreeMap<Addr, Zeroizing<Vec<u8>>>, Failure> {
        let offline = self.offline.read().map(|o| o.clone()).unwrap_or_default();
        let mut want: BTreeSet<Addr> = from
            .iter()
            .copied()
            .filter(|a| *a != self.me && !offline.contains(a))
            .collect();
        let mut got = BTreeMap::new();
        let mut keep = Vec::with_capacity(self.pending.len());
        for f in self.pending.drain(..) {
            if f.chan == chan && want.remove(&f.from) {
                if !f.bytes.is_empty() {
                    got.insert(f.from, f.bytes);
                }
            } else {
                keep.push(f);
            }
        }
        self.pending = keep;
        while !want.is_empty() {
            match self.inbox.recv_timeout(RECV_TIMEOUT) {
                Ok(f) if f.chan == chan && want.contains(&f.from) => {
                    want.remove(&f.from);
                    if !f.bytes.is_empty() {
                        got.insert(f.from, f.bytes);
                    }
                }
                Ok(f) => self.pending.push(f),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                    return Err(Failure::local(
                        "TIMEOUT",
                        format!("no {chan:?} message from {:?}", want.iter().collect::<Vec<_>>()),
                    )
                    .blaming(want.into_iter().filter(|&a| a != HUB).collect()));
                }
            }
        }
        Ok(got)
    }

    /// Takes the one frame on `chan` from `from`.
    pub fn collect_one(&mut self, chan: Chan, from: Addr) -> Result<Zeroizing<Vec<u8>>, Failure> {
        self.collect(chan, &[from])?.remove(&from).ok_or_else(|| {
            Failure::local(
                "MISSING_MESSAGE",
                format!("no {chan:?} message from {}", who(from)),
            )
            .blaming(if from == HUB { vec![] } else { vec![from] })
        })
    }
}

/// What the hub is in this run ("combiner" or "coordinator"), for messages.
pub static HUB_NAME: std::sync::OnceLock<&'static str> = std::sync::OnceLock::new();

/// A node's name for messages.
pub fn who(a: Addr) -> String {
    if a == HUB {
        format!("the {}", HUB_NAME.get().copied().unwrap_or("hub"))
    } else {
        format!("party {a}")
    }
}

/// What a node reports after a step.
#[derive(Debug, Default)]
pub struct Done {
    /// Whether the node had a role in the step (inactive nodes are left out of timings).
    pub active: bool,
    /// What happened, for the conductor to print.
    pub events: Vec<Event>,
    /// The session failed and these parties are to blame: retry without them.
    pub exclude: Vec<Addr>,
}

impl Done {
    /// A step with no role for this node.
    pub fn idle() -> Done {
        Done::default()
    }

    /// A step this node worked on.
    pub fn active() -> Done {
        Done {
            active: true,
            ..Done::default()
        }
    }

    /// Adds an event.
    pub fn with(mut self, e: Event) -> Done {
        self.events.push(e);
        self
    }
}

/// Something worth printing.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Event {
    /// A party was named for misbehaving and excluded.
    Blame {
        /// The party.
        party: u16,
        /// The error code.
        code: String,
        /// What it did.
        reason: String,
    },
    /// The group key this node holds or checked: label, SHA3-256 of its bytes, length.
    Key {
        /// Which key ("before reshare" / "after reshare").
        label: &'static str,
        /// SHA3-256 of the key bytes.
        digest: [u8; 32],
        /// Length of the key in bytes.
        len: usize,
    },
    /// The parties whose contributions made a signature.
    Signers(Vec<u16>),
    /// A line of information.
    Note(String),
}

/// A protocol participant: runs one step at a time, keeping its own state.
pub trait Actor {
    /// The steps the conductor can start.
    type Step;
    /// Runs one step.
    fn step(&mut self, step: &Self::Step, net: &mut Endpoint) -> Result<Done, Failure>;
}

enum Cmd<S> {
    Step(u32, Arc<S>),
    Stop,
}

struct Report {
    addr: Addr,
    step: u32,
    cpu: Duration,
    result: Result<Done, Failure>,
}

/// One step as the conductor saw it.
#[derive(Debug, Clone)]
pub struct StepLog {
    /// Step number (the router's key).
    pub no: u32,
    /// The phase it belongs to.
    pub phase: String,
    /// Wall-clock from the start command to the last report.
    pub wall: Duration,
    /// CPU time of every active node, by address.
    pub cpu: BTreeMap<Addr, Duration>,
}

/// The reports of one step.
#[derive(Debug, Default)]
pub struct Stepped {
    /// Nodes that finished the step.
    pub done: BTreeMap<Addr, Done>,
    /// Nodes whose step failed (phase and node filled in).
    pub failed: BTreeMap<Addr, Failure>,
}

/// The running nodes.
pub struct Cluster<S> {
    ctrl: Vec<Sender<Cmd<S>>>,
    offline: Arc<RwLock<BTreeSet<Addr>>>,
    reports: Receiver<Report>,
    threads: Vec<JoinHandle<()>>,
    router: Option<JoinHandle<Traffic>>,
    next: u32,
    /// Every step run so far.
    pub log: Vec<StepLog>,
}

/// Per-thread CPU time (`CLOCK_THREAD_CPUTIME_ID`) where the platform has it.
mod cpu {
    use std::time::Duration;

    #[cfg(all(target_pointer_width = "64", any(target_os = "linux", target_os = "macos")))]
    mod sys {
        use std::ffi::{c_int, c_long};

        #[repr(C)]
        pub struct Timespec {
            pub tv_sec: c_long,
            pub tv_nsec: c_long,
        }

        #[cfg(target_os = "linux")]
        pub const CLOCK_THREAD_CPUTIME_ID: c_int = 3;
        #[cfg(target_os = "macos")]
        pub const CLOCK_THREAD_CPUTIME_ID: c_int = 16;

        extern "C" {
            pub fn clock_gettime(clock: c_int, tp: *mut Timespec) -> c_int;
        }
    }

    /// The calling thread's CPU time, or `None` where it is not available.
    #[cfg(all(target_pointer_width = "64", any(target_os = "linux", target_os = "macos")))]
    pub fn thread_time() -> Option<Duration> {
        let mut ts = sys::Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `clock_gettime` is the POSIX function of libc (which std links), called
        // with a clock id valid on this OS and a pointer to a properly laid out, writable
        // `timespec` (two `long`s on 64-bit Linux and macOS) that outlives the call.
        let rc = unsafe { sys::clock_gettime(sys::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        if rc != 0 {
            return None;
        }
        Some(Duration::new(
            u64::try_from(ts.tv_sec).ok()?,
            u32::try_from(ts.tv_nsec).ok()?,
        ))
    }

    /// The calling thread's CPU time, or `None` where it is not available.
    #[cfg(not(all(target_pointer_width = "64", any(target_os = "linux", target_os = "macos"))))]
    pub fn thread_time() -> Option<Duration> {
        None
    }
}

/// What per-node times measure on this platform.
pub fn clock_kind() -> &'static str {
    if cpu::thread_time().is_some() {
        "thread CPU time"
    } else {
        "thread wall time"
    }
}

fn route(rx: Receiver<Packet>, inboxes: Vec<Sender<Frame>>) -> Traffic {
    let mut traffic = Traffic::default();
    for Packet { to, frame } in rx {
        if !frame.bytes.is_empty() {
            let e = traffic.by_step.entry(frame.step).or_default();
            e.0 += to.len() as u64;
            e.1 += (frame.bytes.len() * to.len()) as u64;
        }
        let last = to.len() - 1;
        let mut frame = Some(frame);
        for (i, a) in to.iter().enumerate() {
            let Some(inbox) = inboxes.get(usize::from(*a)) else {
                continue;
            };
            let f = if i == last {
                frame.take()
            } else {
                frame.as_ref().map(|f| Frame {
                    step: f.step,
                    from: f.from,
                    chan: f.chan,
                    bytes: f.bytes.clone(),
                })
            };
            if let Some(f) = f {
                let _ = inbox.send(f);
            }
        }
    }
    traffic
}

impl<S: Send + Sync + 'static> Cluster<S> {
    /// Starts nodes `0..=max` (0 is the hub), each built in its own thread by `make`.
    pub fn spawn<A, F>(max: Addr, make: F) -> Cluster<S>
    where
        A: Actor<Step = S>,
        F: Fn(Addr) -> A + Send + Sync + 'static,
    {
        let make = Arc::new(make);
        let (router_tx, router_rx) = mpsc::channel::<Packet>();
        let (report_tx, reports) = mpsc::channel::<Report>();
        let mut inboxes = Vec::new();
        let mut ctrl = Vec::new();
        let mut threads = Vec::new();
        let offline = Arc::new(RwLock::new(BTreeSet::new()));
        for addr in 0..=max {
            let (inbox_tx, inbox) = mpsc::channel::<Frame>();
            let (ctrl_tx, ctrl_rx) = mpsc::channel::<Cmd<S>>();
            inboxes.push(inbox_tx);
            ctrl.push(ctrl_tx);
            let make = Arc::clone(&make);
            let reports = report_tx.clone();
            let mut net = Endpoint {
                me: addr,
                step: 0,
                router: router_tx.clone(),
                inbox,
                pending: Vec::new(),
                offline: Arc::clone(&offline),
            };
            let name = if addr == HUB {
                "hub".to_string()
            } else {
                format!("party-{addr}")
            };
            let handle = thread::Builder::new()
                .name(name)
                .stack_size(8 << 20)
                .spawn(move || {
                    let mut node = make(addr);
                    while let Ok(Cmd::Step(no, step)) = ctrl_rx.recv() {
                        net.step = no;
                        let wall = Instant::now();
                        let cpu0 = cpu::thread_time();
                        let result = catch_unwind(AssertUnwindSafe(|| node.step(&step, &mut net)))
                            .unwrap_or_else(|_| Err(Failure::local("PANIC", "a node panicked".into())));
                        let cpu = match (cpu0, cpu::thread_time()) {
                            (Some(a), Some(b)) => b.saturating_sub(a),
                            _ => wall.elapsed(),
                        };
                        if reports
                            .send(Report {
                                addr,
                                step: no,
                                cpu,
                                result,
                            })
                            .is_err()
                        {
                            break;
                        }
                    }
                })
                .unwrap_or_else(|e| panic!("cannot start a thread: {e}"));
            threads.push(handle);
        }
        drop(router_tx);
        let router = thread::Builder::new()
            .name("router".into())
            .spawn(move || route(router_rx, inboxes))
            .unwrap_or_else(|e| panic!("cannot start the router: {e}"));
        Cluster {
            ctrl,
            offline,
            reports,
            threads,
            router: Some(router),
            next: 1,
            log: Vec::new(),
        }
    }

    /// Takes `addr` out of the run: it gets no more steps, and nobody waits for it.
    pub fn drop_out(&mut self, addr: Addr) {
        if let Ok(mut o) = self.offline.write() {
            o.insert(addr);
        }
    }

    /// Runs `step` on every node still in the run and waits for all of them. Returns every
    /// node's report and every node's failure.
    pub fn run(&mut self, phase: &str, step: S) -> Result<Stepped, Failure> {
        let no = self.next;
        self.next += 1;
        let step = Arc::new(step);
        let offline = self.offline.read().map(|o| o.clone()).unwrap_or_default();
        let start = Instant::now();
        let mut expected = 0;
        for (addr, tx) in self.ctrl.iter().enumerate() {
            if offline.contains(&(addr as Addr)) {
                continue;
            }
            if tx.send(Cmd::Step(no, Arc::clone(&step))).is_ok() {
                expected += 1;
            }
        }
        let mut out = Stepped::default();
        let mut cpu = BTreeMap::new();
        for _ in 0..expected {
            let r = self
                .reports
                .recv_timeout(RECV_TIMEOUT * 2)
                .map_err(|_| Failure::local("TIMEOUT", format!("a node did not finish step {no}")))?;
            debug_assert_eq!(r.step, no);
            match r.result {
                Ok(d) => {
                    if d.active {
                        cpu.insert(r.addr, r.cpu);
                    }
                    out.done.insert(r.addr, d);
                }
                Err(mut f) => {
                    cpu.insert(r.addr, r.cpu);
                    f.phase = phase.to_string();
                    f.node = Some(r.addr);
                    out.failed.insert(r.addr, f);
                }
            }
        }
        if std::env::var_os("QUASAR_TRACE").is_some() {
            let total: Duration = cpu.values().sum();
            eprintln!(
                "step {no} {phase}: wall {:?}, cpu sum {:?}, max {:?}",
                start.elapsed(),
                total,
                cpu.values().max()
            );
        }
        self.log.push(StepLog {
            no,
            phase: phase.to_string(),
            wall: start.elapsed(),
            cpu,
        });
        Ok(out)
    }

    /// Stops every node and the router; returns the traffic counts.
    pub fn finish(mut self) -> Traffic {
        for tx in &self.ctrl {
            let _ = tx.send(Cmd::Stop);
        }
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
        self.router.take().and_then(|r| r.join().ok()).unwrap_or_default()
    }
}
