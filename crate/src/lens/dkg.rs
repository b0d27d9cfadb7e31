//! Distributed key generation: FROST KeyGen (Komlo–Goldberg 2020, Figure 1; the DKG of
//! `frost-core`'s `keys::dkg`, `part1`–`part3`): Pedersen's DKG of parallel Feldman VSS
//! dealings, each with a Schnorr proof of knowledge of its constant term. Nobody ever
//! learns the group key's secret.
//!
//! **Prefer [`super::keygen`]**, the LSS kernel's Feldman DKG with proofs of knowledge:
//! it checks shares in batches (this DKG's [`finish`] evaluates every dealer's commitment
//! in the group, `O(n·t)` scalar multiplications per party, `O(n²·t)` for the group —
//! about 100 s for 64 parties in a browser) and it excludes and names a cheating dealer
//! where this one aborts with [`Error::InvalidSecretShare`] and must be rerun without it.
//! This module stays for interoperability with `frost-core`'s DKG messages.
//!
//! Call sequence for each party `i`, with the same `session` id, threshold and party set:
//!
//! 1. [`round1`] → keep the [`Round1State`]; **broadcast** the [`Round1Message`].
//! 2. [`round2`] with everyone's round-1 messages (keyed by the authenticated sender) →
//!    keep the [`Round2State`]; send each [`Round2Message`] to its recipient over a
//!    **confidential, authenticated** channel.
//! 3. [`finish`] with the round-2 messages addressed to `i` → the [`KeyShare`].
//!
//! Round 1 needs a real broadcast (every party must see the same commitments; otherwise
//! parties may end with different group keys). A bad proof of knowledge, a commitment of
//! the wrong degree and a share that does not match its commitment each name their sender.
//!
//! On secp256k1 the key is post-processed as `frost-secp256k1-tr` does (BIP-340 even-y
//! normalisation and the BIP-341 unspendable-script tweak); the Feldman commitment of the
//! resulting sharing is derived so that it still opens to the group key.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::vec::Vec;
use core::fmt;

use frost_core::keys::dkg as fd;
use frost_core::{Element, Group};
use rand_core::CryptoRngCore;
use zeroize::{ZeroizeOnDrop, Zeroizing};

use super::ciphersuite::{
    element_from_bytes, frame, frost_err, ident, open, party_of, put_component, read_component, with_suite,
    ByCurve, Family, Suite,
};
use super::keys::{check_keygen_params, keygen_epoch, Hex, KeyShare, PublicKeyPackage};
use super::{Curve, Error};
use crate::PartyId;

/// Magic of an encoded [`Round1Message`].
pub const MAGIC_DKG_ROUND1: &[u8; 4] = b"LND1";
/// Magic of an encoded [`Round2Message`].
pub const MAGIC_DKG_ROUND2: &[u8; 4] = b"LND2";

pub(crate) struct R1PackageF;
impl Family for R1PackageF {
    type Of<C: Suite> = fd::round1::Package<C>;
}
pub(crate) struct R1SecretF;
impl Family for R1SecretF {
    type Of<C: Suite> = fd::round1::SecretPackage<C>;
}
pub(crate) struct R2PackageF;
impl Family for R2PackageF {
    type Of<C: Suite> = fd::round2::Package<C>;
}
pub(crate) struct R2SecretF;
impl Family for R2SecretF {
    type Of<C: Suite> = fd::round2::SecretPackage<C>;
}

/// A DKG round-1 message: the sender's Feldman commitment and its proof of knowledge of
/// the constant term.
///
/// **Broadcast** by each party to all others.
#[derive(Clone, PartialEq)]
pub struct Round1Message {
    session: [u8; 32],
    from: PartyId,
    inner: ByCurve<R1PackageF>,
}

impl fmt::Debug for Round1Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("dkg::Round1Message")
            .field("session", &Hex(&self.session))
            .field("from", &self.from)
            .field("curve", &self.curve())
            .finish()
    }
}

impl Round1Message {
    /// The sender, as the message claims.
    pub fn from(&self) -> PartyId {
        self.from
    }

    /// The session id.
    pub fn session(&self) -> [u8; 32] {
        self.session
    }

    /// The curve.
    pub fn curve(&self) -> Curve {
        self.inner.curve()
    }

