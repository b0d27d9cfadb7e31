//! Verifiable secret sharing over a prime-order group: Shamir shares, Lagrange
//! coefficients over the actual participating set, and Pedersen (perfectly hiding) or
//! Feldman commitments.

/// Errors from secret sharing and share verification.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {}

impl Error {
    /// A stable code for this error, as JavaScript sees it.
    pub fn code(&self) -> &'static str {
        match *self {}
    }
}
