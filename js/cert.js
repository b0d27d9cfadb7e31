// Finality certificates (both builds): `verifyCertificate` and the `LightClient` that follows
// a chain across epoch changes (the Rust `cert` module: QVST validator sets, QCRT
// certificates, the policies pq-off … strict-pq-heavy, a report leg by leg). The full build adds
// `bls`, the BLS12-381 byte API, for cross-checks. Not a public entry point: js/index.js and
// js/verify.js export what `makeCert` returns.
//
// Every byte argument crosses `bytes()` (js/common.js). What an attacker controls (a
// certificate, the next validator set it commits to) never throws: a bad one is a verdict
// `{ ok: false, code, reason }`. The caller's own mistakes throw: a wrong argument type, an
// unknown policy name (QuasarError UNKNOWN_POLICY), a trusted validator set that does not
// decode or whose keys do not validate.

import { MAX_MESSAGE_BYTES, arrayOf, boolOpt, byteLength, bytes, checkOpts, copyInto, listOf, named, oneOf, quasarError, randomBytes, secretBytes } from './common.js';

/**
 * The policy names, mildest first (API: a constant usable before `init()`). Which legs each
 * requires is Rust's table, read from WebAssembly (`certPolicyTable`); the tests check that
 * these names are exactly Rust's.
 */
export const CERT_POLICIES = Object.freeze(['pq-off', 'pq-fast', 'pq-heavy', 'strict-pq-fast', 'strict-pq-heavy']);
/** The same names as a null-prototype table: only its own names are policies. */
const POLICY_NAMES = Object.freeze({ __proto__: null, 'pq-off': true, 'pq-fast': true, 'pq-heavy': true, 'strict-pq-fast': true, 'strict-pq-heavy': true });
const split = Function.prototype.call.bind(String.prototype.split);

// Length bounds come from Rust (crate::cert): `certMaxSetLength()` is the longest QVST any
// call accepts, `certMaxLength(set)` / a light client's `maxCertificateLength()` the longest
// certificate its set admits. The verifier refuses longer input itself (TOO_LONG), so
// refusing it here, uncopied, never refuses a certificate the verifier would accept.

/** The trust model of the light client, as the README states it. */
export const CERT_TRUST_MODEL =
  'Light client: it trusts the validator set it starts from (a checkpoint obtained out of band) and the policy its ' +
  'caller chose; a certificate never says which policy it meets. It accepts a block when every leg the policy ' +
  'requires carries a valid signature by that set, with more than 2/3 of its weight on every weighted leg, and it ' +
  'moves to the next epoch only through a certificate, final under the current set, that commits to the next set\'s ' +
  'root, so it must follow every epoch change. It proves that a weight quorum signed the header, not that the chain ' +
  'is valid otherwise.';

const VERIFY_OPTS = Object.freeze(['full']);

/** A policy name, checked here so an unknown one (of any length) never reaches WebAssembly. */
function policyOf(policy) {
  if (typeof policy !== 'string') throw new TypeError(`policy must be a string (one of ${oneOf(CERT_POLICIES)}), got ${typeof policy}`);
  if (!named(POLICY_NAMES, policy)) throw quasarError('UNKNOWN_POLICY', `unknown policy name (the names: ${oneOf(CERT_POLICIES)})`, 'policy', 'cert');
  return policy;
}

/**
 * The verdict on bytes too long to copy: every leg the policy requires (`legsOf`, Rust's
 * table) is not checked. Like the module's reports, it and its legs are null-prototype objects.
 */
function tooLong(what, n, max, policy, legsOf) {
  const kinds = legsOf(policy);
  const legs = arrayOf(kinds.length, (i) => ({ __proto__: null, kind: kinds[i], required: true, present: false, verdict: 'not-checked', ok: false }));
  return { __proto__: null, ok: false, code: 'TOO_LONG', reason: `${what} is ${n} bytes, longer than the ${max} its validator set admits`, policy, legs };
}

/**
 * The certificate surface of one build: `w` is its generated module, `loader` its loader;
 * `full` adds the BLS byte API.
 */
