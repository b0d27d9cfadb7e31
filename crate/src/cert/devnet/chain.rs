//! A whole test chain from one description: [`chain`]`(&`[`ChainSpec`]`)` →
//! [`Chain`]`{ sets, blocks }`, every byte a function of the specification.
//!
//! The devnet starts with `validators` validators of weight 1 holding keys for exactly the
//! legs the policy requires. Each epoch has `blocks` blocks at consecutive heights from 1,
//! block hashes drawn from the seed and the height; the first ⌊2n/3⌋ + 1 validators sign
//! every leg. The last block of every epoch but the last ends it: the validator at position 0
//! leaves, one joins, and the Pulsar group (when the policy has the leg) moves to the next set:
//! a custody group is reshared under the unchanged key; a committee (its first members
//! changed) makes a new key in the next key era. A Corona group (when the policy has the leg;
//! the set's first members) is dealt anew, in the next key era, whenever its members change. So `sets` has one set per epoch and a block carries the
//! next set exactly when it ends its epoch.
//!
//! ```
//! use quasar_pq::cert::devnet::{chain, ChainSpec};
//! use quasar_pq::cert::{LightClient, Policy, ValidatorSet};
//!
//! let made = chain(&ChainSpec { validators: 3, blocks: 2, ..ChainSpec::default() }).unwrap();
//! let mut client = LightClient::new(made.sets[0].clone(), Policy::PQ_FAST).unwrap();
//! for block in &made.blocks {
//!     client.update(&block.certificate, block.next_set.as_ref().map(ValidatorSet::as_bytes)).unwrap();
//! }
//! assert_eq!(client.epoch(), 1);
//! ```
//!
//! # Bounds
//! A caller (the WASM binding's, say) cannot ask for a chain larger than [`MAX_CHAIN_VALIDATORS`]
//! validators, [`MAX_CHAIN_EPOCHS`] epochs or [`MAX_CHAIN_BLOCKS`] blocks in all: such a request, or a
//! count of zero, is refused before anything is made.

use alloc::vec::Vec;

use super::{two_thirds_plus_one, Devnet, DevnetConfig, PulsarSigning, Signers};
use crate::cert::{LegKind, Policy, ValidatorSet};
use crate::hash::{tags, Transcript};
use crate::{magnetar, mldsa, wire, Error};

/// The most validators a test chain has.
pub const MAX_CHAIN_VALIDATORS: usize = 64;
/// The most epochs a test chain has.
pub const MAX_CHAIN_EPOCHS: usize = 8;
/// The most blocks a test chain has, over all its epochs.
pub const MAX_CHAIN_BLOCKS: usize = 64;

/// What [`chain`] makes (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainSpec {
    /// The chain id.
    pub chain_id: u64,
    /// Every key, every block hash and every protocol randomness comes from this seed.
    pub seed: [u8; 32],
    /// Validators per epoch (1 to [`MAX_CHAIN_VALIDATORS`]).
    pub validators: usize,
    /// The policy the chain's certificates meet: the validators hold keys for, and sign,
    /// exactly the legs it requires.
    pub policy: Policy,
    /// Epochs (1 to [`MAX_CHAIN_EPOCHS`]).
    pub epochs: usize,
    /// Blocks per epoch (at least 1; `epochs × blocks` at most [`MAX_CHAIN_BLOCKS`]).
    pub blocks: usize,
    /// The ML-DSA parameter set of the Pulsar group and of the ML-DSA-set leg.
    pub mldsa: mldsa::Mode,
    /// The parameter set of the Magnetar leg.
    pub magnetar: magnetar::Mode,
    /// Who signs the Pulsar leg: a custody group or a committee.
    pub pulsar_signing: PulsarSigning,
}

impl Default for ChainSpec {
    /// Chain 1, seed zero, 4 validators, `pq-fast`, 2 epochs of 3 blocks, ML-DSA-44,
    /// Magnetar-SHAKE-192f, a Pulsar custody group.
    fn default() -> Self {
        ChainSpec {
            chain_id: 1,
            seed: [0; 32],
            validators: 4,
            policy: Policy::PQ_FAST,
            epochs: 2,
            blocks: 3,
            mldsa: mldsa::Mode::MlDsa44,
            magnetar: magnetar::Mode::Shake192f,
            pulsar_signing: PulsarSigning::Custody,
        }
    }
}

