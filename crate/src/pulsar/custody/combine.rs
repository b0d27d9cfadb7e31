//! The combiner: collect the round-1 commitments, open the round-2 envelopes, check every
//! share against the public Pedersen commitments (blaming each sender whose envelope or
//! share is bad), rebuild `x` from `t` valid shares with Lagrange coefficients over the
//! set actually used, derive the ML-DSA key, check it is the group key, sign (FIPS 204,
//! Algorithm 2), verify (Algorithm 3), and zeroize.
//!
//! The ML-DSA seed is `ξ = cSHAKE256-tuple("QUASAR-PULSAR-SEED-v1"; mode byte, x)`
//! (32 bytes, `x` in canonical little-endian form), [`hazmat::derive_seed`].

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;

use curve25519_dalek::Scalar;
use rand_core::CryptoRngCore;
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

use super::envelope::{self, CombinerKey};
use super::keys::framed;
use super::round1::{commit, Round1Message};
use super::round2::{Round2Message, PLAINTEXT_LEN};
use super::session::{Purpose, Session};
use crate::mldsa::{self, Mode};
use crate::pulsar::frame::SIGNATURE_MAGIC;
use crate::pulsar::{Blame, Error};
use crate::vss::{lagrange_coefficients, Curve, Ristretto255, Share};
use crate::PartyId;

/// Misuse-prone building blocks of the custody scheme.
pub mod hazmat {
    use super::*;
    use crate::hash::{tags, Transcript};

    /// The ML-DSA seed of group secret `x` for `mode`:
    /// `ξ = cSHAKE256-tuple("QUASAR-PULSAR-SEED-v1"; mode byte, x)` (function name
    /// `QUASAR`, 32 bytes). The combiner runs FIPS 204 ML-DSA.KeyGen (Algorithm 1) on it.
    ///
    /// # Security
    /// `x` and the result are the whole signing key: only the combiner (or a test) ever
    /// calls this. The internal state of the hash is not wiped (best effort).
    pub fn derive_seed(mode: Mode, x: &Scalar) -> Zeroizing<[u8; 32]> {
        let mut t = Transcript::new(tags::PULSAR_SEED);
        t.append(&[mode.to_byte()]).append(x.as_bytes());
        Zeroizing::new(t.finalize())
    }
}

/// The combiner before round 1: its decapsulation key and the session.
///
/// # Security
/// Holds the combiner's secret key; consumed by [`Combiner::round1`] and then by the
/// combine step, so one key serves one session.
pub struct Combiner {
    key: CombinerKey,
    session: Session,
}

impl fmt::Debug for Combiner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Combiner")
            .field("session", &self.session)
            .finish_non_exhaustive()
    }
}

impl Combiner {
    /// The combiner of `session`, with its secret key.
    ///
    /// # Errors
    /// [`Error::CombinerMismatch`] when `key` is not the session's combiner key.
    pub fn new(key: CombinerKey, session: &Session) -> Result<Self, Error> {
        if key.public_key() != session.combiner() {
            return Err(Error::CombinerMismatch);
        }
        Ok(Combiner {
            key,
            session: session.clone(),
        })
    }

    /// Reads the round-1 broadcasts (by the transport's sender). A message from a
    /// non-signer or not matching the session (sender, purpose, mode, session id, message
    /// digest, generation, combiner) is excluded and its sender blamed.
    ///
    /// # Errors
    /// [`Error::NotEnoughValidShares`] when fewer than `t` valid commitments remain.
    pub fn round1(self, round1: &BTreeMap<PartyId, Round1Message>) -> Result<CombineState, Error> {
        let mut commitments = BTreeMap::new();
        let mut blame = Vec::new();
        for (&p, m) in round1 {
            match m.header.check(p, &self.session) {
                Ok(()) => {
                    commitments.insert(p, m.commitment);
                }
                Err(error) => blame.push(Blame { party: p, error }),
            }
        }
        let needed = self.session.threshold();
        if commitments.len() < needed {
            return Err(not_enough(needed, commitments.len(), blame));
        }
        Ok(CombineState {
            key: self.key,
            session: self.session,
            commitments,
            blame,
        })
    }
}

fn not_enough(needed: usize, got: usize, mut blame: Vec<Blame>) -> Error {
    blame.sort_by_key(|b| b.party);
    Error::NotEnoughValidShares {
        needed,
        got,
        culprits: blame.iter().map(|b| b.party).collect(),
        blame,
    }
}

/// The combiner after round 1: the commitments it accepted.
///
/// # Security
/// Holds the combiner's secret key. The combine step rebuilds the signing key in memory
/// and zeroizes it (and every decrypted share) before returning.
pub struct CombineState {
    pub(crate) key: CombinerKey,
    pub(crate) session: Session,
    commitments: BTreeMap<PartyId, [u8; 32]>,
    blame: Vec<Blame>,
}

