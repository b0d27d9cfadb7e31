//! The key ceremony.
//!
//! 1. **DKG.** The parties run the LSS distributed key generation
//!    ([`crate::lss::Ceremony::dkg`] with [`crate::vss::Mode::Pedersen`] over
//!    Ristretto255): each gets a share of a random group secret `x`, and the public data
//!    holds only perfectly hiding commitments — nothing like `x·G` is published, and no
//!    party learns `x`.
//! 2. **Key derivation, once.** `t` parties release their shares to a combiner exactly as
//!    in signing ([`super::Session::key_ceremony`], [`super::round1`],
//!    [`super::Round1State::round2`]); the combiner rebuilds `x`, derives
//!    `ξ = cSHAKE256-tuple("QUASAR-PULSAR-SEED-v1"; mode, x)`, runs ML-DSA.KeyGen (FIPS
//!    204, Algorithm 1), signs the ceremony transcript with the new key as a proof of
//!    possession, zeroizes `x`, `ξ` and the secret key, and publishes a
//!    [`GroupKeyAnnouncement`] ([`super::CombineState::finish_key_ceremony`]).
//! 3. **Storage.** Every party checks the announcement against its own copy of the
//!    sharing ([`GroupKeyAnnouncement::verify`]) and stores
//!    [`super::KeyShare::new`]`(lss share, group key)`.
//!
//! Ceremony transcript hash = `cSHAKE256-tuple("QUASAR-PULSAR-CEREMONY-v1"; "session",
//! id, "mode", mode byte, "sharing", LSG1 encoding, "combiner", u16 id, "signers", u16
//! ids, "public-key", pk)`. The proof of possession is an ML-DSA signature on that hash
//! with context `QUASAR-PULSAR-CEREMONY-v1`.
//!
//! Wire form of [`GroupKeyAnnouncement`]: `PCKA` ‖ u16 version 1 ‖ session id (32) ‖
//! u16 combiner ‖ u16 count ‖ count × u16 signer (strictly increasing) ‖ group
//! commitment `C_0` (32) ‖ ceremony transcript hash (32) ‖ u32 length ‖ `PULG` frame ‖
//! u32 length ‖ `PULS` frame (the proof of possession).
//!
//! # Security
//! The announcement proves that its publisher holds the ML-DSA key, not that the key was
//! derived from `x`: an honest-but-curious combiner cannot cheat here, a malicious one
//! could publish another key — but then every later signing session fails with
//! [`crate::pulsar::Error::GroupKeyMismatch`] at any honest combiner, so the mismatch is
//! caught the first time another combiner signs.

use alloc::vec::Vec;
use core::fmt;

use super::combine::Rebuilt;
use super::keys::{framed, AnnouncedKey, MAX_FRAME_LEN};
use super::session::{Purpose, Session};
use crate::hash::{tags, Transcript};
use crate::lss::GroupPublic;
use crate::mldsa::{self, Mode};
use crate::party::Blame;
use crate::pulsar::frame::{SignatureFrame, SIGNATURE_MAGIC};
use crate::pulsar::Error;
use crate::vss::Ristretto255;
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// Magic of an encoded [`GroupKeyAnnouncement`].
pub const ANNOUNCEMENT_MAGIC: &[u8; 4] = b"PCKA";
/// Version of the encoding.
pub(super) const VERSION: u16 = 1;
/// The ML-DSA context of the proof of possession.
pub const CEREMONY_CONTEXT: &[u8] = tags::PULSAR_CEREMONY.as_bytes();

/// The ceremony transcript hash (see the module docs).
fn ceremony_hash(
    session: &[u8; 32],
    mode: Mode,
    public: &GroupPublic<Ristretto255>,
    combiner: PartyId,
    signers: &[PartyId],
    public_key: &[u8],
) -> [u8; 32] {
    let ids = crate::party::id_bytes(signers);
    let mut t = Transcript::new(tags::PULSAR_CEREMONY);
    t.append(b"session").append(session);
    t.append(b"mode").append(&[mode.to_byte()]);
    t.append(b"sharing").append(&public.to_bytes());
    t.append(b"combiner").append(&combiner.get().to_be_bytes());
    t.append(b"signers").append(&ids);
    t.append(b"public-key").append(public_key);
    t.finalize()
}

/// The combiner's publication at the end of the key ceremony: the group key, the
/// ceremony transcript it is bound to, and a proof of possession. **Broadcast** to every
/// party (and to anyone who will verify signatures).
///
/// Equality compares the encoded form (the combiner-local blame list is not part of it).
#[derive(Clone)]
pub struct GroupKeyAnnouncement {
    session: [u8; 32],
    combiner: PartyId,
    signers: Vec<PartyId>,
    key: AnnouncedKey,
    proof: Vec<u8>,
    blame: Vec<Blame>,
}

impl fmt::Debug for GroupKeyAnnouncement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GroupKeyAnnouncement")
            .field("combiner", &self.combiner)
            .field("signers", &self.signers)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl PartialEq for GroupKeyAnnouncement {
    fn eq(&self, other: &Self) -> bool {
        self.to_bytes() == other.to_bytes()
    }
}

impl Eq for GroupKeyAnnouncement {}

impl GroupKeyAnnouncement {
    /// The key announced (not yet checked: use [`GroupKeyAnnouncement::verify`]).
    pub fn key(&self) -> &AnnouncedKey {
        &self.key
    }

