//! `kats/lens.json`: Lens (FROST) keygen, signing, resharing and activation per curve,
//! under per-party seeded generators.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

use super::{ensure, file, nums, pids, Failure, MessageLog, Obj, Rngs, Stream};
use crate::lens::{
    aggregate, commit, deal, keygen, reshare, sign as sign_share, verify, Curve, DealerShare, KeyShare,
    PublicKeyPackage, Signature, SignatureShare, SigningCommitments, SigningPackage,
};
use crate::lss::ActivationCertificate;
use crate::PartyId;

/// The key's threshold and size, and the reshare's.
const T: u16 = 3;
const N: u16 = 5;
const NEW_T: u16 = 4;
/// The message signed with the first key.
const MESSAGE: &[u8] = b"quasar-pq Lens KAT: block 1";

/// Lens vectors (`kats/lens.json`), per key generation (`keygen`: `dealer`, then `dkg`)
/// and per curve (Ed25519, secp256k1, Ristretto255): a 3-of-5 key reshared to 4-of-7.
///
/// Each case runs, with the dealer (`dealer` cases) using only
/// `ChaCha20Rng::from_seed(dealer_seed)` and party `i` only
/// `ChaCha20Rng::from_seed(seeds[i])`:
///
/// 1. **keygen** — `dealer`: [`crate::lens::deal`] (RFC 9591 Appendix C) for parties
///    `1..=5`, threshold 3, and each party accepts its share; `dkg`: the Lens DKG over the
///    LSS kernel ([`crate::lens::keygen`]: Feldman mode with proofs of knowledge) among
///    parties `1..=5`, threshold 3, session `dkg_session`; `keygen_transcript_hash` is
///    its LSS transcript hash.
/// 2. **sign** — `signers` (1, 2, 3) commit ([`crate::lens::commit`]), the coordinator
///    builds the signing package for `message`, each signer signs, the coordinator
///    aggregates `signature` (a standard signature under `group_key`).
/// 3. **reshare** — LSS reshare ([`crate::lens::reshare`]) by `reshare_dealers` (1–4) to
///    `reshare_receivers` (3–9) with threshold 4, session `reshare_session`;
///    `group_key_after_reshare` equals `group_key`.
/// 4. **activation** — the last 4 receivers (`activation_signers`) sign
///    [`crate::lens::reshare::activation_message`] as in step 2;
///    `activation_certificate` is the `LSA1` encoding, `activation_valid` its verdict.
///
/// Generator use per party, in order: DKG round 1 (`dkg` cases); signing commitment (if
/// a signer); reshare round 1 (if a dealer or receiver); activation commitment (if an
/// activation signer). The coordinator draws nothing.
///
/// Message order (`phases`, `messages_sha256`): dealer keygen logs the `LNDS` dealer
/// shares by increasing recipient, then the `LNPK` public key package; the DKG, like the
/// reshare below, logs for each party in increasing order its `LSD1` deal and then its
/// `LSP1` shares by increasing recipient, then the `LSC1` complaints and the `LSR1`
/// responses by increasing sender; a signing session logs the
/// `LNC1` commitments by increasing signer, the `LNSP` signing package, the `LNZ2`
/// signature shares by increasing signer, then the 64-byte signature (for activation,
/// the `LSA1` certificate after it); the reshare logs, for each participant in
/// increasing order, its `LSD1` deal and then its `LSP1` shares by increasing recipient,
/// then the `LSC1` complaints and `LSR1` responses by increasing sender (empty ones
/// included: every receiver complains and every dealer responds, with nothing in an honest
/// run).
///
/// # Panics
/// If the protocol fails on its own honest run (a bug in the code under test).
pub fn lens() -> String {
    let mut cases = Vec::new();
    for keygen in [Keygen::Dealer, Keygen::Dkg] {
        for curve in Curve::ALL {
            let case = case(curve, keygen)
                .unwrap_or_else(|e| panic!("kat: lens {} {}: {}", curve.name(), keygen.name(), e.0));
            cases.push(case);
        }
    }
    file(
        "Lens (FROST, RFC 9591): dealer or DKG keygen, signing, LSS resharing, activation",
        &cases,
    )
}

