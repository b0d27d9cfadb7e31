//! A deterministic development chain (features `sim` or `full`): validators with every key drawn from a
//! labelled seed, the Pulsar group run through the library's own parties on the in-process
//! simulator ([`crate::party::sim`]), and certificates signed by whichever validators the
//! caller names — across epoch changes, with the Pulsar group reshared to the next set under
//! the unchanged key (or a new key, a new era).
//!
//! With [`DevnetConfig::corona`], the first [`CORONA_GROUP_MAX`] validators also hold shares of
//! a Corona key the devnet deals (a trusted dealer: the scheme's key generation), and any
//! two thirds of them plus one sign the Corona leg through the library's `Signer` parties; a
//! changed group is a new key in the next key era.
//!
//! The Pulsar leg is signed either by a custody group of every validator
//! ([`PulsarSigning::Custody`], [`crate::pulsar::custody`]: a combiner rebuilds the key while
//! it signs) or by a committee of the set's first validators ([`PulsarSigning::Committee`],
//! [`crate::pulsar::committee`]: no machine ever holds the key). The certificate and its
//! verifier are the same for both: the leg is one plain ML-DSA signature. Tests, the known-answer
//! vectors, the CLI (`quasar cert build`), the benches and the demo build their chains here;
//! [`chain`] makes a whole one from a [`ChainSpec`] (the full WASM build's `testChain`).
//!
//! ```
//! use quasar_pq::cert::devnet::{Devnet, DevnetConfig, Signers};
//! use quasar_pq::cert::{LightClient, Policy};
//!
//! let config = DevnetConfig { pulsar: Some(quasar_pq::mldsa::Mode::MlDsa44), ..DevnetConfig::default() };
//! let mut chain = Devnet::new(config, &[1, 1, 1, 1]).unwrap();
//! let mut client = LightClient::new(chain.set().clone(), Policy::PQ_FAST).unwrap();
//! let all = Signers::all(4);
//! let cert = chain.certificate(1, 0, [1; 32], &all).unwrap();
//! client.update(&cert, None).unwrap();
//! // The epoch's last block commits to the next set (validator 4 leaves, one joins).
//! let (cert, next) = chain.end_epoch(2, 0, [2; 32], &all, &[3], &[2], false).unwrap();
//! client.update(&cert, Some(next.as_bytes())).unwrap();
//! assert_eq!(client.epoch(), 1);
//! ```
//!
//! # Security
//! Every secret here comes from the configuration's seed: a devnet is for tests and demos,
//! never for keys anyone relies on.

mod chain;
mod committee;
mod corona;
mod group;
mod pulsar;

pub use chain::{
    block_hash, chain, Block, Chain, ChainSpec, MAX_CHAIN_BLOCKS, MAX_CHAIN_EPOCHS, MAX_CHAIN_VALIDATORS,
};
pub use committee::COMMITTEE_MAX;
pub use corona::CORONA_GROUP_MAX;
pub use group::PulsarSigning;

use group::PulsarGroup;

use alloc::vec::Vec;

use zeroize::Zeroizing;

use super::builder::CertificateBuilder;
use super::set::{SetParams, Validator, ValidatorSet};
use super::{LegKind, CORONA_CONTEXT, MAGNETAR_CONTEXT, MLDSA_CONTEXT, PULSAR_CONTEXT};
use crate::hash::{shake256_into, tags, Transcript};
use crate::{bls, magnetar, mldsa, Error, PartyId};

/// What the validators of a devnet hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DevnetConfig {
    /// The chain id.
    pub chain_id: u64,
    /// Every key and every protocol randomness comes from this seed.
    pub seed: [u8; 32],
    /// BLS keys (and the BLS leg).
    pub bls: bool,
    /// Per-validator ML-DSA keys (the ML-DSA-set leg), of this parameter set.
    pub mldsa: Option<mldsa::Mode>,
    /// Per-validator Magnetar (SLH-DSA) keys (the Magnetar leg), of this parameter set.
    pub magnetar: Option<magnetar::Mode>,
    /// A Pulsar group (the Pulsar leg), with this ML-DSA set.
    pub pulsar: Option<mldsa::Mode>,
    /// Who signs the Pulsar leg.
    pub pulsar_signing: PulsarSigning,
    /// A Corona group (the Corona leg): the first [`CORONA_GROUP_MAX`] validators, a key the
    /// devnet deals.
    pub corona: bool,
}

