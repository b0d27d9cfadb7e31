//! Strict big-endian reading and writing of wire formats (DESIGN §4).
//!
//! Every decoder in the crate reads through [`Reader`]: bounds-checked, never panicking,
//! and finished with [`Reader::finish`], which rejects trailing bytes. Lengths and counts
//! are checked against what the input can hold before anything is allocated.

pub mod frame;

use alloc::vec::Vec;

/// Errors from decoding bytes. Higher layers attach who sent them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input ended early.
    #[error("input too short: needed {needed} more bytes, {got} left")]
    TooShort {
        /// Bytes the next field needs.
        needed: usize,
        /// Bytes that were left.
        got: usize,
    },
    /// Bytes were left over after the last field.
    #[error("{extra} trailing bytes")]
    TrailingBytes {
        /// How many.
        extra: usize,
    },
    /// The 4-byte magic is not the expected one.
    #[error("bad magic {found:02x?}, expected {expected:02x?}")]
    BadMagic {
        /// What the input has.
        found: [u8; 4],
        /// What this format requires.
        expected: [u8; 4],
    },
    /// The format version is not supported.
    #[error("unsupported version {0}")]
    BadVersion(u16),
    /// A mode or kind byte names nothing this format knows.
    #[error("unknown mode {0:#04x}")]
    UnknownMode(u8),
    /// A declared length differs from what the mode requires.
    #[error("length mismatch: expected {expected}, got {got}")]
    LengthMismatch {
        /// Required length.
        expected: usize,
        /// Declared or actual length.
        got: usize,
    },
    /// A count (of parties, items, …) is above the format's limit.
    #[error("count {got} exceeds the limit {max}")]
    CountTooLarge {
        /// Declared count.
        got: usize,
        /// The format's maximum.
        max: usize,
    },
    /// A field holds a value outside its domain (a non-canonical scalar, an identity
    /// point, a zero party id, an unsorted list, …).
    #[error("invalid {0}")]
    InvalidValue(&'static str),
}

impl Error {
    /// A stable code for this error, as JavaScript sees it.
    pub fn code(&self) -> &'static str {
        match self {
            Error::TooShort { .. } => "TOO_SHORT",
            Error::TrailingBytes { .. } => "TRAILING_BYTES",
            Error::BadMagic { .. } => "BAD_MAGIC",
            Error::BadVersion(_) => "BAD_VERSION",
            Error::UnknownMode(_) => "UNKNOWN_MODE",
            Error::LengthMismatch { .. } => "LENGTH_MISMATCH",
            Error::CountTooLarge { .. } => "COUNT_TOO_LARGE",
            Error::InvalidValue(_) => "INVALID_VALUE",
        }
    }
}

/// A bounds-checked big-endian cursor over borrowed input.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    buf: &'a [u8],
}

impl<'a> Reader<'a> {
    /// Starts reading `buf`.
    pub fn new(buf: &'a [u8]) -> Self {
        Reader { buf }
    }

    /// Bytes not yet read.
    pub fn remaining(&self) -> usize {
        self.buf.len()
    }

