//! secp256k1 as a [`Curve`] (feature `secp256k1`).

use super::Curve;
use alloc::vec::Vec;

/// secp256k1 (`k256::ProjectivePoint`), as `frost-secp256k1-tr`.
///
/// `H` = the RFC 9380 hash-to-curve `secp256k1_XMD:SHA-256_SSWU_RO_` (k256's
/// `hash_from_bytes::<ExpandMsgXmd<Sha256>>`) of the message `"H"` with the domain
/// separation tag `QUASAR-LSS-COMMIT-v1-secp256k1`. The identity encodes as 33 zero
/// bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Secp256k1;

/// `H`, derived once per process (with `std`).
#[cfg(feature = "std")]
static H: std::sync::OnceLock<k256::ProjectivePoint> = std::sync::OnceLock::new();

fn secp256k1_h() -> k256::ProjectivePoint {
    use k256::elliptic_curve::hash2curve::{ExpandMsgXmd, GroupDigest};
    const DST: &[u8] = b"QUASAR-LSS-COMMIT-v1-secp256k1";
    // `hash_from_bytes` only fails for an empty or over-long DST, which this is not.
    match k256::Secp256k1::hash_from_bytes::<ExpandMsgXmd<sha2::Sha256>>(&[b"H"], &[DST]) {
        Ok(p) => p,
        Err(_) => unreachable!("the DST is a fixed non-empty string of 30 bytes"),
    }
}

impl Curve for Secp256k1 {
    type Scalar = k256::Scalar;
    type Point = k256::ProjectivePoint;
    const NAME: &'static str = "secp256k1";
    const ID: u8 = 2;
    const CURVE: crate::vss::CurveId = crate::vss::CurveId::Secp256k1;
    const POINT_LEN: usize = 33;

    fn generator_h() -> Self::Point {
        #[cfg(feature = "std")]
        {
            *H.get_or_init(secp256k1_h)
        }
        #[cfg(not(feature = "std"))]
        {
            secp256k1_h()
        }
    }

    fn mul_base(s: &Self::Scalar) -> Self::Point {
        use k256::elliptic_curve::ops::MulByGenerator;
        k256::ProjectivePoint::mul_by_generator(s)
    }

    fn mul_base_h(a: &Self::Scalar, b: &Self::Scalar) -> Self::Point {
        use k256::elliptic_curve::ops::LinearCombination;
        k256::ProjectivePoint::lincomb(&k256::ProjectivePoint::GENERATOR, a, &Self::generator_h(), b)
    }

    fn msm_vartime(scalars: &[Self::Scalar], points: &[Self::Point]) -> Self::Point {
        use k256::elliptic_curve::ops::LinearCombinationExt;
        let pairs: Vec<(k256::ProjectivePoint, k256::Scalar)> =
            points.iter().copied().zip(scalars.iter().copied()).collect();
        k256::ProjectivePoint::lincomb_ext(pairs.as_slice())
    }

    fn scalar_from_wide(bytes: &[u8; 64]) -> Self::Scalar {
        use k256::elliptic_curve::ops::Reduce;
        let wide = k256::WideBytes::clone_from_slice(bytes);
        <k256::Scalar as Reduce<k256::elliptic_curve::bigint::U512>>::reduce_bytes(&wide)
    }

    fn is_torsion_free_vartime(_p: &Self::Point) -> bool {
        true
    }
}
