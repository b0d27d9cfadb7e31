//! Lens (FROST), one thread per party plus the coordinator: LSS Feldman DKG → sign (commit, signing
//! package, signature shares, aggregate) → verify with the curve's verifier → [LSS
//! reshare → activation certificate under the same key → sign again]. A signature share
//! that fails its check names its signer; the session is retried without it.

use std::collections::{BTreeMap, BTreeSet};

use quasar_pq::lens::{
    self, keygen, reshare, Curve, KeyShare, PublicKeyPackage, SignatureShare, SigningCommitments,
    SigningNonces, SigningPackage,
};
use quasar_pq::lss::ActivationCertificate;
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;
use zeroize::Zeroizing;

use crate::args::Demo;
use crate::conduct::{self, agreed, excluded, list, quorum, range, Conductor};
use crate::net::{Actor, Addr, Chan, Cluster, Done, Endpoint, Event, HUB};
use crate::pulsar_flow::lss_blame_event;
use crate::report::Failure;
use crate::Summary;

const SCHEME: &str = "lens";

/// What a signing session signs.
#[derive(Debug, Clone)]
pub enum Purpose {
    /// A message.
    Sign(Vec<u8>),
    /// The activation message of the current (reshared) generation.
    Activation,
}

/// One signing session, as every node knows it.
#[derive(Debug, Clone)]
pub struct SessionSpec {
    purpose: Purpose,
    signers: Vec<u16>,
    /// Who receives and checks the result.
    audience: Vec<u16>,
    /// Parties that published their public key package to the coordinator since the last
    /// session (the coordinator reads them first).
    publishers: Vec<u16>,
}

/// One LSS reshare of the key.
#[derive(Debug, Clone)]
pub struct ReshareSpec {
    session: [u8; 32],
    dealers: Vec<u16>,
    receivers: Vec<u16>,
    threshold: u16,
}

impl ReshareSpec {
    fn participants(&self) -> Vec<u16> {
        let all: BTreeSet<u16> = self.dealers.iter().chain(&self.receivers).copied().collect();
        all.into_iter().collect()
    }
}

/// The steps of the Lens pipeline.
#[derive(Debug)]
pub enum Step {
    /// DKG round 1 (LSS Feldman): deal (commitments and proof of knowledge), broadcast;
    /// private shares.
    Dkg1 {
        /// Session id.
        session: [u8; 32],
        /// Every party.
        parties: Vec<u16>,
        /// Threshold.
        threshold: u16,
    },
    /// DKG round 2: check deals and shares, complain.
    Dkg2,
    /// DKG round 3: answer complaints.
    Dkg3,
    /// DKG finalize: key shares; publish the public key package to the coordinator.
    Dkg4,
    /// Signing round 1: commitments to the coordinator.
    Commit(SessionSpec),
    /// The coordinator's signing package to the signers.
    Package,
    /// Signing round 2: signature shares to the coordinator.
    Sign,
    /// The coordinator aggregates (or names the cheaters).
    Aggregate,
    /// Every party of the audience checks the result.
    Verify,
    /// Reshare: dealers send the public key package to the parties joining.
    Join(ReshareSpec),
    /// LSS round 1: deal.
    Deal(ReshareSpec),
    /// LSS round 2: check shares, complain.
    Complain,
    /// LSS round 3: answer complaints.
    Respond,
    /// LSS finalize: the new key shares and public key package.
    Finalize,
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

/// Raw messages keyed by sender, as the reshare API takes them.
fn by_party(raw: &BTreeMap<Addr, Zeroizing<Vec<u8>>>) -> Result<BTreeMap<PartyId, &[u8]>, Failure> {
    raw.iter().map(|(&a, b)| Ok((pid(a)?, b.as_slice()))).collect()
}

enum KeygenState {
    R1(keygen::Round1State),
    R2(keygen::Round2State),
    R3(keygen::Round3State),
}

enum ReshareState {
    R1(reshare::Round1State),
    R2(reshare::Round2State),
    R3(reshare::Round3State),
}

struct Party {
    id: PartyId,
    curve: Curve,
    cheat: bool,
    rng: ChaCha20Rng,
    dkg: Option<(KeygenState, Vec<u16>)>,
    share: Option<KeyShare>,
    /// The group key from the DKG: it must never change.
    group_key: Option<Vec<u8>>,
    reshare: Option<(ReshareSpec, ReshareState)>,
    last_reshare: Option<ReshareSpec>,
    session: Option<SessionSpec>,
    nonces: Option<SigningNonces>,
}

impl Party {
    fn dkg1(
        &mut self,
        session: [u8; 32],
        parties: &[u16],
        t: u16,
        net: &mut Endpoint,
    ) -> Result<Done, Failure> {
        let ceremony = keygen::Ceremony::new(self.curve, session, &pids(parties)?, t)?;
        let (state, out) = keygen::round1(&ceremony, self.id, &mut self.rng)?;
        net.broadcast(parties.iter().copied(), Chan::Deal, out.deal);
        for (to, bytes) in out.shares {
            net.send(to.get(), Chan::Share, bytes);
        }
        self.dkg = Some((KeygenState::R1(state), parties.to_vec()));
        Ok(Done::active())
    }

