//! Curve25519 arithmetic eight lanes at a time with AVX-512 IFMA (x86-64, detected at run
//! time), for a reshare's hot spots: the dealers' commitments and shares, the receivers'
//! column sums and evaluations.
//!
//! ```text
//! available()                                  AVX-512F and AVX-512 IFMA, checked once
//! ristretto_commitments / edwards_commitments  a dealer's values[k]·G (+ blinds[k]·H), encoded
//!   └ per eight coefficients: fixed::mul_bases of the halved scalars, point::double;
//!     then doubled::encode_* of all the blocks (one inversion)
//! ristretto_evaluations / edwards_evaluations  Σ_k x^k·P_k at eight receivers' ids, encoded
//!   └ point::decode_*, point::evaluate, point::encode_*
//! ristretto_commitment / edwards_commitment    one value·G (+ blind·H), encoded
//!   └ fixed::mul_bases_one (the digits spread over the lanes), point::encode_*
//! ristretto_column_sums / edwards_column_sums  Σ_d w_d·rows[d][k] for eight columns k, encoded
//!   └ a row's blocks or point::decode_*, sums::weighted or sums::plain, point::encode_*
//! scalars_at_ids                               a dealer's shares: Σ_k c_k·x^k mod ℓ at eight ids
//!   └ horner::at_ids (52-bit limbs, one fold by δ a step)
//! ```
//!
//! Why: a reshare's dealers make |Q|·t commitments, two fixed-base multiplications each with
//! Pedersen, and dalek takes 12.8 µs per multiplication on the benchmarks' AMD EPYC (Zen 4):
//! its tables use one 64-bit multiplier, a field product at a time. Here each 512-bit
//! register holds one limb of eight field elements, and `vpmadd52luq`/`vpmadd52huq`
//! multiply all eight at once: 1.5 µs per multiplication on the radix-64 table of `fixed`
//! (a Pedersen commitment with its encoding 3.8 µs, 1,024 of them timed in a throwaway
//! test; 1.8 µs per multiplication on radix 16; 43 Pedersen commitments 176 → 158 µs and
//! 43 Feldman ones 106 → 87 µs once `doubled` encoded them together). dalek's points cannot be made from
//! coordinates, only decoded (4.4 µs each), so a dealer's commitments stay encodings until a
//! check needs their points, and keep their points here eight to a block. The receivers of
//! one process sum the deals column by column, for the shared aggregate and for the new
//! commitments, reading those blocks; a deal that came from elsewhere is decoded here
//! instead. For 86 × 43 points with 131-bit weights that took 6.8 ms, against 27 ms for
//! dalek's decoding, multi-scalar multiplications and encoding. The receivers of one process
//! evaluate the shared aggregate at their ids eight at a time the same way, instead of one
//! Horner's rule each. A single product (a receiver's weighted check, a possession proof's
//! nonce commitment) spreads its table rows over the lanes, four rows each, and sums the
//! lanes: 15 µs against 30 µs for dalek's Pedersen product and its encoding (latency-bound:
//! eight products at a time take 4.7 µs each).
//!
//! Constant time: in the commitments, the digits of the secret scalars choose table entries
//! through a register permutation (`vpermq`), in a single product through lane masks over
//! every entry, and signs and zeros through lane masks; no branch or memory address depends
//! on them, and the digits are wiped. The halved scalars are made with a mask, and the
//! shares' Horner steps are the same instructions whatever the coefficients (`horner`). The
//! evaluations have only public inputs (variable time in the ids). Valgrind, which the constant-flow
//! check runs on, does not execute AVX-512 and so takes dalek's path: this one is constant
//! time by construction, not by that check.
//!
//! Every result is checked against dalek's, byte for byte, in the tests. The tables (115 KB
//! each: `G`, and `H` per group; see `fixed`) are built once per process from public points
//! with plain arithmetic ([`reference`]): about 1,500 point additions and two field
//! inversions each.

mod doubled;
mod field;
mod fixed;
mod horner;
mod point;
mod reference;
mod sums;
#[cfg(test)]
mod tests;

use alloc::vec::Vec;
use core::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use curve25519_dalek::Scalar;
use zeroize::Zeroize;

use fixed::Table;
use reference::Ext;

