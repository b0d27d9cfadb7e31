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
//! Every party is a [`crate::party::Party`]: bytes in, bytes out, one round at a time.
//! **Most users want [`lifecycle`]**: one [`lifecycle::Member`] and one
//! [`lifecycle::Combiner`] party run each whole path (setup, sign, reshare → activation),
//! with every hand-off below as their own messages. The single-protocol parties of this
//! table are what they are built from.
//!
//! | step | who | party | sends |
//! |---|---|---|---|
//! | key ceremony: DKG | all `n` | [`crate::lss::DealingParty`] over [`crate::lss::Ceremony::dkg`] (Pedersen, Ristretto255) | LSS messages |
//! | key ceremony: derivation | `t` signers, one combiner | [`SignerParty`], [`CombinerParty`] on [`Session::key_ceremony`] | [`GroupKeyAnnouncement`] to all |
//! | store | every party | [`GroupKeyAnnouncement::verify`], [`KeyShare::new`] | — |
//! | sign | `t` or more signers, one combiner | [`SignerParty`], [`CombinerParty`] on [`Session::sign`] (fresh [`CombinerKey`] per session) | the signature ([`Signed::to_frame`]: `PULS`) |
//! | reshare | old and new sets | [`crate::lss::DealingParty`] over [`crate::lss::Ceremony::refresh`] / [`crate::lss::Ceremony::reshare`], then [`KeyShare::new`] | LSS messages |
//! | activation | new set (and old dealers, observing) | the dealing's last round ([`crate::lss::ActivationParty`]), [`verify_activation`] | [`crate::lss::ActivationCertificate`] |
//!
//! A signer broadcasts (round 1) a commitment to its sealed envelope over the
//! authenticated broadcast channel, and releases the envelope to the combiner (round 2)
//! once at least `t` signers committed. Messages are checked against the session (id,
//! message digest, generation, signing set, combiner); one that fails is dropped and its
//! sender named, and the combiner attributes envelopes only by the commitments they
//! match (see [`CombinerParty`]). The session fails only when fewer than `t` valid shares
//! remain ([`Error::NotEnoughValidShares`], with every culprit).
//!
//! # Wire formats
//!
//! Big-endian; each object starts with a 4-byte magic and u16 version (1 unless the table
//! says otherwise); lengths are exact; trailing bytes are an error.
//!
//! | magic | type | channel | bytes |
//! |---|---|---|---|
//! | `PCR1` | [`Round1Message`] | authenticated broadcast | 116 |
//! | `PCR2` | [`Round2Message`] | to the combiner, any channel (encrypted inside) | 1262 |
//! | `PCEK` | [`CombinerPublicKey`] | authenticated broadcast | 1192 |
//! | `PCDK` | [`CombinerKey`] | never (secret) | 2408 |
//! | `PCSS` | [`Session`] | public | variable |
//! | `PCKA` | [`GroupKeyAnnouncement`] | broadcast | variable |
//! | `PCGK` | [`GroupKey`] (version 3; read only against its sharing) | public | 201 + 2 × `PULG` frame + 98 per certifying member |
//! | `PCKS` | [`KeyShare`] (version 3) | never (secret; seal it) | variable |
//! | `PULS` / `PULG` | signature / group key ([`crate::pulsar::frame`]) | public | 11 + FIPS 204 size |
//!
//! Each type's module gives its layout: [`session`] (the 78-byte header), `round1`,
//! `round2`, [`envelope`], `ceremony`, `keys`.
//!
//! # Example
//!
//! All parties in one process through the simulator (feature `sim`); in real use each
//! party runs where its share is and only the bytes travel.
//!
//! ```
//! # #[cfg(feature = "sim")] {
//! use quasar_pq::lss::{Ceremony, DealingParty, KeyShare as LssShare};
//! use quasar_pq::mldsa::{self, Mode};
//! use quasar_pq::party::sim::{map_output, party_rng, Network};
//! use quasar_pq::pulsar::custody::{
//!     certification_party, CombinerKey, CombinerParty, Combined, GroupKey, KeyShare, Session, SignerParty,
//! };
//! use quasar_pq::vss::{self, Ristretto255};
//! use quasar_pq::PartyId;
//!
//! let ids: Vec<PartyId> = (1..=3).map(|i| PartyId::new(i).unwrap()).collect();
//! let c9 = PartyId::new(9).unwrap();
//!
//! // 1. Pedersen DKG (2-of-3) through the LSS dealing party.
//! let dkg = Ceremony::<Ristretto255>::dkg([1; 32], vss::Mode::Pedersen, &ids, 2).unwrap();
//! let mut net = Network::new();
//! for &p in &ids {
//!     let (party, first) = DealingParty::start(dkg.clone(), p, None, &mut party_rng(b"dkg", p)).unwrap();
//!     net.add(party, first);
//! }
//! let lss_shares: Vec<LssShare<Ristretto255>> =
//!     net.run().into_values().map(|o| o.unwrap().key_share.unwrap()).collect();
//! let public = lss_shares[0].public().clone();
//!
//! // A session: the signers release their shares to the combiner, which ends with the result.
//! let run = |shares: &[&LssShare<Ristretto255>], session: &Session, key: CombinerKey| -> Combined {
//!     let mut net = Network::new();
//!     let (combiner, first) = CombinerParty::start(key, session, &mut party_rng(b"c", c9)).unwrap();
//!     net.add(map_output(combiner, Some), first);
//!     for share in shares {
//!         let (signer, first) = SignerParty::start(share, session, &mut party_rng(b"s", share.id())).unwrap();
//!         net.add(map_output(signer, |_| None), first);
//!     }
//!     net.run().into_values().find_map(|o| o.unwrap()).unwrap()
//! };
//!
//! // 2. Parties 1 and 2 release their shares to combiner 9, which derives the key once.
//! let key = CombinerKey::generate(c9, &mut party_rng(b"k", c9));
//! let session = Session::key_ceremony([2; 32], Mode::MlDsa44, &public, &ids[..2], key.public_key()).unwrap();
//! let Combined::Announcement(announcement) = run(&[&lss_shares[0], &lss_shares[1]], &session, key) else { panic!() };
//!
//! // 3. Every party checks the announcement, then all three certify the key for the
//! //    sharing (each proves possession of its share) and store their custody shares.
//! let announced = announcement.verify(&public).unwrap();
//! let mut net = Network::new();
//! for share in &lss_shares {
//!     let p = share.id();
//!     let (party, first) = certification_party(p, Some(share), &public, &announced, &mut party_rng(b"a", p)).unwrap();
//!     net.add(party, first);
//! }
//! let certificate = net.run().into_values().next().unwrap().unwrap();
//! let group_key = GroupKey::new(announced, &public, certificate).unwrap();
//! let stored: Vec<KeyShare> = lss_shares.into_iter().map(|s| KeyShare::new(s, group_key.clone()).unwrap()).collect();
//!
//! // 4. Parties 2 and 3 sign "hello" with a fresh combiner key; anyone verifies with plain ML-DSA.
//! let key = CombinerKey::generate(c9, &mut party_rng(b"k2", c9));
//! let session = Session::sign([3; 32], &group_key, &public, &ids[1..], key.public_key(), b"hello", b"").unwrap();
//! let Combined::Signed(signed) = run(&[stored[1].lss(), stored[2].lss()], &session, key) else { panic!() };
//! mldsa::verify(Mode::MlDsa44, group_key.public_key(), b"hello", b"", signed.signature()).unwrap();
//! # }
//! ```

mod activation;
mod ceremony;
mod combine;
pub mod envelope;
mod keys;
pub mod lifecycle;
mod round1;
mod round2;
pub mod session;
mod signer;

pub use activation::{certification_party, refresh, reshare, verify_activation, ACTIVATION_CONTEXT};
pub use ceremony::{GroupKeyAnnouncement, ANNOUNCEMENT_MAGIC, CEREMONY_CONTEXT};
#[cfg(feature = "hazmat")]
pub use combine::hazmat;
pub use combine::{Combined, CombinerParty, Signed};
pub use envelope::{CombinerKey, CombinerPublicKey};
pub use keys::{AnnouncedKey, GroupKey, KeyShare, GROUP_KEY_MAGIC, KEY_SHARE_MAGIC};
pub use round1::{Round1Message, ROUND1_LEN, ROUND1_MAGIC};
pub use round2::{Round2Message, PLAINTEXT_LEN, ROUND2_LEN, ROUND2_MAGIC};
pub use session::{Header, Purpose, Session};
pub use signer::{SignerOutcome, SignerParty};

pub use crate::pulsar::Error;
