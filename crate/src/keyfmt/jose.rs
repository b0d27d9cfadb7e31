//! JWK `AKP` keys (RFC 9964 for ML-DSA; draft-ietf-cose-sphincs-plus for SLH-DSA-SHAKE-128s):
//! `{"kty":"AKP","alg":"ML-DSA-65","pub":"<base64url>","priv":"<base64url>"}`.
//!
//! The JSON reader takes one object; members other than `kty`, `alg`, `pub`, `priv` are
//! ignored as RFC 7517 §4 asks, but must be well-formed JSON (nested at most 16 deep). A
//! member named twice is refused, as is anything after the object.

use alloc::string::String;
use alloc::vec::Vec;

use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

use super::{akp_private, b64, AkpKey, Algorithm, Error, PrivateKey, PublicKey};

/// Deepest nesting an ignored member may have.
const MAX_DEPTH: usize = 16;

/// Whether the format defines `alg` for this algorithm.
fn jose_defined(alg: Algorithm) -> bool {
    matches!(
        alg,
        Algorithm::MlDsa(_) | Algorithm::SlhDsa(crate::slhdsa::Mode::Shake128s)
    )
}

fn check_defined(alg: Algorithm) -> Result<(), Error> {
    if jose_defined(alg) {
        Ok(())
    } else {
        Err(Error::UnsupportedFormat(
            "no JOSE AKP encoding is defined for this SLH-DSA set (only SLH-DSA-SHAKE-128s)",
        ))
    }
}

fn jwk_text(alg: Algorithm, public: &[u8], private: Option<&[u8]>) -> Zeroizing<String> {
    let cap = 64
        + alg.name().len()
        + b64::encoded_len(public.len(), false)
        + private.map_or(0, |p| 10 + b64::encoded_len(p.len(), false));
    let mut out = Zeroizing::new(String::with_capacity(cap));
    out.push_str("{\"kty\":\"AKP\",\"alg\":\"");
    out.push_str(alg.name());
    out.push_str("\",\"pub\":\"");
    b64::encode_into(&mut out, public, true);
    if let Some(p) = private {
        out.push_str("\",\"priv\":\"");
        b64::encode_into(&mut out, p, true);
    }
    out.push_str("\"}");
    out
}

impl PublicKey {
    /// The public JWK: `{"kty":"AKP","alg":…,"pub":…}`.
    ///
    /// # Errors
    /// [`Error::UnsupportedFormat`] for the SLH-DSA sets no JOSE document defines.
    pub fn to_jwk(&self) -> Result<String, Error> {
        check_defined(self.algorithm)?;
        Ok(String::from(jwk_text(self.algorithm, &self.bytes, None).as_str()))
    }

    /// The JWK thumbprint (RFC 7638) over `alg`, `kty`, `pub`, base64url: the `kid` the
    /// drafts' examples use.
    ///
    /// # Errors
    /// [`Error::UnsupportedFormat`] as for [`to_jwk`](Self::to_jwk).
    pub fn jwk_thumbprint(&self) -> Result<String, Error> {
        check_defined(self.algorithm)?;
        let mut h = Sha256::new();
        h.update(b"{\"alg\":\"");
        h.update(self.algorithm.name().as_bytes());
        h.update(b"\",\"kty\":\"AKP\",\"pub\":\"");
        let mut p = String::with_capacity(b64::encoded_len(self.bytes.len(), false));
        b64::encode_into(&mut p, &self.bytes, true);
        h.update(p.as_bytes());
        h.update(b"\"}");
        let mut out = String::with_capacity(43);
        b64::encode_into(&mut out, &h.finalize(), true);
        Ok(out)
    }
}

impl PrivateKey {
    /// The private JWK: `pub` and `priv`, where `priv` is the ML-DSA seed (RFC 9964 §2) or
    /// the SLH-DSA private key.
    ///
    /// # Errors
    /// [`Error::NoSeed`] for an ML-DSA key without its seed, [`Error::UnsupportedFormat`]
    /// for the SLH-DSA sets no JOSE document defines.
    pub fn to_jwk(&self) -> Result<Zeroizing<String>, Error> {
        check_defined(self.algorithm)?;
        let private: &[u8] = match self.algorithm {
            Algorithm::MlDsa(_) => self.seed().ok_or(Error::NoSeed)?,
            Algorithm::SlhDsa(_) => &self.secret_key,
        };
        Ok(jwk_text(
            self.algorithm,
            self.public_key.as_bytes(),
            Some(private),
        ))
    }
}

