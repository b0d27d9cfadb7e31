//! The checks every receiver of one process makes on the same deals, made once.
//!
//! ```text
//! round 2: DealSet::of(valid deals) ─► check_shares(my shares) ─► Some(true)   accept all
//!                                                             └► Some(false)  per-dealer checks (blame)
//!                                                             └► None         per-dealer checks (alone,
//!                                                                             without lanes)
//! finalize: DealSet::combined(qualified, μ)                      the new commitments' sum (in parts)  (sum.rs)
//!           Sum::commitments(mode)                              … as commitments, encoded once
//!           Sum::over(old commitments, mode)                    … plus the old ones (refresh)
//! ```
//!
//! Receiver `j` checks its shares against the dealers' commitments with random weights
//! `ρ_d` it keeps secret: `Σ_d ρ_d·(s_{d,j}·G + b_{d,j}·H) = Σ_d ρ_d·E_d(j)`. Alone, it
//! evaluates each dealer's commitments at `j` (|Q|·t small multiplications, the cheapest
//! way for one receiver). When several receivers of one process check the same deals
//! (a simulator, a whole-run driver, a node hosting several members) they share one
//! aggregate: the weights drawn once, in the process, by the first receiver to use them, and
//! `A_k = Σ_d ρ_d·C_{d,k}` (t multi-scalar multiplications of |Q| points). Each receiver
//! then evaluates `A` at its own index — t small multiplications — and compares with one
//! fixed-base multiplication of its weighted shares. Receivers stepped on several threads
//! make the `A_k` together (`party::shared::Parts`: each takes a column no one has started),
//! rather than one making all t while the others wait; so do they the qualified deals' sum
//! at finalize.
//!
//! Where the group sums columns and evaluates in lanes from encodings (AVX-512 IFMA:
//! [`Curve::column_sums_encoded`], [`Curve::evaluate_encoded`]), the aggregate is made that
//! way, eight columns at a time, and so is the sum of the qualified deals; the deals' points
//! are then never decoded on the happy path. A receiver alone takes this path too: it
//! costs less than decoding every deal's points for Horner's rule (86 × 43 points at
//! 128 → 64: 6.8 ms against 16 ms of decoding alone).
//!
//! The weights never leave the process, and they are drawn after the deals are fixed:
//! a dealer cannot make errors in its shares cancel across dealers, so a passing check
//! means every share opens its dealer's commitments (except with probability about
//! 2⁻¹²⁸). A failing check changes nothing: the receiver falls back to the per-dealer
//! check, which finds and names exactly the dealers it would have named alone. The set
//! is keyed by the valid dealers and the bytes of their deals, compared in full.

#![cfg_attr(not(feature = "in-process-sharing"), allow(dead_code, unused_imports))]

use alloc::sync::Arc;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicUsize, Ordering};
#[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
use std::sync::PoisonError;
#[cfg(feature = "in-process-sharing")]
use std::sync::{Mutex, OnceLock};

#[cfg(not(target_arch = "wasm32"))]
use group::GroupEncoding;
use subtle::ConstantTimeEq;

use super::Common;
use crate::lss::DealMessage;
use crate::party::shared;
use crate::vss::batch::weighted_commitment;
#[cfg(not(target_arch = "wasm32"))]
use crate::vss::batch::weighted_commitment_encoded;
use crate::vss::commit::horner_small_vartime;
use crate::vss::{Commitments, Curve, Share};
use crate::PartyId;

#[cfg(feature = "in-process-sharing")]
mod sum;
#[cfg(feature = "in-process-sharing")]
use sum::Making;

