//! The standing fuzz suite: seeded mutations of real messages into every decoder and
//! every protocol input, counting panics, hangs and false accepts.
//!
//! A short run is part of `npm test` (`cargo test --features sim,hazmat`, one test of the
//! suite); a long run is `FUZZ_ITERS=20000 cargo test --release --features sim,hazmat --test
//! suite fuzz:: -- --nocapture` (any seed: `FUZZ_SEED=<u64>`). It prints its counts (shown with
//! `--nocapture`, and whenever it fails) and fails on any panic, hang (one input over [`HANG`])
//! or false accept:
//!
//! - **decoders**: a corpus of genuine messages of every wire type is produced by running
//!   the protocols; each is cut at every length (short ones) or at random lengths,
//!   extended, bit-flipped, has a length or count field inflated, is spliced with a message
//!   of another type, and is fed to its type's decoder. A mutant that decodes must
//!   re-encode to exactly itself (a decoder accepting two encodings of one value is a
//!   false accept), and a mutated signature must never verify.
//!   Magnetar's `MAGS` envelope and `MAGA` certificate mutants also go to their verifiers.
//! - **protocols**: a dealing, a Lens signing session and a Pulsar signing session run
//!   with one mutated, duplicated, swapped, misaddressed or foreign message; no party may
//!   panic, every party ends (done or a typed error), the honest parties agree, and every
//!   signature produced verifies under the group key.
//!
//! It was a test binary of its own (`harness = false`); as a module of the suite it shares the
//! suite's build of the library's generic code (its own crate cost a minute of compile for a
//! second of run).

// Helpers outside `#[test]` functions unwrap too: a panic here is a failed test
// (clippy.toml's allow-unwrap-in-tests covers only the test functions themselves).
#![allow(clippy::unwrap_used)]

use core::panic::AssertUnwindSafe;
use core::time::Duration;
use std::collections::BTreeMap;
use std::panic::catch_unwind;
use std::time::Instant;

use quasar_pq::keystore;
use quasar_pq::lens::{self, CoordinatorParty, Curve, SignerParty as LensSigner};
use quasar_pq::lss::{self, Ceremony, DealingParty};
use quasar_pq::magnetar::{self, AggregateCertificate, PublicKeyFrame as MagnetarKeyFrame};
use quasar_pq::mldsa::{self, Mode as MlDsaMode};
use quasar_pq::party::sim::{map_output, party_rng, Envelope, Network};
use quasar_pq::pulsar::custody::lifecycle::{Combiner, Member, Outcome, SetupParams};
use quasar_pq::pulsar::custody::{
    self, Combined, CombinerKey, CombinerParty, GroupKey, KeyShare as PulsarShare, Session, SignerParty,
};
use quasar_pq::pulsar::frame::{GroupKeyFrame, SignatureFrame};
use quasar_pq::vss::{Ed25519, Mode, Ristretto255};
use quasar_pq::PartyId;
use rand_core::{RngCore, SeedableRng};

/// Longest any one input may take before it counts as a hang: a ceiling for a decoder or step
/// that loops, not a speed check (the slowest input takes milliseconds; a machine busy with
/// other builds may be many times slower and must not fail the suite).
const HANG: Duration = Duration::from_secs(120);

fn id(v: u16) -> PartyId {
    PartyId::new(v).unwrap()
}

#[derive(Default)]
struct Counts {
    inputs: u64,
    accepted: u64,
    rejected: u64,
    panics: Vec<String>,
    hangs: Vec<String>,
    false_accepts: Vec<String>,
}

impl Counts {
    fn failures(&self) -> usize {
        self.panics.len() + self.hangs.len() + self.false_accepts.len()
    }
}

/// The Pulsar sharing of the corpus: a group key record is only ever read against the
/// sharing it is for (set by [`build_corpus`]).
static PULSAR_SHARING: std::sync::OnceLock<lss::GroupPublic<Ristretto255>> = std::sync::OnceLock::new();

/// What a decoder makes of some bytes: `Ok(re-encoding)` or `Err(())`.
type Decoder = fn(&[u8]) -> Result<Vec<u8>, ()>;

