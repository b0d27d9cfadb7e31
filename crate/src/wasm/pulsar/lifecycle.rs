//! The Pulsar custody lifecycle for JavaScript: the library's composite parties
//! ([`crate::pulsar::custody::lifecycle`]) started as `PartyWasm`s, and a member's keyring
//! held in WASM memory ([`PulsarKeyringWasm`]).
//!
//! | path | member | combiner | outcome |
//! |---|---|---|---|
//! | setup (DKG → key ceremony → certification) | [`member_setup`] | [`combiner_setup`] | a member's keyring; the combiner's certified key record and sharing |
//! | sign | [`member_sign`] (from its keyring) | [`combiner_sign`] | the FIPS 204 signature |
//! | reshare → activation | [`member_reshare`] (its keyring moves in, and comes back in the outcome) | — | the keyring, the new generation current only if the activation verified |
//!
//! What the single-protocol factories hand around out of band (the sharing, the
//! combiner's session and key, the announcement, the activation certificate) travels here
//! as the parties' own messages: a host only routes bytes.

use alloc::boxed::Box;
use alloc::vec::Vec;

use wasm_bindgen::prelude::*;

use super::super::js::{self, array32, party_id, party_ids, start_with_cheat, Obj};
use super::super::keyring::{keyring_class, reshare_fields, JsCustody};
use super::super::party::{host, inbox_bound, Finished, PartyWasm};
use super::super::rng::RngWasm;
use super::super::{js_u32, to_js_error};
use super::keys::{dup, key_fields, sharing_info, PulsarKeyShareWasm};
use super::{mode, sharing};
use crate::party::keyring::Keyring;
use crate::pulsar::custody::lifecycle::{
    Combiner, CombinerOutcome, Member, MemberOutcome, ReshareParams, SetupParams, SignParams,
};
use crate::pulsar::custody::{self, GroupKey, KeyShare};

/// The largest message of a path among `n` parties with threshold `t` signing `message`
/// bytes: a dealing message, a session (with its message), a release, an announcement.
fn bound(n: usize, t: usize, message: usize) -> usize {
    let dealing = 512 + 96 * (n + t);
    let session = 8192 + 8 * n + message;
    inbox_bound(n + 1, dealing.max(session).max(custody::ROUND2_LEN + 256))
}

/// The setup parameters from JS.
fn setup_params(
    session: &[u8],
    level: u16,
    members: &[u16],
    threshold: u16,
    signers: &[u16],
    combiner: u16,
) -> Result<SetupParams, JsValue> {
    SetupParams::new(
        array32("session", session)?,
        mode(level)?,
        &party_ids(members)?,
        threshold,
        &party_ids(signers)?,
        party_id(combiner)?,
    )
    .map_err(to_js_error)
}

/// The sign parameters from JS.
fn sign_params(
    session: &[u8],
    signers: &[u16],
    message: &[u8],
    context: &[u8],
    combiner: u16,
) -> Result<SignParams, JsValue> {
    SignParams::new(
        array32("session", session)?,
        &party_ids(signers)?,
        message,
        context,
        party_id(combiner)?,
    )
    .map_err(to_js_error)
}

/// A member's outcome for JS: `path` (`"setup"`, `"sign"`, `"reshare"`) and its fields.
fn member_outcome(o: MemberOutcome) -> Result<Finished, JsValue> {
    match o {
        MemberOutcome::Setup(s) => {
            let info = sharing_info(s.key_share.public());
            key_fields(&info, s.key_share.group_key());
            info.set("path", "setup")
                .ids("qualified", &s.qualified)
                .blame("blame", &s.blame)
                .set("keyring", PulsarKeyringWasm::of(Keyring::new(s.key_share)));
            Finished::ok(info, s.dropped)
        }
        MemberOutcome::Released(r) => {
            let info = Obj::new();
            info.set("path", "sign").ids("committed", &r.committed);
            Finished::ok(info, r.dropped)
        }
        MemberOutcome::Reshared(r) => {
            let info = sharing_info(&r.public);
            reshare_fields(
                &info,
                &r.qualified,
                &r.blame,
                r.certificate.as_ref(),
                &r.activated,
            );
            if let Some(share) = r.keyring.current() {
                key_fields(&info, share.group_key());
            }
            info.set("keyring", PulsarKeyringWasm::of(r.keyring));
            Finished::ok(info, r.dropped)
        }
    }
}

