//! The prime-order groups the sharing runs over: Ed25519 (its prime-order subgroup),
//! Ristretto255 and secp256k1, with strict canonical encodings and a second generator
//! `H` whose discrete logarithm to `G` nobody knows.
//!
//! Each group is a unit struct implementing [`Curve`]; the scalar and point types are the
//! curve libraries' own (`curve25519_dalek::{Scalar, EdwardsPoint, RistrettoPoint}`,
//! `k256::{Scalar, ProjectivePoint}`), which are also what the `frost-*` crates use, so
//! shares and commitments convert to FROST types without re-encoding.
//!
//! | group | id | scalar bytes | point bytes | identity encoding |
//! |---|---|---|---|---|
//! | [`Ed25519`] | 1 | 32, little-endian | 32, compressed Edwards y | `01 00 … 00` |
//! | [`Secp256k1`] | 2 | 32, big-endian | 33, SEC1 compressed | 33 zero bytes |
//! | [`Ristretto255`] | 3 | 32, little-endian | 32, Ristretto | 32 zero bytes |
//!
//! These are the RFC 9591 ciphersuites' encodings (and those of `frost-ed25519`,
//! `frost-secp256k1-tr`, `frost-ristretto255`).

use alloc::vec::Vec;
use core::fmt::Debug;

use group::ff::{Field, PrimeField};
use group::{Group, GroupEncoding};
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use crate::hash::{tags, Transcript};
use crate::wire::{self, Reader, Writer};

/// A prime-order group with the encodings and generators the sharing needs.
///
/// Implemented by the unit structs [`Ed25519`], [`Ristretto255`] and [`Secp256k1`]; the
/// rest of [`crate::vss`] and [`crate::lss`] is generic over it.
pub trait Curve: Copy + Clone + Debug + Default + PartialEq + Eq + Send + Sync + 'static {
    /// The scalar field (the curve library's scalar type; arithmetic is constant time).
    type Scalar: PrimeField + Zeroize + ConstantTimeEq + Send + Sync;
    /// The group element (for Ed25519, always in the prime-order subgroup).
    type Point: Group<Scalar = Self::Scalar> + GroupEncoding + ConstantTimeEq + Debug + Send + Sync;

    /// The group's name, bound into hashes: `"ed25519"`, `"secp256k1"`, `"ristretto255"`.
    const NAME: &'static str;
    /// The group's wire byte: 1 Ed25519, 2 secp256k1, 3 Ristretto255.
    const ID: u8;
    /// The group as a runtime value.
    const CURVE: super::CurveId;
    /// Bytes of an encoded scalar.
    const SCALAR_LEN: usize = 32;
    /// Bytes of an encoded point.
    const POINT_LEN: usize;

    /// The second generator `H`, derived by hash-to-curve from the public tag
    /// `QUASAR-LSS-COMMIT-v1` and the group name, so nobody knows `log_G H`.
    fn generator_h() -> Self::Point;

    /// `s·G` for the standard generator `G`, in constant time.
    fn mul_base(s: &Self::Scalar) -> Self::Point;

    /// `a·G + b·H`, in constant time (a Pedersen commitment).
    fn mul_base_h(a: &Self::Scalar, b: &Self::Scalar) -> Self::Point;

    /// `Σ scalars[i]·points[i]`, in variable time: **public inputs only**.
    /// The slices must have equal lengths.
    fn msm_vartime(scalars: &[Self::Scalar], points: &[Self::Point]) -> Self::Point;

    /// A uniform scalar from 64 uniform bytes (reduced modulo the group order).
    fn scalar_from_wide(bytes: &[u8; 64]) -> Self::Scalar;

    /// Whether `p` is in the prime-order subgroup, in variable time. Always true for the
    /// prime-order groups; for Ed25519 it costs a scalar multiplication.
    fn is_torsion_free_vartime(p: &Self::Point) -> bool;

    /// Decodes a canonical point encoding **without** the prime-order-subgroup check
    /// (which only Ed25519 needs). Callers must check [`Curve::is_torsion_free_vartime`]
    /// on whatever they keep; [`read_point`] does both.
    ///
    /// # Errors
    /// [`wire::Error::TooShort`], [`wire::Error::InvalidValue`] for a non-canonical or
    /// off-curve encoding.
    fn read_point_unchecked_subgroup(r: &mut Reader<'_>) -> Result<Self::Point, wire::Error> {
        let bytes = r.take(Self::POINT_LEN)?;
        let mut repr = <Self::Point as GroupEncoding>::Repr::default();
        repr.as_mut().copy_from_slice(bytes);
        let p = Option::<Self::Point>::from(Self::Point::from_bytes(&repr))
            .ok_or(wire::Error::InvalidValue("group element"))?;
        // Canonical: the encoding must be the one the library produces (rejects y ≥ p,
        // a negative zero x, and any other alternative spelling).
        if p.to_bytes().as_ref() != bytes {
            return Err(wire::Error::InvalidValue("non-canonical group element"));
        }
        Ok(p)
    }
}

