//! `kats/pulsar.json`: Pulsar custody under per-party seeded generators.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::RangeInclusive;

use quasar_pq::lss::{self, GroupPublic};
use quasar_pq::mldsa::{self, Mode};
use quasar_pq::party::keyring::Keyring;
use quasar_pq::party::sim::{map_output, Network};
use quasar_pq::pulsar::custody::lifecycle::{
    Combiner, Member, Outcome, ReshareParams, SetupParams, SignParams,
};
use quasar_pq::pulsar::custody::{self, hazmat, GroupKey, GroupKeyAnnouncement, KeyShare};
use quasar_pq::vss::{self, Ristretto255};
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

use crate::format::{ensure, file, nums, pid, pids, run, Failure, MessageLog, Obj, Rngs, Stream};

/// The combiner's party id in every session.
const COMBINER: u16 = 1000;
/// The message signed in the signing session.
const MESSAGE: &[u8] = b"quasar-pq Pulsar KAT: block 1";
/// Its ML-DSA context string.
const CONTEXT: &[u8] = b"quasar-pq kat";

/// One vector: a `t`-of-`n` key, then a reshare by `dealers` to `receivers` with
/// threshold `new_t`.
struct Case {
    mode: Mode,
    t: u16,
    n: u16,
    dealers: RangeInclusive<u16>,
    receivers: RangeInclusive<u16>,
    new_t: u16,
}

/// Pulsar custody vectors (`kats/pulsar.json`): ML-DSA-65 3-of-5 resharing to 4-of-7,
/// and ML-DSA-44 2-of-3 resharing to 3-of-4.
///
/// Each case runs the lifecycle parties of [`custody::lifecycle`] on the simulator (this
/// file only routes), party `i` starting each of its paths with its own
/// `ChaCha20Rng::from_seed(seeds[i])` and the combiner (party 1000) with
/// `ChaCha20Rng::from_seed(combiner_seed)`:
///
/// 1. **dkg**, 2. **key-ceremony**, 3. **key-certification** — the setup path: the LSS
///    Pedersen DKG over Ristretto255 among parties `1..=n` (session `dkg_session`); each
///    member's sharing report (`PCSH`), the combiner's key-ceremony session (`PCSS`,
///    session `ceremony_session`, its key inside), the release of parties `1..=t`, the
///    announcement (`PCKA`); every member's proof of possession (`LSV1`): the certificate
///    `key_certificate` makes the group key record `group_key_record` (`PCGK` v2). One
///    run, its messages logged as three phases by magic.
/// 4. **sign-deterministic**, **sign-hedged** — two sign paths, each with a fresh combiner
///    key: parties `signers` sign `message` with `context`; deterministic
///    (`signature_deterministic`, checked to equal `mldsa::sign(.., None)` under the key
///    rebuilt from the shares), then hedged (`signature_hedged`).
/// 5. **reshare** — the reshare path (the keyed LSS reshare) by `reshare_dealers` to
///    `reshare_receivers` with threshold `reshare_threshold`, session `reshare_session`,
///    ending with the activation round: `activation_certificate` (`LSA2`), which every
///    member's keyring accepts, `activation_valid` its verdict, `activation_members` its
///    members.
///
/// Generator use per party, in order: the setup path (the DKG, then a 32-byte seed from
/// which the lifecycle derives the release's and the certification's generators); each
/// sign path (if a signer: a seed for the release); the reshare path (if a dealer or
/// receiver). The combiner: key generation and a seed for the ceremony's proof and
/// certification check; key generation (deterministic session); key generation and the
/// hedged signature's randomness.
///
/// Message order: the simulator's (see the binary's docs). Signing sessions log the
/// `PULS` frame last.
///
/// # Panics
/// If the protocol fails on its own honest run (a bug in the code under test).
pub fn pulsar() -> String {
    let cases = [
        Case {
            mode: Mode::MlDsa65,
            t: 3,
            n: 5,
            dealers: 1..=4,
            receivers: 3..=9,
            new_t: 4,
        },
        Case {
            mode: Mode::MlDsa44,
            t: 2,
            n: 3,
            dealers: 1..=2,
            receivers: 2..=5,
            new_t: 3,
        },
    ];
    let cases: Vec<Obj> = cases
        .iter()
        .map(|c| case(c).unwrap_or_else(|e| panic!("kat: pulsar {}: {}", c.mode.name(), e.0)))
        .collect();
    file(
        "Pulsar custody (threshold ML-DSA, FIPS 204 output): DKG, key ceremony, signing, resharing, activation",
        &cases,
    )
}

