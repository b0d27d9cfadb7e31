//! The dealing state machine shared by DKG, refresh and reshare: [`round1`] (deal),
//! [`Round1State::round2`] (check shares, complain), [`Round2State::round3`] (answer
//! complaints), [`Round3State::finalize`] (disqualify, blame, combine).
//!
//! Checks on public data run in variable time (`*_vartime` helpers, multi-scalar
//! multiplication); a receiver's own shares enter only constant-time scalar arithmetic
//! and fixed-base multiplications. Batch checks use random weights from a seed drawn in
//! round 1 (never sent); when a batch fails, the per-dealer checks find who is to blame.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;

use group::ff::Field;
use group::Group;
use rand_core::{RngCore, SeedableRng};
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use super::redistribute::reweights;
use super::transcript::transcript_hash;
use super::{
    Ceremony, Complaint, ComplaintMessage, DealMessage, Error, GroupPublic, KeyShare, Kind, Opening,
    ProofOfKnowledge, ResponseMessage, ShareMessage,
};
use crate::hash::{tags, Transcript};
use crate::vss::commit::horner_small_vartime;
use crate::vss::{Commitments, Curve, Mode, Polynomial, Share};
use crate::PartyId;

/// Why a party was blamed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BlameReason {
    /// A dealer sent no deal broadcast.
    MissingDeal,
    /// A dealer's broadcast has the wrong kind, mode or number of commitments.
    MalformedDeal,
    /// A dealer's proof of knowledge (Feldman DKG) does not verify.
    InvalidProof,
    /// A dealer's constant-term commitment is not what the flavour requires (identity
    /// for refresh, `λ_i^Q` times the commitment to its old share for reshare).
    WrongConstant,
    /// A dealer's commitments are not in the prime-order subgroup (Ed25519 torsion).
    InvalidCommitment,
    /// A dealer did not open the share of a receiver who complained.
    UnansweredComplaint {
        /// The complainer.
        complainer: PartyId,
    },
    /// A dealer's opening for a complainer does not match its commitments.
    InvalidOpening {
        /// The complainer.
        complainer: PartyId,
    },
    /// A receiver complained about a dealer although the share it published as evidence
    /// verifies against the dealer's commitments: the complaint is provably false.
    FalseComplaint {
        /// The dealer wrongly accused.
        dealer: PartyId,
    },
    /// A receiver complained about a party that is not a dealer.
    InvalidComplaint {
        /// The party named.
        dealer: PartyId,
    },
}

impl BlameReason {
    /// The reason's byte in the transcript.
    pub(crate) fn code(&self) -> u8 {
        match self {
            BlameReason::MissingDeal => 1,
            BlameReason::MalformedDeal => 2,
            BlameReason::InvalidProof => 3,
            BlameReason::WrongConstant => 4,
            BlameReason::InvalidCommitment => 5,
            BlameReason::UnansweredComplaint { .. } => 6,
            BlameReason::InvalidOpening { .. } => 7,
            BlameReason::FalseComplaint { .. } => 8,
            BlameReason::InvalidComplaint { .. } => 9,
        }
    }

    /// The other party the reason names, if any.
    pub fn related(&self) -> Option<PartyId> {
        match *self {
            BlameReason::UnansweredComplaint { complainer } | BlameReason::InvalidOpening { complainer } => {
                Some(complainer)
            }
            BlameReason::FalseComplaint { dealer } | BlameReason::InvalidComplaint { dealer } => Some(dealer),
            BlameReason::MissingDeal
            | BlameReason::MalformedDeal
            | BlameReason::InvalidProof
            | BlameReason::WrongConstant
            | BlameReason::InvalidCommitment => None,
        }
    }

    /// Whether the blamed party is a dealer that was disqualified.
    pub fn disqualifies_dealer(&self) -> bool {
        !matches!(
            self,
            BlameReason::FalseComplaint { .. } | BlameReason::InvalidComplaint { .. }
        )
    }
}

