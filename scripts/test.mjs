#!/usr/bin/env node
// `npm test`: every test the repository has, in two tracks that run side by side.
//
//   setup            Debian packages, Rust targets, node_modules (scripts/setup.mjs)
//   native track     cargo test: build, then run  →  constant-flow check  →  aarch64 under qemu
//   wasm track       wasm-bindgen-cli  →  lint gate  →  the WASM modules  →  Node and browser tests
//
// Why two tracks: most of the WASM side runs on one core (each module's fat-LTO link, clippy's
// front end per feature set, the Node test files one after the other), while the native test
// build keeps both busy; side by side they finish in about the time of the longer one. They
// share the target directory (cargo locks per profile folder: the test build's `debug/` and the
// modules' `wasm-light/` and `release/` never wait on each other) except for the lint gate, whose
// `debug/` checks get a folder of their own (`<target>/lint`) so they never wait for `cargo test`.
// The Node tests start once `cargo test` has run: they use its build (the `quasar` binary, the
// examples), and neither the node clusters of cli/tests/node.rs nor the browser tests should
// share the machine with the other's timing-sensitive runs.
//
// Each line of output carries its track's tag. A failed step skips the rest of its track (and
// the Node tests, if the native build failed); the other track runs on. The summary at the end
// lists every step, its time and its verdict; the exit status is 1 if any step failed.
//
// Usage: node scripts/test.mjs

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from './setup.mjs';

const TARGET = process.env.CARGO_TARGET_DIR || join(ROOT, 'target');
const FEATURES = ['--features', 'quasar-pq/sim,quasar-pq/hazmat,quasar-pq/parallel'];
const CARGO_TEST = ['test', '-p', 'quasar-pq', '-p', 'quasar-cli', ...FEATURES];
const node = (script, ...args) => [process.execPath, [join('scripts', script), ...args]];

const SETUP = { name: 'setup', cmd: node('setup.mjs', '--browser', '--ct', '--cross', '--skip-bindgen') };
const TRACKS = {
  native: [
    { name: 'cargo test (build)', cmd: ['cargo', [...CARGO_TEST, '--no-run']] },
    { name: 'cargo test', cmd: ['cargo', CARGO_TEST] },
    { name: 'constant-flow check', cmd: node('ct-check.mjs', '--quick') },
    { name: 'aarch64 under qemu', cmd: node('test-aarch64.mjs') },
  ],
  wasm: [
    { name: 'wasm-bindgen-cli', cmd: node('setup.mjs') },
    { name: 'lint gate', cmd: node('lint.mjs', '--gate'), env: { CARGO_TARGET_DIR: join(TARGET, 'lint') } },
    { name: 'WASM modules', cmd: node('build-wasm.mjs') },
    { name: 'Node and browser tests', cmd: [process.execPath, ['--test', 'js/test/']], after: 'cargo test' },
  ],
};

const started = Date.now();
const results = [];
const children = new Set();
const clock = () => new Date().toISOString().slice(11, 19);

// Each step's success, settled when it ends (false if skipped), for the steps that wait on it.
const outcome = new Map();
for (const steps of Object.values(TRACKS)) {
  for (const step of steps) {
    let settle;
    const promise = new Promise((resolve) => (settle = resolve));
    outcome.set(step.name, { promise, settle });
  }
}

/** Runs `step`, each output line tagged with `tag`; resolves to whether it exited 0. */
function run(step, tag) {
  const [cmd, args] = step.cmd;
  const t0 = Date.now();
  console.log(`[${tag}] ${clock()} == ${step.name}: ${[cmd === process.execPath ? 'node' : cmd, ...args].join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...step.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.add(child);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => console.log(`[${tag}] ${line}`));
    }
    let ended = false;
    const done = (ok, why) => {
      if (ended) return;
      ended = true;
      children.delete(child);
      const seconds = Math.round((Date.now() - t0) / 1000);
      results.push({ track: tag, name: step.name, verdict: ok ? 'ok' : 'FAILED', seconds, why });
      console.log(`[${tag}] ${clock()} == ${step.name}: ${ok ? 'ok' : `FAILED (${why})`} in ${seconds} s`);
      resolve(ok);
    };
    child.on('error', (e) => done(false, `cannot run ${cmd}: ${e.message}`));
    child.on('close', (code, signal) => done(code === 0, signal ? `killed by ${signal}` : `exit status ${code}`));
  });
}

/** Runs a track's steps in order; a failure skips the rest. */
async function track(tag, steps) {
  let ok = true;
  for (const step of steps) {
    if (ok && step.after) {
      console.log(`[${tag}] ${clock()} == ${step.name}: waits for "${step.after}"`);
      ok = await outcome.get(step.after).promise;
    }
    if (ok) ok = await run(step, tag);
    else results.push({ track: tag, name: step.name, verdict: 'skipped', seconds: 0 });
    outcome.get(step.name).settle(ok);
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    }
    process.exit(1);
  });
}

if (await run(SETUP, 'setup')) {
  await Promise.all(Object.entries(TRACKS).map(([tag, steps]) => track(tag, steps)));
}

console.log(`\nnpm test summary (${Math.round((Date.now() - started) / 1000)} s in all)`);
for (const r of results) console.log(`  ${r.verdict.padEnd(7)} ${`[${r.track}]`.padEnd(9)} ${r.name} (${r.seconds} s)${r.why ? `: ${r.why}` : ''}`);
const failed = results.filter((r) => r.verdict === 'FAILED');
if (failed.length > 0) {
  console.error(`\n${failed.length} step(s) failed: ${failed.map((r) => r.name).join(', ')} (search this output for "[<track>] … == <step>")`);
  process.exit(1);
}
