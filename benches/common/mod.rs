//! What the protocol benches share: whole runs through the library's simulator
//! (`party::sim`), one party's own steps replayed from a logged run, the resharing cases,
//! and the recording of every timed operation.
//!
//! **Per-party figures time one party's own `start` or `step`** — bytes in, bytes out —
//! on the inbox the simulator delivered to it in a reference run, never a total ÷ n. The
//! replayed party draws from the same labelled RNG ([`party_rng`]) as in the reference
//! run, so it sends exactly what it sent there and every later inbox matches it; building
//! an inbox is outside the timer. Whole runs go through `sim::Network` (its copying of
//! broadcasts is a few percent of a run at most).
#![allow(dead_code)]

use core::hint::black_box;
use core::time::Duration;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Instant;

use criterion::measurement::WallTime;
use criterion::BenchmarkGroup;
use quasar_pq::party::sim::{Network, Sent};
use quasar_pq::party::{Incoming, Outgoing, Party, Step};
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;

/// A reproducible RNG for party `id` of the run labelled `label`.
pub(crate) fn party_rng(label: &str, id: PartyId) -> ChaCha20Rng {
    quasar_pq::party::sim::party_rng(format!("quasar-pq/bench/{label}").as_bytes(), id)
}

/// A reproducible RNG for something other than a party (a dealer, a nonce source).
pub(crate) fn rng(label: &str) -> ChaCha20Rng {
    party_rng(label, pid(u16::MAX))
}

/// Party `v`.
pub(crate) fn pid(v: u16) -> PartyId {
    PartyId::new(v).expect("non-zero id")
}

/// Parties of a range.
pub(crate) fn ids(range: impl IntoIterator<Item = u16>) -> Vec<PartyId> {
    range.into_iter().map(pid).collect()
}

/// `⌈2n/3⌉`.
pub(crate) fn two_thirds(n: u16) -> u16 {
    (2 * n).div_ceil(3)
}

// ---------------------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------------------

/// Runs a network to the end; every party must succeed. Returns the outputs and the log.
pub(crate) fn run_logged<O: Send + 'static>(net: Network<O>) -> (BTreeMap<PartyId, O>, Vec<Sent>) {
    let (outputs, sent) = net.run_logged();
    let outputs = outputs
        .into_iter()
        .map(|(p, o)| (p, o.unwrap_or_else(|e| panic!("{p} failed: {e}"))))
        .collect();
    (outputs, sent)
}

/// [`run_logged`] without the log.
pub(crate) fn run<O: Send + 'static>(net: Network<O>) -> BTreeMap<PartyId, O> {
    run_logged(net).0
}

/// The inbox party `me` got in round `round` of a logged run: what the others sent in the
/// round before — every broadcast and the direct messages to `me` — as the simulator
/// delivers it.
pub(crate) fn inbox(sent: &[Sent], round: u32, me: PartyId) -> Vec<(PartyId, Vec<u8>)> {
    let mut out = Vec::new();
    for s in sent.iter().filter(|s| s.round + 1 == round && s.from != me) {
        if let Some(b) = &s.outgoing.broadcast {
            out.push((s.from, b.clone()));
        }
        for d in s.outgoing.direct.iter().filter(|d| d.to == me) {
            out.push((s.from, d.bytes.to_vec()));
        }
    }
    out
}

/// One party's run replayed from `sent`: the time of `start` (timed whole, so it may
/// include building the session) and of each step, and the output.
pub(crate) struct Replay<O> {
    /// `start`, then round 1, round 2, … (rounds spent waiting included, near zero).
    pub times: Vec<Duration>,
    /// The party's output.
    pub output: O,
}

impl<O> Replay<O> {
    /// The time of `start` plus rounds `from..=to` (0 = `start`).
    pub(crate) fn span(&self, from: usize, to: usize) -> Duration {
        self.times[from..=to.min(self.times.len() - 1)].iter().sum()
    }

    /// The whole party: `start` and every round.
    pub(crate) fn total(&self) -> Duration {
        self.times.iter().sum()
    }
}

/// Replays one party: `start` (timed) returns it and its first messages; then each round
/// it steps (timed alone) on the inbox it got in the logged run, until it is done.
pub(crate) fn replay<P: Party>(start: impl FnOnce() -> (P, Outgoing), sent: &[Sent]) -> Replay<P::Output> {
    let t = Instant::now();
    let (mut party, first) = start();
    let mut times = vec![t.elapsed()];
    black_box(first);
    let me = party.id();
    for round in 1..=quasar_pq::party::sim::MAX_ROUNDS {
        let messages = inbox(sent, round, me);
        let inbox: Vec<Incoming<'_>> = messages.iter().map(|(p, b)| Incoming::new(*p, b)).collect();
        let t = Instant::now();
        let step = party.step(&inbox);
        times.push(t.elapsed());
        match step {
            Ok(Step::Done(out, output)) => {
                black_box(out);
                return Replay { times, output };
            }
            Ok(Step::Continue(out)) => {
                black_box(out);
            }
            Ok(Step::Waiting) => {}
            Err(e) => panic!("{me} failed in round {round}: {e}"),
        }
    }
    panic!("{me} did not finish");
}

