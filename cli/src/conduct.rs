//! The conductor: runs the phases on the cluster, prints blame, keys and progress as they
//! happen, and keeps what the final report needs. Blame is printed with the library's own
//! codes and words ([`BlameReason::code`] and its `Display`).
//!
//! [`BlameReason::code`]: quasar_pq::party::BlameReason::code

use core::time::Duration;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

use quasar_pq::hash::Transcript;
use quasar_pq::party::Blame;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

use crate::driver::{Cluster, PhaseResult};
use crate::net::{Addr, Traffic, HUB};
use crate::report::{Failure, StepLog};

/// Domain tags of the demo's own derivations (seeds, session ids).
const TAG_RNG: &str = "QUASAR-DEMO-RNG-v1";
const TAG_SESSION: &str = "QUASAR-DEMO-SESSION-v1";

/// The randomness of node `addr`, derived from the demo seed (reproducible runs).
pub(crate) fn node_rng(seed: &[u8], scheme: &str, addr: Addr) -> ChaCha20Rng {
    let mut t = Transcript::new(TAG_RNG);
    t.append(seed)
        .append(scheme.as_bytes())
        .append(&addr.to_be_bytes());
    ChaCha20Rng::from_seed(t.finalize::<32>())
}

/// A session id, unique per label and seed (every node derives the same one).
pub(crate) fn session_id(seed: &[u8], scheme: &str, label: &str) -> [u8; 32] {
    let mut t = Transcript::new(TAG_SESSION);
    t.append(seed).append(scheme.as_bytes()).append(label.as_bytes());
    t.finalize::<32>()
}

/// SHA3-256 of a key, for fingerprints.
pub(crate) fn digest(bytes: &[u8]) -> [u8; 32] {
    use sha3::{Digest, Sha3_256};
    Sha3_256::digest(bytes).into()
}

