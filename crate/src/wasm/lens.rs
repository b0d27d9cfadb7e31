//! Lens (FROST, RFC 9591) for JavaScript: factories that start the library's Lens parties
//! as `PartyWasm`s, the key-share holder `LensKeyShareWasm`, and the verifiers.
//!
//! **Trust model.** FROST, dishonest majority: fewer than `t` parties cannot sign, the
//! coordinator is trusted only for liveness, and signatures verify under standard
//! Ed25519/BIP-340. See [`crate::lens`].
//!
//! A dealing's outcome (key generation, refresh, reshare) puts the new share in a fresh
//! `LensKeyShareWasm`; a refresh or reshare also ends with the activation certificate,
//! which the party checks with [`lens::verify_activation`] for the generation and dealing
//! it expects before reporting `activation.verified` — only then may a caller erase the
//! old share.

use alloc::boxed::Box;
use alloc::collections::BTreeSet;
use alloc::vec::Vec;

use js_sys::Array;
use wasm_bindgen::prelude::*;
use zeroize::Zeroizing;

use super::js::{
    self, activation, array32, generation, party_id, party_ids, range_error, start_with_cheat, verdict, Obj,
};
use super::party::{host, inbox_bound, Finished, PartyWasm};
use super::rng::RngWasm;
use super::{js_number, js_u32, to_js_error};
use crate::lens::{
    self, Ceremony, CoordinatorParty, Curve, DealerShare, KeyShare, PublicKeyPackage, SignerParty,
};
use crate::PartyId;

mod lifecycle;

/// The curve of wire byte `b` (1 Ed25519, 2 secp256k1, 3 Ristretto255), or a `RangeError`
/// that says which entry point has it when this module was built without it.
fn curve(b: u8) -> Result<Curve, JsValue> {
    Curve::from_byte(b).map_err(|_| {
        let name = match b {
            1 => "ed25519",
            2 => "secp256k1",
            3 => "ristretto255",
            _ => return range_error("unknown Lens curve"),
        };
        range_error(&alloc::format!(
            "Lens curve {name} is not in this module: import quasar-pq/lens/{name} or quasar-pq"
        ))
    })
}

/// A public key package (`LNPK`), its curve read from its header (the byte after magic
/// and version) and checked again by the strict decoder.
fn package(bytes: &[u8]) -> Result<PublicKeyPackage, JsValue> {
    let c = bytes.get(6).copied().ok_or_else(|| {
        to_js_error(crate::wire::Error::TooShort {
            needed: 7,
            got: bytes.len(),
        })
    })?;
    let c = Curve::from_byte(c).map_err(to_js_error)?;
    PublicKeyPackage::from_bytes(c, bytes).map_err(to_js_error)
}

/// A Lens key share, in WASM memory.
///
/// # Security
/// Holds the secret share: wiped when freed. Only [`LensKeyShareWasm::seal`] lets it out,
/// encrypted.
#[wasm_bindgen(js_name = "LensKeyShareWasm")]
pub struct LensKeyShareWasm {
    share: KeyShare,
}

/// `{ curve, groupKey, publicPackage, threshold, parties, generation, transcriptHash }`.
fn public_info(public: &PublicKeyPackage) -> Obj {
    let epoch = public.epoch();
    let o = Obj::new();
    o.set("curve", public.curve().name())
        .bytes("groupKey", &public.group_key_bytes())
        .bytes("publicPackage", &public.to_bytes())
        .set("threshold", public.threshold())
        .ids("parties", public.parties())
        .set("generation", js_number(epoch.generation))
        .bytes("transcriptHash", &epoch.transcript);
    o
}

#[wasm_bindgen(js_class = "LensKeyShareWasm")]
impl LensKeyShareWasm {
    /// The owner's id.
    pub fn id(&self) -> u16 {
        self.share.party().get()
    }

    /// The public data of the share's generation (see `public_info`).
    #[wasm_bindgen(js_name = "publicInfo")]
    pub fn public_info(&self) -> JsValue {
        let o = public_info(self.share.public());
        o.set("id", self.share.party().get());
        o.into_js()
    }

