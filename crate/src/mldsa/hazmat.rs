//! Expert interfaces: the internal functions of FIPS 204 and external μ.
//!
//! # Security
//! These skip the domain separation of the pure interface. Signing an M′ that was not
//! built as `0 ‖ |ctx| ‖ ctx ‖ M` (or `1 ‖ …` for HashML-DSA) produces signatures that
//! may be valid for unintended messages; use them only to implement a protocol or to
//! run test vectors.

use super::*;

/// FIPS 204 Alg. 7 ML-DSA.Sign_internal on the message representative M′.
///
/// # Errors
/// [`Error::InvalidLength`], [`Error::MalformedSecretKey`].
pub fn sign_internal(mode: Mode, sk: &[u8], m_prime: &[u8], rnd: &[u8; 32]) -> Result<Vec<u8>, Error> {
    dispatch!(mode, P => {
        check_len("secret key", P::SK_LEN, sk.len())?;
        let mu = mu_from_tr(&tr_in_sk(sk), &[], m_prime);
        sign_generic::<P>(sk, &mu, rnd)
    })
}

/// FIPS 204 Alg. 8 ML-DSA.Verify_internal on the message representative M′.
///
/// # Errors
/// [`Error::InvalidLength`], [`Error::InvalidSignature`].
pub fn verify_internal(mode: Mode, pk: &[u8], m_prime: &[u8], sig: &[u8]) -> Result<(), Error> {
    dispatch!(mode, P => {
        check_len("public key", P::PK_LEN, pk.len())?;
        let mu = mu_from_tr(&tr_of(pk), &[], m_prime);
        verify_generic::<P>(pk, &mu, sig)
    })
}

/// μ = H(H(pk, 64) ‖ 0 ‖ |ctx| ‖ ctx ‖ msg, 64): the external-μ message
/// representative of the pure interface, computable without the secret key.
///
/// # Errors
/// [`Error::InvalidLength`], [`Error::ContextTooLong`].
pub fn compute_mu(mode: Mode, pk: &[u8], msg: &[u8], ctx: &[u8]) -> Result<[u8; 64], Error> {
    check_context(ctx)?;
    check_len("public key", mode.public_key_len(), pk.len())?;
    Ok(mu_from_tr(&tr_of(pk), &[&pure_prefix(ctx), ctx], msg))
}

/// Signs a precomputed μ (external μ; FIPS 204 Alg. 7 from step 7).
///
/// # Errors
/// [`Error::InvalidLength`], [`Error::MalformedSecretKey`].
pub fn sign_mu(mode: Mode, sk: &[u8], mu: &[u8; 64], rnd: &[u8; 32]) -> Result<Vec<u8>, Error> {
    dispatch!(mode, P => {
        check_len("secret key", P::SK_LEN, sk.len())?;
        sign_generic::<P>(sk, mu, rnd)
    })
}

/// Verifies a signature on a precomputed μ (external μ).
///
/// # Security
/// The public key enters only through μ (which hashes tr = H(pk), FIPS 204 Alg. 8 step 7):
/// nothing here ties `mu` to `pk`, and a key differing in low bits of t1 can verify the same
/// (σ, μ). Compute μ from this very key ([`compute_mu`]).
///
/// # Errors
/// [`Error::InvalidLength`], [`Error::InvalidSignature`].
pub fn verify_mu(mode: Mode, pk: &[u8], mu: &[u8; 64], sig: &[u8]) -> Result<(), Error> {
    dispatch!(mode, P => {
        check_len("public key", P::PK_LEN, pk.len())?;
        verify_generic::<P>(pk, mu, sig)
    })
}
