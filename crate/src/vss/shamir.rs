//! Shamir secret sharing over a [`Curve`]'s scalar field: polynomials, evaluation at a
//! party's id, Lagrange coefficients at zero over the **actual** set given (duplicates
//! and unknown members are errors, never dropped), and reconstruction.
//!
//! A party's share is `f(id)` with `id` the party's non-zero [`PartyId`]; the secret is
//! `f(0)`; a polynomial of `threshold` coefficients (degree `threshold − 1`) needs
//! `threshold` shares to rebuild.

use alloc::vec::Vec;
use core::fmt;

use group::ff::Field;
use zeroize::Zeroize;

use super::{Curve, Error};
use crate::PartyId;

/// A party id as a scalar (the x-coordinate of its share).
pub fn party_scalar<C: Curve>(id: PartyId) -> C::Scalar {
    C::Scalar::from(u64::from(id.get()))
}

/// A secret polynomial `f(x) = Σ_k c_k x^k` (coefficients zeroized on drop).
///
/// # Security
/// Every coefficient is secret; the type has no `Clone` and its `Debug` is redacted.
pub struct Polynomial<C: Curve> {
    coefficients: Vec<C::Scalar>,
}

impl<C: Curve> Polynomial<C> {
    /// A uniformly random polynomial of `threshold` coefficients with `f(0) = constant`.
    ///
    /// # Errors
    /// [`Error::InvalidThreshold`] for a zero threshold.
    pub fn random(
        constant: C::Scalar,
        threshold: usize,
        rng: &mut (impl rand_core::RngCore + rand_core::CryptoRng),
    ) -> Result<Self, Error> {
        if threshold == 0 {
            return Err(Error::InvalidThreshold {
                threshold,
                parties: 0,
            });
        }
        let mut coefficients = Vec::with_capacity(threshold);
        coefficients.push(constant);
        for _ in 1..threshold {
            coefficients.push(C::Scalar::random(&mut *rng));
        }
        Ok(Polynomial { coefficients })
    }

    /// The polynomial with these coefficients (constant term first).
    ///
    /// # Errors
    /// [`Error::InvalidThreshold`] for an empty list.
    pub fn from_coefficients(coefficients: Vec<C::Scalar>) -> Result<Self, Error> {
        if coefficients.is_empty() {
            return Err(Error::InvalidThreshold {
                threshold: 0,
                parties: 0,
            });
        }
        Ok(Polynomial { coefficients })
    }

    /// Number of coefficients: the threshold of the sharing (degree + 1).
    pub fn threshold(&self) -> usize {
        self.coefficients.len()
    }

    /// `f(0)`.
    pub fn constant(&self) -> &C::Scalar {
        &self.coefficients[0]
    }

    /// The coefficients, constant term first.
    ///
    /// # Security
    /// Secret values.
    pub fn coefficients(&self) -> &[C::Scalar] {
        &self.coefficients
    }

    /// `f(id)`: the share of party `id` (Horner's rule, constant time in the coefficients).
    pub fn evaluate(&self, id: PartyId) -> C::Scalar {
        C::horner_small(&self.coefficients, id.get())
    }

    /// `(f(id), g(id))` for this `f` and another polynomial `g` (a Pedersen dealer's values
    /// and blinds), evaluated together where the group can ([`Curve::horner_small_pair`]).
    pub fn evaluate_pair(&self, g: &Polynomial<C>, id: PartyId) -> (C::Scalar, C::Scalar) {
        C::horner_small_pair(&self.coefficients, &g.coefficients, id.get())
    }

    /// `(f(id), g(id))` at every id of `ids` (blinds zero without `g`), where the group
    /// evaluates several ids at once ([`Curve::horner_small_at_ids`]); `None` where it does
    /// not, or for `g` of another length. Native only: no group does on WebAssembly.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn evaluate_at_ids(
        &self,
        g: Option<&Polynomial<C>>,
        ids: &[PartyId],
    ) -> Option<Vec<(C::Scalar, C::Scalar)>> {
        let xs: Vec<u16> = ids.iter().map(|id| id.get()).collect();
        let mut polys = alloc::vec![self.coefficients.as_slice()];
        polys.extend(g.map(|g| g.coefficients.as_slice()));
        let mut evaluated = C::horner_small_at_ids(&polys, &xs)?;
        let blinds = evaluated.get(1);
        let out = evaluated
            .first()?
            .iter()
            .enumerate()
            .map(|(i, v)| {
                (
                    *v,
                    blinds.and_then(|b| b.get(i)).copied().unwrap_or(C::Scalar::ZERO),
                )
            })
            .collect();
        for e in evaluated.iter_mut().flatten() {
            e.zeroize();
        }
        Some(out)
    }

    /// `f(x)` at any scalar `x`.
    pub fn evaluate_at(&self, x: &C::Scalar) -> C::Scalar {
        super::group::horner::<C>(&self.coefficients, x)
    }
}

