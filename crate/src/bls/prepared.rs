//! Prepared validator sets: keys validated and decompressed once, verification against a
//! signer bitmap at the cost of one plain verification.
//!
//! This is what Ethereum light clients do with a sync committee (Helios, Nimbus): the set's
//! keys are known before any certificate, so KeyValidate and PopVerify run once per key when
//! the set is installed, the keys are kept as affine points, and their sum is kept too. A
//! certificate names its signers by a bitmap; the signers' key is then the full sum minus the
//! absent keys when more than half signed (at most n/2 point additions either way), and the
//! aggregate signature is checked with one hash-to-curve and one two-pair pairing check.

use alloc::vec::Vec;
use core::fmt;

use bls12_381::{G1Affine, G1Projective};

use super::{Error, ProofOfPossession, Signature, VerifyingKey, PUBLIC_KEY_LEN, SIGNATURE_LEN};

/// The largest validator set a [`PreparedSet`] accepts (its bitmap is then 8 KiB).
pub const MAX_SET_SIZE: usize = 1 << 16;

/// A validator set prepared for verifying aggregate signatures against signer bitmaps.
///
/// Holds the members' public keys as validated affine G1 points, in set order, and their sum.
/// Only public data; about 100 bytes per member.
///
/// # Security
/// Aggregating keys is safe only for keys whose proof of possession was verified.
/// [`PreparedSet::new`] and [`PreparedSet::from_bytes`] verify every PoP themselves;
/// [`PreparedSet::from_keys_trusting_pops`] relies on the caller for it.
#[derive(Clone)]
pub struct PreparedSet {
    keys: Vec<G1Affine>,
    aggregate: G1Projective,
}

impl fmt::Debug for PreparedSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PreparedSet({} keys)", self.keys.len())
    }
}

impl PreparedSet {
    /// Prepares a validator set from its members' keys and proofs of possession, in set
    /// order: verifies every proof (PopVerify, §3.3.3) once and sums the keys.
    ///
    /// Costs one PopVerify per member (a hash-to-curve and a two-pair pairing check each);
    /// done once per validator set, not per certificate.
    ///
    /// # Errors
    /// [`Error::Empty`], [`Error::TooManyKeys`], [`Error::DuplicateKey`],
    /// [`Error::InvalidProofOfPossession`] naming the first member whose proof fails.
    pub fn new(members: &[(VerifyingKey, ProofOfPossession)]) -> Result<Self, Error> {
        let keys: Vec<VerifyingKey> = members.iter().map(|(pk, _)| *pk).collect();
        check_keys(&keys)?;
        for (index, (pk, pop)) in members.iter().enumerate() {
            pk.verify_possession(pop)
                .map_err(|_| Error::InvalidProofOfPossession { index })?;
        }
        Ok(Self::from_checked(&keys))
    }

    /// [`PreparedSet::new`] from bytes: `public_keys` is the concatenation of the members'
    /// 48-byte compressed keys, `proofs` of their 96-byte proofs, in the same order.
    ///
    /// # Errors
    /// [`Error::InvalidLength`] when `public_keys` is not a multiple of 48 bytes or `proofs`
    /// not 96 bytes per key; [`Error::InvalidMember`] wrapping the decoding error of the first
    /// malformed key or proof; then the errors of [`PreparedSet::new`].
    pub fn from_bytes(public_keys: &[u8], proofs: &[u8]) -> Result<Self, Error> {
        let n = public_keys.len() / PUBLIC_KEY_LEN;
        if !public_keys.len().is_multiple_of(PUBLIC_KEY_LEN) {
            return Err(Error::InvalidLength {
                what: "public key list",
                expected: n * PUBLIC_KEY_LEN,
                got: public_keys.len(),
            });
        }
        if n > MAX_SET_SIZE {
            return Err(Error::TooManyKeys {
                got: n,
                max: MAX_SET_SIZE,
            });
        }
        if proofs.len() != n * SIGNATURE_LEN {
            return Err(Error::InvalidLength {
                what: "proof list",
                expected: n * SIGNATURE_LEN,
                got: proofs.len(),
            });
        }
        let members = public_keys
            .chunks_exact(PUBLIC_KEY_LEN)
            .zip(proofs.chunks_exact(SIGNATURE_LEN))
            .enumerate()
            .map(|(index, (pk, pop))| {
                let member = |error| Error::InvalidMember {
                    index,
                    error: alloc::boxed::Box::new(error),
                };
                Ok((
                    VerifyingKey::try_from(pk).map_err(member)?,
                    ProofOfPossession::try_from(pop).map_err(member)?,
                ))
            })
            .collect::<Result<Vec<_>, Error>>()?;
        PreparedSet::new(&members)
    }

