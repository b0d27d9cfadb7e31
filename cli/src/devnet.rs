//! `--chain DIR`: the Pulsar custody or committee pipeline as a live devnet. Every party is
//! also a validator with keys of its own; each signing of the pipeline becomes the blocks of
//! an epoch, certified on every leg and written to `DIR` as they are made; a reshare becomes
//! an epoch change. A scheme's nodes take their devnet side from [`Validating`] and
//! [`Aggregating`]; the pipeline is this file's.
//!
//! ```text
//! Setup (the Pulsar DKG, key ceremony, certification; or the committee's key generation)
//! → Enroll: every node (the group, and with `--validators` the nodes that only validate)
//!   draws its validator keys (BLS, ML-DSA-44, Magnetar SLH-DSA-SHAKE-192f)
//!   from its own randomness and hands the aggregator (the hub) its public keys
//! [→ Corona deal (`--corona`): the aggregator deals nodes 1..=min(8, V) a Corona key]
//! → Announce 0: the aggregator makes the epoch-0 set (those keys and the Pulsar group key),
//!   writes set-0.qvst and hands it to the members, who check their own entry
//! → Block h, for each block: every member computes the header's message from the set it
//!   holds and hands the aggregator its BLS, ML-DSA and Magnetar signatures; a quorum runs
//!   the Pulsar signing session on the same message (custody: with the combiner; a
//!   committee: exactly T members, each combining); the aggregator checks each
//!   contribution (a bad one is named and left out)
//!   [→ Corona leg: a quorum of the Corona group signs the message]
//!   [→ Seal: the leaderless signers hand the aggregator their signatures]
//!   → the aggregator builds the certificate, follows it with its own light clients and
//!   writes cert-EPOCH-HEIGHT.qcrt
//! [→ Announce 1 (the new set) → the epoch's last block commits to it → Reshare → Erase
//!   old shares → the blocks of epoch 1, signed by the new sharing of the same key]
//! ```
//!
//! Files are written whole and then renamed, so a follower reading `DIR` (`quasar cert
//! verify DIR`, the demo's light-client tab) never reads half a certificate. The
//! aggregator is trusted for liveness only: every certificate it writes is checked by
//! anyone who holds the epoch-0 set.

mod aggregator;
mod hub;
mod member;
mod validator;

pub(crate) use aggregator::Aggregator;
pub(crate) use hub::Aggregating;
pub(crate) use member::Validating;
pub(crate) use validator::Keys;

use core::time::Duration;
use std::collections::BTreeMap;

use quasar_pq::cert::devnet::{block_hash, CORONA_GROUP_MAX};
use quasar_pq::cert::{CertificateBuilder, Policy, ValidatorSet};
use quasar_pq::magnetar;
use quasar_pq::mldsa::Mode;

use crate::conduct::{exact_quorum, list, quorum, range, Conductor, Event, Label};
use crate::flow::{self, Dealing, Flow, Phase, Pipeline};
use crate::net::{Addr, HUB};
use crate::report::Failure;

/// The chain id of every devnet.
pub(super) const CHAIN_ID: u64 = 1;
/// The per-validator ML-DSA set.
pub(super) const MLDSA: Mode = Mode::MlDsa44;
/// The Magnetar set (`quasar cert build`'s default).
pub(super) const MAGNETAR: magnetar::Mode = magnetar::Mode::Shake192f;
/// The tag of a validator's block signatures (a Pulsar signer sends the combiner other
/// bytes in the same phase, and a network need not keep their order).
pub(super) const SIGNED_BLOCK: &[u8; 4] = b"QDVB";
/// The policies the aggregator follows its own chain under: together they check every leg.
pub(super) const POLICIES: [Policy; 2] = [Policy::PQ_HEAVY, Policy::STRICT_PQ_FAST];
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
    /// The signers of its Corona leg (`--corona`; in the block's own phase, the Corona
    /// group, whose quorum is chosen after it; none: the certificate has no such leg).
    pub corona: Vec<u16>,
}

