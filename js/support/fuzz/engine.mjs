// The engine of the JS fuzz suite: enumerates the real exports of `quasar-pq`,
// `quasar-pq/verify` and the protocol layer, matches each to its line in shapes.mjs, and calls
// every one with seeded hostile arguments, round after round. Each call must return a sane value
// (a verifier never says true for a changed input) or throw TypeError, RangeError or a
// QuasarError with a code the library defines; never a WebAssembly trap, INSTANCE_POISONED, a
// wasm-bindgen aliasing or null-pointer error, a fault inside the generated glue, or a hang.
// After every batch: an ML-DSA round trip in both builds, keys prepared before the run still
// verify, every protocol scenario whose victim was fed bad inboxes completes with the good ones,
// free() works, and no fixture was mutated; WebAssembly memory of both instances is measured
// throughout. Besides, one site in ten per round is also called with its base arguments in a
// realm whose built-ins were changed after load (builtins.mjs): it must behave as with the realm
// intact. Not part of the package.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import * as full from '../../index.js';
import * as light from '../../verify.js';
import * as lightGlue from '../../../pkg/light/quasar_pq.js';
import { loader as fullLoader } from '../../full.js';
import { MAX_MESSAGE_BYTES } from '../../common.js';
import { run } from '../run.mjs';
import { build } from './fixtures.mjs';
import { FAMILIES, SHAPES } from './shapes.mjs';
import { realmFixtures, realmRound } from './realm.mjs';
import { TAMPERINGS, withBuiltins } from './builtins.mjs';
import {
  HostileError,
  mutate,
  equalBytes,
  generator,
  hostileAny,
  hostileBool,
  hostileBytes,
  hostileEntropy,
  hostileGeneration,
  hostileHolder,
  hostileIds,
  hostileInbox,
  hostileInt,
  hostileLevel,
  hostileList,
  hostileQuorum,
  hostileName,
  hostileText,
  hostileOpts,
  hostileThis,
} from './hostile.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/**
 * A call slower than this is counted (and reported) as slow, never failed: a busy machine may be
 * slow. Hangs are the watchdog's: fuzz.test.mjs kills a worker that makes no progress for minutes.
 */
export const SLOW_MS = 5000;
/** Rounds per batch: the health checks run after each batch. */
export const BATCH_ROUNDS = 5;
/** Step calls per round (the scenarios take turns). */
const STEPS_PER_ROUND = 16;
/**
 * Extra calls per round whose one change is a well-typed mutation of a byte argument (truncated,
 * extended, bit-flipped, a length field inflated, spliced): for verifiers and strict decoders,
 * whose verdict on it is checked, and for the functions that decode records.
 */
const MUTATIONS = { verdict: 3, activation: 3, aggregate: 3, strict: 3, decoding: 1 };
/** A line with `slow(m)` true (SLH-DSA "s" signing: a second or so each) runs every this many rounds. */
const SLOW_EVERY = 10;
/** The share of sites also called with the base arguments under a hostile built-in (builtins.mjs, in turn). */
const BUILTINS_RATE = 0.1;
/** The `returns` kinds that are verdicts: a changed input must not be accepted. */
const VERDICTS = new Set(['verdict', 'activation', 'aggregate', 'report']);
const accepted = (kind, out) => (kind === 'verdict' ? out === true : out?.ok === true);

// ------------------------------------------------------------------ the error vocabulary

/**
 * Every code a QuasarError may carry: the string literals of every `fn code(&self)` in the
 * crate (crate/src/**), and the codes js/*.js makes itself. Read from the sources, so it cannot
 * fall behind them.
 */
export function knownCodes() {
  const codes = new Set();
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.rs')) {
        const text = readFileSync(p, 'utf8');
        for (const m of text.matchAll(/fn code\(&self\)[^{]*\{/g)) {
          let depth = 1;
          let i = m.index + m[0].length;
          const start = i;
          while (depth && i < text.length) depth += text[i] === '{' ? 1 : text[i] === '}' ? -1 : 0, i++;
          for (const c of text.slice(start, i).matchAll(/"([A-Z][A-Z0-9_]*)"/g)) codes.add(c[1]);
        }
      }
    }
  };
  walk(join(ROOT, 'crate/src'));
  for (const file of readdirSync(join(ROOT, 'js')).filter((n) => n.endsWith('.js'))) {
    for (const c of readFileSync(join(ROOT, 'js', file), 'utf8').matchAll(/quasarError\(\s*'([A-Z][A-Z0-9_]*)'/g)) codes.add(c[1]);
  }
  codes.delete('INSTANCE_POISONED');
  return codes;
}

// ------------------------------------------------------------------ enumeration

const isClass = (v) => typeof v === 'function' && /^class\b/.test(Function.prototype.toString.call(v));
/** A member's name: well-known symbols as `Symbol.dispose` (Node 20 describes that one as `nodejs.dispose`). */
const memberName = (k) => {
  if (typeof k !== 'symbol') return k;
  const known = Object.getOwnPropertyNames(Symbol).find((n) => Symbol[n] === k);
  return known ? `Symbol.${known}` : k.description;
};
const familyOf = (name) => FAMILIES.find(([re]) => re.test(name))?.[1] ?? name;

/**
 * Every function reachable from a module namespace: `{ path, key, call, ... }`, where `key` is
 * the line of shapes.mjs that must describe it. Objects are walked (frozen API objects), classes
 * give their constructor, statics and prototype members (getters and methods, up the chain to
 * Object.prototype, keyed by the class that defines them).
 */
