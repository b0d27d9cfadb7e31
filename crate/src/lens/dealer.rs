//! Trusted-dealer key generation (RFC 9591 Appendix C): [`deal`] and the [`DealerShare`]
//! each party receives.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::vec::Vec;
use core::fmt;

use frost_core::keys as fk;
use frost_core::Element;
use rand_core::CryptoRngCore;
use zeroize::{ZeroizeOnDrop, Zeroizing};

use super::ciphersuite::{
    element_from_bytes, frame, frost_err, ident, open, put_component, read_component, with_suite, ByCurve,
    Family, Suite,
};
use super::keys::{check_keygen_params, keygen_epoch, PublicKeyPackage, MAGIC_DEALER_SHARE};
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
/// turns it into a [`KeyShare`] with [`KeyShare::from_dealer`].
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
