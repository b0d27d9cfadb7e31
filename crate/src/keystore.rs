//! Key storage: a member's keyring at rest. Each share is sealed as an encrypted snapshot
//! (XChaCha20-Poly1305, under a key supplied by the caller or derived from a passphrase
//! with Argon2id); with the `std` feature a file store keeps a member's
//! [`Keyring`](crate::party::keyring::Keyring) — its current share and its pending
//! generation — across restarts, with crash-safe atomic writes, and erases an old share
//! only when the keyring accepted a verified activation.
//!
//! ```text
//! SnapshotStore::open(dir, key)                      (or open_with_passphrase)
//! store.save_keyring(&Keyring::new(share), &meta, rng)   a new group's share (generation g)
//!   … a reshare deals generation g + 1 …
//! keyring.stage(pending)?; store.save_keyring(&keyring, &meta, rng)?
//!                                                    both stored; g still the working share
//!   … restart …
//! let mut keyring = store.load_keyring()?            exactly the keyring saved
//! keyring.activate(&certificate)  ── refused ──►     nothing changes, in memory or on disk
//!                                 ── verified ─► receipt: Activated
//! store.activate(&keyring, &receipt, &meta, rng)     g + 1 written, then g erased
//! ```
//!
//! The rule "an old share is erased only after a verified activation" lives in the
//! keyring alone ([`Keyring::activate`](crate::party::keyring::Keyring::activate)); the
//! store mirrors what the keyring decided and erases a current share only for the
//! [`Activated`](crate::party::keyring::Activated) receipt that only the keyring makes.
//! A scheme's share is stored through [`Storable`] (Pulsar custody and Lens implement it).
//!
//! Single snapshots can also be sealed and opened without a store ([`Snapshot::seal`],
//! [`Snapshot::open`]; what the WebAssembly bindings offer). A snapshot's payload is opaque
//! bytes — a keyring entry in a store, or any serialized key share — and its header
//! carries public metadata: a scheme label, the group key id, the generation, the
//! threshold, the party id and a caller-supplied creation counter.
//!
//! The LSS trust model (DESIGN §3) assumes a party's share stays secret between
//! reshares; this module is how it stays secret on disk.
//!
//! # Examples
//!
//! ```
//! use chacha20poly1305::aead::OsRng;
//! use quasar_pq::keystore::{Metadata, Snapshot, SnapshotKey};
//! use quasar_pq::PartyId;
//!
//! let key = SnapshotKey::generate(&mut OsRng);
//! let party = PartyId::new(1).unwrap();
//! let meta = Metadata::new("lens-ed25519", &[0x11; 32], 1, 2, party, 0)?;
//! let sealed = Snapshot::seal(&key, &meta, b"serialized key share", &mut OsRng)?;
//!
//! let bytes = sealed.to_bytes();
//! let opened = Snapshot::from_bytes(&bytes)?.open(&key)?; // Zeroizing<Vec<u8>>
//! assert_eq!(&opened[..], b"serialized key share");
//! # Ok::<(), quasar_pq::keystore::Error>(())
//! ```
//!
//! # Format (`QSNP`, version 1)
//!
//! Big-endian, strict: every field has an exact or capped length, trailing bytes are an
//! error, and the decoder never allocates more than the input holds.
//!
//! | field | size | notes |
//! |---|---|---|
//! | magic | 4 | `QSNP` |
//! | version | 2 | `1` |
//! | kdf kind | 1 | `0x00` raw 32-byte key, `0x01` Argon2id v1.3 |
//! | m_kib, t, p | 4 + 4 + 4 | Argon2id only: memory in KiB, passes, lanes ([`KdfParams`]) |
//! | salt | 16 | Argon2id only |
//! | label length, label | 4 + 1..=64 | printable ASCII, e.g. `lens-ed25519`, `pulsar` |
//! | group id length, group id | 4 + 1..=64 | e.g. a hash of the group public key |
//! | generation | 8 | u64 |
//! | threshold | 2 | u16, ≥ 1 |
//! | party | 2 | u16 [`PartyId`](crate::PartyId), ≠ 0 |
//! | created | 8 | u64 counter or time, supplied by the caller |
//! | nonce | 24 | XChaCha20 nonce from the caller's CSPRNG |
//! | key check | 16 | `TupleHash(QUASAR-LSS-SNAPSHOT-CHECK-v1; K, nonce)` |
//! | ciphertext length | 4 | payload length + 16, at most [`MAX_PAYLOAD_LEN`] + 16 |
//! | ciphertext | n | XChaCha20-Poly1305 of the payload, tag last; **associated data = every byte above** (the whole header) |
//! | digest | 32 | `TupleHash(QUASAR-LSS-SNAPSHOT-DIGEST-v1; every byte above)`, unkeyed |
//!
//! `K` is the 32-byte [`SnapshotKey`]; the AEAD key is
//! `TupleHash(QUASAR-LSS-SNAPSHOT-ENC-v1; K)`, so the key check reveals nothing about it.
//! `TupleHash(tag; …)` is [`crate::hash::Transcript`] (cSHAKE256, function name `QUASAR`).
//!
//! # How failures are told apart
//!
//! [`Snapshot::from_bytes`] decodes the structure (truncation, extension, bad magic or
//! version, out-of-range lengths → [`Error::Malformed`]) and then checks the digest, so
//! accidental damage anywhere — including in the KDF parameters, which are read before
//! any expensive key derivation — is [`Error::Corrupt`] without needing a key.
//! [`Snapshot::open`] then compares the key check in constant time: a mismatch on an
//! intact file is [`Error::WrongKey`]. Finally the AEAD tag authenticates the header and
//! the ciphertext: a failure there means deliberate tampering (someone who recomputed the
//! unkeyed digest) and is [`Error::Corrupt`] too. A forger who replaces the key check
//! can at most turn "tampered" into "wrong key"; either way nothing is decrypted.
//!
//! # Keyring entries (`QKRE`, version 1)
//!
//! In a store, a snapshot's payload (encrypted, so none of this is visible on disk) is a
//! keyring entry: `QKRE`, u16 version 1, u8 kind (`1` the current share, `2` a pending
//! generation), u64 generation (equal to the header's), u32 length and the scheme's
//! encoding ([`Storable`]). Decoded strictly; anything else is [`Error::EntryMalformed`].
//! The `QSNP` and `QSST` formats are unchanged (version 1 and version 2).
//!
//! # The file store
//!
//! See [`SnapshotStore`] (feature `std`): files `gen-<20-digit generation>.qsnp` and a
//! MAC-protected state file `state.qsst` (current generation, high-water mark, activated
//! generation, rollback history), all written atomically. An old share is kept until the
//! keyring accepted its successor's activation, then erased.
//!
//! # Security
//!
//! - The key check and the AEAD tag both let someone holding a file test passphrase
//!   guesses offline, at the cost of one Argon2id evaluation per guess: choose a strong
//!   passphrase and memory-hard parameters ([`KdfParams::DEFAULT`]: 64 MiB, 3 passes).
//! - Nonces are 24 random bytes from the caller's RNG; with XChaCha20 random nonces are
//!   safe for any practical number of snapshots under one key.
//! - Decrypted payloads are returned in [`Zeroizing`](zeroize::Zeroizing) buffers and
//!   keys are wiped on drop; errors never carry secret bytes.
//! - A snapshot does not prove freshness: an attacker with write access to the storage
//!   can replay an older file or state file. The store's high-water mark and the
//!   rollback history make this visible when they are intact.

