//! Magnetar: the reference's `MAGS`/`MAGG` envelopes byte for byte, keys from
//! seeds, framed sign/verify, interop of the payloads with `fips205` and RustCrypto
//! `slh-dsa`, batch bitmaps with planted bad signatures (with and without `parallel`:
//! same bits), the `MAGA` aggregate certificate against a weighted registry (unknown and
//! duplicate signers, quorum exactly at its boundary, zero weight, custom rules, the
//! invalid-signature verdict), and every truncation, extension and header bit flip of each
//! format giving a typed error.
//!
//! Most cases use SHAKE-192f (fast signing); one signature each of SHAKE-192s and
//! SHAKE-256s is made for the interop and wrong-mode cases. Run:
//! `cargo test --release --features sim,hazmat --test suite magnetar::` (add `parallel` for the
//! threaded batch path).

// Helpers outside `#[test]` functions unwrap too: a panic here is a failed test
// (clippy.toml's allow-unwrap-in-tests covers only the test functions themselves).
#![allow(clippy::unwrap_used)]

use crate::slh_peers;

use std::sync::OnceLock;

use quasar_pq::magnetar::{
    self, envelope, AggregateCertificate, BatchItem, Mode, PublicKey, PublicKeyFrame, Registry,
    SignatureFrame, SigningKey, Validator, ValidatorId,
};
use quasar_pq::quorum::Quorum;
use quasar_pq::{slhdsa, wire};
use sha3::digest::{ExtendableOutput, Update, XofReader};

fn labelled(label: &str, n: usize) -> Vec<u8> {
    let mut h = sha3::Shake256::default();
    h.update(b"quasar-pq/test/magnetar/");
    h.update(label.as_bytes());
    let mut out = vec![0u8; n];
    h.finalize_xof().read(&mut out);
    out
}

const MSG: &[u8] = b"chain 7 / epoch 3 / height 1000 / block 0x5eed";
const CTX: &[u8] = b"quasar-test-finality";
const K: usize = 7;

fn id(i: usize) -> ValidatorId {
    let mut b = [0u8; 32];
    b[..8].copy_from_slice(&(i as u64 + 1).to_be_bytes());
    ValidatorId(b)
}

/// Seven SHAKE-192f validators and their signatures on `MSG` under `CTX`, made once.
struct Fixture {
    keys: Vec<SigningKey>,
    sigs: Vec<Vec<u8>>,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let mode = Mode::Shake192f;
        let keys: Vec<SigningKey> = (0..K)
            .map(|i| SigningKey::from_seed(mode, &labelled(&format!("key{i}"), mode.seed_len())).unwrap())
            .collect();
        let sigs = keys
            .iter()
            .map(|k| k.sign_deterministic(MSG, CTX).unwrap())
            .collect();
        Fixture { keys, sigs }
    })
}

/// One SHAKE-192s key and signature (slow to make: shared by the tests that need them).
fn s_signature() -> &'static (SigningKey, Vec<u8>) {
    static S: OnceLock<(SigningKey, Vec<u8>)> = OnceLock::new();
    S.get_or_init(|| {
        let k = SigningKey::from_seed(Mode::Shake192s, &labelled("192s", 96)).unwrap();
        let s = k.sign_deterministic(MSG, CTX).unwrap();
        (k, s)
    })
}

fn registry(weights: &[u64]) -> Registry {
    let f = fixture();
    let validators = weights
        .iter()
        .enumerate()
        .map(|(i, &weight)| Validator {
            id: id(i),
            key: f.keys[i].public_key(),
            weight,
        })
        .collect();
    Registry::new(Mode::Shake192f, validators).unwrap()
}

fn cert_of(signers: &[usize]) -> Vec<u8> {
    let f = fixture();
    let contributions: Vec<(ValidatorId, &[u8])> = signers.iter().map(|&i| (id(i), &f.sigs[i][..])).collect();
    AggregateCertificate::encode(Mode::Shake192f, &contributions).unwrap()
}

fn code<T: core::fmt::Debug>(r: Result<T, magnetar::Error>) -> &'static str {
    r.unwrap_err().code()
}

// ----------------------------------------------------------------------------------
// Envelopes
// ----------------------------------------------------------------------------------