    fn dkg2(&mut self, net: &mut Endpoint) -> Result<Done, Failure> {
        let Some((KeygenState::R1(state), parties)) = self.dkg.take() else {
            return Err(missing("DKG round-1 state"));
        };
        let deals = net.collect(Chan::Deal, &parties)?;
        let shares = net.collect(Chan::Share, &parties)?;
        let (state, complaint) = state.round2(&by_party(&deals)?, &by_party(&shares)?)?;
        if let Some(c) = complaint {
            net.broadcast(parties.iter().copied(), Chan::Complaint, c);
        }
        self.dkg = Some((KeygenState::R2(state), parties));
        Ok(Done::active())
    }

    fn dkg3(&mut self, net: &mut Endpoint) -> Result<Done, Failure> {
        let Some((KeygenState::R2(state), parties)) = self.dkg.take() else {
            return Err(missing("DKG round-2 state"));
        };
        let complaints = net.collect(Chan::Complaint, &parties)?;
        let (state, response) = state.round3(&by_party(&complaints)?)?;
        if let Some(r) = response {
            net.broadcast(parties.iter().copied(), Chan::Response, r);
        }
        self.dkg = Some((KeygenState::R3(state), parties));
        Ok(Done::active())
    }

    fn dkg4(&mut self, net: &mut Endpoint) -> Result<Done, Failure> {
        let Some((KeygenState::R3(state), parties)) = self.dkg.take() else {
            return Err(missing("DKG round-3 state"));
        };
        let responses = net.collect(Chan::Response, &parties)?;
        let outcome = state.finalize(&by_party(&responses)?)?;
        let share = outcome.key_share;
        let key = share.group_key_bytes();
        net.send(HUB, Chan::Public, outcome.public.to_bytes());
        let mut done = Done::active().with(Event::Key {
            label: "before reshare",
            digest: conduct::digest(&key),
            len: key.len(),
        });
        done.events.extend(outcome.blame.iter().map(lss_blame_event));
        if !outcome.dropped.is_empty() {
            let dropped: Vec<u16> = outcome.dropped.iter().map(|p| p.get()).collect();
            done.events.push(Event::Note(format!(
                "messages from parties {} did not decode and were treated as missing",
                list(&dropped)
            )));
        }
        self.group_key = Some(key);
        self.share = Some(share);
        Ok(done)
    }

    fn commit(&mut self, spec: &SessionSpec, net: &mut Endpoint) -> Result<Done, Failure> {
        self.session = Some(spec.clone());
        // Nonces of an abandoned attempt are dropped, never reused.
        self.nonces = None;
        if !spec.signers.contains(&self.id.get()) {
            return Ok(Done::idle());
        }
        let share = self.share.as_ref().ok_or_else(|| missing("key share"))?;
        let (nonces, commitments) = lens::commit(share, &mut self.rng);
        net.send(HUB, Chan::Round1, commitments.to_bytes());
        self.nonces = Some(nonces);
        Ok(Done::active())
    }

