//! `--chain DIR`: the Pulsar pipeline as a live devnet. Every party is also a validator with
//! keys of its own; each signing of the pipeline becomes the blocks of an epoch, certified on
//! every leg and written to `DIR` as they are made; a reshare becomes an epoch change.
//!
//! ```text
//! Setup (the Pulsar DKG, key ceremony, certification)
//! → Enroll: every node draws its validator keys (BLS, ML-DSA-44, Magnetar SLH-DSA-SHAKE-192f)
//!   from its own randomness and hands the aggregator (the hub) its public keys
//! → Announce 0: the aggregator makes the epoch-0 set (those keys and the Pulsar group key),
//!   writes set-0.qvst and hands it to the members, who check their own entry
//! → Block h, for each block: every member computes the header's message from the set it
//!   holds and hands the aggregator its BLS, ML-DSA and Magnetar signatures; a quorum runs
//!   the Pulsar signing session on the same message; the aggregator checks each
//!   contribution (a bad one is named and left out), builds the certificate, follows it
//!   with its own light clients and writes cert-EPOCH-HEIGHT.qcrt
//! [→ Announce 1 (the new set) → the epoch's last block commits to it → Reshare → Erase
//!   old shares → the blocks of epoch 1, signed by the new sharing of the same key]
//! ```
//!
//! Files are written whole and then renamed, so a follower reading `DIR` (`quasar cert
//! verify DIR`, the demo's light-client tab) never reads half a certificate. The
//! aggregator is trusted for liveness only: every certificate it writes is checked by
//! anyone who holds the epoch-0 set.

use core::time::Duration;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use quasar_pq::cert::{
    CertificateBuilder, LightClient, Policy, SetParams, Validator, ValidatorSet, MAGNETAR_CONTEXT,
    MLDSA_CONTEXT,
};
use quasar_pq::mldsa::{self, Mode};
use quasar_pq::{bls, magnetar};
use rand_chacha::rand_core::RngCore;
use rand_chacha::ChaCha20Rng;
use zeroize::Zeroizing;

use crate::conduct::{list, quorum, range, Conductor, Event, Label};
use crate::driver::{Publication, Published};
use crate::flow::{self, Dealing, Flow, Phase, Pipeline};
use crate::net::{Addr, HUB};
use crate::report::Failure;

/// The chain id of every devnet.
const CHAIN_ID: u64 = 1;
/// The per-validator ML-DSA set.
const MLDSA: Mode = Mode::MlDsa44;
/// The Magnetar set (`quasar cert build`'s default).
const MAGNETAR: magnetar::Mode = magnetar::Mode::Shake192f;
/// The tag of a validator's block signatures (a Pulsar signer sends the combiner other
/// bytes in the same phase, and a network need not keep their order).
const SIGNED_BLOCK: &[u8; 4] = b"QDVB";
/// The policies the aggregator follows its own chain under: together they check every leg.
const POLICIES: [Policy; 2] = [Policy::PQ_HEAVY, Policy::STRICT_PQ_FAST];
/// The rows of the table (and of blame) of the blocks, per epoch.
const BLOCKS: [Label; 2] = ["Blocks, epoch 0", "Blocks, epoch 1"];

/// A block, as every node builds its header.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct Block {
    /// The Pulsar signing session's id.
    pub id: [u8; 32],
    /// The epoch whose set certifies it.
    pub epoch: u64,
    /// Its height.
    pub height: u64,
    /// Its hash.
    pub hash: [u8; 32],
    /// The Pulsar signers.
    pub signers: Vec<u16>,
    /// Whether it ends the epoch (its header commits to the next set, announced before).
    pub ends_epoch: bool,
}

/// The block hash of `height` in a devnet named by `seed` (every node derives the same).
pub(crate) fn block_hash(seed: &[u8], height: u64) -> [u8; 32] {
    let mut t = quasar_pq::hash::Transcript::new("QUASAR-DEVNET-BLOCK-v1");
    t.append(seed).append(&height.to_be_bytes());
    t.finalize()
}

/// One validator's public keys as it enrolls: party number, BLS key and proof of
/// possession, ML-DSA key, Magnetar key (fixed lengths, in this order).
fn enrollment_len() -> usize {
    2 + bls::PUBLIC_KEY_LEN + bls::SIGNATURE_LEN + MLDSA.public_key_len() + MAGNETAR.public_key_len()
}

