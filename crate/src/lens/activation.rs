//! Activation of a new generation: `t_new` of the new set sign [`activation_message`]
//! with their new shares; anyone checks the certificate with [`verify_activation`] (it
//! verifies under the unchanged key with any standard verifier).

use alloc::vec::Vec;

use super::keys::PublicKeyPackage;
use super::{Error, Signature};
use crate::lss::{self, ActivationCertificate, ActivationKind};

/// The message the new set signs to activate its generation (the LSS activation message:
/// `QUASAR-LENS-ACTIVATE-v1` ‖ transcript hash ‖ u64 generation, from the package's
/// epoch).
pub fn activation_message(public: &PublicKeyPackage) -> Vec<u8> {
    let epoch = public.epoch();
    lss::activation_message(ActivationKind::Lens, &epoch.transcript, epoch.generation)
}

/// Builds the activation certificate of `public`'s generation from a Lens signature over
/// [`activation_message`], after checking that it verifies under the group key.
///
/// # Errors
/// [`Error::WrongCurve`], [`Error::InvalidSignature`].
pub fn activation_certificate(
    public: &PublicKeyPackage,
    signature: &Signature,
) -> Result<ActivationCertificate, Error> {
    if signature.curve() != public.curve() {
        return Err(Error::WrongCurve {
            expected: public.curve(),
            found: signature.curve(),
        });
    }
    let group_key = public.group_key_bytes();
    signature.verify(&group_key, &activation_message(public))?;
    let epoch = public.epoch();
    Ok(ActivationCertificate {
        kind: ActivationKind::Lens,
        transcript_hash: epoch.transcript,
        generation: epoch.generation,
        group_key,
        signature: signature.to_bytes().to_vec(),
    })
}

/// Verifies an activation certificate against the expected generation: it must be a Lens
/// certificate naming `public`'s epoch and group key, signed under that key.
///
/// # Errors
/// [`Error::Lss`] with `ActivationMismatch` (wrong kind, epoch or key) or
/// `InvalidActivation` (the signature does not verify).
pub fn verify_activation(
    public: &PublicKeyPackage,
    certificate: &ActivationCertificate,
) -> Result<(), Error> {
    let curve = public.curve();
    let group_key = public.group_key_bytes();
    let epoch = public.epoch();
    certificate.verify_expected(
        ActivationKind::Lens,
        &epoch.transcript,
        epoch.generation,
        &group_key,
        |message, signature| super::verify(curve, &group_key, message, signature).is_ok(),
    )?;
    Ok(())
}
