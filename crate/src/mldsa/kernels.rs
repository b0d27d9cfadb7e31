//! SIMD kernels for ML-DSA outside the NTT: the 23-bit rejection sampling of ExpandA
//! (Alg. 30 RejNTTPoly), the row products of Â (a sum of NTT-domain products with one
//! Montgomery reduction), HighBits, LowBits, MakeHint and UseHint (Alg. 37–40) over a
//! whole polynomial, and the coefficient-wise reductions and infinity-norm check of
//! `Poly` (`reduce`, `freeze`, `exceeds`; AVX2 only, portable elsewhere).
//!
//! Each has a portable definition here, which the tests keep as the reference, and
//! vector versions that give the same i32s bit for bit, dispatched as the NTT's are
//! (`super::ntt`): AVX2 at run time on x86-64 with `std`, simd128 (not in the light
//! build: the verify module's size budget) and NEON at compile time. `ntt::set_backend`
//! switches these too.
//!
//! Rejection sampling runs on public data (the stream of ρ), so the vector versions may
//! index a compaction table by the accept mask. The rounding kernels run on secret values
//! in signing: lane-wise arithmetic and compares only, no branch or index on the data.

use super::hint::{make_hint, use_hint};
use super::ntt::Q;
use super::ntt::{caddq, mont_reduce, reduce32};
use super::poly::{Poly, N};
use super::rounding::{high_bits, low_bits};

#[cfg(all(target_arch = "x86_64", feature = "std"))]
#[allow(unsafe_code)] // target-feature calls after detection, vector loads and stores
mod avx2;
#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)] // vector loads and stores
mod neon;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(feature = "light")))]
#[allow(unsafe_code)] // vector loads and stores
mod simd128;

/// For each 4-bit accept mask, the byte swizzle that packs the accepted 32-bit lanes
/// (the four-lane targets' rejection sampling).
#[cfg(any(
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128", not(feature = "light"))
))]
// Exact: byte indices below 16.
#[allow(clippy::cast_possible_truncation)]
const fn compact4() -> [[u8; 16]; 16] {
    // For each 4-bit accept mask, the byte indices that move the accepted 32-bit lanes to
    // the front, in order; the rest select nothing (index ≥ 16 reads zero).
    let mut t = [[0xff; 16]; 16];
    let mut m = 0;
    while m < 16 {
        let mut k = 0;
        let mut j = 0;
        while j < 4 {
            if (m >> j) & 1 == 1 {
                let mut b = 0;
                while b < 4 {
                    t[m][4 * k + b] = (4 * j + b) as u8;
                    b += 1;
                }
                k += 1;
            }
            j += 1;
        }
        m += 1;
    }
    t
}

/// Alg. 30 steps 4–10 on 3-byte candidates: appends those below q to `a` at `*filled`,
/// up to N.
#[inline(always)]
pub(super) fn rej_ntt_portable(block: &[u8], a: &mut [i32; N], filled: &mut usize) {
    for t in block.chunks_exact(3) {
        let v = i32::from(t[0]) | i32::from(t[1]) << 8 | i32::from(t[2] & 0x7f) << 16;
        if v < Q && *filled < N {
            a[*filled] = v;
            *filled += 1;
        }
    }
}

/// As [`rej_ntt_portable`] on one block of ExpandA's stream (public data).
#[inline]
pub(super) fn rej_ntt(block: &[u8], a: &mut [i32; N], filled: &mut usize) {
    #[allow(unused_mut)] // only the SIMD targets consume a prefix
    let mut done = 0;
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if let Some(k) = avx2::Avx2::get() {
        done = k.rej_ntt(block, a, filled);
    }
    #[cfg(target_arch = "aarch64")]
    if super::ntt::simd_allowed() {
        done = neon::rej_ntt(block, a, filled);
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(feature = "light")))]
    if super::ntt::simd_allowed() {
        done = simd128::rej_ntt(block, a, filled);
    }
    // The vector code stops where fewer than a vector's candidates or slots remain.
    rej_ntt_portable(&block[done..], a, filled);
}

/// `reduce32` of every coefficient (`FREEZE`: then `caddq`, the representative in [0, q)),
/// for coefficients ≤ 2^31 − 2^22 − 1.
#[inline]
pub(super) fn reduce_poly<const FREEZE: bool>(a: &mut [i32; N]) {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if let Some(k) = avx2::Avx2::get() {
        return k.reduce::<FREEZE>(a);
    }
    reduce_portable::<FREEZE>(a);
}

