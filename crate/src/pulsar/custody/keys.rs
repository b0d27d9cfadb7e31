//! The group key ([`GroupKey`]: the ML-DSA public key and the certificate that binds it to
//! the sharing) and a party's custody key share ([`KeyShare`]).
//!
//! Nothing in the ML-DSA key itself ties it to the Pedersen commitments, so a key is
//! accepted only with an [`ActivationCertificate`] whose statement names it: at least `t`
//! members of the sharing's generation proved possession of their shares for that key
//! (after the key ceremony, and again after every refresh or reshare). A party below the
//! threshold cannot forge one, and nothing lets a caller-supplied key replace a certified
//! one: [`KeyShare::new`], [`KeyShare::from_bytes`] and every session check the
//! certificate against the sharing.
//!
//! **Every byte of a record is checked.** The scheme key a Pulsar certificate binds (its
//! statement's key, [`AnnouncedKey::scheme_key`]) is the whole announced-key body — `C_0`,
//! the ceremony transcript hash and the `PULG` frame — so the members certify the
//! ceremony hash too (each recomputed it from its own sharing before certifying, and a
//! reshare binds the body its record carries). The certificate cannot sign itself: it is
//! verified (every proof) against the sharing, and its encoding is canonical. A record is
//! only ever read by [`GroupKey::from_bytes`] (or inside [`KeyShare::from_bytes`]) against
//! the sharing it is for: strict decoding, the re-encoding equal to the input, and the
//! certificate verified for the body — so no [`GroupKey`] value holds a byte nobody
//! certified, and whatever takes one (sessions, reshares, [`super::verify_activation`])
//! can rely on it.
//!
//! Wire forms (big-endian):
//!
//! | object | layout |
//! |---|---|
//! | [`AnnouncedKey`] body | group commitment `C_0` (32) ‖ ceremony transcript hash (32) ‖ u32 length ‖ `PULG` frame |
//! | [`GroupKey`] | `PCGK` ‖ u16 version 3 ‖ the announced-key body ‖ u32 length ‖ `LSA2` certificate (whose scheme key is the announced-key body) |
//! | [`KeyShare`] (secret) | `PCKS` ‖ u16 version 3 ‖ u32 length ‖ `LSK1` key share ‖ the `GroupKey` body (after its header) |

use alloc::vec::Vec;
use core::fmt;

use zeroize::Zeroizing;

use crate::hash::{tags, Transcript};
use crate::lss::{self, ActivationCertificate, ActivationKind, GroupPublic};
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
/// Version of both encodings (2: the group key carries its certificate; 3: the
/// certificate binds the whole announced key, ceremony transcript hash included).
pub(crate) const VERSION: u16 = 3;
/// Longest `PULG`/`PULS` frame accepted inside another message.
pub(crate) const MAX_FRAME_LEN: usize = 8192;
/// Longest `LSK1` key share accepted inside a [`KeyShare`].
const MAX_LSS_SHARE_LEN: usize = 1 << 20;
/// Longest certificate accepted inside a [`GroupKey`].
const MAX_CERTIFICATE_LEN: usize = 1 << 20;
/// Longest `PCGK` record any decoder of a message that carries one accepts: header, the
/// announced-key body with the longest frame, and the longest certificate.
pub(crate) const MAX_RECORD_LEN: usize = 6 + 32 + 32 + 4 + MAX_FRAME_LEN + 4 + MAX_CERTIFICATE_LEN;

/// The ML-DSA key a key ceremony's combiner announced: proven possessed by the combiner
/// and bound to the ceremony transcript, but not yet certified by the members.
#[derive(Clone, PartialEq, Eq)]
pub struct AnnouncedKey {
    pub(crate) mode: Mode,
    pub(crate) public_key: Vec<u8>,
    pub(crate) commitment: [u8; 32],
    pub(crate) ceremony_hash: [u8; 32],
}

impl fmt::Debug for AnnouncedKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnnouncedKey")
            .field("mode", &self.mode)
            .field("public_key_len", &self.public_key.len())
            .finish_non_exhaustive()
    }
}

impl AnnouncedKey {
    /// The ML-DSA parameter set.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The FIPS 204 public key.
    pub fn public_key(&self) -> &[u8] {
        &self.public_key
    }

    /// The public key in the reference's `PULG` frame.
    pub fn frame(&self) -> Vec<u8> {
        frame_bytes(self.mode, &self.public_key)
    }

