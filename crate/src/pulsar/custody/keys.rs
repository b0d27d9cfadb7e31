//! The group key ([`GroupKey`]: the ML-DSA public key and what binds it to the sharing)
//! and a party's custody key share ([`KeyShare`]).
//!
//! Wire forms (big-endian):
//!
//! | object | layout |
//! |---|---|
//! | [`GroupKey`] | `PCGK` ‖ u16 version 1 ‖ group commitment `C_0` (32) ‖ ceremony transcript hash (32) ‖ u32 length ‖ `PULG` frame |
//! | [`KeyShare`] (secret) | `PCKS` ‖ u16 version 1 ‖ u32 length ‖ `LSK1` key share ‖ the `GroupKey` body (from `C_0` on) |

use alloc::vec::Vec;
use core::fmt;

use zeroize::Zeroizing;

use crate::lss::{self, GroupPublic};
use crate::mldsa::{self, Mode};
use crate::pulsar::frame::{GroupKeyFrame, SignatureFrame};
use crate::pulsar::Error;
use crate::vss::group::point_from_bytes;
use crate::vss::{Mode as CommitmentMode, Ristretto255};
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// Magic of an encoded [`GroupKey`].
pub const GROUP_KEY_MAGIC: &[u8; 4] = b"PCGK";
/// Magic of an encoded [`KeyShare`].
pub const KEY_SHARE_MAGIC: &[u8; 4] = b"PCKS";
/// Version of both encodings.
pub const VERSION: u16 = 1;
/// Longest `PULG`/`PULS` frame accepted inside another message.
pub(crate) const MAX_FRAME_LEN: usize = 8192;
/// Longest `LSK1` key share accepted inside a [`KeyShare`].
const MAX_LSS_SHARE_LEN: usize = 1 << 20;

/// The Pulsar group key: the ML-DSA public key (which never changes, whatever the
/// resharing), bound to the sharing's group commitment `C_0 = x·G + r·H` and to the key
/// ceremony's transcript hash.
///
/// Signatures under it are plain FIPS 204: anyone verifies them with
/// [`mldsa::verify`] and [`GroupKey::public_key`], or with [`GroupKey::verify`].
#[derive(Clone, PartialEq, Eq)]
pub struct GroupKey {
    pub(crate) mode: Mode,
    pub(crate) public_key: Vec<u8>,
    pub(crate) commitment: [u8; 32],
    pub(crate) ceremony_hash: [u8; 32],
}

impl fmt::Debug for GroupKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GroupKey")
            .field("mode", &self.mode)
            .field("public_key_len", &self.public_key.len())
            .finish_non_exhaustive()
    }
}

impl GroupKey {
    /// The ML-DSA parameter set.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The FIPS 204 public key (pkEncode), as any ML-DSA verifier takes it.
    pub fn public_key(&self) -> &[u8] {
        &self.public_key
    }

    /// The encoded group commitment `C_0` of the sharing (unchanged by resharing).
    pub fn commitment(&self) -> &[u8; 32] {
        &self.commitment
    }

    /// The key ceremony's transcript hash (see [`super::GroupKeyAnnouncement`]).
    pub fn ceremony_hash(&self) -> &[u8; 32] {
        &self.ceremony_hash
    }

    /// The public key in the reference's `PULG` frame.
    pub fn frame(&self) -> Vec<u8> {
        frame_bytes(self.mode, &self.public_key)
    }

    /// Verifies a raw FIPS 204 signature on `msg` with context `ctx` (ML-DSA.Verify,
    /// FIPS 204 Algorithm 3).
    ///
    /// # Errors
    /// [`Error::MlDsa`] with `InvalidSignature`, `InvalidLength` or `ContextTooLong`.
    pub fn verify(&self, msg: &[u8], ctx: &[u8], signature: &[u8]) -> Result<(), Error> {
        Ok(mldsa::verify(self.mode, &self.public_key, msg, ctx, signature)?)
    }

    /// Verifies a signature in a `PULS` frame; the frame's mode must be the key's.
    ///
    /// # Errors
    /// [`Error::Decode`] for a malformed frame, [`Error::MlDsa`] otherwise (a mode
    /// mismatch is `InvalidSignature`).
    pub fn verify_frame(&self, msg: &[u8], ctx: &[u8], frame: &[u8]) -> Result<(), Error> {
        let sig = SignatureFrame::decode(frame)?;
        if sig.mode != self.mode {
            return Err(mldsa::Error::InvalidSignature.into());
        }
        self.verify(msg, ctx, sig.signature)
    }

    pub(crate) fn write_body(&self, w: &mut Writer) {
        w.put(&self.commitment).put(&self.ceremony_hash);
        w.bytes(&self.frame());
    }

    pub(crate) fn read_body(r: &mut Reader<'_>) -> Result<Self, wire::Error> {
        let commitment: [u8; 32] = r.array()?;
        let point = point_from_bytes::<Ristretto255>(&commitment)?;
        if bool::from(group::Group::is_identity(&point)) {
            return Err(wire::Error::InvalidValue("identity group commitment"));
        }
        let ceremony_hash: [u8; 32] = r.array()?;
        let frame = GroupKeyFrame::decode(r.bytes(MAX_FRAME_LEN)?)?;
        Ok(GroupKey {
            mode: frame.mode,
            public_key: frame.public_key.to_vec(),
            commitment,
            ceremony_hash,
        })
    }

