//! Pulsar custody, one thread per party plus the combiner: LSS Pedersen DKG → key
//! ceremony (the ML-DSA key derived once, announced, checked by every party) → sign →
//! verify with plain `mldsa::verify` → [reshare → activation certificate under the same
//! key → sign again].

use std::collections::BTreeMap;

use quasar_pq::lss::{self, ActivationCertificate, Ceremony, GroupPublic};
use quasar_pq::mldsa::{self, Mode};
use quasar_pq::pulsar::custody::{
    self, CombineState, Combiner, CombinerKey, CombinerPublicKey, GroupKey, GroupKeyAnnouncement, KeyShare,
    Round1Message, Round1State, Round2Message, Session, ACTIVATION_CONTEXT,
};
use quasar_pq::pulsar::frame::GroupKeyFrame;
use quasar_pq::vss::{self, Ristretto255};
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;
use zeroize::Zeroizing;

use crate::args::Demo;
use crate::conduct::{self, agreed, list, quorum, range, Conductor};
use crate::net::{Actor, Addr, Chan, Cluster, Done, Endpoint, Event, HUB};
use crate::report::Failure;
use crate::Summary;

type R = Ristretto255;

/// The combiner's party id inside the protocol (it binds every envelope); parties are
/// 1..=256.
const COMBINER_ID: u16 = 1000;

const SCHEME: &str = "pulsar";

/// What a custody session releases the shares for.
#[derive(Debug, Clone)]
pub enum Purpose {
    /// Derive the ML-DSA key once and announce it.
    KeyCeremony,
    /// Sign a message (with an ML-DSA context string).
    Sign {
        /// The message.
        message: Vec<u8>,
        /// The context.
        context: Vec<u8>,
    },
    /// Sign the activation message of the current (reshared) generation.
    Activation,
}

/// One custody session, as every node knows it.
#[derive(Debug, Clone)]
pub struct SessionSpec {
    id: [u8; 32],
    purpose: Purpose,
    signers: Vec<u16>,
    /// Who receives and checks the result.
    audience: Vec<u16>,
    /// Parties that published their copy of a new sharing to the combiner since the last
    /// session (the combiner reads them first).
    publishers: Vec<u16>,
}

/// One LSS dealing (the DKG or a reshare).
#[derive(Debug, Clone)]
pub struct DealingSpec {
    session: [u8; 32],
    reshare: bool,
    dealers: Vec<u16>,
    receivers: Vec<u16>,
    threshold: u16,
}

impl DealingSpec {
    fn participants(&self) -> Vec<u16> {
        let mut all: Vec<u16> = self.dealers.iter().chain(&self.receivers).copied().collect();
        all.sort_unstable();
        all.dedup();
        all
    }
}

/// The steps of the Pulsar pipeline.
#[derive(Debug)]
pub enum Step {
    /// Reshare: dealers send the sharing and the group key to the parties joining.
    Join(DealingSpec),
    /// LSS round 1: deal.
    Deal(DealingSpec),
    /// LSS round 2: check shares, complain.
    Complain,
    /// LSS round 3: answer complaints.
    Respond,
    /// LSS finalize: the new key shares; publish the new sharing to the combiner.
    Finalize,
    /// Custody setup: the combiner's fresh encapsulation key to the signers.
    Setup(SessionSpec),
    /// Custody round 1: seal the share, broadcast the commitment.
    Round1,
    /// Custody round 2: release the envelope to the combiner.
    Round2,
    /// The combiner opens, checks, rebuilds, signs (or announces), zeroizes.
    Combine,
    /// Every party of the audience checks the result.
    Verify,
}

fn pid(v: u16) -> Result<PartyId, Failure> {
    PartyId::new(v).ok_or_else(|| Failure::local("INVALID_PARTY", "party id 0".into()))
}

fn pids(v: &[u16]) -> Result<Vec<PartyId>, Failure> {
    v.iter().map(|&p| pid(p)).collect()
}

fn missing(what: &str) -> Failure {
    Failure::local("OUT_OF_ORDER", format!("no {what} at this point of the pipeline"))
}

/// Decodes every message; ones that do not decode are dropped (the protocol then treats
/// the sender as silent, and names it).
fn decode_all<T, E>(
    raw: &BTreeMap<Addr, Zeroizing<Vec<u8>>>,
    decode: impl Fn(&[u8]) -> Result<T, E>,
) -> Result<BTreeMap<PartyId, T>, Failure> {
    let mut out = BTreeMap::new();
    for (&a, b) in raw {
        if let Ok(m) = decode(b) {
            out.insert(pid(a)?, m);
        }
    }
    Ok(out)
}

