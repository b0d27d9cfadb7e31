//! Base64 (RFC 4648 §4, padded: PEM) and base64url (§5, unpadded: JWK), strict both ways:
//! only the alphabet, canonical final bits, padding exactly where the variant has it.

use alloc::string::String;
use alloc::vec::Vec;

use super::Error;

const STD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The encoded length of `n` bytes.
pub(super) fn encoded_len(n: usize, padded: bool) -> usize {
    if padded {
        n.div_ceil(3) * 4
    } else {
        (n * 4).div_ceil(3)
    }
}

/// Appends the encoding of `data` to `out`: padded standard alphabet, or unpadded base64url.
pub(super) fn encode_into(out: &mut String, data: &[u8], url: bool) {
    let alphabet = if url { URL } else { STD };
    let sym = |v: u32| char::from(alphabet[(v & 63) as usize]);
    for chunk in data.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let v = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        out.push(sym(v >> 18));
        out.push(sym(v >> 12));
        if chunk.len() > 1 {
            out.push(sym(v >> 6));
        } else if !url {
            out.push('=');
        }
        if chunk.len() > 2 {
            out.push(sym(v));
        } else if !url {
            out.push('=');
        }
    }
}

fn value(c: u8, url: bool) -> Option<u32> {
    let v = match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' if !url => 62,
        b'/' if !url => 63,
        b'-' if url => 62,
        b'_' if url => 63,
        _ => return None,
    };
    Some(u32::from(v))
}

/// Decodes `text` (no whitespace). The output may be secret, so it is written into `out`,
/// which the caller allocates (and wipes) with [`decoded_len_max`] capacity.
// Exact: each value pushed is masked to one octet.
#[allow(clippy::cast_possible_truncation)]
pub(super) fn decode_into(text: &[u8], url: bool, out: &mut Vec<u8>) -> Result<(), Error> {
    let body = if url {
        if text.len() % 4 == 1 {
            return Err(Error::BadBase64);
        }
        text
    } else {
        if !text.len().is_multiple_of(4) {
            return Err(Error::BadBase64);
        }
        let pad = text.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 {
            return Err(Error::BadBase64);
        }
        &text[..text.len() - pad]
    };
    let mut acc = 0u32;
    let mut bits = 0u32;
    for &c in body {
        acc = (acc << 6) | value(c, url).ok_or(Error::BadBase64)?;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // Canonical: the bits left over after the last full byte are zero.
    if acc != 0 {
        return Err(Error::BadBase64);
    }
    Ok(())
}

/// An upper bound on the decoded length of `n` characters.
pub(super) fn decoded_len_max(n: usize) -> usize {
    n / 4 * 3 + 3
}