    /// Encodes: `LND1` ‖ u16 1 ‖ curve ‖ 32-byte session ‖ u16 from ‖ u32 len ‖ frost
    /// `dkg::round1::Package`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = frame(MAGIC_DKG_ROUND1, self.curve());
        w.put(&self.session);
        self.from.write(&mut w);
        with_suite!(self.curve(), C => {
            if let Ok(p) = self.inner.get::<C>() {
                put_component(&mut w, &p.serialize().unwrap_or_default());
            }
        });
        w.into_bytes()
    }

    /// Decodes a round-1 message of the expected curve.
    ///
    /// # Errors
    /// [`Error::Decode`], [`Error::WrongCurve`].
    pub fn from_bytes(curve: Curve, bytes: &[u8]) -> Result<Round1Message, Error> {
        with_suite!(curve, C => {
            let mut r = open(MAGIC_DKG_ROUND1, C::CURVE, bytes)?;
            let session = r.array()?;
            let from = PartyId::read(&mut r)?;
            let p = read_component(
                &mut r,
                |b| fd::round1::Package::<C>::deserialize(b).ok(),
                |v| v.serialize().ok(),
            )?;
            r.finish()?;
            Ok(Round1Message { session, from, inner: C::wrap(p) })
        })
    }
}

/// A DKG round-2 message: the sender's secret share `f_from(to)` for one recipient.
///
/// Sent to its recipient only, over a **confidential, authenticated** channel.
///
/// # Security
/// Secret. Wiped on drop; `Debug` redacted; [`Round2Message::to_bytes`] is secret too.
pub struct Round2Message {
    session: [u8; 32],
    from: PartyId,
    to: PartyId,
    inner: ByCurve<R2PackageF>,
}

impl ZeroizeOnDrop for Round2Message {}

impl fmt::Debug for Round2Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("dkg::Round2Message")
            .field("from", &self.from)
            .field("to", &self.to)
            .field("share", &"<redacted>")
            .finish()
    }
}

impl Round2Message {
    /// The sender, as the message claims.
    pub fn from(&self) -> PartyId {
        self.from
    }

    /// The recipient.
    pub fn to(&self) -> PartyId {
        self.to
    }

    /// The curve.
    pub fn curve(&self) -> Curve {
        self.inner.curve()
    }

    /// Encodes: `LND2` ‖ u16 1 ‖ curve ‖ 32-byte session ‖ u16 from ‖ u16 to ‖ u32 len ‖
    /// frost `dkg::round2::Package`.
    ///
    /// # Security
    /// The output is secret: send it only encrypted to its recipient.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        let mut w = frame(MAGIC_DKG_ROUND2, self.curve());
        w.put(&self.session);
        self.from.write(&mut w);
        self.to.write(&mut w);
        with_suite!(self.curve(), C => {
            if let Ok(p) = self.inner.get::<C>() {
                let bytes = Zeroizing::new(p.serialize().unwrap_or_default());
                put_component(&mut w, &bytes);
            }
        });
        Zeroizing::new(w.into_bytes())
    }

    /// Decodes a round-2 message of the expected curve.
    ///
    /// # Errors
    /// [`Error::Decode`], [`Error::WrongCurve`].
    pub fn from_bytes(curve: Curve, bytes: &[u8]) -> Result<Round2Message, Error> {
        with_suite!(curve, C => {
            let mut r = open(MAGIC_DKG_ROUND2, C::CURVE, bytes)?;
            let session = r.array()?;
            let from = PartyId::read(&mut r)?;
            let to = PartyId::read(&mut r)?;
            let p = read_component(
                &mut r,
                |b| fd::round2::Package::<C>::deserialize(b).ok(),
                |v| v.serialize().ok(),
            )?;
            r.finish()?;
            Ok(Round2Message { session, from, to, inner: C::wrap(p) })
        })
    }
}

/// A party's state between DKG rounds 1 and 2.
///
/// # Security
/// Holds the party's secret polynomial. Never send or store it; wiped on drop.
pub struct Round1State {
    session: [u8; 32],
    me: PartyId,
    threshold: u16,
    parties: Vec<PartyId>,
    own: Round1Message,
    secret: ByCurve<R1SecretF>,
}

impl ZeroizeOnDrop for Round1State {}

impl fmt::Debug for Round1State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("dkg::Round1State")
            .field("me", &self.me)
            .field("secret", &"<redacted>")
            .finish()
    }
}

/// A party's state between DKG round 2 and [`finish`].
///
/// # Security
/// Holds the party's own share of its polynomial. Never send or store it; wiped on drop.
pub struct Round2State {
    session: [u8; 32],
    me: PartyId,
    threshold: u16,
    parties: Vec<PartyId>,
    round1: BTreeMap<PartyId, Round1Message>,
    secret: ByCurve<R2SecretF>,
}

impl ZeroizeOnDrop for Round2State {}

impl fmt::Debug for Round2State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("dkg::Round2State")
            .field("me", &self.me)
            .field("secret", &"<redacted>")
            .finish()
    }
}

