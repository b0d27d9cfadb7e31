//! The batched checks of a dealing and the combination of the qualified dealers'
//! commitments. Public checks run in variable time; a receiver's own shares enter only
//! constant-time scalar arithmetic and one fixed-base multiplication.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use group::ff::Field;
use group::Group;
use subtle::ConstantTimeEq;

use super::{Common, DealSet};
use crate::lss::{DealMessage, Error, Kind};
use crate::vss::{Commitments, Curve, Share};
use crate::PartyId;

/// Reshare: `C_{i,0} == λ_i^Q·Σ_k i^k·C_k^old` for every dealer in `valid`, batched with
/// random weights; returns the dealers that fail (found one by one only if the batch
/// fails). The check is public and the same at every party, so a process makes it once
/// (`party::shared`, keyed by everything it reads: the old group, the dealers, the deals'
/// bytes); its weights are then the first asking party's, drawn after the deals arrived
/// and never leaving the process, as for the shared share check (`shared.rs`).
pub(super) fn check_reshare_constants<C: Curve>(
    common: &Common<C>,
    deals: &BTreeMap<PartyId, DealMessage<C>>,
    valid: &[PartyId],
) -> Vec<PartyId> {
    let c = &common.ceremony;
    let Some(old) = c.old.as_ref() else {
        return valid.to_vec();
    };
    #[cfg(not(feature = "in-process-sharing"))]
    return reshare_constants_failing(common, old, deals, valid);
    #[cfg(feature = "in-process-sharing")]
    {
        let head = || {
            let ids = crate::party::id_bytes;
            let (old, dealers, checked) = (old.to_bytes(), ids(&c.dealers), ids(valid));
            let found: Vec<u8> = valid.iter().map(|d| u8::from(deals.contains_key(d))).collect();
            crate::party::shared::key_of([
                C::NAME.as_bytes(),
                &c.session[..],
                &old,
                &dealers,
                &checked,
                &found,
            ])
        };
        let parts: Vec<_> = valid
            .iter()
            .filter_map(|d| deals.get(d))
            .map(|m| &m.raw)
            .collect();
        let failing =
            crate::party::shared::memo_over(b"lss-reshare-constants", head, &parts, 2 * valid.len(), || {
                reshare_constants_failing(common, old, deals, valid)
            });
        failing.to_vec()
    }
}

fn reshare_constants_failing<C: Curve>(
    common: &Common<C>,
    old: &crate::lss::GroupPublic<C>,
    deals: &BTreeMap<PartyId, DealMessage<C>>,
    valid: &[PartyId],
) -> Vec<PartyId> {
    let c = &common.ceremony;
    let old_points = old.commitments().points();
    let lambda_of = |d: &PartyId| c.dealer_index(*d).map_or(C::Scalar::ZERO, |i| c.weights[i]);
    let constant_of = |d: &PartyId| {
        deals
            .get(d)
            .map_or(C::Point::identity(), |m| *m.commitments.constant())
    };
    // Σ_i ρ_i C_{i,0} − Σ_k (Σ_i ρ_i λ_i i^k) C_k^old == 0
    let rho = common.weights(b"reshare-constants", valid.len());
    let terms = valid.iter().zip(rho.iter()).map(|(d, r)| (*d, *r * lambda_of(d)));
    let sigma = crate::vss::batch::power_sums::<C>(terms, old_points.len());
    let mut scalars: Vec<C::Scalar> = rho.clone();
    scalars.extend(sigma.iter().map(|s| -*s));
    let mut points: Vec<C::Point> = valid.iter().map(constant_of).collect();
    points.extend_from_slice(old_points);
    if bool::from(C::msm_vartime(&scalars, &points).is_identity()) {
        return Vec::new();
    }
    valid
        .iter()
        .filter(|d| {
            let expected = C::msm_vartime(&[lambda_of(d)], &[old.share_commitment(**d)]);
            constant_of(d) != expected
        })
        .copied()
        .collect()
}

