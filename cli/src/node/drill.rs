//! Fault drills a serving process plays from a command on, for tests and demos:
//!
//! ```text
//! --crash-at N          exit abruptly when command N arrives (a party killed mid-round)
//! --slow N:MS           from command N, every message this process sends waits MS (a slow node)
//! --partition N:SECS    from command N, SECS seconds cut off: every connection closed, none
//!                       accepted, nothing sent or read; then the link heals and the queued
//!                       messages go out (the peers' own retries deliver theirs)
//! ```
//!
//! The switchboard sees the commands arrive and arms the drill; the transport obeys the
//! [`Conditions`] it shares with it.

use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use core::time::Duration;
use std::sync::Mutex;
use std::time::Instant;

/// The drills a process plays (none for an honest, healthy process).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Drills {
    /// `--crash-at N`.
    pub crash_at: Option<u32>,
    /// `--slow N:MS`.
    pub slow: Option<(u32, Duration)>,
    /// `--partition N:SECS`.
    pub partition: Option<(u32, Duration)>,
}

/// What the transport obeys: the delay before each message leaves, and a cut-off.
#[derive(Debug, Default)]
pub(crate) struct Conditions {
    delay_us: AtomicU64,
    cut_until: Mutex<Option<Instant>>,
    cut_once: AtomicBool,
}

impl Conditions {
    /// Every message waits `delay` (a simulated half round trip, `--rtt`).
    pub(crate) fn with_delay(delay: Duration) -> Conditions {
        let c = Conditions::default();
        c.set_delay(delay);
        c
    }

    /// How long a message waits before it leaves.
    pub(crate) fn delay(&self) -> Duration {
        Duration::from_micros(self.delay_us.load(Ordering::Relaxed))
    }

    fn set_delay(&self, d: Duration) {
        self.delay_us.store(
            u64::try_from(d.as_micros()).unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
    }

    /// Until when the process is cut off, if it is now.
    pub(crate) fn cut(&self) -> Option<Instant> {
        let until = *self
            .cut_until
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        until.filter(|u| *u > Instant::now())
    }

    fn cut_for(&self, d: Duration) {
        // One partition per process: a drill heals once.
        if !self.cut_once.swap(true, Ordering::Relaxed) {
            *self
                .cut_until
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Instant::now() + d);
        }
    }
}

impl Drills {
    /// Arms what command `no` starts (process `me`'s switchboard calls it on every command).
    pub(crate) fn on_command(&self, me: usize, no: u32, conditions: &Conditions) {
        if self.crash_at.is_some_and(|n| no >= n) {
            eprintln!("process {me}: crashing at command {no} (--crash-at)");
            std::process::exit(75);
        }
        if let Some((_, d)) = self.slow.filter(|(n, _)| no >= *n) {
            conditions.set_delay(d);
        }
        if let Some((_, d)) = self.partition.filter(|(n, _)| no >= *n) {
            conditions.cut_for(d);
        }
    }
}

/// Parses `N:V` (a command number and a value) for `--slow` / `--partition`.
pub(crate) fn parse(flag: &str, v: &str, unit: fn(u64) -> Duration) -> Result<(u32, Duration), String> {
    let bad = || format!("{flag} takes N:VALUE (a command number and an amount), got '{v}'");
    let (n, x) = v.split_once(':').ok_or_else(bad)?;
    let n = n.parse::<u32>().map_err(|_| bad())?;
    let x = x.parse::<u64>().map_err(|_| bad())?;
    Ok((n, unit(x.min(600_000))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drills_arm_from_their_command_and_a_partition_heals_once() {
        let c = Conditions::with_delay(Duration::from_millis(5));
        let d = Drills {
            slow: Some((3, Duration::from_millis(400))),
            partition: Some((4, Duration::from_millis(60))),
            ..Drills::default()
        };
        d.on_command(1, 2, &c);
        assert_eq!((c.delay(), c.cut()), (Duration::from_millis(5), None));
        d.on_command(1, 3, &c);
        assert_eq!(c.delay(), Duration::from_millis(400));
        d.on_command(1, 4, &c);
        assert!(c.cut().is_some());
        std::thread::sleep(Duration::from_millis(80));
        assert!(c.cut().is_none());
        d.on_command(1, 9, &c);
        assert!(c.cut().is_none(), "a partition heals once");
        assert_eq!(
            parse("--slow", "2:300", Duration::from_millis),
            Ok((2, Duration::from_millis(300)))
        );
        assert!(parse("--slow", "2", Duration::from_millis).is_err());
        assert!(parse("--partition", "x:3", Duration::from_secs).is_err());
    }
}
