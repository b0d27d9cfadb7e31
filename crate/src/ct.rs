//! Constant-flow helpers: a value barrier the optimiser cannot see through, and the
//! declassification points of the constant-flow check.
//!
//! The check (feature `ct-check`, `scripts/ct-check.sh`) runs the library under Valgrind
//! memcheck with every secret input marked undefined: a conditional jump or a memory index
//! that depends on a secret is then reported as a use of uninitialised memory. Values the
//! algorithm makes public (a rejection decision, a finished signature, a commitment that is
//! broadcast) are declassified with [`public`] / [`public_slice`] at the call site, each
//! with a one-line reason. Without `ct-check` these compile to nothing.

#[cfg(all(feature = "ct-check", not(target_arch = "x86_64")))]
compile_error!("feature `ct-check` uses Valgrind client requests, implemented for x86-64 only");

#[cfg(all(feature = "ct-check", target_arch = "x86_64"))]
mod valgrind;

/// The value `x`, through an optimisation barrier: the compiler cannot know anything about
/// the result, so it cannot turn mask arithmetic on it back into a branch (FIPS 204's
/// Decompose became `cmp; jge` at opt-level 1 without it).
#[inline(always)]
pub(crate) fn barrier_i32(x: i32) -> i32 {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        let mut x = x;
        // SAFETY: an empty asm block; it reads and writes only the register holding `x`.
        #[allow(unsafe_code)]
        unsafe {
            #[cfg(target_arch = "x86_64")]
            core::arch::asm!("/* {0:e} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags));
            #[cfg(target_arch = "aarch64")]
            core::arch::asm!("/* {0:w} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags));
        }
        x
    }
    // wasm32 has no stable inline asm: black_box keeps the value opaque there.
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        core::hint::black_box(x)
    }
}

/// Whether `a` and `b` hold the same bytes, compared by `subtle` (as the rest of the crate
/// compares secrets), the verdict declassified: for messages that may carry secrets, a
/// repeated private share told from a conflicting one. Only the lengths, which are public,
/// may decide early.
#[cfg(feature = "protocols")]
pub(crate) fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    public(bool::from(subtle::ConstantTimeEq::ct_eq(a, b)))
}

/// Declassifies a value the algorithm makes public (a no-op without `ct-check`). Prefer
/// this to the in-place forms: the result is read back after the request, so no copy
/// the optimiser made earlier can stand in for it.
#[inline(always)]
pub(crate) fn public<T>(x: T) -> T {
    #[cfg(feature = "ct-check")]
    {
        let v = core::mem::ManuallyDrop::new(x);
        valgrind::make_defined(core::ptr::addr_of!(v).cast(), core::mem::size_of::<T>());
        // `v` is never dropped: the value moves out through the read.
        valgrind::reload(&*v)
    }
    #[cfg(not(feature = "ct-check"))]
    {
        x
    }
}

/// Declassifies the part `part` of `x` (a public field of a secret object), returning `x`
/// read back after the request, like [`public`].
/// Only the threshold protocols declassify parts of secrets.
#[cfg(feature = "protocols")]
#[inline(always)]
pub(crate) fn public_part<T, U: ?Sized>(x: T, part: impl Fn(&T) -> &U) -> T {
    #[cfg(feature = "ct-check")]
    {
        let v = core::mem::ManuallyDrop::new(x);
        let p = part(&v);
        valgrind::make_defined((p as *const U).cast(), core::mem::size_of_val(p));
        // `v` is never dropped: the value moves out through the read.
        valgrind::reload(&*v)
    }
    #[cfg(not(feature = "ct-check"))]
    {
        let _ = part;
        x
    }
}

/// Declassifies, in place, memory the algorithm makes public (a no-op without `ct-check`).
/// Later reads of `s` see public values; copies taken before the call stay secret.
#[inline(always)]
pub(crate) fn public_slice<T>(s: &[T]) {
    #[cfg(feature = "ct-check")]
    valgrind::make_defined(s.as_ptr().cast(), core::mem::size_of_val(s));
    #[cfg(not(feature = "ct-check"))]
    let _ = s;
}

/// Marks memory secret for the constant-flow check (feature `ct-check`): under Valgrind
/// memcheck, any branch or memory index depending on it is then reported. Outside
/// Valgrind this does nothing.
#[cfg(feature = "ct-check")]
pub fn secret_slice<T>(s: &[T]) {
    valgrind::make_undefined(s.as_ptr().cast(), core::mem::size_of_val(s));
}

/// Marks one object secret (see [`secret_slice`]).
#[cfg(feature = "ct-check")]
pub fn secret_ref<T>(x: &T) {
    secret_slice(core::slice::from_ref(x));
}

/// A value marked secret (see [`secret_slice`]).
#[cfg(feature = "ct-check")]
pub fn secret<T: Copy>(x: T) -> T {
    let v = x;
    secret_ref(&v);
    valgrind::reload(&v)
}

/// Declassifies memory from a harness (feature `ct-check`): bytes the harness knows to be
/// public content although Valgrind cannot (the header of a decrypted record).
#[cfg(feature = "ct-check")]
pub fn declassify_slice<T>(s: &[T]) {
    public_slice(s);
}

/// Declassifies a value from a harness (feature `ct-check`; see [`declassify_slice`]).
#[cfg(feature = "ct-check")]
pub fn declassify<T>(x: T) -> T {
    public(x)
}

/// Memcheck's error count so far (0 outside Valgrind): a check compares it before and
/// after each path.
#[cfg(feature = "ct-check")]
pub fn error_count() -> usize {
    valgrind::count_errors()
}

/// Whether the process runs under Valgrind.
#[cfg(feature = "ct-check")]
pub fn on_valgrind() -> bool {
    valgrind::running_on_valgrind()
}

/// Whether the planted leak runs (`set_plant`): off unless the harness turns it on.
#[cfg(feature = "ct-check")]
static PLANT: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(false);

/// Turns on the planted secret-dependent branch and table index in ML-DSA signing (feature
/// `ct-check`, test builds only): the constant-flow check must report both, proving it can
/// fail. A switch rather than a feature, so proving that costs no second build.
#[cfg(feature = "ct-check")]
pub fn set_plant(on: bool) {
    PLANT.store(on, core::sync::atomic::Ordering::Relaxed);
}

/// The planted leak, when [`set_plant`] turned it on; nothing otherwise.
#[cfg(feature = "ct-check")]
#[inline(never)]
pub(crate) fn planted_leak(secret: &[u8]) {
    static TABLE: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = i as u8;
            i += 1;
        }
        t
    };
    // The switch is public; only what follows it branches on the secret.
    if !PLANT.load(core::sync::atomic::Ordering::Relaxed) {
        return;
    }
    if let (Some(&a), Some(&b)) = (secret.first(), secret.get(1)) {
        if a & 1 == 1 {
            core::hint::black_box(a);
        }
        core::hint::black_box(TABLE[usize::from(b)]);
    }
}
