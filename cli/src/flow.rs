//! The pipeline both schemes share, as the lifecycle paths a user runs: set up the group
//! → sign → verify → [reshare (the library's reshare path ends with the activation: each
//! member's keyring takes the new generation and erases the old share once the
//! certificate verifies) → the old parties that took no part are told the certificate and
//! activate their keyrings too → the new set signs and verifies again].
//!
//! A scheme ([`Flow`]) says which rows of the timing table its setup spans and prints its
//! lines; what each node does on a path is in the scheme's module, and the rounds are the
//! library's lifecycle parties.

use std::collections::BTreeSet;

use quasar_pq::lss::ActivationCertificate;
use quasar_pq::party::keyring::{Activated, Custody, Keyring};
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;

use crate::args::{Acts, Cheating, Demo};
use crate::conduct::{self, list, new_set, quorum, range, Conductor, Done, Event};
use crate::driver::{self, Cluster, Output, Publication, Published, Role};
use crate::net::{Addr, HUB};
use crate::node::Place;
use crate::report::Failure;
use crate::Summary;

/// Party ids from addresses.
pub(crate) fn ids(v: &[u16]) -> Vec<PartyId> {
    v.iter().filter_map(|&p| PartyId::new(p)).collect()
}

/// A node asked to do something it has no state for.
pub(crate) fn missing(what: &str) -> Failure {
    Failure::local("OUT_OF_ORDER", format!("no {what} at this point of the pipeline"))
}

/// The value a node keeps for a later phase, or the failure of a node that lacks it.
pub(crate) fn held<'a, T>(value: &'a Option<T>, what: &str) -> Result<&'a T, Failure> {
    value.as_ref().ok_or_else(|| missing(what))
}

/// The value a node keeps for a later phase, mutably (see [`held`]).
pub(crate) fn held_mut<'a, T>(value: &'a mut Option<T>, what: &str) -> Result<&'a mut T, Failure> {
    value.as_mut().ok_or_else(|| missing(what))
}

/// What the hub published to this node.
pub(crate) fn from_hub(published: &Published) -> Result<&[u8], Failure> {
    published.from(HUB).ok_or_else(|| missing("message from the hub"))
}

/// The members an activation certificate names, as an event.
pub(crate) fn members(cert: &ActivationCertificate) -> Event {
    Event::Certified(cert.members().iter().map(|p| p.get()).collect())
}

/// The public parameters of one reshare, as every node knows them.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct Dealing {
    /// Session id.
    pub session: [u8; 32],
    /// The old set and its threshold.
    pub old: (Vec<u16>, u16),
    /// The dealers (a quorum of the old set).
    pub dealers: Vec<u16>,
    /// The new set.
    pub receivers: Vec<u16>,
    /// The new threshold.
    pub threshold: u16,
}

impl Dealing {
    /// Whether `p` deals or receives.
    pub(crate) fn takes_part(&self, p: u16) -> bool {
        self.dealers.contains(&p) || self.receivers.contains(&p)
    }

    /// Whether `p` held a share of the old generation.
    pub(crate) fn is_old(&self, p: u16) -> bool {
        self.old.0.contains(&p)
    }

    /// Receivers outside `old` (the parties joining).
    pub(crate) fn newcomers(&self, old: &[PartyId]) -> Vec<Addr> {
        self.receivers
            .iter()
            .copied()
            .filter(|r| !old.iter().any(|p| p.get() == *r))
            .collect()
    }

    /// Old parties that took no part (they learn the outcome from the dealers).
    pub(crate) fn outsiders(&self) -> Vec<Addr> {
        self.old
            .0
            .iter()
            .copied()
            .filter(|&p| !self.takes_part(p))
            .collect()
    }
}

/// What a member keeps from its reshare path for "Erase old shares": what its keyring's
/// activation did, and (a dealer) the new generation's public data and certificate to
/// tell the old parties that took no part.
pub(crate) struct Resharing {
    /// The keyring's receipt of the activation.
    pub activated: Activated,
    /// The new generation's public data, encoded, and its activation certificate.
    pub told: (Vec<u8>, ActivationCertificate),
}

