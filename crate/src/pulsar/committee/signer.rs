//! A committee signer, in the crate's one party shape. Leaderless: every signer broadcasts
//! its three messages to the others and runs the public Combine itself.
//!
//! | step | inbox | sends |
//! |---|---|---|
//! | [`Signer::start`] | — | `PQC1` commitment (run 1) |
//! | "reveal" | the other signers' `PQC1`s | `PQC2` reveal |
//! | "respond" | their `PQC2`s, each checked against its commitment | `PQC3` responses |
//! | "combine" | their `PQC3`s | nothing ([`Step::Done`] with [`Signed`]) — or the next run's `PQC1` |
//!
//! Messages may arrive early (a reveal before the last commitment; the next run's
//! commitment before the last response): each is checked and kept for its round. One step
//! advances at most one round; a host steps again with whatever arrived next.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;

use rand_core::CryptoRngCore;
use zeroize::Zeroizing;

use super::key::KeyShare;
use super::message::{self, id_bytes, keep, Header, Kind};
use super::Error;
use crate::hash::{tags, Transcript};
use crate::mldsa::poly::PolyVec;
use crate::mldsa::threshold::{self as kernel, Matrix, Samples, Shape};
use crate::party::inbox::{tidy, unique};
use crate::party::{
    culprits, misbehave, Blame, BlameReason, Incoming, Misbehaviour, Outgoing, Party, Round, Step,
};
use crate::PartyId;

/// Runs a session makes before it gives up ([`SignParams::with_max_runs`]). Each run
/// succeeds with probability at least ½, so 32 failed runs mean a misbehaving signer.
pub const DEFAULT_MAX_RUNS: u16 = 32;

/// What a signing session signs, and who signs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignParams {
    session: [u8; 32],
    signers: Vec<PartyId>,
    message: Vec<u8>,
    context: Vec<u8>,
    max_runs: u16,
}

impl SignParams {
    /// A session `session` (unique per signing: a replay of another session's messages is
    /// refused) in which `signers` sign `message` under FIPS 204 context `context`.
    ///
    /// # Errors
    /// [`Error::DuplicateSigner`], [`Error::ContextTooLong`].
    pub fn new(
        session: [u8; 32],
        signers: &[PartyId],
        message: &[u8],
        context: &[u8],
    ) -> Result<Self, Error> {
        if context.len() > 255 {
            return Err(Error::ContextTooLong { len: context.len() });
        }
        let sorted =
            crate::party::sorted_distinct(signers).map_err(|party| Error::DuplicateSigner { party })?;
        Ok(SignParams {
            session,
            signers: sorted,
            message: message.to_vec(),
            context: context.to_vec(),
            max_runs: DEFAULT_MAX_RUNS,
        })
    }

    /// The same session with at most `runs` runs (at least 1).
    #[must_use]
    pub fn with_max_runs(mut self, runs: u16) -> Self {
        self.max_runs = runs.max(1);
        self
    }

    /// The signers, increasing.
    pub fn signers(&self) -> &[PartyId] {
        &self.signers
    }

    /// The message.
    pub fn message(&self) -> &[u8] {
        &self.message
    }
}

/// What a signer ends with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed {
    /// The FIPS 204 signature, verified under the committee key.
    pub signature: Vec<u8>,
    /// Runs it took (1 when the first succeeded).
    pub runs: u16,
    /// The slot of the last run that gave the signature.
    pub slot: usize,
    /// Bytes this signer broadcast over the whole session.
    pub bytes_sent: usize,
    /// Slots this signer rejected over the session (its local rejection test).
    pub rejected: usize,
    /// Messages this signer dropped, with their senders and why.
    pub dropped: Vec<Blame>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Waiting for the run's commitments.
    Commit,
    /// Waiting for the reveals.
    Reveal,
    /// Waiting for the responses.
    Respond,
}

