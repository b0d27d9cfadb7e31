//! Key formats (`keyfmt`): round trips for every ML-DSA and SLH-DSA set; byte-for-byte
//! agreement with RustCrypto `ml-dsa` and `slh-dsa` (their `pkcs8` encoders and decoders);
//! the IETF examples (RFC 9881, RFC 9909, RFC 9964) in `tests/vectors/keyfmt/`; and
//! truncated, extended and byte-flipped encodings, each refused or decoded to the same key,
//! never a panic.
//!
//! Run: `cargo test --features sim,hazmat --test suite keyfmt::`.

// Tests unwrap what must succeed, cast test indices to bytes and name decoder closures inline.
#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::type_complexity
)]

use std::path::PathBuf;

use ml_dsa::pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey};
use ml_dsa::Keypair;
use quasar_pq::keyfmt::{self, AkpKey, Algorithm, MlDsaForm, PrivateKey, PublicKey};
use quasar_pq::{mldsa, slhdsa};

fn vector(name: &str) -> String {
    let p: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "vectors", "keyfmt", name]
        .iter()
        .collect();
    std::fs::read_to_string(p).unwrap()
}

fn seed(tag: u8) -> [u8; 32] {
    core::array::from_fn(|i| (i as u8).wrapping_mul(31) ^ tag)
}

/// A private key for every algorithm.
fn every_key() -> Vec<PrivateKey> {
    Algorithm::ALL
        .into_iter()
        .map(|alg| match alg {
            Algorithm::MlDsa(m) => PrivateKey::ml_dsa_from_seed(m, &seed(m.to_byte())),
            Algorithm::SlhDsa(m) => {
                let n = m.n();
                let s = seed(m.to_byte());
                let (_, sk) = slhdsa::keygen(
                    m,
                    &s[..n],
                    &s[..n].iter().map(|b| b ^ 0x55).collect::<Vec<_>>(),
                    &seed(9)[..n],
                )
                .unwrap();
                PrivateKey::slh_dsa_from_bytes(m, &sk).unwrap()
            }
        })
        .collect()
}

fn same_key(a: &PrivateKey, b: &PrivateKey) {
    assert_eq!(a.algorithm(), b.algorithm());
    assert_eq!(a.secret_key(), b.secret_key());
    assert_eq!(a.public_key(), b.public_key());
}

#[test]
fn round_trips_for_every_set() {
    for key in every_key() {
        let alg = key.algorithm();
        let pk = key.public_key();
        assert_eq!(pk.as_bytes().len(), alg.public_key_len());
        // SubjectPublicKeyInfo, DER and PEM.
        assert_eq!(&PublicKey::from_spki_der(&pk.to_spki_der()).unwrap(), pk);
        let pem = pk.to_pem();
        assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----\n"));
        assert_eq!(&PublicKey::from_pem(&pem).unwrap(), pk);
        // OneAsymmetricKey in every form, with and without the public key.
        for form in [MlDsaForm::Seed, MlDsaForm::Expanded, MlDsaForm::Both] {
            for with_public in [false, true] {
                let der = key.to_pkcs8_der_with(form, with_public).unwrap();
                let back = PrivateKey::from_pkcs8_der(&der).unwrap();
                same_key(&key, &back);
                let seed_kept = matches!(alg, Algorithm::MlDsa(_)) && form != MlDsaForm::Expanded;
                assert_eq!(back.seed().is_some(), seed_kept, "{} {form:?}", alg.name());
            }
        }
        let pem = key.to_pkcs8_pem().unwrap();
        assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"));
        same_key(&key, &PrivateKey::from_pkcs8_pem(&pem).unwrap());
        // JWK and COSE_Key, where the documents define them.
        let jose = matches!(
            alg,
            Algorithm::MlDsa(_) | Algorithm::SlhDsa(slhdsa::Mode::Shake128s)
        );
        match pk.to_jwk() {
            Ok(text) => {
                assert!(jose);
                match keyfmt::decode_jwk(&text).unwrap() {
                    AkpKey::Public(p) => assert_eq!(&p, pk),
                    AkpKey::Private(_) => panic!("a public JWK decoded as private"),
                }
                match keyfmt::decode_jwk(&key.to_jwk().unwrap()).unwrap() {
                    AkpKey::Private(k) => same_key(&key, &k),
                    AkpKey::Public(_) => panic!("a private JWK decoded as public"),
                }
            }
            Err(e) => {
                assert!(!jose);
                assert_eq!(e.code(), "UNSUPPORTED_FORMAT");
            }
        }
        match pk.to_cose_key() {
            Ok(bytes) => {
                assert!(matches!(alg, Algorithm::MlDsa(_)));
                assert_eq!(keyfmt::decode_cose_key(&bytes).unwrap().public_key(), pk);
                match keyfmt::decode_cose_key(&key.to_cose_key().unwrap()).unwrap() {
                    AkpKey::Private(k) => same_key(&key, &k),
                    AkpKey::Public(_) => panic!("a private COSE_Key decoded as public"),
                }
            }
            Err(e) => {
                assert!(matches!(alg, Algorithm::SlhDsa(_)));
                assert_eq!(e.code(), "UNSUPPORTED_FORMAT");
            }
        }
        assert_eq!(
            format!("{key:?}"),
            format!("PrivateKey<{}>(<redacted>)", alg.name())
        );
    }
}

