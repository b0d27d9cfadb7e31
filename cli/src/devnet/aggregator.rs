//! The aggregator of the devnet (node 0, the combiner): the enrolled keys, each epoch's set,
//! the validators' block signatures checked, the certificate built, followed by its own light
//! clients and written.

use core::time::Duration;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use quasar_pq::cert::{CertificateBuilder, LightClient, Policy, SetParams, Validator, ValidatorSet};

use super::validator::{check, proves_possession, validator, Checked};
use super::{builder, Block, CHAIN_ID, MAGNETAR, MLDSA, POLICIES, SIGNED_BLOCK};
use crate::conduct::{Event, Label};
use crate::driver::{Publication, Published};
use crate::flow;
use crate::net::Addr;
use crate::report::Failure;

/// The aggregator (the hub of a devnet run): the enrolled keys, the sets, its light clients.
pub(crate) struct Aggregator {
    dir: PathBuf,
    enrolled: BTreeMap<u16, Validator>,
    sets: BTreeMap<u64, ValidatorSet>,
    clients: Vec<LightClient>,
    /// The block being certified: its builder, until its threshold legs arrive.
    pending: Option<(Block, CertificateBuilder, (usize, usize), Duration)>,
}

impl Aggregator {
    /// An aggregator writing to `dir` (created if missing).
    pub(crate) fn new(dir: &Path) -> Aggregator {
        Aggregator {
            dir: dir.to_path_buf(),
            enrolled: BTreeMap::new(),
            sets: BTreeMap::new(),
            clients: Vec::new(),
            pending: None,
        }
    }

    /// Records the enrollments published by `parties`; a missing or malformed one, or one
    /// whose proof of possession does not verify, is named `BAD_ENROLLMENT` and left out.
    pub(crate) fn enroll(&mut self, parties: &[u16], published: &Published) -> Vec<Event> {
        let mut events = Vec::new();
        for &p in parties {
            // A Pulsar member also sends the group key: the enrollment is the copy that parses.
            match published.all_from(p).into_iter().find_map(validator) {
                Some((party, v)) if party == p && proves_possession(&v) => {
                    self.enrolled.insert(p, v);
                }
                _ => events.push(named(
                    p,
                    "BAD_ENROLLMENT",
                    "its enrollment is missing or malformed, or its BLS proof of possession does not verify",
                )),
            }
        }
        events
    }

    /// Makes the set of `epoch` from the enrolled `members`, the Pulsar group key and the
    /// Corona one if any, writes it, and publishes it to `to`.
    pub(crate) fn announce(
        &mut self,
        epoch: u64,
        members: &[u16],
        to: &[Addr],
        (group_key, corona_group_key): (Vec<u8>, Option<Vec<u8>>),
    ) -> Result<Vec<Publication>, Failure> {
        let validators: Vec<Validator> = members
            .iter()
            .filter_map(|p| self.enrolled.get(p).cloned())
            .collect();
        let params = SetParams {
            chain_id: CHAIN_ID,
            epoch,
            key_era: 0,
            bls: true,
            mldsa: Some(MLDSA),
            slhdsa: Some(MAGNETAR.slhdsa()),
            pulsar_group_key: Some(group_key),
            corona_group_key,
        };
        let set = ValidatorSet::new(&params, validators)?;
        self.write(&format!("set-{epoch}.qvst"), set.as_bytes())?;
        if self.clients.is_empty() {
            // With a Corona leg, a client that requires it too.
            let corona = set.view().corona_group_key().map(|_| Policy::PQ_STRICT);
            for policy in POLICIES.into_iter().chain(corona) {
                self.clients.push(LightClient::new(set.clone(), policy)?);
            }
        }
        let bytes = set.as_bytes().to_vec();
        self.sets.insert(epoch, set);
        Ok(vec![Publication::new(to, bytes)])
    }

    /// Starts certifying `block`: checks each validator's signatures (what fails is named and
    /// left out) and returns the message the Pulsar quorum signs.
    pub(crate) fn collect(
        &mut self,
        block: &Block,
        published: &Published,
    ) -> Result<([u8; 32], Vec<Event>), Failure> {
        let started = std::time::Instant::now();
        let mut b = builder(&self.sets, block)?;
        let message = b.message();
        let set = self
            .sets
            .get(&block.epoch)
            .ok_or_else(|| flow::missing("validator set"))?;
        // The validators of this set that sent signatures (a Pulsar signer also sends its
        // record; the signatures are the copy tagged so).
        let sent: Vec<(u16, usize, &Validator, &[u8])> = self
            .enrolled
            .iter()
            .filter_map(|(&party, v)| {
                let index = set.view().position(&v.id)?;
                let bytes = published
                    .all_from(party)
                    .into_iter()
                    .find_map(|b| b.strip_prefix(SIGNED_BLOCK))?;
                Some((party, index, v, bytes))
            })
            .collect();
        // Each check is independent: spread them over the cores, keep the set's order.
        let cores = std::thread::available_parallelism().map_or(1, core::num::NonZeroUsize::get);
        let chunk = sent.len().div_ceil(cores).max(1);
        let checked: Vec<Result<Checked<'_>, Label>> = std::thread::scope(|scope| {
            let workers: Vec<_> = sent
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        part.iter()
                            .map(|(_, _, v, bytes)| check(v, &message, bytes))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            workers
                .into_iter()
                // The library's checks do not panic on any input; if one did, it is a bug to surface.
                .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        let mut events = Vec::new();
        let mut signed = 0;
        for ((party, index, _, _), result) in sent.iter().zip(checked) {
            match result {
                Ok((sig, ml, mag)) => {
                    b.add_bls(*index, &sig)?;
                    b.add_mldsa(*index, ml)?;
                    b.add_magnetar(*index, mag)?;
                    signed += 1;
                }
                Err(code) => events.push(named(*party, code, "its block signature does not verify")),
            }
        }
        self.pending = Some((block.clone(), b, (signed, set.len()), started.elapsed()));
        Ok((message, events))
    }

