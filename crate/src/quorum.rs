//! Weighted quorum rules in integers only: a rational threshold `numerator / denominator`
//! that the signed share of the total weight must **strictly** exceed.
//!
//! Widths: each weight is a `u64`; a total is a `u64` too (a sum that does not fit is
//! [`Error::WeightOverflow`], never wrapped); the rule's numerator and denominator are
//! `u64`; the comparison `signed × denominator > total × numerator` is computed in `u128`,
//! where a product of two `u64` always fits, so no rounding or float ever enters a verdict.
//!
//! The default is two thirds: `signed × 3 > total × 2`, the Byzantine bound for n ≥ 3f + 1.
//!
//! ```
//! use quasar_pq::quorum::Quorum;
//!
//! let q = Quorum::default(); // 2/3
//! assert_eq!(q.is_met(67, 100), Ok(true));
//! assert_eq!(q.is_met(66, 99), Ok(false)); // exactly 2/3 is not more than 2/3
//! assert_eq!(q.min_weight(99), Ok(67));
//! ```

/// Errors from quorum rules and weight sums.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A rule with a zero denominator, or a numerator not below the denominator (such a
    /// rule could never be met, since the signed weight cannot exceed the total).
    #[error("invalid quorum {numerator}/{denominator}: needs 0 ≤ numerator < denominator")]
    InvalidQuorum {
        /// The numerator given.
        numerator: u64,
        /// The denominator given.
        denominator: u64,
    },
    /// The total weight is zero (an empty validator set, or every weight zero): no
    /// quorum means anything then.
    #[error("total weight is zero")]
    ZeroTotalWeight,
    /// A sum of weights does not fit in a `u64`.
    #[error("weights sum to more than 2^64 - 1")]
    WeightOverflow,
    /// A signed weight above the total it is a part of (a caller's bookkeeping error).
    #[error("signed weight {signed} exceeds the total {total}")]
    WeightExceedsTotal {
        /// The signed weight given.
        signed: u64,
        /// The total weight given.
        total: u64,
    },
    /// The signed weight does not strictly exceed the rule's share of the total.
    #[error("quorum not met: {signed} of {total} signed, more than {numerator}/{denominator} needed")]
    QuorumNotMet {
        /// The signed weight.
        signed: u64,
        /// The total weight.
        total: u64,
        /// The rule's numerator.
        numerator: u64,
        /// The rule's denominator.
        denominator: u64,
    },
}

impl Error {
    /// A stable code for this error, as JavaScript sees it.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidQuorum { .. } => "INVALID_QUORUM",
            Error::ZeroTotalWeight => "ZERO_TOTAL_WEIGHT",
            Error::WeightOverflow => "WEIGHT_OVERFLOW",
            Error::WeightExceedsTotal { .. } => "WEIGHT_EXCEEDS_TOTAL",
            Error::QuorumNotMet { .. } => "QUORUM_NOT_MET",
        }
    }
}

/// A quorum rule: met when `signed × denominator > total × numerator`, that is when the
/// signed weight is strictly more than `numerator / denominator` of the total.
///
/// Built only through [`Quorum::new`] (or [`Quorum::TWO_THIRDS`], the default), so every
/// value has `denominator > 0` and `numerator < denominator`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Quorum {
    numerator: u64,
    denominator: u64,
}

impl Default for Quorum {
    fn default() -> Self {
        Quorum::TWO_THIRDS
    }
}

impl Quorum {
    /// More than two thirds of the weight: `signed × 3 > total × 2`.
    pub const TWO_THIRDS: Quorum = Quorum {
        numerator: 2,
        denominator: 3,
    };

    /// The rule "more than `numerator / denominator` of the total weight". A zero numerator
    /// is allowed (any positive signed weight meets it). The fraction is kept as given, not
    /// reduced: 4/6 and 2/3 decide alike.
    ///
    /// # Errors
    /// [`Error::InvalidQuorum`] when `denominator` is 0 or `numerator ≥ denominator`.
    pub const fn new(numerator: u64, denominator: u64) -> Result<Quorum, Error> {
        if denominator == 0 || numerator >= denominator {
            return Err(Error::InvalidQuorum {
                numerator,
                denominator,
            });
        }
        Ok(Quorum {
            numerator,
            denominator,
        })
    }

    /// The numerator (`u64`).
    pub const fn numerator(&self) -> u64 {
        self.numerator
    }

    /// The denominator (`u64`, never 0).
    pub const fn denominator(&self) -> u64 {
        self.denominator
    }

    fn check_inputs(signed: u64, total: u64) -> Result<(), Error> {
        if total == 0 {
            return Err(Error::ZeroTotalWeight);
        }
        if signed > total {
            return Err(Error::WeightExceedsTotal { signed, total });
        }
        Ok(())
    }

