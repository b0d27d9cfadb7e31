//! The committee's mask sampler (threshold-mldsa spec §3.6): a point uniform in the ellipsoid
//! {x : ‖x_y‖²/ν² + ‖x_e‖² ≤ r′²} of dimension D = 256·(k + ℓ), from a 64-byte seed and a
//! 16-bit nonce. D + 2 Box–Muller Gaussians, normalised by their own norm (dropping two
//! coordinates of a uniform point on the (D+1)-sphere leaves a uniform point in the D-ball),
//! then the y part stretched by ν.
//!
//! Floating point, so that it matches the published reference; made deterministic on every
//! target: ln, sin and cos are the pure-Rust `libm` crate's (std calls the platform's libm
//! natively, another one in WASM), +, −, ×, ÷ and sqrt are correctly rounded everywhere, no
//! fused multiply-add, and every sum runs in one fixed order. Native and WASM draw identical
//! bits; the known-answer tests compare the rounded coordinates with the Go reference's.
//!
//! Not constant-time: software ln/sin/cos branch on their arguments, which derive from the
//! secret seed (spec §7.6; the reference and every port share this). What a party publishes
//! from a sample is `A·ŷ + ê` (hidden by MLWE) and, for accepted slots, `ŷ + c·s` (simulatable
//! by design); the timing of the sampler is the exposure, and it is stated in the API docs.

use alloc::vec::Vec;
use core::f64::consts::PI;

use zeroize::{Zeroize, Zeroizing};

use crate::hash::keccak_x4::{f1600x4, StateX4};

/// 2^64 as an f64 (exact).
const TWO_64: f64 = 18_446_744_073_709_551_616.0;
/// SHAKE256's rate in 64-bit words.
const RATE_WORDS: usize = 17;

/// Samples the ellipsoid point for (`seed`, `nonce`): `dim` coordinates, the first `y_dim`
/// of them the y part (stretched by `nu`). `radius` is r′.
#[cfg(test)]
pub(crate) fn sample(
    seed: &[u8; 64],
    nonce: u16,
    dim: usize,
    y_dim: usize,
    radius: f64,
    nu: f64,
) -> Zeroizing<Vec<f64>> {
    let mut all = sample_x4(seed, nonce, 1, dim, y_dim, radius, nu);
    all.pop().unwrap_or_default()
}

/// The samples for nonces `first_nonce .. first_nonce + count` (1 ≤ `count` ≤ 4) at once:
/// their four SHAKE256 streams run in the lanes of one four-way Keccak (the crate's AVX2 /
/// AVX-512 / simd128 kernel where there is one). The bits are those of four separate calls.
pub(crate) fn sample_x4(
    seed: &[u8; 64],
    first_nonce: u16,
    count: usize,
    dim: usize,
    y_dim: usize,
    radius: f64,
    nu: f64,
) -> Vec<Zeroizing<Vec<f64>>> {
    debug_assert!(dim.is_multiple_of(2) && y_dim.is_multiple_of(2) && y_dim <= dim);
    debug_assert!((1..=4).contains(&count));
    stream_words_x4(seed, first_nonce, count, dim + 2)
        .iter()
        .map(|words| from_words(words, dim, y_dim, radius, nu))
        .collect()
}

/// `len` little-endian words of SHAKE256("H" ‖ seed ‖ nonce as 2 bytes LE) for `count`
/// consecutive nonces (the input, 67 bytes, is one padded block).
// Exact: nonce offsets below 4.
#[allow(clippy::cast_possible_truncation)]
fn stream_words_x4(seed: &[u8; 64], first_nonce: u16, count: usize, len: usize) -> Vec<Zeroizing<Vec<u64>>> {
    let mut state: StateX4 = [[0u64; 4]; 25];
    let mut block = Zeroizing::new([0u8; RATE_WORDS * 8]);
    for lane in 0..count {
        block.fill(0);
        block[0] = b'H';
        block[1..65].copy_from_slice(seed);
        block[65..67].copy_from_slice(&first_nonce.wrapping_add(lane as u16).to_le_bytes());
        block[67] ^= 0x1F;
        block[RATE_WORDS * 8 - 1] ^= 0x80;
        for (word, chunk) in state.iter_mut().zip(block.chunks_exact(8)) {
            let mut b = [0u8; 8];
            b.copy_from_slice(chunk);
            word[lane] = u64::from_le_bytes(b);
        }
    }
    let mut out: Vec<Zeroizing<Vec<u64>>> = (0..count)
        .map(|_| Zeroizing::new(Vec::with_capacity(len)))
        .collect();
    while out[0].len() < len {
        f1600x4(&mut state, count);
        for (lane, words) in out.iter_mut().enumerate() {
            let take = (len - words.len()).min(RATE_WORDS);
            words.extend(state[..take].iter().map(|w| w[lane]));
        }
    }
    state.zeroize();
    out
}

