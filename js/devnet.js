// A test chain (full build only): `testChain` makes validator sets (QVST) and finality
// certificates (QCRT) across epoch changes from a seed, for tests and examples. The Rust devnet
// (`cert::devnet::chain`) makes every byte: its validators sign, its Pulsar group (a custody
// group, or a committee no machine holds the key of) moves to each next set through the
// library's own parties. Not a public entry point: js/index.js
// exports what `makeDevnet` returns.
//
// Every key comes from the seed: a test chain is for tests and demos, never for keys anyone
// relies on.

import { bytes, checkOpts, echo, named, oneOf, quasarError } from './common.js';
import { CERT_POLICIES } from './cert.js';

const CHAIN_OPTS = Object.freeze(['seed', 'chainId', 'validators', 'policy', 'epochs', 'blocks', 'level', 'magnetar', 'pulsar']);
/** Who signs the Pulsar leg (a null-prototype table: only its own names). */
const PULSAR_SIGNING = Object.freeze({ __proto__: null, custody: true, committee: true });
/** The Magnetar sets by name, as their mode bytes (a null-prototype table: only its own names). */
const MAGNETAR_MODES = Object.freeze({ __proto__: null, shake192s: 1, shake192f: 2, shake256s: 3 });
const POLICY_NAMES = Object.freeze({ __proto__: null, ...Object.fromEntries(CERT_POLICIES.map((p) => [p, true])) });
const U64_MAX = (1n << 64n) - 1n;
const U32_MAX = 0xffffffff;
// Taken when the module loads, so a replacement made later is never called.
const isSafeInteger = Number.isSafeInteger;
const toBigInt = BigInt;

/** A count option: an integer in 0..2^32-1 (Rust bounds it further, with a typed error). */
function countOf(o, key, fallback) {
  const v = o[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !isSafeInteger(v)) throw new TypeError(`opts.${key} must be an integer, got ${echo(v)}`);
  if (v < 0 || v > U32_MAX) throw new RangeError(`opts.${key} must be in 0..${U32_MAX}, got ${v}`);
  return v;
}

/** The chain id: a non-negative safe integer or a BigInt below 2^64 (default 1). */
function chainIdOf(v) {
  if (v === undefined) return 1n;
  if (typeof v === 'bigint') {
    if (v < 0n || v > U64_MAX) throw new RangeError('opts.chainId must be in 0..2^64-1');
    return v;
  }
  if (typeof v !== 'number' || !isSafeInteger(v) || v < 0) throw new TypeError(`opts.chainId must be a non-negative safe integer or a BigInt, got ${echo(v)}`);
  return toBigInt(v);
}

/** The test-chain surface of the full build: `w` is its generated module, `loader` its loader. */
export function makeDevnet(w, loader) {
  /**
   * A deterministic test chain: `{ sets: [QVST…], blocks: [{ certificate, nextSet? }…] }`
   * (null-prototype objects; see index.d.ts). Options: `seed` (32 bytes, required), `chainId`
   * (1), `validators` (4; at most 64), `policy` ('pq-fast': the legs the validators hold and
   * sign), `epochs` (2; at most 8), `blocks` per epoch (3; at most 64 in all), `level` (44:
   * ML-DSA of the Pulsar group and the ML-DSA-set leg), `magnetar` ('shake192f'), `pulsar`
   * ('custody', or 'committee': the Pulsar leg signed by a committee of the first six
   * validators that no machine holds the key of).
   */
  function testChain(opts) {
    if (opts === undefined) throw new TypeError('testChain needs options with at least a 32-byte seed');
    const o = checkOpts(opts, CHAIN_OPTS);
    const seed = bytes(o.seed, 'opts.seed', { length: 32 });
    const chainId = chainIdOf(o.chainId);
    const policy = o.policy === undefined ? 'pq-fast' : o.policy;
    if (typeof policy !== 'string') throw new TypeError(`opts.policy must be a string (one of ${oneOf(CERT_POLICIES)}), got ${typeof policy}`);
    if (!named(POLICY_NAMES, policy)) throw quasarError('UNKNOWN_POLICY', `unknown policy name (the names: ${oneOf(CERT_POLICIES)})`, 'policy', 'cert');
    const magnetar = o.magnetar === undefined ? 'shake192f' : o.magnetar;
    if (!named(MAGNETAR_MODES, magnetar)) throw new TypeError(`opts.magnetar must be one of ${oneOf(Object.keys(MAGNETAR_MODES))}, got ${echo(magnetar)}`);
    const pulsar = o.pulsar === undefined ? 'custody' : o.pulsar;
    if (!named(PULSAR_SIGNING, pulsar)) throw new TypeError(`opts.pulsar must be one of ${oneOf(Object.keys(PULSAR_SIGNING))}, got ${echo(pulsar)}`);
    const level = countOf(o, 'level', 44);
    const validators = countOf(o, 'validators', 4);
    const epochs = countOf(o, 'epochs', 2);
    const blocks = countOf(o, 'blocks', 3);
    return loader.call(() => w.testChain(seed, chainId, validators, policy, epochs, blocks, level, MAGNETAR_MODES[magnetar], pulsar));
  }
  return { testChain };
}
