//! The LSS types with the group chosen at run time: one enum per type, one variant per
//! [`CurveId`], for the byte-level layers (WASM, JS, the CLI, Lens over its three
//! ciphersuites) that learn the group from a parameter or a message.
//!
//! Each enum converts from its curve-generic type (`From`) and back
//! (`into_curve::<C>()` / `as_curve::<C>()`, [`Error::WrongCurve`] when the group
//! differs). [`Dealing`] is the [`DealingParty`] of any group.

use alloc::vec::Vec;
use core::fmt;

use rand_core::CryptoRngCore;
use zeroize::Zeroizing;

use super::{Ceremony, DealingParty, Error, GroupPublic, KeyShare, Outcome};
use crate::party::{Incoming, Outgoing, Party, Round, Step};
#[cfg(feature = "ed25519")]
use crate::vss::Ed25519;
#[cfg(feature = "ristretto255")]
use crate::vss::Ristretto255;
#[cfg(feature = "secp256k1")]
use crate::vss::Secp256k1;
use crate::vss::{cast, cast_ref, with_curve, Curve, CurveId, Mode};
use crate::wire;
use crate::PartyId;

macro_rules! any_curve {
    ($(#[$doc:meta])* $name:ident, $ty:ident) => {
        $(#[$doc])*
        pub enum $name {
            /// Over Ed25519.
            #[cfg(feature = "ed25519")]
            Ed25519($ty<Ed25519>),
            /// Over secp256k1.
            #[cfg(feature = "secp256k1")]
            Secp256k1($ty<Secp256k1>),
            /// Over Ristretto255.
            #[cfg(feature = "ristretto255")]
            Ristretto255($ty<Ristretto255>),
        }

        impl $name {
            /// The group.
            pub fn curve(&self) -> CurveId {
                match self {
                    #[cfg(feature = "ed25519")]
                    $name::Ed25519(_) => CurveId::Ed25519,
                    #[cfg(feature = "secp256k1")]
                    $name::Secp256k1(_) => CurveId::Secp256k1,
                    #[cfg(feature = "ristretto255")]
                    $name::Ristretto255(_) => CurveId::Ristretto255,
                }
            }

            /// The value over the group `C`.
            ///
            /// # Errors
            /// [`Error::WrongCurve`] when it is over another group.
            pub fn into_curve<C: Curve>(self) -> Result<$ty<C>, Error> {
                let wrong = Error::WrongCurve { expected: C::CURVE, found: self.curve() };
                match self {
                    #[cfg(feature = "ed25519")]
                    $name::Ed25519(x) => cast(x).map_err(|_| wrong),
                    #[cfg(feature = "secp256k1")]
                    $name::Secp256k1(x) => cast(x).map_err(|_| wrong),
                    #[cfg(feature = "ristretto255")]
                    $name::Ristretto255(x) => cast(x).map_err(|_| wrong),
                }
            }

            /// The value over the group `C`, borrowed (`None` when it is over another).
            pub fn as_curve<C: Curve>(&self) -> Option<&$ty<C>> {
                match self {
                    #[cfg(feature = "ed25519")]
                    $name::Ed25519(x) => cast_ref(x),
                    #[cfg(feature = "secp256k1")]
                    $name::Secp256k1(x) => cast_ref(x),
                    #[cfg(feature = "ristretto255")]
                    $name::Ristretto255(x) => cast_ref(x),
                }
            }
        }

        impl<C: Curve> From<$ty<C>> for $name {
            fn from(x: $ty<C>) -> $name {
                // `C::CURVE` names `C` itself, so exactly the matching cast succeeds.
                #[cfg(feature = "ed25519")]
                let x = match cast::<$ty<C>, $ty<Ed25519>>(x) {
                    Ok(v) => return $name::Ed25519(v),
                    Err(x) => x,
                };
                #[cfg(feature = "secp256k1")]
                let x = match cast::<$ty<C>, $ty<Secp256k1>>(x) {
                    Ok(v) => return $name::Secp256k1(v),
                    Err(x) => x,
                };
                #[cfg(feature = "ristretto255")]
                let x = match cast::<$ty<C>, $ty<Ristretto255>>(x) {
                    Ok(v) => return $name::Ristretto255(v),
                    Err(x) => x,
                };
                drop(x);
                unreachable!("every Curve is one of this build's groups")
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    #[cfg(feature = "ed25519")]
                    $name::Ed25519(x) => fmt::Debug::fmt(x, f),
                    #[cfg(feature = "secp256k1")]
                    $name::Secp256k1(x) => fmt::Debug::fmt(x, f),
                    #[cfg(feature = "ristretto255")]
                    $name::Ristretto255(x) => fmt::Debug::fmt(x, f),
                }
            }
        }
    };
}

/// Evaluates the body on the value held by one of this module's enums, whatever its group.
macro_rules! on_any {
    ($name:ident, $value:expr, $x:ident => $body:expr) => {
        match $value {
            #[cfg(feature = "ed25519")]
            $name::Ed25519($x) => $body,
            #[cfg(feature = "secp256k1")]
            $name::Secp256k1($x) => $body,
            #[cfg(feature = "ristretto255")]
            $name::Ristretto255($x) => $body,
        }
    };
}

any_curve!(
    /// A [`Ceremony`] over any group.
    #[derive(Clone)]
    AnyCeremony,
    Ceremony
);
any_curve!(
    /// A [`GroupPublic`] over any group.
    #[derive(Clone, PartialEq, Eq)]
    AnyGroupPublic,
    GroupPublic
);
any_curve!(
    /// A [`KeyShare`] over any group.
    ///
    /// # Security
    /// Holds a secret share: wiped on drop, `Debug` redacted.
    AnyKeyShare,
    KeyShare
);
any_curve!(
    /// An [`Outcome`] over any group.
    AnyOutcome,
    Outcome
);
any_curve!(
    /// A [`DealingParty`] over any group: the dealing party the byte-level layers hold.
    ///
    /// # Security
    /// As [`DealingParty`].
    Dealing,
    DealingParty
);

impl AnyCeremony {
    /// A DKG over `curve` ([`Ceremony::dkg`]).
    ///
    /// # Errors
    /// As [`Ceremony::dkg`].
    pub fn dkg(
        curve: CurveId,
        session: [u8; 32],
        mode: Mode,
        parties: &[PartyId],
        threshold: u16,
    ) -> Result<AnyCeremony, Error> {
        with_curve!(curve, C => Ok(Ceremony::<C>::dkg(session, mode, parties, threshold)?.into()))
    }

    /// A refresh of the sharing `old` ([`Ceremony::refresh`]).
    ///
    /// # Errors
    /// As [`Ceremony::refresh`].
    pub fn refresh(
        session: [u8; 32],
        old: &AnyGroupPublic,
        dealers: &[PartyId],
    ) -> Result<AnyCeremony, Error> {
        on_any!(AnyGroupPublic, old, g => Ok(Ceremony::refresh(session, g, dealers)?.into()))
    }

    /// A reshare of the sharing `old` to `receivers` with threshold `threshold`
    /// ([`Ceremony::reshare`]).
    ///
    /// # Errors
    /// As [`Ceremony::reshare`].
    pub fn reshare(
        session: [u8; 32],
        old: &AnyGroupPublic,
        dealers: &[PartyId],
        receivers: &[PartyId],
        threshold: u16,
    ) -> Result<AnyCeremony, Error> {
        on_any!(AnyGroupPublic, old, g => Ok(Ceremony::reshare(session, g, dealers, receivers, threshold)?.into()))
    }

    /// [`Ceremony::with_key`].
    ///
    /// # Errors
    /// As [`Ceremony::with_key`].
    pub fn with_key(self, kind: crate::lss::ActivationKind, key: &[u8]) -> Result<AnyCeremony, Error> {
        on_any!(AnyCeremony, self, c => Ok(c.with_key(kind, key)?.into()))
    }

    /// The dealers, increasing.
    pub fn dealers(&self) -> &[PartyId] {
        on_any!(AnyCeremony, self, c => c.dealers())
    }

    /// The receivers, increasing.
    pub fn receivers(&self) -> &[PartyId] {
        on_any!(AnyCeremony, self, c => c.receivers())
    }

    /// Every participant (dealers and receivers), increasing.
    pub fn participants(&self) -> Vec<PartyId> {
        let mut all: Vec<PartyId> = self.dealers().iter().chain(self.receivers()).copied().collect();
        all.sort_unstable();
        all.dedup();
        all
    }
}

impl AnyGroupPublic {
    /// Decodes an `LSG1` encoding of any group.
    ///
    /// # Errors
    /// [`wire::Error`] naming what was wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<AnyGroupPublic, wire::Error> {
        let curve = curve_byte(bytes, 6)?;
        with_curve!(curve, C => Ok(GroupPublic::<C>::from_bytes(bytes)?.into()))
    }

    /// Encodes (`LSG1`).
    pub fn to_bytes(&self) -> Vec<u8> {
        on_any!(AnyGroupPublic, self, g => g.to_bytes())
    }

    /// The threshold.
    pub fn threshold(&self) -> u16 {
        on_any!(AnyGroupPublic, self, g => g.threshold())
    }

    /// The parties holding shares, increasing.
    pub fn parties(&self) -> &[PartyId] {
        on_any!(AnyGroupPublic, self, g => g.parties())
    }

    /// The generation.
    pub fn generation(&self) -> u64 {
        on_any!(AnyGroupPublic, self, g => g.generation())
    }

    /// The transcript hash of the dealing that produced it.
    pub fn transcript_hash(&self) -> &[u8; 32] {
        on_any!(AnyGroupPublic, self, g => g.transcript_hash())
    }
}

