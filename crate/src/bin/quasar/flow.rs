//! The pipeline both schemes share, as a list of phases, and the helpers their nodes
//! share: DKG → [scheme's own set-up] → sign → verify → [reshare (ending with the
//! activation certificate) → every old party verifies it, then erases its old share →
//! the new set signs and verifies again].
//!
//! A scheme ([`Flow`]) only builds its phases; what each node does in them is in the
//! scheme's module, and the rounds are the library's.

use quasar_pq::lss::ActivationCertificate;
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;

use crate::args::{Acts, Cheating, Demo};
use crate::conduct::{self, list, new_set, quorum, range, Conductor, Event};
use crate::driver::{self, Cluster, Output, Publication, Published, Role};
use crate::net::{Addr, HUB};
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

/// What the hub published to this node.
pub(crate) fn from_hub(published: &Published) -> Result<&[u8], Failure> {
    published.from(HUB).ok_or_else(|| missing("message from the hub"))
}

/// The members an activation certificate names, as an event.
pub(crate) fn members(cert: &ActivationCertificate) -> Event {
    Event::Signers(cert.members().iter().map(|p| p.get()).collect())
}

/// The public parameters of one reshare, as every node knows them.
#[derive(Debug, Clone)]
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

/// A reshare's result at one party, kept until its old share is retired.
pub(crate) struct Reshared<S, G> {
    /// The new generation's public data.
    pub public: G,
    /// Its activation certificate (already verified).
    pub certificate: ActivationCertificate,
    /// This party's new share, if it is in the new set.
    pub share: Option<S>,
}

impl<S, G> Reshared<S, G> {
    /// Keeps the result: an old party (`old`) until it retires its old share, while a
    /// party joining takes its new share at once.
    pub(crate) fn keep(self, old: bool, share: &mut Option<S>, next: &mut Option<Self>) {
        if old {
            *next = Some(self);
        } else {
            *share = self.share;
        }
    }
}

/// An old party's part in "Erase old shares": the new generation's public data and
/// certificate, its own or as the dealers `told` it, are checked by `verify` against the
/// old share's key (which returns the old generation); only then is the old share
/// replaced by the new one, if any — dropping, and so wiping, it.
pub(crate) fn retire<S, G>(
    share: &mut Option<S>,
    next: &mut Option<Reshared<S, G>>,
    told: impl FnOnce() -> Result<(G, ActivationCertificate), Failure>,
    verify: impl FnOnce(&S, &G, &ActivationCertificate) -> Result<u64, Failure>,
) -> Result<Role, Failure> {
    let Some(old) = share.as_ref() else {
        return Ok(Role::Idle);
    };
    let generation = match next {
        Some(n) => verify(old, &n.public, &n.certificate)?,
        None => {
            let (public, cert) = told()?;
            verify(old, &public, &cert)?
        }
    };
    *share = next.take().and_then(|n| n.share);
    Ok(Role::Local(vec![Event::Erased(generation)]))
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
}

/// Tells `to` the new generation: its public data and its activation certificate.
pub(crate) fn tell(to: &[Addr], public: Vec<u8>, cert: &ActivationCertificate) -> Vec<Publication> {
    vec![
        Publication::new(to, public),
        Publication::new(to, cert.to_bytes()),
    ]
}

/// What the dealers told an old party that took no part: the new public data (magic
/// `magic`) and certificate, as most dealers sent them.
pub(crate) fn told<G>(
    published: &Published,
    dealers: &[Addr],
    magic: &[u8],
    decode: impl Fn(&[u8]) -> Result<G, Failure>,
) -> Result<(G, ActivationCertificate), Failure> {
    let public = decode(&published.agreed(magic, dealers)?)?;
    let cert = published.agreed(b"LSA2", dealers)?;
    Ok((public, ActivationCertificate::from_bytes(&cert)?))
}

/// The messages signed before and after the reshare.
const MESSAGES: [&[u8]; 2] = [
    b"quasar demo: block 1",
    b"quasar demo: block 2, after the reshare",
];