impl Default for DevnetConfig {
    /// Chain 1, seed zero, BLS keys only.
    fn default() -> Self {
        DevnetConfig {
            chain_id: 1,
            seed: [0; 32],
            bls: true,
            mldsa: None,
            magnetar: None,
            pulsar: None,
            pulsar_signing: PulsarSigning::Custody,
            corona: false,
        }
    }
}

/// Which validators sign each leg: positions in the current set, increasing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Signers {
    /// BLS signers.
    pub bls: Vec<usize>,
    /// Pulsar signers: custody, at least the group's threshold; a committee, at least its
    /// threshold among its members (the first that are sign).
    pub pulsar: Vec<usize>,
    /// Corona signers: the first of them in the Corona group, up to its threshold, sign.
    pub corona: Vec<usize>,
    /// ML-DSA-set signers.
    pub mldsa: Vec<usize>,
    /// Magnetar signers.
    pub magnetar: Vec<usize>,
}

impl Signers {
    /// Everyone signs every leg the devnet has.
    pub fn all(n: usize) -> Signers {
        Signers::first(n, n)
    }

    /// The first `k` of `n` validators sign every leg.
    pub fn first(k: usize, n: usize) -> Signers {
        let list: Vec<usize> = (0..k.min(n)).collect();
        Signers {
            bls: list.clone(),
            pulsar: list.clone(),
            corona: list.clone(),
            mldsa: list.clone(),
            magnetar: list,
        }
    }
}

/// One validator's keys.
struct Member {
    number: u16,
    id: [u8; 32],
    weight: u64,
    bls: Option<bls::SigningKey>,
    mldsa: Option<(Vec<u8>, Zeroizing<Vec<u8>>)>,
    magnetar: Option<magnetar::SigningKey>,
}

/// A deterministic chain of epochs (see the module docs).
pub struct Devnet {
    config: DevnetConfig,
    universe: Vec<Member>,
    /// The current validators' numbers, in set order (increasing id).
    members: Vec<u16>,
    epoch: u64,
    key_era: u64,
    set: ValidatorSet,
    pulsar: Option<PulsarGroup>,
    corona: Option<corona::Group>,
    sessions: u64,
}

impl core::fmt::Debug for Devnet {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Devnet")
            .field("set", &self.set)
            .finish_non_exhaustive()
    }
}

/// ⌊2n/3⌋ + 1: the smallest count above two thirds of `n`.
pub fn two_thirds_plus_one(n: usize) -> usize {
    2 * n / 3 + 1
}

impl Devnet {
    /// A chain whose epoch 0 has one validator per weight in `weights`.
    ///
    /// # Errors
    /// A weight of 0, too many validators, or a failure of the Pulsar key ceremony.
    pub fn new(config: DevnetConfig, weights: &[u64]) -> Result<Devnet, Error> {
        let mut net = Devnet {
            config,
            universe: Vec::new(),
            members: Vec::new(),
            epoch: 0,
            key_era: 0,
            set: placeholder_set(),
            pulsar: None,
            corona: None,
            sessions: 0,
        };
        let members: Vec<u16> = weights.iter().map(|&w| net.create(w)).collect::<Result<_, _>>()?;
        net.members = net.sorted(members);
        if let Some(mode) = net.config.pulsar {
            let members = net.members.clone();
            net.pulsar = Some(net.new_group(mode, &members)?);
        }
        if net.config.corona {
            let label = net.label("corona deal");
            net.corona = Some(corona::deal(&label, corona::members_of(&net.members))?);
        }
        net.set = net.make_set(net.epoch, net.key_era, &net.members)?;
        Ok(net)
    }

    /// The current epoch's validator set.
    pub fn set(&self) -> &ValidatorSet {
        &self.set
    }

    /// The current epoch.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// The configuration.
    pub fn config(&self) -> &DevnetConfig {
        &self.config
    }

    /// The Pulsar threshold of the current set, if it has a group: a custody group's, or its
    /// committee's (of [`Devnet::pulsar_members`]).
    pub fn pulsar_threshold(&self) -> Option<usize> {
        self.pulsar.as_ref().map(PulsarGroup::threshold)
    }

    /// The positions in the current set of the Pulsar group's members: every validator for a
    /// custody group, the first min(n, [`COMMITTEE_MAX`]) for a committee.
    pub fn pulsar_members(&self) -> Vec<usize> {
        match &self.pulsar {
            None => Vec::new(),
            Some(PulsarGroup::Custody(_)) => (0..self.members.len()).collect(),
            Some(PulsarGroup::Committee(c)) => (0..self.members.len())
                .filter(|&i| {
                    let id = PartyId::new(self.members[i]);
                    id.is_some_and(|id| c.members().contains(&id))
                })
                .collect(),
        }
    }

