#!/usr/bin/env node
// The lint gate: formatting, clippy with Cargo.toml's `[lints]` table at zero
// warnings for every build the crate ships (the light and the full WebAssembly module, and
// natively every target: the library, its tests, benches and bins, and the `quasar` CLI
// in cli/, in one clippy run), and rustdoc with warnings denied.
//
// Usage: node scripts/lint.mjs [--gate]
// Runs every step even after one fails, prints a summary, and exits 1 if any step failed or
// warned. `npm test` (so CI) runs it as `--gate`, `npm run lint` without: the same steps.
// Respects CARGO_TARGET_DIR. The WebAssembly steps need `rustup target add
// wasm32-unknown-unknown` (scripts/setup.mjs installs it).

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { BUILDS } from './build-wasm.mjs';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const WASM = ['--target', 'wasm32-unknown-unknown'];
const DENY = ['--', '-D', 'warnings'];

// Every library step names the package (`-p quasar-pq`): the CLI is a default workspace
// member, and its dependency features (sim, hazmat) would otherwise join the library's build —
// the light module would be linted with the threshold stack in it. The native clippy step takes
// both packages at once; the CLI (`cli/`) has its own rustdoc step.
const LIB = ['-p', 'quasar-pq'];
const CLI = ['-p', 'quasar-cli'];
const STEPS = [
  { name: 'rustfmt', args: ['fmt', '--all', '--check'] },
  // Every WebAssembly module scripts/build-wasm.mjs builds, with its features (the demo's too:
  // the full module plus the misbehaviour hooks).
  ...Object.entries(BUILDS).map(([module, b]) => ({
    name: `clippy ${module} wasm`,
    args: ['clippy', ...LIB, '--lib', ...b.featureArgs, ...WASM, ...DENY],
  })),
  // Every native target of both packages in one run (the dependencies are checked once): the
  // library (as a library and with its unit tests), its tests, benches and bins, and the
  // `quasar` CLI's. The CLI's features of the library (std, threshold, sim, hazmat) are within
  // these. `bench-internals`: the SLH-DSA bench forces the Keccak backends.
  {
    name: 'clippy all targets',
    args: ['clippy', ...LIB, ...CLI, '--all-targets', '--features', 'quasar-pq/sim,quasar-pq/hazmat,quasar-pq/bench-internals', '--message-format=json-diagnostic-rendered-ansi'],
    json: true,
  },
  {
    name: 'rustdoc (library)',
    args: ['doc', ...LIB, '--no-deps', '--lib', '--features', 'sim,hazmat'],
    env: { RUSTDOCFLAGS: [process.env.RUSTDOCFLAGS, '-D warnings'].filter(Boolean).join(' ') },
  },
  // The CLI's module docs (its private items too: they are the only docs it has).
  {
    name: 'rustdoc (cli)',
    args: ['doc', ...CLI, '--no-deps', '--bins', '--document-private-items'],
    env: { RUSTDOCFLAGS: [process.env.RUSTDOCFLAGS, '-D warnings'].filter(Boolean).join(' ') },
  },
];

/**
 * Prints the warnings and errors of cargo's JSON output once each (a file shared by many
 * test crates warns once per crate) and counts them.
 */
function diagnostics(stdout) {
  const seen = new Set();
  let failing = 0;
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      continue;
    }
    if (msg.reason !== 'compiler-message') continue;
    const m = msg.message;
    if (m.level !== 'warning' && m.level !== 'error') continue;
    const span = m.spans.find((s) => s.is_primary) ?? m.spans[0];
    if (!span) {
      // A summary ("N warnings generated") or a crate-level error.
      if (m.level === 'error') failing += 1;
      continue;
    }
    const key = `${span.file_name}:${span.line_start}:${span.column_start}:${m.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    failing += 1;
    process.stdout.write(m.rendered ?? `${key}\n`);
  }
  return failing;
}

const results = [];
for (const step of STEPS) {
  console.log(`\n== ${step.name}: cargo ${step.args.join(' ')}`);
  const started = Date.now();
  const run = spawnSync('cargo', step.args, {
    cwd: ROOT,
    stdio: step.json ? ['inherit', 'pipe', 'inherit'] : 'inherit',
    env: { ...process.env, ...step.env },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  let ok = run.status === 0;
  let note = '';
  if (step.json && run.stdout) {
    const failing = diagnostics(run.stdout);
    ok = ok && failing === 0;
    note = `${failing} warning(s)`;
  }
  results.push({ name: step.name, ok, note, seconds: Math.round((Date.now() - started) / 1000) });
  if (run.error) console.error(`cannot run cargo: ${run.error.message}`);
}

console.log('\nlint summary');
for (const r of results) {
  console.log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds} s)${r.note ? `: ${r.note}` : ''}`);
}
const failed = results.filter((r) => !r.ok);
if (failed.length > 0) {
  console.error(`\n${failed.length} lint step(s) failed: ${failed.map((r) => r.name).join(', ')}`);
  process.exit(1);
}
