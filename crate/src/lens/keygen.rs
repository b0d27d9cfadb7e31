//! Distributed key generation of Lens keys over the LSS kernel — **the recommended way to
//! make a Lens key without a trusted dealer.**
//!
//! Every party deals a random polynomial in the [`crate::lss`] kernel's **Feldman mode**,
//! broadcasting its commitments with a Schnorr proof of knowledge of the constant term
//! (bound to the session, the curve and the dealer, against rogue-key contributions); the
//! key is the sum over the **qualified** dealers. Compared with the FROST DKG of
//! [`super::dkg`] (`frost-core`'s `keys::dkg`):
//!
//! - **Cheaters are excluded, not fatal.** A dealer whose share does not match its
//!   commitments is accused in a complaint, must open the share publicly, and is
//!   disqualified and named (in [`Outcome::blame`]) if it cannot; so is a dealer with a
//!   missing deal, a bad proof of knowledge or a malformed commitment. The DKG succeeds as
//!   long as `t` dealers qualify, and every honest party ends with the same key. (The
//!   FROST DKG aborts at the first bad share and has to be rerun.)
//! - **Batched checks.** A receiver checks all its shares with one random-weight batch
//!   instead of `n` polynomial evaluations in the group each (FROST's `part3` costs
//!   `O(n·t)` scalar multiplications per party, `O(n²·t)` for the group): see the cost
//!   section of [`crate::lss`].
//! - One more broadcast round (complaints), and a fourth (responses) that is empty in an
//!   honest run.
//!
//! The key's epoch is generation 0 with the LSS transcript hash (which binds the session,
//! the parties, every broadcast, the qualified set and the blame list); refresh and reshare
//! ([`super::reshare`]) continue from it as from any Lens key.
//!
//! **secp256k1.** The result is post-processed exactly as `frost-secp256k1-tr` (and so
//! [`super::dkg`]) post-processes its DKG keys: if the summed group key `P` has an odd `y`
//! the whole sharing is negated (BIP-340 even-`y` normalisation), then the BIP-341
//! unspendable-script tweak `τ = H_TapTweak(x(P))` is added (`f ↦ ±f + τ`); the Feldman
//! commitment follows (`C_0` becomes the final group key, the other coefficients flip with
//! the sign). Signatures then verify under BIP-340 with the x-only group key. On Ed25519
//! and Ristretto255 the key is the plain sum.
//!
//! **Call sequence**, for every party of `parties`, with the same [`Ceremony`]:
//!
//! 1. [`round1`] → [`Round1Output`]: **broadcast** the deal (`LSD1`: commitments and
//!    proof); send each share (`LSP1`) to its recipient over a **confidential,
//!    authenticated** channel.
//! 2. [`Round1State::round2`] with the deals and the shares received → **broadcast** the
//!    complaint (`LSC1`, empty when every share checked).
//! 3. [`Round2State::round3`] with the complaints → **broadcast** the response (`LSR1`,
//!    the openings of the shares complained about; empty in an honest run).
//! 4. [`Round3State::finalize`] with the responses → [`Outcome`]: the [`KeyShare`], the
//!    [`PublicKeyPackage`], the qualified dealers and the blame list (identical at every
//!    honest party).
//!
//! Messages that do not decode are dropped and treated as missing (listed in
//! [`Outcome::dropped`]): a missing deal disqualifies its dealer, a missing complaint
//! counts as none. Round 1 and the complaints need a reliable broadcast channel.
//!
//! For callers who drive [`crate::lss`] themselves (`Ceremony::dkg(session,
//! Mode::Feldman, parties, t)`, `lss::round1` … `finalize`), [`key_share_from_lss`]
//! turns the kernel's key share into the Lens key share (and its public package) with the
//! same post-processing.
//!
//! ```
//! use std::collections::BTreeMap;
//! use quasar_pq::lens::{self, keygen, Curve};
//! use quasar_pq::PartyId;
//! use rand_chacha::rand_core::SeedableRng;
//!
//! let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
//! let ids: Vec<PartyId> = (1..=3).filter_map(PartyId::new).collect();
//! let ceremony = keygen::Ceremony::new(Curve::Secp256k1, [7; 32], &ids, 2).unwrap();
//! // Round 1: deal. (Every message crosses as bytes; shares go encrypted in real life.)
//! let (mut states, mut deals, mut shares) = (BTreeMap::new(), BTreeMap::new(), BTreeMap::new());
//! for &p in &ids {
//!     let (state, out) = keygen::round1(&ceremony, p, &mut rng).unwrap();
//!     deals.insert(p, out.deal);
//!     for (to, bytes) in out.shares {
//!         shares.entry(to).or_insert_with(BTreeMap::new).insert(p, bytes);
//!     }
//!     states.insert(p, state);
//! }
//! // Round 2: check, complain. Round 3: answer complaints. Then finalize.
//! let mut complaints = BTreeMap::new();
//! let mut next = BTreeMap::new();
//! for (p, s) in states {
//!     let (s, complaint) = s.round2(&deals, &shares[&p]).unwrap();
//!     complaints.insert(p, complaint.unwrap());
//!     next.insert(p, s);
//! }
//! let mut responses = BTreeMap::new();
//! let mut last = BTreeMap::new();
//! for (p, s) in next {
//!     let (s, response) = s.round3(&complaints).unwrap();
//!     responses.insert(p, response.unwrap());
//!     last.insert(p, s);
//! }
//! let outcomes: BTreeMap<_, _> =
//!     last.into_iter().map(|(p, s)| (p, s.finalize(&responses).unwrap())).collect();
//! let public = &outcomes[&ids[0]].public;
//! assert!(outcomes.values().all(|o| o.blame.is_empty() && &o.public == public));
//! assert_eq!(public.epoch().generation, 0);
//! ```

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::vec::Vec;
use core::fmt;