/// [`reduce_poly`] coefficient by coefficient.
#[inline(always)]
pub(super) fn reduce_portable<const FREEZE: bool>(a: &mut [i32; N]) {
    for x in a.iter_mut() {
        *x = if FREEZE { caddq(reduce32(*x)) } else { reduce32(*x) };
    }
}

/// Whether some |a[i]| ≥ `bound` (1 ≤ `bound`), for coefficients in the `reduce32` range:
/// every coefficient is examined, with no branch on its value or sign.
#[inline]
pub(super) fn exceeds_poly(a: &[i32; N], bound: i32) -> bool {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if let Some(k) = avx2::Avx2::get() {
        return k.exceeds(a, bound);
    }
    exceeds_portable(a, bound)
}

/// [`exceeds_poly`] coefficient by coefficient.
#[inline(always)]
pub(super) fn exceeds_portable(a: &[i32; N], bound: i32) -> bool {
    let mut flag = 0i32;
    for &a in a.iter() {
        let abs = a - ((a >> 31) & (2 * a));
        flag |= (bound - 1) - abs;
    }
    flag < 0
}

/// UseHint on each coefficient: `w1[i] = UseHint(h[i], r[i])` for r in [0, q).
#[inline]
pub(super) fn use_hint_poly(w1: &mut [i32; N], h: &[bool; N], r: &[i32; N], gamma2: i32) {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if let Some(k) = avx2::Avx2::get() {
        return k.use_hint(w1, h, r, gamma2);
    }
    #[cfg(target_arch = "aarch64")]
    if super::ntt::simd_allowed() {
        return neon::use_hint(w1, h, r, gamma2);
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(feature = "light")))]
    if super::ntt::simd_allowed() {
        return simd128::use_hint(w1, h, r, gamma2);
    }
    use_hint_portable(w1, h, r, gamma2);
}

/// `r = Σ_j a[j] ∘ b[j] − c ∘ t` (the last term if `minus` is `Some((c, t))`), the
/// products summed in 64 bits and reduced once (Montgomery, times 2^-32 as
/// [`super::ntt::pointwise`]): |r| < q. Needs |the sum| < 2^31·q per coefficient: up to 7
/// products of an entry of Â (in [0, q)) and an NTT output (|·| < 9q), and one of two NTT
/// outputs (verification's c·t1·2^d): at most 144·q² < 2^31·q.
#[inline]
pub(super) fn dot_poly(r: &mut [i32; N], a: &[Poly], b: &[Poly], minus: Option<(&Poly, &Poly)>) {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if let Some(k) = avx2::Avx2::get() {
        return k.dot(r, a, b, minus);
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(feature = "light")))]
    if super::ntt::simd_allowed() {
        return simd128::dot(r, a, b, minus);
    }
    dot_portable(r, a, b, minus);
}

/// [`dot_poly`] coefficient by coefficient.
#[inline(always)]
pub(super) fn dot_portable(r: &mut [i32; N], a: &[Poly], b: &[Poly], minus: Option<(&Poly, &Poly)>) {
    let mut sum = [0i64; N];
    for (a, b) in a.iter().zip(b.iter()) {
        for ((s, &x), &y) in sum.iter_mut().zip(a.0.iter()).zip(b.0.iter()) {
            *s += i64::from(x) * i64::from(y);
        }
    }
    if let Some((c, t)) = minus {
        for ((s, &x), &y) in sum.iter_mut().zip(c.0.iter()).zip(t.0.iter()) {
            *s -= i64::from(x) * i64::from(y);
        }
    }
    for (r, &s) in r.iter_mut().zip(sum.iter()) {
        *r = mont_reduce(s);
    }
}

/// `out[i] = HighBits(r[i])` (`HIGH`) or `LowBits(r[i])`, for r in [0, q).
#[inline]
pub(super) fn bits_poly<const HIGH: bool>(out: &mut [i32; N], r: &[i32; N], gamma2: i32) {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if let Some(k) = avx2::Avx2::get() {
        return k.bits::<HIGH>(out, r, gamma2);
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(feature = "light")))]
    if super::ntt::simd_allowed() {
        return simd128::bits::<HIGH>(out, r, gamma2);
    }
    bits_portable::<HIGH>(out, r, gamma2);
}

