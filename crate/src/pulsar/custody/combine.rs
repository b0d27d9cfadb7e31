//! The combiner: collect the round-1 commitments, open the round-2 envelopes, check every
//! share against the public Pedersen commitments (blaming each signer whose envelope or
//! share is bad), rebuild `x` from `t` valid shares with Lagrange coefficients over the
//! set actually used, derive the ML-DSA key, check it is the group key, sign (FIPS 204,
//! Algorithm 2), verify (Algorithm 3), and zeroize.
//!
//! | step | inbox | does |
//! |---|---|---|
//! | [`CombinerParty::start`] | — | — |
//! | round 1 "collect commitments" | the signers' `PCR1`s | keeps the valid commitments |
//! | round 2 "combine" | the `PCR2` envelopes | opens, checks, rebuilds, signs ([`Step::Done`]) |
//!
//! **Blame only on evidence.** Round-1 commitments come over the authenticated broadcast
//! channel, so a bad one names its transport sender. Envelopes may cross any channel: an
//! envelope is attributed to the signer whose commitment it matches, never to whoever
//! claims to send it. An envelope that matches a commitment but does not decrypt, or
//! whose share does not open the public commitments, names that signer
//! ([`BlameReason::InvalidShare`]) — it committed to it. An envelope that matches no
//! commitment is discarded and counted ([`Signed::unattributed`]); a committed signer
//! whose envelope never arrived is listed in [`Signed::missing`], not blamed (the network
//! may have lost or altered it).
//!
//! **Checks at once.** The combiner expands its ML-KEM key once per session (where the CPU
//! has AVX2: `envelope::Opener`), then checks every opened share against the commitments
//! in one equation, `Σ ρ_i·(s_i·G + b_i·H) == Σ_k (Σ_i ρ_i·i^k)·C_k`, with weights `ρ` keyed
//! by its secret session key, which no signer can predict (feature `batched-combine`, on by
//! default). Only if that fails does it check the shares one by one, so the blame is the one
//! the per-share checks give.
//!
//! **Hashed four at a time.** Natively the envelopes' commitments and their AEAD keys are
//! made four at a time in the four-way Keccak (`round1::commit_all`, `envelope::open_all`:
//! the same bytes as one at a time). Every envelope is decapsulated first, then the keys
//! derived together, then each decrypted.
//!
//! **The key in one pass.** Natively the combiner derives the ML-DSA key, compares it with
//! the group key, signs and verifies in one pass (`mldsa::sign_from_seed`: Â expanded once,
//! the secret key never encoded; the same signature as the three calls, tested), and takes
//! the Lagrange coefficients of a signer set it has met before from the process's sharing
//! table (`party::shared`).
//!
//! The ML-DSA seed is `ξ = cSHAKE256-tuple("QUASAR-PULSAR-SEED-v1"; mode byte, x)`
//! (32 bytes, `x` in canonical little-endian form).

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;

use curve25519_dalek::Scalar;
use rand_core::CryptoRngCore;
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

use super::ceremony::{announce, GroupKeyAnnouncement};
use super::envelope::{self, CombinerKey};
use super::keys::framed;
use super::round1::commit_all;
use super::round2::{Round2Message, PLAINTEXT_LEN};
use super::session::{Purpose, Session};
use super::signer::{commitments, round1_fault};
use crate::hash::{tags, Transcript};
use crate::mldsa::{self, Mode};
use crate::party::inbox::tidy;
use crate::party::{Blame, BlameReason, Incoming, Outgoing, Party, Round, Step};
use crate::pulsar::frame::SIGNATURE_MAGIC;
use crate::pulsar::Error;
#[cfg(feature = "batched-combine")]
use crate::vss::batch::batch_weights;
use crate::vss::{lagrange_coefficients, Curve, Ristretto255, Share};
use crate::PartyId;

/// Misuse-prone building blocks of the custody scheme (feature `hazmat`).
#[cfg(feature = "hazmat")]
pub mod hazmat {
    use super::*;

    /// The ML-DSA seed derived from the group secret `x` for `mode`.
    ///
    /// # Security
    /// Whoever has `x` (or this seed) has the group's signing key.
    pub fn derive_seed(mode: Mode, x: &Scalar) -> Zeroizing<[u8; 32]> {
        super::derive_seed(mode, x)
    }
}

/// `ξ = cSHAKE256-tuple("QUASAR-PULSAR-SEED-v1"; mode byte, x)`.
pub(crate) fn derive_seed(mode: Mode, x: &Scalar) -> Zeroizing<[u8; 32]> {
    let mut t = Transcript::new(tags::PULSAR_SEED);
    t.append(&[mode.to_byte()]).append(x.as_bytes());
    Zeroizing::new(t.finalize())
}

