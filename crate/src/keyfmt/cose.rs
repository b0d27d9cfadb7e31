//! COSE_Key `AKP` keys (RFC 9964): a CBOR map `{1: 7, 3: alg, -1: pub, -2: priv}` with alg
//! −48, −49, −50 for ML-DSA-44, -65, -87 and `priv` the 32-byte seed. No SLH-DSA COSE_Key:
//! draft-ietf-cose-sphincs-plus still has its algorithm values TBD.
//!
//! The CBOR reader takes one map, definite lengths only, every head in its shortest form
//! (RFC 8949 §4.2.1), no label twice, nothing after the map. Labels other than kty (1),
//! alg (3), pub (−1), priv (−2) are skipped, but must be well-formed (nested at most 16 deep).
//! The encoder writes the deterministic encoding: labels in the order 1, 3, −1, −2.

use alloc::vec::Vec;

use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

use super::{akp_private, AkpKey, Algorithm, Error, PrivateKey, PublicKey};
use crate::mldsa;

/// COSE key type AKP.
const KTY_AKP: i64 = 7;
const LABEL_KTY: i64 = 1;
const LABEL_ALG: i64 = 3;
const LABEL_PUB: i64 = -1;
const LABEL_PRIV: i64 = -2;
const MAX_DEPTH: usize = 16;
const MAX_ENTRIES: u64 = 64;

fn cose_alg(alg: Algorithm) -> Result<i64, Error> {
    match alg {
        Algorithm::MlDsa(mldsa::Mode::MlDsa44) => Ok(-48),
        Algorithm::MlDsa(mldsa::Mode::MlDsa65) => Ok(-49),
        Algorithm::MlDsa(mldsa::Mode::MlDsa87) => Ok(-50),
        Algorithm::SlhDsa(_) => Err(Error::UnsupportedFormat(
            "no COSE algorithm value is assigned for SLH-DSA yet (draft-ietf-cose-sphincs-plus: TBD)",
        )),
    }
}

fn from_cose_alg(v: i64) -> Result<Algorithm, Error> {
    match v {
        -48 => Ok(Algorithm::MlDsa(mldsa::Mode::MlDsa44)),
        -49 => Ok(Algorithm::MlDsa(mldsa::Mode::MlDsa65)),
        -50 => Ok(Algorithm::MlDsa(mldsa::Mode::MlDsa87)),
        _ => Err(Error::UnknownAlgorithm),
    }
}

fn head_len(arg: u64) -> usize {
    match arg {
        0..=23 => 1,
        24..=0xFF => 2,
        0x100..=0xFFFF => 3,
        0x1_0000..=0xFFFF_FFFF => 5,
        _ => 9,
    }
}

/// Appends a head (major type and argument) in its shortest form.
// Exact: each cast keeps the bytes the head's size class holds.
#[allow(clippy::cast_possible_truncation)]
fn push_head(out: &mut Vec<u8>, major: u8, arg: u64) {
    let m = major << 5;
    match head_len(arg) {
        1 => out.push(m | arg as u8),
        2 => out.extend_from_slice(&[m | 24, arg as u8]),
        3 => {
            out.push(m | 25);
            out.extend_from_slice(&(arg as u16).to_be_bytes());
        }
        5 => {
            out.push(m | 26);
            out.extend_from_slice(&(arg as u32).to_be_bytes());
        }
        _ => {
            out.push(m | 27);
            out.extend_from_slice(&arg.to_be_bytes());
        }
    }
}

fn int_arg(v: i64) -> (u8, u64) {
    if v >= 0 {
        (0, v.unsigned_abs())
    } else {
        (1, (v + 1).unsigned_abs())
    }
}

fn int_len(v: i64) -> usize {
    head_len(int_arg(v).1)
}

fn push_int(out: &mut Vec<u8>, v: i64) {
    let (major, arg) = int_arg(v);
    push_head(out, major, arg);
}

fn push_bytes(out: &mut Vec<u8>, b: &[u8]) {
    push_head(out, 2, b.len() as u64);
    out.extend_from_slice(b);
}

