//! The committed known-answer vectors are exactly what the code produces
//! (`cargo run --features sim --bin genkat` regenerates them), generation is deterministic, and the
//! protocol vectors' outputs verify under independent verifiers.

// Helpers outside `#[test]` functions unwrap too: a panic here is a failed test
// (clippy.toml's allow-unwrap-in-tests covers only the test functions themselves).
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

fn kats_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("kats")
}

/// The `genkat` binary, through `QUASAR_TEST_RUNNER` when it is set: a cross-built test
/// under qemu-user cannot exec a binary of its own architecture directly
/// (`scripts/test-aarch64.mjs` sets it).
fn genkat() -> std::process::Command {
    let runner = std::env::var("QUASAR_TEST_RUNNER").unwrap_or_default();
    let mut words = runner.split_whitespace();
    match words.next() {
        Some(program) => {
            let mut cmd = std::process::Command::new(program);
            cmd.args(words).arg(env!("CARGO_BIN_EXE_genkat"));
            cmd
        }
        None => std::process::Command::new(env!("CARGO_BIN_EXE_genkat")),
    }
}

/// `genkat --check` regenerates every file in memory and compares it with the committed
/// one (and the manifest); run twice, it also shows that generation is deterministic
/// across processes.
#[test]
fn committed_vectors_match_a_fresh_regeneration() {
    for run in 0..2 {
        let out = genkat().arg("--check").output().expect("run genkat");
        assert!(
            out.status.success(),
            "run {run}: kats/ differs from a fresh regeneration (run `cargo run --features sim --bin genkat`):\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let manifest = std::fs::read_to_string(kats_dir().join("manifest.sha256")).expect("kats/manifest.sha256");
    for name in [
        "mldsa.json",
        "pulsar.json",
        "lens.json",
        "cert.json",
        "committee.json",
    ] {
        let contents = std::fs::read(kats_dir().join(name)).unwrap();
        let line = format!("{}  {name}", hex::encode(Sha256::digest(&contents)));
        assert!(manifest.lines().any(|l| l == line), "manifest lacks {line}");
    }
}

#[cfg(feature = "threshold")]
mod protocols {
    use quasar_pq::lens::Curve;
    use quasar_pq::lss::{ActivationCertificate, GroupPublic};
    use quasar_pq::pulsar::custody::GroupKey;
    use quasar_pq::vss::Ristretto255;
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

    /// The parts of an `LSA2` certificate, read independently of the library's decoder:
    /// (scheme, generation, transcript hash, key, members).
    fn split_certificate(bytes: &[u8]) -> (u8, u64, Vec<u8>, Vec<u8>, Vec<u64>) {
        assert_eq!(&bytes[..6], b"LSA2\x00\x01");
        let (scheme, curve, mode) = (bytes[6], bytes[7], bytes[8]);
        assert!(
            (1..=3).contains(&curve) && (1..=2).contains(&mode),
            "curve {curve}, mode {mode}"
        );
        let generation = u64::from_be_bytes(bytes[9..17].try_into().unwrap());
        let transcript = bytes[17..49].to_vec();
        let n = u32::from_be_bytes(bytes[49..53].try_into().unwrap()) as usize;
        let key = bytes[53..53 + n].to_vec();
        let mut at = 53 + n;
        let count = u16::from_be_bytes(bytes[at..at + 2].try_into().unwrap()) as usize;
        at += 2;
        // Point and one or two scalars per proof: 64 (Feldman, 32-byte points), 65
        // (secp256k1), 96 (Pedersen).
        let proof = (bytes.len() - at) / count - 2;
        let mut members = Vec::new();
        for _ in 0..count {
            members.push(u64::from(u16::from_be_bytes(
                bytes[at..at + 2].try_into().unwrap(),
            )));
            at += 2 + proof;
        }
        assert_eq!(at, bytes.len(), "trailing bytes");
        (scheme, generation, transcript, key, members)
    }

    fn ints(c: &Value, key: &str) -> Vec<u64> {
        c[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect()
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
            // What every Pulsar certificate binds: the announced key, C_0 ‖ ceremony
            // transcript hash ‖ u32 length ‖ PULG frame.
            let mut announced = field(c, "group_commitment");
            announced.extend(field(c, "ceremony_hash"));
            announced.extend(u32::try_from(frame.len()).unwrap().to_be_bytes());
            announced.extend(&frame);
            let cert_bytes = field(c, "activation_certificate");
            let (scheme, generation, transcript, key, members) = split_certificate(&cert_bytes);
            assert_eq!(scheme, 2, "a Pulsar certificate");
            assert_eq!(
                key, announced,
                "the certificate names the unchanged announced key"
            );
            assert_eq!(transcript, field(c, "reshare_transcript_hash"));
            assert_eq!(generation, c["generation"].as_u64().unwrap());
            assert_eq!(members, ints(c, "activation_members"));
            assert!(members.len() as u64 >= c["reshare_threshold"].as_u64().unwrap());
            assert!(members.iter().all(|m| ints(c, "reshare_receivers").contains(m)));
            assert_eq!(
                ActivationCertificate::from_bytes(&cert_bytes).unwrap().to_bytes(),
                cert_bytes
            );
            assert!(c["activation_valid"].as_bool().unwrap());
            let (scheme, generation, transcript, key, members) =
                split_certificate(&field(c, "key_certificate"));
            assert_eq!(
                (scheme, generation),
                (2, 0),
                "the key certificate of generation 0"
            );
            assert_eq!(key, announced);
            assert_eq!(transcript, field(c, "dkg_transcript_hash"));
            assert_eq!(members, ints(c, "parties"));
            // The record: PCGK ‖ u16 3 ‖ the announced key ‖ u32 length ‖ the certificate;
            // read (the one strict check) against the DKG's sharing, it is accepted.
            let certificate = field(c, "key_certificate");
            let mut record = b"PCGK\x00\x03".to_vec();
            record.extend(&announced);
            record.extend(u32::try_from(certificate.len()).unwrap().to_be_bytes());
            record.extend(&certificate);
            assert_eq!(record, field(c, "group_key_record"));
            let sharing = GroupPublic::<Ristretto255>::from_bytes(&field(c, "sharing")).unwrap();
            assert_eq!(
                sharing.transcript_hash().to_vec(),
                field(c, "dkg_transcript_hash")
            );
            let key = GroupKey::from_bytes(&record, &sharing).unwrap();
            assert_eq!(key.to_bytes(), record);
            for peer in common::peers::peers(mode) {
                for name in ["signature_deterministic", "signature_hedged"] {
                    assert!(
                        (peer.verify)(pk, &msg, &ctx, &field(c, name)),
                        "{}: {name}",
                        peer.name
                    );
                }
                assert!(
                    !(peer.verify)(pk, b"another message", &ctx, &field(c, "signature_hedged")),
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
                let vk = k256::schnorr::VerifyingKey::from_bytes(group_key).unwrap();
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
            assert!(
                standard_verify(
                    curve,
                    &key,
                    &field(c, "message_after"),
                    &field(c, "signature_after")
                ),
                "{curve}: after the reshare"
            );
            assert!(
                !standard_verify(curve, &key, &field(c, "message"), &field(c, "signature_after")),
                "{curve}: wrong message"
            );
            let cert_bytes = field(c, "activation_certificate");
            let (scheme, generation, transcript, cert_key, members) = split_certificate(&cert_bytes);
            assert_eq!(scheme, 1, "a Lens certificate");
            assert_eq!(cert_key, key);
            assert_eq!(transcript, field(c, "reshare_transcript_hash"));
            assert_eq!(generation, 1);
            assert_eq!(members, ints(c, "activation_members"));
            assert!(members.len() as u64 >= c["reshare_threshold"].as_u64().unwrap());
            assert_eq!(
                ActivationCertificate::from_bytes(&cert_bytes).unwrap().to_bytes(),
                cert_bytes
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

/// Every golden certificate of `kats/cert.json` gets its recorded verdict — overall and leg
/// by leg — from the verifier, and the light-client sequence its recorded steps.
mod certificates {
    use quasar_pq::cert::{verify, LightClient, Options, Policy, TrustedSet, ValidatorSet};
    use serde_json::Value;

    fn hex_of(v: &Value) -> Vec<u8> {
        hex::decode(v.as_str().unwrap()).unwrap()
    }

    fn by_name<'a>(list: &'a Value, name: &str) -> &'a Value {
        list.as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("no entry {name}"))
    }

    /// A certificate's bytes: given, or its base with the splices applied in order.
    fn bytes_of(file: &Value, name: &str) -> Vec<u8> {
        let c = by_name(&file["certificates"], name);
        if let Some(b) = c.get("bytes") {
            return hex_of(b);
        }
        let mut b = bytes_of(file, c["base"].as_str().unwrap());
        for s in c["splices"].as_array().unwrap() {
            let at = usize::try_from(s["at"].as_u64().unwrap()).unwrap();
            let cut = usize::try_from(s["cut"].as_u64().unwrap()).unwrap();
            b.splice(at..at + cut, hex_of(&s["insert"]));
        }
        b
    }

    fn set_of(file: &Value, name: &str) -> ValidatorSet {
        let s = by_name(&file["sets"], name);
        let set = ValidatorSet::from_bytes(&hex_of(&s["bytes"])).unwrap();
        assert_eq!(set.root().to_vec(), hex_of(&s["root"]), "{name}: root");
        set
    }

    #[test]
    fn golden_certificates_get_their_recorded_verdicts() {
        let text = std::fs::read_to_string(super::kats_dir().join("cert.json")).unwrap();
        let file: Value = serde_json::from_str(&text).unwrap();
        let mut ran = 0;
        let mut policies = std::collections::BTreeSet::new();
        for c in file["cases"].as_array().unwrap() {
            let name = c["certificate"].as_str().unwrap();
            let bytes = bytes_of(&file, name);
            let trusted = TrustedSet::new(set_of(&file, c["set"].as_str().unwrap())).unwrap();
            let policy = Policy::from_name(c["policy"].as_str().unwrap()).unwrap();
            let options = Options {
                full: true,
                clock: None,
            };
            let r = verify(&bytes, &trusted, &policy, &options);
            let what = format!("{name} under {policy}");
            assert_eq!(r.is_valid(), c["valid"].as_bool().unwrap(), "{what}: {r}");
            assert_eq!(r.code().unwrap_or(""), c["code"].as_str().unwrap(), "{what}");
            let legs: Vec<&Value> = c["legs"].as_array().unwrap().iter().collect();
            assert_eq!(r.legs().count(), legs.len(), "{what}");
            for (got, want) in r.legs().zip(legs) {
                assert_eq!(got.kind.name(), want["kind"], "{what}");
                assert_eq!(got.verdict.name(), want["verdict"], "{what} {}", got.kind);
                assert_eq!(
                    got.reason.as_ref().map_or("", |e| e.code()),
                    want["code"],
                    "{what} {}",
                    got.kind
                );
                assert_eq!(
                    got.signers.map(|s| s as u64),
                    want["signers"].as_u64(),
                    "{what} {}",
                    got.kind
                );
                assert_eq!(got.weight, want["weight"].as_u64(), "{what} {}", got.kind);
            }
            if r.is_valid() {
                assert_eq!(
                    r.header().unwrap().message().to_vec(),
                    hex_of(&c["message"]),
                    "{what}"
                );
            }
            policies.insert(policy.name());
            ran += 1;
        }
        assert!(ran >= 20, "{ran} cases");
        assert_eq!(policies.len(), Policy::ALL.len(), "every policy: {policies:?}");

        let mut steps = 0;
        for seq in file["light"].as_array().unwrap() {
            let set = set_of(&file, seq["set"].as_str().unwrap());
            let policy = Policy::from_name(seq["policy"].as_str().unwrap()).unwrap();
            let mut client = LightClient::new(set, policy).unwrap();
            for s in seq["steps"].as_array().unwrap() {
                let cert = bytes_of(&file, s["certificate"].as_str().unwrap());
                let next = match s["next_set"].as_str().unwrap() {
                    "" => None,
                    name => Some(set_of(&file, name).to_bytes()),
                };
                let got = client.update(&cert, next.as_deref());
                assert_eq!(got.is_ok(), s["accepted"].as_bool().unwrap(), "{s}");
                assert_eq!(
                    got.err().map_or("", |e| e.code()),
                    s["code"].as_str().unwrap(),
                    "{s}"
                );
                assert_eq!(client.epoch(), s["epoch"].as_u64().unwrap(), "{s}");
                steps += 1;
            }
            assert_eq!(
                client.trusted().set().key_era(),
                seq["key_era"].as_u64().unwrap(),
                "{}: the key era the client ends in",
                seq["name"]
            );
        }
        assert!(steps >= 12, "{steps} light-client steps");
    }
}