fn blame_event(b: &custody::Blame) -> Event {
    Event::Blame {
        party: b.party.get(),
        code: b.error.code().to_string(),
        reason: format!("{} — excluded", b.error),
    }
}

/// An LSS blame as an event (the kernel's reasons have no codes of their own).
pub fn lss_blame_event(b: &lss::Blame) -> Event {
    use lss::BlameReason as B;
    let (code, reason) = match b.reason {
        B::MissingDeal => ("MISSING_DEAL", "sent no deal".to_string()),
        B::MalformedDeal => ("MALFORMED_DEAL", "sent a malformed deal".to_string()),
        B::InvalidProof => (
            "INVALID_PROOF",
            "its proof of knowledge does not verify".to_string(),
        ),
        B::WrongConstant => (
            "WRONG_CONSTANT",
            "its constant term is not its share of the secret".to_string(),
        ),
        B::InvalidCommitment => (
            "INVALID_COMMITMENT",
            "its commitments are not in the group".to_string(),
        ),
        B::UnansweredComplaint { complainer } => (
            "UNANSWERED_COMPLAINT",
            format!("{complainer} complained that its share fails the commitments, and it did not answer"),
        ),
        B::InvalidOpening { complainer } => (
            "INVALID_OPENING",
            format!("its opening for {complainer} does not match its commitments"),
        ),
        B::FalseComplaint { dealer } => ("FALSE_COMPLAINT", format!("complained falsely about {dealer}")),
        B::InvalidComplaint { dealer } => (
            "INVALID_COMPLAINT",
            format!("complained about {dealer}, not a dealer"),
        ),
        _ => ("BLAMED", format!("{:?}", b.reason)),
    };
    let outcome = if b.reason.disqualifies_dealer() {
        "disqualified as a dealer"
    } else {
        "named"
    };
    Event::Blame {
        party: b.party.get(),
        code: code.to_string(),
        reason: format!("{reason} — {outcome}"),
    }
}

enum DealState {
    R1(lss::Round1State<R>),
    R2(lss::Round2State<R>),
    R3(lss::Round3State<R>),
}

struct DealingRun {
    spec: DealingSpec,
    state: DealState,
}

/// A party: its shares and protocol states, owned by its thread.
struct Party {
    id: PartyId,
    mode: Mode,
    cheat: bool,
    rng: ChaCha20Rng,
    /// The DKG's share, until the key ceremony makes it a custody share.
    lss: Option<lss::KeyShare<R>>,
    custody: Option<KeyShare>,
    group_key: Option<GroupKey>,
    last_dealing: Option<DealingSpec>,
    dealing: Option<DealingRun>,
    session: Option<SessionSpec>,
    signing: Option<Round1State>,
}

impl Party {
    fn join(&mut self, spec: &DealingSpec, net: &mut Endpoint) -> Result<Done, Failure> {
        let me = self.id.get();
        if !spec.dealers.contains(&me) {
            return Ok(Done::idle());
        }
        let share = self.custody.as_ref().ok_or_else(|| missing("key share"))?;
        let old: Vec<u16> = share.public().parties().iter().map(|p| p.get()).collect();
        let newcomers: Vec<Addr> = spec
            .receivers
            .iter()
            .copied()
            .filter(|r| !old.contains(r))
            .collect();
        net.broadcast(newcomers.iter().copied(), Chan::Public, share.public().to_bytes());
        net.broadcast(newcomers, Chan::GroupKey, share.group_key().to_bytes());
        Ok(Done::active())
    }

