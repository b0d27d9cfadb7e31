//! The aggregate certificate (`MAGA`): one mode, the signers' ids, their signatures on one
//! message; decoded as a borrowed view and verified against a [`Registry`] with a
//! [`Quorum`] (layout and verdict rule in the module docs).

use alloc::vec::Vec;

use super::batch::verify_group;
use super::envelope::SignatureFrame;
use super::registry::{Registry, ValidatorId, MAX_VALIDATORS};
use super::{Error, Mode};
use crate::quorum::{self, Quorum};
use crate::slhdsa;
use crate::wire::{self, Reader, Writer};

/// Magic of an aggregate certificate.
pub const MAGIC: [u8; 4] = *b"MAGA";
/// The only certificate version.
pub const VERSION: u16 = 1;
/// Bytes before the signer ids: magic 4, version 2, mode 1, count 2.
pub const HEADER_LEN: usize = 9;
/// The most signers a certificate names (= [`MAX_VALIDATORS`]).
pub const MAX_SIGNERS: usize = MAX_VALIDATORS;

const ID_LEN: usize = 32;

/// An aggregate certificate, borrowed from its encoding: checked for structure (magic,
/// version, mode, count, exact length, ascending distinct ids) but not yet verified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AggregateCertificate<'a> {
    mode: Mode,
    ids: &'a [u8],
    signatures: &'a [u8],
}