    fn sign(&mut self, net: &mut Endpoint) -> Result<Done, Failure> {
        let Some(nonces) = self.nonces.take() else {
            return Ok(Done::idle());
        };
        let spec = self.session.as_ref().ok_or_else(|| missing("session"))?;
        let share = self.share.as_ref().ok_or_else(|| missing("key share"))?;
        let raw = net.collect_one(Chan::Package, HUB)?;
        let package =
            SigningPackage::from_bytes(self.curve, &raw).map_err(|e| Failure::from_sender(HUB, e))?;
        // A signer checks what it signs.
        let expected = match &spec.purpose {
            Purpose::Sign(m) => m.clone(),
            Purpose::Activation => reshare::activation_message(share.public()),
        };
        if package.message() != expected.as_slice() {
            return Err(Failure::local(
                "WRONG_MESSAGE",
                "the coordinator asked to sign another message".into(),
            ));
        }
        let mut bytes = lens::sign(share, nonces, &package)?.to_bytes();
        if self.cheat {
            // A signature share that still decodes, off in its least significant byte
            // (little-endian scalar on the 25519 curves, big-endian on secp256k1).
            let at = if self.curve == Curve::Secp256k1 {
                bytes.len() - 1
            } else {
                bytes.len() - 32
            };
            bytes[at] ^= 1;
        }
        net.send(HUB, Chan::Round2, bytes);
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
        let key = self.group_key.as_ref().ok_or_else(|| missing("group key"))?;
        match &spec.purpose {
            Purpose::Sign(message) => {
                // The standard verifier of the curve (RFC 8032 / BIP-340 / RFC 9591).
                lens::verify(self.curve, key, message, &bytes)?;
                Ok(Done::active())
            }
            Purpose::Activation => {
                let cert =
                    ActivationCertificate::from_bytes(&bytes).map_err(|e| Failure::from_sender(HUB, e))?;
                if cert.group_key != *key {
                    return Err(Failure::local(
                        "GROUP_KEY_CHANGED",
                        "the activation certificate names another group key".into(),
                    ));
                }
                lens::verify(self.curve, key, &cert.message(), &cert.signature)?;
                if let Some(share) = &self.share {
                    reshare::verify_activation(share.public(), &cert)?;
                }
                Ok(Done::active())
            }
        }
    }

    fn join(&mut self, spec: &ReshareSpec, net: &mut Endpoint) -> Result<Done, Failure> {
        if !spec.dealers.contains(&self.id.get()) {
            return Ok(Done::idle());
        }
        let share = self.share.as_ref().ok_or_else(|| missing("key share"))?;
        let old: Vec<u16> = share.public().parties().iter().map(|p| p.get()).collect();
        let newcomers = spec.receivers.iter().copied().filter(|r| !old.contains(r));
        net.broadcast(newcomers, Chan::Public, share.public().to_bytes());
        Ok(Done::active())
    }

    fn deal(&mut self, spec: &ReshareSpec, net: &mut Endpoint) -> Result<Done, Failure> {
        let me = self.id.get();
        self.last_reshare = Some(spec.clone());
        let dealer = spec.dealers.contains(&me);
        if !dealer && !spec.receivers.contains(&me) {
            return Ok(Done::idle());
        }
        let mut done = Done::active();
        let old_public = match &self.share {
            Some(s) => s.public().clone(),
            None => {
                // Joining: the public key package as the majority of dealers sent it.
                let (bytes, odd) = agreed(&net.collect(Chan::Public, &spec.dealers)?, &spec.dealers)?;
                done.events.extend(conduct::deviants(&odd));
                let public = PublicKeyPackage::from_bytes(self.curve, &bytes)?;
                self.group_key = Some(public.group_key_bytes());
                public
            }
        };
        let ceremony = reshare::Ceremony::reshare(
            spec.session,
            &old_public,
            &pids(&spec.dealers)?,
            &pids(&spec.receivers)?,
            spec.threshold,
        )?;
        let old_share = if dealer { self.share.as_ref() } else { None };
        let (state, out) = reshare::round1(&ceremony, self.id, old_share, &mut self.rng)?;
        if let Some(deal) = out.deal {
            net.broadcast(spec.participants(), Chan::Deal, deal);
        }
        // A cheating dealer sends one receiver a share off by one (LSP1: the share value
        // is bytes 45..77) and will not answer the complaint.
        let victim = if self.cheat {
            out.shares.keys().next().copied()
        } else {
            None
        };
        for (to, bytes) in out.shares {
            let mut bytes = bytes;
            if Some(to) == victim {
                let at = if self.curve == Curve::Secp256k1 { 76 } else { 45 };
                if let Some(b) = bytes.get_mut(at) {
                    *b ^= 1;
                }
            }
            net.send(to.get(), Chan::Share, bytes);
        }
        self.reshare = Some((spec.clone(), ReshareState::R1(state)));
        Ok(done)
    }

