//! The block header a certificate finalizes, and the finality message every leg signs.
//!
//! # Wire form (inside a `QCRT` certificate, big-endian)
//!
//! | bytes | field |
//! |---|---|
//! | 2 | header version = [`HEADER_VERSION`] |
//! | 8 | chain id |
//! | 8 | epoch |
//! | 8 | height |
//! | 4 | round |
//! | 32 | block hash |
//! | 32 | root of the validator set of this epoch ([`super::set`]) |
//! | 1 | 1 if a next validator set follows (the epoch's last block), else 0 |
//! | 0 or 32 | root of the next epoch's validator set |
//! | 8 | key era of the Pulsar group key |
//!
//! 103 bytes, or 135 on an epoch's last block.
//!
//! # Finality message
//!
//! `M = TupleHash256` with function name `"QUASAR"`, customization
//! `"QUASAR-CERT-MESSAGE-v1"` and a 32-byte output (SP 800-185 §5 with N = "QUASAR";
//! [`crate::hash::Transcript`]) over nine elements, in this order:
//!
//! 1. version, 2 bytes big-endian;
//! 2. chain id, 8 bytes;
//! 3. epoch, 8 bytes;
//! 4. height, 8 bytes;
//! 5. round, 4 bytes;
//! 6. block hash, 32 bytes;
//! 7. validator-set root, 32 bytes;
//! 8. next validator-set root: 32 bytes, or the empty string when there is none;
//! 9. key era, 8 bytes.
//!
//! Each element is absorbed as `left_encode(8·len) ‖ bytes`, the output length as
//! `right_encode(256)`: the cSHAKE256 input is
//! `encode_string(e1) ‖ … ‖ encode_string(e9) ‖ right_encode(256)`. The BLS leg signs M
//! (32 bytes) under the proof-of-possession ciphersuite; ML-DSA legs sign M with the pure
//! interface and the contexts [`super::PULSAR_CONTEXT`] and [`super::MLDSA_CONTEXT`].

use super::Error;
use crate::hash::{tags, Transcript};
use crate::wire::{Reader, Writer};

/// The only header version.
pub const HEADER_VERSION: u16 = 1;

/// Encoded length without / with a next validator-set root.
pub const HEADER_LEN: [usize; 2] = [103, 135];

/// A block header (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Header {
    /// The chain.
    pub chain_id: u64,
    /// The epoch whose validator set signs.
    pub epoch: u64,
    /// The block height.
    pub height: u64,
    /// The consensus round.
    pub round: u32,
    /// The block's hash.
    pub block_hash: [u8; 32],
    /// The root of this epoch's validator set.
    pub set_root: [u8; 32],
    /// The root of the next epoch's validator set: only on an epoch's last block.
    pub next_set_root: Option<[u8; 32]>,
    /// The key era of the Pulsar group key.
    pub key_era: u64,
}

impl Header {
    /// The finality message M (see the module docs).
    pub fn message(&self) -> [u8; 32] {
        let mut t = Transcript::new(tags::CERT_MESSAGE);
        t.append(&HEADER_VERSION.to_be_bytes())
            .append(&self.chain_id.to_be_bytes())
            .append(&self.epoch.to_be_bytes())
            .append(&self.height.to_be_bytes())
            .append(&self.round.to_be_bytes())
            .append(&self.block_hash)
            .append(&self.set_root)
            .append(self.next_set_root.as_ref().map_or(&[][..], |r| &r[..]))
            .append(&self.key_era.to_be_bytes());
        t.finalize()
    }

    /// Whether the header ends its epoch (commits to a next validator set).
    pub fn ends_epoch(&self) -> bool {
        self.next_set_root.is_some()
    }

    pub(crate) fn read(r: &mut Reader<'_>) -> Result<Header, Error> {
        let version = r.u16()?;
        if version != HEADER_VERSION {
            return Err(crate::wire::Error::BadVersion(version).into());
        }
        let chain_id = r.u64()?;
        let epoch = r.u64()?;
        let height = r.u64()?;
        let round = r.u32()?;
        let block_hash = r.array()?;
        let set_root = r.array()?;
        let next_set_root = match r.u8()? {
            0 => None,
            1 => Some(r.array()?),
            _ => return Err(crate::wire::Error::InvalidValue("next-set flag").into()),
        };
        let key_era = r.u64()?;
        Ok(Header {
            chain_id,
            epoch,
            height,
            round,
            block_hash,
            set_root,
            next_set_root,
            key_era,
        })
    }

    pub(crate) fn write(&self, w: &mut Writer) {
        w.u16(HEADER_VERSION)
            .u64(self.chain_id)
            .u64(self.epoch)
            .u64(self.height)
            .u32(self.round)
            .put(&self.block_hash)
            .put(&self.set_root);
        match &self.next_set_root {
            Some(root) => {
                w.u8(1).put(root);
            }
            None => {
                w.u8(0);
            }
        }
        w.u64(self.key_era);
    }

    /// The encoding (as inside a certificate).
    pub fn to_bytes(&self) -> alloc::vec::Vec<u8> {
        let mut w = Writer::with_capacity(HEADER_LEN[1]);
        self.write(&mut w);
        w.into_bytes()
    }

    /// Decodes an encoded header, strictly.
    ///
    /// # Errors
    /// [`Error::Decode`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Header, Error> {
        let mut r = Reader::new(bytes);
        let h = Header::read(&mut r)?;
        r.finish()?;
        Ok(h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            chain_id: 7,
            epoch: 3,
            height: 1000,
            round: 2,
            block_hash: [0xAB; 32],
            set_root: [0xCD; 32],
            next_set_root: None,
            key_era: 1,
        }
    }

    #[test]
    fn encoding_lengths_and_round_trip() {
        let mut h = header();
        assert_eq!(h.to_bytes().len(), HEADER_LEN[0]);
        assert_eq!(Header::from_bytes(&h.to_bytes()), Ok(h));
        h.next_set_root = Some([0xEF; 32]);
        assert_eq!(h.to_bytes().len(), HEADER_LEN[1]);
        assert_eq!(Header::from_bytes(&h.to_bytes()), Ok(h));
        let mut bad = h.to_bytes();
        bad[94] = 2;
        assert!(Header::from_bytes(&bad).is_err());
    }

    #[test]
    fn the_message_binds_every_field() {
        let base = header();
        let m = base.message();
        let variants = [
            Header { chain_id: 8, ..base },
            Header { epoch: 4, ..base },
            Header { height: 1001, ..base },
            Header { round: 3, ..base },
            Header {
                block_hash: [0xAC; 32],
                ..base
            },
            Header {
                set_root: [0xCE; 32],
                ..base
            },
            Header {
                next_set_root: Some([0; 32]),
                ..base
            },
            Header { key_era: 2, ..base },
        ];
        for v in variants {
            assert_ne!(v.message(), m, "{v:?}");
        }
    }
}