/// A signature made by the combiner, with the parties whose shares it used and what the
/// combiner learnt about the others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed {
    mode: Mode,
    signature: Vec<u8>,
    signers: Vec<PartyId>,
    blame: Vec<Blame>,
    missing: Vec<PartyId>,
    unattributed: usize,
}

impl Signed {
    /// The parameter set.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The FIPS 204 signature.
    pub fn signature(&self) -> &[u8] {
        &self.signature
    }

    /// The FIPS 204 signature, owned.
    pub fn into_signature(self) -> Vec<u8> {
        self.signature
    }

    /// The parties whose shares were used, increasing (exactly `t`).
    pub fn signers(&self) -> &[PartyId] {
        &self.signers
    }

    /// The signers blamed, and why (increasing by party).
    pub fn blame(&self) -> &[Blame] {
        &self.blame
    }

    /// Committed signers whose envelope never arrived intact (not blamed: see the module
    /// docs), increasing.
    pub fn missing(&self) -> &[PartyId] {
        &self.missing
    }

    /// How many received envelopes matched no commitment (discarded).
    pub fn unattributed(&self) -> usize {
        self.unattributed
    }

    /// The signature as a `PULS` frame.
    pub fn to_frame(&self) -> Vec<u8> {
        framed(&SIGNATURE_MAGIC, self.mode, &self.signature)
    }

    /// The same signature with more messages the combiner dropped added to its blame.
    pub(crate) fn with_dropped(mut self, mut more: Vec<Blame>) -> Signed {
        self.blame.append(&mut more);
        tidy(&mut self.blame);
        self
    }
}

/// What a combiner ends with: a signature, or (key ceremony) the group-key announcement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Combined {
    /// A signing (or activation) session's signature.
    Signed(Signed),
    /// A key ceremony's announcement, to broadcast to every party.
    Announcement(GroupKeyAnnouncement),
}

/// What round 2 rebuilt.
pub(crate) struct Rebuilt {
    pub(crate) seed: Zeroizing<[u8; 32]>,
    pub(crate) used: Vec<PartyId>,
    pub(crate) blame: Vec<Blame>,
    pub(crate) missing: Vec<PartyId>,
    pub(crate) unattributed: usize,
}

enum Stage {
    Collecting,
    Combining(BTreeMap<PartyId, [u8; 32]>),
    Finished,
}

/// The combiner of one custody session (see the module docs).
///
/// # Security
/// Holds the session's ML-KEM decapsulation key; while it combines it holds the group
/// secret and the ML-DSA key in memory, wiped as soon as the signature is made. **The
/// combiner is trusted for that moment**: a malicious one can keep the key.
pub struct CombinerParty {
    key: CombinerKey,
    session: Session,
    stage: Stage,
    blame: Vec<Blame>,
    /// The signing randomness of the session's one signature (hedged), drawn at start;
    /// `None` signs deterministically.
    rnd: Option<Zeroizing<[u8; 32]>>,
}

impl fmt::Debug for CombinerParty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("custody::CombinerParty")
            .field("session", &self.session)
            .field("round", &self.round())
            .finish_non_exhaustive()
    }
}

