//! Lens (FROST, RFC 9591): key generation, signing, blame, independent standard
//! verification, strict decoding, and LSS resharing with the group key unchanged.

use std::collections::{BTreeMap, BTreeSet};

use quasar_pq::lens::{
    self, dkg, Curve, DealerShare, Error, KeyShare, PublicKeyPackage, SignatureShare, SigningCommitments,
    SigningPackage,
};
use quasar_pq::{wire, PartyId};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

// ---------------------------------------------------------------------------------------
// Helpers

fn rng(label: &str) -> ChaCha20Rng {
    let mut seed = [0u8; 32];
    for (i, b) in label.bytes().enumerate() {
        seed[i % 32] ^= b.rotate_left(i as u32 % 8);
    }
    ChaCha20Rng::from_seed(seed)
}

fn pid(i: u16) -> PartyId {
    PartyId::new(i).unwrap()
}

fn party_set(ids: impl IntoIterator<Item = u16>) -> BTreeSet<PartyId> {
    ids.into_iter().map(pid).collect()
}

/// Dealer key generation; every party accepts its share.
fn dealer(curve: Curve, t: u16, n: u16, r: &mut ChaCha20Rng) -> (Vec<KeyShare>, PublicKeyPackage) {
    let (dealt, public) = lens::deal(curve, t, &party_set(1..=n), r).unwrap();
    assert_eq!(dealt.len(), usize::from(n));
    let shares = dealt
        .into_iter()
        .map(|(p, d)| {
            assert_eq!(d.to(), p);
            // Through bytes, as over the network.
            let d = DealerShare::from_bytes(curve, &d.to_bytes()).unwrap();
            KeyShare::from_dealer(d, &public).unwrap()
        })
        .collect();
    (shares, public)
}

type R1 = BTreeMap<PartyId, dkg::Round1Message>;
type R2 = BTreeMap<PartyId, BTreeMap<PartyId, dkg::Round2Message>>;

/// Runs DKG round 1 and 2 for everyone; returns states, round-1 messages and the
/// round-2 messages per recipient (all through bytes).
fn dkg_rounds(
    curve: Curve,
    t: u16,
    n: u16,
    session: [u8; 32],
    r: &mut ChaCha20Rng,
) -> (BTreeMap<PartyId, dkg::Round2State>, R1, R2) {
    let parties = party_set(1..=n);
    let mut states1 = BTreeMap::new();
    let mut r1 = BTreeMap::new();
    for p in &parties {
        let (s, m) = dkg::round1(curve, session, *p, t, &parties, r).unwrap();
        states1.insert(*p, s);
        r1.insert(*p, dkg::Round1Message::from_bytes(curve, &m.to_bytes()).unwrap());
    }
    let mut states2 = BTreeMap::new();
    let mut inbox: R2 = BTreeMap::new();
    for (p, s) in states1 {
        let (s2, out) = dkg::round2(s, &r1).unwrap();
        assert_eq!(out.len(), usize::from(n) - 1);
        for (to, m) in out {
            let m = dkg::Round2Message::from_bytes(curve, &m.to_bytes()).unwrap();
            inbox.entry(to).or_default().insert(p, m);
        }
        states2.insert(p, s2);
    }
    (states2, r1, inbox)
}

fn dkg_keygen(curve: Curve, t: u16, n: u16, r: &mut ChaCha20Rng) -> (Vec<KeyShare>, PublicKeyPackage) {
    let (states, _, mut inbox) = dkg_rounds(curve, t, n, [7u8; 32], r);
    let shares: Vec<KeyShare> = states
        .into_iter()
        .map(|(p, s)| dkg::finish(s, &inbox.remove(&p).unwrap()).unwrap())
        .collect();
    let public = shares[0].public().clone();
    for s in &shares {
        assert_eq!(s.public().to_bytes(), public.to_bytes(), "all parties agree");
    }
    (shares, public)
}

/// One signing session among `signers` (indices into `shares`), through bytes.
fn sign(
    shares: &[&KeyShare],
    public: &PublicKeyPackage,
    msg: &[u8],
    r: &mut ChaCha20Rng,
) -> Result<lens::Signature, Error> {
    let curve = public.curve();
    let mut nonces = BTreeMap::new();
    let mut commitments = BTreeMap::new();
    for s in shares {
        let (n, c) = lens::commit(s, r);
        nonces.insert(s.party(), n);
        commitments.insert(s.party(), SigningCommitments::from_bytes(curve, &c.to_bytes())?);
    }
    let package = SigningPackage::new(public, &commitments, msg)?;
    let package = SigningPackage::from_bytes(curve, &package.to_bytes())?;
    let mut sig_shares = BTreeMap::new();
    for s in shares {
        let z = lens::sign(s, nonces.remove(&s.party()).unwrap(), &package)?;
        sig_shares.insert(s.party(), SignatureShare::from_bytes(curve, &z.to_bytes())?);
    }
    lens::aggregate(public, &package, &sig_shares)
}

/// Verifies with a verifier that shares no code with frost.
fn standard_verify(curve: Curve, group_key: &[u8], msg: &[u8], sig: &[u8; 64]) -> bool {
    match curve {
        Curve::Ed25519 => {
            let vk = ed25519_dalek::VerifyingKey::from_bytes(group_key.try_into().unwrap()).unwrap();
            vk.verify_strict(msg, &ed25519_dalek::Signature::from_bytes(sig))
                .is_ok()
        }
        Curve::Secp256k1 => {
            assert_eq!(group_key.len(), 33);
            let vk = k256::schnorr::VerifyingKey::from_bytes(&group_key[1..]).unwrap();
            let s = k256::schnorr::Signature::try_from(&sig[..]).unwrap();
            vk.verify_raw(msg, &s).is_ok()
        }
        Curve::Ristretto255 => ristretto_verify(group_key, msg, sig),
    }
}

/// RFC 9591 §6.2 FROST(ristretto255, SHA-512) verification, written independently on
/// curve25519-dalek: c = H2(R ‖ PK ‖ msg) with H2(m) = SHA-512(contextString ‖ "chal" ‖ m)
/// reduced wide; accept iff z·G == R + c·PK.
fn ristretto_verify(group_key: &[u8], msg: &[u8], sig: &[u8; 64]) -> bool {
    use curve25519_dalek::ristretto::CompressedRistretto;
    use curve25519_dalek::{RistrettoPoint, Scalar};
    use sha2::{Digest, Sha512};
    let pk = match CompressedRistretto::from_slice(group_key)
        .ok()
        .and_then(|c| c.decompress())
    {
        Some(p) => p,
        None => return false,
    };
    let r = match CompressedRistretto::from_slice(&sig[..32])
        .ok()
        .and_then(|c| c.decompress())
    {
        Some(p) => p,
        None => return false,
    };
    let z: Option<Scalar> = Scalar::from_canonical_bytes(sig[32..].try_into().unwrap()).into();
    let Some(z) = z else { return false };
    let mut h = Sha512::new();
    h.update(b"FROST-RISTRETTO255-SHA512-v1");
    h.update(b"chal");
    h.update(&sig[..32]);
    h.update(group_key);
    h.update(msg);
    let c = Scalar::from_bytes_mod_order_wide(&h.finalize().into());
    RistrettoPoint::mul_base(&z) == r + c * pk
}

