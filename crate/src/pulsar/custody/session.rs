//! The public description of one release of shares to a combiner ([`Session`]), and the
//! header every custody round message carries.
//!
//! Message header (78 bytes, inside each round message after its magic and version):
//! u8 purpose ‖ u8 ML-DSA mode ‖ session id (32) ‖ message digest (32) ‖
//! u64 generation ‖ u16 from ‖ u16 to (the combiner).
//!
//! The message digest binds what the shares are released for:
//!
//! - signing: `cSHAKE256-tuple("QUASAR-PULSAR-MESSAGE-v1"; "sign", mode, group public key,
//!   context, message)`;
//! - key ceremony: `cSHAKE256-tuple("QUASAR-PULSAR-MESSAGE-v1"; "key-ceremony", mode,
//!   LSG1 encoding of the sharing)`.

use alloc::vec::Vec;
use core::fmt;

use super::envelope::CombinerPublicKey;
use super::keys::{GroupKey, MAX_RECORD_LEN};
use crate::hash::{tags, Transcript};
use crate::lss::GroupPublic;
use crate::mldsa::{self, Mode};
use crate::pulsar::Error;
use crate::vss::{Mode as CommitmentMode, Ristretto255};
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// Bytes of the common message header.
pub const HEADER_LEN: usize = 78;
/// Version of the round messages (`PCR1`, `PCR2`).
pub const VERSION: u16 = 1;
/// Magic of an encoded [`Session`].
pub const SESSION_MAGIC: &[u8; 4] = b"PCSS";
/// Version of the session encoding.
pub const SESSION_VERSION: u16 = 1;
/// Longest message a signing session signs (16 MiB).
pub const MAX_MESSAGE_LEN: usize = 1 << 24;
/// Longest sharing encoding accepted (a 4096-party sharing fits).
const MAX_SHARING_LEN: usize = 1 << 20;
/// Longest combiner key encoding accepted.
const MAX_KEY_LEN: usize = 1 << 14;

/// What the shares are released for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Purpose {
    /// The key ceremony: the combiner derives the ML-DSA key once and publishes the group
    /// key. Wire byte 1.
    KeyCeremony = 1,
    /// Signing one message under the group key. Wire byte 2.
    Sign = 2,
}

impl Purpose {
    /// The wire byte.
    pub fn to_byte(self) -> u8 {
        self as u8
    }

    /// Decodes the wire byte.
    ///
    /// # Errors
    /// [`wire::Error::UnknownMode`].
    pub fn from_byte(b: u8) -> Result<Self, wire::Error> {
        match b {
            1 => Ok(Purpose::KeyCeremony),
            2 => Ok(Purpose::Sign),
            other => Err(wire::Error::UnknownMode(other)),
        }
    }
}

/// One session's public parameters, identical at every signer and at the combiner:
/// session id, purpose, ML-DSA mode, the sharing (at one generation), the signing set,
/// the combiner and its encapsulation key, and the message (signing) — all bound into
/// every message and every envelope.
///
/// The session id must be unique per session (for example a hash of the chain id, the
/// height and the purpose): envelopes of other sessions are rejected and blamed.
#[derive(Clone)]
pub struct Session {
    pub(crate) id: [u8; 32],
    pub(crate) purpose: Purpose,
    pub(crate) mode: Mode,
    pub(crate) group_key: Option<GroupKey>,
    pub(crate) public: GroupPublic<Ristretto255>,
    pub(crate) signers: Vec<PartyId>,
    pub(crate) combiner: CombinerPublicKey,
    pub(crate) message: Vec<u8>,
    pub(crate) context: Vec<u8>,
    pub(crate) digest: [u8; 32],
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("purpose", &self.purpose)
            .field("mode", &self.mode)
            .field("generation", &self.public.generation())
            .field("signers", &self.signers)
            .field("combiner", &self.combiner.id())
            .finish_non_exhaustive()
    }
}

