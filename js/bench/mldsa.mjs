// ML-DSA in one Node process: our WASM builds against @noble/post-quantum (pure JS) and
// libcrux-ml-dsa compiled to WebAssembly (benches/wasm-peer, its portable code with simd128
// enabled, as ours).
// keygen / sign / verify for ML-DSA-44/65/87; median and mean µs per op (lower is better),
// ops/s (higher is better) and the speed-up of ours over noble. Also the sizes of our
// .wasm files. Inputs come from fixed labels, so reruns time the same work; both libraries
// get the same seeds, messages and signing randomness (their signatures are byte-identical,
// so the rejection loops run the same number of times).
//
// Run: npm run bench        (builds the WASM first)
//      node js/bench/mldsa.mjs   (uses the existing pkg/)
// Env: BENCH_SECONDS (default 1) — time budget per (set, operation, implementation).

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';

import * as full from '../index.js';
import * as light from '../verify.js';
import * as verifier from '../entry/mldsa-verify.js';
import { sizes } from '../../scripts/build-wasm.mjs';
import { bytes } from '../support/bytes.mjs';
import { summary } from '../support/stats.mjs';
import { loadPeerModule } from './wasm-peer.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUDGET_NS = BigInt(Math.round(Number(process.env.BENCH_SECONDS ?? 1) * 1e9));
const MIN_ITERS = 15;
const MAX_ITERS = 5000;
const N_INPUTS = 64; // distinct labelled inputs cycled through


/** Time `fn(i)` per call until the budget is spent; returns median and mean in µs. */
function time(fn) {
  for (let i = 0; i < 3; i++) fn(i); // warm-up
  const samples = [];
  const start = process.hrtime.bigint();
  for (let i = 0; i < MAX_ITERS; i++) {
    const t0 = process.hrtime.bigint();
    fn(i);
    const t1 = process.hrtime.bigint();
    samples.push(Number(t1 - t0) / 1e3);
    if (i + 1 >= MIN_ITERS && t1 - start > BUDGET_NS) break;
  }
  return summary(samples);
}

