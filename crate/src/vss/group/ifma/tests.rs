//! The eight-lane arithmetic against the one-lane reference, and the commitments against
//! dalek's, byte for byte. Skipped (with a note) on a CPU without AVX-512 IFMA.

use alloc::vec::Vec;

use curve25519_dalek::{EdwardsPoint, RistrettoPoint, Scalar};
use rand_core::{RngCore, SeedableRng};

use super::field::{self, F8};
use super::reference::Fe;
use super::{
    available, edwards_commitment, edwards_commitments, ristretto_commitment, ristretto_commitments,
};
use crate::vss::group::{EncodedRow, Lanes};
use crate::vss::{Curve, Ed25519, Ristretto255};

pub(super) fn skip() -> bool {
    if !available() {
        std::eprintln!("no AVX-512 IFMA on this CPU: the eight-lane path is not tested here");
    }
    !available()
}

fn rng(seed: u64) -> rand_chacha::ChaCha20Rng {
    rand_chacha::ChaCha20Rng::seed_from_u64(seed)
}

/// Field elements with the edge cases first: 0, 1, p − 1, p, p + 1 (non-canonical),
/// 2^255 − 1, limbs at their loose bound; then random ones.
fn elements(n: usize, seed: u64) -> Vec<Fe> {
    let mask = (1u64 << 51) - 1;
    let p = Fe([mask - 18, mask, mask, mask, mask]);
    let mut out = alloc::vec![
        Fe::ZERO,
        Fe::ONE,
        p.sub(Fe::ONE),
        p,
        Fe([mask - 17, mask, mask, mask, mask]),
        Fe([mask; 5]),
        Fe([mask + (1 << 16) - 1; 5]),
    ];
    let mut r = rng(seed);
    while out.len() < n {
        let mut b = [0u8; 32];
        r.fill_bytes(&mut b);
        out.push(Fe::from_bytes(&b));
    }
    out
}

fn load(values: &[Fe]) -> F8 {
    // SAFETY: the callers checked `available()`; each load reads eight u64.
    unsafe {
        F8(core::array::from_fn(|k| {
            let lanes: [u64; 8] = core::array::from_fn(|l| values[l].0[k]);
            core::arch::x86_64::_mm512_loadu_si512(lanes.as_ptr().cast())
        }))
    }
}

fn bytes_of(a: &F8, lane: usize) -> [u8; 32] {
    Fe(field::lane(a, lane)).to_bytes()
}

#[test]
fn eight_lane_field_arithmetic_matches_the_reference() {
    if skip() {
        return;
    }
    let xs = elements(64, 1);
    let ys = elements(64, 2);
    for (a, b) in xs.chunks_exact(8).zip(ys.chunks_exact(8).rev()) {
        let (va, vb) = (load(a), load(b));
        // SAFETY: `available()` is true (checked above).
        let (m, s, d, n, f, i) = unsafe {
            (
                field::mul(&va, &vb),
                field::square(&va),
                field::sub(&va, &vb),
                field::add(&va, &vb),
                field::freeze(&va),
                field::invert(&va),
            )
        };
        for l in 0..8 {
            assert_eq!(bytes_of(&m, l), a[l].mul(b[l]).to_bytes(), "product, lane {l}");
            assert_eq!(bytes_of(&s, l), a[l].square().to_bytes(), "square, lane {l}");
            assert_eq!(bytes_of(&d, l), a[l].sub(b[l]).to_bytes(), "difference, lane {l}");
            assert_eq!(bytes_of(&n, l), a[l].add(b[l]).to_bytes(), "sum, lane {l}");
            // 1/0 is 0, as the reference's exponentiation gives.
            assert_eq!(bytes_of(&i, l), a[l].invert().to_bytes(), "inverse, lane {l}");
            // Frozen limbs are the canonical ones.
            assert_eq!(Fe(field::lane(&f, l)), a[l].reduced(), "freeze, lane {l}");
        }
        // SAFETY: as above.
        let (zero, neg) = unsafe { (field::is_zero(&va), field::is_negative(&va)) };
        for (l, x) in a.iter().enumerate() {
            assert_eq!(zero >> l & 1 == 1, x.is_zero(), "is_zero, lane {l}");
            assert_eq!(neg >> l & 1 == 1, x.is_negative(), "is_negative, lane {l}");
        }
    }
}