/// One run's state. The seed answers one challenge set: it is taken when the party responds.
struct Run {
    seed: Option<Zeroizing<[u8; 64]>>,
    /// The samples behind the reveal, kept for round 3 where they are small enough.
    samples: Samples,
    reveal: Vec<u8>,
    commits: BTreeMap<PartyId, [u8; 32]>,
    reveals: BTreeMap<PartyId, Vec<u8>>,
    responses: BTreeMap<PartyId, Vec<u8>>,
    /// The responses decoded on arrival (Combine reads these).
    decoded: BTreeMap<PartyId, Vec<Option<PolyVec>>>,
    sums: Vec<PolyVec>,
    mine: Vec<Option<PolyVec>>,
}

/// One signer of a committee session.
///
/// # Security
/// Holds the member's share and the run's secret seed; both are wiped when it is dropped.
/// The seed is used for exactly one challenge set and the type cannot be cloned or
/// serialised, so a round-1 state can never answer twice.
pub struct Signer {
    share: KeyShare,
    params: SignParams,
    shape: Shape,
    active: u8,
    mu: [u8; 64],
    binding: [u8; 32],
    matrix: Matrix,
    fresh: Zeroizing<[u8; 64]>,
    run_number: u16,
    phase: Option<Phase>,
    run: Run,
    next_commits: BTreeMap<PartyId, [u8; 32]>,
    dropped: Vec<Blame>,
    bytes_sent: usize,
    rejected: usize,
    cheat: Misbehaviour,
}

impl fmt::Debug for Signer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("committee::Signer")
            .field("me", &self.share.id())
            .field("run", &self.run_number)
            .field("round", &self.round())
            .finish_non_exhaustive()
    }
}

impl Signer {
    /// Starts `share`'s owner's part in the session `params`, and returns its run-1
    /// commitment (a broadcast to the other signers).
    ///
    /// # Errors
    /// [`Error::WrongSignerCount`] (the scheme signs with exactly T), [`Error::UnknownParty`]
    /// (a signer outside the committee), [`Error::NotASigner`].
    ///
    /// # Security
    /// `rng` seeds the session's randomness, hedged with the share's private key: each run's
    /// seed is `TupleHash(key, fresh, binding, run)`, so a weak `rng` alone does not repeat
    /// a seed across sessions.
    pub fn start(
        share: &KeyShare,
        params: &SignParams,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Signer, Outgoing), Error> {
        Self::start_with(share, params, None, rng)
    }

    /// As [`Signer::start`], for a signer that misbehaves as `cheat` says
    /// ([`Cheat::BadContribution`](crate::party::hazmat::Cheat::BadContribution): a reveal
    /// that breaks its commitment; [`Cheat::Garbage`](crate::party::hazmat::Cheat::Garbage):
    /// every broadcast cut short).
    ///
    /// # Errors
    /// As [`Signer::start`].
    #[cfg(feature = "hazmat")]
    pub fn start_cheating(
        share: &KeyShare,
        params: &SignParams,
        cheat: crate::party::hazmat::Cheat,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Signer, Outgoing), Error> {
        Self::start_with(share, params, Some(cheat), rng)
    }

    fn start_with(
        share: &KeyShare,
        params: &SignParams,
        cheat: Misbehaviour,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Signer, Outgoing), Error> {
        let key = share.committee();
        let shape = key.shape();
        if params.signers.len() != key.threshold() {
            return Err(Error::WrongSignerCount {
                needed: key.threshold(),
                got: params.signers.len(),
            });
        }
        let mut active = 0u8;
        for &s in &params.signers {
            let at = key.position(s).ok_or(Error::UnknownParty { party: s })?;
            active |= 1 << at;
        }
        if !params.signers.contains(&share.id()) {
            return Err(Error::NotASigner { party: share.id() });
        }
        let mu = crate::mldsa::pure_mu(key.public_key(), &params.message, &params.context).map_err(|_| {
            Error::ContextTooLong {
                len: params.context.len(),
            }
        })?;
        let binding = session_binding(&params.session, &key.id(), &params.signers, &mu);
        let mut rho = [0u8; 32];
        rho.copy_from_slice(&key.public_key()[..32]);
        let mut fresh = Zeroizing::new([0u8; 64]);
        rng.fill_bytes(&mut fresh[..]);
        let mut signer = Signer {
            share: share.clone(),
            params: params.clone(),
            shape,
            active,
            mu,
            binding,
            matrix: kernel::matrix(key.mode(), &rho),
            fresh,
            run_number: 0,
            phase: Some(Phase::Commit),
            run: empty_run(),
            next_commits: BTreeMap::new(),
            dropped: Vec::new(),
            bytes_sent: 0,
            rejected: 0,
            cheat,
        };
        let out = signer.begin_run();
        Ok((signer, out))
    }

