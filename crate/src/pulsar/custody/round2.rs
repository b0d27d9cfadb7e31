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

use alloc::vec::Vec;
use core::fmt;

use rand_core::CryptoRngCore;
use zeroize::{Zeroize, Zeroizing};

use super::envelope::{self, KEM_CIPHERTEXT_LEN, TAG_LEN};
use super::round1::{commit, Round1Message};
use super::session::VERSION;
use super::session::{Header, Session};
use crate::lss;
use crate::pulsar::Error;
use crate::vss::Ristretto255;
use crate::wire::{self, Reader, Writer};

/// Magic of a [`Round2Message`].
pub const ROUND2_MAGIC: &[u8; 4] = b"PCR2";
/// Bytes of the sealed opening: u16 id ‖ u64 generation ‖ value (32) ‖ blind (32).
pub const PLAINTEXT_LEN: usize = 74;
/// Bytes of an encoded [`Round2Message`].
pub const ROUND2_LEN: usize = 6 + super::session::HEADER_LEN + KEM_CIPHERTEXT_LEN + PLAINTEXT_LEN + TAG_LEN;

/// Round 2, sent by each signer **to the combiner only**, over any channel: the share
/// inside is encrypted to the combiner and bound to the session, the message digest, the
/// generation, the sender and the combiner, and the whole message is bound to its
/// sender's authenticated round-1 commitment — which is how the combiner tells whose it
/// is, whatever channel it came by.
#[derive(Clone, PartialEq, Eq)]
pub struct Round2Message {
    pub(crate) header: Header,
    pub(crate) kem_ciphertext: Vec<u8>,
    pub(crate) sealed: Vec<u8>,
}

impl fmt::Debug for Round2Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Round2Message")
            .field("header", &self.header)
            .finish_non_exhaustive()
    }
}

impl Round2Message {
    /// The header: session, message digest, generation, sender, combiner.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The associated data of the envelope: magic ‖ version ‖ header ‖ sharing
    /// transcript hash.
    pub(crate) fn aad(header: &Header, sharing_transcript: &[u8; 32]) -> Vec<u8> {
        let mut w = Writer::with_header(ROUND2_MAGIC, VERSION);
        header.write(&mut w);
        w.put(sharing_transcript);
        w.into_bytes()
    }

    /// The round-1 message that commits to this envelope (its header copied).
    pub(crate) fn commitment(&self, sharing_transcript: &[u8; 32]) -> Round1Message {
        Round1Message {
            header: self.header,
            commitment: commit(sharing_transcript, &self.to_bytes()),
        }
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

/// Seals `share` (value, blind and id) to the session's combiner: the envelope a signer
/// commits to in round 1 and releases in round 2. With `corrupt` the sealed value is off
/// by one (the `BadContribution` misbehaviour).
///
/// # Errors
/// [`Error::NotASigner`], [`Error::GenerationMismatch`] (an old-generation share is
/// never used), [`Error::GroupMismatch`] (a share of another sharing).
pub(crate) fn seal(
    share: &lss::KeyShare<Ristretto255>,
    session: &Session,
    corrupt: bool,
    rng: &mut impl CryptoRngCore,
) -> Result<Round2Message, Error> {
    let me = share.id();
    if !session.is_signer(me) {
        return Err(Error::NotASigner { party: me });
    }
    if share.generation() != session.generation() {
        return Err(Error::GenerationMismatch {
            expected: session.generation(),
            got: share.generation(),
        });
    }
    if share.public() != session.public() {
        return Err(Error::GroupMismatch);
    }
    let header = session.header(me);
    let generation = session.generation();

    // Plaintext: u16 id ‖ u64 generation ‖ value (32) ‖ blind (32), in a fixed buffer.
    let mut value = *share.secret_share();
    if corrupt {
        value += curve25519_dalek::Scalar::ONE;
    }
    let mut plaintext = Zeroizing::new([0u8; PLAINTEXT_LEN]);
    plaintext[..2].copy_from_slice(&me.get().to_be_bytes());
    plaintext[2..10].copy_from_slice(&generation.to_be_bytes());
    plaintext[10..42].copy_from_slice(value.as_bytes());
    plaintext[42..74].copy_from_slice(share.blind_share().as_bytes());
    value.zeroize();

    let aad = Round2Message::aad(&header, session.public().transcript_hash());
    let (kem_ciphertext, sealed) = envelope::seal(session.combiner(), &aad, &plaintext[..], rng);
    Ok(Round2Message {
        header,
        kem_ciphertext,
        sealed,
    })
}
