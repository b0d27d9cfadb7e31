//! Byte encodings (FIPS 204 §7.1–7.2, Alg. 16–28).
//!
//! Decoders take slices whose lengths the caller has already checked against the
//! parameter set; they never index past them.

use super::params::Params;
use super::poly::{Poly, PolyVec, N};
use super::rounding::D;

/// Packs 256 values, each already in [0, 2^bits), little-endian bit order
/// (FIPS 204 Alg. 16 SimpleBitPack after the caller's offset). `out` holds 32·bits bytes.
///
/// The widths of the parameter sets go through [`pack_fixed`], whose loops unroll for a
/// constant width (`bits` is a constant after inlining, so the match folds away); not in
/// the light build, whose module size budget has no room for the copies.
#[inline]
pub(super) fn pack_bits(vals: &[i32; N], bits: usize, out: &mut [u8]) {
    #[cfg(not(feature = "light"))]
    match bits {
        3 => return pack_fixed::<3>(vals, out),
        4 => return pack_fixed::<4>(vals, out),
        6 => return pack_fixed::<6>(vals, out),
        10 => return pack_fixed::<10>(vals, out),
        13 => return pack_fixed::<13>(vals, out),
        18 => return pack_fixed::<18>(vals, out),
        20 => return pack_fixed::<20>(vals, out),
        _ => {}
    }
    pack_bits_any(vals, bits, out);
}

/// Unpacks 256 values of `bits` bits each (FIPS 204 Alg. 18 SimpleBitUnpack), through
/// [`unpack_fixed`] for the parameter sets' widths as [`pack_bits`] does.
#[inline]
pub(super) fn unpack_bits(bytes: &[u8], bits: usize) -> [i32; N] {
    #[cfg(not(feature = "light"))]
    match bits {
        3 => return unpack_fixed::<3>(bytes),
        4 => return unpack_fixed::<4>(bytes),
        6 => return unpack_fixed::<6>(bytes),
        10 => return unpack_fixed::<10>(bytes),
        13 => return unpack_fixed::<13>(bytes),
        18 => return unpack_fixed::<18>(bytes),
        20 => return unpack_fixed::<20>(bytes),
        _ => {}
    }
    unpack_bits_any(bytes, bits)
}

/// [`pack_bits`] for a width B ≤ 24 known at compile time: eight values (B bytes) a group,
/// gathered in three 64-bit words.
// Each value is in [0, 2^B) (non-negative); bytes are taken from the words.
#[cfg(any(not(feature = "light"), test))]
#[allow(clippy::cast_sign_loss)]
fn pack_fixed<const B: usize>(vals: &[i32; N], out: &mut [u8]) {
    debug_assert_eq!(out.len(), 32 * B);
    for (group, chunk) in vals.chunks_exact(8).zip(out.chunks_exact_mut(B)) {
        let mut words = [0u64; 3];
        for (j, &v) in group.iter().enumerate() {
            let (at, v) = (B * j, u64::from(v as u32));
            words[at / 64] |= v << (at % 64);
            if at % 64 + B > 64 {
                words[at / 64 + 1] |= v >> (64 - at % 64);
            }
        }
        let mut bytes = [0u8; 24];
        for (b, w) in bytes.chunks_exact_mut(8).zip(words) {
            b.copy_from_slice(&w.to_le_bytes());
        }
        chunk.copy_from_slice(&bytes[..B]);
    }
}

/// [`unpack_bits`] for a width B ≤ 24 known at compile time: eight values (B bytes) a group,
/// each from the four bytes at its first bit.
// Exact: masked to B ≤ 24 bits.
#[cfg(any(not(feature = "light"), test))]
#[allow(clippy::cast_possible_wrap)]
fn unpack_fixed<const B: usize>(bytes: &[u8]) -> [i32; N] {
    debug_assert_eq!(bytes.len(), 32 * B);
    let mask = (1u32 << B) - 1;
    let mut out = [0i32; N];
    for (chunk, group) in bytes.chunks_exact(B).zip(out.chunks_exact_mut(8)) {
        // B bits from bit B·j lie within the four bytes from byte ⌊B·j / 8⌋ < 21 + 3.
        let mut b = [0u8; 27];
        b[..B].copy_from_slice(chunk);
        for (j, v) in group.iter_mut().enumerate() {
            let at = B * j;
            let word = u32::from_le_bytes([b[at / 8], b[at / 8 + 1], b[at / 8 + 2], b[at / 8 + 3]]);
            *v = ((word >> (at % 8)) & mask) as i32;
        }
    }
    out
}

