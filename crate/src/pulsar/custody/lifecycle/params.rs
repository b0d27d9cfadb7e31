//! The public parameters of each path, identical at every party of it.

use alloc::vec::Vec;

use super::super::keys::GroupKey;
use super::super::session::{check_message_len, check_signing_set, sorted_unique};
use crate::hash::{tags, Transcript};
use crate::lss::{self, GroupPublic};
use crate::mldsa::Mode;
use crate::pulsar::Error;
use crate::vss::Ristretto255;
use crate::PartyId;

/// `cSHAKE256-tuple("QUASAR-LIFECYCLE-SESSION-v1"; label, session)`.
pub(crate) fn derive_session(label: &[u8], session: &[u8; 32]) -> [u8; 32] {
    let mut t = Transcript::new(tags::LIFECYCLE_SESSION);
    t.append(label).append(session);
    t.finalize()
}

/// The parameters of the setup path: who makes the group, with what threshold, which
/// members release their shares to derive the key, and who combines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupParams {
    pub(crate) dkg_session: [u8; 32],
    pub(crate) ceremony_session: [u8; 32],
    pub(crate) mode: Mode,
    pub(crate) members: Vec<PartyId>,
    pub(crate) threshold: u16,
    pub(crate) signers: Vec<PartyId>,
    pub(crate) combiner: PartyId,
}

impl SetupParams {
    /// A `threshold`-of-`members` group for ML-DSA `mode`, whose key `signers` (at least
    /// `threshold` members) let `combiner` derive; the DKG and key-ceremony session ids
    /// are derived from `session` (`"pulsar-dkg"`, `"pulsar-ceremony"`), which must be
    /// unique to this run.
    ///
    /// # Errors
    /// As [`SetupParams::with_sessions`].
    pub fn new(
        session: [u8; 32],
        mode: Mode,
        members: &[PartyId],
        threshold: u16,
        signers: &[PartyId],
        combiner: PartyId,
    ) -> Result<SetupParams, Error> {
        SetupParams::with_sessions(
            derive_session(b"pulsar-dkg", &session),
            derive_session(b"pulsar-ceremony", &session),
            mode,
            members,
            threshold,
            signers,
            combiner,
        )
    }

    /// As [`SetupParams::new`], with the DKG's and the key ceremony's session ids given.
    ///
    /// # Errors
    /// [`Error::DuplicateSigner`] for a repeated member or signer, [`Error::UnknownParty`]
    /// for a signer that is not a member, [`Error::NotEnoughSigners`] below `threshold`,
    /// [`Error::Lss`] with `InvalidThreshold` (outside `1..=n`) or `DuplicateParty` (the
    /// combiner is a member: it runs as a party of its own).
    pub fn with_sessions(
        dkg_session: [u8; 32],
        ceremony_session: [u8; 32],
        mode: Mode,
        members: &[PartyId],
        threshold: u16,
        signers: &[PartyId],
        combiner: PartyId,
    ) -> Result<SetupParams, Error> {
        let members = sorted_unique(members)?;
        let signers = sorted_unique(signers)?;
        lss::check_threshold(threshold, members.len())?;
        check_signing_set(&members, threshold, &signers)?;
        if members.binary_search(&combiner).is_ok() {
            return Err(lss::Error::DuplicateParty { party: combiner }.into());
        }
        Ok(SetupParams {
            dkg_session,
            ceremony_session,
            mode,
            members,
            threshold,
            signers,
            combiner,
        })
    }

    /// The members, increasing.
    pub fn members(&self) -> &[PartyId] {
        &self.members
    }

    /// The threshold `t`.
    pub fn threshold(&self) -> u16 {
        self.threshold
    }

    /// The members that release their shares for the key derivation, increasing.
    pub fn signers(&self) -> &[PartyId] {
        &self.signers
    }

    /// The combiner.
    pub fn combiner(&self) -> PartyId {
        self.combiner
    }