impl fmt::Debug for CombineState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CombineState")
            .field("session", &self.session)
            .field("committed", &self.commitments.keys().collect::<Vec<_>>())
            .field("blame", &self.blame)
            .finish_non_exhaustive()
    }
}

/// The shares opened and checked, and the rebuilt seed.
pub(crate) struct Rebuilt {
    pub(crate) seed: Zeroizing<[u8; 32]>,
    pub(crate) used: Vec<PartyId>,
    pub(crate) blame: Vec<Blame>,
}

impl CombineState {
    /// The session.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The signers whose commitment was accepted, increasing.
    pub fn committed(&self) -> Vec<PartyId> {
        self.commitments.keys().copied().collect()
    }

    /// The parties blamed in round 1.
    pub fn blame(&self) -> &[Blame] {
        &self.blame
    }

    /// Opens and checks one envelope; the error names the sender.
    fn open_one(&self, p: PartyId, m: &Round2Message) -> Result<Share<Ristretto255>, Error> {
        m.header.check(p, &self.session)?;
        let committed = self
            .commitments
            .get(&p)
            .ok_or(Error::MissingCommitment { party: p })?;
        let sharing_transcript = self.session.public().transcript_hash();
        let recomputed = commit(sharing_transcript, &m.to_bytes());
        if !bool::from(recomputed.ct_eq(committed)) {
            return Err(Error::CommitmentMismatch { party: p });
        }
        let aad = Round2Message::aad(&m.header, sharing_transcript);
        let opening = envelope::open_from(p, &self.key, &aad, &m.kem_ciphertext, &m.sealed)?;
        let invalid = Error::InvalidShare { party: p };
        if opening.len() != PLAINTEXT_LEN
            || opening[..2] != p.get().to_be_bytes()
            || opening[2..10] != self.session.generation().to_be_bytes()
        {
            return Err(invalid);
        }
        let scalar = |bytes: &[u8]| -> Option<Scalar> {
            let mut b = Zeroizing::new([0u8; 32]);
            b.copy_from_slice(bytes);
            Option::from(Scalar::from_canonical_bytes(*b))
        };
        let (Some(value), Some(blind)) = (scalar(&opening[10..42]), scalar(&opening[42..74])) else {
            return Err(invalid);
        };
        let share = Share::<Ristretto255>::new(value, blind);
        self.session
            .public()
            .commitments()
            .verify_share(p, &share)
            .map_err(|_| invalid)?;
        Ok(share)
    }

    /// Opens every envelope, blames bad ones, and rebuilds the seed from the `t` valid
    /// shares of the smallest ids.
    pub(crate) fn rebuild(&self, round2: &BTreeMap<PartyId, Round2Message>) -> Result<Rebuilt, Error> {
        let mut blame = self.blame.clone();
        // Sized up front: a reallocation would leave copies of shares behind.
        let mut valid: Vec<(PartyId, Share<Ristretto255>)> = Vec::with_capacity(round2.len());
        for (&p, m) in round2 {
            // A party blamed in round 1 is named once, for its first fault.
            if blame.iter().any(|b| b.party == p) {
                continue;
            }
            match self.open_one(p, m) {
                Ok(share) => valid.push((p, share)),
                Err(error) => blame.push(Blame { party: p, error }),
            }
        }
        for &p in self.commitments.keys() {
            if !round2.contains_key(&p) {
                blame.push(Blame {
                    party: p,
                    error: Error::MissingEnvelope { party: p },
                });
            }
        }
        blame.sort_by_key(|b| b.party);
        let needed = self.session.threshold();
        if valid.len() < needed {
            return Err(not_enough(needed, valid.len(), blame));
        }
        valid.truncate(needed);
        let used: Vec<PartyId> = valid.iter().map(|(p, _)| *p).collect();

        // Lagrange at zero over exactly the parties used.
        let lambda = lagrange_coefficients::<Ristretto255>(&used).map_err(crate::lss::Error::from)?;
        let mut x = Zeroizing::new(Scalar::ZERO);
        let mut r = Zeroizing::new(Scalar::ZERO);
        for ((_, share), l) in valid.iter().zip(lambda.iter()) {
            *x += share.value() * l;
            *r += share.blind() * l;
        }
        drop(valid);
        // The rebuilt opening must open C_0 (it does whenever every share was checked;
        // this guards the invariant before the key is derived).
        let c0 = Ristretto255::mul_base_h(&x, &r);
        r.zeroize();
        if !bool::from(c0.ct_eq(&self.session.public().group_commitment())) {
            return Err(Error::GroupMismatch);
        }
        let seed = hazmat::derive_seed(self.session.mode(), &x);
        Ok(Rebuilt { seed, used, blame })
    }

