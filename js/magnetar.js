// Magnetar (both builds): per-validator SLH-DSA signatures in the reference's MAGS/MAGG
// envelopes, batch verification with a per-signer bitmap, and the MAGA aggregate certificate
// checked against a validator registry with a quorum. The full build adds key generation,
// signing and aggregation. Not a public entry point: js/index.js and js/verify.js export what
// `makeMagnetar` returns under the same names.
//
// Every byte argument crosses `bytes()` (js/common.js). Lists reach the WASM module as one
// framed byte string (`u32 length ‖ bytes`, big-endian, per entry), built here from the
// checked arrays, so the Rust side never calls back into JS. What an attacker controls
// (signatures, certificates) never makes a verifier throw: `false` in a bitmap, or a verdict
// `{ ok: false, code, reason }`.

import {
  MAX_MESSAGE_BYTES,
  booleans,
  byteLength,
  bytes,
  checkOpts,
  contextOf,
  copyInto,
  echo,
  fieldsOf,
  freshList,
  listOf,
  named,
  oneOf,
  quasarError,
  randomBytes,
  secretBytes,
  signRandomness,
} from './common.js';
import { SLH_DSA_LENGTHS } from './slhdsa.js';

/**
 * The three Magnetar modes, by name, with their envelope mode byte and SLH-DSA set (a
 * null-prototype table: only its own names are modes).
 */
const MODES = Object.freeze({
  __proto__: null,
  shake192s: Object.freeze([1, 'SLH-DSA-SHAKE-192s']),
  shake192f: Object.freeze([2, 'SLH-DSA-SHAKE-192f']),
  shake256s: Object.freeze([3, 'SLH-DSA-SHAKE-256s']),
});
const MODE_NAMES = Object.freeze(Object.keys(MODES));
const NAME_OF = Object.freeze({ __proto__: null, ...Object.fromEntries(MODE_NAMES.map((m) => [MODES[m][0], m])) });

/** Bytes of a MAGS/MAGG envelope header: magic 4, version 2, mode 1, length 4. */
const FRAME_HEADER = 11;
/** Bytes of an aggregate certificate header (magic, version, mode, count) and of an id. */
const CERT_HEADER = 9;
const ID_BYTES = 32;
/** The most validators a registry holds and signers a certificate or batch names. */
const MAX_VALIDATORS = 1024;
const U64_MAX = (1n << 64n) - 1n;
// Taken when the module loads: a weight or a quorum is checked by these, whatever replaces them later.
const isSafeInteger = Number.isSafeInteger;
const toBigInt = BigInt;

/**
 * Byte lengths per mode: the envelopes (`publicKey` MAGG, `signature` MAGS), the raw FIPS 205
 * sizes inside them, the key-generation seeds (`seed` = SK.seed ‖ SK.prf ‖ PK.seed, 3n;
 * `referenceSeed`, the reference's 4n-byte seed), the secret key (4n) and `signRand` (n).
 */
export const MAGNETAR_LENGTHS = Object.freeze(
  Object.fromEntries(
    MODE_NAMES.map((m) => {
      const l = SLH_DSA_LENGTHS[MODES[m][1]];
      return [
        m,
        Object.freeze({
          publicKey: FRAME_HEADER + l.publicKey,
          signature: FRAME_HEADER + l.signature,
          rawPublicKey: l.publicKey,
          rawSignature: l.signature,
          seed: l.seed,
          referenceSeed: l.secretKey,
          secretKey: l.secretKey,
          signRand: l.signRand,
          id: ID_BYTES,
        }),
      ];
    }),
  ),
);

const MAX_KEY_FRAME = Math.max(...MODE_NAMES.map((m) => MAGNETAR_LENGTHS[m].publicKey));
const MAX_SIG_FRAME = Math.max(...MODE_NAMES.map((m) => MAGNETAR_LENGTHS[m].signature));
const MAX_CERT = CERT_HEADER + MAX_VALIDATORS * (ID_BYTES + Math.max(...MODE_NAMES.map((m) => MAGNETAR_LENGTHS[m].rawSignature)));

/** The trust model, in the words of the module docs (DESIGN §3 style). */
export const MAGNETAR_TRUST_MODEL =
  'Magnetar: each validator signs independently with its own SLH-DSA key — no threshold, no shared secret. ' +
  'An aggregate certificate is the list of their ordinary FIPS 205 signatures on one message, checked one by one ' +
  'against the keys and weights of a validator registry the verifier already trusts; it is accepted only if every ' +
  'listed signer is registered, every signature verifies, and their weight is more than the quorum (2/3 by default). ' +
  'It proves who signed, not that the registry is the right one nor that the message is fresh.';

