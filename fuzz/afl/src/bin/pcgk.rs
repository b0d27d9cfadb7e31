//! AFL++ target: the Pulsar group key record (`PCGK`, with its `PULG` frame and `LSA2`
//! certificate inside), read as every consumer reads it — against a sharing
//! (`GroupKey::from_bytes(record, sharing)`, the one strict check). An input is
//! `u32 length ‖ LSG1 sharing ‖ PCGK record` (`seeds.py` writes them from the known-answer
//! vectors). A record that is accepted must re-encode to exactly its input: a decoder
//! accepting two encodings of one value is a false accept (as in `tests/suite/fuzz.rs`).

use quasar_pq::lss::GroupPublic;
use quasar_pq::pulsar::custody::GroupKey;
use quasar_pq::vss::Ristretto255;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let Some((len, rest)) = data.split_first_chunk::<4>() else {
            return;
        };
        let Some((sharing, record)) = rest.split_at_checked(u32::from_be_bytes(*len) as usize) else {
            return;
        };
        let Ok(public) = GroupPublic::<Ristretto255>::from_bytes(sharing) else {
            return;
        };
        if let Ok(k) = GroupKey::from_bytes(record, &public) {
            assert_eq!(k.to_bytes(), record, "PCGK: a non-canonical encoding is accepted");
        }
    });
}
