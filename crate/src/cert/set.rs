//! The validator set of an epoch: who signs, with what weight, under which keys.
//!
//! # Wire form (`QVST`, big-endian)
//!
//! | bytes | field |
//! |---|---|
//! | 4 | magic `QVST` |
//! | 2 | version: 1, or 2 when the set has a Corona group key |
//! | 8 | chain id |
//! | 8 | epoch the set signs for |
//! | 8 | key era of the threshold group keys, Pulsar's and Corona's ([`super::LightClient`] says how it moves) |
//! | 1 | BLS keys: 0 none, 1 BLS12-381 min-pk with proofs of possession |
//! | 1 | ML-DSA keys: 0 none, or the mode byte 0x2C / 0x41 / 0x57 (ML-DSA-44/65/87) |
//! | 1 | SLH-DSA keys: 0 none, or the [`crate::slhdsa::Mode`] byte (Magnetar) |
//! | 4 | length of the Pulsar group key: 0 (none) or its `PULG` frame's length |
//! | L | the `PULG` frame ([`crate::pulsar::frame`]: magic, version, mode, length, FIPS 204 key) |
//! | 4 | version 2 only: length of the Corona group key, [`crate::corona::GROUP_KEY_LEN`] |
//! | K | version 2 only: the `CORG` frame ([`crate::corona::GroupKey`]) |
//! | 2 | n, the number of validators, 1 ≤ n ≤ [`MAX_VALIDATORS`] |
//! | n × E | the validators, ids strictly increasing |
//!
//! Each validator (E bytes, the same for all): id (32) ‖ weight (u64, ≥ 1) ‖ BLS public key
//! (48, compressed G1) ‖ BLS proof of possession (96, compressed G2) ‖ ML-DSA public key
//! (FIPS 204 size) ‖ SLH-DSA public key (FIPS 205 size) — each key only when the set has that
//! kind. The weights add up to at most 2^64 − 1 and never to 0. Positions in this order are
//! the indexes of signer bitmaps (u16).
//!
//! A set without a Corona key is written at version 1, byte for byte as before the Corona
//! leg existed; a version-2 set must carry one (a length of 0 is refused), so each set has
//! one encoding.
//!
//! Decoding ([`ValidatorSetView::parse`]) checks all of the above, and nothing that needs
//! curve or lattice arithmetic: keys are validated once, by [`super::TrustedSet::new`].
//!
//! # Root
//!
//! `root = TupleHash256("QUASAR", "QUASAR-CERT-VALIDATOR-SET-v1")` over one element, the
//! whole canonical encoding above, with a 32-byte output ([`crate::hash::Transcript`]). The
//! decoder accepts exactly one encoding per set, so the root names the set.

use alloc::vec::Vec;

use super::Error;
use crate::hash::{tags, Transcript};
use crate::pulsar::frame::GroupKeyFrame;
use crate::wire::Reader;
#[cfg(not(feature = "light"))]
use crate::wire::Writer;
use crate::{bls, mldsa, slhdsa};

/// Magic of an encoded validator set.
pub const SET_MAGIC: [u8; 4] = *b"QVST";
/// Version of the encoding of a set without a Corona group key.
pub const SET_VERSION: u16 = 1;
/// Version of the encoding of a set with a Corona group key.
pub const SET_VERSION_CORONA: u16 = 2;
/// The most validators a set may have (a bitmap is then 128 bytes); the Magnetar
/// registry's limit too.
pub const MAX_VALIDATORS: usize = crate::magnetar::MAX_VALIDATORS;
/// The longest `QVST` encoding: the fixed header (37), the longest `PULG` frame
/// (ML-DSA-87), a `CORG` frame with its length, the count, and [`MAX_VALIDATORS`] validators
/// each with an id, a weight, a BLS key and proof, an ML-DSA-87 key and the longest SLH-DSA
/// key. Longer input is refused (`TOO_LONG`) before it is parsed.
pub const MAX_SET_LEN: usize = 37
    + crate::pulsar::frame::HEADER_LEN
    + MLDSA87_PUBLIC_KEY_LEN
    + 4
    + crate::corona::GROUP_KEY_LEN
    + 2
    + MAX_VALIDATORS * (32 + 8 + bls::PUBLIC_KEY_LEN + bls::SIGNATURE_LEN + MLDSA87_PUBLIC_KEY_LEN + 64);
