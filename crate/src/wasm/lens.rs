//! Lens (FROST, RFC 9591) parties and coordinator for JavaScript.
//!
//! **Trust model.** FROST, dishonest majority: fewer than `t` parties cannot sign, the
//! coordinator is trusted only for liveness, and signatures verify under standard
//! Ed25519/BIP-340. See [`crate::lens`].
//!
//! [`LensPartyWasm`] holds one party's key share, key-generation state (the LSS kernel's
//! Feldman DKG, [`crate::lens::keygen`]), signing nonces and reshare state in WASM memory; [`LensCoordinatorWasm`] holds only public data. Every message in
//! and out is bytes. The hand-written `js/protocols.js` wraps these classes (argument
//! checks, inbox shapes); js/protocols.d.ts documents the public API.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use js_sys::Array;
use rand_chacha::ChaCha20Rng;
use wasm_bindgen::prelude::*;
use zeroize::Zeroizing;

use super::lss::{
    decode_strict, inbox, inbox_of_others, lss_blame, open_snapshot, order_error, party_id, party_ids,
    range_error, rewrite_response, rng_from_seed, round_output, seal_snapshot, session_id, snapshot_error,
    snapshot_key, tamper_share, Inbox, Obj,
};
use super::to_js_error;
use crate::lens::{self, keygen, reshare, Curve, KeyShare, PublicKeyPackage, SigningPackage};
use crate::lss::snapshot::Metadata;
use crate::vss::{self, Mode};
use crate::PartyId;

/// Runs `$body` with `$V` the [`crate::vss`] curve of the Lens curve `$curve`.
macro_rules! with_vss {
    ($curve:expr, $V:ident => $body:expr) => {
        match $curve {
            Curve::Ed25519 => {
                type $V = vss::Ed25519;
                $body
            }
            Curve::Secp256k1 => {
                type $V = vss::Secp256k1;
                $body
            }
            Curve::Ristretto255 => {
                type $V = vss::Ristretto255;
                $body
            }
        }
    };
}

/// The curve of wire byte `b` (1 Ed25519, 2 secp256k1, 3 Ristretto255), or a `RangeError`.
fn curve(b: u8) -> Result<Curve, JsValue> {
    Curve::from_byte(b).map_err(|_| range_error("unknown Lens curve"))
}

/// Flips the lowest bit of the 32-byte scalar that ends `bytes` (little-endian on
/// Ed25519 and Ristretto255, big-endian on secp256k1), trying the next bits should the
/// result not decode (`ok`). For the cheating-party toggle only.
fn corrupt_trailing_scalar(curve: Curve, bytes: &mut [u8], ok: impl Fn(&[u8]) -> bool) {
    let n = bytes.len();
    if n < 32 {
        return;
    }
    let low = match curve {
        Curve::Secp256k1 => n - 1,
        Curve::Ed25519 | Curve::Ristretto255 => n - 32,
    };
    for bit in 0..8 {
        bytes[low] ^= 1 << bit;
        if ok(bytes) {
            return;
        }
        bytes[low] ^= 1 << bit;
    }
}

/// The wrong share messages a misbehaving dealer sent, by recipient (empty when honest).
type BadShares = BTreeMap<PartyId, Zeroizing<Vec<u8>>>;

/// Private messages to send, with their recipients.
type Direct = Vec<(PartyId, Zeroizing<Vec<u8>>)>;

/// Where a Lens party is in its protocols.
enum Phase {
    /// No ceremony in progress.
    Idle,
    /// After DKG round 1 (with the wrong shares sent, when misbehaving).
    Dkg1(keygen::Round1State, BadShares),
    /// After DKG round 2.
    Dkg2(keygen::Round2State, BadShares),
    /// After DKG round 3.
    Dkg3(keygen::Round3State),
    /// After signing round 1: the nonces.
    Sign1(lens::SigningNonces),
    /// After reshare round 1 (with the wrong shares sent, when misbehaving).
    Reshare1(reshare::Round1State, BadShares),
    /// After reshare round 2.
    Reshare2(reshare::Round2State, BadShares),
    /// After reshare round 3.
    Reshare3(reshare::Round3State),
}

