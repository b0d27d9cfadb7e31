//! The dealing party: DKG, refresh and reshare as one bytes-in, bytes-out
//! [`Party`](crate::party::Party).
//!
//! | step | inbox | sends |
//! |---|---|---|
//! | [`DealingParty::start`] | — | dealers: `LSD1` broadcast, one `LSP1` per other receiver |
//! | round 1 "check shares" | the `LSD1`s and this party's `LSP1`s | receivers: `LSC1` broadcast |
//! | round 2 "answer complaints" | the `LSC1`s | dealers: `LSR1` broadcast |
//! | round 3 "finalize" | the `LSR1`s | DKG: — ([`Outcome`]); refresh, reshare: new members: `LSV1` broadcast |
//! | round 4 "activate" (refresh, reshare) | the `LSV1`s | — ([`Outcome`] with its [`ActivationCertificate`]) |
//!
//! Every inbox entry is checked before the kernel sees it: it must decode, be of a kind
//! the round takes, come from a party whose role sends it (a dealer's deal, share and
//! response; a receiver's complaint), carry the transport's sender as `from`, name this
//! session and parameters, and (a share) be addressed to this party; one message per
//! sender and kind. Anything else is dropped and its sender named in
//! [`Outcome::dropped`]. A dropped deal is a missing deal (the dealer is disqualified,
//! [`BlameReason::MissingDeal`]); a dropped share is a missing share (this party
//! complains, and the dealer must open it publicly); a dropped complaint counts as none.
//!
//! A refresh or reshare ends with the activation round ([`super::ActivationParty`]): every
//! new member proves possession of its new share, and every participant — old dealers
//! included — finishes with an [`ActivationCertificate`] of at least `t_new` members. Only
//! then may an old party erase its old share.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;

use rand_core::CryptoRngCore;

use super::complaint::{COMPLAINT_MAGIC, RESPONSE_MAGIC};
use super::dealing::Finalized;
use super::dealing::{self, Round1Output, Round1State, Round2State, Round3State};
use super::message::{DEAL_MAGIC, SHARE_MAGIC};
use super::{
    ActivationCertificate, ActivationParty, Ceremony, ComplaintMessage, DealMessage, Error, GroupPublic,
    KeyShare, Kind, ResponseMessage, ShareMessage,
};
use crate::party::inbox::{tidy, unique};
use crate::party::{
    culprits, misbehave, Blame, BlameReason, Direct, Incoming, Misbehaviour, Outgoing, Party, Round, Step,
};
use crate::vss::Curve;
use crate::PartyId;

/// What a finished dealing gives a participant.
#[derive(Debug)]
pub struct Outcome<C: Curve> {
    /// This party's new key share (receivers only; a new value — the old share is not
    /// touched).
    pub key_share: Option<KeyShare<C>>,
    /// The new generation's public data (identical at every honest participant).
    pub public: GroupPublic<C>,
    /// The qualified dealers `Q'`, increasing.
    pub qualified: Vec<PartyId>,
    /// Protocol faults, proven by public evidence: identical at every honest participant,
    /// in a deterministic order, and part of the transcript.
    pub blame: Vec<Blame>,
    /// Messages this party dropped, with their senders and why (its own evidence: a
    /// misaddressed share is seen only by the party it reached), sorted by party.
    pub dropped: Vec<Blame>,
    /// The certificate that activates the new generation (refresh and reshare): at least
    /// `t_new` members proved possession of their new shares. An old party may erase its
    /// old share once it holds this. `None` for a DKG.
    pub activation: Option<ActivationCertificate>,
}

impl<C: Curve> Outcome<C> {
    /// The transcript hash of the dealing (also in [`Outcome::public`]).
    pub fn transcript_hash(&self) -> &[u8; 32] {
        self.public.transcript_hash()
    }

    /// Everyone named, in [`Outcome::blame`] or [`Outcome::dropped`], increasing.
    pub fn culprits(&self) -> Vec<PartyId> {
        culprits([self.blame.as_slice(), self.dropped.as_slice()])
    }
}

enum Stage<C: Curve> {
    Dealt(Round1State<C>),
    Checked(Round2State<C>),
    Answered(Round3State<C>),
    Activating(ActivationParty<C>, Finalized<C>),
    Finished,
}

