//! Activation certificates: proof that at least `t` members of a generation hold working
//! shares of it — the promise that lets the old generation erase its shares.
//!
//! After a refresh or reshare, every member `j` of the new generation proves possession
//! of its new share: a Schnorr proof of knowledge of `s_j` for its Feldman verifying share
//! `V_j = s_j·G`, or (Pedersen) an Okamoto proof of knowledge of `(s_j, r_j)` for its share
//! commitment `C_j = s_j·G + r_j·H`, both evaluated from the **new** commitments. Each proof
//! is bound to a statement naming everything public about the generation. An
//! [`ActivationCertificate`] collects the proofs of at least `t_new` distinct members and
//! names them; anyone holding the new generation's public data checks it
//! ([`ActivationCertificate::verify`]). The old set cannot make it: its shares do not open
//! the new commitments, and whoever does not know `t_new` new shares cannot prove them.
//! Since `t_new` shares consistent with the new commitments interpolate to their constant
//! term — the unchanged group commitment — a valid certificate proves the new set can
//! sign.
//!
//! The same certificate binds a scheme's public key to the sharing (Pulsar: the announced
//! ML-DSA key — `C_0`, the key ceremony's transcript hash and the `PULG` frame — which
//! nothing else ties to the Pedersen commitments): its statement includes the key, and a
//! key record carries the certificate of its generation.
//!
//! # When the old generation may erase
//!
//! An old holder erases its share once it has verified a certificate for the generation that
//! replaces it — not before, and without waiting for further acknowledgements: the
//! certificate already shows that `t_new` members checked their new shares against the new
//! commitments and hold them, which is what per-member acknowledgements (as the ZF resharing
//! notes suggest) would establish. A member whose own share failed never proves possession,
//! so it cannot be counted.
//!
//! # Statement and proofs
//!
//! Statement `D = cSHAKE256-tuple("QUASAR-LSS-ACTIVATE-v1"; "statement", scheme tag
//! (`QUASAR-LENS-ACTIVATE-v1`, `QUASAR-PULSAR-ACTIVATE-v1` or `QUASAR-LSS-ACTIVATE-v1`),
//! curve name, mode byte, u64 generation, transcript hash, u16 threshold, u16 party ids,
//! the commitments (`C_0 … C_{t−1}`), the scheme key bytes)` (32 bytes). A proof for
//! member `j` is `(R, z₁[, z₂])`: `R = a·G (+ b·H)`, challenge
//! `e = H(D, j, R)` (same tag, 64 bytes reduced), `z₁ = a + e·s_j`, `z₂ = b + e·r_j`;
//! it verifies when `z₁·G (+ z₂·H) = R + e·C_j`, where `C_j = Σ_k j^k·C_k` is the
//! member's share commitment (fixed by `D` and `j`, so not hashed again). Certificates and
//! rounds check all proofs in one random-weight batch.
//!
//! # Wire forms
//!
//! `LSV1` possession message (broadcast by each new member): `LSV1` ‖ u16 1 ‖ u8 curve ‖
//! u8 mode ‖ u64 generation ‖ transcript hash (32) ‖ u16 from ‖ proof.
//!
//! `LSA2` certificate: `LSA2` ‖ u16 1 ‖ u8 scheme ‖ u8 curve ‖ u8 mode ‖ u64 generation ‖
//! transcript hash (32) ‖ u32 length ‖ scheme key (≤ 4096 bytes) ‖ u16 count ‖ count ×
//! (u16 member ‖ proof), members strictly increasing.
//!
//! A proof is `R` (point) ‖ `z₁` (scalar) ‖ `z₂` (scalar, Pedersen only), each in its one
//! canonical encoding (the decoder refuses any other), so a certificate re-encodes to
//! exactly the bytes it was read from.

mod party;
mod proof;

use alloc::vec::Vec;

pub use party::ActivationParty;
pub(crate) use proof::{statement, PossessionProof};

use super::{Error, GroupPublic};
use crate::hash::tags;
use crate::vss::{Curve, Mode};
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// Magic of an encoded [`ActivationCertificate`].
pub(super) const ACTIVATION_MAGIC: &[u8; 4] = b"LSA2";
/// Magic of a possession message (the activation round's broadcast).
pub(super) const POSSESSION_MAGIC: &[u8; 4] = b"LSV1";
/// Version of both encodings.
pub(super) const VERSION: u16 = 1;
/// Longest scheme key a statement binds.
pub(super) const MAX_KEY_LEN: usize = 4096;

