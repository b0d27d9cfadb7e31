//! A member's keyring held in WASM memory: one definition for every scheme's keyring
//! class, and the fields a reshare outcome reports about it.
//!
//! ```text
//! keyring_class!("doc line", LensKeyringWasm, "LensKeyringWasm", KeyShare, LensKeyShareWasm)
//!   └─ a class with empty(), fromShare(share), generation(), pendingGeneration(),
//!      publicInfo(), current(); the scheme says how in `JsCustody`
//! reshare_fields(info, …)   what a reshare outcome says: qualified, blame, activation,
//!                           and the verdict on it (`activated`)
//! ```
//!
//! `#[wasm_bindgen]` cannot export a generic type, so the class is stamped per scheme by
//! [`keyring_class`]; everything it does is written once, here or in [`Keyring`].

use wasm_bindgen::prelude::*;

use super::js::Obj;
use super::js_error;
use super::js_number;
use crate::lss::ActivationCertificate;
use crate::party::keyring::{Activated, Custody, Keyring};
use crate::party::Blame;
use crate::PartyId;

/// A scheme's key share as a JS keyring class holds it.
pub(super) trait JsCustody: Custody {
    /// The JS class of one share (`LensKeyShareWasm`, `PulsarKeyShareWasm`).
    type Holder;

    /// The share inside `holder`.
    fn share_of(holder: &Self::Holder) -> &Self;

    /// `self` in its JS class.
    fn into_holder(self) -> Self::Holder;

    /// A copy of the share.
    ///
    /// # Errors
    /// The scheme's refusal to rebuild it (it was checked when made, so never in practice).
    fn copy(&self) -> Result<Self, JsValue>;

    /// The share's public data, as its class's `publicInfo` shows it (with `id`).
    fn public_info(&self) -> Obj;
}

/// The current share of `keyring`.
///
/// # Errors
/// `MISSING_OLD_SHARE` for an empty keyring.
pub(super) fn current<S: Custody>(keyring: &Keyring<S>) -> Result<&S, JsValue> {
    keyring.current().ok_or_else(|| {
        js_error(
            "the keyring holds no current share",
            "MISSING_OLD_SHARE",
            "lss",
            &[],
        )
    })
}

/// The current share's public data, or `null` for an empty keyring.
pub(super) fn public_info<S: JsCustody>(keyring: &Keyring<S>) -> JsValue {
    keyring
        .current()
        .map_or(JsValue::NULL, |s| s.public_info().into_js())
}

/// Sets what a reshare outcome says on `info`: `path` (`"reshare"`), `qualified`,
/// `blame`, the `activation` certificate (if the round collected one) and the verdict on
/// it, `activated`: `{ ok: true, generation, member, erased? }` or `{ ok: false, code,
/// reason }`.
pub(super) fn reshare_fields(
    info: &Obj,
    qualified: &[PartyId],
    blame: &[Blame],
    certificate: Option<&ActivationCertificate>,
    activated: &Result<Activated, crate::Error>,
) {
    info.set("path", "reshare")
        .ids("qualified", qualified)
        .blame("blame", blame);
    if let Some(cert) = certificate {
        info.set("activation", super::js::activation(cert, activated.is_ok()));
    }
    let verdict = Obj::new();
    match activated {
        Ok(a) => {
            verdict
                .set("ok", true)
                .set("generation", js_number(a.generation()))
                .set("member", a.member());
            if let Some(g) = a.erased() {
                verdict.set("erased", js_number(g));
            }
        }
        Err(e) => {
            verdict
                .set("ok", false)
                .set("code", e.code())
                .set("reason", alloc::format!("{e}"));
        }
    }
    info.set("activated", verdict.into_js());
}

/// Declares the keyring class `$class` (JS name `$js`, first doc line `$doc`) of shares
/// `$share`, whose own class is `$holder`: a member's current share and a pending
/// generation, in WASM memory.
macro_rules! keyring_class {
    ($doc:tt, $class:ident, $js:tt, $share:ident, $holder:ident) => {
        #[doc = $doc]
        /// Only a verified activation certificate (inside a reshare party) promotes the
        /// pending generation and erases the old share.
        ///
        /// # Security
        /// Holds secret shares: wiped when freed.
        #[wasm_bindgen(js_name = $js)]
        pub struct $class {
            keyring: $crate::party::keyring::Keyring<$share>,
        }

        impl $class {
            fn of(keyring: $crate::party::keyring::Keyring<$share>) -> $class {
                $class { keyring }
            }

            fn current_share(&self) -> Result<&$share, JsValue> {
                $crate::wasm::keyring::current(&self.keyring)
            }
        }

        #[wasm_bindgen(js_class = $js)]
        impl $class {
            /// An empty keyring (a member joining the group at a reshare).
            pub fn empty() -> $class {
                $class::of($crate::party::keyring::Keyring::empty())
            }

            /// A keyring holding a copy of `share` as its current generation.
            ///
            /// # Errors
            /// As the share's copy (never in practice).
            #[wasm_bindgen(js_name = "fromShare")]
            pub fn from_share(share: &$holder) -> Result<$class, JsValue> {
                let copy = $crate::wasm::keyring::JsCustody::copy(
                    <$share as $crate::wasm::keyring::JsCustody>::share_of(share),
                )?;
                Ok($class::of($crate::party::keyring::Keyring::new(copy)))
            }

            /// The current generation, or `undefined` (an empty keyring).
            pub fn generation(&self) -> Option<f64> {
                self.keyring.generation().map($crate::wasm::js_number)
            }

            /// The generation dealt but not yet activated, or `undefined`.
            #[wasm_bindgen(js_name = "pendingGeneration")]
            pub fn pending_generation(&self) -> Option<f64> {
                self.keyring
                    .pending_generation()
                    .map($crate::wasm::js_number)
            }

            /// The current share's public data (as its share class's `publicInfo`), or
            /// `null`.
            #[wasm_bindgen(js_name = "publicInfo")]
            pub fn public_info(&self) -> JsValue {
                $crate::wasm::keyring::public_info(&self.keyring)
            }

            /// A copy of the current share (to seal it, or for the single-protocol
            /// factories).
            ///
            /// # Errors
            /// `MISSING_OLD_SHARE` for an empty keyring.
            pub fn current(&self) -> Result<$holder, JsValue> {
                let copy = $crate::wasm::keyring::JsCustody::copy(self.current_share()?)?;
                Ok($crate::wasm::keyring::JsCustody::into_holder(copy))
            }
        }
    };
}

pub(super) use keyring_class;
