// quasar-pq threshold protocols (full build): Lens (FROST) and Pulsar custody.
//
// Every protocol party is the Rust library's own state machine, held in WebAssembly memory
// and wrapped here in ONE class, `Party`: factories start it (`lens.keygen(...)`,
// `pulsar.sign.signer(...)`, …), `party.start` holds its first messages, and
// `party.step(inbox)` runs one round on the messages received for it, until `done`. Parties
// exchange only Uint8Array messages, so each can run in its own Web Worker or worker_thread
// with its own WASM instance. Key shares stay in WASM memory in holder objects
// (`LensKeyShare`, `PulsarKeyShare`, `PulsarDkgShare`) that factories take by reference.
// Nothing here implements a round. protocols.d.ts documents the API with one flow per scheme.

import {
  ML_DSA_LENGTHS,
  MAX_MESSAGE_BYTES,
  bytes,
  byteLength,
  checkOpts,
  copyInto,
  echo,
  fieldsOf,
  freshList,
  listOf,
  member,
  named,
  oneOf,
  quasarError,
  randomBytes,
  secretBytes,
} from './common.js';
import { glue, loader } from './full.js';

/** The Lens curves by name and their byte (a null-prototype table: only its own names are curves). */
const CURVES = Object.freeze({ __proto__: null, ed25519: 1, secp256k1: 2, ristretto255: 3 });
const LEVELS = Object.freeze([44, 65, 87]);
const EMPTY = new Uint8Array(0);
const DISPOSE = Symbol.dispose ?? Symbol.for('Symbol.dispose');
const INTERNAL = Symbol('quasar-pq internal');
const utf8 = (s) => new TextEncoder().encode(s);

/** One sentence per trust model (DESIGN §3), and what an activation certificate proves. */
export const trustModels = Object.freeze({
  pulsar:
    'Pulsar custody: the ML-DSA key is derived from a Pedersen-shared group secret that no coalition below t knows at rest; ' +
    'to sign, t parties release their shares, encrypted, to one combiner, which rebuilds the key in memory, signs, verifies ' +
    'and zeroizes — the combiner is trusted for that moment.',
  lens:
    'Lens: FROST threshold Schnorr against a dishonest majority — fewer than t parties cannot sign, the coordinator is trusted ' +
    'only for liveness, and signatures verify under standard Ed25519/BIP-340.',
  lss:
    'LSS resharing: a dealer who sends an inconsistent share is detected and named; a misaddressed, replayed or non-member ' +
    'message is dropped and its sender named, never an abort; the group public key never changes.',
  activation:
    'Activation certificate: at least t_new distinct members of the new set each proved possession of their new share, bound to ' +
    'the key, the generation and the dealing transcript; the old set cannot make it. An old party erases its old share only ' +
    'after it has verified this certificate.',
});

/**
 * Protocol constants, from the package (never copied into an application). The Pulsar
 * activation context and the Lens activation tag are reserved: ordinary signing refuses them.
 * `cheats` are the misbehaviour names of the demo's cheating-party toggle (`hazmat` build).
 */
export const constants = Object.freeze({
  pulsarActivationContext: utf8('QUASAR-PULSAR-ACTIVATE-v1'),
  lensActivationTag: 'QUASAR-LENS-ACTIVATE-v1',
  lssActivationTag: 'QUASAR-LSS-ACTIVATE-v1',
  maxMessageBytes: MAX_MESSAGE_BYTES,
  curves: Object.freeze(Object.keys(CURVES)),
  levels: LEVELS,
  cheats: Object.freeze({ dealing: 'bad-shares', signing: 'bad-contribution', misaddress: 'misaddress', garbage: 'garbage' }),
});

// ---------------------------------------------------------------------------------------
// Argument checks

/** The most parties a list of ids names. */
const MAX_PARTIES = 4096;

function partyId(v, title) {
  if (typeof v !== 'number' || v % 1 !== 0) {
    throw new TypeError(`${title} must be an integer party id, got ${v === null ? 'null' : typeof v}`);
  }
  if (!(v >= 1 && v <= 65535)) throw new RangeError(`${title} must be in 1..65535, got ${v}`);
  return v;
}

/** A list of party ids, copied once (js/common.js `listOf`: a Proxy cannot stretch it), then checked. */
function idList(v, title) {
  const list = listOf(v, title, MAX_PARTIES);
  const out = new Uint16Array(list.length);
  for (let i = 0; i < list.length; i++) out[i] = partyId(list[i], `${title}[${i}]`);
  return out;
}

function required(o, key, what) {
  if (o[key] === undefined) throw new TypeError(`${what}: missing "${key}"`);
  return o[key];
}

const session = (v) => bytes(v, 'session', { length: 32 });
const seedOf = (seed) => (seed === undefined ? randomBytes(32) : secretBytes(seed, 'seed', { length: 32 }));
const message = (v, name = 'message') => bytes(v, name, { max: MAX_MESSAGE_BYTES });
/** Public protocol objects (packages, sharings, key records, certificates, sessions). */
const record = (v, name) => bytes(v, name, { max: 1 << 22 });

/**
 * The parameters of a reshare (`session`, `dealers`, `receivers`, `threshold`), checked: a
 * function making the module's `ReshareWasm` of them, which the factory consumes (call it
 * inside the factory's `loader.call`).
 */
function reshareOf(o, what) {
  const s = session(required(o, 'session', what));
  const dealers = idList(required(o, 'dealers', what), 'dealers');
  const receivers = idList(required(o, 'receivers', what), 'receivers');
  const t = partyId(required(o, 'threshold', what), 'threshold');
  return () => new glue.ReshareWasm(s, dealers, receivers, t);
}

function curveByte(curve) {
  if (!named(CURVES, curve)) throw new RangeError(`curve must be one of ${oneOf(constants.curves)}, got ${echo(curve)}`);
  return CURVES[curve];
}

function levelOf(level) {
  if (!member(LEVELS, level)) throw new RangeError(`level must be 44, 65 or 87, got ${echo(level)}`);
  return level;
}

const CHEATS = Object.freeze(Object.values(constants.cheats));

function cheatOf(cheat) {
  if (cheat === undefined || cheat === null) return undefined;
  if (typeof cheat !== 'string') throw new TypeError(`cheat must be a misbehaviour name, got ${typeof cheat}`);
  // Checked here, not only in Rust: the glue would first copy a string of any length into WASM memory.
  if (!member(CHEATS, cheat)) throw new RangeError(`cheat must be one of ${oneOf(CHEATS)}, got ${echo(cheat)}`);
  return cheat;
}