// ---------------------------------------------------------------------------------------
// Resharing cases
// ---------------------------------------------------------------------------------------

/// One resharing case (t = ⌈2n/3⌉ on both sides).
#[derive(Clone, Copy)]
pub(crate) enum Case {
    /// n → n, same set, a minimal quorum of t_old dealers.
    Same(u16),
    /// Refresh of n parties, all dealing.
    Refresh(u16),
    /// n_old → n_new with a disjoint new set (ids 1001…).
    NewSet(u16, u16),
}

impl Case {
    /// `21->21`, `21->21 refresh`, `21->64 new set`.
    pub(crate) fn name(self) -> String {
        match self {
            Case::Same(n) => format!("{n}->{n}"),
            Case::Refresh(n) => format!("{n}->{n} refresh"),
            Case::NewSet(a, b) => format!("{a}->{b} new set"),
        }
    }

    /// The old set's size.
    pub(crate) fn n_old(self) -> u16 {
        match self {
            Case::Same(n) | Case::Refresh(n) | Case::NewSet(n, _) => n,
        }
    }

    /// The new set's size.
    pub(crate) fn n_new(self) -> u16 {
        match self {
            Case::Same(n) | Case::Refresh(n) | Case::NewSet(_, n) => n,
        }
    }

    /// The dealers, the receivers and the new threshold (`None` for a refresh).
    pub(crate) fn sets(self) -> (Vec<PartyId>, Vec<PartyId>, Option<u16>) {
        let t_old = two_thirds(self.n_old());
        match self {
            Case::Same(n) => (ids(1..=t_old), ids(1..=n), Some(two_thirds(n))),
            Case::Refresh(n) => (ids(1..=n), ids(1..=n), None),
            Case::NewSet(_, n) => (ids(1..=t_old), ids(1001..=1000 + n), Some(two_thirds(n))),
        }
    }

    /// The label of a table row.
    pub(crate) fn label(self) -> String {
        match self {
            Case::Same(n) => n.to_string(),
            Case::Refresh(n) => format!("{n} → {n} (refresh, same set)"),
            Case::NewSet(a, b) if a == b => format!("{a} → {b} (reshare, new set)"),
            Case::NewSet(a, b) if a < b => format!("{a} → {b} (expansion, new set)"),
            Case::NewSet(a, b) => format!("{a} → {b} (contraction, new set)"),
        }
    }
}

/// n → n for n ∈ {3, 7, 21, 64, 128}, then the six transitions.
pub(crate) fn cases() -> Vec<Case> {
    let mut v: Vec<Case> = [3, 7, 21, 64, 128].into_iter().map(Case::Same).collect();
    v.extend([
        Case::Refresh(21),
        Case::NewSet(21, 21),
        Case::NewSet(21, 64),
        Case::NewSet(64, 21),
        Case::NewSet(64, 128),
        Case::NewSet(128, 64),
    ]);
    v
}

// ---------------------------------------------------------------------------------------
// Recording
// ---------------------------------------------------------------------------------------

/// Every timed operation, by id, with the harness that timed it.
static RESULTS: Mutex<BTreeMap<String, (Vec<Duration>, &'static str)>> = Mutex::new(BTreeMap::new());

/// Records one operation of `id`.
pub(crate) fn record(id: &str, d: Duration, harness: &'static str) {
    RESULTS
        .lock()
        .expect("results")
        .entry(id.to_string())
        .or_insert_with(|| (Vec::new(), harness))
        .0
        .push(d);
}

/// The median of the operations recorded under `id`.
pub(crate) fn median_of(id: &str) -> Option<Duration> {
    let results = RESULTS.lock().expect("results");
    let mut v = results.get(id)?.0.clone();
    v.sort();
    Some(v[v.len() / 2])
}

/// The benchmark filter given on the command line, if any (checked before a case's
/// set-up, which criterion's own filter would still run).
pub(crate) fn wanted(prefix: &str) -> bool {
    match std::env::args().skip(1).find(|a| !a.starts_with('-')) {
        None => true,
        Some(f) => prefix.contains(f.as_str()) || f.contains(prefix),
    }
}

/// Benchmarks one operation that times itself (`op` returns the time of the part that
/// counts, so its preparation stays outside); records every operation under `id`.
pub(crate) fn bench(g: &mut BenchmarkGroup<'_, WallTime>, id: &str, mut op: impl FnMut() -> Duration) {
    let name = id.rsplit_once('/').map_or(id, |(_, n)| n);
    g.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let d = op();
                record(id, d, "criterion");
                total += d;
            }
            total
        })
    });
}