/// One block of a [`Chain`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// The block's certificate (`QCRT`).
    pub certificate: Vec<u8>,
    /// The next epoch's set, on an epoch's last block (the certificate commits to it).
    pub next_set: Option<ValidatorSet>,
}

/// A test chain: the set of every epoch, in order, and every block's certificate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chain {
    /// `sets[e]` is epoch `e`'s validator set; `sets[0]` is the checkpoint a client trusts.
    pub sets: Vec<ValidatorSet>,
    /// The blocks, in height order (heights 1, 2, …).
    pub blocks: Vec<Block>,
}

/// The block hash of `height` in a chain of `seed`.
pub fn block_hash(seed: &[u8; 32], height: u64) -> [u8; 32] {
    let mut t = Transcript::new(tags::SIM_RNG);
    t.append(b"devnet block")
        .append(seed)
        .append(&height.to_be_bytes());
    t.finalize()
}

/// Refuses a count outside `1..=max`.
fn bounded(what: &'static str, n: usize, max: usize) -> Result<(), Error> {
    if n == 0 {
        return Err(Error::Wire(wire::Error::InvalidValue(what)));
    }
    if n > max {
        return Err(Error::Wire(wire::Error::CountTooLarge { got: n, max }));
    }
    Ok(())
}

/// Makes the chain `spec` describes (see the module docs).
///
/// # Errors
/// A count of zero (`INVALID_VALUE`) or over its bound (`COUNT_TOO_LARGE`); otherwise as
/// [`Devnet::new`] and [`Devnet::end_epoch`] (never for an honest run).
pub fn chain(spec: &ChainSpec) -> Result<Chain, Error> {
    bounded(
        "validator count (at least 1)",
        spec.validators,
        MAX_CHAIN_VALIDATORS,
    )?;
    bounded("epoch count (at least 1)", spec.epochs, MAX_CHAIN_EPOCHS)?;
    bounded(
        "block count (at least 1 per epoch)",
        spec.blocks,
        MAX_CHAIN_BLOCKS,
    )?;
    bounded(
        "block count (at least 1 per epoch)",
        spec.epochs.saturating_mul(spec.blocks),
        MAX_CHAIN_BLOCKS,
    )?;
    let has = |kind| spec.policy.requires(kind);
    let config = DevnetConfig {
        chain_id: spec.chain_id,
        seed: spec.seed,
        bls: has(LegKind::Bls),
        mldsa: has(LegKind::MlDsaSet).then_some(spec.mldsa),
        magnetar: has(LegKind::Magnetar).then_some(spec.magnetar),
        pulsar: has(LegKind::Pulsar).then_some(spec.mldsa),
        pulsar_signing: spec.pulsar_signing,
        corona: has(LegKind::Corona),
    };
    let mut net = Devnet::new(config, &alloc::vec![1; spec.validators])?;
    let mut sets = alloc::vec![net.set().clone()];
    let mut blocks = Vec::with_capacity(spec.epochs * spec.blocks);
    let signers = Signers::first(two_thirds_plus_one(spec.validators), spec.validators);
    let mut height = 0u64;
    for epoch in 0..spec.epochs {
        for b in 0..spec.blocks {
            height += 1;
            let hash = block_hash(&spec.seed, height);
            if b + 1 < spec.blocks || epoch + 1 == spec.epochs {
                let certificate = net.certificate(height, 0, hash, &signers)?;
                blocks.push(Block {
                    certificate,
                    next_set: None,
                });
            } else {
                let (certificate, next) = net.end_epoch(height, 0, hash, &signers, &[0], &[1], false)?;
                sets.push(next.clone());
                blocks.push(Block {
                    certificate,
                    next_set: Some(next),
                });
            }
        }
    }
    Ok(Chain { sets, blocks })
}
