//! Round 1: each signer seals its share to the combiner at once ([`super::round2`]) and
//! broadcasts a commitment to the sealed envelope, bound to the session and the message
//! digest. The commitment, sent over the authenticated broadcast channel, is what makes
//! the envelope attributable: the envelope itself may cross any channel.
//!
//! Commitment = `cSHAKE256-tuple("QUASAR-PULSAR-ENVELOPE-COMMIT-v1"; sharing transcript
//! hash, the whole round-2 message)` (32 bytes). The round-2 message carries the header
//! (session, message digest, generation, sender, combiner), so the commitment binds
//! them all.
//!
//! Wire form of [`Round1Message`]: `PCR1` ‖ u16 version 1 ‖ header (78, see
//! [`super::session`]) ‖ commitment (32) — 116 bytes.

use alloc::vec::Vec;
use core::fmt;

use super::session::Header;
use crate::hash::{tags, Transcript};
use crate::wire::{self, Reader, Writer};

/// Magic of a [`Round1Message`].
pub const ROUND1_MAGIC: &[u8; 4] = b"PCR1";
use super::session::VERSION;
/// Bytes of an encoded [`Round1Message`].
pub const ROUND1_LEN: usize = 6 + super::session::HEADER_LEN + 32;

/// Round 1, **broadcast** by each signer to the other signers and the combiner: a
/// commitment to the envelope it will send in round 2.
#[derive(Clone, PartialEq, Eq)]
pub struct Round1Message {
    pub(crate) header: Header,
    pub(crate) commitment: [u8; 32],
}

impl fmt::Debug for Round1Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Round1Message")
            .field("header", &self.header)
            .finish_non_exhaustive()
    }
}

impl Round1Message {
    /// The header: session, message digest, generation, sender, combiner.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The commitment to the envelope.
    pub fn commitment(&self) -> &[u8; 32] {
        &self.commitment
    }

    /// Encodes (see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_header(ROUND1_MAGIC, VERSION);
        self.header.write(&mut w);
        w.put(&self.commitment);
        w.into_bytes()
    }

    /// Decodes strictly (header, purpose, mode, non-zero ids, exact length).
    ///
    /// # Errors
    /// [`wire::Error`] naming what was wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, wire::Error> {
        let mut r = Reader::new(bytes);
        r.header(ROUND1_MAGIC, VERSION)?;
        let header = Header::read(&mut r)?;
        let commitment: [u8; 32] = r.array()?;
        r.finish()?;
        Ok(Round1Message { header, commitment })
    }
}

/// The round-1 commitment to an encoded round-2 message.
pub(crate) fn commit(sharing_transcript: &[u8; 32], round2: &[u8]) -> [u8; 32] {
    let mut t = Transcript::new(tags::PULSAR_ENVELOPE_COMMIT);
    t.append(sharing_transcript).append(round2);
    t.finalize()
}

/// [`commit`] of each of `round2`, in order: natively four at a time in the four-way Keccak
/// where they have one length (`hash::xof_x4::hash_each`; a session's envelopes do), as a
/// combiner checks a session's envelopes. On WebAssembly one at a time (the Pulsar module's
/// size budget).
pub(crate) fn commit_all(sharing_transcript: &[u8; 32], round2: &[&[u8]]) -> Vec<[u8; 32]> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let inputs: Vec<[&[u8]; 2]> = round2.iter().map(|m| [&sharing_transcript[..], *m]).collect();
        let lanes: Vec<&[&[u8]]> = inputs.iter().map(|x| &x[..]).collect();
        crate::hash::xof_x4::hash_each(tags::PULSAR_ENVELOPE_COMMIT, &lanes, 32)
            .iter()
            .map(|h| {
                let mut c = [0u8; 32];
                c.copy_from_slice(h);
                c
            })
            .collect()
    }
    #[cfg(target_arch = "wasm32")]
    {
        let mut out = Vec::with_capacity(round2.len());
        for m in round2 {
            out.push(commit(sharing_transcript, m));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Commitments made together are the commitments made one by one, whatever the mix of
    /// lengths in a group of four.
    #[test]
    fn commitments_made_together_are_made_one_by_one() {
        let transcript = [7u8; 32];
        let messages: Vec<Vec<u8>> = (0..11u8)
            .map(|i| vec![i; if i % 4 == 2 { 300 } else { 1200 }])
            .collect();
        let all: Vec<&[u8]> = messages.iter().map(|m| &m[..]).collect();
        for n in 0..=all.len() {
            let one_by_one: Vec<[u8; 32]> = all[..n].iter().map(|m| commit(&transcript, m)).collect();
            assert_eq!(commit_all(&transcript, &all[..n]), one_by_one, "{n} messages");
        }
    }
}
