//! Corona (`corona`: the two-round t-of-n threshold lattice signature of the Ringtail
//! family) on the demo's cluster: key generation by a trusted dealer → sign (K signers,
//! T ≤ K ≤ N, each a `corona::Signer` party; leaderless: every signer combines and verifies
//! the signature itself) → every member verifies with `GroupKey::verify` (public inputs only).
//!
//! The hub node is the dealer: it runs `corona::deal` in its publish step (a local
//! computation), publishes each member's `CORK` key package (secret) to that member only and
//! the `CORG` group key to every member, and drops everything — the shares and pairwise keys
//! are wiped, and it gives up its randomness too: it keeps nothing. Each member loads its
//! package with `KeyShare::from_bytes` against the group key and reports the key's
//! fingerprint (the conductor checks every member holds the same one). No DKG is offered.
//!
//! Corona is not robust. A signer that sends a malformed, replayed or badly MACed message is
//! dropped and named by the honest signers, which then wait: the driver gives up on them
//! with `MISSING_MESSAGE`, naming the senders of what they dropped, and a new session (a new
//! session id and fresh round-1 state) runs without them. A well-formed but wrong response
//! cannot be attributed (`UNATTRIBUTABLE_ABORT`): every signer's combined signature fails
//! its check, nothing is released, nobody can be named, and the run stops there with the
//! library's code. A Corona key is never reshared here: it is dealer-generated.

use quasar_pq::corona::{self, GroupKey, KeyShare, SignParams, Signed, Signer};
use quasar_pq::party::Round;
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;
use zeroize::Zeroizing;

use crate::args::{Acts, Demo};
use crate::conduct::{list, quorum, range, Conductor, Event};
use crate::driver::{self, output, Output, Publication, Published, Role};
use crate::flow::{self, held, ids, missing, Flow, Phase, Pipeline};
use crate::net::HUB;
use crate::node::Place;
use crate::report::Failure;
use crate::store::Held;
use crate::Summary;

/// The row of the table the key generation spans.
const SETUP: &[&str] = &["Key generation"];

/// What the signers sign.
pub(crate) const MESSAGE: &[u8] = b"quasar demo: block 1, signed by Corona";

/// The context string every signature is bound to.
const CONTEXT: &[u8] = b"quasar demo";

/// The library's terminal signing failures that name nobody: a wrong response, crafted
/// commitments, a combined response out of range.
const UNATTRIBUTABLE: [&str; 3] = [
    "UNATTRIBUTABLE_ABORT",
    "DEGENERATE_COMMITMENTS",
    "RESPONSE_OUT_OF_RANGE",
];

/// The most signing sessions a run starts (each failed one names at least one party).
const MAX_SESSIONS: usize = 8;

/// A member's node.
struct Member {
    id: PartyId,
    acts: Acts,
    rng: ChaCha20Rng,
    share: Option<KeyShare>,
    /// The signers of the last signing session, and this member's signature if it signed.
    signed: (Vec<u16>, Option<Vec<u8>>),
    /// Where its share is kept (`quasar node serve --store`), and whether the run resumes.
    held: Held,
}

/// The scheme's label in a store.
const STORED: &str = "corona";

/// What a store keeps of a Corona share: the group key's length (4 bytes, big-endian), the
/// `CORG` group key, then the `CORK` package.
fn stored(group: &[u8], package: &[u8]) -> Zeroizing<Vec<u8>> {
    let mut out = Zeroizing::new(Vec::with_capacity(4 + group.len() + package.len()));
    out.extend_from_slice(&u32::try_from(group.len()).unwrap_or(u32::MAX).to_be_bytes());
    out.extend_from_slice(group);
    out.extend_from_slice(package);
    out
}

/// The share [`stored`] kept.
fn restored(bytes: &[u8]) -> Result<KeyShare, Failure> {
    let bad = || Failure::local("STORE", "the stored Corona share is malformed".into());
    let (len, rest) = bytes.split_first_chunk::<4>().ok_or_else(bad)?;
    let len = usize::try_from(u32::from_be_bytes(*len)).map_err(|_| bad())?;
    let (group, package) = rest.split_at_checked(len).ok_or_else(bad)?;
    Ok(KeyShare::from_bytes(package, &GroupKey::from_bytes(group)?)?)
}

impl Member {
    /// Loads this member's key package from what the dealer published to it.
    fn load(&mut self, published: &Published, t: u16, n: usize) -> Result<Role, Failure> {
        let share = load(published, self.id, t, n)?;
        let group = share.group_key().to_bytes();
        let kept = stored(&group, &share.to_bytes());
        self.held
            .keep(self.id, STORED, &group, share.threshold(), &kept)?;
        self.share = Some(share);
        Ok(Role::Local(vec![Event::key("before reshare", &group)]))
    }

