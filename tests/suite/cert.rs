//! The finality certificate: validator sets, headers, the finality message,
//! certificates under every policy with each leg broken in turn, structural checks before
//! any signature work (and without allocating), the light client across epoch changes and
//! key eras, the builder and devnet, and the BLS leg against the Ethereum test keys.
//!
//! Run: `cargo test --release --features sim,hazmat --test suite cert::`.

// Helpers outside `#[test]` functions unwrap too: a panic here is a failed test
// (clippy.toml's allow-unwrap-in-tests covers only the test functions themselves).
#![allow(clippy::unwrap_used)]

use core::alloc::{GlobalAlloc, Layout};
use core::cell::Cell;
use std::alloc::System;
use std::path::PathBuf;

use quasar_pq::bls;
use quasar_pq::cert::devnet::{two_thirds_plus_one, Devnet, DevnetConfig, PulsarSigning, Signers};
use quasar_pq::cert::view::{encode, CERT_MAGIC};
use quasar_pq::cert::{
    check, verify, CertificateBuilder, CertificateView, Error, Header, LegKind, LegSet, LightClient, Options,
    Policy, SetParams, TrustedSet, Validator, ValidatorSet, ValidatorSetView, Verdict,
};
use quasar_pq::mldsa::Mode;

// ---------------------------------------------------------------------------------------
// Allocation counting (per thread, so parallel tests do not disturb each other).

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// The counting allocator forwards to the system allocator: the one unsafe code of this file.
// SAFETY: every method passes its caller's arguments unchanged to `System`, which meets
// the `GlobalAlloc` contract; counting touches no memory the allocator hands out.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: the caller meets `alloc`'s contract; it is passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, that is from `System`, with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: as for `dealloc`; the caller meets `realloc`'s contract for `new_size`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = ALLOCATIONS.with(Cell::get);
    let out = f();
    (out, ALLOCATIONS.with(Cell::get) - before)
}

// ---------------------------------------------------------------------------------------
// Chains.

const WEIGHTS: [u64; 4] = [10, 20, 30, 40];

/// Four validators (weights 10, 20, 30, 40) with BLS, ML-DSA-44 keys and a Pulsar
/// ML-DSA-44 group.
fn chain(label: u8) -> Devnet {
    let config = DevnetConfig {
        chain_id: 7,
        seed: [label; 32],
        bls: true,
        mldsa: Some(Mode::MlDsa44),
        magnetar: None,
        pulsar: Some(Mode::MlDsa44),
        pulsar_signing: PulsarSigning::Custody,
        corona: false,
    };
    Devnet::new(config, &WEIGHTS).unwrap()
}

fn trusted(net: &Devnet) -> TrustedSet {
    TrustedSet::new(net.set().clone()).unwrap()
}

fn code_of(report: &quasar_pq::cert::Report) -> Option<&'static str> {
    report.code()
}

/// Set positions whose weights are `want` (weights are distinct in [`WEIGHTS`]).
fn positions(net: &Devnet, want: &[u64]) -> Vec<usize> {
    let view = net.set().view();
    let mut out: Vec<usize> = want
        .iter()
        .map(|w| view.entries().position(|e| e.weight == *w).unwrap())
        .collect();
    out.sort_unstable();
    out
}

fn signers(bls: Vec<usize>, pulsar: Vec<usize>, mldsa: Vec<usize>) -> Signers {
    Signers {
        bls,
        pulsar,
        corona: Vec::new(),
        mldsa,
        magnetar: Vec::new(),
    }
}

// ---------------------------------------------------------------------------------------
// Validator sets.

#[test]
fn validator_sets_round_trip_and_reject_every_malformation() {
    let net = chain(1);
    let set = net.set();
    let bytes = set.to_bytes();
    let view = ValidatorSetView::parse(&bytes).unwrap();
    assert_eq!(view.len(), 4);
    assert_eq!(view.total_weight(), 100);
    assert_eq!(view.epoch(), 0);
    assert_eq!(view.chain_id(), 7);
    assert_eq!(view.mldsa_mode(), Some(Mode::MlDsa44));
    assert!(view.has_bls() && view.pulsar_group_key().is_some());
    assert_eq!(&view.root(), set.root());
    let ids: Vec<[u8; 32]> = view.entries().map(|e| *e.id).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "ids increase");
    for (i, id) in ids.iter().enumerate() {
        assert_eq!(view.position(id), Some(i));
    }
    assert_eq!(view.position(&[0xFF; 32]), None);
    assert_eq!(ValidatorSet::from_bytes(&bytes).unwrap(), *set);

    // Every truncation and one extra byte.
    for cut in 0..bytes.len() {
        assert!(ValidatorSetView::parse(&bytes[..cut]).is_err(), "cut {cut}");
    }
    let mut long = bytes.clone();
    long.push(0);
    assert_eq!(
        ValidatorSetView::parse(&long).unwrap_err().code(),
        "TRAILING_BYTES"
    );
    // Bit flips: a flip either fails or decodes to a different canonical set.
    let step = (bytes.len() / 2000).max(1);
    for at in (0..bytes.len()).step_by(step).chain(0..64) {
        for bit in [0, 7] {
            let mut b = bytes.clone();
            b[at] ^= 1 << bit;
            if let Ok(v) = ValidatorSetView::parse(&b) {
                assert_ne!(v.root(), view.root());
                assert_eq!(ValidatorSet::from_bytes(&b).unwrap().as_bytes(), &b[..]);
            }
        }
    }

    // The set-level rules, each with its code.
    let params = SetParams {
        chain_id: 1,
        bls: false,
        ..SetParams::default()
    };
    let v = |id: u8, weight| Validator {
        id: [id; 32],
        weight,
        bls: None,
        mldsa: None,
        slhdsa: None,
    };
    let ok = ValidatorSet::new(&params, vec![v(2, 5), v(1, 7)]).unwrap();
    assert_eq!(ok.total_weight(), 12);
    assert_eq!(ok.view().entry(0).unwrap().id, &[1; 32], "sorted by id");
    let err = |vals| ValidatorSet::new(&params, vals).unwrap_err().code();
    assert_eq!(err(vec![v(1, 0)]), "ZERO_WEIGHT");
    assert_eq!(err(vec![v(1, 1), v(1, 2)]), "DUPLICATE_VALIDATOR");
    assert_eq!(err(vec![v(1, u64::MAX), v(2, 1)]), "WEIGHT_OVERFLOW");
    assert_eq!(err(vec![]), "INVALID_VALUE");
    // Unsorted ids, by hand: swap the two entries of `ok`.
    let mut swapped = ok.to_bytes();
    let n = swapped.len();
    let (a, b) = swapped[n - 80..].split_at_mut(40);
    a.swap_with_slice(b);
    assert_eq!(
        ValidatorSetView::parse(&swapped).unwrap_err().code(),
        "UNSORTED_VALIDATORS"
    );
    // Mode bytes naming nothing.
    for at in [30, 31, 32] {
        let mut b = ok.to_bytes();
        b[at] = 0x7F;
        assert_eq!(
            ValidatorSetView::parse(&b).unwrap_err().code(),
            "UNKNOWN_MODE",
            "byte {at}"
        );
    }
    // A key that does not match the set's kinds.
    let mut with_key = v(3, 1);
    with_key.mldsa = Some(vec![0; 1312]);
    assert_eq!(err(vec![with_key]), "INVALID_VALUE");
}

