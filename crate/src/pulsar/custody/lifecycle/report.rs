//! The sharing report: after the DKG each member tells the combiner the public data of
//! the sharing it ended with, so the combiner can open the key ceremony for it.
//!
//! Wire form: `PCSH` ‖ u16 version 1 ‖ u16 from ‖ u32 length ‖ the sharing (`LSG1`).
//! Sent privately to the combiner over an authenticated channel (nothing in it is secret).

use alloc::vec::Vec;

use crate::lss::GroupPublic;
use crate::vss::Ristretto255;
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// Magic of a sharing report.
pub const REPORT_MAGIC: &[u8; 4] = b"PCSH";
/// Version of its encoding.
const VERSION: u16 = 1;
/// Longest sharing accepted (as [`super::super::Session`]'s).
const MAX_SHARING_LEN: usize = 1 << 20;

/// A member's report of the sharing it ended the DKG with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SharingReport {
    pub(crate) from: PartyId,
    pub(crate) public: GroupPublic<Ristretto255>,
}

impl SharingReport {
    /// Encodes (see the module docs).
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_header(REPORT_MAGIC, VERSION);
        self.from.write(&mut w);
        w.bytes(&self.public.to_bytes());
        w.into_bytes()
    }

    /// Decodes strictly.
    pub(crate) fn from_bytes(bytes: &[u8]) -> Result<Self, wire::Error> {
        let mut r = Reader::new(bytes);
        r.header(REPORT_MAGIC, VERSION)?;
        let from = PartyId::read(&mut r)?;
        let public = GroupPublic::from_bytes(r.bytes(MAX_SHARING_LEN)?)?;
        r.finish()?;
        Ok(SharingReport { from, public })
    }
}
