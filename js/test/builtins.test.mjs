// Hostile built-ins after load: a realm whose built-ins the caller changes after the
// package loaded. The generated glue and js/common.js call only what they captured when they
// loaded, so a lying `%TypedArray%.prototype.length`, a `crypto.getRandomValues` that hands back
// another array, a `performance.now` that returns a BigInt, throws or calls back into the
// package, a throwing `Array.prototype.push` — none of them reaches WebAssembly memory: a key
// prepared before still verifies, nothing traps, WebAssembly memory stays bounded and every
// object can still be freed. One instance per realm (init() racing initSync()); a call made
// while another runs is refused (REENTRANT_CALL); an object freed during a call answers
// USE_AFTER_FREE afterwards. Every test restores the realm in a `finally`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { Worker } from 'node:worker_threads';

import * as full from '../index.js';
import * as light from '../verify.js';
import { loader } from '../full.js';
import * as lightGlue from '../../pkg/light/quasar_pq.js';
import { label32 } from '../support/run.mjs';

const BUILDS = [['light', light], ['full', full]];
const msg = new Uint8Array([1, 2, 3]);
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);

const CERTS = JSON.parse(readFileSync(new URL('../../kats/cert.json', import.meta.url), 'utf8'));
const hex = (h) => Uint8Array.from(Buffer.from(h, 'hex'));
const trustedSet = hex(CERTS.sets.find((s) => s.name === 'epoch-0').bytes);
const fastCert = hex(CERTS.certificates.find((c) => c.name === 'fast').bytes);

let lightMemory;
const memoryOf = { full: () => loader.memoryBytes(), light: () => lightMemory.buffer.byteLength };

let kp;
let sig;
let slhKp;
let slhSig;
let magKey;
let magSig;
const magId = new Uint8Array(32).fill(1);

before(async () => {
  await full.init();
  await light.init();
  lightMemory = (await lightGlue.default()).memory;
  kp = full.mlDsa44.keygen(new Uint8Array(32).fill(7));
  sig = full.mlDsa44.sign(msg, kp.secretKey, { extraEntropy: false });
  slhKp = full.slhDsaShake128f.keygen(new Uint8Array(48).fill(7));
  slhSig = full.slhDsaShake128f.sign(msg, slhKp.secretKey, { extraEntropy: false });
  magKey = full.magnetar.keygen('shake192f', { seed: new Uint8Array(72).fill(5) });
  magSig = full.magnetar.sign('shake192f', msg, magKey.secretKey, { extraEntropy: false });
});

// ------------------------------------------------------------------ changing the realm

/**
 * Runs `fn` with `obj[key]` redefined by `desc` (configurable), then puts the old property back
 * exactly (or deletes the new one), whatever `fn` did.
 */
function patched(obj, key, desc, fn) {
  const old = Object.getOwnPropertyDescriptor(obj, key);
  Object.defineProperty(obj, key, { configurable: true, writable: true, ...desc });
  try {
    return fn();
  } finally {
    if (old) Object.defineProperty(obj, key, old);
    else delete obj[key];
  }
}

/** As `patched`, for an accessor (`get`, and no `writable`). */
function patchedGetter(obj, key, get, fn) {
  const old = Object.getOwnPropertyDescriptor(obj, key);
  Object.defineProperty(obj, key, { configurable: true, get });
  try {
    return fn();
  } finally {
    if (old) Object.defineProperty(obj, key, old);
    else delete obj[key];
  }
}

/** `{ value }` or `{ error }` of a call (nothing may be asserted while the realm is changed). */
function attempt(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    return { error };
  }
}

/** The error classes a call may end with: typed, never a trap, a poisoned instance or a glue fault. */
function assertTypedOrNone(r, what) {
  if (!('error' in r)) return;
  const e = r.error;
  assert.ok(!(e instanceof WebAssembly.RuntimeError), `${what}: a trap: ${e.message}`);
  assert.ok(e instanceof TypeError || e instanceof RangeError || e?.name === 'QuasarError', `${what}: ${e?.name}: ${e?.message}`);
  assert.notEqual(e.code, 'INSTANCE_POISONED', what);
  assert.doesNotMatch(String(e.message), /null pointer passed to rust|recursive use of an object|already borrowed/, what);
}

