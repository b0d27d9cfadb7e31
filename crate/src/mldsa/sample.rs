//! Sampling (FIPS 204 §7.3, Alg. 29–34): SampleInBall, RejNTTPoly, RejBoundedPoly,
//! ExpandA, ExpandS, ExpandMask.
//!
//! ExpandA, ExpandS and ExpandMask read many independent SHAKE streams; they sample them in
//! groups of `hash::lanes::LANES` (4 on x86-64, 2 in WebAssembly, 1 elsewhere) on a
//! multi-way Keccak, and a lone stream on the one-stream functions (`rej_ntt_poly`,
//! `rej_bounded_poly`, `expand_mask_poly`), which the tests keep as the reference.

use zeroize::Zeroize;

use super::params::Params;
use super::poly::{Poly, N};
use crate::hash::blocks::{Shake128Blocks, Shake256Blocks};
use crate::hash::lanes::{Shake128Lanes, Shake256Lanes, LANES};

/// SHAKE256 rate in bytes.
const RATE256: usize = 136;

/// FIPS 204 Alg. 29 SampleInBall: a polynomial with τ coefficients in {−1, 1}.
/// Runs on c̃, which is public (it is part of the signature).
pub(super) fn sample_in_ball<P: Params>(c_tilde: &[u8]) -> Poly {
    let mut xof = Shake256Blocks::new(&[c_tilde]);
    let mut buf = xof.next_block();
    let signs = u64::from_le_bytes([buf[0], buf[1], buf[2], buf[3], buf[4], buf[5], buf[6], buf[7]]);
    let mut pos = 8;
    let mut c = Poly::default();
    for (k, i) in (N - P::TAU..N).enumerate() {
        let j = loop {
            if pos == RATE256 {
                buf = xof.next_block();
                pos = 0;
            }
            let j = usize::from(buf[pos]);
            pos += 1;
            if j <= i {
                break j;
            }
        };
        c.0[i] = c.0[j];
        c.0[j] = 1 - 2 * ((signs >> k) & 1) as i32;
    }
    c
}

/// FIPS 204 Alg. 30 RejNTTPoly: the entry Â[r][s] of ExpandA (Alg. 32), seeded with
/// ρ ‖ s ‖ r. Coefficients in [0, q), already in the NTT domain.
pub(super) fn rej_ntt_poly(rho: &[u8; 32], s: u8, r: u8) -> Poly {
    let mut xof = Shake128Blocks::new(&[rho, &[s, r]]);
    let mut a = Poly::default();
    let mut filled = 0;
    // A block is 56 three-byte candidates; about five blocks fill a polynomial.
    while filled < N {
        rej_ntt_take(&xof.next_block(), &mut a, &mut filled);
    }
    a
}

/// Alg. 30 steps 4–10 over one block: appends the accepted candidates to `a`.
#[inline(always)]
fn rej_ntt_take(block: &[u8], a: &mut Poly, filled: &mut usize) {
    super::kernels::rej_ntt(block, &mut a.0, filled);
}

/// FIPS 204 Alg. 32 ExpandA, handed out row by row: entry Â[r][s] is RejNTTPoly on
/// ρ ‖ s ‖ r. The k·ℓ entries are sampled [`LANES`] at a time in row-major order, across
/// row ends, so every group but the last fills the lanes; the group ahead of the current
/// row is kept here (`LANES` polynomials), never the whole matrix.
pub(super) struct ExpandA<'a> {
    rho: &'a [u8; 32],
    l: usize,
    total: usize,
    /// The row-major index of the next entry to hand out.
    next: usize,
    /// Entries `ahead_at..ahead_at + ahead_len`, sampled.
    ahead: [Poly; LANES],
    ahead_at: usize,
    ahead_len: usize,
}

impl<'a> ExpandA<'a> {
    /// The k × ℓ matrix of ρ.
    pub(super) fn new(rho: &'a [u8; 32], k: usize, l: usize) -> Self {
        ExpandA {
            rho,
            l,
            total: k * l,
            next: 0,
            ahead: [Poly::default(); LANES],
            ahead_at: 0,
            ahead_len: 0,
        }
    }

