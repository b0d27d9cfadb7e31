//! Round 2: once enough signers have committed, each signer sends its sealed envelope to
//! the combiner.
//!
//! Wire form of [`Round2Message`]: `PCR2` ‖ u16 version 1 ‖ header (78, see
//! [`super::session`]) ‖ ML-KEM-768 ciphertext (1088) ‖ XChaCha20-Poly1305 ciphertext
//! of the 74-byte opening ‖ tag (16) — 1262 bytes.
//!
//! The opening (plaintext) is u16 sender id ‖ u64 generation ‖ share value (32) ‖
//! Pedersen blind (32), scalars in canonical little-endian form. The associated data is
//! `PCR2` ‖ version ‖ header ‖ the sharing's transcript hash ([`super::envelope`]).

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;

use super::envelope::{KEM_CIPHERTEXT_LEN, TAG_LEN};
use super::round1::{Round1Message, Round1State, VERSION};
use super::session::Header;
use crate::pulsar::Error;
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// Magic of a [`Round2Message`].
pub const ROUND2_MAGIC: &[u8; 4] = b"PCR2";
/// Bytes of the sealed opening: u16 id ‖ u64 generation ‖ value (32) ‖ blind (32).
pub const PLAINTEXT_LEN: usize = 74;
/// Bytes of an encoded [`Round2Message`].
pub const ROUND2_LEN: usize = 6 + super::session::HEADER_LEN + KEM_CIPHERTEXT_LEN + PLAINTEXT_LEN + TAG_LEN;

/// Round 2, sent by each signer **to the combiner only** (any channel: the share inside
/// is encrypted to the combiner and bound to the session, the message digest, the
/// generation, the sender and the combiner).
#[derive(Clone, PartialEq, Eq)]
pub struct Round2Message {
    pub(crate) header: Header,
    pub(crate) kem_ciphertext: Vec<u8>,
    pub(crate) sealed: Vec<u8>,
}

impl fmt::Debug for Round2Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Round2Message")
            .field("purpose", &self.header.purpose)
            .field("generation", &self.header.generation)
            .field("from", &self.header.from)
            .field("to", &self.header.to)
            .finish_non_exhaustive()
    }
}

impl Round2Message {
    /// The signer.
    pub fn from(&self) -> PartyId {
        self.header.from
    }

    /// The combiner.
    pub fn to(&self) -> PartyId {
        self.header.to
    }

    /// The session id.
    pub fn session(&self) -> &[u8; 32] {
        &self.header.session
    }

    /// The message digest.
    pub fn digest(&self) -> &[u8; 32] {
        &self.header.digest
    }

    /// The sharing generation of the sealed share.
    pub fn generation(&self) -> u64 {
        self.header.generation
    }

    /// The associated data of the envelope: magic ‖ version ‖ header ‖ sharing
    /// transcript hash.
    pub(crate) fn aad(header: &Header, sharing_transcript: &[u8; 32]) -> Vec<u8> {
        let mut w = Writer::with_header(ROUND2_MAGIC, VERSION);
        header.write(&mut w);
        w.put(sharing_transcript);
        w.into_bytes()
    }

    /// Encodes (see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_header(ROUND2_MAGIC, VERSION);
        self.header.write(&mut w);
        w.put(&self.kem_ciphertext).put(&self.sealed);
        w.into_bytes()
    }

    /// Decodes strictly (header, purpose, mode, non-zero ids, exact length).
    ///
    /// # Errors
    /// [`wire::Error`] naming what was wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, wire::Error> {
        let mut r = Reader::new(bytes);
        r.header(ROUND2_MAGIC, VERSION)?;
        let header = Header::read(&mut r)?;
        let kem_ciphertext = r.take(KEM_CIPHERTEXT_LEN)?.to_vec();
        let sealed = r.take(PLAINTEXT_LEN + TAG_LEN)?.to_vec();
        r.finish()?;
        Ok(Round2Message {
            header,
            kem_ciphertext,
            sealed,
        })
    }
}

impl Round1State {
    /// Round 2: check the round-1 broadcasts and release the envelope to the combiner.
    ///
    /// `round1` holds the round-1 messages by the transport's sender (this party's own
    /// may be included and must then be identical). Messages that do not match the
    /// session are ignored here (the combiner blames their senders); the envelope is
    /// released only if at least `t` signers committed in this session, for this message
    /// and generation.
    ///
    /// # Errors
    /// [`Error::ConflictingMessage`] (the map holds another commitment under this party's
    /// id), [`Error::NotEnoughSigners`] (fewer than `t` valid commitments).
    ///
    /// # Security
    /// Consumes the state: the envelope is released once.
    pub fn round2(self, round1: &BTreeMap<PartyId, Round1Message>) -> Result<Round2Message, Error> {
        if let Some(mine) = round1.get(&self.me) {
            if *mine != self.message {
                return Err(Error::ConflictingMessage { party: self.me });
            }
        }
        let others = round1
            .iter()
            .filter(|(&p, m)| p != self.me && m.header.check(p, &self.session).is_ok())
            .count();
        let got = others + 1;
        let needed = self.session.threshold();
        if got < needed {
            return Err(Error::NotEnoughSigners { needed, got });
        }
        Ok(self.envelope)
    }
}