impl Phase {
    fn name(&self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Dkg1(..) => "dkg-1",
            Phase::Dkg2(..) => "dkg-2",
            Phase::Dkg3(_) => "dkg-3",
            Phase::Sign1(_) => "sign-1",
            Phase::Reshare1(..) => "reshare-1",
            Phase::Reshare2(..) => "reshare-2",
            Phase::Reshare3(_) => "reshare-3",
        }
    }
}

/// One Lens party: its key share and protocol state, in WASM memory.
///
/// # Security
/// Holds the secret key share, DKG polynomials and signing nonces; all are wiped when
/// dropped (`free()` in JS). Nonces are consumed by `signRound2` whatever the outcome.
#[wasm_bindgen(js_name = "LensPartyWasm")]
pub struct LensPartyWasm {
    id: PartyId,
    curve: Curve,
    rng: ChaCha20Rng,
    share: Option<KeyShare>,
    phase: Phase,
    cheat_dealing: bool,
    cheat_signing: bool,
}

#[wasm_bindgen(js_class = "LensPartyWasm")]
impl LensPartyWasm {
    /// A party with id `id` on curve byte `curve`, its RNG seeded with the 32-byte `seed`.
    ///
    /// # Errors
    /// `RangeError` for id 0, an unknown curve or a seed that is not 32 bytes.
    #[wasm_bindgen(constructor)]
    pub fn new(id: u16, curve_byte: u8, seed: Vec<u8>) -> Result<LensPartyWasm, JsValue> {
        Ok(LensPartyWasm {
            id: party_id(id)?,
            curve: curve(curve_byte)?,
            rng: rng_from_seed(seed)?,
            share: None,
            phase: Phase::Idle,
            cheat_dealing: false,
            cheat_signing: false,
        })
    }

    /// The current step (`idle`, `dkg-1`, `dkg-2`, `sign-1`, `reshare-1` …).
    pub fn phase(&self) -> String {
        self.phase.name().into()
    }

    /// Whether this party holds a key share.
    #[wasm_bindgen(js_name = "hasShare")]
    pub fn has_share(&self) -> bool {
        self.share.is_some()
    }

    /// Turns the misbehaviour switches on or off (see `Misbehaviour` in protocols.d.ts).
    #[wasm_bindgen(js_name = "setMisbehaviour")]
    pub fn set_misbehaviour(&mut self, dealing: bool, signing: bool) {
        self.cheat_dealing = dealing;
        self.cheat_signing = signing;
    }

    fn take_phase(&mut self) -> Phase {
        core::mem::replace(&mut self.phase, Phase::Idle)
    }

    fn key(&self) -> Result<&KeyShare, JsValue> {
        self.share.as_ref().ok_or_else(no_share)
    }

    /// Shares to send: as dealt, or (misbehaving dealer) each off by one; the wrong ones
    /// are remembered so round 3 "opens" them too.
    fn outgoing_shares(
        &self,
        shares: &BTreeMap<PartyId, Zeroizing<Vec<u8>>>,
    ) -> Result<(Direct, BadShares), JsValue> {
        let mut bad = BTreeMap::new();
        let mut direct: Direct = Vec::with_capacity(shares.len());
        for (to, bytes) in shares {
            let bytes = if self.cheat_dealing {
                let t = with_vss!(self.curve, V => tamper_share::<V>(bytes)).map_err(to_js_error)?;
                bad.insert(*to, t.clone());
                t
            } else {
                bytes.clone()
            };
            direct.push((*to, bytes));
        }
        Ok((direct, bad))
    }

    /// The response to broadcast: as made, or (misbehaving dealer) opening the wrong
    /// shares it sent.
    fn outgoing_response(
        &self,
        response: Option<Vec<u8>>,
        bad: &BadShares,
    ) -> Result<Option<Vec<u8>>, JsValue> {
        match response {
            Some(r) if !bad.is_empty() => Ok(Some(
                with_vss!(self.curve, V => rewrite_response::<V>(&r, Mode::Feldman, bad))
                    .map_err(to_js_error)?,
            )),
            other => Ok(other),
        }
    }

