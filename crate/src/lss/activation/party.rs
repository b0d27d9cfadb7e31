//! The activation round as a party: members broadcast proofs of possession; every
//! participant (members, old dealers, observers) collects them into a certificate.
//!
//! | step | inbox | sends |
//! |---|---|---|
//! | [`ActivationParty::start`] | — | members: `LSV1` broadcast |
//! | round 1 "activate" | the `LSV1`s | — ([`ActivationCertificate`]) |
//!
//! The dealing party runs this round after finalize in every refresh and reshare; Pulsar
//! runs it on its own after the key ceremony, binding the ML-DSA key.

use alloc::vec::Vec;
use core::fmt;

use rand_core::CryptoRngCore;

use super::proof::{statement, PossessionProof};
#[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
use super::proof::{BatchPart, BATCH_PART};
use super::{ActivationCertificate, ActivationKind, MAX_KEY_LEN, POSSESSION_MAGIC, VERSION};
use crate::lss::{Error, GroupPublic, KeyShare};
use crate::party::inbox::{tidy, unique};
use crate::party::{Blame, BlameReason, Incoming, Outgoing, Party, Round, Step};
use crate::vss::{Curve, Mode};
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// One participant of an activation round (see the module docs).
pub struct ActivationParty<C: Curve> {
    me: PartyId,
    public: GroupPublic<C>,
    kind: ActivationKind,
    key: Vec<u8>,
    statement: [u8; 32],
    /// This party's own proof and its message, when it is a member.
    mine: Option<(PossessionProof<C>, Vec<u8>)>,
    dropped: Vec<Blame>,
    finished: bool,
}

impl<C: Curve> fmt::Debug for ActivationParty<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ActivationParty")
            .field("me", &self.me)
            .field("generation", &self.public.generation())
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

impl<C: Curve> ActivationParty<C> {
    /// Starts `me`'s part in activating the generation `public` for scheme `kind` and key
    /// `key`. A member passes its share of that generation and broadcasts its proof; any
    /// other party (an old dealer, an observer) passes `None` and only collects.
    ///
    /// # Errors
    /// [`Error::OldShareMismatch`] when `share` is not `me`'s share of `public`;
    /// [`Error::Vss`] for a key over 4096 bytes.
    pub fn start(
        me: PartyId,
        share: Option<&KeyShare<C>>,
        public: &GroupPublic<C>,
        kind: ActivationKind,
        key: &[u8],
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Self, Outgoing), Error> {
        if key.len() > MAX_KEY_LEN {
            return Err(crate::vss::Error::LengthMismatch {
                expected: MAX_KEY_LEN,
                got: key.len(),
            }
            .into());
        }
        let d = statement(public, kind, key);
        let mine = match share {
            Some(s) if s.id() != me || s.public() != public => {
                return Err(Error::OldShareMismatch { party: me })
            }
            Some(s) => Some(PossessionProof::prove(s, &d, rng)),
            None => None,
        };
        let mine = mine.map(|proof| {
            let message = possession_message(public, me, &proof);
            (proof, message)
        });
        let out = match &mine {
            Some((_, message)) => Outgoing::broadcast(message.clone()),
            None => Outgoing::none(),
        };
        let party = ActivationParty {
            me,
            public: public.clone(),
            kind,
            key: key.to_vec(),
            statement: d,
            mine,
            dropped: Vec::new(),
            finished: false,
        };
        Ok((party, out))
    }

    /// The generation being activated.
    pub fn public(&self) -> &GroupPublic<C> {
        &self.public
    }

    /// The messages dropped so far, with their senders.
    pub fn dropped(&self) -> &[Blame] {
        &self.dropped
    }

    /// Takes the dropped list (the dealing party merges it into its own).
    pub(crate) fn take_dropped(&mut self) -> Vec<Blame> {
        core::mem::take(&mut self.dropped)
    }

