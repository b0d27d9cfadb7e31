#!/usr/bin/env node
// Checks (and where it can, installs) what the WASM build, the JS tests and the demo need:
//   - the Rust target wasm32-unknown-unknown (rustup target add),
//   - wasm-bindgen-cli at exactly the version of the `wasm-bindgen` crate in Cargo.lock,
//   - node_modules (npm ci, when missing or older than package-lock.json),
//   - with --browser: Debian's chromium at /usr/bin/chromium (for Playwright tests),
//   - with --cross: the aarch64 cross-test kit (rustup target aarch64-unknown-linux-gnu,
//     Debian's gcc-aarch64-linux-gnu, libc6-dev-arm64-cross and qemu-user),
//   - with --ct: Debian's valgrind (for the constant-flow check, scripts/ct-check.mjs);
//   - with --skip-bindgen: everything but wasm-bindgen-cli (for scripts that build no WASM
//     module, such as scripts/test-aarch64.mjs).
// The Debian packages missing are installed by one apt-get run. Idempotent and quick once
// everything is there. Any failure prints one sentence saying what failed and how to install
// it, then exits 1.
//
// Usage: node scripts/setup.mjs [--browser] [--cross] [--ct]

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root (the folder holding Cargo.toml and package.json). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The features `npm test` builds the workspace with (scripts/test.mjs). A test that runs cargo
 * itself uses the same ones, or cargo compiles the library a second time.
 */
export const TEST_FEATURES = 'quasar-pq/sim,quasar-pq/hazmat,quasar-pq/parallel';

/** Where Debian's chromium lives; the browser tests launch it through playwright-core. */
export const CHROMIUM = '/usr/bin/chromium';

const WASM_TARGET = 'wasm32-unknown-unknown';
const ARM_TARGET = 'aarch64-unknown-linux-gnu';

/** Print one clear sentence and exit 1. */
export function fail(sentence) {
  console.error(`setup: ${sentence}`);
  process.exit(1);
}

function log(msg) {
  console.log(`setup: ${msg}`);
}

/** Run a command, capturing output; never throws. */
function capture(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', cwd: ROOT, ...opts });
  return { ok: !r.error && r.status === 0, stdout: r.stdout ?? '', stderr: r.stderr ?? '', error: r.error };
}

/** Run a command with inherited stdio; returns true on success. */
function run(cmd, args, opts = {}) {
  console.log(`$ ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, ...opts });
  return !r.error && r.status === 0;
}

/** `$CARGO_HOME/bin`, where `cargo install` puts binaries. */
export function cargoBin() {
  return join(process.env.CARGO_HOME || join(homedir(), '.cargo'), 'bin');
}

/** The version of the `wasm-bindgen` crate locked in Cargo.lock (e.g. "0.2.130"). */
export function lockedWasmBindgenVersion() {
  const lockPath = join(ROOT, 'Cargo.lock');
  if (!existsSync(lockPath)) {
    fail('Cargo.lock is missing; run `cargo generate-lockfile` in the repository root first.');
  }
  const lock = readFileSync(lockPath, 'utf8');
  const m = lock.match(/\[\[package\]\]\s*\nname = "wasm-bindgen"\s*\nversion = "([^"]+)"/);
  if (!m) {
    fail('Cargo.lock has no `wasm-bindgen` package; add wasm-bindgen to Cargo.toml and run `cargo generate-lockfile`.');
  }
  return m[1];
}

/**
 * The path of a `wasm-bindgen` binary whose version is `version`, or null.
 * Looks on PATH first, then in `$CARGO_HOME/bin`.
 */
export function findWasmBindgen(version) {
  for (const cand of ['wasm-bindgen', join(cargoBin(), 'wasm-bindgen')]) {
    const r = capture(cand, ['--version']);
    if (r.ok && r.stdout.trim().split(/\s+/)[1] === version) return cand;
  }
  return null;
}

function ensureRustTarget(target) {
  const rustup = capture('rustup', ['target', 'list', '--installed']);
  if (rustup.ok) {
    if (rustup.stdout.split('\n').map((s) => s.trim()).includes(target)) return;
    log(`adding the Rust target ${target}`);
    if (!run('rustup', ['target', 'add', target])) {
      fail(`could not add the Rust target ${target}; install it with \`rustup target add ${target}\`.`);
    }
    return;
  }
  // No rustup: accept a toolchain whose sysroot already has the target.
  const sysroot = capture('rustc', ['--print', 'sysroot']);
  if (!sysroot.ok) fail('Rust is not installed; install it from https://rustup.rs (rustup, cargo, rustc).');
  if (!existsSync(join(sysroot.stdout.trim(), 'lib', 'rustlib', target))) {
    fail(`the Rust target ${target} is missing and rustup is not available; install rustup and run \`rustup target add ${target}\`.`);
  }
}

