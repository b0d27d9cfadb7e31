//! `kats/pulsar.json`: Pulsar custody under per-party seeded generators.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::RangeInclusive;

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

use super::{ensure, file, nums, pid, pids, Failure, MessageLog, Obj, Rngs, Stream};
use crate::lss::{self, ActivationCertificate, Ceremony, ComplaintMessage, DealMessage, GroupPublic};
use crate::lss::{ResponseMessage, ShareMessage};
use crate::mldsa::{self, Mode};
use crate::pulsar::custody::{
    self, activation_certificate, activation_session, hazmat, verify_activation_expected, Combiner,
    CombinerKey, CombinerPublicKey, GroupKey, GroupKeyAnnouncement, KeyShare, Round1Message, Round2Message,
    Session, Signed, ACTIVATION_CONTEXT,
};
use crate::vss::{self, Ristretto255};
use crate::PartyId;

type LssShare = lss::KeyShare<Ristretto255>;
type Round1Messages = BTreeMap<PartyId, Round1Message>;
type Round2Messages = BTreeMap<PartyId, Round2Message>;

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
/// Each case runs, with party `i` using only its own `ChaCha20Rng::from_seed(seeds[i])`
/// and the combiner (party 1000) only `ChaCha20Rng::from_seed(combiner_seed)`:
///
/// 1. **dkg** — the LSS Pedersen DKG over Ristretto255 among parties `1..=n`, session
///    `dkg_session` ([`crate::lss::Ceremony::dkg`], [`crate::lss::round1`] …
///    `finalize`).
/// 2. **key-ceremony** — the combiner generates a key ([`CombinerKey::generate`]);
///    parties `1..=t` run [`custody::round1`] and `round2` in session
///    `ceremony_session`; the combiner runs
///    [`custody::CombineState::finish_key_ceremony`]; every party checks the announcement.
/// 3. **sign-deterministic**, **sign-hedged** — two sessions, each with a fresh combiner
///    key (a combiner key serves one session): parties `signers` sign `message` with
///    `context`; in session `sign_deterministic_session` the combiner signs
///    deterministically (`signature_deterministic`, checked here to equal
///    `mldsa::sign(.., None)` under the key rebuilt from the shares), in
///    `sign_hedged_session` hedged (`signature_hedged`).
/// 4. **reshare** — LSS reshare by `reshare_dealers` to `reshare_receivers` with
///    threshold `reshare_threshold`, session `reshare_session`; the group key is unchanged.
/// 5. **activation** — a fresh combiner key; the last `reshare_threshold` receivers sign
///    the activation message in session `activation_session` (hedged);
///    `activation_certificate` is the `LSA1` encoding, `activation_valid` its verdict.
///
/// Generator use per party, in order: DKG round 1; key-ceremony round 1 (if a
/// ceremony signer); the two signing rounds 1 (if a signer); reshare round 1 (if a
/// dealer or receiver); activation round 1 (if an activation signer). The combiner: key
/// generation, the ceremony's proof randomness; key generation (deterministic session:
/// no signing randomness); key generation, the hedged signature's randomness; key
/// generation, the activation signature's randomness.
///
/// Message order (`phases`, `messages_sha256`): an LSS dealing logs, for each
/// participant in increasing order, its `LSD1` deal and then its `LSP1` shares by
/// increasing recipient, then the `LSC1` complaints and the `LSR1` responses by
/// increasing sender (empty ones included: every receiver complains and every dealer
/// responds, with nothing in an honest run). A custody session logs the combiner's
/// `PCEK` key, the `PCR1` messages and then the `PCR2` envelopes by increasing signer,
/// then its output: the `PCKA` announcement, the `PULS` signature frame, or the `LSA1`
/// activation certificate.
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
    let activation_id = s.array32();
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
    let (r1, r2) = signer_rounds(&used, &session, &mut rngs, &mut log)?;
    let announcement = Combiner::new(key, &session)?
        .round1(&r1)?
        .finish_key_ceremony(&r2, &mut crng)?;
    ensure(announcement.blame().is_empty(), "no blame in the key ceremony")?;
    let bytes = announcement.to_bytes();
    log.push(&bytes);
    log.end_phase("key-ceremony");
    let mut group_key: Option<GroupKey> = None;
    let mut shares = BTreeMap::new();
    for (p, share) in lss_shares {
        let k = GroupKeyAnnouncement::from_bytes(&bytes)?.verify(share.public())?;
        ensure(group_key.as_ref().is_none_or(|g| *g == k), "one group key")?;
        shares.insert(p, KeyShare::new(share, k.clone())?);
        group_key = Some(k);
    }
    let group_key = group_key.ok_or_else(|| Failure(String::from("no parties")))?;

    // 3. Two signing sessions by the last t parties, one fresh combiner key each (a
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
        let signed = combine(
            key,
            &session,
            &shares,
            deterministic,
            &mut crng,
            &mut rngs,
            &mut log,
        )?;
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

    // 4. Reshare.
    let dealers = pids(c.dealers.clone())?;
    let receivers = pids(c.receivers.clone())?;
    let ceremony = Ceremony::reshare(reshare_id, &public, &dealers, &receivers, c.new_t)?;
    let old: BTreeMap<PartyId, &LssShare> = shares.iter().map(|(p, s)| (*p, s.lss())).collect();
    let (new_lss, new_public) = deal(ceremony, &old, &mut rngs, &mut log)?;
    log.end_phase("reshare");
    ensure(new_public.generation() == 1, "generation 1")?;
    ensure(
        new_public.group_commitment_bytes() == public.group_commitment_bytes(),
        "the group commitment unchanged",
    )?;
    let new_shares = new_lss
        .into_iter()
        .map(|(p, s)| Ok((p, KeyShare::new(s, group_key.clone())?)))
        .collect::<Result<BTreeMap<PartyId, KeyShare>, Failure>>()?;

    // 5. Activation by the last new_t receivers.
    let activation_signers = receivers[receivers.len() - usize::from(c.new_t)..].to_vec();
    let key = CombinerKey::generate(combiner, &mut crng);
    let session = activation_session(
        activation_id,
        &group_key,
        &new_public,
        &activation_signers,
        &announce(&key, &mut log)?,
    )?;
    let signed = combine(key, &session, &new_shares, false, &mut crng, &mut rngs, &mut log)?;
    let certificate = activation_certificate(&group_key, &new_public, &signed)?.to_bytes();
    log.push(&certificate);
    log.end_phase("activation");
    let decoded = ActivationCertificate::from_bytes(&certificate)?;
    let valid = verify_activation_expected(&decoded, &group_key, &new_public).is_ok()
        && mldsa::verify(
            c.mode,
            group_key.public_key(),
            &decoded.message(),
            ACTIVATION_CONTEXT,
            &decoded.signature,
        )
        .is_ok();
    ensure(valid, "a valid activation certificate")?;

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
        .bytes("reshare_transcript_hash", new_public.transcript_hash())
        .int("generation", new_public.generation())
        .bytes("activation_session", &activation_id)
        .ints("activation_signers", nums(&activation_signers))
        .bytes("activation_context", ACTIVATION_CONTEXT)
        .bytes("activation_certificate", &certificate)
        .bool("activation_valid", valid);
    Ok(log.record(case))
}

