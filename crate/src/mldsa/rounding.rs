//! Rounding (FIPS 204 §7.4, Alg. 35–37): Power2Round, Decompose, HighBits, LowBits.
//!
//! All functions take a coefficient in [0, q) and are branch-free: they run on secret
//! values during key generation and signing.

use super::ntt::Q;
use crate::ct::barrier_i32;

/// The number of dropped bits of t (d = 13).
pub(super) const D: u32 = 13;

/// FIPS 204 Alg. 35 Power2Round: r = r1·2^d + r0 with −2^(d−1) < r0 ≤ 2^(d−1).
#[inline(always)]
pub(super) fn power2round(r: i32) -> (i32, i32) {
    let r1 = (r + (1 << (D - 1)) - 1) >> D;
    (r1, r - (r1 << D))
}

/// FIPS 204 Alg. 36 Decompose: r = r1·2γ2 + r0 with −γ2 < r0 ≤ γ2, except the
/// corner case r − r0 = q − 1, where r1 = 0 and r0 is decreased by one.
///
/// `gamma2` is a parameter-set constant, so the test below folds away after inlining.
/// The division by 2γ2 is a multiply-and-shift (the round-3 reference's constants),
/// so no secret-dependent `/` is executed. Each mask is a sign bit taken from a value the
/// optimiser cannot see (the barrier before the shift: else the WASM build computed it
/// with `i32.gt_s; select`) and used where it cannot see it is a mask (the barrier after:
/// else opt-level 1 compiled the γ2 = (q − 1)/88 wrap-around into `cmp; jge`).
#[inline(always)]
pub(super) fn decompose(r: i32, gamma2: i32) -> (i32, i32) {
    let mut r1 = (r + 127) >> 7;
    if gamma2 == (Q - 1) / 32 {
        r1 = (r1 * 1025 + (1 << 21)) >> 22;
        r1 &= 15;
    } else {
        // γ2 = (q − 1)/88
        r1 = (r1 * 11275 + (1 << 23)) >> 24;
        // r1 = 44 (r near q − 1) wraps to 0.
        r1 &= !sign_mask(43 - r1);
    }
    let mut r0 = r - r1 * 2 * gamma2;
    r0 -= sign_mask((Q - 1) / 2 - r0) & Q;
    (r1, r0)
}

/// −1 if `x` < 0, else 0, through value barriers on both sides (see [`decompose`]).
#[inline(always)]
fn sign_mask(x: i32) -> i32 {
    barrier_i32(barrier_i32(x) >> 31)
}

/// FIPS 204 Alg. 37 HighBits.
#[inline(always)]
pub(super) fn high_bits(r: i32, gamma2: i32) -> i32 {
    decompose(r, gamma2).0
}

/// FIPS 204 Alg. 38 LowBits.
#[inline(always)]
pub(super) fn low_bits(r: i32, gamma2: i32) -> i32 {
    decompose(r, gamma2).1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The literal definition of Decompose from FIPS 204, for comparison.
    fn decompose_spec(r: i32, gamma2: i32) -> (i32, i32) {
        let alpha = 2 * gamma2;
        let mut r0 = r % alpha;
        if r0 > alpha / 2 {
            r0 -= alpha;
        }
        if r - r0 == Q - 1 {
            (0, r0 - 1)
        } else {
            ((r - r0) / alpha, r0)
        }
    }

    #[test]
    fn decompose_matches_the_definition_everywhere() {
        for r in 0..Q {
            assert_eq!(
                decompose(r, (Q - 1) / 32),
                decompose_spec(r, (Q - 1) / 32),
                "r = {r}"
            );
            assert_eq!(
                decompose(r, (Q - 1) / 88),
                decompose_spec(r, (Q - 1) / 88),
                "r = {r}"
            );
        }
    }

    #[test]
    fn power2round_recombines() {
        for r in (0..Q).step_by(97) {
            let (r1, r0) = power2round(r);
            assert_eq!(r1 * (1 << D) + r0, r);
            assert!(-(1 << (D - 1)) < r0 && r0 <= 1 << (D - 1));
        }
    }
}
