//! The integer samplers (spec §5): uniform residues mod q, and D_{Z,σ_E} by a constant-time
//! cumulative distribution table. Integers only, so native and WebAssembly draw the same values
//! from the same stream.

use sha3::digest::XofReader;
use zeroize::Zeroize;

use super::arith::{reduce, Q};
use super::params::N;

/// Words at or above this are rejected, so that w mod q is uniform: 65535·q.
const UNIFORM_LIMIT: u64 = 65_535 * Q;

/// The largest |x| the σ_E sampler returns; the tail beyond it weighs 2^−116.6.
#[cfg(test)]
pub(crate) const CDT_TAIL: i64 = 78;

/// T[k] = round_half_even(2^127·Σ_{j ≤ k} p_j), p_0 = ρ(0)/S, p_k = 2ρ(k)/S,
/// ρ(x) = exp(−x²/2σ_E²), σ_E = 6.108187070284607 (spec §5.2; computed with 150-digit
/// arithmetic; its SHA-256 is checked in the tests).
pub(crate) const CDT: [u128; 78] = [
    0x085c2ac3283fe97a948bff702aa225f5,
    0x18db859dbbec11ddd06aebc718ce4e79,
    0x28b47334cee750ecd0513c3e29643763,
    0x3786722b097248059037f84e0ec10e62,
    0x4504b7329fda1c8a611cff27b0710878,
    0x50fa817e926aa3e9a9eea360b45aa8b6,
    0x5b4ca3303d4ff5b04c465323dc913c55,
    0x63f85515b50a9fa104ad3a6832e60ab1,
    0x6b0fd079437e86ef0096b3d13ee7fa8b,
    0x70b56c0549a4e73a2ee01b59a1a3c1f5,
    0x75161194ec207c4e64d7e1fc25e1e09f,
    0x7863d3fecc018a677c94ca5475d5ed4c,
    0x7ad13f5b150f8d7dc4515b79b81abc97,
    0x7c8dc22edf68d56d035f2123d4e1e747,
    0x7dc350afa5a7f44ea732a8dc8b1ce72d,
    0x7e95304b8c002941bb4938944f5da5a6,
    0x7f1fb73c488819a56a1ea44f9f0b891d,
    0x7f78bb873e314c975f77b00b2b72028f,
    0x7fb06be3785d868de5eb67fbfdfd1703,
    0x7fd256ccb4799751f4b7894f1975e7b5,
    0x7fe673503111ef2c54f79b1f23b53a72,
    0x7ff20f60a68437a17444b491f1ad4255,
    0x7ff895ad53886fff72b93078dc9521c4,
    0x7ffc278f3af23423a65e083bb617cf21,
    0x7ffe0e5ac1874a835da5f46bf0742919,
    0x7fff0acbed961d26157ebe1621b8ea0f,
    0x7fff8a3eedc4d8e335e6bc3199def7e8,
    0x7fffc8e38878affe4779f6f31dc9ca29,
    0x7fffe6dd47c9f690bf6b164f6c747a82,
    0x7ffff4d42b07aafb17bd5127e85568ff,
    0x7ffffb2984f63fe697124d4944ee187c,
    0x7ffffdf56b11b93786f8229ff06e794c,
    0x7fffff2928e33e63fb286b674d065703,
    0x7fffffa9f2fb607d32661fe665d2a992,
    0x7fffffde6c04bf1617ca60db01d190f2,
    0x7ffffff33c4f88c11815c05170c872ae,
    0x7ffffffb45ea048feb3df4eed53315e2,
    0x7ffffffe4b79e6b158c1c76a9e4ccbd3,
    0x7fffffff669b9ba1a8cdf05a243479bd,
    0x7fffffffcb7f0ec93b9c24d3f3bf6003,
    0x7fffffffee7ec73cc21d4da15ec853db,
    0x7ffffffffa50c432c264ad5d1e1ad516,
    0x7ffffffffe33b68b0e9ba2c0dcbebac9,
    0x7fffffffff72334e8ad22c6598bac9d9,
    0x7fffffffffd5741ec6e3c7be961dde25,
    0x7ffffffffff391176ad07bc871cae196,
    0x7ffffffffffc761e79b41e16bd069216,
    0x7fffffffffff04e7eb221d483fad0ef4,
    0x7fffffffffffbc37da7fc391d3b27163,
    0x7fffffffffffee2e36ada83a209d1174,
    0x7ffffffffffffb7012d44bd2671d7528,
    0x7ffffffffffffedccd33f2f070e05821,
    0x7fffffffffffffb94b863102dc1fd64c,
    0x7fffffffffffffef481a8d3af098d1ef,
    0x7ffffffffffffffc2681a574706dfe90,
    0x7fffffffffffffff2305e7c3a8bec3d8,
    0x7fffffffffffffffcfbfb0a5cc9038f1,
    0x7ffffffffffffffff5bd8649f934b5f4,
    0x7ffffffffffffffffde02d0faaa3cbc7,
    0x7fffffffffffffffff925a32e696472a,
    0x7fffffffffffffffffea78f88f976759,
    0x7ffffffffffffffffffbe266eb587efc,
    0x7fffffffffffffffffff3bdc9020ceae,
    0x7fffffffffffffffffffdc7215c70916,
    0x7ffffffffffffffffffff9b96ba476d2,
    0x7ffffffffffffffffffffeebdf9c4c07,
    0x7fffffffffffffffffffffd1c9ebb153,
    0x7ffffffffffffffffffffff878376ce5,
    0x7ffffffffffffffffffffffece1d9689,
    0x7fffffffffffffffffffffffd0bdc05e,
    0x7ffffffffffffffffffffffff8e3fff9,
    0x7ffffffffffffffffffffffffef5694f,
    0x7fffffffffffffffffffffffffd9fa7c,
    0x7ffffffffffffffffffffffffffab85a,
    0x7fffffffffffffffffffffffffff4947,
    0x7fffffffffffffffffffffffffffe7fc,
    0x7ffffffffffffffffffffffffffffcf6,
    0x7fffffffffffffffffffffffffffffa9,
];

