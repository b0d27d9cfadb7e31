//! Known answers from the Go reference (tests/vectors/threshold-mldsa, spec §6.3): dealer
//! keys, the sampler, and whole deterministic signing runs, bit for bit.

use alloc::vec::Vec;

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::combine::combine;
use super::dealer::{deal, Dealt, PartyShare};
use super::hyperball;
use super::params::Shape;
use super::rounds::{aggregate, commit, pack_response, respond, slot_response_len, Matrix, Samples};
use super::subsets::subsets;
use crate::mldsa::params::{MlDsa44, MlDsa65, MlDsa87, Params};
use crate::mldsa::poly::PolyVec;
use crate::mldsa::Mode;

fn vectors() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/threshold-mldsa/go-reference-vectors.json"
    ));
    serde_json::from_str(&text.expect("vectors present")).expect("vectors parse")
}

fn mode(level: u64) -> Mode {
    match level {
        44 => Mode::MlDsa44,
        65 => Mode::MlDsa65,
        _ => Mode::MlDsa87,
    }
}

fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

fn small(v: &Value, key: &str) -> u8 {
    u8::try_from(v[key].as_u64().expect("number")).expect("small")
}

/// Bytes 00 01 … 1f, the vectors' dealer seed.
const SEED: [u8; 32] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
    29, 30, 31,
];

fn deal_any(level: Mode, t: u8, n: u8) -> Dealt {
    match level {
        Mode::MlDsa44 => deal::<MlDsa44>(&SEED, t, n),
        Mode::MlDsa65 => deal::<MlDsa65>(&SEED, t, n),
        Mode::MlDsa87 => deal::<MlDsa87>(&SEED, t, n),
    }
}

#[test]
fn dealer_keys_match_the_reference() {
    let v = vectors();
    let values = v["keygen_pk_sha256"]["values"].as_array().expect("list");
    assert_eq!(values.len(), 45);
    for e in values {
        let dealt = deal_any(
            mode(e["level"].as_u64().expect("level")),
            small(e, "T"),
            small(e, "N"),
        );
        assert_eq!(
            sha256_hex(&dealt.public_key),
            e["pk_sha256"].as_str().expect("hash"),
            "{e}"
        );
    }
}

#[test]
fn every_party_holds_exactly_its_subsets() {
    let dealt = deal::<MlDsa44>(&SEED, 3, 5);
    for share in &dealt.shares {
        let expected: Vec<u8> = subsets(3, 5)
            .into_iter()
            .filter(|m| m >> share.index & 1 == 1)
            .collect();
        assert_eq!(share.secrets.iter().map(|s| s.mask).collect::<Vec<_>>(), expected);
    }
}

#[test]
fn the_sampler_matches_the_reference() {
    let v = vectors();
    let seed: [u8; 64] = core::array::from_fn(|i| u8::try_from(i).expect("small"));
    for h in v["hyperball"].as_array().expect("list") {
        let level = mode(h["level"].as_u64().expect("level"));
        let (k, l) = match level {
            Mode::MlDsa44 => (MlDsa44::K, MlDsa44::L),
            Mode::MlDsa65 => (MlDsa65::K, MlDsa65::L),
            Mode::MlDsa87 => (MlDsa87::K, MlDsa87::L),
        };
        let radius = h["radius_rprime"].as_f64().expect("radius");
        let nu = h["nu"].as_f64().expect("nu");
        let u = hyperball::sample(&seed, 0, 256 * (k + l), 256 * l, radius, nu);
        let bytes: Vec<u8> = u
            .iter()
            .flat_map(|&x| hyperball::round(x).to_le_bytes())
            .collect();
        assert_eq!(
            sha256_hex(&bytes),
            h["rounded_coords_int32le_sha256"].as_str().expect("hash"),
            "{}",
            h["level"]
        );
        let first: f64 = h["first4_f64"][0].as_str().expect("f64").parse().expect("f64");
        assert!((u[0] - first).abs() <= first.abs() * 1e-15, "{} vs {first}", u[0]);
    }
}

