//! Keyring entries: a keyring's current share or its pending generation as the payload of
//! one sealed snapshot (`QKRE`, layout in the module docs).

use alloc::vec::Vec;
use core::fmt;

use rand_core::CryptoRngCore;
use zeroize::Zeroizing;

use super::format::MAX_PAYLOAD_LEN;
use super::{Error, Metadata, Snapshot, SnapshotKey};
use crate::party::keyring::{Custody, Keyring};
use crate::wire::{self, Reader, Writer};

/// The magic of a keyring entry (inside the encrypted payload of a snapshot).
pub const ENTRY_MAGIC: [u8; 4] = *b"QKRE";
/// The keyring entry version.
pub const ENTRY_VERSION: u16 = 1;
/// The bytes an entry adds around the scheme's encoding: magic, version, kind,
/// generation, body length.
const ENTRY_OVERHEAD: usize = 4 + 2 + 1 + 8 + 4;

/// A key share whose keyring the key store can persist: the scheme's strict encodings of
/// its share and of its pending generation.
pub trait Storable: Custody {
    /// Encodes the share.
    ///
    /// # Security
    /// The output holds the secret share: it is wiped when dropped.
    fn share_to_bytes(&self) -> Zeroizing<Vec<u8>>;

    /// Decodes a share strictly (as the scheme's own `from_bytes` does).
    ///
    /// # Errors
    /// The scheme's decoding errors.
    #[allow(clippy::result_large_err)]
    fn share_from_bytes(bytes: &[u8]) -> Result<Self, crate::Error>;

    /// Encodes a pending generation (its new share, if any, and its public data).
    ///
    /// # Security
    /// The output may hold the new secret share: it is wiped when dropped.
    fn pending_to_bytes(pending: &Self::Pending) -> Zeroizing<Vec<u8>>;

    /// Decodes a pending generation strictly.
    ///
    /// # Errors
    /// The scheme's decoding errors.
    #[allow(clippy::result_large_err)]
    fn pending_from_bytes(bytes: &[u8]) -> Result<Self::Pending, crate::Error>;
}

/// What a keyring entry holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// The share the member signs with (the keyring's current generation).
    Current,
    /// A generation dealt but not yet activated (the keyring's pending generation).
    Pending,
}

impl EntryKind {
    fn to_byte(self) -> u8 {
        match self {
            EntryKind::Current => 1,
            EntryKind::Pending => 2,
        }
    }

    fn from_byte(b: u8) -> Result<EntryKind, wire::Error> {
        match b {
            1 => Ok(EntryKind::Current),
            2 => Ok(EntryKind::Pending),
            other => Err(wire::Error::UnknownMode(other)),
        }
    }
}

/// One opened keyring entry.
///
/// # Security
/// Holds a secret share (wiped on drop by the scheme's types); `Debug` shows the kind and
/// the generation only.
pub enum Entry<S: Custody> {
    /// The keyring's current share.
    Current(S),
    /// The keyring's pending generation.
    Pending(S::Pending),
}

impl<S: Custody> Entry<S> {
    /// What the entry holds.
    pub fn kind(&self) -> EntryKind {
        match self {
            Entry::Current(_) => EntryKind::Current,
            Entry::Pending(_) => EntryKind::Pending,
        }
    }

    /// The entry's generation.
    pub fn generation(&self) -> u64 {
        match self {
            Entry::Current(s) => s.generation(),
            Entry::Pending(p) => S::pending_generation(p),
        }
    }
}

impl<S: Custody> fmt::Debug for Entry<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("kind", &self.kind())
            .field("generation", &self.generation())
            .finish_non_exhaustive()
    }
}

/// Seals `keyring`'s current share, if any, as a snapshot of its generation (`metadata`
/// gives the label, group id, threshold, party and creation counter; the generation is
/// the share's).
///
/// # Errors
/// As [`Snapshot::seal`].
pub fn seal_current<S: Storable>(
    key: &SnapshotKey,
    metadata: &Metadata,
    share: &S,
    rng: &mut impl CryptoRngCore,
) -> Result<Snapshot, Error> {
    let body = share.share_to_bytes();
    seal_entry(key, metadata, EntryKind::Current, share.generation(), &body, rng)
}