use frost_core::keys as fk;
use frost_core::{Ciphersuite, Field, Group};
use rand_core::CryptoRngCore;
use zeroize::{ZeroizeOnDrop, Zeroizing};

use super::ciphersuite::{
    element_bytes, element_from_bytes, frost_err, ident, on_curve, scalar_bytes, scalar_from_bytes,
    with_suite, ByCurve, Suite,
};
use super::keys::{check_keygen_params, KeyShare, PublicKeyPackage};
use super::reshare::{self, decode_all, CeremonyF};
use super::{Curve, Error, KeyEpoch};
use crate::lss::{self, Blame};
use crate::vss::{self, Commitments, Mode, Share};
use crate::PartyId;

/// The public parameters of one Lens key generation, identical at every party: the
/// curve, the session id, the parties (each both dealer and receiver) and the threshold.
#[derive(Clone)]
pub struct Ceremony {
    inner: ByCurve<CeremonyF>,
}

impl fmt::Debug for Ceremony {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        on_curve!(&self.inner, c => fmt::Debug::fmt(c, f))
    }
}

impl Ceremony {
    /// A key generation among `parties` (any order) with threshold `threshold`: the LSS
    /// kernel's DKG in Feldman mode (`lss::Ceremony::dkg(session, Mode::Feldman, …)`).
    ///
    /// `session` must be unique to this run and the same at every party; it is bound into
    /// every message and the transcript.
    ///
    /// # Errors
    /// [`Error::InvalidThreshold`] unless 2 ≤ `threshold` ≤ `parties.len()`;
    /// [`Error::Lss`] with `DuplicateParty` for a repeated party.
    pub fn new(
        curve: Curve,
        session: [u8; 32],
        parties: &[PartyId],
        threshold: u16,
    ) -> Result<Ceremony, Error> {
        let set: BTreeSet<PartyId> = parties.iter().copied().collect();
        if set.len() == parties.len() {
            check_keygen_params(threshold, &set)?;
        }
        with_suite!(curve, C => {
            // Also reports a repeated party.
            let c = lss::Ceremony::<<C as Suite>::Vss>::dkg(session, Mode::Feldman, parties, threshold)?;
            Ok(Ceremony { inner: C::wrap(c) })
        })
    }

    /// The curve.
    pub fn curve(&self) -> Curve {
        self.inner.curve()
    }

