//! The certificate's wire form, parsed into borrowed views without copying a signature.
//!
//! # `QCRT` (big-endian)
//!
//! | bytes | field |
//! |---|---|
//! | 4 | magic `QCRT` |
//! | 2 | version = 1 |
//! | 103 or 135 | the [`Header`] ([`super::header`]) |
//! | 1 | number of legs, 1 ≤ L ≤ 5 |
//! | L × | leg: kind (u8, [`LegKind`]) ‖ u32 payload length ‖ payload |
//!
//! Legs come in strictly increasing kind order (so a kind appears at most once). Nothing may
//! follow the last leg, and nothing may follow a leg's own fields inside its payload.
//!
//! # Leg payloads
//!
//! | kind | payload |
//! |---|---|
//! | 1 BLS | signer bitmap (u16 n ‖ ⌈n/8⌉ bytes, [`super::Bitmap`]) ‖ aggregate signature (96, compressed G2) |
//! | 2 Pulsar | a `PULS` frame ([`crate::pulsar::frame`]: magic, version, mode, length, FIPS 204 signature) |
//! | 3 Corona | a `CORS` frame ([`crate::corona`]: magic, version 2, c̃, z, Δ), exactly [`crate::corona::SIGNATURE_LEN`] bytes |
//! | 4 Magnetar | the Magnetar aggregate certificate `MAGA` ([`crate::magnetar`]: mode, u16 count, ascending 32-byte ids, signatures) |
//! | 5 ML-DSA set | signer bitmap ‖ ML-DSA mode (u8) ‖ one FIPS 204 signature per signer, in set order |
//!
//! Parsing checks all of this (bitmap padding included) without the validator set; what needs
//! the set — the bitmap's size, the modes, the quorum — is [`super::check`]'s.

use super::bitmap::Bitmap;
use super::header::Header;
use super::{Error, LegKind, LegSet};
use crate::bls;
use crate::hash::{tags, Transcript};
use crate::magnetar::AggregateCertificate;
use crate::mldsa;
use crate::pulsar::frame::SignatureFrame;
use crate::wire::{self, Reader};

/// Magic of an encoded certificate.
pub const CERT_MAGIC: [u8; 4] = *b"QCRT";
/// Version of the encoding.
pub const CERT_VERSION: u16 = 1;
/// The longest leg payload accepted (64 MiB).
pub const MAX_LEG_LEN: usize = 1 << 26;

/// The longest certificate a set of `validators` validators admits, in bytes: every leg of
/// every kind present at its largest for that many signers — magic, version, the longer
/// header, the leg count and five leg headers; a BLS leg (bitmap, aggregate signature); a
/// `PULS` frame of ML-DSA-87; a `CORS` frame; a Magnetar
/// aggregate of every validator at the largest Magnetar signature (SLH-DSA-SHAKE-192f); an
/// ML-DSA-set leg of every validator at ML-DSA-87. [`super::verify`] refuses anything longer
/// (`TOO_LONG`) before parsing it, so a host may refuse such input without copying it and
/// never refuses a certificate the verifier would accept.
pub fn max_certificate_len(validators: usize) -> usize {
    let n = validators;
    let bitmap = 2 + n.div_ceil(8);
    let mldsa_sig = mldsa::Mode::MlDsa87.signature_len();
    let magnetar_sig = crate::magnetar::Mode::ALL
        .iter()
        .map(|m| m.signature_len())
        .max()
        .unwrap_or(0);
    let fixed = CERT_MAGIC.len() + 2 + super::header::HEADER_LEN[1] + 1 + 5 * LegKind::ALL.len();
    let bls_leg = bitmap + bls::SIGNATURE_LEN;
    let pulsar_leg = crate::pulsar::frame::HEADER_LEN + mldsa_sig;
    let magnetar_leg = crate::magnetar::certificate::HEADER_LEN + n * (32 + magnetar_sig);
    let mldsa_leg = bitmap + 1 + n * mldsa_sig;
    fixed + bls_leg + pulsar_leg + crate::corona::SIGNATURE_LEN + magnetar_leg + mldsa_leg
}

