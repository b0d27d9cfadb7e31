//! The encodings of `2P` for many blocks of eight points `P`, with one field inversion for
//! all of them: a dealer makes its commitments halved (`P = C/2`) and encodes them here.
//!
//! Why: encoding a point alone costs an inverse square root (Ristretto) or an inversion
//! (Edwards), about 265 field products per block. The doubled point's encoding needs only an
//! inversion of a product of its doubling's intermediates (RFC 9496's and dalek's batched
//! double-and-encode for Ristretto, the affine doubling formula for Edwards), and inversions
//! batch: Montgomery's trick, three products a block and one inversion for all.
//!
//! For `P = (X : Y : Z : T)` the doubling's intermediates are `e = 2XY`, `f = Z² + dT²`,
//! `g = Y² + X²`, `h = Z² − dT²`, and `2P = (e/f, g/h)` in affine coordinates. `f` and `h`
//! never vanish on the curve. The Ristretto formula is exact for points without a
//! four-torsion part (it returned zero for some with one, in the tests), which is what the
//! dealers' commitments are: their bases `G` and `H` are torsion-free (see `Encoding::h`).
//! Constant time: no branch or index depends on a point, except the fallback below on
//! whether a product vanished, which only a torsion point's does.

use alloc::vec::Vec;
use core::arch::x86_64::__mmask8;

use super::field::{self, F8};
use super::point::{self, Ext8};
use super::reference;

/// A block's doubling intermediates.
struct Doubling {
    e: F8,
    f: F8,
    g: F8,
    h: F8,
}

impl Doubling {
    #[inline]
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn of(p: &Ext8) -> Doubling {
        let d = F8::splat(&reference::D.0);
        let xx = field::square(&p.x);
        let yy = field::square(&p.y);
        let zz = field::square(&p.z);
        let dtt = field::mul(&field::square(&p.t), &d);
        Doubling {
            e: field::mul(&p.x, &field::add(&p.y, &p.y)),
            f: field::add(&zz, &dtt),
            g: field::add(&yy, &xx),
            h: field::sub(&zz, &dtt),
        }
    }
}

/// `1/values[i]` for every block, lane by lane (no value zero in any lane).
#[target_feature(enable = "avx512f,avx512ifma")]
fn batch_invert(values: &[F8]) -> Vec<F8> {
    let mut prefix = Vec::with_capacity(values.len());
    let mut acc = F8::one();
    for v in values {
        acc = field::mul(&acc, v);
        prefix.push(acc);
    }
    let mut inv = field::invert(&acc);
    let mut out = alloc::vec![F8::one(); values.len()];
    for i in (0..values.len()).rev() {
        out[i] = match i.checked_sub(1) {
            Some(before) => field::mul(&inv, &prefix[before]),
            None => inv,
        };
        inv = field::mul(&inv, &values[i]);
    }
    out
}

/// The Ristretto encodings of `2P` for each block `P` of `halves` (RFC 9496 §4.3.2 through
/// the doubling), in constant time.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn encode_ristretto(halves: &[Ext8]) -> Vec<[[u8; 32]; 8]> {
    let sqrt_m1 = F8::splat(&reference::SQRT_M1.0);
    let invsqrt_a_minus_d = F8::splat(&reference::INVSQRT_A_MINUS_D.0);
    let one = F8::one();
    let states: Vec<(Doubling, F8, F8)> = halves
        .iter()
        .map(|p| {
            let s = Doubling::of(p);
            let (eg, fh) = (field::mul(&s.e, &s.g), field::mul(&s.f, &s.h));
            (s, eg, fh)
        })
        .collect();
    // Every vanishing product takes 1 in the batch, so that it spoils no other block's
    // inverse. e = 0 (X or Y zero: 2P is the identity or the 2-torsion point) is encoded as
    // zero below; any other (g = 0, a torsion point) sends its block to the fallback.
    let flat: Vec<(F8, __mmask8, __mmask8)> = states
        .iter()
        .map(|(s, eg, fh)| {
            let e_zero = field::is_zero(&s.e);
            let product = field::mul(eg, fh);
            let zero = field::is_zero(&product);
            (field::select(&product, &one, zero), e_zero, zero & !e_zero)
        })
        .collect();
    let products: Vec<F8> = flat.iter().map(|(p, _, _)| *p).collect();
    let inverses = batch_invert(&products);
    states
        .iter()
        .zip(flat.iter().zip(&inverses))
        .zip(halves)
        .map(|(((s, eg, fh), ((_, e_zero, other_zero), inv)), half)| {
            if *other_zero != 0 {
                // Some lane's g vanished: encode this block's doubled points one by one.
                return point::encode_ristretto(&point::double(half));
            }
            let z_inv = field::mul(eg, inv);
            let t_inv = field::mul(fh, inv);
            let rotate = field::is_negative(&field::mul(eg, &z_inv));
            let e = field::select(&s.e, &s.g, rotate);
            let g = field::select(&s.g, &field::neg(&s.e), rotate);
            let h = field::select(&s.h, &field::mul(&s.f, &sqrt_m1), rotate);
            let magic = field::select(&invsqrt_a_minus_d, &sqrt_m1, rotate);
            let flip = field::is_negative(&field::mul(&field::mul(&h, &e), &z_inv));
            let g = field::select(&g, &field::neg(&g), flip);
            let s = field::mul(&field::sub(&h, &g), &field::mul(&magic, &field::mul(&g, &t_inv)));
            point::bytes(&field::select(&field::abs(&s), &F8::zero(), *e_zero))
        })
        .collect()
}