    /// Combine, hedged (the default): FIPS 204 ML-DSA.Sign with 32 bytes of randomness
    /// from `rng`.
    ///
    /// `round2` holds the envelopes by the transport's sender. Every envelope is checked
    /// (round-1 commitment, decryption, the share against the public Pedersen
    /// commitments); bad ones are excluded and blamed in [`Signed::blame`]. If at least
    /// `t` shares are valid, the key is rebuilt from the `t` of the smallest ids, checked
    /// against the group key, used to sign, and the signature verified.
    ///
    /// # Errors
    /// [`Error::PurposeMismatch`] (a key-ceremony session),
    /// [`Error::NotEnoughValidShares`] naming every culprit,
    /// [`Error::GroupKeyMismatch`] (the rebuilt key is not the group key: nothing is
    /// signed), [`Error::MlDsa`] (the signature failed its own verification).
    ///
    /// # Security
    /// The signing key exists in this process's memory during the call and is zeroized
    /// before it returns (x, ξ, the ML-DSA secret key, every decrypted share).
    pub fn combine(
        self,
        round2: &BTreeMap<PartyId, Round2Message>,
        rng: &mut impl CryptoRngCore,
    ) -> Result<Signed, Error> {
        let mut rnd = Zeroizing::new([0u8; 32]);
        rng.fill_bytes(&mut rnd[..]);
        self.sign_with(round2, Some(&rnd))
    }

    /// Combine with deterministic FIPS 204 signing (`rnd = 0^32`): the signature is a
    /// function of the key and the message only.
    ///
    /// # Errors
    /// As [`CombineState::combine`].
    ///
    /// # Security
    /// As [`CombineState::combine`]; deterministic signing is more exposed to
    /// fault and side-channel attacks than hedged signing.
    pub fn combine_deterministic(self, round2: &BTreeMap<PartyId, Round2Message>) -> Result<Signed, Error> {
        self.sign_with(round2, None)
    }

    fn sign_with(
        self,
        round2: &BTreeMap<PartyId, Round2Message>,
        rnd: Option<&[u8; 32]>,
    ) -> Result<Signed, Error> {
        let group_key = match (self.session.purpose(), self.session.group_key()) {
            (Purpose::Sign, Some(k)) => k.clone(),
            _ => return Err(Error::PurposeMismatch),
        };
        let mode = self.session.mode();
        let rebuilt = self.rebuild(round2)?;
        let (pk, sk) = mldsa::keygen(mode, &rebuilt.seed);
        drop(rebuilt.seed);
        if pk != group_key.public_key {
            return Err(Error::GroupKeyMismatch);
        }
        let msg = self.session.message();
        let ctx = self.session.context();
        let signature = mldsa::sign(mode, &sk, msg, ctx, rnd)?;
        drop(sk);
        mldsa::verify(mode, &pk, msg, ctx, &signature)?;
        Ok(Signed {
            mode,
            signature,
            signers: rebuilt.used,
            blame: rebuilt.blame,
        })
    }
}

/// A FIPS 204 signature made by the combiner, with who contributed and who was blamed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed {
    mode: Mode,
    signature: Vec<u8>,
    signers: Vec<PartyId>,
    blame: Vec<Blame>,
}

impl Signed {
    /// The parameter set.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The FIPS 204 signature (sigEncode), verifiable with [`mldsa::verify`].
    pub fn signature(&self) -> &[u8] {
        &self.signature
    }

    /// The signature, by value.
    pub fn into_signature(self) -> Vec<u8> {
        self.signature
    }

    /// The `t` signers whose shares rebuilt the key, increasing.
    pub fn signers(&self) -> &[PartyId] {
        &self.signers
    }

    /// The parties excluded and why (in round 1 or 2), by party.
    pub fn blame(&self) -> &[Blame] {
        &self.blame
    }

    /// The signature in the reference's `PULS` frame.
    pub fn to_frame(&self) -> Vec<u8> {
        framed(&SIGNATURE_MAGIC, self.mode, &self.signature)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_separated_by_mode_and_secret() {
        let x = Scalar::from(42u64);
        let a = hazmat::derive_seed(Mode::MlDsa44, &x);
        let b = hazmat::derive_seed(Mode::MlDsa65, &x);
        let c = hazmat::derive_seed(Mode::MlDsa44, &Scalar::from(43u64));
        assert_ne!(*a, *b);
        assert_ne!(*a, *c);
        assert_eq!(*a, *hazmat::derive_seed(Mode::MlDsa44, &x));
    }

    #[test]
    fn message_sizes() {
        assert_eq!(super::super::round1::ROUND1_LEN, 116);
        assert_eq!(super::super::round2::ROUND2_LEN, 1262);
    }
}
