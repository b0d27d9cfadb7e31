//! LSS resharing of Lens keys: refresh (same set, same threshold) and reshare to any new
//! set and threshold (expansion, contraction, threshold up or down), with the group key
//! **byte-identical**, every dealer's contribution checked against the Feldman commitment
//! of the current sharing, and misbehaving dealers named (the [`crate::lss`] kernel).
//!
//! A Lens key share is a Shamir share `s_i` of the group secret with the Feldman
//! commitment `C_k` in its [`PublicKeyPackage`]; the LSS kernel reshares exactly that
//! (Feldman mode), so no conversion of the secret is involved: the frost `KeyPackage`'s
//! signing share becomes the LSS share and back, the commitment and verifying shares are
//! the LSS group's, and the group key is `C_0`, which LSS never changes.
//!
//! **Generations cannot be mixed.** The new [`KeyShare`]s and [`PublicKeyPackage`] carry
//! the epoch `(generation + 1, LSS transcript hash)`. Signing checks that the package, the
//! nonces and the key share are of one epoch and the coordinator refuses commitments and
//! shares of another epoch, naming the party ([`Error::EpochMismatch`]); a party that
//! forges the epoch tag on an old-generation share is caught by share verification
//! ([`Error::InvalidSignatureShare`]). Old shares are never modified: if the run fails,
//! the old generation keeps signing.
//!
//! **Call sequence**, for every participant (the union of dealers and receivers), with
//! the same [`Ceremony`]:
//!
//! 1. [`round1`] → [`Round1Output`]: broadcast the deal (dealers), send each share bytes to
//!    its recipient over a **confidential, authenticated** channel.
//! 2. [`Round1State::round2`] with the deals and the shares received → broadcast the
//!    complaint (receivers; possibly empty).
//! 3. [`Round2State::round3`] with the complaints → broadcast the response (dealers).
//! 4. [`Round3State::finalize`] with the responses → [`Outcome`]: the new key share, the new
//!    public key package, the qualified dealers and the blame list.
//! 5. `t_new` of the new set sign [`activation_message`] with the new shares; anyone checks
//!    the certificate with [`verify_activation`] (it verifies under the unchanged key with
//!    any standard verifier).
//!
//! Messages are the LSS kernel's bytes (`LSD1`, `LSP1`, `LSC1`, `LSR1`). A message that
//! does not decode is dropped and treated as missing (listed in [`Outcome::dropped`]), as
//! the kernel prescribes: a missing deal disqualifies its dealer, a missing complaint
//! counts as none.
//!
//! For callers who drive [`crate::lss`] themselves, [`to_lss_key_share`],
//! [`to_lss_public`], [`from_lss_key_share`] and [`from_lss_public`] convert between the
//! Lens and LSS types. These conversions keep the group key as it is, whatever the parity
//! of its `y` on secp256k1 (signing negates the key where BIP-340 needs it, as
//! `frost-secp256k1-tr` does); the one-time DKG post-processing (even-`y` normalisation
//! and the BIP-341 tweak) belongs to key generation: [`super::keygen`] applies it, and
//! [`super::keygen::key_share_from_lss`] for a DKG driven through [`crate::lss`].

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;

use frost_core::keys as fk;
use frost_core::Group;
use rand_core::CryptoRngCore;
use zeroize::{ZeroizeOnDrop, Zeroizing};

use super::ciphersuite::{
    ident, on_curve, scalar_bytes, scalar_from_bytes, with_suite, ByCurve, Family, Suite,
};
use super::keys::{KeyShare, PublicKeyPackage};
use super::{Curve, Error, KeyEpoch, Signature};
use crate::lss::{self, ActivationCertificate, ActivationKind, Blame, Kind};
use crate::vss::{self, Commitments, Mode, Share};
use crate::PartyId;

// ---------------------------------------------------------------------------------------
// Conversions between Lens and LSS types.

/// The LSS group of a Lens public key package (Feldman mode; same commitments, parties,
/// generation and transcript).
fn group_public_g<C: Suite>(public: &PublicKeyPackage) -> Result<lss::GroupPublic<<C as Suite>::Vss>, Error> {
    let st = public.state::<C>()?;
    let commitments = Commitments::<<C as Suite>::Vss>::from_points(Mode::Feldman, st.commitment.clone())
        .map_err(lss::Error::from)?;
    Ok(lss::GroupPublic::new(
        commitments,
        public.parties().to_vec(),
        public.epoch().generation,
        public.epoch().transcript,
    )?)
}

