//! Pulsar custody for JavaScript: factories that start the library's parties as
//! `PartyWasm`s, the key-share holders, and the activation verifier.
//!
//! **Trust model.** At rest no coalition below `t` knows the ML-DSA key; to sign, `t`
//! parties release their shares, encrypted, to one combiner, which rebuilds the key in
//! memory, signs, verifies and zeroizes — the combiner is trusted for that moment. See
//! [`crate::pulsar::custody`].
//!
//! | step | factory | outcome |
//! |---|---|---|
//! | DKG (LSS Pedersen, Ristretto255) | [`pulsar_dkg`] | an `LssShareWasm` |
//! | key ceremony | [`pulsar_ceremony_combiner`], [`pulsar_ceremony_signer`] | the announcement |
//! | key certification (every party) | [`pulsar_certify`] | a `PulsarKeyShareWasm` with the certified group key |
//! | sign | [`pulsar_sign_combiner`], [`pulsar_sign_signer`] | the FIPS 204 signature |
//! | refresh, reshare | [`pulsar_refresh`], [`pulsar_reshare`], [`pulsar_reshare_join`] | the new share and the verified activation |
//! | the whole lifecycle (setup, sign, reshare → activation), one party per role | [`lifecycle`] | a member's keyring, the combiner's record, the signature |
//!
//! A party never lets a caller-supplied key override its verified one: signers and
//! dealers take their group key from their own `PulsarKeyShareWasm`; a new member's key
//! record is checked against the old generation's certificate before it takes part.

use alloc::boxed::Box;
use alloc::vec::Vec;

use wasm_bindgen::prelude::*;

mod envelope;
mod keys;
mod lifecycle;

use super::js::{self, activation, array32, generation, party_id, party_ids, start_with_cheat, verdict, Obj};
use super::party::{host, inbox_bound, Finished, PartyWasm};
use super::rng::RngWasm;
use super::{js_error, js_u32, to_js_error};
use crate::lss::{self, AnyCeremony, AnyOutcome, Dealing, GroupPublic};
use crate::pulsar::custody::{
    self, certification_party, Combined, CombinerKey, CombinerParty, GroupKey, GroupKeyAnnouncement,
    KeyShare, Purpose, Session, SignerParty,
};
use crate::vss::{self, Ristretto255 as R};
use crate::PartyId;
use keys::{dup, key_fields, sharing_info};
pub use keys::{LssShareWasm, PulsarKeyShareWasm};

/// The largest dealing message of a ceremony with `n` participants and threshold `t`.
fn dealing_bound(n: usize, t: usize) -> usize {
    inbox_bound(n, 512 + 96 * (n + t))
}

use super::mldsa_mode as mode;

/// A sharing (`LSG1` over Ristretto255).
fn sharing(bytes: &[u8]) -> Result<GroupPublic<R>, JsValue> {
    GroupPublic::<R>::from_bytes(bytes).map_err(to_js_error)
}

/// Starts party `me` of the Pulsar DKG: the LSS Pedersen DKG over Ristretto255 among
/// `parties` with threshold `threshold`.
///
/// # Errors
/// `INVALID_THRESHOLD`, `DUPLICATE_PARTY`, `NOT_A_PARTICIPANT`; `RangeError`s.
#[wasm_bindgen(js_name = "pulsarDkg")]
pub fn pulsar_dkg(
    session: &[u8],
    parties: Vec<u16>,
    threshold: u16,
    me: u16,
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let ids = party_ids(&parties)?;
    let c = AnyCeremony::dkg(
        vss::CurveId::Ristretto255,
        array32("session", session)?,
        vss::Mode::Pedersen,
        &ids,
        threshold,
    )
    .map_err(to_js_error)?;
    let me = party_id(me)?;
    let rng = rng.get();
    let bound = dealing_bound(ids.len(), usize::from(threshold));
    let (party, out) = start_with_cheat!(Dealing::start(c, me, None, rng),
        k => Dealing::start_cheating(c, me, None, k, rng));
    let finish = Box::new(|o: AnyOutcome| {
        let mut o = o.into_curve::<R>().map_err(to_js_error)?;
        let info = sharing_info(&o.public);
        info.ids("qualified", &o.qualified).blame("blame", &o.blame);
        if let Some(share) = o.key_share.take() {
            info.set("keyShare", LssShareWasm { share });
        }
        Finished::ok(info, o.dropped)
    });
    Ok(host("pulsar-dkg", (party, out), bound, finish))
}

