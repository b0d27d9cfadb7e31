//! The test chain (`cert::devnet::chain`, the full WASM build's `testChain`): it verifies
//! with the light client under its policy across the epoch change, any flipped byte of a
//! certificate or of the next set is refused, the same specification gives the same bytes as
//! the devnet driven by hand, and requests over the bounds are refused with typed errors.
//!
//! Run: `cargo test --features sim --test test_chain`.

#![allow(clippy::unwrap_used)]

use quasar_pq::cert::devnet::{
    block_hash, chain, two_thirds_plus_one, Chain, ChainSpec, Devnet, DevnetConfig, Signers,
    MAX_CHAIN_BLOCKS, MAX_CHAIN_EPOCHS, MAX_CHAIN_VALIDATORS,
};
use quasar_pq::cert::{LightClient, Policy, ValidatorSet};

fn spec(policy: Policy) -> ChainSpec {
    ChainSpec {
        seed: [0x51; 32],
        validators: 4,
        policy,
        epochs: 2,
        blocks: 2,
        ..ChainSpec::default()
    }
}

/// Follows `made` from its first set; returns the client or the first refusal's code.
fn follow(made: &Chain, policy: Policy) -> Result<LightClient, String> {
    let mut client = LightClient::new(made.sets[0].clone(), policy).unwrap();
    for (i, b) in made.blocks.iter().enumerate() {
        client
            .update(&b.certificate, b.next_set.as_ref().map(ValidatorSet::as_bytes))
            .map_err(|r| format!("block {i}: {}", r.error.code()))?;
    }
    Ok(client)
}

#[test]
fn every_policy_gives_a_chain_its_light_client_follows_across_the_reshare() {
    for policy in Policy::ALL {
        let made = chain(&spec(policy)).unwrap();
        assert_eq!(made.sets.len(), 2, "{}", policy.name());
        assert_eq!(made.blocks.len(), 4);
        let ends: Vec<bool> = made.blocks.iter().map(|b| b.next_set.is_some()).collect();
        assert_eq!(
            ends,
            [false, true, false, false],
            "only epoch 0's last block ends an epoch"
        );
        assert_eq!(made.blocks[1].next_set.as_ref(), Some(&made.sets[1]));
        let client = follow(&made, policy).unwrap_or_else(|e| panic!("{}: {e}", policy.name()));
        assert_eq!(client.epoch(), 1);
        assert_eq!(client.latest().unwrap().height, 4);
        // The reshare keeps the Pulsar key and its era; one validator left, one joined.
        let (s0, s1) = (made.sets[0].view(), made.sets[1].view());
        assert_eq!(s0.pulsar_group_key(), s1.pulsar_group_key());
        assert_eq!(
            s0.pulsar_group_key().is_some(),
            policy.requires(quasar_pq::cert::LegKind::Pulsar)
        );
        assert_eq!((s1.key_era(), s1.len()), (0, 4));
        assert_ne!(made.sets[0], made.sets[1]);
    }
}

#[test]
fn a_flipped_byte_is_refused() {
    let made = chain(&spec(Policy::PQ_FAST)).unwrap();
    // Every byte of the first certificate, and a spread of the epoch-ending one's and the next
    // set's: each flip is refused, and the client stays where it was.
    let first = &made.blocks[0].certificate;
    let client = LightClient::new(made.sets[0].clone(), Policy::PQ_FAST).unwrap();
    for at in 0..first.len() {
        let mut bad = first.clone();
        bad[at] ^= 0x01;
        let mut c = client.clone();
        assert!(
            c.update(&bad, None).is_err(),
            "certificate byte {at} flipped was accepted"
        );
        assert!(c.latest().is_none());
    }
    let mut c = client.clone();
    c.update(first, None).unwrap();
    let end = &made.blocks[1];
    let next = end.next_set.as_ref().unwrap().as_bytes();
    for at in (0..end.certificate.len()).step_by(7) {
        let mut bad = end.certificate.clone();
        bad[at] ^= 0x80;
        assert!(
            c.clone().update(&bad, Some(next)).is_err(),
            "ending certificate byte {at}"
        );
    }
    for at in (0..next.len()).step_by(5) {
        let mut bad = next.to_vec();
        bad[at] ^= 0x01;
        let mut d = c.clone();
        assert!(
            d.update(&end.certificate, Some(&bad)).is_err(),
            "next-set byte {at}"
        );
        assert_eq!(d.epoch(), 0);
    }
    c.update(&end.certificate, Some(next)).unwrap();
    assert_eq!(c.epoch(), 1);
}

