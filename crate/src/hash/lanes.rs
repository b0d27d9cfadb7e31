//! Several SHAKE streams over short seeds, squeezed a block at a time in the lanes of the
//! widest Keccak-f\[1600\] the target has.
//!
//! ML-DSA expands its matrix and vectors from 4 to 56 independent streams that differ only
//! in a two-byte suffix of one seed; a vector permutation runs several of them for little
//! more than the price of one. [`LANES`] is 4 on x86-64 with `std` (`keccak_x4`: AVX-512VL
//! or AVX2 after run-time detection, the scalar permutation per state without them or under
//! `Backend::Portable`), 2 in WebAssembly with simd128 and on aarch64 (`keccak_x2`: simd128,
//! NEON, NEON with SHA-3), 1 elsewhere. Each lane
//! is the stream of [`super::blocks::ShakeBlocks`]: same padding, no read-ahead.

/// How many streams one [`ShakeLanes`] squeezes at once on this target.
#[cfg(all(target_arch = "x86_64", feature = "std"))]
pub(crate) const LANES: usize = 4;
/// How many streams one [`ShakeLanes`] squeezes at once on this target.
#[cfg(any(
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(target_arch = "aarch64", target_feature = "neon")
))]
pub(crate) const LANES: usize = 2;
/// How many streams one [`ShakeLanes`] squeezes at once on this target.
#[cfg(not(any(
    all(target_arch = "x86_64", feature = "std"),
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(target_arch = "aarch64", target_feature = "neon")
)))]
pub(crate) const LANES: usize = 1;

/// Lane-interleaved states: word `i` of stream `j` is `s[i][j]`.
type State = [[u64; LANES]; 25];

/// Keccak-f\[1600\] on the first `active` states.
#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn permute(s: &mut State, active: usize) {
    super::keccak_x4::f1600x4(s, active);
}

/// Keccak-f\[1600\] on the first `active` states: one alone is cheaper on the scalar permutation.
#[cfg(any(
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(target_arch = "aarch64", target_feature = "neon")
))]
fn permute(s: &mut State, active: usize) {
    if active == 1 {
        scalar_first(s);
    } else {
        super::keccak_x2::f1600x2(s);
    }
}

/// Keccak-f\[1600\] on the one state.
#[cfg(not(any(
    all(target_arch = "x86_64", feature = "std"),
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(target_arch = "aarch64", target_feature = "neon")
)))]
fn permute(s: &mut State, _active: usize) {
    scalar_first(s);
}

/// The scalar permutation on state 0.
#[cfg(not(all(target_arch = "x86_64", feature = "std")))]
fn scalar_first(s: &mut State) {
    let mut st: [u64; 25] = core::array::from_fn(|i| s[i][0]);
    keccak::f1600(&mut st);
    for (lane, w) in s.iter_mut().zip(st.iter()) {
        lane[0] = *w;
    }
    zeroize::Zeroize::zeroize(&mut st[..]);
}

/// Up to [`LANES`] SHAKE streams of rate `RATE` bytes, stream `j` over `prefix ‖ suffix[j]`
/// (shorter than a block), squeezed in lock-step one block at a time.
pub(crate) struct ShakeLanes<const RATE: usize> {
    state: State,
    active: usize,
}

/// SHAKE128 streams (rate 168 bytes).
pub(crate) type Shake128Lanes = ShakeLanes<168>;
/// SHAKE256 streams (rate 136 bytes).
pub(crate) type Shake256Lanes = ShakeLanes<136>;

