//! Share snapshots on disk: save (encrypt + crash-safe write: temp file, fsync, rename,
//! directory fsync), rollback (read + decrypt + decode and check the share against the
//! commitments), and retiring a generation (activate: state file, then overwrite, fsync,
//! unlink of the superseded one), for one party's LSS key share of an n = 21 (t = 14) and
//! n = 128 (t = 86) Pedersen sharing over Ristretto255.
//!
//! `cargo bench --bench snapshot`; the store lives in a temporary directory on the
//! machine's disk (fsync cost is the disk's).

use criterion::{criterion_group, criterion_main, Criterion};
use quasar_pq::keystore::{Metadata, SnapshotKey, SnapshotStore};
use quasar_pq::lss::{GroupPublic, KeyShare};
use quasar_pq::vss::{Commitments, Mode, Polynomial, Ristretto255 as C, Share};
use quasar_pq::PartyId;
use rand_core::SeedableRng;

/// Party 1's share of a random t-of-n Pedersen sharing.
fn share(n: u16, t: usize) -> KeyShare<C> {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(u64::from(n));
    let secret = quasar_pq::vss::group::random_scalar::<C>(&mut rng);
    let f = Polynomial::<C>::random(secret, t, &mut rng).unwrap();
    let b = Polynomial::<C>::random(secret, t, &mut rng).unwrap();
    let commitments = Commitments::commit(Mode::Pedersen, &f, Some(&b)).unwrap();
    let parties: Vec<PartyId> = (1..=n).filter_map(PartyId::new).collect();
    let public = GroupPublic::new(commitments, parties, 1, [7; 32]).unwrap();
    let id = PartyId::new(1).unwrap();
    KeyShare::new(id, Share::new(f.evaluate(id), b.evaluate(id)), public).unwrap()
}

fn bench(c: &mut Criterion) {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(9);
    for (n, t) in [(21u16, 14usize), (128, 86)] {
        let share = share(n, t);
        let bytes = share.to_bytes();
        let id = PartyId::new(1).unwrap();
        let meta = Metadata::new("pulsar", &[0x22; 32], 1, t as u16, id, 0).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let key = SnapshotKey::generate(&mut rng);
        let mut store = SnapshotStore::open(dir.path(), key).unwrap();
        let mut generation = 0u64;
        let mut g = c.benchmark_group(format!("snapshot/n={n}"));
        g.sample_size(30);
        g.bench_function("save", |b| {
            b.iter(|| {
                generation += 1;
                let sealed = store
                    .seal(&meta.next(generation, generation), &bytes, &mut rng)
                    .unwrap();
                store.save(generation, &sealed).unwrap();
            })
        });
        let last = generation;
        g.bench_function("rollback-read", |b| {
            b.iter(|| {
                let opened = store.load(last).unwrap();
                KeyShare::<C>::from_bytes(opened.payload()).unwrap()
            })
        });
        // Erase the save benchmark's generations first, so each measured activation
        // erases exactly one.
        store.activate(generation).unwrap();
        g.bench_function("retire-one", |b| {
            b.iter_custom(|iters| {
                let mut total = std::time::Duration::ZERO;
                for _ in 0..iters {
                    // Two pending generations; activating the newer erases the older.
                    for _ in 0..2 {
                        generation += 1;
                        let sealed = store
                            .seal(&meta.next(generation, generation), &bytes, &mut rng)
                            .unwrap();
                        store.save(generation, &sealed).unwrap();
                    }
                    let start = std::time::Instant::now();
                    store.activate(generation).unwrap();
                    total += start.elapsed();
                }
                total
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