/// The ellipsoid point from its stream words (the reference's Box–Muller; see the module
/// docs).
fn from_words(words: &[u64], dim: usize, y_dim: usize, radius: f64, nu: f64) -> Zeroizing<Vec<f64>> {
    // The documented exception to constant flow (module docs, spec §7.6): software ln, sin and
    // cos branch on their arguments. The constant-flow check treats the stream as public from
    // here, so that it checks everything else a signer computes from its secrets.
    crate::ct::public_slice(words);
    let mut g = Zeroizing::new(alloc::vec![0f64; dim + 2]);
    let mut sum = 0f64;
    for x in (0..dim + 2).step_by(2) {
        let (a, b) = (words[x], words[x + 1]);
        // ln(0) would poison the whole sample with ∞/NaN (probability 2^-64 a pair): a zero
        // word counts as the smallest positive one. Bits elsewhere stay the reference's.
        let a = a | u64::from(a == 0);
        // Precision: u64 → f64 rounds to nearest, as the reference's conversion does.
        #[allow(clippy::cast_precision_loss)]
        let (f1, f2) = (a as f64 / TWO_64, b as f64 / TWO_64);
        let rad = sqrt(-2.0 * libm::log(f1));
        let angle = 2.0 * PI * f2;
        // One range reduction for both (libm's sincos gives sin's and cos's own bits).
        let (sin, cos) = libm::sincos(angle);
        let (z1, z2) = (rad * cos, rad * sin);
        sum += z1 * z1;
        sum += z2 * z2;
        // Pairs never straddle y_dim (it is even): stretch after the norm is taken.
        let stretch = if x < y_dim { nu } else { 1.0 };
        g[x] = z1 * stretch;
        g[x + 1] = z2 * stretch;
    }
    let factor = radius / sqrt(sum);
    g.truncate(dim);
    for v in g.iter_mut() {
        *v *= factor;
    }
    g
}

/// The correctly rounded square root: WebAssembly's own instruction (std's `sqrt` there;
/// `libm` would run its software square root), `libm`'s elsewhere. IEEE 754 fixes every bit of a square
/// root, so both give the same.
#[inline]
fn sqrt(x: f64) -> f64 {
    #[cfg(all(target_arch = "wasm32", feature = "std"))]
    {
        x.sqrt()
    }
    #[cfg(not(all(target_arch = "wasm32", feature = "std")))]
    {
        libm::sqrt(x)
    }
}

/// Rounds half away from zero (the reference's `math.Round`), as an integer.
// Exact: the coordinates are bounded by r′·ν < 2^23, far inside i32.
#[allow(clippy::cast_possible_truncation)]
#[inline]
pub(crate) fn round(x: f64) -> i32 {
    #[cfg(all(target_arch = "wasm32", feature = "std"))]
    {
        // WebAssembly's truncation instruction (libm's `round` is software there): x − trunc(x)
        // is exact for |x| < 2^52, so this is half away from zero, bit for bit libm's; the
        // comparisons are values, not branches.
        let t = x.trunc();
        let d = x - t;
        t as i32 + i32::from(d >= 0.5) - i32::from(d <= -0.5)
    }
    #[cfg(not(all(target_arch = "wasm32", feature = "std")))]
    {
        libm::round(x) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mean of ‖u‖ (in the ellipsoid's metric) over r′ is about D/(D+1) for a uniform
    /// point in a D-ball, and no sample leaves the ellipsoid.
    #[test]
    fn samples_are_inside_and_spread_like_a_ball() {
        let (dim, y_dim, radius, nu) = (2048, 1024, 310_138.0, 3.0);
        let mut total = 0.0;
        let count = 64;
        for nonce in 0..count {
            let u = sample(&[7; 64], nonce, dim, y_dim, radius, nu);
            let norm2: f64 = u[..y_dim].iter().map(|v| v * v / (nu * nu)).sum::<f64>()
                + u[y_dim..].iter().map(|v| v * v).sum::<f64>();
            let norm = norm2.sqrt();
            assert!(norm <= radius * (1.0 + 1e-12), "{norm}");
            total += norm / radius;
        }
        let mean = total / f64::from(count);
        let expected = 2048.0 / 2049.0;
        assert!((mean - expected).abs() < 0.002, "{mean}");
    }

    #[test]
    fn rounding_is_half_away_from_zero() {
        assert_eq!(
            [round(0.5), round(-0.5), round(1.5), round(-2.5), round(2.4999)],
            [1, -1, 2, -3, 2]
        );
    }
}