    /// Fills `row` (ℓ entries) with the next row of Â.
    pub(super) fn next_row(&mut self, row: &mut [Poly]) {
        debug_assert!(row.len() == self.l && self.next + self.l <= self.total);
        for p in row.iter_mut() {
            if self.next >= self.ahead_at + self.ahead_len {
                self.ahead_at = self.next;
                self.ahead_len = LANES.min(self.total - self.next);
                rej_ntt_group(self.rho, self.l, self.next, &mut self.ahead[..self.ahead_len]);
            }
            *p = self.ahead[self.next - self.ahead_at];
            self.next += 1;
        }
    }
}

/// Entries `first..first + out.len()` of Â in row-major order (entry e is Â[e / ℓ][e mod ℓ]),
/// one per lane; a lone entry on the scalar sponge.
// Exact: the row and column indices are below k, ℓ ≤ 8 (FIPS 204 Alg. 32 takes them as bytes).
#[allow(clippy::cast_possible_truncation)]
fn rej_ntt_group(rho: &[u8; 32], l: usize, first: usize, out: &mut [Poly]) {
    let seed = |t: usize| [((first + t) % l) as u8, ((first + t) / l) as u8];
    if let [p] = out {
        let [s, r] = seed(0);
        *p = rej_ntt_poly(rho, s, r);
        return;
    }
    let seeds: [[u8; 2]; LANES] = core::array::from_fn(seed);
    let mut xof = Shake128Lanes::new(rho, &seeds[..out.len()]);
    let mut filled = [0usize; LANES];
    out.fill(Poly::default());
    while filled[..out.len()].iter().any(|&f| f < N) {
        let blocks = xof.next_blocks();
        for ((block, p), f) in blocks.iter().zip(out.iter_mut()).zip(filled.iter_mut()) {
            rej_ntt_take(block, p, f);
        }
    }
}

/// FIPS 204 Alg. 31 RejBoundedPoly with seed ρ′ ‖ IntegerToBytes(index, 2):
/// coefficients in [−η, η]. Alg. 15 CoeffFromHalfByte inlined.
///
/// The rejection of half-bytes depends on the (secret) stream, as in the standard;
/// what is rejected is discarded and independent of what is kept.
pub(super) fn rej_bounded_poly<P: Params>(rho_prime: &[u8; 64], index: u16) -> Poly {
    let mut xof = Shake256Blocks::new(&[rho_prime, &index.to_le_bytes()]);
    let mut a = Poly::default();
    let mut filled = 0;
    while filled < N {
        let mut block = xof.next_block();
        rej_bounded_take::<P>(&block[..], &mut a, &mut filled);
        block.as_mut_slice().zeroize();
    }
    a
}

/// Alg. 31 steps 4–13 over one block: appends the accepted coefficients to `a`, and stops
/// reading at the byte that completes it.
#[inline(always)]
fn rej_bounded_take<P: Params>(block: &[u8], a: &mut Poly, filled: &mut usize) {
    for &z in block {
        if *filled == N {
            return;
        }
        for b in [i32::from(z & 15), i32::from(z >> 4)] {
            // Public: which half-bytes are rejected is independent of the coefficients
            // kept (FIPS 204 §7.3 samples s1, s2 this way; the count leaks only timing).
            let accept = crate::ct::public(if P::ETA == 2 { b < 15 } else { b < 9 });
            if accept && *filled < N {
                // η = 2: 2 − (b mod 5), computed as b − 5·⌊b·205 / 1024⌋ (exact for b < 15).
                a.0[*filled] = if P::ETA == 2 {
                    2 - (b - ((205 * b) >> 10) * 5)
                } else {
                    4 - b
                };
                *filled += 1;
            }
        }
    }
}

/// FIPS 204 Alg. 33 ExpandS: s1[j] = RejBoundedPoly(ρ′ ‖ j) for j < ℓ = `s1.len()` and
/// s2[i] = RejBoundedPoly(ρ′ ‖ ℓ + i) for i < k = `s2.len()`, [`LANES`] streams at a time.
// Exact: the nonces are below k + ℓ ≤ 15.
#[allow(clippy::cast_possible_truncation)]
pub(super) fn expand_s<P: Params>(rho_prime: &[u8; 64], s1: &mut [Poly], s2: &mut [Poly]) {
    let (l, total) = (s1.len(), s1.len() + s2.len());
    let mut group = zeroize::Zeroizing::new([Poly::default(); LANES]);
    for first in (0..total).step_by(LANES) {
        let n = LANES.min(total - first);
        rej_bounded_group::<P>(rho_prime, first as u16, &mut group[..n]);
        for (t, p) in group.iter().enumerate().take(n) {
            let e = first + t;
            if e < l {
                s1[e] = *p;
            } else {
                s2[e - l] = *p;
            }
        }
    }
}

