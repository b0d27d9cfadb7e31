//! A minimal, strict DER reader and writer: the few universal types the key formats use.
//!
//! Reading refuses what BER allows and DER does not: indefinite lengths, lengths in more
//! octets than needed, multi-byte tags, and anything after the last element.

use alloc::vec::Vec;

use super::Error;

/// DER tags used by the key formats.
pub(super) const INTEGER: u8 = 0x02;
pub(super) const BIT_STRING: u8 = 0x03;
pub(super) const OCTET_STRING: u8 = 0x04;
pub(super) const OID: u8 = 0x06;
pub(super) const SEQUENCE: u8 = 0x30;
/// `[0]` IMPLICIT, primitive (the ML-DSA seed).
pub(super) const CONTEXT_0: u8 = 0x80;
/// `[0]` IMPLICIT, constructed (OneAsymmetricKey attributes).
pub(super) const CONTEXT_0_CONSTRUCTED: u8 = 0xA0;
/// `[1]` IMPLICIT BIT STRING, primitive (OneAsymmetricKey publicKey).
pub(super) const CONTEXT_1: u8 = 0x81;

/// Largest content this reader accepts: three length octets (16 MiB), far above any key.
const MAX_LEN: usize = 0x00FF_FFFF;

/// Reads DER elements from a byte slice, front to back.
pub(super) struct Reader<'a> {
    buf: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(super) fn new(buf: &'a [u8]) -> Self {
        Reader { buf }
    }

    /// The tag of the next element, if any.
    pub(super) fn peek_tag(&self) -> Option<u8> {
        self.buf.first().copied()
    }

    /// Reads one element: its tag and its content.
    pub(super) fn read_any(&mut self) -> Result<(u8, &'a [u8]), Error> {
        let (&tag, rest) = self.buf.split_first().ok_or(Error::Truncated)?;
        if tag & 0x1F == 0x1F {
            return Err(Error::Malformed("multi-byte DER tag"));
        }
        let (&first, mut rest) = rest.split_first().ok_or(Error::Truncated)?;
        let len = if first < 0x80 {
            usize::from(first)
        } else {
            let n = usize::from(first & 0x7F);
            if n == 0 {
                return Err(Error::Malformed("indefinite DER length"));
            }
            if n > 3 {
                return Err(Error::Malformed("DER length over 16 MiB"));
            }
            if rest.len() < n {
                return Err(Error::Truncated);
            }
            let (octets, after) = rest.split_at(n);
            rest = after;
            if octets[0] == 0 {
                return Err(Error::NonMinimal("DER length with a leading zero octet"));
            }
            let len = octets.iter().fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
            if len < 0x80 {
                return Err(Error::NonMinimal("DER length in long form below 128"));
            }
            len
        };
        if len > MAX_LEN || rest.len() < len {
            return Err(Error::Truncated);
        }
        let (content, after) = rest.split_at(len);
        self.buf = after;
        Ok((tag, content))
    }

    /// Reads one element that must carry `tag`.
    pub(super) fn read(&mut self, tag: u8) -> Result<&'a [u8], Error> {
        match self.peek_tag() {
            None => Err(Error::Truncated),
            Some(got) if got != tag => Err(Error::UnexpectedTag { expected: tag, got }),
            Some(_) => Ok(self.read_any()?.1),
        }
    }

    /// Reads the element if it carries `tag`; leaves the reader untouched otherwise.
    pub(super) fn read_optional(&mut self, tag: u8) -> Result<Option<&'a [u8]>, Error> {
        if self.peek_tag() == Some(tag) {
            Ok(Some(self.read_any()?.1))
        } else {
            Ok(None)
        }
    }

    /// Succeeds only when everything was read.
    pub(super) fn finish(self) -> Result<(), Error> {
        if self.buf.is_empty() {
            Ok(())
        } else {
            Err(Error::TrailingData {
                extra: self.buf.len(),
            })
        }
    }
}

/// Reads a whole input that is one element with `tag`, nothing after it.
pub(super) fn read_single(input: &[u8], tag: u8) -> Result<&[u8], Error> {
    let mut r = Reader::new(input);
    let content = r.read(tag)?;
    r.finish()?;
    Ok(content)
}

/// The encoded size of an element with `content_len` content octets.
pub(super) fn tlv_len(content_len: usize) -> usize {
    1 + header_len_octets(content_len) + content_len
}

fn header_len_octets(len: usize) -> usize {
    match len {
        0..=0x7F => 1,
        0x80..=0xFF => 2,
        0x100..=0xFFFF => 3,
        _ => 4,
    }
}

/// Appends a tag and the minimal encoding of `len` (at most three length octets).
// Exact: each shifted value is masked to one octet; keys are far below 16 MiB.
#[allow(clippy::cast_possible_truncation)]
pub(super) fn push_header(out: &mut Vec<u8>, tag: u8, len: usize) {
    out.push(tag);
    match header_len_octets(len) {
        1 => out.push(len as u8),
        2 => out.extend_from_slice(&[0x81, len as u8]),
        3 => out.extend_from_slice(&[0x82, (len >> 8) as u8, len as u8]),
        _ => out.extend_from_slice(&[0x83, (len >> 16) as u8, (len >> 8) as u8, len as u8]),
    }
}

/// Appends a whole element.
pub(super) fn push_tlv(out: &mut Vec<u8>, tag: u8, content: &[u8]) {
    push_header(out, tag, content.len());
    out.extend_from_slice(content);
}