pub(super) fn scalars(n: usize, seed: u64) -> Vec<Scalar> {
    let mut r = rng(seed);
    let mut out = alloc::vec![
        Scalar::ZERO,
        Scalar::ONE,
        -Scalar::ONE,
        Scalar::from(8u64),
        -Scalar::from(8u64)
    ];
    while out.len() < n {
        let mut b = [0u8; 64];
        r.fill_bytes(&mut b);
        out.push(Scalar::from_bytes_mod_order_wide(&b));
    }
    out.truncate(n);
    out
}

fn dalek_encodings(values: &[Scalar], blinds: Option<&[Scalar]>) -> Vec<u8> {
    let h = Ristretto255::generator_h();
    values
        .iter()
        .enumerate()
        .flat_map(|(i, a)| {
            let p = RistrettoPoint::mul_base(a) + blinds.map_or(RistrettoPoint::default(), |b| h * b[i]);
            p.compress().to_bytes()
        })
        .collect()
}

fn dalek_edwards(values: &[Scalar], blinds: Option<&[Scalar]>) -> Vec<u8> {
    let h = Ed25519::generator_h();
    values
        .iter()
        .enumerate()
        .flat_map(|(i, a)| {
            let p = EdwardsPoint::mul_base(a) + blinds.map_or(EdwardsPoint::default(), |b| h * b[i]);
            p.compress().to_bytes()
        })
        .collect()
}

/// The encodings of commitments made in the lanes.
fn encodings(made: Option<super::Made>) -> Option<Vec<u8>> {
    made.map(|(encoded, _)| encoded)
}

#[test]
fn commitments_match_dalek_byte_for_byte() {
    if skip() {
        return;
    }
    // Lengths around the eight lanes, zeros (the identity), ±1, ±8 (the digit bound).
    for (n, seed) in [(1, 3), (5, 4), (8, 5), (9, 6), (43, 7), (86, 8)] {
        let values = scalars(n, seed);
        let blinds = scalars(n, seed + 100);
        assert_eq!(
            encodings(ristretto_commitments(0, &values, None)),
            Some(dalek_encodings(&values, None)),
            "Feldman, {n}"
        );
        assert_eq!(
            encodings(ristretto_commitments(0, &values, Some(&blinds))),
            Some(dalek_encodings(&values, Some(&blinds))),
            "Pedersen, {n}"
        );
    }
    for (n, seed) in [(1, 13), (9, 14), (43, 15)] {
        let values = scalars(n, seed);
        let blinds = scalars(n, seed + 100);
        assert_eq!(
            encodings(edwards_commitments(0, &values, None)),
            Some(dalek_edwards(&values, None)),
            "Ed25519 Feldman, {n}"
        );
        assert_eq!(
            encodings(edwards_commitments(0, &values, Some(&blinds))),
            Some(dalek_edwards(&values, Some(&blinds))),
            "Ed25519 Pedersen, {n}"
        );
    }
    // Ed25519's identity is (0, 1): 01 00 … 00.
    let mut identity = [0u8; 32];
    identity[0] = 1;
    assert_eq!(
        encodings(edwards_commitments(0, &[Scalar::ZERO], None)),
        Some(identity.to_vec())
    );
    // Both zero: the identity, encoded as 32 zero bytes.
    let zeros = [Scalar::ZERO; 3];
    assert_eq!(
        encodings(ristretto_commitments(0, &zeros, Some(&zeros))),
        Some(alloc::vec![0u8; 96])
    );
    // Unequal lengths: refused, not truncated.
    assert!(ristretto_commitments(0, &zeros, Some(&zeros[..2])).is_none());
    // Known zeros first: identities, then the products, the lanes of a block shared.
    for (zeros, n) in [(1, 7), (1, 8), (1, 42), (3, 13)] {
        let values = scalars(n, 20 + n as u64);
        let blinds = scalars(n, 120 + n as u64);
        let mut want = alloc::vec![0u8; 32 * zeros];
        want.extend(dalek_encodings(&values, Some(&blinds)));
        assert_eq!(
            encodings(ristretto_commitments(zeros, &values, Some(&blinds))),
            Some(want),
            "{zeros} zeros, {n}"
        );
        let mut want = identity.repeat(zeros);
        want.extend(dalek_edwards(&values, None));
        assert_eq!(
            encodings(edwards_commitments(zeros, &values, None)),
            Some(want),
            "Ed25519, {zeros} zeros, {n}"
        );
    }
}

