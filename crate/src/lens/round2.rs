//! Signing round 2 (RFC 9591 §5.2, `sign`): the coordinator's [`SigningPackage`] and each
//! signer's [`SignatureShare`].

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;

use frost_core::round1 as fr1;
use frost_core::round2 as fr2;

use super::ciphersuite::{
    frame, frost_err, ident, open, put_component, read_component, with_suite, ByCurve, Family, Suite,
};
use super::keys::{Hex, PublicKeyPackage};
use super::round1::{SigningCommitments, SigningNonces};
use super::share::KeyShare;
use super::{Curve, Error, KeyEpoch};
use crate::wire;
use crate::PartyId;

/// Magic of an encoded [`SigningPackage`].
pub(super) const MAGIC_SIGNING_PACKAGE: &[u8; 4] = b"LNSP";
/// Magic of an encoded [`SignatureShare`].
pub(super) const MAGIC_SIGNATURE_SHARE: &[u8; 4] = b"LNZ2";
/// Largest message a signing package carries (16 MiB).
pub const MAX_MESSAGE_LEN: usize = 1 << 24;

pub(crate) struct PackageF;
impl Family for PackageF {
    type Of<C: Suite> = frost_core::SigningPackage<C>;
}

pub(crate) struct ShareF;
impl Family for ShareF {
    type Of<C: Suite> = fr2::SignatureShare<C>;
}

/// The coordinator's round-2 message (RFC 9591 §5.2 input): the message to sign and every
/// signer's round-1 commitments, for one key epoch.
///
/// Built by the coordinator with [`SigningPackage::new`] and sent to every signer in it
/// over an authenticated channel. Signers should check [`SigningPackage::message`] is what
/// they mean to sign.
#[derive(Clone, PartialEq)]
pub struct SigningPackage {
    epoch: KeyEpoch,
    signers: Vec<PartyId>,
    pub(crate) inner: ByCurve<PackageF>,
}

impl fmt::Debug for SigningPackage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningPackage")
            .field("curve", &self.curve())
            .field("epoch", &self.epoch)
            .field("signers", &self.signers)
            .field("message", &Hex(self.message()))
            .finish()
    }
}

impl SigningPackage {
    /// Builds the signing package from the round-1 messages, keyed by their
    /// transport-authenticated senders.
    ///
    /// # Errors
    /// [`Error::WrongCurve`]; [`Error::SenderMismatch`] when a message's `from` is not its
    /// sender; [`Error::UnknownParty`] for a sender without a share;
    /// [`Error::EpochMismatch`] for commitments made with a share of another epoch (an
    /// old generation); [`Error::NotEnoughSigners`] below the threshold;
    /// [`Error::Decode`] for a message over [`MAX_MESSAGE_LEN`].
    pub fn new(
        public: &PublicKeyPackage,
        commitments: &BTreeMap<PartyId, SigningCommitments>,
        message: &[u8],
    ) -> Result<SigningPackage, Error> {
        for (party, c) in commitments {
            if c.curve() != public.curve() {
                return Err(Error::WrongCurve {
                    expected: public.curve(),
                    found: c.curve(),
                });
            }
            if c.from() != *party {
                return Err(Error::SenderMismatch {
                    party: *party,
                    claimed: c.from(),
                });
            }
            if !public.contains(*party) {
                return Err(Error::UnknownParty { party: *party });
            }
            if c.epoch() != public.epoch() {
                return Err(Error::EpochMismatch {
                    party: Some(*party),
                    expected: public.epoch(),
                    found: c.epoch(),
                });
            }
        }
        if commitments.len() < usize::from(public.threshold()) {
            return Err(Error::NotEnoughSigners {
                needed: public.threshold(),
                got: commitments.len(),
            });
        }
        if message.len() > MAX_MESSAGE_LEN {
            return Err(Error::Decode(wire::Error::CountTooLarge {
                got: message.len(),
                max: MAX_MESSAGE_LEN,
            }));
        }
        with_suite!(public.curve(), C => {
            let mut map = BTreeMap::new();
            for (party, c) in commitments {
                map.insert(ident::<C>(*party)?, *c.inner.get::<C>()?);
            }
            Ok(SigningPackage {
                epoch: public.epoch(),
                signers: commitments.keys().copied().collect(),
                inner: C::wrap(frost_core::SigningPackage::new(map, message)),
            })
        })
    }

    /// Whether the package holds `party`'s commitments to exactly these `nonces` (so it
    /// belongs to the session the nonces were drawn for).
    pub(crate) fn holds(&self, party: PartyId, nonces: &SigningNonces) -> bool {
        with_suite!(self.curve(), C => {
            match (self.inner.get::<C>(), nonces.inner.get::<C>(), ident::<C>(party)) {
                (Ok(p), Ok(n), Ok(id)) => p.signing_commitment(&id).as_ref() == Some(n.commitments()),
                _ => false,
            }
        })
    }