/// An enrollment's party and the validator it enrolls, whose id is SHA3-256 of the
/// enrollment (so it names the keys); `None` if malformed.
fn validator(bytes: &[u8]) -> Option<(u16, Validator)> {
    if bytes.len() != enrollment_len() {
        return None;
    }
    let (party, rest) = bytes.split_at(2);
    let (bls_pk, rest) = rest.split_at(bls::PUBLIC_KEY_LEN);
    let (pop, rest) = rest.split_at(bls::SIGNATURE_LEN);
    let (mldsa_pk, slh_pk) = rest.split_at(MLDSA.public_key_len());
    let party = u16::from_be_bytes([party[0], party[1]]);
    Some((
        party,
        Validator {
            id: crate::conduct::digest(bytes),
            weight: 1,
            bls: Some((bls_pk.try_into().ok()?, pop.try_into().ok()?)),
            mldsa: Some(mldsa_pk.to_vec()),
            slhdsa: Some(slh_pk.to_vec()),
        },
    ))
}

/// Whether `v`'s BLS proof of possession verifies (a key without one could be a rogue key,
/// chosen to forge the aggregate).
fn proves_possession(v: &Validator) -> bool {
    v.bls.as_ref().is_some_and(|(pk, pop)| {
        let (Ok(key), Ok(proof)) = (
            bls::VerifyingKey::from_bytes(pk),
            bls::ProofOfPossession::from_bytes(pop),
        ) else {
            return false;
        };
        key.verify_possession(&proof).is_ok()
    })
}

/// The certificate builder of `block` under `sets` (the epoch's set, and the next one when
/// the block ends the epoch).
fn builder(sets: &BTreeMap<u64, ValidatorSet>, block: &Block) -> Result<CertificateBuilder, Failure> {
    let set = sets
        .get(&block.epoch)
        .ok_or_else(|| flow::missing("validator set"))?;
    let b = CertificateBuilder::new(set, block.height, 0, block.hash);
    if !block.ends_epoch {
        return Ok(b);
    }
    let next = sets
        .get(&(block.epoch + 1))
        .ok_or_else(|| flow::missing("next validator set"))?;
    Ok(b.ending_epoch(next))
}

/// A validator's keys and the sets it was told (a party's node).
pub(crate) struct Keys {
    party: u16,
    /// Its validator id (SHA3-256 of its enrollment).
    id: [u8; 32],
    bls: bls::SigningKey,
    mldsa: (Vec<u8>, Zeroizing<Vec<u8>>),
    magnetar: magnetar::SigningKey,
    sets: BTreeMap<u64, ValidatorSet>,
}

impl Keys {
    /// Fresh keys for `party`, from `rng`.
    pub(crate) fn generate(party: u16, rng: &mut ChaCha20Rng) -> Result<Keys, Failure> {
        let mut seed = Zeroizing::new([0u8; 64]);
        rng.fill_bytes(&mut seed[..]);
        let bls = bls::SigningKey::keygen(&seed[..32], b"")?;
        let mut ml = Zeroizing::new([0u8; 32]);
        ml.copy_from_slice(&seed[32..]);
        let mldsa = mldsa::keygen(MLDSA, &ml);
        let mut slh = Zeroizing::new(vec![0u8; MAGNETAR.seed_len()]);
        rng.fill_bytes(&mut slh);
        let magnetar = magnetar::SigningKey::from_seed(MAGNETAR, &slh)?;
        let mut keys = Keys {
            party,
            id: [0; 32],
            bls,
            mldsa,
            magnetar,
            sets: BTreeMap::new(),
        };
        keys.id = crate::conduct::digest(&keys.enrollment());
        Ok(keys)
    }

    /// The enrollment: what the aggregator puts in the set.
    pub(crate) fn enrollment(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(enrollment_len());
        out.extend_from_slice(&self.party.to_be_bytes());
        out.extend_from_slice(&self.bls.verifying_key().to_bytes());
        out.extend_from_slice(&self.bls.prove_possession().to_bytes());
        out.extend_from_slice(&self.mldsa.0);
        out.extend_from_slice(self.magnetar.public_key().as_bytes());
        out
    }

