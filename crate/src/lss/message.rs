//! Round-1 messages: a dealer's broadcast commitments ([`DealMessage`]) and its private
//! share for each receiver ([`ShareMessage`]).

use alloc::vec::Vec;
use core::fmt;

use zeroize::Zeroizing;

use super::{Kind, ProofOfKnowledge, MAX_PARTIES};
use crate::party::shared::{held, Held};
use crate::vss::{Commitments, Curve, Mode, Share};
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// Magic of a [`DealMessage`].
pub(super) const DEAL_MAGIC: &[u8; 4] = b"LSD1";
/// Magic of a [`ShareMessage`].
pub(super) const SHARE_MAGIC: &[u8; 4] = b"LSP1";
/// Version of the round messages.
pub(super) const VERSION: u16 = 1;

fn read_curve<C: Curve>(r: &mut Reader<'_>) -> Result<(), wire::Error> {
    let curve = r.u8()?;
    if curve != C::ID {
        return Err(wire::Error::UnknownMode(curve));
    }
    Ok(())
}

/// Round 1, broadcast by each dealer to every participant (reliable broadcast): the
/// commitments to its sharing polynomial and, in a Feldman DKG, a proof of knowledge of
/// its constant term.
///
/// Wire form: `LSD1` ‖ u16 version 1 ‖ u8 curve ‖ u8 kind ‖ u8 mode ‖ session (32) ‖
/// u16 from ‖ u16 count ‖ count × point ‖ (Feldman DKG only) proof `R ‖ z`.
///
/// Points are decoded canonically. For Ed25519, prime-order-subgroup membership of the
/// commitments (a 30 µs scalar multiplication per point) is not checked here: the kernel
/// checks it on the combined commitments at finalize and, only if that fails, per
/// dealer, disqualifying and naming any dealer whose commitments carry torsion.
#[derive(Clone, PartialEq, Eq)]
pub struct DealMessage<C: Curve> {
    pub(crate) session: [u8; 32],
    pub(crate) kind: Kind,
    pub(crate) from: PartyId,
    pub(crate) commitments: Held<Commitments<C>>,
    pub(crate) proof: Option<ProofOfKnowledge<C>>,
    pub(crate) raw: Held<Vec<u8>>,
}

impl<C: Curve> fmt::Debug for DealMessage<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DealMessage")
            .field("kind", &self.kind)
            .field("mode", &self.commitments.mode())
            .field("from", &self.from)
            .field("threshold", &self.commitments.threshold())
            .finish_non_exhaustive()
    }
}

impl<C: Curve> DealMessage<C> {
    pub(crate) fn new(
        session: [u8; 32],
        kind: Kind,
        from: PartyId,
        commitments: Commitments<C>,
        proof: Option<ProofOfKnowledge<C>>,
    ) -> Self {
        let mut m = DealMessage {
            session,
            kind,
            from,
            commitments: held(commitments),
            proof,
            raw: held(Vec::new()),
        };
        m.raw = held(m.encode());
        // The process's other parties receive these bytes: they need not decode them.
        m.commitments.lend_decoding();
        m
    }

    fn encode(&self) -> Vec<u8> {
        // Ids, session, the points, and a proof of knowledge (a point and a scalar).
        let points = self.commitments.threshold() + 1;
        let body = 40 + points * C::POINT_LEN + 32;
        let mut w = Writer::with_header_and_room(DEAL_MAGIC, VERSION, body);
        w.u8(C::ID)
            .u8(self.kind.to_byte())
            .u8(self.commitments.mode().to_byte());
        w.put(&self.session);
        self.from.write(&mut w);
        self.commitments.write(&mut w);
        if let Some(p) = &self.proof {
            p.write(&mut w);
        }
        let bytes = w.into_bytes();
        debug_assert!(bytes.len() <= 6 + body, "a deal outgrew the room made for it");
        bytes
    }

    /// The session id.
    pub fn session(&self) -> &[u8; 32] {
        &self.session
    }

    /// The dealing flavour.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The dealer.
    pub fn from(&self) -> PartyId {
        self.from
    }

    /// The commitments.
    pub fn commitments(&self) -> &Commitments<C> {
        &self.commitments
    }

    /// The proof of knowledge (Feldman DKG only).
    pub fn proof(&self) -> Option<&ProofOfKnowledge<C>> {
        self.proof.as_ref()
    }