    fn deal(&mut self, spec: &DealingSpec, net: &mut Endpoint) -> Result<Done, Failure> {
        let me = self.id.get();
        self.last_dealing = Some(spec.clone());
        let dealer = spec.dealers.contains(&me);
        if !dealer && !spec.receivers.contains(&me) {
            return Ok(Done::idle());
        }
        let mut done = Done::active();
        let ceremony = if spec.reshare {
            let old = match &self.custody {
                Some(s) => s.public().clone(),
                None => {
                    // Joining: the sharing and the group key as the majority of dealers sent them.
                    let (sharing, odd) = agreed(&net.collect(Chan::Public, &spec.dealers)?, &spec.dealers)?;
                    done.events.extend(conduct::deviants(&odd));
                    let (key, odd) = agreed(&net.collect(Chan::GroupKey, &spec.dealers)?, &spec.dealers)?;
                    done.events.extend(conduct::deviants(&odd));
                    self.group_key = Some(GroupKey::from_bytes(&key)?);
                    GroupPublic::<R>::from_bytes(&sharing)?
                }
            };
            Ceremony::reshare(
                spec.session,
                &old,
                &pids(&spec.dealers)?,
                &pids(&spec.receivers)?,
                spec.threshold,
            )?
        } else {
            Ceremony::<R>::dkg(
                spec.session,
                vss::Mode::Pedersen,
                &pids(&spec.receivers)?,
                spec.threshold,
            )?
        };
        let old_share = match (&self.custody, spec.reshare && dealer) {
            (Some(s), true) => Some(s.lss()),
            _ => None,
        };
        let (state, out) = lss::round1(ceremony, self.id, old_share, &mut self.rng)?;
        let participants = spec.participants();
        if let Some(deal) = out.broadcast {
            net.broadcast(participants, Chan::Deal, deal.to_bytes());
        }
        // A cheating dealer of a reshare sends one receiver a share off by one (and will
        // not answer the complaint).
        let victim = if self.cheat && spec.reshare {
            out.shares.first().map(|m| m.to())
        } else {
            None
        };
        for m in &out.shares {
            let bytes = if Some(m.to()) == victim {
                m.tampered().to_bytes()
            } else {
                m.to_bytes()
            };
            net.send(m.to().get(), Chan::Share, bytes);
        }
        self.dealing = Some(DealingRun {
            spec: spec.clone(),
            state: DealState::R1(state),
        });
        Ok(done)
    }

    fn complain(&mut self, net: &mut Endpoint) -> Result<Done, Failure> {
        let Some(run) = self.dealing.take() else {
            return Ok(Done::idle());
        };
        let DealState::R1(state) = run.state else {
            return Err(missing("round-1 dealing state"));
        };
        let me = self.id.get();
        let deals = decode_all(
            &net.collect(Chan::Deal, &run.spec.dealers)?,
            lss::DealMessage::<R>::from_bytes,
        )?;
        let shares = if run.spec.receivers.contains(&me) {
            decode_all(
                &net.collect(Chan::Share, &run.spec.dealers)?,
                lss::ShareMessage::<R>::from_bytes,
            )?
        } else {
            BTreeMap::new()
        };
        let (state, complaint) = state.round2(deals, shares)?;
        if let Some(c) = complaint {
            net.broadcast(run.spec.participants(), Chan::Complaint, c.to_bytes());
        }
        self.dealing = Some(DealingRun {
            spec: run.spec,
            state: DealState::R2(state),
        });
        Ok(Done::active())
    }

    fn respond(&mut self, net: &mut Endpoint) -> Result<Done, Failure> {
        let Some(run) = self.dealing.take() else {
            return Ok(Done::idle());
        };
        let DealState::R2(state) = run.state else {
            return Err(missing("round-2 dealing state"));
        };
        let complaints = decode_all(
            &net.collect(Chan::Complaint, &run.spec.receivers)?,
            lss::ComplaintMessage::<R>::from_bytes,
        )?;
        let (state, response) = state.round3(complaints)?;
        if let Some(r) = response {
            if self.cheat && run.spec.reshare {
                net.withhold(run.spec.participants(), Chan::Response);
            } else {
                net.broadcast(run.spec.participants(), Chan::Response, r.to_bytes());
            }
        }
        self.dealing = Some(DealingRun {
            spec: run.spec,
            state: DealState::R3(state),
        });
        Ok(Done::active())
    }