/// A party named for misbehaving, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Blame {
    /// The party.
    pub party: PartyId,
    /// What it did.
    pub reason: BlameReason,
}

/// What a successful run gives every participant.
#[derive(Debug)]
pub struct Outcome<C: Curve> {
    /// This party's new key share (receivers only; a new value — the old share is not
    /// touched).
    pub key_share: Option<KeyShare<C>>,
    /// The new generation's public data.
    pub public: GroupPublic<C>,
    /// The transcript hash (also in `public`).
    pub transcript_hash: [u8; 32],
    /// The qualified dealers `Q'`, increasing.
    pub qualified: Vec<PartyId>,
    /// Everyone blamed, in a deterministic order (identical at every honest party).
    pub blame: Vec<Blame>,
}

/// What round 1 produces.
pub struct Round1Output<C: Curve> {
    /// The dealer's broadcast (`None` for a party that only receives).
    pub broadcast: Option<DealMessage<C>>,
    /// One private share per other receiver, by recipient (a dealer's own share stays
    /// in its state). Send each over a confidential, authenticated channel.
    pub shares: Vec<ShareMessage<C>>,
}

impl<C: Curve> fmt::Debug for Round1Output<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Round1Output")
            .field("broadcast", &self.broadcast)
            .field("shares", &self.shares.len())
            .finish()
    }
}

/// What every state carries.
struct Common<C: Curve> {
    ceremony: Ceremony<C>,
    me: PartyId,
    /// The dealer's polynomials (kept to open shares on complaint).
    value_poly: Option<Polynomial<C>>,
    blind_poly: Option<Polynomial<C>>,
    my_deal: Option<DealMessage<C>>,
    /// Refresh receivers: the old share pair.
    old_share: Option<Share<C>>,
    /// Seed of the local batch weights.
    batch_seed: Zeroizing<[u8; 32]>,
}

impl<C: Curve> Common<C> {
    fn is_dealer(&self) -> bool {
        self.ceremony.is_dealer(self.me)
    }

    fn is_receiver(&self) -> bool {
        self.ceremony.is_receiver(self.me)
    }

    /// Local random weights for a batch check, one per item: 8 times a random 128-bit
    /// integer. The factor 8 (Ed25519's cofactor) makes every batch blind to torsion
    /// components, so whether a batch passes depends only on the prime-order parts —
    /// the same at every honest party, whatever its local randomness; torsion is then
    /// judged deterministically at finalize.
    fn weights(&self, label: &[u8], count: usize) -> Vec<C::Scalar> {
        let mut t = Transcript::new(tags::LSS_BATCH);
        t.append(&self.batch_seed[..]).append(label);
        let mut rng = rand_chacha::ChaCha20Rng::from_seed(t.finalize::<32>());
        let shift = {
            let s = C::Scalar::from(1u64 << 32);
            s * s
        };
        let eight = C::Scalar::from(8u64);
        (0..count)
            .map(|_| (C::Scalar::from(rng.next_u64()) * shift + C::Scalar::from(rng.next_u64())) * eight)
            .collect()
    }

    fn share_for(&self, receiver: PartyId) -> Share<C> {
        let value = self
            .value_poly
            .as_ref()
            .map_or(C::Scalar::ZERO, |p| p.evaluate(receiver));
        let blind = self
            .blind_poly
            .as_ref()
            .map_or(C::Scalar::ZERO, |p| p.evaluate(receiver));
        Share::new(value, blind)
    }
}

impl<C: Curve> fmt::Debug for Common<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("State")
            .field("me", &self.me)
            .field("ceremony", &self.ceremony)
            .finish_non_exhaustive()
    }
}

/// State after round 1.
///
/// # Security
/// Holds the dealer's secret polynomials and this party's shares: zeroized on drop, never
/// serialized. Consumed by [`Round1State::round2`].
pub struct Round1State<C: Curve> {
    common: Common<C>,
    self_share: Option<Share<C>>,
}