    /// The members with valid proofs in `inbox` and this party's own, increasing, and
    /// their proofs encoded one after another in the same order (the rest dropped and
    /// named). The well-formed proofs are checked in one batch; only a failing batch costs
    /// per-proof checks, to name who sent a bad one.
    fn proofs(&mut self, inbox: &[Incoming<'_>]) -> (Vec<PartyId>, Vec<u8>) {
        let encoded = PossessionProof::<C>::encoded_len(self.public.mode());
        // The well-formed proofs, and each one's encoding (the message's tail).
        let mut candidates: Vec<(PartyId, PossessionProof<C>)> = Vec::with_capacity(inbox.len() + 1);
        let mut encodings: Vec<&[u8]> = Vec::with_capacity(inbox.len() + 1);
        let messages = unique(self.me, inbox, &mut self.dropped).messages;
        let member = |from: &PartyId| self.public.parties().binary_search(from).is_ok();
        // The members' possession messages, decoded once per process (each a point's
        // decompression) and shared out among parties stepped on several threads; one
        // result per message, in order.
        let wanted: Vec<&[u8]> = messages
            .iter()
            .filter(|(from, magic, _)| magic == POSSESSION_MAGIC && member(from))
            .map(|(_, _, bytes)| *bytes)
            .collect();
        let mut decoded = crate::party::shared::decode_all(&wanted, read_possession::<C>);
        for (from, magic, bytes) in messages {
            let fault = if &magic != POSSESSION_MAGIC {
                Some(kind_fault(&magic))
            } else if !member(&from) {
                Some(BlameReason::UnknownParty)
            } else {
                match decoded.next().unwrap_or_else(|| read_possession::<C>(bytes)) {
                    Err(e) => Some(BlameReason::Malformed(e)),
                    Ok(m) if m.mode != self.public.mode() => {
                        Some(BlameReason::Malformed(wire::Error::UnknownMode(m.mode.to_byte())))
                    }
                    Ok(m) if m.from != from => Some(BlameReason::SenderMismatch { claimed: m.from }),
                    Ok(m) if m.generation != self.public.generation() => Some(BlameReason::WrongGeneration {
                        expected: self.public.generation(),
                        got: m.generation,
                    }),
                    Ok(m) if m.transcript != *self.public.transcript_hash() => {
                        Some(BlameReason::WrongSession)
                    }
                    Ok(m) => {
                        candidates.push((from, m.proof));
                        encodings.push(&bytes[bytes.len() - encoded..]);
                        None
                    }
                }
            };
            if let Some(reason) = fault {
                self.dropped.push(Blame::new(from, reason));
            }
        }
        // This party's own proof joins the batch, so every participant of the generation
        // checks the same list and a process checks it once: the verdict is a pure function
        // of the statement (which hashes the generation's public data) and the proofs. The
        // candidates are in member order (`unique` sorts by sender; this party's own is not
        // in the inbox), and its own goes in its place.
        if let Some((proof, bytes)) = &self.mine {
            let at = candidates.partition_point(|c| c.0 < self.me);
            candidates.insert(at, (self.me, proof.clone()));
            encodings.insert(at, &bytes[bytes.len() - encoded..]);
        }
        let bad = failing_proofs(&self.public, &self.statement, &candidates, &encodings);
        let mut kept: Vec<(PartyId, &[u8])> = Vec::with_capacity(candidates.len());
        for ((from, _), bytes) in candidates.iter().zip(encodings) {
            let from = *from;
            if from != self.me && bad.contains(&from) {
                self.dropped
                    .push(Blame::new(from, BlameReason::InvalidPossessionProof));
            } else {
                kept.push((from, bytes));
            }
        }
        let members = kept.iter().map(|k| k.0).collect();
        let mut proofs = Vec::with_capacity(kept.len() * encoded);
        for (_, bytes) in kept {
            proofs.extend_from_slice(bytes);
        }
        (members, proofs)
    }
}

impl<C: Curve> Party for ActivationParty<C> {
    type Output = ActivationCertificate;

    fn id(&self) -> PartyId {
        self.me
    }

    fn round(&self) -> Option<Round> {
        (!self.finished).then_some(Round {
            number: 1,
            name: "activate",
        })
    }