    fn finalize(&mut self, net: &mut Endpoint) -> Result<Done, Failure> {
        let Some(run) = self.dealing.take() else {
            // A party of the old set that neither deals nor stays: its share is retired.
            if let Some(spec) = &self.last_dealing {
                if spec.reshare && !spec.receivers.contains(&self.id.get()) {
                    self.custody = None;
                }
            }
            return Ok(Done::idle());
        };
        let DealState::R3(state) = run.state else {
            return Err(missing("round-3 dealing state"));
        };
        let responses = decode_all(
            &net.collect(Chan::Response, &run.spec.dealers)?,
            lss::ResponseMessage::<R>::from_bytes,
        )?;
        let outcome = state.finalize(responses)?;
        let mut done = Done::active();
        done.events.extend(outcome.blame.iter().map(lss_blame_event));
        match outcome.key_share {
            Some(share) => {
                net.send(HUB, Chan::Public, outcome.public.to_bytes());
                if run.spec.reshare {
                    let key = self.group_key.clone().ok_or_else(|| missing("group key"))?;
                    // Checks that the new sharing's C_0 is the group key's.
                    self.custody = Some(KeyShare::new(share, key)?);
                } else {
                    self.lss = Some(share);
                }
            }
            None => self.custody = None,
        }
        Ok(done)
    }

    fn round1(&mut self, net: &mut Endpoint) -> Result<Done, Failure> {
        let Some(spec) = self.session.clone() else {
            return Ok(Done::idle());
        };
        if !spec.signers.contains(&self.id.get()) {
            return Ok(Done::idle());
        }
        let raw = net.collect_one(Chan::CombinerKey, HUB)?;
        let combiner = CombinerPublicKey::from_bytes(&raw).map_err(|e| Failure::from_sender(HUB, e))?;
        let signers = pids(&spec.signers)?;
        let (share, session) = match &spec.purpose {
            Purpose::KeyCeremony => {
                let s = self.lss.as_ref().ok_or_else(|| missing("DKG share"))?;
                (
                    s,
                    Session::key_ceremony(spec.id, self.mode, s.public(), &signers, &combiner)?,
                )
            }
            Purpose::Sign { message, context } => {
                let k = self.custody.as_ref().ok_or_else(|| missing("key share"))?;
                let session = Session::sign(
                    spec.id,
                    k.group_key(),
                    k.public(),
                    &signers,
                    &combiner,
                    message,
                    context,
                )?;
                (k.lss(), session)
            }
            Purpose::Activation => {
                let k = self.custody.as_ref().ok_or_else(|| missing("key share"))?;
                let session =
                    custody::activation_session(spec.id, k.group_key(), k.public(), &signers, &combiner)?;
                (k.lss(), session)
            }
        };
        let (state, message) = if self.cheat {
            custody::round1_with_bad_share(share, &session, &mut self.rng)?
        } else {
            custody::round1(share, &session, &mut self.rng)?
        };
        net.broadcast(
            spec.signers.iter().copied().chain([HUB]),
            Chan::Round1,
            message.to_bytes(),
        );
        self.signing = Some(state);
        Ok(Done::active())
    }

    fn round2(&mut self, net: &mut Endpoint) -> Result<Done, Failure> {
        let Some(state) = self.signing.take() else {
            return Ok(Done::idle());
        };
        let spec = self.session.as_ref().ok_or_else(|| missing("session"))?;
        let r1 = decode_all(
            &net.collect(Chan::Round1, &spec.signers)?,
            Round1Message::from_bytes,
        )?;
        let envelope = state.round2(&r1)?;
        net.send(HUB, Chan::Round2, envelope.to_bytes());
        Ok(Done::active())
    }

    fn verify(&mut self, net: &mut Endpoint) -> Result<Done, Failure> {
        let Some(spec) = self.session.clone() else {
            return Ok(Done::idle());
        };
        if !spec.audience.contains(&self.id.get()) {
            return Ok(Done::idle());
        }
        let bytes = net.collect_one(Chan::Result, HUB)?;
        match &spec.purpose {
            Purpose::KeyCeremony => {
                let announcement =
                    GroupKeyAnnouncement::from_bytes(&bytes).map_err(|e| Failure::from_sender(HUB, e))?;
                let share = self.lss.take().ok_or_else(|| missing("DKG share"))?;
                let key = announcement.verify(share.public())?;
                let event = Event::Key {
                    label: "before reshare",
                    digest: conduct::digest(key.public_key()),
                    len: key.public_key().len(),
                };
                self.custody = Some(KeyShare::new(share, key.clone())?);
                self.group_key = Some(key);
                Ok(Done::active().with(event))
            }
            Purpose::Sign { message, context } => {
                let key = self.group_key.as_ref().ok_or_else(|| missing("group key"))?;
                // The standard verifier: FIPS 204 ML-DSA.Verify under the group key.
                mldsa::verify(self.mode, key.public_key(), message, context, &bytes)?;
                Ok(Done::active())
            }
            Purpose::Activation => {
                let cert =
                    ActivationCertificate::from_bytes(&bytes).map_err(|e| Failure::from_sender(HUB, e))?;
                let key = self.group_key.as_ref().ok_or_else(|| missing("group key"))?;
                if cert.group_key != key.frame() {
                    return Err(Failure::local(
                        "GROUP_KEY_CHANGED",
                        "the activation certificate names another group key".into(),
                    ));
                }
                // Plain ML-DSA under the key held since the key ceremony.
                mldsa::verify(
                    self.mode,
                    key.public_key(),
                    &cert.message(),
                    ACTIVATION_CONTEXT,
                    &cert.signature,
                )?;
                if let Some(share) = &self.custody {
                    custody::verify_activation_expected(&cert, key, share.public())?;
                }
                let frame = GroupKeyFrame::decode(&cert.group_key)?;
                Ok(Done::active().with(Event::Key {
                    label: "after reshare",
                    digest: conduct::digest(frame.public_key),
                    len: frame.public_key.len(),
                }))
            }
        }
    }
}

