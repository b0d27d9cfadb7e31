//! Lens (FROST, RFC 9591) through the library's parties on the simulator: key generation
//! (trusted dealer and the LSS Feldman DKG), signing with standard Ed25519 / BIP-340 /
//! Ristretto255 output checked by independent verifiers, every peer fault in
//! signing and in dealing, the `hazmat` cheats, parties keeping their state on error,
//! strict decoders, LSS resharing with the group key unchanged and epochs never mixed,
//! and the activation certificate.
//!
//! Run: `cargo test --features sim,hazmat --test suite lens::`.

// Helpers outside `#[test]` functions unwrap too: a panic here is a failed test
// (clippy.toml's allow-unwrap-in-tests covers only the test functions themselves).
#![allow(clippy::unwrap_used)]

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use common::sim::*;
use quasar_pq::lens::{
    self, CoordinatorParty, Curve, DealerShare, Error, KeyShare, PublicKeyPackage, SignatureShare,
    SignerParty, SigningCommitments, SigningPackage,
};
use quasar_pq::lss::{
    self, ActivationCertificate, ActivationFault, ActivationKind, ActivationParty, AnyGroupPublic,
    DealMessage,
};
use quasar_pq::party::hazmat::Cheat;
use quasar_pq::party::sim::{party_rng, Channel, Envelope, Sent};
use quasar_pq::party::{Party, Step};
use quasar_pq::vss;
use quasar_pq::{wire, PartyId};

// ---------------------------------------------------------------------------------------
// Helpers

fn party_set(range: impl IntoIterator<Item = u16>) -> BTreeSet<PartyId> {
    range.into_iter().map(pid).collect()
}

/// Trusted-dealer key generation; every share crosses as bytes.
fn dealer(curve: Curve, t: u16, n: u16, label: &str) -> (BTreeMap<PartyId, KeyShare>, PublicKeyPackage) {
    let mut rng = party_rng(label.as_bytes(), pid(1));
    let (dealt, public) = lens::deal(curve, t, &party_set(1..=n), &mut rng).unwrap();
    assert_eq!(dealt.len(), usize::from(n));
    let shares = dealt
        .into_iter()
        .map(|(p, d)| {
            assert_eq!(d.to(), p);
            let d = DealerShare::from_bytes(curve, &d.to_bytes()).unwrap();
            (p, KeyShare::from_dealer(d, &public).unwrap())
        })
        .collect();
    (shares, public)
}

fn refs<'a>(shares: &'a BTreeMap<PartyId, KeyShare>, set: &[PartyId]) -> Vec<&'a KeyShare> {
    set.iter().map(|p| &shares[p]).collect()
}

/// The first and the last `t` sign, under the independent verifiers.
fn signs(shares: &BTreeMap<PartyId, KeyShare>, public: &PublicKeyPackage, label: &str) {
    let t = usize::from(public.threshold());
    let all: Vec<PartyId> = shares.keys().copied().collect();
    assert!(all.len() >= t);
    lens_sign(
        &refs(shares, &all[..t]),
        public,
        format!("{label}: first t").as_bytes(),
        label,
    );
    lens_sign(
        &refs(shares, &all[all.len() - t..]),
        public,
        format!("{label}: last t").as_bytes(),
        label,
    );
}

macro_rules! per_curve {
    ($name:ident, $f:expr) => {
        mod $name {
            use super::*;
            #[test]
            fn ed25519() {
                ($f)(Curve::Ed25519)
            }
            #[test]
            fn secp256k1() {
                ($f)(Curve::Secp256k1)
            }
            #[test]
            fn ristretto255() {
                ($f)(Curve::Ristretto255)
            }
        }
    };
}

/// The coordinator's outcome of a session.
fn coordinator(out: &Outcomes<LensOut>) -> &Result<LensOut, quasar_pq::Error> {
    &out[&pid(COORDINATOR)]
}

// ---------------------------------------------------------------------------------------
// Key generation and signing

per_curve!(dealer_signing, |curve: Curve| {
    for (t, n) in [(2u16, 3u16), (5, 7)] {
        let (shares, public) = dealer(curve, t, n, &format!("dealer {curve} {t} {n}"));
        assert_eq!(public.threshold(), t);
        assert_eq!(public.parties().len(), usize::from(n));
        assert_eq!(public.epoch().generation, 0);
        signs(&shares, &public, "dealer");
        let all: Vec<&KeyShare> = shares.values().collect();
        lens_sign(&all, &public, b"everyone", "everyone");
        // Below the threshold the coordinator refuses, and no signer signs.
        let (out, _) = lens_session(
            &all[..usize::from(t) - 1],
            &public,
            b"too few",
            &[],
            None,
            "too few",
        );
        assert_eq!(
            coordinator(&out).as_ref().unwrap_err(),
            &quasar_pq::Error::Lens(Error::NotEnoughSigners {
                needed: t,
                got: usize::from(t) - 1
            })
        );
        for s in &all[..usize::from(t) - 1] {
            assert_eq!(out[&s.party()].as_ref().unwrap_err().code(), "MISSING_MESSAGE");
        }
    }
});

per_curve!(dkg_signing, |curve: Curve| {
    for (t, n) in [(2u16, 3u16), (5, 7)] {
        let (shares, public) = lens_keygen(curve, n, t, &format!("dkg {curve} {t} {n}"));
        assert_eq!(public.epoch().generation, 0);
        // The group key is C_0; on secp256k1 in its BIP-340 form, the x-only x(C_0).
        let c0 = public.commitment_bytes()[0].clone();
        let key = public.group_key_bytes();
        assert_eq!(key.len(), lens::GROUP_KEY_LEN);
        if curve == Curve::Secp256k1 {
            assert_eq!(key, c0[1..]);
        } else {
            assert_eq!(c0, key);
        }
        assert_eq!(
            PublicKeyPackage::from_bytes(curve, &public.to_bytes()).unwrap(),
            public
        );
        signs(&shares, &public, "dkg");
        let all: Vec<&KeyShare> = shares.values().collect();
        lens_sign(&all, &public, b"dkg everyone", "dkg everyone");
        for s in shares.values() {
            assert_eq!(
                KeyShare::from_bytes(curve, &s.to_bytes()).unwrap().to_bytes(),
                s.to_bytes()
            );
        }
    }
});

#[test]
fn keygen_parameters_are_checked() {
    let mut rng = party_rng(b"params", pid(1));
    for (t, n) in [(1u16, 3u16), (0, 3), (4, 3), (2, 1)] {
        assert_eq!(
            lens::deal(Curve::Ed25519, t, &party_set(1..=n), &mut rng).unwrap_err(),
            Error::InvalidThreshold {
                threshold: t,
                parties: usize::from(n)
            }
        );
        assert_eq!(
            lens::Ceremony::keygen(Curve::Ed25519, [0; 32], &ids(1..=n), t).unwrap_err(),
            Error::InvalidThreshold {
                threshold: t,
                parties: usize::from(n)
            },
            "t = {t}, n = {n}"
        );
    }
    assert_eq!(
        lens::Ceremony::keygen(Curve::Ed25519, [0; 32], &ids([1, 2, 2]), 2).unwrap_err(),
        Error::Lss(lss::Error::DuplicateParty { party: pid(2) })
    );
    let c = lens::Ceremony::keygen(Curve::Ristretto255, [0; 32], &ids([3, 1, 2]), 2).unwrap();
    assert_eq!(c.participants(), ids(1..=3));
    assert_eq!(c.curve(), Curve::Ristretto255);
    assert_eq!(
        c.start(pid(9), None, &mut rng).unwrap_err(),
        Error::Lss(lss::Error::NotAParticipant { party: pid(9) })
    );
}

#[test]
fn sparse_party_ids_work() {
    let mut rng = party_rng(b"sparse", pid(1));
    let (dealt, public) = lens::deal(Curve::Secp256k1, 3, &party_set([3, 17, 200, 65535]), &mut rng).unwrap();
    let shares: Vec<KeyShare> = dealt
        .into_values()
        .map(|d| KeyShare::from_dealer(d, &public).unwrap())
        .collect();
    let all: Vec<&KeyShare> = shares.iter().collect();
    lens_sign(&all[1..], &public, b"sparse", "sparse");
    // The DKG with sparse ids too.
    let c = lens::Ceremony::keygen(Curve::Ed25519, sid("sparse dkg"), &ids([5, 1000, 40000]), 2).unwrap();
    let (out, _) = lens_deal(&c, &BTreeMap::new(), &[], None, "sparse dkg");
    let shares = lens_shares(out);
    let public = shares[&pid(5)].public().clone();
    lens_sign(
        &refs(&shares, &ids([1000, 40000])),
        &public,
        b"sparse dkg",
        "sparse dkg",
    );
}

