//! The WebAssembly simd128 backend of [`super`]: one v128 per Keccak word, two states.
//!
//! WebAssembly has 64-bit scalar registers but no vector rotate; still, one v128 lane
//! pair per Keccak lane runs two permutations in about 1.5× the time of one (measured in
//! V8). `keccak_x4`'s wasm backend calls [`permute`] on its pairs of states.

use core::arch::wasm32::{
    i64x2_shl, i8x16_shuffle, u64x2, u64x2_extract_lane, u64x2_shr, u64x2_splat, v128, v128_andnot, v128_or,
    v128_xor,
};

use crate::hash::KECCAK_RC as RC;

/// Rotate each 64-bit lane left by L (R = 64 − L): two shifts and an OR, except for the two
/// byte-aligned offsets of ρ (8 and 56), which are one byte shuffle.
#[inline(always)]
fn rol<const L: u32, const R: u32>(x: v128) -> v128 {
    if L == 8 {
        // Byte k of each little-endian lane takes byte k − 1 (mod 8).
        i8x16_shuffle::<7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14>(x, x)
    } else if L == 56 {
        // Byte k takes byte k + 1 (mod 8): a rotation right by 8.
        i8x16_shuffle::<1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8>(x, x)
    } else {
        v128_or(i64x2_shl(x, L), u64x2_shr(x, R))
    }
}

#[inline(always)]
fn xor5(a: v128, b: v128, c: v128, d: v128, e: v128) -> v128 {
    v128_xor(v128_xor(v128_xor(a, b), v128_xor(c, d)), e)
}

/// χ for one lane: a ^ (!b & c).
#[inline(always)]
fn chi(a: v128, b: v128, c: v128) -> v128 {
    v128_xor(a, v128_andnot(c, b))
}

/// One round (θ, ρ, π, χ, ι) from the lanes named in the first list into the second.
/// Lane names: row b/g/k/m/s (y = 0..4), column a/e/i/o/u (x = 0..4); the five groups
/// below are the five output rows, each gathering the lanes π moves there.
macro_rules! round {
    ([$aba:ident $abe:ident $abi:ident $abo:ident $abu:ident
      $aga:ident $age:ident $agi:ident $ago:ident $agu:ident
      $aka:ident $ake:ident $aki:ident $ako:ident $aku:ident
      $ama:ident $ame:ident $ami:ident $amo:ident $amu:ident
      $asa:ident $ase:ident $asi:ident $aso:ident $asu:ident]
     => [$eba:ident $ebe:ident $ebi:ident $ebo:ident $ebu:ident
      $ega:ident $ege:ident $egi:ident $ego:ident $egu:ident
      $eka:ident $eke:ident $eki:ident $eko:ident $eku:ident
      $ema:ident $eme:ident $emi:ident $emo:ident $emu:ident
      $esa:ident $ese:ident $esi:ident $eso:ident $esu:ident], $rc:expr) => {
        let ca = xor5($aba, $aga, $aka, $ama, $asa);
        let ce = xor5($abe, $age, $ake, $ame, $ase);
        let ci = xor5($abi, $agi, $aki, $ami, $asi);
        let co = xor5($abo, $ago, $ako, $amo, $aso);
        let cu = xor5($abu, $agu, $aku, $amu, $asu);
        let da = v128_xor(cu, rol::<1, 63>(ce));
        let de = v128_xor(ca, rol::<1, 63>(ci));
        let di = v128_xor(ce, rol::<1, 63>(co));
        let d_o = v128_xor(ci, rol::<1, 63>(cu));
        let du = v128_xor(co, rol::<1, 63>(ca));

        let b0 = v128_xor($aba, da);
        let b1 = rol::<44, 20>(v128_xor($age, de));
        let b2 = rol::<43, 21>(v128_xor($aki, di));
        let b3 = rol::<21, 43>(v128_xor($amo, d_o));
        let b4 = rol::<14, 50>(v128_xor($asu, du));
        $eba = v128_xor(chi(b0, b1, b2), $rc);
        $ebe = chi(b1, b2, b3);
        $ebi = chi(b2, b3, b4);
        $ebo = chi(b3, b4, b0);
        $ebu = chi(b4, b0, b1);

        let b0 = rol::<28, 36>(v128_xor($abo, d_o));
        let b1 = rol::<20, 44>(v128_xor($agu, du));
        let b2 = rol::<3, 61>(v128_xor($aka, da));
        let b3 = rol::<45, 19>(v128_xor($ame, de));
        let b4 = rol::<61, 3>(v128_xor($asi, di));
        $ega = chi(b0, b1, b2);
        $ege = chi(b1, b2, b3);
        $egi = chi(b2, b3, b4);
        $ego = chi(b3, b4, b0);
        $egu = chi(b4, b0, b1);

        let b0 = rol::<1, 63>(v128_xor($abe, de));
        let b1 = rol::<6, 58>(v128_xor($agi, di));
        let b2 = rol::<25, 39>(v128_xor($ako, d_o));
        let b3 = rol::<8, 56>(v128_xor($amu, du));
        let b4 = rol::<18, 46>(v128_xor($asa, da));
        $eka = chi(b0, b1, b2);
        $eke = chi(b1, b2, b3);
        $eki = chi(b2, b3, b4);
        $eko = chi(b3, b4, b0);
        $eku = chi(b4, b0, b1);

        let b0 = rol::<27, 37>(v128_xor($abu, du));
        let b1 = rol::<36, 28>(v128_xor($aga, da));
        let b2 = rol::<10, 54>(v128_xor($ake, de));
        let b3 = rol::<15, 49>(v128_xor($ami, di));
        let b4 = rol::<56, 8>(v128_xor($aso, d_o));
        $ema = chi(b0, b1, b2);
        $eme = chi(b1, b2, b3);
        $emi = chi(b2, b3, b4);
        $emo = chi(b3, b4, b0);
        $emu = chi(b4, b0, b1);

        let b0 = rol::<62, 2>(v128_xor($abi, di));
        let b1 = rol::<55, 9>(v128_xor($ago, d_o));
        let b2 = rol::<39, 25>(v128_xor($aku, du));
        let b3 = rol::<41, 23>(v128_xor($ama, da));
        let b4 = rol::<2, 62>(v128_xor($ase, de));
        $esa = chi(b0, b1, b2);
        $ese = chi(b1, b2, b3);
        $esi = chi(b2, b3, b4);
        $eso = chi(b3, b4, b0);
        $esu = chi(b4, b0, b1);
    };
}