#[test]
fn trusted_sets_validate_every_bls_key_and_proof() {
    let net = chain(2);
    let bytes = net.set().to_bytes();
    // The first validator's BLS key starts after the header, the PULG frame and the id and
    // weight (40 bytes).
    let view = net.set().view();
    let pulg = view.pulsar_group_key().unwrap().len();
    let first = 37 + pulg + 2;
    let key_at = first + 40;
    // A proof of possession of another validator: the set decodes, preparing it fails.
    let mut b = bytes.clone();
    let entry_len = (b.len() - first) / 4;
    let other = key_at + entry_len + 48;
    let (head, tail) = b.split_at_mut(other);
    head[key_at + 48..key_at + 144].copy_from_slice(&tail[..96]);
    let e = TrustedSet::from_bytes(&b).unwrap_err();
    assert_eq!(e.code(), "INVALID_PROOF_OF_POSSESSION");
    assert!(matches!(e, Error::InvalidBlsKey { index: 0, .. }), "{e:?}");
    // A key that is not a canonical point.
    let mut b = bytes.clone();
    b[key_at] &= 0x7F;
    assert_eq!(TrustedSet::from_bytes(&b).unwrap_err().code(), "NOT_COMPRESSED");
    assert!(TrustedSet::from_bytes(&bytes).is_ok());
}

/// The set's validators as [`ValidatorSet::new`] takes them, and its parameters.
fn validators_of(set: &ValidatorSet) -> (SetParams, Vec<Validator>) {
    let view = set.view();
    let params = SetParams {
        chain_id: view.chain_id(),
        epoch: view.epoch(),
        key_era: view.key_era(),
        bls: view.has_bls(),
        mldsa: view.mldsa_mode(),
        slhdsa: view.slhdsa_mode(),
        pulsar_group_key: view.pulsar_group_key().map(<[u8]>::to_vec),
        corona_group_key: view.corona_group_key().map(<[u8]>::to_vec),
    };
    let validators = view
        .entries()
        .map(|e| Validator {
            id: *e.id,
            weight: e.weight,
            bls: e.bls_public_key.zip(e.bls_pop).map(|(k, p)| (*k, *p)),
            mldsa: e.mldsa_public_key.map(<[u8]>::to_vec),
            slhdsa: e.slhdsa_public_key.map(<[u8]>::to_vec),
        })
        .collect();
    (params, validators)
}

#[test]
fn one_mldsa_key_registered_by_two_validators_is_refused() {
    // A validator that registers another's ML-DSA key holds no secret, yet a copy of that
    // validator's signature in its slot of the ML-DSA-set leg would verify and add its
    // weight: 60 of 100 would become 100 of 100 under strict-pq-fast.
    let net = chain(4);
    let (params, mut validators) = validators_of(net.set());
    let rebuilt = ValidatorSet::new(&params, validators.clone()).unwrap();
    assert_eq!(rebuilt.as_bytes(), net.set().as_bytes());
    assert!(TrustedSet::new(rebuilt).is_ok());
    validators[3].mldsa = validators[1].mldsa.clone();
    let copied = ValidatorSet::new(&params, validators).unwrap();
    let e = TrustedSet::new(copied.clone()).unwrap_err();
    assert_eq!(e.code(), "DUPLICATE_KEY");
    assert!(
        matches!(e, Error::DuplicateMlDsaKey { first: 1, second: 3 }),
        "{e:?}"
    );
    assert!(e.to_string().contains("ML-DSA"), "{e}");
    // The light client refuses such a set as a checkpoint too.
    assert_eq!(
        LightClient::new(copied, Policy::STRICT_PQ_FAST)
            .unwrap_err()
            .code(),
        "DUPLICATE_KEY"
    );
}

// ---------------------------------------------------------------------------------------
// Certificates.

#[test]
fn pq_fast_certificate_verifies_leg_by_leg_and_each_break_is_named() {
    let mut net = chain(3);
    let t = trusted(&net);
    let all = Signers::all(4);
    let cert = net.certificate(5, 0, [5; 32], &all).unwrap();
    for policy in [Policy::PQ_OFF, Policy::PQ_FAST, Policy::STRICT_PQ_FAST] {
        let r = verify(&cert, &t, &policy, &Options::default());
        assert!(r.is_valid(), "{policy}: {r}");
        for leg in r.legs() {
            let expect = if policy.requires(leg.kind) {
                Verdict::Valid
            } else {
                Verdict::NotRequired
            };
            assert_eq!(leg.verdict, expect, "{policy} {}", leg.kind);
            if policy.requires(leg.kind) {
                assert!(leg.time_ns.is_some(), "timed natively");
            }
            if leg.kind.is_weighted() && policy.requires(leg.kind) {
                assert_eq!((leg.signers, leg.weight), (Some(4), Some(100)));
            }
        }
    }
    // The Pulsar threshold of four is three.
    assert_eq!(net.pulsar_threshold(), Some(two_thirds_plus_one(4)));

    // Each leg broken in turn: a signature of another block, spliced in.
    let other = net.certificate(6, 0, [6; 32], &all).unwrap();
    let ov = CertificateView::parse(&other).unwrap();
    let view = CertificateView::parse(&cert).unwrap();
    let payload = |v: &CertificateView<'_>, k: LegKind| -> Vec<u8> {
        let bytes = v.as_bytes();
        // Find the leg by re-encoding: walk the legs after the header.
        let mut at = 6 + v.header().to_bytes().len() + 1;
        loop {
            let kind = bytes[at];
            let len = u32::from_be_bytes(bytes[at + 1..at + 5].try_into().unwrap()) as usize;
            if kind == k.to_byte() {
                return bytes[at + 5..at + 5 + len].to_vec();
            }
            at += 5 + len;
        }
    };
    for kind in [LegKind::Bls, LegKind::Pulsar, LegKind::MlDsaSet] {
        let legs: Vec<(u8, Vec<u8>)> = [LegKind::Bls, LegKind::Pulsar, LegKind::MlDsaSet]
            .iter()
            .map(|&k| {
                let p = if k == kind {
                    payload(&ov, k)
                } else {
                    payload(&view, k)
                };
                (k.to_byte(), p)
            })
            .collect();
        let list: Vec<(u8, &[u8])> = legs.iter().map(|(k, p)| (*k, &p[..])).collect();
        let broken = encode(view.header(), &list);
        let policy = Policy::custom(LegSet::of(&[LegKind::Bls, LegKind::Pulsar, LegKind::MlDsaSet])).unwrap();
        let r = verify(&broken, &t, &policy, &Options::full());
        assert_eq!(code_of(&r), Some("INVALID_SIGNATURE"), "{kind}: {r}");
        for leg in r.legs() {
            let want = if leg.kind == kind {
                Verdict::Invalid
            } else {
                Verdict::Valid
            };
            assert_eq!(leg.verdict, want, "{kind} broken: {}", leg.kind);
        }
        assert_eq!(r.error().unwrap().leg(), Some(kind));
        // Stopping at the first failure: the legs after it are not checked.
        let r = verify(&broken, &t, &policy, &Options::default());
        assert!(!r.is_valid());
        assert_eq!(r.leg(kind).unwrap().verdict, Verdict::Invalid);
    }
    // A bit flipped in the BLS aggregate: a typed decoding reason or an invalid signature.
    let mut flipped = cert.clone();
    let bls_sig_end = 6 + view.header().to_bytes().len() + 1 + 5 + 3 + 96;
    flipped[bls_sig_end - 1] ^= 1;
    let r = verify(&flipped, &t, &Policy::PQ_OFF, &Options::default());
    assert!(matches!(
        r.error(),
        Some(
            Error::InvalidSignature {
                kind: LegKind::Bls,
                ..
            } | Error::MalformedSignature {
                kind: LegKind::Bls,
                ..
            }
        )
    ));
}

