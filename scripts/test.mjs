#!/usr/bin/env node
// `npm test`: every test the repository has, then a summary of each step's wall-clock and CPU
// time (the CPU time of the step's whole process tree: what CI's 40-minute budget on 2 cores is
// spent on). A failed step stops the run after its stage.
//
//   setup                  Rust targets, wasm-bindgen-cli, node_modules, Debian packages
//   cargo test             the library, its integration suites, the CLI (the node clusters of
//                          cli/tests/node.rs are timed by round timeouts: alone on the machine)
//   then two tracks side by side:
//     wasm                 WASM modules: every module of the npm package, the demo's
//                          (scripts/build-wasm.mjs); then the Node tests: js/test/*.test.mjs
//                          but the files of ALONE, two at a time
//     native               constant-flow check (scripts/ct-check.mjs --quick), the lint gate
//                          (scripts/lint.mjs: rustfmt, clippy for every WASM module's features
//                          and every native target, rustdoc), aarch64 under qemu (the FIPS 204 /
//                          205 vector suites cross-built, scripts/test-aarch64.mjs)
//   browser tests          the files of ALONE, one at a time, nothing else running
//
// Why this shape (measured on fresh clones, 2 cores; the summary prints the same columns): the
// test build keeps both cores busy by itself, so nothing runs beside it. Alone, the WASM modules
// used 1.2 cores (each module's fat-LTO link is one thread) and the constant-flow check 1.5;
// the lint gate and aarch64 need nothing the WASM track makes, so they fill the idle core (an
// earlier attempt paired the lint gate and the WASM builds with the test build instead and
// measured no faster). Side by side the two tracks keep 1.96 cores busy (2,808 s of CPU in
// 1,432 s; npm test 2,348 s in all, against ~3,180 s one step after the other): from here only
// less work makes CI shorter, not more overlap. The Node test files but the browser ones are
// CPU-bound and independent (each wait in them is a hang ceiling scaled to the machine's load,
// js/support/patience.mjs), so two run at a time (one at a time they used 0.9 cores), beside
// whatever the native track has left; the browser tests time rounds and long tasks, so they
// run with the machine to themselves.
//
// The tracks share the target directory: cargo locks per profile folder (`target/<profile>`,
// `target/<triple>/<profile>`), and the WASM track builds only the `wasm-light` and `release`
// profiles (and `target/baseline/`), the native track `ct-quick` and `debug` (where the Node
// tests' README-examples build, already built by `cargo test`, may wait for its lock).
//
// Usage: node scripts/test.mjs

import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT, TEST_FEATURES } from './setup.mjs';

const node = (script, ...args) => [process.execPath, [join('scripts', script), ...args]];

const TEST_DIR = join('js', 'test');
const testFiles = readdirSync(join(ROOT, TEST_DIR)).filter((f) => f.endsWith('.test.mjs')).sort();
/**
 * The test files that drive headless Chromium (js/support/chromium.mjs): each times something on
 * the wall clock (round timeouts, the page's long-task budget, a devnet's block pace), so they
 * run one at a time with nothing beside them.
 */
const ALONE = testFiles.filter((f) => /support\/chromium\.mjs/.test(readFileSync(join(ROOT, TEST_DIR, f), 'utf8')));
const nodeTests = (files, concurrency) => [
  process.execPath,
  ['--test', `--test-concurrency=${concurrency}`, ...files.map((f) => join(TEST_DIR, f))],
];

