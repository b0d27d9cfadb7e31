//! Corona: a t-of-n two-round threshold lattice signature of the Ringtail family (Boschini,
//! Kaviani, Lai, Malavolta, Takahashi, Tibouchi, ePrint 2024/1113), as `shared/specs/corona.md`
//! specifies it — the certificate's never-trust-the-aggregator leg.
//!
//! **Work in progress (issue 21).** What exists: the ring R_q = Z_q\[X\]/(X^256 + 1) with
//! q = 2^48 + 18945 (`arith`, `ntt`: Montgomery arithmetic on 64-bit words, the negacyclic
//! NTT), the parameters (`params`) and the integer samplers (`sample`: uniform mod q and the
//! constant-time CDT sampler of D_{Z,σ_E}). The protocol (dealer key generation, the two
//! signing rounds, Combine, Verify, the `CORS` / `CORG` frames) is not written yet.
// The protocol that will use these is not written yet (issue 21).
#![allow(dead_code)]

mod arith;
mod codec;
mod kernel;
mod key;
mod ntt;
mod params;
mod ring;
mod sample;
#[cfg(test)]
mod tests;
