//! The failure type and the timing table.

use core::time::Duration;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::net::{Addr, Traffic, HUB};

/// A protocol failure: the typed error's code, module, message and culprits, and where it
/// happened.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct Failure {
    /// The error's stable code (`INVALID_SHARE`, …).
    #[serde(with = "crate::node::wire::interned")]
    pub code: crate::conduct::Label,
    /// The module it came from (`pulsar`, `lens`, `lss`, …, or `demo`).
    #[serde(with = "crate::node::wire::interned")]
    pub module: crate::conduct::Label,
    /// The error's message.
    pub message: String,
    /// The parties it blames.
    pub culprits: Vec<u16>,
    /// The phase it happened in (filled in by the conductor).
    pub phase: String,
    /// The node that reported it (filled in by the conductor).
    pub node: Option<Addr>,
}

impl Failure {
    /// A failure found by the demo itself (not a library error).
    pub(crate) fn local(code: &'static str, message: String) -> Failure {
        Failure {
            code,
            module: "demo",
            message,
            culprits: Vec::new(),
            phase: String::new(),
            node: None,
        }
    }
}

impl From<quasar_pq::Error> for Failure {
    fn from(e: quasar_pq::Error) -> Failure {
        Failure {
            code: e.code(),
            module: e.module(),
            message: e.to_string(),
            culprits: e.culprits().iter().map(|p| p.get()).collect(),
            phase: String::new(),
            node: None,
        }
    }
}

macro_rules! via_crate_error {
    ($($t:ty),*) => {$(
        impl From<$t> for Failure {
            fn from(e: $t) -> Failure {
                Failure::from(quasar_pq::Error::from(e))
            }
        }
    )*};
}
via_crate_error!(
    quasar_pq::pulsar::Error,
    quasar_pq::pulsar::committee::Error,
    quasar_pq::corona::Error,
    quasar_pq::lens::Error,
    quasar_pq::lss::Error,
    quasar_pq::mldsa::Error,
    quasar_pq::wire::Error,
    quasar_pq::bls::Error,
    quasar_pq::magnetar::Error,
    quasar_pq::cert::Error
);

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} failed",
            if self.phase.is_empty() {
                "the demo"
            } else {
                &self.phase
            }
        )?;
        if let Some(n) = self.node {
            write!(f, " at {}", crate::conduct::who(n))?;
        }
        write!(f, ": {} ({}): {}", self.code, self.module, self.message)?;
        if self.culprits.is_empty() {
            f.write_str("; nobody blamed")
        } else {
            let list: Vec<String> = self.culprits.iter().map(u16::to_string).collect();
            write!(f, "; culprits: {}", list.join(", "))
        }
    }
}

/// One command as the conductor saw it, under one row of the table.
#[derive(Debug, Clone)]
pub struct StepLog {
    /// Command number (the router's key; 0: the command's traffic is on another row).
    pub no: u32,
    /// The row (phase) it belongs to.
    pub phase: String,
    /// Wall-clock from sending the command to the last report (0 on the other rows).
    pub wall: Duration,
    /// Time spent by every node that worked on this row, in its own thread, by address.
    pub cpu: BTreeMap<Addr, Duration>,
}

impl StepLog {
    /// The entries of command `no`: its wall-clock and traffic under `labels[row]`, and
    /// each node's time (`cpu`: address, row, time) under its own row.
    pub(crate) fn rows(
        no: u32,
        labels: &[&str],
        row: usize,
        wall: Duration,
        cpu: impl Iterator<Item = (Addr, usize, Duration)>,
    ) -> Vec<StepLog> {
        let mut out: Vec<StepLog> = labels
            .iter()
            .enumerate()
            .map(|(i, l)| StepLog {
                no: if i == row { no } else { 0 },
                phase: (*l).to_string(),
                wall: if i == row { wall } else { Duration::ZERO },
                cpu: BTreeMap::new(),
            })
            .collect();
        for (a, i, d) in cpu {
            if let Some(entry) = out.get_mut(i) {
                entry.cpu.insert(a, d);
            }
        }
        out.retain(|s| s.no != 0 || !s.cpu.is_empty());
        // The command's own row first (the table lists rows in the order they first ran).
        out.sort_by_key(|s| s.no == 0);
        out
    }
}

/// Milliseconds with two decimals.
pub(crate) fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1e3)
}

