//! The peer SLH-DSA implementations behind one small, byte-oriented interface, for the
//! interop tests (`tests/interop/slhdsa.rs`) and the benches (`benches/slhdsa.rs`, which
//! includes this file by path).
//!
//! Every peer is driven through the **pure** interface (FIPS 205 Alg. 22 / 24) with a
//! context:
//! - `fips205` 0.5: `KG::keygen_from_seed(SK.seed, SK.prf, PK.seed)`;
//!   `PrivateKey::try_sign_with_rng(rng, M, ctx, hedged)` — hedged draws opt_rand from the
//!   RNG, so a fixed-output RNG supplies `addrnd`; `hedged = false` is opt_rand = PK.seed;
//!   `PublicKey::verify(M, σ, ctx)`. Its `PrivateKey::try_from_bytes` re-runs key
//!   generation to check PK.root, so keys are decoded once, outside any timing loop.
//! - RustCrypto `slh-dsa` 0.2.0-rc.5: `SigningKey::slh_keygen_internal(SK.seed, SK.prf,
//!   PK.seed)`; `try_sign_with_context(M, ctx, opt_rand)` with `None` = PK.seed;
//!   `VerifyingKey::try_verify_with_context(M, ctx, σ)`.
// The per-set wrappers are made by macros inside `pub mod`s that tests and benches reach
// through different paths; their visibility is the module's, not the crate's.
#![allow(unreachable_pub)]
#![allow(dead_code, deprecated)]

use quasar_pq::slhdsa::Mode;

/// A decoded signing key: signs (M, ctx, addrnd) through the pure interface.
pub(crate) type Signer = Box<dyn Fn(&[u8], &[u8], Option<&[u8]>) -> Vec<u8>>;
/// A decoded public key: verifies (M, ctx, σ); false also for undecodable input.
pub(crate) type Verifier = Box<dyn Fn(&[u8], &[u8], &[u8]) -> bool>;

/// slh_keygen_internal(SK.seed, SK.prf, PK.seed) → (pk, sk) encodings.
pub(crate) type KeygenFn = fn(&[u8], &[u8], &[u8]) -> (Vec<u8>, Vec<u8>);

/// One peer implementation of one parameter set.
pub(crate) struct Peer {
    /// `fips205` or `rustcrypto`.
    pub name: &'static str,
    /// The parameter set.
    pub mode: Mode,
    /// slh_keygen_internal(SK.seed, SK.prf, PK.seed) → (pk, sk) encodings.
    pub keygen: KeygenFn,
    /// Decodes a secret key (may be slow: fips205 re-derives PK.root).
    pub signer: fn(&[u8]) -> Signer,
    /// Decodes a public key.
    pub verifier: fn(&[u8]) -> Verifier,
}

/// An RNG that hands out fixed bytes: the `addrnd` for fips205's hedged signing.
pub(crate) struct FixedRng(pub Vec<u8>);

impl rand_core::RngCore for FixedRng {
    fn next_u32(&mut self) -> u32 {
        unimplemented!("fips205 only fills bytes")
    }
    fn next_u64(&mut self) -> u64 {
        unimplemented!("fips205 only fills bytes")
    }
    fn fill_bytes(&mut self, out: &mut [u8]) {
        assert_eq!(out.len(), self.0.len(), "addrnd length");
        out.copy_from_slice(&self.0);
    }
    fn try_fill_bytes(&mut self, out: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill_bytes(out);
        Ok(())
    }
}
impl rand_core::CryptoRng for FixedRng {}

