//! Pulsar custody on the shared pipeline, through the library's lifecycle parties
//! (`pulsar::custody::lifecycle`): the setup path (LSS Pedersen DKG → key ceremony → key
//! certification, one `Member` per party and the `Combiner`) → the sign path → verify
//! with plain `mldsa::verify` → [the reshare path, ending with each member's keyring
//! activating the new generation → the old parties that took no part activate theirs →
//! sign again under the unchanged key → verify].
//!
//! Each node only says which lifecycle party it starts on a path and what it keeps from
//! the output; the rounds are the library's (`driver` routes the bytes).

use quasar_pq::lss::GroupPublic;
use quasar_pq::mldsa::{self, Mode};
use quasar_pq::party::keyring::Keyring;
use quasar_pq::party::Round;
use quasar_pq::pulsar::custody::lifecycle::{
    Combiner, CombinerOutcome, Member as Lifecycle, MemberOutcome, Pending, ReshareParams, SetupParams,
    SignParams,
};
use quasar_pq::pulsar::custody::{GroupKey, KeyShare};
use quasar_pq::vss::Ristretto255;
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;

use crate::args::{Acts, Demo};
use crate::conduct::{list, Conductor, Done, Event};
use crate::devnet;
use crate::driver::{self, output, party_id, Output, Publication, Published, Role};
use crate::flow::{self, held, held_mut, ids, Flow, Phase, Pipeline, Resharing};
use crate::net::HUB;
use crate::node::Place;
use crate::report::Failure;
use crate::store::Held;
use crate::Summary;
use quasar_pq::cert::PULSAR_CONTEXT;
use quasar_pq::party::keyring::Activated;

type R = Ristretto255;

/// Whether `b` is a Pulsar group key frame (what a devnet's sets carry).
fn is_group_key(b: &[u8]) -> bool {
    quasar_pq::pulsar::frame::GroupKeyFrame::decode(b).is_ok()
}

/// The rows of the table the setup path spans.
const SETUP: &[&str] = &["DKG", "Key ceremony", "Key certification"];

/// The setup's parameters as every node builds them.
fn setup_params(phase: &Phase, mode: Mode) -> Result<Option<SetupParams>, Failure> {
    let Phase::Setup {
        dkg,
        ceremony,
        parties,
        t,
        signers,
    } = phase
    else {
        return Ok(None);
    };
    let (members, signers) = (ids(parties), ids(signers));
    let hub = party_id(HUB);
    Ok(Some(SetupParams::with_sessions(
        *dkg, *ceremony, mode, &members, *t, &signers, hub,
    )?))
}

/// A sign path's parameters as every node builds them (a devnet block's under the
/// certificate's Pulsar context).
fn sign_params(id: [u8; 32], signers: &[u16], message: &[u8], ctx: &[u8]) -> Result<SignParams, Failure> {
    Ok(SignParams::new(id, &ids(signers), message, ctx, party_id(HUB))?)
}

/// A party's node.
struct Member {
    id: PartyId,
    mode: Mode,
    acts: Acts,
    rng: ChaCha20Rng,
    /// Its custody shares: the current generation and a pending one.
    keyring: Keyring<KeyShare>,
    /// What its reshare path left, until "Erase old shares".
    reshared: Option<Resharing>,
    /// Its validator side, in a devnet run.
    devnet: devnet::Validating,
    /// Where its keyring is kept (`quasar node serve --store`), and whether the run resumes
    /// (signs with the stored share; `--resume`).
    held: Held,
}

impl Member {
    /// Saves the keyring after the setup.
    fn keep(&mut self) -> Result<(), Failure> {
        match self.held.store(self.id)? {
            Some(store) => store.save(&self.keyring, &mut crate::node::fresh_rng()),
            None => Ok(()),
        }
    }

    /// Mirrors an activation of the keyring in the store.
    fn keep_activation(&mut self, receipt: &Activated) -> Result<(), Failure> {
        match self.held.store(self.id)? {
            Some(store) => store.activate(&self.keyring, receipt, &mut crate::node::fresh_rng()),
            None => Ok(()),
        }
    }

    /// On a resumed run, the keyring the store kept (once, before the first path needs it).
    fn resumed(&mut self) -> Result<(), Failure> {
        // Once: the store is open from then on.
        if self.held.resume && !self.held.is_open() && self.keyring.current().is_none() {
            if let Some(store) = self.held.store(self.id)? {
                self.keyring = store.load()?;
            }
        }
        Ok(())
    }

    /// What a Pulsar signer hands the combiner: the group's public record and key.
    fn record(&self) -> Result<Vec<Publication>, Failure> {
        let share = self.share()?;
        Ok(vec![
            Publication::to_hub(share.public().to_bytes()),
            Publication::to_hub(share.group_key().to_bytes()),
        ])
    }