#[test]
fn quorum_one_short_wrong_root_wrong_policy_and_unknown_signers() {
    let mut net = chain(4);
    let t = trusted(&net);
    // 40 + 30 = 70 > 2/3 of 100; 40 + 20 = 60 is not, nor 40 + 20 + 6 (there is no 6)…
    let quorum = positions(&net, &[40, 30]);
    let short = positions(&net, &[40, 20]);
    let pulsar = positions(&net, &[10, 20, 30]);
    let ok = net
        .certificate(
            1,
            0,
            [1; 32],
            &signers(quorum.clone(), pulsar.clone(), quorum.clone()),
        )
        .unwrap();
    assert!(verify(&ok, &t, &Policy::PQ_FAST, &Options::default()).is_valid());
    assert!(verify(&ok, &t, &Policy::STRICT_PQ_FAST, &Options::default()).is_valid());
    let cert = net
        .certificate(
            2,
            0,
            [2; 32],
            &signers(short.clone(), pulsar.clone(), short.clone()),
        )
        .unwrap();
    let (r, n) = allocations(|| {
        let view = CertificateView::parse(&cert).unwrap();
        check(&view, &t, &Policy::PQ_FAST).map(|_| ())
    });
    assert_eq!(
        r,
        Err(Error::QuorumNotMet {
            kind: LegKind::Bls,
            signed: 60,
            total: 100
        })
    );
    assert_eq!(n, 0, "parse and check allocate nothing");
    let r = verify(&cert, &t, &Policy::STRICT_PQ_FAST, &Options::default());
    assert_eq!(code_of(&r), Some("QUORUM_NOT_MET"));
    assert_eq!(r.leg(LegKind::MlDsaSet).unwrap().weight, Some(60));
    assert!(
        r.leg(LegKind::MlDsaSet).unwrap().time_ns.is_none(),
        "no signature work"
    );

    // Wrong policy: a BLS-only certificate under PQ-fast.
    let bls_only = net
        .certificate(3, 0, [3; 32], &signers(quorum.clone(), vec![], vec![]))
        .unwrap();
    assert!(verify(&bls_only, &t, &Policy::PQ_OFF, &Options::default()).is_valid());
    let r = verify(&bls_only, &t, &Policy::PQ_FAST, &Options::default());
    assert_eq!(r.error(), Some(&Error::MissingLeg(LegKind::Pulsar)));

    // Wrong set root, epoch, chain, era: header checks before any leg.
    let forge = |f: &dyn Fn(&mut Header)| {
        let mut b = net.builder(4, 0, [4; 32]);
        f(b.header_mut());
        let s = signers(quorum.clone(), vec![], vec![]);
        let mut n2 = chain(4);
        n2.sign(b, &s).unwrap()
    };
    for (f, code) in [
        (
            &(|h: &mut Header| h.set_root[0] ^= 1) as &dyn Fn(&mut Header),
            "SET_ROOT_MISMATCH",
        ),
        (&|h: &mut Header| h.epoch = 1, "WRONG_EPOCH"),
        (&|h: &mut Header| h.chain_id = 8, "WRONG_CHAIN"),
        (&|h: &mut Header| h.key_era = 1, "KEY_ERA_MISMATCH"),
    ] {
        let c = forge(f);
        let r = verify(&c, &t, &Policy::PQ_OFF, &Options::default());
        assert_eq!(code_of(&r), Some(code));
        assert!(r.legs().all(|l| l.verdict == Verdict::NotChecked));
    }

    // Unknown signer: a bit beyond the set in the BLS bitmap.
    let view = CertificateView::parse(&bls_only).unwrap();
    let at = 6 + view.header().to_bytes().len() + 1 + 5 + 2;
    let mut b = bls_only.clone();
    b[at] |= 1 << 4;
    let r = verify(&b, &t, &Policy::PQ_OFF, &Options::default());
    assert_eq!(
        r.error(),
        Some(&Error::UnknownSigner {
            kind: LegKind::Bls,
            index: 4
        })
    );
    assert_eq!(r.leg(LegKind::Bls).unwrap().verdict, Verdict::Invalid);
    // A bitmap sized for another set.
    let mut b = bls_only.clone();
    b[at - 1] = 5;
    assert_eq!(
        code_of(&verify(&b, &t, &Policy::PQ_OFF, &Options::default())),
        Some("BITMAP_SIZE_MISMATCH")
    );
    // The builder refuses duplicate and unknown signers outright.
    let mut builder = net.builder(9, 0, [9; 32]);
    let sig = net.bls_key(0).unwrap().sign(&builder.message());
    builder.add_bls(0, &sig).unwrap();
    assert_eq!(builder.add_bls(0, &sig).unwrap_err().code(), "DUPLICATE_SIGNER");
    assert_eq!(builder.add_bls(4, &sig).unwrap_err().code(), "UNKNOWN_SIGNER");
}

