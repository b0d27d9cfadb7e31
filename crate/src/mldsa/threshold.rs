//! The algebra of threshold ML-DSA for small committees (Celi, del Pino, Espitau, Niot,
//! Prest, "Efficient Threshold ML-DSA", ePrint 2026/013; our spec
//! `shared/specs/threshold-mldsa.md`), under `pulsar::committee`, which adds sessions, frames
//! and parties. Standard FIPS 204 signatures; no party and no combiner ever holds the key.
//!
//! ```text
//! deal(seed, T, N)                      → public key + one PartyShare per party (dealer)
//! commit(Â, shape, seed_i, nonce)       → reveal_i (K packed w); its hash is the commitment
//! aggregate(reveals of the T signers)   → Σ w per slot (refuses a malformed reveal, names it)
//! respond(shape, share_i, act, seed_i, nonce, μ, Σw) → per slot z_i or rejected
//! combine(pk, μ, Σw, responses)         → the first slot that is a valid signature, or none
//! ```
//!
//! Round 1 is message-independent; a round-1 seed answers exactly one challenge set (two
//! answers with one seed reveal the partial secret): the parties above this kernel enforce it.

mod combine;
mod dealer;
mod hyperball;
mod params;
mod rounds;
mod subsets;

#[cfg(test)]
mod tests;