/// Writes a scalar in the group's canonical encoding.
pub fn write_scalar<C: Curve>(s: &C::Scalar, w: &mut Writer) {
    let mut repr = s.to_repr();
    w.put(repr.as_ref());
    repr.as_mut().zeroize();
}

/// Reads a canonical scalar (rejects encodings of values ≥ the group order).
///
/// # Errors
/// [`wire::Error::TooShort`], [`wire::Error::InvalidValue`].
pub fn read_scalar<C: Curve>(r: &mut Reader<'_>) -> Result<C::Scalar, wire::Error> {
    let bytes = r.take(C::SCALAR_LEN)?;
    let mut repr = <C::Scalar as PrimeField>::Repr::default();
    repr.as_mut().copy_from_slice(bytes);
    let s = C::Scalar::from_repr(repr);
    // Public: whether an encoding is canonical is what the decoder reports.
    if crate::ct::public(bool::from(s.is_some())) {
        Ok(s.unwrap_or(C::Scalar::ZERO))
    } else {
        Err(wire::Error::InvalidValue("non-canonical scalar"))
    }
}

/// The canonical bytes of a scalar.
pub fn scalar_to_bytes<C: Curve>(s: &C::Scalar) -> Vec<u8> {
    s.to_repr().as_ref().to_vec()
}

/// Writes a point in the group's canonical encoding.
pub fn write_point<C: Curve>(p: &C::Point, w: &mut Writer) {
    w.put(p.to_bytes().as_ref());
}

/// The canonical bytes of a point.
pub fn point_to_bytes<C: Curve>(p: &C::Point) -> Vec<u8> {
    p.to_bytes().as_ref().to_vec()
}

/// Reads a point strictly: canonical encoding, on the curve, in the prime-order
/// subgroup (Ed25519 points with a torsion component are rejected). The identity is
/// accepted (a refresh commits to a zero constant); callers reject it where it is
/// meaningless.
///
/// # Errors
/// [`wire::Error::TooShort`], [`wire::Error::InvalidValue`].
pub fn read_point<C: Curve>(r: &mut Reader<'_>) -> Result<C::Point, wire::Error> {
    let p = C::read_point_unchecked_subgroup(r)?;
    if !C::is_torsion_free_vartime(&p) {
        return Err(wire::Error::InvalidValue(
            "group element outside the prime-order subgroup",
        ));
    }
    Ok(p)
}

/// Decodes a point from exactly [`Curve::POINT_LEN`] bytes, strictly (see [`read_point`]).
///
/// # Errors
/// [`wire::Error::LengthMismatch`], [`wire::Error::InvalidValue`].
pub fn point_from_bytes<C: Curve>(bytes: &[u8]) -> Result<C::Point, wire::Error> {
    if bytes.len() != C::POINT_LEN {
        return Err(wire::Error::LengthMismatch {
            expected: C::POINT_LEN,
            got: bytes.len(),
        });
    }
    let mut r = Reader::new(bytes);
    let p = read_point::<C>(&mut r)?;
    r.finish()?;
    Ok(p)
}