fn case(c: &Case) -> Result<Obj, Failure> {
    let mut s = Stream::new(&format!("pulsar/{}/{}-of-{}", c.mode.name(), c.t, c.n));
    let parties = pids(1..=c.n)?;
    let everyone: Vec<PartyId> = (1..=c.n)
        .chain(c.receivers.clone())
        .collect::<BTreeSet<u16>>()
        .into_iter()
        .map(pid)
        .collect::<Result<_, _>>()?;
    let (mut rngs, seeds) = Rngs::new(&mut s, &everyone);
    let combiner_seed = s.array32();
    let mut crng = ChaCha20Rng::from_seed(combiner_seed);
    let dkg_id = s.array32();
    let ceremony_id = s.array32();
    let sign_deterministic_id = s.array32();
    let sign_hedged_id = s.array32();
    let reshare_id = s.array32();
    let combiner = pid(COMBINER)?;
    let mut log = MessageLog::default();

    // 1–3. The setup path: DKG, key ceremony by the first t parties, key certification.
    let ceremony_signers = &parties[..usize::from(c.t)];
    let params = SetupParams::with_sessions(
        dkg_id,
        ceremony_id,
        c.mode,
        &parties,
        c.t,
        ceremony_signers,
        combiner,
    )?;
    let mut net = Network::new();
    for &p in &parties {
        let (member, first) = Member::setup(p, &params, rngs.of(p)?)?;
        net.add(map_output(member, Outcome::Member), first);
    }
    let (party, first) = Combiner::setup(&params, &mut crng);
    net.add(map_output(party, Outcome::Combiner), first);
    let mut certified = None;
    let mut shares = BTreeMap::new();
    for (p, out) in run_phases(net, &mut log, setup_phase)? {
        match out {
            Outcome::Combiner(o) => certified = o.into_certified(),
            Outcome::Member(o) => {
                let setup = o.into_setup().ok_or_else(|| Failure(format!("{p}: no setup")))?;
                ensure(
                    setup.blame.is_empty() && setup.dropped.is_empty(),
                    "no blame in an honest setup",
                )?;
                shares.insert(p, setup.key_share);
            }
        }
    }
    let certified = certified.ok_or_else(|| Failure("no certified key".into()))?;
    ensure(
        certified.dropped.is_empty(),
        "nothing dropped by an honest combiner",
    )?;
    ensure(
        certified.announcement.blame().is_empty(),
        "no blame in the key ceremony",
    )?;
    let public = certified.public;
    ensure(public.group_key().is_none(), "a Pedersen DKG publishes no x*G")?;
    let group_key = certified.group_key;
    GroupKeyAnnouncement::from_bytes(&certified.announcement.to_bytes())?.verify(&public)?;
    for share in shares.values() {
        ensure(
            share.group_key() == &group_key,
            "every member holds the certified key",
        )?;
    }
    let certificate = group_key.certificate().to_bytes();

    // 4. Two sign paths by the last t parties, one fresh combiner key each (a combiner
    //    key serves one session): deterministic, then hedged.
    let signers = pids(c.n - c.t + 1..=c.n)?;
    let mut signatures = [Vec::new(), Vec::new()];
    for (slot, id, deterministic) in [(0, sign_deterministic_id, true), (1, sign_hedged_id, false)] {
        let params = SignParams::new(id, &signers, MESSAGE, CONTEXT, combiner)?;
        let mut net = Network::new();
        let (party, first) = if deterministic {
            Combiner::sign_deterministic(&params, &group_key, &public, &mut crng)?
        } else {
            Combiner::sign(&params, &group_key, &public, &mut crng)?
        };
        net.add(map_output(party, Outcome::Combiner), first);
        for &p in &signers {
            let share = shares
                .get(&p)
                .ok_or_else(|| Failure(format!("no share for {p}")))?;
            let (member, first) = Member::sign(share, &params, rngs.of(p)?)?;
            net.add(map_output(member, Outcome::Member), first);
        }
        let signed = run(net, &mut log)?
            .into_values()
            .find_map(|o| match o {
                Outcome::Combiner(o) => o.into_signed(),
                Outcome::Member(_) => None,
            })
            .ok_or_else(|| Failure("no signature".into()))?;
        ensure(signed.blame().is_empty(), "no blame in an honest session")?;
        log.push(&signed.to_frame());
        log.end_phase(if deterministic {
            "sign-deterministic"
        } else {
            "sign-hedged"
        });
        signatures[slot] = signed.into_signature();
    }
    let [deterministic, hedged] = signatures;
    check_fips204(&shares, &group_key, &deterministic)?;
    mldsa::verify(c.mode, group_key.public_key(), MESSAGE, CONTEXT, &hedged)?;
    ensure(deterministic != hedged, "a hedged signature")?;

    // 5. The reshare path, ending with the activation round and each keyring's activation.
    let dealers = pids(c.dealers.clone())?;
    let receivers = pids(c.receivers.clone())?;
    let params = ReshareParams::reshare(reshare_id, &group_key, &public, &dealers, &receivers, c.new_t)?;
    let mut net = Network::new();
    for p in params.participants() {
        let mut keyring = shares.remove(&p).map_or_else(Keyring::empty, Keyring::new);
        let (member, first) = Member::reshare(p, &mut keyring, &params, rngs.of(p)?)?;
        net.add(member, first);
    }
    let mut outcomes = Vec::new();
    for (p, out) in run(net, &mut log)? {
        let reshared = out
            .into_reshared()
            .ok_or_else(|| Failure(format!("{p}: no reshare")))?;
        ensure(
            reshared.blame.is_empty() && reshared.dropped.is_empty(),
            "no blame in an honest dealing",
        )?;
        reshared
            .activated
            .as_ref()
            .map_err(|e| Failure(format!("{p}: activation: {e}")))?;
        outcomes.push(reshared);
    }
    log.end_phase("reshare");
    let new_public = GroupPublic::from_bytes(&agreed(outcomes.iter().map(|o| o.public.to_bytes()))?)?;
    ensure(new_public.generation() == 1, "generation 1")?;
    ensure(
        new_public.group_commitment_bytes() == public.group_commitment_bytes(),
        "the group commitment unchanged",
    )?;
    let activation = agreed(outcomes.iter().map(|o| {
        o.certificate
            .as_ref()
            .map(lss::ActivationCertificate::to_bytes)
            .unwrap_or_default()
    }))?;
    let decoded = lss::ActivationCertificate::from_bytes(&activation)?;
    let transcript = *new_public.transcript_hash();
    let valid = custody::verify_activation(&new_public, &group_key, 1, &transcript, &decoded).is_ok();
    ensure(valid, "a valid activation certificate")?;
    let new_key = group_key.reactivated(&new_public, decoded.clone())?;
    for o in &outcomes {
        if let Some(share) = o.keyring.current() {
            ensure(
                share.group_key() == &new_key,
                "every new share under the reactivated key",
            )?;
            ensure(o.keyring.generation() == Some(1), "the old share erased")?;
        }
    }

    let case = Obj::default()
        .str("set", c.mode.name())
        .int("threshold", u64::from(c.t))
        .ints("parties", nums(&parties))
        .int("combiner", u64::from(COMBINER))
        .objs("seeds", seeds)
        .bytes("combiner_seed", &combiner_seed)
        .bytes("dkg_session", &dkg_id)
        .bytes("dkg_transcript_hash", public.transcript_hash())
        .bytes("group_commitment", group_key.commitment())
        .bytes("ceremony_session", &ceremony_id)
        .ints("ceremony_signers", nums(ceremony_signers))
        .bytes("ceremony_hash", group_key.ceremony_hash())
        .bytes("group_key", &group_key.frame())
        .bytes("key_certificate", &certificate)
        .bytes("group_key_record", &group_key.to_bytes())
        .bytes("sign_deterministic_session", &sign_deterministic_id)
        .bytes("sign_hedged_session", &sign_hedged_id)
        .ints("signers", nums(&signers))
        .bytes("message", MESSAGE)
        .bytes("context", CONTEXT)
        .bytes("signature_deterministic", &deterministic)
        .bytes("signature_hedged", &hedged)
        .bytes("reshare_session", &reshare_id)
        .ints("reshare_dealers", nums(&dealers))
        .ints("reshare_receivers", nums(&receivers))
        .int("reshare_threshold", u64::from(c.new_t))
        .bytes("reshare_transcript_hash", &transcript)
        .int("generation", new_public.generation())
        .ints("activation_members", nums(&decoded.members()))
        .bytes("activation_certificate", &activation)
        .bool("activation_valid", valid);
    Ok(log.record(case))
}

