//! The qualified deals' sum at finalize, made once per process.
//!
//! ```text
//! DealSet::combined(qualified, μ) ─► Sum          Σ_{d∈qualified} μ_d·C_d, in parts of eight columns
//! Sum::commitments(mode)                           … as commitments, encoded once (DKG, reshare)
//! Sum::over(old commitments, mode)                 … plus the old ones (refresh)
//! ```
//!
//! Every receiver of a dealing sums the same qualified commitment vectors; in one process
//! the first receivers to ask make the sum together (eight columns each, from the deals'
//! encodings where the group has lanes) and the others take it.

use alloc::sync::Arc;
use alloc::vec::Vec;
use std::sync::{Mutex, OnceLock, PoisonError};

use super::DealSet;
#[cfg(not(target_arch = "wasm32"))]
use super::{encoded_rows, lanes};
use crate::lss::dealing::checks::{plain_or, sum_rows};
#[cfg(not(target_arch = "wasm32"))]
use crate::party::shared;
use crate::vss::{Commitments, Curve, Error, Mode};
use crate::PartyId;

/// One sum of the set's commitment vectors, asked for by the receivers of the process:
/// what it sums, and its parts, which receivers stepped on several threads make together
/// (as the aggregate's), then the sum.
pub(super) struct Making<C: Curve> {
    qualified: Vec<PartyId>,
    weights: Option<Vec<C::Scalar>>,
    /// Eight columns each, made from the rows' encodings, with their points decoded (`None`
    /// where the group cannot: the sum is then made whole).
    #[cfg(not(target_arch = "wasm32"))]
    parts: shared::Parts<Option<Columns<C>>>,
    sum: OnceLock<Arc<Sum<C>>>,
}

/// Some columns of a sum: their points and their encoding.
#[cfg(not(target_arch = "wasm32"))]
type Columns<C> = (Vec<<C as Curve>::Point>, Vec<u8>);

/// One sum of the set's commitment vectors, `Σ_{d∈qualified} μ_d·C_d`.
pub(in crate::lss::dealing) struct Sum<C: Curve> {
    pub(in crate::lss::dealing) points: Vec<C::Point>,
    /// The points' encoding, where they were made encoded.
    encoded: Option<Vec<u8>>,
    torsion_free: OnceLock<bool>,
    /// The sum as commitments, encoded: a receiver's new commitments when there is no base
    /// to add (DKG, reshare). Compressing t points is a field inversion each, and every
    /// receiver hashes its commitments into the transcript and its key.
    commitments: OnceLock<Commitments<C>>,
    /// `base + sum` as commitments, encoded, and whether they are torsion-free, for each
    /// base asked for: a refresh's new commitments (the base is the old ones).
    based: Mutex<Vec<Based<C>>>,
}

/// A base, `base + sum` as commitments, and whether they are torsion-free.
type Based<C> = (Commitments<C>, Commitments<C>, bool);

impl<C: Curve> Sum<C> {
    /// Whether every point of the sum is torsion-free (Ed25519: a multiplication by the
    /// group order per point, so made once per process too).
    pub(in crate::lss::dealing) fn torsion_free(&self) -> bool {
        *self
            .torsion_free
            .get_or_init(|| self.points.iter().all(C::is_torsion_free_vartime))
    }

    /// The sum as commitments of `mode`, with their encoding made once per process.
    ///
    /// # Errors
    /// [`Error::InvalidThreshold`] for an empty sum.
    pub(in crate::lss::dealing) fn commitments(&self, mode: Mode) -> Result<Commitments<C>, Error> {
        let kept = match self.commitments.get() {
            Some(kept) => kept,
            None => {
                let made = match &self.encoded {
                    Some(raw) => Commitments::from_points_encoded(mode, self.points.clone(), raw)?,
                    None => Commitments::from_points(mode, self.points.clone())?,
                };
                made.encode_now();
                self.commitments.get_or_init(|| made)
            }
        };
        // A sum asked for in another mode (never within one ceremony) is not kept.
        if kept.mode() == mode {
            Ok(kept.clone())
        } else {
            Commitments::from_points(mode, self.points.clone())
        }
    }

