//! ML-DSA and SLH-DSA keys in the formats other tools use: X.509 SubjectPublicKeyInfo and
//! PKCS #8 OneAsymmetricKey (DER and PEM), and JOSE/COSE `AKP` keys (JWK text, COSE_Key CBOR).
//!
//! ```text
//! public:  PublicKey::new(alg, bytes)     → to_spki_der / to_pem / to_jwk / to_cose_key
//!          PublicKey::from_spki_der(der)  | from_pem(text)   → algorithm(), as_bytes()
//! private: PrivateKey::ml_dsa_from_seed(mode, seed) | ml_dsa_from_expanded(mode, sk)
//!          | slh_dsa_from_bytes(mode, sk)
//!          → to_pkcs8_der() (seed-only) / to_pkcs8_der_with(form, with_public) / to_pkcs8_pem(_with)
//!          → to_jwk() / to_cose_key();   public_key() → PublicKey
//!          PrivateKey::from_pkcs8_der(der) | from_pkcs8_pem(text)
//! AKP:     decode_jwk(text) | decode_cose_key(bytes) → AkpKey::Public | AkpKey::Private
//! ```
//!
//! | format | ML-DSA-44/65/87 | SLH-DSA-SHAKE-* |
//! |---|---|---|
//! | SubjectPublicKeyInfo (RFC 9881 / RFC 9909), `PUBLIC KEY` PEM | all | all six |
//! | OneAsymmetricKey (PKCS #8), `PRIVATE KEY` PEM | seed, expandedKey, both | the 4n-byte key |
//! | JWK `AKP` (RFC 9964) | all; `priv` is the seed | SHAKE-128s only (draft-ietf-cose-sphincs-plus) |
//! | COSE_Key `AKP` (kty 7, alg −48/−49/−50) | all; `priv` is the seed | none: the draft's numbers are TBD |
//!
//! Object identifiers: 2.16.840.1.101.3.4.3.17/18/19 (ML-DSA-44/65/87) and
//! 2.16.840.1.101.3.4.3.26…31 (SLH-DSA-SHAKE-128s, -128f, -192s, -192f, -256s, -256f), with
//! parameters absent.
//!
//! # Strictness
//! Every decoder is hand-written and refuses what its standard does not produce: BER
//! leniencies (indefinite or non-minimal lengths), trailing bytes, unknown or parameterised
//! algorithm identifiers, a OneAsymmetricKey whose version disagrees with its optional
//! public key, non-canonical base64, duplicate JSON members or COSE labels, non-minimal or
//! indefinite-length CBOR. A private key is checked against itself before it is returned: an
//! ML-DSA `both` key's expanded key against its seed's key generation, an expanded-only key's
//! t0 and `tr` against its s1 and s2, an SLH-DSA key's PK.root
//! against its seeds, and any public key carried beside a private key against it. Any input
//! gives a typed [`Error`], never a panic.
//!
//! # Security
//! Seeds, secret keys and every encoding that holds them (DER, PEM, JWK, COSE_Key) are in
//! [`Zeroizing`] buffers, allocated once at their final size. `Debug` shows no secret.

use alloc::string::String;
use alloc::vec::Vec;

use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use crate::{mldsa, slhdsa};

mod b64;
mod cose;
mod der;
mod jose;
mod pem;
mod pkix;

pub use cose::decode_cose_key;
pub use jose::decode_jwk;