#[test]
fn certificate_decoding_is_strict() {
    let mut net = chain(5);
    let cert = net.certificate(1, 0, [1; 32], &Signers::all(4)).unwrap();
    let view = CertificateView::parse(&cert).unwrap();
    assert_eq!(view.legs().count(), 3);
    assert_eq!(&cert[..4], &CERT_MAGIC);
    for cut in 0..cert.len() {
        let e = CertificateView::parse(&cert[..cut]).unwrap_err();
        assert!(!e.code().is_empty(), "cut {cut}");
    }
    let mut long = cert.clone();
    long.push(0);
    assert_eq!(
        CertificateView::parse(&long).unwrap_err().code(),
        "TRAILING_BYTES"
    );
    let t = trusted(&net);
    let r = verify(&long, &t, &Policy::PQ_FAST, &Options::default());
    assert_eq!(code_of(&r), Some("TRAILING_BYTES"));
    // Every bit of the envelope and header, and a sample of the rest: no panic, and nothing
    // that still verifies.
    let step = (cert.len() / 1500).max(1);
    let every = Policy::custom(LegSet::of(&[LegKind::Bls, LegKind::Pulsar, LegKind::MlDsaSet])).unwrap();
    assert!(verify(&cert, &t, &every, &Options::default()).is_valid());
    for at in (0..160).chain((160..cert.len()).step_by(step)) {
        let mut b = cert.clone();
        b[at] ^= 1 << (at % 8);
        let r = verify(&b, &t, &every, &Options::default());
        assert!(!r.is_valid(), "flip at {at} still verifies");
    }
    // Legs: out of order, repeated, unknown, none.
    let h = *view.header();
    let sig = [0u8; 3309];
    let puls = quasar_pq::pulsar::frame::SignatureFrame::encode(Mode::MlDsa65, &sig).unwrap();
    let err = |legs: &[(u8, &[u8])]| CertificateView::parse(&encode(&h, legs)).unwrap_err().code();
    assert_eq!(err(&[(2, &puls), (2, &puls)]), "DUPLICATE_LEG");
    assert_eq!(err(&[(2, &puls), (1, &[0, 1, 1])]), "DUPLICATE_LEG");
    assert_eq!(err(&[(6, &[])]), "UNKNOWN_LEG");
    assert_eq!(err(&[]), "INVALID_VALUE");
    assert_eq!(err(&[(1, &[0, 4, 0])]), "NO_SIGNERS");
    // A Corona leg is a CORS frame of exactly its length (values are checked by verify).
    let cors = corona_frame();
    let corona_bytes = encode(&h, &[(3, &cors)]);
    let corona = CertificateView::parse(&corona_bytes).unwrap();
    assert_eq!(corona.leg(LegKind::Corona).unwrap().kind(), LegKind::Corona);
    assert_eq!(err(&[(3, b"CORS")]), "TOO_SHORT");
    assert_eq!(err(&[(3, &cors[..cors.len() - 1])]), "LENGTH_MISMATCH");
    let mut wrong = cors.clone();
    wrong[0] ^= 1;
    assert_eq!(err(&[(3, &wrong)]), "BAD_MAGIC");
    let over = [&cors[..], &[0]].concat();
    assert_eq!(err(&[(3, &over)]), "COUNT_TOO_LARGE");
    // A Pulsar frame of another ML-DSA set than the group key's.
    let c = encode(&h, &[(2, &puls)]);
    let p = Policy::custom(LegSet::of(&[LegKind::Pulsar, LegKind::MlDsaSet])).unwrap();
    assert_eq!(
        code_of(&verify(&c, &t, &p, &Options::full())),
        Some("LEG_MODE_MISMATCH")
    );
}

#[test]
fn keys_the_set_lacks_and_policies_it_cannot_meet() {
    // BLS only: no Pulsar group, no ML-DSA keys.
    let mut net = Devnet::new(DevnetConfig::default(), &[1, 1, 1]).unwrap();
    let t = trusted(&net);
    let cert = net
        .certificate(1, 0, [1; 32], &signers(vec![0, 1, 2], vec![], vec![]))
        .unwrap();
    assert!(verify(&cert, &t, &Policy::PQ_OFF, &Options::default()).is_valid());
    let r = verify(&cert, &t, &Policy::STRICT_PQ_FAST, &Options::full());
    assert_eq!(r.error(), Some(&Error::MissingLeg(LegKind::Pulsar)));
    assert_eq!(
        r.leg(LegKind::MlDsaSet).unwrap().reason,
        Some(Error::MissingLeg(LegKind::MlDsaSet))
    );
    assert_eq!(r.leg(LegKind::Bls).unwrap().verdict, Verdict::NotRequired);
    // 2 of 3 equal weights is not more than two thirds; 3 of 3 is.
    let two = net
        .certificate(2, 0, [2; 32], &signers(vec![0, 2], vec![], vec![]))
        .unwrap();
    assert_eq!(
        code_of(&verify(&two, &t, &Policy::PQ_OFF, &Options::default())),
        Some("QUORUM_NOT_MET")
    );
}

// ---------------------------------------------------------------------------------------
// The light client.

#[test]
fn light_client_follows_epochs_and_refuses_skips_forgeries_and_stale_certificates() {
    let mut net = chain(6);
    let genesis = net.set().clone();
    let mut client = LightClient::new(genesis.clone(), Policy::PQ_FAST).unwrap();
    let all = Signers::all(4);
    let c1 = net.certificate(1, 0, [1; 32], &all).unwrap();
    let a = client.update(&c1, None).unwrap();
    assert_eq!((a.header.height, a.new_epoch), (1, None));
    assert_eq!(client.update(&c1, None).unwrap_err().code(), "STALE_CERTIFICATE");
    let c2 = net.certificate(2, 0, [2; 32], &all).unwrap();
    assert_eq!(
        client.update(&c2, Some(genesis.as_bytes())).unwrap_err().code(),
        "UNEXPECTED_NEXT_SET"
    );

    // End of epoch 0: the validator at position 3 leaves, two join (weights 25, 35); the
    // Pulsar group is reshared to the five under the same key.
    let key_before = genesis.view().pulsar_group_key().unwrap().to_vec();
    let (end, next) = net
        .end_epoch(3, 0, [3; 32], &all, &[3], &[25, 35], false)
        .unwrap();
    assert_eq!(next.epoch(), 1);
    assert_eq!(next.len(), 5);
    assert_eq!(next.key_era(), 0, "a reshare keeps the era");
    assert_eq!(
        next.view().pulsar_group_key().unwrap(),
        &key_before[..],
        "and the key"
    );
    assert_eq!(client.update(&end, None).unwrap_err().code(), "MISSING_NEXT_SET");
    // A forged next set: the genuine one with one weight changed.
    let mut forged = next.to_bytes();
    let first_weight = 37 + key_before.len() + 2 + 32;
    forged[first_weight + 7] ^= 1;
    assert!(
        ValidatorSet::from_bytes(&forged).is_ok(),
        "still a well-formed set"
    );
    assert_eq!(
        client.update(&end, Some(&forged)).unwrap_err().code(),
        "NEXT_SET_MISMATCH"
    );
    // A certificate of epoch 1 before the epoch change.
    let next_block = {
        let mut probe = chain(6);
        let _ = probe.certificate(1, 0, [1; 32], &all).unwrap();
        let _ = probe.certificate(2, 0, [2; 32], &all).unwrap();
        probe
            .end_epoch(3, 0, [3; 32], &all, &[3], &[25, 35], false)
            .unwrap();
        probe.certificate(4, 0, [4; 32], &Signers::all(5)).unwrap()
    };
    assert_eq!(
        client.update(&next_block, None).unwrap_err().code(),
        "SKIPPED_EPOCH"
    );
    let a = client.update(&end, Some(next.as_bytes())).unwrap();
    assert_eq!(a.new_epoch, Some(1));
    assert_eq!(client.epoch(), 1);
    assert_eq!(client.root(), next.root());
    assert_eq!(
        client.total_weight(),
        10 + 20 + 30 + 40 - net_removed(&genesis, 3) + 60
    );
    // The old epoch's certificates are stale now.
    assert_eq!(client.update(&c2, None).unwrap_err().code(), "STALE_CERTIFICATE");
    // Epoch 1 blocks, signed by the reshared group and the new set.
    let c4 = net.certificate(4, 0, [4; 32], &Signers::all(5)).unwrap();
    assert_eq!(c4, next_block, "the devnet is deterministic");
    client.update(&c4, None).unwrap();

    // End of epoch 1 with a new key ceremony: the next era, another key.
    let (end, next2) = net
        .end_epoch(5, 0, [5; 32], &Signers::all(5), &[], &[], true)
        .unwrap();
    assert_eq!(next2.key_era(), 1);
    assert_ne!(next2.view().pulsar_group_key(), next.view().pulsar_group_key());
    client.update(&end, Some(next2.as_bytes())).unwrap();
    assert_eq!(client.epoch(), 2);
    let c6 = net.certificate(6, 0, [6; 32], &Signers::all(5)).unwrap();
    client.update(&c6, None).unwrap();
}

