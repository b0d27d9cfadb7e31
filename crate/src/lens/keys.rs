//! Key material: trusted-dealer key generation (RFC 9591 Appendix C), a party's
//! [`KeyShare`] and the group's [`PublicKeyPackage`].
//!
//! The public key package holds, besides `frost-core`'s package (group key, verifying
//! shares, threshold), the **Feldman commitment** of the current sharing: the points
//! `C_k = a_k·G` of the sharing polynomial `f(x) = Σ a_k x^k`, with `C_0` the group key
//! and `Y_i = Σ C_k i^k` each party's verifying share. LSS resharing starts from it.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::vec::Vec;
use core::fmt;

use frost_core::keys as fk;
use frost_core::{Element, Field, Group};
use rand_core::CryptoRngCore;
use zeroize::{ZeroizeOnDrop, Zeroizing};

use super::ciphersuite::{
    element_bytes, element_from_bytes, frame, frost_err, ident, open, put_component, read_component,
    read_parties, with_suite, write_parties, x_of, ByCurve, Family, Suite, MAX_COMPONENT,
};
use super::{tags, Curve, Error, KeyEpoch};
use crate::hash::{shake256_into, Transcript};
use crate::wire;
use crate::PartyId;

/// Magic of an encoded [`PublicKeyPackage`].
pub const MAGIC_PUBLIC_KEY_PACKAGE: &[u8; 4] = b"LNPK";
/// Magic of an encoded [`KeyShare`].
pub const MAGIC_KEY_SHARE: &[u8; 4] = b"LNKS";
/// Magic of an encoded [`DealerShare`].
pub const MAGIC_DEALER_SHARE: &[u8; 4] = b"LNDS";

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
    epoch: KeyEpoch,
    threshold: u16,
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
            .field("group_key", &Hex(&self.group_key))
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

    /// The group (verifying) key: 32 bytes (Ed25519 compressed point, Ristretto255
    /// encoding) or 33 bytes (secp256k1 SEC 1 compressed; BIP-340's x-only key is bytes
    /// `1..33`). It never changes under refresh or reshare.
    pub fn group_key_bytes(&self) -> Vec<u8> {
        self.group_key.clone()
    }

    /// The verifying share `Y_i = s_i·G` of `party`, encoded like the group key.
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

    /// The Feldman commitment `C_0, …, C_{t−1}`, each encoded like the group key.
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
                w.u32(st.commitment.len() as u32);
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
        .append(&(parties.len() as u32).to_be_bytes());
    for p in parties {
        t.append(&p.get().to_be_bytes());
    }
    for commitment in commitments {
        t.append(&(commitment.len() as u32).to_be_bytes());
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

// ---------------------------------------------------------------------------------------
// Key share

pub(crate) struct KeyPackageF;
impl Family for KeyPackageF {
    type Of<C: Suite> = fk::KeyPackage<C>;
}

/// One party's share of the group key, for one [`KeyEpoch`], with the group's
/// [`PublicKeyPackage`].
///
/// # Security
/// Holds the party's secret signing share. Never send it; store it only encrypted (the
/// bytes of [`KeyShare::to_bytes`] are secret). It is wiped from memory when dropped and
/// its `Debug` output is redacted.
pub struct KeyShare {
    party: PartyId,
    pub(crate) inner: ByCurve<KeyPackageF>,
    public: PublicKeyPackage,
}

// The frost `KeyPackage` inside zeroizes its signing share on drop; nothing else here is
// secret.
impl ZeroizeOnDrop for KeyShare {}

impl fmt::Debug for KeyShare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyShare")
            .field("party", &self.party)
            .field("curve", &self.curve())
            .field("epoch", &self.public.epoch)
            .field("signing_share", &"<redacted>")
            .finish()
    }
}