#[test]
fn an_expanded_only_key_keeps_no_seed_and_says_so() {
    let key = PrivateKey::ml_dsa_from_seed(mldsa::Mode::MlDsa65, &seed(1));
    let der = key.to_pkcs8_der_with(MlDsaForm::Expanded, false).unwrap();
    let back = PrivateKey::from_pkcs8_der(&der).unwrap();
    assert_eq!(back.to_pkcs8_der().unwrap_err().code(), "NO_SEED");
    assert_eq!(back.to_jwk().unwrap_err().code(), "NO_SEED");
    assert_eq!(back.to_cose_key().unwrap_err().code(), "NO_SEED");
    assert_eq!(
        back.to_pkcs8_der_with(MlDsaForm::Expanded, true).unwrap().len(),
        der.len() + 4 + 1 + 1952
    );
}

macro_rules! rustcrypto_ml_dsa {
    ($mode:expr, $P:ty) => {{
        let s = seed(0x44);
        let theirs = ml_dsa::SigningKey::<$P>::from_seed(&s.into());
        let ours = PrivateKey::ml_dsa_from_seed($mode, &s);
        // Ours → bytes equal to theirs, both ways.
        let their_der = theirs.to_pkcs8_der().unwrap();
        assert_eq!(their_der.as_bytes(), ours.to_pkcs8_der().unwrap().as_slice());
        let their_spki = theirs.verifying_key().to_public_key_der().unwrap();
        assert_eq!(their_spki.as_bytes(), ours.public_key().to_spki_der().as_slice());
        // Theirs decodes ours; ours decodes theirs.
        let back = ml_dsa::SigningKey::<$P>::from_pkcs8_der(&ours.to_pkcs8_der().unwrap()).unwrap();
        assert_eq!(back.as_seed().as_slice(), &s);
        let vk = ml_dsa::VerifyingKey::<$P>::from_public_key_der(&ours.public_key().to_spki_der()).unwrap();
        assert_eq!(vk.encode().as_slice(), ours.public_key().as_bytes());
        same_key(&ours, &PrivateKey::from_pkcs8_der(their_der.as_bytes()).unwrap());
        assert_eq!(
            ours.public_key(),
            &PublicKey::from_spki_der(their_spki.as_bytes()).unwrap()
        );
    }};
}

#[test]
fn ml_dsa_matches_rustcrypto_byte_for_byte() {
    rustcrypto_ml_dsa!(mldsa::Mode::MlDsa44, ml_dsa::MlDsa44);
    rustcrypto_ml_dsa!(mldsa::Mode::MlDsa65, ml_dsa::MlDsa65);
    rustcrypto_ml_dsa!(mldsa::Mode::MlDsa87, ml_dsa::MlDsa87);
}