/// Set while the lanes are turned off ([`set_enabled`]).
static TURNED_OFF: AtomicBool = AtomicBool::new(false);

/// Whether this CPU has AVX-512F and AVX-512 IFMA (checked once per process), and the lanes
/// are not turned off.
pub(super) fn available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    let detected = *AVAILABLE.get_or_init(|| {
        std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512ifma")
    });
    detected && !TURNED_OFF.load(Ordering::Relaxed)
}

/// Turns the lanes off for this process, or back on (`hazmat`: tests compare the two paths).
#[cfg(feature = "hazmat")]
pub(super) fn set_enabled(on: bool) {
    TURNED_OFF.store(!on, Ordering::Relaxed);
}

/// `G`'s table: the Ed25519 base point, which also represents Ristretto's.
fn g() -> Option<&'static Table> {
    static G: OnceLock<Option<Table>> = OnceLock::new();
    G.get_or_init(|| {
        let g = Ext::from_edwards(&curve25519_dalek::constants::ED25519_BASEPOINT_COMPRESSED.to_bytes())?;
        Some(Table::new(&g))
    })
    .as_ref()
}

/// `8·(8⁻¹ mod ℓ)` as an integer: `1` modulo `ℓ` and `0` modulo 8, so it maps a point to
/// its prime-order part.
#[cfg(feature = "ristretto255")]
fn prime_part() -> [u8; 32] {
    let inverse = Scalar::from(8u64).invert().to_bytes();
    let mut k = [0u8; 32];
    let mut carry = 0u8;
    for (out, byte) in k.iter_mut().zip(inverse) {
        *out = (byte << 3) | carry;
        carry = byte >> 5;
    }
    k
}

/// The group a batch is encoded for, with its `H`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Encoding {
    /// Ristretto255; `H` from its Ristretto encoding (an Edwards representative).
    #[cfg(feature = "ristretto255")]
    Ristretto,
    /// Ed25519's compressed Edwards points.
    #[cfg(feature = "ed25519")]
    Edwards,
}

impl Encoding {
    /// `G`'s table, and `H`'s where `blinded`; `None` if a table could not be made (never).
    fn bases(self, blinded: bool) -> Option<(&'static Table, Option<&'static Table>)> {
        let h = if blinded { Some(self.h()?) } else { None };
        Some((g()?, h))
    }

    /// Eight points' encodings in this group.
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn encode(self, p: &point::Ext8) -> [[u8; 32]; 8] {
        match self {
            #[cfg(feature = "ristretto255")]
            Encoding::Ristretto => point::encode_ristretto(p),
            #[cfg(feature = "ed25519")]
            Encoding::Edwards => point::encode_edwards(p),
        }
    }

    /// Eight encodings decoded, and the lanes that decoded.
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn decode(self, bytes: &[[u8; 32]; 8]) -> (point::Ext8, u8) {
        match self {
            #[cfg(feature = "ristretto255")]
            Encoding::Ristretto => point::decode_ristretto(bytes),
            #[cfg(feature = "ed25519")]
            Encoding::Edwards => point::decode_edwards(bytes),
        }
    }

    /// This group's `H` table; `None` if `H`'s encoding did not decode (it does).
    fn h(self) -> Option<&'static Table> {
        match self {
            #[cfg(feature = "ristretto255")]
            Encoding::Ristretto => {
                static H: OnceLock<Option<Table>> = OnceLock::new();
                // The torsion-free representative: the doubled encodings (`doubled`) are
                // exact for points without a four-torsion part, and `G`'s has none.
                H.get_or_init(|| {
                    let h = Ext::from_ristretto(&super::ristretto255::generator_h_bytes())?;
                    Some(Table::new(&h.mul_vartime(&prime_part())))
                })
                .as_ref()
            }
            #[cfg(feature = "ed25519")]
            Encoding::Edwards => {
                static H: OnceLock<Option<Table>> = OnceLock::new();
                H.get_or_init(|| {
                    Some(Table::new(&Ext::from_edwards(
                        &super::ed25519::generator_h_bytes(),
                    )?))
                })
                .as_ref()
            }
        }
    }
}

/// Eight points of a row, as [`Made`] keeps them.
pub(super) type Block = point::Ext8;

/// Commitments made in the lanes: their encodings, and their points eight to a block (the
/// lanes past the last point hold the identity).
pub(super) type Made = (Vec<u8>, Vec<Block>);