/// Errors from decoding or encoding keys.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input ends inside an element.
    #[error("the encoding ends early")]
    Truncated,
    /// Bytes follow the last element.
    #[error("{extra} bytes after the end of the key")]
    TrailingData {
        /// How many bytes follow.
        extra: usize,
    },
    /// A DER element has another tag than the structure requires.
    #[error("expected DER tag {expected:#04x}, found {got:#04x}")]
    UnexpectedTag {
        /// The tag required.
        expected: u8,
        /// The tag found.
        got: u8,
    },
    /// A length or integer encoded in more octets than needed (DER, CBOR).
    #[error("non-minimal encoding: {0}")]
    NonMinimal(&'static str),
    /// A structure broken in another way.
    #[error("malformed key encoding: {0}")]
    Malformed(&'static str),
    /// An algorithm identifier, name or COSE value this crate does not implement.
    #[error("unknown or unsupported algorithm")]
    UnknownAlgorithm,
    /// An AlgorithmIdentifier with parameters (they must be absent).
    #[error("algorithm parameters present; they must be absent")]
    ParametersPresent,
    /// A OneAsymmetricKey version other than v1 (0) without, or v2 (1) with, a public key.
    #[error("OneAsymmetricKey version {0} not allowed here")]
    UnsupportedVersion(u8),
    /// A key, seed or public key of the wrong length for its parameter set.
    #[error("{what} must be {expected} bytes, got {got}")]
    KeyLength {
        /// Which part.
        what: &'static str,
        /// The length the parameter set requires.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// Parts of a key that do not belong together (seed and expanded key, private and
    /// public key, SLH-DSA seeds and root).
    #[error("inconsistent key: {0}")]
    KeyMismatch(&'static str),
    /// Not a PEM block of the expected kind.
    #[error("bad PEM: {0}")]
    BadPem(&'static str),
    /// Base64 text outside the alphabet, badly padded or not canonical.
    #[error("bad base64")]
    BadBase64,
    /// Not the JSON of a JWK.
    #[error("bad JSON: {0}")]
    BadJson(&'static str),
    /// Not the CBOR of a COSE_Key.
    #[error("bad CBOR: {0}")]
    BadCbor(&'static str),
    /// A required JWK member or COSE_Key parameter is absent.
    #[error("missing {0}")]
    MissingField(&'static str),
    /// A JWK member or COSE_Key label given twice.
    #[error("{0} given twice")]
    DuplicateField(&'static str),
    /// A JWK or COSE_Key whose key type is not `AKP`.
    #[error("key type is not AKP")]
    WrongKeyType,
    /// The encoding needs the ML-DSA seed and the key was imported without one.
    #[error("this encoding needs the seed, and the key has none")]
    NoSeed,
    /// The format defines no encoding for this algorithm.
    #[error("{0}")]
    UnsupportedFormat(&'static str),
}

impl Error {
    /// A stable code for this error, as JavaScript sees it.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Truncated => "KEY_TRUNCATED",
            Error::TrailingData { .. } => "KEY_TRAILING_DATA",
            Error::UnexpectedTag { .. } => "UNEXPECTED_TAG",
            Error::NonMinimal(_) => "NON_MINIMAL_ENCODING",
            Error::Malformed(_) => "MALFORMED_KEY",
            Error::UnknownAlgorithm => "UNKNOWN_ALGORITHM",
            Error::ParametersPresent => "ALGORITHM_PARAMETERS_PRESENT",
            Error::UnsupportedVersion(_) => "UNSUPPORTED_KEY_VERSION",
            Error::KeyLength { .. } => "KEY_LENGTH_MISMATCH",
            Error::KeyMismatch(_) => "KEY_MISMATCH",
            Error::BadPem(_) => "BAD_PEM",
            Error::BadBase64 => "BAD_BASE64",
            Error::BadJson(_) => "BAD_JSON",
            Error::BadCbor(_) => "BAD_CBOR",
            Error::MissingField(_) => "MISSING_FIELD",
            Error::DuplicateField(_) => "DUPLICATE_FIELD",
            Error::WrongKeyType => "WRONG_KEY_TYPE",
            Error::NoSeed => "NO_SEED",
            Error::UnsupportedFormat(_) => "UNSUPPORTED_FORMAT",
        }
    }
}

/// A signature algorithm whose keys this module encodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// ML-DSA (FIPS 204).
    MlDsa(mldsa::Mode),
    /// SLH-DSA (FIPS 205), the SHAKE sets.
    SlhDsa(slhdsa::Mode),
}

/// The arcs 2.16.840.1.101.3.4.3 (NIST sigAlgs) before the last one.
const SIG_ALGS_PREFIX: [u8; 8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03];

impl Algorithm {
    /// Every algorithm: the three ML-DSA sets, then the six SLH-DSA sets.
    pub const ALL: [Algorithm; 9] = [
        Algorithm::MlDsa(mldsa::Mode::MlDsa44),
        Algorithm::MlDsa(mldsa::Mode::MlDsa65),
        Algorithm::MlDsa(mldsa::Mode::MlDsa87),
        Algorithm::SlhDsa(slhdsa::Mode::Shake128s),
        Algorithm::SlhDsa(slhdsa::Mode::Shake128f),
        Algorithm::SlhDsa(slhdsa::Mode::Shake192s),
        Algorithm::SlhDsa(slhdsa::Mode::Shake192f),
        Algorithm::SlhDsa(slhdsa::Mode::Shake256s),
        Algorithm::SlhDsa(slhdsa::Mode::Shake256f),
    ];

    /// The standard name, e.g. `"ML-DSA-65"`, `"SLH-DSA-SHAKE-128s"` (also the JOSE `alg`).
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::MlDsa(m) => m.name(),
            Algorithm::SlhDsa(m) => m.name(),
        }
    }

    /// The algorithm for its standard name.
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The last arc of the object identifier under 2.16.840.1.101.3.4.3.
    pub fn oid_arc(self) -> u8 {
        use mldsa::Mode as M;
        use slhdsa::Mode as S;
        match self {
            Algorithm::MlDsa(M::MlDsa44) => 17,
            Algorithm::MlDsa(M::MlDsa65) => 18,
            Algorithm::MlDsa(M::MlDsa87) => 19,
            Algorithm::SlhDsa(S::Shake128s) => 26,
            Algorithm::SlhDsa(S::Shake128f) => 27,
            Algorithm::SlhDsa(S::Shake192s) => 28,
            Algorithm::SlhDsa(S::Shake192f) => 29,
            Algorithm::SlhDsa(S::Shake256s) => 30,
            Algorithm::SlhDsa(S::Shake256f) => 31,
        }
    }

    /// The object identifier in dotted form, e.g. `"2.16.840.1.101.3.4.3.18"`.
    pub fn oid(self) -> String {
        alloc::format!("2.16.840.1.101.3.4.3.{}", self.oid_arc())
    }

    /// The DER content octets of the object identifier.
    fn oid_der(self) -> [u8; 9] {
        let mut o = [0u8; 9];
        o[..8].copy_from_slice(&SIG_ALGS_PREFIX);
        o[8] = self.oid_arc();
        o
    }

    fn from_oid_der(content: &[u8]) -> Result<Algorithm, Error> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.oid_der() == content)
            .ok_or(Error::UnknownAlgorithm)
    }

    /// Public key length in bytes.
    pub fn public_key_len(self) -> usize {
        match self {
            Algorithm::MlDsa(m) => m.public_key_len(),
            Algorithm::SlhDsa(m) => m.public_key_len(),
        }
    }

    /// Secret (expanded) key length in bytes.
    pub fn secret_key_len(self) -> usize {
        match self {
            Algorithm::MlDsa(m) => m.secret_key_len(),
            Algorithm::SlhDsa(m) => m.secret_key_len(),
        }
    }
}

fn check_len(what: &'static str, expected: usize, got: usize) -> Result<(), Error> {
    if expected == got {
        Ok(())
    } else {
        Err(Error::KeyLength { what, expected, got })
    }
}

/// A public key with its algorithm.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicKey {
    algorithm: Algorithm,
    bytes: Vec<u8>,
}

impl PublicKey {
    /// Wraps the standard encoding of a public key (FIPS 204 pkEncode, FIPS 205 PK.seed‖PK.root).
    ///
    /// # Errors
    /// [`Error::KeyLength`].
    pub fn new(algorithm: Algorithm, bytes: &[u8]) -> Result<Self, Error> {
        check_len("public key", algorithm.public_key_len(), bytes.len())?;
        Ok(PublicKey {
            algorithm,
            bytes: bytes.to_vec(),
        })
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The standard encoding of the key.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The `PUBLIC KEY` PEM block of [`to_spki_der`](Self::to_spki_der).
    pub fn to_pem(&self) -> String {
        String::from(pem::encode(pem::PUBLIC_KEY, &self.to_spki_der()).as_str())
    }

    /// Decodes a `PUBLIC KEY` PEM block.
    ///
    /// # Errors
    /// [`Error::BadPem`], [`Error::BadBase64`], and the errors of
    /// [`from_spki_der`](Self::from_spki_der).
    pub fn from_pem(text: &str) -> Result<Self, Error> {
        Self::from_spki_der(&pem::decode(text, pem::PUBLIC_KEY)?)
    }
}

/// Which ML-DSA private-key CHOICE to write in a OneAsymmetricKey (RFC 9881 §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MlDsaForm {
    /// `seed [0] IMPLICIT OCTET STRING (SIZE (32))`: the recommended, smallest form.
    #[default]
    Seed,
    /// `expandedKey OCTET STRING`: the FIPS 204 secret key only.
    Expanded,
    /// `both SEQUENCE { seed, expandedKey }`.
    Both,
}

/// A private key with its algorithm, its public key and, for ML-DSA keys made from one,
/// the seed.
///
/// # Security
/// Wiped on drop; `Debug` shows only the algorithm.
pub struct PrivateKey {
    algorithm: Algorithm,
    seed: Option<Zeroizing<[u8; 32]>>,
    secret_key: Zeroizing<Vec<u8>>,
    public_key: PublicKey,
}

impl core::fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "PrivateKey<{}>(<redacted>)", self.algorithm.name())
    }
}

