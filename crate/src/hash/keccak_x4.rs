//! Keccak-f\[1600\] on four independent states, lane-interleaved: word `i` of state `j` is
//! `s[i][j]`, so one 256-bit load takes word `i` of all four states.
//!
//! Backends, chosen per call:
//! - x86-64 with `std`: AVX-512VL (one-instruction rotates and three-input logic on 256-bit
//!   registers) or AVX2, detected at run time with `is_x86_feature_detected!`;
//! - wasm32 with `simd128`: two calls of the two-lane kernel in `hash::keccak_x2` (compiled only there);
//! - everywhere else, and for a single active state: the scalar `keccak` crate, one state
//!   at a time.
//!
//! One of the crate's three modules allowed `unsafe` (with `ct` and Corona's `sample::wide`):
//! calling a `#[target_feature]` function after the feature was detected, and the unaligned
//! 256-bit loads and stores. [`x86_width`] tells the others which width the switch allows.

use core::sync::atomic::{AtomicU8, Ordering};

/// Four Keccak states, lane-interleaved (`s[word][state]`).
pub type StateX4 = [[u64; 4]; 25];

/// Keccak-f\[1600\] on the first `active` states of `s` (1 ≤ `active` ≤ 4). States at
/// positions ≥ `active` are left in an unspecified state (a vector backend permutes them
/// too; the scalar one skips them).
#[inline]
pub fn f1600x4(s: &mut StateX4, active: usize) {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if active > 1 && CHOICE.load(Ordering::Relaxed) != PORTABLE {
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
        if avx2 {
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
mod wasm {
    use super::{ChainsX4, StateX4};
    use crate::hash::keccak_x2::f1600x2;
    use core::arch::wasm32::{u64x2, u64x2_extract_lane, u64x2_splat, v128, v128_load, v128_store};

    /// States (0, 1) and, when active, (2, 3) through the two-lane kernel; a pair with a
    /// single active state runs the scalar permutation instead.
    pub(super) fn f1600x4(s: &mut StateX4, active: usize) {
        for half in 0..active.div_ceil(2) {
            if 2 * half + 1 == active {
                super::scalar_one(s, 2 * half);
                continue;
            }
            let mut v = [u64x2_splat(0); 25];
            for (x, w) in v.iter_mut().zip(s.iter()) {
                // SAFETY: `w[2 * half..]` holds at least two u64, 16 readable bytes; wasm
                // loads have no alignment requirement.
                *x = unsafe { v128_load(w.as_ptr().add(2 * half).cast()) };
            }
            f1600x2(&mut v);
            for (w, x) in s.iter_mut().zip(v.iter()) {
                // SAFETY: as above, 16 writable bytes.
                unsafe { v128_store(w.as_mut_ptr().add(2 * half).cast(), *x) };
            }
        }
    }

    /// The hash-address word of lane `j` at step `step` (see [`ChainsX4`]).
    fn hash_word(c: &ChainsX4, j: usize, step: u32) -> u64 {
        let low = c.template[c.hash_word][j] & 0xFFFF_FFFF;
        low | (u64::from(c.start[j].wrapping_add(step).swap_bytes()) << 32)
    }

    /// [`ChainsX4`] as two pairs of lanes: each pair runs the two-lane kernel with its
    /// states in locals for the steps both chains take, then the longer chain finishes on
    /// the scalar permutation.
    pub(super) fn chains(c: &ChainsX4) -> [[u64; 4]; 4] {
        let nw = c.nw;
        let mut out = [[0u64; 4]; 4];
        for half in 0..2 {
            let (j0, j1) = (2 * half, 2 * half + 1);
            let both = c.steps[j0].min(c.steps[j1]);
            let t: [v128; 25] = core::array::from_fn(|i| u64x2(c.template[i][j0], c.template[i][j1]));
            let mut value = [u64x2_splat(0); 4];
            value[..nw].copy_from_slice(&t[c.value_at..c.value_at + nw]);
            for step in 0..both {
                let mut v = t;
                v[c.hash_word] = u64x2(hash_word(c, j0, step), hash_word(c, j1, step));
                v[c.value_at..c.value_at + nw].copy_from_slice(&value[..nw]);
                f1600x2(&mut v);
                value[..nw].copy_from_slice(&v[..nw]);
            }
            for (k, j) in [(0, j0), (1, j1)] {
                if c.steps[j] == 0 {
                    continue;
                }
                for (o, x) in out[j].iter_mut().zip(value.iter()).take(nw) {
                    *o = if k == 0 {
                        u64x2_extract_lane::<0>(*x)
                    } else {
                        u64x2_extract_lane::<1>(*x)
                    };
                }
                if c.steps[j] > both {
                    let mut st: [u64; 25] = core::array::from_fn(|i| c.template[i][j]);
                    for step in both..c.steps[j] {
                        st[c.hash_word] = hash_word(c, j, step);
                        st[c.value_at..c.value_at + nw].copy_from_slice(&out[j][..nw]);
                        let mut s = st;
                        keccak::f1600(&mut s);
                        out[j][..nw].copy_from_slice(&s[..nw]);
                        zeroize::Zeroize::zeroize(&mut s);
                    }
                    zeroize::Zeroize::zeroize(&mut st);
                }
            }
        }
        out
    }
}

// Run-time detection needs `std`; a `no_std` x86-64 build uses the scalar path.
#[cfg(all(target_arch = "x86_64", feature = "std"))]
mod x86 {
    use super::StateX4;
    use core::arch::x86_64::*;

    use crate::hash::KECCAK_RC as RC;

    // AVX2 primitives: rotate is two shifts and an OR; χ is ANDNOT + XOR.
    macro_rules! rol2 {
        ($x:expr, $l:literal, $r:literal) => {
            _mm256_or_si256(_mm256_slli_epi64::<$l>($x), _mm256_srli_epi64::<$r>($x))
        };
    }
    macro_rules! xor5_2 {
        ($a:expr, $b:expr, $c:expr, $d:expr, $e:expr) => {
            _mm256_xor_si256(
                _mm256_xor_si256(_mm256_xor_si256($a, $b), _mm256_xor_si256($c, $d)),
                $e,
            )
        };
    }
    macro_rules! chi2 {
        ($a:expr, $b:expr, $c:expr) => {
            _mm256_xor_si256($a, _mm256_andnot_si256($b, $c))
        };
    }
    // AVX-512VL primitives on 256-bit registers: VPROLQ, and VPTERNLOGQ for χ (0xD2 is
    // a ^ (!b & c)) and for three-way XOR (0x96).
    macro_rules! rol5 {
        ($x:expr, $l:literal, $r:literal) => {
            _mm256_rol_epi64::<$l>($x)
        };
    }
    macro_rules! xor5_5 {
        ($a:expr, $b:expr, $c:expr, $d:expr, $e:expr) => {
            _mm256_ternarylogic_epi64::<0x96>(_mm256_ternarylogic_epi64::<0x96>($a, $b, $c), $d, $e)
        };
    }
    macro_rules! chi5 {
        ($a:expr, $b:expr, $c:expr) => {
            _mm256_ternarylogic_epi64::<0xD2>($a, $b, $c)
        };
    }

    /// One round (θ, ρ, π, χ, ι) from the lanes of the first list into the second, as in
    /// `keccak_x2.rs` (row b/g/k/m/s is y = 0..4, column a/e/i/o/u is x = 0..4).
    macro_rules! round {
        ($rol:ident, $xor5:ident, $chi:ident,
         [$aba:ident $abe:ident $abi:ident $abo:ident $abu:ident
          $aga:ident $age:ident $agi:ident $ago:ident $agu:ident
          $aka:ident $ake:ident $aki:ident $ako:ident $aku:ident
          $ama:ident $ame:ident $ami:ident $amo:ident $amu:ident
          $asa:ident $ase:ident $asi:ident $aso:ident $asu:ident]
         => [$eba:ident $ebe:ident $ebi:ident $ebo:ident $ebu:ident
          $ega:ident $ege:ident $egi:ident $ego:ident $egu:ident
          $eka:ident $eke:ident $eki:ident $eko:ident $eku:ident
          $ema:ident $eme:ident $emi:ident $emo:ident $emu:ident
          $esa:ident $ese:ident $esi:ident $eso:ident $esu:ident], $rc:expr) => {
            let ca = $xor5!($aba, $aga, $aka, $ama, $asa);
            let ce = $xor5!($abe, $age, $ake, $ame, $ase);
            let ci = $xor5!($abi, $agi, $aki, $ami, $asi);
            let co = $xor5!($abo, $ago, $ako, $amo, $aso);
            let cu = $xor5!($abu, $agu, $aku, $amu, $asu);
            let da = _mm256_xor_si256(cu, $rol!(ce, 1, 63));
            let de = _mm256_xor_si256(ca, $rol!(ci, 1, 63));
            let di = _mm256_xor_si256(ce, $rol!(co, 1, 63));
            let d_o = _mm256_xor_si256(ci, $rol!(cu, 1, 63));
            let du = _mm256_xor_si256(co, $rol!(ca, 1, 63));

            let b0 = _mm256_xor_si256($aba, da);
            let b1 = $rol!(_mm256_xor_si256($age, de), 44, 20);
            let b2 = $rol!(_mm256_xor_si256($aki, di), 43, 21);
            let b3 = $rol!(_mm256_xor_si256($amo, d_o), 21, 43);
            let b4 = $rol!(_mm256_xor_si256($asu, du), 14, 50);
            $eba = _mm256_xor_si256($chi!(b0, b1, b2), $rc);
            $ebe = $chi!(b1, b2, b3);
            $ebi = $chi!(b2, b3, b4);
            $ebo = $chi!(b3, b4, b0);
            $ebu = $chi!(b4, b0, b1);

            let b0 = $rol!(_mm256_xor_si256($abo, d_o), 28, 36);
            let b1 = $rol!(_mm256_xor_si256($agu, du), 20, 44);
            let b2 = $rol!(_mm256_xor_si256($aka, da), 3, 61);
            let b3 = $rol!(_mm256_xor_si256($ame, de), 45, 19);
            let b4 = $rol!(_mm256_xor_si256($asi, di), 61, 3);
            $ega = $chi!(b0, b1, b2);
            $ege = $chi!(b1, b2, b3);
            $egi = $chi!(b2, b3, b4);
            $ego = $chi!(b3, b4, b0);
            $egu = $chi!(b4, b0, b1);

            let b0 = $rol!(_mm256_xor_si256($abe, de), 1, 63);
            let b1 = $rol!(_mm256_xor_si256($agi, di), 6, 58);
            let b2 = $rol!(_mm256_xor_si256($ako, d_o), 25, 39);
            let b3 = $rol!(_mm256_xor_si256($amu, du), 8, 56);
            let b4 = $rol!(_mm256_xor_si256($asa, da), 18, 46);
            $eka = $chi!(b0, b1, b2);
            $eke = $chi!(b1, b2, b3);
            $eki = $chi!(b2, b3, b4);
            $eko = $chi!(b3, b4, b0);
            $eku = $chi!(b4, b0, b1);

            let b0 = $rol!(_mm256_xor_si256($abu, du), 27, 37);
            let b1 = $rol!(_mm256_xor_si256($aga, da), 36, 28);
            let b2 = $rol!(_mm256_xor_si256($ake, de), 10, 54);
            let b3 = $rol!(_mm256_xor_si256($ami, di), 15, 49);
            let b4 = $rol!(_mm256_xor_si256($aso, d_o), 56, 8);
            $ema = $chi!(b0, b1, b2);
            $eme = $chi!(b1, b2, b3);
            $emi = $chi!(b2, b3, b4);
            $emo = $chi!(b3, b4, b0);
            $emu = $chi!(b4, b0, b1);

            let b0 = $rol!(_mm256_xor_si256($abi, di), 62, 2);
            let b1 = $rol!(_mm256_xor_si256($ago, d_o), 55, 9);
            let b2 = $rol!(_mm256_xor_si256($aku, du), 39, 25);
            let b3 = $rol!(_mm256_xor_si256($ama, da), 41, 23);
            let b4 = $rol!(_mm256_xor_si256($ase, de), 2, 62);
            $esa = $chi!(b0, b1, b2);
            $ese = $chi!(b1, b2, b3);
            $esi = $chi!(b2, b3, b4);
            $eso = $chi!(b3, b4, b0);
            $esu = $chi!(b4, b0, b1);
        };
    }

    /// The 24 rounds on the 25 vectors of `$v`, in place: 12 double rounds A → E → A.
    macro_rules! rounds {
        ($v:ident, $rol:ident, $xor5:ident, $chi:ident) => {{
            let [mut aba, mut abe, mut abi, mut abo, mut abu, mut aga, mut age, mut agi, mut ago, mut agu, mut aka, mut ake, mut aki, mut ako, mut aku, mut ama, mut ame, mut ami, mut amo, mut amu, mut asa, mut ase, mut asi, mut aso, mut asu] =
                $v;
            let (mut eba, mut ebe, mut ebi, mut ebo, mut ebu, mut ega, mut ege, mut egi, mut ego, mut egu);
            let (mut eka, mut eke, mut eki, mut eko, mut eku, mut ema, mut eme, mut emi, mut emo, mut emu);
            let (mut esa, mut ese, mut esi, mut eso, mut esu);
            for pair in RC.chunks_exact(2) {
                round!($rol, $xor5, $chi,
                    [aba abe abi abo abu aga age agi ago agu aka ake aki ako aku ama ame ami amo amu asa ase asi aso asu]
                    => [eba ebe ebi ebo ebu ega ege egi ego egu eka eke eki eko eku ema eme emi emo emu esa ese esi eso esu],
                    _mm256_set1_epi64x(pair[0].cast_signed()));
                round!($rol, $xor5, $chi,
                    [eba ebe ebi ebo ebu ega ege egi ego egu eka eke eki eko eku ema eme emi emo emu esa ese esi eso esu]
                    => [aba abe abi abo abu aga age agi ago agu aka ake aki ako aku ama ame ami amo amu asa ase asi aso asu],
                    _mm256_set1_epi64x(pair[1].cast_signed()));
            }
            $v = [
                aba, abe, abi, abo, abu, aga, age, agi, ago, agu, aka, ake, aki, ako, aku, ama, ame, ami, amo,
                amu, asa, ase, asi, aso, asu,
            ];
        }};
    }

    /// Loads the 25 interleaved words of `s` into vectors.
    macro_rules! load {
        ($s:expr) => {{
            let mut v = [_mm256_setzero_si256(); 25];
            for (x, w) in v.iter_mut().zip($s.iter()) {
                // SAFETY: `w` is a `[u64; 4]`, 32 readable bytes; VMOVDQU has no alignment
                // requirement.
                *x = unsafe { _mm256_loadu_si256(w.as_ptr().cast()) };
            }
            v
        }};
    }

    /// Stores a vector into four words.
    macro_rules! store {
        ($w:expr, $x:expr) => {
            // SAFETY: `$w` is a `[u64; 4]`, 32 writable bytes; VMOVDQU has no alignment
            // requirement.
            unsafe { _mm256_storeu_si256($w.as_mut_ptr().cast(), $x) }
        };
    }

    /// The whole permutation: load, rounds, store.
    macro_rules! permute {
        ($s:ident, $rol:ident, $xor5:ident, $chi:ident) => {{
            let mut v = load!($s);
            rounds!(v, $rol, $xor5, $chi);
            for (w, x) in $s.iter_mut().zip(v.iter()) {
                store!(w, *x);
            }
        }};
    }

    /// Four hash chains with the state kept in registers between steps (see
    /// [`super::ChainsX4`]); finished lanes are read out at their last step.
    macro_rules! chains {
        ($c:ident, $rol:ident, $xor5:ident, $chi:ident) => {{
            let c = $c;
            let t = load!(c.template);
            let mut out = [[0u64; 4]; 4];
            let mut value = [_mm256_setzero_si256(); 4];
            for (i, x) in value.iter_mut().enumerate().take(c.nw) {
                *x = t[c.value_at + i];
            }
            let longest = c.steps.iter().copied().max().unwrap_or(0);
            for step in 0..longest {
                let hash = |j: usize| {
                    let low = c.template[c.hash_word][j] & 0xFFFF_FFFF;
                    (low | (u64::from(c.start[j].wrapping_add(step).swap_bytes()) << 32)).cast_signed()
                };
                let mut v = t;
                v[c.hash_word] = _mm256_set_epi64x(hash(3), hash(2), hash(1), hash(0));
                for (i, x) in value.iter().enumerate().take(c.nw) {
                    v[c.value_at + i] = *x;
                }
                rounds!(v, $rol, $xor5, $chi);
                value[..c.nw].copy_from_slice(&v[..c.nw]);
                if c.steps.contains(&(step + 1)) {
                    let mut words = [[0u64; 4]; 4];
                    for (w, x) in words.iter_mut().zip(value.iter()).take(c.nw) {
                        store!(w, *x);
                    }
                    for (j, o) in out.iter_mut().enumerate() {
                        if c.steps[j] == step + 1 {
                            for (i, w) in words.iter().enumerate().take(c.nw) {
                                o[i] = w[j];
                            }
                        }
                    }
                }
            }
            out
        }};
    }

    /// Four permutations with AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) fn f1600x4_avx2(s: &mut StateX4) {
        permute!(s, rol2, xor5_2, chi2)
    }

    /// Four permutations with AVX-512VL on 256-bit registers.
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    pub(super) fn f1600x4_avx512(s: &mut StateX4) {
        permute!(s, rol5, xor5_5, chi5)
    }

    /// Four chains with AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) fn chains_avx2(c: &super::ChainsX4) -> [[u64; 4]; 4] {
        chains!(c, rol2, xor5_2, chi2)
    }

    /// Four chains with AVX-512VL.
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    pub(super) fn chains_avx512(c: &super::ChainsX4) -> [[u64; 4]; 4] {
        chains!(c, rol5, xor5_5, chi5)
    }
}

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