    /// Encodes (`PCGK`, see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_header(GROUP_KEY_MAGIC, VERSION);
        self.write_body(&mut w);
        w.into_bytes()
    }

    /// Decodes strictly: header, a canonical non-identity Ristretto255 commitment, a
    /// strict `PULG` frame, no trailing bytes.
    ///
    /// # Errors
    /// [`wire::Error`] naming what was wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, wire::Error> {
        let mut r = Reader::new(bytes);
        r.header(GROUP_KEY_MAGIC, VERSION)?;
        let k = Self::read_body(&mut r)?;
        r.finish()?;
        Ok(k)
    }

    /// Checks that `public` is a Pedersen sharing of this key's secret (same `C_0`).
    pub(crate) fn check_sharing(&self, public: &GroupPublic<Ristretto255>) -> Result<(), Error> {
        if public.mode() != CommitmentMode::Pedersen {
            return Err(Error::NotPedersen);
        }
        if public.group_commitment_bytes() != self.commitment {
            return Err(Error::GroupMismatch);
        }
        Ok(())
    }
}

/// A `PULG` frame for a key whose length is right by construction.
pub(crate) fn frame_bytes(mode: Mode, public_key: &[u8]) -> Vec<u8> {
    framed(&crate::pulsar::frame::GROUP_KEY_MAGIC, mode, public_key)
}

/// A `PULS`/`PULG` frame (research/pulsar.md §3) around a body whose length is right
/// for `mode` by construction.
pub(crate) fn framed(magic: &[u8; 4], mode: Mode, body: &[u8]) -> Vec<u8> {
    let mut w = Writer::with_header(magic, crate::pulsar::frame::VERSION);
    w.u8(mode.to_byte()).u32(body.len() as u32).put(body);
    w.into_bytes()
}

/// One party's custody share: its LSS key share of the group secret `x` (value and
/// Pedersen blind, at one generation) and the group key.
///
/// Built after the key ceremony ([`KeyShare::new`] with the verified
/// [`super::GroupKeyAnnouncement`]'s key) and again after every refresh or reshare
/// (with the new LSS share and the same group key).
///
/// # Security
/// Holds a secret share: zeroized on drop (by [`lss::KeyShare`]), no `Clone`, `Debug`
/// redacted. Fewer than `t` shares reveal nothing about the key (Pedersen sharing is
/// perfectly hiding). [`KeyShare::to_bytes`] returns the secret in the clear: seal it
/// (`lss::snapshot`) before it leaves memory.
pub struct KeyShare {
    pub(crate) share: lss::KeyShare<Ristretto255>,
    pub(crate) group_key: GroupKey,
}

impl fmt::Debug for KeyShare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyShare")
            .field("id", &self.share.id())
            .field("generation", &self.share.generation())
            .field("share", &"<redacted>")
            .field("group_key", &self.group_key)
            .finish()
    }
}

impl KeyShare {
    /// A custody share from an LSS key share and the group key; checks that the share is
    /// a Pedersen sharing of the group key's secret (same group commitment `C_0`).
    ///
    /// # Errors
    /// [`Error::NotPedersen`], [`Error::GroupMismatch`].
    pub fn new(share: lss::KeyShare<Ristretto255>, group_key: GroupKey) -> Result<Self, Error> {
        group_key.check_sharing(share.public())?;
        Ok(KeyShare { share, group_key })
    }

    /// This party's id.
    pub fn id(&self) -> PartyId {
        self.share.id()
    }

    /// The generation of the sharing this share belongs to.
    pub fn generation(&self) -> u64 {
        self.share.generation()
    }

    /// The sharing's public data at this generation.
    pub fn public(&self) -> &GroupPublic<Ristretto255> {
        self.share.public()
    }

    /// The group key.
    pub fn group_key(&self) -> &GroupKey {
        &self.group_key
    }

    /// The LSS key share (to run a refresh or reshare, or to sign with [`super::round1`]).
    ///
    /// # Security
    /// Secret.
    pub fn lss(&self) -> &lss::KeyShare<Ristretto255> {
        &self.share
    }

    /// Encodes (`PCKS`, see the module docs).
    ///
    /// # Security
    /// The output holds the secret share in the clear; it is zeroized when dropped.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        let inner = self.share.to_bytes();
        let mut body = Writer::new();
        self.group_key.write_body(&mut body);
        let body = body.into_bytes();
        // Sized up front so the secret is never left behind by a reallocation.
        let mut out = Zeroizing::new(Vec::with_capacity(10 + inner.len() + body.len()));
        out.extend_from_slice(KEY_SHARE_MAGIC);
        out.extend_from_slice(&VERSION.to_be_bytes());
        out.extend_from_slice(&(inner.len() as u32).to_be_bytes());
        out.extend_from_slice(&inner);
        out.extend_from_slice(&body);
        out
    }

    /// Decodes strictly and checks the share against its commitments and the group key.
    ///
    /// # Errors
    /// [`Error::Decode`] for malformed input, [`Error::NotPedersen`],
    /// [`Error::GroupMismatch`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let mut r = Reader::new(bytes);
        r.header(KEY_SHARE_MAGIC, VERSION)?;
        let share = lss::KeyShare::<Ristretto255>::from_bytes(r.bytes(MAX_LSS_SHARE_LEN)?)?;
        let group_key = GroupKey::read_body(&mut r)?;
        r.finish()?;
        KeyShare::new(share, group_key)
    }
}