/// FIPS 204's ML-DSA-87 public key length (checked against [`mldsa::Mode`] in the tests).
const MLDSA87_PUBLIC_KEY_LEN: usize = 2592;
/// The BLS key-kind byte.
const BLS_MIN_PK: u8 = 1;
/// Bytes of a validator before its keys: id and weight.
const ID_WEIGHT_LEN: usize = 40;
/// Bytes of a validator's BLS key and proof of possession.
const BLS_LEN: usize = bls::PUBLIC_KEY_LEN + bls::SIGNATURE_LEN;
/// Longest `PULG` frame (ML-DSA-87).
const MAX_GROUP_KEY_LEN: usize = 11 + 2592;

/// A set's scalars and where its parts are, found once by the decoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Layout {
    chain_id: u64,
    epoch: u64,
    key_era: u64,
    bls: bool,
    mldsa: Option<mldsa::Mode>,
    slhdsa: Option<slhdsa::Mode>,
    /// The `PULG` frame's range in the encoding.
    pulsar: Option<(usize, usize)>,
    /// The `CORG` frame's range in the encoding.
    corona: Option<(usize, usize)>,
    len: usize,
    entries_at: usize,
    entry_len: usize,
    total_weight: u64,
}

/// A validator set borrowed from its encoding, checked but with no key validated yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValidatorSetView<'a> {
    bytes: &'a [u8],
    layout: Layout,
}

/// One validator of a set, borrowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry<'a> {
    /// The validator's id.
    pub id: &'a [u8; 32],
    /// Its weight (≥ 1).
    pub weight: u64,
    /// Its compressed BLS public key, if the set has BLS keys.
    pub bls_public_key: Option<&'a [u8; bls::PUBLIC_KEY_LEN]>,
    /// Its BLS proof of possession, if the set has BLS keys.
    pub bls_pop: Option<&'a [u8; bls::SIGNATURE_LEN]>,
    /// Its ML-DSA public key, if the set has ML-DSA keys.
    pub mldsa_public_key: Option<&'a [u8]>,
    /// Its SLH-DSA public key, if the set has SLH-DSA keys.
    pub slhdsa_public_key: Option<&'a [u8]>,
}

fn mode_byte<T>(b: u8, parse: impl Fn(u8) -> Option<T>) -> Result<Option<T>, Error> {
    match b {
        0 => Ok(None),
        _ => parse(b)
            .map(Some)
            .ok_or(Error::Decode(crate::wire::Error::UnknownMode(b))),
    }
}

fn entry_len(bls: bool, mldsa: Option<mldsa::Mode>, slhdsa: Option<slhdsa::Mode>) -> usize {
    ID_WEIGHT_LEN
        + if bls { BLS_LEN } else { 0 }
        + mldsa.map_or(0, mldsa::Mode::public_key_len)
        + slhdsa.map_or(0, slhdsa::Mode::public_key_len)
}

