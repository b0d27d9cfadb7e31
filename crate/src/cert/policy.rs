//! What a verifier requires of a certificate: the legs ([`LegKind`], [`LegSet`]) and the
//! quorum, named by the operator's posture ([`Policy`]). A policy always comes from the
//! caller; a certificate never says which policy it meets.

use core::fmt;

use super::Error;
use crate::quorum::Quorum;

/// A leg of the certificate, by its wire byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum LegKind {
    /// BLS12-381 aggregate signature of the signers in a bitmap (classical, weighted).
    Bls = 1,
    /// One Pulsar threshold ML-DSA signature under the epoch's group key.
    Pulsar = 2,
    /// One Corona t-of-n threshold lattice signature under the epoch's Corona group key.
    Corona = 3,
    /// The Magnetar aggregate of per-validator SLH-DSA signatures (weighted).
    Magnetar = 4,
    /// Per-validator ML-DSA signatures of the signers in a bitmap (weighted).
    MlDsaSet = 5,
}

impl LegKind {
    /// Every kind, in wire order.
    pub const ALL: [LegKind; 5] = [
        LegKind::Bls,
        LegKind::Pulsar,
        LegKind::Corona,
        LegKind::Magnetar,
        LegKind::MlDsaSet,
    ];

    /// The order in which [`super::verify`] checks signatures: cheapest first.
    /// Pulsar (one ML-DSA verify, ~0.1 ms natively), Corona (one prepared verify, ~0.25 ms),
    /// BLS (two pairings), the ML-DSA set (one verify per signer), Magnetar (one SLH-DSA
    /// verify per signer).
    pub const BY_COST: [LegKind; 5] = [
        LegKind::Pulsar,
        LegKind::Corona,
        LegKind::Bls,
        LegKind::MlDsaSet,
        LegKind::Magnetar,
    ];

    /// The kind of a wire byte.
    ///
    /// # Errors
    /// [`Error::UnknownLeg`].
    pub fn from_byte(b: u8) -> Result<LegKind, Error> {
        LegKind::ALL
            .into_iter()
            .find(|k| *k as u8 == b)
            .ok_or(Error::UnknownLeg(b))
    }

    /// The wire byte.
    pub fn to_byte(self) -> u8 {
        self as u8
    }

    /// The leg's position in [`LegKind::ALL`] (its byte minus one).
    pub fn index(self) -> usize {
        usize::from(self as u8 - 1)
    }

    /// The name used in reports, the CLI and JavaScript.
    pub fn name(self) -> &'static str {
        match self {
            LegKind::Bls => "bls",
            LegKind::Pulsar => "pulsar",
            LegKind::Corona => "corona",
            LegKind::Magnetar => "magnetar",
            LegKind::MlDsaSet => "mldsa-set",
        }
    }

    /// Whether the leg proves a weighted quorum of validators (the Pulsar and Corona legs
    /// prove a threshold of their group instead).
    pub fn is_weighted(self) -> bool {
        matches!(self, LegKind::Bls | LegKind::Magnetar | LegKind::MlDsaSet)
    }
}