/// An integer with thousands separators.
pub(crate) fn grouped(v: u64) -> String {
    let s = v.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The median of durations in increasing order (zero for none).
pub(crate) fn median(sorted: &[Duration]) -> Duration {
    let n = sorted.len();
    if n == 0 {
        Duration::ZERO
    } else if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
}

/// One row of the table.
struct Row {
    phase: String,
    wall: Duration,
    /// Per party (not the hub): its time in this phase.
    parties: Vec<Duration>,
    hub: Option<Duration>,
    msgs: u64,
    bytes: u64,
}

fn row(phase: String, steps: &[&StepLog], traffic: &Traffic) -> Row {
    let mut per: BTreeMap<Addr, Duration> = BTreeMap::new();
    let mut wall = Duration::ZERO;
    let (mut msgs, mut bytes) = (0, 0);
    for s in steps {
        wall += s.wall;
        for (&a, &d) in &s.cpu {
            *per.entry(a).or_default() += d;
        }
        if let Some((m, b)) = traffic.by_step.get(&s.no) {
            msgs += m;
            bytes += b;
        }
    }
    let hub = per.remove(&HUB);
    let mut parties: Vec<Duration> = per.into_values().collect();
    parties.sort_unstable();
    Row {
        phase,
        wall,
        parties,
        hub,
        msgs,
        bytes,
    }
}

/// The timing table: one row per phase (in the order they ran) and a total row.
pub(crate) fn table(log: &[StepLog], traffic: &Traffic, hub_name: &str) -> String {
    let mut order: Vec<&str> = Vec::new();
    for s in log {
        if !order.contains(&s.phase.as_str()) {
            order.push(&s.phase);
        }
    }
    let mut rows: Vec<Row> = order
        .iter()
        .map(|p| {
            let steps: Vec<&StepLog> = log.iter().filter(|s| s.phase == *p).collect();
            row((*p).to_string(), &steps, traffic)
        })
        .collect();
    let all: Vec<&StepLog> = log.iter().collect();
    rows.push(row("Total".into(), &all, traffic));

    let width = rows
        .iter()
        .map(|r| r.phase.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    let mut out = String::new();
    out.push_str(&format!(
        "{:<width$}  {:>10}  {:>9} {:>9} {:>9}  {:>7}  {:>9}  {:>7}  {:>12}\n",
        "phase",
        "wall ms",
        "min ms",
        "median ms",
        "max ms",
        "parties",
        format!("{hub_name} ms"),
        "msgs",
        "bytes",
    ));
    let rule = "-".repeat(width + 2 + 10 + 2 + 29 + 2 + 7 + 2 + 9 + 2 + 7 + 2 + 12);
    out.push_str(&rule);
    out.push('\n');
    let last = rows.len() - 1;
    for (i, r) in rows.iter().enumerate() {
        if i == last {
            out.push_str(&rule);
            out.push('\n');
        }
        let (lo, mid, hi) = match (r.parties.first(), r.parties.last()) {
            (Some(a), Some(b)) => (ms(*a), ms(median(&r.parties)), ms(*b)),
            _ => ("-".into(), "-".into(), "-".into()),
        };
        out.push_str(&format!(
            "{:<width$}  {:>10}  {:>9} {:>9} {:>9}  {:>7}  {:>9}  {:>7}  {:>12}\n",
            r.phase,
            ms(r.wall),
            lo,
            mid,
            hi,
            r.parties.len(),
            r.hub.map_or("-".into(), ms),
            grouped(r.msgs),
            grouped(r.bytes),
        ));
    }
    out
}

/// Every party that was active at least once.
pub(crate) fn active_parties(log: &[StepLog]) -> usize {
    log.iter()
        .flat_map(|s| s.cpu.keys().copied())
        .filter(|&a| a != HUB)
        .collect::<BTreeSet<_>>()
        .len()
}

/// Today's date (UTC) as `YYYY-MM-DD`, from the system clock.
pub(crate) fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Howard Hinnant's civil_from_days.
    let z = i64::try_from(secs / 86_400).unwrap_or(i64::MAX / 2) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The 1-minute load average (Linux `/proc/loadavg`), if known: other work on the same
/// cores inflates wall-clock times (not the per-party CPU times).
pub(crate) fn load_average() -> Option<String> {
    let s = std::fs::read_to_string("/proc/loadavg").ok()?;
    s.split_whitespace().next().map(str::to_string)
}

/// The CPU model (Linux `/proc/cpuinfo`), if known.
pub(crate) fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1234567), "1,234,567");
        let d = |v| Duration::from_millis(v);
        assert_eq!(median(&[d(1), d(2), d(10)]), d(2));
        assert_eq!(median(&[d(1), d(3)]), d(2));
        assert_eq!(today().len(), 10);
    }
}