/// Decodes a scalar from exactly 32 canonical bytes.
///
/// # Errors
/// [`wire::Error::LengthMismatch`], [`wire::Error::InvalidValue`].
pub fn scalar_from_bytes<C: Curve>(bytes: &[u8]) -> Result<C::Scalar, wire::Error> {
    if bytes.len() != C::SCALAR_LEN {
        return Err(wire::Error::LengthMismatch {
            expected: C::SCALAR_LEN,
            got: bytes.len(),
        });
    }
    let mut r = Reader::new(bytes);
    let s = read_scalar::<C>(&mut r)?;
    r.finish()?;
    Ok(s)
}

/// A uniformly random scalar.
pub fn random_scalar<C: Curve>(rng: &mut (impl rand_core::RngCore + rand_core::CryptoRng)) -> C::Scalar {
    C::Scalar::random(rng)
}

/// 64 bytes of cSHAKE256 (function name `QUASAR`, customization `QUASAR-LSS-COMMIT-v1`)
/// over the group name, a label and a counter: the input of every `H` derivation.
fn h_seed(curve: &str, label: &[u8], counter: u64) -> [u8; 64] {
    let mut t = Transcript::new(tags::LSS_COMMIT);
    t.append(curve.as_bytes())
        .append(label)
        .append(&counter.to_be_bytes());
    t.finalize()
}

/// `v·P` for a small public integer `v` (double-and-add, variable time).
pub(crate) fn mul_small_vartime<P: Group>(p: &P, v: u64) -> P {
    if v == 0 {
        return P::identity();
    }
    let bits = 64 - v.leading_zeros();
    let mut acc = *p;
    for i in (0..bits - 1).rev() {
        acc = acc.double();
        if (v >> i) & 1 == 1 {
            acc += p;
        }
    }
    acc
}

// ---------------------------------------------------------------------------------------
// Ed25519
// ---------------------------------------------------------------------------------------

/// Ed25519's prime-order subgroup (`curve25519_dalek::EdwardsPoint`), as `frost-ed25519`.
///
/// `H`: for counter = 0, 1, …: 32 bytes of the LSS-commit cSHAKE256 over
/// (`"ed25519"`, `"H"`, counter) are decompressed as an Edwards y-coordinate
/// (try-and-increment); the first that decodes is multiplied by the cofactor 8 and
/// accepted if it is not the identity. Decoding rejects non-canonical encodings and
/// points with a torsion component.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ed25519;

/// Precomputed tables for `H`, built once per process (with `std`).
#[cfg(feature = "std")]
mod tables {
    use curve25519_dalek::edwards::EdwardsBasepointTable;
    use curve25519_dalek::ristretto::RistrettoBasepointTable;
    use curve25519_dalek::traits::BasepointTable;
    use std::sync::OnceLock;

    static ED_G: OnceLock<EdwardsBasepointTable> = OnceLock::new();
    static ED_H: OnceLock<EdwardsBasepointTable> = OnceLock::new();
    static RI_G: OnceLock<RistrettoBasepointTable> = OnceLock::new();
    static RI_H: OnceLock<RistrettoBasepointTable> = OnceLock::new();
    static K_H: OnceLock<k256::ProjectivePoint> = OnceLock::new();

