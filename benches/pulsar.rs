//! Pulsar custody (threshold ML-DSA-65 over the LSS Pedersen kernel): the K = 21 signing
//! ceremony per phase and per party, and resharing with the activation certificate.
//!
//! Every figure starts and ends with bytes: a party decodes what it receives, runs its step
//! and encodes what it sends. Per-party figures time **one party's step** (the other
//! parties' messages come from a reference run made outside the timer), never a total
//! divided by n.
//!
//! Ids `pulsar/k21/<step>` (n = 21, t = 14, ML-DSA-65, all signatures hedged):
//! - key ceremony, the LSS Pedersen DKG, one party: `dkg-deal` (round 1 + encoding),
//!   `dkg-round2` (decode deals and shares, check, complaint), `dkg-round3`, `dkg-finalize`;
//!   `keyceremony-total`: the whole ceremony in one process (21 DKG parties, derivation by
//!   14 signers and the combiner, 21 parties checking the announcement and storing);
//! - key derivation session: `derive-round1` (one signer: decode the combiner key, build
//!   the session, seal its share, commit), `derive-round2` (one signer: decode the round-1
//!   broadcasts, release its envelope), `derive-combine` (the combiner: decode, open 14
//!   envelopes, check the shares, rebuild, ML-DSA keygen, sign and verify the proof of
//!   possession, encode the announcement), `derive-store` (one party: decode and verify the
//!   announcement, store its share);
//! - signing: `combiner-setup` (ML-KEM-768 keygen + encoding, once per session),
//!   `sign-round1`, `sign-round2` (one signer, as above), `combine` (the combiner's whole
//!   step: build the session, decode t commitments and t envelopes, decrypt, check each
//!   share against the Pedersen commitments, rebuild x, derive the key, ML-DSA keygen,
//!   check the group key, sign, verify, encode `PULS`), `verify` (plain `mldsa::verify`),
//!   `sign-total` (one whole session in one process);
//! - references in the same run: `mldsa-sign` (plain hedged `mldsa::sign` from secret-key
//!   bytes, same message and context), `mldsa-keygen`.
//!
//! Ids `pulsar/reshare/<case>/<step>` (t = ⌈2n/3⌉; dealers = the first t_old old parties,
//! except refresh where all deal; new sets use fresh ids):
//! - `total`: in one process, every party's LSS rounds through bytes with all checks, every
//!   new party storing its custody share, the new set (last t_new parties) signing the
//!   activation certificate through the custody ceremony (combiner key, rounds 1 and 2,
//!   combine), the certificate encoded, decoded, checked against the dealing and verified
//!   with plain ML-DSA;
//! - `deal`: one dealer's round 1 with encoding; `receive`: one receiver's decoding, rounds
//!   2 and 3, finalize and storage (in same-set cases the same party as `deal`);
//!   `act-signer`: one activation signer's rounds 1 and 2; `act-combine`: the activation
//!   combiner's step including the certificate; `cert-verify`: decode the certificate and
//!   verify it with plain ML-DSA.
//!
//! Cases with n = 128 on either side time `total` with a plain harness (`PULSAR_BENCH_RUNS`
//! runs, default 3, no warm-up) rather than criterion's ≥ 11 runs.
//!
//! Median and mean are over individual operations (each timed alone); they are written to
//! `target/pulsar-bench.json` (with the load average before and after) for
//! `python3 scripts/pulsar-table.py`. Seeds are fixed and labelled (SHAKE256 of
//! "quasar-pq/bench/pulsar/…"), so reruns are comparable.
//!
//! Run: `cargo bench --bench pulsar` (filter: `cargo bench --bench pulsar -- pulsar/k21`,
//! `-- 'pulsar/reshare/21->64'`).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hint::black_box;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode};
use ml_kem::kem::{Decapsulate, Encapsulate};
use ml_kem::{KemCore, MlKem768};
use quasar_pq::lss::{
    self, ActivationCertificate, Ceremony, ComplaintMessage, DealMessage, GroupPublic, ResponseMessage,
    ShareMessage,
};
use quasar_pq::mldsa::{self, Mode};
use quasar_pq::pulsar::custody::{
    self, activation_certificate, activation_session, verify_activation_expected, CombineState, Combiner,
    CombinerKey, CombinerPublicKey, GroupKey, GroupKeyAnnouncement, KeyShare, Round1Message, Round2Message,
    Session, ACTIVATION_CONTEXT,
};
use quasar_pq::vss::{self, Ristretto255};
use quasar_pq::PartyId;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sha3::digest::{ExtendableOutput, Update, XofReader};

type R = Ristretto255;
type LssShare = lss::KeyShare<R>;

const MODE: Mode = Mode::MlDsa65;
const COMBINER: u16 = 4000;
const MESSAGE: &[u8] = b"quasar-pq/bench/pulsar: block 1 of the K = 21 committee";
const CONTEXT: &[u8] = b"quasar";