    /// Keeps the set of `epoch` the aggregator announced, checking that it holds this
    /// validator's keys if it names it.
    pub(crate) fn told(&mut self, epoch: u64, bytes: &[u8], member: bool) -> Result<(), Failure> {
        let set = ValidatorSet::from_bytes(bytes)?;
        if set.view().epoch() != epoch || self.listed(&set) != member {
            return Err(Failure::local(
                "BAD_SET",
                format!("the announced set of epoch {epoch} does not list this validator as expected"),
            ));
        }
        self.sets.insert(epoch, set);
        Ok(())
    }

    /// Whether `set` lists this validator's keys.
    fn listed(&self, set: &ValidatorSet) -> bool {
        set.view().position(&self.id).is_some()
    }

    /// The message of `block`, computed from the sets this node holds.
    pub(crate) fn message(&self, block: &Block) -> Result<[u8; 32], Failure> {
        Ok(builder(&self.sets, block)?.message())
    }

    /// This validator's signatures on `block` ([`SIGNED_BLOCK`] ‖ BLS ‖ ML-DSA ‖ Magnetar frame), or nothing
    /// if it is not in the epoch's set.
    /// A validator that `cheats` (the run's misbehaving party) signs another message with BLS,
    /// which the aggregator must name and leave out.
    pub(crate) fn sign(
        &self,
        block: &Block,
        cheats: bool,
        rng: &mut ChaCha20Rng,
    ) -> Result<Vec<Publication>, Failure> {
        let Some(set) = self.sets.get(&block.epoch) else {
            return Ok(Vec::new());
        };
        if !self.listed(set) {
            return Ok(Vec::new());
        }
        let message = self.message(block)?;
        let mut rnd = [0u8; 32];
        rng.fill_bytes(&mut rnd);
        let mut out = SIGNED_BLOCK.to_vec();
        let mut bls_message = message;
        bls_message[0] ^= u8::from(cheats);
        out.extend(self.bls.sign(&bls_message).to_bytes());
        out.extend(mldsa::sign(
            MLDSA,
            &self.mldsa.1,
            &message,
            MLDSA_CONTEXT,
            Some(&rnd),
        )?);
        out.extend(self.magnetar.sign_deterministic(&message, MAGNETAR_CONTEXT)?);
        Ok(vec![Publication::to_hub(out)])
    }
}

/// The aggregator (the hub of a devnet run): the enrolled keys, the sets, its light clients.
pub(crate) struct Aggregator {
    dir: PathBuf,
    enrolled: BTreeMap<u16, Validator>,
    sets: BTreeMap<u64, ValidatorSet>,
    clients: Vec<LightClient>,
    /// The block being certified: its builder, until the Pulsar signature arrives.
    pending: Option<(Block, CertificateBuilder, (usize, usize), Duration)>,
}

impl Aggregator {
    /// An aggregator writing to `dir` (created if missing).
    pub(crate) fn new(dir: &Path) -> Aggregator {
        Aggregator {
            dir: dir.to_path_buf(),
            enrolled: BTreeMap::new(),
            sets: BTreeMap::new(),
            clients: Vec::new(),
            pending: None,
        }
    }

    /// Records the enrollments published by `parties` (a malformed one is named).
    pub(crate) fn enroll(&mut self, parties: &[u16], published: &Published) -> Vec<Event> {
        let mut events = Vec::new();
        for &p in parties {
            // A Pulsar member also sends the group key: the enrollment is the copy that parses.
            match published.all_from(p).into_iter().find_map(validator) {
                Some((party, v)) if party == p && proves_possession(&v) => {
                    self.enrolled.insert(p, v);
                }
                _ => events.push(named(
                    p,
                    "MALFORMED_MESSAGE",
                    "its enrollment is malformed or missing",
                )),
            }
        }
        events
    }

