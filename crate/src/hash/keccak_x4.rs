//! Keccak-f\[1600\] on four independent states, lane-interleaved: word `i` of state `j` is
//! `s[i][j]`, so one 256-bit load takes word `i` of all four states.
//!
//! Backends, chosen per call:
//! - x86-64 with `std`: AVX-512VL (one-instruction rotates and three-input logic on 256-bit
//!   registers) or AVX2, detected at run time with `is_x86_feature_detected!`;
//! - wasm32 with `simd128`: two calls of the two-lane kernel in `hash::keccak_x2` (compiled only there);
//! - everywhere else, and for a single active state without AVX-512VL: the scalar `keccak`
//!   crate, one state at a time.
//!
//! [`f1600`] permutes one state with the fastest of these (lane 0 of the AVX-512VL kernel, or
//! the scalar crate).
//!
//! One of the crate's modules allowed `unsafe` (with `ct`, `hash::keccak_x2`, Corona's
//! `sample::wide` and the target files of `mldsa::ntt`): calling a `#[target_feature]` function
//! after the feature was detected, and the unaligned 256-bit loads and stores. [`x86_width`]
//! tells the others which width the switch allows.

use core::sync::atomic::{AtomicU8, Ordering};

/// Four Keccak states, lane-interleaved (`s[word][state]`).
pub type StateX4 = [[u64; 4]; 25];

/// Keccak-f\[1600\] on the first `active` states of `s` (1 ≤ `active` ≤ 4). States at
/// positions ≥ `active` are left in an unspecified state (a vector backend permutes them
/// too; the scalar one skips them).
///
/// On AVX-512VL even one active state takes the vector kernel: its four-way permutation
/// costs less than one scalar `keccak::f1600` (measured on the ML-DSA signing profile: 0.64
/// of the time). With AVX2 alone a single state stays scalar.
#[inline]
pub fn f1600x4(s: &mut StateX4, active: usize) {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if CHOICE.load(Ordering::Relaxed) != PORTABLE {
        let avx2 = std::is_x86_feature_detected!("avx2");
        if avx2
            && CHOICE.load(Ordering::Relaxed) != AVX2
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl")
        {
            // SAFETY: the CPU has AVX2, AVX-512F and AVX-512VL, checked on the lines above.
            unsafe { x86::f1600x4_avx512(s) };
            return;
        }
        if avx2 && active > 1 {
            // SAFETY: the CPU has AVX2, checked above.
            unsafe { x86::f1600x4_avx2(s) };
            return;
        }
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    if active > 1 && CHOICE.load(Ordering::Relaxed) != PORTABLE {
        wasm::f1600x4(s, active);
        return;
    }
    scalar(s, active);
}

/// Keccak-f\[1600\] on one state: the four-way AVX-512VL kernel with the state in lane 0
/// where the CPU has it and the backend switch allows it (see [`f1600x4`]), else the scalar
/// `keccak::f1600`. For the crate's one-stream sponges (`hash::Shake256Absorb`,
/// `hash::blocks`).
#[inline]
pub(crate) fn f1600(st: &mut [u64; 25]) {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if x86_width() == X86Width::Avx512 {
        let mut s: StateX4 = core::array::from_fn(|i| [st[i], 0, 0, 0]);
        // SAFETY: `x86_width` reports AVX-512 only if the CPU has AVX2, AVX-512F and
        // AVX-512VL.
        unsafe { x86::f1600x4_avx512(&mut s) };
        for (w, lane) in st.iter_mut().zip(s.iter_mut()) {
            *w = lane[0];
            // The state may hold a secret seed (ρ″, ExpandS); lanes 1–3 are the permutation
            // of zeros.
            zeroize::Zeroize::zeroize(&mut lane[0]);
        }
        return;
    }
    keccak::f1600(st);
}

/// Which backend [`f1600x4`] may use (for benchmarks and tests).
#[cfg_attr(not(feature = "bench-internals"), allow(dead_code))] // benches and tests
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// The fastest the CPU supports (the default).
    Auto,
    /// The portable scalar path, as on a target without SIMD.
    Portable,
    /// At most AVX2 on x86-64 (AVX-512VL is not used); elsewhere the same as `Auto`.
    Avx2,
}

