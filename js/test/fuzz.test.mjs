// The JS half of the standing fuzz suite: every exported function, method, getter,
// static and constructor of `quasar-pq`, `quasar-pq/verify` and the protocol layer, called with
// seeded hostile arguments (js/support/fuzz/: hostile.mjs makes them, shapes.mjs has one line per
// export, engine.mjs runs and checks the calls, fixtures.mjs makes the valid material, realm.mjs
// the polluted-realm class).
//
//   short run (part of `npm test`):  node --test js/test/fuzz.test.mjs
//   long run:                        npm run fuzz      (FUZZ_ITERS rounds, default 400)
//   any size or seed:                FUZZ_ITERS=<rounds> FUZZ_SEED=<u32> node --test js/test/fuzz.test.mjs
//
// It prints its counts and fails on: an export without a shape (or a shape naming nothing); a
// call that traps, poisons the instance, throws anything but TypeError, RangeError or a
// QuasarError with a code the library defines; a worker that makes no progress (one call) for
// minutes — a hang, by a ceiling scaled to this machine's load (js/support/patience.mjs), never a
// speed check; a verifier saying true for a changed input; a call
// in a polluted realm (js/support/fuzz/realm.mjs) stating anything else than in a clean one; a
// call made with its base arguments in a realm whose built-ins were changed after load
// (js/support/fuzz/builtins.mjs: a lying typed-array length, a replaced push, performance.now,
// getRandomValues, Table#get, a setter on Object.prototype, ...) that behaves otherwise than in
// the intact realm; a hook that calls the package back and is neither served nor refused with
// REENTRANT_CALL; a batch after which an ML-DSA round trip, a key prepared before the run, a
// protocol run of parties fed bad inboxes, or free() fails; WebAssembly memory of either
// instance growing by more than MEMORY_BOUND after the warm-up round.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { Worker } from 'node:worker_threads';

import { TAMPERINGS } from '../support/fuzz/builtins.mjs';
import { SLOWNESS, patience } from '../support/patience.mjs';

// 12 rounds in `npm test` (each calls every export with fresh hostile arguments): CI's 40-minute
// budget; `npm run fuzz` runs 400.
const SHORT = 12;
const LONG = 400;
const iters = Number(process.env.FUZZ_ITERS ?? (process.env.npm_lifecycle_event === 'fuzz' ? LONG : SHORT));
const seed = Number(process.env.FUZZ_SEED ?? 0x51a5a5) >>> 0;
/** A worker whose heartbeat stops this long is stuck in one call (the slowest call takes ~1 s). */
const WATCHDOG_MS = patience(300);
/** The setup (fixtures, base calls: a minute on a busy machine) beats rarely, so it gets longer. */
const SETUP_MS = patience(900);
/**
 * How much either instance's WebAssembly memory may grow, in bytes, from the end of the warm-up
 * round to the end of the run: 1 MiB (16 pages), whatever the number of rounds. A leak on any
 * path the fuzzer takes grows it with the rounds; the allocator's own first growth happens in
 * the warm-up.
 */
const MEMORY_BOUND = 1 << 20;
/** How much the worker's JS heap (after a full GC) may grow over the run. */
const HEAP_BOUND = 64 << 20;

let report;
let ms;

