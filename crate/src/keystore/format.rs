//! The `QSNP` snapshot format: metadata, sealing and opening (layout in the module docs).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use chacha20poly1305::aead::{AeadInPlace, KeyInit};
use chacha20poly1305::{Key, Tag, XChaCha20Poly1305, XNonce};
use rand_core::CryptoRngCore;
use zeroize::Zeroizing;

use super::key::{Kdf, KdfParams, SnapshotKey};
use super::{tags, Corruption, Error};
use crate::hash::Transcript;
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// The snapshot magic.
pub const MAGIC: [u8; 4] = *b"QSNP";
/// The snapshot format version.
pub const VERSION: u16 = 1;
/// Length of the XChaCha20-Poly1305 nonce.
pub const NONCE_LEN: usize = 24;
/// Length of the key check value.
pub const KEY_CHECK_LEN: usize = 16;
/// Length of the trailing integrity digest.
pub const DIGEST_LEN: usize = 32;
/// Longest label, in bytes.
pub const MAX_LABEL_LEN: usize = 64;
/// Longest group id, in bytes.
pub const MAX_GROUP_ID_LEN: usize = 64;
/// Largest payload, in bytes (16 MiB).
pub const MAX_PAYLOAD_LEN: usize = 16 << 20;
/// Length of the Poly1305 tag.
const TAG_LEN: usize = 16;

/// The unkeyed digest that ends snapshot and state files.
pub(super) fn digest(bytes: &[u8]) -> [u8; DIGEST_LEN] {
    let mut t = Transcript::new(tags::SNAPSHOT_DIGEST);
    t.append(bytes);
    t.finalize()
}

/// Checks the trailing digest of `bytes`, whose last [`DIGEST_LEN`] bytes it is.
pub(super) fn digest_matches(bytes: &[u8]) -> bool {
    match bytes.len().checked_sub(DIGEST_LEN) {
        Some(split) => digest(&bytes[..split])[..] == bytes[split..],
        None => false,
    }
}

fn check_label(label: &[u8]) -> Result<(), &'static str> {
    if label.is_empty() || label.len() > MAX_LABEL_LEN {
        return Err("label length");
    }
    if !label.iter().all(|b| (0x21..=0x7e).contains(b)) {
        return Err("label characters (printable ASCII without spaces)");
    }
    Ok(())
}

fn check_group_id(group_id: &[u8]) -> Result<(), &'static str> {
    if group_id.is_empty() || group_id.len() > MAX_GROUP_ID_LEN {
        return Err("group id length");
    }
    Ok(())
}

/// The public metadata of a snapshot, stored in clear in its (authenticated) header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Metadata {
    label: String,
    group_id: Vec<u8>,
    generation: u64,
    threshold: u16,
    party: PartyId,
    created: u64,
}

impl Metadata {
    /// Metadata for a share of party `party` in generation `generation` of the group
    /// `group_id` (e.g. a hash of the group public key) under scheme `label` (e.g.
    /// `"lens-ed25519"`, `"pulsar"`). `created` is any caller-chosen counter or time.
    ///
    /// # Errors
    /// [`Error::InvalidMetadata`] if `label` is not 1–64 printable ASCII characters
    /// without spaces, `group_id` is not 1–64 bytes, or `threshold` is zero.
    pub fn new(
        label: &str,
        group_id: &[u8],
        generation: u64,
        threshold: u16,
        party: PartyId,
        created: u64,
    ) -> Result<Metadata, Error> {
        check_label(label.as_bytes()).map_err(Error::InvalidMetadata)?;
        check_group_id(group_id).map_err(Error::InvalidMetadata)?;
        if threshold == 0 {
            return Err(Error::InvalidMetadata("threshold 0"));
        }
        Ok(Metadata {
            label: label.into(),
            group_id: group_id.to_vec(),
            generation,
            threshold,
            party,
            created,
        })
    }