/** 2^53 - 1: the largest generation (a safe integer). */
const MAX_GENERATION = 9007199254740991;

function generationOf(g) {
  if (typeof g !== 'number' || g % 1 !== 0 || !(g >= 0 && g <= MAX_GENERATION)) {
    throw new RangeError(`generation must be a non-negative safe integer, got ${echo(g)}`);
  }
  return g;
}

/** `v`, checked to be a `Class`; its WASM object is taken (`unwrap`) only inside the call. */
function holder(v, Class, name) {
  if (!(v instanceof Class)) throw new TypeError(`${name} must be a ${Class.name}`);
  return v;
}

/** Runs `fn` with a fresh 32-byte seed (wiped afterwards). */
function withSeed(seed, fn) {
  const s = seedOf(seed);
  try {
    return fn(s);
  } finally {
    s.fill(0);
  }
}

/**
 * Runs `fn` with the generator a factory draws from: the caller's `Rng` (`o.rng`, which the
 * party continues), or a fresh one from `o.seed` (or from 32 random bytes), freed afterwards.
 */
function withRng(o, fn) {
  if (o.rng !== undefined) {
    if (o.seed !== undefined) throw new TypeError('pass either "seed" or "rng", not both');
    return fn(unwrap(holder(o.rng, Rng, 'rng')));
  }
  const rng = withSeed(o.seed, (s) => loader.call(() => new glue.RngWasm(s)));
  try {
    return fn(rng);
  } finally {
    loader.release(rng);
  }
}

// ---------------------------------------------------------------------------------------
// Owned WASM objects

/**
 * The WASM object `o` (an `Owned`) holds. Module-private: a caller never gets the generated
 * object, whose methods take arguments the boundary has not checked. Take it at the moment of the
 * call (inside `loader.call`), after every argument was read: a caller's getter may have freed `o`
 * meanwhile, which is then a `USE_AFTER_FREE`, not a null pointer handed to Rust.
 */
let unwrap;