/// One leg, borrowed from the certificate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum LegView<'a> {
    /// BLS: the signers and their aggregate signature (still compressed: decoding checks
    /// the subgroup, which is signature work).
    Bls {
        /// The signers.
        signers: Bitmap<'a>,
        /// The compressed aggregate signature.
        signature: &'a [u8; bls::SIGNATURE_LEN],
    },
    /// Pulsar: the `PULS` frame.
    Pulsar {
        /// The frame, decoded (mode and signature bytes).
        frame: SignatureFrame<'a>,
    },
    /// Corona: the `CORS` frame, its header and length checked (its values are decoded,
    /// and checked canonical, when it is verified).
    Corona {
        /// The frame.
        signature: &'a [u8],
    },
    /// Magnetar: the aggregate certificate (`MAGA`), decoded without copying.
    Magnetar {
        /// The aggregate: mode, signer ids ascending, signatures.
        aggregate: AggregateCertificate<'a>,
    },
    /// ML-DSA set: the signers, the mode and the concatenated signatures.
    MlDsaSet {
        /// The signers.
        signers: Bitmap<'a>,
        /// The parameter set.
        mode: mldsa::Mode,
        /// `signers.count()` signatures of `mode.signature_len()` bytes, in set order.
        signatures: &'a [u8],
    },
}

impl<'a> LegView<'a> {
    /// The leg's kind.
    pub fn kind(&self) -> LegKind {
        match self {
            LegView::Bls { .. } => LegKind::Bls,
            LegView::Pulsar { .. } => LegKind::Pulsar,
            LegView::Corona { .. } => LegKind::Corona,
            LegView::Magnetar { .. } => LegKind::Magnetar,
            LegView::MlDsaSet { .. } => LegKind::MlDsaSet,
        }
    }

    /// The signer bitmap of a bitmap leg (BLS, ML-DSA set).
    pub fn bitmap(&self) -> Option<Bitmap<'a>> {
        match self {
            LegView::Bls { signers, .. } | LegView::MlDsaSet { signers, .. } => Some(*signers),
            _ => None,
        }
    }

    /// How many validators the leg names as signers (bitmap legs and Magnetar).
    pub fn signer_count(&self) -> Option<usize> {
        match self {
            LegView::Magnetar { aggregate } => Some(aggregate.len()),
            _ => self.bitmap().map(|b| b.count()),
        }
    }

    fn parse(kind: LegKind, payload: &'a [u8]) -> Result<Self, Error> {
        let mut r = Reader::new(payload);
        let leg = match kind {
            LegKind::Bls => {
                let signers = Bitmap::read(&mut r, kind)?;
                let signature =
                    r.take(bls::SIGNATURE_LEN)?
                        .try_into()
                        .map_err(|_| wire::Error::LengthMismatch {
                            expected: bls::SIGNATURE_LEN,
                            got: 0,
                        })?;
                LegView::Bls { signers, signature }
            }
            LegKind::Pulsar => LegView::Pulsar {
                frame: SignatureFrame::decode(r.take(payload.len())?)?,
            },
            LegKind::Corona => {
                crate::corona::check_signature_frame(payload)?;
                LegView::Corona {
                    signature: r.take(payload.len())?,
                }
            }
            LegKind::Magnetar => LegView::Magnetar {
                aggregate: AggregateCertificate::decode(r.take(payload.len())?).map_err(Error::Magnetar)?,
            },
            LegKind::MlDsaSet => {
                let signers = Bitmap::read(&mut r, kind)?;
                let b = r.u8()?;
                let mode = mldsa::Mode::from_byte(b).map_err(|_| wire::Error::UnknownMode(b))?;
                let expected = signers.count() * mode.signature_len();
                if r.remaining() != expected {
                    return Err(wire::Error::LengthMismatch {
                        expected,
                        got: r.remaining(),
                    }
                    .into());
                }
                LegView::MlDsaSet {
                    signers,
                    mode,
                    signatures: r.take(expected)?,
                }
            }
        };
        r.finish()?;
        Ok(leg)
    }
}