impl<C: Curve> Drop for Polynomial<C> {
    fn drop(&mut self) {
        for c in self.coefficients.iter_mut() {
            c.zeroize();
        }
    }
}

impl<C: Curve> fmt::Debug for Polynomial<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Polynomial<{}>(threshold {}, <redacted>)",
            C::NAME,
            self.coefficients.len()
        )
    }
}

/// Checks a participant set: non-empty, no duplicates. Returns it sorted.
///
/// # Errors
/// [`Error::EmptySet`], [`Error::DuplicateParty`].
pub fn sorted_set(set: &[PartyId]) -> Result<Vec<PartyId>, Error> {
    if set.is_empty() {
        return Err(Error::EmptySet);
    }
    let mut sorted = set.to_vec();
    crate::sort::heapsort(&mut sorted);
    for w in sorted.windows(2) {
        if w[0] == w[1] {
            return Err(Error::DuplicateParty { party: w[0] });
        }
    }
    Ok(sorted)
}

/// `2^64` as a scalar.
fn two_pow_64<C: Curve>() -> C::Scalar {
    let t = C::Scalar::from(1u64 << 32);
    t * t
}

/// The product of small non-negative integers (each < 2^16), batching up to seven of them
/// into one `u128` before each scalar multiplication.
// The u128 splits into its high and low 64-bit halves on purpose.
#[allow(clippy::cast_possible_truncation)]
fn small_product<C: Curve>(factors: impl Iterator<Item = u64>) -> C::Scalar {
    let shift = two_pow_64::<C>();
    let to_scalar = |v: u128| C::Scalar::from((v >> 64) as u64) * shift + C::Scalar::from(v as u64);
    let mut out = C::Scalar::ONE;
    let mut acc: u128 = 1;
    for f in factors {
        match acc.checked_mul(u128::from(f)) {
            Some(v) => acc = v,
            None => {
                out *= to_scalar(acc);
                acc = u128::from(f);
            }
        }
    }
    out * to_scalar(acc)
}

/// Inverts every element in place with one field inversion (Montgomery's trick).
/// All inputs must be non-zero.
pub(crate) fn batch_invert<C: Curve>(values: &mut [C::Scalar]) -> Result<(), Error> {
    let mut prefix = Vec::with_capacity(values.len());
    let mut acc = C::Scalar::ONE;
    for v in values.iter() {
        prefix.push(acc);
        acc *= v;
    }
    let mut inv = Option::<C::Scalar>::from(acc.invert()).ok_or(Error::Degenerate)?;
    for (v, p) in values.iter_mut().zip(prefix.iter()).rev() {
        let next = inv * *v;
        *v = inv * p;
        inv = next;
    }
    Ok(())
}

/// The Lagrange coefficients at zero, `λ_i = Π_{m≠i} m / (m − i)`, for every member of
/// `set`, in the order given, over exactly that set.
///
/// Cost: O(|set|²) small-integer products and one field inversion.
///
/// # Errors
/// [`Error::EmptySet`], [`Error::DuplicateParty`].
pub fn lagrange_coefficients<C: Curve>(set: &[PartyId]) -> Result<Vec<C::Scalar>, Error> {
    sorted_set(set)?;
    let ids: Vec<u64> = set.iter().map(|p| u64::from(p.get())).collect();
    // λ_i = P / (i · Π_{m≠i} (m − i)) with P = Π m.
    let p = small_product::<C>(ids.iter().copied());
    let mut den: Vec<C::Scalar> = ids
        .iter()
        .map(|&i| {
            let negatives = ids.iter().filter(|&&m| m < i).count();
            let mag = small_product::<C>(
                core::iter::once(i).chain(ids.iter().filter(|&&m| m != i).map(|&m| m.abs_diff(i))),
            );
            if negatives % 2 == 1 {
                -mag
            } else {
                mag
            }
        })
        .collect();
    batch_invert::<C>(&mut den)?;
    for d in den.iter_mut() {
        *d *= p;
    }
    Ok(den)
}