/// The LSS key share of a Lens key share: the frost signing share, unchanged.
fn lss_share_g<C: Suite>(share: &KeyShare) -> Result<lss::KeyShare<<C as Suite>::Vss>, Error> {
    let kp = share.key_package::<C>()?;
    let bytes = Zeroizing::new(kp.signing_share().serialize());
    let mut s = scalar_from_bytes::<C>(&bytes)?;
    let zero = <<C::Group as Group>::Field as frost_core::Field>::zero();
    let lss_share = Share::<<C as Suite>::Vss>::new(s, zero);
    C::wipe(&mut s);
    let group = group_public_g::<C>(share.public())?;
    Ok(lss::KeyShare::new(share.party(), lss_share, group)?)
}

/// The Lens public key package of an LSS group (Feldman mode only).
fn public_from_lss_g<C: Suite>(
    group: &lss::GroupPublic<<C as Suite>::Vss>,
) -> Result<PublicKeyPackage, Error> {
    let shares = group
        .verifying_shares()
        .ok_or(lss::Error::Vss(vss::Error::ModeMismatch))?;
    let epoch = KeyEpoch {
        generation: group.generation(),
        transcript: *group.transcript_hash(),
    };
    PublicKeyPackage::from_commitment::<C>(
        epoch,
        group.parties().to_vec(),
        group.commitments().points().to_vec(),
        &shares,
    )
}

/// The Lens key share of an LSS key share, given the already converted public package.
fn share_from_lss_g<C: Suite>(
    share: &lss::KeyShare<<C as Suite>::Vss>,
    public: &PublicKeyPackage,
) -> Result<KeyShare, Error> {
    let id = share.id();
    let st = public.state::<C>()?;
    let bytes = Zeroizing::new(scalar_bytes::<C>(share.secret_share()));
    let signing_share =
        fk::SigningShare::<C>::deserialize(&bytes).map_err(|_| Error::Internal("signing share"))?;
    let identifier = ident::<C>(id)?;
    let verifying_share = *st
        .frost
        .verifying_shares()
        .get(&identifier)
        .ok_or(Error::UnknownParty { party: id })?;
    let key_package = fk::KeyPackage::new(
        identifier,
        signing_share,
        verifying_share,
        *st.frost.verifying_key(),
        public.threshold(),
    );
    KeyShare::from_parts::<C>(id, key_package, public.clone())
}

/// Checks that the LSS curve `V` is `curve`.
fn check_curve<V: vss::Curve>(curve: Curve) -> Result<(), Error> {
    let found = Curve::from_byte(V::ID)?;
    if found == curve {
        Ok(())
    } else {
        Err(Error::WrongCurve {
            expected: curve,
            found,
        })
    }
}

/// The LSS group (Feldman mode) of a Lens public key package, for callers who drive
/// [`crate::lss`] themselves.
///
/// # Errors
/// [`Error::WrongCurve`] when `V` is not the package's curve; [`Error::Lss`].
pub fn to_lss_public<V: vss::Curve>(public: &PublicKeyPackage) -> Result<lss::GroupPublic<V>, Error> {
    check_curve::<V>(public.curve())?;
    let bytes = with_suite!(public.curve(), C => group_public_g::<C>(public)?.to_bytes());
    Ok(lss::GroupPublic::<V>::from_bytes(&bytes)?)
}

/// The LSS key share of a Lens key share (the same secret share, Feldman mode).
///
/// # Errors
/// [`Error::WrongCurve`] when `V` is not the share's curve; [`Error::Lss`].
///
/// # Security
/// The result holds the secret share.
pub fn to_lss_key_share<V: vss::Curve>(share: &KeyShare) -> Result<lss::KeyShare<V>, Error> {
    check_curve::<V>(share.curve())?;
    let bytes = with_suite!(share.curve(), C => lss_share_g::<C>(share)?.to_bytes());
    Ok(lss::KeyShare::<V>::from_bytes(&bytes)?)
}

