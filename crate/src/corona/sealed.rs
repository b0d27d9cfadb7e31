//! Key packages sealed to their parties (spec §7.5: "send inside the crate's encrypted
//! envelope"): the dealer encrypts each `CORK` to its party's ML-KEM-768 encapsulation key with
//! the crate's share envelope (ML-KEM-768, then XChaCha20-Poly1305 under a key derived from
//! the shared secret, the KEM ciphertext and the associated data), so a package crossing a
//! network stays confidential against a recorder with a future quantum computer, whatever the
//! transport.
//!
//! ```text
//! each party:  let kem = CombinerKey::generate(id, rng);  publish kem.public_key()
//! dealer:      let (group_key, sealed) = corona::deal_sealed(t, &keys, rng)?;   // keys by id 1..=n
//! each party:  let share = KeyShare::open_sealed(&sealed[id − 1], &kem, &group_key)?;
//! ```
//!
//! `CORE` ‖ u16 version 1 ‖ u16 to ‖ tr (64) ‖ KEM ciphertext (1088) ‖ u32 length ‖ AEAD
//! ciphertext ‖ tag. The associated data is everything before the KEM ciphertext, so an
//! envelope opens only for its party, under its group key.

use alloc::vec::Vec;

use rand_core::CryptoRngCore;

use super::Error;
use super::{GroupKey, KeyShare};
use crate::pulsar::custody::envelope::{self, KEM_CIPHERTEXT_LEN, TAG_LEN};
use crate::pulsar::custody::{CombinerKey, CombinerPublicKey};
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// Magic of a sealed key package.
pub const SEALED_PACKAGE_MAGIC: [u8; 4] = *b"CORE";
const VERSION: u16 = 1;
/// The header the envelope binds: magic, version, recipient, tr.
const HEADER_LEN: usize = 4 + 2 + 2 + 64;
/// The longest key package.
const MAX_PACKAGE_LEN: usize = super::package::package_len(super::params::MAX_SIGNERS);

fn header(to: PartyId, digest: &[u8; 64]) -> Vec<u8> {
    let mut w = Writer::with_header(&SEALED_PACKAGE_MAGIC, VERSION);
    w.u16(to.get()).put(digest);
    w.into_bytes()
}

/// Deals a t-of-n key as [`super::deal`] does, to parties 1..=n whose ML-KEM-768 keys are
/// `keys` (`keys[i]` the key of party i + 1), and seals each party's key package to its key.
/// The sealed packages (`CORE`) may travel over any channel; the group key (`CORG`) is public.
///
/// # Errors
/// [`Error::InvalidThreshold`]; [`Error::UnknownParty`] when `keys[i]` is not party i + 1's.
///
/// # Security
/// As [`super::deal`]: the dealer knows the whole key while it deals. Each package is sealed
/// with fresh encapsulation randomness from `rng`.
pub fn deal_sealed(
    t: usize,
    keys: &[CombinerPublicKey],
    rng: &mut impl CryptoRngCore,
) -> Result<(GroupKey, Vec<Vec<u8>>), Error> {
    for (i, k) in keys.iter().enumerate() {
        if usize::from(k.id().get()) != i + 1 {
            return Err(Error::UnknownParty { party: k.id() });
        }
    }
    let (group, shares) = super::deal(t, keys.len(), rng)?;
    let sealed = shares
        .iter()
        .zip(keys)
        .map(|(share, key)| {
            let head = header(share.id(), group.digest());
            let (kem_ct, body) = envelope::seal(key, &head, &share.to_bytes(), rng);
            let mut w = Writer::with_capacity(head.len() + kem_ct.len() + 4 + body.len());
            w.put(&head).put(&kem_ct).bytes(&body);
            w.into_bytes()
        })
        .collect();
    Ok((group, sealed))
}

impl KeyShare {
    /// Opens a sealed key package (`CORE`) with the party's ML-KEM-768 key `kem`, for the group
    /// key `group`.
    ///
    /// # Errors
    /// [`Error::Malformed`] for a bad frame or an envelope that does not open (altered, or
    /// sealed to another key: `INVALID_VALUE`); [`Error::NotASigner`] for a package sealed to
    /// another party; [`Error::KeyMismatch`] for one of another group key.
    pub fn open_sealed(sealed: &[u8], kem: &CombinerKey, group: &GroupKey) -> Result<KeyShare, Error> {
        let bad = Error::malformed("sealed key package");
        let mut r = Reader::new(sealed);
        r.header(&SEALED_PACKAGE_MAGIC, VERSION).map_err(&bad)?;
        let to = PartyId::read(&mut r).map_err(&bad)?;
        let digest = r.array::<64>().map_err(&bad)?;
        let kem_ct = r.take(KEM_CIPHERTEXT_LEN).map_err(&bad)?;
        let body = r.bytes(MAX_PACKAGE_LEN + TAG_LEN).map_err(&bad)?;
        r.finish().map_err(&bad)?;
        if to != kem.id() {
            return Err(Error::NotASigner { party: kem.id() });
        }
        if &digest != group.digest() {
            return Err(Error::KeyMismatch);
        }
        let head = &sealed[..HEADER_LEN];
        let package = envelope::open(&envelope::Opener::new(kem, 1), head, kem_ct, body).ok_or(bad(
            wire::Error::InvalidValue("envelope (altered, or sealed to another key)"),
        ))?;
        // The frame's layout fields are public (the share and the pairwise keys stay secret).
        super::package::declassify_package_layout(&package);
        let share = KeyShare::from_bytes(&package, group)?;
        if share.id() != to {
            return Err(bad(wire::Error::InvalidValue("party id")));
        }
        Ok(share)
    }
}
