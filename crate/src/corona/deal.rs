//! Trusted-dealer key generation (spec §4.2) and the key shares. The dealer knows s, every
//! share and every pairwise key while it deals, and must erase them: Corona keys are
//! dealer-generated until a reviewed distributed key generation exists (the spec's DKG sketch
//! is research, §4.3).
//!
//! Everything comes from one 32-byte dealer seed σ_D expanded with the `KEYGEN` tag (kind 0:
//! s, 1: e, 2: Shamir coefficients, 3: pairwise keys), so known-answer tests can fix it; the
//! public matrix comes from ρ with the `A` tag, a different key (the reference drew both from
//! one stream).

use alloc::vec::Vec;
use core::fmt;

use rand_core::CryptoRngCore;
use sha3::digest::XofReader;
use zeroize::{Zeroize, Zeroizing};

use super::arith::{add, mul};
use super::codec::pack;
use super::params::{COLS, MAX_SIGNERS, N, ROWS};
use super::ring::{poly_add, poly_from_small, to_ntt, Matrix, Poly, ZERO};
use super::sample::{gaussian_poly, round_xi, uniform_poly};
use super::{Error, GroupKey};
use crate::hash::{tags, Transcript};
use crate::PartyId;

/// A pair's keys, as one of its two parties holds them: the other party's abscissa, the PRF
/// key of the pair's zero-sum masks and the MAC key of its round-1 messages.
pub(crate) type PairKeys = (u16, [u8; 32], [u8; 32]);

/// One party's key package from the dealer: its id (the Shamir abscissa), the threshold, its
/// share of s and its keys with every other party, next to the group key. Encoded as a
/// `CORK` frame ([`KeyShare::to_bytes`]), which travels with the group's `CORG`.
///
/// # Security
/// Secret: the share and the pairwise keys are wiped when it is dropped. Deliver it over a
/// confidential channel; the dealer that made it must erase its copy.
#[derive(Clone)]
pub struct KeyShare {
    pub(crate) id: PartyId,
    pub(crate) x: u16,
    pub(crate) t: u16,
    pub(crate) n: u16,
    /// s_i = f(x_i) ∈ R_q^7 (secret).
    pub(crate) share: Zeroizing<Vec<Poly>>,
    /// (x_j, k^prf_ij, k^mac_ij) for every j ≠ i, increasing in j (secret).
    pub(crate) pairwise: Zeroizing<Vec<PairKeys>>,
    /// n_i = KTH(NONCEKEY; enc49(s_i); x_i, tr): the key that hedges round-1 seeds (secret).
    pub(crate) nonce_key: Zeroizing<[u8; 32]>,
    pub(crate) group: GroupKey,
}

impl fmt::Debug for KeyShare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("corona::KeyShare")
            .field("id", &self.x)
            .field("threshold", &self.t)
            .field("parties", &self.n)
            .finish_non_exhaustive()
    }
}

impl KeyShare {
    pub(crate) fn new(
        id: PartyId,
        t: u16,
        n: u16,
        share: Zeroizing<Vec<Poly>>,
        pairwise: Zeroizing<Vec<PairKeys>>,
        group: GroupKey,
    ) -> KeyShare {
        let x = id.get();
        let mut bytes = Zeroizing::new(Vec::with_capacity(COLS * 1568));
        pack(share.iter().flatten().copied(), 49, &mut bytes);
        let mut h = Transcript::keyed(tags::CORONA_NONCEKEY, &bytes);
        h.append(&x.to_be_bytes()).append(&group.digest);
        KeyShare {
            id,
            x,
            t,
            n,
            share,
            pairwise,
            nonce_key: Zeroizing::new(h.finalize()),
            group,
        }
    }

    /// This share's party.
    pub fn id(&self) -> PartyId {
        self.id
    }

    /// The threshold t: any t parties sign.
    pub fn threshold(&self) -> usize {
        usize::from(self.t)
    }

    /// The number of parties n (ids 1..=n).
    pub fn parties(&self) -> usize {
        usize::from(self.n)
    }

    /// The group key.
    pub fn group_key(&self) -> &GroupKey {
        &self.group
    }

    pub(crate) fn pair(&self, other: u16) -> Option<&PairKeys> {
        self.pairwise.iter().find(|p| p.0 == other)
    }
}

/// Deals a t-of-n key to parties 1..=n: the group key and each party's [`KeyShare`].
///
/// # Errors
/// [`Error::InvalidThreshold`] unless 2 ≤ t ≤ n ≤ 1024.
///
/// # Security
/// The dealer (this call) draws s and knows the whole key, every share and every pairwise key
/// while it runs; they are wiped before it returns, but whoever runs it must be trusted with
/// the key. Each share must reach its party over a confidential channel.
pub fn deal(t: usize, n: usize, rng: &mut impl CryptoRngCore) -> Result<(GroupKey, Vec<KeyShare>), Error> {
    if !(2..=n).contains(&t) || n > MAX_SIGNERS {
        return Err(Error::InvalidThreshold { t, n });
    }
    let mut rho = [0u8; 32];
    rng.fill_bytes(&mut rho);
    // ρ is part of the public key.
    let rho = crate::ct::public(rho);
    let mut seed = Zeroizing::new([0u8; 32]);
    rng.fill_bytes(&mut seed[..]);
    // Exact: n ≤ 1024.
    #[allow(clippy::cast_possible_truncation)]
    Ok(deal_seeded(t as u16, n as u16, rho, &seed))
}