/// The Lens public key package of an LSS group (Feldman mode).
///
/// # Errors
/// [`Error::Decode`] for an unknown curve; [`Error::Lss`] for a Pedersen-mode group;
/// [`Error::Decode`] for a group whose key or shares are not valid frost elements.
pub fn from_lss_public<V: vss::Curve>(public: &lss::GroupPublic<V>) -> Result<PublicKeyPackage, Error> {
    let curve = Curve::from_byte(V::ID)?;
    let bytes = public.to_bytes();
    with_suite!(curve, C => public_from_lss_bytes::<C>(&bytes))
}

fn public_from_lss_bytes<C: Suite>(bytes: &[u8]) -> Result<PublicKeyPackage, Error> {
    let group = lss::GroupPublic::<<C as Suite>::Vss>::from_bytes(bytes)?;
    public_from_lss_g::<C>(&group)
}

/// The Lens key share of an LSS key share (Feldman mode).
///
/// # Errors
/// As [`from_lss_public`].
pub fn from_lss_key_share<V: vss::Curve>(share: &lss::KeyShare<V>) -> Result<KeyShare, Error> {
    let curve = Curve::from_byte(V::ID)?;
    let bytes = share.to_bytes();
    with_suite!(curve, C => share_from_lss_bytes::<C>(&bytes))
}

fn share_from_lss_bytes<C: Suite>(bytes: &[u8]) -> Result<KeyShare, Error> {
    let share = lss::KeyShare::<<C as Suite>::Vss>::from_bytes(bytes)?;
    let public = public_from_lss_g::<C>(share.public())?;
    share_from_lss_g::<C>(&share, &public)
}

// ---------------------------------------------------------------------------------------
// The runtime-curve resharing state machine.

pub(crate) struct CeremonyF;
impl Family for CeremonyF {
    type Of<C: Suite> = lss::Ceremony<<C as Suite>::Vss>;
}
pub(crate) struct State1F;
impl Family for State1F {
    type Of<C: Suite> = lss::Round1State<<C as Suite>::Vss>;
}
pub(crate) struct State2F;
impl Family for State2F {
    type Of<C: Suite> = lss::Round2State<<C as Suite>::Vss>;
}
pub(crate) struct State3F;
impl Family for State3F {
    type Of<C: Suite> = lss::Round3State<<C as Suite>::Vss>;
}

/// The public parameters of one refresh or reshare of a Lens key, identical at every
/// participant: session id, dealers, receivers, new threshold, and the current
/// generation's public key package.
#[derive(Clone)]
pub struct Ceremony {
    old_epoch: KeyEpoch,
    inner: ByCurve<CeremonyF>,
}

impl fmt::Debug for Ceremony {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        on_curve!(&self.inner, c => fmt::Debug::fmt(c, f))
    }
}

impl Ceremony {
    /// A refresh (same set, same threshold, fresh shares of the same key) by `dealers`
    /// (at least `t` current parties; more lets a cheater be dropped).
    ///
    /// `session` must be unique to this run and the same at every participant.
    ///
    /// # Errors
    /// [`Error::Lss`]: `DuplicateParty`, `DealerNotInOldSet`, `NotEnoughDealers`.
    pub fn refresh(
        session: [u8; 32],
        public: &PublicKeyPackage,
        dealers: &[PartyId],
    ) -> Result<Ceremony, Error> {
        with_suite!(public.curve(), C => {
            let group = group_public_g::<C>(public)?;
            Ok(Ceremony {
                old_epoch: public.epoch(),
                inner: C::wrap(lss::Ceremony::<<C as Suite>::Vss>::refresh(session, &group, dealers)?),
            })
        })
    }

    /// A reshare (redistribution) of the key to `receivers` with threshold `threshold`,
    /// dealt by `dealers`: at least `t_old` current parties (more lets a cheater be
    /// dropped without restarting). Receivers may overlap the current set or not.
    ///
    /// # Errors
    /// [`Error::Lss`]: `DuplicateParty`, `DealerNotInOldSet`, `NotEnoughDealers`,
    /// `InvalidThreshold`.
    pub fn reshare(
        session: [u8; 32],
        public: &PublicKeyPackage,
        dealers: &[PartyId],
        receivers: &[PartyId],
        threshold: u16,
    ) -> Result<Ceremony, Error> {
        with_suite!(public.curve(), C => {
            let group = group_public_g::<C>(public)?;
            Ok(Ceremony {
                old_epoch: public.epoch(),
                inner: C::wrap(lss::Ceremony::<<C as Suite>::Vss>::reshare(
                    session, &group, dealers, receivers, threshold,
                )?),
            })
        })
    }