    /// The session id of the key-derivation session.
    pub fn session(&self) -> &[u8; 32] {
        &self.session
    }

    /// The combiner that derived the key.
    pub fn combiner(&self) -> PartyId {
        self.combiner
    }

    /// The `t` parties whose shares rebuilt the secret.
    pub fn signers(&self) -> &[PartyId] {
        &self.signers
    }

    /// Parties the combiner excluded and why (local to the combiner; not encoded).
    pub fn blame(&self) -> &[Blame] {
        &self.blame
    }

    /// Checks the announcement against this party's copy of the sharing: same group
    /// commitment `C_0`, the ceremony transcript hash recomputed from `public`, and the
    /// proof of possession under the announced key. Returns the group key to store.
    ///
    /// # Errors
    /// [`Error::NotPedersen`], [`Error::GroupMismatch`] (another sharing),
    /// [`Error::InvalidAnnouncement`] (transcript or proof).
    pub fn verify(&self, public: &GroupPublic<Ristretto255>) -> Result<AnnouncedKey, Error> {
        let k = &self.key;
        k.check_commitment(public)?;
        let expected = ceremony_hash(
            &self.session,
            k.mode,
            public,
            self.combiner,
            &self.signers,
            &k.public_key,
        );
        if expected != k.ceremony_hash {
            return Err(Error::InvalidAnnouncement);
        }
        mldsa::verify(
            k.mode,
            &k.public_key,
            &k.ceremony_hash,
            CEREMONY_CONTEXT,
            &self.proof,
        )
        .map_err(|_| Error::InvalidAnnouncement)?;
        Ok(k.clone())
    }

    /// Encodes (see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_header(ANNOUNCEMENT_MAGIC, VERSION);
        w.put(&self.session);
        self.combiner.write(&mut w);
        w.u16(crate::wire::len_u16(self.signers.len()));
        for p in &self.signers {
            p.write(&mut w);
        }
        self.key.write_body(&mut w);
        w.bytes(&framed(&SIGNATURE_MAGIC, self.key.mode, &self.proof));
        w.into_bytes()
    }

    /// Decodes strictly: header, ids non-zero and strictly increasing, a canonical
    /// commitment, strict `PULG` and `PULS` frames of the same mode, no trailing bytes.
    ///
    /// # Errors
    /// [`wire::Error`] naming what was wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, wire::Error> {
        let mut r = Reader::new(bytes);
        r.header(ANNOUNCEMENT_MAGIC, VERSION)?;
        let session: [u8; 32] = r.array()?;
        let combiner = PartyId::read(&mut r)?;
        let n = usize::from(r.u16()?);
        if n == 0 {
            return Err(wire::Error::InvalidValue("empty signer list"));
        }
        if n > crate::lss::MAX_PARTIES {
            return Err(wire::Error::CountTooLarge {
                got: n,
                max: crate::lss::MAX_PARTIES,
            });
        }
        if 2 * n > r.remaining() {
            return Err(wire::Error::TooShort {
                needed: 2 * n,
                got: r.remaining(),
            });
        }
        let mut signers: Vec<PartyId> = Vec::with_capacity(n);
        for _ in 0..n {
            let p = PartyId::read(&mut r)?;
            if signers.last().is_some_and(|&last| last >= p) {
                return Err(wire::Error::InvalidValue("signer list not strictly increasing"));
            }
            signers.push(p);
        }
        let key = AnnouncedKey::read_body(&mut r)?;
        let proof = SignatureFrame::decode(r.bytes(MAX_FRAME_LEN)?)?;
        if proof.mode != key.mode {
            return Err(wire::Error::InvalidValue("proof mode differs from the key's"));
        }
        let proof = proof.signature.to_vec();
        r.finish()?;
        Ok(GroupKeyAnnouncement {
            session,
            combiner,
            signers,
            key,
            proof,
            blame: Vec::new(),
        })
    }
}

/// The key ceremony's last step at the combiner: the ML-DSA key from the rebuilt seed,
/// its proof of possession over the ceremony transcript (hedged with `rnd`, or
/// deterministic), and the announcement.
pub(crate) fn announce(
    session: &Session,
    rebuilt: Rebuilt,
    rnd: Option<&[u8; 32]>,
) -> Result<GroupKeyAnnouncement, Error> {
    if session.purpose() != Purpose::KeyCeremony {
        return Err(Error::PurposeMismatch);
    }
    let mode = session.mode();
    let (public_key, sk) = mldsa::keygen(mode, &rebuilt.seed);
    drop(rebuilt.seed);
    let id = *session.id();
    let combiner = session.combiner().id();
    let public = session.public();
    let hash = ceremony_hash(&id, mode, public, combiner, &rebuilt.used, &public_key);
    let proof = mldsa::sign(mode, &sk, &hash, CEREMONY_CONTEXT, rnd)?;
    drop(sk);
    mldsa::verify(mode, &public_key, &hash, CEREMONY_CONTEXT, &proof)?;
    let mut commitment = [0u8; 32];
    commitment.copy_from_slice(&public.group_commitment_bytes());
    Ok(GroupKeyAnnouncement {
        session: id,
        combiner,
        signers: rebuilt.used,
        key: AnnouncedKey {
            mode,
            public_key,
            commitment,
            ceremony_hash: hash,
        },
        proof,
        blame: rebuilt.blame,
    })
}
