//! Lens (FROST, RFC 9591) signing on Ed25519, secp256k1 (BIP-340) and Ristretto255 at
//! (t, n) = (2, 3), (14, 21), (43, 64): the sizes, which the Zcash Foundation's
//! FROST book also reports for its crates.
//!
//! Ids read `lens/<curve>/<t>-of-<n>/<step>`:
//! - `round1`: one signer's `commit` (per party, measured per party);
//! - `round2`: one signer's `sign` over a package of `t` signers (per party);
//! - `aggregate`: the coordinator's `aggregate` of `t` shares (with share verification
//!   only if the aggregate fails, as in frost);
//! - `verify`: `lens::verify` of the final signature;
//! - `total`: one whole session in one process: `t` commits, the signing package, `t`
//!   signs and the aggregate (the sum of what every party does, not a per-party figure).
//!
//! Keys come from the trusted dealer with a fixed, labelled seed, so reruns are
//! comparable. Run: `cargo bench --bench lens`.

use std::collections::{BTreeMap, BTreeSet};
use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use quasar_pq::lens::{self, Curve, KeyShare, PublicKeyPackage, SigningPackage};
use quasar_pq::PartyId;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use sha3::digest::{ExtendableOutput, Update, XofReader};

fn labelled_rng(label: &str) -> ChaCha20Rng {
    let mut h = sha3::Shake256::default();
    h.update(b"quasar-pq/bench/");
    h.update(label.as_bytes());
    let mut seed = [0u8; 32];
    h.finalize_xof().read(&mut seed);
    ChaCha20Rng::from_seed(seed)
}

fn keys(curve: Curve, t: u16, n: u16, rng: &mut ChaCha20Rng) -> (Vec<KeyShare>, PublicKeyPackage) {
    let parties: BTreeSet<PartyId> = (1..=n).filter_map(PartyId::new).collect();
    let (dealt, public) = lens::deal(curve, t, &parties, rng).expect("deal");
    let shares = dealt
        .into_values()
        .map(|d| KeyShare::from_dealer(d, &public).expect("share"))
        .collect();
    (shares, public)
}

fn session(
    signers: &[KeyShare],
    public: &PublicKeyPackage,
    msg: &[u8],
    rng: &mut ChaCha20Rng,
) -> lens::Signature {
    let mut nonces = BTreeMap::new();
    let mut commitments = BTreeMap::new();
    for s in signers {
        let (n, c) = lens::commit(s, rng);
        nonces.insert(s.party(), n);
        commitments.insert(s.party(), c);
    }
    let package = SigningPackage::new(public, &commitments, msg).expect("package");
    let mut shares = BTreeMap::new();
    for s in signers {
        let n = nonces.remove(&s.party()).expect("nonces");
        shares.insert(s.party(), lens::sign(s, n, &package).expect("sign"));
    }
    lens::aggregate(public, &package, &shares).expect("aggregate")
}

fn bench_curve(c: &mut Criterion, curve: Curve) {
    let msg = b"quasar-pq/bench/lens/message: a 64-byte message to be signed....";
    for (t, n) in [(2u16, 3u16), (14, 21), (43, 64)] {
        let label = format!("lens/{curve}/{t}-of-{n}");
        let mut rng = labelled_rng(&label);
        let (mut shares, public) = keys(curve, t, n, &mut rng);
        shares.truncate(usize::from(t));
        let signers = shares;
        let me = &signers[0];

        // Fixed commitments of the other signers; party 1 commits afresh per iteration.
        let mut others = BTreeMap::new();
        let mut other_nonces = BTreeMap::new();
        for s in &signers[1..] {
            let (nn, cc) = lens::commit(s, &mut rng);
            others.insert(s.party(), cc);
            other_nonces.insert(s.party(), nn);
        }

        let mut g = c.benchmark_group(&label);
        g.sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(1));

        g.bench_function("round1", |b| b.iter(|| black_box(lens::commit(me, &mut rng))));

        g.bench_function("round2", |b| {
            b.iter_batched(
                || {
                    let (nn, cc) = lens::commit(me, &mut rng);
                    let mut all = others.clone();
                    all.insert(me.party(), cc);
                    (nn, SigningPackage::new(&public, &all, msg).expect("package"))
                },
                |(nn, package)| black_box(lens::sign(me, nn, &package).expect("sign")),
                BatchSize::SmallInput,
            )
        });

        // One complete set of shares for the aggregate and verify benches.
        let (nn, cc) = lens::commit(me, &mut rng);
        let mut all = others.clone();
        all.insert(me.party(), cc);
        let package = SigningPackage::new(&public, &all, msg).expect("package");
        let mut z = BTreeMap::new();
        z.insert(me.party(), lens::sign(me, nn, &package).expect("sign"));
        for s in &signers[1..] {
            let nn = other_nonces.remove(&s.party()).expect("nonces");
            z.insert(s.party(), lens::sign(s, nn, &package).expect("sign"));
        }
        g.bench_function("aggregate", |b| {
            b.iter(|| black_box(lens::aggregate(&public, &package, &z).expect("aggregate")))
        });
        let sig = lens::aggregate(&public, &package, &z).expect("aggregate");
        let gk = public.group_key_bytes();
        lens::verify(curve, &gk, msg, sig.as_bytes()).expect("verify");
        g.bench_function("verify", |b| {
            b.iter(|| black_box(lens::verify(curve, &gk, msg, sig.as_bytes())).expect("verify"))
        });

        g.bench_function("total", |b| {
            b.iter(|| black_box(session(&signers, &public, msg, &mut rng)))
        });
        g.finish();
    }
}

fn benches(c: &mut Criterion) {
    for curve in Curve::ALL {
        bench_curve(c, curve);
    }
}

criterion_group!(lens_benches, benches);
criterion_main!(lens_benches);
