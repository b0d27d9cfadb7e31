//! The group's [`PublicKeyPackage`], and the wire magics of the Lens key material
//! ([`super::KeyShare`] in `share.rs`, [`super::DealerShare`] in `dealer.rs`).
//!
//! The public key package holds, besides `frost-core`'s package (group key, verifying
//! shares, threshold), the **Feldman commitment** of the current sharing: the points
//! `C_k = a_k·G` of the sharing polynomial `f(x) = Σ a_k x^k`, with `C_0` the group key
//! and `Y_i = Σ C_k i^k` each party's verifying share. LSS resharing starts from it.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::vec::Vec;
use core::fmt;

use super::ciphersuite::{
    element_bytes, element_from_bytes, frame, ident, open, put_component, read_component, read_parties,
    with_suite, write_parties, x_of, ByCurve, Family, Suite,
};
use super::{tags, Curve, Error, KeyEpoch};
use crate::hash::{shake256_into, Transcript};
use crate::wire;
use crate::PartyId;
use frost_core::keys as fk;
use frost_core::{Element, Field, Group};

/// Magic of an encoded [`PublicKeyPackage`].
pub(super) const MAGIC_PUBLIC_KEY_PACKAGE: &[u8; 4] = b"LNPK";
/// Magic of an encoded [`super::KeyShare`].
pub(super) const MAGIC_KEY_SHARE: &[u8; 4] = b"LNKS";
/// Version of the [`super::KeyShare`] encoding (2: the signing share as a bare scalar).
pub(super) const KEY_SHARE_VERSION: u16 = 2;
/// Magic of an encoded [`super::DealerShare`].
pub(super) const MAGIC_DEALER_SHARE: &[u8; 4] = b"LNDS";
/// Version of the [`super::DealerShare`] encoding (2: fields written by this crate).
pub(super) const DEALER_SHARE_VERSION: u16 = 2;

// ---------------------------------------------------------------------------------------
// Public key package

/// The public part of a sharing, per ciphersuite.
#[derive(Clone, PartialEq)]
pub(crate) struct PublicState<C: Suite> {
    pub(crate) frost: fk::PublicKeyPackage<C>,
    pub(crate) commitment: Vec<Element<C>>,
}

pub(crate) struct PublicF;
impl Family for PublicF {
    type Of<C: Suite> = PublicState<C>;
}

/// The group's public key material for one [`KeyEpoch`]: the group key, each party's
/// verifying share, the threshold, and the Feldman commitment of the sharing.
///
/// Everyone may hold it (the coordinator needs it to aggregate). Constructors and
/// [`PublicKeyPackage::from_bytes`] check that it is consistent: the commitment's constant
/// term is the group key, and every verifying share lies on the committed polynomial
/// (checked as one random linear combination with Fiat–Shamir weights).
#[derive(Clone, PartialEq)]
pub struct PublicKeyPackage {
    pub(crate) epoch: KeyEpoch,
    pub(crate) threshold: u16,
    parties: Vec<PartyId>,
    group_key: Vec<u8>,
    pub(crate) inner: ByCurve<PublicF>,
}

impl fmt::Debug for PublicKeyPackage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PublicKeyPackage")
            .field("curve", &self.curve())
            .field("epoch", &self.epoch)
            .field("threshold", &self.threshold)
            .field("parties", &self.parties.len())
            .field("group_key", &Hex(&self.group_key_bytes()))
            .finish()
    }
}

/// Hex display of public bytes.
pub(crate) struct Hex<'a>(pub(crate) &'a [u8]);
impl fmt::Debug for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl PublicKeyPackage {
    /// Builds and validates a package.
    pub(crate) fn from_parts<C: Suite>(
        epoch: KeyEpoch,
        threshold: u16,
        parties: Vec<PartyId>,
        frost: fk::PublicKeyPackage<C>,
        commitment: Vec<Element<C>>,
    ) -> Result<PublicKeyPackage, Error> {
        PublicKeyPackage::build(epoch, threshold, parties, frost, commitment, true)
    }

