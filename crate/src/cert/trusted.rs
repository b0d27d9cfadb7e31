//! A validator set the verifier trusts, with every key validated and prepared once.

use alloc::vec::Vec;

use super::set::{ValidatorSet, ValidatorSetView};
use super::Error;
use crate::bls::{self, PreparedSet, ProofOfPossession, VerifyingKey};
use crate::corona::{self, PreparedGroupKey};
use crate::magnetar::{self, Registry, ValidatorId};
use crate::mldsa::{self, PreparedPublicKey};
use crate::pulsar::frame::GroupKeyFrame;

/// A validator set prepared for verifying certificates: what a light client keeps per epoch.
///
/// Building it is the expensive, once-per-epoch step: every BLS key is decompressed and
/// validated (KeyValidate) and its proof of possession verified, the full-set aggregate key
/// is summed ([`crate::bls::PreparedSet`]); every ML-DSA key (the validators' and the Pulsar
/// group key) is expanded for repeated verification, and so is the Corona group key (A and
/// 2^ξ·b̃ in the NTT domain, [`crate::corona::PreparedGroupKey`]); the SLH-DSA keys, when of a Magnetar
/// mode, become a [`crate::magnetar::Registry`]. Certificates are then checked against
/// it at the cost of one verification per leg (per signer for the per-validator legs).
///
/// # Security
/// The set itself must come from somewhere the caller trusts: a checkpoint, or a certificate
/// final under the previous set that commits to this set's root ([`super::LightClient`]).
#[derive(Clone)]
pub struct TrustedSet {
    set: ValidatorSet,
    weights: Vec<u64>,
    bls: Option<PreparedSet>,
    mldsa: Vec<PreparedPublicKey>,
    pulsar: Option<PreparedPublicKey>,
    corona: Option<PreparedGroupKey>,
    magnetar: Option<Registry>,
}

impl core::fmt::Debug for TrustedSet {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TrustedSet")
            .field("set", &self.set)
            .finish_non_exhaustive()
    }
}

impl TrustedSet {
    /// Validates and prepares every key of `set` (see the type's docs).
    ///
    /// # Errors
    /// [`Error::InvalidBlsKey`] naming the first validator whose BLS key does not decode, is
    /// repeated, or whose proof of possession does not verify; [`Error::InvalidMlDsaKey`]
    /// for a Pulsar group key of the wrong length; [`Error::DuplicateMlDsaKey`] for one
    /// ML-DSA key registered by two validators (a copied signature would count twice);
    /// [`Error::Magnetar`] for SLH-DSA keys that make no registry (a key given to two
    /// validators).
    pub fn new(set: ValidatorSet) -> Result<TrustedSet, Error> {
        let view = set.view();
        let weights = view.entries().map(|e| e.weight).collect();
        let bls = if view.has_bls() {
            Some(prepare_bls(&view)?)
        } else {
            None
        };
        let mldsa = match view.mldsa_mode() {
            Some(mode) => {
                distinct_mldsa_keys(&view)?;
                view.entries()
                    .map(|e| {
                        PreparedPublicKey::new(mode, e.mldsa_public_key.unwrap_or_default())
                            .map_err(Error::InvalidMlDsaKey)
                    })
                    .collect::<Result<Vec<_>, _>>()?
            }
            None => Vec::new(),
        };
        let pulsar = match view.pulsar_group_key() {
            Some(frame) => {
                let frame = GroupKeyFrame::decode(frame)?;
                Some(PreparedPublicKey::new(frame.mode, frame.public_key).map_err(Error::InvalidMlDsaKey)?)
            }
            None => None,
        };
        let corona = match view.corona_group_key() {
            Some(frame) => Some(
                corona::GroupKey::from_bytes(frame)
                    .map_err(Error::Corona)?
                    .prepare(),
            ),
            None => None,
        };
        let magnetar = match view
            .slhdsa_mode()
            .and_then(|m| magnetar::Mode::from_byte(m.to_byte()))
        {
            Some(mode) => Some(prepare_magnetar(&view, mode)?),
            None => None,
        };
        Ok(TrustedSet {
            set,
            weights,
            bls,
            mldsa,
            pulsar,
            corona,
            magnetar,
        })
    }

