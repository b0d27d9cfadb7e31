//! The Pulsar committee (`pulsar::committee`: threshold ML-DSA in which no party and no
//! combiner ever holds the key) on the demo's cluster: key generation (the distributed key
//! generation, one `Dkg` party per member) → sign (exactly T signers, each a `Signer` party;
//! leaderless: every signer combines and verifies the signature itself, and a failed run
//! restarts inside the party) → every member verifies with plain `mldsa::verify`.
//!
//! A committee key is never reshared (the library's module docs say why), so this scheme has
//! its own short pipeline; a signer named for a reveal that breaks its commitment ends the
//! session, and a new session goes without it while T honest members remain. The hub node
//! has no role: there is no combiner.

use quasar_pq::cert::PULSAR_CONTEXT;
use quasar_pq::mldsa::{self, Mode};
use quasar_pq::party::Round;
use quasar_pq::pulsar::committee::{Dkg, DkgParams, KeyShare, Keyed, SignParams, Signed, Signer};
use quasar_pq::pulsar::frame::{GroupKeyFrame, SignatureFrame};
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;

use crate::args::{Acts, Demo};
use crate::conduct::{exact_quorum, list, range, Conductor, Event};
use crate::devnet;
use crate::driver::{self, output, Output, Publication, Published, Role};
use crate::flow::{self, held, ids, Flow, Phase, Pipeline};
use crate::node::Place;
use crate::report::Failure;
use crate::store::Held;
use crate::Summary;

/// The row of the table the key generation spans.
const SETUP: &[&str] = &["Key generation"];

/// What the committee signs.
pub(crate) const MESSAGE: &[u8] = b"quasar demo: block 1, signed by a committee";

/// The most signing sessions a run starts (each one names at least one cheater).
const MAX_SESSIONS: usize = 8;

/// A member's node.
struct Member {
    id: PartyId,
    mode: Mode,
    acts: Acts,
    rng: ChaCha20Rng,
    share: Option<KeyShare>,
    /// The signers of the last signing session, and this member's signature if it signed.
    signed: (Vec<u16>, Option<Vec<u8>>),
    /// Where its share is kept (`quasar node serve --store`), and whether the run resumes.
    held: Held,
    /// Its validator side, in a devnet run.
    devnet: devnet::Validating,
}

/// The scheme's label in a store.
const STORED: &str = "committee";

impl Member {
    /// On a resumed run, the share the store kept (once, before the first path needs it).
    fn resumed(&mut self) -> Result<(), Failure> {
        if self.share.is_none() {
            if let Some(bytes) = self.held.resumed(self.id, STORED)? {
                self.share = Some(KeyShare::from_bytes(&bytes)?);
            }
        }
        Ok(())
    }
}

impl driver::Node for Member {
    type Phase = Phase;

    fn publish(&mut self, phase: &Phase) -> Result<Vec<Publication>, Failure> {
        let (mode, share) = (self.mode, &self.share);
        let key = || match share {
            Some(s) => Ok(Some(GroupKeyFrame::encode(mode, s.committee().public_key())?)),
            None => Ok(None),
        };
        let cheats = self.acts.signing.is_some();
        if let Some(out) = self
            .devnet
            .publish(phase, self.id.get(), key, cheats, &mut self.rng)?
        {
            return Ok(out);
        }
        Ok(match (phase, &self.signed.1) {
            // Each signer hands the audience the signature it combined and verified.
            (Phase::Verify(audience, _), Some(signature)) => {
                vec![Publication::new(audience, signature.clone())]
            }
            _ => Vec::new(),
        })
    }

