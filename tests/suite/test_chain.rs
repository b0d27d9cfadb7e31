//! The test chain (`cert::devnet::chain`, the full WASM build's `testChain`): it verifies
//! with the light client under its policy across the epoch change, any flipped byte of a
//! certificate or of the next set is refused, the same specification gives the same bytes as
//! the devnet driven by hand, and requests over the bounds are refused with typed errors. A
//! devnet whose Pulsar leg a committee signs (no machine holds its key): the leg verifies under
//! our light client and the peer ML-DSA verifiers, a committee change starts a new key era the
//! client follows, an unchanged committee keeps its key, too few committee signers are refused.
//!
//! Run: `cargo test --features sim,hazmat --test suite test_chain::`.

#![allow(clippy::unwrap_used)]

use crate::common;

use quasar_pq::cert::devnet::{
    block_hash, chain, two_thirds_plus_one, Chain, ChainSpec, Devnet, DevnetConfig, PulsarSigning, Signers,
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
    // The PQ-strict policies: a Corona group signs too, dealt anew at the epoch change.
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
        // A Corona group (the set's first members) is dealt anew when they change: era 1.
        let corona = policy.requires(quasar_pq::cert::LegKind::Corona);
        assert_eq!(s0.corona_group_key().is_some(), corona);
        assert_eq!(s0.corona_group_key() != s1.corona_group_key(), corona);
        assert_eq!((s1.key_era(), s1.len()), (u64::from(corona), 4));
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
        pulsar_signing: PulsarSigning::Custody,
        corona: false,
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

/// The Pulsar leg of `cert` and its signed message, checked by the peer verifiers under the
/// set's `PULG` key.
fn pulsar_leg_verifies_everywhere(set: &ValidatorSet, cert: &[u8], message: &[u8]) {
    use quasar_pq::cert::{CertificateView, LegKind, LegView, PULSAR_CONTEXT};
    use quasar_pq::pulsar::frame::GroupKeyFrame;
    let view = CertificateView::parse(cert).unwrap();
    let Some(LegView::Pulsar { frame }) = view.leg(LegKind::Pulsar) else {
        panic!("no Pulsar leg");
    };
    let set_view = set.view();
    let key = GroupKeyFrame::decode(set_view.pulsar_group_key().unwrap()).unwrap();
    for peer in common::peers::peers(key.mode) {
        assert!(
            (peer.verify)(key.public_key, message, PULSAR_CONTEXT, frame.signature),
            "{} rejects the committee's Pulsar leg",
            peer.name
        );
    }
}

#[test]
fn a_committee_signs_the_pulsar_leg_and_a_new_committee_is_a_new_key_era() {
    let config = DevnetConfig {
        seed: [0x6c; 32],
        pulsar: Some(quasar_pq::mldsa::Mode::MlDsa44),
        pulsar_signing: PulsarSigning::Committee,
        ..DevnetConfig::default()
    };
    // Eight validators: the committee is the first six (set order), threshold 5.
    let mut net = Devnet::new(config, &[1; 8]).unwrap();
    assert_eq!(net.pulsar_members(), (0..6).collect::<Vec<_>>());
    assert_eq!(net.pulsar_threshold(), Some(5));
    let mut client = LightClient::new(net.set().clone(), Policy::PQ_FAST).unwrap();
    let all = Signers::all(8);

    let b = net.builder(1, 0, [1; 32]);
    let message = b.message();
    let cert = net.sign(b, &all).unwrap();
    pulsar_leg_verifies_everywhere(net.set(), &cert, &message);
    client.update(&cert, None).unwrap();

    // Validator 7 (outside the committee) leaves: the same committee keeps its key and era.
    let key0 = net.set().view().pulsar_group_key().unwrap().to_vec();
    let (cert, next) = net.end_epoch(2, 0, [2; 32], &all, &[7], &[], false).unwrap();
    client.update(&cert, Some(next.as_bytes())).unwrap();
    assert_eq!(next.view().pulsar_group_key().unwrap(), &key0[..]);
    assert_eq!(next.view().key_era(), 0);
    let all = Signers::all(7);

    // Validator 0 (a committee member) leaves: a new committee, a new key, the next key era.
    let (cert, next) = net.end_epoch(3, 0, [3; 32], &all, &[0], &[1], false).unwrap();
    client.update(&cert, Some(next.as_bytes())).unwrap();
    assert_ne!(next.view().pulsar_group_key().unwrap(), &key0[..]);
    assert_eq!(next.view().key_era(), 1);
    assert_eq!(client.epoch(), 2);

    // Under the new key, signed by the first five of the new committee.
    let b = net.builder(4, 0, [4; 32]);
    let message = b.message();
    let cert = net.sign(b, &all).unwrap();
    pulsar_leg_verifies_everywhere(net.set(), &cert, &message);
    client.update(&cert, None).unwrap();
    assert_eq!(client.latest().unwrap().height, 4);

    // Four committee members (positions 0–5) among the Pulsar signers, the threshold five:
    // refused.
    let few = Signers {
        pulsar: vec![0, 1, 2, 3, 6],
        ..all.clone()
    };
    let err = net.certificate(5, 0, [5; 32], &few).unwrap_err();
    assert_eq!(err.code(), "WRONG_SIGNER_COUNT");
}

#[test]
fn a_committee_chain_is_followed_across_its_key_eras() {
    let s = ChainSpec {
        pulsar_signing: PulsarSigning::Committee,
        epochs: 3,
        ..spec(Policy::PQ_FAST)
    };
    let made = chain(&s).unwrap();
    assert_eq!(chain(&s).unwrap(), made, "deterministic");
    let client = follow(&made, Policy::PQ_FAST).unwrap();
    assert_eq!(client.epoch(), 2);
    // Every epoch change replaced a committee member: a new key in a new era each time.
    let eras: Vec<u64> = made.sets.iter().map(|s| s.view().key_era()).collect();
    assert_eq!(eras, [0, 1, 2]);
    let custody = chain(&spec(Policy::PQ_FAST)).unwrap();
    assert_ne!(
        custody.sets[0].view().pulsar_group_key(),
        made.sets[0].view().pulsar_group_key()
    );
}
