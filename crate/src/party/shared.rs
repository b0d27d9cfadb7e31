//! Work the parties of one process share: a broadcast decoded once, a public
//! computation done once.
//!
//! ```text
//! shared::decode(bytes, T::from_bytes)  ──► T            (the first party decodes; the rest clone)
//! shared::seed(bytes, T::from_bytes, v)                  (the party that encoded v: nobody decodes it)
//! shared::memo(domain, key, size, f)    ──► Arc<V>       (the first party computes; the rest share)
//! shared::memo_over(domain, head, parts, size, f)        (… keyed by broadcasts' shared bytes too)
//! shared::prepare_over(domain, head, parts, size, f)     (… made ahead by one party, nobody waiting)
//! shared::decode_all(all, T::from_bytes) ─► [T]         (many in one pass; threads' parties split them)
//! Parts::new(n).get(make_part)          ──► &[T]         (threads' parties split the parts)
//! ```
//!
//! A simulator, the CLI's whole-run drivers and a node hosting several members run many
//! parties in one process, and every one of them receives the same broadcasts. At n = 128
//! an LSS receiver decodes 86 deals of 86 points each (a field square root per point):
//! 7,396 decompressions, the same for every party. Decoding is a pure function of the
//! bytes, so the first party's result serves the rest.
//!
//! Entries are keyed by the bytes themselves, compared in full (never by a digest
//! alone), and by the decoding function's type (a memo: the value's type and a domain
//! label), so two decoders of one type never meet. A memo over many broadcasts (an LSS
//! receiver's deal set and transcript: 120 KB of deals at 128 → 64) names them by the
//! process's shared copies of their bytes, which are compared by identity before bytes.
//! The table holds **public** data only: callers pass broadcasts, never a private share.
//! It is bounded (oldest entries leave first) and exists only with the
//! `in-process-sharing` feature (on by default; off in the WebAssembly modules by need);
//! without it every call decodes or computes on its own.
//!
//! Parties of one process are one trust domain: a value computed by one of them (for
//! example a check's random weights, kept by the process) is trusted by the others.
//!
//! Parties stepped on several threads (`party::sim::Network::parallel`) meet the same
//! entries at the same moment. An entry is a slot its maker holds while it decodes or
//! computes, so a party of another thread waits for the value instead of making it again;
//! [`decode_all`] and [`Parts`] let such parties split a round's work instead. A maker must
//! therefore never wait on other parties' work: no rayon inside a decoder, a memo or a part
//! (a thread blocked on a slot cannot run the step that would fill it), and no memo that
//! asks, directly or not, for itself.

use alloc::sync::Arc;
use alloc::vec::Vec;
#[cfg(feature = "in-process-sharing")]
use core::any::{Any, TypeId};

/// A large part of a decoded broadcast that every party of the process keeps a copy of:
/// reference-counted with `in-process-sharing`, so that the copy [`decode`] hands each party
/// costs no memory traffic (at n = 128 a deal is ~20 KB and 128 parties take a copy of each
/// of 86); the value itself without (one party per process, nothing to share). Made by
/// [`held`].
#[cfg(feature = "in-process-sharing")]
pub(crate) type Held<T> = Arc<T>;

/// Without `in-process-sharing`: the value itself.
#[cfg(not(feature = "in-process-sharing"))]
pub(crate) type Held<T> = T;

/// `value` as a [`Held`].
#[inline(always)]
pub(crate) fn held<T>(value: T) -> Held<T> {
    #[cfg(feature = "in-process-sharing")]
    {
        Arc::new(value)
    }
    #[cfg(not(feature = "in-process-sharing"))]
    {
        value
    }
}

/// `decode(bytes)`, decoded at most once per process while it stays in the table. A party
/// that meets a broadcast another thread is decoding waits for that decoding rather than
/// repeating it.
///
/// # Errors
/// Whatever `decode` returns (an error is never kept: the next caller decodes again).
// A Lens module by need decodes its broadcasts with `decode_all` only.
#[allow(dead_code)]
pub(crate) fn decode<T, E, F>(bytes: &[u8], decode: F) -> Result<T, E>
where
    T: Clone + Send + Sync + 'static,
    F: FnOnce(&[u8]) -> Result<T, E> + 'static,
{
    #[cfg(feature = "in-process-sharing")]
    {
        let slot = decoded_slot::<F>(bytes);
        table::made(&slot, || decode(bytes).map(Arc::new)).map(|value| (*value).clone())
    }
    #[cfg(not(feature = "in-process-sharing"))]
    decode(bytes)
}

/// The slot of what the decoder `F` makes of `bytes`.
#[cfg(feature = "in-process-sharing")]
fn decoded_slot<F: 'static>(bytes: &[u8]) -> Arc<table::Slot> {
    table::slot(TypeId::of::<F>(), b"decode", bytes, &[], decoded_size(bytes))
}

