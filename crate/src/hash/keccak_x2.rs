//! Keccak-f\[1600\] on two states at once, for the targets whose vectors hold two 64-bit
//! words: WebAssembly with simd128 (`wasm`) and aarch64's NEON (`neon`, with the SHA-3
//! extension when the CPU has it). One API, [`f1600x2`], on lane-interleaved words; it runs
//! `hash::lanes`' SHAKE streams (ML-DSA's matrix and vector expansion), and in WASM also
//! `keccak_x4`'s pairs of states. Compiled only on those targets (aarch64 with NEON enabled,
//! as every aarch64 target but the soft-float ones has it).

/// Keccak-f\[1600\] on two lane-interleaved states: word `i` of state `j` is `s[i][j]`.
#[inline]
pub(crate) fn f1600x2(s: &mut [[u64; 2]; 25]) {
    #[cfg(target_arch = "wasm32")]
    wasm::f1600x2(s);
    #[cfg(target_arch = "aarch64")]
    neon::f1600x2(s);
}

#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "wasm32")]
pub(crate) mod wasm;

#[cfg(test)]
mod tests {
    /// Two states with distinct words in every position.
    fn states() -> [[u64; 2]; 25] {
        core::array::from_fn(|i| {
            core::array::from_fn(|j| (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ((j as u64) << 9))
        })
    }

    /// What the scalar permutation makes of `s`, state by state.
    fn scalar(mut s: [[u64; 2]; 25]) -> [[u64; 2]; 25] {
        for j in 0..2 {
            let mut st: [u64; 25] = core::array::from_fn(|i| s[i][j]);
            keccak::f1600(&mut st);
            for (w, x) in s.iter_mut().zip(st.iter()) {
                w[j] = *x;
            }
        }
        s
    }

    #[test]
    fn matches_scalar() {
        let mut s = states();
        for _ in 0..3 {
            let want = scalar(s);
            super::f1600x2(&mut s);
            assert_eq!(s, want);
        }
    }

    #[cfg(target_arch = "aarch64")]
    #[test]
    fn both_neon_variants_match_scalar() {
        let mut s = states();
        let want = scalar(s);
        // SAFETY: compiled only with NEON enabled.
        unsafe { super::neon::f1600x2_neon(&mut s) };
        assert_eq!(s, want, "baseline NEON");
        #[cfg(feature = "std")]
        if std::arch::is_aarch64_feature_detected!("sha3") {
            let mut s = states();
            // SAFETY: the CPU has FEAT_SHA3, checked just above.
            unsafe { super::neon::f1600x2_sha3(&mut s) };
            assert_eq!(s, want, "NEON with SHA-3");
        }
    }
}
