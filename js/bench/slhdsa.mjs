// SLH-DSA in one Node process: our WASM builds against @noble/post-quantum (pure JS) and the
// peer Rust crates `fips205` 0.5 and RustCrypto `slh-dsa` 0.2.0-rc.5 compiled to WebAssembly
// (benches/wasm-peer). Verify for SHAKE-128s/192s/192f/256s and sign for SHAKE-192f; median
// and mean µs per op (lower is better), the speed-ups (higher is better) and our WASM ÷
// native ratio against `cargo bench --bench slhdsa` (its criterion results in
// target/criterion, per native Keccak backend: AVX-512VL/AVX2 "auto", AVX2 only, scalar).
//
// Every implementation gets the same fixed labelled keys, 64-byte messages, empty context and
// deterministic signatures (all verified by everyone first: a bench of a wrong answer is no
// bench). Implementations are timed in interleaved rounds, after a warm-up long enough for
// V8 to tier the WASM code up, so a change in machine load hits them alike.
//
// Run: npm run bench                  (builds our WASM and the peer module first)
//      node js/bench/slhdsa.mjs       (uses the existing pkg/ and target/wasm-peer/)
// Env: BENCH_SECONDS (default 1) — time budget per (set, operation, implementation).

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

import * as nobleSlh from '@noble/post-quantum/slh-dsa.js';

import * as full from '../index.js';
import * as light from '../verify.js';
import { sizes } from '../../scripts/build-wasm.mjs';
import { bytes } from '../support/bytes.mjs';
import { loadPeerModule } from './wasm-peer.mjs';
import { summary } from '../support/stats.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUDGET_MS = Number(process.env.BENCH_SECONDS ?? 1) * 1000;
const ROUNDS = 5;
const PEER_SETS = { '128s': 0, '192s': 1, '192f': 2, '256s': 3 };

/** What is timed: [set, operation]. */
const CASES = [
  ['192s', 'verify'],
  ['192f', 'verify'],
  ['128s', 'verify'],
  ['256s', 'verify'],
  ['192f', 'sign'],
];

/** The peer module: `fips205` (imp 0) and RustCrypto `slh-dsa` (imp 1) behind a C ABI. */
async function loadPeer() {
  const peer = await loadPeerModule();
  if (!peer) return null;
  const { x, put } = peer;
  return {
    verifier(imp, set, pk) {
      const h = x.peer_verifier(imp, PEER_SETS[set], ...put(pk));
      if (h < 0) throw new Error(`peer ${imp}: bad public key`);
      // Inputs are copied in once: the timing covers verification, as for ours.
      return (sig, msg) => {
        const [s, m] = [put(sig), put(msg)];
        return () => x.peer_verify(h, ...m, 0, 0, ...s) === 1;
      };
    },
    signer(imp, set, sk, sigLen) {
      const h = x.peer_signer(imp, PEER_SETS[set], ...put(sk));
      if (h < 0) throw new Error(`peer ${imp}: bad secret key`);
      const out = x.peer_alloc(sigLen);
      return (msg) => {
        const m = put(msg);
        return () => {
          const n = x.peer_sign(h, ...m, 0, 0, out, sigLen);
          return new Uint8Array(x.memory.buffer, out, n).slice();
        };
      };
    },
  };
}

/** Criterion's median (µs) for `group/id`, if `cargo bench --bench slhdsa` has run. */
function native(set, op, id) {
  const f = `${ROOT}target/criterion/slh-dsa-shake-${set}_${op}/${id}/new/estimates.json`;
  if (!existsSync(f)) return null;
  return JSON.parse(readFileSync(f, 'utf8')).median.point_estimate / 1e3;
}

/** Interleaved timing of `fns` (name → thunk): per-call samples, median and mean in µs. */
function timeAll(fns) {
  const names = Object.keys(fns);
  for (const n of names) {
    // Warm-up: at least 3 calls and 300 ms, so the WASM code is tiered up.
    const t0 = performance.now();
    for (let i = 0; i < 3 || performance.now() - t0 < 300; i++) fns[n]();
  }
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const n of names) {
      const t0 = performance.now();
      do {
        const a = process.hrtime.bigint();
        fns[n]();
        samples[n].push(Number(process.hrtime.bigint() - a) / 1e3);
      } while (performance.now() - t0 < BUDGET_MS / ROUNDS);
    }
  }
  return Object.fromEntries(names.map((n) => [n, summary(samples[n])]));
}

