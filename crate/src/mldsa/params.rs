//! Parameter sets (FIPS 204 §4, Table 1) and the sizes they imply (Table 2).

use super::Mode;
use crate::mldsa::ntt::Q;

mod sealed {
    pub trait Sealed {}
}

/// An ML-DSA parameter set. Implemented only by [`MlDsa44`], [`MlDsa65`] and [`MlDsa87`].
pub trait Params: sealed::Sealed + 'static + Send + Sync {
    /// The wire byte and runtime name of this set.
    const MODE: Mode;
    /// Rows of A (length of s2, t, w, h).
    const K: usize;
    /// Columns of A (length of s1, y, z).
    const L: usize;
    /// Bound on the coefficients of s1 and s2.
    const ETA: i32;
    /// Number of ±1 coefficients of the challenge c.
    const TAU: usize;
    /// τ·η: the bound on the coefficients of c·s1 and c·s2.
    const BETA: i32;
    /// Range of the mask y.
    const GAMMA1: i32;
    /// Low-order rounding range.
    const GAMMA2: i32;
    /// Maximum number of ones in the hint h.
    const OMEGA: usize;
    /// Collision strength λ of c̃, in bits.
    const LAMBDA: usize;

    /// Bytes of c̃ (λ/4).
    const C_TILDE_LEN: usize = Self::LAMBDA / 4;
    /// Bits per coefficient of s1, s2 in the secret key: bitlen(2η).
    const ETA_BITS: usize = if Self::ETA == 2 { 3 } else { 4 };
    /// Bits per coefficient of z: 1 + bitlen(γ1 − 1).
    const Z_BITS: usize = if Self::GAMMA1 == 1 << 17 { 18 } else { 20 };
    /// Bits per coefficient of w1: bitlen((q − 1)/(2γ2) − 1).
    const W1_BITS: usize = if Self::GAMMA2 == (Q - 1) / 88 { 6 } else { 4 };
    /// Public key length in bytes.
    const PK_LEN: usize = 32 + 320 * Self::K;
    /// Secret key length in bytes.
    const SK_LEN: usize = 128 + 32 * ((Self::K + Self::L) * Self::ETA_BITS + 13 * Self::K);
    /// Signature length in bytes.
    const SIG_LEN: usize = Self::C_TILDE_LEN + Self::L * 32 * Self::Z_BITS + Self::OMEGA + Self::K;
}

/// ML-DSA-44 (NIST security category 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MlDsa44;
/// ML-DSA-65 (NIST security category 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MlDsa65;
/// ML-DSA-87 (NIST security category 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MlDsa87;

impl sealed::Sealed for MlDsa44 {}
impl sealed::Sealed for MlDsa65 {}
impl sealed::Sealed for MlDsa87 {}

impl Params for MlDsa44 {
    const MODE: Mode = Mode::MlDsa44;
    const K: usize = 4;
    const L: usize = 4;
    const ETA: i32 = 2;
    const TAU: usize = 39;
    const BETA: i32 = 78;
    const GAMMA1: i32 = 1 << 17;
    const GAMMA2: i32 = (Q - 1) / 88;
    const OMEGA: usize = 80;
    const LAMBDA: usize = 128;
}

impl Params for MlDsa65 {
    const MODE: Mode = Mode::MlDsa65;
    const K: usize = 6;
    const L: usize = 5;
    const ETA: i32 = 4;
    const TAU: usize = 49;
    const BETA: i32 = 196;
    const GAMMA1: i32 = 1 << 19;
    const GAMMA2: i32 = (Q - 1) / 32;
    const OMEGA: usize = 55;
    const LAMBDA: usize = 192;
}

impl Params for MlDsa87 {
    const MODE: Mode = Mode::MlDsa87;
    const K: usize = 8;
    const L: usize = 7;
    const ETA: i32 = 2;
    const TAU: usize = 60;
    const BETA: i32 = 120;
    const GAMMA1: i32 = 1 << 19;
    const GAMMA2: i32 = (Q - 1) / 32;
    const OMEGA: usize = 75;
    const LAMBDA: usize = 256;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FIPS 204 Table 2.
    #[test]
    fn sizes_match_the_standard() {
        assert_eq!(
            (MlDsa44::PK_LEN, MlDsa44::SK_LEN, MlDsa44::SIG_LEN),
            (1312, 2560, 2420)
        );
        assert_eq!(
            (MlDsa65::PK_LEN, MlDsa65::SK_LEN, MlDsa65::SIG_LEN),
            (1952, 4032, 3309)
        );
        assert_eq!(
            (MlDsa87::PK_LEN, MlDsa87::SK_LEN, MlDsa87::SIG_LEN),
            (2592, 4896, 4627)
        );
        assert_eq!(MlDsa44::BETA, i32::try_from(MlDsa44::TAU).unwrap() * MlDsa44::ETA);
        assert_eq!(MlDsa65::BETA, i32::try_from(MlDsa65::TAU).unwrap() * MlDsa65::ETA);
        assert_eq!(MlDsa87::BETA, i32::try_from(MlDsa87::TAU).unwrap() * MlDsa87::ETA);
    }
}