impl<C: Curve> fmt::Debug for Round1State<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Round1State")
            .field("common", &self.common)
            .finish_non_exhaustive()
    }
}

/// Round 1: deal (if this party is a dealer) and set up this party's state.
///
/// `old_share` is required for dealers of a refresh or reshare and for refresh
/// receivers; it is only read.
///
/// # Errors
/// [`Error::NotAParticipant`], [`Error::MissingOldShare`], [`Error::OldShareMismatch`].
pub fn round1<C: Curve>(
    ceremony: Ceremony<C>,
    me: PartyId,
    old_share: Option<&KeyShare<C>>,
    rng: &mut (impl RngCore + rand_core::CryptoRng),
) -> Result<(Round1State<C>, Round1Output<C>), Error> {
    let dealer = ceremony.is_dealer(me);
    let receiver = ceremony.is_receiver(me);
    if !dealer && !receiver {
        return Err(Error::NotAParticipant { party: me });
    }
    let needs_old = match ceremony.kind {
        Kind::Dkg => false,
        Kind::Refresh => true,
        Kind::Reshare => dealer,
    };
    let old = if needs_old {
        let share = old_share.ok_or(Error::MissingOldShare { party: me })?;
        if share.id() != me || Some(share.public()) != ceremony.old.as_ref() {
            return Err(Error::OldShareMismatch { party: me });
        }
        Some(share)
    } else {
        None
    };
    let mut seed = Zeroizing::new([0u8; 32]);
    rng.fill_bytes(&mut seed[..]);
    let mode = ceremony.mode;
    let t = usize::from(ceremony.threshold);

    let mut common = Common {
        ceremony,
        me,
        value_poly: None,
        blind_poly: None,
        my_deal: None,
        old_share: None,
        batch_seed: seed,
    };
    let mut output = Round1Output {
        broadcast: None,
        shares: Vec::new(),
    };
    let mut self_share = None;

    if dealer {
        let (value0, blind0) = match common.ceremony.kind {
            Kind::Dkg => (
                C::Scalar::random(&mut *rng),
                match mode {
                    Mode::Pedersen => C::Scalar::random(&mut *rng),
                    Mode::Feldman => C::Scalar::ZERO,
                },
            ),
            Kind::Refresh => (C::Scalar::ZERO, C::Scalar::ZERO),
            Kind::Reshare => {
                let idx = common
                    .ceremony
                    .dealer_index(me)
                    .ok_or(Error::NotAParticipant { party: me })?;
                let lambda = common.ceremony.weights[idx];
                let old = old.ok_or(Error::MissingOldShare { party: me })?;
                (lambda * old.secret_share(), lambda * old.blind_share())
            }
        };
        let value_poly = Polynomial::<C>::random(value0, t, rng)?;
        let blind_poly = match mode {
            Mode::Pedersen => Some(Polynomial::<C>::random(blind0, t, rng)?),
            Mode::Feldman => None,
        };
        let commitments = Commitments::commit(mode, &value_poly, blind_poly.as_ref())?;
        let proof = match (common.ceremony.kind, mode) {
            (Kind::Dkg, Mode::Feldman) => Some(ProofOfKnowledge::prove(
                &common.ceremony.session,
                me,
                value_poly.constant(),
                commitments.constant(),
                rng,
            )),
            _ => None,
        };
        let deal = DealMessage::new(
            common.ceremony.session,
            common.ceremony.kind,
            me,
            commitments,
            proof,
        );
        common.value_poly = Some(value_poly);
        common.blind_poly = blind_poly;
        for &r in &common.ceremony.receivers {
            let share = common.share_for(r);
            if r == me {
                self_share = Some(share);
            } else {
                output.shares.push(ShareMessage {
                    session: common.ceremony.session,
                    kind: common.ceremony.kind,
                    mode,
                    from: me,
                    to: r,
                    share,
                });
            }
        }
        common.my_deal = Some(deal.clone());
        output.broadcast = Some(deal);
    }
    if receiver && common.ceremony.kind == Kind::Refresh {
        common.old_share = old.map(|s| s.share().duplicate());
    }
    Ok((Round1State { common, self_share }, output))
}