mod entry;
mod format;
mod key;
#[cfg(feature = "std")]
mod store;

use alloc::boxed::Box;
use alloc::string::String;

use crate::wire;

pub use entry::{
    open_entry, seal_current, seal_pending, Entry, EntryKind, Storable, ENTRY_MAGIC, ENTRY_VERSION,
};
pub use format::{
    Metadata, OpenedSnapshot, Snapshot, DIGEST_LEN, KEY_CHECK_LEN, MAGIC, MAX_GROUP_ID_LEN, MAX_LABEL_LEN,
    MAX_PAYLOAD_LEN, NONCE_LEN, VERSION,
};
pub use key::{Kdf, KdfParams, SnapshotKey, SALT_LEN};
#[cfg(feature = "std")]
pub use store::{Rollback, SnapshotStore, MAX_HISTORY, STATE_FILE};

/// Domain-separation tags of this module (cSHAKE256 customization strings, DESIGN §5).
/// They keep the names they had when snapshots lived in `lss`: they are part of the
/// format, so files sealed then still open.
pub mod tags {
    /// Derives the AEAD key from the snapshot key.
    pub const SNAPSHOT_ENC: &str = "QUASAR-LSS-SNAPSHOT-ENC-v1";
    /// The key check value stored in snapshot and state headers.
    pub const SNAPSHOT_CHECK: &str = "QUASAR-LSS-SNAPSHOT-CHECK-v1";
    /// The unkeyed integrity digest at the end of snapshot and state files.
    pub const SNAPSHOT_DIGEST: &str = "QUASAR-LSS-SNAPSHOT-DIGEST-v1";
    /// The MAC of the store's state file.
    pub const SNAPSHOT_STATE: &str = "QUASAR-LSS-SNAPSHOT-STATE-v1";
}

