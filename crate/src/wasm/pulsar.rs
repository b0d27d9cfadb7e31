//! Pulsar custody parties and combiner for JavaScript.
//!
//! **Trust model.** The 32-byte ML-DSA seed is derived from a group secret that is
//! Shamir-shared with Pedersen (perfectly hiding) commitments. At rest no party, and no
//! coalition below t, knows the key. To sign, t parties release their shares, encrypted,
//! to one combiner, which rebuilds the key in memory, signs, verifies, and zeroizes. The
//! combiner is trusted for that moment. See [`crate::pulsar::custody`].
//!
//! [`PulsarPartyWasm`] runs the LSS Pedersen DKG and reshares (through the byte-level
//! driver of [`super::lss`]) and the signer's side of every custody session (key
//! ceremony, signing, activation); [`PulsarCombinerWasm`] holds one fresh ML-KEM-768 key
//! per session and combines. Every message in and out is bytes.

use alloc::vec::Vec;

use js_sys::Array;
use rand_chacha::ChaCha20Rng;
use wasm_bindgen::prelude::*;

use super::lss::{
    answer, blame_entry, check, deal, dealing_outcome, finish, inbox, inbox_of_others, open_snapshot,
    order_error, party_id, party_ids, rng_from_seed, seal_snapshot, session_id, sharing_info, snapshot_error,
    snapshot_key, DealCtx, Inbox, Obj,
};
use super::{to_js_error, to_js_error_blaming};
use crate::lss::snapshot::Metadata;
use crate::lss::{self, ActivationCertificate, ActivationKind, Ceremony, GroupPublic};
use crate::mldsa::{self, Mode};
use crate::pulsar::custody::{
    self, activation_certificate, activation_session, CombinerKey, CombinerPublicKey, GroupKey,
    GroupKeyAnnouncement, KeyShare, Round1Message, Round2Message, Session, Signed, ACTIVATION_CONTEXT,
};
use crate::pulsar::frame::GroupKeyFrame;
use crate::pulsar::{Blame, Error};
use crate::vss::{self, Ristretto255};
use crate::PartyId;

type R = Ristretto255;

/// Where a Pulsar party is in its protocols.
// One value per party, moved between rounds: boxing the larger states would buy nothing.
#[allow(clippy::large_enum_variant)]
enum Phase {
    /// No ceremony in progress.
    Idle,
    /// After dealing round 1 (DKG or reshare).
    Deal1(lss::Round1State<R>, DealCtx, DealKind),
    /// After dealing round 2.
    Deal2(lss::Round2State<R>, DealCtx, DealKind),
    /// After dealing round 3.
    Deal3(lss::Round3State<R>, DealCtx, DealKind),
    /// After round 1 of a custody session (the sealed envelope).
    Sign1(custody::Round1State),
}

/// Which dealing is running (for messages and what finish stores).
#[derive(Clone, Copy)]
enum DealKind {
    Dkg,
    /// A reshare, with the group key to attach to the new share (if the key ceremony ran).
    Reshare,
}

impl Phase {
    fn name(&self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Deal1(_, _, DealKind::Dkg) => "dkg-1",
            Phase::Deal2(_, _, DealKind::Dkg) => "dkg-2",
            Phase::Deal3(_, _, DealKind::Dkg) => "dkg-3",
            Phase::Deal1(_, _, DealKind::Reshare) => "reshare-1",
            Phase::Deal2(_, _, DealKind::Reshare) => "reshare-2",
            Phase::Deal3(_, _, DealKind::Reshare) => "reshare-3",
            Phase::Sign1(_) => "sign-1",
        }
    }
}

/// One Pulsar custody party.
///
/// # Security
/// Holds a Pedersen share of the group secret (and, between rounds, dealing polynomials);
/// wiped when dropped (`free()` in JS). Starting a custody session releases the share,
/// encrypted, to that session's combiner.
#[wasm_bindgen(js_name = "PulsarPartyWasm")]
pub struct PulsarPartyWasm {
    id: PartyId,
    rng: ChaCha20Rng,
    /// The LSS share before the key ceremony.
    sharing: Option<lss::KeyShare<R>>,
    /// The custody share after it.
    key: Option<KeyShare>,
    /// The group key to attach to the share a running reshare produces.
    pending_key: Option<GroupKey>,
    phase: Phase,
    cheat_dealing: bool,
    cheat_signing: bool,
}