const VERIFY_OPTS = Object.freeze(['context']);
const SIGN_OPTS = Object.freeze(['context', 'extraEntropy']);
const KEYGEN_OPTS = Object.freeze(['seed', 'referenceSeed']);
const AGGREGATE_OPTS = Object.freeze(['context', 'quorum', 'diagnose']);
const QUORUM_KEYS = Object.freeze(['numerator', 'denominator']);
/** The fields read of a validator, a contribution and a batch item (other keys are ignored). */
const VALIDATOR_KEYS = Object.freeze(['id', 'publicKey', 'weight']);
const CONTRIBUTION_KEYS = Object.freeze(['id', 'signature']);
const ITEM_KEYS = Object.freeze(['publicKey', 'message', 'signature']);

function modeOf(mode, title = 'mode') {
  if (!named(MODES, mode)) throw new TypeError(`${title} must be one of ${oneOf(MODE_NAMES)}, got ${echo(mode)}`);
  return mode;
}

/** One framed byte string from checked arrays (a list from `listOf`): `u32 length ‖ bytes` per entry. */
function frame(arrays) {
  let total = 0;
  for (let i = 0; i < arrays.length; i++) total += 4 + byteLength(arrays[i]);
  const out = new Uint8Array(total);
  let at = 0;
  for (let i = 0; i < arrays.length; i++) {
    const a = arrays[i];
    const n = byteLength(a);
    out[at] = n >>> 24;
    out[at + 1] = (n >>> 16) & 0xff;
    out[at + 2] = (n >>> 8) & 0xff;
    out[at + 3] = n & 0xff;
    copyInto(out, a, at + 4);
    at += 4 + n;
  }
  return out;
}

/** Checked 32-byte validator ids (a list from `listOf`), concatenated. */
function idBytes(ids) {
  const out = new Uint8Array(ids.length * ID_BYTES);
  for (let i = 0; i < ids.length; i++) copyInto(out, ids[i], i * ID_BYTES);
  return out;
}

/**
 * Contributions `[{ id, signature }]`, copied and checked: `{ ids, sigs }`, their ids and
 * their signatures (`signatureOf(value, title)` checks each).
 */
function contributionsOf(contributions, signatureOf) {
  const list = listOf(contributions, 'contributions', MAX_VALIDATORS);
  const ids = freshList();
  const sigs = freshList();
  for (let i = 0; i < list.length; i++) {
    const c = fieldsOf(list[i], CONTRIBUTION_KEYS, `contributions[${i}]`);
    ids[i] = bytes(c.id, `contributions[${i}].id`, { length: ID_BYTES });
    sigs[i] = signatureOf(c.signature, `contributions[${i}].signature`);
  }
  return { __proto__: null, ids, sigs };
}

/** A signature envelope from an attacker: checked, or an empty entry (decodes to `false`) when too long. */
function signatureOrEmpty(v, title) {
  const s = bytes(v, title);
  return byteLength(s) > MAX_SIG_FRAME ? new Uint8Array(0) : s;
}

/** A weight: a non-negative safe integer or a BigInt below 2^64. */
function weightOf(v, title) {
  if (typeof v === 'bigint') {
    if (v < 0n || v > U64_MAX) throw new RangeError(`${title} must be in 0..2^64-1`);
    return v;
  }
  if (typeof v !== 'number' || !isSafeInteger(v) || v < 0) {
    throw new TypeError(`${title} must be a non-negative safe integer or a BigInt`);
  }
  return toBigInt(v);
}

/**
 * The quorum option: `{ numerator, denominator }` (default 2/3), each a weight, read as an
 * options bag (own data properties only, no other keys).
 */
function quorumOf(q) {
  if (q === undefined) return { __proto__: null, num: 2n, den: 3n };
  const o = checkOpts(q, QUORUM_KEYS, 'opts.quorum');
  return { __proto__: null, num: weightOf(o.numerator, 'opts.quorum.numerator'), den: weightOf(o.denominator, 'opts.quorum.denominator') };
}

/** The verdict object (null-prototype, from the module) with mode names instead of bytes. */
function verdict(r) {
  if (r.mode !== undefined) r.mode = NAME_OF[r.mode];
  return r;
}

/**
 * The Magnetar surface of one build: `w` is its generated module, `loader` its loader;
 * `full` adds keygen, sign and aggregate.
 */