fn labelled<const N: usize>(label: &str) -> [u8; N] {
    let mut h = sha3::Shake256::default();
    h.update(b"quasar-pq/bench/pulsar/");
    h.update(label.as_bytes());
    let mut out = [0u8; N];
    h.finalize_xof().read(&mut out);
    out
}

fn rng(label: &str) -> ChaCha20Rng {
    ChaCha20Rng::from_seed(labelled(label))
}

fn pid(v: u16) -> PartyId {
    PartyId::new(v).unwrap()
}

fn ids(range: impl IntoIterator<Item = u16>) -> Vec<PartyId> {
    range.into_iter().map(pid).collect()
}

fn two_thirds(n: u16) -> u16 {
    (2 * n).div_ceil(3)
}

// ---------------------------------------------------------------------------------------
// Recording: every timed operation, for the table.
// ---------------------------------------------------------------------------------------

static RESULTS: Mutex<BTreeMap<String, (Vec<Duration>, &'static str)>> = Mutex::new(BTreeMap::new());

fn record(id: &str, d: Duration, harness: &'static str) {
    RESULTS
        .lock()
        .unwrap()
        .entry(id.to_string())
        .or_insert_with(|| (Vec::new(), harness))
        .0
        .push(d);
}

/// The benchmark filter given on the command line, if any (checked before each case's
/// setup, which criterion's own filter would still run).
fn filter() -> Option<String> {
    std::env::args().skip(1).find(|a| !a.starts_with('-'))
}

fn wanted(prefix: &str) -> bool {
    filter().is_none_or(|f| prefix.contains(f.as_str()) || f.contains(prefix))
}

/// This thread's CPU time in nanoseconds (`/proc/thread-self/schedstat`, updated at least
/// every scheduler tick): for whole runs on a shared machine, next to their wall time.
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// `iter_custom` over a step that needs untimed preparation: `prepare` builds the input,
/// `step` is timed alone; every operation is recorded under `id` (and, with `cpu`, its
/// thread CPU time under `id#cpu`).
fn bench_step<S, O>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    id: &str,
    cpu: bool,
    mut prepare: impl FnMut() -> S,
    mut step: impl FnMut(S) -> O,
) {
    let name = id.rsplit_once('/').unwrap().1;
    let cpu_id = format!("{id}#cpu");
    g.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let input = prepare();
                let cpu_start = if cpu { cpu_ns() } else { None };
                let start = Instant::now();
                let out = step(input);
                let d = start.elapsed();
                if let (Some(a), Some(b)) = (cpu_start, cpu_ns().filter(|_| cpu)) {
                    record(&cpu_id, Duration::from_nanos(b.saturating_sub(a)), "criterion");
                }
                black_box(out);
                total += d;
                record(id, d, "criterion");
            }
            total
        })
    });
}

// ---------------------------------------------------------------------------------------
// LSS rounds through bytes, all parties in one process.
// ---------------------------------------------------------------------------------------

/// Every LSS message of one run, as bytes.
#[derive(Default, Clone)]
struct Wire {
    deals: BTreeMap<PartyId, Vec<u8>>,
    shares: BTreeMap<(PartyId, PartyId), Vec<u8>>,
    complaints: BTreeMap<PartyId, Vec<u8>>,
    responses: BTreeMap<PartyId, Vec<u8>>,
}

fn inbox1(
    wire: &Wire,
    p: PartyId,
) -> (
    BTreeMap<PartyId, DealMessage<R>>,
    BTreeMap<PartyId, ShareMessage<R>>,
) {
    let deals = wire
        .deals
        .iter()
        .filter(|(&d, _)| d != p)
        .map(|(&d, b)| (d, DealMessage::from_bytes(b).unwrap()))
        .collect();
    let shares = wire
        .shares
        .iter()
        .filter(|((_, to), _)| *to == p)
        .map(|((from, _), b)| (*from, ShareMessage::from_bytes(b).unwrap()))
        .collect();
    (deals, shares)
}

fn inbox2(wire: &Wire, p: PartyId) -> BTreeMap<PartyId, ComplaintMessage<R>> {
    wire.complaints
        .iter()
        .filter(|(&j, _)| j != p)
        .map(|(&j, b)| (j, ComplaintMessage::from_bytes(b).unwrap()))
        .collect()
}

fn inbox3(wire: &Wire, p: PartyId) -> BTreeMap<PartyId, ResponseMessage<R>> {
    wire.responses
        .iter()
        .filter(|(&d, _)| d != p)
        .map(|(&d, b)| (d, ResponseMessage::from_bytes(b).unwrap()))
        .collect()
}