/// The weight of the validator at `position` of `set`.
fn net_removed(set: &ValidatorSet, position: usize) -> u64 {
    set.view().entry(position).unwrap().weight
}

#[test]
fn epoch_changes_that_break_the_era_rule_or_skip_are_refused() {
    let mut net = chain(7);
    let mut client = LightClient::new(net.set().clone(), Policy::PQ_OFF).unwrap();
    let all = Signers::all(4);
    // Next sets the quorum committed to, but that break a rule: built by hand, signed by
    // the devnet's current set.
    let view = net.set().view();
    let params = |epoch, era, key: Option<Vec<u8>>| SetParams {
        chain_id: 7,
        epoch,
        key_era: era,
        bls: true,
        mldsa: Some(Mode::MlDsa44),
        slhdsa: None,
        pulsar_group_key: key,
        corona_group_key: None,
    };
    let validators: Vec<Validator> = view
        .entries()
        .map(|e| Validator {
            id: *e.id,
            weight: e.weight,
            bls: Some((*e.bls_public_key.unwrap(), *e.bls_pop.unwrap())),
            mldsa: e.mldsa_public_key.map(<[u8]>::to_vec),
            slhdsa: None,
        })
        .collect();
    let key = view.pulsar_group_key().map(<[u8]>::to_vec);
    let mut other_key = key.clone().unwrap();
    let end = other_key.len() - 1;
    other_key[end] ^= 1;
    let cases = [
        (params(2, 0, key.clone()), "SKIPPED_EPOCH"),
        (params(0, 0, key.clone()), "SKIPPED_EPOCH"),
        (params(1, 0, Some(other_key)), "ERA_KEY_CHANGED"),
        (
            SetParams {
                chain_id: 8,
                ..params(1, 0, key.clone())
            },
            "WRONG_CHAIN",
        ),
    ];
    for (height, (p, code)) in (1..).zip(cases) {
        let next = ValidatorSet::new(&p, validators.clone()).unwrap();
        let b = net
            .builder(height, 0, [u8::try_from(height).unwrap(); 32])
            .ending_epoch(&next);
        let cert = net.sign(b, &signers(all.bls.clone(), vec![], vec![])).unwrap();
        assert_eq!(
            client.update(&cert, Some(next.as_bytes())).unwrap_err().code(),
            code
        );
    }
    // A later era is fine; then going back is a regression.
    let next = ValidatorSet::new(&params(1, 3, key.clone()), validators.clone()).unwrap();
    let b = net.builder(10, 0, [10; 32]).ending_epoch(&next);
    let cert = net.sign(b, &signers(all.bls.clone(), vec![], vec![])).unwrap();
    client.update(&cert, Some(next.as_bytes())).unwrap();
    assert_eq!(client.epoch(), 1);
    let back = ValidatorSet::new(&params(2, 2, key), validators).unwrap();
    let mut b = CertificateBuilder::new(&next, 11, 0, [11; 32]).ending_epoch(&back);
    let m = b.message();
    for i in 0..4 {
        b.add_bls(i, &net.bls_key(i).unwrap().sign(&m)).unwrap();
    }
    let cert = b.build().unwrap();
    assert_eq!(
        client.update(&cert, Some(back.as_bytes())).unwrap_err().code(),
        "KEY_ERA_REGRESSION"
    );
    // A certificate final under a minority is refused with the report.
    let mut b = CertificateBuilder::new(&next, 12, 0, [12; 32]);
    let m = b.message();
    b.add_bls(0, &net.bls_key(0).unwrap().sign(&m)).unwrap();
    let refused = client.update(&b.build().unwrap(), None).unwrap_err();
    assert_eq!(refused.code(), "QUORUM_NOT_MET");
    assert!(refused.report.is_some());
}

// ---------------------------------------------------------------------------------------
// The BLS leg against the Ethereum test keys.

fn vector_file(name: &str) -> serde_json::Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/vectors/bls")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn unhex(v: &serde_json::Value) -> Vec<u8> {
    hex::decode(v.as_str().unwrap().trim_start_matches("0x")).unwrap()
}

