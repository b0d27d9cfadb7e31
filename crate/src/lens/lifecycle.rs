//! The Lens lifecycle, written once: key generation, signing, and refresh or reshare →
//! activation into the member's keyring — each path one [`Party`](crate::party::Party)
//! per role, so a host only routes bytes.
//!
//! **Trust model.** FROST against a dishonest majority: fewer than `t` parties cannot
//! sign; the coordinator sees only public data and is trusted for liveness only. A peer's
//! message that fails a check is dropped and its sender named, never an abort.
//!
//! # Key generation
//!
//! ```text
//! ceremony = Ceremony::keygen(curve, session, &members, t)
//! every member:  (m, out) = Member::keygen(me, &ceremony, rng)
//!   members      the Feldman DKG with proofs of knowledge (LSD1, LSP1, LSC1, LSR1)
//! ⇒ MemberOutcome::Setup(Setup { key_share, public, .. })     (Keyring::new(key_share))
//! ```
//!
//! # Sign
//!
//! ```text
//! the coordinator: (c, out) = Coordinator::sign(me, &public, message)
//! each signer:     (m, out) = Member::sign(keyring.current(), coordinator, message, rng)
//!   signers      LNC1 commitments ──► coordinator LNSP package ──► signers LNZ2 shares
//! coordinator ⇒ CoordinatorOutcome { signature, .. }   (standard Ed25519 / BIP-340)
//! ```
//!
//! # Refresh or reshare → activation
//!
//! ```text
//! ceremony = Ceremony::reshare(session, &public, &dealers, &receivers, t_new)
//! every dealer and receiver: (m, out) = Member::reshare(me, &mut keyring, &ceremony, rng)
//!   all          the keyed dealing (LSD1 … LSR1), then LSV1 proofs of the new shares
//!   each member  keyring.stage(new generation); keyring.activate(&certificate)
//! ⇒ MemberOutcome::Reshared(Reshared { keyring, activated, .. })
//! ```
//!
//! Only a verified activation certificate promotes the new generation and erases the old
//! share ([`crate::party::keyring`]).
//!
//! # Routing
//!
//! Each message kind belongs to one phase; a kind of another phase (`LNC1`, `LNSP`,
//! `LNZ2`, the dealing's `LSD1` … `LSV1`) reaching a party is dropped as `WRONG_KIND` and
//! its sender named; unknown bytes are `MALFORMED_MESSAGE`.

mod keyring;
mod member;

pub use keyring::Pending;
pub use member::{Coordinator, Member, MemberOutcome, Reshared, Setup};

use super::round1::MAGIC_SIGNING_COMMITMENTS;
use super::round2::{MAGIC_SIGNATURE_SHARE, MAGIC_SIGNING_PACKAGE};
use crate::lss::DEALING_MAGICS;

/// Every message kind of the Lens lifecycle.
const KNOWN: [&[u8; 4]; 8] = [
    DEALING_MAGICS[0],
    DEALING_MAGICS[1],
    DEALING_MAGICS[2],
    DEALING_MAGICS[3],
    DEALING_MAGICS[4],
    MAGIC_SIGNING_COMMITMENTS,
    MAGIC_SIGNING_PACKAGE,
    MAGIC_SIGNATURE_SHARE,
];
