//! The algebra of threshold ML-DSA for small committees (Celi, del Pino, Espitau, Niot,
//! Prest, "Efficient Threshold ML-DSA", ePrint 2026/013; our spec
//! `shared/specs/threshold-mldsa.md`), under [`crate::pulsar::committee`], which adds
//! sessions, frames and parties. Standard FIPS 204 signatures; no party and no combiner ever
//! holds the key.
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
//!
//! The functions below take the level at run time (the committee layer is not generic);
//! the submodules are generic over the parameter set.

mod combine;
mod dealer;
mod hyperball;
mod params;
mod rounds;
mod subsets;

#[cfg(test)]
mod tests;

use alloc::vec::Vec;

use zeroize::Zeroizing;

use super::params::{MlDsa44, MlDsa65, MlDsa87, Params};
use super::poly::PolyVec;
use super::{dispatch, Mode};

pub(crate) use combine::Combined;
pub(crate) use dealer::{Dealt, PartyShare, SubsetSecret};
pub(crate) use params::{Shape, MAX_PARTIES, MIN_PARTIES};
pub(crate) use rounds::{Matrix, Samples};
pub(crate) use subsets::subsets;

/// Deals a (T, N) key from `seed` (trusted dealer; [`dealer`]).
pub(crate) fn deal(mode: Mode, seed: &[u8; 32], threshold: u8, parties: u8) -> Dealt {
    dispatch!(mode, P => dealer::deal::<P>(seed, threshold, parties))
}

/// The public key of the sum of `secrets` (a coalition's attempt, in tests).
#[cfg(test)]
pub(crate) fn public_key_of(mode: Mode, rho: &[u8; 32], secrets: &[&SubsetSecret]) -> Vec<u8> {
    dispatch!(mode, P => dealer::public_key_of::<P>(rho, secrets))
}

/// A subset's packed t_I = A·s1_I + s2_I (DKG).
pub(crate) fn subset_t(mode: Mode, a: &Matrix, secret: &SubsetSecret) -> Vec<u8> {
    dispatch!(mode, P => dealer::subset_t::<P>(a, secret))
}

/// The public key of Σ t_I, or `None` for a malformed part (DKG).
pub(crate) fn public_key_from_parts(mode: Mode, rho: &[u8; 32], parts: &[&[u8]]) -> Option<Vec<u8>> {
    dispatch!(mode, P => dealer::public_key_from_parts::<P>(rho, parts))
}

/// Bytes of a packed t_I.
pub(crate) fn subset_t_len(mode: Mode) -> usize {
    dispatch!(mode, P => P::K * 32 * rounds::W_BITS)
}

/// A subset's secret expanded from its seed.
pub(crate) fn expand_subset(mode: Mode, mask: u8, seed: &[u8; 64]) -> SubsetSecret {
    dispatch!(mode, P => dealer::expand_subset::<P>(mask, seed))
}

/// Â for the public key's ρ.
pub(crate) fn matrix(mode: Mode, rho: &[u8; 32]) -> Matrix {
    dispatch!(mode, P => Matrix::expand::<P>(rho))
}

/// Round 1: the packed w of every slot ([`rounds::commit`]); the samples are pushed to
/// `keep` when given.
pub(crate) fn commit(
    a: &Matrix,
    shape: &Shape,
    seed: &[u8; 64],
    first_nonce: u16,
    keep: Option<&mut Samples>,
) -> Vec<u8> {
    dispatch!(shape.mode, P => rounds::commit::<P>(a, shape, seed, first_nonce, keep))
}

/// Whether a signer keeps its samples from round 1 for round 3 ([`rounds::KEEP_SAMPLES_BYTES`]).
pub(crate) fn keeps_samples(shape: &Shape) -> bool {
    let (l, k) = dispatch!(shape.mode, P => (P::L, P::K));
    usize::from(shape.reps) * 256 * (k + l) * 8 <= rounds::KEEP_SAMPLES_BYTES
}

/// Σ w per slot over the reveals, or the index of the first malformed one.
pub(crate) fn aggregate(mode: Mode, reps: u16, reveals: &[&[u8]]) -> Result<Vec<PolyVec>, usize> {
    dispatch!(mode, P => rounds::aggregate::<P>(reps, reveals))
}

/// Whether a peer's reveal has the right length and only coefficients below q.
pub(crate) fn reveal_is_canonical(mode: Mode, reps: u16, reveal: &[u8]) -> bool {
    dispatch!(mode, P => rounds::reveal_is_canonical::<P>(reps, reveal))
}

/// Round 3: per slot the response or `None` (rejected) ([`rounds::respond`]).
// The round's inputs as the spec names them (§3.4), and the samples kept from round 1.
#[allow(clippy::too_many_arguments)]
pub(crate) fn respond(
    shape: &Shape,
    share: &PartyShare,
    active: u8,
    seed: &[u8; 64],
    first_nonce: u16,
    mu: &[u8; 64],
    sums: &[PolyVec],
    kept: Option<&Samples>,
) -> Vec<Option<Zeroizing<PolyVec>>> {
    dispatch!(shape.mode, P => rounds::respond::<P>(shape, share, active, seed, first_nonce, mu, sums, kept))
}

/// The public Combine ([`combine::combine`]).
pub(crate) fn combine(
    mode: Mode,
    public_key: &[u8],
    mu: &[u8; 64],
    sums: &[PolyVec],
    responses: &[Vec<Option<PolyVec>>],
) -> Option<Combined> {
    dispatch!(mode, P => combine::combine::<P>(public_key, mu, sums, responses))
}

/// Bytes of one party's reveal.
pub(crate) fn reveal_len(mode: Mode, reps: u16) -> usize {
    dispatch!(mode, P => rounds::reveal_len::<P>(reps))
}

/// Bytes of one slot's packed response.
pub(crate) fn slot_response_len(mode: Mode) -> usize {
    dispatch!(mode, P => rounds::slot_response_len::<P>())
}

/// Packs one slot's response.
pub(crate) fn pack_response(mode: Mode, z: &PolyVec, out: &mut [u8]) {
    dispatch!(mode, P => rounds::pack_response::<P>(z, out))
}

/// Unpacks one slot's response (every bit pattern is a z with coefficients in (−γ1, γ1]).
pub(crate) fn unpack_response(mode: Mode, bytes: &[u8]) -> PolyVec {
    dispatch!(mode, P => rounds::unpack_response::<P>(bytes))
}
