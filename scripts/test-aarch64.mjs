#!/usr/bin/env node
// Cross-tests the crate for aarch64 (the Apple Silicon architecture) on an x86-64 host:
// builds the test binaries for aarch64-unknown-linux-gnu and runs them under qemu-user
// (linker and runner in .cargo/config.toml). Covers the FIPS 204 / FIPS 205 vectors, the
// interop tests against the peer crates (whose SIMD backends are chosen per target in
// Cargo.toml) and the KAT regeneration — the code paths without x86 SIMD.
//
// By default (CI, `npm test`) only what proves each backend: the FIPS 204 / FIPS 205 vector suites
// (the scalar NTT and the NEON / scalar Keccak against the NIST vectors). With
// QUASAR_AARCH64_FULL=1 also the KAT regeneration (every algorithm's bytes equal to x86's, 100 s
// under qemu) and the interop suites against the peer crates (about 100 s more; the same peers
// are checked natively on x86).
//
// Usage: node scripts/test-aarch64.mjs   (installs what is missing via setup.mjs --cross)

import { spawnSync } from 'node:child_process';
import { ROOT } from './setup.mjs';

const BACKEND = ['fips'];
const FULL = process.env.QUASAR_AARCH64_FULL === '1';
const TESTS = FULL ? [...BACKEND, 'kats', 'interop'] : BACKEND;

// tests/kats.rs spawns the genkat binary; under emulation it needs the runner too.
const RUNNER = 'qemu-aarch64 -L /usr/aarch64-linux-gnu';

function run(cmd, args) {
  console.log(`$ ${[cmd, ...args].join(' ')}`);
  const env = { ...process.env, QUASAR_TEST_RUNNER: RUNNER };
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, env });
  if (r.error || r.status !== 0) process.exit(r.status || 1);
}

// The peer crates and criterion only the interop suites and the benches run: the vector
// suites link them (every dev-dependency is built for any test) but never call them, so by
// default they are built unoptimised — a cross build shorter by minutes.
const UNUSED = [
  'libcrux-ml-dsa', 'libcrux-sha3', 'libcrux-intrinsics', 'fips204', 'fips205', 'ml-dsa', 'slh-dsa', 'ed25519-dalek', 'k256',
  // The curve arithmetic those two pull in (and BLS12-381), as unused by the vector suites.
  'curve25519-dalek', 'crypto-bigint', 'elliptic-curve', 'ecdsa', 'bls12_381', 'pairing',
];
const quick = FULL
  ? ['--features', 'sim,hazmat']
  : [
      // The vector suites need no threshold stack either.
      '--no-default-features',
      '--features',
      'std',
      ...UNUSED.flatMap((c) => ['--config', `profile.dev.package."${c}".opt-level=0`]),
    ];

run(process.execPath, ['scripts/setup.mjs', '--cross', '--skip-bindgen']);
const started = Date.now();
run('cargo', [
  'test',
  '-p',
  'quasar-pq',
  '--target',
  'aarch64-unknown-linux-gnu',
  // The KATs need the simulator and the misbehaviour hooks (and build the genkat binary).
  ...quick,
  '--no-fail-fast',
  ...TESTS.flatMap((t) => ['--test', t]),
]);
console.log(
  `test-aarch64: the test binaries ${TESTS.join(', ')} passed under qemu-aarch64 in ${((Date.now() - started) / 1000).toFixed(0)} s` +
    (FULL ? '' : ' (the KAT regeneration and the interop suites with QUASAR_AARCH64_FULL=1)'),
);