export function enumerate(ns, build) {
  const sites = [];
  const seen = new Set();
  const walk = (value, path, key, owner) => {
    if (isClass(value)) {
      sites.push({ build, path: `new ${path}`, key: `new ${key}`, kind: 'construct', fn: value, cls: path });
      for (let c = value; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
        for (const k of Reflect.ownKeys(c)) {
          if (['length', 'name', 'prototype'].includes(k)) continue;
          const d = Object.getOwnPropertyDescriptor(c, k);
          if (typeof d.value === 'function') sites.push({ build, path: `${path}.${memberName(k)}`, key: `${c.name}.${memberName(k)}`, kind: 'static', fn: d.value, owner: value, cls: path });
        }
      }
      for (let p = value.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
        for (const k of Reflect.ownKeys(p)) {
          if (k === 'constructor') continue;
          const d = Object.getOwnPropertyDescriptor(p, k);
          const at = `${p.constructor.name}#${memberName(k)}`;
          if (typeof d.get === 'function') sites.push({ build, path: `${path}#${memberName(k)}`, key: at, kind: 'get', fn: d.get, cls: path });
          else if (typeof d.value === 'function') sites.push({ build, path: `${path}#${memberName(k)}`, key: at, kind: 'method', fn: d.value, cls: path });
          if (typeof d.set === 'function') sites.push({ build, path: `${path}#${memberName(k)} (setter)`, key: `${at} (setter)`, kind: 'set', fn: d.set, cls: path });
        }
      }
      return;
    }
    if (typeof value === 'function') {
      sites.push({ build, path, key, kind: 'call', fn: value, owner });
      return;
    }
    if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value) || seen.has(value)) return;
    seen.add(value);
    for (const k of Reflect.ownKeys(value)) {
      const d = Object.getOwnPropertyDescriptor(value, k);
      if (typeof d.get === 'function') sites.push({ build, path: `${path}.${memberName(k)} (getter)`, key: `${key}.${memberName(k)} (getter)`, kind: 'call', fn: d.get, owner: value });
      if ('value' in d) walk(d.value, `${path}.${memberName(k)}`, `${key}.${memberName(k)}`, value);
    }
  };
  for (const name of Object.keys(ns).sort()) walk(ns[name], name, familyOf(name), ns);
  return sites;
}

/** The names of enumerated sites that have no line in SHAPES, and the lines that match no site. */
export function coverage(sites) {
  const keys = new Set(sites.map((s) => s.key));
  const missing = [...new Set(sites.filter((s) => !(s.key in SHAPES)).map((s) => `${s.build}:${s.path} (needs a line "${s.key}" in js/support/fuzz/shapes.mjs)`))];
  const stale = Object.keys(SHAPES).filter((k) => !keys.has(k));
  return { missing, stale };
}

// ------------------------------------------------------------------ results

const fresh = (b, n) => b instanceof Uint8Array && b.length === n && b.byteOffset === 0 && b.buffer.byteLength === n;
const isId = (v) => Number.isInteger(v) && v >= 1 && v <= 65535;
const blameOk = (list, codes) => Array.isArray(list) && list.every((b) => isId(b.party) && codes.has(b.code) && typeof b.reason === 'string');