/// Seals a pending generation as a snapshot of its generation.
///
/// # Errors
/// As [`Snapshot::seal`].
pub fn seal_pending<S: Storable>(
    key: &SnapshotKey,
    metadata: &Metadata,
    pending: &S::Pending,
    rng: &mut impl CryptoRngCore,
) -> Result<Snapshot, Error> {
    let body = S::pending_to_bytes(pending);
    seal_entry(
        key,
        metadata,
        EntryKind::Pending,
        S::pending_generation(pending),
        &body,
        rng,
    )
}

fn seal_entry(
    key: &SnapshotKey,
    metadata: &Metadata,
    kind: EntryKind,
    generation: u64,
    body: &[u8],
    rng: &mut impl CryptoRngCore,
) -> Result<Snapshot, Error> {
    if body.len() > MAX_PAYLOAD_LEN - ENTRY_OVERHEAD {
        return Err(Error::PayloadTooLarge {
            len: body.len() + ENTRY_OVERHEAD,
            max: MAX_PAYLOAD_LEN,
        });
    }
    let mut w = Writer::with_capacity(ENTRY_OVERHEAD + body.len());
    w.put(&ENTRY_MAGIC)
        .u16(ENTRY_VERSION)
        .u8(kind.to_byte())
        .u64(generation)
        .bytes(body);
    let payload = w.into_secret();
    Snapshot::seal(key, &metadata.next(generation, metadata.created()), &payload, rng)
}

/// Opens a snapshot holding a keyring entry: decrypts it, decodes the entry strictly and
/// checks that the header's generation, the entry's and the share's agree.
///
/// # Errors
/// As [`Snapshot::open`]; [`Error::EntryMalformed`] if the payload is not a keyring entry
/// of its generation; the scheme's decoding errors.
#[allow(clippy::result_large_err)]
pub fn open_entry<S: Storable>(snapshot: &Snapshot, key: &SnapshotKey) -> Result<Entry<S>, crate::Error> {
    let payload = snapshot.open(key)?;
    // Public: the framing says which kind of entry of which (public) generation follows;
    // only the scheme's share inside the body is secret.
    crate::ct::public_slice(payload.get(..ENTRY_OVERHEAD).unwrap_or(&payload));
    let expected = snapshot.metadata().generation();
    let (kind, body) = decode_entry(&payload, expected).map_err(Error::EntryMalformed)?;
    let entry = match kind {
        EntryKind::Current => Entry::Current(S::share_from_bytes(body)?),
        EntryKind::Pending => Entry::Pending(S::pending_from_bytes(body)?),
    };
    if entry.generation() != expected {
        return Err(Error::EntryMalformed(wire::Error::InvalidValue("the share's generation")).into());
    }
    Ok(entry)
}

fn decode_entry(payload: &[u8], expected: u64) -> Result<(EntryKind, &[u8]), wire::Error> {
    let mut r = Reader::new(payload);
    r.header(&ENTRY_MAGIC, ENTRY_VERSION)?;
    let kind = EntryKind::from_byte(r.u8()?)?;
    if r.u64()? != expected {
        return Err(wire::Error::InvalidValue("entry generation"));
    }
    let body = r.bytes(MAX_PAYLOAD_LEN)?;
    r.finish()?;
    Ok((kind, body))
}

/// A keyring made of what was stored: `current` and, above it, `pending`.
///
/// # Errors
/// [`Error::EntryMalformed`] unless the pending generation is above the current one.
#[allow(clippy::result_large_err)]
pub(crate) fn keyring_of<S: Custody>(
    current: Option<S>,
    pending: Option<S::Pending>,
) -> Result<Keyring<S>, crate::Error> {
    let mut keyring = current.map_or_else(Keyring::empty, Keyring::new);
    if let Some(p) = pending {
        keyring.stage(p).map_err(|_| {
            Error::EntryMalformed(wire::Error::InvalidValue(
                "pending generation not above the current",
            ))
        })?;
    }
    Ok(keyring)
}