/// One whole LSS run, every party, through bytes; returns the receivers' shares, the new
/// public data and the wire.
fn lss_run(
    ceremony: &Ceremony<R>,
    old: &BTreeMap<PartyId, &LssShare>,
    rng: &mut ChaCha20Rng,
) -> (BTreeMap<PartyId, LssShare>, GroupPublic<R>, Wire) {
    let parties: BTreeSet<PartyId> = ceremony
        .dealers()
        .iter()
        .chain(ceremony.receivers())
        .copied()
        .collect();
    let mut wire = Wire::default();
    let mut s1 = Vec::new();
    for &p in &parties {
        let (state, out) = lss::round1(ceremony.clone(), p, old.get(&p).copied(), rng).unwrap();
        if let Some(d) = out.broadcast {
            wire.deals.insert(p, d.to_bytes());
        }
        for m in out.shares {
            wire.shares.insert((p, m.to()), m.to_bytes().to_vec());
        }
        s1.push((p, state));
    }
    let mut s2 = Vec::new();
    for (p, state) in s1 {
        let (deals, shares) = inbox1(&wire, p);
        let (state, complaint) = state.round2(deals, shares).unwrap();
        if let Some(c) = complaint {
            wire.complaints.insert(p, c.to_bytes());
        }
        s2.push((p, state));
    }
    let mut s3 = Vec::new();
    for (p, state) in s2 {
        let (state, response) = state.round3(inbox2(&wire, p)).unwrap();
        if let Some(r) = response {
            wire.responses.insert(p, r.to_bytes());
        }
        s3.push((p, state));
    }
    let mut shares = BTreeMap::new();
    let mut public = None;
    for (p, state) in s3 {
        let out = state.finalize(inbox3(&wire, p)).unwrap();
        assert!(out.blame.is_empty());
        if let Some(k) = out.key_share {
            shares.insert(p, k);
        }
        public = Some(out.public);
    }
    (shares, public.unwrap(), wire)
}

/// One receiver's rounds 2, 3 and finalize from the bytes of a reference run.
fn receive(state: lss::Round1State<R>, wire: &Wire, p: PartyId) -> lss::Outcome<R> {
    let (deals, shares) = inbox1(wire, p);
    let (state, complaint) = state.round2(deals, shares).unwrap();
    black_box(complaint.map(|c| c.to_bytes()));
    let (state, response) = state.round3(inbox2(wire, p)).unwrap();
    black_box(response.map(|r| r.to_bytes()));
    state.finalize(inbox3(wire, p)).unwrap()
}

// ---------------------------------------------------------------------------------------
// Custody sessions through bytes.
// ---------------------------------------------------------------------------------------

/// How signers and the combiner build the session from the combiner's public key.
type MakeSession<'a> = &'a dyn Fn(&CombinerPublicKey) -> Session;

/// One signer's round 1: decode the combiner key, build the session, seal and commit.
fn signer_round1(
    share: &LssShare,
    make: MakeSession<'_>,
    combiner_pk: &[u8],
    rng: &mut ChaCha20Rng,
) -> (custody::Round1State, Vec<u8>) {
    let pk = CombinerPublicKey::from_bytes(combiner_pk).unwrap();
    let session = make(&pk);
    let (state, m) = custody::round1(share, &session, rng).unwrap();
    (state, m.to_bytes())
}

/// One signer's round 2: decode the other signers' round-1 broadcasts, release the envelope.
fn signer_round2(state: custody::Round1State, r1: &BTreeMap<PartyId, Vec<u8>>) -> Vec<u8> {
    let me = state.me();
    let inbox: BTreeMap<PartyId, Round1Message> = r1
        .iter()
        .filter(|(&p, _)| p != me)
        .map(|(&p, b)| (p, Round1Message::from_bytes(b).unwrap()))
        .collect();
    state.round2(&inbox).unwrap().to_bytes()
}

/// Every signer's rounds: the round-1 broadcasts and the round-2 envelopes, as bytes.
fn signer_rounds(
    shares: &[&LssShare],
    make: MakeSession<'_>,
    combiner_pk: &[u8],
    rng: &mut ChaCha20Rng,
) -> (BTreeMap<PartyId, Vec<u8>>, BTreeMap<PartyId, Vec<u8>>) {
    let mut r1 = BTreeMap::new();
    let mut states = Vec::new();
    for share in shares {
        let (s, m) = signer_round1(share, make, combiner_pk, rng);
        r1.insert(share.id(), m);
        states.push(s);
    }
    let r2 = states
        .into_iter()
        .map(|s| (s.me(), signer_round2(s, &r1)))
        .collect();
    (r1, r2)
}

/// The combiner up to its final step: build the session, decode and check the round-1
/// broadcasts and decode the envelopes.
fn combiner_open(
    key: CombinerKey,
    make: MakeSession<'_>,
    r1: &BTreeMap<PartyId, Vec<u8>>,
    r2: &BTreeMap<PartyId, Vec<u8>>,
) -> (CombineState, BTreeMap<PartyId, Round2Message>) {
    let session = make(key.public_key());
    let r1: BTreeMap<PartyId, Round1Message> = r1
        .iter()
        .map(|(&p, b)| (p, Round1Message::from_bytes(b).unwrap()))
        .collect();
    let state = Combiner::new(key, &session).unwrap().round1(&r1).unwrap();
    let r2 = r2
        .iter()
        .map(|(&p, b)| (p, Round2Message::from_bytes(b).unwrap()))
        .collect();
    (state, r2)
}

