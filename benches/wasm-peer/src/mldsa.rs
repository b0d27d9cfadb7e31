//! `libcrux-ml-dsa` behind the C ABI of this module, for js/bench/mldsa.mjs: keygen from the
//! seed ξ, pure signing with a context and 32 bytes of randomness, pure verification, over
//! bytes the bench wrote into this module's memory (`peer_alloc`). Outputs land in a buffer
//! the bench reads back with `peer_out`.

use std::cell::RefCell;

use crate::slice;

thread_local! {
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

fn put(bytes: &[u8]) -> usize {
    OUT.with(|o| {
        let mut o = o.borrow_mut();
        o.clear();
        o.extend_from_slice(bytes);
        o.len()
    })
}

/// Where the last output starts (its length was the call's result).
#[no_mangle]
pub extern "C" fn peer_out() -> *const u8 {
    OUT.with(|o| o.borrow().as_ptr())
}

macro_rules! level {
    ($level:expr, $set:ident, $sk:expr) => {
        mod $set {
            use libcrux_ml_dsa::$set as lc;
            use libcrux_ml_dsa::{MLDSASignature, MLDSASigningKey, MLDSAVerificationKey};

            pub(crate) fn keygen(seed: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
                let kp = lc::generate_key_pair(seed.try_into().ok()?);
                Some((kp.verification_key.as_slice().to_vec(), kp.signing_key.as_slice().to_vec()))
            }
            pub(crate) fn sign(sk: &[u8], msg: &[u8], ctx: &[u8], rnd: &[u8]) -> Option<Vec<u8>> {
                let sk: [u8; $sk] = sk.try_into().ok()?;
                lc::sign(&MLDSASigningKey::new(sk), msg, ctx, rnd.try_into().ok()?)
                    .ok()
                    .map(|s| s.as_slice().to_vec())
            }
            pub(crate) fn verify(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
                let (Ok(pk), Ok(sig)) = (pk.try_into(), sig.try_into()) else { return false };
                lc::verify(&MLDSAVerificationKey::new(pk), msg, ctx, &MLDSASignature::new(sig)).is_ok()
            }
        }
    };
}
level!(44, ml_dsa_44, 2560);
level!(65, ml_dsa_65, 4032);
level!(87, ml_dsa_87, 4896);

/// Keygen of ML-DSA-`level` from the 32-byte seed: pk ‖ sk into the output (its length), or 0.
///
/// # Safety
/// `seed..seed + 32` is readable.
#[no_mangle]
pub unsafe extern "C" fn peer_mldsa_keygen(level: u32, seed: *const u8) -> usize {
    let seed = slice(seed, 32);
    let kp = match level {
        44 => ml_dsa_44::keygen(seed),
        65 => ml_dsa_65::keygen(seed),
        87 => ml_dsa_87::keygen(seed),
        _ => None,
    };
    kp.map_or(0, |(pk, sk)| put(&[pk, sk].concat()))
}

/// Pure signing: the signature into the output (its length), or 0.
///
/// # Safety
/// Each pointer and length is memory the bench wrote; `rnd` is 32 bytes.
#[no_mangle]
pub unsafe extern "C" fn peer_mldsa_sign(
    level: u32,
    sk: *const u8,
    sk_len: usize,
    msg: *const u8,
    msg_len: usize,
    ctx: *const u8,
    ctx_len: usize,
    rnd: *const u8,
) -> usize {
    let (sk, msg, ctx, rnd) = (slice(sk, sk_len), slice(msg, msg_len), slice(ctx, ctx_len), slice(rnd, 32));
    let sig = match level {
        44 => ml_dsa_44::sign(sk, msg, ctx, rnd),
        65 => ml_dsa_65::sign(sk, msg, ctx, rnd),
        87 => ml_dsa_87::sign(sk, msg, ctx, rnd),
        _ => None,
    };
    sig.map_or(0, |s| put(&s))
}

/// Pure verification: 1 valid, 0 not.
///
/// # Safety
/// Each pointer and length is memory the bench wrote.
#[no_mangle]
pub unsafe extern "C" fn peer_mldsa_verify(
    level: u32,
    pk: *const u8,
    pk_len: usize,
    msg: *const u8,
    msg_len: usize,
    ctx: *const u8,
    ctx_len: usize,
    sig: *const u8,
    sig_len: usize,
) -> i32 {
    let (pk, msg, ctx, sig) = (slice(pk, pk_len), slice(msg, msg_len), slice(ctx, ctx_len), slice(sig, sig_len));
    i32::from(match level {
        44 => ml_dsa_44::verify(pk, msg, ctx, sig),
        65 => ml_dsa_65::verify(pk, msg, ctx, sig),
        87 => ml_dsa_87::verify(pk, msg, ctx, sig),
        _ => false,
    })
}