    /// [`TrustedSet::new`] from a `QVST` encoding.
    ///
    /// # Errors
    /// As [`ValidatorSet::from_bytes`], then as [`TrustedSet::new`].
    pub fn from_bytes(bytes: &[u8]) -> Result<TrustedSet, Error> {
        TrustedSet::new(ValidatorSet::from_bytes(bytes)?)
    }

    /// The validator set.
    pub fn set(&self) -> &ValidatorSet {
        &self.set
    }

    /// The set's borrowed view.
    pub fn view(&self) -> ValidatorSetView<'_> {
        self.set.view()
    }

    /// The set's root.
    pub fn root(&self) -> &[u8; 32] {
        self.set.root()
    }

    /// The epoch.
    pub fn epoch(&self) -> u64 {
        self.set.epoch()
    }

    /// The total weight.
    pub fn total_weight(&self) -> u64 {
        self.set.total_weight()
    }

    /// The weight of validator `index` (0 beyond the set).
    pub(crate) fn weight(&self, index: usize) -> u64 {
        self.weights.get(index).copied().unwrap_or(0)
    }

    pub(crate) fn bls(&self) -> Option<&PreparedSet> {
        self.bls.as_ref()
    }

    pub(crate) fn mldsa_key(&self, index: usize) -> Option<&PreparedPublicKey> {
        self.mldsa.get(index)
    }

    pub(crate) fn mldsa_mode(&self) -> Option<mldsa::Mode> {
        self.set.view().mldsa_mode()
    }

    pub(crate) fn pulsar(&self) -> Option<&PreparedPublicKey> {
        self.pulsar.as_ref()
    }

    pub(crate) fn corona(&self) -> Option<&PreparedGroupKey> {
        self.corona.as_ref()
    }

    pub(crate) fn magnetar(&self) -> Option<&Registry> {
        self.magnetar.as_ref()
    }
}

/// Refuses a set in which two validators registered one ML-DSA key: the ML-DSA-set leg
/// counts a signature per bitmap slot, so a copied key (and signature) would add the
/// weight of a validator that holds no secret. BLS and SLH-DSA keys are checked the same
/// way by [`PreparedSet`] and [`Registry`].
fn distinct_mldsa_keys(view: &ValidatorSetView<'_>) -> Result<(), Error> {
    let mut keys: Vec<(&[u8], usize)> = view
        .entries()
        .enumerate()
        .map(|(i, e)| (e.mldsa_public_key.unwrap_or_default(), i))
        .collect();
    crate::sort::heapsort(&mut keys);
    match keys.windows(2).find(|w| w[0].0 == w[1].0) {
        Some(w) => Err(Error::DuplicateMlDsaKey {
            first: w[0].1.min(w[1].1),
            second: w[0].1.max(w[1].1),
        }),
        None => Ok(()),
    }
}

/// The set's SLH-DSA keys and weights as a Magnetar registry (same ids, same order).
fn prepare_magnetar(view: &ValidatorSetView<'_>, mode: magnetar::Mode) -> Result<Registry, Error> {
    let validators = view
        .entries()
        .map(|e| {
            Ok(magnetar::Validator {
                id: ValidatorId(*e.id),
                key: magnetar::PublicKey::from_bytes(mode, e.slhdsa_public_key.unwrap_or_default())
                    .map_err(Error::Magnetar)?,
                weight: e.weight,
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    Registry::new(mode, validators).map_err(Error::Magnetar)
}

/// Decodes and validates every BLS key and proof, verifies the proofs and sums the keys.
fn prepare_bls(view: &ValidatorSetView<'_>) -> Result<PreparedSet, Error> {
    let members = view
        .entries()
        .enumerate()
        .map(|(index, e)| {
            let bad = |error| Error::InvalidBlsKey { index, error };
            let (Some(pk), Some(pop)) = (e.bls_public_key, e.bls_pop) else {
                return Err(bad(bls::Error::Empty { what: "BLS key" }));
            };
            Ok((
                VerifyingKey::from_bytes(pk).map_err(bad)?,
                ProofOfPossession::from_bytes(pop).map_err(bad)?,
            ))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    PreparedSet::new(&members).map_err(|error| Error::InvalidBlsKey {
        index: match &error {
            bls::Error::InvalidProofOfPossession { index } => *index,
            bls::Error::DuplicateKey { second, .. } => *second,
            _ => 0,
        },
        error,
    })
}
