//! Conversions between Lens and LSS types: a Lens key share **is** an LSS Feldman share of
//! the group secret (the frost signing share), and a public key package **is** the LSS
//! group's commitment, parties and epoch. No secret is re-derived; the group key is `C_0`,
//! which LSS never changes.
//!
//! The one-time DKG post-processing of a ciphersuite (secp256k1: BIP-340 even-`y`
//! normalisation and the BIP-341 unspendable tweak, as `frost-secp256k1-tr` does) belongs
//! to key generation ([`keygen_share_g`]); refreshed and reshared keys convert as they are.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use frost_core::keys as fk;
use frost_core::{Ciphersuite, Field, Group};

use super::ciphersuite::{element_bytes, element_from_bytes, frost_err, ident, with_suite, Suite};
use super::keys::PublicKeyPackage;
use super::share::KeyShare;
use super::{Error, KeyEpoch};
use crate::lss::{self, AnyGroupPublic, AnyKeyShare};
use crate::vss::{self, Commitments, Mode, Share};

impl KeyShare {
    /// This key share as an LSS key share (the same secret share, Feldman mode), for
    /// resharing or sealing.
    ///
    /// # Errors
    /// [`Error::Lss`] (never for a well-formed share).
    ///
    /// # Security
    /// The result holds the secret share.
    pub fn to_lss(&self) -> Result<AnyKeyShare, Error> {
        with_suite!(self.curve(), C => Ok(lss_share_g::<C>(self)?.into()))
    }

    /// The Lens key share of an LSS Feldman key share (of any generation; no DKG
    /// post-processing is applied).
    ///
    /// # Errors
    /// [`Error::Lss`] for a Pedersen-mode share; [`Error::Decode`] for a group whose key
    /// or shares are not valid frost elements.
    pub fn from_lss(share: &AnyKeyShare) -> Result<KeyShare, Error> {
        with_suite!(share.curve(), C => {
            let s = share.as_curve::<<C as Suite>::Vss>().ok_or(Error::Internal("curve"))?;
            share_from_lss_g::<C>(s, &public_from_lss_g::<C>(s.public())?)
        })
    }
}

impl PublicKeyPackage {
    /// This package as an LSS group (Feldman mode; same commitment, parties and epoch).
    ///
    /// # Errors
    /// [`Error::Lss`] (never for a well-formed package).
    pub fn to_lss(&self) -> Result<AnyGroupPublic, Error> {
        with_suite!(self.curve(), C => Ok(group_public_g::<C>(self)?.into()))
    }

    /// The public key package of an LSS Feldman group.
    ///
    /// # Errors
    /// As [`KeyShare::from_lss`].
    pub fn from_lss(group: &AnyGroupPublic) -> Result<PublicKeyPackage, Error> {
        with_suite!(group.curve(), C => {
            let g = group.as_curve::<<C as Suite>::Vss>().ok_or(Error::Internal("curve"))?;
            public_from_lss_g::<C>(g)
        })
    }
}

/// The LSS group of a Lens public key package (Feldman mode; same commitments, parties,
/// generation and transcript).
pub(crate) fn group_public_g<C: Suite>(
    public: &PublicKeyPackage,
) -> Result<lss::GroupPublic<<C as Suite>::Vss>, Error> {
    let st = public.state::<C>()?;
    let commitments = Commitments::<<C as Suite>::Vss>::from_points(Mode::Feldman, st.commitment.clone())
        .map_err(lss::Error::from)?;
    Ok(lss::GroupPublic::new(
        commitments,
        public.parties().to_vec(),
        public.epoch().generation,
        public.epoch().transcript,
    )?)
}

/// The LSS key share of a Lens key share: the frost signing share, unchanged.
pub(crate) fn lss_share_g<C: Suite>(share: &KeyShare) -> Result<lss::KeyShare<<C as Suite>::Vss>, Error> {
    let kp = share.key_package::<C>()?;
    // The scalar itself: frost's decoder would branch on the secret's validity.
    let mut s = kp.signing_share().to_scalar();
    let zero = <<C::Group as Group>::Field as Field>::zero();
    let lss_share = Share::<<C as Suite>::Vss>::new(s, zero);
    C::wipe(&mut s);
    let group = group_public_g::<C>(share.public())?;
    Ok(lss::KeyShare::new(share.party(), lss_share, group)?)
}

/// The Lens public key package of an LSS group (Feldman mode only). The same for every
/// party of the generation, so the parties of one process make it once (`party::shared`):
/// it evaluates the commitments at every party and re-encodes each point for frost.
pub(crate) fn public_from_lss_g<C: Suite>(
    group: &lss::GroupPublic<<C as Suite>::Vss>,
) -> Result<PublicKeyPackage, Error> {
    let size = 200 * (group.parties().len() + group.commitments().threshold());
    // Only a package is kept; an error is made again (and is the same) where it happens.
    let made = crate::party::shared::memo(
        b"lens-public-package",
        || group.to_bytes(),
        size,
        || make_public_g::<C>(group).ok(),
    );
    match made.as_ref() {
        Some(public) => Ok(public.clone()),
        None => make_public_g::<C>(group),
    }
}