impl PrivateKey {
    /// The ML-DSA key determined by the seed ξ (FIPS 204 ML-DSA.KeyGen_internal).
    pub fn ml_dsa_from_seed(mode: mldsa::Mode, seed: &[u8; 32]) -> Self {
        let (pk, sk) = mldsa::keygen(mode, seed);
        PrivateKey {
            algorithm: Algorithm::MlDsa(mode),
            seed: Some(Zeroizing::new(*seed)),
            secret_key: sk,
            public_key: PublicKey {
                algorithm: Algorithm::MlDsa(mode),
                bytes: pk,
            },
        }
    }

    /// An ML-DSA key from its expanded secret key alone (no seed: it cannot be written in
    /// the seed forms, JWK or COSE_Key). The key is checked as RFC 9881 §8.2 asks: s1 and s2
    /// in range, t0 the low bits of A·s1 + s2, and `tr` the hash of the public key rebuilt
    /// from them.
    ///
    /// # Errors
    /// [`Error::KeyLength`], [`Error::Malformed`] (s1, s2 out of range),
    /// [`Error::KeyMismatch`].
    pub fn ml_dsa_from_expanded(mode: mldsa::Mode, sk: &[u8]) -> Result<Self, Error> {
        check_len("ML-DSA expanded key", mode.secret_key_len(), sk.len())?;
        let pk = mldsa::public_from_expanded(mode, sk)
            .map_err(|_| Error::Malformed("expanded ML-DSA key (s1, s2 out of range)"))?
            .ok_or(Error::KeyMismatch(
                "expanded key's t0 or tr does not belong to its s1, s2",
            ))?;
        Ok(PrivateKey {
            algorithm: Algorithm::MlDsa(mode),
            seed: None,
            secret_key: Zeroizing::new(sk.to_vec()),
            public_key: PublicKey {
                algorithm: Algorithm::MlDsa(mode),
                bytes: pk,
            },
        })
    }