/// One participant of a dealing (DKG, refresh or reshare) over the group `C`; see the
/// module docs for its rounds. [`super::Dealing`] is the same party with the group
/// chosen at run time.
///
/// # Security
/// Holds the dealer's secret polynomials and the shares received: wiped on drop, never
/// serialized. The old key share passed to [`DealingParty::start`] is only read.
pub struct DealingParty<C: Curve> {
    ceremony: Ceremony<C>,
    me: PartyId,
    stage: Stage<C>,
    dropped: Vec<Blame>,
    cheat: Misbehaviour,
}

impl<C: Curve> fmt::Debug for DealingParty<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DealingParty")
            .field("me", &self.me)
            .field("round", &self.round())
            .field("ceremony", &self.ceremony)
            .finish_non_exhaustive()
    }
}

impl<C: Curve> DealingParty<C> {
    /// Starts `me`'s part in `ceremony`: deals (dealers) and returns the first messages.
    ///
    /// `old_share` is this party's current key share: required for the dealers of a
    /// refresh or reshare and for every party of a refresh; new receivers pass `None`.
    ///
    /// # Errors
    /// [`Error::NotAParticipant`], [`Error::MissingOldShare`], [`Error::OldShareMismatch`].
    ///
    /// # Security
    /// Randomness comes from `rng` only.
    pub fn start(
        ceremony: Ceremony<C>,
        me: PartyId,
        old_share: Option<&KeyShare<C>>,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Self, Outgoing), Error> {
        Self::start_with(ceremony, me, old_share, None, rng)
    }

    /// As [`DealingParty::start`], for a party that misbehaves as `cheat` says.
    ///
    /// # Errors
    /// As [`DealingParty::start`].
    #[cfg(feature = "hazmat")]
    pub fn start_cheating(
        ceremony: Ceremony<C>,
        me: PartyId,
        old_share: Option<&KeyShare<C>>,
        cheat: crate::party::hazmat::Cheat,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Self, Outgoing), Error> {
        Self::start_with(ceremony, me, old_share, Some(cheat), rng)
    }

    fn start_with(
        ceremony: Ceremony<C>,
        me: PartyId,
        old_share: Option<&KeyShare<C>>,
        cheat: Misbehaviour,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Self, Outgoing), Error> {
        let (state, first) = dealing::round1(ceremony.clone(), me, old_share, cheat, rng)?;
        let party = DealingParty {
            ceremony,
            me,
            stage: Stage::Dealt(state),
            dropped: Vec::new(),
            cheat,
        };
        let out = party.send(round1_outgoing(first), None);
        Ok((party, out))
    }

    /// The ceremony this party takes part in.
    pub fn ceremony(&self) -> &Ceremony<C> {
        &self.ceremony
    }

    /// The messages dropped so far, with their senders.
    pub fn dropped(&self) -> &[Blame] {
        &self.dropped
    }

    /// What this party sends: `broadcast` (if any) plus `direct`, after the
    /// misbehaviour, if one is set.
    fn send(&self, mut out: Outgoing, broadcast: Option<Vec<u8>>) -> Outgoing {
        if broadcast.is_some() {
            out.broadcast = broadcast;
        }
        misbehave(self.cheat, &mut out);
        out
    }

    fn drop_message(&mut self, from: PartyId, reason: BlameReason) {
        self.dropped.push(Blame::new(from, reason));
    }

    /// What is wrong, if anything, with the envelope every dealing message carries: the
    /// sender's role, `from`, the session.
    fn envelope(
        &self,
        from: PartyId,
        role: bool,
        claimed: PartyId,
        session: &[u8; 32],
    ) -> Option<BlameReason> {
        if !role {
            Some(BlameReason::UnknownParty)
        } else if claimed != from {
            Some(BlameReason::SenderMismatch { claimed })
        } else if session != &self.ceremony.session {
            // A plain comparison: the session is public (every message carries it), and a
            // receiver at n = 128 compares it some 170 times a round.
            Some(BlameReason::WrongSession)
        } else {
            None
        }
    }

    /// Keeps `message` under `from` unless `fault` names what is wrong with it.
    fn admit<M>(
        &mut self,
        out: &mut BTreeMap<PartyId, M>,
        from: PartyId,
        message: M,
        fault: Option<BlameReason>,
    ) {
        match fault {
            Some(reason) => self.drop_message(from, reason),
            None => {
                out.insert(from, message);
            }
        }
    }

