#!/usr/bin/env node
// `npm test`: every test the repository has, one step after the other, stopping at the first
// that fails, then a summary of each step's wall-clock and CPU time (the CPU time of the
// step's whole process tree, from /proc/self/stat; what CI's 40-minute budget on 2 cores is
// spent on):
//
//   setup                   Rust targets, wasm-bindgen-cli, node_modules, Debian packages
//   lint gate               rustfmt, clippy (every WASM module's features, every native
//                           target), rustdoc (scripts/lint.mjs)
//   cargo test              the library, its integration suites, the CLI
//   constant-flow check     every secret path under Valgrind memcheck, one opt-level
//   WASM modules            every module of the npm package, the demo's (scripts/build-wasm.mjs)
//   Node and browser tests  js/test/, headless Chromium included
//   aarch64 under qemu      the FIPS 204 / 205 vector suites cross-built (scripts/test-aarch64.mjs)
//
// Sequential for now. Running the native and the WASM steps as two tracks side by side measured
// no faster (3,011 s for a fresh clone: the lint gate and the WASM builds ran beside the test
// build, which alone keeps both cores busy — it took 1,794 s there against 895 s alone) and made
// the timing-sensitive runs (the node clusters of cli/tests/node.rs, the browser tests) share
// the machine with a build. The summary's CPU column shows what a better pairing could use: the
// WASM modules and the Node tests leave part of the second core idle.
//
// Usage: node scripts/test.mjs

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, TEST_FEATURES } from './setup.mjs';

const FEATURES = ['--features', TEST_FEATURES];
const node = (script, ...args) => [process.execPath, [join('scripts', script), ...args]];

const STEPS = [
  { name: 'setup', cmd: node('setup.mjs', '--browser', '--ct', '--cross') },
  { name: 'lint gate', cmd: node('lint.mjs', '--gate') },
  { name: 'cargo test', cmd: ['cargo', ['test', '-p', 'quasar-pq', '-p', 'quasar-cli', ...FEATURES]] },
  { name: 'constant-flow check', cmd: node('ct-check.mjs', '--quick') },
  { name: 'WASM modules', cmd: node('build-wasm.mjs') },
  { name: 'Node and browser tests', cmd: [process.execPath, ['--test', 'js/test/']] },
  { name: 'aarch64 under qemu', cmd: node('test-aarch64.mjs') },
];

/** CPU seconds of this process's waited-for children so far (Linux; null elsewhere). */
function childrenCpu() {
  try {
    // Fields after the command name (which may hold spaces, so split after its ')').
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // cutime and cstime are fields 16 and 17 of the whole line: 14 and 15 here. Clock ticks
    // are 100 per second on every Linux this runs on (USER_HZ).
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

const clock = () => new Date().toISOString().slice(11, 19);
const started = Date.now();
const results = [];
let failed = null;
for (const step of STEPS) {
  if (failed) {
    results.push({ name: step.name, verdict: 'skipped' });
    continue;
  }
  const [cmd, args] = step.cmd;
  console.log(`\n== ${clock()} ${step.name}: ${[cmd === process.execPath ? 'node' : cmd, ...args].join(' ')}`);
  const t0 = Date.now();
  const cpu0 = childrenCpu();
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  const cpu1 = childrenCpu();
  const ok = !r.error && r.status === 0;
  const why = r.error ? `cannot run ${cmd}: ${r.error.message}` : r.signal ? `killed by ${r.signal}` : `exit status ${r.status}`;
  results.push({
    name: step.name,
    verdict: ok ? 'ok' : 'FAILED',
    wall: Math.round((Date.now() - t0) / 1000),
    cpu: cpu0 === null || cpu1 === null ? null : Math.round(cpu1 - cpu0),
    why: ok ? undefined : why,
  });
  if (!ok) failed = step.name;
}

console.log(`\nnpm test summary: ${Math.round((Date.now() - started) / 1000)} s wall`);
for (const r of results) {
  const time = r.verdict === 'skipped' ? '' : ` (${r.wall} s wall${r.cpu === null ? '' : `, ${r.cpu} s CPU`})`;
  console.log(`  ${r.verdict.padEnd(7)} ${r.name}${time}${r.why ? `: ${r.why}` : ''}`);
}
if (failed) {
  console.error(`\nnpm test failed at "${failed}" (its output ends just above the summary).`);
  process.exit(1);
}