function cmd(bin, args) {
  try {
    return execFileSync(bin, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

function nobleVersion() {
  try {
    return JSON.parse(readFileSync(`${ROOT}node_modules/@noble/post-quantum/package.json`, 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

await full.init();
await light.init();
await verifier.init();
const peer = await loadPeerModule();
if (!peer) throw new Error('benches/wasm-peer did not build (see cargo\'s output above)');

/** libcrux-ml-dsa in WebAssembly for one level: keygen, sign and verify over our encodings. */
function libcrux(level) {
  const { x, put } = peer;
  const out = (n) => new Uint8Array(x.memory.buffer, x.peer_out(), n).slice();
  return {
    keygen: (seed) => out(x.peer_mldsa_keygen(level, put(seed)[0])),
    // Inputs copied in once: the timing covers the operation, as for ours.
    signer: (sk, msg, ctx, rnd) => {
      const a = [...put(sk), ...put(msg), ...put(ctx), put(rnd)[0]];
      return () => out(x.peer_mldsa_sign(level, ...a));
    },
    verifier: (pk, msg, ctx, sig) => {
      const a = [...put(pk), ...put(msg), ...put(ctx), ...put(sig)];
      return () => x.peer_mldsa_verify(level, ...a) === 1;
    },
  };
}

const SETS = [
  { name: 'ML-DSA-44', ours: full.mlDsa44, light: light.mlDsa44, verifier: verifier.mlDsa44, noble: ml_dsa44, libcrux: libcrux(44) },
  { name: 'ML-DSA-65', ours: full.mlDsa65, light: light.mlDsa65, verifier: verifier.mlDsa65, noble: ml_dsa65, libcrux: libcrux(65) },
  { name: 'ML-DSA-87', ours: full.mlDsa87, light: light.mlDsa87, verifier: verifier.mlDsa87, noble: ml_dsa87, libcrux: libcrux(87) },
];

const rows = [];
for (const s of SETS) {
  const label = `quasar-pq/bench/${s.name}`;
  const seeds = Array.from({ length: N_INPUTS }, (_, i) => bytes(`${label}/seed/${i}`, 32));
  const msgs = Array.from({ length: N_INPUTS }, (_, i) => bytes(`${label}/msg/${i}`, 256));
  const rnds = Array.from({ length: N_INPUTS }, (_, i) => bytes(`${label}/rnd/${i}`, 32));
  const context = bytes(`${label}/ctx`, 16);
  const { publicKey, secretKey } = s.ours.keygen(seeds[0]);
  const sigs = msgs.map((m, i) => s.ours.sign(m, secretKey, { context, extraEntropy: rnds[i] }));
  for (let i = 0; i < N_INPUTS; i++) {
    if (!s.noble.verify(sigs[i], msgs[i], publicKey, { context })) throw new Error(`${s.name}: noble rejects our signature ${i}`);
  }
  // libcrux: the same keys from the same seed, the same signature from the same randomness.
  const pair = s.libcrux.keygen(seeds[0]);
  if (Buffer.compare(pair, Buffer.concat([publicKey, secretKey])) !== 0) throw new Error(`${s.name}: libcrux keygen differs`);
  const lcSigners = msgs.map((m, i) => s.libcrux.signer(secretKey, m, context, rnds[i]));
  const lcVerifiers = msgs.map((m, i) => s.libcrux.verifier(publicKey, m, context, sigs[i]));
  if (Buffer.compare(lcSigners[0](), sigs[0]) !== 0) throw new Error(`${s.name}: libcrux signs differently`);
  if (!lcVerifiers.every((v) => v())) throw new Error(`${s.name}: libcrux rejects our signatures`);
  const k = (i) => i % N_INPUTS;
  const bench = {
    keygen: {
      ours: () => time((i) => s.ours.keygen(seeds[k(i)])),
      noble: () => time((i) => s.noble.keygen(seeds[k(i)])),
      libcrux: () => time((i) => s.libcrux.keygen(seeds[k(i)])),
    },
    sign: {
      ours: () => time((i) => s.ours.sign(msgs[k(i)], secretKey, { context, extraEntropy: rnds[k(i)] })),
      noble: () => time((i) => s.noble.sign(msgs[k(i)], secretKey, { context, extraEntropy: rnds[k(i)] })),
      libcrux: () => time((i) => lcSigners[k(i)]()),
    },
    verify: {
      ours: () => time((i) => s.ours.verify(sigs[k(i)], msgs[k(i)], publicKey, { context })),
      light: () => time((i) => s.light.verify(sigs[k(i)], msgs[k(i)], publicKey, { context })),
      verifier: () => time((i) => s.verifier.verify(sigs[k(i)], msgs[k(i)], publicKey, { context })),
      noble: () => time((i) => s.noble.verify(sigs[k(i)], msgs[k(i)], publicKey, { context })),
      libcrux: () => time((i) => lcVerifiers[k(i)]()),
    },
  };
  for (const [op, impls] of Object.entries(bench)) {
    const ours = impls.ours();
    const lightT = impls.light ? impls.light() : null;
    const verifierT = impls.verifier ? impls.verifier() : null;
    const noble = impls.noble();
    const lc = impls.libcrux();
    rows.push({ set: s.name, op, ours, light: lightT, verifier: verifierT, noble, libcrux: lc });
    process.stderr.write(`${s.name} ${op}: ours ${fmt(ours.median)} µs, libcrux ${fmt(lc.median)} µs, noble ${fmt(noble.median)} µs\n`);
  }
}

const cpus = os.cpus();
console.log('## ML-DSA in Node: quasar-pq WASM vs @noble/post-quantum\n');
console.log(`- Machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} logical cores (one used), ${Math.round(os.totalmem() / 2 ** 30)} GiB`);
console.log(`- OS: ${os.type()} ${os.release()} ${os.arch()}`);
console.log(`- Node ${process.version}; ${cmd('rustc', ['--version'])}; @noble/post-quantum ${nobleVersion()}`);
console.log('- Builds: full = `cargo build --release --features full` (opt-level 3, fat LTO), light = profile `wasm-light` (opt-level s), both through `wasm-bindgen --target web`');
console.log(`- Date ${new Date().toISOString().slice(0, 10)}, commit ${cmd('git', ['rev-parse', '--short', 'HEAD'])}; command: \`npm run bench\``);
console.log('- Inputs: fixed labelled seeds, 256-byte messages, 16-byte context, hedged signing with the same labelled randomness for both libraries\n');
console.log('| set | op | ours µs/op (median) | ours mean | libcrux WASM µs/op | libcrux ÷ ours | noble µs/op (median) | noble mean | noble ÷ ours |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  console.log(
    `| ${r.set} | ${r.op} | ${fmt(r.ours.median)} | ${fmt(r.ours.mean)} | ${fmt(r.libcrux.median)} | ${(r.libcrux.median / r.ours.median).toFixed(2)}× | ` +
      `${fmt(r.noble.median)} | ${fmt(r.noble.mean)} | ${(r.noble.median / r.ours.median).toFixed(1)}× |`,
  );
}
console.log('\nµs/op: lower is better; ops/s and speed-up: higher is better. Medians; means include rejection-loop variance.\n');
console.log('| set | light module verify µs/op (median) | ML-DSA verifier module (quasar-pq/verify/mldsa) | its speed-up vs noble | vs libcrux WASM |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const r of rows.filter((x) => x.light)) {
  console.log(
    `| ${r.set} | ${fmt(r.light.median)} | ${fmt(r.verifier.median)} | ${(r.noble.median / r.verifier.median).toFixed(1)}× | ${(r.libcrux.median / r.verifier.median).toFixed(2)}× |`,
  );
}

console.log('\n| WASM module | raw bytes | gzip -9 bytes |');
console.log('| --- | ---: | ---: |');
for (const name of ['full', 'light', 'mldsa-verify']) {
  const z = sizes(`${ROOT}pkg/${name}/quasar_pq_bg.wasm`);
  console.log(`| ${name} (pkg/${name}/quasar_pq_bg.wasm) | ${z.raw.toLocaleString('en-US')} | ${z.gzip.toLocaleString('en-US')} |`);
}
