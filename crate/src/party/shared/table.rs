//! The process's table of shared entries: a slot per (decoder or value type, domain,
//! bytes, shared parts), bounded by a byte budget and an entry count, oldest out first.

use super::{Any, Arc, Held, TypeId};
use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};
#[cfg(not(target_arch = "wasm32"))]
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

/// The table's budget: key bytes plus each value's declared size. Enough for the
/// deals of two n = 128 reshares (2 × 86 deals of 2.8 KB) with room to spare.
const BUDGET: usize = 32 << 20;
/// Entries the table keeps at most, whatever their size.
pub(super) const MAX_ENTRIES: usize = 4096;

pub(super) type Value = Arc<dyn Any + Send + Sync>;

/// One entry's value: empty until a party has made it, then read without a lock. A party
/// making it holds `making`, so another thread's party that wants the same value waits for
/// it.
#[derive(Default)]
pub(super) struct Slot {
    value: OnceLock<Value>,
    making: Mutex<()>,
}

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

/// Natively a readers-writer lock: parties of several threads look entries up at the
/// same moment (the same broadcasts, in the same order), and most lookups find what they
/// look for, so they read side by side; only a new entry or an eviction writes.
#[cfg(not(target_arch = "wasm32"))]
static TABLE: RwLock<Option<Table>> = RwLock::new(None);
/// On WebAssembly (one thread) a plain lock.
#[cfg(target_arch = "wasm32")]
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

// A panic elsewhere while holding the lock leaves a consistent table (every update
// below is complete before it returns), so a poisoned lock is still usable.

#[cfg(not(target_arch = "wasm32"))]
fn write() -> RwLockWriteGuard<'static, Option<Table>> {
    TABLE.write().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(not(target_arch = "wasm32"))]
fn read() -> RwLockReadGuard<'static, Option<Table>> {
    TABLE.read().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(target_arch = "wasm32")]
fn write() -> MutexGuard<'static, Option<Table>> {
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
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(found) = read()
        .as_ref()
        .and_then(|t| t.find(function, domain, bytes, parts))
    {
        return found;
    }
    // Not there (or made meanwhile by another thread, which `Table::slot` finds).
    write()
        .get_or_insert_with(Table::default)
        .slot(function, domain, bytes, parts, extra)
}

/// [`slot`] for each of `all` (no parts), in order: the table read once for all of them and
/// written once for those it lacks. A party looks up a round's broadcasts together (a
/// receiver's 86 deals at 128 → 64), and parties of two threads taking the lock for each
/// one contend on it.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn slots(
    function: TypeId,
    domain: &'static [u8],
    all: &[&[u8]],
    extra: impl Fn(&[u8]) -> usize,
) -> Vec<Arc<Slot>> {
    let mut found: Vec<Option<Arc<Slot>>> = match read().as_ref() {
        Some(t) => all
            .iter()
            .map(|bytes| t.find(function, domain, bytes, &[]))
            .collect(),
        None => all.iter().map(|_| None).collect(),
    };
    if found.iter().any(Option::is_none) {
        let mut table = write();
        let table = table.get_or_insert_with(Table::default);
        for (kept, bytes) in found.iter_mut().zip(all) {
            if kept.is_none() {
                *kept = Some(table.slot(function, domain, bytes, &[], extra(bytes)));
            }
        }
    }
    found.into_iter().flatten().collect()
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
    /// The slot of `(function, domain, bytes, parts)`, if there is one.
    fn find(
        &self,
        function: TypeId,
        domain: &'static [u8],
        bytes: &[u8],
        parts: &[&Held<Vec<u8>>],
    ) -> Option<Arc<Slot>> {
        let same = |e: &&Entry| e.function == function && e.domain == domain && same_parts(&e.parts, parts);
        self.entries
            .get(bytes)
            .and_then(|v| v.iter().find(same))
            .map(|entry| entry.slot.clone())
    }

    /// [`slot`], in this table.
    pub(super) fn slot(
        &mut self,
        function: TypeId,
        domain: &'static [u8],
        bytes: &[u8],
        parts: &[&Held<Vec<u8>>],
        extra: usize,
    ) -> Arc<Slot> {
        if let Some(found) = self.find(function, domain, bytes, parts) {
            return found;
        }
        let slot = Arc::new(Slot::default());
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
/// leaves it empty, so a poisoned lock is still usable.
pub(super) fn made<V: Send + Sync + 'static, E>(
    slot: &Slot,
    make: impl FnOnce() -> Result<Arc<V>, E>,
) -> Result<Arc<V>, E> {
    let claimed = match found_or_claimed(slot) {
        Found::Made(value) => match value.downcast::<V>() {
            Ok(value) => return Ok(value),
            // Another type under the same key cannot be (the type is in the key): made
            // anew, not kept.
            Err(_) => None,
        },
        Found::Claimed(making) => Some(making),
    };
    let value = make()?;
    if claimed.is_some() {
        keep(slot, value.clone());
    }
    Ok(value)
}

/// What a party finds in a slot: the value, or the right to make it.
enum Found<'a> {
    Made(Value),
    Claimed(MutexGuard<'a, ()>),
}

/// Not generic and not inlined: every [`made`] of every value type calls this one.
#[inline(never)]
fn found_or_claimed(slot: &Slot) -> Found<'_> {
    if let Some(value) = slot.value.get() {
        return Found::Made(value.clone());
    }
    let making = slot.making.lock().unwrap_or_else(PoisonError::into_inner);
    // Made while this party waited.
    match slot.value.get() {
        Some(value) => Found::Made(value.clone()),
        None => Found::Claimed(making),
    }
}

/// Stores a made value (not generic either).
#[inline(never)]
fn keep(slot: &Slot, value: Value) {
    let _ = slot.value.set(value);
}

/// Makes `slot`'s value with `make` unless it is made or a party of another thread is
/// making it ([`super::decode_all`]). `None` from `make` keeps the slot empty.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn make_unless_busy(slot: &Slot, make: impl FnOnce() -> Option<Value>) {
    if slot.value.get().is_some() {
        return;
    }
    let Some(_making) = super::claim(&slot.making) else {
        return;
    };
    if slot.value.get().is_none() {
        if let Some(value) = make() {
            let _ = slot.value.set(value);
        }
    }
}

pub(super) fn clear() {
    *write() = None;
}