#[wasm_bindgen(js_class = "PulsarPartyWasm")]
impl PulsarPartyWasm {
    /// A party with id `id`, its RNG seeded with the 32-byte `seed`.
    ///
    /// # Errors
    /// `RangeError` for id 0 or a seed that is not 32 bytes.
    #[wasm_bindgen(constructor)]
    pub fn new(id: u16, seed: Vec<u8>) -> Result<PulsarPartyWasm, JsValue> {
        Ok(PulsarPartyWasm {
            id: party_id(id)?,
            rng: rng_from_seed(seed)?,
            sharing: None,
            key: None,
            pending_key: None,
            phase: Phase::Idle,
            cheat_dealing: false,
            cheat_signing: false,
        })
    }

    /// The current step (`idle`, `dkg-1` … `dkg-3`, `reshare-1` … `reshare-3`, `sign-1`).
    pub fn phase(&self) -> String {
        self.phase.name().into()
    }

    /// Whether this party holds a share (before or after the key ceremony).
    #[wasm_bindgen(js_name = "hasShare")]
    pub fn has_share(&self) -> bool {
        self.lss_share().is_some()
    }

    /// Turns the misbehaviour switches on or off (see `Misbehaviour` in protocols.d.ts).
    #[wasm_bindgen(js_name = "setMisbehaviour")]
    pub fn set_misbehaviour(&mut self, dealing: bool, signing: bool) {
        self.cheat_dealing = dealing;
        self.cheat_signing = signing;
    }

    fn lss_share(&self) -> Option<&lss::KeyShare<R>> {
        self.key.as_ref().map(KeyShare::lss).or(self.sharing.as_ref())
    }

    fn take_phase(&mut self) -> Phase {
        core::mem::replace(&mut self.phase, Phase::Idle)
    }

    fn custody_key(&self, method: &str) -> Result<&KeyShare, JsValue> {
        self.key.as_ref().ok_or_else(|| {
            js_sys::Error::new(&alloc::format!(
                "PulsarParty.{method}: no group key yet (run the DKG and the key ceremony first)"
            ))
            .into()
        })
    }

    /// Pedersen DKG round 1 (LSS, Ristretto255): `{ broadcast, direct }`.
    ///
    /// # Errors
    /// `INVALID_THRESHOLD`, `DUPLICATE_PARTY`, `NOT_A_PARTICIPANT`.
    #[wasm_bindgen(js_name = "dkgRound1")]
    pub fn dkg_round1(
        &mut self,
        session: &[u8],
        threshold: u16,
        parties: Vec<u16>,
    ) -> Result<JsValue, JsValue> {
        let session = session_id(session)?;
        let parties = party_ids(&parties)?;
        self.phase = Phase::Idle;
        let ceremony =
            Ceremony::<R>::dkg(session, vss::Mode::Pedersen, &parties, threshold).map_err(to_js_error)?;
        let (state, ctx, out) = deal(ceremony, self.id, None, self.cheat_dealing, &mut self.rng)?;
        self.phase = Phase::Deal1(state, ctx, DealKind::Dkg);
        Ok(out)
    }

    /// Dealing round 2 (DKG or reshare): reads deals and shares; returns the complaint.
    ///
    /// # Errors
    /// Envelope errors naming the sender.
    #[wasm_bindgen(js_name = "dealRound2")]
    pub fn deal_round2(
        &mut self,
        b_from: Vec<u16>,
        b_msgs: &Array,
        d_from: Vec<u16>,
        d_msgs: &Array,
    ) -> Result<JsValue, JsValue> {
        let deals = inbox_of_others(self.id, &b_from, b_msgs)?;
        let shares = inbox_of_others(self.id, &d_from, d_msgs)?;
        let (state, mut ctx, kind) = match self.take_phase() {
            Phase::Deal1(s, c, k) => (s, c, k),
            other => {
                let e = order_error("PulsarParty", "dkgRound2/reshareRound2", "round 1", other.name());
                self.phase = other;
                return Err(e);
            }
        };
        let (state, out) = check(state, &mut ctx, &deals, &shares)?;
        self.phase = Phase::Deal2(state, ctx, kind);
        Ok(out)
    }

