//! Work the parties of one process share: a broadcast decoded once, a public
//! computation done once.
//!
//! ```text
//! shared::decode(bytes, T::from_bytes)  ──► T            (the first party decodes; the rest clone)
//! shared::seed(bytes, T::from_bytes, v)                  (the party that encoded v: nobody decodes it)
//! shared::memo(domain, key, size, f)    ──► Arc<V>       (the first party computes; the rest share)
//! shared::memo_over(domain, head, parts, size, f)        (… keyed by broadcasts' shared bytes too)
//! shared::prefetch(all bytes, T::from_bytes)               (threads' parties split the decoding)
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
//! [`prefetch`] and [`Parts`] let such parties split a round's work instead. A maker must
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
pub(crate) fn decode<T, E, F>(bytes: &[u8], decode: F) -> Result<T, E>
where
    T: Clone + Send + Sync + 'static,
    F: FnOnce(&[u8]) -> Result<T, E> + 'static,
{
    #[cfg(feature = "in-process-sharing")]
    {
        // A decoded value is a few times its encoding (points kept uncompressed).
        let slot = table::slot(TypeId::of::<F>(), b"decode", bytes, &[], 6 * bytes.len());
        table::made(&slot, || decode(bytes).map(Arc::new)).map(|value| (*value).clone())
    }
    #[cfg(not(feature = "in-process-sharing"))]
    decode(bytes)
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
    let slot = table::slot(TypeId::of::<F>(), b"decode", bytes, &[], 6 * bytes.len());
    let _ = table::made(&slot, || Ok::<_, core::convert::Infallible>(Arc::new(value)));
}

/// Decodes the broadcasts of `all` that no party of the process has decoded or is decoding,
/// so that the [`decode`] calls which follow find them. Parties stepped on several threads
/// that receive the same broadcasts share the decoding out this way: each skips what
/// another is already working on, where [`decode`] alone, called in the same order by
/// every party, would have them wait for one another. Without `in-process-sharing`, nothing.
pub(crate) fn prefetch<'a, T, E, F>(all: impl IntoIterator<Item = &'a [u8]>, decode: F)
where
    T: Clone + Send + Sync + 'static,
    F: Fn(&[u8]) -> Result<T, E> + 'static,
{
    // WebAssembly runs its parties on one thread: nothing to share out.
    #[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
    for bytes in all {
        let slot = table::slot(TypeId::of::<F>(), b"decode", bytes, &[], 6 * bytes.len());
        // Busy: another party is decoding it.
        let Some(mut kept) = claim(&slot) else {
            continue;
        };
        if kept.is_none() {
            // An error is not kept: the party's own `decode` meets it again and reports it.
            *kept = decode(bytes).ok().map(|v| Arc::new(v) as table::Value);
        }
    }
    #[cfg(not(all(feature = "in-process-sharing", not(target_arch = "wasm32"))))]
    let _ = (all.into_iter(), decode);
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
    let mut key = Vec::new();
    for part in parts {
        key.extend_from_slice(&(part.len() as u64).to_le_bytes());
        key.extend_from_slice(part);
    }
    key
}

#[cfg(feature = "in-process-sharing")]
mod table {
    use super::{Any, Arc, Held, TypeId};
    use alloc::boxed::Box;
    use alloc::collections::BTreeMap;
    use alloc::vec::Vec;
    use std::sync::{Mutex, MutexGuard, PoisonError};

    /// The table's budget: key bytes plus each value's declared size. Enough for the
    /// deals of two n = 128 reshares (2 × 86 deals of 2.8 KB) with room to spare.
    const BUDGET: usize = 32 << 20;
    /// Entries the table keeps at most, whatever their size.
    pub(super) const MAX_ENTRIES: usize = 4096;

    pub(super) type Value = Arc<dyn Any + Send + Sync>;

    /// One entry's value: empty until a party has made it. A party making it holds the
    /// lock, so another thread's party that wants the same value waits for it.
    pub(super) type Slot = Mutex<Option<Value>>;

    struct Entry {
        /// The decoding function's (or the value's) type and a domain label: entries
        /// with the same bytes and another of these are other values.
        function: TypeId,
        domain: &'static [u8],
        /// The key's shared parts ([`super::memo_over`]), after its bytes.
        parts: Vec<Held<Vec<u8>>>,
        slot: Arc<Slot>,
        size: usize,
        /// Insertion order: the oldest entry leaves first.
        serial: u64,
    }

    /// Keyed by the bytes alone, so that a lookup borrows the caller's bytes instead of
    /// copying them into a key; what else tells entries apart is in the entry. An ordered
    /// map, not a hashed one: a `BTreeMap` is already in every module, a `HashMap` would
    /// add its hasher to each.
    #[derive(Default)]
    pub(super) struct Table {
        entries: Files,
        count: usize,
        size: usize,
        next: u64,
    }