/// One uniform polynomial: 256 accepted little-endian words, each reduced mod q in constant
/// time (whether a word is rejected does not depend on the residue it would give).
pub(crate) fn uniform_poly(stream: &mut impl XofReader, out: &mut [u64; N]) {
    let mut filled = 0;
    let mut word = [0u8; 8];
    while filled < N {
        stream.read(&mut word);
        let w = u64::from_le_bytes(word);
        // The verdict alone is public: a rejected word says nothing of the accepted ones.
        if crate::ct::public(w < UNIFORM_LIMIT) {
            out[filled] = reduce(w);
            filled += 1;
        }
    }
}

/// One D_{Z,σ_E} sample from 16 stream bytes as words (w0, w1): r = ((w0 >> 1) << 64) | w1
/// (127 bits) is compared with all 78 table entries (no early exit, no branch), and bit 0 of
/// w0 is the sign.
// Exact: the count is at most 78.
#[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
pub(crate) fn cdt_sample(w0: u64, w1: u64) -> i64 {
    let r = (u128::from(w0 >> 1) << 64) | u128::from(w1);
    let mut magnitude = 0u64;
    for t in CDT {
        // r, t < 2^127: r − t borrows (sets bit 127) exactly when r < t.
        magnitude += 1 - (r.wrapping_sub(t) >> 127) as u64;
    }
    let negative = 0u64.wrapping_sub(w0 & 1);
    let m = magnitude as i64;
    // −m when the sign bit is set, by a mask (zero stays zero).
    (m ^ negative as i64) - (negative as i64)
}

/// Samples per batch of [`cdt_batch`].
const BATCH: usize = 64;

/// [`cdt_sample`] on many samples at once: `out[i]` from stream bytes `16i..16i + 16` (w0 then
/// w1, little-endian), the same values, with the table scan laid out across a batch in 64-bit
/// lanes (the borrow of the low word by bit logic, no u128, no branch) so that the compiler
/// vectorises it. `out.len()` is a multiple of 64 and `bytes` holds 16 bytes per sample.
///
/// On x86-64 with `std` the same code is also compiled for AVX-512F and for AVX2 and chosen at
/// run time (eight or four 64-bit lanes instead of SSE2's two): it is most of round 1's and
/// round 2's time. Every version computes the same values with the same data-independent
/// operations.
pub(crate) fn cdt_batch(bytes: &[u8], out: &mut [i64]) {
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    {
        use crate::hash::keccak_x4::{x86_width, X86Width};
        match x86_width() {
            X86Width::Avx512 => return wide::cdt_batch_avx512(bytes, out),
            X86Width::Avx2 => return wide::cdt_batch_avx2(bytes, out),
            X86Width::None => {}
        }
    }
    cdt_batch_lanes(bytes, out);
}