    /// The Corona threshold of the current set, if it has a group (⌊2m/3⌋ + 1 of its m
    /// members).
    pub fn corona_threshold(&self) -> Option<usize> {
        self.corona.as_ref().map(corona::Group::threshold)
    }

    /// The positions in the current set of the Corona group's members (the first
    /// min(n, [`CORONA_GROUP_MAX`])).
    pub fn corona_members(&self) -> Vec<usize> {
        (0..self.corona.as_ref().map_or(0, |g| g.members.len())).collect()
    }

    /// A builder for block `(height, round, block_hash)` under the current set.
    pub fn builder(&self, height: u64, round: u32, block_hash: [u8; 32]) -> CertificateBuilder {
        CertificateBuilder::new(&self.set, height, round, block_hash)
    }

    /// Signs `builder`'s message with the `signers` of each leg the devnet has (legs it does
    /// not have, and legs with no signer, are left out) and returns the certificate.
    ///
    /// # Errors
    /// A signer outside the set, too few Pulsar signers, a failed custody session.
    pub fn sign(&mut self, mut builder: CertificateBuilder, signers: &Signers) -> Result<Vec<u8>, Error> {
        let message = builder.message();
        let none = Vec::new();
        let pick = |has: bool, list: &'_ Vec<usize>| if has { list.clone() } else { none.clone() };
        let signers = Signers {
            bls: pick(self.config.bls, &signers.bls),
            pulsar: pick(self.pulsar.is_some(), &signers.pulsar),
            corona: pick(self.corona.is_some(), &signers.corona),
            mldsa: pick(self.config.mldsa.is_some(), &signers.mldsa),
            magnetar: pick(self.config.magnetar.is_some(), &signers.magnetar),
        };
        for &i in &signers.bls {
            let sk = self
                .member(i)?
                .bls
                .as_ref()
                .ok_or(Error::Cert(super::Error::MissingKeys(LegKind::Bls)))?;
            builder.add_bls(i, &sk.sign(&message))?;
        }
        for &i in &signers.mldsa {
            let m = self.member(i)?;
            let (mode, (_, sk)) = self
                .config
                .mldsa
                .zip(m.mldsa.as_ref())
                .ok_or(Error::Cert(super::Error::MissingKeys(LegKind::MlDsaSet)))?;
            builder.add_mldsa(i, &mldsa::sign(mode, sk, &message, MLDSA_CONTEXT, None)?)?;
        }
        for &i in &signers.magnetar {
            let sk = self
                .member(i)?
                .magnetar
                .as_ref()
                .ok_or(Error::Cert(super::Error::MissingKeys(LegKind::Magnetar)))?;
            builder.add_magnetar(i, &sk.sign_deterministic(&message, MAGNETAR_CONTEXT)?)?;
        }
        if !signers.pulsar.is_empty() {
            let numbers: Vec<u16> = signers
                .pulsar
                .iter()
                .map(|&i| self.member(i).map(|m| m.number))
                .collect::<Result<_, _>>()?;
            let ids = self.party_ids(&numbers)?;
            let label = self.label("sign");
            let frame = match &self.pulsar {
                Some(PulsarGroup::Custody(g)) => pulsar::sign(&label, g, &ids, &message, PULSAR_CONTEXT)?,
                Some(PulsarGroup::Committee(c)) => {
                    committee::sign(&label, c, &ids, &message, PULSAR_CONTEXT)?
                }
                None => return Err(Error::Cert(super::Error::MissingKeys(LegKind::Pulsar))),
            };
            builder.pulsar(&frame)?;
        }
        if self.corona.is_some() && !signers.corona.is_empty() {
            let label = self.label("corona sign");
            if let Some(group) = &self.corona {
                // Group positions are set positions: the group is the set's first members.
                builder.corona(&corona::sign(
                    &label,
                    group,
                    &signers.corona,
                    &message,
                    CORONA_CONTEXT,
                )?)?;
            }
        }
        Ok(builder.build()?)
    }