/** A stage is one step, or tracks (each a list of steps) that run side by side. */
const STAGES = [
  { name: 'setup', cmd: node('setup.mjs', '--browser', '--ct', '--cross') },
  { name: 'cargo test', cmd: ['cargo', ['test', '-p', 'quasar-pq', '-p', 'quasar-cli', '--features', TEST_FEATURES]] },
  {
    tracks: {
      wasm: [
        { name: 'WASM modules', cmd: node('build-wasm.mjs') },
        { name: 'Node tests', cmd: nodeTests(testFiles.filter((f) => !ALONE.includes(f)), 2) },
      ],
      native: [
        { name: 'constant-flow check', cmd: node('ct-check.mjs', '--quick') },
        { name: 'lint gate', cmd: node('lint.mjs', '--gate') },
        { name: 'aarch64 under qemu', cmd: node('test-aarch64.mjs') },
      ],
    },
  },
  { name: 'browser tests', cmd: nodeTests(ALONE, 1) },
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

// `--measure CMD ARGS…`: runs one command with inherited output and prints its process tree's CPU
// seconds on a last line of its own — how a step beside another gets its own CPU figure (the
// children counters of the runner would mix the two).
const CPU_MARK = '@@quasar-test-cpu ';
if (process.argv[2] === '--measure') {
  const [cmd, ...args] = process.argv.slice(3);
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  const cpu = childrenCpu();
  if (cpu !== null) console.log(`${CPU_MARK}${cpu}`);
  if (r.error) console.error(`cannot run ${cmd}: ${r.error.message}`);
  process.exit(r.error ? 1 : r.signal ? 1 : r.status);
}

const clock = () => new Date().toISOString().slice(11, 19);
const label = ([cmd, args]) => [cmd === process.execPath ? 'node' : cmd, ...args].join(' ');
const verdictOf = (code, signal, error) =>
  error ? `cannot run: ${error.message}` : signal ? `killed by ${signal}` : code === 0 ? null : `exit status ${code}`;
const results = [];
const children = new Set();

/** Runs one step alone, its output straight to ours. */
function runAlone(step) {
  console.log(`\n== ${clock()} ${step.name}: ${label(step.cmd)}`);
  const t0 = Date.now();
  const cpu0 = childrenCpu();
  const [cmd, args] = step.cmd;
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  const cpu1 = childrenCpu();
  const why = verdictOf(r.status, r.signal, r.error);
  results.push({
    name: step.name,
    ok: why === null,
    wall: Math.round((Date.now() - t0) / 1000),
    cpu: cpu0 === null || cpu1 === null ? null : Math.round(cpu1 - cpu0),
    why,
  });
  return why === null;
}

/** A track's step as the summary names it. */
const trackStepName = (step, tag) => `${step.name} [${tag}]`;

/** Runs one step of track `tag` under `--measure`, each output line tagged; resolves to its success. */
function runTagged(step, tag) {
  console.log(`[${tag}] == ${clock()} ${step.name}: ${label(step.cmd)}`);
  const t0 = Date.now();
  const [cmd, args] = step.cmd;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'test.mjs'), '--measure', cmd, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    children.add(child);
    let cpu = null;
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
        if (line.startsWith(CPU_MARK)) cpu = Math.round(Number(line.slice(CPU_MARK.length)));
        else console.log(`[${tag}] ${line}`);
      });
    }
    let ended = false;
    const done = (code, signal, error) => {
      if (ended) return;
      ended = true;
      children.delete(child);
      const why = verdictOf(code, signal, error);
      const wall = Math.round((Date.now() - t0) / 1000);
      results.push({ name: trackStepName(step, tag), ok: why === null, wall, cpu, why });
      console.log(`[${tag}] == ${clock()} ${step.name}: ${why ?? 'ok'} (${wall} s)`);
      resolve(why === null);
    };
    child.on('error', (e) => done(null, null, e));
    child.on('close', (code, signal) => done(code, signal, null));
  });
}

/** Runs a track's steps in order; a failure skips the rest of the track. */
async function track(tag, steps) {
  let ok = true;
  for (const step of steps) {
    if (ok) ok = await runTagged(step, tag);
    else results.push({ name: trackStepName(step, tag), skipped: true });
  }
  return ok;
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

const started = Date.now();
let failed = false;
for (const stage of STAGES) {
  if (failed) {
    const names = stage.tracks
      ? Object.entries(stage.tracks).flatMap(([tag, steps]) => steps.map((step) => trackStepName(step, tag)))
      : [stage.name];
    for (const name of names) results.push({ name, skipped: true });
    continue;
  }
  if (stage.tracks) {
    console.log(`\n== ${clock()} side by side: ${Object.entries(stage.tracks).map(([t, s]) => `[${t}] ${s.map((x) => x.name).join(' → ')}`).join('  ‖  ')}`);
    const t0 = Date.now();
    const cpu0 = childrenCpu();
    const oks = await Promise.all(Object.entries(stage.tracks).map(([tag, steps]) => track(tag, steps)));
    const cpu1 = childrenCpu();
    results.push({
      name: '(the two tracks together)',
      ok: true,
      wall: Math.round((Date.now() - t0) / 1000),
      cpu: cpu0 === null || cpu1 === null ? null : Math.round(cpu1 - cpu0),
      total: true,
    });
    failed = oks.includes(false);
  } else {
    failed = !runAlone(stage);
  }
}

console.log(`\nnpm test summary: ${Math.round((Date.now() - started) / 1000)} s wall`);
for (const r of results) {
  const verdict = r.skipped ? 'skipped' : r.total ? '' : r.ok ? 'ok' : 'FAILED';
  const time = r.skipped ? '' : ` (${r.wall} s wall${r.cpu == null ? '' : `, ${r.cpu} s CPU`})`;
  console.log(`  ${verdict.padEnd(7)} ${r.name}${time}${r.why ? `: ${r.why}` : ''}`);
}
const failures = results.filter((r) => !r.skipped && !r.ok);
if (failures.length > 0) {
  console.error(`\nnpm test failed at: ${failures.map((r) => r.name).join(', ')} (search the output above for "== … <step>").`);
  process.exit(1);
}
