//! A devnet node's validator side, the same whichever scheme signs its Pulsar leg: it
//! enrolls with keys of its own, checks the sets it is told, signs every block, holds its
//! share of the Corona key if it was dealt one, signs the Corona leg, and hands the
//! aggregator the threshold signatures it combined at the seal.
//!
//! A scheme's member calls [`Validating::publish`] and [`Validating::start`] first (`None`:
//! the phase is not the validator's), and [`Validating::finish`] for a Corona leg.

use quasar_pq::cert::CORONA_CONTEXT;
use quasar_pq::corona;
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;

use super::{Block, Keys};
use crate::conduct::Event;
use crate::driver::{output, Output, Publication, Published, Role};
use crate::flow::{held, held_mut, ids, Phase};
use crate::report::Failure;

/// The validator side of a devnet node.
#[derive(Default)]
pub(crate) struct Validating {
    /// Its validator keys (drawn when it enrolls).
    keys: Option<Keys>,
    /// Its share of the Corona key (`--corona`).
    corona: Option<corona::KeyShare>,
    /// The Corona signature it combined on the current block.
    corona_signed: Option<Vec<u8>>,
    /// The Pulsar leg's signature it combined on the current block (a leaderless scheme).
    pub(crate) pulsar_signed: Option<Vec<u8>>,
}

impl Validating {
    /// Its validator keys.
    pub(crate) fn keys(&self) -> Result<&Keys, Failure> {
        held(&self.keys, "validator keys")
    }

    /// What node `me` publishes in a devnet phase (`group_key`: the Pulsar group key frame
    /// it holds, if any, asked for only when it enrolls; `cheats`: it signs a wrong block
    /// with BLS); `None`: not one.
    pub(crate) fn publish(
        &mut self,
        phase: &Phase,
        me: u16,
        group_key: impl FnOnce() -> Result<Option<Vec<u8>>, Failure>,
        cheats: bool,
        rng: &mut ChaCha20Rng,
    ) -> Result<Option<Vec<Publication>>, Failure> {
        Ok(Some(match phase {
            Phase::Enroll(parties) if parties.contains(&me) => {
                let keys = Keys::generate(me, rng)?;
                let mut out = vec![Publication::to_hub(keys.enrollment())];
                out.extend(group_key()?.map(Publication::to_hub));
                self.keys = Some(keys);
                out
            }
            // A validator of the epoch signs the block.
            Phase::Block(b) => match &self.keys {
                Some(keys) => keys.sign(b, cheats, rng)?,
                None => Vec::new(),
            },
            // The signatures it combined go to the aggregator.
            Phase::Seal(b) => {
                let pulsar = self.pulsar_signed.take().filter(|_| b.signers.contains(&me));
                let corona = self.corona_signed.take().filter(|_| b.corona.contains(&me));
                pulsar
                    .into_iter()
                    .chain(corona)
                    .map(Publication::to_hub)
                    .collect()
            }
            _ => return Ok(None),
        }))
    }

    /// Node `me`'s role in a devnet phase; `None`: not one.
    pub(crate) fn start(
        &mut self,
        phase: &Phase,
        published: &Published,
        me: PartyId,
        rng: &mut ChaCha20Rng,
    ) -> Result<Option<Role>, Failure> {
        let id = me.get();
        Ok(Some(match phase {
            Phase::Enroll(parties) if parties.contains(&id) => Role::Local(Vec::new()),
            Phase::Announce { epoch, members, to } if to.contains(&id) => {
                let set = crate::flow::from_hub(published)?;
                held_mut(&mut self.keys, "validator keys")?.told(*epoch, set, members.contains(&id))?;
                Role::Local(Vec::new())
            }
            Phase::CoronaDeal { members, t } if members.contains(&id) => {
                self.corona = Some(crate::corona::load(published, me, *t, members.len())?);
                Role::Local(Vec::new())
            }
            // Its signers play honestly: Corona cannot name a wrong response.
            Phase::CoronaLeg { id: session, block } if block.corona.contains(&id) => {
                let message = self.keys()?.message(block)?;
                let share = held(&self.corona, "Corona key share")?;
                let params =
                    corona::SignParams::new(*session, &ids(&block.corona), &message, CORONA_CONTEXT)?;
                Role::party(corona::Signer::start(share, &params, rng)?)
            }
            _ => return Ok(None),
        }))
    }

    /// The outcome of its Corona leg on `block`.
    pub(crate) fn finish(&mut self, block: &Block, out: Output) -> Result<Vec<Event>, Failure> {
        let signed = output::<corona::Signed>(out)?;
        let mut events = Event::blame(None, [signed.dropped.as_slice()]);
        events.push(Event::Signers(block.corona.clone()));
        self.corona_signed = Some(signed.signature);
        Ok(events)
    }
}