fn copy_key(key: &CombinerKey) -> CombinerKey {
    CombinerKey::from_bytes(&key.to_bytes()).unwrap()
}

/// A group: custody shares, the sharing's public data and the group key.
struct Group {
    shares: BTreeMap<PartyId, KeyShare>,
    public: GroupPublic<R>,
    key: GroupKey,
}

impl Group {
    fn lss(&self, set: &[PartyId]) -> Vec<&LssShare> {
        set.iter().map(|p| self.shares[p].lss()).collect()
    }

    fn lss_map(&self) -> BTreeMap<PartyId, &LssShare> {
        self.shares.iter().map(|(p, s)| (*p, s.lss())).collect()
    }
}

/// What a key ceremony leaves for the per-party benches.
struct CeremonyRun {
    group: Group,
    dkg: Ceremony<R>,
    dkg_wire: Wire,
    derive_signers: Vec<PartyId>,
    derive_key: CombinerKey,
    derive_r1: BTreeMap<PartyId, Vec<u8>>,
    derive_r2: BTreeMap<PartyId, Vec<u8>>,
    announcement: Vec<u8>,
}

fn ceremony_session(public: &GroupPublic<R>, signers: &[PartyId]) -> impl Fn(&CombinerPublicKey) -> Session {
    let public = public.clone();
    let signers = signers.to_vec();
    move |pk| Session::key_ceremony(labelled("derive-session"), MODE, &public, &signers, pk).unwrap()
}

/// The whole key ceremony: DKG (n parties), derivation by the first t, storage by all.
fn key_ceremony(n: u16, rng: &mut ChaCha20Rng) -> CeremonyRun {
    let t = two_thirds(n);
    let parties = ids(1..=n);
    let dkg = Ceremony::<R>::dkg(labelled("dkg-session"), vss::Mode::Pedersen, &parties, t).unwrap();
    let (lss_shares, public, dkg_wire) = lss_run(&dkg, &BTreeMap::new(), rng);
    assert!(public.group_key().is_none(), "Pedersen: no x·G is published");

    let derive_signers = parties[..usize::from(t)].to_vec();
    let key = CombinerKey::generate(pid(COMBINER), rng);
    let derive_key = copy_key(&key);
    let pk_bytes = key.public_key().to_bytes();
    let make = ceremony_session(&public, &derive_signers);
    let used: Vec<&LssShare> = derive_signers.iter().map(|p| &lss_shares[p]).collect();
    let (r1, r2) = signer_rounds(&used, &make, &pk_bytes, rng);
    let (state, envelopes) = combiner_open(key, &make, &r1, &r2);
    let announcement = state.finish_key_ceremony(&envelopes, rng).unwrap().to_bytes();

    let mut key = None;
    let mut shares = BTreeMap::new();
    for (p, s) in lss_shares {
        let k = GroupKeyAnnouncement::from_bytes(&announcement)
            .unwrap()
            .verify(s.public())
            .unwrap();
        key.get_or_insert_with(|| k.clone());
        shares.insert(p, KeyShare::new(s, k).unwrap());
    }
    CeremonyRun {
        group: Group {
            shares,
            public,
            key: key.unwrap(),
        },
        dkg,
        dkg_wire,
        derive_signers,
        derive_key,
        derive_r1: r1,
        derive_r2: r2,
        announcement,
    }
}

fn sign_session(group: &Group, signers: &[PartyId], id: &str) -> impl Fn(&CombinerPublicKey) -> Session {
    let key = group.key.clone();
    let public = group.public.clone();
    let signers = signers.to_vec();
    let id: [u8; 32] = labelled(id);
    move |pk| Session::sign(id, &key, &public, &signers, pk, MESSAGE, CONTEXT).unwrap()
}

fn activate_session(
    group_key: &GroupKey,
    public: &GroupPublic<R>,
    signers: &[PartyId],
) -> impl Fn(&CombinerPublicKey) -> Session {
    let key = group_key.clone();
    let public = public.clone();
    let signers = signers.to_vec();
    move |pk| activation_session(labelled("activate-session"), &key, &public, &signers, pk).unwrap()
}

// ---------------------------------------------------------------------------------------
// K = 21
// ---------------------------------------------------------------------------------------

