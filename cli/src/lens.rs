//! Lens (FROST) on the shared pipeline, through the library's lifecycle parties
//! (`lens::lifecycle`): key generation (an LSS Feldman DKG) → sign (the coordinator names
//! a signer whose share fails; the session is retried without it) → verify with the
//! curve's standard verifier → [the reshare path, ending with each member's keyring
//! activating the new generation → the old parties that took no part activate theirs →
//! sign again under the unchanged key → verify].
//!
//! Each node only says which lifecycle party it starts on a path and what it keeps from
//! the output; the rounds are the library's (`driver` routes the bytes).

use quasar_pq::lens::lifecycle::{Coordinator, Member as Lifecycle, MemberOutcome, Pending};
use quasar_pq::lens::{self, Ceremony, CoordinatorOutcome, Curve, KeyShare, PublicKeyPackage};
use quasar_pq::party::keyring::Keyring;
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;

use crate::args::{Acts, Demo};
use crate::conduct::Event;
use crate::driver::{self, output, party_id, Output, Publication, Published, Role};
use crate::flow::{self, held, ids, Flow, Phase, Resharing};
use crate::net::HUB;
use crate::node::Place;
use crate::report::Failure;
use crate::Summary;

/// A party's node.
struct Member {
    id: PartyId,
    curve: Curve,
    acts: Acts,
    rng: ChaCha20Rng,
    /// Its key shares: the current generation and a pending one.
    keyring: Keyring<KeyShare>,
    /// What its reshare path left, until "Erase old shares".
    reshared: Option<Resharing>,
}

impl Member {
    fn share(&self) -> Result<&KeyShare, Failure> {
        self.keyring.current().ok_or_else(|| flow::missing("key share"))
    }
}

impl driver::Node for Member {
    type Phase = Phase;

    fn publish(&mut self, phase: &Phase) -> Result<Vec<Publication>, Failure> {
        let me = self.id.get();
        Ok(match phase {
            // The coordinator learns the public key package from the signers' majority.
            Phase::Sign { signers, .. } if signers.contains(&me) => {
                vec![Publication::to_hub(self.share()?.public().to_bytes())]
            }
            Phase::Reshare(d) if d.dealers.contains(&me) => {
                let public = self.share()?.public();
                let to = d.newcomers(public.parties());
                vec![Publication::new(&to, public.to_bytes())]
            }
            Phase::Retire(d) if d.dealers.contains(&me) => {
                flow::tell(&d.outsiders(), self.reshared.as_ref())?
            }
            _ => Vec::new(),
        })
    }

    fn start(&mut self, phase: &Phase, published: &Published) -> Result<Role, Failure> {
        let (me, curve) = (self.id, self.curve);
        match phase {
            Phase::Setup { dkg, parties, t, .. } if parties.contains(&me.get()) => {
                let ceremony = Ceremony::keygen(curve, *dkg, &ids(parties), *t)?;
                let rng = &mut self.rng;
                Ok(Role::party(match self.acts.dealing {
                    Some(c) => Lifecycle::keygen_cheating(me, &ceremony, c, rng)?,
                    None => Lifecycle::keygen(me, &ceremony, rng)?,
                }))
            }
            Phase::Sign { signers, message, .. } if signers.contains(&me.get()) => {
                let share = self.keyring.current().ok_or_else(|| flow::missing("key share"))?;
                let (hub, rng) = (party_id(HUB), &mut self.rng);
                Ok(Role::party(match self.acts.signing {
                    Some(c) => Lifecycle::sign_cheating(share, hub, message, c, rng)?,
                    None => Lifecycle::sign(share, hub, message, rng)?,
                }))
            }
            Phase::Verify(audience, message) if audience.contains(&me.get()) => {
                let key = self.share()?.group_key_bytes();
                // The standard verifier of the curve (RFC 8032 / BIP-340 / RFC 9591).
                lens::verify(curve, &key, message, flow::from_hub(published)?)?;
                Ok(Role::Local(Vec::new()))
            }
            Phase::Reshare(d) if d.takes_part(me.get()) => {
                let public = match self.keyring.current() {
                    Some(s) => s.public().clone(),
                    // Joining: the package as the dealers' majority sent it.
                    None => published.agreed(&d.dealers, |b| PublicKeyPackage::from_bytes(curve, b).ok())?,
                };
                let (dealers, receivers) = (ids(&d.dealers), ids(&d.receivers));
                let ceremony = Ceremony::reshare(d.session, &public, &dealers, &receivers, d.threshold)?;
                let (keyring, rng) = (&mut self.keyring, &mut self.rng);
                Ok(Role::party(match self.acts.dealing {
                    Some(c) => Lifecycle::reshare_cheating(me, keyring, &ceremony, c, rng)?,
                    None => Lifecycle::reshare(me, keyring, &ceremony, rng)?,
                }))
            }
            Phase::Retire(d) if d.is_old(me.get()) => {
                flow::retire(&mut self.keyring, self.reshared.as_ref(), |_| {
                    let (public, cert) = flow::told(published, &d.dealers, |b| {
                        PublicKeyPackage::from_bytes(curve, b).ok()
                    })?;
                    Ok((Pending::new(None, public), cert))
                })
                .map(|(role, _)| role)
            }
            _ => Ok(Role::Idle),
        }
    }

