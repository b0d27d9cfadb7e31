//! `kats/pulsar.json`: Pulsar custody under per-party seeded generators, run by the
//! custody lifecycle parties.

use core::ops::RangeInclusive;
use std::collections::{BTreeMap, BTreeSet};

use quasar_pq::lss::ActivationCertificate;
use quasar_pq::mldsa::{self, Mode};
use quasar_pq::party::keyring::Keyring;
use quasar_pq::party::sim::{map_output, Network, Sent};
use quasar_pq::pulsar::custody::lifecycle::{
    Certified, Combiner, Member, Outcome, ReshareParams, Reshared, SetupParams, SignParams,
};
use quasar_pq::pulsar::custody::{self, hazmat, GroupKey, KeyShare};
use quasar_pq::vss::{self, Ristretto255};
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

use crate::format::{ensure, file, nums, pid, pids, Failure, MessageLog, Obj, Rngs, Stream};

/// The combiner's party id in every session.
const COMBINER: u16 = 1000;
/// The message signed in the signing session.
const MESSAGE: &[u8] = b"quasar-pq Pulsar KAT: block 1";
/// Its ML-DSA context string.
const CONTEXT: &[u8] = b"quasar-pq kat";

/// The phases of the setup path and the message kinds each logs (the lifecycle's routing
/// tags; see the module docs of `pulsar::custody::lifecycle`).
const SETUP_PHASES: [(&str, &[&[u8; 4]]); 3] = [
    ("dkg", &[b"LSD1", b"LSP1", b"LSC1", b"LSR1"]),
    ("key-ceremony", &[b"PCSH", b"PCSS", b"PCR1", b"PCR2", b"PCKA"]),
    ("key-certification", &[b"LSV1"]),
];

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
/// Each case runs the custody lifecycle parties ([`custody::lifecycle`]) on the simulator
/// (this file only routes), with member `i` starting each of its paths with its own
/// `ChaCha20Rng::from_seed(seeds[i])` and the combiner (party 1000) with
/// `ChaCha20Rng::from_seed(combiner_seed)`:
///
/// 1. **setup** — `SetupParams::new(setup_session, set, parties, t, ceremony_signers,
///    1000)`, `ceremony_signers` the first `t` parties; one run, logged as three phases by
///    message kind (each phase in the simulator's order):
///    - **dkg** — the LSS Pedersen DKG over Ristretto255 (`LSD1` `LSP1` `LSC1` `LSR1`),
///      session `dkg_session` (derived from `setup_session`);
///    - **key-ceremony** — each member's sharing report to the combiner (`PCSH`), the
///      combiner's session broadcast (`PCSS`, its `PCEK` key inside, session
///      `ceremony_session`), the signers' release (`PCR1`, `PCR2`), the announcement
///      (`PCKA`);
///    - **key-certification** — every member's proof of possession (`LSV1`): the
///      certificate `key_certificate` makes the group key record `group_key_record`.
/// 2. **sign-deterministic**, **sign-hedged** — two sign paths (`SignParams`), a fresh
///    combiner key each: the combiner's session broadcast (`PCSS`), then `signers` sign
///    `message` with `context`; deterministic (`signature_deterministic`, checked to equal
///    `mldsa::sign(.., None)` under the key rebuilt from the shares), then hedged
///    (`signature_hedged`).
/// 3. **reshare** — the reshare path (`ReshareParams::reshare`) by `reshare_dealers` to
///    `reshare_receivers` with threshold `reshare_threshold`, session `reshare_session`, each
///    participant with its keyring (empty for a joining member), ending with the
///    activation round: `activation_certificate` (`LSA2`), accepted by every keyring,
///    `activation_valid` its verdict, `activation_members` its members.
///
/// Generator use per member, in order: the setup path; the two sign paths (if a signer);
/// the reshare path (if a dealer or receiver). The combiner: the setup path; the
/// deterministic sign path; the hedged one. Each path draws what its first phase needs
/// at start and a seed for its later phases (their randomness is expanded per phase from
/// it, `PhaseRng`), so a party's key-ceremony release and certification, or a signer's
/// release, use per-phase streams rather than the party's generator.
///
/// Message order: the simulator's (see the binary's docs), parties added members first
/// (setup, reshare) or the combiner first (sign); signing sessions log the `PULS` frame
/// last.
///
/// # Panics
/// If the protocol fails on its own honest run (a bug in the code under test).
pub(crate) fn pulsar() -> String {
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
    let setup_id = s.array32();
    // Formerly the key ceremony's session id (now derived from `setup_id`): drawn so the
    // later session ids keep their values.
    let _ = s.array32();
    let sign_deterministic_id = s.array32();
    let sign_hedged_id = s.array32();
    let reshare_id = s.array32();
    let combiner = pid(COMBINER)?;
    let mut log = MessageLog::default();

    // 1. Setup: DKG → key ceremony by the first t parties → key certification.
    let ceremony_signers = &parties[..usize::from(c.t)];
    let params = SetupParams::new(setup_id, c.mode, &parties, c.t, ceremony_signers, combiner)?;
    let mut net = Network::new();
    for &p in &parties {
        let (m, first) = Member::setup(p, &params, rngs.of(p)?)?;
        net.add(map_output(m, Outcome::Member), first);
    }
    let (m, first) = Combiner::setup(&params, &mut crng);
    net.add(map_output(m, Outcome::Combiner), first);
    let (outputs, sent) = net.run_logged();
    log_by_kind(&sent, &SETUP_PHASES, &mut log)?;
    let mut keyrings = BTreeMap::new();
    let mut record: Option<Certified> = None;
    for (p, o) in outputs {
        match o.map_err(|e| Failure(format!("{p}: {e}")))? {
            Outcome::Member(m) => {
                let setup = m.into_setup().ok_or_else(|| Failure(format!("{p}: no setup")))?;
                ensure(
                    setup.blame.is_empty() && setup.dropped.is_empty() && setup.qualified == parties,
                    "no blame in an honest setup",
                )?;
                keyrings.insert(p, Keyring::new(setup.key_share));
            }
            Outcome::Combiner(o) => {
                let certified = o
                    .into_certified()
                    .ok_or_else(|| Failure("the combiner certified no key".into()))?;
                ensure(certified.dropped.is_empty(), "no blame at the combiner")?;
                record = Some(certified);
            }
        }
    }
    let Certified {
        group_key, public, ..
    } = record.ok_or_else(|| Failure("no combiner output".into()))?;
    ensure(public.group_key().is_none(), "a Pedersen DKG publishes no x*G")?;
    for ring in keyrings.values() {
        let share = current(ring)?;
        ensure(
            share.group_key().to_bytes() == group_key.to_bytes()
                && share.public().to_bytes() == public.to_bytes(),
            "every member to hold the combiner's certified key",
        )?;
    }
    ensure(
        GroupKey::from_bytes(&group_key.to_bytes(), &public)? == group_key,
        "the record reads back against its sharing",
    )?;
    let certificate = group_key.certificate().to_bytes();

    // 2. Two sign paths by the last t parties, one fresh combiner key each:
    //    deterministic, then hedged.
    let signers = pids(c.n - c.t + 1..=c.n)?;
    let mut signatures = [Vec::new(), Vec::new()];
    for (slot, id, deterministic) in [(0, sign_deterministic_id, true), (1, sign_hedged_id, false)] {
        let sp = SignParams::new(id, &signers, MESSAGE, CONTEXT, combiner)?;
        let mut net = Network::new();
        let (m, first) = if deterministic {
            Combiner::sign_deterministic(&sp, &group_key, &public, &mut crng)?
        } else {
            Combiner::sign(&sp, &group_key, &public, &mut crng)?
        };
        net.add(map_output(m, |o| o.into_signed()), first);
        for &p in &signers {
            let share = current(
                keyrings
                    .get(&p)
                    .ok_or_else(|| Failure(format!("no keyring for {p}")))?,
            )?;
            let (m, first) = Member::sign(share, &sp, rngs.of(p)?)?;
            net.add(map_output(m, |_| None), first);
        }
        let signed = crate::format::run(net, &mut log)?
            .into_values()
            .flatten()
            .next()
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
    check_fips204(&keyrings, &group_key, &deterministic)?;
    mldsa::verify(c.mode, group_key.public_key(), MESSAGE, CONTEXT, &hedged)?;
    ensure(deterministic != hedged, "a hedged signature")?;

    // 3. Reshare, ending with the activation round; joining members start empty.
    let dealers = pids(c.dealers.clone())?;
    let receivers = pids(c.receivers.clone())?;
    let rp = ReshareParams::reshare(reshare_id, &group_key, &public, &dealers, &receivers, c.new_t)?;
    let mut net = Network::new();
    for p in rp.participants() {
        let mut keyring = keyrings.remove(&p).unwrap_or_else(Keyring::empty);
        let (m, first) = Member::reshare(p, &mut keyring, &rp, rngs.of(p)?)?;
        net.add(m, first);
    }
    let mut outcomes: BTreeMap<PartyId, Reshared> = BTreeMap::new();
    for (p, out) in crate::format::run(net, &mut log)? {
        let reshared = out
            .into_reshared()
            .ok_or_else(|| Failure(format!("{p}: no reshare")))?;
        ensure(
            reshared.blame.is_empty() && reshared.dropped.is_empty(),
            "no blame in an honest reshare",
        )?;
        let activated = reshared
            .activated
            .as_ref()
            .map_err(|e| Failure(format!("{p}: activation: {e}")))?;
        ensure(
            activated.member() == receivers.contains(&p)
                && reshared.keyring.pending().is_none()
                && reshared.keyring.generation() == activated.member().then_some(1),
            "the old share erased, the new one current at receivers only",
        )?;
        outcomes.insert(p, reshared);
    }
    log.end_phase("reshare");
    let publics: BTreeSet<Vec<u8>> = outcomes.values().map(|o| o.public.to_bytes()).collect();
    ensure(
        publics.len() == 1,
        "every participant to agree on the new sharing",
    )?;
    let activations: BTreeSet<Vec<u8>> = outcomes
        .values()
        .map(|o| {
            o.certificate
                .as_ref()
                .map(ActivationCertificate::to_bytes)
                .unwrap_or_default()
        })
        .collect();
    ensure(
        activations.len() == 1,
        "every participant to agree on the certificate",
    )?;
    let first = outcomes
        .values()
        .next()
        .ok_or_else(|| Failure("no participants".into()))?;
    let new_public = first.public.clone();
    let decoded = first
        .certificate
        .clone()
        .ok_or_else(|| Failure("no activation certificate".into()))?;
    let activation = decoded.to_bytes();
    ensure(new_public.generation() == 1, "generation 1")?;
    ensure(
        new_public.group_commitment_bytes() == public.group_commitment_bytes(),
        "the group commitment unchanged",
    )?;
    let transcript = *new_public.transcript_hash();
    let valid = custody::verify_activation(&new_public, &group_key, 1, &transcript, &decoded).is_ok();
    ensure(valid, "a valid activation certificate")?;
    let new_key = group_key.reactivated(&new_public, decoded.clone())?;
    for o in outcomes.values() {
        if let Some(share) = o.keyring.current() {
            ensure(
                share.group_key().to_bytes() == new_key.to_bytes(),
                "the new generation's key record in every keyring",
            )?;
        }
    }

    let case = Obj::default()
        .str("set", c.mode.name())
        .int("threshold", u64::from(c.t))
        .ints("parties", nums(&parties))
        .int("combiner", u64::from(COMBINER))
        .objs("seeds", seeds)
        .bytes("combiner_seed", &combiner_seed)
        .bytes("setup_session", &setup_id)
        .bytes("dkg_session", params.dkg_session())
        .bytes("dkg_transcript_hash", public.transcript_hash())
        .bytes("sharing", &public.to_bytes())
        .bytes("group_commitment", group_key.commitment())
        .bytes("ceremony_session", params.ceremony_session())
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

/// Logs one run's messages phase by phase: each message in the phase its kind (its first
/// four bytes) belongs to, in the simulator's order within a phase. A message of no
/// phase's kind is a failure.
fn log_by_kind(sent: &[Sent], phases: &[(&str, &[&[u8; 4]])], log: &mut MessageLog) -> Result<(), Failure> {
    let mut buckets: Vec<Vec<&[u8]>> = vec![Vec::new(); phases.len()];
    let messages = sent.iter().flat_map(|s| {
        let direct = s.outgoing.direct.iter().map(|d| &d.bytes[..]);
        s.outgoing.broadcast.as_deref().into_iter().chain(direct)
    });
    for m in messages {
        let i = phases
            .iter()
            .position(|(_, kinds)| kinds.iter().any(|k| m.starts_with(&k[..])))
            .ok_or_else(|| Failure(format!("a message of no phase: {:02x?}", &m[..m.len().min(4)])))?;
        buckets[i].push(m);
    }
    for ((name, _), bucket) in phases.iter().zip(buckets) {
        for m in bucket {
            log.push(m);
        }
        log.end_phase(name);
    }
    Ok(())
}

/// A keyring's current share.
fn current(ring: &Keyring<KeyShare>) -> Result<&KeyShare, Failure> {
    ring.current().ok_or_else(|| Failure("an empty keyring".into()))
}

/// The deterministic signature is FIPS 204 under the key rebuilt from the shares (only
/// a test or a KAT generator may rebuild it).
fn check_fips204(
    keyrings: &BTreeMap<PartyId, Keyring<KeyShare>>,
    group_key: &GroupKey,
    signature: &[u8],
) -> Result<(), Failure> {
    let mut points = Vec::new();
    for ring in keyrings.values() {
        let s = current(ring)?;
        points.push((s.id(), *s.lss().secret_share()));
    }
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