    /// The same metadata for another generation and creation counter.
    pub fn next(&self, generation: u64, created: u64) -> Metadata {
        Metadata {
            generation,
            created,
            ..self.clone()
        }
    }

    /// The scheme label.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The group key id.
    pub fn group_id(&self) -> &[u8] {
        &self.group_id
    }

    /// The generation.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The threshold.
    pub fn threshold(&self) -> u16 {
        self.threshold
    }

    /// The party whose share this is.
    pub fn party(&self) -> PartyId {
        self.party
    }

    /// The caller-supplied creation counter or time.
    pub fn created(&self) -> u64 {
        self.created
    }

    fn write(&self, w: &mut Writer) {
        w.bytes(self.label.as_bytes())
            .bytes(&self.group_id)
            .u64(self.generation)
            .u16(self.threshold);
        self.party.write(w);
        w.u64(self.created);
    }

    fn read(r: &mut Reader<'_>) -> Result<Metadata, wire::Error> {
        let label = r.bytes(MAX_LABEL_LEN)?;
        check_label(label).map_err(|_| wire::Error::InvalidValue("snapshot label"))?;
        let group_id = r.bytes(MAX_GROUP_ID_LEN)?;
        check_group_id(group_id).map_err(|_| wire::Error::InvalidValue("snapshot group id"))?;
        let generation = r.u64()?;
        let threshold = r.u16()?;
        if threshold == 0 {
            return Err(wire::Error::InvalidValue("threshold 0"));
        }
        let party = PartyId::read(r)?;
        let created = r.u64()?;
        Ok(Metadata {
            // Checked above: printable ASCII is UTF-8.
            label: label.iter().map(|&b| char::from(b)).collect(),
            group_id: group_id.to_vec(),
            generation,
            threshold,
            party,
            created,
        })
    }
}

/// A sealed snapshot: public metadata and an encrypted payload, as stored.
///
/// Construct with [`Snapshot::seal`] or [`Snapshot::from_bytes`]; read the payload
/// with [`Snapshot::open`].
#[derive(Clone, PartialEq, Eq)]
pub struct Snapshot {
    kdf: Kdf,
    metadata: Metadata,
    nonce: [u8; NONCE_LEN],
    key_check: [u8; KEY_CHECK_LEN],
    header_len: usize,
    bytes: Vec<u8>,
}

impl Snapshot {
    /// Encrypts `payload` (the secret share bytes) under `key` with a fresh nonce from
    /// `rng`, binding `metadata` and the whole header as associated data.
    ///
    /// # Errors
    /// [`Error::PayloadTooLarge`] above [`MAX_PAYLOAD_LEN`].
    ///
    /// # Security
    /// `rng` must be a CSPRNG: the nonce must never repeat under one key. The plaintext
    /// copy used for in-place encryption is wiped.
    pub fn seal(
        key: &SnapshotKey,
        metadata: &Metadata,
        payload: &[u8],
        rng: &mut impl CryptoRngCore,
    ) -> Result<Snapshot, Error> {
        if payload.len() > MAX_PAYLOAD_LEN {
            return Err(Error::PayloadTooLarge {
                len: payload.len(),
                max: MAX_PAYLOAD_LEN,
            });
        }
        let mut nonce = [0u8; NONCE_LEN];
        rng.fill_bytes(&mut nonce);
        // Public: the nonce and the key check value are stored in the clear.
        crate::ct::public_slice(&nonce);
        let key_check = crate::ct::public(key.key_check(&nonce));

        let mut w = Writer::with_header(&MAGIC, VERSION);
        key.kdf().write(&mut w);
        metadata.write(&mut w);
        // In range: payload.len() + TAG_LEN ≤ 16 MiB + 16 < 2^32.
        w.put(&nonce)
            .put(&key_check)
            .u32(crate::wire::len_u32(payload.len() + TAG_LEN));
        let mut bytes = w.into_bytes();
        let header_len = bytes.len();

        let mut buf = Zeroizing::new(Vec::with_capacity(payload.len()));
        buf.extend_from_slice(payload);
        let cipher = XChaCha20Poly1305::new(Key::from_slice(&key.aead_key()[..]));
        let tag = cipher
            .encrypt_in_place_detached(XNonce::from_slice(&nonce), &bytes, &mut buf[..])
            .map_err(|_| Error::PayloadTooLarge {
                len: payload.len(),
                max: MAX_PAYLOAD_LEN,
            })?;
        bytes.reserve_exact(buf.len() + TAG_LEN + DIGEST_LEN);
        bytes.extend_from_slice(&buf);
        bytes.extend_from_slice(&tag);
        // Public: the ciphertext and tag are what is stored.
        crate::ct::public_slice(&bytes[header_len..]);
        let d = digest(&bytes);
        bytes.extend_from_slice(&d);

        Ok(Snapshot {
            kdf: *key.kdf(),
            metadata: metadata.clone(),
            nonce,
            key_check,
            header_len,
            bytes,
        })
    }

