//! The long-lived objects' frames (spec §7.2, §7.3, §7.5): the signature `CORS`, the group key
//! `CORG` and the dealer's key package `CORK`. `CORS` and `CORG` keep the reference's v1
//! layout — magic, a u16 version, then each field behind a u32 length that must equal its fixed
//! size — at version 2 (our coefficient encodings; v1 carried lattigo's NTT-domain bytes).
//! Every decoder reads through [`Reader`]: lengths before allocation, canonical values only,
//! no trailing bytes.

use alloc::vec::Vec;

use super::arith::{centred, from_i64, Q};
use super::codec::{pack, unpack};
use super::key::GroupKey;
use super::params::{COLS, N, ROWS};
use super::ring::Poly;
use super::verify::Signature;
use super::Error;
use crate::wire::{self, Reader, Writer};

/// Magic of a signature frame.
pub const SIGNATURE_MAGIC: [u8; 4] = *b"CORS";
/// Magic of a group-key frame.
pub const GROUP_KEY_MAGIC: [u8; 4] = *b"CORG";
/// Magic of a key-package frame.
pub const KEY_PACKAGE_MAGIC: [u8; 4] = *b"CORK";
/// The version of `CORS` and `CORG` (v1 is the reference's lattigo encoding).
const FRAME_VERSION: u16 = 2;

/// Bytes of a signature: 10 + 4 + 32 + 4 + 10,752 + 4 + 4,864.
pub const SIGNATURE_LEN: usize = 15_666;
/// Bytes of a group key: 10 + 4 + 32 + 4 + 4,608.
pub const GROUP_KEY_LEN: usize = 4_654;

const Z_LEN: usize = COLS * N * 48 / 8;
const DELTA_LEN: usize = ROWS * N * 19 / 8;
const B_LEN: usize = ROWS * N * 18 / 8;
/// enc49 of one R_q^7 vector.
pub(crate) const VEC7_LEN: usize = COLS * N * 49 / 8;

/// One u32-length-prefixed field of fixed size.
pub(super) fn field<'a>(r: &mut Reader<'a>, len: usize) -> Result<&'a [u8], wire::Error> {
    let declared = usize::try_from(r.u32()?).unwrap_or(usize::MAX);
    if declared != len {
        return Err(wire::Error::LengthMismatch {
            expected: len,
            got: declared,
        });
    }
    r.take(len)
}

pub(super) fn put_field(w: &mut Writer, body: &[u8]) {
    w.u32(u32::try_from(body.len()).unwrap_or(u32::MAX)).put(body);
}

/// Residues mod q from enc49 bytes, each checked canonical.
pub(crate) fn decode_vec49(bytes: &[u8], polys: usize) -> Result<Vec<Poly>, wire::Error> {
    let out = unpack(bytes, 49, polys).ok_or(wire::Error::LengthMismatch {
        expected: 32 * 49 * polys,
        got: bytes.len(),
    })?;
    // Without an early exit (a key package's share is secret); only the verdict is public.
    let at_or_above = out
        .iter()
        .flatten()
        .fold(0u64, |acc, &v| acc | (1 ^ (v.wrapping_sub(Q) >> 63)));
    if crate::ct::public(at_or_above != 0) {
        return Err(wire::Error::InvalidValue("coefficient at or above q"));
    }
    Ok(out)
}

pub(crate) fn encode_vec49(polys: &[Poly], out: &mut Vec<u8>) {
    pack(polys.iter().flatten().copied(), 49, out);
}

