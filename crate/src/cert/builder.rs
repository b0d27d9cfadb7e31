//! Assembling a certificate from what the validators and the Pulsar combiner produced.

use alloc::vec::Vec;

use super::bitmap::Bitmap;
use super::set::ValidatorSet;
use super::view::encode;
use super::{Error, Header, LegKind};
use crate::bls::{self, Signature};
use crate::magnetar::{self, AggregateCertificate, ValidatorId};
use crate::pulsar::frame::SignatureFrame;

/// Collects the legs of one certificate for one block under one validator set, then encodes
/// it ([`CertificateBuilder::build`]).
///
/// The header's chain, epoch, set root and key era come from the set; the block's height,
/// round and hash from the caller, and [`CertificateBuilder::ending_epoch`] commits to the
/// next set. Hand [`CertificateBuilder::message`] to the signers:
///
/// - each BLS validator signs it ([`crate::bls::SigningKey::sign`]) → [`CertificateBuilder::add_bls`];
/// - the Pulsar custody session signs it with context [`super::PULSAR_CONTEXT`]
///   ([`crate::pulsar::custody::Session::sign`]; the combiner's `Signed::to_frame`) →
///   [`CertificateBuilder::pulsar`];
/// - the Corona group's signers sign it with context [`super::CORONA_CONTEXT`]
///   ([`crate::corona::Signer`]; every signer's `Signed::signature`) →
///   [`CertificateBuilder::corona`];
/// - each validator's ML-DSA key signs it with context [`super::MLDSA_CONTEXT`] →
///   [`CertificateBuilder::add_mldsa`];
/// - each validator's Magnetar (SLH-DSA) key signs it with context
///   [`super::MAGNETAR_CONTEXT`] → [`CertificateBuilder::add_magnetar`].
///
/// The builder refuses what cannot be encoded (a signer outside the set, a signer twice, a
/// signature of the wrong length or parameter set); it does not check signatures or quorums,
/// so it also builds certificates that do not verify — a verifier decides.
#[derive(Debug, Clone)]
pub struct CertificateBuilder {
    set_len: usize,
    mldsa: Option<crate::mldsa::Mode>,
    header: Header,
    bls: Vec<(usize, Signature)>,
    pulsar: Option<Vec<u8>>,
    corona: Option<Vec<u8>>,
    mldsa_sigs: Vec<(usize, Vec<u8>)>,
    magnetar_mode: Option<magnetar::Mode>,
    ids: Vec<[u8; 32]>,
    magnetar: Vec<(usize, Vec<u8>)>,
    raw: Vec<(LegKind, Vec<u8>)>,
}

impl CertificateBuilder {
    /// A certificate of block `(height, round, block_hash)` under `set`.
    pub fn new(set: &ValidatorSet, height: u64, round: u32, block_hash: [u8; 32]) -> CertificateBuilder {
        CertificateBuilder {
            set_len: set.len(),
            mldsa: set.view().mldsa_mode(),
            header: Header {
                chain_id: set.chain_id(),
                epoch: set.epoch(),
                height,
                round,
                block_hash,
                set_root: *set.root(),
                next_set_root: None,
                key_era: set.key_era(),
            },
            bls: Vec::new(),
            pulsar: None,
            corona: None,
            mldsa_sigs: Vec::new(),
            magnetar_mode: set
                .view()
                .slhdsa_mode()
                .and_then(|m| magnetar::Mode::from_byte(m.to_byte())),
            ids: set.view().entries().map(|e| *e.id).collect(),
            magnetar: Vec::new(),
            raw: Vec::new(),
        }
    }

