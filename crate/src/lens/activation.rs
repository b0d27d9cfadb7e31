//! Activation of a new generation: after a refresh or reshare every new member proves
//! possession of its new share, and the dealing ends with an
//! [`ActivationCertificate`] of at least `t_new` members ([`Outcome::activation`]).
//! Anyone holding the new public key package checks it with [`verify_activation`]; an
//! old party erases its old share only after that check.
//!
//! The certificate's statement names the Lens group key, so a certificate of another key,
//! of another generation or dealing, or made with old shares is refused with its reason
//! ([`crate::lss::ActivationFault`]).
//!
//! [`Outcome::activation`]: super::Outcome::activation

use super::keys::PublicKeyPackage;
use super::Error;
use crate::lss::{ActivationCertificate, ActivationKind, AnyGroupPublic};

/// Verifies that `certificate` activates generation `generation` of the dealing with
/// transcript hash `transcript` for the key of `public` (the new generation's package):
/// at least `t_new` distinct members of `public` proved possession of their shares.
///
/// # Errors
/// [`Error::Lss`] with `InvalidActivation` and the reason (another generation, another
/// dealing, another key or group, too few members, a non-member, an invalid proof).
pub fn verify_activation(
    public: &PublicKeyPackage,
    generation: u64,
    transcript: &[u8; 32],
    certificate: &ActivationCertificate,
) -> Result<(), Error> {
    let key = public.group_key_bytes();
    let group = public.to_lss()?;
    let result = match &group {
        #[cfg(feature = "ed25519")]
        AnyGroupPublic::Ed25519(g) => {
            certificate.verify_expected(g, ActivationKind::Lens, &key, generation, transcript)
        }
        #[cfg(feature = "secp256k1")]
        AnyGroupPublic::Secp256k1(g) => {
            certificate.verify_expected(g, ActivationKind::Lens, &key, generation, transcript)
        }
        #[cfg(feature = "ristretto255")]
        AnyGroupPublic::Ristretto255(g) => {
            certificate.verify_expected(g, ActivationKind::Lens, &key, generation, transcript)
        }
    };
    Ok(result?)
}

/// Whether `message` starts with a tag reserved for activation statements (ordinary
/// signing refuses such messages, so no signing session can pose as an activation).
pub(crate) fn is_reserved(message: &[u8]) -> bool {
    [ActivationKind::Lens, ActivationKind::Pulsar, ActivationKind::Lss]
        .iter()
        .any(|k| message.starts_with(k.tag().as_bytes()))
}
