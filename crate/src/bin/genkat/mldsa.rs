//! `kats/mldsa.json`.

use quasar_pq::mldsa::{self, Mode};

use crate::format::{file, Obj, Stream};

/// ML-DSA vectors: per set, keygen from a seed, then deterministic and hedged signatures
/// over the pure interface with a context, and each signature's verdict.
pub(crate) fn mldsa() -> String {
    let mut cases = Vec::new();
    for mode in Mode::ALL {
        let mut s = Stream::new(&format!("mldsa/{}", mode.name()));
        for i in 0..4u64 {
            let seed = s.array32();
            let msg_len = s.below(200);
            let msg = s.bytes(msg_len);
            let ctx_len = s.below(40);
            let ctx = s.bytes(ctx_len);
            let rnd = s.array32();
            let (pk, sk) = mldsa::keygen(mode, &seed);
            // The vectors are made by this code, so signing cannot fail here.
            let det = mldsa::sign(mode, &sk, &msg, &ctx, None).unwrap_or_default();
            let hedged = mldsa::sign(mode, &sk, &msg, &ctx, Some(&rnd)).unwrap_or_default();
            cases.push(
                Obj::default()
                    .str("set", mode.name())
                    .int("index", i)
                    .bytes("seed", &seed)
                    .bytes("message", &msg)
                    .bytes("context", &ctx)
                    .bytes("rnd", &rnd)
                    .bytes("public_key", &pk)
                    .bytes("secret_key", &sk)
                    .bytes("signature_deterministic", &det)
                    .bytes("signature_hedged", &hedged)
                    .bool("valid", mldsa::verify(mode, &pk, &msg, &ctx, &hedged).is_ok()),
            );
        }
    }
    file("ML-DSA (FIPS 204), pure interface", &cases)
}