macro_rules! rustcrypto_slh_dsa {
    ($mode:expr, $P:ty) => {{
        let n = $mode.n();
        let s = seed(0x53);
        let (sk_seed, sk_prf, pk_seed) = (&s[..n], &seed(0x54)[..n], &seed(0x55)[..n]);
        let theirs = slh_dsa::SigningKey::<$P>::slh_keygen_internal(sk_seed, sk_prf, pk_seed);
        let (_, sk) = slhdsa::keygen($mode, sk_seed, sk_prf, pk_seed).unwrap();
        let ours = PrivateKey::slh_dsa_from_bytes($mode, &sk).unwrap();
        let their_der = theirs.to_pkcs8_der().unwrap();
        assert_eq!(their_der.as_bytes(), ours.to_pkcs8_der().unwrap().as_slice());
        let their_vk: &slh_dsa::VerifyingKey<$P> = theirs.as_ref();
        let their_spki = their_vk.to_public_key_der().unwrap();
        assert_eq!(their_spki.as_bytes(), ours.public_key().to_spki_der().as_slice());
        let back = slh_dsa::SigningKey::<$P>::from_pkcs8_der(&ours.to_pkcs8_der().unwrap()).unwrap();
        assert_eq!(back.to_bytes().as_slice(), ours.secret_key());
        let vk = slh_dsa::VerifyingKey::<$P>::from_public_key_der(&ours.public_key().to_spki_der()).unwrap();
        assert_eq!(vk.to_bytes().as_slice(), ours.public_key().as_bytes());
        same_key(&ours, &PrivateKey::from_pkcs8_der(their_der.as_bytes()).unwrap());
        assert_eq!(
            ours.public_key(),
            &PublicKey::from_spki_der(their_spki.as_bytes()).unwrap()
        );
    }};
}

#[test]
fn slh_dsa_matches_rustcrypto_byte_for_byte() {
    rustcrypto_slh_dsa!(slhdsa::Mode::Shake128s, slh_dsa::Shake128s);
    rustcrypto_slh_dsa!(slhdsa::Mode::Shake128f, slh_dsa::Shake128f);
    rustcrypto_slh_dsa!(slhdsa::Mode::Shake192s, slh_dsa::Shake192s);
    rustcrypto_slh_dsa!(slhdsa::Mode::Shake192f, slh_dsa::Shake192f);
    rustcrypto_slh_dsa!(slhdsa::Mode::Shake256s, slh_dsa::Shake256s);
    rustcrypto_slh_dsa!(slhdsa::Mode::Shake256f, slh_dsa::Shake256f);
}

fn normalise(pem: &str) -> String {
    pem.replace("\r\n", "\n").trim_end().to_string() + "\n"
}

#[test]
fn the_rfc_9881_examples_decode_and_reencode_exactly() {
    let s: [u8; 32] = core::array::from_fn(|i| i as u8);
    for mode in mldsa::Mode::ALL {
        let level = mode.level();
        let expected = PrivateKey::ml_dsa_from_seed(mode, &s);
        let pub_pem = vector(&format!("ML-DSA-{level}.pub"));
        let pk = PublicKey::from_pem(&pub_pem).unwrap();
        assert_eq!(&pk, expected.public_key());
        assert_eq!(pk.to_pem(), normalise(&pub_pem));
        for (form, name) in [
            (MlDsaForm::Seed, "seed"),
            (MlDsaForm::Expanded, "expanded"),
            (MlDsaForm::Both, "both"),
        ] {
            let text = vector(&format!("ML-DSA-{level}-{name}.priv"));
            let key = PrivateKey::from_pkcs8_pem(&text).unwrap();
            same_key(&key, &expected);
            let der = expected.to_pkcs8_der_with(form, false).unwrap();
            if form == MlDsaForm::Seed {
                assert_eq!(*expected.to_pkcs8_pem().unwrap(), normalise(&text));
            }
            // Every form's PEM, as the JavaScript `keys.toPkcs8(…, { form, format: 'pem' })` writes it.
            assert_eq!(
                *expected.to_pkcs8_pem_with(form, false).unwrap(),
                normalise(&text),
                "ML-DSA-{level} {name}"
            );
            // The example's DER is exactly what we write in that form.
            assert_eq!(pem_body(&text), der.as_slice(), "ML-DSA-{level} {name}");
        }
    }
}