/// The valid deals of one dealing, as the receivers of this process see them.
#[cfg(feature = "in-process-sharing")]
pub(super) struct DealSet<C: Curve> {
    /// The valid dealers, increasing.
    dealers: Vec<PartyId>,
    /// Their commitments, in the same order (clones: each shares its deal's points and
    /// encoding, and its points are decoded only if a check needs them).
    rows: Vec<Arc<Commitments<C>>>,
    /// Receivers that asked for this set so far.
    users: AtomicUsize,
    /// The aggregate's weights `ρ`, drawn by the first receiver to need them…
    rho: OnceLock<Vec<C::Scalar>>,
    /// … and its points `A_k`, one multi-scalar multiplication each, which the receivers
    /// of several threads make together.
    aggregate: shared::Parts<C::Point>,
    /// Where the group sums columns from encodings ([`Curve::column_sums_encoded`]), the
    /// aggregate made that way instead, eight columns per part (`None` if a part could not
    /// be made: the points above are made then). Not on WebAssembly, as below.
    #[cfg(not(target_arch = "wasm32"))]
    aggregate_encoded_parts: shared::Parts<Option<Vec<u8>>>,
    /// The aggregate's points encoded, for the group's batched evaluation
    /// ([`Curve::evaluate_encoded`]), made once: its parts joined, or its points encoded.
    /// Not on WebAssembly, which has none (and
    /// whose full module would carry the code for three groups).
    #[cfg(not(target_arch = "wasm32"))]
    encoded_aggregate: OnceLock<Vec<u8>>,
    /// For each eight receivers in the ceremony's order, their ids and the aggregate at
    /// them, encoded (`None` where the group has no batched evaluation), made by the first
    /// of them to ask.
    #[cfg(not(target_arch = "wasm32"))]
    evaluations: Vec<Mutex<Option<Evaluated>>>,
    /// Sums made or being made.
    combined: Mutex<Vec<Arc<Making<C>>>>,
}

/// A batch's ids and their evaluations, encoded one after another.
#[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
type Evaluated = (Vec<u16>, Option<Vec<u8>>);

#[cfg(feature = "in-process-sharing")]
impl<C: Curve> DealSet<C> {
    /// The set of `deals` by `dealers` (the valid ones, increasing): one per process.
    pub(super) fn of(
        common: &Common<C>,
        dealers: &[PartyId],
        deals: &alloc::collections::BTreeMap<PartyId, DealMessage<C>>,
    ) -> Arc<DealSet<C>> {
        let found: Vec<&DealMessage<C>> = dealers.iter().filter_map(|d| deals.get(d)).collect();
        let session = &common.ceremony.session;
        // The dealers, each with whether its deal is here (every valid dealer's is), then
        // the deals' bytes as parts: the same key for every receiver of the process.
        let mut head = Vec::with_capacity(40 + 3 * dealers.len());
        head.extend_from_slice(C::NAME.as_bytes());
        head.extend_from_slice(session);
        for d in dealers {
            head.extend_from_slice(&d.get().to_be_bytes());
            head.push(u8::from(deals.contains_key(d)));
        }
        let parts: Vec<&shared::Held<Vec<u8>>> = found.iter().map(|m| &m.raw).collect();
        let size =
            found.iter().map(|m| m.commitments.threshold()).sum::<usize>() * core::mem::size_of::<C::Point>();
        let t = found.first().map_or(0, |m| m.commitments.threshold());
        let set = shared::memo_over(
            b"lss-deal-set",
            || head,
            &parts,
            size,
            || DealSet {
                dealers: dealers.to_vec(),
                rows: found.iter().map(|m| m.commitments.clone()).collect(),
                users: AtomicUsize::new(0),
                rho: OnceLock::new(),
                aggregate: shared::Parts::new(t),
                #[cfg(not(target_arch = "wasm32"))]
                aggregate_encoded_parts: shared::Parts::new(t.div_ceil(8)),
                #[cfg(not(target_arch = "wasm32"))]
                encoded_aggregate: OnceLock::new(),
                #[cfg(not(target_arch = "wasm32"))]
                evaluations: (0..common.ceremony.receivers.len().div_ceil(8))
                    .map(|_| Mutex::new(None))
                    .collect(),
                combined: Mutex::new(Vec::new()),
            },
        );
        set.users.fetch_add(1, Ordering::Relaxed);
        set
    }

