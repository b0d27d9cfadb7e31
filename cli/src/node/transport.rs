//! The libp2p transport: TCP, Noise (XX, Ed25519 identities), Yamux, and one
//! request-response protocol, `/quasar/party/1`, whose request is one message
//! (unsigned-varint length, then the bytes) and whose response is a one-byte receipt.
//!
//! The swarm runs on its own thread (a single-threaded tokio runtime); the rest of the
//! process talks to it through channels: an [`Outbox`] queues a message for a peer,
//! [`Transport::inbound`] yields what peers sent, each with the peer id Noise
//! authenticated. Only the roster's peers are served: a connection from any other peer is
//! closed as soon as it is established, and its requests are never delivered. A message
//! that cannot be delivered (the peer is down, the connection broke) is retried with
//! back-off for [`RETRY_FOR`], then given up (the receiving side's own timeout reports the
//! missing message).

use core::time::Duration;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::io;
use std::sync::mpsc as std_mpsc;
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Instant;

use futures::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, StreamExt};
use libp2p::core::upgrade;
use libp2p::identity::Keypair;
use libp2p::request_response::{self, OutboundRequestId, ProtocolSupport};
use libp2p::swarm::SwarmEvent;
use libp2p::{noise, tcp, yamux, Multiaddr, PeerId, StreamProtocol, Transport as _};
use tokio::sync::mpsc;

use super::drill::Conditions;
use super::wire::MAX_MESSAGE;

/// The protocol id of the party messages.
pub(crate) const PROTOCOL: &str = "/quasar/party/1";

/// How long an undeliverable message is retried.
pub(crate) const RETRY_FOR: Duration = Duration::from_secs(20);

/// How long one request may take (a peer that accepts a stream and never answers).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The length-prefixed request/response codec.
#[derive(Debug, Clone, Default)]
struct Codec;

async fn read_varint<T: AsyncRead + Unpin + Send>(io: &mut T) -> io::Result<usize> {
    let mut value: u64 = 0;
    for i in 0..10u32 {
        let mut b = [0u8; 1];
        io.read_exact(&mut b).await?;
        value |= u64::from(b[0] & 0x7f) << (7 * i);
        if b[0] & 0x80 == 0 {
            return usize::try_from(value).map_err(|_| io::ErrorKind::InvalidData.into());
        }
    }
    Err(io::ErrorKind::InvalidData.into())
}

async fn write_varint<T: AsyncWrite + Unpin + Send>(io: &mut T, mut v: usize) -> io::Result<()> {
    let mut buf = Vec::with_capacity(10);
    loop {
        let low = u8::try_from(v & 0x7f).unwrap_or(0);
        v >>= 7;
        if v == 0 {
            buf.push(low);
            break;
        }
        buf.push(low | 0x80);
    }
    io.write_all(&buf).await
}

#[async_trait::async_trait]
impl request_response::Codec for Codec {
    type Protocol = StreamProtocol;
    type Request = Vec<u8>;
    type Response = u8;

    async fn read_request<T>(&mut self, _: &StreamProtocol, io: &mut T) -> io::Result<Vec<u8>>
    where
        T: AsyncRead + Unpin + Send,
    {
        let len = read_varint(io).await?;
        if len > MAX_MESSAGE {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "message too long"));
        }
        let mut buf = vec![0u8; len];
        io.read_exact(&mut buf).await?;
        Ok(buf)
    }

    async fn read_response<T>(&mut self, _: &StreamProtocol, io: &mut T) -> io::Result<u8>
    where
        T: AsyncRead + Unpin + Send,
    {
        let mut b = [0u8; 1];
        io.read_exact(&mut b).await?;
        Ok(b[0])
    }

    async fn write_request<T>(&mut self, _: &StreamProtocol, io: &mut T, req: Vec<u8>) -> io::Result<()>
    where
        T: AsyncWrite + Unpin + Send,
    {
        write_varint(io, req.len()).await?;
        io.write_all(&req).await?;
        io.close().await
    }

    async fn write_response<T>(&mut self, _: &StreamProtocol, io: &mut T, res: u8) -> io::Result<()>
    where
        T: AsyncWrite + Unpin + Send,
    {
        io.write_all(&[res]).await?;
        io.close().await
    }
}