/// Every decoder, by the magic of the messages it takes.
fn decoders() -> Vec<(&'static [u8; 4], &'static str, Decoder)> {
    type R = Ristretto255;
    type E = Ed25519;
    fn ok<T, E>(r: Result<T, E>, enc: impl FnOnce(T) -> Vec<u8>) -> Result<Vec<u8>, ()> {
        r.map(enc).map_err(|_| ())
    }
    vec![
        (b"LSD1", "lss DealMessage<ristretto255>", |b| {
            ok(lss::DealMessage::<R>::from_bytes(b), |m| m.to_bytes())
        }),
        (b"LSD1", "lss DealMessage<ed25519>", |b| {
            ok(lss::DealMessage::<E>::from_bytes(b), |m| m.to_bytes())
        }),
        (b"LSP1", "lss ShareMessage<ristretto255>", |b| {
            ok(lss::ShareMessage::<R>::from_bytes(b), |m| m.to_bytes().to_vec())
        }),
        (b"LSP1", "lss ShareMessage<ed25519>", |b| {
            ok(lss::ShareMessage::<E>::from_bytes(b), |m| m.to_bytes().to_vec())
        }),
        (b"LSC1", "lss ComplaintMessage", |b| {
            ok(lss::ComplaintMessage::<R>::from_bytes(b), |m| m.to_bytes())
        }),
        (b"LSR1", "lss ResponseMessage", |b| {
            ok(lss::ResponseMessage::<R>::from_bytes(b), |m| m.to_bytes())
        }),
        (b"LSG1", "lss GroupPublic (any curve)", |b| {
            ok(lss::AnyGroupPublic::from_bytes(b), |m| m.to_bytes())
        }),
        (b"LSK1", "lss KeyShare (any curve)", |b| {
            ok(lss::AnyKeyShare::from_bytes(b), |m| m.to_bytes().to_vec())
        }),
        (b"LSA2", "lss ActivationCertificate", |b| {
            ok(lss::ActivationCertificate::from_bytes(b), |m| m.to_bytes())
        }),
        (b"LNPK", "lens PublicKeyPackage", |b| {
            ok(lens::PublicKeyPackage::from_bytes(Curve::Ed25519, b), |m| {
                m.to_bytes()
            })
        }),
        (b"LNKS", "lens KeyShare", |b| {
            ok(lens::KeyShare::from_bytes(Curve::Ed25519, b), |m| {
                m.to_bytes().to_vec()
            })
        }),
        (b"LNDS", "lens DealerShare", |b| {
            ok(lens::DealerShare::from_bytes(Curve::Ed25519, b), |m| {
                m.to_bytes().to_vec()
            })
        }),
        (b"LNC1", "lens SigningCommitments", |b| {
            ok(lens::SigningCommitments::from_bytes(Curve::Ed25519, b), |m| {
                m.to_bytes()
            })
        }),
        (b"LNSP", "lens SigningPackage", |b| {
            ok(lens::SigningPackage::from_bytes(Curve::Ed25519, b), |m| {
                m.to_bytes()
            })
        }),
        (b"LNZ2", "lens SignatureShare", |b| {
            ok(lens::SignatureShare::from_bytes(Curve::Ed25519, b), |m| {
                m.to_bytes()
            })
        }),
        (b"PCR1", "pulsar Round1Message", |b| {
            ok(custody::Round1Message::from_bytes(b), |m| m.to_bytes())
        }),
        (b"PCR2", "pulsar Round2Message", |b| {
            ok(custody::Round2Message::from_bytes(b), |m| m.to_bytes())
        }),
        (b"PCEK", "pulsar CombinerPublicKey", |b| {
            ok(custody::CombinerPublicKey::from_bytes(b), |m| m.to_bytes())
        }),
        (b"PCDK", "pulsar CombinerKey", |b| {
            ok(custody::CombinerKey::from_bytes(b), |m| m.to_bytes().to_vec())
        }),
        (b"PCSS", "pulsar Session", |b| {
            ok(custody::Session::from_bytes(b), |m| m.to_bytes())
        }),
        (b"PCKA", "pulsar GroupKeyAnnouncement", |b| {
            ok(custody::GroupKeyAnnouncement::from_bytes(b), |m| m.to_bytes())
        }),
        (
            b"PCGK",
            "pulsar GroupKey (read against the corpus's sharing)",
            |b| {
                let public = PULSAR_SHARING.get().expect("the corpus is built first");
                ok(custody::GroupKey::from_bytes(b, public), |m| m.to_bytes())
            },
        ),
        (b"PCKS", "pulsar KeyShare", |b| {
            ok(PulsarShare::from_bytes(b), |m| m.to_bytes().to_vec())
        }),
        (b"PULS", "pulsar PULS frame", |b| {
            ok(SignatureFrame::decode(b), |_| b.to_vec())
        }),
        (b"PULG", "pulsar PULG frame", |b| {
            ok(GroupKeyFrame::decode(b), |_| b.to_vec())
        }),
        (b"MAGS", "magnetar MAGS frame", |b| {
            ok(magnetar::SignatureFrame::decode(b), |f| f.to_bytes())
        }),
        (b"MAGG", "magnetar MAGG frame", |b| {
            ok(MagnetarKeyFrame::decode(b), |f| f.to_bytes())
        }),
        (b"MAGA", "magnetar aggregate certificate", |b| {
            ok(AggregateCertificate::decode(b), |c| c.to_bytes())
        }),
        (b"QVST", "cert ValidatorSet", |b| {
            ok(quasar_pq::cert::ValidatorSet::from_bytes(b), |m| m.to_bytes())
        }),
        (b"QCRT", "cert CertificateView", |b| {
            ok(quasar_pq::cert::CertificateView::parse(b), |_| b.to_vec())
        }),
        (b"QSNP", "snapshot", |b| {
            ok(keystore::Snapshot::from_bytes(b), |m| m.to_bytes())
        }),
    ]
}