/// The research's table: mode bytes, FIPS 205 sizes, 11-byte headers, per-validator wire
/// (signature + key + 32-byte id) and the K = 21 aggregate at 192s.
#[test]
fn envelope_headers_and_sizes_are_the_reference_ones() {
    let table = [
        // mode, byte, pk, sig, per-validator wire, MAGS length bytes
        (
            Mode::Shake192s,
            0x01,
            48,
            16_224,
            16_304,
            [0x00, 0x00, 0x3F, 0x60],
        ),
        (
            Mode::Shake192f,
            0x02,
            48,
            35_664,
            35_744,
            [0x00, 0x00, 0x8B, 0x50],
        ),
        (
            Mode::Shake256s,
            0x03,
            64,
            29_792,
            29_888,
            [0x00, 0x00, 0x74, 0x60],
        ),
    ];
    for (mode, byte, pk_len, sig_len, wire_len, sig_len_be) in table {
        assert_eq!(mode.to_byte(), byte);
        assert_eq!(Mode::from_byte(byte), Some(mode));
        assert_eq!((mode.public_key_len(), mode.signature_len()), (pk_len, sig_len));
        assert_eq!(mode.seed_len(), 2 * pk_len);
        assert_eq!(sig_len + pk_len + 32, wire_len);
        let sig = labelled(mode.name(), sig_len);
        let s = SignatureFrame::encode(mode, &sig).unwrap();
        assert_eq!(&s[..7], &[0x4D, 0x41, 0x47, 0x53, 0x00, 0x01, byte]);
        assert_eq!(s[7..11], sig_len_be);
        assert_eq!(s.len(), 11 + sig_len);
        assert_eq!(
            &s[11..],
            &sig[..],
            "stripping the header leaves the FIPS 205 bytes"
        );
        let pk = labelled(mode.name(), pk_len);
        let g = PublicKeyFrame::encode(mode, &pk).unwrap();
        assert_eq!(
            &g[..11],
            &[
                0x4D,
                0x41,
                0x47,
                0x47,
                0x00,
                0x01,
                byte,
                0,
                0,
                0,
                u8::try_from(pk_len).unwrap()
            ]
        );
        assert_eq!(
            SignatureFrame::decode(&s).unwrap(),
            SignatureFrame {
                mode,
                signature: &sig
            }
        );
        assert_eq!(PublicKeyFrame::decode(&g).unwrap().to_bytes(), g);
        assert_eq!(code(SignatureFrame::encode(mode, &sig[1..])), "INVALID_LENGTH");
        assert_eq!(code(PublicKeyFrame::encode(mode, &[0; 47])), "INVALID_LENGTH");
    }
    assert_eq!(11 + 16_224, 16_235);
    assert_eq!(11 + 48, 59);
    for b in [0x00, 0x04, 0x05, 0x06, 0xFF] {
        assert_eq!(Mode::from_byte(b), None);
    }
    // The reference's K = 21 aggregate (mode, count, ids, keys, signatures) and ours.
    assert_eq!(5 + 21 * (32 + 48 + 16_224), 342_389);
    assert_eq!(magnetar::certificate::HEADER_LEN + 21 * (32 + 16_224), 341_385);
}

/// Every cut, one and many extra bytes, every header bit flip, foreign magics and
/// every mode byte: a typed error naming the fault, never a panic.
#[test]
fn every_envelope_deviation_is_a_typed_error() {
    let f = fixture();
    let s = &f.sigs[0];
    let g = f.keys[0].public_key().to_frame();
    for (frame, decode) in [
        (
            s.clone(),
            (|b| SignatureFrame::decode(b).map(|_| ())) as fn(&[u8]) -> Result<(), wire::Error>,
        ),
        (g.clone(), |b| PublicKeyFrame::decode(b).map(|_| ())),
    ] {
        decode(&frame).unwrap();
        for cut in 0..frame.len() {
            let e = decode(&frame[..cut]).unwrap_err();
            assert_eq!(e.code(), "TOO_SHORT", "cut {cut}");
        }
        for extra in [1usize, 2, 11, 4096] {
            let mut long = frame.clone();
            long.resize(frame.len() + extra, 0xA5);
            assert_eq!(decode(&long), Err(wire::Error::TrailingBytes { extra }));
        }
        for bit in 0..envelope::HEADER_LEN * 8 {
            let mut bad = frame.clone();
            bad[bit / 8] ^= 1 << (bit % 8);
            let e = decode(&bad).unwrap_err();
            let expected = match bit / 8 {
                0..=3 => "BAD_MAGIC",
                4 | 5 => "BAD_VERSION",
                // 0x02 ^ one bit: 0x03 is a mode of another size, the rest name nothing.
                6 if bad[6] == 0x03 => "LENGTH_MISMATCH",
                6 => "UNKNOWN_MODE",
                _ => "LENGTH_MISMATCH",
            };
            assert_eq!(e.code(), expected, "header bit {bit}");
        }
        // Another mode byte decodes only when that mode has the same payload size
        // (192s and 192f keys are both 48 bytes): the mode is then the verifier's to check.
        let payload = frame.len() - envelope::HEADER_LEN;
        let is_key = frame[3] == b'G';
        for m in 0..=255u8 {
            let mut bad = frame.clone();
            bad[6] = m;
            let same_size = Mode::from_byte(m).is_some_and(|mode| {
                payload
                    == if is_key {
                        mode.public_key_len()
                    } else {
                        mode.signature_len()
                    }
            });
            assert_eq!(decode(&bad).is_ok(), same_size, "mode byte {m:#04x}");
        }
    }
    // Each magic is refused by the other decoder, and the aggregate's too.
    assert_eq!(PublicKeyFrame::decode(s).unwrap_err().code(), "BAD_MAGIC");
    assert_eq!(SignatureFrame::decode(&g).unwrap_err().code(), "BAD_MAGIC");
    assert_eq!(code(AggregateCertificate::decode(s)), "BAD_MAGIC");
    assert_eq!(code(PublicKey::from_frame(s)), "BAD_MAGIC");
}

