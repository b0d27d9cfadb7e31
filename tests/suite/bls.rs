//! BLS12-381 (`quasar_pq::bls`): the Ethereum / IETF vectors in `tests/vectors/bls/` (see the
//! README there for their source), round trips, the rogue-key attack that proofs of
//! possession stop, the prepared validator set against plain FastAggregateVerify, bitmaps,
//! and bad input for every decoder.
//!
//! Every vector loader counts the cases it ran and fails on zero.

use std::fs;
use std::path::PathBuf;

use bls12_381::{G1Affine, G1Projective, G2Affine, G2Projective, Scalar};
use quasar_pq::bls::{
    self, hazmat, Error, PreparedSet, ProofOfPossession, Signature, SignerBitmap, SigningKey, VerifyingKey,
    MAX_SET_SIZE,
};
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn vectors(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/vectors/bls")
        .join(name);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn cases(v: &Value) -> &Vec<Value> {
    v.as_array()
        .or_else(|| v["cases"].as_array())
        .expect("a list of cases")
}

fn unhex(v: &Value) -> Vec<u8> {
    let s = v.as_str().expect("a hex string");
    hex::decode(s.strip_prefix("0x").unwrap_or(s)).expect("valid hex")
}

fn unhex_list(v: &Value) -> Vec<Vec<u8>> {
    v.as_array().expect("a list").iter().map(unhex).collect()
}

/// Runs `check` on every case of a vector file; panics on the first failure or on no case.
fn run(file: &str, mut check: impl FnMut(&Value) -> Result<(), String>) -> usize {
    let v = vectors(file);
    let list = cases(&v);
    let mut n = 0;
    for c in list {
        let name = c["name"].as_str().unwrap_or("?");
        if let Err(e) = check(c) {
            panic!("{file} {name}: {e}");
        }
        n += 1;
    }
    assert!(n > 0, "{file}: no case ran");
    n
}

fn key(i: u32) -> SigningKey {
    let mut ikm = [0u8; 32];
    ikm[..4].copy_from_slice(&i.to_be_bytes());
    SigningKey::keygen(&ikm, b"quasar-pq bls tests").expect("32-byte ikm")
}

/// A validator set of `n` keys with their proofs of possession.
fn committee(n: u32) -> (Vec<SigningKey>, Vec<(VerifyingKey, ProofOfPossession)>) {
    let sks: Vec<SigningKey> = (0..n).map(key).collect();
    let members = sks
        .iter()
        .map(|sk| (sk.verifying_key(), sk.prove_possession()))
        .collect();
    (sks, members)
}

/// A small deterministic generator (xorshift64*), for bitmaps and flips.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).expect("below n")
    }
}

// ---------------------------------------------------------------------------------------------
// Vectors (ethereum/bls12-381-tests v0.1.2, RFC 9380, EIP-2333)
// ---------------------------------------------------------------------------------------------

#[test]
fn vectors_sign() {
    let n = run("sign.json", |c| {
        let sk = unhex(&c["input"]["privkey"]);
        let msg = unhex(&c["input"]["message"]);
        let got = bls::sign(&sk, &msg);
        match &c["output"] {
            Value::Null => match got {
                Err(Error::InvalidSecretKey) => Ok(()),
                other => Err(format!("want InvalidSecretKey, got {other:?}")),
            },
            out => {
                let sig = got.map_err(|e| format!("{e:?}"))?;
                if sig.as_slice() != unhex(out) {
                    return Err(format!("signature {}", hex::encode(sig)));
                }
                // The signature verifies under the derived key.
                let pk = bls::sk_to_pk(&sk).map_err(|e| format!("{e:?}"))?;
                bls::verify(&pk, &msg, &sig).map_err(|e| format!("{e:?}"))
            }
        }
    });
    assert_eq!(n, 10);
}

#[test]
fn vectors_verify() {
    let n = run("verify.json", |c| {
        let i = &c["input"];
        let got = bls::verify(
            &unhex(&i["pubkey"]),
            &unhex(&i["message"]),
            &unhex(&i["signature"]),
        );
        match (c["output"].as_bool(), &got) {
            (Some(true), Ok(())) | (Some(false), Err(_)) => Ok(()),
            (want, got) => Err(format!("want {want:?}, got {got:?}")),
        }
    });
    assert_eq!(n, 29);
}

#[test]
fn vectors_verify_errors_are_typed() {
    // The tampered signatures are off the curve or outside the subgroup: decoding errors,
    // while wrong keys give InvalidSignature, and the identity key is refused by KeyValidate.
    let mut invalid = 0;
    run("verify.json", |c| {
        let i = &c["input"];
        let got = bls::verify(
            &unhex(&i["pubkey"]),
            &unhex(&i["message"]),
            &unhex(&i["signature"]),
        );
        let name = c["name"].as_str().unwrap_or("");
        let ok = if name.starts_with("verify_wrong_pubkey") {
            invalid += 1;
            got == Err(Error::InvalidSignature)
        } else if name.starts_with("verify_tampered") {
            got.as_ref().is_err_and(Error::is_decoding)
        } else if name.starts_with("verify_infinity") {
            got == Err(Error::IdentityElement { what: "public key" })
        } else {
            got.is_ok()
        };
        if ok {
            Ok(())
        } else {
            Err(format!("{got:?}"))
        }
    });
    assert_eq!(invalid, 9);
}