/// The phases of the pipeline: `C` is the scheme's key-generation ceremony, `X` its own
/// further phases.
pub(crate) enum Phase<C, X> {
    /// The key generation among every party.
    Dkg(C),
    /// A signing session of `signers` on `message` (the hub coordinates or combines).
    Sign {
        /// Session id.
        id: [u8; 32],
        /// The signers.
        signers: Vec<u16>,
        /// What they sign.
        message: &'static [u8],
    },
    /// `audience` verifies the signature the hub made on `message`.
    Verify(Vec<u16>, &'static [u8]),
    /// A reshare bound to the group key, ending with the activation round.
    Reshare(Dealing),
    /// "Erase old shares": every old party verifies the activation certificate, then
    /// erases its old share; the dealers tell the certificate to old parties that took no
    /// part.
    Retire(Dealing),
    /// A phase of the scheme's own.
    Own(X),
}

/// The phases of flow `F`.
pub(crate) type PhaseOf<F> = Phase<<F as Flow>::Ceremony, <F as Flow>::Own>;

/// One scheme.
pub(crate) trait Flow: Sized {
    /// Its key-generation ceremony.
    type Ceremony: Send + Sync + 'static;
    /// Its own phases.
    type Own: Send + Sync + 'static;
    /// The scheme's name in session labels and seeds.
    const SCHEME: &'static str;
    /// The hub's column name in the table.
    const HUB: &'static str;
    /// The key generation among `parties`.
    fn dkg(&self, session: [u8; 32], parties: &[u16], t: u16) -> Result<Self::Ceremony, Failure>;
    /// What the DKG is, for its progress line.
    fn dkg_line(&self, n: u16, t: u16) -> String;
    /// Work between the DKG and the first signature (Pulsar: derive and certify the key).
    fn after_dkg(&self, _c: &mut Conductor<PhaseOf<Self>>, _p: &Pipeline<'_>) -> Result<(), Failure> {
        Ok(())
    }
    /// How the signature was verified, for the progress line.
    fn verifier(&self) -> String;
    /// What the group key is ("ML-DSA-65 public key").
    fn key_kind(&self) -> String;
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

/// The most node ids a run needs: the parties, and the new set (which skips parties named
/// for misbehaving).
pub(crate) fn nodes(demo: &Demo) -> u16 {
    let skipped = u16::from(demo.cheat.is_some());
    demo.reshare
        .map_or(demo.parties, |(n2, _)| demo.parties.max(n2 + skipped))
}

/// Signs `MESSAGES[generation]` with a quorum of `set` (of threshold `t`), then has `set`
/// verify it: the phases "Sign" and "Verify" (generation 0) or "Sign (gen 1)" and
/// "Verify (gen 1)".
fn sign<F: Flow>(
    f: &F,
    c: &mut Conductor<PhaseOf<F>>,
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

/// Runs the pipeline of `f`: one thread per node, the hub built by `hub`, party `id` by
/// `member(id, how it acts, its randomness)`.
pub(crate) fn run<F, M, H>(
    f: &F,
    demo: &Demo,
    member: impl Fn(PartyId, Acts, ChaCha20Rng) -> M + Send + Sync + 'static,
    hub: impl Fn(ChaCha20Rng) -> H + Send + Sync + 'static,
) -> Result<Summary, Failure>
where
    F: Flow,
    M: driver::Node<Phase = PhaseOf<F>>,
    H: driver::Node<Phase = PhaseOf<F>>,
{
    let (seed, cheat) = (demo.seed.clone(), demo.cheat);
    let cluster = Cluster::spawn(nodes(demo), move |addr: Addr| {
        let rng = conduct::node_rng(&seed, F::SCHEME, addr);
        match PartyId::new(addr) {
            None => Either::Hub(Box::new(hub(rng))),
            Some(id) => Either::Member(Box::new(member(id, Cheating::acts(cheat, addr), rng))),
        }
    });
    let mut c = Conductor::new(cluster, cheat.map(|c| c.party));
    let p = Pipeline {
        demo,
        scheme: F::SCHEME,
        signing_cheat: cheat.filter(|c| c.in_signing().is_some()).map(|c| c.party),
        dealing_cheat: cheat.filter(|c| c.in_dealing().is_some()).map(|c| c.party),
    };
    let result = pipeline(f, &mut c, &p);
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

fn pipeline<F: Flow>(f: &F, c: &mut Conductor<PhaseOf<F>>, p: &Pipeline<'_>) -> Result<(), Failure> {
    let (n, t) = (p.demo.parties, p.demo.threshold);
    let parties = range(n);
    c.phase("DKG", Phase::Dkg(f.dkg(p.session("dkg"), &parties, t)?))?;
    c.phase_line("DKG", &f.dkg_line(n, t));
    f.after_dkg(c, p)?;
    sign(f, c, p, 0, (&parties, t))?;

    let Some((n2, t2)) = p.demo.reshare else {
        return Ok(());
    };
    let d = Dealing {
        session: p.session("reshare"),
        old: (parties.clone(), t),
        dealers: quorum(&parties, t, &c.named, p.dealing_cheat, false),
        receivers: new_set(n2, &c.named),
        threshold: t2,
    };
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
            list(&done.signers())
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
    sign(f, c, p, 1, (&d.receivers, t2))
}
