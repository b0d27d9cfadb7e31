//! Compressed point decoding with KeyValidate's checks (draft-irtf-cfrg-bls-signature-05 §1.3,
//! §2.5; the ZCash serialization of pairing-friendly-curves Appendix C).
//!
//! The first byte of an encoding carries three flags in its top bits: compression (bit 7,
//! must be set), infinity (bit 6) and sort (bit 5, the sign of y). The rest is the
//! x-coordinate, big-endian: one base-field element for G1, two for G2 (`x.c1 ‖ x.c0`, flags
//! on `x.c1`). Checks run in a fixed order, each with its own error: flags, the encoding of
//! infinity, the range of each coordinate (canonical: below p), the curve equation, the
//! subgroup. Everything here is public data, so the checks may branch.

use bls12_381::{G1Affine, G2Affine};

use super::Error;

/// The base-field modulus p of BLS12-381, big-endian.
const P: [u8; 48] = [
    0x1a, 0x01, 0x11, 0xea, 0x39, 0x7f, 0xe6, 0x9a, 0x4b, 0x1b, 0xa7, 0xb6, 0x43, 0x4b, 0xac, 0xd7, 0x64,
    0x77, 0x4b, 0x84, 0xf3, 0x85, 0x12, 0xbf, 0x67, 0x30, 0xd2, 0xa0, 0xf6, 0xb0, 0xf6, 0x24, 0x1e, 0xab,
    0xff, 0xfe, 0xb1, 0x53, 0xff, 0xff, 0xb9, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xaa, 0xab,
];

const FLAG_COMPRESSED: u8 = 0b1000_0000;
const FLAG_INFINITY: u8 = 0b0100_0000;
const FLAG_SORT: u8 = 0b0010_0000;
const FLAGS: u8 = FLAG_COMPRESSED | FLAG_INFINITY | FLAG_SORT;

/// Whether a 48-byte big-endian coordinate (flags already masked) is below p.
fn below_p(x: &[u8]) -> bool {
    // Lexicographic comparison of equal-length big-endian strings is numeric comparison.
    x < &P[..]
}

/// Checks the flags and the range of every coordinate of a compressed encoding whose length
/// the caller has fixed (48 or 96 bytes).
fn check_encoding(bytes: &[u8], what: &'static str) -> Result<(), Error> {
    let Some((&first, rest)) = bytes.split_first() else {
        return Err(Error::NotCompressed { what });
    };
    if first & FLAG_COMPRESSED == 0 {
        return Err(Error::NotCompressed { what });
    }
    if first & FLAG_INFINITY != 0 {
        // Infinity: the sort flag clear and every coordinate bit zero (§1.3, "point at
        // infinity" in the serialization notes). Well formed, yet never a valid key.
        return if first & !FLAGS == 0 && first & FLAG_SORT == 0 && rest.iter().all(|&b| b == 0) {
            Err(Error::IdentityElement { what })
        } else {
            Err(Error::InvalidInfinityEncoding { what })
        };
    }
    let mut first_coord = [0u8; 48];
    let (head, tail) = bytes.split_at(bytes.len().min(48));
    first_coord[..head.len()].copy_from_slice(head);
    first_coord[0] &= !FLAGS;
    if !below_p(&first_coord) || tail.chunks(48).any(|c| !below_p(c)) {
        return Err(Error::NonCanonical { what });
    }
    Ok(())
}

/// octets_to_point_E1 plus KeyValidate (§2.5): a G1 point that is not the identity and lies
/// in the prime-order subgroup.
///
/// # Errors
/// [`Error::NotCompressed`], [`Error::InvalidInfinityEncoding`], [`Error::IdentityElement`],
/// [`Error::NonCanonical`], [`Error::NotOnCurve`], [`Error::NotInSubgroup`].
pub(super) fn decode_g1(bytes: &[u8; 48], what: &'static str) -> Result<G1Affine, Error> {
    check_encoding(bytes, what)?;
    // Flags and range are fine, so the only way left to fail is a non-square x³ + 4.
    let point: G1Affine =
        Option::from(G1Affine::from_compressed_unchecked(bytes)).ok_or(Error::NotOnCurve { what })?;
    if !bool::from(point.is_torsion_free()) {
        return Err(Error::NotInSubgroup { what });
    }
    Ok(point)
}

/// octets_to_point_E2 plus signature_subgroup_check (§1.3), rejecting the identity too.
///
/// # Errors
/// As [`decode_g1`].
pub(super) fn decode_g2(bytes: &[u8; 96], what: &'static str) -> Result<G2Affine, Error> {
    check_encoding(bytes, what)?;
    let point: G2Affine =
        Option::from(G2Affine::from_compressed_unchecked(bytes)).ok_or(Error::NotOnCurve { what })?;
    if !bool::from(point.is_torsion_free()) {
        return Err(Error::NotInSubgroup { what });
    }
    Ok(point)
}

/// The slice → array step: exactly `N` bytes.
///
/// # Errors
/// [`Error::InvalidLength`].
pub(super) fn fixed<'a, const N: usize>(bytes: &'a [u8], what: &'static str) -> Result<&'a [u8; N], Error> {
    bytes.try_into().map_err(|_| Error::InvalidLength {
        what,
        expected: N,
        got: bytes.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modulus_is_p() {
        // p = 0x1a0111ea…aaab; p − 1 is canonical, p is not.
        let mut p_minus_1 = P;
        p_minus_1[47] -= 1;
        assert!(below_p(&p_minus_1));
        assert!(!below_p(&P));
    }

    #[test]
    fn generator_round_trips() {
        let g = G1Affine::generator();
        assert_eq!(decode_g1(&g.to_compressed(), "t"), Ok(g));
        let h = G2Affine::generator();
        assert_eq!(decode_g2(&h.to_compressed(), "t"), Ok(h));
    }
}