    fn share(&self) -> Result<&KeyShare, Failure> {
        self.keyring.current().ok_or_else(|| flow::missing("key share"))
    }
}

impl driver::Node for Member {
    type Phase = Phase;

    fn publish(&mut self, phase: &Phase) -> Result<Vec<Publication>, Failure> {
        let me = self.id.get();
        self.resumed()?;
        let key = || Ok(self.keyring.current().map(|s| s.group_key().frame()));
        let cheats = self.acts.signing.is_some();
        if let Some(mut out) = self.devnet.publish(phase, me, key, cheats, &mut self.rng)? {
            // A Pulsar signer also hands the combiner the group's record.
            if matches!(phase, Phase::Block(b) if b.signers.contains(&me)) {
                out.extend(self.record()?);
            }
            return Ok(out);
        }
        Ok(match phase {
            // The combiner learns the group's public record from the signers' majority.
            Phase::Sign { signers, .. } if signers.contains(&me) => self.record()?,
            // A joining member learns it from the dealers' majority.
            Phase::Reshare(d) if d.dealers.contains(&me) => {
                let share = self.share()?;
                let to = d.newcomers(share.public().parties());
                vec![
                    Publication::new(&to, share.public().to_bytes()),
                    Publication::new(&to, share.group_key().to_bytes()),
                ]
            }
            Phase::Retire(d) if d.dealers.contains(&me) => {
                flow::tell(&d.outsiders(), self.reshared.as_ref())?
            }
            _ => Vec::new(),
        })
    }

    fn start(&mut self, phase: &Phase, published: &Published) -> Result<Role, Failure> {
        let me = self.id;
        self.resumed()?;
        if let Some(role) = self.devnet.start(phase, published, me, &mut self.rng)? {
            return Ok(role);
        }
        match phase {
            Phase::Setup { parties, .. } if parties.contains(&me.get()) => {
                let params = held(&setup_params(phase, self.mode)?, "setup")?.clone();
                let rng = &mut self.rng;
                // One misbehaviour for the whole path: the dealing's if any, else the
                // signing's (its release in the key ceremony).
                Ok(Role::party(match self.acts.dealing.or(self.acts.signing) {
                    Some(c) => Lifecycle::setup_cheating(me, &params, c, rng)?,
                    None => Lifecycle::setup(me, &params, rng)?,
                }))
            }
            Phase::Sign { id, signers, message } if signers.contains(&me.get()) => {
                let params = sign_params(*id, signers, message, b"")?;
                let share = self.keyring.current().ok_or_else(|| flow::missing("key share"))?;
                let rng = &mut self.rng;
                Ok(Role::party(match self.acts.signing {
                    Some(c) => Lifecycle::sign_cheating(share, &params, c, rng)?,
                    None => Lifecycle::sign(share, &params, rng)?,
                }))
            }
            Phase::Verify(audience, message) if audience.contains(&me.get()) => {
                let key = self.share()?.group_key();
                // The standard verifier: FIPS 204 ML-DSA.Verify under the group key.
                mldsa::verify(
                    self.mode,
                    key.public_key(),
                    message,
                    b"",
                    flow::from_hub(published)?,
                )?;
                Ok(Role::Local(Vec::new()))
            }
            Phase::Reshare(d) if d.takes_part(me.get()) => {
                let (key, public) = match self.keyring.current() {
                    Some(s) => (s.group_key().clone(), s.public().clone()),
                    // Joining: the group's public record as the dealers' majority sent it
                    // (the key's certificate is checked against the sharing).
                    None => {
                        let public: GroupPublic<R> =
                            published.agreed(&d.dealers, |b| GroupPublic::from_bytes(b).ok())?;
                        let key = published.agreed(&d.dealers, |b| GroupKey::from_bytes(b, &public).ok())?;
                        (key, public)
                    }
                };
                let (dealers, receivers) = (ids(&d.dealers), ids(&d.receivers));
                let params =
                    ReshareParams::reshare(d.session, &key, &public, &dealers, &receivers, d.threshold)?;
                let (keyring, rng) = (&mut self.keyring, &mut self.rng);
                Ok(Role::party(match self.acts.dealing {
                    Some(c) => Lifecycle::reshare_cheating(me, keyring, &params, c, rng)?,
                    None => Lifecycle::reshare(me, keyring, &params, rng)?,
                }))
            }
            Phase::Retire(d) if d.is_old(me.get()) => {
                let (role, receipt) = flow::retire(&mut self.keyring, self.reshared.as_ref(), |current| {
                    let (public, cert) =
                        flow::told(published, &d.dealers, |b| GroupPublic::<R>::from_bytes(b).ok())?;
                    Ok((Pending::new(None, public, current.group_key().clone()), cert))
                })?;
                if let Some(receipt) = receipt {
                    self.keep_activation(&receipt)?;
                }
                Ok(role)
            }
            Phase::Block(b) if b.signers.contains(&me.get()) => {
                let message = self.devnet.keys()?.message(b)?;
                let params = sign_params(b.id, &b.signers, &message, PULSAR_CONTEXT)?;
                let share = self.keyring.current().ok_or_else(|| flow::missing("key share"))?;
                let rng = &mut self.rng;
                Ok(Role::party(match self.acts.signing {
                    Some(c) => Lifecycle::sign_cheating(share, &params, c, rng)?,
                    None => Lifecycle::sign(share, &params, rng)?,
                }))
            }
            _ => Ok(Role::Idle),
        }
    }