impl KeyShare {
    /// A second copy (for a party that keeps the share across rounds).
    ///
    /// # Security
    /// Both copies hold the secret and are wiped when dropped.
    pub(crate) fn duplicate(&self) -> KeyShare {
        KeyShare {
            party: self.party,
            inner: self.inner.clone(),
            public: self.public.clone(),
        }
    }

    /// Builds and validates a key share: the frost key package must belong to `party`,
    /// match the public package, and its signing share must match its verifying share.
    pub(crate) fn from_parts<C: Suite>(
        party: PartyId,
        key_package: fk::KeyPackage<C>,
        public: PublicKeyPackage,
    ) -> Result<KeyShare, Error> {
        let bad = |what| Error::Decode(wire::Error::InvalidValue(what));
        if !public.contains(party) {
            return Err(Error::UnknownParty { party });
        }
        let st = public.state::<C>()?;
        let id = ident::<C>(party)?;
        if *key_package.identifier() != id {
            return Err(bad("key package identifier"));
        }
        if *key_package.min_signers() != public.threshold {
            return Err(bad("key package threshold"));
        }
        if key_package.verifying_key() != st.frost.verifying_key() {
            return Err(bad("key package group key"));
        }
        if Some(key_package.verifying_share()) != st.frost.verifying_shares().get(&id) {
            return Err(bad("key package verifying share"));
        }
        if fk::VerifyingShare::<C>::from(*key_package.signing_share()) != *key_package.verifying_share() {
            return Err(bad("signing share does not match its verifying share"));
        }
        Ok(KeyShare {
            party,
            inner: C::wrap(key_package),
            public,
        })
    }

    /// Accepts the share a trusted dealer sent (RFC 9591 Appendix C.2 `vss_verify`): checks
    /// it against the dealer's commitment and that the commitment is the one in the
    /// broadcast public key package, so every party has the same view.
    ///
    /// # Errors
    /// [`Error::WrongCurve`], [`Error::EpochMismatch`], [`Error::UnknownParty`],
    /// [`Error::InvalidSecretShare`] (with no culprit: the dealer is at fault) when the
    /// share or the commitment does not match.
    pub fn from_dealer(share: DealerShare, public: &PublicKeyPackage) -> Result<KeyShare, Error> {
        if share.curve() != public.curve() {
            return Err(Error::WrongCurve {
                expected: public.curve(),
                found: share.curve(),
            });
        }
        if share.epoch != public.epoch {
            return Err(Error::EpochMismatch {
                party: None,
                expected: public.epoch,
                found: share.epoch,
            });
        }
        let to = share.to;
        with_suite!(public.curve(), C => {
            let ss = share.inner.get::<C>()?;
            if *ss.identifier() != ident::<C>(to)? {
                return Err(Error::InvalidSecretShare { culprit: None });
            }
            let expected = &public.state::<C>()?.commitment;
            let theirs = ss.commitment().serialize().map_err(|_| Error::InvalidSecretShare { culprit: None })?;
            let ours: Vec<Vec<u8>> = expected.iter().map(element_bytes::<C>).collect::<Result<_, _>>()?;
            if theirs != ours {
                return Err(Error::InvalidSecretShare { culprit: None });
            }
            let kp = fk::KeyPackage::<C>::try_from(ss.clone())
                .map_err(|_| Error::InvalidSecretShare { culprit: None })?;
            KeyShare::from_parts::<C>(to, kp, public.clone())
        })
    }

    pub(crate) fn key_package<C: Suite>(&self) -> Result<&fk::KeyPackage<C>, Error> {
        self.inner.get::<C>()
    }

    /// This share's party.
    pub fn party(&self) -> PartyId {
        self.party
    }

    /// The curve.
    pub fn curve(&self) -> Curve {
        self.inner.curve()
    }

    /// The epoch of this share.
    pub fn epoch(&self) -> KeyEpoch {
        self.public.epoch
    }

    /// The threshold.
    pub fn threshold(&self) -> u16 {
        self.public.threshold
    }

    /// The group's public key package.
    pub fn public(&self) -> &PublicKeyPackage {
        &self.public
    }