/// One whole deterministic signing run per vector, as the reference's harness runs it:
/// party j's round-1 seed is 64 bytes of 0x40 + j and run a samples slot κ with nonce a·K + κ.
fn end_to_end<P: Params>(e: &Value) {
    let (t, n) = (small(e, "T"), small(e, "N"));
    let shape = Shape::new(P::MODE, t, n).expect("shape").with_reference_nu();
    assert_eq!(u64::from(shape.reps), e["K"].as_u64().expect("K"));
    let active = small(e, "act_bitmask");
    let dealt = deal::<P>(&SEED, t, n);
    assert_eq!(hex::encode(&dealt.public_key), e["pk_hex"].as_str().expect("pk"));
    let msg = hex::decode(e["msg_hex"].as_str().expect("msg")).expect("hex");
    let mu = crate::mldsa::hazmat::compute_mu(P::MODE, &dealt.public_key, &msg, &[]).expect("mu");
    let rho: [u8; 32] = dealt.public_key[..32].try_into().expect("rho");
    let a = Matrix::expand::<P>(&rho);
    let signers: Vec<&PartyShare> = dealt
        .shares
        .iter()
        .filter(|s| active >> s.index & 1 == 1)
        .collect();
    let attempt = e["attempt"].as_u64().expect("attempt");
    for run in 0..=attempt {
        let first_nonce = u16::try_from(run * u64::from(shape.reps)).expect("nonce");
        let seeds: Vec<[u8; 64]> = signers.iter().map(|s| [0x40 + s.index; 64]).collect();
        // Odd runs keep the samples from round 1, even ones draw them again: both must give
        // the reference's bytes.
        let keep = run % 2 == 1;
        let mut kept: Vec<Samples> = seeds.iter().map(|_| Vec::new()).collect();
        let reveals: Vec<Vec<u8>> = seeds
            .iter()
            .zip(kept.iter_mut())
            .map(|(seed, k)| commit::<P>(&a, &shape, seed, first_nonce, keep.then_some(k)))
            .collect();
        let sums = aggregate::<P>(shape.reps, &reveals.iter().map(Vec::as_slice).collect::<Vec<_>>())
            .expect("well-formed");
        let responses: Vec<Vec<Option<PolyVec>>> = signers
            .iter()
            .zip(&seeds)
            .zip(&kept)
            .map(|((share, seed), k)| {
                respond::<P>(
                    &shape,
                    share,
                    active,
                    seed,
                    first_nonce,
                    &mu,
                    &sums,
                    keep.then_some(k),
                )
                .into_iter()
                .map(|z| z.map(|z| *z))
                .collect()
            })
            .collect();
        let combined = combine::<P>(&dealt.public_key, &mu, &sums, &responses);
        if run < attempt {
            assert!(combined.is_none(), "run {run} succeeded before the reference's");
            continue;
        }
        let expected_w: Vec<String> = e["round2_packed_w_sha256_per_active_party"]
            .as_array()
            .expect("list")
            .iter()
            .map(|h| h.as_str().expect("hash").into())
            .collect();
        assert_eq!(
            reveals.iter().map(|r| sha256_hex(r)).collect::<Vec<_>>(),
            expected_w
        );
        // The reference encodes a rejected slot as z = 0.
        let expected_z: Vec<String> = e["round3_packed_z_sha256_per_active_party"]
            .as_array()
            .expect("list")
            .iter()
            .map(|h| h.as_str().expect("hash").into())
            .collect();
        let packed: Vec<String> = responses
            .iter()
            .map(|party| {
                let mut out = alloc::vec![0u8; party.len() * slot_response_len::<P>()];
                for (z, chunk) in party.iter().zip(out.chunks_exact_mut(slot_response_len::<P>())) {
                    pack_response::<P>(&z.unwrap_or_else(crate::mldsa::poly::zero_vec), chunk);
                }
                sha256_hex(&out)
            })
            .collect();
        assert_eq!(packed, expected_z);
        let combined = combined.expect("the reference's run succeeds");
        assert_eq!(combined.slot as u64, e["slot"].as_u64().expect("slot"));
        assert_eq!(
            hex::encode(&combined.signature),
            e["sig_hex"].as_str().expect("sig")
        );
        crate::mldsa::verify(P::MODE, &dealt.public_key, &msg, &[], &combined.signature).expect("verifies");
    }
}

#[test]
fn signing_runs_match_the_reference() {
    let v = vectors();
    for e in v["end_to_end"].as_array().expect("list") {
        // The largest set (ML-DSA-65, 4 of 6: K = 804 slots, five runs) is in the slow suite.
        if e["K"].as_u64() == Some(804) && std::env::var_os("QUASAR_SLOW").is_none() {
            continue;
        }
        match mode(e["level"].as_u64().expect("level")) {
            Mode::MlDsa44 => end_to_end::<MlDsa44>(e),
            Mode::MlDsa65 => end_to_end::<MlDsa65>(e),
            Mode::MlDsa87 => end_to_end::<MlDsa87>(e),
        }
    }
}

/// The reveal's 23-bit packing, eight at a time, is FIPS 204's SimpleBitPack / Unpack bit for
/// bit, both ways, on values spread over [0, 2^23) and at its edges.
#[test]
fn the_reveal_packing_is_simple_bit_pack() {
    use super::rounds::{pack_w, unpack_w, W_BITS};
    use crate::mldsa::encode::{pack_bits, unpack_bits};
    use crate::mldsa::poly::N;
    let mut x: u32 = 0x9e37_79b9;
    for round in 0..64 {
        let mut vals = [0i32; N];
        for (i, v) in vals.iter_mut().enumerate() {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            *v = match (round, i % 3) {
                (0, _) => (1 << W_BITS) - 1,
                (1, 0) => 0,
                _ => i32::try_from(x & ((1 << W_BITS) - 1)).unwrap_or(0),
            };
        }
        let (mut fast, mut plain) = ([0u8; 32 * W_BITS], [0u8; 32 * W_BITS]);
        pack_w(&vals, &mut fast);
        pack_bits(&vals, W_BITS, &mut plain);
        assert_eq!(fast, plain);
        assert_eq!(unpack_w(&plain), vals);
        assert_eq!(unpack_w(&plain), unpack_bits(&plain, W_BITS));
    }
}