/** What each `returns` kind must look like: a reason it does not, or undefined. */
function returnsCheck(kind, v, m, codes) {
  const lengths = m?.lengths;
  switch (kind) {
    case 'verdict':
    case 'boolean':
      return v === true || v === false ? undefined : `not a boolean: ${typeof v}`;
    case 'aggregate':
      if (v === null || typeof v !== 'object' || typeof v.ok !== 'boolean') return 'not { ok }';
      return v.ok ? (Array.isArray(v.bitmap) && typeof v.signedWeight === 'bigint' ? undefined : 'an acceptance without bitmap and weight') : codes.has(v.code) && typeof v.reason === 'string' ? undefined : `a refusal with code ${v.code}`;
    case 'report':
    case 'update':
      if (v === null || typeof v !== 'object' || typeof v.ok !== 'boolean') return 'not { ok }';
      if (kind === 'report' && !Array.isArray(v.legs)) return 'a report without legs';
      return v.ok || (codes.has(v.code) && typeof v.reason === 'string') ? undefined : `a refusal with code ${v.code}`;
    case 'u64':
      return typeof v === 'bigint' && v >= 0n ? undefined : 'not a u64 BigInt';
    case 'u64?':
      return v === undefined || (typeof v === 'bigint' && v >= 0n) ? undefined : 'not a u64 BigInt or undefined';
    case 'generation?':
      return v === undefined || (Number.isSafeInteger(v) && v >= 0) ? undefined : 'not a generation (a safe integer) or undefined';
    case 'testChain':
      if (v === null || typeof v !== 'object' || Object.getPrototypeOf(v) !== null) return 'not a null-prototype object';
      if (!Array.isArray(v.sets) || !v.sets.length || !v.sets.every((x) => x instanceof Uint8Array)) return 'no list of sets';
      return Array.isArray(v.blocks) && v.blocks.length && v.blocks.every((b) => b.certificate instanceof Uint8Array && (b.nextSet === undefined || b.nextSet instanceof Uint8Array)) ? undefined : 'no list of blocks';
    case 'lightClient':
      return v?.constructor?.name === 'LightClient' ? undefined : 'not a LightClient';
    case 'bitmap':
      return Array.isArray(v) && v.every((b) => b === true || b === false) ? undefined : 'not an array of booleans';
    case 'validators':
      return Array.isArray(v) && v.every((x) => x.id instanceof Uint8Array && x.publicKey instanceof Uint8Array && typeof x.weight === 'bigint') ? undefined : 'not a validator list';
    case 'bigint':
      return typeof v === 'bigint' && v > 0n ? undefined : 'not a positive BigInt';
    case 'registry':
      return v?.constructor?.name === 'MagnetarRegistry' ? undefined : 'not a MagnetarRegistry';
    case 'activation':
      if (v === null || typeof v !== 'object' || typeof v.ok !== 'boolean') return 'not { ok }';
      if (Object.keys(v).some((k) => !['ok', 'code', 'reason'].includes(k))) return `unexpected keys ${Object.keys(v)}`;
      return v.ok || (codes.has(v.code) && typeof v.reason === 'string') ? undefined : `a refusal with code ${v.code}`;
    case 'keypair':
      return fresh(v?.publicKey, lengths.publicKey) && fresh(v?.secretKey, lengths.secretKey) ? undefined : 'not a fresh key pair of the level';
    case 'signature':
      return fresh(v, lengths.signature) ? undefined : 'not a fresh signature of the level';
    case 'mu':
      return fresh(v, 64) ? undefined : 'not a fresh 64-byte μ';
    case 'bytes':
      return v instanceof Uint8Array && v.buffer.byteLength === v.length && v.length > 0 ? undefined : 'not fresh bytes';
    case 'prepared':
      return typeof v?.verify === 'function' && typeof v?.free === 'function' ? undefined : 'not a prepared key';
    case 'party':
      return v instanceof full.Party && typeof v.protocol === 'string' && isId(v.id) && v.start?.outgoing ? undefined : 'not a started Party';
    case 'deal':
      return v?.publicPackage instanceof Uint8Array && Array.isArray(v.shares) && v.shares.every((s) => isId(s.id) && s.dealerShare instanceof Uint8Array) ? undefined : 'not a dealing';
    case 'undefined':
      return v === undefined ? undefined : `returned ${typeof v}`;
    case 'promise':
      return v instanceof Promise ? undefined : 'not a promise';
    case 'throws':
      return 'a constructor of the package returned an object';
    case 'id':
      return isId(v) ? undefined : `not a party id: ${String(v)}`;
    case 'string':
      return typeof v === 'string' && v.length > 0 ? undefined : 'not a string';
    case 'count':
      return Number.isSafeInteger(v) && v > 0 ? undefined : 'not a positive count';
    case 'object':
      return v !== null && typeof v === 'object' ? undefined : 'not an object';
    case 'round':
      return v === null || (Number.isInteger(v?.number) && typeof v.name === 'string') ? undefined : 'not a round';
    case 'start':
      return v?.done === false && Array.isArray(v.dropped) && v.outgoing && Object.isFrozen(v) ? undefined : 'not a frozen start';
    case 'step':
      return typeof v?.done === 'boolean' && v.outgoing && Array.isArray(v.outgoing.direct) && blameOk(v.dropped, codes) ? undefined : 'not a step result';
    default:
      if (kind.startsWith('holder:')) return v instanceof full[kind.slice(7)] ? undefined : `not a ${kind.slice(7)}`;
      return `unknown returns kind ${kind}`;
  }
}

/** Releases what a call returned (parties, holders, prepared keys); the fixtures' own are kept. */
function dispose(v, keep) {
  if (v === null || typeof v !== 'object' || keep.has(v)) return;
  if (typeof v.free === 'function') v.free();
  else if (v instanceof Promise) v.catch(() => {});
}

/** What the base call returned, reduced to what a call with the same values must reproduce. */
function essence(kind, v) {
  switch (kind) {
    case 'verdict':
    case 'boolean':
      return v;
    case 'activation':
    case 'aggregate':
    case 'report':
      return v.ok;
    case 'keypair':
      return [v.publicKey, v.secretKey];
    case 'signature':
    case 'mu':
      return [v];
    case 'testChain':
      return [...v.sets, ...v.blocks.map((b) => b.certificate)];
    case 'party':
      return { protocol: v.protocol, id: v.id, broadcast: v.start.outgoing.broadcast };
    default:
      return undefined;
  }
}

function sameEssence(kind, a, b) {
  if (a === undefined || b === undefined) return true;
  if (typeof a === 'boolean') return a === b;
  if (Array.isArray(a)) return a.every((x, i) => equalBytes(x, b[i]));
  if (kind === 'party') return a.protocol === b.protocol && a.id === b.id && (!a.broadcast || (b.broadcast && equalBytes(a.broadcast, b.broadcast)));
  return true;
}

/** The typed errors a call may throw; anything else is a defect (returns why). */
function errorClass(e, codes) {
  if (e instanceof HostileError) return { type: 'HostileError' };
  if (e instanceof WebAssembly.RuntimeError) return { bad: `a WebAssembly trap: ${e.message}` };
  const stack = String(e?.stack ?? '');
  if (/passArray\w*ToWasm0|passStringToWasm0|getArray\w*FromWasm0/.test(stack)) return { bad: `a fault inside the generated glue: ${e?.name}: ${e?.message}` };
  if (/recursive use of an object|null pointer passed to rust|already (mutably )?borrowed|attempted to take ownership/.test(String(e?.message))) {
    return { bad: `a wasm-bindgen ownership error: ${e.message}` };
  }
  if (e?.name === 'QuasarError') {
    if (e.code === 'INSTANCE_POISONED') return { bad: 'INSTANCE_POISONED' };
    if (!codes.has(e.code)) return { bad: `a QuasarError with an unknown code ${e.code}: ${e.message}` };
    if (typeof e.module !== 'string' || !Array.isArray(e.culprits) || !e.culprits.every(isId)) return { bad: `a malformed QuasarError ${e.code}` };
    return { type: 'QuasarError', code: e.code };
  }
  if (e instanceof TypeError) return { type: 'TypeError' };
  if (e instanceof RangeError) return { type: 'RangeError' };
  return { bad: `an untyped error: ${e?.name}: ${e?.message}` };
}