    /// Dealing round 3: reads complaints; returns the response.
    ///
    /// # Errors
    /// Envelope errors naming the sender.
    #[wasm_bindgen(js_name = "dealRound3")]
    pub fn deal_round3(&mut self, b_from: Vec<u16>, b_msgs: &Array) -> Result<JsValue, JsValue> {
        let complaints = inbox_of_others(self.id, &b_from, b_msgs)?;
        let (state, mut ctx, kind) = match self.take_phase() {
            Phase::Deal2(s, c, k) => (s, c, k),
            other => {
                let e = order_error("PulsarParty", "dkgRound3/reshareRound3", "round 2", other.name());
                self.phase = other;
                return Err(e);
            }
        };
        let (state, out) = answer(state, &mut ctx, &complaints)?;
        self.phase = Phase::Deal3(state, ctx, kind);
        Ok(out)
    }

    /// Dealing finish: reads responses; stores the new share (DKG: the sharing, to be
    /// completed by the key ceremony; reshare: the custody share with the unchanged key).
    ///
    /// # Errors
    /// `NOT_ENOUGH_QUALIFIED` with every culprit (a reshare keeps the old share then);
    /// `GROUP_MISMATCH` (never expected: the kernel keeps the group commitment).
    #[wasm_bindgen(js_name = "dealFinish")]
    pub fn deal_finish(&mut self, b_from: Vec<u16>, b_msgs: &Array) -> Result<JsValue, JsValue> {
        let responses = inbox_of_others(self.id, &b_from, b_msgs)?;
        let (state, mut ctx, kind) = match self.take_phase() {
            Phase::Deal3(s, c, k) => (s, c, k),
            other => {
                let e = order_error("PulsarParty", "dkgFinish/reshareFinish", "round 3", other.name());
                self.phase = other;
                return Err(e);
            }
        };
        let outcome = finish(state, &mut ctx, &responses)?;
        let has_share = outcome.key_share.is_some();
        let out = dealing_outcome(
            has_share,
            &outcome.public,
            &outcome.qualified,
            &outcome.blame,
            &ctx.dropped,
        );
        out.bytes("sharing", &outcome.public.to_bytes());
        let group_key = match kind {
            DealKind::Dkg => None,
            DealKind::Reshare => self.pending_key.take(),
        };
        match (outcome.key_share, group_key) {
            (Some(share), Some(k)) => {
                set_key_fields(&out, &k);
                self.key = Some(KeyShare::new(share, k).map_err(to_js_error)?);
                self.sharing = None;
            }
            (Some(share), None) => {
                self.sharing = Some(share);
                self.key = None;
            }
            (None, k) => {
                if let Some(k) = &k {
                    set_key_fields(&out, k);
                }
                self.sharing = None;
                self.key = None;
            }
        }
        Ok(out.into_js())
    }

    /// Key-ceremony round 1 (signers): seals this party's share to the combiner; returns
    /// the `PCR1` broadcast.
    ///
    /// # Errors
    /// `NOT_A_SIGNER`, `NOT_ENOUGH_SIGNERS`, `UNKNOWN_PARTY`, `DUPLICATE_SIGNER`, decoding
    /// errors in the combiner key.
    #[wasm_bindgen(js_name = "keyCeremonyRound1")]
    pub fn key_ceremony_round1(
        &mut self,
        session: &[u8],
        level: u16,
        signers: Vec<u16>,
        combiner_key: &[u8],
    ) -> Result<Vec<u8>, JsValue> {
        let session = session_id(session)?;
        let mode = mode(level)?;
        let signers = party_ids(&signers)?;
        let combiner = CombinerPublicKey::from_bytes(combiner_key).map_err(to_js_error)?;
        self.phase = Phase::Idle;
        let share = self.lss_share().ok_or_else(|| {
            JsValue::from(js_sys::Error::new(
                "PulsarParty.keyCeremonyRound1: run the DKG first",
            ))
        })?;
        let s =
            Session::key_ceremony(session, mode, share.public(), &signers, &combiner).map_err(to_js_error)?;
        self.start_session(&s)
    }