    /// The session's binding (in every message's header).
    pub fn session_binding(&self) -> &[u8; 32] {
        &self.binding
    }

    /// The current run (from 1).
    pub fn run(&self) -> u16 {
        self.run_number
    }

    fn me(&self) -> PartyId {
        self.share.id()
    }

    fn header(&self) -> Header {
        Header {
            mode: self.shape.mode,
            session: self.binding,
            run: self.run_number,
            from: self.me(),
        }
    }

    fn commitment_of(&self, from: PartyId, reveal: &[u8]) -> [u8; 32] {
        message::commitment(
            &self.binding,
            self.shape.mode,
            self.shape.threshold,
            self.shape.parties,
            self.shape.reps,
            &self.params.signers,
            self.run_number,
            from,
            reveal,
        )
    }

    /// Starts the next run: a fresh seed, the K commitments, and the `PQC1` to broadcast.
    fn begin_run(&mut self) -> Outgoing {
        self.run_number += 1;
        let mut seed = Zeroizing::new([0u8; 64]);
        let mut t = Transcript::new(tags::PULSAR_COMMITTEE_NONCE);
        t.append(&self.share.secret.key)
            .append(&self.fresh[..])
            .append(&self.binding)
            .append(&self.run_number.to_be_bytes());
        *seed = t.finalize();
        let mut samples = Vec::new();
        let keep = kernel::keeps_samples(&self.shape);
        let reveal = kernel::commit(&self.matrix, &self.shape, &seed, 0, keep.then_some(&mut samples));
        let commitment = self.commitment_of(self.me(), &reveal);
        self.run = empty_run();
        self.run.commits = core::mem::take(&mut self.next_commits);
        self.run.commits.insert(self.me(), commitment);
        self.run.seed = Some(seed);
        self.run.samples = samples;
        self.run.reveal = reveal;
        self.phase = Some(Phase::Commit);
        self.send(Kind::Commit, &commitment)
    }

    fn send(&mut self, kind: Kind, body: &[u8]) -> Outgoing {
        let mut out = Outgoing::broadcast(message::encode(kind, &self.header(), body));
        misbehave(self.cheat, &mut out);
        self.bytes_sent += out.broadcast.as_ref().map_or(0, Vec::len);
        out
    }

    /// Files one peer message, or says why it is dropped.
    fn file(&mut self, from: PartyId, bytes: &[u8]) -> Option<BlameReason> {
        let (kind, h, body) = match message::decode(bytes) {
            Ok(m) => m,
            Err(e) => return Some(BlameReason::Malformed(e)),
        };
        if !self.params.signers.contains(&from) {
            return Some(BlameReason::UnknownParty);
        }
        if h.from != from {
            return Some(BlameReason::SenderMismatch { claimed: h.from });
        }
        if h.mode != self.shape.mode {
            return Some(BlameReason::ParameterMismatch);
        }
        if h.session != self.binding {
            return Some(BlameReason::WrongSession);
        }
        let next = h.run == self.run_number.wrapping_add(1) && kind == Kind::Commit;
        if h.run != self.run_number && !next {
            return Some(BlameReason::WrongSession);
        }
        let (mode, reps) = (self.shape.mode, self.shape.reps);
        let mut decoded = None;
        let checked = match kind {
            Kind::Commit => message::read_commitment(body).map(|_| ()),
            Kind::Reveal => message::check_reveal(mode, reps, body),
            Kind::Response => message::decode_responses(mode, reps, body).map(|d| decoded = Some(d)),
        };
        if let Err(e) = checked {
            return Some(BlameReason::Malformed(e));
        }
        let fresh = match kind {
            Kind::Commit => {
                let mut c = [0u8; 32];
                c.copy_from_slice(body);
                let map = if next {
                    &mut self.next_commits
                } else {
                    &mut self.run.commits
                };
                keep(map, from, c)
            }
            Kind::Reveal => keep(&mut self.run.reveals, from, body.to_vec()),
            Kind::Response => keep(&mut self.run.responses, from, body.to_vec()).inspect(|()| {
                if let Some(d) = decoded {
                    self.run.decoded.insert(from, d);
                }
            }),
        };
        fresh.err()
    }