// ------------------------------------------------------------------ the run

/**
 * Runs the suite: `iters` rounds (each calls every site once and steps the scenarios), seeded by
 * `seed`. `beat(label)` is called before every call (the watchdog's heartbeat). Returns the report.
 */
export async function fuzz({ seed, iters, beat = () => {} }) {
  const started = performance.now();
  await full.init();
  await light.init();
  const lightExports = await lightGlue.default();
  const memory = () => ({ full: fullLoader.memoryBytes(), light: lightExports.memory.buffer.byteLength });
  const memoryAtStart = memory();
  const codes = knownCodes();
  const r = generator(seed);
  // The polluted-realm class draws from its own stream, so adding it changed no other call.
  const realmRandom = generator((seed ^ 0x7ea1) >>> 0);
  // The hostile built-ins class draws from its own generator and adds its calls to the others,
  // so the seeded sequence of hostile arguments is the same with or without it.
  const rb = generator((seed ^ 0xb1a5b1a5) >>> 0);
  beat('setup: building the fixtures and making the base calls');
  const f = build(full, light, beat);
  // The polluted-realm class (realm.mjs): its material and the clean realm's statements.
  beat('polluted-realm fixtures');
  const realm = realmFixtures(full, light, f);
  const keep = new Set([...f.holders, ...Object.values(f.receivers), ...Object.values(f.byBuild).flatMap((b) => Object.values(b.receivers))]);
  const oversize = new Uint8Array(MAX_MESSAGE_BYTES + 1);
  const OVERSIZE = { message: oversize, record: oversize.subarray(0, (1 << 22) + 1), context: oversize.subarray(0, 256) };

  // verdicts: calls of a verifier with a changed input (each had to say false); fed: bad inboxes
  // given to the victims of the scenarios that completed afterwards; runs: those completions.
  // restated: changed inputs a verifier accepted that state what the base does (`sameStatement`).
  // polluted: calls made in a polluted realm (realm.mjs), each compared with the clean realm.
  // builtins: calls under a hostile built-in (byBuiltin, per tampering); reentered: package calls
  // a hook made, that ran normally (outside any call) or were refused (REENTRANT_CALL).
  const counts = { calls: 0, returned: 0, thrown: {}, codes: {}, bySite: {}, slow: 0, verdicts: 0, restated: 0, fed: 0, runs: 0, polluted: 0, builtins: 0, byBuiltin: {}, reentered: { normal: 0, refused: 0 } };
  const failures = [];
  const fail = (where, why) => {
    if (failures.length < 200) failures.push(`${where}: ${why}`);
  };

  // -------------------------------------------------------------- sites and coverage
  const sites = [...enumerate(full, 'quasar-pq'), ...enumerate(light, 'quasar-pq/verify')];
  const returned = [];
  for (const s of sites) {
    if (SHAPES[s.key]?.[2] !== 'prepared') continue;
    // Members of the objects a function returns (a prepared key's verify and free).
    const m = contextOf(s, f);
    const out = Reflect.apply(s.fn, s.owner, SHAPES[s.key][1](m));
    for (const k of Object.keys(out)) {
      // `member`: the function is taken from the receiver at each call (these are closures over
      // their own object, so `this` does not pick the object).
      if (typeof out[k] === 'function') returned.push({ build: s.build, path: `${s.path}().${k}`, key: `${s.key}().${k}`, kind: 'returned', member: k, owner: out, make: () => Reflect.apply(s.fn, s.owner, SHAPES[s.key][1](m)), target: s.owner });
    }
  }
  sites.push(...returned);
  const cov = coverage(sites);
  if (cov.missing.length || cov.stale.length) {
    return { coverage: cov, sites: sites.length, failures, counts, iters, seed };
  }

  // Every site but Party#step (fuzzed on the protocol scenarios below) is called directly. An
  // instance member is called on each exported class that has it (`receiverOf`).
  const callSites = sites.filter((s) => s.key !== 'Party#step');
  for (const s of callSites) {
    const [, base, kind] = SHAPES[s.key];
    s.shape = SHAPES[s.key];
    s.m = contextOf(s, f);
    if (kind === 'throws' || kind === 'promise' || kind === 'undefined') continue;
    // The base call must do what its line says; its result is what 'same' calls must reproduce.
    beat(`base call ${s.build}:${s.path}`);
    const receiver = receiverOf(s, f);
    const out = invoke(s, s.kind === 'returned' ? receiver[s.member] : s.fn, receiver, base(s.m));
    if (receiver !== s.owner && receiver !== poolOf(s, f).receivers[s.cls]) receiver?.free?.();
    const why = returnsCheck(kind, out, s.m, codes);
    if (why) throw new Error(`fixture: the base call of ${s.build}:${s.path} ${why}`);
    if (VERDICTS.has(kind) && !accepted(kind, out)) throw new Error(`fixture: the base call of ${s.build}:${s.path} is not accepted`);
    s.base = essence(kind, out);
    dispose(out, keep);
  }
  // How many mutation-only calls each site gets per round (MUTATIONS).
  for (const s of callSites) {
    const [slots, base, kind, options = {}] = s.shape;
    const args = base(s.m);
    const mutable = slots.some((sl, i) => (sl.kind === 'bytes' && args[i] instanceof Uint8Array) || (sl.kind === 'opts' && Object.keys(sl.keys).some((k) => sl.keys[k].kind === 'bytes' && args[i]?.[k] instanceof Uint8Array)));
    const decodes = slots.some((sl) => (sl.kind === 'bytes' && sl.max === 'record') || (sl.kind === 'opts' && Object.values(sl.keys).some((k) => k.max === 'record')));
    s.mutations = !mutable ? 0 : MUTATIONS[kind] ?? (options.strict ? MUTATIONS.strict : decodes ? MUTATIONS.decoding : 0);
  }

  // -------------------------------------------------------------- one call
  function timed(label, fn) {
    beat(label);
    const t0 = performance.now();
    try {
      return fn();
    } finally {
      const ms = performance.now() - t0;
      if (ms > SLOW_MS) counts.slow += 1;
    }
  }

  function record(site, e) {
    counts.calls += 1;
    counts.bySite[site] = (counts.bySite[site] ?? 0) + 1;
    if (e === undefined) {
      counts.returned += 1;
      return undefined;
    }
    const c = errorClass(e, codes);
    if (c.bad) return c;
    counts.thrown[c.type] = (counts.thrown[c.type] ?? 0) + 1;
    if (c.code) counts.codes[c.code] = (counts.codes[c.code] ?? 0) + 1;
    return c;
  }

  // -------------------------------------------------------------- hostile built-ins after load
  // Keys prepared before any hostile call, checked after every batch.
  const preparedBefore = [full, light].map((lib) => lib.mlDsa87.prepare(f.ml[87].pk));
  let reentering = false;
  /** What a hook runs: a verification, from wherever the hook was called. */
  const hooks = {
    reenter() {
      if (reentering) return;
      reentering = true;
      try {
        for (const lib of [light, full]) {
          let v;
          try {
            v = lib.mlDsa87.verify(f.ml[87].sig, f.ml[87].msg, f.ml[87].pk, { context: f.ml[87].ctx });
          } catch (e) {
            if (e?.code === 'REENTRANT_CALL') {
              counts.reentered.refused += 1;
              continue;
            }
            fail('a hook calling the package', `threw ${e?.code ?? e?.name}: ${e?.message}`);
            continue;
          }
          if (v === true) counts.reentered.normal += 1;
          else fail('a hook calling the package', `a valid signature verified ${String(v)}`);
        }
      } finally {
        reentering = false;
      }
    },
  };

  /** A call of `s` with its base arguments under the next tampering: as with the realm intact. */
  function builtinCall(s) {
    const [, base, kind, options = {}] = s.shape;
    const t = TAMPERINGS[counts.builtins % TAMPERINGS.length];
    counts.builtins += 1;
    counts.byBuiltin[t.name] = (counts.byBuiltin[t.name] ?? 0) + 1;
    const args = base(s.m);
    const receiver = receiverOf(s, f);
    const own = options.this === 'fresh' ? receiver : undefined;
    const fn = s.kind === 'returned' ? receiver[s.member] : s.fn;
    const label = `${s.build}:${s.path}(base arguments) with ${t.name}`;
    let out;
    let threw;
    try {
      out = timed(label, () => withBuiltins(t, hooks, () => invoke(s, fn, receiver, args)));
    } catch (e) {
      threw = e;
    }
    own?.free();
    const c = record(s.key, threw);
    if (threw !== undefined) {
      if (c.bad) return fail(label, c.bad);
      if (c.type === 'HostileError' && t.caller) return undefined;
      if (c.code && t.refused?.includes(c.code)) return undefined;
      return fail(label, `a built-in changed after load changed the outcome: ${threw?.code ?? threw?.name}: ${threw?.message}`);
    }
    try {
      const why = returnsCheck(kind, out, s.m, codes);
      if (why) return fail(label, why);
      if (!sameEssence(kind, s.base, essence(kind, out))) return fail(label, `another result than with the realm intact (${describe(out)})`);
      if (options.check) {
        const w = options.check(out, base(s.m), s.m);
        if (w) return fail(label, w);
      }
      return undefined;
    } finally {
      dispose(out, keep);
    }
  }

  function callSite(s, mutation = false) {
    const [slots, base, kind, options = {}] = s.shape;
    if (!mutation && !['throws', 'promise', 'undefined'].includes(kind) && rb.chance(BUILTINS_RATE)) builtinCall(s);
    const args = base(s.m);
    let receiver = receiverOf(s, f);
    const own = options.this === 'fresh' ? receiver : undefined;
    let fn = s.kind === 'returned' ? receiver[s.member] : s.fn;
    let h;
    let slot = -1;
    const members = s.kind === 'get' || s.kind === 'method' || s.kind === 'returned';
    if (mutation) {
      [slot, h] = mutationOf(slots, args);
      args[slot] = h.value;
    } else if (s.kind === 'returned' && r.chance(0.12)) {
      // A returned object's members are closures over it: the hostile receiver is a freed one.
      const gone = s.make();
      gone.free();
      fn = gone[s.member];
      h = { expect: 'any', note: 'on a freed object' };
    } else if (members && (slots.length === 0 || r.chance(0.12))) {
      h = hostileThis(r, receiver, poolOf(s, f).freed[s.cls]);
      receiver = h.value;
    } else if (slots.length) {
      slot = r.int(slots.length);
      h = hostileFor(slots[slot], args[slot]);
      if (h.value === undefined && slot === args.length - 1) args.length -= 1;
      else args[slot] = h.value;
    } else {
      h = { expect: 'same', note: 'no arguments' };
    }
    if (s.kind === 'construct' && r.chance(0.2)) h = { ...h, expect: 'reject', note: `${h.note}, called without new`, plainCall: true };
    const label = `${s.build}:${s.path}(${slot >= 0 ? `arg ${slot}: ` : ''}${h.note}) expect ${h.expect}`;
    let out;
    let threw;
    try {
      out = timed(label, () => (h.plainCall ? Reflect.apply(fn, undefined, args) : invoke(s, fn, receiver, args)));
    } catch (e) {
      threw = e;
    }
    own?.free();
    h.cleanup?.();
    const c = record(s.key, threw);
    if (threw !== undefined) {
      if (c.bad) return fail(label, c.bad);
      if (c.type === 'HostileError' && !['caller', 'any'].includes(h.expect)) return fail(label, 'a hostile getter or trap was read through (the value should have been refused first)');
      if (h.expect === 'same' && kind !== 'throws' && c.type !== 'HostileError') return fail(label, `the same value in another form was refused: ${threw?.name}: ${threw?.message}`);
      return undefined;
    }
    try {
      if (h.expect === 'reject') return fail(label, `accepted (${kind}: ${describe(out)})`);
      const why = returnsCheck(kind, out, s.m, codes);
      if (why) return fail(label, why);
      if (h.expect === 'caller' || h.expect === 'any') return undefined;
      if (h.expect === 'changed') {
        const yes = VERDICTS.has(kind) && accepted(kind, out);
        if (VERDICTS.has(kind)) counts.verdicts += 1;
        if (yes && !options.sameStatement?.(args, s.m)) return fail(label, 'a FALSE ACCEPT: a changed input verifies');
        if (yes) counts.restated += 1;
        if (options.strict) return fail(label, `accepted a changed input (${kind})`);
      }
      if ((h.expect === 'same' || h.expect === 'either') && !sameEssence(kind, s.base, essence(kind, out))) return fail(label, `the same values gave another result (${describe(out)})`);
      if (options.check && (h.expect === 'same' || h.expect === 'changed')) {
        const plainArgs = h.expect === 'same' ? base(s.m) : args;
        const w = options.check(out, plainArgs, s.m);
        if (w) return fail(label, w);
      }
      return undefined;
    } finally {
      dispose(out, keep);
    }
  }

  /** A mutation of one byte argument (top level or an option): `[slot, { value, expect, note }]`. */
  function mutationOf(slots, args) {
    const at = slots.flatMap((sl, i) => (sl.kind === 'bytes' && args[i] instanceof Uint8Array ? [[i]] : sl.kind === 'opts' ? Object.keys(sl.keys).filter((k) => sl.keys[k].kind === 'bytes' && args[i]?.[k] instanceof Uint8Array).map((k) => [i, k]) : []));
    const [i, k] = r.pick(at);
    if (k === undefined) return [i, mutate(r, args[i], f.allBytes)];
    const h = mutate(r, args[i][k], f.allBytes);
    return [i, { ...h, value: { ...args[i], [k]: h.value }, note: `opts.${k}: ${h.note}` }];
  }

  /** A hostile value of `slot`'s kind around the base value `v`. */
  function hostileFor(slot, v) {
    let h;
    switch (slot.kind) {
      case 'bytes':
        if (slot.optional && v !== undefined && r.chance(0.03)) return { value: undefined, expect: 'changed', note: 'absent' };
        h = hostileBytes(r, v, { foreign: f.allBytes, optional: slot.optional, oversize: OVERSIZE[slot.max] });
        break;
      case 'int':
        h = hostileInt(r, v ?? 1, slot.small);
        // An option with a default takes `undefined` as "absent".
        if (slot.optional && h.value === undefined) h = { ...h, expect: 'changed' };
        break;
      case 'ids':
        h = hostileIds(r, v ?? [1, 2]);
        break;
      case 'generation':
        h = hostileGeneration(r, v);
        break;
      case 'level':
        h = hostileLevel(r, v);
        break;
      case 'u64': {
        // A u64 given as a safe integer or a BigInt (a chain id): anything else is refused.
        const [note, value, ok] = r.pick([
          ['0', 0, true], ['7n', 7n, true], ['2^64-1', 2n ** 64n - 1n, true], ['2^53-1', 2 ** 53 - 1, true],
          ['2^64', 2n ** 64n, false], ['-1', -1, false], ['-1n', -1n, false], ['1.5', 1.5, false], ['2^53', 2 ** 53, false],
          ['"1"', '1', false], ['null', null, false], ['Number object', new Number(1), false], ['NaN', NaN, false],
        ]);
        h = { value, expect: ok ? (Object.is(value, v) ? 'same' : 'changed') : 'reject', note };
        break;
      }
      case 'bool':
        h = hostileBool(r, v);
        break;
      case 'curve':
        h = hostileName(r, v, f.curves);
        break;
      case 'mode':
        h = hostileName(r, v, f.magnetar.modes);
        break;
      case 'policy':
        h = hostileName(r, v, f.cert.policies);
        break;
      case 'alg':
      case 'choice': {
        // A name made by changing the base may be a valid one ('ML-DSA-44' upper-cased).
        const valid = slot.kind === 'alg' ? f.keys.algs : slot.values;
        h = hostileName(r, v, valid);
        if (h.expect === 'reject' && valid.includes(h.value)) h.expect = h.value === v ? 'same' : 'changed';
        break;
      }
      case 'text':
        h = hostileText(r, v);
        break;
      case 'quorum':
        h = hostileQuorum(r, v);
        break;
      case 'list':
        h = hostileList(r, v, (e) => mutate(r, e, f.allBytes));
        break;
      case 'entropy':
        h = hostileEntropy(r, v);
        break;
      case 'any':
        h = hostileAny(r);
        break;
      case 'parties': {
        // A run's party list: anything but an array of parties is refused before a step runs.
        const [note, value] = r.pick([['undefined', undefined], ['null', null], ['a number', 1], ['a string', 'x'], ['an object', {}], ['bytes', new Uint8Array(2)], ['a number entry', [1]], ['an empty object entry', [{}]], ['a null entry', [null]]]);
        h = { value, expect: 'reject', note: `parties: ${note}` };
        break;
      }
      case 'holder': {
        const valid = f.receivers[slot.cls];
        if (v === undefined && r.chance(0.5)) h = { value: valid, expect: 'changed', note: `a valid ${slot.cls}` };
        else h = hostileHolder(r, v ?? valid, { others: f.holders.filter((x) => !(x instanceof full[slot.cls])), freed: f.freed[slot.cls] });
        if (v === undefined && h.expect === 'same') h.expect = 'changed';
        break;
      }
      case 'opts': {
        if (r.chance(0.05)) return { value: undefined, expect: slot.optional ? (v && Object.keys(v).length ? 'changed' : 'same') : 'reject', note: 'options: undefined' };
        // A party list whose element getter frees the key share passed beside it: the getter
        // runs after the share was checked, before the call.
        const share = Object.keys(slot.keys).find((k) => slot.keys[k].kind === 'holder' && v?.[k] !== undefined);
        const list = Object.keys(slot.keys).find((k) => slot.keys[k].kind === 'ids' && v?.[k] !== undefined);
        if (share && list && r.chance(0.06)) {
          const victim = f.fresh[slot.keys[share].cls]();
          const ids = [...v[list]];
          Object.defineProperty(ids, 0, { get: () => (victim.free(), v[list][0]), enumerable: true });
          // Refused before the getter runs: the share is freed after the call (`cleanup`).
          return { value: { ...v, [share]: victim, [list]: ids }, expect: 'reject', note: `opts.${list}: an element getter that frees opts.${share}`, cleanup: () => victim.free() };
        }
        h = hostileOpts(r, v, slot.keys, (key, bv) => hostileFor(slot.keys[key], bv));
        break;
      }
      default:
        throw new Error(`unknown slot kind ${slot.kind}`);
    }
    if (h.expect === 'same-if-equal') h.expect = Object.is(h.value, v) ? 'same' : 'changed';
    return h;
  }

  // -------------------------------------------------------------- Party#step on the scenarios
  const scenarioNames = Object.keys(f.scenarios);
  const live = new Map();
  const scenario = (name) => {
    if (!live.has(name)) live.set(name, { ...f.scenarios[name](), fed: 0 });
    return live.get(name);
  };
  const retire = (name) => {
    const s = live.get(name);
    if (s) s.parties.forEach((p) => p.free());
    live.delete(name);
  };
  const stepFn = Object.getOwnPropertyDescriptor(full.Party.prototype, 'step').value;

  function stepCall(name, refused = false) {
    const s = scenario(name);
    const before = s.victim.round;
    let h;
    let receiver = s.victim;
    let inbox;
    if (refused) {
      h = hostileInbox(r, { inbox: s.inbox, victim: s.victim, max: s.victim.maxInboxBytes, foreign: f.allBytes, refused });
      inbox = h.value;
    } else if (r.chance(0.08)) {
      h = hostileThis(r, s.victim, f.freed.Party);
      receiver = h.value;
      inbox = s.inbox;
    } else {
      h = hostileInbox(r, { inbox: s.inbox, victim: s.victim, max: s.victim.maxInboxBytes, foreign: f.allBytes });
      inbox = h.value;
    }
    const label = `quasar-pq:Party#step on ${name} (${h.note}) expect ${h.expect}`;
    let out;
    let threw;
    try {
      out = timed(label, () => Reflect.apply(stepFn, receiver, [inbox]));
    } catch (e) {
      threw = e;
    }
    const c = record('Party#step', threw);
    s.fed += 1;
    if (h.consumes) retire(name);
    if (threw !== undefined) {
      if (c.bad) return fail(label, c.bad);
      if (c.type === 'HostileError' && !['caller', 'any'].includes(h.expect)) return fail(label, 'a hostile getter or trap was read through');
      if (h.expect === 'same') return fail(label, `a good inbox in another form was refused: ${threw?.code ?? threw?.name}: ${threw?.message}`);
      if (live.has(name) && !h.consumes) {
        let now;
        try {
          now = s.victim.round;
        } catch (e) {
          return fail(label, `the party is unusable after a failed step: ${e.message}`);
        }
        if (JSON.stringify(now) !== JSON.stringify(before)) return fail(label, `a failed step moved the party from ${JSON.stringify(before)} to ${JSON.stringify(now)}`);
      }
      return undefined;
    }
    // The step ran: the party moved on; it is retired after the checks.
    retire(name);
    if (h.expect === 'reject') return fail(label, 'accepted a bad inbox');
    const why = returnsCheck('step', out, null, codes);
    if (why) return fail(label, why);
    if (h.expect === 'same' && out.dropped.length) return fail(label, `a good inbox had messages dropped: ${JSON.stringify(out.dropped)}`);
    if (h.expect === 'changed' && h.suspects) {
      const wrong = out.dropped.filter((d) => !h.suspects.has(d.party));
      if (wrong.length) return fail(label, `blamed a party that sent nothing wrong: ${JSON.stringify(wrong)} (suspects ${[...h.suspects]})`);
    }
    return undefined;
  }

  // -------------------------------------------------------------- batch checks
  function healthCheck(batch) {
    const where = `after batch ${batch}`;
    try {
      beat(`${where}: health check`);
      if (fullLoader.poisoned) return fail(where, 'the full instance is poisoned');
      const ml = full.mlDsa44;
      const kp = ml.keygen(f.ml[44].seed);
      const sig = ml.sign(f.ml[44].msg, kp.secretKey, { context: f.ml[44].ctx });
      if (ml.verify(sig, f.ml[44].msg, kp.publicKey, { context: f.ml[44].ctx }) !== true) fail(where, 'an ML-DSA round trip failed (full)');
      if (light.mlDsa44.verify(sig, f.ml[44].msg, kp.publicKey, { context: f.ml[44].ctx }) !== true) fail(where, 'an ML-DSA round trip failed (light)');
      const p = light.mlDsa87.prepare(f.ml[87].pk);
      if (p.verify(f.ml[87].sig, f.ml[87].msg, { context: f.ml[87].ctx }) !== true) fail(where, 'a prepared verification failed (light)');
      p.free();
      preparedBefore.forEach((k, i) => {
        if (k.verify(f.ml[87].sig, f.ml[87].msg, { context: f.ml[87].ctx }) !== true) fail(where, `a key prepared before the run no longer verifies (${i ? 'light' : 'full'})`);
      });
      if (light.mlDsa87.verify(f.ml[87].sig, f.ml[87].msg, f.ml[87].pk, { context: f.ml[87].ctx }) !== true) fail(where, 'an ML-DSA-87 verification failed (light)');
      // Every scenario, its victim fed bad inboxes (six more now, each refused), completes with
      // the good ones.
      for (const name of scenarioNames) {
        for (let i = 0; i < 6; i++) stepCall(name, true);
        const s = scenario(name);
        const out = run(s.parties);
        for (const [id, e] of out.errors) fail(`${where}: scenario ${name}`, `party ${id} did not complete: ${e.code ?? ''} ${e.message}`);
        if (!out.errors.size) {
          const why = s.check(out.outcomes);
          if (why) fail(`${where}: scenario ${name}`, why);
          counts.runs += 1;
          counts.fed += s.fed;
        }
        s.parties.forEach((q) => q.free());
        s.parties.forEach((q) => q.free());
        try {
          s.victim.step(s.inbox);
          fail(`${where}: scenario ${name}`, 'a freed party stepped');
        } catch (e) {
          if (e.code !== 'USE_AFTER_FREE') fail(`${where}: scenario ${name}`, `a freed party threw ${e.code ?? e.name} rather than USE_AFTER_FREE`);
        }
        live.delete(name);
      }
      f.allBytes.forEach((b, i) => equalBytes(b, f.snapshotOfInputs[i]) || fail(where, `a fixture byte string (#${i}, ${b.length} bytes) was mutated by a call`));
    } catch (e) {
      fail(where, `the health check threw: ${e?.code ?? e?.name}: ${e?.message}`);
    }
  }

  // -------------------------------------------------------------- rounds
  const heap = () => process.memoryUsage().heapUsed;
  let steps = 0;
  let roundNo = 0;
  const roundOnce = () => {
    roundNo += 1;
    for (const s of callSites) {
      if (s.shape[3]?.slow?.(s.m) && roundNo % SLOW_EVERY !== 1) continue;
      callSite(s);
      for (let i = 0; i < s.mutations; i++) callSite(s, true);
    }
    for (let i = 0; i < STEPS_PER_ROUND; i++) stepCall(scenarioNames[steps++ % scenarioNames.length]);
    // The polluted realm: a seeded choice of pollutions, calls of both builds under them.
    const pr = timed(`polluted realm, round ${roundNo}`, () => realmRound(realmRandom, realm, roundNo - 1));
    counts.polluted += pr.calls;
    for (const why of pr.failures) fail(`round ${roundNo}`, why);
  };
  // The warm-up: every site's base call (above) and a health check, valid input only, so the
  // allocator's first growth is not counted; every hostile call after it is.
  beat('setup: the warm-up health check');
  healthCheck(0);
  const memoryBefore = memory();
  globalThis.gc?.();
  const heapBefore = heap();
  const batches = [];
  for (let round = 0; round < iters; round++) {
    roundOnce();
    if ((round + 1) % BATCH_ROUNDS === 0 || round === iters - 1) {
      healthCheck(batches.length + 1);
      batches.push({ calls: counts.calls, memory: memory() });
    }
  }
  globalThis.gc?.();
  const report = {
    seed,
    iters,
    sites: sites.length,
    callSites: callSites.length,
    keys: [...new Set([...callSites.map((s) => s.key), 'Party#step'])],
    coverage: cov,
    counts,
    failures,
    memoryAtStart,
    memoryBefore,
    memoryAfter: memory(),
    batches,
    heapBefore,
    heapAfter: heap(),
    ms: performance.now() - started,
  };
  for (const name of scenarioNames) retire(name);
  preparedBefore.forEach((k) => k.free());
  return report;
}