fn bench_k21(c: &mut Criterion) {
    const N: u16 = 21;
    let prefix = "pulsar/k21/";
    if !wanted(prefix) {
        return;
    }
    let t = two_thirds(N);
    let run = key_ceremony(N, &mut rng("k21/ceremony"));
    let group = &run.group;
    let me = pid(1);

    // A reference signing session (signers 1..=t), outside every timer.
    let signers = ids(1..=t);
    let make = sign_session(group, &signers, "k21/sign-session");
    let key = CombinerKey::generate(pid(COMBINER), &mut rng("k21/combiner"));
    let pk_bytes = key.public_key().to_bytes();
    let (r1, r2) = signer_rounds(&group.lss(&signers), &make, &pk_bytes, &mut rng("k21/sign"));
    let (state, envelopes) = combiner_open(copy_key(&key), &make, &r1, &r2);
    let signed = state.combine(&envelopes, &mut rng("k21/combine")).unwrap();
    let signature = signed.signature().to_vec();
    mldsa::verify(MODE, group.key.public_key(), MESSAGE, CONTEXT, &signature).unwrap();

    let mut g = c.benchmark_group("pulsar/k21");
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_secs(1));

    // --- key ceremony: the LSS Pedersen DKG, one party -------------------------------------
    let dkg = &run.dkg;
    let wire = &run.dkg_wire;
    let mut r = rng("k21/dkg-party");
    bench_step(
        &mut g,
        "pulsar/k21/dkg-deal",
        false,
        || (),
        |()| {
            let (state, out) = lss::round1(dkg.clone(), me, None, &mut r).unwrap();
            let bytes = out.broadcast.map(|d| d.to_bytes());
            let shares: Vec<_> = out.shares.iter().map(|m| m.to_bytes()).collect();
            (state, bytes, shares)
        },
    );
    let mut r = rng("k21/dkg-party");
    let round1 = |r: &mut ChaCha20Rng| lss::round1(dkg.clone(), me, None, r).unwrap().0;
    bench_step(
        &mut g,
        "pulsar/k21/dkg-round2",
        false,
        || round1(&mut r),
        |s| {
            let (deals, shares) = inbox1(wire, me);
            let (s, complaint) = s.round2(deals, shares).unwrap();
            (s, complaint.map(|c| c.to_bytes()))
        },
    );
    let mut r = rng("k21/dkg-party");
    let round2 = |r: &mut ChaCha20Rng| {
        let (deals, shares) = inbox1(wire, me);
        round1(r).round2(deals, shares).unwrap().0
    };
    bench_step(
        &mut g,
        "pulsar/k21/dkg-round3",
        false,
        || round2(&mut r),
        |s| {
            let (s, response) = s.round3(inbox2(wire, me)).unwrap();
            (s, response.map(|m| m.to_bytes()))
        },
    );
    let mut r = rng("k21/dkg-party");
    bench_step(
        &mut g,
        "pulsar/k21/dkg-finalize",
        false,
        || round2(&mut r).round3(inbox2(wire, me)).unwrap().0,
        |s| s.finalize(inbox3(wire, me)).unwrap(),
    );
    let mut r = rng("k21/keyceremony-total");
    bench_step(
        &mut g,
        "pulsar/k21/keyceremony-total",
        true,
        || (),
        |()| key_ceremony(N, &mut r).group.key,
    );

    // --- key derivation session ----------------------------------------------------------------
    let derive_make = ceremony_session(&group.public, &run.derive_signers);
    let derive_pk = run.derive_key.public_key().to_bytes();
    let my_lss = group.shares[&me].lss();
    let mut r = rng("k21/derive-party");
    bench_step(
        &mut g,
        "pulsar/k21/derive-round1",
        false,
        || (),
        |()| signer_round1(my_lss, &derive_make, &derive_pk, &mut r),
    );
    let mut r = rng("k21/derive-party");
    bench_step(
        &mut g,
        "pulsar/k21/derive-round2",
        false,
        || signer_round1(my_lss, &derive_make, &derive_pk, &mut r).0,
        |s| signer_round2(s, &run.derive_r1),
    );
    let mut r = rng("k21/derive-combine");
    bench_step(
        &mut g,
        "pulsar/k21/derive-combine",
        false,
        || copy_key(&run.derive_key),
        |k| {
            let (state, envelopes) = combiner_open(k, &derive_make, &run.derive_r1, &run.derive_r2);
            state.finish_key_ceremony(&envelopes, &mut r).unwrap().to_bytes()
        },
    );
    bench_step(
        &mut g,
        "pulsar/k21/derive-store",
        false,
        || LssShare::from_bytes(&my_lss.to_bytes()).unwrap(),
        |s| {
            let k = GroupKeyAnnouncement::from_bytes(&run.announcement)
                .unwrap()
                .verify(s.public())
                .unwrap();
            KeyShare::new(s, k).unwrap()
        },
    );

    // --- signing ------------------------------------------------------------------------------
    let mut r = rng("k21/combiner-setup");
    bench_step(
        &mut g,
        "pulsar/k21/combiner-setup",
        false,
        || (),
        |()| {
            let k = CombinerKey::generate(pid(COMBINER), &mut r);
            let b = k.public_key().to_bytes();
            (k, b)
        },
    );
    let mine = group.shares[&me].lss();
    let mut r = rng("k21/sign-party");
    bench_step(
        &mut g,
        "pulsar/k21/sign-round1",
        false,
        || (),
        |()| signer_round1(mine, &make, &pk_bytes, &mut r),
    );
    let mut r = rng("k21/sign-party");
    bench_step(
        &mut g,
        "pulsar/k21/sign-round2",
        false,
        || signer_round1(mine, &make, &pk_bytes, &mut r).0,
        |s| signer_round2(s, &r1),
    );
    let mut r = rng("k21/combine");
    bench_step(
        &mut g,
        "pulsar/k21/combine",
        false,
        || copy_key(&key),
        |k| {
            let (state, envelopes) = combiner_open(k, &make, &r1, &r2);
            state.combine(&envelopes, &mut r).unwrap().to_frame()
        },
    );
    bench_step(
        &mut g,
        "pulsar/k21/verify",
        false,
        || (),
        |()| mldsa::verify(MODE, group.key.public_key(), MESSAGE, CONTEXT, &signature).unwrap(),
    );
    let mut r = rng("k21/sign-total");
    bench_step(
        &mut g,
        "pulsar/k21/sign-total",
        false,
        || (),
        |()| {
            let k = CombinerKey::generate(pid(COMBINER), &mut r);
            let pk = k.public_key().to_bytes();
            let (r1, r2) = signer_rounds(&group.lss(&signers), &make, &pk, &mut r);
            let (state, envelopes) = combiner_open(k, &make, &r1, &r2);
            state.combine(&envelopes, &mut r).unwrap().to_frame()
        },
    );

    // --- references: plain ML-DSA-65 from secret-key bytes ----------------------------------
    let seed: [u8; 32] = labelled("mldsa65/seed");
    let (_, sk) = mldsa::keygen(MODE, &seed);
    let mut r = rng("k21/mldsa-sign");
    bench_step(
        &mut g,
        "pulsar/k21/mldsa-sign",
        false,
        || {
            let mut rnd = [0u8; 32];
            r.fill_bytes(&mut rnd);
            rnd
        },
        |rnd| mldsa::sign(MODE, &sk, MESSAGE, CONTEXT, Some(&rnd)).unwrap(),
    );
    bench_step(
        &mut g,
        "pulsar/k21/mldsa-keygen",
        false,
        || (),
        |()| mldsa::keygen(MODE, &seed),
    );
    // --- what Combine is made of, one piece at a time --------------------------------------
    // One ML-KEM-768 decapsulation (the combiner does t of them).
    let mut r = rng("k21/mlkem");
    let (dk, ek) = MlKem768::generate(&mut r);
    let (kem_ct, _) = ek.encapsulate(&mut r).unwrap();
    bench_step(
        &mut g,
        "pulsar/k21/part-mlkem-decaps",
        false,
        || (),
        |()| dk.decapsulate(&kem_ct).unwrap(),
    );
    // One share checked against the Pedersen commitments (the combiner does t of them).
    let commitments = group.public.commitments();
    let share = group.shares[&me].lss().share();
    bench_step(
        &mut g,
        "pulsar/k21/part-share-check",
        false,
        || (),
        |()| commitments.verify_share(me, share).unwrap(),
    );
    g.finish();
}