    /// Seals the share (`LNKS`) under the 32-byte snapshot `key` as a `QSNP` snapshot
    /// (`seed`: 32 bytes for the nonce).
    ///
    /// # Errors
    /// `RangeError` for a key or seed that is not 32 bytes; snapshot errors.
    pub fn seal(&self, key: Vec<u8>, seed: Vec<u8>) -> Result<Vec<u8>, JsValue> {
        let public = self.share.public();
        let label = alloc::format!("lens-{}", public.curve().name());
        let payload = self.share.to_bytes();
        let group_id = public.group_key_bytes();
        let share = js::ShareLabel {
            label: &label,
            group_id: &group_id,
            generation: public.epoch().generation,
            threshold: public.threshold(),
            party: self.share.party(),
        };
        js::seal(key, seed, share, &payload)
    }

    /// Restores a share sealed by [`LensKeyShareWasm::seal`] on curve byte `curve`.
    ///
    /// # Errors
    /// Snapshot errors (`SNAPSHOT_MALFORMED`, `SNAPSHOT_CORRUPT`, `WRONG_KEY`), decoding
    /// errors.
    pub fn restore(curve_byte: u8, snapshot: &[u8], key: Vec<u8>) -> Result<LensKeyShareWasm, JsValue> {
        let c = curve(curve_byte)?;
        let payload = js::open(snapshot, key)?;
        let share = KeyShare::from_bytes(c, &payload).map_err(to_js_error)?;
        Ok(LensKeyShareWasm { share })
    }

    /// Accepts the share a trusted dealer sent (`LNDS`, wiped after use) on curve byte
    /// `curve`, checked against the dealer's public key package `public_package` (`LNPK`,
    /// the same at every party): [`KeyShare::from_dealer`].
    ///
    /// # Errors
    /// Decoding errors; `WRONG_CURVE`, `WRONG_GENERATION`, `UNKNOWN_PARTY`,
    /// `INVALID_SHARE` (the share or commitment does not match the package).
    #[wasm_bindgen(js_name = "fromDealer")]
    pub fn from_dealer(
        curve_byte: u8,
        dealer_share: Vec<u8>,
        public_package: &[u8],
    ) -> Result<LensKeyShareWasm, JsValue> {
        let c = curve(curve_byte)?;
        let bytes = Zeroizing::new(dealer_share);
        let dealt = DealerShare::from_bytes(c, &bytes).map_err(to_js_error)?;
        let public = PublicKeyPackage::from_bytes(c, public_package).map_err(to_js_error)?;
        let share = KeyShare::from_dealer(dealt, &public).map_err(to_js_error)?;
        Ok(LensKeyShareWasm { share })
    }
}

/// A trusted dealer's key generation (RFC 9591 Appendix C, [`lens::deal`]) on curve byte
/// `curve` for `parties` with threshold `threshold`: `{ publicPackage, shares: [{ id,
/// dealerShare }] }`, the shares (`LNDS`, secret: each goes to its party only) by
/// increasing id.
///
/// # Errors
/// `INVALID_THRESHOLD`, `DUPLICATE_PARTY`; `RangeError` for bad ids or curve.
#[wasm_bindgen(js_name = "lensDeal")]
pub fn lens_deal(
    curve_byte: u8,
    parties: Vec<u16>,
    threshold: u16,
    rng: &mut RngWasm,
) -> Result<JsValue, JsValue> {
    let c = curve(curve_byte)?;
    let mut set = BTreeSet::new();
    for p in party_ids(&parties)? {
        if !set.insert(p) {
            return Err(to_js_error(crate::lss::Error::DuplicateParty { party: p }));
        }
    }
    let (dealt, public) = lens::deal(c, threshold, &set, rng.get()).map_err(to_js_error)?;
    let shares = Array::new();
    for (p, d) in &dealt {
        let e = Obj::new();
        e.set("id", p.get()).bytes("dealerShare", &d.to_bytes());
        shares.push(&e.into_js());
    }
    let o = Obj::new();
    o.bytes("publicPackage", &public.to_bytes()).set("shares", shares);
    Ok(o.into_js())
}

