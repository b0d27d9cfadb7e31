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

#[cfg(any(feature = "ed25519", feature = "ristretto255"))]
use crate::hash::{tags, Transcript};
use crate::wire::{self, Reader, Writer};

/// Commitments made together ([`Curve::commit_encoded`]).
pub struct MadeEncoded<P> {
    /// Their encodings, `POINT_LEN` bytes each, in order.
    pub encoded: Vec<u8>,
    /// Their points, where they were made on the way.
    pub points: Option<Vec<P>>,
    /// Their points as the group's lanes made them, where it has lanes.
    pub lanes: Option<Lanes>,
}

/// Points as a group's lanes hold them: eight to a block, in order, in the coordinates
/// the lanes compute in (AVX-512 IFMA, `ifma`). What [`Curve::column_sums_encoded`] reads
/// in place of decoding the points' encoding, a field square root per point. Opaque: only
/// this crate's groups make them, and only where they have lanes.
pub struct Lanes {
    #[cfg(curve_lanes)]
    blocks: Vec<ifma::Block>,
}

#[cfg(curve_lanes)]
impl Lanes {
    fn new(blocks: Vec<ifma::Block>) -> Self {
        Lanes { blocks }
    }
}

/// One row of [`Curve::column_sums_encoded`]: its points' encoding, and their lanes where
/// this process made them.
pub type EncodedRow<'a> = (&'a [u8], Option<&'a Lanes>);

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

    /// The commitments of `zeros` coefficients known to be zero (identities), then
    /// `values[k]·G` (Feldman, `blinds` = `None`) or `values[k]·G + blinds[k]·H`
    /// (Pedersen; the slices have equal lengths), in constant time: their encodings, and
    /// the points or lanes where they were made on the way (otherwise the caller decodes
    /// the points if it needs them), where the group makes the encodings cheaper together
    /// than one by one; `None` (the default) where it does not. Only with
    /// `in-process-sharing`, which keeps encodings.
    #[cfg(feature = "in-process-sharing")]
    fn commit_encoded(
        zeros: usize,
        values: &[Self::Scalar],
        blinds: Option<&[Self::Scalar]>,
    ) -> Option<MadeEncoded<Self::Point>> {
        let _ = (zeros, values, blinds);
        None
    }

    /// The encodings (`POINT_LEN` bytes each, in order) of the column sums
    /// `Σ_d weights[d]·rows[d][k]` (a plain sum for `None`) for each `k` of `columns`, the
    /// rows given by their points' canonical encodings (and their lanes, read instead
    /// where given), where the group sums columns faster from encodings than from its
    /// points; `None` (the default) where it does not, whatever the arguments, so a
    /// caller asks with empty ones first. Public inputs only (variable time). Only with
    /// `in-process-sharing`: the receivers of one process share the sums.
    #[cfg(feature = "in-process-sharing")]
    fn column_sums_encoded(
        rows: &[EncodedRow<'_>],
        weights: Option<&[Self::Scalar]>,
        columns: core::ops::Range<usize>,
    ) -> Option<Vec<u8>> {
        let _ = (rows, weights, columns);
        None
    }

    /// The encoding of `value·G` (`blind` = `None`) or of `value·G + blind·H`, in constant
    /// time, where the group makes the encoding of one product faster than the product and
    /// its encoding one after the other; `None` (the default) where it does not.
    fn mul_base_encoded(value: &Self::Scalar, blind: Option<&Self::Scalar>) -> Option<[u8; 32]> {
        let _ = (value, blind);
        None
    }

    /// The encodings (`POINT_LEN` bytes each, in order) of `Σ_k x^k·points[k]` at each
    /// public `x` of `xs` (up to eight), the points given by their encodings, where the
    /// group evaluates several at once faster than one by one; `None` (the default) where
    /// it does not, whatever the arguments, so a caller asks with empty ones before it
    /// encodes points. Only with `in-process-sharing`: the receivers of one process share
    /// them.
    #[cfg(feature = "in-process-sharing")]
    fn evaluate_encoded(encoded: &[u8], xs: &[u16]) -> Option<Vec<u8>> {
        let _ = (encoded, xs);
        None
    }

    /// `Σ_k coefficients[k]·x^k` at a small public `x` (a party id), in constant time in the
    /// coefficients. Horner's rule by default; with feature `fast-dealing` the Curve25519
    /// groups reduce each step with a single small product instead of a general one.
    fn horner_small(coefficients: &[Self::Scalar], x: u16) -> Self::Scalar {
        horner::<Self>(coefficients, &Self::Scalar::from(u64::from(x)))
    }

    /// [`Curve::horner_small`] of two coefficient vectors at one `x` (a Pedersen dealer's
    /// values and blinds); with `fast-dealing` the Curve25519 groups interleave the two.
    fn horner_small_pair(f: &[Self::Scalar], g: &[Self::Scalar], x: u16) -> (Self::Scalar, Self::Scalar) {
        (Self::horner_small(f, x), Self::horner_small(g, x))
    }

    /// Each of `polys` (coefficient vectors of one length, constant term first) at each
    /// small public `x` of `xs`, `out[p][i]`, in constant time in the coefficients: a
    /// dealer's shares for all its receivers, where the group evaluates several ids at once
    /// (the Curve25519 groups with AVX-512 IFMA, eight); `None` (the default) where it
    /// does not, and the caller evaluates one id at a time.
    fn horner_small_at_ids(polys: &[&[Self::Scalar]], xs: &[u16]) -> Option<Vec<Vec<Self::Scalar>>> {
        let _ = (polys, xs);
        None
    }

    /// `σ_k = Σ_i w_i·x_i^k` for `k < t` at small public `x_i` (party ids), **public
    /// inputs only**: a batch check's weights for the commitments. One general product per
    /// term and power by default; natively the Curve25519 groups (feature `fast-dealing`)
    /// take each power from the one before with a small product and reduce each sum once.
    fn power_sums(terms: &[(u16, Self::Scalar)], t: usize) -> alloc::vec::Vec<Self::Scalar> {
        let mut sigma = alloc::vec![Self::Scalar::ZERO; t];
        for (x, w) in terms {
            let (x, mut w) = (Self::Scalar::from(u64::from(*x)), *w);
            for s in sigma.iter_mut() {
                *s += w;
                w *= x;
            }
        }
        sigma
    }

    /// `(Σ w_i·a_i, Σ w_i·b_i)` over `terms` `(w_i, a_i, b_i)`, in constant time: a share's
    /// value and blind weighted and summed (a batch check's left side, a new share's
    /// combination). Term by term by default; natively the Curve25519 groups (feature
    /// `fast-dealing`) add the products unreduced and reduce once every 64 terms.
    fn dot_pair<'a>(
        terms: impl Iterator<Item = (&'a Self::Scalar, &'a Self::Scalar, &'a Self::Scalar)>,
    ) -> (Self::Scalar, Self::Scalar)
    where
        Self::Scalar: 'a,
    {
        let (mut x, mut y) = (Self::Scalar::ZERO, Self::Scalar::ZERO);
        for (w, a, b) in terms {
            x += *w * a;
            y += *w * b;
        }
        (x, y)
    }

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

/// `Σ_k coefficients[k]·x^k` by Horner's rule, constant time in the coefficients and `x`.
pub(crate) fn horner<C: Curve>(coefficients: &[C::Scalar], x: &C::Scalar) -> C::Scalar {
    let mut acc = C::Scalar::ZERO;
    for c in coefficients.iter().rev() {
        acc = acc * x + c;
    }
    acc
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
#[cfg(any(feature = "ed25519", feature = "ristretto255"))]
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

#[cfg(feature = "ed25519")]
mod ed25519;
/// Curve25519 commitments eight at a time with AVX-512 IFMA (a dealer's hot path).
#[cfg(curve_lanes)]
#[allow(unsafe_code)] // target-feature calls after detection, vector loads and stores
mod ifma;
#[cfg(feature = "ristretto255")]
mod ristretto255;
#[cfg(all(any(feature = "ed25519", feature = "ristretto255"), feature = "fast-dealing"))]
mod scalar25519;
#[cfg(feature = "secp256k1")]
mod secp256k1;
#[cfg(all(
    feature = "ed25519",
    feature = "bench-internals",
    feature = "std",
    not(target_arch = "wasm32")
))]
pub use ed25519::use_wide_table;

#[cfg(feature = "ed25519")]
pub use ed25519::Ed25519;
#[cfg(feature = "ristretto255")]
pub use ristretto255::Ristretto255;
#[cfg(feature = "secp256k1")]
pub use secp256k1::Secp256k1;

/// Turns this process's eight-lane AVX-512 IFMA arithmetic for Ed25519 and Ristretto255 off
/// (`false`) or back on, so that a test can run the portable path on a CPU that has the
/// lanes and compare the two (they send the same bytes). Without the lanes (other CPUs,
/// WebAssembly), nothing. `hazmat` only.
#[cfg(feature = "hazmat")]
pub fn use_lanes(on: bool) {
    #[cfg(curve_lanes)]
    ifma::set_enabled(on);
    #[cfg(not(curve_lanes))]
    let _ = on;
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