    fn complain(&mut self, net: &mut Endpoint) -> Result<Done, Failure> {
        let Some((spec, ReshareState::R1(state))) = self.reshare.take() else {
            return Ok(Done::idle());
        };
        let deals = net.collect(Chan::Deal, &spec.dealers)?;
        let shares = if spec.receivers.contains(&self.id.get()) {
            net.collect(Chan::Share, &spec.dealers)?
        } else {
            BTreeMap::new()
        };
        let (state, complaint) = state.round2(&by_party(&deals)?, &by_party(&shares)?)?;
        if let Some(c) = complaint {
            net.broadcast(spec.participants(), Chan::Complaint, c);
        }
        self.reshare = Some((spec, ReshareState::R2(state)));
        Ok(Done::active())
    }

    fn respond(&mut self, net: &mut Endpoint) -> Result<Done, Failure> {
        let Some((spec, ReshareState::R2(state))) = self.reshare.take() else {
            return Ok(Done::idle());
        };
        let complaints = net.collect(Chan::Complaint, &spec.receivers)?;
        let (state, response) = state.round3(&by_party(&complaints)?)?;
        if let Some(r) = response {
            if self.cheat {
                net.withhold(spec.participants(), Chan::Response);
            } else {
                net.broadcast(spec.participants(), Chan::Response, r);
            }
        }
        self.reshare = Some((spec, ReshareState::R3(state)));
        Ok(Done::active())
    }

    fn finalize(&mut self, net: &mut Endpoint) -> Result<Done, Failure> {
        let Some((spec, ReshareState::R3(state))) = self.reshare.take() else {
            if let Some(spec) = &self.last_reshare {
                if !spec.receivers.contains(&self.id.get()) {
                    self.share = None;
                }
            }
            return Ok(Done::idle());
        };
        let responses = net.collect(Chan::Response, &spec.dealers)?;
        let outcome = state.finalize(&by_party(&responses)?)?;
        let key = outcome.public.group_key_bytes();
        if Some(&key) != self.group_key.as_ref() {
            return Err(Failure::local(
                "GROUP_KEY_CHANGED",
                "the reshared public key package has another group key".into(),
            ));
        }
        let mut done = Done::active().with(Event::Key {
            label: "after reshare",
            digest: conduct::digest(&key),
            len: key.len(),
        });
        done.events.extend(outcome.blame.iter().map(lss_blame_event));
        if !outcome.dropped.is_empty() {
            let dropped: Vec<u16> = outcome.dropped.iter().map(|p| p.get()).collect();
            done.events.push(Event::Note(format!(
                "messages from parties {} did not decode and were treated as missing",
                list(&dropped)
            )));
        }
        self.share = outcome.key_share;
        if self.share.is_some() {
            net.send(HUB, Chan::Public, outcome.public.to_bytes());
        }
        Ok(done)
    }
}

/// The coordinator: sees only public data; trusted for liveness.
struct Hub {
    curve: Curve,
    public: Option<PublicKeyPackage>,
    session: Option<SessionSpec>,
    package: Option<SigningPackage>,
}

impl Hub {
    fn commit(&mut self, spec: &SessionSpec, net: &mut Endpoint) -> Result<Done, Failure> {
        self.session = Some(spec.clone());
        if spec.publishers.is_empty() {
            return Ok(Done::idle());
        }
        let (bytes, odd) = agreed(&net.collect(Chan::Public, &spec.publishers)?, &spec.publishers)?;
        self.public = Some(PublicKeyPackage::from_bytes(self.curve, &bytes)?);
        let mut done = Done::active();
        done.events.extend(conduct::deviants(&odd));
        Ok(done)
    }