    // The generators' tables are built here, once per process, rather than taken from
    // dalek's `mul_base`: its precomputed statics are 38 KB of incompressible data, a
    // tenth of a gzipped Lens or Pulsar WASM module; building a table costs well under a
    // millisecond.
    pub(super) fn ed_g() -> &'static EdwardsBasepointTable {
        ED_G.get_or_init(|| {
            EdwardsBasepointTable::create(&curve25519_dalek::constants::ED25519_BASEPOINT_POINT)
        })
    }

    pub(super) fn ristretto_g() -> &'static RistrettoBasepointTable {
        RI_G.get_or_init(|| {
            RistrettoBasepointTable::create(&curve25519_dalek::constants::RISTRETTO_BASEPOINT_POINT)
        })
    }

    pub(super) fn ed() -> &'static EdwardsBasepointTable {
        ED_H.get_or_init(|| EdwardsBasepointTable::create(&super::ed25519_h()))
    }

    pub(super) fn ristretto() -> &'static RistrettoBasepointTable {
        RI_H.get_or_init(|| RistrettoBasepointTable::create(&super::ristretto_h()))
    }

    pub(super) fn k256() -> k256::ProjectivePoint {
        *K_H.get_or_init(super::secp256k1_h)
    }
}

fn ed25519_h() -> curve25519_dalek::EdwardsPoint {
    use curve25519_dalek::edwards::CompressedEdwardsY;
    let mut counter = 0u64;
    loop {
        let seed = h_seed(Ed25519::NAME, b"H", counter);
        let mut y = [0u8; 32];
        y.copy_from_slice(&seed[..32]);
        if let Some(p) = CompressedEdwardsY(y).decompress() {
            let h = p.mul_by_cofactor();
            if !bool::from(h.is_identity()) {
                return h;
            }
        }
        counter += 1;
    }
}

impl Curve for Ed25519 {
    type Scalar = curve25519_dalek::Scalar;
    type Point = curve25519_dalek::EdwardsPoint;
    const NAME: &'static str = "ed25519";
    const ID: u8 = 1;
    const CURVE: super::CurveId = super::CurveId::Ed25519;
    const POINT_LEN: usize = 32;

    fn generator_h() -> Self::Point {
        #[cfg(feature = "std")]
        {
            use curve25519_dalek::traits::BasepointTable;
            tables::ed().basepoint()
        }
        #[cfg(not(feature = "std"))]
        {
            ed25519_h()
        }
    }

    fn mul_base(s: &Self::Scalar) -> Self::Point {
        #[cfg(feature = "std")]
        {
            tables::ed_g() * s
        }
        #[cfg(not(feature = "std"))]
        {
            curve25519_dalek::EdwardsPoint::mul_base(s)
        }
    }

    fn mul_base_h(a: &Self::Scalar, b: &Self::Scalar) -> Self::Point {
        #[cfg(feature = "std")]
        {
            tables::ed_g() * a + tables::ed() * b
        }
        #[cfg(not(feature = "std"))]
        {
            curve25519_dalek::EdwardsPoint::mul_base(a) + ed25519_h() * b
        }
    }

    fn msm_vartime(scalars: &[Self::Scalar], points: &[Self::Point]) -> Self::Point {
        use curve25519_dalek::traits::VartimeMultiscalarMul;
        curve25519_dalek::EdwardsPoint::vartime_multiscalar_mul(scalars, points)
    }

    fn scalar_from_wide(bytes: &[u8; 64]) -> Self::Scalar {
        curve25519_dalek::Scalar::from_bytes_mod_order_wide(bytes)
    }

    fn is_torsion_free_vartime(p: &Self::Point) -> bool {
        p.is_torsion_free()
    }

