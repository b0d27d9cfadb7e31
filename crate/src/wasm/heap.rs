//! A small allocator for the one-family verify modules (feature `wasm-small-heap`).
//!
//! Rust's default WebAssembly allocator (dlmalloc) is about 7 KB of code, a third of an
//! ML-DSA verifier. A verifier allocates a few buffers of a few sizes per call and frees them
//! on return, so this one keeps a free list per power-of-two size class and carves new blocks
//! from fresh pages: allocation and release are a few instructions, a freed block serves the
//! next request of its class, nothing is ever coalesced or returned. What it holds is bounded
//! by twice the largest amount a class ever had in use at once, which suits the verify
//! modules; the protocol modules, whose parties hold many sizes for long, keep dlmalloc.
//!
//! WebAssembly without the `atomics` feature has one thread, which is what makes the
//! unsynchronised state sound. Freed blocks are not wiped here, as with dlmalloc: the library
//! zeroizes its secrets before it frees them.

use core::alloc::{GlobalAlloc, Layout};
use core::arch::wasm32;
use core::cell::UnsafeCell;
use core::ptr;

/// A WebAssembly page.
const PAGE: usize = 65_536;
/// The smallest block (16 bytes), which holds the free list's link.
const MIN_CLASS: u32 = 4;
/// Classes 2^4 … 2^31 (a wasm32 address space has 2^32 bytes).
const CLASSES: usize = 32;

/// The free lists and the unused rest of the last page grown.
struct Heap {
    /// `free[c]`: the address of a free block of 2^c bytes, whose first word links the next
    /// (0 ends the list).
    free: [usize; CLASSES],
    /// Where the next new block may start; 0 until the first allocation.
    next: usize,
    /// The end of the memory grown so far.
    end: usize,
}

/// The allocator: size classes over pages taken with `memory.grow`.
pub(crate) struct SizeClasses(UnsafeCell<Heap>);

// SAFETY: wasm32 without the `atomics` target feature runs one thread, so the heap is never
// reached from two threads (the crate is never built with `atomics`).
unsafe impl Sync for SizeClasses {}

impl SizeClasses {
    /// An empty heap; memory is taken on the first allocation.
    pub(crate) const fn new() -> Self {
        SizeClasses(UnsafeCell::new(Heap {
            free: [0; CLASSES],
            next: 0,
            end: 0,
        }))
    }
}

/// The class of a layout: log2 of its block size, a power of two at least its size, its
/// alignment and 16; `None` past 2^31.
fn class(layout: Layout) -> Option<usize> {
    let size = layout.size().max(layout.align()).max(1 << MIN_CLASS);
    let block = size.checked_next_power_of_two()?;
    let c = block.trailing_zeros() as usize;
    (c < CLASSES).then_some(c)
}

impl Heap {
    /// A new block of 2^c bytes, aligned to min(2^c, a page) — hence to any alignment that
    /// fits the class — carved from the grown memory, growing it as needed.
    fn carve(&mut self, c: usize) -> Option<usize> {
        if self.end == 0 {
            // Above the memory the module started with: nothing else uses it.
            self.end = wasm32::memory_size(0).checked_mul(PAGE)?;
            self.next = self.end;
        }
        let size = 1usize << c;
        let align = size.min(PAGE);
        let start = self.next.checked_add(align - 1)? & !(align - 1);
        let stop = start.checked_add(size)?;
        if stop > self.end {
            let pages = (stop - self.end).div_ceil(PAGE);
            let old = wasm32::memory_grow(0, pages);
            // `usize::MAX`: the engine refused. A base other than our end would mean someone
            // else grows memory; refuse rather than overlap.
            if old == usize::MAX || old.checked_mul(PAGE)? != self.end {
                return None;
            }
            self.end = self.end.checked_add(pages.checked_mul(PAGE)?)?;
        }
        self.next = stop;
        Some(start)
    }
}

// SAFETY: `alloc` returns null or a block of at least `layout.size()` bytes aligned to
// `layout.align()` that no live allocation overlaps: a block comes either from its class's
// free list (released by `dealloc` with the same class, so the same size and alignment) or
// is carved from memory past every block carved before.
unsafe impl GlobalAlloc for SizeClasses {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: one thread (see `Sync`), and no allocation runs inside another.
        let heap = unsafe { &mut *self.0.get() };
        let Some(c) = class(layout) else {
            return ptr::null_mut();
        };
        let head = heap.free[c];
        if head != 0 {
            // SAFETY: `head` is a free block of this class: its first word is the link
            // `dealloc` wrote, aligned (blocks are aligned to at least 16).
            heap.free[c] = unsafe { *(head as *const usize) };
            return head as *mut u8;
        }
        heap.carve(c).map_or(ptr::null_mut(), |a| a as *mut u8)
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: one thread (see `Sync`).
        let heap = unsafe { &mut *self.0.get() };
        // The caller gives back a block `alloc` returned for this layout, so its class exists.
        let Some(c) = class(layout) else { return };
        // SAFETY: the block is at least 16 bytes, aligned, and no longer used by the caller.
        unsafe { *block.cast::<usize>() = heap.free[c] };
        heap.free[c] = block as usize;
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `layout.align()` is a power of two and the caller keeps `new_size` below
        // `isize::MAX` once rounded up to it (GlobalAlloc::realloc's contract).
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        if class(layout) == class(new_layout) {
            // The block already has room for `new_size`.
            return block;
        }
        // SAFETY: `new_layout` has a non-zero size (the caller's contract).
        let new = unsafe { self.alloc(new_layout) };
        if !new.is_null() {
            // SAFETY: both blocks are live, distinct, and at least this long.
            unsafe { ptr::copy_nonoverlapping(block, new, layout.size().min(new_size)) };
            // SAFETY: `block` was allocated with `layout`.
            unsafe { self.dealloc(block, layout) };
        }
        new
    }
}