// ---------------------------------------------------------------------------------------
// Resharing + activation
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy)]
enum Case {
    /// n → n, same set, minimal quorum of dealers.
    Same(u16),
    /// Refresh of n parties, all dealing.
    Refresh(u16),
    /// n_old → n_new with a disjoint new set.
    NewSet(u16, u16),
}

impl Case {
    fn name(self) -> String {
        match self {
            Case::Same(n) => format!("{n}->{n}"),
            Case::Refresh(n) => format!("{n}->{n} refresh"),
            Case::NewSet(a, b) => format!("{a}->{b} new set"),
        }
    }

    fn n_old(self) -> u16 {
        match self {
            Case::Same(n) | Case::Refresh(n) | Case::NewSet(n, _) => n,
        }
    }

    fn n_new(self) -> u16 {
        match self {
            Case::Same(n) | Case::Refresh(n) | Case::NewSet(_, n) => n,
        }
    }

    fn ceremony(self, old: &GroupPublic<R>) -> Ceremony<R> {
        let t_old = two_thirds(self.n_old());
        let session: [u8; 32] = labelled(&format!("reshare-session/{}", self.name()));
        match self {
            Case::Same(n) => Ceremony::reshare(session, old, &ids(1..=t_old), &ids(1..=n), two_thirds(n)),
            Case::Refresh(n) => Ceremony::refresh(session, old, &ids(1..=n)),
            Case::NewSet(_, n) => Ceremony::reshare(
                session,
                old,
                &ids(1..=t_old),
                &ids(1001..=1000 + n),
                two_thirds(n),
            ),
        }
        .unwrap()
    }
}