/// What was found wrong with an intact-looking snapshot or state file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Corruption {
    /// The trailing digest does not match the bytes (accidental damage).
    Digest,
    /// The AEAD tag (snapshot) or the MAC (state file) does not verify under the right
    /// key: the file was altered by someone who recomputed the digest.
    Authentication,
    /// A file named for one generation holds a snapshot of another.
    Misplaced {
        /// The generation in the snapshot's (authenticated) header.
        found: u64,
    },
}

impl core::fmt::Display for Corruption {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Corruption::Digest => f.write_str("digest mismatch"),
            Corruption::Authentication => f.write_str("authentication failed"),
            Corruption::Misplaced { found } => write!(f, "file holds generation {found}"),
        }
    }
}

/// Errors from sealing, opening and storing snapshots. They never carry secret bytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The snapshot bytes do not decode (truncated, extended, bad magic or version,
    /// out-of-range field).
    #[error("malformed snapshot: {0}")]
    Malformed(wire::Error),
    /// The snapshot is damaged or was tampered with.
    #[error("snapshot corrupt: {0}")]
    Corrupt(Corruption),
    /// The file is intact but was sealed under a different key (or passphrase).
    #[error("wrong snapshot key")]
    WrongKey,
    /// A passphrase was given but the snapshot was sealed with a raw key, so its header
    /// records no salt.
    #[error("snapshot was sealed with a raw key, not a passphrase")]
    NotPassphraseSealed,
    /// Argon2id parameters out of range.
    #[error("invalid KDF parameters: {0}")]
    InvalidKdfParams(&'static str),
    /// The Argon2id parameters recorded in a file exceed the caller's limits.
    #[error("KDF parameters m = {m_kib} KiB, t = {t}, p = {p} exceed the caller's limits")]
    KdfTooCostly {
        /// Memory in KiB.
        m_kib: u32,
        /// Passes.
        t: u32,
        /// Lanes.
        p: u32,
    },
    /// The Argon2id working memory could not be allocated.
    #[error("could not allocate {m_kib} KiB for Argon2id")]
    KdfMemory {
        /// Memory in KiB.
        m_kib: u32,
    },
    /// Metadata out of range (empty or over-long label or group id, zero threshold).
    #[error("invalid snapshot metadata: {0}")]
    InvalidMetadata(&'static str),
    /// The payload is larger than [`MAX_PAYLOAD_LEN`].
    #[error("payload of {len} bytes exceeds {max}")]
    PayloadTooLarge {
        /// Payload length.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// An error reading one stored generation; the other generations are unaffected.
    #[error("generation {generation}: {error}")]
    InGeneration {
        /// The generation whose file failed.
        generation: u64,
        /// What was wrong with it.
        error: Box<Error>,
    },
    /// The store holds no file for this generation (never saved, or pruned).
    #[error("unknown generation {0}")]
    UnknownGeneration(u64),
    /// The store holds no snapshot yet.
    #[error("the snapshot store is empty")]
    EmptyStore,
    /// A save whose generation is not above every generation the store has seen.
    #[error("generation {generation} is not above the store's high-water mark {high_water}")]
    StaleGeneration {
        /// The generation being saved.
        generation: u64,
        /// The highest generation ever stored.
        high_water: u64,
    },
    /// The generation argument differs from the one in the snapshot's header.
    #[error("generation mismatch: expected {expected}, snapshot has {found}")]
    GenerationMismatch {
        /// The generation argument.
        expected: u64,
        /// The snapshot's generation.
        found: u64,
    },
    /// A rollback target that is not earlier than the current generation.
    #[error("rollback target {to} is not earlier than the current generation {current}")]
    RollbackNotEarlier {
        /// The requested target.
        to: u64,
        /// The current generation.
        current: u64,
    },
    /// A rollback below the activated generation (whose predecessors are erased).
    #[error("rollback target {to} is below the activated generation {activated}")]
    RollbackBeforeActivation {
        /// The requested target.
        to: u64,
        /// The activated generation.
        activated: u64,
    },
    /// An activation of a generation older than the one already activated.
    #[error("generation {generation} is older than the activated generation {activated}")]
    StaleActivation {
        /// The generation.
        generation: u64,
        /// The activated generation.
        activated: u64,
    },
    /// A decrypted payload that is not a keyring entry of its generation.
    #[error("malformed keyring entry: {0}")]
    EntryMalformed(wire::Error),
    /// The keyring's current share is not the one the store holds, and no activation
    /// receipt recorded the change (save a keyring that activated a generation with
    /// [`SnapshotStore::activate`]).
    #[error("the keyring's generation {generation} was not recorded by an activation")]
    ActivationNotRecorded {
        /// The generation.
        generation: u64,
    },
    /// An activation receipt that does not describe the keyring handed with it.
    #[error("the activation receipt for generation {generation} does not match the keyring")]
    ReceiptMismatch {
        /// The receipt's generation.
        generation: u64,
    },
    /// A file is larger than any valid snapshot or state file.
    #[error("{path}: {len} bytes exceeds the limit {max}")]
    FileTooLarge {
        /// The file.
        path: String,
        /// Its length.
        len: u64,
        /// The limit.
        max: u64,
    },
    /// The state file does not decode.
    #[error("malformed state file: {0}")]
    StateMalformed(wire::Error),
    /// The state file is damaged or was tampered with.
    #[error("state file corrupt: {0}")]
    StateCorrupt(Corruption),
    /// A file-system operation failed.
    #[error("I/O error ({kind}) during {op} of {path}")]
    Io {
        /// What the store was doing (`"read"`, `"write"`, `"rename"`, …).
        op: &'static str,
        /// The `std::io::ErrorKind`, as text.
        kind: String,
        /// The file or directory.
        path: String,
    },
}

impl Error {
    /// A stable, upper-case code for this error (what JavaScript sees). For
    /// [`Error::InGeneration`] it is the code of the wrapped error.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Malformed(_) => "SNAPSHOT_MALFORMED",
            Error::Corrupt(_) => "SNAPSHOT_CORRUPT",
            Error::WrongKey => "WRONG_KEY",
            Error::NotPassphraseSealed => "NOT_PASSPHRASE_SEALED",
            Error::InvalidKdfParams(_) => "INVALID_KDF_PARAMS",
            Error::KdfTooCostly { .. } => "KDF_TOO_COSTLY",
            Error::KdfMemory { .. } => "KDF_MEMORY",
            Error::InvalidMetadata(_) => "INVALID_METADATA",
            Error::PayloadTooLarge { .. } => "PAYLOAD_TOO_LARGE",
            Error::InGeneration { error, .. } => error.code(),
            Error::UnknownGeneration(_) => "UNKNOWN_GENERATION",
            Error::EmptyStore => "EMPTY_STORE",
            Error::StaleGeneration { .. } => "STALE_GENERATION",
            Error::GenerationMismatch { .. } => "GENERATION_MISMATCH",
            Error::RollbackNotEarlier { .. } => "ROLLBACK_NOT_EARLIER",
            Error::RollbackBeforeActivation { .. } => "ROLLBACK_BEFORE_ACTIVATION",
            Error::StaleActivation { .. } => "STALE_ACTIVATION",
            Error::EntryMalformed(_) => "ENTRY_MALFORMED",
            Error::ActivationNotRecorded { .. } => "ACTIVATION_NOT_RECORDED",
            Error::ReceiptMismatch { .. } => "RECEIPT_MISMATCH",
            Error::FileTooLarge { .. } => "FILE_TOO_LARGE",
            Error::StateMalformed(_) => "STATE_MALFORMED",
            Error::StateCorrupt(_) => "STATE_CORRUPT",
            Error::Io { .. } => "SNAPSHOT_IO",
        }
    }

    /// The stored generation this error is about, if it came from one file of a store.
    pub fn generation(&self) -> Option<u64> {
        match self {
            Error::InGeneration { generation, .. } => Some(*generation),
            Error::UnknownGeneration(g) => Some(*g),
            _ => None,
        }
    }

    /// The underlying error, with any [`Error::InGeneration`] wrapper removed.
    pub fn root(&self) -> &Error {
        match self {
            Error::InGeneration { error, .. } => error.root(),
            e => e,
        }
    }

    /// Whether the file was damaged or tampered with (as opposed to a wrong key, a
    /// missing file or an I/O failure): [`Error::Malformed`], [`Error::Corrupt`],
    /// [`Error::FileTooLarge`], [`Error::StateMalformed`], [`Error::StateCorrupt`].
    pub fn is_integrity_failure(&self) -> bool {
        matches!(
            self.root(),
            Error::Malformed(_)
                | Error::Corrupt(_)
                | Error::EntryMalformed(_)
                | Error::FileTooLarge { .. }
                | Error::StateMalformed(_)
                | Error::StateCorrupt(_)
        )
    }

    /// Wraps this error with the generation whose file it concerns.
    #[cfg(feature = "std")]
    pub(crate) fn in_generation(self, generation: u64) -> Error {
        match self {
            e @ (Error::InGeneration { .. } | Error::UnknownGeneration(_) | Error::Io { .. }) => e,
            e => Error::InGeneration {
                generation,
                error: Box::new(e),
            },
        }
    }
}
