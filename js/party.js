// The shared core of the threshold protocols (js/lens.js, js/pulsar.js): the argument checks
// every factory makes, and `makeCore`, which builds for one WebAssembly instance (its
// generated module `glue` and its `loader`) the classes that own WASM objects — `Party`, `Rng`,
// the key-share holders, the keyrings — and the helpers a family's factories start parties
// with. Not a public entry point: js/protocols.js assembles the families.

import { MAX_MESSAGE_BYTES, bytes, byteLength, checkOpts, copyInto, echo, fieldsOf, freshList, listOf, quasarError, randomBytes, secretBytes } from './common.js';

const DISPOSE = Symbol.dispose ?? Symbol.for('Symbol.dispose');
/** The token only this package's factories hold: `new Party(...)` from outside is refused. */
export const INTERNAL = Symbol('quasar-pq internal');

// ---------------------------------------------------------------------------------------
// Argument checks

/** The most parties a list of ids names. */
export const MAX_PARTIES = 4096;

export function partyId(v, title) {
  if (typeof v !== 'number' || v % 1 !== 0) {
    throw new TypeError(`${title} must be an integer party id, got ${v === null ? 'null' : typeof v}`);
  }
  if (!(v >= 1 && v <= 65535)) throw new RangeError(`${title} must be in 1..65535, got ${v}`);
  return v;
}

/** A list of party ids, copied once (js/common.js `listOf`: a Proxy cannot stretch it), then checked. */
export function idList(v, title) {
  const list = listOf(v, title, MAX_PARTIES);
  const out = new Uint16Array(list.length);
  for (let i = 0; i < list.length; i++) out[i] = partyId(list[i], `${title}[${i}]`);
  return out;
}

export function required(o, key, what) {
  if (o[key] === undefined) throw new TypeError(`${what}: missing "${key}"`);
  return o[key];
}

export const session = (v) => bytes(v, 'session', { length: 32 });
const seedOf = (seed) => (seed === undefined ? randomBytes(32) : secretBytes(seed, 'seed', { length: 32 }));
export const message = (v, name = 'message') => bytes(v, name, { max: MAX_MESSAGE_BYTES });
/** Public protocol objects (packages, sharings, key records, certificates, sessions). */
export const record = (v, name) => bytes(v, name, { max: 1 << 22 });

/** 2^53 - 1: the largest generation (a safe integer). */
const MAX_GENERATION = 9007199254740991;

export function generationOf(g) {
  if (typeof g !== 'number' || g % 1 !== 0 || !(g >= 0 && g <= MAX_GENERATION)) {
    throw new RangeError(`generation must be a non-negative safe integer, got ${echo(g)}`);
  }
  return g;
}

/** `v`, checked to be a `Class`; its WASM object is taken (`unwrap`) only inside the call. */
export function holder(v, Class, name) {
  if (!(v instanceof Class)) throw new TypeError(`${name} must be a ${Class.name}`);
  return v;
}

/** Runs `fn` with a fresh 32-byte seed (wiped afterwards). */
export function withSeed(seed, fn) {
  const s = seedOf(seed);
  try {
    return fn(s);
  } finally {
    s.fill(0);
  }
}

/** The fields read of an inbox entry (other keys are ignored). */
const INBOX_KEYS = Object.freeze(['from', 'bytes']);

/** Starts a party with no hook: `fn()` itself. */
const direct = (fn) => fn();

// ---------------------------------------------------------------------------------------
// One instance's classes and helpers

/**
 * The core of the protocols over one WebAssembly instance. `hooks` (absent in the package) is
 * how a build with extra start options plugs in, the demo's (js/support/demo.mjs): `keys`, the
 * option names the party factories then also accept, and `prepare(o)`, which checks them and
 * returns how to start the party (a function running the start it is given).
 */