    /// The curve.
    pub fn curve(&self) -> Curve {
        self.inner.curve()
    }

    /// The key epoch the signers must all hold shares of.
    pub fn epoch(&self) -> KeyEpoch {
        self.epoch
    }

    /// The signers, in increasing order.
    pub fn signers(&self) -> &[PartyId] {
        &self.signers
    }

    /// Whether `party` is a signer.
    pub fn contains(&self, party: PartyId) -> bool {
        self.signers.binary_search(&party).is_ok()
    }

    /// The message to sign.
    pub fn message(&self) -> &[u8] {
        match &self.inner {
            #[cfg(feature = "ed25519")]
            ByCurve::Ed25519(p) => p.message(),
            #[cfg(feature = "secp256k1")]
            ByCurve::Secp256k1(p) => p.message(),
            #[cfg(feature = "ristretto255")]
            ByCurve::Ristretto255(p) => p.message(),
        }
    }

    /// Encodes: `LNSP` ‖ u16 1 ‖ curve ‖ epoch (u64 ‖ 32 B) ‖ u32 count ‖ count × (u16
    /// party ‖ u32 len ‖ frost `SigningCommitments`), parties increasing ‖ u32 len ‖
    /// message.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = frame(MAGIC_SIGNING_PACKAGE, self.curve());
        self.epoch.write(&mut w);
        w.u32(crate::wire::len_u32(self.signers.len()));
        with_suite!(self.curve(), C => {
            if let Ok(p) = self.inner.get::<C>() {
                for s in &self.signers {
                    s.write(&mut w);
                    let c = ident::<C>(*s).ok().and_then(|id| p.signing_commitment(&id));
                    let bytes = c.and_then(|c| c.serialize().ok()).unwrap_or_default();
                    put_component(&mut w, &bytes);
                }
            }
        });
        w.bytes(self.message());
        w.into_bytes()
    }

    /// Decodes a signing package of the expected curve.
    ///
    /// # Errors
    /// [`Error::Decode`] (truncation, trailing bytes, bad header, malformed commitments, an
    /// unsorted or empty signer list), [`Error::WrongCurve`], [`Error::DuplicateSigner`].
    pub fn from_bytes(curve: Curve, bytes: &[u8]) -> Result<SigningPackage, Error> {
        with_suite!(curve, C => {
            let mut r = open(MAGIC_SIGNING_PACKAGE, C::CURVE, bytes)?;
            let epoch = KeyEpoch::read(&mut r)?;
            let n = r.count(usize::from(u16::MAX), 6)?;
            if n == 0 {
                return Err(wire::Error::InvalidValue("empty signer list").into());
            }
            let mut signers: Vec<PartyId> = Vec::with_capacity(n);
            let mut map = BTreeMap::new();
            for _ in 0..n {
                let p = PartyId::read(&mut r)?;
                if let Some(last) = signers.last() {
                    if *last == p {
                        return Err(Error::DuplicateSigner { party: p });
                    }
                    if *last > p {
                        return Err(wire::Error::InvalidValue("signer list not sorted").into());
                    }
                }
                let c = read_component(
                    &mut r,
                    |b| fr1::SigningCommitments::<C>::deserialize(b).ok(),
                    |v| v.serialize().ok(),
                )?;
                map.insert(ident::<C>(p)?, c);
                signers.push(p);
            }
            let message = r.bytes(MAX_MESSAGE_LEN)?;
            r.finish()?;
            Ok(SigningPackage {
                epoch,
                signers,
                inner: C::wrap(frost_core::SigningPackage::new(map, message)),
            })
        })
    }
}

impl SignatureShare {
    /// The encoded share `bytes` with its scalar increased by one (or, at the top of the
    /// range, decreased by one): the `BadContribution` misbehaviour. Every cheater moves
    /// the sum the same way, so several cheaters never cancel out.
    #[cfg(feature = "hazmat")]
    pub(crate) fn corrupted(curve: Curve, bytes: &[u8]) -> Vec<u8> {
        let mut out = bytes.to_vec();
        let n = out.len();
        if n < 32 {
            return out;
        }
        let scalar = &mut out[n - 32..];
        // Little-endian on Ed25519 and Ristretto255, big-endian on secp256k1.
        let order: Vec<usize> = match curve {
            #[cfg(feature = "secp256k1")]
            Curve::Secp256k1 => (0..32).rev().collect(),
            #[allow(unreachable_patterns)] // a build of secp256k1 alone
            _ => (0..32).collect(),
        };
        let step = |scalar: &mut [u8], up: bool| {
            for &i in &order {
                let (v, carry) = if up {
                    scalar[i].overflowing_add(1)
                } else {
                    scalar[i].overflowing_sub(1)
                };
                scalar[i] = v;
                if !carry {
                    break;
                }
            }
        };
        step(scalar, true);
        if SignatureShare::from_bytes(curve, &out).is_err() {
            let scalar = &mut out[n - 32..];
            step(scalar, false);
            step(scalar, false);
        }
        out
    }
}