export function makeMagnetar(w, loader, { full }) {
  /**
   * A validator registry held in WASM memory: ids (32 bytes), MAGG keys, weights. Verifies
   * contributions (`verifyBatch`) and aggregate certificates (`verifyAggregate`) against its
   * registered keys. Holds public data only; `free()` releases it.
   */
  class MagnetarRegistry {
    #w;
    #mode;
    constructor(mode, validators) {
      this.#mode = modeOf(mode);
      const list = listOf(validators, 'validators', MAX_VALIDATORS);
      const ids = freshList();
      const keys = freshList();
      const weights = new BigUint64Array(list.length);
      for (let i = 0; i < list.length; i++) {
        const v = fieldsOf(list[i], VALIDATOR_KEYS, `validators[${i}]`);
        ids[i] = bytes(v.id, `validators[${i}].id`, { length: ID_BYTES });
        keys[i] = bytes(v.publicKey, `validators[${i}].publicKey`, { max: MAX_KEY_FRAME });
        weights[i] = weightOf(v.weight, `validators[${i}].weight`);
      }
      this.#w = loader.call(() => new w.MagnetarRegistryWasm(MODES[this.#mode][0], idBytes(ids), frame(keys), weights));
    }
    #inner() {
      if (this.#w === null) throw quasarError('USE_AFTER_FREE', 'MagnetarRegistry: used after free()');
      return this.#w;
    }
    /** The mode of every key. */
    get mode() {
      return this.#mode;
    }
    /** How many validators. */
    get size() {
      const r = this.#inner();
      return loader.call(() => r.size());
    }
    /** The sum of all weights (a BigInt). */
    get totalWeight() {
      const r = this.#inner();
      return loader.call(() => r.totalWeight());
    }
    /** The validators, ascending by id: `[{ id, publicKey, weight }]` (weights as BigInt). */
    validators() {
      const r = this.#inner();
      return loader.call(() => r.validators());
    }
    /**
     * Verify validators' contributions `[{ id, signature }]` (MAGS envelopes) on one message:
     * `bitmap[i]` is true when contribution i is by a registered validator and verifies under
     * its registered key. Never throws for a bad contribution.
     */
    verifyBatch(contributions, msg, opts) {
      const o = checkOpts(opts, VERIFY_OPTS);
      const ctx = contextOf(o, 'magnetar');
      const { ids, sigs } = contributionsOf(contributions, signatureOrEmpty);
      const m = bytes(msg, 'message', { max: MAX_MESSAGE_BYTES });
      const r = this.#inner();
      const bits = loader.call(() => r.verifyBatch(idBytes(ids), frame(sigs), m, ctx));
      return booleans(bits);
    }
    /**
     * The light client's verdict on an aggregate certificate (MAGA) for `msg`: `{ ok: true,
     * signers, bitmap, signedWeight, claimedWeight, totalWeight, quorumMet, failed, mode }` or
     * `{ ok: false, code, reason, failed?, mode? }`. `opts.quorum` = `{ numerator,
     * denominator }` (default 2/3: more than two thirds of the weight); `opts.diagnose` checks
     * every signature even when the verdict is known early, so a refusal carries the report.
     */
    verifyAggregate(certificate, msg, opts) {
      const o = checkOpts(opts, AGGREGATE_OPTS);
      const ctx = contextOf(o, 'magnetar');
      const { num, den } = quorumOf(o.quorum);
      const diagnose = o.diagnose === undefined ? false : o.diagnose;
      if (typeof diagnose !== 'boolean') throw new TypeError('opts.diagnose must be a boolean');
      const cert = bytes(certificate, 'certificate');
      const m = bytes(msg, 'message', { max: MAX_MESSAGE_BYTES });
      const r = this.#inner();
      if (byteLength(cert) > MAX_CERT) {
        loader.assertReady();
        return { __proto__: null, ok: false, code: 'TRAILING_BYTES', reason: `certificate is ${byteLength(cert)} bytes, longer than any certificate (${MAX_CERT})` };
      }
      return verdict(loader.call(() => r.verifyAggregate(cert, m, ctx, num, den, diagnose)));
    }
    /** Release the WASM memory (after the running call, when called from inside one). */
    free() {
      const w = this.#w;
      this.#w = null;
      loader.release(w);
    }
    [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() {
      this.free();
    }
  }

  /**
   * Verify the MAGS envelope `signature` on `msg` under the MAGG envelope `publicKey`: false
   * for any bad signature (malformed, another mode than the key, invalid).
   */
  function verify(signature, msg, publicKey, opts) {
    const o = checkOpts(opts, VERIFY_OPTS);
    const ctx = contextOf(o, 'magnetar');
    const s = bytes(signature, 'signature');
    const m = bytes(msg, 'message', { max: MAX_MESSAGE_BYTES });
    const pk = bytes(publicKey, 'publicKey', { max: MAX_KEY_FRAME });
    // A signature longer than any envelope is not copied: an empty entry decodes to false.
    return loader.call(() => w.magnetarVerify(pk, m, ctx, byteLength(s) > MAX_SIG_FRAME ? new Uint8Array(0) : s));
  }

  /**
   * Verify many `{ publicKey, message, signature }` items (MAGG, bytes, MAGS) under one
   * context: `bitmap[i]` says whether item i verifies. A bad signature is false for that
   * item alone; the messages together are at most 16 MiB.
   */
  function verifyBatch(items, opts) {
    const o = checkOpts(opts, VERIFY_OPTS);
    const ctx = contextOf(o, 'magnetar');
    const list = listOf(items, 'items', MAX_VALIDATORS);
    const keys = freshList();
    const msgs = freshList();
    const sigs = freshList();
    let total = 0;
    for (let i = 0; i < list.length; i++) {
      const it = fieldsOf(list[i], ITEM_KEYS, `items[${i}]`);
      keys[i] = bytes(it.publicKey, `items[${i}].publicKey`, { max: MAX_KEY_FRAME });
      const m = bytes(it.message, `items[${i}].message`, { max: MAX_MESSAGE_BYTES });
      total += byteLength(m);
      if (total > MAX_MESSAGE_BYTES) throw new RangeError(`items' messages are over ${MAX_MESSAGE_BYTES} bytes together`);
      msgs[i] = m;
      sigs[i] = signatureOrEmpty(it.signature, `items[${i}].signature`);
    }
    const bits = loader.call(() => w.magnetarVerifyBatch(frame(keys), frame(msgs), frame(sigs), ctx));
    return booleans(bits);
  }

  const surface = {
    modes: MODE_NAMES,
    lengths: MAGNETAR_LENGTHS,
    trustModel: MAGNETAR_TRUST_MODEL,
    verify,
    verifyBatch,
  };
  if (!full) return { magnetar: Object.freeze(surface), MagnetarRegistry };

  /**
   * A validator key of `mode`: `{ publicKey (MAGG), secretKey (FIPS 205, 4n bytes) }`, from
   * `opts.seed` (SK.seed ‖ SK.prf ‖ PK.seed, 3n bytes: the same key as `slhDsaShake…keygen`),
   * `opts.referenceSeed` (the reference's 4n-byte seed), or fresh randomness.
   */
  function keygen(mode, opts) {
    const m = modeOf(mode);
    const o = checkOpts(opts, KEYGEN_OPTS);
    const l = MAGNETAR_LENGTHS[m];
    if (o.seed !== undefined && o.referenceSeed !== undefined) throw new TypeError('give opts.seed or opts.referenceSeed, not both');
    const reference = o.referenceSeed !== undefined;
    const s = reference
      ? secretBytes(o.referenceSeed, 'opts.referenceSeed', { length: l.referenceSeed })
      : o.seed === undefined
        ? randomBytes(l.seed)
        : secretBytes(o.seed, 'opts.seed', { length: l.seed });
    try {
      // Indexed, not destructured: a replaced Array.prototype[Symbol.iterator] cannot choose the keys.
      const keys = loader.call(() => w.magnetarKeygen(MODES[m][0], s, reference));
      return { publicKey: keys[0], secretKey: keys[1] };
    } finally {
      s.fill(0);
    }
  }

  /**
   * Sign `msg` with a validator's secret key (pure SLH-DSA with `opts.context`, hedged unless
   * `opts.extraEntropy` is false): the MAGS envelope.
   */
  function sign(mode, msg, secretKey, opts) {
    const md = modeOf(mode);
    const o = checkOpts(opts, SIGN_OPTS);
    const ctx = contextOf(o, 'magnetar');
    const l = MAGNETAR_LENGTHS[md];
    const m = bytes(msg, 'message', { max: MAX_MESSAGE_BYTES });
    const sk = secretBytes(secretKey, 'secretKey', { length: l.secretKey });
    const rnd = signRandomness(o.extraEntropy, false, l.signRand);
    try {
      return loader.call(() => w.magnetarSign(MODES[md][0], sk, m, ctx, rnd));
    } finally {
      sk.fill(0);
      if (rnd) rnd.fill(0);
    }
  }

  /**
   * The aggregate certificate (MAGA) of `mode` from contributions `[{ id, signature }]` in any
   * order. Verify contributions first (`registry.verifyBatch`): one invalid signature makes
   * the whole certificate invalid.
   */
  function aggregate(mode, contributions) {
    const m = modeOf(mode);
    const { ids, sigs } = contributionsOf(contributions, (v, title) => bytes(v, title, { max: MAX_SIG_FRAME }));
    return loader.call(() => w.magnetarAggregate(MODES[m][0], idBytes(ids), frame(sigs)));
  }

  return { magnetar: Object.freeze({ ...surface, keygen, sign, aggregate }), MagnetarRegistry };
}
