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

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;

use rand_core::CryptoRngCore;

use super::proof::{statement, PossessionProof};
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

    /// The valid proofs in `inbox` and this party's own, by member, encoded (the rest
    /// dropped and named). The well-formed proofs are checked in one batch; only a failing
    /// batch costs per-proof checks, to name who sent a bad one.
    fn proofs(&mut self, inbox: &[Incoming<'_>]) -> BTreeMap<PartyId, Vec<u8>> {
        let encoded = PossessionProof::<C>::encoded_len(self.public.mode());
        // The well-formed proofs, and each one's encoding (the message's tail).
        let mut candidates: Vec<(PartyId, PossessionProof<C>)> = Vec::new();
        let mut encodings: Vec<&[u8]> = Vec::new();
        for (from, magic, bytes) in unique(self.me, inbox, &mut self.dropped).messages {
            let fault = if &magic != POSSESSION_MAGIC {
                Some(kind_fault(&magic))
            } else if self.public.parties().binary_search(&from).is_err() {
                Some(BlameReason::UnknownParty)
            } else {
                match crate::party::shared::decode(bytes, read_possession::<C>) {
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
        // of the statement (which hashes the generation's public data) and the proofs.
        if let Some((proof, bytes)) = &self.mine {
            candidates.push((self.me, proof.clone()));
            encodings.push(&bytes[bytes.len() - encoded..]);
        }
        let key = || {
            // In member order, so every participant's key is the same.
            let mut order: Vec<(PartyId, &[u8])> = candidates
                .iter()
                .map(|c| c.0)
                .zip(encodings.iter().copied())
                .collect();
            crate::sort::heapsort_by(&mut order, |a, b| a.0.cmp(&b.0));
            let ids: Vec<u8> = order.iter().flat_map(|c| c.0.get().to_be_bytes()).collect();
            let parts = [&self.statement[..], &ids];
            crate::party::shared::key_of(parts.into_iter().chain(order.iter().map(|c| c.1)))
        };
        let bad = crate::party::shared::memo(b"lss-possession", key, 2 * candidates.len(), || {
            PossessionProof::verify_all(&self.public, &self.statement, &candidates)
        });
        let mut out = BTreeMap::new();
        for ((from, _), bytes) in candidates.iter().zip(encodings) {
            let from = *from;
            if from != self.me && bad.contains(&from) {
                self.dropped
                    .push(Blame::new(from, BlameReason::InvalidPossessionProof));
            } else {
                out.insert(from, bytes.to_vec());
            }
        }
        out
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
        let proofs = self.proofs(inbox);
        let needed = usize::from(self.public.threshold());
        if proofs.len() < needed {
            let culprits = crate::party::culprits([&self.dropped[before..]]);
            self.dropped.truncate(before);
            return Err(Error::NotEnoughPossessionProofs {
                needed,
                got: proofs.len(),
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
            proofs: proofs.into_iter().collect(),
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
