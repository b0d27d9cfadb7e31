//! The Pulsar custody lifecycle, written once: make a group, certify its key, sign,
//! reshare and activate — each path one [`Party`](crate::party::Party) per role, so a
//! host only routes bytes.
//!
//! **Trust model.** The group secret is Shamir-shared with Pedersen commitments; no
//! coalition below `t` learns the key. **The combiner is trusted while it signs**: at the
//! key ceremony and in every signing session it rebuilds the ML-DSA key in memory, signs,
//! verifies and zeroizes — a malicious combiner could keep the key, and signers cannot
//! tell. Members trust nobody else: a member checks every message against its own
//! parameters (the combiner's session against its signing set, message, group key and
//! generation; the announced key against its own sharing) before it releases anything,
//! and a peer's message that fails a check is dropped and its sender named, never an
//! abort. The combiner trusts no single member: it opens the key ceremony for the sharing
//! that at least `t` members report.
//!
//! # Setup: DKG → key ceremony → key certification → group key and key shares
//!
//! ```text
//! params = SetupParams::new(session, mode, &members, t, &signers, combiner)
//! every member:  (m, out) = Member::setup(me, &params, rng)
//! the combiner:  (c, out) = Combiner::setup(&params, rng)
//! all:           step(inbox) until Done           (a host routes the bytes)
//!   members      DKG (LSD1, LSP1, LSC1, LSR1) ──► PCSH sharing report to the combiner
//!   combiner     the sharing t members report ──► PCSS key-ceremony session (its PCEK inside)
//!   signers      check the session, seal        ──► PCR1 broadcast, then PCR2 to the combiner
//!   combiner     rebuild, derive, prove         ──► PCKA announcement
//!   members      check the announcement         ──► LSV1 proofs of possession
//!   all          collect t proofs: the certificate → GroupKey
//! members  ⇒ MemberOutcome::Setup(Setup { key_share, .. })     (Keyring::new(key_share))
//! combiner ⇒ CombinerOutcome::Certified(Certified { group_key, public, .. })
//! ```
//!
//! # Sign
//!
//! ```text
//! params = SignParams::new(session, &signers, message, context, combiner)
//! the combiner:  (c, out) = Combiner::sign(&params, &group_key, &public, rng)  ──► PCSS
//! each signer:   (m, out) = Member::sign(keyring.current(), &params, rng)
//!   signers      check the session against params and their share ──► PCR1, then PCR2
//! combiner ⇒ CombinerOutcome::Signed(Signed)     (a FIPS 204 signature under the group key)
//! signers  ⇒ MemberOutcome::Released(SignerOutcome)
//! ```
//!
//! # Reshare (or refresh) → activation
//!
//! ```text
//! params = ReshareParams::reshare(session, &group_key, &public, &dealers, &receivers, t_new)
//! every dealer and receiver:  (m, out) = Member::reshare(me, &mut keyring, &params, rng)
//!   all          the keyed dealing (LSD1 … LSR1), then LSV1 proofs of the new shares
//!   each member  keyring.stage(new generation); keyring.activate(&certificate)
//! ⇒ MemberOutcome::Reshared(Reshared { keyring, activated, .. })
//! ```
//!
//! The new generation enters the keyring as pending; only the verified activation
//! certificate promotes it and erases the old share ([`crate::party::keyring`]). A
//! refused certificate leaves the old share current and the new one pending.
//!
//! # Messages and routing
//!
//! Each message kind belongs to one phase of a path, and its magic is the routing tag: a
//! party in one phase drops a kind of another phase — early, late or replayed — as
//! `WRONG_KIND` and names its sender; unknown bytes are `MALFORMED_MESSAGE`. Inside a
//! phase the single-protocol parties check the rest (session, sender, recipient,
//! generation, duplicates).
//!
//! | magic | phase | from → to |
//! |---|---|---|
//! | `LSD1` `LSP1` `LSC1` `LSR1` | DKG, dealing ([`crate::lss`]) | members |
//! | `PCSH` | sharing report | each member → the combiner |
//! | `PCSS` | the session ([`super::Session`]) | the combiner → all |
//! | `PCR1` / `PCR2` | release ([`super::Round1Message`], [`super::Round2Message`]) | signers → all / the combiner |
//! | `PCKA` | announcement ([`super::GroupKeyAnnouncement`]) | the combiner → all |
//! | `LSV1` | certification, activation | members → all |
//!
//! The single-protocol parties ([`super::SignerParty`], [`super::CombinerParty`],
//! [`crate::lss::DealingParty`], [`crate::lss::ActivationParty`]) stay public for
//! experts; these parties are built from them.