/// The seeded mutations of one sample.
fn mutants(sample: &[u8], foreign: &[Vec<u8>], iters: usize, rng: &mut impl RngCore) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let n = sample.len();
    let cuts: Vec<usize> = if n <= 256 {
        (0..n).collect()
    } else {
        (0..64)
            .map(|_| (rng.next_u32() as usize) % n)
            .chain([0, 1, 4, 6, n - 1])
            .collect()
    };
    for cut in cuts {
        out.push(sample[..cut].to_vec());
    }
    for extra in [1usize, 2, 33] {
        let mut v = sample.to_vec();
        v.extend((0..extra).map(|_| rng.next_u32().to_le_bytes()[0]));
        out.push(v);
    }
    for _ in 0..iters {
        let mut v = sample.to_vec();
        match rng.next_u32() % 5 {
            // One to three bit flips anywhere.
            0 | 1 => {
                for _ in 0..=(rng.next_u32() % 3) {
                    let i = (rng.next_u32() as usize) % n.max(1);
                    if let Some(b) = v.get_mut(i) {
                        *b ^= 1 << (rng.next_u32() % 8);
                    }
                }
            }
            // A length or count field inflated (any 2- or 4-byte window set high).
            2 => {
                let i = (rng.next_u32() as usize) % n.max(1);
                let w = if rng.next_u32().is_multiple_of(2) { 2 } else { 4 };
                for b in v.iter_mut().skip(i).take(w) {
                    *b = 0xFF;
                }
                if rng.next_u32().is_multiple_of(2) {
                    if let Some(b) = v.get_mut(i) {
                        *b = 0x7F;
                    }
                }
            }
            // Two bytes swapped.
            3 => {
                let (i, j) = (
                    (rng.next_u32() as usize) % n.max(1),
                    (rng.next_u32() as usize) % n.max(1),
                );
                if i < n && j < n {
                    v.swap(i, j);
                }
            }
            // Spliced with a foreign message.
            _ => {
                if let Some(f) = foreign.get((rng.next_u32() as usize) % foreign.len().max(1)) {
                    let i = (rng.next_u32() as usize) % n.max(1);
                    let j = (rng.next_u32() as usize) % f.len().max(1);
                    v.truncate(i);
                    v.extend_from_slice(&f[j..]);
                }
            }
        }
        out.push(v);
    }
    out
}

