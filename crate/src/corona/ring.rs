//! Polynomials, vectors and the public matrix A (spec §4, §6): residues in [0, q), NTT-domain
//! copies where products are taken, A expanded entry by entry from its seed ρ.

use alloc::vec::Vec;

use super::arith::{add, from_i64, mul, sub};
use super::ntt::{inv_ntt, ntt, pointwise};
use super::params::{COLS, N, ROWS};
use super::sample::uniform_poly;
use crate::hash::{tags, Transcript};

/// A polynomial of R_q: 256 residues, coefficient 0 first (or 256 NTT slots).
pub(crate) type Poly = [u64; N];

/// The zero polynomial.
pub(crate) const ZERO: Poly = [0; N];

/// a + b.
pub(crate) fn poly_add(a: &Poly, b: &Poly) -> Poly {
    let mut c = ZERO;
    for ((c, &x), &y) in c.iter_mut().zip(a).zip(b) {
        *c = add(x, y);
    }
    c
}

/// a − b.
pub(crate) fn poly_sub(a: &Poly, b: &Poly) -> Poly {
    let mut c = ZERO;
    for ((c, &x), &y) in c.iter_mut().zip(a).zip(b) {
        *c = sub(x, y);
    }
    c
}

/// k·a for a scalar k < q.
pub(crate) fn poly_scale(a: &Poly, k: u64) -> Poly {
    let mut c = ZERO;
    for (c, &x) in c.iter_mut().zip(a) {
        *c = mul(x, k);
    }
    c
}

/// The residues of small signed coefficients.
pub(crate) fn poly_from_small(a: &[i64; N]) -> Poly {
    let mut c = ZERO;
    for (c, &x) in c.iter_mut().zip(a) {
        *c = from_i64(x);
    }
    c
}

/// NTT of a copy.
pub(crate) fn to_ntt(a: &Poly) -> Poly {
    let mut c = *a;
    ntt(&mut c);
    c
}

/// A ∈ R_q^{8×7} in the NTT domain, expanded from ρ: entry (r, c) is the uniform polynomial of
/// `XOF(A; ρ, r, c)` (each entry its own stream).
#[derive(Clone)]
pub(crate) struct Matrix(Vec<Poly>);

impl Matrix {
    /// ExpandA(ρ).
    pub(crate) fn expand(rho: &[u8; 32]) -> Matrix {
        let mut entries = Vec::with_capacity(ROWS * COLS);
        for row in 0..ROWS {
            for col in 0..COLS {
                let mut t = Transcript::new(tags::CORONA_A);
                // Exact: row < 8, col < 7.
                #[allow(clippy::cast_possible_truncation)]
                t.append(rho).append(&[row as u8]).append(&[col as u8]);
                let mut p = ZERO;
                uniform_poly(&mut t.finalize_xof(), &mut p);
                ntt(&mut p);
                entries.push(p);
            }
        }
        Matrix(entries)
    }

    /// The entries in the NTT domain, row-major.
    #[cfg(feature = "hazmat")]
    pub(crate) fn entries(&self) -> &[Poly] {
        &self.0
    }

    /// A·v for v ∈ R_q^7 given in the NTT domain; the result in coefficients.
    pub(crate) fn apply(&self, v_hat: &[Poly]) -> Vec<Poly> {
        let mut rows = self.apply_hat(v_hat);
        for row in &mut rows {
            inv_ntt(row);
        }
        rows
    }

    /// A·v for v ∈ R_q^7 given in the NTT domain; the result in the NTT domain.
    pub(crate) fn apply_hat(&self, v_hat: &[Poly]) -> Vec<Poly> {
        debug_assert_eq!(v_hat.len(), COLS);
        (0..ROWS)
            .map(|row| {
                let mut acc = ZERO;
                let mut term = ZERO;
                for (col, v) in v_hat.iter().enumerate() {
                    pointwise(&self.0[row * COLS + col], v, &mut term);
                    acc = poly_add(&acc, &term);
                }
                acc
            })
            .collect()
    }
}