    /// Stores the group key from the combiner's announcement after checking it.
    ///
    /// # Errors
    /// `GROUP_MISMATCH`, `INVALID_ANNOUNCEMENT`, `NOT_PEDERSEN`, decoding errors.
    #[wasm_bindgen(js_name = "keyCeremonyFinish")]
    pub fn key_ceremony_finish(&mut self, announcement: &[u8]) -> Result<JsValue, JsValue> {
        let a = GroupKeyAnnouncement::from_bytes(announcement).map_err(to_js_error)?;
        let share = self
            .sharing
            .take()
            .or_else(|| self.key.take().map(|k| k.share))
            .ok_or_else(|| {
                JsValue::from(js_sys::Error::new(
                    "PulsarParty.keyCeremonyFinish: run the DKG first",
                ))
            })?;
        let key = match a.verify(share.public()) {
            Ok(k) => k,
            Err(e) => {
                self.sharing = Some(share);
                return Err(to_js_error(e));
            }
        };
        let out = Obj::new();
        set_key_fields(&out, &key);
        match KeyShare::new(share, key) {
            Ok(k) => self.key = Some(k),
            Err(e) => return Err(to_js_error(e)),
        }
        Ok(out.into_js())
    }

    /// Signing round 1: seals this party's share to the combiner for `message`; returns the
    /// `PCR1` broadcast.
    ///
    /// # Errors
    /// As `keyCeremonyRound1`; `CONTEXT_TOO_LONG`.
    #[wasm_bindgen(js_name = "signRound1")]
    pub fn sign_round1(
        &mut self,
        session: &[u8],
        signers: Vec<u16>,
        combiner_key: &[u8],
        message: &[u8],
        context: &[u8],
    ) -> Result<Vec<u8>, JsValue> {
        let session = session_id(session)?;
        let signers = party_ids(&signers)?;
        let combiner = CombinerPublicKey::from_bytes(combiner_key).map_err(to_js_error)?;
        self.phase = Phase::Idle;
        let key = self.custody_key("signRound1")?;
        let s = Session::sign(
            session,
            key.group_key(),
            key.public(),
            &signers,
            &combiner,
            message,
            context,
        )
        .map_err(to_js_error)?;
        self.start_session(&s)
    }

    /// Activation round 1: as `signRound1`, on the activation message of this party's
    /// generation.
    ///
    /// # Errors
    /// As `signRound1`.
    #[wasm_bindgen(js_name = "activationRound1")]
    pub fn activation_round1(
        &mut self,
        session: &[u8],
        signers: Vec<u16>,
        combiner_key: &[u8],
    ) -> Result<Vec<u8>, JsValue> {
        let session = session_id(session)?;
        let signers = party_ids(&signers)?;
        let combiner = CombinerPublicKey::from_bytes(combiner_key).map_err(to_js_error)?;
        self.phase = Phase::Idle;
        let key = self.custody_key("activationRound1")?;
        let s = activation_session(session, key.group_key(), key.public(), &signers, &combiner)
            .map_err(to_js_error)?;
        self.start_session(&s)
    }

    fn start_session(&mut self, session: &Session) -> Result<Vec<u8>, JsValue> {
        let share = self
            .key
            .as_ref()
            .map(KeyShare::lss)
            .or(self.sharing.as_ref())
            .ok_or_else(|| JsValue::from(js_sys::Error::new("PulsarParty: no share")))?;
        let (state, msg) = if self.cheat_signing {
            custody::round1_with_bad_share(share, session, &mut self.rng)
        } else {
            custody::round1(share, session, &mut self.rng)
        }
        .map_err(to_js_error)?;
        self.phase = Phase::Sign1(state);
        Ok(msg.to_bytes())
    }

