//! ML-DSA-65 from Rust: a key from a seed, a hedged signature bound to a context,
//! verification (`cargo run --example mldsa`).
use quasar_pq::mldsa::{MlDsa65, SigningKey};

fn main() -> Result<(), quasar_pq::mldsa::Error> {
    let (seed, rnd) = ([7u8; 32], [9u8; 32]); // use your CSPRNG for both
    let sk = SigningKey::<MlDsa65>::from_seed(&seed); // 32-byte seed ξ
    let sig = sk.sign(b"block 42", b"my-chain", &rnd)?; // hedged; sign_deterministic() also
    let vk = sk.verifying_key();
    vk.verify(b"block 42", b"my-chain", &sig)?; // Err(InvalidSignature) if not
    let prepared = vk.prepare(); // expand once, verify many: ~3x faster
    println!(
        "valid: {}",
        prepared.verify(b"block 42", b"my-chain", &sig).is_ok()
    );
    println!(
        "other message: {}",
        vk.verify(b"block 43", b"my-chain", &sig).is_ok()
    );
    Ok(())
}
