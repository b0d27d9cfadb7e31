//! `fips205` and RustCrypto `slh-dsa` behind a C ABI for the WebAssembly bench
//! (js/bench/slhdsa.mjs): keys are decoded once into a handle, then signed and verified
//! with through the pure interface (FIPS 205 Alg. 22 / 24, deterministic signing), from
//! bytes the bench writes into this module's memory.

use std::cell::RefCell;

mod mldsa;

type Verifier = Box<dyn Fn(&[u8], &[u8], &[u8]) -> bool>;
type Signer = Box<dyn Fn(&[u8], &[u8]) -> Vec<u8>>;

thread_local! {
    static VERIFIERS: RefCell<Vec<Verifier>> = const { RefCell::new(Vec::new()) };
    static SIGNERS: RefCell<Vec<Signer>> = const { RefCell::new(Vec::new()) };
}

/// An RNG for fips205's `try_sign_with_rng` when signing deterministically (never drawn).
struct NoRng;
impl rand_core::RngCore for NoRng {
    fn next_u32(&mut self) -> u32 {
        unreachable!("deterministic signing draws nothing")
    }
    fn next_u64(&mut self) -> u64 {
        unreachable!("deterministic signing draws nothing")
    }
    fn fill_bytes(&mut self, _: &mut [u8]) {
        unreachable!("deterministic signing draws nothing")
    }
    fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), rand_core::Error> {
        unreachable!("deterministic signing draws nothing")
    }
}
impl rand_core::CryptoRng for NoRng {}

macro_rules! sets {
    ($($id:literal => $fips:ident, $rc:ty;)*) => {
        fn fips_verifier(set: u32, pk: &[u8]) -> Option<Verifier> {
            use fips205::traits::{SerDes as _, Verifier as _};
            match set {
                $($id => {
                    use fips205::$fips as f;
                    let pk = f::PublicKey::try_from_bytes(pk.try_into().ok()?).ok()?;
                    Some(Box::new(move |msg, ctx, sig| match <&[u8; f::SIG_LEN]>::try_from(sig) {
                        Ok(sig) => pk.verify(msg, sig, ctx),
                        Err(_) => false,
                    }))
                })*
                _ => None,
            }
        }
        fn fips_signer(set: u32, sk: &[u8]) -> Option<Signer> {
            use fips205::traits::{SerDes as _, Signer as _};
            match set {
                $($id => {
                    use fips205::$fips as f;
                    let sk = f::PrivateKey::try_from_bytes(sk.try_into().ok()?).ok()?;
                    Some(Box::new(move |msg, ctx| {
                        sk.try_sign_with_rng(&mut NoRng, msg, ctx, false).map(|s| s.to_vec()).unwrap_or_default()
                    }))
                })*
                _ => None,
            }
        }
        fn rc_verifier(set: u32, pk: &[u8]) -> Option<Verifier> {
            match set {
                $($id => {
                    let pk = slh_dsa::VerifyingKey::<$rc>::try_from(pk).ok()?;
                    Some(Box::new(move |msg, ctx, sig| match slh_dsa::Signature::<$rc>::try_from(sig) {
                        Ok(sig) => pk.try_verify_with_context(msg, ctx, &sig).is_ok(),
                        Err(_) => false,
                    }))
                })*
                _ => None,
            }
        }
        fn rc_signer(set: u32, sk: &[u8]) -> Option<Signer> {
            match set {
                $($id => {
                    let sk = slh_dsa::SigningKey::<$rc>::try_from(sk).ok()?;
                    Some(Box::new(move |msg, ctx| {
                        sk.try_sign_with_context(msg, ctx, None).map(|s| s.to_bytes().to_vec()).unwrap_or_default()
                    }))
                })*
                _ => None,
            }
        }
    };
}

// Set numbers: 0 = SHAKE-128s, 1 = SHAKE-192s, 2 = SHAKE-192f, 3 = SHAKE-256s.
sets! {
    0 => slh_dsa_shake_128s, slh_dsa::Shake128s;
    1 => slh_dsa_shake_192s, slh_dsa::Shake192s;
    2 => slh_dsa_shake_192f, slh_dsa::Shake192f;
    3 => slh_dsa_shake_256s, slh_dsa::Shake256s;
}

/// # Safety
/// `ptr..ptr + len` must be memory the bench wrote (a block from `peer_alloc`).
pub(crate) unsafe fn slice<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(ptr, len)
    }
}

/// A block of `len` bytes in this module's memory, for the bench to write into.
#[no_mangle]
pub extern "C" fn peer_alloc(len: usize) -> *mut u8 {
    Box::leak(vec![0u8; len].into_boxed_slice()).as_mut_ptr()
}

/// A verifier for public key `pk` of set `set` by implementation `imp` (0 fips205, 1
/// RustCrypto): its handle, or −1.
///
/// # Safety
/// `pk..pk + pk_len` is readable.
#[no_mangle]
pub unsafe extern "C" fn peer_verifier(imp: u32, set: u32, pk: *const u8, pk_len: usize) -> i32 {
    let pk = slice(pk, pk_len);
    let v = if imp == 0 { fips_verifier(set, pk) } else { rc_verifier(set, pk) };
    match v {
        Some(v) => VERIFIERS.with(|l| {
            l.borrow_mut().push(v);
            l.borrow().len() as i32 - 1
        }),
        None => -1,
    }
}

/// A signer for secret key `sk` (as `peer_verifier`).
///
/// # Safety
/// `sk..sk + sk_len` is readable.
#[no_mangle]
pub unsafe extern "C" fn peer_signer(imp: u32, set: u32, sk: *const u8, sk_len: usize) -> i32 {
    let sk = slice(sk, sk_len);
    let s = if imp == 0 { fips_signer(set, sk) } else { rc_signer(set, sk) };
    match s {
        Some(s) => SIGNERS.with(|l| {
            l.borrow_mut().push(s);
            l.borrow().len() as i32 - 1
        }),
        None => -1,
    }
}

/// Verify (pure, with context): 1 valid, 0 not.
///
/// # Safety
/// The three ranges are readable.
#[no_mangle]
pub unsafe extern "C" fn peer_verify(
    h: i32,
    msg: *const u8,
    msg_len: usize,
    ctx: *const u8,
    ctx_len: usize,
    sig: *const u8,
    sig_len: usize,
) -> u32 {
    let (msg, ctx, sig) = (slice(msg, msg_len), slice(ctx, ctx_len), slice(sig, sig_len));
    VERIFIERS.with(|l| l.borrow().get(h as usize).map_or(0, |v| u32::from(v(msg, ctx, sig))))
}

/// Sign deterministically (pure, with context) into `out`; returns the signature length
/// (0 on failure).
///
/// # Safety
/// The input ranges are readable, `out..out + out_len` writable.
#[no_mangle]
pub unsafe extern "C" fn peer_sign(
    h: i32,
    msg: *const u8,
    msg_len: usize,
    ctx: *const u8,
    ctx_len: usize,
    out: *mut u8,
    out_len: usize,
) -> usize {
    let (msg, ctx) = (slice(msg, msg_len), slice(ctx, ctx_len));
    let sig = SIGNERS.with(|l| l.borrow().get(h as usize).map(|s| s(msg, ctx)).unwrap_or_default());
    if sig.is_empty() || sig.len() > out_len {
        return 0;
    }
    std::slice::from_raw_parts_mut(out, sig.len()).copy_from_slice(&sig);
    sig.len()
}