macro_rules! peer_set {
    ($m:ident, $fips:ident, $rc:ty) => {
        pub mod $m {
            use super::{FixedRng, Signer, Verifier};
            use fips205::traits::{KeyGen as _, SerDes as _, Signer as _, Verifier as _};
            use fips205::$fips as f;

            pub fn fips_keygen(sk_seed: &[u8], sk_prf: &[u8], pk_seed: &[u8]) -> (Vec<u8>, Vec<u8>) {
                let arr = |x: &[u8]| -> [u8; f::N] { x.try_into().expect("seed length") };
                let (pk, sk) = f::KG::keygen_from_seed(&arr(sk_seed), &arr(sk_prf), &arr(pk_seed));
                (pk.into_bytes().to_vec(), sk.into_bytes().to_vec())
            }
            pub fn fips_signer(sk: &[u8]) -> Signer {
                let sk =
                    f::PrivateKey::try_from_bytes(sk.try_into().expect("sk length")).expect("fips205 sk");
                Box::new(move |msg, ctx, addrnd| {
                    let mut rng = FixedRng(addrnd.map_or_else(Vec::new, <[u8]>::to_vec));
                    sk.try_sign_with_rng(&mut rng, msg, ctx, addrnd.is_some())
                        .expect("fips205 sign")
                        .to_vec()
                })
            }
            pub fn fips_verifier(pk: &[u8]) -> Verifier {
                let pk = f::PublicKey::try_from_bytes(pk.try_into().expect("pk length")).expect("fips205 pk");
                Box::new(
                    move |msg, ctx, sig| match <&[u8; f::SIG_LEN]>::try_from(sig) {
                        Ok(sig) => pk.verify(msg, sig, ctx),
                        Err(_) => false,
                    },
                )
            }

            type Rc = $rc;
            pub fn rc_keygen(sk_seed: &[u8], sk_prf: &[u8], pk_seed: &[u8]) -> (Vec<u8>, Vec<u8>) {
                let sk = slh_dsa::SigningKey::<Rc>::slh_keygen_internal(sk_seed, sk_prf, pk_seed);
                let pk = slh_dsa::VerifyingKey::<Rc>::clone(sk.as_ref());
                (pk.to_vec(), sk.to_vec())
            }
            pub fn rc_signer(sk: &[u8]) -> Signer {
                let sk = slh_dsa::SigningKey::<Rc>::try_from(sk).expect("slh-dsa sk");
                Box::new(move |msg, ctx, addrnd| {
                    let sig = sk
                        .try_sign_with_context(msg, ctx, addrnd)
                        .expect("slh-dsa sign");
                    Vec::<u8>::from(&sig)
                })
            }
            pub fn rc_verifier(pk: &[u8]) -> Verifier {
                let pk = slh_dsa::VerifyingKey::<Rc>::try_from(pk).expect("slh-dsa pk");
                Box::new(
                    move |msg, ctx, sig| match slh_dsa::Signature::<Rc>::try_from(sig) {
                        Ok(sig) => pk.try_verify_with_context(msg, ctx, &sig).is_ok(),
                        Err(_) => false,
                    },
                )
            }
        }
    };
}

peer_set!(shake128s, slh_dsa_shake_128s, slh_dsa::Shake128s);
peer_set!(shake128f, slh_dsa_shake_128f, slh_dsa::Shake128f);
peer_set!(shake192s, slh_dsa_shake_192s, slh_dsa::Shake192s);
peer_set!(shake192f, slh_dsa_shake_192f, slh_dsa::Shake192f);
peer_set!(shake256s, slh_dsa_shake_256s, slh_dsa::Shake256s);
peer_set!(shake256f, slh_dsa_shake_256f, slh_dsa::Shake256f);

/// Both peers for `mode`.
pub(crate) fn peers(mode: Mode) -> Vec<Peer> {
    macro_rules! both {
        ($m:ident) => {
            vec![
                Peer {
                    name: "fips205",
                    mode,
                    keygen: $m::fips_keygen,
                    signer: $m::fips_signer,
                    verifier: $m::fips_verifier,
                },
                Peer {
                    name: "rustcrypto",
                    mode,
                    keygen: $m::rc_keygen,
                    signer: $m::rc_signer,
                    verifier: $m::rc_verifier,
                },
            ]
        };
    }
    match mode {
        Mode::Shake128s => both!(shake128s),
        Mode::Shake128f => both!(shake128f),
        Mode::Shake192s => both!(shake192s),
        Mode::Shake192f => both!(shake192f),
        Mode::Shake256s => both!(shake256s),
        Mode::Shake256f => both!(shake256f),
        #[allow(unreachable_patterns)]
        other => panic!("no peers for {other:?}"),
    }
}