// ----------------------------------------------------------------------------------
// Keys, signing, verification
// ----------------------------------------------------------------------------------

/// The reference's key derivation (SHAKE256 of the 4n-byte seed split into the three
/// FIPS 205 seeds), framed sign and verify, hedged and deterministic, context bounds.
#[test]
fn keys_sign_and_verify_framed() {
    let mode = Mode::Shake192f;
    let seed = labelled("derive", 96);
    let mut h = sha3::Shake256::default();
    h.update(&seed);
    let mut three = [0u8; 72];
    h.finalize_xof().read(&mut three);
    let k = SigningKey::from_seed(mode, &seed).unwrap();
    let k2 = SigningKey::from_seeds(mode, &three[..24], &three[24..48], &three[48..]).unwrap();
    assert_eq!(k.to_bytes(), k2.to_bytes());
    assert_eq!(
        &k.to_bytes()[48..],
        k.public_key().as_bytes(),
        "sk ends with the pk"
    );
    assert_eq!(&k.to_bytes()[..24], &three[..24]);
    assert_eq!(code(SigningKey::from_seed(mode, &seed[..95])), "INVALID_LENGTH");
    assert_eq!(
        code(SigningKey::from_seeds(mode, &[0; 23], &[0; 24], &[0; 24])),
        "INVALID_LENGTH"
    );
    assert!(format!("{k:?}").contains("redacted"));

    let pk = k.public_key();
    let g = pk.to_frame();
    assert_eq!(PublicKey::from_frame(&g).unwrap(), pk);
    assert_eq!(PublicKey::from_bytes(mode, pk.as_bytes()).unwrap(), pk);
    assert_eq!(code(PublicKey::from_bytes(mode, &[0; 64])), "INVALID_LENGTH");
    let det = k.sign_deterministic(MSG, b"").unwrap();
    assert_eq!(det, k.sign_deterministic(MSG, b"").unwrap(), "deterministic");
    let hedged = k.sign(MSG, CTX, &labelled("addrnd", 24)).unwrap();
    assert_ne!(hedged, k.sign(MSG, CTX, &labelled("addrnd2", 24)).unwrap());
    assert_eq!(code(k.sign(MSG, CTX, &[0; 23])), "INVALID_LENGTH");
    pk.verify(MSG, b"", &det).unwrap();
    pk.verify(MSG, CTX, &hedged).unwrap();
    assert!(magnetar::verify_bytes(&g, MSG, &det));
    assert!(
        !magnetar::verify_bytes(&g, MSG, &hedged),
        "verify_bytes uses an empty context"
    );
    assert!(!magnetar::verify_bytes(&g, b"other", &det));
    assert!(!magnetar::verify_bytes(&det, MSG, &g), "swapped frames");
    assert!(!magnetar::verify_bytes(&[], &[], &[]));
    magnetar::verify_frames(&g, MSG, CTX, &hedged).unwrap();
    assert_eq!(code(pk.verify(MSG, b"x", &hedged)), "INVALID_SIGNATURE");
    assert_eq!(code(pk.verify(b"other", CTX, &hedged)), "INVALID_SIGNATURE");
    assert_eq!(
        code(magnetar::verify_frames(&g, MSG, CTX, &hedged[..100])),
        "TOO_SHORT"
    );
    assert_eq!(
        code(magnetar::verify_frames(&g[..5], MSG, CTX, &hedged)),
        "TOO_SHORT"
    );
    // Contexts: 255 bytes signs and verifies, 256 is refused on both sides.
    let ctx255 = [0x5A; 255];
    let long = k.sign_deterministic(b"", &ctx255).unwrap();
    pk.verify(b"", &ctx255, &long).unwrap();
    assert_eq!(code(k.sign_deterministic(b"", &[0; 256])), "CONTEXT_TOO_LONG");
    assert_eq!(code(pk.verify(b"", &[0; 256], &long)), "CONTEXT_TOO_LONG");
    // A signature of another mode.
    let (sk_s, sig_s) = s_signature();
    assert_eq!(sk_s.public_key().verify(MSG, CTX, sig_s), Ok(()));
    assert_eq!(code(pk.verify(MSG, CTX, sig_s)), "WRONG_MODE");
    assert_eq!(code(magnetar::verify_frames(&g, MSG, CTX, sig_s)), "WRONG_MODE");
    // Secret-key bytes round trip.
    let again = SigningKey::from_bytes(mode, &k.to_bytes()).unwrap();
    assert_eq!(again.sign_deterministic(MSG, b"").unwrap(), det);
    assert_eq!(code(SigningKey::from_bytes(mode, &[0; 95])), "INVALID_LENGTH");
}

