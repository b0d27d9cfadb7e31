//! The byte surgery of the invalid cases: every invalid certificate of `kats/cert.json` is a
//! genuine one with `splices` (`{at, cut, insert}`, applied in order), so the file holds each
//! signature once; here the legs are found in a certificate's bytes and the splices applied.

use quasar_pq::cert::LegKind;

use crate::format::Failure;

/// Splices `(at, cut, insert)`, applied in order.
pub(super) type Splices = Vec<(usize, usize, Vec<u8>)>;

/// A certificate of the file: its bytes and how they are written.
pub(super) struct Cert {
    pub name: &'static str,
    pub bytes: Vec<u8>,
    /// `(base name, splices)` or the bytes in full.
    pub from: Option<(&'static str, Splices)>,
}

/// `(kind, payload offset, payload length)` of every leg.
pub(super) fn legs(cert: &[u8]) -> Vec<(u8, usize, usize)> {
    let header = if cert.get(100) == Some(&1) { 135 } else { 103 };
    let mut at = 6 + header + 1;
    let mut out = Vec::new();
    while at + 5 <= cert.len() {
        let len = u32::from_be_bytes([cert[at + 1], cert[at + 2], cert[at + 3], cert[at + 4]]) as usize;
        out.push((cert[at], at + 5, len));
        at += 5 + len;
    }
    out
}

pub(super) fn leg(cert: &[u8], kind: LegKind) -> Result<(usize, usize), Failure> {
    legs(cert)
        .into_iter()
        .find(|(k, _, _)| *k == kind.to_byte())
        .map(|(_, at, len)| (at, len))
        .ok_or_else(|| Failure(format!("no {kind} leg")))
}

pub(super) fn apply(base: &[u8], splices: &[(usize, usize, Vec<u8>)]) -> Vec<u8> {
    let mut b = base.to_vec();
    for (at, cut, insert) in splices {
        b.splice(*at..*at + *cut, insert.iter().copied());
    }
    b
}

/// `name`: `base` (named `base_name`) with `splices` applied.
pub(super) fn splice(
    name: &'static str,
    base: &[u8],
    base_name: &'static str,
    splices: Vec<(usize, usize, Vec<u8>)>,
) -> Cert {
    Cert {
        name,
        bytes: apply(base, &splices),
        from: Some((base_name, splices)),
    }
}