/// About the size of what `bytes` decode to: a few times their encoding (points kept
/// uncompressed).
#[cfg(feature = "in-process-sharing")]
fn decoded_size(bytes: &[u8]) -> usize {
    6 * bytes.len()
}

/// Records `value` as what `decode(bytes)` gives, for the party that made `bytes` by
/// encoding `value`: the process's other parties then find the value instead of decoding
/// what one of them wrote (at n = 128 an LSS deal's points cost a field square root each
/// to decode). The caller owes the round trip: `decode` accepts every encoding the encoder
/// makes and returns the value encoded (tested per decoder). A value already there stays.
/// Only with `in-process-sharing` (without it there is no table), and natively (a
/// WebAssembly instance receives from other instances).
#[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
pub(crate) fn seed<T, E, F>(bytes: &[u8], decode: F, value: T)
where
    T: Clone + Send + Sync + 'static,
    F: FnOnce(&[u8]) -> Result<T, E> + 'static,
{
    let _ = decode;
    let slot = decoded_slot::<F>(bytes);
    let _ = table::made(&slot, || Ok::<_, core::convert::Infallible>(Arc::new(value)));
}

/// `decode` of each broadcast of `all`, in order, each decoded at most once per process
/// while it stays in the table ([`decode`] for many). First it decodes those no party of the
/// process has decoded or is decoding, then it takes the rest, waiting for the parties
/// decoding them: parties stepped on several threads that receive the same broadcasts share
/// the decoding out, where [`decode`] called in the same order by every party would have
/// them wait for one another. Each broadcast is looked up in the table once.
pub(crate) fn decode_all<'a, T, E, F>(
    all: &'a [&'a [u8]],
    decode: F,
) -> impl Iterator<Item = Result<T, E>> + 'a
where
    T: Clone + Send + Sync + 'static,
    F: Fn(&[u8]) -> Result<T, E> + 'static,
{
    #[cfg(feature = "in-process-sharing")]
    {
        // Natively looked up under one lock; WebAssembly (one thread, nothing to contend
        // with) one by one, without the batch's code.
        #[cfg(not(target_arch = "wasm32"))]
        let slots = table::slots(TypeId::of::<F>(), b"decode", all, decoded_size);
        #[cfg(target_arch = "wasm32")]
        let slots: Vec<Arc<table::Slot>> = all.iter().map(|bytes| decoded_slot::<F>(bytes)).collect();
        // WebAssembly runs its parties on one thread: nothing to share out.
        #[cfg(not(target_arch = "wasm32"))]
        for (slot, bytes) in slots.iter().zip(all) {
            // An error is not kept: the pass below meets it again and returns it.
            table::make_unless_busy(slot, || decode(bytes).ok().map(|v| Arc::new(v) as table::Value));
        }
        slots.into_iter().zip(all).map(move |(slot, bytes)| {
            table::made(&slot, || decode(bytes).map(Arc::new)).map(|value| (*value).clone())
        })
    }
    // Without a table, each decoded as it is taken.
    #[cfg(not(feature = "in-process-sharing"))]
    all.iter().map(move |bytes| decode(bytes))
}

/// `compute()`, computed at most once per process for `(domain, key())` while it stays
/// in the table (a party of another thread that asks while it is computed waits for it).
/// The key must determine the value completely (every input, or the bytes they decode
/// from); it is made only when there is a table. `size` is about how many bytes the value
/// holds (for the table's budget).
pub(crate) fn memo<V>(
    domain: &'static [u8],
    key: impl FnOnce() -> Vec<u8>,
    size: usize,
    compute: impl FnOnce() -> V,
) -> Arc<V>
where
    V: Send + Sync + 'static,
{
    memo_over(domain, key, &[], size, compute)
}

/// [`memo`] with a key of two pieces: the bytes `head()` and then `parts`, large byte
/// strings the parties hold as shared copies (the bytes of decoded broadcasts). Each part
/// is compared by identity first and byte by byte only when two parties hold different
/// copies of it (a dealer's own deal and the one the others decoded), so no party copies
/// them into a key. The entry keeps the parts it was made for.
pub(crate) fn memo_over<V>(
    domain: &'static [u8],
    head: impl FnOnce() -> Vec<u8>,
    parts: &[&Held<Vec<u8>>],
    size: usize,
    compute: impl FnOnce() -> V,
) -> Arc<V>
where
    V: Send + Sync + 'static,
{
    #[cfg(feature = "in-process-sharing")]
    {
        let slot = table::slot(TypeId::of::<V>(), domain, &head(), parts, size);
        match table::made(&slot, || Ok::<_, core::convert::Infallible>(Arc::new(compute()))) {
            Ok(value) => value,
            Err(never) => match never {},
        }
    }
    #[cfg(not(feature = "in-process-sharing"))]
    {
        let _ = (domain, head, parts, size);
        Arc::new(compute())
    }
}