    /// Round 1's inbox: the deals (from dealers) and the shares addressed to this party.
    fn filter_round1(&mut self, inbox: &[Incoming<'_>]) -> Filtered1<C> {
        let me = self.me;
        let messages = unique(me, inbox, &mut self.dropped).messages;
        // Every participant receives the same deals: decoded once per process, the
        // decoding shared out among parties stepped on several threads. One result per
        // deal, in order.
        let deal_bytes: Vec<&[u8]> = messages
            .iter()
            .filter(|(_, magic, _)| magic == DEAL_MAGIC)
            .map(|(_, _, b)| *b)
            .collect();
        let mut decoded = crate::party::shared::decode_all(&deal_bytes, DealMessage::<C>::from_bytes);
        let mut deals = BTreeMap::new();
        let mut shares = BTreeMap::new();
        for (from, magic, bytes) in messages {
            let dealer = self.ceremony.is_dealer(from);
            match &magic {
                DEAL_MAGIC => match decoded
                    .next()
                    .unwrap_or_else(|| DealMessage::<C>::from_bytes(bytes))
                {
                    Err(e) => self.drop_message(from, BlameReason::Malformed(e)),
                    Ok(m) => {
                        let fault = self.envelope(from, dealer, m.from, &m.session);
                        self.admit(&mut deals, from, m, fault);
                    }
                },
                SHARE_MAGIC => match ShareMessage::<C>::from_bytes(bytes) {
                    Err(e) => self.drop_message(from, BlameReason::Malformed(e)),
                    Ok(m) => {
                        let c = &self.ceremony;
                        let fault = self.envelope(from, dealer, m.from, &m.session).or_else(|| {
                            if m.to != me || !c.is_receiver(me) {
                                Some(BlameReason::WrongRecipient { to: m.to })
                            } else if m.kind != c.kind || m.mode != c.mode {
                                Some(BlameReason::ParameterMismatch)
                            } else {
                                None
                            }
                        });
                        self.admit(&mut shares, from, m, fault);
                    }
                },
                other => self.drop_unexpected(from, other, bytes),
            }
        }
        Filtered1 { deals, shares }
    }

    /// Round 2's inbox: the complaints (from receivers).
    fn filter_round2(&mut self, inbox: &[Incoming<'_>]) -> BTreeMap<PartyId, ComplaintMessage<C>> {
        let messages = unique(self.me, inbox, &mut self.dropped).messages;
        let mut out = BTreeMap::new();
        for (from, magic, bytes) in messages {
            if &magic != COMPLAINT_MAGIC {
                self.drop_unexpected(from, &magic, bytes);
                continue;
            }
            match ComplaintMessage::<C>::from_bytes(bytes) {
                Err(e) => self.drop_message(from, BlameReason::Malformed(e)),
                Ok(m) => {
                    let receiver = self.ceremony.is_receiver(from);
                    let fault = self
                        .envelope(from, receiver, m.from, &m.session)
                        .or_else(|| (m.mode != self.ceremony.mode).then_some(BlameReason::ParameterMismatch));
                    self.admit(&mut out, from, m, fault);
                }
            }
        }
        out
    }

    /// Round 3's inbox: the responses (from dealers).
    fn filter_round3(&mut self, inbox: &[Incoming<'_>]) -> BTreeMap<PartyId, ResponseMessage<C>> {
        let messages = unique(self.me, inbox, &mut self.dropped).messages;
        let mut out = BTreeMap::new();
        for (from, magic, bytes) in messages {
            if &magic != RESPONSE_MAGIC {
                self.drop_unexpected(from, &magic, bytes);
                continue;
            }
            match ResponseMessage::<C>::from_bytes(bytes) {
                Err(e) => self.drop_message(from, BlameReason::Malformed(e)),
                Ok(m) => {
                    let dealer = self.ceremony.is_dealer(from);
                    let fault = self
                        .envelope(from, dealer, m.from, &m.session)
                        .or_else(|| (m.mode != self.ceremony.mode).then_some(BlameReason::ParameterMismatch));
                    self.admit(&mut out, from, m, fault);
                }
            }
        }
        out
    }

    /// A message whose magic this round does not take: another round's message is of the
    /// wrong kind; anything else does not decode.
    fn drop_unexpected(&mut self, from: PartyId, magic: &[u8; 4], _bytes: &[u8]) {
        let known = [
            DEAL_MAGIC,
            SHARE_MAGIC,
            COMPLAINT_MAGIC,
            RESPONSE_MAGIC,
            super::activation::POSSESSION_MAGIC,
        ];
        let reason = if known.contains(&magic) {
            BlameReason::WrongKind
        } else {
            BlameReason::Malformed(crate::wire::Error::BadMagic {
                found: *magic,
                expected: *DEAL_MAGIC,
            })
        };
        self.drop_message(from, reason);
    }
}

impl<C: Curve> DealingParty<C> {
    /// The outcome of a finished dealing.
    fn outcome(&mut self, done: Finalized<C>, activation: Option<ActivationCertificate>) -> Outcome<C> {
        let mut dropped = core::mem::take(&mut self.dropped);
        tidy(&mut dropped);
        Outcome {
            key_share: done.key_share,
            public: done.public,
            qualified: done.qualified,
            blame: done.blame,
            dropped,
            activation,
        }
    }
}

struct Filtered1<C: Curve> {
    deals: BTreeMap<PartyId, DealMessage<C>>,
    shares: BTreeMap<PartyId, ShareMessage<C>>,
}

/// The first messages: the deal broadcast and the private shares, in recipient order.
fn round1_outgoing<C: Curve>(first: Round1Output<C>) -> Outgoing {
    let mut direct: Vec<Direct> = first
        .shares
        .iter()
        .map(|m| Direct {
            to: m.to(),
            bytes: m.to_bytes(),
        })
        .collect();
    crate::sort::sort_by_key_stable(&mut direct, |d| d.to);
    Outgoing {
        broadcast: first.broadcast.map(|d| d.to_bytes()),
        direct,
    }
}

impl<C: Curve> Party for DealingParty<C> {
    type Output = Outcome<C>;

    fn id(&self) -> PartyId {
        self.me
    }

    fn round(&self) -> Option<Round> {
        match self.stage {
            Stage::Dealt(_) => Some(Round {
                number: 1,
                name: "check shares",
            }),
            Stage::Checked(_) => Some(Round {
                number: 2,
                name: "answer complaints",
            }),
            Stage::Answered(_) => Some(Round {
                number: 3,
                name: "finalize",
            }),
            Stage::Activating(..) => Some(Round {
                number: 4,
                name: "activate",
            }),
            Stage::Finished => None,
        }
    }

    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<Outcome<C>>, crate::Error> {
        match core::mem::replace(&mut self.stage, Stage::Finished) {
            Stage::Dealt(state) => {
                let Filtered1 { deals, shares } = self.filter_round1(inbox);
                let (state, complaint) = state.round2(deals, shares);
                self.stage = Stage::Checked(state);
                let out = self.send(Outgoing::none(), complaint.map(|c| c.to_bytes()));
                Ok(Step::Continue(out))
            }
            Stage::Checked(state) => {
                let complaints = self.filter_round2(inbox);
                let (state, response) = state.round3(complaints);
                self.stage = Stage::Answered(state);
                let out = self.send(Outgoing::none(), response.map(|r| r.to_bytes()));
                Ok(Step::Continue(out))
            }
            Stage::Answered(state) => {
                let before = self.dropped.len();
                let responses = self.filter_round3(inbox);
                let done = match state.finalize(responses) {
                    Ok(done) => done,
                    Err(e) => {
                        // The party stays where it was, round-3 drops forgotten.
                        self.dropped.truncate(before);
                        self.stage = Stage::Answered(state);
                        return Err(e.into());
                    }
                };
                if self.ceremony.kind == Kind::Dkg {
                    return Ok(Step::Done(Outgoing::none(), self.outcome(done, None)));
                }
                let (kind, key) = (self.ceremony.activation_kind(), self.ceremony.key().to_vec());
                let mut rng = state.activation_rng();
                let started = ActivationParty::start(
                    self.me,
                    done.key_share.as_ref(),
                    &done.public,
                    kind,
                    &key,
                    &mut rng,
                );
                match started {
                    Ok((activation, out)) => {
                        self.stage = Stage::Activating(activation, done);
                        Ok(Step::Continue(self.send(out, None)))
                    }
                    Err(e) => {
                        self.dropped.truncate(before);
                        self.stage = Stage::Answered(state);
                        Err(e.into())
                    }
                }
            }
            Stage::Activating(mut activation, done) => match activation.step(inbox) {
                Ok(Step::Done(_, certificate)) => {
                    self.dropped.append(&mut activation.take_dropped());
                    Ok(Step::Done(
                        Outgoing::none(),
                        self.outcome(done, Some(certificate)),
                    ))
                }
                Ok(Step::Continue(out)) => {
                    self.stage = Stage::Activating(activation, done);
                    Ok(Step::Continue(out))
                }
                Ok(Step::Waiting) => {
                    self.stage = Stage::Activating(activation, done);
                    Ok(Step::Waiting)
                }
                Err(e) => {
                    self.stage = Stage::Activating(activation, done);
                    Err(e)
                }
            },
            Stage::Finished => Err(crate::party::Error::Finished.into()),
        }
    }
}