/// Checks a broadcast's envelope: expected sender, matching `from` and session.
fn check_envelope(
    sender: PartyId,
    from: PartyId,
    session: &[u8; 32],
    expected_session: &[u8; 32],
    expected: bool,
) -> Result<(), Error> {
    if !expected {
        return Err(Error::UnknownParty { party: sender });
    }
    if from != sender {
        return Err(Error::SenderMismatch {
            party: sender,
            claimed: from,
        });
    }
    if !bool::from(session.ct_eq(expected_session)) {
        return Err(Error::SessionMismatch { party: sender });
    }
    Ok(())
}

/// State after round 2.
///
/// # Security
/// Holds secret polynomials and shares; zeroized on drop. Consumed by
/// [`Round2State::round3`].
pub struct Round2State<C: Curve> {
    common: Common<C>,
    deals: BTreeMap<PartyId, DealMessage<C>>,
    blame: Vec<Blame>,
    /// Shares this party accepted, by dealer (its own included).
    shares: BTreeMap<PartyId, Share<C>>,
    my_complaint: Option<ComplaintMessage<C>>,
}

impl<C: Curve> fmt::Debug for Round2State<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Round2State")
            .field("common", &self.common)
            .field("blame", &self.blame)
            .finish_non_exhaustive()
    }
}

impl<C: Curve> Round1State<C> {
    /// Round 2: check every dealer's broadcast (shape, proof, constant term) and this
    /// party's shares; return the complaint broadcast (receivers only; possibly empty).
    ///
    /// `deals` holds the dealers' broadcasts by sender (this party's own may be included
    /// and must then be identical); `shares` the private shares sent to this party.
    ///
    /// # Errors
    /// [`Error::UnknownParty`], [`Error::SenderMismatch`], [`Error::SessionMismatch`],
    /// [`Error::WrongRecipient`], [`Error::ParameterMismatch`],
    /// [`Error::ConflictingMessage`].
    pub fn round2(
        self,
        mut deals: BTreeMap<PartyId, DealMessage<C>>,
        shares: BTreeMap<PartyId, ShareMessage<C>>,
    ) -> Result<(Round2State<C>, Option<ComplaintMessage<C>>), Error> {
        let Round1State { common, self_share } = self;
        let c = &common.ceremony;
        let me = common.me;
        for (&sender, m) in &deals {
            check_envelope(sender, m.from, &m.session, &c.session, c.is_dealer(sender))?;
            if sender == me && common.my_deal.as_ref().map(|d| d.as_bytes()) != Some(m.as_bytes()) {
                return Err(Error::ConflictingMessage { party: sender });
            }
        }
        if let Some(mine) = &common.my_deal {
            deals.insert(me, mine.clone());
        }
        for (&sender, m) in &shares {
            let expected = c.is_dealer(sender) && sender != me && common.is_receiver();
            check_envelope(sender, m.from, &m.session, &c.session, expected)?;
            if m.to != me {
                return Err(Error::WrongRecipient {
                    party: sender,
                    to: m.to,
                });
            }
            if m.kind != c.kind || m.mode != c.mode {
                return Err(Error::ParameterMismatch { party: sender });
            }
        }

        // Public checks on every deal: identical at every honest party.
        let mut blame = Vec::new();
        let mut valid: Vec<PartyId> = Vec::with_capacity(c.dealers.len());
        for &d in &c.dealers {
            let reason = match deals.get(&d) {
                None => Some(BlameReason::MissingDeal),
                Some(m)
                    if m.kind != c.kind
                        || m.commitments.mode() != c.mode
                        || m.commitments.threshold() != usize::from(c.threshold) =>
                {
                    Some(BlameReason::MalformedDeal)
                }
                Some(m) => match (c.kind, &m.proof) {
                    (Kind::Dkg, Some(p)) if !p.verify(&c.session, d, m.commitments.constant()) => {
                        Some(BlameReason::InvalidProof)
                    }
                    (Kind::Dkg, None) if c.mode == Mode::Feldman => Some(BlameReason::InvalidProof),
                    (Kind::Refresh, _) if !bool::from(m.commitments.constant().is_identity()) => {
                        Some(BlameReason::WrongConstant)
                    }
                    _ => None,
                },
            };
            match reason {
                Some(reason) => blame.push(Blame { party: d, reason }),
                None => valid.push(d),
            }
        }
        if c.kind == Kind::Reshare {
            let bad = check_reshare_constants(&common, &deals, &valid);
            for &d in &bad {
                blame.push(Blame {
                    party: d,
                    reason: BlameReason::WrongConstant,
                });
            }
            valid.retain(|d| !bad.contains(d));
        }

        // This party's shares.
        let mut accepted: BTreeMap<PartyId, Share<C>> = BTreeMap::new();
        let mut complaint = None;
        if common.is_receiver() {
            let mut shares = shares;
            let mut complaints = Vec::new();
            let mut pending: Vec<(PartyId, Share<C>)> = Vec::with_capacity(valid.len());
            for &d in &valid {
                if d == me {
                    if let Some(s) = &self_share {
                        accepted.insert(me, s.duplicate());
                    }
                    continue;
                }
                match shares.remove(&d) {
                    None => complaints.push(Complaint {
                        dealer: d,
                        evidence: None,
                    }),
                    Some(m) => pending.push((d, m.share.duplicate())),
                }
            }
            let expected: Vec<C::Point> = pending
                .iter()
                .map(|(d, _)| match deals.get(d) {
                    Some(m) => horner_small_vartime(m.commitments.points(), u64::from(me.get())),
                    None => C::Point::identity(),
                })
                .collect();
            let ok = batch_check_shares(&common, &pending, &expected);
            for ((d, share), e) in pending.into_iter().zip(expected.iter()) {
                if ok || bool::from(share.commitment(c.mode).ct_eq(e)) {
                    accepted.insert(d, share);
                } else {
                    complaints.push(Complaint {
                        dealer: d,
                        evidence: Some(share),
                    });
                }
            }
            complaint = Some(ComplaintMessage::new(c.mode, c.session, me, complaints));
        }
        let state = Round2State {
            common,
            deals,
            blame,
            shares: accepted,
            my_complaint: complaint.clone(),
        };
        Ok((state, complaint))
    }
}