    /// The next `n` bytes, borrowed.
    ///
    /// # Errors
    /// [`Error::TooShort`].
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        if n > self.buf.len() {
            return Err(Error::TooShort {
                needed: n,
                got: self.buf.len(),
            });
        }
        let (head, tail) = self.buf.split_at(n);
        self.buf = tail;
        Ok(head)
    }

    /// The next `N` bytes as an array.
    ///
    /// # Errors
    /// [`Error::TooShort`].
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N], Error> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    /// A byte.
    ///
    /// # Errors
    /// [`Error::TooShort`].
    pub fn u8(&mut self) -> Result<u8, Error> {
        Ok(self.array::<1>()?[0])
    }

    /// A big-endian u16.
    ///
    /// # Errors
    /// [`Error::TooShort`].
    pub fn u16(&mut self) -> Result<u16, Error> {
        Ok(u16::from_be_bytes(self.array()?))
    }

    /// A big-endian u32.
    ///
    /// # Errors
    /// [`Error::TooShort`].
    pub fn u32(&mut self) -> Result<u32, Error> {
        Ok(u32::from_be_bytes(self.array()?))
    }

    /// A big-endian u64.
    ///
    /// # Errors
    /// [`Error::TooShort`].
    pub fn u64(&mut self) -> Result<u64, Error> {
        Ok(u64::from_be_bytes(self.array()?))
    }

    /// Checks the 4-byte magic and the u16 version that start every top-level object.
    ///
    /// # Errors
    /// [`Error::TooShort`], [`Error::BadMagic`], [`Error::BadVersion`].
    pub fn header(&mut self, magic: &[u8; 4], version: u16) -> Result<(), Error> {
        self.header_versions(magic, &[version]).map(|_| ())
    }

    /// [`Reader::header`] for an object with several versions: returns the one found.
    ///
    /// # Errors
    /// [`Error::TooShort`], [`Error::BadMagic`], [`Error::BadVersion`] (none of `versions`).
    pub fn header_versions(&mut self, magic: &[u8; 4], versions: &[u16]) -> Result<u16, Error> {
        let found: [u8; 4] = self.array()?;
        if &found != magic {
            return Err(Error::BadMagic {
                found,
                expected: *magic,
            });
        }
        let v = self.u16()?;
        if !versions.contains(&v) {
            return Err(Error::BadVersion(v));
        }
        Ok(v)
    }

    /// A u32 count, capped at `max` and at what the remaining input could hold with
    /// `min_item_len` bytes per item, so a hostile count cannot cause a large allocation.
    ///
    /// # Errors
    /// [`Error::TooShort`], [`Error::CountTooLarge`].
    pub fn count(&mut self, max: usize, min_item_len: usize) -> Result<usize, Error> {
        let n = self.u32()? as usize;
        if n > max {
            return Err(Error::CountTooLarge { got: n, max });
        }
        let needed = n.saturating_mul(min_item_len);
        if needed > self.buf.len() {
            return Err(Error::TooShort {
                needed,
                got: self.buf.len(),
            });
        }
        Ok(n)
    }

    /// A u32-length-prefixed byte string of at most `max` bytes, borrowed.
    ///
    /// # Errors
    /// [`Error::TooShort`], [`Error::CountTooLarge`].
    pub fn bytes(&mut self, max: usize) -> Result<&'a [u8], Error> {
        let n = self.count(max, 1)?;
        self.take(n)
    }

    /// Ends reading: the input must be fully consumed.
    ///
    /// # Errors
    /// [`Error::TrailingBytes`].
    pub fn finish(self) -> Result<(), Error> {
        if self.buf.is_empty() {
            Ok(())
        } else {
            Err(Error::TrailingBytes {
                extra: self.buf.len(),
            })
        }
    }
}

/// A count or length as an encoding's one-byte prefix. Every caller's value is bounded far
/// below the prefix's range where it is made (a context ≤ 255 bytes, at most four legs…), and
/// decoders refuse more; debug builds assert it.
// Exact by the callers' bounds, asserted in debug builds.
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn len_u8(n: usize) -> u8 {
    debug_assert!(u8::try_from(n).is_ok());
    n as u8
}

/// A count or length as an encoding's two-byte prefix (a party or signer count, a key's
/// commitment count…), bounded where it is made; debug builds assert it.
// Exact by the callers' bounds, asserted in debug builds.
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn len_u16(n: usize) -> u16 {
    debug_assert!(u16::try_from(n).is_ok());
    n as u16
}

/// A count or length as an encoding's four-byte prefix; debug builds assert it fits.
// Exact: messages are far below 4 GiB (and usize is 32 bits on wasm32).
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn len_u32(n: usize) -> u32 {
    debug_assert!(u32::try_from(n).is_ok());
    n as u32
}