    /// DKG round 1 (the LSS kernel's Feldman DKG with proofs of knowledge,
    /// [`crate::lens::keygen`]): returns `{ broadcast, direct }` (the deal, and one share
    /// per other party).
    ///
    /// # Errors
    /// `INVALID_THRESHOLD`, `DUPLICATE_PARTY`, `UNKNOWN_PARTY` (this party is not listed).
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
            keygen::Ceremony::new(self.curve, session, &parties, threshold).map_err(to_js_error)?;
        let (state, out) = keygen::round1(&ceremony, self.id, &mut self.rng).map_err(to_js_error)?;
        let (direct, bad) = self.outgoing_shares(&out.shares)?;
        self.phase = Phase::Dkg1(state, bad);
        Ok(round_output(
            Some(&out.deal),
            direct.iter().map(|(p, b)| (*p, b.as_slice())),
        ))
    }

    /// DKG round 2: reads the deals (broadcasts) and this party's shares (direct); returns
    /// the complaint broadcast (empty when every share checked). Messages that do not
    /// decode are dropped (a missing deal disqualifies its dealer).
    ///
    /// # Errors
    /// Envelope errors naming the sender (`SENDER_MISMATCH`, `SESSION_MISMATCH`, …).
    #[wasm_bindgen(js_name = "dkgRound2")]
    pub fn dkg_round2(
        &mut self,
        b_from: Vec<u16>,
        b_msgs: &Array,
        d_from: Vec<u16>,
        d_msgs: &Array,
    ) -> Result<JsValue, JsValue> {
        let deals = inbox_of_others(self.id, &b_from, b_msgs)?;
        let shares = inbox_of_others(self.id, &d_from, d_msgs)?;
        let (state, bad) = match self.take_phase() {
            Phase::Dkg1(s, bad) => (s, bad),
            other => {
                let e = order_error("LensParty", "dkgRound2", "dkgRound1", other.name());
                self.phase = other;
                return Err(e);
            }
        };
        let (state, complaint) = state.round2(&deals, &shares).map_err(to_js_error)?;
        self.phase = Phase::Dkg2(state, bad);
        Ok(round_output(complaint.as_deref(), core::iter::empty()))
    }

    /// DKG round 3: reads the complaints; returns the response broadcast (the openings of
    /// the shares complained about; empty in an honest run).
    ///
    /// # Errors
    /// Envelope errors naming the sender.
    #[wasm_bindgen(js_name = "dkgRound3")]
    pub fn dkg_round3(&mut self, b_from: Vec<u16>, b_msgs: &Array) -> Result<JsValue, JsValue> {
        let complaints = inbox_of_others(self.id, &b_from, b_msgs)?;
        let (state, bad) = match self.take_phase() {
            Phase::Dkg2(s, bad) => (s, bad),
            other => {
                let e = order_error("LensParty", "dkgRound3", "dkgRound2", other.name());
                self.phase = other;
                return Err(e);
            }
        };
        let (state, response) = state.round3(&complaints).map_err(to_js_error)?;
        let response = self.outgoing_response(response, &bad)?;
        self.phase = Phase::Dkg3(state);
        Ok(round_output(response.as_deref(), core::iter::empty()))
    }

    /// DKG finish: reads the responses; disqualifies and names cheating dealers and stores
    /// the key share (generation 0) made by the qualified ones.
    ///
    /// # Errors
    /// `NOT_ENOUGH_QUALIFIED` with every culprit (fewer than t dealers qualified).
    #[wasm_bindgen(js_name = "dkgFinish")]
    pub fn dkg_finish(&mut self, b_from: Vec<u16>, b_msgs: &Array) -> Result<JsValue, JsValue> {
        let responses = inbox_of_others(self.id, &b_from, b_msgs)?;
        let state = match self.take_phase() {
            Phase::Dkg3(s) => s,
            other => {
                let e = order_error("LensParty", "dkgFinish", "dkgRound3", other.name());
                self.phase = other;
                return Err(e);
            }
        };
        let outcome = state.finalize(&responses).map_err(to_js_error)?;
        let out = public_info(&outcome.public, true);
        out.ids("qualified", &outcome.qualified)
            .set("blame", lss_blame(&outcome.blame))
            .ids("dropped", &outcome.dropped);
        self.share = Some(outcome.key_share);
        Ok(out.into_js())
    }

    /// Signing round 1: fresh nonces; returns the commitments (`LNC1`) for the coordinator.
    ///
    /// # Errors
    /// `Error` without a key share.
    #[wasm_bindgen(js_name = "signRound1")]
    pub fn sign_round1(&mut self) -> Result<Vec<u8>, JsValue> {
        let share = self.share.as_ref().ok_or_else(no_share)?;
        let (nonces, commitments) = lens::commit(share, &mut self.rng);
        self.phase = Phase::Sign1(nonces);
        Ok(commitments.to_bytes())
    }

    /// Signing round 2: signs the package with the round-1 nonces (consumed either way);
    /// returns the signature share (`LNZ2`).
    ///
    /// # Errors
    /// `COMMITMENT_MISMATCH`, `EPOCH_MISMATCH`, `WRONG_CURVE`, decoding errors.
    #[wasm_bindgen(js_name = "signRound2")]
    pub fn sign_round2(&mut self, package: &[u8]) -> Result<Vec<u8>, JsValue> {
        if !matches!(self.phase, Phase::Sign1(_)) {
            return Err(order_error(
                "LensParty",
                "signRound2",
                "signRound1",
                self.phase.name(),
            ));
        }
        let package = SigningPackage::from_bytes(self.curve, package).map_err(to_js_error)?;
        let nonces = match self.take_phase() {
            Phase::Sign1(n) => n,
            other => {
                let e = order_error("LensParty", "signRound2", "signRound1", other.name());
                self.phase = other;
                return Err(e);
            }
        };
        let share = self.key()?;
        let sig = lens::sign(share, nonces, &package).map_err(to_js_error)?;
        let mut bytes = sig.to_bytes();
        if self.cheat_signing {
            let curve = self.curve;
            corrupt_trailing_scalar(curve, &mut bytes, |b| {
                lens::SignatureShare::from_bytes(curve, b).is_ok()
            });
        }
        Ok(bytes)
    }

    /// Reshare round 1 (dealers and receivers): returns `{ broadcast?, direct }`.
    /// `public_package` is the current generation's package (required without a share).
    ///
    /// # Errors
    /// `NOT_A_PARTICIPANT`, `MISSING_OLD_SHARE`, `DEALER_NOT_IN_OLD_SET`,
    /// `NOT_ENOUGH_DEALERS`, `INVALID_THRESHOLD`, `EPOCH_MISMATCH`, decoding errors.
    #[wasm_bindgen(js_name = "reshareRound1")]
    pub fn reshare_round1(
        &mut self,
        session: &[u8],
        dealers: Vec<u16>,
        receivers: Vec<u16>,
        threshold: u16,
        public_package: Option<Vec<u8>>,
    ) -> Result<JsValue, JsValue> {
        let session = session_id(session)?;
        let dealers = party_ids(&dealers)?;
        let receivers = party_ids(&receivers)?;
        self.phase = Phase::Idle;
        let public = match (&public_package, &self.share) {
            (Some(b), _) => PublicKeyPackage::from_bytes(self.curve, b).map_err(to_js_error)?,
            (None, Some(s)) => s.public().clone(),
            (None, None) => {
                return Err(js_sys::Error::new(
                    "LensParty.reshareRound1: publicPackage is required for a party without a share",
                )
                .into())
            }
        };
        let ceremony = reshare::Ceremony::reshare(session, &public, &dealers, &receivers, threshold)
            .map_err(to_js_error)?;
        let old = if ceremony.dealers().contains(&self.id) {
            self.share.as_ref()
        } else {
            None
        };
        let (state, out) = reshare::round1(&ceremony, self.id, old, &mut self.rng).map_err(to_js_error)?;
        let (direct, bad) = self.outgoing_shares(&out.shares)?;
        self.phase = Phase::Reshare1(state, bad);
        Ok(round_output(
            out.deal.as_deref(),
            direct.iter().map(|(p, b)| (*p, b.as_slice())),
        ))
    }

    /// Reshare round 2: reads deals (broadcasts) and shares (direct); returns the
    /// complaint broadcast (receivers).
    ///
    /// # Errors
    /// Envelope errors naming the sender (`SENDER_MISMATCH`, `SESSION_MISMATCH`, …).
    #[wasm_bindgen(js_name = "reshareRound2")]
    pub fn reshare_round2(
        &mut self,
        b_from: Vec<u16>,
        b_msgs: &Array,
        d_from: Vec<u16>,
        d_msgs: &Array,
    ) -> Result<JsValue, JsValue> {
        let deals = inbox_of_others(self.id, &b_from, b_msgs)?;
        let shares = inbox_of_others(self.id, &d_from, d_msgs)?;
        let (state, bad) = match self.take_phase() {
            Phase::Reshare1(s, bad) => (s, bad),
            other => {
                let e = order_error("LensParty", "reshareRound2", "reshareRound1", other.name());
                self.phase = other;
                return Err(e);
            }
        };
        let (state, complaint) = state.round2(&deals, &shares).map_err(to_js_error)?;
        self.phase = Phase::Reshare2(state, bad);
        Ok(round_output(complaint.as_deref(), core::iter::empty()))
    }

    /// Reshare round 3: reads complaints; returns the response broadcast (dealers).
    ///
    /// # Errors
    /// Envelope errors naming the sender.
    #[wasm_bindgen(js_name = "reshareRound3")]
    pub fn reshare_round3(&mut self, b_from: Vec<u16>, b_msgs: &Array) -> Result<JsValue, JsValue> {
        let complaints = inbox_of_others(self.id, &b_from, b_msgs)?;
        let (state, bad) = match self.take_phase() {
            Phase::Reshare2(s, bad) => (s, bad),
            other => {
                let e = order_error("LensParty", "reshareRound3", "reshareRound2", other.name());
                self.phase = other;
                return Err(e);
            }
        };
        let (state, response) = state.round3(&complaints).map_err(to_js_error)?;
        let response = self.outgoing_response(response, &bad)?;
        self.phase = Phase::Reshare3(state);
        Ok(round_output(response.as_deref(), core::iter::empty()))
    }

    /// Reshare finish: reads responses; a receiver stores its new share (replacing the
    /// old one); a dealer that left keeps none.
    ///
    /// # Errors
    /// `NOT_ENOUGH_QUALIFIED` with every culprit (the old share is kept).
    #[wasm_bindgen(js_name = "reshareFinish")]
    pub fn reshare_finish(&mut self, b_from: Vec<u16>, b_msgs: &Array) -> Result<JsValue, JsValue> {
        let responses = inbox_of_others(self.id, &b_from, b_msgs)?;
        let state = match self.take_phase() {
            Phase::Reshare3(s) => s,
            other => {
                let e = order_error("LensParty", "reshareFinish", "reshareRound3", other.name());
                self.phase = other;
                return Err(e);
            }
        };
        let outcome = state.finalize(&responses).map_err(to_js_error)?;
        let out = public_info(&outcome.public, outcome.key_share.is_some());
        out.ids("qualified", &outcome.qualified)
            .set("blame", lss_blame(&outcome.blame))
            .ids("dropped", &outcome.dropped);
        self.share = outcome.key_share;
        Ok(out.into_js())
    }

    /// The current generation's public data (see `LensPublicInfo`).
    ///
    /// # Errors
    /// `Error` without a key share.
    #[wasm_bindgen(js_name = "publicInfo")]
    pub fn public_info(&self) -> Result<JsValue, JsValue> {
        Ok(public_info(self.key()?.public(), true).into_js())
    }

    /// Seals the key share (`LNKS`) under the 32-byte `key` as a `QSNP` snapshot.
    ///
    /// # Errors
    /// `Error` without a share; `RangeError` for a key that is not 32 bytes.
    #[wasm_bindgen(js_name = "sealShare")]
    pub fn seal_share(&mut self, key: Vec<u8>) -> Result<Vec<u8>, JsValue> {
        let key = snapshot_key(key)?;
        let share = self.share.as_ref().ok_or_else(no_share)?;
        let public = share.public();
        let label = alloc::format!("lens-{}", self.curve.name());
        let meta = Metadata::new(
            &label,
            &public.group_key_bytes(),
            public.epoch().generation,
            public.threshold(),
            self.id,
            0,
        )
        .map_err(snapshot_error)?;
        let payload = share.to_bytes();
        seal_snapshot(&key, &meta, &payload, &mut self.rng)
    }

    /// Restores a sealed key share of this party; returns its public data.
    ///
    /// # Errors
    /// Snapshot errors (`SNAPSHOT_MALFORMED`, `SNAPSHOT_CORRUPT`, `WRONG_KEY`), decoding
    /// errors, `OLD_SHARE_MISMATCH` for another party's share.
    #[wasm_bindgen(js_name = "restoreShare")]
    pub fn restore_share(&mut self, snapshot: &[u8], key: Vec<u8>) -> Result<JsValue, JsValue> {
        let payload = open_snapshot(snapshot, key)?;
        let share = KeyShare::from_bytes(self.curve, &payload).map_err(to_js_error)?;
        if share.party() != self.id {
            return Err(to_js_error(crate::lss::Error::OldShareMismatch {
                party: share.party(),
            }));
        }
        let out = public_info(share.public(), true);
        self.share = Some(share);
        self.phase = Phase::Idle;
        Ok(out.into_js())
    }

    /// The message of an encoded signing package (check what you sign).
    ///
    /// # Errors
    /// Decoding errors.
    #[wasm_bindgen(js_name = "packageMessage")]
    pub fn package_message(curve_byte: u8, package: &[u8]) -> Result<Vec<u8>, JsValue> {
        let p = SigningPackage::from_bytes(curve(curve_byte)?, package).map_err(to_js_error)?;
        Ok(p.message().to_vec())
    }
}

