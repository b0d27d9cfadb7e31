//! Pulsar custody (threshold ML-DSA-65 over the LSS Pedersen kernel) on the library's
//! parties: the K = 21 ceremony per phase and per party, and resharing with the
//! activation round.
//!
//! Every figure starts and ends with bytes. Per-party figures time **one party's own
//! `start` or step** on the inbox a reference run delivered to it (`benches/common`),
//! never a total divided by n; whole runs go through `party::sim`.
//!
//! Ids `pulsar/k21/<step>` (n = 21, t = 14, ML-DSA-65, all signatures hedged):
//! - key ceremony, the LSS Pedersen DKG (`lss::DealingParty`), one party: `dkg-deal`
//!   (start), `dkg-round2` (decode deals and shares, check, complaint), `dkg-round3`
//!   (answer complaints), `dkg-finalize`; `keyceremony-total`: the whole ceremony in one
//!   process (21 DKG parties, derivation by 14 signers and the combiner, 21 parties
//!   checking the announcement, certifying the key and storing);
//! - key derivation session: `derive-round1` (one signer: decode the combiner key, build
//!   the session, seal its share, commit), `derive-round2` (one signer: check the round-1
//!   broadcasts, release its envelope), `derive-combine` (the combiner: build the session,
//!   check 14 commitments, open 14 envelopes, check the shares, rebuild, ML-DSA keygen,
//!   sign the proof of possession, encode the announcement), `derive-store` (one party:
//!   decode and verify the announcement, its key-certification round — its proof of
//!   possession, the 20 others' proofs, the certificate — and storing its custody share);
//! - signing: `combiner-setup` (ML-KEM-768 keygen + encoding, once per session),
//!   `sign-round1`, `sign-round2` (one signer, as above), `combine` (the combiner's whole
//!   part: session, t commitments and t envelopes, decryption, share checks against the
//!   Pedersen commitments, rebuild x, derive the key, ML-DSA keygen, check the group key,
//!   sign, verify), `verify` (plain `mldsa::verify`), `sign-total` (one whole session in
//!   one process, the combiner's key included);
//! - references in the same run: `mldsa-sign` (plain hedged `mldsa::sign` from secret-key
//!   bytes, same message and context), `mldsa-keygen`, and two pieces of Combine:
//!   `part-mlkem-decaps`, `part-share-check`.
//!
//! Ids `pulsar/reshare/<case>/<step>` (t = ⌈2n/3⌉; dealers = the first t_old old parties,
//! except refresh where all deal; new sets use fresh ids), the dealing bound to the group
//! key (`custody::reshare`, `custody::refresh`):
//! - `total`: in one process, every party's dealing through `party::sim` with all checks
//!   and the activation round (proofs of possession of the new shares, the certificate),
//!   and every new member checking the certificate and storing its custody share;
//! - `deal`: one dealer's start; `receive`: one receiver's rounds 1–3 (in same-set cases
//!   the dealer itself); `activate`: the same receiver's activation round (the others'
//!   proofs, the certificate), checking the certificate and storing its custody share;
//!   `cert-verify`: a third party decoding the certificate and checking it against the new
//!   generation's public data and the group key (`custody::verify_activation`).
//!
//! Cases with n = 128 on either side time `total` with a plain harness (`PULSAR_BENCH_RUNS`
//! runs, default 3, no warm-up). Median and mean of every operation go to
//! `target/pulsar-bench.json` (with the load average) for `python3 scripts/pulsar-table.py`.
//! Seeds are fixed and labelled, so reruns are comparable.
//!
//! Run: `cargo bench --bench pulsar --features sim` (filter: `-- pulsar/k21`,
//! `-- 'pulsar/reshare/21->64'`).

mod common;

use std::collections::{BTreeMap, HashMap};
use std::hint::black_box;
use std::time::Duration;

