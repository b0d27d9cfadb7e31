//! Finality certificates (`quasar_pq::cert`): parse + structural checks, verification under
//! PQ-fast, PQ-strict and PQ-heavy leg by leg, and a light-client update across an epoch
//! change.
//!
//! Chains come from the devnet (`cert::devnet`, fixed seeds; the Pulsar group runs through
//! the library's parties on the simulator): K validators of weight 1 with BLS keys and a
//! Pulsar ML-DSA-65 group of threshold ⌊2K/3⌋ + 1; the verification chain (K = 21) adds
//! Magnetar SHAKE-192s keys and a Corona group (its first 8 validators, threshold 6).
//! ⌊2K/3⌋ + 1 validators sign every weighted leg (15 of 21, 86 of 128).
//!
//! Ids:
//! - `cert/parse/<K>`: `CertificateView::parse` + `check` under PQ-fast (magic, lengths,
//!   legs, header against the set, bitmap, weights, quorum; no signature work); the
//!   allocations of one call are counted by a counting global allocator and printed;
//! - `cert/verify/pq-fast/21`, `cert/verify/pq-strict/21`, `cert/verify/pq-heavy/21`:
//!   `verify` end to end (parse,
//!   checks, every required leg's signatures); each leg's own time is taken from the
//!   reports (`LegReport::time_ns`) and printed as medians;
//! - `cert/bls_reference/verify`: one plain BLS verify from bytes (hash-to-curve, signature
//!   decoding with its subgroup check, two-pair pairing), the goal for the BLS leg;
//! - `cert/light_update/<K>`: `LightClient::update` with the epoch's last certificate and
//!   the next set (5 validators in; verify, then validate the next set's keys and every
//!   proof of possession once); K ∈ {21, 128}.
//!
//! Run: `cargo bench --bench cert --features sim` (add `-- --quick` on a loaded machine).

// A bench's setup unwraps: a panic there is a failed run, not a caller's crash.
#![allow(clippy::unwrap_used)]

use core::alloc::{GlobalAlloc, Layout};
use core::hint::black_box;
use core::sync::atomic::{AtomicU64, Ordering};
use core::time::Duration;
use std::alloc::System;
use std::collections::BTreeMap;
use std::time::Instant;

use criterion::Criterion;
use quasar_pq::cert::devnet::{two_thirds_plus_one, Devnet, DevnetConfig, PulsarSigning, Signers};
use quasar_pq::cert::{check, verify, CertificateView, LegKind, LightClient, Options, Policy, TrustedSet};
use quasar_pq::mldsa::Mode;

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// The counting allocator forwards to the system allocator: the one unsafe code of this file.
// SAFETY: every method passes its caller's arguments unchanged to `System`, which meets
// the `GlobalAlloc` contract; counting touches no memory the allocator hands out.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller meets `alloc`'s contract; it is passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, that is from `System`, with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as for `dealloc`; the caller meets `realloc`'s contract for `new_size`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn chain(k: usize, magnetar: bool, seed: u8) -> Devnet {
    chain_with(k, magnetar, false, seed)
}

fn chain_with(k: usize, magnetar: bool, corona: bool, seed: u8) -> Devnet {
    let config = DevnetConfig {
        chain_id: 1,
        seed: [seed; 32],
        bls: true,
        mldsa: None,
        magnetar: magnetar.then_some(quasar_pq::magnetar::Mode::Shake192s),
        pulsar: Some(Mode::MlDsa65),
        pulsar_signing: PulsarSigning::Custody,
        corona,
    };
    let t = Instant::now();
    let net = Devnet::new(config, &vec![1; k]).unwrap();
    eprintln!(
        "devnet K = {k}{}: {:.1} s",
        if magnetar { " + Magnetar" } else { "" },
        t.elapsed().as_secs_f64()
    );
    net
}

fn signers(k: usize, magnetar: bool) -> Signers {
    let q = two_thirds_plus_one(k);
    let mut s = Signers::first(q, k);
    s.mldsa.clear();
    s.corona.clear();
    if !magnetar {
        s.magnetar.clear();
    }
    s
}