/// Decodes a JWK `AKP` key, public or private (a private one checked against its `pub`).
///
/// # Errors
/// [`Error::BadJson`], [`Error::DuplicateField`], [`Error::MissingField`],
/// [`Error::WrongKeyType`], [`Error::UnknownAlgorithm`], [`Error::UnsupportedFormat`],
/// [`Error::BadBase64`], [`Error::KeyLength`], [`Error::KeyMismatch`].
pub fn decode_jwk(text: &str) -> Result<AkpKey, Error> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    let mut kty: Option<Zeroizing<String>> = None;
    let mut alg: Option<Zeroizing<String>> = None;
    let mut public: Option<Zeroizing<String>> = None;
    let mut private: Option<Zeroizing<String>> = None;
    p.ws();
    p.eat(b'{')?;
    p.ws();
    if !p.try_eat(b'}') {
        loop {
            p.ws();
            let name = p.string()?;
            p.ws();
            p.eat(b':')?;
            p.ws();
            let slot = match name.as_str() {
                "kty" => Some((&mut kty, "kty")),
                "alg" => Some((&mut alg, "alg")),
                "pub" => Some((&mut public, "pub")),
                "priv" => Some((&mut private, "priv")),
                _ => None,
            };
            match slot {
                Some((slot, field)) => {
                    if slot.is_some() {
                        return Err(Error::DuplicateField(field));
                    }
                    if p.peek() != Some(b'"') {
                        return Err(Error::BadJson("a key member that is not a string"));
                    }
                    *slot = Some(p.string()?);
                }
                None => {
                    p.skip_value(0)?;
                }
            }
            p.ws();
            if p.try_eat(b',') {
                continue;
            }
            p.eat(b'}')?;
            break;
        }
    }
    p.ws();
    if p.i != p.s.len() {
        return Err(Error::BadJson("text after the object"));
    }
    let kty = kty.ok_or(Error::MissingField("kty"))?;
    if kty.as_str() != "AKP" {
        return Err(Error::WrongKeyType);
    }
    let alg = alg.ok_or(Error::MissingField("alg"))?;
    let algorithm = Algorithm::from_name(&alg).ok_or(Error::UnknownAlgorithm)?;
    check_defined(algorithm)?;
    let public = public.ok_or(Error::MissingField("pub"))?;
    let mut pk = Vec::with_capacity(b64::decoded_len_max(public.len()));
    b64::decode_into(public.as_bytes(), true, &mut pk)?;
    let pk = PublicKey::new(algorithm, &pk)?;
    match private {
        None => Ok(AkpKey::Public(pk)),
        Some(text) => {
            let mut sk = Zeroizing::new(Vec::with_capacity(b64::decoded_len_max(text.len())));
            b64::decode_into(text.as_bytes(), true, &mut sk)?;
            Ok(AkpKey::Private(akp_private(algorithm, pk.as_bytes(), &sk)?))
        }
    }
}