fn cases() -> Vec<Case> {
    let mut v: Vec<Case> = [3, 7, 21, 64, 128].into_iter().map(Case::Same).collect();
    v.extend([
        Case::Refresh(21),
        Case::NewSet(21, 21),
        Case::NewSet(21, 64),
        Case::NewSet(64, 21),
        Case::NewSet(64, 128),
        Case::NewSet(128, 64),
    ]);
    v
}

/// What one verified reshare run leaves for the per-party benches.
struct ReshareRun {
    wire: Wire,
    next: Group,
    act_signers: Vec<PartyId>,
    act_key: CombinerKey,
    act_r1: BTreeMap<PartyId, Vec<u8>>,
    act_r2: BTreeMap<PartyId, Vec<u8>>,
    cert: Vec<u8>,
}

/// The whole reshare in one process: LSS rounds, storage, the activation certificate
/// signed by the new set through the custody ceremony, and its plain ML-DSA verification.
fn reshare_total(old: &Group, ceremony: &Ceremony<R>, rng: &mut ChaCha20Rng) -> ReshareRun {
    let (new_lss, public, wire) = lss_run(ceremony, &old.lss_map(), rng);
    assert_eq!(
        public.group_commitment_bytes(),
        old.public.group_commitment_bytes()
    );
    assert_eq!(new_lss.len(), ceremony.receivers().len());
    let shares: BTreeMap<PartyId, KeyShare> = new_lss
        .into_iter()
        .map(|(p, s)| (p, KeyShare::new(s, old.key.clone()).unwrap()))
        .collect();
    let next = Group {
        shares,
        public,
        key: old.key.clone(),
    };

    // The new set (its last t members) signs the activation certificate.
    let t = usize::from(next.public.threshold());
    let parties = next.public.parties();
    let act_signers = parties[parties.len() - t..].to_vec();
    let key = CombinerKey::generate(pid(COMBINER), rng);
    let act_key = copy_key(&key);
    let pk_bytes = key.public_key().to_bytes();
    let make = activate_session(&next.key, &next.public, &act_signers);
    let (r1, r2) = signer_rounds(&next.lss(&act_signers), &make, &pk_bytes, rng);
    let (state, envelopes) = combiner_open(key, &make, &r1, &r2);
    let signed = state.combine(&envelopes, rng).unwrap();
    let cert = activation_certificate(&next.key, &next.public, &signed)
        .unwrap()
        .to_bytes();

    // Anyone: decode, check it names this dealing, verify with plain ML-DSA.
    let decoded = ActivationCertificate::from_bytes(&cert).unwrap();
    verify_activation_expected(&decoded, &next.key, &next.public).unwrap();
    mldsa::verify(
        MODE,
        old.key.public_key(),
        &decoded.message(),
        ACTIVATION_CONTEXT,
        &decoded.signature,
    )
    .unwrap();
    ReshareRun {
        wire,
        next,
        act_signers,
        act_key,
        act_r1: r1,
        act_r2: r2,
        cert,
    }
}

