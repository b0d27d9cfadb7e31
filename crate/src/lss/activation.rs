//! The activation certificate: the new set signs a canonical message naming the dealing
//! (its transcript hash and generation) under the **unchanged** group key, proving that
//! the new shares work. The signature scheme is the caller's (Lens: FROST; Pulsar:
//! ML-DSA), supplied to [`ActivationCertificate::verify`] as a closure.
//!
//! Message = ASCII tag (`QUASAR-LENS-ACTIVATE-v1` or `QUASAR-PULSAR-ACTIVATE-v1`) ‖
//! transcript hash (32) ‖ u64 big-endian generation.
//!
//! Certificate wire form: `LSA1` ‖ u16 version 1 ‖ u8 kind (1 Lens, 2 Pulsar) ‖
//! transcript hash (32) ‖ u64 generation ‖ u32 length ‖ group key (1..=4096 bytes) ‖
//! u32 length ‖ signature (1..=65536 bytes).

use alloc::vec::Vec;

use super::Error;
use crate::hash::tags;
use crate::wire::{self, Reader, Writer};

/// Magic of an encoded [`ActivationCertificate`].
pub const ACTIVATION_MAGIC: &[u8; 4] = b"LSA1";
/// Version of the encoding.
pub const VERSION: u16 = 1;
/// Longest group key accepted.
pub const MAX_GROUP_KEY_LEN: usize = 4096;
/// Longest signature accepted.
pub const MAX_SIGNATURE_LEN: usize = 65536;

/// Which scheme's key the certificate is signed under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ActivationKind {
    /// A Lens (FROST) key: tag `QUASAR-LENS-ACTIVATE-v1`. Wire byte 1.
    Lens = 1,
    /// A Pulsar (threshold ML-DSA) key: tag `QUASAR-PULSAR-ACTIVATE-v1`. Wire byte 2.
    Pulsar = 2,
}

impl ActivationKind {
    /// The ASCII tag that starts the signed message.
    pub fn tag(self) -> &'static str {
        match self {
            ActivationKind::Lens => tags::LENS_ACTIVATE,
            ActivationKind::Pulsar => tags::PULSAR_ACTIVATE,
        }
    }

    /// Decodes the wire byte.
    ///
    /// # Errors
    /// [`wire::Error::UnknownMode`].
    pub fn from_byte(b: u8) -> Result<Self, wire::Error> {
        match b {
            1 => Ok(ActivationKind::Lens),
            2 => Ok(ActivationKind::Pulsar),
            other => Err(wire::Error::UnknownMode(other)),
        }
    }
}

/// The canonical message the new set signs: tag ‖ transcript hash ‖ u64 BE generation.
///
/// ```
/// use quasar_pq::lss::{activation_message, ActivationKind};
/// let m = activation_message(ActivationKind::Lens, &[7u8; 32], 3);
/// assert_eq!(&m[..23], b"QUASAR-LENS-ACTIVATE-v1");
/// assert_eq!(m.len(), 23 + 32 + 8);
/// ```
pub fn activation_message(kind: ActivationKind, transcript_hash: &[u8; 32], generation: u64) -> Vec<u8> {
    let tag = kind.tag().as_bytes();
    let mut m = Vec::with_capacity(tag.len() + 40);
    m.extend_from_slice(tag);
    m.extend_from_slice(transcript_hash);
    m.extend_from_slice(&generation.to_be_bytes());
    m
}

/// A signature by the new set, under the unchanged group key, over
/// [`activation_message`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActivationCertificate {
    /// The scheme.
    pub kind: ActivationKind,
    /// The dealing's transcript hash.
    pub transcript_hash: [u8; 32],
    /// The new generation.
    pub generation: u64,
    /// The group key the signature verifies under (scheme-specific encoding).
    pub group_key: Vec<u8>,
    /// The signature (scheme-specific encoding).
    pub signature: Vec<u8>,
}

impl ActivationCertificate {
    /// The message this certificate signs.
    pub fn message(&self) -> Vec<u8> {
        activation_message(self.kind, &self.transcript_hash, self.generation)
    }