/// The `PartyWasm` of a combiner of `session` with `key` (drawn from `rng`, which the
/// party continues); publishes the session and the combiner's public key.
fn combiner_party(
    key: CombinerKey,
    session: Session,
    rng: &mut RngWasm,
    deterministic: bool,
) -> Result<PartyWasm, JsValue> {
    let combiner_key = key.public_key().to_bytes();
    let (party, out) = if deterministic {
        CombinerParty::start_deterministic(key, &session)
    } else {
        CombinerParty::start(key, &session, rng.get())
    }
    .map_err(to_js_error)?;
    let bound = inbox_bound(session.signers().len(), custody::ROUND2_LEN + 256);
    let finish = Box::new(|c: Combined| {
        let info = Obj::new();
        let blame = match &c {
            Combined::Signed(s) => {
                info.bytes("signature", s.signature())
                    .bytes("frame", &s.to_frame())
                    .set("level", s.mode().level())
                    .ids("signers", s.signers())
                    .ids("missing", s.missing())
                    .set("unattributed", js_u32(s.unattributed()));
                s.blame().to_vec()
            }
            Combined::Announcement(a) => {
                info.bytes("announcement", &a.to_bytes())
                    .bytes("groupKey", a.key().public_key())
                    .set("level", a.key().mode().level())
                    .ids("signers", a.signers());
                a.blame().to_vec()
            }
        };
        info.blame("blame", &blame);
        Finished::ok(info, Vec::new())
    });
    Ok(host("pulsar-combiner", (party, out), bound, finish)
        .with_info("session", session.to_bytes())
        .with_info("combinerKey", combiner_key))
}

/// Starts combiner `me` of the key ceremony after the DKG of `sharing` (`LSG1`): a fresh
/// ML-KEM key (`info().combinerKey`, `PCEK`), the session of `signers` (its
/// `info().session`, for them) and level `level`. `rng` draws the key, then the party's
/// randomness.
///
/// # Errors
/// `NOT_PEDERSEN`, `DUPLICATE_PARTY`, `UNKNOWN_PARTY`, `NOT_ENOUGH_SIGNERS`; decoding errors.
#[wasm_bindgen(js_name = "pulsarCeremonyCombiner")]
pub fn pulsar_ceremony_combiner(
    me: u16,
    level: u16,
    sharing_bytes: &[u8],
    signers: Vec<u16>,
    session: &[u8],
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let public = sharing(sharing_bytes)?;
    let key = CombinerKey::generate(party_id(me)?, rng.get());
    let s = Session::key_ceremony(
        array32("session", session)?,
        mode(level)?,
        &public,
        &party_ids(&signers)?,
        key.public_key(),
    )
    .map_err(to_js_error)?;
    combiner_party(key, s, rng, false)
}

/// The session of `bytes`, which must have `purpose`.
fn session_of(bytes: &[u8], purpose: Purpose) -> Result<Session, JsValue> {
    let s = Session::from_bytes(bytes).map_err(to_js_error)?;
    if s.purpose() != purpose {
        return Err(to_js_error(crate::pulsar::Error::PurposeMismatch));
    }
    Ok(s)
}

/// A custody signer of `session` with `share`.
fn signer_party(
    share: &lss::KeyShare<R>,
    session: &Session,
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let rng = rng.get();
    let (party, out) = start_with_cheat!(SignerParty::start(share, session, rng),
        k => SignerParty::start_cheating(share, session, k, rng));
    let bound = inbox_bound(session.signers().len(), custody::ROUND1_LEN + 64);
    let finish =
        Box::new(|o: custody::SignerOutcome| Finished::listing("committed", &o.committed, o.dropped));
    Ok(host("pulsar-signer", (party, out), bound, finish))
}

/// Starts the holder of `share` as a signer of the key-ceremony `session` (`PCSS`, from
/// the combiner): it seals its share to the session's combiner.
///
/// # Errors
/// `PURPOSE_MISMATCH`, `NOT_A_SIGNER`, `GROUP_MISMATCH` (a session of another sharing).
#[wasm_bindgen(js_name = "pulsarCeremonySigner")]
pub fn pulsar_ceremony_signer(
    share: &LssShareWasm,
    session: &[u8],
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let s = session_of(session, Purpose::KeyCeremony)?;
    signer_party(&share.share, &s, rng)
}

/// Starts the key-certification round for the holder of `share`: checks the combiner's
/// `announcement` against its own sharing, then proves possession of its share for the
/// announced key. The outcome's `keyShare` is the custody share with the certified key.
///
/// # Errors
/// `INVALID_ANNOUNCEMENT`, `GROUP_MISMATCH`; decoding errors of the announcement.
#[wasm_bindgen(js_name = "pulsarCertify")]
pub fn pulsar_certify(
    share: &LssShareWasm,
    announcement: &[u8],
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let a = GroupKeyAnnouncement::from_bytes(announcement).map_err(to_js_error)?;
    let public = share.share.public().clone();
    let announced = a.verify(&public).map_err(to_js_error)?;
    let me = share.share.id();
    let (party, out) =
        certification_party(me, Some(&share.share), &public, &announced, rng.get()).map_err(to_js_error)?;
    let bound = inbox_bound(public.parties().len(), 512);
    let mine = dup(&share.share);
    let finish = Box::new(move |cert: lss::ActivationCertificate| {
        let info = Obj::new();
        let key = GroupKey::new(announced, &public, cert.clone()).map_err(to_js_error)?;
        let share = KeyShare::new(mine, key.clone()).map_err(to_js_error)?;
        key_fields(&info, &key);
        info.bytes("certificate", &cert.to_bytes())
            .ids("members", &cert.members())
            .set("keyShare", PulsarKeyShareWasm { share });
        Finished::ok(info, Vec::new())
    });
    Ok(host("pulsar-certify", (party, out), bound, finish))
}