const AUTO: u8 = 0;
const PORTABLE: u8 = 1;
const AVX2: u8 = 2;
static CHOICE: AtomicU8 = AtomicU8::new(AUTO);

/// Restricts the backends [`f1600x4`] may use, for the whole process: benchmarks measure
/// what a target without SIMD (or without AVX-512) runs, tests compare the backends.
#[cfg_attr(not(feature = "bench-internals"), allow(dead_code))] // benches and tests
pub fn set_backend(b: Backend) {
    let v = match b {
        Backend::Auto => AUTO,
        Backend::Portable => PORTABLE,
        Backend::Avx2 => AVX2,
    };
    CHOICE.store(v, Ordering::Relaxed);
}

/// Up to four hash chains of one-block hashes, each step re-absorbing the previous output:
/// lane j starts from the padded single-block input `template` (word `i` of lane j is
/// `template[i][j]`), whose words `value_at..value_at + nw` hold the chained value and
/// whose word `hash_word` holds, in its upper 32 bits, a big-endian step counter
/// (SLH-DSA's ADRS hash address). Step k of lane j sets that counter to `start[j] + k`,
/// permutes, and takes output words `0..nw` as the next value; lane j stops after
/// `steps[j]` steps. This is FIPS 205, Algorithm 5 (chain) on four chains at once.
pub struct ChainsX4 {
    /// The padded input of each lane's first step.
    pub template: StateX4,
    /// The state word holding the step counter.
    pub hash_word: usize,
    /// The first state word of the chained value.
    pub value_at: usize,
    /// Words per chained value (n / 8).
    pub nw: usize,
    /// Each lane's first counter value.
    pub start: [u32; 4],
    /// Each lane's number of steps.
    pub steps: [u32; 4],
}

/// Runs [`ChainsX4`] with the state kept in vector registers between steps, returning each
/// lane's final value (`out[j][..nw]`; a lane of zero steps gets zeros), or `None` when no
/// vector backend is available (the caller then runs the steps through [`f1600x4`]).
///
/// On wasm32 (simd128) the four lanes run as two pairs of the two-lane kernel, each pair
/// for as many steps as its shorter chain, and the rest of the longer chain alone on the
/// scalar permutation (which is faster than a two-lane one with a lane idle).
pub fn chains_x4(c: &ChainsX4) -> Option<[[u64; 4]; 4]> {
    if c.nw > 4 || c.value_at + c.nw > 25 || c.hash_word >= 25 {
        return None;
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    if CHOICE.load(Ordering::Relaxed) != PORTABLE {
        return Some(wasm::chains(c));
    }
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if CHOICE.load(Ordering::Relaxed) != PORTABLE {
        let avx2 = std::is_x86_feature_detected!("avx2");
        if avx2
            && CHOICE.load(Ordering::Relaxed) != AVX2
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl")
        {
            // SAFETY: the CPU has AVX2, AVX-512F and AVX-512VL, checked on the lines above.
            return Some(unsafe { x86::chains_avx512(c) });
        }
        if avx2 {
            // SAFETY: the CPU has AVX2, checked above.
            return Some(unsafe { x86::chains_avx2(c) });
        }
    }
    None
}

/// The x86-64 vector width the backend switch allows on this CPU, for the crate's other
/// lane-parallel code (Corona's table sampler): `AVX512` (AVX-512F and VL), `AVX2`, or `NONE`
/// (SSE2, the baseline; also under [`Backend::Portable`]).
#[cfg(all(target_arch = "x86_64", feature = "std"))]
pub(crate) fn x86_width() -> X86Width {
    let choice = CHOICE.load(Ordering::Relaxed);
    if choice == PORTABLE || !std::is_x86_feature_detected!("avx2") {
        return X86Width::None;
    }
    if choice != AVX2 && std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl")
    {
        return X86Width::Avx512;
    }
    X86Width::Avx2
}

/// See [`x86_width`].
#[cfg(all(target_arch = "x86_64", feature = "std"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum X86Width {
    /// SSE2 only.
    None,
    /// AVX2.
    Avx2,
    /// AVX-512F and AVX-512VL.
    Avx512,
}