    fn package(&mut self, net: &mut Endpoint) -> Result<Done, Failure> {
        let spec = self.session.as_ref().ok_or_else(|| missing("session"))?;
        let public = self
            .public
            .as_ref()
            .ok_or_else(|| missing("public key package"))?;
        let mut commitments = BTreeMap::new();
        let mut done = Done::active();
        for (a, b) in net.collect(Chan::Round1, &spec.signers)? {
            match SigningCommitments::from_bytes(self.curve, &b) {
                Ok(c) => {
                    commitments.insert(pid(a)?, c);
                }
                Err(e) => {
                    done.events
                        .push(exclude(&mut done.exclude, a, &e, "its commitments do not decode"))
                }
            }
        }
        if !done.exclude.is_empty() {
            return Ok(done);
        }
        let message = match &spec.purpose {
            Purpose::Sign(m) => m.clone(),
            Purpose::Activation => reshare::activation_message(public),
        };
        let package = match SigningPackage::new(public, &commitments, &message) {
            Ok(p) => p,
            // A commitment from a stale or foreign share: name its sender, retry without it.
            Err(e) if !e.culprits().is_empty() => {
                for p in e.culprits() {
                    let event = exclude(&mut done.exclude, p.get(), &e, "its commitments were refused");
                    done.events.push(event);
                }
                return Ok(done);
            }
            Err(e) => return Err(e.into()),
        };
        net.broadcast(spec.signers.iter().copied(), Chan::Package, package.to_bytes());
        self.package = Some(package);
        Ok(done)
    }

    fn aggregate(&mut self, net: &mut Endpoint) -> Result<Done, Failure> {
        let spec = self.session.clone().ok_or_else(|| missing("session"))?;
        let public = self
            .public
            .as_ref()
            .ok_or_else(|| missing("public key package"))?;
        let package = self.package.take().ok_or_else(|| missing("signing package"))?;
        let mut shares = BTreeMap::new();
        let mut done = Done::active();
        for (a, b) in net.collect(Chan::Round2, &spec.signers)? {
            match SignatureShare::from_bytes(self.curve, &b) {
                Ok(s) => {
                    shares.insert(pid(a)?, s);
                }
                Err(e) => done.events.push(exclude(
                    &mut done.exclude,
                    a,
                    &e,
                    "its signature share does not decode",
                )),
            }
        }
        // A signer of the package that went silent: named, and the session retried.
        for p in package.signers() {
            if !shares.contains_key(p) && !done.exclude.contains(&p.get()) {
                done.exclude.push(p.get());
                done.events.push(Event::Blame {
                    party: p.get(),
                    code: "MISSING_MESSAGE".into(),
                    reason: "sent no signature share — excluded, session retried".into(),
                });
            }
        }
        if !done.exclude.is_empty() {
            return Ok(done);
        }
        let signature = match lens::aggregate(public, &package, &shares) {
            Ok(s) => s,
            Err(e @ lens::Error::InvalidSignatureShare { .. }) => {
                // FROST is not robust: name every cheater; the session is retried without them.
                for p in e.culprits() {
                    done.exclude.push(p.get());
                    let event = Event::Blame {
                        party: p.get(),
                        code: e.code().to_string(),
                        reason: "its signature share fails its verifying share — excluded, session retried"
                            .into(),
                    };
                    done.events.push(event);
                }
                return Ok(done);
            }
            Err(e) => return Err(e.into()),
        };
        done.events.push(Event::Signers(
            package.signers().iter().map(|p| p.get()).collect(),
        ));
        let result = match &spec.purpose {
            Purpose::Sign(_) => signature.to_bytes().to_vec(),
            Purpose::Activation => reshare::activation_certificate(public, &signature)?.to_bytes(),
        };
        net.broadcast(spec.audience.iter().copied(), Chan::Result, result);
        Ok(done)
    }
}

/// Names `party` for `e` and adds it to the parties the session is retried without.
fn exclude(out: &mut Vec<u16>, party: u16, e: &lens::Error, what: &str) -> Event {
    out.push(party);
    Event::Blame {
        party,
        code: e.code().to_string(),
        reason: format!("{what} ({e}) — excluded, session retried"),
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
                Step::Dkg1 {
                    session,
                    parties,
                    threshold,
                } => {
                    if parties.contains(&p.id.get()) {
                        p.dkg1(*session, parties, *threshold, net)
                    } else {
                        Ok(Done::idle())
                    }
                }
                Step::Dkg2 if p.dkg.is_some() => p.dkg2(net),
                Step::Dkg3 if p.dkg.is_some() => p.dkg3(net),
                Step::Dkg4 if p.dkg.is_some() => p.dkg4(net),
                Step::Commit(spec) => p.commit(spec, net),
                Step::Sign => p.sign(net),
                Step::Verify => p.verify(net),
                Step::Join(spec) => p.join(spec, net),
                Step::Deal(spec) => p.deal(spec, net),
                Step::Complain => p.complain(net),
                Step::Respond => p.respond(net),
                Step::Finalize => p.finalize(net),
                Step::Dkg2 | Step::Dkg3 | Step::Dkg4 | Step::Package | Step::Aggregate => Ok(Done::idle()),
            },
            Node::Hub(h) => match step {
                Step::Commit(spec) => h.commit(spec, net),
                Step::Package => h.package(net),
                Step::Aggregate => h.aggregate(net),
                _ => Ok(Done::idle()),
            },
        }
    }
}

