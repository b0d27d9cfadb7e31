//! Trusted-dealer key generation (threshold-mldsa spec §2.2), byte-exact with the Go
//! reference: one SHAKE256 stream from the dealer's seed gives ρ, a per-party key, and a
//! 64-byte seed per subset, from which FIPS 204's ExpandS draws that subset's short secret.
//! The public key is the standard one of s1 = Σ s1_I, s2 = Σ s2_I.
//!
//! The dealer knows the whole key while it deals: it must be trusted and must erase
//! everything afterwards (this function keeps nothing and zeroizes what it drew).

use alloc::vec::Vec;

use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use super::rounds::{Matrix, W_BITS};
use super::subsets::subsets;
use crate::hash::shake256;
use crate::mldsa::encode::pk_encode;
use crate::mldsa::encode::{pack_bits, unpack_bits};
use crate::mldsa::keygen::compute_t;
use crate::mldsa::ntt::Q;
use crate::mldsa::params::Params;
use crate::mldsa::poly::{zero_vec, PolyVec};
use crate::mldsa::rounding::power2round;
use crate::mldsa::sample::expand_s;
use sha3::digest::XofReader;

/// One subset's short secret (s1_I, s2_I), coefficients in [−η, η].
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct SubsetSecret {
    /// The subset (bit j: party j holds it).
    pub(crate) mask: u8,
    /// The dealer's seed σ_I it was expanded from (what a stored share keeps).
    pub(crate) seed: [u8; 64],
    pub(crate) s1: PolyVec,
    pub(crate) s2: PolyVec,
}

/// What one party receives from the dealer.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct PartyShare {
    /// The party's index, 0..N.
    pub(crate) index: u8,
    /// The party's private key (reserved for hedging its round-1 seeds).
    pub(crate) key: [u8; 32],
    /// The secrets of every subset the party belongs to, in increasing mask order.
    pub(crate) secrets: Vec<SubsetSecret>,
}

/// A dealt key: the standard ML-DSA public key and each party's share.
pub(crate) struct Dealt {
    pub(crate) public_key: Vec<u8>,
    pub(crate) shares: Vec<PartyShare>,
}

/// Deals a (T, N) committee key from `seed` (the caller checked 2 ≤ T ≤ N ≤ 6).
///
/// The public key depends only on the seed and the number of subsets C(N, T−1): never reuse
/// a dealer seed, or two configurations hand out different sharings of one key.
// Exact: k + ℓ ≤ 15 ExpandS nonces and N ≤ 6 party indices fit their integer types.
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn deal<P: Params>(seed: &[u8; 32], threshold: u8, parties: u8) -> Dealt {
    let mut stream = shake256(&[seed, &[P::K as u8, P::L as u8]]);
    let mut rho = [0u8; 32];
    stream.read(&mut rho);
    let mut shares: Vec<PartyShare> = (0..parties)
        .map(|index| {
            let mut key = [0u8; 32];
            stream.read(&mut key);
            PartyShare {
                index,
                key,
                secrets: Vec::new(),
            }
        })
        .collect();

    let mut secrets = Vec::new();
    let mut sigma = Zeroizing::new([0u8; 64]);
    for mask in subsets(threshold, parties) {
        stream.read(&mut sigma[..]);
        let secret = expand_subset::<P>(mask, &sigma);
        for share in shares.iter_mut().filter(|s| mask >> s.index & 1 == 1) {
            share.secrets.push(secret.clone());
        }
        secrets.push(secret);
    }
    let public_key = public_key_of::<P>(&rho, &secrets.iter().collect::<Vec<_>>());
    Dealt { public_key, shares }
}

/// A subset's secret from its 64-byte seed: FIPS 204's ExpandS with nonces 0..ℓ for s1 and
/// ℓ..ℓ+k for s2 (what the dealer does, and what a stored share is expanded with again).
pub(crate) fn expand_subset<P: Params>(mask: u8, seed: &[u8; 64]) -> SubsetSecret {
    let mut secret = SubsetSecret {
        mask,
        seed: *seed,
        s1: zero_vec(),
        s2: zero_vec(),
    };
    expand_s::<P>(seed, &mut secret.s1[..P::L], &mut secret.s2[..P::K]);
    secret
}

/// The public key of the sum of `secrets` under ρ: the dealer's key from every subset, or,
/// in tests, what a coalition holding only some subsets would rebuild.
pub(crate) fn public_key_of<P: Params>(rho: &[u8; 32], secrets: &[&SubsetSecret]) -> Vec<u8> {
    let mut s1 = Zeroizing::new(zero_vec());
    let mut s2 = Zeroizing::new(zero_vec());
    for secret in secrets {
        for j in 0..P::L {
            s1[j].add(&secret.s1[j]);
        }
        for i in 0..P::K {
            s2[i].add(&secret.s2[i]);
        }
    }
    // The summed secrets are bounded by C(N, T−1)·η ≤ 80 < q: compute_t reduces as usual.
    let mut t0 = Zeroizing::new(zero_vec());
    let t1 = compute_t::<P>(rho, &s1, &s2, &mut t0);
    let mut public_key = alloc::vec![0u8; P::PK_LEN];
    pk_encode::<P>(rho, &t1, &mut public_key);
    public_key
}

/// t_I = A·s1_I + s2_I (mod q, in [0, q)) of one subset, packed at 23 bits a coefficient
/// (`k·736` bytes): what a DKG owner publishes so that every member can check it and the
/// key can be summed without anyone holding the whole secret.
pub(crate) fn subset_t<P: Params>(a: &Matrix, secret: &SubsetSecret) -> Vec<u8> {
    let mut s1_hat = Zeroizing::new(secret.s1);
    for p in s1_hat.iter_mut().take(P::L) {
        p.ntt();
    }
    let mut t = Zeroizing::new(zero_vec());
    a.apply::<P>(&s1_hat, &mut t);
    let poly_len = 32 * W_BITS;
    let mut out = alloc::vec![0u8; P::K * poly_len];
    for i in 0..P::K {
        t[i].add(&secret.s2[i]);
        t[i].freeze();
        pack_bits(&t[i].0, W_BITS, &mut out[i * poly_len..(i + 1) * poly_len]);
    }
    out
}

/// The public key (ρ, t1) of t = Σ t_I over packed subset t's (each `k·736` bytes, every
/// coefficient below q), or `None` when one is malformed.
pub(crate) fn public_key_from_parts<P: Params>(rho: &[u8; 32], parts: &[&[u8]]) -> Option<Vec<u8>> {
    let poly_len = 32 * W_BITS;
    let mut t = zero_vec();
    for part in parts {
        if part.len() != P::K * poly_len {
            return None;
        }
        for i in 0..P::K {
            let coeffs = unpack_bits(&part[i * poly_len..(i + 1) * poly_len], W_BITS);
            if coeffs.iter().any(|&c| c >= Q) {
                return None;
            }
            for (s, c) in t[i].0.iter_mut().zip(coeffs) {
                *s += c;
                *s -= Q & ((Q - 1 - *s) >> 31);
            }
        }
    }
    let mut t1 = zero_vec();
    for i in 0..P::K {
        for (hi, &c) in t1[i].0.iter_mut().zip(t[i].0.iter()) {
            *hi = power2round(c).0;
        }
    }
    let mut public_key = alloc::vec![0u8; P::PK_LEN];
    pk_encode::<P>(rho, &t1, &mut public_key);
    Some(public_key)
}