/// The error of a method that needs a key share.
fn no_share() -> JsValue {
    js_sys::Error::new("LensParty: no key share yet (run the DKG first)").into()
}

/// `LensPublicInfo` of `public`, plus `hasShare`.
fn public_info(public: &PublicKeyPackage, has_share: bool) -> Obj {
    let epoch = public.epoch();
    let o = Obj::new();
    o.set("curve", public.curve().name())
        .bytes("groupKey", &public.group_key_bytes())
        .bytes("publicPackage", &public.to_bytes())
        .set("threshold", public.threshold())
        .ids("parties", public.parties())
        .set("generation", epoch.generation as f64)
        .bytes("transcriptHash", &epoch.transcript)
        .set("hasShare", has_share);
    o
}

/// The FROST coordinator of one Lens group (public data only).
#[wasm_bindgen(js_name = "LensCoordinatorWasm")]
pub struct LensCoordinatorWasm {
    public: PublicKeyPackage,
    package: Option<SigningPackage>,
}

#[wasm_bindgen(js_class = "LensCoordinatorWasm")]
impl LensCoordinatorWasm {
    /// The coordinator of the group whose public key package (`LNPK`) is `public_package`.
    ///
    /// # Errors
    /// Decoding errors; `RangeError` for an unknown curve.
    #[wasm_bindgen(constructor)]
    pub fn new(curve_byte: u8, public_package: &[u8]) -> Result<LensCoordinatorWasm, JsValue> {
        let public = PublicKeyPackage::from_bytes(curve(curve_byte)?, public_package).map_err(to_js_error)?;
        Ok(LensCoordinatorWasm {
            public,
            package: None,
        })
    }

