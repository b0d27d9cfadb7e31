//! Pulsar custody on the shared pipeline: LSS Pedersen DKG → key ceremony (the ML-DSA
//! key derived once and announced) → key certification (every party checks the
//! announcement and proves possession of its share for it) → sign → verify with plain
//! `mldsa::verify` → [reshare, ending with the activation certificate → every old party
//! verifies it, then erases its old share → sign again under the unchanged key → verify].
//!
//! Each node only says which library party it starts in a phase and what it keeps from
//! the output; the rounds are the library's (`driver` routes the bytes).

use quasar_pq::lss::{self, ActivationCertificate, Ceremony, DealingParty, GroupPublic};
use quasar_pq::mldsa::{self, Mode};
use quasar_pq::party::Outgoing;
use quasar_pq::pulsar::custody::{
    self, certification_party, AnnouncedKey, Combined, CombinerKey, CombinerParty, CombinerPublicKey,
    GroupKey, GroupKeyAnnouncement, KeyShare, Session, SignerOutcome, SignerParty,
};
use quasar_pq::vss::{self, Ristretto255};
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;

use crate::args::{Acts, Demo};
use crate::conduct::{list, quorum, range, Conductor, Event};
use crate::driver::{self, output, party_id, Output, Publication, Published, Role};
use crate::flow::{self, held, ids, Flow, PhaseOf, Pipeline, Reshared};
use crate::net::HUB;
use crate::report::Failure;
use crate::Summary;

type R = Ristretto255;
type LssShare = lss::KeyShare<R>;

/// The magic of an encoded LSS sharing (`GroupPublic`).
const SHARING_MAGIC: &[u8] = b"LSG1";

/// Pulsar's own phases.
pub(crate) enum Setup {
    /// The key ceremony: `signers` release their DKG shares to the combiner, which
    /// derives the ML-DSA key once and announces it.
    KeyCeremony {
        /// Session id.
        id: [u8; 32],
        /// The signers.
        signers: Vec<u16>,
    },
    /// Every party checks the announcement and proves possession of its share for it.
    Certify(Vec<u16>),
}

type Phase = PhaseOf<Pulsar>;
type P = flow::Phase<Ceremony<R>, Setup>;

/// A custody session as the signers and the combiner build it.
#[derive(Clone, Copy)]
struct Custody<'a> {
    id: [u8; 32],
    signers: &'a [u16],
    /// What to sign; `None` for the key ceremony.
    message: Option<&'static [u8]>,
}

/// The custody session of a phase, if it is one.
fn session_of(phase: &Phase) -> Option<Custody<'_>> {
    match phase {
        P::Sign { id, signers, message } => Some(Custody {
            id: *id,
            signers,
            message: Some(*message),
        }),
        P::Own(Setup::KeyCeremony { id, signers }) => Some(Custody {
            id: *id,
            signers,
            message: None,
        }),
        _ => None,
    }
}

/// A party's node.
struct Member {
    id: PartyId,
    mode: Mode,
    acts: Acts,
    rng: ChaCha20Rng,
    /// The DKG's share, until the key is certified.
    dkg: Option<LssShare>,
    /// The announced key, while it is being certified.
    announced: Option<AnnouncedKey>,
    /// The custody share of the current generation.
    share: Option<KeyShare>,
    /// The group key a reshare starts from.
    base: Option<GroupKey>,
    /// A reshare's result, until the old share is retired.
    next: Option<Reshared<KeyShare, GroupPublic<R>>>,
}

impl Member {
    /// A signer's start in the custody session `(id, signers, message)`.
    fn signer(&mut self, c: Custody<'_>, published: &Published) -> Result<(SignerParty, Outgoing), Failure> {
        let combiner = CombinerPublicKey::from_bytes(flow::from_hub(published)?)?;
        let (id, signers) = (c.id, ids(c.signers));
        let (share, session) = match c.message {
            None => {
                let s = held(&self.dkg, "DKG share")?;
                let session = Session::key_ceremony(id, self.mode, s.public(), &signers, &combiner)?;
                (s, session)
            }
            Some(m) => {
                let k = held(&self.share, "key share")?;
                let session = Session::sign(id, k.group_key(), k.public(), &signers, &combiner, m, b"")?;
                (k.lss(), session)
            }
        };
        Ok(match self.acts.signing {
            Some(c) => SignerParty::start_cheating(share, &session, c, &mut self.rng)?,
            None => SignerParty::start(share, &session, &mut self.rng)?,
        })
    }

