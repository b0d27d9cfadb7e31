//! Keccak-f[1600] on N independent states at once, and batched SHAKE built on it.
//!
//! ML-DSA expands its matrix, secrets and masks from many independent SHAKE streams of
//! equal-length seeds. Running N of them in lock-step over `[u64; N]` lanes lets the
//! compiler use vector registers (SSE2/AVX natively, simd128 in WebAssembly) with no
//! `unsafe` and no target-specific code. Single streams go through the `sha3` crate.

/// Round constants ι (FIPS 202 §3.2.5).
const RC: [u64; 24] = [
    0x0000_0000_0000_0001,
    0x0000_0000_0000_8082,
    0x8000_0000_0000_808A,
    0x8000_0000_8000_8000,
    0x0000_0000_0000_808B,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8009,
    0x0000_0000_0000_008A,
    0x0000_0000_0000_0088,
    0x0000_0000_8000_8009,
    0x0000_0000_8000_000A,
    0x0000_0000_8000_808B,
    0x8000_0000_0000_008B,
    0x8000_0000_0000_8089,
    0x8000_0000_0000_8003,
    0x8000_0000_0000_8002,
    0x8000_0000_0000_0080,
    0x0000_0000_0000_800A,
    0x8000_0000_8000_000A,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8080,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8008,
];

/// ρ rotation offsets, indexed by lane x + 5y (FIPS 202 §3.2.2).
const RHO: [u32; 25] = [
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
];

/// π: the lane that moves to position i is PI_SRC[i] (B[y, 2x+3y] = A[x, y]).
const PI_SRC: [usize; 25] = {
    let mut src = [0usize; 25];
    let mut x = 0;
    while x < 5 {
        let mut y = 0;
        while y < 5 {
            src[y + 5 * ((2 * x + 3 * y) % 5)] = x + 5 * y;
            y += 1;
        }
        x += 1;
    }
    src
};

/// N Keccak states, lane-major: `s[lane][instance]`.
pub type StateN<const N: usize> = [[u64; N]; 25];

#[inline(always)]
fn rotl<const N: usize>(v: [u64; N], r: u32) -> [u64; N] {
    let mut out = [0u64; N];
    for k in 0..N {
        out[k] = v[k].rotate_left(r);
    }
    out
}

/// Keccak-f[1600] applied to each of N states.
#[inline(never)]
pub fn f1600xn<const N: usize>(a: &mut StateN<N>) {
    for rc in RC {
        // θ
        let mut c = [[0u64; N]; 5];
        for x in 0..5 {
            for k in 0..N {
                c[x][k] = a[x][k] ^ a[x + 5][k] ^ a[x + 10][k] ^ a[x + 15][k] ^ a[x + 20][k];
            }
        }
        for x in 0..5 {
            let r = rotl(c[(x + 1) % 5], 1);
            for y in 0..5 {
                for k in 0..N {
                    a[x + 5 * y][k] ^= c[(x + 4) % 5][k] ^ r[k];
                }
            }
        }
        // ρ and π
        let mut b = [[0u64; N]; 25];
        for i in 0..25 {
            b[i] = rotl(a[PI_SRC[i]], RHO[PI_SRC[i]]);
        }
        // χ
        for y in 0..5 {
            for x in 0..5 {
                for k in 0..N {
                    a[x + 5 * y][k] =
                        b[x + 5 * y][k] ^ (!b[(x + 1) % 5 + 5 * y][k] & b[(x + 2) % 5 + 5 * y][k]);
                }
            }
        }
        // ι
        for k in 0..N {
            a[0][k] ^= rc;
        }
    }
}

/// N SHAKE instances (rate `RATE` bytes) over inputs of one common length shorter
/// than a block, squeezed block by block in lock-step.
pub struct ShakeXn<const N: usize, const RATE: usize> {
    state: StateN<N>,
}

