//! The setup path: DKG → sharing report → key ceremony → announcement → key
//! certification, at a member and at the combiner.
//!
//! | member phase | takes | overhears | sends when done |
//! |---|---|---|---|
//! | DKG | `LSD1` `LSP1` `LSC1` `LSR1` | — | `PCSH` to the combiner |
//! | await session | `PCSS` from the combiner | — | signers: `PCR1` broadcast |
//! | release (signers) | `PCR1` | — | `PCR2` to the combiner |
//! | await announcement | `PCKA` from the combiner | `PCR1` (non-signers) | `LSV1` broadcast |
//! | certify | `LSV1` | — | — ([`Setup`]) |
//!
//! | combiner phase | takes | overhears | sends when done |
//! |---|---|---|---|
//! | await sharing | `PCSH` | `LSD1` `LSC1` `LSR1` | `PCSS` broadcast |
//! | combine | `PCR1`, then `PCR2` | — | `PCKA` broadcast |
//! | observe certification | `LSV1` | — | — ([`Certified`]) |

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use rand_core::CryptoRngCore;

use super::checks::{announcement_fault, ceremony_session_fault, first_valid};
use super::params::SetupParams;
use super::phase_rng::PhaseRng;
use super::report::{SharingReport, REPORT_MAGIC};
use super::{start_dealing, start_signer, KNOWN, SETUP_ANNOUNCE, SETUP_SESSION};
use crate::lss::{self, ActivationParty, Ceremony, DealingParty, GroupPublic, DEALING_MAGICS};
use crate::party::inbox::{merged, unique};
use crate::party::route::route;
use crate::party::{Blame, BlameReason, Direct, Incoming, Misbehaviour, Outgoing, Party, Step};
use crate::pulsar::custody::{
    certification_party, AnnouncedKey, Combined, CombinerKey, CombinerParty, GroupKey, GroupKeyAnnouncement,
    KeyShare, Session, SignerParty, ROUND1_MAGIC, ROUND2_MAGIC,
};
use crate::pulsar::Error;
use crate::vss::{self, Ristretto255 as R};
use crate::PartyId;

/// What a member ends the setup path with.
#[derive(Debug)]
pub struct Setup {
    /// Its custody share: the LSS share and the certified group key.
    pub key_share: KeyShare,
    /// The DKG's qualified dealers, increasing.
    pub qualified: Vec<PartyId>,
    /// The DKG's protocol faults (identical at every honest member).
    pub blame: Vec<Blame>,
    /// Every message this member dropped, in every phase, with its sender and why.
    pub dropped: Vec<Blame>,
}

/// What the combiner ends the setup path with: the group's public record.
#[derive(Debug, Clone)]
pub struct Certified {
    /// The certified group key.
    pub group_key: GroupKey,
    /// The sharing's public data (generation 0).
    pub public: GroupPublic<R>,
    /// The announcement it broadcast (publish it for verifiers).
    pub announcement: GroupKeyAnnouncement,
    /// Every message the combiner dropped, with its sender and why (its key-derivation
    /// blame included).
    pub dropped: Vec<Blame>,
}

/// What a member carries from the DKG to the end of the path.
struct Held {
    share: lss::KeyShare<R>,
    qualified: Vec<PartyId>,
    blame: Vec<Blame>,
}

// One value per party, moved once per phase: boxing the larger variants would buy
// nothing next to the cryptography of a step.
#[allow(clippy::large_enum_variant)]
enum MemberStage {
    Dkg(DealingParty<R>),
    AwaitSession(Held),
    Release(Held, SignerParty),
    AwaitAnnouncement(Held),
    Certify(Held, AnnouncedKey, ActivationParty<R>),
    Finished,
}

/// A member on the setup path (see the module docs).
pub(super) struct MemberSetup {
    params: SetupParams,
    me: PartyId,
    stage: MemberStage,
    dropped: Vec<Blame>,
    rng: PhaseRng,
    cheat: Misbehaviour,
}