    /// Round 2 of any custody session: reads the round-1 broadcasts (messages that do not
    /// decode are ignored, as the combiner blames their senders); returns
    /// `{ to: combiner, bytes }` (the `PCR2` envelope).
    ///
    /// # Errors
    /// `NOT_ENOUGH_SIGNERS` (fewer than t valid commitments), `CONFLICTING_MESSAGE`.
    #[wasm_bindgen(js_name = "signRound2")]
    pub fn sign_round2(&mut self, from: Vec<u16>, msgs: &Array) -> Result<JsValue, JsValue> {
        let received = inbox(&from, msgs)?;
        let state = match self.take_phase() {
            Phase::Sign1(s) => s,
            other => {
                let e = order_error("PulsarParty", "signRound2", "a custody round 1", other.name());
                self.phase = other;
                return Err(e);
            }
        };
        let mut ignored = Vec::new();
        let r1 = super::lss::decode_all(&received, &mut ignored, |b| Round1Message::from_bytes(b).ok());
        let envelope = state.round2(&r1).map_err(to_js_error)?;
        let o = Obj::new();
        o.set("to", envelope.to().get())
            .bytes("bytes", &envelope.to_bytes());
        Ok(o.into_js())
    }

    /// Reshare round 1 (dealers and receivers). `sharing` (`LSG1`) and `key_record`
    /// (`PCGK`) are required for a party without a share.
    ///
    /// # Errors
    /// `NOT_A_PARTICIPANT`, `MISSING_OLD_SHARE`, `DEALER_NOT_IN_OLD_SET`,
    /// `NOT_ENOUGH_DEALERS`, `INVALID_THRESHOLD`, `GROUP_MISMATCH`, decoding errors.
    #[wasm_bindgen(js_name = "reshareRound1")]
    pub fn reshare_round1(
        &mut self,
        session: &[u8],
        dealers: Vec<u16>,
        receivers: Vec<u16>,
        threshold: u16,
        sharing: Option<Vec<u8>>,
        key_record: Option<Vec<u8>>,
    ) -> Result<JsValue, JsValue> {
        let session = session_id(session)?;
        let dealers = party_ids(&dealers)?;
        let receivers = party_ids(&receivers)?;
        self.phase = Phase::Idle;
        let public = match (&sharing, self.lss_share()) {
            (Some(b), _) => GroupPublic::<R>::from_bytes(b).map_err(to_js_error)?,
            (None, Some(s)) => s.public().clone(),
            (None, None) => {
                return Err(js_sys::Error::new(
                    "PulsarParty.reshareRound1: sharing is required for a party without a share",
                )
                .into())
            }
        };
        let group_key = match (&key_record, &self.key) {
            (Some(b), _) => Some(GroupKey::from_bytes(b).map_err(to_js_error)?),
            (None, Some(k)) => Some(k.group_key().clone()),
            (None, None) => None,
        };
        if let Some(k) = &group_key {
            check_group_key(k, &public)?;
        }
        let ceremony =
            Ceremony::<R>::reshare(session, &public, &dealers, &receivers, threshold).map_err(to_js_error)?;
        let old = if ceremony.is_dealer(self.id) {
            self.key.as_ref().map(KeyShare::lss).or(self.sharing.as_ref())
        } else {
            None
        };
        let (state, ctx, out) = deal(ceremony, self.id, old, self.cheat_dealing, &mut self.rng)?;
        self.pending_key = group_key;
        self.phase = Phase::Deal1(state, ctx, DealKind::Reshare);
        Ok(out)
    }

    /// The current sharing and group key (see `PulsarPublicInfo`).
    ///
    /// # Errors
    /// `Error` without a share.
    #[wasm_bindgen(js_name = "publicInfo")]
    pub fn public_info(&self) -> Result<JsValue, JsValue> {
        let share = self
            .lss_share()
            .ok_or_else(|| JsValue::from(js_sys::Error::new("PulsarParty.publicInfo: no share yet")))?;
        let o = sharing_info(share.public());
        o.bytes("sharing", &share.public().to_bytes());
        if let Some(k) = &self.key {
            set_key_fields(&o, k.group_key());
        }
        Ok(o.into_js())
    }

    /// Seals the custody key share (`PCKS`) under the 32-byte `key` as a `QSNP` snapshot.
    ///
    /// # Errors
    /// `Error` before the key ceremony; `RangeError` for a key that is not 32 bytes.
    #[wasm_bindgen(js_name = "sealShare")]
    pub fn seal_share(&mut self, key: Vec<u8>) -> Result<Vec<u8>, JsValue> {
        let key = snapshot_key(key)?;
        let share = self.key.as_ref().ok_or_else(|| {
            JsValue::from(js_sys::Error::new(
                "PulsarParty.sealShare: no group key yet (run the key ceremony first)",
            ))
        })?;
        let meta = Metadata::new(
            "pulsar-custody",
            share.group_key().commitment(),
            share.generation(),
            share.public().threshold(),
            self.id,
            0,
        )
        .map_err(snapshot_error)?;
        let payload = share.to_bytes();
        seal_snapshot(&key, &meta, &payload, &mut self.rng)
    }

