//! Finalize: resolve complaints with the openings, disqualify and blame, fix the
//! qualified set, combine the commitments and this party's new share, and hash the
//! transcript.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use group::ff::Field;
use subtle::ConstantTimeEq;

use super::checks::combine;
use super::{Finalized, Round2State, Round3State};
use crate::lss::redistribute::reweights;
use crate::lss::transcript::transcript_hash;
use crate::lss::{Error, GroupPublic, KeyShare, Kind, ResponseMessage};
use crate::party::{Blame, BlameReason};
use crate::vss::{Curve, Share};
use crate::PartyId;

impl<C: Curve> Round3State<C> {
    /// Finalize: resolve complaints with the dealers' openings (the other dealers'
    /// responses, filtered by [`super::party`]), fix the qualified set, combine, and
    /// return the new key share and public data. Borrows the state: on error the party
    /// is unchanged.
    ///
    /// # Errors
    /// [`Error::NotEnoughQualified`] (with every culprit) when too few dealers qualify —
    /// old shares remain valid; the internal invariants [`Error::GroupKeyChanged`],
    /// [`Error::InconsistentShare`] and [`Error::InconsistentCommitments`].
    // Not inlined into the party's `step` (once per ceremony): the full WebAssembly module
    // compresses worse with it there.
    #[inline(never)]
    pub(crate) fn finalize(
        &self,
        mut responses: BTreeMap<PartyId, ResponseMessage<C>>,
    ) -> Result<Finalized<C>, Error> {
        let Round3State {
            inner,
            complaints,
            my_response,
        } = self;
        let Round2State {
            common,
            deals,
            deal_set,
            blame,
            shares,
            my_complaint: _,
        } = inner;
        let mut blame = blame.clone();
        // Inserted, not collected: `collect` would sort the secret shares through a scratch
        // buffer nobody wipes.
        let mut shares: BTreeMap<PartyId, Share<C>> =
            crate::sort::map_of(shares.iter().map(|(d, s)| (*d, s.duplicate())));
        let c = &common.ceremony;
        let me = common.me;
        if let Some(mine) = my_response {
            responses.insert(me, mine.clone());
        }

        let mut disqualified: BTreeMap<PartyId, ()> = crate::sort::map_of(
            blame
                .iter()
                .filter(|b| b.reason.disqualifies_dealer())
                .map(|b| (b.party, ())),
        );
        for (&complainer, m) in complaints {
            for complaint in &m.complaints {
                let d = complaint.dealer;
                if !c.is_dealer(d) {
                    blame.push(Blame::new(
                        complainer,
                        BlameReason::InvalidComplaint { dealer: d },
                    ));
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
                        blame.push(Blame::new(d, BlameReason::UnansweredComplaint { complainer }));
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
                                blame.push(Blame::new(complainer, BlameReason::FalseComplaint { dealer: d }));
                            }
                            if complainer == me {
                                shares.insert(d, o.share.duplicate());
                            }
                        } else {
                            disqualified.insert(d, ());
                            blame.push(Blame::new(d, BlameReason::InvalidOpening { complainer }));
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
                crate::sort::heapsort(&mut culprits);
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
            let (commitments, torsion_free) =
                combine(common, deals, deal_set, &qualified, weights.as_deref())?;
            if torsion_free {
                break (qualified, weights, commitments);
            }
            let before = disqualified.len();
            for d in &qualified {
                if deals
                    .get(d)
                    .is_none_or(|m| !m.commitments.is_torsion_free_vartime())
                {
                    disqualified.insert(*d, ());
                    blame.push(Blame::new(*d, BlameReason::InvalidCommitment));
                }
            }
            // A sum of torsion-free points is torsion-free: with no dealer to drop, the same
            // sum would come back forever.
            if disqualified.len() == before {
                return Err(Error::InconsistentCommitments);
            }
        };
        if let Some(old) = &c.old {
            if commitments.constant() != old.commitments().constant() {
                return Err(Error::GroupKeyChanged);
            }
        }

        let hash = transcript_hash(c, deals, complaints, &responses, &qualified, &blame, &commitments);
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
            let mine: Vec<&Share<C>> = qualified
                .iter()
                .map(|d| shares.get(d).ok_or(Error::InconsistentShare))
                .collect::<Result<_, _>>()?;
            match &weights {
                Some(w) => {
                    let (mut v, mut b) = crate::vss::batch::weighted_sums(&mine, w);
                    value += v;
                    blind += b;
                    zeroize::Zeroize::zeroize(&mut v);
                    zeroize::Zeroize::zeroize(&mut b);
                }
                None => {
                    for s in &mine {
                        value += s.value();
                        blind += s.blind();
                    }
                }
            }
            let share: Share<C> = Share::new(value, blind);
            zeroize::Zeroize::zeroize(&mut value);
            zeroize::Zeroize::zeroize(&mut blind);
            // The new share opens the new commitments: both are the same combination of
            // shares and commitments that round 2 or an opening checked one by one (or in
            // a random-weight batch), and the activation round proves it to every member.
            // So it is checked where the tests run (debug assertions), not in every
            // release receiver: an evaluation at `me` and a fixed-base multiplication,
            // 9 % of a 21 → 21 reshare.
            debug_assert!(
                crate::ct::public(bool::from(
                    share.commitment(c.mode).ct_eq(&public.share_commitment(me))
                )),
                "the new share opens the new commitments"
            );
            Some(KeyShare {
                id: me,
                share,
                public: public.clone(),
            })
        } else {
            None
        };
        Ok(Finalized {
            key_share,
            public,
            qualified,
            blame,
        })
    }
}
