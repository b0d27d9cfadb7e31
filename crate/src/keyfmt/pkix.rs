//! SubjectPublicKeyInfo (RFC 5280 §4.1.2.7) and OneAsymmetricKey (RFC 5958, PKCS #8) for
//! ML-DSA (RFC 9881) and SLH-DSA (RFC 9909).
//!
//! ```text
//! SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }
//! OneAsymmetricKey ::= SEQUENCE { version INTEGER (0 | 1), privateKeyAlgorithm AlgorithmIdentifier,
//!     privateKey OCTET STRING, attributes [0] IMPLICIT OPTIONAL, publicKey [1] IMPLICIT BIT STRING OPTIONAL }
//! ML-DSA privateKey contents ::= CHOICE { seed [0] IMPLICIT OCTET STRING (SIZE (32)),
//!     expandedKey OCTET STRING, both SEQUENCE { seed OCTET STRING, expandedKey OCTET STRING } }
//! SLH-DSA privateKey contents: the raw key SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root
//! ```

use alloc::vec::Vec;

use zeroize::Zeroizing;

use super::der::{self, Reader};
use super::{Algorithm, Error, MlDsaForm, PrivateKey, PublicKey};

/// `AlgorithmIdentifier ::= SEQUENCE { OID }` with parameters absent.
fn push_algorithm(out: &mut Vec<u8>, alg: Algorithm) {
    let oid = alg.oid_der();
    der::push_header(out, der::SEQUENCE, der::tlv_len(oid.len()));
    der::push_tlv(out, der::OID, &oid);
}

const ALGORITHM_LEN: usize = 2 + 2 + 9;

fn read_algorithm(r: &mut Reader<'_>) -> Result<Algorithm, Error> {
    let mut seq = Reader::new(r.read(der::SEQUENCE)?);
    let alg = Algorithm::from_oid_der(seq.read(der::OID)?)?;
    if seq.peek_tag().is_some() {
        return Err(Error::ParametersPresent);
    }
    seq.finish()?;
    Ok(alg)
}

/// A BIT STRING's content holding whole bytes: `0x00` (no unused bits) then the bytes.
fn bit_string_bytes(content: &[u8]) -> Result<&[u8], Error> {
    match content.split_first() {
        Some((0, bytes)) => Ok(bytes),
        Some(_) => Err(Error::Malformed("BIT STRING with unused bits")),
        None => Err(Error::Malformed("empty BIT STRING")),
    }
}

impl PublicKey {
    /// The DER SubjectPublicKeyInfo: the algorithm's OID, parameters absent, and the raw key
    /// in the BIT STRING.
    pub fn to_spki_der(&self) -> Vec<u8> {
        let bits = der::tlv_len(1 + self.bytes.len());
        let inner = ALGORITHM_LEN + bits;
        let mut out = Vec::with_capacity(der::tlv_len(inner));
        der::push_header(&mut out, der::SEQUENCE, inner);
        push_algorithm(&mut out, self.algorithm);
        der::push_header(&mut out, der::BIT_STRING, 1 + self.bytes.len());
        out.push(0);
        out.extend_from_slice(&self.bytes);
        out
    }

    /// Decodes a DER SubjectPublicKeyInfo.
    ///
    /// # Errors
    /// DER errors ([`Error::Truncated`], [`Error::TrailingData`], [`Error::UnexpectedTag`],
    /// [`Error::NonMinimal`], [`Error::Malformed`]), [`Error::UnknownAlgorithm`],
    /// [`Error::ParametersPresent`], [`Error::KeyLength`].
    pub fn from_spki_der(input: &[u8]) -> Result<Self, Error> {
        let mut r = Reader::new(der::read_single(input, der::SEQUENCE)?);
        let algorithm = read_algorithm(&mut r)?;
        let bytes = bit_string_bytes(r.read(der::BIT_STRING)?)?;
        r.finish()?;
        PublicKey::new(algorithm, bytes)
    }
}

impl PrivateKey {
    /// The DER OneAsymmetricKey in the recommended form: version 0, seed-only for ML-DSA,
    /// no public key.
    ///
    /// # Errors
    /// [`Error::NoSeed`] for an ML-DSA key imported without its seed (use
    /// [`to_pkcs8_der_with`](Self::to_pkcs8_der_with) and [`MlDsaForm::Expanded`]).
    pub fn to_pkcs8_der(&self) -> Result<Zeroizing<Vec<u8>>, Error> {
        self.to_pkcs8_der_with(MlDsaForm::Seed, false)
    }

