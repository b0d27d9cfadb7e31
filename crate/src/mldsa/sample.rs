//! Sampling (FIPS 204 §7.3, Alg. 29–34): SampleInBall, RejNTTPoly, RejBoundedPoly,
//! ExpandA, ExpandS, ExpandMask.

use super::ntt::Q;
use super::params::Params;
use super::poly::{Poly, N};
use crate::hash::blocks::{Shake128Blocks, Shake256Blocks};

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
    for t in block.chunks_exact(3) {
        let v = i32::from(t[0]) | i32::from(t[1]) << 8 | i32::from(t[2] & 0x7f) << 16;
        if v < Q && *filled < N {
            a.0[*filled] = v;
            *filled += 1;
        }
    }
}

/// Row `i` of Â (FIPS 204 Alg. 32 ExpandA): `row[j]` = Â[i][j] for j < ℓ = `row.len()`.
/// With WebAssembly SIMD, two entries are sampled at once.
// Exact: the row and column indices are below k, ℓ ≤ 8 (FIPS 204 Alg. 32 takes them as bytes).
#[allow(clippy::cast_possible_truncation)]
pub(super) fn expand_a_row(rho: &[u8; 32], i: usize, row: &mut [Poly]) {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use crate::hash::keccak_x2::Shake128BlocksX2;
        let mut pairs = row.chunks_exact_mut(2);
        let mut j = 0u8;
        for pair in &mut pairs {
            let mut x = Shake128BlocksX2::new([&[rho, &[j, i as u8]], &[rho, &[j + 1, i as u8]]]);
            let mut filled = [0usize; 2];
            for p in pair.iter_mut() {
                *p = Poly::default();
            }
            while filled[0] < N || filled[1] < N {
                let blocks = x.next_blocks();
                for ((block, p), f) in blocks.iter().zip(pair.iter_mut()).zip(filled.iter_mut()) {
                    rej_ntt_take(block, p, f);
                }
            }
            j += 2;
        }
        for p in pairs.into_remainder() {
            *p = rej_ntt_poly(rho, j, i as u8);
        }
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    for (j, p) in row.iter_mut().enumerate() {
        *p = rej_ntt_poly(rho, j as u8, i as u8);
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
    loop {
        let buf = zeroize::Zeroizing::new(xof.next_block());
        for &z in buf.iter() {
            for b in [i32::from(z & 15), i32::from(z >> 4)] {
                // Public: which half-bytes are rejected is independent of the coefficients
                // kept (FIPS 204 §7.3 samples s1, s2 this way; the count leaks only timing).
                let accept = crate::ct::public(if P::ETA == 2 { b < 15 } else { b < 9 });
                if accept && filled < N {
                    // η = 2: 2 − (b mod 5), computed as b − 5·⌊b·205 / 1024⌋ (exact for b < 15).
                    a.0[filled] = if P::ETA == 2 {
                        2 - (b - ((205 * b) >> 10) * 5)
                    } else {
                        4 - b
                    };
                    filled += 1;
                }
            }
            if filled == N {
                return a;
            }
        }
    }
}

/// FIPS 204 Alg. 34 ExpandMask: y[r] from ρ″ and counter κ + r for r < ℓ = `y.len()`.
/// Coefficients in (−γ1, γ1]. With WebAssembly SIMD, two polynomials at once.
// Exact: r < ℓ ≤ 7; κ wraps mod 2^16 as FIPS 204 Alg. 34 does.
#[allow(clippy::cast_possible_truncation)]
pub(super) fn expand_mask<P: Params>(rho_pp: &[u8; 64], kappa: u16, y: &mut [Poly]) {
    let mut buf = zeroize::Zeroizing::new([[0u8; 5 * RATE256]; 2]);
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use crate::hash::keccak_x2::Shake256BlocksX2;
        let len = 32 * P::Z_BITS;
        let mut pairs = y.chunks_exact_mut(2);
        let mut r = 0u16;
        for pair in &mut pairs {
            let c0 = kappa.wrapping_add(r).to_le_bytes();
            let c1 = kappa.wrapping_add(r + 1).to_le_bytes();
            let mut x = Shake256BlocksX2::new([&[rho_pp, &c0], &[rho_pp, &c1]]);
            for b in 0..len.div_ceil(RATE256) {
                let blocks = zeroize::Zeroizing::new(x.next_blocks());
                let end = (RATE256 * (b + 1)).min(len);
                for k in 0..2 {
                    buf[k][RATE256 * b..end].copy_from_slice(&blocks[k][..end - RATE256 * b]);
                }
            }
            pair[0] = super::encode::unpack_mask::<P>(&buf[0][..len]);
            pair[1] = super::encode::unpack_mask::<P>(&buf[1][..len]);
            r += 2;
        }
        for p in pairs.into_remainder() {
            *p = expand_mask_poly::<P>(rho_pp, kappa.wrapping_add(r), &mut buf[0]);
        }
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    for (r, p) in y.iter_mut().enumerate() {
        *p = expand_mask_poly::<P>(rho_pp, kappa.wrapping_add(r as u16), &mut buf[0]);
    }
}

/// One polynomial of ExpandMask, with `buf` as scratch space.
fn expand_mask_poly<P: Params>(rho_pp: &[u8; 64], counter: u16, buf: &mut [u8; 5 * RATE256]) -> Poly {
    let len = 32 * P::Z_BITS;
    let mut xof = Shake256Blocks::new(&[rho_pp, &counter.to_le_bytes()]);
    for chunk in buf[..len].chunks_mut(RATE256) {
        let block = zeroize::Zeroizing::new(xof.next_block());
        chunk.copy_from_slice(&block[..chunk.len()]);
    }
    super::encode::unpack_mask::<P>(&buf[..len])
}

#[cfg(test)]
mod tests {
    use super::super::params::{MlDsa44, MlDsa65};
    use super::*;

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
