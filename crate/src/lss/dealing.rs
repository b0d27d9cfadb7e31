//! The dealing state machine shared by DKG, refresh and reshare: [`round1`] (deal),
//! [`Round1State::round2`] (check shares, complain), [`Round2State::round3`] (answer
//! complaints), [`Round3State::finalize`] (disqualify, blame, combine).
//!
//! The rounds take messages that [`super::party`] already filtered (decoded, from the
//! right sender and role, of this session, addressed to this party, one per sender), so
//! rounds 2 and 3 cannot fail and finalize fails only when too few dealers qualify; it
//! borrows its state, so a failed finalize leaves the party where it was.
//!
//! Checks on public data run in variable time (`*_vartime` helpers, multi-scalar
//! multiplication); a receiver's own shares enter only constant-time scalar arithmetic
//! and fixed-base multiplications. Batch checks use random weights from a seed drawn in
//! round 1 (never sent); when a batch fails, the per-dealer checks find who is to blame.
//! Parties of one process (a simulator, a driver, a node hosting several members) decode
//! each deal once and share the receivers' share check and the commitments' sum
//! ([`shared`]); a party alone in its process does all of it itself.

mod checks;
mod finalize;
mod shared;

use alloc::collections::BTreeMap;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

use group::ff::Field;
use group::Group;
use rand_core::{RngCore, SeedableRng};
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use self::checks::{batch_check_shares, check_reshare_constants};
use self::shared::DealSet;
use super::{
    Ceremony, Complaint, ComplaintMessage, DealMessage, Error, GroupPublic, KeyShare, Kind, Opening,
    ProofOfKnowledge, ResponseMessage, ShareMessage,
};
use crate::hash::{tags, Transcript};
use crate::party::{Blame, BlameReason, Misbehaviour};
use crate::vss::commit::horner_small_vartime;
use crate::vss::{Commitments, Curve, Mode, Polynomial, Share};
use crate::PartyId;

/// What the kernel's finalize produces (the party adds what it dropped).
pub(crate) struct Finalized<C: Curve> {
    pub(crate) key_share: Option<KeyShare<C>>,
    pub(crate) public: GroupPublic<C>,
    pub(crate) qualified: Vec<PartyId>,
    pub(crate) blame: Vec<Blame>,
}

/// What round 1 produces.
pub(crate) struct Round1Output<C: Curve> {
    /// The dealer's broadcast (`None` for a party that only receives).
    pub(crate) broadcast: Option<DealMessage<C>>,
    /// One private share per other receiver, by recipient (a dealer's own share stays
    /// in its state). Send each over a confidential, authenticated channel.
    pub(crate) shares: Vec<ShareMessage<C>>,
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
pub(super) struct Common<C: Curve> {
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
    /// Misbehaviour for demos and tests (`hazmat` feature).
    #[cfg_attr(not(feature = "hazmat"), allow(dead_code))]
    pub(super) cheat: Misbehaviour,
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
    pub(super) fn weights(&self, label: &[u8], count: usize) -> Vec<C::Scalar> {
        crate::vss::batch::batch_weights::<C>(tags::LSS_BATCH, &self.batch_seed[..], label, count)
    }

    /// An RNG derived from this party's secret batch seed for `label` (the activation
    /// proof's nonces: a PRF of a fresh secret, so no extra draw from the caller's RNG).
    pub(super) fn derived_rng(&self, label: &[u8]) -> rand_chacha::ChaCha20Rng {
        let mut t = Transcript::new(tags::LSS_BATCH);
        t.append(&self.batch_seed[..]).append(b"derived").append(label);
        rand_chacha::ChaCha20Rng::from_seed(t.finalize::<32>())
    }

    /// The share this dealer sends (and, on complaint, opens) for another receiver: its
    /// true share, or a wrong one under the `BadShares` misbehaviour (`hazmat`).
    pub(super) fn sent_share_for(&self, receiver: PartyId) -> Share<C> {
        self.sent(self.share_for(receiver))
    }

    /// A share as this dealer sends it (a cheating dealer's test hook changes it).
    fn sent(&self, share: Share<C>) -> Share<C> {
        #[cfg(feature = "hazmat")]
        if self.cheat == Some(crate::party::hazmat::Cheat::BadShares) {
            return Share::new(*share.value() + C::Scalar::ONE, *share.blind());
        }
        share
    }