impl GroupKey {
    /// The `CORG` frame (4,654 bytes): ρ and b̃ (8 × enc18).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_header(&GROUP_KEY_MAGIC, FRAME_VERSION);
        put_field(&mut w, &self.rho);
        let mut b = Vec::with_capacity(B_LEN);
        pack(self.b_tilde.iter().flatten().map(|&v| u64::from(v)), 18, &mut b);
        put_field(&mut w, &b);
        w.into_bytes()
    }

    /// Decodes a `CORG` frame strictly.
    ///
    /// # Errors
    /// [`Error::Malformed`] (every 18-bit pattern is a valid b̃ coefficient, so only the frame
    /// can be wrong).
    pub fn from_bytes(bytes: &[u8]) -> Result<GroupKey, Error> {
        let bad = Error::malformed("group key");
        let mut r = Reader::new(bytes);
        r.header(&GROUP_KEY_MAGIC, FRAME_VERSION).map_err(&bad)?;
        let rho: [u8; 32] = field(&mut r, 32)
            .map_err(&bad)?
            .try_into()
            .map_err(|_| bad(wire::Error::InvalidValue("seed")))?;
        let b = field(&mut r, B_LEN).map_err(&bad)?;
        r.finish().map_err(&bad)?;
        let b_tilde = unpack(b, 18, ROWS)
            .ok_or(bad(wire::Error::InvalidValue("b̃")))?
            .into_iter()
            .map(|p| {
                let mut row = [0u32; N];
                for (r, v) in row.iter_mut().zip(p) {
                    // Exact: 18-bit values.
                    #[allow(clippy::cast_possible_truncation)]
                    let v = v as u32;
                    *r = v;
                }
                row
            })
            .collect();
        Ok(GroupKey::new(rho, b_tilde))
    }
}

/// The `CORS` frame (15,666 bytes): c̃, z (7 × enc48s), Δ (8 × enc19, two's complement).
pub(crate) fn encode_signature(sig: &Signature) -> Vec<u8> {
    let mut w = Writer::with_header(&SIGNATURE_MAGIC, FRAME_VERSION);
    put_field(&mut w, &sig.c_tilde);
    let mut z = Vec::with_capacity(Z_LEN);
    // Two's complement of cent_q(z) in 48 bits (|cent_q(z)| < 2^47, checked by Combine).
    #[allow(clippy::cast_sign_loss)]
    pack(sig.z.iter().flatten().map(|&v| centred(v) as u64), 48, &mut z);
    put_field(&mut w, &z);
    let mut delta = Vec::with_capacity(DELTA_LEN);
    #[allow(clippy::cast_sign_loss)]
    pack(
        sig.delta.iter().flatten().map(|&d| i64::from(d) as u64),
        19,
        &mut delta,
    );
    put_field(&mut w, &delta);
    w.into_bytes()
}

/// Sign-extends the low `bits` bits of `v`.
// Exact: the shift keeps the value's sign bit at bit 63.
#[allow(clippy::cast_possible_wrap)]
fn signed(v: u64, bits: u32) -> i64 {
    ((v << (64 - bits)) as i64) >> (64 - bits)
}

/// Checks a `CORS` frame's magic, version and exact length without decoding its values (what
/// a certificate's parser and builder check; decoding the signature checks the rest).
///
/// # Errors
/// `TOO_SHORT`, `BAD_MAGIC`, `BAD_VERSION`, `LENGTH_MISMATCH`.
pub fn check_signature_frame(bytes: &[u8]) -> Result<(), wire::Error> {
    Reader::new(bytes).header(&SIGNATURE_MAGIC, FRAME_VERSION)?;
    if bytes.len() != SIGNATURE_LEN {
        return Err(wire::Error::LengthMismatch {
            expected: SIGNATURE_LEN,
            got: bytes.len(),
        });
    }
    Ok(())
}

/// Decodes a `CORS` frame strictly (spec §7.2's order of checks).
pub(crate) fn decode_signature(bytes: &[u8]) -> Result<Signature, Error> {
    let bad = Error::malformed("signature");
    let mut r = Reader::new(bytes);
    r.header(&SIGNATURE_MAGIC, FRAME_VERSION).map_err(&bad)?;
    let c_tilde: [u8; 32] = field(&mut r, 32)
        .map_err(&bad)?
        .try_into()
        .map_err(|_| bad(wire::Error::InvalidValue("challenge")))?;
    let z = field(&mut r, Z_LEN).map_err(&bad)?;
    let delta = field(&mut r, DELTA_LEN).map_err(&bad)?;
    r.finish().map_err(&bad)?;
    let z = unpack(z, 48, COLS)
        .ok_or(bad(wire::Error::InvalidValue("z")))?
        .into_iter()
        .map(|p| p.map(|v| from_i64(signed(v, 48))))
        .collect();
    let delta = unpack(delta, 19, ROWS)
        .ok_or(bad(wire::Error::InvalidValue("Δ")))?
        .into_iter()
        .map(|p| {
            // Exact: 19-bit signed values.
            #[allow(clippy::cast_possible_truncation)]
            p.map(|v| signed(v, 19) as i32)
        })
        .collect();
    Ok(Signature { c_tilde, z, delta })
}