    fn finish(&mut self, phase: &Phase, out: Output) -> Result<Vec<Event>, Failure> {
        let missing = || flow::missing("the path's outcome");
        match phase {
            Phase::Setup { .. } => {
                let o = output::<MemberOutcome>(out)?.into_setup().ok_or_else(missing)?;
                let mut events = Event::blame(Some(SETUP[0]), [o.blame.as_slice(), o.dropped.as_slice()]);
                let key = o.key_share.group_key();
                events.push(Event::key("before reshare", key.public_key()));
                events.push(flow::members(key.certificate()));
                self.keyring = Keyring::new(o.key_share);
                self.keep()?;
                Ok(events)
            }
            Phase::Sign { .. } | Phase::Block(_) => {
                let o = output::<MemberOutcome>(out)?
                    .into_released()
                    .ok_or_else(missing)?;
                let mut events = Event::blame(None, [o.dropped.as_slice()]);
                // Resumed, the group key is the one the store kept: report it as setup would.
                if let (true, Some(share)) = (self.held.resume, self.keyring.current()) {
                    events.push(Event::key("before reshare", share.group_key().public_key()));
                }
                Ok(events)
            }
            Phase::CoronaLeg { block, .. } => self.devnet.finish(block, out),
            Phase::Reshare(d) => {
                let o = output::<MemberOutcome>(out)?
                    .into_reshared()
                    .ok_or_else(missing)?;
                let mut events = Event::blame(None, [o.blame.as_slice(), o.dropped.as_slice()]);
                self.keyring = o.keyring;
                let activated = o.activated?;
                self.keep_activation(&activated)?;
                let cert = held(&o.certificate, "activation certificate")?.clone();
                if let Some(share) = self.keyring.current() {
                    events.push(Event::key("after reshare", share.group_key().public_key()));
                }
                events.push(flow::members(&cert));
                if d.is_old(self.id.get()) {
                    self.reshared = Some(Resharing {
                        activated,
                        told: (o.public.to_bytes(), cert),
                    });
                }
                Ok(events)
            }
            _ => Ok(Vec::new()),
        }
    }

    fn label(&self, phase: &Phase, round: Option<Round>) -> usize {
        let Phase::Setup { signers, .. } = phase else {
            return 0;
        };
        match round.map(|r| r.name) {
            Some("DKG") => 0,
            // A non-signer's check of the session belongs to its certification.
            Some("await session") if signers.contains(&self.id.get()) => 1,
            Some("release") => 1,
            _ => 2,
        }
    }
}

/// The combiner: trusted while it signs; holds only public data between sessions.
struct Hub {
    mode: Mode,
    rng: ChaCha20Rng,
    /// The last signature.
    signature: Vec<u8>,
    /// Its hub side in a devnet run: the aggregator.
    devnet: Option<devnet::Aggregating>,
}

impl Hub {
    fn devnet(&mut self) -> Result<&mut devnet::Aggregating, Failure> {
        held_mut(&mut self.devnet, "aggregator (--chain)")
    }

    /// The combiner of a signing session on `message` under `ctx`, from the signers' record.
    fn combiner(
        &mut self,
        (id, signers): ([u8; 32], &[u16]),
        message: &[u8],
        ctx: &[u8],
        published: &Published,
    ) -> Result<Role, Failure> {
        let params = sign_params(id, signers, message, ctx)?;
        let public: GroupPublic<R> = published.agreed(signers, |b| GroupPublic::from_bytes(b).ok())?;
        let key = published.agreed(signers, |b| GroupKey::from_bytes(b, &public).ok())?;
        Ok(Role::party(Combiner::sign(
            &params,
            &key,
            &public,
            &mut self.rng,
        )?))
    }
}

impl driver::Node for Hub {
    type Phase = Phase;

    fn publish(&mut self, phase: &Phase) -> Result<Vec<Publication>, Failure> {
        if let Some(d) = &mut self.devnet {
            if let Some(out) = d.publish(phase, &mut self.rng)? {
                return Ok(out);
            }
        }
        Ok(match phase {
            Phase::Verify(to, _) => vec![Publication::new(to, self.signature.clone())],
            _ => Vec::new(),
        })
    }

