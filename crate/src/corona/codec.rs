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

/// Unpacks 256·`polys` values of `bits` bits from exactly 32·`bits`·`polys` bytes.
pub(crate) fn unpack(bytes: &[u8], bits: u32, polys: usize) -> Option<Vec<[u64; N]>> {
    if bytes.len() != 32 * bits as usize * polys {
        return None;
    }
    let mut out = alloc::vec![[0u64; N]; polys];
    let (mut acc, mut filled, mut at) = (0u128, 0u32, 0usize);
    for p in out.iter_mut() {
        for c in p.iter_mut() {
            while filled < bits {
                acc |= u128::from(bytes[at]) << filled;
                at += 1;
                filled += 8;
            }
            // Exact: masked to `bits` ≤ 49 bits.
            #[allow(clippy::cast_possible_truncation)]
            let v = (acc & ((1u128 << bits) - 1)) as u64;
            *c = v;
            acc >>= bits;
            filled -= bits;
        }
    }
    Some(out)
}