    /// The curve.
    pub fn curve(&self) -> Curve {
        self.inner.curve()
    }

    /// Refresh or reshare.
    pub fn kind(&self) -> Kind {
        on_curve!(&self.inner, c => c.kind())
    }

    /// The dealers, increasing.
    pub fn dealers(&self) -> &[PartyId] {
        on_curve!(&self.inner, c => c.dealers())
    }

    /// The receivers (the new set), increasing.
    pub fn receivers(&self) -> &[PartyId] {
        on_curve!(&self.inner, c => c.receivers())
    }

    /// The new threshold.
    pub fn threshold(&self) -> u16 {
        on_curve!(&self.inner, c => c.threshold())
    }

    /// The epoch of the key being reshared.
    pub fn old_epoch(&self) -> KeyEpoch {
        self.old_epoch
    }

    /// The generation the run produces (the old one + 1).
    pub fn new_generation(&self) -> u64 {
        on_curve!(&self.inner, c => c.new_generation())
    }
}

/// What [`round1`] produces for the network.
pub struct Round1Output {
    /// The dealer's commitments (`LSD1`), to **broadcast**; `None` for a party that only
    /// receives.
    pub deal: Option<Vec<u8>>,
    /// One share message (`LSP1`) per other receiver, by recipient: send each over a
    /// **confidential, authenticated** channel.
    ///
    /// # Security
    /// Secret; the buffers are wiped on drop.
    pub shares: BTreeMap<PartyId, Zeroizing<Vec<u8>>>,
}

impl fmt::Debug for Round1Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Round1Output")
            .field("deal", &self.deal.as_ref().map(Vec::len))
            .field("shares", &self.shares.len())
            .finish()
    }
}

/// What a successful run gives each participant.
#[derive(Debug)]
pub struct Outcome {
    /// This party's key share of the new generation (receivers only). The old share is
    /// untouched; discard it once the activation certificate verifies.
    pub key_share: Option<KeyShare>,
    /// The new generation's public key package: same group key, new epoch.
    pub public: PublicKeyPackage,
    /// The dealers whose contributions were used, increasing.
    pub qualified: Vec<PartyId>,
    /// Every party blamed, and why (identical at every honest participant).
    pub blame: Vec<Blame>,
    /// Senders whose messages did not decode and were treated as missing, increasing.
    pub dropped: Vec<PartyId>,
}

/// A participant's state after [`round1`].
///
/// # Security
/// Holds the dealer's secret polynomial and received shares; wiped on drop; never sent.
pub struct Round1State {
    pub(super) me: PartyId,
    pub(super) dropped: Vec<PartyId>,
    pub(super) inner: ByCurve<State1F>,
}

/// A participant's state after [`Round1State::round2`].
///
/// # Security
/// As [`Round1State`].
pub struct Round2State {
    pub(super) me: PartyId,
    pub(super) dropped: Vec<PartyId>,
    pub(super) inner: ByCurve<State2F>,
}

/// A participant's state after [`Round2State::round3`].
///
/// # Security
/// As [`Round1State`].
pub struct Round3State {
    pub(super) me: PartyId,
    pub(super) dropped: Vec<PartyId>,
    pub(super) inner: ByCurve<State3F>,
}

// The kernel's states zeroize their secrets on drop.
impl ZeroizeOnDrop for Round1State {}
impl ZeroizeOnDrop for Round2State {}
impl ZeroizeOnDrop for Round3State {}

macro_rules! redacted_debug {
    ($t:ident) => {
        impl fmt::Debug for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($t))
                    .field("me", &self.me)
                    .field("curve", &self.inner.curve())
                    .field("secrets", &"<redacted>")
                    .finish()
            }
        }
    };
}
redacted_debug!(Round1State);
redacted_debug!(Round2State);
redacted_debug!(Round3State);

/// Decodes every message with `decode`, dropping (and recording) those that fail.
pub(super) fn decode_all<T, B: AsRef<[u8]>>(
    messages: &BTreeMap<PartyId, B>,
    dropped: &mut Vec<PartyId>,
    decode: impl Fn(&[u8]) -> Option<T>,
) -> BTreeMap<PartyId, T> {
    let mut out = BTreeMap::new();
    for (sender, bytes) in messages {
        match decode(bytes.as_ref()) {
            Some(m) => {
                out.insert(*sender, m);
            }
            None => dropped.push(*sender),
        }
    }
    out
}