/// The Ristretto encodings of `zeros` identities and then of `values[k]·G`, or of
/// `values[k]·G + blinds[k]·H` (slices of equal length), in order, with their points;
/// `None` without AVX-512 IFMA or for unequal lengths.
#[cfg(feature = "ristretto255")]
pub(super) fn ristretto_commitments(
    zeros: usize,
    values: &[Scalar],
    blinds: Option<&[Scalar]>,
) -> Option<Made> {
    commitments(Encoding::Ristretto, zeros, values, blinds)
}

/// As [`ristretto_commitments`], for Ed25519 (compressed Edwards encodings).
#[cfg(feature = "ed25519")]
pub(super) fn edwards_commitments(
    zeros: usize,
    values: &[Scalar],
    blinds: Option<&[Scalar]>,
) -> Option<Made> {
    commitments(Encoding::Edwards, zeros, values, blinds)
}

fn commitments(
    encoding: Encoding,
    zeros: usize,
    values: &[Scalar],
    blinds: Option<&[Scalar]>,
) -> Option<Made> {
    if !available() || blinds.is_some_and(|b| b.len() != values.len()) {
        return None;
    }
    let (g, h) = encoding.bases(blinds.is_some())?;
    let count = zeros + values.len();
    // Coefficient k of the whole vector: the known zeros first (their products are the
    // identity, the lanes of one block cost the same).
    let at = |s: &[Scalar], k: usize| k.checked_sub(zeros).map_or(Scalar::ZERO, |k| s[k]);
    // Each block made halved, `C/2` from the halved scalars: `doubled` encodes `C` from it
    // with one inversion for all the blocks instead of an inverse square root each.
    let mut halves = Vec::with_capacity(count.div_ceil(8));
    for first in (0..count).step_by(8) {
        let lanes = (count - first).min(8);
        let mut a = eight_halved(|l| at(values, first + l), lanes);
        let mut b = blinds.map(|b| eight_halved(|l| at(b, first + l), lanes));
        // SAFETY: `available()` above found AVX-512F and AVX-512 IFMA on this CPU.
        halves.push(unsafe {
            match (&b, h) {
                (Some(b), Some(h)) => fixed::mul_bases(&[g, h], &[&a, b]),
                _ => fixed::mul_bases(&[g], &[&a]),
            }
        });
        a.zeroize();
        if let Some(b) = b.as_mut() {
            b.zeroize();
        }
    }
    // SAFETY: as above.
    let (blocks, encoded): (Vec<Block>, Vec<[[u8; 32]; 8]>) = unsafe {
        let encoded = match encoding {
            #[cfg(feature = "ristretto255")]
            Encoding::Ristretto => doubled::encode_ristretto(&halves),
            #[cfg(feature = "ed25519")]
            Encoding::Edwards => doubled::encode_edwards(&halves),
        };
        (halves.iter().map(|p| point::double(p)).collect(), encoded)
    };
    let mut out = Vec::with_capacity(count * 32);
    for (i, block) in encoded.iter().enumerate() {
        let lanes = (count - 8 * i).min(8);
        for e in &block[..lanes] {
            out.extend_from_slice(e);
        }
    }
    // Public: commitments are broadcast (decoded by the caller).
    crate::ct::public_slice(&out);
    crate::ct::public_slice(&blocks);
    Some((out, blocks))
}

/// The encodings of `Σ_k x^k·P_k` at each public `x` of `xs` (up to eight), the points
/// `P_k` given by their encodings (`encoded`, 32 bytes each, canonical: dalek's); `None`
/// without AVX-512 IFMA, for more than eight, or if a point does not decode. No `x`: an
/// empty list, so that a caller can ask whether this CPU evaluates before encoding points.
fn evaluations(encoding: Encoding, encoded: &[u8], xs: &[u16]) -> Option<Vec<u8>> {
    if !available() || xs.len() > 8 || !encoded.len().is_multiple_of(32) {
        return None;
    }
    if xs.is_empty() {
        return Some(Vec::new());
    }
    let count = encoded.len() / 32;
    let mut points = Vec::with_capacity(count.div_ceil(8));
    for chunk in encoded.chunks(8 * 32) {
        let lanes = chunk.len() / 32;
        // Lanes past the last point repeat the first (decoded, never used).
        let bytes: [[u8; 32]; 8] = core::array::from_fn(|l| {
            let at = if l < lanes { 32 * l } else { 0 };
            let mut e = [0u8; 32];
            e.copy_from_slice(&chunk[at..at + 32]);
            e
        });
        // SAFETY: `available()` above found AVX-512F and AVX-512 IFMA on this CPU.
        let (decoded, ok) = unsafe { encoding.decode(&bytes) };
        if ok != u8::MAX {
            return None;
        }
        points.push(decoded);
    }
    let mut at = [0u16; 8];
    at[..xs.len()].copy_from_slice(xs);
    // SAFETY: as above.
    let encoded = unsafe { encoding.encode(&point::evaluate(&points, count, &at)) };
    Some(encoded[..xs.len()].concat())
}

