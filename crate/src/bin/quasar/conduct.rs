//! The conductor: runs steps on the cluster, prints progress, blame and keys as they
//! happen, and holds what the final report needs.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::time::Duration;

use quasar_pq::hash::Transcript;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use zeroize::Zeroizing;

use crate::net::{Addr, Cluster, Done, Event, Stepped, Traffic};
use crate::report::Failure;

/// Domain tags of the demo's own derivations (seeds, session ids).
const TAG_RNG: &str = "QUASAR-DEMO-RNG-v1";
const TAG_SESSION: &str = "QUASAR-DEMO-SESSION-v1";

/// The randomness of node `addr`, derived from the demo seed (reproducible runs).
pub fn node_rng(seed: &[u8], scheme: &str, addr: Addr) -> ChaCha20Rng {
    let mut t = Transcript::new(TAG_RNG);
    t.append(seed)
        .append(scheme.as_bytes())
        .append(&addr.to_be_bytes());
    ChaCha20Rng::from_seed(t.finalize::<32>())
}

/// A session id, unique per label and seed (every node derives the same one).
pub fn session_id(seed: &[u8], scheme: &str, label: &str) -> [u8; 32] {
    let mut t = Transcript::new(TAG_SESSION);
    t.append(seed).append(scheme.as_bytes()).append(label.as_bytes());
    t.finalize::<32>()
}

/// SHA3-256 of a key, for fingerprints.
pub fn digest(bytes: &[u8]) -> [u8; 32] {
    use sha3::{Digest, Sha3_256};
    Sha3_256::digest(bytes).into()
}

/// The first 8 bytes of a digest, in hex.
pub fn fingerprint(d: &[u8; 32]) -> String {
    d[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// `t` members of `set` (from the front or the back), plus the cheater if it is a member,
/// so a session with a cheater still has `t` honest parties whenever the set has them.
pub fn quorum(set: &[u16], t: u16, cheat: Option<u16>, from_back: bool) -> Vec<u16> {
    let honest: Vec<u16> = if from_back {
        set.iter().rev().copied().filter(|p| Some(*p) != cheat).collect()
    } else {
        set.iter().copied().filter(|p| Some(*p) != cheat).collect()
    };
    let mut q: Vec<u16> = honest.into_iter().take(usize::from(t)).collect();
    if let Some(c) = cheat.filter(|c| set.contains(c)) {
        q.push(c);
    }
    q.sort_unstable();
    q
}

/// `1..=n`.
pub fn range(n: u16) -> Vec<u16> {
    (1..=n).collect()
}

/// A compact list of party ids: `1-15, 17`.
pub fn list(ids: &[u16]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j + 1] == ids[j] + 1 {
            j += 1;
        }
        out.push(if j > i + 1 {
            format!("{}-{}", ids[i], ids[j])
        } else if j == i + 1 {
            format!("{}, {}", ids[i], ids[j])
        } else {
            ids[i].to_string()
        });
        i = j + 1;
    }
    out.join(", ")
}

/// Of the copies of one public object sent by `from`, the one a majority sent, and the
/// senders whose copy differs or is missing (to be named). Fails without a majority.
pub fn agreed(
    copies: &BTreeMap<Addr, Zeroizing<Vec<u8>>>,
    from: &[Addr],
) -> Result<(Vec<u8>, Vec<Addr>), Failure> {
    let mut groups: BTreeMap<&[u8], Vec<Addr>> = BTreeMap::new();
    for (a, b) in copies {
        groups.entry(b.as_slice()).or_default().push(*a);
    }
    match groups.into_iter().max_by_key(|(_, h)| h.len()) {
        Some((bytes, holders)) if 2 * holders.len() > from.len() => {
            let odd = from.iter().copied().filter(|a| !holders.contains(a)).collect();
            Ok((bytes.to_vec(), odd))
        }
        _ => Err(Failure::local(
            "CONFLICTING_PUBLIC_DATA",
            format!("no majority of parties {} sent the same public data", list(from)),
        )),
    }
}

/// Blame events for parties whose copy of the public data was not the majority's.
pub fn deviants(odd: &[Addr]) -> Vec<Event> {
    odd.iter()
        .map(|&party| Event::Blame {
            party,
            code: "CONFLICTING_PUBLIC_DATA".into(),
            reason: "sent other public data than the majority (or none) — ignored".into(),
        })
        .collect()
}

/// Group key digests (SHA3-256) and lengths, by label ("before reshare", "after reshare").
pub type Keys = BTreeMap<&'static str, ([u8; 32], usize)>;

/// The run's bookkeeping on top of the cluster.
pub struct Conductor<S> {
    cluster: Cluster<S>,
    /// The misbehaving party: its own reports of blame are its lies, not printed.
    cheat: Option<Addr>,
    blamed: BTreeSet<(String, u16, String)>,
    /// Group key digests (and lengths) by label.
    pub keys: Keys,
    /// Parties named and excluded, with their reasons, in order.
    pub blame: Vec<String>,
}