#[test]
fn many_random_multiples_match_dalek() {
    if skip() {
        return;
    }
    let values = scalars(1024, 9);
    let blinds = scalars(1024, 10);
    assert_eq!(
        encodings(ristretto_commitments(0, &values, Some(&blinds))),
        Some(dalek_encodings(&values, Some(&blinds)))
    );
}

#[test]
fn evaluations_match_horner_on_dalek_points() {
    use crate::vss::commit::horner_small_vartime;
    use group::GroupEncoding;
    if skip() {
        return;
    }
    let xs_cases: [&[u16]; 6] = [
        &[0],
        &[1],
        &[1, 2, 3, 4, 5, 6, 7, 8],
        &[0, 64, 65, 127, 128, 9, 3],
        &[1024, 1, 65535, 2, 300, 77, 5, 0],
        &[43],
    ];
    for (count, seed) in [(1usize, 20u64), (2, 21), (8, 22), (9, 23), (43, 24), (86, 25)] {
        let s = scalars(count, seed);
        let ristretto: Vec<RistrettoPoint> = s.iter().map(RistrettoPoint::mul_base).collect();
        // Ed25519 points with a torsion component too (read without the subgroup check).
        let torsion = curve25519_dalek::constants::EIGHT_TORSION[1];
        let edwards: Vec<EdwardsPoint> = s.iter().map(|x| EdwardsPoint::mul_base(x) + torsion).collect();
        let r_enc: Vec<u8> = ristretto.iter().flat_map(|p| p.compress().to_bytes()).collect();
        let e_enc: Vec<u8> = edwards.iter().flat_map(|p| p.compress().to_bytes()).collect();
        for xs in xs_cases {
            let want_r: Vec<u8> = xs
                .iter()
                .flat_map(|x| horner_small_vartime(&ristretto, u64::from(*x)).to_bytes())
                .collect();
            let want_e: Vec<u8> = xs
                .iter()
                .flat_map(|x| horner_small_vartime(&edwards, u64::from(*x)).to_bytes())
                .collect();
            assert_eq!(
                super::ristretto_evaluations(&r_enc, xs),
                Some(want_r),
                "{count} at {xs:?}"
            );
            assert_eq!(
                super::edwards_evaluations(&e_enc, xs),
                Some(want_e),
                "{count} at {xs:?}"
            );
        }
    }
    // No x: nothing, but not `None` (the probe callers make). Refused: more than eight, a
    // partial encoding, bytes that do not decode.
    let one = RistrettoPoint::mul_base(&Scalar::ONE).compress().to_bytes();
    assert_eq!(super::ristretto_evaluations(&[], &[]), Some(Vec::new()));
    assert_eq!(super::ristretto_evaluations(&one, &[1; 9]), None);
    assert_eq!(super::ristretto_evaluations(&one[..31], &[1]), None);
    assert_eq!(super::ristretto_evaluations(&[0xff; 32], &[1]), None);
}

#[test]
fn one_product_spread_over_the_lanes_matches_dalek() {
    if skip() {
        return;
    }
    let values = scalars(40, 30);
    let blinds = scalars(40, 31);
    for (a, b) in values.iter().zip(&blinds) {
        let want: [u8; 32] = dalek_encodings(&[*a], Some(&[*b])).try_into().unwrap();
        assert_eq!(ristretto_commitment(a, Some(b)), Some(want));
        let want: [u8; 32] = dalek_encodings(&[*a], None).try_into().unwrap();
        assert_eq!(ristretto_commitment(a, None), Some(want));
        let want: [u8; 32] = dalek_edwards(&[*a], Some(&[*b])).try_into().unwrap();
        assert_eq!(edwards_commitment(a, Some(b)), Some(want));
        let want: [u8; 32] = dalek_edwards(&[*a], None).try_into().unwrap();
        assert_eq!(edwards_commitment(a, None), Some(want));
    }
}