impl AnyKeyShare {
    /// Decodes an `LSK1` encoding of any group (checking the share against the
    /// commitments, as [`KeyShare::from_bytes`] does).
    ///
    /// # Errors
    /// [`wire::Error`] naming what was wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<AnyKeyShare, wire::Error> {
        let curve = curve_byte(bytes, 6)?;
        with_curve!(curve, C => Ok(KeyShare::<C>::from_bytes(bytes)?.into()))
    }

    /// Encodes (`LSK1`).
    ///
    /// # Security
    /// The output holds the secret share in the clear; it is wiped when dropped.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        on_any!(AnyKeyShare, self, s => s.to_bytes())
    }

    /// The owner's id.
    pub fn id(&self) -> PartyId {
        on_any!(AnyKeyShare, self, s => s.id())
    }

    /// The sharing's public data.
    pub fn public(&self) -> AnyGroupPublic {
        on_any!(AnyKeyShare, self, s => s.public().clone().into())
    }

    /// The generation.
    pub fn generation(&self) -> u64 {
        on_any!(AnyKeyShare, self, s => s.generation())
    }
}

impl AnyOutcome {
    /// Takes the new key share out (receivers only; `None` once taken).
    pub fn take_key_share(&mut self) -> Option<AnyKeyShare> {
        on_any!(AnyOutcome, self, o => o.key_share.take().map(AnyKeyShare::from))
    }

