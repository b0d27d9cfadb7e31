//! The consistency check of an expanded secret key imported without its seed (RFC 9881 §8.2
//! asks a recipient to refuse an inconsistent one): used by [`crate::keyfmt`].

use alloc::vec;
use alloc::vec::Vec;

use zeroize::{Zeroize, Zeroizing};

use super::{check_len, dispatch, encode, keygen, poly, Error, MlDsa44, MlDsa65, MlDsa87, Mode, Params};

/// The public key of an encoded secret key, if the key is one ML-DSA.KeyGen could output:
/// s1 and s2 in range ([`Error::MalformedSecretKey`] otherwise), t0 the low bits of
/// A·s1 + s2 and tr the hash of the rebuilt public key (`Ok(None)` otherwise).
pub(crate) fn public_from_expanded(mode: Mode, sk: &[u8]) -> Result<Option<Vec<u8>>, Error> {
    dispatch!(mode, P => check::<P>(sk))
}

fn check<P: Params>(sk: &[u8]) -> Result<Option<Vec<u8>>, Error> {
    check_len("secret key", P::SK_LEN, sk.len())?;
    let mut parts = Zeroizing::new(encode::sk_decode::<P>(sk).ok_or(Error::MalformedSecretKey)?);
    let mut t0 = Zeroizing::new(poly::zero_vec());
    let t1 = keygen::compute_t::<P>(&parts.rho, &parts.s1, &parts.s2, &mut t0);
    let mut pk = vec![0u8; P::PK_LEN];
    encode::pk_encode::<P>(&parts.rho, &t1, &mut pk);
    // Public: the public key is this function's output.
    crate::ct::public_slice(&pk);
    // Constant flow over the secret t0: accumulate every difference.
    let mut diff = 0i32;
    for (a, b) in t0.iter().zip(parts.t0.iter()).take(P::K) {
        for (x, y) in a.0.iter().zip(b.0.iter()) {
            diff |= x ^ y;
        }
    }
    let mut tr = [0u8; 64];
    crate::hash::shake256_into(&[&pk], &mut tr);
    let consistent = diff == 0 && tr == parts.tr;
    parts.zeroize();
    Ok(consistent.then_some(pk))
}