    /// Whether `signed` of `total` weight meets the rule.
    ///
    /// # Errors
    /// [`Error::ZeroTotalWeight`], [`Error::WeightExceedsTotal`].
    pub fn is_met(&self, signed: u64, total: u64) -> Result<bool, Error> {
        Self::check_inputs(signed, total)?;
        // u64 × u64 < 2^128: these products cannot overflow; checked anyway so that a
        // future change of widths fails loudly instead of wrapping.
        let lhs = u128::from(signed).checked_mul(u128::from(self.denominator));
        let rhs = u128::from(total).checked_mul(u128::from(self.numerator));
        match (lhs, rhs) {
            (Some(l), Some(r)) => Ok(l > r),
            _ => Err(Error::WeightOverflow),
        }
    }

    /// `Ok(())` when `signed` of `total` meets the rule.
    ///
    /// # Errors
    /// [`Error::QuorumNotMet`], and as [`Quorum::is_met`].
    pub fn check(&self, signed: u64, total: u64) -> Result<(), Error> {
        if self.is_met(signed, total)? {
            Ok(())
        } else {
            Err(Error::QuorumNotMet {
                signed,
                total,
                numerator: self.numerator,
                denominator: self.denominator,
            })
        }
    }

    /// The least signed weight that meets the rule for `total`:
    /// `floor(total × numerator / denominator) + 1`, at most `total`.
    ///
    /// # Errors
    /// [`Error::ZeroTotalWeight`].
    pub fn min_weight(&self, total: u64) -> Result<u64, Error> {
        Self::check_inputs(0, total)?;
        let floor = u128::from(total) * u128::from(self.numerator) / u128::from(self.denominator);
        // numerator < denominator, so floor < total and floor + 1 ≤ total fits in u64.
        u64::try_from(floor + 1).map_err(|_| Error::WeightOverflow)
    }
}

/// The sum of `weights` (each a `u64`), refusing an overflow and a zero total: the total
/// weight of a validator set as a quorum rule needs it.
///
/// # Errors
/// [`Error::WeightOverflow`], [`Error::ZeroTotalWeight`].
pub fn total_weight(weights: impl IntoIterator<Item = u64>) -> Result<u64, Error> {
    let mut total = 0u64;
    for w in weights {
        total = total.checked_add(w).ok_or(Error::WeightOverflow)?;
    }
    if total == 0 {
        return Err(Error::ZeroTotalWeight);
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_thirds_is_strict() {
        let q = Quorum::default();
        assert_eq!((q.numerator(), q.denominator()), (2, 3));
        assert_eq!(q.is_met(2, 3), Ok(false));
        assert_eq!(q.is_met(3, 3), Ok(true));
        assert_eq!(q.is_met(14, 21), Ok(false));
        assert_eq!(q.is_met(15, 21), Ok(true));
        assert_eq!(q.min_weight(21), Ok(15));
        assert_eq!(q.min_weight(1), Ok(1));
        assert_eq!(q.min_weight(u64::MAX), Ok(u64::MAX / 3 * 2 + 1));
        assert!(q.check(14, 21).is_err());
        for total in 1..200u64 {
            let m = q.min_weight(total).unwrap();
            assert_eq!(q.is_met(m, total), Ok(true));
            assert_eq!(q.is_met(m - 1, total), Ok(false));
        }
    }

    #[test]
    fn bad_rules_and_inputs_are_typed_errors() {
        assert!(Quorum::new(1, 0).is_err());
        assert!(Quorum::new(0, 0).is_err());
        assert!(Quorum::new(3, 3).is_err());
        assert!(Quorum::new(4, 3).is_err());
        let any = Quorum::new(0, 1).unwrap();
        assert_eq!(any.is_met(0, 5), Ok(false));
        assert_eq!(any.is_met(1, 5), Ok(true));
        assert_eq!(Quorum::default().is_met(0, 0), Err(Error::ZeroTotalWeight));
        assert_eq!(
            Quorum::default().is_met(2, 1),
            Err(Error::WeightExceedsTotal { signed: 2, total: 1 })
        );
        let big = Quorum::new(u64::MAX - 1, u64::MAX).unwrap();
        assert_eq!(big.is_met(u64::MAX, u64::MAX), Ok(true));
        assert_eq!(big.is_met(u64::MAX - 1, u64::MAX), Ok(false));
        assert_eq!(total_weight([u64::MAX, 1]), Err(Error::WeightOverflow));
        assert_eq!(total_weight([0, 0]), Err(Error::ZeroTotalWeight));
        assert_eq!(total_weight([]), Err(Error::ZeroTotalWeight));
        assert_eq!(total_weight([u64::MAX - 1, 1]), Ok(u64::MAX));
    }
}