/// A MAGS payload is a stock FIPS 205 signature: `fips205` and RustCrypto `slh-dsa`
/// verify it under the MAGG payload, for all three modes (the 192s and 256s keys come
/// from the same seeds as ours in the peers, too).
#[test]
fn payloads_verify_under_fips205_and_rustcrypto() {
    let f = fixture();
    let (sk_s, sig_s) = s_signature();
    let k256 = SigningKey::from_seed(Mode::Shake256s, &labelled("256s", 128)).unwrap();
    let sig_256 = k256.sign_deterministic(MSG, CTX).unwrap();
    for (key, sig) in [(&f.keys[0], &f.sigs[0]), (sk_s, sig_s), (&k256, &sig_256)] {
        let mode = key.mode();
        let n = mode.slhdsa().n();
        let pk = PublicKeyFrame::decode(&key.public_key().to_frame())
            .unwrap()
            .public_key
            .to_vec();
        let payload = SignatureFrame::decode(sig).unwrap().signature;
        let sk = key.to_bytes();
        for p in slh_peers::peers(mode.slhdsa()) {
            let (ppk, psk) = (p.keygen)(&sk[..n], &sk[n..2 * n], &sk[2 * n..3 * n]);
            assert_eq!(
                (ppk.as_slice(), psk.as_slice()),
                (pk.as_slice(), &sk[..]),
                "{}",
                p.name
            );
            let verify = (p.verifier)(&pk);
            assert!(
                verify(MSG, CTX, payload),
                "{} rejects a {} payload",
                p.name,
                mode.name()
            );
            assert!(!verify(MSG, b"", payload), "{} ignores the context", p.name);
        }
    }
}

// ----------------------------------------------------------------------------------
// Batch verification
// ----------------------------------------------------------------------------------

/// Good signatures among planted bad ones (wrong key, wrong message, a flipped byte, a
/// signature of another mode, a truncated envelope): the bitmap counts each bad one out
/// and equals one-by-one verification.
#[test]
fn batch_bitmap_counts_out_planted_bad_signatures() {
    let f = fixture();
    let keys: Vec<PublicKey> = f.keys.iter().map(SigningKey::public_key).collect();
    let (sk_s, sig_s) = s_signature();
    let key_s = sk_s.public_key();
    let mut flipped = f.sigs[2].clone();
    let at = flipped.len() / 2;
    flipped[at] ^= 0x01;
    let other_msg = f.keys[3].sign_deterministic(b"another block", CTX).unwrap();
    let truncated = &f.sigs[5][..f.sigs[5].len() - 1];
    let mut items: Vec<BatchItem<'_>> = (0..K)
        .map(|i| BatchItem {
            key: &keys[i],
            message: MSG,
            signature: &f.sigs[i],
        })
        .collect();
    items[1].key = &keys[0]; // wrong key
    items[2].signature = &flipped; // a flipped byte
    items[3].signature = &other_msg; // a signature on another message
    items[4].signature = sig_s; // a 192s signature under a 192f key
    items[5].signature = truncated;
    items.push(BatchItem {
        key: &key_s,
        message: MSG,
        signature: sig_s,
    }); // a good one of another mode in the same batch
    items.push(BatchItem {
        key: &key_s,
        message: MSG,
        signature: &f.sigs[0],
    }); // and a 192f signature under the 192s key
    let bitmap = magnetar::verify_batch(&items, CTX).unwrap();
    assert_eq!(
        bitmap,
        [true, false, false, false, false, false, true, true, false]
    );
    let one_by_one: Vec<bool> = items
        .iter()
        .map(|it| it.key.verify(it.message, CTX, it.signature).is_ok())
        .collect();
    assert_eq!(bitmap, one_by_one);
    assert_eq!(
        magnetar::verify_batch(&items, b"other").unwrap(),
        vec![false; items.len()]
    );
    assert_eq!(
        code(magnetar::verify_batch(&items, &[0; 256])),
        "CONTEXT_TOO_LONG"
    );
    assert!(magnetar::verify_batch(&[], CTX).unwrap().is_empty());
}

