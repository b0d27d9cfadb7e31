//! The sharing table's behaviour: decoding once, seeds, memos, parts, eviction.

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
    fn seed_with<F: FnOnce(&[u8]) -> Result<u32, &'static str> + Copy + 'static>(bytes: &[u8], f: F) -> F {
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
            let bytes: Vec<&[u8]> = all.iter().map(Vec::as_slice).collect();
            decode_all(&bytes, slow_parse.clone()).collect::<Vec<_>>()
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
