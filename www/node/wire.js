// What `quasar node` processes send each other (cli/src/node/wire.rs), in JavaScript: the
// postcard encoding of the `Wire` messages a browser process reads and writes, and the byte
// strings its signatures and envelopes are bound to. The layouts mirror the serde derives of
// the Rust types field by field; anything this page cannot decode (a phase no browser party
// plays, a damaged message) is `null`, and the host drops it as the native switchboard would.
//
//   decodeWire(bytes) → { kind: 'hello' | 'command' | 'frame' | 'echo' | 'bye' | …, … } | null
//   encodeWire({ kind: 'ready' | 'report' | 'frame' | 'echo', … }) → Uint8Array

/** The longest message a node accepts (`wire::MAX_MESSAGE`). */
export const MAX_MESSAGE = 8 << 20;

const utf8 = new TextEncoder();
const text = new TextDecoder('utf-8', { fatal: true });

/** The messages a pipeline signs, by the index the wire carries (`wire::SIGNED`). */
export const SIGNED = Object.freeze(
  ['quasar demo: block 1', 'quasar demo: block 2, after the reshare', 'quasar demo: block 1, signed by a committee', 'quasar demo: block 1, signed by Corona'].map((s) => utf8.encode(s)),
);

const WIRE = ['hello', 'ready', 'command', 'report', 'frame', 'echo', 'bye'];
const STATUS = ['idle', 'published', 'local', 'running', 'read', 'waiting', 'done', 'failed'];
const EVENTS = ['blame', 'key', 'signers', 'certified', 'erased', 'block'];

class Short extends Error {}

/** A postcard reader: every read checks its bounds (a short or lying message throws `Short`). */
class Reader {
  constructor(bytes) {
    this.b = bytes;
    this.at = 0;
  }
  byte() {
    if (this.at >= this.b.length) throw new Short();
    return this.b[this.at++];
  }
  /** An unsigned LEB128 varint up to 2^53 − 1. */
  varint() {
    let v = 0;
    for (let i = 0, scale = 1; i < 8; i++, scale *= 128) {
      const b = this.byte();
      v += (b & 0x7f) * scale;
      if (!(b & 0x80)) {
        if (v > Number.MAX_SAFE_INTEGER) throw new Short();
        return v;
      }
    }
    throw new Short();
  }
  u16() {
    const v = this.varint();
    if (v > 0xffff) throw new Short();
    return v;
  }
  u32() {
    const v = this.varint();
    if (v > 0xffffffff) throw new Short();
    return v;
  }
  take(n) {
    if (n > this.b.length - this.at) throw new Short();
    const out = this.b.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
  bytes() {
    return this.take(this.varint()).slice();
  }
  array32() {
    return this.take(32).slice();
  }
  string() {
    return text.decode(this.take(this.varint()));
  }
  bool() {
    const b = this.byte();
    if (b > 1) throw new Short();
    return b === 1;
  }
  option(read) {
    return this.bool() ? read() : null;
  }
  list(read) {
    const n = this.varint();
    if (n > this.b.length - this.at) throw new Short(); // every item takes at least a byte
    const out = [];
    for (let i = 0; i < n; i++) out.push(read());
    return out;
  }
  ids() {
    return this.list(() => this.u16());
  }
  signed() {
    const m = SIGNED[this.byte()];
    if (!m) throw new Short();
    return m;
  }
}

/** `n` as an unsigned LEB128 varint (postcard's integers, the transport's length prefix). */
export function varint(n) {
  const out = [];
  do {
    let low = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) low |= 0x80;
    out.push(low);
  } while (n > 0);
  return Uint8Array.from(out);
}

/** Whether two byte strings are equal. */
export const equal = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/** A postcard writer. */
class Writer {
  constructor() {
    this.parts = [];
  }
  raw(u8) {
    this.parts.push(u8);
  }
  byte(b) {
    this.raw(Uint8Array.of(b));
  }
  varint(v) {
    this.raw(varint(v));
  }
  bytes(u8) {
    this.varint(u8.length);
    this.raw(u8);
  }
  string(s) {
    this.bytes(utf8.encode(s));
  }
  option(v, write) {
    if (v === null || v === undefined) this.byte(0);
    else {
      this.byte(1);
      write(v);
    }
  }
  ids(list) {
    this.varint(list.length);
    for (const a of list) this.varint(a);
  }
  done() {
    return concat(...this.parts);
  }
}

/** `flow::Phase`: the phases a browser party plays (the committee's); others do not decode. */
function phase(r) {
  switch (r.varint()) {
    case 0:
      return { kind: 'setup', dkg: r.array32(), ceremony: r.array32(), parties: r.ids(), t: r.u16(), signers: r.ids() };
    case 1:
      return { kind: 'sign', id: r.array32(), signers: r.ids(), message: r.signed() };
    case 2:
      return { kind: 'verify', audience: r.ids(), message: r.signed() };
    default:
      throw new Short();
  }
}