/// [`bits_poly`] coefficient by coefficient.
#[inline(always)]
pub(super) fn bits_portable<const HIGH: bool>(out: &mut [i32; N], r: &[i32; N], gamma2: i32) {
    for (o, &r) in out.iter_mut().zip(r.iter()) {
        *o = if HIGH {
            high_bits(r, gamma2)
        } else {
            low_bits(r, gamma2)
        };
    }
}

/// `h[i] = MakeHint(−ct0[i], r[i] + ct0[i])` as signing computes it: 1 where the high bits
/// of freeze(r + ct0) and of r differ. r in [0, q), ct0 in the `reduce32` range. Returns
/// the number of ones.
#[inline]
pub(super) fn make_hint_poly(h: &mut [i32; N], r: &[i32; N], ct0: &[i32; N], gamma2: i32) -> usize {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    if let Some(k) = avx2::Avx2::get() {
        return k.make_hint(h, r, ct0, gamma2);
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128", not(feature = "light")))]
    if super::ntt::simd_allowed() {
        return simd128::make_hint(h, r, ct0, gamma2);
    }
    make_hint_portable(h, r, ct0, gamma2)
}

/// [`make_hint_poly`] coefficient by coefficient.
// Exact: each hint is 0 or 1.
#[allow(clippy::cast_sign_loss)]
#[inline(always)]
pub(super) fn make_hint_portable(h: &mut [i32; N], r: &[i32; N], ct0: &[i32; N], gamma2: i32) -> usize {
    let mut ones = 0;
    for ((h, &r), &c) in h.iter_mut().zip(r.iter()).zip(ct0.iter()) {
        *h = make_hint(super::ntt::freeze(r + c), r, gamma2);
        ones += *h as usize;
    }
    ones
}

/// [`use_hint_poly`] coefficient by coefficient.
#[inline(always)]
pub(super) fn use_hint_portable(w1: &mut [i32; N], h: &[bool; N], r: &[i32; N], gamma2: i32) {
    for ((w, &h), &r) in w1.iter_mut().zip(h.iter()).zip(r.iter()) {
        *w = use_hint(h, r, gamma2);
    }
}

#[cfg(test)]
// Test data: small indices and chosen bits.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]
mod tests {
    use super::super::ntt::tests::Rng;
    use super::super::ntt::{set_backend, Backend};
    use super::*;
    use alloc::vec::Vec;

    /// Blocks of 168 bytes: random ones, all rejected (0xff), every candidate q − 1, q or
    /// q + 1 (top bits set too, which the mask drops), and rejections in every lane position.
    fn blocks(rng: &mut Rng) -> Vec<[u8; 168]> {
        let mut v = Vec::new();
        for _ in 0..200 {
            v.push(core::array::from_fn(|_| rng.byte()));
        }
        v.push([0xff; 168]);
        v.push([0; 168]);
        for c in [Q - 1, Q, Q + 1, Q | 0x80_0000, (Q - 1) | 0x80_0000] {
            let b = c.to_le_bytes();
            v.push(core::array::from_fn(|i| b[i % 3]));
        }
        // One rejected candidate at position p, the others Q − 1 − p; and every fifth rejected.
        for p in 0..56 {
            v.push(core::array::from_fn(|i| {
                let c = if i / 3 == p { Q } else { Q - 1 - (i / 3) as i32 };
                c.to_le_bytes()[i % 3]
            }));
            v.push(core::array::from_fn(|i| {
                let c = if (i / 3 + p) % 5 == 0 {
                    0x7f_ffff
                } else {
                    (i / 3) as i32
                };
                c.to_le_bytes()[i % 3]
            }));
        }
        // Random candidates with about one in eight rejected.
        for _ in 0..100 {
            let mut b = [0u8; 168];
            for t in b.chunks_exact_mut(3) {
                let c = if rng.byte() < 32 {
                    Q + i32::from(rng.byte())
                } else {
                    rng.coeff(Q / 2) + Q / 2
                };
                t.copy_from_slice(&c.to_le_bytes()[..3]);
            }
            v.push(b);
        }
        v
    }

    #[test]
    fn rej_ntt_matches_portable() {
        let mut rng = Rng::new(11);
        let blocks = blocks(&mut rng);
        set_backend(Backend::Auto);
        // Every starting fill, so the vector code meets the end of the polynomial everywhere.
        for start in (0..=N)
            .step_by(1)
            .filter(|s| *s < 16 || *s > N - 64 || s % 37 == 0)
        {
            for (i, b) in blocks.iter().enumerate() {
                let (mut a, mut f) = ([-1; N], start);
                let (mut want, mut g) = ([-1; N], start);
                // Two blocks in a row, the second in part too: unaligned lengths.
                rej_ntt(b, &mut a, &mut f);
                rej_ntt(&b[..(i % 56) * 3], &mut a, &mut f);
                rej_ntt_portable(b, &mut want, &mut g);
                rej_ntt_portable(&b[..(i % 56) * 3], &mut want, &mut g);
                assert_eq!(f, g, "block {i}, start {start}");
                assert!(a[..f] == want[..g], "block {i}, start {start}");
            }
        }
    }

    /// Values in [0, q): random, around every multiple of 2γ2 (and of γ2) and the ends.
    fn residues(rng: &mut Rng, gamma2: i32) -> Vec<[i32; N]> {
        let mut rs: Vec<[i32; N]> = (0..200)
            .map(|_| core::array::from_fn(|_| rng.coeff(Q / 2) + Q / 2))
            .collect();
        let edges: Vec<i32> = (0..=Q / gamma2)
            .flat_map(|m| [-2, -1, 0, 1, 2].map(|d| m * gamma2 + d))
            .chain([0, 1, Q - 2, Q - 1])
            .filter(|&r| (0..Q).contains(&r))
            .collect();
        for c in edges.chunks(N) {
            rs.push(core::array::from_fn(|i| c[i % c.len()]));
        }
        rs
    }

    #[test]
    fn rounding_matches_portable() {
        let mut rng = Rng::new(13);
        set_backend(Backend::Auto);
        for gamma2 in [(Q - 1) / 32, (Q - 1) / 88] {
            let rs = residues(&mut rng, gamma2);
            for (k, r) in rs.iter().enumerate() {
                let (mut a, mut b) = ([0; N], [0; N]);
                bits_poly::<true>(&mut a, r, gamma2);
                bits_portable::<true>(&mut b, r, gamma2);
                assert!(a == b, "HighBits, γ2 = {gamma2}, case {k}");
                bits_poly::<false>(&mut a, r, gamma2);
                bits_portable::<false>(&mut b, r, gamma2);
                assert!(a == b, "LowBits, γ2 = {gamma2}, case {k}");
                // ct0 over the reduce32 range, small, and the extremes.
                let bound = [6_283_008, 1 << 19, 2 * gamma2, 1][k % 4];
                let mut cases = alloc::vec![rng.poly(bound)];
                cases.push([6_283_008; N]);
                cases.push([-6_283_009; N]);
                for c in &cases {
                    let (mut h, mut g) = ([0; N], [0; N]);
                    let n = make_hint_poly(&mut h, r, c, gamma2);
                    let m = make_hint_portable(&mut g, r, c, gamma2);
                    assert!(h == g && n == m, "MakeHint, γ2 = {gamma2}, case {k}");
                }
            }
        }
    }

    #[test]
    fn reduce_and_exceeds_match_portable() {
        let mut rng = Rng::new(15);
        set_backend(Backend::Auto);
        // reduce32's whole domain, its ends, and around multiples of q.
        let top = i32::MAX - (1 << 22);
        let mut cases: Vec<[i32; N]> = (0..100)
            .map(|k| {
                core::array::from_fn(|_| match k % 3 {
                    0 => rng.coeff(i32::MAX / 2) * 2,
                    1 => rng.coeff(9 * Q),
                    _ => rng.coeff(256) * Q + rng.coeff(2),
                })
            })
            .map(|mut a: [i32; N]| {
                a.iter_mut().for_each(|x| *x = (*x).min(top));
                a
            })
            .collect();
        cases.push([top; N]);
        cases.push([i32::MIN; N]);
        cases.push(core::array::from_fn(|i| {
            [top, i32::MIN, 0, Q, -Q, Q - 1, 1 - Q, 1 << 22][i % 8]
        }));
        for (k, a) in cases.iter().enumerate() {
            let (mut x, mut y) = (*a, *a);
            reduce_poly::<false>(&mut x);
            reduce_portable::<false>(&mut y);
            assert!(x == y, "reduce, case {k}");
            let (mut x, mut y) = (*a, *a);
            reduce_poly::<true>(&mut x);
            reduce_portable::<true>(&mut y);
            assert!(x == y, "freeze, case {k}");
        }
        // exceeds: the reduce32 range, and each signing bound with coefficients at
        // ±(bound − 1) and ±bound in every position class.
        let gamma1 = [1 << 17, 1 << 19];
        let bounds = [
            1,
            2,
            (Q - 1) / 88,
            (Q - 1) / 32,
            (Q - 1) / 88 - 78,
            (Q - 1) / 32 - 196,
        ]
        .into_iter()
        .chain(gamma1.iter().flat_map(|g| [g - 78, g - 196, g - 120]));
        for bound in bounds {
            let mut polys = rng.polys(bound - 1);
            polys.extend(rng.polys(bound));
            polys.push(rng.poly(6_283_009));
            for i in [0, 7, 8, 255] {
                let mut a = rng.poly(bound - 1);
                a[i] = -bound;
                polys.push(a);
            }
            for (k, a) in polys.iter().enumerate() {
                assert_eq!(
                    exceeds_poly(a, bound),
                    exceeds_portable(a, bound),
                    "bound {bound}, case {k}"
                );
            }
        }
    }

    #[test]
    fn dot_matches_portable() {
        let mut rng = Rng::new(14);
        set_backend(Backend::Auto);
        for len in 1..=7 {
            for k in 0..40 {
                let (ba, bb) = if k == 0 {
                    (Q - 1, 9 * Q)
                } else {
                    (Q / 2, [9 * Q, Q, 1 << 20][k % 3])
                };
                // Â entries in [0, q) (all q − 1 in the first case), NTT outputs in ±bb.
                let a: Vec<Poly> = (0..len)
                    .map(|_| {
                        Poly(if k == 0 {
                            [ba; N]
                        } else {
                            rng.poly(ba).map(|x| x + Q / 2)
                        })
                    })
                    .collect();
                let b: Vec<Poly> = (0..len)
                    .map(|j| {
                        Poly(if k == 0 {
                            [[bb, -bb][j % 2]; N]
                        } else {
                            rng.poly(bb)
                        })
                    })
                    .collect();
                let (mut r, mut want) = ([0; N], [0; N]);
                dot_poly(&mut r, &a, &b, None);
                dot_portable(&mut want, &a, &b, None);
                assert!(r == want, "{len} products, case {k}");
                // Minus c·t, both NTT outputs (the extremes in the first case).
                let (c, t) = if k == 0 {
                    (Poly([9 * Q - 1; N]), Poly([-(9 * Q - 1); N]))
                } else {
                    (Poly(rng.poly(9 * Q)), Poly(rng.poly(9 * Q)))
                };
                dot_poly(&mut r, &a, &b, Some((&c, &t)));
                dot_portable(&mut want, &a, &b, Some((&c, &t)));
                assert!(r == want, "{len} products minus one, case {k}");
            }
        }
    }

    #[test]
    fn use_hint_matches_portable() {
        let mut rng = Rng::new(12);
        set_backend(Backend::Auto);
        for gamma2 in [(Q - 1) / 32, (Q - 1) / 88] {
            let mut rs: Vec<[i32; N]> = (0..200)
                .map(|_| core::array::from_fn(|_| rng.coeff(Q / 2) + Q / 2))
                .collect();
            // Around every multiple of 2γ2 and the ends of [0, q).
            let edges: Vec<i32> = (0..=Q / (2 * gamma2))
                .flat_map(|m| [-2, -1, 0, 1, 2].map(|d| m * 2 * gamma2 + d + [0, gamma2][(m % 2) as usize]))
                .chain([0, 1, Q - 2, Q - 1, Q - 1 - gamma2, Q - gamma2])
                .filter(|&r| (0..Q).contains(&r))
                .collect();
            for c in edges.chunks(N) {
                rs.push(core::array::from_fn(|i| c[i % c.len()]));
            }
            for (k, r) in rs.iter().enumerate() {
                for mode in 0..3 {
                    let h: [bool; N] = core::array::from_fn(|i| match mode {
                        0 => false,
                        1 => true,
                        _ => (rng.byte() ^ (i as u8)) & 1 == 1,
                    });
                    let (mut w, mut want) = ([0; N], [0; N]);
                    use_hint_poly(&mut w, &h, r, gamma2);
                    use_hint_portable(&mut want, &h, r, gamma2);
                    assert!(w == want, "γ2 = {gamma2}, case {k}, mode {mode}");
                }
            }
        }
    }
}
