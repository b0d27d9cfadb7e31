//! AFL++ target: the Pulsar group key record (`PCGK`, with its `PULG` frame and `LSA2`
//! certificate inside). A record that decodes must re-encode to exactly its input: a decoder
//! accepting two encodings of one value is a false accept (as in `tests/fuzz.rs`).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Ok(k) = quasar_pq::pulsar::custody::GroupKey::from_bytes(data) {
            assert_eq!(k.to_bytes(), data, "PCGK: a non-canonical encoding decodes");
        }
    });
}