    /// Makes the block the epoch's last: the header commits to `next`'s root.
    pub fn ending_epoch(mut self, next: &ValidatorSet) -> CertificateBuilder {
        self.header.next_set_root = Some(*next.root());
        self
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The header, to change (for tests of forged headers: signatures already added were
    /// made over the old one).
    pub fn header_mut(&mut self) -> &mut Header {
        &mut self.header
    }

    /// The finality message the signers sign.
    pub fn message(&self) -> [u8; 32] {
        self.header.message()
    }

    fn position(&self, kind: LegKind, index: usize, taken: impl Fn(usize) -> bool) -> Result<(), Error> {
        if index >= self.set_len {
            return Err(Error::UnknownSigner { kind, index });
        }
        if taken(index) {
            return Err(Error::DuplicateSigner { kind, index });
        }
        Ok(())
    }

    /// Adds validator `index`'s BLS signature.
    ///
    /// # Errors
    /// [`Error::UnknownSigner`], [`Error::DuplicateSigner`].
    pub fn add_bls(&mut self, index: usize, signature: &Signature) -> Result<&mut Self, Error> {
        self.position(LegKind::Bls, index, |i| self.bls.iter().any(|(j, _)| *j == i))?;
        self.bls.push((index, *signature));
        Ok(self)
    }

    /// Sets the Pulsar leg: the combiner's `PULS` frame.
    ///
    /// # Errors
    /// [`Error::Decode`] for a malformed frame.
    pub fn pulsar(&mut self, frame: &[u8]) -> Result<&mut Self, Error> {
        SignatureFrame::decode(frame)?;
        self.pulsar = Some(frame.to_vec());
        Ok(self)
    }

    /// Sets the Corona leg: the group's `CORS` signature.
    ///
    /// # Errors
    /// [`Error::Decode`] for a frame of the wrong magic, version or length (its values are
    /// checked when it is verified).
    pub fn corona(&mut self, signature: &[u8]) -> Result<&mut Self, Error> {
        crate::corona::check_signature_frame(signature)?;
        self.corona = Some(signature.to_vec());
        Ok(self)
    }

    /// Adds validator `index`'s ML-DSA signature.
    ///
    /// # Errors
    /// [`Error::MissingKeys`] if the set has no ML-DSA keys, [`Error::UnknownSigner`],
    /// [`Error::DuplicateSigner`], [`Error::InvalidMlDsaKey`] with `InvalidLength` for a
    /// signature of the wrong length.
    pub fn add_mldsa(&mut self, index: usize, signature: &[u8]) -> Result<&mut Self, Error> {
        let kind = LegKind::MlDsaSet;
        let mode = self.mldsa.ok_or(Error::MissingKeys(kind))?;
        self.position(kind, index, |i| self.mldsa_sigs.iter().any(|(j, _)| *j == i))?;
        if signature.len() != mode.signature_len() {
            return Err(Error::InvalidMlDsaKey(crate::mldsa::Error::InvalidLength {
                what: "signature",
                expected: mode.signature_len(),
                got: signature.len(),
            }));
        }
        self.mldsa_sigs.push((index, signature.to_vec()));
        Ok(self)
    }

    /// Adds validator `index`'s Magnetar signature: its `MAGS` frame (SLH-DSA with context
    /// [`super::MAGNETAR_CONTEXT`], [`crate::magnetar::SigningKey::sign_deterministic`]).
    ///
    /// # Errors
    /// [`Error::MissingKeys`] if the set has no Magnetar keys, [`Error::UnknownSigner`],
    /// [`Error::DuplicateSigner`], [`Error::Magnetar`] for a malformed frame or another mode.
    pub fn add_magnetar(&mut self, index: usize, frame: &[u8]) -> Result<&mut Self, Error> {
        let kind = LegKind::Magnetar;
        let mode = self.magnetar_mode.ok_or(Error::MissingKeys(kind))?;
        self.position(kind, index, |i| self.magnetar.iter().any(|(j, _)| *j == i))?;
        let decoded = magnetar::SignatureFrame::decode(frame)?;
        if decoded.mode != mode {
            return Err(Error::LegModeMismatch(kind));
        }
        self.magnetar.push((index, frame.to_vec()));
        Ok(self)
    }

    /// Sets the payload of a leg as given (a replacement of any leg, for tests of malformed
    /// certificates), replacing what the builder would encode for that kind.
    pub fn raw_leg(&mut self, kind: LegKind, payload: Vec<u8>) -> &mut Self {
        self.raw.retain(|(k, _)| *k != kind);
        self.raw.push((kind, payload));
        self
    }

    /// The BLS leg's payload, if any signature was added.
    fn bls_payload(&self) -> Result<Option<Vec<u8>>, Error> {
        if self.bls.is_empty() {
            return Ok(None);
        }
        let mut signers: Vec<usize> = self.bls.iter().map(|(i, _)| *i).collect();
        crate::sort::heapsort(&mut signers);
        let sigs: Vec<Signature> = self.bls.iter().map(|(_, s)| *s).collect();
        let aggregate = Signature::aggregate(&sigs).map_err(|error| Error::MalformedSignature {
            kind: LegKind::Bls,
            error,
        })?;
        let mut w =
            crate::wire::Writer::with_capacity(Bitmap::encoded_len(self.set_len) + bls::SIGNATURE_LEN);
        Bitmap::write(self.set_len, signers, &mut w);
        w.put(&aggregate.to_bytes());
        Ok(Some(w.into_bytes()))
    }

    /// The ML-DSA-set leg's payload, if any signature was added.
    fn mldsa_payload(&self) -> Option<Vec<u8>> {
        let mode = self.mldsa?;
        if self.mldsa_sigs.is_empty() {
            return None;
        }
        let mut sigs: Vec<&(usize, Vec<u8>)> = self.mldsa_sigs.iter().collect();
        crate::sort::heapsort_by(&mut sigs, |a, b| a.0.cmp(&b.0));
        let mut w = crate::wire::Writer::with_capacity(
            Bitmap::encoded_len(self.set_len) + 1 + sigs.len() * mode.signature_len(),
        );
        Bitmap::write(self.set_len, sigs.iter().map(|(i, _)| *i), &mut w);
        w.u8(mode.to_byte());
        for (_, s) in sigs {
            w.put(s);
        }
        Some(w.into_bytes())
    }

    /// Encodes the certificate (`QCRT`, legs in kind order).
    ///
    /// # Errors
    /// [`Error::MalformedSignature`] if the BLS signatures add up to the identity;
    /// [`Error::Magnetar`] if the Magnetar aggregate cannot be encoded;
    /// [`Error::Decode`] with `InvalidValue` for a certificate with no leg.
    pub fn build(&self) -> Result<Vec<u8>, Error> {
        let mut legs: [Option<Vec<u8>>; 5] = Default::default();
        legs[LegKind::Bls.index()] = self.bls_payload()?;
        legs[LegKind::Pulsar.index()] = self.pulsar.clone();
        legs[LegKind::Corona.index()] = self.corona.clone();
        legs[LegKind::MlDsaSet.index()] = self.mldsa_payload();
        if let (Some(mode), false) = (self.magnetar_mode, self.magnetar.is_empty()) {
            let contributions: Vec<(ValidatorId, &[u8])> = self
                .magnetar
                .iter()
                .filter_map(|(i, f)| self.ids.get(*i).map(|id| (ValidatorId(*id), &f[..])))
                .collect();
            legs[LegKind::Magnetar.index()] =
                Some(AggregateCertificate::encode(mode, &contributions).map_err(Error::Magnetar)?);
        }
        for (kind, payload) in &self.raw {
            legs[kind.index()] = Some(payload.clone());
        }
        let list: Vec<(u8, &[u8])> = LegKind::ALL
            .iter()
            .zip(legs.iter())
            .filter_map(|(k, p)| p.as_deref().map(|p| (k.to_byte(), p)))
            .collect();
        if list.is_empty() {
            return Err(crate::wire::Error::InvalidValue("a certificate with no leg").into());
        }
        Ok(encode(&self.header, &list))
    }
}
