//! Valgrind client requests on x86-64, written against the documented ABI of
//! `valgrind.h`: `rax` points at six words (request code, five arguments), `rdx` holds the
//! default result, and a "special instruction preamble" (four rotations of `rdi` by 128
//! bits in all, then `xchg rbx, rbx`) that does nothing on a real CPU tells Valgrind's JIT
//! to serve the request; the result comes back in `rdx`. Outside Valgrind every request
//! returns its default.
//!
//! We do not depend on `crabgrind` for this: it generates its bindings with `bindgen`,
//! which needs libclang at build time (not on these machines) and would add minutes to a
//! lean build, for four requests that fit on one page.

/// `VG_USERREQ__RUNNING_ON_VALGRIND`.
const RUNNING_ON_VALGRIND: u64 = 0x1001;
/// `VG_USERREQ__COUNT_ERRORS`.
const COUNT_ERRORS: u64 = 0x1201;
/// Memcheck's requests start at tool base ('M', 'C').
const MEMCHECK_BASE: u64 = (b'M' as u64) << 24 | (b'C' as u64) << 16;
/// `VG_USERREQ__MAKE_MEM_UNDEFINED`.
const MAKE_MEM_UNDEFINED: u64 = MEMCHECK_BASE + 1;
/// `VG_USERREQ__MAKE_MEM_DEFINED`.
const MAKE_MEM_DEFINED: u64 = MEMCHECK_BASE + 2;

#[inline(always)]
fn request(default: u64, args: [u64; 6]) -> u64 {
    let mut result = default;
    // SAFETY: the preamble leaves every register as it was on a real CPU (rdi is rotated
    // by 3 + 13 + 61 + 51 = 128 bits; xchg rbx, rbx is a no-op), so the block only
    // clobbers the flags. No `nomem`: the block is a compiler barrier, so memory marked
    // here is written before and read after the request.
    #[allow(unsafe_code)]
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") result,
            in("rax") args.as_ptr(),
            inout("rdi") 0u64 => _,
            options(nostack),
        );
    }
    result
}

/// Marks `len` bytes at `addr` undefined (secret).
pub(super) fn make_undefined(addr: *const u8, len: usize) {
    request(0, [MAKE_MEM_UNDEFINED, addr as u64, len as u64, 0, 0, 0]);
}

/// Marks `len` bytes at `addr` defined (public).
pub(super) fn make_defined(addr: *const u8, len: usize) {
    request(0, [MAKE_MEM_DEFINED, addr as u64, len as u64, 0, 0, 0]);
}

/// The number of errors memcheck has reported so far.
pub(super) fn count_errors() -> usize {
    request(0, [COUNT_ERRORS, 0, 0, 0, 0, 0]) as usize
}

/// Whether the process runs under Valgrind.
pub(super) fn running_on_valgrind() -> bool {
    request(0, [RUNNING_ON_VALGRIND, 0, 0, 0, 0, 0]) != 0
}

/// Reads `v` back from memory after a request changed what Valgrind knows about it (the
/// volatile read keeps the compiler from reusing a copy taken before). A bitwise copy:
/// for a type that is not `Copy` the caller must not drop `v`.
#[inline(always)]
pub(super) fn reload<T>(v: &T) -> T {
    // SAFETY: `v` is a valid, aligned reference; ownership is the caller's concern (above).
    #[allow(unsafe_code)]
    unsafe {
        core::ptr::read_volatile(v)
    }
}