/// The certificate builder of `block` under `sets` (the epoch's set, and the next one when
/// the block ends the epoch).
pub(super) fn builder(
    sets: &BTreeMap<u64, ValidatorSet>,
    block: &Block,
) -> Result<CertificateBuilder, Failure> {
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

/// The devnet's pipeline (`--scheme pulsar --chain DIR`): setup → enroll → announce → the
/// blocks of epoch 0 [→ announce epoch 1 before its last block → reshare → erase → the
/// blocks of epoch 1].
pub(crate) fn pipeline<F: Flow>(f: &F, c: &mut Conductor<Phase>, p: &Pipeline<'_>) -> Result<(), Failure> {
    let (n, t) = (p.demo.parties, p.demo.threshold);
    let parties = range(n);
    f.setup(c, p)?;
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
    let corona = if p.demo.corona { Some(deal(c, p)?) } else { None };
    let leaderless = F::LEADERLESS;
    let validators = validators(p, &parties);
    announce(c, (0, corona.is_some()), &validators, &validators)?;
    let d = flow::dealing(c, p, (&parties, t));
    let mut height = 0;
    let mut timed = Vec::new();
    let epoch0 = Epoch {
        number: 0,
        validators: &validators,
        group: &parties,
        t,
        corona: corona.as_ref(),
        leaderless,
    };
    timed.extend(blocks(c, p, &epoch0, &mut height, d.as_ref())?);
    if let Some(d) = &d {
        flow::reshare(c, d)?;
        let epoch1 = Epoch {
            number: 1,
            validators: &self::validators(p, &d.receivers),
            group: &d.receivers,
            t: d.threshold,
            corona: corona.as_ref(),
            leaderless,
        };
        timed.extend(blocks(c, p, &epoch1, &mut height, None)?);
    }
    summary(&timed);
    Ok(())
}

/// The validators of an epoch whose Pulsar group is `group`: the group, and the nodes past
/// the first group that only validate (`--validators`).
fn validators(p: &Pipeline<'_>, group: &[u16]) -> Vec<u16> {
    let mut v: Vec<u16> = group
        .iter()
        .copied()
        .chain(p.demo.parties + 1..=p.demo.validators)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// One epoch's blocks: who validates, its Pulsar group with threshold `t`, and the Corona
/// group with its threshold (`--corona`).
struct Epoch<'a> {
    number: u64,
    validators: &'a [u16],
    group: &'a [u16],
    t: u16,
    corona: Option<&'a (Vec<u16>, u16)>,
    /// Whether the Pulsar leg's signers hand the aggregator its signature at the seal (a
    /// committee: no combiner).
    leaderless: bool,
}

/// "Corona deal" (`--corona`): the aggregator deals a key to nodes 1..=m, m = min(8,
/// validators), threshold floor(2m/3) + 1, as a trusted dealer (the scheme's one key
/// generation); every set of the chain carries that key. It is never reshared: the group
/// stays for the whole chain, and a member named for misbehaving is left out of its quorums.
fn deal(c: &mut Conductor<Phase>, p: &Pipeline<'_>) -> Result<(Vec<u16>, u16), Failure> {
    let m = usize::from(p.demo.validators).min(CORONA_GROUP_MAX);
    let members = range(u16::try_from(m).unwrap_or(u16::MAX));
    let t = u16::try_from(two_thirds_plus_one(m).max(quasar_pq::corona::MIN_THRESHOLD)).unwrap_or(u16::MAX);
    let done = c.phase(
        "Corona deal",
        Phase::CoronaDeal {
            members: members.clone(),
            t,
        },
    )?;
    c.phase_line(
        "Corona deal",
        &format!(
            "{t}-of-{m} Corona key dealt by the aggregator (a trusted dealer, which keeps only the group key); \
             loaded by {}",
            done.parties()
        ),
    );
    Ok((members, t))
}

/// ⌊2m/3⌋ + 1.
fn two_thirds_plus_one(m: usize) -> usize {
    2 * m / 3 + 1
}

/// A committee's block session: exactly `t` signers ([`exact_quorum`]), and a new session
/// without whom a failed one named while `t` remain.
fn exactly(
    c: &mut Conductor<Phase>,
    p: &Pipeline<'_>,
    e: &Epoch<'_>,
    row: Label,
    make: impl Fn(&[u16]) -> Phase,
) -> Result<crate::conduct::Done, Failure> {
    loop {
        let Some(signers) = exact_quorum(e.group, e.t, &c.named, p.signing_cheat) else {
            return Err(Failure::local(
                "TOO_FEW_SIGNERS",
                format!("fewer than {} committee members remain that were not named", e.t),
            ));
        };
        match c.phase(row, make(&signers)) {
            Err(f) if !f.culprits.is_empty() => {
                c.named_by_failure(&f);
                say!("    · a new session without them");
            }
            done => return done,
        }
    }
}

/// What one block cost: wall-clock until the validators' signatures were checked at the
/// aggregator, until the certificate was written, and each node's CPU time on it.
struct Timed {
    legs: Duration,
    /// Until the Pulsar leg was in (with no Corona leg: the certificate).
    pulsar: Duration,
    /// The Corona leg: its session and the signature reaching the aggregator.
    corona: Duration,
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
    let (corona50, _) = pick(&|t| t.corona);
    let (pulsar50, _) = pick(&|t| t.pulsar);
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
    let cpu50 = crate::report::median(&cpu);
    let ms = crate::report::ms;
    let per_second = 1.0 / total50.as_secs_f64().max(1e-9);
    // The Corona leg comes last: its session starts when the Pulsar leg is in.
    let corona = if corona50 > Duration::ZERO {
        format!(
            " · the Pulsar leg in at p50 {} ms, then the Corona leg (its session and the signature at the aggregator) \
             p50 {} ms",
            ms(pulsar50),
            ms(corona50)
        )
    } else {
        String::new()
    };
    say!(
        "  devnet: {} blocks · block p50 {} ms, p95 {} ms ({per_second:.2} blocks/s) · of which the validators' BLS, \
         ML-DSA and Magnetar signatures made and checked at the aggregator p50 {} ms, p95 {} ms (its check alone p50 \
         {} ms; the rest: the Pulsar leg, the certificate, its light-client check){corona} · CPU per validator per \
         block {} ms (median)",
        timed.len(),
        ms(total50),
        ms(total95),
        ms(legs50),
        ms(legs95),
        ms(check50),
        ms(cpu50)
    );
}

/// "Announce": the aggregator makes and writes the set of `epoch` (with a Corona key or
/// not) and tells `to`.
fn announce(
    c: &mut Conductor<Phase>,
    (epoch, corona): (u64, bool),
    members: &[u16],
    to: &[u16],
) -> Result<(), Failure> {
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
            "set-{epoch}.qvst: validators {} with the Pulsar group key{}; checked by {} members",
            list(members),
            if corona { " and the Corona one" } else { "" },
            done.parties()
        ),
    );
    Ok(())
}

