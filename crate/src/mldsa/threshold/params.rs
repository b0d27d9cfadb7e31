//! The committee's parameters per ML-DSA level and (T, N): the number of parallel slots K,
//! the rejection radius r, the sampling radius r′ and the y-part stretch ν (threshold-mldsa
//! spec §4.2, the Go reference's `GetThresholdParams` at HEAD `fca21f8`).

use crate::mldsa::Mode;

/// The smallest committee.
pub(crate) const MIN_PARTIES: u8 = 2;
/// The largest committee the published parameters cover (no radii are invented beyond it).
pub(crate) const MAX_PARTIES: u8 = 6;

/// One (level, T, N) row of the parameter table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Shape {
    /// The ML-DSA level.
    pub mode: Mode,
    /// Signers needed (T).
    pub threshold: u8,
    /// Committee size (N).
    pub parties: u8,
    /// Parallel slots per run (the spec's K; `reps` to keep it apart from FIPS 204's k).
    pub reps: u16,
    /// Rejection radius r.
    pub r: f64,
    /// Sampling radius r′ (> r).
    pub r_prime: f64,
    /// Stretch ν of the y part of the hyperball.
    pub nu: f64,
}

/// `(T, N, K, r, r′)` per level, rows in the spec's order.
type Row = (u8, u8, u16, u32, u32);

const ML_DSA_44: [Row; 15] = [
    (2, 2, 2, 252_778, 252_833),
    (2, 3, 3, 310_060, 310_138),
    (3, 3, 4, 246_490, 246_546),
    (2, 4, 3, 305_919, 305_997),
    (3, 4, 7, 279_235, 279_314),
    (4, 4, 8, 243_463, 243_519),
    (2, 5, 3, 285_363, 285_459),
    (3, 5, 14, 282_800, 282_912),
    (4, 5, 30, 259_427, 259_526),
    (5, 5, 16, 239_924, 239_981),
    (2, 6, 4, 300_265, 300_362),
    (3, 6, 19, 277_014, 277_139),
    (4, 6, 74, 268_705, 268_831),
    (5, 6, 100, 250_590, 250_686),
    (6, 6, 37, 219_245, 219_301),
];

const ML_DSA_65: [Row; 15] = [
    (2, 2, 3, 501_495, 501_613),
    (2, 3, 5, 540_212, 540_378),
    (3, 3, 9, 510_387, 510_504),
    (2, 4, 6, 540_212, 540_378),
    (3, 4, 20, 506_761, 506_928),
    (4, 4, 26, 433_594, 433_711),
    (2, 5, 8, 552_371, 552_575),
    (3, 5, 62, 552_909, 553_145),
    (4, 5, 205, 474_331, 474_535),
    (5, 5, 78, 425_914, 426_032),
    (2, 6, 8, 571_208, 571_412),
    (3, 6, 95, 536_793, 537_058),
    (4, 6, 804, 488_704, 488_969),
    (5, 6, 1200, 461_324, 461_529),
    (6, 6, 250, 414_896, 415_013),
];

const ML_DSA_87: [Row; 15] = [
    (2, 2, 3, 503_119, 503_192),
    (2, 3, 4, 631_601, 631_703),
    (3, 3, 6, 483_107, 483_180),
    (2, 4, 4, 632_903, 633_006),
    (3, 4, 11, 551_752, 551_854),
    (4, 4, 14, 487_958, 488_031),
    (2, 5, 5, 607_694, 607_820),
    (3, 5, 26, 577_400, 577_546),
    (4, 5, 70, 518_384, 518_510),
    (5, 5, 35, 468_214, 468_287),
    (2, 6, 5, 665_106, 665_232),
    (3, 6, 39, 577_541, 577_704),
    (4, 6, 208, 517_689, 517_853),
    (5, 6, 295, 479_692, 479_819),
    (6, 6, 87, 424_124, 424_197),
];

/// The Go reference's one ν per level.
const fn reference_nu(mode: Mode) -> f64 {
    match mode {
        Mode::MlDsa44 => 3.0,
        Mode::MlDsa65 => 6.0,
        Mode::MlDsa87 => 7.0,
    }
}

/// ν for a set. Four rows of the reference pair their radii with a ν they were not computed
/// for (spec §4.3: the parameter script reproduces their r and r′ only with another ν);
/// we use the ν the radii were made for, so the per-party rejection is the analysed one.
/// Only the local sampling changes: signatures are standard either way. Pending a check
/// against the paper's parameter table (ePrint 2026/013, Fig. 8).
fn design_nu(mode: Mode, threshold: u8, parties: u8) -> f64 {
    match (mode, threshold, parties) {
        (Mode::MlDsa44, 2, 4) => 3.5,
        (Mode::MlDsa44, 4, 5) | (Mode::MlDsa44, 5, 5) => 2.5,
        (Mode::MlDsa87, 2, 3) => 8.0,
        _ => reference_nu(mode),
    }
}

impl Shape {
    /// The parameters of a (T, N) committee at `mode`, or `None` outside 2 ≤ T ≤ N ≤ 6.
    pub(crate) fn new(mode: Mode, threshold: u8, parties: u8) -> Option<Shape> {
        let table = match mode {
            Mode::MlDsa44 => &ML_DSA_44,
            Mode::MlDsa65 => &ML_DSA_65,
            Mode::MlDsa87 => &ML_DSA_87,
        };
        let &(_, _, reps, r, r_prime) = table.iter().find(|row| row.0 == threshold && row.1 == parties)?;
        Some(Shape {
            mode,
            threshold,
            parties,
            reps,
            r: f64::from(r),
            r_prime: f64::from(r_prime),
            nu: design_nu(mode, threshold, parties),
        })
    }

    /// The same set with the Go reference's ν (its known-answer vectors use it).
    #[cfg(test)]
    pub(crate) fn with_reference_nu(self) -> Shape {
        Shape {
            nu: reference_nu(self.mode),
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_published_set_is_there_and_nothing_else() {
        for mode in [Mode::MlDsa44, Mode::MlDsa65, Mode::MlDsa87] {
            let mut count = 0;
            for n in 0..=8u8 {
                for t in 0..=8u8 {
                    let inside = (MIN_PARTIES..=MAX_PARTIES).contains(&n) && (2..=n).contains(&t);
                    let shape = Shape::new(mode, t, n);
                    assert_eq!(shape.is_some(), inside, "{mode:?} ({t},{n})");
                    if let Some(s) = shape {
                        count += 1;
                        assert!(s.r < s.r_prime && s.reps >= 2 && s.nu >= 2.5);
                    }
                }
            }
            assert_eq!(count, 15);
        }
    }
}