/// A node's part in "Erase old shares". A member that took part in the reshare reports
/// what its keyring's activation did at the end of the path; an old member that took no
/// part is `told` the new generation by the dealers and activates its keyring with it —
/// the keyring erases the old share only if the certificate verifies.
/// Returns the role and, for an old member activated here, its keyring's receipt (to store).
pub(crate) fn retire<S: Custody>(
    keyring: &mut Keyring<S>,
    reshared: Option<&Resharing>,
    told: impl FnOnce(&S) -> Result<(S::Pending, S::Certificate), Failure>,
) -> Result<(Role, Option<Activated>), Failure> {
    let (activated, here) = match reshared {
        Some(r) => (r.activated, false),
        None => {
            let Some(current) = keyring.current() else {
                return Ok((Role::Idle, None));
            };
            let (pending, certificate) = told(current)?;
            keyring.stage(pending).map_err(quasar_pq::Error::from)?;
            (keyring.activate(&certificate)?, true)
        }
    };
    let role = Role::Local(activated.erased().map(Event::Erased).into_iter().collect());
    Ok((role, here.then_some(activated)))
}

/// The new generation's public data (decoded by `decode`) and activation certificate as
/// most dealers told them.
pub(crate) fn told<G>(
    published: &Published,
    dealers: &[Addr],
    decode: impl Fn(&[u8]) -> Option<G>,
) -> Result<(G, ActivationCertificate), Failure> {
    let public = published.agreed(dealers, decode)?;
    let cert = published.agreed(dealers, |b| ActivationCertificate::from_bytes(b).ok())?;
    Ok((public, cert))
}

/// Tells `to` the new generation: its public data and its activation certificate.
pub(crate) fn tell(to: &[Addr], reshared: Option<&Resharing>) -> Result<Vec<Publication>, Failure> {
    let (public, cert) = &held(&reshared, "reshare result")?.told;
    Ok(vec![
        Publication::new(to, public.clone()),
        Publication::new(to, cert.to_bytes()),
    ])
}

/// A node of a scheme: one of the parties, or the hub.
pub(crate) enum Either<M, H> {
    /// A party.
    Member(Box<M>),
    /// The combiner / coordinator.
    Hub(Box<H>),
}

impl<M: driver::Node, H: driver::Node<Phase = M::Phase>> driver::Node for Either<M, H> {
    type Phase = M::Phase;

    fn publish(&mut self, phase: &M::Phase) -> Result<Vec<Publication>, Failure> {
        match self {
            Either::Member(m) => m.publish(phase),
            Either::Hub(h) => h.publish(phase),
        }
    }

    fn start(&mut self, phase: &M::Phase, published: &Published) -> Result<Role, Failure> {
        match self {
            Either::Member(m) => m.start(phase, published),
            Either::Hub(h) => h.start(phase, published),
        }
    }

    fn finish(&mut self, phase: &M::Phase, out: Output) -> Result<Vec<Event>, Failure> {
        match self {
            Either::Member(m) => m.finish(phase, out),
            Either::Hub(h) => h.finish(phase, out),
        }
    }

    fn label(&self, phase: &M::Phase, round: Option<quasar_pq::party::Round>) -> usize {
        match self {
            Either::Member(m) => m.label(phase, round),
            Either::Hub(h) => h.label(phase, round),
        }
    }
}

/// The messages signed before and after the reshare.
pub(crate) const MESSAGES: [&[u8]; 2] = [
    b"quasar demo: block 1",
    b"quasar demo: block 2, after the reshare",
];

/// A message a pipeline signs (an alias, so that serde's derive does not take the field for
/// one borrowed from the input: the wire sends its index, `node::wire::signed`).
pub(crate) type Signed = &'static [u8];

