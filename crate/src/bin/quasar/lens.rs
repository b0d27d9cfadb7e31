//! Lens (FROST) on the shared pipeline: LSS Feldman DKG (`lens::Ceremony::keygen`) →
//! sign (the coordinator names a signer whose share fails; the session is retried without
//! it) → verify with the curve's standard verifier → [reshare, ending with the activation
//! certificate → every old party verifies it, then erases its old share → sign again under
//! the unchanged key → verify].
//!
//! Each node only says which library party it starts in a phase and what it keeps from
//! the output; the rounds are the library's (`driver` routes the bytes).

use std::convert::Infallible;

use quasar_pq::lens::{
    self, Ceremony, CoordinatorOutcome, CoordinatorParty, Curve, KeyShare, Outcome, PublicKeyPackage,
    SignerOutcome, SignerParty,
};
use quasar_pq::party::Outgoing;
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;

use crate::args::{Acts, Demo};
use crate::conduct::Event;
use crate::driver::{self, output, party_id, Output, Publication, Published, Role};
use crate::flow::{self, held, ids, Flow, PhaseOf, Reshared};
use crate::net::HUB;
use crate::report::Failure;
use crate::Summary;

/// The magic of an encoded public key package.
const PACKAGE_MAGIC: &[u8] = b"LNPK";

type Phase = PhaseOf<Lens>;
type P = flow::Phase<Ceremony, Infallible>;

/// A party's node.
struct Member {
    id: PartyId,
    curve: Curve,
    acts: Acts,
    rng: ChaCha20Rng,
    share: Option<KeyShare>,
    /// The generation a reshare starts from.
    base: Option<u64>,
    /// A reshare's result, until the old share is retired.
    next: Option<Reshared<KeyShare, PublicKeyPackage>>,
}

impl Member {
    /// A dealing party's start: key generation, or a reshare of `share`'s key.
    fn dealer(&mut self, ceremony: &Ceremony) -> Result<(lens::DealingParty, Outgoing), Failure> {
        let (me, old, rng) = (self.id, self.share.as_ref(), &mut self.rng);
        Ok(match self.acts.dealing {
            Some(c) => ceremony.start_cheating(me, old, c, rng)?,
            None => ceremony.start(me, old, rng)?,
        })
    }
}

impl driver::Node for Member {
    type Phase = Phase;

    fn publish(&mut self, phase: &Phase) -> Result<Vec<Publication>, Failure> {
        let me = self.id.get();
        let share = &self.share;
        Ok(match phase {
            // The coordinator learns the public key package from the signers' majority.
            P::Sign { signers, .. } if signers.contains(&me) => {
                vec![Publication::to_hub(held(share, "key share")?.public().to_bytes())]
            }
            P::Reshare(d) if d.dealers.contains(&me) => {
                let public = held(share, "key share")?.public();
                let to = d.newcomers(public.parties());
                vec![Publication::new(&to, public.to_bytes())]
            }
            P::Retire(d) if d.dealers.contains(&me) => {
                let next = held(&self.next, "reshare result")?;
                flow::tell(&d.outsiders(), next.public.to_bytes(), &next.certificate)
            }
            _ => Vec::new(),
        })
    }

    fn start(&mut self, phase: &Phase, published: &Published) -> Result<Role, Failure> {
        let (me, curve) = (self.id, self.curve);
        match phase {
            P::Dkg(ceremony) if ceremony.participants().contains(&me) => {
                Ok(Role::party(self.dealer(ceremony)?))
            }
            P::Sign { signers, message, .. } if signers.contains(&me.get()) => {
                let (share, hub, rng) = (held(&self.share, "key share")?, party_id(HUB), &mut self.rng);
                Ok(Role::party(match self.acts.signing {
                    Some(c) => SignerParty::start_cheating(share, hub, message, c, rng)?,
                    None => SignerParty::start(share, hub, message, rng)?,
                }))
            }
            P::Verify(audience, message) if audience.contains(&me.get()) => {
                let key = held(&self.share, "key share")?.group_key_bytes();
                // The standard verifier of the curve (RFC 8032 / BIP-340 / RFC 9591).
                lens::verify(curve, &key, message, flow::from_hub(published)?)?;
                Ok(Role::Local(Vec::new()))
            }
            P::Reshare(d) if d.takes_part(me.get()) => {
                let public = match &self.share {
                    Some(s) => s.public().clone(),
                    // Joining: the package as the dealers' majority sent it.
                    None => {
                        PublicKeyPackage::from_bytes(curve, &published.agreed(PACKAGE_MAGIC, &d.dealers)?)?
                    }
                };
                let (dealers, receivers) = (ids(&d.dealers), ids(&d.receivers));
                let ceremony = Ceremony::reshare(d.session, &public, &dealers, &receivers, d.threshold)?;
                self.base = Some(public.epoch().generation);
                Ok(Role::party(self.dealer(&ceremony)?))
            }
            P::Retire(d) if d.is_old(me.get()) => flow::retire(
                &mut self.share,
                &mut self.next,
                || {
                    flow::told(published, &d.dealers, PACKAGE_MAGIC, |b| {
                        Ok(PublicKeyPackage::from_bytes(curve, b)?)
                    })
                },
                |share, public: &PublicKeyPackage, cert| {
                    // Erase the old share only once a certificate of the next generation checks.
                    let g = share.epoch().generation;
                    lens::verify_activation(public, g + 1, &public.epoch().transcript, cert)?;
                    Ok(g)
                },
            ),
            _ => Ok(Role::Idle),
        }
    }

