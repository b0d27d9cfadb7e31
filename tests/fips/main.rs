//! The FIPS 204 / FIPS 205 vector suites: NIST's ACVP keyGen, sigGen and sigVer cases for
//! ML-DSA and SLH-DSA, one module per file of vectors, built as one test binary.
//!
//! They need no threshold stack: the aarch64 cross run (`scripts/test-aarch64.mjs`) builds this
//! binary alone, without default features, to prove the scalar NTT and the NEON and scalar
//! Keccak against the vectors. Run one file's cases with its module as the filter, e.g.
//! `cargo test --test fips mldsa_sigver::`.

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod mldsa_keygen;
mod mldsa_siggen;
mod mldsa_sigver;
mod slhdsa_keygen;
mod slhdsa_sigver;