type Behaviour = request_response::Behaviour<Codec>;

/// A running transport.
pub(crate) struct Transport {
    out: mpsc::UnboundedSender<(PeerId, Vec<u8>)>,
    /// What peers sent: the authenticated peer and the bytes.
    pub inbound: std_mpsc::Receiver<(PeerId, Vec<u8>)>,
    thread: Option<JoinHandle<()>>,
}

impl Transport {
    /// Starts the swarm with identity `key`, listening on every address of `listen`,
    /// serving and reaching only `peers` (each with its address; `None`: a browser process,
    /// reached over the connection it opened). Every outgoing message waits `conditions`' delay
    /// first (half a round trip a benchmark simulates, or a slow node's drill; zero
    /// otherwise), in order; while `conditions` say the process is cut off (a partition
    /// drill) no connection stays open and nothing is sent or read.
    pub(crate) fn start(
        key: Keypair,
        listen: Vec<Multiaddr>,
        peers: Vec<(PeerId, Option<Multiaddr>)>,
        conditions: Arc<Conditions>,
    ) -> Result<Transport, String> {
        let (out, mut out_rx) = mpsc::unbounded_channel::<(PeerId, Vec<u8>)>();
        let (in_tx, inbound) = std_mpsc::channel();
        let (ready_tx, ready_rx) = std_mpsc::channel::<Result<(), String>>();
        let thread = thread::Builder::new()
            .name("libp2p".into())
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = ready_tx.send(Err(format!("cannot start the runtime: {e}")));
                        return;
                    }
                };
                rt.block_on(async move {
                    let mut swarm = match build(key, &listen, &peers) {
                        Ok(s) => s,
                        Err(e) => {
                            let _ = ready_tx.send(Err(e));
                            return;
                        }
                    };
                    let _ = ready_tx.send(Ok(()));
                    let allowed: BTreeSet<PeerId> = peers.iter().map(|(p, _)| *p).collect();
                    let addresses: BTreeMap<PeerId, Multiaddr> =
                        peers.iter().filter_map(|(p, a)| Some((*p, a.clone()?))).collect();
                    let mut pending = Requests::default();
                    let mut retry: Vec<(Instant, PeerId, Vec<u8>, Instant)> = Vec::new();
                    let mut tick = tokio::time::interval(Duration::from_millis(50));
                    // Messages held back by the simulated latency, due in this order.
                    let mut held: VecDeque<(tokio::time::Instant, PeerId, Vec<u8>)> = VecDeque::new();
                    let far = tokio::time::Instant::now() + Duration::from_secs(86_400);
                    loop {
                        let due = held.front().map_or(far, |h| h.0);
                        tokio::select! {
                            msg = out_rx.recv() => {
                                let Some((to, bytes)) = msg else { break };
                                let delay = conditions.delay();
                                if let Some(until) = conditions.cut() {
                                    // Cut off (`--partition`): it leaves when the link heals.
                                    retry.push((until, to, bytes, Instant::now()));
                                } else if delay.is_zero() {
                                    send(&mut swarm, &addresses, &mut pending, (to, bytes), Instant::now());
                                } else {
                                    held.push_back((tokio::time::Instant::now() + delay, to, bytes));
                                }
                            }
                            () = tokio::time::sleep_until(due), if !held.is_empty() => {
                                let now = tokio::time::Instant::now();
                                while held.front().is_some_and(|h| h.0 <= now) {
                                    if let Some((_, to, bytes)) = held.pop_front() {
                                        match conditions.cut() {
                                            Some(until) => retry.push((until, to, bytes, Instant::now())),
                                            None => send(&mut swarm, &addresses, &mut pending, (to, bytes), Instant::now()),
                                        }
                                    }
                                }
                            }
                            _ = tick.tick() => {
                                if conditions.cut().is_some() {
                                    let connected: Vec<PeerId> = swarm.connected_peers().copied().collect();
                                    for p in connected {
                                        let _ = swarm.disconnect_peer_id(p);
                                    }
                                    continue;
                                }
                                let now = Instant::now();
                                let (due, later): (Vec<_>, Vec<_>) = retry.drain(..).partition(|r| r.0 <= now);
                                retry = later;
                                for (_, to, bytes, first) in due {
                                    send(&mut swarm, &addresses, &mut pending, (to, bytes), first);
                                }
                            }
                            ev = swarm.select_next_some() => match ev {
                                SwarmEvent::ConnectionEstablished { peer_id, .. }
                                    if !allowed.contains(&peer_id) || conditions.cut().is_some() =>
                                {
                                    let _ = swarm.disconnect_peer_id(peer_id);
                                }
                                SwarmEvent::Behaviour(request_response::Event::Message { peer, message, .. }) => match message {
                                    request_response::Message::Request { request, channel, .. } => {
                                        // Cut off: read nothing, answer nothing (the sender retries).
                                        if allowed.contains(&peer) && conditions.cut().is_none() {
                                            let _ = swarm.behaviour_mut().send_response(channel, 1);
                                            if in_tx.send((peer, request)).is_err() {
                                                break;
                                            }
                                        }
                                    }
                                    request_response::Message::Response { request_id, .. } => {
                                        pending.answered(&mut swarm, &addresses, request_id);
                                    }
                                },
                                SwarmEvent::Behaviour(request_response::Event::OutboundFailure { request_id, error, .. }) => {
                                    if std::env::var_os("QUASAR_NODE_TRACE").is_some() {
                                        eprintln!("libp2p: outbound failure {error:?}");
                                    }
                                    if let Some((to, bytes, first)) = pending.answered(&mut swarm, &addresses, request_id) {
                                        if first.elapsed() < RETRY_FOR {
                                            let backoff = Duration::from_millis(200);
                                            retry.push((Instant::now() + backoff, to, bytes, first));
                                        }
                                    }
                                }
                                other => {
                                    if std::env::var_os("QUASAR_NODE_TRACE").is_some() {
                                        eprintln!("libp2p: {other:?}");
                                    }
                                }
                            }
                        }
                    }
                });
            })
            .map_err(|e| format!("cannot start the network thread: {e}"))?;
        match ready_rx.recv() {
            Ok(Ok(())) => Ok(Transport {
                out,
                inbound,
                thread: Some(thread),
            }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err("the network thread ended".into()),
        }
    }

    /// A handle that can queue messages from another thread.
    pub(crate) fn sender(&self) -> Outbox {
        Outbox(self.out.clone())
    }

    /// Stops the swarm once what was queued has been handed to it.
    pub(crate) fn stop(mut self, linger: Duration) {
        // Let the last messages (a report, a bye) leave before the connections close.
        thread::sleep(linger);
        drop(self.out);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The most requests in flight to one peer: more wait in its queue (thousands of frames at
/// once — 25 dealers each sealing a share to 75 recipients — would otherwise overrun the
/// multiplexer's stream limit and close the connection again and again).
const MAX_IN_FLIGHT: usize = 128;

/// Requests handed to the swarm and not yet answered, and those queued behind them.
#[derive(Default)]
struct Requests {
    pending: BTreeMap<OutboundRequestId, (PeerId, Vec<u8>, Instant)>,
    in_flight: BTreeMap<PeerId, usize>,
    queued: BTreeMap<PeerId, VecDeque<(Vec<u8>, Instant)>>,
}

impl Requests {
    /// The request `id` was answered or failed: returns it (for a retry), and sends the next
    /// one queued for its peer.
    fn answered(
        &mut self,
        swarm: &mut libp2p::Swarm<Behaviour>,
        addresses: &BTreeMap<PeerId, Multiaddr>,
        id: OutboundRequestId,
    ) -> Option<(PeerId, Vec<u8>, Instant)> {
        let done = self.pending.remove(&id)?;
        if let Some(n) = self.in_flight.get_mut(&done.0) {
            *n = n.saturating_sub(1);
        }
        if let Some((bytes, first)) = self.queued.get_mut(&done.0).and_then(VecDeque::pop_front) {
            send(swarm, addresses, self, (done.0, bytes), first);
        }
        Some(done)
    }
}

/// Hands `bytes` for `to` to the swarm (or queues it while [`MAX_IN_FLIGHT`] are), remembering
/// it (and when it was `first` sent) for a retry: the first send and every retry alike.
fn send(
    swarm: &mut libp2p::Swarm<Behaviour>,
    addresses: &BTreeMap<PeerId, Multiaddr>,
    requests: &mut Requests,
    (to, bytes): (PeerId, Vec<u8>),
    first: Instant,
) {
    let n = requests.in_flight.entry(to).or_default();
    if *n >= MAX_IN_FLIGHT {
        requests.queued.entry(to).or_default().push_back((bytes, first));
        return;
    }
    *n += 1;
    // A failed dial drops the peer's address: give it back.
    if let Some(a) = addresses.get(&to) {
        swarm.add_peer_address(to, a.clone());
    }
    let id = swarm.behaviour_mut().send_request(&to, bytes.clone());
    requests.pending.insert(id, (to, bytes, first));
}

/// A clonable sending handle of a [`Transport`].
#[derive(Clone)]
pub(crate) struct Outbox(mpsc::UnboundedSender<(PeerId, Vec<u8>)>);

#[cfg(test)]
impl Transport {
    /// A sending handle to nowhere (unit tests).
    pub(crate) fn detached() -> Outbox {
        Outbox(mpsc::unbounded_channel().0)
    }
}

impl Outbox {
    /// Queues `bytes` for `to`.
    pub(crate) fn send(&self, to: PeerId, bytes: Vec<u8>) {
        let _ = self.0.send((to, bytes));
    }
}

fn build(
    key: Keypair,
    listen: &[Multiaddr],
    peers: &[(PeerId, Option<Multiaddr>)],
) -> Result<libp2p::Swarm<Behaviour>, String> {
    let cfg = request_response::Config::default()
        .with_request_timeout(REQUEST_TIMEOUT)
        .with_max_concurrent_streams(1024);
    let mut swarm = libp2p::SwarmBuilder::with_existing_identity(key)
        .with_tokio()
        .with_tcp(
            tcp::Config::default().nodelay(true),
            noise::Config::new,
            yamux::Config::default,
        )
        .map_err(|e| format!("cannot set up TCP + Noise + Yamux: {e}"))?
        // Browser processes dial in over WebSocket (plain `ws` on loopback, Noise inside;
        // assembled here because the builder's own WebSocket phase wants DNS).
        .with_other_transport(|key| {
            let ws = libp2p_websocket::Config::new(tcp::tokio::Transport::new(
                tcp::Config::default().nodelay(true),
            ));
            let noise = noise::Config::new(key).map_err(Box::<dyn core::error::Error + Send + Sync>::from)?;
            Ok(ws
                .upgrade(upgrade::Version::V1Lazy)
                .authenticate(noise)
                .multiplex(yamux::Config::default()))
        })
        .map_err(|e| format!("cannot set up WebSocket + Noise + Yamux: {e}"))?
        .with_behaviour(|_| {
            request_response::Behaviour::with_codec(
                Codec,
                [(StreamProtocol::new(PROTOCOL), ProtocolSupport::Full)],
                cfg,
            )
        })
        .map_err(|e| format!("cannot set up the protocol: {e}"))?
        .with_swarm_config(|c| c.with_idle_connection_timeout(Duration::from_secs(600)))
        .build();
    for a in listen {
        swarm
            .listen_on(a.clone())
            .map_err(|e| format!("cannot listen on {a}: {e}"))?;
    }
    for (p, a) in peers {
        if let Some(a) = a {
            swarm.add_peer_address(*p, a.clone());
        }
    }
    Ok(swarm)
}