/// DKG round 1 (`frost-core` `keys::dkg::part1`): samples this party's polynomial of
/// degree `threshold − 1`, commits to it and proves knowledge of its constant term.
///
/// `session` must be the same for all parties and unique to this run (e.g. a hash of the
/// ceremony's parameters and a fresh nonce agreed beforehand); it is bound into every
/// message and into the key's epoch.
///
/// # Errors
/// [`Error::InvalidThreshold`] unless 2 ≤ `threshold` ≤ `parties.len()`;
/// [`Error::UnknownParty`] when `me` is not in `parties`.
pub fn round1<R: CryptoRngCore + ?Sized>(
    curve: Curve,
    session: [u8; 32],
    me: PartyId,
    threshold: u16,
    parties: &BTreeSet<PartyId>,
    rng: &mut R,
) -> Result<(Round1State, Round1Message), Error> {
    let parties = check_keygen_params(threshold, parties)?;
    if parties.binary_search(&me).is_err() {
        return Err(Error::UnknownParty { party: me });
    }
    with_suite!(curve, C => {
        let (secret, package) = fd::part1::<C, _>(
            ident::<C>(me)?,
            parties.len() as u16,
            threshold,
            &mut *rng,
        )
        .map_err(|e| frost_err::<C>(e, &parties))?;
        let own = Round1Message { session, from: me, inner: C::wrap(package) };
        Ok((
            Round1State {
                session,
                me,
                threshold,
                parties,
                own: own.clone(),
                secret: C::wrap(secret),
            },
            own,
        ))
    })
}

/// Checks the received round-1 messages and returns all of them (own included).
fn check_round1(
    state: &Round1State,
    received: &BTreeMap<PartyId, Round1Message>,
) -> Result<BTreeMap<PartyId, Round1Message>, Error> {
    let curve = state.own.curve();
    let mut all = BTreeMap::new();
    for (sender, msg) in received {
        if state.parties.binary_search(sender).is_err() {
            return Err(Error::UnknownParty { party: *sender });
        }
        if *sender == state.me {
            continue;
        }
        if msg.curve() != curve {
            return Err(Error::WrongCurve {
                expected: curve,
                found: msg.curve(),
            });
        }
        if msg.from != *sender {
            return Err(Error::SenderMismatch {
                party: *sender,
                claimed: msg.from,
            });
        }
        if msg.session != state.session {
            return Err(Error::SessionMismatch { party: *sender });
        }
        all.insert(*sender, msg.clone());
    }
    for p in &state.parties {
        if *p != state.me && !all.contains_key(p) {
            return Err(Error::MissingMessage { party: *p });
        }
    }
    all.insert(state.me, state.own.clone());
    Ok(all)
}

/// DKG round 2 (`frost-core` `keys::dkg::part2`): verifies every other party's proof of
/// knowledge and commitment degree, and computes their secret shares.
///
/// `received` holds the round-1 messages keyed by their authenticated senders; an entry
/// for this party itself is ignored.
///
/// # Errors
/// [`Error::UnknownParty`], [`Error::WrongCurve`], [`Error::SenderMismatch`],
/// [`Error::SessionMismatch`], [`Error::MissingMessage`]; [`Error::InvalidCommitment`]
/// and [`Error::InvalidProofOfKnowledge`] naming the cheater.
pub fn round2(
    state: Round1State,
    received: &BTreeMap<PartyId, Round1Message>,
) -> Result<(Round2State, BTreeMap<PartyId, Round2Message>), Error> {
    let all = check_round1(&state, received)?;
    let curve = state.own.curve();
    with_suite!(curve, C => round2_g::<C>(state, all))
}

fn round2_g<C: Suite>(
    state: Round1State,
    all: BTreeMap<PartyId, Round1Message>,
) -> Result<(Round2State, BTreeMap<PartyId, Round2Message>), Error> {
    let mut others = BTreeMap::new();
    for (p, msg) in &all {
        if *p == state.me {
            continue;
        }
        let package = msg.inner.get::<C>()?;
        let degree = package
            .commitment()
            .serialize()
            .map_err(|_| Error::InvalidCommitment { culprit: *p })?
            .len();
        if degree != usize::from(state.threshold) {
            return Err(Error::InvalidCommitment { culprit: *p });
        }
        others.insert(ident::<C>(*p)?, package.clone());
    }
    let Round1State {
        session,
        me,
        threshold,
        parties,
        secret,
        ..
    } = state;
    let secret = secret.into_inner::<C>()?;
    let (secret2, packages) = fd::part2::<C>(secret, &others).map_err(|e| frost_err::<C>(e, &parties))?;
    let mut out = BTreeMap::new();
    for (id, package) in packages {
        let to = party_of::<C>(&id, parties.iter().copied()).ok_or(Error::Internal("round 2 recipient"))?;
        out.insert(
            to,
            Round2Message {
                session,
                from: me,
                to,
                inner: C::wrap(package),
            },
        );
    }
    Ok((
        Round2State {
            session,
            me,
            threshold,
            parties,
            round1: all,
            secret: C::wrap(secret2),
        },
        out,
    ))
}