    fn others_all_in<V>(&self, map: &BTreeMap<PartyId, V>) -> bool {
        self.params
            .signers
            .iter()
            .all(|s| *s == self.me() || map.contains_key(s))
    }

    fn reveal_round(&mut self) -> Outgoing {
        let mut reveal = self.run.reveal.clone();
        #[cfg(feature = "hazmat")]
        if self.cheat == Some(crate::party::hazmat::Cheat::BadContribution) {
            // One coefficient moved by one: still below q (but for q − 1), no longer what
            // the commitment binds.
            reveal[0] ^= 1;
        }
        self.phase = Some(Phase::Reveal);
        let out = self.send(Kind::Reveal, &reveal);
        reveal.clear();
        out
    }

    fn respond_round(&mut self) -> Result<Outgoing, Error> {
        let mut broken = Vec::new();
        for (&from, reveal) in &self.run.reveals {
            if self.run.commits.get(&from) != Some(&self.commitment_of(from, reveal)) {
                broken.push(from);
            }
        }
        if !broken.is_empty() {
            // Public evidence: every honest signer reaches the same list. The broken reveals
            // are dropped, so the party keeps its state and waits, should it be stepped again.
            for from in &broken {
                self.run.reveals.remove(from);
                self.dropped.push(Blame::new(*from, BlameReason::BrokenReveal));
            }
            let mut blame = self.dropped.clone();
            tidy(&mut blame);
            blame.retain(|b| broken.contains(&b.party) && b.reason == BlameReason::BrokenReveal);
            return Err(Error::Aborted {
                culprits: culprits([blame.as_slice()]),
                blame,
            });
        }
        let reveals: Vec<&[u8]> = self
            .params
            .signers
            .iter()
            .map(|s| {
                if *s == self.me() {
                    self.run.reveal.as_slice()
                } else {
                    self.run.reveals.get(s).map_or(&[][..], Vec::as_slice)
                }
            })
            .collect();
        // Every stored reveal was checked on arrival, so this cannot refuse one.
        let sums =
            kernel::aggregate(self.shape.mode, self.shape.reps, &reveals).map_err(|_| Error::Aborted {
                culprits: Vec::new(),
                blame: Vec::new(),
            })?;
        let seed = self.run.seed.take().ok_or(Error::Aborted {
            culprits: Vec::new(),
            blame: Vec::new(),
        })?;
        let kept = core::mem::take(&mut self.run.samples);
        let responses = kernel::respond(
            &self.shape,
            &self.share.secret,
            self.active,
            &seed,
            0,
            &self.mu,
            &sums,
            (!kept.is_empty()).then_some(&kept),
        );
        drop(kept);
        drop(seed);
        self.rejected += responses.iter().filter(|r| r.is_none()).count();
        let body = message::encode_responses(self.shape.mode, &responses);
        self.run.mine = responses.into_iter().map(|r| r.map(|z| *z)).collect();
        self.run.sums = sums;
        self.phase = Some(Phase::Respond);
        Ok(self.send(Kind::Response, &body))
    }