    /// The group key bytes.
    #[wasm_bindgen(js_name = "groupKey")]
    pub fn group_key(&self) -> Vec<u8> {
        self.public.group_key_bytes()
    }

    /// The generation of the package.
    pub fn generation(&self) -> f64 {
        self.public.epoch().generation as f64
    }

    /// Builds the signing package for `message` from the signers' commitments; remembers
    /// it for [`LensCoordinatorWasm::aggregate`].
    ///
    /// # Errors
    /// `NOT_ENOUGH_SIGNERS`, `UNKNOWN_PARTY`, `EPOCH_MISMATCH`, `SENDER_MISMATCH`, decoding
    /// errors blaming the sender.
    #[wasm_bindgen(js_name = "signingPackage")]
    pub fn signing_package(
        &mut self,
        from: Vec<u16>,
        msgs: &Array,
        message: &[u8],
    ) -> Result<Vec<u8>, JsValue> {
        let received: Inbox = inbox(&from, msgs)?;
        let curve = self.public.curve();
        let commitments = decode_strict(&received, |b| lens::SigningCommitments::from_bytes(curve, b))?;
        self.package = None;
        let package = SigningPackage::new(&self.public, &commitments, message).map_err(to_js_error)?;
        let bytes = package.to_bytes();
        self.package = Some(package);
        Ok(bytes)
    }