/// Reshare: `C_{i,0} == λ_i^Q·Σ_k i^k·C_k^old` for every dealer in `valid`, batched with
/// random weights; returns the dealers that fail (found one by one only if the batch
/// fails).
fn check_reshare_constants<C: Curve>(
    common: &Common<C>,
    deals: &BTreeMap<PartyId, DealMessage<C>>,
    valid: &[PartyId],
) -> Vec<PartyId> {
    let c = &common.ceremony;
    let Some(old) = c.old.as_ref() else {
        return valid.to_vec();
    };
    let old_points = old.commitments().points();
    let lambda_of = |d: &PartyId| c.dealer_index(*d).map_or(C::Scalar::ZERO, |i| c.weights[i]);
    let constant_of = |d: &PartyId| {
        deals
            .get(d)
            .map_or(C::Point::identity(), |m| *m.commitments.constant())
    };
    // Σ_i ρ_i C_{i,0} − Σ_k (Σ_i ρ_i λ_i i^k) C_k^old == 0
    let rho = common.weights(b"reshare-constants", valid.len());
    let mut sigma = alloc::vec![C::Scalar::ZERO; old_points.len()];
    for (d, r) in valid.iter().zip(rho.iter()) {
        let x = crate::vss::party_scalar::<C>(*d);
        let mut w = *r * lambda_of(d);
        for s in sigma.iter_mut() {
            *s += w;
            w *= x;
        }
    }
    let mut scalars: Vec<C::Scalar> = rho.clone();
    scalars.extend(sigma.iter().map(|s| -*s));
    let mut points: Vec<C::Point> = valid.iter().map(constant_of).collect();
    points.extend_from_slice(old_points);
    if bool::from(C::msm_vartime(&scalars, &points).is_identity()) {
        return Vec::new();
    }
    valid
        .iter()
        .filter(|d| {
            let expected = C::msm_vartime(&[lambda_of(d)], &[old.share_commitment(**d)]);
            constant_of(d) != expected
        })
        .copied()
        .collect()
}