impl<const RATE: usize> ShakeLanes<RATE> {
    /// Absorbs `prefix ‖ suffixes[j]` into stream `j` and pads (SHAKE's 0x1F … 0x80), for
    /// 1 ≤ `suffixes.len()` ≤ [`LANES`] streams. The seeds are fixed-size and caller-chosen.
    pub(crate) fn new(prefix: &[u8], suffixes: &[[u8; 2]]) -> Self {
        let active = suffixes.len();
        debug_assert!((1..=LANES).contains(&active) && prefix.len() + 2 < RATE);
        let mut state = [[0u64; LANES]; 25];
        let mut block = [0u8; RATE];
        for (j, suffix) in suffixes.iter().enumerate() {
            let len = prefix.len() + 2;
            block[..prefix.len()].copy_from_slice(prefix);
            block[prefix.len()..len].copy_from_slice(suffix);
            block[len..].fill(0);
            block[len] = 0x1F;
            block[RATE - 1] ^= 0x80;
            for (word, chunk) in state.iter_mut().zip(block.chunks_exact(8)) {
                let mut w = [0u8; 8];
                w.copy_from_slice(chunk);
                word[j] = u64::from_le_bytes(w);
            }
        }
        // The seeds may be secret (ExpandS, ExpandMask).
        zeroize::Zeroize::zeroize(&mut block[..]);
        ShakeLanes { state, active }
    }

    /// The next `RATE` output bytes of each stream (`out[j]` for `j` < the number of
    /// streams; the other entries are zeros).
    pub(crate) fn next_blocks(&mut self) -> [[u8; RATE]; LANES] {
        permute(&mut self.state, self.active);
        let mut out = [[0u8; RATE]; LANES];
        for (j, block) in out.iter_mut().enumerate().take(self.active) {
            for (chunk, word) in block.chunks_exact_mut(8).zip(self.state.iter()) {
                chunk.copy_from_slice(&word[j].to_le_bytes());
            }
        }
        out
    }
}

impl<const RATE: usize> Drop for ShakeLanes<RATE> {
    fn drop(&mut self) {
        // The states may hold secret seeds (ExpandS, ExpandMask).
        zeroize::Zeroize::zeroize(self.state.as_flattened_mut());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::Squeeze;
    use sha3::digest::{ExtendableOutput, Update};

    /// `blocks` blocks of SHAKE128 or SHAKE256 over `input`, from `sha3`.
    fn reference(rate: usize, input: &[u8], len: usize) -> alloc::vec::Vec<u8> {
        let mut out = alloc::vec![0u8; len];
        if rate == 168 {
            let mut h = sha3::Shake128::default();
            h.update(input);
            h.finalize_xof().squeeze(&mut out);
        } else {
            let mut h = sha3::Shake256::default();
            h.update(input);
            h.finalize_xof().squeeze(&mut out);
        }
        out
    }

    fn check<const RATE: usize>(prefix_len: usize, active: usize, blocks: usize) {
        // Exact: test bytes wrap on purpose.
        #[allow(clippy::cast_possible_truncation)]
        let prefix: alloc::vec::Vec<u8> = (0..prefix_len).map(|b| (b * 13 + prefix_len) as u8).collect();
        #[allow(clippy::cast_possible_truncation)]
        let suffixes: alloc::vec::Vec<[u8; 2]> = (0..active).map(|j| [j as u8, 0xA5 ^ j as u8]).collect();
        let mut x = ShakeLanes::<RATE>::new(&prefix, &suffixes);
        let want: alloc::vec::Vec<_> = suffixes
            .iter()
            .map(|s| reference(RATE, &[&prefix[..], s].concat(), blocks * RATE))
            .collect();
        for b in 0..blocks {
            let got = x.next_blocks();
            for (j, w) in want.iter().enumerate() {
                assert_eq!(
                    got[j][..],
                    w[b * RATE..(b + 1) * RATE],
                    "rate {RATE} prefix {prefix_len} lane {j}/{active} block {b}"
                );
            }
        }
    }

    fn all_lengths() {
        for active in 1..=LANES {
            for prefix_len in [0, 1, 7, 32, 64, 100, 133] {
                check::<136>(prefix_len, active, 6);
            }
            for prefix_len in [0, 5, 32, 64, 165] {
                check::<168>(prefix_len, active, 6);
            }
        }
    }

    #[test]
    fn lanes_match_sha3() {
        all_lengths();
    }

    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    #[test]
    fn lanes_match_sha3_on_every_backend() {
        use crate::hash::keccak_x4::{set_backend, Backend};
        // The switch is process-wide; every backend gives the same bytes, so tests running
        // at the same time are not disturbed.
        for b in [Backend::Portable, Backend::Avx2, Backend::Auto] {
            set_backend(b);
            all_lengths();
        }
    }
}