    /// The certificate of block `(height, round, block_hash)` of the current epoch, signed by
    /// `signers`.
    ///
    /// # Errors
    /// As [`Devnet::sign`].
    pub fn certificate(
        &mut self,
        height: u64,
        round: u32,
        block_hash: [u8; 32],
        signers: &Signers,
    ) -> Result<Vec<u8>, Error> {
        let b = self.builder(height, round, block_hash);
        self.sign(b, signers)
    }

    /// The epoch's last block and the next epoch: the validators at positions `leave` go,
    /// one validator per weight in `join` arrives; a Pulsar custody group is reshared to the
    /// next set under the same key (or, with `new_key`, a new key ceremony starts the next key
    /// era); a Pulsar committee whose members change (or with `new_key`) is replaced by a new
    /// committee with a new key, in the next key era. Returns the last block's certificate, signed by `signers` of the current set
    /// and committing to the next set, and the next set; the devnet moves to it.
    ///
    /// # Errors
    /// An empty next set, or as [`Devnet::new`] and [`Devnet::sign`].
    #[allow(clippy::too_many_arguments)]
    pub fn end_epoch(
        &mut self,
        height: u64,
        round: u32,
        block_hash: [u8; 32],
        signers: &Signers,
        leave: &[usize],
        join: &[u64],
        new_key: bool,
    ) -> Result<(Vec<u8>, ValidatorSet), Error> {
        let mut next: Vec<u16> = self
            .members
            .iter()
            .enumerate()
            .filter(|(i, _)| !leave.contains(i))
            .map(|(_, &n)| n)
            .collect();
        for &w in join {
            next.push(self.create(w)?);
        }
        let next = self.sorted(next);
        let (next_group, pulsar_key) = self.next_group(&next, new_key)?;
        let (next_corona, corona_key) = self.next_corona(&next, new_key)?;
        let key_era = self.key_era + u64::from(pulsar_key || corona_key);
        let next_set = {
            let old = core::mem::replace(&mut self.pulsar, next_group);
            let old_corona = core::mem::replace(&mut self.corona, next_corona);
            let made = self.make_set(self.epoch + 1, key_era, &next);
            let new = core::mem::replace(&mut self.pulsar, old);
            let new_corona = core::mem::replace(&mut self.corona, old_corona);
            let set = made?;
            (set, new, new_corona)
        };
        let builder = self.builder(height, round, block_hash).ending_epoch(&next_set.0);
        let certificate = self.sign(builder, signers)?;
        self.pulsar = next_set.1;
        self.corona = next_set.2;
        self.members = next;
        self.epoch += 1;
        self.key_era = key_era;
        self.set = next_set.0.clone();
        Ok((certificate, next_set.0))
    }

    /// The next set's Corona group (validators `next`, set order) and whether it is a new
    /// key: a new deal when `new_key` or the group's members changed, else the same group.
    fn next_corona(&mut self, next: &[u16], new_key: bool) -> Result<(Option<corona::Group>, bool), Error> {
        let Some(group) = &self.corona else {
            return Ok((None, false));
        };
        let members = corona::members_of(next);
        if !new_key && members == group.members {
            return Ok((Some(group.clone()), false));
        }
        let label = self.label("corona deal");
        Ok((Some(corona::deal(&label, members)?), true))
    }

    /// The BLS secret key of the validator at `index` of the current set (to make
    /// signatures the devnet would not, in tests).
    pub fn bls_key(&self, index: usize) -> Option<&bls::SigningKey> {
        self.member(index).ok()?.bls.as_ref()
    }

    /// The ML-DSA secret key of the validator at `index` of the current set.
    pub fn mldsa_key(&self, index: usize) -> Option<&[u8]> {
        Some(&self.member(index).ok()?.mldsa.as_ref()?.1[..])
    }

    /// The Magnetar signing key of the validator at `index` of the current set.
    pub fn magnetar_key(&self, index: usize) -> Option<&magnetar::SigningKey> {
        self.member(index).ok()?.magnetar.as_ref()
    }

    fn member(&self, index: usize) -> Result<&Member, Error> {
        self.members
            .get(index)
            .and_then(|&n| self.universe.get(usize::from(n) - 1))
            .ok_or(Error::Cert(super::Error::UnknownSigner {
                kind: LegKind::Bls,
                index,
            }))
    }

    /// A label unique to this devnet and this call (session ids, party RNGs).
    fn label(&mut self, what: &str) -> Vec<u8> {
        self.sessions += 1;
        let mut l = Vec::from(&self.config.seed[..]);
        l.extend_from_slice(what.as_bytes());
        l.extend_from_slice(&self.sessions.to_be_bytes());
        l
    }