    /// The group key bytes (see [`PublicKeyPackage::group_key_bytes`]).
    pub fn group_key_bytes(&self) -> Vec<u8> {
        self.public.group_key_bytes()
    }

    /// Encodes for storage: `LNKS` ‖ u16 1 ‖ curve ‖ u16 party ‖ u32 len ‖ frost
    /// `KeyPackage` ‖ u32 len ‖ [`PublicKeyPackage`] bytes.
    ///
    /// # Security
    /// The output contains the secret signing share: encrypt it at rest (the LSS
    /// snapshot store does) and never send it.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        let mut w = frame(MAGIC_KEY_SHARE, self.curve());
        self.party.write(&mut w);
        with_suite!(self.curve(), C => {
            if let Ok(kp) = self.key_package::<C>() {
                let bytes = Zeroizing::new(kp.serialize().unwrap_or_default());
                put_component(&mut w, &bytes);
            }
        });
        w.bytes(&self.public.to_bytes());
        Zeroizing::new(w.into_bytes())
    }

    /// Decodes a stored share of the expected curve and checks it (see
    /// [`PublicKeyPackage::from_bytes`] for the public part).
    ///
    /// # Errors
    /// [`Error::Decode`], [`Error::WrongCurve`], [`Error::UnknownParty`], and the errors of
    /// [`PublicKeyPackage::from_bytes`].
    pub fn from_bytes(curve: Curve, bytes: &[u8]) -> Result<KeyShare, Error> {
        with_suite!(curve, C => {
            let mut r = open(MAGIC_KEY_SHARE, C::CURVE, bytes)?;
            let party = PartyId::read(&mut r)?;
            let kp = read_component(
                &mut r,
                |b| fk::KeyPackage::<C>::deserialize(b).ok(),
                |v| v.serialize().ok(),
            )?;
            let public = PublicKeyPackage::from_bytes(C::CURVE, r.bytes(MAX_COMPONENT)?)?;
            r.finish()?;
            KeyShare::from_parts::<C>(party, kp, public)
        })
    }
}

// ---------------------------------------------------------------------------------------
// Trusted dealer

pub(crate) struct SecretShareF;
impl Family for SecretShareF {
    type Of<C: Suite> = fk::SecretShare<C>;
}

/// A trusted dealer's share for one party (RFC 9591 Appendix C): the party's secret share
/// and the dealer's commitment.
///
/// Sent by the dealer to one party over a confidential, authenticated channel; the party
/// turns it into a [`KeyShare`] with [`KeyShare::from_dealer`].
///
/// # Security
/// Secret: anyone who reads `t` of these learns the key. Wiped on drop; `Debug` redacted.
pub struct DealerShare {
    to: PartyId,
    epoch: KeyEpoch,
    inner: ByCurve<SecretShareF>,
}

impl ZeroizeOnDrop for DealerShare {}

impl fmt::Debug for DealerShare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DealerShare")
            .field("to", &self.to)
            .field("curve", &self.curve())
            .field("epoch", &self.epoch)
            .field("share", &"<redacted>")
            .finish()
    }
}

impl DealerShare {
    /// The recipient.
    pub fn to(&self) -> PartyId {
        self.to
    }

    /// The curve.
    pub fn curve(&self) -> Curve {
        self.inner.curve()
    }

    /// The epoch of the dealt key.
    pub fn epoch(&self) -> KeyEpoch {
        self.epoch
    }