    static TABLE: Mutex<Option<Table>> = Mutex::new(None);

    type ByBytes = BTreeMap<Box<[u8]>, Vec<Entry>>;

    /// The entries by their bytes. Natively filed under their [`tag`] first; on
    /// WebAssembly (one thread, a few parties per instance) by the bytes alone, which
    /// spares the modules a second map type's code (1.5 KB gzipped).
    #[derive(Default)]
    struct Files {
        #[cfg(not(target_arch = "wasm32"))]
        tagged: BTreeMap<u64, ByBytes>,
        #[cfg(target_arch = "wasm32")]
        plain: ByBytes,
    }

    /// What orders the table before the bytes do: their length and last eight bytes. The
    /// broadcasts of one ceremony share their first forty-odd bytes (header and session),
    /// which every comparison of a lookup by bytes alone would read (3 % of a one-thread
    /// 128 → 64 run, in `memcmp` calls); they end in points or scalars, which differ.
    /// Equal tags fall back to comparing the bytes, so a tag made to collide costs a
    /// lookup time, never a wrong entry.
    #[cfg(not(target_arch = "wasm32"))]
    fn tag(bytes: &[u8]) -> u64 {
        let mut tail = [0u8; 8];
        let n = bytes.len().min(8);
        tail[..n].copy_from_slice(&bytes[bytes.len() - n..]);
        u64::from_le_bytes(tail) ^ (bytes.len() as u64).rotate_left(32)
    }

    /// `map` without the entries `keep` refuses, rebuilt by inserting what stays: rare (a
    /// quarter of the table goes each time), and no map removal code for it.
    fn kept(map: ByBytes, keep: &impl Fn(&Entry) -> bool) -> ByBytes {
        let mut left = BTreeMap::new();
        for (bytes, mut v) in map {
            v.retain(keep);
            if !v.is_empty() {
                left.insert(bytes, v);
            }
        }
        left
    }

    impl Files {
        fn get(&self, bytes: &[u8]) -> Option<&Vec<Entry>> {
            #[cfg(not(target_arch = "wasm32"))]
            return self.tagged.get(&tag(bytes)).and_then(|m| m.get(bytes));
            #[cfg(target_arch = "wasm32")]
            self.plain.get(bytes)
        }

        fn push(&mut self, bytes: &[u8], entry: Entry) {
            #[cfg(not(target_arch = "wasm32"))]
            let map = self.tagged.entry(tag(bytes)).or_default();
            #[cfg(target_arch = "wasm32")]
            let map = &mut self.plain;
            map.entry(bytes.into()).or_default().push(entry);
        }

        /// Every entry's (serial, size).
        fn ages(&self) -> Vec<(u64, usize)> {
            #[cfg(not(target_arch = "wasm32"))]
            let maps = self.tagged.values();
            #[cfg(target_arch = "wasm32")]
            let maps = core::iter::once(&self.plain);
            let mut ages = Vec::new();
            for map in maps {
                for v in map.values() {
                    ages.extend(v.iter().map(|e| (e.serial, e.size)));
                }
            }
            ages
        }

        /// Drops the entries `keep` refuses.
        fn retain(&mut self, keep: impl Fn(&Entry) -> bool) {
            #[cfg(not(target_arch = "wasm32"))]
            {
                let mut tagged = BTreeMap::new();
                for (tag, map) in core::mem::take(&mut self.tagged) {
                    let map = kept(map, &keep);
                    if !map.is_empty() {
                        tagged.insert(tag, map);
                    }
                }
                self.tagged = tagged;
            }
            #[cfg(target_arch = "wasm32")]
            {
                self.plain = kept(core::mem::take(&mut self.plain), &keep);
            }
        }
    }

    fn lock() -> MutexGuard<'static, Option<Table>> {
        // A panic elsewhere while holding the lock leaves a consistent table (every
        // update below is complete before it returns), so a poisoned lock is still usable.
        TABLE.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The slot of `(function, domain, bytes, parts)`, made empty if there is none. Keys
    /// are compared in full, never by a digest alone. An entry too large for the budget
    /// gets a slot of its own that the table does not keep.
    pub(super) fn slot(
        function: TypeId,
        domain: &'static [u8],
        bytes: &[u8],
        parts: &[&Held<Vec<u8>>],
        extra: usize,
    ) -> Arc<Slot> {
        lock()
            .get_or_insert_with(Table::default)
            .slot(function, domain, bytes, parts, extra)
    }