/// The combiner's broadcast of its session key: logged, and decoded as the signers see it.
fn announce(key: &CombinerKey, log: &mut MessageLog) -> Result<CombinerPublicKey, Failure> {
    let bytes = key.public_key().to_bytes();
    log.push(&bytes);
    Ok(CombinerPublicKey::from_bytes(&bytes)?)
}

/// One custody signing session after its combiner key was announced: the signers'
/// rounds (through [`signer_rounds`]) and the combine step, deterministic or hedged.
fn combine(
    key: CombinerKey,
    session: &Session,
    shares: &BTreeMap<PartyId, KeyShare>,
    deterministic: bool,
    crng: &mut ChaCha20Rng,
    rngs: &mut Rngs,
    log: &mut MessageLog,
) -> Result<Signed, Failure> {
    let used: Vec<&LssShare> = select(shares, session.signers())?
        .into_iter()
        .map(KeyShare::lss)
        .collect();
    let (r1, r2) = signer_rounds(&used, session, rngs, log)?;
    let state = Combiner::new(key, session)?.round1(&r1)?;
    let signed = if deterministic {
        state.combine_deterministic(&r2)?
    } else {
        state.combine(&r2, crng)?
    };
    ensure(signed.blame().is_empty(), "no blame in an honest session")?;
    Ok(signed)
}