/// Keccak-f\[1600\] on two lane-interleaved states: word `i` of state `j` is `s[i][j]`.
pub(super) fn f1600x2(s: &mut [[u64; 2]; 25]) {
    let mut v: [v128; 25] = core::array::from_fn(|i| u64x2(s[i][0], s[i][1]));
    permute(&mut v);
    for (w, x) in s.iter_mut().zip(v.iter()) {
        *w = [u64x2_extract_lane::<0>(*x), u64x2_extract_lane::<1>(*x)];
    }
}

/// Keccak-f\[1600\] on two states, lane i of state k in lane k of `s[i]`. Two rounds per
/// iteration, renaming A → E → A, so no state copies are made.
pub(crate) fn permute(s: &mut [v128; 25]) {
    let [mut aba, mut abe, mut abi, mut abo, mut abu, mut aga, mut age, mut agi, mut ago, mut agu, mut aka, mut ake, mut aki, mut ako, mut aku, mut ama, mut ame, mut ami, mut amo, mut amu, mut asa, mut ase, mut asi, mut aso, mut asu] =
        *s;
    let (mut eba, mut ebe, mut ebi, mut ebo, mut ebu, mut ega, mut ege, mut egi, mut ego, mut egu);
    let (mut eka, mut eke, mut eki, mut eko, mut eku, mut ema, mut eme, mut emi, mut emo, mut emu);
    let (mut esa, mut ese, mut esi, mut eso, mut esu);
    for pair in RC.chunks_exact(2) {
        round!([aba abe abi abo abu aga age agi ago agu aka ake aki ako aku ama ame ami amo amu asa ase asi aso asu]
            => [eba ebe ebi ebo ebu ega ege egi ego egu eka eke eki eko eku ema eme emi emo emu esa ese esi eso esu],
            u64x2_splat(pair[0]));
        round!([eba ebe ebi ebo ebu ega ege egi ego egu eka eke eki eko eku ema eme emi emo emu esa ese esi eso esu]
            => [aba abe abi abo abu aga age agi ago agu aka ake aki ako aku ama ame ami amo amu asa ase asi aso asu],
            u64x2_splat(pair[1]));
    }
    *s = [
        aba, abe, abi, abo, abu, aga, age, agi, ago, agu, aka, ake, aki, ako, aku, ama, ame, ami, amo, amu,
        asa, ase, asi, aso, asu,
    ];
}