impl fmt::Display for LegKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of leg kinds (a bit per kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct LegSet(u8);

impl LegSet {
    /// No leg.
    pub const EMPTY: LegSet = LegSet(0);

    /// The set of `kinds`.
    pub const fn of(kinds: &[LegKind]) -> LegSet {
        let mut bits = 0u8;
        let mut i = 0;
        while i < kinds.len() {
            bits |= 1 << (kinds[i] as u8 - 1);
            i += 1;
        }
        LegSet(bits)
    }

    /// Whether `kind` is in the set.
    pub fn contains(self, kind: LegKind) -> bool {
        self.0 & (1 << kind.index()) != 0
    }

    /// The set with `kind` added.
    pub fn with(self, kind: LegKind) -> LegSet {
        LegSet(self.0 | 1 << kind.index())
    }

    /// The kinds in the set, in wire order.
    pub fn iter(self) -> impl Iterator<Item = LegKind> {
        LegKind::ALL.into_iter().filter(move |k| self.contains(*k))
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// What a verifier requires: the legs that must be present and valid, and the quorum every
/// weighted leg must reach (by default more than two thirds of the set's weight, integers
/// only).
///
/// | name | legs |
/// |---|---|
/// | `pq-off` | BLS |
/// | `pq-fast` | BLS + Pulsar |
/// | `pq-strict` | BLS + Pulsar + Corona |
/// | `pq-heavy` | BLS + Pulsar + Magnetar |
/// | `strict-pq-fast` | Pulsar + ML-DSA set |
/// | `strict-pq-strict` | Pulsar + Corona + ML-DSA set |
/// | `strict-pq-heavy` | Pulsar + Magnetar |
///
/// PQ-strict adds the Corona leg: a threshold signature no aggregator can make alone (the
/// seeds' "never trust the aggregator" tier). The strict variants drop BLS (no classical
/// assumption left) and put a post-quantum weighted leg in its place: the per-validator
/// ML-DSA set for the fast and strict ones, Magnetar for the heavy one. Unlike the
/// reference's mode ladder, `pq-heavy` does not include Corona: Magnetar's hash-based
/// signatures and Corona's lattice threshold answer different questions, and a policy that
/// wants both says so with [`Policy::custom`], which builds any combination with a weighted
/// leg.
/// Legs a certificate carries beyond the policy are reported as [`super::Verdict::NotRequired`]
/// and never checked: they add nothing the verifier asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Policy {
    legs: LegSet,
    quorum: Quorum,
    name: &'static str,
}

impl Policy {
    /// BLS only.
    pub const PQ_OFF: Policy = Policy::preset("pq-off", &[LegKind::Bls]);
    /// BLS + Pulsar.
    pub const PQ_FAST: Policy = Policy::preset("pq-fast", &[LegKind::Bls, LegKind::Pulsar]);
    /// BLS + Pulsar + Magnetar.
    pub const PQ_HEAVY: Policy =
        Policy::preset("pq-heavy", &[LegKind::Bls, LegKind::Pulsar, LegKind::Magnetar]);
    /// BLS + Pulsar + Corona.
    pub const PQ_STRICT: Policy =
        Policy::preset("pq-strict", &[LegKind::Bls, LegKind::Pulsar, LegKind::Corona]);
    /// Pulsar + ML-DSA set, no BLS.
    pub const STRICT_PQ_FAST: Policy =
        Policy::preset("strict-pq-fast", &[LegKind::Pulsar, LegKind::MlDsaSet]);
    /// Pulsar + Corona + ML-DSA set, no BLS.
    pub const STRICT_PQ_STRICT: Policy = Policy::preset(
        "strict-pq-strict",
        &[LegKind::Pulsar, LegKind::Corona, LegKind::MlDsaSet],
    );
    /// Pulsar + Magnetar, no BLS.
    pub const STRICT_PQ_HEAVY: Policy =
        Policy::preset("strict-pq-heavy", &[LegKind::Pulsar, LegKind::Magnetar]);

    /// The named policies, mildest first.
    pub const ALL: [Policy; 7] = [
        Policy::PQ_OFF,
        Policy::PQ_FAST,
        Policy::PQ_STRICT,
        Policy::PQ_HEAVY,
        Policy::STRICT_PQ_FAST,
        Policy::STRICT_PQ_STRICT,
        Policy::STRICT_PQ_HEAVY,
    ];

    const fn preset(name: &'static str, legs: &[LegKind]) -> Policy {
        Policy {
            legs: LegSet::of(legs),
            quorum: Quorum::TWO_THIRDS,
            name,
        }
    }

    /// The named policy (`pq-off`, `pq-fast`, `pq-strict`, `pq-heavy`, `strict-pq-fast`,
    /// `strict-pq-strict`, `strict-pq-heavy`).
    ///
    /// # Errors
    /// [`Error::UnknownPolicy`].
    pub fn from_name(name: &str) -> Result<Policy, Error> {
        Policy::ALL
            .into_iter()
            .find(|p| p.name == name)
            .ok_or(Error::UnknownPolicy)
    }

    /// A policy requiring exactly `legs`, with the default quorum (named `custom`).
    ///
    /// # Errors
    /// [`Error::InvalidPolicy`] for no leg or no weighted leg.
    pub fn custom(legs: LegSet) -> Result<Policy, Error> {
        if legs.is_empty() {
            return Err(Error::InvalidPolicy("no leg"));
        }
        if !legs.iter().any(LegKind::is_weighted) {
            return Err(Error::InvalidPolicy("no weighted leg"));
        }
        Ok(Policy {
            legs,
            quorum: Quorum::TWO_THIRDS,
            name: "custom",
        })
    }

    /// The required legs.
    pub fn legs(&self) -> LegSet {
        self.legs
    }

    /// Whether `kind` is required.
    pub fn requires(&self, kind: LegKind) -> bool {
        self.legs.contains(kind)
    }

    /// The policy's name (`custom` for [`Policy::custom`]).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The quorum every weighted leg must reach ([`crate::quorum`]: more than
    /// numerator / denominator of the set's total weight, integers only).
    pub fn quorum(&self) -> Quorum {
        self.quorum
    }

    /// The same legs with another quorum rule (the name is kept).
    pub fn with_quorum(mut self, quorum: Quorum) -> Policy {
        self.quorum = quorum;
        self
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_custom_policies_are_checked() {
        for p in Policy::ALL {
            assert_eq!(Policy::from_name(p.name()), Ok(p));
            assert!(p.legs().iter().any(LegKind::is_weighted));
        }
        assert_eq!(Policy::from_name("pq-strictest"), Err(Error::UnknownPolicy));
        assert!(Policy::custom(LegSet::of(&[LegKind::Pulsar])).is_err());
        assert!(Policy::custom(LegSet::EMPTY).is_err());
        assert!(Policy::custom(LegSet::of(&[LegKind::Corona])).is_err());
        assert!(Policy::custom(LegSet::of(&[LegKind::Bls, LegKind::Corona])).is_ok());
        assert!(Policy::PQ_STRICT.requires(LegKind::Corona));
        assert!(!Policy::STRICT_PQ_STRICT.requires(LegKind::Bls));
        assert!(Policy::custom(LegSet::of(&[LegKind::MlDsaSet])).is_ok());
        for k in LegKind::ALL {
            assert_eq!(LegKind::from_byte(k.to_byte()), Ok(k));
        }
        assert_eq!(LegKind::from_byte(0), Err(Error::UnknownLeg(0)));
        assert_eq!(LegKind::from_byte(6), Err(Error::UnknownLeg(6)));
    }
}
