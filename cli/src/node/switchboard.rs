//! The switchboard: files what the transport delivers (hellos, commands, reports, frames,
//! echoes) with the current run's local nodes.
//!
//! Every message is checked before it is filed: its run id must be the run's; a command,
//! a hello or a bye must come from process 0; a report, a frame or an echo must come from
//! the process that hosts its sender node, and a frame or an echo must be addressed to
//! nodes hosted here. A sealed frame must open with this process's ML-KEM-768 key under its
//! binding; a public frame must carry its process's signature. Anything else is dropped
//! (and counted).

use std::collections::BTreeMap;
use std::sync::mpsc::Sender;
use std::sync::Mutex;

use libp2p::PeerId;
use quasar_pq::pulsar::custody::envelope::open_message;
use quasar_pq::pulsar::custody::CombinerKey;
use zeroize::Zeroizing;

use super::echo::Echo;
use super::roster::Process;
use super::wire::{broadcast_statement, digest, frame_binding, Wire};
use crate::driver::{Cmd, Report, Status};
use crate::flow::Phase;
use crate::net::{Addr, Frame};

/// What the switchboard hands the process's main thread.
#[derive(Debug)]
pub(crate) enum Control {
    /// Process 0 starts a run.
    Hello {
        /// The run id.
        run: [u8; 32],
        /// The demo's arguments.
        args: Vec<String>,
    },
    /// A process is ready for the run.
    Ready {
        /// The process.
        from: usize,
        /// The run id.
        run: [u8; 32],
    },
    /// Process 0 ends the run.
    Bye {
        /// The run id.
        run: [u8; 32],
    },
}

/// Where the current run's messages go.
#[derive(Default)]
pub(crate) struct Board {
    /// The run.
    pub run: [u8; 32],
    /// The local nodes' inboxes.
    pub inboxes: BTreeMap<Addr, Sender<Frame>>,
    /// The local nodes' command channels (a serving process).
    pub ctrl: BTreeMap<Addr, Sender<(u32, Cmd<Phase>)>>,
    /// The local nodes' echo channels.
    pub echoes: BTreeMap<Addr, Sender<Echo>>,
    /// Where reports go (the conducting process).
    pub reports: Option<Sender<Report>>,
}