impl<'a> ValidatorSetView<'a> {
    /// Decodes and checks a `QVST` encoding (see the module docs), without validating keys.
    ///
    /// # Errors
    /// [`Error::Decode`] (length, magic, version, mode bytes, a malformed `PULG` frame, a
    /// count of 0 or above [`MAX_VALIDATORS`], trailing bytes), [`Error::UnsortedValidators`],
    /// [`Error::DuplicateValidator`], [`Error::ZeroWeight`], [`Error::WeightOverflow`];
    /// [`Error::TooLong`] over [`MAX_SET_LEN`], before anything is read.
    pub fn parse(bytes: &'a [u8]) -> Result<Self, Error> {
        if bytes.len() > MAX_SET_LEN {
            return Err(Error::TooLong {
                what: "validator set",
                len: bytes.len(),
                max: MAX_SET_LEN,
            });
        }
        let mut r = Reader::new(bytes);
        let version = r.header_versions(&SET_MAGIC, &[SET_VERSION, SET_VERSION_CORONA])?;
        let chain_id = r.u64()?;
        let epoch = r.u64()?;
        let key_era = r.u64()?;
        let bls = match r.u8()? {
            0 => false,
            BLS_MIN_PK => true,
            b => return Err(crate::wire::Error::UnknownMode(b).into()),
        };
        let mldsa = mode_byte(r.u8()?, |b| mldsa::Mode::from_byte(b).ok())?;
        let slhdsa = mode_byte(r.u8()?, |b| slhdsa::Mode::from_byte(b).ok())?;
        let frame_len = r.count(MAX_GROUP_KEY_LEN, 1)?;
        let pulsar = if frame_len == 0 {
            None
        } else {
            let at = bytes.len() - r.remaining();
            GroupKeyFrame::decode(r.take(frame_len)?)?;
            Some((at, at + frame_len))
        };
        let corona = if version == SET_VERSION_CORONA {
            let key_len = r.count(crate::corona::GROUP_KEY_LEN, 1)?;
            let at = bytes.len() - r.remaining();
            crate::corona::GroupKey::from_bytes(r.take(key_len)?)
                .map_err(|_| crate::wire::Error::InvalidValue("Corona group key"))?;
            Some((at, at + key_len))
        } else {
            None
        };
        let len = usize::from(r.u16()?);
        if len == 0 {
            return Err(crate::wire::Error::InvalidValue("empty validator set").into());
        }
        if len > MAX_VALIDATORS {
            return Err(crate::wire::Error::CountTooLarge {
                got: len,
                max: MAX_VALIDATORS,
            }
            .into());
        }
        let entry_len = entry_len(bls, mldsa, slhdsa);
        let entries_at = bytes.len() - r.remaining();
        let entries = r.take(len * entry_len)?;
        r.finish()?;
        let mut total: u64 = 0;
        let mut previous: Option<&[u8]> = None;
        for (index, e) in entries.chunks_exact(entry_len).enumerate() {
            let id = &e[..32];
            if let Some(p) = previous {
                if id == p {
                    return Err(Error::DuplicateValidator { index });
                }
                if id < p {
                    return Err(Error::UnsortedValidators { index });
                }
            }
            previous = Some(id);
            let weight = u64::from_be_bytes(e[32..40].try_into().unwrap_or([0; 8]));
            if weight == 0 {
                return Err(Error::ZeroWeight { index });
            }
            total = total.checked_add(weight).ok_or(Error::WeightOverflow)?;
        }
        Ok(ValidatorSetView {
            bytes,
            layout: Layout {
                chain_id,
                epoch,
                key_era,
                bls,
                mldsa,
                slhdsa,
                pulsar,
                corona,
                len,
                entries_at,
                entry_len,
                total_weight: total,
            },
        })
    }

    /// The encoding.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The chain the set is for.
    pub fn chain_id(&self) -> u64 {
        self.layout.chain_id
    }

    /// The epoch the set signs for.
    pub fn epoch(&self) -> u64 {
        self.layout.epoch
    }

    /// The key era of the threshold group keys (Pulsar's, Corona's).
    pub fn key_era(&self) -> u64 {
        self.layout.key_era
    }

    /// Whether the validators have BLS keys.
    pub fn has_bls(&self) -> bool {
        self.layout.bls
    }

    /// The validators' ML-DSA parameter set, if they have ML-DSA keys.
    pub fn mldsa_mode(&self) -> Option<mldsa::Mode> {
        self.layout.mldsa
    }

    /// The validators' SLH-DSA parameter set, if they have SLH-DSA keys.
    pub fn slhdsa_mode(&self) -> Option<slhdsa::Mode> {
        self.layout.slhdsa
    }

