//! The peer ML-DSA implementations behind one small, byte-oriented interface, for the interop
//! tests (`tests/interop/mldsa.rs`) and the benches (`benches/mldsa.rs`, which includes this
//! file by path). Every operation starts from bytes, as ours does: keygen from the 32-byte
//! seed ξ, signing from the encoded secret key, verifying from the encoded public key.
//!
//! All signing here is the **pure** interface (FIPS 204 Alg. 2 / Alg. 3) with a context:
//! - RustCrypto `ml-dsa` 0.1: `ExpandedSigningKey::sign_deterministic(M, ctx)` (pure, rnd = 0);
//!   for a non-zero rnd it has only `sign_randomized` (an RNG) or `sign_internal(M′, rnd)`, so we
//!   call `sign_internal` on M′ = 0x00 ‖ |ctx| ‖ ctx ‖ M, which is exactly Alg. 2 lines 10–11.
//!   Verification: `VerifyingKey::verify_with_context(M, ctx, σ)` (pure).
//! - `fips204` 0.5: `PrivateKey::try_sign_with_seed(rnd, M, ctx)` (pure; rnd = 0 is the
//!   deterministic variant) and `PublicKey::verify(M, σ, ctx)` (pure).
//! - `libcrux-ml-dsa` 0.0.11: `ml_dsa_NN::sign(sk, M, ctx, rnd)` and `verify(vk, M, ctx, σ)`
//!   (pure), both the run-time dispatching entry points (AVX2 where the CPU has it, since the
//!   `simd256` feature is on) and `ml_dsa_NN::portable::*`.
//!
//! `tests/interop/mldsa.rs::peers_bind_the_context` checks that each of these really uses the context.
// The per-set wrappers are made by macros inside `pub mod`s that tests and benches reach
// through different paths; their visibility is the module's, not the crate's.
#![allow(unreachable_pub)]
#![allow(dead_code, deprecated)]

use quasar_pq::mldsa::Mode;