#[test]
fn vectors_aggregate() {
    let n = run("aggregate.json", |c| {
        let inputs = unhex_list(&c["input"]);
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let got = bls::aggregate(&refs);
        let name = c["name"].as_str().unwrap_or("");
        match &c["output"] {
            Value::Null => match got {
                Err(Error::Empty { .. }) => Ok(()),
                other => Err(format!("want Empty, got {other:?}")),
            },
            // Our signatures are never the identity (module docs): the one case whose input
            // and output are the identity is refused at decoding, a documented departure.
            _ if name == "aggregate_infinity_signature" => match got {
                Err(Error::IdentityElement { what: "signature" }) => Ok(()),
                other => Err(format!("want IdentityElement, got {other:?}")),
            },
            out => match got {
                Ok(sig) if sig.as_slice() == unhex(out) => Ok(()),
                other => Err(format!("got {other:?}")),
            },
        }
    });
    assert_eq!(n, 6);
}

#[test]
fn vectors_fast_aggregate_verify() {
    let mut prepared_checked = 0;
    let n = run("fast_aggregate_verify.json", |c| {
        let i = &c["input"];
        let keys = unhex_list(&i["pubkeys"]);
        let refs: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
        let msg = unhex(&i["message"]);
        let sig = unhex(&i["signature"]);
        let got = bls::fast_aggregate_verify(&refs, &msg, &sig);
        let want = c["output"].as_bool();
        if !matches!((want, &got), (Some(true), Ok(())) | (Some(false), Err(_))) {
            return Err(format!("want {want:?}, got {got:?}"));
        }
        // The same case through a prepared set with every member signing (where the keys
        // form a valid set: no identity, no duplicate).
        let typed: Result<Vec<VerifyingKey>, _> = refs.iter().map(|k| VerifyingKey::try_from(*k)).collect();
        if let Ok(set) = typed
            .map_err(|_| ())
            .and_then(|k| PreparedSet::from_keys_trusting_pops(&k).map_err(|_| ()))
        {
            let all = SignerBitmap::from_indices(set.len(), &(0..set.len()).collect::<Vec<_>>()).unwrap();
            let prepared = set.verify_aggregate_bytes(&msg, &sig, &all);
            if prepared.is_ok() != got.is_ok() {
                return Err(format!("prepared set says {prepared:?}, plain {got:?}"));
            }
            prepared_checked += 1;
        }
        Ok(())
    });
    assert_eq!(n, 12);
    assert!(prepared_checked >= 6, "{prepared_checked}");
}

#[test]
fn vectors_aggregate_verify() {
    let n = run("aggregate_verify.json", |c| {
        let i = &c["input"];
        let keys = unhex_list(&i["pubkeys"]);
        let msgs = unhex_list(&i["messages"]);
        let krefs: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
        let mrefs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
        let got = bls::aggregate_verify(&krefs, &mrefs, &unhex(&i["signature"]));
        match (c["output"].as_bool(), &got) {
            (Some(true), Ok(())) | (Some(false), Err(_)) => Ok(()),
            (want, got) => Err(format!("want {want:?}, got {got:?}")),
        }
    });
    assert_eq!(n, 5);
}

/// `output: true` means a valid point encoding; the identity is one, but KeyValidate (and our
/// signature decoding) refuse it with `IdentityElement`.
fn check_deserialization(
    c: &Value,
    field: &str,
    decode: impl Fn(&[u8]) -> Result<(), Error>,
) -> Result<(), String> {
    let bytes = unhex(&c["input"][field]);
    let got = decode(&bytes);
    let want = c["output"].as_bool();
    let ok = match (want, &got) {
        (Some(true), Ok(())) | (Some(true), Err(Error::IdentityElement { .. })) => true,
        (Some(false), Err(e)) => e.is_decoding() && !matches!(e, Error::IdentityElement { .. }),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("want {want:?}, got {got:?}"))
    }
}

#[test]
fn vectors_deserialization_g1() {
    let n = run("deserialization_G1.json", |c| {
        check_deserialization(c, "pubkey", |b| VerifyingKey::try_from(b).map(|_| ()))
    });
    assert_eq!(n, 13);
}

#[test]
fn vectors_deserialization_g2() {
    let n = run("deserialization_G2.json", |c| {
        check_deserialization(c, "signature", |b| Signature::try_from(b).map(|_| ()))?;
        check_deserialization(c, "signature", |b| ProofOfPossession::try_from(b).map(|_| ()))
    });
    assert_eq!(n, 15);
}

#[test]
fn vectors_deserialization_errors_are_specific() {
    let expect = |file: &str, field: &str, g1: bool| {
        run(file, |c| {
            let bytes = unhex(&c["input"][field]);
            let got = if g1 {
                VerifyingKey::try_from(bytes.as_slice()).map(|_| ())
            } else {
                Signature::try_from(bytes.as_slice()).map(|_| ())
            };
            let name = c["name"].as_str().unwrap_or("");
            let code = got.as_ref().err().map(Error::code);
            let want = match name {
                n if n.contains("succeeds_infinity") => Some("IDENTITY_ELEMENT"),
                n if n.contains("too_few") || n.contains("too_many") => Some("INVALID_LENGTH"),
                n if n.contains("wrong_c_flag") => Some("NOT_COMPRESSED"),
                // x = 0 without the infinity flag: (0, 2) is on E1 but outside G1.
                n if n.contains("infinity_with_false_b_flag") && g1 => Some("NOT_IN_SUBGROUP"),
                n if n.contains("infinity_with_false_b_flag") => Some("NOT_ON_CURVE"),
                n if n.contains("b_flag") => Some("INVALID_INFINITY_ENCODING"),
                n if n.contains("modulus") => Some("NON_CANONICAL"),
                n if n.contains("not_in_curve") => Some("NOT_ON_CURVE"),
                n if n.contains("not_in_G") => Some("NOT_IN_SUBGROUP"),
                _ => None,
            };
            if code == want {
                Ok(())
            } else {
                Err(format!("want {want:?}, got {got:?}"))
            }
        })
    };
    expect("deserialization_G1.json", "pubkey", true);
    expect("deserialization_G2.json", "signature", false);
}

