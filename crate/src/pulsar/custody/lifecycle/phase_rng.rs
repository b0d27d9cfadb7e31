//! The randomness of a lifecycle party's later phases ([`PhaseRng`]).

use rand_chacha::ChaCha20Rng;
use rand_core::{CryptoRngCore, SeedableRng};
use zeroize::Zeroizing;

use crate::hash::{tags, Transcript};

/// The randomness of a lifecycle party's later phases: a seed drawn from the caller's RNG
/// at start, expanded per phase as `ChaCha20(cSHAKE256-tuple("QUASAR-LIFECYCLE-RNG-v1";
/// seed, phase label))`. Each label is used once per party.
///
/// # Security
/// Secret (it determines the party's later nonces and envelopes): wiped on drop.
pub(crate) struct PhaseRng {
    seed: Zeroizing<[u8; 32]>,
}

impl PhaseRng {
    /// A seed from `rng`.
    pub(crate) fn new(rng: &mut impl CryptoRngCore) -> PhaseRng {
        let mut seed = Zeroizing::new([0u8; 32]);
        rng.fill_bytes(&mut seed[..]);
        PhaseRng { seed }
    }

    /// The generator of the phase `label`.
    pub(crate) fn phase(&self, label: &[u8]) -> ChaCha20Rng {
        let mut t = Transcript::new(tags::LIFECYCLE_RNG);
        t.append(&self.seed[..]).append(label);
        let seed = Zeroizing::new(t.finalize());
        ChaCha20Rng::from_seed(*seed)
    }
}