/// The compressed Edwards encodings of `2P` for each block `P` of `halves` (RFC 8032
/// §5.1.2 of the affine doubling), in constant time.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn encode_edwards(halves: &[Ext8]) -> Vec<[[u8; 32]; 8]> {
    let states: Vec<Doubling> = halves.iter().map(|p| Doubling::of(p)).collect();
    let products: Vec<F8> = states.iter().map(|s| field::mul(&s.f, &s.h)).collect();
    let inverses = batch_invert(&products);
    states
        .iter()
        .zip(&inverses)
        .map(|(s, inv)| {
            // x = e/f = e·h/(f·h), y = g/h = g·f/(f·h).
            let x = field::mul(&field::mul(&s.e, &s.h), inv);
            let y = field::mul(&field::mul(&s.g, &s.f), inv);
            let negative = field::is_negative(&x);
            let mut out = point::bytes(&y);
            for (lane, e) in out.iter_mut().enumerate() {
                e[31] |= u8::from(negative >> lane & 1 == 1) << 7;
            }
            out
        })
        .collect()
}

// The doubled encodings against doubling then encoding (skipped, with a note, without IFMA).
#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use curve25519_dalek::EdwardsPoint;

    use super::super::tests::{scalars, skip};

    #[test]
    fn doubled_encodings_match_doubling_then_encoding() {
        if skip() {
            return;
        }
        use curve25519_dalek::constants::EIGHT_TORSION;
        let s = scalars(16, 30);
        let random: Vec<EdwardsPoint> = s.iter().map(EdwardsPoint::mul_base).collect();
        let (identity, minus_one) = (EIGHT_TORSION[0], EIGHT_TORSION[4]);
        // Torsion-free points (the identity among them: e = 0) and points with a two-torsion
        // part, (0, −1): both encodings. Every eight-torsion point (e = 0, or g = 0 and the
        // block's fallback to encoding one by one, which must not spoil the other blocks'
        // shared inversion): both encodings where the fallback takes the block.
        let blocks: [[EdwardsPoint; 8]; 3] = [
            core::array::from_fn(|l| random[l]),
            core::array::from_fn(|l| random[8 + l] + if l % 2 == 0 { identity } else { minus_one }),
            EIGHT_TORSION,
        ];
        let torsion_first = [blocks[2], blocks[0], blocks[1]];
        for (chosen, ristretto_too) in [
            (&blocks[..2], true),
            (&blocks[1..2], true),
            (&blocks[..], true),
            (&torsion_first[..], true),
        ] {
            let halves: Vec<super::super::point::Ext8> = chosen
                .iter()
                .map(|b| {
                    let bytes = b.map(|p| p.compress().to_bytes());
                    // SAFETY: `skip()` above found AVX-512F and AVX-512 IFMA on this CPU.
                    let (p, ok) = unsafe { super::super::point::decode_edwards(&bytes) };
                    assert_eq!(ok, u8::MAX);
                    p
                })
                .collect();
            // SAFETY: as above.
            let (ristretto, edwards) =
                unsafe { (super::encode_ristretto(&halves), super::encode_edwards(&halves)) };
            for ((half, r), e) in halves.iter().zip(&ristretto).zip(&edwards) {
                // SAFETY: as above.
                let (want_r, want_e) = unsafe {
                    let doubled = super::super::point::double(half);
                    (
                        super::super::point::encode_ristretto(&doubled),
                        super::super::point::encode_edwards(&doubled),
                    )
                };
                if ristretto_too {
                    assert_eq!(r, &want_r);
                }
                assert_eq!(e, &want_e);
            }
        }
    }
}