/// Each of `polys` (scalars mod ℓ, of one length) at each of `xs`, eight ids at a time:
/// `out[p][i] = Σ_k polys[p][k]·xs[i]^k`, in constant time in the coefficients; `None`
/// without AVX-512 IFMA or for polynomials of different lengths. Both groups' scalars.
pub(super) fn scalars_at_ids(polys: &[&[Scalar]], xs: &[u16]) -> Option<Vec<Vec<Scalar>>> {
    horner::at_ids(polys, xs)
}

/// Ristretto255's [`evaluations`].
#[cfg(feature = "ristretto255")]
pub(super) fn ristretto_evaluations(encoded: &[u8], xs: &[u16]) -> Option<Vec<u8>> {
    evaluations(Encoding::Ristretto, encoded, xs)
}

/// Ed25519's [`evaluations`].
#[cfg(feature = "ed25519")]
pub(super) fn edwards_evaluations(encoded: &[u8], xs: &[u16]) -> Option<Vec<u8>> {
    evaluations(Encoding::Edwards, encoded, xs)
}

/// The encoding of `value·G`, or of `value·G + blind·H`, one multiplication spread over the
/// eight lanes; `None` without AVX-512 IFMA.
fn commitment(encoding: Encoding, value: &Scalar, blind: Option<&Scalar>) -> Option<[u8; 32]> {
    if !available() {
        return None;
    }
    let (g, h) = encoding.bases(blind.is_some())?;
    let mut a = value.to_bytes();
    let mut b = blind.map(Scalar::to_bytes);
    // SAFETY: `available()` above found AVX-512F and AVX-512 IFMA on this CPU.
    let encoded = unsafe {
        let sum = match (&b, h) {
            (Some(b), Some(h)) => fixed::mul_bases_one(&[g, h], &[&a, b]),
            _ => fixed::mul_bases_one(&[g], &[&a]),
        };
        encoding.encode(&sum)
    };
    a.zeroize();
    if let Some(b) = b.as_mut() {
        b.zeroize();
    }
    Some(encoded[0])
}

/// Ristretto255's [`commitment`].
#[cfg(feature = "ristretto255")]
pub(super) fn ristretto_commitment(value: &Scalar, blind: Option<&Scalar>) -> Option<[u8; 32]> {
    commitment(Encoding::Ristretto, value, blind)
}

/// Ed25519's [`commitment`].
#[cfg(feature = "ed25519")]
pub(super) fn edwards_commitment(value: &Scalar, blind: Option<&Scalar>) -> Option<[u8; 32]> {
    commitment(Encoding::Edwards, value, blind)
}

