#!/usr/bin/env node
// Builds the WASM modules and their JS bindings:
//   pkg/full/   release profile,     --features full                    (everything; the package)
//   pkg/light/  wasm-light profile,  --no-default-features --features light  (verify only; the package)
//   pkg/demo/   release profile,     --features full,hazmat             (the demo and the JS tests
//               only, never shipped: the full module plus the misbehaviour hooks that make *one*
//               party cheat, armed through js/support/demo.mjs)
// The demo build shares the release profile's dependencies with full (hazmat changes only this
// crate's features), so it costs one more compile of this crate (about a minute of CPU);
// full and demo write the same cdylib path, so a warm rebuild of both recompiles the crate
// twice.
// with `cargo build -p quasar-pq --lib --target wasm32-unknown-unknown` then `wasm-bindgen --target web`, whose
// JS glue scripts/harden-glue.mjs then rewrites to call only built-ins it captured at load (the
// build fails if the glue is not the shape it knows).
// Prints raw and gzip sizes of the .wasm files. No wasm-opt: measured with npm binaryen 132,
// `-Oz` saves ~1.3 KB gzipped on the light module and `-O3` gains no speed on the full one,
// not worth a 100 MB dev dependency.
//
// After the full build it writes sample/ (scripts/sample-chain.mjs): the small test chain the
// package ships for its light-client example, made by that build from a fixed seed.
//
// It also bundles pkg/libp2p.js (scripts/bundle-libp2p.mjs): js-libp2p for the browser processes
// of a `quasar node` cluster (www/node/), never part of the npm package.
//
// Usage: node scripts/build-wasm.mjs [full|light|demo|libp2p ...]   (default: all)

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { GLUE_VERSION, hardenGlue } from './harden-glue.mjs';
import { ROOT, fail, findWasmBindgen, lockedWasmBindgenVersion } from './setup.mjs';

const TARGET = 'wasm32-unknown-unknown';

/** The builds. `profileDir` is cargo's output folder for the profile. */
export const BUILDS = {
  full: {
    cargoArgs: ['--release', '--features', 'full'],
    profileDir: 'release',
  },
  light: {
    cargoArgs: ['--profile', 'wasm-light', '--no-default-features', '--features', 'light'],
    profileDir: 'wasm-light',
  },
  demo: {
    cargoArgs: ['--release', '--features', 'full,hazmat'],
    profileDir: 'release',
  },
};

function run(cmd, args, opts = {}) {
  console.log(`$ ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, ...opts });
  return !r.error && r.status === 0;
}

/** Raw and gzip (level 9) sizes of a file, in bytes. */
export function sizes(path) {
  const bytes = readFileSync(path);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

function build(name, wasmBindgen) {
  const b = BUILDS[name];
  // `-p quasar-pq`: the library alone, with exactly these features (the CLI, a default
  // workspace member, would add its own).
  const ok = run('cargo', ['build', '-p', 'quasar-pq', '--lib', '--target', TARGET, ...b.cargoArgs]);
  if (!ok) fail(`cargo build of the ${name} WASM module failed (see the compiler output above).`);
  const targetDir = process.env.CARGO_TARGET_DIR || join(ROOT, 'target');
  const input = join(targetDir, TARGET, b.profileDir, 'quasar_pq.wasm');
  if (!existsSync(input)) fail(`cargo did not produce ${input}; check the [lib] crate-type in Cargo.toml includes "cdylib".`);
  const outDir = join(ROOT, 'pkg', name);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const bgOk = run(wasmBindgen, [
    '--target', 'web',
    '--out-dir', outDir,
    '--out-name', 'quasar_pq',
    '--remove-name-section',
    '--remove-producers-section',
    input,
  ]);
  if (!bgOk) fail(`wasm-bindgen failed on the ${name} module (see its output above).`);
  const glue = join(outDir, 'quasar_pq.js');
  try {
    writeFileSync(glue, hardenGlue(readFileSync(glue, 'utf8')));
  } catch (e) {
    rmSync(outDir, { recursive: true, force: true });
    fail(`the ${name} glue could not be hardened: ${e.message}`);
  }
  return join(outDir, 'quasar_pq_bg.wasm');
}

function main() {
  const names = process.argv.slice(2);
  for (const n of names) if (!(n in BUILDS) && n !== 'libp2p') fail(`unknown build ${n}; choose from ${Object.keys(BUILDS).join(', ')}.`);
  const version = lockedWasmBindgenVersion();
  if (version !== GLUE_VERSION) fail(`scripts/harden-glue.mjs knows the glue of wasm-bindgen ${GLUE_VERSION}, Cargo.lock has ${version}: check the new glue and update the transform's tables.`);
  const wasmBindgen = findWasmBindgen(version);
  if (!wasmBindgen) fail(`wasm-bindgen-cli ${version} is not installed; run \`npm run setup\` (or \`cargo install wasm-bindgen-cli --version ${version} --locked\`).`);
  const outputs = {};
  for (const name of names.length ? names.filter((n) => n !== 'libp2p') : Object.keys(BUILDS)) outputs[name] = build(name, wasmBindgen);
  // The browser process of a `quasar node` cluster (www/node/): js-libp2p, bundled.
  if ((!names.length || names.includes('libp2p')) && !run(process.execPath, [join(ROOT, 'scripts', 'bundle-libp2p.mjs')])) {
    fail('bundling js-libp2p (scripts/bundle-libp2p.mjs) failed (see its output above).');
  }
  if (outputs.full && !run(process.execPath, [join(ROOT, 'scripts', 'sample-chain.mjs')])) {
    fail('writing sample/ with the full build failed (see its output above).');
  }
  console.log('\nWASM module sizes (bytes):');
  console.log('| build | raw | gzip -9 |');
  console.log('| --- | ---: | ---: |');
  for (const [name, path] of Object.entries(outputs)) {
    const s = sizes(path);
    console.log(`| ${name} (pkg/${name}/quasar_pq_bg.wasm) | ${s.raw} | ${s.gzip} |`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
