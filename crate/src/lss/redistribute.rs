//! Reshare / redistribution (Desmedt–Jajodia with receiver-side weighting): a quorum `Q`
//! of at least `t_old` old parties deals the old secret to any new set with any new
//! threshold — expansion, contraction, same or new set, threshold up or down.
//!
//! Dealer `i ∈ Q` shares `λ_i^Q·s_i` (and in Pedersen mode `λ_i^Q·r_i` as the blind
//! constant), where `λ^Q` are the public Lagrange coefficients at zero over the
//! announced quorum; its constant-term commitment must equal `λ_i^Q·Σ_k i^k·C_k^old`.
//! If dealers are disqualified, receivers re-weight the survivors by
//! `μ_i = λ_i^{Q'}/λ_i^Q` so the result is Lagrange interpolation over the final set
//! `Q'`, and the new commitments `Σ μ_i·C_{i,k}` keep the constant term `C_0^old`.

use alloc::vec::Vec;

use super::ceremony::{check_dealers, check_threshold, checked_set};
use super::{ActivationKind, Ceremony, Error, GroupPublic, Kind};
use crate::vss::{lagrange_coefficients, Curve};
use crate::PartyId;

impl<C: Curve> Ceremony<C> {
    /// A reshare of the group `old` by `dealers` (at least `t_old` old parties) to
    /// `receivers` with threshold `threshold`. The mode is the old group's.
    ///
    /// # Errors
    /// [`Error::DuplicateParty`], [`Error::DealerNotInOldSet`],
    /// [`Error::NotEnoughDealers`], [`Error::InvalidThreshold`].
    pub fn reshare(
        session: [u8; 32],
        old: &GroupPublic<C>,
        dealers: &[PartyId],
        receivers: &[PartyId],
        threshold: u16,
    ) -> Result<Self, Error> {
        let dealers = checked_set(dealers)?;
        check_dealers(&dealers, old, usize::from(old.threshold()))?;
        let receivers = checked_set(receivers)?;
        check_threshold(threshold, receivers.len())?;
        let weights = lagrange_coefficients::<C>(&dealers)?;
        Ok(Ceremony {
            session,
            kind: Kind::Reshare,
            mode: old.mode(),
            dealers,
            receivers,
            threshold,
            old: Some(old.clone()),
            weights,
            activation: (ActivationKind::Lss, Vec::new()),
        })
    }
}

/// The re-weighting `μ_i = λ_i^{Q'}/λ_i^{Q} = Π_{m∈Q∖Q'} (m − i)/m` for each `i ∈ Q'`.
pub(crate) fn reweights<C: Curve>(
    announced: &[PartyId],
    qualified: &[PartyId],
) -> Result<Vec<C::Scalar>, Error> {
    use crate::vss::party_scalar;
    use group::ff::Field;
    let dropped: Vec<PartyId> = announced
        .iter()
        .copied()
        .filter(|p| qualified.binary_search(p).is_err())
        .collect();
    if dropped.is_empty() {
        return Ok(qualified.iter().map(|_| C::Scalar::ONE).collect());
    }
    let mut denominator = C::Scalar::ONE;
    for &m in &dropped {
        denominator *= party_scalar::<C>(m);
    }
    let inv = Option::<C::Scalar>::from(denominator.invert()).ok_or(crate::vss::Error::Degenerate)?;
    Ok(qualified
        .iter()
        .map(|&i| {
            let xi = party_scalar::<C>(i);
            let mut num = C::Scalar::ONE;
            for &m in &dropped {
                num *= party_scalar::<C>(m) - xi;
            }
            num * inv
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vss::{lagrange_coefficients, Ristretto255};

    #[test]
    fn reweights_are_the_lagrange_ratio() {
        let pid = |v: u16| PartyId::new(v).unwrap();
        let announced: Vec<PartyId> = [2u16, 3, 5, 8, 13].into_iter().map(pid).collect();
        let qualified: Vec<PartyId> = [2u16, 5, 13].into_iter().map(pid).collect();
        let full = lagrange_coefficients::<Ristretto255>(&announced).unwrap();
        let sub = lagrange_coefficients::<Ristretto255>(&qualified).unwrap();
        let mu = reweights::<Ristretto255>(&announced, &qualified).unwrap();
        for (k, q) in qualified.iter().enumerate() {
            let i = announced.iter().position(|a| a == q).unwrap();
            assert_eq!(mu[k] * full[i], sub[k]);
        }
        let same = reweights::<Ristretto255>(&announced, &announced).unwrap();
        assert!(same.iter().all(|m| *m == curve25519_dalek::Scalar::ONE));
    }
}
