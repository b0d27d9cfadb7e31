//! The output of a dealing: the public description of the sharing ([`GroupPublic`]) and a
//! party's secret share of it ([`KeyShare`]).
//!
//! Wire forms (big-endian):
//!
//! `GroupPublic` = `LSG1` ‖ u16 version 1 ‖ u8 curve ‖ u8 mode ‖ u16 threshold ‖
//! u64 generation ‖ transcript hash (32) ‖ u16 n ‖ n × u16 party id (strictly
//! increasing) ‖ u16 threshold ‖ threshold × point (strictly checked).
//!
//! `KeyShare` = `LSK1` ‖ u16 version 1 ‖ u8 curve ‖ u8 mode ‖ u16 id ‖ share value (32) ‖
//! blind (32, Pedersen only) ‖ the `GroupPublic` body (from the curve byte on; its mode
//! must match). Decoding checks that the id is a member and that
//! the share opens the public commitments at the id.

use alloc::vec::Vec;
use core::fmt;

use group::ff::Field;
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use super::{Error, MAX_PARTIES};
use crate::vss::commit::horner_small_vartime;
use crate::vss::group::point_to_bytes;
use crate::vss::{Commitments, Curve, Mode, Share};
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// Magic of an encoded [`GroupPublic`].
pub(super) const GROUP_PUBLIC_MAGIC: &[u8; 4] = b"LSG1";
/// Magic of an encoded [`KeyShare`].
pub(super) const KEY_SHARE_MAGIC: &[u8; 4] = b"LSK1";
/// Version of both encodings.
pub(super) const VERSION: u16 = 1;

/// Everything public about a sharing at one generation: the commitment scheme, the
/// threshold, the parties holding shares, the commitments to the sharing polynomial,
/// the generation number and the transcript hash of the dealing that produced it.
///
/// In Feldman mode the commitments `A_k` give the group key `A_0 = x·G`
/// ([`GroupPublic::group_key`]) and each party's verifying share `Σ_k id^k·A_k`
/// ([`GroupPublic::verifying_share`]). In Pedersen mode `C_0 = x·G + r·H` hides `x`.
#[derive(Clone, PartialEq, Eq)]
pub struct GroupPublic<C: Curve> {
    pub(crate) commitments: Commitments<C>,
    pub(crate) parties: Vec<PartyId>,
    pub(crate) generation: u64,
    pub(crate) transcript_hash: [u8; 32],
}

impl<C: Curve> fmt::Debug for GroupPublic<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GroupPublic")
            .field("curve", &C::NAME)
            .field("mode", &self.mode())
            .field("threshold", &self.threshold())
            .field("parties", &self.parties.len())
            .field("generation", &self.generation)
            .finish_non_exhaustive()
    }
}

impl<C: Curve> GroupPublic<C> {
    /// Builds the public description; checks that the parties are strictly increasing and
    /// that `1 ≤ threshold ≤ n`.
    ///
    /// # Errors
    /// [`Error::Vss`] (duplicates, empty set, bad threshold), [`Error::UnsortedParties`].
    pub fn new(
        commitments: Commitments<C>,
        parties: Vec<PartyId>,
        generation: u64,
        transcript_hash: [u8; 32],
    ) -> Result<Self, Error> {
        if parties.windows(2).any(|w| w[0] >= w[1]) {
            crate::vss::shamir::sorted_set(&parties)?;
            return Err(Error::UnsortedParties);
        }
        if parties.is_empty() {
            return Err(crate::vss::Error::EmptySet.into());
        }
        if commitments.threshold() > parties.len() {
            return Err(crate::vss::Error::InvalidThreshold {
                threshold: commitments.threshold(),
                parties: parties.len(),
            }
            .into());
        }
        Ok(GroupPublic {
            commitments,
            parties,
            generation,
            transcript_hash,
        })
    }

    /// The commitment scheme.
    pub fn mode(&self) -> Mode {
        self.commitments.mode()
    }

    /// The threshold: how many shares rebuild (or sign for) the secret.
    pub fn threshold(&self) -> u16 {
        crate::wire::len_u16(self.commitments.threshold())
    }

    /// The parties holding shares, strictly increasing.
    pub fn parties(&self) -> &[PartyId] {
        &self.parties
    }

    /// The commitments to the sharing polynomial (constant term first).
    pub fn commitments(&self) -> &Commitments<C> {
        &self.commitments
    }

    /// The generation: 0 after a DKG, +1 at every refresh or reshare.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The transcript hash of the dealing that produced this generation.
    pub fn transcript_hash(&self) -> &[u8; 32] {
        &self.transcript_hash
    }

    /// The commitment to the secret, `C_0`: in Feldman mode the group key `x·G`, in
    /// Pedersen mode `x·G + r·H`. Unchanged by refresh and reshare.
    pub fn group_commitment(&self) -> C::Point {
        *self.commitments.constant()
    }

