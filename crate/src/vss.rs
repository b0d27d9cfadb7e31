//! Verifiable secret sharing over a prime-order group: Shamir shares, Lagrange
//! coefficients over the actual participating set, and Pedersen (perfectly hiding) or
//! Feldman commitments.
//!
//! - [`Curve`] abstracts the group ([`Ed25519`], [`Ristretto255`], [`Secp256k1`]) with
//!   strict canonical encodings and a second generator `H` from hash-to-curve of the
//!   public tag `QUASAR-LSS-COMMIT-v1` ([`group`] documents each derivation).
//! - [`Polynomial`], [`lagrange_coefficients`], [`reconstruct`] ([`shamir`]).
//! - [`Commitments`], [`Share`], [`Mode`] ([`commit`]).
//!
//! The distributed protocols built on these (DKG, refresh, reshare, complaints and blame)
//! live in [`crate::lss`].
//!
//! ```
//! use quasar_pq::vss::{Commitments, Curve, Mode, Polynomial, Ristretto255, Share};
//! use quasar_pq::PartyId;
//! use rand_core::SeedableRng;
//!
//! let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
//! let secret = quasar_pq::vss::group::random_scalar::<Ristretto255>(&mut rng);
//! let f = Polynomial::<Ristretto255>::random(secret, 2, &mut rng).unwrap();
//! let b = Polynomial::<Ristretto255>::random(secret, 2, &mut rng).unwrap();
//! let c = Commitments::commit(Mode::Pedersen, &f, Some(&b)).unwrap();
//! let id = PartyId::new(3).unwrap();
//! c.verify_share(id, &Share::new(f.evaluate(id), b.evaluate(id))).unwrap();
//! ```

pub(crate) mod batch;
pub mod commit;
mod curve_id;
pub mod group;
pub mod shamir;

pub use commit::{Commitments, Mode, Share};
pub use curve_id::CurveId;
pub(crate) use curve_id::{cast, cast_ref, with_curve};
pub use group::Curve;
#[cfg(feature = "ed25519")]
pub use group::Ed25519;
#[cfg(feature = "ristretto255")]
pub use group::Ristretto255;
#[cfg(feature = "secp256k1")]
pub use group::Secp256k1;
pub use shamir::{lagrange_coefficient, lagrange_coefficients, party_scalar, reconstruct, Polynomial};

use crate::PartyId;

/// Errors from secret sharing and share verification.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A participant set is empty.
    #[error("empty participant set")]
    EmptySet,
    /// A participant set lists a party twice.
    #[error("{party} is listed twice")]
    DuplicateParty {
        /// The repeated party.
        party: PartyId,
    },
    /// A party is not in the set it was looked up in.
    #[error("{party} is not in the set")]
    PartyNotInSet {
        /// The party.
        party: PartyId,
    },
    /// A threshold is zero or above the number of parties.
    #[error("threshold {threshold} is invalid for {parties} parties")]
    InvalidThreshold {
        /// The threshold asked for.
        threshold: usize,
        /// The number of parties.
        parties: usize,
    },
    /// A share does not open the commitments at the party's id.
    #[error("the share of {party} does not match the commitments")]
    InvalidShare {
        /// Whose share.
        party: PartyId,
    },
    /// Pedersen mode was asked for without blinds.
    #[error("commitment mode mismatch")]
    ModeMismatch,
    /// Two vectors that must have the same length do not.
    #[error("length mismatch: expected {expected}, got {got}")]
    LengthMismatch {
        /// Required length.
        expected: usize,
        /// Actual length.
        got: usize,
    },
    /// A field inversion met zero (impossible for distinct non-zero party ids).
    #[error("degenerate interpolation set")]
    Degenerate,
}

impl Error {
    /// A stable code for this error, as JavaScript sees it.
    pub fn code(&self) -> &'static str {
        match self {
            Error::EmptySet => "EMPTY_SET",
            Error::DuplicateParty { .. } => "DUPLICATE_PARTY",
            Error::PartyNotInSet { .. } => "PARTY_NOT_IN_SET",
            Error::InvalidThreshold { .. } => "INVALID_THRESHOLD",
            Error::InvalidShare { .. } => "INVALID_SHARE",
            Error::ModeMismatch => "MODE_MISMATCH",
            Error::LengthMismatch { .. } => "LENGTH_MISMATCH",
            Error::Degenerate => "DEGENERATE_SET",
        }
    }
}