fn make_public_g<C: Suite>(group: &lss::GroupPublic<<C as Suite>::Vss>) -> Result<PublicKeyPackage, Error> {
    let shares = group
        .verifying_shares()
        .ok_or(lss::Error::Vss(vss::Error::ModeMismatch))?;
    let epoch = KeyEpoch {
        generation: group.generation(),
        transcript: *group.transcript_hash(),
    };
    PublicKeyPackage::from_commitment::<C>(
        epoch,
        group.parties().to_vec(),
        group.commitments().points().to_vec(),
        &shares,
    )
}

/// The Lens key share of an LSS key share, given the already converted public package.
pub(crate) fn share_from_lss_g<C: Suite>(
    share: &lss::KeyShare<<C as Suite>::Vss>,
    public: &PublicKeyPackage,
) -> Result<KeyShare, Error> {
    let id = share.id();
    let st = public.state::<C>()?;
    // From the scalar itself: frost's decoder branches on the secret's validity.
    let signing_share = fk::SigningShare::<C>::new(*share.secret_share());
    let identifier = ident::<C>(id)?;
    let verifying_share = *st
        .frost
        .verifying_shares()
        .get(&identifier)
        .ok_or(Error::UnknownParty { party: id })?;
    let key_package = fk::KeyPackage::new(
        identifier,
        signing_share,
        verifying_share,
        *st.frost.verifying_key(),
        public.threshold(),
    );
    KeyShare::from_parts::<C>(id, key_package, public.clone())
}

/// The Lens key share of a generation-0 share of an LSS Feldman DKG, after the
/// ciphersuite's DKG post-processing (see the module docs).
pub(crate) fn keygen_share_g<C: Suite>(share: &lss::KeyShare<<C as Suite>::Vss>) -> Result<KeyShare, Error> {
    if share.public().mode() != Mode::Feldman {
        return Err(lss::Error::Vss(vss::Error::ModeMismatch).into());
    }
    if share.generation() != 0 {
        let found = KeyEpoch {
            generation: share.generation(),
            transcript: *share.transcript_hash(),
        };
        return Err(Error::EpochMismatch {
            party: None,
            expected: KeyEpoch {
                generation: 0,
                ..found
            },
            found,
        });
    }
    match post_process::<C>(share)? {
        Some(processed) => share_from_lss_g::<C>(&processed, &public_from_lss_g::<C>(processed.public())?),
        None => share_from_lss_g::<C>(share, &public_from_lss_g::<C>(share.public())?),
    }
}

/// Applies the ciphersuite's DKG post-processing (`Ciphersuite::post_dkg`) to the sharing:
/// `None` when it changes nothing (Ed25519, Ristretto255); otherwise the LSS key share of
/// the processed sharing `±f + τ` with its commitment `[Y, ±C_1, …, ±C_{t−1}]`, where `Y`
/// is frost's processed group key. [`lss::KeyShare::new`] checks the new share against
/// the new commitment, so the derivation is verified, not assumed.
fn post_process<C: Suite>(
    share: &lss::KeyShare<<C as Suite>::Vss>,
) -> Result<Option<lss::KeyShare<<C as Suite>::Vss>>, Error> {
    let group = share.public();
    let points = group.commitments().points();
    let c0 = *group.commitments().constant();
    let threshold = group.threshold();
    let vk = frost_core::VerifyingKey::<C>::deserialize(&element_bytes::<C>(&c0)?)
        .map_err(|_| Error::Internal("group key"))?;
    let signing = fk::SigningShare::<C>::new(*share.secret_share());
    let key_package = fk::KeyPackage::new(
        ident::<C>(share.id())?,
        signing,
        fk::VerifyingShare::<C>::from(signing),
        vk,
        threshold,
    );
    let public = fk::PublicKeyPackage::new(BTreeMap::new(), vk, Some(threshold));
    let (key_package, _) =
        <C as Ciphersuite>::post_dkg(key_package, public).map_err(|e| frost_err::<C>(e, group.parties()))?;
    if *key_package.verifying_key() == vk {
        return Ok(None);
    }
    let negate = C::dkg_negates(&c0);
    let group_key = key_package
        .verifying_key()
        .serialize()
        .map_err(|_| Error::Internal("group key"))?;
    let identity = <C::Group as Group>::identity();
    let mut commitment = Vec::with_capacity(points.len());
    commitment.push(element_from_bytes::<C>(&group_key)?);
    commitment.extend(
        points
            .iter()
            .skip(1)
            .map(|p| if negate { identity - *p } else { *p }),
    );
    let commitments =
        Commitments::<<C as Suite>::Vss>::from_points(Mode::Feldman, commitment).map_err(lss::Error::from)?;
    let processed_group = lss::GroupPublic::new(
        commitments,
        group.parties().to_vec(),
        group.generation(),
        *group.transcript_hash(),
    )?;
    let mut value = key_package.signing_share().to_scalar();
    let zero = <<C::Group as Group>::Field as Field>::zero();
    let processed = lss::KeyShare::new(share.id(), Share::new(value, zero), processed_group);
    C::wipe(&mut value);
    Ok(Some(processed?))
}