    /// Aggregates the signature shares of the last package into a 64-byte signature.
    ///
    /// # Errors
    /// `INVALID_SIGNATURE_SHARE` with every culprit, `MISSING_MESSAGE`, decoding errors.
    pub fn aggregate(&mut self, from: Vec<u16>, msgs: &Array) -> Result<Vec<u8>, JsValue> {
        let package = self
            .package
            .as_ref()
            .ok_or_else(|| order_error("LensCoordinator", "aggregate", "signingPackage", "idle"))?;
        let received: Inbox = inbox(&from, msgs)?;
        let curve = self.public.curve();
        let shares = decode_strict(&received, |b| lens::SignatureShare::from_bytes(curve, b))?;
        let sig = lens::aggregate(&self.public, package, &shares).map_err(to_js_error)?;
        Ok(sig.to_bytes().to_vec())
    }

    /// The activation message of this package's generation.
    #[wasm_bindgen(js_name = "activationMessage")]
    pub fn activation_message(&self) -> Vec<u8> {
        reshare::activation_message(&self.public)
    }

    /// The activation certificate (`LSA1`) from a signature on the activation message.
    ///
    /// # Errors
    /// `INVALID_SIGNATURE`, decoding errors.
    #[wasm_bindgen(js_name = "activationCertificate")]
    pub fn activation_certificate(&self, signature: &[u8]) -> Result<Vec<u8>, JsValue> {
        let sig = lens::Signature::from_bytes(self.public.curve(), signature).map_err(to_js_error)?;
        let cert = reshare::activation_certificate(&self.public, &sig).map_err(to_js_error)?;
        Ok(cert.to_bytes())
    }
}