/// Which scheme's sharing a certificate activates (its tag starts the statement).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ActivationKind {
    /// A Lens (FROST) key: tag `QUASAR-LENS-ACTIVATE-v1`. Wire byte 1.
    Lens = 1,
    /// A Pulsar (threshold ML-DSA) key: tag `QUASAR-PULSAR-ACTIVATE-v1`. Wire byte 2.
    Pulsar = 2,
    /// A bare LSS sharing: tag `QUASAR-LSS-ACTIVATE-v1`. Wire byte 3.
    Lss = 3,
}

impl ActivationKind {
    /// The ASCII tag of the scheme.
    pub fn tag(self) -> &'static str {
        match self {
            ActivationKind::Lens => tags::LENS_ACTIVATE,
            ActivationKind::Pulsar => tags::PULSAR_ACTIVATE,
            ActivationKind::Lss => tags::LSS_ACTIVATE,
        }
    }

    /// Decodes the wire byte.
    ///
    /// # Errors
    /// [`wire::Error::UnknownMode`].
    pub fn from_byte(b: u8) -> Result<Self, wire::Error> {
        match b {
            1 => Ok(ActivationKind::Lens),
            2 => Ok(ActivationKind::Pulsar),
            3 => Ok(ActivationKind::Lss),
            other => Err(wire::Error::UnknownMode(other)),
        }
    }
}

/// Why a certificate does not activate the expected generation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ActivationFault {
    /// Another scheme, group or commitment mode.
    WrongGroup,
    /// Another scheme key than the expected one.
    WrongKey,
    /// For another generation.
    WrongGeneration {
        /// The generation expected.
        expected: u64,
        /// The certificate's.
        got: u64,
    },
    /// For another dealing (transcript hash) of that generation.
    WrongTranscript,
    /// Fewer distinct members than the generation's threshold.
    TooFewMembers {
        /// The threshold.
        needed: usize,
        /// Members in the certificate.
        got: usize,
    },
    /// It names a party that is not a member of the generation.
    NotAMember {
        /// The party.
        party: PartyId,
    },
    /// Proofs that do not verify against the generation's commitments (made with other
    /// shares — for example the old generation's — or forged).
    InvalidProof {
        /// The members whose proofs fail, increasing.
        members: Vec<PartyId>,
    },
}

impl ActivationFault {
    /// The stable code of the fault.
    pub fn code(&self) -> &'static str {
        match self {
            ActivationFault::WrongGroup => "ACTIVATION_WRONG_GROUP",
            ActivationFault::WrongKey => "ACTIVATION_WRONG_KEY",
            ActivationFault::WrongGeneration { .. } => "ACTIVATION_WRONG_GENERATION",
            ActivationFault::WrongTranscript => "ACTIVATION_WRONG_TRANSCRIPT",
            ActivationFault::TooFewMembers { .. } => "ACTIVATION_TOO_FEW_MEMBERS",
            ActivationFault::NotAMember { .. } => "ACTIVATION_NOT_A_MEMBER",
            ActivationFault::InvalidProof { .. } => "ACTIVATION_INVALID_PROOF",
        }
    }
}

impl core::fmt::Display for ActivationFault {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ActivationFault::WrongGroup => f.write_str("it is for another scheme, group or mode"),
            ActivationFault::WrongKey => f.write_str("it binds another scheme key"),
            ActivationFault::WrongGeneration { expected, got } => {
                write!(f, "it is for generation {got}, expected {expected}")
            }
            ActivationFault::WrongTranscript => f.write_str("it is for another dealing"),
            ActivationFault::TooFewMembers { needed, got } => {
                write!(f, "it names {got} members, the threshold is {needed}")
            }
            ActivationFault::NotAMember { party } => write!(f, "it names {party}, not a member"),
            ActivationFault::InvalidProof { members } => {
                write!(
                    f,
                    "the proofs of {members:?} do not verify against the generation's commitments"
                )
            }
        }
    }
}