    /// The group public key `A_0 = x·G` (Feldman mode only: Pedersen mode publishes no
    /// such value, and this returns `None`).
    pub fn group_key(&self) -> Option<C::Point> {
        match self.mode() {
            Mode::Feldman => Some(self.group_commitment()),
            Mode::Pedersen => None,
        }
    }

    /// The commitment to party `id`'s share, `Σ_k id^k·C_k` (any id, member or not). In
    /// Feldman mode this is the party's verifying share `s_id·G`.
    pub fn share_commitment(&self, id: PartyId) -> C::Point {
        self.commitments.evaluate_vartime(id)
    }

    /// The verifying share `s_id·G` of a member (Feldman mode only).
    pub fn verifying_share(&self, id: PartyId) -> Option<C::Point> {
        if self.mode() != Mode::Feldman || self.parties.binary_search(&id).is_err() {
            return None;
        }
        Some(self.share_commitment(id))
    }

    /// Every member's verifying share, in party order (Feldman mode only).
    pub fn verifying_shares(&self) -> Option<Vec<(PartyId, C::Point)>> {
        if self.mode() != Mode::Feldman {
            return None;
        }
        Some(
            self.parties
                .iter()
                .map(|&id| {
                    (
                        id,
                        horner_small_vartime(self.commitments.points(), u64::from(id.get())),
                    )
                })
                .collect(),
        )
    }

    /// The encoded group commitment `C_0` (the group key bytes in Feldman mode).
    pub fn group_commitment_bytes(&self) -> Vec<u8> {
        point_to_bytes::<C>(self.commitments.constant())
    }

    pub(crate) fn write_body(&self, w: &mut Writer) {
        w.u8(C::ID).u8(self.mode().to_byte()).u16(self.threshold());
        w.u64(self.generation).put(&self.transcript_hash);
        w.u16(crate::wire::len_u16(self.parties.len()));
        for p in &self.parties {
            p.write(w);
        }
        self.commitments.write(w);
    }

    pub(crate) fn read_body(r: &mut Reader<'_>) -> Result<Self, wire::Error> {
        let curve = r.u8()?;
        if curve != C::ID {
            return Err(wire::Error::UnknownMode(curve));
        }
        let mode = Mode::from_byte(r.u8()?)?;
        let threshold = usize::from(r.u16()?);
        let generation = r.u64()?;
        let transcript_hash: [u8; 32] = r.array()?;
        let parties = read_party_list(r)?;
        if threshold == 0 || threshold > parties.len() {
            return Err(wire::Error::InvalidValue("threshold"));
        }
        let commitments = Commitments::read(mode, MAX_PARTIES, r)?;
        if commitments.threshold() != threshold {
            return Err(wire::Error::LengthMismatch {
                expected: threshold,
                got: commitments.threshold(),
            });
        }
        Ok(GroupPublic {
            commitments,
            parties,
            generation,
            transcript_hash,
        })
    }

    /// Encodes (`LSG1`, see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_header(GROUP_PUBLIC_MAGIC, VERSION);
        self.write_body(&mut w);
        w.into_bytes()
    }

    /// Decodes strictly: header, curve, mode, ids strictly increasing, threshold in range,
    /// canonical prime-order points, no trailing bytes.
    ///
    /// # Errors
    /// [`wire::Error`] naming what was wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, wire::Error> {
        let mut r = Reader::new(bytes);
        r.header(GROUP_PUBLIC_MAGIC, VERSION)?;
        let g = Self::read_body(&mut r)?;
        r.finish()?;
        Ok(g)
    }
}

/// Reads u16 n ‖ n × u16 ids, strictly increasing, 1 ≤ n ≤ [`MAX_PARTIES`].
pub(crate) fn read_party_list(r: &mut Reader<'_>) -> Result<Vec<PartyId>, wire::Error> {
    let n = usize::from(r.u16()?);
    if n == 0 {
        return Err(wire::Error::InvalidValue("empty party list"));
    }
    if n > MAX_PARTIES {
        return Err(wire::Error::CountTooLarge {
            got: n,
            max: MAX_PARTIES,
        });
    }
    if 2 * n > r.remaining() {
        return Err(wire::Error::TooShort {
            needed: 2 * n,
            got: r.remaining(),
        });
    }
    let mut out: Vec<PartyId> = Vec::with_capacity(n);
    for _ in 0..n {
        let p = PartyId::read(r)?;
        if out.last().is_some_and(|&last| last >= p) {
            return Err(wire::Error::InvalidValue("party list not strictly increasing"));
        }
        out.push(p);
    }
    Ok(out)
}

/// One party's share of a group secret at one generation, with the group's public data.
///
/// For Lens (Feldman mode): [`KeyShare::secret_share`] is the FROST signing share,
/// [`GroupPublic::verifying_share`] the verifying shares and [`GroupPublic::group_key`]
/// the group verifying key.
///
/// # Security
/// Holds the secret share (and Pedersen blind): zeroized on drop, no `Clone`, `Debug`
/// redacted. [`KeyShare::to_bytes`] returns the secret in the clear (in a zeroizing
/// buffer): encrypt it before it leaves memory (see `keystore`).
pub struct KeyShare<C: Curve> {
    pub(crate) id: PartyId,
    pub(crate) share: Share<C>,
    pub(crate) public: GroupPublic<C>,
}

