//! A Corona signer, in the crate's one party shape. Leaderless: every signer broadcasts its two
//! messages to the others and runs the public Combine itself (a relay that only watches could
//! combine as well).
//!
//! | step | inbox | sends |
//! |---|---|---|
//! | [`Signer::start`] | — | `COR1`: D_i and a MAC for each other signer |
//! | "respond" | the other signers' `COR1`s | `COR2`: the echoed c̃ and z_i |
//! | "combine" | their `COR2`s | nothing ([`Step::Done`] with [`Signed`]) |
//!
//! A `COR2` may arrive before the last `COR1`: it is checked and kept for its round. A peer
//! message that fails a check is dropped and its sender named, as it happens
//! ([`Party::dropped_so_far`]): the scheme is not robust, so the session then waits for a
//! message that will not come, and a host that gives up on it can say who broke it.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;

use rand_core::CryptoRngCore;
use zeroize::Zeroizing;

use super::deal::KeyShare;
use super::encoding::encode_signature;
use super::kernel::{self, WIDTH};
use super::message::{self, set_bytes};
use super::params::{N, ROWS};
use super::ring::{poly_add, Poly};
use super::verify::{self, PreparedGroupKey};
use super::Error;
use crate::hash::xof_x4::hash_x4;
use crate::hash::{tags, Transcript};
use crate::party::inbox::{tidy, unique};
use crate::party::{misbehave, Blame, BlameReason, Incoming, Misbehaviour, Outgoing, Party, Round, Step};
use crate::PartyId;

/// What a signing session signs, and who signs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignParams {
    session: [u8; 32],
    signers: Vec<PartyId>,
    message: Vec<u8>,
    context: Vec<u8>,
}

impl SignParams {
    /// A session `session` (the spec's sid: unique per signing session, fixed by whoever
    /// starts it, for example a hash of chain, height and round) in which `signers` sign
    /// `message` under `context`.
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
        })
    }

    /// The signers, increasing.
    pub fn signers(&self) -> &[PartyId] {
        &self.signers
    }

    /// The message.
    pub fn message(&self) -> &[u8] {
        &self.message
    }

    /// The session id.
    pub fn session(&self) -> &[u8; 32] {
        &self.session
    }

    /// The context string.
    pub fn context(&self) -> &[u8] {
        &self.context
    }
}

/// What a signer ends with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed {
    /// The `CORS` signature, verified under the group key.
    pub signature: Vec<u8>,
    /// Bytes this signer broadcast.
    pub bytes_sent: usize,
    /// Messages this signer dropped, with their senders and why.
    pub dropped: Vec<Blame>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Waiting for the other signers' commitments.
    Commit,
    /// Waiting for their responses.
    Respond,
}

/// Round 2's public results, kept for Combine.
struct Challenge {
    c_tilde: [u8; 32],
    h: Vec<[u32; N]>,
    z: Vec<Poly>,
}

/// One signer of a Corona session.
///
/// # Security
/// Holds the party's share and its round-1 secret NTT(R'_i); both are wiped when it is
/// dropped. R'_i answers exactly one challenge: it is taken out of the signer when the party
/// responds, and the type can be neither cloned nor serialised, so a round-1 state never
/// answers twice. A failed session is restarted with a new [`Signer`] (a new session id).
pub struct Signer {
    share: KeyShare,
    params: SignParams,
    set: Vec<u16>,
    set_bytes: Vec<u8>,
    /// A and 2^ξ·b̃ prepared: round 1's A·R'_i, Combine's and Verify's A·z.
    key: PreparedGroupKey,
    mu: [u8; 64],
    /// NTT(R'_i), 7×49 row-major: the round-1 secret (taken when responding).
    secret: Option<Zeroizing<Vec<Poly>>>,
    /// dgst_j of every accepted commitment, this signer's included.
    digests: BTreeMap<PartyId, [u8; 64]>,
    /// DSum so far: this signer's D_i plus every accepted D_j.
    dsum: Vec<Poly>,
    /// Accepted responses (c̃_j, z_j), checked against c̃ once it is known.
    responses: BTreeMap<PartyId, ([u8; 32], Vec<Poly>)>,
    challenge: Option<Challenge>,
    phase: Option<Phase>,
    dropped: Vec<Blame>,
    bytes_sent: usize,
    cheat: Misbehaviour,
}