    /// Whether an entry's parts are the ones asked for: the same copy, or equal bytes.
    fn same_parts(kept: &[Held<Vec<u8>>], asked: &[&Held<Vec<u8>>]) -> bool {
        kept.len() == asked.len()
            && kept
                .iter()
                .zip(asked)
                .all(|(k, a)| Arc::ptr_eq(k, a) || k[..] == a[..])
    }

    impl Table {
        /// [`slot`], in this table.
        pub(super) fn slot(
            &mut self,
            function: TypeId,
            domain: &'static [u8],
            bytes: &[u8],
            parts: &[&Held<Vec<u8>>],
            extra: usize,
        ) -> Arc<Slot> {
            let same =
                |e: &&Entry| e.function == function && e.domain == domain && same_parts(&e.parts, parts);
            if let Some(entry) = self.entries.get(bytes).and_then(|v| v.iter().find(same)) {
                return entry.slot.clone();
            }
            let slot = Arc::new(Mutex::new(None));
            let size = bytes.len() + parts.iter().map(|p| p.len()).sum::<usize>() + extra;
            if size > BUDGET / 4 {
                return slot;
            }
            if self.size + size > BUDGET || self.count >= MAX_ENTRIES {
                self.evict_oldest(size);
            }
            self.size += size;
            self.count += 1;
            self.next += 1;
            let entry = Entry {
                function,
                domain,
                parts: parts.iter().map(|p| Arc::clone(p)).collect(),
                slot: slot.clone(),
                size,
                serial: self.next,
            };
            self.entries.push(bytes, entry);
            slot
        }

        /// Entries kept.
        #[cfg(test)]
        pub(super) fn len(&self) -> usize {
            self.count
        }

        /// Their bytes, as the budget counts them.
        #[cfg(test)]
        pub(super) fn size(&self) -> usize {
            self.size
        }

        /// Makes room for an entry of `size`: drops the oldest entries until the table is
        /// within three quarters of its budget and of its entry count. One scan, then
        /// room for many more entries: a process that runs ceremony after ceremony (a
        /// bench, a node) fills the table, and dropping one entry per insertion would scan
        /// the whole table for every entry it adds.
        fn evict_oldest(&mut self, size: usize) {
            let mut ages = self.entries.ages();
            crate::sort::heapsort(&mut ages);
            let (mut kept_size, mut kept_count) = (self.size, self.count);
            let mut oldest_kept = 0;
            for (serial, freed) in ages {
                if kept_size + size <= BUDGET / 4 * 3 && kept_count < MAX_ENTRIES / 4 * 3 {
                    break;
                }
                kept_size -= freed;
                kept_count -= 1;
                oldest_kept = serial + 1;
            }
            self.entries.retain(|e| e.serial >= oldest_kept);
            (self.size, self.count) = (kept_size, kept_count);
        }
    }

