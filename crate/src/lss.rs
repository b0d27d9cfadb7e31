//! LSS: dynamic resharing of a group secret from (t_old, n_old) to (t_new, n_new) with
//! the group key unchanged.
//!
//! **Trust model.** A dealer who sends an inconsistent share is detected and named
//! (blame); the group public key never changes; an activation certificate, signed by the
//! new set under the unchanged key, proves the new set can sign. Security holds while
//! fewer than `t` parties of any generation are corrupt, given a reliable broadcast
//! channel and confidential, authenticated point-to-point channels (which this module
//! does not provide: the caller encrypts [`ShareMessage`]s to their recipient).
//!
//! # One dealing protocol, three flavours
//!
//! Every participant runs the same [`DealingParty`] (or [`Dealing`], the same party with
//! the group chosen at run time) over a public [`Ceremony`]:
//!
//! | flavour | built by | dealer `i`'s constant term | receiver `j`'s new share |
//! |---|---|---|---|
//! | DKG | [`Ceremony::dkg`] | random `a_i` (Feldman: with a Schnorr proof of knowledge) | `Σ_{i∈Q'} f_i(j)` |
//! | refresh | [`Ceremony::refresh`] | 0 (its commitment must be the identity) | `s_j + Σ_{i∈Q'} z_i(j)` |
//! | reshare | [`Ceremony::reshare`] | `λ_i^Q·s_i` (checked against the old commitments) | `Σ_{i∈Q'} μ_i·g_i(j)` |
//!
//! In a reshare `Q` is the announced quorum of old parties (at least `t_old`, more so a
//! cheater can be dropped), `λ_i^Q` its public Lagrange coefficients, and
//! `μ_i = λ_i^{Q'}/λ_i^Q` re-weights over the **final** qualified set `Q'` (all ones when
//! nobody was disqualified), so `s'_j = Σ_{i∈Q'} λ_i^{Q'}·ĝ_i(j)` where `ĝ_i` shares the
//! old share `s_i` — receiver-side weighting. Having dealers pre-apply the public `λ_i^Q`
//! keeps the new commitments a plain sum in the common case instead of `t_new`
//! multi-scalar multiplications. Each dealer's constant-term commitment must equal
//! `λ_i^Q·Σ_k i^k·C_k^old`, so nobody can change the secret, and the new commitments'
//! constant term is asserted equal to the old one.
//!
//! # Rounds
//!
//! The party has the shape of every protocol here ([`crate::party`]): [`DealingParty::start`]
//! returns the first messages, and each [`Party::step`](crate::party::Party::step) takes
//! the round's inbox of `(sender, bytes)`.
//!
//! 1. start: dealers broadcast a [`DealMessage`] (commitments, plus a proof in a
//!    Feldman DKG) and send each receiver a private [`ShareMessage`].
//! 2. round 1: receivers check their shares; each broadcasts a [`ComplaintMessage`]
//!    (possibly empty) naming dealers whose share was missing or wrong, with the share
//!    received as evidence.
//! 3. round 2: accused dealers broadcast a [`ResponseMessage`] opening the complainers'
//!    shares (every dealer broadcasts one, empty when nobody complained about it).
//! 4. round 3: a dealer with a missing deal, invalid commitments or proof, or a missing
//!    or invalid opening is disqualified and named; a complaint whose own evidence
//!    verifies names the complainer. The run succeeds if at least `t_old` (reshare) or
//!    `t` (DKG, refresh) dealers qualify, giving an [`Outcome`] with a **new**
//!    [`KeyShare`]; otherwise [`Error::NotEnoughQualified`] lists the culprits, the party
//!    keeps its state, and the old share (never mutated) still works.
//!
//! **At scale** a receiver's work is the |Q|·t commitment points it is sent (86 × 86 at
//! n = 128). Parties of one process share it ([`crate::party::release_shared`] frees it):
//! each deal is decoded once, and the receivers check their shares against one aggregate
//! `Σ_d ρ_d·C_d` with random weights drawn in the process after the deals arrived, then
//! per dealer only if that fails — so a cheating dealer is named exactly as by a party
//! alone.
//!
//! **No peer can knock a party out** (see [`party`](DealingParty)): a message that fails any
//! check is dropped and its sender named in [`Outcome::dropped`]; a dropped deal is a
//! missing deal, a dropped share a missing share (complained about, so the dealer must
//! open it), a dropped complaint counts as none.
//!
//! # Example
//!
//! A 2-of-3 DKG, then a reshare to a 3-of-4 new set; every message crosses as bytes.
//!
//! ```
//! use std::collections::BTreeMap;
//! use quasar_pq::lss::{Ceremony, DealingParty, KeyShare, Outcome};
//! use quasar_pq::party::{Incoming, Outgoing, Party, Step};
//! use quasar_pq::vss::{Mode, Ristretto255 as C};
//! use quasar_pq::PartyId;
//! use rand_core::SeedableRng;
//!
//! /// Runs every participant of `c` to the end, delivering broadcasts to all and
//! /// direct messages to their recipient.
//! fn run(c: &Ceremony<C>, old: &BTreeMap<PartyId, KeyShare<C>>) -> BTreeMap<PartyId, Outcome<C>> {
//!     let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
//!     let mut ids: Vec<PartyId> = c.dealers().iter().chain(c.receivers()).copied().collect();
//!     ids.sort();
//!     ids.dedup();
//!     let (mut parties, mut mail) = (BTreeMap::new(), Vec::new());
//!     for &p in &ids {
//!         let (party, out) = DealingParty::start(c.clone(), p, old.get(&p), &mut rng).unwrap();
//!         parties.insert(p, party);
//!         mail.push((p, out));
//!     }
//!     let mut done = BTreeMap::new();
//!     while !parties.is_empty() {
//!         let sent = std::mem::take(&mut mail);
//!         for (&p, party) in parties.iter_mut() {
//!             let mut inbox = Vec::new();
//!             for (from, out) in &sent {
//!                 inbox.extend(out.broadcast.iter().map(|b| Incoming::new(*from, b)));
//!                 inbox.extend(out.direct.iter().filter(|d| d.to == p).map(|d| Incoming::new(*from, &d.bytes)));
//!             }
//!             match party.step(&inbox).unwrap() {
//!                 Step::Continue(out) => mail.push((p, out)),
//!                 Step::Done(_, outcome) => { done.insert(p, outcome); }
//!                 Step::Waiting => {} // nothing to send; step again with the next inbox
//!             }
//!         }
//!         parties.retain(|p, _| !done.contains_key(p));
//!     }
//!     done
//! }
//!
//! let id = |v: u16| PartyId::new(v).unwrap();
//! let dkg = Ceremony::<C>::dkg([1; 32], Mode::Pedersen, &[id(1), id(2), id(3)], 2).unwrap();
//! let out = run(&dkg, &BTreeMap::new());
//! let public = out[&id(1)].public.clone();
//! let shares: BTreeMap<_, _> = out.into_iter().map(|(p, o)| (p, o.key_share.unwrap())).collect();
//!
//! let new_set = [id(4), id(5), id(6), id(7)];
//! let reshare = Ceremony::reshare([2; 32], &public, &[id(1), id(3)], &new_set, 3).unwrap();
//! let out = run(&reshare, &shares);
//! let new_public = &out[&id(4)].public;
//! assert_eq!(new_public.group_commitment(), public.group_commitment());
//! assert_eq!(new_public.generation(), 1);
//! assert!(out[&id(1)].key_share.is_none()); // an old party that left
//! assert!(out.values().all(|o| o.blame.is_empty() && o.dropped.is_empty()));
//! ```
//!
//! # Wire formats
//!
//! Big-endian, each starting with a 4-byte magic and u16 version 1, no trailing bytes:
//!
//! | magic | type |
//! |---|---|
//! | `LSD1` | [`DealMessage`] (broadcast) |
//! | `LSP1` | [`ShareMessage`] (private) |
//! | `LSC1` | [`ComplaintMessage`] (broadcast) |
//! | `LSR1` | [`ResponseMessage`] (broadcast) |
//! | `LSG1` | [`GroupPublic`] |
//! | `LSK1` | [`KeyShare`] (secret) |
//! | `LSA1` | [`ActivationCertificate`] |
//!
//! Each type's documentation gives its layout.
//!
//! # Cost
//!
//! A dealer does `t_new` fixed-base commitments and evaluates its polynomial(s) at every
//! receiver. A receiver decodes the `|Q|·t_new` commitment points it is sent (one field
//! square root each — the dominant cost at large `n`), evaluates each dealer's
//! commitments at its own id by Horner's rule with a small multiplier, and checks all its
//! shares and all constant terms with one random-weight batch each (per-dealer checks
//! run only if a batch fails, to find whom to blame). The new commitments are plain sums
//! unless a reshare lost dealers. `benches/lss.rs` measures all of it, per party and for
//! a whole run.
//!
//! # Transcript and activation
//!
//! Every party hashes everything public (the ceremony, every broadcast, the qualified
//! set, the blame list and the new commitments) with [`crate::hash::Transcript`] under
//! `QUASAR-LSS-TRANSCRIPT-v1`; the new key share records it with generation + 1. Each
//! member of the new set then proves possession of its new share against the new
//! commitments, and the proofs of at least `t_new` members make an
//! [`ActivationCertificate`].