    fn finish(&mut self, phase: &Phase, out: Output) -> Result<Vec<Event>, Failure> {
        match phase {
            P::Dkg(_) => {
                let o: Outcome = output(out)?;
                let mut events = Event::blame([o.blame.as_slice(), o.dropped.as_slice()]);
                events.push(Event::key("before reshare", &o.public.group_key_bytes()));
                self.share = o.key_share;
                Ok(events)
            }
            P::Sign { .. } => {
                let o: SignerOutcome = output(out)?;
                Ok(Event::blame([o.dropped.as_slice()]))
            }
            P::Reshare(d) => {
                let o: Outcome = output(out)?;
                let mut events = Event::blame([o.blame.as_slice(), o.dropped.as_slice()]);
                let cert = held(&o.activation, "activation certificate")?.clone();
                // The certificate must activate the generation after the one this party knew.
                let generation = self.base.take().ok_or_else(|| flow::missing("old generation"))? + 1;
                lens::verify_activation(&o.public, generation, &o.public.epoch().transcript, &cert)?;
                events.push(Event::key("after reshare", &o.public.group_key_bytes()));
                events.push(flow::members(&cert));
                let next = Reshared {
                    public: o.public,
                    certificate: cert,
                    share: o.key_share,
                };
                next.keep(d.is_old(self.id.get()), &mut self.share, &mut self.next);
                Ok(events)
            }
            _ => Ok(Vec::new()),
        }
    }
}

/// The coordinator: holds only public data.
struct Hub {
    curve: Curve,
    signature: Vec<u8>,
}

impl driver::Node for Hub {
    type Phase = Phase;

    fn publish(&mut self, phase: &Phase) -> Result<Vec<Publication>, Failure> {
        Ok(match phase {
            P::Verify(audience, _) => vec![Publication::new(audience, self.signature.clone())],
            _ => Vec::new(),
        })
    }

    fn start(&mut self, phase: &Phase, published: &Published) -> Result<Role, Failure> {
        let P::Sign { signers, message, .. } = phase else {
            return Ok(Role::Idle);
        };
        let public = PublicKeyPackage::from_bytes(self.curve, &published.agreed(PACKAGE_MAGIC, signers)?)?;
        Ok(Role::party(CoordinatorParty::start(
            party_id(HUB),
            &public,
            message,
        )?))
    }

    fn finish(&mut self, _: &Phase, out: Output) -> Result<Vec<Event>, Failure> {
        let o: CoordinatorOutcome = output(out)?;
        self.signature = o.signature.to_bytes().to_vec();
        let mut events = Event::blame([o.dropped.as_slice()]);
        events.push(Event::Signers(o.signers.iter().map(|p| p.get()).collect()));
        Ok(events)
    }
}

/// The Lens scheme on one curve.
pub(crate) struct Lens(Curve);

impl Flow for Lens {
    type Ceremony = Ceremony;
    type Own = Infallible;
    const SCHEME: &'static str = "lens";
    const HUB: &'static str = "coord";

    fn dkg(&self, session: [u8; 32], parties: &[u16], t: u16) -> Result<Ceremony, Failure> {
        Ok(Ceremony::keygen(self.0, session, &ids(parties), t)?)
    }

    fn dkg_line(&self, n: u16, t: u16) -> String {
        format!("LSS Feldman DKG on {}: {n} dealers, t = {t}", self.0.name())
    }

    fn verifier(&self) -> String {
        format!("the {} verifier", standard(self.0))
    }

    fn key_kind(&self) -> String {
        format!("{} group key", self.0.name())
    }
}

/// The standard verifier a Lens signature on `curve` satisfies.
pub(crate) fn standard(curve: Curve) -> &'static str {
    match curve {
        Curve::Ed25519 => "Ed25519 (RFC 8032)",
        Curve::Secp256k1 => "BIP-340",
        Curve::Ristretto255 => "RFC 9591 ristretto255",
    }
}

/// The Lens pipeline.
pub(crate) fn run(demo: &Demo, curve: Curve) -> Result<Summary, Failure> {
    let member = move |id, acts, rng| Member {
        id,
        curve,
        acts,
        rng,
        share: None,
        base: None,
        next: None,
    };
    let hub = move |_| Hub {
        curve,
        signature: Vec::new(),
    };
    flow::run(&Lens(curve), demo, member, hub)
}