/// A batch large enough to be split across threads under `parallel` (21 items) gives the
/// single-thread verdicts; run with and without the feature.
#[test]
fn batch_of_21_matches_single_verification() {
    let f = fixture();
    let keys: Vec<PublicKey> = f.keys.iter().map(SigningKey::public_key).collect();
    let mut bad = f.sigs[4].clone();
    bad[200] ^= 0x80;
    let items: Vec<BatchItem<'_>> = (0..21)
        .map(|j| BatchItem {
            key: &keys[j % K],
            message: MSG,
            signature: if j == 11 { &bad } else { &f.sigs[j % K] },
        })
        .collect();
    let bitmap = magnetar::verify_batch(&items, CTX).unwrap();
    let expected: Vec<bool> = (0..21).map(|j| j != 11).collect();
    assert_eq!(bitmap, expected);
}

// ----------------------------------------------------------------------------------
// Aggregate certificate
// ----------------------------------------------------------------------------------

/// Weights 6, 4, 4, 4, 3 (total 21): 14 signed is exactly 2/3 and fails; 15 passes.
#[test]
fn quorum_is_strict_at_the_two_thirds_boundary() {
    let reg = registry(&[6, 4, 4, 4, 3]);
    assert_eq!(reg.total_weight(), 21);
    let q = Quorum::default();
    // {6, 4, 4} = 14: one unit short.
    let bytes = cert_of(&[0, 1, 2]);
    let cert = AggregateCertificate::decode(&bytes).unwrap();
    let e = cert.verify(&reg, MSG, CTX, q).unwrap_err();
    assert_eq!(e.code(), "QUORUM_NOT_MET");
    assert_eq!(quasar_pq::Error::from(e.clone()).code(), "QUORUM_NOT_MET");
    assert_eq!(quasar_pq::Error::from(e).module(), "magnetar");
    let report = cert.check(&reg, MSG, CTX, q).unwrap();
    assert_eq!(
        (report.signed_weight, report.total_weight, report.quorum_met),
        (14, 21, false)
    );
    assert_eq!(report.verdict().unwrap_err().code(), "QUORUM_NOT_MET");
    // {4, 4, 4, 3} = 15 > 14: passes.
    let bytes = cert_of(&[4, 2, 1, 3]); // any order in; ascending out
    let cert = AggregateCertificate::decode(&bytes).unwrap();
    assert_eq!(
        cert.signers().collect::<Vec<_>>(),
        vec![id(1), id(2), id(3), id(4)]
    );
    let report = cert.verify(&reg, MSG, CTX, q).unwrap();
    assert_eq!(report.signer_count(), 4);
    assert_eq!(report.valid_count(), 4);
    assert_eq!((report.signed_weight, report.claimed_weight), (15, 15));
    assert!(report.quorum_met && report.bitmap.iter().all(|&b| b));
    assert_eq!(report.quorum, q);
    assert!(report.failed().is_empty());
    // Everyone.
    let all = cert_of(&[0, 1, 2, 3, 4]);
    let report = AggregateCertificate::decode(&all)
        .unwrap()
        .verify(&reg, MSG, CTX, q)
        .unwrap();
    assert_eq!(report.signed_weight, 21);
    // The message and the context are bound.
    let cert = AggregateCertificate::decode(&all).unwrap();
    assert_eq!(
        code(cert.verify(&reg, b"another block", CTX, q)),
        "INVALID_SIGNATURE"
    );
    assert_eq!(code(cert.verify(&reg, MSG, b"", q)), "INVALID_SIGNATURE");
    assert_eq!(code(cert.verify(&reg, MSG, &[0; 256], q)), "CONTEXT_TOO_LONG");
}