    /// The scheme key every Pulsar activation certificate binds (its statement's key and
    /// [`ActivationCertificate::key`]): the announced-key body, `C_0` ‖ ceremony
    /// transcript hash ‖ u32 length ‖ `PULG` frame.
    pub fn scheme_key(&self) -> Vec<u8> {
        let mut w = Writer::new();
        self.write_body(&mut w);
        w.into_bytes()
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
        Ok(AnnouncedKey {
            mode: frame.mode,
            public_key: frame.public_key.to_vec(),
            commitment,
            ceremony_hash,
        })
    }

    /// Checks that `public` is a Pedersen sharing whose group commitment is this key's.
    pub(crate) fn check_commitment(&self, public: &GroupPublic<Ristretto255>) -> Result<(), Error> {
        if public.mode() != CommitmentMode::Pedersen {
            return Err(Error::NotPedersen);
        }
        if public.group_commitment_bytes() != self.commitment {
            return Err(Error::GroupMismatch);
        }
        Ok(())
    }
}

/// The Pulsar group key: the ML-DSA public key (which never changes, whatever the
/// resharing), with the [`ActivationCertificate`] of the current generation binding it to
/// the sharing (see the module docs).
///
/// Every value is certified: it is made only by [`GroupKey::new`],
/// [`GroupKey::reactivated`], [`GroupKey::from_bytes`] or [`KeyShare::from_bytes`], each
/// of which verifies the certificate against the sharing the record is for.
///
/// Signatures under it are plain FIPS 204: anyone verifies them with
/// [`mldsa::verify`] and [`GroupKey::public_key`], or with [`GroupKey::verify`].
#[derive(Clone)]
pub struct GroupKey {
    pub(crate) announced: AnnouncedKey,
    pub(crate) certificate: ActivationCertificate,
    /// Digest of the sharing the certificate was last verified against, so that
    /// signing sessions over a share's own key do not re-verify `n` proofs each time.
    /// `None` only between decoding and the check, inside this module.
    verified_for: Option<[u8; 32]>,
}

/// Names one sharing's public data exactly (its canonical encoding).
fn sharing_digest(public: &GroupPublic<Ristretto255>) -> [u8; 32] {
    let mut t = Transcript::new(tags::PULSAR_VERIFIED_SHARING);
    t.append(&public.to_bytes());
    t.finalize()
}

impl PartialEq for GroupKey {
    fn eq(&self, other: &Self) -> bool {
        self.announced == other.announced && self.certificate == other.certificate
    }
}

impl Eq for GroupKey {}

impl fmt::Debug for GroupKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GroupKey")
            .field("mode", &self.announced.mode)
            .field("generation", &self.certificate.generation())
            .finish_non_exhaustive()
    }
}

impl GroupKey {
    /// The group key `announced` at the key ceremony, certified for the sharing `public`
    /// by `certificate` (the key-certification round after the ceremony).
    ///
    /// # Errors
    /// [`Error::NotPedersen`], [`Error::GroupMismatch`] (another sharing), [`Error::Lss`]
    /// with `InvalidActivation` (a certificate that does not bind this key to `public`).
    pub fn new(
        announced: AnnouncedKey,
        public: &GroupPublic<Ristretto255>,
        certificate: ActivationCertificate,
    ) -> Result<GroupKey, Error> {
        let mut key = GroupKey {
            announced,
            certificate,
            verified_for: None,
        };
        key.certify_for(public)?;
        Ok(key)
    }

    /// The same key, certified for the new generation `public` of the sharing by the
    /// activation certificate of the refresh or reshare that made it.
    ///
    /// # Errors
    /// As [`GroupKey::new`].
    pub fn reactivated(
        &self,
        public: &GroupPublic<Ristretto255>,
        certificate: ActivationCertificate,
    ) -> Result<GroupKey, Error> {
        GroupKey::new(self.announced.clone(), public, certificate)
    }

    /// The ML-DSA parameter set.
    pub fn mode(&self) -> Mode {
        self.announced.mode
    }

    /// The FIPS 204 public key (pkEncode), as any ML-DSA verifier takes it.
    pub fn public_key(&self) -> &[u8] {
        &self.announced.public_key
    }

    /// The encoded group commitment `C_0` of the sharing (unchanged by resharing).
    pub fn commitment(&self) -> &[u8; 32] {
        &self.announced.commitment
    }

    /// The key ceremony's transcript hash (see [`super::GroupKeyAnnouncement`]).
    pub fn ceremony_hash(&self) -> &[u8; 32] {
        &self.announced.ceremony_hash
    }