    /// Checks this receiver's shares, one from every dealer of the set (`shares` in the
    /// set's order, its own share included) against the shared aggregate: `None` while
    /// this receiver is the only one of its process to ask, unless the group has lanes (it
    /// checks per dealer).
    pub(super) fn check_shares(&self, common: &Common<C>, shares: &[&Share<C>]) -> Option<bool> {
        if shares.len() != self.dealers.len() || (self.users.load(Ordering::Relaxed) < 2 && !lanes::<C>()) {
            return None;
        }
        let rho = self
            .rho
            .get_or_init(|| common.weights(b"shared-aggregate", self.dealers.len()));
        // Where the group sums columns and evaluates eight at a time from encodings, the
        // aggregate is made and evaluated in encodings only.
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(rhs) = self
            .aggregate_encoded(rho)
            .and_then(|aggregate| self.evaluated(common, &|| aggregate))
        {
            return Some(self.compare_encoded(common, shares, rho, &rhs));
        }
        let points = self.aggregate.get(|k| {
            let column: Vec<C::Point> = self.rows.iter().map(|r| r.points()[k]).collect();
            C::msm_vartime(rho, &column)
        });
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(rhs) = self.evaluated(common, &|| {
            self.encoded_aggregate.get_or_init(|| {
                points
                    .iter()
                    .flat_map(|p| p.to_bytes().as_ref().to_vec())
                    .collect()
            })
        }) {
            return Some(self.compare_encoded(common, shares, rho, &rhs));
        }
        let lhs = weighted_commitment(common.ceremony.mode, shares, rho);
        let rhs = horner_small_vartime(points, u64::from(common.me.get()));
        // Public: whether the batch passes (it does for every honest dealing).
        Some(crate::ct::public(bool::from(lhs.ct_eq(&rhs))))
    }

    /// Whether the weighted commitment of `shares` encodes to `rhs`, the aggregate at this
    /// receiver's id.
    #[cfg(not(target_arch = "wasm32"))]
    fn compare_encoded(
        &self,
        common: &Common<C>,
        shares: &[&Share<C>],
        rho: &[C::Scalar],
        rhs: &[u8],
    ) -> bool {
        let lhs = weighted_commitment_encoded(common.ceremony.mode, shares, rho);
        // Public: whether the batch passes, as below.
        crate::ct::public(bool::from(lhs.ct_eq(rhs)))
    }

    /// The aggregate `A_k = Σ_d ρ_d·C_{d,k}` encoded, made from the deals' encodings eight
    /// columns at a time where the group can ([`Curve::column_sums_encoded`]): the dealers'
    /// points are then never decoded. The receivers of the process make the parts together
    /// and keep the whole once. `None` where it cannot.
    #[cfg(not(target_arch = "wasm32"))]
    fn aggregate_encoded(&self, rho: &[C::Scalar]) -> Option<&[u8]> {
        // Asked first, so that a group (or CPU) without it reads no encoding.
        if !lanes::<C>() {
            return None;
        }
        if let Some(whole) = self.encoded_aggregate.get() {
            return Some(whole);
        }
        let t = self.rows.first().map_or(0, |r| r.threshold());
        let rows = encoded_rows(&self.rows);
        let parts = self
            .aggregate_encoded_parts
            .get(|i| C::column_sums_encoded(&rows, Some(rho), 8 * i..(8 * i + 8).min(t)));
        if parts.iter().any(Option::is_none) {
            return None;
        }
        Some(
            self.encoded_aggregate
                .get_or_init(|| parts.iter().flatten().flatten().copied().collect()),
        )
    }

    /// The aggregate at this receiver's id, encoded, where the group evaluates eight at a
    /// time: from its batch of eight receivers (in the ceremony's order), made once per
    /// process by the first of them to ask while the others of the batch wait; `aggregate`
    /// gives the aggregate encoded, asked by that first receiver only. `None` where the
    /// group does not (each receiver then runs Horner's rule alone).
    #[cfg(not(target_arch = "wasm32"))]
    fn evaluated<'s>(&'s self, common: &Common<C>, aggregate: &dyn Fn() -> &'s [u8]) -> Option<Vec<u8>> {
        // Asked first, so that a group (or CPU) without it encodes no point.
        C::evaluate_encoded(&[], &[])?;
        let receivers = &common.ceremony.receivers;
        let at = receivers.iter().position(|r| *r == common.me)?;
        let xs: Vec<u16> = receivers
            .iter()
            .skip(at / 8 * 8)
            .take(8)
            .map(|r| r.get())
            .collect();
        let mut kept = self
            .evaluations
            .get(at / 8)?
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let (made_for, made) = kept.get_or_insert_with(|| {
            let made = C::evaluate_encoded(aggregate(), &xs);
            (xs.clone(), made)
        });
        // Another ceremony's order (never within one set) is not served from this batch.
        if *made_for != xs {
            return None;
        }
        let lane = at % 8;
        made.as_ref()?
            .get(lane * C::POINT_LEN..(lane + 1) * C::POINT_LEN)
            .map(<[u8]>::to_vec)
    }
}