#[test]
fn vectors_hash_to_g2() {
    let v = vectors("hash_to_G2.json");
    let dst = v["dst"].as_str().unwrap().as_bytes();
    let n = run("hash_to_G2.json", |c| {
        let msg = c["input"]["msg"].as_str().unwrap().as_bytes();
        let out = &c["output"];
        let coords = |s: &Value| -> Vec<Vec<u8>> {
            s.as_str()
                .unwrap()
                .split(',')
                .map(|h| hex::decode(h.strip_prefix("0x").unwrap()).unwrap())
                .collect()
        };
        let (x, y) = (coords(&out["x"]), coords(&out["y"]));
        // Uncompressed: x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0.
        let want = [x[1].clone(), x[0].clone(), y[1].clone(), y[0].clone()].concat();
        let got = hazmat::hash_to_g2(msg, dst).map_err(|e| format!("{e:?}"))?;
        if got.as_slice() == want {
            Ok(())
        } else {
            Err(format!("got {}", hex::encode(got)))
        }
    });
    assert_eq!(n, 5);
}

#[test]
fn vectors_expand_message_xmd() {
    let v = vectors("expand_message_xmd.json");
    let dst = v["dst"].as_str().unwrap().as_bytes();
    let n = run("expand_message_xmd.json", |c| {
        let msg = c["msg"].as_str().unwrap().as_bytes();
        let len = usize::try_from(c["len_in_bytes"].as_u64().unwrap()).unwrap();
        let got = hazmat::expand_message_xmd(msg, dst, len).map_err(|e| format!("{e:?}"))?;
        if got == unhex(&c["uniform_bytes"]) {
            Ok(())
        } else {
            Err(format!("got {}", hex::encode(got)))
        }
    });
    assert_eq!(n, 10);
}

#[test]
fn vectors_keygen_eip2333() {
    let n = run("keygen.json", |c| {
        let ikm = unhex(&c["input"]["ikm"]);
        let info = unhex(&c["input"]["key_info"]);
        let sk = bls::keygen(&ikm, &info).map_err(|e| format!("{e:?}"))?;
        if sk.as_slice() == unhex(&c["output"]) {
            Ok(())
        } else {
            Err(format!("got {}", hex::encode(sk.as_slice())))
        }
    });
    assert_eq!(n, 4);
}

// ---------------------------------------------------------------------------------------------
// Round trips and basic behaviour
// ---------------------------------------------------------------------------------------------

#[test]
fn round_trips() {
    let sk = key(1);
    let pk = sk.verifying_key();
    let sig = sk.sign(b"block 7");
    let pop = sk.prove_possession();
    assert_eq!(VerifyingKey::from_bytes(&pk.to_bytes()), Ok(pk));
    assert_eq!(Signature::from_bytes(&sig.to_bytes()), Ok(sig));
    assert_eq!(ProofOfPossession::from_bytes(&pop.to_bytes()), Ok(pop));
    let sk2 = SigningKey::from_bytes(&sk.to_bytes()).unwrap();
    assert_eq!(sk2.verifying_key(), pk);
    assert_eq!(sk2.sign(b"block 7"), sig, "signing is deterministic");

    assert_eq!(pk.verify(b"block 7", &sig), Ok(()));
    assert_eq!(pk.verify(b"block 8", &sig), Err(Error::InvalidSignature));
    assert_eq!(
        key(2).verifying_key().verify(b"block 7", &sig),
        Err(Error::InvalidSignature)
    );
    assert_eq!(pk.verify_possession(&pop), Ok(()));
    assert_eq!(bls::pop_verify(&pk.to_bytes(), &pop.to_bytes()), Ok(()));
    // A signature is not a proof of possession, and the other way round.
    let fake_pop = ProofOfPossession::from_bytes(&sig.to_bytes()).unwrap();
    assert_eq!(
        pk.verify_possession(&fake_pop),
        Err(Error::InvalidProofOfPossession { index: 0 })
    );
    let pop_as_sig = Signature::from_bytes(&pop.to_bytes()).unwrap();
    assert_eq!(
        pk.verify(&pk.to_bytes(), &pop_as_sig),
        Err(Error::InvalidSignature)
    );

    // Byte API agrees with the typed one.
    let sk_bytes = sk.to_bytes();
    assert_eq!(bls::sk_to_pk(sk_bytes.as_slice()), Ok(pk.to_bytes()));
    assert_eq!(bls::sign(sk_bytes.as_slice(), b"block 7"), Ok(sig.to_bytes()));
    assert_eq!(bls::pop_prove(sk_bytes.as_slice()), Ok(pop.to_bytes()));
}