/// `Σ ρ_d (s_d·G + b_d·H) == Σ ρ_d E_d` with local random weights: the shares side in
/// constant-time scalar arithmetic and one fixed-base multiplication.
fn batch_check_shares<C: Curve>(
    common: &Common<C>,
    pending: &[(PartyId, Share<C>)],
    expected: &[C::Point],
) -> bool {
    if pending.is_empty() {
        return true;
    }
    let rho = common.weights(b"own-shares", pending.len());
    let mut value = C::Scalar::ZERO;
    let mut blind = C::Scalar::ZERO;
    for ((_, s), r) in pending.iter().zip(rho.iter()) {
        value += *s.value() * r;
        blind += *s.blind() * r;
    }
    let lhs = match common.ceremony.mode {
        Mode::Pedersen => C::mul_base_h(&value, &blind),
        Mode::Feldman => C::mul_base(&value),
    };
    zeroize::Zeroize::zeroize(&mut value);
    zeroize::Zeroize::zeroize(&mut blind);
    let rhs = C::msm_vartime(&rho, expected);
    bool::from(lhs.ct_eq(&rhs))
}

/// State after round 3.
///
/// # Security
/// Holds this party's shares; zeroized on drop. Consumed by [`Round3State::finalize`].
pub struct Round3State<C: Curve> {
    inner: Round2State<C>,
    complaints: BTreeMap<PartyId, ComplaintMessage<C>>,
    my_response: Option<ResponseMessage<C>>,
}

impl<C: Curve> fmt::Debug for Round3State<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Round3State")
            .field("inner", &self.inner)
            .finish_non_exhaustive()
    }
}

impl<C: Curve> Round2State<C> {
    /// The parties blamed so far (after the public checks of round 2).
    pub fn blame(&self) -> &[Blame] {
        &self.blame
    }

    /// Round 3: read every receiver's complaints; a dealer returns its response (the
    /// openings of the complainers' shares; empty if nobody complained about it).
    ///
    /// # Errors
    /// [`Error::UnknownParty`], [`Error::SenderMismatch`], [`Error::SessionMismatch`],
    /// [`Error::ParameterMismatch`], [`Error::ConflictingMessage`].
    pub fn round3(
        self,
        mut complaints: BTreeMap<PartyId, ComplaintMessage<C>>,
    ) -> Result<(Round3State<C>, Option<ResponseMessage<C>>), Error> {
        let c = &self.common.ceremony;
        let me = self.common.me;
        for (&sender, m) in &complaints {
            check_envelope(sender, m.from, &m.session, &c.session, c.is_receiver(sender))?;
            if m.mode != c.mode {
                return Err(Error::ParameterMismatch { party: sender });
            }
            if sender == me && self.my_complaint.as_ref().map(|x| x.raw.as_slice()) != Some(m.raw.as_slice())
            {
                return Err(Error::ConflictingMessage { party: sender });
            }
        }
        if let Some(mine) = &self.my_complaint {
            complaints.insert(me, mine.clone());
        }
        let response = if self.common.is_dealer() {
            let openings: Vec<Opening<C>> = complaints
                .values()
                .filter(|m| m.complaints.iter().any(|x| x.dealer == me))
                .map(|m| Opening {
                    receiver: m.from,
                    share: self.common.share_for(m.from),
                })
                .collect();
            Some(ResponseMessage::new(c.mode, c.session, me, openings))
        } else {
            None
        };
        Ok((
            Round3State {
                inner: self,
                complaints,
                my_response: response.clone(),
            },
            response,
        ))
    }
}

