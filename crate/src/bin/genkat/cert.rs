//! `kats/cert.json`: golden finality certificates for every policy, valid and invalid, and
//! light-client sequences across an epoch change, with the verdicts the verifier gives.
//!
//! One devnet (`quasar_pq::cert::devnet`, the Pulsar group run through the library's
//! parties on the simulator) of four validators with weights 10, 20, 30, 40, BLS keys,
//! ML-DSA-44 keys, Magnetar SHAKE-192s keys and a Pulsar ML-DSA-44 group (threshold 3),
//! then a fifth and sixth validator joining (weights 25, 35) and the first leaving at the
//! end of epoch 0, the Pulsar group reshared to them under the same key. A second devnet of
//! four validators whose Pulsar leg a committee signs (`committee-*`: no machine held its key),
//! whose first member leaves at the end of epoch 0, so epoch 1 has a new committee key in key
//! era 1. A third devnet of four validators (`strict-*`) with BLS and ML-DSA-44 keys, a Pulsar
//! custody group and a Corona group (threshold 3 of 4) signs every leg of the PQ-strict
//! policies; its first validator leaves at the end of epoch 0, so epoch 1 has a newly dealt
//! Corona key in key era 1.
//!
//! Size: Magnetar signatures are 16,224 bytes even at SHAKE-192s, the smallest set the
//! Magnetar envelopes have (there is no 128-bit Magnetar mode), so only one certificate
//! carries a Magnetar leg, with the two signers a quorum needs (40 + 30 of 100); every
//! invalid case is a **splice** of a genuine certificate — `splices`: a list of
//! `{at, cut, insert}`, each replacing `cut` bytes at offset `at` by `insert`, applied in
//! order — so the file holds each signature once.
//!
//! Fields. `sets`: `{name, epoch, root, bytes}`. `certificates`: `{name, bytes}` or `{name,
//! base, splices}`. `cases`: `{certificate, set, policy, message, valid, code, legs: [{kind,
//! verdict, code, signers, weight}]}` — the full report (every required leg checked), the
//! `message` being the header's finality message for the valid ones, `code` empty when
//! valid, `signers`/`weight` null when not reported. `light`: `{name, set, policy, key_era,
//! steps: [{certificate, next_set, accepted, code, epoch}]}` (`key_era`: where the client ends) (names of `certificates` and `sets`;
//! `next_set` empty for none).

use quasar_pq::cert::devnet::{Devnet, DevnetConfig, PulsarSigning, Signers};
use quasar_pq::cert::{verify, LegKind, Options, Policy, Report, TrustedSet, ValidatorSet};
use quasar_pq::magnetar;
use quasar_pq::mldsa::Mode;

use crate::format::{ensure, Failure, Obj, Stream};

#[path = "cert/light.rs"]
mod light;
#[path = "cert/splice.rs"]
mod splice;

use splice::{apply, leg, splice, Cert};

fn report_obj(o: Obj, r: &Report) -> Obj {
    let legs = r
        .legs()
        .map(|l| {
            Obj::default()
                .str("kind", l.kind.name())
                .str("verdict", l.verdict.name())
                .str("code", l.reason.as_ref().map_or("", |e| e.code()))
                .opt_int("signers", l.signers.map(|s| s as u64))
                .opt_int("weight", l.weight)
        })
        .collect();
    o.bool("valid", r.is_valid())
        .str("code", r.code().unwrap_or(""))
        .objs("legs", legs)
}

/// Positions in `set` of the validators with these weights, increasing.
fn by_weight(set: &ValidatorSet, weights: &[u64]) -> Vec<usize> {
    let view = set.view();
    let mut out: Vec<usize> = view
        .entries()
        .enumerate()
        .filter(|(_, e)| weights.contains(&e.weight))
        .map(|(i, _)| i)
        .collect();
    out.sort_unstable();
    out
}

fn signers(bls: Vec<usize>, pulsar: Vec<usize>, mldsa: Vec<usize>, magnetar: Vec<usize>) -> Signers {
    Signers {
        bls,
        pulsar,
        corona: vec![],
        mldsa,
        magnetar,
    }
}