/// Whether [`f1600x4`] runs a vector backend on this machine (for reports and benches).
#[cfg_attr(not(feature = "bench-internals"), allow(dead_code))] // benches and tests
pub fn backend() -> &'static str {
    let choice = CHOICE.load(Ordering::Relaxed);
    if choice == PORTABLE {
        return "scalar";
    }
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    {
        if std::is_x86_feature_detected!("avx2") {
            if choice != AVX2
                && std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512vl")
            {
                return "avx512vl";
            }
            return "avx2";
        }
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        return "simd128x2";
    }
    #[allow(unreachable_code)]
    "scalar"
}

/// State `j` alone with the scalar permutation.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn scalar_one(s: &mut StateX4, j: usize) {
    let mut st: [u64; 25] = core::array::from_fn(|i| s[i][j]);
    keccak::f1600(&mut st);
    for (w, lane) in st.iter().zip(s.iter_mut()) {
        lane[j] = *w;
    }
}

/// One state at a time with the scalar permutation.
fn scalar(s: &mut StateX4, active: usize) {
    for j in 0..active.min(4) {
        let mut st = [0u64; 25];
        for (w, lane) in st.iter_mut().zip(s.iter()) {
            *w = lane[j];
        }
        keccak::f1600(&mut st);
        for (w, lane) in st.iter().zip(s.iter_mut()) {
            lane[j] = *w;
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm;

// Run-time detection needs `std`; a `no_std` x86-64 build uses the scalar path.
#[cfg(all(target_arch = "x86_64", feature = "std"))]
mod x86;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_scalar() {
        let mut s: StateX4 = core::array::from_fn(|i| {
            core::array::from_fn(|j| (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (j as u64) << 7)
        });
        let mut want = s;
        scalar(&mut want, 4);
        for b in [Backend::Avx2, Backend::Auto] {
            set_backend(b);
            let mut t = s;
            f1600x4(&mut t, 4);
            assert_eq!(t, want, "{b:?}");
        }
        f1600x4(&mut s, 4);
        let mut t = s;
        scalar(&mut want, 1);
        f1600x4(&mut t, 1);
        assert_eq!(t[0][0], want[0][0]);
    }

    #[test]
    fn chains_match_stepwise() {
        let nw = 3;
        let mut c = ChainsX4 {
            template: core::array::from_fn(|i| {
                core::array::from_fn(|j| (i * 4 + j) as u64 * 0x0101_0101_0101)
            }),
            hash_word: nw + 3,
            value_at: nw + 4,
            nw,
            start: [0, 3, 7, 1],
            steps: [5, 1, 8, 3],
        };
        for j in 0..4 {
            c.template[c.hash_word][j] &= 0xFFFF_FFFF;
        }
        let mut want = [[0u64; 4]; 4];
        for (j, w) in want.iter_mut().enumerate() {
            let mut value: [u64; 4] =
                core::array::from_fn(|i| if i < nw { c.template[c.value_at + i][j] } else { 0 });
            for step in 0..c.steps[j] {
                let mut st: [u64; 25] = core::array::from_fn(|i| c.template[i][j]);
                st[c.hash_word] |= u64::from((c.start[j] + step).swap_bytes()) << 32;
                st[c.value_at..c.value_at + nw].copy_from_slice(&value[..nw]);
                keccak::f1600(&mut st);
                value[..nw].copy_from_slice(&st[..nw]);
            }
            *w = value;
        }
        for b in [Backend::Avx2, Backend::Auto] {
            set_backend(b);
            if let Some(got) = chains_x4(&c) {
                assert_eq!(got, want, "{b:?}");
            }
        }
        set_backend(Backend::Auto);
    }
}