    /// Adds the Pulsar quorum's `frame` to the pending block.
    pub(crate) fn pulsar(&mut self, frame: &[u8]) -> Result<(), Failure> {
        self.builder()?.pulsar(frame)?;
        Ok(())
    }

    /// Adds the Corona signers' `signature` to the pending block.
    pub(crate) fn corona(&mut self, signature: &[u8]) -> Result<(), Failure> {
        self.builder()?.corona(signature)?;
        Ok(())
    }

    fn builder(&mut self) -> Result<&mut CertificateBuilder, Failure> {
        let (_, b, _, _) = self
            .pending
            .as_mut()
            .ok_or_else(|| flow::missing("pending block"))?;
        Ok(b)
    }

    /// Finishes the pending block: builds the certificate, follows it with every light
    /// client, writes it. Returns its length.
    pub(crate) fn seal(&mut self) -> Result<Event, Failure> {
        let (block, b, signed, checked) = self
            .pending
            .take()
            .ok_or_else(|| flow::missing("pending block"))?;
        let cert = b.build()?;
        let next = if block.ends_epoch {
            self.sets.get(&(block.epoch + 1)).map(|s| s.as_bytes().to_vec())
        } else {
            None
        };
        for client in &mut self.clients {
            client.update(&cert, next.as_deref()).map_err(|r| {
                Failure::local(
                    "REFUSED",
                    format!(
                        "the aggregator's own light client refused block {}: {r}",
                        block.height
                    ),
                )
            })?;
        }
        self.write(&format!("cert-{}-{}.qcrt", block.epoch, block.height), &cert)?;
        Ok(Event::Block {
            epoch: block.epoch,
            height: block.height,
            len: cert.len(),
            signed,
            check_us: u64::try_from(checked.as_micros()).unwrap_or(u64::MAX),
        })
    }

    /// Writes `name` whole, then renames it into place (a follower never reads half a file).
    fn write(&self, name: &str, bytes: &[u8]) -> Result<(), Failure> {
        let io = |e: std::io::Error| {
            Failure::local(
                "IO",
                format!("cannot write {name} in {}: {e}", self.dir.display()),
            )
        };
        std::fs::create_dir_all(&self.dir).map_err(io)?;
        let tmp = self.dir.join(format!(".{name}.part"));
        std::fs::write(&tmp, bytes).map_err(io)?;
        std::fs::rename(&tmp, self.dir.join(name)).map_err(io)
    }
}

/// A validator named by the aggregator.
fn named(party: u16, code: Label, reason: &str) -> Event {
    Event::Blame {
        phase: None,
        party,
        code,
        reason: reason.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::devnet::Keys;
    use rand_chacha::rand_core::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    #[test]
    fn an_enrollment_that_is_missing_malformed_or_a_rogue_key_is_named_and_left_out() {
        let keys = |party, seed| Keys::generate(party, &mut ChaCha20Rng::from_seed([seed; 32])).unwrap();
        let good = keys(1, 1).enrollment();
        // Party 2's BLS key with party 5's (valid, but not its own) proof of possession.
        let at = 2 + quasar_pq::bls::PUBLIC_KEY_LEN;
        let mut rogue = keys(2, 2).enrollment();
        rogue[at..at + quasar_pq::bls::SIGNATURE_LEN]
            .copy_from_slice(&keys(5, 5).enrollment()[at..at + quasar_pq::bls::SIGNATURE_LEN]);
        let published = Published::of(vec![
            // A Pulsar member sends its group key too; the enrollment is found among the copies.
            (1, b"a group key frame".to_vec()),
            (1, good),
            (2, rogue),
            (3, b"not an enrollment".to_vec()),
        ]);
        let dir = tempfile::tempdir().unwrap();
        let mut a = Aggregator::new(dir.path());
        let events = a.enroll(&[1, 2, 3, 4], &published);
        let named: Vec<(u16, &str)> = events
            .iter()
            .filter_map(|e| match e {
                Event::Blame { party, code, .. } => Some((*party, *code)),
                _ => None,
            })
            .collect();
        assert_eq!(
            named,
            [
                (2, "BAD_ENROLLMENT"),
                (3, "BAD_ENROLLMENT"),
                (4, "BAD_ENROLLMENT")
            ]
        );
        assert_eq!(a.enrolled.keys().copied().collect::<Vec<_>>(), [1]);
    }
}
