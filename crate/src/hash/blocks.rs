//! SHAKE over a short seed, squeezed one block at a time with no read-ahead.
//!
//! The ML-DSA samplers consume whole blocks and stop at an exact count; `sha3`'s XOF
//! reader permutes one block ahead, which costs a sixth permutation per matrix entry.
//! This sponge permutes only when a block is asked for, on the crate's one-state
//! Keccak-f\[1600\] (`keccak_x4::f1600`: the AVX-512VL kernel where the CPU has it, else the
//! `keccak` crate, which `sha3` is built on).

/// A SHAKE instance with rate `RATE` bytes whose whole input fits in one block.
pub(crate) struct ShakeBlocks<const RATE: usize> {
    state: [u64; 25],
}

/// SHAKE128 (rate 168 bytes).
pub(crate) type Shake128Blocks = ShakeBlocks<168>;
/// SHAKE256 (rate 136 bytes).
pub(crate) type Shake256Blocks = ShakeBlocks<136>;

impl<const RATE: usize> ShakeBlocks<RATE> {
    /// Absorbs the concatenation of `parts` (shorter than `RATE` bytes in total) and pads
    /// with the SHAKE domain bits. Inputs are fixed-size seeds chosen by the caller.
    pub(crate) fn new(parts: &[&[u8]]) -> Self {
        let mut block = [0u8; RATE];
        let mut len = 0;
        for p in parts {
            block[len..len + p.len()].copy_from_slice(p);
            len += p.len();
        }
        block[len] ^= 0x1F;
        block[RATE - 1] ^= 0x80;
        let mut state = [0u64; 25];
        for (lane, chunk) in state.iter_mut().zip(block.chunks_exact(8)) {
            let mut w = [0u8; 8];
            w.copy_from_slice(chunk);
            *lane = u64::from_le_bytes(w);
        }
        zeroize::Zeroize::zeroize(&mut block[..]);
        ShakeBlocks { state }
    }

    /// The next `RATE` output bytes.
    pub(crate) fn next_block(&mut self) -> [u8; RATE] {
        super::keccak_x4::f1600(&mut self.state);
        let mut out = [0u8; RATE];
        for (chunk, lane) in out.chunks_exact_mut(8).zip(self.state.iter()) {
            chunk.copy_from_slice(&lane.to_le_bytes());
        }
        out
    }
}

impl<const RATE: usize> Drop for ShakeBlocks<RATE> {
    fn drop(&mut self) {
        // The state may hold secret seeds (ExpandS, ExpandMask).
        zeroize::Zeroize::zeroize(&mut self.state[..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::{shake256, Squeeze};
    use sha3::digest::{ExtendableOutput, Update};

    #[test]
    fn matches_sha3() {
        let seed = [0x5Au8; 34];
        let mut x = Shake128Blocks::new(&[&seed[..32], &seed[32..]]);
        let mut want = [0u8; 3 * 168];
        let mut h = sha3::Shake128::default();
        h.update(&seed);
        h.finalize_xof().squeeze(&mut want);
        for b in 0..3 {
            assert_eq!(x.next_block()[..], want[b * 168..(b + 1) * 168]);
        }
        let mut y = Shake256Blocks::new(&[&seed, &[1, 0]]);
        let mut want = [0u8; 2 * 136];
        shake256(&[&seed, &[1, 0]]).squeeze(&mut want);
        assert_eq!(y.next_block()[..], want[..136]);
        assert_eq!(y.next_block()[..], want[136..]);
    }
}