    /// Makes the set of `epoch` from the enrolled `members` and the group key, writes it,
    /// and publishes it to `to`.
    pub(crate) fn announce(
        &mut self,
        epoch: u64,
        members: &[u16],
        to: &[Addr],
        group_key: Vec<u8>,
    ) -> Result<Vec<Publication>, Failure> {
        let validators: Vec<Validator> = members
            .iter()
            .filter_map(|p| self.enrolled.get(p).cloned())
            .collect();
        let params = SetParams {
            chain_id: CHAIN_ID,
            epoch,
            key_era: 0,
            bls: true,
            mldsa: Some(MLDSA),
            slhdsa: Some(MAGNETAR.slhdsa()),
            pulsar_group_key: Some(group_key),
            corona_group_key: None,
        };
        let set = ValidatorSet::new(&params, validators)?;
        self.write(&format!("set-{epoch}.qvst"), set.as_bytes())?;
        if self.clients.is_empty() {
            for policy in POLICIES {
                self.clients.push(LightClient::new(set.clone(), policy)?);
            }
        }
        let bytes = set.as_bytes().to_vec();
        self.sets.insert(epoch, set);
        Ok(vec![Publication::new(to, bytes)])
    }

    /// Starts certifying `block`: checks each validator's signatures (what fails is named and
    /// left out) and returns the message the Pulsar quorum signs.
    pub(crate) fn collect(
        &mut self,
        block: &Block,
        published: &Published,
    ) -> Result<([u8; 32], Vec<Event>), Failure> {
        let started = std::time::Instant::now();
        let mut b = builder(&self.sets, block)?;
        let message = b.message();
        let set = self
            .sets
            .get(&block.epoch)
            .ok_or_else(|| flow::missing("validator set"))?;
        // The validators of this set that sent signatures (a Pulsar signer also sends its
        // record; the signatures are the copy tagged so).
        let sent: Vec<(u16, usize, &Validator, &[u8])> = self
            .enrolled
            .iter()
            .filter_map(|(&party, v)| {
                let index = set.view().position(&v.id)?;
                let bytes = published
                    .all_from(party)
                    .into_iter()
                    .find_map(|b| b.strip_prefix(SIGNED_BLOCK))?;
                Some((party, index, v, bytes))
            })
            .collect();
        // Each check is independent: spread them over the cores, keep the set's order.
        let cores = std::thread::available_parallelism().map_or(1, core::num::NonZeroUsize::get);
        let chunk = sent.len().div_ceil(cores).max(1);
        let checked: Vec<Result<Checked<'_>, Label>> = std::thread::scope(|scope| {
            let workers: Vec<_> = sent
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        part.iter()
                            .map(|(_, _, v, bytes)| check(v, &message, bytes))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            workers
                .into_iter()
                // The library's checks do not panic on any input; if one did, it is a bug to surface.
                .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        let mut events = Vec::new();
        let mut signed = 0;
        for ((party, index, _, _), result) in sent.iter().zip(checked) {
            match result {
                Ok((sig, ml, mag)) => {
                    b.add_bls(*index, &sig)?;
                    b.add_mldsa(*index, ml)?;
                    b.add_magnetar(*index, mag)?;
                    signed += 1;
                }
                Err(code) => events.push(named(*party, code, "its block signature does not verify")),
            }
        }
        self.pending = Some((block.clone(), b, (signed, set.len()), started.elapsed()));
        Ok((message, events))
    }

    /// Finishes the pending block with the Pulsar quorum's `frame`: builds the certificate,
    /// follows it with every light client, writes it. Returns its length.
    pub(crate) fn seal(&mut self, frame: &[u8]) -> Result<Event, Failure> {
        let (block, mut b, signed, checked) = self
            .pending
            .take()
            .ok_or_else(|| flow::missing("pending block"))?;
        b.pulsar(frame)?;
        let cert = b.build()?;
        let next = if block.ends_epoch {
            self.sets.get(&(block.epoch + 1)).map(|s| s.as_bytes().to_vec())
        } else {
            None
        };
        for client in &mut self.clients {
            client.update(&cert, next.as_deref()).map_err(|r| {
                Failure::local(
                    "REFUSED",
                    format!(
                        "the aggregator's own light client refused block {}: {r}",
                        block.height
                    ),
                )
            })?;
        }
        self.write(&format!("cert-{}-{}.qcrt", block.epoch, block.height), &cert)?;
        Ok(Event::Block {
            epoch: block.epoch,
            height: block.height,
            len: cert.len(),
            signed,
            check_us: u64::try_from(checked.as_micros()).unwrap_or(u64::MAX),
        })
    }