/// Files one decoded message from `peer` (see the module docs); false if it was dropped.
pub(crate) fn file(
    processes: &[Process],
    me: usize,
    board: &Mutex<Board>,
    control: &Sender<Control>,
    kem: &CombinerKey,
    peer: PeerId,
    wire: Wire,
) -> bool {
    let Some(from) = processes.iter().find(|p| p.peer == peer) else {
        return false;
    };
    let board = board.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let conductor = from.index == 0 && me != 0;
    match wire {
        Wire::Hello { run, args } if conductor => control.send(Control::Hello { run, args }).is_ok(),
        Wire::Bye { run } if conductor => control.send(Control::Bye { run }).is_ok(),
        Wire::Ready { run, .. } if me == 0 => control
            .send(Control::Ready {
                from: from.index,
                run,
            })
            .is_ok(),
        Wire::Command { run, no, to, cmd } if conductor && run == board.run => match board.ctrl.get(&to) {
            Some(tx) => tx.send((no, cmd)).is_ok(),
            None => false,
        },
        Wire::Report { run, mut report } if run == board.run && from.addrs.contains(&report.addr) => {
            // A failure is the reporting node's, whatever the report says.
            if let Status::Failed(f) = &mut report.status {
                f.node = Some(report.addr);
            }
            match &board.reports {
                Some(tx) => tx.send(report).is_ok(),
                None => false,
            }
        }
        Wire::Frame {
            run,
            tag,
            from: sender,
            to,
            sealed,
            bytes,
            signature,
        } if run == board.run && from.addrs.contains(&sender) => {
            let bytes = if sealed {
                match open_message(kem, &frame_binding(&run, tag, sender, &to), &bytes) {
                    Some(b) => b,
                    None => return false,
                }
            } else {
                let statement = broadcast_statement(&run, tag, sender, &digest(&bytes));
                if !from.identity.verify(&statement, &signature) {
                    return false;
                }
                Zeroizing::new(bytes)
            };
            let signature = if sealed { Vec::new() } else { signature };
            // Every recipient must be hosted here, or the frame is dropped whole.
            let inboxes: Option<Vec<&Sender<Frame>>> = to.iter().map(|a| board.inboxes.get(a)).collect();
            match inboxes {
                Some(inboxes) if !inboxes.is_empty() => {
                    for inbox in inboxes {
                        let _ = inbox.send(Frame {
                            tag,
                            from: sender,
                            bytes: bytes.clone(),
                            signature: signature.clone(),
                        });
                    }
                    true
                }
                _ => false,
            }
        }
        Wire::Echo {
            run,
            tag,
            from: echoer,
            to,
            entries,
        } if run == board.run && from.addrs.contains(&echoer) => match board.echoes.get(&to) {
            Some(tx) => tx.send((tag, echoer, entries)).is_ok(),
            None => false,
        },
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;
    use libp2p::identity::Keypair;
    use quasar_pq::pulsar::custody::envelope::seal_message;

    fn roster(kem: &CombinerKey, ids: &[Keypair]) -> Vec<Process> {
        ids.iter()
            .enumerate()
            .map(|(i, id)| Process {
                index: i,
                peer: id.public().to_peer_id(),
                identity: id.public(),
                listen: Some("/ip4/127.0.0.1/tcp/1".parse().unwrap()),
                ws: None,
                kem: kem.public_key().clone(),
                addrs: vec![u16::try_from(i).unwrap()],
            })
            .collect()
    }

    /// A public frame from node `from`, signed with `key`.
    fn frame(key: &Keypair, run: [u8; 32], from: Addr, to: Vec<Addr>) -> Vec<u8> {
        let bytes = b"LSD1....".to_vec();
        let signature = key
            .sign(&broadcast_statement(&run, 4, from, &digest(&bytes)))
            .unwrap();
        Wire::Frame {
            run,
            tag: 4,
            from,
            to,
            sealed: false,
            bytes,
            signature,
        }
        .to_bytes()
    }

    #[test]
    fn the_switchboard_files_only_what_the_roster_allows() {
        let kem = CombinerKey::generate(
            quasar_pq::PartyId::new(3).unwrap(),
            &mut super::super::fresh_rng(),
        );
        let ids: Vec<Keypair> = (0..3).map(|_| Keypair::generate_ed25519()).collect();
        let processes = roster(&kem, &ids);
        // Process 2's switchboard, in run [9; 32], hosting node 2.
        let board = Mutex::new(Board {
            run: [9; 32],
            ..Board::default()
        });
        let (inbox_tx, inbox) = mpsc::channel();
        board.lock().unwrap().inboxes.insert(2, inbox_tx);
        let (ctrl_tx, ctrl) = mpsc::channel();
        board.lock().unwrap().ctrl.insert(2, ctrl_tx);
        let (control, _control_rx) = mpsc::channel();
        let p = |i: usize| processes[i].peer;
        // Garbage never decodes (the switchboard's loop drops it before filing).
        let file = |peer, bytes: &[u8]| {
            Wire::from_bytes(bytes).is_some_and(|w| file(&processes, 2, &board, &control, &kem, peer, w))
        };

        // A frame from node 1, sent and signed by process 1, to node 2: filed.
        assert!(file(p(1), &frame(&ids[1], [9; 32], 1, vec![2])));
        assert_eq!(inbox.try_recv().unwrap().from, 1);
        // Process 1 speaking for node 0, another run, a node not hosted here, a stranger,
        // a signature by another process, garbage: all dropped, nothing filed.
        assert!(!file(p(1), &frame(&ids[1], [9; 32], 0, vec![2])));
        assert!(!file(p(1), &frame(&ids[1], [8; 32], 1, vec![2])));
        assert!(!file(p(1), &frame(&ids[1], [9; 32], 1, vec![1])));
        let stranger = Keypair::generate_ed25519().public().to_peer_id();
        assert!(!file(stranger, &frame(&ids[1], [9; 32], 1, vec![2])));
        assert!(!file(p(1), &frame(&ids[0], [9; 32], 1, vec![2])));
        assert!(!file(p(1), b"\xff\xff\xff"));
        assert!(inbox.try_recv().is_err());

        // A sealed frame opens only with its binding: resealed for another recipient or
        // command, or altered, it is dropped.
        let mut rng = super::super::fresh_rng();
        let mut sealed = |tag: u32, to: Addr, bytes: &[u8]| {
            let binding = frame_binding(&[9; 32], tag, 1, &[to]);
            Wire::Frame {
                run: [9; 32],
                tag: 4,
                from: 1,
                to: vec![2],
                sealed: true,
                bytes: seal_message(kem.public_key(), &binding, bytes, &mut rng),
                signature: Vec::new(),
            }
            .to_bytes()
        };
        assert!(file(p(1), &sealed(4, 2, b"LSD1 share")));
        assert_eq!(&inbox.try_recv().unwrap().bytes[..], b"LSD1 share");
        assert!(!file(p(1), &sealed(5, 2, b"LSD1 share")));
        assert!(!file(p(1), &sealed(4, 1, b"LSD1 share")));
        let mut bad = sealed(4, 2, b"LSD1 share");
        let last = bad.len() - 1;
        bad[last] ^= 1;
        assert!(!file(p(1), &bad));
        assert!(inbox.try_recv().is_err());

        // Commands come from the conductor (process 0) only.
        let cmd = Wire::Command {
            run: [9; 32],
            no: 1,
            to: 2,
            cmd: Cmd::Start { from: 0, expect: 0 },
        }
        .to_bytes();
        assert!(!file(p(1), &cmd));
        assert!(ctrl.try_recv().is_err());
        assert!(file(p(0), &cmd));
        assert!(matches!(ctrl.try_recv().unwrap(), (1, Cmd::Start { .. })));
    }
}
