//! The Pulsar key-share holders: a DKG share before the key ceremony, and the custody share
//! (`PCKS`) with its certified group key. Secrets stay in WASM memory; only `seal` lets a
//! share out, encrypted.

use alloc::vec::Vec;

use wasm_bindgen::prelude::*;

use super::super::js::{self, Obj};
use super::super::{js_number, to_js_error};
use crate::lss::{self, GroupPublic};
use crate::pulsar::custody::{GroupKey, KeyShare};
use crate::vss::Ristretto255 as R;

/// A copy of an LSS share (the type has no `Clone`: it is secret).
pub(super) fn dup(s: &lss::KeyShare<R>) -> lss::KeyShare<R> {
    lss::KeyShare {
        id: s.id,
        share: s.share.duplicate(),
        public: s.public.clone(),
    }
}

/// `{ sharing, threshold, parties, generation, transcriptHash }` of a sharing.
pub(super) fn sharing_info(public: &GroupPublic<R>) -> Obj {
    let o = Obj::new();
    o.bytes("sharing", &public.to_bytes())
        .set("threshold", public.threshold())
        .ids("parties", public.parties())
        .set("generation", js_number(public.generation()))
        .bytes("transcriptHash", public.transcript_hash());
    o
}

/// Adds `level`, `groupKey` (the raw FIPS 204 key) and `keyRecord` (`PCGK`).
pub(super) fn key_fields(o: &Obj, key: &GroupKey) {
    o.set("level", key.mode().level())
        .bytes("groupKey", key.public_key())
        .bytes("keyRecord", &key.to_bytes());
}

/// An LSS key share of the Pulsar DKG, before the key ceremony certified a group key.
///
/// # Security
/// Holds the secret share: wiped when freed.
#[wasm_bindgen(js_name = "LssShareWasm")]
pub struct LssShareWasm {
    pub(super) share: lss::KeyShare<R>,
}

#[wasm_bindgen(js_class = "LssShareWasm")]
impl LssShareWasm {
    /// The owner's id.
    pub fn id(&self) -> u16 {
        self.share.id().get()
    }

    /// `{ id, sharing, threshold, parties, generation, transcriptHash }`.
    #[wasm_bindgen(js_name = "publicInfo")]
    pub fn public_info(&self) -> JsValue {
        let o = sharing_info(self.share.public());
        o.set("id", self.share.id().get());
        o.into_js()
    }
}

/// A Pulsar custody key share (`PCKS`): the LSS share and the certified group key.
///
/// # Security
/// Holds the secret share: wiped when freed. Only [`PulsarKeyShareWasm::seal`] lets it
/// out, encrypted; restoring re-checks the group key's certificate.
#[wasm_bindgen(js_name = "PulsarKeyShareWasm")]
pub struct PulsarKeyShareWasm {
    pub(super) share: KeyShare,
}

#[wasm_bindgen(js_class = "PulsarKeyShareWasm")]
impl PulsarKeyShareWasm {
    /// The owner's id.
    pub fn id(&self) -> u16 {
        self.share.id().get()
    }

    /// `{ id, sharing, threshold, parties, generation, transcriptHash, level, groupKey,
    /// keyRecord }`.
    #[wasm_bindgen(js_name = "publicInfo")]
    pub fn public_info(&self) -> JsValue {
        let o = sharing_info(self.share.public());
        o.set("id", self.share.id().get());
        key_fields(&o, self.share.group_key());
        o.into_js()
    }

    /// Seals the share (`PCKS`) under the 32-byte snapshot `key` (`seed`: 32 bytes).
    ///
    /// # Errors
    /// `RangeError` for a key or seed that is not 32 bytes; snapshot errors.
    pub fn seal(&self, key: Vec<u8>, seed: Vec<u8>) -> Result<Vec<u8>, JsValue> {
        let s = &self.share;
        let payload = s.to_bytes();
        let share = js::ShareLabel {
            label: "pulsar-custody",
            group_id: s.group_key().commitment(),
            generation: s.generation(),
            threshold: s.public().threshold(),
            party: s.id(),
        };
        js::seal(key, seed, share, &payload)
    }

    /// Restores a share sealed by [`PulsarKeyShareWasm::seal`], re-checking that its group
    /// key is certified for its sharing.
    ///
    /// # Errors
    /// Snapshot errors, decoding errors, `ACTIVATION_*`/`GROUP_MISMATCH` for a forged key.
    pub fn restore(snapshot: &[u8], key: Vec<u8>) -> Result<PulsarKeyShareWasm, JsValue> {
        let payload = js::open(snapshot, key)?;
        let share = KeyShare::from_bytes(&payload).map_err(to_js_error)?;
        Ok(PulsarKeyShareWasm { share })
    }
}
