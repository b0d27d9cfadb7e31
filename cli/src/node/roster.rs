//! The roster: which process hosts which nodes, its libp2p identity, its ML-KEM-768
//! encapsulation key and its address — public, `roster.json` — and each process's secret
//! keys (the identity and the decapsulation key), `process-<i>.key`.
//!
//! Node 0 (the hub: Pulsar's combiner, the Lens coordinator, Corona's dealer) and the
//! conductor live in process 0; the parties `1..=n` are spread over the other processes.
//! A message is accepted only from the process the roster says hosts its sender: the
//! network identity Noise authenticates is bound to the roster entry, and through it to
//! the party ids.
//!
//! A **browser process** (`keys --browser B`: the last B processes) listens nowhere
//! (`"listen": "browser"`): a page dials every native process's WebSocket address (`ws`) and
//! the natives answer over the connections it opened.

use std::fs;
use std::path::{Path, PathBuf};

use libp2p::identity::{Keypair, PublicKey};
use libp2p::{Multiaddr, PeerId};
use quasar_pq::pulsar::custody::{CombinerKey, CombinerPublicKey};
use quasar_pq::PartyId;
use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

use crate::net::Addr;

/// The roster's file name in its directory.
pub(crate) const FILE: &str = "roster.json";

/// The `listen` of a browser process.
const BROWSER: &str = "browser";

/// One process.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Entry {
    /// Its libp2p peer id (base58).
    pub peer: String,
    /// Where it listens (TCP), or `browser` for a process that only dials.
    pub listen: String,
    /// Where it accepts WebSocket connections from browser processes, if it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ws: Option<String>,
    /// Its ML-KEM-768 encapsulation key (hex of the `PCEK` encoding): direct messages to
    /// its nodes are sealed to it.
    pub kem: String,
    /// The nodes it hosts.
    pub addrs: Vec<Addr>,
}

/// A process's secret keys, as stored (hex).
#[derive(Serialize, Deserialize)]
struct Secrets {
    identity: String,
    kem: String,
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
    /// The Ed25519 key inside its peer id (it signs the process's public frames).
    pub identity: PublicKey,
    /// Its TCP address (`None`: a browser process, reached over the connections it opens).
    pub listen: Option<Multiaddr>,
    /// Its WebSocket address for browser processes, if any.
    pub ws: Option<Multiaddr>,
    /// Its encapsulation key.
    pub kem: CombinerPublicKey,
    /// The nodes it hosts.
    pub addrs: Vec<Addr>,
}