#[test]
fn the_same_spec_gives_the_bytes_of_the_devnet_driven_by_hand() {
    let s = spec(Policy::PQ_HEAVY);
    let made = chain(&s).unwrap();
    assert_eq!(chain(&s).unwrap(), made, "deterministic");
    let config = DevnetConfig {
        chain_id: s.chain_id,
        seed: s.seed,
        bls: true,
        mldsa: None,
        magnetar: Some(s.magnetar),
        pulsar: Some(s.mldsa),
    };
    let mut net = Devnet::new(config, &[1; 4]).unwrap();
    let signers = Signers::first(two_thirds_plus_one(4), 4);
    assert_eq!(net.set(), &made.sets[0]);
    let c1 = net.certificate(1, 0, block_hash(&s.seed, 1), &signers).unwrap();
    let (c2, next) = net
        .end_epoch(2, 0, block_hash(&s.seed, 2), &signers, &[0], &[1], false)
        .unwrap();
    let c3 = net.certificate(3, 0, block_hash(&s.seed, 3), &signers).unwrap();
    let c4 = net.certificate(4, 0, block_hash(&s.seed, 4), &signers).unwrap();
    assert_eq!(next, made.sets[1]);
    let certs: Vec<&Vec<u8>> = made.blocks.iter().map(|b| &b.certificate).collect();
    assert_eq!(certs, [&c1, &c2, &c3, &c4]);

    let other = chain(&ChainSpec {
        seed: [0x52; 32],
        ..s.clone()
    })
    .unwrap();
    assert_ne!(other.sets[0], made.sets[0], "another seed, other keys");
    let chain7 = chain(&ChainSpec { chain_id: 7, ..s }).unwrap();
    assert_eq!(chain7.sets[0].view().chain_id(), 7);
}

#[test]
fn requests_over_the_bounds_are_refused_with_typed_errors() {
    let base = ChainSpec {
        policy: Policy::PQ_OFF,
        ..ChainSpec::default()
    };
    let code = |s: ChainSpec| chain(&s).map(|_| ()).unwrap_err().code();
    assert_eq!(
        code(ChainSpec {
            validators: 0,
            ..base.clone()
        }),
        "INVALID_VALUE"
    );
    assert_eq!(
        code(ChainSpec {
            epochs: 0,
            ..base.clone()
        }),
        "INVALID_VALUE"
    );
    assert_eq!(
        code(ChainSpec {
            blocks: 0,
            ..base.clone()
        }),
        "INVALID_VALUE"
    );
    assert_eq!(
        code(ChainSpec {
            validators: MAX_CHAIN_VALIDATORS + 1,
            ..base.clone()
        }),
        "COUNT_TOO_LARGE"
    );
    assert_eq!(
        code(ChainSpec {
            epochs: MAX_CHAIN_EPOCHS + 1,
            ..base.clone()
        }),
        "COUNT_TOO_LARGE"
    );
    assert_eq!(
        code(ChainSpec {
            blocks: MAX_CHAIN_BLOCKS + 1,
            ..base.clone()
        }),
        "COUNT_TOO_LARGE"
    );
    assert_eq!(
        code(ChainSpec {
            epochs: 2,
            blocks: MAX_CHAIN_BLOCKS / 2 + 1,
            ..base.clone()
        }),
        "COUNT_TOO_LARGE"
    );
    assert_eq!(
        code(ChainSpec {
            blocks: usize::MAX,
            epochs: usize::MAX,
            ..base.clone()
        }),
        "COUNT_TOO_LARGE"
    );
    // At the bounds it is made.
    let one = chain(&ChainSpec {
        validators: 1,
        epochs: 1,
        blocks: 1,
        ..base
    })
    .unwrap();
    assert_eq!((one.sets.len(), one.blocks.len()), (1, 1));
}

/// The spec of `tests/vectors/test-chain.json` (the package's sample chain: seed 0, 1, …, 31,
/// four validators, two epochs of three blocks, `pq-fast`).
fn vector_spec() -> ChainSpec {
    let mut seed = [0u8; 32];
    for (i, b) in seed.iter_mut().enumerate() {
        *b = u8::try_from(i).unwrap();
    }
    ChainSpec {
        seed,
        validators: 4,
        policy: Policy::PQ_FAST,
        epochs: 2,
        blocks: 3,
        ..ChainSpec::default()
    }
}

/// `tests/vectors/test-chain.json` records the SHA-256 of every set and certificate of
/// [`vector_spec`]'s chain as the native build makes it; js/test/test-chain.test.mjs checks
/// the WASM `testChain` against the same file, so both builds give the same bytes.
#[test]
fn the_recorded_chain_is_what_the_native_build_makes() {
    use sha2::{Digest, Sha256};
    let made = chain(&vector_spec()).unwrap();
    let digests =
        |items: Vec<&[u8]>| -> Vec<String> { items.iter().map(|b| hex::encode(Sha256::digest(b))).collect() };
    let sets = digests(made.sets.iter().map(ValidatorSet::as_bytes).collect());
    let certificates = digests(made.blocks.iter().map(|b| &b.certificate[..]).collect());
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/test-chain.json");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let file: serde_json::Value = serde_json::from_str(&text).unwrap_or(serde_json::Value::Null);
    let actual = serde_json::json!({ "sets": sets, "certificates": certificates });
    assert_eq!(
        file["sha256"], actual,
        "tests/vectors/test-chain.json differs from the chain made now; its \"sha256\" is now:\n{actual}"
    );
}