/// The `PartyWasm` of a started Lens dealing.
fn dealing_party(
    c: &Ceremony,
    me: PartyId,
    share: Option<&KeyShare>,
    expect: Option<u64>,
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let rng = rng.get();
    let (party, out) = start_with_cheat!(c.start(me, share, rng),
        k => c.start_cheating(me, share, k, rng));
    let n = c.participants().len();
    // A threshold is at most n.
    let bound = inbox_bound(n, 512 + 96 * (2 * n));
    let finish = Box::new(move |o: lens::Outcome| {
        let info = public_info(&o.public);
        info.ids("qualified", &o.qualified).blame("blame", &o.blame);
        if let Some(cert) = &o.activation {
            // The generation this party expects (old + 1) and the dealing it saw.
            let epoch = o.public.epoch();
            let verified = expect
                .is_some_and(|g| lens::verify_activation(&o.public, g, &epoch.transcript, cert).is_ok());
            info.set("activation", activation(cert, verified));
        }
        if let Some(share) = o.key_share {
            info.set("keyShare", LensKeyShareWasm { share });
        }
        Finished::ok(info, o.dropped)
    });
    Ok(host("lens-dealing", (party, out), bound, finish))
}

/// Starts party `me` of a Lens key generation (the LSS Feldman DKG) among `parties` with
/// threshold `threshold` on curve byte `curve`.
///
/// # Errors
/// `INVALID_THRESHOLD`, `DUPLICATE_PARTY`, `NOT_A_PARTICIPANT`; `RangeError` for bad ids
/// or a session that is not 32 bytes.
#[wasm_bindgen(js_name = "lensKeygen")]
pub fn lens_keygen(
    curve_byte: u8,
    session: &[u8],
    parties: Vec<u16>,
    threshold: u16,
    me: u16,
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let c = Ceremony::keygen(
        curve(curve_byte)?,
        array32("session", session)?,
        &party_ids(&parties)?,
        threshold,
    )
    .map_err(to_js_error)?;
    dealing_party(&c, party_id(me)?, None, None, rng)
}

/// Starts the holder of `share` in the reshare `reshare` of its key (its session, dealers,
/// receivers and new threshold); the old package is the share's own.
///
/// # Errors
/// As `Ceremony::reshare` and `Ceremony::start`.
#[wasm_bindgen(js_name = "lensReshare")]
pub fn lens_reshare(
    share: &LensKeyShareWasm,
    reshare: js::Reshare,
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let s = &share.share;
    reshare_party(s.public(), js::Member::holder(s.party(), s, rng), reshare)
}

/// Starts `member` in the reshare `r` of the key of `public`.
fn reshare_party(
    public: &PublicKeyPackage,
    member: js::Member<'_, KeyShare>,
    r: js::Reshare,
) -> Result<PartyWasm, JsValue> {
    let c =
        Ceremony::reshare(r.session, public, &r.dealers, &r.receivers, r.threshold).map_err(to_js_error)?;
    let next = Some(public.epoch().generation + 1);
    dealing_party(&c, member.id, member.share, next, member.rng)
}

/// Starts new receiver `me` (no share yet) in the reshare `reshare` of the key whose
/// current public key package (`LNPK`) is `public_package`.
///
/// # Errors
/// Decoding errors of the package; as [`lens_reshare`].
#[wasm_bindgen(js_name = "lensReshareJoin")]
pub fn lens_reshare_join(
    public_package: &[u8],
    reshare: js::Reshare,
    me: u16,
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let public = package(public_package)?;
    reshare_party(&public, js::Member::joining(party_id(me)?, rng), reshare)
}

/// Starts the holder of `share` in a refresh (same set and threshold, fresh shares) dealt
/// by `dealers`.
///
/// # Errors
/// As `Ceremony::refresh` and `Ceremony::start`.
#[wasm_bindgen(js_name = "lensRefresh")]
pub fn lens_refresh(
    share: &LensKeyShareWasm,
    session: &[u8],
    dealers: Vec<u16>,
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let s = &share.share;
    let c = Ceremony::refresh(array32("session", session)?, s.public(), &party_ids(&dealers)?)
        .map_err(to_js_error)?;
    let next = s.public().epoch().generation + 1;
    dealing_party(&c, s.party(), Some(s), Some(next), rng)
}

/// Starts a FROST signer: signs `message` with `share`, sending to `coordinator`.
///
/// # Errors
/// `RESERVED_MESSAGE` for a message that starts with an activation tag.
#[wasm_bindgen(js_name = "lensSign")]
pub fn lens_sign(
    share: &LensKeyShareWasm,
    coordinator: u16,
    message: &[u8],
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let coordinator = party_id(coordinator)?;
    let rng = rng.get();
    let (party, out) = start_with_cheat!(SignerParty::start(&share.share, coordinator, message, rng),
        k => SignerParty::start_cheating(&share.share, coordinator, message, k, rng));
    let n = share.share.public().parties().len();
    let bound = inbox_bound(1, message.len() + 256 + 160 * n);
    let finish = Box::new(|o: lens::SignerOutcome| Finished::listing("signers", &o.signers, o.dropped));
    Ok(host("lens-signer", (party, out), bound, finish))
}