    /// Builds a package; `check_shares` runs the batched check that the verifying shares
    /// lie on the commitment (skipped only when the caller evaluated them from it).
    fn build<C: Suite>(
        epoch: KeyEpoch,
        threshold: u16,
        parties: Vec<PartyId>,
        frost: fk::PublicKeyPackage<C>,
        commitment: Vec<Element<C>>,
        check_shares: bool,
    ) -> Result<PublicKeyPackage, Error> {
        let bad = |what| Error::Decode(wire::Error::InvalidValue(what));
        if parties.windows(2).any(|w| w[0] >= w[1]) {
            return Err(bad("party list not sorted"));
        }
        if threshold == 0 || usize::from(threshold) > parties.len() {
            return Err(Error::InvalidThreshold {
                threshold,
                parties: parties.len(),
            });
        }
        if frost.min_signers() != Some(threshold) {
            return Err(bad("threshold of the frost package"));
        }
        if commitment.len() != usize::from(threshold) {
            return Err(bad("commitment length"));
        }
        let shares = frost.verifying_shares();
        if shares.len() != parties.len() {
            return Err(bad("verifying share count"));
        }
        let mut points = Vec::with_capacity(parties.len());
        for p in &parties {
            let share = shares
                .get(&ident::<C>(*p)?)
                .ok_or(bad("verifying share missing"))?;
            let bytes = share.serialize().map_err(|_| bad("verifying share"))?;
            points.push((*p, element_from_bytes::<C>(&bytes)?));
        }
        let group_key = frost.verifying_key().serialize().map_err(|_| bad("group key"))?;
        let c0 = commitment.first().ok_or(bad("commitment length"))?;
        if element_bytes::<C>(c0)? != group_key {
            return Err(bad("commitment does not open to the group key"));
        }
        if check_shares && !shares_lie_on::<C>(&commitment, &points)? {
            return Err(bad("verifying shares do not match the commitment"));
        }
        Ok(PublicKeyPackage {
            epoch,
            threshold,
            parties,
            group_key,
            inner: C::wrap(PublicState { frost, commitment }),
        })
    }

    /// Builds the package of a sharing from its Feldman commitment and the verifying
    /// shares evaluated from it by the caller (so the batch check is skipped).
    pub(crate) fn from_commitment<C: Suite>(
        epoch: KeyEpoch,
        parties: Vec<PartyId>,
        commitment: Vec<Element<C>>,
        verifying_shares: &[(PartyId, Element<C>)],
    ) -> Result<PublicKeyPackage, Error> {
        let threshold = u16::try_from(commitment.len()).map_err(|_| Error::InvalidThreshold {
            threshold: u16::MAX,
            parties: parties.len(),
        })?;
        let mut shares = BTreeMap::new();
        for (p, y) in verifying_shares {
            let share = fk::VerifyingShare::<C>::deserialize(&element_bytes::<C>(y)?)
                .map_err(|_| Error::Internal("verifying share"))?;
            shares.insert(ident::<C>(*p)?, share);
        }
        let c0 = commitment.first().ok_or(Error::InvalidThreshold {
            threshold: 0,
            parties: parties.len(),
        })?;
        let vk = frost_core::VerifyingKey::<C>::deserialize(&element_bytes::<C>(c0)?)
            .map_err(|_| Error::Internal("group key"))?;
        let frost = fk::PublicKeyPackage::new(shares, vk, Some(threshold));
        PublicKeyPackage::build(epoch, threshold, parties, frost, commitment, false)
    }

    pub(crate) fn state<C: Suite>(&self) -> Result<&PublicState<C>, Error> {
        self.inner.get::<C>()
    }

    /// The curve.
    pub fn curve(&self) -> Curve {
        self.inner.curve()
    }

    /// The epoch (generation and dealing transcript) of this sharing.
    pub fn epoch(&self) -> KeyEpoch {
        self.epoch
    }

    /// The threshold `t`: how many parties must sign.
    pub fn threshold(&self) -> u16 {
        self.threshold
    }

    /// The parties holding shares, in increasing order.
    pub fn parties(&self) -> &[PartyId] {
        &self.parties
    }

    /// Whether `party` holds a share.
    pub fn contains(&self, party: PartyId) -> bool {
        self.parties.binary_search(&party).is_ok()
    }