mod activation;
mod any;
mod ceremony;
mod complaint;
mod dealing;
mod dkg;
mod keyshare;
mod message;
mod party;
mod redistribute;
mod refresh;
mod transcript;

pub use activation::{ActivationCertificate, ActivationFault, ActivationKind, ActivationParty};
pub use any::{AnyCeremony, AnyGroupPublic, AnyKeyShare, AnyOutcome, Dealing};
#[cfg(feature = "ristretto255")] // Pulsar custody's setup checks its threshold first
pub(crate) use ceremony::check_threshold;
pub use ceremony::{Ceremony, Kind};
pub use complaint::{Complaint, ComplaintMessage, Opening, ResponseMessage};
pub use dkg::ProofOfKnowledge;
pub use keyshare::{GroupPublic, KeyShare};
pub use message::{DealMessage, ShareMessage};
pub use party::{DealingParty, Outcome};

use alloc::vec::Vec;

use crate::vss::CurveId;
use crate::PartyId;

/// The magics of a dealing's messages in round order — deal, share, complaint, response,
/// possession proof — by which a lifecycle party routes them.
pub(crate) const DEALING_MAGICS: [&[u8; 4]; 5] = [
    message::DEAL_MAGIC,
    message::SHARE_MAGIC,
    complaint::COMPLAINT_MAGIC,
    complaint::RESPONSE_MAGIC,
    activation::POSSESSION_MAGIC,
];