    /// The certificate of the generation this record is for.
    pub fn certificate(&self) -> &ActivationCertificate {
        &self.certificate
    }

    /// The generation this record is certified for.
    pub fn generation(&self) -> u64 {
        self.certificate.generation()
    }

    /// The public key in the reference's `PULG` frame.
    pub fn frame(&self) -> Vec<u8> {
        self.announced.frame()
    }

    /// The scheme key its certificates bind: the announced-key body (see
    /// [`AnnouncedKey::scheme_key`]).
    pub fn scheme_key(&self) -> Vec<u8> {
        self.announced.scheme_key()
    }

    /// Verifies a raw FIPS 204 signature on `msg` with context `ctx` (ML-DSA.Verify,
    /// FIPS 204 Algorithm 3).
    ///
    /// # Errors
    /// [`Error::MlDsa`] with `InvalidSignature` (or a length error).
    pub fn verify(&self, msg: &[u8], ctx: &[u8], signature: &[u8]) -> Result<(), Error> {
        Ok(mldsa::verify(
            self.mode(),
            self.public_key(),
            msg,
            ctx,
            signature,
        )?)
    }

    /// Verifies a `PULS`-framed signature (its mode must be the key's).
    ///
    /// # Errors
    /// As [`GroupKey::verify`]; [`Error::Decode`] for a malformed frame.
    pub fn verify_frame(&self, msg: &[u8], ctx: &[u8], frame: &[u8]) -> Result<(), Error> {
        let sig = SignatureFrame::decode(frame)?;
        if sig.mode != self.mode() {
            return Err(mldsa::Error::InvalidSignature.into());
        }
        self.verify(msg, ctx, sig.signature)
    }

    /// Checks that this record is for the sharing `public`: Pedersen, the same `C_0`, and
    /// a certificate that binds the announced key (`C_0`, ceremony transcript hash,
    /// `PULG` frame) to `public`'s generation, every proof verified.
    ///
    /// # Errors
    /// [`Error::NotPedersen`], [`Error::GroupMismatch`], [`Error::Lss`] with
    /// `InvalidActivation` and the reason.
    pub fn check_sharing(&self, public: &GroupPublic<Ristretto255>) -> Result<(), Error> {
        self.announced.check_commitment(public)?;
        if self.verified_for == Some(sharing_digest(public)) {
            return Ok(());
        }
        self.certificate
            .verify(public, ActivationKind::Pulsar, &self.scheme_key())?;
        Ok(())
    }

    /// [`GroupKey::check_sharing`], remembering a success so that later checks against
    /// the same sharing cost one hash of its public data.
    fn certify_for(&mut self, public: &GroupPublic<Ristretto255>) -> Result<(), Error> {
        self.check_sharing(public)?;
        self.verified_for = Some(sharing_digest(public));
        Ok(())
    }

    pub(crate) fn write_body(&self, w: &mut Writer) {
        self.announced.write_body(w);
        w.bytes(&self.certificate.to_bytes());
    }

    fn read_body(r: &mut Reader<'_>) -> Result<Self, wire::Error> {
        let announced = AnnouncedKey::read_body(r)?;
        let certificate = ActivationCertificate::from_bytes(r.bytes(MAX_CERTIFICATE_LEN)?)?;
        Ok(GroupKey {
            announced,
            certificate,
            verified_for: None,
        })
    }

    /// Encodes (`PCGK`, see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_header(GROUP_KEY_MAGIC, VERSION);
        self.write_body(&mut w);
        w.into_bytes()
    }

    /// Reads the record of the sharing `public` — the one strict check every `PCGK`
    /// record goes through: strict decoding (header, a canonical non-identity
    /// Ristretto255 commitment, a strict `PULG` frame, a strict certificate, no trailing
    /// bytes), the re-encoding equal to `bytes`, and [`GroupKey::check_sharing`] against
    /// `public`. Every byte is then either fixed (header, lengths) or certified.
    ///
    /// # Errors
    /// [`Error::Decode`] naming what was wrong with the bytes; as
    /// [`GroupKey::check_sharing`].
    pub fn from_bytes(bytes: &[u8], public: &GroupPublic<Ristretto255>) -> Result<Self, Error> {
        let mut r = Reader::new(bytes);
        r.header(GROUP_KEY_MAGIC, VERSION)?;
        let mut k = Self::read_body(&mut r)?;
        r.finish()?;
        if k.to_bytes() != bytes {
            return Err(wire::Error::InvalidValue("non-canonical group key record").into());
        }
        k.certify_for(public)?;
        Ok(k)
    }
}

