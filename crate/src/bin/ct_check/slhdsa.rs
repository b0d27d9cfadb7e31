//! SLH-DSA (FIPS 205): key generation from secret seeds and hedged signing with secret
//! randomness, for the fast SHAKE sets, on the four-way Keccak backend Valgrind can run
//! (AVX2; it has no AVX-512) and on the portable one.

use quasar_pq::hash::keccak_x4::{self, Backend};
use quasar_pq::slhdsa::{self, Mode};

use crate::rng::secret_bytes;
use crate::{path, Path};

pub(crate) fn paths() -> Vec<Path> {
    let mut out = Vec::new();
    for (mode, n) in [
        (Mode::Shake128f, 16),
        (Mode::Shake192f, 24),
        (Mode::Shake256f, 32),
    ] {
        out.push(path(
            format!("slhdsa/keygen+sign/{}/avx2", mode.name()),
            move || {
                keccak_x4::set_backend(Backend::Avx2);
                keygen_sign(mode, n);
                keccak_x4::set_backend(Backend::Auto);
            },
        ));
    }
    out.push(path("slhdsa/keygen+sign/SLH-DSA-SHAKE-128f/portable", || {
        keccak_x4::set_backend(Backend::Portable);
        keygen_sign(Mode::Shake128f, 16);
        keccak_x4::set_backend(Backend::Auto);
    }));
    out
}

fn keygen_sign(mode: Mode, n: usize) {
    let sk_seed = secret_bytes::<32>("slh sk.seed");
    let sk_prf = secret_bytes::<32>("slh sk.prf");
    // PK.seed is public (part of the public key).
    let pk_seed = [7u8; 32];
    let (pk, sk) = slhdsa::keygen(mode, &sk_seed[..n], &sk_prf[..n], &pk_seed[..n]).expect("keygen");
    let rnd = secret_bytes::<32>("slh addrnd");
    let sig = slhdsa::sign(mode, &sk, b"slh block", b"ctx", Some(&rnd[..n])).expect("sign");
    slhdsa::verify(mode, &pk, b"slh block", b"ctx", &sig).expect("verify");
}