    /// The session id.
    pub fn session(&self) -> [u8; 32] {
        on_curve!(&self.inner, c => *c.session())
    }

    /// The parties, increasing.
    pub fn parties(&self) -> &[PartyId] {
        on_curve!(&self.inner, c => c.receivers())
    }

    /// The threshold.
    pub fn threshold(&self) -> u16 {
        on_curve!(&self.inner, c => c.threshold())
    }
}

/// What [`round1`] produces for the network.
pub struct Round1Output {
    /// The deal (`LSD1`: Feldman commitments and the proof of knowledge), to
    /// **broadcast**.
    pub deal: Vec<u8>,
    /// One share message (`LSP1`) per other party, by recipient: send each over a
    /// **confidential, authenticated** channel.
    ///
    /// # Security
    /// Secret; the buffers are wiped on drop.
    pub shares: BTreeMap<PartyId, Zeroizing<Vec<u8>>>,
}

impl fmt::Debug for Round1Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("keygen::Round1Output")
            .field("deal", &self.deal.len())
            .field("shares", &self.shares.len())
            .finish()
    }
}

/// What a successful key generation gives each party.
#[derive(Debug)]
pub struct Outcome {
    /// This party's key share (generation 0).
    pub key_share: KeyShare,
    /// The group's public key package (identical at every honest party).
    pub public: PublicKeyPackage,
    /// The dealers whose contributions make the key, increasing.
    pub qualified: Vec<PartyId>,
    /// Every party blamed, and why (identical at every honest party). A disqualified
    /// dealer still holds a share of the key: exclude it from signing if you no longer
    /// trust it.
    pub blame: Vec<Blame>,
    /// Senders whose messages did not decode and were treated as missing, increasing.
    pub dropped: Vec<PartyId>,
}

/// A party's state after [`round1`].
///
/// # Security
/// Holds the party's secret polynomial and its own share; wiped on drop; never sent.
pub struct Round1State(reshare::Round1State);

/// A party's state after [`Round1State::round2`].
///
/// # Security
/// As [`Round1State`].
pub struct Round2State(reshare::Round2State);

/// A party's state after [`Round2State::round3`].
///
/// # Security
/// As [`Round1State`].
pub struct Round3State(reshare::Round3State);

// The kernel's states zeroize their secrets on drop.
impl ZeroizeOnDrop for Round1State {}
impl ZeroizeOnDrop for Round2State {}
impl ZeroizeOnDrop for Round3State {}

macro_rules! redacted_debug {
    ($t:ident) => {
        impl fmt::Debug for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(concat!("keygen::", stringify!($t)))
                    .field("me", &self.0.me)
                    .field("curve", &self.0.inner.curve())
                    .field("secrets", &"<redacted>")
                    .finish()
            }
        }
    };
}
redacted_debug!(Round1State);
redacted_debug!(Round2State);
redacted_debug!(Round3State);

/// Round 1: samples this party's polynomial of degree `t − 1`, commits to it, proves
/// knowledge of its constant term and computes every party's share.
///
/// # Errors
/// [`Error::UnknownParty`] when `me` is not one of the ceremony's parties.
///
/// # Security
/// Randomness comes from `rng` only.
pub fn round1<R: CryptoRngCore + ?Sized>(
    ceremony: &Ceremony,
    me: PartyId,
    rng: &mut R,
) -> Result<(Round1State, Round1Output), Error> {
    if ceremony.parties().binary_search(&me).is_err() {
        return Err(Error::UnknownParty { party: me });
    }
    with_suite!(ceremony.curve(), C => {
        let c = ceremony.inner.get::<C>()?.clone();
        let (state, out) = lss::round1::<<C as Suite>::Vss>(c, me, None, &mut &mut *rng)?;
        let deal = out
            .broadcast
            .map(|d| d.to_bytes())
            .ok_or(Error::Internal("every DKG party deals"))?;
        let shares = out.shares.iter().map(|m| (m.to(), m.to_bytes())).collect();
        Ok((
            Round1State(reshare::Round1State { me, dropped: Vec::new(), inner: C::wrap(state) }),
            Round1Output { deal, shares },
        ))
    })
}

