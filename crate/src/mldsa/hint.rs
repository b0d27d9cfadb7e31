//! Hints (FIPS 204 §7.4, Alg. 39–40): MakeHint and UseHint.

use super::ntt::Q;
use super::rounding::{decompose, high_bits};

/// FIPS 204 Alg. 39 MakeHint(z, r) with r and r + z given directly: 1 when adding z
/// changes the high bits. Branch-free (it runs on secret-dependent values).
#[inline(always)]
pub(super) fn make_hint(r: i32, r_plus_z: i32, gamma2: i32) -> i32 {
    let a = high_bits(r, gamma2);
    let b = high_bits(r_plus_z, gamma2);
    // (a ^ b) is 0 or positive; map non-zero to 1 without a branch.
    ((a ^ b) | (a ^ b).wrapping_neg()) >> 31 & 1
}

/// FIPS 204 Alg. 40 UseHint. Only used by verification, on public data.
#[inline(always)]
pub(super) fn use_hint(h: bool, r: i32, gamma2: i32) -> i32 {
    let (r1, r0) = decompose(r, gamma2);
    if !h {
        return r1;
    }
    let m = if gamma2 == (Q - 1) / 32 { 16 } else { 44 };
    if r0 > 0 {
        if r1 == m - 1 {
            0
        } else {
            r1 + 1
        }
    } else if r1 == 0 {
        m - 1
    } else {
        r1 - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const G2: i32 = (Q - 1) / 32;

    #[test]
    fn use_hint_recovers_high_bits() {
        // For small z, UseHint(MakeHint(z, r), r) = HighBits(r + z).
        for r in (0..Q).step_by(1013) {
            for z in [-200_000, -5, 0, 5, 200_000] {
                let rz = (r + z).rem_euclid(Q);
                let h = make_hint(r, rz, G2) == 1;
                assert_eq!(use_hint(h, r, G2), high_bits(rz, G2), "r={r} z={z}");
            }
        }
    }
}