export function makeCore(glue, loader, hooks) {
  const hookKeys = hooks === undefined ? [] : hooks.keys;

  /**
   * The options of a party factory: `keys`, plus the hook's when `hooked` (a factory whose
   * party the hook may start). Returns the checked bag.
   */
  function options(opts, keys, hooked = false) {
    return checkOpts(opts, hooked && hookKeys.length ? [...keys, ...hookKeys] : keys);
  }

  /** How to start the party of the checked options `o` (call it inside `loader.call`). */
  function starter(o) {
    return hooks === undefined ? direct : hooks.prepare(o);
  }

  /** The WASM classes of outcomes and the JS classes that own them (`wrap`). */
  const owners = [];

  /** `w` (a WASM object from an outcome) in the JS class that owns its kind, or `w` itself. */
  function wrap(w) {
    for (let i = 0; i < owners.length; i++) if (w instanceof owners[i][0]) return new owners[i][1](INTERNAL, w);
    return w;
  }

  /** Registers `Class` as the owner of the outcomes' `WasmClass` objects; returns `Class`. */
  function owns(WasmClass, Class) {
    // A module without this family has no such class (quasar-pq/committee has no custody).
    if (WasmClass !== undefined) owners.push([WasmClass, Class]);
    return Class;
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
  class Rng extends Owned {
    /** `ChaCha20Rng::from_seed(seed)`; the caller's seed array is left as it is. */
    static fromSeed(seed) {
      if (seed === undefined) throw new TypeError('seed must be a Uint8Array, got undefined');
      return withSeed(seed, (s) => new Rng(INTERNAL, loader.call(() => new glue.RngWasm(s))));
    }
  }

  /**
   * One protocol party (any protocol): its state lives in WASM memory. `start` holds the
   * messages its start sends; `step(inbox)` runs one round. See protocols.d.ts.
   */
  class Party extends Owned {
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
      if (r.outcome?.keyShare !== undefined) r.outcome.keyShare = wrap(r.outcome.keyShare);
      if (r.outcome?.keyring !== undefined) r.outcome.keyring = wrap(r.outcome.keyring);
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

  /**
   * The keyring class `name` of a family (the lifecycle parties' own): a member's current share
   * (a `Share`) and a pending generation, in WASM memory (a `WasmKeyring`). A keygen or setup
   * member's outcome holds one; a reshare takes it (it is empty meanwhile) and its outcome holds
   * it again, the new generation current only if the activation certificate verified — the only
   * way the old share is erased.
   */
  function makeKeyring(name, WasmKeyring, Share) {
    const Keyring = {
      [name]: class extends Owned {
        /** An empty keyring (a member joining the group at a reshare). */
        static empty() {
          return new Keyring(INTERNAL, loader.call(() => WasmKeyring.empty()));
        }
        /** A keyring holding a copy of `share` as its current generation. */
        static fromShare(share) {
          const sh = holder(share, Share, 'share');
          return new Keyring(INTERNAL, loader.call(() => WasmKeyring.fromShare(unwrap(sh))));
        }
        /** The current generation, or undefined (empty). */
        get generation() {
          return loader.call(() => unwrap(this).generation());
        }
        /** The generation dealt but not activated, or undefined. */
        get pendingGeneration() {
          return loader.call(() => unwrap(this).pendingGeneration());
        }
        /** The current share's public data (as the share's `publicInfo()`), or null. */
        publicInfo() {
          return loader.call(() => unwrap(this).publicInfo());
        }
        /** A copy of the current share (to seal it). @throws 'MISSING_OLD_SHARE' when empty. */
        current() {
          return new Share(INTERNAL, loader.call(() => unwrap(this).current()));
        }
      },
    }[name];
    return owns(WasmKeyring, Keyring);
  }

  return Object.freeze({
    glue,
    loader,
    unwrap,
    options,
    starter,
    owns,
    withRng,
    reshareOf,
    party,
    Owned,
    Rng,
    Party,
    KeyShareHolder,
    SealableShare,
    makeKeyring,
  });
}