/// The Lagrange coefficient at zero of `party` over `set`.
///
/// # Errors
/// [`Error::EmptySet`], [`Error::DuplicateParty`], [`Error::PartyNotInSet`].
pub fn lagrange_coefficient<C: Curve>(party: PartyId, set: &[PartyId]) -> Result<C::Scalar, Error> {
    let pos = set
        .iter()
        .position(|&p| p == party)
        .ok_or(Error::PartyNotInSet { party })?;
    Ok(lagrange_coefficients::<C>(set)?[pos])
}

/// Rebuilds `f(0)` from shares `(id, f(id))` by Lagrange interpolation over exactly the
/// parties given. The caller must supply at least `threshold` shares of one sharing;
/// fewer give an unrelated value.
///
/// # Security
/// This puts the whole secret in one place: it is for tests and for the trusted combiner
/// of the Pulsar custody model, nothing else.
///
/// # Errors
/// [`Error::EmptySet`], [`Error::DuplicateParty`].
pub fn reconstruct<C: Curve>(shares: &[(PartyId, C::Scalar)]) -> Result<C::Scalar, Error> {
    let ids: Vec<PartyId> = shares.iter().map(|(p, _)| *p).collect();
    let lambda = lagrange_coefficients::<C>(&ids)?;
    Ok(shares
        .iter()
        .zip(lambda.iter())
        .fold(C::Scalar::ZERO, |acc, ((_, s), l)| acc + *s * l))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vss::{Ristretto255, Secp256k1};
    use rand_core::SeedableRng;

    fn pid(v: u16) -> PartyId {
        PartyId::new(v).unwrap()
    }

    fn share_and_rebuild<C: Curve>() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(9);
        let secret = C::Scalar::random(&mut rng);
        let f = Polynomial::<C>::random(secret, 3, &mut rng).unwrap();
        let shares: Vec<(PartyId, C::Scalar)> = [2u16, 9, 4, 65535]
            .iter()
            .map(|&i| (pid(i), f.evaluate(pid(i))))
            .collect();
        assert_eq!(reconstruct::<C>(&shares).unwrap(), secret);
        assert_eq!(reconstruct::<C>(&shares[1..]).unwrap(), secret);
        assert_ne!(reconstruct::<C>(&shares[2..]).unwrap(), secret);
        // Slow reference formula.
        let set: Vec<PartyId> = shares.iter().map(|s| s.0).collect();
        let fast = lagrange_coefficients::<C>(&set).unwrap();
        for (k, &i) in set.iter().enumerate() {
            let xi = party_scalar::<C>(i);
            let mut l = C::Scalar::ONE;
            for &m in &set {
                if m != i {
                    let xm = party_scalar::<C>(m);
                    l *= xm * (xm - xi).invert().unwrap();
                }
            }
            assert_eq!(fast[k], l);
        }
        // Large sets exercise the u128 batching.
        let big: Vec<PartyId> = (1..=300u16).map(|v| pid(v * 200)).collect();
        let f = Polynomial::<C>::random(secret, 300, &mut rng).unwrap();
        let shares: Vec<(PartyId, C::Scalar)> = big.iter().map(|&i| (i, f.evaluate(i))).collect();
        assert_eq!(reconstruct::<C>(&shares).unwrap(), secret);
    }

    #[test]
    fn shamir_round_trip() {
        share_and_rebuild::<Ristretto255>();
        share_and_rebuild::<Secp256k1>();
    }

    #[test]
    fn sets_are_checked() {
        assert_eq!(
            lagrange_coefficients::<Ristretto255>(&[pid(1), pid(3), pid(1)]),
            Err(Error::DuplicateParty { party: pid(1) })
        );
        assert_eq!(lagrange_coefficients::<Ristretto255>(&[]), Err(Error::EmptySet));
        assert_eq!(
            lagrange_coefficient::<Ristretto255>(pid(2), &[pid(1), pid(3)]),
            Err(Error::PartyNotInSet { party: pid(2) })
        );
    }
}
