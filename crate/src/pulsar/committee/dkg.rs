//! Distributed key generation for the committee (threshold-mldsa spec §2.6): nobody, at
//! any time, holds the key.
//!
//! Each subset secret has exactly one contributor, its **owner** (the subset's lowest
//! member): summing several contributions would break the η-shortness the parameters
//! assume. When at most T − 1 members are corrupt, some subset lies wholly among honest
//! members, and so does its owner, so the corrupt members miss that subset's secret.
//!
//! | step | inbox | sends |
//! |---|---|---|
//! | [`Dkg::start`] | — | `PQD1` broadcast: per owned subset I, H(σ_I) and H(t_I); `PQD2` to each co-member of an owned subset: the seeds σ_I it shares |
//! | "publish" | `PQD1`s and the seeds for this member's subsets, each checked against its hash | `PQD3` broadcast: t_I = A·s1_I + s2_I per owned subset |
//! | "confirm" | `PQD3`s, each checked against its hash and, for this member's subsets, recomputed from σ_I | `PQD4` broadcast: the name of the key Σ t_I gives |
//! | "finish" | `PQD4`s, all naming the same key | nothing ([`Step::Done`] with [`Keyed`]) |
//!
//! ρ is fixed before anything is committed: `TupleHash("QUASAR-PULSAR-COMMITTEE-DKG-v1";
//! "rho", session, mode, T, members)`. The commitment to t_I in the first round is what
//! stops a rogue key: without it, owners of an all-corrupt subset could choose t_I after
//! seeing the honest ones. Publishing each t_I (an MLWE sample of its subset) is how the
//! members check the key; FIPS 204 does not rely on t0 being secret.
//!
//! # Trust
//! No trusted party. `PQD2` carries secret seeds: send it over a confidential, authenticated
//! channel (the party shape's direct channel; over a network, one that stays confidential
//! against a future quantum recorder). No robustness: every member must take part. A seed
//! that does not match its owner's hash is the receiver's own evidence — it ends with
//! [`Error::Aborted`] naming the owner, and sends no confirmation, so the others never
//! finish with a key it cannot use. A t_I that breaks its hash, or that a co-member's seed
//! does not give, names its owner on public evidence.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::fmt;

use rand_core::CryptoRngCore;
use zeroize::Zeroizing;

use super::key::{shape_of, CommitteeKey, KeyShare};
use super::message::{decode_framed, encode_framed, id_bytes, keep, Header};
use super::Error;
use crate::hash::{tags, Transcript};
use crate::mldsa::threshold::{self as kernel, Matrix, PartyShare, Shape};
use crate::mldsa::Mode;
use crate::party::inbox::{tidy, unique};
use crate::party::{culprits, Blame, BlameReason, Direct, Incoming, Outgoing, Party, Round, Step};
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// Magic of the owners' commitments.
pub const DKG_COMMIT_MAGIC: &[u8; 4] = b"PQD1";
/// Magic of the seeds an owner sends a co-member (secret).
pub const DKG_SEEDS_MAGIC: &[u8; 4] = b"PQD2";
/// Magic of the published t_I.
pub const DKG_PUBLISH_MAGIC: &[u8; 4] = b"PQD3";
/// Magic of the confirmation.
pub const DKG_CONFIRM_MAGIC: &[u8; 4] = b"PQD4";

/// A key generation: its session, level, threshold and members.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DkgParams {
    session: [u8; 32],
    mode: Mode,
    threshold: usize,
    members: Vec<PartyId>,
}

impl DkgParams {
    /// `threshold` of `members` (strictly increasing, 2 ≤ T ≤ N ≤ 6) at level `mode`, in the
    /// session `session` (unique per key generation; every member must use the same).
    ///
    /// # Errors
    /// [`Error::InvalidCommittee`].
    pub fn new(session: [u8; 32], mode: Mode, threshold: usize, members: &[PartyId]) -> Result<Self, Error> {
        shape_of(mode, threshold, members)?;
        Ok(DkgParams {
            session,
            mode,
            threshold,
            members: members.to_vec(),
        })
    }
}

/// What a member ends a key generation with.
#[derive(Debug, Clone)]
pub struct Keyed {
    /// The committee key (every member ends with the same).
    pub key: CommitteeKey,
    /// This member's share.
    pub share: KeyShare,
    /// Messages this member dropped, with their senders and why.
    pub dropped: Vec<Blame>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Commit,
    Publish,
    Confirm,
}