/// Rules other than 2/3: 1/2 (exactly half fails), 3/4, 0/1 (any positive weight).
#[test]
fn custom_rational_quorums() {
    let reg = registry(&[1, 1, 1, 1, 1, 1, 1]); // total 7
    let half = Quorum::new(1, 2).unwrap();
    let three_quarters = Quorum::new(3, 4).unwrap();
    let any = Quorum::new(0, 1).unwrap();
    let four = cert_of(&[0, 1, 2, 3]);
    let cert = AggregateCertificate::decode(&four).unwrap();
    assert!(cert.verify(&reg, MSG, CTX, half).is_ok()); // 4·2 > 7·1
    assert_eq!(
        code(cert.verify(&reg, MSG, CTX, three_quarters)),
        "QUORUM_NOT_MET"
    ); // 16 ≤ 21
    assert!(cert.verify(&reg, MSG, CTX, any).is_ok());
    let six = cert_of(&[0, 1, 2, 3, 4, 5]);
    let cert = AggregateCertificate::decode(&six).unwrap();
    assert!(cert.verify(&reg, MSG, CTX, three_quarters).is_ok()); // 24 > 21
                                                                  // Exactly half of an even total fails 1/2.
    let reg6 = registry(&[1, 1, 1, 1, 1, 1]);
    let three = cert_of(&[0, 1, 2]);
    let cert = AggregateCertificate::decode(&three).unwrap();
    assert_eq!(code(cert.verify(&reg6, MSG, CTX, half)), "QUORUM_NOT_MET");
    // Zero-weight validators count for nothing.
    let reg0 = registry(&[0, 0, 0, 1]);
    assert_eq!(code(cert.verify(&reg0, MSG, CTX, any)), "QUORUM_NOT_MET");
    for (n, d) in [(1, 0), (2, 2), (3, 2), (0, 0)] {
        assert_eq!(Quorum::new(n, d).unwrap_err().code(), "INVALID_QUORUM");
    }
}

/// The verdict rule: one bad signature sinks the certificate even when the rest meets the
/// quorum; `check` names it and keeps the weights.
#[test]
fn an_invalid_signature_fails_the_whole_certificate() {
    let reg = registry(&[1, 1, 1, 1, 1, 1, 1]);
    let mut bytes = cert_of(&[0, 1, 2, 3, 4, 5, 6]);
    // The third signature's middle byte (ids first, then signatures).
    let sig_len = Mode::Shake192f.signature_len();
    let at = magnetar::certificate::HEADER_LEN + K * 32 + 2 * sig_len + sig_len / 2;
    bytes[at] ^= 0x01;
    let cert = AggregateCertificate::decode(&bytes).unwrap();
    let e = cert.verify(&reg, MSG, CTX, Quorum::default()).unwrap_err();
    assert_eq!(e.code(), "INVALID_SIGNATURE");
    assert_eq!(e, magnetar::Error::InvalidSignatures { failed: vec![id(2)] });
    let report = cert.check(&reg, MSG, CTX, Quorum::default()).unwrap();
    assert_eq!(report.bitmap, [true, true, false, true, true, true, true]);
    assert_eq!(report.failed(), vec![id(2)]);
    assert_eq!(
        (report.signed_weight, report.claimed_weight, report.total_weight),
        (6, 7, 7)
    );
    assert!(report.quorum_met, "the valid six meet 2/3 …");
    assert_eq!(
        report.verdict().unwrap_err().code(),
        "INVALID_SIGNATURE",
        "… and still fail"
    );
    assert_eq!(report.valid_count(), 6);
}

#[test]
fn unknown_and_duplicate_signers_are_errors() {
    let f = fixture();
    let reg = registry(&[1, 1, 1, 1, 1]); // validators 0..4 only
                                          // Unknown: validator 6 signs with its real key but is not registered.
    let bytes = cert_of(&[0, 1, 2, 3, 6]);
    let cert = AggregateCertificate::decode(&bytes).unwrap();
    let e = cert.verify(&reg, MSG, CTX, Quorum::default()).unwrap_err();
    assert_eq!(e, magnetar::Error::UnknownSigner { id: id(6) });
    assert_eq!(e.code(), "UNKNOWN_SIGNER");
    assert_eq!(
        code(cert.check(&reg, MSG, CTX, Quorum::default())),
        "UNKNOWN_SIGNER"
    );
    // Duplicate in the contributions.
    let dup: Vec<(ValidatorId, &[u8])> = vec![
        (id(0), &f.sigs[0][..]),
        (id(1), &f.sigs[1][..]),
        (id(0), &f.sigs[0][..]),
    ];
    assert_eq!(
        AggregateCertificate::encode(Mode::Shake192f, &dup),
        Err(magnetar::Error::DuplicateSigner { id: id(0) })
    );
    // Duplicate written by hand: the second id made equal to the first.
    let mut bytes = cert_of(&[0, 1, 2]);
    let ids = magnetar::certificate::HEADER_LEN;
    let first: Vec<u8> = bytes[ids..ids + 32].to_vec();
    bytes[ids + 32..ids + 64].copy_from_slice(&first);
    assert_eq!(
        AggregateCertificate::decode(&bytes),
        Err(magnetar::Error::DuplicateSigner { id: id(0) })
    );
    // Out of order.
    let mut bytes = cert_of(&[0, 1]);
    let (a, b) = (bytes[ids..ids + 32].to_vec(), bytes[ids + 32..ids + 64].to_vec());
    bytes[ids..ids + 32].copy_from_slice(&b);
    bytes[ids + 32..ids + 64].copy_from_slice(&a);
    assert_eq!(code(AggregateCertificate::decode(&bytes)), "INVALID_VALUE");
    // Other contribution faults.
    assert_eq!(
        code(AggregateCertificate::encode(Mode::Shake192f, &[])),
        "NO_SIGNERS"
    );
    let (_, sig_s) = s_signature();
    assert_eq!(
        code(AggregateCertificate::encode(
            Mode::Shake192f,
            &[(id(0), &sig_s[..])]
        )),
        "WRONG_MODE"
    );
    assert_eq!(
        code(AggregateCertificate::encode(
            Mode::Shake192f,
            &[(id(0), &f.sigs[0][..20])]
        )),
        "TOO_SHORT"
    );
}

