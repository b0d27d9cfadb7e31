//! `kats/lens.json`: Lens (FROST) keygen, signing, resharing with activation per curve,
//! under per-party seeded generators.

use std::collections::{BTreeMap, BTreeSet};

use quasar_pq::lens::lifecycle::{Coordinator, Member};
use quasar_pq::lens::{
    self, deal, verify, verify_activation, Curve, DealerShare, KeyShare, PublicKeyPackage, Signature,
};
use quasar_pq::party::keyring::Keyring;
use quasar_pq::party::sim::{map_output, Network};
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

use crate::format::{ensure, file, nums, pid, pids, run, Failure, MessageLog, Obj, Rngs, Stream};

/// The key's threshold and size, and the reshare's.
const T: u16 = 3;
const N: u16 = 5;
const NEW_T: u16 = 4;
/// The message signed with the first key.
const MESSAGE: &[u8] = b"quasar-pq Lens KAT: block 1";
/// The message signed with the reshared key.
const MESSAGE_AFTER: &[u8] = b"quasar-pq Lens KAT: block 2";
/// The coordinator's party id.
const COORDINATOR: u16 = 1000;

/// Lens vectors (`kats/lens.json`), per key generation (`keygen`: `dealer`, then `dkg`)
/// and per curve (Ed25519, secp256k1, Ristretto255): a 3-of-5 key reshared to 4-of-7.
///
/// Each case runs the Lens lifecycle parties ([`lens::lifecycle`]) on the simulator (this
/// file only routes), with the dealer (`dealer` cases) using only
/// `ChaCha20Rng::from_seed(dealer_seed)` and party `i` starting its parties with its own
/// `ChaCha20Rng::from_seed(seeds[i])`:
///
/// 1. **keygen** — `dealer`: [`lens::deal`] (RFC 9591 Appendix C) for parties `1..=5`,
///    threshold 3, and each party accepts its share; `dkg`: the Lens key generation over
///    the LSS kernel ([`lens::Ceremony::keygen`]) among parties `1..=5`, threshold 3,
///    session `dkg_session`; `keygen_transcript_hash` is its LSS transcript hash.
/// 2. **sign** — `signers` (1, 2, 3) and the coordinator (party 1000) sign `message`;
///    `signature` is a standard signature under `group_key`.
/// 3. **reshare** — the LSS reshare ([`lens::Ceremony::reshare`], bound to the group key)
///    by `reshare_dealers` (1–4) to `reshare_receivers` (3–9) with threshold 4, session
///    `reshare_session`, ending with the activation round: `activation_certificate`
///    (`LSA2`) of `activation_members`, `activation_valid` its verdict;
///    `group_key_after_reshare` equals `group_key`.
/// 4. **sign-after** — `signers_after` (the last 4 receivers) sign `message_after` with
///    the new shares: `signature_after`.
///
/// Generator use per party, in order: the DKG (`dkg` cases); the signing session (if a
/// signer); the reshare (if a dealer or receiver); the second signing session (if a
/// signer). The coordinator draws nothing.
///
/// Message order: dealer keygen logs the `LNDS` dealer shares by increasing recipient,
/// then the `LNPK` public key package; everything else the simulator's order (see the
/// binary's docs); a signing session logs the 64-byte signature last.
///
/// # Panics
/// If the protocol fails on its own honest run (a bug in the code under test).
pub(crate) fn lens() -> String {
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
    /// A trusted dealer ([`lens::deal`]).
    Dealer,
    /// The distributed key generation over LSS ([`lens::Ceremony::keygen`]).
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
        Keygen::Dkg => dkg_keygen(curve, &parties, keygen_input, &mut rngs, &mut log)?,
    };
    log.end_phase("keygen");
    let group_key = public.group_key_bytes();

    // 2. Signing by the first t parties.
    let signers = pids(1..=T)?;
    let signature = sign(&shares, &signers, &public, MESSAGE, &mut rngs, &mut log)?;
    log.end_phase("sign");
    verify(curve, &group_key, MESSAGE, &signature.to_bytes())?;

    // 3. Reshare 3-of-5 -> 4-of-7, with activation.
    let ceremony = lens::Ceremony::reshare(reshare_id, &public, &dealers, &receivers, NEW_T)?;
    let mut shares = shares;
    let mut net = Network::new();
    for p in ceremony.participants() {
        let mut keyring = shares.remove(&p).map_or_else(Keyring::empty, Keyring::new);
        let (member, first) = Member::reshare(p, &mut keyring, &ceremony, rngs.of(p)?)?;
        net.add(member, first);
    }
    let mut outcomes = BTreeMap::new();
    for (p, out) in run(net, &mut log)? {
        let reshared = out
            .into_reshared()
            .ok_or_else(|| Failure(format!("{p}: no reshare")))?;
        ensure(
            reshared.blame.is_empty() && reshared.dropped.is_empty(),
            "no blame in an honest reshare",
        )?;
        reshared
            .activated
            .as_ref()
            .map_err(|e| Failure(format!("{p}: activation: {e}")))?;
        outcomes.insert(p, reshared);
    }
    log.end_phase("reshare");
    let publics: BTreeSet<Vec<u8>> = outcomes.values().map(|o| o.public.to_bytes()).collect();
    ensure(
        publics.len() == 1,
        "every participant to agree on the new package",
    )?;
    let certificates: BTreeSet<Vec<u8>> = outcomes
        .values()
        .map(|o| o.certificate.as_ref().map(|c| c.to_bytes()).unwrap_or_default())
        .collect();
    ensure(
        certificates.len() == 1,
        "every participant to agree on the certificate",
    )?;
    let first = outcomes
        .values()
        .next()
        .ok_or_else(|| Failure("no participants".into()))?;
    let new_public = first.public.clone();
    let certificate = first
        .certificate
        .clone()
        .ok_or_else(|| Failure("no activation certificate".into()))?;
    let epoch = new_public.epoch();
    let valid = verify_activation(&new_public, epoch.generation, &epoch.transcript, &certificate).is_ok();
    ensure(valid, "a valid activation certificate")?;
    let group_key_after = new_public.group_key_bytes();
    ensure(group_key_after == group_key, "the group key unchanged")?;
    ensure(epoch.generation == 1, "generation 1")?;
    let mut new_shares = BTreeMap::new();
    for (p, o) in outcomes {
        ensure(
            o.keyring.pending().is_none() && o.keyring.generation().is_none_or(|g| g == 1),
            "the old share erased",
        )?;
        if let Some(share) = o.keyring.into_current() {
            new_shares.insert(p, share);
        }
    }

    // 4. Signing with the new shares by the last new_t receivers.
    let signers_after = receivers[receivers.len() - usize::from(NEW_T)..].to_vec();
    let signature_after = sign(
        &new_shares,
        &signers_after,
        &new_public,
        MESSAGE_AFTER,
        &mut rngs,
        &mut log,
    )?;
    log.end_phase("sign-after");
    verify(curve, &group_key, MESSAGE_AFTER, &signature_after.to_bytes())?;

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
        .int("coordinator", u64::from(COORDINATOR))
        .ints("signers", nums(&signers))
        .bytes("message", MESSAGE)
        .bytes("signature", &signature.to_bytes())
        .bytes("reshare_session", &reshare_id)
        .ints("reshare_dealers", nums(&dealers))
        .ints("reshare_receivers", nums(&receivers))
        .int("reshare_threshold", u64::from(NEW_T))
        .bytes("reshare_transcript_hash", &epoch.transcript)
        .int("generation", epoch.generation)
        .bytes("group_key_after_reshare", &group_key_after)
        .ints("activation_members", nums(&certificate.members()))
        .bytes("activation_certificate", &certificate.to_bytes())
        .bool("activation_valid", valid)
        .ints("signers_after", nums(&signers_after))
        .bytes("message_after", MESSAGE_AFTER)
        .bytes("signature_after", &signature_after.to_bytes());
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

