//! Round 1: each signer seals its share to the combiner at once and broadcasts a
//! commitment to the sealed envelope, bound to the session and the message digest.
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

use rand_core::CryptoRngCore;
use zeroize::{Zeroize, Zeroizing};

use super::envelope;
use super::round2::{Round2Message, PLAINTEXT_LEN};
use super::session::{Header, Session};
use crate::hash::{tags, Transcript};
use crate::lss;
use crate::pulsar::Error;
use crate::vss::Ristretto255;
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// Magic of a [`Round1Message`].
pub const ROUND1_MAGIC: &[u8; 4] = b"PCR1";
/// Version of the round messages.
pub const VERSION: u16 = 1;
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
            .field("purpose", &self.header.purpose)
            .field("generation", &self.header.generation)
            .field("from", &self.header.from)
            .field("to", &self.header.to)
            .finish_non_exhaustive()
    }
}

impl Round1Message {
    /// The signer.
    pub fn from(&self) -> PartyId {
        self.header.from
    }

    /// The combiner it commits to send to.
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

    /// The sharing generation of the committed share.
    pub fn generation(&self) -> u64 {
        self.header.generation
    }

    /// The commitment to the envelope.
    pub fn commitment(&self) -> &[u8; 32] {
        &self.commitment
    }

    /// The round-1 message that commits to `envelope` in `session` (its header copied
    /// from the envelope): what a signer that tampers with its own envelope would send,
    /// for tests of blame.
    #[doc(hidden)]
    pub fn committing_to(session: &Session, envelope: &Round2Message) -> Self {
        Round1Message {
            header: envelope.header,
            commitment: commit(session.public().transcript_hash(), &envelope.to_bytes()),
        }
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

/// A signer's state after round 1: the sealed envelope (ciphertext only — the share
/// itself is not kept).
///
/// # Security
/// Holds no secret in the clear. Consumed by [`Round1State::round2`], so an envelope is
/// sent at most once.
pub struct Round1State {
    pub(crate) session: Session,
    pub(crate) me: PartyId,
    pub(crate) envelope: Round2Message,
    pub(crate) message: Round1Message,
}

impl Round1State {
    /// This signer's id.
    pub fn me(&self) -> PartyId {
        self.me
    }

    /// The round-1 message this signer broadcast.
    pub fn message(&self) -> &Round1Message {
        &self.message
    }
}

impl fmt::Debug for Round1State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Round1State")
            .field("me", &self.me)
            .field("session", &self.session)
            .finish_non_exhaustive()
    }
}

/// Round 1: seal this party's share (value, blind and id) to the session's combiner and
/// return the broadcast commitment.
///
/// `share` is the LSS key share (for signing: [`super::KeyShare::lss`]); it must be of
/// the session's sharing and generation, and its owner a signer of the session.
///
/// # Errors
/// [`Error::NotASigner`], [`Error::GenerationMismatch`] (an old-generation share is
/// never used), [`Error::GroupMismatch`] (a share of another sharing).
///
/// # Security
/// The envelope can be opened only by the combiner; starting the session is the decision
/// to trust that combiner with the key for the time it signs. Fresh randomness from `rng`
/// is used for the encapsulation.
pub fn round1(
    share: &lss::KeyShare<Ristretto255>,
    session: &Session,
    rng: &mut impl CryptoRngCore,
) -> Result<(Round1State, Round1Message), Error> {
    round1_inner(share, session, false, rng)
}

/// As [`round1`] but the sealed share value is off by one: a misbehaving signer, for
/// tests of blame. Never use it otherwise.
#[doc(hidden)]
pub fn round1_with_bad_share(
    share: &lss::KeyShare<Ristretto255>,
    session: &Session,
    rng: &mut impl CryptoRngCore,
) -> Result<(Round1State, Round1Message), Error> {
    round1_inner(share, session, true, rng)
}

fn round1_inner(
    share: &lss::KeyShare<Ristretto255>,
    session: &Session,
    corrupt: bool,
    rng: &mut impl CryptoRngCore,
) -> Result<(Round1State, Round1Message), Error> {
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
    let envelope = Round2Message {
        header,
        kem_ciphertext,
        sealed,
    };
    let message = Round1Message {
        header,
        commitment: commit(session.public().transcript_hash(), &envelope.to_bytes()),
    };
    Ok((
        Round1State {
            session: session.clone(),
            me,
            envelope,
            message: message.clone(),
        },
        message,
    ))
}
