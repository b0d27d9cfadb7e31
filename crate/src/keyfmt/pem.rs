//! PEM (RFC 7468 textual encoding) around DER: `-----BEGIN <label>-----`, base64 lines of
//! 64 characters, `-----END <label>-----`. Decoding accepts LF or CRLF line ends, lines of
//! any length and whitespace around the block, nothing else: no headers, no text around it.

use alloc::string::String;
use alloc::vec::Vec;

use zeroize::Zeroizing;

use super::{b64, Error};

/// The label of a SubjectPublicKeyInfo.
pub(super) const PUBLIC_KEY: &str = "PUBLIC KEY";
/// The label of a OneAsymmetricKey (PKCS #8).
pub(super) const PRIVATE_KEY: &str = "PRIVATE KEY";

/// Encodes `der` under `label`. The result holds whatever `der` held: it is wiped on drop.
pub(super) fn encode(label: &str, der: &[u8]) -> Zeroizing<String> {
    let body = b64::encoded_len(der.len(), true);
    let cap = 2 * (label.len() + 16) + body + body / 64 + 2;
    let mut out = Zeroizing::new(String::with_capacity(cap));
    out.push_str("-----BEGIN ");
    out.push_str(label);
    out.push_str("-----\n");
    for chunk in der.chunks(48) {
        b64::encode_into(&mut out, chunk, false);
        out.push('\n');
    }
    out.push_str("-----END ");
    out.push_str(label);
    out.push_str("-----\n");
    out
}

/// Decodes a PEM block that must carry `label`; returns its DER, wiped on drop.
pub(super) fn decode(text: &str, label: &str) -> Result<Zeroizing<Vec<u8>>, Error> {
    let text = text.trim_matches(|c: char| c.is_ascii_whitespace());
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let begin = lines.next().ok_or(Error::BadPem("empty input"))?;
    let begin_label = begin
        .strip_prefix("-----BEGIN ")
        .and_then(|l| l.strip_suffix("-----"))
        .ok_or(Error::BadPem("no BEGIN line"))?;
    if begin_label != label {
        return Err(Error::BadPem("unexpected PEM label"));
    }
    let mut body: Vec<&str> = Vec::new();
    let mut ended = false;
    for line in lines.by_ref() {
        if let Some(rest) = line.strip_prefix("-----END ") {
            if rest.strip_suffix("-----") != Some(label) {
                return Err(Error::BadPem("END line does not match BEGIN"));
            }
            ended = true;
            break;
        }
        body.push(line);
    }
    if !ended {
        return Err(Error::BadPem("no END line"));
    }
    if lines.next().is_some() {
        return Err(Error::BadPem("text after the END line"));
    }
    // The base64 text of a private key is the key: gather it in a wiped buffer.
    let total: usize = body.iter().map(|l| l.len()).sum();
    let mut joined = Zeroizing::new(Vec::with_capacity(total));
    for line in body {
        joined.extend_from_slice(line.as_bytes());
    }
    let mut der = Zeroizing::new(Vec::with_capacity(b64::decoded_len_max(total)));
    b64::decode_into(&joined, false, &mut der)?;
    if der.is_empty() {
        return Err(Error::BadPem("empty PEM body"));
    }
    Ok(der)
}
