//! The cluster: the conductor's side of the driver — it sends each command to its nodes,
//! collects their reports (failing the nodes silent past the timeout), counts traffic where
//! no router does, and runs one path per [`Cluster::run`] (see the parent module's docs).

use core::time::Duration;
use std::collections::BTreeMap;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Instant;

use super::{party_id, serve, Cmd, Node, Report, Status, MAX_STEPS};
use crate::conduct::Event;
use crate::net::{self, Addr, Traffic, HUB, RECV_TIMEOUT};
use crate::report::{Failure, StepLog};

/// What a phase left at each node.
#[derive(Debug, Default)]
pub(crate) struct PhaseResult {
    /// Nodes that finished their role, with what they reported.
    pub done: BTreeMap<Addr, Vec<Event>>,
    /// Nodes whose role failed (phase and node filled in).
    pub failed: BTreeMap<Addr, Failure>,
    /// Nodes still waiting when nothing was left in flight (phase and node filled in).
    pub stalled: BTreeMap<Addr, Failure>,
}

/// The running nodes.
pub(crate) struct Cluster<P> {
    ctrl: Vec<Sender<(u32, Cmd<P>)>>,
    reports: Receiver<Report>,
    threads: Vec<JoinHandle<()>>,
    router: Option<JoinHandle<Traffic>>,
    /// Traffic counted from the reports (a network cluster has no router to count it).
    counted: Traffic,
    /// How long a command may take before the nodes that have not reported fail.
    timeout: Duration,
    next: u32,
    /// Every command run so far.
    pub log: Vec<StepLog>,
}

