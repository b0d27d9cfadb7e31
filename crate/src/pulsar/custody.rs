//! Pulsar custody: any t-of-n ML-DSA, the combiner trusted while it signs.
//!
//! **Trust model.** The 32-byte ML-DSA seed is derived from a group secret that is
//! Shamir-shared with Pedersen (perfectly hiding) commitments. At rest no party, and no
//! coalition below t, knows the key. To sign, t parties release their shares, encrypted,
//! to one combiner, which rebuilds the key in memory, signs, verifies, and zeroizes. The
//! combiner is trusted for that moment.
//!
//! **Not protected:** a malicious or compromised combiner can keep the key it rebuilt
//! (and from then on sign anything, whatever the threshold or later resharing); a
//! combiner can also refuse to sign. Signers cannot tell an honest combiner from one that
//! keeps the key. Fewer than `t` corrupt parties learn nothing about the key, and a party
//! that sends a bad share or a tampered or replayed envelope is named.
//!
//! Signatures are standard FIPS 204 (ML-DSA-44/65/87, pure interface with a context
//! string): they verify with [`crate::mldsa::verify`] or any other ML-DSA verifier.
//! Committees of any size up to [`crate::lss::MAX_PARTIES`], any `1 ≤ t ≤ n`.
//!
//! # Protocol
//!
//! | step | who | function | sends |
//! |---|---|---|---|
//! | key ceremony: DKG | all `n` | [`crate::lss::Ceremony::dkg`] (Pedersen, Ristretto255), [`crate::lss::round1`] … `finalize` | LSS messages |
//! | key ceremony: derivation | `t` parties → combiner | [`Session::key_ceremony`], [`round1`], [`Round1State::round2`], [`CombineState::finish_key_ceremony`] | [`GroupKeyAnnouncement`] to all |
//! | store | every party | [`GroupKeyAnnouncement::verify`], [`KeyShare::new`] | — |
//! | sign: setup | signers, combiner | [`CombinerKey::generate`] (fresh per session), [`Session::sign`] | [`CombinerPublicKey`] |
//! | sign: round 1 | each signer | [`round1`] | [`Round1Message`], broadcast |
//! | sign: round 2 | each signer | [`Round1State::round2`] | [`Round2Message`], to the combiner |
//! | combine | combiner | [`Combiner::new`], [`Combiner::round1`], [`CombineState::combine`] (hedged) or [`CombineState::combine_deterministic`] | the signature ([`Signed::to_frame`]: `PULS`) |
//! | reshare | old and new sets | [`crate::lss::Ceremony::refresh`] / [`crate::lss::Ceremony::reshare`], then [`KeyShare::new`] | LSS messages |
//! | activation | new set → combiner | [`activation_session`], the signing rounds, [`activation_certificate`] | [`crate::lss::ActivationCertificate`] |
//!
//! Step functions consume the previous state; peer input is a `BTreeMap` keyed by the
//! transport's authenticated sender and checked against each message's `from`, session,
//! message digest, generation and the signing set. The combiner is robust: a bad message
//! or envelope excludes and blames its sender ([`Signed::blame`]); the session fails only
//! when fewer than `t` valid shares remain ([`Error::NotEnoughValidShares`], with every
//! culprit).
//!
//! # Wire formats
//!
//! Big-endian; each object starts with a 4-byte magic and u16 version 1; lengths are
//! exact; trailing bytes are an error.
//!
//! | magic | type | channel | bytes |
//! |---|---|---|---|
//! | `PCR1` | [`Round1Message`] | broadcast | 116 |
//! | `PCR2` | [`Round2Message`] | to the combiner (encrypted inside) | 1262 |
//! | `PCEK` | [`CombinerPublicKey`] | authenticated broadcast | 1192 |
//! | `PCDK` | [`CombinerKey`] | never (secret) | 2408 |
//! | `PCKA` | [`GroupKeyAnnouncement`] | broadcast | variable |
//! | `PCGK` | [`GroupKey`] | public | 74 + `PULG` frame |
//! | `PCKS` | [`KeyShare`] | never (secret; seal it) | variable |
//! | `PULS` / `PULG` | signature / group key ([`crate::pulsar::frame`]) | public | 11 + FIPS 204 size |
//!
//! Each type's module gives its layout: [`session`] (the 78-byte header), `round1`,
//! `round2`, [`envelope`], `ceremony`, `keys`.
//!
//! # Example
//!
//! ```
//! use std::collections::BTreeMap;
//! use quasar_pq::lss::{self, Ceremony};
//! use quasar_pq::mldsa::{self, Mode};
//! use quasar_pq::pulsar::custody::{self, CombinerKey, Combiner, KeyShare, Session};
//! use quasar_pq::vss::{self, Ristretto255};
//! use quasar_pq::PartyId;
//! use rand_core::SeedableRng;
//!
//! let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
//! let parties: Vec<PartyId> = (1..=3).map(|i| PartyId::new(i).unwrap()).collect();
//!
//! // 1. Pedersen DKG (2-of-3) through the LSS kernel, all parties in one process here.
//! let dkg = Ceremony::<Ristretto255>::dkg([1; 32], vss::Mode::Pedersen, &parties, 2).unwrap();
//! let (mut states, mut deals, mut private) = (Vec::new(), BTreeMap::new(), BTreeMap::new());
//! for &p in &parties {
//!     let (s, out) = lss::round1(dkg.clone(), p, None, &mut rng).unwrap();
//!     deals.insert(p, out.broadcast.unwrap());
//!     for m in out.shares {
//!         private.entry(m.to()).or_insert_with(BTreeMap::new).insert(m.from(), m);
//!     }
//!     states.push((p, s));
//! }
//! let (mut complaints, mut r2) = (BTreeMap::new(), Vec::new());
//! for (p, s) in states {
//!     let (s, c) = s.round2(deals.clone(), private.remove(&p).unwrap()).unwrap();
//!     complaints.extend(c.map(|c| (p, c)));
//!     r2.push((p, s));
//! }
//! let (mut responses, mut r3) = (BTreeMap::new(), Vec::new());
//! for (p, s) in r2 {
//!     let (s, r) = s.round3(complaints.clone()).unwrap();
//!     responses.extend(r.map(|r| (p, r)));
//!     r3.push(s);
//! }
//! let lss_shares: Vec<_> = r3
//!     .into_iter()
//!     .map(|s| s.finalize(responses.clone()).unwrap().key_share.unwrap())
//!     .collect();
//! let public = lss_shares[0].public().clone();
//!
//! // 2. Parties 1 and 2 release their shares to combiner 9, which derives the key once.
//! type Lss = lss::KeyShare<Ristretto255>;
//! let run = |shares: &[&Lss], session: &Session, key, rng: &mut rand_chacha::ChaCha20Rng| {
//!     let (mut r1, mut states) = (BTreeMap::new(), Vec::new());
//!     for share in shares {
//!         let (s, m) = custody::round1(share, session, rng).unwrap(); // round 1
//!         r1.insert(share.id(), m); // broadcast
//!         states.push(s);
//!     }
//!     let r2: BTreeMap<_, _> = states.into_iter().map(|s| (s.me(), s.round2(&r1).unwrap())).collect();
//!     (Combiner::new(key, session).unwrap().round1(&r1).unwrap(), r2)
//! };
//! let c9 = PartyId::new(9).unwrap();
//! let key = CombinerKey::generate(c9, &mut rng);
//! let session = Session::key_ceremony([2; 32], Mode::MlDsa44, &public, &parties[..2], key.public_key()).unwrap();
//! let (state, r2) = run(&[&lss_shares[0], &lss_shares[1]], &session, key, &mut rng);
//! let announcement = state.finish_key_ceremony(&r2, &mut rng).unwrap();
//!
//! // 3. Every party checks the announcement and stores its custody share.
//! let group_key = announcement.verify(&public).unwrap();
//! let stored: Vec<KeyShare> =
//!     lss_shares.into_iter().map(|s| KeyShare::new(s, group_key.clone()).unwrap()).collect();
//!
//! // 4. Parties 2 and 3 sign "hello"; anyone verifies with plain ML-DSA.
//! let key = CombinerKey::generate(c9, &mut rng);
//! let session = Session::sign([3; 32], &group_key, &public, &parties[1..], key.public_key(), b"hello", b"").unwrap();
//! let (state, r2) = run(&[stored[1].lss(), stored[2].lss()], &session, key, &mut rng);
//! let signed = state.combine(&r2, &mut rng).unwrap();
//! mldsa::verify(Mode::MlDsa44, group_key.public_key(), b"hello", b"", signed.signature()).unwrap();
//! ```

mod ceremony;
mod combine;
pub mod envelope;
mod keys;
mod reshare;
mod round1;
mod round2;
pub mod session;

pub use ceremony::{GroupKeyAnnouncement, ANNOUNCEMENT_MAGIC, CEREMONY_CONTEXT};
pub use combine::{hazmat, CombineState, Combiner, Signed};
pub use envelope::{CombinerKey, CombinerPublicKey};
pub use keys::{GroupKey, KeyShare, GROUP_KEY_MAGIC, KEY_SHARE_MAGIC};
pub use reshare::{
    activation_certificate, activation_session, verify_activation, verify_activation_expected,
    ACTIVATION_CONTEXT,
};
#[doc(hidden)]
pub use round1::round1_with_bad_share;
pub use round1::{round1, Round1Message, Round1State, ROUND1_LEN, ROUND1_MAGIC};
pub use round2::{Round2Message, PLAINTEXT_LEN, ROUND2_LEN, ROUND2_MAGIC};
pub use session::{Purpose, Session};

pub use crate::pulsar::{Blame, Error};