    /// Canonical encodings only, checked on the bytes (no re-encoding, which would cost
    /// a field inversion): `y < p`, and no set sign bit when `x = 0` (`y = ±1`).
    fn read_point_unchecked_subgroup(r: &mut Reader<'_>) -> Result<Self::Point, wire::Error> {
        let bytes: [u8; 32] = r.array()?;
        let mut y = bytes;
        y[31] &= 0x7F;
        let high = y[1..31].iter().all(|&b| b == 0xFF) && y[31] == 0x7F;
        if high && y[0] >= 0xED {
            return Err(wire::Error::InvalidValue("non-canonical group element"));
        }
        let sign = bytes[31] & 0x80 != 0;
        let is_one = y[0] == 1 && y[1..].iter().all(|&b| b == 0);
        let is_minus_one = high && y[0] == 0xEC;
        if sign && (is_one || is_minus_one) {
            return Err(wire::Error::InvalidValue("non-canonical group element"));
        }
        curve25519_dalek::edwards::CompressedEdwardsY(bytes)
            .decompress()
            .ok_or(wire::Error::InvalidValue("group element"))
    }
}

// ---------------------------------------------------------------------------------------
// Ristretto255
// ---------------------------------------------------------------------------------------

/// Ristretto255 (`curve25519_dalek::RistrettoPoint`), as `frost-ristretto255`.
///
/// `H` = `RistrettoPoint::from_uniform_bytes` of the 64-byte LSS-commit cSHAKE256 over
/// (`"ristretto255"`, `"H"`, 0) — the RFC 9496 one-way map, so `log_G H` is unknown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ristretto255;

fn ristretto_h() -> curve25519_dalek::RistrettoPoint {
    curve25519_dalek::RistrettoPoint::from_uniform_bytes(&h_seed(Ristretto255::NAME, b"H", 0))
}

impl Curve for Ristretto255 {
    type Scalar = curve25519_dalek::Scalar;
    type Point = curve25519_dalek::RistrettoPoint;
    const NAME: &'static str = "ristretto255";
    const ID: u8 = 3;
    const CURVE: super::CurveId = super::CurveId::Ristretto255;
    const POINT_LEN: usize = 32;

    fn generator_h() -> Self::Point {
        #[cfg(feature = "std")]
        {
            tables::ristretto().basepoint()
        }
        #[cfg(not(feature = "std"))]
        {
            ristretto_h()
        }
    }

    fn mul_base(s: &Self::Scalar) -> Self::Point {
        #[cfg(feature = "std")]
        {
            tables::ristretto_g() * s
        }
        #[cfg(not(feature = "std"))]
        {
            curve25519_dalek::RistrettoPoint::mul_base(s)
        }
    }

