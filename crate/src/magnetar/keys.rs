//! Per-validator SLH-DSA keys: key generation from seeds, signing into `MAGS` envelopes,
//! verification of framed signatures.

use alloc::vec::Vec;

use zeroize::Zeroizing;

use super::envelope::{PublicKeyFrame, SignatureFrame};
use super::{Error, Mode};
use crate::{hash, slhdsa};

/// A validator's signing key: the FIPS 205 encoding SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root
/// (4n bytes) with its mode.
///
/// # Security
/// Wiped on drop; `Debug` does not show it. SLH-DSA is stateless: signing any number of
/// messages with one key is safe.
pub struct SigningKey {
    mode: Mode,
    sk: Zeroizing<Vec<u8>>,
}

impl core::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "magnetar::SigningKey<{}>(<redacted>)", self.mode.name())
    }
}

impl SigningKey {
    /// The key of FIPS 205 slh_keygen_internal (Algorithm 18) on the three n-byte seeds
    /// SK.seed, SK.prf, PK.seed; slh_keygen (Algorithm 21) is this with fresh random seeds.
    ///
    /// # Errors
    /// `INVALID_LENGTH` for a seed that is not n bytes.
    pub fn from_seeds(mode: Mode, sk_seed: &[u8], sk_prf: &[u8], pk_seed: &[u8]) -> Result<Self, Error> {
        let (_, sk) = slhdsa::keygen(mode.slhdsa(), sk_seed, sk_prf, pk_seed)?;
        Ok(SigningKey { mode, sk })
    }

    /// The reference's key from one 4n-byte seed (`mode.seed_len()`): SHAKE256(seed)
    /// squeezed to 3n bytes is split into SK.seed ‖ SK.prf ‖ PK.seed, then
    /// [`SigningKey::from_seeds`]. This step is not FIPS 205; it is what the reference's
    /// key files and KATs were made with.
    ///
    /// # Errors
    /// `INVALID_LENGTH` for a seed that is not 4n bytes.
    pub fn from_seed(mode: Mode, seed: &[u8]) -> Result<Self, Error> {
        if seed.len() != mode.seed_len() {
            return Err(Error::SlhDsa(slhdsa::Error::InvalidLength {
                what: "seed",
                expected: mode.seed_len(),
                got: seed.len(),
            }));
        }
        let n = mode.slhdsa().n();
        let mut expanded = Zeroizing::new(alloc::vec![0u8; 3 * n]);
        hash::shake256_into(&[seed], &mut expanded);
        Self::from_seeds(mode, &expanded[..n], &expanded[n..2 * n], &expanded[2 * n..])
    }

    /// Takes an encoded secret key (4n bytes). The embedded PK.root is taken as given
    /// (re-deriving it costs a key generation).
    ///
    /// # Errors
    /// `INVALID_LENGTH`.
    pub fn from_bytes(mode: Mode, bytes: &[u8]) -> Result<Self, Error> {
        let expected = mode.slhdsa().secret_key_len();
        if bytes.len() != expected {
            return Err(Error::SlhDsa(slhdsa::Error::InvalidLength {
                what: "secret key",
                expected,
                got: bytes.len(),
            }));
        }
        Ok(SigningKey {
            mode,
            sk: Zeroizing::new(bytes.to_vec()),
        })
    }

    /// The encoded secret key.
    ///
    /// # Security
    /// These bytes are the key.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        self.sk.clone()
    }

    /// The parameter set.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The matching public key (the last 2n bytes of the secret key).
    pub fn public_key(&self) -> PublicKey {
        let n = self.mode.slhdsa().n();
        PublicKey {
            mode: self.mode,
            pk: self.sk[2 * n..].to_vec(),
        }
    }

    /// Signs `msg` under context `ctx` (pure FIPS 205 slh_sign, Algorithm 22), hedged with
    /// the n bytes `addrnd`; returns the `MAGS` envelope.
    ///
    /// # Errors
    /// `INVALID_LENGTH` for `addrnd` of another size, `CONTEXT_TOO_LONG` over 255 bytes.
    pub fn sign(&self, msg: &[u8], ctx: &[u8], addrnd: &[u8]) -> Result<Vec<u8>, Error> {
        self.sign_with(msg, ctx, Some(addrnd))
    }

    /// Signs deterministically (opt_rand = PK.seed), as the reference's `ValidatorSign`
    /// without an RNG does (it uses an empty context).
    ///
    /// # Errors
    /// `CONTEXT_TOO_LONG`.
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Vec<u8>, Error> {
        self.sign_with(msg, ctx, None)
    }

    fn sign_with(&self, msg: &[u8], ctx: &[u8], addrnd: Option<&[u8]>) -> Result<Vec<u8>, Error> {
        let sig = slhdsa::sign(self.mode.slhdsa(), &self.sk, msg, ctx, addrnd)?;
        SignatureFrame::encode(self.mode, &sig)
    }
}

