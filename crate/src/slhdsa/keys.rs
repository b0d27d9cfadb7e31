//! Typed keys and signatures generic over the parameter set: [`SigningKey`],
//! [`VerifyingKey`], [`Signature`], each decoded with `TryFrom<&[u8]>` (a typed
//! [`Error`]) and encoded with `to_bytes`.

use alloc::vec::Vec;
use core::marker::PhantomData;

use zeroize::Zeroizing;

use super::{api, check_len, keygen_generic, Error, Params};

/// An SLH-DSA signing key for parameter set `P`: the encoded secret key
/// SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root.
///
/// # Security
/// Wiped on drop. `Debug` does not show it. Never send it anywhere.
pub struct SigningKey<P: Params> {
    sk: Zeroizing<Vec<u8>>,
    _p: PhantomData<P>,
}

impl<P: Params> core::fmt::Debug for SigningKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SigningKey<{}>(<redacted>)", P::MODE.name())
    }
}

impl<P: Params> SigningKey<P> {
    /// The key determined by the n-byte seeds (FIPS 205, Algorithm 18 (slh_keygen_internal)).
    ///
    /// # Errors
    /// [`Error::InvalidLength`] for a seed that is not n bytes.
    pub fn from_seeds(sk_seed: &[u8], sk_prf: &[u8], pk_seed: &[u8]) -> Result<Self, Error> {
        let (_, sk) = keygen_generic::<P>(sk_seed, sk_prf, pk_seed)?;
        Ok(SigningKey { sk, _p: PhantomData })
    }

    /// Decodes an encoded secret key (4n bytes). The embedded PK.root is taken as given.
    ///
    /// # Errors
    /// [`Error::InvalidLength`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        check_len("secret key", P::SK_LEN, bytes.len())?;
        Ok(SigningKey {
            sk: Zeroizing::new(bytes.to_vec()),
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

    /// The matching verifying key (the last 2n bytes of the secret key).
    pub fn verifying_key(&self) -> VerifyingKey<P> {
        VerifyingKey {
            pk: self.sk[2 * P::N..].to_vec(),
            _p: PhantomData,
        }
    }

    /// Signs `msg` under context `ctx`, hedged with the n random bytes `addrnd`
    /// (FIPS 205, Algorithm 22 (slh_sign)).
    ///
    /// # Errors
    /// [`Error::InvalidLength`] if `addrnd` is not n bytes, [`Error::ContextTooLong`].
    pub fn sign(&self, msg: &[u8], ctx: &[u8], addrnd: &[u8]) -> Result<Signature<P>, Error> {
        api::sign::<P>(&self.sk, msg, ctx, Some(addrnd)).map(Signature::from_vec)
    }

    /// Signs `msg` under context `ctx` deterministically, opt_rand = PK.seed
    /// (FIPS 205, Algorithm 22 (slh_sign)).
    ///
    /// # Errors
    /// [`Error::ContextTooLong`].
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<P>, Error> {
        api::sign::<P>(&self.sk, msg, ctx, None).map(Signature::from_vec)
    }
}

impl<P: Params> TryFrom<&[u8]> for SigningKey<P> {
    type Error = Error;

    /// [`SigningKey::from_bytes`].
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        SigningKey::from_bytes(bytes)
    }
}

/// An SLH-DSA verifying (public) key for parameter set `P`: PK.seed ‖ PK.root.
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
    /// Decodes an encoded public key (every 2n-byte string is a key).
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

    /// Verifies `sig` on `msg` under context `ctx` (FIPS 205, Algorithm 24 (slh_verify)).
    ///
    /// # Errors
    /// [`Error::ContextTooLong`], [`Error::InvalidSignature`].
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &Signature<P>) -> Result<(), Error> {
        api::verify::<P>(&self.pk, msg, ctx, &sig.bytes)
    }
}

impl<P: Params> TryFrom<&[u8]> for VerifyingKey<P> {
    type Error = Error;

    /// [`VerifyingKey::from_bytes`].
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        VerifyingKey::from_bytes(bytes)
    }
}

/// An SLH-DSA signature for parameter set `P`: R ‖ SIG_FORS ‖ SIG_HT, `P::SIG_LEN` bytes.
/// Decoding checks the length; every byte string of that length is a signature to verify.
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
