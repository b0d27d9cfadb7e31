//! Pulsar custody (threshold ML-DSA-65 over the LSS Pedersen kernel) on the library's
//! parties: the K = 21 ceremony per phase and per party, and resharing with the
//! activation round. Groups are made, signed with and reshared by the lifecycle parties
//! (`pulsar::custody::lifecycle`) on `party::sim`; a bench of one round replays that
//! round's single-protocol party on the lifecycle run's log.
//!
//! Every figure starts and ends with bytes. Per-party figures time **one party's own
//! `start` or step** on the inbox a reference run delivered to it (`benches/common`),
//! never a total divided by n; whole runs go through `party::sim`.
//!
//! Ids `pulsar/k21/<step>` (n = 21, t = 14, ML-DSA-65, all signatures hedged):
//! - key ceremony, the LSS Pedersen DKG (`lss::DealingParty`), one party: `dkg-deal`
//!   (start), `dkg-round2` (decode deals and shares, check, complaint), `dkg-round3`
//!   (answer complaints), `dkg-finalize`; `keyceremony-total`: the whole ceremony in one
//!   process, the lifecycle's setup path (21 DKG parties, derivation by 14 signers and
//!   the combiner, 21 parties checking the announcement, certifying the key and storing);
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
//! - `total`: in one process, the lifecycle's reshare path through `party::sim`: every
//!   party's dealing with all checks and the activation round (proofs of possession of
//!   the new shares, the certificate), and every member's keyring activating the new
//!   generation (the certificate checked, the custody share stored);
//! - `deal`: one dealer's start; `receive`: one receiver's rounds 1–3 (in same-set cases
//!   the dealer itself); `activate`: the same receiver's activation round (the others'
//!   proofs, the certificate), then staging and activating it in a keyring;
//!   `cert-verify`: a third party decoding the certificate and checking it against the new
//!   generation's public data and the group key (`custody::verify_activation`).
//!
//! Cases with n = 128 on either side time `total` with a plain harness (`PULSAR_BENCH_RUNS`
//! runs, default 3, no warm-up). Median and mean of every operation go to
//! `target/pulsar-bench.json` (with the load average) for `python3 scripts/pulsar-table.py`.
//! Seeds are fixed and labelled, so reruns are comparable.
//!
//! `pulsar/k128/combine`: the combiner of an 86-of-128 signing session, as above.
//!
//! Run: `cargo bench --bench pulsar --features sim` (filter: `-- pulsar/k21`,
//! `-- 'pulsar/reshare/21->64'`).

mod common;

use core::hint::black_box;
use core::time::Duration;
use std::collections::{BTreeMap, HashMap};