/// A strict reader of the JSON grammar (RFC 8259) over the bytes of a `&str`.
struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn try_eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn eat(&mut self, c: u8) -> Result<(), Error> {
        if self.try_eat(c) {
            Ok(())
        } else {
            Err(Error::BadJson("unexpected character"))
        }
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let digits = self
            .s
            .get(self.i..self.i + 4)
            .ok_or(Error::BadJson("short \\u escape"))?;
        self.i += 4;
        digits.iter().try_fold(0u32, |acc, &d| {
            let v = char::from(d)
                .to_digit(16)
                .ok_or(Error::BadJson("bad \\u escape"))?;
            Ok(acc * 16 + v)
        })
    }

    /// A string (the opening quote next), unescaped. It may be a private key: wiped on drop.
    fn string(&mut self) -> Result<Zeroizing<String>, Error> {
        self.eat(b'"')?;
        let mut out = Zeroizing::new(String::new());
        // Reserve once, so the buffer never moves: the unescaped text is no longer than the
        // raw text up to the closing quote.
        let mut j = self.i;
        while let Some(&c) = self.s.get(j) {
            match c {
                b'"' => break,
                b'\\' => j += 2,
                _ => j += 1,
            }
        }
        out.reserve(j.min(self.s.len()) - self.i);
        loop {
            let c = self.peek().ok_or(Error::BadJson("unterminated string"))?;
            self.i += 1;
            match c {
                b'"' => return Ok(out),
                b'\\' => {
                    let e = self.peek().ok_or(Error::BadJson("unterminated string"))?;
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                if self.s.get(self.i..self.i + 2) != Some(b"\\u") {
                                    return Err(Error::BadJson("lone surrogate"));
                                }
                                self.i += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(Error::BadJson("lone surrogate"));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            char::from_u32(code).ok_or(Error::BadJson("lone surrogate"))?
                        }
                        _ => return Err(Error::BadJson("bad escape")),
                    };
                    out.push(ch);
                }
                0..=0x1F => return Err(Error::BadJson("control character in a string")),
                _ => {
                    // The input is a &str: copy the whole UTF-8 sequence starting here.
                    let start = self.i - 1;
                    let len = match c {
                        0x00..=0x7F => 1,
                        0xC0..=0xDF => 2,
                        0xE0..=0xEF => 3,
                        _ => 4,
                    };
                    let bytes = self
                        .s
                        .get(start..start + len)
                        .ok_or(Error::BadJson("bad UTF-8"))?;
                    out.push_str(core::str::from_utf8(bytes).map_err(|_| Error::BadJson("bad UTF-8"))?);
                    self.i = start + len;
                }
            }
        }
    }

    fn skip_value(&mut self, depth: usize) -> Result<(), Error> {
        if depth > MAX_DEPTH {
            return Err(Error::BadJson("nested too deep"));
        }
        match self.peek().ok_or(Error::BadJson("missing value"))? {
            b'"' => {
                self.string()?;
            }
            b'{' => {
                self.i += 1;
                self.ws();
                if !self.try_eat(b'}') {
                    loop {
                        self.ws();
                        self.string()?;
                        self.ws();
                        self.eat(b':')?;
                        self.ws();
                        self.skip_value(depth + 1)?;
                        self.ws();
                        if !self.try_eat(b',') {
                            self.eat(b'}')?;
                            break;
                        }
                    }
                }
            }
            b'[' => {
                self.i += 1;
                self.ws();
                if !self.try_eat(b']') {
                    loop {
                        self.ws();
                        self.skip_value(depth + 1)?;
                        self.ws();
                        if !self.try_eat(b',') {
                            self.eat(b']')?;
                            break;
                        }
                    }
                }
            }
            b't' => self.literal(b"true")?,
            b'f' => self.literal(b"false")?,
            b'n' => self.literal(b"null")?,
            _ => self.number()?,
        }
        Ok(())
    }

    fn literal(&mut self, word: &[u8]) -> Result<(), Error> {
        if self.s.get(self.i..self.i + word.len()) == Some(word) {
            self.i += word.len();
            Ok(())
        } else {
            Err(Error::BadJson("bad literal"))
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    fn number(&mut self) -> Result<(), Error> {
        self.try_eat(b'-');
        let digits = |p: &mut Self| {
            let start = p.i;
            while matches!(p.peek(), Some(b'0'..=b'9')) {
                p.i += 1;
            }
            p.i - start
        };
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                digits(self);
            }
            _ => return Err(Error::BadJson("bad value")),
        }
        if self.try_eat(b'.') && digits(self) == 0 {
            return Err(Error::BadJson("bad number"));
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if !self.try_eat(b'+') {
                self.try_eat(b'-');
            }
            if digits(self) == 0 {
                return Err(Error::BadJson("bad number"));
            }
        }
        Ok(())
    }
}
