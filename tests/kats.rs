//! The committed known-answer vectors are exactly what the code produces
//! (`cargo run --bin genkat` regenerates them), generation is deterministic, and the
//! protocol vectors' outputs verify under independent verifiers.

mod common;

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

fn kats_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("kats")
}

fn manifest_line(name: &str, contents: &str) -> String {
    format!(
        "{}  {name}\n",
        quasar_pq::kat::hex(&Sha256::digest(contents.as_bytes()))
    )
}

#[test]
fn committed_vectors_match_a_fresh_regeneration() {
    let dir = kats_dir();
    let files = quasar_pq::kat::all();
    assert!(!files.is_empty());
    let mut manifest = String::new();
    for (name, contents) in &files {
        let committed = std::fs::read_to_string(dir.join(name))
            .unwrap_or_else(|e| panic!("kats/{name}: {e} (run `cargo run --bin genkat`)"));
        assert!(
            committed == *contents,
            "kats/{name} differs from a fresh regeneration (run `cargo run --bin genkat`)"
        );
        manifest.push_str(&manifest_line(name, contents));
    }
    let committed = std::fs::read_to_string(dir.join("manifest.sha256")).expect("kats/manifest.sha256");
    if cfg!(feature = "threshold") {
        assert_eq!(committed, manifest);
    } else {
        // Without the threshold feature only some files are made: each must be listed.
        for line in manifest.lines() {
            assert!(
                committed.lines().any(|l| l == line),
                "kats/manifest.sha256 lacks {line:?}"
            );
        }
    }
}

#[test]
fn generation_is_deterministic() {
    let a = quasar_pq::kat::all();
    let b = quasar_pq::kat::all();
    assert_eq!(a.len(), b.len());
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        assert!(x == y, "kats/{name} differs between two runs in one process");
    }
}

#[cfg(feature = "threshold")]
mod protocols {
    use quasar_pq::lens::Curve;
    use quasar_pq::lss::ActivationCertificate;
    use serde_json::Value;

    use super::common::{self, unhex};

    fn load(name: &str) -> Vec<Value> {
        let text = std::fs::read_to_string(super::kats_dir().join(name)).unwrap();
        let file: Value = serde_json::from_str(&text).unwrap();
        let cases = file["cases"].as_array().unwrap().clone();
        assert!(!cases.is_empty(), "kats/{name} has no cases");
        cases
    }

    fn field(c: &Value, key: &str) -> Vec<u8> {
        unhex(key, c[key].as_str().unwrap_or_else(|| panic!("no field {key}")))
    }

    /// The parts of an `LSA1` certificate, read independently of the library's decoder:
    /// (kind, activation message without the tag, group key, signature).
    fn split_certificate(bytes: &[u8]) -> (u8, Vec<u8>, Vec<u8>, Vec<u8>) {
        assert_eq!(&bytes[..6], b"LSA1\x00\x01");
        let kind = bytes[6];
        let body = bytes[7..7 + 40].to_vec(); // transcript hash ‖ u64 generation
        let mut at = 47;
        let mut take = || {
            let n = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
            let v = bytes[at + 4..at + 4 + n].to_vec();
            at += 4 + n;
            v
        };
        let key = take();
        let sig = take();
        assert_eq!(at, bytes.len(), "trailing bytes");
        (kind, body, key, sig)
    }

    #[test]
    fn pulsar_signatures_and_certificates_verify_under_peer_verifiers() {
        let cases = load("pulsar.json");
        let mut ran = 0;
        for c in &cases {
            let mode = common::mode_from_parameter_set(c["set"].as_str().unwrap());
            let frame = field(c, "group_key");
            assert_eq!(&frame[..6], b"PULG\x00\x01");
            assert_eq!(frame[6], mode.to_byte());
            assert_eq!(
                u32::from_be_bytes(frame[7..11].try_into().unwrap()) as usize,
                frame.len() - 11
            );
            let pk = &frame[11..];
            let (msg, ctx) = (field(c, "message"), field(c, "context"));
            let cert_bytes = field(c, "activation_certificate");
            let (kind, body, key, sig) = split_certificate(&cert_bytes);
            assert_eq!(kind, 2, "a Pulsar certificate");
            assert_eq!(key, frame, "the certificate names the unchanged group key");
            assert_eq!(body[..32], field(c, "reshare_transcript_hash")[..]);
            assert_eq!(
                u64::from_be_bytes(body[32..].try_into().unwrap()),
                c["generation"].as_u64().unwrap()
            );
            let tag = field(c, "activation_context");
            assert_eq!(tag, b"QUASAR-PULSAR-ACTIVATE-v1");
            let activation = [&tag[..], &body[..]].concat();
            let decoded = ActivationCertificate::from_bytes(&cert_bytes).unwrap();
            assert_eq!(decoded.message(), activation);
            assert_eq!(decoded.to_bytes(), cert_bytes);
            assert!(c["activation_valid"].as_bool().unwrap());
            for peer in common::peers::peers(mode) {
                for name in ["signature_deterministic", "signature_hedged"] {
                    assert!(
                        (peer.verify)(pk, &msg, &ctx, &field(c, name)),
                        "{}: {name}",
                        peer.name
                    );
                }
                assert!(
                    (peer.verify)(pk, &activation, &tag, &sig),
                    "{}: activation",
                    peer.name
                );
                assert!(
                    !(peer.verify)(pk, &msg, &ctx, &sig),
                    "{}: wrong message",
                    peer.name
                );
            }
            ran += 1;
        }
        assert_eq!(ran, 2);
    }

