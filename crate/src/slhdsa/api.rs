//! The pure external interface (FIPS 205 §10.2–10.3): signing and verifying a message
//! under a context string of at most 255 bytes, M′ = 0x00 ‖ |ctx| ‖ ctx ‖ M.

use alloc::vec;
use alloc::vec::Vec;

use super::internal::{self, VerifyItem};
use super::params::Params;
use super::{check_context, check_len, BatchItem, Error};

/// The domain-separation prefix toByte(0, 1) ‖ toByte(|ctx|, 1) of the pure interface
/// (FIPS 205 Alg. 22 line 8, Alg. 24 line 4). `ctx` is at most 255 bytes (checked).
// Exact: |ctx| ≤ 255 is checked before.
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn pure_prefix(ctx: &[u8]) -> [u8; 2] {
    [0, ctx.len() as u8]
}

/// FIPS 205, Algorithm 22 (slh_sign), the pure interface, with the encoded secret key `sk`. `addrnd`
/// is the n-byte hedging randomness; `None` signs deterministically (opt_rand = PK.seed).
pub(crate) fn sign<P: Params>(
    sk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    addrnd: Option<&[u8]>,
) -> Result<Vec<u8>, Error> {
    check_context(ctx)?;
    sign_parts::<P>(sk, &[&pure_prefix(ctx), ctx, msg], addrnd)
}

/// FIPS 205, Algorithm 19 (slh_sign_internal) on M′ given as pieces, after the length checks.
pub(crate) fn sign_parts<P: Params>(
    sk: &[u8],
    msg: &[&[u8]],
    addrnd: Option<&[u8]>,
) -> Result<Vec<u8>, Error> {
    check_len("secret key", P::SK_LEN, sk.len())?;
    if let Some(r) = addrnd {
        check_len("randomness", P::N, r.len())?;
    }
    let mut sig = vec![0u8; P::SIG_LEN];
    internal::sign::<P>(sk, msg, addrnd, &mut sig);
    Ok(sig)
}

/// FIPS 205, Algorithm 24 (slh_verify), the pure interface.
pub(crate) fn verify<P: Params>(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
    check_context(ctx)?;
    verify_parts::<P>(pk, [&pure_prefix(ctx), ctx, msg], sig)
}

/// FIPS 205, Algorithm 20 (slh_verify_internal) on M′ given as pieces, after the length checks.
/// A signature of the wrong length is an [`Error::InvalidLength`], as the standard's
/// "if |SIG| ≠ …, return false" is, here, a decoding failure.
pub(crate) fn verify_parts<P: Params>(pk: &[u8], msg: [&[u8]; 3], sig: &[u8]) -> Result<(), Error> {
    check_len("public key", P::PK_LEN, pk.len())?;
    check_len("signature", P::SIG_LEN, sig.len())?;
    let ok = internal::verify_many::<P>(&[VerifyItem { pk, msg, sig }]);
    if ok.first() == Some(&true) {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}

/// Pure verification of many signatures at once: one verdict per item, `false` also for
/// an item whose key or signature has the wrong length or whose context is too long.
pub(crate) fn verify_batch<P: Params>(items: &[BatchItem<'_>], internal_interface: bool) -> Vec<bool> {
    let prefixes: Vec<[u8; 2]> = items.iter().map(|it| pure_prefix(it.context)).collect();
    let mut well_formed = Vec::with_capacity(items.len());
    let mut slot = Vec::with_capacity(items.len());
    for (i, it) in items.iter().enumerate() {
        let ok_len = it.public_key.len() == P::PK_LEN
            && it.signature.len() == P::SIG_LEN
            && (internal_interface || it.context.len() <= 255);
        if ok_len {
            let msg: [&[u8]; 3] = if internal_interface {
                [it.message, &[], &[]]
            } else {
                [&prefixes[i], it.context, it.message]
            };
            well_formed.push(VerifyItem {
                pk: it.public_key,
                msg,
                sig: it.signature,
            });
            slot.push(i);
        }
    }
    let mut verdicts = vec![false; items.len()];
    for (ok, i) in internal::verify_many::<P>(&well_formed).into_iter().zip(slot) {
        verdicts[i] = ok;
    }
    verdicts
}

#[cfg(test)]
mod tests {
    use super::super::params::Shake128f;
    use super::*;
    use crate::hash::keccak_x4::{self, Backend};

    /// The portable Keccak path signs and verifies byte for byte as the vector backends do
    /// (the switch is process-wide: other tests running meanwhile only change speed).
    #[test]
    fn portable_backend_signs_and_verifies_identically() {
        let (mut pk, mut sk) = (vec![0u8; 32], vec![0u8; 64]);
        internal::keygen::<Shake128f>(&[0x60; 16], &[0x61; 16], &[0x62; 16], &mut pk, &mut sk);
        let (msg, ctx) = (b"backend".as_slice(), b"bad input".as_slice());
        let sig = sign::<Shake128f>(&sk, msg, ctx, Some(&[0x63; 16])).expect("sign");
        keccak_x4::set_backend(Backend::Portable);
        let portable = sign::<Shake128f>(&sk, msg, ctx, Some(&[0x63; 16])).expect("sign");
        let ok = verify::<Shake128f>(&pk, msg, ctx, &sig);
        keccak_x4::set_backend(Backend::Auto);
        assert_eq!(portable, sig);
        assert_eq!(ok, Ok(()));
    }
}