/// `Σ ρ_d (s_d·G + b_d·H) == Σ ρ_d E_d` with local random weights: the shares side in
/// constant-time scalar arithmetic and one fixed-base multiplication.
pub(super) fn batch_check_shares<C: Curve>(
    common: &Common<C>,
    pending: &[(PartyId, Share<C>)],
    expected: &[C::Point],
) -> bool {
    if pending.is_empty() {
        return true;
    }
    let rho = common.weights(b"own-shares", pending.len());
    crate::vss::batch::shares_open_weighted(common.ceremony.mode, pending, expected, &rho, &rho)
}

/// The new commitments, `base + Σ_{i∈Q'} μ_i·C_i` (base = the old commitments for a
/// refresh, nothing otherwise; μ = 1 unless a reshare lost dealers), and whether they are
/// torsion-free. With `in-process-sharing` they come from `set`, made once per process.
pub(super) fn combine<C: Curve>(
    common: &Common<C>,
    deals: &BTreeMap<PartyId, DealMessage<C>>,
    set: &DealSet<C>,
    qualified: &[PartyId],
    weights: Option<&[C::Scalar]>,
) -> Result<(Commitments<C>, bool), Error> {
    let c = &common.ceremony;
    let t = usize::from(c.threshold);
    // The new commitments, made and encoded once per process: the sum, or for a refresh
    // the old commitments plus the sum.
    #[cfg(feature = "in-process-sharing")]
    if let Some(sum) = set.combined(qualified, weights) {
        return match (&c.old, c.kind) {
            (Some(old), Kind::Refresh) => Ok(sum.over(old.commitments(), c.mode)?),
            _ => Ok((sum.commitments(c.mode)?, sum.torsion_free())),
        };
    }
    #[cfg(not(feature = "in-process-sharing"))]
    let _ = set;
    let rows: Vec<&[C::Point]> = qualified
        .iter()
        .filter_map(|d| deals.get(d).map(|m| m.commitments.points()))
        .collect();
    let mut out: Vec<C::Point> = match (&c.old, c.kind) {
        (Some(old), Kind::Refresh) => old.commitments().points().to_vec(),
        _ => alloc::vec![C::Point::identity(); t],
    };
    for (o, p) in out
        .iter_mut()
        .zip(sum_rows::<C>(&rows, t, plain_or::<C>(weights)))
    {
        *o += p;
    }
    let commitments = Commitments::from_points(c.mode, out)?;
    let free = commitments.is_torsion_free_vartime();
    Ok((commitments, free))
}

/// The weights μ, or `None` when every one is 1 (a plain sum: μ = 1 unless a reshare lost
/// dealers).
pub(super) fn plain_or<C: Curve>(weights: Option<&[C::Scalar]>) -> Option<&[C::Scalar]> {
    weights.filter(|w| !w.iter().all(|x| bool::from(x.ct_eq(&C::Scalar::ONE))))
}

/// `Σ_d μ_d·rows_d`, column by column over `t` columns: plain additions without weights, one
/// multi-scalar multiplication per column with them (public points, variable time).
pub(super) fn sum_rows<C: Curve>(
    rows: &[&[C::Point]],
    t: usize,
    weights: Option<&[C::Scalar]>,
) -> Vec<C::Point> {
    let mut sum = alloc::vec![C::Point::identity(); t];
    match weights {
        None => {
            for row in rows {
                for (o, p) in sum.iter_mut().zip(row.iter()) {
                    *o += p;
                }
            }
        }
        Some(w) => {
            let mut column: Vec<C::Point> = Vec::with_capacity(rows.len());
            for (k, o) in sum.iter_mut().enumerate() {
                column.clear();
                column.extend(rows.iter().map(|r| r[k]));
                *o = C::msm_vartime(w, &column);
            }
        }
    }
    sum
}
