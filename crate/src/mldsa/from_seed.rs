//! Signing with a key that exists only as its seed, for as long as one signature takes:
//! KeyGen_internal, Sign_internal and Verify_internal (FIPS 204 Alg. 6, 7, 8) in one pass
//! that expands Â once and never encodes the secret key (Pulsar custody's combiner).
//!
//! ```text
//! seed ──H, ExpandS──► ρ ≠ expected ρ? ──► not this key
//!             Â ← ExpandA(ρ), t = Â·s1 + s2
//!             pk ≠ expected?     ──► not this key
//!             sign(μ) with Â, NTT(s1) kept; verify with Â, NTT(t1·2^d)
//! ```
//!
//! The same bytes as `keygen`, `sign` and `verify` one after another (tested).

use zeroize::Zeroizing;

use super::encode::pk_encode;
use super::keygen::{secret_parts, t_row};
use super::params::Params;
use super::poly::{zero_vec, Poly, MAX_K};
use super::verify::{shifted_t1_hat, verify_mu_expanded};
use crate::hash::shake256_into;

/// Signs μ (made by `mu_of` from the derived key's tr) with the key derived from `xi`,
/// into `out` (`P::SIG_LEN` bytes), and verifies the signature, if the derived public key
/// is `expected` (`P::PK_LEN` bytes). `false`: another key; `out` is untouched.
pub(super) fn sign<P: Params>(
    xi: &[u8; 32],
    expected: &[u8],
    mu_of: impl FnOnce(&[u8; 64]) -> [u8; 64],
    rnd: &[u8; 32],
    out: &mut [u8],
) -> Result<bool, super::Error> {
    let mut parts = secret_parts::<P>(xi);
    // Another ρ (the public key's first field) is another key: a seed rebuilt from a bad
    // share stops here, before Â is expanded.
    if parts.rho[..] != expected[..32] {
        return Ok(false);
    }
    // Â, kept for signing and verifying.
    let mut a_hat = [zero_vec(); MAX_K];
    let mut s1_hat = Zeroizing::new(zero_vec());
    super::sign::expand::<P>(&parts, &mut a_hat, &mut s1_hat);
    let mut t1 = zero_vec();
    for (i, row) in a_hat.iter().enumerate().take(P::K) {
        t_row::<P>(&row[..P::L], &s1_hat, &parts.s2[i], &mut t1[i], &mut parts.t0[i]);
    }
    let mut pk = [0u8; super::MlDsa87::PK_LEN];
    let pk = &mut pk[..P::PK_LEN];
    pk_encode::<P>(&parts.rho, &t1, pk);
    // Public: the public key, and t1, which it encodes (the verification below uses it).
    crate::ct::public_slice(pk);
    crate::ct::public_slice(&t1[..P::K]);
    if pk[..] != expected[..] {
        return Ok(false);
    }
    shake256_into(&[pk], &mut parts.tr);
    let mu = mu_of(&parts.tr);

    super::sign::sign_expanded::<P>(&parts, &a_hat, &s1_hat, &mu, rnd, out);
    drop(parts);
    let mut t1_hat = [Poly::default(); MAX_K];
    for (hat, t) in t1_hat.iter_mut().zip(&t1[..P::K]) {
        *hat = shifted_t1_hat(t);
    }
    if verify_mu_expanded::<P>(&a_hat, &t1_hat[..P::K], &mu, out) {
        Ok(true)
    } else {
        Err(super::Error::InvalidSignature)
    }
}

#[cfg(test)]
mod tests {
    use crate::mldsa::{keygen, sign, sign_from_seed, verify, Error, Mode};

    const MODES: [Mode; 3] = [Mode::MlDsa44, Mode::MlDsa65, Mode::MlDsa87];

    #[test]
    fn signs_as_keygen_sign_verify_do() {
        for mode in MODES {
            for i in 0..6u8 {
                let seed = [i.wrapping_mul(37) ^ 0x5a; 32];
                let (pk, sk) = keygen(mode, &seed);
                let msg = [i; 40];
                let ctx: &[u8] = if i % 2 == 0 { b"" } else { b"context" };
                let rnd = (i % 3 != 0).then_some([i ^ 0xc3; 32]);
                let expected = sign(mode, &sk, &msg, ctx, rnd.as_ref()).unwrap();
                let got = sign_from_seed(mode, &seed, &pk, &msg, ctx, rnd.as_ref()).unwrap();
                assert_eq!(got.as_deref(), Some(&expected[..]), "{mode:?} seed {i}");
                verify(mode, &pk, &msg, ctx, &expected).unwrap();
            }
        }
    }

    #[test]
    fn another_key_signs_nothing() {
        for mode in MODES {
            let (pk, _) = keygen(mode, &[1; 32]);
            // Another seed: another ρ.
            assert_eq!(sign_from_seed(mode, &[2; 32], &pk, b"m", b"", None), Ok(None));
            // The same ρ, another t1 (first, middle and last byte of its encoding).
            for at in [32, pk.len() / 2, pk.len() - 1] {
                let mut other = pk.clone();
                other[at] ^= 1;
                assert_eq!(sign_from_seed(mode, &[1; 32], &other, b"m", b"", None), Ok(None));
            }
            assert_eq!(
                sign_from_seed(mode, &[1; 32], &pk, b"m", b"", None).map(|s| s.is_some()),
                Ok(true)
            );
        }
    }

    #[test]
    fn rejects_bad_arguments() {
        let (pk, _) = keygen(Mode::MlDsa65, &[1; 32]);
        assert!(matches!(
            sign_from_seed(Mode::MlDsa65, &[1; 32], &pk, b"m", &[0; 256], None),
            Err(Error::ContextTooLong { len: 256 })
        ));
        assert!(matches!(
            sign_from_seed(Mode::MlDsa65, &[1; 32], &pk[1..], b"m", b"", None),
            Err(Error::InvalidLength { .. })
        ));
        assert!(matches!(
            sign_from_seed(Mode::MlDsa44, &[1; 32], &pk, b"m", b"", None),
            Err(Error::InvalidLength { .. })
        ));
    }
}