/// One member of a committee key generation.
///
/// # Security
/// Holds the seeds of its own subsets (its future share) and those it owns; wiped when
/// dropped.
pub struct Dkg {
    params: DkgParams,
    shape: Shape,
    me: PartyId,
    index: u8,
    binding: [u8; 32],
    rho: [u8; 32],
    matrix: Matrix,
    hedge: Zeroizing<[u8; 32]>,
    phase: Option<Phase>,
    /// Seeds of this member's subsets (own and received), by mask.
    seeds: BTreeMap<u8, Zeroizing<[u8; 64]>>,
    /// t_I of the subsets this member owns.
    owned: Vec<(u8, Vec<u8>)>,
    commits: BTreeMap<PartyId, Vec<u8>>,
    received: BTreeMap<PartyId, PrivateSeeds>,
    parts: BTreeMap<PartyId, Vec<u8>>,
    confirms: BTreeMap<PartyId, Vec<u8>>,
    key: Option<CommitteeKey>,
    dropped: Vec<Blame>,
}

impl fmt::Debug for Dkg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("committee::Dkg")
            .field("me", &self.me)
            .field("round", &self.round())
            .finish_non_exhaustive()
    }
}

/// The owner's position of a subset: its lowest member.
fn owner(mask: u8) -> u8 {
    // Exact: a subset mask is non-zero and below 2^6.
    #[allow(clippy::cast_possible_truncation)]
    let at = mask.trailing_zeros() as u8;
    at
}

fn digest(binding: &[u8; 32], what: &[u8], mask: u8, bytes: &[u8]) -> [u8; 32] {
    let mut t = Transcript::new(tags::PULSAR_COMMITTEE_DKG);
    t.append(what).append(binding).append(&[mask]).append(bytes);
    t.finalize()
}

impl Dkg {
    /// Starts member `me`'s part: draws the seeds of the subsets it owns, and returns the
    /// commitments (broadcast) and each co-member's seeds (private).
    ///
    /// # Errors
    /// [`Error::UnknownParty`] when `me` is not a member.
    pub fn start(
        me: PartyId,
        params: &DkgParams,
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Dkg, Outgoing), Error> {
        let shape = shape_of(params.mode, params.threshold, &params.members)?;
        let index = params
            .members
            .binary_search(&me)
            .ok()
            .and_then(|i| u8::try_from(i).ok())
            .ok_or(Error::UnknownParty { party: me })?;
        let session_binding = {
            let mut t = Transcript::new(tags::PULSAR_COMMITTEE_DKG);
            t.append(b"session")
                .append(&params.session)
                .append(&[params.mode.to_byte(), shape.threshold, shape.parties])
                .append(&id_bytes(&params.members));
            t.finalize::<32>()
        };
        let rho = {
            let mut t = Transcript::new(tags::PULSAR_COMMITTEE_DKG);
            t.append(b"rho").append(&session_binding);
            t.finalize::<32>()
        };
        let mut hedge = Zeroizing::new([0u8; 32]);
        rng.fill_bytes(&mut hedge[..]);
        let mut dkg = Dkg {
            params: params.clone(),
            shape,
            me,
            index,
            binding: session_binding,
            rho,
            matrix: kernel::matrix(params.mode, &rho),
            hedge,
            phase: Some(Phase::Commit),
            seeds: BTreeMap::new(),
            owned: Vec::new(),
            commits: BTreeMap::new(),
            received: BTreeMap::new(),
            parts: BTreeMap::new(),
            confirms: BTreeMap::new(),
            key: None,
            dropped: Vec::new(),
        };
        let mut commit = Writer::new();
        let mine: Vec<u8> = dkg.owned_masks(index);
        commit.u8(wire::len_u8(mine.len()));
        for &mask in &mine {
            let mut seed = Zeroizing::new([0u8; 64]);
            rng.fill_bytes(&mut seed[..]);
            let secret = kernel::expand_subset(params.mode, mask, &seed);
            // t_I and H(σ_I) are published (module docs).
            let t = kernel::subset_t(params.mode, &dkg.matrix, &secret);
            crate::ct::public_slice(&t);
            commit
                .u8(mask)
                .put(&crate::ct::public(digest(&dkg.binding, b"seed", mask, &seed[..])))
                .put(&digest(&dkg.binding, b"t", mask, &t));
            dkg.owned.push((mask, t));
            dkg.seeds.insert(mask, seed);
        }
        let mut out = Outgoing::broadcast(encode_framed(
            DKG_COMMIT_MAGIC,
            &dkg.header(),
            &commit.into_bytes(),
        ));
        for (j, &to) in params.members.iter().enumerate() {
            if to == me {
                continue;
            }
            let shared: Vec<u8> = mine.iter().copied().filter(|m| m >> j & 1 == 1).collect();
            if shared.is_empty() {
                continue;
            }
            let mut w = Writer::new();
            to.write(&mut w);
            w.u8(wire::len_u8(shared.len()));
            for mask in shared {
                w.u8(mask).put(&dkg.seeds[&mask][..]);
            }
            let body = w.into_secret();
            out.direct.push(Direct {
                to,
                bytes: Zeroizing::new(encode_framed(DKG_SEEDS_MAGIC, &dkg.header(), &body)),
            });
        }
        Ok((dkg, out))
    }

