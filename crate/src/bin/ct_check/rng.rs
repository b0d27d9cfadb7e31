//! Secret inputs for the paths: byte strings and an RNG whose every output is marked
//! secret, so everything a party draws (polynomials, blinds, nonces, seeds) is tracked.

use quasar_pq::ct;
use rand_core::{CryptoRng, RngCore, SeedableRng};

/// `N` bytes from `label`, marked secret.
pub(crate) fn secret_bytes<const N: usize>(label: &str) -> [u8; N] {
    let mut out = [0u8; N];
    let mut rng = rand_chacha::ChaCha20Rng::from_seed(seed_of(label));
    rng.fill_bytes(&mut out);
    ct::secret_slice(&out);
    out
}

fn seed_of(label: &str) -> [u8; 32] {
    let mut s = [0u8; 32];
    for (i, b) in label.bytes().enumerate() {
        s[i % 32] = s[i % 32].wrapping_mul(31).wrapping_add(b);
    }
    s
}

/// A ChaCha20 RNG whose outputs are marked secret.
pub(crate) struct SecretRng(rand_chacha::ChaCha20Rng);

impl SecretRng {
    /// Seeded from `label` (runs are reproducible).
    pub(crate) fn new(label: &str) -> Self {
        SecretRng(rand_chacha::ChaCha20Rng::from_seed(seed_of(label)))
    }
}

impl RngCore for SecretRng {
    fn next_u32(&mut self) -> u32 {
        ct::secret(self.0.next_u32())
    }
    fn next_u64(&mut self) -> u64 {
        ct::secret(self.0.next_u64())
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.0.fill_bytes(dest);
        ct::secret_slice(dest);
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

impl CryptoRng for SecretRng {}