/// DKG finish (`frost-core` `keys::dkg::part3`): verifies the shares received against
/// their senders' commitments and derives this party's [`KeyShare`] (generation 0).
///
/// # Errors
/// [`Error::UnknownParty`], [`Error::WrongCurve`], [`Error::SenderMismatch`],
/// [`Error::WrongRecipient`], [`Error::SessionMismatch`], [`Error::MissingMessage`];
/// [`Error::InvalidSecretShare`] naming the sender of a share that does not match its
/// commitment.
pub fn finish(state: Round2State, received: &BTreeMap<PartyId, Round2Message>) -> Result<KeyShare, Error> {
    let curve = state.secret.curve();
    for (sender, msg) in received {
        if *sender == state.me || state.parties.binary_search(sender).is_err() {
            return Err(Error::UnknownParty { party: *sender });
        }
        if msg.curve() != curve {
            return Err(Error::WrongCurve {
                expected: curve,
                found: msg.curve(),
            });
        }
        if msg.from != *sender {
            return Err(Error::SenderMismatch {
                party: *sender,
                claimed: msg.from,
            });
        }
        if msg.to != state.me {
            return Err(Error::WrongRecipient {
                party: *sender,
                to: msg.to,
            });
        }
        if msg.session != state.session {
            return Err(Error::SessionMismatch { party: *sender });
        }
    }
    for p in &state.parties {
        if *p != state.me && !received.contains_key(p) {
            return Err(Error::MissingMessage { party: *p });
        }
    }
    with_suite!(curve, C => finish_g::<C>(state, received))
}

fn finish_g<C: Suite>(
    state: Round2State,
    received: &BTreeMap<PartyId, Round2Message>,
) -> Result<KeyShare, Error> {
    let mut r1 = BTreeMap::new();
    let mut r2 = BTreeMap::new();
    let mut commitments: Vec<Vec<Element<C>>> = Vec::with_capacity(state.parties.len());
    for (p, msg) in &state.round1 {
        let package = msg.inner.get::<C>()?;
        let elements = package
            .commitment()
            .serialize()
            .map_err(|_| Error::InvalidCommitment { culprit: *p })?
            .iter()
            .map(|b| element_from_bytes::<C>(b))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| Error::InvalidCommitment { culprit: *p })?;
        commitments.push(elements);
        if *p != state.me {
            r1.insert(ident::<C>(*p)?, package.clone());
        }
    }
    for (p, msg) in received {
        r2.insert(ident::<C>(*p)?, msg.inner.get::<C>()?.clone());
    }
    let secret = state.secret.get::<C>()?;
    let (key_package, frost_public) =
        fd::part3::<C>(secret, &r1, &r2).map_err(|e| frost_err::<C>(e, &state.parties))?;

    // The group's Feldman commitment: Σ of every dealer's commitment, then the
    // ciphersuite's key post-processing (f ↦ ±f + τ on secp256k1, so C_0 becomes the final
    // group key and the other coefficients flip with the sign).
    let t = usize::from(state.threshold);
    let identity = <C::Group as Group>::identity();
    let mut sum = alloc::vec![identity; t];
    for c in &commitments {
        for (s, e) in sum.iter_mut().zip(c) {
            *s = *s + *e;
        }
    }
    let c0 = sum.first().copied().ok_or(Error::Internal("empty commitment"))?;
    if C::dkg_negates(&c0) {
        for s in sum.iter_mut() {
            *s = identity - *s;
        }
    }
    let vk_bytes = frost_public
        .verifying_key()
        .serialize()
        .map_err(|_| Error::Internal("group key"))?;
    if let Some(first) = sum.first_mut() {
        *first = element_from_bytes::<C>(&vk_bytes)?;
    }
    let slices: Vec<&[Element<C>]> = commitments.iter().map(Vec::as_slice).collect();
    let epoch = keygen_epoch::<C>(b"dkg", &state.session, state.threshold, &state.parties, &slices)?;
    let public =
        PublicKeyPackage::from_parts::<C>(epoch, state.threshold, state.parties.clone(), frost_public, sum)?;
    KeyShare::from_parts::<C>(state.me, key_package, public)
}
