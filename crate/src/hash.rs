//! Hashing on `sha3`: the SHAKE extendable-output functions used by the FIPS algorithms.
//!
//! FIPS 204 names SHAKE256 `H` and SHAKE128 `G`; the helpers here absorb several byte
//! strings in order (their concatenation) without allocating.

pub mod blocks;

use sha3::digest::{ExtendableOutput, Update, XofReader};
use sha3::{Shake128, Shake256};

/// An XOF output stream (SHAKE128 or SHAKE256 after absorbing its input).
pub trait Squeeze {
    /// Fills `out` with the next bytes of the stream.
    fn squeeze(&mut self, out: &mut [u8]);
}

impl Squeeze for sha3::Shake128Reader {
    fn squeeze(&mut self, out: &mut [u8]) {
        self.read(out);
    }
}

impl Squeeze for sha3::Shake256Reader {
    fn squeeze(&mut self, out: &mut [u8]) {
        self.read(out);
    }
}

/// SHAKE128 over the concatenation of `parts`, as a stream.
pub fn shake128(parts: &[&[u8]]) -> sha3::Shake128Reader {
    let mut h = Shake128::default();
    for p in parts {
        h.update(p);
    }
    h.finalize_xof()
}

/// SHAKE256 over the concatenation of `parts`, as a stream.
pub fn shake256(parts: &[&[u8]]) -> sha3::Shake256Reader {
    let mut h = Shake256::default();
    for p in parts {
        h.update(p);
    }
    h.finalize_xof()
}

/// SHAKE256 over the concatenation of `parts`, filling `out`.
pub fn shake256_into(parts: &[&[u8]], out: &mut [u8]) {
    shake256(parts).read(out);
}

/// An incremental SHAKE256 absorber, for inputs produced piece by piece.
#[derive(Default, Clone)]
pub struct Shake256Absorb(Shake256);

impl Shake256Absorb {
    /// Absorbs more input.
    pub fn absorb(&mut self, data: &[u8]) {
        self.0.update(data);
    }

    /// Finishes absorbing and fills `out`.
    pub fn finalize_into(self, out: &mut [u8]) {
        self.0.finalize_xof().read(out);
    }
}