/// BIP-341 `H_TapTweak(x)` as a scalar, written independently of frost on sha2 and k256.
fn tap_tweak(x: &[u8]) -> k256::Scalar {
    use k256::elliptic_curve::ops::Reduce;
    use sha2::{Digest, Sha256};
    let tag = Sha256::digest(b"TapTweak");
    let h = Sha256::new()
        .chain_update(tag)
        .chain_update(tag)
        .chain_update(x)
        .finalize();
    <k256::Scalar as Reduce<k256::U256>>::reduce_bytes(&h)
}

/// secp256k1: the DKG's summed key `P = Σ A_i0` (read from the deals on the wire) may
/// have an odd `y`; the Lens group key is frost-secp256k1-tr's: `P` made even plus the
/// unspendable BIP-341 tweak — recomputed here with k256 — and signatures verify under
/// k256's BIP-340 `verify_raw` with the x-only key. Runs until both parities were seen.
#[test]
fn secp256k1_keygen_normalises_like_frost() {
    use k256::elliptic_curve::point::AffineCoordinates;
    use k256::elliptic_curve::sec1::ToEncodedPoint;
    use k256::ProjectivePoint;
    let mut seen = BTreeSet::new();
    for run_no in 0u8..40 {
        let label = format!("parity {run_no}");
        let c = lens::Ceremony::keygen(Curve::Secp256k1, sid(&label), &ids(1..=3), 2).unwrap();
        let (out, log) = lens_deal(&c, &BTreeMap::new(), &[], None, &label);
        let shares = lens_shares(out);
        let public = shares[&pid(1)].public().clone();
        let p_raw: ProjectivePoint = broadcasts_with(&log, 0, b"LSD1")
            .values()
            .map(|b| {
                *DealMessage::<vss::Secp256k1>::from_bytes(b)
                    .unwrap()
                    .commitments()
                    .constant()
            })
            .fold(ProjectivePoint::IDENTITY, |a, b| a + b);
        let odd: bool = p_raw.to_affine().y_is_odd().into();
        seen.insert(odd);
        let p_even = if odd { -p_raw } else { p_raw };
        let x = p_raw.to_affine().x();
        let expected = p_even + ProjectivePoint::GENERATOR * tap_tweak(&x);
        // The output key Q = P_even + τ·G may itself have an odd y; BIP-340 keys are
        // x-only, and the group key's one accepted encoding is x(Q), 32 bytes.
        let q = expected.to_affine().to_encoded_point(true);
        assert_eq!(
            public.group_key_bytes(),
            &q.as_bytes()[1..],
            "run {run_no}: even-y normalisation and the BIP-341 tweak (P odd: {odd})"
        );
        let msg = [b"parity run ".as_slice(), &[run_no]].concat();
        let sig = lens_sign(&refs(&shares, &ids([1, 3])), &public, &msg, &label);
        let vk = k256::schnorr::VerifyingKey::from_bytes(&public.group_key_bytes()).unwrap();
        let s = k256::schnorr::Signature::try_from(&sig.to_bytes()[..]).unwrap();
        vk.verify_raw(&msg, &s).unwrap();
        if seen.len() == 2 && run_no >= 3 {
            break;
        }
    }
    assert_eq!(seen.len(), 2, "both parities of the summed key were exercised");
}

#[test]
fn tampered_dealer_share_is_rejected() {
    let mut rng = party_rng(b"dealer tamper", pid(1));
    let (mut dealt, public) = lens::deal(Curve::Ed25519, 2, &party_set(1..=3), &mut rng).unwrap();
    // Party 1 is handed party 2's share relabelled as its own: it decodes (the recipient
    // is the share's x-coordinate), but it does not open the commitment at party 1.
    let mut bytes = dealt.remove(&pid(2)).unwrap().to_bytes().to_vec();
    bytes[47..49].copy_from_slice(&1u16.to_be_bytes());
    let relabelled = DealerShare::from_bytes(Curve::Ed25519, &bytes).unwrap();
    assert_eq!(
        KeyShare::from_dealer(relabelled, &public).unwrap_err(),
        Error::InvalidSecretShare { culprit: None }
    );
    // A share of another dealing relabelled with this epoch: it does not open the
    // commitment (the dealer equivocated).
    let (mut other, _) = lens::deal(Curve::Ed25519, 2, &party_set(1..=3), &mut rng).unwrap();
    let mut foreign = other.remove(&pid(1)).unwrap().to_bytes().to_vec();
    foreign[7..15].copy_from_slice(&public.epoch().generation.to_be_bytes());
    foreign[15..47].copy_from_slice(&public.epoch().transcript);
    let foreign = DealerShare::from_bytes(Curve::Ed25519, &foreign).unwrap();
    assert_eq!(
        KeyShare::from_dealer(foreign, &public).unwrap_err(),
        Error::InvalidSecretShare { culprit: None }
    );
    // A share of another dealing, as it is.
    let (mut other, _) = lens::deal(Curve::Ed25519, 2, &party_set(1..=3), &mut rng).unwrap();
    assert!(matches!(
        KeyShare::from_dealer(other.remove(&pid(1)).unwrap(), &public),
        Err(Error::EpochMismatch { party: None, .. })
    ));
}