/// The public identity key inside an Ed25519 peer id (its identity multihash).
pub(crate) fn identity_of(peer: &PeerId) -> Option<PublicKey> {
    let mh = peer.as_ref();
    (mh.code() == 0).then(|| PublicKey::try_decode_protobuf(mh.digest()).ok())?
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
    /// of `per` nodes each, listening on 127.0.0.1 from `port` up; the last `browser` of
    /// them are browser processes, and with any, every native process also accepts
    /// WebSockets on `port + 100 + its index`. Writes the roster and one fresh identity key
    /// per process.
    pub(crate) fn generate(
        dir: &Path,
        parties: u16,
        per: u16,
        port: u16,
        browser: usize,
    ) -> Result<Roster, String> {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let mut groups: Vec<Vec<Addr>> = vec![vec![0]];
        let ids: Vec<Addr> = (1..=parties).collect();
        groups.extend(ids.chunks(usize::from(per.max(1))).map(<[Addr]>::to_vec));
        let count = groups.len();
        if browser >= count {
            return Err(format!(
                "{browser} browser process(es) of {count}: process 0 (the conductor) must be native"
            ));
        }
        let mut processes = Vec::new();
        let mut rng = crate::node::fresh_rng();
        for (i, addrs) in groups.into_iter().enumerate() {
            let key = Keypair::generate_ed25519();
            let encoded = Zeroizing::new(
                key.to_protobuf_encoding()
                    .map_err(|e| format!("cannot encode a key: {e}"))?,
            );
            // The KEM key's id is the process index + 1 (ids are nonzero); only its bytes matter.
            let kem_id = PartyId::new(u16::try_from(i + 1).map_err(|_| "too many processes".to_string())?)
                .ok_or("too many processes")?;
            let kem = CombinerKey::generate(kem_id, &mut rng);
            let secrets = Zeroizing::new(
                serde_json::to_string(&Secrets {
                    identity: hex(&encoded),
                    kem: hex(&kem.to_bytes()),
                })
                .map_err(|e| e.to_string())?,
            );
            let path = key_path(dir, i);
            write_secret(&path, &secrets)?;
            let port_of = |offset: usize| {
                u16::try_from(usize::from(port) + offset + i).map_err(|_| "port out of range".to_string())
            };
            let in_browser = i >= count - browser;
            processes.push(Entry {
                peer: key.public().to_peer_id().to_base58(),
                listen: if in_browser {
                    BROWSER.into()
                } else {
                    format!("/ip4/127.0.0.1/tcp/{}", port_of(0)?)
                },
                ws: (browser > 0 && !in_browser)
                    .then(|| port_of(100).map(|p| format!("/ip4/127.0.0.1/tcp/{p}/ws")))
                    .transpose()?,
                kem: hex(&kem.public_key().to_bytes()),
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
            let identity = identity_of(&peer)
                .ok_or_else(|| format!("process {index}: peer id '{}' holds no Ed25519 key", e.peer))?;
            let listen: Option<Multiaddr> = match e.listen.as_str() {
                BROWSER => None,
                a => Some(
                    a.parse()
                        .map_err(|_| format!("process {index}: bad address '{a}'"))?,
                ),
            };
            let ws: Option<Multiaddr> = match &e.ws {
                None => None,
                Some(a) => Some(
                    a.parse()
                        .map_err(|_| format!("process {index}: bad WebSocket address '{a}'"))?,
                ),
            };
            let kem = unhex(&e.kem)
                .and_then(|b| CombinerPublicKey::from_bytes(&b).ok())
                .ok_or_else(|| format!("process {index}: bad ML-KEM-768 encapsulation key"))?;
            for &a in &e.addrs {
                if !seen.insert(a) {
                    return Err(format!("node {a} is hosted twice"));
                }
            }
            out.push(Process {
                index,
                peer,
                identity,
                listen,
                ws,
                kem,
                addrs: e.addrs,
            });
        }
        if out
            .first()
            .is_none_or(|p| !p.addrs.contains(&0) || p.listen.is_none())
        {
            return Err("process 0 must be native and host node 0 (the hub and the conductor)".into());
        }
        Ok(out)
    }

    /// Process `index`'s secret keys: its identity and its decapsulation key.
    pub(crate) fn keys(dir: &Path, index: usize) -> Result<(Keypair, CombinerKey), String> {
        let path = key_path(dir, index);
        let text = Zeroizing::new(
            fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?,
        );
        let secrets: Secrets =
            serde_json::from_str(&text).map_err(|_| format!("{}: not a key file", path.display()))?;
        let bad = || format!("{}: not a key file", path.display());
        let identity = Zeroizing::new(unhex(&secrets.identity).ok_or_else(bad)?);
        let kem = Zeroizing::new(unhex(&secrets.kem).ok_or_else(bad)?);
        let identity = Keypair::from_protobuf_encoding(&identity).map_err(|_| bad())?;
        let kem = CombinerKey::from_bytes(&kem).map_err(|_| bad())?;
        Ok((identity, kem))
    }
}

/// Writes a secret file, readable by its owner only (Unix: created with mode 0600).
fn write_secret(path: &Path, text: &str) -> Result<(), String> {
    use std::io::Write;
    let mut options = fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut f = options
        .open(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    f.write_all(text.as_bytes())
        .and_then(|()| f.write_all(b"\n"))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_browser_process_listens_nowhere_and_every_native_one_also_on_websocket() {
        let dir = tempfile::tempdir().unwrap();
        let roster = Roster::generate(dir.path(), 3, 1, 41000, 1).unwrap();
        let p = Roster::load(dir.path()).unwrap();
        assert_eq!(roster.processes.len(), 4);
        assert_eq!(roster.processes[3].listen, BROWSER);
        assert!(p[3].listen.is_none() && p[3].ws.is_none());
        for (i, n) in p.iter().take(3).enumerate() {
            assert_eq!(
                n.listen.as_ref().unwrap().to_string(),
                format!("/ip4/127.0.0.1/tcp/{}", 41000 + i)
            );
            assert_eq!(
                n.ws.as_ref().unwrap().to_string(),
                format!("/ip4/127.0.0.1/tcp/{}/ws", 41100 + i)
            );
        }
        // Its keys are written like any process's (a page is handed them).
        assert!(Roster::keys(dir.path(), 3).is_ok());
        // Without browser processes nobody listens on WebSocket; the conductor is never one.
        Roster::generate(dir.path(), 3, 1, 41000, 0).unwrap();
        assert!(Roster::load(dir.path())
            .unwrap()
            .iter()
            .all(|p| p.ws.is_none() && p.listen.is_some()));
        assert!(Roster::generate(dir.path(), 3, 3, 41000, 2).is_err());
    }
}
