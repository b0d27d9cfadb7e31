//! Trusted-dealer key generation (RFC 9591 Appendix C): [`deal`] and the [`DealerShare`]
//! each party receives.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::vec::Vec;
use core::fmt;

use frost_core::keys as fk;
use frost_core::Element;
use rand_core::CryptoRngCore;
use zeroize::{ZeroizeOnDrop, Zeroizing};

use super::ciphersuite::{element_from_bytes, frost_err, ident, with_suite, ByCurve, Family, Suite};
use super::keys::{
    check_keygen_params, keygen_epoch, PublicKeyPackage, DEALER_SHARE_VERSION, MAGIC_DEALER_SHARE,
};
use super::{Curve, Error, KeyEpoch};
use crate::wire;
use crate::PartyId;

pub(crate) struct SecretShareF;
impl Family for SecretShareF {
    type Of<C: Suite> = fk::SecretShare<C>;
}

/// A trusted dealer's share for one party (RFC 9591 Appendix C): the party's secret share
/// and the dealer's commitment.
///
/// Sent by the dealer to one party over a confidential, authenticated channel; the party
/// turns it into a [`super::KeyShare`] with [`super::KeyShare::from_dealer`].
///
/// # Security
/// Secret: anyone who reads `t` of these learns the key. Wiped on drop; `Debug` redacted.
pub struct DealerShare {
    pub(crate) to: PartyId,
    pub(crate) epoch: KeyEpoch,
    pub(crate) inner: ByCurve<SecretShareF>,
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

    /// Encodes: `LNDS` ‖ u16 version 2 ‖ curve ‖ epoch ‖ u16 to ‖ signing share
    /// (32-byte scalar) ‖ u16 t ‖ t × commitment point. (Version 2 writes the fields itself
    /// instead of frost's serialization, whose growing buffer left copies of the share in
    /// freed memory.)
    ///
    /// # Security
    /// The output is secret: send it only encrypted to its recipient. It is written into
    /// one buffer of the right size, wiped when dropped.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        with_suite!(self.curve(), C => {
            let Ok(ss) = self.inner.get::<C>() else { return Zeroizing::new(Vec::new()) };
            let points = ss.commitment().serialize().unwrap_or_default();
            let len: usize = 6 + 1 + KeyEpoch::LEN + 2 + 32 + 2 + points.iter().map(Vec::len).sum::<usize>();
            let mut w = wire::Writer::with_capacity(len);
            w.put(MAGIC_DEALER_SHARE).u16(DEALER_SHARE_VERSION).u8(self.curve().to_byte());
            self.epoch.write(&mut w);
            self.to.write(&mut w);
            let share = Zeroizing::new(ss.signing_share().serialize());
            w.put(&share);
            w.u16(crate::wire::len_u16(points.len()));
            for p in &points {
                w.put(p);
            }
            w.into_secret()
        })
    }

    /// Decodes a dealer share of the expected curve.
    ///
    /// # Errors
    /// [`Error::Decode`], [`Error::WrongCurve`].
    pub fn from_bytes(curve: Curve, bytes: &[u8]) -> Result<DealerShare, Error> {
        with_suite!(curve, C => {
            let mut r = wire::Reader::new(bytes);
            r.header(MAGIC_DEALER_SHARE, DEALER_SHARE_VERSION)?;
            let found = Curve::from_byte(r.u8()?)?;
            if found != C::CURVE {
                return Err(Error::WrongCurve { expected: C::CURVE, found });
            }
            let epoch = KeyEpoch::read(&mut r)?;
            let to = PartyId::read(&mut r)?;
            let share = fk::SigningShare::<C>::deserialize(r.take(32)?)
                .map_err(|_| wire::Error::InvalidValue("signing share"))?;
            let t = usize::from(r.u16()?);
            if t == 0 {
                return Err(wire::Error::InvalidValue("empty commitment").into());
            }
            let point_len = C::CURVE.element_len();
            if t.saturating_mul(point_len) > r.remaining() {
                return Err(wire::Error::TooShort {
                    needed: t.saturating_mul(point_len),
                    got: r.remaining(),
                }
                .into());
            }
            let mut points = Vec::with_capacity(t);
            for _ in 0..t {
                points.push(r.take(point_len)?);
            }
            r.finish()?;
            let commitment = fk::VerifiableSecretSharingCommitment::<C>::deserialize(points)
                .map_err(|_| wire::Error::InvalidValue("commitment"))?;
            let ss = fk::SecretShare::new(ident::<C>(to)?, share, commitment);
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
    let n = crate::wire::len_u16(parties.len());
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
