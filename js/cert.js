// Finality certificates (both builds): `verifyCertificate` and the `LightClient` that follows
// a chain across epoch changes (the Rust `cert` module: QVST validator sets, QCRT
// certificates, the policies pq-off … strict-pq-heavy, a report leg by leg: BLS, Pulsar,
// Corona, Magnetar, ML-DSA set). The full build adds `bls`, the BLS12-381 byte API, for
// cross-checks. Not a public entry point: js/index.js and
// js/verify.js export what `makeCert` returns.
//
// Every byte argument crosses `bytes()` (js/common.js). What an attacker controls (a
// certificate, the next validator set it commits to) never throws: a bad one is a verdict
// `{ ok: false, code, reason }`. The caller's own mistakes throw: a wrong argument type, an
// unknown policy name (QuasarError UNKNOWN_POLICY), a trusted validator set that does not
// decode or whose keys do not validate.

import { arrayOf, boolOpt, byteLength, bytes, checkOpts, named, oneOf, quasarError } from './common.js';
import { makeBls } from './bls.js';

/**
 * The policy names, mildest first (API: a constant usable before `init()`). Which legs each
 * requires is Rust's table, read from WebAssembly (`certPolicyTable`); the tests check that
 * these names are exactly Rust's.
 */
export const CERT_POLICIES = Object.freeze(['pq-off', 'pq-fast', 'pq-strict', 'pq-heavy', 'strict-pq-fast', 'strict-pq-strict', 'strict-pq-heavy']);
/** The same names as a null-prototype table: only its own names are policies. */
const POLICY_NAMES = Object.freeze({
  __proto__: null,
  'pq-off': true,
  'pq-fast': true,
  'pq-strict': true,
  'pq-heavy': true,
  'strict-pq-fast': true,
  'strict-pq-strict': true,
  'strict-pq-heavy': true,
});
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
    /** The current set's key era (a BigInt): the threshold group keys' (Pulsar's, Corona's) generation of ceremonies. */
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