    /// Encodes (see the type docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        Vec::clone(&self.raw)
    }

    /// The encoding, borrowed.
    pub fn as_bytes(&self) -> &[u8] {
        &self.raw
    }

    /// Decodes strictly (header, curve, kind, mode, canonical points and scalars, the
    /// proof present exactly in a Feldman DKG, no trailing bytes).
    ///
    /// # Errors
    /// [`wire::Error`] naming what was wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, wire::Error> {
        let mut r = Reader::new(bytes);
        r.header(DEAL_MAGIC, VERSION)?;
        read_curve::<C>(&mut r)?;
        let kind = Kind::from_byte(r.u8()?)?;
        let mode = Mode::from_byte(r.u8()?)?;
        let session: [u8; 32] = r.array()?;
        let from = PartyId::read(&mut r)?;
        let commitments = Commitments::<C>::read_unchecked_subgroup(mode, MAX_PARTIES, &mut r)?;
        let proof = if kind == Kind::Dkg && mode == Mode::Feldman {
            Some(ProofOfKnowledge::<C>::read(&mut r)?)
        } else {
            None
        };
        r.finish()?;
        Ok(DealMessage {
            session,
            kind,
            from,
            commitments: held(commitments),
            proof,
            raw: held(bytes.to_vec()),
        })
    }

    /// This message with a corrupted proof of knowledge (for tests of forgery detection).
    #[cfg(feature = "hazmat")]
    pub fn with_tampered_proof(&self) -> Self {
        let proof = self.proof.as_ref().map(|p| p.tampered());
        DealMessage::new(
            self.session,
            self.kind,
            self.from,
            Commitments::clone(&self.commitments),
            proof,
        )
    }

    /// This message with other commitments (for misbehaving-dealer tests).
    #[cfg(feature = "hazmat")]
    pub fn with_commitments(&self, commitments: Commitments<C>) -> Self {
        DealMessage::new(
            self.session,
            self.kind,
            self.from,
            commitments,
            self.proof.clone(),
        )
    }
}

/// Round 1, sent by a dealer to one receiver over a **confidential, authenticated**
/// point-to-point channel (the caller encrypts it): the receiver's share value and, in
/// Pedersen mode, its blind.
///
/// Wire form: `LSP1` ‖ u16 version 1 ‖ u8 curve ‖ u8 kind ‖ u8 mode ‖ session (32) ‖
/// u16 from ‖ u16 to ‖ value (32) ‖ blind (32, Pedersen only).
///
/// # Security
/// Secret: zeroized on drop, `Debug` redacted, [`ShareMessage::to_bytes`] returns a
/// zeroizing buffer. Never send it unencrypted.
pub struct ShareMessage<C: Curve> {
    pub(crate) session: [u8; 32],
    pub(crate) kind: Kind,
    pub(crate) mode: Mode,
    pub(crate) from: PartyId,
    pub(crate) to: PartyId,
    pub(crate) share: Share<C>,
}

impl<C: Curve> fmt::Debug for ShareMessage<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ShareMessage")
            .field("from", &self.from)
            .field("to", &self.to)
            .field("share", &"<redacted>")
            .finish()
    }
}

impl<C: Curve> ShareMessage<C> {
    /// The session id.
    pub fn session(&self) -> &[u8; 32] {
        &self.session
    }

    /// The dealer.
    pub fn from(&self) -> PartyId {
        self.from
    }

    /// The receiver.
    pub fn to(&self) -> PartyId {
        self.to
    }

    /// Encodes (see the type docs).
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        let mut w = Writer::with_header(SHARE_MAGIC, VERSION);
        w.u8(C::ID).u8(self.kind.to_byte()).u8(self.mode.to_byte());
        w.put(&self.session);
        self.from.write(&mut w);
        self.to.write(&mut w);
        self.share.write(self.mode, &mut w);
        Zeroizing::new(w.into_bytes())
    }

    /// Decodes strictly (canonical scalars, no trailing bytes).
    ///
    /// # Errors
    /// [`wire::Error`] naming what was wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, wire::Error> {
        let mut r = Reader::new(bytes);
        r.header(SHARE_MAGIC, VERSION)?;
        read_curve::<C>(&mut r)?;
        let kind = Kind::from_byte(r.u8()?)?;
        let mode = Mode::from_byte(r.u8()?)?;
        let session: [u8; 32] = r.array()?;
        let from = PartyId::read(&mut r)?;
        let to = PartyId::read(&mut r)?;
        let share = Share::<C>::read(mode, &mut r)?;
        r.finish()?;
        Ok(ShareMessage {
            session,
            kind,
            mode,
            from,
            to,
            share,
        })
    }

    /// This message with the share value increased by one (for misbehaving-dealer tests).
    #[cfg(feature = "hazmat")]
    pub fn tampered(&self) -> Self {
        use group::ff::Field;
        ShareMessage {
            session: self.session,
            kind: self.kind,
            mode: self.mode,
            from: self.from,
            to: self.to,
            share: Share::new(*self.share.value() + C::Scalar::ONE, *self.share.blind()),
        }
    }
}