/// RejBoundedPoly with nonces `first..first + out.len()`, one per lane; a lone one on the
/// scalar sponge. Every lane's block is wiped after use.
// Exact: the nonces are below k + ℓ ≤ 15.
#[allow(clippy::cast_possible_truncation)]
fn rej_bounded_group<P: Params>(rho_prime: &[u8; 64], first: u16, out: &mut [Poly]) {
    if let [p] = out {
        *p = rej_bounded_poly::<P>(rho_prime, first);
        return;
    }
    let seeds: [[u8; 2]; LANES] = core::array::from_fn(|t| first.wrapping_add(t as u16).to_le_bytes());
    let mut xof = Shake256Lanes::new(rho_prime, &seeds[..out.len()]);
    let mut filled = [0usize; LANES];
    out.fill(Poly::default());
    while filled[..out.len()].iter().any(|&f| f < N) {
        let mut blocks = xof.next_blocks();
        for ((block, p), f) in blocks.iter().zip(out.iter_mut()).zip(filled.iter_mut()) {
            rej_bounded_take::<P>(block, p, f);
        }
        blocks.as_flattened_mut().zeroize();
    }
}

/// FIPS 204 Alg. 34 ExpandMask: y[r] from ρ″ and counter κ + r for r < ℓ = `y.len()`,
/// [`LANES`] polynomials at a time. Coefficients in (−γ1, γ1].
// Exact: r < ℓ ≤ 7; κ wraps mod 2^16 as FIPS 204 Alg. 34 does.
#[allow(clippy::cast_possible_truncation)]
pub(super) fn expand_mask<P: Params>(rho_pp: &[u8; 64], kappa: u16, y: &mut [Poly]) {
    let len = 32 * P::Z_BITS;
    // Wiped at the end, as a slice (one fill; an array's `zeroize` stores byte by byte).
    let mut buf = [[0u8; 5 * RATE256]; LANES];
    for (g, group) in y.chunks_mut(LANES).enumerate() {
        let first = kappa.wrapping_add((g * LANES) as u16);
        if let [p] = group {
            *p = expand_mask_poly::<P>(rho_pp, first, &mut buf[0]);
            continue;
        }
        let seeds: [[u8; 2]; LANES] = core::array::from_fn(|t| first.wrapping_add(t as u16).to_le_bytes());
        let mut xof = Shake256Lanes::new(rho_pp, &seeds[..group.len()]);
        for b in 0..len.div_ceil(RATE256) {
            let mut blocks = xof.next_blocks();
            let end = (RATE256 * (b + 1)).min(len);
            for (lane, block) in buf.iter_mut().zip(blocks.iter()).take(group.len()) {
                lane[RATE256 * b..end].copy_from_slice(&block[..end - RATE256 * b]);
            }
            blocks.as_flattened_mut().zeroize();
        }
        for (p, lane) in group.iter_mut().zip(buf.iter()) {
            *p = super::encode::unpack_mask::<P>(&lane[..len]);
        }
    }
    buf.as_flattened_mut().zeroize();
}

/// One polynomial of ExpandMask, with `buf` as scratch space.
fn expand_mask_poly<P: Params>(rho_pp: &[u8; 64], counter: u16, buf: &mut [u8; 5 * RATE256]) -> Poly {
    let len = 32 * P::Z_BITS;
    let mut xof = Shake256Blocks::new(&[rho_pp, &counter.to_le_bytes()]);
    for chunk in buf[..len].chunks_mut(RATE256) {
        let mut block = xof.next_block();
        chunk.copy_from_slice(&block[..chunk.len()]);
        block.as_mut_slice().zeroize();
    }
    super::encode::unpack_mask::<P>(&buf[..len])
}

