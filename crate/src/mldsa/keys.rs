//! Typed keys and signatures generic over the parameter set ([`SigningKey`],
//! [`VerifyingKey`], [`PreparedVerifyingKey`], [`Signature`]) and the byte API's prepared
//! key ([`PreparedPublicKey`]).

use alloc::vec;
use alloc::vec::Vec;
use core::marker::PhantomData;

use zeroize::{Zeroize, Zeroizing};

use super::*;

/// A public key of a runtime-chosen set, expanded for repeated verification (the byte
/// API's counterpart of [`PreparedVerifyingKey`]).
#[derive(Clone)]
pub struct PreparedPublicKey {
    mode: Mode,
    key: verify::Prepared,
}

impl core::fmt::Debug for PreparedPublicKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "PreparedPublicKey<{}>", self.mode.name())
    }
}

impl PreparedPublicKey {
    /// Expands the encoded public key `pk` of set `mode`.
    ///
    /// # Errors
    /// [`Error::InvalidLength`].
    pub fn new(mode: Mode, pk: &[u8]) -> Result<Self, Error> {
        check_len("public key", mode.public_key_len(), pk.len())?;
        let key = dispatch!(mode, P => verify::Prepared::new::<P>(pk));
        Ok(PreparedPublicKey { mode, key })
    }

    /// The parameter set.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// FIPS 204 Alg. 3 ML-DSA.Verify with context `ctx`; same result as [`verify`].
    ///
    /// # Errors
    /// [`Error::InvalidLength`] for a signature of the wrong length,
    /// [`Error::ContextTooLong`], [`Error::InvalidSignature`].
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
        check_context(ctx)?;
        let mu = mu_from_tr(&self.key.tr, &[&pure_prefix(ctx), ctx], msg);
        dispatch!(self.mode, P => {
            check_len("signature", P::SIG_LEN, sig.len())?;
            if verify::verify_mu_prepared::<P>(&self.key, &mu, sig) {
                Ok(())
            } else {
                Err(Error::InvalidSignature)
            }
        })
    }
}

/// An ML-DSA signing key for parameter set `P` (the encoded secret key, and the seed
/// when it was generated from one).
///
/// # Security
/// Wiped on drop. `Debug` does not show it. Never send it anywhere.
pub struct SigningKey<P: Params> {
    sk: Zeroizing<Vec<u8>>,
    seed: Option<Zeroizing<[u8; 32]>>,
    _p: PhantomData<P>,
}

impl<P: Params> core::fmt::Debug for SigningKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SigningKey<{}>(<redacted>)", P::MODE.name())
    }
}

impl<P: Params> SigningKey<P> {
    /// FIPS 204 Alg. 1 / 6: the key determined by the 32-byte seed ξ.
    pub fn from_seed(seed: &[u8; 32]) -> Self {
        let mut pk = vec![0u8; P::PK_LEN];
        let mut sk = Zeroizing::new(vec![0u8; P::SK_LEN]);
        keygen::keygen_internal::<P>(seed, &mut pk, &mut sk);
        SigningKey {
            sk,
            seed: Some(Zeroizing::new(*seed)),
            _p: PhantomData,
        }
    }

    /// Decodes an encoded secret key (FIPS 204 Alg. 25 skDecode).
    ///
    /// # Errors
    /// [`Error::InvalidLength`], [`Error::MalformedSecretKey`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        check_len("secret key", P::SK_LEN, bytes.len())?;
        if encode::sk_decode::<P>(bytes).is_none() {
            return Err(Error::MalformedSecretKey);
        }
        Ok(SigningKey {
            sk: Zeroizing::new(bytes.to_vec()),
            seed: None,
            _p: PhantomData,
        })
    }

    /// The encoded secret key (`P::SK_LEN` bytes).
    ///
    /// # Security
    /// These bytes are the key: keep them secret.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        self.sk.clone()
    }

    /// The seed ξ the key was generated from, if it was.
    ///
    /// # Security
    /// These bytes are the key: keep them secret.
    pub fn seed(&self) -> Option<&[u8; 32]> {
        self.seed.as_deref()
    }

    /// The matching verifying key, rebuilt from the secret key.
    pub fn verifying_key(&self) -> VerifyingKey<P> {
        // The seed regenerates pk exactly; a key decoded from bytes recomputes t from s1, s2.
        let seed = match &self.seed {
            Some(s) => **s,
            None => {
                return VerifyingKey {
                    pk: public_from_secret::<P>(&self.sk),
                    _p: PhantomData,
                }
            }
        };
        let mut pk = vec![0u8; P::PK_LEN];
        let mut sk = Zeroizing::new(vec![0u8; P::SK_LEN]);
        keygen::keygen_internal::<P>(&seed, &mut pk, &mut sk);
        VerifyingKey { pk, _p: PhantomData }
    }

    /// FIPS 204 Alg. 2 ML-DSA.Sign, hedged with the 32 random bytes `rnd`.
    ///
    /// # Errors
    /// [`Error::ContextTooLong`].
    pub fn sign(&self, msg: &[u8], ctx: &[u8], rnd: &[u8; 32]) -> Result<Signature<P>, Error> {
        sign(P::MODE, &self.sk, msg, ctx, Some(rnd)).map(Signature::from_vec)
    }

    /// FIPS 204 Alg. 2 ML-DSA.Sign, deterministic variant (rnd = 0^32).
    ///
    /// # Errors
    /// [`Error::ContextTooLong`].
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<P>, Error> {
        sign(P::MODE, &self.sk, msg, ctx, None).map(Signature::from_vec)
    }
}

impl<P: Params> TryFrom<&[u8]> for SigningKey<P> {
    type Error = Error;

    /// [`SigningKey::from_bytes`].
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        SigningKey::from_bytes(bytes)
    }
}

