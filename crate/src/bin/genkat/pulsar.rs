//! `kats/pulsar.json`: Pulsar custody under per-party seeded generators.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::RangeInclusive;

use quasar_pq::lss::{self, Ceremony, DealingParty, GroupPublic};
use quasar_pq::mldsa::{self, Mode};
use quasar_pq::party::sim::{map_output, Network};
use quasar_pq::pulsar::custody::{
    self, certification_party, hazmat, Combined, CombinerKey, CombinerParty, CombinerPublicKey, GroupKey,
    GroupKeyAnnouncement, KeyShare, Session, SignerParty,
};
use quasar_pq::vss::{self, Ristretto255};
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

use crate::format::{ensure, file, nums, pid, pids, run, Failure, MessageLog, Obj, Rngs, Stream};

type LssShare = lss::KeyShare<Ristretto255>;

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
/// Each case runs, with party `i` starting its parties with its own
/// `ChaCha20Rng::from_seed(seeds[i])` and the combiner (party 1000) with
/// `ChaCha20Rng::from_seed(combiner_seed)`:
///
/// 1. **dkg** — the LSS Pedersen DKG over Ristretto255 among parties `1..=n`, session
///    `dkg_session`.
/// 2. **key-ceremony** — the combiner generates a key ([`CombinerKey::generate`]);
///    parties `1..=t` release their shares in session `ceremony_session`; the combiner's
///    party announces the key (`PCKA`); every party checks the announcement.
/// 3. **key-certification** — every party runs the certification round with its own
///    `ChaCha20Rng::from_seed(certification_seeds[i])`: the resulting certificate makes
///    the group key record `group_key_record` (`PCGK` v2).
/// 4. **sign-deterministic**, **sign-hedged** — two sessions, each with a fresh combiner
///    key: parties `signers` sign `message` with `context`; deterministic
///    (`signature_deterministic`, checked to equal `mldsa::sign(.., None)` under the key
///    rebuilt from the shares), then hedged (`signature_hedged`).
/// 5. **reshare** — the keyed LSS reshare ([`custody::reshare`]) by `reshare_dealers` to
///    `reshare_receivers` with threshold `reshare_threshold`, session `reshare_session`,
///    ending with the activation round: `activation_certificate` (`LSA2`), checked by
///    every party, `activation_valid` its verdict, `activation_members` its members.
///
/// Generator use per party, in order: the DKG; the key ceremony (if a ceremony signer);
/// the two signing sessions (if a signer); the reshare (if a dealer or receiver). The
/// combiner: key generation, the ceremony's proof randomness; key generation
/// (deterministic session); key generation, the hedged signature's randomness.
///
/// Message order: the simulator's (see the binary's docs). A custody session logs the
/// combiner's `PCEK` key first; signing sessions log the `PULS` frame last.
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
    let dkg_id = s.array32();
    let ceremony_id = s.array32();
    let sign_deterministic_id = s.array32();
    let sign_hedged_id = s.array32();
    let reshare_id = s.array32();
    // Drawn after every earlier field, so those keep their values.
    let (mut cert_rngs, certification_seeds) = Rngs::new(&mut s, &parties);
    let combiner = pid(COMBINER)?;
    let mut log = MessageLog::default();

    // 1. Pedersen DKG.
    let dkg = Ceremony::<Ristretto255>::dkg(dkg_id, vss::Mode::Pedersen, &parties, c.t)?;
    let (lss_shares, public) = deal(dkg, &BTreeMap::new(), &mut rngs, &mut log)?;
    ensure(public.group_key().is_none(), "a Pedersen DKG publishes no x*G")?;
    log.end_phase("dkg");

    // 2. Key ceremony by the first t parties.
    let ceremony_signers = &parties[..usize::from(c.t)];
    let key = CombinerKey::generate(combiner, &mut crng);
    let session = Session::key_ceremony(
        ceremony_id,
        c.mode,
        &public,
        ceremony_signers,
        &announce(&key, &mut log)?,
    )?;
    let used = select(&lss_shares, ceremony_signers)?;
    let Combined::Announcement(announcement) =
        session_run(key, &session, &used, false, &mut crng, &mut rngs, &mut log)?
    else {
        return Err(Failure("a key ceremony that signed".into()));
    };
    ensure(announcement.blame().is_empty(), "no blame in the key ceremony")?;
    let bytes = announcement.to_bytes();
    log.end_phase("key-ceremony");
    let announced = GroupKeyAnnouncement::from_bytes(&bytes)?.verify(&public)?;

    // 3. Key certification by every party.
    let mut net = Network::new();
    for &p in &parties {
        let share = select(&lss_shares, &[p])?[0];
        let (party, first) =
            certification_party(p, Some(share), share.public(), &announced, cert_rngs.of(p)?)?;
        net.add(party, first);
    }
    let certificates = run(net, &mut log)?;
    log.end_phase("key-certification");
    let certificate = agreed(certificates.values().map(|c| c.to_bytes()))?;
    let group_key = GroupKey::new(
        announced,
        &public,
        lss::ActivationCertificate::from_bytes(&certificate)?,
    )?;
    ensure(
        GroupKey::from_bytes(&group_key.to_bytes(), &public)? == group_key,
        "the record reads back against its sharing",
    )?;
    let mut shares = BTreeMap::new();
    for (p, share) in lss_shares {
        shares.insert(p, KeyShare::new(share, group_key.clone())?);
    }

    // 4. Two signing sessions by the last t parties, one fresh combiner key each (a
    //    combiner key serves one session): deterministic, then hedged.
    let signers = pids(c.n - c.t + 1..=c.n)?;
    let mut signatures = [Vec::new(), Vec::new()];
    for (slot, id, deterministic) in [(0, sign_deterministic_id, true), (1, sign_hedged_id, false)] {
        let key = CombinerKey::generate(combiner, &mut crng);
        let session = Session::sign(
            id,
            &group_key,
            &public,
            &signers,
            &announce(&key, &mut log)?,
            MESSAGE,
            CONTEXT,
        )?;
        let used: Vec<&LssShare> = select(&shares, &signers)?
            .into_iter()
            .map(KeyShare::lss)
            .collect();
        let Combined::Signed(signed) = session_run(
            key,
            &session,
            &used,
            deterministic,
            &mut crng,
            &mut rngs,
            &mut log,
        )?
        else {
            return Err(Failure("a signing session that announced a key".into()));
        };
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

    // 5. Reshare, ending with the activation round.
    let dealers = pids(c.dealers.clone())?;
    let receivers = pids(c.receivers.clone())?;
    let ceremony = custody::reshare(reshare_id, &group_key, &public, &dealers, &receivers, c.new_t)?;
    let old: BTreeMap<PartyId, &LssShare> = shares.iter().map(|(p, s)| (*p, s.lss())).collect();
    let outcomes = dealing_outcomes(ceremony, &old, &mut rngs, &mut log)?;
    log.end_phase("reshare");
    let new_public = agreed_public(&outcomes)?;
    ensure(new_public.generation() == 1, "generation 1")?;
    ensure(
        new_public.group_commitment_bytes() == public.group_commitment_bytes(),
        "the group commitment unchanged",
    )?;
    let activation = agreed(outcomes.values().map(|o| {
        o.activation
            .as_ref()
            .map(lss::ActivationCertificate::to_bytes)
            .unwrap_or_default()
    }))?;
    let decoded = lss::ActivationCertificate::from_bytes(&activation)?;
    let transcript = *new_public.transcript_hash();
    let valid = custody::verify_activation(&new_public, &group_key, 1, &transcript, &decoded).is_ok();
    ensure(valid, "a valid activation certificate")?;
    let new_key = group_key.reactivated(&new_public, decoded.clone())?;
    for (_, o) in outcomes {
        if let Some(share) = o.key_share {
            KeyShare::new(share, new_key.clone())?;
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
        .bytes("sharing", &public.to_bytes())
        .bytes("group_commitment", group_key.commitment())
        .bytes("ceremony_session", &ceremony_id)
        .ints("ceremony_signers", nums(ceremony_signers))
        .bytes("ceremony_hash", group_key.ceremony_hash())
        .bytes("group_key", &group_key.frame())
        .objs("certification_seeds", certification_seeds)
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

/// The combiner's broadcast of its session key: logged, and decoded as the signers see it.
fn announce(key: &CombinerKey, log: &mut MessageLog) -> Result<CombinerPublicKey, Failure> {
    let bytes = key.public_key().to_bytes();
    log.push(&bytes);
    Ok(CombinerPublicKey::from_bytes(&bytes)?)
}

/// One custody session after its combiner key was announced: the signers (in increasing
/// order, each with its own generator) and the combiner (hedged from `crng`, or
/// deterministic), all in the simulator. Returns the combiner's output.
fn session_run(
    key: CombinerKey,
    session: &Session,
    shares: &[&LssShare],
    deterministic: bool,
    crng: &mut ChaCha20Rng,
    rngs: &mut Rngs,
    log: &mut MessageLog,
) -> Result<Combined, Failure> {
    let mut net = Network::new();
    for share in shares {
        let (signer, first) = SignerParty::start(share, session, rngs.of(share.id())?)?;
        net.add(map_output(signer, |_| None), first);
    }
    let (combiner, first) = if deterministic {
        CombinerParty::start_deterministic(key, session)?
    } else {
        CombinerParty::start(key, session, crng)?
    };
    net.add(map_output(combiner, Some), first);
    let outputs = run(net, log)?;
    let combined = outputs
        .into_values()
        .flatten()
        .next()
        .ok_or_else(|| Failure("no combiner output".into()))?;
    if let Combined::Signed(s) = &combined {
        ensure(s.blame().is_empty(), "no blame in an honest session")?;
    }
    Ok(combined)
}

/// The values of `map` at `keys`, in order.
fn select<'a, T>(map: &'a BTreeMap<PartyId, T>, keys: &[PartyId]) -> Result<Vec<&'a T>, Failure> {
    keys.iter()
        .map(|p| map.get(p).ok_or_else(|| Failure(format!("no share for {p}"))))
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

/// One LSS dealing among every participant (in increasing order, each with its own
/// generator), in the simulator; every outcome blame-free.
fn dealing_outcomes(
    ceremony: Ceremony<Ristretto255>,
    old: &BTreeMap<PartyId, &LssShare>,
    rngs: &mut Rngs,
    log: &mut MessageLog,
) -> Result<BTreeMap<PartyId, lss::Outcome<Ristretto255>>, Failure> {
    let participants: BTreeSet<PartyId> = ceremony
        .dealers()
        .iter()
        .chain(ceremony.receivers())
        .copied()
        .collect();
    let mut net = Network::new();
    for &p in &participants {
        let (party, first) = DealingParty::start(ceremony.clone(), p, old.get(&p).copied(), rngs.of(p)?)?;
        net.add(party, first);
    }
    let outcomes = run(net, log)?;
    for o in outcomes.values() {
        ensure(
            o.blame.is_empty() && o.dropped.is_empty(),
            "no blame in an honest dealing",
        )?;
    }
    Ok(outcomes)
}

/// The new public data every participant agrees on.
fn agreed_public(
    outcomes: &BTreeMap<PartyId, lss::Outcome<Ristretto255>>,
) -> Result<GroupPublic<Ristretto255>, Failure> {
    let bytes = agreed(outcomes.values().map(|o| o.public.to_bytes()))?;
    Ok(GroupPublic::from_bytes(&bytes)?)
}

/// A dealing's new shares by receiver and its public data.
fn deal(
    ceremony: Ceremony<Ristretto255>,
    old: &BTreeMap<PartyId, &LssShare>,
    rngs: &mut Rngs,
    log: &mut MessageLog,
) -> Result<(BTreeMap<PartyId, LssShare>, GroupPublic<Ristretto255>), Failure> {
    let outcomes = dealing_outcomes(ceremony, old, rngs, log)?;
    let public = agreed_public(&outcomes)?;
    let shares = outcomes
        .into_iter()
        .filter_map(|(p, o)| o.key_share.map(|s| (p, s)))
        .collect();
    Ok((shares, public))
}