    /// Decodes a snapshot strictly and checks its integrity digest (no key needed).
    ///
    /// # Errors
    /// [`Error::Malformed`] (truncation, extension, bad magic or version, unknown KDF,
    /// out-of-range lengths or metadata); [`Error::Corrupt`] with
    /// [`Corruption::Digest`] if any byte was altered.
    pub fn from_bytes(bytes: &[u8]) -> Result<Snapshot, Error> {
        let (kdf, metadata, nonce, key_check, header_len) = Self::decode(bytes).map_err(Error::Malformed)?;
        if !digest_matches(bytes) {
            return Err(Error::Corrupt(Corruption::Digest));
        }
        Ok(Snapshot {
            kdf,
            metadata,
            nonce,
            key_check,
            header_len,
            bytes: bytes.to_vec(),
        })
    }

    #[allow(clippy::type_complexity)]
    fn decode(
        bytes: &[u8],
    ) -> Result<(Kdf, Metadata, [u8; NONCE_LEN], [u8; KEY_CHECK_LEN], usize), wire::Error> {
        let mut r = Reader::new(bytes);
        r.header(&MAGIC, VERSION)?;
        let kdf = Kdf::read(&mut r)?;
        let metadata = Metadata::read(&mut r)?;
        let nonce = r.array()?;
        let key_check = r.array()?;
        let ct_len = r.count(MAX_PAYLOAD_LEN + TAG_LEN, 1)?;
        if ct_len < TAG_LEN {
            return Err(wire::Error::InvalidValue("ciphertext shorter than its tag"));
        }
        let header_len = bytes.len() - r.remaining();
        r.take(ct_len)?;
        r.take(DIGEST_LEN)?;
        r.finish()?;
        Ok((kdf, metadata, nonce, key_check, header_len))
    }