/// A validator's public key: PK.seed ‖ PK.root (2n bytes) with its mode.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PublicKey {
    mode: Mode,
    pk: Vec<u8>,
}

impl core::fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "magnetar::PublicKey<{}>(", self.mode.name())?;
        for b in self.pk.iter().take(8) {
            write!(f, "{b:02x}")?;
        }
        write!(f, "…)")
    }
}

impl PublicKey {
    /// A raw FIPS 205 public key of `mode` (every 2n-byte string is one).
    ///
    /// # Errors
    /// `INVALID_LENGTH`.
    pub fn from_bytes(mode: Mode, bytes: &[u8]) -> Result<Self, Error> {
        let expected = mode.public_key_len();
        if bytes.len() != expected {
            return Err(Error::SlhDsa(slhdsa::Error::InvalidLength {
                what: "public key",
                expected,
                got: bytes.len(),
            }));
        }
        Ok(PublicKey {
            mode,
            pk: bytes.to_vec(),
        })
    }

    /// A key from its `MAGG` envelope.
    ///
    /// # Errors
    /// The envelope's decoding errors (`TOO_SHORT`, `BAD_MAGIC`, …).
    pub fn from_frame(frame: &[u8]) -> Result<Self, Error> {
        let f = PublicKeyFrame::decode(frame)?;
        Ok(PublicKey {
            mode: f.mode,
            pk: f.public_key.to_vec(),
        })
    }

    /// The `MAGG` envelope of this key.
    pub fn to_frame(&self) -> Vec<u8> {
        self.as_frame().to_bytes()
    }

    /// This key as a borrowed envelope view.
    pub fn as_frame(&self) -> PublicKeyFrame<'_> {
        PublicKeyFrame {
            mode: self.mode,
            public_key: &self.pk,
        }
    }

    /// The raw FIPS 205 public key.
    pub fn as_bytes(&self) -> &[u8] {
        &self.pk
    }

    /// The parameter set.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Verifies the `MAGS` envelope `signature` on `msg` under context `ctx` (pure FIPS 205
    /// slh_verify, Algorithm 24).
    ///
    /// # Errors
    /// The envelope's decoding errors; `WRONG_MODE` for a signature of another set;
    /// `CONTEXT_TOO_LONG`; `INVALID_SIGNATURE`.
    pub fn verify(&self, msg: &[u8], ctx: &[u8], signature: &[u8]) -> Result<(), Error> {
        let sig = SignatureFrame::decode(signature)?;
        self.verify_raw(msg, ctx, sig)
    }

    pub(super) fn verify_raw(&self, msg: &[u8], ctx: &[u8], sig: SignatureFrame<'_>) -> Result<(), Error> {
        if sig.mode != self.mode {
            return Err(Error::WrongMode {
                expected: self.mode,
                got: sig.mode,
            });
        }
        slhdsa::verify(self.mode.slhdsa(), &self.pk, msg, ctx, sig.signature)?;
        Ok(())
    }
}

/// Verifies a `MAGS` envelope on `msg` under context `ctx` and a `MAGG` envelope, all given
/// as bytes: the stateless check, with a typed error for every reason to refuse.
///
/// # Errors
/// Either envelope's decoding errors; `WRONG_MODE` when the two modes differ;
/// `CONTEXT_TOO_LONG`; `INVALID_SIGNATURE`.
pub fn verify_frames(public_key: &[u8], msg: &[u8], ctx: &[u8], signature: &[u8]) -> Result<(), Error> {
    let key = PublicKeyFrame::decode(public_key)?;
    let sig = SignatureFrame::decode(signature)?;
    if key.mode != sig.mode {
        return Err(Error::WrongMode {
            expected: key.mode,
            got: sig.mode,
        });
    }
    slhdsa::verify(key.mode.slhdsa(), key.public_key, msg, ctx, sig.signature)?;
    Ok(())
}

/// The reference's `VerifyBytes`: [`verify_frames`] with an empty context, as a `bool`.
/// Any malformed input is `false`; nothing panics.
pub fn verify_bytes(public_key: &[u8], msg: &[u8], signature: &[u8]) -> bool {
    verify_frames(public_key, msg, b"", signature).is_ok()
}
