//! The crate-wide error: every module's error, with a stable code for JS.

use crate::{mldsa, wire};

/// Any error this crate returns. Each module's own error converts into it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An ML-DSA error.
    #[error("ML-DSA: {0}")]
    MlDsa(#[from] mldsa::Error),
    /// A decoding error.
    #[error("decoding: {0}")]
    Wire(#[from] wire::Error),
}

impl Error {
    /// A stable, upper-case code naming the error (what JavaScript sees as `err.code`).
    /// Codes are API: never renamed.
    pub fn code(&self) -> &'static str {
        match self {
            Error::MlDsa(e) => e.code(),
            Error::Wire(e) => e.code(),
        }
    }

    /// The module the error came from (`"mldsa"`, …).
    pub fn module(&self) -> &'static str {
        match self {
            Error::MlDsa(_) => "mldsa",
            Error::Wire(_) => "wire",
        }
    }
}
