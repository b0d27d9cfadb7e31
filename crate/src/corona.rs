//! Corona: a t-of-n two-round threshold lattice signature of the Ringtail family (Boschini,
//! Kaviani, Lai, Malavolta, Takahashi, Tibouchi, ePrint 2024/1113), as `shared/specs/corona.md`
//! specifies it — the certificate's never-trust-the-aggregator leg.
//!
//! ```text
//! key generation (a trusted dealer):
//!   let (group_key, shares) = corona::deal(t, n, rng)?;        // parties 1..=n
//!   share.to_bytes() ──► CORK (secret, to its party only)    group_key.to_bytes() ──► CORG
//! or, to parties that published ML-KEM-768 keys (`pulsar::custody::CombinerKey`):
//!   let (group_key, sealed) = corona::deal_sealed(t, &keys, rng)?;   // CORE, any channel
//!   each party: KeyShare::open_sealed(&sealed[id − 1], &kem_key, &group_key)?
//! or the same as parties a host only routes bytes for ([`lifecycle`]: `Deal::dealer`,
//! `Deal::member`, one `CORD` from the dealer to each member)
//!
//! signing, any t ≤ |T| ≤ n of the parties:
//!   params = SignParams::new(session, &signers, message, context)?
//!   each signer: (s, out) = Signer::start(&share, &params, rng)?   ──► COR1 (D_i, MACs)
//!     s.step(the other COR1s)   ──► COR2 (c̃, z_i)
//!     s.step(the other COR2s)   ──► Done(Signed { signature: CORS, … })
//!
//! verification (public inputs only; also in the light build):
//!   group_key.verify(message, context, &signature)?
//!   or, for many: let prepared = group_key.prepare(); prepared.verify(message, context, &sig)?
//! ```
//!
//! Every message is a broadcast to the other signers; every signer combines, and only a
//! signature that verifies leaves it.
//!
//! # Trust model
//!
//! - **A trusted dealer.** [`deal`] draws the secret s and knows the whole key, every share and
//!   every pairwise key while it runs; it wipes them before returning, but whoever runs it
//!   could sign alone. No distributed key generation is offered: the spec's proposal (§4.3) is
//!   research that has not been reviewed, and we do not ship it.
//! - **After the deal, nobody holds the key.** Each party holds a Shamir share of s over R_q and
//!   a PRF and a MAC key with each other party (keys no third party holds). Any t shares
//!   determine s; t − 1 do not. Signing reconstructs nothing: a signer publishes D_i (hidden by
//!   MLWE) and z_i = R'_i·u + λ_i·c·s_i + mask_i, masked by pairwise zero-sum masks, so only the
//!   sum z is meaningful.
//! - **Any t-subset signs**, with Lagrange coefficients over the actual signing set (the
//!   reference signs n-of-n with coefficients over the whole committee).
//! - **No robustness, partly identifiable aborts.** A malformed, misaddressed, replayed or
//!   badly MACed message, or a second, different one from the same sender, is dropped and its
//!   sender named ([`Party::dropped_so_far`](crate::party::Party::dropped_so_far)); the session
//!   then waits, and its host gives up with those names. A signer whose echoed challenge differs
//!   from this signer's is named `DIFFERENT_CHALLENGE`: its view of round 1 differs — as the
//!   victim's does when a sender shows different commitments to different signers — so the
//!   name says whose view differs, not who equivocated (MACs are not transferable evidence).
//!   A well-formed but wrong z_i cannot be attributed —
//!   Ringtail's responses have no per-party verification equation (a per-party public key
//!   A·s_i would reveal s) — so it ends the session with [`Error::UnattributableAbort`]:
//!   never an invalid signature, because every combined signature is verified first.
//! - **Round-1 state is single-use**: NTT(R'_i) lives only in the [`Signer`], is taken when
//!   it responds, and the type cannot be cloned or serialised. A failed session restarts from
//!   round 1 with a new session id. Round-1 seeds are hedged with a key derived from the share.
//! - **Integers only**: every sampler (CDT for σ_E, convolution for the wide Gaussians,
//!   uniform A from ρ, the weight-23 challenge) is integer arithmetic, identical natively and
//!   in WebAssembly; the secret paths are constant-flow.
//! - **Confidentiality of the deal**: a `CORK` must travel over a confidential channel; across
//!   a network, [`deal_sealed`] seals each one to its party's ML-KEM-768 key (the crate's share
//!   envelope), and [`KeyShare::open_sealed`] opens it.
//!
//! # Costs
//!
//! Per signer: round 1 sends 614,666 + 36·|T| bytes (D_i is 8×49 polynomials of 49-bit
//! coefficients: the scheme's price for two rounds), round 2 sends 11,048; the signature is
//! 15,666 bytes and the group key 4,654.

