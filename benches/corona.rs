//! Corona per party and per phase, at the signing-set sizes the spec's reference table uses
//! (`shared/specs/corona.md` §9.1: K = 4, 14, 21, 43, 64), through the library's parties.
//!
//! For each size, a trusted dealer makes a K-of-n key (timed: "deal"), and one signer's
//! phases are timed on their own — never a total ÷ K:
//! - **R1**: [`Signer::start`] (round-1 seed, R'_i and E'_i sampled, D_i = A·R'_i + E'_i, the
//!   `COR1` with its K − 1 MACs);
//! - **R2**: its step on the K − 1 other `COR1`s (decode, MAC check and digest of each, DSum,
//!   the full-rank check, th, u, h̃, c̃, the K − 1 masks and z_i) — the spec's R2-preprocess
//!   and R2 together;
//! - **Combine**: its step on the K − 1 `COR2`s (sum, A·z, Δ, and the verification every
//!   signer runs before releasing);
//! - **Verify**: [`GroupKey::verify`] on the signature (ExpandA included);
//! - **Verify, prepared**: [`corona::PreparedGroupKey::verify`] (A and 2^ξ·b̃ expanded once per
//!   key, as a light client keeps them).
//!
//! The timed signer draws from the same seeded generator every repetition, so its D_i, the
//! challenge and the other signers' `COR2`s stay valid across repetitions. Medians of
//! `CORONA_BENCH_REPS` (default 5). Keys 4-of-6, 14-of-21, 21-of-21 and 43-of-64 (the
//! issue's sizes); 64-of-64 too with `CORONA_BENCH_ALL=1`.
//!
//! Run: `cargo bench --bench corona`. Prints a Markdown table and the load
//! average.

use core::time::Duration;
use std::time::Instant;

use quasar_pq::corona::{self, GroupKey, KeyShare, SignParams, Signed, Signer};
use quasar_pq::party::{Incoming, Party, Step};
use quasar_pq::PartyId;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e3)
}

fn rng(label: &str, id: u16) -> ChaCha20Rng {
    let mut seed = [0u8; 32];
    seed[..label.len().min(30)].copy_from_slice(&label.as_bytes()[..label.len().min(30)]);
    seed[30..].copy_from_slice(&id.to_be_bytes());
    ChaCha20Rng::from_seed(seed)
}

fn as_incoming(v: &[(PartyId, Vec<u8>)]) -> Vec<Incoming<'_>> {
    v.iter().map(|(p, b)| Incoming::new(*p, b)).collect()
}

fn broadcast(step: Step<Signed>) -> Vec<u8> {
    match step {
        Step::Continue(out) => out.broadcast.expect("a broadcast"),
        other => panic!("expected a round's broadcast, got {other:?}"),
    }
}

struct Row {
    k: usize,
    n: usize,
    deal: Duration,
    r1: Duration,
    r2: Duration,
    combine: Duration,
    verify: Duration,
    prepared: Duration,
    r1_bytes: usize,
}

fn bench(k: usize, n: usize, reps: usize) -> Row {
    let mut deals = Vec::new();
    let mut dealt: Option<(GroupKey, Vec<KeyShare>)> = None;
    for _ in 0..reps.min(3) {
        let t = Instant::now();
        let d = corona::deal(k, n, &mut rng("corona bench dealer", 0)).expect("deal");
        deals.push(t.elapsed());
        dealt = Some(d);
    }
    let (key, shares) = dealt.expect("dealt");
    // Exact: k ≤ 64.
    #[allow(clippy::cast_possible_truncation)]
    let signers: Vec<PartyId> = (1..=k as u16).filter_map(PartyId::new).collect();
    let params = SignParams::new(
        [u8::try_from(k).unwrap_or(u8::MAX); 32],
        &signers,
        b"corona bench block",
        b"",
    )
    .expect("params");
    let start = |i: usize| {
        Signer::start(
            &shares[i],
            &params,
            &mut rng("corona bench signer", signers[i].get()),
        )
    };
    let mut started: Vec<(Signer, Vec<u8>)> = (0..k)
        .map(|i| {
            let (s, out) = start(i).expect("start");
            (s, out.broadcast.expect("COR1"))
        })
        .collect();
    let cor1: Vec<(PartyId, Vec<u8>)> = started.iter().map(|(s, b)| (s.id(), b.clone())).collect();
    let inbox = |me: PartyId, msgs: &[(PartyId, Vec<u8>)]| -> Vec<(PartyId, Vec<u8>)> {
        msgs.iter().filter(|(p, _)| *p != me).cloned().collect()
    };
    let cor2: Vec<(PartyId, Vec<u8>)> = started
        .iter_mut()
        .map(|(s, _)| {
            let mine = inbox(s.id(), &cor1);
            let id = s.id();
            (id, broadcast(s.step(&as_incoming(&mine)).expect("R2")))
        })
        .collect();
    let me = signers[0];
    let others1 = inbox(me, &cor1);
    let others2 = inbox(me, &cor2);
    let (mut r1, mut r2, mut combine, mut verify) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut prepared = Vec::new();
    let prepared_key = key.prepare();
    for _ in 0..reps {
        let t = Instant::now();
        let (mut s, _) = start(0).expect("start");
        r1.push(t.elapsed());
        let incoming = as_incoming(&others1);
        let t = Instant::now();
        let out = s.step(&incoming).expect("R2");
        r2.push(t.elapsed());
        drop(out);
        let incoming = as_incoming(&others2);
        let t = Instant::now();
        let done = s.step(&incoming).expect("combine");
        combine.push(t.elapsed());
        let signature = match done {
            Step::Done(_, signed) => signed.signature,
            other => panic!("expected the signature, got {other:?}"),
        };
        let t = Instant::now();
        key.verify(b"corona bench block", b"", &signature)
            .expect("verifies");
        verify.push(t.elapsed());
        let t = Instant::now();
        prepared_key
            .verify(b"corona bench block", b"", &signature)
            .expect("verifies");
        prepared.push(t.elapsed());
    }
    Row {
        k,
        n,
        deal: median(deals),
        r1: median(r1),
        r2: median(r2),
        combine: median(combine),
        verify: median(verify),
        prepared: median(prepared),
        r1_bytes: cor1[0].1.len(),
    }
}

fn main() {
    let reps = std::env::var("CORONA_BENCH_REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5usize)
        .max(1);
    let all = std::env::var("CORONA_BENCH_ALL").is_ok_and(|v| v == "1");
    // The sizes (t-of-n: 14-of-21, 21-of-21, 43-of-64), a small one, and 64-of-64
    // on request.
    let sizes: &[(usize, usize)] = if all {
        &[(4, 6), (14, 21), (21, 21), (43, 64), (64, 64)]
    } else {
        &[(4, 6), (14, 21), (21, 21), (43, 64)]
    };
    println!("| K (of n) | deal | R1 | R2 (with preprocess) | Combine (with verify) | Verify | Verify, prepared | COR1 bytes |");
    println!("|---|---|---|---|---|---|---|---|");
    for &(k, n) in sizes {
        let r = bench(k, n, reps);
        println!(
            "| {} ({}) | {} | {} | {} | {} | {} | {:.2} | {} |",
            r.k,
            r.n,
            ms(r.deal),
            ms(r.r1),
            ms(r.r2),
            ms(r.combine),
            ms(r.verify),
            r.prepared.as_secs_f64() * 1e3,
            r.r1_bytes
        );
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "\nms per party, medians of {reps}; one signer timed (the others only make its inbox); load average {}",
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    );
}