#[test]
fn registries_refuse_zero_weight_duplicates_and_mixed_modes() {
    let f = fixture();
    let v = |i: usize, w: u64| Validator {
        id: id(i),
        key: f.keys[i].public_key(),
        weight: w,
    };
    let m = Mode::Shake192f;
    let err = |r: Result<Registry, magnetar::Error>| r.unwrap_err().code();
    assert_eq!(err(Registry::new(m, vec![])), "ZERO_TOTAL_WEIGHT");
    assert_eq!(err(Registry::new(m, vec![v(0, 0), v(1, 0)])), "ZERO_TOTAL_WEIGHT");
    assert_eq!(
        err(Registry::new(m, vec![v(0, u64::MAX), v(1, 1)])),
        "WEIGHT_OVERFLOW"
    );
    assert_eq!(
        err(Registry::new(m, vec![v(0, 1), v(0, 2)])),
        "DUPLICATE_VALIDATOR"
    );
    let mut twin = v(1, 1);
    twin.key = f.keys[0].public_key();
    assert_eq!(
        Registry::new(m, vec![v(0, 1), twin]),
        Err(magnetar::Error::DuplicateKey {
            first: id(0),
            second: id(1)
        })
    );
    let (sk_s, _) = s_signature();
    let mut other = v(2, 1);
    other.key = sk_s.public_key();
    assert_eq!(err(Registry::new(m, vec![v(0, 1), other])), "WRONG_MODE");
    let many: Vec<Validator> = (0..magnetar::MAX_VALIDATORS + 1)
        .map(|i| Validator {
            id: id(i),
            key: PublicKey::from_bytes(m, &labelled(&format!("pk{i}"), 48)).unwrap(),
            weight: 1,
        })
        .collect();
    assert_eq!(err(Registry::new(m, many)), "TOO_MANY_KEYS");
    // Sorted by id whatever the input order; lookups.
    let reg = Registry::new(m, vec![v(3, 5), v(0, 1), v(2, 0)]).unwrap();
    let ids: Vec<ValidatorId> = reg.validators().iter().map(|v| v.id).collect();
    assert_eq!(ids, vec![id(0), id(2), id(3)]);
    assert_eq!((reg.len(), reg.total_weight(), reg.mode()), (3, 6, m));
    assert_eq!(reg.get(&id(3)).map(|v| v.weight), Some(5));
    assert_eq!(reg.position(&id(1)), None);
    // A certificate of another mode than the registry.
    let (sk_s, sig_s) = s_signature();
    let reg_s = Registry::new(
        Mode::Shake192s,
        vec![Validator {
            id: id(0),
            key: sk_s.public_key(),
            weight: 1,
        }],
    )
    .unwrap();
    let s_cert = AggregateCertificate::encode(Mode::Shake192s, &[(id(0), &sig_s[..])]).unwrap();
    let cert = AggregateCertificate::decode(&s_cert).unwrap();
    assert_eq!(
        cert.verify(&reg_s, MSG, CTX, Quorum::default())
            .unwrap()
            .signed_weight,
        1
    );
    assert_eq!(code(cert.verify(&reg, MSG, CTX, Quorum::default())), "WRONG_MODE");
}