export function makeCert(w, loader, { full }) {
  /** The longest validator set any call accepts (read from WASM once it is loaded). */
  let maxSetLength;
  const maxSet = () => (maxSetLength ??= loader.call(() => w.certMaxSetLength()));
  /** The legs each policy requires, from Rust's table (read once the module is loaded). */
  let policyLegs;
  const legsOf = (policy) => {
    if (policyLegs === undefined) {
      const table = { __proto__: null };
      const lines = split(loader.call(() => w.certPolicyTable()), '\n');
      for (let i = 0; i < lines.length; i++) {
        const parts = split(lines[i], ':');
        table[parts[0]] = Object.freeze(split(parts[1], ','));
      }
      policyLegs = Object.freeze(table);
    }
    return named(policyLegs, policy) ? policyLegs[policy] : [];
  };
  /**
   * Verify the certificate `certificate` (QCRT) against `validatorSet` (QVST, the set the
   * caller trusts for the certificate's epoch) under the caller's `policy` (a name of
   * CERT_POLICIES). `opts.full` checks every required leg after a failure too. Returns the
   * report `{ ok, code?, reason?, policy, totalWeight, header?, legs, micros? }`.
   */
  function verifyCertificate(certificate, validatorSet, policy, opts) {
    const o = checkOpts(opts, VERIFY_OPTS);
    const fullReport = boolOpt(o, 'full');
    const p = policyOf(policy);
    const cert = bytes(certificate, 'certificate');
    const set = bytes(validatorSet, 'validatorSet', { max: maxSet() });
    const max = loader.call(() => w.certMaxLength(set));
    if (byteLength(cert) > max) {
      loader.assertReady();
      return tooLong('certificate', byteLength(cert), max, p, legsOf);
    }
    return loader.call(() => w.certVerify(cert, set, p, fullReport));
  }

  /**
   * A light client: trusts one validator set (QVST) and follows certificates under one policy,
   * moving to the next epoch's set only through a certificate that commits to it. Holds public
   * data only, in WASM memory; `free()` releases it.
   */
  class LightClient {
    #w;
    /**
     * @throws TypeError for a non-string policy or bad options; QuasarError UNKNOWN_POLICY, or
     *   the trusted set's decoding / key-validation code.
     */
    constructor(validatorSet, policy, opts) {
      const o = checkOpts(opts, VERIFY_OPTS);
      const fullReport = boolOpt(o, 'full');
      const p = policyOf(policy);
      const set = bytes(validatorSet, 'validatorSet', { max: maxSet() });
      this.#w = loader.call(() => new w.CertLightClientWasm(set, p, fullReport));
    }
    #inner() {
      if (this.#w === null) throw quasarError('USE_AFTER_FREE', 'LightClient: used after free()');
      return this.#w;
    }
    /**
     * Follow `certificate`, with `nextSet` (QVST) on an epoch's last block: `{ ok, code?,
     * reason?, epoch, newEpoch?, header?, report? }` (`report`, the verification report, when
     * verification ran). Advances only on `ok`; never throws for a bad certificate or set.
     */
    update(certificate, nextSet) {
      const cert = bytes(certificate, 'certificate');
      const next = nextSet === undefined ? undefined : bytes(nextSet, 'nextSet');
      const r = this.#inner();
      const max = loader.call(() => r.maxCertificateLength());
      const maxNext = maxSet();
      const long = byteLength(cert) > max ? ['certificate', cert, max] : next !== undefined && byteLength(next) > maxNext ? ['nextSet', next, maxNext] : null;
      if (long) {
        const epoch = loader.call(() => r.epoch());
        return { __proto__: null, ok: false, code: 'TOO_LONG', reason: `${long[0]} is ${byteLength(long[1])} bytes, longer than the ${long[2]} its validator set admits`, epoch };
      }
      // The module's object has no prototype: `accepted` is its own (true or false).
      const { accepted, ...rest } = loader.call(() => r.update(cert, next));
      return { __proto__: null, ok: accepted === true, ...rest };
    }
    /**
     * Verify `certificate` against the current set under the client's policy, changing nothing:
     * the report of `verifyCertificate` (without leg timings), for a set whose keys were
     * validated once, when the client was made or moved to it.
     */
    verify(certificate) {
      const cert = bytes(certificate, 'certificate');
      const r = this.#inner();
      const max = loader.call(() => r.maxCertificateLength());
      if (byteLength(cert) > max) return tooLong('certificate', byteLength(cert), max, loader.call(() => r.policy()), legsOf);
      return loader.call(() => r.verify(cert));
    }
    /** The current epoch (a BigInt). */
    get epoch() {
      const r = this.#inner();
      return loader.call(() => r.epoch());
    }
    /** The last finalized height (a BigInt), undefined before the first accepted certificate. */
    get height() {
      const r = this.#inner();
      return loader.call(() => r.height());
    }
    /** The current validator set's root (32 bytes). */
    get setRoot() {
      const r = this.#inner();
      return loader.call(() => r.root());
    }
    /** The current set's total weight (a BigInt). */
    get totalWeight() {
      const r = this.#inner();
      return loader.call(() => r.totalWeight());
    }
    /** The current set's key era (a BigInt): the Pulsar group key's generation of ceremonies. */
    get keyEra() {
      const r = this.#inner();
      return loader.call(() => r.keyEra());
    }
    /**
     * The longest certificate the current set admits (read from WebAssembly): `update` and
     * `verify` refuse a longer one as TOO_LONG without copying it, as the verifier would.
     */
    get maxCertificateLength() {
      const r = this.#inner();
      return loader.call(() => r.maxCertificateLength());
    }
    /** How many validators the current set has. */
    get validators() {
      const r = this.#inner();
      return loader.call(() => r.validators());
    }
    /** The policy's name. */
    get policy() {
      const r = this.#inner();
      return loader.call(() => r.policy());
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

  const surface = { verifyCertificate, LightClient, CERT_POLICIES, CERT_TRUST_MODEL };
  if (!full) return surface;
  return { ...surface, bls: makeBls(w, loader) };
}

/** BLS12-381 lengths: minimal-pubkey-size (keys in G1, signatures and proofs in G2). */
const BLS_LENGTHS = Object.freeze({ secretKey: 32, publicKey: 48, signature: 96, minIkm: 32 });
const MAX_BLS_LIST = 1 << 16;
const KEYGEN_OPTS = Object.freeze(['keyInfo']);

/**
 * The fixed-size entries of `list`, concatenated: the list is copied first (its length read
 * once, at most MAX_BLS_LIST), then each entry checked, so a Proxy cannot stretch it.
 */
function concat(list, title, length) {
  const entries = listOf(list, title, MAX_BLS_LIST);
  const out = new Uint8Array(entries.length * length);
  for (let i = 0; i < entries.length; i++) copyInto(out, bytes(entries[i], `${title}[${i}]`, { length }), i * length);
  return out;
}

/** An attacker's fixed-size input: checked, or undefined (a verdict of false) at another length. */
function sized(v, title, length) {
  const b = bytes(v, title);
  return byteLength(b) === length ? b : undefined;
}

/** The BLS byte API of the full build (ciphersuite BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_). */
function makeBls(w, loader) {
  const msgOf = (m) => bytes(m, 'message', { max: MAX_MESSAGE_BYTES });
  return Object.freeze({
    lengths: BLS_LENGTHS,
    ciphersuite: 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_',
    /** KeyGen from `ikm` (at least 32 secret bytes; fresh random 32 when omitted): `{ secretKey, publicKey }`. */
    keygen(ikm, opts) {
      const o = checkOpts(opts, KEYGEN_OPTS);
      const info = o.keyInfo === undefined ? new Uint8Array(0) : bytes(o.keyInfo, 'opts.keyInfo', { max: 1 << 16 });
      const seed = ikm === undefined ? randomBytes(32) : secretBytes(ikm, 'ikm', { max: 1 << 16 });
      try {
        // Indexed, not destructured: a replaced Array.prototype[Symbol.iterator] cannot choose the keys.
        const keys = loader.call(() => w.blsKeygen(seed, info));
        return { secretKey: keys[0], publicKey: keys[1] };
      } finally {
        seed.fill(0);
      }
    },
    /** SkToPk: the 48-byte public key of a 32-byte secret key. */
    getPublicKey(secretKey) {
      const sk = secretBytes(secretKey, 'secretKey', { length: BLS_LENGTHS.secretKey });
      try {
        return loader.call(() => w.blsSkToPk(sk));
      } finally {
        sk.fill(0);
      }
    },
    /** Sign `msg`: the 96-byte signature (deterministic). */
    sign(msg, secretKey) {
      const m = msgOf(msg);
      const sk = secretBytes(secretKey, 'secretKey', { length: BLS_LENGTHS.secretKey });
      try {
        return loader.call(() => w.blsSign(sk, m));
      } finally {
        sk.fill(0);
      }
    },
    /** PopProve: the 96-byte proof of possession of a secret key. */
    popProve(secretKey) {
      const sk = secretBytes(secretKey, 'secretKey', { length: BLS_LENGTHS.secretKey });
      try {
        return loader.call(() => w.blsPopProve(sk));
      } finally {
        sk.fill(0);
      }
    },
    /** Verify `sig` on `msg` under `publicKey`: false for anything that does not decode or verify. */
    verify(sig, msg, publicKey) {
      const s = sized(sig, 'signature', BLS_LENGTHS.signature);
      const m = msgOf(msg);
      const pk = sized(publicKey, 'publicKey', BLS_LENGTHS.publicKey);
      if (s === undefined || pk === undefined) return (loader.assertReady(), false);
      return loader.call(() => w.blsVerify(pk, m, s));
    },
    /** PopVerify: false for anything that does not decode or verify. */
    popVerify(proof, publicKey) {
      const p = sized(proof, 'proof', BLS_LENGTHS.signature);
      const pk = sized(publicKey, 'publicKey', BLS_LENGTHS.publicKey);
      if (p === undefined || pk === undefined) return (loader.assertReady(), false);
      return loader.call(() => w.blsPopVerify(pk, p));
    },
    /** Aggregate 96-byte signatures into one. @throws QuasarError for an empty list or a malformed signature. */
    aggregate(signatures) {
      const all = concat(signatures, 'signatures', BLS_LENGTHS.signature);
      return loader.call(() => w.blsAggregate(all));
    },
    /**
     * FastAggregateVerify: every key of `publicKeys` signed `msg`, aggregated into `sig`. False
     * for anything that does not decode or verify. Each key needs a verified proof of
     * possession (the caller's duty): without it a rogue key forges the aggregate.
     */
    fastAggregateVerify(sig, msg, publicKeys) {
      const s = sized(sig, 'signature', BLS_LENGTHS.signature);
      const m = msgOf(msg);
      const pks = concat(publicKeys, 'publicKeys', BLS_LENGTHS.publicKey);
      if (s === undefined) return (loader.assertReady(), false);
      return loader.call(() => w.blsFastAggregateVerify(pks, m, s));
    },
  });
}