/// A set whose validators hold the secret keys of the Ethereum `sign` vectors: each key's
/// signature of each vector message is the vector's, and the certificate's BLS leg is a
/// standard FastAggregateVerify signature over the signers' keys.
#[test]
fn bls_leg_is_a_standard_aggregate_under_the_ethereum_vector_keys() {
    let cases = vector_file("sign.json");
    let mut keys: Vec<Vec<u8>> = Vec::new();
    let mut checked = 0;
    for c in cases.as_array().unwrap() {
        let sk = unhex(&c["input"]["privkey"]);
        if c["output"].is_null() {
            continue;
        }
        let msg = unhex(&c["input"]["message"]);
        assert_eq!(bls::sign(&sk, &msg).unwrap().to_vec(), unhex(&c["output"]));
        checked += 1;
        if !keys.contains(&sk) {
            keys.push(sk);
        }
    }
    assert!(
        checked >= 3 && keys.len() >= 3,
        "{checked} cases, {} keys",
        keys.len()
    );
    let secret: Vec<bls::SigningKey> = keys
        .iter()
        .map(|k| bls::SigningKey::from_bytes(k.as_slice().try_into().unwrap()).unwrap())
        .collect();
    let validators = secret
        .iter()
        .enumerate()
        .map(|(i, sk)| Validator {
            id: [u8::try_from(i + 1).unwrap(); 32],
            weight: 1,
            bls: Some((sk.verifying_key().to_bytes(), sk.prove_possession().to_bytes())),
            mldsa: None,
            slhdsa: None,
        })
        .collect();
    let params = SetParams {
        chain_id: 1,
        bls: true,
        ..SetParams::default()
    };
    let set = ValidatorSet::new(&params, validators).unwrap();
    let mut b = CertificateBuilder::new(&set, 1, 0, [0xEE; 32]);
    let m = b.message();
    for (i, sk) in secret.iter().enumerate() {
        b.add_bls(i, &sk.sign(&m)).unwrap();
    }
    let cert = b.build().unwrap();
    let t = TrustedSet::new(set.clone()).unwrap();
    assert!(verify(&cert, &t, &Policy::PQ_OFF, &Options::default()).is_valid());
    let view = CertificateView::parse(&cert).unwrap();
    let quasar_pq::cert::LegView::Bls { signature, signers } = view.leg(LegKind::Bls).unwrap() else {
        panic!("no BLS leg")
    };
    assert_eq!(signers.count(), secret.len());
    let pks: Vec<[u8; 48]> = secret.iter().map(|s| s.verifying_key().to_bytes()).collect();
    let refs: Vec<&[u8]> = pks.iter().map(|k| &k[..]).collect();
    bls::fast_aggregate_verify(&refs, &m, &signature[..]).unwrap();
    let sigs: Vec<[u8; 96]> = secret.iter().map(|s| s.sign(&m).to_bytes()).collect();
    let sig_refs: Vec<&[u8]> = sigs.iter().map(|s| &s[..]).collect();
    assert_eq!(&bls::aggregate(&sig_refs).unwrap(), *signature);
}

// ---------------------------------------------------------------------------------------
// Parse + structure at K = 21: no allocation.

#[test]
fn parse_and_check_at_21_validators_allocate_nothing() {
    let config = DevnetConfig {
        chain_id: 3,
        seed: [21; 32],
        bls: true,
        mldsa: None,
        magnetar: None,
        pulsar: Some(Mode::MlDsa65),
        pulsar_signing: PulsarSigning::Custody,
        corona: false,
    };
    let mut net = Devnet::new(config, &[1; 21]).unwrap();
    let t = trusted(&net);
    let cert = net.certificate(1, 0, [1; 32], &Signers::first(15, 21)).unwrap();
    for policy in [Policy::PQ_OFF, Policy::PQ_FAST] {
        let (r, n) = allocations(|| {
            let view = CertificateView::parse(&cert).unwrap();
            check(&view, &t, &policy).map(|c| c.tally(LegKind::Bls).weight)
        });
        assert_eq!(r, Ok(Some(15)));
        assert_eq!(n, 0, "{policy}");
    }
    assert!(verify(&cert, &t, &Policy::PQ_FAST, &Options::default()).is_valid());
}

// ---------------------------------------------------------------------------------------
// The Magnetar leg.

/// The payload of leg `kind` of a certificate (walking the leg headers after the header).
fn leg_payload(cert: &[u8], kind: LegKind) -> Vec<u8> {
    let view = CertificateView::parse(cert).unwrap();
    let mut at = 6 + view.header().to_bytes().len() + 1;
    loop {
        let len = u32::from_be_bytes(cert[at + 1..at + 5].try_into().unwrap()) as usize;
        if cert[at] == kind.to_byte() {
            return cert[at + 5..at + 5 + len].to_vec();
        }
        at += 5 + len;
    }
}

/// `cert` with leg `kind`'s payload replaced.
fn with_leg(cert: &[u8], kind: LegKind, payload: &[u8]) -> Vec<u8> {
    let view = CertificateView::parse(cert).unwrap();
    let legs: Vec<(u8, Vec<u8>)> = view
        .legs()
        .map(|l| {
            let k = l.kind();
            (
                k.to_byte(),
                if k == kind {
                    payload.to_vec()
                } else {
                    leg_payload(cert, k)
                },
            )
        })
        .collect();
    let list: Vec<(u8, &[u8])> = legs.iter().map(|(k, p)| (*k, &p[..])).collect();
    encode(view.header(), &list)
}

#[test]
fn magnetar_leg_under_pq_heavy_and_strict_pq_heavy() {
    use quasar_pq::magnetar::Mode as MagnetarMode;
    let config = DevnetConfig {
        chain_id: 9,
        seed: [9; 32],
        bls: true,
        mldsa: None,
        magnetar: Some(MagnetarMode::Shake192f),
        pulsar: Some(Mode::MlDsa44),
        pulsar_signing: PulsarSigning::Custody,
        corona: false,
    };
    let mut net = Devnet::new(config, &[1, 1, 1, 1]).unwrap();
    let t = trusted(&net);
    let cert = net.certificate(1, 0, [1; 32], &Signers::first(3, 4)).unwrap();
    for policy in [Policy::PQ_HEAVY, Policy::STRICT_PQ_HEAVY] {
        let r = verify(&cert, &t, &policy, &Options::default());
        assert!(r.is_valid(), "{policy}: {r}");
        let m = r.leg(LegKind::Magnetar).unwrap();
        assert_eq!(
            (m.verdict, m.signers, m.weight),
            (Verdict::Valid, Some(3), Some(3))
        );
    }
    let maga = leg_payload(&cert, LegKind::Magnetar);
    let sig_len = MagnetarMode::Shake192f.signature_len();
    assert_eq!(maga.len(), 9 + 3 * (32 + sig_len));
    let code = |payload: &[u8]| {
        let c = with_leg(&cert, LegKind::Magnetar, payload);
        let r = verify(&c, &t, &Policy::PQ_HEAVY, &Options::full());
        assert!(!r.is_valid());
        assert_eq!(r.leg(LegKind::Magnetar).unwrap().verdict, Verdict::Invalid, "{r}");
        r.code().unwrap()
    };
    // A duplicate signer: the second id repeats the first.
    let mut dup = maga.clone();
    dup.copy_within(9..41, 41);
    assert_eq!(code(&dup), "DUPLICATE_SIGNER");
    // An unknown signer: the last id replaced by one the set does not have.
    let mut unknown = maga.clone();
    unknown[9 + 64..9 + 96].fill(0xFF);
    assert_eq!(code(&unknown), "UNKNOWN_SIGNER");
    // One short of the quorum: two of four.
    let mut short = Vec::new();
    short.extend_from_slice(&maga[..7]);
    short.extend_from_slice(&2u16.to_be_bytes());
    short.extend_from_slice(&maga[9..9 + 64]);
    short.extend_from_slice(&maga[9 + 96..9 + 96 + 2 * sig_len]);
    assert_eq!(code(&short), "QUORUM_NOT_MET");
    // A signature broken.
    let mut bad = maga.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    assert_eq!(code(&bad), "INVALID_SIGNATURE");
    // Trailing bytes inside the leg.
    let mut long = maga.clone();
    long.push(0);
    assert_eq!(code(&long), "TRAILING_BYTES");
}

