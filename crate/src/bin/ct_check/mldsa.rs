//! ML-DSA (FIPS 204): key generation from a secret seed, secret-key decoding, signing
//! (hedged, with secret randomness) and the public key rebuilt from a decoded secret key,
//! for each parameter set. Signatures are checked, so a missed declassification of the
//! output shows up in verification.

use quasar_pq::ct;
use quasar_pq::mldsa::{self, Mode};

use crate::rng::secret_bytes;
use crate::{path, Path};

const MODES: [Mode; 3] = [Mode::MlDsa44, Mode::MlDsa65, Mode::MlDsa87];

pub(crate) fn paths() -> Vec<Path> {
    let mut out = Vec::new();
    for mode in MODES {
        let name = mode.name();
        out.push(path(format!("mldsa/keygen/{name}"), move || {
            let seed = secret_bytes::<32>("mldsa keygen");
            let (pk, _sk) = mldsa::keygen(mode, &seed);
            assert_eq!(pk.len(), mode.public_key_len());
        }));
        out.push(path(format!("mldsa/sign/{name}"), move || sign(mode)));
        out.push(path(format!("mldsa/sk-decode/{name}"), move || {
            let (_, sk) = mldsa::keygen(mode, &[5; 32]);
            ct::secret_slice(&sk);
            let vk = rebuilt_public_key(mode, &sk);
            assert_eq!(vk, mldsa::keygen(mode, &[5; 32]).0);
        }));
    }
    out
}

/// Three messages, so that the attempts take every rejection branch somewhere.
fn sign(mode: Mode) {
    let (pk, sk) = mldsa::keygen(mode, &[9; 32]);
    ct::secret_slice(&sk);
    for (i, msg) in [&b"block 42"[..], b"block 43", b"a longer message of many bytes"]
        .iter()
        .enumerate()
    {
        let rnd = secret_bytes::<32>(&format!("mldsa rnd {i}"));
        let sig = mldsa::sign(mode, &sk, msg, b"ctx", Some(&rnd)).expect("sign");
        mldsa::verify(mode, &pk, msg, b"ctx", &sig).expect("verify");
    }
}

/// SigningKey::from_bytes (skDecode with its range check) and verifying_key (t from s1, s2).
fn rebuilt_public_key(mode: Mode, sk: &[u8]) -> Vec<u8> {
    use mldsa::{MlDsa44, MlDsa65, MlDsa87, SigningKey};
    match mode {
        Mode::MlDsa44 => SigningKey::<MlDsa44>::from_bytes(sk)
            .expect("sk")
            .verifying_key()
            .to_bytes(),
        Mode::MlDsa65 => SigningKey::<MlDsa65>::from_bytes(sk)
            .expect("sk")
            .verifying_key()
            .to_bytes(),
        Mode::MlDsa87 => SigningKey::<MlDsa87>::from_bytes(sk)
            .expect("sk")
            .verifying_key()
            .to_bytes(),
    }
}