/// Runs `f` on `input`, counting a panic, a hang or (by `f`'s verdict) a false accept.
fn probe(counts: &mut Counts, what: &str, f: impl FnOnce() -> Result<bool, String>) {
    counts.inputs += 1;
    let start = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(f));
    if start.elapsed() > HANG {
        counts.hangs.push(format!("{what}: {:?}", start.elapsed()));
    }
    match result {
        Err(_) => counts.panics.push(what.to_string()),
        Ok(Ok(true)) => counts.accepted += 1,
        Ok(Ok(false)) => counts.rejected += 1,
        Ok(Err(why)) => counts.false_accepts.push(format!("{what}: {why}")),
    }
}

/// Genuine messages of every type, from real runs.
struct Corpus {
    by_magic: BTreeMap<[u8; 4], Vec<Vec<u8>>>,
    ml_dsa: Vec<MlDsaCase>,
    magnetar: Option<MagnetarSample>,
}

/// A SHAKE-192f registry of two validators, a signature and a 2-of-2 certificate on
/// `b"fuzz"`, for the verifiers: no mutant may verify.
struct MagnetarSample {
    key: magnetar::PublicKey,
    signature: Vec<u8>,
    registry: magnetar::Registry,
    certificate: Vec<u8>,
}

fn magnetar_sample() -> MagnetarSample {
    let mode = magnetar::Mode::Shake192f;
    let keys: Vec<magnetar::SigningKey> = (0..2u8)
        .map(|i| magnetar::SigningKey::from_seed(mode, &[i; 96]).unwrap())
        .collect();
    let sigs: Vec<Vec<u8>> = keys
        .iter()
        .map(|k| k.sign_deterministic(b"fuzz", b"").unwrap())
        .collect();
    let id = |i: usize| magnetar::ValidatorId([u8::try_from(i + 1).unwrap(); 32]);
    let registry = magnetar::Registry::new(
        mode,
        keys.iter()
            .enumerate()
            .map(|(i, k)| magnetar::Validator {
                id: id(i),
                key: k.public_key(),
                weight: 1,
            })
            .collect(),
    )
    .unwrap();
    let certificate =
        AggregateCertificate::encode(mode, &[(id(0), &sigs[0][..]), (id(1), &sigs[1][..])]).unwrap();
    MagnetarSample {
        key: keys[0].public_key(),
        signature: sigs[0].clone(),
        registry,
        certificate,
    }
}

/// (mode, public key, message, signature).
type MlDsaCase = (MlDsaMode, Vec<u8>, Vec<u8>, Vec<u8>);

impl Corpus {
    fn add(&mut self, bytes: &[u8]) {
        if let Some(m) = bytes.get(..4) {
            let key: [u8; 4] = m.try_into().unwrap();
            let list = self.by_magic.entry(key).or_default();
            if list.len() < 8 && !list.iter().any(|b| b == bytes) {
                list.push(bytes.to_vec());
            }
        }
    }

    fn add_sent(&mut self, sent: &[quasar_pq::party::sim::Sent]) {
        for s in sent {
            if let Some(b) = &s.outgoing.broadcast {
                self.add(b);
            }
            for d in &s.outgoing.direct {
                self.add(&d.bytes);
            }
        }
    }
}