    /// A dealing party's start: the DKG, or a reshare from the group key `key`.
    fn dealer(&mut self, ceremony: Ceremony<R>) -> Result<(DealingParty<R>, Outgoing), Failure> {
        let old = self.share.as_ref().map(KeyShare::lss);
        let (me, rng) = (self.id, &mut self.rng);
        Ok(match self.acts.dealing {
            Some(c) => DealingParty::start_cheating(ceremony, me, old, c, rng)?,
            None => DealingParty::start(ceremony, me, old, rng)?,
        })
    }
}

impl driver::Node for Member {
    type Phase = Phase;

    fn publish(&mut self, phase: &Phase) -> Result<Vec<Publication>, Failure> {
        let me = self.id.get();
        if let Some(c) = session_of(phase) {
            if !c.signers.contains(&me) {
                return Ok(Vec::new());
            }
            // The combiner learns the sharing (and the key) from the signers' majority.
            return Ok(match c.message {
                None => vec![Publication::to_hub(
                    held(&self.dkg, "DKG share")?.public().to_bytes(),
                )],
                Some(_) => {
                    let share = held(&self.share, "key share")?;
                    vec![
                        Publication::to_hub(share.public().to_bytes()),
                        Publication::to_hub(share.group_key().to_bytes()),
                    ]
                }
            });
        }
        Ok(match phase {
            P::Reshare(d) if d.dealers.contains(&me) => {
                let share = held(&self.share, "key share")?;
                let to = d.newcomers(share.public().parties());
                vec![
                    Publication::new(&to, share.public().to_bytes()),
                    Publication::new(&to, share.group_key().to_bytes()),
                ]
            }
            P::Retire(d) if d.dealers.contains(&me) => {
                let next = held(&self.next, "reshare result")?;
                flow::tell(&d.outsiders(), next.public.to_bytes(), &next.certificate)
            }
            _ => Vec::new(),
        })
    }