impl<S: Send + Sync + 'static> Conductor<S> {
    /// Wraps a cluster.
    pub fn new(cluster: Cluster<S>, cheat: Option<Addr>) -> Self {
        Conductor {
            cluster,
            cheat,
            blamed: BTreeSet::new(),
            keys: BTreeMap::new(),
            blame: Vec::new(),
        }
    }

    /// Runs one step; prints blame as it is reported; checks that every node reporting a
    /// key reports the same one. Returns the reports.
    ///
    /// The misbehaving party's own failures (it acts on its own, divergent view) take it
    /// out of the run, as a silent party would be; any other failure ends the run.
    pub fn step(&mut self, phase: &str, step: S) -> Result<BTreeMap<Addr, Done>, Failure> {
        let Stepped { done, failed } = self.cluster.run(phase, step)?;
        for (addr, f) in failed {
            if Some(addr) != self.cheat {
                return Err(f);
            }
            say!(
                "    · party {addr} drops out in {phase} ({}: {}); the others stop waiting for it",
                f.code,
                f.message
            );
            self.cluster.drop_out(addr);
        }
        for (addr, d) in &done {
            for e in &d.events {
                match e {
                    Event::Blame { .. } if Some(*addr) == self.cheat => {}
                    Event::Blame { party, code, reason } => {
                        if self.blamed.insert((phase.to_string(), *party, code.clone())) {
                            let line = format!("party {party} named in {phase}: {code}: {reason}");
                            say!("    ! {line}");
                            self.blame.push(line);
                        }
                    }
                    Event::Key { label, digest, len } => match self.keys.get(label) {
                        None => {
                            self.keys.insert(label, (*digest, *len));
                        }
                        Some((d, _)) if d == digest => {}
                        Some(_) => {
                            let mut f = Failure::local(
                                "KEY_DISAGREEMENT",
                                format!("{} holds another group key ({label})", crate::net::who(*addr)),
                            );
                            f.phase = phase.to_string();
                            return Err(f);
                        }
                    },
                    Event::Note(s) => say!("    · {s}"),
                    Event::Signers(_) => {}
                }
            }
        }
        Ok(done)
    }

    /// Prints the progress line of a finished phase.
    pub fn phase_line(&self, phase: &str, detail: &str) {
        self.phases_line(phase, &[phase], detail);
    }

    /// Prints one progress line for several finished phases.
    pub fn phases_line(&self, label: &str, phases: &[&str], detail: &str) {
        let wall: Duration = self
            .cluster
            .log
            .iter()
            .filter(|s| phases.contains(&s.phase.as_str()))
            .map(|s| s.wall)
            .sum();
        say!("  ✓ {label:<18} {:>10} ms  {detail}", crate::report::ms(wall));
        let _ = std::io::stdout().flush();
    }

    /// Stops the cluster; returns the step log, the traffic and the group keys seen.
    pub fn finish(self) -> (Vec<crate::net::StepLog>, Traffic, Keys) {
        let log = self.cluster.log.clone();
        let keys = self.keys.clone();
        let traffic = self.cluster.finish();
        (log, traffic, keys)
    }
}

/// The signers a hub reported for a step (empty if none).
pub fn signers_of(done: &BTreeMap<Addr, Done>) -> Vec<u16> {
    done.values()
        .flat_map(|d| d.events.iter())
        .find_map(|e| match e {
            Event::Signers(s) => Some(s.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

/// How many parties (not the hub) worked in a step.
pub fn active(done: &BTreeMap<Addr, Done>) -> usize {
    done.iter()
        .filter(|(a, d)| **a != crate::net::HUB && d.active)
        .count()
}

/// The parties a hub asked to exclude (a failed session to retry).
pub fn excluded(done: &BTreeMap<Addr, Done>) -> Vec<u16> {
    let mut out: Vec<u16> = done.values().flat_map(|d| d.exclude.iter().copied()).collect();
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quorums_and_lists() {
        let set = range(7);
        assert_eq!(quorum(&set, 3, None, false), vec![1, 2, 3]);
        assert_eq!(quorum(&set, 3, Some(2), false), vec![1, 2, 3, 4]);
        assert_eq!(quorum(&set, 3, Some(7), false), vec![1, 2, 3, 7]);
        assert_eq!(quorum(&set, 3, None, true), vec![5, 6, 7]);
        assert_eq!(quorum(&set, 3, Some(9), true), vec![5, 6, 7]);
        assert_eq!(quorum(&range(3), 3, Some(2), false), vec![1, 2, 3]);
        assert_eq!(list(&[1, 2, 3, 5, 7, 8]), "1-3, 5, 7, 8");
        assert_eq!(list(&[]), "");
    }
}