/// The encodings of `Σ_d weights[d]·rows[d][k]` (a plain sum without weights) for each
/// column `k` of `columns`, the rows given by their points' encodings (32 bytes each,
/// canonical: dalek's or made here) or, where a row has them, its blocks (read instead of
/// decoding: for Ristretto another representative of the same points, which the sum's
/// encoding does not tell apart), eight columns at a time; `None` without AVX-512 IFMA,
/// for a weight count other than the row count, a row shorter than the columns, or a point
/// that does not decode. No rows and no columns: an empty list, so that a caller can ask
/// whether this CPU sums. Public inputs only (variable time).
fn column_sums(
    encoding: Encoding,
    rows: &[super::EncodedRow<'_>],
    weights: Option<&[Scalar]>,
    columns: core::ops::Range<usize>,
) -> Option<Vec<u8>> {
    if !available()
        || weights.is_some_and(|w| w.len() != rows.len())
        || rows.iter().any(|(r, _)| r.len() < 32 * columns.end)
    {
        return None;
    }
    let nafs: Option<Vec<sums::Naf>> = weights.map(|w| w.iter().map(|s| sums::naf(s.as_bytes())).collect());
    let mut out = Vec::with_capacity(32 * columns.len());
    let mut points = Vec::with_capacity(rows.len());
    let mut first = columns.start;
    while first < columns.end {
        let lanes = (columns.end - first).min(8);
        points.clear();
        for (row, made) in rows {
            // A block made here, where it starts at this column: no decoding.
            let block = made
                .filter(|_| first.is_multiple_of(8))
                .and_then(|made| made.blocks.get(first / 8));
            if let Some(block) = block {
                points.push(*block);
                continue;
            }
            // Lanes past the last column repeat the first (decoded, never used).
            let bytes: [[u8; 32]; 8] = core::array::from_fn(|l| {
                let at = 32 * (first + if l < lanes { l } else { 0 });
                let mut e = [0u8; 32];
                e.copy_from_slice(&row[at..at + 32]);
                e
            });
            // SAFETY: `available()` above found AVX-512F and AVX-512 IFMA on this CPU.
            let (decoded, ok) = unsafe { encoding.decode(&bytes) };
            if ok != u8::MAX {
                return None;
            }
            points.push(decoded);
        }
        // SAFETY: as above.
        let encoded = unsafe {
            let sum = match &nafs {
                Some(nafs) => sums::weighted(&points, nafs),
                None => sums::plain(&points),
            };
            encoding.encode(&sum)
        };
        for e in &encoded[..lanes] {
            out.extend_from_slice(e);
        }
        first += lanes;
    }
    Some(out)
}

/// Ristretto255's [`column_sums`].
#[cfg(feature = "ristretto255")]
pub(super) fn ristretto_column_sums(
    rows: &[super::EncodedRow<'_>],
    weights: Option<&[Scalar]>,
    columns: core::ops::Range<usize>,
) -> Option<Vec<u8>> {
    column_sums(Encoding::Ristretto, rows, weights, columns)
}

/// Ed25519's [`column_sums`].
#[cfg(feature = "ed25519")]
pub(super) fn edwards_column_sums(
    rows: &[super::EncodedRow<'_>],
    weights: Option<&[Scalar]>,
    columns: core::ops::Range<usize>,
) -> Option<Vec<u8>> {
    column_sums(Encoding::Edwards, rows, weights, columns)
}

/// The bytes of `scalar(l)/2 mod ℓ` for the first `lanes` lanes, zeros after them, in
/// constant time: `s/2` is `s >> 1` for an even `s` and `(s + ℓ) >> 1` for an odd one.
fn eight_halved(scalar: impl Fn(usize) -> Scalar, lanes: usize) -> [[u8; 32]; 8] {
    const ELL: [u64; 4] = [0x5812_631a_5cf5_d3ed, 0x14de_f9de_a2f7_9cd6, 0, 1 << 60];
    let mut out = [[0u8; 32]; 8];
    for (l, o) in out.iter_mut().enumerate().take(lanes) {
        let mut s = scalar(l);
        let mut w = [0u64; 4];
        for (word, chunk) in w.iter_mut().zip(s.as_bytes().chunks_exact(8)) {
            let mut b = [0u8; 8];
            b.copy_from_slice(chunk);
            *word = u64::from_le_bytes(b);
        }
        // ℓ where s is odd (a mask, not a branch); the sum is below 2^254.
        let odd = (w[0] & 1).wrapping_neg();
        let mut carry = 0u64;
        for (word, l) in w.iter_mut().zip(ELL) {
            let (sum, c1) = word.overflowing_add(l & odd);
            let (sum, c2) = sum.overflowing_add(carry);
            *word = sum;
            carry = u64::from(c1) | u64::from(c2);
        }
        for i in 0..4 {
            let next = if i < 3 { w[i + 1] } else { 0 };
            w[i] = (w[i] >> 1) | (next << 63);
        }
        for (chunk, word) in o.chunks_exact_mut(8).zip(w) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        w.zeroize();
        s.zeroize();
    }
    out
}
