// A browser process of a `quasar node` cluster: the page's half of cli/src/node/host.rs, on
// js-libp2p (WebSocket, Noise, Yamux — the same `/quasar/party/1` request-response protocol
// as the native transport).
//
//   const cluster = await joinCluster({ lib, roster, key, process, timeout });  // dials every native process
//   const result = await cluster.run();   // hello → ready → commands → bye, or a TIMEOUT after `idle`
//   await cluster.close();
//
// A browser cannot listen, so it dials every native process's `ws` address from the roster
// and the natives answer over those connections. Everything else is the native process's
// behaviour, check for check:
// - **switchboard**: a message is filed only if Noise authenticated a roster process as its
//   sender; hello, commands and bye only from process 0; frames and echoes only from the
//   process hosting their sender node, addressed to nodes hosted here, in this run; a sealed
//   frame must open with this process's ML-KEM-768 key under its binding, a public one must
//   carry its process's Ed25519 signature. Anything else is dropped and counted.
// - **router**: a direct message (it may carry a share) leaves sealed to the receiving
//   process's ML-KEM-768 key (`pulsar.envelope.seal`), a public one signed by this process.
// - **nodes**: each command runs as cli/src/driver.rs `Host::command` runs it (publish, start,
//   flush, step), waiting at most `timeout` for a round's frames; before a step, the echo
//   round: every stepping node's digests of the public frames, an equivocating sender (its
//   own signature on two digests) dropped and named `EQUIVOCATION`.
// A browser member plays committee and Corona runs (www/node/schemes.js).

import { createLibp2p, webSockets, noise, yamux, privateKeyFromProtobuf, peerIdFromString, multiaddr, byteStream, sha3_256 } from '/pkg/libp2p.js';
import { MAX_MESSAGE, broadcastStatement, decodeWire, encodeWire, equal, frameBinding, varint } from './wire.js';
import { blameEvents, failure } from './events.js';
import { schemeOf } from './schemes.js';

/** The protocol id of party messages (`transport::PROTOCOL`). */
export const PROTOCOL = '/quasar/party/1';
/** How long an undeliverable message is retried (`transport::RETRY_FOR`). */
const RETRY_FOR = 20_000;
/** How long one request may take. */
const REQUEST_TIMEOUT = 30_000;

const unhex = (h) => Uint8Array.from(h.trim().match(/../g) ?? [], (x) => parseInt(x, 16));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const EMPTY = new Uint8Array(0);

async function readVarint(bs, signal) {
  let v = 0;
  for (let i = 0, scale = 1; i < 4; i++, scale *= 128) {
    const b = (await bs.read({ bytes: 1, signal })).subarray()[0];
    v += (b & 0x7f) * scale;
    if (!(b & 0x80)) return v;
  }
  throw new Error('length prefix too long');
}

/** A queue whose readers wait (bounded) for items that match. */
class Mailbox {
  constructor() {
    this.items = [];
    this.wake = null;
  }
  push(item) {
    this.items.push(item);
    this.wake?.();
  }
  /** Waits until `enough(items)` or `deadline`; returns whether it was enough. */
  async until(enough, deadline) {
    while (!enough(this.items)) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise((r) => {
        const t = setTimeout(r, left);
        this.wake = () => {
          clearTimeout(t);
          r();
        };
      });
      this.wake = null;
    }
    return true;
  }
}