    /// Verifies the signature with `verifier(message, signature)`, which checks the
    /// scheme's signature under `self.group_key` (Lens and Pulsar supply it).
    ///
    /// # Errors
    /// [`Error::InvalidActivation`].
    pub fn verify(&self, verifier: impl Fn(&[u8], &[u8]) -> bool) -> Result<(), Error> {
        if verifier(&self.message(), &self.signature) {
            Ok(())
        } else {
            Err(Error::InvalidActivation)
        }
    }

    /// Checks that the certificate names the expected dealing and group key, then
    /// verifies it.
    ///
    /// # Errors
    /// [`Error::ActivationMismatch`], [`Error::InvalidActivation`].
    pub fn verify_expected(
        &self,
        kind: ActivationKind,
        transcript_hash: &[u8; 32],
        generation: u64,
        group_key: &[u8],
        verifier: impl Fn(&[u8], &[u8]) -> bool,
    ) -> Result<(), Error> {
        use subtle::ConstantTimeEq;
        if self.kind != kind
            || !bool::from(self.transcript_hash.ct_eq(transcript_hash))
            || self.generation != generation
            || self.group_key != group_key
        {
            return Err(Error::ActivationMismatch);
        }
        self.verify(verifier)
    }

    /// Encodes (see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_header(ACTIVATION_MAGIC, VERSION);
        w.u8(self.kind as u8)
            .put(&self.transcript_hash)
            .u64(self.generation);
        w.bytes(&self.group_key).bytes(&self.signature);
        w.into_bytes()
    }

    /// Decodes strictly (non-empty key and signature within their caps, no trailing
    /// bytes).
    ///
    /// # Errors
    /// [`wire::Error`] naming what was wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, wire::Error> {
        let mut r = Reader::new(bytes);
        r.header(ACTIVATION_MAGIC, VERSION)?;
        let kind = ActivationKind::from_byte(r.u8()?)?;
        let transcript_hash: [u8; 32] = r.array()?;
        let generation = r.u64()?;
        let group_key = r.bytes(MAX_GROUP_KEY_LEN)?.to_vec();
        if group_key.is_empty() {
            return Err(wire::Error::InvalidValue("empty group key"));
        }
        let signature = r.bytes(MAX_SIGNATURE_LEN)?.to_vec();
        if signature.is_empty() {
            return Err(wire::Error::InvalidValue("empty signature"));
        }
        r.finish()?;
        Ok(ActivationCertificate {
            kind,
            transcript_hash,
            generation,
            group_key,
            signature,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn certificate_round_trip_and_verify() {
        let cert = ActivationCertificate {
            kind: ActivationKind::Pulsar,
            transcript_hash: [9; 32],
            generation: 5,
            group_key: vec![1, 2, 3],
            signature: vec![4, 5],
        };
        let bytes = cert.to_bytes();
        assert_eq!(ActivationCertificate::from_bytes(&bytes).unwrap(), cert);
        let msg = cert.message();
        assert!(msg.starts_with(b"QUASAR-PULSAR-ACTIVATE-v1"));
        assert_eq!(&msg[msg.len() - 8..], &5u64.to_be_bytes());
        let ok = |m: &[u8], s: &[u8]| m == msg.as_slice() && s == [4, 5];
        cert.verify(ok).unwrap();
        cert.verify_expected(ActivationKind::Pulsar, &[9; 32], 5, &[1, 2, 3], ok)
            .unwrap();
        assert_eq!(
            cert.verify_expected(ActivationKind::Pulsar, &[9; 32], 6, &[1, 2, 3], ok),
            Err(Error::ActivationMismatch)
        );
        assert_eq!(cert.verify(|_, _| false), Err(Error::InvalidActivation));
        for cut in 0..bytes.len() {
            assert!(ActivationCertificate::from_bytes(&bytes[..cut]).is_err());
        }
        let mut long = bytes.clone();
        long.push(0);
        assert!(ActivationCertificate::from_bytes(&long).is_err());
    }
}