/// [`cdt_batch`] compiled for wider vectors. One of the crate's few uses of `unsafe` (with
/// `hash::keccak_x4`, `hash::keccak_x2` and `ct`): calling a `#[target_feature]` function once
/// the feature was detected.
#[cfg(all(target_arch = "x86_64", feature = "std"))]
#[allow(unsafe_code)]
pub(super) mod wide {
    /// With AVX-512F and AVX-512VL.
    pub(in crate::corona) fn cdt_batch_avx512(bytes: &[u8], out: &mut [i64]) {
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        fn scan(bytes: &[u8], out: &mut [i64]) {
            super::cdt_batch_lanes(bytes, out);
        }
        // SAFETY: the caller found AVX2, AVX-512F and AVX-512VL (`keccak_x4::x86_width`).
        unsafe { scan(bytes, out) }
    }

    /// With AVX2.
    pub(in crate::corona) fn cdt_batch_avx2(bytes: &[u8], out: &mut [i64]) {
        #[target_feature(enable = "avx2")]
        fn scan(bytes: &[u8], out: &mut [i64]) {
            super::cdt_batch_lanes(bytes, out);
        }
        // SAFETY: the caller found AVX2 (`keccak_x4::x86_width`).
        unsafe { scan(bytes, out) }
    }
}

/// The table scan of [`cdt_batch`], inlined into each target-feature version.
// Exact: the count is at most 78; the table entries split into their 64-bit halves.
#[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
#[inline(always)]
pub(super) fn cdt_batch_lanes(bytes: &[u8], out: &mut [i64]) {
    let mut hi = [0u64; BATCH];
    let mut lo = [0u64; BATCH];
    let mut sign = [0u64; BATCH];
    let mut magnitude = [0u64; BATCH];
    for (bytes, out) in bytes.chunks_exact(16 * BATCH).zip(out.chunks_exact_mut(BATCH)) {
        for (i, w) in bytes.chunks_exact(16).enumerate() {
            let mut b = [0u8; 8];
            b.copy_from_slice(&w[..8]);
            let w0 = u64::from_le_bytes(b);
            b.copy_from_slice(&w[8..]);
            hi[i] = w0 >> 1;
            lo[i] = u64::from_le_bytes(b);
            sign[i] = w0 & 1;
        }
        magnitude.fill(0);
        for t in CDT {
            let (t_hi, t_lo) = ((t >> 64) as u64, t as u64);
            for ((m, &h), &l) in magnitude.iter_mut().zip(&hi).zip(&lo) {
                // The borrow out of l − t_lo, then r < t exactly when h − t_hi − borrow < 0
                // (h, t_hi < 2^63).
                let borrow = ((!l & t_lo) | (!(l ^ t_lo) & l.wrapping_sub(t_lo))) >> 63;
                *m += 1 ^ (h.wrapping_sub(t_hi).wrapping_sub(borrow) >> 63);
            }
        }
        for ((o, &m), &sg) in out.iter_mut().zip(&magnitude).zip(&sign) {
            let negative = 0u64.wrapping_sub(sg) as i64;
            *o = (m as i64 ^ negative) - negative;
        }
    }
    hi.zeroize();
    lo.zeroize();
    sign.zeroize();
    magnitude.zeroize();
}

/// The convolution tree bottom-up over one output's 32 base samples, in stream order (the
/// same value as the spec's depth-first reading); `leaves` is overwritten.
pub(crate) fn tree_combine(leaves: &mut [i64], z: &[i64; 5]) -> i64 {
    let mut len = leaves.len();
    for &zl in z {
        len /= 2;
        for i in 0..len {
            leaves[i] = zl * leaves[2 * i] + (zl - 1) * leaves[2 * i + 1];
        }
    }
    leaves[0]
}

