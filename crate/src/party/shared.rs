//! Work the parties of one process share: a broadcast decoded once, a public
//! computation done once.
//!
//! ```text
//! shared::decode(bytes, T::from_bytes)  ──► T            (the first party decodes; the rest clone)
//! shared::memo(domain, key, size, f)    ──► Arc<V>       (the first party computes; the rest share)
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
//! label), so two decoders of one type never meet.
//! The table holds **public** data only: callers pass broadcasts, never a private share.
//! It is bounded (oldest entries leave first) and exists only with the
//! `in-process-sharing` feature (on by default; off in the WebAssembly modules by need);
//! without it every call decodes or computes on its own.
//!
//! Parties of one process are one trust domain: a value computed by one of them (for
//! example a check's random weights, kept by the process) is trusted by the others.

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

/// `decode(bytes)`, decoded at most once per process while it stays in the table.
///
/// # Errors
/// Whatever `decode` returns (an error is never kept: the next caller decodes again).
pub(crate) fn decode<T, E, F>(bytes: &[u8], decode: F) -> Result<T, E>
where
    T: Clone + Send + Sync + 'static,
    F: FnOnce(&[u8]) -> Result<T, E> + 'static,
{
    #[cfg(feature = "in-process-sharing")]
    {
        let key = table::Key::new::<F>(b"decode", bytes);
        if let Some(hit) = table::get::<T>(&key) {
            return Ok((*hit).clone());
        }
        let value = decode(bytes)?;
        // A decoded value is a few times its encoding (points kept uncompressed).
        table::put(key, Arc::new(value.clone()), 6 * bytes.len());
        Ok(value)
    }
    #[cfg(not(feature = "in-process-sharing"))]
    decode(bytes)
}

/// `compute()`, computed at most once per process for `(domain, key())` while it stays
/// in the table. The key must determine the value completely (every input, or the bytes
/// they decode from); it is made only when there is a table. `size` is about how many
/// bytes the value holds (for the table's budget).
pub(crate) fn memo<V>(
    domain: &'static [u8],
    key: impl FnOnce() -> Vec<u8>,
    size: usize,
    compute: impl FnOnce() -> V,
) -> Arc<V>
where
    V: Send + Sync + 'static,
{
    #[cfg(feature = "in-process-sharing")]
    {
        let key = table::Key::new::<V>(domain, &key());
        if let Some(hit) = table::get::<V>(&key) {
            return hit;
        }
        let value = Arc::new(compute());
        table::put(key, value.clone(), size);
        value
    }
    #[cfg(not(feature = "in-process-sharing"))]
    {
        let _ = (domain, key, size);
        Arc::new(compute())
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
    let mut key = Vec::new();
    for part in parts {
        key.extend_from_slice(&(part.len() as u64).to_le_bytes());
        key.extend_from_slice(part);
    }
    key
}

#[cfg(feature = "in-process-sharing")]
mod table {
    use super::{Any, Arc, TypeId, Vec};
    use alloc::collections::BTreeMap;
    use std::sync::{Mutex, MutexGuard, PoisonError};

    /// The table's budget: key bytes plus each value's declared size. Enough for the
    /// deals of two n = 128 reshares (2 × 86 deals of 2.8 KB) with room to spare.
    const BUDGET: usize = 32 << 20;
    /// Entries the table keeps at most, whatever their size.
    const MAX_ENTRIES: usize = 4096;

    /// A lookup key: the function (or value) type and the bytes. Ordered, not hashed: a
    /// `BTreeMap` is already in every module, a `HashMap` would add its hasher to each.
    #[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
    pub(super) struct Key {
        function: TypeId,
        bytes: Vec<u8>,
    }

    impl Key {
        pub(super) fn new<F: 'static>(domain: &[u8], bytes: &[u8]) -> Key {
            let mut all = Vec::with_capacity(domain.len() + 1 + bytes.len());
            all.extend_from_slice(domain);
            all.push(0);
            all.extend_from_slice(bytes);
            Key {
                function: TypeId::of::<F>(),
                bytes: all,
            }
        }
    }

    struct Entry {
        value: Arc<dyn Any + Send + Sync>,
        size: usize,
        /// Insertion order: the oldest entry leaves first.
        serial: u64,
    }

    #[derive(Default)]
    struct Table {
        entries: BTreeMap<Key, Entry>,
        size: usize,
        next: u64,
    }

    static TABLE: Mutex<Option<Table>> = Mutex::new(None);

    fn lock() -> MutexGuard<'static, Option<Table>> {
        // A panic elsewhere while holding the lock leaves a consistent table (every
        // update below is complete before it returns), so a poisoned lock is still usable.
        TABLE.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(super) fn get<T: Send + Sync + 'static>(key: &Key) -> Option<Arc<T>> {
        let guard = lock();
        let entry = guard.as_ref()?.entries.get(key)?;
        entry.value.clone().downcast::<T>().ok()
    }

    pub(super) fn put(key: Key, value: Arc<dyn Any + Send + Sync>, extra: usize) {
        let size = key.bytes.len() + extra;
        if size > BUDGET / 4 {
            return;
        }
        let mut guard = lock();
        let table = guard.get_or_insert_with(Table::default);
        if table.entries.contains_key(&key) {
            return;
        }
        while table.size + size > BUDGET || table.entries.len() >= MAX_ENTRIES {
            // Rare (the budget holds several whole dealings): a scan for the oldest.
            let Some(oldest) = table
                .entries
                .iter()
                .min_by_key(|(_, e)| e.serial)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            if let Some(e) = table.entries.remove(&oldest) {
                table.size -= e.size;
            }
        }
        table.size += size;
        table.next += 1;
        let serial = table.next;
        table.entries.insert(key, Entry { value, size, serial });
    }

    pub(super) fn clear() {
        *lock() = None;
    }
}