/// The phase of a setup-path message, by its magic: the DKG's dealing, the key
/// ceremony's report, session, release and announcement, the certification's proofs.
fn setup_phase(message: &[u8]) -> &'static str {
    match message.get(..4) {
        Some(b"PCSH" | b"PCSS" | b"PCR1" | b"PCR2" | b"PCKA") => "key-ceremony",
        Some(b"LSV1") => "key-certification",
        _ => "dkg",
    }
}

/// Runs a simulated network to the end, logging what it sent as phases named by
/// `phase` (the simulator's order must keep each phase's messages together); every party
/// must succeed.
fn run_phases<O: 'static>(
    net: Network<O>,
    log: &mut MessageLog,
    phase: fn(&[u8]) -> &'static str,
) -> Result<BTreeMap<PartyId, O>, Failure> {
    let (outputs, sent) = net.run_logged();
    let mut done: Vec<&str> = Vec::new();
    let mut current: Option<&str> = None;
    for s in &sent {
        let direct = s.outgoing.direct.iter().map(|d| &d.bytes[..]);
        let messages = s.outgoing.broadcast.iter().map(|b| &b[..]).chain(direct);
        for m in messages {
            let name = phase(m);
            if current != Some(name) {
                ensure(!done.contains(&name), "each phase's messages together")?;
                if let Some(prev) = current.replace(name) {
                    log.end_phase(prev);
                    done.push(prev);
                }
            }
            log.push(m);
        }
    }
    if let Some(prev) = current {
        log.end_phase(prev);
    }
    outputs
        .into_iter()
        .map(|(p, o)| o.map(|o| (p, o)).map_err(|e| Failure(format!("{p}: {e}"))))
        .collect()
}