/// Every cut, extension and header bit flip of a certificate, and inflated counts: typed
/// errors, and no allocation beyond what the input holds (a count is checked against the
/// length first).
#[test]
fn every_certificate_deviation_is_a_typed_error() {
    let bytes = cert_of(&[0, 2, 5]);
    let cert = AggregateCertificate::decode(&bytes).unwrap();
    assert_eq!(cert.len(), 3);
    assert_eq!(cert.encoded_len(), bytes.len());
    assert_eq!(cert.mode(), Mode::Shake192f);
    assert_eq!(
        cert.signatures().next(),
        Some(SignatureFrame::decode(&fixture().sigs[0]).unwrap().signature)
    );
    assert_eq!(
        &bytes[..9],
        &[0x4D, 0x41, 0x47, 0x41, 0x00, 0x01, 0x02, 0x00, 0x03]
    );
    assert_eq!(bytes.len(), 9 + 3 * (32 + 35_664));
    for cut in 0..bytes.len() {
        let e = AggregateCertificate::decode(&bytes[..cut]).unwrap_err();
        assert_eq!(e.code(), "TOO_SHORT", "cut {cut}");
    }
    for extra in [1usize, 32, 35_664 + 32] {
        let mut long = bytes.clone();
        long.resize(bytes.len() + extra, 0);
        assert_eq!(
            AggregateCertificate::decode(&long),
            Err(magnetar::Error::Decode(wire::Error::TrailingBytes { extra }))
        );
    }
    for bit in 0..9 * 8 {
        let mut bad = bytes.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        let e = AggregateCertificate::decode(&bad).unwrap_err();
        let ok = match bit / 8 {
            0..=3 => e.code() == "BAD_MAGIC",
            4 | 5 => e.code() == "BAD_VERSION",
            6 => ["UNKNOWN_MODE", "TOO_SHORT", "TRAILING_BYTES"].contains(&e.code()),
            // The count: another count is another length (or zero, or over the limit).
            _ => ["TOO_SHORT", "TRAILING_BYTES", "NO_SIGNERS", "COUNT_TOO_LARGE"].contains(&e.code()),
        };
        assert!(ok, "header bit {bit}: {}", e.code());
    }
    // Counts: zero, the limit + 1, and u16::MAX with no body behind it.
    for (count, expected) in [
        (0u16, "NO_SIGNERS"),
        (1025, "COUNT_TOO_LARGE"),
        (u16::MAX, "COUNT_TOO_LARGE"),
    ] {
        let mut bad = bytes[..9].to_vec();
        bad[7..9].copy_from_slice(&count.to_be_bytes());
        assert_eq!(code(AggregateCertificate::decode(&bad)), expected);
    }
    let mut bad = bytes[..9].to_vec();
    bad[7..9].copy_from_slice(&1024u16.to_be_bytes());
    assert_eq!(code(AggregateCertificate::decode(&bad)), "TOO_SHORT");
    // Flipping a bit of an id: still decodes if the order holds, then the signer is unknown.
    let reg = registry(&[1, 1, 1, 1, 1, 1]);
    let mut bad = bytes.clone();
    bad[9 + 32 + 31] ^= 0x01; // id(2) -> another id between id(0) and id(5)
    let cert = AggregateCertificate::decode(&bad).unwrap();
    assert_eq!(
        code(cert.verify(&reg, MSG, CTX, Quorum::default())),
        "UNKNOWN_SIGNER"
    );
}

/// The crate-wide error keeps the codes and names the module.
#[test]
fn errors_reach_the_crate_error_with_their_codes() {
    let cases: Vec<(magnetar::Error, &str)> = vec![
        (magnetar::Error::UnknownSigner { id: id(0) }, "UNKNOWN_SIGNER"),
        (magnetar::Error::DuplicateSigner { id: id(0) }, "DUPLICATE_SIGNER"),
        (
            quasar_pq::quorum::Error::ZeroTotalWeight.into(),
            "ZERO_TOTAL_WEIGHT",
        ),
        (wire::Error::TrailingBytes { extra: 1 }.into(), "TRAILING_BYTES"),
        (
            slhdsa::Error::InvalidLength {
                what: "x",
                expected: 1,
                got: 2,
            }
            .into(),
            "INVALID_LENGTH",
        ),
    ];
    for (e, c) in cases {
        let top = quasar_pq::Error::from(e);
        assert_eq!((top.code(), top.module()), (c, "magnetar"));
        assert!(top.culprits().is_empty());
    }
    let q = quasar_pq::Error::from(quasar_pq::quorum::Error::WeightOverflow);
    assert_eq!((q.code(), q.module()), ("WEIGHT_OVERFLOW", "quorum"));
}