impl<'a> AggregateCertificate<'a> {
    /// Encodes a certificate from validators' contributions (id, `MAGS` envelope), in any
    /// order; they are sorted by id.
    ///
    /// Verify contributions before aggregating them ([`super::verify_batch`]): one invalid
    /// signature makes the whole certificate invalid.
    ///
    /// # Errors
    /// `NO_SIGNERS`; `COUNT_TOO_LARGE` over [`MAX_SIGNERS`]; an envelope's decoding error;
    /// `WRONG_MODE` for a signature of another mode; `DUPLICATE_SIGNER`.
    pub fn encode(mode: Mode, contributions: &[(ValidatorId, &[u8])]) -> Result<Vec<u8>, Error> {
        if contributions.is_empty() {
            return Err(Error::NoSigners);
        }
        if contributions.len() > MAX_SIGNERS {
            return Err(wire::Error::CountTooLarge {
                got: contributions.len(),
                max: MAX_SIGNERS,
            }
            .into());
        }
        let mut entries = Vec::with_capacity(contributions.len());
        for (id, frame) in contributions {
            let sig = SignatureFrame::decode(frame)?;
            if sig.mode != mode {
                return Err(Error::WrongMode {
                    expected: mode,
                    got: sig.mode,
                });
            }
            entries.push((*id, sig.signature));
        }
        crate::sort::sort_by_key_stable(&mut entries, |e| e.0);
        if let Some(w) = entries.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(Error::DuplicateSigner { id: w[0].0 });
        }
        let per_signer = ID_LEN + mode.signature_len();
        let mut w = Writer::with_capacity(HEADER_LEN + entries.len() * per_signer);
        w.put(&MAGIC).u16(VERSION).u8(mode.to_byte());
        // At most MAX_SIGNERS (1024) entries: fits the u16.
        w.u16(crate::wire::len_u16(entries.len()));
        for (id, _) in &entries {
            w.put(&id.0);
        }
        for (_, sig) in &entries {
            w.put(sig);
        }
        Ok(w.into_bytes())
    }

    /// Reads a certificate without copying. Every check is on the structure alone; no
    /// signature is verified and nothing is allocated.
    ///
    /// # Errors
    /// `TOO_SHORT`, `BAD_MAGIC`, `BAD_VERSION`, `UNKNOWN_MODE`; `NO_SIGNERS` for a count of
    /// 0; `COUNT_TOO_LARGE` over [`MAX_SIGNERS`]; `TOO_SHORT` or `TRAILING_BYTES` when the
    /// length is not exactly the count's; `DUPLICATE_SIGNER`; `INVALID_VALUE` for ids out
    /// of ascending order.
    pub fn decode(bytes: &'a [u8]) -> Result<Self, Error> {
        let mut r = Reader::new(bytes);
        r.header(&MAGIC, VERSION)?;
        let mode_byte = r.u8()?;
        let mode = Mode::from_byte(mode_byte).ok_or(wire::Error::UnknownMode(mode_byte))?;
        let count = usize::from(r.u16()?);
        if count == 0 {
            return Err(Error::NoSigners);
        }
        if count > MAX_SIGNERS {
            return Err(wire::Error::CountTooLarge {
                got: count,
                max: MAX_SIGNERS,
            }
            .into());
        }
        // The whole length is known from the count: check it before reading any entry.
        let sig_len = mode.signature_len();
        let body = count * (ID_LEN + sig_len);
        if r.remaining() > body {
            return Err(wire::Error::TrailingBytes {
                extra: r.remaining() - body,
            }
            .into());
        }
        let ids = r.take(count * ID_LEN)?;
        let signatures = r.take(count * sig_len)?;
        r.finish()?;
        let cert = AggregateCertificate {
            mode,
            ids,
            signatures,
        };
        cert.check_order()?;
        Ok(cert)
    }

    fn check_order(&self) -> Result<(), Error> {
        let ids = self.ids.chunks_exact(ID_LEN);
        for (a, b) in ids.clone().zip(ids.skip(1)) {
            match a.cmp(b) {
                core::cmp::Ordering::Less => {}
                core::cmp::Ordering::Equal => {
                    return Err(Error::DuplicateSigner { id: id_of(b) });
                }
                core::cmp::Ordering::Greater => {
                    return Err(wire::Error::InvalidValue("signer ids out of ascending order").into());
                }
            }
        }
        Ok(())
    }

    /// The parameter set of every signature.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// How many signers it names (at least 1).
    pub fn len(&self) -> usize {
        self.ids.len() / ID_LEN
    }

    /// Never true: a decoded certificate names at least one signer.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The signers' ids, ascending.
    pub fn signers(&self) -> impl ExactSizeIterator<Item = ValidatorId> + 'a {
        self.ids.chunks_exact(ID_LEN).map(id_of)
    }

    /// The raw FIPS 205 signatures, in the signers' order.
    pub fn signatures(&self) -> impl ExactSizeIterator<Item = &'a [u8]> + 'a {
        self.signatures.chunks_exact(self.mode.signature_len())
    }

    /// The encoding's length in bytes.
    pub fn encoded_len(&self) -> usize {
        HEADER_LEN + self.ids.len() + self.signatures.len()
    }

    /// The encoding again (a view only comes from [`AggregateCertificate::decode`], whose
    /// input this equals byte for byte).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(self.encoded_len());
        w.put(&MAGIC).u16(VERSION).u8(self.mode.to_byte());
        // len() ≤ MAX_SIGNERS: fits the u16.
        w.u16(crate::wire::len_u16(self.len()))
            .put(self.ids)
            .put(self.signatures);
        w.into_bytes()
    }

    /// The registry positions of the signers, and their summed weight.
    fn resolve(&self, registry: &Registry) -> Result<(Vec<usize>, u64), Error> {
        if registry.mode() != self.mode {
            return Err(Error::WrongMode {
                expected: registry.mode(),
                got: self.mode,
            });
        }
        let mut positions = Vec::with_capacity(self.len());
        let mut previous: Option<ValidatorId> = None;
        let mut weight = 0u64;
        for id in self.signers() {
            // Decoding already refused these; a view is Copy, so say it again here.
            if previous.is_some_and(|p| p >= id) {
                return Err(Error::DuplicateSigner { id });
            }
            previous = Some(id);
            let at = registry.position(&id).ok_or(Error::UnknownSigner { id })?;
            weight = weight
                .checked_add(registry.validators()[at].weight)
                .ok_or(quorum::Error::WeightOverflow)?;
            positions.push(at);
        }
        Ok((positions, weight))
    }

    fn verify_signatures(
        &self,
        registry: &Registry,
        positions: &[usize],
        msg: &[u8],
        ctx: &[u8],
    ) -> Vec<bool> {
        let items: Vec<slhdsa::BatchItem<'_>> = positions
            .iter()
            .zip(self.signatures())
            .map(|(&at, signature)| slhdsa::BatchItem {
                public_key: registry.validators()[at].key.as_bytes(),
                message: msg,
                context: ctx,
                signature,
            })
            .collect();
        verify_group(self.mode, &items)
    }

    fn report(
        &self,
        registry: &Registry,
        positions: &[usize],
        bitmap: Vec<bool>,
        quorum: Quorum,
    ) -> Result<Report, Error> {
        let mut signed = 0u64;
        let mut claimed = 0u64;
        for (&at, &ok) in positions.iter().zip(&bitmap) {
            let w = registry.validators()[at].weight;
            // Both sums are at most the registry's total, which fits.
            claimed = claimed.checked_add(w).ok_or(quorum::Error::WeightOverflow)?;
            if ok {
                signed = signed.checked_add(w).ok_or(quorum::Error::WeightOverflow)?;
            }
        }
        let total = registry.total_weight();
        Ok(Report {
            signers: self.signers().collect(),
            bitmap,
            signed_weight: signed,
            claimed_weight: claimed,
            total_weight: total,
            quorum,
            quorum_met: quorum.is_met(signed, total)?,
        })
    }

    /// The light client's verdict: `Ok` only if the certificate's mode is the registry's,
    /// every signer is registered and named once, **every** signature verifies on
    /// `msg` under `ctx` with the registered key, and the signers' weight meets `quorum`.
    ///
    /// Cheap checks come first: a certificate whose claimed signers cannot reach the
    /// quorum is refused before any signature is verified.
    ///
    /// # Errors
    /// `WRONG_MODE`, `UNKNOWN_SIGNER`, `DUPLICATE_SIGNER`, `QUORUM_NOT_MET`,
    /// `INVALID_SIGNATURE` (naming every signer whose signature failed),
    /// `CONTEXT_TOO_LONG`.
    pub fn verify(
        &self,
        registry: &Registry,
        msg: &[u8],
        ctx: &[u8],
        quorum: Quorum,
    ) -> Result<Report, Error> {
        check_context(ctx)?;
        let (positions, claimed) = self.resolve(registry)?;
        quorum.check(claimed, registry.total_weight())?;
        let bitmap = self.verify_signatures(registry, &positions, msg, ctx);
        let report = self.report(registry, &positions, bitmap, quorum)?;
        report.verdict()?;
        Ok(report)
    }

    /// The diagnostic pass: the structural checks of [`AggregateCertificate::verify`], then
    /// every signature verified (even when the quorum is out of reach) and reported; the
    /// report's [`Report::verdict`] is what `verify` would have returned.
    ///
    /// # Errors
    /// `WRONG_MODE`, `UNKNOWN_SIGNER`, `DUPLICATE_SIGNER`, `CONTEXT_TOO_LONG`.
    pub fn check(
        &self,
        registry: &Registry,
        msg: &[u8],
        ctx: &[u8],
        quorum: Quorum,
    ) -> Result<Report, Error> {
        check_context(ctx)?;
        let (positions, _) = self.resolve(registry)?;
        let bitmap = self.verify_signatures(registry, &positions, msg, ctx);
        self.report(registry, &positions, bitmap, quorum)
    }
}