    /// On a resumed run, the share the store kept (once, before the first path needs it).
    fn resumed(&mut self) -> Result<(), Failure> {
        if self.share.is_none() {
            if let Some(bytes) = self.held.resumed(self.id, STORED)? {
                self.share = Some(restored(&bytes)?);
            }
        }
        Ok(())
    }
}

/// Member `me`'s share, from what the dealer published to it: the `CORG` group key (to
/// everyone) and the `CORK` (to this member only), of a `t`-of-`n` deal.
pub(crate) fn load(published: &Published, me: PartyId, t: u16, n: usize) -> Result<KeyShare, Failure> {
    let frames = published.all_from(HUB);
    let find = |magic: &[u8; 4]| frames.iter().copied().find(|b| b.starts_with(magic));
    let group = find(&corona::GROUP_KEY_MAGIC).ok_or_else(|| missing("group key from the dealer"))?;
    let group = GroupKey::from_bytes(group)?;
    let package = find(&corona::KEY_PACKAGE_MAGIC).ok_or_else(|| missing("key package from the dealer"))?;
    let share = KeyShare::from_bytes(package, &group)?;
    if share.id() != me || share.threshold() != usize::from(t) || share.parties() != n {
        return Err(Failure::local(
            "WRONG_KEY_PACKAGE",
            format!(
                "party {me} was dealt the package of party {} ({} of {}), not its own ({t} of {n})",
                share.id(),
                share.threshold(),
                share.parties()
            ),
        ));
    }
    Ok(share)
}

/// A trusted dealer's publications for the `t`-of-`parties` group (ids 1..=n): each
/// member's `CORK` as a secret to it alone, the `CORG` group key to all; and that key.
pub(crate) fn deal(
    parties: &[u16],
    t: u16,
    rng: &mut ChaCha20Rng,
) -> Result<(Vec<Publication>, Vec<u8>), Failure> {
    let (group, shares) = corona::deal(usize::from(t), parties.len(), rng)?;
    let mut out = Vec::with_capacity(shares.len() + 1);
    for share in shares {
        // Moved out of its wiping buffer into the frame, which the router wipes too; the
        // share itself is wiped when it drops at the end of this iteration.
        let mut cork = share.to_bytes();
        // Secret: a direct message, sealed to the member's process on a network.
        out.push(Publication::secret(share.id().get(), core::mem::take(&mut *cork)));
    }
    let key = group.to_bytes();
    out.push(Publication::new(parties, key.clone()));
    Ok((out, key))
}

impl driver::Node for Member {
    type Phase = Phase;

    fn publish(&mut self, phase: &Phase) -> Result<Vec<Publication>, Failure> {
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
        match phase {
            Phase::Setup { parties, t, .. } if parties.contains(&me.get()) => {
                self.load(published, *t, parties.len())
            }
            Phase::Sign { id, signers, message } => {
                self.signed = (signers.clone(), None);
                if !signers.contains(&me.get()) {
                    return Ok(Role::Idle);
                }
                self.resumed()?;
                let share = held(&self.share, "Corona key share")?;
                let params = SignParams::new(*id, &ids(signers), message, CONTEXT)?;
                let rng = &mut self.rng;
                Ok(Role::party(match self.acts.signing {
                    Some(c) => Signer::start_cheating(share, &params, c, rng)?,
                    None => Signer::start(share, &params, rng)?,
                }))
            }
            Phase::Verify(audience, message) if audience.contains(&me.get()) => {
                self.resumed()?;
                let key = held(&self.share, "Corona key share")?.group_key();
                // Its own signature counts when it was a signer (nobody publishes to itself).
                let own = self.signed.1.as_deref().map(|sig| (me.get(), sig));
                let signature = published.agreed_with(own, &self.signed.0, |b| {
                    (b.len() == corona::SIGNATURE_LEN).then(|| b.to_vec())
                })?;
                // Public inputs only: the group key, the message, the context, the signature.
                key.verify(message, CONTEXT, &signature)?;
                // The key it verified under: the deal's, or on a resumed run the stored one.
                Ok(Role::Local(vec![Event::key("before reshare", &key.to_bytes())]))
            }
            _ => Ok(Role::Idle),
        }
    }