use common::{
    bench, bench_run, cases, ids, pid, plain, plain_runs, replay, run, run_logged, timed, two_thirds, wanted,
    Case,
};
use criterion::{Criterion, SamplingMode};
use libcrux_ml_kem::mlkem768;
use quasar_pq::lss::{self, ActivationCertificate, Ceremony, DealingParty, GroupPublic};
use quasar_pq::mldsa::{self, Mode};
use quasar_pq::party::sim::{map_output, Network, Sent};
use quasar_pq::party::Outgoing;
use quasar_pq::pulsar::custody::{
    self, certification_party, AnnouncedKey, Combined, CombinerKey, CombinerParty, CombinerPublicKey,
    GroupKey, GroupKeyAnnouncement, KeyShare, Session, SignerParty,
};
use quasar_pq::vss::{self, Ristretto255};
use quasar_pq::PartyId;
use rand_chacha::rand_core::RngCore;

type R = Ristretto255;
type LssShare = lss::KeyShare<R>;

const MODE: Mode = Mode::MlDsa65;
const COMBINER: u16 = 4000;
const MESSAGE: &[u8] = b"quasar-pq/bench/pulsar: block 1 of the K = 21 committee";
const CONTEXT: &[u8] = b"quasar";

fn session_id(label: &str) -> [u8; 32] {
    let mut id = [0u8; 32];
    common::rng(label).fill_bytes(&mut id);
    id
}

/// Every participant of the dealing `c`, party `p` with the RNG of `label`.
fn dealing(c: &Ceremony<R>, old: &BTreeMap<PartyId, &LssShare>, label: &str) -> Network<lss::Outcome<R>> {
    let mut net = Network::new();
    let mut all: Vec<PartyId> = c.dealers().iter().chain(c.receivers()).copied().collect();
    all.sort_unstable();
    all.dedup();
    for p in all {
        let rng = &mut common::party_rng(label, p);
        let (party, first) = DealingParty::start(c.clone(), p, old.get(&p).copied(), rng).expect("start");
        net.add(party, first);
    }
    net
}

/// How the signers and the combiner build a session from the combiner's public key.
type MakeSession<'a> = &'a dyn Fn(&CombinerPublicKey) -> Session;

/// A signer's start: decode the combiner key, build the session, seal and commit.
fn signer<'a>(
    share: &'a LssShare,
    make: MakeSession<'a>,
    pk: &'a [u8],
    label: &str,
) -> impl FnOnce() -> (SignerParty, Outgoing) + 'a {
    let mut rng = common::party_rng(label, share.id());
    move || {
        let session = make(&CombinerPublicKey::from_bytes(pk).expect("combiner key"));
        SignerParty::start(share, &session, &mut rng).expect("signer")
    }
}

/// The combiner's start: build the session, start the party.
fn combiner<'a>(
    key: &'a [u8],
    make: MakeSession<'a>,
    label: &str,
) -> impl FnOnce() -> (CombinerParty, Outgoing) + 'a {
    let mut rng = common::party_rng(label, pid(COMBINER));
    move || {
        let key = CombinerKey::from_bytes(key).expect("combiner key");
        let session = make(key.public_key());
        CombinerParty::start(key, &session, &mut rng).expect("combiner")
    }
}

/// One custody session: the combiner with key `key` (encoded) and `signers`.
fn custody(signers: &[&LssShare], key: &[u8], make: MakeSession<'_>, label: &str) -> (Combined, Vec<Sent>) {
    let mut net = Network::new();
    let (c, first) = combiner(key, make, label)();
    net.add(map_output(c, Some), first);
    let pk = CombinerKey::from_bytes(key).expect("key").public_key().to_bytes();
    for share in signers {
        let (s, first) = signer(share, make, &pk, label)();
        net.add(map_output(s, |_| None), first);
    }
    let (out, sent) = run_logged(net);
    (out.into_values().flatten().next().expect("a result"), sent)
}

/// A group: custody shares, the sharing's public data and the group key.
struct Group {
    shares: BTreeMap<PartyId, KeyShare>,
    public: GroupPublic<R>,
    key: GroupKey,
}

