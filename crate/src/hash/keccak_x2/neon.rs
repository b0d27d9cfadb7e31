//! The aarch64 backend of [`super`]: one 128-bit NEON register per Keccak word, two states.
//!
//! Baseline NEON has no vector rotate: a rotation is a shift right and a shift-left-and-
//! insert (SLI), χ is BIC + EOR. CPUs with the SHA-3 extension (FEAT_SHA3: Apple M1 and
//! later, Neoverse V1/V2), detected at run time, run the same rounds on its fused
//! instructions: EOR3 (three-way XOR), RAX1 (θ's rotate-and-XOR), XAR (XOR then rotate, for
//! θ + ρ) and BCAX (χ) — about half the instructions.

use core::arch::aarch64::{
    uint64x2_t, vbicq_u64, vcombine_u64, vcreate_u64, vdupq_n_u64, veorq_u64, vgetq_lane_u64, vshrq_n_u64,
    vsliq_n_u64,
};
#[cfg(feature = "std")]
use core::arch::aarch64::{vbcaxq_u64, veor3q_u64, vrax1q_u64, vxarq_u64};

use crate::hash::KECCAK_RC as RC;

// Baseline NEON. rol(x, L) = SLI(x >> R, x, L) with R = 64 − L.
macro_rules! rol_base {
    ($x:expr, $l:literal, $r:literal) => {{
        let x = $x;
        vsliq_n_u64::<$l>(vshrq_n_u64::<$r>(x), x)
    }};
}
// rol(a ^ d, L): θ's column parity applied, then ρ.
macro_rules! xor_rol_base {
    ($a:expr, $d:expr, $l:literal, $r:literal) => {
        rol_base!(veorq_u64($a, $d), $l, $r)
    };
}
// θ's D[x] = C[x − 1] ^ rol(C[x + 1], 1).
macro_rules! theta_base {
    ($prev:expr, $next:expr) => {
        veorq_u64($prev, rol_base!($next, 1, 63))
    };
}
macro_rules! xor5_base {
    ($a:expr, $b:expr, $c:expr, $d:expr, $e:expr) => {
        veorq_u64(veorq_u64(veorq_u64($a, $b), veorq_u64($c, $d)), $e)
    };
}
// χ: a ^ (!b & c); BIC(c, b) is c & !b.
macro_rules! chi_base {
    ($a:expr, $b:expr, $c:expr) => {
        veorq_u64($a, vbicq_u64($c, $b))
    };
}

// FEAT_SHA3: XAR rotates right, so rol by L is XAR by R.
#[cfg(feature = "std")]
macro_rules! xor_rol_sha3 {
    ($a:expr, $d:expr, $l:literal, $r:literal) => {
        vxarq_u64::<$r>($a, $d)
    };
}
#[cfg(feature = "std")]
macro_rules! theta_sha3 {
    ($prev:expr, $next:expr) => {
        vrax1q_u64($prev, $next)
    };
}
#[cfg(feature = "std")]
macro_rules! xor5_sha3 {
    ($a:expr, $b:expr, $c:expr, $d:expr, $e:expr) => {
        veor3q_u64(veor3q_u64($a, $b, $c), $d, $e)
    };
}
// BCAX(a, b, c) is a ^ (b & !c).
#[cfg(feature = "std")]
macro_rules! chi_sha3 {
    ($a:expr, $b:expr, $c:expr) => {
        vbcaxq_u64($a, $c, $b)
    };
}

/// One round (θ, ρ, π, χ, ι), as in `keccak_x4/x86.rs` (row b/g/k/m/s is y = 0..4, column
/// a/e/i/o/u is x = 0..4; each output row gathers the words π moves there).
macro_rules! round {
    ($xrol:ident, $theta:ident, $xor5:ident, $chi:ident,
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
        let da = $theta!(cu, ce);
        let de = $theta!(ca, ci);
        let di = $theta!(ce, co);
        let d_o = $theta!(ci, cu);
        let du = $theta!(co, ca);

        let b0 = veorq_u64($aba, da);
        let b1 = $xrol!($age, de, 44, 20);
        let b2 = $xrol!($aki, di, 43, 21);
        let b3 = $xrol!($amo, d_o, 21, 43);
        let b4 = $xrol!($asu, du, 14, 50);
        $eba = veorq_u64($chi!(b0, b1, b2), $rc);
        $ebe = $chi!(b1, b2, b3);
        $ebi = $chi!(b2, b3, b4);
        $ebo = $chi!(b3, b4, b0);
        $ebu = $chi!(b4, b0, b1);

        let b0 = $xrol!($abo, d_o, 28, 36);
        let b1 = $xrol!($agu, du, 20, 44);
        let b2 = $xrol!($aka, da, 3, 61);
        let b3 = $xrol!($ame, de, 45, 19);
        let b4 = $xrol!($asi, di, 61, 3);
        $ega = $chi!(b0, b1, b2);
        $ege = $chi!(b1, b2, b3);
        $egi = $chi!(b2, b3, b4);
        $ego = $chi!(b3, b4, b0);
        $egu = $chi!(b4, b0, b1);

        let b0 = $xrol!($abe, de, 1, 63);
        let b1 = $xrol!($agi, di, 6, 58);
        let b2 = $xrol!($ako, d_o, 25, 39);
        let b3 = $xrol!($amu, du, 8, 56);
        let b4 = $xrol!($asa, da, 18, 46);
        $eka = $chi!(b0, b1, b2);
        $eke = $chi!(b1, b2, b3);
        $eki = $chi!(b2, b3, b4);
        $eko = $chi!(b3, b4, b0);
        $eku = $chi!(b4, b0, b1);

        let b0 = $xrol!($abu, du, 27, 37);
        let b1 = $xrol!($aga, da, 36, 28);
        let b2 = $xrol!($ake, de, 10, 54);
        let b3 = $xrol!($ami, di, 15, 49);
        let b4 = $xrol!($aso, d_o, 56, 8);
        $ema = $chi!(b0, b1, b2);
        $eme = $chi!(b1, b2, b3);
        $emi = $chi!(b2, b3, b4);
        $emo = $chi!(b3, b4, b0);
        $emu = $chi!(b4, b0, b1);

        let b0 = $xrol!($abi, di, 62, 2);
        let b1 = $xrol!($ago, d_o, 55, 9);
        let b2 = $xrol!($aku, du, 39, 25);
        let b3 = $xrol!($ama, da, 41, 23);
        let b4 = $xrol!($ase, de, 2, 62);
        $esa = $chi!(b0, b1, b2);
        $ese = $chi!(b1, b2, b3);
        $esi = $chi!(b2, b3, b4);
        $eso = $chi!(b3, b4, b0);
        $esu = $chi!(b4, b0, b1);
    };
}