    /// The encoding (what [`Snapshot::from_bytes`] reads).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The encoding, copied.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.bytes.clone()
    }

    /// The public metadata.
    pub fn metadata(&self) -> &Metadata {
        &self.metadata
    }

    /// How the sealing key was obtained (raw, or Argon2id with parameters and salt).
    pub fn kdf(&self) -> &Kdf {
        &self.kdf
    }

    /// Length of the encrypted payload, in bytes.
    pub fn payload_len(&self) -> usize {
        self.bytes.len() - self.header_len - TAG_LEN - DIGEST_LEN
    }

    /// Decrypts and authenticates the payload.
    ///
    /// # Errors
    /// [`Error::WrongKey`] if `key` is not the sealing key (constant-time key check);
    /// [`Error::Corrupt`] with [`Corruption::Authentication`] if the header or
    /// ciphertext was altered.
    ///
    /// # Security
    /// The result is secret; it is wiped when dropped.
    pub fn open(&self, key: &SnapshotKey) -> Result<Zeroizing<Vec<u8>>, Error> {
        if !key.matches_check(&self.nonce, &self.key_check) {
            return Err(Error::WrongKey);
        }
        let header = &self.bytes[..self.header_len];
        let sealed = &self.bytes[self.header_len..self.bytes.len() - DIGEST_LEN];
        let (ct, tag) = sealed.split_at(sealed.len() - TAG_LEN);
        let mut buf = Zeroizing::new(ct.to_vec());
        let cipher = XChaCha20Poly1305::new(Key::from_slice(&key.aead_key()[..]));
        let authentic = cipher
            .decrypt_in_place_detached(
                XNonce::from_slice(&self.nonce),
                header,
                &mut buf[..],
                Tag::from_slice(tag),
            )
            .is_ok();
        // Public: whether the snapshot authenticates is what the caller is told.
        if !crate::ct::public(authentic) {
            return Err(Error::Corrupt(Corruption::Authentication));
        }
        Ok(buf)
    }

    /// Re-derives the sealing key from `passphrase` with the Argon2id parameters and
    /// salt recorded in the header, refusing parameters above `limits`.
    ///
    /// # Errors
    /// [`Error::NotPassphraseSealed`]; [`Error::KdfTooCostly`] if the recorded costs
    /// exceed `limits` (the header is read before any key is derived, so a file must
    /// not be able to make the caller allocate without bound); [`Error::KdfMemory`].
    pub fn passphrase_key(&self, passphrase: &[u8], limits: &KdfParams) -> Result<SnapshotKey, Error> {
        match self.kdf {
            Kdf::Argon2id { params, salt } => {
                params.check_within(limits)?;
                SnapshotKey::from_passphrase(passphrase, &salt, params)
            }
            Kdf::Raw => Err(Error::NotPassphraseSealed),
        }
    }

    /// [`Snapshot::passphrase_key`], then [`Snapshot::open`].
    ///
    /// # Errors
    /// As those two; a wrong passphrase is [`Error::WrongKey`].
    ///
    /// # Security
    /// The derived key is wiped before returning; the payload is wiped when dropped.
    pub fn open_with_passphrase(
        &self,
        passphrase: &[u8],
        limits: &KdfParams,
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        self.open(&self.passphrase_key(passphrase, limits)?)
    }
}

impl fmt::Debug for Snapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Snapshot")
            .field("metadata", &self.metadata)
            .field("kdf", &self.kdf)
            .field("payload_len", &self.payload_len())
            .finish_non_exhaustive()
    }
}

/// A decrypted snapshot: its metadata and the secret payload.
///
/// # Security
/// The payload is wiped on drop; `Debug` prints `<redacted>` for it.
pub struct OpenedSnapshot {
    metadata: Metadata,
    payload: Zeroizing<Vec<u8>>,
}

impl OpenedSnapshot {
    /// Opens `snapshot` under `key`, keeping its metadata.
    ///
    /// # Errors
    /// As [`Snapshot::open`].
    pub fn open(snapshot: &Snapshot, key: &SnapshotKey) -> Result<OpenedSnapshot, Error> {
        Ok(OpenedSnapshot {
            payload: snapshot.open(key)?,
            metadata: snapshot.metadata.clone(),
        })
    }

    /// The public metadata.
    pub fn metadata(&self) -> &Metadata {
        &self.metadata
    }

    /// The secret payload.
    ///
    /// # Security
    /// Secret bytes: do not log them or keep copies that are not wiped.
    pub fn payload(&self) -> &[u8] {
        &self.payload
    }

    /// The secret payload, still wiped on drop.
    pub fn into_payload(self) -> Zeroizing<Vec<u8>> {
        self.payload
    }
}

impl fmt::Debug for OpenedSnapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpenedSnapshot")
            .field("metadata", &self.metadata)
            .field("payload", &"<redacted>")
            .finish()
    }
}
