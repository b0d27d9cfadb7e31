//! What node processes send each other: the conductor's commands and the nodes' reports
//! (public, small), and the parties' frames (the library's bytes, as they are). Encoded with
//! postcard; a message that does not decode, or whose run id is not this run's, is dropped.

use std::collections::BTreeSet;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::driver::{Cmd, Report};
use crate::flow::{Phase, MESSAGES};
use crate::net::Addr;
use crate::{committee, corona};

/// The longest message a node accepts (a Corona round-1 frame to one peer is ~615 KB; a
/// broadcast is sent to each peer as its own message).
pub(crate) const MAX_MESSAGE: usize = 8 << 20;

/// One message between node processes.
#[derive(Serialize, Deserialize)]
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
        cmd: Cmd<Phase>,
    },
    /// Node → conductor: its report on a command.
    Report {
        /// The run id.
        run: [u8; 32],
        /// The report.
        report: Report,
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

/// Every message a pipeline signs, by the index a phase is sent with.
const SIGNED: [&[u8]; 4] = [MESSAGES[0], MESSAGES[1], committee::MESSAGE, corona::MESSAGE];

/// A signed message on the wire: its index in [`SIGNED`] (`#[serde(with = …)]` on
/// [`Phase`]); an index this build does not know fails the decoding.
pub(crate) mod signed {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::SIGNED;

    /// The index of `m` (`u8::MAX` for a message no pipeline signs, which never decodes).
    pub(crate) fn index(m: &[u8]) -> u8 {
        SIGNED
            .iter()
            .position(|x| *x == m)
            .and_then(|i| u8::try_from(i).ok())
            .unwrap_or(u8::MAX)
    }

    pub(crate) fn serialize<S: Serializer>(m: &&'static [u8], s: S) -> Result<S::Ok, S::Error> {
        index(m).serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<&'static [u8], D::Error> {
        let i = u8::deserialize(d)?;
        SIGNED
            .get(usize::from(i))
            .copied()
            .ok_or_else(|| serde::de::Error::custom("a message no pipeline signs"))
    }
}

/// A code or label on the wire: a string, interned on arrival (`#[serde(with = …)]`).
pub(crate) mod interned {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(v: &&'static str, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
        Ok(super::intern(String::deserialize(d)?))
    }
}

/// An optional code or label on the wire (`#[serde(with = …)]`).
pub(crate) mod interned_option {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub(crate) fn serialize<S: Serializer>(v: &Option<&'static str>, s: S) -> Result<S::Ok, S::Error> {
        v.serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'static str>, D::Error> {
        Ok(Option::<String>::deserialize(d)?.map(super::intern))
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
    use core::time::Duration;
    use std::sync::Arc;

    use super::*;
    use crate::conduct::Event;
    use crate::driver::Status;
    use crate::report::Failure;

    #[test]
    fn every_message_a_pipeline_signs_has_an_index() {
        for (i, m) in SIGNED.iter().enumerate() {
            assert_eq!(usize::from(signed::index(m)), i);
        }
        assert_eq!(signed::index(b"not signed by any pipeline"), u8::MAX);
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
            cmd: Cmd::Publish(Arc::new(phase)),
        };
        let bytes = w.to_bytes();
        let Some(Wire::Command { run, no, to, cmd }) = Wire::from_bytes(&bytes) else {
            panic!("did not decode");
        };
        assert_eq!((run, no, to), ([1; 32], 9, 2));
        let Cmd::Publish(p) = cmd else {
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
        // A message index this build does not know: the command does not decode.
        let unknown = Wire::Command {
            run: [1; 32],
            no: 9,
            to: 2,
            cmd: Cmd::Publish(Arc::new(Phase::Verify(vec![1], b"no pipeline signs this"))),
        };
        assert!(Wire::from_bytes(&unknown.to_bytes()).is_none());
        assert!(Wire::from_bytes(&vec![0u8; MAX_MESSAGE + 1]).is_none());
    }

    #[test]
    fn a_report_keeps_its_events_and_failure() {
        let mut f = Failure::local("TIMEOUT", "late".into());
        f.culprits = vec![4];
        f.node = Some(5);
        let r = Report {
            no: 3,
            addr: 5,
            cpu: Duration::from_micros(1500),
            status: Status::Failed(f),
            label: Some(1),
            sent: [(1, 2)].into_iter().collect(),
            bytes: 77,
        };
        let wire = |r: Report| match Wire::from_bytes(
            &Wire::Report {
                run: [0; 32],
                report: r,
            }
            .to_bytes(),
        ) {
            Some(Wire::Report { report, .. }) => report,
            _ => panic!("did not decode"),
        };
        let back = wire(r);
        assert_eq!((back.no, back.addr, back.label, back.bytes), (3, 5, Some(1), 77));
        assert_eq!(back.cpu, Duration::from_micros(1500));
        let Status::Failed(ref f) = back.status else {
            panic!("not failed")
        };
        assert_eq!(
            (f.code, f.culprits.clone(), f.node),
            ("TIMEOUT", vec![4], Some(5))
        );
        let done = Report {
            status: Status::Done(vec![
                Event::key("after reshare", b"key"),
                Event::Signers(vec![1, 3]),
                Event::Erased(0),
            ]),
            ..back
        };
        let Status::Done(events) = wire(done).status else {
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