/// The dealer's stream of `kind` and `index`.
fn dealer_stream(seed: &[u8; 32], kind: u8, index: u16) -> impl XofReader {
    let mut t = Transcript::new(tags::CORONA_KEYGEN);
    t.append(seed).append(&[kind]).append(&index.to_be_bytes());
    t.finalize_xof()
}

/// Deals a (t, n) key from ρ and the dealer seed σ_D (spec §4.2; known-answer tests fix both).
/// 2 ≤ t ≤ n ≤ 1024 is the caller's to check.
pub(crate) fn deal_seeded(t: u16, n: u16, rho: [u8; 32], seed: &[u8; 32]) -> (GroupKey, Vec<KeyShare>) {
    let a = Matrix::expand(&rho);
    // s ← D_σE^{7×256}, e ← D_σE^{8×256}.
    let mut small = Zeroizing::new([0i64; N]);
    let mut s: Zeroizing<Vec<Poly>> = Zeroizing::new(Vec::with_capacity(COLS));
    for k in 0..COLS {
        // Exact: k < 7.
        #[allow(clippy::cast_possible_truncation)]
        gaussian_poly(&mut dealer_stream(seed, 0, k as u16), &mut small);
        s.push(poly_from_small(&small));
    }
    let s_hat: Zeroizing<Vec<Poly>> = Zeroizing::new(s.iter().map(to_ntt).collect());
    let mut b = a.apply(&s_hat);
    let mut b_tilde = Vec::with_capacity(ROWS);
    for (k, row) in b.iter_mut().enumerate() {
        #[allow(clippy::cast_possible_truncation)]
        gaussian_poly(&mut dealer_stream(seed, 1, k as u16), &mut small);
        *row = poly_add(row, &poly_from_small(&small));
        let mut rounded = [0u32; N];
        for (r, &c) in rounded.iter_mut().zip(row.iter()) {
            *r = round_xi(c);
        }
        b_tilde.push(rounded);
    }
    b.zeroize();
    // b̃ is the public key.
    crate::ct::public_slice(&b_tilde);
    // f(X) = s + Σ_{k=1}^{t−1} a_k X^k, a_k uniform in R_q^7.
    let mut coeffs: Zeroizing<Vec<Vec<Poly>>> = Zeroizing::new(Vec::new());
    for k in 1..t {
        let mut stream = dealer_stream(seed, 2, k);
        let mut vec = Vec::with_capacity(COLS);
        for _ in 0..COLS {
            let mut p = ZERO;
            uniform_poly(&mut stream, &mut p);
            vec.push(p);
        }
        coeffs.push(vec);
    }
    let shares: Vec<Zeroizing<Vec<Poly>>> = (1..=n)
        .map(|x| Zeroizing::new(evaluate(&s, &coeffs, u64::from(x))))
        .collect();
    let mut pairwise: Vec<Zeroizing<Vec<PairKeys>>> = (1..=n).map(|_| Zeroizing::new(Vec::new())).collect();
    let mut pair = 0u16;
    for i in 1..=n {
        for j in i + 1..=n {
            let mut keys = Zeroizing::new([0u8; 64]);
            dealer_stream(seed, 3, pair).read(&mut keys[..]);
            pair = pair.wrapping_add(1);
            let (prf, mac) = keys.split_at(32);
            let (prf, mac): ([u8; 32], [u8; 32]) = (
                prf.try_into().unwrap_or_default(),
                mac.try_into().unwrap_or_default(),
            );
            pairwise[usize::from(i) - 1].push((j, prf, mac));
            pairwise[usize::from(j) - 1].push((i, prf, mac));
        }
    }
    let group = GroupKey::new(rho, b_tilde);
    let packages = shares
        .into_iter()
        .zip(pairwise)
        .zip((1..=n).filter_map(PartyId::new))
        .map(|((share, mut pairs), id)| {
            crate::sort::sort_by_key_stable(&mut pairs, |e| e.0);
            KeyShare::new(id, t, n, share, pairs, group.clone())
        })
        .collect();
    (group, packages)
}

/// f(x) = s + Σ a_k x^k, coefficient-wise by Horner (constant flow in the secrets).
fn evaluate(s: &[Poly], coeffs: &[Vec<Poly>], x: u64) -> Vec<Poly> {
    (0..COLS)
        .map(|col| {
            let mut acc = ZERO;
            for a in coeffs.iter().rev() {
                for (v, &c) in acc.iter_mut().zip(a[col].iter()) {
                    *v = add(mul(*v, x), c);
                }
            }
            for (v, &c) in acc.iter_mut().zip(s[col].iter()) {
                *v = add(mul(*v, x), c);
            }
            acc
        })
        .collect()
}