/// The DER inside a PEM block (independent of the crate's decoder).
fn pem_body(text: &str) -> Vec<u8> {
    let b64: String = text.lines().filter(|l| !l.starts_with("-----")).collect();
    // A tiny independent base64 decoder.
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64"),
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in b64.bytes().filter(|&c| c != b'=') {
        acc = (acc << 6) | u32::from(val(c));
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

#[test]
fn the_rfc_9881_inconsistent_keys_are_refused() {
    for i in 1..=3 {
        let err = PrivateKey::from_pkcs8_pem(&vector(&format!("bad-ML-DSA-44-{i}.priv"))).unwrap_err();
        assert_eq!(err.code(), "KEY_MISMATCH", "bad-ML-DSA-44-{i}: {err}");
    }
}

#[test]
fn the_rfc_9909_sha2_example_is_refused_by_name() {
    // The example is SLH-DSA-SHA2-128s, a set this crate does not implement.
    assert_eq!(
        PublicKey::from_pem(&vector("id-slh-dsa-sha2-128s.pub"))
            .unwrap_err()
            .code(),
        "UNKNOWN_ALGORITHM"
    );
    assert_eq!(
        PrivateKey::from_pkcs8_pem(&vector("id-slh-dsa-sha2-128s.priv"))
            .unwrap_err()
            .code(),
        "UNKNOWN_ALGORITHM"
    );
}

#[test]
fn the_rfc_9964_examples_decode_with_their_thumbprints() {
    for mode in mldsa::Mode::ALL {
        let level = mode.level();
        let expected = PrivateKey::ml_dsa_from_seed(mode, &[0u8; 32]);
        let jose: serde_json::Value =
            serde_json::from_str(&vector(&format!("ML_DSA_{level}.jose.json"))).unwrap();
        let jwk_text = serde_json::to_string(&jose["jwk"]).unwrap();
        let AkpKey::Private(key) = keyfmt::decode_jwk(&jwk_text).unwrap() else {
            panic!("the example JWK has priv")
        };
        same_key(&key, &expected);
        assert_eq!(
            key.public_key().jwk_thumbprint().unwrap(),
            jose["jwk"]["kid"].as_str().unwrap()
        );
        // The example's signature verifies under the decoded key (empty context, RFC 9964 §4).
        let tbs = hex::decode(jose["raw_to_be_signed"].as_str().unwrap()).unwrap();
        let sig = hex::decode(jose["raw_signature"].as_str().unwrap()).unwrap();
        mldsa::verify(mode, key.public_key().as_bytes(), &tbs, b"", &sig).unwrap();

        let cose: serde_json::Value =
            serde_json::from_str(&vector(&format!("ML_DSA_{level}.cose.json"))).unwrap();
        let bytes = hex::decode(cose["key"].as_str().unwrap()).unwrap();
        let AkpKey::Private(key) = keyfmt::decode_cose_key(&bytes).unwrap() else {
            panic!("the example COSE_Key has priv")
        };
        same_key(&key, &expected);
        // Its kid (label 2) is the COSE Key thumbprint (RFC 9679).
        assert_eq!(bytes[1], 0x02);
        assert_eq!(&bytes[4..36], key.public_key().cose_thumbprint().unwrap());
        let tbs = hex::decode(cose["raw_to_be_signed"].as_str().unwrap()).unwrap();
        let sig = hex::decode(cose["raw_signature"].as_str().unwrap()).unwrap();
        mldsa::verify(mode, key.public_key().as_bytes(), &tbs, b"", &sig).unwrap();
    }
}

/// Every truncation, one byte appended, every byte flipped (two ways): refused, or the
/// same key, or (for a flip inside `free`, bytes no check covers: a bare seed, a public key)
/// another well-formed key. `decode` returns the decoded key's bytes or an error code.
fn mutate(
    name: &str,
    good: &[u8],
    free: core::ops::Range<usize>,
    decode: &dyn Fn(&[u8]) -> Result<Vec<u8>, &'static str>,
) {
    let want = decode(good).unwrap();
    for len in 0..good.len() {
        assert!(
            decode(&good[..len]).is_err(),
            "{name}: truncated to {len} accepted"
        );
    }
    for extra in [0u8, 0x80] {
        let mut v = good.to_vec();
        v.push(extra);
        assert!(decode(&v).is_err(), "{name}: a trailing byte accepted");
    }
    for i in 0..good.len() {
        for mask in [0x01u8, 0x80] {
            let mut v = good.to_vec();
            v[i] ^= mask;
            if let Ok(k) = decode(&v) {
                if !free.contains(&i) {
                    assert_eq!(k, want, "{name}: byte {i} ^ {mask:#x} decoded to another key");
                }
            }
        }
    }
}

fn private_identity(r: Result<PrivateKey, keyfmt::Error>) -> Result<Vec<u8>, &'static str> {
    r.map(|k| [k.secret_key(), k.public_key().as_bytes()].concat())
        .map_err(|e| e.code())
}

#[test]
fn mutated_encodings_are_refused_or_decode_to_the_same_key() {
    let ml = PrivateKey::ml_dsa_from_seed(mldsa::Mode::MlDsa44, &seed(3));
    let pkcs8 = |b: &[u8]| private_identity(PrivateKey::from_pkcs8_der(b));
    let spki = |b: &[u8]| {
        PublicKey::from_spki_der(b)
            .map(|p| p.as_bytes().to_vec())
            .map_err(|e| e.code())
    };
    let seed_only = ml.to_pkcs8_der().unwrap();
    mutate(
        "ML-DSA-44 seed",
        &seed_only,
        seed_only.len() - 32..seed_only.len(),
        &pkcs8,
    );
    mutate(
        "ML-DSA-44 seed+public",
        &ml.to_pkcs8_der_with(MlDsaForm::Seed, true).unwrap(),
        0..0,
        &pkcs8,
    );
    mutate(
        "ML-DSA-44 both",
        &ml.to_pkcs8_der_with(MlDsaForm::Both, false).unwrap(),
        0..0,
        &pkcs8,
    );
    let der = ml.public_key().to_spki_der();
    mutate("ML-DSA-44 SPKI", &der, der.len() - 1312..der.len(), &spki);
    let cose = |b: &[u8]| match keyfmt::decode_cose_key(b) {
        Ok(AkpKey::Private(k)) => private_identity(Ok(k)),
        Ok(AkpKey::Public(p)) => Ok(p.as_bytes().to_vec()),
        Err(e) => Err(e.code()),
    };
    mutate("ML-DSA-44 COSE_Key", &ml.to_cose_key().unwrap(), 0..0, &cose);
    for m in [slhdsa::Mode::Shake128f, slhdsa::Mode::Shake192f] {
        let n = m.n();
        let (_, sk) = slhdsa::keygen(m, &seed(1)[..n], &seed(2)[..n], &seed(3)[..n]).unwrap();
        let slh = PrivateKey::slh_dsa_from_bytes(m, &sk).unwrap();
        // SK.prf is the one part nothing else depends on: any value is a valid key.
        let der = slh.to_pkcs8_der_with(MlDsaForm::Seed, true).unwrap();
        let at = der.windows(sk.len()).position(|w| w == &sk[..]).unwrap();
        mutate(m.name(), &der, at + n..at + 2 * n, &pkcs8);
        let der = slh.public_key().to_spki_der();
        mutate(m.name(), &der, der.len() - 2 * n..der.len(), &spki);
    }
}

#[test]
fn an_expanded_key_with_one_flipped_bit_is_refused() {
    // Slow path (a signature per decode): sample positions across the key's parts.
    let ml = PrivateKey::ml_dsa_from_seed(mldsa::Mode::MlDsa44, &seed(4));
    let der = ml.to_pkcs8_der_with(MlDsaForm::Expanded, false).unwrap();
    let start = der.len() - 2560;
    for off in [0usize, 40, 70, 130, 500, 900, 1200, 2000, 2559] {
        let mut v = der.to_vec();
        v[start + off] ^= 0x01;
        match PrivateKey::from_pkcs8_der(&v) {
            // ρ and K change only what a key signs with, not whether it is whole: K is any
            // 32 bytes; a flipped ρ makes tr (and the public key) disagree.
            Ok(k) => assert!(
                (32..64).contains(&off),
                "offset {off} accepted: {:?}",
                k.algorithm()
            ),
            Err(e) => assert!(
                matches!(e.code(), "KEY_MISMATCH" | "MALFORMED_KEY"),
                "offset {off}: {e}"
            ),
        }
    }
}

#[test]
fn strict_der_rules() {
    let ml = PrivateKey::ml_dsa_from_seed(mldsa::Mode::MlDsa44, &seed(5));
    let der = ml.to_pkcs8_der().unwrap().to_vec();
    let code = |b: &[u8]| PrivateKey::from_pkcs8_der(b).unwrap_err().code();
    // 30 34 02 01 00 30 0b 06 09 <oid> 04 22 80 20 <seed>
    assert_eq!(&der[..5], &[0x30, 0x34, 0x02, 0x01, 0x00]);
    // Long-form length where the short form fits.
    let mut long = vec![0x30, 0x81, 0x34];
    long.extend_from_slice(&der[2..]);
    assert_eq!(code(&long), "NON_MINIMAL_ENCODING");
    // Indefinite length.
    let mut indef = vec![0x30, 0x80];
    indef.extend_from_slice(&der[2..]);
    indef.extend_from_slice(&[0, 0]);
    assert_eq!(code(&indef), "MALFORMED_KEY");
    // Version 1 without a public key; version 0 with one; version 2.
    let mut v = der.clone();
    v[4] = 1;
    assert_eq!(code(&v), "UNSUPPORTED_KEY_VERSION");
    v[4] = 2;
    assert_eq!(code(&v), "UNSUPPORTED_KEY_VERSION");
    let with_pub = ml.to_pkcs8_der_with(MlDsaForm::Seed, true).unwrap().to_vec();
    let mut v0 = with_pub.clone();
    let at = v0.iter().position(|&b| b == 0x02).unwrap();
    v0[at + 2] = 0;
    assert_eq!(code(&v0), "UNSUPPORTED_KEY_VERSION");
    // A public key that is not the private key's.
    let other = PrivateKey::ml_dsa_from_seed(mldsa::Mode::MlDsa44, &seed(6));
    let mut mixed = with_pub.clone();
    let plen = other.public_key().as_bytes().len();
    let n = mixed.len();
    mixed[n - plen..].copy_from_slice(other.public_key().as_bytes());
    assert_eq!(code(&mixed), "KEY_MISMATCH");
    // Parameters present (NULL) in the AlgorithmIdentifier.
    let spki = ml.public_key().to_spki_der();
    let mut p = Vec::new();
    p.extend_from_slice(&[0x30, 0x82]);
    let inner_len = spki.len() - 4 + 2;
    p.extend_from_slice(&(inner_len as u16).to_be_bytes());
    p.extend_from_slice(&[0x30, 0x0d]);
    p.extend_from_slice(&spki[6..17]);
    p.extend_from_slice(&[0x05, 0x00]);
    p.extend_from_slice(&spki[17..]);
    assert_eq!(
        PublicKey::from_spki_der(&p).unwrap_err().code(),
        "ALGORITHM_PARAMETERS_PRESENT"
    );
    // Another set's OID with this set's key: the length is refused.
    let mut wrong = spki.clone();
    wrong[16] = 18;
    assert_eq!(
        PublicKey::from_spki_der(&wrong).unwrap_err().code(),
        "KEY_LENGTH_MISMATCH"
    );
    wrong[16] = 20;
    assert_eq!(
        PublicKey::from_spki_der(&wrong).unwrap_err().code(),
        "UNKNOWN_ALGORITHM"
    );
}

#[test]
fn strict_pem_json_and_cbor() {
    let ml = PrivateKey::ml_dsa_from_seed(mldsa::Mode::MlDsa44, &seed(7));
    let pem = ml.public_key().to_pem();
    assert_eq!(
        PublicKey::from_pem(&pem.replace('\n', "\r\n")).unwrap(),
        *ml.public_key()
    );
    assert_eq!(
        PublicKey::from_pem(&format!("junk\n{pem}")).unwrap_err().code(),
        "BAD_PEM"
    );
    assert_eq!(
        PublicKey::from_pem(&pem.replace("PUBLIC KEY", "PRIVATE KEY"))
            .unwrap_err()
            .code(),
        "BAD_PEM"
    );
    assert_eq!(PrivateKey::from_pkcs8_pem(&pem).unwrap_err().code(), "BAD_PEM");
    let bad64 = pem.replacen("MII", "MI!", 1);
    assert_eq!(PublicKey::from_pem(&bad64).unwrap_err().code(), "BAD_BASE64");

    let jwk = ml.to_jwk().unwrap();
    let code = |t: &str| keyfmt::decode_jwk(t).unwrap_err().code();
    assert_eq!(
        code(&jwk.replace("\"kty\":\"AKP\"", "\"kty\":\"OKP\"")),
        "WRONG_KEY_TYPE"
    );
    assert_eq!(
        code(&jwk.replace("ML-DSA-44", "ML-DSA-65")),
        "KEY_LENGTH_MISMATCH"
    );
    assert_eq!(code(&jwk.replace("ML-DSA-44", "ML-DSA-99")), "UNKNOWN_ALGORITHM");
    assert_eq!(
        code(&jwk.replacen('{', "{\"kty\":\"AKP\",", 1)),
        "DUPLICATE_FIELD"
    );
    assert_eq!(code(&format!("{}x", jwk.as_str())), "BAD_JSON");
    // Ignored members are skipped; the key still decodes.
    let extra = jwk.replacen(
        "\"alg\"",
        "\"kid\":\"k\",\"x\":[1,2,{\"y\":-0.5e3,\"z\":null}],\"alg\"",
        1,
    );
    assert!(keyfmt::decode_jwk(&extra).is_ok());
    let deep = jwk.replacen(
        "\"alg\"",
        &format!("\"x\":{}{},\"alg\"", "[".repeat(40), "]".repeat(40)),
        1,
    );
    assert_eq!(code(&deep), "BAD_JSON");
    // A priv of another key.
    let other = PrivateKey::ml_dsa_from_seed(mldsa::Mode::MlDsa44, &seed(8));
    let AkpKey::Private(_) = keyfmt::decode_jwk(&other.to_jwk().unwrap()).unwrap() else {
        panic!()
    };
    let priv_of_other = other.to_jwk().unwrap();
    let their_priv = &priv_of_other[priv_of_other.find("\"priv\"").unwrap()..];
    let mine = &jwk[..jwk.find("\"priv\"").unwrap()];
    assert_eq!(code(&format!("{mine}{their_priv}")), "KEY_MISMATCH");
    // base64url with padding is refused.
    assert_eq!(code(&jwk.replacen("\"}", "=\"}", 1)), "BAD_BASE64");

    let cose = ml.to_cose_key().unwrap().to_vec();
    let ccode = |b: &[u8]| keyfmt::decode_cose_key(b).unwrap_err().code();
    // a4 01 07 03 38 2f 20 59 05 20 …: deterministic order.
    assert_eq!(
        &cose[..10],
        &[0xa4, 0x01, 0x07, 0x03, 0x38, 0x2f, 0x20, 0x59, 0x05, 0x20]
    );
    let mut nonmin = cose.clone();
    nonmin.splice(1..2, [0x18, 0x01]);
    assert_eq!(ccode(&nonmin), "NON_MINIMAL_ENCODING");
    let mut dup = cose.clone();
    dup[0] = 0xa5;
    dup.extend_from_slice(&[0x01, 0x07]);
    assert_eq!(ccode(&dup), "DUPLICATE_FIELD");
    let mut indef = cose.clone();
    indef[0] = 0xbf;
    assert_eq!(ccode(&indef), "BAD_CBOR");
    let mut kty = cose.clone();
    kty[2] = 0x01;
    assert_eq!(ccode(&kty), "WRONG_KEY_TYPE");
}
