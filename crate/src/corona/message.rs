//! The round messages (spec §7.4), both broadcasts to the other signers:
//!
//! - `COR1` ‖ u16 1 ‖ sid 32 ‖ u16 x_i ‖ T (u16 count ‖ u16 ids) ‖ D_i (392 × enc49, row-major
//!   8×49) ‖ u16 m ‖ m × (u16 x_j ‖ MAC 32) — one MAC per other signer, increasing;
//!   614,666 + 36·|T| bytes.
//! - `COR2` ‖ u16 1 ‖ sid 32 ‖ u16 x_i ‖ c̃ 32 ‖ z_i (7 × enc49); 11,048 bytes.

use alloc::vec::Vec;

use super::encoding::{decode_vec49, encode_vec49, VEC7_LEN};
use super::kernel::WIDTH;
use super::params::{MAX_SIGNERS, ROWS};
use super::ring::Poly;
use crate::wire::{self, Reader, Writer};

/// Magic of a round-1 message.
pub const COMMIT_MAGIC: [u8; 4] = *b"COR1";
/// Magic of a round-2 message.
pub const RESPONSE_MAGIC: [u8; 4] = *b"COR2";
const VERSION: u16 = 1;

/// enc49 of one commitment D_i ∈ R_q^{8×49}.
pub(crate) const D_LEN: usize = ROWS * WIDTH * 1568;

/// Bytes of a round-1 message (`COR1`) in a session of `signers` signers: 614,666 + 36·|T|.
pub const fn commit_len(signers: usize) -> usize {
    4 + 2 + 32 + 2 + (2 + 2 * signers) + D_LEN + 2 + 34 * signers.saturating_sub(1)
}

/// Bytes of a round-2 message (`COR2`).
pub const RESPONSE_LEN: usize = 4 + 2 + 32 + 2 + 32 + VEC7_LEN;

/// The bytes of the signing set T: u16 count ‖ ids, increasing (spec §3.1).
pub(crate) fn set_bytes(set: &[u16]) -> Vec<u8> {
    let mut w = Writer::with_capacity(2 + 2 * set.len());
    // Exact: at most 1024 signers.
    #[allow(clippy::cast_possible_truncation)]
    w.u16(set.len() as u16);
    for &x in set {
        w.u16(x);
    }
    w.into_bytes()
}

/// A decoded round-1 message (D_i left as bytes: the digest hashes them, and they are decoded
/// once the sender's MAC has passed).
pub(crate) struct Commit<'a> {
    pub(crate) sid: [u8; 32],
    pub(crate) from: u16,
    pub(crate) set: Vec<u16>,
    pub(crate) d: &'a [u8],
    pub(crate) macs: Vec<(u16, [u8; 32])>,
}

pub(crate) fn encode_commit(
    sid: &[u8; 32],
    from: u16,
    set: &[u16],
    d: &[u8],
    macs: &[(u16, [u8; 32])],
) -> Vec<u8> {
    let mut w = Writer::with_capacity(commit_len(set.len()));
    w.put(&COMMIT_MAGIC).u16(VERSION).put(sid).u16(from);
    w.put(&set_bytes(set)).put(d);
    #[allow(clippy::cast_possible_truncation)]
    w.u16(macs.len() as u16);
    for (to, mac) in macs {
        w.u16(*to).put(mac);
    }
    w.into_bytes()
}

/// Decodes a `COR1` frame: its layout only (the signer checks the session, the set, the MAC
/// list against the set, and D's coefficients).
pub(crate) fn decode_commit(bytes: &[u8]) -> Result<Commit<'_>, wire::Error> {
    let mut r = Reader::new(bytes);
    r.header(&COMMIT_MAGIC, VERSION)?;
    let sid = r.array::<32>()?;
    let from = r.u16()?;
    let count = count16(&mut r, 2)?;
    let set = (0..count).map(|_| r.u16()).collect::<Result<Vec<_>, _>>()?;
    let d = r.take(D_LEN)?;
    let m = count16(&mut r, 34)?;
    let macs = (0..m)
        .map(|_| Ok((r.u16()?, r.array::<32>()?)))
        .collect::<Result<Vec<_>, wire::Error>>()?;
    r.finish()?;
    Ok(Commit {
        sid,
        from,
        set,
        d,
        macs,
    })
}

/// A u16 count of at most [`MAX_SIGNERS`] items of `item` bytes each, checked against what is
/// left before anything is allocated.
fn count16(r: &mut Reader<'_>, item: usize) -> Result<usize, wire::Error> {
    let n = usize::from(r.u16()?);
    if n > MAX_SIGNERS {
        return Err(wire::Error::CountTooLarge {
            got: n,
            max: MAX_SIGNERS,
        });
    }
    if n * item > r.remaining() {
        return Err(wire::Error::TooShort {
            needed: n * item,
            got: r.remaining(),
        });
    }
    Ok(n)
}

/// A decoded round-2 message.
pub(crate) struct Response {
    pub(crate) sid: [u8; 32],
    pub(crate) from: u16,
    pub(crate) c_tilde: [u8; 32],
    pub(crate) z: Vec<Poly>,
}

pub(crate) fn encode_response(sid: &[u8; 32], from: u16, c_tilde: &[u8; 32], z: &[Poly]) -> Vec<u8> {
    let mut w = Writer::with_capacity(RESPONSE_LEN);
    w.put(&RESPONSE_MAGIC)
        .u16(VERSION)
        .put(sid)
        .u16(from)
        .put(c_tilde);
    let mut body = Vec::with_capacity(VEC7_LEN);
    encode_vec49(z, &mut body);
    w.put(&body);
    w.into_bytes()
}

/// Decodes a `COR2` frame strictly (every coefficient of z_i below q).
pub(crate) fn decode_response(bytes: &[u8]) -> Result<Response, wire::Error> {
    let mut r = Reader::new(bytes);
    r.header(&RESPONSE_MAGIC, VERSION)?;
    let sid = r.array::<32>()?;
    let from = r.u16()?;
    let c_tilde = r.array::<32>()?;
    let z = decode_vec49(r.take(VEC7_LEN)?, super::params::COLS)?;
    r.finish()?;
    Ok(Response {
        sid,
        from,
        c_tilde,
        z,
    })
}