/** `driver::Cmd<Phase>`. */
function command(r) {
  switch (r.varint()) {
    case 0:
      return { kind: 'publish', phase: phase(r) };
    case 1:
      return { kind: 'start', from: r.u32(), expect: r.u32() };
    case 2:
      return { kind: 'flush', members: r.ids() };
    case 3:
      return { kind: 'step', from: r.u32(), expect: r.u32(), members: r.ids(), running: r.ids() };
    default:
      throw new Short();
  }
}

function echoEntries(r) {
  return r.list(() => ({ from: r.u16(), digest: r.array32(), signature: r.bytes() }));
}

/** Decodes one message between processes; `null` for anything this page cannot read. */
export function decodeWire(bytes) {
  if (!(bytes instanceof Uint8Array) || bytes.length > MAX_MESSAGE) return null;
  const r = new Reader(bytes);
  try {
    const kind = WIRE[r.varint()];
    let m;
    switch (kind) {
      case 'hello':
        m = { kind, run: r.array32(), args: r.list(() => r.string()) };
        break;
      case 'command':
        m = { kind, run: r.array32(), no: r.u32(), to: r.u16(), cmd: command(r) };
        break;
      case 'frame':
        m = { kind, run: r.array32(), tag: r.u32(), from: r.u16(), to: r.ids(), sealed: r.bool(), bytes: r.bytes(), signature: r.bytes() };
        break;
      case 'echo':
        m = { kind, run: r.array32(), tag: r.u32(), from: r.u16(), to: r.u16(), entries: echoEntries(r) };
        break;
      case 'bye':
        m = { kind, run: r.array32() };
        break;
      default:
        return null; // ready and report go to the conductor only; a browser process never conducts
    }
    return r.at === bytes.length ? m : null;
  } catch (e) {
    if (e instanceof Short || e instanceof TypeError) return null;
    throw e;
  }
}

/** `conduct::Event`. */
function writeEvent(w, e) {
  w.varint(EVENTS.indexOf(e.kind));
  switch (e.kind) {
    case 'blame':
      w.option(e.phase, (p) => w.string(p));
      w.varint(e.party);
      w.string(e.code);
      w.string(e.reason);
      break;
    case 'key':
      w.string(e.label);
      w.raw(e.digest);
      w.varint(e.len);
      break;
    case 'signers':
    case 'certified':
      w.ids(e.parties);
      break;
    default:
      throw new Error(`a browser party reports no ${e.kind} event`);
  }
}

/** `driver::Status`. */
function writeStatus(w, s) {
  w.varint(STATUS.indexOf(s.kind));
  switch (s.kind) {
    case 'published':
      w.byte(s.any ? 1 : 0);
      break;
    case 'local':
    case 'read':
    case 'waiting':
    case 'done':
      w.varint(s.events.length);
      for (const e of s.events) writeEvent(w, e);
      break;
    case 'failed': {
      const f = s.failure;
      w.string(f.code);
      w.string(f.module);
      w.string(f.message);
      w.ids(f.culprits);
      w.string('');
      w.option(null);
      break;
    }
    default:
  }
}

/** Encodes a message this page sends: `ready`, `report`, `frame` or `echo`. */
export function encodeWire(m) {
  const w = new Writer();
  w.varint(WIRE.indexOf(m.kind));
  w.raw(m.run);
  switch (m.kind) {
    case 'ready':
      w.ids(m.addrs);
      break;
    case 'report': {
      const r = m.report;
      w.varint(r.no);
      w.varint(r.addr);
      w.varint(Math.floor(r.cpuMs / 1000));
      w.varint(Math.round((r.cpuMs % 1000) * 1e6) % 1e9);
      writeStatus(w, r.status);
      w.option(r.label, (l) => w.varint(l));
      const sent = [...r.sent.entries()].sort((a, b) => a[0] - b[0]);
      w.varint(sent.length);
      for (const [to, n] of sent) {
        w.varint(to);
        w.varint(n);
      }
      w.varint(r.bytes);
      break;
    }
    case 'frame':
      w.varint(m.tag);
      w.varint(m.from);
      w.ids(m.to);
      w.byte(m.sealed ? 1 : 0);
      w.bytes(m.bytes);
      w.bytes(m.signature);
      break;
    case 'echo':
      w.varint(m.tag);
      w.varint(m.from);
      w.varint(m.to);
      w.varint(m.entries.length);
      for (const e of m.entries) {
        w.varint(e.from);
        w.raw(e.digest);
        w.bytes(e.signature);
      }
      break;
    default:
      throw new Error(`a browser process does not send ${m.kind}`);
  }
  return w.done();
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const be32 = (v) => Uint8Array.of(v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
const be16 = (v) => Uint8Array.of(v >>> 8, v & 0xff);

/** What a sealed frame's envelope is bound to (`wire::frame_binding`). */
export function frameBinding(run, tag, from, to) {
  return concat(utf8.encode('quasar-node-frame-v1'), run, be32(tag), be16(from), ...to.map(be16));
}

/** What a process signs for a public frame (`wire::broadcast_statement`). */
export function broadcastStatement(run, tag, from, digest) {
  return concat(utf8.encode('quasar-node-broadcast-v1'), run, be32(tag), be16(from), digest);
}