impl Round1State {
    /// Round 2: checks every deal (shape, proof of knowledge) and this party's shares (one
    /// batch); returns this party's complaint (`LSC1`, possibly empty), to **broadcast**.
    ///
    /// `deals` are the parties' round-1 broadcasts and `shares` the share messages sent to
    /// this party, each keyed by the transport-authenticated sender (this party's own deal
    /// may be included; it must then be identical).
    ///
    /// # Errors
    /// [`Error::Lss`]: `UnknownParty`, `SenderMismatch`, `SessionMismatch`,
    /// `WrongRecipient`, `ParameterMismatch`, `ConflictingMessage` (naming the sender).
    pub fn round2<B: AsRef<[u8]>, S: AsRef<[u8]>>(
        self,
        deals: &BTreeMap<PartyId, B>,
        shares: &BTreeMap<PartyId, S>,
    ) -> Result<(Round2State, Option<Vec<u8>>), Error> {
        let (state, complaint) = self.0.round2(deals, shares)?;
        Ok((Round2State(state), complaint))
    }
}

impl Round2State {
    /// The parties blamed so far (by the public checks of round 2).
    pub fn blame(&self) -> &[Blame] {
        self.0.blame()
    }

    /// Round 3: reads every party's complaint; returns this party's response (`LSR1`: the
    /// openings of the shares complained about), to **broadcast**.
    ///
    /// # Errors
    /// [`Error::Lss`]: `UnknownParty`, `SenderMismatch`, `SessionMismatch`,
    /// `ParameterMismatch`, `ConflictingMessage`.
    pub fn round3<B: AsRef<[u8]>>(
        self,
        complaints: &BTreeMap<PartyId, B>,
    ) -> Result<(Round3State, Option<Vec<u8>>), Error> {
        let (state, response) = self.0.round3(complaints)?;
        Ok((Round3State(state), response))
    }
}

impl Round3State {
    /// Finalize: resolves complaints with the openings, disqualifies and names cheating
    /// dealers, sums the qualified dealers' contributions and returns the key share and
    /// the public key package (after the ciphersuite's post-processing: see the module
    /// docs).
    ///
    /// # Errors
    /// [`Error::Lss`] with `NotEnoughQualified` (listing every culprit) when fewer than `t`
    /// dealers qualify; envelope errors as in round 3.
    pub fn finalize<B: AsRef<[u8]>>(self, responses: &BTreeMap<PartyId, B>) -> Result<Outcome, Error> {
        let reshare::Round3State {
            me: _,
            mut dropped,
            inner,
        } = self.0;
        with_suite!(inner.curve(), C => {
            let state = inner.into_inner::<C>()?;
            let responses = decode_all(responses, &mut dropped, |b| {
                lss::ResponseMessage::<<C as Suite>::Vss>::from_bytes(b).ok()
            });
            let outcome = state.finalize(responses)?;
            let share = outcome
                .key_share
                .as_ref()
                .ok_or(Error::Internal("a DKG party without a share"))?;
            let key_share = lens_share_g::<C>(share)?;
            dropped.sort_unstable();
            dropped.dedup();
            Ok(Outcome {
                public: key_share.public().clone(),
                key_share,
                qualified: outcome.qualified,
                blame: outcome.blame,
                dropped,
            })
        })
    }
}

/// The Lens key share (with its public key package) of a key share produced by an LSS
/// **Feldman-mode DKG** (generation 0), after the ciphersuite's DKG post-processing (on
/// secp256k1: BIP-340 even-`y` normalisation and the BIP-341 unspendable tweak, as in
/// `frost-secp256k1-tr`; nothing on the other curves). Every party of the DKG gets the
/// same group key and public package.
///
/// Use this when driving [`crate::lss`] directly; [`Round3State::finalize`] calls it.
/// For refreshed or reshared shares (generation ≥ 1, already post-processed) use
/// [`reshare::from_lss_key_share`].
///
/// # Errors
/// [`Error::EpochMismatch`] for a share of generation ≥ 1; [`Error::Lss`] for a
/// Pedersen-mode share; [`Error::Decode`] for an unknown curve.
///
/// # Security
/// Reads the secret share; the result holds it.
pub fn key_share_from_lss<V: vss::Curve>(share: &lss::KeyShare<V>) -> Result<KeyShare, Error> {
    let curve = Curve::from_byte(V::ID)?;
    let bytes = share.to_bytes();
    with_suite!(curve, C => {
        let share = lss::KeyShare::<<C as Suite>::Vss>::from_bytes(&bytes)?;
        lens_share_g::<C>(&share)
    })
}