    fn header(&self) -> Header {
        Header {
            mode: self.params.mode,
            session: self.binding,
            run: 0,
            from: self.me,
        }
    }

    /// The subsets member `index` owns, increasing.
    fn owned_masks(&self, index: u8) -> Vec<u8> {
        kernel::subsets(self.shape.threshold, self.shape.parties)
            .into_iter()
            .filter(|&m| owner(m) == index)
            .collect()
    }

    fn position(&self, party: PartyId) -> Option<u8> {
        self.params
            .members
            .binary_search(&party)
            .ok()
            .and_then(|i| u8::try_from(i).ok())
    }

    /// Files one message, or says why it is dropped.
    fn file(&mut self, from: PartyId, bytes: &[u8]) -> Option<BlameReason> {
        let (magic, h, body) = match decode_framed(bytes) {
            Ok(m) => m,
            Err(e) => return Some(BlameReason::Malformed(e)),
        };
        let Some(at) = self.position(from) else {
            return Some(BlameReason::UnknownParty);
        };
        if h.from != from {
            return Some(BlameReason::SenderMismatch { claimed: h.from });
        }
        if h.mode != self.params.mode || h.run != 0 {
            return Some(BlameReason::ParameterMismatch);
        }
        if h.session != self.binding {
            return Some(BlameReason::WrongSession);
        }
        let owned = self.owned_masks(at);
        let checked = match &magic {
            DKG_COMMIT_MAGIC => read_list(body, &owned, 64).map(|_| ()),
            DKG_PUBLISH_MAGIC => read_list(body, &owned, kernel::subset_t_len(self.params.mode)).map(|_| ()),
            DKG_CONFIRM_MAGIC => {
                let mut r = Reader::new(body);
                r.array::<32>().and_then(|_| r.finish())
            }
            DKG_SEEDS_MAGIC => {
                let mut r = Reader::new(body);
                match PartyId::read(&mut r) {
                    Ok(to) if to != self.me => return Some(BlameReason::WrongRecipient { to }),
                    Ok(_) => {}
                    Err(e) => return Some(BlameReason::Malformed(e)),
                }
                let shared: Vec<u8> = owned
                    .iter()
                    .copied()
                    .filter(|m| m >> self.index & 1 == 1)
                    .collect();
                read_list(&body[2..], &shared, 64).map(|_| ())
            }
            _ => {
                return Some(BlameReason::Malformed(wire::Error::BadMagic {
                    found: magic,
                    expected: *DKG_COMMIT_MAGIC,
                }))
            }
        };
        if let Err(e) = checked {
            return Some(BlameReason::Malformed(e));
        }
        let kept = match &magic {
            DKG_COMMIT_MAGIC => keep(&mut self.commits, from, body.to_vec()),
            DKG_PUBLISH_MAGIC => keep(&mut self.parts, from, body.to_vec()),
            DKG_CONFIRM_MAGIC => keep(&mut self.confirms, from, body.to_vec()),
            _ => keep(
                &mut self.received,
                from,
                PrivateSeeds(Zeroizing::new(body[2..].to_vec())),
            ),
        };
        kept.err()
    }

