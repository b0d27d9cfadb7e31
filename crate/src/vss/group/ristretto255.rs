//! Ristretto255 as a [`Curve`] (feature `ristretto255`).

use super::{h_seed, Curve};
use crate::wire::{self, Reader};

/// Ristretto255 (`curve25519_dalek::RistrettoPoint`), as `frost-ristretto255`.
///
/// `H` = `RistrettoPoint::from_uniform_bytes` of the 64-byte LSS-commit cSHAKE256 over
/// (`"ristretto255"`, `"H"`, 0) — the RFC 9496 one-way map, so `log_G H` is unknown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ristretto255;

/// `H`'s table and, on WebAssembly, `G`'s (see [`mul_g`]), built once per process (with `std`).
#[cfg(feature = "std")]
mod tables {
    use curve25519_dalek::ristretto::RistrettoBasepointTable;
    use std::sync::OnceLock;

    #[cfg(target_arch = "wasm32")]
    static G: OnceLock<RistrettoBasepointTable> = OnceLock::new();
    static H: OnceLock<RistrettoBasepointTable> = OnceLock::new();

    #[cfg(target_arch = "wasm32")]
    pub(super) fn g() -> &'static RistrettoBasepointTable {
        G.get_or_init(|| {
            RistrettoBasepointTable::create(&curve25519_dalek::constants::RISTRETTO_BASEPOINT_POINT)
        })
    }

    pub(super) fn h() -> &'static RistrettoBasepointTable {
        H.get_or_init(|| RistrettoBasepointTable::create(&super::ristretto_h()))
    }
}

fn ristretto_h() -> curve25519_dalek::RistrettoPoint {
    curve25519_dalek::RistrettoPoint::from_uniform_bytes(&h_seed(Ristretto255::NAME, b"H", 0))
}

/// `H`'s encoding (for the IFMA tables, which build on its Edwards coordinates).
#[cfg(curve_lanes)]
pub(super) fn generator_h_bytes() -> [u8; 32] {
    tables::h().basepoint().compress().to_bytes()
}

/// `s·G`. Natively dalek's precomputed static table; on WebAssembly a table built once per
/// instance instead, because the static is 38 KB of incompressible data, a tenth of a gzipped
/// Lens or Pulsar module, while building the table costs about 5 ms there, once (2.6 ms
/// natively, which the static saves every process).
fn mul_g(s: &curve25519_dalek::Scalar) -> curve25519_dalek::RistrettoPoint {
    #[cfg(all(feature = "std", target_arch = "wasm32"))]
    {
        tables::g() * s
    }
    #[cfg(not(all(feature = "std", target_arch = "wasm32")))]
    {
        curve25519_dalek::RistrettoPoint::mul_base(s)
    }
}

/// 1/2 modulo the group order ℓ, (ℓ + 1)/2, little-endian.
#[cfg(all(
    feature = "fast-dealing",
    feature = "in-process-sharing",
    not(target_arch = "wasm32")
))]
const HALF: [u8; 32] = [
    247, 233, 122, 46, 141, 49, 9, 44, 107, 206, 123, 81, 239, 124, 111, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 8,
];

impl Curve for Ristretto255 {
    type Scalar = curve25519_dalek::Scalar;
    type Point = curve25519_dalek::RistrettoPoint;
    const NAME: &'static str = "ristretto255";
    const ID: u8 = 3;
    const CURVE: crate::vss::CurveId = crate::vss::CurveId::Ristretto255;
    const POINT_LEN: usize = 32;

    fn generator_h() -> Self::Point {
        #[cfg(feature = "std")]
        {
            tables::h().basepoint()
        }
        #[cfg(not(feature = "std"))]
        {
            ristretto_h()
        }
    }

    fn mul_base(s: &Self::Scalar) -> Self::Point {
        mul_g(s)
    }

    fn mul_base_h(a: &Self::Scalar, b: &Self::Scalar) -> Self::Point {
        #[cfg(feature = "std")]
        {
            mul_g(a) + tables::h() * b
        }
        #[cfg(not(feature = "std"))]
        {
            mul_g(a) + ristretto_h() * b
        }
    }