    fn mul_base_h(a: &Self::Scalar, b: &Self::Scalar) -> Self::Point {
        #[cfg(feature = "std")]
        {
            tables::ristretto_g() * a + tables::ristretto() * b
        }
        #[cfg(not(feature = "std"))]
        {
            curve25519_dalek::RistrettoPoint::mul_base(a) + ristretto_h() * b
        }
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

// ---------------------------------------------------------------------------------------
// secp256k1
// ---------------------------------------------------------------------------------------

/// secp256k1 (`k256::ProjectivePoint`), as `frost-secp256k1-tr`.
///
/// `H` = the RFC 9380 hash-to-curve `secp256k1_XMD:SHA-256_SSWU_RO_` (k256's
/// `hash_from_bytes::<ExpandMsgXmd<Sha256>>`) of the message `"H"` with the domain
/// separation tag `QUASAR-LSS-COMMIT-v1-secp256k1`. The identity encodes as 33 zero
/// bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Secp256k1;

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
    const CURVE: super::CurveId = super::CurveId::Secp256k1;
    const POINT_LEN: usize = 33;

    fn generator_h() -> Self::Point {
        #[cfg(feature = "std")]
        {
            tables::k256()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn generators_are_sound<C: Curve>() {
        let h = C::generator_h();
        assert!(!bool::from(h.is_identity()));
        assert_ne!(h, C::Point::generator());
        assert!(C::is_torsion_free_vartime(&h));
        let a = C::Scalar::from(5u64);
        let b = C::Scalar::from(7u64);
        assert_eq!(C::mul_base_h(&a, &b), C::Point::generator() * a + h * b);
        assert_eq!(C::mul_base(&a), C::Point::generator() * a);
        assert_eq!(mul_small_vartime(&h, 1000), h * C::Scalar::from(1000u64));
        assert_eq!(
            C::msm_vartime(&[a, b], &[C::Point::generator(), h]),
            C::mul_base_h(&a, &b)
        );
        // Round trips, identity included.
        for p in [h, C::Point::identity(), C::Point::generator()] {
            let bytes = point_to_bytes::<C>(&p);
            assert_eq!(bytes.len(), C::POINT_LEN);
            assert_eq!(point_from_bytes::<C>(&bytes).unwrap(), p);
        }
        let s = C::Scalar::from(123456789u64);
        assert_eq!(scalar_from_bytes::<C>(&scalar_to_bytes::<C>(&s)).unwrap(), s);
        assert!(scalar_from_bytes::<C>(&[0xFF; 32]).is_err());
    }

    #[test]
    fn generators() {
        generators_are_sound::<Ed25519>();
        generators_are_sound::<Ristretto255>();
        generators_are_sound::<Secp256k1>();
    }

    #[test]
    fn ed25519_rejects_torsion_and_non_canonical() {
        use curve25519_dalek::constants::EIGHT_TORSION;
        let p = Ed25519::generator_h() + EIGHT_TORSION[1];
        let bytes = p.compress().to_bytes();
        assert!(point_from_bytes::<Ed25519>(&bytes).is_err());
        // y = p (non-canonical spelling of y = 0) is rejected.
        let mut y = [0xFFu8; 32];
        y[0] = 0xED;
        y[31] = 0x7F;
        assert!(point_from_bytes::<Ed25519>(&y).is_err());
        // the identity with the sign bit set ("negative zero" x) is rejected.
        let mut id = [0u8; 32];
        id[0] = 1;
        id[31] = 0x80;
        assert!(point_from_bytes::<Ed25519>(&id).is_err());
    }

    #[test]
    fn fast_canonical_checks_match_re_encoding() {
        use curve25519_dalek::edwards::CompressedEdwardsY;
        use curve25519_dalek::ristretto::CompressedRistretto;
        use rand_core::{RngCore, SeedableRng};
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
        let mut cases: Vec<[u8; 32]> = Vec::new();
        for i in 0..3000 {
            let mut b = [0u8; 32];
            rng.fill_bytes(&mut b);
            if i % 3 == 0 {
                // Near p: y ∈ [p − 20, 2^255 − 1], both signs.
                b[1..31].fill(0xFF);
                b[31] = 0x7F | (b[31] & 0x80);
                b[0] = 0xD8 + (b[0] % 40);
            } else if i % 3 == 1 {
                b[1..].fill(0);
                b[31] |= b[5] & 0x80;
                b[0] %= 4;
            }
            cases.push(b);
        }
        for b in cases {
            let fast = Ed25519::read_point_unchecked_subgroup(&mut Reader::new(&b)).is_ok();
            let slow = CompressedEdwardsY(b)
                .decompress()
                .is_some_and(|p| p.compress().to_bytes() == b);
            assert_eq!(fast, slow, "ed25519 {b:02x?}");
            let fast = Ristretto255::read_point_unchecked_subgroup(&mut Reader::new(&b)).is_ok();
            let slow = CompressedRistretto(b)
                .decompress()
                .is_some_and(|p| p.compress().to_bytes() == b);
            assert_eq!(fast, slow, "ristretto {b:02x?}");
        }
    }

    #[test]
    fn secp256k1_rejects_bad_encodings() {
        let mut b = [0u8; 33];
        b[0] = 0x05;
        assert!(point_from_bytes::<Secp256k1>(&b).is_err());
        b[0] = 0x02; // x = 0 is not on the curve
        assert!(point_from_bytes::<Secp256k1>(&b).is_err());
        assert!(point_from_bytes::<Secp256k1>(&[0u8; 32]).is_err());
    }
}