    /// The group (verifying) key, always [`GROUP_KEY_LEN`] = 32 bytes: the Ed25519
    /// compressed point, the Ristretto255 encoding, or on secp256k1 the BIP-340 x-only key
    /// (the `x` of the group key; BIP-340 keys name the even-`y` point, and a group key with
    /// an odd `y` signs as its negation, as BIP-340 prescribes). It is what
    /// [`super::verify`] takes, and never changes under refresh or reshare.
    ///
    /// [`GROUP_KEY_LEN`]: super::GROUP_KEY_LEN
    pub fn group_key_bytes(&self) -> Vec<u8> {
        match self.curve() {
            // SEC 1 compressed `prefix ‖ x`: the x-only key drops the parity byte.
            #[cfg(feature = "secp256k1")]
            Curve::Secp256k1 => self.group_key.get(1..).unwrap_or_default().to_vec(),
            #[allow(unreachable_patterns)] // a build of secp256k1 alone
            _ => self.group_key.clone(),
        }
    }

    /// The verifying share `Y_i = s_i·G` of `party`: the group element's encoding (32 bytes;
    /// on secp256k1 the 33-byte SEC 1 compressed point, whose parity a share needs).
    pub fn verifying_share_bytes(&self, party: PartyId) -> Option<Vec<u8>> {
        with_suite!(self.curve(), C => {
            let st = self.state::<C>().ok()?;
            st.frost
                .verifying_shares()
                .get(&ident::<C>(party).ok()?)?
                .serialize()
                .ok()
        })
    }

    /// The Feldman commitment `C_0, …, C_{t−1}`, each encoded like a verifying share
    /// (secp256k1: 33-byte SEC 1 points; `C_0` is the group key as a point, whose `x` is
    /// [`PublicKeyPackage::group_key_bytes`]).
    pub fn commitment_bytes(&self) -> Vec<Vec<u8>> {
        with_suite!(self.curve(), C => match self.state::<C>() {
            Ok(st) => st
                .commitment
                .iter()
                .filter_map(|c| element_bytes::<C>(c).ok())
                .collect(),
            Err(_) => Vec::new(),
        })
    }

    /// Encodes: `LNPK` ‖ u16 1 ‖ curve ‖ epoch (u64 ‖ 32 B) ‖ u16 threshold ‖ u32 n ‖
    /// n × u16 party ‖ u32 len ‖ frost `PublicKeyPackage` ‖ u32 t ‖ t × element.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = frame(MAGIC_PUBLIC_KEY_PACKAGE, self.curve());
        self.epoch.write(&mut w);
        w.u16(self.threshold);
        write_parties(&mut w, &self.parties);
        with_suite!(self.curve(), C => {
            if let Ok(st) = self.state::<C>() {
                put_component(&mut w, &st.frost.serialize().unwrap_or_default());
                w.u32(crate::wire::len_u32(st.commitment.len()));
                for c in &st.commitment {
                    w.put(&element_bytes::<C>(c).unwrap_or_default());
                }
            }
        });
        w.into_bytes()
    }

    /// Decodes a package of the expected curve and checks its consistency.
    ///
    /// # Errors
    /// [`Error::Decode`] (truncation, trailing bytes, bad magic or version, malformed or
    /// inconsistent content), [`Error::WrongCurve`], [`Error::DuplicateSigner`] for a
    /// repeated party, [`Error::InvalidThreshold`].
    pub fn from_bytes(curve: Curve, bytes: &[u8]) -> Result<PublicKeyPackage, Error> {
        with_suite!(curve, C => public_from_bytes::<C>(bytes))
    }
}

fn public_from_bytes<C: Suite>(bytes: &[u8]) -> Result<PublicKeyPackage, Error> {
    let mut r = open(MAGIC_PUBLIC_KEY_PACKAGE, C::CURVE, bytes)?;
    let epoch = KeyEpoch::read(&mut r)?;
    let threshold = r.u16()?;
    let parties = read_parties(&mut r)?;
    let frost = read_component(
        &mut r,
        |b| fk::PublicKeyPackage::<C>::deserialize(b).ok(),
        |v| v.serialize().ok(),
    )?;
    let len = C::CURVE.element_len();
    let t = r.count(usize::from(u16::MAX), len)?;
    let mut commitment = Vec::with_capacity(t);
    for _ in 0..t {
        commitment.push(element_from_bytes::<C>(r.take(len)?)?);
    }
    r.finish()?;
    PublicKeyPackage::from_parts(epoch, threshold, parties, frost, commitment)
}