// The verifier (group key, signature frame, verify) is in every build, the light one
// included; keys, signing and the parties need `threshold`. Without it the samplers and ring
// helpers only signing reads are dead code, and stay out of the binary.
#[cfg_attr(not(feature = "ristretto255"), allow(dead_code))]
mod arith;
#[cfg_attr(not(feature = "ristretto255"), allow(dead_code))]
mod codec;
// The threshold half (dealing, parties, sealed shares) seals with Pulsar custody's ML-KEM
// envelope, which is built with Ristretto255 (`pulsar::custody`).
#[cfg(feature = "ristretto255")]
mod deal;
#[cfg_attr(not(feature = "ristretto255"), allow(dead_code))]
mod encoding;
mod error;
#[cfg(feature = "ristretto255")]
mod kernel;
mod key;
#[cfg(feature = "ristretto255")]
pub mod lifecycle;
#[cfg(feature = "ristretto255")]
mod message;
mod ntt;
#[cfg(feature = "ristretto255")]
mod package;
#[cfg_attr(not(feature = "ristretto255"), allow(dead_code))]
mod params;
#[cfg_attr(not(feature = "ristretto255"), allow(dead_code))]
mod ring;
#[cfg_attr(not(feature = "ristretto255"), allow(dead_code))]
mod sample;
#[cfg(feature = "ristretto255")]
mod sealed;
#[cfg(feature = "ristretto255")]
mod signer;
#[cfg(test)]
mod tests;
mod verify;

#[cfg(feature = "ristretto255")]
pub use deal::{deal, KeyShare};
pub use encoding::{
    check_signature_frame, GROUP_KEY_LEN, GROUP_KEY_MAGIC, KEY_PACKAGE_MAGIC, SIGNATURE_LEN, SIGNATURE_MAGIC,
};
pub use error::Error;
pub use key::GroupKey;
#[cfg(feature = "ristretto255")]
pub use message::{commit_len, COMMIT_MAGIC, RESPONSE_LEN, RESPONSE_MAGIC};
#[cfg(feature = "ristretto255")]
pub use sealed::{deal_sealed, SEALED_PACKAGE_MAGIC};
#[cfg(feature = "ristretto255")]
pub use signer::{SignParams, Signed, Signer};
pub use verify::PreparedGroupKey;

/// The smallest threshold.
#[cfg(feature = "ristretto255")]
pub const MIN_THRESHOLD: usize = 2;
/// The largest group (the norm bound is sized for signing sets up to this size).
#[cfg(feature = "ristretto255")]
pub const MAX_PARTIES: usize = params::MAX_SIGNERS;

/// Internals that known-answer files record (spec §8.1): not an API.
#[cfg(feature = "hazmat")]
#[doc(hidden)]
pub mod kat {
    use super::ntt::inv_ntt;
    use super::params::N;
    use super::ring::Matrix;

    /// SHA-256 of ExpandA(ρ)'s coefficients (not NTT values), each as a u64 big-endian, entries
    /// row-major (8 rows × 7 columns).
    pub fn expand_a_sha256(rho: &[u8; 32]) -> [u8; 32] {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        for entry in Matrix::expand(rho).entries() {
            let mut p = *entry;
            inv_ntt(&mut p);
            for c in p {
                h.update(c.to_be_bytes());
            }
        }
        h.finalize().into()
    }

    /// SampleInBall(c̃) as −1, 0, 1.
    pub fn sample_in_ball(c_tilde: &[u8; 32]) -> [i8; N] {
        let c = super::verify::challenge(c_tilde);
        c.map(|v| match v {
            0 => 0,
            1 => 1,
            _ => -1,
        })
    }
}