    fn finish(&mut self, phase: &Phase, out: Output) -> Result<Vec<Event>, Failure> {
        match phase {
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

/// The hub: the trusted dealer. It deals once and keeps nothing, not even its randomness.
struct Dealer {
    rng: Option<ChaCha20Rng>,
}

impl driver::Node for Dealer {
    type Phase = Phase;

    fn publish(&mut self, phase: &Phase) -> Result<Vec<Publication>, Failure> {
        let Phase::Setup { parties, t, .. } = phase else {
            return Ok(Vec::new());
        };
        // The dealer's randomness is used once and given up with the deal.
        let mut rng = self
            .rng
            .take()
            .ok_or_else(|| missing("dealer randomness (it deals once)"))?;
        Ok(deal(parties, *t, &mut rng)?.0)
    }

    fn start(&mut self, _: &Phase, _: &Published) -> Result<Role, Failure> {
        Ok(Role::Idle)
    }

    fn finish(&mut self, _: &Phase, _: Output) -> Result<Vec<Event>, Failure> {
        Ok(Vec::new())
    }

    fn label(&self, _: &Phase, _: Option<Round>) -> usize {
        0
    }
}

/// Corona.
pub(crate) struct Corona;

impl Flow for Corona {
    const SCHEME: &'static str = "corona";
    const HUB: &'static str = "dealer";
    const SETUP: &'static [&'static str] = SETUP;

    fn dkg_line(&self, n: u16, t: u16) -> String {
        format!(
            "{t}-of-{n} key dealt by a trusted dealer (the hub), which knew the whole key, every share \
             and every pairwise key while dealing; it sent each member its CORK only to that member \
             and the CORG group key to all, then erased everything and keeps nothing. No DKG is \
             offered"
        )
    }

    fn verifier(&self) -> String {
        "GroupKey::verify (public inputs only)".into()
    }

    fn key_kind(&self) -> String {
        "Corona group key, CORG".into()
    }

    fn pipeline(&self, c: &mut Conductor<Phase>, p: &Pipeline<'_>) -> Result<(), Failure> {
        let (n, t) = (p.demo.parties, p.demo.threshold);
        let k = p.demo.signers.unwrap_or(t);
        let parties = range(n);
        // A resumed run has no deal: every party signs with the share it stored.
        if !p.demo.resume {
            let setup = Phase::Setup {
                dkg: p.session("deal"),
                ceremony: p.session("unused"),
                parties: parties.clone(),
                t,
                signers: Vec::new(),
            };
            c.path(SETUP, setup)?;
            let line = format!(
                "{}; every member loaded its share and holds the same group key: {}",
                self.dkg_line(n, t),
                c.fingerprint("before reshare")
            );
            c.phase_line(SETUP[0], &line);
        }
        for attempt in 0..MAX_SESSIONS {
            // K signers (fewer once parties are named, never fewer than T); a cheater not yet
            // named takes one of the seats.
            let left = parties.iter().filter(|x| !c.named.contains(x)).count();
            let k = k.min(u16::try_from(left).unwrap_or(u16::MAX));
            let cheat = p.signing_cheat.filter(|x| !c.named.contains(x));
            let honest = k.saturating_sub(u16::from(cheat.is_some()));
            let signers = quorum(&parties, honest, &c.named, cheat, false);
            if k < t || signers.len() < usize::from(t) {
                break;
            }
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
                            "{} of {n} signers (parties {}), two rounds, leaderless: each combined and \
                             verified the same signature; nobody held the key",
                            signers.len(),
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
                    if parties.iter().filter(|x| !c.named.contains(x)).count() >= usize::from(t) {
                        say!("    · a new session (new session id, fresh round-1 state) without them");
                    }
                }
                Err(f) if UNATTRIBUTABLE.contains(&f.code) => {
                    c.failed_line(
                        "Sign",
                        &format!(
                            "parties {} ended the session without a signature: {}",
                            list(&signers),
                            f.code
                        ),
                    );
                    if f.code == "UNATTRIBUTABLE_ABORT" {
                        say!(
                            "    · nobody can be named: Corona's responses have no per-party verification \
                             equation, so a wrong one shows only in the sum; every signer checked the \
                             combined signature and released nothing"
                        );
                    } else {
                        say!("    · nobody can be named: {}", f.message);
                    }
                    say!(
                        "    · the run stops here: a new session with the same signers could fail the same \
                         way, and the scheme cannot say whom to leave out"
                    );
                    return Err(f);
                }
                Err(f) => return Err(f),
            }
        }
        Err(Failure::local(
            "TOO_FEW_SIGNERS",
            format!("fewer than {t} parties remain that were not named"),
        ))
    }
}

/// The Corona pipeline.
pub(crate) fn run(demo: &Demo, place: &Place<'_>) -> Result<Summary, Failure> {
    let (store, resume) = (demo.store.clone(), demo.resume);
    let member = move |id, acts, rng| Member {
        id,
        acts,
        rng,
        share: None,
        signed: (Vec::new(), None),
        held: Held::new(store.clone(), resume),
    };
    flow::run(&Corona, demo, member, |rng| Dealer { rng: Some(rng) }, place)
}
