//! Hashing to G2: RFC 9380 suite `BLS12381G2_XMD:SHA-256_SSWU_RO_` (§8.8.2).
//!
//! expand_message_xmd (§5.3.1) is written here on `sha2` 0.10, the SHA-256 the crate already
//! carries, rather than through `bls12_381`'s own expander, which would pull a second SHA-256
//! implementation (`sha2` 0.9) into the WASM module. The field elements, the simplified SWU
//! map with its 3-isogeny (§6.6.3) and cofactor clearing (§7, by the ψ endomorphism) are
//! `bls12_381`'s.

use bls12_381::hash_to_curve::{HashToField, MapToCurve};
use bls12_381::{G2Affine, G2Projective};
use sha2::digest::generic_array::GenericArray;
use sha2::{Digest, Sha256};

use super::{Error, DST_POP, DST_SIGNATURE};

/// SHA-256 output size b_in_bytes.
const B_IN_BYTES: usize = 32;
/// SHA-256 block size s_in_bytes.
const S_IN_BYTES: usize = 64;
/// The longest output expand_message_xmd allows with SHA-256: ell ≤ 255 blocks.
pub(super) const MAX_XMD_LEN: usize = 255 * B_IN_BYTES;
/// L = ceil((ceil(log2(p)) + k) / 8) = 64 bytes per base-field element (k = 128).
const L: usize = 64;
/// hash_to_field(msg, 2) over F_p²: count 2 × m 2 × L bytes.
const LEN_IN_BYTES: usize = 2 * 2 * L;

/// RFC 9380 §5.3.1 expand_message_xmd with H = SHA-256, filling `out` (len_in_bytes =
/// `out.len()`).
///
/// # Errors
/// [`Error::TooLong`] for a DST over 255 bytes or an output over [`MAX_XMD_LEN`] bytes.
pub(super) fn expand_message_xmd(msg: &[u8], dst: &[u8], out: &mut [u8]) -> Result<(), Error> {
    // 1–3. ABORT if ell > 255, len_in_bytes > 65535 or len(DST) > 255 (§5.3.3 would hash an
    // oversized DST; we refuse it instead).
    if out.len() > MAX_XMD_LEN {
        return Err(Error::TooLong {
            what: "expanded message",
            max: MAX_XMD_LEN,
            got: out.len(),
        });
    }
    let dst_len = dst_len(dst)?;
    expand(msg, dst, dst_len, out);
    Ok(())
}

fn dst_len(dst: &[u8]) -> Result<u8, Error> {
    u8::try_from(dst.len()).map_err(|_| Error::TooLong {
        what: "domain separation tag",
        max: 255,
        got: dst.len(),
    })
}

/// expand_message_xmd after the checks: `out.len() <= MAX_XMD_LEN`, `dst_len = len(dst)`.
// Exact: len_in_bytes ≤ 8160 < 2^16 and the block index i + 1 ≤ 255 (checked by the caller).
#[allow(clippy::cast_possible_truncation)]
fn expand(msg: &[u8], dst: &[u8], dst_len: u8, out: &mut [u8]) {
    // 4. DST_prime = DST ‖ I2OSP(len(DST), 1), absorbed piecewise.
    let dst_prime = |h: Sha256| h.chain_update(dst).chain_update([dst_len]);
    // 5–8. msg_prime = Z_pad ‖ msg ‖ l_i_b_str ‖ I2OSP(0, 1) ‖ DST_prime; the length is at
    // most 8160, so it fits in two bytes.
    let l_i_b_str = (out.len() as u16).to_be_bytes();
    let b_0 = dst_prime(
        Sha256::new()
            .chain_update([0u8; S_IN_BYTES])
            .chain_update(msg)
            .chain_update(l_i_b_str)
            .chain_update([0u8]),
    )
    .finalize();
    // 9. b_1 = H(b_0 ‖ I2OSP(1, 1) ‖ DST_prime).
    let mut b_i = dst_prime(Sha256::new().chain_update(b_0).chain_update([1u8])).finalize();
    for (i, chunk) in out.chunks_mut(B_IN_BYTES).enumerate() {
        if i > 0 {
            // 10–11. b_i = H(strxor(b_0, b_(i − 1)) ‖ I2OSP(i, 1) ‖ DST_prime); i ≤ 255.
            let mut x = [0u8; B_IN_BYTES];
            for ((x, a), b) in x.iter_mut().zip(b_0.iter()).zip(b_i.iter()) {
                *x = a ^ b;
            }
            b_i = dst_prime(Sha256::new().chain_update(x).chain_update([(i + 1) as u8])).finalize();
        }
        // 12–13. uniform_bytes = b_1 ‖ … ‖ b_ell, truncated to len_in_bytes.
        chunk.copy_from_slice(&b_i[..chunk.len()]);
    }
}