/// The Lens key generation over the LSS kernel among `parties`, in the simulator.
fn dkg_keygen(
    curve: Curve,
    parties: &[PartyId],
    session: [u8; 32],
    rngs: &mut Rngs,
    log: &mut MessageLog,
) -> Result<(BTreeMap<PartyId, KeyShare>, PublicKeyPackage), Failure> {
    let ceremony = lens::Ceremony::keygen(curve, session, parties, T)?;
    let mut net = Network::new();
    for &p in parties {
        let (member, first) = Member::keygen(p, &ceremony, rngs.of(p)?)?;
        net.add(member, first);
    }
    let outcomes = run(net, log)?;
    let mut shares = BTreeMap::new();
    let mut public: Option<PublicKeyPackage> = None;
    for (p, out) in outcomes {
        let out = out
            .into_setup()
            .ok_or_else(|| Failure(format!("{p}: no key generation")))?;
        ensure(
            out.blame.is_empty() && out.dropped.is_empty() && out.qualified == parties,
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
    let public = public.ok_or_else(|| Failure("no parties".into()))?;
    Ok((shares, public))
}

/// One signing session among `signers` (increasing) and the coordinator, in the
/// simulator; logs the signature last.
fn sign(
    shares: &BTreeMap<PartyId, KeyShare>,
    signers: &[PartyId],
    public: &PublicKeyPackage,
    message: &[u8],
    rngs: &mut Rngs,
    log: &mut MessageLog,
) -> Result<Signature, Failure> {
    let coordinator = pid(COORDINATOR)?;
    let mut net = Network::new();
    for &p in signers {
        let share = shares
            .get(&p)
            .ok_or_else(|| Failure(format!("no share for {p}")))?;
        let (member, first) = Member::sign(share, coordinator, message, rngs.of(p)?)?;
        net.add(map_output(member, |_| None), first);
    }
    let (c, first) = Coordinator::sign(coordinator, public, message)?;
    net.add(map_output(c, |o| Some(o.signature)), first);
    let signature = run(net, log)?
        .into_values()
        .flatten()
        .next()
        .ok_or_else(|| Failure("no signature".into()))?;
    log.push(&signature.to_bytes());
    Ok(signature)
}