#[test]
fn column_sums_match_dalek_multi_scalar_multiplications() {
    use curve25519_dalek::traits::{Identity, VartimeMultiscalarMul};
    use group::GroupEncoding;
    if skip() {
        return;
    }
    let torsion = curve25519_dalek::constants::EIGHT_TORSION[3];
    for (dealers, t, seed) in [
        (0usize, 3usize, 30u64),
        (1, 1, 31),
        (3, 5, 32),
        (5, 8, 33),
        (7, 9, 34),
        (43, 17, 35),
    ] {
        // Points: random multiples, the identity, and for Ed25519 a torsion component too.
        let rows_s: Vec<Vec<Scalar>> = (0..dealers).map(|d| scalars(t, seed * 100 + d as u64)).collect();
        let ristretto: Vec<Vec<RistrettoPoint>> = rows_s
            .iter()
            .map(|r| r.iter().map(RistrettoPoint::mul_base).collect())
            .collect();
        let edwards: Vec<Vec<EdwardsPoint>> = rows_s
            .iter()
            .enumerate()
            .map(|(d, r)| {
                r.iter()
                    .map(|x| {
                        EdwardsPoint::mul_base(x)
                            + if d % 2 == 0 {
                                torsion
                            } else {
                                EdwardsPoint::identity()
                            }
                    })
                    .collect()
            })
            .collect();
        let r_rows: Vec<Vec<u8>> = ristretto
            .iter()
            .map(|r| r.iter().flat_map(|p| p.to_bytes()).collect())
            .collect();
        let e_rows: Vec<Vec<u8>> = edwards
            .iter()
            .map(|r| r.iter().flat_map(|p| p.to_bytes()).collect())
            .collect();
        let r_refs: Vec<EncodedRow<'_>> = r_rows.iter().map(|r| (r.as_slice(), None)).collect();
        let e_refs: Vec<EncodedRow<'_>> = e_rows.iter().map(|r| (r.as_slice(), None)).collect();
        // Weights: none (a plain sum), the batch checks' 131-bit ones, full ones with the
        // edge cases (0, ±1, ±8), all equal.
        let batch =
            crate::vss::batch::batch_weights::<Ristretto255>("test", &seed.to_le_bytes(), b"w", dealers);
        let full = scalars(dealers, seed + 7);
        let same = alloc::vec![-Scalar::ONE; dealers];
        for weights in [None, Some(&batch), Some(&full), Some(&same)] {
            let ones = alloc::vec![Scalar::ONE; dealers];
            let w = weights.unwrap_or(&ones);
            for columns in [0..t, t / 2..t, 0..0] {
                let want_r: Vec<u8> = columns
                    .clone()
                    .flat_map(|k| {
                        let column: Vec<RistrettoPoint> = ristretto.iter().map(|r| r[k]).collect();
                        RistrettoPoint::vartime_multiscalar_mul(w, &column).to_bytes()
                    })
                    .collect();
                let want_e: Vec<u8> = columns
                    .clone()
                    .flat_map(|k| {
                        let column: Vec<EdwardsPoint> = edwards.iter().map(|r| r[k]).collect();
                        EdwardsPoint::vartime_multiscalar_mul(w, &column).to_bytes()
                    })
                    .collect();
                let w = weights.map(Vec::as_slice);
                assert_eq!(
                    super::ristretto_column_sums(&r_refs, w, columns.clone()),
                    Some(want_r),
                    "{dealers} × {t}, {columns:?}"
                );
                assert_eq!(
                    super::edwards_column_sums(&e_refs, w, columns.clone()),
                    Some(want_e),
                    "{dealers} × {t}, {columns:?}"
                );
            }
        }
    }
    // The probe; refused: a weight count other than the row count, a short row, bytes that
    // do not decode.
    let one = RistrettoPoint::mul_base(&Scalar::ONE).compress().to_bytes();
    assert_eq!(super::ristretto_column_sums(&[], None, 0..0), Some(Vec::new()));
    assert_eq!(
        super::ristretto_column_sums(&[(&one, None)], Some(&[]), 0..1),
        None
    );
    assert_eq!(super::ristretto_column_sums(&[(&one, None)], None, 0..2), None);
    assert_eq!(
        super::ristretto_column_sums(&[(&[0xff; 32], None)], None, 0..1),
        None
    );
}