    /// Restores a sealed custody key share of this party; returns its public data.
    ///
    /// # Errors
    /// Snapshot errors, decoding errors, `OLD_SHARE_MISMATCH` for another party's share.
    #[wasm_bindgen(js_name = "restoreShare")]
    pub fn restore_share(&mut self, snapshot: &[u8], key: Vec<u8>) -> Result<JsValue, JsValue> {
        let payload = open_snapshot(snapshot, key)?;
        let share = KeyShare::from_bytes(&payload).map_err(to_js_error)?;
        if share.id() != self.id {
            return Err(to_js_error(lss::Error::OldShareMismatch { party: share.id() }));
        }
        self.key = Some(share);
        self.sharing = None;
        self.phase = Phase::Idle;
        self.public_info()
    }
}

/// The ML-DSA mode of `level`, or a `RangeError`.
fn mode(level: u16) -> Result<Mode, JsValue> {
    Mode::from_level(level).ok_or_else(|| super::lss::range_error("ML-DSA level must be 44, 65 or 87"))
}

/// Checks that `public` is a sharing of `key`'s secret.
fn check_group_key(key: &GroupKey, public: &GroupPublic<R>) -> Result<(), JsValue> {
    if public.group_commitment_bytes().as_slice() != key.commitment().as_slice() {
        return Err(to_js_error(Error::GroupMismatch));
    }
    Ok(())
}

/// Sets `level`, `groupKey` (raw FIPS 204 key) and `keyRecord` (`PCGK`).
fn set_key_fields(o: &Obj, key: &GroupKey) {
    o.set("level", key.mode().level())
        .bytes("groupKey", key.public_key())
        .bytes("keyRecord", &key.to_bytes());
}

/// A Pulsar blame list as JS.
fn pulsar_blame(blame: &[Blame], extra: &[(PartyId, crate::Error)]) -> Array {
    let list: Array = blame
        .iter()
        .map(|b| blame_entry(b.party, b.error.code(), &alloc::format!("{}", b.error), None))
        .collect();
    for (p, e) in extra {
        list.push(&blame_entry(*p, e.code(), &alloc::format!("{e}"), None));
    }
    list
}

/// The combiner: one fresh ML-KEM-768 key per session.
///
/// # Security
/// Trusted with the group key while it signs: the key is rebuilt in this instance's memory
/// and zeroized before each call returns. The pending session key is wiped on drop.
#[wasm_bindgen(js_name = "PulsarCombinerWasm")]
pub struct PulsarCombinerWasm {
    id: PartyId,
    rng: ChaCha20Rng,
    pending: Option<CombinerKey>,
}

/// Messages of one custody session as the combiner received them: decoded, plus the
/// senders of bytes that did not decode (blamed, excluded).
struct Received {
    round1: alloc::collections::BTreeMap<PartyId, Round1Message>,
    round2: alloc::collections::BTreeMap<PartyId, Round2Message>,
    undecodable: Vec<(PartyId, crate::Error)>,
}

fn received(r1_from: &[u16], r1_msgs: &Array, r2_from: &[u16], r2_msgs: &Array) -> Result<Received, JsValue> {
    let r1: Inbox = inbox(r1_from, r1_msgs)?;
    let r2: Inbox = inbox(r2_from, r2_msgs)?;
    let mut out = Received {
        round1: Default::default(),
        round2: Default::default(),
        undecodable: Vec::new(),
    };
    for (p, b) in &r1 {
        match Round1Message::from_bytes(b) {
            Ok(m) => {
                out.round1.insert(*p, m);
            }
            Err(e) => out.undecodable.push((*p, e.into())),
        }
    }
    for (p, b) in &r2 {
        match Round2Message::from_bytes(b) {
            Ok(m) => {
                out.round2.insert(*p, m);
            }
            Err(e) => out.undecodable.push((*p, e.into())),
        }
    }
    Ok(out)
}

