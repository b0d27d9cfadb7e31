//! Host independence of the Pulsar lifecycle parties: setup (4 members, t = 2) → sign by
//! {2, 4} → reshare by {1, 2, 3} to {2, 3, 4, 5} with t = 3 → activation, run by the
//! simulator with fixed seeds. Its transcripts (SHA-256 over every post in the simulator's
//! order) and outputs must equal tests/fixtures/lifecycle_host.json, which
//! js/test/protocols.test.mjs also checks against the same parties run by the package's JS
//! `run()`: one lifecycle, two hosts, the same bytes. `QUASAR_WRITE_FIXTURE=1` rewrites the
//! file.
//!
//! Run: `cargo test --features sim,hazmat --test suite lifecycle_host::`.

use std::collections::BTreeMap;

use quasar_pq::mldsa::Mode;
use quasar_pq::party::keyring::Keyring;
use quasar_pq::party::sim::{map_output, Network, Sent};
use quasar_pq::pulsar::custody::lifecycle::{
    Combiner, CombinerOutcome, Member, MemberOutcome, ReshareParams, SetupParams, SignParams,
};
use quasar_pq::pulsar::custody::KeyShare;
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use sha2::{Digest, Sha256};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/lifecycle_host.json");

/// 32 bytes from a label, zero-padded (js/support/run.mjs `label32`).
fn label32(label: &str) -> [u8; 32] {
    let mut out = [0u8; 32];
    let b = label.as_bytes();
    out[..b.len().min(32)].copy_from_slice(&b[..b.len().min(32)]);
    out
}

/// Party `id`'s generator in the phase `label` (the JS test's `seed: label32(`${label}/${id}`)`).
fn rng(label: &str, id: PartyId) -> ChaCha20Rng {
    ChaCha20Rng::from_seed(label32(&format!("{label}/{}", id.get())))
}

fn pid(v: u16) -> PartyId {
    PartyId::new(v).expect("non-zero id")
}

fn ids(v: &[u16]) -> Vec<PartyId> {
    v.iter().map(|&p| pid(p)).collect()
}

/// SHA-256 over every post: `u32 round ‖ u16 from ‖ (0 | 1 ‖ u32 len ‖ broadcast) ‖
/// u32 count ‖ (u16 to ‖ u32 len ‖ bytes)*`, big-endian.
fn transcript(sent: &[Sent]) -> String {
    let mut h = Sha256::new();
    for s in sent {
        h.update(s.round.to_be_bytes());
        h.update(s.from.get().to_be_bytes());
        match &s.outgoing.broadcast {
            Some(b) => {
                h.update([1]);
                h.update(u32::try_from(b.len()).expect("length fits u32").to_be_bytes());
                h.update(b);
            }
            None => h.update([0]),
        }
        h.update(
            u32::try_from(s.outgoing.direct.len())
                .expect("length fits u32")
                .to_be_bytes(),
        );
        for d in &s.outgoing.direct {
            h.update(d.to.get().to_be_bytes());
            h.update(
                u32::try_from(d.bytes.len())
                    .expect("length fits u32")
                    .to_be_bytes(),
            );
            h.update(&d.bytes[..]);
        }
    }
    hex::encode(h.finalize())
}

/// A party's output, whatever its role (one value per party, moved once).
#[allow(clippy::large_enum_variant)]
enum Out {
    Member(MemberOutcome),
    Combiner(CombinerOutcome),
}

const C: u16 = 100;