// ---------------------------------------------------------------------------------------
// Identity: what a verifier checked, and nothing else.

#[test]
fn a_leg_the_policy_does_not_require_never_reaches_the_certificate_id() {
    let mut net = chain(5);
    let t = trusted(&net);
    let cert = net.certificate(1, 0, [5; 32], &Signers::all(4)).unwrap();
    let fast = verify(&cert, &t, &Policy::PQ_FAST, &Options::default());
    let strict = verify(&cert, &t, &Policy::STRICT_PQ_FAST, &Options::default());
    assert!(fast.is_valid() && strict.is_valid(), "{fast}\n{strict}");
    let id = *fast.id().unwrap();
    // Each policy's id covers its own legs: pq-fast BLS + Pulsar, strict-pq-fast Pulsar +
    // the ML-DSA set.
    let view = CertificateView::parse(&cert).unwrap();
    assert_eq!(id, view.id(Policy::PQ_FAST.legs()));
    assert_eq!(strict.id(), Some(&view.id(Policy::STRICT_PQ_FAST.legs())));
    assert_ne!(fast.id(), strict.id());

    // The ML-DSA-set leg zeroed (its signatures) or stripped: pq-fast never examines it, so
    // the id — and the canonical form a store keeps — is unchanged; strict-pq-fast refuses
    // both, so neither can pass for the certificate it needs.
    let mut zeroed_leg = leg_payload(&cert, LegKind::MlDsaSet);
    let sigs = zeroed_leg.len() - 4 * Mode::MlDsa44.signature_len();
    zeroed_leg[sigs..].fill(0);
    let zeroed = with_leg(&cert, LegKind::MlDsaSet, &zeroed_leg);
    let stripped = view.canonical(Policy::PQ_FAST.legs()).unwrap();
    assert!(stripped.len() < cert.len());
    for changed in [&zeroed, &stripped] {
        assert_ne!(changed, &cert);
        let r = verify(changed, &t, &Policy::PQ_FAST, &Options::default());
        assert!(r.is_valid(), "{r}");
        assert_eq!(r.id(), Some(&id));
        let v = CertificateView::parse(changed).unwrap();
        assert_eq!(v.canonical(Policy::PQ_FAST.legs()).unwrap(), stripped);
        let r = verify(changed, &t, &Policy::STRICT_PQ_FAST, &Options::default());
        assert!(!r.is_valid());
        assert_eq!(r.id(), None, "a refused certificate has no identity");
    }
    assert_eq!(
        verify(&zeroed, &t, &Policy::STRICT_PQ_FAST, &Options::default()).code(),
        Some("INVALID_SIGNATURE")
    );
    assert_eq!(
        verify(&stripped, &t, &Policy::STRICT_PQ_FAST, &Options::default()).code(),
        Some("MISSING_LEG")
    );
    // A byte of a leg the policy checked changes the verdict, never just the id.
    let mut bls_leg = leg_payload(&cert, LegKind::Bls);
    let last = bls_leg.len() - 1;
    bls_leg[last] ^= 1;
    let r = verify(
        &with_leg(&cert, LegKind::Bls, &bls_leg),
        &t,
        &Policy::PQ_FAST,
        &Options::default(),
    );
    assert!(!r.is_valid() && r.id().is_none());
    // The light client reports the same identity.
    let mut client = LightClient::new(net.set().clone(), Policy::PQ_FAST).unwrap();
    let accepted = client.update(&zeroed, None).unwrap();
    assert_eq!(accepted.report.id(), Some(&id));
}

#[test]
fn certificates_longer_than_the_set_admits_are_too_long_and_the_longest_parses() {
    use quasar_pq::cert::max_certificate_len;
    use quasar_pq::magnetar::Mode as MagnetarMode;
    let mut net = chain(6);
    let t = trusted(&net);
    let n = net.set().len();
    let max = max_certificate_len(n);
    // The longest encoding the format admits for n validators: every leg present at its
    // largest (all n signers, ML-DSA-87, SLH-DSA-SHAKE-192f, a full Corona leg).
    let genuine = net.certificate(1, 0, [6; 32], &Signers::all(n)).unwrap();
    let mut header = *CertificateView::parse(&genuine).unwrap().header();
    header.next_set_root = Some([7; 32]);
    let bitmap = |n: usize| {
        let mut b = u16::try_from(n).unwrap().to_be_bytes().to_vec();
        let mut bits = vec![0u8; n.div_ceil(8)];
        for i in 0..n {
            bits[i / 8] |= 1 << (i % 8);
        }
        b.extend(bits);
        b
    };
    let mut bls_leg = bitmap(n);
    bls_leg.extend([0u8; 96]);
    let mut puls = b"PULS".to_vec();
    puls.extend(1u16.to_be_bytes());
    puls.push(Mode::MlDsa87.to_byte());
    puls.extend(
        u32::try_from(Mode::MlDsa87.signature_len())
            .unwrap()
            .to_be_bytes(),
    );
    puls.resize(11 + Mode::MlDsa87.signature_len(), 0);
    let corona = corona_frame();
    let sig = MagnetarMode::Shake192f.signature_len();
    let mut maga = b"MAGA".to_vec();
    maga.extend(1u16.to_be_bytes());
    maga.push(MagnetarMode::Shake192f.to_byte());
    maga.extend(u16::try_from(n).unwrap().to_be_bytes());
    for i in 0..n {
        let mut id = [0u8; 32];
        id[31] = u8::try_from(i + 1).unwrap();
        maga.extend(id);
    }
    maga.resize(maga.len() + n * sig, 0);
    let mut mldsa_leg = bitmap(n);
    mldsa_leg.push(Mode::MlDsa87.to_byte());
    mldsa_leg.resize(mldsa_leg.len() + n * Mode::MlDsa87.signature_len(), 0);
    let legs: [(u8, &[u8]); 5] = [
        (1, &bls_leg),
        (2, &puls),
        (3, &corona),
        (4, &maga),
        (5, &mldsa_leg),
    ];
    let longest = encode(&header, &legs);
    assert_eq!(longest.len(), max, "the bound is exactly the longest encoding");
    CertificateView::parse(&longest).expect("the longest encoding parses");
    // It is not TOO_LONG (it fails later, on its content); one byte more is, before parsing.
    let r = verify(&longest, &t, &Policy::PQ_OFF, &Options::default());
    assert_ne!(r.code(), Some("TOO_LONG"), "{r}");
    let mut over = longest.clone();
    over.push(0);
    let r = verify(&over, &t, &Policy::PQ_OFF, &Options::default());
    assert_eq!(r.code(), Some("TOO_LONG"));
    assert!(matches!(r.error(), Some(Error::TooLong { len, max: m, .. }) if *len == max + 1 && *m == max));
    let mut client = LightClient::new(net.set().clone(), Policy::PQ_OFF).unwrap();
    assert_eq!(client.max_certificate_len(), max);
    assert_eq!(client.update(&over, None).unwrap_err().code(), "TOO_LONG");
    // Sets: the longest any call accepts, then refused before parsing.
    let too_long_set = vec![0u8; quasar_pq::cert::MAX_SET_LEN + 1];
    assert_eq!(
        TrustedSet::from_bytes(&too_long_set).unwrap_err().code(),
        "TOO_LONG"
    );
}

