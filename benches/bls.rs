//! BLS12-381 (`quasar_pq::bls`, on zkcrypto `bls12_381`): signing, verification from bytes,
//! FastAggregateVerify of 21 keys from bytes, and the prepared validator set.
//!
//! Ids: `bls/sign`; `bls/verify` (decode key and signature, hash, pairing check);
//! `bls/fast_aggregate_verify/21` (decode 21 keys and the signature, sum, verify);
//! `bls/prepared_verify/<K>/<signers>` for K ∈ {21, 128} with all, two thirds (⌈2K/3⌉) and
//! all but one signing (signature from bytes, bitmap check, signer key, hash, pairing check);
//! `bls/prepared_new/<K>` (decode K keys and PoPs, verify every PoP, sum);
//! `bls/prepared_trusting_pops/<K>` (sum only); and the parts of a verification:
//! `bls/part/hash_to_g2`, `bls/part/decode_signature`, `bls/part/decode_public_key`.
//!
//! Run: `cargo bench --bench bls` (filter with e.g. `-- bls/prepared_verify`); after the run a
//! markdown table of medians is printed, then prepared-set verify ÷ plain verify timed in
//! back-to-back pairs (robust to load from other processes). Keys come from KeyGen on fixed
//! IKMs (`[i; 32]`), so reruns are comparable.

// A bench's setup unwraps: a panic there is a failed run, not a caller's crash.
#![allow(clippy::unwrap_used)]

use core::hint::black_box;
use core::time::Duration;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Instant;

use criterion::Criterion;
use quasar_pq::bls::{self, hazmat, PreparedSet, Signature, SignerBitmap, SigningKey, VerifyingKey};

static MEDIANS: Mutex<BTreeMap<String, Vec<f64>>> = Mutex::new(BTreeMap::new());

/// Paired ratios prepared-set verify ÷ plain verify, each pair timed back to back so that
/// load from other processes affects both sides alike.
static PAIRED: Mutex<Vec<(String, f64)>> = Mutex::new(Vec::new());

/// Median over `rounds` of time(`a`) ÷ time(`b`), `a` and `b` run back to back each round.
fn paired_ratio(rounds: usize, mut a: impl FnMut(), mut b: impl FnMut()) -> f64 {
    let mut ratios: Vec<f64> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            a();
            let ta = t.elapsed().as_secs_f64();
            let t = Instant::now();
            b();
            ta / t.elapsed().as_secs_f64()
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios[rounds / 2]
}

/// Benchmarks `f` under `id`, recording per-iteration times for the table.
fn bench(c: &mut Criterion, id: &str, samples: usize, mut f: impl FnMut()) {
    let mut group = c.benchmark_group("bls");
    group
        .sample_size(samples)
        .measurement_time(Duration::from_secs(4));
    let name = id.strip_prefix("bls/").unwrap_or(id).to_string();
    group.bench_function(&name, |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                f();
            }
            let elapsed = start.elapsed();
            let per = (elapsed / u32::try_from(iters).expect("iteration count fits u32")).as_secs_f64();
            MEDIANS
                .lock()
                .unwrap()
                .entry(id.to_string())
                .or_default()
                .push(per);
            elapsed
        })
    });
    group.finish();
}

fn keys(n: usize) -> Vec<SigningKey> {
    (0..n)
        .map(|i| {
            let mut ikm = [0u8; 32];
            ikm[..8].copy_from_slice(&(i as u64).to_be_bytes());
            SigningKey::keygen(&ikm, b"quasar-pq bls bench").unwrap()
        })
        .collect()
}

const MSG: &[u8] = b"finality certificate message: 32 bytes of TupleHash";

