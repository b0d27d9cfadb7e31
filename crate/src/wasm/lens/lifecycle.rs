//! The Lens lifecycle for JavaScript: the library's composite parties
//! ([`crate::lens::lifecycle`]) started as `PartyWasm`s, and a member's keyring held in WASM
//! memory ([`LensKeyringWasm`]).
//!
//! | path | member | coordinator | outcome |
//! |---|---|---|---|
//! | key generation | [`member_keygen`] | — | the member's keyring |
//! | sign | [`member_sign`] (from its keyring) | [`coordinator_sign`] | the signature |
//! | refresh or reshare → activation | [`member_reshare`] (its keyring moves in and comes back) | — | the keyring, the new generation current only if the activation verified |

use alloc::boxed::Box;
use alloc::vec::Vec;

use wasm_bindgen::prelude::*;

use super::super::js::{self, activation, array32, party_id, party_ids, Obj};
use super::super::party::{host, inbox_bound, Finished, PartyWasm};
use super::super::rng::RngWasm;
use super::super::{js_error, to_js_error};
use super::{curve, package, public_info, LensKeyShareWasm};
use crate::lens::lifecycle::{Coordinator, Member, MemberOutcome};
use crate::lens::{Ceremony, CoordinatorOutcome, KeyShare};
use crate::party::keyring::Keyring;

/// The largest message of a path among `n` parties with threshold `t` signing `message`
/// bytes.
fn bound(n: usize, t: usize, message: usize) -> usize {
    inbox_bound(n + 1, (512 + 96 * (n + t)).max(message + 256 + 160 * n))
}

/// A member's outcome for JS: `path` (`"keygen"`, `"sign"`, `"reshare"`) and its fields.
fn member_outcome(o: MemberOutcome) -> Result<Finished, JsValue> {
    match o {
        MemberOutcome::Setup(s) => {
            let info = public_info(&s.public);
            info.set("path", "keygen")
                .ids("qualified", &s.qualified)
                .blame("blame", &s.blame)
                .set("keyring", LensKeyringWasm::of(Keyring::new(s.key_share)));
            Finished::ok(info, s.dropped)
        }
        MemberOutcome::Signed(r) => {
            let info = Obj::new();
            info.set("path", "sign").ids("signers", &r.signers);
            Finished::ok(info, r.dropped)
        }
        MemberOutcome::Reshared(r) => {
            let info = public_info(&r.public);
            info.set("path", "reshare")
                .ids("qualified", &r.qualified)
                .blame("blame", &r.blame);
            if let Some(cert) = &r.certificate {
                info.set("activation", activation(cert, r.activated.is_ok()));
            }
            let verdict = Obj::new();
            match &r.activated {
                Ok(a) => {
                    verdict
                        .set("ok", true)
                        .set("generation", a.generation() as f64)
                        .set("member", a.member());
                    if let Some(g) = a.erased() {
                        verdict.set("erased", g as f64);
                    }
                }
                Err(e) => {
                    verdict
                        .set("ok", false)
                        .set("code", e.code())
                        .set("reason", alloc::format!("{e}"));
                }
            }
            info.set("activated", verdict.into_js())
                .set("keyring", LensKeyringWasm::of(r.keyring));
            Finished::ok(info, r.dropped)
        }
    }
}

/// Starts member `me` of a key generation among `members` with threshold `threshold` on
/// the curve of byte `curve_byte`.
///
/// # Errors
/// As `Ceremony::keygen` and `Member::keygen`; `RangeError`s.
#[wasm_bindgen(js_name = "lensLifecycleMemberKeygen")]
pub fn member_keygen(
    curve_byte: u8,
    session: &[u8],
    members: Vec<u16>,
    threshold: u16,
    me: u16,
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let c = Ceremony::keygen(
        curve(curve_byte)?,
        array32("session", session)?,
        &party_ids(&members)?,
        threshold,
    )
    .map_err(to_js_error)?;
    let started = Member::keygen(party_id(me)?, &c, rng.get()).map_err(to_js_error)?;
    let b = bound(members.len(), usize::from(threshold), 0);
    Ok(host("lens-member", started, b, Box::new(member_outcome)))
}

/// Starts the holder of `keyring` as a signer of `message` for `coordinator`.
///
/// # Errors
/// `MISSING_OLD_SHARE` for an empty keyring; as `Member::sign`.
#[wasm_bindgen(js_name = "lensLifecycleMemberSign")]
pub fn member_sign(
    keyring: &LensKeyringWasm,
    coordinator: u16,
    message: &[u8],
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let share = keyring.current_share()?;
    let started = Member::sign(share, party_id(coordinator)?, message, rng.get()).map_err(to_js_error)?;
    let b = bound(share.public().parties().len(), 0, message.len());
    Ok(host("lens-member", started, b, Box::new(member_outcome)))
}

