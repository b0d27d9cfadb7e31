//! Lens: threshold Schnorr signatures (FROST, RFC 9591) on Ed25519, secp256k1 (BIP-340)
//! and Ristretto255, with LSS resharing.

/// Errors from Lens.
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