fn main() {
    let mut c = Criterion::default().configure_from_args();

    let sk = &keys(1)[0];
    let pk = sk.verifying_key().to_bytes();
    let sig = sk.sign(MSG).to_bytes();
    bench(&mut c, "bls/sign", 30, || {
        black_box(sk.sign(black_box(MSG)));
    });
    bench(&mut c, "bls/verify", 30, || {
        bls::verify(black_box(&pk), MSG, black_box(&sig)).unwrap();
    });
    bench(&mut c, "bls/part/hash_to_g2", 30, || {
        black_box(hazmat::hash_to_g2(black_box(MSG), bls::DST_SIGNATURE).unwrap());
    });
    bench(&mut c, "bls/part/decode_signature", 30, || {
        black_box(Signature::from_bytes(black_box(&sig)).unwrap());
    });
    bench(&mut c, "bls/part/decode_public_key", 30, || {
        black_box(VerifyingKey::from_bytes(black_box(&pk)).unwrap());
    });

    for k in [21usize, 128] {
        let sks = keys(k);
        let pks: Vec<[u8; 48]> = sks.iter().map(|sk| sk.verifying_key().to_bytes()).collect();
        let pops: Vec<[u8; 96]> = sks.iter().map(|sk| sk.prove_possession().to_bytes()).collect();
        let sigs: Vec<Signature> = sks.iter().map(|sk| sk.sign(MSG)).collect();
        let pk_concat: Vec<u8> = pks.concat();
        let pop_concat: Vec<u8> = pops.concat();

        if k == 21 {
            let all = Signature::aggregate(&sigs).unwrap().to_bytes();
            let refs: Vec<&[u8]> = pks.iter().map(|p| p.as_slice()).collect();
            bench(&mut c, "bls/fast_aggregate_verify/21", 30, || {
                bls::fast_aggregate_verify(black_box(&refs), MSG, black_box(&all)).unwrap();
            });
        }

        let samples = if k > 64 { 10 } else { 20 };
        bench(&mut c, &format!("bls/prepared_new/{k}"), samples, || {
            black_box(PreparedSet::from_bytes(black_box(&pk_concat), black_box(&pop_concat)).unwrap());
        });
        let typed: Vec<VerifyingKey> = pks.iter().map(|p| VerifyingKey::from_bytes(p).unwrap()).collect();
        bench(&mut c, &format!("bls/prepared_trusting_pops/{k}"), 30, || {
            black_box(PreparedSet::from_keys_trusting_pops(black_box(&typed)).unwrap());
        });

        let set = PreparedSet::from_bytes(&pk_concat, &pop_concat).unwrap();
        let two_thirds = (2 * k).div_ceil(3);
        let cases: [(&str, Vec<usize>); 3] = [
            ("all", (0..k).collect()),
            ("two_thirds", (0..two_thirds).collect()),
            ("one_absent", (1..k).collect()),
        ];
        for (label, signers) in cases {
            let bitmap = SignerBitmap::from_indices(k, &signers).unwrap();
            let agg = Signature::aggregate(&signers.iter().map(|&i| sigs[i]).collect::<Vec<_>>())
                .unwrap()
                .to_bytes();
            set.verify_aggregate_bytes(MSG, &agg, &bitmap).unwrap();
            bench(&mut c, &format!("bls/prepared_verify/{k}/{label}"), 30, || {
                set.verify_aggregate_bytes(MSG, black_box(&agg), black_box(&bitmap))
                    .unwrap();
            });
            let ratio = paired_ratio(
                101,
                || {
                    set.verify_aggregate_bytes(MSG, black_box(&agg), black_box(&bitmap))
                        .unwrap()
                },
                || bls::verify(black_box(&pk), MSG, black_box(&sig)).unwrap(),
            );
            PAIRED
                .lock()
                .unwrap()
                .push((format!("bls/prepared_verify/{k}/{label}"), ratio));
        }
    }

    c.final_summary();
    print_table();
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn print_table() {
    let medians = MEDIANS.lock().unwrap();
    if medians.is_empty() {
        return;
    }
    let verify = medians.get("bls/verify").map(|v| median(v));
    println!();
    println!("BLS12-381 (zkcrypto bls12_381 0.8), median time per operation, lower is better.");
    println!("Ratio = time / plain verify from bytes.");
    println!();
    println!("| operation | ms/op | ÷ verify |");
    println!("|---|---:|---:|");
    for (id, samples) in medians.iter() {
        let m = median(samples);
        let ratio = verify.map_or(String::from("–"), |v| format!("{:.2}", m / v));
        println!("| `{id}` | {:.3} | {ratio} |", m * 1e3);
    }
    let paired = PAIRED.lock().unwrap();
    if !paired.is_empty() {
        println!();
        println!("Paired: prepared-set verify ÷ plain verify from bytes, timed back to back, median of 101.");
        println!();
        println!("| case | ratio |");
        println!("|---|---:|");
        for (id, r) in paired.iter() {
            println!("| `{id}` | {r:.2} |");
        }
    }
}