/// The paths of the pipeline (sent to other processes by `quasar node`: a signed message as
/// its index among the messages a pipeline signs).
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) enum Phase {
    /// The setup path: the group `parties` with threshold `t` (Pulsar: the key ceremony's
    /// `signers` release their shares to derive the key, then every member certifies it).
    Setup {
        /// The DKG's session id.
        dkg: [u8; 32],
        /// The key ceremony's session id (Pulsar).
        ceremony: [u8; 32],
        /// The members.
        parties: Vec<u16>,
        /// The threshold.
        t: u16,
        /// The key ceremony's signers (Pulsar).
        signers: Vec<u16>,
    },
    /// The sign path: `signers` on `message` (the hub coordinates or combines).
    Sign {
        /// Session id.
        id: [u8; 32],
        /// The signers.
        signers: Vec<u16>,
        /// What they sign.
        #[serde(with = "crate::node::wire::signed")]
        message: Signed,
    },
    /// `audience` verifies the signature the hub made on `message`.
    Verify(Vec<u16>, #[serde(with = "crate::node::wire::signed")] Signed),
    /// The reshare path, bound to the group key, ending with the activation.
    Reshare(Dealing),
    /// "Erase old shares": every old party reports its keyring's activation; the dealers
    /// tell the certificate to old parties that took no part, which activate theirs.
    Retire(Dealing),
    /// A devnet's enrollment: these parties hand the aggregator their validator keys (and
    /// the group key they hold).
    Enroll(Vec<u16>),
    /// The aggregator announces the validator set of `epoch`, made of `members`, to `to`.
    Announce {
        /// The epoch.
        epoch: u64,
        /// The validators.
        members: Vec<u16>,
        /// Who is told.
        to: Vec<u16>,
    },
    /// A devnet block: the validators sign it, a Pulsar quorum signs its message.
    Block(crate::devnet::Block),
    /// A devnet's Corona deal (`--corona`): the aggregator, a trusted dealer, deals a
    /// `t`-of-`members` key (ids 1..=m) and keeps only the group key.
    CoronaDeal {
        /// The Corona group.
        members: Vec<u16>,
        /// Its threshold.
        t: u16,
    },
    /// A devnet block's Corona leg: its `corona` signers sign its message in session `id`.
    CoronaLeg {
        /// The session id.
        id: [u8; 32],
        /// The block.
        block: crate::devnet::Block,
    },
    /// The block's Corona signers hand the aggregator the signature they combined; it
    /// seals the certificate.
    Seal(crate::devnet::Block),
}

/// One scheme.
pub(crate) trait Flow: Sized {
    /// The scheme's name in session labels and seeds.
    const SCHEME: &'static str;
    /// The hub's column name in the table.
    const HUB: &'static str;
    /// The rows of the table the setup path spans.
    const SETUP: &'static [&'static str];
    /// What the DKG is, for its progress line.
    fn dkg_line(&self, n: u16, t: u16) -> String;
    /// The progress lines of the setup's further rows (Pulsar: the key derived and
    /// certified).
    fn setup_lines(&self, _c: &Conductor<Phase>, _done: &Done) {}
    /// How the signature was verified, for the progress line.
    fn verifier(&self) -> String;
    /// What the group key is ("ML-DSA-65 public key").
    fn key_kind(&self) -> String;
    /// Whether its signers combine the signature themselves (no combiner at the hub): a
    /// devnet's signers then hand the aggregator the Pulsar leg at the seal.
    const LEADERLESS: bool = false;
    /// Its setup path (the shared one unless the scheme has its own).
    fn setup(&self, c: &mut Conductor<Phase>, p: &Pipeline<'_>) -> Result<(), Failure> {
        setup(self, c, p)
    }
    /// The paths the run takes (the shared pipeline unless the scheme has its own).
    fn pipeline(&self, c: &mut Conductor<Phase>, p: &Pipeline<'_>) -> Result<(), Failure> {
        pipeline(self, c, p)
    }
}

/// The run's parameters, for the phases.
pub(crate) struct Pipeline<'a> {
    /// The command line.
    pub demo: &'a Demo,
    /// The scheme's name in labels.
    pub scheme: &'static str,
    /// The party misbehaving in signing sessions, if any.
    pub signing_cheat: Option<u16>,
    /// The party misbehaving in dealings, if any.
    pub dealing_cheat: Option<u16>,
}

impl Pipeline<'_> {
    /// The session id of `label` (every node derives the same one).
    pub(crate) fn session(&self, label: &str) -> [u8; 32] {
        conduct::session_id(&self.demo.seed, self.scheme, label)
    }
}