/// Runs the protocols once to collect a corpus; returns it with the material the
/// protocol fuzzing needs.
fn build_corpus() -> (Corpus, Material) {
    let mut corpus = Corpus {
        by_magic: BTreeMap::new(),
        ml_dsa: Vec::new(),
        magnetar: None,
    };
    let ids: Vec<PartyId> = (1..=4).map(id).collect();
    // Pulsar: the lifecycle's setup path (DKG, key ceremony, certification), then the
    // samples of a signing session and a reshare.
    let params =
        SetupParams::with_sessions([1; 32], [2; 32], MlDsaMode::MlDsa44, &ids, 3, &ids[..3], id(99)).unwrap();
    let mut net = Network::new();
    for &p in &ids {
        let (m, first) = Member::setup(p, &params, &mut party_rng(b"fz", p)).unwrap();
        net.add(map_output(m, Outcome::Member), first);
    }
    let (c, first) = Combiner::setup(&params, &mut party_rng(b"k", id(99)));
    net.add(map_output(c, Outcome::Combiner), first);
    let (out, sent) = net.run_logged();
    corpus.add_sent(&sent);
    let mut stored_shares = BTreeMap::new();
    let mut certified = None;
    for (p, o) in out {
        match o.unwrap() {
            Outcome::Combiner(c) => certified = c.into_certified(),
            Outcome::Member(m) => {
                stored_shares.insert(p, m.into_setup().unwrap().key_share);
            }
        }
    }
    let certified = certified.unwrap();
    let (public, group_key) = (certified.public, certified.group_key);
    let shares: BTreeMap<PartyId, lss::KeyShare<Ristretto255>> = stored_shares
        .iter()
        .map(|(p, s)| (*p, lss::KeyShare::from_bytes(&s.lss().to_bytes()).unwrap()))
        .collect();
    corpus.add(&public.to_bytes());
    corpus.add(&shares[&id(1)].to_bytes());
    PULSAR_SHARING.get_or_init(|| public.clone());
    let key = CombinerKey::generate(id(99), &mut party_rng(b"k1", id(99)));
    corpus.add(&key.public_key().to_bytes());
    corpus.add(&key.to_bytes());
    corpus.add(&certified.announcement.to_bytes());
    corpus.add(&group_key.certificate().to_bytes());
    corpus.add(&group_key.to_bytes());
    corpus.add(&group_key.frame());
    let stored = &stored_shares[&id(1)];
    corpus.add(&stored.to_bytes());
    let key = CombinerKey::generate(id(99), &mut party_rng(b"k2", id(99)));
    let session = Session::sign(
        [3; 32],
        &group_key,
        &public,
        &ids[1..],
        key.public_key(),
        b"block",
        b"ctx",
    )
    .unwrap();
    corpus.add(&session.to_bytes());
    // Lens: dealer keygen and a signing session.
    let set = ids.iter().copied().collect();
    let (dealt, lens_public) = lens::deal(Curve::Ed25519, 2, &set, &mut party_rng(b"ld", id(1))).unwrap();
    corpus.add(&lens_public.to_bytes());
    let lens_shares: BTreeMap<PartyId, lens::KeyShare> = dealt
        .into_iter()
        .map(|(p, d)| {
            corpus.add(&d.to_bytes());
            (p, lens::KeyShare::from_dealer(d, &lens_public).unwrap())
        })
        .collect();
    corpus.add(&lens_shares[&id(1)].to_bytes());
    let (_, sent) = lens_session(&lens_public, &lens_shares, &ids[..3], None);
    corpus.add_sent(&sent);
    // An Ed25519 Feldman reshare (complaints, responses, activation).
    let ed_dkg = Ceremony::<Ed25519>::dkg([4; 32], Mode::Feldman, &ids[..3], 2).unwrap();
    let mut net = Network::new();
    for &p in &ids[..3] {
        let (party, first) = DealingParty::start(ed_dkg.clone(), p, None, &mut party_rng(b"ed", p)).unwrap();
        net.add(party, first);
    }
    let (out, sent) = net.run_logged();
    corpus.add_sent(&sent);
    let ed_shares: BTreeMap<_, _> = out
        .into_iter()
        .map(|(p, o)| (p, o.unwrap().key_share.unwrap()))
        .collect();
    corpus.add(&ed_shares[&id(1)].to_bytes());
    // Snapshots.
    let skey = keystore::SnapshotKey::generate(&mut party_rng(b"sk", id(1)));
    let meta = keystore::Metadata::new("pulsar", &[1; 32], 1, 3, id(1), 0).unwrap();
    let snap =
        keystore::Snapshot::seal(&skey, &meta, &stored.to_bytes(), &mut party_rng(b"sn", id(1))).unwrap();
    corpus.add(&snap.to_bytes());
    // A finality certificate and its validator set (BLS, ML-DSA-set and Pulsar legs).
    let config = quasar_pq::cert::devnet::DevnetConfig {
        mldsa: Some(MlDsaMode::MlDsa44),
        pulsar: Some(MlDsaMode::MlDsa44),
        ..Default::default()
    };
    let mut chain = quasar_pq::cert::devnet::Devnet::new(config, &[1, 2, 3]).unwrap();
    corpus.add(chain.set().as_bytes());
    let cert = chain
        .certificate(1, 0, [1; 32], &quasar_pq::cert::devnet::Signers::all(3))
        .unwrap();
    corpus.add(&cert);
    // ML-DSA signatures for the verifier.
    for mode in MlDsaMode::ALL {
        let (pk, sk) = mldsa::keygen(mode, &[mode.to_byte(); 32]);
        let sig = mldsa::sign(mode, &sk, b"fuzz", b"", None).unwrap();
        corpus.add(&SignatureFrame::encode(mode, &sig).unwrap());
        corpus.ml_dsa.push((mode, pk, b"fuzz".to_vec(), sig));
    }
    // Magnetar envelopes and an aggregate certificate.
    let mag = magnetar_sample();
    corpus.add(&mag.signature);
    corpus.add(&mag.key.to_frame());
    corpus.add(&mag.certificate);
    corpus.magnetar = Some(mag);
    let material = Material {
        shares,
        public,
        group_key,
        lens_public,
        lens_shares,
    };
    (corpus, material)
}

