//! Batch verification of many validators' signatures, each on its own message: one
//! verdict per item, a bad item never aborting the rest.

use alloc::vec;
use alloc::vec::Vec;

use super::envelope::SignatureFrame;
use super::keys::PublicKey;
use super::{Error, Mode};
use crate::slhdsa;

/// One (key, message, signature) triple for [`verify_batch`].
#[derive(Debug, Clone, Copy)]
pub struct BatchItem<'a> {
    /// The validator's key.
    pub key: &'a PublicKey,
    /// The signed message.
    pub message: &'a [u8],
    /// The signature's `MAGS` envelope.
    pub signature: &'a [u8],
}

/// Verifies every item under context `ctx`: `bitmap[i]` says whether item i's signature
/// is valid. An envelope that does not decode, a signature of another mode than its key,
/// or a signature that does not verify is `false` for that item alone; the verdicts are
/// those of [`PublicKey::verify`] on each item.
///
/// Items are grouped by mode and each group runs through [`slhdsa::verify_batch`], where
/// the same step of different signatures fills the Keccak lanes. With the `parallel`
/// feature (native builds) each group is also split across rayon's threads; the bitmap
/// is the same either way.
///
/// # Errors
/// `CONTEXT_TOO_LONG` for a context over 255 bytes (every item would fail for it).
pub fn verify_batch(items: &[BatchItem<'_>], ctx: &[u8]) -> Result<Vec<bool>, Error> {
    if ctx.len() > 255 {
        return Err(Error::SlhDsa(slhdsa::Error::ContextTooLong { len: ctx.len() }));
    }
    let mut bitmap = vec![false; items.len()];
    for mode in Mode::ALL {
        let mut slots = Vec::new();
        let mut group = Vec::new();
        for (i, it) in items.iter().enumerate() {
            if it.key.mode() != mode {
                continue;
            }
            // A malformed or other-mode envelope stays `false`.
            if let Ok(sig) = SignatureFrame::decode(it.signature) {
                if sig.mode == mode {
                    slots.push(i);
                    group.push(slhdsa::BatchItem {
                        public_key: it.key.as_bytes(),
                        message: it.message,
                        context: ctx,
                        signature: sig.signature,
                    });
                }
            }
        }
        for (ok, i) in verify_group(mode, &group).into_iter().zip(slots) {
            bitmap[i] = ok;
        }
    }
    Ok(bitmap)
}

/// Verifies raw FIPS 205 items of one mode: the one place the `parallel` feature acts.
#[cfg(not(all(feature = "parallel", not(target_arch = "wasm32"))))]
pub(super) fn verify_group(mode: Mode, items: &[slhdsa::BatchItem<'_>]) -> Vec<bool> {
    if items.is_empty() {
        return Vec::new();
    }
    slhdsa::verify_batch(mode.slhdsa(), items)
}

/// Verifies raw FIPS 205 items of one mode: the one place the `parallel` feature acts.
#[cfg(all(feature = "parallel", not(target_arch = "wasm32")))]
pub(super) fn verify_group(mode: Mode, items: &[slhdsa::BatchItem<'_>]) -> Vec<bool> {
    use rayon::prelude::*;
    // Fewer than four signatures per thread would leave Keccak lanes empty; the chunks
    // are contiguous and collected in order, so the bitmap keeps the items' order.
    const MIN_PER_THREAD: usize = 4;
    let threads = rayon::current_num_threads().max(1);
    if items.len() < 2 * MIN_PER_THREAD || threads == 1 {
        return if items.is_empty() {
            Vec::new()
        } else {
            slhdsa::verify_batch(mode.slhdsa(), items)
        };
    }
    let chunk = items.len().div_ceil(threads).max(MIN_PER_THREAD);
    items
        .par_chunks(chunk)
        .flat_map_iter(|c| slhdsa::verify_batch(mode.slhdsa(), c))
        .collect()
}