impl<C: Curve> Round3State<C> {
    /// Finalize: resolve complaints with the dealers' openings, fix the qualified set,
    /// combine, and return the new key share and public data.
    ///
    /// # Errors
    /// [`Error::NotEnoughQualified`] (with every culprit) when too few dealers qualify —
    /// old shares remain valid; envelope errors as in round 3; the internal invariants
    /// [`Error::GroupKeyChanged`] and [`Error::InconsistentShare`].
    pub fn finalize(self, mut responses: BTreeMap<PartyId, ResponseMessage<C>>) -> Result<Outcome<C>, Error> {
        let Round3State {
            inner,
            complaints,
            my_response,
        } = self;
        let Round2State {
            common,
            deals,
            mut blame,
            mut shares,
            my_complaint: _,
        } = inner;
        let c = &common.ceremony;
        let me = common.me;
        for (&sender, m) in &responses {
            check_envelope(sender, m.from, &m.session, &c.session, c.is_dealer(sender))?;
            if m.mode != c.mode {
                return Err(Error::ParameterMismatch { party: sender });
            }
            if sender == me && my_response.as_ref().map(|x| x.raw.as_slice()) != Some(m.raw.as_slice()) {
                return Err(Error::ConflictingMessage { party: sender });
            }
        }
        if let Some(mine) = &my_response {
            responses.insert(me, mine.clone());
        }

        let mut disqualified: BTreeMap<PartyId, ()> = blame
            .iter()
            .filter(|b| b.reason.disqualifies_dealer())
            .map(|b| (b.party, ()))
            .collect();
        for (&complainer, m) in &complaints {
            for complaint in &m.complaints {
                let d = complaint.dealer;
                if !c.is_dealer(d) {
                    blame.push(Blame {
                        party: complainer,
                        reason: BlameReason::InvalidComplaint { dealer: d },
                    });
                    continue;
                }
                let Some(deal) = deals.get(&d) else { continue };
                if disqualified.contains_key(&d) {
                    continue;
                }
                let opening = responses
                    .get(&d)
                    .and_then(|r| r.openings.iter().find(|o| o.receiver == complainer));
                match opening {
                    None => {
                        disqualified.insert(d, ());
                        blame.push(Blame {
                            party: d,
                            reason: BlameReason::UnansweredComplaint { complainer },
                        });
                    }
                    Some(o) => {
                        let expected = deal.commitments.evaluate_vartime(complainer);
                        if o.share.commitment(c.mode) == expected {
                            // A valid opening settles the share. The complaint is provably
                            // false only when the complainer's own evidence verifies as well;
                            // a missing or failing share next to a valid opening is
                            // unattributable (a dealer can send a bad share privately and
                            // open a good one), so nobody is blamed for it.
                            let provably_false = complaint
                                .evidence
                                .as_ref()
                                .is_some_and(|e| e.commitment(c.mode) == expected);
                            if provably_false {
                                blame.push(Blame {
                                    party: complainer,
                                    reason: BlameReason::FalseComplaint { dealer: d },
                                });
                            }
                            if complainer == me {
                                shares.insert(d, o.share.duplicate());
                            }
                        } else {
                            disqualified.insert(d, ());
                            blame.push(Blame {
                                party: d,
                                reason: BlameReason::InvalidOpening { complainer },
                            });
                        }
                    }
                }
            }
        }

        // Qualified set and combined commitments; drop dealers with torsion (Ed25519) if
        // the combination shows any.
        let (qualified, weights, commitments) = loop {
            let qualified: Vec<PartyId> = c
                .dealers
                .iter()
                .copied()
                .filter(|d| !disqualified.contains_key(d))
                .collect();
            if qualified.len() < c.min_qualified() {
                let mut culprits: Vec<PartyId> = blame.iter().map(|b| b.party).collect();
                culprits.sort_unstable();
                culprits.dedup();
                return Err(Error::NotEnoughQualified {
                    needed: c.min_qualified(),
                    qualified: qualified.len(),
                    culprits,
                });
            }
            let weights = match c.kind {
                Kind::Reshare => Some(reweights::<C>(&c.dealers, &qualified)?),
                Kind::Dkg | Kind::Refresh => None,
            };
            let commitments = combine(&common, &deals, &qualified, weights.as_deref())?;
            if commitments.is_torsion_free_vartime() {
                break (qualified, weights, commitments);
            }
            for d in &qualified {
                if deals
                    .get(d)
                    .is_none_or(|m| !m.commitments.is_torsion_free_vartime())
                {
                    disqualified.insert(*d, ());
                    blame.push(Blame {
                        party: *d,
                        reason: BlameReason::InvalidCommitment,
                    });
                }
            }
        };
        if let Some(old) = &c.old {
            if commitments.constant() != old.commitments().constant() {
                return Err(Error::GroupKeyChanged);
            }
        }

        let hash = transcript_hash(
            c,
            &deals,
            &complaints,
            &responses,
            &qualified,
            &blame,
            &commitments,
        );
        let public = GroupPublic {
            commitments,
            parties: c.receivers.clone(),
            generation: c.new_generation(),
            transcript_hash: hash,
        };
        let key_share = if common.is_receiver() {
            let mut value = C::Scalar::ZERO;
            let mut blind = C::Scalar::ZERO;
            if let Some(old) = &common.old_share {
                value = *old.value();
                blind = *old.blind();
            }
            for (k, d) in qualified.iter().enumerate() {
                let s = shares.get(d).ok_or(Error::InconsistentShare)?;
                match &weights {
                    Some(w) => {
                        value += w[k] * s.value();
                        blind += w[k] * s.blind();
                    }
                    None => {
                        value += s.value();
                        blind += s.blind();
                    }
                }
            }
            let share: Share<C> = Share::new(value, blind);
            zeroize::Zeroize::zeroize(&mut value);
            zeroize::Zeroize::zeroize(&mut blind);
            if !bool::from(share.commitment(c.mode).ct_eq(&public.share_commitment(me))) {
                return Err(Error::InconsistentShare);
            }
            Some(KeyShare {
                id: me,
                share,
                public: public.clone(),
            })
        } else {
            None
        };
        Ok(Outcome {
            key_share,
            public,
            transcript_hash: hash,
            qualified,
            blame,
        })
    }
}