/// What the protocol fuzzing starts from.
struct Material {
    shares: BTreeMap<PartyId, lss::KeyShare<Ristretto255>>,
    public: lss::GroupPublic<Ristretto255>,
    group_key: GroupKey,
    lens_public: lens::PublicKeyPackage,
    lens_shares: BTreeMap<PartyId, lens::KeyShare>,
}

type Tamper = Box<dyn FnMut(Envelope) -> Vec<Envelope>>;

fn pulsar_session(
    session: &Session,
    key: CombinerKey,
    shares: &[&lss::KeyShare<Ristretto255>],
    tamper: Option<Tamper>,
) -> (
    Result<Combined, quasar_pq::Error>,
    Vec<quasar_pq::party::sim::Sent>,
) {
    let mut net = Network::new();
    let (c, first) = CombinerParty::start(key, session, &mut party_rng(b"cb", id(99))).unwrap();
    net.add(map_output(c, Some), first);
    for s in shares {
        let (p, first) = SignerParty::start(s, session, &mut party_rng(b"sg", s.id())).unwrap();
        net.add(map_output(p, |_| None), first);
    }
    if let Some(t) = tamper {
        net.tamper(t);
    }
    let (out, sent) = net.run_logged();
    let combiner = out
        .into_iter()
        .find(|(p, _)| *p == id(99))
        .map(|(_, o)| o)
        .unwrap();
    (combiner.map(|o| o.unwrap()), sent)
}

fn lens_session(
    public: &lens::PublicKeyPackage,
    shares: &BTreeMap<PartyId, lens::KeyShare>,
    signers: &[PartyId],
    tamper: Option<Tamper>,
) -> (
    Result<lens::Signature, quasar_pq::Error>,
    Vec<quasar_pq::party::sim::Sent>,
) {
    let hub = id(100);
    let mut net = Network::new();
    let (c, first) = CoordinatorParty::start(hub, public, b"block").unwrap();
    net.add(map_output(c, |o| Some(o.signature)), first);
    for p in signers {
        let (s, first) = LensSigner::start(&shares[p], hub, b"block", &mut party_rng(b"ls", *p)).unwrap();
        net.add(map_output(s, |_| None), first);
    }
    if let Some(t) = tamper {
        net.tamper(t);
    }
    let (out, sent) = net.run_logged();
    let coordinator = out.into_iter().find(|(p, _)| *p == hub).map(|(_, o)| o).unwrap();
    (coordinator.map(|o| o.unwrap()), sent)
}

