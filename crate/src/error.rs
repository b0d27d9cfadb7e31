//! The crate-wide error: every module's error, with a stable code for JS.

use crate::{bls, cert, magnetar, mldsa, quorum, slhdsa, wire};

/// Any error this crate returns. Each module's own error converts into it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An ML-DSA error.
    #[error("ML-DSA: {0}")]
    MlDsa(#[from] mldsa::Error),
    /// An SLH-DSA error.
    #[error("SLH-DSA: {0}")]
    SlhDsa(#[from] slhdsa::Error),
    /// A secret-sharing error.
    #[cfg(feature = "protocols")]
    #[error("VSS: {0}")]
    Vss(#[from] crate::vss::Error),
    /// A resharing-protocol error.
    #[cfg(feature = "protocols")]
    #[error("LSS: {0}")]
    Lss(#[from] crate::lss::Error),
    /// A Lens (FROST) error.
    #[cfg(feature = "protocols")]
    #[error("Lens: {0}")]
    Lens(#[from] crate::lens::Error),
    /// A Pulsar (threshold ML-DSA) error.
    #[cfg(feature = "protocols")]
    #[error("Pulsar: {0}")]
    Pulsar(#[from] crate::pulsar::Error),
    /// A Pulsar committee (threshold ML-DSA without reconstruction) error.
    #[cfg(feature = "protocols")]
    #[error("Pulsar committee: {0}")]
    Committee(#[from] crate::pulsar::committee::Error),
    /// A Corona (two-round threshold lattice signature) error.
    #[cfg(feature = "protocols")]
    #[error("Corona: {0}")]
    Corona(#[from] crate::corona::Error),
    /// A Magnetar (per-validator SLH-DSA, aggregate certificate) error.
    #[error("Magnetar: {0}")]
    Magnetar(#[from] magnetar::Error),
    /// A quorum-rule or weight error.
    #[error("quorum: {0}")]
    Quorum(#[from] quorum::Error),
    /// A BLS12-381 error.
    #[error("BLS: {0}")]
    Bls(#[from] bls::Error),
    /// A finality-certificate, validator-set or light-client error.
    #[error("certificate: {0}")]
    Cert(#[from] cert::Error),
    /// A key-format error (SubjectPublicKeyInfo, PKCS #8, PEM, JWK, COSE_Key).
    #[cfg(not(feature = "light"))]
    #[error("key format: {0}")]
    KeyFormat(#[from] crate::keyfmt::Error),
    /// A decoding error.
    #[error("decoding: {0}")]
    Wire(#[from] wire::Error),
    /// A protocol-party error (a step after the end, a message still awaited).
    #[error("party: {0}")]
    Party(#[from] crate::party::Error),
    /// A key-storage error (sealed snapshots, the snapshot store, persisted keyrings).
    #[cfg(feature = "protocols")]
    #[error("keystore: {0}")]
    Keystore(#[from] crate::keystore::Error),
}

impl Error {
    /// A stable, upper-case code naming the error (what JavaScript sees as `err.code`).
    /// Codes are API: never renamed.
    pub fn code(&self) -> &'static str {
        match self {
            Error::MlDsa(e) => e.code(),
            Error::SlhDsa(e) => e.code(),
            Error::Magnetar(e) => e.code(),
            Error::Quorum(e) => e.code(),
            Error::Bls(e) => e.code(),
            Error::Cert(e) => e.code(),
            Error::Wire(e) => e.code(),
            #[cfg(not(feature = "light"))]
            Error::KeyFormat(e) => e.code(),
            Error::Party(e) => e.code(),
            #[cfg(feature = "protocols")]
            Error::Keystore(e) => e.code(),
            #[cfg(feature = "protocols")]
            Error::Vss(e) => e.code(),
            #[cfg(feature = "protocols")]
            Error::Lss(e) => e.code(),
            #[cfg(feature = "protocols")]
            Error::Lens(e) => e.code(),
            #[cfg(feature = "protocols")]
            Error::Pulsar(e) => e.code(),
            #[cfg(feature = "protocols")]
            Error::Committee(e) => e.code(),
            #[cfg(feature = "protocols")]
            Error::Corona(e) => e.code(),
        }
    }

    /// The module the error came from (`"mldsa"`, …).
    pub fn module(&self) -> &'static str {
        match self {
            Error::MlDsa(_) => "mldsa",
            Error::SlhDsa(_) => "slhdsa",
            Error::Magnetar(_) => "magnetar",
            Error::Quorum(_) => "quorum",
            Error::Bls(_) => "bls",
            Error::Cert(_) => "cert",
            Error::Wire(_) => "wire",
            #[cfg(not(feature = "light"))]
            Error::KeyFormat(_) => "keyfmt",
            Error::Party(_) => "party",
            #[cfg(feature = "protocols")]
            Error::Keystore(_) => "keystore",
            #[cfg(feature = "protocols")]
            Error::Vss(_) => "vss",
            #[cfg(feature = "protocols")]
            Error::Lss(_) => "lss",
            #[cfg(feature = "protocols")]
            Error::Lens(_) => "lens",
            #[cfg(feature = "protocols")]
            Error::Pulsar(_) => "pulsar",
            #[cfg(feature = "protocols")]
            Error::Committee(_) => "committee",
            #[cfg(feature = "protocols")]
            Error::Corona(_) => "corona",
        }
    }

    /// The parties this error blames (empty when nobody is to blame).
    pub fn culprits(&self) -> &[crate::PartyId] {
        match self {
            // Validators are named by `ValidatorId`s inside the Magnetar error, not `PartyId`s.
            Error::MlDsa(_)
            | Error::SlhDsa(_)
            | Error::Magnetar(_)
            | Error::Quorum(_)
            | Error::Bls(_)
            | Error::Cert(_)
            | Error::Wire(_) => &[],
            #[cfg(not(feature = "light"))]
            Error::KeyFormat(_) => &[],
            Error::Party(e) => e.culprits(),
            #[cfg(feature = "protocols")]
            Error::Keystore(_) => &[],
            #[cfg(feature = "protocols")]
            Error::Vss(_) => &[],
            #[cfg(feature = "protocols")]
            Error::Lss(e) => e.culprits(),
            #[cfg(feature = "protocols")]
            Error::Lens(e) => e.culprits(),
            #[cfg(feature = "protocols")]
            Error::Pulsar(e) => e.culprits(),
            #[cfg(feature = "protocols")]
            Error::Committee(e) => e.culprits(),
            #[cfg(feature = "protocols")]
            Error::Corona(e) => e.culprits(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The WebAssembly layer throws ML-DSA and SLH-DSA errors without converting them
    /// (`wasm::scheme_error`, so a one-family module links no other module's messages), with
    /// these prefixes and modules: they must stay what `Error` itself says.
    #[test]
    fn the_wasm_layers_scheme_prefixes_are_errors_own() {
        let e = mldsa::Error::InvalidSignature;
        let any = Error::from(e.clone());
        assert_eq!(
            (any.to_string(), any.module()),
            (alloc::format!("ML-DSA: {e}"), "mldsa")
        );
        let e = slhdsa::Error::InvalidSignature;
        let any = Error::from(e.clone());
        assert_eq!(
            (any.to_string(), any.module()),
            (alloc::format!("SLH-DSA: {e}"), "slhdsa")
        );
    }
}