/// Whether the group sums columns and evaluates eight receivers at a time from encodings
/// (on this CPU); never on WebAssembly.
#[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
fn lanes<C: Curve>() -> bool {
    C::column_sums_encoded(&[], None, 0..0).is_some() && C::evaluate_encoded(&[], &[]).is_some()
}

/// On WebAssembly, never (generic as the native one, for its callers).
#[cfg(all(feature = "in-process-sharing", target_arch = "wasm32"))]
#[allow(clippy::extra_unused_type_parameters)]
fn lanes<C>() -> bool {
    false
}

/// Each row's encoding, and its lanes where this process made it there.
#[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
fn encoded_rows<'a, C: Curve>(
    rows: &'a [impl core::ops::Deref<Target = Commitments<C>>],
) -> Vec<crate::vss::group::EncodedRow<'a>> {
    rows.iter().map(|r| (r.encoding(), r.lanes())).collect()
}

/// Without `in-process-sharing` nothing is shared: every receiver checks per dealer and combines alone.
#[cfg(not(feature = "in-process-sharing"))]
pub(super) struct DealSet<C: Curve>(core::marker::PhantomData<C>);

#[cfg(not(feature = "in-process-sharing"))]
impl<C: Curve> DealSet<C> {
    pub(super) fn of(
        _: &Common<C>,
        _: &[PartyId],
        _: &alloc::collections::BTreeMap<PartyId, DealMessage<C>>,
    ) -> Arc<DealSet<C>> {
        Arc::new(DealSet(core::marker::PhantomData))
    }
}

// The helpers unwrap too: a panic in them is a failed test.
#[cfg(all(test, feature = "in-process-sharing", feature = "ristretto255"))]
#[allow(clippy::unwrap_used)]
mod tests {
    use alloc::collections::BTreeMap;

    use rand_core::SeedableRng;

    use super::*;
    use crate::lss::dealing::{round1, Round1State};
    use crate::lss::Ceremony;
    use crate::vss::{Mode, Ristretto255 as C};

    fn pid(v: u16) -> PartyId {
        PartyId::new(v).unwrap()
    }

    /// The deals by dealer, a receiver's state and the shares it got, in dealer order.
    type Dealt = (BTreeMap<PartyId, DealMessage<C>>, Round1State<C>, Vec<Share<C>>);

    /// A 3-of-5 Pedersen DKG dealt by everyone, as receiver 5 sees it (its own share
    /// included).
    fn dealt(session: u8) -> Dealt {
        let ids: Vec<PartyId> = (1..=5).map(pid).collect();
        let c = Ceremony::<C>::dkg([session; 32], Mode::Pedersen, &ids, 3).unwrap();
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(u64::from(session));
        let mut deals = BTreeMap::new();
        let mut shares = Vec::new();
        let mut me = None;
        for &p in &ids {
            let (state, out) = round1(c.clone(), p, None, None, &mut rng).unwrap();
            deals.insert(p, out.broadcast.unwrap());
            if p == pid(5) {
                shares.push(state.self_share.as_ref().unwrap().duplicate());
                me = Some(state);
            } else {
                let m = out.shares.iter().find(|m| m.to == pid(5)).unwrap();
                shares.push(m.share.duplicate());
            }
        }
        (deals, me.unwrap(), shares)
    }

    fn off_by(s: &Share<C>, delta: u64) -> Share<C> {
        Share::new(*s.value() + <C as Curve>::Scalar::from(delta), *s.blind())
    }