/// A tamper that mutates the `target`-th message on the wire (by mutation `kind`).
fn one_fault(target: usize, kind: u32, seed: u64, foreign: Vec<u8>) -> Tamper {
    let mut seen = 0usize;
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
    Box::new(move |mut e: Envelope| {
        seen += 1;
        if seen - 1 != target {
            return vec![e];
        }
        match kind % 6 {
            0 => {
                let n = e.bytes.len();
                let i = (rng.next_u32() as usize) % n.max(1);
                if let Some(b) = e.bytes.get_mut(i) {
                    *b ^= 1 << (rng.next_u32() % 8);
                }
                vec![e]
            }
            1 => {
                let cut = (rng.next_u32() as usize) % e.bytes.len().max(1);
                e.bytes.truncate(cut);
                vec![e]
            }
            2 => vec![e.clone(), e],
            3 => {
                e.bytes = foreign.clone().into();
                vec![e]
            }
            4 => {
                // Misaddressed: the same bytes to another recipient too.
                let mut other = e.clone();
                other.to = PartyId::new(e.to.get() % 4 + 1).unwrap_or(e.to);
                vec![e, other]
            }
            _ => {
                // From the wrong sender.
                e.from = PartyId::new(e.from.get() % 4 + 1).unwrap_or(e.from);
                vec![e]
            }
        }
    })
}

fn fuzz_decoders(corpus: &Corpus, iters: usize, rng: &mut impl RngCore, counts: &mut Counts) {
    let all: Vec<Vec<u8>> = corpus.by_magic.values().flatten().cloned().collect();
    for (magic, name, decode) in decoders() {
        let samples = corpus.by_magic.get(magic).cloned().unwrap_or_default();
        assert!(!samples.is_empty(), "no sample for {name}");
        for sample in &samples {
            if let Ok(again) = decode(sample) {
                assert_eq!(&again, sample, "{name}: a genuine sample does not round-trip");
            }
            for m in mutants(sample, &all, iters, rng) {
                probe(counts, name, || match decode(&m) {
                    Ok(again) if again != m => {
                        Err(format!("accepts a non-canonical encoding ({} bytes)", m.len()))
                    }
                    Ok(_) => Ok(true),
                    Err(()) => Ok(false),
                });
            }
        }
    }
    for (mode, pk, msg, sig) in &corpus.ml_dsa {
        for m in mutants(sig, &all, iters, rng) {
            probe(counts, "ml-dsa verify", || {
                if m != *sig && mldsa::verify(*mode, pk, msg, b"", &m).is_ok() {
                    Err("a mutated signature verifies".into())
                } else {
                    Ok(m == *sig)
                }
            });
        }
        for m in mutants(pk, &all, iters / 4, rng) {
            probe(counts, "ml-dsa verify (public key)", || {
                if m != *pk && mldsa::verify(*mode, &m, msg, b"", sig).is_ok() {
                    Err("a signature verifies under a mutated key".into())
                } else {
                    Ok(false)
                }
            });
        }
    }
    if let Some(mag) = &corpus.magnetar {
        for m in mutants(&mag.signature, &all, iters, rng) {
            probe(counts, "magnetar verify", || {
                if m != mag.signature && mag.key.verify(b"fuzz", b"", &m).is_ok() {
                    Err("a mutated MAGS envelope verifies".into())
                } else {
                    Ok(m == mag.signature)
                }
            });
        }
        for m in mutants(&mag.certificate, &all, iters, rng) {
            probe(counts, "magnetar aggregate verify", || {
                let verdict = AggregateCertificate::decode(&m).and_then(|c| {
                    c.verify(&mag.registry, b"fuzz", b"", quasar_pq::quorum::Quorum::default())
                });
                if m != mag.certificate && verdict.is_ok() {
                    Err("a mutated certificate verifies".into())
                } else {
                    Ok(verdict.is_ok())
                }
            });
        }
    }
}