impl Group {
    fn lss(&self) -> BTreeMap<PartyId, &LssShare> {
        self.shares.iter().map(|(p, s)| (*p, s.lss())).collect()
    }
}

/// A copy of an LSS share (shares are not `Clone`).
fn copy(s: &LssShare) -> LssShare {
    LssShare::from_bytes(&s.to_bytes()).expect("share")
}

/// What a key ceremony leaves for the per-party benches.
struct CeremonyRun {
    group: Group,
    dkg: Ceremony<R>,
    dkg_log: Vec<Sent>,
    derive_signers: Vec<PartyId>,
    derive_key: Vec<u8>,
    derive_log: Vec<Sent>,
    announcement: Vec<u8>,
    cert_log: Vec<Sent>,
}

/// The whole key ceremony: DKG (n parties), derivation by the first t, certification and
/// storage by all.
fn key_ceremony(n: u16, label: &str) -> CeremonyRun {
    let parties = ids(1..=n);
    let dkg = Ceremony::<R>::dkg(
        session_id("dkg-session"),
        vss::Mode::Pedersen,
        &parties,
        two_thirds(n),
    )
    .expect("dkg");
    let (out, dkg_log) = run_logged(dealing(&dkg, &BTreeMap::new(), &format!("{label}/dkg")));
    let lss: BTreeMap<PartyId, LssShare> = out
        .into_iter()
        .map(|(p, o)| (p, o.key_share.expect("share")))
        .collect();
    let public = lss[&pid(1)].public().clone();

    let derive_signers = parties[..usize::from(two_thirds(n))].to_vec();
    let derive_key =
        CombinerKey::generate(pid(COMBINER), &mut common::rng(&format!("{label}/key"))).to_bytes();
    let make = |pk: &CombinerPublicKey| {
        Session::key_ceremony(session_id("derive-session"), MODE, &public, &derive_signers, pk)
            .expect("session")
    };
    let used: Vec<&LssShare> = derive_signers.iter().map(|p| &lss[p]).collect();
    let (result, derive_log) = custody(&used, &derive_key, &make, &format!("{label}/derive"));
    let Combined::Announcement(a) = result else {
        panic!("an announcement")
    };
    let announcement = a.to_bytes();
    let (keys, cert_log) = certify(&lss, &announcement, &format!("{label}/certify"));
    let shares = lss
        .into_iter()
        .map(|(p, s)| (p, KeyShare::new(s, keys[&p].clone()).expect("store")))
        .collect();
    CeremonyRun {
        group: Group {
            shares,
            key: keys[&pid(1)].clone(),
            public,
        },
        dkg,
        dkg_log,
        derive_signers,
        derive_key: derive_key.to_vec(),
        derive_log,
        announcement,
        cert_log,
    }
}

/// One party's check of the announcement and its certification party.
fn certifier(
    share: &LssShare,
    announcement: &[u8],
    label: &str,
) -> impl FnOnce() -> ((lss::ActivationParty<R>, Outgoing), AnnouncedKey) {
    let mut rng = common::party_rng(label, share.id());
    let (share, announcement) = (copy(share), announcement.to_vec());
    move || {
        let a = GroupKeyAnnouncement::from_bytes(&announcement).expect("announcement");
        let key = a.verify(share.public()).expect("announcement checks");
        let party =
            certification_party(share.id(), Some(&share), share.public(), &key, &mut rng).expect("certify");
        (party, key)
    }
}

/// The key-certification round by every party: each one's certified group key.
fn certify(
    lss: &BTreeMap<PartyId, LssShare>,
    announcement: &[u8],
    label: &str,
) -> (BTreeMap<PartyId, GroupKey>, Vec<Sent>) {
    let mut net = Network::new();
    let mut announced = BTreeMap::new();
    for (p, s) in lss {
        let ((party, first), key) = certifier(s, announcement, label)();
        announced.insert(*p, key);
        net.add(party, first);
    }
    let (certs, sent) = run_logged(net);
    let keys = certs
        .into_iter()
        .map(|(p, cert)| {
            (
                p,
                GroupKey::new(announced[&p].clone(), lss[&p].public(), cert).expect("key"),
            )
        })
        .collect();
    (keys, sent)
}