/// The most parties (and the highest threshold) a message or key share may declare.
pub const MAX_PARTIES: usize = 4096;

/// Errors from the LSS protocols. None carries secret data.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A setup list names a party twice.
    #[error("{party} is listed twice")]
    DuplicateParty {
        /// The repeated party.
        party: PartyId,
    },
    /// A party list is not strictly increasing.
    #[error("party list not strictly increasing")]
    UnsortedParties,
    /// This party has no role in the ceremony.
    #[error("{party} is neither a dealer nor a receiver")]
    NotAParticipant {
        /// The party.
        party: PartyId,
    },
    /// A dealer of a refresh or reshare (or a refresh receiver) needs its old share.
    #[error("{party} needs its current key share")]
    MissingOldShare {
        /// The party.
        party: PartyId,
    },
    /// The key share given does not belong to the ceremony's old group or party.
    #[error("the key share of {party} does not match the ceremony")]
    OldShareMismatch {
        /// The party.
        party: PartyId,
    },
    /// A threshold outside `1..=n`.
    #[error("threshold {threshold} is invalid for {parties} parties")]
    InvalidThreshold {
        /// The threshold.
        threshold: usize,
        /// The number of parties.
        parties: usize,
    },
    /// Fewer dealers were announced than the run needs.
    #[error("{got} dealers announced, at least {needed} needed")]
    NotEnoughDealers {
        /// The minimum.
        needed: usize,
        /// Announced.
        got: usize,
    },
    /// A dealer is not a member of the old group.
    #[error("dealer {party} holds no share of the old group")]
    DealerNotInOldSet {
        /// The dealer.
        party: PartyId,
    },
    /// Too few dealers qualified: the run failed and old shares stay valid.
    #[error(
        "only {qualified} dealers qualified, {needed} needed; culprits: {}",
        crate::party::Parties(culprits)
    )]
    NotEnoughQualified {
        /// The minimum.
        needed: usize,
        /// How many qualified.
        qualified: usize,
        /// Every party blamed in the run, increasing.
        culprits: Vec<PartyId>,
    },
    /// The new commitments do not preserve the group commitment (an internal invariant;
    /// never expected).
    #[error("the new commitments change the group commitment")]
    GroupKeyChanged,
    /// This party's new share does not open the new commitments (an internal invariant;
    /// never expected).
    #[error("the new share does not open the new commitments")]
    InconsistentShare,
    /// The qualified deals' sum has a torsion component though no qualified deal has one
    /// (an internal invariant; never expected).
    #[error("the sum of torsion-free deals has a torsion component")]
    InconsistentCommitments,
    /// An activation certificate does not activate the expected generation.
    #[error("activation certificate refused: {0}")]
    InvalidActivation(ActivationFault),
    /// Too few members proved possession of their new shares: the generation is not
    /// activated (the old shares must be kept).
    #[error(
        "only {got} members proved their new shares, {needed} needed; culprits: {}",
        crate::party::Parties(culprits)
    )]
    NotEnoughPossessionProofs {
        /// The new threshold.
        needed: usize,
        /// Valid proofs received (this party's own included).
        got: usize,
        /// Members whose proofs were invalid or malformed, increasing.
        culprits: Vec<PartyId>,
    },
    /// An object over one group was given where another was expected.
    #[error("expected a {expected} object, found {found}")]
    WrongCurve {
        /// The group the ceremony or the other inputs use.
        expected: CurveId,
        /// The group of the offending object.
        found: CurveId,
    },
    /// A secret-sharing error.
    #[error("VSS: {0}")]
    Vss(#[from] crate::vss::Error),
}