/// How the first key is made.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keygen {
    /// A trusted dealer ([`crate::lens::deal`]).
    Dealer,
    /// The distributed key generation over LSS ([`crate::lens::keygen`]).
    Dkg,
}

impl Keygen {
    fn name(self) -> &'static str {
        match self {
            Keygen::Dealer => "dealer",
            Keygen::Dkg => "dkg",
        }
    }
}

fn case(curve: Curve, keygen: Keygen) -> Result<Obj, Failure> {
    let label = match keygen {
        Keygen::Dealer => format!("lens/{}", curve.name()),
        Keygen::Dkg => format!("lens/{}/dkg", curve.name()),
    };
    let mut s = Stream::new(&label);
    let parties = pids(1..=N)?;
    let dealers = pids(1..=4)?;
    let receivers = pids(3..=9)?;
    let everyone = pids(1..=9)?;
    // The dealer's seed, or the DKG session id.
    let keygen_input = s.array32();
    let (mut rngs, seeds) = Rngs::new(&mut s, &everyone);
    let reshare_id = s.array32();
    let mut log = MessageLog::default();

    // 1. Keygen.
    let set: BTreeSet<PartyId> = parties.iter().copied().collect();
    let (shares, public) = match keygen {
        Keygen::Dealer => dealer_keygen(curve, &set, keygen_input, &mut log)?,
        Keygen::Dkg => dkg_keygen(curve, &set, keygen_input, &mut rngs, &mut log)?,
    };
    log.end_phase("keygen");
    let group_key = public.group_key_bytes();

    // 2. Signing by the first t parties.
    let signers = pids(1..=T)?;
    let signature = sign(&shares, &signers, &public, MESSAGE, &mut rngs, &mut log)?;
    log.end_phase("sign");
    verify(curve, &group_key, MESSAGE, &signature.to_bytes())?;

    // 3. Reshare 3-of-5 -> 4-of-7.
    let ceremony = reshare::Ceremony::reshare(reshare_id, &public, &dealers, &receivers, NEW_T)?;
    let (new_shares, new_public) = run_reshare(&ceremony, &shares, &mut rngs, &mut log)?;
    log.end_phase("reshare");
    let group_key_after = new_public.group_key_bytes();
    ensure(group_key_after == group_key, "the group key unchanged")?;
    ensure(new_public.epoch().generation == 1, "generation 1")?;

    // 4. Activation by the last new_t receivers.
    let activation_signers = receivers[receivers.len() - usize::from(NEW_T)..].to_vec();
    let message = reshare::activation_message(&new_public);
    let sig = sign(
        &new_shares,
        &activation_signers,
        &new_public,
        &message,
        &mut rngs,
        &mut log,
    )?;
    let certificate = reshare::activation_certificate(&new_public, &sig)?.to_bytes();
    log.push(&certificate);
    log.end_phase("activation");
    let decoded = ActivationCertificate::from_bytes(&certificate)?;
    let valid = reshare::verify_activation(&new_public, &decoded).is_ok()
        && verify(curve, &group_key, &decoded.message(), &decoded.signature).is_ok();
    ensure(valid, "a valid activation certificate")?;

    let case = Obj::default()
        .str("curve", curve.name())
        .str("keygen", keygen.name())
        .int("threshold", u64::from(T))
        .ints("parties", nums(&parties))
        .bytes(
            match keygen {
                Keygen::Dealer => "dealer_seed",
                Keygen::Dkg => "dkg_session",
            },
            &keygen_input,
        )
        .objs("seeds", seeds)
        .bytes("keygen_transcript_hash", &public.epoch().transcript)
        .bytes("group_key", &group_key)
        .ints("signers", nums(&signers))
        .bytes("message", MESSAGE)
        .bytes("signature", &signature.to_bytes())
        .bytes("reshare_session", &reshare_id)
        .ints("reshare_dealers", nums(&dealers))
        .ints("reshare_receivers", nums(&receivers))
        .int("reshare_threshold", u64::from(NEW_T))
        .bytes("reshare_transcript_hash", &new_public.epoch().transcript)
        .int("generation", new_public.epoch().generation)
        .bytes("group_key_after_reshare", &group_key_after)
        .ints("activation_signers", nums(&activation_signers))
        .bytes("activation_certificate", &certificate)
        .bool("activation_valid", valid);
    Ok(log.record(case))
}

