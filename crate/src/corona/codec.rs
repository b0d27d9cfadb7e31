//! Coefficient codecs (spec §7.1): values packed LSB-first into one bit stream, coefficient 0
//! first (FIPS 204's SimpleBitPack), polynomials concatenated.

use alloc::vec::Vec;

use super::params::N;

/// Packs `values` of `bits` bits each (the caller keeps them in range).
pub(crate) fn pack(values: impl IntoIterator<Item = u64>, bits: u32, out: &mut Vec<u8>) {
    let mut acc: u128 = 0;
    let mut filled = 0u32;
    for v in values {
        acc |= u128::from(v & ((1u64 << bits) - 1)) << filled;
        filled += bits;
        while filled >= 8 {
            // Exact: the low byte.
            #[allow(clippy::cast_possible_truncation)]
            out.push(acc as u8);
            acc >>= 8;
            filled -= 8;
        }
    }
    if filled > 0 {
        #[allow(clippy::cast_possible_truncation)]
        out.push(acc as u8);
    }
}

/// Unpacks 256·`polys` values of `bits` bits (≤ 57) from exactly 32·`bits`·`polys` bytes:
/// each value from one unaligned little-endian 64-bit window (its bits start within the
/// window's first byte and end within its eighth).
pub(crate) fn unpack(bytes: &[u8], bits: u32, polys: usize) -> Option<Vec<[u64; N]>> {
    if bytes.len() != 32 * bits as usize * polys || bits > 57 {
        return None;
    }
    let mask = (1u64 << bits) - 1;
    let mut out = alloc::vec![[0u64; N]; polys];
    let mut bit = 0usize;
    for c in out.iter_mut().flat_map(|p| p.iter_mut()) {
        let at = bit / 8;
        // A fixed-size window where eight bytes remain (no call per value); the last few
        // values read a zero-padded one.
        let window: [u8; 8] = match bytes.get(at..at + 8) {
            Some(w) => w.try_into().unwrap_or([0; 8]),
            None => {
                let mut w = [0u8; 8];
                w[..bytes.len() - at].copy_from_slice(&bytes[at..]);
                w
            }
        };
        *c = (u64::from_le_bytes(window) >> (bit % 8)) & mask;
        bit += bits as usize;
    }
    Some(out)
}
