#!/usr/bin/env node
// Builds the WASM modules and their JS bindings, each from this crate with a set of features
// (Cargo.toml: one `wasm-*` feature per export family, `light` for the verify half), so a page
// loads only what it needs (package.json `exports`; the entry points are js/entry/):
//   pkg/mldsa-verify/   ML-DSA verification                       (quasar-pq/verify/mldsa)
//   pkg/slhdsa-verify/  SLH-DSA verification                      (quasar-pq/verify/slhdsa)
//   pkg/light/          certificates + light client, ML-DSA, SLH-DSA, Magnetar verification
//                                                                  (quasar-pq/verify)
//   pkg/sign/           ML-DSA and SLH-DSA keygen/sign/verify, key formats (quasar-pq/sign)
//   pkg/cert/           certificates, light client, Magnetar, BLS  (quasar-pq/cert)
//   pkg/corona/         Corona parties                              (quasar-pq/corona)
//   pkg/lens-<curve>/   Lens (FROST) parties and keyrings on one curve: ed25519, secp256k1,
//                       ristretto255                                (quasar-pq/lens/<curve>)
//   pkg/pulsar/         Pulsar custody parties, keyrings, envelopes (quasar-pq/pulsar)
//   pkg/committee/      Pulsar committee parties, ML-DSA verify     (quasar-pq/committee)
//   pkg/full/           everything in one module, the test chain too (quasar-pq)
//   pkg/demo/           full plus the misbehaviour hooks that make *one* party cheat, armed
//                       through js/support/demo.mjs: the demo and the JS tests only, never shipped.
// Profile, allocator and wasm-opt level are chosen per module by measurement (README, "WASM
// modules"): `wasm-light` is opt-level "s" with BLS at "z"; the verify modules use the small
// size-class allocator (crate/src/wasm/heap.rs) instead of dlmalloc; wasm-opt (npm binaryen)
// runs its size passes without inlining (SIZE below) on every module but full and demo (a
// minute each on the 3 MB modules, for what the package's entry points no longer load).
// Each is `cargo build -p quasar-pq --lib --target wasm32-unknown-unknown` then `wasm-bindgen
// --target web`, whose JS glue scripts/harden-glue.mjs then rewrites to call only built-ins
// it captured at load (the build fails if the glue is not the shape it knows). Modules that
// share a profile write the same cargo output, one after the other.
//
// After the full build it writes sample/ (scripts/sample-chain.mjs): the small test chain the
// package ships for its light-client example, made by that build from a fixed seed.
//
// It also bundles pkg/libp2p.js (scripts/bundle-libp2p.mjs): js-libp2p for the browser processes
// of a `quasar node` cluster (www/node/), never part of the npm package.
//
// Usage: node scripts/build-wasm.mjs [module|libp2p ...]   (default: all)

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { GLUE_VERSION, hardenGlue } from './harden-glue.mjs';
import { ROOT, fail, findWasmBindgen, lockedWasmBindgenVersion } from './setup.mjs';

const TARGET = 'wasm32-unknown-unknown';

/** `wasm-opt` flags: the features rustc's wasm32 target and wasm-bindgen use. */
const WASM_FEATURES = [
  '--enable-simd', '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
  '--enable-mutable-globals', '--enable-reference-types', '--enable-multivalue',
];
// Size passes without binaryen's inlining: LLVM has inlined already, and binaryen's inlining of
// one-caller functions made every gzipped module larger (light 115,241 → 121,622 bytes at `-Oz`;
// 111,760 with these flags; measured 2026-12-03, binaryen 132).
const SIZE = ['-Os', '--flexible-inline-max-function-size', '0', '--one-caller-inline-max-function-size', '0'];

/**
 * A module: cargo `profile` (also its output folder), the crate `features` (without the default
 * ones unless `defaults`), the wasm-opt flags `opt` (none: not run) and the gzip -9 bytes it may
 * weigh, `budget` (js/test/module-size.test.mjs). `featureArgs` is the part of cargo's arguments
 * every build of it shares (scripts/lint.mjs checks each module with them). With `baseline`, a
 * second build without simd128 (`BASELINE`) is shipped beside it for engines without WebAssembly
 * SIMD, under the same budget.
 */
function module(profile, features, { budget, opt, defaults = false, baseline = false }) {
  return {
    profile,
    featureArgs: [...(defaults ? [] : ['--no-default-features']), '--features', features.join(',')],
    opt,
    budget,
    baseline,
  };
}

/**
 * The file name of a module's build without simd128, beside `quasar_pq_bg.wasm` in its folder;
 * its JS glue is the SIMD build's (the build checks they are identical), so the entry point
 * instantiates either with the same glue (js/common.js `makeInit`).
 */
export const BASELINE = 'quasar_pq_baseline_bg.wasm';

