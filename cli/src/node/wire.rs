//! What node processes send each other: the conductor's commands and the nodes' reports
//! (public, small), and the parties' frames (the library's bytes, as they are). Encoded with
//! postcard; a message that does not decode, or whose run id is not this run's, is dropped.

use core::time::Duration;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use crate::conduct::Event;
use crate::driver::{Cmd, Report, Status};
use crate::flow::{Dealing, Phase, MESSAGES};
use crate::net::Addr;
use crate::report::Failure;
use crate::{committee, corona};

/// The longest message a node accepts (a Corona round-1 frame to one peer is ~615 KB; a
/// broadcast is sent to each peer as its own message).
pub(crate) const MAX_MESSAGE: usize = 8 << 20;

/// One message between node processes.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum Wire {
    /// Conductor → node process: a run starts, with the demo's arguments.
    Hello {
        /// The run id.
        run: [u8; 32],
        /// The `quasar demo` arguments (public parameters only).
        args: Vec<String>,
    },
    /// Node process → conductor: ready for the run, hosting these nodes.
    Ready {
        /// The run id.
        run: [u8; 32],
        /// The nodes it hosts.
        addrs: Vec<Addr>,
    },
    /// Conductor → node: command `no`.
    Command {
        /// The run id.
        run: [u8; 32],
        /// The command's number.
        no: u32,
        /// The node.
        to: Addr,
        /// The command.
        cmd: WireCmd,
    },
    /// Node → conductor: its report on a command.
    Report {
        /// The run id.
        run: [u8; 32],
        /// The report.
        report: WireReport,
    },
    /// Party bytes from node `from` to the nodes `to` (all hosted by the receiving process).
    Frame {
        /// The run id.
        run: [u8; 32],
        /// The command during which it was sent.
        tag: u32,
        /// The sending node.
        from: Addr,
        /// The receiving nodes.
        to: Vec<Addr>,
        /// Whether `bytes` are sealed to the receiving process (a direct message, which may
        /// carry a secret: ML-KEM-768 + XChaCha20-Poly1305, bound by [`frame_binding`]).
        sealed: bool,
        /// The party's bytes, or their envelope.
        bytes: Vec<u8>,
        /// A public frame: the sending process's signature of [`broadcast_statement`]
        /// (empty for a sealed one).
        signature: Vec<u8>,
    },
    /// Node `from` to node `to`: the digests of the public frames `from` received during
    /// command `tag`, each with its sender's signature (the echo round: a sender that signed
    /// two different digests for one command equivocated).
    Echo {
        /// The run id.
        run: [u8; 32],
        /// The command whose frames are echoed.
        tag: u32,
        /// The echoing node.
        from: Addr,
        /// The node echoed to.
        to: Addr,
        /// `(sender, SHA3-256 of its bytes, its signature)`.
        entries: Vec<(Addr, [u8; 32], Vec<u8>)>,
    },
    /// Conductor → node process: the run is over.
    Bye {
        /// The run id.
        run: [u8; 32],
    },
}

impl Wire {
    /// Encodes the message.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        postcard::to_allocvec(self).unwrap_or_default()
    }

    /// Decodes a message; `None` for anything else.
    pub(crate) fn from_bytes(bytes: &[u8]) -> Option<Wire> {
        if bytes.len() > MAX_MESSAGE {
            return None;
        }
        postcard::from_bytes(bytes).ok()
    }
}

/// What a sealed frame's envelope is bound to: the run, the command, the sender and the
/// recipients — so it opens nowhere else.
pub(crate) fn frame_binding(run: &[u8; 32], tag: u32, from: Addr, to: &[Addr]) -> Vec<u8> {
    let mut b = b"quasar-node-frame-v1".to_vec();
    b.extend_from_slice(run);
    b.extend_from_slice(&tag.to_be_bytes());
    b.extend_from_slice(&from.to_be_bytes());
    for a in to {
        b.extend_from_slice(&a.to_be_bytes());
    }
    b
}

/// What a process signs for each public frame it sends: the run, the command, the sending
/// node and the SHA3-256 of the bytes.
pub(crate) fn broadcast_statement(run: &[u8; 32], tag: u32, from: Addr, digest: &[u8; 32]) -> Vec<u8> {
    let mut b = b"quasar-node-broadcast-v1".to_vec();
    b.extend_from_slice(run);
    b.extend_from_slice(&tag.to_be_bytes());
    b.extend_from_slice(&from.to_be_bytes());
    b.extend_from_slice(digest);
    b
}

/// SHA3-256 of a frame's bytes.
pub(crate) fn digest(bytes: &[u8]) -> [u8; 32] {
    crate::conduct::digest(bytes)
}