impl fmt::Debug for Signer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("corona::Signer")
            .field("me", &self.share.id())
            .field("round", &self.round())
            .finish_non_exhaustive()
    }
}

impl Signer {
    /// Starts `share`'s owner's part in the session `params` and returns its round-1 message
    /// (a broadcast to the other signers). Round 1 does not depend on the message: it costs
    /// the same whenever it runs.
    ///
    /// # Errors
    /// [`Error::WrongSignerCount`] (fewer than t signers, or more than n),
    /// [`Error::UnknownParty`], [`Error::NotASigner`].
    ///
    /// # Security
    /// The round-1 seed is hedged (spec §4.5): ρ_i = KTH(R1-SEED; n_i; 32 bytes of `rng`,
    /// session, 0), with n_i a key derived from the share — a weak `rng` alone does not
    /// repeat a seed across sessions, and neither does a repeated session id alone.
    pub fn start(
        share: &KeyShare,
        params: &SignParams,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Signer, Outgoing), Error> {
        Self::start_with(share, params, None, rng)
    }

    /// As [`Signer::start`], for a signer that misbehaves as `cheat` says
    /// ([`Cheat::BadContribution`](crate::party::hazmat::Cheat::BadContribution): a z_i off by
    /// one, which no check can attribute; [`Cheat::Garbage`](crate::party::hazmat::Cheat::Garbage):
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
        let (t, n) = (share.threshold(), share.parties());
        if params.signers.len() < t || params.signers.len() > n {
            return Err(Error::WrongSignerCount {
                min: t,
                max: n,
                got: params.signers.len(),
            });
        }
        if let Some(&s) = params.signers.iter().find(|s| usize::from(s.get()) > n) {
            return Err(Error::UnknownParty { party: s });
        }
        if !params.signers.contains(&share.id()) {
            return Err(Error::NotASigner { party: share.id() });
        }
        let group = share.group_key();
        let set: Vec<u16> = params.signers.iter().map(|p| p.get()).collect();
        let mut fresh = Zeroizing::new([0u8; 32]);
        rng.fill_bytes(&mut fresh[..]);
        let mut h = Transcript::keyed(tags::CORONA_R1_SEED, &share.nonce_key[..]);
        h.append(&fresh[..])
            .append(&params.session)
            .append(&0u64.to_be_bytes());
        let seed: Zeroizing<[u8; 32]> = Zeroizing::new(h.finalize());
        let key = group.prepare();
        let (d, secret) = kernel::commit(key.matrix(), &seed);
        // D_i is published (MLWE hides R'_i in it).
        crate::ct::public_slice(&d);
        let mut d_bytes = Vec::with_capacity(message::D_LEN);
        super::encoding::encode_vec49(&d, &mut d_bytes);
        let digest = commitment_digest(share.x, &d_bytes);
        let set_bytes = set_bytes(&set);
        let macs: Vec<(u16, [u8; 32])> = set
            .iter()
            .filter(|&&j| j != share.x)
            .map(|&j| (j, mac(share, share.x, j, &params.session, &set_bytes, &digest)))
            .collect();
        let mut signer = Signer {
            share: share.clone(),
            params: params.clone(),
            set,
            set_bytes,
            key,
            mu: verify::message_digest(&group.digest, &params.context, &params.message),
            secret: Some(secret),
            digests: BTreeMap::from([(share.id(), digest)]),
            dsum: d,
            responses: BTreeMap::new(),
            challenge: None,
            phase: Some(Phase::Commit),
            dropped: Vec::new(),
            bytes_sent: 0,
            cheat,
        };
        let body = message::encode_commit(&params.session, share.x, &signer.set, &d_bytes, &macs);
        let out = signer.send(body);
        Ok((signer, out))
    }

    fn me(&self) -> PartyId {
        self.share.id()
    }

    fn send(&mut self, bytes: Vec<u8>) -> Outgoing {
        let mut out = Outgoing::broadcast(bytes);
        misbehave(self.cheat, &mut out);
        self.bytes_sent += out.broadcast.as_ref().map_or(0, Vec::len);
        out
    }

    /// Files one peer message, or says why it is dropped.
    fn file(
        &mut self,
        from: PartyId,
        magic: [u8; 4],
        bytes: &[u8],
        digest: Option<[u8; 64]>,
    ) -> Option<BlameReason> {
        if !self.params.signers.contains(&from) {
            return Some(BlameReason::UnknownParty);
        }
        match magic {
            message::COMMIT_MAGIC => self.file_commit(from, bytes, digest),
            message::RESPONSE_MAGIC => self.file_response(from, bytes),
            _ => Some(BlameReason::WrongKind),
        }
    }

    fn file_commit(&mut self, from: PartyId, bytes: &[u8], digest: Option<[u8; 64]>) -> Option<BlameReason> {
        let c = match message::decode_commit(bytes) {
            Ok(c) => c,
            Err(e) => return Some(BlameReason::Malformed(e)),
        };
        if c.from != from.get() {
            return PartyId::new(c.from).map(|claimed| BlameReason::SenderMismatch { claimed });
        }
        if c.sid != self.params.session {
            return Some(BlameReason::WrongSession);
        }
        if c.set != self.set {
            return Some(BlameReason::ParameterMismatch);
        }
        let expected = self.set.iter().filter(|&&j| j != c.from);
        if c.macs.len() != self.set.len() - 1 || !expected.zip(&c.macs).all(|(&j, m)| m.0 == j) {
            return Some(BlameReason::Malformed(crate::wire::Error::InvalidValue(
                "MAC list",
            )));
        }
        let digest = digest.unwrap_or_else(|| commitment_digest(c.from, c.d));
        if self.phase != Some(Phase::Commit) {
            // A second commitment after this signer moved on: a repeat or an equivocation.
            return Some(match self.digests.get(&from) {
                Some(d) if *d == digest => BlameReason::DuplicateMessage,
                _ => BlameReason::ConflictingMessage,
            });
        }
        let d = match super::encoding::decode_vec49(c.d, ROWS * WIDTH) {
            Ok(d) => d,
            Err(e) => return Some(BlameReason::Malformed(e)),
        };
        let me = self.share.x;
        let expected = mac(
            &self.share,
            c.from,
            me,
            &self.params.session,
            &self.set_bytes,
            &digest,
        );
        let got = c.macs.iter().find(|m| m.0 == me).map_or([0; 32], |m| m.1);
        if !crate::ct::bytes_eq(&expected, &got) {
            return Some(BlameReason::InvalidMac);
        }
        match self.digests.get(&from) {
            Some(d) if *d == digest => return Some(BlameReason::DuplicateMessage),
            Some(_) => return Some(BlameReason::ConflictingMessage),
            None => {}
        }
        self.digests.insert(from, digest);
        for (s, p) in self.dsum.iter_mut().zip(&d) {
            *s = poly_add(s, p);
        }
        None
    }

    fn file_response(&mut self, from: PartyId, bytes: &[u8]) -> Option<BlameReason> {
        let r = match message::decode_response(bytes) {
            Ok(r) => r,
            Err(e) => return Some(BlameReason::Malformed(e)),
        };
        if r.from != from.get() {
            return PartyId::new(r.from).map(|claimed| BlameReason::SenderMismatch { claimed });
        }
        if r.sid != self.params.session {
            return Some(BlameReason::WrongSession);
        }
        if let Some(c) = &self.challenge {
            if r.c_tilde != c.c_tilde {
                return Some(BlameReason::DifferentChallenge);
            }
        }
        match self.responses.get(&from) {
            Some(prev) if prev.0 == r.c_tilde && prev.1 == r.z => Some(BlameReason::DuplicateMessage),
            Some(_) => Some(BlameReason::ConflictingMessage),
            None => {
                self.responses.insert(from, (r.c_tilde, r.z));
                None
            }
        }
    }

    fn others_all_in<V>(&self, map: &BTreeMap<PartyId, V>) -> bool {
        self.params
            .signers
            .iter()
            .all(|s| *s == self.me() || map.contains_key(s))
    }

    /// Round 2 (spec §4.6–§4.7): the full-rank check, th, u, h̃, c̃, and z_i.
    fn respond(&mut self) -> Result<Outgoing, Error> {
        let dsum_hat = kernel::to_ntt_all(&self.dsum);
        if !kernel::full_rank(&dsum_hat) {
            self.phase = None;
            self.secret = None;
            return Err(Error::DegenerateCommitments);
        }
        let group = self.share.group_key();
        let mut t = Transcript::new(tags::CORONA_TRANSCRIPT);
        t.append(&group.digest)
            .append(&self.params.session)
            .append(&self.set_bytes);
        for d in self.digests.values() {
            t.append(d);
        }
        let th: [u8; 64] = t.finalize();
        let u = kernel::public_vector(&th, &self.mu);
        let h = kernel::rounded_commitment(&dsum_hat, &u);
        let c_tilde = verify::challenge_seed(&group.digest, &self.mu, &h);
        let c = verify::challenge(&c_tilde);
        let me = self.share.x;
        let masks: Vec<_> = self
            .set
            .iter()
            .filter(|&&j| j != me)
            .filter_map(|&j| {
                self.share
                    .pair(j)
                    .map(|p| (me < j, kernel::pair_mask(&p.1, &th, &self.mu)))
            })
            .collect();
        let secret = self.secret.take().ok_or(Error::UnattributableAbort)?;
        #[allow(unused_mut)]
        let mut z = kernel::respond(
            &secret,
            &u,
            kernel::lagrange(me, &self.set),
            &c,
            &self.share.share,
            &masks,
        );
        drop(secret);
        drop(masks);
        // z_i is published: the pairwise masks hide it until every response is summed.
        crate::ct::public_slice(&z);
        #[cfg(feature = "hazmat")]
        if self.cheat == Some(crate::party::hazmat::Cheat::BadContribution) {
            z[0][0] = super::arith::add(z[0][0], 1);
        }
        self.dsum = Vec::new();
        // Responses that came early are checked against the challenge now.
        let early: Vec<PartyId> = self
            .responses
            .iter()
            .filter(|(_, r)| r.0 != c_tilde)
            .map(|(p, _)| *p)
            .collect();
        for p in early {
            self.responses.remove(&p);
            self.dropped.push(Blame::new(p, BlameReason::DifferentChallenge));
        }
        let body = message::encode_response(&self.params.session, me, &c_tilde, &z);
        self.challenge = Some(Challenge { c_tilde, h, z });
        self.phase = Some(Phase::Respond);
        Ok(self.send(body))
    }

    /// Combine (spec §4.8), verified before anything leaves the party.
    fn combine(&mut self) -> Result<Step<Signed>, Error> {
        self.phase = None;
        let challenge = self.challenge.take().ok_or(Error::UnattributableAbort)?;
        let mut all: Vec<&[Poly]> = self.responses.values().map(|r| r.1.as_slice()).collect();
        all.push(&challenge.z);
        let sig = kernel::combine(&self.key, &challenge.h, challenge.c_tilde, &all)
            .ok_or(Error::ResponseOutOfRange)?;
        if !self.key.verify_values(&self.mu, &sig) {
            return Err(Error::UnattributableAbort);
        }
        let mut dropped = core::mem::take(&mut self.dropped);
        tidy(&mut dropped);
        Ok(Step::Done(
            Outgoing::none(),
            Signed {
                signature: encode_signature(&sig),
                bytes_sent: self.bytes_sent,
                dropped,
            },
        ))
    }
}