/// The combiner's outcome for JS: `path` (`"setup"`, `"sign"`) and its fields.
fn combiner_outcome(o: CombinerOutcome) -> Result<Finished, JsValue> {
    let info;
    let dropped = match o {
        CombinerOutcome::Certified(c) => {
            info = sharing_info(&c.public);
            key_fields(&info, &c.group_key);
            info.set("path", "setup")
                .bytes("announcement", &c.announcement.to_bytes());
            c.dropped
        }
        CombinerOutcome::Signed(s) => {
            info = Obj::new();
            info.set("path", "sign")
                .bytes("signature", s.signature())
                .bytes("frame", &s.to_frame())
                .set("level", s.mode().level())
                .ids("signers", s.signers())
                .ids("missing", s.missing())
                .set("unattributed", js_u32(s.unattributed()))
                .blame("blame", s.blame());
            Vec::new()
        }
    };
    Finished::ok(info, dropped)
}

/// Starts member `me` of a group's setup: `members` with threshold `threshold`, whose key
/// `signers` let `combiner` derive at ML-DSA level `level`; the DKG's and key ceremony's
/// session ids are derived from `session`.
///
/// # Errors
/// As `SetupParams::new` and `Member::setup`: `INVALID_THRESHOLD`, `DUPLICATE_PARTY`,
/// `UNKNOWN_PARTY`, `NOT_ENOUGH_SIGNERS`, `NOT_A_PARTICIPANT`; `RangeError`s.
#[wasm_bindgen(js_name = "pulsarLifecycleMemberSetup")]
#[allow(clippy::too_many_arguments)]
pub fn member_setup(
    session: &[u8],
    level: u16,
    members: Vec<u16>,
    threshold: u16,
    signers: Vec<u16>,
    combiner: u16,
    me: u16,
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let p = setup_params(session, level, &members, threshold, &signers, combiner)?;
    let me = party_id(me)?;
    let rng = rng.get();
    let started = start_with_cheat!(Member::setup(me, &p, rng),
        k => Member::setup_cheating(me, &p, k, rng));
    let b = bound(members.len(), usize::from(threshold), 0);
    Ok(host("pulsar-member", started, b, Box::new(member_outcome)))
}

/// Starts the combiner of a group's setup (the parameters of [`member_setup`]).
///
/// # Errors
/// As [`member_setup`].
#[wasm_bindgen(js_name = "pulsarLifecycleCombinerSetup")]
pub fn combiner_setup(
    session: &[u8],
    level: u16,
    members: Vec<u16>,
    threshold: u16,
    signers: Vec<u16>,
    combiner: u16,
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let p = setup_params(session, level, &members, threshold, &signers, combiner)?;
    let started = Combiner::setup(&p, rng.get());
    let b = bound(members.len(), usize::from(threshold), 0);
    Ok(host(
        "pulsar-lifecycle-combiner",
        started,
        b,
        Box::new(combiner_outcome),
    ))
}

/// Starts `combiner` of a signing session: `signers` release their shares of the group
/// whose public record is (`key_record`, `PCGK`; `sharing`, `LSG1`) so that it signs
/// `message` with `context` (deterministically: FIPS 204 `rnd = 0`).
///
/// # Errors
/// As `Combiner::sign`: `GROUP_MISMATCH`, `ACTIVATION_*`, `RESERVED_CONTEXT`,
/// `NOT_ENOUGH_SIGNERS`, …; decoding errors.
#[wasm_bindgen(js_name = "pulsarLifecycleCombinerSign")]
#[allow(clippy::too_many_arguments)]
pub fn combiner_sign(
    session: &[u8],
    signers: Vec<u16>,
    message: &[u8],
    context: &[u8],
    combiner: u16,
    key_record: &[u8],
    sharing_bytes: &[u8],
    rng: &mut RngWasm,
    deterministic: bool,
) -> Result<PartyWasm, JsValue> {
    let p = sign_params(session, &signers, message, context, combiner)?;
    let public = sharing(sharing_bytes)?;
    let gk = GroupKey::from_bytes(key_record, &public).map_err(to_js_error)?;
    let started = if deterministic {
        Combiner::sign_deterministic(&p, &gk, &public, rng.get())
    } else {
        Combiner::sign(&p, &gk, &public, rng.get())
    }
    .map_err(to_js_error)?;
    let b = bound(signers.len(), 0, message.len() + context.len());
    Ok(host(
        "pulsar-lifecycle-combiner",
        started,
        b,
        Box::new(combiner_outcome),
    ))
}