/// A path, as sent (the signed messages by their index in the pipeline's list).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum WirePhase {
    /// [`Phase::Setup`].
    Setup {
        /// DKG session.
        dkg: [u8; 32],
        /// Key ceremony session.
        ceremony: [u8; 32],
        /// Members.
        parties: Vec<u16>,
        /// Threshold.
        t: u16,
        /// Key ceremony signers.
        signers: Vec<u16>,
    },
    /// [`Phase::Sign`].
    Sign {
        /// Session.
        id: [u8; 32],
        /// Signers.
        signers: Vec<u16>,
        /// Index of the message.
        message: u8,
    },
    /// [`Phase::Verify`].
    Verify(Vec<u16>, u8),
    /// [`Phase::Reshare`].
    Reshare(Dealing),
    /// [`Phase::Retire`].
    Retire(Dealing),
}

/// Every message a pipeline signs, by the index a phase is sent with.
const SIGNED: [&[u8]; 4] = [MESSAGES[0], MESSAGES[1], committee::MESSAGE, corona::MESSAGE];

fn message_index(m: &[u8]) -> u8 {
    SIGNED
        .iter()
        .position(|x| *x == m)
        .and_then(|i| u8::try_from(i).ok())
        .unwrap_or(u8::MAX)
}

fn message(i: u8) -> Option<&'static [u8]> {
    SIGNED.get(usize::from(i)).copied()
}

impl WirePhase {
    fn of(p: &Phase) -> WirePhase {
        match p {
            Phase::Setup {
                dkg,
                ceremony,
                parties,
                t,
                signers,
            } => WirePhase::Setup {
                dkg: *dkg,
                ceremony: *ceremony,
                parties: parties.clone(),
                t: *t,
                signers: signers.clone(),
            },
            Phase::Sign { id, signers, message } => WirePhase::Sign {
                id: *id,
                signers: signers.clone(),
                message: message_index(message),
            },
            Phase::Verify(a, m) => WirePhase::Verify(a.clone(), message_index(m)),
            Phase::Reshare(d) => WirePhase::Reshare(d.clone()),
            Phase::Retire(d) => WirePhase::Retire(d.clone()),
        }
    }

    fn phase(self) -> Option<Phase> {
        Some(match self {
            WirePhase::Setup {
                dkg,
                ceremony,
                parties,
                t,
                signers,
            } => Phase::Setup {
                dkg,
                ceremony,
                parties,
                t,
                signers,
            },
            WirePhase::Sign {
                id,
                signers,
                message: m,
            } => Phase::Sign {
                id,
                signers,
                message: message(m)?,
            },
            WirePhase::Verify(a, m) => Phase::Verify(a, message(m)?),
            WirePhase::Reshare(d) => Phase::Reshare(d),
            WirePhase::Retire(d) => Phase::Retire(d),
        })
    }
}

/// A command, as sent.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum WireCmd {
    /// [`Cmd::Publish`].
    Publish(WirePhase),
    /// [`Cmd::Start`].
    Start {
        /// The command whose frames to read.
        from: u32,
        /// How many.
        expect: u32,
    },
    /// [`Cmd::Flush`].
    Flush(Vec<Addr>),
    /// [`Cmd::Step`].
    Step {
        /// The command whose frames to read.
        from: u32,
        /// How many.
        expect: u32,
        /// The broadcast's members.
        members: Vec<Addr>,
        /// The nodes stepping.
        running: Vec<Addr>,
    },
}

impl WireCmd {
    /// `cmd` as sent.
    pub(crate) fn of(cmd: &Cmd<Phase>) -> WireCmd {
        match cmd {
            Cmd::Publish(p) => WireCmd::Publish(WirePhase::of(p)),
            Cmd::Start { from, expect } => WireCmd::Start {
                from: *from,
                expect: *expect,
            },
            Cmd::Flush(m) => WireCmd::Flush(m.to_vec()),
            Cmd::Step {
                from,
                expect,
                members,
                running,
            } => WireCmd::Step {
                from: *from,
                expect: *expect,
                members: members.to_vec(),
                running: running.to_vec(),
            },
        }
    }

    /// The command; `None` if it names a message this build does not know.
    pub(crate) fn cmd(self) -> Option<Cmd<Phase>> {
        Some(match self {
            WireCmd::Publish(p) => Cmd::Publish(Arc::new(p.phase()?)),
            WireCmd::Start { from, expect } => Cmd::Start { from, expect },
            WireCmd::Flush(m) => Cmd::Flush(Arc::new(m)),
            WireCmd::Step {
                from,
                expect,
                members,
                running,
            } => Cmd::Step {
                from,
                expect,
                members: Arc::new(members),
                running: Arc::new(running),
            },
        })
    }
}