/// A combine error, also blaming the senders of undecodable messages.
fn combine_error(e: Error, undecodable: &[(PartyId, crate::Error)]) -> JsValue {
    let extra: Vec<PartyId> = undecodable.iter().map(|(p, _)| *p).collect();
    to_js_error_blaming(e, &extra)
}

#[wasm_bindgen(js_class = "PulsarCombinerWasm")]
impl PulsarCombinerWasm {
    /// A combiner with id `id`, its RNG seeded with the 32-byte `seed`.
    ///
    /// # Errors
    /// `RangeError` for id 0 or a seed that is not 32 bytes.
    #[wasm_bindgen(constructor)]
    pub fn new(id: u16, seed: Vec<u8>) -> Result<PulsarCombinerWasm, JsValue> {
        Ok(PulsarCombinerWasm {
            id: party_id(id)?,
            rng: rng_from_seed(seed)?,
            pending: None,
        })
    }

    /// A fresh ML-KEM-768 session key; returns its public half (`PCEK`).
    #[wasm_bindgen(js_name = "newSessionKey")]
    pub fn new_session_key(&mut self) -> Vec<u8> {
        let key = CombinerKey::generate(self.id, &mut self.rng);
        let public = key.public_key().to_bytes();
        self.pending = Some(key);
        public
    }

    fn take_key(&mut self, method: &str) -> Result<CombinerKey, JsValue> {
        self.pending
            .take()
            .ok_or_else(|| order_error("PulsarCombiner", method, "newSessionKey", "idle"))
    }

    /// Finishes the key ceremony: `{ announcement, level, groupKey, keyRecord, signers, blame }`.
    ///
    /// # Errors
    /// `NOT_ENOUGH_VALID_SHARES` (culprits), `UNKNOWN_PARTY`, `NOT_ENOUGH_SIGNERS`, decoding
    /// errors in `sharing`.
    #[wasm_bindgen(js_name = "finishKeyCeremony")]
    #[allow(clippy::too_many_arguments)]
    pub fn finish_key_ceremony(
        &mut self,
        session: &[u8],
        level: u16,
        sharing: &[u8],
        signers: Vec<u16>,
        r1_from: Vec<u16>,
        r1_msgs: &Array,
        r2_from: Vec<u16>,
        r2_msgs: &Array,
    ) -> Result<JsValue, JsValue> {
        let session = session_id(session)?;
        let mode = mode(level)?;
        let signers = party_ids(&signers)?;
        let public = GroupPublic::<R>::from_bytes(sharing).map_err(to_js_error)?;
        let rx = received(&r1_from, r1_msgs, &r2_from, r2_msgs)?;
        let key = self.take_key("finishKeyCeremony")?;
        let s =
            Session::key_ceremony(session, mode, &public, &signers, key.public_key()).map_err(to_js_error)?;
        let a = custody::Combiner::new(key, &s)
            .and_then(|c| c.round1(&rx.round1))
            .and_then(|c| c.finish_key_ceremony(&rx.round2, &mut self.rng))
            .map_err(|e| combine_error(e, &rx.undecodable))?;
        let o = Obj::new();
        o.bytes("announcement", &a.to_bytes())
            .ids("signers", a.signers())
            .set("blame", pulsar_blame(a.blame(), &rx.undecodable));
        set_key_fields(&o, a.group_key());
        Ok(o.into_js())
    }

    /// Combines a signing session: `{ signature, signers, blame }`.
    ///
    /// # Errors
    /// `NOT_ENOUGH_VALID_SHARES` (culprits), `GROUP_KEY_MISMATCH`, `GROUP_MISMATCH`,
    /// `CONTEXT_TOO_LONG`, decoding errors in `key_record` or `sharing`.
    #[wasm_bindgen(js_name = "sign")]
    #[allow(clippy::too_many_arguments)]
    pub fn sign(
        &mut self,
        session: &[u8],
        key_record: &[u8],
        sharing: &[u8],
        signers: Vec<u16>,
        message: &[u8],
        context: &[u8],
        deterministic: bool,
        r1_from: Vec<u16>,
        r1_msgs: &Array,
        r2_from: Vec<u16>,
        r2_msgs: &Array,
    ) -> Result<JsValue, JsValue> {
        let session = session_id(session)?;
        let signers = party_ids(&signers)?;
        let group_key = GroupKey::from_bytes(key_record).map_err(to_js_error)?;
        let public = GroupPublic::<R>::from_bytes(sharing).map_err(to_js_error)?;
        let rx = received(&r1_from, r1_msgs, &r2_from, r2_msgs)?;
        let key = self.take_key("sign")?;
        let s = Session::sign(
            session,
            &group_key,
            &public,
            &signers,
            key.public_key(),
            message,
            context,
        )
        .map_err(to_js_error)?;
        let signed = self.combine(key, &s, &rx, deterministic)?;
        Ok(signed_js(&signed, &rx.undecodable).into_js())
    }