fn bench(c: &mut Criterion, id: &str, samples: usize, mut f: impl FnMut()) {
    let mut group = c.benchmark_group("cert");
    group
        .sample_size(samples)
        .measurement_time(Duration::from_secs(3));
    group.bench_function(id.strip_prefix("cert/").unwrap_or(id), |b| b.iter(&mut f));
    group.finish();
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let mut notes: Vec<String> = Vec::new();

    // Parse + structure, K = 21 and 128; light-client updates.
    for k in [21usize, 128] {
        let mut net = chain(k, false, u8::try_from(k).expect("k < 256"));
        let set0 = net.set().clone();
        let trusted = TrustedSet::new(set0.clone()).unwrap();
        let s = signers(k, false);
        let cert = net.certificate(1, 0, [1; 32], &s).unwrap();
        let policy = Policy::PQ_FAST;
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        let view = CertificateView::parse(black_box(&cert)).unwrap();
        check(&view, &trusted, &policy).unwrap();
        let allocs = ALLOCATIONS.load(Ordering::Relaxed) - before;
        notes.push(format!(
            "parse + check, K = {k}: {allocs} allocations per call; certificate {} bytes",
            cert.len()
        ));
        bench(&mut c, &format!("cert/parse/{k}"), 50, || {
            let view = CertificateView::parse(black_box(&cert)).unwrap();
            black_box(check(&view, &trusted, &policy).unwrap());
        });

        let t = Instant::now();
        let (end, next) = net.end_epoch(2, 0, [2; 32], &s, &[], &[1; 5], false).unwrap();
        eprintln!(
            "epoch change (reshare to {} parties): {:.1} s",
            next.len(),
            t.elapsed().as_secs_f64()
        );
        let client = LightClient::new(set0, policy).unwrap();
        let mut fresh = client.clone();
        fresh.update(&end, Some(next.as_bytes())).unwrap();
        let mut group = c.benchmark_group("cert");
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(if k > 64 { 8 } else { 4 }));
        group.bench_function(format!("light_update/{k}"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let mut c = client.clone();
                    let t = Instant::now();
                    black_box(c.update(&end, Some(next.as_bytes())).unwrap());
                    total += t.elapsed();
                }
                total
            })
        });
        group.finish();
    }

    // Verification at K = 21: PQ-fast, PQ-strict (a Corona leg by 6 of the 8-member group)
    // and PQ-heavy (15 Magnetar SHAKE-192s signers).
    let k = 21;
    let t = Instant::now();
    let mut net = chain_with(k, true, true, 77);
    let trusted = TrustedSet::new(net.set().clone()).unwrap();
    let fast = net.certificate(1, 0, [1; 32], &signers(k, false)).unwrap();
    let heavy = net.certificate(2, 0, [2; 32], &signers(k, true)).unwrap();
    let mut with_corona = signers(k, false);
    with_corona.corona = (0..k).collect();
    let strict = net.certificate(3, 0, [3; 32], &with_corona).unwrap();
    eprintln!(
        "PQ-heavy and PQ-strict chain and certificates: {:.1} s",
        t.elapsed().as_secs_f64()
    );
    let options = Options::default();
    for (name, policy, cert, rounds) in [
        ("pq-fast", Policy::PQ_FAST, &fast, 30),
        ("pq-strict", Policy::PQ_STRICT, &strict, 30),
        ("pq-heavy", Policy::PQ_HEAVY, &heavy, 8),
    ] {
        assert!(verify(cert, &trusted, &policy, &options).is_valid());
        bench(&mut c, &format!("cert/verify/{name}/21"), 10, || {
            black_box(verify(black_box(cert), &trusted, &policy, &options));
        });
        let mut legs: BTreeMap<LegKind, Vec<f64>> = BTreeMap::new();
        let mut totals = Vec::new();
        for _ in 0..rounds {
            let t = Instant::now();
            let r = verify(cert, &trusted, &policy, &options);
            totals.push(t.elapsed().as_secs_f64());
            for l in r.legs() {
                if let Some(ns) = l.time_ns {
                    legs.entry(l.kind)
                        .or_default()
                        .push(Duration::from_nanos(ns).as_secs_f64() * 1e3);
                }
            }
        }
        let per_leg: Vec<String> = legs
            .into_iter()
            .map(|(k, v)| format!("{} {:.3} ms", k.name(), median(v)))
            .collect();
        notes.push(format!(
            "verify {name}, K = 21, {} bytes: total {:.3} ms (median of {rounds}); legs: {}",
            cert.len(),
            median(totals) * 1e3,
            per_leg.join(", ")
        ));
    }
    // The BLS goal: one plain verify from bytes.
    let sk = net.bls_key(0).unwrap();
    let pk = sk.verifying_key().to_bytes();
    let msg = [7u8; 32];
    let sig = sk.sign(&msg).to_bytes();
    bench(&mut c, "cert/bls_reference/verify", 30, || {
        quasar_pq::bls::verify(black_box(&pk), &msg, black_box(&sig)).unwrap();
    });

    c.final_summary();
    println!();
    for n in notes {
        println!("{n}");
    }
}
