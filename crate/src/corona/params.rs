//! The one parameter set (spec §2; upstream `sign/config.go`).

/// Ring degree: polynomials modulo X^256 + 1.
pub(crate) const N: usize = 256;
/// Rows of A (and of b, e).
pub(crate) const ROWS: usize = 8;
/// Columns of A (and the length of s).
pub(crate) const COLS: usize = 7;
/// Columns of a round-1 commitment beyond the first: D_i ∈ R_q^{8×(1+48)}.
pub(crate) const D_BAR: usize = 48;
/// Hamming weight of the challenge c.
pub(crate) const KAPPA: usize = 23;
/// Public-key rounding: b̃ = Round_ξ(b) ∈ Z_{2^18}.
pub(crate) const XI: u32 = 30;
/// Commitment rounding: h̃ = Round_ν(h) ∈ Z_{2^19}.
pub(crate) const NU: u32 = 29;
/// The verification bound B² on ‖z‖² + 2^{2ν}·‖Δ‖² (inclusive).
pub(crate) const BOUND_SQUARED: u128 = 184_960_669_042_442_604_975_662_780_477;
/// The largest signing set the bound is sized for.
pub(crate) const MAX_SIGNERS: usize = 1024;
