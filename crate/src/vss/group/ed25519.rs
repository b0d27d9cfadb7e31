//! Ed25519's prime-order subgroup as a [`Curve`] (feature `ed25519`).

use group::Group;

use super::{h_seed, Curve};
use crate::wire::{self, Reader};

/// Ed25519's prime-order subgroup (`curve25519_dalek::EdwardsPoint`), as `frost-ed25519`.
///
/// `H`: for counter = 0, 1, …: 32 bytes of the LSS-commit cSHAKE256 over
/// (`"ed25519"`, `"H"`, counter) are decompressed as an Edwards y-coordinate
/// (try-and-increment); the first that decodes is multiplied by the cofactor 8 and
/// accepted if it is not the identity. Decoding rejects non-canonical encodings and
/// points with a torsion component.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ed25519;

/// `H`'s table and, on WebAssembly, `G`'s (see [`mul_g`]), built once per process (with `std`).
#[cfg(feature = "std")]
mod tables {
    use curve25519_dalek::edwards::EdwardsBasepointTable;
    use curve25519_dalek::traits::BasepointTable;
    use std::sync::OnceLock;

    #[cfg(target_arch = "wasm32")]
    static G: OnceLock<EdwardsBasepointTable> = OnceLock::new();
    static H: OnceLock<EdwardsBasepointTable> = OnceLock::new();

    #[cfg(target_arch = "wasm32")]
    pub(super) fn g() -> &'static EdwardsBasepointTable {
        G.get_or_init(|| EdwardsBasepointTable::create(&curve25519_dalek::constants::ED25519_BASEPOINT_POINT))
    }

    pub(super) fn h() -> &'static EdwardsBasepointTable {
        H.get_or_init(|| EdwardsBasepointTable::create(&super::ed25519_h()))
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

/// `H`'s encoding (for the IFMA tables, which build on its coordinates).
#[cfg(curve_lanes)]
pub(super) fn generator_h_bytes() -> [u8; 32] {
    use curve25519_dalek::traits::BasepointTable;
    tables::h().basepoint().compress().to_bytes()
}

/// `s·G`. Natively dalek's precomputed static table, until the process has made many
/// ([`wide`]); on WebAssembly a table built once per instance instead, because the static
/// is 38 KB of incompressible data, a tenth of a gzipped Lens or Pulsar module, while
/// building the table costs about 5 ms there, once (2.6 ms natively, which the static
/// saves every process).
fn mul_g(s: &curve25519_dalek::Scalar) -> curve25519_dalek::EdwardsPoint {
    #[cfg(all(feature = "std", target_arch = "wasm32"))]
    {
        tables::g() * s
    }
    #[cfg(all(feature = "std", not(target_arch = "wasm32")))]
    if let Some(table) = wide::table() {
        use curve25519_dalek::traits::BasepointTable;
        return table.mul_base(s);
    }
    #[cfg(not(all(feature = "std", target_arch = "wasm32")))]
    {
        curve25519_dalek::EdwardsPoint::mul_base(s)
    }
}

/// A radix-32 table of `G` for processes that make many multiples of it: 5 % faster per
/// multiplication than dalek's static radix-16 one (12.0 against 12.6 µs on the AMD EPYC
/// host of the README), but built at run time (2 ms), which pays from about 3,400
/// multiplications. A simulator or a node hosting many members passes that in one ceremony
/// (a 128 → 64 reshare makes 3,698 commitments); a party alone in its process never does.
/// Which table serves depends only on how many multiplications the process has made
/// (public), and both are constant time.
#[cfg(all(feature = "std", not(target_arch = "wasm32")))]
mod wide {
    use core::sync::atomic::{AtomicUsize, Ordering};
    use curve25519_dalek::edwards::EdwardsBasepointTableRadix32;
    use std::sync::OnceLock;

    /// Multiplications by `G` before the table is built.
    const AFTER: usize = 4096;
    static MADE: AtomicUsize = AtomicUsize::new(0);
    static TABLE: OnceLock<EdwardsBasepointTableRadix32> = OnceLock::new();

    /// Switches to the table now (the constant-flow check's path through it).
    #[cfg(feature = "bench-internals")]
    pub(crate) fn now() {
        MADE.store(AFTER, Ordering::Relaxed);
    }

