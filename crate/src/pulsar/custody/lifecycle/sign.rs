//! The sign path: the combiner opens a session and broadcasts it; each signer checks it
//! against its own parameters before it releases anything.
//!
//! | member phase | takes | sends when done |
//! |---|---|---|
//! | await session | `PCSS` from the combiner | `PCR1` broadcast |
//! | release | `PCR1` | `PCR2` to the combiner ([`SignerOutcome`]) |
//!
//! | combiner phase | takes | sends when done |
//! |---|---|---|
//! | (start) | — | `PCSS` broadcast (its fresh `PCEK` key inside) |
//! | combine | `PCR1`, then `PCR2` | — ([`Signed`]) |

use alloc::vec::Vec;

use rand_core::CryptoRngCore;

use super::checks::{decode_fault, first_valid, sign_session_fault};
use super::params::SignParams;
use super::phase_rng::PhaseRng;
use super::{start_signer, KNOWN, SETUP_SESSION};
use crate::lss::GroupPublic;
use crate::party::inbox::tidy;
use crate::party::route::route;
use crate::party::{Blame, Incoming, Misbehaviour, Outgoing, Party, Step};
use crate::pulsar::custody::{
    Combined, CombinerKey, CombinerParty, GroupKey, KeyShare, Session, Signed, SignerOutcome, SignerParty,
    ROUND1_MAGIC, ROUND2_MAGIC,
};
use crate::pulsar::Error;
use crate::vss::Ristretto255 as R;
use crate::PartyId;

// One value per party, moved once per phase: boxing the larger variants would buy
// nothing next to the cryptography of a step.
#[allow(clippy::large_enum_variant)]
enum MemberStage {
    AwaitSession,
    Release(SignerParty),
    Finished,
}

/// A signer on the sign path (see the module docs).
///
/// # Security
/// Holds a copy of the share until it seals it to the combiner of a session it checked.
pub(super) struct MemberSign {
    params: SignParams,
    share: KeyShare,
    stage: MemberStage,
    dropped: Vec<Blame>,
    rng: PhaseRng,
    cheat: Misbehaviour,
}

impl MemberSign {
    pub(super) fn start(
        share: &KeyShare,
        params: &SignParams,
        cheat: Misbehaviour,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(MemberSign, Outgoing), Error> {
        if params.signers.binary_search(&share.id()).is_err() {
            return Err(Error::NotASigner { party: share.id() });
        }
        let member = MemberSign {
            params: params.clone(),
            share: share.duplicate(),
            stage: MemberStage::AwaitSession,
            dropped: Vec::new(),
            rng: PhaseRng::new(rng),
            cheat,
        };
        Ok((member, Outgoing::none()))
    }

    pub(super) fn id(&self) -> PartyId {
        self.share.id()
    }

    pub(super) fn phase(&self) -> Option<&'static str> {
        match self.stage {
            MemberStage::AwaitSession => Some("await session"),
            MemberStage::Release(_) => Some("release"),
            MemberStage::Finished => None,
        }
    }