    /// Prepares a set whose proofs of possession were verified elsewhere: only sums the keys
    /// (and checks the set's size and that no key repeats). Cheap: no pairing at all.
    ///
    /// # Errors
    /// [`Error::Empty`], [`Error::TooManyKeys`], [`Error::DuplicateKey`].
    ///
    /// # Security
    /// Use it only for keys whose PoPs someone the caller trusts has verified, for instance a
    /// chain that checks PoPs at registration and commits to the resulting set in a root the
    /// light client verified. A single key without a valid PoP makes every aggregate over
    /// this set forgeable by its owner.
    pub fn from_keys_trusting_pops(keys: &[VerifyingKey]) -> Result<Self, Error> {
        check_keys(keys)?;
        Ok(Self::from_checked(keys))
    }

    fn from_checked(keys: &[VerifyingKey]) -> Self {
        let keys: Vec<G1Affine> = keys.iter().map(|pk| *pk.point()).collect();
        let aggregate = keys
            .iter()
            .fold(G1Projective::identity(), |acc, k| acc.add_mixed(k));
        PreparedSet { keys, aggregate }
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Always `false`: a prepared set has at least one member.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The public key of member `index`, if there is one.
    pub fn verifying_key(&self, index: usize) -> Option<VerifyingKey> {
        self.keys.get(index).map(|k| VerifyingKey::from_point(*k))
    }

    /// Checks `bitmap` against this set (see [`SignerBitmap`] for the convention) and gives
    /// the signer count and indices, without any curve arithmetic.
    ///
    /// # Errors
    /// [`Error::InvalidLength`], [`Error::BitmapExtraBits`], [`Error::NoSigners`].
    pub fn bitmap<'a>(&self, bitmap: &'a [u8]) -> Result<SignerBitmap<'a>, Error> {
        SignerBitmap::new(bitmap, self.keys.len())
    }

    /// FastAggregateVerify (§3.3.4) of `signature` on `message` by the members `bitmap` marks:
    /// one hash-to-curve and one two-pair pairing check, plus at most n/2 point additions.
    ///
    /// # Errors
    /// The bitmap errors of [`PreparedSet::bitmap`], then [`Error::InvalidSignature`].
    pub fn verify_aggregate(
        &self,
        message: &[u8],
        signature: &Signature,
        bitmap: &[u8],
    ) -> Result<(), Error> {
        let signers = self.bitmap(bitmap)?;
        signature.verify_with_key(&self.signer_key(&signers), message)
    }

    /// [`PreparedSet::verify_aggregate`] with the signature as 96 compressed bytes, decoded
    /// (and subgroup-checked) here.
    ///
    /// # Errors
    /// The bitmap errors, a decoding error for the signature, [`Error::InvalidSignature`].
    pub fn verify_aggregate_bytes(
        &self,
        message: &[u8],
        signature: &[u8],
        bitmap: &[u8],
    ) -> Result<(), Error> {
        let signers = self.bitmap(bitmap)?;
        let signature = Signature::try_from(signature)?;
        signature.verify_with_key(&self.signer_key(&signers), message)
    }

    /// The sum of the signers' keys: the full aggregate minus the absent keys when more than
    /// half signed, the sum of the present keys otherwise (at most n/2 additions).
    fn signer_key(&self, signers: &SignerBitmap<'_>) -> G1Affine {
        let n = self.keys.len();
        let sum_of = |present: bool| {
            self.keys
                .iter()
                .enumerate()
                .filter(|(i, _)| signers.is_signer(*i) == present)
                .fold(G1Projective::identity(), |acc, (_, k)| acc.add_mixed(k))
        };
        let key = if 2 * signers.count() > n {
            self.aggregate - sum_of(false)
        } else {
            sum_of(true)
        };
        G1Affine::from(key)
    }
}

/// Checks a set's size and that no key repeats (a repeated key would let one validator count
/// twice towards a quorum).
fn check_keys(keys: &[VerifyingKey]) -> Result<(), Error> {
    if keys.is_empty() {
        return Err(Error::Empty {
            what: "validator set",
        });
    }
    if keys.len() > MAX_SET_SIZE {
        return Err(Error::TooManyKeys {
            got: keys.len(),
            max: MAX_SET_SIZE,
        });
    }
    let mut sorted: Vec<([u8; PUBLIC_KEY_LEN], usize)> =
        keys.iter().enumerate().map(|(i, k)| (k.to_bytes(), i)).collect();
    // Not `sort_unstable`: 25 KB of generic sorting code in the light WASM module (crate::sort).
    crate::sort::heapsort(&mut sorted);
    for pair in sorted.windows(2) {
        if let [(a, i), (b, j)] = pair {
            if a == b {
                return Err(Error::DuplicateKey {
                    first: *i.min(j),
                    second: *i.max(j),
                });
            }
        }
    }
    Ok(())
}

