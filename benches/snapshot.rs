//! Share snapshots on disk: save (encrypt + crash-safe write: temp file, fsync, rename,
//! directory fsync), rollback (read + decrypt + decode and check the share against the
//! commitments), and retiring a generation (a keyring's activation recorded: the new
//! share written, the state file, then overwrite, fsync, unlink of the superseded one),
//! for one party's LSS key share of an n = 21 (t = 14) and n = 128 (t = 86) Pedersen
//! sharing over Ristretto255. The keyring's certificate check is a stand-in here (its
//! cost is the scheme's, measured by the lifecycle benches).
//!
//! `cargo bench --bench snapshot`; the store lives in a temporary directory on the
//! machine's disk (fsync cost is the disk's).

// A bench's setup unwraps: a panic there is a failed run, not a caller's crash.
#![allow(clippy::unwrap_used)]

use criterion::{criterion_group, criterion_main, Criterion};
use quasar_pq::keystore::{Metadata, SnapshotKey, SnapshotStore, Storable};
use quasar_pq::lss::{GroupPublic, KeyShare};
use quasar_pq::party::keyring::{Custody, Keyring};
use quasar_pq::vss::{Commitments, Mode, Polynomial, Ristretto255 as C, Share};
use quasar_pq::PartyId;
use rand_core::SeedableRng;
use zeroize::Zeroizing;

/// An LSS share in a keyring whose "certificate" is the generation it activates (the
/// bench measures the store, not a scheme's certificate check).
struct Plain(KeyShare<C>);

impl Custody for Plain {
    type Pending = Plain;
    type Certificate = u64;
    fn owner(&self) -> PartyId {
        self.0.id()
    }
    fn generation(&self) -> u64 {
        self.0.generation()
    }
    fn pending_generation(pending: &Plain) -> u64 {
        pending.0.generation()
    }
    fn activate(pending: Plain, certificate: &u64) -> Result<Option<Plain>, (Plain, quasar_pq::Error)> {
        assert_eq!(*certificate, pending.0.generation());
        Ok(Some(pending))
    }
}

impl Storable for Plain {
    fn share_to_bytes(&self) -> Zeroizing<Vec<u8>> {
        self.0.to_bytes()
    }
    fn share_from_bytes(bytes: &[u8]) -> Result<Self, quasar_pq::Error> {
        Ok(Plain(KeyShare::from_bytes(bytes)?))
    }
    fn pending_to_bytes(pending: &Plain) -> Zeroizing<Vec<u8>> {
        pending.0.to_bytes()
    }
    fn pending_from_bytes(bytes: &[u8]) -> Result<Plain, quasar_pq::Error> {
        Plain::share_from_bytes(bytes)
    }
}

/// Party 1's share of a random t-of-n Pedersen sharing of generation `generation`.
fn share(n: u16, t: usize, generation: u64) -> KeyShare<C> {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(u64::from(n));
    let secret = quasar_pq::vss::group::random_scalar::<C>(&mut rng);
    let f = Polynomial::<C>::random(secret, t, &mut rng).unwrap();
    let b = Polynomial::<C>::random(secret, t, &mut rng).unwrap();
    let commitments = Commitments::commit(Mode::Pedersen, &f, Some(&b)).unwrap();
    let parties: Vec<PartyId> = (1..=n).filter_map(PartyId::new).collect();
    let public = GroupPublic::new(commitments, parties, generation, [7; 32]).unwrap();
    let id = PartyId::new(1).unwrap();
    KeyShare::new(id, Share::new(f.evaluate(id), b.evaluate(id)), public).unwrap()
}

fn bench(c: &mut Criterion) {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(9);
    for (n, t) in [(21u16, 14usize), (128, 86)] {
        let first = share(n, t, 1);
        let bytes = first.to_bytes();
        let id = PartyId::new(1).unwrap();
        let meta = Metadata::new(
            "pulsar",
            &[0x22; 32],
            1,
            u16::try_from(t).expect("t fits u16"),
            id,
            0,
        )
        .unwrap();
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
        // A fresh store for the keyring: its current share, then per iteration one
        // pending generation activated, which erases the one before.
        let dir = tempfile::tempdir().unwrap();
        let mut store = SnapshotStore::open(dir.path(), SnapshotKey::generate(&mut rng)).unwrap();
        let mut keyring = Keyring::new(Plain(share(n, t, 1)));
        store.save_keyring(&keyring, &meta, &mut rng).unwrap();
        let mut generation = 1;
        g.bench_function("retire-one", |b| {
            b.iter_custom(|iters| {
                let mut total = core::time::Duration::ZERO;
                for _ in 0..iters {
                    generation += 1;
                    keyring.stage(Plain(share(n, t, generation))).unwrap();
                    store.save_keyring(&keyring, &meta, &mut rng).unwrap();
                    let receipt = keyring.activate(&generation).unwrap();
                    let start = std::time::Instant::now();
                    store.activate(&keyring, &receipt, &meta, &mut rng).unwrap();
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