#[cfg(all(test, feature = "in-process-sharing"))]
mod tests {
    use super::*;

    fn parse(b: &[u8]) -> Result<u32, &'static str> {
        b.try_into().map(u32::from_le_bytes).map_err(|_| "length")
    }

    #[test]
    fn decodes_equal_bytes_to_equal_values_and_keeps_no_error() {
        let bytes = 0xDEC0_DE01u32.to_le_bytes();
        assert_eq!(decode(&bytes, parse), Ok(0xDEC0_DE01));
        assert_eq!(decode(&bytes, parse), Ok(0xDEC0_DE01));
        assert_eq!(decode(&[1, 2, 3], parse), Err("length"));
        assert_eq!(decode(&[1, 2, 3], parse), Err("length"));
    }

    #[test]
    fn decoders_of_one_type_never_meet() {
        let bytes = 7u32.to_le_bytes();
        let plus_one = |b: &[u8]| parse(b).map(|v| v + 1);
        assert_eq!(decode(&bytes, parse), Ok(7));
        assert_eq!(decode(&bytes, plus_one), Ok(8));
        assert_eq!(decode(&bytes, parse), Ok(7));
    }

    #[test]
    fn memo_computes_once_per_key() {
        let calls = Arc::new(core::sync::atomic::AtomicUsize::new(0));
        let key = key_of([&b"memo-test"[..], &[1, 2]]);
        let run = |calls: Arc<core::sync::atomic::AtomicUsize>| {
            memo(
                b"memo-test",
                || key.clone(),
                8,
                move || calls.fetch_add(1, core::sync::atomic::Ordering::SeqCst) + 100,
            )
        };
        let a = run(calls.clone());
        let b = run(calls.clone());
        assert_eq!((*a, *b), (100, 100));
        assert_eq!(calls.load(core::sync::atomic::Ordering::SeqCst), 1);
        assert_ne!(key_of([&b"ab"[..], b"c"]), key_of([&b"a"[..], b"bc"]));
    }
}