    /// The Pulsar group key's `PULG` frame, if the set has a Pulsar group.
    pub fn pulsar_group_key(&self) -> Option<&'a [u8]> {
        self.layout.pulsar.and_then(|(a, b)| self.bytes.get(a..b))
    }

    /// The Corona group key's `CORG` frame, if the set has a Corona group.
    pub fn corona_group_key(&self) -> Option<&'a [u8]> {
        self.layout.corona.and_then(|(a, b)| self.bytes.get(a..b))
    }

    /// The number of validators (≥ 1).
    pub fn len(&self) -> usize {
        self.layout.len
    }

    /// Always `false`: a set has at least one validator.
    pub fn is_empty(&self) -> bool {
        self.layout.len == 0
    }

    /// The sum of the weights (≥ 1).
    pub fn total_weight(&self) -> u64 {
        self.layout.total_weight
    }

    /// Validator `index`, if there is one.
    pub fn entry(&self, index: usize) -> Option<Entry<'a>> {
        let l = &self.layout;
        if index >= l.len {
            return None;
        }
        let start = l.entries_at + index * l.entry_len;
        let e = self.bytes.get(start..start + l.entry_len)?;
        let (id, rest) = e.split_first_chunk::<32>()?;
        let (weight, mut rest) = rest.split_first_chunk::<8>()?;
        let (mut bls_public_key, mut bls_pop) = (None, None);
        if l.bls {
            let (pk, tail) = rest.split_first_chunk::<{ bls::PUBLIC_KEY_LEN }>()?;
            let (pop, tail) = tail.split_first_chunk::<{ bls::SIGNATURE_LEN }>()?;
            (bls_public_key, bls_pop, rest) = (Some(pk), Some(pop), tail);
        }
        let mldsa_public_key = match l.mldsa {
            Some(m) => {
                let (k, tail) = rest.split_at_checked(m.public_key_len())?;
                rest = tail;
                Some(k)
            }
            None => None,
        };
        let slhdsa_public_key = l.slhdsa.map(|_| rest);
        Some(Entry {
            id,
            weight: u64::from_be_bytes(*weight),
            bls_public_key,
            bls_pop,
            mldsa_public_key,
            slhdsa_public_key,
        })
    }

    /// The validators, in set order.
    pub fn entries(&self) -> impl Iterator<Item = Entry<'a>> + '_ {
        (0..self.layout.len).filter_map(|i| self.entry(i))
    }

    /// The position of the validator with `id`, if it is in the set (binary search).
    pub fn position(&self, id: &[u8; 32]) -> Option<usize> {
        let (mut lo, mut hi) = (0, self.layout.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.entry(mid)?.id.cmp(id) {
                core::cmp::Ordering::Equal => return Some(mid),
                core::cmp::Ordering::Less => lo = mid + 1,
                core::cmp::Ordering::Greater => hi = mid,
            }
        }
        None
    }

    /// The set's root (see the module docs): one TupleHash256 over the encoding.
    pub fn root(&self) -> [u8; 32] {
        root_of(self.bytes)
    }
}

fn root_of(bytes: &[u8]) -> [u8; 32] {
    let mut t = Transcript::new(tags::CERT_VALIDATOR_SET);
    t.append(bytes);
    t.finalize()
}

/// A validator set, owned: its canonical encoding and its root.
#[derive(Clone, PartialEq, Eq)]
pub struct ValidatorSet {
    bytes: Vec<u8>,
    layout: Layout,
    root: [u8; 32],
}

impl core::fmt::Debug for ValidatorSet {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ValidatorSet")
            .field("chain_id", &self.layout.chain_id)
            .field("epoch", &self.layout.epoch)
            .field("validators", &self.layout.len)
            .field("total_weight", &self.layout.total_weight)
            .finish_non_exhaustive()
    }
}

/// A set's parameters (everything but the validators), for [`ValidatorSet::new`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SetParams {
    /// The chain.
    pub chain_id: u64,
    /// The epoch the set signs for.
    pub epoch: u64,
    /// The key era of the threshold group keys (Pulsar's, Corona's).
    pub key_era: u64,
    /// Whether validators have BLS keys.
    pub bls: bool,
    /// The validators' ML-DSA parameter set, if they have ML-DSA keys.
    pub mldsa: Option<mldsa::Mode>,
    /// The validators' SLH-DSA parameter set, if they have SLH-DSA keys.
    pub slhdsa: Option<slhdsa::Mode>,
    /// The Pulsar group key as a `PULG` frame, if the set has a Pulsar group.
    pub pulsar_group_key: Option<Vec<u8>>,
    /// The Corona group key as a `CORG` frame, if the set has a Corona group.
    pub corona_group_key: Option<Vec<u8>>,
}

