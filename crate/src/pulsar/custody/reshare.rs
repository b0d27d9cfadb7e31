//! Resharing and the activation certificate.
//!
//! A Pulsar sharing is reshared with the LSS kernel unchanged — refresh
//! ([`crate::lss::Ceremony::refresh`]), or reshare to any new set and threshold,
//! expansion or contraction ([`crate::lss::Ceremony::reshare`]) — passing each old
//! party's [`super::KeyShare::lss`] as its old share. The kernel keeps the secret `x`
//! (and the constant blind) and asserts that the new group commitment `C_0` is the old
//! one, so the ML-DSA key derived from `x` — the group key — stays byte-identical. Each
//! new party stores [`super::KeyShare::new`]`(new LSS share, group key)`, which checks
//! `C_0` again.
//!
//! The new set then proves it can sign: it signs [`crate::lss::activation_message`]
//! (`QUASAR-PULSAR-ACTIVATE-v1` ‖ transcript hash ‖ u64 generation) through the ordinary
//! signing ceremony ([`activation_session`]), with the ML-DSA context
//! [`ACTIVATION_CONTEXT`]. The result is an [`ActivationCertificate`] whose group key is
//! the `PULG` frame and whose signature is the raw FIPS 204 signature: anyone verifies it
//! with plain `mldsa::verify(mode, pk, &cert.message(), ACTIVATION_CONTEXT, &cert.signature)`
//! ([`verify_activation`]).
//!
//! Shares of an older generation never mix with the new ones: a session names its
//! generation, [`super::round1`] refuses a share of another generation
//! ([`Error::GenerationMismatch`]), and the combiner rejects and blames a message or
//! envelope of another generation ([`Error::WrongGeneration`]) or a share that does not
//! open the new commitments ([`Error::InvalidShare`]).

use super::combine::Signed;
use super::envelope::CombinerPublicKey;
use super::keys::GroupKey;
use super::session::Session;
use crate::hash::tags;
use crate::lss::{activation_message, ActivationCertificate, ActivationKind, GroupPublic};
use crate::mldsa;
use crate::pulsar::frame::GroupKeyFrame;
use crate::pulsar::Error;
use crate::vss::Ristretto255;
use crate::PartyId;

/// The ML-DSA context string of activation signatures: `QUASAR-PULSAR-ACTIVATE-v1`.
pub const ACTIVATION_CONTEXT: &[u8] = tags::PULSAR_ACTIVATE.as_bytes();

/// The signing session in which the new set (`signers`, members of the reshared sharing
/// `public`) signs the activation message of `public`'s dealing under `group_key`.
///
/// # Errors
/// As [`Session::sign`]; [`Error::GroupMismatch`] if `public` is not a sharing of the
/// group key's secret.
///
/// # Security
/// As [`Session::sign`]: the combiner sees the key while it signs.
pub fn activation_session(
    id: [u8; 32],
    group_key: &GroupKey,
    public: &GroupPublic<Ristretto255>,
    signers: &[PartyId],
    combiner: &CombinerPublicKey,
) -> Result<Session, Error> {
    let message = activation_message(
        ActivationKind::Pulsar,
        public.transcript_hash(),
        public.generation(),
    );
    Session::sign(
        id,
        group_key,
        public,
        signers,
        combiner,
        &message,
        ACTIVATION_CONTEXT,
    )
}

/// The activation certificate of `public`'s dealing from the signature made in its
/// [`activation_session`]; checked before it is returned.
///
/// # Errors
/// [`Error::InvalidActivation`] if `signed` is not a valid signature on the activation
/// message of `public` under `group_key`.
pub fn activation_certificate(
    group_key: &GroupKey,
    public: &GroupPublic<Ristretto255>,
    signed: &Signed,
) -> Result<ActivationCertificate, Error> {
    let cert = ActivationCertificate {
        kind: ActivationKind::Pulsar,
        transcript_hash: *public.transcript_hash(),
        generation: public.generation(),
        group_key: group_key.frame(),
        signature: signed.signature().to_vec(),
    };
    verify_activation(&cert, group_key)?;
    Ok(cert)
}

/// Verifies an activation certificate under the group key with plain ML-DSA (FIPS 204,
/// Algorithm 3, context [`ACTIVATION_CONTEXT`]).
///
/// This checks that the certificate is a Pulsar one, names this group key, and carries a
/// valid signature on its own transcript hash and generation; compare those with the
/// dealing you expect, or use [`verify_activation_expected`].
///
/// # Errors
/// [`Error::GroupMismatch`] (another kind or another key), [`Error::InvalidActivation`].
pub fn verify_activation(cert: &ActivationCertificate, group_key: &GroupKey) -> Result<(), Error> {
    if cert.kind != ActivationKind::Pulsar || cert.group_key != group_key.frame() {
        return Err(Error::GroupMismatch);
    }
    let frame = GroupKeyFrame::decode(&cert.group_key)?;
    cert.verify(|m, s| mldsa::verify(frame.mode, frame.public_key, m, ACTIVATION_CONTEXT, s).is_ok())
        .map_err(|_| Error::InvalidActivation)
}

/// [`verify_activation`], and the certificate must name `public`'s dealing (its
/// transcript hash and generation).
///
/// # Errors
/// [`Error::Lss`] with `ActivationMismatch` (another dealing), and as
/// [`verify_activation`].
pub fn verify_activation_expected(
    cert: &ActivationCertificate,
    group_key: &GroupKey,
    public: &GroupPublic<Ristretto255>,
) -> Result<(), Error> {
    if cert.transcript_hash != *public.transcript_hash() || cert.generation != public.generation() {
        return Err(crate::lss::Error::ActivationMismatch.into());
    }
    verify_activation(cert, group_key)
}