#[test]
fn verify_rejects_malformed_input() {
    for curve in Curve::ALL {
        let (shares, public) = dealer(curve, 2, 3, &format!("verify {curve}"));
        let sig = lens_sign(&refs(&shares, &ids([1, 2])), &public, b"m", "verify");
        let gk = public.group_key_bytes();
        let s = sig.to_bytes();
        assert!(matches!(
            lens::verify(curve, &gk, b"m", &s[..63]),
            Err(Error::Decode(wire::Error::LengthMismatch {
                expected: 64,
                got: 63
            }))
        ));
        assert!(matches!(
            lens::verify(curve, &gk[..31], b"m", &s),
            Err(Error::Decode(_))
        ));
        let mut bad = s;
        bad[32..].copy_from_slice(&[0xff; 32]);
        assert!(matches!(
            lens::verify(curve, &gk, b"m", &bad),
            Err(Error::Decode(_))
        ));
        let (_, other) = dealer(curve, 2, 3, &format!("verify other {curve}"));
        assert_eq!(
            lens::verify(curve, &other.group_key_bytes(), b"m", &s),
            Err(Error::InvalidSignature)
        );
        assert_eq!(lens::Signature::from_bytes(curve, &s).unwrap(), sig);
        sig.verify(&gk, b"m").unwrap();
        if curve == Curve::Secp256k1 {
            // One accepted encoding, BIP-340's x-only key: neither 02‖x nor 03‖x.
            for prefix in [0x02, 0x03] {
                let sec1 = [&[prefix], gk.as_slice()].concat();
                assert_eq!(
                    lens::verify(curve, &sec1, b"m", &s),
                    Err(Error::Decode(wire::Error::LengthMismatch {
                        expected: 32,
                        got: 33
                    }))
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Every peer fault in a signing session

/// One fault on signer F's commitment, or an injected message, in a session of four
/// signers (t = 3): the message is dropped and F named by the coordinator, which signs
/// with the other three; F (whose commitment the package lacks) waits. `NonMember` and
/// the duplicates leave everyone, F included, done.
fn signing_fault(
    fault: Fault,
    shares: &BTreeMap<PartyId, KeyShare>,
    public: &PublicKeyPackage,
    other_dealing: &BTreeMap<PartyId, KeyShare>,
    old: &BTreeMap<PartyId, KeyShare>,
) {
    let curve = public.curve();
    let f = pid(2);
    let signers = ids(1..=4);
    let msg = format!("fault {fault:?}").into_bytes();
    // What F could send instead of its commitment.
    let commitment_of = |share: &KeyShare, label: &str| {
        let (_, o) =
            SignerParty::start(share, pid(COORDINATOR), &msg, &mut party_rng(label.as_bytes(), f)).unwrap();
        o.direct[0].bytes.to_vec()
    };
    let other_session = commitment_of(&other_dealing[&f], "other dealing");
    let old_generation = commitment_of(&old[&f], "old generation");
    let second = commitment_of(&shares[&f], "second commitment");
    let (_, first_log) = lens_session(
        &refs(shares, &ids(1..=3)),
        public,
        b"earlier",
        &[],
        None,
        "earlier",
    );
    let a_share = direct_of(&first_log, pid(1), 2, pid(COORDINATOR)).unwrap();
    assert_eq!(&a_share[..4], b"LNZ2");
    let from_f_round0 = move |e: &Envelope| e.from == f && e.round == 0;
    let replace = move |bytes: Vec<u8>| -> Tamper {
        Box::new(move |mut e: Envelope| {
            if from_f_round0(&e) {
                e.bytes = bytes.clone().into();
            }
            vec![e]
        })
    };
    // (tamper, code at the receiver, the receiver, whether F's commitment still counts)
    let (tamper, code, at, counted): (Tamper, &str, PartyId, bool) = match fault {
        // Sent to signer 3 instead of the coordinator.
        Fault::Misaddressed => (
            Box::new(move |mut e: Envelope| {
                if from_f_round0(&e) {
                    e.to = pid(3);
                }
                vec![e]
            }),
            "UNKNOWN_PARTY",
            pid(3),
            false,
        ),
        // A commitment made with F's share of another dealing of the same generation.
        Fault::WrongSession => (replace(other_session), "WRONG_SESSION", pid(COORDINATOR), false),
        Fault::WrongKind => (replace(a_share), "WRONG_KIND", pid(COORDINATOR), false),
        Fault::NonMember => (
            Box::new(move |e: Envelope| {
                if from_f_round0(&e) {
                    let mut copy = e.clone();
                    copy.from = pid(OUTSIDER);
                    vec![e, copy]
                } else {
                    vec![e]
                }
            }),
            "UNKNOWN_PARTY",
            pid(COORDINATOR),
            true,
        ),
        // A commitment made with F's share of the previous generation.
        Fault::OtherGeneration => (
            replace(old_generation),
            "WRONG_GENERATION",
            pid(COORDINATOR),
            false,
        ),
        Fault::DuplicateIdentical => (
            Box::new(move |e: Envelope| {
                if from_f_round0(&e) {
                    vec![e.clone(), e]
                } else {
                    vec![e]
                }
            }),
            "DUPLICATE_MESSAGE",
            pid(COORDINATOR),
            true,
        ),
        Fault::DuplicateConflicting => (
            Box::new(move |e: Envelope| {
                if from_f_round0(&e) {
                    let mut other = e.clone();
                    other.bytes = second.clone().into();
                    vec![e, other]
                } else {
                    vec![e]
                }
            }),
            "CONFLICTING_MESSAGE",
            pid(COORDINATOR),
            false,
        ),
        Fault::Truncated => (
            Box::new(move |mut e: Envelope| {
                if from_f_round0(&e) {
                    e.bytes.pop();
                }
                vec![e]
            }),
            "MALFORMED_MESSAGE",
            pid(COORDINATOR),
            false,
        ),
        Fault::Garbage => (
            replace(junk(80, "lens garbage")),
            "MALFORMED_MESSAGE",
            pid(COORDINATOR),
            false,
        ),
    };
    let (out, _) = lens_session(&refs(shares, &signers), public, &msg, &[], Some(tamper), "fault");
    let c = coordinator(&out)
        .as_ref()
        .unwrap_or_else(|e| panic!("{curve} {fault:?}: {e}"))
        .coordinator();
    let named = if fault == Fault::NonMember {
        pid(OUTSIDER)
    } else {
        f
    };
    let want_signers = if counted { signers.clone() } else { ids([1, 3, 4]) };
    assert_eq!(c.signers, want_signers, "{curve} {fault:?}");
    check_lens_signature(public, &msg, &c.signature);
    let mut want_at_coordinator = Vec::new();
    if at == pid(COORDINATOR) {
        want_at_coordinator.push((named, code));
    }
    assert_eq!(
        codes(&c.dropped),
        want_at_coordinator,
        "{curve} {fault:?}: coordinator"
    );
    for p in &signers {
        if *p == f && !counted {
            // F's commitment is not in the package: F sees a package of another session.
            let e = out[p].as_ref().unwrap_err();
            assert_eq!(e.code(), "MISSING_MESSAGE", "{curve} {fault:?}: F waits");
            continue;
        }
        let s = out[p]
            .as_ref()
            .unwrap_or_else(|e| panic!("{curve} {fault:?}: {p}: {e}"))
            .signer();
        let want = if *p == at { vec![(named, code)] } else { vec![] };
        assert_eq!(codes(&s.dropped), want, "{curve} {fault:?}: signer {p}");
        assert_eq!(s.signers, want_signers);
    }
}

per_curve!(peer_faults_in_signing, |curve: Curve| {
    let label = format!("signing faults {curve}");
    let (g0, p0) = lens_keygen(curve, 5, 3, &label);
    let c = lens::Ceremony::refresh(sid(&format!("{label} refresh")), &p0, &ids(1..=5)).unwrap();
    let (out, _) = lens_deal(&c, &g0, &[], None, &format!("{label} refresh"));
    let shares = lens_shares(out);
    let public = shares[&pid(1)].public().clone();
    let c = lens::Ceremony::refresh(sid(&format!("{label} other refresh")), &p0, &ids(1..=5)).unwrap();
    let (out, _) = lens_deal(&c, &g0, &[], None, &format!("{label} other refresh"));
    let other_dealing = lens_shares(out);
    for fault in Fault::ALL {
        signing_fault(fault, &shares, &public, &other_dealing, &g0);
    }
    // A member outside the package sending a signature share: dropped, named.
    let (_, log) = lens_session(
        &refs(&shares, &ids(1..=3)),
        &public,
        b"outsider share",
        &[],
        None,
        "ref",
    );
    let stray = direct_of(&log, pid(1), 2, pid(COORDINATOR)).unwrap();
    let inject: Tamper = Box::new(move |e: Envelope| {
        if e.round == 2 && e.from == pid(1) {
            let mut copy = e.clone();
            copy.from = pid(5);
            copy.bytes = stray.clone().into();
            vec![e, copy]
        } else {
            vec![e]
        }
    });
    let (out, _) = lens_session(
        &refs(&shares, &ids(1..=3)),
        &public,
        b"outsider share",
        &[],
        Some(inject),
        "ref",
    );
    let c = coordinator(&out).as_ref().unwrap().coordinator();
    assert_eq!(codes(&c.dropped), vec![(pid(5), "UNKNOWN_PARTY")]);
    check_lens_signature(&public, b"outsider share", &c.signature);
});

// `bad-contribution`: a signature share off by one: the coordinator's last round fails
// with `INVALID_SIGNATURE_SHARE` naming the cheater (FROST is not robust there), and a
// session without it signs. `garbage`: the commitment cut short: `MALFORMED_MESSAGE`,
// and the others sign without it.
per_curve!(cheats_in_signing, |curve: Curve| {
    let (shares, public) = lens_keygen(curve, 5, 3, &format!("cheats {curve}"));
    let all = ids(1..=5);
    let cheats = [(pid(4), Cheat::BadContribution)];
    let (out, _) = lens_session(&refs(&shares, &all), &public, b"cheat", &cheats, None, "cheat");
    let e = coordinator(&out).as_ref().unwrap_err();
    assert_eq!(
        e,
        &quasar_pq::Error::Lens(Error::InvalidSignatureShare { culprits: ids([4]) })
    );
    assert_eq!(e.code(), "INVALID_SIGNATURE_SHARE");
    assert_eq!(e.culprits(), &ids([4])[..]);
    lens_sign(&refs(&shares, &ids([1, 3, 5])), &public, b"cheat", "retry");

    let (out, _) = lens_session(
        &refs(&shares, &all),
        &public,
        b"garbage",
        &[(pid(3), Cheat::Garbage)],
        None,
        "garbage",
    );
    let c = coordinator(&out).as_ref().unwrap().coordinator();
    assert_eq!(codes(&c.dropped), vec![(pid(3), "MALFORMED_MESSAGE")]);
    assert_eq!(c.signers, ids([1, 2, 4, 5]));
    check_lens_signature(&public, b"garbage", &c.signature);
});

/// A signer given a bad package (not from its coordinator, for another message, of
/// another generation) drops it, names the sender and keeps waiting with its nonces; the
/// good package then signs. The coordinator below the threshold keeps collecting; a
/// relabelled share is dropped and the share still awaited; an invalid share fails the
/// aggregation with its culprit and the coordinator keeps its state. Steps after the end:
/// `PARTY_FINISHED`.
#[test]
fn lens_parties_keep_their_state_on_error() {
    let curve = Curve::Ed25519;
    let (shares, public) = lens_keygen(curve, 4, 3, "state");
    let (old_shares, old_public) = lens_keygen(curve, 4, 3, "state other key");
    let hub = pid(COORDINATOR);
    let msg = b"state".to_vec();
    let mut signers = BTreeMap::new();
    let mut commitments = Vec::new();
    for p in ids(1..=3) {
        let (s, o) = SignerParty::start(&shares[&p], hub, &msg, &mut party_rng(b"state", p)).unwrap();
        commitments.push((p, o.direct[0].bytes.to_vec()));
        signers.insert(p, s);
    }
    let (mut coord, first) = CoordinatorParty::start(hub, &public, &msg).unwrap();
    assert!(first.is_empty());
    // Two commitments: below the threshold.
    let e = coord.step(&incoming(&commitments[..2])).unwrap_err();
    assert_eq!(
        e,
        quasar_pq::Error::Lens(Error::NotEnoughSigners { needed: 3, got: 2 })
    );
    assert_eq!(coord.round().unwrap().number, 1);
    let Step::Continue(out) = coord.step(&incoming(&commitments)).unwrap() else {
        panic!("the package")
    };
    let package = out.broadcast.unwrap();
    assert_eq!(&package[..4], b"LNSP");

    // Bad packages for signer 1.
    let (mut other_coord, _) = CoordinatorParty::start(hub, &public, b"another message").unwrap();
    let mut other = Vec::new();
    for p in ids(1..=3) {
        let (_, o) =
            SignerParty::start(&shares[&p], hub, b"another message", &mut party_rng(b"x", p)).unwrap();
        other.push((p, o.direct[0].bytes.to_vec()));
    }
    let Step::Continue(o) = other_coord.step(&incoming(&other)).unwrap() else {
        panic!()
    };
    let wrong_message = o.broadcast.unwrap();
    let (mut old_coord, _) = CoordinatorParty::start(hub, &old_public, &msg).unwrap();
    let mut stale = Vec::new();
    for p in ids(1..=3) {
        let (_, o) = SignerParty::start(&old_shares[&p], hub, &msg, &mut party_rng(b"y", p)).unwrap();
        stale.push((p, o.direct[0].bytes.to_vec()));
    }
    let Step::Continue(o) = old_coord.step(&incoming(&stale)).unwrap() else {
        panic!()
    };
    let other_key_package = o.broadcast.unwrap();
    let s1 = signers.get_mut(&pid(1)).unwrap();
    for (from, bytes, code) in [
        (pid(2), package.clone(), "UNKNOWN_PARTY"),
        (hub, wrong_message, "WRONG_MESSAGE"),
        (hub, other_key_package, "WRONG_SESSION"),
        (hub, package[..package.len() - 1].to_vec(), "MALFORMED_MESSAGE"),
        (hub, commitments[1].1.clone(), "WRONG_KIND"),
    ] {
        let step = s1.step(&incoming(&[(from, bytes)])).unwrap();
        assert!(step.is_waiting(), "{code}: the signer keeps waiting");
        assert_eq!(codes(&s1.dropped()[s1.dropped().len() - 1..]), vec![(from, code)]);
        assert_eq!(s1.round().unwrap().name, "sign");
    }
    let mut shares_sent = Vec::new();
    for (p, s) in signers.iter_mut() {
        let Step::Done(o, outcome) = s.step(&incoming(&[(hub, package.clone())])).unwrap() else {
            panic!("a signer signs once")
        };
        assert_eq!(outcome.signers, ids(1..=3));
        if *p == pid(1) {
            assert_eq!(outcome.dropped.len(), 5, "its drops are reported");
        }
        shares_sent.push((*p, o.direct[0].bytes.to_vec()));
        assert_eq!(s.step(&[]).unwrap_err().code(), "PARTY_FINISHED");
    }
    // Signer 2's share relabelled as signer 3's: dropped; 3's still awaited.
    let relabelled = vec![
        shares_sent[0].clone(),
        shares_sent[1].clone(),
        (pid(3), shares_sent[1].1.clone()),
    ];
    assert!(
        coord.step(&incoming(&relabelled)).unwrap().is_waiting(),
        "3's share still awaited"
    );
    assert_eq!(codes(coord.dropped()), vec![(pid(3), "SENDER_MISMATCH")]);
    assert_eq!(coord.round().unwrap().name, "aggregate");
    let Step::Done(_, outcome) = coord.step(&incoming(&shares_sent[2..])).unwrap() else {
        panic!("aggregated")
    };
    check_lens_signature(&public, &msg, &outcome.signature);
    assert_eq!(codes(&outcome.dropped), vec![(pid(3), "SENDER_MISMATCH")]);
    assert_eq!(coord.step(&[]).unwrap_err().code(), "PARTY_FINISHED");

    // An invalid share: the aggregation fails naming it, the state is kept.
    let (mut coord, _) = CoordinatorParty::start(hub, &public, &msg).unwrap();
    let mut commitments = Vec::new();
    let mut signers = Vec::new();
    for p in ids(1..=3) {
        let mut rng = party_rng(b"invalid", p);
        let (s, o) = if p == pid(2) {
            SignerParty::start_cheating(&shares[&p], hub, &msg, Cheat::BadContribution, &mut rng).unwrap()
        } else {
            SignerParty::start(&shares[&p], hub, &msg, &mut rng).unwrap()
        };
        commitments.push((p, o.direct[0].bytes.to_vec()));
        signers.push((p, s));
    }
    let Step::Continue(out) = coord.step(&incoming(&commitments)).unwrap() else {
        panic!()
    };
    let package = out.broadcast.unwrap();
    let mut zs = Vec::new();
    for (p, s) in signers.iter_mut() {
        let Step::Done(o, _) = s.step(&incoming(&[(hub, package.clone())])).unwrap() else {
            panic!()
        };
        zs.push((*p, o.direct[0].bytes.to_vec()));
    }
    for _ in 0..2 {
        let e = coord.step(&incoming(&zs)).unwrap_err();
        assert_eq!(
            e,
            quasar_pq::Error::Lens(Error::InvalidSignatureShare {
                culprits: vec![pid(2)]
            })
        );
        assert_eq!(coord.round().unwrap().name, "aggregate");
    }
}

/// Ordinary signing refuses messages that start with an activation tag.
#[test]
fn signing_an_activation_statement_is_refused() {
    let (shares, public) = lens_keygen(Curve::Ristretto255, 3, 2, "reserved");
    for tag in [
        "QUASAR-LENS-ACTIVATE-v1",
        "QUASAR-PULSAR-ACTIVATE-v1",
        "QUASAR-LSS-ACTIVATE-v1",
    ] {
        let mut msg = tag.as_bytes().to_vec();
        msg.extend_from_slice(&public.epoch().transcript);
        let e = SignerParty::start(
            &shares[&pid(1)],
            pid(COORDINATOR),
            &msg,
            &mut party_rng(b"r", pid(1)),
        )
        .unwrap_err();
        assert_eq!(e, Error::ReservedMessage);
        assert_eq!(e.code(), "RESERVED_MESSAGE");
        assert_eq!(quasar_pq::Error::from(e).module(), "lens");
    }
    // A message that merely contains the tag later is ordinary.
    let msg = b"note: QUASAR-LENS-ACTIVATE-v1";
    lens_sign(&refs(&shares, &ids([1, 2])), &public, msg, "not reserved");
}

// ---------------------------------------------------------------------------------------
// Strict decoding

/// Every truncation, a one-byte extension, every header bit flip and a wrong curve byte
/// give typed errors; body bit flips never panic.
fn check_decoder<T>(
    what: &str,
    curve: Curve,
    bytes: &[u8],
    decode: impl Fn(Curve, &[u8]) -> Result<T, Error>,
) {
    assert!(decode(curve, bytes).is_ok(), "{what}: round trip");
    for cut in 0..bytes.len() {
        match decode(curve, &bytes[..cut]) {
            Err(Error::Decode(_)) => {}
            Err(e) => panic!("{what}: truncation at {cut} gave {e:?}"),
            Ok(_) => panic!("{what}: truncation at {cut} accepted"),
        }
    }
    let mut long = bytes.to_vec();
    long.push(0);
    assert_eq!(
        decode(curve, &long).err(),
        Some(Error::Decode(wire::Error::TrailingBytes { extra: 1 })),
        "{what}: extension"
    );
    for bit in 0..7 * 8 {
        let mut b = bytes.to_vec();
        b[bit / 8] ^= 1 << (bit % 8);
        let err = decode(curve, &b)
            .err()
            .unwrap_or_else(|| panic!("{what}: header flip {bit} accepted"));
        assert!(
            matches!(err, Error::Decode(_) | Error::WrongCurve { .. }),
            "{what}: header flip {bit} gave {err:?}"
        );
    }
    for other in Curve::ALL.into_iter().filter(|c| *c != curve) {
        let mut b = bytes.to_vec();
        b[6] = other.to_byte();
        assert_eq!(
            decode(curve, &b).err(),
            Some(Error::WrongCurve {
                expected: curve,
                found: other
            }),
            "{what}: curve byte"
        );
        assert_eq!(
            decode(other, bytes).err(),
            Some(Error::WrongCurve {
                expected: other,
                found: curve
            }),
            "{what}: decoded as {other}"
        );
    }
    let mut b = bytes.to_vec();
    b[6] = 0x7f;
    assert_eq!(
        decode(curve, &b).err(),
        Some(Error::Decode(wire::Error::UnknownMode(0x7f)))
    );
    for i in 7..bytes.len() {
        let mut b = bytes.to_vec();
        b[i] ^= 0x80;
        let _ = decode(curve, &b);
    }
}

per_curve!(decoders_are_strict, |curve: Curve| {
    let mut rng = party_rng(format!("decoders {curve}").as_bytes(), pid(1));
    let (dealt, public) = lens::deal(curve, 2, &party_set(1..=3), &mut rng).unwrap();
    let d = dealt.values().next().unwrap();
    check_decoder("dealer share", curve, &d.to_bytes(), DealerShare::from_bytes);
    check_decoder(
        "public key package",
        curve,
        &public.to_bytes(),
        PublicKeyPackage::from_bytes,
    );
    let shares: BTreeMap<PartyId, KeyShare> = dealt
        .into_iter()
        .map(|(p, d)| (p, KeyShare::from_dealer(d, &public).unwrap()))
        .collect();
    check_decoder(
        "key share",
        curve,
        &shares[&pid(1)].to_bytes(),
        KeyShare::from_bytes,
    );
    let (_, log) = lens_session(
        &refs(&shares, &ids([1, 2])),
        &public,
        b"decode me",
        &[],
        None,
        "decoders",
    );
    let c1 = direct_of(&log, pid(1), 0, pid(COORDINATOR)).unwrap();
    check_decoder("signing commitments", curve, &c1, SigningCommitments::from_bytes);
    let package = broadcast_of(&log, pid(COORDINATOR), 1).unwrap();
    check_decoder("signing package", curve, &package, SigningPackage::from_bytes);
    let z1 = direct_of(&log, pid(1), 2, pid(COORDINATOR)).unwrap();
    check_decoder("signature share", curve, &z1, SignatureShare::from_bytes);
    assert_eq!(
        SigningPackage::from_bytes(curve, &package).unwrap().message(),
        b"decode me"
    );
    assert_eq!(SignatureShare::from_bytes(curve, &z1).unwrap().from(), pid(1));
    // A package that names a signer twice.
    let count_at = 7 + 40;
    let first = count_at + 4;
    let len = u32::from_be_bytes(package[first + 2..first + 6].try_into().unwrap()) as usize;
    let entry = package[first..first + 6 + len].to_vec();
    let count = u32::from_be_bytes(package[count_at..first].try_into().unwrap());
    let mut dup = package[..count_at].to_vec();
    dup.extend_from_slice(&(count + 1).to_be_bytes());
    dup.extend_from_slice(&entry);
    dup.extend_from_slice(&package[first..]);
    assert_eq!(
        SigningPackage::from_bytes(curve, &dup).unwrap_err(),
        Error::DuplicateSigner { party: pid(1) }
    );
});

#[test]
fn secrets_are_redacted() {
    let mut rng = party_rng(b"redact", pid(1));
    let (dealt, public) = lens::deal(Curve::Ed25519, 2, &party_set(1..=3), &mut rng).unwrap();
    let d = dealt.into_values().next().unwrap();
    assert!(format!("{d:?}").contains("redacted"));
    let share = KeyShare::from_dealer(d, &public).unwrap();
    assert!(format!("{share:?}").contains("redacted"));
}

// ---------------------------------------------------------------------------------------
// Resharing: the group key unchanged, epochs never mixed

/// A refresh or reshare that ran without faults: every participant agrees (package,
/// transcript, blame, certificate), the group key is byte-identical, the epoch advanced,
/// every object survives its decoder, the certificate verifies for the new generation
/// (and not for the old one), and the first and last `t_new` of the new set sign.
fn new_generation(
    out: Outcomes<lens::Outcome>,
    old_public: &PublicKeyPackage,
    c: &lens::Ceremony,
) -> (BTreeMap<PartyId, KeyShare>, PublicKeyPackage) {
    let roles = Roles::of_lens(c, true);
    let honest = check_plan(&Plan::clean(), &out, &roles, "new generation");
    let first = honest.values().next().unwrap();
    let public = first.public.clone();
    let cert = first.activation.clone().unwrap();
    drop(honest);
    assert_eq!(
        public.group_key_bytes(),
        old_public.group_key_bytes(),
        "group key byte-identical"
    );
    assert_eq!(public.epoch().generation, old_public.epoch().generation + 1);
    assert_ne!(public.epoch().transcript, old_public.epoch().transcript);
    assert_eq!(public.parties(), c.receivers());
    assert_eq!(
        PublicKeyPackage::from_bytes(public.curve(), &public.to_bytes()).unwrap(),
        public
    );
    let epoch = public.epoch();
    lens::verify_activation(&public, epoch.generation, &epoch.transcript, &cert).unwrap();
    let cert2 = ActivationCertificate::from_bytes(&cert.to_bytes()).unwrap();
    lens::verify_activation(&public, epoch.generation, &epoch.transcript, &cert2).unwrap();
    assert_eq!(cert.kind(), ActivationKind::Lens);
    assert_eq!(cert.key(), public.group_key_bytes());
    assert!(cert.members().len() >= usize::from(public.threshold()));
    assert!(lens::verify_activation(old_public, epoch.generation, &epoch.transcript, &cert).is_err());
    let shares = lens_shares(out);
    for s in shares.values() {
        assert_eq!(s.epoch(), epoch);
        assert_eq!(
            KeyShare::from_bytes(public.curve(), &s.to_bytes())
                .unwrap()
                .to_bytes(),
            s.to_bytes()
        );
    }
    assert_eq!(shares.len(), c.receivers().len());
    signs(&shares, &public, "new generation");
    (shares, public)
}

/// An old-generation share never mixes with the new ones: its commitment is dropped by a
/// new-generation coordinator (`WRONG_GENERATION`), which signs with the new shares, and
/// the old share refuses the new package (it waits).
fn check_no_mixing(old: &KeyShare, new: &BTreeMap<PartyId, KeyShare>, public: &PublicKeyPackage) {
    let p = old.party();
    let t = usize::from(public.threshold());
    let mut signers: Vec<&KeyShare> = new.values().filter(|s| s.party() != p).take(t).collect();
    assert_eq!(signers.len(), t);
    signers.push(old);
    let (out, _) = lens_session(&signers, public, b"mix", &[], None, "mix");
    let c = coordinator(&out).as_ref().unwrap().coordinator();
    assert_eq!(codes(&c.dropped), vec![(p, "WRONG_GENERATION")]);
    assert!(!c.signers.contains(&p));
    check_lens_signature(public, b"mix", &c.signature);
    assert_eq!(
        out[&p].as_ref().unwrap_err().code(),
        "MISSING_MESSAGE",
        "the old share waits"
    );
    // Below the threshold without it.
    signers.remove(0);
    let (out, _) = lens_session(&signers, public, b"mix", &[], None, "mix");
    assert_eq!(
        coordinator(&out).as_ref().unwrap_err(),
        &quasar_pq::Error::Lens(Error::NotEnoughSigners {
            needed: u16::try_from(t).unwrap(),
            got: t - 1
        })
    );
}

per_curve!(refresh, |curve: Curve| {
    let (old, public) = dealer(curve, 3, 5, &format!("refresh {curve}"));
    let c = lens::Ceremony::refresh(sid("refresh"), &public, &ids(1..=5)).unwrap();
    let (out, _) = lens_deal(&c, &old, &[], None, "refresh");
    let (new, new_public) = new_generation(out, &public, &c);
    for (p, s) in &new {
        assert_ne!(
            s.public().verifying_share_bytes(*p),
            old[p].public().verifying_share_bytes(*p),
            "fresh shares"
        );
    }
    check_no_mixing(&old[&pid(2)], &new, &new_public);
    // The old generation still signs on its own (nothing was mutated).
    signs(&old, &public, "old generation");
});

per_curve!(reshare_same_set_after_dkg, |curve: Curve| {
    let (old, public) = lens_keygen(curve, 5, 3, &format!("same set {curve}"));
    let c = lens::Ceremony::reshare(sid("same set"), &public, &ids([1, 2, 4, 5]), &ids(1..=5), 3).unwrap();
    let (out, _) = lens_deal(&c, &old, &[], None, "same set");
    let (new, new_public) = new_generation(out, &public, &c);
    check_no_mixing(&old[&pid(4)], &new, &new_public);
});

per_curve!(reshare_new_set_threshold_up, |curve: Curve| {
    let (old, public) = dealer(curve, 2, 3, &format!("up {curve}"));
    // (2, 3) on {1, 2, 3} → (4, 6) on {4, …, 9}: a disjoint set, threshold up.
    let c = lens::Ceremony::reshare(sid("up"), &public, &ids([1, 3]), &ids(4..=9), 4).unwrap();
    let (out, _) = lens_deal(&c, &old, &[], None, "up");
    let (new, new_public) = new_generation(out, &public, &c);
    let (out, _) = lens_session(&refs(&new, &ids(4..=6)), &new_public, b"x", &[], None, "three");
    assert_eq!(
        coordinator(&out).as_ref().unwrap_err(),
        &quasar_pq::Error::Lens(Error::NotEnoughSigners { needed: 4, got: 3 })
    );
    // Old shares are of no use with the new package: not members any more.
    let (out, _) = lens_session(&refs(&old, &ids(1..=3)), &new_public, b"x", &[], None, "old");
    let e = coordinator(&out).as_ref().unwrap_err();
    assert_eq!(e.code(), "NOT_ENOUGH_SIGNERS");
});

per_curve!(reshare_threshold_down_overlapping_set, |curve: Curve| {
    let (old, public) = dealer(curve, 5, 7, &format!("down {curve}"));
    let c = lens::Ceremony::reshare(sid("down"), &public, &ids(1..=6), &ids(3..=6), 2).unwrap();
    let (out, _) = lens_deal(&c, &old, &[], None, "down");
    let (new, new_public) = new_generation(out, &public, &c);
    check_no_mixing(&old[&pid(3)], &new, &new_public);
});

#[test]
fn expansion_21_to_64_and_contraction_64_to_21() {
    let curve = Curve::Ed25519;
    let (old, public) = dealer(curve, 14, 21, "expansion");
    let c = lens::Ceremony::reshare(sid("21 to 64"), &public, &ids(1..=15), &ids(1..=64), 43).unwrap();
    let (out, _) = lens_deal(&c, &old, &[], None, "21 to 64");
    let (big, big_public) = new_generation(out, &public, &c);
    check_no_mixing(&old[&pid(7)], &big, &big_public);
    let c =
        lens::Ceremony::reshare(sid("64 to 21"), &big_public, &ids(10..=54), &ids(101..=121), 14).unwrap();
    let (out, _) = lens_deal(&c, &big, &[], None, "64 to 21");
    let (_, small_public) = new_generation(out, &big_public, &c);
    assert_eq!(small_public.group_key_bytes(), public.group_key_bytes());
    assert_eq!(small_public.epoch().generation, 2);
}

#[test]
fn too_few_honest_dealers_keeps_the_old_generation() {
    for curve in Curve::ALL {
        let (old, public) = dealer(curve, 3, 5, &format!("too few {curve}"));
        // Exactly t_old dealers, one of them cheats: not enough qualify.
        let c = lens::Ceremony::reshare(sid("too few"), &public, &ids(1..=3), &ids(1..=5), 3).unwrap();
        let (out, _) = lens_deal(&c, &old, &[(pid(2), Cheat::BadShares)], None, "too few");
        // The dealing's error is the LSS party's, whatever the scheme on top.
        let want = quasar_pq::Error::Lss(lss::Error::NotEnoughQualified {
            needed: 3,
            qualified: 2,
            culprits: vec![pid(2)],
        });
        for p in ids([1, 3, 4, 5]) {
            let e = out[&p].as_ref().unwrap_err();
            assert_eq!(e, &want, "{curve}: {p}");
            assert_eq!(e.culprits(), &[pid(2)]);
            assert_eq!(e.code(), "NOT_ENOUGH_QUALIFIED");
        }
        signs(&old, &public, "still the old generation");
    }
}

#[test]
fn reshare_inputs_are_checked() {
    let (shares, public) = dealer(Curve::Secp256k1, 3, 5, "inputs");
    let mut rng = party_rng(b"inputs", pid(1));
    assert_eq!(
        lens::Ceremony::reshare([0; 32], &public, &ids(1..=2), &ids(1..=5), 3).unwrap_err(),
        Error::Lss(lss::Error::NotEnoughDealers { needed: 3, got: 2 })
    );
    assert_eq!(
        lens::Ceremony::reshare([0; 32], &public, &ids([1, 2, 9]), &ids(1..=5), 3).unwrap_err(),
        Error::Lss(lss::Error::DealerNotInOldSet { party: pid(9) })
    );
    let c = lens::Ceremony::refresh([0; 32], &public, &ids(1..=5)).unwrap();
    let (other, _) = dealer(Curve::Secp256k1, 3, 5, "inputs other");
    assert!(matches!(
        c.start(pid(1), Some(&other[&pid(1)]), &mut rng),
        Err(Error::EpochMismatch { party: None, .. })
    ));
    assert!(matches!(
        c.start(pid(2), Some(&shares[&pid(1)]), &mut rng),
        Err(Error::Lss(lss::Error::OldShareMismatch { .. }))
    ));
    assert!(matches!(
        c.start(pid(1), None, &mut rng),
        Err(Error::Lss(lss::Error::MissingOldShare { .. }))
    ));
    let (ed, _) = dealer(Curve::Ed25519, 3, 5, "inputs ed");
    assert_eq!(
        c.start(pid(1), Some(&ed[&pid(1)]), &mut rng).unwrap_err(),
        Error::WrongCurve {
            expected: Curve::Secp256k1,
            found: Curve::Ed25519
        }
    );
    // Conversions to and from the LSS types keep everything.
    let lss_share = shares[&pid(1)].to_lss().unwrap();
    assert_eq!(
        KeyShare::from_lss(&lss_share).unwrap().to_bytes(),
        shares[&pid(1)].to_bytes()
    );
    let group = public.to_lss().unwrap();
    assert_eq!(group.to_bytes(), lss_share.public().to_bytes());
    assert_eq!(PublicKeyPackage::from_lss(&group).unwrap(), public);
    // A Pedersen sharing is no Lens key.
    let dkg = lss::Ceremony::<vss::Secp256k1>::dkg([1; 32], vss::Mode::Pedersen, &ids(1..=3), 2).unwrap();
    let (out, _) = lss_deal(&dkg, &BTreeMap::new(), &[], None, "pedersen");
    let pedersen = lss_shares(out).remove(&pid(1)).unwrap();
    assert!(KeyShare::from_lss(&pedersen.into()).is_err());
}

per_curve!(cheating_dealers_are_excluded, |curve: Curve| {
    let (old, public) = dealer(curve, 3, 5, &format!("cheating dealer {curve}"));
    let c = lens::Ceremony::reshare(sid("cheating dealer"), &public, &ids(1..=5), &ids(1..=5), 3).unwrap();
    // `bad-shares`: disqualified, named INVALID_OPENING, the reshare completes.
    let (out, _) = lens_deal(&c, &old, &[(pid(2), Cheat::BadShares)], None, "bad shares");
    let mut holders = BTreeMap::new();
    for p in ids([1, 3, 4, 5]) {
        let o = out[&p].as_ref().unwrap();
        assert_eq!(codes(&o.blame), vec![(pid(2), "INVALID_OPENING")]);
        // The cheater judges its own wrong openings as everyone does, so it reaches the
        // same transcript and its proof of possession counts.
        assert!(o.dropped.is_empty());
        assert_eq!(o.qualified, ids([1, 3, 4, 5]));
        holders.insert(p, copy_lens(o.key_share.as_ref().unwrap()));
    }
    let new_public = holders[&pid(1)].public().clone();
    signs(&holders, &new_public, "without the cheater");
    // `garbage`: every broadcast cut short.
    let (out, _) = lens_deal(&c, &old, &[(pid(5), Cheat::Garbage)], None, "garbage");
    let mut holders = BTreeMap::new();
    for p in ids(1..=4) {
        let o = out[&p].as_ref().unwrap();
        assert_eq!(codes(&o.blame), vec![(pid(5), "MISSING_DEAL")]);
        assert_eq!(codes(&o.dropped), vec![(pid(5), "MALFORMED_MESSAGE")]);
        assert_eq!(o.qualified, ids(1..=4));
        holders.insert(p, copy_lens(o.key_share.as_ref().unwrap()));
    }
    let new_public = holders[&pid(1)].public().clone();
    signs(&holders, &new_public, "without the garbage");
});

per_curve!(keygen_excludes_cheating_dealers, |curve: Curve| {
    let parties = ids(1..=5);
    let c = lens::Ceremony::keygen(curve, sid("keygen cheaters"), &parties, 3).unwrap();
    // `bad-shares` by dealer 2: named, the others get a working key.
    let (out, _) = lens_deal(&c, &BTreeMap::new(), &[(pid(2), Cheat::BadShares)], None, "kc");
    let mut holders = BTreeMap::new();
    for p in ids([1, 3, 4, 5]) {
        let o = out[&p].as_ref().unwrap();
        assert_eq!(
            o.blame,
            vec![quasar_pq::party::Blame::new(
                pid(2),
                quasar_pq::party::BlameReason::InvalidOpening { complainer: pid(1) }
            )]
        );
        assert_eq!(o.qualified, ids([1, 3, 4, 5]));
        assert!(o.dropped.is_empty());
        holders.insert(p, copy_lens(o.key_share.as_ref().unwrap()));
    }
    let public = holders[&pid(1)].public().clone();
    signs(&holders, &public, "without the cheater");
    // A forged proof of knowledge (dealer 1) and a deal that does not decode (dealer 5).
    let tamper: Tamper = Box::new(move |mut e: Envelope| {
        if e.round == 0 && e.channel == Channel::Broadcast {
            if e.from == pid(1) {
                let i = if curve == Curve::Secp256k1 {
                    e.bytes.len() - 1
                } else {
                    e.bytes.len() - 32
                };
                e.bytes[i] ^= 1;
            } else if e.from == pid(5) {
                e.bytes.pop();
            }
        }
        vec![e]
    });
    let (out, _) = lens_deal(&c, &BTreeMap::new(), &[], Some(tamper), "kc2");
    let mut holders = BTreeMap::new();
    for p in ids(2..=4) {
        let o = out[&p].as_ref().unwrap();
        assert_eq!(
            codes(&o.blame),
            vec![(pid(1), "INVALID_PROOF"), (pid(5), "MISSING_DEAL")]
        );
        assert_eq!(codes(&o.dropped), vec![(pid(5), "MALFORMED_MESSAGE")]);
        assert_eq!(o.qualified, ids(2..=4));
        holders.insert(p, copy_lens(o.key_share.as_ref().unwrap()));
    }
    let public = holders[&pid(2)].public().clone();
    let all: Vec<&KeyShare> = holders.values().collect();
    lens_sign(&all, &public, b"three qualified dealers", "three");
    // Too many cheaters: fewer than t qualify, the DKG fails naming them.
    let cheats = [
        (pid(1), Cheat::BadShares),
        (pid(2), Cheat::BadShares),
        (pid(5), Cheat::Garbage),
    ];
    let (out, _) = lens_deal(&c, &BTreeMap::new(), &cheats, None, "kc3");
    for p in ids([3, 4]) {
        let e = out[&p].as_ref().unwrap_err();
        assert_eq!(
            e,
            &quasar_pq::Error::Lss(lss::Error::NotEnoughQualified {
                needed: 3,
                qualified: 2,
                culprits: ids([1, 2, 5])
            }),
            "{p}"
        );
    }
});

// ---------------------------------------------------------------------------------------
// Every peer fault in Lens dealings, proven by FROST signatures

fn run_lens_faults(
    c: &lens::Ceremony,
    old: &BTreeMap<PartyId, KeyShare>,
    activation: bool,
    replays: Replays,
    (f, a, b): (u16, u16, u16),
    t_new: usize,
    name: &str,
) {
    let roles = Roles::of_lens(c, activation);
    for fault in Fault::ALL {
        let mut plan = dealing_plan(fault, &roles, pid(f), pid(a), pid(b), &replays);
        let label = format!("{name} {fault:?}");
        let (out, _) = lens_deal(c, old, &[], Some(plan.take_tamper()), &label);
        let honest = check_plan(&plan, &out, &roles, name);
        let first = honest.values().next().unwrap();
        let public = first.public.clone();
        if let Some(cert) = &first.activation {
            let epoch = public.epoch();
            lens::verify_activation(&public, epoch.generation, &epoch.transcript, cert).unwrap();
        }
        let holders: BTreeMap<PartyId, KeyShare> = honest
            .iter()
            .filter_map(|(p, o)| o.key_share.as_ref().map(|k| (*p, copy_lens(k))))
            .collect();
        assert!(holders.len() >= t_new, "{label}");
        // Exactly t_new of the honest holders sign.
        let set: Vec<PartyId> = holders.keys().copied().take(t_new).collect();
        lens_sign(&refs(&holders, &set), &public, label.as_bytes(), &label);
    }
}

per_curve!(peer_faults_in_keygen, |curve: Curve| {
    let name = format!("keygen faults {curve}");
    let c = lens::Ceremony::keygen(curve, sid(&name), &ids(1..=4), 3).unwrap();
    let other = lens::Ceremony::keygen(curve, sid(&format!("{name} other")), &ids(1..=4), 3).unwrap();
    let (_, other_log) = lens_deal(&other, &BTreeMap::new(), &[], None, &format!("{name} other"));
    let replays = Replays {
        other_session: &other_log,
        previous: None,
    };
    run_lens_faults(&c, &BTreeMap::new(), false, replays, (1, 2, 3), 3, &name);
});

per_curve!(peer_faults_in_reshare, |curve: Curve| {
    let name = format!("reshare faults {curve}");
    let (g0, p0) = lens_keygen(curve, 4, 3, &name);
    let refresh = lens::Ceremony::refresh(sid(&format!("{name} gen 1")), &p0, &ids(1..=4)).unwrap();
    let (out, previous) = lens_deal(&refresh, &g0, &[], None, &format!("{name} gen 1"));
    let g1 = lens_shares(out);
    let p1 = g1[&pid(1)].public().clone();
    // 3-of-4 {1..4} → 3-of-5 {2..6}; the faulty dealer 2 stays.
    let make = |label: &str| lens::Ceremony::reshare(sid(label), &p1, &ids(1..=4), &ids(2..=6), 3).unwrap();
    let c = make(&name);
    let (_, other_log) = lens_deal(&make(&format!("{name} other")), &g1, &[], None, "other");
    let replays = Replays {
        other_session: &other_log,
        previous: Some(&previous),
    };
    run_lens_faults(&c, &g1, true, replays, (2, 3, 4), 3, &name);
});

// The misaddressed-reshare attack, on a Lens key: 2-of-3 key generation; reshare to {4, 5, 6, 7} with
// t = 3 dealt by 1 and 2; dealer 1 hands 4 and 5 the message it made for 6. 4 and 5
// drop it and name dealer 1, dealer 1's openings settle it, all four hold shares, and
// exactly three of them sign (checked by the independent verifiers).
per_curve!(misaddressed_shares_in_a_reshare, |curve: Curve| {
    let (old, public) = lens_keygen(curve, 3, 2, &format!("misaddressed reshare {curve}"));
    let c =
        lens::Ceremony::reshare(sid("misaddressed reshare"), &public, &ids([1, 2]), &ids(4..=7), 3).unwrap();
    let (out, _) = lens_deal(
        &c,
        &old,
        &[],
        Some(misaddressed_reshare_tamper()),
        "misaddressed reshare",
    );
    let mut holders = BTreeMap::new();
    for p in c.participants() {
        let o = out[&p].as_ref().unwrap_or_else(|e| panic!("{p}: {e}"));
        let want: Vec<(PartyId, &str)> = if p == pid(4) || p == pid(5) {
            vec![(pid(1), "WRONG_RECIPIENT")]
        } else {
            vec![]
        };
        assert_eq!(codes(&o.dropped), want, "{p}");
        assert!(o.blame.is_empty());
        if let Some(k) = &o.key_share {
            holders.insert(p, copy_lens(k));
        }
    }
    assert_eq!(holders.keys().copied().collect::<Vec<_>>(), ids(4..=7));
    let new_public = holders[&pid(4)].public().clone();
    let epoch = new_public.epoch();
    let cert = out[&pid(1)].as_ref().unwrap().activation.clone().unwrap();
    lens::verify_activation(&new_public, epoch.generation, &epoch.transcript, &cert).unwrap();
    for three in [ids([4, 5, 6]), ids([5, 6, 7])] {
        lens_sign(
            &refs(&holders, &three),
            &new_public,
            b"after the misaddressed reshare",
            "misaddressed reshare sign",
        );
    }
});

// ---------------------------------------------------------------------------------------
// Activation certificates

fn refused(r: Result<(), Error>) -> ActivationFault {
    match r {
        Err(Error::Lss(lss::Error::InvalidActivation(f))) => f,
        other => panic!("expected a refused certificate, got {other:?}"),
    }
}

/// The new group as an observer rebuilds it from the broadcasts.
fn observed<C: vss::Curve>(c: &lens::Ceremony, t: u16, log: &[Sent], member: PartyId) -> PublicKeyPackage {
    let g = observed_group::<C>(c.dealers(), c.receivers(), t, vss::Mode::Feldman, log, member);
    PublicKeyPackage::from_lss(&AnyGroupPublic::from(g)).unwrap()
}

/// The chained activation attack on a Lens key: the reshare leaves only 2 of 4 new holders
/// (t = 3), nobody activates, and no certificate the old set can build activates the new
/// generation.
fn old_set_cannot_activate<C: vss::Curve>(curve: Curve) {
    let (old, public) = lens_keygen(curve, 3, 2, &format!("chained {curve}"));
    let c = lens::Ceremony::reshare(sid("chained"), &public, &ids(1..=3), &ids(4..=7), 3).unwrap();
    let (out, log) = lens_deal(&c, &old, &[], Some(drop_to(ids([6, 7]))), "chained");
    let want = quasar_pq::Error::Lss(lss::Error::NotEnoughPossessionProofs {
        needed: 3,
        got: 2,
        culprits: vec![],
    });
    for p in ids(1..=5) {
        assert_eq!(out[&p].as_ref().unwrap_err(), &want, "{p}");
    }
    signs(&old, &public, "the old set still signs");
    let new_public = observed::<C>(&c, 3, &log, pid(4));
    let epoch = new_public.epoch();
    let verify =
        |cert: &ActivationCertificate| lens::verify_activation(&new_public, 1, &epoch.transcript, cert);
    // An activation round of the old generation, with the old shares.
    let group = public.to_lss().unwrap();
    let group = group.as_curve::<C>().unwrap();
    let key = public.group_key_bytes();
    let started = ids(1..=3)
        .into_iter()
        .map(|p| {
            let share = old[&p].to_lss().unwrap().into_curve::<C>().unwrap();
            ActivationParty::start(
                p,
                Some(&share),
                group,
                ActivationKind::Lens,
                &key,
                &mut party_rng(b"old", p),
            )
            .unwrap()
        })
        .collect();
    let (certs, _) = run(started, None);
    let old_cert = certs[&pid(1)].as_ref().unwrap().clone();
    lens::verify_activation(&public, 0, &public.epoch().transcript, &old_cert).unwrap();
    assert_eq!(
        refused(verify(&old_cert)),
        ActivationFault::WrongGeneration { expected: 1, got: 0 }
    );
    // Its proofs patched into a certificate for the new generation.
    let mut patched = Lsa2::of(&old_cert);
    patched.generation = 1;
    patched.transcript = epoch.transcript;
    assert_eq!(
        refused(verify(&patched.cert())),
        ActivationFault::NotAMember { party: pid(1) }
    );
    for (m, id) in patched.proofs.iter_mut().zip([4u16, 6, 7]) {
        m.0 = id;
    }
    assert_eq!(
        refused(verify(&patched.cert())),
        ActivationFault::InvalidProof {
            members: ids([4, 6, 7])
        }
    );
    // The two real new proofs and a forged third.
    let proofs = broadcasts_with(&log, 3, b"LSV1");
    let real = |p: u16| (p, possession_parts(&proofs[&pid(p)]).3);
    let mut mixed = patched.clone();
    mixed.proofs = vec![real(4), real(5), (6, patched.proofs[0].1.clone())];
    assert_eq!(
        refused(verify(&mixed.cert())),
        ActivationFault::InvalidProof {
            members: vec![pid(6)]
        }
    );
    mixed.proofs.truncate(2);
    assert_eq!(
        refused(verify(&mixed.cert())),
        ActivationFault::TooFewMembers { needed: 3, got: 2 }
    );
}

#[test]
fn the_old_set_cannot_activate_the_new_generation() {
    old_set_cannot_activate::<vss::Ed25519>(Curve::Ed25519);
    old_set_cannot_activate::<vss::Secp256k1>(Curve::Secp256k1);
    old_set_cannot_activate::<vss::Ristretto255>(Curve::Ristretto255);
}

per_curve!(wrong_certificates_are_refused, |curve: Curve| {
    let (g0, p0) = lens_keygen(curve, 4, 3, &format!("refusals {curve}"));
    let c1 = lens::Ceremony::refresh(sid("refusals 1"), &p0, &ids(1..=4)).unwrap();
    let (out, _) = lens_deal(&c1, &g0, &[], None, "refusals 1");
    let cert1 = out[&pid(1)].as_ref().unwrap().activation.clone().unwrap();
    let (g1, p1) = new_generation(out, &p0, &c1);
    let c2 = lens::Ceremony::refresh(sid("refusals 2"), &p1, &ids(1..=4)).unwrap();
    let (out, _) = lens_deal(&c2, &g1, &[], None, "refusals 2");
    let p2 = out[&pid(1)].as_ref().unwrap().public.clone();
    let c1b = lens::Ceremony::refresh(sid("refusals 1b"), &p0, &ids(1..=4)).unwrap();
    let (out, _) = lens_deal(&c1b, &g0, &[], None, "refusals 1b");
    let p1b = out[&pid(1)].as_ref().unwrap().public.clone();
    let e1 = p1.epoch();
    let verify = |cert: &ActivationCertificate| lens::verify_activation(&p1, 1, &e1.transcript, cert);
    verify(&cert1).unwrap();
    let fields = Lsa2::of(&cert1);
    // t_new − 1 members.
    let mut few = fields.clone();
    few.proofs.truncate(2);
    let f = refused(verify(&few.cert()));
    assert_eq!(f, ActivationFault::TooFewMembers { needed: 3, got: 2 });
    assert_eq!(
        quasar_pq::Error::from(Error::Lss(lss::Error::InvalidActivation(f))).code(),
        "ACTIVATION_TOO_FEW_MEMBERS"
    );
    // Generation 1 replayed for generation 2.
    let f = refused(lens::verify_activation(&p2, 2, &p2.epoch().transcript, &cert1));
    assert_eq!(f, ActivationFault::WrongGeneration { expected: 2, got: 1 });
    assert_eq!(
        refused(lens::verify_activation(&p1, 2, &e1.transcript, &cert1)),
        f
    );
    // Another transcript.
    assert_eq!(
        refused(lens::verify_activation(&p1b, 1, &p1b.epoch().transcript, &cert1)),
        ActivationFault::WrongTranscript
    );
    assert_eq!(
        refused(lens::verify_activation(&p1, 1, &p1b.epoch().transcript, &cert1)),
        ActivationFault::WrongTranscript
    );
    // A non-member, a bad proof.
    let mut stranger = fields.clone();
    stranger.proofs[3].0 = 99;
    assert_eq!(
        refused(verify(&stranger.cert())),
        ActivationFault::NotAMember { party: pid(99) }
    );
    let mut bad = fields.clone();
    let last = bad.proofs[2].1.len() - 1;
    bad.proofs[2].1[last] ^= 1;
    assert_eq!(
        refused(verify(&bad.cert())),
        ActivationFault::InvalidProof {
            members: vec![pid(3)]
        }
    );
    // Another scheme's certificate of the same sharing.
    let mut pulsar = fields.clone();
    pulsar.scheme = ActivationKind::Pulsar as u8;
    assert_eq!(refused(verify(&pulsar.cert())), ActivationFault::WrongGroup);
    // No bit flip verifies.
    let bytes = cert1.to_bytes();
    for bit in 0..bytes.len() * 8 {
        let mut b = bytes.clone();
        b[bit / 8] ^= 1 << (bit % 8);
        if let Ok(c) = ActivationCertificate::from_bytes(&b) {
            assert!(verify(&c).is_err(), "bit {bit}");
        }
    }
});

// ---------------------------------------------------------------------------------------
// Encodings: the key share round trip, and secp256k1's one group-key encoding.

mod encodings {
    use quasar_pq::party::sim::Network;
    use quasar_pq::PartyId;

    fn id(v: u16) -> PartyId {
        PartyId::new(v).unwrap()
    }

    #[test]
    fn lens_share_round_trip() {
        use quasar_pq::lens::{self, Curve, KeyShare};
        use quasar_pq::party::sim::party_rng;
        for curve in Curve::ALL {
            let ids: std::collections::BTreeSet<PartyId> = (1..=3).map(id).collect();
            let (dealt, public) = lens::deal(curve, 2, &ids, &mut party_rng(b"d", id(1))).unwrap();
            for (_, d) in dealt {
                let s = KeyShare::from_dealer(d, &public).unwrap();
                let b = s.to_bytes();
                let back = KeyShare::from_bytes(curve, &b).unwrap();
                assert_eq!(back.to_bytes(), b);
            }
        }
    }

    #[test]
    fn secp256k1_key_has_one_encoding() {
        use quasar_pq::lens::{self, CoordinatorParty, Curve, SignerParty};
        use quasar_pq::party::sim::{map_output, party_rng};
        let ids: std::collections::BTreeSet<PartyId> = (1..=3).map(id).collect();
        let (dealt, public) = lens::deal(Curve::Secp256k1, 2, &ids, &mut party_rng(b"d", id(1))).unwrap();
        let shares: Vec<_> = dealt
            .into_values()
            .map(|d| lens::KeyShare::from_dealer(d, &public).unwrap())
            .collect();
        let mut net = Network::new();
        let (c, o) = CoordinatorParty::start(id(100), &public, b"m").unwrap();
        net.add(map_output(c, |o| Some(o.signature)), o);
        for s in &shares[..2] {
            let (p, o) = SignerParty::start(s, id(100), b"m", &mut party_rng(b"s", s.party())).unwrap();
            net.add(map_output(p, |_| None), o);
        }
        let sig = net
            .run()
            .into_values()
            .find_map(|o| o.unwrap())
            .unwrap()
            .to_bytes();
        // BIP-340's x-only key, as k256's verifier takes it too.
        let key = public.group_key_bytes();
        assert_eq!(key.len(), 32);
        lens::verify(Curve::Secp256k1, &key, b"m", &sig).unwrap();
        let vk = k256::schnorr::VerifyingKey::from_bytes(&key).unwrap();
        vk.verify_raw(b"m", &k256::schnorr::Signature::try_from(&sig[..]).unwrap())
            .unwrap();
        // The SEC 1 forms name the same point (02) or its negation (03): both refused.
        for prefix in [0x02, 0x03] {
            let sec1 = [&[prefix], key.as_slice()].concat();
            assert!(lens::verify(Curve::Secp256k1, &sec1, b"m", &sig).is_err());
        }
    }
}
