//! The Pulsar committee (threshold ML-DSA, no reconstruction): whole signing sessions per
//! level and (T, N), on the library's parties through `party::sim`, all T signers in one
//! process.
//!
//! A session's length is random (each run succeeds with probability at least ½ and a failed
//! run restarts), so this is a plain harness over many sessions, not criterion: for each
//! set it signs `COMMITTEE_BENCH_SESSIONS` messages (default 20) and reports the mean
//! session time (all T signers, sequential, so the sum of their work), the mean of the
//! busiest signer's own time (what a session costs when each signer runs on its own
//! machine, network excluded), that time per run (a session's length is random, so per run
//! is the figure to compare across builds: `node js/bench/committee.mjs` prints the same
//! table for the WASM build), the mean runs, and the bytes one signer sends per session.
//! Keys come from the trusted dealer (key generation is not timed here). Every signature
//! is verified. Keys, sessions and every signer's randomness come from the same labels as
//! in `js/bench/committee.mjs`, so both benches time the very same sessions.
//!
//! Run: `cargo bench --bench committee --features sim` (`-- 44` for one level; the
//! ML-DSA-65 and -87 sets with K > 100 only with `COMMITTEE_BENCH_ALL=1`). Prints a
//! Markdown table.

use core::time::Duration;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use quasar_pq::mldsa::Mode;
use quasar_pq::party::sim::Network;
use quasar_pq::party::{Incoming, Party, Round, Step};
use quasar_pq::pulsar::committee::{self, SignParams, Signed, Signer};
use quasar_pq::PartyId;
use rand_chacha::rand_core::SeedableRng;

/// A party whose own steps are timed into a shared counter.
struct Timed<P> {
    inner: P,
    spent: Arc<Mutex<Duration>>,
}

impl<P: Party> Party for Timed<P> {
    type Output = P::Output;

    fn id(&self) -> PartyId {
        self.inner.id()
    }

    fn round(&self) -> Option<Round> {
        self.inner.round()
    }

    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<P::Output>, quasar_pq::Error> {
        let t = Instant::now();
        let out = self.inner.step(inbox);
        *self.spent.lock().expect("clock") += t.elapsed();
        out
    }
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `js/support/bytes.mjs`'s 32 bytes of a label: SHA-256 of `label/0`.
fn label_bytes(label: &str) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(format!("{label}/0").as_bytes()).into()
}

/// The generator the WASM factories build from a 32-byte `seed` (ChaCha20), seeded as the
/// JavaScript bench seeds it.
fn seeded(label: &str) -> rand_chacha::ChaCha20Rng {
    rand_chacha::ChaCha20Rng::from_seed(label_bytes(label))
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

// Exact: ids, thresholds and session numbers are far below 256; counts fit f64.
#[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let sessions = env_usize("COMMITTEE_BENCH_SESSIONS", 20).max(1);
    let all = std::env::var("COMMITTEE_BENCH_ALL").is_ok_and(|v| v == "1");
    println!("load average before: {}", load());
    println!();
    println!(
        "| level | (T, N) | K | mean runs | session, all T signers | busiest signer | busiest signer per run | bytes sent per signer |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for mode in [Mode::MlDsa44, Mode::MlDsa65, Mode::MlDsa87] {
        let level = mode.level().to_string();
        if !filter.is_empty() && !filter.iter().any(|f| level.contains(f.as_str())) {
            continue;
        }
        for n in committee::MIN_PARTIES..=committee::MAX_PARTIES {
            for t in 2..=n {
                let members: Vec<PartyId> = (1..=n)
                    .map(|i| PartyId::new(i as u16).expect("non-zero id"))
                    .collect();
                // The same seeds as `js/bench/committee.mjs`: the two benches run the very same
                // sessions (same keys, runs and slots), natively and in WASM.
                let mut rng = seeded(&format!("bench/committee/{level}/{t}/{n}"));
                let (key, shares) = committee::deal(mode, t, &members, &mut rng).expect("deal");
                if mode != Mode::MlDsa44 && key.slots() > 100 && !all {
                    continue;
                }
                let signers = &members[..t];
                let (mut total, mut busiest, mut runs, mut bytes) =
                    (Duration::ZERO, Duration::ZERO, 0u64, 0usize);
                for s in 0..sessions {
                    let message = format!("block {s}");
                    let session = label_bytes(&format!("bench/committee/session/{level}/{t}/{n}/{s}"));
                    let params = SignParams::new(session, signers, message.as_bytes(), b"").expect("params");
                    let mut net: Network<Signed> = Network::new();
                    let mut clocks = Vec::new();
                    let start = Instant::now();
                    for share in &shares[..t] {
                        let spent = Arc::new(Mutex::new(Duration::ZERO));
                        let t0 = Instant::now();
                        let mut rng = seeded(&format!("bench/committee/seed/{s}/{}", share.id().get()));
                        let (p, out) = Signer::start(share, &params, &mut rng).expect("signer");
                        *spent.lock().expect("clock") = t0.elapsed();
                        clocks.push(spent.clone());
                        net.add(Timed { inner: p, spent }, out);
                    }
                    let outcomes = net.run();
                    total += start.elapsed();
                    busiest += clocks
                        .iter()
                        .map(|c| *c.lock().expect("clock"))
                        .max()
                        .unwrap_or_default();
                    let signed = outcomes.into_values().next().expect("a signer").expect("signed");
                    key.verify(message.as_bytes(), b"", &signed.signature)
                        .expect("verifies");
                    runs += u64::from(signed.runs);
                    bytes += signed.bytes_sent;
                }
                let k = sessions as u32;
                println!(
                    "| ML-DSA-{level} | ({t}, {n}) | {} | {:.2} | {:.2} ms | {:.2} ms | {:.2} ms | {} |",
                    key.slots(),
                    runs as f64 / f64::from(k),
                    (total / k).as_secs_f64() * 1e3,
                    (busiest / k).as_secs_f64() * 1e3,
                    busiest.as_secs_f64() * 1e3 / runs.max(1) as f64,
                    bytes / sessions,
                );
            }
        }
    }
    println!();
    println!("load average after: {}", load());
}