    /// Whether this party got a key share.
    pub fn has_key_share(&self) -> bool {
        on_any!(AnyOutcome, self, o => o.key_share.is_some())
    }

    /// The new generation's public data.
    pub fn public(&self) -> AnyGroupPublic {
        on_any!(AnyOutcome, self, o => o.public.clone().into())
    }

    /// The qualified dealers.
    pub fn qualified(&self) -> &[PartyId] {
        on_any!(AnyOutcome, self, o => &o.qualified)
    }

    /// The agreed blame (see [`Outcome::blame`]).
    pub fn blame(&self) -> &[crate::party::Blame] {
        on_any!(AnyOutcome, self, o => &o.blame)
    }

    /// The messages this party dropped (see [`Outcome::dropped`]).
    pub fn dropped(&self) -> &[crate::party::Blame] {
        on_any!(AnyOutcome, self, o => &o.dropped)
    }

    /// The activation certificate (see [`Outcome::activation`]).
    pub fn activation(&self) -> Option<&crate::lss::ActivationCertificate> {
        on_any!(AnyOutcome, self, o => o.activation.as_ref())
    }
}

impl Dealing {
    /// Starts `me`'s part in `ceremony` ([`DealingParty::start`]); `old_share` must be over
    /// the ceremony's group.
    ///
    /// # Errors
    /// [`Error::WrongCurve`]; as [`DealingParty::start`].
    pub fn start(
        ceremony: AnyCeremony,
        me: PartyId,
        old_share: Option<&AnyKeyShare>,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Dealing, Outgoing), Error> {
        on_any!(AnyCeremony, ceremony, c => {
            let old = old_share.map(|s| share_as(s, &c)).transpose()?;
            let (p, out) = DealingParty::start(c, me, old, rng)?;
            Ok((p.into(), out))
        })
    }

    /// As [`Dealing::start`], for a party that misbehaves as `cheat` says.
    ///
    /// # Errors
    /// As [`Dealing::start`].
    #[cfg(feature = "hazmat")]
    pub fn start_cheating(
        ceremony: AnyCeremony,
        me: PartyId,
        old_share: Option<&AnyKeyShare>,
        cheat: crate::party::hazmat::Cheat,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Dealing, Outgoing), Error> {
        on_any!(AnyCeremony, ceremony, c => {
            let old = old_share.map(|s| share_as(s, &c)).transpose()?;
            let (p, out) = DealingParty::start_cheating(c, me, old, cheat, rng)?;
            Ok((p.into(), out))
        })
    }

    /// The ceremony.
    pub fn ceremony(&self) -> AnyCeremony {
        on_any!(Dealing, self, p => p.ceremony().clone().into())
    }
}

/// `share` over the group of `_ceremony`.
fn share_as<'a, C: Curve>(share: &'a AnyKeyShare, _ceremony: &Ceremony<C>) -> Result<&'a KeyShare<C>, Error> {
    share.as_curve::<C>().ok_or(Error::WrongCurve {
        expected: C::CURVE,
        found: share.curve(),
    })
}

impl Party for Dealing {
    type Output = AnyOutcome;

    fn id(&self) -> PartyId {
        on_any!(Dealing, self, p => p.id())
    }

    fn round(&self) -> Option<Round> {
        on_any!(Dealing, self, p => p.round())
    }

    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<AnyOutcome>, crate::Error> {
        on_any!(Dealing, self, p => Ok(p.step(inbox)?.map(AnyOutcome::from)))
    }
}

/// The group named by the curve byte at `at` (after magic and version).
fn curve_byte(bytes: &[u8], at: usize) -> Result<CurveId, wire::Error> {
    let b = *bytes.get(at).ok_or(wire::Error::TooShort {
        needed: at + 1,
        got: bytes.len(),
    })?;
    CurveId::from_byte(b)
}