/// [`bench`] for a whole run, also recording its thread CPU time under `id#cpu` (on a
/// shared machine, next to the wall time).
pub(crate) fn bench_run(g: &mut BenchmarkGroup<'_, WallTime>, id: &str, mut op: impl FnMut() -> Duration) {
    let cpu_id = format!("{id}#cpu");
    bench(g, id, || {
        let cpu = cpu_now();
        let d = op();
        if let (Some(a), Some(b)) = (cpu, cpu_now()) {
            record(&cpu_id, b.saturating_sub(a), "criterion");
        }
        d
    });
}

/// Times `f` once.
pub(crate) fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let t = Instant::now();
    let out = f();
    (out, t.elapsed())
}

/// This thread's CPU time (`/proc/thread-self/schedstat`, updated at least every
/// scheduler tick): for whole runs on a shared machine, next to their wall time.
pub(crate) fn cpu_now() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace()
        .next()?
        .parse()
        .ok()
        .map(Duration::from_nanos)
}

/// A whole run timed by a plain harness (`runs` times, no warm-up): for cases too slow
/// for criterion's ≥ 10 samples. Records wall time under `id` and CPU time under
/// `id#cpu`.
pub(crate) fn plain(id: &str, runs: usize, mut op: impl FnMut(usize)) {
    for i in 0..runs {
        let cpu = cpu_now();
        let start = Instant::now();
        op(i);
        let d = start.elapsed();
        if let (Some(a), Some(b)) = (cpu, cpu_now()) {
            record(&format!("{id}#cpu"), b.saturating_sub(a), "plain");
        }
        record(id, d, "plain");
        println!("{id}: run {} of {runs}: {:.3} s", i + 1, d.as_secs_f64());
    }
}

/// `PULSAR_BENCH_RUNS` (or `BENCH_RUNS`) runs for the plain harness, default 3.
pub(crate) fn plain_runs() -> usize {
    ["PULSAR_BENCH_RUNS", "BENCH_RUNS"]
        .iter()
        .find_map(|v| std::env::var(v).ok()?.parse().ok())
        .unwrap_or(3usize)
        .max(1)
}

/// A duration for a table: µs below 1 ms, ms below 1 s.
pub(crate) fn fmt(d: Option<Duration>) -> String {
    match d {
        None => "–".into(),
        Some(d) if d < Duration::from_millis(1) => format!("{:.0} µs", d.as_secs_f64() * 1e6),
        Some(d) if d < Duration::from_secs(1) => format!("{:.2} ms", d.as_secs_f64() * 1e3),
        Some(d) => format!("{:.2} s", d.as_secs_f64()),
    }
}

/// The 1-, 5- and 15-minute load averages.
pub(crate) fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// Writes every recorded operation's median, mean, min, max and count to
/// `target/<name>.json` (merged with an earlier, filtered run's figures).
pub(crate) fn write_json(name: &str, load_before: &str, started: &str) {
    let results = RESULTS.lock().expect("results");
    if results.is_empty() {
        return;
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("target/{name}.json"));
    let mut doc: serde_json::Value = std::fs::read(&path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_else(|| serde_json::json!({ "results": {} }));
    let entries = doc["results"].as_object_mut().expect("results object");
    let load_after = loadavg();
    for (id, (samples, harness)) in results.iter() {
        let mut ns: Vec<f64> = samples.iter().map(|d| d.as_secs_f64() * 1e9).collect();
        ns.sort_by(f64::total_cmp);
        let median = if ns.len() % 2 == 1 {
            ns[ns.len() / 2]
        } else {
            (ns[ns.len() / 2 - 1] + ns[ns.len() / 2]) / 2.0
        };
        let mean =
            ns.iter().sum::<f64>() / f64::from(u32::try_from(ns.len()).expect("sample count fits u32"));
        entries.insert(
            id.clone(),
            serde_json::json!({
                "median_ns": median, "mean_ns": mean, "min_ns": ns[0], "max_ns": ns[ns.len() - 1],
                "count": ns.len(), "harness": harness, "started": started,
                "load_before": load_before, "load_after": load_after,
            }),
        );
    }
    std::fs::write(&path, serde_json::to_vec_pretty(&doc).expect("json")).expect("write results");
    println!("wrote {}", path.display());
}

/// The UTC time now, `YYYY-MM-DDTHH:MM:SSZ` (from `date`).
pub(crate) fn now() -> String {
    std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%dT%H:%M:%SZ"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}