/** The modules, by name (`pkg/<name>/`). */
export const BUILDS = {
  'mldsa-verify': module('wasm-light', ['light', 'wasm-mldsa', 'wasm-small-heap'], { opt: SIZE, budget: 20_480, baseline: true }),
  'slhdsa-verify': module('wasm-light', ['light', 'wasm-slhdsa', 'wasm-small-heap'], { opt: SIZE, budget: 32_000, baseline: true }),
  light: module('wasm-light', ['light', 'wasm-mldsa', 'wasm-slhdsa', 'wasm-magnetar', 'wasm-cert', 'wasm-small-heap'], {
    opt: SIZE,
    budget: 112_640,
    baseline: true,
  }),
  sign: module('wasm-light', ['std', 'wasm-mldsa', 'wasm-slhdsa', 'wasm-keyfmt'], { opt: SIZE, budget: 98_000 }),
  cert: module('wasm-light', ['std', 'wasm-cert', 'wasm-magnetar', 'wasm-bls'], { opt: SIZE, budget: 132_000 }),
  corona: module('wasm-light', ['std', 'wasm-corona'], { opt: SIZE, budget: 88_000 }),
  'lens-ed25519': module('wasm-light', ['std', 'wasm-lens', 'ed25519', 'fast-dealing'], { opt: SIZE, budget: 184_000 }),
  'lens-secp256k1': module('wasm-light', ['std', 'wasm-lens', 'secp256k1'], { opt: SIZE, budget: 194_000 }),
  'lens-ristretto255': module('wasm-light', ['std', 'wasm-lens', 'ristretto255', 'fast-dealing'], { opt: SIZE, budget: 184_000 }),
  pulsar: module('wasm-light', ['std', 'wasm-pulsar', 'wasm-mldsa-verify'], { opt: SIZE, budget: 200_000 }),
  committee: module('wasm-light', ['std', 'wasm-committee', 'wasm-mldsa-verify'], { opt: SIZE, budget: 116_000 }),
  full: module('release', ['full'], { defaults: true, budget: 1_016_000 }),
  demo: module('release', ['full', 'hazmat'], { defaults: true, budget: 1_021_000 }),
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

/**
 * Compiles module `name` and runs wasm-bindgen on it into `outDir` (emptied first). `simd`
 * false: without simd128, in a target directory of its own (other rustflags would otherwise
 * rebuild every dependency twice per run).
 */
function compile(name, wasmBindgen, outDir, simd) {
  const b = BUILDS[name];
  // `-p quasar-pq`: the library alone, with exactly these features (the CLI, a default
  // workspace member, would add its own).
  const profile = b.profile === 'release' ? ['--release'] : ['--profile', b.profile];
  let targetDir = process.env.CARGO_TARGET_DIR || join(ROOT, 'target');
  let env = process.env;
  if (!simd) {
    targetDir = join(targetDir, 'baseline');
    // RUSTFLAGS replaces .cargo/config.toml's `+simd128` for this build only.
    env = { ...process.env, RUSTFLAGS: '-C target-feature=-simd128' };
  }
  const ok = run('cargo', ['build', '-p', 'quasar-pq', '--lib', '--target', TARGET, '--target-dir', targetDir, ...profile, ...b.featureArgs], { env });
  if (!ok) fail(`cargo build of the ${name} WASM module failed (see the compiler output above).`);
  const input = join(targetDir, TARGET, b.profile, 'quasar_pq.wasm');
  if (!existsSync(input)) fail(`cargo did not produce ${input}; check the [lib] crate-type in Cargo.toml includes "cdylib".`);
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
  const wasm = join(outDir, 'quasar_pq_bg.wasm');
  // Nor may wasm-opt add SIMD to a build without it (simdInstructions checks the result).
  const features = simd ? WASM_FEATURES : WASM_FEATURES.filter((f) => f !== '--enable-simd');
  if (b.opt && !run(binaryen('wasm-opt'), [...b.opt, ...features, wasm, '-o', wasm])) {
    fail(`wasm-opt failed on the ${name} module (see its output above); \`npm ci\` installs binaryen.`);
  }
  return { wasm, glue };
}

function build(name, wasmBindgen) {
  const outDir = join(ROOT, 'pkg', name);
  const { wasm, glue } = compile(name, wasmBindgen, outDir, true);
  if (BUILDS[name].baseline) {
    const tmp = join(ROOT, 'pkg', `.${name}-baseline`);
    const base = compile(name, wasmBindgen, tmp, false);
    const simdOps = simdInstructions(base.wasm);
    if (simdOps > 0) fail(`the ${name} module built without simd128 still has ${simdOps} SIMD instructions.`);
    const same = readFileSync(base.glue, 'utf8') === readFileSync(glue, 'utf8');
    if (same) writeFileSync(join(outDir, BASELINE), readFileSync(base.wasm));
    rmSync(tmp, { recursive: true, force: true });
    if (!same) fail(`the ${name} module's glue differs without simd128; the entry point cannot share it.`);
  }
  return wasm;
}

/**
 * How many SIMD instructions the module at `path` holds, read from binaryen's text form (its
 * validation does not refuse them without `--enable-simd`: it takes the features from the
 * module's own section).
 */
function simdInstructions(path) {
  const r = spawnSync(binaryen('wasm-dis'), [path], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.error || r.status !== 0) fail(`wasm-dis could not read ${path}: ${r.error?.message ?? r.stderr}`);
  return (r.stdout.match(/\b(v128|[if](8x16|16x8|32x4|64x2))\./g) ?? []).length;
}

/** npm binaryen's `tool` (wasm-opt, wasm-dis; a devDependency, which `npm ci` installs). */
function binaryen(tool) {
  const bin = join(ROOT, 'node_modules', '.bin', tool);
  if (!existsSync(bin)) fail(`${bin} is missing: run \`npm ci\` (binaryen is a devDependency).`);
  return bin;
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
    if (BUILDS[name].baseline) {
      const b = sizes(join(ROOT, 'pkg', name, BASELINE));
      console.log(`| ${name} without SIMD (pkg/${name}/${BASELINE}) | ${b.raw} | ${b.gzip} |`);
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
