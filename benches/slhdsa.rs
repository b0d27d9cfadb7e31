//! SLH-DSA keygen / sign / verify: quasar-pq next to `fips205` and RustCrypto `slh-dsa`, in
//! one run, with the same inputs (DESIGN §8); plus batch verification of 21 SHAKE-192s
//! signatures (a validator set's votes) against 21 single verifications.
//!
//! Ids read `slh-dsa-shake-192s/verify/quasar` (fastest Keccak backend: AVX-512VL or AVX2),
//! `…/quasar-avx2` (AVX2 only), `…/quasar-portable` (the scalar path, what a target
//! without SIMD runs; both forced with `hash::keccak_x4::set_backend`), `…/fips205`,
//! `…/rustcrypto`:
//! - `keygen`: slh_keygen_internal from the three n-byte seeds to the pk/sk encodings;
//! - `sign`: deterministic pure slh_sign of a fixed 64-byte message, empty context, from
//!   the encoded secret key for us and from a key decoded once for the peers (fips205's
//!   decoder re-runs key generation, which is not signing);
//! - `verify`: pure slh_verify from the encoded public key and signature bytes.
//!
//! Seeds and messages are fixed and labelled (SHAKE256 of "quasar-pq/bench/…"), so reruns
//! and machines are comparable. Run: `cargo bench --bench slhdsa` (filter with e.g.
//! `cargo bench --bench slhdsa -- 192s/verify`).

use core::hint::black_box;
use core::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use quasar_pq::hash::keccak_x4::{self, Backend};
use quasar_pq::slhdsa::{self, BatchItem, Mode};
use sha3::digest::{ExtendableOutput, Update, XofReader};

#[path = "../tests/common/slh_peers.rs"]
mod slh_peers;

fn labelled(label: &str, n: usize) -> Vec<u8> {
    let mut h = sha3::Shake256::default();
    h.update(b"quasar-pq/bench/");
    h.update(label.as_bytes());
    let mut out = vec![0u8; n];
    h.finalize_xof().read(&mut out);
    out
}

/// Our three Keccak backends: the fastest available (AVX-512VL here), AVX2 only, scalar.
const BACKENDS: [(&str, Backend); 3] = [
    ("quasar", Backend::Auto),
    ("quasar-avx2", Backend::Avx2),
    ("quasar-portable", Backend::Portable),
];

fn group_name(mode: Mode) -> String {
    mode.name().to_lowercase()
}

struct Setup {
    sk_seed: Vec<u8>,
    sk_prf: Vec<u8>,
    pk_seed: Vec<u8>,
    pk: Vec<u8>,
    sk: Vec<u8>,
    msg: Vec<u8>,
    sig: Vec<u8>,
}

fn setup(mode: Mode, label: &str) -> Setup {
    let n = mode.n();
    let (sk_seed, sk_prf, pk_seed) = (
        labelled(&format!("{label}/sk_seed"), n),
        labelled(&format!("{label}/sk_prf"), n),
        labelled(&format!("{label}/pk_seed"), n),
    );
    let (pk, sk) = slhdsa::keygen(mode, &sk_seed, &sk_prf, &pk_seed).expect("keygen");
    let msg = labelled(&format!("{label}/message"), 64);
    let sig = slhdsa::sign(mode, &sk, &msg, b"", None).expect("sign");
    Setup {
        sk_seed,
        sk_prf,
        pk_seed,
        pk,
        sk: sk.to_vec(),
        msg,
        sig,
    }
}

/// Sample size and measurement time per operation: "s" signing takes seconds per call.
fn timing(mode: Mode, op: &str) -> (usize, Duration) {
    let small = matches!(mode, Mode::Shake128s | Mode::Shake192s | Mode::Shake256s);
    match (op, small) {
        ("sign", true) => (10, Duration::from_secs(5)),
        ("sign", false) | ("keygen", true) => (10, Duration::from_secs(3)),
        _ => (30, Duration::from_secs(3)),
    }
}