/// Starts the holder of `keyring` as a signer of a signing session (the parameters of
/// [`combiner_sign`]): it waits for the combiner's session and checks it against these
/// parameters and its own share before it releases anything.
///
/// # Errors
/// `MISSING_OLD_SHARE` for a keyring without a current share; as `Member::sign`
/// (`NOT_A_SIGNER`).
#[wasm_bindgen(js_name = "pulsarLifecycleMemberSign")]
#[allow(clippy::too_many_arguments)]
pub fn member_sign(
    keyring: &PulsarKeyringWasm,
    session: &[u8],
    signers: Vec<u16>,
    message: &[u8],
    context: &[u8],
    combiner: u16,
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let share = keyring.current_share()?;
    let p = sign_params(session, &signers, message, context, combiner)?;
    let rng = rng.get();
    let started = start_with_cheat!(Member::sign(share, &p, rng),
        k => Member::sign_cheating(share, &p, k, rng));
    let b = bound(signers.len(), 0, message.len() + context.len());
    Ok(host("pulsar-member", started, b, Box::new(member_outcome)))
}

/// Starts member `me` of the reshare `reshare` with its `keyring` (empty for a member
/// joining the group). The group's record is the keyring's own current share's; a
/// joining member is given it (`key_record`, `sharing`), and the record's certificate is
/// checked against the sharing first. On success the keyring moves into the party (left
/// empty here) and comes back as the outcome's `keyring`; on error it is untouched.
///
/// # Errors
/// `MISSING_OLD_SHARE` for an empty keyring without a record; as `ReshareParams::reshare`
/// and `Member::reshare`.
#[wasm_bindgen(js_name = "pulsarLifecycleMemberReshare")]
pub fn member_reshare(
    me: u16,
    keyring: &mut PulsarKeyringWasm,
    key_record: Option<Vec<u8>>,
    sharing_bytes: Option<Vec<u8>>,
    reshare: js::Reshare,
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let me = party_id(me)?;
    let (gk, public) = match (keyring.keyring.current(), key_record, sharing_bytes) {
        (Some(s), _, _) => (s.group_key().clone(), s.public().clone()),
        (None, Some(k), Some(p)) => {
            let public = sharing(&p)?;
            (GroupKey::from_bytes(&k, &public).map_err(to_js_error)?, public)
        }
        (None, _, _) => return Err(to_js_error(crate::lss::Error::MissingOldShare { party: me })),
    };
    let p = ReshareParams::reshare(
        reshare.session,
        &gk,
        &public,
        &reshare.dealers,
        &reshare.receivers,
        reshare.threshold,
    )
    .map_err(to_js_error)?;
    let n = p.participants().len();
    let t = usize::from(p.ceremony().threshold());
    let rng = rng.get();
    let ring = &mut keyring.keyring;
    let started = start_with_cheat!(Member::reshare(me, ring, &p, rng),
        k => Member::reshare_cheating(me, ring, &p, k, rng));
    Ok(host(
        "pulsar-member",
        started,
        bound(n, t, 0),
        Box::new(member_outcome),
    ))
}

impl JsCustody for KeyShare {
    type Holder = PulsarKeyShareWasm;

    fn share_of(holder: &PulsarKeyShareWasm) -> &KeyShare {
        &holder.share
    }

    fn into_holder(self) -> PulsarKeyShareWasm {
        PulsarKeyShareWasm { share: self }
    }

    fn copy(&self) -> Result<KeyShare, JsValue> {
        KeyShare::new(dup(self.lss()), self.group_key().clone()).map_err(to_js_error)
    }

    fn public_info(&self) -> Obj {
        let o = sharing_info(self.public());
        o.set("id", self.id().get());
        key_fields(&o, self.group_key());
        o
    }
}

keyring_class!(
    "A member's keyring: its current share and a pending generation, held in WASM memory.",
    PulsarKeyringWasm,
    "PulsarKeyringWasm",
    KeyShare,
    PulsarKeyShareWasm
);
