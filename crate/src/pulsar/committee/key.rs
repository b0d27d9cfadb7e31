//! Committee keys and shares, and the trusted dealer.
//!
//! Wire forms (big-endian, DESIGN §4):
//!
//! | frame | fields |
//! |---|---|
//! | `PQCK` v1 [`CommitteeKey`] | mode (1) ‖ T (1) ‖ N (1) ‖ N member ids (2 each, increasing) ‖ ML-DSA public key |
//! | `PQCS` v1 [`KeyShare`] | the key's fields ‖ owner's position (1) ‖ hedging key (32) ‖ subsets (1) ‖ per subset: mask (1) ‖ seed (64) |
//!
//! A share holds exactly the subsets its owner belongs to, in increasing mask order; the
//! decoder refuses anything else, and expands each seed again with FIPS 204's ExpandS.

use alloc::vec::Vec;
use core::fmt;

use rand_core::CryptoRngCore;
use zeroize::Zeroizing;

use super::Error;
use crate::hash::{tags, Transcript};
use crate::mldsa::threshold::{self as kernel, PartyShare, Shape};
use crate::mldsa::{self, Mode};
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// Magic of an encoded [`CommitteeKey`].
pub const COMMITTEE_KEY_MAGIC: &[u8; 4] = b"PQCK";
/// Magic of an encoded [`KeyShare`].
pub const KEY_SHARE_MAGIC: &[u8; 4] = b"PQCS";
const VERSION: u16 = 1;

/// The public description of a committee: level, threshold, members and the standard
/// ML-DSA public key its signatures verify under.
#[derive(Clone, PartialEq, Eq)]
pub struct CommitteeKey {
    mode: Mode,
    threshold: u8,
    members: Vec<PartyId>,
    public_key: Vec<u8>,
}

impl fmt::Debug for CommitteeKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CommitteeKey")
            .field("mode", &self.mode)
            .field("threshold", &self.threshold)
            .field("members", &self.members)
            .finish_non_exhaustive()
    }
}

/// Checks (T, members) and returns the parameter row.
pub(super) fn shape_of(mode: Mode, threshold: usize, members: &[PartyId]) -> Result<Shape, Error> {
    if !members.windows(2).all(|w| w[0] < w[1]) {
        return Err(Error::InvalidCommittee("members must be strictly increasing"));
    }
    let (Ok(t), Ok(n)) = (u8::try_from(threshold), u8::try_from(members.len())) else {
        return Err(Error::InvalidCommittee("2 ≤ T ≤ N ≤ 6"));
    };
    Shape::new(mode, t, n).ok_or(Error::InvalidCommittee("2 ≤ T ≤ N ≤ 6"))
}

impl CommitteeKey {
    /// A key the caller checked (T, members) for.
    pub(super) fn new(mode: Mode, threshold: u8, members: &[PartyId], public_key: Vec<u8>) -> CommitteeKey {
        CommitteeKey {
            mode,
            threshold,
            members: members.to_vec(),
            public_key,
        }
    }

    /// The ML-DSA level.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Signers needed: T.
    pub fn threshold(&self) -> usize {
        usize::from(self.threshold)
    }

    /// The N members, increasing.
    pub fn members(&self) -> &[PartyId] {
        &self.members
    }

    /// The standard FIPS 204 public key (pkEncode).
    pub fn public_key(&self) -> &[u8] {
        &self.public_key
    }

    /// Parallel slots per signing run (the scheme's K) for this committee.
    pub fn slots(&self) -> usize {
        usize::from(self.shape().reps)
    }

    /// Verifies a signature with the ordinary FIPS 204 verifier (pure interface).
    ///
    /// # Errors
    /// [`mldsa::Error`] as [`mldsa::verify`].
    pub fn verify(&self, message: &[u8], context: &[u8], signature: &[u8]) -> Result<(), mldsa::Error> {
        mldsa::verify(self.mode, &self.public_key, message, context, signature)
    }

    /// A 32-byte name of this committee key (level, threshold, members, public key), bound
    /// into every signing session.
    pub fn id(&self) -> [u8; 32] {
        let mut t = Transcript::new(tags::PULSAR_COMMITTEE_KEY);
        t.append(&self.body_bytes());
        t.finalize()
    }

    pub(super) fn shape(&self) -> Shape {
        // Checked when the key was made or decoded.
        shape_of(self.mode, self.threshold(), &self.members).unwrap_or_else(|_| unreachable!())
    }

    /// The member's position (0..N), if `party` is one.
    pub(super) fn position(&self, party: PartyId) -> Option<u8> {
        let at = self.members.binary_search(&party).ok()?;
        u8::try_from(at).ok()
    }

    fn write(&self, w: &mut Writer) {
        w.u8(self.mode.to_byte()).u8(self.threshold);
        w.u8(wire::len_u8(self.members.len()));
        for m in &self.members {
            m.write(w);
        }
        w.put(&self.public_key);
    }

