//! Distributed key generation: every party deals a random constant; the new secret is
//! the sum over the qualified dealers. In Feldman mode the group key `Σ A_{i,0}` is
//! public, so each dealer proves knowledge of its `a_{i,0}` with a Schnorr proof bound to
//! the session, the curve and the dealer (as RFC 9591 Appendix C / Komlo–Goldberg
//! require against rogue-key contributions). Pedersen mode publishes no `a·G` at all and
//! needs no proof.

use alloc::vec::Vec;

use group::ff::Field;
use group::Group;

use super::ceremony::{check_threshold, checked_set};
use super::{ActivationKind, Ceremony, Error, Kind};
use crate::hash::{tags, Transcript};
use crate::vss::group::{point_to_bytes, read_point, read_scalar, write_point, write_scalar};
use crate::vss::{Curve, Mode};
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

impl<C: Curve> Ceremony<C> {
    /// A DKG among `parties` (each both dealer and receiver) with threshold `threshold`.
    ///
    /// # Errors
    /// [`Error::DuplicateParty`], [`Error::InvalidThreshold`], [`Error::Vss`] (empty set).
    pub fn dkg(session: [u8; 32], mode: Mode, parties: &[PartyId], threshold: u16) -> Result<Self, Error> {
        let parties = checked_set(parties)?;
        check_threshold(threshold, parties.len())?;
        Ok(Ceremony {
            session,
            kind: Kind::Dkg,
            mode,
            dealers: parties.clone(),
            receivers: parties,
            threshold,
            old: None,
            weights: Vec::new(),
            activation: (ActivationKind::Lss, Vec::new()),
        })
    }
}

/// A Schnorr proof of knowledge of `a` with `A = a·G`: `(R, z)` with `z = k + c·a`,
/// `R = k·G`, `c = H(curve, session, dealer, A, R)` where `H` is cSHAKE256 with
/// customization `QUASAR-LSS-POK-v1`, 64 bytes reduced modulo the group order.
///
/// Wire form: `R` (point) ‖ `z` (scalar).
#[derive(Clone, PartialEq, Eq)]
pub struct ProofOfKnowledge<C: Curve> {
    r: C::Point,
    z: C::Scalar,
}

impl<C: Curve> core::fmt::Debug for ProofOfKnowledge<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ProofOfKnowledge")
            .field("r", &self.r)
            .finish_non_exhaustive()
    }
}

fn challenge<C: Curve>(session: &[u8; 32], dealer: PartyId, a: &C::Point, r: &C::Point) -> C::Scalar {
    let mut t = Transcript::new(tags::LSS_POK);
    t.append(C::NAME.as_bytes())
        .append(session)
        .append(&dealer.get().to_be_bytes())
        .append(&point_to_bytes::<C>(a))
        .append(&point_to_bytes::<C>(r));
    C::scalar_from_wide(&t.finalize::<64>())
}

impl<C: Curve> ProofOfKnowledge<C> {
    /// Proves knowledge of `secret` for `public = secret·G`.
    pub fn prove(
        session: &[u8; 32],
        dealer: PartyId,
        secret: &C::Scalar,
        public: &C::Point,
        rng: &mut (impl rand_core::RngCore + rand_core::CryptoRng),
    ) -> Self {
        let mut k = C::Scalar::random(&mut *rng);
        // Public: R and z are the proof, broadcast with the deal.
        let r = crate::ct::public(C::mul_base(&k));
        let c = challenge::<C>(session, dealer, public, &r);
        let z = crate::ct::public(k + c * secret);
        zeroize::Zeroize::zeroize(&mut k);
        ProofOfKnowledge { r, z }
    }

    /// Verifies the proof for `public` (variable time: public data).
    pub fn verify(&self, session: &[u8; 32], dealer: PartyId, public: &C::Point) -> bool {
        let c = challenge::<C>(session, dealer, public, &self.r);
        let lhs = C::msm_vartime(&[self.z, -c], &[C::Point::generator(), *public]);
        lhs == self.r
    }

    /// Encodes `R ‖ z`.
    pub fn write(&self, w: &mut Writer) {
        write_point::<C>(&self.r, w);
        write_scalar::<C>(&self.z, w);
    }

    /// Decodes `R ‖ z` (canonical, prime-order `R`).
    ///
    /// # Errors
    /// [`wire::Error`].
    pub fn read(r: &mut Reader<'_>) -> Result<Self, wire::Error> {
        let point = read_point::<C>(r)?;
        let z = read_scalar::<C>(r)?;
        Ok(ProofOfKnowledge { r: point, z })
    }

    /// A copy with `z` changed (tests of forgery detection).
    #[cfg(feature = "hazmat")]
    pub fn tampered(&self) -> Self {
        ProofOfKnowledge {
            r: self.r,
            z: self.z + C::Scalar::ONE,
        }
    }
}