    /// # Errors
    /// [`Error::NotEnoughPossessionProofs`] below the generation's threshold (the party
    /// keeps its state and can be stepped again with more proofs).
    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<ActivationCertificate>, crate::Error> {
        if self.finished {
            return Err(crate::party::Error::Finished.into());
        }
        let before = self.dropped.len();
        let (members, proofs) = self.proofs(inbox);
        let needed = usize::from(self.public.threshold());
        if members.len() < needed {
            let culprits = crate::party::culprits([&self.dropped[before..]]);
            self.dropped.truncate(before);
            return Err(Error::NotEnoughPossessionProofs {
                needed,
                got: members.len(),
                culprits,
            }
            .into());
        }
        let mode = self.public.mode();
        let certificate = ActivationCertificate {
            kind: self.kind,
            curve: C::ID,
            mode,
            generation: self.public.generation(),
            transcript_hash: *self.public.transcript_hash(),
            key: self.key.clone(),
            members,
            proofs,
        };
        tidy(&mut self.dropped);
        self.finished = true;
        Ok(Step::Done(Outgoing::none(), certificate))
    }
}

/// The reason to drop a message that is not a possession message: another message of the
/// dealing is of the wrong kind; anything else does not decode.
fn kind_fault(magic: &[u8; 4]) -> BlameReason {
    use crate::lss::complaint::{COMPLAINT_MAGIC, RESPONSE_MAGIC};
    use crate::lss::message::{DEAL_MAGIC, SHARE_MAGIC};
    if [DEAL_MAGIC, SHARE_MAGIC, COMPLAINT_MAGIC, RESPONSE_MAGIC].contains(&magic) {
        BlameReason::WrongKind
    } else {
        BlameReason::Malformed(wire::Error::BadMagic {
            found: *magic,
            expected: *POSSESSION_MAGIC,
        })
    }
}

/// The members whose proofs fail in the batch of `candidates` (`encodings` their proofs'
/// bytes): once per process where parties share work, its parts made together by parties
/// stepped on several threads (natively; a WebAssembly instance steps its parties on one
/// thread).
fn failing_proofs<C: Curve>(
    public: &GroupPublic<C>,
    d: &[u8; 32],
    candidates: &[(PartyId, PossessionProof<C>)],
    encodings: &[&[u8]],
) -> Vec<PartyId> {
    #[cfg(feature = "in-process-sharing")]
    let key = || {
        // In member order, so every participant's key is the same.
        let ids: Vec<u8> = candidates.iter().flat_map(|c| c.0.get().to_be_bytes()).collect();
        let parts = [&d[..], &ids];
        crate::party::shared::key_of(parts.into_iter().chain(encodings.iter().copied()))
    };
    #[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
    {
        batch_failing(public, d, key, candidates)
    }
    #[cfg(all(feature = "in-process-sharing", target_arch = "wasm32"))]
    {
        crate::party::shared::memo(b"lss-possession", key, 2 * candidates.len(), || {
            PossessionProof::verify_all(public, d, candidates)
        })
        .as_ref()
        .clone()
    }
    #[cfg(not(feature = "in-process-sharing"))]
    {
        let _ = encodings;
        PossessionProof::verify_all(public, d, candidates)
    }
}

/// The members whose proofs fail in the batch of `candidates` (as
/// [`PossessionProof::verify_all`]), made once per process for `key`, its parts made together
/// by parties stepped on several threads.
#[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
fn batch_failing<C: Curve>(
    public: &GroupPublic<C>,
    d: &[u8; 32],
    key: impl FnOnce() -> Vec<u8>,
    candidates: &[(PartyId, PossessionProof<C>)],
) -> Vec<PartyId> {
    let parts = candidates.len().div_ceil(BATCH_PART);
    let size = 2 * candidates.len() + (parts + 1) * 32 * public.commitments().points().len();
    let batch = crate::party::shared::memo(b"lss-possession", key, size, || Batch::<C> {
        seed: PossessionProof::batch_seed(public.mode(), d, candidates),
        parts: crate::party::shared::Parts::new(parts),
        failing: std::sync::OnceLock::new(),
    });
    let parts = batch
        .parts
        .get(|i| PossessionProof::batch_part(public, d, candidates, &batch.seed, i));
    batch
        .failing
        .get_or_init(|| PossessionProof::batch_failing(public, d, candidates, parts))
        .clone()
}

/// An activation batch the parties of one process check together: the weights' seed, the
/// parts ([`PossessionProof::batch_part`]) and the members whose proofs fail.
#[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
struct Batch<C: Curve> {
    seed: [u8; 32],
    parts: crate::party::shared::Parts<BatchPart<C>>,
    failing: std::sync::OnceLock<Vec<PartyId>>,
}

/// A decoded possession message.
#[derive(Clone)]
struct Possession<C: Curve> {
    mode: Mode,
    generation: u64,
    transcript: [u8; 32],
    from: PartyId,
    proof: PossessionProof<C>,
}

/// `LSV1` ‖ u16 1 ‖ u8 curve ‖ u8 mode ‖ u64 generation ‖ transcript hash ‖ u16 from ‖ proof.
fn possession_message<C: Curve>(public: &GroupPublic<C>, me: PartyId, proof: &PossessionProof<C>) -> Vec<u8> {
    let mut w = Writer::with_header(POSSESSION_MAGIC, VERSION);
    w.u8(C::ID).u8(public.mode().to_byte());
    w.u64(public.generation()).put(public.transcript_hash());
    me.write(&mut w);
    proof.write(public.mode(), &mut w);
    w.into_bytes()
}

/// Decodes a possession message in either mode (the caller holds it to its generation's
/// mode): a pure function of the bytes, so one process decodes each message once.
#[inline(never)]
fn read_possession<C: Curve>(bytes: &[u8]) -> Result<Possession<C>, wire::Error> {
    let mut r = Reader::new(bytes);
    r.header(POSSESSION_MAGIC, VERSION)?;
    let curve = r.u8()?;
    if curve != C::ID {
        return Err(wire::Error::UnknownMode(curve));
    }
    let mode = Mode::from_byte(r.u8()?)?;
    let generation = r.u64()?;
    let transcript: [u8; 32] = r.array()?;
    let from = PartyId::read(&mut r)?;
    let proof = PossessionProof::read(mode, &mut r)?;
    r.finish()?;
    Ok(Possession {
        mode,
        generation,
        transcript,
        from,
        proof,
    })
}
