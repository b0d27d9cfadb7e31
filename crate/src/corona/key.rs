//! The group key (spec §4.2's public half): ρ, b̃ and the digest tr every message is bound to.
//! The dealer that makes it is `deal`'s.

use alloc::vec::Vec;
use core::fmt;

use super::codec::pack;
use super::params::{N, ROWS};
use super::verify::PreparedGroupKey;
use super::Error;
use crate::hash::{tags, Transcript};

/// The public key: ρ (A's seed) and b̃ = Round_ξ(A·s + e) ∈ Z_{2^18}^{8×256}, with its digest
/// tr = TH(GK; ρ ‖ enc18(b̃); 64). Encoded as a `CORG` frame ([`GroupKey::to_bytes`]).
#[derive(Clone, PartialEq, Eq)]
pub struct GroupKey {
    pub(crate) rho: [u8; 32],
    pub(crate) b_tilde: Vec<[u32; N]>,
    pub(crate) digest: [u8; 64],
}

impl fmt::Debug for GroupKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("corona::GroupKey")
            .field("digest", &&self.digest[..8])
            .finish_non_exhaustive()
    }
}

impl GroupKey {
    pub(crate) fn new(rho: [u8; 32], b_tilde: Vec<[u32; N]>) -> GroupKey {
        let mut payload = Vec::with_capacity(32 + ROWS * 32 * 18);
        payload.extend_from_slice(&rho);
        pack(b_tilde.iter().flatten().map(|&v| u64::from(v)), 18, &mut payload);
        let mut t = Transcript::new(tags::CORONA_GK);
        t.append(&payload);
        GroupKey {
            rho,
            b_tilde,
            digest: t.finalize(),
        }
    }

    /// The key's digest tr (64 bytes): what messages and key packages are bound to.
    pub fn digest(&self) -> &[u8; 64] {
        &self.digest
    }

    /// Verifies a `CORS` signature on `message` under `context` (spec §4.9: public inputs
    /// only). It expands A from ρ first; [`GroupKey::prepare`] does that once for many.
    ///
    /// # Errors
    /// [`Error::ContextTooLong`], [`Error::Malformed`] (the signature frame),
    /// [`Error::InvalidSignature`].
    pub fn verify(&self, message: &[u8], context: &[u8], signature: &[u8]) -> Result<(), Error> {
        self.prepare().verify(message, context, signature)
    }

    /// The key prepared for verifying many signatures ([`PreparedGroupKey`]).
    pub fn prepare(&self) -> PreparedGroupKey {
        PreparedGroupKey::new(self)
    }
}
