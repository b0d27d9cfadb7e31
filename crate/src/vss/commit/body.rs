//! What a commitment vector holds, shared by all its clones: the points and, with
//! `in-process-sharing`, their encoding, each made from the other the first time it is asked
//! for.
//!
//! ```text
//! Body::of_points(points)       made here, or a sum        encoding made when written
//! Body::read(points, raw)       decoded from the wire      both known
//! Body::made_encoded(raw, lanes) a dealer's, made in lanes  points decoded when asked for
//! ```
//!
//! Why lazily: where a group makes commitments eight at a time in their encodings
//! (`Curve::commit_encoded` on AVX-512 IFMA), dalek can turn them into its points only by
//! decoding, a field square root each. A process whose receivers sum the deals column by
//! column in the same lanes (`Curve::column_sums_encoded`) never needs the dealers' points
//! on the happy path: they are decoded only for a party checking alone, a complaint, or a
//! blame. Behind an `Arc`, so that the parties of one process that take a deal share one
//! body instead of copying its points.

use alloc::sync::Arc;
use alloc::vec::Vec;

#[cfg(feature = "in-process-sharing")]
use std::sync::OnceLock;

#[cfg(feature = "in-process-sharing")]
use crate::vss::group::Lanes;
use crate::vss::Curve;

/// See the module doc. The points are made lazily only where a group can make encodings
/// alone (`cfg(curve_lanes)`); elsewhere they are always there, and without
/// `in-process-sharing` (no `std`, and the modules by need, for their size) no encoding is
/// kept.
pub(super) struct Body<C: Curve> {
    #[cfg(curve_lanes)]
    points: OnceLock<Vec<C::Point>>,
    /// The constant term alone, where it was asked for before the points (a refresh's check
    /// that it is the identity, a possession proof): one decoding, not `t`.
    #[cfg(curve_lanes)]
    constant: OnceLock<C::Point>,
    #[cfg(not(curve_lanes))]
    points: Vec<C::Point>,
    #[cfg(feature = "in-process-sharing")]
    encoded: OnceLock<Vec<u8>>,
    /// The points as the group's lanes made them (a dealer's, in the process that dealt):
    /// what the column sums read instead of decoding the encoding.
    #[cfg(curve_lanes)]
    lanes: Option<Lanes>,
}

impl<C: Curve> Body<C> {
    pub(super) fn of_points(points: Vec<C::Point>) -> Arc<Self> {
        Self::new(points, None)
    }

    /// Points decoded from `raw`, which a strict decoder accepted (so `raw` is their
    /// canonical encoding).
    pub(super) fn read(points: Vec<C::Point>, raw: &[u8]) -> Arc<Self> {
        Self::new(points, Some(raw))
    }

    fn new(points: Vec<C::Point>, raw: Option<&[u8]>) -> Arc<Self> {
        #[cfg(not(feature = "in-process-sharing"))]
        let _ = raw;
        Arc::new(Body {
            #[cfg(curve_lanes)]
            points: OnceLock::from(points),
            #[cfg(curve_lanes)]
            constant: OnceLock::new(),
            #[cfg(not(curve_lanes))]
            points,
            #[cfg(feature = "in-process-sharing")]
            encoded: raw.map_or_else(OnceLock::new, |raw| OnceLock::from(raw.to_vec())),
            #[cfg(curve_lanes)]
            lanes: None,
        })
    }

    /// Points known only by their encoding, which this process's encoder made (canonical
    /// by construction, tested against dalek byte for byte), and their lanes if it made
    /// them there: decoded when first asked for where the points are lazy, now elsewhere.
    #[cfg(feature = "in-process-sharing")]
    pub(super) fn made_encoded(raw: Vec<u8>, lanes: Option<Lanes>) -> Arc<Self> {
        #[cfg(curve_lanes)]
        return Arc::new(Body {
            points: OnceLock::new(),
            constant: OnceLock::new(),
            encoded: OnceLock::from(raw),
            lanes,
        });
        #[cfg(not(curve_lanes))]
        let _ = lanes;
        #[cfg(not(curve_lanes))]
        Self::read(
            raw.chunks_exact(C::POINT_LEN).map(made_point::<C>).collect(),
            &raw,
        )
    }

    pub(super) fn points(&self) -> &[C::Point] {
        #[cfg(curve_lanes)]
        return self.points.get_or_init(|| {
            let raw = self.encoded.get().map_or(&[][..], Vec::as_slice);
            raw.chunks_exact(C::POINT_LEN).map(made_point::<C>).collect()
        });
        #[cfg(not(curve_lanes))]
        &self.points
    }

    /// The constant term (a body is never empty: `Commitments` refuses empty vectors).
    pub(super) fn constant(&self) -> &C::Point {
        #[cfg(curve_lanes)]
        if self.points.get().is_none() {
            if let Some(first) = self.encoded.get().and_then(|raw| raw.get(..C::POINT_LEN)) {
                return self.constant.get_or_init(|| made_point::<C>(first));
            }
        }
        &self.points()[0]
    }

    /// The points as the group's lanes made them, if they were made there.
    #[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
    pub(super) fn lanes(&self) -> Option<&Lanes> {
        #[cfg(curve_lanes)]
        return self.lanes.as_ref();
        #[cfg(not(curve_lanes))]
        None
    }

    /// The encoding, if it is known.
    #[cfg(feature = "in-process-sharing")]
    pub(super) fn encoded(&self) -> Option<&[u8]> {
        self.encoded.get().map(Vec::as_slice)
    }

    /// The encoding, made by `make` the first time.
    #[cfg(feature = "in-process-sharing")]
    pub(super) fn encoded_or(&self, make: impl FnOnce() -> Vec<u8>) -> &[u8] {
        self.encoded.get_or_init(make)
    }
}

/// A point this process's encoder made, decoded. Such an encoding always decodes (the
/// encoder's output is checked against dalek's, byte for byte, in `ifma`'s tests), so the
/// identity in its place is unreachable; were it reached, the commitments would fail every
/// share check and no share would be accepted against them.
#[cfg(feature = "in-process-sharing")]
fn made_point<C: Curve>(raw: &[u8]) -> C::Point {
    use group::Group;
    let decoded = C::read_point_unchecked_subgroup(&mut crate::wire::Reader::new(raw));
    debug_assert!(decoded.is_ok(), "an encoding made in this process did not decode");
    decoded.unwrap_or_else(|_| C::Point::identity())
}