/// Checks `Y_i = Σ_k C_k i^k` for every `(i, Y_i)` at once: with 128-bit weights `r_i`
/// derived by hashing all inputs, `Σ r_i Y_i = Σ_k (Σ_i r_i i^k) C_k`. A wrong share passes
/// with probability about 2^-128 (the weights are a random oracle of the inputs).
pub(crate) fn shares_lie_on<C: Suite>(
    commitment: &[Element<C>],
    shares: &[(PartyId, Element<C>)],
) -> Result<bool, Error> {
    let mut t = Transcript::new(tags::LENS_SHARE_CHECK);
    t.append(&[C::CURVE.to_byte()]);
    for c in commitment {
        t.append(&element_bytes::<C>(c)?);
    }
    for (p, y) in shares {
        t.append(&p.get().to_be_bytes());
        t.append(&element_bytes::<C>(y)?);
    }
    let seed: [u8; 32] = t.finalize();
    let zero = <<C::Group as Group>::Field as Field>::zero();
    let two32 = C::scalar_from_u64(1 << 32);
    let two64 = two32 * two32;
    let mut lhs = <C::Group as Group>::identity();
    let mut sums = alloc::vec![zero; commitment.len()];
    for (i, (p, y)) in shares.iter().enumerate() {
        let mut w = [0u8; 16];
        shake256_into(&[&seed, &(i as u64).to_be_bytes()], &mut w);
        let (hi, lo) = w.split_at(8);
        let hi = u64::from_be_bytes(hi.try_into().map_err(|_| Error::Internal("weight"))?);
        let lo = u64::from_be_bytes(lo.try_into().map_err(|_| Error::Internal("weight"))?);
        let r = C::scalar_from_u64(hi) * two64 + C::scalar_from_u64(lo);
        lhs = lhs + *y * r;
        let x = x_of::<C>(*p);
        let mut term = r;
        for s in sums.iter_mut() {
            *s = *s + term;
            term = term * x;
        }
    }
    let mut rhs = <C::Group as Group>::identity();
    for (c, s) in commitment.iter().zip(sums) {
        rhs = rhs + *c * s;
    }
    Ok(lhs == rhs)
}

/// The epoch of a fresh key (generation 0): a transcript of the curve, threshold,
/// parties, a label for the method and every commitment of the dealing.
pub(crate) fn keygen_epoch<C: Suite>(
    method: &[u8],
    session: &[u8],
    threshold: u16,
    parties: &[PartyId],
    commitments: &[&[Element<C>]],
) -> Result<KeyEpoch, Error> {
    let mut t = Transcript::new(tags::LENS_KEYGEN);
    t.append(method)
        .append(session)
        .append(&[C::CURVE.to_byte()])
        .append(&threshold.to_be_bytes())
        .append(&crate::wire::len_u32(parties.len()).to_be_bytes());
    for p in parties {
        t.append(&p.get().to_be_bytes());
    }
    for commitment in commitments {
        t.append(&crate::wire::len_u32(commitment.len()).to_be_bytes());
        for c in *commitment {
            t.append(&element_bytes::<C>(c)?);
        }
    }
    Ok(KeyEpoch {
        generation: 0,
        transcript: t.finalize(),
    })
}

/// Checks key-generation parameters: 2 ≤ t ≤ n ≤ 65 535 (frost's minimum of 2).
pub(crate) fn check_keygen_params(
    threshold: u16,
    parties: &BTreeSet<PartyId>,
) -> Result<Vec<PartyId>, Error> {
    let n = parties.len();
    if threshold < 2 || usize::from(threshold) > n || n > usize::from(u16::MAX) {
        return Err(Error::InvalidThreshold {
            threshold,
            parties: n,
        });
    }
    Ok(parties.iter().copied().collect())
}