    /// The ML-DSA parameter set.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The DKG's session id.
    pub fn dkg_session(&self) -> &[u8; 32] {
        &self.dkg_session
    }

    /// The key ceremony's session id.
    pub fn ceremony_session(&self) -> &[u8; 32] {
        &self.ceremony_session
    }
}

/// The parameters of the sign path: the session id, who signs, what, and who combines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignParams {
    pub(crate) session: [u8; 32],
    pub(crate) signers: Vec<PartyId>,
    pub(crate) message: Vec<u8>,
    pub(crate) context: Vec<u8>,
    pub(crate) combiner: PartyId,
}

impl SignParams {
    /// `signers` release their shares to `combiner`, which signs `message` with ML-DSA
    /// context `context`; `session` must be unique to this signature.
    ///
    /// # Errors
    /// [`Error::DuplicateSigner`]; [`Error::Decode`] for a message over
    /// [`super::super::session::MAX_MESSAGE_LEN`]. The rest (membership, threshold,
    /// context) is checked against the group when a party starts.
    pub fn new(
        session: [u8; 32],
        signers: &[PartyId],
        message: &[u8],
        context: &[u8],
        combiner: PartyId,
    ) -> Result<SignParams, Error> {
        check_message_len(message)?;
        Ok(SignParams {
            session,
            signers: sorted_unique(signers)?,
            message: message.to_vec(),
            context: context.to_vec(),
            combiner,
        })
    }

    /// The signers, increasing.
    pub fn signers(&self) -> &[PartyId] {
        &self.signers
    }

    /// The combiner.
    pub fn combiner(&self) -> PartyId {
        self.combiner
    }
}

/// The parameters of the reshare path: the keyed dealing (a refresh or a reshare of the
/// group's sharing, bound to its group key).
#[derive(Debug, Clone)]
pub struct ReshareParams {
    pub(crate) ceremony: lss::Ceremony<Ristretto255>,
    pub(crate) group_key: GroupKey,
}

impl ReshareParams {
    /// A refresh of the sharing `public` of `group_key` by `dealers` (the same set and
    /// threshold, fresh shares).
    ///
    /// # Errors
    /// As [`super::super::refresh`] (the key's certificate is checked against `public`).
    pub fn refresh(
        session: [u8; 32],
        group_key: &GroupKey,
        public: &GroupPublic<Ristretto255>,
        dealers: &[PartyId],
    ) -> Result<ReshareParams, Error> {
        Ok(ReshareParams {
            ceremony: super::super::refresh(session, group_key, public, dealers)?,
            group_key: group_key.clone(),
        })
    }

    /// A reshare of the sharing `public` of `group_key` by `dealers` to `receivers` with
    /// threshold `threshold`. A new member is given the group's public record
    /// (`group_key`, `public`): the certificate inside is its evidence that the key
    /// belongs to the sharing.
    ///
    /// # Errors
    /// As [`super::super::reshare`].
    pub fn reshare(
        session: [u8; 32],
        group_key: &GroupKey,
        public: &GroupPublic<Ristretto255>,
        dealers: &[PartyId],
        receivers: &[PartyId],
        threshold: u16,
    ) -> Result<ReshareParams, Error> {
        Ok(ReshareParams {
            ceremony: super::super::reshare(session, group_key, public, dealers, receivers, threshold)?,
            group_key: group_key.clone(),
        })
    }

    /// The LSS dealing.
    pub fn ceremony(&self) -> &lss::Ceremony<Ristretto255> {
        &self.ceremony
    }

    /// Every participant (dealers and receivers), increasing.
    pub fn participants(&self) -> Vec<PartyId> {
        let mut all: Vec<PartyId> = self
            .ceremony
            .dealers()
            .iter()
            .chain(self.ceremony.receivers())
            .copied()
            .collect();
        crate::sort::heapsort(&mut all);
        all.dedup();
        all
    }
}
