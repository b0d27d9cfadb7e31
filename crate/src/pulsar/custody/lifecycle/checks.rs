//! What a member checks before it acts on the combiner's messages: the session it is
//! asked to release its share in, and the key it is asked to certify.

use alloc::vec::Vec;

use super::params::{SetupParams, SignParams};
use crate::lss::GroupPublic;
use crate::party::inbox::unique;
use crate::party::{Blame, BlameReason, Incoming};
use crate::pulsar::custody::{AnnouncedKey, GroupKeyAnnouncement, KeyShare, Purpose, Session};
use crate::pulsar::Error;
use crate::vss::Ristretto255;
use crate::PartyId;

/// The first message of `msgs` that `check` accepts (at most one per sender and kind);
/// every other is dropped and named.
pub(super) fn first_valid<T>(
    me: PartyId,
    msgs: &[Incoming<'_>],
    dropped: &mut Vec<Blame>,
    mut check: impl FnMut(PartyId, &[u8]) -> Result<T, BlameReason>,
) -> Option<T> {
    let mut found = None;
    for (from, _, bytes) in unique(me, msgs, dropped).messages {
        match check(from, bytes) {
            Ok(v) if found.is_none() => found = Some(v),
            Ok(_) => {}
            Err(reason) => dropped.push(Blame::new(from, reason)),
        }
    }
    found
}

/// The reason to drop a session that did not decode or rebuild.
pub(super) fn decode_fault(e: Error) -> BlameReason {
    match e {
        Error::Decode(w) => BlameReason::Malformed(w),
        _ => BlameReason::ParameterMismatch,
    }
}

/// The reason to refuse a sharing that differs from this member's own.
fn sharing_fault(got: &GroupPublic<Ristretto255>, mine: &GroupPublic<Ristretto255>) -> Option<BlameReason> {
    if got.generation() != mine.generation() {
        Some(BlameReason::WrongGeneration {
            expected: mine.generation(),
            got: got.generation(),
        })
    } else if got != mine {
        Some(BlameReason::ParameterMismatch)
    } else {
        None
    }
}

/// What is wrong, if anything, with a key-ceremony session from `from`, for a member
/// whose sharing is `public`.
pub(super) fn ceremony_session_fault(
    from: PartyId,
    session: &Session,
    params: &SetupParams,
    public: &GroupPublic<Ristretto255>,
) -> Option<BlameReason> {
    if from != params.combiner {
        Some(BlameReason::UnknownParty)
    } else if session.id() != &params.ceremony_session {
        Some(BlameReason::WrongSession)
    } else if session.purpose() != Purpose::KeyCeremony
        || session.mode() != params.mode
        || session.signers() != params.signers.as_slice()
        || session.combiner().id() != params.combiner
    {
        Some(BlameReason::ParameterMismatch)
    } else {
        sharing_fault(session.public(), public)
    }
}

/// What is wrong, if anything, with a signing session from `from`, for the holder of
/// `share`.
pub(super) fn sign_session_fault(
    from: PartyId,
    session: &Session,
    params: &SignParams,
    share: &KeyShare,
) -> Option<BlameReason> {
    if from != params.combiner {
        Some(BlameReason::UnknownParty)
    } else if session.id() != &params.session {
        Some(BlameReason::WrongSession)
    } else if session.message() != params.message.as_slice() || session.context() != params.context.as_slice()
    {
        Some(BlameReason::WrongMessage)
    } else if let Some(reason) = sharing_fault(session.public(), share.public()) {
        Some(reason)
    } else if session.purpose() != Purpose::Sign
        || session.group_key() != Some(share.group_key())
        || session.signers() != params.signers.as_slice()
        || session.combiner().id() != params.combiner
    {
        Some(BlameReason::ParameterMismatch)
    } else {
        None
    }
}

/// The key an announcement from `from` carries, if this member accepts it: from the
/// combiner, of this key ceremony, derived by signers of it, and verified against the
/// member's own sharing.
pub(super) fn announcement_fault(
    from: PartyId,
    a: &GroupKeyAnnouncement,
    params: &SetupParams,
    public: &GroupPublic<Ristretto255>,
) -> Result<AnnouncedKey, BlameReason> {
    if from != params.combiner {
        return Err(BlameReason::UnknownParty);
    }
    if a.session() != &params.ceremony_session {
        return Err(BlameReason::WrongSession);
    }
    let signers_ok = a.signers().len() >= usize::from(params.threshold)
        && a.signers()
            .iter()
            .all(|p| params.signers.binary_search(p).is_ok());
    if a.combiner() != params.combiner || !signers_ok || a.key().mode() != params.mode {
        return Err(BlameReason::ParameterMismatch);
    }
    a.verify(public).map_err(|e| match e {
        Error::GroupMismatch | Error::NotPedersen => BlameReason::ParameterMismatch,
        _ => BlameReason::InvalidAnnouncement,
    })
}