    /// Writes `name` whole, then renames it into place (a follower never reads half a file).
    fn write(&self, name: &str, bytes: &[u8]) -> Result<(), Failure> {
        let io = |e: std::io::Error| {
            Failure::local(
                "IO",
                format!("cannot write {name} in {}: {e}", self.dir.display()),
            )
        };
        std::fs::create_dir_all(&self.dir).map_err(io)?;
        let tmp = self.dir.join(format!(".{name}.part"));
        std::fs::write(&tmp, bytes).map_err(io)?;
        std::fs::rename(&tmp, self.dir.join(name)).map_err(io)
    }
}

/// A validator's checked signatures: BLS, ML-DSA, Magnetar frame.
type Checked<'a> = (bls::Signature, &'a [u8], &'a [u8]);

/// A validator's BLS, ML-DSA and Magnetar signatures on `message`, each checked against its
/// enrolled key; the failing leg's code otherwise.
fn check<'a>(v: &Validator, message: &[u8; 32], bytes: &'a [u8]) -> Result<Checked<'a>, Label> {
    let (sig, rest) = bytes
        .split_at_checked(bls::SIGNATURE_LEN)
        .ok_or("MALFORMED_MESSAGE")?;
    let (ml, mag) = rest
        .split_at_checked(MLDSA.signature_len())
        .ok_or("MALFORMED_MESSAGE")?;
    let sig = bls::Signature::from_bytes(sig.try_into().map_err(|_| "MALFORMED_MESSAGE")?)
        .map_err(|_| "MALFORMED_MESSAGE")?;
    let (Some((bls_pk, _)), Some(ml_pk), Some(slh_pk)) = (&v.bls, &v.mldsa, &v.slhdsa) else {
        return Err("MISSING_KEYS");
    };
    bls::VerifyingKey::from_bytes(bls_pk)
        .and_then(|k| k.verify(message, &sig))
        .map_err(|_| "INVALID_BLS_SIGNATURE")?;
    mldsa::verify(MLDSA, ml_pk, message, MLDSA_CONTEXT, ml).map_err(|_| "INVALID_MLDSA_SIGNATURE")?;
    magnetar::PublicKey::from_bytes(MAGNETAR, slh_pk)
        .and_then(|k| k.verify(message, MAGNETAR_CONTEXT, mag))
        .map_err(|_| "INVALID_MAGNETAR_SIGNATURE")?;
    Ok((sig, ml, mag))
}

/// A validator named by the aggregator.
fn named(party: u16, code: Label, reason: &str) -> Event {
    Event::Blame {
        phase: None,
        party,
        code,
        reason: reason.to_string(),
    }
}

/// The devnet's pipeline (`--scheme pulsar --chain DIR`): setup → enroll → announce → the
/// blocks of epoch 0 [→ announce epoch 1 before its last block → reshare → erase → the
/// blocks of epoch 1].
pub(crate) fn pipeline<F: Flow>(f: &F, c: &mut Conductor<Phase>, p: &Pipeline<'_>) -> Result<(), Failure> {
    let (n, t) = (p.demo.parties, p.demo.threshold);
    let parties = range(n);
    flow::setup(f, c, p)?;
    let everyone = range(flow::nodes(p.demo));
    let done = c.phase("Enroll", Phase::Enroll(everyone))?;
    c.phase_line(
        "Enroll",
        &format!(
            "{} validators drew their own BLS, {} and {} keys and handed the aggregator the public halves",
            done.parties(),
            MLDSA.name(),
            MAGNETAR.name()
        ),
    );
    announce(c, 0, &parties, &parties)?;
    let d = flow::dealing(c, p, (&parties, t));
    let mut height = 0;
    let mut timed = Vec::new();
    timed.extend(blocks(c, p, (0, &parties, t), &mut height, d.as_ref())?);
    if let Some(d) = &d {
        flow::reshare(c, d)?;
        timed.extend(blocks(c, p, (1, &d.receivers, d.threshold), &mut height, None)?);
    }
    summary(&timed);
    Ok(())
}

/// What one block cost: wall-clock until the validators' signatures were checked at the
/// aggregator, until the certificate was written, and each node's CPU time on it.
struct Timed {
    legs: Duration,
    check: Duration,
    total: Duration,
    cpu: BTreeMap<Addr, Duration>,
}

