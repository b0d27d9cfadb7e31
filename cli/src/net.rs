//! The in-process network: a router thread that forwards bytes between node threads and
//! counts them, and each node's endpoint.
//!
//! Nodes exchange only bytes, routed by address: address 0 is the combiner (Pulsar) or
//! coordinator (Lens), 1..=256 are the parties. A broadcast to k peers is k point-to-point
//! deliveries, and is counted so. Every frame carries the number of the command (see
//! `driver`) during which it was sent; a node reading a round's messages waits for exactly
//! the number of frames the conductor tells it were sent to it then, which is what a real
//! network's end-of-round timeout gives.
//!
//! Per-node times are the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`) where the OS has
//! it, so they do not grow when more threads than cores share the machine.

use core::time::Duration;
use std::collections::BTreeMap;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::{self, JoinHandle};
use std::time::Instant;

use zeroize::Zeroizing;

use crate::conduct::Event;

/// A node's address: 0 for the combiner / coordinator, otherwise the party id.
pub(crate) type Addr = u16;

/// The combiner's / coordinator's address.
pub(crate) const HUB: Addr = 0;

/// How long a node waits for a message the conductor says was sent to it.
pub(crate) const RECV_TIMEOUT: Duration = Duration::from_secs(60);

/// One message on the wire.
pub(crate) struct Frame {
    /// The command during which it was sent.
    pub tag: u32,
    /// The sender.
    pub from: Addr,
    /// The bytes.
    pub bytes: Zeroizing<Vec<u8>>,
    /// On a network, the sending process's signature of a public frame (empty otherwise):
    /// what the echo of a broadcast carries (`node`).
    pub signature: Vec<u8>,
}

/// A broadcast-consistency check run on a step's frames before the party reads them (a
/// network's echo round, `node`): it removes the frames of senders proven to have sent
/// different bytes to different recipients, and returns the blame for them.
pub(crate) type Consistency = Box<dyn FnMut(u32, &[Addr], &mut Vec<Frame>) -> Vec<Event> + Send>;

/// A frame on its way to its recipients.
pub(crate) struct Packet {
    /// The recipients.
    pub to: Vec<Addr>,
    /// The frame.
    pub frame: Frame,
    /// Whether it is a direct message (it may carry a secret: a network seals it).
    pub secret: bool,
}

/// Messages and bytes delivered, by command.
#[derive(Debug, Default, Clone)]
pub struct Traffic {
    /// `command → (messages, bytes)`.
    pub by_step: BTreeMap<u32, (u64, u64)>,
}

/// A node's connection to the router.
pub(crate) struct Endpoint {
    me: Addr,
    router: Sender<Packet>,
    inbox: Receiver<Frame>,
    pending: Vec<Frame>,
    /// Frames sent during the current command, by recipient.
    sent: BTreeMap<Addr, u32>,
    /// Bytes sent during the current command.
    bytes: u64,
    /// How long [`Endpoint::receive`] waits.
    timeout: Duration,
    /// The broadcast-consistency check of a network, if any.
    consistency: Option<Consistency>,
    /// What the check named since the last [`Endpoint::take_blamed`].
    blamed: Vec<Event>,
}

impl Endpoint {
    /// Node `me`'s endpoint: it sends into `router` and reads `inbox`.
    pub(crate) fn new(me: Addr, router: Sender<Packet>, inbox: Receiver<Frame>) -> Endpoint {
        Endpoint {
            me,
            router,
            inbox,
            pending: Vec::new(),
            sent: BTreeMap::new(),
            bytes: 0,
            timeout: RECV_TIMEOUT,
            consistency: None,
            blamed: Vec::new(),
        }
    }

    /// This endpoint, running `check` on every step's frames.
    pub(crate) fn with_consistency(mut self, check: Consistency) -> Endpoint {
        self.consistency = Some(check);
        self
    }

    /// The blame the consistency check produced since the last call.
    pub(crate) fn take_blamed(&mut self) -> Vec<Event> {
        core::mem::take(&mut self.blamed)
    }

    /// This endpoint, waiting at most `timeout` for a command's frames.
    pub(crate) fn with_timeout(mut self, timeout: Duration) -> Endpoint {
        self.timeout = timeout;
        self
    }

    /// This node's address.
    pub(crate) fn me(&self) -> Addr {
        self.me
    }

    /// Sends public `bytes` (a broadcast, a publication) to every node of `to` but this one,
    /// tagged with command `tag`.
    pub(crate) fn send(&mut self, tag: u32, to: &[Addr], bytes: Zeroizing<Vec<u8>>) {
        self.post(tag, to, bytes, false);
    }

    /// Sends a direct message, which may carry a secret, to `to`.
    pub(crate) fn send_direct(&mut self, tag: u32, to: Addr, bytes: Zeroizing<Vec<u8>>) {
        self.post(tag, &[to], bytes, true);
    }

    fn post(&mut self, tag: u32, to: &[Addr], bytes: Zeroizing<Vec<u8>>, secret: bool) {
        let to: Vec<Addr> = to.iter().copied().filter(|&a| a != self.me).collect();
        if to.is_empty() {
            return;
        }
        for &a in &to {
            *self.sent.entry(a).or_default() += 1;
        }
        self.bytes += (bytes.len() * to.len()) as u64;
        let frame = Frame {
            tag,
            from: self.me,
            bytes,
            signature: Vec::new(),
        };
        // The router outlives every endpoint; a send error means the run is being torn down.
        let _ = self.router.send(Packet { to, frame, secret });
    }

    /// What this node sent since the last call: frames by recipient, and bytes.
    pub(crate) fn take_sent(&mut self) -> (BTreeMap<Addr, u32>, u64) {
        (core::mem::take(&mut self.sent), core::mem::take(&mut self.bytes))
    }