    pub(super) fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<SignerOutcome>, crate::Error> {
        let me = self.id();
        let before = self.dropped.len();
        let result = match &mut self.stage {
            MemberStage::AwaitSession => {
                let msgs = route(me, inbox, &[SETUP_SESSION], &[], &KNOWN, &mut self.dropped);
                let (params, share) = (&self.params, &self.share);
                let session = first_valid(me, &msgs, &mut self.dropped, |from, bytes| {
                    if from != params.combiner {
                        return Err(crate::party::BlameReason::UnknownParty);
                    }
                    let session =
                        crate::party::shared::decode(bytes, Session::from_bytes).map_err(decode_fault)?;
                    match sign_session_fault(from, &session, params, share) {
                        Some(reason) => Err(reason),
                        None => Ok(session),
                    }
                });
                match session {
                    None => Ok(Step::Waiting),
                    Some(session) => {
                        let mut rng = self.rng.phase(b"release");
                        match start_signer(self.share.lss(), &session, self.cheat, &mut rng) {
                            Ok((signer, out)) => {
                                self.stage = MemberStage::Release(signer);
                                Ok(Step::Continue(out))
                            }
                            Err(e) => Err(e.into()),
                        }
                    }
                }
            }
            MemberStage::Release(signer) => {
                let msgs = route(me, inbox, &[ROUND1_MAGIC], &[], &KNOWN, &mut self.dropped);
                match signer.step(&msgs) {
                    Ok(Step::Done(out, mut outcome)) => {
                        self.stage = MemberStage::Finished;
                        outcome.dropped.append(&mut self.dropped);
                        tidy(&mut outcome.dropped);
                        Ok(Step::Done(out, outcome))
                    }
                    other => other,
                }
            }
            MemberStage::Finished => Err(crate::party::Error::Finished.into()),
        };
        if result.is_err() {
            self.dropped.truncate(before);
        }
        result
    }
}

/// The combiner on the sign path (see the module docs).
///
/// # Security
/// Rebuilds the key while it signs: **the combiner is trusted for that moment.**
pub(super) struct CombinerSign {
    me: PartyId,
    party: Option<CombinerParty>,
    dropped: Vec<Blame>,
}

impl CombinerSign {
    /// Opens the session: a fresh combiner key, the session bound to it, its broadcast.
    /// `deterministic` signs with FIPS 204's `rnd = 0³²` (known-answer vectors).
    pub(super) fn start(
        params: &SignParams,
        group_key: &GroupKey,
        public: &GroupPublic<R>,
        deterministic: bool,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(CombinerSign, Outgoing), Error> {
        let key = CombinerKey::generate(params.combiner, rng);
        Self::start_with_key(key, params, group_key, public, deterministic, rng)
    }

    /// As [`CombinerSign::start`], with the combiner key given.
    pub(super) fn start_with_key(
        key: CombinerKey,
        params: &SignParams,
        group_key: &GroupKey,
        public: &GroupPublic<R>,
        deterministic: bool,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(CombinerSign, Outgoing), Error> {
        if key.id() != params.combiner {
            return Err(Error::CombinerMismatch);
        }
        let session = Session::sign(
            params.session,
            group_key,
            public,
            &params.signers,
            key.public_key(),
            &params.message,
            &params.context,
        )?;
        let (party, _) = if deterministic {
            CombinerParty::start_deterministic(key, &session)?
        } else {
            CombinerParty::start(key, &session, rng)?
        };
        let combiner = CombinerSign {
            me: params.combiner,
            party: Some(party),
            dropped: Vec::new(),
        };
        Ok((combiner, Outgoing::broadcast(session.to_bytes())))
    }

    pub(super) fn phase(&self) -> Option<&'static str> {
        self.party.as_ref().map(|_| "combine")
    }

    pub(super) fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<Signed>, crate::Error> {
        let before = self.dropped.len();
        let Some(party) = self.party.as_mut() else {
            return Err(crate::party::Error::Finished.into());
        };
        let msgs = route(
            self.me,
            inbox,
            &[ROUND1_MAGIC, ROUND2_MAGIC],
            &[],
            &KNOWN,
            &mut self.dropped,
        );
        if msgs.is_empty() {
            return Ok(Step::Waiting);
        }
        let result = match party.step(&msgs) {
            Ok(Step::Done(out, Combined::Signed(signed))) => {
                self.party = None;
                Ok(Step::Done(
                    out,
                    signed.with_dropped(core::mem::take(&mut self.dropped)),
                ))
            }
            Ok(Step::Done(..)) => Err(Error::PurposeMismatch.into()),
            Ok(Step::Continue(o)) => Ok(Step::Continue(o)),
            Ok(Step::Waiting) => Ok(Step::Waiting),
            Err(e) => Err(e),
        };
        if result.is_err() {
            self.dropped.truncate(before);
        }
        result
    }
}