/// Starts coordinator `me` of the signature of `message` under the key of `public_package`
/// (`LNPK`).
///
/// # Errors
/// As `Coordinator::sign`; decoding errors.
#[wasm_bindgen(js_name = "lensLifecycleCoordinatorSign")]
pub fn coordinator_sign(public_package: &[u8], me: u16, message: &[u8]) -> Result<PartyWasm, JsValue> {
    let public = package(public_package)?;
    let started = Coordinator::sign(party_id(me)?, &public, message).map_err(to_js_error)?;
    let b = bound(public.parties().len(), 0, 0);
    let finish = Box::new(|o: CoordinatorOutcome| {
        let info = Obj::new();
        info.bytes("signature", &o.signature.to_bytes())
            .ids("signers", &o.signers);
        Finished::ok(info, o.dropped)
    });
    Ok(host("lens-coordinator", started, b, finish))
}

/// Starts member `me` of the reshare `reshare` with its `keyring` (empty for a joining
/// member, which is given the current `public_package`). On success the keyring moves into
/// the party and comes back as the outcome's `keyring`; on error it is untouched.
///
/// # Errors
/// `MISSING_OLD_SHARE` for an empty keyring without a package; as `Ceremony::reshare` and
/// `Member::reshare`.
#[wasm_bindgen(js_name = "lensLifecycleMemberReshare")]
pub fn member_reshare(
    me: u16,
    keyring: &mut LensKeyringWasm,
    public_package: Option<Vec<u8>>,
    reshare: js::Reshare,
    rng: &mut RngWasm,
) -> Result<PartyWasm, JsValue> {
    let me = party_id(me)?;
    let public = match (keyring.keyring.current(), public_package) {
        (Some(s), _) => s.public().clone(),
        (None, Some(p)) => package(&p)?,
        (None, None) => return Err(to_js_error(crate::lss::Error::MissingOldShare { party: me })),
    };
    let c = Ceremony::reshare(
        reshare.session,
        &public,
        &reshare.dealers,
        &reshare.receivers,
        reshare.threshold,
    )
    .map_err(to_js_error)?;
    let n = public.parties().len() + reshare.receivers.len();
    let started = Member::reshare(me, &mut keyring.keyring, &c, rng.get()).map_err(to_js_error)?;
    let b = bound(n, usize::from(reshare.threshold), 0);
    Ok(host("lens-member", started, b, Box::new(member_outcome)))
}

/// A Lens member's keyring: its current share and a pending generation, in WASM memory.
/// Only a verified activation certificate (inside a reshare party) promotes the pending
/// generation and erases the old share.
///
/// # Security
/// Holds secret shares: wiped when freed.
#[wasm_bindgen(js_name = "LensKeyringWasm")]
pub struct LensKeyringWasm {
    keyring: Keyring<KeyShare>,
}

impl LensKeyringWasm {
    fn of(keyring: Keyring<KeyShare>) -> LensKeyringWasm {
        LensKeyringWasm { keyring }
    }

    fn current_share(&self) -> Result<&KeyShare, JsValue> {
        self.keyring.current().ok_or_else(|| {
            js_error(
                "the keyring holds no current share",
                "MISSING_OLD_SHARE",
                "lss",
                &[],
            )
        })
    }
}

#[wasm_bindgen(js_class = "LensKeyringWasm")]
impl LensKeyringWasm {
    /// An empty keyring (a member joining the group at a reshare).
    pub fn empty() -> LensKeyringWasm {
        LensKeyringWasm::of(Keyring::empty())
    }

    /// A keyring holding a copy of `share` as its current generation.
    #[wasm_bindgen(js_name = "fromShare")]
    pub fn from_share(share: &LensKeyShareWasm) -> LensKeyringWasm {
        LensKeyringWasm::of(Keyring::new(share.share.duplicate()))
    }

    /// The current generation, or `undefined` (an empty keyring).
    pub fn generation(&self) -> Option<f64> {
        self.keyring.generation().map(|g| g as f64)
    }

    /// The generation dealt but not yet activated, or `undefined`.
    #[wasm_bindgen(js_name = "pendingGeneration")]
    pub fn pending_generation(&self) -> Option<f64> {
        self.keyring.pending_generation().map(|g| g as f64)
    }

    /// The current share's public data (as `LensKeyShareWasm::publicInfo`), or `null`.
    #[wasm_bindgen(js_name = "publicInfo")]
    pub fn public_info(&self) -> JsValue {
        match self.keyring.current() {
            None => JsValue::NULL,
            Some(s) => {
                let o = public_info(s.public());
                o.set("id", s.party().get());
                o.into_js()
            }
        }
    }

    /// A copy of the current share (to seal it, or for the single-protocol factories).
    ///
    /// # Errors
    /// `MISSING_OLD_SHARE` for an empty keyring.
    pub fn current(&self) -> Result<LensKeyShareWasm, JsValue> {
        Ok(LensKeyShareWasm {
            share: self.current_share()?.duplicate(),
        })
    }
}