    /// RFC 9591 §6.2 verification, independent of frost: accept iff z·G == R + c·PK.
    fn ristretto_verify(group_key: &[u8], msg: &[u8], sig: &[u8]) -> bool {
        use curve25519_dalek::ristretto::CompressedRistretto;
        use curve25519_dalek::{RistrettoPoint, Scalar};
        use sha2::{Digest, Sha512};
        let point = |b: &[u8]| {
            CompressedRistretto::from_slice(b)
                .ok()
                .and_then(|c| c.decompress())
        };
        let (Some(pk), Some(r)) = (point(group_key), point(&sig[..32])) else {
            return false;
        };
        let z: Option<Scalar> = Scalar::from_canonical_bytes(sig[32..].try_into().unwrap()).into();
        let Some(z) = z else { return false };
        let mut h = Sha512::new();
        h.update(b"FROST-RISTRETTO255-SHA512-v1chal");
        h.update(&sig[..32]);
        h.update(group_key);
        h.update(msg);
        let c = Scalar::from_bytes_mod_order_wide(&h.finalize().into());
        RistrettoPoint::mul_base(&z) == r + c * pk
    }

    fn standard_verify(curve: &str, group_key: &[u8], msg: &[u8], sig: &[u8]) -> bool {
        match curve {
            "ed25519" => {
                let vk = ed25519_dalek::VerifyingKey::from_bytes(group_key.try_into().unwrap()).unwrap();
                let sig = ed25519_dalek::Signature::from_bytes(sig.try_into().unwrap());
                vk.verify_strict(msg, &sig).is_ok()
            }
            "secp256k1" => {
                let vk = k256::schnorr::VerifyingKey::from_bytes(&group_key[1..]).unwrap();
                let sig = k256::schnorr::Signature::try_from(sig).unwrap();
                vk.verify_raw(msg, &sig).is_ok()
            }
            "ristretto255" => ristretto_verify(group_key, msg, sig),
            other => panic!("unknown curve {other}"),
        }
    }

    #[test]
    fn lens_signatures_and_certificates_verify_under_standard_verifiers() {
        let cases = load("lens.json");
        let mut curves = Vec::new();
        for c in &cases {
            let curve = c["curve"].as_str().unwrap();
            let key = field(c, "group_key");
            assert_eq!(key, field(c, "group_key_after_reshare"), "{curve}: key unchanged");
            assert!(
                standard_verify(curve, &key, &field(c, "message"), &field(c, "signature")),
                "{curve}"
            );
            let cert_bytes = field(c, "activation_certificate");
            let (kind, body, cert_key, sig) = split_certificate(&cert_bytes);
            assert_eq!(kind, 1, "a Lens certificate");
            assert_eq!(cert_key, key);
            assert_eq!(body[..32], field(c, "reshare_transcript_hash")[..]);
            let activation = [&b"QUASAR-LENS-ACTIVATE-v1"[..], &body[..]].concat();
            assert_eq!(
                ActivationCertificate::from_bytes(&cert_bytes).unwrap().message(),
                activation
            );
            assert!(
                standard_verify(curve, &key, &activation, &sig),
                "{curve}: activation"
            );
            assert!(
                !standard_verify(curve, &key, &field(c, "message"), &sig),
                "{curve}: wrong message"
            );
            assert!(c["activation_valid"].as_bool().unwrap());
            curves.push(format!("{}/{curve}", c["keygen"].as_str().unwrap()));
        }
        let expected: Vec<String> = ["dealer", "dkg"]
            .iter()
            .flat_map(|k| Curve::ALL.iter().map(move |c| format!("{k}/{}", c.name())))
            .collect();
        assert_eq!(curves, expected);
    }
}