    /// The DER OneAsymmetricKey with the ML-DSA private-key CHOICE `form` (ignored for
    /// SLH-DSA, whose key has one form) and, when `with_public`, the public key (version 1).
    ///
    /// # Errors
    /// [`Error::NoSeed`] when `form` needs the seed and the key has none.
    pub fn to_pkcs8_der_with(&self, form: MlDsaForm, with_public: bool) -> Result<Zeroizing<Vec<u8>>, Error> {
        let sk: &[u8] = &self.secret_key;
        // The privateKey OCTET STRING's contents, at their final size.
        let contents_len = match (self.algorithm, form) {
            (Algorithm::SlhDsa(_), _) => sk.len(),
            (Algorithm::MlDsa(_), MlDsaForm::Seed) => der::tlv_len(32),
            (Algorithm::MlDsa(_), MlDsaForm::Expanded) => der::tlv_len(sk.len()),
            (Algorithm::MlDsa(_), MlDsaForm::Both) => der::tlv_len(der::tlv_len(32) + der::tlv_len(sk.len())),
        };
        let seed = match (self.algorithm, form) {
            (Algorithm::MlDsa(_), MlDsaForm::Seed | MlDsaForm::Both) => {
                Some(self.seed().ok_or(Error::NoSeed)?)
            }
            _ => None,
        };
        let pk = self.public_key.as_bytes();
        let public_len = if with_public {
            der::tlv_len(1 + pk.len())
        } else {
            0
        };
        let inner = 3 + ALGORITHM_LEN + der::tlv_len(contents_len) + public_len;
        let total = der::tlv_len(inner);
        let mut out = Zeroizing::new(Vec::with_capacity(total));
        der::push_header(&mut out, der::SEQUENCE, inner);
        der::push_tlv(&mut out, der::INTEGER, &[u8::from(with_public)]);
        push_algorithm(&mut out, self.algorithm);
        der::push_header(&mut out, der::OCTET_STRING, contents_len);
        match (self.algorithm, form, seed) {
            (Algorithm::SlhDsa(_), _, _) => out.extend_from_slice(sk),
            (_, MlDsaForm::Seed, Some(s)) => der::push_tlv(&mut out, der::CONTEXT_0, s),
            (_, MlDsaForm::Both, Some(s)) => {
                der::push_header(&mut out, der::SEQUENCE, der::tlv_len(32) + der::tlv_len(sk.len()));
                der::push_tlv(&mut out, der::OCTET_STRING, s);
                der::push_tlv(&mut out, der::OCTET_STRING, sk);
            }
            _ => der::push_tlv(&mut out, der::OCTET_STRING, sk),
        }
        if with_public {
            der::push_header(&mut out, der::CONTEXT_1, 1 + pk.len());
            out.push(0);
            out.extend_from_slice(pk);
        }
        // Sized exactly: the buffer never moved, so no copy of the key was left behind.
        debug_assert_eq!(out.len(), total);
        Ok(out)
    }

    /// Decodes a DER OneAsymmetricKey holding an ML-DSA key (any of the three CHOICEs) or an
    /// SLH-DSA key, checks it against itself (see the module docs) and against the public
    /// key when one is present.
    ///
    /// # Errors
    /// DER errors, [`Error::UnsupportedVersion`] (version 0 with a public key, version 1
    /// without, any other version), [`Error::UnknownAlgorithm`],
    /// [`Error::ParametersPresent`], [`Error::KeyLength`], [`Error::KeyMismatch`].
    pub fn from_pkcs8_der(input: &[u8]) -> Result<Self, Error> {
        let mut r = Reader::new(der::read_single(input, der::SEQUENCE)?);
        let version = match r.read(der::INTEGER)? {
            [v @ (0 | 1)] => *v,
            [] => return Err(Error::Malformed("empty INTEGER")),
            [0, next, ..] if *next < 0x80 => {
                return Err(Error::NonMinimal("INTEGER with a leading zero octet"))
            }
            [v, ..] => return Err(Error::UnsupportedVersion(*v)),
        };
        let algorithm = read_algorithm(&mut r)?;
        let private = r.read(der::OCTET_STRING)?;
        // Attributes are allowed and not kept.
        r.read_optional(der::CONTEXT_0_CONSTRUCTED)?;
        let public = r
            .read_optional(der::CONTEXT_1)?
            .map(bit_string_bytes)
            .transpose()?;
        r.finish()?;
        if public.is_some() != (version == 1) {
            return Err(Error::UnsupportedVersion(version));
        }
        let key = match algorithm {
            Algorithm::SlhDsa(mode) => PrivateKey::slh_dsa_from_bytes(mode, private)?,
            Algorithm::MlDsa(mode) => {
                let mut c = Reader::new(private);
                let key = match c.peek_tag() {
                    Some(der::CONTEXT_0) => {
                        PrivateKey::ml_dsa_seed_checked(mode, c.read(der::CONTEXT_0)?, None)?
                    }
                    Some(der::OCTET_STRING) => {
                        PrivateKey::ml_dsa_from_expanded(mode, c.read(der::OCTET_STRING)?)?
                    }
                    Some(der::SEQUENCE) => {
                        let mut both = Reader::new(c.read(der::SEQUENCE)?);
                        let seed = both.read(der::OCTET_STRING)?;
                        let expanded = both.read(der::OCTET_STRING)?;
                        both.finish()?;
                        PrivateKey::ml_dsa_seed_checked(mode, seed, Some(expanded))?
                    }
                    Some(got) => {
                        return Err(Error::UnexpectedTag {
                            expected: der::CONTEXT_0,
                            got,
                        })
                    }
                    None => return Err(Error::Truncated),
                };
                c.finish()?;
                key
            }
        };
        if let Some(p) = public {
            key.check_public(p)?;
        }
        Ok(key)
    }
}
