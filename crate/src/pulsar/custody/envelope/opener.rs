//! Opening the many envelopes of one session, as a combiner does: its key expanded once
//! ([`Opener`]), then every envelope decapsulated, their keys derived together and each
//! decrypted ([`open_all`]).
//!
//! ```text
//! let opener = Opener::new(&key, envelopes);        ML-KEM's key expanded (AVX2) when it pays
//! let opened = open_all(&opener, &[Sealed { aad, kem_ct, sealed }, …]);
//! ```

use alloc::vec::Vec;

use libcrux_ml_kem::mlkem768::{self, MlKem768Ciphertext};
use zeroize::Zeroizing;

#[cfg(target_arch = "wasm32")]
use super::open;
use super::CombinerKey;
#[cfg(not(target_arch = "wasm32"))]
use super::{decrypt, TAG_LEN};
#[cfg(not(target_arch = "wasm32"))]
use crate::hash::tags;

/// A combiner key made ready to open the many envelopes of one session: where the CPU has
/// AVX2, ML-KEM's expanded key (the matrix `Â` sampled and the secret vector decoded once,
/// not per envelope: a decapsulation then costs half); elsewhere the key as it is. The
/// expanded key is wiped on drop.
pub(crate) struct Opener<'a> {
    key: &'a CombinerKey,
    #[cfg(all(target_arch = "x86_64", feature = "std", mlkem_avx2))]
    expanded: Option<alloc::boxed::Box<mlkem768::avx2::unpacked::MlKem768KeyPairUnpacked>>,
}

impl<'a> Opener<'a> {
    /// Expands `key` when that pays: for `envelopes` ≥ 2 on a CPU with AVX2 (expanding
    /// costs about one decapsulation).
    pub(crate) fn new(key: &'a CombinerKey, envelopes: usize) -> Self {
        #[cfg(all(target_arch = "x86_64", feature = "std", mlkem_avx2))]
        {
            let expanded = (envelopes >= 2 && std::is_x86_feature_detected!("avx2")).then(|| {
                let mut kp = alloc::boxed::Box::new(mlkem768::avx2::unpacked::init_key_pair());
                mlkem768::avx2::unpacked::key_pair_from_private_mut(&key.dk, &mut kp);
                kp
            });
            Opener { key, expanded }
        }
        #[cfg(not(all(target_arch = "x86_64", feature = "std", mlkem_avx2)))]
        {
            let _ = envelopes;
            Opener { key }
        }
    }

    /// ML-KEM.Decaps; never fails (implicit rejection gives an unrelated secret).
    pub(super) fn decapsulate(&self, ct: &MlKem768Ciphertext) -> [u8; 32] {
        #[cfg(all(target_arch = "x86_64", feature = "std", mlkem_avx2))]
        if let Some(kp) = &self.expanded {
            return mlkem768::avx2::unpacked::decapsulate(kp, ct);
        }
        mlkem768::decapsulate(&self.key.dk, ct)
    }
}

#[cfg(all(target_arch = "x86_64", feature = "std", mlkem_avx2))]
impl Drop for Opener<'_> {
    fn drop(&mut self) {
        if let Some(kp) = self.expanded.as_deref_mut() {
            // libcrux's expanded key has private fields and no wipe of its own: overwrite
            // the whole value with the all-zero key, volatile so the store stays.
            #[allow(unsafe_code)]
            // SAFETY: `kp` is a valid, aligned, exclusive reference to an initialised value;
            // the old value holds only plain arrays (no destructor to skip).
            unsafe {
                core::ptr::write_volatile(kp, mlkem768::avx2::unpacked::init_key_pair());
            }
            core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
        }
    }
}

/// One envelope of a session, as [`open_all`] takes it.
pub(crate) struct Sealed<'a> {
    pub(crate) aad: &'a [u8],
    pub(crate) kem_ct: &'a [u8],
    pub(crate) sealed: &'a [u8],
}

/// [`open`](super::open) of each of `all`, in order. Natively each is decapsulated, then their keys are
/// derived four at a time in the four-way Keccak where their inputs have one length (a
/// session's envelopes do; the same bytes as one at a time), then each is decrypted: a
/// combiner of 14 envelopes hashed some 15 KB one Keccak at a time. On WebAssembly one at a
/// time (the Pulsar module's size budget).
pub(crate) fn open_all(opener: &Opener<'_>, all: &[Sealed<'_>]) -> Vec<Option<Zeroizing<Vec<u8>>>> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let secrets: Vec<Option<Zeroizing<[u8; 32]>>> = all
            .iter()
            .map(|e| {
                let ct = MlKem768Ciphertext::try_from(e.kem_ct).ok()?;
                (e.sealed.len() >= TAG_LEN).then(|| Zeroizing::new(opener.decapsulate(&ct)))
            })
            .collect();
        let keys = derive_all(tags::PULSAR_SHARE_ENVELOPE, all, &secrets);
        all.iter()
            .zip(keys)
            .map(|(e, okm)| {
                let okm = okm?;
                decrypt(&okm, e.aad, e.sealed)
            })
            .collect()
    }
    #[cfg(target_arch = "wasm32")]
    {
        let mut opened = Vec::with_capacity(all.len());
        for e in all {
            opened.push(open(opener, e.aad, e.kem_ct, e.sealed));
        }
        opened
    }
}

/// [`derive`](super::derive) for each envelope whose secret is there (`hash::xof_x4::hash_each`: four at a
/// time).
#[cfg(not(target_arch = "wasm32"))]
fn derive_all(
    tag: &str,
    all: &[Sealed<'_>],
    secrets: &[Option<Zeroizing<[u8; 32]>>],
) -> Vec<Option<Zeroizing<[u8; 56]>>> {
    let ready: Vec<(usize, [&[u8]; 3])> = all
        .iter()
        .zip(secrets)
        .enumerate()
        .filter_map(|(i, (e, ss))| Some((i, [&ss.as_ref()?[..], e.kem_ct, e.aad])))
        .collect();
    let lanes: Vec<&[&[u8]]> = ready.iter().map(|(_, x)| &x[..]).collect();
    let mut keys: Vec<Option<Zeroizing<[u8; 56]>>> = all.iter().map(|_| None).collect();
    for ((i, _), bytes) in ready.iter().zip(crate::hash::xof_x4::hash_each(tag, &lanes, 56)) {
        let mut okm = Zeroizing::new([0u8; 56]);
        okm.copy_from_slice(&bytes);
        keys[*i] = Some(okm);
    }
    keys
}