    #[test]
    fn a_receiver_alone_checks_per_dealer_and_shared_checks_find_any_bad_share() {
        let (deals, me, shares) = dealt(41);
        let dealers: Vec<PartyId> = deals.keys().copied().collect();
        let all: Vec<&Share<C>> = shares.iter().collect();
        // Alone in the process: no aggregate is made, unless the group has lanes.
        let set = DealSet::of(&me.common, &dealers, &deals);
        let alone = set.check_shares(&me.common, &all);
        assert_eq!(alone, lanes::<C>().then_some(true));
        // A second receiver of the process asks for the same deals: the same set, shared.
        let again = DealSet::of(&me.common, &dealers, &deals);
        assert!(Arc::ptr_eq(&set, &again));
        assert_eq!(set.check_shares(&me.common, &all), Some(true));
        // One wrong share, or two whose errors cancel in a plain sum: the check fails.
        let one = off_by(&shares[2], 1);
        let mut bad = all.clone();
        bad[2] = &one;
        assert_eq!(set.check_shares(&me.common, &bad), Some(false));
        let (up, down) = (off_by(&shares[0], 5), off_by(&shares[3], 0));
        let down = Share::new(*down.value() - <C as Curve>::Scalar::from(5u64), *down.blind());
        let mut cancel = all.clone();
        cancel[0] = &up;
        cancel[3] = &down;
        assert_eq!(set.check_shares(&me.common, &cancel), Some(false));
        // A share missing: not this check's case (the receiver complains per dealer).
        assert_eq!(set.check_shares(&me.common, &all[1..]), None);
    }

    #[test]
    fn sums_are_made_once_and_match_the_rows() {
        let (deals, me, _) = dealt(42);
        let dealers: Vec<PartyId> = deals.keys().copied().collect();
        let set = DealSet::of(&me.common, &dealers, &deals);
        let qualified = [pid(1), pid(3), pid(4)];
        let sum = set.combined(&qualified, None).unwrap();
        let expected: Vec<_> = (0..3)
            .map(|k| qualified.iter().map(|d| deals[d].commitments.points()[k]).sum())
            .collect();
        assert_eq!(sum.points, expected);
        assert!(Arc::ptr_eq(&sum, &set.combined(&qualified, None).unwrap()));
        // All-one weights are the plain sum; other weights a weighted one.
        let ones = [<C as Curve>::Scalar::ONE; 3];
        assert_eq!(set.combined(&qualified, Some(&ones)).unwrap().points, expected);
        let w: Vec<_> = (2u64..5).map(<C as Curve>::Scalar::from).collect();
        let weighted: Vec<_> = (0..3)
            .map(|k| C::msm_vartime(&w, &qualified.map(|d| deals[&d].commitments.points()[k])))
            .collect();
        assert_eq!(set.combined(&qualified, Some(&w)).unwrap().points, weighted);
        assert!(sum.torsion_free());
        // As commitments: the same points and encoding as made fresh, kept for the next asker.
        let encode = |c: &Commitments<C>| {
            let mut w = crate::wire::Writer::with_capacity(200);
            c.write(&mut w);
            w.into_bytes()
        };
        let fresh = Commitments::<C>::from_points(Mode::Pedersen, expected.clone()).unwrap();
        let kept = sum.commitments(Mode::Pedersen).unwrap();
        assert_eq!(kept, fresh);
        assert_eq!(encode(&kept), encode(&fresh));
        assert_eq!(sum.commitments(Mode::Pedersen).unwrap(), fresh);
        assert_eq!(sum.commitments(Mode::Feldman).unwrap().mode(), Mode::Feldman);
        // Over a base (a refresh's old commitments): base + sum, encoded as made fresh, for
        // each base asked for.
        let base_of = |d: u16| {
            Commitments::<C>::from_points(Mode::Pedersen, deals[&pid(d)].commitments.points().to_vec())
                .unwrap()
        };
        let plus = |d: u16| {
            let points = base_of(d)
                .points()
                .iter()
                .zip(&expected)
                .map(|(b, s)| b + s)
                .collect();
            Commitments::<C>::from_points(Mode::Pedersen, points).unwrap()
        };
        for d in [2, 5, 2] {
            let (made, free) = sum.over(&base_of(d), Mode::Pedersen).unwrap();
            assert_eq!((&made, free), (&plus(d), true));
            assert_eq!(encode(&made), encode(&plus(d)));
        }
        assert_ne!(plus(2), plus(5));
        // A dealer outside the set: nothing to share.
        assert!(set.combined(&[pid(1), pid(9)], None).is_none());
    }
}
