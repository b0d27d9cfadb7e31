//! The Corona lifecycle in the crate's one party shape: the dealer's key generation as
//! parties, so that a host (the simulator, a worker pool, a network node) only routes bytes;
//! then signing with [`Signer`](super::Signer), which is a party already. Corona keys are
//! never reshared: a new group is a new deal.
//!
//! ```text
//! everyone:  terms = DealTerms::new(session, dealer, t, n)?           (members are 1..=n)
//! member i:  kem = CombinerKey::generate(i, rng); publish kem.public_key()
//!            (m, out) = Deal::member(&terms, kem)?       waits for its CORD
//! dealer:    (d, out) = Deal::dealer(&terms, &the n public keys, rng)?
//!                                   ──► CORD to each member: session, CORG, its CORE (sealed to its key)
//!            d.step(&[]) ⇒ Done(Dealt { group_key, share: None })
//! member i:  m.step(inbox) ⇒ Done(Dealt { group_key, share: Some(KeyShare) })
//! then:      Signer::start(&share, &SignParams::new(..)?, rng)   (COR1, COR2 ⇒ CORS)
//! ```
//!
//! The dealer is a party of its own, outside the members (an id above n). It learns the key
//! while it deals (Corona's trust model: a trusted dealer) and wipes it before `dealer`
//! returns. A `CORD` that is not from the dealer, of another session, malformed, or whose
//! envelope does not open for the member under the `CORG` it carries, is dropped and its
//! sender named; the member keeps waiting.

use alloc::boxed::Box;
use alloc::vec::Vec;

use rand_core::CryptoRngCore;
use zeroize::Zeroizing;

use super::{deal_sealed, Error, GroupKey, KeyShare, GROUP_KEY_LEN};
use crate::party::inbox::{tidy, unique};
use crate::party::{Blame, BlameReason};
use crate::party::{Incoming, Outgoing, Party, Round, Step};
use crate::pulsar::custody::{CombinerKey, CombinerPublicKey};
use crate::wire::{Reader, Writer};
use crate::PartyId;

/// Magic of the dealer's message to one member.
pub const DEAL_MAGIC: [u8; 4] = *b"CORD";
const DEAL_VERSION: u16 = 1;
/// The longest sealed package a `CORD` may carry (a group of 1024).
const MAX_SEALED_LEN: usize = 1 << 17;

/// What the dealer and every member agree on before a deal: the session, the dealer, t and n
/// (the members are parties 1..=n).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealTerms {
    session: [u8; 32],
    dealer: PartyId,
    threshold: usize,
    parties: usize,
}

impl DealTerms {
    /// A deal of a `threshold`-of-`parties` key by `dealer` to parties 1..=`parties`, in
    /// session `session` (fresh per deal).
    ///
    /// # Errors
    /// [`Error::InvalidThreshold`] unless 2 ≤ t ≤ n ≤ 1024; [`Error::DuplicateSigner`] for a
    /// dealer that is also a member (the dealer is a party of its own: an id above n).
    pub fn new(
        session: [u8; 32],
        dealer: PartyId,
        threshold: usize,
        parties: usize,
    ) -> Result<DealTerms, Error> {
        if threshold < super::MIN_THRESHOLD || threshold > parties || parties > super::MAX_PARTIES {
            return Err(Error::InvalidThreshold {
                t: threshold,
                n: parties,
            });
        }
        if usize::from(dealer.get()) <= parties {
            return Err(Error::DuplicateSigner { party: dealer });
        }
        Ok(DealTerms {
            session,
            dealer,
            threshold,
            parties,
        })
    }

    /// The members, 1..=n.
    pub fn members(&self) -> impl Iterator<Item = PartyId> {
        // Exact: n ≤ 1024.
        #[allow(clippy::cast_possible_truncation)]
        (1..=self.parties as u16).filter_map(PartyId::new)
    }
}

/// The end of a deal: the group key, and a member's share.
#[derive(Debug, Clone)]
pub struct Dealt {
    /// The group key (`CORG`).
    pub group_key: GroupKey,
    /// The member's share (`None` for the dealer, which kept nothing).
    pub share: Option<Box<KeyShare>>,
    /// Messages dropped on the way, with their senders named.
    pub dropped: Vec<Blame>,
}

enum Role {
    /// The dealer, done once its messages are out.
    Dealer(GroupKey),
    /// A member waiting for its `CORD` (the ML-KEM key is large: boxed).
    Member(Box<CombinerKey>),
}

/// A party of a deal: the dealer or one member (see the module docs).
pub struct Deal {
    me: PartyId,
    terms: DealTerms,
    role: Option<Role>,
    dropped: Vec<Blame>,
}