/// Rows made in the lanes sum from their blocks as they do from their encodings: every
/// row with its blocks, every other one, and none, over whole, aligned and unaligned
/// column ranges, with known zeros first (a refresh) and without.
#[test]
fn column_sums_from_the_lanes_match_those_from_the_encodings() {
    if skip() {
        return;
    }
    for (dealers, t, zeros) in [(5u64, 17, 0), (9, 43, 1), (3, 8, 1)] {
        let made_r: Vec<super::Made> = (0..dealers)
            .map(|d| {
                let (v, b) = (scalars(t - zeros, 50 + d), scalars(t - zeros, 150 + d));
                super::ristretto_commitments(zeros, &v, Some(&b)).expect("lanes")
            })
            .collect();
        let made_e: Vec<super::Made> = (0..dealers)
            .map(|d| super::edwards_commitments(zeros, &scalars(t - zeros, 250 + d), None).expect("lanes"))
            .collect();
        let batch = crate::vss::batch::batch_weights::<Ristretto255>("test", b"lanes", b"w", made_r.len());
        for weights in [None, Some(batch.as_slice())] {
            for columns in [0..t, 8..t, t / 2..t, 1..t.min(9)] {
                for (made, ristretto) in [(&made_r, true), (&made_e, false)] {
                    let lanes: Vec<Lanes> = made
                        .iter()
                        .map(|(_, blocks)| Lanes::new(blocks.clone()))
                        .collect();
                    let sums = |with: &dyn Fn(usize) -> bool| {
                        let rows: Vec<EncodedRow<'_>> = made
                            .iter()
                            .zip(&lanes)
                            .enumerate()
                            .map(|(d, ((raw, _), lanes))| (raw.as_slice(), with(d).then_some(lanes)))
                            .collect();
                        if ristretto {
                            super::ristretto_column_sums(&rows, weights, columns.clone())
                        } else {
                            super::edwards_column_sums(&rows, weights, columns.clone())
                        }
                    };
                    let decoded = sums(&|_| false);
                    assert!(decoded.is_some());
                    assert_eq!(sums(&|_| true), decoded, "{dealers} × {t}, {columns:?}");
                    assert_eq!(sums(&|d| d % 2 == 0), decoded, "{dealers} × {t}, {columns:?}");
                }
            }
        }
    }
}

/// The fixed-base products' digits: radix 16 (one product) and 64 (eight), each in range
/// and summing to the scalar, the extremes included (0, 1, ℓ − 1, all digits at the bound).
#[test]
fn signed_digits_sum_to_their_scalars() {
    let mut cases = scalars(200, 42);
    cases.extend([Scalar::ZERO, Scalar::ONE, -Scalar::ONE]);
    cases.extend((0..64u64).map(|k| Scalar::from(32u64 << k) - Scalar::ONE));
    for s in cases {
        let check = |digits: &[i64], width: usize| {
            let (half, radix) = (1i64 << (width - 1), Scalar::from(1u64 << width));
            let (mut sum, mut power) = (Scalar::ZERO, Scalar::ONE);
            for (i, d) in digits.iter().enumerate() {
                let top = i + 1 == digits.len();
                assert!(
                    if top {
                        (0..=half).contains(d)
                    } else {
                        (-half..half).contains(d)
                    },
                    "digit {i}: {d}"
                );
                let digit = Scalar::from(d.unsigned_abs());
                sum += if *d < 0 { -digit * power } else { digit * power };
                power *= radix;
            }
            assert_eq!(sum, s, "radix 2^{width}");
        };
        check(&super::fixed::signed_digits::<64>(s.as_bytes(), 4), 4);
        check(&super::fixed::signed_digits::<43>(s.as_bytes(), 6), 6);
    }
}

#[test]
fn non_adjacent_forms_sum_to_their_scalars() {
    let mut r = rng(40);
    let mut cases = scalars(200, 41);
    for _ in 0..50 {
        cases.push(Scalar::from(r.next_u64()));
    }
    for s in cases {
        let naf = super::sums::naf(s.as_bytes());
        let mut sum = Scalar::ZERO;
        let mut power = Scalar::ONE;
        for (i, d) in naf.iter().enumerate() {
            assert!(*d == 0 || (d % 2 != 0 && (-7..=7).contains(d)), "digit {d}");
            assert!(*d == 0 || naf[i + 1..(i + 4).min(256)].iter().all(|x| *x == 0));
            let digit = Scalar::from(u64::from(d.unsigned_abs()));
            sum += if *d < 0 { -digit * power } else { digit * power };
            power += power;
        }
        assert_eq!(sum, s);
    }
}