    fn start(&mut self, phase: &Phase, published: &Published) -> Result<Role, Failure> {
        let me = self.id;
        if let Some(session) = session_of(phase).filter(|c| c.signers.contains(&me.get())) {
            return Ok(Role::party(self.signer(session, published)?));
        }
        match phase {
            P::Dkg(ceremony) if ceremony.is_receiver(me) => Ok(Role::party(self.dealer(ceremony.clone())?)),
            P::Own(Setup::Certify(parties)) if parties.contains(&me.get()) => {
                let share = held(&self.dkg, "DKG share")?;
                let announcement = GroupKeyAnnouncement::from_bytes(flow::from_hub(published)?)?;
                let announced = announcement.verify(share.public())?;
                let party = certification_party(me, Some(share), share.public(), &announced, &mut self.rng)?;
                self.announced = Some(announced);
                Ok(Role::party(party))
            }
            P::Verify(audience, message) if audience.contains(&me.get()) => {
                let key = held(&self.share, "key share")?.group_key();
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
            P::Reshare(d) if d.takes_part(me.get()) => {
                let (key, public) = match &self.share {
                    Some(s) => (s.group_key().clone(), s.public().clone()),
                    // Joining: the sharing and the key as the dealers' majority sent them;
                    // the record is read against the sharing (its certificate checked).
                    None => {
                        let public = GroupPublic::from_bytes(&published.agreed(SHARING_MAGIC, &d.dealers)?)?;
                        let key = GroupKey::from_bytes(
                            &published.agreed(custody::GROUP_KEY_MAGIC, &d.dealers)?,
                            &public,
                        )?;
                        (key, public)
                    }
                };
                let (dealers, receivers) = (ids(&d.dealers), ids(&d.receivers));
                let ceremony = custody::reshare(d.session, &key, &public, &dealers, &receivers, d.threshold)?;
                self.base = Some(key);
                Ok(Role::party(self.dealer(ceremony)?))
            }
            P::Retire(d) if d.is_old(me.get()) => flow::retire(
                &mut self.share,
                &mut self.next,
                || {
                    flow::told(published, &d.dealers, SHARING_MAGIC, |b| {
                        Ok(GroupPublic::from_bytes(b)?)
                    })
                },
                |share, public: &GroupPublic<R>, cert| {
                    // Erase the old share only once a certificate of the next generation checks.
                    let g = share.generation();
                    custody::verify_activation(
                        public,
                        share.group_key(),
                        g + 1,
                        public.transcript_hash(),
                        cert,
                    )?;
                    Ok(g)
                },
            ),
            _ => Ok(Role::Idle),
        }
    }

    fn finish(&mut self, phase: &Phase, out: Output) -> Result<Vec<Event>, Failure> {
        match phase {
            P::Dkg(_) => {
                let o: lss::Outcome<R> = output(out)?;
                self.dkg = o.key_share;
                Ok(Event::blame([o.blame.as_slice(), o.dropped.as_slice()]))
            }
            P::Sign { .. } | P::Own(Setup::KeyCeremony { .. }) => {
                let o: SignerOutcome = output(out)?;
                Ok(Event::blame([o.dropped.as_slice()]))
            }
            P::Own(Setup::Certify(_)) => {
                let cert: ActivationCertificate = output(out)?;
                let share = self.dkg.take().ok_or_else(|| flow::missing("DKG share"))?;
                let announced = self
                    .announced
                    .take()
                    .ok_or_else(|| flow::missing("announced key"))?;
                let members = flow::members(&cert);
                let key = GroupKey::new(announced, share.public(), cert)?;
                let event = Event::key("before reshare", key.public_key());
                self.share = Some(KeyShare::new(share, key)?);
                Ok(vec![event, members])
            }
            P::Reshare(d) => {
                let o: lss::Outcome<R> = output(out)?;
                let key = self.base.take().ok_or_else(|| flow::missing("group key"))?;
                let mut events = Event::blame([o.blame.as_slice(), o.dropped.as_slice()]);
                let cert = held(&o.activation, "activation certificate")?.clone();
                // The certificate must activate the generation after the one this party knew.
                let generation = key.generation() + 1;
                custody::verify_activation(&o.public, &key, generation, o.transcript_hash(), &cert)?;
                let new_key = key.reactivated(&o.public, cert.clone())?;
                events.push(Event::key("after reshare", new_key.public_key()));
                events.push(flow::members(&cert));
                let share = o.key_share.map(|s| KeyShare::new(s, new_key)).transpose()?;
                let next = Reshared {
                    public: o.public,
                    certificate: cert,
                    share,
                };
                next.keep(d.is_old(self.id.get()), &mut self.share, &mut self.next);
                Ok(events)
            }
            _ => Ok(Vec::new()),
        }
    }
}

/// The combiner: trusted while it signs; holds only public data between sessions.
struct Hub {
    mode: Mode,
    rng: ChaCha20Rng,
    key: Option<CombinerKey>,
    /// The last result: the announcement or the signature.
    result: Vec<u8>,
}

impl driver::Node for Hub {
    type Phase = Phase;

    fn publish(&mut self, phase: &Phase) -> Result<Vec<Publication>, Failure> {
        if let Some(c) = session_of(phase) {
            // A fresh ML-KEM key per session.
            let key = CombinerKey::generate(party_id(HUB), &mut self.rng);
            let out = Publication::new(c.signers, key.public_key().to_bytes());
            self.key = Some(key);
            return Ok(vec![out]);
        }
        Ok(match phase {
            P::Own(Setup::Certify(to)) | P::Verify(to, _) => vec![Publication::new(to, self.result.clone())],
            _ => Vec::new(),
        })
    }