    fn others_in(&self, map_has: impl Fn(&PartyId) -> bool, only_owners_of_mine: bool) -> bool {
        self.params.members.iter().enumerate().all(|(j, p)| {
            if *p == self.me {
                return true;
            }
            if only_owners_of_mine {
                // Exact: j < N ≤ 6.
                #[allow(clippy::cast_possible_truncation)]
                let owns_mine = self.owned_masks(j as u8).iter().any(|m| m >> self.index & 1 == 1);
                !owns_mine || map_has(p)
            } else {
                map_has(p)
            }
        })
    }

    fn abort(&mut self, blamed: Vec<Blame>) -> Error {
        self.dropped.extend(blamed.iter().cloned());
        let mut blame = blamed;
        tidy(&mut blame);
        Error::Aborted {
            culprits: culprits([blame.as_slice()]),
            blame,
        }
    }

    /// Round "publish": checks the received seeds against their owners' hashes.
    fn publish(&mut self) -> Result<Outgoing, Error> {
        let mut bad = Vec::new();
        let mut good = Vec::new();
        for (&from, PrivateSeeds(list)) in &self.received {
            let commits = self
                .commits
                .get(&from)
                .map(|c| entries(c, 64))
                .unwrap_or_default();
            for (mask, seed) in entries(list, 64) {
                let expected = commits.iter().find(|(m, _)| *m == mask).map(|(_, c)| &c[..32]);
                // H(σ_I) is public: its owner broadcast it.
                let got = crate::ct::public(digest(&self.binding, b"seed", mask, seed));
                if expected != Some(&got[..]) {
                    bad.push(Blame::new(from, BlameReason::InvalidShare));
                } else {
                    let mut s = Zeroizing::new([0u8; 64]);
                    s.copy_from_slice(seed);
                    good.push((mask, s));
                }
            }
        }
        if !bad.is_empty() {
            for b in &bad {
                self.received.remove(&b.party);
            }
            return Err(self.abort(bad));
        }
        self.seeds.extend(good);
        let mut w = Writer::new();
        w.u8(wire::len_u8(self.owned.len()));
        for (mask, t) in &self.owned {
            w.u8(*mask).put(t);
        }
        self.phase = Some(Phase::Publish);
        Ok(Outgoing::broadcast(encode_framed(
            DKG_PUBLISH_MAGIC,
            &self.header(),
            &w.into_bytes(),
        )))
    }

    /// Round "confirm": checks every t_I and sums them into the key.
    fn confirm(&mut self) -> Result<Outgoing, Error> {
        let t_len = kernel::subset_t_len(self.params.mode);
        let mut bad = Vec::new();
        let mut all: BTreeMap<u8, Vec<u8>> = self.owned.iter().cloned().collect();
        for (&from, list) in &self.parts {
            let commits = self
                .commits
                .get(&from)
                .map(|c| entries(c, 64))
                .unwrap_or_default();
            for (mask, t) in entries(list, t_len) {
                let committed = commits.iter().find(|(m, _)| *m == mask).map(|(_, c)| &c[32..]);
                // t_I is public (its owner publishes it): only the seed behind it is secret.
                let mine = self.seeds.get(&mask).map(|seed| {
                    let t = kernel::subset_t(
                        self.params.mode,
                        &self.matrix,
                        &kernel::expand_subset(self.params.mode, mask, seed),
                    );
                    crate::ct::public_slice(&t);
                    t
                });
                let breaks_hash = committed != Some(&digest(&self.binding, b"t", mask, t)[..]);
                let breaks_seed = mine.is_some_and(|m| m != t);
                if breaks_hash || breaks_seed {
                    bad.push(Blame::new(from, BlameReason::BrokenReveal));
                } else {
                    all.insert(mask, t.to_vec());
                }
            }
        }
        if !bad.is_empty() {
            for b in &bad {
                self.parts.remove(&b.party);
            }
            return Err(self.abort(bad));
        }
        let parts: Vec<&[u8]> = all.values().map(Vec::as_slice).collect();
        let public_key = kernel::public_key_from_parts(self.params.mode, &self.rho, &parts)
            .ok_or(Error::InvalidCommittee("a published t_I is malformed"))?;
        let key = CommitteeKey::new(
            self.params.mode,
            self.shape.threshold,
            &self.params.members,
            public_key,
        );
        let id = key.id();
        self.key = Some(key);
        self.phase = Some(Phase::Confirm);
        Ok(Outgoing::broadcast(encode_framed(
            DKG_CONFIRM_MAGIC,
            &self.header(),
            &id,
        )))
    }