/// The digests dgst_j of every well-formed `COR1` among `messages` whose claimed sender is
/// its transport sender, four at a time (the four-way Keccak over 615 KB each).
fn commitment_digests(messages: &[(PartyId, [u8; 4], &[u8])]) -> BTreeMap<PartyId, [u8; 64]> {
    let commits: Vec<(PartyId, message::Commit<'_>)> = messages
        .iter()
        .filter(|m| m.1 == message::COMMIT_MAGIC)
        .filter_map(|&(from, _, bytes)| message::decode_commit(bytes).ok().map(|c| (from, c)))
        .filter(|(from, c)| c.from == from.get())
        .collect();
    let mut out = BTreeMap::new();
    for group in commits.chunks(4) {
        let ids: Vec<[u8; 2]> = group.iter().map(|(_, c)| c.from.to_be_bytes()).collect();
        let inputs: Vec<[&[u8]; 2]> = group.iter().zip(&ids).map(|((_, c), x)| [&x[..], c.d]).collect();
        let lanes: Vec<&[&[u8]]> = inputs.iter().map(|i| &i[..]).collect();
        for ((from, _), d) in group.iter().zip(hash_x4::<64>(tags::CORONA_D, &lanes)) {
            out.insert(*from, d);
        }
    }
    out
}

/// dgst_j = TH(D; x_j, D_j bytes; 64).
fn commitment_digest(x: u16, d: &[u8]) -> [u8; 64] {
    let mut t = Transcript::new(tags::CORONA_D);
    t.append(&x.to_be_bytes()).append(d);
    t.finalize()
}

/// mac_{from→to} = KTH(MAC; k^mac; x_from, x_to, sid, T, dgst_from; 32), keyed with the pair's
/// key as `share`'s owner holds it (all zeros for a pair it is not in: the MAC then fails).
fn mac(share: &KeyShare, from: u16, to: u16, sid: &[u8; 32], set: &[u8], digest: &[u8; 64]) -> [u8; 32] {
    let other = if from == share.x { to } else { from };
    let key = share.pair(other).map_or([0u8; 32], |p| p.2);
    let mut t = Transcript::keyed(tags::CORONA_MAC, &key);
    t.append(&from.to_be_bytes())
        .append(&to.to_be_bytes())
        .append(sid)
        .append(set)
        .append(digest);
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
        Some(match self.phase? {
            Phase::Commit => Round {
                number: 1,
                name: "respond",
            },
            Phase::Respond => Round {
                number: 2,
                name: "combine",
            },
        })
    }

    /// Files the inbox, then runs the current round if every other signer's message for it
    /// is in.
    ///
    /// # Errors
    /// [`Error::DegenerateCommitments`], [`Error::ResponseOutOfRange`],
    /// [`Error::UnattributableAbort`] (terminal: start a new session); after the end,
    /// [`crate::party::Error::Finished`].
    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<Signed>, crate::Error> {
        let Some(phase) = self.phase else {
            return Err(crate::party::Error::Finished.into());
        };
        let mut dropped = Vec::new();
        let messages = unique(self.me(), inbox, &mut dropped).messages;
        let digests = commitment_digests(&messages);
        for (from, magic, bytes) in messages {
            let digest = digests.get(&from).copied();
            if let Some(reason) = self.file(from, magic, bytes, digest) {
                dropped.push(Blame::new(from, reason));
            }
        }
        self.dropped.extend(dropped);
        let step = match phase {
            Phase::Commit if self.others_all_in(&self.digests) => Step::Continue(self.respond()?),
            Phase::Respond if self.others_all_in(&self.responses) => self.combine()?,
            _ => Step::Waiting,
        };
        Ok(step)
    }
}