    /// Combines the activation session of `sharing`'s generation:
    /// `{ signature, certificate, signers, blame }`.
    ///
    /// # Errors
    /// As `sign`; `INVALID_ACTIVATION`.
    #[allow(clippy::too_many_arguments)]
    pub fn activate(
        &mut self,
        session: &[u8],
        key_record: &[u8],
        sharing: &[u8],
        signers: Vec<u16>,
        r1_from: Vec<u16>,
        r1_msgs: &Array,
        r2_from: Vec<u16>,
        r2_msgs: &Array,
    ) -> Result<JsValue, JsValue> {
        let session = session_id(session)?;
        let signers = party_ids(&signers)?;
        let group_key = GroupKey::from_bytes(key_record).map_err(to_js_error)?;
        let public = GroupPublic::<R>::from_bytes(sharing).map_err(to_js_error)?;
        let rx = received(&r1_from, r1_msgs, &r2_from, r2_msgs)?;
        let key = self.take_key("activate")?;
        let s = activation_session(session, &group_key, &public, &signers, key.public_key())
            .map_err(to_js_error)?;
        let signed = self.combine(key, &s, &rx, false)?;
        let cert = activation_certificate(&group_key, &public, &signed).map_err(to_js_error)?;
        let o = signed_js(&signed, &rx.undecodable);
        o.bytes("certificate", &cert.to_bytes());
        Ok(o.into_js())
    }

    fn combine(
        &mut self,
        key: CombinerKey,
        s: &Session,
        rx: &Received,
        deterministic: bool,
    ) -> Result<Signed, JsValue> {
        let state = custody::Combiner::new(key, s)
            .and_then(|c| c.round1(&rx.round1))
            .map_err(|e| combine_error(e, &rx.undecodable))?;
        if deterministic {
            state.combine_deterministic(&rx.round2)
        } else {
            state.combine(&rx.round2, &mut self.rng)
        }
        .map_err(|e| combine_error(e, &rx.undecodable))
    }
}

/// `{ signature, signers, blame }`.
fn signed_js(signed: &Signed, undecodable: &[(PartyId, crate::Error)]) -> Obj {
    let o = Obj::new();
    o.bytes("signature", signed.signature())
        .ids("signers", signed.signers())
        .set("blame", pulsar_blame(signed.blame(), undecodable));
    o
}

/// Verifies a Pulsar activation certificate under the group key (raw FIPS 204 key or
/// `PCGK` record): `false` for anything wrong.
#[wasm_bindgen(js_name = "pulsarVerifyActivation")]
pub fn pulsar_verify_activation(group_key: &[u8], certificate: &[u8]) -> bool {
    let pk: Vec<u8> = if group_key.starts_with(custody::GROUP_KEY_MAGIC) {
        match GroupKey::from_bytes(group_key) {
            Ok(k) => k.public_key().to_vec(),
            Err(_) => return false,
        }
    } else {
        group_key.to_vec()
    };
    let Ok(cert) = ActivationCertificate::from_bytes(certificate) else {
        return false;
    };
    if cert.kind != ActivationKind::Pulsar {
        return false;
    }
    let Ok(frame) = GroupKeyFrame::decode(&cert.group_key) else {
        return false;
    };
    if frame.public_key != pk.as_slice() {
        return false;
    }
    cert.verify(|m, s| mldsa::verify(frame.mode, frame.public_key, m, ACTIVATION_CONTEXT, s).is_ok())
        .is_ok()
}