/// The one value every party agrees on.
fn agreed(values: impl Iterator<Item = Vec<u8>>) -> Result<Vec<u8>, Failure> {
    let all: BTreeSet<Vec<u8>> = values.collect();
    ensure(all.len() == 1, "every party to agree")?;
    all.into_iter().next().ok_or_else(|| Failure("no parties".into()))
}

/// The deterministic signature is FIPS 204 under the key rebuilt from the shares (only
/// a test or a KAT generator may rebuild it).
fn check_fips204(
    shares: &BTreeMap<PartyId, KeyShare>,
    group_key: &GroupKey,
    signature: &[u8],
) -> Result<(), Failure> {
    let points: Vec<(PartyId, _)> = shares
        .values()
        .map(|s| (s.id(), *s.lss().secret_share()))
        .collect();
    let x = vss::reconstruct::<Ristretto255>(&points)?;
    let seed = hazmat::derive_seed(group_key.mode(), &x);
    let (pk, sk) = mldsa::keygen(group_key.mode(), &seed);
    ensure(
        pk == group_key.public_key(),
        "the rebuilt key to be the group key",
    )?;
    let expected = mldsa::sign(group_key.mode(), &sk, MESSAGE, CONTEXT, None)?;
    ensure(
        signature == expected.as_slice(),
        "the deterministic combine to be FIPS 204",
    )
}
