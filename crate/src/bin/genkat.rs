//! Writes the known-answer vectors to `kats/` and `kats/manifest.sha256`.
//!
//! `cargo run --features sim --bin genkat` regenerates them; `… -- --check` only compares
//! and exits non-zero on any difference (the test suite runs it).
//!
//! Every input is drawn from a SHAKE256 stream of a fixed, labelled seed, so a vector file
//! depends only on the code that produced it. Each file is `{"name", "generator", "cases":
//! [...]}` (`corona.json` adds its sampler vectors and a flat list of signatures) with byte
//! strings in lower-case hex.
//!
//! | file | contents |
//! |---|---|
//! | `mldsa.json` | ML-DSA keygen, deterministic and hedged signatures |
//! | `pulsar.json` | Pulsar custody: DKG, key ceremony, key certification, signing, resharing with activation |
//! | `lens.json` | Lens (FROST) per curve: dealer or DKG keygen, signing, resharing with activation |
//! | `cert.json` | finality certificates under every policy, valid and invalid, and a light client across an epoch change |
//! | `committee.json` | Pulsar committee: distributed key generation and signing per level (through the float sampler) |
//! | `corona.json` | Corona: ExpandA and SampleInBall digests, trusted-dealer keys and signing sessions at (2,3), (3,5), (4,7) |
//!
//! # Protocol vectors: one RNG per party, and a hash of every message
//!
//! In `pulsar.json` and `lens.json` every party, the combiner and the dealer owns its own
//! `rand_chacha::ChaCha20Rng::from_seed(seed)`, with the seed recorded in the file, and
//! passes it to each lifecycle path it starts (`start` draws everything the path's first
//! phase needs, and a seed for its later phases). Any implementation that starts the same
//! parties in the same order per party — the WebAssembly party objects do — draws the same
//! bytes, whatever order the parties run in. The parties run in the library's simulator
//! (`party::sim`), every message as bytes. A file records, per phase and overall,
//!
//! `sha256( for each message in order: u32_be(len(message)) ‖ message )`
//!
//! (`phases[i].sha256`, `messages_sha256`) with the message counts, in the simulator's
//! order: round by round, each party in increasing id order, its broadcast then its
//! private messages by increasing recipient. A run that spans several phases (the Pulsar
//! setup path) files each message under the phase its kind belongs to, in that order.

#[path = "genkat/cert.rs"]
mod cert;
#[path = "genkat/committee.rs"]
mod committee;
#[path = "genkat/corona.rs"]
mod corona;
#[path = "genkat/format.rs"]
mod format;
#[path = "genkat/lens.rs"]
mod lens;
#[path = "genkat/mldsa.rs"]
mod mldsa;
#[path = "genkat/pulsar.rs"]
mod pulsar;

use std::path::Path;
use std::process::ExitCode;

use sha2::{Digest, Sha256};

/// Every vector file: (file name under `kats/`, contents).
fn all() -> Vec<(&'static str, String)> {
    vec![
        ("mldsa.json", mldsa::mldsa()),
        ("pulsar.json", pulsar::pulsar()),
        ("lens.json", lens::lens()),
        ("cert.json", cert::cert()),
        ("committee.json", committee::committee()),
        ("corona.json", corona::corona()),
    ]
}

fn main() -> ExitCode {
    let check = std::env::args().any(|a| a == "--check");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("kats");
    let files = all();
    let mut manifest = String::new();
    let mut differ = 0;
    for (name, contents) in &files {
        manifest.push_str(&format!(
            "{}  {name}\n",
            format::hex(&Sha256::digest(contents.as_bytes()))
        ));
    }
    let mut outputs: Vec<(String, String)> = files.into_iter().map(|(n, c)| (n.to_string(), c)).collect();
    outputs.push(("manifest.sha256".to_string(), manifest));
    for (name, contents) in &outputs {
        let path = dir.join(name);
        let same = std::fs::read_to_string(&path).is_ok_and(|old| old == *contents);
        if same {
            continue;
        }
        differ += 1;
        if check {
            eprintln!("genkat: {} differs from what the code produces", path.display());
        } else if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, contents)) {
            eprintln!("genkat: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        } else {
            println!("genkat: wrote {}", path.display());
        }
    }
    if check && differ > 0 {
        return ExitCode::FAILURE;
    }
    println!(
        "genkat: {} files {}",
        outputs.len(),
        if differ == 0 { "unchanged" } else { "updated" }
    );
    ExitCode::SUCCESS
}