/// The most node ids a run needs: the parties, the new set (which skips parties named for
/// misbehaving) and a devnet's validators.
pub(crate) fn nodes(demo: &Demo) -> u16 {
    let skipped = u16::from(demo.cheat.is_some());
    let parties = demo
        .reshare
        .map_or(demo.parties, |(n2, _)| demo.parties.max(n2 + skipped));
    parties.max(demo.validators)
}

/// Signs `MESSAGES[generation]` with a quorum of `set` (of threshold `t`), then has `set`
/// verify it: the phases "Sign" and "Verify" (generation 0) or "Sign (gen 1)" and
/// "Verify (gen 1)".
fn sign<F: Flow>(
    f: &F,
    c: &mut Conductor<Phase>,
    p: &Pipeline<'_>,
    generation: usize,
    (set, t): (&[u16], u16),
) -> Result<(), Failure> {
    let [sign, verify] = match generation {
        0 => ["Sign", "Verify"],
        _ => ["Sign (gen 1)", "Verify (gen 1)"],
    };
    let (id, message) = (p.session(&format!("sign {generation}")), MESSAGES[generation]);
    // After the reshare, the last parties sign (new ones among them).
    let signers = quorum(set, t, &c.named, p.signing_cheat, generation > 0);
    let d = c.session(sign, t, signers, |s| Phase::Sign {
        id,
        signers: s.to_vec(),
        message,
    })?;
    c.phase_line(
        sign,
        &format!("signed with the contributions of parties {}", list(&d.signers())),
    );
    let d = c.phase(verify, Phase::Verify(set.to_vec(), message))?;
    let text = String::from_utf8_lossy(message);
    c.phase_line(
        verify,
        &format!("\"{text}\" verified by {} with {}", d.parties(), f.verifier()),
    );
    Ok(())
}

/// Runs the pipeline of `f` with its nodes at `place`: one thread per node here, or a
/// network's (process 0 conducts, the others serve their nodes); the hub built by `hub`,
/// party `id` by `member(id, how it acts, its randomness)`.
pub(crate) fn run<F, M, H>(
    f: &F,
    demo: &Demo,
    member: impl Fn(PartyId, Acts, ChaCha20Rng) -> M + Send + Sync + 'static,
    hub: impl Fn(ChaCha20Rng) -> H + Send + Sync + 'static,
    place: &Place<'_>,
) -> Result<Summary, Failure>
where
    F: Flow,
    M: driver::Node<Phase = Phase> + 'static,
    H: driver::Node<Phase = Phase> + 'static,
{
    let (seed, cheat) = (demo.seed.clone(), demo.cheat);
    // On a network every node draws its randomness from its own OS: the run's seed is
    // public (it only names the sessions).
    let fresh = !matches!(place, Place::Threads);
    let make = move |addr: Addr| {
        let rng = if fresh {
            crate::node::fresh_rng()
        } else {
            conduct::node_rng(&seed, F::SCHEME, addr)
        };
        match PartyId::new(addr) {
            None => Either::Hub(Box::new(hub(rng))),
            Some(id) => Either::Member(Box::new(member(id, Cheating::acts(cheat, addr), rng))),
        }
    };
    let cluster = match place {
        Place::Threads => Cluster::spawn(nodes(demo), make),
        Place::Conduct { net, args } => net.conduct(args.clone(), nodes(demo), make)?,
        Place::Serve { net, run } => {
            net.serve(*run, nodes(demo), make, SERVE_IDLE)?;
            return Ok(Summary {
                log: Vec::new(),
                traffic: crate::net::Traffic::default(),
                keys: conduct::Keys::new(),
                key_kind: f.key_kind(),
                hub: F::HUB,
                blame: Vec::new(),
            });
        }
    };
    let mut c = Conductor::new(cluster, cheat.map(|c| c.party));
    let p = Pipeline {
        demo,
        scheme: F::SCHEME,
        signing_cheat: cheat.filter(|c| c.in_signing().is_some()).map(|c| c.party),
        dealing_cheat: cheat.filter(|c| c.in_dealing().is_some()).map(|c| c.party),
    };
    let result = f.pipeline(&mut c, &p);
    let blame = c.blame.clone();
    let (log, traffic, keys) = c.finish();
    result?;
    Ok(Summary {
        log,
        traffic,
        keys,
        key_kind: f.key_kind(),
        hub: F::HUB,
        blame,
    })
}

