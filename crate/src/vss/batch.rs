//! Random-weight batch checks of shares: many share checks `s_i·G (+ b_i·H) == com_i(i)` as
//! one, `Σ ρ_i·com(share_i) == Σ_k σ_k·C_k`, with weights `ρ` the share makers could not
//! predict. A batch that fails says only that some item is wrong; the callers (LSS dealings,
//! Pulsar's Combine) then check each item alone to name it.
//!
//! Call sequence: [`batch_weights`] once every item is fixed, then [`power_sums`] (the right
//! side's coefficient weights) and [`shares_open_weighted`], or [`weighted_commitment`] for a
//! left side the caller compares itself.

use alloc::vec::Vec;

#[cfg(not(target_arch = "wasm32"))]
use group::GroupEncoding;
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use super::{Curve, Mode, Share};
use crate::PartyId;

/// Weights for a batch check, one per item, from a secret `seed` and a `label`: 8 times a
/// random 128-bit integer. The factor 8 (Ed25519's cofactor) makes a batch blind to torsion
/// components, so whether it passes depends only on the prime-order parts. They are made
/// public (timing): a batch uses them only after every item it checks was fixed.
pub(crate) fn batch_weights<C: Curve>(tag: &str, seed: &[u8], label: &[u8], count: usize) -> Vec<C::Scalar> {
    use rand_core::{RngCore, SeedableRng};
    let mut t = crate::hash::Transcript::new(tag);
    t.append(seed).append(label);
    let mut rng = rand_chacha::ChaCha20Rng::from_seed(t.finalize::<32>());
    let shift = {
        let s = C::Scalar::from(1u64 << 32);
        s * s
    };
    let eight = C::Scalar::from(8u64);
    let weights: Vec<C::Scalar> = (0..count)
        .map(|_| (C::Scalar::from(rng.next_u64()) * shift + C::Scalar::from(rng.next_u64())) * eight)
        .collect();
    // Public: see above.
    crate::ct::public_slice(&weights);
    weights
}

/// `σ_k = Σ_i w_i·i^k` for `k < t`: the weights that turn a weighted sum of evaluations at
/// the parties `i` into one combination of the `t` coefficients (public inputs).
pub(crate) fn power_sums<C: Curve>(
    terms: impl Iterator<Item = (PartyId, C::Scalar)>,
    t: usize,
) -> Vec<C::Scalar> {
    let terms: Vec<(u16, C::Scalar)> = terms.map(|(p, w)| (p.get(), w)).collect();
    C::power_sums(&terms, t)
}

/// `Σ ρ_i·com(share_i) == Σ_j σ_j·points_j`: a batch of share checks with weights `ρ` that
/// whoever made the shares could not predict (see [`batch_weights`]). The shares enter
/// constant-time scalar arithmetic and one fixed-base multiplication; the right side is
/// public.
pub(crate) fn shares_open_weighted<C: Curve>(
    mode: Mode,
    shares: &[(PartyId, Share<C>)],
    points: &[C::Point],
    sigma: &[C::Scalar],
    rho: &[C::Scalar],
) -> bool {
    let shares: Vec<&Share<C>> = shares.iter().map(|(_, s)| s).collect();
    let lhs = weighted_commitment(mode, &shares, rho);
    let rhs = C::msm_vartime(sigma, points);
    // Public: whether the shares open the commitments decides a public blame.
    crate::ct::public(bool::from(lhs.ct_eq(&rhs)))
}

/// `(Σ ρ_i·s_i)·G (+ (Σ ρ_i·b_i)·H)`, the shares' side of a batch check: constant-time
/// scalar arithmetic and one fixed-base multiplication; the sums are wiped.
pub(crate) fn weighted_commitment<C: Curve>(mode: Mode, shares: &[&Share<C>], rho: &[C::Scalar]) -> C::Point {
    let (mut value, mut blind) = weighted_sums(shares, rho);
    let point = match mode {
        Mode::Pedersen => C::mul_base_h(&value, &blind),
        Mode::Feldman => C::mul_base(&value),
    };
    value.zeroize();
    blind.zeroize();
    point
}

/// The encoding of [`weighted_commitment`], by the group's one-product encoding where it
/// has one ([`Curve::mul_base_encoded`]): what a receiver compares with an encoded
/// evaluation (natively; WebAssembly has no batched evaluation to compare with).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn weighted_commitment_encoded<C: Curve>(
    mode: Mode,
    shares: &[&Share<C>],
    rho: &[C::Scalar],
) -> Vec<u8> {
    let (mut value, mut blind) = weighted_sums(shares, rho);
    let blinded = match mode {
        Mode::Pedersen => Some(&blind),
        Mode::Feldman => None,
    };
    let encoded = match C::mul_base_encoded(&value, blinded) {
        Some(e) => e.get(..C::POINT_LEN).map(<[u8]>::to_vec),
        None => None,
    };
    let encoded = encoded.unwrap_or_else(|| {
        let point = match blinded {
            Some(b) => C::mul_base_h(&value, b),
            None => C::mul_base(&value),
        };
        point.to_bytes().as_ref().to_vec()
    });
    value.zeroize();
    blind.zeroize();
    encoded
}

/// `(Σ ρ_i·s_i, Σ ρ_i·b_i)`, in constant time; the caller wipes them. Also a new share's
/// combination (`ρ` then the dealers' weights).
pub(crate) fn weighted_sums<C: Curve>(shares: &[&Share<C>], rho: &[C::Scalar]) -> (C::Scalar, C::Scalar) {
    C::dot_pair(rho.iter().zip(shares).map(|(r, s)| (r, s.value(), s.blind())))
}