/// The new commitments: `base + Σ_{i∈Q'} μ_i·C_i` (base = the old commitments for a
/// refresh, nothing otherwise; μ = 1 unless a reshare lost dealers).
fn combine<C: Curve>(
    common: &Common<C>,
    deals: &BTreeMap<PartyId, DealMessage<C>>,
    qualified: &[PartyId],
    weights: Option<&[C::Scalar]>,
) -> Result<Commitments<C>, Error> {
    let c = &common.ceremony;
    let t = usize::from(c.threshold);
    let rows: Vec<&[C::Point]> = qualified
        .iter()
        .filter_map(|d| deals.get(d).map(|m| m.commitments.points()))
        .collect();
    let unit = weights.is_none_or(|w| w.iter().all(|x| bool::from(x.ct_eq(&C::Scalar::ONE))));
    let mut out: Vec<C::Point> = match (&c.old, c.kind) {
        (Some(old), Kind::Refresh) => old.commitments().points().to_vec(),
        _ => alloc::vec![C::Point::identity(); t],
    };
    if unit {
        for row in &rows {
            for (o, p) in out.iter_mut().zip(row.iter()) {
                *o += p;
            }
        }
    } else if let Some(w) = weights {
        let mut column: Vec<C::Point> = Vec::with_capacity(rows.len());
        for (k, o) in out.iter_mut().enumerate() {
            column.clear();
            column.extend(rows.iter().map(|r| r[k]));
            *o += C::msm_vartime(w, &column);
        }
    }
    Ok(Commitments::from_points(c.mode, out)?)
}