    fn finish(&mut self) -> Result<Step<Keyed>, Error> {
        let key = self.key.clone().ok_or(Error::InvalidCommittee("no key yet"))?;
        let id = key.id();
        let differing: Vec<Blame> = self
            .confirms
            .iter()
            .filter(|(_, c)| c.as_slice() != id)
            .map(|(p, _)| Blame::new(*p, BlameReason::InvalidAnnouncement))
            .collect();
        if !differing.is_empty() {
            return Err(self.abort(differing));
        }
        let secrets = self
            .seeds
            .iter()
            .filter(|(mask, _)| *mask >> self.index & 1 == 1)
            .map(|(&mask, seed)| kernel::expand_subset(self.params.mode, mask, seed))
            .collect();
        let share = KeyShare::new(
            key.clone(),
            self.me,
            PartyShare {
                index: self.index,
                key: *self.hedge,
                secrets,
            },
        );
        self.phase = None;
        let mut dropped = core::mem::take(&mut self.dropped);
        tidy(&mut dropped);
        Ok(Step::Done(Outgoing::none(), Keyed { key, share, dropped }))
    }
}

/// Reads `count ‖ (mask ‖ item_len bytes)*`: exactly the masks of `expected`, in order.
fn read_list<'a>(
    body: &'a [u8],
    expected: &[u8],
    item_len: usize,
) -> Result<Vec<(u8, &'a [u8])>, wire::Error> {
    let mut r = Reader::new(body);
    if usize::from(r.u8()?) != expected.len() {
        return Err(wire::Error::InvalidValue("subset count"));
    }
    let mut out = Vec::with_capacity(expected.len());
    for &mask in expected {
        if r.u8()? != mask {
            return Err(wire::Error::InvalidValue("subset list"));
        }
        out.push((mask, r.take(item_len)?));
    }
    r.finish()?;
    Ok(out)
}

/// The entries of a list checked on arrival.
fn entries(body: &[u8], item_len: usize) -> Vec<(u8, &[u8])> {
    body.get(1..)
        .unwrap_or_default()
        .chunks_exact(1 + item_len)
        .map(|c| (c[0], &c[1..]))
        .collect()
}

/// A `PQD2` body as received (secret seeds): wiped when dropped, and compared without a
/// data-dependent early exit, so that telling a duplicate from a conflicting copy reveals
/// nothing of the seeds (only the lengths, which are public).
struct PrivateSeeds(Zeroizing<Vec<u8>>);

impl PartialEq for PrivateSeeds {
    fn eq(&self, other: &Self) -> bool {
        crate::ct::bytes_eq(&self.0, &other.0)
    }
}

impl Party for Dkg {
    type Output = Keyed;

    fn id(&self) -> PartyId {
        self.me
    }

    fn dropped_so_far(&self) -> &[Blame] {
        &self.dropped
    }

    fn round(&self) -> Option<Round> {
        let (number, name) = match self.phase? {
            Phase::Commit => (1, "publish"),
            Phase::Publish => (2, "confirm"),
            Phase::Confirm => (3, "finish"),
        };
        Some(Round { number, name })
    }

    /// Files the inbox, then runs the current round once every message it needs is in.
    ///
    /// # Errors
    /// [`Error::Aborted`] naming an owner whose seed or t_I breaks its commitment, or a
    /// member confirming another key; [`crate::party::Error::Finished`] after the end.
    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<Keyed>, crate::Error> {
        let Some(phase) = self.phase else {
            return Err(crate::party::Error::Finished.into());
        };
        let mut dropped = Vec::new();
        for (from, _, bytes) in unique(self.me, inbox, &mut dropped).messages {
            if let Some(reason) = self.file(from, bytes) {
                dropped.push(Blame::new(from, reason));
            }
        }
        self.dropped.extend(dropped);
        let ready = match phase {
            Phase::Commit => {
                self.others_in(|p| self.commits.contains_key(p), false)
                    && self.others_in(|p| self.received.contains_key(p), true)
            }
            Phase::Publish => self.others_in(|p| self.parts.contains_key(p), false),
            Phase::Confirm => self.others_in(|p| self.confirms.contains_key(p), false),
        };
        if !ready {
            return Ok(Step::Waiting);
        }
        Ok(match phase {
            Phase::Commit => Step::Continue(self.publish()?),
            Phase::Publish => Step::Continue(self.confirm()?),
            Phase::Confirm => self.finish()?,
        })
    }
}