impl<C: Curve> fmt::Debug for KeyShare<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyShare")
            .field("id", &self.id)
            .field("share", &"<redacted>")
            .field("public", &self.public)
            .finish()
    }
}

impl<C: Curve> KeyShare<C> {
    /// A second copy of the share (for a party that must keep it across rounds).
    ///
    /// # Security
    /// Secret: both copies wipe themselves on drop.
    #[cfg_attr(not(feature = "ristretto255"), allow(dead_code))] // Pulsar custody's lifecycle and dealing
    pub(crate) fn duplicate(&self) -> KeyShare<C> {
        KeyShare {
            id: self.id,
            share: Share::new(*self.share.value(), *self.share.blind()),
            public: self.public.clone(),
        }
    }
    /// A key share from its parts; checks membership and that the share opens the
    /// commitments at `id`.
    ///
    /// # Errors
    /// [`Error::NotAParticipant`], [`Error::Vss`] with `InvalidShare`.
    pub fn new(id: PartyId, share: Share<C>, public: GroupPublic<C>) -> Result<Self, Error> {
        if public.parties.binary_search(&id).is_err() {
            return Err(Error::NotAParticipant { party: id });
        }
        if public.mode() == Mode::Feldman && !bool::from(share.blind().is_zero()) {
            return Err(crate::vss::Error::ModeMismatch.into());
        }
        public.commitments.verify_share(id, &share)?;
        Ok(KeyShare { id, share, public })
    }

    /// This party's id.
    pub fn id(&self) -> PartyId {
        self.id
    }

    /// The secret share `s_id = f(id)`.
    ///
    /// # Security
    /// Secret key material: never log, send or store it unencrypted.
    pub fn secret_share(&self) -> &C::Scalar {
        self.share.value()
    }

    /// The Pedersen blind `r_id` (zero in Feldman mode).
    ///
    /// # Security
    /// Secret.
    pub fn blind_share(&self) -> &C::Scalar {
        self.share.blind()
    }

    /// The share pair (value, blind).
    ///
    /// # Security
    /// Secret.
    pub fn share(&self) -> &Share<C> {
        &self.share
    }

    /// The group's public data at this generation.
    pub fn public(&self) -> &GroupPublic<C> {
        &self.public
    }

    /// The generation of this share.
    pub fn generation(&self) -> u64 {
        self.public.generation
    }

    /// The transcript hash of the dealing that produced this share.
    pub fn transcript_hash(&self) -> &[u8; 32] {
        &self.public.transcript_hash
    }

    /// This party's verifying share `s_id·G` (Feldman mode), or the commitment to its share
    /// (Pedersen mode).
    pub fn share_commitment(&self) -> C::Point {
        self.public.share_commitment(self.id)
    }

    /// Encodes (`LSK1`, see the module docs).
    ///
    /// # Security
    /// The output holds the secret share in the clear; it is zeroized when dropped.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        let mut w = Writer::with_header(KEY_SHARE_MAGIC, VERSION);
        w.u8(C::ID).u8(self.public.mode().to_byte());
        self.id.write(&mut w);
        self.share.write(self.public.mode(), &mut w);
        self.public.write_body(&mut w);
        let bytes = w.into_bytes();
        Zeroizing::new(bytes)
    }

    /// Decodes strictly and checks the share against the commitments.
    ///
    /// # Errors
    /// [`wire::Error`] for malformed input, `InvalidValue("share does not open the
    /// commitments")` for an inconsistent share, `InvalidValue("id not a member")`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, wire::Error> {
        let mut r = Reader::new(bytes);
        r.header(KEY_SHARE_MAGIC, VERSION)?;
        let curve = r.u8()?;
        if curve != C::ID {
            return Err(wire::Error::UnknownMode(curve));
        }
        let mode = Mode::from_byte(r.u8()?)?;
        let id = PartyId::read(&mut r)?;
        let share = Share::<C>::read(mode, &mut r)?;
        let public = GroupPublic::<C>::read_body(&mut r)?;
        r.finish()?;
        if public.mode() != mode {
            return Err(wire::Error::InvalidValue("share layout does not match the mode"));
        }
        if public.parties.binary_search(&id).is_err() {
            return Err(wire::Error::InvalidValue("key share id not a member"));
        }
        let expected = public.commitments.evaluate_vartime(id);
        // Public: whether the share opens the commitments is what the decoder reports.
        if !crate::ct::public(bool::from(share.commitment(public.mode()).ct_eq(&expected))) {
            return Err(wire::Error::InvalidValue("share does not open the commitments"));
        }
        Ok(KeyShare { id, share, public })
    }
}
