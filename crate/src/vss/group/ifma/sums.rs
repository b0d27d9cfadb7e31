//! Weighted sums of public points taken column by column, eight columns at a time: lane `j`
//! of `Σ_d w_d·P_d` sums column `j` of the rows, and every lane shares the weights. Straus's
//! method with each weight in width-4 non-adjacent form: one table of odd multiples per row,
//! one doubling per bit for all the rows, one addition per nonzero digit. Variable time:
//! the weights and the points are public.

use alloc::vec::Vec;

use super::field::F8;
use super::point::{self, Cached8, Ext8};
use super::reference;

/// Digits of a width-4 non-adjacent form: 256 of them cover any scalar below 2^255.
pub(super) type Naf = [i8; 256];

/// The width-4 non-adjacent form of a public scalar (32 little-endian bytes, below 2^253 as
/// every reduced scalar is): `Σ_i naf[i]·2^i`, each digit zero or odd in −7..=7, at most
/// one nonzero among any four in a row.
pub(super) fn naf(bytes: &[u8; 32]) -> Naf {
    let mut limbs = [0u64; 5];
    for (l, chunk) in limbs.iter_mut().zip(bytes.chunks_exact(8)) {
        let mut b = [0u8; 8];
        b.copy_from_slice(chunk);
        *l = u64::from_le_bytes(b);
    }
    let mut out = [0i8; 256];
    let mut carry = 0u64;
    let mut at = 0;
    while at < 256 {
        let (limb, bit) = (at / 64, at % 64);
        let mut window = limbs[limb] >> bit;
        if bit > 60 {
            window |= limbs[limb + 1] << (64 - bit);
        }
        let window = carry + (window & 15);
        if window & 1 == 0 {
            at += 1;
            continue;
        }
        // The window (odd, below 16) as a signed odd digit; a negative one carries into the
        // next window.
        let odd = i8::try_from(window).unwrap_or_default();
        let (digit, next) = if odd < 8 { (odd, 0) } else { (odd - 16, 1) };
        out[at] = digit;
        carry = next;
        at += 4;
    }
    out
}

/// `Σ_d weights[d]·points[d]` in each lane (`weights` in [`naf`] form, one per point).
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn weighted(points: &[Ext8], weights: &[Naf]) -> Ext8 {
    let d2 = F8::splat(&reference::D.add(reference::D).reduced().0);
    // Each point's P, 3P, 5P, 7P.
    let tables: Vec<[Cached8; 4]> = points
        .iter()
        .map(|p| {
            let twice = Cached8::of(&point::double(p), &d2);
            let mut odd = [Cached8::of(p, &d2); 4];
            let mut m = *p;
            for entry in odd.iter_mut().skip(1) {
                m = point::add_cached(&m, &twice);
                *entry = Cached8::of(&m, &d2);
            }
            odd
        })
        .collect();
    let top = weights
        .iter()
        .filter_map(|w| w.iter().rposition(|d| *d != 0))
        .max();
    let Some(top) = top else {
        return point::identity();
    };
    let mut acc = point::identity();
    for i in (0..=top).rev() {
        if i < top {
            acc = point::double(&acc);
        }
        for (table, w) in tables.iter().zip(weights) {
            let d = w[i];
            // |d| is odd and below 8: entry |d| / 2 of the table.
            let entry = &table[usize::from(d.unsigned_abs() / 2) & 3];
            if d > 0 {
                acc = point::add_cached(&acc, entry);
            } else if d < 0 {
                acc = point::add_cached(&acc, &entry.neg());
            }
        }
    }
    acc
}

/// `Σ_d points[d]` in each lane.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn plain(points: &[Ext8]) -> Ext8 {
    let d2 = F8::splat(&reference::D.add(reference::D).reduced().0);
    let mut acc = point::identity();
    for p in points {
        acc = point::add(&acc, p, &d2);
    }
    acc
}
