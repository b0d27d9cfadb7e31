//! Snapshot keys: raw 32-byte keys or Argon2id passphrase derivation (RFC 9106), and
//! the sub-keys derived from them.

use core::fmt;

use argon2::{Algorithm, Argon2, Block, Params, Version};
use rand_core::CryptoRngCore;
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use super::{tags, Error};
use crate::hash::Transcript;
use crate::wire;

/// Length of the Argon2id salt recorded in snapshot headers.
pub const SALT_LEN: usize = 16;

const KDF_RAW: u8 = 0x00;
const KDF_ARGON2ID: u8 = 0x01;

/// Argon2id cost parameters (RFC 9106 §3.1): memory `m` in KiB, passes `t`, lanes `p`.
/// The output is always 32 bytes and the version is 0x13.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KdfParams {
    m_kib: u32,
    t: u32,
    p: u32,
}

impl KdfParams {
    /// The default: m = 64 MiB, t = 3, p = 1 — RFC 9106 §4's second recommended option
    /// with a single lane. About 0.1–0.3 s on a current x86-64 core.
    pub const DEFAULT: KdfParams = KdfParams {
        m_kib: 64 * 1024,
        t: 3,
        p: 1,
    };
    /// Largest memory cost accepted anywhere, in KiB (4 GiB).
    pub const MAX_M_KIB: u32 = 4 * 1024 * 1024;
    /// Largest number of passes accepted anywhere.
    pub const MAX_T: u32 = 64;
    /// Largest number of lanes accepted anywhere.
    pub const MAX_P: u32 = 64;

    /// Parameters with memory `m_kib` KiB, `t` passes and `p` lanes.
    ///
    /// # Errors
    /// [`Error::InvalidKdfParams`] unless `1 ≤ p ≤ 64`, `1 ≤ t ≤ 64` and
    /// `8·p ≤ m_kib ≤ 4 GiB`.
    ///
    /// # Security
    /// Small values make passphrase guessing cheap; use them only in tests.
    pub fn new(m_kib: u32, t: u32, p: u32) -> Result<KdfParams, Error> {
        if p == 0 || p > Self::MAX_P {
            return Err(Error::InvalidKdfParams("lanes out of range"));
        }
        if t == 0 || t > Self::MAX_T {
            return Err(Error::InvalidKdfParams("passes out of range"));
        }
        if m_kib < 8 * p || m_kib > Self::MAX_M_KIB {
            return Err(Error::InvalidKdfParams("memory out of range"));
        }
        Ok(KdfParams { m_kib, t, p })
    }

    /// Memory cost in KiB.
    pub fn memory_kib(&self) -> u32 {
        self.m_kib
    }

    /// Number of passes.
    pub fn passes(&self) -> u32 {
        self.t
    }

    /// Number of lanes.
    pub fn lanes(&self) -> u32 {
        self.p
    }

    /// Whether every cost is at most the corresponding one in `limits`.
    pub fn within(&self, limits: &KdfParams) -> bool {
        self.m_kib <= limits.m_kib && self.t <= limits.t && self.p <= limits.p
    }

    pub(super) fn check_within(&self, limits: &KdfParams) -> Result<(), Error> {
        if self.within(limits) {
            Ok(())
        } else {
            Err(Error::KdfTooCostly {
                m_kib: self.m_kib,
                t: self.t,
                p: self.p,
            })
        }
    }
}

impl Default for KdfParams {
    fn default() -> Self {
        KdfParams::DEFAULT
    }
}

/// How a snapshot key was obtained, as recorded (publicly) in snapshot headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kdf {
    /// A raw 32-byte key supplied by the caller (from a KMS, an HSM, a keyring, …).
    Raw,
    /// Argon2id (v1.3) of a passphrase.
    Argon2id {
        /// Cost parameters.
        params: KdfParams,
        /// Salt.
        salt: [u8; SALT_LEN],
    },
}

impl Kdf {
    pub(super) fn write(&self, w: &mut wire::Writer) {
        match self {
            Kdf::Raw => {
                w.u8(KDF_RAW);
            }
            Kdf::Argon2id { params, salt } => {
                w.u8(KDF_ARGON2ID)
                    .u32(params.m_kib)
                    .u32(params.t)
                    .u32(params.p)
                    .put(salt);
            }
        }
    }

    pub(super) fn read(r: &mut wire::Reader<'_>) -> Result<Kdf, wire::Error> {
        match r.u8()? {
            KDF_RAW => Ok(Kdf::Raw),
            KDF_ARGON2ID => {
                let (m, t, p) = (r.u32()?, r.u32()?, r.u32()?);
                let params =
                    KdfParams::new(m, t, p).map_err(|_| wire::Error::InvalidValue("Argon2id parameters"))?;
                Ok(Kdf::Argon2id {
                    params,
                    salt: r.array()?,
                })
            }
            other => Err(wire::Error::UnknownMode(other)),
        }
    }
}

/// A 32-byte snapshot key, wiped on drop.
///
/// # Security
/// Whoever holds it can read every snapshot sealed under it. `Debug` prints
/// `<redacted>`; there is no accessor for the bytes.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct SnapshotKey {
    key: [u8; 32],
    #[zeroize(skip)]
    kdf: Kdf,
}