    fn combine_round(&mut self) -> Result<Step<Signed>, Error> {
        let mut all = Vec::with_capacity(self.params.signers.len());
        for s in &self.params.signers {
            if *s == self.me() {
                all.push(self.run.mine.clone());
            } else {
                // Decoded on arrival, with every other signer's.
                all.push(self.run.decoded.get(s).cloned().unwrap_or_default());
            }
        }
        let key = self.share.committee();
        if let Some(c) = kernel::combine(self.shape.mode, key.public_key(), &self.mu, &self.run.sums, &all) {
            // Fail closed: only a signature the ordinary verifier accepts leaves the party.
            key.verify(&self.params.message, &self.params.context, &c.signature)
                .map_err(|_| Error::CombinedSignatureInvalid)?;
            self.phase = None;
            let mut dropped = core::mem::take(&mut self.dropped);
            tidy(&mut dropped);
            return Ok(Step::Done(
                Outgoing::none(),
                Signed {
                    signature: c.signature,
                    runs: self.run_number,
                    slot: c.slot,
                    bytes_sent: self.bytes_sent,
                    rejected: self.rejected,
                    dropped,
                },
            ));
        }
        if self.run_number >= self.params.max_runs {
            return Err(Error::RunsExhausted {
                runs: self.run_number,
            });
        }
        Ok(Step::Continue(self.begin_run()))
    }
}

fn empty_run() -> Run {
    Run {
        seed: None,
        samples: Vec::new(),
        reveal: Vec::new(),
        commits: BTreeMap::new(),
        reveals: BTreeMap::new(),
        responses: BTreeMap::new(),
        decoded: BTreeMap::new(),
        sums: Vec::new(),
        mine: Vec::new(),
    }
}

/// The binding of a session: its id, the committee key, the signers and μ.
fn session_binding(session: &[u8; 32], key_id: &[u8; 32], signers: &[PartyId], mu: &[u8; 64]) -> [u8; 32] {
    let mut t = Transcript::new(tags::PULSAR_COMMITTEE_SESSION);
    t.append(session)
        .append(key_id)
        .append(&id_bytes(signers))
        .append(mu);
    t.finalize()
}

impl Party for Signer {
    type Output = Signed;

    fn id(&self) -> PartyId {
        self.me()
    }

    fn dropped_so_far(&self) -> &[Blame] {
        &self.dropped
    }

    fn round(&self) -> Option<Round> {
        let (index, name) = match self.phase? {
            Phase::Commit => (0, "reveal"),
            Phase::Reveal => (1, "respond"),
            Phase::Respond => (2, "combine"),
        };
        let number = 3 * usize::from(self.run_number.saturating_sub(1)) + index + 1;
        Some(Round {
            number: u8::try_from(number).unwrap_or(u8::MAX),
            name,
        })
    }

    /// Files the inbox, then runs the current round if every other signer's message for it
    /// is in.
    ///
    /// # Errors
    /// [`Error::Aborted`] (a reveal breaks its commitment), [`Error::RunsExhausted`],
    /// [`Error::CombinedSignatureInvalid`]; after the end, [`crate::party::Error::Finished`].
    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<Signed>, crate::Error> {
        let Some(phase) = self.phase else {
            return Err(crate::party::Error::Finished.into());
        };
        let mut dropped = Vec::new();
        for (from, _, bytes) in unique(self.me(), inbox, &mut dropped).messages {
            if let Some(reason) = self.file(from, bytes) {
                dropped.push(Blame::new(from, reason));
            }
        }
        self.dropped.extend(dropped);
        let step = match phase {
            Phase::Commit if self.others_all_in(&self.run.commits) => Step::Continue(self.reveal_round()),
            Phase::Reveal if self.others_all_in(&self.run.reveals) => Step::Continue(self.respond_round()?),
            Phase::Respond if self.others_all_in(&self.run.responses) => self.combine_round()?,
            _ => Step::Waiting,
        };
        Ok(step)
    }
}
