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

use super::super::js::{self, array32, party_id, party_ids, start_with_cheat, Obj};
use super::super::keyring::{keyring_class, reshare_fields, JsCustody};
use super::super::party::{host, inbox_bound, Finished, PartyWasm};
use super::super::rng::RngWasm;
use super::super::to_js_error;
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
            reshare_fields(
                &info,
                &r.qualified,
                &r.blame,
                r.certificate.as_ref(),
                &r.activated,
            );
            info.set("keyring", LensKeyringWasm::of(r.keyring));
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
    let me = party_id(me)?;
    let rng = rng.get();
    let started = start_with_cheat!(Member::keygen(me, &c, rng),
        k => Member::keygen_cheating(me, &c, k, rng));
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
    let coordinator = party_id(coordinator)?;
    let rng = rng.get();
    let started = start_with_cheat!(Member::sign(share, coordinator, message, rng),
        k => Member::sign_cheating(share, coordinator, message, k, rng));
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
    let rng = rng.get();
    let ring = &mut keyring.keyring;
    let started = start_with_cheat!(Member::reshare(me, ring, &c, rng),
        k => Member::reshare_cheating(me, ring, &c, k, rng));
    let b = bound(n, usize::from(reshare.threshold), 0);
    Ok(host("lens-member", started, b, Box::new(member_outcome)))
}

impl JsCustody for KeyShare {
    type Holder = LensKeyShareWasm;

    fn share_of(holder: &LensKeyShareWasm) -> &KeyShare {
        &holder.share
    }

    fn into_holder(self) -> LensKeyShareWasm {
        LensKeyShareWasm { share: self }
    }

    fn copy(&self) -> Result<KeyShare, JsValue> {
        Ok(self.duplicate())
    }

    fn public_info(&self) -> Obj {
        let o = public_info(self.public());
        o.set("id", self.party().get());
        o
    }
}

keyring_class!(
    "A Lens member's keyring: its current share and a pending generation, in WASM memory.",
    LensKeyringWasm,
    "LensKeyringWasm",
    KeyShare,
    LensKeyShareWasm
);
