//! The x86-64 backends of [`super`]: Keccak-f\[1600\] on four interleaved states in 256-bit
//! registers, with AVX2 or with AVX-512VL (one-instruction rotates, three-input logic), and
//! the WOTS+ chain kernels on the same registers. Every function here is called only after
//! its feature was detected.

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