#[test]
fn secret_keys() {
    assert_eq!(format!("{:?}", key(3)), "SigningKey(<redacted>)");
    assert_eq!(
        SigningKey::from_bytes(&[0; 32]).err(),
        Some(Error::InvalidSecretKey)
    );
    // r itself and 2^256 − 1 are out of range; r − 1 is the largest key.
    let r = hex::decode("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001").unwrap();
    assert_eq!(
        SigningKey::try_from(r.as_slice()).err(),
        Some(Error::InvalidSecretKey)
    );
    assert_eq!(
        SigningKey::from_bytes(&[0xff; 32]).err(),
        Some(Error::InvalidSecretKey)
    );
    let mut r_minus_1 = r.clone();
    r_minus_1[31] -= 1;
    assert!(SigningKey::try_from(r_minus_1.as_slice()).is_ok());
    assert_eq!(
        SigningKey::try_from(&[1u8; 31][..]).err(),
        Some(Error::InvalidLength {
            what: "secret key",
            expected: 32,
            got: 31
        })
    );
    assert_eq!(
        SigningKey::keygen(&[7; 31], b"").err(),
        Some(Error::IkmTooShort { got: 31 })
    );
    // key_info separates keys from the same IKM.
    let a = SigningKey::keygen(&[7; 32], b"a").unwrap().verifying_key();
    let b = SigningKey::keygen(&[7; 32], b"b").unwrap().verifying_key();
    assert_ne!(a, b);
}