fn group<'a>(
    g: &'a mut Criterion,
    name: &str,
) -> criterion::BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut g = g.benchmark_group(name);
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_secs(1));
    g
}

fn bench_k21(c: &mut Criterion) {
    const N: u16 = 21;
    let prefix = "pulsar/k21/";
    if !wanted(prefix) {
        return;
    }
    let label = "pulsar/k21/ceremony";
    let run = key_ceremony(N, label);
    let group_ = &run.group;
    let me = pid(1);
    let mut g = group(c, "pulsar/k21");

    // --- key ceremony: the LSS Pedersen DKG, one party ----------------------------------
    let dkg_label = format!("{label}/dkg");
    let dealer = || {
        let (c, mut rng) = (run.dkg.clone(), common::party_rng(&dkg_label, me));
        move || DealingParty::start(c, me, None, &mut rng).expect("start")
    };
    bench(&mut g, "pulsar/k21/dkg-deal", || timed(dealer()).1);
    for (round, id) in [(1, "dkg-round2"), (2, "dkg-round3"), (3, "dkg-finalize")] {
        bench(&mut g, &format!("{prefix}{id}"), || {
            replay(dealer(), &run.dkg_log).times[round]
        });
    }
    let mut i = 0;
    bench_run(&mut g, "pulsar/k21/keyceremony-total", || {
        i += 1;
        timed(|| key_ceremony(N, &format!("{label}/{i}")).group.key).1
    });

    // --- key derivation session ---------------------------------------------------------
    let derive_label = format!("{label}/derive");
    let signers = &run.derive_signers;
    let make = |pk: &CombinerPublicKey| {
        Session::key_ceremony(session_id("derive-session"), MODE, &group_.public, signers, pk)
            .expect("session")
    };
    let pk = CombinerKey::from_bytes(&run.derive_key)
        .expect("key")
        .public_key()
        .to_bytes();
    let mine = group_.shares[&me].lss();
    bench(&mut g, "pulsar/k21/derive-round1", || {
        timed(signer(mine, &make, &pk, &derive_label)).1
    });
    bench(&mut g, "pulsar/k21/derive-round2", || {
        replay(signer(mine, &make, &pk, &derive_label), &run.derive_log).times[1]
    });
    bench(&mut g, "pulsar/k21/derive-combine", || {
        replay(combiner(&run.derive_key, &make, &derive_label), &run.derive_log).total()
    });
    let cert_label = format!("{label}/certify");
    bench(&mut g, "pulsar/k21/derive-store", || {
        let ((party, key), d0) = timed(certifier(mine, &run.announcement, &cert_label));
        let r = replay(|| party, &run.cert_log);
        let d1 = r.total();
        let (_, d2) = timed(|| {
            let key = GroupKey::new(key, mine.public(), r.output).expect("key");
            KeyShare::new(copy(mine), key).expect("store")
        });
        d0 + d1 + d2
    });

    // --- signing --------------------------------------------------------------------------
    let t = two_thirds(N);
    let signers = ids(1..=t);
    let key = CombinerKey::generate(pid(COMBINER), &mut common::rng("k21/combiner")).to_bytes();
    let pk = CombinerKey::from_bytes(&key)
        .expect("key")
        .public_key()
        .to_bytes();
    let sign = |pk: &CombinerPublicKey| {
        let (gk, public) = (&group_.key, &group_.public);
        Session::sign(
            session_id("sign-session"),
            gk,
            public,
            &signers,
            pk,
            MESSAGE,
            CONTEXT,
        )
        .expect("session")
    };
    let shares: Vec<&LssShare> = signers.iter().map(|p| group_.shares[p].lss()).collect();
    let sign_label = "pulsar/k21/sign";
    let (Combined::Signed(signed), sign_log) = custody(&shares, &key, &sign, sign_label) else {
        panic!("a signature")
    };
    let signature = signed.signature().to_vec();
    mldsa::verify(MODE, group_.key.public_key(), MESSAGE, CONTEXT, &signature).expect("verify");
    let mut r = common::rng("k21/combiner-setup");
    bench(&mut g, "pulsar/k21/combiner-setup", || {
        timed(|| {
            let k = CombinerKey::generate(pid(COMBINER), &mut r);
            k.public_key().to_bytes()
        })
        .1
    });
    bench(&mut g, "pulsar/k21/sign-round1", || {
        timed(signer(mine, &sign, &pk, sign_label)).1
    });
    bench(&mut g, "pulsar/k21/sign-round2", || {
        replay(signer(mine, &sign, &pk, sign_label), &sign_log).times[1]
    });
    bench(&mut g, "pulsar/k21/combine", || {
        replay(combiner(&key, &sign, sign_label), &sign_log).total()
    });
    bench(&mut g, "pulsar/k21/verify", || {
        timed(|| mldsa::verify(MODE, group_.key.public_key(), MESSAGE, CONTEXT, &signature).expect("verify"))
            .1
    });
    let mut r = common::rng("k21/sign-total");
    let mut i = 0;
    bench(&mut g, "pulsar/k21/sign-total", || {
        i += 1;
        timed(|| {
            let key = CombinerKey::generate(pid(COMBINER), &mut r).to_bytes();
            custody(&shares, &key, &sign, &format!("{sign_label}/{i}")).0
        })
        .1
    });

    // --- references: plain ML-DSA-65 from secret-key bytes, pieces of Combine --------------
    let mut seed = [0u8; 32];
    common::rng("mldsa65/seed").fill_bytes(&mut seed);
    let (_, sk) = mldsa::keygen(MODE, &seed);
    let mut r = common::rng("k21/mldsa-sign");
    bench(&mut g, "pulsar/k21/mldsa-sign", || {
        let mut rnd = [0u8; 32];
        r.fill_bytes(&mut rnd);
        timed(|| mldsa::sign(MODE, &sk, MESSAGE, CONTEXT, Some(&rnd)).expect("sign")).1
    });
    bench(&mut g, "pulsar/k21/mldsa-keygen", || {
        timed(|| mldsa::keygen(MODE, &seed)).1
    });
    let mut r = common::rng("k21/mlkem");
    let mut coins = [0u8; 64 + 32];
    r.fill_bytes(&mut coins);
    let (dk, ek) = mlkem768::generate_key_pair(coins[..64].try_into().expect("64")).into_parts();
    let (kem_ct, _) = mlkem768::encapsulate(&ek, coins[64..].try_into().expect("32"));
    bench(&mut g, "pulsar/k21/part-mlkem-decaps", || {
        timed(|| mlkem768::decapsulate(&dk, &kem_ct)).1
    });
    let commitments = group_.public.commitments();
    let share = mine.share();
    bench(&mut g, "pulsar/k21/part-share-check", || {
        timed(|| commitments.verify_share(me, share).expect("share")).1
    });
    g.finish();
}