/// 256 D_{Z,σ_E} samples, coefficient 0 first.
pub(crate) fn gaussian_poly(stream: &mut impl XofReader, out: &mut [i64; N]) {
    let (mut w0, mut w1) = ([0u8; 8], [0u8; 8]);
    for x in out.iter_mut() {
        stream.read(&mut w0);
        stream.read(&mut w1);
        *x = cdt_sample(u64::from_le_bytes(w0), u64::from_le_bytes(w1));
    }
}

/// One sample of the wide Gaussians (σ*, σ_u; spec §5.3) by the convolution tree: level ℓ
/// combines two level-(ℓ − 1) samples read depth-first as z_ℓ·X_a + (z_ℓ − 1)·X_b, level 0
/// is one [`cdt_sample`]; five levels, 32 base samples (512 stream bytes). Constant flow.
#[cfg(test)]
pub(crate) fn wide_sample(stream: &mut impl XofReader, z: &[i64; 5]) -> i64 {
    tree(stream, z, z.len())
}

/// Level `depth` of the convolution tree, depth-first (the spec's reading; the reference
/// [`tree_combine`] is tested against).
#[cfg(test)]
fn tree(stream: &mut impl XofReader, z: &[i64], depth: usize) -> i64 {
    if depth == 0 {
        let (mut w0, mut w1) = ([0u8; 8], [0u8; 8]);
        stream.read(&mut w0);
        stream.read(&mut w1);
        return cdt_sample(u64::from_le_bytes(w0), u64::from_le_bytes(w1));
    }
    let a = tree(stream, z, depth - 1);
    let b = tree(stream, z, depth - 1);
    z[depth - 1] * a + (z[depth - 1] - 1) * b
}

/// The convolution steps of σ* (realized σ 172852668249.176, 1 + 2.1·10^−9 of the target).
pub(crate) const Z_SIGMA_STAR: [i64; 5] = [2, 4, 22, 644, 64_664];
/// The convolution steps of σ_u (realized σ 163961916.330, 1 + 3.6·10^−6 of the target).
pub(crate) const Z_SIGMA_U: [i64; 5] = [2, 4, 22, 15, 2721];

/// SampleInBall with κ = 23 (spec §5.4, FIPS 204's algorithm): 8 stream bytes of signs, then
/// for i = 233..255 a byte j ≤ i (bytes above i skipped), c[i] = c[j], c[j] = ±1. The result
/// has exactly 23 coefficients ±1 (as residues 1 and q − 1). c̃ is public: variable time.
pub(crate) fn sample_in_ball(stream: &mut impl XofReader) -> [u64; N] {
    let mut c = [0u64; N];
    let mut signs_bytes = [0u8; 8];
    stream.read(&mut signs_bytes);
    let mut signs = u64::from_le_bytes(signs_bytes);
    for i in (N - super::params::KAPPA)..N {
        let j = loop {
            let mut b = [0u8; 1];
            stream.read(&mut b);
            if usize::from(b[0]) <= i {
                break usize::from(b[0]);
            }
        };
        c[i] = c[j];
        c[j] = if signs & 1 == 0 { 1 } else { Q - 1 };
        signs >>= 1;
    }
    c
}

/// Round_ξ (public key): ((x + 2^29) >> 30) mod 2^18, for x < q (spec §4.1: reduced after the
/// shift, where the reference's missing reduction rejects 0.2 % of valid signatures).
pub(crate) fn round_xi(x: u64) -> u32 {
    // Exact: masked to 18 bits.
    #[allow(clippy::cast_possible_truncation)]
    let r = (((x + (1 << 29)) >> 30) & ((1 << 18) - 1)) as u32;
    r
}

/// Round_ν (commitments): ((x + 2^28) >> 29) mod 2^19, for x < q.
pub(crate) fn round_nu(x: u64) -> u32 {
    // Exact: masked to 19 bits.
    #[allow(clippy::cast_possible_truncation)]
    let r = (((x + (1 << 28)) >> 29) & ((1 << 19) - 1)) as u32;
    r
}