/// Starts a FROST coordinator `me` for signing `message` under the key of the public key
/// package `public_package` (`LNPK`). Holds public data only.
///
/// # Errors
/// Decoding errors of the package; a message over the maximum.
#[wasm_bindgen(js_name = "lensCoordinate")]
pub fn lens_coordinate(public_package: &[u8], me: u16, message: &[u8]) -> Result<PartyWasm, JsValue> {
    let public = package(public_package)?;
    let (party, out) = CoordinatorParty::start(party_id(me)?, &public, message).map_err(to_js_error)?;
    let bound = inbox_bound(public.parties().len(), 512);
    let finish = Box::new(|o: lens::CoordinatorOutcome| {
        let info = Obj::new();
        info.bytes("signature", &o.signature.to_bytes())
            .ids("signers", &o.signers);
        Finished::ok(info, o.dropped)
    });
    Ok(host("lens-coordinator", (party, out), bound, finish))
}

/// Standard verification (Ed25519, BIP-340, RFC 9591 §6.2) of `signature` on `message`
/// under `group_key`: `false` for any bad signature or key, never an error for them.
///
/// # Errors
/// `RangeError` for an unknown curve.
#[wasm_bindgen(js_name = "lensVerify")]
pub fn lens_verify(
    curve_byte: u8,
    group_key: &[u8],
    message: &[u8],
    signature: &[u8],
) -> Result<bool, JsValue> {
    Ok(lens::verify(curve(curve_byte)?, group_key, message, signature).is_ok())
}

/// Whether `certificate` activates generation `generation` of the dealing with transcript
/// hash `transcript` for the key of `public_package` (the new generation's `LNPK`): a
/// verdict `{ ok, code?, reason? }` (`ACTIVATION_WRONG_GENERATION`, …); an attacker's
/// certificate never throws.
///
/// # Errors
/// Decoding errors of the package (the verifier's own input); `RangeError` for a bad
/// generation or a transcript hash that is not 32 bytes.
#[wasm_bindgen(js_name = "lensVerifyActivation")]
pub fn lens_verify_activation(
    public_package: &[u8],
    generation_number: f64,
    transcript: &[u8],
    certificate: &[u8],
) -> Result<JsValue, JsValue> {
    let public = package(public_package)?;
    let g = generation(generation_number)?;
    let transcript = array32("transcript hash", transcript)?;
    let result = crate::lss::ActivationCertificate::from_bytes(certificate)
        .map_err(crate::Error::from)
        .and_then(|cert| lens::verify_activation(&public, g, &transcript, &cert).map_err(crate::Error::from));
    Ok(verdict(result))
}

/// The protocol constants the JS package exports, from their one definition here:
/// `{ lensActivationTag, pulsarActivationContext, lssActivationTag, lensMaxMessageBytes,
/// pulsarMaxMessageBytes }`.
#[wasm_bindgen(js_name = "protocolConstants")]
pub fn protocol_constants() -> JsValue {
    use crate::lss::ActivationKind;
    let o = Obj::new();
    o.set("lensActivationTag", ActivationKind::Lens.tag())
        .set("lssActivationTag", ActivationKind::Lss.tag())
        .set("lensMaxMessageBytes", js_u32(lens::MAX_MESSAGE_LEN));
    // Pulsar custody's, in the modules that have it (its group is Ristretto255).
    #[cfg(feature = "ristretto255")]
    o.bytes(
        "pulsarActivationContext",
        crate::pulsar::custody::ACTIVATION_CONTEXT,
    )
    .set(
        "pulsarMaxMessageBytes",
        js_u32(crate::pulsar::custody::session::MAX_MESSAGE_LEN),
    );
    // The demo build (feature `hazmat`) adds the names of its misbehaviours.
    #[cfg(feature = "hazmat")]
    {
        let names: js_sys::Array = crate::party::hazmat::Cheat::ALL
            .iter()
            .map(|c| JsValue::from_str(c.name()))
            .collect();
        o.set("cheats", names);
    }
    o.into_js()
}
