//! Signer bitmaps: which validators of a set signed a leg.
//!
//! Wire form: `u16 n` (the set size, big-endian) ‖ `ceil(n / 8)` bytes. Validator `i` (its
//! position in the set, from 0) signed iff bit `i % 8` of byte `i / 8` is set, bits counted
//! from the least significant: the convention of [`crate::bls::SignerBitmap`] and of SSZ
//! bitvectors. Bits at positions `n` and beyond must be zero; at least one bit must be set.

use super::{Error, LegKind};
use crate::wire::Reader;

/// A signer bitmap borrowed from a certificate, its padding and count checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bitmap<'a> {
    size: usize,
    bytes: &'a [u8],
    count: usize,
}

impl<'a> Bitmap<'a> {
    /// Reads `u16 n ‖ bitmap` for the leg `kind`.
    ///
    /// # Errors
    /// [`Error::Decode`] (too short), [`Error::UnknownSigner`] for a padding bit set,
    /// [`Error::NoSigners`].
    pub(crate) fn read(r: &mut Reader<'a>, kind: LegKind) -> Result<Self, Error> {
        let size = usize::from(r.u16()?);
        let bytes = r.take(size.div_ceil(8))?;
        Bitmap::new(kind, size, bytes)
    }

    fn new(kind: LegKind, size: usize, bytes: &'a [u8]) -> Result<Self, Error> {
        if let Some(&last) = bytes.last() {
            let used = size - 8 * (bytes.len() - 1);
            let extra = u32::from(last) >> used;
            if extra != 0 {
                return Err(Error::UnknownSigner {
                    kind,
                    index: size + extra.trailing_zeros() as usize,
                });
            }
        }
        let count = bytes.iter().map(|b| b.count_ones() as usize).sum();
        if count == 0 {
            return Err(Error::NoSigners(kind));
        }
        Ok(Bitmap { size, bytes, count })
    }

    /// The set size the bitmap is for.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The number of signers.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The bitmap bytes (without the size).
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Whether validator `index` signed.
    pub fn is_signer(&self, index: usize) -> bool {
        index < self.size
            && self
                .bytes
                .get(index / 8)
                .is_some_and(|b| (b >> (index % 8)) & 1 == 1)
    }

    /// The signers' positions, increasing.
    pub fn signers(&self) -> impl Iterator<Item = usize> + 'a {
        let bytes = self.bytes;
        bytes.iter().enumerate().flat_map(|(i, &b)| {
            (0..8)
                .filter(move |bit| (b >> bit) & 1 == 1)
                .map(move |bit| 8 * i + bit)
        })
    }

    /// The encoded length of a bitmap for `size` validators (with its u16 size).
    pub fn encoded_len(size: usize) -> usize {
        2 + size.div_ceil(8)
    }

    /// Encodes the bitmap of `signers` (positions below `size`, increasing, no repeats)
    /// for a set of `size`, appending it to `out`.
    #[cfg(not(feature = "light"))]
    pub(crate) fn write(
        size: usize,
        signers: impl IntoIterator<Item = usize>,
        out: &mut crate::wire::Writer,
    ) {
        let mut bytes = alloc::vec![0u8; size.div_ceil(8)];
        for i in signers {
            if let Some(b) = bytes.get_mut(i / 8) {
                *b |= 1 << (i % 8);
            }
        }
        out.u16(crate::wire::len_u16(size)).put(&bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(bytes: &[u8]) -> Result<Bitmap<'_>, Error> {
        let mut r = Reader::new(bytes);
        let b = Bitmap::read(&mut r, LegKind::Bls)?;
        r.finish()?;
        Ok(b)
    }

    #[test]
    fn bits_padding_and_counts() {
        let b = parse(&[0, 10, 0b0000_0011, 0b0000_0010]).unwrap();
        assert_eq!((b.size(), b.count()), (10, 3));
        assert_eq!(b.signers().collect::<alloc::vec::Vec<_>>(), [0, 1, 9]);
        assert!(b.is_signer(9) && !b.is_signer(10) && !b.is_signer(2));
        assert_eq!(
            parse(&[0, 10, 0b0000_0011, 0b0000_0110]),
            Err(Error::UnknownSigner {
                kind: LegKind::Bls,
                index: 10
            })
        );
        assert_eq!(parse(&[0, 10, 0, 0]), Err(Error::NoSigners(LegKind::Bls)));
        assert_eq!(parse(&[0, 0]), Err(Error::NoSigners(LegKind::Bls)));
        assert!(matches!(parse(&[0, 10, 1]), Err(Error::Decode(_))));
        let mut w = crate::wire::Writer::new();
        Bitmap::write(10, [0, 1, 9], &mut w);
        assert_eq!(w.into_bytes(), [0, 10, 0b0000_0011, 0b0000_0010]);
    }
}
