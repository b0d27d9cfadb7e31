//! Rounds 2 and 3: complaints against dealers ([`ComplaintMessage`]) and the accused
//! dealers' public openings ([`ResponseMessage`]).
//!
//! A complaint names a dealer whose share was missing or failed its check and carries
//! the share received (if any) as evidence. The accused dealer answers by opening that
//! receiver's share publicly; everybody checks the opening against the dealer's
//! commitments. A missing or invalid opening disqualifies the dealer; a valid one shows
//! the complaint was false and names the complainer, who then uses the opened share.

use alloc::vec::Vec;
use core::fmt;

use super::MAX_PARTIES;
use crate::vss::{Curve, Mode, Share};
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// Magic of a [`ComplaintMessage`].
pub(super) const COMPLAINT_MAGIC: &[u8; 4] = b"LSC1";
/// Magic of a [`ResponseMessage`].
pub(super) const RESPONSE_MAGIC: &[u8; 4] = b"LSR1";
/// Version of both.
pub(super) const VERSION: u16 = 1;

fn read_header<C: Curve>(
    r: &mut Reader<'_>,
    magic: &[u8; 4],
) -> Result<(Mode, [u8; 32], PartyId), wire::Error> {
    r.header(magic, VERSION)?;
    let curve = r.u8()?;
    if curve != C::ID {
        return Err(wire::Error::UnknownMode(curve));
    }
    let mode = Mode::from_byte(r.u8()?)?;
    let session: [u8; 32] = r.array()?;
    let from = PartyId::read(r)?;
    Ok((mode, session, from))
}

fn read_count(r: &mut Reader<'_>, min_item: usize) -> Result<usize, wire::Error> {
    let n = usize::from(r.u16()?);
    if n > MAX_PARTIES {
        return Err(wire::Error::CountTooLarge {
            got: n,
            max: MAX_PARTIES,
        });
    }
    if n * min_item > r.remaining() {
        return Err(wire::Error::TooShort {
            needed: n * min_item,
            got: r.remaining(),
        });
    }
    Ok(n)
}

/// One complaint: the accused dealer and the share received from it, if any.
pub struct Complaint<C: Curve> {
    /// The accused dealer.
    pub dealer: PartyId,
    /// The share received (`None` if it was missing).
    pub evidence: Option<Share<C>>,
}

impl<C: Curve> Clone for Complaint<C> {
    fn clone(&self) -> Self {
        Complaint {
            dealer: self.dealer,
            evidence: self.evidence.as_ref().map(Share::duplicate),
        }
    }
}

impl<C: Curve> fmt::Debug for Complaint<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Complaint")
            .field("dealer", &self.dealer)
            .field("evidence", &self.evidence.is_some())
            .finish()
    }
}

/// Round 2, broadcast by every receiver (possibly with no complaints): the dealers whose
/// share to it was missing or wrong.
///
/// Wire form: `LSC1` ‖ u16 version 1 ‖ u8 curve ‖ u8 mode ‖ session (32) ‖ u16 from ‖
/// u16 count ‖ count × (u16 dealer, strictly increasing ‖ u8 evidence flag 0/1 ‖
/// [share value (32) ‖ blind (32, Pedersen only)]).
pub struct ComplaintMessage<C: Curve> {
    pub(crate) mode: Mode,
    pub(crate) session: [u8; 32],
    pub(crate) from: PartyId,
    pub(crate) complaints: Vec<Complaint<C>>,
    pub(crate) raw: Vec<u8>,
}

impl<C: Curve> Clone for ComplaintMessage<C> {
    fn clone(&self) -> Self {
        ComplaintMessage {
            mode: self.mode,
            session: self.session,
            from: self.from,
            complaints: self.complaints.clone(),
            raw: self.raw.clone(),
        }
    }
}

impl<C: Curve> fmt::Debug for ComplaintMessage<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ComplaintMessage")
            .field("from", &self.from)
            .field("complaints", &self.complaints)
            .finish_non_exhaustive()
    }
}

impl<C: Curve> ComplaintMessage<C> {
    /// A complaint message from `from` (the complaints are sorted by dealer; a dealer
    /// named twice keeps its first complaint). Normally built by a [`super::DealingParty`]
    /// in its complaint round.
    pub fn new(mode: Mode, session: [u8; 32], from: PartyId, mut complaints: Vec<Complaint<C>>) -> Self {
        crate::sort::sort_by_key_stable(&mut complaints, |c| c.dealer);
        complaints.dedup_by_key(|c| c.dealer);
        let mut m = ComplaintMessage {
            mode,
            session,
            from,
            complaints,
            raw: Vec::new(),
        };
        let mut w = Writer::with_header(COMPLAINT_MAGIC, VERSION);
        w.u8(C::ID).u8(mode.to_byte()).put(&session);
        from.write(&mut w);
        w.u16(crate::wire::len_u16(m.complaints.len()));
        for c in &m.complaints {
            c.dealer.write(&mut w);
            match &c.evidence {
                None => {
                    w.u8(0);
                }
                Some(s) => {
                    w.u8(1);
                    s.write(mode, &mut w);
                }
            }
        }
        m.raw = w.into_bytes();
        m
    }

    /// The session id.
    pub fn session(&self) -> &[u8; 32] {
        &self.session
    }

    /// The complainer.
    pub fn from(&self) -> PartyId {
        self.from
    }

