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

mod aggregator;
mod validator;

pub(crate) use aggregator::Aggregator;
pub(crate) use validator::Keys;

use core::time::Duration;
use std::collections::BTreeMap;

use quasar_pq::cert::devnet::block_hash;
use quasar_pq::cert::{CertificateBuilder, Policy, ValidatorSet};
use quasar_pq::magnetar;
use quasar_pq::mldsa::Mode;

use crate::conduct::{list, quorum, range, Conductor, Event, Label};
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
    let cpu50 = crate::report::median(&cpu);
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
        // The library's devnet block hashes, on a chain seed named by the run.
        let (id, hash) = (
            p.session(&format!("block {h}")),
            block_hash(&p.session("chain"), h),
        );
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