before(async () => {
  const heartbeat = new SharedArrayBuffer(4 + 1024);
  const counter = new Int32Array(heartbeat, 0, 1);
  const started = performance.now();
  const worker = new Worker(new URL('../support/fuzz/worker.mjs', import.meta.url), {
    workerData: { seed, iters, heartbeat },
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
  });
  report = await new Promise((resolve, reject) => {
    let last = -1;
    let since = performance.now();
    const watchdog = setInterval(() => {
      const now = Atomics.load(counter, 0);
      if (now !== last) {
        last = now;
        since = performance.now();
      } else {
        const bytes = new Uint8Array(heartbeat, 4);
        const label = new TextDecoder().decode(bytes.slice(0, bytes.indexOf(0)));
        const limit = now === 0 || label.startsWith('setup:') ? SETUP_MS : WATCHDOG_MS;
        if (performance.now() - since > limit) {
          clearInterval(watchdog);
          worker.terminate();
          reject(new Error(`a hang: no progress for ${Math.round(limit / 1000)} s (slowness ${SLOWNESS.toFixed(1)}) in ${label || 'the worker before its first call'}`));
        }
      }
    }, 250);
    worker.once('message', (m) => {
      clearInterval(watchdog);
      resolve(m);
    });
    worker.once('error', (e) => {
      clearInterval(watchdog);
      reject(e);
    });
    worker.once('exit', (code) => {
      clearInterval(watchdog);
      reject(new Error(`the fuzz worker exited (${code}) without a report`));
    });
  });
  ms = performance.now() - started;
  await worker.terminate();
  const c = report.counts;
  const mib = (b) => (b / (1 << 20)).toFixed(2);
  const codes = Object.entries(c.codes ?? {}).sort((a, b) => b[1] - a[1]);
  const lines = [
    `fuzz js: seed 0x${seed.toString(16)}, FUZZ_ITERS=${iters} rounds, ${report.sites} sites (${report.callSites} called directly + Party#step), ${(ms / 1000).toFixed(1)} s`,
    `fuzz js: ${c.calls} hostile calls (after ${report.callSites} base calls): ${c.returned} returned, thrown ${JSON.stringify(c.thrown)}, ${c.slow} slow, ${report.failures.length} failures`,
    `fuzz js: ${c.verdicts} verdicts on changed inputs, ${c.verdicts - c.restated} of them false and ${c.restated} true on inputs that state the same (sameStatement); ${c.bySite['Party#step'] ?? 0} steps; ${c.runs} scenario runs completed after ${c.fed} bad inboxes fed to their victims`,
    `fuzz js: ${c.polluted} calls in a polluted realm (Object.prototype / Array.prototype given option names, ok, code, quorum fields, curve names, list elements; built-ins replaced), each compared with the clean realm`,
    `fuzz js: QuasarError codes ${codes.map(([k, n]) => `${k} ${n}`).join(', ')}`,
    `fuzz js: ${c.builtins} calls under ${Object.keys(c.byBuiltin ?? {}).length} kinds of hostile built-in after load; hooks calling the package back: ${c.reentered?.normal ?? 0} served (outside a call), ${c.reentered?.refused ?? 0} refused (REENTRANT_CALL)`,
    `fuzz js: WebAssembly memory full ${mib(report.memoryBefore?.full ?? 0)} → ${mib(report.memoryAfter?.full ?? 0)} MiB, light ${mib(report.memoryBefore?.light ?? 0)} → ${mib(report.memoryAfter?.light ?? 0)} MiB (at start ${mib(report.memoryAtStart?.full ?? 0)} / ${mib(report.memoryAtStart?.light ?? 0)}); JS heap ${mib(report.heapBefore ?? 0)} → ${mib(report.heapAfter ?? 0)} MiB`,
  ];
  for (const l of lines) console.log(l);
  for (const f of report.failures.slice(0, 30)) console.log(`  ${f}`);
});

test('every export of quasar-pq, quasar-pq/verify and the protocol layer has a fuzz shape', () => {
  const { missing, stale } = report.coverage;
  assert.deepEqual(missing, [], `exports without a line in js/support/fuzz/shapes.mjs:\n  ${missing.join('\n  ')}`);
  assert.deepEqual(stale, [], `lines of js/support/fuzz/shapes.mjs that name no export:\n  ${stale.join('\n  ')}`);
  assert.ok(report.sites >= 100, `${report.sites} sites`);
});

test('every call returned a sane value or threw a typed error; every batch check passed', () => {
  assert.ok(report.counts.calls > 0, 'no calls were made');
  assert.deepEqual(report.failures, []);
  for (const key of report.keys) assert.ok((report.counts.bySite[key] ?? 0) >= iters, `${key}: ${report.counts.bySite[key] ?? 0} calls`);
  assert.ok(report.counts.runs >= report.batches.length * 4, `${report.counts.runs} scenario runs completed`);
  assert.ok(report.counts.polluted >= iters, `${report.counts.polluted} calls in a polluted realm`);
});

test('every hostile built-in after load was installed around some call', () => {
  for (const t of TAMPERINGS) assert.ok((report.counts.byBuiltin[t.name] ?? 0) >= 1, `never used: ${t.name}`);
});

test(`WebAssembly memory of both instances grows by at most ${MEMORY_BOUND} bytes after the warm-up`, () => {
  for (const k of ['full', 'light']) {
    const grew = report.memoryAfter[k] - report.memoryBefore[k];
    assert.ok(grew <= MEMORY_BOUND, `${k}: grew by ${grew} bytes`);
  }
  for (const b of report.batches) for (const k of ['full', 'light']) assert.ok(b.memory[k] - report.memoryBefore[k] <= MEMORY_BOUND, `${k} after ${b.calls} calls`);
});

test(`the JS heap grows by at most ${HEAP_BOUND} bytes`, () => {
  assert.ok(report.heapAfter - report.heapBefore <= HEAP_BOUND, `grew by ${report.heapAfter - report.heapBefore} bytes`);
});
