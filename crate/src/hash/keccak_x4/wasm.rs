//! The wasm32 `simd128` backend of [`super`]: two calls of the two-lane kernel
//! (`hash::keccak_x2`), one per pair of states.

use super::{ChainsX4, StateX4};
use crate::hash::keccak_x2::wasm::permute as f1600x2;
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