/// Packs 256 values, each already in [0, 2^bits), little-endian bit order
/// (FIPS 204 Alg. 16 SimpleBitPack after the caller's offset). `out` holds 32·bits bytes.
// Each value is in [0, 2^bits) (non-negative), and `acc as u8` keeps its low byte on purpose.
#[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation)]
fn pack_bits_any(vals: &[i32; N], bits: usize, out: &mut [u8]) {
    debug_assert_eq!(out.len(), 32 * bits);
    let mut acc: u64 = 0;
    let mut filled = 0;
    let mut pos = 0;
    for &v in vals.iter() {
        acc |= (v as u64) << filled;
        filled += bits;
        while filled >= 8 {
            out[pos] = acc as u8;
            pos += 1;
            acc >>= 8;
            filled -= 8;
        }
    }
}

/// Unpacks 256 values of `bits` bits each (FIPS 204 Alg. 18 SimpleBitUnpack).
// Exact: `acc & mask` has at most `bits` ≤ 20 bits.
#[allow(clippy::cast_possible_truncation)]
fn unpack_bits_any(bytes: &[u8], bits: usize) -> [i32; N] {
    debug_assert_eq!(bytes.len(), 32 * bits);
    let mask = (1u64 << bits) - 1;
    let mut out = [0i32; N];
    let mut acc: u64 = 0;
    let mut filled = 0;
    let mut it = bytes.iter();
    for o in out.iter_mut() {
        while filled < bits {
            // Length checked by the caller: exactly 32·bits bytes for 256 values.
            acc |= u64::from(*it.next().unwrap_or(&0)) << filled;
            filled += 8;
        }
        *o = (acc & mask) as i32;
        acc >>= bits;
        filled -= bits;
    }
    out
}

/// FIPS 204 Alg. 17 BitPack(w, a, b) for coefficients in [−a, b]: stores b − w.
pub(super) fn pack_offset(p: &Poly, b: i32, bits: usize, out: &mut [u8]) {
    let mut vals = [0i32; N];
    for (v, &c) in vals.iter_mut().zip(p.0.iter()) {
        *v = b - c;
    }
    pack_bits(&vals, bits, out);
}

/// FIPS 204 Alg. 19 BitUnpack: returns b − v for each packed value v.
pub(super) fn unpack_offset(bytes: &[u8], b: i32, bits: usize) -> Poly {
    let mut p = Poly(unpack_bits(bytes, bits));
    for c in p.0.iter_mut() {
        *c = b - *c;
    }
    p
}

/// FIPS 204 Alg. 34 step 4: BitUnpack(v, γ1 − 1, γ1) of one ExpandMask output.
pub(super) fn unpack_mask<P: Params>(bytes: &[u8]) -> Poly {
    unpack_offset(bytes, P::GAMMA1, P::Z_BITS)
}

/// FIPS 204 Alg. 22 pkEncode.
pub(super) fn pk_encode<P: Params>(rho: &[u8; 32], t1: &PolyVec, out: &mut [u8]) {
    out[..32].copy_from_slice(rho);
    for (i, chunk) in out[32..P::PK_LEN].chunks_exact_mut(320).enumerate() {
        pack_bits(&t1[i].0, 10, chunk);
    }
}

/// FIPS 204 Alg. 23 pkDecode. `pk` has exactly `P::PK_LEN` bytes.
pub(super) fn pk_decode<P: Params>(pk: &[u8]) -> ([u8; 32], PolyVec) {
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&pk[..32]);
    let mut t1 = super::poly::zero_vec();
    for (i, chunk) in pk[32..].chunks_exact(320).enumerate().take(P::K) {
        t1[i] = Poly(unpack_bits(chunk, 10));
    }
    (rho, t1)
}

/// The parts of a decoded secret key.
pub(super) struct SecretParts {
    pub rho: [u8; 32],
    pub key: [u8; 32],
    pub tr: [u8; 64],
    pub s1: PolyVec,
    pub s2: PolyVec,
    pub t0: PolyVec,
}

impl zeroize::Zeroize for SecretParts {
    fn zeroize(&mut self) {
        self.key[..].zeroize();
        self.s1.zeroize();
        self.s2.zeroize();
        self.t0.zeroize();
    }
}

impl Drop for SecretParts {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(self);
    }
}