/// Proof that at least `t` members of one generation hold working shares of it (see the
/// module docs).
#[derive(Clone, PartialEq, Eq)]
pub struct ActivationCertificate {
    pub(crate) kind: ActivationKind,
    pub(crate) curve: u8,
    pub(crate) mode: Mode,
    pub(crate) generation: u64,
    pub(crate) transcript_hash: [u8; 32],
    pub(crate) key: Vec<u8>,
    /// The members whose proofs it carries, increasing…
    pub(crate) members: Vec<PartyId>,
    /// … and their encoded proofs, one after another in the same order, each of the mode's
    /// length (one buffer: every member of a generation makes the certificate, at n = 128
    /// of 128 proofs).
    pub(crate) proofs: Vec<u8>,
}

impl core::fmt::Debug for ActivationCertificate {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ActivationCertificate")
            .field("kind", &self.kind)
            .field("generation", &self.generation)
            .field("members", &self.members())
            .finish_non_exhaustive()
    }
}

impl ActivationCertificate {
    /// The scheme.
    pub fn kind(&self) -> ActivationKind {
        self.kind
    }

    /// The generation it activates.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The transcript hash of the dealing that made the generation.
    pub fn transcript_hash(&self) -> &[u8; 32] {
        &self.transcript_hash
    }

    /// The scheme key it binds (empty when the scheme's key is the group commitment).
    pub fn key(&self) -> &[u8] {
        &self.key
    }

    /// The members whose proofs it carries, increasing.
    pub fn members(&self) -> Vec<PartyId> {
        self.members.clone()
    }

    /// Each member and its encoded proof, increasing by member.
    fn entries(&self) -> impl Iterator<Item = (PartyId, &[u8])> {
        let each = self.proofs.len().checked_div(self.members.len()).unwrap_or(0);
        self.members.iter().copied().zip(self.proofs.chunks(each.max(1)))
    }

    /// Checks that the certificate activates the generation `public` with scheme `kind`
    /// and key `key`: same group, mode, generation and transcript, at least
    /// `public.threshold()` distinct members of `public`, every proof valid against
    /// `public`'s commitments (one batched multi-scalar multiplication).
    ///
    /// # Errors
    /// [`Error::InvalidActivation`] with the [`ActivationFault`].
    pub fn verify<C: Curve>(
        &self,
        public: &GroupPublic<C>,
        kind: ActivationKind,
        key: &[u8],
    ) -> Result<(), Error> {
        let fault = |f| Err(Error::InvalidActivation(f));
        if self.kind != kind || self.curve != C::ID || self.mode != public.mode() {
            return fault(ActivationFault::WrongGroup);
        }
        if self.generation != public.generation() {
            return fault(ActivationFault::WrongGeneration {
                expected: public.generation(),
                got: self.generation,
            });
        }
        if self.transcript_hash != *public.transcript_hash() {
            return fault(ActivationFault::WrongTranscript);
        }
        if self.key != key {
            return fault(ActivationFault::WrongKey);
        }
        let needed = usize::from(public.threshold());
        if self.members.len() < needed {
            return fault(ActivationFault::TooFewMembers {
                needed,
                got: self.members.len(),
            });
        }
        if let Some(p) = self
            .members
            .iter()
            .find(|p| public.parties().binary_search(p).is_err())
        {
            return fault(ActivationFault::NotAMember { party: *p });
        }
        // The proofs' check is the same for every member of the generation: the members of
        // one process make it once (`party::shared`; the kind and key are in the
        // certificate's bytes, checked equal above).
        #[cfg(feature = "in-process-sharing")]
        let verdict = crate::party::shared::memo(
            b"lss-activation-certificate",
            || crate::party::shared::key_of([self.to_bytes().as_slice(), public.to_bytes().as_slice()]),
            64,
            || self.proofs_fault(public, kind, key),
        )
        .as_ref()
        .clone();
        // Without the sharing, no copy of the verdict (the modules by need stay small).
        #[cfg(not(feature = "in-process-sharing"))]
        let verdict = self.proofs_fault(public, kind, key);
        match verdict {
            None => Ok(()),
            Some(f) => fault(f),
        }
    }