/// A signer's round-2 message: its signature share `z_i` (RFC 9591 §5.2), with its id and
/// key epoch.
///
/// Sent by each signer to the coordinator over an authenticated channel.
#[derive(Clone, PartialEq)]
pub struct SignatureShare {
    from: PartyId,
    epoch: KeyEpoch,
    pub(crate) inner: ByCurve<ShareF>,
}

impl fmt::Debug for SignatureShare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SignatureShare")
            .field("from", &self.from)
            .field("curve", &self.curve())
            .field("epoch", &self.epoch)
            .finish()
    }
}

impl SignatureShare {
    /// The signer, as the message claims (checked against the transport's sender).
    pub fn from(&self) -> PartyId {
        self.from
    }

    /// The epoch of the signer's key share.
    pub fn epoch(&self) -> KeyEpoch {
        self.epoch
    }

    /// The curve.
    pub fn curve(&self) -> Curve {
        self.inner.curve()
    }

    /// Encodes: `LNZ2` ‖ u16 1 ‖ curve ‖ epoch (u64 ‖ 32 B) ‖ u16 from ‖ u32 len ‖ frost
    /// `SignatureShare` (a 32-byte scalar).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = frame(MAGIC_SIGNATURE_SHARE, self.curve());
        self.epoch.write(&mut w);
        self.from.write(&mut w);
        with_suite!(self.curve(), C => {
            if let Ok(s) = self.inner.get::<C>() {
                put_component(&mut w, &s.serialize());
            }
        });
        w.into_bytes()
    }

    /// Decodes a signature share of the expected curve.
    ///
    /// # Errors
    /// [`Error::Decode`] (truncation, trailing bytes, bad header, a non-canonical scalar),
    /// [`Error::WrongCurve`].
    pub fn from_bytes(curve: Curve, bytes: &[u8]) -> Result<SignatureShare, Error> {
        with_suite!(curve, C => {
            let mut r = open(MAGIC_SIGNATURE_SHARE, C::CURVE, bytes)?;
            let epoch = KeyEpoch::read(&mut r)?;
            let from = PartyId::read(&mut r)?;
            let s = read_component(
                &mut r,
                |b| fr2::SignatureShare::<C>::deserialize(b).ok(),
                |v| Some(v.serialize()),
            )?;
            r.finish()?;
            Ok(SignatureShare { from, epoch, inner: C::wrap(s) })
        })
    }
}

/// Round 2 (RFC 9591 §5.2): signs the package's message with `key_share`, consuming the
/// nonces of round 1.
///
/// # Errors
/// [`Error::WrongCurve`]; [`Error::EpochMismatch`] when the package, the nonces and the
/// key share are not all of one epoch (an old-generation share cannot sign in a
/// new-generation session, nor the reverse); [`Error::UnknownParty`] for a signer in the
/// package without a share; [`Error::NotEnoughSigners`]; [`Error::CommitmentMismatch`]
/// when the package lacks this signer or holds commitments other than its nonces'.
///
/// # Security
/// The nonces are consumed whether or not signing succeeds: never retry with the same
/// nonces. Check [`SigningPackage::message`] before calling.
pub(super) fn sign(
    key_share: &KeyShare,
    nonces: SigningNonces,
    package: &SigningPackage,
) -> Result<SignatureShare, Error> {
    let me = key_share.party();
    let epoch = key_share.epoch();
    for curve in [nonces.curve(), package.curve()] {
        if curve != key_share.curve() {
            return Err(Error::WrongCurve {
                expected: key_share.curve(),
                found: curve,
            });
        }
    }
    if nonces.party() != me {
        return Err(Error::CommitmentMismatch { party: me });
    }
    for found in [nonces.epoch(), package.epoch()] {
        if found != epoch {
            return Err(Error::EpochMismatch {
                party: None,
                expected: epoch,
                found,
            });
        }
    }
    for s in package.signers() {
        if !key_share.public().contains(*s) {
            return Err(Error::UnknownParty { party: *s });
        }
    }
    if package.signers().len() < usize::from(key_share.threshold()) {
        return Err(Error::NotEnoughSigners {
            needed: key_share.threshold(),
            got: package.signers().len(),
        });
    }
    if !package.contains(me) {
        return Err(Error::CommitmentMismatch { party: me });
    }
    with_suite!(key_share.curve(), C => {
        let share = fr2::sign::<C>(
            package.inner.get::<C>()?,
            nonces.inner.get::<C>()?,
            key_share.key_package::<C>()?,
        )
        .map_err(|e| match e {
            frost_core::Error::IncorrectCommitment | frost_core::Error::MissingCommitment => {
                Error::CommitmentMismatch { party: me }
            }
            e => frost_err::<C>(e, package.signers()),
        })?;
        // Public: the signature share z_i is sent to the coordinator.
        let share = crate::ct::public(share);
        Ok(SignatureShare { from: me, epoch, inner: C::wrap(share) })
    })
}