impl MemberSetup {
    pub(super) fn start(
        me: PartyId,
        params: &SetupParams,
        cheat: Misbehaviour,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(MemberSetup, Outgoing), Error> {
        if params.members.binary_search(&me).is_err() {
            return Err(lss::Error::NotAParticipant { party: me }.into());
        }
        let dkg = Ceremony::<R>::dkg(
            params.dkg_session,
            vss::Mode::Pedersen,
            &params.members,
            params.threshold,
        )?;
        let (party, out) = start_dealing(dkg, me, None, cheat, rng)?;
        let member = MemberSetup {
            params: params.clone(),
            me,
            stage: MemberStage::Dkg(party),
            dropped: Vec::new(),
            rng: PhaseRng::new(rng),
            cheat,
        };
        Ok((member, out))
    }

    pub(super) fn id(&self) -> PartyId {
        self.me
    }

    pub(super) fn phase(&self) -> Option<&'static str> {
        match self.stage {
            MemberStage::Dkg(_) => Some("DKG"),
            MemberStage::AwaitSession(_) => Some("await session"),
            MemberStage::Release(..) => Some("release"),
            MemberStage::AwaitAnnouncement(_) => Some("await announcement"),
            MemberStage::Certify(..) => Some("certify"),
            MemberStage::Finished => None,
        }
    }

    pub(super) fn dealing(&self) -> Option<&DealingParty<R>> {
        match &self.stage {
            MemberStage::Dkg(p) => Some(p),
            _ => None,
        }
    }

    fn is_signer(&self) -> bool {
        self.params.signers.binary_search(&self.me).is_ok()
    }

    pub(super) fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<Setup>, crate::Error> {
        let before = self.dropped.len();
        let stage = core::mem::replace(&mut self.stage, MemberStage::Finished);
        let (stage, result) = self.advance(stage, inbox);
        self.stage = stage;
        if result.is_err() {
            self.dropped.truncate(before);
        }
        result
    }