/// An event, as sent.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum WireEvent {
    /// [`Event::Blame`].
    Blame {
        /// Row.
        phase: Option<String>,
        /// Party.
        party: u16,
        /// Code.
        code: String,
        /// Words.
        reason: String,
    },
    /// [`Event::Key`].
    Key {
        /// Label.
        label: String,
        /// Digest.
        digest: [u8; 32],
        /// Length.
        len: u64,
    },
    /// [`Event::Signers`].
    Signers(Vec<u16>),
    /// [`Event::Certified`].
    Certified(Vec<u16>),
    /// [`Event::Erased`].
    Erased(u64),
}

impl WireEvent {
    fn of(e: &Event) -> WireEvent {
        match e {
            Event::Blame {
                phase,
                party,
                code,
                reason,
            } => WireEvent::Blame {
                phase: phase.map(str::to_string),
                party: *party,
                code: (*code).to_string(),
                reason: reason.clone(),
            },
            Event::Key { label, digest, len } => WireEvent::Key {
                label: (*label).to_string(),
                digest: *digest,
                len: *len as u64,
            },
            Event::Signers(v) => WireEvent::Signers(v.clone()),
            Event::Certified(v) => WireEvent::Certified(v.clone()),
            Event::Erased(g) => WireEvent::Erased(*g),
        }
    }

    fn event(self) -> Event {
        match self {
            WireEvent::Blame {
                phase,
                party,
                code,
                reason,
            } => Event::Blame {
                phase: phase.map(intern),
                party,
                code: intern(code),
                reason,
            },
            WireEvent::Key { label, digest, len } => Event::Key {
                label: intern(label),
                digest,
                len: usize::try_from(len).unwrap_or(usize::MAX),
            },
            WireEvent::Signers(v) => Event::Signers(v),
            WireEvent::Certified(v) => Event::Certified(v),
            WireEvent::Erased(g) => Event::Erased(g),
        }
    }
}

fn events(v: &[Event]) -> Vec<WireEvent> {
    v.iter().map(WireEvent::of).collect()
}

fn unwire(v: Vec<WireEvent>) -> Vec<Event> {
    v.into_iter().map(WireEvent::event).collect()
}

/// A failure, as sent.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct WireFailure {
    code: String,
    module: String,
    message: String,
    culprits: Vec<u16>,
    phase: String,
}

/// A status, as sent.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) enum WireStatus {
    /// [`Status::Idle`].
    Idle,
    /// [`Status::Published`].
    Published(bool),
    /// [`Status::Local`].
    Local(Vec<WireEvent>),
    /// [`Status::Running`].
    Running,
    /// [`Status::Read`].
    Read(Vec<WireEvent>),
    /// [`Status::Waiting`].
    Waiting(Vec<WireEvent>),
    /// [`Status::Done`].
    Done(Vec<WireEvent>),
    /// [`Status::Failed`].
    Failed(WireFailure),
}

/// A report, as sent.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct WireReport {
    no: u32,
    addr: Addr,
    cpu_ns: u64,
    status: WireStatus,
    label: Option<u32>,
    sent: Vec<(Addr, u32)>,
    bytes: u64,
}

impl WireReport {
    /// `r` as sent.
    pub(crate) fn of(r: &Report) -> WireReport {
        let status = match &r.status {
            Status::Idle => WireStatus::Idle,
            Status::Published(b) => WireStatus::Published(*b),
            Status::Local(e) => WireStatus::Local(events(e)),
            Status::Running => WireStatus::Running,
            Status::Read(e) => WireStatus::Read(events(e)),
            Status::Waiting(e) => WireStatus::Waiting(events(e)),
            Status::Done(e) => WireStatus::Done(events(e)),
            Status::Failed(f) => WireStatus::Failed(WireFailure {
                code: f.code.to_string(),
                module: f.module.to_string(),
                message: f.message.clone(),
                culprits: f.culprits.clone(),
                phase: f.phase.clone(),
            }),
        };
        WireReport {
            no: r.no,
            addr: r.addr,
            cpu_ns: u64::try_from(r.cpu.as_nanos()).unwrap_or(u64::MAX),
            status,
            label: r.label.and_then(|l| u32::try_from(l).ok()),
            sent: r.sent.iter().map(|(&a, &n)| (a, n)).collect(),
            bytes: r.bytes,
        }
    }

    /// The node this report is about.
    pub(crate) fn addr(&self) -> Addr {
        self.addr
    }