// ---------------------------------------------------------------------------------------
// Resharing with the activation round
// ---------------------------------------------------------------------------------------

fn ceremony(case: Case, old: &Group) -> Ceremony<R> {
    let session = session_id(&format!("reshare-session/{}", case.name()));
    let (dealers, receivers, t) = case.sets();
    match t {
        Some(t) => custody::reshare(session, &old.key, &old.public, &dealers, &receivers, t),
        None => custody::refresh(session, &old.key, &old.public, &dealers),
    }
    .expect("ceremony")
}

/// What a new member does with its outcome: check the certificate, store its share.
fn store(old: &GroupKey, o: lss::Outcome<R>) -> Option<KeyShare> {
    let cert = o.activation.expect("activation certificate");
    let g = old.generation() + 1;
    custody::verify_activation(&o.public, old, g, o.public.transcript_hash(), &cert).expect("activation");
    let key = old.reactivated(&o.public, cert).expect("reactivated");
    o.key_share.map(|s| KeyShare::new(s, key).expect("store"))
}

/// The whole reshare in one process: the dealing with activation, every new member
/// checking the certificate and storing its share.
fn reshare_total(old: &Group, c: &Ceremony<R>, label: &str) -> usize {
    let out = run(dealing(c, &old.lss(), label));
    out.into_values().filter_map(|o| store(&old.key, o)).count()
}

