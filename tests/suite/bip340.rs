//! BIP-340's own test vectors through [`lens::verify`], each key exactly as the standard
//! gives it (the 32-byte x-only key): every valid vector is accepted, every invalid one
//! refused, and the 33-byte SEC 1 form of a valid key is refused by length. `k256`'s
//! BIP-340 verifier, which shares no code with frost, checks the file the same way.
//!
//! The vectors are `tests/vectors/bip340/test-vectors.csv`, copied unchanged from the BIP
//! (source and commit in that folder's README).
//!
//! Run: `cargo test --features sim,hazmat --test suite bip340::`.

#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use quasar_pq::lens::{self, Curve, Error, GROUP_KEY_LEN};
use quasar_pq::wire;

/// One row of the BIP's CSV.
struct Vector {
    index: usize,
    key: Vec<u8>,
    message: Vec<u8>,
    signature: Vec<u8>,
    valid: bool,
    comment: String,
}

fn vectors() -> Vec<Vector> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/bip340/test-vectors.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "index,secret key,public key,aux_rand,message,signature,verification result,comment"
    );
    lines
        .filter(|l| !l.is_empty())
        .map(|line| {
            // The comment is the last column and the only one that could hold a comma.
            let f: Vec<&str> = line.splitn(8, ',').collect();
            assert_eq!(f.len(), 8, "{line}");
            Vector {
                index: f[0].parse().unwrap(),
                key: hex::decode(f[2]).unwrap(),
                message: hex::decode(f[4]).unwrap(),
                signature: hex::decode(f[5]).unwrap(),
                valid: match f[6] {
                    "TRUE" => true,
                    "FALSE" => false,
                    other => panic!("vector {}: verification result {other}", f[0]),
                },
                comment: f[7].to_owned(),
            }
        })
        .collect()
}

#[test]
fn lens_verify_agrees_with_every_vector() {
    let all = vectors();
    let valid = all.iter().filter(|v| v.valid).count();
    assert_eq!(
        (valid, all.len() - valid),
        (9, 10),
        "the BIP's 9 valid and 10 invalid vectors"
    );
    for v in &all {
        assert_eq!(v.key.len(), GROUP_KEY_LEN, "vector {}: an x-only key", v.index);
        let verdict = lens::verify(Curve::Secp256k1, &v.key, &v.message, &v.signature);
        if v.valid {
            assert_eq!(verdict, Ok(()), "vector {} ({})", v.index, v.comment);
        } else {
            assert!(verdict.is_err(), "vector {} ({}) accepted", v.index, v.comment);
        }
    }
}

#[test]
fn invalid_vectors_are_refused_for_their_reason() {
    // A key or `r` that names no curve point, or an `s` out of range, cannot be decoded;
    // a well-formed signature fails the verification equation. (Vectors 9 and 10, with
    // `r` = 0 and 1, are refused either way: `lens_verify_agrees_with_every_vector`.)
    let mut checked = 0;
    for v in vectors().iter().filter(|v| !v.valid) {
        let expected = match v.index {
            5 | 14 => Error::Decode(wire::Error::InvalidValue("group key")),
            11..=13 => Error::Decode(wire::Error::InvalidValue("signature")),
            6..=8 => Error::InvalidSignature,
            _ => continue,
        };
        let verdict = lens::verify(Curve::Secp256k1, &v.key, &v.message, &v.signature);
        assert_eq!(verdict, Err(expected), "vector {} ({})", v.index, v.comment);
        checked += 1;
    }
    assert_eq!(checked, 8);
}

#[test]
fn the_sec1_form_of_a_key_is_refused_by_length() {
    for v in vectors().iter().filter(|v| v.valid) {
        for prefix in [0x02, 0x03] {
            let sec1 = [&[prefix], v.key.as_slice()].concat();
            assert_eq!(
                lens::verify(Curve::Secp256k1, &sec1, &v.message, &v.signature),
                Err(Error::Decode(wire::Error::LengthMismatch {
                    expected: 32,
                    got: 33
                })),
                "vector {}: {prefix:02x}‖x",
                v.index
            );
        }
    }
}

#[test]
fn k256_reads_the_vectors_the_same_way() {
    for v in vectors() {
        let ok = k256::schnorr::VerifyingKey::from_bytes(&v.key).is_ok_and(|vk| {
            k256::schnorr::Signature::try_from(v.signature.as_slice())
                .is_ok_and(|s| vk.verify_raw(&v.message, &s).is_ok())
        });
        assert_eq!(ok, v.valid, "vector {} ({})", v.index, v.comment);
    }
}
