//! The Pulsar committee: threshold ML-DSA in which **no party and no combiner ever holds the
//! key** (Celi, del Pino, Espitau, Niot, Prest, "Efficient Threshold ML-DSA", ePrint
//! 2026/013; our spec `shared/specs/threshold-mldsa.md`). Any T of the N members
//! (2 ≤ T ≤ N ≤ 6) sign together; the output is a standard FIPS 204 signature under a
//! standard ML-DSA public key, which any verifier accepts unchanged.
//!
//! ```text
//! key generation, either
//!   let (key, shares) = committee::deal(Mode::MlDsa44, t, &members, rng)?;  // trusted dealer
//! or, with nobody trusted, every member:
//!   params = DkgParams::new(session, Mode::MlDsa44, t, &members)?
//!   (d, out) = Dkg::start(me, &params, rng)?  ──► PQD1 commitments, PQD2 seeds (private)
//!   d.step(…) ×3 ──► PQD3 t_I, PQD4 confirmation, Done(Keyed { key, share })
//!
//! signing:
//! params = SignParams::new(session, &signers, message, context)?          // exactly T signers
//! each signer:  (s, out) = Signer::start(&share, &params, rng)?            ──► PQC1 commitment
//!   s.step(commitments)  ──► PQC2 reveal (K packed w vectors)
//!   s.step(reveals)      ──► PQC3 responses (per slot: z, or rejected)
//!   s.step(responses)    ──► Done(Signed)  — or, when no slot passes, Continue(PQC1) of a
//!                            new run with fresh randomness, up to `SignParams::max_runs`
//! ```
//!
//! Every message is a broadcast to the other signers (nothing in signing is secret); every
//! signer runs the public Combine itself, so there is no combiner role, and a relay that
//! only watches the three rounds could combine as well.
//!
//! # Trust model
//!
//! - **The key is a sum of short secrets, one per subset of N − T + 1 members**, each held
//!   by every member of its subset. Any T members hold every subset secret; any T − 1 miss
//!   the subset formed by the others, and what they learn about the key is an MLWE instance,
//!   as for an outside attacker of single-key ML-DSA. A member's stored share
//!   ([`KeyShare`]) is its subsets' seeds: it does not determine the key.
//! - **Signing reconstructs nothing.** Each signer adds only the subset secrets a fixed public
//!   partition assigns it (partial secrets stay short), masks them with a sample from an
//!   ellipsoid, and rejects locally, in L2 norm, any slot whose response would depend on its
//!   secret. What it publishes — `w = A·ŷ + ê` for every slot (hidden by MLWE) and `z` for the
//!   slots it accepts (close in distribution to secret-independent values) — is what the
//!   scheme's proof simulates. Whether a slot was accepted is public; so is a failed run,
//!   which is restarted with fresh randomness.
//! - **Keys from a trusted dealer** ([`deal`]): the dealer draws every subset secret, so it
//!   knows the whole key while it deals; it must be trusted and must erase what it drew
//!   (ours keeps nothing). Each share must reach its member over a confidential channel.
//! - **Keys from the distributed key generation** ([`Dkg`]): each subset's secret is drawn
//!   by one of its own members (its owner) and sent only to the subset's other members;
//!   nobody ever holds the key, and a coalition below T misses the secret of a subset whose
//!   members — owner included — are all honest. Not robust: every member must take part.
//! - **No robustness and only partly identifiable aborts** (as the scheme): every signer
//!   must answer. A reveal that does not match its commitment names its sender
//!   ([`BlameReason::BrokenReveal`](crate::party::BlameReason::BrokenReveal)) and ends the
//!   session; a malformed, misaddressed, replayed or equivocated message is dropped and
//!   named and never aborts a step; a well-formed but wrong response only makes runs fail
//!   (there are no per-party verification keys to check it against), so a cheater can force
//!   the session to [`Error::RunsExhausted`] — never an invalid signature, because every
//!   combined signature is verified before it is returned.
//! - **Round state is single-use and never serialised.** A signer's round-1 seed lives in
//!   the [`Signer`] only, is consumed by value when it answers the run's challenges, and a
//!   new run draws a new one: answering two challenge sets with one seed would give away the
//!   partial secret, and the API has no way to do it.
//! - **Why N stops at 6.** The parameters (K, r, r′, ν) exist for N ≤ 6 only; sharing with
//!   short (binary-like) coefficients is bounded near 8 parties by Ball, Çakan and Malkin,
//!   and the number of subsets — so the share size and the slots K — grows as C(N, T − 1).
//! - **Side channels.** The ellipsoid sampler uses floating point (one pure-Rust `libm` on
//!   every target, so native and WASM agree bit for bit); software `ln`, `sin` and `cos`
//!   branch on their arguments, which derive from the secret seed, as in the reference and
//!   every port. The integer paths (shares, challenges, responses) are constant-flow; no float
//!   decides what a verifier accepts.
//!
//! # Changing the committee
//!
//! There is **no resharing** of a committee key to a new (T′, N′): a new committee gets a new
//! key from a new key generation, and the chain announces it as a new key era (the light
//! client follows key eras already). The reason is the sharing itself. Resharing would have to
//! split each subset secret s_I (coefficients in [−η, η]) into pieces for the new subsets that
//! are themselves short, since the parameters (K, r, r′) are computed for partial secrets that
//! are sums of a few η-short vectors. A short piece a of a short s_I cannot be independent of
//! it: whoever receives a learns that s_I lies in a + [−(η + ‖a‖∞), η + ‖a‖∞], so the new
//! holders of pieces learn the old secret up to a small box, and combining pieces from two
//! coalitions below the threshold gives it away. Keeping the old subset secrets and only
//! re-assigning them cannot help either: the old holders still hold them, and a partial
//! secret that sums more subsets than the radii allow breaks the rejection analysis. Secrecy
//! and shortness together rule resharing out, the same tension that bounds such sharings near
//! eight parties (Ball, Çakan and Malkin); [`crate::pulsar::custody`] and [`crate::lens`],
//! whose Shamir shares have no shortness to keep, reshare under the same key.
//!
//! # Costs
//!
//! Per run each signer sends 32 B, then `K·k·736` B (the reveal), then at most `K·ℓ·640` B
//! (responses); K grows steeply with T and N at ML-DSA-65 (804 slots, 6 MB per party per run
//! at (4, 6)). Prefer ML-DSA-44 or small (T, N) where the traffic matters; a run succeeds
//! with probability at least ½.

mod dkg;
mod error;
mod key;
mod message;
mod signer;
#[cfg(test)]
mod tests;

pub use dkg::{
    Dkg, DkgParams, Keyed, DKG_COMMIT_MAGIC, DKG_CONFIRM_MAGIC, DKG_PUBLISH_MAGIC, DKG_SEEDS_MAGIC,
};
pub use error::Error;
pub use key::{deal, CommitteeKey, KeyShare, COMMITTEE_KEY_MAGIC, KEY_SHARE_MAGIC};
pub use message::{Header, Kind, COMMIT_MAGIC, RESPONSE_MAGIC, REVEAL_MAGIC};
pub use signer::{SignParams, Signed, Signer, DEFAULT_MAX_RUNS};

/// The smallest committee.
pub const MIN_PARTIES: usize = crate::mldsa::threshold::MIN_PARTIES as usize;
/// The largest committee the published parameters cover.
pub const MAX_PARTIES: usize = crate::mldsa::threshold::MAX_PARTIES as usize;