/// ML-DSA.KeyGen_internal(ξ) → (pk, sk) encodings.
pub(crate) type KeygenFn = fn(&[u8; 32]) -> (Vec<u8>, Vec<u8>);
/// Pure ML-DSA.Sign(sk, M, ctx) with the given rnd ({0}^32 = deterministic).
pub(crate) type SignFn = fn(sk: &[u8], msg: &[u8], ctx: &[u8], rnd: &[u8; 32]) -> Result<Vec<u8>, String>;
/// Pure ML-DSA.Verify(pk, M, σ, ctx); false also for undecodable input.
pub(crate) type VerifyFn = fn(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool;

/// One peer implementation of one parameter set.
#[derive(Clone, Copy)]
pub(crate) struct Peer {
    /// Short name used in test messages and bench ids: `rustcrypto`, `fips204`, `libcrux`,
    /// `libcrux-portable`.
    pub name: &'static str,
    /// The parameter set.
    pub mode: Mode,
    /// ML-DSA.KeyGen_internal(ξ) → (pk, sk) encodings.
    pub keygen: KeygenFn,
    /// Pure ML-DSA.Sign(sk, M, ctx) with the given rnd ({0}^32 = deterministic).
    pub sign: SignFn,
    /// Pure ML-DSA.Verify(pk, M, σ, ctx); false also for undecodable input.
    pub verify: VerifyFn,
}

macro_rules! peer_set {
    ($m:ident, $rc:ty, $fips:ident, $lc:ident) => {
        pub mod $m {
            use fips204::traits::{KeyGen as _, SerDes as _, Signer as _, Verifier as _};
            use ml_dsa::{EncodedVerifyingKey, ExpandedSigningKey, ExpandedSigningKeyBytes};

            type Rc = $rc;

            // ---- RustCrypto ml-dsa ----
            pub fn rc_keygen(seed: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
                let kp = ml_dsa::SigningKey::<Rc>::from_seed(&(*seed).into());
                let esk = kp.expanded_key();
                (
                    esk.verifying_key().encode().to_vec(),
                    esk.to_expanded().to_vec(),
                )
            }
            pub fn rc_sign(sk: &[u8], msg: &[u8], ctx: &[u8], rnd: &[u8; 32]) -> Result<Vec<u8>, String> {
                let bytes = ExpandedSigningKeyBytes::<Rc>::try_from(sk)
                    .map_err(|_| format!("rustcrypto: sk length {}", sk.len()))?;
                let esk = ExpandedSigningKey::<Rc>::from_expanded(&bytes);
                if *rnd == [0u8; 32] {
                    esk.sign_deterministic(msg, ctx)
                        .map(|s| s.encode().to_vec())
                        .map_err(|e| format!("rustcrypto: {e}"))
                } else {
                    let len = u8::try_from(ctx.len()).map_err(|_| "rustcrypto: ctx > 255".to_string())?;
                    Ok(esk
                        .sign_internal(&[&[0u8, len], ctx, msg], &(*rnd).into())
                        .encode()
                        .to_vec())
                }
            }
            pub fn rc_verify(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
                let Ok(pk) = EncodedVerifyingKey::<Rc>::try_from(pk) else {
                    return false;
                };
                let Ok(sig) = ml_dsa::Signature::<Rc>::try_from(sig) else {
                    return false;
                };
                ml_dsa::VerifyingKey::<Rc>::decode(&pk).verify_with_context(msg, ctx, &sig)
            }

            // ---- fips204 ----
            pub fn fips_keygen(seed: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
                let (pk, sk) = fips204::$fips::KG::keygen_from_seed(seed);
                (pk.into_bytes().to_vec(), sk.into_bytes().to_vec())
            }
            pub fn fips_sign(sk: &[u8], msg: &[u8], ctx: &[u8], rnd: &[u8; 32]) -> Result<Vec<u8>, String> {
                let arr = sk
                    .try_into()
                    .map_err(|_| format!("fips204: sk length {}", sk.len()))?;
                let sk =
                    fips204::$fips::PrivateKey::try_from_bytes(arr).map_err(|e| format!("fips204: {e}"))?;
                sk.try_sign_with_seed(rnd, msg, ctx)
                    .map(|s| s.to_vec())
                    .map_err(|e| format!("fips204: {e}"))
            }
            pub fn fips_verify(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
                let Ok(pk) = pk.try_into() else { return false };
                let Ok(sig) = <[u8; fips204::$fips::SIG_LEN]>::try_from(sig) else {
                    return false;
                };
                let Ok(pk) = fips204::$fips::PublicKey::try_from_bytes(pk) else {
                    return false;
                };
                pk.verify(msg, &sig, ctx)
            }

            // ---- libcrux-ml-dsa ----
            use libcrux_ml_dsa::$lc as lc;
            fn lc_sk(
                sk: &[u8],
            ) -> Result<libcrux_ml_dsa::MLDSASigningKey<{ fips204::$fips::SK_LEN }>, String> {
                Ok(libcrux_ml_dsa::MLDSASigningKey::new(
                    sk.try_into()
                        .map_err(|_| format!("libcrux: sk length {}", sk.len()))?,
                ))
            }
            pub fn lc_keygen(seed: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
                let kp = lc::generate_key_pair(*seed);
                (
                    kp.verification_key.as_slice().to_vec(),
                    kp.signing_key.as_slice().to_vec(),
                )
            }
            pub fn lc_sign(sk: &[u8], msg: &[u8], ctx: &[u8], rnd: &[u8; 32]) -> Result<Vec<u8>, String> {
                lc::sign(&lc_sk(sk)?, msg, ctx, *rnd)
                    .map(|s| s.as_slice().to_vec())
                    .map_err(|e| format!("libcrux: {e:?}"))
            }
            pub fn lc_verify(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
                let (Ok(pk), Ok(sig)) = (pk.try_into(), sig.try_into()) else {
                    return false;
                };
                lc::verify(
                    &libcrux_ml_dsa::MLDSAVerificationKey::new(pk),
                    msg,
                    ctx,
                    &libcrux_ml_dsa::MLDSASignature::new(sig),
                )
                .is_ok()
            }
            pub fn lcp_keygen(seed: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
                let kp = lc::portable::generate_key_pair(*seed);
                (
                    kp.verification_key.as_slice().to_vec(),
                    kp.signing_key.as_slice().to_vec(),
                )
            }
            pub fn lcp_sign(sk: &[u8], msg: &[u8], ctx: &[u8], rnd: &[u8; 32]) -> Result<Vec<u8>, String> {
                lc::portable::sign(&lc_sk(sk)?, msg, ctx, *rnd)
                    .map(|s| s.as_slice().to_vec())
                    .map_err(|e| format!("libcrux-portable: {e:?}"))
            }
            pub fn lcp_verify(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
                let (Ok(pk), Ok(sig)) = (pk.try_into(), sig.try_into()) else {
                    return false;
                };
                lc::portable::verify(
                    &libcrux_ml_dsa::MLDSAVerificationKey::new(pk),
                    msg,
                    ctx,
                    &libcrux_ml_dsa::MLDSASignature::new(sig),
                )
                .is_ok()
            }
        }
    };
}

peer_set!(p44, ml_dsa::MlDsa44, ml_dsa_44, ml_dsa_44);
peer_set!(p65, ml_dsa::MlDsa65, ml_dsa_65, ml_dsa_65);
peer_set!(p87, ml_dsa::MlDsa87, ml_dsa_87, ml_dsa_87);

macro_rules! list {
    ($mode:expr, $m:ident) => {
        vec![
            Peer {
                name: "rustcrypto",
                mode: $mode,
                keygen: $m::rc_keygen,
                sign: $m::rc_sign,
                verify: $m::rc_verify,
            },
            Peer {
                name: "fips204",
                mode: $mode,
                keygen: $m::fips_keygen,
                sign: $m::fips_sign,
                verify: $m::fips_verify,
            },
            Peer {
                name: "libcrux",
                mode: $mode,
                keygen: $m::lc_keygen,
                sign: $m::lc_sign,
                verify: $m::lc_verify,
            },
            Peer {
                name: "libcrux-portable",
                mode: $mode,
                keygen: $m::lcp_keygen,
                sign: $m::lcp_sign,
                verify: $m::lcp_verify,
            },
        ]
    };
}

/// Every peer for `mode`.
pub(crate) fn peers(mode: Mode) -> Vec<Peer> {
    match mode {
        Mode::MlDsa44 => list!(mode, p44),
        Mode::MlDsa65 => list!(mode, p65),
        Mode::MlDsa87 => list!(mode, p87),
        #[allow(unreachable_patterns)]
        other => panic!("no peers for {other:?}"),
    }
}