impl Error {
    /// A stable code for this error, as JavaScript sees it.
    pub fn code(&self) -> &'static str {
        match self {
            Error::DuplicateParty { .. } => "DUPLICATE_PARTY",
            Error::UnsortedParties => "UNSORTED_PARTIES",
            Error::NotAParticipant { .. } => "NOT_A_PARTICIPANT",
            Error::MissingOldShare { .. } => "MISSING_OLD_SHARE",
            Error::OldShareMismatch { .. } => "OLD_SHARE_MISMATCH",
            Error::InvalidThreshold { .. } => "INVALID_THRESHOLD",
            Error::NotEnoughDealers { .. } => "NOT_ENOUGH_DEALERS",
            Error::DealerNotInOldSet { .. } => "DEALER_NOT_IN_OLD_SET",
            Error::NotEnoughQualified { .. } => "NOT_ENOUGH_QUALIFIED",
            Error::GroupKeyChanged => "GROUP_KEY_CHANGED",
            Error::InconsistentShare => "INCONSISTENT_SHARE",
            Error::InconsistentCommitments => "INCONSISTENT_COMMITMENTS",
            Error::InvalidActivation(f) => f.code(),
            Error::NotEnoughPossessionProofs { .. } => "NOT_ENOUGH_POSSESSION_PROOFS",
            Error::WrongCurve { .. } => "WRONG_CURVE",
            Error::Vss(e) => e.code(),
        }
    }

    /// The parties this error blames (empty when nobody is to blame).
    pub fn culprits(&self) -> &[PartyId] {
        match self {
            Error::NotEnoughQualified { culprits, .. }
            | Error::NotEnoughPossessionProofs { culprits, .. } => culprits,
            Error::DuplicateParty { .. }
            | Error::UnsortedParties
            | Error::NotAParticipant { .. }
            | Error::MissingOldShare { .. }
            | Error::OldShareMismatch { .. }
            | Error::InvalidThreshold { .. }
            | Error::NotEnoughDealers { .. }
            | Error::DealerNotInOldSet { .. }
            | Error::GroupKeyChanged
            | Error::InconsistentShare
            | Error::InconsistentCommitments
            | Error::InvalidActivation(_)
            | Error::WrongCurve { .. }
            | Error::Vss(_) => &[],
        }
    }
}