    /// Why the proofs do not prove possession for `public`, if they do not.
    fn proofs_fault<C: Curve>(
        &self,
        public: &GroupPublic<C>,
        kind: ActivationKind,
        key: &[u8],
    ) -> Option<ActivationFault> {
        let d = statement(public, kind, key);
        let mut proofs = Vec::with_capacity(self.members.len());
        for (p, bytes) in self.entries() {
            let mut r = Reader::new(bytes);
            let proof = PossessionProof::<C>::read(public.mode(), &mut r)
                .ok()
                .filter(|_| r.remaining() == 0);
            match proof {
                Some(proof) => proofs.push((p, proof)),
                None => {
                    return Some(ActivationFault::InvalidProof {
                        members: alloc::vec![p],
                    })
                }
            }
        }
        let bad = PossessionProof::verify_all(public, &d, &proofs);
        (!bad.is_empty()).then_some(ActivationFault::InvalidProof { members: bad })
    }

    /// [`ActivationCertificate::verify`], and `public` must itself be the generation the
    /// caller expects (its number and its dealing's transcript hash).
    ///
    /// # Errors
    /// As [`ActivationCertificate::verify`].
    pub fn verify_expected<C: Curve>(
        &self,
        public: &GroupPublic<C>,
        kind: ActivationKind,
        key: &[u8],
        generation: u64,
        transcript_hash: &[u8; 32],
    ) -> Result<(), Error> {
        if public.generation() != generation || self.generation != generation {
            return Err(Error::InvalidActivation(ActivationFault::WrongGeneration {
                expected: generation,
                got: self.generation,
            }));
        }
        if public.transcript_hash() != transcript_hash || &self.transcript_hash != transcript_hash {
            return Err(Error::InvalidActivation(ActivationFault::WrongTranscript));
        }
        self.verify(public, kind, key)
    }

    /// Encodes (`LSA2`, see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_header(ACTIVATION_MAGIC, VERSION);
        w.u8(self.kind as u8).u8(self.curve).u8(self.mode.to_byte());
        w.u64(self.generation).put(&self.transcript_hash).bytes(&self.key);
        w.u16(crate::wire::len_u16(self.members.len()));
        for (p, proof) in self.entries() {
            p.write(&mut w);
            w.put(proof);
        }
        w.into_bytes()
    }

    /// Decodes strictly (known scheme, group and mode; proofs of the mode's exact length,
    /// each a canonical point and canonical scalars; members strictly increasing; no
    /// trailing bytes), so that re-encoding gives the input back byte for byte. Whether
    /// the proofs verify is [`ActivationCertificate::verify`]'s question.
    ///
    /// # Errors
    /// [`wire::Error`] naming what was wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, wire::Error> {
        let mut r = Reader::new(bytes);
        r.header(ACTIVATION_MAGIC, VERSION)?;
        let kind = ActivationKind::from_byte(r.u8()?)?;
        let curve = crate::vss::CurveId::from_byte(r.u8()?)?;
        let mode = Mode::from_byte(r.u8()?)?;
        let generation = r.u64()?;
        let transcript_hash: [u8; 32] = r.array()?;
        let key = r.bytes(MAX_KEY_LEN)?.to_vec();
        let n = usize::from(r.u16()?);
        let proof_len = crate::vss::with_curve!(curve, C => PossessionProof::<C>::encoded_len(mode));
        if n.saturating_mul(2 + proof_len) > r.remaining() {
            return Err(wire::Error::TooShort {
                needed: n.saturating_mul(2 + proof_len),
                got: r.remaining(),
            });
        }
        let mut members: Vec<PartyId> = Vec::with_capacity(n);
        let mut proofs: Vec<u8> = Vec::with_capacity(n * proof_len);
        for _ in 0..n {
            let p = PartyId::read(&mut r)?;
            if members.last().is_some_and(|last| *last >= p) {
                return Err(wire::Error::InvalidValue("members not strictly increasing"));
            }
            let proof = r.take(proof_len)?;
            // Strict, so that the bytes are the one encoding of what they hold: a canonical
            // prime-order `R` and canonical scalars (no alternative spelling of a proof).
            crate::vss::with_curve!(curve, C => check_proof::<C>(mode, proof))?;
            members.push(p);
            proofs.extend_from_slice(proof);
        }
        r.finish()?;
        Ok(ActivationCertificate {
            kind,
            curve: curve.to_byte(),
            mode,
            generation,
            transcript_hash,
            key,
            members,
            proofs,
        })
    }
}

/// Checks that `bytes` is exactly one proof of `mode`, canonically encoded.
fn check_proof<C: Curve>(mode: Mode, bytes: &[u8]) -> Result<(), wire::Error> {
    let mut r = Reader::new(bytes);
    PossessionProof::<C>::read(mode, &mut r)?;
    r.finish()
}