#[cfg(test)]
mod tests {
    use super::super::params::{MlDsa44, MlDsa65, MlDsa87};
    use super::super::poly::{zero_vec, MAX_K};
    use super::*;

    // Exact: test indices and seeds below 256.
    #[allow(clippy::cast_possible_truncation)]
    fn lanes_equal_one_stream<P: Params>() {
        for seed in 0..4u8 {
            let rho: [u8; 32] = core::array::from_fn(|b| (b as u8).wrapping_mul(37) ^ seed);
            let rho_long: [u8; 64] = core::array::from_fn(|b| (b as u8).wrapping_mul(91) ^ seed);
            // ExpandA, row by row across group ends.
            let mut rows = ExpandA::new(&rho, P::K, P::L);
            let mut row = zero_vec();
            for i in 0..P::K {
                rows.next_row(&mut row[..P::L]);
                for (j, p) in row.iter().enumerate().take(P::L) {
                    assert!(p.0 == rej_ntt_poly(&rho, j as u8, i as u8).0, "A[{i}][{j}]");
                }
            }
            // ExpandS: nonces 0..ℓ for s1, ℓ..ℓ+k for s2.
            let (mut s1, mut s2) = (zero_vec(), zero_vec());
            expand_s::<P>(&rho_long, &mut s1[..P::L], &mut s2[..P::K]);
            for (r, p) in s1.iter().take(P::L).chain(s2.iter().take(P::K)).enumerate() {
                assert!(p.0 == rej_bounded_poly::<P>(&rho_long, r as u16).0, "s[{r}]");
            }
            // ExpandMask, with κ wrapping at 2^16.
            for kappa in [0u16, u16::MAX - 2, 7 * u16::from(seed)] {
                let mut y = zero_vec();
                expand_mask::<P>(&rho_long, kappa, &mut y[..P::L]);
                let mut buf = [0u8; 5 * RATE256];
                for (r, p) in y.iter().enumerate().take(P::L) {
                    let want = expand_mask_poly::<P>(&rho_long, kappa.wrapping_add(r as u16), &mut buf);
                    assert!(p.0 == want.0, "y[{r}] at κ = {kappa}");
                }
                // Fewer polynomials than ℓ: every group size, down to a lone one.
                for n in 1..=P::L.min(MAX_K) {
                    let mut part = zero_vec();
                    expand_mask::<P>(&rho_long, kappa, &mut part[..n]);
                    assert!(part[..n].iter().zip(y.iter()).all(|(a, b)| a.0 == b.0));
                }
            }
        }
    }

    #[test]
    fn lanes_equal_one_stream_44() {
        lanes_equal_one_stream::<MlDsa44>();
    }

    #[test]
    fn lanes_equal_one_stream_65() {
        lanes_equal_one_stream::<MlDsa65>();
    }

    #[test]
    fn lanes_equal_one_stream_87() {
        lanes_equal_one_stream::<MlDsa87>();
    }

    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    #[test]
    fn lanes_equal_one_stream_portable_and_avx2() {
        use crate::hash::keccak_x4::{set_backend, Backend};
        // Process-wide, but every backend gives the same bytes: concurrent tests still pass.
        for b in [Backend::Portable, Backend::Avx2, Backend::Auto] {
            set_backend(b);
            lanes_equal_one_stream::<MlDsa65>();
            lanes_equal_one_stream::<MlDsa87>();
        }
    }

    #[test]
    fn sample_in_ball_has_tau_signs() {
        let c = sample_in_ball::<MlDsa65>(&[9u8; 48]);
        assert_eq!(c.0.iter().filter(|&&x| x != 0).count(), 49);
        assert!(c.0.iter().all(|&x| (-1..=1).contains(&x)));
    }

    #[test]
    fn bounded_poly_is_bounded() {
        let a = rej_bounded_poly::<MlDsa44>(&[3u8; 64], 7);
        assert!(a.0.iter().all(|&x| (-2..=2).contains(&x)));
        let b = rej_bounded_poly::<MlDsa65>(&[3u8; 64], 7);
        assert!(b.0.iter().all(|&x| (-4..=4).contains(&x)));
        // mod-5 trick agrees with the definition for every accepted half-byte.
        for b in 0..15 {
            assert_eq!(b - ((205 * b) >> 10) * 5, b % 5);
        }
    }
}
