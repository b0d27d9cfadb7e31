//! Writes the known-answer vectors to `kats/` and `kats/manifest.sha256`.
//!
//! `cargo run --bin genkat` regenerates them; `cargo run --bin genkat -- --check` only
//! compares and exits non-zero on any difference.

use std::path::Path;
use std::process::ExitCode;

use sha2::{Digest, Sha256};

fn main() -> ExitCode {
    let check = std::env::args().any(|a| a == "--check");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("kats");
    let files = quasar_pq::kat::all();
    let mut manifest = String::new();
    let mut differ = 0;
    for (name, contents) in &files {
        manifest.push_str(&format!(
            "{}  {name}\n",
            quasar_pq::kat::hex(&Sha256::digest(contents.as_bytes()))
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