/// Makes what [`memo_over`] would make for the same arguments, unless it is made or a party
/// of another thread is making it; never waits. A party calls it a round before the value
/// is needed, so that one thread makes it while the others go on with their parties,
/// instead of every party needing it at once and waiting for the one making it. Natively
/// only (a WebAssembly instance steps its parties on one thread: nothing to overlap).
#[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
pub(crate) fn prepare_over<V>(
    domain: &'static [u8],
    head: impl FnOnce() -> Vec<u8>,
    parts: &[&Held<Vec<u8>>],
    size: usize,
    compute: impl FnOnce() -> V,
) where
    V: Send + Sync + 'static,
{
    let slot = table::slot(TypeId::of::<V>(), domain, &head(), parts, size);
    table::make_unless_busy(&slot, || Some(Arc::new(compute()) as table::Value));
}

/// A public value of `n` parts that the parties of one process make together: a party
/// that needs it makes every part no other party has started, then waits for the rest.
/// Parties stepped on several threads so share the work out instead of one making it all
/// while the others wait. A part's maker must not wait on other parties' work (no rayon
/// inside: a thread blocked here cannot run another party's step).
#[cfg(feature = "in-process-sharing")]
pub(crate) struct Parts<T> {
    parts: Vec<std::sync::Mutex<Option<T>>>,
    whole: std::sync::OnceLock<Vec<T>>,
}

#[cfg(feature = "in-process-sharing")]
impl<T: Clone> Parts<T> {
    /// `n` parts, none made yet.
    pub(crate) fn new(n: usize) -> Self {
        Parts {
            parts: (0..n).map(|_| std::sync::Mutex::new(None)).collect(),
            whole: std::sync::OnceLock::new(),
        }
    }

    /// Every part, `make(i)` making part `i` (the same value whichever party makes it).
    pub(crate) fn get(&self, make: impl Fn(usize) -> T) -> &[T] {
        use std::sync::PoisonError;
        if let Some(whole) = self.whole.get() {
            return whole;
        }
        // WebAssembly runs its parties on one thread: the second loop makes every part.
        #[cfg(not(target_arch = "wasm32"))]
        for (i, part) in self.parts.iter().enumerate() {
            if let Some(mut kept) = claim(part) {
                if kept.is_none() {
                    *kept = Some(make(i));
                }
            }
        }
        // Then the parts other parties were making, waiting for each.
        let all = self
            .parts
            .iter()
            .enumerate()
            .map(|(i, part)| {
                let mut kept = part.lock().unwrap_or_else(PoisonError::into_inner);
                kept.get_or_insert_with(|| make(i)).clone()
            })
            .collect();
        self.whole.get_or_init(|| all)
    }
}

/// `what`, locked, or `None` while a party of another thread holds it (making it). A panic
/// while it was held leaves it empty or made, so a poisoned lock is still usable.
#[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
fn claim<T>(what: &std::sync::Mutex<T>) -> Option<std::sync::MutexGuard<'_, T>> {
    use std::sync::TryLockError;
    match what.try_lock() {
        Ok(guard) => Some(guard),
        Err(TryLockError::Poisoned(e)) => Some(e.into_inner()),
        Err(TryLockError::WouldBlock) => None,
    }
}

/// Drops everything the parties of this process share (decoded broadcasts, memoized
/// public checks); it is rebuilt on demand. Benches use it to time a party alone in its
/// process.
#[cfg(feature = "in-process-sharing")]
pub fn release() {
    table::clear();
}

/// The key bytes of a memo over several byte strings: each with its length, so no two
/// lists give the same key.
pub(crate) fn key_of<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> Vec<u8> {
    joined(&parts.into_iter().collect::<Vec<&[u8]>>())
}

/// [`key_of`]'s body, one copy for every caller's iterator.
#[inline(never)]
fn joined(parts: &[&[u8]]) -> Vec<u8> {
    // Sized first: a key can be many kilobytes (an activation batch's 128 proofs), and
    // every party of the process makes one.
    let mut key = Vec::with_capacity(parts.iter().map(|p| 8 + p.len()).sum());
    for part in parts {
        key.extend_from_slice(&(part.len() as u64).to_le_bytes());
        key.extend_from_slice(part);
    }
    key
}

#[cfg(feature = "in-process-sharing")]
mod table;

#[cfg(all(test, feature = "in-process-sharing"))]
mod tests;