/// Round 1 of a refresh or reshare: deal (dealers) and set up this party's state.
///
/// `old_share` is this party's current key share: required for every party of a refresh
/// and for the dealers of a reshare; new receivers pass `None`. It is only read.
///
/// # Errors
/// [`Error::WrongCurve`]; [`Error::EpochMismatch`] when `old_share` is not of the
/// ceremony's generation; [`Error::Lss`]: `NotAParticipant`, `MissingOldShare`,
/// `OldShareMismatch`.
///
/// # Security
/// Randomness comes from `rng` only.
pub fn round1<R: CryptoRngCore + ?Sized>(
    ceremony: &Ceremony,
    me: PartyId,
    old_share: Option<&KeyShare>,
    rng: &mut R,
) -> Result<(Round1State, Round1Output), Error> {
    if let Some(share) = old_share {
        if share.curve() != ceremony.curve() {
            return Err(Error::WrongCurve {
                expected: ceremony.curve(),
                found: share.curve(),
            });
        }
        if share.epoch() != ceremony.old_epoch {
            return Err(Error::EpochMismatch {
                party: None,
                expected: ceremony.old_epoch,
                found: share.epoch(),
            });
        }
        if share.party() != me {
            return Err(lss::Error::OldShareMismatch { party: me }.into());
        }
    }
    with_suite!(ceremony.curve(), C => {
        let c = ceremony.inner.get::<C>()?.clone();
        let old = old_share.map(lss_share_g::<C>).transpose()?;
        let (state, out) = lss::round1::<<C as Suite>::Vss>(c, me, old.as_ref(), &mut &mut *rng)?;
        let deal = out.broadcast.map(|d| d.to_bytes());
        let shares = out.shares.iter().map(|m| (m.to(), m.to_bytes())).collect();
        Ok((
            Round1State { me, dropped: Vec::new(), inner: C::wrap(state) },
            Round1Output { deal, shares },
        ))
    })
}

impl Round1State {
    /// Round 2: checks every deal (commitment degree, constant term against the current
    /// commitment) and this party's shares; returns this party's complaint broadcast
    /// (`LSC1`; receivers only; possibly empty), to broadcast.
    ///
    /// `deals` are the dealers' broadcasts and `shares` the share messages sent to this
    /// party, each keyed by the transport-authenticated sender.
    ///
    /// # Errors
    /// [`Error::Lss`]: `UnknownParty`, `SenderMismatch`, `SessionMismatch`,
    /// `WrongRecipient`, `ParameterMismatch`, `ConflictingMessage` (naming the sender).
    pub fn round2<B: AsRef<[u8]>, S: AsRef<[u8]>>(
        self,
        deals: &BTreeMap<PartyId, B>,
        shares: &BTreeMap<PartyId, S>,
    ) -> Result<(Round2State, Option<Vec<u8>>), Error> {
        let Round1State {
            me,
            mut dropped,
            inner,
        } = self;
        with_suite!(inner.curve(), C => {
            let state = inner.into_inner::<C>()?;
            let deals = decode_all(deals, &mut dropped, |b| {
                lss::DealMessage::<<C as Suite>::Vss>::from_bytes(b).ok()
            });
            let shares = decode_all(shares, &mut dropped, |b| {
                lss::ShareMessage::<<C as Suite>::Vss>::from_bytes(b).ok()
            });
            let (state, complaint) = state.round2(deals, shares)?;
            Ok((
                Round2State { me, dropped, inner: C::wrap(state) },
                complaint.map(|c| c.to_bytes()),
            ))
        })
    }
}

impl Round2State {
    /// The parties blamed so far (by the public checks of round 2).
    pub fn blame(&self) -> &[Blame] {
        on_curve!(&self.inner, s => s.blame())
    }