/// One signing session, retried without the parties the coordinator names (while `t`
/// remain). Returns the signers of the successful attempt and how many parties verified.
fn session(
    c: &mut Conductor<Step>,
    phases: [&str; 4],
    mut spec: SessionSpec,
    threshold: u16,
) -> Result<(Vec<u16>, usize), Failure> {
    let [r1, r2, aggregate, verify] = phases;
    loop {
        c.step(r1, Step::Commit(spec.clone()))?;
        let mut out = excluded(&c.step(r1, Step::Package)?);
        if out.is_empty() {
            c.step(r2, Step::Sign)?;
            let done = c.step(aggregate, Step::Aggregate)?;
            out = excluded(&done);
            if out.is_empty() {
                let verified = conduct::active(&c.step(verify, Step::Verify)?);
                return Ok((conduct::signers_of(&done), verified));
            }
        }
        spec.signers.retain(|p| !out.contains(p));
        spec.publishers.clear();
        if spec.signers.len() < usize::from(threshold) {
            let mut f = Failure::local(
                "INVALID_SIGNATURE_SHARE",
                format!(
                    "{} honest signers left after excluding parties {}, {threshold} needed",
                    spec.signers.len(),
                    list(&out)
                ),
            )
            .blaming(out);
            f.module = "lens";
            f.phase = aggregate.to_string();
            return Err(f);
        }
        say!("    · retrying with parties {}", list(&spec.signers));
    }
}

fn dealing(c: &mut Conductor<Step>, phase: &str, spec: ReshareSpec) -> Result<(), Failure> {
    c.step(phase, Step::Join(spec.clone()))?;
    c.step(phase, Step::Deal(spec))?;
    c.step(phase, Step::Complain)?;
    c.step(phase, Step::Respond)?;
    c.step(phase, Step::Finalize)?;
    Ok(())
}