    /// Takes the `count` frames sent to this node during command `tag`, in sender order.
    /// Frames of earlier commands are stale (sent to a node that was not listening) and
    /// dropped; later ones are kept for their turn. After the endpoint's timeout, what has
    /// arrived (a network may lose a frame, a sender may claim one it never sent: the
    /// party decides without it). `echo`: the nodes stepping on these frames, with whom a
    /// network checks that every broadcast is the same everywhere (a step's frames; `None`
    /// for a start's publications).
    pub(crate) fn receive(&mut self, tag: u32, count: u32, echo: Option<&[Addr]>) -> Vec<Frame> {
        let mut got = Vec::new();
        let mut keep = Vec::new();
        for f in self.pending.drain(..) {
            match f.tag.cmp(&tag) {
                core::cmp::Ordering::Equal => got.push(f),
                core::cmp::Ordering::Greater => keep.push(f),
                core::cmp::Ordering::Less => {}
            }
        }
        self.pending = keep;
        let deadline = Instant::now() + self.timeout;
        while got.len() < count as usize {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.inbox.recv_timeout(left) {
                Ok(f) if f.tag == tag => got.push(f),
                Ok(f) if f.tag > tag => self.pending.push(f),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => break,
            }
        }
        got.sort_by_key(|f| f.from);
        if let (Some(check), Some(echo)) = (self.consistency.as_mut(), echo) {
            let blamed = check(tag, echo, &mut got);
            self.blamed.extend(blamed);
        }
        got
    }
}

/// Starts the router for nodes `0..=max`: one endpoint per node (to move into its
/// thread) and the router's handle, which returns the traffic once every endpoint is
/// dropped.
pub(crate) fn start(max: Addr) -> (Vec<Endpoint>, JoinHandle<Traffic>) {
    let (router_tx, router_rx) = mpsc::channel::<Packet>();
    let mut inboxes = Vec::new();
    let mut endpoints = Vec::new();
    for me in 0..=max {
        let (tx, inbox) = mpsc::channel::<Frame>();
        inboxes.push(tx);
        endpoints.push(Endpoint::new(me, router_tx.clone(), inbox));
    }
    drop(router_tx);
    let router = thread::Builder::new()
        .name("router".into())
        .spawn(move || route(router_rx, inboxes))
        .unwrap_or_else(|e| panic!("cannot start the router: {e}"));
    (endpoints, router)
}

fn route(rx: Receiver<Packet>, inboxes: Vec<Sender<Frame>>) -> Traffic {
    let mut traffic = Traffic::default();
    for Packet { to, frame, .. } in rx {
        let e = traffic.by_step.entry(frame.tag).or_default();
        e.0 += to.len() as u64;
        e.1 += (frame.bytes.len() * to.len()) as u64;
        for a in &to {
            if let Some(inbox) = inboxes.get(usize::from(*a)) {
                let _ = inbox.send(Frame {
                    tag: frame.tag,
                    from: frame.from,
                    bytes: frame.bytes.clone(),
                    signature: Vec::new(),
                });
            }
        }
    }
    traffic
}

/// Per-thread CPU time (`CLOCK_THREAD_CPUTIME_ID`) where the platform has it.
pub(crate) mod cpu {
    use core::time::Duration;
    use std::time::Instant;

    #[cfg(all(target_pointer_width = "64", any(target_os = "linux", target_os = "macos")))]
    mod sys {
        use core::ffi::{c_int, c_long};

        #[repr(C)]
        pub(super) struct Timespec {
            pub tv_sec: c_long,
            pub tv_nsec: c_long,
        }

        #[cfg(target_os = "linux")]
        pub(super) const CLOCK_THREAD_CPUTIME_ID: c_int = 3;
        #[cfg(target_os = "macos")]
        pub const CLOCK_THREAD_CPUTIME_ID: c_int = 16;

        extern "C" {
            pub(super) fn clock_gettime(clock: c_int, tp: *mut Timespec) -> c_int;
        }
    }

    /// The calling thread's CPU time, or `None` where it is not available.
    #[cfg(all(target_pointer_width = "64", any(target_os = "linux", target_os = "macos")))]
    #[allow(unsafe_code)] // one libc call, justified at the call
    pub(crate) fn thread_time() -> Option<Duration> {
        let mut ts = sys::Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `clock_gettime` is the POSIX function of libc (which std links), called
        // with a clock id valid on this OS and a pointer to a properly laid out, writable
        // `timespec` (two `long`s on 64-bit Linux and macOS) that outlives the call.
        let rc = unsafe { sys::clock_gettime(sys::CLOCK_THREAD_CPUTIME_ID, &raw mut ts) };
        if rc != 0 {
            return None;
        }
        Some(Duration::new(
            u64::try_from(ts.tv_sec).ok()?,
            u32::try_from(ts.tv_nsec).ok()?,
        ))
    }

    /// The calling thread's CPU time, or `None` where it is not available.
    #[cfg(not(all(target_pointer_width = "64", any(target_os = "linux", target_os = "macos"))))]
    pub fn thread_time() -> Option<Duration> {
        None
    }

    /// What per-node times measure on this platform.
    pub(crate) fn kind() -> &'static str {
        if thread_time().is_some() {
            "thread CPU time"
        } else {
            "thread wall time"
        }
    }

    /// Runs `f`, returning its result and the thread time it took (wall time where the
    /// platform has no thread clock).
    pub(crate) fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
        let wall = Instant::now();
        let start = thread_time();
        let out = f();
        let spent = match (start, thread_time()) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            _ => wall.elapsed(),
        };
        (out, spent)
    }
}