#[test]
fn the_pulsar_lifecycle_gives_the_fixture_bytes() {
    let members = ids(&[1, 2, 3, 4]);
    let mut doc = serde_json::Map::new();

    // Setup.
    let params = SetupParams::new(
        label32("host/setup"),
        Mode::MlDsa44,
        &members,
        2,
        &ids(&[1, 2]),
        pid(C),
    )
    .unwrap();
    let mut net = Network::new();
    for &p in &members {
        let (m, o) = Member::setup(p, &params, &mut rng("host/setup", p)).unwrap();
        net.add(map_output(m, Out::Member), o);
    }
    let (c, o) = Combiner::setup(&params, &mut rng("host/setup", pid(C)));
    net.add(map_output(c, Out::Combiner), o);
    let (mut out, sent) = net.run_logged();
    let Ok(Out::Combiner(CombinerOutcome::Certified(record))) = out.remove(&pid(C)).unwrap() else {
        panic!("the combiner certified no key")
    };
    let mut keyrings: BTreeMap<PartyId, Keyring<KeyShare>> = BTreeMap::new();
    for (p, o) in out {
        let Ok(Out::Member(MemberOutcome::Setup(s))) = o else {
            panic!("{p} did not finish its setup")
        };
        keyrings.insert(p, Keyring::new(s.key_share));
    }
    doc.insert(
        "setup".into(),
        serde_json::json!({
            "transcript": transcript(&sent),
            "posts": sent.len(),
            "keyRecord": hex::encode(record.group_key.to_bytes()),
            "sharing": hex::encode(record.public.to_bytes()),
        }),
    );

    // Sign by {2, 4}.
    let sp = SignParams::new(label32("host/sign"), &ids(&[2, 4]), b"block 1", b"ctx", pid(C)).unwrap();
    let mut net = Network::new();
    let (c, o) = Combiner::sign(
        &sp,
        &record.group_key,
        &record.public,
        &mut rng("host/sign", pid(C)),
    )
    .unwrap();
    net.add(map_output(c, Out::Combiner), o);
    for p in ids(&[2, 4]) {
        let (m, o) = Member::sign(keyrings[&p].current().unwrap(), &sp, &mut rng("host/sign", p)).unwrap();
        net.add(map_output(m, Out::Member), o);
    }
    let (mut out, sent) = net.run_logged();
    let Ok(Out::Combiner(CombinerOutcome::Signed(signed))) = out.remove(&pid(C)).unwrap() else {
        panic!("the combiner did not sign")
    };
    doc.insert(
        "sign".into(),
        serde_json::json!({
            "transcript": transcript(&sent),
            "posts": sent.len(),
            "signature": hex::encode(signed.signature()),
        }),
    );

    // Reshare by {1, 2, 3} to {2, 3, 4, 5}, t = 3; 5 joins.
    keyrings.insert(pid(5), Keyring::empty());
    let rp = ReshareParams::reshare(
        label32("host/reshare"),
        &record.group_key,
        &record.public,
        &ids(&[1, 2, 3]),
        &ids(&[2, 3, 4, 5]),
        3,
    )
    .unwrap();
    let mut net = Network::new();
    for p in ids(&[1, 2, 3, 4, 5]) {
        let ring = keyrings.get_mut(&p).unwrap();
        let (m, o) = Member::reshare(p, ring, &rp, &mut rng("host/reshare", p)).unwrap();
        net.add(map_output(m, Out::Member), o);
    }
    let (out, sent) = net.run_logged();
    let mut reshared = BTreeMap::new();
    for (p, o) in out {
        let Ok(Out::Member(MemberOutcome::Reshared(r))) = o else {
            panic!("{p} did not finish the reshare")
        };
        assert!(r.activated.is_ok(), "{p}: the activation verified");
        reshared.insert(p, r);
    }
    let two = &reshared[&pid(2)];
    doc.insert(
        "reshare".into(),
        serde_json::json!({
            "transcript": transcript(&sent),
            "posts": sent.len(),
            "sharing": hex::encode(two.public.to_bytes()),
            "certificate": hex::encode(two.certificate.as_ref().unwrap().to_bytes()),
            "keyRecord": hex::encode(two.keyring.current().unwrap().group_key().to_bytes()),
        }),
    );

    let text = serde_json::to_string_pretty(&serde_json::Value::Object(doc)).unwrap() + "\n";
    if std::env::var_os("QUASAR_WRITE_FIXTURE").is_some() {
        std::fs::write(FIXTURE, &text).unwrap();
    }
    let want = std::fs::read_to_string(FIXTURE).expect("the fixture (QUASAR_WRITE_FIXTURE=1 writes it)");
    assert_eq!(text, want, "the lifecycle's bytes changed");
}