    /// Encodes: `LNDS` ‖ u16 1 ‖ curve ‖ epoch ‖ u16 to ‖ u32 len ‖ frost `SecretShare`.
    ///
    /// # Security
    /// The output is secret: send it only encrypted to its recipient.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        let mut w = frame(MAGIC_DEALER_SHARE, self.curve());
        self.epoch.write(&mut w);
        self.to.write(&mut w);
        with_suite!(self.curve(), C => {
            if let Ok(ss) = self.inner.get::<C>() {
                let bytes = Zeroizing::new(ss.serialize().unwrap_or_default());
                put_component(&mut w, &bytes);
            }
        });
        Zeroizing::new(w.into_bytes())
    }

    /// Decodes a dealer share of the expected curve; the share's frost identifier must be
    /// the recipient's.
    ///
    /// # Errors
    /// [`Error::Decode`], [`Error::WrongCurve`].
    pub fn from_bytes(curve: Curve, bytes: &[u8]) -> Result<DealerShare, Error> {
        with_suite!(curve, C => {
            let mut r = open(MAGIC_DEALER_SHARE, C::CURVE, bytes)?;
            let epoch = KeyEpoch::read(&mut r)?;
            let to = PartyId::read(&mut r)?;
            let ss = read_component(
                &mut r,
                |b| fk::SecretShare::<C>::deserialize(b).ok(),
                |v| v.serialize().ok(),
            )?;
            r.finish()?;
            if *ss.identifier() != ident::<C>(to)? {
                return Err(wire::Error::InvalidValue("share identifier differs from the recipient").into());
            }
            Ok(DealerShare { to, epoch, inner: C::wrap(ss) })
        })
    }
}

/// Trusted-dealer key generation (RFC 9591 Appendix C, `trusted_dealer_keygen`): a fresh
/// key, Shamir-shared with threshold `threshold` among `parties`, with its Feldman
/// commitment.
///
/// Returns one [`DealerShare`] per party (send each privately) and the
/// [`PublicKeyPackage`] (publish it). The key's epoch is generation 0.
///
/// # Errors
/// [`Error::InvalidThreshold`] unless 2 ≤ `threshold` ≤ `parties.len()` ≤ 65 535.
///
/// # Security
/// The dealer sees the key; erase its memory afterwards (the returned shares wipe
/// themselves on drop). Randomness comes from `rng` only.
pub fn deal<R: CryptoRngCore + ?Sized>(
    curve: Curve,
    threshold: u16,
    parties: &BTreeSet<PartyId>,
    rng: &mut R,
) -> Result<(BTreeMap<PartyId, DealerShare>, PublicKeyPackage), Error> {
    let parties = check_keygen_params(threshold, parties)?;
    with_suite!(curve, C => deal_g::<C, R>(threshold, parties, rng))
}

fn deal_g<C: Suite, R: CryptoRngCore + ?Sized>(
    threshold: u16,
    parties: Vec<PartyId>,
    rng: &mut R,
) -> Result<(BTreeMap<PartyId, DealerShare>, PublicKeyPackage), Error> {
    let ids: Vec<_> = parties.iter().map(|p| ident::<C>(*p)).collect::<Result<_, _>>()?;
    let n = parties.len() as u16;
    let (mut shares, frost_public) =
        fk::generate_with_dealer::<C, _>(n, threshold, fk::IdentifierList::Custom(&ids), &mut &mut *rng)
            .map_err(|e| frost_err::<C>(e, &parties))?;
    let first = shares.values().next().ok_or(Error::Internal("no shares"))?;
    let commitment: Vec<Element<C>> = first
        .commitment()
        .serialize()
        .map_err(|_| Error::Internal("commitment"))?
        .iter()
        .map(|b| element_from_bytes::<C>(b))
        .collect::<Result<_, _>>()?;
    let epoch = keygen_epoch::<C>(b"dealer", &[], threshold, &parties, &[&commitment])?;
    let public =
        PublicKeyPackage::from_parts::<C>(epoch, threshold, parties.clone(), frost_public, commitment)?;
    let mut out = BTreeMap::new();
    for (p, id) in parties.iter().zip(&ids) {
        let ss = shares.remove(id).ok_or(Error::Internal("missing share"))?;
        out.insert(
            *p,
            DealerShare {
                to: *p,
                epoch,
                inner: C::wrap(ss),
            },
        );
    }
    Ok((out, public))
}
