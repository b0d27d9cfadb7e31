//! The integration suite: every protocol, format and bad-input test of the crate's public API,
//! one module per subject, built as one test binary.
//!
//! Run one subject with its module path as the filter, e.g.
//! `cargo test --features sim,hazmat --test suite lss::`.
//!
//! The FIPS 204 / FIPS 205 vector suites (`tests/fips/`), the KATs and the peer interop suites
//! (`tests/interop/`) are binaries of their own: the aarch64 cross run
//! (`scripts/test-aarch64.mjs`) builds them by name, the vector suites without the threshold
//! stack. The seeded fuzz run is `fuzz` here (`fuzz::seeded_run`).

#[macro_use]
#[path = "../common/mod.rs"]
mod common;
#[path = "../common/slh_peers.rs"]
mod slh_peers;

mod bad_input;
mod bip340;
mod bls;
mod cert;
mod committee;
mod corona;
mod error_codes;
mod fuzz;
mod keyfmt;
mod lens;
mod lens_lifecycle;
mod lifecycle;
mod lifecycle_host;
mod lss;
mod magnetar;
mod mldsa_prepared;
mod pulsar_custody;
mod slhdsa_bad_input;
mod snapshot;
mod test_chain;