/// Dealer keygen (RFC 9591 Appendix C) with the dealer's own generator; every party
/// decodes its share and the public package. Logs the `LNDS` shares by recipient, then
/// the `LNPK` package.
fn dealer_keygen(
    curve: Curve,
    parties: &BTreeSet<PartyId>,
    dealer_seed: [u8; 32],
    log: &mut MessageLog,
) -> Result<(BTreeMap<PartyId, KeyShare>, PublicKeyPackage), Failure> {
    let mut dealer_rng = ChaCha20Rng::from_seed(dealer_seed);
    let (dealt, public) = deal(curve, T, parties, &mut dealer_rng)?;
    let mut dealt_bytes = BTreeMap::new();
    for (p, d) in dealt {
        let bytes = d.to_bytes();
        log.push(&bytes);
        dealt_bytes.insert(p, bytes);
    }
    let public_bytes = public.to_bytes();
    log.push(&public_bytes);
    let mut shares = BTreeMap::new();
    for (p, bytes) in dealt_bytes {
        let public = PublicKeyPackage::from_bytes(curve, &public_bytes)?;
        let share = KeyShare::from_dealer(DealerShare::from_bytes(curve, &bytes)?, &public)?;
        shares.insert(p, share);
    }
    Ok((shares, public))
}

/// The Lens DKG over the LSS kernel among `parties`, each with its own generator, every
/// message through bytes. Logs, per party in increasing order, its `LSD1` deal and its
/// `LSP1` shares by increasing recipient; then the `LSC1` complaints, then the `LSR1`
/// responses, by increasing sender.
fn dkg_keygen(
    curve: Curve,
    parties: &BTreeSet<PartyId>,
    session: [u8; 32],
    rngs: &mut Rngs,
    log: &mut MessageLog,
) -> Result<(BTreeMap<PartyId, KeyShare>, PublicKeyPackage), Failure> {
    let ids: Vec<PartyId> = parties.iter().copied().collect();
    let ceremony = keygen::Ceremony::new(curve, session, &ids, T)?;
    let mut deals: BTreeMap<PartyId, Vec<u8>> = BTreeMap::new();
    let mut inbox: BTreeMap<PartyId, BTreeMap<PartyId, Vec<u8>>> = BTreeMap::new();
    let mut states = Vec::new();
    for &p in parties {
        let (state, out) = keygen::round1(&ceremony, p, rngs.of(p)?)?;
        log.push(&out.deal);
        deals.insert(p, out.deal);
        // `shares` is keyed by recipient: increasing order.
        for (to, bytes) in out.shares {
            log.push(&bytes);
            inbox.entry(to).or_default().insert(p, bytes.to_vec());
        }
        states.push((p, state));
    }
    let mut complaints = BTreeMap::new();
    let mut states2 = Vec::new();
    for (p, state) in states {
        let (state, complaint) = state.round2(&deals, &inbox.remove(&p).unwrap_or_default())?;
        if let Some(bytes) = complaint {
            log.push(&bytes);
            complaints.insert(p, bytes);
        }
        states2.push((p, state));
    }
    let mut responses = BTreeMap::new();
    let mut states3 = Vec::new();
    for (p, state) in states2 {
        let (state, response) = state.round3(&complaints)?;
        if let Some(bytes) = response {
            log.push(&bytes);
            responses.insert(p, bytes);
        }
        states3.push((p, state));
    }
    let mut shares = BTreeMap::new();
    let mut public: Option<PublicKeyPackage> = None;
    for (p, state) in states3 {
        let out = state.finalize(&responses)?;
        ensure(
            out.blame.is_empty() && out.dropped.is_empty() && out.qualified == ids,
            "no blame in an honest DKG",
        )?;
        ensure(
            public
                .as_ref()
                .is_none_or(|g| g.to_bytes() == out.public.to_bytes()),
            "every party to agree on the public key package",
        )?;
        public = Some(out.public);
        shares.insert(p, out.key_share);
    }
    let public = public.ok_or_else(|| Failure(String::from("no parties")))?;
    Ok((shares, public))
}

/// The key share of `p`.
fn share_of(shares: &BTreeMap<PartyId, KeyShare>, p: PartyId) -> Result<&KeyShare, Failure> {
    shares.get(&p).ok_or_else(|| Failure(format!("no share for {p}")))
}

