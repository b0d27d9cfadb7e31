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

import { ML_DSA_LENGTHS, MAX_MESSAGE_BYTES, bytes, byteLength, checkOpts, quasarError, randomBytes, secretBytes } from './common.js';
import { glue, loader } from './full.js';

const CURVES = Object.freeze({ ed25519: 1, secp256k1: 2, ristretto255: 3 });
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

function partyId(v, title) {
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw new TypeError(`${title} must be an integer party id, got ${v === null ? 'null' : typeof v}`);
  }
  if (v < 1 || v > 65535) throw new RangeError(`${title} must be in 1..65535, got ${v}`);
  return v;
}

function idList(v, title) {
  if (!Array.isArray(v)) throw new TypeError(`${title} must be an array of party ids`);
  // Read once: a Proxy's `length` may answer differently on every read.
  const n = v.length;
  if (n > 4096) throw new RangeError(`${title} lists ${n} parties, at most 4096`);
  const out = new Uint16Array(n);
  for (let i = 0; i < n; i++) out[i] = partyId(v[i], `${title}[${i}]`);
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
  if (typeof curve !== 'string' || !(curve in CURVES)) {
    throw new RangeError(`curve must be one of ${Object.keys(CURVES).join(', ')}, got ${String(curve)}`);
  }
  return CURVES[curve];
}

function levelOf(level) {
  if (!LEVELS.includes(level)) throw new RangeError(`level must be 44, 65 or 87, got ${String(level)}`);
  return level;
}

const CHEATS = Object.freeze(Object.values(constants.cheats));

function cheatOf(cheat) {
  if (cheat === undefined || cheat === null) return undefined;
  if (typeof cheat !== 'string') throw new TypeError(`cheat must be a misbehaviour name, got ${typeof cheat}`);
  // Checked here, not only in Rust: the glue would first copy a string of any length into WASM memory.
  if (!CHEATS.includes(cheat)) throw new RangeError(`cheat must be one of ${CHEATS.join(', ')} (got a string of ${cheat.length} characters)`);
  return cheat;
}

function generationOf(g) {
  if (typeof g !== 'number' || !Number.isSafeInteger(g) || g < 0) {
    throw new RangeError(`generation must be a non-negative safe integer, got ${String(g)}`);
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
    if (!loader.poisoned) rng.free();
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
  /** Release the WASM memory held by this object (its secrets are wiped). Idempotent. */
  free() {
    const w = this.#w;
    this.#w = null;
    if (w !== null && !loader.poisoned) w.free();
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
    this.#id = w.id();
    this.#protocol = w.protocol();
    this.#max = w.maxInboxBytes();
    this.#info = Object.freeze(w.info());
    this.#start = Object.freeze(w.takeStart());
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
   * the sender the transport authenticated. Returns `{ done, round, outgoing, outcome?,
   * dropped }`. Every entry is checked and copied before the party is touched: a bad one throws
   * (TypeError, RangeError, QuasarError) and the party keeps its whole state.
   */
  step(inbox) {
    unwrap(this);
    if (!Array.isArray(inbox)) throw new TypeError('inbox must be an array of { from, bytes }');
    const entries = [];
    let total = 0;
    for (let i = 0; i < inbox.length; i++) {
      const m = inbox[i];
      if (m === null || typeof m !== 'object') throw new TypeError(`inbox[${i}] must be { from, bytes }`);
      const from = partyId(m.from, `inbox[${i}].from`);
      const b = bytes(m.bytes, `inbox[${i}].bytes`, { max: this.#max });
      total += 6 + byteLength(b);
      if (total > this.#max) {
        throw new RangeError(`inbox is over ${this.#max} bytes, the most this ${this.#protocol} party accepts in a round`);
      }
      entries.push([from, b]);
    }
    const frame = new Uint8Array(total);
    const view = new DataView(frame.buffer);
    let at = 0;
    for (const [from, b] of entries) {
      view.setUint16(at, from);
      view.setUint32(at + 2, byteLength(b));
      frame.set(b, at + 6);
      at += 6 + byteLength(b);
    }
    let r;
    try {
      r = loader.call(() => unwrap(this).step(frame));
    } finally {
      frame.fill(0);
    }
    if (r.outcome?.keyShare !== undefined) r.outcome.keyShare = wrapShare(r.outcome.keyShare);
    return r;
  }
}

function party(w) {
  return new Party(INTERNAL, w);
}

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
  const level = LEVELS.find((l) => ML_DSA_LENGTHS[l].publicKey === byteLength(k));
  if (level === undefined) throw new RangeError(`groupKey is not an ML-DSA public key (${byteLength(k)} bytes)`);
  return [level, k];
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
  /** Plain FIPS 204 verification under a Pulsar group key (raw); false for any bad signature. */
  verify(groupKey, msg, signature, opts) {
    const o = checkOpts(opts, ['context']);
    const [level, k] = pulsarLevel(groupKey);
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