/// The deterministic COSE_Key: `{1: 7, 3: alg, -1: pub}` and, when given, `-2: priv`.
fn cose_key(alg: i64, public: &[u8], private: Option<&[u8]>) -> Zeroizing<Vec<u8>> {
    let blen = |b: &[u8]| head_len(b.len() as u64) + b.len();
    let len = 1 + 2 + 1 + int_len(alg) + 1 + blen(public) + private.map_or(0, |p| 1 + blen(p));
    let mut out = Zeroizing::new(Vec::with_capacity(len));
    push_head(&mut out, 5, if private.is_some() { 4 } else { 3 });
    push_int(&mut out, LABEL_KTY);
    push_int(&mut out, KTY_AKP);
    push_int(&mut out, LABEL_ALG);
    push_int(&mut out, alg);
    push_int(&mut out, LABEL_PUB);
    push_bytes(&mut out, public);
    if let Some(p) = private {
        push_int(&mut out, LABEL_PRIV);
        push_bytes(&mut out, p);
    }
    out
}

impl PublicKey {
    /// The public COSE_Key (deterministic CBOR).
    ///
    /// # Errors
    /// [`Error::UnsupportedFormat`] for SLH-DSA.
    pub fn to_cose_key(&self) -> Result<Vec<u8>, Error> {
        let alg = cose_alg(self.algorithm)?;
        Ok(cose_key(alg, &self.bytes, None).to_vec())
    }

    /// The COSE Key thumbprint (RFC 9679): SHA-256 of `{1: 7, 3: alg, -1: pub}`.
    ///
    /// # Errors
    /// [`Error::UnsupportedFormat`] for SLH-DSA.
    pub fn cose_thumbprint(&self) -> Result<[u8; 32], Error> {
        let alg = cose_alg(self.algorithm)?;
        Ok(Sha256::digest(cose_key(alg, &self.bytes, None).as_slice()).into())
    }
}

impl PrivateKey {
    /// The private COSE_Key, `priv` the seed.
    ///
    /// # Errors
    /// [`Error::UnsupportedFormat`] for SLH-DSA, [`Error::NoSeed`] for an ML-DSA key
    /// without its seed.
    pub fn to_cose_key(&self) -> Result<Zeroizing<Vec<u8>>, Error> {
        let alg = cose_alg(self.algorithm)?;
        let seed = self.seed().ok_or(Error::NoSeed)?;
        Ok(cose_key(alg, self.public_key.as_bytes(), Some(seed)))
    }
}