impl<P: Send + Sync + 'static> Cluster<P> {
    /// Starts nodes `0..=max` (0 is the hub), each built in its own thread by `make`.
    pub(crate) fn spawn<N, F>(max: Addr, make: F) -> Cluster<P>
    where
        N: Node<Phase = P>,
        F: Fn(Addr) -> N + Send + Sync + 'static,
    {
        let make = Arc::new(make);
        let (report_tx, reports) = mpsc::channel::<Report>();
        let (endpoints, router) = net::start(max);
        let mut ctrl = Vec::new();
        let mut threads = Vec::new();
        for net in endpoints {
            let (tx, rx) = mpsc::channel::<(u32, Cmd<P>)>();
            ctrl.push(tx);
            let (make, reports) = (Arc::clone(&make), report_tx.clone());
            let addr = net.me();
            let name = if addr == HUB {
                "hub".to_string()
            } else {
                format!("party-{addr}")
            };
            let handle = thread::Builder::new()
                .name(name)
                .stack_size(8 << 20)
                .spawn(move || serve(make(addr), net, &rx, |r| reports.send(r).is_ok()))
                .unwrap_or_else(|e| panic!("cannot start a thread: {e}"));
            threads.push(handle);
        }
        Cluster::assemble(ctrl, reports, threads, Some(router), RECV_TIMEOUT * 2)
    }

    /// A cluster of nodes reached through `ctrl` (indexed by address) that report on
    /// `reports`: in-process threads with their `router`, or a network's nodes (`node`)
    /// with none. A command's nodes that have not reported within `timeout` fail.
    pub(crate) fn assemble(
        ctrl: Vec<Sender<(u32, Cmd<P>)>>,
        reports: Receiver<Report>,
        threads: Vec<JoinHandle<()>>,
        router: Option<JoinHandle<Traffic>>,
        timeout: Duration,
    ) -> Cluster<P> {
        Cluster {
            ctrl,
            reports,
            threads,
            router,
            counted: Traffic::default(),
            timeout,
            next: 1,
            log: Vec::new(),
        }
    }

    /// Sends one command to each node of `to` and waits for every report; logs it under
    /// the first of `labels` a node that made progress worked in (`*row` when none did,
    /// which it then becomes), and each node's time under its own row.
    fn command(
        &mut self,
        labels: &[&'static str],
        row: &mut usize,
        to: &[Addr],
        cmd: impl Fn(Addr) -> Cmd<P>,
    ) -> Result<(u32, Vec<Report>), Failure> {
        let no = self.next;
        self.next += 1;
        let start = Instant::now();
        let mut expected = Vec::new();
        for &a in to {
            if let Some(tx) = self.ctrl.get(usize::from(a)) {
                if tx.send((no, cmd(a))).is_ok() {
                    expected.push(a);
                }
            }
        }
        let mut reports: Vec<Report> = Vec::with_capacity(expected.len());
        let deadline = Instant::now() + self.timeout;
        while reports.len() < expected.len() {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.reports.recv_timeout(left) {
                // A late report of an earlier command, or from a node not asked: stale.
                Ok(r) if r.no != no || !expected.contains(&r.addr) => {}
                Ok(r) if reports.iter().any(|q| q.addr == r.addr) => {}
                Ok(r) => reports.push(r),
                Err(_) => {
                    // The nodes that have not reported fail; the others go on without them.
                    for &a in &expected {
                        if !reports.iter().any(|r| r.addr == a) {
                            reports.push(silent(no, a, labels[*row], self.timeout));
                        }
                    }
                }
            }
        }
        if self.router.is_none() {
            let e = self.counted.by_step.entry(no).or_default();
            for r in &reports {
                e.0 += u64::from(r.sent.values().sum::<u32>());
                e.1 += r.bytes;
            }
        }
        let progressed = |r: &&Report| {
            let s = &r.status;
            matches!(
                s,
                Status::Running | Status::Done(_) | Status::Local(_) | Status::Published(true)
            )
        };
        if let Some(first) = reports.iter().filter(progressed).filter_map(|r| r.label).min() {
            *row = first.min(labels.len() - 1);
        }
        let cpu = reports
            .iter()
            .filter_map(|r| Some((r.addr, r.label?.min(labels.len() - 1), r.cpu)));
        self.log
            .extend(StepLog::rows(no, labels, *row, start.elapsed(), cpu));
        Ok((no, reports))
    }

    /// Runs one path on every node (see the module docs); `labels` name the rows of the
    /// timing table its rounds belong to (at least one).
    pub(crate) fn run(&mut self, labels: &[&'static str], phase: P) -> Result<PhaseResult, Failure> {
        let phase = Arc::new(phase);
        let all: Vec<Addr> =
            (0..Addr::try_from(self.ctrl.len()).expect("at most MAX_PARTIES nodes")).collect();
        let mut result = PhaseResult::default();
        let fail = |result: &mut PhaseResult, r: &Report, mut f: Failure| {
            f.phase = labels[r.label.unwrap_or(0).min(labels.len() - 1)].to_string();
            f.node = Some(r.addr);
            result.failed.insert(r.addr, f);
        };
        let mut row = 0;

        let (mut from, reports) =
            self.command(labels, &mut row, &all, |_| Cmd::Publish(Arc::clone(&phase)))?;
        let mut expect = totals(&reports);
        for r in reports {
            if let Status::Failed(ref f) = r.status {
                fail(&mut result, &r, f.clone());
            }
        }
        let alive: Vec<Addr> = all
            .into_iter()
            .filter(|a| !result.failed.contains_key(a))
            .collect();
        let (_, reports) = self.command(labels, &mut row, &alive, |a| Cmd::Start {
            from,
            expect: expect.get(&a).copied().unwrap_or(0),
        })?;
        let mut members = Vec::new();
        for r in reports {
            match r.status {
                Status::Running => members.push(r.addr),
                Status::Local(ref events) => {
                    result.done.insert(r.addr, events.clone());
                }
                Status::Failed(ref f) => fail(&mut result, &r, f.clone()),
                _ => {}
            }
        }
        if members.is_empty() {
            return Ok(result);
        }
        let members = Arc::new(members);
        let (no, reports) = self.command(labels, &mut row, &members, |_| Cmd::Flush(Arc::clone(&members)))?;
        (from, expect) = (no, totals(&reports));
        let mut running = (*members).clone();
        // What each waiting party dropped so far.
        let mut drops: BTreeMap<Addr, Vec<Event>> = BTreeMap::new();
        for _ in 0..MAX_STEPS {
            let stepping = Arc::new(running.clone());
            let (no, reports) = self.command(labels, &mut row, &running, |a| Cmd::Step {
                from,
                expect: expect.get(&a).copied().unwrap_or(0),
                members: Arc::clone(&members),
                running: Arc::clone(&stepping),
            })?;
            (from, expect) = (no, totals(&reports));
            let mut progress = !expect.is_empty();
            running.clear();
            for r in reports {
                match r.status {
                    Status::Running => {
                        progress = true;
                        running.push(r.addr);
                    }
                    Status::Waiting(ref d) | Status::Read(ref d) => {
                        running.push(r.addr);
                        drops.insert(r.addr, d.clone());
                    }
                    Status::Done(ref events) => {
                        progress = true;
                        result.done.insert(r.addr, events.clone());
                    }
                    Status::Failed(ref f) => fail(&mut result, &r, f.clone()),
                    _ => {}
                }
            }
            if running.is_empty() {
                return Ok(result);
            }
            if !progress {
                break;
            }
        }
        // Still waiting with nothing in flight: the messages they wait for never come.
        for a in running {
            let mut f = stalled(a, drops.remove(&a).unwrap_or_default());
            f.phase = labels[row].to_string();
            f.node = Some(a);
            result.stalled.insert(a, f);
        }
        Ok(result)
    }

    /// Stops every node and the router; returns the traffic counts.
    pub(crate) fn finish(mut self) -> Traffic {
        self.ctrl.clear();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
        match self.router.take() {
            Some(r) => r.join().unwrap_or_default(),
            None => core::mem::take(&mut self.counted),
        }
    }
}

/// The report of node `a`, silent for `timeout` on command `no` (in row `row`): failed.
fn silent(no: u32, a: Addr, row: &str, timeout: Duration) -> Report {
    let mut f = Failure::local(
        crate::conduct::SILENT,
        format!("node {a} did not report within {} s", timeout.as_secs()),
    );
    f.phase = row.to_string();
    f.node = Some(a);
    Report {
        no,
        addr: a,
        cpu: Duration::ZERO,
        status: Status::Failed(f),
        label: None,
        sent: BTreeMap::new(),
        bytes: 0,
    }
}

/// The failure of node `a`, still waiting with nothing in flight after dropping `dropped`:
/// the library's missing-message failure, naming the senders of what it dropped (a
/// missing message alone proves nothing; a dropped one names its sender).
fn stalled(a: Addr, dropped: Vec<Event>) -> Failure {
    let mut f = Failure::from(quasar_pq::Error::from(quasar_pq::party::Error::Waiting {
        party: party_id(a),
    }));
    // The library's error names whose message is missing; a host that gave up on a party
    // waiting for several cannot say which one, so the message says what it knows.
    f.message = "nothing left in flight, and no valid message for this round".into();
    let dropped: Vec<(u16, &str, &str)> = dropped
        .iter()
        .filter_map(|e| match e {
            Event::Blame {
                party, code, reason, ..
            } => Some((*party, *code, reason.as_str())),
            _ => None,
        })
        .collect();
    if dropped.is_empty() {
        return f;
    }
    let mut culprits: Vec<u16> = dropped.iter().map(|b| b.0).collect();
    culprits.sort_unstable();
    culprits.dedup();
    let lines: Vec<String> = culprits
        .iter()
        .map(|&p| {
            let mine: Vec<_> = dropped.iter().filter(|b| b.0 == p).collect();
            let more = match mine.len() {
                1 => String::new(),
                k => format!(" (and {} more)", k - 1),
            };
            let (_, code, reason) = mine[0];
            format!("party {p}'s: {code} — {reason}{more}")
        })
        .collect();
    f.message = format!("{}; it dropped {}", f.message, lines.join("; "));
    f.culprits = culprits;
    f
}

/// Frames sent by recipient, summed over the reports of one command.
fn totals(reports: &[Report]) -> BTreeMap<Addr, u32> {
    let mut out = BTreeMap::new();
    for r in reports {
        for (&to, &n) in &r.sent {
            *out.entry(to).or_default() += n;
        }
    }
    out
}