/// A signer bitmap checked against a set size.
///
/// # Convention
/// Member `i` (its position in the validator set, from 0) signed iff bit `i % 8` of byte
/// `i / 8` is set, bits numbered from the least significant (value `1 << (i % 8)`): the
/// byte order and bit order of an SSZ `Bitvector`, as in Ethereum's sync aggregates. The
/// bitmap of a set of `n` members is exactly `ceil(n / 8)` bytes; the unused high bits of the
/// last byte must be zero; at least one bit must be set.
///
/// ```
/// use quasar_pq::bls::SignerBitmap;
///
/// // Members 0, 1 and 9 of a set of 10.
/// let bytes = SignerBitmap::from_indices(10, &[0, 1, 9]).unwrap();
/// assert_eq!(bytes, [0b0000_0011, 0b0000_0010]);
/// let bitmap = SignerBitmap::new(&bytes, 10).unwrap();
/// assert_eq!(bitmap.count(), 3);
/// assert_eq!(bitmap.signers().collect::<Vec<_>>(), [0, 1, 9]);
/// assert!(SignerBitmap::new(&[0b0000_0011, 0b0000_0110], 10).is_err()); // bit 10 is set
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignerBitmap<'a> {
    bytes: &'a [u8],
    set_size: usize,
    count: usize,
}

impl<'a> SignerBitmap<'a> {
    /// Checks `bytes` as the signer bitmap of a set of `set_size` members.
    ///
    /// # Errors
    /// [`Error::InvalidLength`] unless `bytes` has `ceil(set_size / 8)` bytes,
    /// [`Error::BitmapExtraBits`] for a bit at position `set_size` or beyond,
    /// [`Error::NoSigners`] when no bit is set.
    pub fn new(bytes: &'a [u8], set_size: usize) -> Result<Self, Error> {
        let expected = set_size.div_ceil(8);
        if bytes.len() != expected {
            return Err(Error::InvalidLength {
                what: "signer bitmap",
                expected,
                got: bytes.len(),
            });
        }
        if let Some(&last) = bytes.last() {
            let used = set_size - 8 * (expected - 1);
            let extra = u32::from(last) >> used;
            if extra != 0 {
                return Err(Error::BitmapExtraBits {
                    index: set_size + extra.trailing_zeros() as usize,
                    set_size,
                });
            }
        }
        let count = bytes.iter().map(|b| b.count_ones() as usize).sum();
        if count == 0 {
            return Err(Error::NoSigners);
        }
        Ok(SignerBitmap {
            bytes,
            set_size,
            count,
        })
    }

    /// The bitmap bytes for the members at `indices` of a set of `set_size` (a repeated index
    /// counts once).
    ///
    /// # Errors
    /// [`Error::BitmapExtraBits`] for an index ≥ `set_size`, [`Error::NoSigners`] for none.
    pub fn from_indices(set_size: usize, indices: &[usize]) -> Result<Vec<u8>, Error> {
        let mut bytes = alloc::vec![0u8; set_size.div_ceil(8)];
        for &index in indices {
            match bytes.get_mut(index / 8) {
                Some(b) if index < set_size => *b |= 1 << (index % 8),
                _ => return Err(Error::BitmapExtraBits { index, set_size }),
            }
        }
        if indices.is_empty() {
            return Err(Error::NoSigners);
        }
        Ok(bytes)
    }

    /// The number of signers (bits set).
    pub fn count(&self) -> usize {
        self.count
    }

    /// The set size the bitmap was checked against.
    pub fn set_size(&self) -> usize {
        self.set_size
    }

    /// Whether member `index` signed (`false` beyond the set).
    pub fn is_signer(&self, index: usize) -> bool {
        index < self.set_size
            && self
                .bytes
                .get(index / 8)
                .is_some_and(|b| (b >> (index % 8)) & 1 == 1)
    }

    /// The signers' indices, ascending.
    pub fn signers(&self) -> impl Iterator<Item = usize> + 'a {
        let this = *self;
        (0..self.set_size).filter(move |&i| this.is_signer(i))
    }

    /// The absent members' indices, ascending.
    pub fn absent(&self) -> impl Iterator<Item = usize> + 'a {
        let this = *self;
        (0..self.set_size).filter(move |&i| !this.is_signer(i))
    }

    /// The bitmap bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }
}
