//! AFL++ target: the encrypted share snapshot (`QSNP`, its metadata and framing; the AEAD is
//! not opened). A snapshot that decodes must re-encode to exactly its input (as in
//! `tests/suite/fuzz.rs`).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Ok(s) = quasar_pq::keystore::Snapshot::from_bytes(data) {
            assert_eq!(s.to_bytes(), data, "QSNP: a non-canonical encoding decodes");
        }
    });
}