    fn start(&mut self, phase: &Phase, published: &Published) -> Result<Role, Failure> {
        match phase {
            Phase::Setup { parties, .. } => {
                if let Some(d) = &mut self.devnet {
                    d.members = parties.clone();
                }
                let params = held(&setup_params(phase, self.mode)?, "setup")?.clone();
                Ok(Role::party(Combiner::setup(&params, &mut self.rng)))
            }
            Phase::Sign { id, signers, message } => self.combiner((*id, signers), message, b"", published),
            Phase::Enroll(parties) => Ok(Role::Local(self.devnet()?.enroll(
                parties,
                published,
                is_group_key,
            )?)),
            Phase::Block(b) => {
                let d = self.devnet()?;
                let (message, named) = d.aggregator.collect(b, published)?;
                d.named = named;
                self.combiner((b.id, &b.signers), &message, PULSAR_CONTEXT, published)
            }
            Phase::Seal(b) => Ok(Role::Local(vec![self.devnet()?.seal(b, published)?])),
            _ => Ok(Role::Idle),
        }
    }

    fn finish(&mut self, phase: &Phase, out: Output) -> Result<Vec<Event>, Failure> {
        Ok(match output::<CombinerOutcome>(out)? {
            CombinerOutcome::Signed(s) if matches!(phase, Phase::Block(_)) => {
                let d = self.devnet()?;
                let mut events = core::mem::take(&mut d.named);
                events.extend(Event::blame(None, [s.blame()]));
                events.push(Event::Signers(s.signers().iter().map(|p| p.get()).collect()));
                d.aggregator.pulsar(&s.to_frame())?;
                // Without a Corona leg to wait for, the block is sealed now.
                if matches!(phase, Phase::Block(b) if b.corona.is_empty()) {
                    events.push(d.aggregator.seal()?);
                }
                events
            }
            CombinerOutcome::Certified(c) => {
                let mut events = Event::blame(Some(SETUP[1]), [c.dropped.as_slice()]);
                events.push(Event::Signers(
                    c.announcement.signers().iter().map(|p| p.get()).collect(),
                ));
                events
            }
            CombinerOutcome::Signed(s) => {
                self.signature = s.signature().to_vec();
                let mut events = Event::blame(None, [s.blame()]);
                events.push(Event::Signers(s.signers().iter().map(|p| p.get()).collect()));
                events
            }
        })
    }

    fn label(&self, phase: &Phase, round: Option<Round>) -> usize {
        match (phase, round.map(|r| r.name)) {
            (Phase::Setup { .. }, Some("observe certification")) => 2,
            (Phase::Setup { .. }, _) => 1,
            _ => 0,
        }
    }
}

/// The Pulsar scheme with one ML-DSA parameter set.
pub(crate) struct Pulsar(Mode);

impl Flow for Pulsar {
    const SCHEME: &'static str = "pulsar";
    const HUB: &'static str = "combiner";
    const SETUP: &'static [&'static str] = SETUP;

    fn dkg_line(&self, n: u16, t: u16) -> String {
        format!("LSS Pedersen DKG on ristretto255: {n} dealers, t = {t}")
    }

    fn setup_lines(&self, c: &Conductor<Phase>, d: &Done) {
        let line = format!(
            "{} key derived from the shares of parties {}, announced",
            self.0.name(),
            list(&d.signers())
        );
        c.phase_line(SETUP[1], &line);
        let line = format!(
            "announcement checked by {}; key certified by proofs of possession of parties {}: {}",
            d.parties(),
            list(&d.certified()),
            c.fingerprint("before reshare")
        );
        c.phase_line(SETUP[2], &line);
    }

    fn verifier(&self) -> String {
        format!("plain {} mldsa::verify", self.0.name())
    }

    fn key_kind(&self) -> String {
        format!("{} public key", self.0.name())
    }

    fn pipeline(&self, c: &mut Conductor<Phase>, p: &Pipeline<'_>) -> Result<(), Failure> {
        if p.demo.chain.is_some() {
            devnet::pipeline(self, c, p)
        } else {
            flow::pipeline(self, c, p)
        }
    }
}

/// The Pulsar pipeline.
pub(crate) fn run(demo: &Demo, mode: Mode, place: &Place<'_>) -> Result<Summary, Failure> {
    let (store, resume) = (demo.store.clone(), demo.resume);
    let member = move |id, acts, rng| Member {
        id,
        mode,
        acts,
        rng,
        keyring: Keyring::empty(),
        reshared: None,
        devnet: devnet::Validating::default(),
        held: Held::new(store.clone(), resume),
    };
    let chain = demo.chain.clone();
    let hub = move |rng| Hub {
        mode,
        rng,
        signature: Vec::new(),
        devnet: chain.as_deref().map(devnet::Aggregating::new),
    };
    flow::run(&Pulsar(mode), demo, member, hub, place)
}