function assertHealthy(what) {
  assert.equal(loader.poisoned, false, `${what}: the full instance is not poisoned`);
  const k = full.mlDsa44.keygen(new Uint8Array(32).fill(3));
  const s = full.mlDsa44.sign(msg, k.secretKey);
  for (const [build, lib] of BUILDS) assert.equal(lib.mlDsa44.verify(s, msg, k.publicKey), true, `${what}: ${build} round trip`);
}

// ------------------------------------------------------------------ the glue under test

test('both builds load the hardened glue (scripts/harden-glue.mjs): no built-in looked up at call time', async () => {
  const { HARDENED_MARK } = await import('../../scripts/harden-glue.mjs');
  for (const build of ['full', 'light']) {
    const text = readFileSync(new URL(`../../pkg/${build}/quasar_pq.js`, import.meta.url), 'utf8');
    assert.ok(text.includes(HARDENED_MARK), `pkg/${build}/quasar_pq.js is not hardened: rebuild with node scripts/build-wasm.mjs`);
    // What the generated glue did per call, through built-ins of the moment.
    for (const pattern of [/malloc\(arg\.length/, /ArrayMemory0\(\)\.set\(/, /\)\.slice\(\)/, /\barg0\.push\(/, /\bReflect\.set\(/, /ret = performance\.now\(\)/, /\.get\(idx\)/]) {
      assert.doesNotMatch(text, pattern, `pkg/${build}/quasar_pq.js`);
    }
  }
});

// ------------------------------------------------------------------ 1. the copy into WebAssembly memory

describe('built-ins the copy into WebAssembly memory uses, changed after load', () => {
  test('a lying %TypedArray%.prototype.length is ignored: keys prepared before still verify, nothing traps', () => {
    const prepared = BUILDS.map(([, lib]) => lib.mlDsa44.prepare(kp.publicKey));
    const calls = {
      'light mlDsa44.verify': () => light.mlDsa44.verify(sig, msg, kp.publicKey),
      'full mlDsa44.verify': () => full.mlDsa44.verify(sig, msg, kp.publicKey),
      'full mlDsa44.sign': () => full.mlDsa44.sign(msg, kp.secretKey, { extraEntropy: false }),
      'light slhDsaShake128f.verify': () => light.slhDsaShake128f.verify(slhSig, msg, slhKp.publicKey),
      'full magnetar.verify': () => full.magnetar.verify(magSig, msg, magKey.publicKey),
      'light prepared.verify': () => prepared[0].verify(sig, msg),
    };
    for (const lie of [1, 0, 0x7fffffff]) {
      const results = patchedGetter(TypedArrayPrototype, 'length', () => lie, () => Object.entries(calls).map(([k, f]) => [k, attempt(f)]));
      for (const [k, r] of results) {
        assertTypedOrNone(r, `length ${lie}: ${k}`);
        if (k.endsWith('sign')) assert.deepEqual(r.value, sig, `length ${lie}: ${k} signs as before`);
        else assert.equal(r.value, true, `length ${lie}: ${k} verifies as before`);
      }
      prepared.forEach((p, i) => assert.equal(p.verify(sig, msg), true, `length ${lie}: the ${BUILDS[i][0]} key prepared before still verifies`));
    }
    prepared.forEach((p) => p.free());
    assertHealthy('after the lying length');
  });

  test('%TypedArray%.prototype.set, subarray and slice, replaced after load, are not what the glue calls', () => {
    const prepared = light.mlDsa44.prepare(kp.publicKey);
    const hostile = function () {
      throw new Error('hostile built-in');
    };
    for (const key of ['set', 'subarray', 'slice']) {
      const r = patched(TypedArrayPrototype, key, { value: hostile }, () => [
        attempt(() => light.mlDsa44.verify(sig, msg, kp.publicKey)),
        attempt(() => full.mlDsa44.keygen(new Uint8Array(32).fill(7)).publicKey),
        attempt(() => prepared.verify(sig, msg)),
      ]);
      assert.equal(r[0].value, true, `${key}: verify`);
      assert.deepEqual(r[1].value, kp.publicKey, `${key}: keygen`);
      assert.equal(r[2].value, true, `${key}: prepared verify`);
    }
    prepared.free();
  });

  test('crypto.getRandomValues replaced after load is not used: no other array, no unfilled seed', () => {
    class Liar extends Uint8Array {
      get length() {
        return 32;
      }
    }
    const zeroKey = full.mlDsa44.keygen(new Uint8Array(32)).publicKey;
    const prepared = light.mlDsa44.prepare(kp.publicKey);
    const hostile = {
      'returns another, longer array': () => new Liar(1 << 16),
      'fills another array': (a) => a,
    };
    for (const [what, grv] of Object.entries(hostile)) {
      const r = patched(globalThis.crypto, 'getRandomValues', { value: grv }, () => [
        attempt(() => full.mlDsa44.keygen()),
        attempt(() => full.mlDsa44.keygen()),
        attempt(() => full.mlDsa44.sign(msg, kp.secretKey)),
        attempt(() => full.bls.keygen()),
      ]);
      r.forEach((x, i) => assertTypedOrNone(x, `${what} #${i}`));
      const [a, b, s, blsKey] = r.map((x) => x.value);
      assert.ok(a && b && s && blsKey, `${what}: the calls returned`);
      assert.notDeepEqual(a.publicKey, zeroKey, `${what}: not the key of an all-zero seed`);
      assert.notDeepEqual(a.publicKey, b.publicKey, `${what}: two fresh keys differ`);
      assert.equal(full.mlDsa44.verify(s, msg, kp.publicKey), true, `${what}: hedged signature`);
      assert.equal(prepared.verify(sig, msg), true, `${what}: the key prepared before still verifies`);
    }
    prepared.free();
    assertHealthy('after the hostile getRandomValues');
  });

  test('a replaced %TypedArray%.prototype.byteLength (which Web Crypto in Node reads): randomness refused with RNG_FAILURE, seeds still work', () => {
    const seed = new Uint8Array(32).fill(7);
    for (const lie of [0, 1, 100]) {
      const r = patchedGetter(TypedArrayPrototype, 'byteLength', () => lie, () => [
        attempt(() => full.mlDsa44.keygen()),
        attempt(() => full.slhDsaShake128f.sign(msg, slhKp.secretKey)),
        attempt(() => full.mlDsa44.keygen(seed).publicKey),
      ]);
      for (const x of r.slice(0, 2)) assert.equal(x.error?.code, 'RNG_FAILURE', `byteLength ${lie}: ${x.error?.code ?? 'a key or signature from a partly filled seed'}`);
      assert.deepEqual(r[2].value, kp.publicKey, `byteLength ${lie}: keygen from a seed`);
    }
    assertHealthy('after the lying byteLength');
  });

  test('a getRandomValues replaced before load that returns another array or fills nothing: RNG_FAILURE', async () => {
    for (const [what, grv] of [['another array', '(a) => new Uint8Array(a.length)'], ['nothing filled', '(a) => a']]) {
      const code = `
        const { parentPort } = require('node:worker_threads');
        Object.defineProperty(globalThis.crypto, 'getRandomValues', { value: ${grv}, configurable: true });
        import(${JSON.stringify(new URL('../index.js', import.meta.url).href)}).then(async (lib) => {
          await lib.init();
          try { lib.mlDsa44.keygen(); parentPort.postMessage('returned'); } catch (e) { parentPort.postMessage(e.code ?? e.message); }
        });`;
      const worker = new Worker(code, { eval: true });
      const got = await new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      await worker.terminate();
      assert.equal(got, 'RNG_FAILURE', what);
    }
  });
});

// ------------------------------------------------------------------ 2. one instance per realm

describe('init() racing initSync(): one instance per realm', () => {
  for (const build of ['light', 'full']) {
    for (const order of ['async-first', 'sync-first']) {
      test(`${build}, ${order}: never re-instantiated under live objects`, async () => {
        const worker = new Worker(new URL('../support/init-race.mjs', import.meta.url), {
          workerData: { build, order, publicKey: kp.publicKey, message: msg, signature: sig },
        });
        const report = await new Promise((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
          worker.once('exit', (code) => reject(new Error(`the worker exited (${code})`)));
        });
        await worker.terminate();
        assert.equal(report.async, 'resolved', 'init() resolves');
        // The one that started second returns the same instance or refuses with a typed error.
        assert.ok(['returned', 'INIT_IN_PROGRESS'].includes(report.sync), `initSync(): ${report.sync}`);
        for (const [name, v] of Object.entries(report.verdicts)) assert.equal(v, true, `a key prepared ${name}: ${v}`);
        if (report.sync === 'returned') assert.ok('between' in report.verdicts);
      });
    }
  }
});

// ------------------------------------------------------------------ 3. JS called from Rust

/** WebAssembly memory growth of `build` over `fn` (after one warm-up call of `fn`). */
function growth(build, fn, warm = fn) {
  warm();
  const before = memoryOf[build]();
  fn();
  return memoryOf[build]() - before;
}

describe('what Rust calls in JavaScript: captured at load, never replaced, never re-entered', () => {
  const HOOK_CALLS = 1000;
  const BOUND = 256 << 10;

  test(`${HOOK_CALLS} keygens and registry reads under a throwing Array.prototype.push: bounded memory, no trap, objects freeable`, () => {
    const hostile = function () {
      throw new Error('hostile push');
    };
    const registries = BUILDS.map(([, lib]) => new lib.MagnetarRegistry('shake192f', [{ id: magId, publicKey: magKey.publicKey, weight: 1 }]));
    const outcomes = { full: [], light: [] };
    const seed = new Uint8Array(32).fill(9);
    const grew = {
      full: growth('full', () =>
        patched(Array.prototype, 'push', { value: hostile }, () => {
          for (let i = 0; i < HOOK_CALLS; i++) outcomes.full[i] = attempt(() => full.mlDsa44.keygen(seed));
        }),
      () => full.mlDsa44.keygen(seed)),
      light: growth('light', () =>
        patched(Array.prototype, 'push', { value: hostile }, () => {
          for (let i = 0; i < HOOK_CALLS; i++) outcomes.light[i] = attempt(() => registries[0].validators());
        }),
      () => registries[0].validators()),
    };
    for (const [build, list] of Object.entries(outcomes)) {
      assert.equal(list.length, HOOK_CALLS);
      list.forEach((r, i) => assertTypedOrNone(r, `${build} #${i}`));
      assert.ok(grew[build] <= BOUND, `${build}: WebAssembly memory grew by ${grew[build]} bytes`);
    }
    assert.deepEqual(outcomes.full[HOOK_CALLS - 1].value?.publicKey, full.mlDsa44.keygen(seed).publicKey, 'keygen as before');
    assert.equal(outcomes.light[0].value?.length, 1, 'the registry lists its validator');
    for (const r of registries) {
      r.free();
      assert.throws(() => r.size, (e) => e.name === 'QuasarError' && e.code === 'USE_AFTER_FREE');
    }
    assertHealthy('after the throwing push');
  });

  test('a light client verifying under a throwing Array.prototype.push can still be freed', () => {
    for (const [build, lib] of BUILDS) {
      const client = new lib.LightClient(trustedSet, 'pq-fast');
      const r = patched(Array.prototype, 'push', { value: () => { throw new Error('hostile push'); } }, () => attempt(() => client.verify(fastCert)));
      assertTypedOrNone(r, build);
      assert.equal(r.value?.ok, true, `${build}: the certificate verifies`);
      assert.doesNotThrow(() => client.free(), `${build}: free()`);
      assert.throws(() => client.epoch, (e) => e.code === 'USE_AFTER_FREE');
    }
  });

  test('a performance.now that returns a BigInt or throws: no leak, no trap, reports still timed', () => {
    const N = 12;
    for (const [build, lib] of BUILDS) {
      for (const [what, now] of [['a BigInt', () => 1n], ['throws', () => { throw new Error('hostile now'); }], ['a string', () => 'soon']]) {
        const reports = [];
        const verify = () => reports.push(attempt(() => lib.verifyCertificate(fastCert, trustedSet, 'strict-pq-fast')));
        const grew = growth(build, () => patched(performance, 'now', { value: now }, () => {
          for (let i = 0; i < N; i++) verify();
        }), verify);
        reports.forEach((r, i) => assertTypedOrNone(r, `${build}, now ${what}, #${i}`));
        for (const r of reports) {
          assert.equal(r.value?.ok, true, `${build}, now ${what}: the certificate verifies`);
          // Timed with the clock captured at load, not the replaced one.
          for (const leg of r.value.legs) if (leg.verdict === 'valid') assert.ok(leg.micros > 0, `${build}, now ${what}: ${leg.kind} timed`);
        }
        assert.ok(grew <= BOUND, `${build}, now ${what}: WebAssembly memory grew by ${grew} bytes over ${N} calls`);
      }
    }
    assertHealthy('after the hostile performance.now');
  });

  test('a performance.now that calls the package again: never re-entered (REENTRANT_CALL or not called at all)', () => {
    for (const [build, lib] of BUILDS) {
      const inner = [];
      let depth = 0;
      const now = () => {
        if (depth < 3) {
          depth += 1;
          try {
            inner.push(attempt(() => lib.verifyCertificate(fastCert, trustedSet, 'strict-pq-fast')));
          } finally {
            depth -= 1;
          }
        }
        return 1;
      };
      const outer = patched(performance, 'now', { value: now }, () => attempt(() => lib.verifyCertificate(fastCert, trustedSet, 'strict-pq-fast')));
      assertTypedOrNone(outer, build);
      assert.equal(outer.value?.ok, true, `${build}: the outer certificate verifies`);
      for (const r of inner) assert.equal(r.error?.code, 'REENTRANT_CALL', `${build}: a re-entrant call gave ${r.error?.code ?? JSON.stringify(r.value?.ok)}`);
    }
  });

  test('a call made while another call runs is refused with REENTRANT_CALL; the outer call completes', () => {
    assert.throws(() => loader.call(() => loader.call(() => 1)), (e) => e.name === 'QuasarError' && e.code === 'REENTRANT_CALL');
    assert.equal(loader.call(() => 2), 2, 'the loader is free again');
    // A hostile DataView.prototype.setUint32, called while the registry's framed list is built
    // (inside the call), calls the package again.
    for (const [build, lib] of BUILDS) {
      const registry = new lib.MagnetarRegistry('shake192f', [{ id: magId, publicKey: magKey.publicKey, weight: 1 }]);
      const setUint32 = DataView.prototype.setUint32;
      const inner = [];
      const r = patched(DataView.prototype, 'setUint32', {
        value(...args) {
          inner.push(attempt(() => lib.mlDsa44.verify(sig, msg, kp.publicKey)));
          return Reflect.apply(setUint32, this, args);
        },
      }, () => attempt(() => registry.verifyBatch([{ id: magId, signature: magSig }], msg)));
      assertTypedOrNone(r, build);
      assert.deepEqual(r.value, [true], `${build}: the batch verifies`);
      // The package frames lists with intrinsics captured at load, so the replaced method is not
      // reached at all; were it reached, the call it makes must be refused.
      for (const x of inner) assert.equal(x.error?.code, 'REENTRANT_CALL', `${build}: the re-entrant call gave ${x.error?.code ?? x.value}`);
      registry.free();
    }
  });
});

// ------------------------------------------------------------------ 4. free() during a call

describe('free() during a call: USE_AFTER_FREE afterwards, never a null pointer', () => {
  const afterFree = (fn, what) =>
    assert.throws(fn, (e) => {
      assert.equal(e?.name, 'QuasarError', `${what}: ${e?.name}: ${e?.message}`);
      assert.equal(e.code, 'USE_AFTER_FREE', what);
      return true;
    });

  /** Runs `fn` with `hook` run once inside the next loader call, before the call's own work. */
  function hookedCall(hook, fn) {
    const real = loader.call;
    let armed = true;
    loader.call = (f) =>
      real(() => {
        if (armed) {
          armed = false;
          hook();
        }
        return f();
      });
    try {
      return attempt(fn);
    } finally {
      loader.call = real;
    }
  }

  test('every wrapper class of the full build, freed by a hook inside its own call', () => {
    const set = trustedSet;
    const make = {
      'mlDsa44.prepare': () => {
        const p = full.mlDsa44.prepare(kp.publicKey);
        return [p, () => p.verify(sig, msg)];
      },
      MagnetarRegistry: () => {
        const r = new full.MagnetarRegistry('shake192f', [{ id: magId, publicKey: magKey.publicKey, weight: 1 }]);
        return [r, () => r.size];
      },
      'MagnetarRegistry#verifyBatch': () => {
        const r = new full.MagnetarRegistry('shake192f', [{ id: magId, publicKey: magKey.publicKey, weight: 1 }]);
        return [r, () => r.verifyBatch([{ id: magId, signature: magSig }], msg)];
      },
      LightClient: () => {
        const c = new full.LightClient(set, 'pq-fast');
        return [c, () => c.epoch];
      },
      Party: () => {
        const p = full.lens.keygen({ curve: 'ed25519', session: label32('fd'), parties: [1, 2], threshold: 2, id: 1 });
        return [p, () => p.round];
      },
      LensKeyShare: () => {
        const d = full.lens.deal({ curve: 'ed25519', parties: [1, 2], threshold: 2, seed: label32('d') });
        const s = full.LensKeyShare.fromDealer('ed25519', d.shares[0].dealerShare, d.publicPackage);
        return [s, () => s.publicInfo()];
      },
    };
    for (const [what, mk] of Object.entries(make)) {
      const [obj, use] = mk();
      const r = hookedCall(() => obj.free(), use);
      // The call itself finished (the object is freed after it) or saw the free: USE_AFTER_FREE.
      if ('error' in r) afterFree(() => { throw r.error; }, `${what}: during the call`);
      afterFree(use, `${what}: after the call`);
      assert.doesNotThrow(() => obj.free(), `${what}: free() again`);
    }
    assert.equal(loader.poisoned, false);
    assertHealthy('after frees during calls');
  });

  test('a hostile built-in that frees the object during its call (both builds)', () => {
    for (const [build, lib] of BUILDS) {
      // Array.prototype.push: what Rust called to build a report (before the glue captured it).
      // Neither is reached any more (the glue and the package use what they captured at load);
      // where a hook does run, the object is gone afterwards and says USE_AFTER_FREE.
      const client = new lib.LightClient(trustedSet, 'pq-fast');
      let freed = false;
      const r = patched(Array.prototype, 'push', { value() { freed = true; client.free(); return 0; } }, () => attempt(() => client.verify(fastCert)));
      assertTypedOrNone(r, `${build} LightClient#verify`);
      if (!freed) assert.equal(r.value?.ok, true, `${build}: the certificate verifies`);
      assert.doesNotThrow(() => client.free(), `${build}: free() again`);
      afterFree(() => client.epoch, `${build} LightClient after the call`);
      // DataView.prototype.setUint32: called while the registry's framed list is built.
      const registry = new lib.MagnetarRegistry('shake192f', [{ id: magId, publicKey: magKey.publicKey, weight: 1 }]);
      const setUint32 = DataView.prototype.setUint32;
      let ran = false;
      const v = patched(DataView.prototype, 'setUint32', {
        value(...args) {
          ran = true;
          registry.free();
          return Reflect.apply(setUint32, this, args);
        },
      }, () => attempt(() => registry.verifyBatch([{ id: magId, signature: magSig }], msg)));
      assertTypedOrNone(v, `${build} MagnetarRegistry#verifyBatch`);
      if (!('error' in v)) assert.deepEqual(v.value, [true], `${build}: the batch that was running completes`);
      if (!ran) registry.free();
      afterFree(() => registry.size, `${build} MagnetarRegistry after the call`);
    }
    assertHealthy('after hostile frees');
  });
});