    fn secret(&self, what: &str, number: u16, out: &mut [u8]) {
        let mut t = Transcript::new(tags::SIM_RNG);
        t.append(b"devnet key")
            .append(&self.config.seed)
            .append(what.as_bytes());
        t.append(&number.to_be_bytes());
        let seed: Zeroizing<[u8; 32]> = Zeroizing::new(t.finalize());
        shake256_into(&[&seed[..]], out);
    }

    /// Creates the next validator of the universe.
    fn create(&mut self, weight: u64) -> Result<u16, Error> {
        let number = u16::try_from(self.universe.len() + 1).map_err(|_| too_many())?;
        if usize::from(number) > super::MAX_VALIDATORS * 4 {
            return Err(too_many());
        }
        let mut id = [0u8; 32];
        self.secret("id", number, &mut id);
        let bls = if self.config.bls {
            let mut ikm = Zeroizing::new([0u8; 32]);
            self.secret("bls", number, &mut ikm[..]);
            Some(bls::SigningKey::keygen(&ikm[..], b"")?)
        } else {
            None
        };
        let mldsa = match self.config.mldsa {
            Some(mode) => {
                let mut seed = Zeroizing::new([0u8; 32]);
                self.secret("mldsa", number, &mut seed[..]);
                Some(mldsa::keygen(mode, &seed))
            }
            None => None,
        };
        let magnetar = match self.config.magnetar {
            Some(mode) => {
                let mut seed = Zeroizing::new([0u8; 128]);
                let len = mode.seed_len();
                self.secret("magnetar", number, &mut seed[..len]);
                Some(magnetar::SigningKey::from_seed(mode, &seed[..len])?)
            }
            None => None,
        };
        self.universe.push(Member {
            number,
            id,
            weight,
            bls,
            mldsa,
            magnetar,
        });
        Ok(number)
    }

    /// `numbers` sorted by their validators' ids (set order).
    fn sorted(&self, mut numbers: Vec<u16>) -> Vec<u16> {
        numbers.sort_by_key(|&n| self.universe.get(usize::from(n) - 1).map(|m| m.id));
        numbers
    }

    fn party_ids(&self, numbers: &[u16]) -> Result<Vec<PartyId>, Error> {
        let mut ids: Vec<PartyId> = numbers
            .iter()
            .map(|&n| PartyId::new(n).ok_or(too_many()))
            .collect::<Result<_, _>>()?;
        ids.sort();
        Ok(ids)
    }

    fn make_set(&self, epoch: u64, key_era: u64, numbers: &[u16]) -> Result<ValidatorSet, Error> {
        let params = SetParams {
            chain_id: self.config.chain_id,
            epoch,
            key_era,
            bls: self.config.bls,
            mldsa: self.config.mldsa,
            slhdsa: self.config.magnetar.map(magnetar::Mode::slhdsa),
            pulsar_group_key: self.pulsar.as_ref().map(PulsarGroup::frame).transpose()?,
            corona_group_key: self.corona.as_ref().map(|g| g.key.to_bytes()),
        };
        let validators = numbers
            .iter()
            .filter_map(|&n| self.universe.get(usize::from(n) - 1))
            .map(|m| Validator {
                id: m.id,
                weight: m.weight,
                bls: m
                    .bls
                    .as_ref()
                    .map(|sk| (sk.verifying_key().to_bytes(), sk.prove_possession().to_bytes())),
                mldsa: m.mldsa.as_ref().map(|(pk, _)| pk.clone()),
                slhdsa: m.magnetar.as_ref().map(|k| k.public_key().as_bytes().to_vec()),
            })
            .collect();
        Ok(ValidatorSet::new(&params, validators)?)
    }
}

fn too_many() -> Error {
    Error::Cert(super::Error::Decode(crate::wire::Error::CountTooLarge {
        got: super::MAX_VALIDATORS + 1,
        max: super::MAX_VALIDATORS,
    }))
}

/// A one-validator set standing in until the real one is made (never observable).
fn placeholder_set() -> ValidatorSet {
    let v = Validator {
        id: [0; 32],
        weight: 1,
        bls: None,
        mldsa: None,
        slhdsa: None,
    };
    let params = SetParams {
        bls: false,
        ..SetParams::default()
    };
    match ValidatorSet::new(&params, alloc::vec![v]) {
        Ok(s) => s,
        Err(_) => unreachable!("a one-validator set without keys encodes"),
    }
}