/// Decodes a COSE_Key `AKP` key, public or private (a private one checked against `pub`).
///
/// # Errors
/// [`Error::BadCbor`], [`Error::NonMinimal`], [`Error::Truncated`],
/// [`Error::TrailingData`], [`Error::DuplicateField`], [`Error::MissingField`],
/// [`Error::WrongKeyType`], [`Error::UnknownAlgorithm`], [`Error::KeyLength`],
/// [`Error::KeyMismatch`].
pub fn decode_cose_key(input: &[u8]) -> Result<AkpKey, Error> {
    let mut r = Reader { s: input, i: 0 };
    let (major, count) = r.head()?;
    if major != 5 {
        return Err(Error::BadCbor("not a map"));
    }
    if count > MAX_ENTRIES {
        return Err(Error::BadCbor("too many entries"));
    }
    let mut seen: Vec<&[u8]> = Vec::new();
    let (mut kty, mut alg, mut public, mut private) = (None, None, None, None);
    for _ in 0..count {
        let start = r.i;
        let (major, arg) = r.head()?;
        let label = match major {
            0 | 1 => Some(r.int(major, arg)?),
            3 => {
                r.take(arg)?;
                None
            }
            _ => return Err(Error::BadCbor("a label that is neither integer nor text")),
        };
        let encoded = &input[start..r.i];
        if seen.contains(&encoded) {
            return Err(Error::DuplicateField("a COSE_Key label"));
        }
        seen.push(encoded);
        match label {
            Some(LABEL_KTY) => kty = Some(r.value_int()?),
            Some(LABEL_ALG) => alg = Some(r.value_int()?),
            Some(LABEL_PUB) => public = Some(r.value_bytes()?),
            Some(LABEL_PRIV) => private = Some(r.value_bytes()?),
            _ => r.skip(0)?,
        }
    }
    if r.i != input.len() {
        return Err(Error::TrailingData {
            extra: input.len() - r.i,
        });
    }
    if kty.ok_or(Error::MissingField("kty"))? != KTY_AKP {
        return Err(Error::WrongKeyType);
    }
    let algorithm = from_cose_alg(alg.ok_or(Error::MissingField("alg"))?)?;
    let pk = PublicKey::new(algorithm, public.ok_or(Error::MissingField("pub"))?)?;
    match private {
        None => Ok(AkpKey::Public(pk)),
        Some(p) => Ok(AkpKey::Private(akp_private(algorithm, pk.as_bytes(), p)?)),
    }
}

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Reader<'a> {
    /// Takes `n` bytes.
    fn take(&mut self, n: u64) -> Result<&'a [u8], Error> {
        let n = usize::try_from(n).map_err(|_| Error::Truncated)?;
        if self.s.len() - self.i < n {
            return Err(Error::Truncated);
        }
        let out = &self.s[self.i..self.i + n];
        self.i += n;
        Ok(out)
    }

    /// A head: (major type, argument), the argument in its shortest form, no indefinite
    /// lengths. Major type 7's floats are returned with their bit pattern.
    fn head(&mut self) -> Result<(u8, u64), Error> {
        let b = self.take(1)?[0];
        let (major, info) = (b >> 5, b & 0x1F);
        let arg = match info {
            0..=23 => u64::from(info),
            24..=27 => {
                let bytes = self.take(1 << (info - 24))?;
                let v = bytes.iter().fold(0u64, |a, &x| (a << 8) | u64::from(x));
                let shortest = match info {
                    24 => v >= 24,
                    25 => v > 0xFF,
                    26 => v > 0xFFFF,
                    _ => v > 0xFFFF_FFFF,
                };
                // Floats (major 7, 25–27) have their own widths; a simple value (major 7,
                // 24) must be at least 32.
                if major == 7 {
                    if info == 24 && v < 32 {
                        return Err(Error::BadCbor("simple value in two bytes below 32"));
                    }
                } else if !shortest {
                    return Err(Error::NonMinimal("CBOR argument not in its shortest form"));
                }
                v
            }
            31 => return Err(Error::BadCbor("indefinite length")),
            _ => return Err(Error::BadCbor("reserved additional information")),
        };
        Ok((major, arg))
    }

    fn int(&mut self, major: u8, arg: u64) -> Result<i64, Error> {
        let v = i64::try_from(arg).map_err(|_| Error::BadCbor("integer out of range"))?;
        Ok(if major == 0 { v } else { -1 - v })
    }

    fn value_int(&mut self) -> Result<i64, Error> {
        match self.head()? {
            (m @ (0 | 1), arg) => self.int(m, arg),
            _ => Err(Error::BadCbor("expected an integer")),
        }
    }

    fn value_bytes(&mut self) -> Result<&'a [u8], Error> {
        match self.head()? {
            (2, len) => self.take(len),
            _ => Err(Error::BadCbor("expected a byte string")),
        }
    }

    fn skip(&mut self, depth: usize) -> Result<(), Error> {
        if depth > MAX_DEPTH {
            return Err(Error::BadCbor("nested too deep"));
        }
        let (major, arg) = self.head()?;
        match major {
            0 | 1 | 7 => Ok(()),
            2 => self.take(arg).map(|_| ()),
            3 => {
                core::str::from_utf8(self.take(arg)?).map_err(|_| Error::BadCbor("text not UTF-8"))?;
                Ok(())
            }
            4 | 5 => {
                let items = if major == 5 { arg.saturating_mul(2) } else { arg };
                // Each item takes at least one byte: refuse counts the input cannot hold.
                if items > (self.s.len() - self.i) as u64 {
                    return Err(Error::Truncated);
                }
                for _ in 0..items {
                    self.skip(depth + 1)?;
                }
                Ok(())
            }
            _ => self.skip(depth + 1),
        }
    }
}