/// How long a serving process waits for the conductor's next command.
const SERVE_IDLE: core::time::Duration = core::time::Duration::from_secs(600);

/// The setup path of the group `1..=n` with threshold `t`, with its progress lines.
pub(crate) fn setup<F: Flow>(f: &F, c: &mut Conductor<Phase>, p: &Pipeline<'_>) -> Result<(), Failure> {
    let (n, t) = (p.demo.parties, p.demo.threshold);
    let parties = range(n);
    // The key ceremony's signers: `t` members, not the one that cheats in dealings (the
    // DKG will name it) while `t` others remain, but the one that cheats in signing.
    let dealing_cheat: BTreeSet<u16> = p.dealing_cheat.into_iter().collect();
    let mut signers = quorum(&parties, t, &dealing_cheat, p.signing_cheat, false);
    if signers.len() < usize::from(t) {
        signers = quorum(&parties, t, &BTreeSet::new(), p.signing_cheat, false);
    }
    let setup = Phase::Setup {
        dkg: p.session("dkg"),
        ceremony: p.session("key ceremony"),
        parties,
        t,
        signers,
    };
    let done = c.path(F::SETUP, setup)?;
    c.phase_line("DKG", &f.dkg_line(n, t));
    f.setup_lines(c, &done);
    Ok(())
}

/// The reshare `--reshare` asks for, if any: its dealers are a quorum of `set` (threshold
/// `t`) not named so far, its receivers the new set.
pub(crate) fn dealing(c: &Conductor<Phase>, p: &Pipeline<'_>, (set, t): (&[u16], u16)) -> Option<Dealing> {
    let (n2, t2) = p.demo.reshare?;
    Some(Dealing {
        session: p.session("reshare"),
        old: (set.to_vec(), t),
        dealers: quorum(set, t, &c.named, p.dealing_cheat, false),
        receivers: new_set(n2, &c.named),
        threshold: t2,
    })
}

/// The reshare path `d` and "Erase old shares", with their progress lines.
pub(crate) fn reshare(c: &mut Conductor<Phase>, d: &Dealing) -> Result<(), Failure> {
    let (n, t) = (d.old.0.len(), d.old.1);
    let (n2, t2) = (d.receivers.len(), d.threshold);
    let done = c.phase("Reshare", Phase::Reshare(d.clone()))?;
    let same = match (c.keys.get("before reshare"), c.keys.get("after reshare")) {
        (Some(a), Some(b)) if a == b => "the group key unchanged",
        _ => "THE GROUP KEY CHANGED",
    };
    c.phase_line(
        "Reshare",
        &format!(
            "{t}-of-{n} → {t2}-of-{n2} (parties {}), dealt by parties {}; activation certificate: \
             proofs of possession of parties {}; {same}",
            list(&d.receivers),
            list(&d.dealers),
            list(&done.certified())
        ),
    );
    let done = c.phase("Erase old shares", Phase::Retire(d.clone()))?;
    c.phase_line(
        "Erase old shares",
        &format!(
            "parties {} verified the activation certificate, then erased their generation-0 shares",
            list(&done.erased())
        ),
    );
    Ok(())
}

/// The shared pipeline: setup → sign → verify [→ reshare → erase → sign → verify].
pub(crate) fn pipeline<F: Flow>(f: &F, c: &mut Conductor<Phase>, p: &Pipeline<'_>) -> Result<(), Failure> {
    let (n, t) = (p.demo.parties, p.demo.threshold);
    let parties = range(n);
    // Resumed: the parties hold their stored shares already.
    if !p.demo.resume {
        setup(f, c, p)?;
    }
    sign(f, c, p, 0, (&parties, t))?;
    let Some(d) = dealing(c, p, (&parties, t)) else {
        return Ok(());
    };
    reshare(c, &d)?;
    sign(f, c, p, 1, (&d.receivers, d.threshold))
}