/// RFC 9380 §3 hash_to_curve for `BLS12381G2_XMD:SHA-256_SSWU_RO_` under `dst`.
///
/// # Errors
/// [`Error::TooLong`] for a DST over 255 bytes.
pub(super) fn hash_to_g2(msg: &[u8], dst: &[u8]) -> Result<G2Affine, Error> {
    Ok(hash_to_g2_checked(msg, dst, dst_len(dst)?))
}

/// hash_to_point (draft-irtf-cfrg-bls-signature-05 §2.6): a message under [`DST_SIGNATURE`].
// Exact: the constant DST is 43 bytes.
#[allow(clippy::cast_possible_truncation)]
pub(super) fn hash_message(msg: &[u8]) -> G2Affine {
    hash_to_g2_checked(msg, DST_SIGNATURE, DST_SIGNATURE.len() as u8)
}

/// hash_pubkey_to_point (§3.3.1): a compressed public key under [`DST_POP`].
// Exact: the constant DST is 43 bytes.
#[allow(clippy::cast_possible_truncation)]
pub(super) fn hash_public_key(pk: &[u8; 48]) -> G2Affine {
    hash_to_g2_checked(pk, DST_POP, DST_POP.len() as u8)
}

// Both tags are 43 bytes, so the `as u8` above is exact.
const _: () = assert!(DST_SIGNATURE.len() <= 255 && DST_POP.len() <= 255);

/// u = hash_to_field(msg, 2); Q0 = map_to_curve(u0); Q1 = map_to_curve(u1);
/// P = clear_cofactor(Q0 + Q1), with `dst_len = len(dst) <= 255`.
fn hash_to_g2_checked(msg: &[u8], dst: &[u8], dst_len: u8) -> G2Affine {
    type Fp2 = <G2Projective as MapToCurve>::Field;
    let mut uniform = [0u8; LEN_IN_BYTES];
    expand(msg, dst, dst_len, &mut uniform);
    // §5.2 hash_to_field: each F_p² element takes m·L = 128 bytes (c0 then c1), reduced
    // mod p by `from_okm`. The halves have exactly the length the array type requires.
    let (okm0, okm1) = uniform.split_at(LEN_IN_BYTES / 2);
    let u0 = Fp2::from_okm(GenericArray::from_slice(okm0));
    let u1 = Fp2::from_okm(GenericArray::from_slice(okm1));
    let q0 = G2Projective::map_to_curve(&u0);
    let q1 = G2Projective::map_to_curve(&u1);
    G2Affine::from((q0 + q1).clear_h())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits() {
        let mut out = [0u8; 32];
        assert!(matches!(
            expand_message_xmd(b"", &[0u8; 256], &mut out),
            Err(Error::TooLong { max: 255, .. })
        ));
        let mut big = alloc::vec![0u8; MAX_XMD_LEN + 1];
        assert!(matches!(
            expand_message_xmd(b"", b"DST", &mut big),
            Err(Error::TooLong { .. })
        ));
        let mut max = alloc::vec![0u8; MAX_XMD_LEN];
        assert!(expand_message_xmd(b"", b"DST", &mut max).is_ok());
    }
}