/// The vectors (see the module docs).
///
/// # Panics
/// If the code under test fails on its own honest run or gives another verdict than the
/// case is built for.
pub(crate) fn cert() -> String {
    build().unwrap_or_else(|e| panic!("kat: cert: {}", e.0))
}

fn build() -> Result<String, Failure> {
    let mut s = Stream::new("cert/devnet");
    let config = DevnetConfig {
        chain_id: 1,
        seed: s.array32(),
        bls: true,
        mldsa: Some(Mode::MlDsa44),
        magnetar: Some(magnetar::Mode::Shake192s),
        pulsar: Some(Mode::MlDsa44),
        pulsar_signing: PulsarSigning::Custody,
        corona: false,
    };
    let mut net = Devnet::new(config, &[10, 20, 30, 40])?;
    let set0 = net.set().clone();
    let top3 = by_weight(&set0, &[40, 30, 20]);
    let top2 = by_weight(&set0, &[40, 30]);
    let first3: Vec<usize> = (0..3).collect();
    let fast = net.certificate(
        1,
        0,
        s.array32(),
        &signers(top3.clone(), first3.clone(), top2.clone(), vec![]),
    )?;
    let heavy = net.certificate(
        2,
        0,
        s.array32(),
        &signers(top3.clone(), first3.clone(), vec![], top2.clone()),
    )?;
    let other = net.certificate(3, 0, s.array32(), &signers(top3.clone(), vec![], vec![], vec![]))?;
    let short = net.certificate(
        4,
        0,
        s.array32(),
        &signers(by_weight(&set0, &[40, 20]), vec![], vec![], vec![]),
    )?;
    let bls_only = net.certificate(5, 0, s.array32(), &signers(top3.clone(), vec![], vec![], vec![]))?;
    let leaving = by_weight(&set0, &[10]);
    let (end, set1) = net.end_epoch(
        6,
        0,
        s.array32(),
        &signers(top3.clone(), first3, vec![], vec![]),
        &leaving,
        &[25, 35],
        false,
    )?;
    ensure(
        set1.view().pulsar_group_key() == set0.view().pulsar_group_key() && set1.key_era() == 0,
        "the reshared group keeps its key and era",
    )?;
    let e1 = net.certificate(
        7,
        0,
        s.array32(),
        &signers(by_weight(&set1, &[40, 35, 30]), (0..4).collect(), vec![], vec![]),
    )?;

    // A forged next set: the genuine one with its first validator's weight changed.
    let pulg = set1.view().pulsar_group_key().map_or(0, <[u8]>::len);
    let weight_at = 37 + pulg + 2 + 32 + 7;
    let forged_bytes = apply(
        set1.as_bytes(),
        &[(weight_at, 1, vec![set1.as_bytes()[weight_at] ^ 1])],
    );
    let forged = ValidatorSet::from_bytes(&forged_bytes)?;

    // A second chain whose Pulsar leg a committee signs (no machine held its key): the first
    // validator leaves the committee at the epoch change, so epoch 1 has a new committee key in
    // key era 1.
    let committee_config = DevnetConfig {
        chain_id: 1,
        seed: s.array32(),
        bls: true,
        mldsa: None,
        magnetar: None,
        pulsar: Some(Mode::MlDsa44),
        pulsar_signing: PulsarSigning::Committee,
        corona: false,
    };
    let mut cnet = Devnet::new(committee_config, &[1, 1, 1, 1])?;
    let cset0 = cnet.set().clone();
    let three = Signers::first(3, 4);
    let c1 = cnet.certificate(1, 0, s.array32(), &three)?;
    let (cend, cset1) = cnet.end_epoch(2, 0, s.array32(), &three, &[0], &[1], false)?;
    ensure(
        cset1.view().pulsar_group_key() != cset0.view().pulsar_group_key() && cset1.key_era() == 1,
        "a new committee is a new key in the next key era",
    )?;
    let ce1 = cnet.certificate(3, 0, s.array32(), &three)?;
    let (cpuls_at, cpuls_len) = leg(&c1, LegKind::Pulsar)?;

    // A third chain with every leg of the PQ-strict policies: the Corona group is the four
    // validators (threshold 3); the first leaves at the epoch change, so epoch 1 has a newly
    // dealt Corona key in key era 1.
    let strict_config = DevnetConfig {
        chain_id: 1,
        seed: s.array32(),
        bls: true,
        mldsa: Some(Mode::MlDsa44),
        magnetar: None,
        pulsar: Some(Mode::MlDsa44),
        pulsar_signing: PulsarSigning::Custody,
        corona: true,
    };
    let mut snet = Devnet::new(strict_config, &[1, 1, 1, 1])?;
    let sset0 = snet.set().clone();
    ensure(snet.corona_threshold() == Some(3), "a Corona group of 3 of 4")?;
    let s1 = snet.certificate(1, 0, s.array32(), &three)?;
    let (send, sset1) = snet.end_epoch(2, 0, s.array32(), &three, &[0], &[1], false)?;
    ensure(
        sset1.view().corona_group_key() != sset0.view().corona_group_key() && sset1.key_era() == 1,
        "a new Corona group is a new key in the next key era",
    )?;
    let se1 = snet.certificate(3, 0, s.array32(), &three)?;
    let (cor_at, cor_len) = leg(&s1, LegKind::Corona)?;

    // Splices.
    let (bls_at, bls_len) = leg(&fast, LegKind::Bls)?;
    let (other_at, other_len) = leg(&other, LegKind::Bls)?;
    let (puls_at, puls_len) = leg(&fast, LegKind::Pulsar)?;
    let (ml_at, ml_len) = leg(&fast, LegKind::MlDsaSet)?;
    let (mag_at, mag_len) = leg(&heavy, LegKind::Magnetar)?;
    let flip = |b: &[u8], at: usize| (at, 1, vec![b[at] ^ 0x01]);
    let sig_len = magnetar::Mode::Shake192s.signature_len();
    let ids = mag_at + 9;
    let mag_short = vec![
        (
            mag_at - 4,
            4,
            u32::try_from(mag_len - 32 - sig_len)
                .expect("a Magnetar leg under 4 GiB")
                .to_be_bytes()
                .to_vec(),
        ),
        (mag_at + 7, 2, 1u16.to_be_bytes().to_vec()),
        (ids + 32, 32, vec![]),
        (ids + 32 + sig_len, sig_len, vec![]),
    ];
    let certs = vec![
        Cert {
            name: "fast",
            bytes: fast.clone(),
            from: None,
        },
        Cert {
            name: "heavy",
            bytes: heavy.clone(),
            from: None,
        },
        Cert {
            name: "bls-only",
            bytes: bls_only.clone(),
            from: None,
        },
        Cert {
            name: "bls-quorum-one-short",
            bytes: short,
            from: None,
        },
        Cert {
            name: "end-of-epoch-0",
            bytes: end.clone(),
            from: None,
        },
        Cert {
            name: "epoch-1",
            bytes: e1.clone(),
            from: None,
        },
        splice(
            "bls-broken",
            &fast,
            "fast",
            vec![(bls_at, bls_len, other[other_at..other_at + other_len].to_vec())],
        ),
        splice(
            "pulsar-broken",
            &fast,
            "fast",
            vec![flip(&fast, puls_at + puls_len / 2)],
        ),
        splice(
            "mldsa-set-broken",
            &fast,
            "fast",
            vec![flip(&fast, ml_at + ml_len - 100)],
        ),
        splice(
            "magnetar-broken",
            &heavy,
            "heavy",
            vec![flip(&heavy, mag_at + mag_len - 1000)],
        ),
        splice("wrong-set-root", &fast, "fast", vec![flip(&fast, 70)]),
        splice("magnetar-quorum-one-short", &heavy, "heavy", mag_short),
        splice(
            "duplicate-signer",
            &heavy,
            "heavy",
            vec![(ids + 32, 32, heavy[ids..ids + 32].to_vec())],
        ),
        splice(
            "unknown-signer-bls",
            &fast,
            "fast",
            vec![(bls_at + 2, 1, vec![fast[bls_at + 2] | 0x10])],
        ),
        splice(
            "unknown-signer-magnetar",
            &heavy,
            "heavy",
            vec![(ids + 32, 32, vec![0xFF; 32])],
        ),
        splice("truncated", &fast, "fast", vec![(fast.len() - 1, 1, vec![])]),
        splice("trailing-byte", &fast, "fast", vec![(fast.len(), 0, vec![0])]),
        Cert {
            name: "committee-1",
            bytes: c1.clone(),
            from: None,
        },
        Cert {
            name: "committee-end-of-epoch-0",
            bytes: cend,
            from: None,
        },
        Cert {
            name: "committee-epoch-1",
            bytes: ce1,
            from: None,
        },
        splice(
            "committee-pulsar-broken",
            &c1,
            "committee-1",
            vec![flip(&c1, cpuls_at + cpuls_len / 2)],
        ),
        Cert {
            name: "strict-1",
            bytes: s1.clone(),
            from: None,
        },
        Cert {
            name: "strict-end-of-epoch-0",
            bytes: send,
            from: None,
        },
        Cert {
            name: "strict-epoch-1",
            bytes: se1,
            from: None,
        },
        // A flip in z (the frame's middle), and one in the frame's version.
        splice(
            "strict-corona-broken",
            &s1,
            "strict-1",
            vec![flip(&s1, cor_at + cor_len / 2)],
        ),
        splice(
            "strict-corona-bad-version",
            &s1,
            "strict-1",
            vec![flip(&s1, cor_at + 5)],
        ),
    ];
    // (certificate, set, policy, expected code).
    let expectations: &[(&str, &str, Policy, &str)] = &[
        ("fast", "epoch-0", Policy::PQ_OFF, ""),
        ("fast", "epoch-0", Policy::PQ_FAST, ""),
        ("fast", "epoch-0", Policy::STRICT_PQ_FAST, ""),
        ("heavy", "epoch-0", Policy::PQ_HEAVY, ""),
        ("heavy", "epoch-0", Policy::STRICT_PQ_HEAVY, ""),
        ("bls-only", "epoch-0", Policy::PQ_OFF, ""),
        ("end-of-epoch-0", "epoch-0", Policy::PQ_FAST, ""),
        ("epoch-1", "epoch-1", Policy::PQ_FAST, ""),
        ("bls-broken", "epoch-0", Policy::PQ_FAST, "INVALID_SIGNATURE"),
        ("pulsar-broken", "epoch-0", Policy::PQ_FAST, "INVALID_SIGNATURE"),
        (
            "mldsa-set-broken",
            "epoch-0",
            Policy::STRICT_PQ_FAST,
            "INVALID_SIGNATURE",
        ),
        (
            "magnetar-broken",
            "epoch-0",
            Policy::PQ_HEAVY,
            "INVALID_SIGNATURE",
        ),
        ("wrong-set-root", "epoch-0", Policy::PQ_FAST, "SET_ROOT_MISMATCH"),
        ("epoch-1", "epoch-0", Policy::PQ_FAST, "WRONG_EPOCH"),
        (
            "bls-quorum-one-short",
            "epoch-0",
            Policy::PQ_OFF,
            "QUORUM_NOT_MET",
        ),
        (
            "magnetar-quorum-one-short",
            "epoch-0",
            Policy::PQ_HEAVY,
            "QUORUM_NOT_MET",
        ),
        (
            "duplicate-signer",
            "epoch-0",
            Policy::PQ_HEAVY,
            "DUPLICATE_SIGNER",
        ),
        ("unknown-signer-bls", "epoch-0", Policy::PQ_OFF, "UNKNOWN_SIGNER"),
        (
            "unknown-signer-magnetar",
            "epoch-0",
            Policy::STRICT_PQ_HEAVY,
            "UNKNOWN_SIGNER",
        ),
        ("truncated", "epoch-0", Policy::PQ_FAST, "TOO_SHORT"),
        ("trailing-byte", "epoch-0", Policy::PQ_FAST, "TRAILING_BYTES"),
        ("bls-only", "epoch-0", Policy::PQ_FAST, "MISSING_LEG"),
        ("fast", "epoch-0", Policy::STRICT_PQ_HEAVY, "MISSING_LEG"),
        ("committee-1", "committee-epoch-0", Policy::PQ_FAST, ""),
        ("committee-epoch-1", "committee-epoch-1", Policy::PQ_FAST, ""),
        (
            "committee-pulsar-broken",
            "committee-epoch-0",
            Policy::PQ_FAST,
            "INVALID_SIGNATURE",
        ),
        (
            "committee-epoch-1",
            "committee-epoch-0",
            Policy::PQ_FAST,
            "WRONG_EPOCH",
        ),
        ("strict-1", "strict-epoch-0", Policy::PQ_STRICT, ""),
        ("strict-1", "strict-epoch-0", Policy::STRICT_PQ_STRICT, ""),
        ("strict-1", "strict-epoch-0", Policy::STRICT_PQ_FAST, ""),
        ("strict-epoch-1", "strict-epoch-1", Policy::PQ_STRICT, ""),
        (
            "strict-corona-broken",
            "strict-epoch-0",
            Policy::PQ_STRICT,
            "INVALID_SIGNATURE",
        ),
        ("strict-corona-broken", "strict-epoch-0", Policy::PQ_FAST, ""),
        (
            "strict-corona-bad-version",
            "strict-epoch-0",
            Policy::STRICT_PQ_STRICT,
            "BAD_VERSION",
        ),
        ("fast", "epoch-0", Policy::PQ_STRICT, "MISSING_LEG"),
        ("strict-1", "epoch-0", Policy::PQ_STRICT, "SET_ROOT_MISMATCH"),
        (
            "strict-epoch-1",
            "strict-epoch-0",
            Policy::PQ_STRICT,
            "WRONG_EPOCH",
        ),
    ];
    let sets = [
        ("epoch-0", &set0),
        ("epoch-1", &set1),
        ("epoch-1-forged", &forged),
        ("committee-epoch-0", &cset0),
        ("committee-epoch-1", &cset1),
        ("strict-epoch-0", &sset0),
        ("strict-epoch-1", &sset1),
    ];
    let find = |name: &str| {
        certs
            .iter()
            .find(|c| c.name == name)
            .ok_or_else(|| Failure(format!("no {name}")))
    };
    let mut cases = Vec::new();
    for (name, set, policy, code) in expectations {
        let c = find(name)?;
        let t = &TrustedSet::new(
            sets.iter()
                .find(|(n, _)| n == set)
                .map(|(_, s)| (*s).clone())
                .ok_or_else(|| Failure(format!("no set {set}")))?,
        )?;
        let options = Options {
            full: true,
            clock: None,
        };
        let r = verify(&c.bytes, t, policy, &options);
        let got = r.code().unwrap_or("");
        ensure(
            got == *code,
            &format!("{name} under {policy}: {code:?}, got {got:?}"),
        )?;
        let message = match (r.is_valid(), r.header()) {
            (true, Some(h)) => h.message().to_vec(),
            _ => Vec::new(),
        };
        let o = Obj::default()
            .str("certificate", name)
            .str("set", set)
            .str("policy", policy.name())
            .bytes("message", &message);
        cases.push(report_obj(o, &r));
    }
    let cert_objs: Vec<Obj> = certs
        .iter()
        .map(|c| {
            let o = Obj::default().str("name", c.name);
            match &c.from {
                Some((base, splices)) => o.str("base", base).objs(
                    "splices",
                    splices
                        .iter()
                        .map(|(at, cut, insert)| {
                            Obj::default()
                                .int("at", *at as u64)
                                .int("cut", *cut as u64)
                                .bytes("insert", insert)
                        })
                        .collect(),
                ),
                None => o.bytes("bytes", &c.bytes),
            }
        })
        .collect();

    let light = light::sequences(&sets, &certs)?;

    let set_objs = sets
        .iter()
        .map(|(name, set)| {
            Obj::default()
                .str("name", name)
                .int("epoch", set.epoch())
                .bytes("root", set.root())
                .bytes("bytes", set.as_bytes())
        })
        .collect();
    let file = Obj::default()
        .str(
            "name",
            "Quasar finality certificates: every policy, each leg broken in turn, and a light client across an epoch change",
        )
        .str("generator", "cargo run --bin genkat")
        .objs("sets", set_objs)
        .objs("certificates", cert_objs)
        .objs("cases", cases)
        .objs("light", light);
    Ok(format!("{}\n", file.render(0)))
}