fn bench_set(c: &mut Criterion, mode: Mode) {
    let name = group_name(mode);
    let s = setup(mode, &name);
    let ctx: &[u8] = b"";
    let peers = slh_peers::peers(mode);
    // Same inputs, same outputs: a bench of a wrong answer is no bench.
    let signers: Vec<_> = peers.iter().map(|p| (p.signer)(&s.sk)).collect();
    let verifiers: Vec<_> = peers.iter().map(|p| (p.verifier)(&s.pk)).collect();
    for (i, p) in peers.iter().enumerate() {
        assert_eq!(
            (p.keygen)(&s.sk_seed, &s.sk_prf, &s.pk_seed),
            (s.pk.clone(), s.sk.clone()),
            "{name}: {} keygen",
            p.name
        );
        assert_eq!(
            signers[i](&s.msg, ctx, None),
            s.sig,
            "{name}: {} sign differs",
            p.name
        );
        assert!(verifiers[i](&s.msg, ctx, &s.sig), "{name}: {} rejects", p.name);
    }

    for op in ["keygen", "sign", "verify"] {
        let (samples, time) = timing(mode, op);
        let mut g = c.benchmark_group(format!("{name}/{op}"));
        g.sample_size(samples)
            .measurement_time(time)
            .warm_up_time(Duration::from_millis(500));
        for (id, backend) in BACKENDS {
            keccak_x4::set_backend(backend);
            match op {
                "keygen" => g.bench_function(id, |b| {
                    b.iter(|| {
                        slhdsa::keygen(mode, black_box(&s.sk_seed), &s.sk_prf, &s.pk_seed).expect("keygen")
                    })
                }),
                "sign" => g.bench_function(id, |b| {
                    b.iter(|| {
                        slhdsa::sign(mode, black_box(&s.sk), black_box(&s.msg), ctx, None).expect("sign")
                    })
                }),
                _ => g.bench_function(id, |b| {
                    b.iter(|| {
                        slhdsa::verify(mode, black_box(&s.pk), black_box(&s.msg), ctx, black_box(&s.sig))
                    })
                }),
            };
            keccak_x4::set_backend(Backend::Auto);
        }
        for (i, p) in peers.iter().enumerate() {
            match op {
                "keygen" => g.bench_function(p.name, |b| {
                    b.iter(|| (p.keygen)(black_box(&s.sk_seed), &s.sk_prf, &s.pk_seed))
                }),
                "sign" => g.bench_function(p.name, |b| b.iter(|| signers[i](black_box(&s.msg), ctx, None))),
                _ => g.bench_function(p.name, |b| {
                    b.iter(|| verifiers[i](black_box(&s.msg), ctx, black_box(&s.sig)))
                }),
            };
        }
        g.finish();
    }
}

/// 21 SHAKE-192s signatures by 21 keys on one message: verify_batch against 21 single
/// verifications (ours and the peers').
fn bench_batch(c: &mut Criterion) {
    let mode = Mode::Shake192s;
    let sets: Vec<Setup> = (0..21).map(|i| setup(mode, &format!("batch/{i}"))).collect();
    let items: Vec<BatchItem<'_>> = sets
        .iter()
        .map(|s| BatchItem {
            public_key: &s.pk,
            message: &s.msg,
            context: b"",
            signature: &s.sig,
        })
        .collect();
    assert!(slhdsa::verify_batch(mode, &items).iter().all(|&ok| ok));
    let peers = slh_peers::peers(mode);
    let verifiers: Vec<Vec<_>> = peers
        .iter()
        .map(|p| sets.iter().map(|s| (p.verifier)(&s.pk)).collect())
        .collect();
    let mut g = c.benchmark_group("slh-dsa-shake-192s/verify21");
    g.sample_size(20)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_millis(500));
    for (id, backend) in BACKENDS {
        keccak_x4::set_backend(backend);
        let sfx = id.strip_prefix("quasar").unwrap_or(id);
        g.bench_function(format!("quasar-batch{sfx}"), |b| {
            b.iter(|| slhdsa::verify_batch(mode, black_box(&items)))
        });
        g.bench_function(format!("quasar-single{sfx}"), |b| {
            b.iter(|| {
                items
                    .iter()
                    .map(|it| {
                        slhdsa::verify(mode, it.public_key, it.message, it.context, it.signature).is_ok()
                    })
                    .collect::<Vec<_>>()
            })
        });
        keccak_x4::set_backend(Backend::Auto);
    }
    for (p, vs) in peers.iter().zip(&verifiers) {
        g.bench_function(format!("{}-single", p.name), |b| {
            b.iter(|| {
                items
                    .iter()
                    .zip(vs)
                    .map(|(it, v)| v(it.message, it.context, it.signature))
                    .collect::<Vec<_>>()
            })
        });
    }
    g.finish();
}

fn benches(c: &mut Criterion) {
    eprintln!("keccak_x4 backend: {}", keccak_x4::backend());
    for mode in [
        Mode::Shake128s,
        Mode::Shake128f,
        Mode::Shake192s,
        Mode::Shake192f,
        Mode::Shake256s,
    ] {
        bench_set(c, mode);
    }
    bench_batch(c);
}

criterion_group!(slhdsa_benches, benches);
criterion_main!(slhdsa_benches);
