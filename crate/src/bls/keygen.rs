//! Secret keys: KeyGen, SkToPk, Sign and PopProve (draft-irtf-cfrg-bls-signature-05 §2.3,
//! §2.4, §2.6, §3.3.2). Not in the verify-only `light` build.

use core::fmt;

use bls12_381::{G1Affine, G2Projective, Scalar};
use hkdf::HkdfExtract;
use sha2::{Digest, Sha256};
use zeroize::{Zeroize, Zeroizing};

use super::points::fixed;
use super::{hash, Error, ProofOfPossession, Signature, VerifyingKey, MIN_IKM_LEN, SECRET_KEY_LEN};

/// L = ceil((3 · ceil(log2(r))) / 16) = 48 bytes of HKDF output per key (§2.3).
const L: usize = 48;

/// The salt of draft version 4, SHA-256("BLS-SIG-KEYGEN-SALT-"): with it, KeyGen of version 5
/// equals version 4's and Ethereum's EIP-2333 `HKDF_mod_r`.
fn keygen_salt() -> [u8; 32] {
    Sha256::digest(b"BLS-SIG-KEYGEN-SALT-").into()
}

/// A BLS secret key, an integer 1 ≤ SK < r.
///
/// # Security
/// Stored as its 32-byte encoding and wiped on drop; `Debug` prints `<redacted>`. Never send
/// it anywhere. The OKM and the wide integer of KeyGen are wiped too; the scalar rebuilt for
/// each signature (`bls12_381::Scalar` has no `Zeroize`) and the HMAC state inside `hkdf`
/// live on the stack for that call only and are not wiped.
pub struct SigningKey {
    /// I2OSP(SK, 32), big-endian.
    bytes: Zeroizing<[u8; SECRET_KEY_LEN]>,
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SigningKey(<redacted>)")
    }
}

impl SigningKey {
    /// KeyGen (§2.3) with salt = SHA-256("BLS-SIG-KEYGEN-SALT-") (version-4 compatible) and
    /// `key_info` (empty by default): the key derived from at least 32 secret bytes `ikm`.
    ///
    /// # Errors
    /// [`Error::IkmTooShort`].
    ///
    /// # Security
    /// `ikm` must be infeasible to guess and kept secret.
    // Exact: L = 48.
    #[allow(clippy::cast_possible_truncation)]
    pub fn keygen(ikm: &[u8], key_info: &[u8]) -> Result<Self, Error> {
        if ikm.len() < MIN_IKM_LEN {
            return Err(Error::IkmTooShort { got: ikm.len() });
        }
        let mut salt = keygen_salt();
        loop {
            // 2. PRK = HKDF-Extract(salt, IKM ‖ I2OSP(0, 1))
            let mut extract = HkdfExtract::<Sha256>::new(Some(&salt));
            extract.input_ikm(ikm);
            extract.input_ikm(&[0]);
            let (_, hkdf) = extract.finalize();
            // 3. OKM = HKDF-Expand(PRK, key_info ‖ I2OSP(L, 2), L); L = 48 is far below
            // HKDF-SHA256's limit of 8160 bytes, so expansion cannot fail.
            let mut okm = Zeroizing::new([0u8; L]);
            if hkdf
                .expand_multi_info(&[key_info, &(L as u16).to_be_bytes()], &mut okm[..])
                .is_err()
            {
                unreachable!("48 bytes is a valid HKDF-SHA256 output length");
            }
            // 4. SK = OS2IP(OKM) mod r: reverse into a 64-byte little-endian integer.
            let mut wide = Zeroizing::new([0u8; 64]);
            for (w, o) in wide.iter_mut().zip(okm.iter().rev()) {
                *w = *o;
            }
            let sk = Scalar::from_bytes_wide(&wide);
            // 5–6. A zero key happens with probability 2^-255: the only branch on the secret.
            if !bool::from(subtle::ConstantTimeEq::ct_eq(&sk, &Scalar::zero())) {
                return Ok(SigningKey::from_scalar(&sk));
            }
            // 7. salt = H(salt)
            salt = Sha256::digest(salt).into();
        }
    }

    /// Decodes I2OSP(SK, 32), a big-endian integer 1 ≤ SK < r.
    ///
    /// # Errors
    /// [`Error::InvalidSecretKey`] for 0 or a value ≥ r.
    pub fn from_bytes(bytes: &[u8; SECRET_KEY_LEN]) -> Result<Self, Error> {
        let key = SigningKey {
            bytes: Zeroizing::new(*bytes),
        };
        let scalar = Option::<Scalar>::from(Scalar::from_bytes(&key.little_endian()))
            .ok_or(Error::InvalidSecretKey)?;
        if bool::from(subtle::ConstantTimeEq::ct_eq(&scalar, &Scalar::zero())) {
            return Err(Error::InvalidSecretKey);
        }
        Ok(key)
    }

    /// The 32-byte big-endian encoding.
    ///
    /// # Security
    /// These bytes are the key: keep them secret.
    pub fn to_bytes(&self) -> Zeroizing<[u8; SECRET_KEY_LEN]> {
        self.bytes.clone()
    }

    /// SkToPk (§2.4): PK = SK · P1.
    pub fn verifying_key(&self) -> VerifyingKey {
        let point = G1Affine::from(G1Affine::generator() * self.scalar());
        VerifyingKey::from_point(point)
    }

    /// Sign (§2.6 CoreSign with [`DST_SIGNATURE`](super::DST_SIGNATURE)):
    /// R = SK · hash_to_point(message).
    pub fn sign(&self, message: &[u8]) -> Signature {
        let q = G2Projective::from(hash::hash_message(message));
        Signature::from_point((q * self.scalar()).into())
    }

    /// PopProve (§3.3.2): R = SK · hash_pubkey_to_point(SkToPk(SK)).
    pub fn prove_possession(&self) -> ProofOfPossession {
        let q = G2Projective::from(hash::hash_public_key(&self.verifying_key().to_bytes()));
        ProofOfPossession::from_point((q * self.scalar()).into())
    }

    fn from_scalar(sk: &Scalar) -> Self {
        let mut le = sk.to_bytes();
        let mut bytes = Zeroizing::new([0u8; SECRET_KEY_LEN]);
        for (b, l) in bytes.iter_mut().zip(le.iter().rev()) {
            *b = *l;
        }
        le.zeroize();
        SigningKey { bytes }
    }

    fn little_endian(&self) -> Zeroizing<[u8; SECRET_KEY_LEN]> {
        let mut le = Zeroizing::new([0u8; SECRET_KEY_LEN]);
        for (l, b) in le.iter_mut().zip(self.bytes.iter().rev()) {
            *l = *b;
        }
        le
    }

    /// The scalar. Every `SigningKey` holds a canonical non-zero encoding (checked in
    /// `from_bytes`, reduced in `keygen`), so the fallback is never taken.
    fn scalar(&self) -> Scalar {
        Option::<Scalar>::from(Scalar::from_bytes(&self.little_endian())).unwrap_or(Scalar::zero())
    }
}

impl TryFrom<&[u8]> for SigningKey {
    type Error = Error;

    /// [`SigningKey::from_bytes`] after checking the length.
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        SigningKey::from_bytes(fixed(bytes, "secret key")?)
    }
}