/// Whether `context` is reserved: the activation and key-ceremony contexts, or any
/// activation tag (ordinary signing refuses them, so no signing session can pose as one).
fn is_reserved_context(context: &[u8]) -> bool {
    [
        tags::PULSAR_ACTIVATE,
        tags::LENS_ACTIVATE,
        tags::LSS_ACTIVATE,
        tags::PULSAR_CEREMONY,
    ]
    .iter()
    .any(|t| context.starts_with(t.as_bytes()))
}

/// `list` sorted, checked free of repeats ([`Error::DuplicateSigner`]).
pub(crate) fn sorted_unique(list: &[PartyId]) -> Result<Vec<PartyId>, Error> {
    crate::party::sorted_distinct(list).map_err(|party| Error::DuplicateSigner { party })
}

/// Checks a sorted signing set against the group's `members` (increasing) and
/// threshold: every signer a member, at least `threshold` of them.
pub(crate) fn check_signing_set(
    members: &[PartyId],
    threshold: u16,
    signers: &[PartyId],
) -> Result<(), Error> {
    if let Some(&p) = signers.iter().find(|p| members.binary_search(p).is_err()) {
        return Err(Error::UnknownParty { party: p });
    }
    let needed = usize::from(threshold);
    if signers.len() < needed {
        return Err(Error::NotEnoughSigners {
            needed,
            got: signers.len(),
        });
    }
    Ok(())
}

/// Checks the signing set: no duplicates, every signer a member, at least `t`.
fn checked_signers(public: &GroupPublic<Ristretto255>, signers: &[PartyId]) -> Result<Vec<PartyId>, Error> {
    let sorted = sorted_unique(signers)?;
    check_signing_set(public.parties(), public.threshold(), &sorted)?;
    Ok(sorted)
}

/// Checks that a message to sign is at most [`MAX_MESSAGE_LEN`] bytes.
pub(crate) fn check_message_len(message: &[u8]) -> Result<(), Error> {
    if message.len() > MAX_MESSAGE_LEN {
        return Err(wire::Error::CountTooLarge {
            got: message.len(),
            max: MAX_MESSAGE_LEN,
        }
        .into());
    }
    Ok(())
}

impl Session {
    /// A signing session: `signers` (at least `t` members of `public`) release their
    /// shares to `combiner`, which signs `message` with context `context` under
    /// `group_key`.
    ///
    /// # Errors
    /// [`Error::NotPedersen`], [`Error::GroupMismatch`] (the sharing is not of this
    /// key), [`Error::DuplicateSigner`], [`Error::UnknownParty`] (a signer that is not a
    /// member), [`Error::NotEnoughSigners`], [`Error::MlDsa`] (`ContextTooLong`).
    ///
    /// # Security
    /// Releasing shares gives `combiner` the key for the time it signs: only start a
    /// session with a combiner you trust with the key.
    #[allow(clippy::too_many_arguments)]
    pub fn sign(
        id: [u8; 32],
        group_key: &GroupKey,
        public: &GroupPublic<Ristretto255>,
        signers: &[PartyId],
        combiner: &CombinerPublicKey,
        message: &[u8],
        context: &[u8],
    ) -> Result<Self, Error> {
        group_key.check_sharing(public)?;
        if is_reserved_context(context) {
            return Err(Error::ReservedContext);
        }
        if context.len() > 255 {
            return Err(mldsa::Error::ContextTooLong { len: context.len() }.into());
        }
        check_message_len(message)?;
        let signers = checked_signers(public, signers)?;
        let mut t = Transcript::new(tags::PULSAR_MESSAGE);
        t.append(b"sign")
            .append(&[group_key.mode().to_byte()])
            .append(group_key.public_key())
            .append(context)
            .append(message);
        Ok(Session {
            id,
            purpose: Purpose::Sign,
            mode: group_key.mode(),
            group_key: Some(group_key.clone()),
            public: public.clone(),
            signers,
            combiner: combiner.clone(),
            message: message.to_vec(),
            context: context.to_vec(),
            digest: t.finalize(),
        })
    }