/// Starts combiner `me` of a signing session: `signers` release their shares of the
/// sharing `sharing` (`LSG1`) to a fresh ML-KEM key; it signs `message` with `context`
/// under the group key record `key_record` (`PCGK`, whose certificate must bind it to the
/// sharing). Its `info().session` goes to the signers. `rng` draws the ML-KEM key, then
/// (unless `deterministic`) the signing randomness.
///
/// # Errors
/// `GROUP_MISMATCH`, `ACTIVATION_*` (an uncertified key), `RESERVED_CONTEXT`,
/// `CONTEXT_TOO_LONG`, `NOT_ENOUGH_SIGNERS`, …; decoding errors.
#[wasm_bindgen(js_name = "pulsarSignCombiner")]
#[allow(clippy::too_many_arguments)]
pub fn pulsar_sign_combiner(
    me: u16,
    key_record: &[u8],
    sharing_bytes: &[u8],
    signers: Vec<u16>,
    message: &[u8],
    context: &[u8],
    session: &[u8],
    rng: &mut RngWasm,
    deterministic: bool,
) -> Result<PartyWasm, JsValue> {
    let public = sharing(sharing_bytes)?;
    let gk = GroupKey::from_bytes(key_record, &public).map_err(to_js_error)?;
    let key = CombinerKey::generate(party_id(me)?, rng.get());
    let s = Session::sign(
        array32("session", session)?,
        &gk,
        &public,
        &party_ids(&signers)?,
        key.public_key(),
        message,
        context,
    )
    .map_err(to_js_error)?;
    combiner_party(key, s, rng, deterministic)
}

/// Starts the holder of `share` as a signer of the signing `session` (`PCSS`). The session
/// must be for the share's own group key and sharing, and sign exactly `message` with
/// `context` (what this party means to sign).
///
/// # Errors
/// `PURPOSE_MISMATCH`, `GROUP_MISMATCH` (another key), `WRONG_MESSAGE`, `NOT_A_SIGNER`,
/// `WRONG_GENERATION`.
#[wasm_bindgen(js_name = "pulsarSignSigner")]
pub fn pulsar_sign_signer(
    share: &PulsarKeyShareWasm,
    session: &[u8],
    message: &[u8],
    context: &[u8],
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let s = session_of(session, Purpose::Sign)?;
    if s.group_key() != Some(share.share.group_key()) {
        return Err(to_js_error(crate::pulsar::Error::GroupMismatch));
    }
    if s.message() != message || s.context() != context {
        return Err(js_error(
            "the session signs another message or context than this party's",
            "WRONG_MESSAGE",
            "pulsar",
            &[],
        ));
    }
    signer_party(share.share.lss(), &s, rng)
}

/// The `PartyWasm` of a Pulsar refresh or reshare `c` for `me` (with its custody share,
/// if any) and the verified group key `gk` of the old generation.
fn pulsar_dealing(
    c: lss::Ceremony<R>,
    me: PartyId,
    share: Option<&KeyShare>,
    gk: GroupKey,
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let rng = rng.get();
    let n = {
        let any = AnyCeremony::from(c.clone());
        any.participants().len()
    };
    let bound = dealing_bound(n, usize::from(c.threshold()));
    let expect = c.new_generation();
    let old = share.map(|s| lss::AnyKeyShare::from(dup(s.lss())));
    let any = AnyCeremony::from(c);
    let (party, out) = start_with_cheat!(Dealing::start(any, me, old.as_ref(), rng),
        k => Dealing::start_cheating(any, me, old.as_ref(), k, rng));
    let finish = Box::new(move |o: AnyOutcome| {
        let mut o = o.into_curve::<R>().map_err(to_js_error)?;
        let info = sharing_info(&o.public);
        info.ids("qualified", &o.qualified).blame("blame", &o.blame);
        let cert = o
            .activation
            .clone()
            .ok_or_else(|| to_js_error(lss::Error::InconsistentShare))?;
        // Every party — old dealers included — checks the certificate against the new
        // generation, for the generation and dealing it expects, before anyone may erase
        // an old share.
        let verified =
            custody::verify_activation(&o.public, &gk, expect, o.public.transcript_hash(), &cert).is_ok();
        info.set("activation", activation(&cert, verified));
        if verified {
            let new_key = gk.reactivated(&o.public, cert).map_err(to_js_error)?;
            key_fields(&info, &new_key);
            if let Some(s) = o.key_share.take() {
                let share = KeyShare::new(s, new_key).map_err(to_js_error)?;
                info.set("keyShare", PulsarKeyShareWasm { share });
            }
        }
        Finished::ok(info, o.dropped)
    });
    Ok(host("pulsar-dealing", (party, out), bound, finish))
}