mod checks;
mod combiner;
mod keyring;
mod member;
mod params;
mod phase_rng;
mod report;
mod reshare;
mod setup;
mod sign;

pub use combiner::{Combiner, CombinerOutcome};
pub use keyring::Pending;
pub use member::{Member, MemberOutcome};
pub use params::{ReshareParams, SetupParams, SignParams};
pub use report::REPORT_MAGIC;
pub use reshare::Reshared;
pub use setup::{Certified, Setup};

use rand_core::CryptoRngCore;

/// What any party of a custody lifecycle ends with: run both roles in one network with
/// [`crate::party::sim::map_output`]`(member, Outcome::Member)` and
/// `map_output(combiner, Outcome::Combiner)`.
// One value per party, moved once per phase: boxing the larger variants would buy
// nothing next to the cryptography of a step.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Outcome {
    /// A member's.
    Member(MemberOutcome),
    /// The combiner's.
    Combiner(CombinerOutcome),
}

use super::{SignerParty, ANNOUNCEMENT_MAGIC, ROUND1_MAGIC, ROUND2_MAGIC};
use crate::lss::{self, DealingParty, DEALING_MAGICS};
use crate::party::{Misbehaviour, Outgoing};
use crate::pulsar::custody::session::SESSION_MAGIC;
use crate::pulsar::custody::Session;
use crate::pulsar::Error;
use crate::vss::Ristretto255 as R;
use crate::PartyId;

/// The session broadcast.
const SETUP_SESSION: &[u8; 4] = SESSION_MAGIC;
/// The key announcement.
const SETUP_ANNOUNCE: &[u8; 4] = ANNOUNCEMENT_MAGIC;

/// Every message kind of the custody lifecycle.
const KNOWN: [&[u8; 4]; 10] = [
    DEALING_MAGICS[0],
    DEALING_MAGICS[1],
    DEALING_MAGICS[2],
    DEALING_MAGICS[3],
    DEALING_MAGICS[4],
    REPORT_MAGIC,
    SESSION_MAGIC,
    ROUND1_MAGIC,
    ROUND2_MAGIC,
    ANNOUNCEMENT_MAGIC,
];

/// Starts a dealing party, misbehaving as `cheat` says (`hazmat`).
fn start_dealing(
    ceremony: lss::Ceremony<R>,
    me: PartyId,
    old: Option<&lss::KeyShare<R>>,
    cheat: Misbehaviour,
    rng: &mut impl CryptoRngCore,
) -> Result<(DealingParty<R>, Outgoing), lss::Error> {
    #[cfg(feature = "hazmat")]
    if let Some(cheat) = cheat {
        return DealingParty::start_cheating(ceremony, me, old, cheat, rng);
    }
    let _ = cheat;
    DealingParty::start(ceremony, me, old, rng)
}

/// Starts a custody signer, misbehaving as `cheat` says (`hazmat`).
fn start_signer(
    share: &lss::KeyShare<R>,
    session: &Session,
    cheat: Misbehaviour,
    rng: &mut impl CryptoRngCore,
) -> Result<(SignerParty, Outgoing), Error> {
    #[cfg(feature = "hazmat")]
    if let Some(cheat) = cheat {
        return SignerParty::start_cheating(share, session, cheat, rng);
    }
    let _ = cheat;
    SignerParty::start(share, session, rng)
}