    /// A key-ceremony session: after the LSS Pedersen DKG produced `public`, `signers`
    /// (at least `t` members) release their shares to `combiner`, which derives the
    /// ML-DSA key for `mode` once and publishes the group key
    /// ([`super::GroupKeyAnnouncement`]).
    ///
    /// # Errors
    /// [`Error::NotPedersen`], [`Error::DuplicateSigner`], [`Error::UnknownParty`],
    /// [`Error::NotEnoughSigners`].
    ///
    /// # Security
    /// As for [`Session::sign`]: the combiner sees the key while it derives it.
    pub fn key_ceremony(
        id: [u8; 32],
        mode: Mode,
        public: &GroupPublic<Ristretto255>,
        signers: &[PartyId],
        combiner: &CombinerPublicKey,
    ) -> Result<Self, Error> {
        if public.mode() != CommitmentMode::Pedersen {
            return Err(Error::NotPedersen);
        }
        let signers = checked_signers(public, signers)?;
        let mut t = Transcript::new(tags::PULSAR_MESSAGE);
        t.append(b"key-ceremony")
            .append(&[mode.to_byte()])
            .append(&public.to_bytes());
        Ok(Session {
            id,
            purpose: Purpose::KeyCeremony,
            mode,
            group_key: None,
            public: public.clone(),
            signers,
            combiner: combiner.clone(),
            message: Vec::new(),
            context: Vec::new(),
            digest: t.finalize(),
        })
    }

    /// The session id.
    pub fn id(&self) -> &[u8; 32] {
        &self.id
    }

    /// The purpose.
    pub fn purpose(&self) -> Purpose {
        self.purpose
    }

    /// The ML-DSA parameter set.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The group key (signing sessions only).
    pub fn group_key(&self) -> Option<&GroupKey> {
        self.group_key.as_ref()
    }

    /// The sharing's public data.
    pub fn public(&self) -> &GroupPublic<Ristretto255> {
        &self.public
    }

    /// The sharing's generation.
    pub fn generation(&self) -> u64 {
        self.public.generation()
    }

    /// The threshold `t`.
    pub fn threshold(&self) -> usize {
        usize::from(self.public.threshold())
    }

    /// The signing set, increasing.
    pub fn signers(&self) -> &[PartyId] {
        &self.signers
    }

    /// The combiner's public key.
    pub fn combiner(&self) -> &CombinerPublicKey {
        &self.combiner
    }

    /// The message to sign (empty for a key ceremony).
    pub fn message(&self) -> &[u8] {
        &self.message
    }

    /// The ML-DSA context string (empty for a key ceremony).
    pub fn context(&self) -> &[u8] {
        &self.context
    }

    /// The message digest every round message and envelope is bound to.
    pub fn digest(&self) -> &[u8; 32] {
        &self.digest
    }