/** Base of the classes that own one WASM object; `free()` releases it (secrets are wiped). */
class Owned {
  #w;
  static {
    unwrap = (o) => {
      if (o === null || (typeof o !== 'object' && typeof o !== 'function') || !(#w in o)) {
        throw new TypeError('not an object made by quasar-pq');
      }
      if (o.#w === null) throw quasarError('USE_AFTER_FREE', `${o.constructor.name}: used after free()`);
      return o.#w;
    };
  }
  constructor(token, w) {
    if (token !== INTERNAL) throw new TypeError(`${new.target.name} objects are made by the package's factories`);
    this.#w = w;
  }
  /**
   * Release the WASM memory held by this object (its secrets are wiped). Idempotent; called
   * from inside a call (a hook), the memory is released when that call returns.
   */
  free() {
    const w = this.#w;
    this.#w = null;
    loader.release(w);
  }
  [DISPOSE]() {
    this.free();
  }
}

/**
 * A party's generator: ChaCha20 seeded with 32 bytes, held in WASM memory. Pass the same one
 * as `rng` to every factory a party calls and the party draws one stream across its protocols,
 * in protocol order, as a native party drawing from one `ChaCha20Rng::from_seed(seed)` does
 * (the known-answer vectors are made so). For reproducible runs (tests, vectors): without
 * `seed` or `rng` a factory draws a fresh seed from `crypto.getRandomValues`.
 */
export class Rng extends Owned {
  /** `ChaCha20Rng::from_seed(seed)`; the caller's seed array is left as it is. */
  static fromSeed(seed) {
    if (seed === undefined) throw new TypeError('seed must be a Uint8Array, got undefined');
    return withSeed(seed, (s) => new Rng(INTERNAL, loader.call(() => new glue.RngWasm(s))));
  }
}

function wrapKeyring(w) {
  if (w instanceof glue.PulsarKeyringWasm) return new PulsarKeyring(INTERNAL, w);
  if (w instanceof glue.LensKeyringWasm) return new LensKeyring(INTERNAL, w);
  return w;
}

function wrapShare(w) {
  if (w instanceof glue.LensKeyShareWasm) return new LensKeyShare(INTERNAL, w);
  if (w instanceof glue.PulsarKeyShareWasm) return new PulsarKeyShare(INTERNAL, w);
  if (w instanceof glue.LssShareWasm) return new PulsarDkgShare(INTERNAL, w);
  return w;
}

/**
 * One protocol party (any protocol): its state lives in WASM memory. `start` holds the
 * messages its start sends; `step(inbox)` runs one round. See protocols.d.ts.
 */
export class Party extends Owned {
  #id;
  #protocol;
  #max;
  #start;
  #info;
  constructor(token, w) {
    super(token, w);
    const p = loader.call(() => ({ __proto__: null, id: w.id(), protocol: w.protocol(), max: w.maxInboxBytes(), info: w.info(), start: w.takeStart() }));
    this.#id = p.id;
    this.#protocol = p.protocol;
    this.#max = p.max;
    this.#info = Object.freeze(p.info);
    this.#start = Object.freeze(p.start);
  }
  /** This party's id. */
  get id() {
    return this.#id;
  }
  /** The protocol (`lens-dealing`, `lens-signer`, `lens-coordinator`, `pulsar-dkg`, …). */
  get protocol() {
    return this.#protocol;
  }
  /** The step result of the start: `{ done: false, round, outgoing, dropped: [] }`. */
  get start() {
    return this.#start;
  }
  /** Public data of the start: `{}`, or `{ session, combinerKey }` for a Pulsar combiner. */
  get info() {
    return this.#info;
  }
  /** The round the next step runs (`{ number, name }`), or null once done. */
  get round() {
    return loader.call(() => unwrap(this).round());
  }
  /** Whether the party has finished. */
  get done() {
    return loader.call(() => unwrap(this).done());
  }
  /** The largest inbox a step accepts, in bytes (parties × the protocol's largest message). */
  get maxInboxBytes() {
    return this.#max;
  }
  /**
   * Run one round on `inbox`, the messages received for it: `[{ from, bytes }]`, `from` being
   * the sender the transport authenticated. Returns `{ done, waiting, round, outgoing, outcome?,
   * dropped }`. Every entry is checked and copied before the party is touched: a bad one throws
   * (TypeError, RangeError, QuasarError) and the party keeps its whole state.
   */
  step(inbox) {
    unwrap(this);
    // Every entry costs at least 6 bytes of the frame: a longer list cannot fit the bound.
    const list = listOf(inbox, 'inbox', (this.#max - (this.#max % 6)) / 6);
    const entries = freshList();
    let total = 0;
    for (let i = 0; i < list.length; i++) {
      const m = fieldsOf(list[i], INBOX_KEYS, `inbox[${i}]`);
      const from = partyId(m.from, `inbox[${i}].from`);
      const b = bytes(m.bytes, `inbox[${i}].bytes`, { max: this.#max });
      total += 6 + byteLength(b);
      if (total > this.#max) {
        throw new RangeError(`inbox is over ${this.#max} bytes, the most this ${this.#protocol} party accepts in a round`);
      }
      entries[i] = { __proto__: null, from, bytes: b };
    }
    const frame = new Uint8Array(total);
    let at = 0;
    for (let i = 0; i < entries.length; i++) {
      const { from, bytes: b } = entries[i];
      const n = byteLength(b);
      frame[at] = from >>> 8;
      frame[at + 1] = from & 0xff;
      frame[at + 2] = n >>> 24;
      frame[at + 3] = (n >>> 16) & 0xff;
      frame[at + 4] = (n >>> 8) & 0xff;
      frame[at + 5] = n & 0xff;
      copyInto(frame, b, at + 6);
      at += 6 + n;
    }
    let r;
    try {
      r = loader.call(() => unwrap(this).step(frame));
    } finally {
      frame.fill(0);
    }
    if (r.outcome?.keyShare !== undefined) r.outcome.keyShare = wrapShare(r.outcome.keyShare);
    if (r.outcome?.keyring !== undefined) r.outcome.keyring = wrapKeyring(r.outcome.keyring);
    return r;
  }
}

function party(w) {
  return new Party(INTERNAL, w);
}

/** The fields read of an inbox entry (other keys are ignored). */
const INBOX_KEYS = Object.freeze(['from', 'bytes']);

/** What every key-share holder offers: its owner's id, its public data, sealing. */
class KeyShareHolder extends Owned {
  /** The owner's id. */
  get id() {
    return loader.call(() => unwrap(this).id());
  }
  /** The public data of the share's generation (see protocols.d.ts). */
  publicInfo() {
    return loader.call(() => unwrap(this).publicInfo());
  }
}

/** A sealable key share: `seal()` under a 32-byte snapshot key (a `QSNP` snapshot). */
class SealableShare extends KeyShareHolder {
  /** Seal the share under a 32-byte snapshot key (a `QSNP` snapshot). */
  seal(snapshotKey) {
    const key = secretBytes(snapshotKey, 'snapshotKey', { length: 32 });
    return withSeed(undefined, (s) => loader.call(() => unwrap(this).seal(key, s)));
  }
}

/** A Lens key share, held in WASM memory. `publicInfo()`: `{ id, curve, groupKey,
 *  publicPackage, threshold, parties, generation, transcriptHash }`. */
export class LensKeyShare extends SealableShare {
  /** Restore a sealed share (curve: `ed25519`, `secp256k1`, `ristretto255`). */
  static restore(curve, snapshot, snapshotKey) {
    const c = curveByte(curve);
    const snap = record(snapshot, 'snapshot');
    const key = secretBytes(snapshotKey, 'snapshotKey', { length: 32 });
    return new LensKeyShare(INTERNAL, loader.call(() => glue.LensKeyShareWasm.restore(c, snap, key)));
  }
  /**
   * Accept the share a trusted dealer sent (`LNDS`, from `lens.deal`), checked against the
   * dealer's public key package (`LNPK`, the same at every party). The share's `id` is its
   * recipient's.
   */
  static fromDealer(curve, dealerShare, publicPackage) {
    const c = curveByte(curve);
    const d = secretBytes(dealerShare, 'dealerShare', { max: 1 << 22 });
    const pkg = record(publicPackage, 'publicPackage');
    try {
      return new LensKeyShare(INTERNAL, loader.call(() => glue.LensKeyShareWasm.fromDealer(c, d, pkg)));
    } finally {
      d.fill(0);
    }
  }
}

/** A Pulsar custody key share (its LSS share and the certified group key), in WASM memory.
 *  `publicInfo()`: `{ id, sharing, threshold, parties, generation, transcriptHash, level,
 *  groupKey, keyRecord }`. */
export class PulsarKeyShare extends SealableShare {
  /** Restore a sealed share; its group key's certificate is checked again. */
  static restore(snapshot, snapshotKey) {
    const snap = record(snapshot, 'snapshot');
    const key = secretBytes(snapshotKey, 'snapshotKey', { length: 32 });
    return new PulsarKeyShare(INTERNAL, loader.call(() => glue.PulsarKeyShareWasm.restore(snap, key)));
  }
}

/**
 * A Pulsar member's keyring (the lifecycle parties' own): its current share and a pending
 * generation, in WASM memory. A setup member's outcome holds one; a reshare takes it (it is
 * empty meanwhile) and its outcome holds it again, the new generation current only if the
 * activation certificate verified — the only way the old share is erased.
 */
export class PulsarKeyring extends Owned {
  /** An empty keyring (a member joining the group at a reshare). */
  static empty() {
    return new PulsarKeyring(INTERNAL, loader.call(() => glue.PulsarKeyringWasm.empty()));
  }
  /** A keyring holding a copy of `share` as its current generation. */
  static fromShare(share) {
    const sh = holder(share, PulsarKeyShare, 'share');
    return new PulsarKeyring(INTERNAL, loader.call(() => glue.PulsarKeyringWasm.fromShare(unwrap(sh))));
  }
  /** The current generation, or undefined (empty). */
  get generation() {
    return loader.call(() => unwrap(this).generation());
  }
  /** The generation dealt but not activated, or undefined. */
  get pendingGeneration() {
    return loader.call(() => unwrap(this).pendingGeneration());
  }
  /** The current share's public data (as `PulsarKeyShare.publicInfo()`), or null. */
  publicInfo() {
    return loader.call(() => unwrap(this).publicInfo());
  }
  /** A copy of the current share (to seal it). @throws 'MISSING_OLD_SHARE' when empty. */
  current() {
    return new PulsarKeyShare(INTERNAL, loader.call(() => unwrap(this).current()));
  }
}

/**
 * A Lens member's keyring (the lifecycle parties' own), in WASM memory: as `PulsarKeyring`,
 * for Lens key shares.
 */
export class LensKeyring extends Owned {
  /** An empty keyring (a member joining the group at a reshare). */
  static empty() {
    return new LensKeyring(INTERNAL, loader.call(() => glue.LensKeyringWasm.empty()));
  }
  /** A keyring holding a copy of `share` as its current generation. */
  static fromShare(share) {
    const sh = holder(share, LensKeyShare, 'share');
    return new LensKeyring(INTERNAL, loader.call(() => glue.LensKeyringWasm.fromShare(unwrap(sh))));
  }
  /** The current generation, or undefined (empty). */
  get generation() {
    return loader.call(() => unwrap(this).generation());
  }
  /** The generation dealt but not activated, or undefined. */
  get pendingGeneration() {
    return loader.call(() => unwrap(this).pendingGeneration());
  }
  /** The current share's public data (as `LensKeyShare.publicInfo()`), or null. */
  publicInfo() {
    return loader.call(() => unwrap(this).publicInfo());
  }
  /** A copy of the current share (to seal it). @throws 'MISSING_OLD_SHARE' when empty. */
  current() {
    return new LensKeyShare(INTERNAL, loader.call(() => unwrap(this).current()));
  }
}

/** A Pulsar DKG share before the key ceremony certified the group key, in WASM memory.
 *  `publicInfo()`: `{ id, sharing, threshold, parties, generation, transcriptHash }`. */
export class PulsarDkgShare extends KeyShareHolder {}

// ---------------------------------------------------------------------------------------
// Lens

function lensGroupKey(c, groupKey) {
  const k = bytes(groupKey, 'groupKey');
  const n = byteLength(k);
  const ok = c === CURVES.secp256k1 ? n === 33 : n === 32;
  if (!ok) throw new RangeError(`groupKey has the wrong length for this curve: ${n}`);
  return k;
}

/** Lens factories and verifiers. */
export const lens = Object.freeze({
  curves: constants.curves,
  /**
   * A trusted dealer's key generation (RFC 9591 Appendix C) for `parties` with threshold
   * `threshold`: `{ publicPackage, shares: [{ id, dealerShare }] }`, each `dealerShare` (secret)
   * for its party only, which loads it with `LensKeyShare.fromDealer`. The dealer sees the key.
   */
  deal(opts) {
    const o = checkOpts(opts, ['curve', 'parties', 'threshold', 'seed', 'rng']);
    const c = curveByte(required(o, 'curve', 'lens.deal'));
    const parties = idList(required(o, 'parties', 'lens.deal'), 'parties');
    const t = partyId(required(o, 'threshold', 'lens.deal'), 'threshold');
    return withRng(o, (rng) => loader.call(() => glue.lensDeal(c, parties, t, rng)));
  },
  /** Party `id` of a key generation among `parties` with threshold `threshold`. */
  keygen(opts) {
    const o = checkOpts(opts, ['curve', 'session', 'parties', 'threshold', 'id', 'seed', 'rng', 'cheat']);
    const c = curveByte(required(o, 'curve', 'lens.keygen'));
    const s = session(required(o, 'session', 'lens.keygen'));
    const parties = idList(required(o, 'parties', 'lens.keygen'), 'parties');
    const t = partyId(required(o, 'threshold', 'lens.keygen'), 'threshold');
    const id = partyId(required(o, 'id', 'lens.keygen'), 'id');
    const cheat = cheatOf(o.cheat);
    return withRng(o, (rng) => party(loader.call(() => glue.lensKeygen(c, s, parties, t, id, rng, cheat))));
  },
  /** The holder of `share` in a reshare to `receivers` with threshold `threshold`. */
  reshare(opts) {
    const o = checkOpts(opts, ['share', 'session', 'dealers', 'receivers', 'threshold', 'seed', 'rng', 'cheat']);
    const sh = holder(required(o, 'share', 'lens.reshare'), LensKeyShare, 'share');
    const rs = reshareOf(o, 'lens.reshare');
    const cheat = cheatOf(o.cheat);
    return withRng(o, (rng) => party(loader.call(() => glue.lensReshare(unwrap(sh), rs(), rng, cheat))));
  },
  /** A new receiver `id` (no share yet) of a reshare of the key of `publicPackage`. */
  reshareJoin(opts) {
    const o = checkOpts(opts, ['publicPackage', 'session', 'dealers', 'receivers', 'threshold', 'id', 'seed', 'rng']);
    const pkg = record(required(o, 'publicPackage', 'lens.reshareJoin'), 'publicPackage');
    const rs = reshareOf(o, 'lens.reshareJoin');
    const id = partyId(required(o, 'id', 'lens.reshareJoin'), 'id');
    return withRng(o, (rng) => party(loader.call(() => glue.lensReshareJoin(pkg, rs(), id, rng))));
  },
  /** The holder of `share` in a refresh dealt by `dealers`. */
  refresh(opts) {
    const o = checkOpts(opts, ['share', 'session', 'dealers', 'seed', 'rng', 'cheat']);
    const sh = holder(required(o, 'share', 'lens.refresh'), LensKeyShare, 'share');
    const s = session(required(o, 'session', 'lens.refresh'));
    const dealers = idList(required(o, 'dealers', 'lens.refresh'), 'dealers');
    const cheat = cheatOf(o.cheat);
    return withRng(o, (rng) => party(loader.call(() => glue.lensRefresh(unwrap(sh), s, dealers, rng, cheat))));
  },
  /** A FROST signer of `message` with `share`, sending to `coordinator`. */
  sign(opts) {
    const o = checkOpts(opts, ['share', 'coordinator', 'message', 'seed', 'rng', 'cheat']);
    const sh = holder(required(o, 'share', 'lens.sign'), LensKeyShare, 'share');
    const coord = partyId(required(o, 'coordinator', 'lens.sign'), 'coordinator');
    const m = message(required(o, 'message', 'lens.sign'));
    const cheat = cheatOf(o.cheat);
    return withRng(o, (rng) => party(loader.call(() => glue.lensSign(unwrap(sh), coord, m, rng, cheat))));
  },
  /** The coordinator `id` of a session signing `message` under the key of `publicPackage`. */
  coordinate(opts) {
    const o = checkOpts(opts, ['publicPackage', 'id', 'message']);
    const pkg = record(required(o, 'publicPackage', 'lens.coordinate'), 'publicPackage');
    const id = partyId(required(o, 'id', 'lens.coordinate'), 'id');
    const m = message(required(o, 'message', 'lens.coordinate'));
    return party(loader.call(() => glue.lensCoordinate(pkg, id, m)));
  },
  /**
   * The Lens lifecycle, one party per role (the library's `lens::lifecycle`): key generation
   * into a keyring, signing from it, reshare → activation back into it. Run with `run`.
   */
  lifecycle: Object.freeze({
    member: Object.freeze({
      /** Member `id` of a key generation among `members`; outcome: its `keyring`. */
      keygen(opts) {
        const o = checkOpts(opts, ['curve', 'session', 'members', 'threshold', 'id', 'seed', 'rng']);
        const what = 'lens.lifecycle.member.keygen';
        const c = curveByte(required(o, 'curve', what));
        const s = session(required(o, 'session', what));
        const members = idList(required(o, 'members', what), 'members');
        const t = partyId(required(o, 'threshold', what), 'threshold');
        const id = partyId(required(o, 'id', what), 'id');
        return withRng(o, (rng) => party(loader.call(() => glue.lensLifecycleMemberKeygen(c, s, members, t, id, rng))));
      },
      /** The holder of `keyring` as a signer of `message` for `coordinator`. */
      sign(opts) {
        const o = checkOpts(opts, ['keyring', 'coordinator', 'message', 'seed', 'rng']);
        const what = 'lens.lifecycle.member.sign';
        const kr = holder(required(o, 'keyring', what), LensKeyring, 'keyring');
        const coord = partyId(required(o, 'coordinator', what), 'coordinator');
        const m = message(required(o, 'message', what));
        return withRng(o, (rng) => party(loader.call(() => glue.lensLifecycleMemberSign(unwrap(kr), coord, m, rng))));
      },
      /**
       * Member `id` of a reshare with its `keyring` (`LensKeyring.empty()` and the current
       * `publicPackage` for a joining member); the keyring comes back as the outcome's `keyring`.
       */
      reshare(opts) {
        const o = checkOpts(opts, ['keyring', 'id', 'session', 'dealers', 'receivers', 'threshold', 'publicPackage', 'seed', 'rng']);
        const what = 'lens.lifecycle.member.reshare';
        const kr = holder(required(o, 'keyring', what), LensKeyring, 'keyring');
        const id = partyId(required(o, 'id', what), 'id');
        const rs = reshareOf(o, what);
        const pkg = o.publicPackage === undefined ? undefined : record(o.publicPackage, 'publicPackage');
        return withRng(o, (rng) => party(loader.call(() => glue.lensLifecycleMemberReshare(id, unwrap(kr), pkg, rs(), rng))));
      },
    }),
    coordinator: Object.freeze({
      /** The coordinator `id` of the signature of `message` under the key of `publicPackage`. */
      sign(opts) {
        const o = checkOpts(opts, ['publicPackage', 'id', 'message']);
        const what = 'lens.lifecycle.coordinator.sign';
        const pkg = record(required(o, 'publicPackage', what), 'publicPackage');
        const id = partyId(required(o, 'id', what), 'id');
        const m = message(required(o, 'message', what));
        return party(loader.call(() => glue.lensLifecycleCoordinatorSign(pkg, id, m)));
      },
    }),
  }),
  /** Standard Ed25519 / BIP-340 / RFC 9591 verification; false for any bad signature or key. */
  verify(curve, groupKey, msg, signature) {
    const c = curveByte(curve);
    const k = lensGroupKey(c, groupKey);
    const m = message(msg);
    const s = bytes(signature, 'signature');
    if (byteLength(s) !== 64) return (loader.assertReady(), false);
    return loader.call(() => glue.lensVerify(c, k, m, s));
  },
  /**
   * Whether `certificate` activates generation `generation` of the dealing with transcript
   * hash `transcriptHash` for the key of `publicPackage` (the new generation's package):
   * `{ ok: true }` or `{ ok: false, code, reason }`.
   */
  verifyActivation(publicPackage, generation, transcriptHash, certificate) {
    const pkg = record(publicPackage, 'publicPackage');
    const g = generationOf(generation);
    const th = bytes(transcriptHash, 'transcriptHash', { length: 32 });
    const cert = record(certificate, 'certificate');
    return loader.call(() => glue.lensVerifyActivation(pkg, g, th, cert));
  },
});

// ---------------------------------------------------------------------------------------
// Pulsar

function pulsarLevel(groupKey) {
  const k = bytes(groupKey, 'groupKey');
  let level;
  for (let i = 0; i < LEVELS.length; i++) if (ML_DSA_LENGTHS[LEVELS[i]].publicKey === byteLength(k)) level = LEVELS[i];
  if (level === undefined) throw new RangeError(`groupKey is not an ML-DSA public key (${byteLength(k)} bytes)`);
  return { __proto__: null, level, k };
}

function contextOf(ctx) {
  if (ctx === undefined) return EMPTY;
  const c = bytes(ctx, 'context', { max: MAX_MESSAGE_BYTES });
  if (byteLength(c) > 255) throw quasarError('CONTEXT_TOO_LONG', `context is ${byteLength(c)} bytes; at most 255`, 'context', 'mldsa');
  return c;
}

/** Pulsar custody factories and verifiers. */
export const pulsar = Object.freeze({
  levels: LEVELS,
  /** Party `id` of the Pulsar DKG (LSS Pedersen over Ristretto255). */
  dkg(opts) {
    const o = checkOpts(opts, ['session', 'parties', 'threshold', 'id', 'seed', 'rng', 'cheat']);
    const s = session(required(o, 'session', 'pulsar.dkg'));
    const parties = idList(required(o, 'parties', 'pulsar.dkg'), 'parties');
    const t = partyId(required(o, 'threshold', 'pulsar.dkg'), 'threshold');
    const id = partyId(required(o, 'id', 'pulsar.dkg'), 'id');
    const cheat = cheatOf(o.cheat);
    return withRng(o, (rng) => party(loader.call(() => glue.pulsarDkg(s, parties, t, id, rng, cheat))));
  },
  keyCeremony: Object.freeze({
    /** The combiner `id` of the key ceremony of `sharing`; `party.info.session` goes to the signers. */
    combiner(opts) {
      const o = checkOpts(opts, ['id', 'level', 'sharing', 'signers', 'session', 'seed', 'rng']);
      const id = partyId(required(o, 'id', 'pulsar.keyCeremony.combiner'), 'id');
      const level = levelOf(required(o, 'level', 'pulsar.keyCeremony.combiner'));
      const sharing = record(required(o, 'sharing', 'pulsar.keyCeremony.combiner'), 'sharing');
      const signers = idList(required(o, 'signers', 'pulsar.keyCeremony.combiner'), 'signers');
      const s = session(required(o, 'session', 'pulsar.keyCeremony.combiner'));
      return withRng(o, (rng) => party(loader.call(() => glue.pulsarCeremonyCombiner(id, level, sharing, signers, s, rng))));
    },
    /** The holder of a DKG `share` as a signer of the key-ceremony `session` (from the combiner). */
    signer(opts) {
      const o = checkOpts(opts, ['share', 'session', 'seed', 'rng', 'cheat']);
      const sh = holder(required(o, 'share', 'pulsar.keyCeremony.signer'), PulsarDkgShare, 'share');
      const s = record(required(o, 'session', 'pulsar.keyCeremony.signer'), 'session');
      const cheat = cheatOf(o.cheat);
      return withRng(o, (rng) => party(loader.call(() => glue.pulsarCeremonySigner(unwrap(sh), s, rng, cheat))));
    },
  }),
  /**
   * The key certification after the key ceremony (every party): checks the combiner's
   * `announcement` against the holder's own sharing, proves possession of its share for the
   * key; the outcome's `keyShare` is a `PulsarKeyShare` with the certified group key.
   */
  certify(opts) {
    const o = checkOpts(opts, ['share', 'announcement', 'seed', 'rng']);
    const sh = holder(required(o, 'share', 'pulsar.certify'), PulsarDkgShare, 'share');
    const a = record(required(o, 'announcement', 'pulsar.certify'), 'announcement');
    return withRng(o, (rng) => party(loader.call(() => glue.pulsarCertify(unwrap(sh), a, rng))));
  },
  sign: Object.freeze({
    /** The combiner `id` of a session signing `message` (with `context`) under `keyRecord`. */
    combiner(opts) {
      const o = checkOpts(opts, ['id', 'keyRecord', 'sharing', 'signers', 'message', 'context', 'session', 'seed', 'rng', 'deterministic']);
      const id = partyId(required(o, 'id', 'pulsar.sign.combiner'), 'id');
      const kr = record(required(o, 'keyRecord', 'pulsar.sign.combiner'), 'keyRecord');
      const sharing = record(required(o, 'sharing', 'pulsar.sign.combiner'), 'sharing');
      const signers = idList(required(o, 'signers', 'pulsar.sign.combiner'), 'signers');
      const m = message(required(o, 'message', 'pulsar.sign.combiner'));
      const ctx = contextOf(o.context);
      const s = session(required(o, 'session', 'pulsar.sign.combiner'));
      if (o.deterministic !== undefined && typeof o.deterministic !== 'boolean') throw new TypeError('deterministic must be a boolean');
      const det = o.deterministic === true;
      return withRng(o, (rng) => party(loader.call(() => glue.pulsarSignCombiner(id, kr, sharing, signers, m, ctx, s, rng, det))));
    },
    /** The holder of `share` as a signer of `session`, which must sign exactly `message`/`context`. */
    signer(opts) {
      const o = checkOpts(opts, ['share', 'session', 'message', 'context', 'seed', 'rng', 'cheat']);
      const sh = holder(required(o, 'share', 'pulsar.sign.signer'), PulsarKeyShare, 'share');
      const s = record(required(o, 'session', 'pulsar.sign.signer'), 'session');
      const m = message(required(o, 'message', 'pulsar.sign.signer'));
      const ctx = contextOf(o.context);
      const cheat = cheatOf(o.cheat);
      return withRng(o, (rng) => party(loader.call(() => glue.pulsarSignSigner(unwrap(sh), s, m, ctx, rng, cheat))));
    },
  }),
  /** The holder of `share` in a reshare to `receivers` (threshold `threshold`) dealt by `dealers`. */
  reshare(opts) {
    const o = checkOpts(opts, ['share', 'session', 'dealers', 'receivers', 'threshold', 'seed', 'rng', 'cheat']);
    const sh = holder(required(o, 'share', 'pulsar.reshare'), PulsarKeyShare, 'share');
    const rs = reshareOf(o, 'pulsar.reshare');
    const cheat = cheatOf(o.cheat);
    return withRng(o, (rng) => party(loader.call(() => glue.pulsarReshare(unwrap(sh), rs(), rng, cheat))));
  },
  /** A new member `id` of a reshare: `keyRecord` is checked against the old `sharing` first. */
  reshareJoin(opts) {
    const o = checkOpts(opts, ['keyRecord', 'sharing', 'session', 'dealers', 'receivers', 'threshold', 'id', 'seed', 'rng']);
    const kr = record(required(o, 'keyRecord', 'pulsar.reshareJoin'), 'keyRecord');
    const sharing = record(required(o, 'sharing', 'pulsar.reshareJoin'), 'sharing');
    const rs = reshareOf(o, 'pulsar.reshareJoin');
    const id = partyId(required(o, 'id', 'pulsar.reshareJoin'), 'id');
    return withRng(o, (rng) => party(loader.call(() => glue.pulsarReshareJoin(kr, sharing, rs(), id, rng))));
  },
  /** The holder of `share` in a refresh dealt by `dealers`. */
  refresh(opts) {
    const o = checkOpts(opts, ['share', 'session', 'dealers', 'seed', 'rng', 'cheat']);
    const sh = holder(required(o, 'share', 'pulsar.refresh'), PulsarKeyShare, 'share');
    const s = session(required(o, 'session', 'pulsar.refresh'));
    const dealers = idList(required(o, 'dealers', 'pulsar.refresh'), 'dealers');
    const cheat = cheatOf(o.cheat);
    return withRng(o, (rng) => party(loader.call(() => glue.pulsarRefresh(unwrap(sh), s, dealers, rng, cheat))));
  },
  /**
   * The whole custody lifecycle, one party per role (the library's
   * `pulsar::custody::lifecycle`): what the single-protocol factories hand around out of
   * band (sharing, session, announcement, activation certificate) travels as the parties' own
   * messages, so a host only routes bytes (`run`).
   */
  lifecycle: Object.freeze({
    member: Object.freeze({
      /** Member `id` of a group's setup (DKG → key ceremony → certification); outcome: its `keyring`. */
      setup(opts) {
        const o = checkOpts(opts, ['session', 'level', 'members', 'threshold', 'signers', 'combiner', 'id', 'seed', 'rng', 'cheat']);
        const what = 'pulsar.lifecycle.member.setup';
        const s = session(required(o, 'session', what));
        const level = levelOf(required(o, 'level', what));
        const members = idList(required(o, 'members', what), 'members');
        const t = partyId(required(o, 'threshold', what), 'threshold');
        const signers = idList(required(o, 'signers', what), 'signers');
        const combiner = partyId(required(o, 'combiner', what), 'combiner');
        const id = partyId(required(o, 'id', what), 'id');
        const cheat = cheatOf(o.cheat);
        return withRng(o, (rng) => party(loader.call(() => glue.pulsarLifecycleMemberSetup(s, level, members, t, signers, combiner, id, rng, cheat))));
      },
      /** The holder of `keyring` as a signer of a session of `combiner` signing `message`. */
      sign(opts) {
        const o = checkOpts(opts, ['keyring', 'session', 'signers', 'message', 'context', 'combiner', 'seed', 'rng', 'cheat']);
        const what = 'pulsar.lifecycle.member.sign';
        const kr = holder(required(o, 'keyring', what), PulsarKeyring, 'keyring');
        const s = session(required(o, 'session', what));
        const signers = idList(required(o, 'signers', what), 'signers');
        const m = message(required(o, 'message', what));
        const ctx = contextOf(o.context);
        const combiner = partyId(required(o, 'combiner', what), 'combiner');
        const cheat = cheatOf(o.cheat);
        return withRng(o, (rng) => party(loader.call(() => glue.pulsarLifecycleMemberSign(unwrap(kr), s, signers, m, ctx, combiner, rng, cheat))));
      },
      /**
       * Member `id` of a reshare with its `keyring` (`PulsarKeyring.empty()` and the group's
       * `keyRecord` and `sharing` for a joining member). The keyring moves into the party and
       * comes back as the outcome's `keyring`.
       */
      reshare(opts) {
        const o = checkOpts(opts, ['keyring', 'id', 'session', 'dealers', 'receivers', 'threshold', 'keyRecord', 'sharing', 'seed', 'rng', 'cheat']);
        const what = 'pulsar.lifecycle.member.reshare';
        const kr = holder(required(o, 'keyring', what), PulsarKeyring, 'keyring');
        const id = partyId(required(o, 'id', what), 'id');
        const rs = reshareOf(o, what);
        const rec = o.keyRecord === undefined ? undefined : record(o.keyRecord, 'keyRecord');
        const sh = o.sharing === undefined ? undefined : record(o.sharing, 'sharing');
        const cheat = cheatOf(o.cheat);
        return withRng(o, (rng) => party(loader.call(() => glue.pulsarLifecycleMemberReshare(id, unwrap(kr), rec, sh, rs(), rng, cheat))));
      },
    }),
    combiner: Object.freeze({
      /** The combiner `id` of a group's setup; outcome: the certified `keyRecord`, `groupKey`, `sharing`. */
      setup(opts) {
        const o = checkOpts(opts, ['session', 'level', 'members', 'threshold', 'signers', 'id', 'seed', 'rng']);
        const what = 'pulsar.lifecycle.combiner.setup';
        const s = session(required(o, 'session', what));
        const level = levelOf(required(o, 'level', what));
        const members = idList(required(o, 'members', what), 'members');
        const t = partyId(required(o, 'threshold', what), 'threshold');
        const signers = idList(required(o, 'signers', what), 'signers');
        const id = partyId(required(o, 'id', what), 'id');
        return withRng(o, (rng) => party(loader.call(() => glue.pulsarLifecycleCombinerSetup(s, level, members, t, signers, id, rng))));
      },
      /** The combiner `id` of a session in which `signers` of the group (`keyRecord`, `sharing`) sign `message`. */
      sign(opts) {
        const o = checkOpts(opts, ['id', 'keyRecord', 'sharing', 'session', 'signers', 'message', 'context', 'seed', 'rng', 'deterministic']);
        const what = 'pulsar.lifecycle.combiner.sign';
        const id = partyId(required(o, 'id', what), 'id');
        const kr = record(required(o, 'keyRecord', what), 'keyRecord');
        const sh = record(required(o, 'sharing', what), 'sharing');
        const s = session(required(o, 'session', what));
        const signers = idList(required(o, 'signers', what), 'signers');
        const m = message(required(o, 'message', what));
        const ctx = contextOf(o.context);
        if (o.deterministic !== undefined && typeof o.deterministic !== 'boolean') throw new TypeError('deterministic must be a boolean');
        const det = o.deterministic === true;
        return withRng(o, (rng) => party(loader.call(() => glue.pulsarLifecycleCombinerSign(s, signers, m, ctx, id, kr, sh, rng, det))));
      },
    }),
  }),
  /** Plain FIPS 204 verification under a Pulsar group key (raw); false for any bad signature. */
  verify(groupKey, msg, signature, opts) {
    const o = checkOpts(opts, ['context']);
    const { level, k } = pulsarLevel(groupKey);
    const m = message(msg);
    const s = bytes(signature, 'signature');
    const ctx = contextOf(o.context);
    if (byteLength(s) !== ML_DSA_LENGTHS[level].signature) return (loader.assertReady(), false);
    return loader.call(() => glue.mlDsaVerify(level, k, m, ctx, s));
  },
  /**
   * Whether `certificate` activates generation `generation` of the dealing with transcript
   * hash `transcriptHash` of `sharing` (the new generation's `LSG1`) for the group key record
   * `groupKey` (`PCGK`) of that generation (the `keyRecord` of the dealing's outcome): every
   * byte of the record is checked against `sharing`. `{ ok: true }` or `{ ok: false, code,
   * reason }`; a bad record or certificate is a verdict, never a throw.
   */
  verifyActivation(sharing, groupKey, generation, transcriptHash, certificate) {
    const sh = record(sharing, 'sharing');
    const kr = record(groupKey, 'groupKey');
    const g = generationOf(generation);
    const th = bytes(transcriptHash, 'transcriptHash', { length: 32 });
    const cert = record(certificate, 'certificate');
    return loader.call(() => glue.pulsarVerifyActivation(sh, kr, g, th, cert));
  },
});

// ---------------------------------------------------------------------------------------
// Running parties in one process

/** The most rounds `run` takes before it gives up (the Rust simulator's `MAX_ROUNDS`). */
const MAX_ROUNDS = 64;
const RUN_KEYS = Object.freeze(['tamper', 'onSent', 'maxRounds']);

/** Every entry a step result names (its `dropped`, an outcome's `blame`, an error's `blame`), with who named it. */
function blameOf(by, entries, into) {
  if (entries === undefined || entries === null) return;
  for (let i = 0; i < entries.length; i++) into.push({ by, ...entries[i] });
}

/**
 * The one loop, with the semantics of the Rust simulator (`party::sim::Network`), as a
 * generator: it yields `[party, inbox]` and takes back `{ value }` (the step result) or
 * `{ error }`, so that `run` and `runAsync` share it. The starts are posted in the order
 * given (round 0); each round delivers what the previous round posted — a broadcast to every
 * other party of the run, a direct message to its recipient — through `tamper`, then steps
 * every unfinished party by increasing id on its inbox. A waiting party posts nothing and
 * steps again next round; a party that throws leaves the run. The run stops when every party
 * is done or failed, when a round posted nothing, or after `maxRounds`.
 */
function* network(list, o) {
  const live = new Map();
  for (let i = 0; i < list.length; i++) {
    const p = list[i];
    const id = partyId(p?.id, `parties[${i}].id`);
    if (live.has(id)) throw new RangeError(`parties[${i}]: party ${id} is in the run twice`);
    live.set(id, p);
  }
  const ids = [...live.keys()].sort((a, b) => a - b);
  const byId = new Map(ids.map((id) => [id, live.get(id)]));
  const maxRounds = o.maxRounds === undefined ? MAX_ROUNDS : o.maxRounds;
  if (typeof maxRounds !== 'number' || maxRounds % 1 !== 0 || !(maxRounds >= 1 && maxRounds <= 65535)) {
    throw new RangeError(`maxRounds must be an integer in 1..65535, got ${echo(maxRounds)}`);
  }
  const outcomes = new Map();
  const errors = new Map();
  const blame = [];
  let posts = [];
  for (let i = 0; i < list.length; i++) posts.push({ from: list[i].id, outgoing: list[i].start.outgoing });
  if (o.onSent) for (const s of posts) o.onSent(s.from, s.outgoing, 0);
  let round = 0;
  while (round < maxRounds) {
    let envelopes = [];
    for (const { from, outgoing } of posts) {
      if (outgoing.broadcast) {
        for (const to of ids) if (to !== from) envelopes.push({ round, from, to, channel: 'broadcast', bytes: outgoing.broadcast });
      }
      for (const d of outgoing.direct) envelopes.push({ round, from, to: d.to, channel: 'direct', bytes: d.bytes });
    }
    if (o.tamper) envelopes = envelopes.flatMap((e) => o.tamper(e, round) ?? [e]);
    round += 1;
    posts = [];
    for (const [id, p] of byId) {
      const inbox = envelopes.filter((e) => e.to === id).map((e) => ({ from: e.from, bytes: e.bytes }));
      const r = yield [p, inbox];
      if ('error' in r) {
        errors.set(id, r.error);
        blameOf(id, r.error?.blame, blame);
        byId.delete(id);
        continue;
      }
      const res = r.value;
      if (res.waiting) continue;
      posts.push({ from: id, outgoing: res.outgoing });
      if (o.onSent) o.onSent(id, res.outgoing, round);
      if (res.done) {
        outcomes.set(id, res.outcome);
        blameOf(id, res.dropped, blame);
        blameOf(id, res.outcome?.blame, blame);
        byId.delete(id);
      }
    }
    const inFlight = posts.some((s) => s.outgoing.broadcast !== undefined || s.outgoing.direct.length > 0);
    if (!byId.size || !inFlight) break;
  }
  const waiting = [...byId.keys()];
  return {
    outcomes,
    errors,
    waiting,
    blame,
    rounds: round,
    of(party) {
      const id = typeof party === 'number' ? party : party?.id;
      if (outcomes.has(id)) return outcomes.get(id);
      if (errors.has(id)) throw errors.get(id);
      throw new Error(waiting.includes(id) ? `party ${id} did not finish: still waiting after round ${round}` : `party ${id} is not in the run`);
    },
  };
}

function runOpts(parties, opts) {
  const list = listOf(parties, 'parties', MAX_PARTIES);
  const o = checkOpts(opts, RUN_KEYS, 'run options');
  if (o.tamper !== undefined && typeof o.tamper !== 'function') throw new TypeError('tamper must be a function');
  if (o.onSent !== undefined && typeof o.onSent !== 'function') throw new TypeError('onSent must be a function');
  return [list, o];
}

/**
 * Runs `parties` (Party objects, or any `{ id, start, step(inbox) }`) to the end in this
 * process, as the Rust simulator does: `{ outcomes, errors, waiting, blame, rounds, of(party) }`.
 * See protocols.d.ts.
 */
export function run(parties, opts) {
  const g = network(...runOpts(parties, opts));
  let next = g.next();
  while (!next.done) {
    const [p, inbox] = next.value;
    let r;
    try {
      r = { value: p.step(inbox) };
    } catch (error) {
      r = { error };
    }
    next = g.next(r);
  }
  return next.value;
}

/**
 * As `run`, for parties whose `step` returns a promise (a party in a worker): every step is
 * awaited in turn, in the same order.
 */
export function runAsync(parties, opts) {
  // Arguments are checked now, so a caller's mistake throws here rather than rejecting later.
  const g = network(...runOpts(parties, opts));
  // The first round (every party's start, its entries checked) runs now too.
  return drive(g, g.next());
}

async function drive(g, first) {
  let next = first;
  while (!next.done) {
    const [p, inbox] = next.value;
    let r;
    try {
      r = { value: await p.step(inbox) };
    } catch (error) {
      r = { error };
    }
    next = g.next(r);
  }
  return next.value;
}