    fn start(&mut self, phase: &Phase, published: &Published) -> Result<Role, Failure> {
        let me = self.id;
        if let Some(role) = self.devnet.start(phase, published, me, &mut self.rng)? {
            return Ok(role);
        }
        match phase {
            // A devnet block's Pulsar leg, signed by the committee itself.
            Phase::Block(b) if b.signers.contains(&me.get()) => {
                let message = self.devnet.keys()?.message(b)?;
                let share = held(&self.share, "committee share")?;
                let params = SignParams::new(b.id, &ids(&b.signers), &message, PULSAR_CONTEXT)?;
                let rng = &mut self.rng;
                Ok(Role::party(match self.acts.signing {
                    Some(c) => Signer::start_cheating(share, &params, c, rng)?,
                    None => Signer::start(share, &params, rng)?,
                }))
            }
            Phase::Setup { dkg, parties, t, .. } if parties.contains(&me.get()) => {
                let params = DkgParams::new(*dkg, self.mode, usize::from(*t), &ids(parties))?;
                Ok(Role::party(Dkg::start(me, &params, &mut self.rng)?))
            }
            Phase::Sign { id, signers, message } => {
                self.signed = (signers.clone(), None);
                if !signers.contains(&me.get()) {
                    return Ok(Role::Idle);
                }
                self.resumed()?;
                let share = held(&self.share, "committee share")?;
                let params = SignParams::new(*id, &ids(signers), message, b"")?;
                let rng = &mut self.rng;
                Ok(Role::party(match self.acts.signing {
                    Some(c) => Signer::start_cheating(share, &params, c, rng)?,
                    None => Signer::start(share, &params, rng)?,
                }))
            }
            Phase::Verify(audience, message) if audience.contains(&me.get()) => {
                self.resumed()?;
                let key = held(&self.share, "committee share")?.committee();
                // Its own signature counts when it was a signer (nobody publishes to itself).
                let own = self.signed.1.as_deref().map(|sig| (me.get(), sig));
                let signature = published.agreed_with(own, &self.signed.0, |b| {
                    (b.len() == key.mode().signature_len()).then(|| b.to_vec())
                })?;
                // The standard verifier: FIPS 204 ML-DSA.Verify under the committee's key.
                mldsa::verify(self.mode, key.public_key(), message, b"", &signature)?;
                // The key it verified under: the setup's, or on a resumed run the stored one.
                Ok(Role::Local(vec![Event::key("before reshare", key.public_key())]))
            }
            _ => Ok(Role::Idle),
        }
    }

    fn finish(&mut self, phase: &Phase, out: Output) -> Result<Vec<Event>, Failure> {
        match phase {
            Phase::Setup { .. } => {
                let keyed = output::<Keyed>(out)?;
                let events = vec![Event::key("before reshare", keyed.key.public_key())];
                let key = &keyed.key;
                let bytes = keyed.share.to_bytes();
                self.held
                    .keep(self.id, STORED, key.public_key(), key.threshold(), &bytes)?;
                self.share = Some(keyed.share);
                Ok(events)
            }
            Phase::Block(b) => {
                let signed = output::<Signed>(out)?;
                let mut events = Event::blame(None, [signed.dropped.as_slice()]);
                events.push(Event::Signers(b.signers.clone()));
                self.devnet.pulsar_signed = Some(signed.signature);
                Ok(events)
            }
            Phase::CoronaLeg { block, .. } => self.devnet.finish(block, out),
            Phase::Sign { signers, .. } => {
                let signed = output::<Signed>(out)?;
                let mut events = Event::blame(None, [signed.dropped.as_slice()]);
                // Every signer must have combined the same signature.
                events.push(Event::key("signature", &signed.signature));
                events.push(Event::Signers(signers.clone()));
                self.signed.1 = Some(signed.signature);
                Ok(events)
            }
            _ => Ok(Vec::new()),
        }
    }

    fn label(&self, _: &Phase, _: Option<Round>) -> usize {
        0
    }
}

/// The hub: a committee has no combiner and no coordinator; in a devnet run it is the
/// aggregator, to which the signers hand the Pulsar leg at each block's seal.
struct Hub {
    mode: Mode,
    rng: ChaCha20Rng,
    devnet: Option<devnet::Aggregating>,
}

impl driver::Node for Hub {
    type Phase = Phase;

    fn publish(&mut self, phase: &Phase) -> Result<Vec<Publication>, Failure> {
        match &mut self.devnet {
            Some(d) => Ok(d.publish(phase, &mut self.rng)?.unwrap_or_default()),
            None => Ok(Vec::new()),
        }
    }

    fn start(&mut self, phase: &Phase, published: &Published) -> Result<Role, Failure> {
        let Some(d) = &mut self.devnet else {
            return Ok(Role::Idle);
        };
        Ok(match phase {
            Phase::Setup { parties, .. } => {
                d.members = parties.clone();
                Role::Idle
            }
            Phase::Enroll(parties) => {
                Role::Local(d.enroll(parties, published, |b| GroupKeyFrame::decode(b).is_ok())?)
            }
            Phase::Block(b) => Role::Local(d.aggregator.collect(b, published)?.1),
            Phase::Seal(b) => {
                // The committee's signature as most of its signers combined it.
                let len = self.mode.signature_len();
                let signature = published.agreed(&b.signers, |s| (s.len() == len).then(|| s.to_vec()))?;
                d.aggregator
                    .pulsar(&SignatureFrame::encode(self.mode, &signature)?)?;
                Role::Local(vec![d.seal(b, published)?])
            }
            _ => Role::Idle,
        })
    }