/// The block line of the summary: percentiles of block time and leg arrival, blocks per
/// second, CPU per validator per block (the benchmark's figures; `scripts/cluster-bench.mjs`
/// reads this line).
fn summary(timed: &[Timed]) {
    if timed.is_empty() {
        return;
    }
    let pick = |f: &dyn Fn(&Timed) -> Duration| -> (Duration, Duration) {
        let mut v: Vec<Duration> = timed.iter().map(f).collect();
        v.sort_unstable();
        let at = |q: usize| v[((v.len() - 1) * q).div_ceil(100)];
        (at(50), at(95))
    };
    let (total50, total95) = pick(&|t| t.total);
    let (legs50, legs95) = pick(&|t| t.legs);
    let (check50, _) = pick(&|t| t.check);
    let mut per_validator: BTreeMap<Addr, (Duration, u32)> = BTreeMap::new();
    for t in timed {
        for (&a, &d) in t.cpu.iter().filter(|(a, _)| **a != HUB) {
            let e = per_validator.entry(a).or_default();
            e.0 += d;
            e.1 += 1;
        }
    }
    let mut cpu: Vec<Duration> = per_validator.values().map(|(d, n)| *d / (*n).max(1)).collect();
    cpu.sort_unstable();
    let cpu50 = cpu.get(cpu.len() / 2).copied().unwrap_or_default();
    let ms = crate::report::ms;
    let per_second = 1.0 / total50.as_secs_f64().max(1e-9);
    say!(
        "  devnet: {} blocks · block p50 {} ms, p95 {} ms ({per_second:.2} blocks/s) · of which the validators' BLS, \
         ML-DSA and Magnetar signatures made and checked at the aggregator p50 {} ms, p95 {} ms (its check alone p50 \
         {} ms; the rest: the Pulsar leg, the certificate, its light-client check) · CPU per validator per block {} ms \
         (median)",
        timed.len(),
        ms(total50),
        ms(total95),
        ms(legs50),
        ms(legs95),
        ms(check50),
        ms(cpu50)
    );
}

/// "Announce": the aggregator makes and writes the set of `epoch` and tells `to`.
fn announce(c: &mut Conductor<Phase>, epoch: u64, members: &[u16], to: &[u16]) -> Result<(), Failure> {
    let done = c.phase(
        "Announce",
        Phase::Announce {
            epoch,
            members: members.to_vec(),
            to: to.to_vec(),
        },
    )?;
    c.phase_line(
        "Announce",
        &format!(
            "set-{epoch}.qvst: validators {} with the Pulsar group key; checked by {} members",
            list(members),
            done.parties()
        ),
    );
    Ok(())
}