/// The combiner: trusted while it signs; holds only public data between sessions.
struct Hub {
    mode: Mode,
    rng: ChaCha20Rng,
    public: Option<GroupPublic<R>>,
    group_key: Option<GroupKey>,
    session: Option<SessionSpec>,
    key: Option<CombinerKey>,
    state: Option<CombineState>,
}

impl Hub {
    fn setup(&mut self, spec: &SessionSpec, net: &mut Endpoint) -> Result<Done, Failure> {
        self.session = Some(spec.clone());
        let mut done = Done::active();
        if !spec.publishers.is_empty() {
            let (bytes, odd) = agreed(&net.collect(Chan::Public, &spec.publishers)?, &spec.publishers)?;
            done.events.extend(conduct::deviants(&odd));
            self.public = Some(GroupPublic::<R>::from_bytes(&bytes)?);
        }
        // A fresh ML-KEM key per session.
        let key = CombinerKey::generate(pid(COMBINER_ID)?, &mut self.rng);
        net.broadcast(
            spec.signers.iter().copied(),
            Chan::CombinerKey,
            key.public_key().to_bytes(),
        );
        self.key = Some(key);
        Ok(done)
    }

    fn round2(&mut self, net: &mut Endpoint) -> Result<Done, Failure> {
        let spec = self.session.as_ref().ok_or_else(|| missing("session"))?;
        let key = self.key.take().ok_or_else(|| missing("combiner key"))?;
        let public = self.public.as_ref().ok_or_else(|| missing("sharing"))?;
        let signers = pids(&spec.signers)?;
        let session = match &spec.purpose {
            Purpose::KeyCeremony => {
                Session::key_ceremony(spec.id, self.mode, public, &signers, key.public_key())?
            }
            Purpose::Sign { message, context } => {
                let gk = self.group_key.as_ref().ok_or_else(|| missing("group key"))?;
                Session::sign(spec.id, gk, public, &signers, key.public_key(), message, context)?
            }
            Purpose::Activation => {
                let gk = self.group_key.as_ref().ok_or_else(|| missing("group key"))?;
                custody::activation_session(spec.id, gk, public, &signers, key.public_key())?
            }
        };
        let r1 = decode_all(
            &net.collect(Chan::Round1, &spec.signers)?,
            Round1Message::from_bytes,
        )?;
        self.state = Some(Combiner::new(key, &session)?.round1(&r1)?);
        Ok(Done::active())
    }

    fn combine(&mut self, net: &mut Endpoint) -> Result<Done, Failure> {
        let spec = self.session.clone().ok_or_else(|| missing("session"))?;
        let state = self.state.take().ok_or_else(|| missing("combine state"))?;
        let r2 = decode_all(
            &net.collect(Chan::Round2, &spec.signers)?,
            Round2Message::from_bytes,
        )?;
        let mut done = Done::active();
        let result = match &spec.purpose {
            Purpose::KeyCeremony => {
                let announcement = state.finish_key_ceremony(&r2, &mut self.rng)?;
                done.events.extend(announcement.blame().iter().map(blame_event));
                done.events.push(Event::Signers(
                    announcement.signers().iter().map(|p| p.get()).collect(),
                ));
                self.group_key = Some(announcement.group_key().clone());
                announcement.to_bytes()
            }
            Purpose::Sign { .. } | Purpose::Activation => {
                let signed = state.combine(&r2, &mut self.rng)?;
                done.events.extend(signed.blame().iter().map(blame_event));
                done.events
                    .push(Event::Signers(signed.signers().iter().map(|p| p.get()).collect()));
                if let Purpose::Activation = spec.purpose {
                    let gk = self.group_key.as_ref().ok_or_else(|| missing("group key"))?;
                    let public = self.public.as_ref().ok_or_else(|| missing("sharing"))?;
                    custody::activation_certificate(gk, public, &signed)?.to_bytes()
                } else {
                    signed.into_signature()
                }
            }
        };
        net.broadcast(spec.audience.iter().copied(), Chan::Result, result);
        Ok(done)
    }
}

