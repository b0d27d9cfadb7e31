//! AFL++ target: the LSS activation certificate (`LSA2`). A certificate that decodes must
//! re-encode to exactly its input (as in `tests/suite/fuzz.rs`).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Ok(c) = quasar_pq::lss::ActivationCertificate::from_bytes(data) {
            assert_eq!(c.to_bytes(), data, "LSA2: a non-canonical encoding decodes");
        }
    });
}