    /// An SLH-DSA key from its 4n-byte encoding SK.seed‖SK.prf‖PK.seed‖PK.root, checked:
    /// PK.root must be the root SK.seed and PK.seed generate (FIPS 205 slh_keygen_internal);
    /// SK.prf enters no other part, so any value of it makes a valid key.
    ///
    /// # Errors
    /// [`Error::KeyLength`], [`Error::KeyMismatch`].
    pub fn slh_dsa_from_bytes(mode: slhdsa::Mode, sk: &[u8]) -> Result<Self, Error> {
        check_len("SLH-DSA private key", mode.secret_key_len(), sk.len())?;
        let n = mode.n();
        let (pk, regenerated) = slhdsa::keygen(mode, &sk[..n], &sk[n..2 * n], &sk[2 * n..3 * n])
            .map_err(|_| Error::Malformed("SLH-DSA seeds"))?;
        if !bool::from(regenerated.as_slice().ct_eq(sk)) {
            return Err(Error::KeyMismatch("SLH-DSA PK.root is not the root of its seeds"));
        }
        Ok(PrivateKey {
            algorithm: Algorithm::SlhDsa(mode),
            seed: None,
            secret_key: regenerated,
            public_key: PublicKey {
                algorithm: Algorithm::SlhDsa(mode),
                bytes: pk,
            },
        })
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The ML-DSA seed ξ, when the key came from one.
    ///
    /// # Security
    /// These bytes are the key: keep them secret.
    pub fn seed(&self) -> Option<&[u8; 32]> {
        self.seed.as_deref()
    }

    /// The FIPS 204 / FIPS 205 encoded secret key.
    ///
    /// # Security
    /// These bytes are the key: keep them secret.
    pub fn secret_key(&self) -> &[u8] {
        &self.secret_key
    }

    /// The matching public key.
    pub fn public_key(&self) -> &PublicKey {
        &self.public_key
    }

    /// The `PRIVATE KEY` PEM block of [`to_pkcs8_der`](Self::to_pkcs8_der) (seed-only for
    /// ML-DSA, no public key).
    ///
    /// # Errors
    /// [`Error::NoSeed`] for an ML-DSA key imported without its seed.
    pub fn to_pkcs8_pem(&self) -> Result<Zeroizing<String>, Error> {
        Ok(pem::encode(pem::PRIVATE_KEY, &self.to_pkcs8_der()?))
    }

    /// The `PRIVATE KEY` PEM block of [`to_pkcs8_der_with`](Self::to_pkcs8_der_with).
    ///
    /// # Errors
    /// [`Error::NoSeed`] when `form` needs the seed and the key has none.
    pub fn to_pkcs8_pem_with(&self, form: MlDsaForm, with_public: bool) -> Result<Zeroizing<String>, Error> {
        Ok(pem::encode(
            pem::PRIVATE_KEY,
            &self.to_pkcs8_der_with(form, with_public)?,
        ))
    }

    /// Decodes a `PRIVATE KEY` PEM block.
    ///
    /// # Errors
    /// [`Error::BadPem`], [`Error::BadBase64`], and the errors of
    /// [`from_pkcs8_der`](Self::from_pkcs8_der).
    pub fn from_pkcs8_pem(text: &str) -> Result<Self, Error> {
        Self::from_pkcs8_der(&pem::decode(text, pem::PRIVATE_KEY)?)
    }

    /// Checks a public key carried beside this private key.
    fn check_public(&self, public: &[u8]) -> Result<(), Error> {
        if public == self.public_key.as_bytes() {
            Ok(())
        } else {
            Err(Error::KeyMismatch(
                "the public key does not belong to the private key",
            ))
        }
    }

    /// An ML-DSA key from a seed and, when given, the expanded key that must match it.
    fn ml_dsa_seed_checked(mode: mldsa::Mode, seed: &[u8], expanded: Option<&[u8]>) -> Result<Self, Error> {
        check_len("ML-DSA seed", 32, seed.len())?;
        let mut s = Zeroizing::new([0u8; 32]);
        s.copy_from_slice(seed);
        let key = PrivateKey::ml_dsa_from_seed(mode, &s);
        if let Some(e) = expanded {
            check_len("ML-DSA expanded key", mode.secret_key_len(), e.len())?;
            if !bool::from(key.secret_key.as_slice().ct_eq(e)) {
                return Err(Error::KeyMismatch("expanded key is not the seed's key"));
            }
        }
        Ok(key)
    }
}

/// A JWK or COSE_Key `AKP` key: public only, or private with its public key.
#[derive(Debug)]
pub enum AkpKey {
    /// A key with `pub` only.
    Public(PublicKey),
    /// A key with `priv`, checked against its `pub`.
    Private(PrivateKey),
}

impl AkpKey {
    /// The public key (of either kind).
    pub fn public_key(&self) -> &PublicKey {
        match self {
            AkpKey::Public(p) => p,
            AkpKey::Private(k) => k.public_key(),
        }
    }
}

/// Builds the private key an AKP `priv` names, checked against `pub`.
fn akp_private(algorithm: Algorithm, public: &[u8], private: &[u8]) -> Result<PrivateKey, Error> {
    let key = match algorithm {
        Algorithm::MlDsa(mode) => PrivateKey::ml_dsa_seed_checked(mode, private, None)?,
        Algorithm::SlhDsa(mode) => PrivateKey::slh_dsa_from_bytes(mode, private)?,
    };
    key.check_public(public)?;
    Ok(key)
}