    fn body_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new();
        self.write(&mut w);
        w.into_bytes()
    }

    fn read(r: &mut Reader<'_>) -> Result<CommitteeKey, wire::Error> {
        let mode = Mode::from_byte(r.u8()?).map_err(|_| wire::Error::InvalidValue("ML-DSA mode"))?;
        let threshold = r.u8()?;
        let n = usize::from(r.u8()?);
        if n > super::MAX_PARTIES {
            return Err(wire::Error::CountTooLarge {
                got: n,
                max: super::MAX_PARTIES,
            });
        }
        let members = (0..n).map(|_| PartyId::read(r)).collect::<Result<Vec<_>, _>>()?;
        shape_of(mode, usize::from(threshold), &members)
            .map_err(|_| wire::Error::InvalidValue("committee (T, N, members)"))?;
        let public_key = r.take(mode.public_key_len())?.to_vec();
        Ok(CommitteeKey {
            mode,
            threshold,
            members,
            public_key,
        })
    }

    /// Encodes as a `PQCK` frame (module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_header(COMMITTEE_KEY_MAGIC, VERSION);
        self.write(&mut w);
        w.into_bytes()
    }

    /// Decodes a `PQCK` frame strictly.
    ///
    /// # Errors
    /// [`wire::Error`] naming what was wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<CommitteeKey, wire::Error> {
        let mut r = Reader::new(bytes);
        r.header(COMMITTEE_KEY_MAGIC, VERSION)?;
        let key = Self::read(&mut r)?;
        r.finish()?;
        Ok(key)
    }
}

/// One member's share of a committee key: the seeds of the subset secrets it holds and a
/// private key that hedges its signing randomness.
///
/// # Security
/// Secret. It does not determine the ML-DSA key (it misses every subset the member is not
/// in), but T − 1 other shares with it do. Wiped when dropped; [`KeyShare::to_bytes`] gives
/// a wiped-on-drop buffer for encrypted storage.
#[derive(Clone)]
pub struct KeyShare {
    key: CommitteeKey,
    me: PartyId,
    pub(super) secret: PartyShare,
}

impl fmt::Debug for KeyShare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyShare")
            .field("me", &self.me)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl KeyShare {
    pub(super) fn new(key: CommitteeKey, me: PartyId, secret: PartyShare) -> KeyShare {
        KeyShare { key, me, secret }
    }

    /// The owner.
    pub fn id(&self) -> PartyId {
        self.me
    }

    /// The committee key this share belongs to.
    pub fn committee(&self) -> &CommitteeKey {
        &self.key
    }

    /// Subset secrets held (C(N − 1, N − T) of them).
    pub fn subsets(&self) -> usize {
        self.secret.secrets.len()
    }

    /// Encodes as a `PQCS` frame (module docs), in a buffer wiped when dropped.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        let mut w = Writer::with_header(KEY_SHARE_MAGIC, VERSION);
        self.key.write(&mut w);
        w.u8(self.secret.index);
        w.put(&self.secret.key);
        w.u8(wire::len_u8(self.secret.secrets.len()));
        for s in &self.secret.secrets {
            w.u8(s.mask).put(&s.seed);
        }
        w.into_secret()
    }

    /// Decodes a `PQCS` frame strictly and expands its subset secrets.
    ///
    /// # Errors
    /// [`wire::Error`] naming what was wrong (a subset list that is not exactly the owner's
    /// subsets in order is [`wire::Error::InvalidValue`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<KeyShare, wire::Error> {
        let mut r = Reader::new(bytes);
        r.header(KEY_SHARE_MAGIC, VERSION)?;
        let key = CommitteeKey::read(&mut r)?;
        let index = r.u8()?;
        let me = *key
            .members
            .get(usize::from(index))
            .ok_or(wire::Error::InvalidValue("share owner position"))?;
        let hedge = Zeroizing::new(r.array::<32>()?);
        let expected: Vec<u8> = kernel::subsets(key.threshold, wire::len_u8(key.members.len()))
            .into_iter()
            .filter(|mask| mask >> index & 1 == 1)
            .collect();
        let count = usize::from(r.u8()?);
        if count != expected.len() {
            return Err(wire::Error::InvalidValue("share subset count"));
        }
        let mut secrets = Vec::with_capacity(count);
        for &mask in &expected {
            if r.u8()? != mask {
                return Err(wire::Error::InvalidValue("share subset list"));
            }
            let seed = Zeroizing::new(r.array::<64>()?);
            secrets.push(kernel::expand_subset(key.mode, mask, &seed));
        }
        r.finish()?;
        Ok(KeyShare {
            key,
            me,
            secret: PartyShare {
                index,
                key: *hedge,
                secrets,
            },
        })
    }
}

/// Deals a committee key with a **trusted dealer**: `threshold` of the `members` (strictly
/// increasing, 2 ≤ T ≤ N ≤ 6) sign at ML-DSA level `mode`. Returns the public committee key
/// and one share per member, in member order.
///
/// # Errors
/// [`Error::InvalidCommittee`].
///
/// # Security
/// The dealer draws every subset secret and so knows the whole key while it deals: run it
/// where you would run a single-key generator, and send each share to its member alone over
/// a confidential channel. Nothing is kept: the dealer's seed and sums are wiped.
pub fn deal(
    mode: Mode,
    threshold: usize,
    members: &[PartyId],
    rng: &mut impl CryptoRngCore,
) -> Result<(CommitteeKey, Vec<KeyShare>), Error> {
    let shape = shape_of(mode, threshold, members)?;
    let mut seed = Zeroizing::new([0u8; 32]);
    rng.fill_bytes(&mut seed[..]);
    let dealt = kernel::deal(mode, &seed, shape.threshold, shape.parties);
    let key = CommitteeKey {
        mode,
        threshold: shape.threshold,
        members: members.to_vec(),
        public_key: dealt.public_key,
    };
    let shares = dealt
        .shares
        .into_iter()
        .zip(members)
        .map(|(secret, &me)| KeyShare {
            key: key.clone(),
            me,
            secret,
        })
        .collect();
    Ok((key, shares))
}