fn check_context(ctx: &[u8]) -> Result<(), Error> {
    if ctx.len() > 255 {
        return Err(Error::SlhDsa(slhdsa::Error::ContextTooLong { len: ctx.len() }));
    }
    Ok(())
}

fn id_of(chunk: &[u8]) -> ValidatorId {
    let mut id = [0u8; ID_LEN];
    id.copy_from_slice(chunk);
    ValidatorId(id)
}

/// What verifying an aggregate certificate found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The signers the certificate names, ascending (its order).
    pub signers: Vec<ValidatorId>,
    /// `bitmap[i]`: whether `signers[i]`'s signature verified.
    pub bitmap: Vec<bool>,
    /// The summed weight of the signers whose signature verified (`u64`).
    pub signed_weight: u64,
    /// The summed weight of every signer named, valid or not (`u64`).
    pub claimed_weight: u64,
    /// The registry's total weight (`u64`, nonzero).
    pub total_weight: u64,
    /// The rule applied.
    pub quorum: Quorum,
    /// Whether `signed_weight` meets `quorum` of `total_weight`.
    pub quorum_met: bool,
}

impl Report {
    /// How many signers the certificate names.
    pub fn signer_count(&self) -> usize {
        self.signers.len()
    }

    /// How many of them signed validly.
    pub fn valid_count(&self) -> usize {
        self.bitmap.iter().filter(|&&ok| ok).count()
    }

    /// The signers whose signature failed.
    pub fn failed(&self) -> Vec<ValidatorId> {
        self.signers
            .iter()
            .zip(&self.bitmap)
            .filter(|(_, &ok)| !ok)
            .map(|(id, _)| *id)
            .collect()
    }

    /// The certificate's verdict: `Ok` when every signature verified and the quorum is met.
    ///
    /// # Errors
    /// `INVALID_SIGNATURE` (first: a certificate carrying a bad signature is invalid
    /// whatever the rest weighs), then `QUORUM_NOT_MET`.
    pub fn verdict(&self) -> Result<(), Error> {
        let failed = self.failed();
        if !failed.is_empty() {
            return Err(Error::InvalidSignatures { failed });
        }
        if !self.quorum_met {
            return Err(quorum::Error::QuorumNotMet {
                signed: self.signed_weight,
                total: self.total_weight,
                numerator: self.quorum.numerator(),
                denominator: self.quorum.denominator(),
            }
            .into());
        }
        Ok(())
    }
}