    fn finish(&mut self, phase: &Phase, out: Output) -> Result<Vec<Event>, Failure> {
        let missing = || flow::missing("the path's outcome");
        let o = output::<MemberOutcome>(out)?;
        match (phase, o) {
            (Phase::Setup { .. }, MemberOutcome::Setup(o)) => {
                let mut events = Event::blame(None, [o.blame.as_slice(), o.dropped.as_slice()]);
                events.push(Event::key("before reshare", &o.public.group_key_bytes()));
                self.keyring = Keyring::new(o.key_share);
                Ok(events)
            }
            (Phase::Sign { .. }, MemberOutcome::Signed(o)) => Ok(Event::blame(None, [o.dropped.as_slice()])),
            (Phase::Reshare(d), MemberOutcome::Reshared(o)) => {
                let mut events = Event::blame(None, [o.blame.as_slice(), o.dropped.as_slice()]);
                self.keyring = o.keyring;
                let activated = o.activated?;
                let cert = held(&o.certificate, "activation certificate")?.clone();
                events.push(Event::key("after reshare", &o.public.group_key_bytes()));
                events.push(flow::members(&cert));
                if d.is_old(self.id.get()) {
                    self.reshared = Some(Resharing {
                        activated,
                        told: (o.public.to_bytes(), cert),
                    });
                }
                Ok(events)
            }
            _ => Err(missing()),
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
            Phase::Verify(audience, _) => vec![Publication::new(audience, self.signature.clone())],
            _ => Vec::new(),
        })
    }

    fn start(&mut self, phase: &Phase, published: &Published) -> Result<Role, Failure> {
        let Phase::Sign { signers, message, .. } = phase else {
            return Ok(Role::Idle);
        };
        let curve = self.curve;
        let public = published.agreed(signers, |b| PublicKeyPackage::from_bytes(curve, b).ok())?;
        Ok(Role::party(Coordinator::sign(party_id(HUB), &public, message)?))
    }

    fn finish(&mut self, _: &Phase, out: Output) -> Result<Vec<Event>, Failure> {
        let o: CoordinatorOutcome = output(out)?;
        self.signature = o.signature.to_bytes().to_vec();
        let mut events = Event::blame(None, [o.dropped.as_slice()]);
        events.push(Event::Signers(o.signers.iter().map(|p| p.get()).collect()));
        Ok(events)
    }
}

/// The Lens scheme on one curve.
pub(crate) struct Lens(Curve);

impl Flow for Lens {
    const SCHEME: &'static str = "lens";
    const HUB: &'static str = "coord";
    const SETUP: &'static [&'static str] = &["DKG"];

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
pub(crate) fn run(demo: &Demo, curve: Curve, place: &Place<'_>) -> Result<Summary, Failure> {
    let member = move |id, acts, rng| Member {
        id,
        curve,
        acts,
        rng,
        keyring: Keyring::empty(),
        reshared: None,
    };
    let hub = move |_| Hub {
        curve,
        signature: Vec::new(),
    };
    flow::run(&Lens(curve), demo, member, hub, place)
}