enum Node {
    Party(Box<Party>),
    Hub(Box<Hub>),
}

impl Actor for Node {
    type Step = Step;

    fn step(&mut self, step: &Step, net: &mut Endpoint) -> Result<Done, Failure> {
        match self {
            Node::Party(p) => match step {
                Step::Join(spec) => p.join(spec, net),
                Step::Deal(spec) => p.deal(spec, net),
                Step::Complain => p.complain(net),
                Step::Respond => p.respond(net),
                Step::Finalize => p.finalize(net),
                Step::Setup(spec) => {
                    p.session = Some(spec.clone());
                    Ok(Done::idle())
                }
                Step::Round1 => p.round1(net),
                Step::Round2 => p.round2(net),
                Step::Combine => Ok(Done::idle()),
                Step::Verify => p.verify(net),
            },
            Node::Hub(h) => match step {
                Step::Setup(spec) => h.setup(spec, net),
                Step::Round2 => h.round2(net),
                Step::Combine => h.combine(net),
                Step::Join(_)
                | Step::Deal(_)
                | Step::Complain
                | Step::Respond
                | Step::Finalize
                | Step::Round1
                | Step::Verify => Ok(Done::idle()),
            },
        }
    }
}

/// Runs one custody session as four phases (or one, when `phases` names the same phase
/// four times); returns the signers the combiner used and how many parties verified.
fn session(
    c: &mut Conductor<Step>,
    phases: [&str; 4],
    spec: SessionSpec,
) -> Result<(Vec<u16>, usize), Failure> {
    let [r1, r2, combine, verify] = phases;
    c.step(r1, Step::Setup(spec))?;
    c.step(r1, Step::Round1)?;
    c.step(r2, Step::Round2)?;
    let used = conduct::signers_of(&c.step(combine, Step::Combine)?);
    let verified = conduct::active(&c.step(verify, Step::Verify)?);
    Ok((used, verified))
}

fn dealing(c: &mut Conductor<Step>, phase: &str, spec: DealingSpec) -> Result<(), Failure> {
    if spec.reshare {
        c.step(phase, Step::Join(spec.clone()))?;
    }
    c.step(phase, Step::Deal(spec))?;
    c.step(phase, Step::Complain)?;
    c.step(phase, Step::Respond)?;
    c.step(phase, Step::Finalize)?;
    Ok(())
}