    /// Round 3: reads every receiver's complaints; returns this party's response
    /// (`LSR1`; dealers only: the openings of the complainers' shares), to broadcast.
    ///
    /// # Errors
    /// [`Error::Lss`]: `UnknownParty`, `SenderMismatch`, `SessionMismatch`,
    /// `ParameterMismatch`, `ConflictingMessage`.
    pub fn round3<B: AsRef<[u8]>>(
        self,
        complaints: &BTreeMap<PartyId, B>,
    ) -> Result<(Round3State, Option<Vec<u8>>), Error> {
        let Round2State {
            me,
            mut dropped,
            inner,
        } = self;
        with_suite!(inner.curve(), C => {
            let state = inner.into_inner::<C>()?;
            let complaints = decode_all(complaints, &mut dropped, |b| {
                lss::ComplaintMessage::<<C as Suite>::Vss>::from_bytes(b).ok()
            });
            let (state, response) = state.round3(complaints)?;
            Ok((
                Round3State { me, dropped, inner: C::wrap(state) },
                response.map(|r| r.to_bytes()),
            ))
        })
    }
}

impl Round3State {
    /// Finalize: resolves complaints with the openings, fixes the qualified dealers,
    /// combines, and converts the result into the new generation's Lens key share and
    /// public key package (same group key, bytes and all).
    ///
    /// # Errors
    /// [`Error::Lss`] with `NotEnoughQualified` (listing every culprit) when too few
    /// dealers qualify — the old generation stays valid; envelope errors as in round 3.
    pub fn finalize<B: AsRef<[u8]>>(self, responses: &BTreeMap<PartyId, B>) -> Result<Outcome, Error> {
        let Round3State {
            me: _,
            mut dropped,
            inner,
        } = self;
        with_suite!(inner.curve(), C => {
            let state = inner.into_inner::<C>()?;
            let responses = decode_all(responses, &mut dropped, |b| {
                lss::ResponseMessage::<<C as Suite>::Vss>::from_bytes(b).ok()
            });
            let outcome = state.finalize(responses)?;
            let public = public_from_lss_g::<C>(&outcome.public)?;
            let key_share = outcome
                .key_share
                .as_ref()
                .map(|share| share_from_lss_g::<C>(share, &public))
                .transpose()?;
            dropped.sort_unstable();
            dropped.dedup();
            Ok(Outcome {
                key_share,
                public,
                qualified: outcome.qualified,
                blame: outcome.blame,
                dropped,
            })
        })
    }
}

// ---------------------------------------------------------------------------------------
// Activation

/// The message the new set signs to activate its generation (the LSS activation message:
/// `QUASAR-LENS-ACTIVATE-v1` ‖ transcript hash ‖ u64 generation, from the package's
/// epoch).
pub fn activation_message(public: &PublicKeyPackage) -> Vec<u8> {
    let epoch = public.epoch();
    lss::activation_message(ActivationKind::Lens, &epoch.transcript, epoch.generation)
}

/// Builds the activation certificate of `public`'s generation from a Lens signature over
/// [`activation_message`], after checking that it verifies under the group key.
///
/// # Errors
/// [`Error::WrongCurve`], [`Error::InvalidSignature`].
pub fn activation_certificate(
    public: &PublicKeyPackage,
    signature: &Signature,
) -> Result<ActivationCertificate, Error> {
    if signature.curve() != public.curve() {
        return Err(Error::WrongCurve {
            expected: public.curve(),
            found: signature.curve(),
        });
    }
    let group_key = public.group_key_bytes();
    signature.verify(&group_key, &activation_message(public))?;
    let epoch = public.epoch();
    Ok(ActivationCertificate {
        kind: ActivationKind::Lens,
        transcript_hash: epoch.transcript,
        generation: epoch.generation,
        group_key,
        signature: signature.to_bytes().to_vec(),
    })
}

/// Verifies an activation certificate against the expected generation: it must be a Lens
/// certificate naming `public`'s epoch and group key, signed under that key.
///
/// # Errors
/// [`Error::Lss`] with `ActivationMismatch` (wrong kind, epoch or key) or
/// `InvalidActivation` (the signature does not verify).
pub fn verify_activation(
    public: &PublicKeyPackage,
    certificate: &ActivationCertificate,
) -> Result<(), Error> {
    let curve = public.curve();
    let group_key = public.group_key_bytes();
    let epoch = public.epoch();
    certificate.verify_expected(
        ActivationKind::Lens,
        &epoch.transcript,
        epoch.generation,
        &group_key,
        |message, signature| super::verify(curve, &group_key, message, signature).is_ok(),
    )?;
    Ok(())
}