impl SnapshotKey {
    /// A key from 32 caller-supplied bytes.
    ///
    /// # Security
    /// The bytes must be uniformly random and secret. The caller wipes its own copy.
    pub fn from_bytes(bytes: &[u8; 32]) -> SnapshotKey {
        SnapshotKey {
            key: *bytes,
            kdf: Kdf::Raw,
        }
    }

    /// A fresh random key from `rng`.
    pub fn generate(rng: &mut impl CryptoRngCore) -> SnapshotKey {
        let mut out = SnapshotKey {
            key: [0u8; 32],
            kdf: Kdf::Raw,
        };
        rng.fill_bytes(&mut out.key);
        out
    }

    /// A fresh random salt for [`SnapshotKey::from_passphrase`].
    pub fn generate_salt(rng: &mut impl CryptoRngCore) -> [u8; SALT_LEN] {
        let mut salt = [0u8; SALT_LEN];
        rng.fill_bytes(&mut salt);
        salt
    }

    /// Derives a key from a passphrase with Argon2id (RFC 9106; version 0x13, 32-byte
    /// output, no secret or associated data). Snapshots sealed with the result record
    /// `params` and `salt` in their header, so
    /// [`Snapshot::open_with_passphrase`](super::Snapshot::open_with_passphrase) can
    /// re-derive it.
    ///
    /// # Errors
    /// [`Error::InvalidKdfParams`]; [`Error::KdfMemory`] if `params.memory_kib()` KiB
    /// cannot be allocated.
    ///
    /// # Security
    /// Use a fresh random salt per key ([`SnapshotKey::generate_salt`]) and memory-hard
    /// parameters ([`KdfParams::DEFAULT`]). The Argon2id working memory is overwritten
    /// before it is freed (best effort: the `argon2` crate's internal temporaries are
    /// wiped only when its `zeroize` feature is on).
    pub fn from_passphrase(
        passphrase: &[u8],
        salt: &[u8; SALT_LEN],
        params: KdfParams,
    ) -> Result<SnapshotKey, Error> {
        let params = KdfParams::new(params.m_kib, params.t, params.p)?;
        let argon_params = Params::new(params.m_kib, params.t, params.p, Some(32))
            .map_err(|_| Error::InvalidKdfParams("rejected by argon2"))?;
        let blocks_needed = argon_params.block_count();
        let mut blocks: alloc::vec::Vec<Block> = alloc::vec::Vec::new();
        blocks
            .try_reserve_exact(blocks_needed)
            .map_err(|_| Error::KdfMemory { m_kib: params.m_kib })?;
        blocks.resize(blocks_needed, Block::new());
        // Derive straight into the key's own (wiped-on-drop) storage.
        let mut out = SnapshotKey {
            key: [0u8; 32],
            kdf: Kdf::Argon2id { params, salt: *salt },
        };
        let result = Argon2::new(Algorithm::Argon2id, Version::V0x13, argon_params)
            .hash_password_into_with_memory(passphrase, salt, &mut out.key, &mut blocks);
        for block in blocks.iter_mut() {
            *block = Block::new();
        }
        core::hint::black_box(&blocks);
        match result {
            Ok(()) => Ok(out),
            Err(_) => Err(Error::InvalidKdfParams("rejected by argon2")),
        }
    }

    /// How this key was obtained (public; recorded in the headers it seals).
    pub fn kdf(&self) -> &Kdf {
        &self.kdf
    }

    /// The XChaCha20-Poly1305 key: `TupleHash(QUASAR-LSS-SNAPSHOT-ENC-v1; K)`.
    pub(super) fn aead_key(&self) -> Zeroizing<[u8; 32]> {
        let mut t = Transcript::new(tags::SNAPSHOT_ENC);
        t.append(&self.key);
        Zeroizing::new(t.finalize())
    }

    /// The key check value for `context` (a snapshot nonce, or the state file's tag):
    /// `TupleHash(QUASAR-LSS-SNAPSHOT-CHECK-v1; K, context)`.
    pub(super) fn key_check(&self, context: &[u8]) -> [u8; super::KEY_CHECK_LEN] {
        let mut t = Transcript::new(tags::SNAPSHOT_CHECK);
        t.append(&self.key).append(context);
        t.finalize()
    }

    /// Whether `check` is this key's check value for `context` (constant time).
    pub(super) fn matches_check(&self, context: &[u8], check: &[u8; super::KEY_CHECK_LEN]) -> bool {
        // Public: whether the key matches is reported (WrongKey).
        crate::ct::public(self.key_check(context).ct_eq(check).into())
    }

    /// A MAC over the store's state file: `TupleHash(QUASAR-LSS-SNAPSHOT-STATE-v1; K, body)`.
    #[cfg(feature = "std")]
    pub(super) fn state_mac(&self, body: &[u8]) -> [u8; 32] {
        let mut t = Transcript::new(tags::SNAPSHOT_STATE);
        t.append(&self.key).append(body);
        t.finalize()
    }
}

impl fmt::Debug for SnapshotKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SnapshotKey")
            .field("key", &"<redacted>")
            .field("kdf", &self.kdf)
            .finish()
    }
}