/// One SHAKE128 stream over a short seed, squeezed a block at a time with no read-ahead.
pub type Shake128x1 = ShakeXn<1, 168>;
/// One SHAKE256 stream over a short seed, squeezed a block at a time with no read-ahead.
pub type Shake256x1 = ShakeXn<1, 136>;
/// Four SHAKE128 streams.
pub type Shake128x4 = ShakeXn<4, 168>;
/// Four SHAKE256 streams.
pub type Shake256x4 = ShakeXn<4, 136>;

impl<const N: usize, const RATE: usize> ShakeXn<N, RATE> {
    /// Absorbs `inputs[k]` (each the concatenation of its parts, all of the same total
    /// length, below `RATE`) into instance k and pads (SHAKE domain 0x1F).
    pub fn new(inputs: [&[&[u8]]; N]) -> Self {
        let mut state = [[0u64; N]; 25];
        for (k, parts) in inputs.iter().enumerate() {
            let mut block = [0u8; RATE];
            let mut len = 0;
            for p in parts.iter() {
                block[len..len + p.len()].copy_from_slice(p);
                len += p.len();
            }
            block[len] ^= 0x1F;
            block[RATE - 1] ^= 0x80;
            for (lane, chunk) in block.chunks_exact(8).enumerate() {
                let mut w = [0u8; 8];
                w.copy_from_slice(chunk);
                state[lane][k] = u64::from_le_bytes(w);
            }
        }
        ShakeXn { state }
    }

    /// Permutes and writes the next `RATE` output bytes of each instance.
    pub fn squeeze_block(&mut self, out: &mut [[u8; RATE]; N]) {
        f1600xn(&mut self.state);
        for (k, o) in out.iter_mut().enumerate() {
            for (lane, chunk) in o.chunks_exact_mut(8).enumerate() {
                chunk.copy_from_slice(&self.state[lane][k].to_le_bytes());
            }
        }
    }
}

impl<const N: usize, const RATE: usize> Drop for ShakeXn<N, RATE> {
    fn drop(&mut self) {
        // The state may hold secret seeds (ExpandS, ExpandMask).
        zeroize::Zeroize::zeroize(&mut self.state);
    }
}

impl<const RATE: usize> ShakeXn<1, RATE> {
    /// One stream over the concatenation of `parts` (shorter than a block in total).
    pub fn single(parts: &[&[u8]]) -> Self {
        Self::new([parts])
    }

    /// The next `RATE` output bytes.
    pub fn next_block(&mut self) -> [u8; RATE] {
        let mut out = [[0u8; RATE]; 1];
        self.squeeze_block(&mut out);
        out[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::{shake128, shake256, Squeeze};

    #[test]
    fn batched_shake_matches_sha3() {
        let seeds: [[u8; 34]; 4] = core::array::from_fn(|k| [k as u8 * 17 + 1; 34]);
        let parts: [[&[u8]; 1]; 4] = core::array::from_fn(|k| [&seeds[k][..]]);
        let mut x = Shake128x4::new(core::array::from_fn(|k| &parts[k][..]));
        let mut blocks = [[0u8; 168]; 4];
        let mut got = [[0u8; 3 * 168]; 4];
        for b in 0..3 {
            x.squeeze_block(&mut blocks);
            for k in 0..4 {
                got[k][b * 168..(b + 1) * 168].copy_from_slice(&blocks[k]);
            }
        }
        for k in 0..4 {
            let mut want = [0u8; 3 * 168];
            shake128(&[&seeds[k]]).squeeze(&mut want);
            assert_eq!(got[k], want);
        }
        let idx: [[u8; 2]; 4] = core::array::from_fn(|k| [k as u8, 0]);
        let parts2: [[&[u8]; 2]; 4] = core::array::from_fn(|k| [&seeds[k][..30], &idx[k][..]]);
        let mut y = Shake256x4::new(core::array::from_fn(|k| &parts2[k][..]));
        let mut out = [[0u8; 136]; 4];
        y.squeeze_block(&mut out);
        for k in 0..4 {
            let mut want = [0u8; 136];
            shake256(&[&seeds[k][..30], &[k as u8, 0]]).squeeze(&mut want);
            assert_eq!(out[k], want);
        }
    }
}