    fn finish(&mut self, _: &Phase, _: Output) -> Result<Vec<Event>, Failure> {
        Ok(Vec::new())
    }

    fn label(&self, _: &Phase, _: Option<Round>) -> usize {
        0
    }
}

/// The committee with one ML-DSA parameter set.
pub(crate) struct Committee(Mode);

impl Flow for Committee {
    const SCHEME: &'static str = "committee";
    const HUB: &'static str = "no hub";
    const SETUP: &'static [&'static str] = SETUP;

    fn dkg_line(&self, n: u16, t: u16) -> String {
        format!(
            "{} committee key from the distributed key generation: {n} members, T = {t}; each \
             subset's short secret drawn by one of its members and sent only to the others",
            self.0.name()
        )
    }

    fn verifier(&self) -> String {
        format!("plain {} mldsa::verify", self.0.name())
    }

    fn key_kind(&self) -> String {
        format!("{} public key", self.0.name())
    }

    const LEADERLESS: bool = true;

    fn setup(&self, c: &mut Conductor<Phase>, p: &Pipeline<'_>) -> Result<(), Failure> {
        let (n, t) = (p.demo.parties, p.demo.threshold);
        let setup = Phase::Setup {
            dkg: p.session("dkg"),
            ceremony: p.session("unused"),
            parties: range(n),
            t,
            signers: Vec::new(),
        };
        c.path(SETUP, setup)?;
        let line = format!(
            "{}; every member holds the same key: {}",
            self.dkg_line(n, t),
            c.fingerprint("before reshare")
        );
        c.phase_line(SETUP[0], &line);
        Ok(())
    }

    fn pipeline(&self, c: &mut Conductor<Phase>, p: &Pipeline<'_>) -> Result<(), Failure> {
        if p.demo.chain.is_some() {
            return devnet::pipeline(self, c, p);
        }
        let (n, t) = (p.demo.parties, p.demo.threshold);
        let parties = range(n);
        // A resumed run has no key generation: every member signs with the share it stored.
        if !p.demo.resume {
            self.setup(c, p)?;
        }
        for attempt in 0..MAX_SESSIONS {
            let Some(signers) = exact_quorum(&parties, t, &c.named, p.signing_cheat) else {
                break;
            };
            let id = p.session(&format!("sign {attempt}"));
            match c.phase(
                "Sign",
                Phase::Sign {
                    id,
                    signers: signers.clone(),
                    message: MESSAGE,
                },
            ) {
                Ok(_) => {
                    c.phase_line(
                        "Sign",
                        &format!(
                            "parties {} each combined and verified the same signature; none held the key",
                            list(&signers)
                        ),
                    );
                    let d = c.phase("Verify", Phase::Verify(parties.clone(), MESSAGE))?;
                    let text = String::from_utf8_lossy(MESSAGE);
                    c.phase_line(
                        "Verify",
                        &format!("\"{text}\" verified by {} with {}", d.parties(), self.verifier()),
                    );
                    return Ok(());
                }
                Err(f) if !f.culprits.is_empty() => {
                    c.named_by_failure(&f);
                    say!("    · a new session without them");
                }
                Err(f) => return Err(f),
            }
        }
        Err(Failure::local(
            "TOO_FEW_SIGNERS",
            format!("fewer than {t} members remain that were not named"),
        ))
    }
}

/// The committee pipeline.
pub(crate) fn run(demo: &Demo, mode: Mode, place: &Place<'_>) -> Result<Summary, Failure> {
    let (store, resume) = (demo.store.clone(), demo.resume);
    let member = move |id, acts, rng| Member {
        id,
        mode,
        acts,
        rng,
        share: None,
        signed: (Vec::new(), None),
        held: Held::new(store.clone(), resume),
        devnet: devnet::Validating::default(),
    };
    let chain = demo.chain.clone();
    let hub = move |rng| Hub {
        mode,
        rng,
        devnet: chain.as_deref().map(devnet::Aggregating::new),
    };
    flow::run(&Committee(mode), demo, member, hub, place)
}