    /// One step from `stage`: the next stage (the same one on error) and the result.
    fn advance(
        &mut self,
        stage: MemberStage,
        inbox: &[Incoming<'_>],
    ) -> (MemberStage, Result<Step<Setup>, crate::Error>) {
        let me = self.me;
        match stage {
            MemberStage::Dkg(mut party) => {
                let msgs = route(me, inbox, &DEALING_MAGICS[..4], &[], &KNOWN, &mut self.dropped);
                match party.step(&msgs) {
                    Err(e) => (MemberStage::Dkg(party), Err(e)),
                    Ok(Step::Continue(o)) => (MemberStage::Dkg(party), Ok(Step::Continue(o))),
                    Ok(Step::Waiting) => (MemberStage::Dkg(party), Ok(Step::Waiting)),
                    Ok(Step::Done(mut out, outcome)) => {
                        let Some(share) = outcome.key_share else {
                            // Every member receives in a DKG: unreachable unless the
                            // parameters were changed under the party.
                            return (
                                MemberStage::Finished,
                                Err(Error::from(lss::Error::NotAParticipant { party: me }).into()),
                            );
                        };
                        self.dropped.extend(outcome.dropped);
                        let report = SharingReport {
                            from: me,
                            public: share.public().clone(),
                        };
                        out.direct.push(Direct {
                            to: self.params.combiner,
                            bytes: report.to_bytes().into(),
                        });
                        let held = Held {
                            share,
                            qualified: outcome.qualified,
                            blame: outcome.blame,
                        };
                        (MemberStage::AwaitSession(held), Ok(Step::Continue(out)))
                    }
                }
            }
            MemberStage::AwaitSession(held) => {
                let msgs = route(me, inbox, &[SETUP_SESSION], &[], &KNOWN, &mut self.dropped);
                let params = &self.params;
                let public = held.share.public();
                let session = first_valid(me, &msgs, &mut self.dropped, |from, bytes| {
                    let session = crate::party::shared::decode(bytes, Session::from_bytes)
                        .map_err(super::checks::decode_fault)?;
                    match ceremony_session_fault(from, &session, params, public) {
                        Some(reason) => Err(reason),
                        None => Ok(session),
                    }
                });
                let Some(session) = session else {
                    return (MemberStage::AwaitSession(held), Ok(Step::Waiting));
                };
                if !self.is_signer() {
                    return (
                        MemberStage::AwaitAnnouncement(held),
                        Ok(Step::Continue(Outgoing::none())),
                    );
                }
                match start_signer(&held.share, &session, self.cheat, &mut self.rng.phase(b"release")) {
                    Ok((signer, out)) => (MemberStage::Release(held, signer), Ok(Step::Continue(out))),
                    Err(e) => (MemberStage::AwaitSession(held), Err(e.into())),
                }
            }
            MemberStage::Release(held, mut signer) => {
                let msgs = route(me, inbox, &[ROUND1_MAGIC], &[], &KNOWN, &mut self.dropped);
                match signer.step(&msgs) {
                    Ok(Step::Done(out, outcome)) => {
                        self.dropped.extend(outcome.dropped);
                        (MemberStage::AwaitAnnouncement(held), Ok(Step::Continue(out)))
                    }
                    Ok(Step::Continue(o)) => (MemberStage::Release(held, signer), Ok(Step::Continue(o))),
                    Ok(Step::Waiting) => (MemberStage::Release(held, signer), Ok(Step::Waiting)),
                    Err(e) => (MemberStage::Release(held, signer), Err(e)),
                }
            }
            MemberStage::AwaitAnnouncement(held) => {
                let overhears: &[&[u8; 4]] = if self.is_signer() { &[] } else { &[ROUND1_MAGIC] };
                let msgs = route(me, inbox, &[SETUP_ANNOUNCE], overhears, &KNOWN, &mut self.dropped);
                let params = &self.params;
                let public = held.share.public();
                let announced = first_valid(me, &msgs, &mut self.dropped, |from, bytes| {
                    let a = GroupKeyAnnouncement::from_bytes(bytes).map_err(BlameReason::Malformed)?;
                    announcement_fault(from, &a, params, public)
                });
                let Some(announced) = announced else {
                    return (MemberStage::AwaitAnnouncement(held), Ok(Step::Waiting));
                };
                let started = certification_party(
                    me,
                    Some(&held.share),
                    held.share.public(),
                    &announced,
                    &mut self.rng.phase(b"certify"),
                );
                match started {
                    Ok((party, out)) => (
                        MemberStage::Certify(held, announced, party),
                        Ok(Step::Continue(out)),
                    ),
                    Err(e) => (MemberStage::AwaitAnnouncement(held), Err(e.into())),
                }
            }
            MemberStage::Certify(held, announced, mut party) => {
                let msgs = route(me, inbox, &[DEALING_MAGICS[4]], &[], &KNOWN, &mut self.dropped);
                match party.step(&msgs) {
                    Ok(Step::Done(_, certificate)) => {
                        match GroupKey::new(announced.clone(), held.share.public(), certificate) {
                            Ok(key) => {
                                // The key was just certified for this share's sharing.
                                let key_share = match KeyShare::new(held.share, key) {
                                    Ok(k) => k,
                                    Err(e) => return (MemberStage::Finished, Err(e.into())),
                                };
                                let dropped = merged(&mut self.dropped, party.dropped().iter().cloned());
                                let setup = Setup {
                                    key_share,
                                    qualified: held.qualified,
                                    blame: held.blame,
                                    dropped,
                                };
                                (MemberStage::Finished, Ok(Step::Done(Outgoing::none(), setup)))
                            }
                            Err(e) => (MemberStage::Certify(held, announced, party), Err(e.into())),
                        }
                    }
                    Ok(Step::Continue(o)) => (
                        MemberStage::Certify(held, announced, party),
                        Ok(Step::Continue(o)),
                    ),
                    Ok(Step::Waiting) => (MemberStage::Certify(held, announced, party), Ok(Step::Waiting)),
                    Err(e) => (MemberStage::Certify(held, announced, party), Err(e)),
                }
            }
            MemberStage::Finished => (MemberStage::Finished, Err(crate::party::Error::Finished.into())),
        }
    }
}

// One value per party, moved once per phase: boxing the larger variants would buy
// nothing next to the cryptography of a step.
#[allow(clippy::large_enum_variant)]
enum CombinerStage {
    AwaitSharing {
        key: CombinerKey,
        reports: BTreeMap<PartyId, GroupPublic<R>>,
    },
    Combine(GroupPublic<R>, CombinerParty),
    Observe(GroupPublic<R>, GroupKeyAnnouncement, ActivationParty<R>),
    Finished,
}

/// The combiner on the setup path (see the module docs).
pub(super) struct CombinerSetup {
    params: SetupParams,
    stage: CombinerStage,
    dropped: Vec<Blame>,
    rng: PhaseRng,
}

impl CombinerSetup {
    pub(super) fn start(params: &SetupParams, rng: &mut impl CryptoRngCore) -> (CombinerSetup, Outgoing) {
        let key = CombinerKey::generate(params.combiner, rng);
        let combiner = CombinerSetup {
            params: params.clone(),
            stage: CombinerStage::AwaitSharing {
                key,
                reports: BTreeMap::new(),
            },
            dropped: Vec::new(),
            rng: PhaseRng::new(rng),
        };
        (combiner, Outgoing::none())
    }

