//! The reference's `MAGS` (signature) and `MAGG` (public key) envelopes: the 11-byte frame
//! of [`wire::frame`] around stock FIPS 205 bytes.

use alloc::vec::Vec;

use super::{Error, Mode};
use crate::slhdsa;
use crate::wire;

/// Magic of a signature envelope.
pub const SIGNATURE_MAGIC: [u8; 4] = *b"MAGS";
/// Magic of a public-key envelope.
pub const PUBLIC_KEY_MAGIC: [u8; 4] = *b"MAGG";
/// The only envelope version ([`wire::frame::VERSION`]). A new mode does not change it.
pub const VERSION: u16 = wire::frame::VERSION;
/// Header bytes: magic 4, version 2, mode 1, length 4 ([`wire::frame::HEADER_LEN`]).
pub const HEADER_LEN: usize = wire::frame::HEADER_LEN;

fn encode(magic: &[u8; 4], mode: Mode, body: &[u8]) -> Vec<u8> {
    wire::frame::encode(magic, mode.to_byte(), body)
}

/// The reference's decode order ([`wire::frame::decode`]).
fn decode<'a>(
    magic: &[u8; 4],
    bytes: &'a [u8],
    len_of: fn(Mode) -> usize,
) -> Result<(Mode, &'a [u8]), wire::Error> {
    wire::frame::decode(magic, bytes, Mode::from_byte, len_of)
}

fn check_len(what: &'static str, expected: usize, got: usize) -> Result<(), Error> {
    if expected == got {
        Ok(())
    } else {
        Err(Error::SlhDsa(slhdsa::Error::InvalidLength {
            what,
            expected,
            got,
        }))
    }
}

/// A FIPS 205 signature in a `MAGS` envelope, borrowed from the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignatureFrame<'a> {
    /// The parameter set.
    pub mode: Mode,
    /// The FIPS 205 signature (exactly `mode.signature_len()` bytes).
    pub signature: &'a [u8],
}

impl<'a> SignatureFrame<'a> {
    /// Wraps a raw FIPS 205 signature of `mode` in a `MAGS` envelope.
    ///
    /// # Errors
    /// `INVALID_LENGTH` ([`slhdsa::Error::InvalidLength`]) for a signature of another size.
    pub fn encode(mode: Mode, signature: &[u8]) -> Result<Vec<u8>, Error> {
        check_len("signature", mode.signature_len(), signature.len())?;
        Ok(encode(&SIGNATURE_MAGIC, mode, signature))
    }

    /// Reads a `MAGS` envelope without copying.
    ///
    /// # Errors
    /// [`wire::Error`]: `TooShort`, `BadMagic`, `BadVersion`, `UnknownMode`,
    /// `LengthMismatch`, `TrailingBytes` (in the reference's order of checks).
    pub fn decode(bytes: &'a [u8]) -> Result<Self, wire::Error> {
        let (mode, signature) = decode(&SIGNATURE_MAGIC, bytes, Mode::signature_len)?;
        Ok(SignatureFrame { mode, signature })
    }

    /// The envelope again (`HEADER_LEN + signature.len()` bytes).
    pub fn to_bytes(&self) -> Vec<u8> {
        encode(&SIGNATURE_MAGIC, self.mode, self.signature)
    }
}

/// A FIPS 205 public key (PK.seed ‖ PK.root) in a `MAGG` envelope, borrowed from the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PublicKeyFrame<'a> {
    /// The parameter set.
    pub mode: Mode,
    /// The FIPS 205 public key (exactly `mode.public_key_len()` bytes).
    pub public_key: &'a [u8],
}

impl<'a> PublicKeyFrame<'a> {
    /// Wraps a raw FIPS 205 public key of `mode` in a `MAGG` envelope.
    ///
    /// # Errors
    /// `INVALID_LENGTH` for a key of another size.
    pub fn encode(mode: Mode, public_key: &[u8]) -> Result<Vec<u8>, Error> {
        check_len("public key", mode.public_key_len(), public_key.len())?;
        Ok(encode(&PUBLIC_KEY_MAGIC, mode, public_key))
    }

    /// Reads a `MAGG` envelope without copying.
    ///
    /// # Errors
    /// As [`SignatureFrame::decode`].
    pub fn decode(bytes: &'a [u8]) -> Result<Self, wire::Error> {
        let (mode, public_key) = decode(&PUBLIC_KEY_MAGIC, bytes, Mode::public_key_len)?;
        Ok(PublicKeyFrame { mode, public_key })
    }

    /// The envelope again.
    pub fn to_bytes(&self) -> Vec<u8> {
        encode(&PUBLIC_KEY_MAGIC, self.mode, self.public_key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_the_reference_bytes() {
        let sig = alloc::vec![7u8; Mode::Shake192s.signature_len()];
        let f = SignatureFrame::encode(Mode::Shake192s, &sig).unwrap();
        assert_eq!(
            f[..HEADER_LEN],
            [0x4D, 0x41, 0x47, 0x53, 0, 1, 1, 0, 0, 0x3F, 0x60]
        );
        let pk = [9u8; 64];
        let g = PublicKeyFrame::encode(Mode::Shake256s, &pk).unwrap();
        assert_eq!(g[..HEADER_LEN], [0x4D, 0x41, 0x47, 0x47, 0, 1, 3, 0, 0, 0, 0x40]);
        assert_eq!(PublicKeyFrame::decode(&g).unwrap().public_key, &pk);
    }

    #[test]
    fn decode_order_is_the_reference_order() {
        // Under 11 bytes is short even when the magic is already wrong.
        assert!(matches!(
            SignatureFrame::decode(b"XXXX\0\x01\x01"),
            Err(wire::Error::TooShort { needed: 11, got: 7 })
        ));
        let pk = [1u8; 48];
        let g = PublicKeyFrame::encode(Mode::Shake192f, &pk).unwrap();
        // A wrong length is reported before the body is looked for.
        let mut bad = g[..HEADER_LEN].to_vec();
        bad[10] = 47;
        assert_eq!(
            PublicKeyFrame::decode(&bad),
            Err(wire::Error::LengthMismatch {
                expected: 48,
                got: 47
            })
        );
        assert!(matches!(
            PublicKeyFrame::decode(&g[..HEADER_LEN + 47]),
            Err(wire::Error::TooShort { .. })
        ));
        let mut bad = g.clone();
        bad[6] = 0;
        assert_eq!(PublicKeyFrame::decode(&bad), Err(wire::Error::UnknownMode(0)));
        bad[6] = 4;
        assert_eq!(PublicKeyFrame::decode(&bad), Err(wire::Error::UnknownMode(4)));
    }
}
