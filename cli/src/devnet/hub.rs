//! A devnet's hub side, the same whichever scheme signs its Pulsar leg: the aggregator, the
//! group keys its sets carry (the Pulsar group's as most of its members hold it, and the
//! Corona key it deals as a trusted dealer), and the seal of each block from the threshold
//! signatures its signers hand it.

use quasar_pq::corona;
use rand_chacha::ChaCha20Rng;

use super::{Aggregator, Block};
use crate::conduct::Event;
use crate::driver::{Publication, Published};
use crate::flow::{held, Phase};
use crate::report::Failure;

/// The hub side of a devnet.
pub(crate) struct Aggregating {
    /// The aggregator.
    pub(crate) aggregator: Aggregator,
    /// The Pulsar group's members (from its setup).
    pub(crate) members: Vec<u16>,
    /// The Pulsar group key the members agree on.
    group_key: Option<Vec<u8>>,
    /// The Corona group key it dealt (`--corona`).
    corona_key: Option<Vec<u8>>,
    /// What the aggregator named while collecting a block, reported with its Pulsar leg.
    pub(crate) named: Vec<Event>,
}

impl Aggregating {
    /// The hub side of a devnet writing to `dir`.
    pub(crate) fn new(dir: &std::path::Path) -> Aggregating {
        Aggregating {
            aggregator: Aggregator::new(dir),
            members: Vec::new(),
            group_key: None,
            corona_key: None,
            named: Vec::new(),
        }
    }

    /// What it publishes in a devnet phase; `None`: not one.
    pub(crate) fn publish(
        &mut self,
        phase: &Phase,
        rng: &mut ChaCha20Rng,
    ) -> Result<Option<Vec<Publication>>, Failure> {
        Ok(Some(match phase {
            Phase::Announce { epoch, members, to } => {
                let keys = (
                    held(&self.group_key, "group key")?.clone(),
                    self.corona_key.clone(),
                );
                self.aggregator.announce(*epoch, members, to, keys)?
            }
            // A trusted dealer: the shares leave sealed to their members; it keeps the key.
            Phase::CoronaDeal { members, t } => {
                let (out, key) = crate::corona::deal(members, *t, rng)?;
                self.corona_key = Some(key);
                out
            }
            _ => return Ok(None),
        }))
    }

    /// Records the enrollments of `parties`, and the group key as most of the group's
    /// members hold it (`is_key`: a group key frame; a validator outside the group holds
    /// none). Returns whom it named.
    pub(crate) fn enroll(
        &mut self,
        parties: &[u16],
        published: &Published,
        is_key: impl Fn(&[u8]) -> bool,
    ) -> Result<Vec<Event>, Failure> {
        let named = self.aggregator.enroll(parties, published);
        let key = published.agreed(&self.members, |b| Some(b.to_vec()).filter(|_| is_key(b)))?;
        self.group_key = Some(key);
        Ok(named)
    }

    /// Seals `block` once its signers handed over their signatures: the Corona leg's as
    /// most of its signers combined it, if it has one (its Pulsar leg is in already).
    pub(crate) fn seal(&mut self, block: &Block, published: &Published) -> Result<Event, Failure> {
        if !block.corona.is_empty() {
            let signature = published.agreed(&block.corona, |s| {
                (s.len() == corona::SIGNATURE_LEN).then(|| s.to_vec())
            })?;
            self.aggregator.corona(&signature)?;
        }
        self.aggregator.seal()
    }
}
