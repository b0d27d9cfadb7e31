#!/usr/bin/env node
// The lint gate: formatting, clippy with Cargo.toml's `[lints]` table at zero
// warnings for every build the crate ships (native, the light and the full WebAssembly
// module) and for every target (tests, benches, bins), and rustdoc with warnings denied.
//
// Usage: node scripts/lint.mjs [--gate]
// Runs every step even after one fails, prints a summary, and exits 1 if any step failed.
// `--gate` runs only the steps `npm test` (so CI) requires today: formatting, clippy on the
// native library and rustdoc on the library, each at zero warnings. The WebAssembly bindings
// and the test, bench and bin targets still carry warnings under the lint table (`npm run
// lint` lists them); each joins the gate when it is clean.
// Respects CARGO_TARGET_DIR. The WebAssembly steps need `rustup target add
// wasm32-unknown-unknown` (scripts/setup.mjs installs it).

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const WASM = ['--target', 'wasm32-unknown-unknown'];
const DENY = ['--', '-D', 'warnings'];

const STEPS = [
  { name: 'rustfmt', args: ['fmt', '--check'], gate: true },
  { name: 'clippy native lib', args: ['clippy', '--lib', '--features', 'sim,hazmat', ...DENY], gate: true },
  {
    name: 'clippy light wasm',
    args: ['clippy', '--lib', '--no-default-features', '--features', 'light', ...WASM, ...DENY],
  },
  { name: 'clippy full wasm', args: ['clippy', '--lib', '--features', 'full,hazmat', ...WASM, ...DENY] },
  // `bench-internals`: the SLH-DSA bench forces the Keccak backends.
  { name: 'clippy all targets', args: ['clippy', '--all-targets', '--features', 'sim,hazmat,bench-internals', ...DENY] },
  {
    name: 'rustdoc (library)',
    args: ['doc', '--no-deps', '--lib', '--features', 'sim,hazmat'],
    gate: true,
    env: { RUSTDOCFLAGS: [process.env.RUSTDOCFLAGS, '-D warnings'].filter(Boolean).join(' ') },
  },
];

const gate = process.argv.includes('--gate');
const results = [];
for (const step of STEPS.filter((s) => !gate || s.gate)) {
  console.log(`\n== ${step.name}: cargo ${step.args.join(' ')}`);
  const started = Date.now();
  const run = spawnSync('cargo', step.args, {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ...step.env },
  });
  const ok = run.status === 0;
  results.push({ name: step.name, ok, seconds: Math.round((Date.now() - started) / 1000) });
  if (run.error) console.error(`cannot run cargo: ${run.error.message}`);
}

console.log('\nlint summary');
for (const r of results) console.log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds} s)`);
const failed = results.filter((r) => !r.ok);
if (failed.length > 0) {
  console.error(`\n${failed.length} lint step(s) failed: ${failed.map((r) => r.name).join(', ')}`);
  process.exit(1);
}
