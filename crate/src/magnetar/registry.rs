//! The validator registry an aggregate certificate is verified against: validator id →
//! (`MAGG` key, weight), kept in ascending id order.

use alloc::vec::Vec;

use super::keys::PublicKey;
use super::{Error, Mode};
use crate::quorum;

/// The most validators a registry holds (and so the most signers a certificate names).
pub const MAX_VALIDATORS: usize = 1024;

/// A validator's 32-byte identifier (the reference's node id width). Ordered as bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValidatorId(pub [u8; 32]);

impl core::fmt::Debug for ValidatorId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "ValidatorId(")?;
        for b in &self.0[..6] {
            write!(f, "{b:02x}")?;
        }
        write!(f, "…)")
    }
}

impl core::fmt::Display for ValidatorId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for b in &self.0[..6] {
            write!(f, "{b:02x}")?;
        }
        write!(f, "…")
    }
}

/// One registered validator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validator {
    /// Its identifier.
    pub id: ValidatorId,
    /// Its SLH-DSA public key (the registered key is what signatures are checked under).
    pub key: PublicKey,
    /// Its voting weight (`u64`; zero is allowed and counts for nothing).
    pub weight: u64,
}

/// A validator set of one mode: ids unique, keys unique, total weight a nonzero `u64`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registry {
    mode: Mode,
    validators: Vec<Validator>,
    total_weight: u64,
}

impl Registry {
    /// A registry of `validators` (in any order; kept sorted by id).
    ///
    /// # Errors
    /// `TOO_MANY_KEYS` over [`MAX_VALIDATORS`]; `WRONG_MODE` for a key of another mode;
    /// `DUPLICATE_VALIDATOR` for an id given twice; `DUPLICATE_KEY` for a key given to two
    /// validators (one signature would count twice); `WEIGHT_OVERFLOW` when the weights
    /// do not sum into a `u64`; `ZERO_TOTAL_WEIGHT` when they sum to zero (an empty set
    /// included).
    pub fn new(mode: Mode, mut validators: Vec<Validator>) -> Result<Self, Error> {
        if validators.len() > MAX_VALIDATORS {
            return Err(Error::TooManyValidators {
                got: validators.len(),
                max: MAX_VALIDATORS,
            });
        }
        if let Some(v) = validators.iter().find(|v| v.key.mode() != mode) {
            return Err(Error::WrongMode {
                expected: mode,
                got: v.key.mode(),
            });
        }
        validators.sort_by_key(|v| v.id);
        if let Some(w) = validators.windows(2).find(|w| w[0].id == w[1].id) {
            return Err(Error::DuplicateValidator { id: w[0].id });
        }
        let mut by_key: Vec<(&[u8], ValidatorId)> =
            validators.iter().map(|v| (v.key.as_bytes(), v.id)).collect();
        by_key.sort_unstable();
        if let Some(w) = by_key.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(Error::DuplicateKey {
                first: w[0].1,
                second: w[1].1,
            });
        }
        let total_weight = quorum::total_weight(validators.iter().map(|v| v.weight))?;
        Ok(Registry {
            mode,
            validators,
            total_weight,
        })
    }

    /// The mode of every key.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The validators, in ascending id order.
    pub fn validators(&self) -> &[Validator] {
        &self.validators
    }

    /// How many validators.
    pub fn len(&self) -> usize {
        self.validators.len()
    }

    /// Never true: a registry has a nonzero total weight, so at least one validator.
    pub fn is_empty(&self) -> bool {
        self.validators.is_empty()
    }

    /// The sum of all weights (nonzero).
    pub fn total_weight(&self) -> u64 {
        self.total_weight
    }

    /// The validator with id `id`.
    pub fn get(&self, id: &ValidatorId) -> Option<&Validator> {
        self.position(id).map(|i| &self.validators[i])
    }

    /// The position of `id` in [`Registry::validators`].
    pub fn position(&self, id: &ValidatorId) -> Option<usize> {
        self.validators.binary_search_by(|v| v.id.cmp(id)).ok()
    }
}
