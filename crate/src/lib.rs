//! # quasar-pq
//!
//! Post-quantum consensus certificates, natively and in WebAssembly.
//!
//! This release provides **ML-DSA** (FIPS 204), written on the `sha3` crate: key
//! generation from a 32-byte seed, hedged and deterministic signing through the pure
//! interface with a context string, the internal and external-μ interfaces (in
//! [`mldsa::hazmat`]), verification, and the standard byte encodings; and **SLH-DSA**
//! (FIPS 205, the six SHAKE sets) in [`slhdsa`]: key generation from seeds, hedged and
//! deterministic pure signing with a context, verification and batch verification, the
//! internal interface in [`slhdsa::hazmat`].
//!
//! ```
//! use quasar_pq::mldsa::{MlDsa65, SigningKey};
//!
//! let sk = SigningKey::<MlDsa65>::from_seed(&[7u8; 32]);
//! let vk = sk.verifying_key();
//! let sig = sk.sign_deterministic(b"block 42", b"example").unwrap();
//! assert!(vk.verify(b"block 42", b"example", &sig).is_ok());
//! assert!(vk.verify(b"block 43", b"example", &sig).is_err());
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(unsafe_code)] // allowed in hash::keccak_x4 (AVX2 after detection) and ct (value barrier, Valgrind requests)
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

extern crate alloc;

pub mod bls;
pub mod cert;
#[cfg(feature = "ct-check")]
pub mod ct;
#[cfg(not(feature = "ct-check"))]
mod ct;
mod error;
pub mod hash;
#[cfg(feature = "threshold")]
pub mod lens;
#[cfg(feature = "threshold")]
pub mod lss;
pub mod magnetar;
pub mod mldsa;
pub mod party;
pub mod pulsar;
pub mod quorum;
pub mod slhdsa;
mod sort;
#[cfg(feature = "threshold")]
pub mod vss;
pub mod wire;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use error::Error;
pub use party::PartyId;