/// The whole permutation on `$s` (`[[u64; 2]; 25]`): into registers, 12 double rounds
/// A → E → A (no state copies), back out.
macro_rules! permute {
    ($s:ident, $xrol:ident, $theta:ident, $xor5:ident, $chi:ident) => {{
        let [mut aba, mut abe, mut abi, mut abo, mut abu, mut aga, mut age, mut agi, mut ago, mut agu, mut aka, mut ake, mut aki, mut ako, mut aku, mut ama, mut ame, mut ami, mut amo, mut amu, mut asa, mut ase, mut asi, mut aso, mut asu]: [uint64x2_t; 25] =
            core::array::from_fn(|i| vcombine_u64(vcreate_u64($s[i][0]), vcreate_u64($s[i][1])));
        let (mut eba, mut ebe, mut ebi, mut ebo, mut ebu, mut ega, mut ege, mut egi, mut ego, mut egu);
        let (mut eka, mut eke, mut eki, mut eko, mut eku, mut ema, mut eme, mut emi, mut emo, mut emu);
        let (mut esa, mut ese, mut esi, mut eso, mut esu);
        for pair in RC.chunks_exact(2) {
            round!($xrol, $theta, $xor5, $chi,
                [aba abe abi abo abu aga age agi ago agu aka ake aki ako aku ama ame ami amo amu asa ase asi aso asu]
                => [eba ebe ebi ebo ebu ega ege egi ego egu eka eke eki eko eku ema eme emi emo emu esa ese esi eso esu],
                vdupq_n_u64(pair[0]));
            round!($xrol, $theta, $xor5, $chi,
                [eba ebe ebi ebo ebu ega ege egi ego egu eka eke eki eko eku ema eme emi emo emu esa ese esi eso esu]
                => [aba abe abi abo abu aga age agi ago agu aka ake aki ako aku ama ame ami amo amu asa ase asi aso asu],
                vdupq_n_u64(pair[1]));
        }
        let v = [
            aba, abe, abi, abo, abu, aga, age, agi, ago, agu, aka, ake, aki, ako, aku, ama, ame, ami, amo,
            amu, asa, ase, asi, aso, asu,
        ];
        for (w, x) in $s.iter_mut().zip(v.iter()) {
            *w = [vgetq_lane_u64::<0>(*x), vgetq_lane_u64::<1>(*x)];
        }
    }};
}

/// Keccak-f\[1600\] on two lane-interleaved states with baseline NEON.
#[target_feature(enable = "neon")]
pub(super) fn f1600x2_neon(s: &mut [[u64; 2]; 25]) {
    permute!(s, xor_rol_base, theta_base, xor5_base, chi_base);
}

/// Keccak-f\[1600\] on two lane-interleaved states with the SHA-3 extension.
#[cfg(feature = "std")]
#[target_feature(enable = "neon,sha3")]
pub(super) fn f1600x2_sha3(s: &mut [[u64; 2]; 25]) {
    permute!(s, xor_rol_sha3, theta_sha3, xor5_sha3, chi_sha3);
}

/// Keccak-f\[1600\] on two states: with the SHA-3 instructions when the CPU has them.
pub(super) fn f1600x2(s: &mut [[u64; 2]; 25]) {
    #[cfg(feature = "std")]
    if std::arch::is_aarch64_feature_detected!("sha3") {
        // SAFETY: the CPU has FEAT_SHA3 (and NEON, baseline on aarch64), checked just above.
        unsafe { f1600x2_sha3(s) };
        return;
    }
    // SAFETY: this module is compiled only with NEON enabled (`target_feature = "neon"`).
    unsafe { f1600x2_neon(s) };
}