    pub(super) fn phase(&self) -> Option<&'static str> {
        match self.stage {
            CombinerStage::AwaitSharing { .. } => Some("await sharing"),
            CombinerStage::Combine(..) => Some("combine"),
            CombinerStage::Observe(..) => Some("observe certification"),
            CombinerStage::Finished => None,
        }
    }

    pub(super) fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<Certified>, crate::Error> {
        let before = self.dropped.len();
        let stage = core::mem::replace(&mut self.stage, CombinerStage::Finished);
        let (stage, result) = self.advance(stage, inbox);
        self.stage = stage;
        if result.is_err() {
            self.dropped.truncate(before);
        }
        result
    }

    /// The valid reports of `msgs` added to `reports` (the rest dropped and named).
    fn collect_reports(&mut self, msgs: &[Incoming<'_>], reports: &mut BTreeMap<PartyId, GroupPublic<R>>) {
        let me = self.params.combiner;
        for (from, _, bytes) in unique(me, msgs, &mut self.dropped).messages {
            let fault = if self.params.members.binary_search(&from).is_err() {
                Some(BlameReason::UnknownParty)
            } else {
                match SharingReport::from_bytes(bytes) {
                    Err(e) => Some(BlameReason::Malformed(e)),
                    Ok(r) if r.from != from => Some(BlameReason::SenderMismatch { claimed: r.from }),
                    Ok(r) => match reports.get(&from) {
                        Some(p) if *p == r.public => Some(BlameReason::DuplicateMessage),
                        Some(_) => Some(BlameReason::ConflictingMessage),
                        None => {
                            reports.insert(from, r.public);
                            None
                        }
                    },
                }
            };
            if let Some(reason) = fault {
                self.dropped.push(Blame::new(from, reason));
            }
        }
    }

    fn advance(
        &mut self,
        stage: CombinerStage,
        inbox: &[Incoming<'_>],
    ) -> (CombinerStage, Result<Step<Certified>, crate::Error>) {
        let me = self.params.combiner;
        match stage {
            CombinerStage::AwaitSharing { key, reports } => {
                let overheard = [DEALING_MAGICS[0], DEALING_MAGICS[2], DEALING_MAGICS[3]];
                let msgs = route(me, inbox, &[REPORT_MAGIC], &overheard, &KNOWN, &mut self.dropped);
                let mut updated = reports.clone();
                self.collect_reports(&msgs, &mut updated);
                // The sharing at least t members report: with fewer than t corrupt
                // members, it is the honest members' sharing.
                let t = usize::from(self.params.threshold);
                let agreed = updated
                    .values()
                    .find(|p| updated.values().filter(|q| q == p).count() >= t)
                    .cloned();
                let Some(public) = agreed else {
                    let stage = CombinerStage::AwaitSharing {
                        key,
                        reports: updated,
                    };
                    return (stage, Ok(Step::Waiting));
                };
                let session = Session::key_ceremony(
                    self.params.ceremony_session,
                    self.params.mode,
                    &public,
                    &self.params.signers,
                    key.public_key(),
                );
                let session = match session {
                    Ok(s) => s,
                    Err(e) => return (CombinerStage::AwaitSharing { key, reports }, Err(e.into())),
                };
                for (p, q) in &updated {
                    if *q != public {
                        self.dropped.push(Blame::new(*p, BlameReason::ParameterMismatch));
                    }
                }
                // The key is the session's, so starting cannot fail.
                match CombinerParty::start(key, &session, &mut self.rng.phase(b"combine")) {
                    Ok((party, _)) => (
                        CombinerStage::Combine(public, party),
                        Ok(Step::Continue(Outgoing::broadcast(session.to_bytes()))),
                    ),
                    Err(e) => (CombinerStage::Finished, Err(e.into())),
                }
            }
            CombinerStage::Combine(public, mut party) => {
                let msgs = route(
                    me,
                    inbox,
                    &[ROUND1_MAGIC, ROUND2_MAGIC],
                    &[],
                    &KNOWN,
                    &mut self.dropped,
                );
                if msgs.is_empty() {
                    return (CombinerStage::Combine(public, party), Ok(Step::Waiting));
                }
                match party.step(&msgs) {
                    Ok(Step::Done(out, Combined::Announcement(a))) => {
                        let started = a.verify(&public).and_then(|announced| {
                            certification_party(
                                me,
                                None,
                                &public,
                                &announced,
                                &mut self.rng.phase(b"observe"),
                            )
                        });
                        match started {
                            Ok((observer, _)) => {
                                self.dropped.extend_from_slice(a.blame());
                                (
                                    CombinerStage::Observe(public, a, observer),
                                    Ok(Step::Continue(out)),
                                )
                            }
                            Err(e) => (CombinerStage::Finished, Err(e.into())),
                        }
                    }
                    Ok(Step::Done(..)) => (CombinerStage::Finished, Err(Error::PurposeMismatch.into())),
                    Ok(Step::Continue(o)) => (CombinerStage::Combine(public, party), Ok(Step::Continue(o))),
                    Ok(Step::Waiting) => (CombinerStage::Combine(public, party), Ok(Step::Waiting)),
                    Err(e) => (CombinerStage::Combine(public, party), Err(e)),
                }
            }
            CombinerStage::Observe(public, announcement, mut party) => {
                let msgs = route(me, inbox, &[DEALING_MAGICS[4]], &[], &KNOWN, &mut self.dropped);
                if msgs.is_empty() {
                    return (
                        CombinerStage::Observe(public, announcement, party),
                        Ok(Step::Waiting),
                    );
                }
                match party.step(&msgs) {
                    Ok(Step::Done(_, certificate)) => {
                        let key = announcement
                            .verify(&public)
                            .and_then(|announced| GroupKey::new(announced, &public, certificate));
                        match key {
                            Ok(group_key) => {
                                let dropped = merged(&mut self.dropped, party.dropped().iter().cloned());
                                let certified = Certified {
                                    group_key,
                                    public,
                                    announcement,
                                    dropped,
                                };
                                (
                                    CombinerStage::Finished,
                                    Ok(Step::Done(Outgoing::none(), certified)),
                                )
                            }
                            Err(e) => (CombinerStage::Observe(public, announcement, party), Err(e.into())),
                        }
                    }
                    Ok(Step::Continue(o)) => (
                        CombinerStage::Observe(public, announcement, party),
                        Ok(Step::Continue(o)),
                    ),
                    Ok(Step::Waiting) => (
                        CombinerStage::Observe(public, announcement, party),
                        Ok(Step::Waiting),
                    ),
                    Err(e) => (CombinerStage::Observe(public, announcement, party), Err(e)),
                }
            }
            CombinerStage::Finished => (CombinerStage::Finished, Err(crate::party::Error::Finished.into())),
        }
    }
}