    /// `base + sum` as commitments of `mode`, with their encoding, and whether they are
    /// torsion-free: made once per process for each base (every receiver of a refresh
    /// would otherwise encode the same new commitments, an inverse square root per
    /// Ristretto point, and check the same old ones for torsion).
    ///
    /// # Errors
    /// [`Error::InvalidThreshold`] for an empty sum.
    pub(in crate::lss::dealing) fn over(
        &self,
        base: &Commitments<C>,
        mode: Mode,
    ) -> Result<(Commitments<C>, bool), Error> {
        let mut done = self.based.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, made, free)) = done.iter().find(|(b, m, _)| b == base && m.mode() == mode) {
            return Ok((made.clone(), *free));
        }
        let points = base
            .points()
            .iter()
            .zip(&self.points)
            .map(|(b, s)| *b + s)
            .collect();
        let made = Commitments::from_points(mode, points)?;
        made.encode_now();
        // base + sum is torsion-free when both are (the base was checked when it was made
        // or decoded; checked again here, once).
        let free = base.is_torsion_free_vartime() && self.torsion_free();
        done.push((base.clone(), made.clone(), free));
        Ok((made, free))
    }
}

impl<C: Curve> DealSet<C> {
    /// `Σ_{d∈qualified} μ_d·C_d` (`weights` μ, or all ones), made once per process for
    /// each (qualified, μ); `None` unless every qualified dealer is in the set.
    pub(in crate::lss::dealing) fn combined(
        &self,
        qualified: &[PartyId],
        weights: Option<&[C::Scalar]>,
    ) -> Option<Arc<Sum<C>>> {
        let weights = plain_or::<C>(weights);
        let rows: Vec<&Commitments<C>> = qualified
            .iter()
            .map(|d| self.dealers.binary_search(d).ok().map(|i| &*self.rows[i]))
            .collect::<Option<_>>()?;
        let t = rows.first().map_or(0, |r| r.threshold());
        let same = |m: &&Arc<Making<C>>| {
            m.qualified.as_slice() == qualified
                && match (&m.weights, weights) {
                    (None, None) => true,
                    (Some(a), Some(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y),
                    _ => false,
                }
        };
        let making = {
            let mut all = self.combined.lock().unwrap_or_else(PoisonError::into_inner);
            match all.iter().find(same) {
                Some(m) => m.clone(),
                None => {
                    let m = Arc::new(Making {
                        qualified: qualified.to_vec(),
                        weights: weights.map(<[_]>::to_vec),
                        #[cfg(not(target_arch = "wasm32"))]
                        parts: shared::Parts::new(t.div_ceil(8)),
                        sum: OnceLock::new(),
                    });
                    all.push(m.clone());
                    m
                }
            }
        };
        if let Some(sum) = making.sum.get() {
            return Some(sum.clone());
        }
        #[cfg(not(target_arch = "wasm32"))]
        let summed = lanes::<C>()
            .then(|| {
                let encoded = encoded_rows(&rows);
                let parts = making
                    .parts
                    .get(|i| summed_encoded::<C>(&encoded, 8 * i..(8 * i + 8).min(t), weights));
                parts.iter().all(Option::is_some).then(|| {
                    let points: Vec<C::Point> =
                        parts.iter().flatten().flat_map(|p| p.0.iter().copied()).collect();
                    let encoded: Vec<u8> = parts.iter().flatten().flat_map(|p| p.1.iter().copied()).collect();
                    (points, encoded)
                })
            })
            .flatten();
        #[cfg(target_arch = "wasm32")]
        let summed = None;
        let sum = making.sum.get_or_init(|| {
            let (points, encoded) = match summed {
                Some((points, encoded)) => (points, Some(encoded)),
                None => {
                    let rows: Vec<&[C::Point]> = rows.iter().map(|r| r.points()).collect();
                    (sum_rows::<C>(&rows, t, weights), None)
                }
            };
            Arc::new(Sum {
                points,
                encoded,
                torsion_free: OnceLock::new(),
                commitments: OnceLock::new(),
                based: Mutex::new(Vec::new()),
            })
        });
        Some(sum.clone())
    }
}

/// Columns `columns` of `Σ_d μ_d·rows_d`, made from the rows' encodings where the group
/// sums columns that way ([`Curve::column_sums_encoded`]), with their encoding: the points
/// of the sum are decoded, not the |Q|·t of the rows. `None` where it cannot.
#[cfg(not(target_arch = "wasm32"))]
fn summed_encoded<C: Curve>(
    rows: &[crate::vss::group::EncodedRow<'_>],
    columns: core::ops::Range<usize>,
    weights: Option<&[C::Scalar]>,
) -> Option<Columns<C>> {
    let encoded = C::column_sums_encoded(rows, weights, columns)?;
    let points = crate::vss::commit::decode_points::<C>(&encoded, C::read_point_unchecked_subgroup).ok()?;
    Some((points, encoded))
}