fn bench_reshare(c: &mut Criterion, case: Case, groups: &mut HashMap<u16, Group>) {
    let prefix = format!("pulsar/reshare/{}/", case.name());
    if !wanted(&prefix) {
        return;
    }
    let n_old = case.n_old();
    let old = groups
        .entry(n_old)
        .or_insert_with(|| key_ceremony(n_old, &format!("pulsar/reshare/old/{n_old}")).group);
    let old = &*old;
    let ceremony = ceremony(case, old);
    let reference = format!("{prefix}reference");
    let (outcomes, sent) = run_logged(dealing(&ceremony, &old.lss(), &reference));
    let new_public = outcomes[&ceremony.receivers()[0]].public.clone();
    let cert = outcomes[&ceremony.receivers()[0]]
        .activation
        .as_ref()
        .expect("activation")
        .to_bytes();
    assert_eq!(
        new_public.group_commitment_bytes(),
        old.public.group_commitment_bytes()
    );

    let mut g = group(c, &format!("pulsar/reshare/{}", case.name()));
    let total_id = format!("{prefix}total");
    let receivers = ceremony.receivers().len();
    if case.n_old().max(case.n_new()) >= 128 {
        plain(&total_id, plain_runs(), |i| {
            assert_eq!(
                reshare_total(old, &ceremony, &format!("{total_id}/{i}")),
                receivers
            )
        });
    } else {
        let mut i = 0;
        bench_run(&mut g, &total_id, || {
            i += 1;
            let (n, d) = timed(|| reshare_total(old, &ceremony, &format!("{total_id}/{i}")));
            assert_eq!(n, receivers);
            d
        });
    }
    let shares = old.lss();
    let start = |p: PartyId| {
        let (c, old, mut rng) = (
            ceremony.clone(),
            shares.get(&p).copied(),
            common::party_rng(&reference, p),
        );
        move || DealingParty::start(c, p, old, &mut rng).expect("start")
    };
    let dealer = ceremony.dealers()[0];
    bench(&mut g, &format!("{prefix}deal"), || timed(start(dealer)).1);
    // One receiver: the dealer itself when it also receives, else a new party.
    let receiver = if ceremony.is_receiver(dealer) {
        dealer
    } else {
        ceremony.receivers()[0]
    };
    bench(&mut g, &format!("{prefix}receive"), || {
        replay(start(receiver), &sent).span(1, 3)
    });
    bench(&mut g, &format!("{prefix}activate"), || {
        let r = replay(start(receiver), &sent);
        let round4 = r.span(4, r.times.len() - 1);
        let (share, d) = timed(|| store(&old.key, r.output));
        black_box(share);
        round4 + d
    });
    bench(&mut g, &format!("{prefix}cert-verify"), || {
        timed(|| {
            let cert = ActivationCertificate::from_bytes(&cert).expect("cert");
            let (g, hash) = (new_public.generation(), new_public.transcript_hash());
            custody::verify_activation(&new_public, &old.key, g, hash, &cert).expect("verify")
        })
        .1
    });
    g.finish();
}

fn main() {
    let started = common::now();
    let load_before = common::loadavg();
    let mut c = Criterion::default().configure_from_args();
    bench_k21(&mut c);
    let mut groups = HashMap::new();
    for case in cases() {
        bench_reshare(&mut c, case, &mut groups);
    }
    c.final_summary();
    common::write_json("pulsar-bench", &load_before, &started);
}