fn lens_share_g<C: Suite>(share: &lss::KeyShare<<C as Suite>::Vss>) -> Result<KeyShare, Error> {
    if share.public().mode() != Mode::Feldman {
        return Err(lss::Error::Vss(vss::Error::ModeMismatch).into());
    }
    if share.generation() != 0 {
        let found = KeyEpoch {
            generation: share.generation(),
            transcript: *share.transcript_hash(),
        };
        return Err(Error::EpochMismatch {
            party: None,
            expected: KeyEpoch {
                generation: 0,
                ..found
            },
            found,
        });
    }
    match post_process::<C>(share)? {
        Some(processed) => reshare::from_lss_key_share(&processed),
        None => reshare::from_lss_key_share(share),
    }
}

/// Applies the ciphersuite's DKG post-processing (`Ciphersuite::post_dkg`) to the sharing:
/// `None` when it changes nothing (Ed25519, Ristretto255); otherwise the LSS key share of
/// the processed sharing `±f + τ` with its commitment `[Y, ±C_1, …, ±C_{t−1}]`, where `Y`
/// is frost's processed group key. [`lss::KeyShare::new`] checks the new share against
/// the new commitment, so the derivation is verified, not assumed.
fn post_process<C: Suite>(
    share: &lss::KeyShare<<C as Suite>::Vss>,
) -> Result<Option<lss::KeyShare<<C as Suite>::Vss>>, Error> {
    let group = share.public();
    let points = group.commitments().points();
    let c0 = *group.commitments().constant();
    let threshold = group.threshold();
    let vk = frost_core::VerifyingKey::<C>::deserialize(&element_bytes::<C>(&c0)?)
        .map_err(|_| Error::Internal("group key"))?;
    let bytes = Zeroizing::new(scalar_bytes::<C>(share.secret_share()));
    let signing = fk::SigningShare::<C>::deserialize(&bytes).map_err(|_| Error::Internal("signing share"))?;
    let key_package = fk::KeyPackage::new(
        ident::<C>(share.id())?,
        signing,
        fk::VerifyingShare::<C>::from(signing),
        vk,
        threshold,
    );
    let public = fk::PublicKeyPackage::new(BTreeMap::new(), vk, Some(threshold));
    let (key_package, _) =
        <C as Ciphersuite>::post_dkg(key_package, public).map_err(|e| frost_err::<C>(e, group.parties()))?;
    if *key_package.verifying_key() == vk {
        return Ok(None);
    }
    let negate = C::dkg_negates(&c0);
    let group_key = key_package
        .verifying_key()
        .serialize()
        .map_err(|_| Error::Internal("group key"))?;
    let identity = <C::Group as Group>::identity();
    let mut commitment = Vec::with_capacity(points.len());
    commitment.push(element_from_bytes::<C>(&group_key)?);
    commitment.extend(
        points
            .iter()
            .skip(1)
            .map(|p| if negate { identity - *p } else { *p }),
    );
    let commitments =
        Commitments::<<C as Suite>::Vss>::from_points(Mode::Feldman, commitment).map_err(lss::Error::from)?;
    let processed_group = lss::GroupPublic::new(
        commitments,
        group.parties().to_vec(),
        group.generation(),
        *group.transcript_hash(),
    )?;
    let bytes = Zeroizing::new(key_package.signing_share().serialize());
    let mut value = scalar_from_bytes::<C>(&bytes)?;
    let zero = <<C::Group as Group>::Field as Field>::zero();
    let processed = lss::KeyShare::new(share.id(), Share::new(value, zero), processed_group);
    C::wipe(&mut value);
    Ok(Some(processed?))
}