/// Standard verification of a Lens signature: `false` for any bad signature or key.
#[wasm_bindgen(js_name = "lensVerify")]
pub fn lens_verify(
    curve_byte: u8,
    group_key: &[u8],
    message: &[u8],
    signature: &[u8],
) -> Result<bool, JsValue> {
    Ok(lens::verify(curve(curve_byte)?, group_key, message, signature).is_ok())
}

/// Verifies a Lens activation certificate under `group_key` (33-byte or, on secp256k1,
/// 32-byte x-only): `false` for anything wrong.
#[wasm_bindgen(js_name = "lensVerifyActivation")]
pub fn lens_verify_activation(curve_byte: u8, group_key: &[u8], certificate: &[u8]) -> Result<bool, JsValue> {
    let curve = curve(curve_byte)?;
    let Ok(cert) = crate::lss::ActivationCertificate::from_bytes(certificate) else {
        return Ok(false);
    };
    if cert.kind != crate::lss::ActivationKind::Lens {
        return Ok(false);
    }
    let same_key = cert.group_key == group_key
        || (curve == Curve::Secp256k1 && group_key.len() == 32 && cert.group_key.get(1..) == Some(group_key));
    if !same_key {
        return Ok(false);
    }
    Ok(cert
        .verify(|m, s| lens::verify(curve, &cert.group_key, m, s).is_ok())
        .is_ok())
}

/// Decodes an activation certificate: `{ kind, transcriptHash, generation, groupKey,
/// signature, message }`.
///
/// # Errors
/// Decoding errors.
#[wasm_bindgen(js_name = "decodeActivationCertificate")]
pub fn decode_activation_certificate(certificate: &[u8]) -> Result<JsValue, JsValue> {
    let cert = crate::lss::ActivationCertificate::from_bytes(certificate).map_err(to_js_error)?;
    let o = Obj::new();
    o.set(
        "kind",
        match cert.kind {
            crate::lss::ActivationKind::Lens => "lens",
            crate::lss::ActivationKind::Pulsar => "pulsar",
        },
    )
    .bytes("transcriptHash", &cert.transcript_hash)
    .set("generation", cert.generation as f64)
    .bytes("groupKey", &cert.group_key)
    .bytes("signature", &cert.signature)
    .bytes("message", &cert.message());
    Ok(o.into_js())
}