/// The blocks of one epoch; with `next`, the last one commits to the set the reshare
/// makes, announced just before it.
fn blocks(
    c: &mut Conductor<Phase>,
    p: &Pipeline<'_>,
    e: &Epoch<'_>,
    height: &mut u64,
    next: Option<&Dealing>,
) -> Result<Vec<Timed>, Failure> {
    let (epoch, t) = (e.number, e.t);
    let mut timed = Vec::new();
    for b in 0..p.demo.blocks {
        *height += 1;
        let h = *height;
        let ends_epoch = b + 1 == p.demo.blocks && next.is_some();
        if let (true, Some(d)) = (ends_epoch, next) {
            let members = validators(p, &d.receivers);
            let mut to: Vec<u16> = e.validators.iter().chain(&members).copied().collect();
            to.sort_unstable();
            to.dedup();
            announce(c, (epoch + 1, e.corona.is_some()), &members, &to)?;
        }
        // Whether the block waits for a Corona leg: its signers are chosen after the block's
        // session (they play honestly: Corona cannot name a wrong response).
        let corona_leg = e.corona.map(|(members, _)| members.clone()).unwrap_or_default();
        // The library's devnet block hashes, on a chain seed named by the run.
        let (id, hash) = (
            p.session(&format!("block {h}")),
            block_hash(&p.session("chain"), h),
        );
        let row = BLOCKS[usize::from(epoch > 0)];
        let started = std::time::Instant::now();
        let mark = c.log().len();
        let make = |s: &[u16]| {
            Phase::Block(Block {
                id,
                epoch,
                height: h,
                hash,
                signers: s.to_vec(),
                ends_epoch,
                corona: corona_leg.clone(),
            })
        };
        let done = if e.leaderless {
            exactly(c, p, e, row, make)?
        } else {
            let signers = quorum(e.group, t, &c.named, p.signing_cheat, epoch > 0);
            c.session(row, t, signers, make)?
        };
        let pulsar = done.signers();
        let pulsar_in = started.elapsed();
        // The Corona leg (its quorum without anyone the block named; retried without a
        // garbage sender), then the seal, where a committee's signers also hand over the
        // Pulsar leg; otherwise the combiner's Pulsar signature sealed the block.
        let block = |corona: &[u16]| Block {
            id,
            epoch,
            height: h,
            hash,
            signers: pulsar.clone(),
            ends_epoch,
            corona: corona.to_vec(),
        };
        let (done, corona, corona_wall) = match e.corona {
            None if e.leaderless => (c.phase(row, Phase::Seal(block(&[])))?, Vec::new(), Duration::ZERO),
            None => (done, Vec::new(), Duration::ZERO),
            Some((members, ct)) => {
                let at = std::time::Instant::now();
                let id = p.session(&format!("corona {h}"));
                let signers = quorum(members, *ct, &c.named, None, false);
                let leg = c.session(row, *ct, signers, |s| Phase::CoronaLeg { id, block: block(s) })?;
                let signers = leg.signers();
                (c.phase(row, Phase::Seal(block(&signers)))?, signers, at.elapsed())
            }
        };
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
            pulsar: pulsar_in,
            corona: corona_wall,
            check,
            total: started.elapsed(),
            cpu,
        });
        let commits = if ends_epoch {
            ", committing to the next set"
        } else {
            ""
        };
        let corona = if corona.is_empty() {
            String::new()
        } else {
            format!(", Corona by parties {}", list(&corona))
        };
        c.phase_line(
            row,
            &format!(
                "block {h} in {} ms: cert-{epoch}-{h}.qcrt, {len} bytes: BLS, ML-DSA and Magnetar of {signed} of {of} \
                 validators, Pulsar by parties {}{corona}{commits}; followed by the aggregator's light clients",
                crate::report::ms(started.elapsed()),
                list(&pulsar)
            ),
        );
    }
    Ok(timed)
}