/// Recomputes pk = (ρ, t1) from an encoded secret key: t = NTT^-1(Â ∘ NTT(s1)) + s2.
fn public_from_secret<P: Params>(sk: &[u8]) -> Vec<u8> {
    let mut pk = vec![0u8; P::PK_LEN];
    // Length and coefficient ranges were checked when the key was decoded.
    if let Some(mut parts) = encode::sk_decode::<P>(sk) {
        let (s1, s2) = (parts.s1, parts.s2);
        let t1 = keygen::compute_t::<P>(&parts.rho, &s1, &s2, &mut parts.t0);
        encode::pk_encode::<P>(&parts.rho, &t1, &mut pk);
        // Public: the public key is this function's output.
        crate::ct::public_slice(&pk);
        let (mut s1, mut s2) = (s1, s2);
        s1.zeroize();
        s2.zeroize();
    }
    pk
}

/// An ML-DSA verifying (public) key for parameter set `P`.
#[derive(Clone, PartialEq, Eq)]
pub struct VerifyingKey<P: Params> {
    pk: Vec<u8>,
    _p: PhantomData<P>,
}

impl<P: Params> core::fmt::Debug for VerifyingKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "VerifyingKey<{}>({} bytes)", P::MODE.name(), self.pk.len())
    }
}

impl<P: Params> VerifyingKey<P> {
    /// Decodes an encoded public key (FIPS 204 Alg. 23 pkDecode; every byte string of
    /// the right length is a valid key).
    ///
    /// # Errors
    /// [`Error::InvalidLength`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        check_len("public key", P::PK_LEN, bytes.len())?;
        Ok(VerifyingKey {
            pk: bytes.to_vec(),
            _p: PhantomData,
        })
    }

    /// The encoded public key (`P::PK_LEN` bytes).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.pk.clone()
    }

    /// The encoded public key, borrowed.
    pub fn as_bytes(&self) -> &[u8] {
        &self.pk
    }

    /// FIPS 204 Alg. 3 ML-DSA.Verify with context `ctx`.
    ///
    /// # Errors
    /// [`Error::ContextTooLong`], [`Error::InvalidSignature`].
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &Signature<P>) -> Result<(), Error> {
        verify(P::MODE, &self.pk, msg, ctx, &sig.bytes)
    }

    /// Expands the key once (the matrix Â, NTT(t1·2^d) and tr) for verifying many
    /// signatures under it: each verification then skips the k·ℓ SHAKE128 matrix
    /// expansions that dominate a cold verification.
    pub fn prepare(&self) -> PreparedVerifyingKey<P> {
        let key = PreparedPublicKey {
            mode: P::MODE,
            key: verify::Prepared::new::<P>(&self.pk),
        };
        PreparedVerifyingKey { key, _p: PhantomData }
    }
}

impl<P: Params> TryFrom<&[u8]> for VerifyingKey<P> {
    type Error = Error;

    /// [`VerifyingKey::from_bytes`].
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        VerifyingKey::from_bytes(bytes)
    }
}

/// A verifying key expanded for repeated verification (see [`VerifyingKey::prepare`]).
/// It holds only public data: about (k·ℓ + k) KiB.
#[derive(Clone)]
pub struct PreparedVerifyingKey<P: Params> {
    key: PreparedPublicKey,
    _p: PhantomData<P>,
}

impl<P: Params> core::fmt::Debug for PreparedVerifyingKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "PreparedVerifyingKey<{}>", P::MODE.name())
    }
}

impl<P: Params> PreparedVerifyingKey<P> {
    /// FIPS 204 Alg. 3 ML-DSA.Verify with context `ctx`; same result as
    /// [`VerifyingKey::verify`].
    ///
    /// # Errors
    /// [`Error::ContextTooLong`], [`Error::InvalidSignature`].
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &Signature<P>) -> Result<(), Error> {
        self.key.verify(msg, ctx, &sig.bytes)
    }
}

/// An ML-DSA signature for parameter set `P`: its `P::SIG_LEN`-byte encoding (FIPS 204
/// Alg. 26 sigEncode). Decoding checks the length; the hint and the range of z are checked
/// by verification, which rejects a malformed signature as invalid.
pub struct Signature<P: Params> {
    bytes: Vec<u8>,
    _p: PhantomData<P>,
}

// By hand: a derive would ask `P` itself to be `Clone` and `PartialEq`.
impl<P: Params> Clone for Signature<P> {
    fn clone(&self) -> Self {
        Signature::from_vec(self.bytes.clone())
    }
}

impl<P: Params> PartialEq for Signature<P> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}

impl<P: Params> Eq for Signature<P> {}

impl<P: Params> core::fmt::Debug for Signature<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Signature<{}>({} bytes)", P::MODE.name(), self.bytes.len())
    }
}

impl<P: Params> Signature<P> {
    /// Takes an encoded signature of `P::SIG_LEN` bytes.
    ///
    /// # Errors
    /// [`Error::InvalidLength`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        check_len("signature", P::SIG_LEN, bytes.len())?;
        Ok(Signature::from_vec(bytes.to_vec()))
    }

    /// The encoded signature (`P::SIG_LEN` bytes).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.bytes.clone()
    }

    /// The encoded signature, borrowed.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Wraps the output of signing (always `P::SIG_LEN` bytes).
    fn from_vec(bytes: Vec<u8>) -> Self {
        debug_assert_eq!(bytes.len(), P::SIG_LEN);
        Signature {
            bytes,
            _p: PhantomData,
        }
    }
}

impl<P: Params> TryFrom<&[u8]> for Signature<P> {
    type Error = Error;

    /// [`Signature::from_bytes`].
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Signature::from_bytes(bytes)
    }
}
