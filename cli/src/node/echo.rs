//! The echo round: consistent broadcast among the nodes stepping on one command.
//!
//! Before a node steps, it sends every other stepping node the digests of the public frames
//! it received for the command, each with its sender's signature, and reads theirs (at most
//! the timeout). A sender whose own signature stands on a digest other than the one this
//! node received equivocated: every honest node sees both, drops that sender's public
//! frames from the inbox and names it (`EQUIVOCATION`). A forged entry cannot frame an
//! honest sender, whose signature it cannot make; a signature is checked only when a digest
//! differs, so the honest case costs no verification.

use core::time::Duration;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;
use std::time::Instant;

use libp2p::identity::PublicKey;
use libp2p::PeerId;

use super::transport::Outbox;
use super::wire::{broadcast_statement, digest, Wire};
use crate::conduct::Event;
use crate::net::{Addr, Consistency, Frame};

/// An echo: the command, the echoing node, and its `(sender, digest, signature)` entries.
pub(crate) type Echo = (u32, Addr, Vec<(Addr, [u8; 32], Vec<u8>)>);

/// Where a node's echoes go: to the nodes of its own process directly, to the others over
/// the network; with every node's process identity, to check signatures.
pub(crate) struct EchoLinks {
    /// Every node's process peer id and identity key.
    pub keys: Arc<BTreeMap<Addr, (PeerId, PublicKey)>>,
    /// The echo channels of the nodes of this process.
    pub local: Arc<BTreeMap<Addr, Sender<Echo>>>,
    /// The network.
    pub outbox: Outbox,
}

/// Node `me`'s echo round (see the module docs), as its endpoint's consistency check.
pub(crate) fn echo_round(
    run: [u8; 32],
    me: Addr,
    links: EchoLinks,
    echoes: Receiver<Echo>,
    timeout: Duration,
) -> Consistency {
    let EchoLinks { keys, local, outbox } = links;
    // Echoes of later commands that arrived early.
    let mut early: Vec<Echo> = Vec::new();
    Box::new(move |tag: u32, stepping: &[Addr], frames: &mut Vec<Frame>| {
        let mine: Vec<(Addr, [u8; 32], Vec<u8>)> = frames
            .iter()
            .filter(|f| !f.signature.is_empty())
            .map(|f| (f.from, digest(&f.bytes), f.signature.clone()))
            .collect();
        let others: Vec<Addr> = stepping.iter().copied().filter(|&a| a != me).collect();
        for &to in &others {
            if let Some(tx) = local.get(&to) {
                let _ = tx.send((tag, me, mine.clone()));
            } else if let Some((peer, _)) = keys.get(&to) {
                let w = Wire::Echo {
                    run,
                    tag,
                    from: me,
                    to,
                    entries: mine.clone(),
                };
                outbox.send(*peer, w.to_bytes());
            }
        }
        let mut heard: Vec<Echo> = Vec::new();
        early.retain(|e| {
            if e.0 == tag {
                heard.push(e.clone());
            }
            e.0 > tag
        });
        let deadline = Instant::now() + timeout;
        let answered = |heard: &[Echo]| others.iter().all(|o| heard.iter().any(|e| e.1 == *o));
        while !answered(&heard) {
            match echoes.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(e) if e.0 == tag && others.contains(&e.1) => heard.push(e),
                Ok(e) if e.0 > tag => early.push(e),
                Ok(_) => {}
                Err(_) => break,
            }
        }
        // A sender equivocated if its own signature stands on a digest other than ours.
        let mut equivocators = BTreeSet::new();
        for (_, _, entries) in &heard {
            for (j, d, sig) in entries {
                let Some((_, ours, _)) = mine.iter().find(|m| m.0 == *j) else {
                    continue;
                };
                // Only a differing digest is worth a signature check.
                if d == ours || equivocators.contains(j) {
                    continue;
                }
                let signed = keys
                    .get(j)
                    .is_some_and(|(_, k)| k.verify(&broadcast_statement(&run, tag, *j, d), sig));
                if signed {
                    equivocators.insert(*j);
                }
            }
        }
        frames.retain(|f| f.signature.is_empty() || !equivocators.contains(&f.from));
        equivocators
            .into_iter()
            .map(|j| Event::Blame {
                phase: None,
                party: j,
                code: "EQUIVOCATION",
                reason: "signed two different broadcasts for one round (shown by the echo); its broadcast was dropped everywhere".into(),
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;
    use crate::node::transport::Transport;
    use libp2p::identity::Keypair;
    use zeroize::Zeroizing;

    #[test]
    fn the_echo_names_a_sender_only_on_two_of_its_own_signatures() {
        let ids: Vec<Keypair> = (0..4).map(|_| Keypair::generate_ed25519()).collect();
        let keys: Arc<BTreeMap<Addr, (PeerId, PublicKey)>> = Arc::new(
            ids.iter()
                .enumerate()
                .map(|(i, k)| (u16::try_from(i).unwrap(), (k.public().to_peer_id(), k.public())))
                .collect(),
        );
        let run = [5; 32];
        let signed = |k: &Keypair, from: Addr, bytes: &[u8]| {
            (
                from,
                digest(bytes),
                k.sign(&broadcast_statement(&run, 7, from, &digest(bytes)))
                    .unwrap(),
            )
        };
        let frame = |from: Addr, bytes: &[u8]| Frame {
            tag: 7,
            from,
            bytes: Zeroizing::new(bytes.to_vec()),
            signature: signed(&ids[usize::from(from)], from, bytes).2,
        };
        // Node 2 steps with nodes 0 and 3; it received broadcasts from 1 and 3.
        let (tx, rx) = mpsc::channel();
        let links = EchoLinks {
            keys: Arc::clone(&keys),
            local: Arc::new(BTreeMap::new()),
            outbox: Transport::detached(),
        };
        let mut check = echo_round(run, 2, links, rx, Duration::from_secs(2));
        // Node 0 echoes 1's broadcast with another digest under node 3's signature (a
        // forgery: 1 did not sign it) and 3's with another digest signed by 3 itself.
        tx.send((
            7,
            0,
            vec![signed(&ids[3], 1, b"other"), signed(&ids[3], 3, b"BBB2 variant")],
        ))
        .unwrap();
        tx.send((7, 3, vec![])).unwrap();
        let mut frames = vec![frame(1, b"AAA1 broadcast"), frame(3, b"BBB2 broadcast")];
        let blamed = check(7, &[0, 2, 3], &mut frames);
        assert_eq!(frames.len(), 1);
        assert_eq!(frames[0].from, 1);
        assert!(matches!(
            &blamed[..],
            [Event::Blame {
                party: 3,
                code: "EQUIVOCATION",
                ..
            }]
        ));
    }
}