/// The Lens pipeline.
pub fn run(demo: &Demo, curve: Curve) -> Result<Summary, Failure> {
    let (n, t) = (demo.parties, demo.threshold);
    let max = demo.reshare.map_or(n, |(n2, _)| n.max(n2));
    let seed = demo.seed.clone();
    let cheat = demo.cheat;
    let cluster = Cluster::spawn(max, move |addr| {
        let rng = conduct::node_rng(&seed, SCHEME, addr);
        match PartyId::new(addr) {
            None => Node::Hub(Box::new(Hub {
                curve,
                public: None,
                session: None,
                package: None,
            })),
            Some(id) => Node::Party(Box::new(Party {
                id,
                curve,
                cheat: cheat == Some(addr),
                rng,
                dkg: None,
                share: None,
                group_key: None,
                reshare: None,
                last_reshare: None,
                session: None,
                nonces: None,
            })),
        }
    });
    let mut c = Conductor::new(cluster, cheat);
    let sid = |label: &str| conduct::session_id(&demo.seed, SCHEME, label);
    let parties = range(n);
    let result = (|| -> Result<(), Failure> {
        c.step(
            "DKG",
            Step::Dkg1 {
                session: sid("dkg"),
                parties: parties.clone(),
                threshold: t,
            },
        )?;
        c.step("DKG", Step::Dkg2)?;
        c.step("DKG", Step::Dkg3)?;
        c.step("DKG", Step::Dkg4)?;
        let key = c
            .keys
            .get("before reshare")
            .map(|(d, _)| conduct::fingerprint(d))
            .unwrap_or_default();
        c.phase_line(
            "DKG",
            &format!(
                "LSS Feldman DKG on {}: {n} parties, t = {t}, group key {key}",
                curve.name()
            ),
        );

        let message = b"quasar demo: block 1".to_vec();
        let (used, verified) = session(
            &mut c,
            ["Round 1", "Round 2", "Aggregate", "Verify"],
            SessionSpec {
                purpose: Purpose::Sign(message),
                signers: quorum(&parties, t, cheat, false),
                audience: parties.clone(),
                publishers: parties.clone(),
            },
            t,
        )?;
        c.phase_line("Round 1", "commitments to the coordinator, signing package back");
        c.phase_line("Round 2", "signature shares to the coordinator");
        c.phase_line("Aggregate", &format!("signed by parties {}", list(&used)));
        c.phase_line(
            "Verify",
            &format!(
                "\"quasar demo: block 1\" verified by {verified} with the {} verifier",
                standard(curve)
            ),
        );

        let Some((n2, t2)) = demo.reshare else {
            return Ok(());
        };
        let receivers = range(n2);
        let dealers = quorum(&parties, t, cheat, false);
        dealing(
            &mut c,
            "Reshare",
            ReshareSpec {
                session: sid("reshare"),
                dealers: dealers.clone(),
                receivers: receivers.clone(),
                threshold: t2,
            },
        )?;
        let same = match (c.keys.get("before reshare"), c.keys.get("after reshare")) {
            (Some(a), Some(b)) if a == b => "group key byte-identical",
            _ => "GROUP KEY CHANGED",
        };
        c.phase_line(
            "Reshare",
            &format!(
                "{t}-of-{n} → {t2}-of-{n2}, dealt by parties {}; {same}",
                list(&dealers)
            ),
        );

        let new_cheat = cheat.filter(|p| receivers.contains(p));
        let (used, verified) = session(
            &mut c,
            ["Activation"; 4],
            SessionSpec {
                purpose: Purpose::Activation,
                signers: quorum(&receivers, t2, new_cheat, true),
                audience: range(max),
                publishers: receivers.clone(),
            },
            t2,
        )?;
        c.phase_line(
            "Activation",
            &format!(
                "certificate signed by parties {}, verified by {verified} under the same group key",
                list(&used)
            ),
        );

        let message = b"quasar demo: block 2, after the reshare".to_vec();
        let (used, verified) = session(
            &mut c,
            [
                "Round 1 (gen 1)",
                "Round 2 (gen 1)",
                "Aggregate (gen 1)",
                "Verify (gen 1)",
            ],
            SessionSpec {
                purpose: Purpose::Sign(message),
                signers: quorum(&receivers, t2, new_cheat, true),
                audience: receivers.clone(),
                publishers: Vec::new(),
            },
            t2,
        )?;
        c.phases_line(
            "Sign again (gen 1)",
            &[
                "Round 1 (gen 1)",
                "Round 2 (gen 1)",
                "Aggregate (gen 1)",
                "Verify (gen 1)",
            ],
            &format!(
                "signed by parties {}, verified by {verified} with the {} verifier",
                list(&used),
                standard(curve)
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
        key_kind: format!("{} group key", curve.name()),
        hub: "coord",
        blame,
    })
}

/// The standard verifier a Lens signature on `curve` satisfies.
pub fn standard(curve: Curve) -> &'static str {
    match curve {
        Curve::Ed25519 => "Ed25519 (RFC 8032)",
        Curve::Secp256k1 => "BIP-340",
        Curve::Ristretto255 => "RFC 9591 ristretto255",
    }
}