impl CombinerParty {
    /// Starts combining `session` with the session's combiner key (hedged signing: the
    /// signing randomness comes from `rng`).
    ///
    /// # Errors
    /// [`Error::CombinerMismatch`] when `key` is not the session's combiner key.
    pub fn start(
        key: CombinerKey,
        session: &Session,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(CombinerParty, Outgoing), Error> {
        let mut rnd = Zeroizing::new([0u8; 32]);
        rng.fill_bytes(&mut rnd[..]);
        Self::start_with(key, session, Some(rnd))
    }

    /// As [`CombinerParty::start`], signing deterministically (FIPS 204 `rnd = 0³²`; the
    /// key ceremony's proof of possession too): same shares, same signature.
    ///
    /// # Errors
    /// As [`CombinerParty::start`].
    pub fn start_deterministic(
        key: CombinerKey,
        session: &Session,
    ) -> Result<(CombinerParty, Outgoing), Error> {
        Self::start_with(key, session, None)
    }

    fn start_with(
        key: CombinerKey,
        session: &Session,
        rnd: Option<Zeroizing<[u8; 32]>>,
    ) -> Result<(CombinerParty, Outgoing), Error> {
        if key.public_key() != session.combiner() {
            return Err(Error::CombinerMismatch);
        }
        let party = CombinerParty {
            key,
            session: session.clone(),
            stage: Stage::Collecting,
            blame: Vec::new(),
            rnd,
        };
        Ok((party, Outgoing::none()))
    }

    /// The session.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// What is wrong with the header of committed signer `p`'s envelope, if anything.
    fn header_fault(&self, p: PartyId, m: &Round2Message) -> Option<BlameReason> {
        let as_round1 = super::round1::Round1Message {
            header: m.header,
            commitment: [0; 32],
        };
        round1_fault(p, &as_round1, &self.session)
    }

    /// The share in committed signer `p`'s opened envelope (`None`: it did not open), or
    /// why `p` is blamed.
    fn share_of(
        &self,
        p: PartyId,
        opening: Option<Zeroizing<Vec<u8>>>,
    ) -> Result<Share<Ristretto255>, BlameReason> {
        let opening = opening.ok_or(BlameReason::InvalidShare)?;
        if opening.len() != PLAINTEXT_LEN {
            return Err(BlameReason::InvalidShare);
        }
        // Public: whether the decrypted header names the sender and generation decides a
        // public blame (compared in constant time: the whole plaintext is secret-derived).
        let header = opening[..2].ct_eq(&p.get().to_be_bytes())
            & opening[2..10].ct_eq(&self.session.generation().to_be_bytes());
        if !crate::ct::public(bool::from(header)) {
            return Err(BlameReason::InvalidShare);
        }
        let scalar = |bytes: &[u8]| -> Option<Scalar> {
            let mut b = Zeroizing::new([0u8; 32]);
            b.copy_from_slice(bytes);
            let s = Scalar::from_canonical_bytes(*b);
            // Public: whether the share is canonical decides a public blame.
            crate::ct::public(bool::from(s.is_some())).then(|| s.unwrap_or(Scalar::ZERO))
        };
        let (Some(value), Some(blind)) = (scalar(&opening[10..42]), scalar(&opening[42..74])) else {
            return Err(BlameReason::InvalidShare);
        };
        Ok(Share::<Ristretto255>::new(value, blind))
    }

    /// Blames and drops the signers whose shares do not open the session's commitments:
    /// checked all at once with weights no signer can predict (keyed by the session's secret
    /// combiner key), one by one only when that fails (always one by one without
    /// `batched-combine`).
    fn drop_bad_shares(&self, valid: &mut Vec<(PartyId, Share<Ristretto255>)>, blame: &mut Vec<Blame>) {
        let commitments = self.session.public().commitments();
        #[cfg(feature = "batched-combine")]
        {
            let seed = self.key.derived_secret(tags::PULSAR_COMBINE_BATCH);
            let rho =
                batch_weights::<Ristretto255>(tags::PULSAR_COMBINE_BATCH, &seed[..], b"shares", valid.len());
            if commitments.verify_shares_weighted(valid, &rho) {
                return;
            }
        }
        let mut i = 0;
        while i < valid.len() {
            let (p, share) = &valid[i];
            if commitments.verify_share(*p, share).is_ok() {
                i += 1;
                continue;
            }
            blame.push(Blame::new(*p, BlameReason::InvalidShare));
            // Swapped to the end and dropped there (wiped): no copy is left behind.
            let last = valid.len() - 1;
            valid.swap(i, last);
            valid.truncate(last);
        }
    }

    /// Round 2: attributes every envelope by its commitment, opens and checks it, and
    /// rebuilds the seed from `t` valid shares. Borrows the state: on error the party is
    /// unchanged.
    fn rebuild(
        &self,
        committed: &BTreeMap<PartyId, [u8; 32]>,
        inbox: &[Incoming<'_>],
    ) -> Result<Rebuilt, Error> {
        let transcript = self.session.public().transcript_hash();
        let by_commitment = crate::sort::map_of(committed.iter().map(|(p, c)| (*c, *p)));
        let mut blame = self.blame.clone();
        // Sized up front: a reallocation would leave copies of shares behind.
        let mut valid: Vec<(PartyId, Share<Ristretto255>)> = Vec::with_capacity(committed.len());
        let mut seen: Vec<PartyId> = Vec::with_capacity(committed.len());
        let mut unattributed = 0usize;
        // Every envelope that decodes, attributed by its commitment (the commitments made
        // together: `commit_all`). Loops that push, not iterator chains: each chain would
        // add its own code to the WebAssembly module, which gains nothing here.
        let mut decoded: Vec<(&[u8], Round2Message)> = Vec::with_capacity(inbox.len());
        for m in inbox {
            match Round2Message::from_bytes(m.bytes) {
                Ok(envelope) => decoded.push((m.bytes, envelope)),
                Err(_) => unattributed += 1,
            }
        }
        let mut bytes: Vec<&[u8]> = Vec::with_capacity(decoded.len());
        for (b, _) in &decoded {
            bytes.push(b);
        }
        let commitments = commit_all(transcript, &bytes);
        // Each committed envelope (its place in `decoded`) with its associated data.
        let mut opening: Vec<(PartyId, usize, Vec<u8>)> = Vec::with_capacity(decoded.len());
        for (i, ((_, envelope), c)) in decoded.iter().zip(&commitments).enumerate() {
            // The transport's sender proves nothing here: only a commitment match does.
            let Some(&p) = by_commitment.get(c) else {
                unattributed += 1;
                continue;
            };
            if seen.contains(&p) {
                continue; // the same committed envelope again
            }
            seen.push(p);
            match self.header_fault(p, envelope) {
                Some(reason) => blame.push(Blame::new(p, reason)),
                None => opening.push((p, i, Round2Message::aad(&envelope.header, transcript))),
            }
        }
        // The expanded key lives only while the envelopes are opened (wiped on drop); their
        // keys are derived together (`envelope::open_all`).
        {
            let opener = envelope::Opener::new(&self.key, opening.len());
            let mut sealed: Vec<envelope::Sealed<'_>> = Vec::with_capacity(opening.len());
            for (_, i, aad) in &opening {
                let e = &decoded[*i].1;
                sealed.push(envelope::Sealed {
                    aad,
                    kem_ct: &e.kem_ciphertext,
                    sealed: &e.sealed,
                });
            }
            let mut opened = envelope::open_all(&opener, &sealed);
            for ((p, _, _), envelope) in opening.iter().zip(opened.iter_mut()) {
                match self.share_of(*p, envelope.take()) {
                    Ok(share) => valid.push((*p, share)),
                    Err(reason) => blame.push(Blame::new(*p, reason)),
                }
            }
        }
        self.drop_bad_shares(&mut valid, &mut blame);
        let missing: Vec<PartyId> = committed.keys().copied().filter(|p| !seen.contains(p)).collect();
        tidy(&mut blame);
        let needed = self.session.threshold();
        if valid.len() < needed {
            return Err(not_enough(needed, valid.len(), blame));
        }
        crate::sort::sort_by_key_stable(&mut valid, |(p, _)| *p);
        valid.truncate(needed);
        let used: Vec<PartyId> = valid.iter().map(|(p, _)| *p).collect();

        // Lagrange at zero over exactly the parties used.
        let lambda = coefficients(&used)?;
        let mut x = Zeroizing::new(Scalar::ZERO);
        let mut r = Zeroizing::new(Scalar::ZERO);
        for ((_, share), l) in valid.iter().zip(lambda.iter()) {
            *x += share.value() * l;
            *r += share.blind() * l;
        }
        drop(valid);
        // The rebuilt opening must open C_0 (it does whenever every share was checked). A
        // key ceremony guards that invariant here, before its key exists; a signing session
        // compares the key it derives with the group key instead (`sign`), which implies it.
        if self.session.purpose() == Purpose::KeyCeremony {
            let c0 = Ristretto255::mul_base_h(&x, &r);
            // Public: whether the rebuilt secret opens the group commitment (an internal check).
            if !crate::ct::public(bool::from(c0.ct_eq(&self.session.public().group_commitment()))) {
                return Err(Error::GroupMismatch);
            }
        }
        r.zeroize();
        let seed = derive_seed(self.session.mode(), &x);
        Ok(Rebuilt {
            seed,
            used,
            blame,
            missing,
            unattributed,
        })
    }

    /// Signs the session's message with the rebuilt key (signing sessions).
    fn sign(&self, rebuilt: Rebuilt) -> Result<Signed, Error> {
        let group_key = self.session.group_key().ok_or(Error::PurposeMismatch)?.clone();
        let mode = self.session.mode();
        let (msg, ctx) = (self.session.message(), self.session.context());
        // Natively in one pass: Â expanded once for the key, the signature and its check, and
        // a seed whose ρ is not the group key's stops before Â is expanded.
        #[cfg(not(target_arch = "wasm32"))]
        let signature = mldsa::sign_from_seed(
            mode,
            &rebuilt.seed,
            group_key.public_key(),
            msg,
            ctx,
            self.rnd.as_deref(),
        )?
        .ok_or(Error::GroupKeyMismatch)?;
        // The Pulsar module keeps the three calls (its size budget).
        #[cfg(target_arch = "wasm32")]
        let signature = {
            let (pk, sk) = mldsa::keygen(mode, &rebuilt.seed);
            if pk != group_key.public_key() {
                return Err(Error::GroupKeyMismatch);
            }
            let signature = mldsa::sign(mode, &sk, msg, ctx, self.rnd.as_deref())?;
            drop(sk);
            mldsa::verify(mode, &pk, msg, ctx, &signature)?;
            signature
        };
        drop(rebuilt.seed);
        Ok(Signed {
            mode,
            signature,
            signers: rebuilt.used,
            blame: rebuilt.blame,
            missing: rebuilt.missing,
            unattributed: rebuilt.unattributed,
        })
    }
}

/// The Lagrange coefficients at zero over `used` (public): natively once per process for
/// a set, so a combiner that signs session after session with the same signers reuses
/// them (at 86-of-128 they were a twentieth of Combine).
fn coefficients(used: &[PartyId]) -> Result<Vec<Scalar>, Error> {
    #[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
    let made = {
        let size = 32 * used.len();
        let key = || crate::party::id_bytes(used);
        (*crate::party::shared::memo(b"pulsar-combine-lagrange", key, size, || {
            lagrange_coefficients::<Ristretto255>(used)
        }))
        .clone()
    };
    #[cfg(not(all(feature = "in-process-sharing", not(target_arch = "wasm32"))))]
    let made = lagrange_coefficients::<Ristretto255>(used);
    Ok(made.map_err(crate::lss::Error::from)?)
}

fn not_enough(needed: usize, got: usize, mut blame: Vec<Blame>) -> Error {
    tidy(&mut blame);
    Error::NotEnoughValidShares {
        needed,
        got,
        culprits: crate::party::culprits([blame.as_slice()]),
        blame,
    }
}

impl Party for CombinerParty {
    type Output = Combined;

    fn id(&self) -> PartyId {
        self.key.id()
    }

    fn round(&self) -> Option<Round> {
        match self.stage {
            Stage::Collecting => Some(Round {
                number: 1,
                name: "collect commitments",
            }),
            Stage::Combining(_) => Some(Round {
                number: 2,
                name: "combine",
            }),
            Stage::Finished => None,
        }
    }

    /// # Errors
    /// Round 1: [`Error::NotEnoughValidShares`] below `t` valid commitments; round 2: the
    /// same below `t` valid shares, [`Error::GroupKeyMismatch`]. The party keeps its state.
    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<Combined>, crate::Error> {
        match core::mem::replace(&mut self.stage, Stage::Finished) {
            Stage::Collecting => {
                let mut blame = Vec::new();
                let committed = commitments(self.id(), &self.session, inbox, &mut blame);
                let needed = self.session.threshold();
                if committed.len() < needed {
                    self.stage = Stage::Collecting;
                    return Err(not_enough(needed, committed.len(), blame).into());
                }
                self.blame = blame;
                self.stage = Stage::Combining(committed);
                Ok(Step::Continue(Outgoing::none()))
            }
            Stage::Combining(committed) => {
                let result =
                    self.rebuild(&committed, inbox)
                        .and_then(|rebuilt| match self.session.purpose() {
                            Purpose::Sign => self.sign(rebuilt).map(Combined::Signed),
                            Purpose::KeyCeremony => announce(&self.session, rebuilt, self.rnd.as_deref())
                                .map(Combined::Announcement),
                        });
                match result {
                    Ok(done) => {
                        let out = match &done {
                            Combined::Announcement(a) => Outgoing::broadcast(a.to_bytes()),
                            Combined::Signed(_) => Outgoing::none(),
                        };
                        Ok(Step::Done(out, done))
                    }
                    Err(e) => {
                        self.stage = Stage::Combining(committed);
                        Err(e.into())
                    }
                }
            }
            Stage::Finished => Err(crate::party::Error::Finished.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_separated_by_mode_and_secret() {
        let x = Scalar::from(42u64);
        let a = derive_seed(Mode::MlDsa44, &x);
        let b = derive_seed(Mode::MlDsa65, &x);
        let c = derive_seed(Mode::MlDsa44, &Scalar::from(43u64));
        assert_ne!(*a, *b);
        assert_ne!(*a, *c);
        assert_eq!(*a, *derive_seed(Mode::MlDsa44, &x));
    }

    #[test]
    fn message_sizes() {
        assert_eq!(super::super::round1::ROUND1_LEN, 116);
        assert_eq!(super::super::round2::ROUND2_LEN, 1262);
    }
}