    /// The complaints, by dealer.
    pub fn complaints(&self) -> &[Complaint<C>] {
        &self.complaints
    }

    /// Encodes (see the type docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.raw.clone()
    }

    /// Decodes strictly (dealers strictly increasing, flags 0 or 1, canonical scalars,
    /// no trailing bytes).
    ///
    /// # Errors
    /// [`wire::Error`] naming what was wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, wire::Error> {
        let mut r = Reader::new(bytes);
        let (mode, session, from) = read_header::<C>(&mut r, COMPLAINT_MAGIC)?;
        let n = read_count(&mut r, 3)?;
        let mut complaints: Vec<Complaint<C>> = Vec::with_capacity(n);
        for _ in 0..n {
            let dealer = PartyId::read(&mut r)?;
            if complaints.last().is_some_and(|c| c.dealer >= dealer) {
                return Err(wire::Error::InvalidValue("complaints not strictly increasing"));
            }
            let evidence = match r.u8()? {
                0 => None,
                1 => Some(Share::<C>::read(mode, &mut r)?),
                _ => return Err(wire::Error::InvalidValue("evidence flag")),
            };
            complaints.push(Complaint { dealer, evidence });
        }
        r.finish()?;
        Ok(ComplaintMessage {
            mode,
            session,
            from,
            complaints,
            raw: bytes.to_vec(),
        })
    }
}

/// One opening: a receiver and its share from the responding dealer.
pub struct Opening<C: Curve> {
    /// The receiver whose share is opened.
    pub receiver: PartyId,
    /// The share (value and blind).
    pub share: Share<C>,
}

impl<C: Curve> Clone for Opening<C> {
    fn clone(&self) -> Self {
        Opening {
            receiver: self.receiver,
            share: self.share.duplicate(),
        }
    }
}

impl<C: Curve> fmt::Debug for Opening<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Opening")
            .field("receiver", &self.receiver)
            .finish_non_exhaustive()
    }
}

/// Round 3, broadcast by every dealer (empty when nobody complained about it): the
/// public openings of the shares of the receivers who complained about it.
///
/// Wire form: `LSR1` ‖ u16 version 1 ‖ u8 curve ‖ u8 mode ‖ session (32) ‖ u16 from ‖
/// u16 count ‖ count × (u16 receiver, strictly increasing ‖ value (32) ‖ blind (32,
/// Pedersen only)).
pub struct ResponseMessage<C: Curve> {
    pub(crate) mode: Mode,
    pub(crate) session: [u8; 32],
    pub(crate) from: PartyId,
    pub(crate) openings: Vec<Opening<C>>,
    pub(crate) raw: Vec<u8>,
}

impl<C: Curve> Clone for ResponseMessage<C> {
    fn clone(&self) -> Self {
        ResponseMessage {
            mode: self.mode,
            session: self.session,
            from: self.from,
            openings: self.openings.clone(),
            raw: self.raw.clone(),
        }
    }
}

impl<C: Curve> fmt::Debug for ResponseMessage<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResponseMessage")
            .field("from", &self.from)
            .field("openings", &self.openings)
            .finish_non_exhaustive()
    }
}

impl<C: Curve> ResponseMessage<C> {
    /// A response from dealer `from` (openings sorted by receiver, duplicates dropped).
    /// Normally built by a [`super::DealingParty`] in its response round.
    pub fn new(mode: Mode, session: [u8; 32], from: PartyId, mut openings: Vec<Opening<C>>) -> Self {
        crate::sort::sort_by_key_stable(&mut openings, |o| o.receiver);
        openings.dedup_by_key(|o| o.receiver);
        let mut w = Writer::with_header(RESPONSE_MAGIC, VERSION);
        w.u8(C::ID).u8(mode.to_byte()).put(&session);
        from.write(&mut w);
        w.u16(crate::wire::len_u16(openings.len()));
        for o in &openings {
            o.receiver.write(&mut w);
            o.share.write(mode, &mut w);
        }
        ResponseMessage {
            mode,
            session,
            from,
            openings,
            raw: w.into_bytes(),
        }
    }

    /// The session id.
    pub fn session(&self) -> &[u8; 32] {
        &self.session
    }

    /// The responding dealer.
    pub fn from(&self) -> PartyId {
        self.from
    }

    /// The openings, by receiver.
    pub fn openings(&self) -> &[Opening<C>] {
        &self.openings
    }

    /// Encodes (see the type docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.raw.clone()
    }

    /// Decodes strictly (receivers strictly increasing, canonical scalars, no trailing
    /// bytes).
    ///
    /// # Errors
    /// [`wire::Error`] naming what was wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, wire::Error> {
        let mut r = Reader::new(bytes);
        let (mode, session, from) = read_header::<C>(&mut r, RESPONSE_MAGIC)?;
        let n = read_count(&mut r, 2 + Share::<C>::encoded_len(mode))?;
        let mut openings: Vec<Opening<C>> = Vec::with_capacity(n);
        for _ in 0..n {
            let receiver = PartyId::read(&mut r)?;
            if openings.last().is_some_and(|o| o.receiver >= receiver) {
                return Err(wire::Error::InvalidValue("openings not strictly increasing"));
            }
            let share = Share::<C>::read(mode, &mut r)?;
            openings.push(Opening { receiver, share });
        }
        r.finish()?;
        Ok(ResponseMessage {
            mode,
            session,
            from,
            openings,
            raw: bytes.to_vec(),
        })
    }
}