/** The fixture context of a site: its family's (FAMILIES), else all the fixtures. */
function contextOf(s, f) {
  const name = s.path.split(/[.#(]/)[0];
  const family = FAMILIES.find(([re]) => re.test(name));
  if (!family) return f;
  return family[2](f, name, s.target ?? (s.build === 'quasar-pq' ? full : light)[name]);
}

/** The receivers of a site's build: a class of the light build needs instances of its own. */
function poolOf(s, f) {
  const own = f.byBuild?.[s.build];
  return own && s.cls in own.receivers ? own : f;
}

function receiverOf(s, f) {
  const [, , , options = {}] = SHAPES[s.key];
  if (s.kind === 'returned') return options.this === 'fresh' ? s.make() : s.owner;
  const pool = poolOf(s, f);
  if (s.kind === 'get' || s.kind === 'method') return options.this === 'fresh' ? pool.fresh[s.cls]() : pool.receivers[s.cls];
  return s.owner;
}

function invoke(s, fn, receiver, args) {
  if (s.kind === 'construct') return Reflect.construct(fn, args);
  return Reflect.apply(fn, receiver, args);
}

function describe(v) {
  if (v instanceof Uint8Array) return `${v.length} bytes`;
  if (v === null || typeof v !== 'object') return String(v);
  return v.constructor?.name ?? 'object';
}