function ensureWasmBindgen() {
  const version = lockedWasmBindgenVersion();
  if (findWasmBindgen(version)) return;
  log(`installing wasm-bindgen-cli ${version} (the version in Cargo.lock); this takes a few minutes once`);
  if (run('cargo', ['install', 'wasm-bindgen-cli', '--version', version, '--locked'])) {
    if (findWasmBindgen(version)) return;
  } else {
    // The crate's own lock file can name a dependency version the registry mirror does not
    // serve; resolving afresh against the registry still gives the same wasm-bindgen-cli.
    log('the locked install failed; retrying without --locked');
    if (run('cargo', ['install', 'wasm-bindgen-cli', '--version', version]) && findWasmBindgen(version)) return;
  }
  fail(`could not install wasm-bindgen-cli ${version}; install it with \`cargo install wasm-bindgen-cli --version ${version} --locked\` and make sure ${cargoBin()} is on PATH.`);
}

function ensureNodeModules() {
  const lock = join(ROOT, 'package-lock.json');
  if (!existsSync(lock)) fail('package-lock.json is missing; run `npm install` in the repository root to create it.');
  const marker = join(ROOT, 'node_modules', '.package-lock.json');
  const fresh = existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs;
  if (fresh) return;
  log('installing node_modules from package-lock.json');
  if (!run('npm', ['ci', '--no-audit', '--no-fund'])) {
    fail('`npm ci` failed; check that Node.js >= 20 and npm are installed and the npm registry is reachable.');
  }
}

/**
 * Installs (as root, in one apt-get run) every Debian package of `wanted` whose `present`
 * paths are not all there: `wanted` is a list of { packages, present }.
 */
function ensureDebian(wanted) {
  const packages = wanted.filter((w) => !w.present.every((p) => existsSync(p))).flatMap((w) => w.packages);
  if (packages.length === 0) return;
  const present = wanted.flatMap((w) => w.present);
  const hint = `apt-get update && apt-get install -y ${packages.join(' ')}`;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root) fail(`${packages.join(', ')} not installed; install as root with \`${hint}\`.`);
  log(`installing Debian's ${packages.join(', ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!run('apt-get', ['update'], { env }) || !run('apt-get', ['install', '-y', ...packages], { env }) || !present.every((p) => existsSync(p))) {
    fail(`could not install ${packages.join(', ')}; install them with \`${hint}\`.`);
  }
}

/** Debian's chromium, for the Playwright tests. */
const CHROMIUM_KIT = { packages: ['chromium'], present: [CHROMIUM] };

/** What `.cargo/config.toml`'s aarch64 linker and runner need. */
const CROSS_KIT = {
  packages: ['gcc-aarch64-linux-gnu', 'libc6-dev-arm64-cross', 'qemu-user'],
  present: ['/usr/bin/aarch64-linux-gnu-gcc', '/usr/aarch64-linux-gnu/lib/libc.so.6', '/usr/bin/qemu-aarch64'],
};

/** Valgrind memcheck, for the constant-flow check (scripts/ct-check.mjs). */
const VALGRIND = { packages: ['valgrind'], present: ['/usr/bin/valgrind'] };

function main() {
  const args = process.argv.slice(2);
  for (const a of args) {
    if (!['--browser', '--cross', '--ct', '--skip-bindgen'].includes(a)) {
      fail(`unknown argument ${a}; the options are --browser, --cross, --ct and --skip-bindgen.`);
    }
  }
  if (!capture('cargo', ['--version']).ok) fail('cargo is not installed; install Rust from https://rustup.rs.');
  ensureRustTarget(WASM_TARGET);
  if (args.includes('--cross')) ensureRustTarget(ARM_TARGET);
  if (!args.includes('--skip-bindgen')) ensureWasmBindgen();
  ensureNodeModules();
  ensureDebian([
    ...(args.includes('--browser') ? [CHROMIUM_KIT] : []),
    ...(args.includes('--cross') ? [CROSS_KIT] : []),
    ...(args.includes('--ct') ? [VALGRIND] : []),
  ]);
  log('ok');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