/// One validator, for [`ValidatorSet::new`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validator {
    /// Its id.
    pub id: [u8; 32],
    /// Its weight (≥ 1).
    pub weight: u64,
    /// Its BLS public key and proof of possession (when the set has BLS keys).
    pub bls: Option<([u8; bls::PUBLIC_KEY_LEN], [u8; bls::SIGNATURE_LEN])>,
    /// Its ML-DSA public key (when the set has ML-DSA keys).
    pub mldsa: Option<Vec<u8>>,
    /// Its SLH-DSA public key (when the set has SLH-DSA keys).
    pub slhdsa: Option<Vec<u8>>,
}

impl ValidatorSet {
    /// Decodes and checks a `QVST` encoding ([`ValidatorSetView::parse`]) and computes its
    /// root.
    ///
    /// # Errors
    /// As [`ValidatorSetView::parse`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let view = ValidatorSetView::parse(bytes)?;
        Ok(ValidatorSet {
            layout: view.layout,
            root: view.root(),
            bytes: bytes.to_vec(),
        })
    }

    /// The set of `validators` (in any order: they are sorted by id) with `params`.
    ///
    /// # Errors
    /// [`Error::Decode`] with `InvalidValue` for a validator whose keys do not match the
    /// set's kinds or lengths; then as [`ValidatorSet::from_bytes`].
    #[cfg(not(feature = "light"))]
    pub fn new(params: &SetParams, mut validators: Vec<Validator>) -> Result<Self, Error> {
        let bad = |what| Error::Decode(crate::wire::Error::InvalidValue(what));
        crate::sort::sort_by_key_stable(&mut validators, |v| v.id);
        let mut w =
            Writer::with_capacity(64 + validators.len() * entry_len(params.bls, params.mldsa, params.slhdsa));
        let version = match params.corona_group_key {
            Some(_) => SET_VERSION_CORONA,
            None => SET_VERSION,
        };
        w.put(&SET_MAGIC).u16(version);
        w.u64(params.chain_id).u64(params.epoch).u64(params.key_era);
        w.u8(if params.bls { BLS_MIN_PK } else { 0 });
        w.u8(params.mldsa.map_or(0, mldsa::Mode::to_byte));
        w.u8(params.slhdsa.map_or(0, slhdsa::Mode::to_byte));
        w.bytes(params.pulsar_group_key.as_deref().unwrap_or(&[]));
        if let Some(key) = &params.corona_group_key {
            w.bytes(key);
        }
        w.u16(u16::try_from(validators.len()).map_err(|_| bad("too many validators"))?);
        for v in &validators {
            w.put(&v.id).u64(v.weight);
            match (&v.bls, params.bls) {
                (Some((pk, pop)), true) => {
                    w.put(pk).put(pop);
                }
                (None, false) => {}
                _ => return Err(bad("BLS keys do not match the set")),
            }
            match (&v.mldsa, params.mldsa) {
                (Some(k), Some(m)) if k.len() == m.public_key_len() => {
                    w.put(k);
                }
                (None, None) => {}
                _ => return Err(bad("ML-DSA key does not match the set")),
            }
            match (&v.slhdsa, params.slhdsa) {
                (Some(k), Some(m)) if k.len() == m.public_key_len() => {
                    w.put(k);
                }
                (None, None) => {}
                _ => return Err(bad("SLH-DSA key does not match the set")),
            }
        }
        ValidatorSet::from_bytes(&w.into_bytes())
    }

    /// The borrowed view.
    pub fn view(&self) -> ValidatorSetView<'_> {
        ValidatorSetView {
            bytes: &self.bytes,
            layout: self.layout,
        }
    }

    /// The canonical encoding.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.bytes.clone()
    }

    /// The canonical encoding, borrowed.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The root (computed once).
    pub fn root(&self) -> &[u8; 32] {
        &self.root
    }

    /// The chain the set is for.
    pub fn chain_id(&self) -> u64 {
        self.layout.chain_id
    }

    /// The epoch the set signs for.
    pub fn epoch(&self) -> u64 {
        self.layout.epoch
    }

    /// The key era of the threshold group keys (Pulsar's, Corona's).
    pub fn key_era(&self) -> u64 {
        self.layout.key_era
    }

    /// The number of validators.
    pub fn len(&self) -> usize {
        self.layout.len
    }

    /// Always `false`.
    pub fn is_empty(&self) -> bool {
        self.layout.len == 0
    }

    /// The sum of the weights.
    pub fn total_weight(&self) -> u64 {
        self.layout.total_weight
    }
}