/// FIPS 204 Alg. 24 skEncode.
pub(super) fn sk_encode<P: Params>(sk: &SecretParts, out: &mut [u8]) {
    out[..32].copy_from_slice(&sk.rho);
    out[32..64].copy_from_slice(&sk.key);
    out[64..128].copy_from_slice(&sk.tr);
    let eta_len = 32 * P::ETA_BITS;
    let mut rest = &mut out[128..P::SK_LEN];
    for p in sk.s1[..P::L].iter().chain(sk.s2[..P::K].iter()) {
        let (chunk, tail) = rest.split_at_mut(eta_len);
        pack_offset(p, P::ETA, P::ETA_BITS, chunk);
        rest = tail;
    }
    for p in sk.t0[..P::K].iter() {
        let (chunk, tail) = rest.split_at_mut(32 * D as usize);
        pack_offset(p, 1 << (D - 1), D as usize, chunk);
        rest = tail;
    }
}

/// FIPS 204 Alg. 25 skDecode. `sk` has exactly `P::SK_LEN` bytes. Returns `None` when
/// a coefficient of s1 or s2 lies outside [−η, η] (not producible by KeyGen); the check
/// scans every coefficient and branches once, on the result.
pub(super) fn sk_decode<P: Params>(sk: &[u8]) -> Option<SecretParts> {
    let mut parts = SecretParts {
        rho: [0; 32],
        key: [0; 32],
        tr: [0; 64],
        s1: super::poly::zero_vec(),
        s2: super::poly::zero_vec(),
        t0: super::poly::zero_vec(),
    };
    parts.rho.copy_from_slice(&sk[..32]);
    // Public: ρ is also the first field of the public key; ExpandA branches on its stream.
    crate::ct::public_slice(&parts.rho);
    parts.key.copy_from_slice(&sk[32..64]);
    parts.tr.copy_from_slice(&sk[64..128]);
    let eta_len = 32 * P::ETA_BITS;
    let mut chunks = sk[128..].chunks_exact(eta_len);
    let mut bad = 0i32;
    for i in 0..P::L + P::K {
        let chunk = chunks.next()?;
        let p = unpack_offset(chunk, P::ETA, P::ETA_BITS);
        for &c in p.0.iter() {
            // c < −η sets the sign bit (η − c encodings above 2η).
            bad |= c + P::ETA;
        }
        if i < P::L {
            parts.s1[i] = p;
        } else {
            parts.s2[i - P::L] = p;
        }
    }
    let t0_start = 128 + (P::L + P::K) * eta_len;
    for (i, chunk) in sk[t0_start..]
        .chunks_exact(32 * D as usize)
        .enumerate()
        .take(P::K)
    {
        parts.t0[i] = unpack_offset(chunk, 1 << (D - 1), D as usize);
    }
    // Public: whether the key is well formed is what skDecode reports to the caller.
    if crate::ct::public(bad < 0) {
        None
    } else {
        Some(parts)
    }
}

/// FIPS 204 Alg. 28 w1Encode, one polynomial at a time.
pub(super) fn w1_encode_poly<P: Params>(w1: &Poly, out: &mut [u8]) {
    pack_bits(&w1.0, P::W1_BITS, &mut out[..32 * P::W1_BITS]);
}

/// FIPS 204 Alg. 26 sigEncode: c̃ ‖ BitPack(z, γ1 − 1, γ1) ‖ HintBitPack(h).
/// `h` holds 0/1 coefficients with at most ω ones in all.
// Exact: a coefficient index j < 256 and the hint count index ≤ ω ≤ 75 fit in a byte.
#[allow(clippy::cast_possible_truncation)]
pub(super) fn sig_encode<P: Params>(c_tilde: &[u8], z: &PolyVec, h: &PolyVec, out: &mut [u8]) {
    out[..P::C_TILDE_LEN].copy_from_slice(c_tilde);
    let z_len = 32 * P::Z_BITS;
    let mut off = P::C_TILDE_LEN;
    for p in z[..P::L].iter() {
        pack_offset(p, P::GAMMA1, P::Z_BITS, &mut out[off..off + z_len]);
        off += z_len;
    }
    // FIPS 204 Alg. 20 HintBitPack.
    let y = &mut out[off..off + P::OMEGA + P::K];
    y.fill(0);
    let mut index = 0;
    for (i, p) in h[..P::K].iter().enumerate() {
        for (j, &c) in p.0.iter().enumerate() {
            if c != 0 {
                y[index] = j as u8;
                index += 1;
            }
        }
        y[P::OMEGA + i] = index as u8;
    }
}

