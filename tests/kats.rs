//! The committed known-answer vectors are exactly what the code produces
//! (`cargo run --bin genkat` regenerates them).

use std::path::Path;

use sha2::{Digest, Sha256};

#[test]
fn committed_vectors_match_a_fresh_regeneration() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("kats");
    let files = quasar_pq::kat::all();
    assert!(!files.is_empty());
    let mut manifest = String::new();
    for (name, contents) in &files {
        let committed = std::fs::read_to_string(dir.join(name))
            .unwrap_or_else(|e| panic!("kats/{name}: {e} (run `cargo run --bin genkat`)"));
        assert!(committed == *contents, "kats/{name} differs from a fresh regeneration (run `cargo run --bin genkat`)");
        manifest.push_str(&format!("{}  {name}\n", quasar_pq::kat::hex(&Sha256::digest(contents.as_bytes()))));
    }
    let committed = std::fs::read_to_string(dir.join("manifest.sha256")).expect("kats/manifest.sha256");
    assert_eq!(committed, manifest);
}