    /// The table, once the process has made [`AFTER`] multiplications by `G`.
    pub(super) fn table() -> Option<&'static EdwardsBasepointTableRadix32> {
        if let Some(table) = TABLE.get() {
            return Some(table);
        }
        if MADE.fetch_add(1, Ordering::Relaxed) < AFTER {
            return None;
        }
        Some(TABLE.get_or_init(|| {
            EdwardsBasepointTableRadix32::from(curve25519_dalek::constants::ED25519_BASEPOINT_TABLE)
        }))
    }
}

impl Curve for Ed25519 {
    type Scalar = curve25519_dalek::Scalar;
    type Point = curve25519_dalek::EdwardsPoint;
    const NAME: &'static str = "ed25519";
    const ID: u8 = 1;
    const CURVE: crate::vss::CurveId = crate::vss::CurveId::Ed25519;
    const POINT_LEN: usize = 32;

    fn generator_h() -> Self::Point {
        #[cfg(feature = "std")]
        {
            use curve25519_dalek::traits::BasepointTable;
            tables::h().basepoint()
        }
        #[cfg(not(feature = "std"))]
        {
            ed25519_h()
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
            mul_g(a) + ed25519_h() * b
        }
    }

    /// With AVX-512 IFMA, eight commitments at a time (see `ifma`), encoded only: dalek
    /// makes points only by decoding, which the caller does if it needs them. Elsewhere
    /// `None`, one multiplication at a time.
    #[cfg(curve_lanes)]
    fn commit_encoded(
        zeros: usize,
        values: &[Self::Scalar],
        blinds: Option<&[Self::Scalar]>,
    ) -> Option<super::MadeEncoded<Self::Point>> {
        let (encoded, blocks) = super::ifma::edwards_commitments(zeros, values, blinds)?;
        Some(super::MadeEncoded {
            encoded,
            points: None,
            lanes: Some(super::Lanes::new(blocks)),
        })
    }

    /// With AVX-512 IFMA, the product spread over eight lanes (see `ifma`); elsewhere `None`.
    #[cfg(curve_lanes)]
    fn mul_base_encoded(value: &Self::Scalar, blind: Option<&Self::Scalar>) -> Option<[u8; 32]> {
        super::ifma::edwards_commitment(value, blind)
    }

    /// With AVX-512 IFMA, eight evaluations at a time (see `ifma`); elsewhere `None`.
    #[cfg(curve_lanes)]
    fn evaluate_encoded(encoded: &[u8], xs: &[u16]) -> Option<alloc::vec::Vec<u8>> {
        super::ifma::edwards_evaluations(encoded, xs)
    }

    /// With AVX-512 IFMA, eight columns at a time (see `ifma`); elsewhere `None`.
    #[cfg(curve_lanes)]
    fn column_sums_encoded(
        rows: &[super::EncodedRow<'_>],
        weights: Option<&[Self::Scalar]>,
        columns: core::ops::Range<usize>,
    ) -> Option<alloc::vec::Vec<u8>> {
        super::ifma::edwards_column_sums(rows, weights, columns)
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

/// Makes this process's multiples of `G` on the radix-32 table from now on, as a process
/// that has made many does (for the constant-flow check, which makes few).
#[cfg(all(feature = "bench-internals", feature = "std", not(target_arch = "wasm32")))]
pub fn use_wide_table() {
    wide::now();
}

#[cfg(all(test, feature = "std", not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use rand_core::SeedableRng;

    /// The radix-32 table a busy process switches to gives the same multiples as dalek's.
    #[test]
    fn the_wide_table_agrees_with_the_static_one() {
        while wide::table().is_none() {}
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(32);
        let mut scalars: alloc::vec::Vec<curve25519_dalek::Scalar> = (0..64)
            .map(|_| curve25519_dalek::Scalar::random(&mut rng))
            .collect();
        scalars.extend([
            curve25519_dalek::Scalar::ZERO,
            curve25519_dalek::Scalar::ONE,
            -curve25519_dalek::Scalar::ONE,
        ]);
        for s in &scalars {
            assert_eq!(mul_g(s), curve25519_dalek::EdwardsPoint::mul_base(s));
        }
    }
}
