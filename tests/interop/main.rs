//! Interoperability with the peer implementations (DESIGN §7), built as one test binary:
//! ML-DSA against RustCrypto `ml-dsa`, `fips204` and `libcrux-ml-dsa` (`mldsa`), SLH-DSA
//! against `fips205` and RustCrypto `slh-dsa` (`slhdsa`).
//!
//! `scripts/test-aarch64.mjs` runs it under qemu with `QUASAR_AARCH64_FULL=1`, where the peers
//! take their aarch64 backends.

#[macro_use]
#[path = "../common/mod.rs"]
mod common;
#[path = "../common/slh_peers.rs"]
mod slh_peers;

mod mldsa;
mod slhdsa;