fn plain_runs() -> usize {
    std::env::var("PULSAR_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
        .max(1)
}

fn bench_reshare(c: &mut Criterion, case: Case, groups: &mut HashMap<u16, Group>) {
    let prefix = format!("pulsar/reshare/{}/", case.name());
    if !wanted(&prefix) {
        return;
    }
    let n_old = case.n_old();
    let old = groups
        .entry(n_old)
        .or_insert_with(|| key_ceremony(n_old, &mut rng(&format!("reshare/old/{n_old}"))).group);
    let old = &*old;
    let ceremony = case.ceremony(&old.public);
    let reference = reshare_total(old, &ceremony, &mut rng(&format!("{prefix}reference")));

    let mut g = c.benchmark_group(format!("pulsar/reshare/{}", case.name()));
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_secs(1));

    // Total: criterion, or a plain harness when n = 128 on either side.
    let total_id = format!("{prefix}total");
    if case.n_old().max(case.n_new()) >= 128 {
        let mut r = rng(&format!("{prefix}total"));
        for i in 0..plain_runs() {
            let cpu_start = cpu_ns();
            let start = Instant::now();
            let run = reshare_total(old, &ceremony, &mut r);
            let d = start.elapsed();
            if let (Some(a), Some(b)) = (cpu_start, cpu_ns()) {
                record(
                    &format!("{total_id}#cpu"),
                    Duration::from_nanos(b.saturating_sub(a)),
                    "plain",
                );
            }
            black_box(run.cert);
            record(&total_id, d, "plain");
            println!(
                "{total_id}: run {} of {}: {:.3} s",
                i + 1,
                plain_runs(),
                d.as_secs_f64()
            );
        }
    } else {
        let mut r = rng(&format!("{prefix}total"));
        bench_step(
            &mut g,
            &total_id,
            true,
            || (),
            |()| reshare_total(old, &ceremony, &mut r).cert,
        );
    }

    // One dealer's deal.
    let dealer = ceremony.dealers()[0];
    let old_share = old.shares.get(&dealer).map(KeyShare::lss);
    let mut r = rng(&format!("{prefix}deal"));
    bench_step(
        &mut g,
        &format!("{prefix}deal"),
        false,
        || (),
        |()| {
            let (state, out) = lss::round1(ceremony.clone(), dealer, old_share, &mut r).unwrap();
            let bytes = out.broadcast.map(|d| d.to_bytes());
            let shares: Vec<_> = out.shares.iter().map(|m| m.to_bytes()).collect();
            (state, bytes, shares)
        },
    );

    // One receiver: the dealer itself when it also receives, else a new party.
    let receiver = if ceremony.is_receiver(dealer) {
        dealer
    } else {
        ceremony.receivers()[0]
    };
    let recv_old = old.shares.get(&receiver).map(KeyShare::lss);
    let wire = &reference.wire;
    let group_key = &old.key;
    let mut r = rng(&format!("{prefix}receive"));
    bench_step(
        &mut g,
        &format!("{prefix}receive"),
        false,
        || {
            lss::round1(ceremony.clone(), receiver, recv_old, &mut r)
                .unwrap()
                .0
        },
        |s| {
            let out = receive(s, wire, receiver);
            KeyShare::new(out.key_share.unwrap(), group_key.clone()).unwrap()
        },
    );

    // One activation signer (rounds 1 and 2) and the activation combiner.
    let next = &reference.next;
    let signer = reference.act_signers[0];
    let make = activate_session(&next.key, &next.public, &reference.act_signers);
    let pk_bytes = reference.act_key.public_key().to_bytes();
    let share = next.shares[&signer].lss();
    let mut r = rng(&format!("{prefix}act-signer"));
    bench_step(
        &mut g,
        &format!("{prefix}act-signer"),
        false,
        || (),
        |()| {
            let (s, m) = signer_round1(share, &make, &pk_bytes, &mut r);
            (signer_round2(s, &reference.act_r1), m)
        },
    );
    let mut r = rng(&format!("{prefix}act-combine"));
    bench_step(
        &mut g,
        &format!("{prefix}act-combine"),
        false,
        || copy_key(&reference.act_key),
        |k| {
            let (state, envelopes) = combiner_open(k, &make, &reference.act_r1, &reference.act_r2);
            let signed = state.combine(&envelopes, &mut r).unwrap();
            activation_certificate(&next.key, &next.public, &signed)
                .unwrap()
                .to_bytes()
        },
    );
    bench_step(
        &mut g,
        &format!("{prefix}cert-verify"),
        false,
        || (),
        |()| {
            let cert = ActivationCertificate::from_bytes(&reference.cert).unwrap();
            mldsa::verify(
                MODE,
                group_key.public_key(),
                &cert.message(),
                ACTIVATION_CONTEXT,
                &cert.signature,
            )
            .unwrap()
        },
    );
    g.finish();
}

// ---------------------------------------------------------------------------------------

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn write_results(load_before: &str, load_after: &str, started: &str) {
    let results = RESULTS.lock().unwrap();
    if results.is_empty() {
        return;
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/pulsar-bench.json");
    // Merge with an earlier (filtered) run so partial reruns keep the other figures.
    let mut doc: serde_json::Value = std::fs::read(&path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_else(|| serde_json::json!({ "results": {} }));
    let entries = doc["results"].as_object_mut().unwrap();
    for (id, (samples, harness)) in results.iter() {
        let mut ns: Vec<f64> = samples.iter().map(|d| d.as_nanos() as f64).collect();
        ns.sort_by(f64::total_cmp);
        let median = if ns.len() % 2 == 1 {
            ns[ns.len() / 2]
        } else {
            (ns[ns.len() / 2 - 1] + ns[ns.len() / 2]) / 2.0
        };
        let mean = ns.iter().sum::<f64>() / ns.len() as f64;
        entries.insert(
            id.clone(),
            serde_json::json!({
                "median_ns": median, "mean_ns": mean, "min_ns": ns[0], "max_ns": ns[ns.len() - 1],
                "count": ns.len(), "harness": harness, "started": started,
                "load_before": load_before, "load_after": load_after,
            }),
        );
    }
    std::fs::write(&path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    println!("wrote {}", path.display());
}

fn main() {
    let started = std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%dT%H:%M:%SZ"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let load_before = loadavg();
    let mut c = Criterion::default().configure_from_args();
    bench_k21(&mut c);
    let mut groups = HashMap::new();
    for case in cases() {
        bench_reshare(&mut c, case, &mut groups);
    }
    c.final_summary();
    write_results(&load_before, &loadavg(), &started);
}