/** Joins the cluster as browser process `process` of `roster` with its secret `key` file. */
export async function joinCluster({ lib, roster, key, process: me, timeout = 20_000, idle = 600_000, log = () => {} }) {
  const processes = roster.processes.map((p, index) => ({
    index,
    peer: p.peer,
    identity: peerIdFromString(p.peer).publicKey,
    ws: p.ws ? multiaddr(`${p.ws}/p2p/${p.peer}`) : null,
    kem: unhex(p.kem),
    addrs: p.addrs,
  }));
  const mine = processes[me];
  if (!mine || roster.processes[me].listen !== 'browser') throw new Error(`process ${me} is not a browser process of this roster`);
  const privateKey = privateKeyFromProtobuf(unhex(key.identity));
  const kemSecret = unhex(key.kem);
  const node = await createLibp2p({
    privateKey,
    transports: [webSockets()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    // Loopback addresses are what a test cluster has; the roster says whom to dial.
    connectionGater: { denyDialMultiaddr: () => false },
  });
  if (node.peerId.toString() !== mine.peer) {
    await node.stop();
    throw new Error(`the key of process ${me} does not match its roster entry`);
  }
  const hostOf = (a) => processes.find((p) => p.addrs.includes(a));
  const byPeer = new Map(processes.map((p) => [p.peer, p]));
  const stats = { dropped: 0, sent: 0, received: 0, opened: 0, sealed: 0 };
  const control = new Mailbox();
  let board = { run: null, nodes: new Map() };

  /** Sends `bytes` to process `p` (retried with back-off for RETRY_FOR, then given up). */
  async function send(p, bytes) {
    if (!p?.ws) return;
    const first = Date.now();
    for (;;) {
      try {
        const signal = AbortSignal.timeout(REQUEST_TIMEOUT);
        const stream = await node.dialProtocol(p.ws, PROTOCOL, { signal });
        const bs = byteStream(stream);
        await bs.write(varint(bytes.length), { signal });
        await bs.write(bytes, { signal });
        await bs.read({ bytes: 1, signal });
        await stream.close({ signal }).catch(() => {});
        stats.sent++;
        return;
      } catch (e) {
        if (Date.now() - first > RETRY_FOR) {
          log(`gave up a message to process ${p.index}: ${e.message}`);
          return;
        }
        await sleep(200);
      }
    }
  }

  await node.handle(
    PROTOCOL,
    async (stream, connection) => {
      try {
        const signal = AbortSignal.timeout(REQUEST_TIMEOUT);
        const bs = byteStream(stream);
        const len = await readVarint(bs, signal);
        if (len > MAX_MESSAGE) throw new Error('message too long');
        const bytes = len ? (await bs.read({ bytes: len, signal })).subarray() : EMPTY;
        await bs.write(Uint8Array.of(1), { signal });
        await stream.close({ signal }).catch(() => {});
        stats.received++;
        if (!(await file(connection.remotePeer.toString(), bytes))) stats.dropped++;
      } catch {
        stream.abort?.(new Error('bad request'));
      }
    },
    { maxInboundStreams: 1024, runOnLimitedConnection: false },
  );

  /** The switchboard (module docs): files one message from `peer`; false if dropped. */
  async function file(peer, bytes) {
    const from = byPeer.get(peer);
    const w = from && decodeWire(bytes);
    if (!w) return false;
    const conductor = from.index === 0;
    const thisRun = board.run && equal(w.run, board.run);
    switch (w.kind) {
      case 'hello':
      case 'bye':
        if (!conductor) return false;
        control.push(w);
        return true;
      case 'command': {
        const host = conductor && thisRun && board.nodes.get(w.to);
        if (!host) return false;
        host.commands.push(w);
        return true;
      }
      case 'frame': {
        if (!thisRun || !from.addrs.includes(w.from)) return false;
        const hosts = w.to.map((a) => board.nodes.get(a));
        if (!hosts.length || hosts.some((h) => !h)) return false;
        let payload;
        let signature = EMPTY;
        if (w.sealed) {
          try {
            payload = lib.pulsar.envelope.open({ key: kemSecret, aad: frameBinding(w.run, w.tag, w.from, w.to), sealed: w.bytes });
            stats.opened++;
          } catch {
            return false;
          }
        } else {
          const statement = broadcastStatement(w.run, w.tag, w.from, sha3_256(w.bytes));
          if (!(await verifies(from.identity, statement, w.signature))) return false;
          payload = w.bytes;
          signature = w.signature;
        }
        for (const h of hosts) h.inbox.push({ tag: w.tag, from: w.from, bytes: payload, signature });
        return true;
      }
      case 'echo': {
        const host = thisRun && from.addrs.includes(w.from) && board.nodes.get(w.to);
        if (!host) return false;
        host.echoes.push(w);
        return true;
      }
      default:
        return false;
    }
  }

  /** Ed25519 verification of a process's signature (the libp2p key inside its peer id). */
  async function verifies(identity, data, signature) {
    try {
      return (await identity.verify(data, signature)) === true;
    } catch {
      return false;
    }
  }

  const sign = async (tag, from, bytes) => privateKey.sign(broadcastStatement(board.run, tag, from, sha3_256(bytes)));

  /** The router: what local node `from` sends during command `tag` (module docs). */
  async function post(host, tag, to, bytes, secret) {
    to = to.filter((a) => a !== host.addr);
    if (!to.length) return;
    for (const a of to) host.sent.set(a, (host.sent.get(a) ?? 0) + 1);
    host.bytes += bytes.length * to.length;
    const signature = secret ? EMPTY : await sign(tag, host.addr, bytes);
    const remote = new Map();
    for (const a of to) {
      const local = board.nodes.get(a);
      if (local) local.inbox.push({ tag, from: host.addr, bytes, signature });
      else {
        const p = hostOf(a);
        if (p) remote.set(p, [...(remote.get(p) ?? []), a]);
      }
    }
    for (const [p, list] of remote) {
      if (secret) stats.sealed++;
      const frame = secret
        ? { sealed: true, bytes: lib.pulsar.envelope.seal({ recipient: p.kem, aad: frameBinding(board.run, tag, host.addr, list), message: bytes }), signature: EMPTY }
        : { sealed: false, bytes, signature };
      send(p, encodeWire({ kind: 'frame', run: board.run, tag, from: host.addr, to: list, ...frame }));
    }
  }

  /** The echo round of `host` before it steps on command `tag`'s frames (module docs). */
  async function echoRound(host, tag, stepping, frames) {
    const mine = frames.filter((f) => f.signature.length).map((f) => ({ from: f.from, digest: sha3_256(f.bytes), signature: f.signature }));
    const others = stepping.filter((a) => a !== host.addr);
    for (const to of others) {
      const local = board.nodes.get(to);
      if (local) local.echoes.push({ tag, from: host.addr, entries: mine });
      else send(hostOf(to), encodeWire({ kind: 'echo', run: board.run, tag, from: host.addr, to, entries: mine }));
    }
    const heard = (items) => others.every((o) => items.some((e) => e.tag === tag && e.from === o));
    await host.echoes.until(heard, Date.now() + timeout);
    const equivocators = new Set();
    for (const e of host.echoes.items.filter((x) => x.tag === tag && others.includes(x.from))) {
      for (const entry of e.entries) {
        const ours = mine.find((m) => m.from === entry.from);
        if (!ours || equal(ours.digest, entry.digest) || equivocators.has(entry.from)) continue;
        const p = hostOf(entry.from);
        if (p && (await verifies(p.identity, broadcastStatement(board.run, tag, entry.from, entry.digest), entry.signature))) equivocators.add(entry.from);
      }
    }
    host.echoes.items = host.echoes.items.filter((x) => x.tag > tag);
    const kept = frames.filter((f) => !f.signature.length || !equivocators.has(f.from));
    const blamed = [...equivocators].map((party) => ({
      kind: 'blame',
      phase: null,
      party,
      code: 'EQUIVOCATION',
      reason: 'signed two different broadcasts for one round (shown by the echo); its broadcast was dropped everywhere',
    }));
    return { kept, blamed };
  }

  /** Takes the `count` frames of command `tag` (waiting at most `timeout`), in sender order. */
  async function receive(host, tag, count) {
    host.inbox.items = host.inbox.items.filter((f) => f.tag >= tag);
    await host.inbox.until((items) => items.filter((f) => f.tag === tag).length >= count, Date.now() + timeout);
    const got = host.inbox.items.filter((f) => f.tag === tag).sort((a, b) => a.from - b.from);
    host.inbox.items = host.inbox.items.filter((f) => f.tag > tag);
    return got;
  }

  async function sendOut(host, no, out, members) {
    if (out.broadcast) await post(host, no, members, out.broadcast, false);
    for (const d of out.direct) await post(host, no, [d.to], d.bytes, true);
  }

  /** One command, as cli/src/driver.rs `Host::command` runs it; returns its status. */
  async function command(host, no, cmd) {
    switch (cmd.kind) {
      case 'publish': {
        host.party = null;
        host.unsent = null;
        host.blamed = [];
        const list = host.node.publish(cmd.phase);
        host.phase = cmd.phase;
        const any = list.some((p) => p.to.some((a) => a !== host.addr));
        for (const p of list) await post(host, no, p.to, p.bytes, false);
        return { kind: 'published', any };
      }
      case 'start': {
        const published = await receive(host, cmd.from, cmd.expect);
        if (!host.phase) throw failure('INTERNAL', 'no phase');
        const role = host.node.start(host.phase, published);
        if (role.idle) return { kind: 'idle' };
        if (role.local) return { kind: 'local', events: role.local };
        host.party = role.party;
        host.unsent = role.party.start.outgoing;
        return { kind: 'running' };
      }
      case 'flush':
        if (host.unsent) await sendOut(host, no, host.unsent, cmd.members);
        host.unsent = null;
        return { kind: 'running' };
      case 'step': {
        const frames = await receive(host, cmd.from, cmd.expect);
        const { kept, blamed } = await echoRound(host, cmd.from, cmd.running, frames);
        for (const b of blamed) if (!host.blamed.some((x) => x.party === b.party)) host.blamed.push(b);
        if (!host.party) throw failure('INTERNAL', 'no party');
        const inbox = kept.map((f) => ({ from: f.from, bytes: f.bytes }));
        let r;
        try {
          r = host.party.step(inbox);
        } catch (e) {
          host.party = null;
          for (const b of host.blamed) {
            e.culprits = [...new Set([...(e.culprits ?? []), b.party])];
            e.message += `; the echo round named party ${b.party} (${b.code})`;
          }
          throw e;
        }
        if (r.done) {
          host.party = null;
          await sendOut(host, no, r.outgoing, cmd.members);
          return { kind: 'done', events: [...host.node.finish(host.phase, r.outcome), ...host.blamed] };
        }
        if (r.waiting) return { kind: inbox.length ? 'read' : 'waiting', events: [...blameEvents(r.dropped), ...host.blamed] };
        await sendOut(host, no, r.outgoing, cmd.members);
        return { kind: 'running' };
      }
      default:
        throw failure('INTERNAL', `unknown command ${cmd.kind}`);
    }
  }

  /** Runs node `host`'s commands as they arrive, reporting each to process 0. */
  async function serveNode(host, run) {
    while (board.run === run) {
      if (!(await host.commands.until((items) => items.length > 0, Date.now() + 1000))) continue;
      const { no, cmd } = host.commands.items.shift();
      const hadParty = Boolean(host.phase && host.party);
      const t0 = performance.now();
      let status;
      try {
        status = await command(host, no, cmd);
      } catch (e) {
        status = { kind: 'failed', failure: { code: String(e.code ?? 'INTERNAL'), module: String(e.module ?? 'demo'), message: String(e.message), culprits: Array.isArray(e.culprits) ? e.culprits : [] } };
      }
      const cpuMs = performance.now() - t0;
      let label = hadParty ? 0 : null;
      if (['idle', 'waiting'].includes(status.kind) || (status.kind === 'published' && !status.any)) label = null;
      else if (['local', 'published'].includes(status.kind) || (status.kind === 'running' && host.party)) label = 0;
      const report = { no, addr: host.addr, cpuMs, status, label, sent: host.sent, bytes: host.bytes };
      host.sent = new Map();
      host.bytes = 0;
      await send(processes[0], encodeWire({ kind: 'report', run, report }));
      host.log.push({ no, cmd: cmd.kind, status: status.kind, code: status.failure?.code });
    }
  }

  return {
    peerId: mine.peer,
    stats,
    /** Dials every native process (so that they can answer over the connections). */
    async connect(deadlineMs = timeout) {
      const deadline = Date.now() + deadlineMs;
      for (const p of processes) {
        if (!p.ws) continue;
        for (;;) {
          try {
            await node.dial(p.ws, { signal: AbortSignal.timeout(5000) });
            break;
          } catch (e) {
            if (Date.now() > deadline) throw new Error(`cannot reach process ${p.index} at ${p.ws}: ${e.message}`);
            await sleep(250);
          }
        }
      }
    },
    /** Serves one run: waits for process 0's hello, plays this process's nodes, returns at bye. */
    async run() {
      const got = await control.until((items) => items.some((w) => w.kind === 'hello'), Date.now() + idle);
      if (!got) throw failure('TIMEOUT', `no hello from the conductor for ${idle / 1000} s`);
      const hello = control.items.splice(control.items.findIndex((w) => w.kind === 'hello'), 1)[0];
      const scheme = schemeOf(hello.args);
      if (!scheme) throw failure('UNSUPPORTED', `a browser process plays committee and Corona runs (got: ${hello.args.join(' ')})`);
      const run = hello.run;
      const nodes = new Map();
      for (const addr of mine.addrs.filter((a) => a >= 1 && a <= scheme.parties)) {
        nodes.set(addr, {
          addr,
          node: scheme.member(lib, addr),
          inbox: new Mailbox(),
          echoes: new Mailbox(),
          commands: new Mailbox(),
          sent: new Map(),
          bytes: 0,
          phase: null,
          party: null,
          unsent: null,
          blamed: [],
          log: [],
        });
      }
      board = { run, nodes };
      log(`run ${[...run.slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('')}: nodes ${[...nodes.keys()].join(', ')}, ${hello.args.join(' ')}`);
      const served = [...nodes.values()].map((h) => serveNode(h, run));
      await send(processes[0], encodeWire({ kind: 'ready', run, addrs: mine.addrs }));
      const bye = await control.until((items) => items.some((w) => w.kind === 'bye' && equal(w.run, run)), Date.now() + idle);
      board = { run: null, nodes: new Map() };
      await Promise.all(served);
      if (!bye) throw failure('TIMEOUT', `nothing from the conductor for ${idle / 1000} s`);
      return {
        scheme: { name: scheme.name, parties: scheme.parties, threshold: scheme.threshold },
        nodes: [...nodes.values()].map((h) => ({ addr: h.addr, commands: h.log, ...h.node.summary() })),
      };
    },
    async close() {
      await node.stop();
    },
  };
}
