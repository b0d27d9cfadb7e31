//! The roster: which process hosts which nodes, its libp2p identity and its address —
//! public, `roster.json` — and each process's secret identity key, `process-<i>.key`.
//!
//! Node 0 (the hub: Pulsar's combiner, the Lens coordinator, Corona's dealer) and the
//! conductor live in process 0; the parties `1..=n` are spread over the other processes.
//! A message is accepted only from the process the roster says hosts its sender: the
//! network identity Noise authenticates is bound to the roster entry, and through it to
//! the party ids.

use std::fs;
use std::path::{Path, PathBuf};

use libp2p::identity::Keypair;
use libp2p::{Multiaddr, PeerId};
use serde::{Deserialize, Serialize};

use crate::net::Addr;

/// The roster's file name in its directory.
pub(crate) const FILE: &str = "roster.json";

/// One process.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Entry {
    /// Its libp2p peer id (base58).
    pub peer: String,
    /// Where it listens.
    pub listen: String,
    /// The nodes it hosts.
    pub addrs: Vec<Addr>,
}

/// Every process of a cluster.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Roster {
    /// Format version (1).
    pub version: u32,
    /// The processes; the conductor's is the first (it hosts node 0).
    pub processes: Vec<Entry>,
}

/// A roster entry, decoded.
#[derive(Debug, Clone)]
pub(crate) struct Process {
    /// Its index in the roster.
    pub index: usize,
    /// Its peer id.
    pub peer: PeerId,
    /// Its address.
    pub listen: Multiaddr,
    /// The nodes it hosts.
    pub addrs: Vec<Addr>,
}

fn key_path(dir: &Path, index: usize) -> PathBuf {
    dir.join(format!("process-{index}.key"))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    let s = s.trim();
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

impl Roster {
    /// A new cluster in `dir`: process 0 hosts node 0, then `parties` nodes in processes
    /// of `per` nodes each, listening on 127.0.0.1 from `port` up. Writes the roster and
    /// one fresh identity key per process.
    pub(crate) fn generate(dir: &Path, parties: u16, per: u16, port: u16) -> Result<Roster, String> {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let mut groups: Vec<Vec<Addr>> = vec![vec![0]];
        let ids: Vec<Addr> = (1..=parties).collect();
        groups.extend(ids.chunks(usize::from(per.max(1))).map(<[Addr]>::to_vec));
        let mut processes = Vec::new();
        for (i, addrs) in groups.into_iter().enumerate() {
            let key = Keypair::generate_ed25519();
            let encoded = key
                .to_protobuf_encoding()
                .map_err(|e| format!("cannot encode a key: {e}"))?;
            let path = key_path(dir, i);
            fs::write(&path, hex(&encoded) + "\n")
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            restrict(&path);
            let port = u16::try_from(usize::from(port) + i).map_err(|_| "port out of range".to_string())?;
            processes.push(Entry {
                peer: key.public().to_peer_id().to_base58(),
                listen: format!("/ip4/127.0.0.1/tcp/{port}"),
                addrs,
            });
        }
        let roster = Roster {
            version: 1,
            processes,
        };
        let text = serde_json::to_string_pretty(&roster).map_err(|e| e.to_string())?;
        let path = dir.join(FILE);
        fs::write(&path, text + "\n").map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(roster)
    }

    /// Reads `dir`'s roster and checks it: version 1, decodable ids and addresses, every
    /// node hosted once, node 0 in process 0.
    pub(crate) fn load(dir: &Path) -> Result<Vec<Process>, String> {
        let path = dir.join(FILE);
        let text = fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let roster: Roster =
            serde_json::from_str(&text).map_err(|e| format!("{}: not a roster: {e}", path.display()))?;
        if roster.version != 1 {
            return Err(format!(
                "{}: unknown roster version {}",
                path.display(),
                roster.version
            ));
        }
        let mut seen = std::collections::BTreeSet::new();
        let mut out = Vec::new();
        for (index, e) in roster.processes.into_iter().enumerate() {
            let peer: PeerId = e
                .peer
                .parse()
                .map_err(|_| format!("process {index}: bad peer id '{}'", e.peer))?;
            let listen: Multiaddr = e
                .listen
                .parse()
                .map_err(|_| format!("process {index}: bad address '{}'", e.listen))?;
            for &a in &e.addrs {
                if !seen.insert(a) {
                    return Err(format!("node {a} is hosted twice"));
                }
            }
            out.push(Process {
                index,
                peer,
                listen,
                addrs: e.addrs,
            });
        }
        if out.first().is_none_or(|p| !p.addrs.contains(&0)) {
            return Err("process 0 must host node 0 (the hub and the conductor)".into());
        }
        Ok(out)
    }

    /// Process `index`'s identity key.
    pub(crate) fn key(dir: &Path, index: usize) -> Result<Keypair, String> {
        let path = key_path(dir, index);
        let text = fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let bytes = unhex(&text).ok_or_else(|| format!("{}: not hex", path.display()))?;
        Keypair::from_protobuf_encoding(&bytes).map_err(|e| format!("{}: not a key: {e}", path.display()))
    }
}

/// Makes a secret file readable by its owner only (Unix).
fn restrict(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = fs::set_permissions(path, fs::Permissions::from_mode(0o600));
    }
    #[cfg(not(unix))]
    let _ = path;
}