/// Signs with the given parties and checks both verifiers.
fn sign_and_check(shares: &[&KeyShare], public: &PublicKeyPackage, msg: &[u8], r: &mut ChaCha20Rng) {
    let curve = public.curve();
    let sig = sign(shares, public, msg, r).unwrap();
    let gk = public.group_key_bytes();
    assert_eq!(gk.len(), curve.element_len());
    assert!(
        standard_verify(curve, &gk, msg, sig.as_bytes()),
        "{curve}: standard verifier"
    );
    lens::verify(curve, &gk, msg, sig.as_bytes()).unwrap();
    sig.verify(&gk, msg).unwrap();
    assert_eq!(
        lens::verify(curve, &gk, b"another message", sig.as_bytes()),
        Err(Error::InvalidSignature)
    );
    assert!(!standard_verify(curve, &gk, b"another message", sig.as_bytes()));
    if curve == Curve::Secp256k1 {
        lens::verify(curve, &gk[1..], msg, sig.as_bytes()).unwrap();
    }
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

// ---------------------------------------------------------------------------------------
// Key generation and signing

per_curve!(dealer_signing, |curve: Curve| {
    let mut r = rng(&format!("dealer {curve}"));
    for (t, n) in [(2u16, 3u16), (5, 7)] {
        let (shares, public) = dealer(curve, t, n, &mut r);
        assert_eq!(public.threshold(), t);
        assert_eq!(public.parties().len(), usize::from(n));
        assert_eq!(public.epoch().generation, 0);
        let all: Vec<&KeyShare> = shares.iter().collect();
        let t = usize::from(t);
        sign_and_check(&all[..t], &public, b"first t", &mut r);
        sign_and_check(&all[all.len() - t..], &public, b"last t", &mut r);
        sign_and_check(&all, &public, b"everyone", &mut r);
        // Below the threshold the coordinator refuses.
        assert_eq!(
            sign(&all[..t - 1], &public, b"too few", &mut r).unwrap_err(),
            Error::NotEnoughSigners {
                needed: t as u16,
                got: t - 1
            }
        );
    }
});

per_curve!(dkg_signing, |curve: Curve| {
    let mut r = rng(&format!("dkg {curve}"));
    for (t, n) in [(2u16, 3u16), (5, 7)] {
        let (shares, public) = dkg_keygen(curve, t, n, &mut r);
        let all: Vec<&KeyShare> = shares.iter().collect();
        let t = usize::from(t);
        sign_and_check(&all[..t], &public, b"dkg first t", &mut r);
        sign_and_check(&all[all.len() - t..], &public, b"dkg last t", &mut r);
        sign_and_check(&all, &public, b"dkg everyone", &mut r);
    }
});

#[test]
fn keygen_parameters_are_checked() {
    let mut r = rng("params");
    for (t, n) in [(1u16, 3u16), (0, 3), (4, 3), (2, 1)] {
        assert_eq!(
            lens::deal(Curve::Ed25519, t, &party_set(1..=n), &mut r).unwrap_err(),
            Error::InvalidThreshold {
                threshold: t,
                parties: usize::from(n)
            }
        );
    }
    let err = dkg::round1(Curve::Ed25519, [0; 32], pid(9), 2, &party_set(1..=3), &mut r).unwrap_err();
    assert_eq!(err, Error::UnknownParty { party: pid(9) });
}

/// The BIP-340 post-processing of a secp256k1 DKG key negates the summed sharing when the
/// summed key has an odd y; the derived Feldman commitment must follow (every run checks
/// it against the verifying shares). Enough runs to meet both parities.
#[test]
fn secp256k1_dkg_commitment_follows_key_normalisation() {
    let mut r = rng("secp parity");
    for _ in 0..10 {
        let (shares, public) = dkg_keygen(Curve::Secp256k1, 2, 2, &mut r);
        assert_eq!(public.commitment_bytes()[0], public.group_key_bytes());
        let all: Vec<&KeyShare> = shares.iter().collect();
        assert!(sign(&all, &public, b"parity", &mut r).is_ok());
    }
}

#[test]
fn sparse_party_ids_work() {
    let mut r = rng("sparse");
    let parties = party_set([3, 17, 200, 65535]);
    let (dealt, public) = lens::deal(Curve::Secp256k1, 3, &parties, &mut r).unwrap();
    let shares: Vec<KeyShare> = dealt
        .into_values()
        .map(|d| KeyShare::from_dealer(d, &public).unwrap())
        .collect();
    let all: Vec<&KeyShare> = shares.iter().collect();
    sign_and_check(&all[1..], &public, b"sparse", &mut r);
}

// ---------------------------------------------------------------------------------------
// Blame

per_curve!(misbehaving_signers_are_named, |curve: Curve| {
    let mut r = rng(&format!("blame {curve}"));
    let (shares, public) = dealer(curve, 3, 5, &mut r);
    let signers: Vec<&KeyShare> = shares.iter().take(4).collect();

    let session = |r: &mut ChaCha20Rng| {
        let mut nonces = BTreeMap::new();
        let mut commitments = BTreeMap::new();
        for s in &signers {
            let (n, c) = lens::commit(s, r);
            nonces.insert(s.party(), n);
            commitments.insert(s.party(), c);
        }
        (nonces, commitments)
    };

    // (a) Corrupted share bytes that still decode (a canonical scalar, just wrong).
    let (mut nonces, commitments) = session(&mut r);
    let package = SigningPackage::new(&public, &commitments, b"blame").unwrap();
    let mut z = BTreeMap::new();
    for s in &signers {
        let share = lens::sign(s, nonces.remove(&s.party()).unwrap(), &package).unwrap();
        let mut bytes = share.to_bytes();
        if s.party() == pid(2) || s.party() == pid(4) {
            // The scalar is the last 32 bytes; change its least significant byte (byte 0
            // little-endian on the 25519 curves, byte 31 big-endian on secp) by ±1 for one
            // cheater and ±2 for the other, so the errors cannot cancel in the sum.
            let len = bytes.len();
            let idx = if curve == Curve::Secp256k1 {
                len - 1
            } else {
                len - 32
            };
            bytes[idx] ^= if s.party() == pid(2) { 1 } else { 2 };
        }
        z.insert(s.party(), SignatureShare::from_bytes(curve, &bytes).unwrap());
    }
    let err = lens::aggregate(&public, &package, &z).unwrap_err();
    assert_eq!(
        err,
        Error::InvalidSignatureShare {
            culprits: vec![pid(2), pid(4)]
        }
    );
    assert_eq!(err.culprits(), &[pid(2), pid(4)]);
    assert_eq!(err.code(), "INVALID_SIGNATURE_SHARE");
    assert_eq!(quasar_pq::Error::from(err.clone()).culprits(), &[pid(2), pid(4)]);

    // (b) A share computed over a different message (same commitments).
    let (mut nonces, commitments) = session(&mut r);
    let package = SigningPackage::new(&public, &commitments, b"the real message").unwrap();
    let other = SigningPackage::new(&public, &commitments, b"something else").unwrap();
    let mut z = BTreeMap::new();
    for s in &signers {
        let pkg = if s.party() == pid(3) { &other } else { &package };
        z.insert(
            s.party(),
            lens::sign(s, nonces.remove(&s.party()).unwrap(), pkg).unwrap(),
        );
    }
    let err = lens::aggregate(&public, &package, &z).unwrap_err();
    assert_eq!(err.culprits(), &[pid(3)]);

    // (c) A share relabelled as another signer's: the transport sender is named.
    let (mut nonces, commitments) = session(&mut r);
    let package = SigningPackage::new(&public, &commitments, b"relabel").unwrap();
    let mut z = BTreeMap::new();
    for s in &signers {
        z.insert(
            s.party(),
            lens::sign(s, nonces.remove(&s.party()).unwrap(), &package).unwrap(),
        );
    }
    let stolen = z[&pid(1)].clone();
    z.insert(pid(2), stolen);
    assert_eq!(
        lens::aggregate(&public, &package, &z).unwrap_err(),
        Error::SenderMismatch {
            party: pid(2),
            claimed: pid(1)
        }
    );
    z.remove(&pid(2));
    assert_eq!(
        lens::aggregate(&public, &package, &z).unwrap_err(),
        Error::MissingMessage { party: pid(2) }
    );
});

per_curve!(coordinator_and_signer_checks, |curve: Curve| {
    let mut r = rng(&format!("checks {curve}"));
    let (shares, public) = dealer(curve, 2, 3, &mut r);
    let (n1, c1) = lens::commit(&shares[0], &mut r);
    let (n2, c2) = lens::commit(&shares[1], &mut r);

    // A commitment filed under the wrong transport sender.
    let mut m = BTreeMap::new();
    m.insert(pid(1), c1.clone());
    m.insert(pid(3), c2.clone());
    assert_eq!(
        SigningPackage::new(&public, &m, b"x").unwrap_err(),
        Error::SenderMismatch {
            party: pid(3),
            claimed: pid(2)
        }
    );
    // A party without a share.
    let (other_shares, _) = dealer(curve, 2, 4, &mut r);
    let (_, c4) = lens::commit(&other_shares[3], &mut r);
    let mut m = BTreeMap::new();
    m.insert(pid(1), c1.clone());
    m.insert(pid(4), c4);
    assert_eq!(
        SigningPackage::new(&public, &m, b"x").unwrap_err(),
        Error::UnknownParty { party: pid(4) }
    );

    let mut m = BTreeMap::new();
    m.insert(pid(1), c1.clone());
    m.insert(pid(2), c2.clone());
    let package = SigningPackage::new(&public, &m, b"x").unwrap();
    // The third party is not in the package.
    let (n3, _) = lens::commit(&shares[2], &mut r);
    assert_eq!(
        lens::sign(&shares[2], n3, &package).unwrap_err(),
        Error::CommitmentMismatch { party: pid(3) }
    );
    // Nonces of another party.
    assert_eq!(
        lens::sign(&shares[0], n2, &package).unwrap_err(),
        Error::CommitmentMismatch { party: pid(1) }
    );
    // Nonces that are not the ones committed in the package.
    let (fresh, _) = lens::commit(&shares[0], &mut r);
    assert_eq!(
        lens::sign(&shares[0], fresh, &package).unwrap_err(),
        Error::CommitmentMismatch { party: pid(1) }
    );
    drop(n1);

    // Duplicate signers in an encoded package are a typed error naming the party.
    let bytes = package.to_bytes();
    let (dup, _) = duplicate_first_signer(&bytes);
    assert_eq!(
        SigningPackage::from_bytes(curve, &dup).unwrap_err(),
        Error::DuplicateSigner { party: pid(1) }
    );

    // Objects of another curve are refused.
    let other_curve = if curve == Curve::Ed25519 {
        Curve::Ristretto255
    } else {
        Curve::Ed25519
    };
    let (other, other_public) = dealer(other_curve, 2, 3, &mut r);
    let (_, oc) = lens::commit(&other[0], &mut r);
    let mut m = BTreeMap::new();
    m.insert(pid(1), oc);
    m.insert(pid(2), c2);
    assert_eq!(
        SigningPackage::new(&public, &m, b"x").unwrap_err(),
        Error::WrongCurve {
            expected: curve,
            found: other_curve
        }
    );
    assert!(matches!(
        lens::aggregate(&other_public, &package, &BTreeMap::new()),
        Err(Error::WrongCurve { .. })
    ));
});

/// Rewrites an encoded signing package so that its first signer entry appears twice.
fn duplicate_first_signer(bytes: &[u8]) -> (Vec<u8>, usize) {
    // header 7 ‖ epoch 40 ‖ u32 count ‖ (u16 party ‖ u32 len ‖ commitments)…
    let count_at = 7 + 40;
    let first = count_at + 4;
    let len = u32::from_be_bytes(bytes[first + 2..first + 6].try_into().unwrap()) as usize;
    let entry = bytes[first..first + 6 + len].to_vec();
    let count = u32::from_be_bytes(bytes[count_at..first].try_into().unwrap());
    let mut out = bytes[..count_at].to_vec();
    out.extend_from_slice(&(count + 1).to_be_bytes());
    out.extend_from_slice(&entry);
    out.extend_from_slice(&bytes[first..]);
    (out, entry.len())
}

per_curve!(dkg_blame, |curve: Curve| {
    let mut r = rng(&format!("dkg blame {curve}"));
    let parties = party_set(1..=4);
    let session = [9u8; 32];

    // Round 1: party 2 broadcasts party 3's commitment and proof relabelled as its own:
    // the proof of knowledge (bound to the identifier) fails and names party 2.
    let mut states = BTreeMap::new();
    let mut r1 = BTreeMap::new();
    for p in &parties {
        let (s, m) = dkg::round1(curve, session, *p, 3, &parties, &mut r).unwrap();
        states.insert(*p, s);
        r1.insert(*p, m);
    }
    let mut forged = r1[&pid(3)].to_bytes();
    forged[39..41].copy_from_slice(&2u16.to_be_bytes()); // the `from` field
    let mut bad = r1.clone();
    bad.insert(pid(2), dkg::Round1Message::from_bytes(curve, &forged).unwrap());
    let s1 = states.remove(&pid(1)).unwrap();
    let err = dkg::round2(s1, &bad).unwrap_err();
    assert_eq!(err, Error::InvalidProofOfKnowledge { culprit: pid(2) });
    assert_eq!(err.culprits(), &[pid(2)]);

    // A message filed under another sender, a missing one, another session.
    let mut bad = r1.clone();
    bad.insert(pid(2), r1[&pid(3)].clone());
    let s4 = states.remove(&pid(4)).unwrap();
    assert_eq!(
        dkg::round2(s4, &bad).unwrap_err(),
        Error::SenderMismatch {
            party: pid(2),
            claimed: pid(3)
        }
    );
    let mut bad = r1.clone();
    bad.remove(&pid(1));
    let s3 = states.remove(&pid(3)).unwrap();
    assert_eq!(
        dkg::round2(s3, &bad).unwrap_err(),
        Error::MissingMessage { party: pid(1) }
    );

    // A commitment of the wrong degree (from a threshold-2 run) names its sender.
    let (_, m2) = dkg::round1(curve, session, pid(1), 2, &parties, &mut r).unwrap();
    let (s, _) = dkg::round1(curve, session, pid(2), 3, &parties, &mut r).unwrap();
    let mut bad = r1.clone();
    bad.insert(pid(1), m2);
    assert_eq!(
        dkg::round2(s, &bad).unwrap_err(),
        Error::InvalidCommitment { culprit: pid(1) }
    );

    let (_, m_other_session) = dkg::round1(curve, [1u8; 32], pid(1), 3, &parties, &mut r).unwrap();
    let (s, _) = dkg::round1(curve, session, pid(2), 3, &parties, &mut r).unwrap();
    let mut bad = r1.clone();
    bad.insert(pid(1), m_other_session);
    assert_eq!(
        dkg::round2(s, &bad).unwrap_err(),
        Error::SessionMismatch { party: pid(1) }
    );

    // Round 2: party 2 sends party 1 the share meant for party 3 (relabelled): the share
    // does not match party 2's commitment at x = 1, and party 2 is named.
    let (mut states2, _, mut inbox) = dkg_rounds(curve, 3, 4, session, &mut r);
    let mut to1 = inbox.remove(&pid(1)).unwrap();
    let meant_for_3 = inbox.get_mut(&pid(3)).unwrap().remove(&pid(2)).unwrap();
    let mut forged = meant_for_3.to_bytes().to_vec();
    forged[41..43].copy_from_slice(&1u16.to_be_bytes()); // the `to` field
    to1.insert(pid(2), dkg::Round2Message::from_bytes(curve, &forged).unwrap());
    let err = dkg::finish(states2.remove(&pid(1)).unwrap(), &to1).unwrap_err();
    assert_eq!(
        err,
        Error::InvalidSecretShare {
            culprit: Some(pid(2))
        }
    );
    assert_eq!(err.culprits(), &[pid(2)]);
    // A share addressed to someone else names its sender.
    let to4 = inbox.remove(&pid(4)).unwrap();
    let mut wrong = to4;
    let misaddressed = dkg::Round2Message::from_bytes(curve, &meant_for_3.to_bytes()).unwrap();
    wrong.insert(pid(2), misaddressed);
    assert_eq!(
        dkg::finish(states2.remove(&pid(4)).unwrap(), &wrong).unwrap_err(),
        Error::WrongRecipient {
            party: pid(2),
            to: pid(3)
        }
    );
});

#[test]
fn tampered_dealer_share_is_rejected() {
    let mut r = rng("dealer tamper");
    let (mut dealt, public) = lens::deal(Curve::Ed25519, 2, &party_set(1..=3), &mut r).unwrap();
    // Party 1 is handed party 2's share: it does not belong to party 1.
    let two = dealt.remove(&pid(2)).unwrap();
    let mut bytes = two.to_bytes().to_vec();
    bytes[47..49].copy_from_slice(&1u16.to_be_bytes()); // the `to` field
    assert_eq!(
        DealerShare::from_bytes(Curve::Ed25519, &bytes).unwrap_err(),
        Error::Decode(wire::Error::InvalidValue(
            "share identifier differs from the recipient"
        ))
    );
    // A share that opens another dealing's commitment: the dealer equivocated.
    let (mut other, _) = lens::deal(Curve::Ed25519, 2, &party_set(1..=3), &mut r).unwrap();
    let mut foreign = other.remove(&pid(1)).unwrap().to_bytes().to_vec();
    foreign[7..47].copy_from_slice(&epoch_bytes(public.epoch()));
    let foreign = DealerShare::from_bytes(Curve::Ed25519, &foreign).unwrap();
    assert_eq!(
        KeyShare::from_dealer(foreign, &public).unwrap_err(),
        Error::InvalidSecretShare { culprit: None }
    );
    // A share from another dealing.
    let (mut other, _) = lens::deal(Curve::Ed25519, 2, &party_set(1..=3), &mut r).unwrap();
    assert!(matches!(
        KeyShare::from_dealer(other.remove(&pid(1)).unwrap(), &public),
        Err(Error::EpochMismatch { party: None, .. })
    ));
}

// ---------------------------------------------------------------------------------------
// Verification

#[test]
fn verify_rejects_malformed_input() {
    let mut r = rng("verify");
    for curve in Curve::ALL {
        let (shares, public) = dealer(curve, 2, 3, &mut r);
        let all: Vec<&KeyShare> = shares.iter().collect();
        let sig = sign(&all[..2], &public, b"m", &mut r).unwrap();
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
        // A non-canonical scalar.
        let mut bad = s;
        bad[32..].copy_from_slice(&[0xff; 32]);
        assert!(matches!(
            lens::verify(curve, &gk, b"m", &bad),
            Err(Error::Decode(_))
        ));
        // Another key.
        let (_, other) = dealer(curve, 2, 3, &mut r);
        assert_eq!(
            lens::verify(curve, &other.group_key_bytes(), b"m", &s),
            Err(Error::InvalidSignature)
        );
        assert_eq!(lens::Signature::from_bytes(curve, &s).unwrap(), sig);
    }
}

// ---------------------------------------------------------------------------------------
// Strict decoding

/// Every truncation, a one-byte extension, every header bit flip and a wrong curve byte
/// give typed errors; body bit flips never panic.
fn check_decoder<T, F>(what: &str, curve: Curve, bytes: &[u8], decode: F)
where
    F: Fn(Curve, &[u8]) -> Result<T, Error>,
{
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
    // Body bit flips: any outcome but a panic (some flips, e.g. in the message being
    // signed, still decode).
    for i in 7..bytes.len() {
        let mut b = bytes.to_vec();
        b[i] ^= 0x80;
        let _ = decode(curve, &b);
    }
}

per_curve!(decoders_are_strict, |curve: Curve| {
    let mut r = rng(&format!("decoders {curve}"));
    let (dealt, public) = lens::deal(curve, 2, &party_set(1..=3), &mut r).unwrap();
    let d = dealt.values().next().unwrap();
    check_decoder("dealer share", curve, &d.to_bytes(), |c, b| {
        DealerShare::from_bytes(c, b)
    });
    check_decoder("public key package", curve, &public.to_bytes(), |c, b| {
        PublicKeyPackage::from_bytes(c, b)
    });
    assert_eq!(
        PublicKeyPackage::from_bytes(curve, &public.to_bytes()).unwrap(),
        public
    );
    let shares: Vec<KeyShare> = dealt
        .into_values()
        .map(|d| KeyShare::from_dealer(d, &public).unwrap())
        .collect();
    check_decoder("key share", curve, &shares[0].to_bytes(), |c, b| {
        KeyShare::from_bytes(c, b)
    });
    let back = KeyShare::from_bytes(curve, &shares[0].to_bytes()).unwrap();
    assert_eq!(back.to_bytes(), shares[0].to_bytes());

    let (n1, c1) = lens::commit(&shares[0], &mut r);
    let (n2, c2) = lens::commit(&shares[1], &mut r);
    check_decoder("signing commitments", curve, &c1.to_bytes(), |c, b| {
        SigningCommitments::from_bytes(c, b)
    });
    assert_eq!(SigningCommitments::from_bytes(curve, &c1.to_bytes()).unwrap(), c1);
    let m: BTreeMap<_, _> = [(pid(1), c1), (pid(2), c2)].into_iter().collect();
    let package = SigningPackage::new(&public, &m, b"decode me").unwrap();
    check_decoder("signing package", curve, &package.to_bytes(), |c, b| {
        SigningPackage::from_bytes(c, b)
    });
    assert_eq!(
        SigningPackage::from_bytes(curve, &package.to_bytes()).unwrap(),
        package
    );
    let z1 = lens::sign(&shares[0], n1, &package).unwrap();
    let z2 = lens::sign(&shares[1], n2, &package).unwrap();
    check_decoder("signature share", curve, &z1.to_bytes(), |c, b| {
        SignatureShare::from_bytes(c, b)
    });
    assert_eq!(SignatureShare::from_bytes(curve, &z1.to_bytes()).unwrap(), z1);
    let z: BTreeMap<_, _> = [(pid(1), z1), (pid(2), z2)].into_iter().collect();
    lens::aggregate(&public, &package, &z).unwrap();

    let (states, r1, mut inbox) = dkg_rounds(curve, 2, 3, [3u8; 32], &mut r);
    drop(states);
    check_decoder("dkg round 1", curve, &r1[&pid(1)].to_bytes(), |c, b| {
        dkg::Round1Message::from_bytes(c, b)
    });
    let m = inbox.get_mut(&pid(1)).unwrap().remove(&pid(2)).unwrap();
    check_decoder("dkg round 2", curve, &m.to_bytes(), |c, b| {
        dkg::Round2Message::from_bytes(c, b)
    });
});

#[test]
fn secrets_are_redacted() {
    let mut r = rng("redact");
    let (dealt, public) = lens::deal(Curve::Ed25519, 2, &party_set(1..=3), &mut r).unwrap();
    let d = dealt.into_values().next().unwrap();
    assert!(format!("{d:?}").contains("redacted"));
    let share = KeyShare::from_dealer(d, &public).unwrap();
    let dbg = format!("{share:?}");
    assert!(dbg.contains("redacted"), "{dbg}");
    let (nonces, _) = lens::commit(&share, &mut r);
    assert!(format!("{nonces:?}").contains("redacted"));
}

#[test]
fn error_codes_are_distinct() {
    let p = pid(1);
    let e = lens::KeyEpoch {
        generation: 0,
        transcript: [0; 32],
    };
    let errors = [
        Error::WrongCurve {
            expected: Curve::Ed25519,
            found: Curve::Secp256k1,
        },
        Error::InvalidThreshold {
            threshold: 0,
            parties: 0,
        },
        Error::UnknownParty { party: p },
        Error::DuplicateSigner { party: p },
        Error::SenderMismatch { party: p, claimed: p },
        Error::WrongRecipient { party: p, to: p },
        Error::SessionMismatch { party: p },
        Error::MissingMessage { party: p },
        Error::NotEnoughSigners { needed: 2, got: 1 },
        Error::EpochMismatch {
            party: Some(p),
            expected: e,
            found: e,
        },
        Error::CommitmentMismatch { party: p },
        Error::InvalidSignatureShare { culprits: vec![p] },
        Error::InvalidProofOfKnowledge { culprit: p },
        Error::InvalidSecretShare { culprit: Some(p) },
        Error::InvalidCommitment { culprit: p },
        Error::InvalidSignature,
        Error::Internal("x"),
    ];
    let codes: BTreeSet<&str> = errors.iter().map(Error::code).collect();
    assert_eq!(codes.len(), errors.len());
    for e in &errors {
        let top = quasar_pq::Error::from(e.clone());
        assert_eq!(top.module(), "lens");
        assert_eq!(top.code(), e.code());
    }
}

// ---------------------------------------------------------------------------------------
// LSS resharing

use lens::reshare;
use quasar_pq::lss;

/// Misbehaviour injected into a resharing run.
#[derive(Default)]
struct Faults {
    /// (dealer, receiver): the dealer's share to that receiver is corrupted in a way that
    /// still decodes, and the dealer then withholds its response.
    corrupt: Vec<(u16, u16)>,
    /// Dealers whose deal broadcast is truncated (does not decode).
    garbled_deal: Vec<u16>,
    /// Dealers whose deal still decodes but carries a wrong proof of knowledge (key
    /// generation only: the last byte-order-lowest bit of the proof's `z` is flipped).
    bad_proof: Vec<u16>,
}

/// Runs one refresh or reshare among every participant, all messages through bytes.
fn run(
    ceremony: &reshare::Ceremony,
    old: &BTreeMap<PartyId, KeyShare>,
    faults: &Faults,
    r: &mut ChaCha20Rng,
) -> BTreeMap<PartyId, Result<reshare::Outcome, Error>> {
    let participants: BTreeSet<PartyId> = ceremony
        .dealers()
        .iter()
        .chain(ceremony.receivers())
        .copied()
        .collect();
    let curve = ceremony.curve();
    let cheaters: BTreeSet<PartyId> = faults.corrupt.iter().map(|(d, _)| pid(*d)).collect();

    let mut states = BTreeMap::new();
    let mut deals: BTreeMap<PartyId, Vec<u8>> = BTreeMap::new();
    let mut inbox: BTreeMap<PartyId, BTreeMap<PartyId, Vec<u8>>> = BTreeMap::new();
    for p in &participants {
        let (state, out) = reshare::round1(ceremony, *p, old.get(p), r).unwrap();
        if let Some(mut deal) = out.deal {
            if faults.garbled_deal.contains(&p.get()) {
                deal.truncate(deal.len() - 1);
            }
            deals.insert(*p, deal);
        }
        for (to, bytes) in out.shares {
            let mut bytes = bytes.to_vec();
            if faults.corrupt.contains(&(p.get(), to.get())) {
                // The share value sits at bytes 45..77 (LSP1 layout); change its least
                // significant byte (little-endian on the 25519 curves, big-endian on secp).
                let i = if curve == Curve::Secp256k1 { 76 } else { 45 };
                bytes[i] ^= 1;
            }
            inbox.entry(to).or_default().insert(*p, bytes);
        }
        states.insert(*p, state);
    }
    let mut complaints = BTreeMap::new();
    let mut states2 = BTreeMap::new();
    for (p, s) in states {
        let empty = BTreeMap::new();
        let (s2, c) = s.round2(&deals, inbox.get(&p).unwrap_or(&empty)).unwrap();
        if let Some(c) = c {
            complaints.insert(p, c);
        }
        states2.insert(p, s2);
    }
    let mut responses = BTreeMap::new();
    let mut states3 = BTreeMap::new();
    for (p, s) in states2 {
        let (s3, resp) = s.round3(&complaints).unwrap();
        if let Some(resp) = resp {
            if !cheaters.contains(&p) {
                responses.insert(p, resp);
            }
        }
        states3.insert(p, s3);
    }
    states3
        .into_iter()
        .map(|(p, s)| (p, s.finalize(&responses)))
        .collect()
}

/// Checks a successful run: every participant agrees on the new public package, the
/// group key bytes are unchanged, the generation advanced; returns the new shares.
fn new_generation(
    outcomes: BTreeMap<PartyId, Result<reshare::Outcome, Error>>,
    old_public: &PublicKeyPackage,
    ceremony: &reshare::Ceremony,
) -> (BTreeMap<PartyId, KeyShare>, PublicKeyPackage, Vec<lss::Blame>) {
    let mut shares = BTreeMap::new();
    let mut public: Option<PublicKeyPackage> = None;
    let mut blame = None;
    for (p, o) in outcomes {
        let o = o.unwrap_or_else(|e| panic!("{p}: {e}"));
        match &public {
            None => public = Some(o.public.clone()),
            Some(pk) => assert_eq!(pk.to_bytes(), o.public.to_bytes(), "{p} agrees"),
        }
        if blame.is_none() {
            blame = Some(o.blame.clone());
        }
        assert_eq!(o.key_share.is_some(), ceremony.receivers().contains(&p));
        if let Some(s) = o.key_share {
            shares.insert(p, s);
        }
    }
    let public = public.unwrap();
    assert_eq!(
        public.group_key_bytes(),
        old_public.group_key_bytes(),
        "group key byte-identical"
    );
    assert_eq!(public.epoch().generation, old_public.epoch().generation + 1);
    assert_ne!(public.epoch().transcript, old_public.epoch().transcript);
    assert_eq!(public.threshold(), ceremony.threshold());
    assert_eq!(public.parties(), ceremony.receivers());
    // The new package survives its own decoder, and so does every share.
    assert_eq!(
        PublicKeyPackage::from_bytes(public.curve(), &public.to_bytes()).unwrap(),
        public
    );
    for s in shares.values() {
        assert_eq!(s.epoch(), public.epoch());
        KeyShare::from_bytes(public.curve(), &s.to_bytes()).unwrap();
    }
    (shares, public, blame.unwrap())
}

/// `t` of the new set sign (first and last `t`), under the standard verifier; the new set
/// signs the activation certificate, which verifies.
fn check_new_generation(
    shares: &BTreeMap<PartyId, KeyShare>,
    public: &PublicKeyPackage,
    r: &mut ChaCha20Rng,
) {
    let all: Vec<&KeyShare> = shares.values().collect();
    let t = usize::from(public.threshold());
    sign_and_check(&all[..t], public, b"after resharing", r);
    sign_and_check(&all[all.len() - t..], public, b"after resharing, others", r);

    let message = reshare::activation_message(public);
    assert_eq!(
        message,
        lss::activation_message(
            lss::ActivationKind::Lens,
            &public.epoch().transcript,
            public.epoch().generation
        )
    );
    let sig = sign(&all[..t], public, &message, r).unwrap();
    let cert = reshare::activation_certificate(public, &sig).unwrap();
    reshare::verify_activation(public, &cert).unwrap();
    let cert = lss::ActivationCertificate::from_bytes(&cert.to_bytes()).unwrap();
    reshare::verify_activation(public, &cert).unwrap();
    let gk = public.group_key_bytes();
    let sig_bytes: [u8; 64] = cert.signature.as_slice().try_into().unwrap();
    assert!(
        standard_verify(public.curve(), &gk, &cert.message(), &sig_bytes),
        "standard verifier"
    );
    // A certificate for another generation, or with another signature, fails.
    let mut wrong = cert.clone();
    wrong.generation += 1;
    assert_eq!(
        reshare::verify_activation(public, &wrong),
        Err(Error::Lss(lss::Error::ActivationMismatch))
    );
    let other = sign(&all[..t], public, b"not the activation message", r).unwrap();
    let mut wrong = cert.clone();
    wrong.signature = other.to_bytes().to_vec();
    assert_eq!(
        reshare::verify_activation(public, &wrong),
        Err(Error::Lss(lss::Error::InvalidActivation))
    );
    assert_eq!(
        reshare::activation_certificate(public, &other).unwrap_err(),
        Error::InvalidSignature
    );
}

fn by_party(shares: Vec<KeyShare>) -> BTreeMap<PartyId, KeyShare> {
    shares.into_iter().map(|s| (s.party(), s)).collect()
}

fn ids(range: impl IntoIterator<Item = u16>) -> Vec<PartyId> {
    range.into_iter().map(pid).collect()
}

/// Old-generation shares cannot be mixed with new ones: stale commitments, a stale
/// signer, a stale share, and a forged epoch tag are all refused, naming the party.
fn check_no_mixing(
    old: &KeyShare,
    new: &BTreeMap<PartyId, KeyShare>,
    public: &PublicKeyPackage,
    r: &mut ChaCha20Rng,
) {
    let curve = public.curve();
    let p = old.party();
    assert!(new.contains_key(&p), "the test needs a party in both generations");
    let t = usize::from(public.threshold());
    let others: Vec<&KeyShare> = new.values().filter(|s| s.party() != p).take(t - 1).collect();

    // (a) The coordinator refuses commitments made with the old share.
    let mut commitments = BTreeMap::new();
    let mut nonces = BTreeMap::new();
    for s in &others {
        let (n, c) = lens::commit(s, r);
        nonces.insert(s.party(), n);
        commitments.insert(s.party(), c);
    }
    let (old_nonces, old_c) = lens::commit(old, r);
    commitments.insert(p, old_c.clone());
    assert_eq!(
        SigningPackage::new(public, &commitments, b"mix").unwrap_err(),
        Error::EpochMismatch {
            party: Some(p),
            expected: public.epoch(),
            found: old.epoch()
        }
    );

    // (b) An old share refuses to sign a new-generation package.
    let (new_nonces, new_c) = lens::commit(&new[&p], r);
    commitments.insert(p, new_c);
    let package = SigningPackage::new(public, &commitments, b"mix").unwrap();
    assert_eq!(
        lens::sign(old, old_nonces, &package).unwrap_err(),
        Error::EpochMismatch {
            party: None,
            expected: old.epoch(),
            found: public.epoch()
        }
    );

    // (c) A share tagged with the old epoch is refused by the coordinator, naming it.
    let mut z = BTreeMap::new();
    for s in &others {
        z.insert(
            s.party(),
            lens::sign(s, nonces.remove(&s.party()).unwrap(), &package).unwrap(),
        );
    }
    let honest = lens::sign(&new[&p], new_nonces, &package).unwrap();
    let mut stale = honest.to_bytes();
    stale[7..15].copy_from_slice(&old.epoch().generation.to_be_bytes());
    stale[15..47].copy_from_slice(&old.epoch().transcript);
    z.insert(p, SignatureShare::from_bytes(curve, &stale).unwrap());
    assert_eq!(
        lens::aggregate(public, &package, &z).unwrap_err(),
        Error::EpochMismatch {
            party: Some(p),
            expected: public.epoch(),
            found: old.epoch()
        }
    );

    // (d) A party that forges the epoch tags signs with its old share anyway: share
    // verification against the new verifying share names it.
    let mut commitments = BTreeMap::new();
    let mut nonces = BTreeMap::new();
    for s in &others {
        let (n, c) = lens::commit(s, r);
        nonces.insert(s.party(), n);
        commitments.insert(s.party(), c);
    }
    let (old_nonces, old_c) = lens::commit(old, r);
    let mut forged_c = old_c.to_bytes();
    forged_c[7..47].copy_from_slice(&epoch_bytes(public.epoch()));
    commitments.insert(p, SigningCommitments::from_bytes(curve, &forged_c).unwrap());
    let package = SigningPackage::new(public, &commitments, b"forged").unwrap();
    let mut as_old = package.to_bytes();
    as_old[7..47].copy_from_slice(&epoch_bytes(old.epoch()));
    let old_view = SigningPackage::from_bytes(curve, &as_old).unwrap();
    let stale = match lens::sign(old, old_nonces, &old_view) {
        Ok(stale) => stale,
        // The new signers are not all old parties, or too few for the old threshold: the
        // old share's own checks refuse before any arithmetic.
        Err(e @ (Error::UnknownParty { .. } | Error::NotEnoughSigners { .. })) => {
            assert!(
                old.public().threshold() != public.threshold() || old.public().parties() != public.parties(),
                "{e}"
            );
            return;
        }
        Err(e) => panic!("{e}"),
    };
    let mut forged = stale.to_bytes();
    forged[7..47].copy_from_slice(&epoch_bytes(public.epoch()));
    let mut z = BTreeMap::new();
    for s in &others {
        z.insert(
            s.party(),
            lens::sign(s, nonces.remove(&s.party()).unwrap(), &package).unwrap(),
        );
    }
    z.insert(p, SignatureShare::from_bytes(curve, &forged).unwrap());
    let err = lens::aggregate(public, &package, &z).unwrap_err();
    assert_eq!(err, Error::InvalidSignatureShare { culprits: vec![p] });
}

fn epoch_bytes(e: lens::KeyEpoch) -> [u8; 40] {
    let mut out = [0u8; 40];
    out[..8].copy_from_slice(&e.generation.to_be_bytes());
    out[8..].copy_from_slice(&e.transcript);
    out
}

per_curve!(refresh, |curve: Curve| {
    let mut r = rng(&format!("refresh {curve}"));
    let (shares, public) = dealer(curve, 3, 5, &mut r);
    let old = by_party(shares);
    let ceremony = reshare::Ceremony::refresh([1; 32], &public, &ids(1..=5)).unwrap();
    assert_eq!(ceremony.kind(), lss::Kind::Refresh);
    assert_eq!(ceremony.new_generation(), 1);
    let outcomes = run(&ceremony, &old, &Faults::default(), &mut r);
    let (new, new_public, blame) = new_generation(outcomes, &public, &ceremony);
    assert!(blame.is_empty());
    for (p, s) in &new {
        assert_ne!(
            s.public().verifying_share_bytes(*p),
            old[p].public().verifying_share_bytes(*p),
            "fresh shares"
        );
    }
    check_new_generation(&new, &new_public, &mut r);
    check_no_mixing(&old[&pid(2)], &new, &new_public, &mut r);
    // The old generation still signs on its own (nothing was mutated).
    let old_all: Vec<&KeyShare> = old.values().collect();
    sign_and_check(&old_all[..3], &public, b"old generation", &mut r);
});

per_curve!(reshare_same_set_after_dkg, |curve: Curve| {
    let mut r = rng(&format!("reshare same {curve}"));
    let (shares, public) = dkg_keygen(curve, 3, 5, &mut r);
    let old = by_party(shares);
    let ceremony = reshare::Ceremony::reshare([2; 32], &public, &ids([1, 2, 4, 5]), &ids(1..=5), 3).unwrap();
    let outcomes = run(&ceremony, &old, &Faults::default(), &mut r);
    let (new, new_public, _) = new_generation(outcomes, &public, &ceremony);
    check_new_generation(&new, &new_public, &mut r);
    check_no_mixing(&old[&pid(4)], &new, &new_public, &mut r);
});

per_curve!(reshare_new_set_threshold_up, |curve: Curve| {
    let mut r = rng(&format!("reshare up {curve}"));
    let (shares, public) = dealer(curve, 2, 3, &mut r);
    let old = by_party(shares);
    // (2, 3) on {1, 2, 3} → (4, 6) on {4, …, 9}: a disjoint set, threshold up.
    let ceremony = reshare::Ceremony::reshare([3; 32], &public, &ids([1, 3]), &ids(4..=9), 4).unwrap();
    let outcomes = run(&ceremony, &old, &Faults::default(), &mut r);
    let (new, new_public, _) = new_generation(outcomes, &public, &ceremony);
    check_new_generation(&new, &new_public, &mut r);
    // Three of the new set are below the new threshold.
    let three: Vec<&KeyShare> = new.values().take(3).collect();
    assert_eq!(
        sign(&three, &new_public, b"x", &mut r).unwrap_err(),
        Error::NotEnoughSigners { needed: 4, got: 3 }
    );
    // An old share is of no use with the new package.
    assert!(matches!(
        sign(&[&old[&pid(1)], &old[&pid(2)]], &new_public, b"x", &mut r),
        Err(Error::UnknownParty { .. } | Error::EpochMismatch { .. })
    ));
});

per_curve!(reshare_threshold_down_overlapping_set, |curve: Curve| {
    let mut r = rng(&format!("reshare down {curve}"));
    let (shares, public) = dealer(curve, 5, 7, &mut r);
    let old = by_party(shares);
    // (5, 7) on {1..7} → (2, 4) on {3, 4, 5, 6}, dealt by six of the old parties.
    let ceremony = reshare::Ceremony::reshare([4; 32], &public, &ids(1..=6), &ids(3..=6), 2).unwrap();
    let outcomes = run(&ceremony, &old, &Faults::default(), &mut r);
    let (new, new_public, _) = new_generation(outcomes, &public, &ceremony);
    check_new_generation(&new, &new_public, &mut r);
    check_no_mixing(&old[&pid(3)], &new, &new_public, &mut r);
});

#[test]
fn expansion_21_to_64_and_contraction_64_to_21() {
    let curve = Curve::Ed25519;
    let mut r = rng("expansion");
    let (shares, public) = dealer(curve, 14, 21, &mut r);
    let old = by_party(shares);
    // 21 → 64 (t = ⌈2n/3⌉ = 43), the old parties keep their ids among the new ones.
    let ceremony = reshare::Ceremony::reshare([5; 32], &public, &ids(1..=15), &ids(1..=64), 43).unwrap();
    let outcomes = run(&ceremony, &old, &Faults::default(), &mut r);
    let (big, big_public, _) = new_generation(outcomes, &public, &ceremony);
    let all: Vec<&KeyShare> = big.values().collect();
    sign_and_check(&all[..43], &big_public, b"64 parties", &mut r);
    sign_and_check(&all[21..], &big_public, b"64 parties, the last 43", &mut r);
    check_no_mixing(&old[&pid(7)], &big, &big_public, &mut r);

    // 64 → 21 (t = 14) on a disjoint set, dealt by 45 of the 64.
    let ceremony =
        reshare::Ceremony::reshare([6; 32], &big_public, &ids(10..=54), &ids(101..=121), 14).unwrap();
    let outcomes = run(&ceremony, &big, &Faults::default(), &mut r);
    let (small, small_public, _) = new_generation(outcomes, &big_public, &ceremony);
    assert_eq!(small_public.group_key_bytes(), public.group_key_bytes());
    assert_eq!(small_public.epoch().generation, 2);
    check_new_generation(&small, &small_public, &mut r);
}

per_curve!(cheating_dealer_is_excluded, |curve: Curve| {
    let mut r = rng(&format!("cheating dealer {curve}"));
    let (shares, public) = dealer(curve, 3, 5, &mut r);
    let old = by_party(shares);
    // A quorum larger than t_old: dealer 2 sends a bad share to party 4 and does not
    // answer the complaint; it is disqualified and named, and the reshare succeeds.
    let ceremony = reshare::Ceremony::reshare([7; 32], &public, &ids(1..=5), &ids(1..=5), 3).unwrap();
    let faults = Faults {
        corrupt: vec![(2, 4)],
        ..Faults::default()
    };
    let mut outcomes = run(&ceremony, &old, &faults, &mut r);
    // The cheater's own view (where its withheld opening exists) is not an honest one.
    outcomes.remove(&pid(2));
    for o in outcomes.values() {
        let o = o.as_ref().unwrap();
        assert_eq!(o.qualified, ids([1, 3, 4, 5]));
    }
    let (new, new_public, blame) = new_generation(outcomes, &public, &ceremony);
    assert_eq!(
        blame,
        vec![lss::Blame {
            party: pid(2),
            reason: lss::BlameReason::UnansweredComplaint { complainer: pid(4) }
        }]
    );
    check_new_generation(&new, &new_public, &mut r);

    // A deal that does not decode counts as missing: the dealer is named, the run goes on.
    let ceremony = reshare::Ceremony::reshare([8; 32], &public, &ids(1..=5), &ids(1..=5), 3).unwrap();
    let faults = Faults {
        garbled_deal: vec![5],
        ..Faults::default()
    };
    let mut outcomes = run(&ceremony, &old, &faults, &mut r);
    // Dealer 5's own view still holds its deal; everyone else dropped it.
    outcomes.remove(&pid(5));
    for o in outcomes.values() {
        let o = o.as_ref().unwrap();
        assert_eq!(o.qualified, ids(1..=4));
        assert_eq!(o.dropped, vec![pid(5)]);
    }
    let (new, new_public, blame) = new_generation(outcomes, &public, &ceremony);
    assert_eq!(
        blame,
        vec![lss::Blame {
            party: pid(5),
            reason: lss::BlameReason::MissingDeal
        }]
    );
    check_new_generation(&new, &new_public, &mut r);
});

#[test]
fn too_few_honest_dealers_keeps_the_old_generation() {
    for curve in Curve::ALL {
        let mut r = rng(&format!("too few {curve}"));
        let (shares, public) = dealer(curve, 3, 5, &mut r);
        let old = by_party(shares);
        // Exactly t_old dealers, one of them cheats: not enough qualify.
        let ceremony = reshare::Ceremony::reshare([9; 32], &public, &ids(1..=3), &ids(1..=5), 3).unwrap();
        let faults = Faults {
            corrupt: vec![(2, 5)],
            ..Faults::default()
        };
        for (p, o) in run(&ceremony, &old, &faults, &mut r) {
            if p == pid(2) {
                continue; // the cheater's own view
            }
            let err = o.unwrap_err();
            assert_eq!(
                err,
                Error::Lss(lss::Error::NotEnoughQualified {
                    needed: 3,
                    qualified: 2,
                    culprits: vec![pid(2)]
                }),
                "{p}"
            );
            assert_eq!(err.culprits(), &[pid(2)]);
            assert_eq!(err.code(), "NOT_ENOUGH_QUALIFIED");
        }
        // The old generation still signs.
        let all: Vec<&KeyShare> = old.values().collect();
        sign_and_check(&all[..3], &public, b"still the old generation", &mut r);
    }
}

#[test]
fn reshare_inputs_are_checked() {
    let mut r = rng("reshare inputs");
    let (shares, public) = dealer(Curve::Secp256k1, 3, 5, &mut r);
    assert_eq!(
        reshare::Ceremony::reshare([0; 32], &public, &ids(1..=2), &ids(1..=5), 3).unwrap_err(),
        Error::Lss(lss::Error::NotEnoughDealers { needed: 3, got: 2 })
    );
    assert_eq!(
        reshare::Ceremony::reshare([0; 32], &public, &ids([1, 2, 9]), &ids(1..=5), 3).unwrap_err(),
        Error::Lss(lss::Error::DealerNotInOldSet { party: pid(9) })
    );
    // A share of another generation cannot deal.
    let ceremony = reshare::Ceremony::refresh([0; 32], &public, &ids(1..=5)).unwrap();
    let (other, _) = dealer(Curve::Secp256k1, 3, 5, &mut r);
    assert!(matches!(
        reshare::round1(&ceremony, pid(1), Some(&other[0]), &mut r),
        Err(Error::EpochMismatch { party: None, .. })
    ));
    assert!(matches!(
        reshare::round1(&ceremony, pid(2), Some(&shares[0]), &mut r),
        Err(Error::Lss(lss::Error::OldShareMismatch { .. }))
    ));
    assert!(matches!(
        reshare::round1(&ceremony, pid(1), None, &mut r),
        Err(Error::Lss(lss::Error::MissingOldShare { .. }))
    ));

    // Conversions to and from the LSS types keep everything.
    let lss_share = reshare::to_lss_key_share::<quasar_pq::vss::Secp256k1>(&shares[0]).unwrap();
    let back = reshare::from_lss_key_share(&lss_share).unwrap();
    assert_eq!(back.to_bytes(), shares[0].to_bytes());
    let group = reshare::to_lss_public::<quasar_pq::vss::Secp256k1>(&public).unwrap();
    assert_eq!(group.group_commitment_bytes(), public.group_key_bytes());
    assert_eq!(reshare::from_lss_public(&group).unwrap(), public);
    assert_eq!(
        reshare::to_lss_public::<quasar_pq::vss::Ed25519>(&public).unwrap_err(),
        Error::WrongCurve {
            expected: Curve::Secp256k1,
            found: Curve::Ed25519
        }
    );
}

// ---------------------------------------------------------------------------------------
// Key generation over the LSS kernel (lens::keygen): Feldman DKG with proofs of knowledge

use lens::keygen;

/// Runs a Lens key generation among `parties` with the LSS kernel, every message through
/// bytes, with the faults injected as in [`run`] (`bad_proof` too).
fn keygen_run(
    curve: Curve,
    t: u16,
    parties: &[PartyId],
    session: [u8; 32],
    faults: &Faults,
    r: &mut ChaCha20Rng,
) -> BTreeMap<PartyId, Result<keygen::Outcome, Error>> {
    let ceremony = keygen::Ceremony::new(curve, session, parties, t).unwrap();
    assert_eq!(ceremony.parties(), parties);
    assert_eq!(ceremony.threshold(), t);
    let cheaters: BTreeSet<PartyId> = faults.corrupt.iter().map(|(d, _)| pid(*d)).collect();
    let mut states = BTreeMap::new();
    let mut deals: BTreeMap<PartyId, Vec<u8>> = BTreeMap::new();
    let mut inbox: BTreeMap<PartyId, BTreeMap<PartyId, Vec<u8>>> = BTreeMap::new();
    // A dealer sees its own deal as it made it (the faults are on the network).
    let mut own_deals = BTreeMap::new();
    for p in parties {
        let (state, out) = keygen::round1(&ceremony, *p, r).unwrap();
        assert_eq!(out.shares.len(), parties.len() - 1);
        own_deals.insert(*p, out.deal.clone());
        let mut deal = out.deal;
        if faults.garbled_deal.contains(&p.get()) {
            deal.truncate(deal.len() - 1);
        }
        if faults.bad_proof.contains(&p.get()) {
            // The deal ends with the proof's scalar z: flip its least significant bit.
            let i = if curve == Curve::Secp256k1 {
                deal.len() - 1
            } else {
                deal.len() - 32
            };
            deal[i] ^= 1;
        }
        deals.insert(*p, deal);
        for (to, bytes) in out.shares {
            let mut bytes = bytes.to_vec();
            if faults.corrupt.contains(&(p.get(), to.get())) {
                // The share value sits at bytes 45..77 (LSP1 layout, Feldman mode).
                let i = if curve == Curve::Secp256k1 { 76 } else { 45 };
                bytes[i] ^= 1;
            }
            inbox.entry(to).or_default().insert(*p, bytes);
        }
        states.insert(*p, state);
    }
    let mut complaints = BTreeMap::new();
    let mut states2 = BTreeMap::new();
    for (p, s) in states {
        let mut seen = deals.clone();
        seen.insert(p, own_deals[&p].clone());
        let (s2, c) = s.round2(&seen, &inbox[&p]).unwrap();
        complaints.insert(p, c.expect("every DKG party complains (possibly empty)"));
        states2.insert(p, s2);
    }
    let mut responses = BTreeMap::new();
    let mut states3 = BTreeMap::new();
    for (p, s) in states2 {
        let (s3, resp) = s.round3(&complaints).unwrap();
        let resp = resp.expect("every DKG party responds (possibly empty)");
        if !cheaters.contains(&p) {
            responses.insert(p, resp);
        }
        states3.insert(p, s3);
    }
    states3
        .into_iter()
        .map(|(p, s)| (p, s.finalize(&responses)))
        .collect()
}

/// The honest parties' common result: every outcome succeeded and agrees on the public
/// package, blame, qualified set and dropped list; the package is generation 0 under the
/// LSS transcript hash and survives its decoder. Returns the shares by party.
fn keygen_result(
    outcomes: BTreeMap<PartyId, Result<keygen::Outcome, Error>>,
    t: u16,
) -> (BTreeMap<PartyId, KeyShare>, PublicKeyPackage, keygen::Outcome) {
    let mut shares = BTreeMap::new();
    let mut first: Option<keygen::Outcome> = None;
    for (p, o) in outcomes {
        let o = o.unwrap_or_else(|e| panic!("{p}: {e}"));
        assert_eq!(o.key_share.party(), p);
        assert_eq!(o.key_share.public(), &o.public);
        shares.insert(
            p,
            KeyShare::from_bytes(o.public.curve(), &o.key_share.to_bytes()).unwrap(),
        );
        match &first {
            None => first = Some(o),
            Some(f) => {
                assert_eq!(
                    f.public.to_bytes(),
                    o.public.to_bytes(),
                    "{p} agrees on the package"
                );
                assert_eq!(f.blame, o.blame, "{p} agrees on the blame");
                assert_eq!(f.qualified, o.qualified, "{p} agrees on the qualified dealers");
                assert_eq!(f.dropped, o.dropped, "{p} agrees on the dropped messages");
            }
        }
    }
    let first = first.unwrap();
    let public = first.public.clone();
    assert_eq!(public.threshold(), t);
    assert_eq!(public.epoch().generation, 0);
    assert_eq!(public.commitment_bytes()[0], public.group_key_bytes());
    assert_eq!(
        PublicKeyPackage::from_bytes(public.curve(), &public.to_bytes()).unwrap(),
        public
    );
    (shares, public, first)
}

per_curve!(lss_keygen_signing_and_reshare, |curve: Curve| {
    let mut r = rng(&format!("lss keygen {curve}"));
    for (t, n) in [(3u16, 5u16), (5, 7)] {
        let parties = ids(1..=n);
        let outcomes = keygen_run(curve, t, &parties, [t as u8; 32], &Faults::default(), &mut r);
        let (shares, public, outcome) = keygen_result(outcomes, t);
        assert!(outcome.blame.is_empty() && outcome.dropped.is_empty());
        assert_eq!(outcome.qualified, parties);
        assert_eq!(public.parties(), &parties[..]);
        let all: Vec<&KeyShare> = shares.values().collect();
        let tu = usize::from(t);
        sign_and_check(&all[..tu], &public, b"lss keygen, first t", &mut r);
        sign_and_check(&all[all.len() - tu..], &public, b"lss keygen, last t", &mut r);
        sign_and_check(&all, &public, b"lss keygen, everyone", &mut r);
        assert_eq!(
            sign(&all[..tu - 1], &public, b"too few", &mut r).unwrap_err(),
            Error::NotEnoughSigners {
                needed: t,
                got: tu - 1
            }
        );

        // Resharing continues from the generated key: (t, n) -> (t + 1, n + 2).
        let ceremony =
            reshare::Ceremony::reshare([9; 32], &public, &parties, &ids(1..=n + 2), t + 1).unwrap();
        let outcomes = run(&ceremony, &shares, &Faults::default(), &mut r);
        let (new, new_public, blame) = new_generation(outcomes, &public, &ceremony);
        assert!(blame.is_empty());
        check_new_generation(&new, &new_public, &mut r);
        check_no_mixing(&shares[&pid(1)], &new, &new_public, &mut r);
    }
});

per_curve!(lss_keygen_excludes_cheating_dealers, |curve: Curve| {
    let mut r = rng(&format!("lss keygen cheater {curve}"));
    let parties = ids(1..=5);
    // Dealer 2 sends party 4 a bad share and does not answer the complaint: it is
    // disqualified and named; everyone else (party 2's view excepted) gets a working key.
    let faults = Faults {
        corrupt: vec![(2, 4)],
        ..Faults::default()
    };
    let mut outcomes = keygen_run(curve, 3, &parties, [1; 32], &faults, &mut r);
    outcomes.remove(&pid(2));
    let (shares, public, outcome) = keygen_result(outcomes, 3);
    assert_eq!(
        outcome.blame,
        vec![lss::Blame {
            party: pid(2),
            reason: lss::BlameReason::UnansweredComplaint { complainer: pid(4) }
        }]
    );
    assert_eq!(outcome.qualified, ids([1, 3, 4, 5]));
    let honest: Vec<&KeyShare> = shares.values().collect();
    sign_and_check(&honest[..3], &public, b"without the cheater", &mut r);
    sign_and_check(&honest[1..], &public, b"without the cheater, others", &mut r);
    // The key still reshares, dealt by the honest parties.
    let ceremony = reshare::Ceremony::reshare([2; 32], &public, &ids([1, 3, 4, 5]), &ids(1..=6), 4).unwrap();
    let (new, new_public, _) = new_generation(
        run(&ceremony, &shares, &Faults::default(), &mut r),
        &public,
        &ceremony,
    );
    check_new_generation(&new, &new_public, &mut r);

    // A bad proof of knowledge and a deal that does not decode: both dealers are named, the
    // other three still make a 3-of-5 key.
    let faults = Faults {
        bad_proof: vec![1],
        garbled_deal: vec![5],
        ..Faults::default()
    };
    let mut outcomes = keygen_run(curve, 3, &parties, [3; 32], &faults, &mut r);
    outcomes.remove(&pid(1));
    outcomes.remove(&pid(5));
    let (shares, public, outcome) = keygen_result(outcomes, 3);
    let mut blame = outcome.blame.clone();
    blame.sort_by_key(|b| b.party);
    assert_eq!(
        blame,
        vec![
            lss::Blame {
                party: pid(1),
                reason: lss::BlameReason::InvalidProof
            },
            lss::Blame {
                party: pid(5),
                reason: lss::BlameReason::MissingDeal
            },
        ]
    );
    assert_eq!(outcome.qualified, ids(2..=4));
    assert_eq!(outcome.dropped, vec![pid(5)]);
    let honest: Vec<&KeyShare> = shares.values().collect();
    sign_and_check(&honest, &public, b"three qualified dealers", &mut r);

    // Too many cheaters: fewer than t dealers qualify, the DKG fails naming them.
    let faults = Faults {
        corrupt: vec![(1, 3), (2, 3), (5, 4)],
        ..Faults::default()
    };
    for (p, o) in keygen_run(curve, 3, &parties, [4; 32], &faults, &mut r) {
        if [1, 2, 5].contains(&p.get()) {
            continue;
        }
        let err = o.unwrap_err();
        assert_eq!(
            err,
            Error::Lss(lss::Error::NotEnoughQualified {
                needed: 3,
                qualified: 2,
                culprits: ids([1, 2, 5])
            }),
            "{p}"
        );
        assert_eq!(err.culprits(), &ids([1, 2, 5])[..]);
    }
});

#[test]
fn lss_keygen_parameters_are_checked() {
    let mut r = rng("lss keygen params");
    for (t, n) in [(1u16, 3u16), (4, 3), (2, 1)] {
        assert_eq!(
            keygen::Ceremony::new(Curve::Ed25519, [0; 32], &ids(1..=n), t).unwrap_err(),
            Error::InvalidThreshold {
                threshold: t,
                parties: usize::from(n)
            },
            "t = {t}, n = {n}"
        );
    }
    assert_eq!(
        keygen::Ceremony::new(Curve::Ed25519, [0; 32], &ids([1, 2, 2]), 2).unwrap_err(),
        Error::Lss(lss::Error::DuplicateParty { party: pid(2) })
    );
    let ceremony = keygen::Ceremony::new(Curve::Ristretto255, [0; 32], &ids([3, 1, 2]), 2).unwrap();
    assert_eq!(ceremony.parties(), &ids(1..=3)[..]);
    assert_eq!(ceremony.curve(), Curve::Ristretto255);
    assert_eq!(
        keygen::round1(&ceremony, pid(9), &mut r).unwrap_err(),
        Error::UnknownParty { party: pid(9) }
    );
    // A share of a later generation is not a fresh DKG output.
    let (shares, public) = dealer(Curve::Ed25519, 2, 3, &mut r);
    let ceremony = reshare::Ceremony::refresh([1; 32], &public, &ids(1..=3)).unwrap();
    let (new, _, _) = new_generation(
        run(&ceremony, &by_party(shares), &Faults::default(), &mut r),
        &public,
        &ceremony,
    );
    let lss_share = reshare::to_lss_key_share::<quasar_pq::vss::Ed25519>(&new[&pid(1)]).unwrap();
    assert!(matches!(
        keygen::key_share_from_lss(&lss_share),
        Err(Error::EpochMismatch { party: None, .. })
    ));
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

/// secp256k1: the LSS DKG's summed key `P = Σ A_i0` may have an odd `y`. Driving the LSS
/// kernel directly (`Ceremony::dkg(.., Mode::Feldman, ..)`, `lss::round1` … `finalize`) and
/// converting with `keygen::key_share_from_lss`, the group key is frost-secp256k1-tr's DKG
/// key: `P` made even, plus the unspendable BIP-341 tweak — recomputed here with k256 —
/// and signatures verify under k256's BIP-340 `verify_raw` with the x-only key. Runs until
/// both parities of `P` have been seen.
#[test]
fn secp256k1_lss_keygen_normalises_like_frost() {
    use k256::elliptic_curve::point::AffineCoordinates;
    use k256::elliptic_curve::sec1::ToEncodedPoint;
    use k256::ProjectivePoint;
    use quasar_pq::vss::{Mode, Secp256k1};

    let mut r = rng("secp lss parity");
    let parties = ids(1..=3);
    let mut seen = BTreeSet::new();
    for run_no in 0u8..40 {
        let c = lss::Ceremony::<Secp256k1>::dkg([run_no; 32], Mode::Feldman, &parties, 2).unwrap();
        let mut states = Vec::new();
        let mut deals = BTreeMap::new();
        let mut to: BTreeMap<PartyId, BTreeMap<PartyId, lss::ShareMessage<Secp256k1>>> = BTreeMap::new();
        for &p in &parties {
            let (s, out) = lss::round1(c.clone(), p, None, &mut r).unwrap();
            deals.insert(p, out.broadcast.unwrap());
            for m in out.shares {
                to.entry(m.to()).or_default().insert(p, m);
            }
            states.push((p, s));
        }
        let mut complaints = BTreeMap::new();
        let mut states2 = Vec::new();
        for (p, s) in states {
            let (s, cm) = s.round2(deals.clone(), to.remove(&p).unwrap()).unwrap();
            complaints.insert(p, cm.unwrap());
            states2.push((p, s));
        }
        let mut responses = BTreeMap::new();
        let mut states3 = Vec::new();
        for (p, s) in states2 {
            let (s, resp) = s.round3(complaints.clone()).unwrap();
            responses.insert(p, resp.unwrap());
            states3.push(s);
        }
        let lens_shares: Vec<KeyShare> = states3
            .into_iter()
            .map(|s| {
                let o = s.finalize(responses.clone()).unwrap();
                keygen::key_share_from_lss(&o.key_share.unwrap()).unwrap()
            })
            .collect();
        let public = lens_shares[0].public().clone();
        for s in &lens_shares {
            assert_eq!(s.public(), &public);
        }

        // The expected key, from the raw LSS sum P of the deals' constant terms, with k256.
        let p_raw: ProjectivePoint = deals
            .values()
            .map(|d| *d.commitments().constant())
            .fold(ProjectivePoint::IDENTITY, |a, b| a + b);
        let odd: bool = p_raw.to_affine().y_is_odd().into();
        seen.insert(odd);
        let p_even = if odd { -p_raw } else { p_raw };
        let x = p_raw.to_affine().x();
        let expected = p_even + ProjectivePoint::GENERATOR * tap_tweak(&x);
        assert_eq!(
            public.group_key_bytes(),
            expected.to_affine().to_encoded_point(true).as_bytes(),
            "run {run_no}: even-y normalisation and the BIP-341 tweak (P odd: {odd})"
        );
        assert_eq!(public.epoch().generation, 0);

        let msg = [b"parity run ".as_slice(), &[run_no]].concat();
        let all: Vec<&KeyShare> = lens_shares.iter().collect();
        let sig = sign(&all[..2], &public, &msg, &mut r).unwrap();
        let gk = public.group_key_bytes();
        let vk = k256::schnorr::VerifyingKey::from_bytes(&gk[1..]).unwrap();
        let s = k256::schnorr::Signature::try_from(&sig.to_bytes()[..]).unwrap();
        vk.verify_raw(&msg, &s).unwrap();
        assert!(vk.verify_raw(b"another message", &s).is_err());
        if seen.len() == 2 && run_no >= 3 {
            break;
        }
    }
    assert_eq!(seen.len(), 2, "both parities of the summed key were exercised");
}