/// The values of `map` at `keys`, in order.
fn select<'a, T>(map: &'a BTreeMap<PartyId, T>, keys: &[PartyId]) -> Result<Vec<&'a T>, Failure> {
    keys.iter()
        .map(|p| map.get(p).ok_or_else(|| Failure(format!("no share for {p}"))))
        .collect()
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

/// One LSS dealing among every participant, all messages through bytes; returns the new
/// shares by receiver and the new public data (checked identical at every participant).
fn deal(
    ceremony: Ceremony<Ristretto255>,
    old: &BTreeMap<PartyId, &LssShare>,
    rngs: &mut Rngs,
    log: &mut MessageLog,
) -> Result<(BTreeMap<PartyId, LssShare>, GroupPublic<Ristretto255>), Failure> {
    let participants: BTreeSet<PartyId> = ceremony
        .dealers()
        .iter()
        .chain(ceremony.receivers())
        .copied()
        .collect();
    let mut states = Vec::new();
    let mut deals = BTreeMap::new();
    let mut private: BTreeMap<PartyId, BTreeMap<PartyId, ShareMessage<Ristretto255>>> = BTreeMap::new();
    for &p in &participants {
        let (state, out) = lss::round1(ceremony.clone(), p, old.get(&p).copied(), rngs.of(p)?)?;
        if let Some(d) = out.broadcast {
            let bytes = d.to_bytes();
            log.push(&bytes);
            deals.insert(p, DealMessage::from_bytes(&bytes)?);
        }
        let mut out_shares = out.shares;
        out_shares.sort_by_key(ShareMessage::to);
        for m in out_shares {
            let bytes = m.to_bytes();
            log.push(&bytes);
            private
                .entry(m.to())
                .or_default()
                .insert(p, ShareMessage::from_bytes(&bytes)?);
        }
        states.push((p, state));
    }
    let mut complaints = BTreeMap::new();
    let mut states2 = Vec::new();
    for (p, state) in states {
        let (state, complaint) = state.round2(deals.clone(), private.remove(&p).unwrap_or_default())?;
        if let Some(m) = complaint {
            let bytes = m.to_bytes();
            log.push(&bytes);
            complaints.insert(p, ComplaintMessage::from_bytes(&bytes)?);
        }
        states2.push((p, state));
    }
    let mut responses = BTreeMap::new();
    let mut states3 = Vec::new();
    for (p, state) in states2 {
        let (state, response) = state.round3(complaints.clone())?;
        if let Some(m) = response {
            let bytes = m.to_bytes();
            log.push(&bytes);
            responses.insert(p, ResponseMessage::from_bytes(&bytes)?);
        }
        states3.push((p, state));
    }
    let mut shares = BTreeMap::new();
    let mut public: Option<GroupPublic<Ristretto255>> = None;
    for (p, state) in states3 {
        let out = state.finalize(responses.clone())?;
        ensure(out.blame.is_empty(), "no blame in an honest dealing")?;
        ensure(
            public
                .as_ref()
                .is_none_or(|g| g.to_bytes() == out.public.to_bytes()),
            "every participant to agree on the new public data",
        )?;
        if let Some(k) = out.key_share {
            shares.insert(p, k);
        }
        public = Some(out.public);
    }
    let public = public.ok_or_else(|| Failure(String::from("no participants")))?;
    Ok((shares, public))
}

/// The signers' two rounds (in increasing order), through bytes: returns the round-1
/// broadcasts and the round-2 envelopes as the combiner receives them.
fn signer_rounds(
    shares: &[&LssShare],
    session: &Session,
    rngs: &mut Rngs,
    log: &mut MessageLog,
) -> Result<(Round1Messages, Round2Messages), Failure> {
    let mut r1 = BTreeMap::new();
    let mut states = Vec::new();
    for share in shares {
        let (state, m) = custody::round1(share, session, rngs.of(share.id())?)?;
        let bytes = m.to_bytes();
        log.push(&bytes);
        r1.insert(share.id(), Round1Message::from_bytes(&bytes)?);
        states.push(state);
    }
    let mut r2 = BTreeMap::new();
    for state in states {
        let me = state.me();
        let bytes = state.round2(&r1)?.to_bytes();
        log.push(&bytes);
        r2.insert(me, Round2Message::from_bytes(&bytes)?);
    }
    Ok((r1, r2))
}