    /// `slot`'s value, waiting while a party of another thread makes it, or made by `make`
    /// while holding the slot (so a party of another thread waits for it in turn). An
    /// error is not kept: the next caller makes it again. A panic while the slot was held
    /// leaves it empty or made, so a poisoned lock is still usable.
    pub(super) fn made<V: Send + Sync + 'static, E>(
        slot: &Slot,
        make: impl FnOnce() -> Result<Arc<V>, E>,
    ) -> Result<Arc<V>, E> {
        let mut kept = slot.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(hit) = kept.as_ref().and_then(|v| v.clone().downcast::<V>().ok()) {
            return Ok(hit);
        }
        let value = make()?;
        *kept = Some(value.clone());
        Ok(value)
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
    fn a_seeded_value_is_found_without_decoding_and_only_by_its_decoder() {
        let bytes = 0x5EED_0001u32.to_le_bytes();
        let never = |_: &[u8]| -> Result<u32, &'static str> { panic!("decoded a seeded value") };
        // The value the encoder made, with a decoder of the type that later decodes.
        fn seed_with<F: FnOnce(&[u8]) -> Result<u32, &'static str> + Copy + 'static>(
            bytes: &[u8],
            f: F,
        ) -> F {
            seed(bytes, f, 0x5EED_0001);
            f
        }
        let seeded = seed_with(&bytes, never);
        assert_eq!(decode(&bytes, seeded), Ok(0x5EED_0001));
        // Another decoder of the same bytes still decodes.
        assert_eq!(decode(&bytes, parse), Ok(0x5EED_0001));
        let plus_one = |b: &[u8]| parse(b).map(|v| v + 1);
        assert_eq!(decode(&bytes, plus_one), Ok(0x5EED_0002));
        // A value already there stays.
        seed(&bytes, parse, 9);
        assert_eq!(decode(&bytes, parse), Ok(0x5EED_0001));
    }

    #[test]
    fn bytes_with_equal_tags_stay_apart() {
        // Same length, same last eight bytes: one tag, two entries.
        let a = [&[0xA1u8; 24][..], &0x7A6_7A6u64.to_le_bytes()].concat();
        let b = [&[0xB2u8; 24][..], &0x7A6_7A6u64.to_le_bytes()].concat();
        let first = |bytes: &[u8]| -> Result<u8, ()> { Ok(bytes[0]) };
        assert_eq!(decode(&a, first), Ok(0xA1));
        assert_eq!(decode(&b, first), Ok(0xB2));
        assert_eq!(decode(&a, first), Ok(0xA1));
        // Shorter than a tag's eight bytes.
        assert_eq!(decode(&[7], first), Ok(7));
        assert_eq!(decode(&[], |b: &[u8]| Ok::<usize, ()>(b.len())), Ok(0));
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
    fn parties_of_several_threads_decode_each_broadcast_once() {
        use core::sync::atomic::{AtomicUsize, Ordering};
        let calls = Arc::new(AtomicUsize::new(0));
        let counted = calls.clone();
        let slow_parse = move |b: &[u8]| {
            counted.fetch_add(1, Ordering::SeqCst);
            std::thread::sleep(core::time::Duration::from_micros(200));
            parse(&b[4..])
        };
        // Distinct from every other test's bytes: a prefix of its own.
        let all: Vec<Vec<u8>> = (0..32u32)
            .map(|i| [&0x5EED_7E57u32.to_le_bytes()[..], &i.to_le_bytes()].concat())
            .collect();
        std::thread::scope(|s| {
            let party = || {
                prefetch(all.iter().map(Vec::as_slice), slow_parse.clone());
                all.iter()
                    .map(|b| decode(b, slow_parse.clone()))
                    .collect::<Vec<_>>()
            };
            let threads: Vec<_> = (0..3).map(|_| s.spawn(party)).collect();
            for t in threads {
                assert_eq!(t.join().unwrap(), (0..32).map(Ok).collect::<Vec<_>>());
            }
        });
        assert_eq!(calls.load(Ordering::SeqCst), 32);
    }

    #[test]
    fn parts_are_shared_out_and_made_once() {
        use core::sync::atomic::{AtomicUsize, Ordering};
        let parts = Parts::<u64>::new(48);
        let made = AtomicUsize::new(0);
        let make = |i: usize| {
            made.fetch_add(1, Ordering::SeqCst);
            std::thread::sleep(core::time::Duration::from_micros(100));
            3 * i as u64
        };
        let want: Vec<u64> = (0..48).map(|i| 3 * i).collect();
        std::thread::scope(|s| {
            let threads: Vec<_> = (0..3).map(|_| s.spawn(|| parts.get(make).to_vec())).collect();
            for t in threads {
                assert_eq!(t.join().unwrap(), want);
            }
        });
        assert_eq!(made.load(Ordering::SeqCst), 48);
        assert_eq!(parts.get(|_| unreachable!("made")), want.as_slice());
    }

    #[test]
    fn shared_parts_meet_by_identity_or_equal_bytes() {
        let deal = held(b"shared-parts-test: a deal".to_vec());
        let copy = held(deal.to_vec());
        let other = held(b"shared-parts-test: another".to_vec());
        let calls = core::sync::atomic::AtomicUsize::new(0);
        let ask = |parts: &[&Held<Vec<u8>>]| {
            *memo_over(
                b"shared-parts-test",
                || b"head".to_vec(),
                parts,
                8,
                || calls.fetch_add(1, core::sync::atomic::Ordering::SeqCst),
            )
        };
        let first = ask(&[&deal]);
        assert_eq!(ask(&[&deal]), first);
        assert_eq!(ask(&[&copy]), first);
        assert_ne!(ask(&[&other]), first);
        assert_ne!(ask(&[&deal, &deal]), first);
        assert_ne!(ask(&[]), first);
        assert_eq!(calls.load(core::sync::atomic::Ordering::SeqCst), 4);
    }

    #[test]
    fn a_full_table_makes_room_for_many_entries_at_once() {
        let mut table = table::Table::default();
        let slot =
            |t: &mut table::Table, i: usize| t.slot(TypeId::of::<u32>(), b"evict", &i.to_le_bytes(), &[], 0);
        let max = table::MAX_ENTRIES;
        let kept: Vec<_> = (0..max).map(|i| slot(&mut table, i)).collect();
        assert_eq!(table.len(), max);
        // One more: the oldest quarter leaves in one go, the newest stay.
        let _ = slot(&mut table, max);
        assert_eq!(table.len(), max / 4 * 3);
        assert!(Arc::ptr_eq(&slot(&mut table, max - 1), &kept[max - 1]));
        assert!(!Arc::ptr_eq(&slot(&mut table, 0), &kept[0]));
        // Each entry counts its 8 key bytes.
        assert_eq!(table.size(), 8 * table.len());
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