    /// Encodes: `PCSS` ‖ u16 version 1 ‖ u8 purpose ‖ u8 mode ‖ session id (32) ‖ u32
    /// length ‖ the sharing (`LSG1`) ‖ u16 count ‖ count × u16 signer (increasing) ‖ u32
    /// length ‖ the combiner's key (`PCEK`), then for signing: u32 length ‖ the group key
    /// (`PCGK`) ‖ u32 length ‖ message ‖ u8 length ‖ context.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_header(SESSION_MAGIC, SESSION_VERSION);
        w.u8(self.purpose.to_byte()).u8(self.mode.to_byte()).put(&self.id);
        w.bytes(&self.public.to_bytes());
        w.u16(crate::wire::len_u16(self.signers.len()));
        for p in &self.signers {
            p.write(&mut w);
        }
        w.bytes(&self.combiner.to_bytes());
        if let Some(k) = &self.group_key {
            w.bytes(&k.to_bytes()).bytes(&self.message);
            w.u8(crate::wire::len_u8(self.context.len())).put(&self.context);
        }
        w.into_bytes()
    }

    /// Decodes strictly and rebuilds the session through [`Session::sign`] or
    /// [`Session::key_ceremony`], so every check of those applies.
    ///
    /// # Errors
    /// [`Error::Decode`] for malformed bytes; the errors of the constructors.
    pub fn from_bytes(bytes: &[u8]) -> Result<Session, Error> {
        let mut r = Reader::new(bytes);
        r.header(SESSION_MAGIC, SESSION_VERSION)?;
        let purpose = Purpose::from_byte(r.u8()?)?;
        let mode_byte = r.u8()?;
        let mode = Mode::from_byte(mode_byte).map_err(|_| wire::Error::UnknownMode(mode_byte))?;
        let id: [u8; 32] = r.array()?;
        let public = GroupPublic::<Ristretto255>::from_bytes(r.bytes(MAX_SHARING_LEN)?)?;
        let n = usize::from(r.u16()?);
        if 2 * n > r.remaining() {
            return Err(wire::Error::TooShort {
                needed: 2 * n,
                got: r.remaining(),
            }
            .into());
        }
        let mut signers = Vec::with_capacity(n);
        for _ in 0..n {
            let p = PartyId::read(&mut r)?;
            if signers.last().is_some_and(|&last| last >= p) {
                return Err(wire::Error::InvalidValue("signer list not strictly increasing").into());
            }
            signers.push(p);
        }
        let combiner = CombinerPublicKey::from_bytes(r.bytes(MAX_KEY_LEN)?)?;
        let session = match purpose {
            Purpose::KeyCeremony => Session::key_ceremony(id, mode, &public, &signers, &combiner)?,
            Purpose::Sign => {
                // The record's certificate names every member: as long as the group needs.
                let group_key = GroupKey::from_bytes(r.bytes(MAX_RECORD_LEN)?, &public)?;
                let message = r.bytes(MAX_MESSAGE_LEN)?;
                let ctx_len = usize::from(r.u8()?);
                let context = r.take(ctx_len)?;
                if group_key.mode() != mode {
                    return Err(
                        wire::Error::InvalidValue("group key mode differs from the session's").into(),
                    );
                }
                Session::sign(id, &group_key, &public, &signers, &combiner, message, context)?
            }
        };
        r.finish()?;
        Ok(session)
    }

    pub(crate) fn is_signer(&self, p: PartyId) -> bool {
        self.signers.binary_search(&p).is_ok()
    }

    /// The header of a message from `from` in this session.
    pub(crate) fn header(&self, from: PartyId) -> Header {
        Header {
            purpose: self.purpose,
            mode: self.mode,
            session: self.id,
            digest: self.digest,
            generation: self.public.generation(),
            from,
            to: self.combiner.id(),
        }
    }
}

/// The common header of the custody round messages (see the module docs): what binds a
/// message to its session, message, generation, sender and combiner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub(crate) purpose: Purpose,
    pub(crate) mode: Mode,
    pub(crate) session: [u8; 32],
    pub(crate) digest: [u8; 32],
    pub(crate) generation: u64,
    pub(crate) from: PartyId,
    pub(crate) to: PartyId,
}

impl Header {
    /// Key ceremony or signing.
    pub fn purpose(&self) -> Purpose {
        self.purpose
    }

    /// The ML-DSA parameter set.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The session id.
    pub fn session(&self) -> &[u8; 32] {
        &self.session
    }

    /// The message digest the share is released for.
    pub fn digest(&self) -> &[u8; 32] {
        &self.digest
    }

    /// The sharing generation of the share.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The signer.
    pub fn from(&self) -> PartyId {
        self.from
    }

    /// The combiner.
    pub fn to(&self) -> PartyId {
        self.to
    }

    pub(crate) fn write(&self, w: &mut Writer) {
        w.u8(self.purpose.to_byte()).u8(self.mode.to_byte());
        w.put(&self.session).put(&self.digest).u64(self.generation);
        self.from.write(w);
        self.to.write(w);
    }

    pub(crate) fn read(r: &mut Reader<'_>) -> Result<Self, wire::Error> {
        let purpose = Purpose::from_byte(r.u8()?)?;
        let mode_byte = r.u8()?;
        let mode = Mode::from_byte(mode_byte).map_err(|_| wire::Error::UnknownMode(mode_byte))?;
        let session: [u8; 32] = r.array()?;
        let digest: [u8; 32] = r.array()?;
        let generation = r.u64()?;
        let from = PartyId::read(r)?;
        let to = PartyId::read(r)?;
        Ok(Header {
            purpose,
            mode,
            session,
            digest,
            generation,
            from,
            to,
        })
    }
}