    fn start(&mut self, phase: &Phase, published: &Published) -> Result<Role, Failure> {
        let Some(Custody { id, signers, message }) = session_of(phase) else {
            return Ok(Role::Idle);
        };
        let key = self.key.take().ok_or_else(|| flow::missing("combiner key"))?;
        let public = GroupPublic::<R>::from_bytes(&published.agreed(SHARING_MAGIC, signers)?)?;
        let session = match message {
            None => Session::key_ceremony(id, self.mode, &public, &ids(signers), key.public_key())?,
            Some(m) => {
                let gk =
                    GroupKey::from_bytes(&published.agreed(custody::GROUP_KEY_MAGIC, signers)?, &public)?;
                Session::sign(id, &gk, &public, &ids(signers), key.public_key(), m, b"")?
            }
        };
        Ok(Role::party(CombinerParty::start(key, &session, &mut self.rng)?))
    }

    fn finish(&mut self, _: &Phase, out: Output) -> Result<Vec<Event>, Failure> {
        let (blame, signers, result) = match output::<Combined>(out)? {
            Combined::Announcement(a) => (a.blame().to_vec(), a.signers().to_vec(), a.to_bytes()),
            Combined::Signed(s) => (s.blame().to_vec(), s.signers().to_vec(), s.signature().to_vec()),
        };
        self.result = result;
        let mut events = Event::blame([blame.as_slice()]);
        events.push(Event::Signers(signers.iter().map(|p| p.get()).collect()));
        Ok(events)
    }
}

/// The Pulsar scheme with one ML-DSA parameter set.
pub(crate) struct Pulsar(Mode);

impl Flow for Pulsar {
    type Ceremony = Ceremony<R>;
    type Own = Setup;
    const SCHEME: &'static str = "pulsar";
    const HUB: &'static str = "combiner";

    fn dkg(&self, session: [u8; 32], parties: &[u16], t: u16) -> Result<Ceremony<R>, Failure> {
        Ok(Ceremony::dkg(session, vss::Mode::Pedersen, &ids(parties), t)?)
    }

    fn dkg_line(&self, n: u16, t: u16) -> String {
        format!("LSS Pedersen DKG on ristretto255: {n} dealers, t = {t}")
    }

    fn after_dkg(&self, c: &mut Conductor<Phase>, p: &Pipeline<'_>) -> Result<(), Failure> {
        let (n, t) = (p.demo.parties, p.demo.threshold);
        let parties = range(n);
        let id = p.session("key ceremony");
        let signers = quorum(&parties, t, &c.named, p.signing_cheat, false);
        let d = c.session("Key ceremony", t, signers, |signers| {
            P::Own(Setup::KeyCeremony {
                id,
                signers: signers.to_vec(),
            })
        })?;
        let line = format!(
            "{} key derived from the shares of parties {}, announced",
            self.0.name(),
            list(&d.signers())
        );
        c.phase_line("Key ceremony", &line);
        let d = c.phase("Key certification", P::Own(Setup::Certify(parties)))?;
        let line = format!(
            "announcement checked by {}; key certified by proofs of possession of parties {}: {}",
            d.parties(),
            list(&d.signers()),
            c.fingerprint("before reshare")
        );
        c.phase_line("Key certification", &line);
        Ok(())
    }

    fn verifier(&self) -> String {
        format!("plain {} mldsa::verify", self.0.name())
    }

    fn key_kind(&self) -> String {
        format!("{} public key", self.0.name())
    }
}

/// The Pulsar pipeline.
pub(crate) fn run(demo: &Demo, mode: Mode) -> Result<Summary, Failure> {
    let member = move |id, acts, rng| Member {
        id,
        mode,
        acts,
        rng,
        dkg: None,
        announced: None,
        share: None,
        base: None,
        next: None,
    };
    let hub = move |rng| Hub {
        mode,
        rng,
        key: None,
        result: Vec::new(),
    };
    flow::run(&Pulsar(mode), demo, member, hub)
}