/// The Pulsar pipeline.
pub fn run(demo: &Demo, mode: Mode) -> Result<Summary, Failure> {
    let (n, t) = (demo.parties, demo.threshold);
    let max = demo.reshare.map_or(n, |(n2, _)| n.max(n2));
    let seed = demo.seed.clone();
    let cheat = demo.cheat;
    let cluster = Cluster::spawn(max, move |addr| {
        let rng = conduct::node_rng(&seed, SCHEME, addr);
        match PartyId::new(addr) {
            None => Node::Hub(Box::new(Hub {
                mode,
                rng,
                public: None,
                group_key: None,
                session: None,
                key: None,
                state: None,
            })),
            Some(id) => Node::Party(Box::new(Party {
                id,
                mode,
                cheat: cheat == Some(addr),
                rng,
                lss: None,
                custody: None,
                group_key: None,
                last_dealing: None,
                dealing: None,
                session: None,
                signing: None,
            })),
        }
    });
    let mut c = Conductor::new(cluster, cheat);
    let sid = |label: &str| conduct::session_id(&demo.seed, SCHEME, label);
    let parties = range(n);
    let result = (|| -> Result<(), Failure> {
        dealing(
            &mut c,
            "DKG",
            DealingSpec {
                session: sid("dkg"),
                reshare: false,
                dealers: parties.clone(),
                receivers: parties.clone(),
                threshold: t,
            },
        )?;
        c.phase_line(
            "DKG",
            &format!("LSS Pedersen DKG on ristretto255: {n} dealers, t = {t}"),
        );

        let signers = quorum(&parties, t, cheat, false);
        let (used, verified) = session(
            &mut c,
            ["Key ceremony"; 4],
            SessionSpec {
                id: sid("key ceremony"),
                purpose: Purpose::KeyCeremony,
                signers,
                audience: parties.clone(),
                publishers: parties.clone(),
            },
        )?;
        let key = c
            .keys
            .get("before reshare")
            .map(|(d, _)| conduct::fingerprint(d))
            .unwrap_or_default();
        c.phase_line(
            "Key ceremony",
            &format!(
                "{} key derived from parties {}, announced, checked by {verified}: {key}",
                mode.name(),
                list(&used)
            ),
        );

        let message = b"quasar demo: block 1".to_vec();
        let (used, verified) = session(
            &mut c,
            ["Round 1", "Round 2", "Combine", "Verify"],
            SessionSpec {
                id: sid("sign 1"),
                purpose: Purpose::Sign {
                    message,
                    context: Vec::new(),
                },
                signers: quorum(&parties, t, cheat, false),
                audience: parties.clone(),
                publishers: Vec::new(),
            },
        )?;
        c.phase_line(
            "Round 1",
            "signers seal their shares to the combiner's fresh ML-KEM key",
        );
        c.phase_line("Round 2", "envelopes released to the combiner");
        c.phase_line(
            "Combine",
            &format!("signed with the shares of parties {}", list(&used)),
        );
        c.phase_line(
            "Verify",
            &format!("\"quasar demo: block 1\" verified by {verified} with plain mldsa::verify"),
        );

        let Some((n2, t2)) = demo.reshare else {
            return Ok(());
        };
        let receivers = range(n2);
        let dealers = quorum(&parties, t, cheat, false);
        dealing(
            &mut c,
            "Reshare",
            DealingSpec {
                session: sid("reshare"),
                reshare: true,
                dealers: dealers.clone(),
                receivers: receivers.clone(),
                threshold: t2,
            },
        )?;
        c.phase_line(
            "Reshare",
            &format!("{t}-of-{n} → {t2}-of-{n2}, dealt by parties {}", list(&dealers)),
        );

        let new_cheat = cheat.filter(|p| receivers.contains(p));
        let everyone = range(max);
        let (used, verified) = session(
            &mut c,
            ["Activation"; 4],
            SessionSpec {
                id: sid("activation"),
                purpose: Purpose::Activation,
                signers: quorum(&receivers, t2, new_cheat, true),
                audience: everyone,
                publishers: receivers.clone(),
            },
        )?;
        let same = match (c.keys.get("before reshare"), c.keys.get("after reshare")) {
            (Some(a), Some(b)) if a == b => "under the same group key (byte-identical)",
            _ => "UNDER ANOTHER KEY",
        };
        c.phase_line(
            "Activation",
            &format!(
                "certificate signed by parties {}, verified by {verified} {same}",
                list(&used)
            ),
        );

        let message = b"quasar demo: block 2, after the reshare".to_vec();
        let (used, verified) = session(
            &mut c,
            [
                "Round 1 (gen 1)",
                "Round 2 (gen 1)",
                "Combine (gen 1)",
                "Verify (gen 1)",
            ],
            SessionSpec {
                id: sid("sign 2"),
                purpose: Purpose::Sign {
                    message,
                    context: Vec::new(),
                },
                signers: quorum(&receivers, t2, new_cheat, true),
                audience: receivers.clone(),
                publishers: Vec::new(),
            },
        )?;
        c.phases_line(
            "Sign again (gen 1)",
            &[
                "Round 1 (gen 1)",
                "Round 2 (gen 1)",
                "Combine (gen 1)",
                "Verify (gen 1)",
            ],
            &format!(
                "signed by parties {}, verified by {verified} with plain mldsa::verify",
                list(&used)
            ),
        );
        Ok(())
    })();
    let blame = c.blame.clone();
    let (log, traffic, keys) = c.finish();
    result?;
    Ok(Summary {
        log,
        traffic,
        keys,
        key_kind: format!("{} public key", mode.name()),
        hub: "combiner",
        blame,
    })
}