    /// The shares of every receiver, in the ceremony's order, where the group evaluates
    /// several ids together ([`Curve::horner_small_at_ids`]); `None` where it does not.
    /// Native only (on WebAssembly no group does, and the full module would carry the code).
    #[cfg(not(target_arch = "wasm32"))]
    fn shares_at_ids(&self) -> Option<Vec<Share<C>>> {
        let f = self.value_poly.as_ref()?;
        let mut evaluated = f.evaluate_at_ids(self.blind_poly.as_ref(), &self.ceremony.receivers)?;
        let shares = evaluated.iter().map(|(v, b)| Share::new(*v, *b)).collect();
        for (v, b) in &mut evaluated {
            zeroize::Zeroize::zeroize(v);
            zeroize::Zeroize::zeroize(b);
        }
        Some(shares)
    }

    pub(super) fn share_for(&self, receiver: PartyId) -> Share<C> {
        // Natively a Pedersen dealer's two polynomials are evaluated together
        // (`Curve::horner_small_pair`); on WebAssembly, where no group interleaves them, one
        // after the other, without the pair's code.
        #[cfg(not(target_arch = "wasm32"))]
        if let (Some(f), Some(g)) = (&self.value_poly, &self.blind_poly) {
            let (value, blind) = f.evaluate_pair(g, receiver);
            return Share::new(value, blind);
        }
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
pub(crate) struct Round1State<C: Curve> {
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
pub(crate) fn round1<C: Curve>(
    ceremony: Ceremony<C>,
    me: PartyId,
    old_share: Option<&KeyShare<C>>,
    cheat: Misbehaviour,
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
        cheat,
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
        let commitments = match common.ceremony.kind {
            Kind::Refresh => Commitments::commit_zero_constant(mode, &value_poly, blind_poly.as_ref())?,
            _ => Commitments::commit(mode, &value_poly, blind_poly.as_ref())?,
        };
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
        // Natively every receiver's share at once, where the group evaluates several ids
        // together; otherwise one at a time.
        #[cfg(not(target_arch = "wasm32"))]
        let mut together = common.shares_at_ids().map(Vec::into_iter);
        for &r in &common.ceremony.receivers {
            #[cfg(not(target_arch = "wasm32"))]
            let share = together
                .as_mut()
                .and_then(Iterator::next)
                .unwrap_or_else(|| common.share_for(r));
            #[cfg(target_arch = "wasm32")]
            let share = common.share_for(r);
            let share = if r == me { share } else { common.sent(share) };
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

/// State after round 2.
///
/// # Security
/// Holds secret polynomials and shares; zeroized on drop. Consumed by
/// [`Round2State::round3`].
pub(crate) struct Round2State<C: Curve> {
    common: Common<C>,
    deals: BTreeMap<PartyId, DealMessage<C>>,
    /// The valid deals, shared with the other parties of this process.
    deal_set: Arc<DealSet<C>>,
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
    /// `deals` holds the other dealers' broadcasts and `shares` the private shares sent to
    /// this party, as [`super::party`] filtered them (this party's own are in its state).
    pub(crate) fn round2(
        self,
        mut deals: BTreeMap<PartyId, DealMessage<C>>,
        shares: BTreeMap<PartyId, ShareMessage<C>>,
    ) -> (Round2State<C>, Option<ComplaintMessage<C>>) {
        let Round1State { common, self_share } = self;
        let c = &common.ceremony;
        let me = common.me;
        if let Some(mine) = &common.my_deal {
            deals.insert(me, mine.clone());
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
                    (Kind::Dkg, Some(p)) if !proof_verifies(&c.session, d, m, p) => {
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
                Some(reason) => blame.push(Blame::new(d, reason)),
                None => valid.push(d),
            }
        }
        if c.kind == Kind::Reshare {
            let bad = check_reshare_constants(&common, &deals, &valid);
            for &d in &bad {
                blame.push(Blame::new(d, BlameReason::WrongConstant));
            }
            valid.retain(|d| !bad.contains(d));
        }

        // The transcript's head is now known: hashed ahead by one party of the process.
        crate::lss::transcript::prepare(c, &deals);

        // This party's shares.
        let deal_set = DealSet::of(&common, &valid, &deals);
        let mut accepted: BTreeMap<PartyId, Share<C>> = BTreeMap::new();
        let mut complaint = None;
        if common.is_receiver() {
            let mut shares = shares;
            // One share from every valid dealer: first the check shared in this process.
            #[cfg(feature = "in-process-sharing")]
            let shared_ok = {
                let all: Option<Vec<&Share<C>>> = valid
                    .iter()
                    .map(|d| {
                        if *d == me {
                            self_share.as_ref()
                        } else {
                            shares.get(d).map(|m| &m.share)
                        }
                    })
                    .collect();
                all.and_then(|all| deal_set.check_shares(&common, &all)) == Some(true)
            };
            #[cfg(not(feature = "in-process-sharing"))]
            let shared_ok = false;
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
                    Some(m) if shared_ok => {
                        accepted.insert(d, m.share.duplicate());
                    }
                    Some(m) => pending.push((d, m.share.duplicate())),
                }
            }
            // Alone, or the shared check failed: each dealer's commitments at this party.
            let expected: Vec<C::Point> = pending
                .iter()
                .map(|(d, _)| match deals.get(d) {
                    Some(m) => horner_small_vartime(m.commitments.points(), u64::from(me.get())),
                    None => C::Point::identity(),
                })
                .collect();
            // Public: whether the batch passes, then whether each share opens its dealer's
            // commitments: a failing share becomes a broadcast complaint with evidence.
            let ok = crate::ct::public(batch_check_shares(&common, &pending, &expected));
            for ((d, share), e) in pending.into_iter().zip(expected.iter()) {
                if ok || crate::ct::public(bool::from(share.commitment(c.mode).ct_eq(e))) {
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
            deal_set,
            blame,
            shares: accepted,
            my_complaint: complaint.clone(),
        };
        (state, complaint)
    }
}

/// Whether the proof of knowledge in `deal` (by `dealer`) verifies for `session`: checked
/// once per process (every receiver checks every dealer's).
fn proof_verifies<C: Curve>(
    session: &[u8; 32],
    dealer: PartyId,
    deal: &DealMessage<C>,
    proof: &ProofOfKnowledge<C>,
) -> bool {
    let key = || crate::party::shared::key_of([&session[..], &dealer.get().to_be_bytes(), deal.as_bytes()]);
    *crate::party::shared::memo(b"lss-proof-of-knowledge", key, 1, || {
        proof.verify(session, dealer, deal.commitments.constant())
    })
}

/// State after round 3.
///
/// # Security
/// Holds this party's shares; zeroized on drop. Consumed by [`Round3State::finalize`].
pub(crate) struct Round3State<C: Curve> {
    inner: Round2State<C>,
    complaints: BTreeMap<PartyId, ComplaintMessage<C>>,
    my_response: Option<ResponseMessage<C>>,
}

impl<C: Curve> Round3State<C> {
    /// The RNG of this party's activation proof.
    pub(crate) fn activation_rng(&self) -> rand_chacha::ChaCha20Rng {
        self.inner.common.derived_rng(b"activation")
    }
}

impl<C: Curve> fmt::Debug for Round3State<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Round3State")
            .field("inner", &self.inner)
            .finish_non_exhaustive()
    }
}

impl<C: Curve> Round2State<C> {
    /// Round 3: read the other receivers' complaints (filtered by [`super::party`]); a
    /// dealer returns its response (the openings of the complainers' shares; empty if
    /// nobody complained about it).
    pub(crate) fn round3(
        self,
        mut complaints: BTreeMap<PartyId, ComplaintMessage<C>>,
    ) -> (Round3State<C>, Option<ResponseMessage<C>>) {
        let me = self.common.me;
        if let Some(mine) = &self.my_complaint {
            complaints.insert(me, mine.clone());
        }
        let response = if self.common.is_dealer() {
            let openings: Vec<Opening<C>> = complaints
                .values()
                .filter(|m| m.complaints.iter().any(|x| x.dealer == me))
                .map(|m| Opening {
                    receiver: m.from,
                    share: self.common.sent_share_for(m.from),
                })
                .collect();
            let c = &self.common.ceremony;
            Some(ResponseMessage::new(c.mode, c.session, me, openings))
        } else {
            None
        };
        (
            Round3State {
                inner: self,
                complaints,
                my_response: response.clone(),
            },
            response,
        )
    }
}