/// A `CORS` frame of the right magic, version and length, all values zero.
fn corona_frame() -> Vec<u8> {
    let mut f = b"CORS".to_vec();
    f.extend(2u16.to_be_bytes());
    f.resize(quasar_pq::corona::SIGNATURE_LEN, 0);
    f
}

// ---------------------------------------------------------------------------------------
// The Corona leg.

#[test]
fn the_corona_leg_is_verified_under_the_strict_policies_and_its_key_moves_only_with_the_era() {
    let config = DevnetConfig {
        chain_id: 9,
        mldsa: Some(Mode::MlDsa44),
        pulsar: Some(Mode::MlDsa44),
        corona: true,
        ..DevnetConfig::default()
    };
    let mut net = Devnet::new(config, &[1, 1, 1, 1]).unwrap();
    assert_eq!(net.corona_threshold(), Some(3));
    assert_eq!(net.corona_members(), [0, 1, 2, 3]);
    let t = trusted(&net);
    let three = Signers::first(3, 4);
    let cert = net.certificate(1, 0, [1; 32], &three).unwrap();
    for p in [Policy::PQ_STRICT, Policy::STRICT_PQ_STRICT] {
        let r = verify(&cert, &t, &p, &Options::full());
        assert!(r.is_valid(), "{p}: {:?}", r.error());
    }
    // Below the Corona threshold the group cannot sign at all.
    let mut two = three.clone();
    two.corona = vec![0, 1];
    assert_eq!(
        net.certificate(2, 0, [2; 32], &two).unwrap_err().code(),
        "WRONG_SIGNER_COUNT"
    );
    // A genuine Corona signature of another block is refused, and only under a policy that
    // requires the leg.
    let other = net.certificate(3, 0, [3; 32], &three).unwrap();
    let view = CertificateView::parse(&other).unwrap();
    let foreign = view.leg_payload(LegKind::Corona).unwrap().to_vec();
    let mut b = net.builder(4, 0, [4; 32]);
    let m = b.message();
    for i in 0..3 {
        b.add_bls(i, &net.bls_key(i).unwrap().sign(&m)).unwrap();
    }
    b.corona(&foreign).unwrap();
    let spliced = b.build().unwrap();
    let custom = Policy::custom(LegSet::of(&[LegKind::Bls, LegKind::Corona])).unwrap();
    let r = verify(&spliced, &t, &custom, &Options::full());
    assert_eq!(code_of(&r), Some("INVALID_SIGNATURE"));
    assert_eq!(r.error().and_then(Error::leg), Some(LegKind::Corona));
    assert!(verify(&spliced, &t, &Policy::PQ_OFF, &Options::full()).is_valid());
    // A set without a Corona key cannot meet a policy that requires the leg.
    let plain = chain(6);
    let pt = trusted(&plain);
    let mut b = plain.builder(1, 0, [1; 32]);
    b.corona(&foreign).unwrap();
    let m = b.message();
    for i in 0..4 {
        b.add_bls(i, &plain.bls_key(i).unwrap().sign(&m)).unwrap();
    }
    let r = verify(&b.build().unwrap(), &pt, &custom, &Options::full());
    assert_eq!(code_of(&r), Some("MISSING_KEYS"));
    // The next set keeps the era: its Corona key must not change.
    let mut client = LightClient::new(net.set().clone(), Policy::PQ_STRICT).unwrap();
    let (params, validators) = validators_of(net.set());
    let other_key = Devnet::new(
        DevnetConfig {
            chain_id: 9,
            seed: [1; 32],
            corona: true,
            ..DevnetConfig::default()
        },
        &[1, 1],
    )
    .unwrap()
    .set()
    .view()
    .corona_group_key()
    .unwrap()
    .to_vec();
    for (era, code) in [(0, Some("ERA_KEY_CHANGED")), (1, None)] {
        let next = ValidatorSet::new(
            &SetParams {
                epoch: 1,
                key_era: era,
                corona_group_key: Some(other_key.clone()),
                ..params.clone()
            },
            validators.clone(),
        )
        .unwrap();
        let b = net.builder(5 + era, 0, [5; 32]).ending_epoch(&next);
        let cert = net.sign(b, &three).unwrap();
        let got = client.update(&cert, Some(next.as_bytes()));
        assert_eq!(got.err().map(|e| e.code()), code, "era {era}");
    }
    assert_eq!(client.epoch(), 1);
}

#[test]
fn validator_sets_with_a_corona_key_have_one_encoding() {
    let config = DevnetConfig {
        corona: true,
        ..DevnetConfig::default()
    };
    let net = Devnet::new(config, &[1, 1, 1]).unwrap();
    let bytes = net.set().as_bytes().to_vec();
    assert_eq!(u16::from_be_bytes([bytes[4], bytes[5]]), 2, "version 2");
    let key = net.set().view().corona_group_key().unwrap();
    assert_eq!(key.len(), quasar_pq::corona::GROUP_KEY_LEN);
    // The same set at version 1 (no key) is another set; version 2 with no key is refused.
    let (params, validators) = validators_of(net.set());
    let without = ValidatorSet::new(
        &SetParams {
            corona_group_key: None,
            ..params
        },
        validators,
    )
    .unwrap();
    assert_eq!(
        u16::from_be_bytes([without.as_bytes()[4], without.as_bytes()[5]]),
        1
    );
    assert_ne!(without.root(), net.set().root());
    let key_at = 37; // no Pulsar key: the Corona length follows the PULG length (0)
    let mut empty = bytes[..key_at + 4].to_vec();
    empty[key_at..key_at + 4].copy_from_slice(&[0; 4]);
    empty.extend_from_slice(&bytes[key_at + 4 + key.len()..]);
    assert_eq!(
        ValidatorSet::from_bytes(&empty).unwrap_err().code(),
        "INVALID_VALUE"
    );
    // Truncated, extended and bit-flipped keys are refused.
    let mut short = bytes.clone();
    short.remove(key_at + 4 + 100);
    assert!(ValidatorSet::from_bytes(&short).is_err());
    let mut flipped = bytes.clone();
    flipped[key_at + 4] ^= 1; // the CORG magic
    assert_eq!(
        ValidatorSet::from_bytes(&flipped).unwrap_err().code(),
        "INVALID_VALUE"
    );
    assert!(ValidatorSet::from_bytes(&[&bytes[..], &[0]].concat()).is_err());
}
