//! The long-lived objects' frames (spec §7.2, §7.3, §7.5): the signature `CORS`, the group key
//! `CORG` and the dealer's key package `CORK`. `CORS` and `CORG` keep the reference's v1
//! layout — magic, a u16 version, then each field behind a u32 length that must equal its fixed
//! size — at version 2 (our coefficient encodings; v1 carried lattigo's NTT-domain bytes).
//! Every decoder reads through [`Reader`]: lengths before allocation, canonical values only,
//! no trailing bytes.

use alloc::vec::Vec;

use zeroize::Zeroizing;

use super::arith::{centred, from_i64, Q};
use super::codec::{pack, unpack};
use super::kernel::Signature;
use super::key::{GroupKey, KeyShare, PairKeys};
use super::params::{COLS, MAX_SIGNERS, N, ROWS};
use super::ring::Poly;
use super::Error;
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// Magic of a signature frame.
pub const SIGNATURE_MAGIC: [u8; 4] = *b"CORS";
/// Magic of a group-key frame.
pub const GROUP_KEY_MAGIC: [u8; 4] = *b"CORG";
/// Magic of a key-package frame.
pub const KEY_PACKAGE_MAGIC: [u8; 4] = *b"CORK";
/// The version of `CORS` and `CORG` (v1 is the reference's lattigo encoding).
const FRAME_VERSION: u16 = 2;
/// The version of `CORK`.
const PACKAGE_VERSION: u16 = 1;

/// Bytes of a signature: 10 + 4 + 32 + 4 + 10,752 + 4 + 4,864.
pub const SIGNATURE_LEN: usize = 15_666;
/// Bytes of a group key: 10 + 4 + 32 + 4 + 4,608.
pub const GROUP_KEY_LEN: usize = 4_654;

const Z_LEN: usize = COLS * N * 48 / 8;
const DELTA_LEN: usize = ROWS * N * 19 / 8;
const B_LEN: usize = ROWS * N * 18 / 8;
/// enc49 of one R_q^7 vector.
pub(crate) const VEC7_LEN: usize = COLS * N * 49 / 8;

/// Bytes of a key package (`CORK`) of a group of `n` parties: 11,054 + 66·(n − 1).
pub(crate) const fn package_len(n: usize) -> usize {
    6 + 6 + 64 + VEC7_LEN + 2 + 66 * n.saturating_sub(1)
}

/// One u32-length-prefixed field of fixed size.
fn field<'a>(r: &mut Reader<'a>, len: usize) -> Result<&'a [u8], wire::Error> {
    let declared = usize::try_from(r.u32()?).unwrap_or(usize::MAX);
    if declared != len {
        return Err(wire::Error::LengthMismatch {
            expected: len,
            got: declared,
        });
    }
    r.take(len)
}

fn put_field(w: &mut Writer, body: &[u8]) {
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

/// Declassifies the public fields of a decrypted `CORK` (the frame header, t, n, the id, tr,
/// the pair count and each pair's id), leaving the share and the pairwise keys secret; ranges
/// past the end of a short input are skipped (the decoder then refuses it).
pub(crate) fn declassify_package_layout(bytes: &[u8]) {
    let public = |range: core::ops::Range<usize>| {
        if let Some(part) = bytes.get(range) {
            crate::ct::public_slice(part);
        }
    };
    let pairs_at = 12 + 64 + VEC7_LEN;
    public(0..12 + 64);
    public(pairs_at..pairs_at + 2);
    let mut at = pairs_at + 2;
    while at < bytes.len() {
        public(at..at + 2);
        at += 66;
    }
}

impl KeyShare {
    /// The `CORK` frame: t, n, the id, the group key's digest, the share (7 × enc49) and the
    /// n − 1 pairwise key pairs (11,054 + 66·(n − 1) bytes).
    ///
    /// # Security
    /// Secret (wiped when dropped): send it over a confidential channel only.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        let mut w = Writer::with_capacity(package_len(self.pairwise.len() + 1));
        w.put(&KEY_PACKAGE_MAGIC).u16(PACKAGE_VERSION);
        w.u16(self.t).u16(self.n).u16(self.x).put(&self.group.digest);
        let mut s = Zeroizing::new(Vec::with_capacity(VEC7_LEN));
        encode_vec49(&self.share, &mut s);
        w.put(&s);
        // Exact: at most 1023 pairs.
        #[allow(clippy::cast_possible_truncation)]
        w.u16(self.pairwise.len() as u16);
        for (j, prf, mac) in self.pairwise.iter() {
            w.u16(*j).put(prf).put(mac);
        }
        w.into_secret()
    }

    /// Decodes a `CORK` frame for the group key `group` (which travels next to it).
    ///
    /// # Errors
    /// [`Error::Malformed`] (a bad frame, t or n out of range, an id outside 1..=n, a
    /// coefficient ≥ q, pairwise entries that are not exactly the other n − 1 ids in increasing
    /// order); [`Error::KeyMismatch`] when the package belongs to another group key.
    pub fn from_bytes(bytes: &[u8], group: &GroupKey) -> Result<KeyShare, Error> {
        let bad = Error::malformed("key package");
        let mut r = Reader::new(bytes);
        r.header(&KEY_PACKAGE_MAGIC, PACKAGE_VERSION).map_err(&bad)?;
        let (t, n, x) = (
            r.u16().map_err(&bad)?,
            r.u16().map_err(&bad)?,
            r.u16().map_err(&bad)?,
        );
        if t < 2 || t > n || usize::from(n) > MAX_SIGNERS {
            return Err(bad(wire::Error::InvalidValue("threshold")));
        }
        let id = PartyId::new(x)
            .filter(|_| x <= n)
            .ok_or(bad(wire::Error::InvalidValue("party id")))?;
        let digest = r.array::<64>().map_err(&bad)?;
        let share = Zeroizing::new(decode_vec49(r.take(VEC7_LEN).map_err(&bad)?, COLS).map_err(&bad)?);
        let count = usize::from(r.u16().map_err(&bad)?);
        if count != usize::from(n) - 1 {
            return Err(bad(wire::Error::LengthMismatch {
                expected: usize::from(n) - 1,
                got: count,
            }));
        }
        let mut pairwise: Zeroizing<Vec<PairKeys>> = Zeroizing::new(Vec::with_capacity(count));
        let others = (1..=n).filter(|&j| j != x);
        for expected in others {
            let j = r.u16().map_err(&bad)?;
            if j != expected {
                return Err(bad(wire::Error::InvalidValue("pairwise ids")));
            }
            let prf = r.array::<32>().map_err(&bad)?;
            let mac = r.array::<32>().map_err(&bad)?;
            pairwise.push((j, prf, mac));
        }
        r.finish().map_err(&bad)?;
        if digest != group.digest {
            return Err(Error::KeyMismatch);
        }
        Ok(KeyShare::new(id, t, n, share, pairwise, group.clone()))
    }
}