/// A big-endian writer into a growing buffer.
///
/// The buffer never leaves a copy of what it held behind: when it must grow, the bytes
/// move to a larger allocation and the old one is wiped before it is freed, so encoding
/// a secret (a share, a key) through a `Writer` leaves no stray copies in freed heap
/// blocks. Use [`Writer::into_secret`] for secret encodings.
#[derive(Debug, Default, Clone)]
pub struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    /// An empty writer.
    pub fn new() -> Self {
        Writer::default()
    }

    /// An empty writer with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> Self {
        Writer {
            buf: Vec::with_capacity(capacity),
        }
    }

    /// A writer that starts with a magic and version header, with room for 128 bytes in all
    /// (a share message with two scalars fits).
    pub fn with_header(magic: &[u8; 4], version: u16) -> Self {
        Writer::with_header_and_room(magic, version, 122)
    }

    /// [`Writer::with_header`] with room for `body` bytes after the header: a writer that
    /// never grows never copies (and wipes) what it holds.
    pub fn with_header_and_room(magic: &[u8; 4], version: u16, body: usize) -> Self {
        let mut w = Writer::with_capacity(6usize.saturating_add(body));
        w.put(magic);
        w.u16(version);
        w
    }

    /// Makes room for `extra` more bytes, moving (and wiping) the old buffer if it has to
    /// grow.
    fn reserve(&mut self, extra: usize) {
        let needed = self.buf.len().saturating_add(extra);
        if needed <= self.buf.capacity() {
            return;
        }
        let mut grown = Vec::with_capacity(needed.max(2 * self.buf.capacity()));
        grown.extend_from_slice(&self.buf);
        zeroize::Zeroize::zeroize(&mut self.buf);
        self.buf = grown;
    }

    /// Appends raw bytes.
    pub fn put(&mut self, bytes: &[u8]) -> &mut Self {
        self.reserve(bytes.len());
        self.buf.extend_from_slice(bytes);
        self
    }

    /// Appends a byte.
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.put(&[v])
    }

    /// Appends a big-endian u16.
    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.put(&v.to_be_bytes())
    }

    /// Appends a big-endian u32.
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.put(&v.to_be_bytes())
    }

    /// Appends a big-endian u64.
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.put(&v.to_be_bytes())
    }

    /// Appends a u32 length prefix and the bytes.
    pub fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        self.u32(len_u32(bytes.len()));
        self.put(bytes)
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The bytes written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }

    /// The bytes written, in a buffer wiped when dropped (for secret encodings).
    pub fn into_secret(self) -> zeroize::Zeroizing<Vec<u8>> {
        zeroize::Zeroizing::new(self.buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_strictness() {
        let mut w = Writer::with_header(b"TEST", 1);
        w.u8(7).u32(0xDEAD_BEEF).bytes(b"abc");
        let bytes = w.into_bytes();
        let mut r = Reader::new(&bytes);
        r.header(b"TEST", 1).unwrap();
        assert_eq!(r.u8().unwrap(), 7);
        assert_eq!(r.u32().unwrap(), 0xDEAD_BEEF);
        assert_eq!(r.bytes(16).unwrap(), b"abc");
        r.finish().unwrap();

        for cut in 0..bytes.len() {
            let mut r = Reader::new(&bytes[..cut]);
            let res = r
                .header(b"TEST", 1)
                .and_then(|_| r.u8())
                .and_then(|_| r.u32())
                .and_then(|_| r.bytes(16));
            assert!(matches!(res, Err(Error::TooShort { .. })), "cut at {cut}");
        }
        let mut long = bytes.clone();
        long.push(0);
        let mut r = Reader::new(&long);
        r.take(bytes.len()).unwrap();
        assert_eq!(r.finish(), Err(Error::TrailingBytes { extra: 1 }));
        assert!(matches!(
            Reader::new(b"TESX\0\x01").header(b"TEST", 1),
            Err(Error::BadMagic { .. })
        ));
        assert_eq!(
            Reader::new(b"TEST\0\x02").header(b"TEST", 1),
            Err(Error::BadVersion(2))
        );
    }

    #[test]
    fn hostile_counts_are_refused_before_allocating() {
        let mut r = Reader::new(&[0xFF, 0xFF, 0xFF, 0xFF, 1, 2]);
        assert!(matches!(r.count(1 << 20, 1), Err(Error::CountTooLarge { .. })));
        let mut r = Reader::new(&[0, 0, 0, 100, 1, 2]);
        assert!(matches!(r.count(1000, 32), Err(Error::TooShort { .. })));
    }
}
