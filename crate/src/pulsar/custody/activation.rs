//! Certifying the group key, resharing, and activation.
//!
//! **After the key ceremony** every party of the sharing checks the announcement and
//! proves possession of its share for the announced key ([`certification_party`]); the
//! resulting [`ActivationCertificate`] of at least `t` members makes the key a
//! [`GroupKey`] ([`GroupKey::new`]). No party below the threshold can certify another key
//! with the right `C_0`.
//!
//! **Resharing** runs the LSS kernel on a ceremony bound to the group key ([`refresh`],
//! [`reshare`]): the dealing's session is derived from the key, so a participant told
//! another key sees every honest message as of another session, and a new member checks
//! the old generation's certificate before it takes part. The kernel keeps the secret `x`
//! and asserts that `C_0` is unchanged, so the ML-DSA key — the group key — stays
//! byte-identical. The dealing ends with the activation round: the certificate of the new
//! generation, which every party checks ([`verify_activation`]) and which becomes the key
//! record of the new generation ([`GroupKey::reactivated`]). **An old party erases its old
//! share only once it holds that certificate.**
//!
//! Shares of an older generation never mix with the new ones: a session names its
//! generation, a signer refuses a share of another generation
//! ([`Error::GenerationMismatch`]), and the combiner rejects and blames a message or
//! envelope of another generation or a share that does not open the new commitments.

use rand_core::CryptoRngCore;

use super::keys::{AnnouncedKey, GroupKey};
use crate::hash::tags;
use crate::lss::{self, ActivationCertificate, ActivationKind, ActivationParty, GroupPublic};
use crate::party::Outgoing;
use crate::pulsar::Error;
use crate::vss::Ristretto255;
use crate::PartyId;

/// The ML-DSA context reserved for activation: ordinary signing refuses it.
pub const ACTIVATION_CONTEXT: &[u8] = tags::PULSAR_ACTIVATE.as_bytes();

/// The key-certification round after the key ceremony: `me` (with its share, or `None`
/// to only collect) proves possession of its share of `public` for the `announced` key.
///
/// # Errors
/// [`Error::GroupMismatch`], [`Error::NotPedersen`] (the key is not of this sharing);
/// [`Error::Lss`] (`OldShareMismatch`: the share is not `me`'s share of `public`).
pub fn certification_party(
    me: PartyId,
    share: Option<&lss::KeyShare<Ristretto255>>,
    public: &GroupPublic<Ristretto255>,
    announced: &AnnouncedKey,
    rng: &mut impl CryptoRngCore,
) -> Result<(ActivationParty<Ristretto255>, Outgoing), Error> {
    announced.check_commitment(public)?;
    Ok(ActivationParty::start(
        me,
        share,
        public,
        ActivationKind::Pulsar,
        &announced.scheme_key(),
        rng,
    )?)
}

/// A refresh of the sharing of `group_key` (at the generation of `public`) by `dealers`,
/// bound to the group key.
///
/// # Errors
/// As [`GroupKey::check_sharing`]; as [`lss::Ceremony::refresh`].
pub fn refresh(
    session: [u8; 32],
    group_key: &GroupKey,
    public: &GroupPublic<Ristretto255>,
    dealers: &[PartyId],
) -> Result<lss::Ceremony<Ristretto255>, Error> {
    group_key.check_sharing(public)?;
    Ok(lss::Ceremony::refresh(session, public, dealers)?
        .with_key(ActivationKind::Pulsar, &group_key.scheme_key())?)
}

/// A reshare of the sharing of `group_key` (at the generation of `public`) to
/// `receivers` with threshold `threshold`, dealt by `dealers`, bound to the group key.
///
/// A new member calls this with the group key it was given: the check of the old
/// generation's certificate against `public` is its evidence that the key belongs to the
/// sharing, and the dealing fails for it unless the dealers used the same key.
///
/// # Errors
/// As [`GroupKey::check_sharing`]; as [`lss::Ceremony::reshare`].
pub fn reshare(
    session: [u8; 32],
    group_key: &GroupKey,
    public: &GroupPublic<Ristretto255>,
    dealers: &[PartyId],
    receivers: &[PartyId],
    threshold: u16,
) -> Result<lss::Ceremony<Ristretto255>, Error> {
    group_key.check_sharing(public)?;
    Ok(
        lss::Ceremony::reshare(session, public, dealers, receivers, threshold)?
            .with_key(ActivationKind::Pulsar, &group_key.scheme_key())?,
    )
}

/// Verifies that `certificate` activates generation `generation` of the dealing with
/// transcript hash `transcript` of the sharing `public` (the new generation's public
/// data) for `group_key`: at least `t_new` distinct members proved possession of their
/// shares for the whole announced key (`C_0`, ceremony transcript hash, `PULG` frame).
///
/// `group_key` may be the record of any generation of the key — the caller's own, or the
/// one [`GroupKey::reactivated`] makes from this certificate: every [`GroupKey`] was
/// checked, byte for byte, against the sharing it is for when it was made (see
/// [`GroupKey::from_bytes`]), and this certificate binds everything else it carries.
///
/// # Errors
/// [`Error::Lss`] with `InvalidActivation` and the reason; [`Error::GroupMismatch`] for a
/// key of another sharing.
pub fn verify_activation(
    public: &GroupPublic<Ristretto255>,
    group_key: &GroupKey,
    generation: u64,
    transcript: &[u8; 32],
    certificate: &ActivationCertificate,
) -> Result<(), Error> {
    group_key.announced.check_commitment(public)?;
    certificate.verify_expected(
        public,
        ActivationKind::Pulsar,
        &group_key.scheme_key(),
        generation,
        transcript,
    )?;
    Ok(())
}
