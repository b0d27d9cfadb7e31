//! The reference implementation's 11-byte frame around a standard encoding, shared by every
//! framed object: `PULS`/`PULG` (ML-DSA signature and group key, [`crate::pulsar::frame`])
//! and `MAGS`/`MAGG` (SLH-DSA signature and key, [`crate::magnetar::envelope`]).
//!
//! | field | bytes |
//! |---|---|
//! | magic | 4 |
//! | version = [`VERSION`] | 2 (BE) |
//! | mode byte (the scheme's parameter set) | 1 |
//! | length: must equal the mode's size for this object | 4 (BE) |
//! | the standard encoding | length |
//!
//! Decoding checks in the reference's order — the whole header present, magic, version, a
//! known mode, the declared length equal to the mode's size, the body present, nothing after
//! it — and borrows the body.

use alloc::vec::Vec;

use super::{Error, Reader, Writer};

/// The only frame version (a new mode does not change it).
pub const VERSION: u16 = 1;
/// Header bytes: magic 4, version 2, mode 1, length 4.
pub const HEADER_LEN: usize = 11;

/// Frames `body` under `magic` and `mode`. The caller has checked `body`'s length against
/// the mode (every standard size is far below 2^32).
pub fn encode(magic: &[u8; 4], mode: u8, body: &[u8]) -> Vec<u8> {
    let mut w = Writer::with_capacity(HEADER_LEN + body.len());
    w.put(magic).u16(VERSION).u8(mode);
    w.u32(u32::try_from(body.len()).unwrap_or(u32::MAX)).put(body);
    w.into_bytes()
}

/// Decodes a frame of `magic` whose mode byte `mode_of` knows and whose body is exactly
/// `len_of(mode)` bytes; returns the mode and the borrowed body.
///
/// # Errors
/// [`Error::TooShort`], [`Error::BadMagic`], [`Error::BadVersion`], [`Error::UnknownMode`],
/// [`Error::LengthMismatch`], [`Error::TrailingBytes`], in that order of checks.
pub fn decode<'a, M: Copy>(
    magic: &[u8; 4],
    bytes: &'a [u8],
    mode_of: impl Fn(u8) -> Option<M>,
    len_of: impl Fn(M) -> usize,
) -> Result<(M, &'a [u8]), Error> {
    if bytes.len() < HEADER_LEN {
        return Err(Error::TooShort {
            needed: HEADER_LEN,
            got: bytes.len(),
        });
    }
    let mut r = Reader::new(bytes);
    r.header(magic, VERSION)?;
    let mode_byte = r.u8()?;
    let mode = mode_of(mode_byte).ok_or(Error::UnknownMode(mode_byte))?;
    let declared = usize::try_from(r.u32()?).unwrap_or(usize::MAX);
    let expected = len_of(mode);
    if declared != expected {
        return Err(Error::LengthMismatch {
            expected,
            got: declared,
        });
    }
    let body = r.take(expected)?;
    r.finish()?;
    Ok((mode, body))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAGIC: [u8; 4] = *b"TEST";
    fn mode_of(b: u8) -> Option<u8> {
        (b == 7).then_some(b)
    }
    fn len_of(_: u8) -> usize {
        3
    }

    #[test]
    fn frames_round_trip_and_every_deviation_has_its_error() {
        let f = encode(&MAGIC, 7, b"abc");
        assert_eq!(f, [b'T', b'E', b'S', b'T', 0, 1, 7, 0, 0, 0, 3, b'a', b'b', b'c']);
        assert_eq!(decode(&MAGIC, &f, mode_of, len_of), Ok((7, &b"abc"[..])));
        let code = |b: &[u8]| decode(&MAGIC, b, mode_of, len_of).unwrap_err().code();
        // Short before anything else, even with a wrong magic.
        assert_eq!(code(b"XXXX\0\x01\x07"), "TOO_SHORT");
        let with = |at: usize, v: u8| {
            let mut b = f.clone();
            b[at] = v;
            b
        };
        assert_eq!(code(&with(0, b'X')), "BAD_MAGIC");
        assert_eq!(code(&with(5, 2)), "BAD_VERSION");
        assert_eq!(code(&with(6, 8)), "UNKNOWN_MODE");
        assert_eq!(code(&with(10, 4)), "LENGTH_MISMATCH");
        assert_eq!(code(&f[..HEADER_LEN + 2]), "TOO_SHORT");
        let mut long = f.clone();
        long.push(0);
        assert_eq!(code(&long), "TRAILING_BYTES");
    }
}