impl Deal {
    /// The dealer: deals, seals each package to its member's ML-KEM-768 key (`keys[i]` party
    /// i + 1's, as the members published them) and sends each its `CORD`.
    ///
    /// # Errors
    /// [`Error::WrongSignerCount`] for other than n keys; as [`deal_sealed`] (a key out of
    /// place: [`Error::UnknownParty`]).
    pub fn dealer(
        terms: &DealTerms,
        keys: &[CombinerPublicKey],
        rng: &mut impl CryptoRngCore,
    ) -> Result<(Deal, Outgoing), Error> {
        if keys.len() != terms.parties {
            return Err(Error::WrongSignerCount {
                min: terms.parties,
                max: terms.parties,
                got: keys.len(),
            });
        }
        let (group_key, sealed) = deal_sealed(terms.threshold, keys, rng)?;
        let corg = group_key.to_bytes();
        let mut out = Outgoing::none();
        for (to, package) in terms.members().zip(sealed) {
            let mut w = Writer::with_header(&DEAL_MAGIC, DEAL_VERSION);
            w.put(&terms.session).bytes(&corg).bytes(&package);
            out.direct.push(crate::party::Direct {
                to,
                bytes: Zeroizing::new(w.into_bytes()),
            });
        }
        let party = Deal {
            me: terms.dealer,
            terms: terms.clone(),
            role: Some(Role::Dealer(group_key)),
            dropped: Vec::new(),
        };
        Ok((party, out))
    }

    /// Member `kem.id()`, waiting for its `CORD` (it publishes `kem.public_key()` for the
    /// dealer first).
    ///
    /// # Errors
    /// [`Error::UnknownParty`] when `kem.id()` is not in 1..=n.
    pub fn member(terms: &DealTerms, kem: CombinerKey) -> Result<(Deal, Outgoing), Error> {
        let me = kem.id();
        if usize::from(me.get()) > terms.parties {
            return Err(Error::UnknownParty { party: me });
        }
        let party = Deal {
            me,
            terms: terms.clone(),
            role: Some(Role::Member(Box::new(kem))),
            dropped: Vec::new(),
        };
        Ok((party, Outgoing::none()))
    }

    /// A `CORD` opened for this member, or why its sender is named.
    fn open(&self, kem: &CombinerKey, bytes: &[u8]) -> Result<(GroupKey, KeyShare), BlameReason> {
        let mut r = Reader::new(bytes);
        r.header(&DEAL_MAGIC, DEAL_VERSION)
            .map_err(BlameReason::Malformed)?;
        let session = r.array::<32>().map_err(BlameReason::Malformed)?;
        let corg = r.bytes(GROUP_KEY_LEN).map_err(BlameReason::Malformed)?;
        let sealed = r.bytes(MAX_SEALED_LEN).map_err(BlameReason::Malformed)?;
        r.finish().map_err(BlameReason::Malformed)?;
        if session != self.terms.session {
            return Err(BlameReason::WrongSession);
        }
        let group_key = GroupKey::from_bytes(corg).map_err(|_| BlameReason::MalformedDeal)?;
        let share = KeyShare::open_sealed(sealed, kem, &group_key).map_err(|_| BlameReason::MalformedDeal)?;
        if share.threshold() != self.terms.threshold || share.parties() != self.terms.parties {
            return Err(BlameReason::ParameterMismatch);
        }
        Ok((group_key, share))
    }
}

impl Party for Deal {
    type Output = Dealt;

    fn id(&self) -> PartyId {
        self.me
    }

    fn round(&self) -> Option<Round> {
        self.role.as_ref().map(|_| Round {
            number: 1,
            name: "deal",
        })
    }

    fn dropped_so_far(&self) -> &[Blame] {
        &self.dropped
    }

    /// The dealer finishes at once (whatever arrives is not for it); a member files its inbox
    /// and finishes with the first `CORD` from the dealer that opens.
    ///
    /// # Errors
    /// After the end, [`crate::party::Error::Finished`].
    fn step(&mut self, inbox: &[Incoming<'_>]) -> Result<Step<Dealt>, crate::Error> {
        let Some(role) = self.role.take() else {
            return Err(crate::party::Error::Finished.into());
        };
        let mut dropped = Vec::new();
        let messages = unique(self.me, inbox, &mut dropped).messages;
        let kem = match role {
            Role::Dealer(group_key) => {
                dropped.extend(
                    messages
                        .iter()
                        .map(|(from, _, _)| Blame::new(*from, BlameReason::WrongKind)),
                );
                self.dropped.extend(dropped);
                let mut dropped = core::mem::take(&mut self.dropped);
                tidy(&mut dropped);
                return Ok(Step::Done(
                    Outgoing::none(),
                    Dealt {
                        group_key,
                        share: None,
                        dropped,
                    },
                ));
            }
            Role::Member(kem) => kem,
        };
        let mut done = None;
        for (from, magic, bytes) in messages {
            let verdict = if from != self.terms.dealer {
                Err(BlameReason::UnknownParty)
            } else if magic != DEAL_MAGIC {
                Err(BlameReason::WrongKind)
            } else if done.is_some() {
                Err(BlameReason::DuplicateMessage)
            } else {
                self.open(&kem, bytes)
            };
            match verdict {
                Ok(opened) => done = Some(opened),
                Err(reason) => dropped.push(Blame::new(from, reason)),
            }
        }
        self.dropped.extend(dropped);
        match done {
            Some((group_key, share)) => {
                let mut dropped = core::mem::take(&mut self.dropped);
                tidy(&mut dropped);
                Ok(Step::Done(
                    Outgoing::none(),
                    Dealt {
                        group_key,
                        share: Some(Box::new(share)),
                        dropped,
                    },
                ))
            }
            None => {
                self.role = Some(Role::Member(kem));
                Ok(Step::Waiting)
            }
        }
    }
}

// On the simulator (`sim`), as every lifecycle test.
#[cfg(test)]
#[cfg(feature = "sim")]
mod tests {
    use super::*;
    use crate::party::sim::{party_rng, Network};