fn fuzz_protocols(material: &Material, runs: usize, rng: &mut impl RngCore, counts: &mut Counts) {
    let foreign = lss::AnyGroupPublic::from(material.public.clone()).to_bytes();
    for run in 0..runs {
        let target = (rng.next_u32() % 12) as usize;
        let kind = rng.next_u32();
        let seed = rng.next_u64();
        // Pulsar signing.
        let key = CombinerKey::generate(id(99), &mut party_rng(b"fk", id(99)));
        let signers: Vec<PartyId> = (1..=4).map(id).collect();
        let session = Session::sign(
            [u8::try_from(run).unwrap(); 32],
            &material.group_key,
            &material.public,
            &signers,
            key.public_key(),
            b"m",
            b"",
        )
        .unwrap();
        let shares: Vec<&lss::KeyShare<Ristretto255>> = material.shares.values().collect();
        let gk = material.group_key.clone();
        let tamper = one_fault(target, kind, seed, foreign.clone());
        probe(counts, "pulsar signing session", || {
            match pulsar_session(&session, key, &shares, Some(tamper)).0 {
                Ok(Combined::Signed(s)) => match gk.verify(b"m", b"", s.signature()) {
                    Ok(()) => Ok(true),
                    Err(e) => Err(format!("a signature that does not verify: {e}")),
                },
                Ok(Combined::Announcement(_)) => Err("an announcement from a signing session".into()),
                Err(_) => Ok(false),
            }
        });
        // Lens signing.
        let tamper = one_fault(target, kind, seed, foreign.clone());
        let lp = material.lens_public.clone();
        probe(counts, "lens signing session", || {
            match lens_session(&lp, &material.lens_shares, &signers[..3], Some(tamper)).0 {
                Ok(sig) => {
                    match lens::verify(Curve::Ed25519, &lp.group_key_bytes(), b"block", &sig.to_bytes()) {
                        Ok(()) => Ok(true),
                        Err(e) => Err(format!("a signature that does not verify: {e}")),
                    }
                }
                Err(_) => Ok(false),
            }
        });
        // A reshare 3-of-4 -> 2-of-3 of the Pulsar sharing (LSS kernel).
        let tamper = one_fault(target * 3, kind, seed, foreign.clone());
        probe(counts, "lss reshare", || {
            let c = Ceremony::reshare(
                [u8::try_from(run).unwrap() ^ 0x55; 32],
                &material.public,
                &signers,
                &[id(2), id(5), id(6)],
                2,
            )
            .map_err(|e| e.to_string())?;
            let mut net = Network::new();
            for p in (1..=6).map(id) {
                let (party, first) =
                    DealingParty::start(c.clone(), p, material.shares.get(&p), &mut party_rng(b"rs", p))
                        .map_err(|e| e.to_string())?;
                net.add(party, first);
            }
            net.tamper(tamper);
            let out = net.run();
            let publics: Vec<Vec<u8>> = out
                .values()
                .filter_map(|o| o.as_ref().ok())
                .map(|o| o.public.to_bytes())
                .collect();
            if publics.windows(2).any(|w| w[0] != w[1]) {
                return Err("honest parties disagree on the new generation".into());
            }
            for o in out.values().flatten() {
                if o.public.group_commitment() != material.public.group_commitment() {
                    return Err("the group commitment changed".into());
                }
            }
            Ok(!publics.is_empty())
        });
    }
}

#[test]
fn seeded_run() {
    let iters: usize = std::env::var("FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let seed: u64 = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x51A5A5);
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
    let started = Instant::now();
    let (corpus, material) = build_corpus();
    let mut decoders_counts = Counts::default();
    fuzz_decoders(&corpus, iters, &mut rng, &mut decoders_counts);
    let mut protocol_counts = Counts::default();
    fuzz_protocols(&material, (iters / 6).max(4), &mut rng, &mut protocol_counts);
    for (name, c) in [("decoders", &decoders_counts), ("protocols", &protocol_counts)] {
        println!(
            "fuzz {name}: {} inputs ({} accepted, {} rejected), {} panics, {} hangs, {} false accepts",
            c.inputs,
            c.accepted,
            c.rejected,
            c.panics.len(),
            c.hangs.len(),
            c.false_accepts.len()
        );
        for p in c.panics.iter().chain(&c.hangs).chain(&c.false_accepts).take(20) {
            println!("  {p}");
        }
    }
    println!(
        "fuzz: seed {seed:#x}, FUZZ_ITERS={iters}, {} message types, {:.1} s",
        corpus.by_magic.len(),
        started.elapsed().as_secs_f64()
    );
    let failures = decoders_counts.failures() + protocol_counts.failures();
    assert_eq!(
        failures, 0,
        "fuzz: {failures} panics, hangs or false accepts (listed above)"
    );
}