#[test]
fn aggregation_basics() {
    let (sks, members) = committee(3);
    let keys: Vec<VerifyingKey> = members.iter().map(|(pk, _)| *pk).collect();
    let sigs: Vec<Signature> = sks.iter().map(|sk| sk.sign(b"m")).collect();
    let agg = Signature::aggregate(&sigs).unwrap();
    assert_eq!(agg.verify_fast_aggregate(&keys, b"m"), Ok(()));
    assert_eq!(
        agg.verify_fast_aggregate(&keys[..2], b"m"),
        Err(Error::InvalidSignature)
    );
    assert_eq!(
        agg.verify_fast_aggregate(&[], b"m"),
        Err(Error::Empty { what: "public keys" })
    );
    assert_eq!(
        Signature::aggregate(&[]),
        Err(Error::Empty { what: "signatures" })
    );

    // Distinct messages.
    let msgs: [&[u8]; 3] = [b"a", b"b", b"a"];
    let sigs: Vec<Signature> = sks.iter().zip(msgs).map(|(sk, m)| sk.sign(m)).collect();
    let agg = Signature::aggregate(&sigs).unwrap();
    let pairs: Vec<(&VerifyingKey, &[u8])> = keys.iter().zip(msgs).collect();
    assert_eq!(agg.verify_aggregate(&pairs), Ok(()));
    let swapped: Vec<(&VerifyingKey, &[u8])> = keys.iter().zip([b"b" as &[u8], b"a", b"a"]).collect();
    assert_eq!(agg.verify_aggregate(&swapped), Err(Error::InvalidSignature));
    // More pairs than one Miller-loop chunk.
    let many: Vec<(&VerifyingKey, &[u8])> = (0..19).map(|i| (&keys[i % 3], msgs[i % 3])).collect();
    let agg19 = Signature::aggregate(&(0..19).map(|i| sigs[i % 3]).collect::<Vec<_>>()).unwrap();
    assert_eq!(agg19.verify_aggregate(&many), Ok(()));
    assert_eq!(agg19.verify_aggregate(&many[..18]), Err(Error::InvalidSignature));
    let kb: Vec<[u8; 48]> = keys.iter().map(VerifyingKey::to_bytes).collect();
    let kr: Vec<&[u8]> = kb.iter().map(|k| k.as_slice()).collect();
    assert_eq!(
        bls::aggregate_verify(&kr, &msgs[..2], &agg.to_bytes()),
        Err(Error::CountMismatch {
            what: "public keys and messages",
            left: 3,
            right: 2
        })
    );

    // A signature plus its negation sums to the identity, which is no signature.
    let s = sks[0].sign(b"x");
    let neg = Signature::from_bytes(
        &G2Affine::from(-G2Projective::from(
            G2Affine::from_compressed(&s.to_bytes()).unwrap(),
        ))
        .to_compressed(),
    )
    .unwrap();
    assert_eq!(
        Signature::aggregate(&[s, neg]),
        Err(Error::IdentityElement {
            what: "aggregate signature"
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Proofs of possession stop rogue keys
// ---------------------------------------------------------------------------------------------

#[test]
fn pop_rejects_rogue_key() {
    let honest = key(10);
    let honest_pk = honest.verifying_key();
    // The attacker knows x and publishes pk_r = x·G − pk_honest, whose secret nobody knows.
    let x = Scalar::from(0x5eed_u64);
    let honest_point = G1Affine::from_compressed(&honest_pk.to_bytes()).unwrap();
    let rogue_point = G1Affine::from(G1Projective::generator() * x - G1Projective::from(honest_point));
    let rogue_pk = VerifyingKey::from_bytes(&rogue_point.to_compressed()).unwrap();

    // Without PoPs, x alone "signs for both": the aggregate key is x·G.
    let message = b"transfer everything";
    let h = G2Affine::from_uncompressed(&hazmat::hash_to_g2(message, bls::DST_SIGNATURE).unwrap()).unwrap();
    let forged = Signature::from_bytes(&G2Affine::from(G2Projective::from(h) * x).to_compressed()).unwrap();
    assert_eq!(
        forged.verify_fast_aggregate(&[honest_pk, rogue_pk], message),
        Ok(())
    );

    // The attacker cannot prove possession of pk_r: neither with a proof made with x on pk_r's
    // hash, nor by replaying the honest proof or its own proof for x·G.
    let hp = G2Affine::from_uncompressed(&hazmat::hash_to_g2(&rogue_pk.to_bytes(), bls::DST_POP).unwrap())
        .unwrap();
    let attempts = [
        ProofOfPossession::from_bytes(&G2Affine::from(G2Projective::from(hp) * x).to_compressed()).unwrap(),
        honest.prove_possession(),
        SigningKey::from_bytes(&{
            let mut be = x.to_bytes();
            be.reverse();
            be
        })
        .unwrap()
        .prove_possession(),
    ];
    for pop in attempts {
        assert_eq!(
            rogue_pk.verify_possession(&pop),
            Err(Error::InvalidProofOfPossession { index: 0 })
        );
        let members = [(honest_pk, honest.prove_possession()), (rogue_pk, pop)];
        assert_eq!(
            PreparedSet::new(&members).err(),
            Some(Error::InvalidProofOfPossession { index: 1 })
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Prepared sets
// ---------------------------------------------------------------------------------------------

fn bitmap_of(n: usize, signers: &[usize]) -> Vec<u8> {
    SignerBitmap::from_indices(n, signers).expect("signer indices below n")
}

#[test]
fn prepared_set_agrees_with_fast_aggregate_verify() {
    const K: usize = 21;
    let (sks, members) = committee(u32::try_from(K).unwrap());
    let keys: Vec<VerifyingKey> = members.iter().map(|(pk, _)| *pk).collect();
    let set = PreparedSet::new(&members).unwrap();
    assert_eq!(set.len(), K);
    assert_eq!(set.verifying_key(3), Some(keys[3]));
    assert_eq!(set.verifying_key(K), None);
    let msg = b"finality: block 1234";
    let sigs: Vec<Signature> = sks.iter().map(|sk| sk.sign(msg)).collect();

    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let mut subsets: Vec<Vec<usize>> = vec![
        (0..K).collect(),                        // all present
        (1..K).collect(),                        // first absent
        (0..K).filter(|&i| i != 13).collect(),   // one absent in the middle
        vec![0, 5, 20],                          // most absent
        vec![K - 1],                             // a single signer
        (0..K / 2).collect(),                    // 10 of 21: just under half
        (0..=K / 2).collect(),                   // 11 of 21: just over half
        (0..K).filter(|i| i % 3 != 0).collect(), // two thirds
    ];
    for _ in 0..6 {
        let s: Vec<usize> = (0..K).filter(|_| rng.next().is_multiple_of(2)).collect();
        if !s.is_empty() {
            subsets.push(s);
        }
    }
    for signers in &subsets {
        let bitmap = bitmap_of(K, signers);
        let b = set.bitmap(&bitmap).unwrap();
        assert_eq!(b.count(), signers.len());
        assert_eq!(b.signers().collect::<Vec<_>>(), *signers);
        assert_eq!(b.absent().count(), K - signers.len());

        let agg = Signature::aggregate(&signers.iter().map(|&i| sigs[i]).collect::<Vec<_>>()).unwrap();
        let signer_keys: Vec<VerifyingKey> = signers.iter().map(|&i| keys[i]).collect();
        assert_eq!(agg.verify_fast_aggregate(&signer_keys, msg), Ok(()));
        assert_eq!(set.verify_aggregate(msg, &agg, &bitmap), Ok(()), "{signers:?}");
        assert_eq!(set.verify_aggregate_bytes(msg, &agg.to_bytes(), &bitmap), Ok(()));
        // Wrong message, and a bitmap that claims one signer too many or too few.
        assert_eq!(
            set.verify_aggregate(b"other", &agg, &bitmap),
            Err(Error::InvalidSignature)
        );
        let mut more = signers.clone();
        if let Some(extra) = (0..K).find(|i| !signers.contains(i)) {
            more.push(extra);
            let plain = agg.verify_fast_aggregate(&more.iter().map(|&i| keys[i]).collect::<Vec<_>>(), msg);
            assert_eq!(plain, Err(Error::InvalidSignature));
            assert_eq!(set.verify_aggregate(msg, &agg, &bitmap_of(K, &more)), plain);
        }
        if signers.len() > 1 {
            let fewer = &signers[1..];
            assert_eq!(
                set.verify_aggregate(msg, &agg, &bitmap_of(K, fewer)),
                Err(Error::InvalidSignature)
            );
        }
    }
}

#[test]
fn prepared_set_exactly_half() {
    // n even, exactly n/2 signers: the sum-of-present branch; n/2 + 1: the subtraction branch.
    let (sks, members) = committee(8);
    let set = PreparedSet::new(&members).unwrap();
    for signers in [vec![0, 2, 4, 6], vec![1, 2, 3, 5, 7], vec![4, 5, 6, 7]] {
        let agg =
            Signature::aggregate(&signers.iter().map(|&i| sks[i].sign(b"h")).collect::<Vec<_>>()).unwrap();
        assert_eq!(
            set.verify_aggregate(b"h", &agg, &bitmap_of(8, &signers)),
            Ok(()),
            "{signers:?}"
        );
    }
}

#[test]
fn prepared_set_construction_errors() {
    let (_, members) = committee(4);
    assert_eq!(
        PreparedSet::new(&[]).err(),
        Some(Error::Empty {
            what: "validator set"
        })
    );
    let mut dup = members.clone();
    dup.push(members[1]);
    assert_eq!(
        PreparedSet::new(&dup).err(),
        Some(Error::DuplicateKey { first: 1, second: 4 })
    );
    let mut swapped = members.clone();
    swapped[2].1 = members[3].1;
    assert_eq!(
        PreparedSet::new(&swapped).err(),
        Some(Error::InvalidProofOfPossession { index: 2 })
    );
    let keys: Vec<VerifyingKey> = members.iter().map(|(pk, _)| *pk).collect();
    assert!(PreparedSet::from_keys_trusting_pops(&keys).is_ok());
    let too_many = vec![keys[0]; MAX_SET_SIZE + 1];
    assert_eq!(
        PreparedSet::from_keys_trusting_pops(&too_many).err(),
        Some(Error::TooManyKeys {
            got: MAX_SET_SIZE + 1,
            max: MAX_SET_SIZE
        })
    );

    // From bytes.
    let pk_bytes: Vec<u8> = members.iter().flat_map(|(pk, _)| pk.to_bytes()).collect();
    let pop_bytes: Vec<u8> = members.iter().flat_map(|(_, p)| p.to_bytes()).collect();
    let set = PreparedSet::from_bytes(&pk_bytes, &pop_bytes).unwrap();
    assert_eq!(set.len(), 4);
    assert_eq!(
        PreparedSet::from_bytes(&pk_bytes[..47], &pop_bytes).err(),
        Some(Error::InvalidLength {
            what: "public key list",
            expected: 0,
            got: 47
        })
    );
    assert_eq!(
        PreparedSet::from_bytes(&pk_bytes, &pop_bytes[1..]).err(),
        Some(Error::InvalidLength {
            what: "proof list",
            expected: 384,
            got: 383
        })
    );
    assert_eq!(
        PreparedSet::from_bytes(&[], &[]).err(),
        Some(Error::Empty {
            what: "validator set"
        })
    );
    let mut bad = pk_bytes.clone();
    bad[48] &= 0x7f; // member 1 loses its compression flag
    match PreparedSet::from_bytes(&bad, &pop_bytes) {
        Err(Error::InvalidMember { index: 1, error }) => {
            assert_eq!(*error, Error::NotCompressed { what: "public key" })
        }
        other => panic!("{other:?}"),
    }
    let mut bad = pop_bytes.clone();
    bad[3 * 96] |= 0x40; // member 3's proof claims infinity
    match PreparedSet::from_bytes(&pk_bytes, &bad) {
        Err(e @ Error::InvalidMember { index: 3, .. }) => assert_eq!(e.code(), "INVALID_MEMBER"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn bitmap_errors_are_typed() {
    let (sks, members) = committee(10);
    let set = PreparedSet::new(&members).unwrap();
    let sig = sks[0].sign(b"m");
    let check = |bitmap: &[u8], want: Error| {
        assert_eq!(set.bitmap(bitmap).err(), Some(want.clone()), "{bitmap:02x?}");
        assert_eq!(set.verify_aggregate(b"m", &sig, bitmap), Err(want.clone()));
        assert_eq!(
            set.verify_aggregate_bytes(b"m", &sig.to_bytes(), bitmap),
            Err(want)
        );
    };
    let len = |got| Error::InvalidLength {
        what: "signer bitmap",
        expected: 2,
        got,
    };
    check(&[], len(0));
    check(&[1], len(1));
    check(&[1, 0, 0], len(3));
    check(&[0, 0], Error::NoSigners);
    check(
        &[1, 0b0000_0100],
        Error::BitmapExtraBits {
            index: 10,
            set_size: 10,
        },
    );
    check(
        &[1, 0b1000_0000],
        Error::BitmapExtraBits {
            index: 15,
            set_size: 10,
        },
    );
    assert_eq!(set.verify_aggregate(b"m", &sig, &[1, 0]), Ok(()));
    assert_eq!(
        set.verify_aggregate(b"m", &sig, &[0b10, 0]),
        Err(Error::InvalidSignature)
    );
    // Bitmap checks come before signature decoding.
    assert_eq!(
        set.verify_aggregate_bytes(b"m", &[0; 96], &[0, 0]),
        Err(Error::NoSigners)
    );
    assert_eq!(
        set.verify_aggregate_bytes(b"m", &[0; 96], &[1, 0]),
        Err(Error::NotCompressed { what: "signature" })
    );

    assert_eq!(SignerBitmap::from_indices(10, &[]), Err(Error::NoSigners));
    assert_eq!(
        SignerBitmap::from_indices(10, &[3, 10]),
        Err(Error::BitmapExtraBits {
            index: 10,
            set_size: 10
        })
    );
    assert_eq!(SignerBitmap::from_indices(8, &[7, 7]), Ok(vec![0x80]));
    // A set of 8: one full byte, no spare bits.
    assert_eq!(SignerBitmap::new(&[0xff], 8).map(|b| b.count()), Ok(8));
    let b = SignerBitmap::new(&[0b0000_0101, 0b10], 10).unwrap();
    assert_eq!(
        (b.count(), b.set_size(), b.as_bytes()),
        (3, 10, &[0b0000_0101, 0b10][..])
    );
    assert!(b.is_signer(0) && !b.is_signer(1) && b.is_signer(2) && b.is_signer(9) && !b.is_signer(10));
    assert_eq!(b.absent().collect::<Vec<_>>(), [1, 3, 4, 5, 6, 7, 8]);
}

// ---------------------------------------------------------------------------------------------
// Bad input for every decoder
// ---------------------------------------------------------------------------------------------

/// Truncations at every length and one extra byte: `InvalidLength`.
fn check_lengths<T: core::fmt::Debug>(good: &[u8], what: &str, decode: impl Fn(&[u8]) -> Result<T, Error>) {
    for cut in 0..good.len() {
        match decode(&good[..cut]) {
            Err(Error::InvalidLength {
                what: w,
                expected,
                got,
            }) => {
                assert_eq!((w, expected, got), (what, good.len(), cut))
            }
            other => panic!("{what} cut at {cut}: {other:?}"),
        }
    }
    let mut long = good.to_vec();
    long.push(0);
    assert!(
        matches!(decode(&long), Err(Error::InvalidLength { .. })),
        "{what} + 1 byte"
    );
}

/// Flips of the three header bits, and random bit flips anywhere: a typed error or another
/// valid point, never a panic.
fn check_flips<T: core::fmt::Debug>(
    good: &[u8],
    what: &'static str,
    decode: impl Fn(&[u8]) -> Result<T, Error>,
) {
    let flip = |byte: usize, bit: u8| {
        let mut b = good.to_vec();
        b[byte] ^= 1 << bit;
        decode(&b)
    };
    assert_eq!(flip(0, 7).err(), Some(Error::NotCompressed { what }));
    assert_eq!(flip(0, 6).err(), Some(Error::InvalidInfinityEncoding { what }));
    // The sort flag picks the other y: the negated point, valid as an encoding.
    assert!(flip(0, 5).is_ok(), "{what}: sort flag flip");
    // The identity with its sort bit set, or with any coordinate bit set.
    let mut inf = vec![0u8; good.len()];
    inf[0] = 0xc0;
    assert_eq!(decode(&inf).err(), Some(Error::IdentityElement { what }));
    inf[0] = 0xe0;
    assert_eq!(decode(&inf).err(), Some(Error::InvalidInfinityEncoding { what }));
    inf[0] = 0xc0;
    inf[good.len() - 1] = 1;
    assert_eq!(decode(&inf).err(), Some(Error::InvalidInfinityEncoding { what }));
    // Every bit set but the infinity flag: x ≥ p.
    assert_eq!(
        decode(&vec![0xbf; good.len()]).err(),
        Some(Error::NonCanonical { what })
    );

    let mut rng = Rng(good.len() as u64 * 0x9e37_79b9);
    let mut errors = 0;
    for _ in 0..200 {
        let mut b = good.to_vec();
        for _ in 0..1 + rng.below(3) {
            let i = rng.below(b.len());
            b[i] ^= 1 << rng.below(8);
        }
        match decode(&b) {
            Ok(_) => {}
            Err(e) => {
                assert!(e.is_decoding(), "{what}: {e:?}");
                errors += 1;
            }
        }
    }
    assert!(errors > 100, "{what}: only {errors} of 200 flips rejected");
}

#[test]
fn decoders_reject_bad_input() {
    let sk = key(5);
    let pk = sk.verifying_key().to_bytes();
    let sig = sk.sign(b"m").to_bytes();
    let pop = sk.prove_possession().to_bytes();

    check_lengths(&pk, "public key", |b| VerifyingKey::try_from(b));
    check_lengths(&sig, "signature", |b| Signature::try_from(b));
    check_lengths(&pop, "proof of possession", |b| ProofOfPossession::try_from(b));
    check_lengths(sk.to_bytes().as_slice(), "secret key", |b| {
        SigningKey::try_from(b)
    });
    check_lengths(&pk, "public key", |b| bls::verify(b, b"m", &sig));
    check_lengths(&sig, "signature", |b| bls::verify(&pk, b"m", b));
    check_lengths(&pop, "proof of possession", |b| bls::pop_verify(&pk, b));
    check_lengths(&sig, "signature", |b| bls::aggregate(&[b]));
    check_lengths(&sig, "signature", |b| bls::fast_aggregate_verify(&[&pk], b"m", b));

    check_flips(&pk, "public key", |b| VerifyingKey::try_from(b));
    check_flips(&sig, "signature", |b| Signature::try_from(b));
    check_flips(&pop, "proof of possession", |b| ProofOfPossession::try_from(b));

    // A sort-flag flip negates the point: it decodes, and verification then fails cleanly.
    let mut neg = sig;
    neg[0] ^= 0x20;
    assert_eq!(bls::verify(&pk, b"m", &neg), Err(Error::InvalidSignature));
    let mut neg_pk = pk;
    neg_pk[0] ^= 0x20;
    assert_eq!(bls::verify(&neg_pk, b"m", &sig), Err(Error::InvalidSignature));
    assert_eq!(
        bls::pop_verify(&neg_pk, &pop),
        Err(Error::InvalidProofOfPossession { index: 0 })
    );

    // Prepared-set bytes: truncations of either list.
    let (_, members) = committee(3);
    let keys: Vec<u8> = members.iter().flat_map(|(pk, _)| pk.to_bytes()).collect();
    let pops: Vec<u8> = members.iter().flat_map(|(_, p)| p.to_bytes()).collect();
    for cut in 0..keys.len() {
        let e = PreparedSet::from_bytes(&keys[..cut], &pops).unwrap_err();
        assert!(
            matches!(e, Error::InvalidLength { .. } | Error::Empty { .. }),
            "{cut}: {e:?}"
        );
    }
    for cut in 0..pops.len() {
        let e = PreparedSet::from_bytes(&keys, &pops[..cut]).unwrap_err();
        assert!(
            matches!(
                e,
                Error::InvalidLength {
                    what: "proof list",
                    ..
                }
            ),
            "{cut}: {e:?}"
        );
    }
    let mut long = pops.clone();
    long.push(0);
    assert!(matches!(
        PreparedSet::from_bytes(&keys, &long),
        Err(Error::InvalidLength { .. })
    ));
}

#[test]
fn error_codes_are_stable_and_unique() {
    let all = [
        Error::InvalidLength {
            what: "",
            expected: 0,
            got: 0,
        },
        Error::TooLong {
            what: "",
            max: 0,
            got: 0,
        },
        Error::NotCompressed { what: "" },
        Error::InvalidInfinityEncoding { what: "" },
        Error::IdentityElement { what: "" },
        Error::NonCanonical { what: "" },
        Error::NotOnCurve { what: "" },
        Error::NotInSubgroup { what: "" },
        Error::InvalidSecretKey,
        Error::IkmTooShort { got: 0 },
        Error::InvalidSignature,
        Error::InvalidProofOfPossession { index: 0 },
        Error::Empty { what: "" },
        Error::CountMismatch {
            what: "",
            left: 0,
            right: 0,
        },
        Error::TooManyKeys { got: 0, max: 0 },
        Error::DuplicateKey { first: 0, second: 1 },
        Error::InvalidMember {
            index: 0,
            error: Box::new(Error::InvalidSignature),
        },
        Error::BitmapExtraBits {
            index: 0,
            set_size: 0,
        },
        Error::NoSigners,
    ];
    let mut codes: Vec<&str> = all.iter().map(Error::code).collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), all.len());
    let top: quasar_pq::Error = Error::NoSigners.into();
    assert_eq!(
        (top.code(), top.module(), top.culprits()),
        ("NO_SIGNERS", "bls", &[][..])
    );
    assert_eq!(
        quasar_pq::Error::from(Error::InvalidSignature).code(),
        "INVALID_SIGNATURE"
    );
}

#[test]
fn hazmat_limits() {
    assert!(matches!(
        hazmat::expand_message_xmd(b"", b"d", 8161),
        Err(Error::TooLong {
            what: "expanded message",
            max: 8160,
            got: 8161
        })
    ));
    assert!(matches!(
        hazmat::hash_to_g2(b"", &[b'd'; 256]),
        Err(Error::TooLong {
            what: "domain separation tag",
            max: 255,
            got: 256
        })
    ));
    assert_eq!(hazmat::expand_message_xmd(b"", b"d", 0), Ok(vec![]));
}

#[test]
fn random_input_never_panics() {
    let (sks, members) = committee(12);
    let set = PreparedSet::new(&members).unwrap();
    let sig = sks[0].sign(b"m").to_bytes();
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    for _ in 0..300 {
        let len = rng.below(200);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next().to_le_bytes()[0]).collect();
        for r in [
            VerifyingKey::try_from(bytes.as_slice()).map(|_| ()),
            Signature::try_from(bytes.as_slice()).map(|_| ()),
            ProofOfPossession::try_from(bytes.as_slice()).map(|_| ()),
            SigningKey::try_from(bytes.as_slice()).map(|_| ()),
            bls::verify(&bytes, b"m", &sig),
            bls::verify(&members[0].0.to_bytes(), b"m", &bytes),
            bls::pop_verify(&bytes, &bytes),
            bls::aggregate(&[&bytes, &sig]).map(|_| ()),
            set.verify_aggregate_bytes(b"m", &sig, &bytes),
            set.verify_aggregate_bytes(b"m", &bytes, &[1, 0]),
            SignerBitmap::new(&bytes, rng.below(40)).map(|_| ()),
            PreparedSet::from_bytes(&bytes, &bytes).map(|_| ()),
        ] {
            // Any verdict is fine; the point is a typed result, never a panic.
            let _ = r.map_err(|e| e.code());
        }
    }
    // Random 48- and 96-byte strings with the compression flag set and infinity clear reach
    // the curve and subgroup checks.
    let mut reached = [0usize; 3];
    for _ in 0..100 {
        let mut pk = [0u8; 48];
        pk.iter_mut().for_each(|b| *b = rng.next().to_le_bytes()[0]);
        pk[0] = 0x80 | ((pk[0] & 0x3f) % 0x1a);
        let mut s = [0u8; 96];
        s.iter_mut().for_each(|b| *b = rng.next().to_le_bytes()[0]);
        s[0] = 0x80 | ((s[0] & 0x3f) % 0x1a);
        s[48] %= 0x1a;
        for e in [
            VerifyingKey::from_bytes(&pk).err(),
            Signature::from_bytes(&s).err(),
        ]
        .into_iter()
        .flatten()
        {
            match e {
                Error::NotOnCurve { .. } => reached[0] += 1,
                Error::NotInSubgroup { .. } => reached[1] += 1,
                _ => reached[2] += 1,
            }
        }
    }
    assert!(
        reached[0] > 50 && reached[1] > 50 && reached[2] == 0,
        "{reached:?}"
    );
}