impl GroupKey {
    /// Reads a record back from a key-store entry: strictly, as [`GroupKey::from_bytes`],
    /// but without the sharing it was certified for, which a pending generation does not
    /// keep. The entry is authenticated under the store key and held a certified record
    /// when it was sealed; the record is used only to be [`GroupKey::reactivated`] for the
    /// new sharing, which certifies it again.
    pub(crate) fn from_stored(bytes: &[u8]) -> Result<Self, Error> {
        let mut r = Reader::new(bytes);
        r.header(GROUP_KEY_MAGIC, VERSION)?;
        let k = Self::read_body(&mut r)?;
        r.finish()?;
        if k.to_bytes() != bytes {
            return Err(wire::Error::InvalidValue("non-canonical group key record").into());
        }
        Ok(k)
    }
}

pub(crate) fn frame_bytes(mode: Mode, public_key: &[u8]) -> Vec<u8> {
    framed(&crate::pulsar::frame::GROUP_KEY_MAGIC, mode, public_key)
}

/// The reference's 11-byte frame ([`crate::wire::frame`]) around `body`.
pub(crate) fn framed(magic: &[u8; 4], mode: Mode, body: &[u8]) -> Vec<u8> {
    crate::wire::frame::encode(magic, mode.to_byte(), body)
}

/// A party's custody share: its LSS share of the group secret and the certified group
/// key.
///
/// # Security
/// Holds the secret share: wiped on drop, `Debug` redacted; [`KeyShare::to_bytes`] is
/// secret (seal it with `keystore`).
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
    /// A custody share from an LSS share and the group key, after checking that the key
    /// is certified for the share's generation of the sharing.
    ///
    /// # Errors
    /// As [`GroupKey::check_sharing`].
    pub fn new(share: lss::KeyShare<Ristretto255>, mut group_key: GroupKey) -> Result<Self, Error> {
        group_key.certify_for(share.public())?;
        Ok(KeyShare { share, group_key })
    }

    /// This party's id.
    pub fn id(&self) -> PartyId {
        self.share.id()
    }

    /// A second copy (for a party that must keep the share across rounds).
    pub(crate) fn duplicate(&self) -> KeyShare {
        KeyShare {
            share: self.share.duplicate(),
            group_key: self.group_key.clone(),
        }
    }

    /// The sharing's generation.
    pub fn generation(&self) -> u64 {
        self.share.generation()
    }

    /// The sharing's public data.
    pub fn public(&self) -> &GroupPublic<Ristretto255> {
        self.share.public()
    }

    /// The group key.
    pub fn group_key(&self) -> &GroupKey {
        &self.group_key
    }

    /// The LSS key share (for signing sessions and resharing).
    ///
    /// # Security
    /// Secret.
    pub fn lss(&self) -> &lss::KeyShare<Ristretto255> {
        &self.share
    }

    /// Encodes (`PCKS`, see the module docs).
    ///
    /// # Security
    /// The output holds the secret share in the clear; it is wiped when dropped, and the
    /// writer wipes every buffer it outgrows.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        let inner = self.share.to_bytes();
        let mut w = Writer::with_capacity(4096 + inner.len());
        w.put(KEY_SHARE_MAGIC).u16(VERSION);
        w.bytes(&inner);
        self.group_key.write_body(&mut w);
        w.into_secret()
    }

    /// Decodes strictly and re-checks the embedded group key as [`GroupKey::from_bytes`]
    /// does, against the share's sharing and generation (the re-encoding equal to the
    /// input, the certificate verified for the announced key).
    ///
    /// # Errors
    /// [`Error::Decode`] for malformed bytes; as [`KeyShare::new`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let mut r = Reader::new(bytes);
        r.header(KEY_SHARE_MAGIC, VERSION)?;
        let share = lss::KeyShare::<Ristretto255>::from_bytes(r.bytes(MAX_LSS_SHARE_LEN)?)?;
        // The rest is the group key's body (public).
        let body = bytes.get(bytes.len() - r.remaining()..).unwrap_or_default();
        let group_key = GroupKey::read_body(&mut r)?;
        r.finish()?;
        let mut w = Writer::new();
        group_key.write_body(&mut w);
        if w.into_bytes() != body {
            return Err(wire::Error::InvalidValue("non-canonical group key record").into());
        }
        KeyShare::new(share, group_key)
    }
}