/// Starts the holder of `share` in the reshare `reshare` of its sharing (its session,
/// dealers, receivers and new threshold), bound to its own certified group key.
///
/// # Errors
/// As `custody::reshare` and `lss::Dealing::start`.
#[wasm_bindgen(js_name = "pulsarReshare")]
pub fn pulsar_reshare(
    share: &PulsarKeyShareWasm,
    reshare: js::Reshare,
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let s = &share.share;
    reshare_party(
        s.group_key().clone(),
        s.public(),
        js::Member::holder(s.id(), s, rng),
        reshare,
    )
}

/// Starts `member` in the reshare `r` of `public` bound to `gk`.
fn reshare_party(
    gk: GroupKey,
    public: &GroupPublic<R>,
    member: js::Member<'_, KeyShare>,
    r: js::Reshare,
) -> Result<PartyWasm, JsValue> {
    let c = custody::reshare(r.session, &gk, public, &r.dealers, &r.receivers, r.threshold)
        .map_err(to_js_error)?;
    pulsar_dealing(c, member.id, member.share, gk, member.rng)
}

/// Starts new member `me` (no share yet) in the reshare `reshare` of the sharing `sharing`
/// (`LSG1`, the current generation) of the group key record `key_record` (`PCGK`): the
/// record's certificate is checked against the sharing before the party takes part.
///
/// # Errors
/// `GROUP_MISMATCH`, `ACTIVATION_*` (a key the old set did not certify); decoding errors.
#[wasm_bindgen(js_name = "pulsarReshareJoin")]
pub fn pulsar_reshare_join(
    key_record: &[u8],
    sharing_bytes: &[u8],
    reshare: js::Reshare,
    me: u16,
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let public = sharing(sharing_bytes)?;
    let gk = GroupKey::from_bytes(key_record, &public).map_err(to_js_error)?;
    reshare_party(gk, &public, js::Member::joining(party_id(me)?, rng), reshare)
}

/// Starts the holder of `share` in a refresh of its sharing dealt by `dealers`.
///
/// # Errors
/// As `custody::refresh` and `lss::Dealing::start`.
#[wasm_bindgen(js_name = "pulsarRefresh")]
pub fn pulsar_refresh(
    share: &PulsarKeyShareWasm,
    session: &[u8],
    dealers: Vec<u16>,
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let s = &share.share;
    let gk = s.group_key().clone();
    let c = custody::refresh(
        array32("session", session)?,
        &gk,
        s.public(),
        &party_ids(&dealers)?,
    )
    .map_err(to_js_error)?;
    pulsar_dealing(c, s.id(), Some(s), gk, rng)
}

/// Whether `certificate` activates generation `generation` of the dealing with transcript
/// hash `transcript` of the sharing `sharing` (the new generation's `LSG1`) for the group
/// key record `key_record` (`PCGK`) of that generation — the `keyRecord` every party of the
/// dealing got: a verdict `{ ok, code?, reason? }`. The record goes through the one strict
/// check ([`GroupKey::from_bytes`] against `sharing`), so every byte of it is checked; a
/// record that is not certified for `sharing` (an older generation's included: its
/// certificate cannot be checked without its own sharing) is a refusal, never a throw,
/// and so is an attacker's certificate.
///
/// # Errors
/// Decoding errors of the sharing; `RangeError` for a bad generation or transcript hash.
#[wasm_bindgen(js_name = "pulsarVerifyActivation")]
pub fn pulsar_verify_activation(
    sharing_bytes: &[u8],
    key_record: &[u8],
    generation_number: f64,
    transcript: &[u8],
    certificate: &[u8],
) -> Result<JsValue, JsValue> {
    let public = sharing(sharing_bytes)?;
    let g = generation(generation_number)?;
    let transcript = array32("transcript hash", transcript)?;
    let result = GroupKey::from_bytes(key_record, &public)
        .map_err(crate::Error::from)
        .and_then(|gk| {
            let cert = lss::ActivationCertificate::from_bytes(certificate)?;
            custody::verify_activation(&public, &gk, g, &transcript, &cert).map_err(crate::Error::from)
        });
    Ok(verdict(result))
}