/// The blocks of one epoch (`set` with Pulsar threshold `t`); with `next`, the last one
/// commits to the set the reshare makes, announced just before it.
fn blocks(
    c: &mut Conductor<Phase>,
    p: &Pipeline<'_>,
    (epoch, set, t): (u64, &[u16], u16),
    height: &mut u64,
    next: Option<&Dealing>,
) -> Result<Vec<Timed>, Failure> {
    let mut timed = Vec::new();
    for b in 0..p.demo.blocks {
        *height += 1;
        let h = *height;
        let ends_epoch = b + 1 == p.demo.blocks && next.is_some();
        if let (true, Some(d)) = (ends_epoch, next) {
            let mut to: Vec<u16> = set.iter().chain(&d.receivers).copied().collect();
            to.sort_unstable();
            to.dedup();
            announce(c, epoch + 1, &d.receivers, &to)?;
        }
        let signers = quorum(set, t, &c.named, p.signing_cheat, epoch > 0);
        let (id, hash) = (p.session(&format!("block {h}")), block_hash(&p.demo.seed, h));
        let row = BLOCKS[usize::from(epoch > 0)];
        let started = std::time::Instant::now();
        let mark = c.log().len();
        let done = c.session(row, t, signers, |s| {
            Phase::Block(Block {
                id,
                epoch,
                height: h,
                hash,
                signers: s.to_vec(),
                ends_epoch,
            })
        })?;
        let sealed = done.done.values().flatten().find_map(|e| match e {
            Event::Block {
                len,
                signed,
                check_us,
                ..
            } => Some((*len, *signed, Duration::from_micros(*check_us))),
            _ => None,
        });
        let Some((len, (signed, of), check)) = sealed else {
            return Err(Failure::local(
                "OUT_OF_ORDER",
                format!("block {h}: the aggregator reported no certificate"),
            ));
        };
        // The block's commands: publish and start are the validators' signatures reaching the
        // aggregator and being checked; the rest is the Pulsar leg and the certificate.
        let steps = &c.log()[mark..];
        let walls: Vec<Duration> = steps
            .iter()
            .filter(|s| s.wall > Duration::ZERO)
            .map(|s| s.wall)
            .collect();
        let mut cpu: BTreeMap<Addr, Duration> = BTreeMap::new();
        for s in steps {
            for (&a, &d) in &s.cpu {
                *cpu.entry(a).or_default() += d;
            }
        }
        timed.push(Timed {
            legs: walls.iter().take(2).sum(),
            check,
            total: started.elapsed(),
            cpu,
        });
        let commits = if ends_epoch {
            ", committing to the next set"
        } else {
            ""
        };
        c.phase_line(
            row,
            &format!(
                "block {h} in {} ms: cert-{epoch}-{h}.qcrt, {len} bytes: BLS, ML-DSA and Magnetar of {signed} of {of} \
                 validators, Pulsar by parties {}{commits}; followed by the aggregator's light clients",
                crate::report::ms(started.elapsed()),
                list(&done.signers())
            ),
        );
    }
    Ok(timed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::SeedableRng;

    #[test]
    fn an_enrollment_parses_to_its_keys_and_a_rogue_bls_key_is_refused() {
        let keys = Keys::generate(7, &mut ChaCha20Rng::from_seed([1; 32])).unwrap();
        let bytes = keys.enrollment();
        let (party, v) = validator(&bytes).unwrap();
        assert_eq!(party, 7);
        assert_eq!(v.id, keys.id);
        assert!(proves_possession(&v));
        // Another validator's proof of possession: well formed, but not for this key.
        let other = Keys::generate(8, &mut ChaCha20Rng::from_seed([2; 32]))
            .unwrap()
            .enrollment();
        let at = 2 + bls::PUBLIC_KEY_LEN;
        let mut rogue = bytes.clone();
        rogue[at..at + bls::SIGNATURE_LEN].copy_from_slice(&other[at..at + bls::SIGNATURE_LEN]);
        let (_, v) = validator(&rogue).unwrap();
        assert!(!proves_possession(&v));
        // Truncated or extended: not an enrollment.
        assert!(validator(&bytes[..bytes.len() - 1]).is_none());
        assert!(validator(&[bytes.as_slice(), &[0]].concat()).is_none());
    }

    #[test]
    fn a_validators_signatures_are_checked_leg_by_leg() {
        let keys = Keys::generate(1, &mut ChaCha20Rng::from_seed([3; 32])).unwrap();
        let (_, v) = validator(&keys.enrollment()).unwrap();
        let message = [9u8; 32];
        let mut signed = keys.bls.sign(&message).to_bytes().to_vec();
        signed.extend(mldsa::sign(MLDSA, &keys.mldsa.1, &message, MLDSA_CONTEXT, Some(&[0; 32])).unwrap());
        signed.extend(
            keys.magnetar
                .sign_deterministic(&message, MAGNETAR_CONTEXT)
                .unwrap(),
        );
        assert!(check(&v, &message, &signed).is_ok());
        assert_eq!(check(&v, &[8; 32], &signed).err(), Some("INVALID_BLS_SIGNATURE"));
        let ml = bls::SIGNATURE_LEN + 10;
        let mut bad = signed.clone();
        bad[ml] ^= 1;
        assert_eq!(check(&v, &message, &bad).err(), Some("INVALID_MLDSA_SIGNATURE"));
        let mut bad = signed.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        assert_eq!(
            check(&v, &message, &bad).err(),
            Some("INVALID_MAGNETAR_SIGNATURE")
        );
        assert_eq!(
            check(&v, &message, &signed[..50]).err(),
            Some("MALFORMED_MESSAGE")
        );
    }
}
