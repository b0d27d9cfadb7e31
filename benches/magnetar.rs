//! Magnetar at the reference's K = 21 (SHAKE-192s, the recommended set):
//!
//! - `magnetar-shake-192s/verify21`: 21 validators' framed signatures on one message,
//!   `batch` ([`magnetar::verify_batch`], lane-batched on one thread) against `single`
//!   (21 [`PublicKey::verify`] calls); with `--features parallel` also `batch-parallel`
//!   (rayon's global pool, one thread per core) and `batch` is then pinned to a one-thread
//!   pool so the two stay comparable;
//! - `magnetar-shake-192s/aggregate21`: decoding and verifying a `MAGA` certificate with
//!   15 of 21 equal-weight signers against the registry (2/3 quorum): structure,
//!   registry look-ups, quorum, and the 15 signatures.
//!
//! The reference reports 21 in ~30 ms (parallel, 12 cores, M2 Pro) and ~32 ms for the
//! registry-bound aggregate. Keys and messages are fixed and labelled (SHAKE256 of
//! "quasar-pq/bench/magnetar/…"). Run: `cargo bench --bench magnetar` and
//! `cargo bench --bench magnetar --features parallel` (`-- --quick` on a loaded machine).

use core::hint::black_box;
use core::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use quasar_pq::magnetar::{
    self, AggregateCertificate, BatchItem, Mode, PublicKey, Registry, SigningKey, Validator, ValidatorId,
};
use quasar_pq::quorum::Quorum;
use sha3::digest::{ExtendableOutput, Update, XofReader};

fn labelled(label: &str, n: usize) -> Vec<u8> {
    let mut h = sha3::Shake256::default();
    h.update(b"quasar-pq/bench/magnetar/");
    h.update(label.as_bytes());
    let mut out = vec![0u8; n];
    h.finalize_xof().read(&mut out);
    out
}

const K: usize = 21;
const SIGNERS: usize = 15;
const CTX: &[u8] = b"quasar-bench-finality";

struct Setup {
    keys: Vec<PublicKey>,
    sigs: Vec<Vec<u8>>,
    msg: Vec<u8>,
}

/// 21 SHAKE-192s keys and signatures, made on every core (signing takes a while).
fn setup() -> Setup {
    let mode = Mode::Shake192s;
    let msg = labelled("message", 64);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut made: Vec<(usize, PublicKey, Vec<u8>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let msg = &msg;
                s.spawn(move || {
                    (t..K)
                        .step_by(threads)
                        .map(|i| {
                            let sk =
                                SigningKey::from_seed(mode, &labelled(&format!("key{i}"), mode.seed_len()))
                                    .expect("keygen");
                            (i, sk.public_key(), sk.sign_deterministic(msg, CTX).expect("sign"))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("signer thread"))
            .collect()
    });
    made.sort_by_key(|m| m.0);
    Setup {
        keys: made.iter().map(|m| m.1.clone()).collect(),
        sigs: made.into_iter().map(|m| m.2).collect(),
        msg,
    }
}

fn id(i: usize) -> ValidatorId {
    ValidatorId(labelled(&format!("id{i}"), 32).try_into().expect("32 bytes"))
}

fn bench(c: &mut Criterion) {
    let s = setup();
    let items: Vec<BatchItem<'_>> = (0..K)
        .map(|i| BatchItem {
            key: &s.keys[i],
            message: &s.msg,
            signature: &s.sigs[i],
        })
        .collect();
    // Same verdicts on every path before timing any of them.
    assert!(magnetar::verify_batch(&items, CTX)
        .expect("batch")
        .iter()
        .all(|&ok| ok));
    assert!(items
        .iter()
        .all(|it| it.key.verify(it.message, CTX, it.signature).is_ok()));

    let mut g = c.benchmark_group("magnetar-shake-192s/verify21");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_millis(500));
    #[cfg(not(feature = "parallel"))]
    g.bench_function("batch", |b| {
        b.iter(|| magnetar::verify_batch(black_box(&items), CTX))
    });
    #[cfg(feature = "parallel")]
    {
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("pool");
        g.bench_function("batch", |b| {
            b.iter(|| one.install(|| magnetar::verify_batch(black_box(&items), CTX)))
        });
        g.bench_function(format!("batch-parallel-{}t", rayon::current_num_threads()), |b| {
            b.iter(|| magnetar::verify_batch(black_box(&items), CTX))
        });
    }
    g.bench_function("single", |b| {
        b.iter(|| {
            items
                .iter()
                .map(|it| {
                    it.key
                        .verify(black_box(it.message), CTX, black_box(it.signature))
                        .is_ok()
                })
                .collect::<Vec<_>>()
        })
    });
    g.finish();

    // 15 of 21 equal weights: 15·3 > 21·2.
    let registry = Registry::new(
        Mode::Shake192s,
        (0..K)
            .map(|i| Validator {
                id: id(i),
                key: s.keys[i].clone(),
                weight: 100,
            })
            .collect(),
    )
    .expect("registry");
    let contributions: Vec<(ValidatorId, &[u8])> = (0..SIGNERS).map(|i| (id(i), &s.sigs[i][..])).collect();
    let bytes = AggregateCertificate::encode(Mode::Shake192s, &contributions).expect("aggregate");
    let verify = || {
        AggregateCertificate::decode(black_box(&bytes))
            .and_then(|cert| cert.verify(&registry, &s.msg, CTX, Quorum::default()))
            .expect("valid certificate")
    };
    assert_eq!(verify().signed_weight, 1500);
    let mut g = c.benchmark_group("magnetar-shake-192s/aggregate21");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_millis(500));
    g.bench_function(format!("verify-{SIGNERS}-of-{K}"), |b| b.iter(verify));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
