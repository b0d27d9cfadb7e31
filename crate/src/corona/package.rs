//! The dealer's key package `CORK` (spec §7.5): t, n, the party's id, the group key's digest,
//! its share of s and its pairwise keys. Secret; it travels inside the crate's share envelope
//! (`sealed`) or over another confidential channel, next to the group's `CORG`.

use alloc::vec::Vec;

use zeroize::Zeroizing;

use super::deal::{KeyShare, PairKeys};
use super::encoding::{decode_vec49, encode_vec49, KEY_PACKAGE_MAGIC, VEC7_LEN};
use super::params::{COLS, MAX_SIGNERS};
use super::{Error, GroupKey};
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// The version of `CORK`.
const PACKAGE_VERSION: u16 = 1;

/// Bytes of a key package (`CORK`) of a group of `n` parties: 11,054 + 66·(n − 1).
pub(crate) const fn package_len(n: usize) -> usize {
    6 + 6 + 64 + VEC7_LEN + 2 + 66 * n.saturating_sub(1)
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