    /// The report.
    pub(crate) fn report(self) -> Report {
        let status = match self.status {
            WireStatus::Idle => Status::Idle,
            WireStatus::Published(b) => Status::Published(b),
            WireStatus::Local(e) => Status::Local(unwire(e)),
            WireStatus::Running => Status::Running,
            WireStatus::Read(e) => Status::Read(unwire(e)),
            WireStatus::Waiting(e) => Status::Waiting(unwire(e)),
            WireStatus::Done(e) => Status::Done(unwire(e)),
            WireStatus::Failed(f) => Status::Failed(Failure {
                code: intern(f.code),
                module: intern(f.module),
                message: f.message,
                culprits: f.culprits,
                phase: f.phase,
                node: Some(self.addr),
            }),
        };
        Report {
            no: self.no,
            addr: self.addr,
            cpu: Duration::from_nanos(self.cpu_ns),
            status,
            label: self.label.and_then(|l| usize::try_from(l).ok()),
            sent: self.sent.into_iter().collect::<BTreeMap<_, _>>(),
            bytes: self.bytes,
        }
    }
}

/// The most distinct strings a process keeps from reports (codes, labels: a few dozen in
/// any run); past it, or for a long one, a placeholder.
const INTERNED_MAX: usize = 1024;
const INTERNED_LEN: usize = 64;

/// A `'static` copy of a code or label a report carries, kept once per process (the
/// report types hold `&'static str`); bounded, so a peer cannot grow it without limit.
fn intern(s: String) -> &'static str {
    static SEEN: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let Ok(mut seen) = SEEN.lock() else {
        return "UNKNOWN";
    };
    if let Some(&k) = seen.get(s.as_str()) {
        return k;
    }
    if seen.len() >= INTERNED_MAX || s.len() > INTERNED_LEN {
        return "UNKNOWN";
    }
    let k: &'static str = Box::leak(s.into_boxed_str());
    seen.insert(k);
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_a_pipeline_signs_has_an_index() {
        for m in SIGNED {
            let i = message_index(m);
            assert_ne!(i, u8::MAX);
            assert_eq!(message(i), Some(m));
        }
        assert_eq!(message_index(b"not signed by any pipeline"), u8::MAX);
    }

    #[test]
    fn a_command_survives_the_wire_and_a_damaged_one_does_not_decode() {
        let phase = Phase::Sign {
            id: [7; 32],
            signers: vec![1, 2, 3],
            message: MESSAGES[1],
        };
        let w = Wire::Command {
            run: [1; 32],
            no: 9,
            to: 2,
            cmd: WireCmd::of(&Cmd::Publish(Arc::new(phase))),
        };
        let bytes = w.to_bytes();
        let Some(Wire::Command { run, no, to, cmd }) = Wire::from_bytes(&bytes) else {
            panic!("did not decode");
        };
        assert_eq!((run, no, to), ([1; 32], 9, 2));
        let Some(Cmd::Publish(p)) = cmd.cmd() else {
            panic!("not a publish");
        };
        assert!(
            matches!(&*p, Phase::Sign { signers, message, .. } if signers == &[1, 2, 3] && *message == MESSAGES[1])
        );
        for cut in 0..bytes.len() {
            assert!(
                Wire::from_bytes(&bytes[..cut]).is_none(),
                "a prefix of {cut} bytes decoded"
            );
        }
        // An unknown message index is refused when the command is rebuilt.
        let bad = WireCmd::Publish(WirePhase::Verify(vec![1], 200));
        assert!(bad.cmd().is_none());
        assert!(Wire::from_bytes(&vec![0u8; MAX_MESSAGE + 1]).is_none());
    }

    #[test]
    fn a_report_keeps_its_events_and_failure() {
        let mut f = Failure::local("TIMEOUT", "late".into());
        f.culprits = vec![4];
        let r = Report {
            no: 3,
            addr: 5,
            cpu: Duration::from_micros(1500),
            status: Status::Failed(f),
            label: Some(1),
            sent: [(1, 2)].into_iter().collect(),
            bytes: 77,
        };
        let back = WireReport::of(&r).report();
        assert_eq!((back.no, back.addr, back.label, back.bytes), (3, 5, Some(1), 77));
        assert_eq!(back.cpu, Duration::from_micros(1500));
        let Status::Failed(f) = back.status else {
            panic!("not failed")
        };
        assert_eq!((f.code, f.culprits, f.node), ("TIMEOUT", vec![4], Some(5)));
        let done = Report {
            status: Status::Done(vec![
                Event::key("after reshare", b"key"),
                Event::Signers(vec![1, 3]),
                Event::Erased(0),
            ]),
            ..r
        };
        let Status::Done(events) = WireReport::of(&done).report().status else {
            panic!("not done")
        };
        assert_eq!(events[0], Event::key("after reshare", b"key"));
        assert_eq!(events[1], Event::Signers(vec![1, 3]));
    }

    #[test]
    fn interning_is_bounded() {
        assert_eq!(intern("A_CODE".into()), "A_CODE");
        assert_eq!(intern("x".repeat(INTERNED_LEN + 1)), "UNKNOWN");
    }
}