function cmd(bin, args) {
  try {
    return execFileSync(bin, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

const fmt = (x) => (x == null ? '—' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const ratio = (a, b) => (a == null || b == null ? '—' : (a / b).toFixed(2));
const speedup = (slow, fast) => (slow == null || fast == null ? '—' : `${(slow / fast).toFixed(1)}×`);

await full.init();
await light.init();
const peer = await loadPeer();
const load0 = os.loadavg();

const rows = [];
for (const [set, op] of CASES) {
  const ours = full[`slhDsaShake${set}`];
  const lite = light[`slhDsaShake${set}`];
  const noble = nobleSlh[`slh_dsa_shake_${set}`];
  const label = `quasar-pq/bench/slh-dsa-shake-${set}`;
  const { publicKey, secretKey } = ours.keygen(bytes(`${label}/seed`, ours.lengths.seed));
  const msg = bytes(`${label}/message`, 64);
  const sig = ours.sign(msg, secretKey, { extraEntropy: false });
  const peers = peer ? [['fips205', 0], ['rustcrypto', 1]] : [];
  let fns;
  if (op === 'verify') {
    fns = { ours: () => ours.verify(sig, msg, publicKey), light: () => lite.verify(sig, msg, publicKey), noble: () => noble.verify(sig, msg, publicKey) };
    for (const [name, imp] of peers) fns[name] = peer.verifier(imp, set, publicKey)(sig, msg);
    for (const [name, f] of Object.entries(fns)) if (f() !== true) throw new Error(`${set}: ${name} rejects the signature`);
  } else {
    const want = Buffer.from(sig).toString('hex');
    fns = { ours: () => ours.sign(msg, secretKey, { extraEntropy: false }), noble: () => noble.sign(msg, secretKey, { extraEntropy: false }) };
    for (const [name, imp] of peers) fns[name] = peer.signer(imp, set, secretKey, ours.lengths.signature)(msg);
    for (const [name, f] of Object.entries(fns)) if (Buffer.from(f()).toString('hex') !== want) throw new Error(`${set}: ${name} signs differently`);
  }
  const t = timeAll(fns);
  const nat = { auto: native(set, op, 'quasar'), avx2: native(set, op, 'quasar-avx2'), portable: native(set, op, 'quasar-portable') };
  rows.push({ set, op, t, nat });
  process.stderr.write(`SLH-DSA-SHAKE-${set} ${op}: ours ${fmt(t.ours.median)} µs, noble ${fmt(t.noble.median)} µs\n`);
}
const load1 = os.loadavg();

const cpus = os.cpus();
console.log('## SLH-DSA in Node: quasar-pq WASM vs @noble/post-quantum vs peer Rust crates in WASM\n');
console.log(`- Machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} logical cores (one used), ${Math.round(os.totalmem() / 2 ** 30)} GiB; load average ${load0[0].toFixed(1)} at the start, ${load1[0].toFixed(1)} at the end`);
console.log(`- OS: ${os.type()} ${os.release()} ${os.arch()}`);
console.log(`- Node ${process.version}; ${cmd('rustc', ['--version'])}; @noble/post-quantum ${JSON.parse(readFileSync(`${ROOT}node_modules/@noble/post-quantum/package.json`, 'utf8')).version}`);
console.log('- Builds: ours full = `cargo build --release --features full,hazmat` (opt-level 3, fat LTO), light = profile `wasm-light` (opt-level s); peers = benches/wasm-peer (`fips205` 0.5, `slh-dsa` 0.2.0-rc.5; opt-level 3, fat LTO); all wasm32 with simd128');
console.log(`- Date ${new Date().toISOString().slice(0, 10)}, commit ${cmd('git', ['rev-parse', '--short', 'HEAD'])}; command: \`npm run bench\` (native: \`cargo bench --bench slhdsa\`)`);
console.log('- Inputs: fixed labelled keys, 64-byte message, empty context, deterministic signing; every implementation checked on the same bytes first\n');
console.log('| set | op | ours µs/op (median) | ours mean | light build | noble | fips205 WASM | slh-dsa WASM | speed-up vs noble | vs fips205 | vs slh-dsa |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const { set, op, t } of rows) {
  const o = t.ours.median;
  console.log(
    `| SHAKE-${set} | ${op} | ${fmt(o)} | ${fmt(t.ours.mean)} | ${fmt(t.light?.median)} | ${fmt(t.noble.median)} | ${fmt(t.fips205?.median)} | ${fmt(t.rustcrypto?.median)} | ` +
      `**${speedup(t.noble.median, o)}** | ${speedup(t.fips205?.median, o)} | ${speedup(t.rustcrypto?.median, o)} |`,
  );
}
console.log('\nµs/op: lower is better; speed-ups (their time ÷ ours): higher is better.\n');
console.log('| set | op | ours WASM µs | native auto (AVX-512VL) µs | WASM ÷ native | native AVX2 µs | WASM ÷ AVX2 | native scalar µs | WASM ÷ scalar |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const { set, op, t, nat } of rows) {
  const o = t.ours.median;
  console.log(`| SHAKE-${set} | ${op} | ${fmt(o)} | ${fmt(nat.auto)} | ${ratio(o, nat.auto)} | ${fmt(nat.avx2)} | ${ratio(o, nat.avx2)} | ${fmt(nat.portable)} | ${ratio(o, nat.portable)} |`);
}
if (rows.some((r) => r.nat.auto == null)) console.log('\n(— : run `cargo bench --bench slhdsa` first for the native figures.)');
if (!peer) console.log('\n(The peer module did not build: `cargo build --release --target wasm32-unknown-unknown --manifest-path benches/wasm-peer/Cargo.toml --target-dir target/wasm-peer`.)');

console.log('\n| WASM module | raw bytes | gzip -9 bytes |');
console.log('| --- | ---: | ---: |');
for (const name of ['full', 'light']) {
  const z = sizes(`${ROOT}pkg/${name}/quasar_pq_bg.wasm`);
  console.log(`| ${name} (pkg/${name}/quasar_pq_bg.wasm) | ${z.raw.toLocaleString('en-US')} | ${z.gzip.toLocaleString('en-US')} |`);
}