/// The first 8 bytes of a digest, in hex.
pub(crate) fn fingerprint(d: &[u8; 32]) -> String {
    d[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// `1..=n`.
pub(crate) fn range(n: u16) -> Vec<u16> {
    (1..=n).collect()
}

/// A compact list of party ids: `1-15, 17`.
pub(crate) fn list(ids: &[u16]) -> String {
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

/// Of the copies of one public object sent by `from`, the one more than half of them
/// sent. Fails without such a majority.
pub(crate) fn agreed(copies: &BTreeMap<Addr, &[u8]>, from: &[Addr]) -> Result<Vec<u8>, Failure> {
    let mut groups: BTreeMap<&[u8], usize> = BTreeMap::new();
    for (a, b) in copies {
        if from.contains(a) {
            *groups.entry(b).or_default() += 1;
        }
    }
    match groups.into_iter().max_by_key(|(_, n)| *n) {
        Some((bytes, n)) if 2 * n > from.len() => Ok(bytes.to_vec()),
        _ => Err(Failure::local(
            "CONFLICTING_PUBLIC_DATA",
            format!("no majority of parties {} sent the same public data", list(from)),
        )),
    }
}

/// A code or label (`&'static str`; an alias, so that serde's derive does not take the
/// field for one borrowed from the input: the wire interns it, `node::wire::interned`).
pub(crate) type Label = &'static str;

/// Something a node reports at the end of its role in a phase (sent to the conductor by
/// `quasar node`: its codes and labels interned on arrival).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Event {
    /// A party named by this node: the library's blame code and its words.
    Blame {
        /// The row of the path it was named in (`None`: the path's first).
        #[serde(with = "crate::node::wire::interned_option")]
        phase: Option<Label>,
        /// The party.
        party: u16,
        /// [`BlameReason::code`](quasar_pq::party::BlameReason::code).
        #[serde(with = "crate::node::wire::interned")]
        code: Label,
        /// [`BlameReason`](quasar_pq::party::BlameReason)'s `Display`.
        reason: String,
    },
    /// The group key this node holds: label, SHA3-256 of its bytes, length.
    Key {
        /// Which key ("before reshare" / "after reshare").
        #[serde(with = "crate::node::wire::interned")]
        label: Label,
        /// SHA3-256 of the key bytes.
        digest: [u8; 32],
        /// Length of the key in bytes.
        len: usize,
    },
    /// The parties whose contributions made the hub's result (a key, a signature).
    Signers(Vec<u16>),
    /// The parties an activation certificate names (proofs of possession).
    Certified(Vec<u16>),
    /// The node erased its share of this generation.
    Erased(u64),
    /// The aggregator of a devnet certified a block.
    Block {
        /// The epoch.
        epoch: u64,
        /// The height.
        height: u64,
        /// The certificate's length in bytes.
        len: usize,
        /// How many validators' signatures it carries, of how many in the set.
        signed: (usize, usize),
        /// The aggregator's time checking the validators' signatures, in microseconds.
        check_us: u64,
    },
}

impl Event {
    /// The events for a list of the library's blame, named in the row `phase` of the path
    /// (`None`: its first).
    pub(crate) fn blame<'a>(
        phase: Option<&'static str>,
        lists: impl IntoIterator<Item = &'a [Blame]>,
    ) -> Vec<Event> {
        lists
            .into_iter()
            .flatten()
            .map(|b| Event::Blame {
                phase,
                party: b.party.get(),
                code: b.reason.code(),
                reason: b.reason.to_string(),
            })
            .collect()
    }

    /// A key event.
    pub(crate) fn key(label: &'static str, bytes: &[u8]) -> Event {
        Event::Key {
            label,
            digest: digest(bytes),
            len: bytes.len(),
        }
    }
}

/// Group key digests (SHA3-256) and lengths, by label ("before reshare", "after reshare").
pub(crate) type Keys = BTreeMap<&'static str, ([u8; 32], usize)>;

/// What the flows learn from a finished phase.
#[derive(Debug, Default)]
pub(crate) struct Done {
    /// Nodes that finished their role, with their events.
    pub done: BTreeMap<Addr, Vec<Event>>,
}

impl Done {
    /// How many parties (not the hub) finished a role.
    pub(crate) fn parties(&self) -> usize {
        self.done.keys().filter(|&&a| a != HUB).count()
    }

    /// The signers the hub reported (empty if none).
    pub(crate) fn signers(&self) -> Vec<u16> {
        self.done
            .values()
            .flatten()
            .find_map(|e| match e {
                Event::Signers(s) => Some(s.clone()),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// The members an activation certificate names, as the parties reported it.
    pub(crate) fn certified(&self) -> Vec<u16> {
        self.done
            .values()
            .flatten()
            .find_map(|e| match e {
                Event::Certified(s) => Some(s.clone()),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// The parties that erased an old share.
    pub(crate) fn erased(&self) -> Vec<u16> {
        let mut out: Vec<u16> = self
            .done
            .iter()
            .filter(|(_, ev)| ev.iter().any(|e| matches!(e, Event::Erased(_))))
            .map(|(a, _)| *a)
            .collect();
        out.sort_unstable();
        out
    }
}

/// The code of a node the conductor heard nothing from by its deadline (`driver::cluster`).
pub(crate) const SILENT: &str = "TIMEOUT";

/// Blame of one path: (row, party, code) → (the reasons, in order; who reported them).
type Named<'a> = BTreeMap<(&'a str, u16, &'static str), (Vec<&'a str>, Vec<u16>)>;

/// The run's bookkeeping on top of the cluster.
pub(crate) struct Conductor<P> {
    cluster: Cluster<P>,
    /// The misbehaving party: its own reports are its lies, not printed.
    cheat: Option<Addr>,
    /// Parties named so far (excluded from later quorums).
    pub named: BTreeSet<u16>,
    /// Parties named by more than one node so far: their failures take them out of a path,
    /// as the declared cheat's do (on a network nobody declares who cheats).
    exposed: BTreeSet<u16>,
    /// Group key digests (and lengths) by label.
    pub keys: Keys,
    /// Parties named, with their reasons, one line each, in order.
    pub blame: Vec<String>,
}

impl<P: Send + Sync + 'static> Conductor<P> {
    /// Wraps a cluster.
    pub(crate) fn new(cluster: Cluster<P>, cheat: Option<Addr>) -> Self {
        Conductor {
            cluster,
            cheat,
            named: BTreeSet::new(),
            exposed: BTreeSet::new(),
            keys: BTreeMap::new(),
            blame: Vec::new(),
        }
    }

    /// Runs one phase (a path with one row in the table): see [`Conductor::path`].
    pub(crate) fn phase(&mut self, name: &'static str, phase: P) -> Result<Done, Failure> {
        self.path(&[name], phase)
    }

    /// Runs one lifecycle path, whose rounds belong to the rows `labels` of the table;
    /// prints the blame every node reported and checks that every node reporting a key
    /// reports the same one. The misbehaving party's own failures take it out of the path,
    /// as a silent party would be; any other failure is returned (a node left waiting only
    /// when no node failed).
    pub(crate) fn path(&mut self, labels: &[&'static str], phase: P) -> Result<Done, Failure> {
        let PhaseResult {
            done,
            failed,
            stalled,
        } = self.cluster.run(labels, phase)?;
        let exposed = self.report(labels[0], &done)?;
        self.exposed.extend(exposed);
        // A party that several stalled nodes name (they dropped its messages: an equivocation
        // the echo showed, garbage) caused the stall rather than suffered it.
        let mut namers: BTreeMap<u16, usize> = BTreeMap::new();
        for (a, f) in &stalled {
            for c in f.culprits.iter().filter(|c| *c != a) {
                *namers.entry(*c).or_default() += 1;
            }
        }
        self.exposed
            .extend(namers.into_iter().filter(|(_, n)| *n > 1).map(|(c, _)| c));
        // A node that did not report by the conductor's deadline went silent (killed, too
        // slow, cut off): it drops out of the path as a declared cheat does and stays out of
        // later quorums; the protocol decides whether the others finish without it.
        for (a, f) in &failed {
            if f.code == SILENT && *a != HUB && self.exposed.insert(*a) {
                self.named.insert(*a);
                say!("    · party {a} went silent: out of this path and of later quorums");
            }
        }
        // Out of the path on failure: the misbehaving party, and (on a network, where nobody
        // says who cheats) a party that several nodes have named.
        let out = |a: &Addr| Some(*a) == self.cheat || self.exposed.contains(a);
        let honest_failure = failed.keys().any(|a| !out(a));
        for (addr, f) in failed
            .into_iter()
            .chain(stalled.into_iter().filter(|_| !honest_failure))
        {
            if !out(&addr) {
                return Err(f);
            }
            say!(
                "    · party {addr} drops out of {} ({}: {})",
                f.phase,
                f.code,
                f.message
            );
        }
        Ok(Done { done })
    }

    /// Prints and records the blame of a path; returns the parties named by more than one node.
    fn report(
        &mut self,
        first: &'static str,
        done: &BTreeMap<Addr, Vec<Event>>,
    ) -> Result<BTreeSet<Addr>, Failure> {
        let mut named: Named<'_> = BTreeMap::new();
        let honest: Vec<u16> = done
            .keys()
            .copied()
            .filter(|&a| Some(a) != self.cheat && a != HUB)
            .collect();
        for (&addr, events) in done.iter().filter(|(a, _)| Some(**a) != self.cheat) {
            for e in events {
                match e {
                    Event::Blame {
                        phase,
                        party,
                        code,
                        reason,
                    } => {
                        let key = (phase.unwrap_or(first), *party, *code);
                        let (reasons, by) = named.entry(key).or_default();
                        if !reasons.contains(&reason.as_str()) {
                            reasons.push(reason);
                        }
                        if !by.contains(&addr) {
                            by.push(addr);
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
                                format!("{} holds another group key ({label})", who(addr)),
                            );
                            f.phase = first.to_string();
                            return Err(f);
                        }
                    },
                    Event::Signers(_) | Event::Certified(_) | Event::Erased(_) | Event::Block { .. } => {}
                }
            }
        }
        let mut exposed = BTreeSet::new();
        for ((phase, party, code), (reasons, mut by)) in named {
            by.sort_unstable();
            if by.len() > 1 {
                exposed.insert(party);
            }
            let more = match reasons.len() {
                1 => String::new(),
                k => format!(" (and {} alike)", k - 1),
            };
            let whom = if by.len() > 1 && by == honest {
                format!("every honest party ({})", list(&by))
            } else {
                by.iter().map(|&a| who(a)).collect::<Vec<_>>().join(", ")
            };
            self.name(
                party,
                format!(
                    "party {party} named in {phase}: {code} — {}{more}; by {whom}",
                    reasons[0]
                ),
            );
        }
        Ok(exposed)
    }

    /// Runs a signing session of `signers` (built by `make`), retried without the parties
    /// a failed attempt names while `t` signers remain (FROST is not robust in its last
    /// round: the coordinator names the culprits, and a new session goes without them).
    pub(crate) fn session(
        &mut self,
        name: &'static str,
        t: u16,
        mut signers: Vec<u16>,
        make: impl Fn(&[u16]) -> P,
    ) -> Result<Done, Failure> {
        loop {
            match self.phase(name, make(&signers)) {
                Ok(done) => return Ok(done),
                Err(f) if !f.culprits.is_empty() => {
                    self.named_by_failure(&f);
                    signers.retain(|p| !f.culprits.contains(p));
                    if signers.len() < usize::from(t) {
                        return Err(f);
                    }
                    say!("    · retrying with parties {}", list(&signers));
                }
                Err(f) => return Err(f),
            }
        }
    }

    /// Prints and records a party named on a failure's evidence (a session that failed
    /// with culprits, to be retried without them).
    pub(crate) fn named_by_failure(&mut self, f: &Failure) {
        let by = f.node.map_or_else(|| "the run".to_string(), who);
        for &party in &f.culprits {
            self.name(
                party,
                format!(
                    "party {party} named in {}: {} — {}; by {by}",
                    f.phase, f.code, f.message
                ),
            );
        }
    }

    fn name(&mut self, party: u16, line: String) {
        say!("    ! {line}");
        self.named.insert(party);
        self.blame.push(line);
    }

    /// Prints the progress line of a finished phase (its wall-clock summed over every time
    /// it ran).
    pub(crate) fn phase_line(&self, phase: &str, detail: &str) {
        self.line('✓', phase, detail);
    }

    /// Prints the line of a phase that ended without its result (the run stops there).
    pub(crate) fn failed_line(&self, phase: &str, detail: &str) {
        self.line('✗', phase, detail);
    }

    fn line(&self, mark: char, phase: &str, detail: &str) {
        let wall: Duration = self
            .cluster
            .log
            .iter()
            .filter(|s| s.phase == phase)
            .map(|s| s.wall)
            .sum();
        say!(
            "  {mark} {phase:<18} {:>10} ms  {detail}",
            crate::report::ms(wall)
        );
        let _ = std::io::stdout().flush();
    }

    /// The fingerprint of a key seen so far.
    pub(crate) fn fingerprint(&self, label: &str) -> String {
        self.keys
            .get(label)
            .map(|(d, _)| fingerprint(d))
            .unwrap_or_default()
    }

    /// The commands run so far, each under its row.
    pub(crate) fn log(&self) -> &[StepLog] {
        &self.cluster.log
    }

    /// Stops the cluster; returns the command log, the traffic and the group keys seen.
    pub(crate) fn finish(self) -> (Vec<StepLog>, Traffic, Keys) {
        let log = self.cluster.log.clone();
        let keys = self.keys.clone();
        let traffic = self.cluster.finish();
        (log, traffic, keys)
    }
}

/// A node's name for messages.
pub(crate) fn who(a: Addr) -> String {
    if a == HUB {
        format!("the {}", HUB_NAME.get().copied().unwrap_or("hub"))
    } else {
        format!("party {a}")
    }
}

/// What the hub is in this run ("combiner" or "coordinator"), for messages.
pub(crate) static HUB_NAME: std::sync::OnceLock<&'static str> = std::sync::OnceLock::new();

/// `t` members of `set` not yet named (from the front or the back), plus the cheater when
/// it is a member, not yet named and misbehaves in this kind of session — so a session
/// with a cheater still has `t` honest parties whenever the set has them.
pub(crate) fn quorum(
    set: &[u16],
    t: u16,
    named: &BTreeSet<u16>,
    cheat: Option<u16>,
    from_back: bool,
) -> Vec<u16> {
    let honest = set
        .iter()
        .copied()
        .filter(|p| Some(*p) != cheat && !named.contains(p));
    let mut q: Vec<u16> = if from_back {
        honest.rev().take(usize::from(t)).collect()
    } else {
        honest.take(usize::from(t)).collect()
    };
    if let Some(c) = cheat.filter(|c| set.contains(c) && !named.contains(c)) {
        q.push(c);
    }
    q.sort_unstable();
    q
}

/// Exactly `t` members of `set` not yet named (a committee session has no spare seat), the
/// cheater — a member, not yet named, that misbehaves in this kind of session — taking one
/// of them; `None` when fewer than `t` remain.
pub(crate) fn exact_quorum(
    set: &[u16],
    t: u16,
    named: &BTreeSet<u16>,
    cheat: Option<u16>,
) -> Option<Vec<u16>> {
    let cheat = cheat.filter(|x| set.contains(x) && !named.contains(x));
    let q = quorum(set, t - u16::from(cheat.is_some()), named, cheat, false);
    (q.len() == usize::from(t)).then_some(q)
}

/// The first `n` ids not yet named: the new set of a reshare (old ids kept, named parties
/// left out, new ids joining).
pub(crate) fn new_set(n: u16, named: &BTreeSet<u16>) -> Vec<u16> {
    (1..=u16::MAX)
        .filter(|p| !named.contains(p))
        .take(usize::from(n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quorums_and_lists() {
        let set = range(7);
        let none = BTreeSet::new();
        assert_eq!(quorum(&set, 3, &none, None, false), vec![1, 2, 3]);
        assert_eq!(quorum(&set, 3, &none, Some(2), false), vec![1, 2, 3, 4]);
        assert_eq!(quorum(&set, 3, &none, Some(7), false), vec![1, 2, 3, 7]);
        assert_eq!(quorum(&set, 3, &none, None, true), vec![5, 6, 7]);
        assert_eq!(quorum(&set, 3, &none, Some(9), true), vec![5, 6, 7]);
        let two: BTreeSet<u16> = [2].into();
        assert_eq!(quorum(&set, 3, &two, Some(2), false), vec![1, 3, 4]);
        assert_eq!(new_set(4, &two), vec![1, 3, 4, 5]);
        assert_eq!(list(&[1, 2, 3, 5, 7, 8]), "1-3, 5, 7, 8");
        assert_eq!(list(&[]), "");
    }
}