/// One signing session among `signers` (increasing), every message through bytes.
fn sign(
    shares: &BTreeMap<PartyId, KeyShare>,
    signers: &[PartyId],
    public: &PublicKeyPackage,
    message: &[u8],
    rngs: &mut Rngs,
    log: &mut MessageLog,
) -> Result<Signature, Failure> {
    let curve = public.curve();
    let mut nonces = BTreeMap::new();
    let mut commitments = BTreeMap::new();
    for &p in signers {
        let (n, c) = commit(share_of(shares, p)?, rngs.of(p)?);
        let bytes = c.to_bytes();
        log.push(&bytes);
        commitments.insert(p, SigningCommitments::from_bytes(curve, &bytes)?);
        nonces.insert(p, n);
    }
    let package = SigningPackage::new(public, &commitments, message)?.to_bytes();
    log.push(&package);
    let package = SigningPackage::from_bytes(curve, &package)?;
    let mut signature_shares = BTreeMap::new();
    for &p in signers {
        let n = nonces
            .remove(&p)
            .ok_or_else(|| Failure(format!("no nonces for {p}")))?;
        let bytes = sign_share(share_of(shares, p)?, n, &package)?.to_bytes();
        log.push(&bytes);
        signature_shares.insert(p, SignatureShare::from_bytes(curve, &bytes)?);
    }
    let signature = aggregate(public, &package, &signature_shares)?;
    log.push(&signature.to_bytes());
    Ok(signature)
}

/// One reshare among every participant, all messages as bytes; returns the new shares
/// and the new public key package (checked identical at every participant).
fn run_reshare(
    ceremony: &reshare::Ceremony,
    old: &BTreeMap<PartyId, KeyShare>,
    rngs: &mut Rngs,
    log: &mut MessageLog,
) -> Result<(BTreeMap<PartyId, KeyShare>, PublicKeyPackage), Failure> {
    let participants: BTreeSet<PartyId> = ceremony
        .dealers()
        .iter()
        .chain(ceremony.receivers())
        .copied()
        .collect();
    let mut states = Vec::new();
    let mut deals: BTreeMap<PartyId, Vec<u8>> = BTreeMap::new();
    let mut inbox: BTreeMap<PartyId, BTreeMap<PartyId, Vec<u8>>> = BTreeMap::new();
    for &p in &participants {
        let (state, out) = reshare::round1(ceremony, p, old.get(&p), rngs.of(p)?)?;
        if let Some(deal) = out.deal {
            log.push(&deal);
            deals.insert(p, deal);
        }
        // `shares` is keyed by recipient: increasing order.
        for (to, bytes) in out.shares {
            log.push(&bytes);
            inbox.entry(to).or_default().insert(p, bytes.to_vec());
        }
        states.push((p, state));
    }
    let mut complaints = BTreeMap::new();
    let mut states2 = Vec::new();
    for (p, state) in states {
        let (state, complaint) = state.round2(&deals, &inbox.remove(&p).unwrap_or_default())?;
        if let Some(bytes) = complaint {
            log.push(&bytes);
            complaints.insert(p, bytes);
        }
        states2.push((p, state));
    }
    let mut responses = BTreeMap::new();
    let mut states3 = Vec::new();
    for (p, state) in states2 {
        let (state, response) = state.round3(&complaints)?;
        if let Some(bytes) = response {
            log.push(&bytes);
            responses.insert(p, bytes);
        }
        states3.push((p, state));
    }
    let mut shares = BTreeMap::new();
    let mut public: Option<PublicKeyPackage> = None;
    for (p, state) in states3 {
        let out = state.finalize(&responses)?;
        ensure(
            out.blame.is_empty() && out.dropped.is_empty(),
            "no blame in an honest reshare",
        )?;
        ensure(
            public
                .as_ref()
                .is_none_or(|g| g.to_bytes() == out.public.to_bytes()),
            "every participant to agree on the new public key package",
        )?;
        if let Some(k) = out.key_share {
            shares.insert(p, k);
        }
        public = Some(out.public);
    }
    let public = public.ok_or_else(|| Failure(String::from("no participants")))?;
    Ok((shares, public))
}