/// A certificate borrowed from its encoding: the header and up to one leg of each kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CertificateView<'a> {
    bytes: &'a [u8],
    header: Header,
    legs: [Option<LegView<'a>>; 5],
    /// Each present leg's payload as it came, for the canonical form and the id.
    payloads: [Option<&'a [u8]>; 5],
}

impl<'a> CertificateView<'a> {
    /// Parses a `QCRT` certificate (see the module docs). No allocation, no signature work.
    ///
    /// # Errors
    /// [`Error::Decode`] (`TOO_SHORT`, `BAD_MAGIC`, `BAD_VERSION`, `UNKNOWN_MODE`,
    /// `LENGTH_MISMATCH`, `COUNT_TOO_LARGE`, `INVALID_VALUE`, `TRAILING_BYTES`),
    /// [`Error::UnknownLeg`], [`Error::DuplicateLeg`], and a bitmap's
    /// [`Error::UnknownSigner`] or [`Error::NoSigners`].
    pub fn parse(bytes: &'a [u8]) -> Result<Self, Error> {
        let mut r = Reader::new(bytes);
        r.header(&CERT_MAGIC, CERT_VERSION)?;
        let header = Header::read(&mut r)?;
        let count = usize::from(r.u8()?);
        if count == 0 {
            return Err(wire::Error::InvalidValue("a certificate with no leg").into());
        }
        if count > LegKind::ALL.len() {
            return Err(wire::Error::CountTooLarge {
                got: count,
                max: LegKind::ALL.len(),
            }
            .into());
        }
        let mut legs = [None; 5];
        let mut payloads = [None; 5];
        let mut last: Option<LegKind> = None;
        for _ in 0..count {
            let kind = LegKind::from_byte(r.u8()?)?;
            if last.is_some_and(|l| l >= kind) {
                return Err(Error::DuplicateLeg(kind));
            }
            last = Some(kind);
            let max = if kind == LegKind::Corona {
                crate::corona::SIGNATURE_LEN
            } else {
                MAX_LEG_LEN
            };
            let payload = r.bytes(max)?;
            legs[kind.index()] = Some(LegView::parse(kind, payload)?);
            payloads[kind.index()] = Some(payload);
        }
        r.finish()?;
        Ok(CertificateView {
            bytes,
            header,
            legs,
            payloads,
        })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The leg of `kind`, if present.
    pub fn leg(&self, kind: LegKind) -> Option<&LegView<'a>> {
        self.legs[kind.index()].as_ref()
    }

    /// The legs present, in kind order.
    pub fn legs(&self) -> impl Iterator<Item = &LegView<'a>> {
        self.legs.iter().flatten()
    }

    /// The encoding.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The payload of leg `kind` as it came, if present.
    pub fn leg_payload(&self, kind: LegKind) -> Option<&'a [u8]> {
        self.payloads[kind.index()]
    }

    /// The identity of the header and the legs `legs` (those present among them), in kind
    /// order: cSHAKE256 (`QUASAR-CERT-ID-v1`) over the finality message, then each leg's
    /// kind byte and payload. Bytes outside those legs never reach it; see
    /// [`super::Report::id`].
    pub fn id(&self, legs: LegSet) -> [u8; 32] {
        let mut t = Transcript::new(tags::CERT_ID);
        t.append(&self.header.message());
        for kind in legs.iter() {
            if let Some(payload) = self.leg_payload(kind) {
                t.append(&[kind.to_byte()]).append(payload);
            }
        }
        t.finalize()
    }

    /// The certificate re-encoded with only the legs `legs` (those present among them): the
    /// canonical form of what a verifier checked, whose [`CertificateView::id`] over the same
    /// legs is unchanged. A certificate with none of `legs` has no canonical form.
    pub fn canonical(&self, legs: LegSet) -> Option<alloc::vec::Vec<u8>> {
        let kept: alloc::vec::Vec<(u8, &[u8])> = legs
            .iter()
            .filter_map(|k| self.leg_payload(k).map(|p| (k.to_byte(), p)))
            .collect();
        (!kept.is_empty()).then(|| encode(&self.header, &kept))
    }
}

/// Encodes a certificate with exactly `legs` (kind byte, payload), in the order given,
/// without checking them: for tools and tests that need malformed certificates.
/// [`super::CertificateBuilder`] builds well-formed ones.
pub fn encode(header: &Header, legs: &[(u8, &[u8])]) -> alloc::vec::Vec<u8> {
    let total: usize = legs.iter().map(|(_, p)| 5 + p.len()).sum();
    let mut w = wire::Writer::with_capacity(6 + 136 + 1 + total);
    w.put(&CERT_MAGIC).u16(CERT_VERSION);
    header.write(&mut w);
    w.u8(crate::wire::len_u8(legs.len()));
    for (kind, payload) in legs {
        w.u8(*kind).bytes(payload);
    }
    w.into_bytes()
}