    /// Each point made at half its scalars, then doubled inside dalek's batch encoding of
    /// doubles: one field inversion for the whole vector instead of an inverse square root
    /// per point (a Ristretto encoding cannot be batched; the encoding of a double can).
    /// Native only: in the full WebAssembly module it cost 3.3 KB gzipped.
    #[cfg(all(
        feature = "fast-dealing",
        feature = "in-process-sharing",
        not(target_arch = "wasm32")
    ))]
    fn commit_encoded(
        zeros: usize,
        values: &[Self::Scalar],
        blinds: Option<&[Self::Scalar]>,
    ) -> Option<super::MadeEncoded<Self::Point>> {
        // With AVX-512 IFMA, the encodings and the lanes: dalek makes points only by
        // decoding, which the caller does if it needs them.
        #[cfg(curve_lanes)]
        if let Some((encoded, blocks)) = super::ifma::ristretto_commitments(zeros, values, blinds) {
            return Some(super::MadeEncoded {
                encoded,
                points: None,
                lanes: Some(super::Lanes::new(blocks)),
            });
        }
        let half = curve25519_dalek::Scalar::from_bytes_mod_order(HALF);
        let halve = |s: &Self::Scalar| s * half;
        let halves: Vec<Self::Point> = match blinds {
            None => values.iter().map(|a| mul_g(&halve(a))).collect(),
            Some(b) => values
                .iter()
                .zip(b)
                .map(|(a, b)| Self::mul_base_h(&halve(a), &halve(b)))
                .collect(),
        };
        // Public: the halves of public commitments (anyone can halve a point).
        crate::ct::public_slice(&halves);
        let identities = || core::iter::repeat_n(<Self::Point as group::Group>::identity(), zeros);
        let points: Vec<Self::Point> = identities().chain(halves.iter().map(|h| h + h)).collect();
        // dalek's batch inversion skips zeros, so an identity among the points (a zero
        // coefficient) is encoded right too (tested); the identity's encoding is 32 zeros.
        let mut encoded = alloc::vec![0u8; zeros * Self::POINT_LEN];
        encoded.reserve(halves.len() * Self::POINT_LEN);
        for e in curve25519_dalek::RistrettoPoint::double_and_compress_batch(&halves) {
            encoded.extend_from_slice(e.as_bytes());
        }
        Some(super::MadeEncoded {
            encoded,
            points: Some(points),
            lanes: None,
        })
    }

    /// With AVX-512 IFMA, the product spread over eight lanes (see `ifma`); elsewhere `None`.
    #[cfg(curve_lanes)]
    fn mul_base_encoded(value: &Self::Scalar, blind: Option<&Self::Scalar>) -> Option<[u8; 32]> {
        super::ifma::ristretto_commitment(value, blind)
    }

    /// With AVX-512 IFMA, eight evaluations at a time (see `ifma`); elsewhere `None`.
    #[cfg(curve_lanes)]
    fn evaluate_encoded(encoded: &[u8], xs: &[u16]) -> Option<alloc::vec::Vec<u8>> {
        super::ifma::ristretto_evaluations(encoded, xs)
    }

    /// With AVX-512 IFMA, eight columns at a time (see `ifma`); elsewhere `None`.
    #[cfg(curve_lanes)]
    fn column_sums_encoded(
        rows: &[super::EncodedRow<'_>],
        weights: Option<&[Self::Scalar]>,
        columns: core::ops::Range<usize>,
    ) -> Option<alloc::vec::Vec<u8>> {
        super::ifma::ristretto_column_sums(rows, weights, columns)
    }

    #[cfg(feature = "fast-dealing")]
    fn horner_small(coefficients: &[Self::Scalar], x: u16) -> Self::Scalar {
        super::scalar25519::horner_small(coefficients, x)
    }

    /// Natively only: on WebAssembly the interleaved pair cost the full module 0.8 KB
    /// gzipped (lens-ed25519 0.3 KB), and its speed there is unmeasured.
    #[cfg(all(feature = "fast-dealing", not(target_arch = "wasm32")))]
    fn horner_small_pair(f: &[Self::Scalar], g: &[Self::Scalar], x: u16) -> (Self::Scalar, Self::Scalar) {
        super::scalar25519::horner_small_pair(f, g, x)
    }

    #[cfg(all(feature = "fast-dealing", not(target_arch = "wasm32")))]
    fn power_sums(terms: &[(u16, Self::Scalar)], t: usize) -> alloc::vec::Vec<Self::Scalar> {
        super::scalar25519::power_sums(terms, t)
    }

    #[cfg(all(feature = "fast-dealing", not(target_arch = "wasm32")))]
    fn dot_pair<'a>(
        terms: impl Iterator<Item = (&'a Self::Scalar, &'a Self::Scalar, &'a Self::Scalar)>,
    ) -> (Self::Scalar, Self::Scalar) {
        super::scalar25519::dot_pair(terms)
    }

    #[cfg(curve_lanes)]
    fn horner_small_at_ids(
        polys: &[&[Self::Scalar]],
        xs: &[u16],
    ) -> Option<alloc::vec::Vec<alloc::vec::Vec<Self::Scalar>>> {
        super::ifma::scalars_at_ids(polys, xs)
    }

    fn msm_vartime(scalars: &[Self::Scalar], points: &[Self::Point]) -> Self::Point {
        use curve25519_dalek::traits::VartimeMultiscalarMul;
        curve25519_dalek::RistrettoPoint::vartime_multiscalar_mul(scalars, points)
    }

    fn scalar_from_wide(bytes: &[u8; 64]) -> Self::Scalar {
        curve25519_dalek::Scalar::from_bytes_mod_order_wide(bytes)
    }

    fn is_torsion_free_vartime(_p: &Self::Point) -> bool {
        true
    }

    /// Ristretto decoding (RFC 9496 §4.3.1) accepts only canonical encodings.
    fn read_point_unchecked_subgroup(r: &mut Reader<'_>) -> Result<Self::Point, wire::Error> {
        let bytes: [u8; 32] = r.array()?;
        curve25519_dalek::ristretto::CompressedRistretto(bytes)
            .decompress()
            .ok_or(wire::Error::InvalidValue("group element"))
    }
}
