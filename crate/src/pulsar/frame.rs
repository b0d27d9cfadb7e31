//! The reference implementation's frames for ML-DSA signatures and group keys
//! (research/pulsar.md §3), decoded strictly by the one frame codec, [`wire::frame`].
//!
//! | field | bytes |
//! |---|---|
//! | magic `PULS` (signature) or `PULG` (group key) | 4 |
//! | version = 1 | 2 (BE) |
//! | mode: 0x2C ML-DSA-44, 0x41 ML-DSA-65, 0x57 ML-DSA-87 | 1 |
//! | length: must equal the FIPS 204 size for the mode | 4 (BE) |
//! | the FIPS 204 encoding (sigEncode or pkEncode) | length |
//!
//! Anything after the body is rejected.

use alloc::vec::Vec;

use crate::mldsa::{self, Mode};
use crate::wire;

/// Magic of a signature frame.
pub const SIGNATURE_MAGIC: [u8; 4] = *b"PULS";
/// Magic of a group-key frame.
pub const GROUP_KEY_MAGIC: [u8; 4] = *b"PULG";
/// The only frame version ([`wire::frame::VERSION`]).
pub const VERSION: u16 = wire::frame::VERSION;
/// Header length: magic, version, mode, length ([`wire::frame::HEADER_LEN`]).
pub const HEADER_LEN: usize = wire::frame::HEADER_LEN;

fn encode(magic: &[u8; 4], mode: Mode, body: &[u8]) -> Vec<u8> {
    wire::frame::encode(magic, mode.to_byte(), body)
}

fn decode<'a>(
    magic: &[u8; 4],
    bytes: &'a [u8],
    len_of: fn(Mode) -> usize,
) -> Result<(Mode, &'a [u8]), wire::Error> {
    wire::frame::decode(magic, bytes, |b| Mode::from_byte(b).ok(), len_of)
}

/// A FIPS 204 signature in a `PULS` frame, borrowed from the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignatureFrame<'a> {
    /// The parameter set.
    pub mode: Mode,
    /// The FIPS 204 signature bytes (exactly `mode.signature_len()`).
    pub signature: &'a [u8],
}

impl<'a> SignatureFrame<'a> {
    /// Frames `signature` for `mode`.
    ///
    /// # Errors
    /// [`mldsa::Error::InvalidLength`] when the signature has the wrong size for `mode`.
    pub fn encode(mode: Mode, signature: &[u8]) -> Result<Vec<u8>, mldsa::Error> {
        if signature.len() != mode.signature_len() {
            return Err(mldsa::Error::InvalidLength {
                what: "signature",
                expected: mode.signature_len(),
                got: signature.len(),
            });
        }
        Ok(encode(&SIGNATURE_MAGIC, mode, signature))
    }

    /// Decodes a `PULS` frame.
    ///
    /// # Errors
    /// [`wire::Error`]: `TooShort`, `BadMagic`, `BadVersion`, `UnknownMode`,
    /// `LengthMismatch`, `TrailingBytes`.
    pub fn decode(bytes: &'a [u8]) -> Result<Self, wire::Error> {
        let (mode, signature) = decode(&SIGNATURE_MAGIC, bytes, Mode::signature_len)?;
        Ok(SignatureFrame { mode, signature })
    }
}

/// An ML-DSA public key in a `PULG` frame, borrowed from the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupKeyFrame<'a> {
    /// The parameter set.
    pub mode: Mode,
    /// The FIPS 204 public key bytes (exactly `mode.public_key_len()`).
    pub public_key: &'a [u8],
}

impl<'a> GroupKeyFrame<'a> {
    /// Frames `public_key` for `mode`.
    ///
    /// # Errors
    /// [`mldsa::Error::InvalidLength`] when the key has the wrong size for `mode`.
    pub fn encode(mode: Mode, public_key: &[u8]) -> Result<Vec<u8>, mldsa::Error> {
        if public_key.len() != mode.public_key_len() {
            return Err(mldsa::Error::InvalidLength {
                what: "public key",
                expected: mode.public_key_len(),
                got: public_key.len(),
            });
        }
        Ok(encode(&GROUP_KEY_MAGIC, mode, public_key))
    }

    /// Decodes a `PULG` frame.
    ///
    /// # Errors
    /// As [`SignatureFrame::decode`].
    pub fn decode(bytes: &'a [u8]) -> Result<Self, wire::Error> {
        let (mode, public_key) = decode(&GROUP_KEY_MAGIC, bytes, Mode::public_key_len)?;
        Ok(GroupKeyFrame { mode, public_key })
    }

    /// Verifies a framed signature on `msg` with context `ctx` under this key. A frame that
    /// does not decode, a mode differing from the key's, or a bad signature gives `false`.
    pub fn verify(&self, msg: &[u8], ctx: &[u8], signature_frame: &[u8]) -> bool {
        match SignatureFrame::decode(signature_frame) {
            Ok(sig) if sig.mode == self.mode => {
                mldsa::verify(self.mode, self.public_key, msg, ctx, sig.signature).is_ok()
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_reject_every_deviation() {
        for mode in Mode::ALL {
            let (pk, sk) = mldsa::keygen(mode, &[1; 32]);
            let sig = mldsa::sign(mode, &sk, b"m", b"", None).unwrap();
            let g = GroupKeyFrame::encode(mode, &pk).unwrap();
            let s = SignatureFrame::encode(mode, &sig).unwrap();
            assert_eq!(g.len(), HEADER_LEN + pk.len());
            let key = GroupKeyFrame::decode(&g).unwrap();
            assert_eq!((key.mode, key.public_key), (mode, &pk[..]));
            assert!(key.verify(b"m", b"", &s));
            assert!(!key.verify(b"n", b"", &s));

            for cut in 0..s.len() {
                assert!(SignatureFrame::decode(&s[..cut]).is_err(), "cut {cut}");
            }
            let mut long = s.clone();
            long.push(0);
            assert_eq!(
                SignatureFrame::decode(&long),
                Err(wire::Error::TrailingBytes { extra: 1 })
            );
            assert!(matches!(
                GroupKeyFrame::decode(&s),
                Err(wire::Error::BadMagic { .. })
            ));
            for bit in 0..HEADER_LEN * 8 {
                let mut bad = s.clone();
                bad[bit / 8] ^= 1 << (bit % 8);
                assert!(SignatureFrame::decode(&bad).is_err(), "header bit {bit}");
            }
            assert!(SignatureFrame::encode(mode, &sig[1..]).is_err());
        }
        // A mode byte naming another set is refused by its length, a foreign byte by mode.
        let (pk, _) = mldsa::keygen(Mode::MlDsa44, &[1; 32]);
        let mut g = GroupKeyFrame::encode(Mode::MlDsa44, &pk).unwrap();
        g[6] = 0x41;
        assert!(matches!(
            GroupKeyFrame::decode(&g),
            Err(wire::Error::LengthMismatch { .. })
        ));
        g[6] = 0x42;
        assert_eq!(GroupKeyFrame::decode(&g), Err(wire::Error::UnknownMode(0x42)));
    }
}