use common::{
    bench, bench_run, cases, ids, pid, plain, plain_runs, replay, run_logged, timed, two_thirds, wanted, Case,
};
use criterion::{Criterion, SamplingMode};
use libcrux_ml_kem::mlkem768;
use quasar_pq::lss::{self, ActivationCertificate, Ceremony, DealingParty, GroupPublic};
use quasar_pq::mldsa::{self, Mode};
use quasar_pq::party::keyring::Keyring;
use quasar_pq::party::sim::{map_output, Network, Sent};
use quasar_pq::party::{Direct, Outgoing};
use quasar_pq::pulsar::custody::lifecycle::{
    Combiner, Member, Outcome, Pending, ReshareParams, Reshared, SetupParams, SignParams,
};
use quasar_pq::pulsar::custody::{
    self, certification_party, AnnouncedKey, CombinerKey, CombinerParty, CombinerPublicKey, GroupKey,
    GroupKeyAnnouncement, KeyShare, Session, Signed, SignerParty,
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

/// The public key of an encoded combiner key.
fn public_of(key: &[u8]) -> Vec<u8> {
    CombinerKey::from_bytes(key).expect("key").public_key().to_bytes()
}

/// One sign path of the lifecycle: the combiner with key `key` (encoded) and the holders
/// of `signers`' shares.
fn custody(group: &Group, signers: &[PartyId], key: &[u8], label: &str) -> (Signed, Vec<Sent>) {
    let params = SignParams::new(
        session_id("sign-session"),
        signers,
        MESSAGE,
        CONTEXT,
        pid(COMBINER),
    )
    .expect("params");
    let mut net = Network::new();
    let key = CombinerKey::from_bytes(key).expect("combiner key");
    let rng = &mut common::party_rng(label, pid(COMBINER));
    let (c, first) = Combiner::sign_with_key(key, &params, &group.key, &group.public, rng).expect("combiner");
    net.add(map_output(c, Outcome::Combiner), first);
    for p in signers {
        let rng = &mut common::party_rng(label, *p);
        let (m, first) = Member::sign(&group.shares[p], &params, rng).expect("signer");
        net.add(map_output(m, Outcome::Member), first);
    }
    let (out, sent) = run_logged(net);
    let signed = out
        .into_values()
        .find_map(|o| match o {
            Outcome::Combiner(c) => c.into_signed(),
            Outcome::Member(_) => None,
        })
        .expect("a signature");
    (signed, sent)
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

    /// Each member's keyring at the current generation (a copy of its share).
    fn keyrings(&self) -> BTreeMap<PartyId, Keyring<KeyShare>> {
        self.shares
            .iter()
            .map(|(p, s)| {
                (
                    *p,
                    Keyring::new(KeyShare::from_bytes(&s.to_bytes()).expect("share")),
                )
            })
            .collect()
    }
}

/// A copy of an LSS share (shares are not `Clone`).
fn copy(s: &LssShare) -> LssShare {
    LssShare::from_bytes(&s.to_bytes()).expect("share")
}

/// The log from round `from` on, renumbered from 0: a phase of a lifecycle run as the
/// single-protocol party of that phase saw it (its `start` in round `from`).
fn window(sent: &[Sent], from: u32) -> Vec<Sent> {
    sent.iter()
        .filter(|s| s.round >= from)
        .map(|s| Sent {
            round: s.round - from,
            from: s.from,
            outgoing: Outgoing {
                broadcast: s.outgoing.broadcast.clone(),
                direct: s
                    .outgoing
                    .direct
                    .iter()
                    .map(|d| Direct {
                        to: d.to,
                        bytes: d.bytes.clone(),
                    })
                    .collect(),
            },
        })
        .collect()
}

/// The first broadcast of the combiner that `decode` accepts, and its round.
fn combiner_broadcast<T>(sent: &[Sent], decode: impl Fn(&[u8]) -> Option<T>) -> (T, Vec<u8>, u32) {
    sent.iter()
        .filter(|s| s.from == pid(COMBINER))
        .find_map(|s| {
            let b = s.outgoing.broadcast.as_ref()?;
            Some((decode(b)?, b.clone(), s.round))
        })
        .expect("the combiner's broadcast")
}

/// What a key ceremony leaves for the per-party benches.
struct CeremonyRun {
    group: Group,
    dkg: Ceremony<R>,
    /// The whole setup path's log.
    sent: Vec<Sent>,
    derive_key: Vec<u8>,
    /// The key ceremony's session, as the combiner broadcast it.
    session: Session,
    /// The round the key ceremony's signers start in.
    derive_round: u32,
    announcement: Vec<u8>,
    /// The round the key certification starts in.
    cert_round: u32,
}

/// The setup path's parameters: a `two_thirds(n)`-of-`n` group, whose first `t` members
/// derive the key.
fn setup_params(n: u16) -> SetupParams {
    let parties = ids(1..=n);
    let t = two_thirds(n);
    SetupParams::with_sessions(
        session_id("dkg-session"),
        session_id("derive-session"),
        MODE,
        &parties,
        t,
        &parties[..usize::from(t)],
        pid(COMBINER),
    )
    .expect("setup")
}

/// The whole setup path of the lifecycle in one process: the DKG (n members), the key
/// derivation by the first t and the combiner, the certification and storage by all.
fn setup(params: &SetupParams, label: &str) -> (BTreeMap<PartyId, Outcome>, Vec<Sent>) {
    let mut net = Network::new();
    for &p in params.members() {
        let rng = &mut common::party_rng(&format!("{label}/dkg"), p);
        let (m, first) = Member::setup(p, params, rng).expect("member");
        net.add(map_output(m, Outcome::Member), first);
    }
    let rng = &mut common::party_rng(&format!("{label}/derive"), pid(COMBINER));
    let (c, first) = Combiner::setup(params, rng);
    net.add(map_output(c, Outcome::Combiner), first);
    run_logged(net)
}

/// The group the setup path leaves.
fn group_of(out: BTreeMap<PartyId, Outcome>) -> Group {
    let mut shares = BTreeMap::new();
    let mut record = None;
    for (p, o) in out {
        match o {
            Outcome::Member(m) => {
                shares.insert(p, m.into_setup().expect("setup").key_share);
            }
            Outcome::Combiner(c) => record = c.into_certified(),
        }
    }
    let record = record.expect("the group's record");
    assert!(shares.values().all(|s| s.group_key() == &record.group_key));
    Group {
        shares,
        public: record.public,
        key: record.group_key,
    }
}

/// A `two_thirds(n)`-of-`n` group made by the lifecycle's setup path.
fn make_group(n: u16, label: &str) -> Group {
    group_of(setup(&setup_params(n), label).0)
}

/// The whole key ceremony (the lifecycle's setup path), and what the per-party benches
/// replay from its log.
fn key_ceremony(n: u16, label: &str) -> CeremonyRun {
    let params = setup_params(n);
    let (out, sent) = setup(&params, label);
    let dkg = Ceremony::<R>::dkg(
        *params.dkg_session(),
        vss::Mode::Pedersen,
        params.members(),
        params.threshold(),
    )
    .expect("dkg");
    // The combiner's first draw is its key-ceremony key (`Combiner::setup`).
    let rng = &mut common::party_rng(&format!("{label}/derive"), pid(COMBINER));
    let derive_key = CombinerKey::generate(pid(COMBINER), rng).to_bytes().to_vec();
    let (session, _, at) = combiner_broadcast(&sent, |b| Session::from_bytes(b).ok());
    let (_, announcement, announced) =
        combiner_broadcast(&sent, |b| GroupKeyAnnouncement::from_bytes(b).ok());
    CeremonyRun {
        group: group_of(out),
        dkg,
        sent,
        derive_key,
        session,
        derive_round: at + 1,
        announcement,
        cert_round: announced + 1,
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
            replay(dealer(), &run.sent).times[round]
        });
    }
    let params = setup_params(N);
    let mut i = 0;
    bench_run(&mut g, "pulsar/k21/keyceremony-total", || {
        i += 1;
        timed(|| setup(&params, &format!("{label}/{i}"))).1
    });

    // --- key derivation session (the setup path's phase, replayed from its log) ----------
    let derive_label = format!("{label}/derive");
    let derive_log = window(&run.sent, run.derive_round);
    let signers = &params.signers().to_vec();
    let make = |pk: &CombinerPublicKey| {
        Session::key_ceremony(*params.ceremony_session(), MODE, &group_.public, signers, pk).expect("session")
    };
    let pk = public_of(&run.derive_key);
    // The session the lifecycle's combiner broadcast, rebuilt as the bench's parties do.
    let rebuilt = make(&CombinerPublicKey::from_bytes(&pk).expect("pk")).to_bytes();
    assert_eq!(run.session.to_bytes(), rebuilt);
    let mine = group_.shares[&me].lss();
    bench(&mut g, "pulsar/k21/derive-round1", || {
        timed(signer(mine, &make, &pk, &derive_label)).1
    });
    bench(&mut g, "pulsar/k21/derive-round2", || {
        replay(signer(mine, &make, &pk, &derive_label), &derive_log).times[1]
    });
    bench(&mut g, "pulsar/k21/derive-combine", || {
        replay(combiner(&run.derive_key, &make, &derive_label), &derive_log).total()
    });
    let cert_label = format!("{label}/certify");
    let cert_log = window(&run.sent, run.cert_round);
    bench(&mut g, "pulsar/k21/derive-store", || {
        let ((party, key), d0) = timed(certifier(mine, &run.announcement, &cert_label));
        let r = replay(|| party, &cert_log);
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
    let sign_label = "pulsar/k21/sign";
    let (signed, sign_log) = custody(group_, &signers, &key, sign_label);
    // The sign path's session as the combiner broadcast it, rebuilt as the bench's
    // parties do; the signers start on it.
    let (session, _, at) = combiner_broadcast(&sign_log, |b| Session::from_bytes(b).ok());
    let sign_log = window(&sign_log, at + 1);
    let sign = |pk: &CombinerPublicKey| {
        let (gk, public) = (&group_.key, &group_.public);
        let id = session_id("sign-session");
        Session::sign(id, gk, public, &signers, pk, MESSAGE, CONTEXT).expect("session")
    };
    let pk = public_of(&key);
    let rebuilt = sign(&CombinerPublicKey::from_bytes(&pk).expect("pk")).to_bytes();
    assert_eq!(session.to_bytes(), rebuilt);
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
            custody(group_, &signers, &key, &format!("{sign_label}/{i}")).0
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

/// Combine at scale: 86-of-128 (a group from the lifecycle's setup path), the combiner's
/// whole work replayed on the log of one signing session, as `pulsar/k21/combine` is.
fn bench_k128(c: &mut Criterion) {
    const N: u16 = 128;
    let prefix = "pulsar/k128/";
    if !wanted(prefix) {
        return;
    }
    let group_ = make_group(N, "pulsar/k128/ceremony");
    let signers = ids(1..=two_thirds(N));
    let key = CombinerKey::generate(pid(COMBINER), &mut common::rng("k128/combiner")).to_bytes();
    let sign_label = "pulsar/k128/sign";
    let (signed, sign_log) = custody(&group_, &signers, &key, sign_label);
    assert_eq!(signed.signers(), &signers[..]);
    let (session, _, at) = combiner_broadcast(&sign_log, |b| Session::from_bytes(b).ok());
    let sign_log = window(&sign_log, at + 1);
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
    let pk = public_of(&key);
    let rebuilt = sign(&CombinerPublicKey::from_bytes(&pk).expect("pk")).to_bytes();
    assert_eq!(session.to_bytes(), rebuilt);
    let mut g = group(c, "pulsar/k128");
    bench(&mut g, "pulsar/k128/combine", || {
        replay(combiner(&key, &sign, sign_label), &sign_log).total()
    });
    g.finish();
}

// ---------------------------------------------------------------------------------------
// Resharing with the activation round
// ---------------------------------------------------------------------------------------

fn params(case: Case, old: &Group) -> ReshareParams {
    let session = session_id(&format!("reshare-session/{}", case.name()));
    let (dealers, receivers, t) = case.sets();
    match t {
        Some(t) => ReshareParams::reshare(session, &old.key, &old.public, &dealers, &receivers, t),
        None => ReshareParams::refresh(session, &old.key, &old.public, &dealers),
    }
    .expect("params")
}

/// Every member's keyring for the reshare `params` of `old`: a copy of its share, or
/// empty for a member joining.
fn keyrings(old: &Group, params: &ReshareParams) -> BTreeMap<PartyId, Keyring<KeyShare>> {
    let mut rings = old.keyrings();
    let all = params.participants();
    rings.retain(|p, _| all.contains(p));
    for p in all {
        rings.entry(p).or_default();
    }
    rings
}

/// The lifecycle's reshare path in one process: the dealing with activation, every member
/// staging the new generation and activating it in its keyring (the certificate checked,
/// the new custody share stored). Returns each member's outcome and the log.
fn reshare(
    params: &ReshareParams,
    mut rings: BTreeMap<PartyId, Keyring<KeyShare>>,
    label: &str,
) -> (BTreeMap<PartyId, Reshared>, Vec<Sent>) {
    let mut net = Network::new();
    for (p, ring) in &mut rings {
        let rng = &mut common::party_rng(label, *p);
        let (m, first) = Member::reshare(*p, ring, params, rng).expect("member");
        net.add(map_output(m, |o| o.into_reshared().expect("reshared")), first);
    }
    run_logged(net)
}

/// The members holding an activated share of the new generation.
fn activated(out: &BTreeMap<PartyId, Reshared>) -> usize {
    out.values()
        .filter(|r| r.activated.as_ref().is_ok_and(|a| a.member()))
        .count()
}

fn bench_reshare(c: &mut Criterion, case: Case, groups: &mut HashMap<u16, Group>) {
    let prefix = format!("pulsar/reshare/{}/", case.name());
    if !wanted(&prefix) {
        return;
    }
    let n_old = case.n_old();
    let old = groups
        .entry(n_old)
        .or_insert_with(|| make_group(n_old, &format!("pulsar/reshare/old/{n_old}")));
    let old = &*old;
    let params = params(case, old);
    let ceremony = params.ceremony().clone();
    let reference = format!("{prefix}reference");
    let (outcomes, sent) = reshare(&params, keyrings(old, &params), &reference);
    let first = &outcomes[&ceremony.receivers()[0]];
    let new_public = first.public.clone();
    let cert = first.certificate.as_ref().expect("activation").to_bytes();
    assert_eq!(
        new_public.group_commitment_bytes(),
        old.public.group_commitment_bytes()
    );

    let mut g = group(c, &format!("pulsar/reshare/{}", case.name()));
    let total_id = format!("{prefix}total");
    let receivers = ceremony.receivers().len();
    if case.n_old().max(case.n_new()) >= 128 {
        plain(&total_id, plain_runs(), |i| {
            let rings = keyrings(old, &params);
            let (out, _) = reshare(&params, rings, &format!("{total_id}/{i}"));
            assert_eq!(activated(&out), receivers)
        });
    } else {
        let mut i = 0;
        bench_run(&mut g, &total_id, || {
            i += 1;
            let rings = keyrings(old, &params);
            let ((out, _), d) = timed(|| reshare(&params, rings, &format!("{total_id}/{i}")));
            assert_eq!(activated(&out), receivers);
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
        let (o, key) = (r.output, old.key.clone());
        // What the reshare path does with the outcome: stage the new generation and
        // activate it (the certificate checked, the custody share stored).
        let (ring, d) = timed(|| {
            let mut ring = Keyring::<KeyShare>::empty();
            ring.stage(Pending::new(o.key_share, o.public, key))
                .expect("stage");
            ring.activate(o.activation.as_ref().expect("certificate"))
                .expect("activate");
            ring
        });
        black_box(ring);
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
    bench_k128(&mut c);
    let mut groups = HashMap::new();
    for case in cases() {
        bench_reshare(&mut c, case, &mut groups);
    }
    c.final_summary();
    common::write_json("pulsar-bench", &load_before, &started);
}
