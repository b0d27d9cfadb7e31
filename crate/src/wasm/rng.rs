//! `RngWasm`: one party's generator, ChaCha20 seeded with 32 bytes, held in WASM memory.
//!
//! Every factory of [`super::lens`] and [`super::pulsar`] draws from one, as the native
//! library's `start` functions draw from the `&mut ChaCha20Rng` their caller passes. A party
//! that keeps one `RngWasm` across the protocols it starts draws one stream, in protocol
//! order, exactly as a native party with one `ChaCha20Rng::from_seed(seed)` does — which is
//! how the known-answer vectors (`kats/pulsar.json`, `kats/lens.json`) are made. The JS
//! wrapper makes a fresh one for a call given a `seed` (or none: 32 bytes from
//! `crypto.getRandomValues`) and frees it after the call.

use alloc::vec::Vec;

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use wasm_bindgen::prelude::*;

use super::js::rng_from_seed;

/// A ChaCha20 generator seeded with 32 bytes (see the module docs).
///
/// # Security
/// Whoever knows the seed knows everything a party draws from it (its dealing
/// polynomials, nonces, keys): give each party its own seed and never reuse one. Its state
/// is overwritten when freed.
#[wasm_bindgen(js_name = "RngWasm")]
pub struct RngWasm(ChaCha20Rng);

#[wasm_bindgen(js_class = "RngWasm")]
impl RngWasm {
    /// `ChaCha20Rng::from_seed(seed)` (the seed is wiped).
    ///
    /// # Errors
    /// `RangeError` for a seed that is not 32 bytes.
    #[wasm_bindgen(constructor)]
    pub fn new(seed: Vec<u8>) -> Result<RngWasm, JsValue> {
        Ok(RngWasm(rng_from_seed(seed)?))
    }
}

impl RngWasm {
    /// The generator, for a factory's `start`.
    pub(super) fn get(&mut self) -> &mut ChaCha20Rng {
        &mut self.0
    }
}

impl Drop for RngWasm {
    fn drop(&mut self) {
        // rand_chacha has no `Zeroize`: overwrite the key, counter and buffered block with
        // those of the all-zero seed, kept observable so the store is not elided.
        self.0 = ChaCha20Rng::from_seed([0; 32]);
        core::hint::black_box(&self.0);
    }
}