    fn id(n: u16) -> PartyId {
        PartyId::new(n).unwrap()
    }

    fn kems(n: u16) -> Vec<CombinerKey> {
        (1..=n)
            .map(|i| CombinerKey::generate(id(i), &mut party_rng(b"corona deal kem", id(i))))
            .collect()
    }

    #[test]
    fn a_deal_over_the_network_gives_every_member_a_share_that_signs() {
        let kems = kems(4);
        let keys: Vec<CombinerPublicKey> = kems.iter().map(|k| k.public_key().clone()).collect();
        let terms = DealTerms::new([7; 32], id(9), 3, 4).unwrap();
        let mut net = Network::new();
        for kem in kems {
            let (m, out) = Deal::member(&terms, kem).unwrap();
            net.add(m, out);
        }
        let (dealer, out) = Deal::dealer(&terms, &keys, &mut party_rng(b"dealer", id(9))).unwrap();
        net.add(dealer, out);
        let outputs = net.run();
        let dealt: Vec<Dealt> = outputs.into_values().map(Result::unwrap).collect();
        let key = dealt[0].group_key.clone();
        assert!(dealt.iter().all(|d| d.group_key == key && d.dropped.is_empty()));
        let shares: Vec<KeyShare> = dealt.into_iter().filter_map(|d| d.share.map(|s| *s)).collect();
        assert_eq!(shares.len(), 4);
        // Three of them sign.
        let signers = [id(1), id(3), id(4)];
        let sign = super::super::SignParams::new([8; 32], &signers, b"block", b"").unwrap();
        let mut net = Network::new();
        for s in shares.iter().filter(|s| signers.contains(&s.id())) {
            let (p, out) = super::super::Signer::start(s, &sign, &mut party_rng(b"sign", s.id())).unwrap();
            net.add(p, out);
        }
        let sig = net.run().into_values().next().unwrap().unwrap().signature;
        key.verify(b"block", b"", &sig).unwrap();
    }

    #[test]
    fn a_bad_deal_message_is_dropped_and_its_sender_named_and_the_member_waits() {
        let kems = kems(3);
        let keys: Vec<CombinerPublicKey> = kems.iter().map(|k| k.public_key().clone()).collect();
        let terms = DealTerms::new([7; 32], id(9), 2, 3).unwrap();
        assert!(
            DealTerms::new([7; 32], id(2), 2, 3).is_err(),
            "a dealer among the members"
        );
        assert!(DealTerms::new([7; 32], id(9), 1, 3).is_err());
        assert!(Deal::dealer(&terms, &keys[..2], &mut party_rng(b"d", id(9))).is_err());
        let mut swapped = keys.clone();
        swapped.swap(0, 1);
        assert!(Deal::dealer(&terms, &swapped, &mut party_rng(b"d", id(9))).is_err());
        let (_, out) = Deal::dealer(&terms, &keys, &mut party_rng(b"dealer", id(9))).unwrap();
        let mut kems = kems.into_iter();
        let kem1 = kems.next().unwrap();
        let mine = out.direct.iter().find(|d| d.to == id(1)).unwrap().bytes.to_vec();
        let theirs = out.direct.iter().find(|d| d.to == id(2)).unwrap().bytes.to_vec();
        let (mut m, _) = Deal::member(&terms, kem1).unwrap();
        let mut other_session = mine.clone();
        other_session[6] ^= 1;
        let mut flipped = mine.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        let cases: [(PartyId, &[u8], &str); 5] = [
            (id(2), &mine, "UNKNOWN_PARTY"),
            (id(9), &other_session, "WRONG_SESSION"),
            (id(9), &flipped, "MALFORMED_DEAL"),
            (id(9), &theirs, "MALFORMED_DEAL"),
            (id(9), &mine[..mine.len() - 1], "MALFORMED_MESSAGE"),
        ];
        for (from, bytes, code) in cases {
            let step = m.step(&[Incoming::new(from, bytes)]).unwrap();
            assert!(step.is_waiting(), "{code}");
            assert_eq!(m.dropped_so_far().last().unwrap().reason.code(), code);
        }
        match m.step(&[Incoming::new(id(9), &mine)]).unwrap() {
            Step::Done(_, dealt) => {
                assert_eq!(dealt.share.unwrap().id(), id(1));
                // Five drops, the two of the same sender and reason reported once.
                assert_eq!(dealt.dropped.len(), 4);
            }
            other => panic!("{other:?}"),
        }
    }
}