/// A decoded signature: c̃, z and the hint as booleans.
pub(super) struct SigParts {
    pub z: PolyVec,
    pub h: [[bool; N]; super::poly::MAX_K],
}

/// FIPS 204 Alg. 27 sigDecode with Alg. 21 HintBitUnpack. `sig` has exactly
/// `P::SIG_LEN` bytes. Returns `None` (⊥) for a malformed hint: a count decreasing or
/// above ω, indices not strictly increasing within a row, or non-zero padding.
/// (c̃ is read by the caller from the first `P::C_TILDE_LEN` bytes.)
pub(super) fn sig_decode<P: Params>(sig: &[u8]) -> Option<SigParts> {
    let mut parts = SigParts {
        z: super::poly::zero_vec(),
        h: [[false; N]; super::poly::MAX_K],
    };
    let z_len = 32 * P::Z_BITS;
    let z_bytes = &sig[P::C_TILDE_LEN..P::C_TILDE_LEN + P::L * z_len];
    for (i, chunk) in z_bytes.chunks_exact(z_len).enumerate() {
        parts.z[i] = unpack_offset(chunk, P::GAMMA1, P::Z_BITS);
    }
    let y = &sig[P::C_TILDE_LEN + P::L * z_len..];
    let mut index = 0usize;
    for i in 0..P::K {
        let end = usize::from(y[P::OMEGA + i]);
        if end < index || end > P::OMEGA {
            return None;
        }
        let first = index;
        while index < end {
            if index > first && y[index - 1] >= y[index] {
                return None;
            }
            parts.h[i][usize::from(y[index])] = true;
            index += 1;
        }
    }
    if y[index..P::OMEGA].iter().any(|&b| b != 0) {
        return None;
    }
    Some(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every width of the parameter sets, and 23 (threshold reveals): the fixed-width code
    /// gives the bytes and values of the generic loop, on random values and the extremes.
    #[test]
    // Test data: the casts keep chosen bits.
    #[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
    fn fixed_widths_match_the_generic_loop() {
        fn check<const B: usize>(seed: u64) {
            let mut x = seed | 1;
            let mut next = move || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            };
            let max = (1i32 << B) - 1;
            let mut cases: Vec<[i32; N]> = vec![
                [0; N],
                [max; N],
                core::array::from_fn(|i| if i % 2 == 0 { max } else { 0 }),
            ];
            for _ in 0..50 {
                cases.push(core::array::from_fn(|_| (next() as i32) & max));
            }
            for vals in &cases {
                let (mut a, mut b) = (vec![0u8; 32 * B], vec![0u8; 32 * B]);
                pack_fixed::<B>(vals, &mut a);
                pack_bits_any(vals, B, &mut b);
                assert_eq!(a, b, "pack, {B} bits");
                let mut c = vec![0u8; 32 * B];
                pack_bits(vals, B, &mut c);
                assert_eq!(c, b, "pack_bits, {B} bits");
                let bytes: Vec<u8> = (0..32 * B).map(|_| next() as u8).collect();
                assert_eq!(
                    unpack_fixed::<B>(&bytes),
                    unpack_bits_any(&bytes, B),
                    "unpack, {B} bits"
                );
                assert_eq!(
                    unpack_bits(&bytes, B),
                    unpack_bits_any(&bytes, B),
                    "unpack_bits, {B} bits"
                );
                assert_eq!(unpack_fixed::<B>(&a), *vals, "round trip, {B} bits");
            }
        }
        check::<3>(1);
        check::<4>(2);
        check::<6>(3);
        check::<10>(4);
        check::<13>(5);
        check::<18>(6);
        check::<20>(7);
        check::<23>(8);
    }

    #[test]
    // Test data: values reduced mod 2^bits ≤ 2^20.
    #[allow(clippy::cast_possible_truncation, clippy::cast_possible_wrap)]
    fn bit_packing_round_trips() {
        for bits in [3usize, 4, 6, 10, 13, 18, 20] {
            let mut vals = [0i32; N];
            for (i, v) in vals.iter_mut().enumerate() {
                *v = ((i as i64 * 2_654_435_761) % (1i64 << bits)) as i32;
            }
            let mut buf = vec![0u8; 32 * bits];
            pack_bits(&vals, bits, &mut buf);
            assert_eq!(unpack_bits(&buf, bits), vals);
        }
    }
}
