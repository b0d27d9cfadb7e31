//! LSS: dynamic resharing of a group secret from (t_old, n_old) to (t_new, n_new) with
//! the group key unchanged.

/// Errors from the LSS protocols.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {}

impl Error {
    /// A stable code for this error, as JavaScript sees it.
    pub fn code(&self) -> &'static str {
        match *self {}
    }

    /// The parties this error blames (empty when nobody is to blame).
    pub fn culprits(&self) -> &[crate::PartyId] {
        match *self {}
    }
}
