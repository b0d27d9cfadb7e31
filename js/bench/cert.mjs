// Finality certificates in Node: a K-validator certificate (BLS + Pulsar ML-DSA-65 + Magnetar
// SHAKE-192s, ⌊2K/3⌋ + 1 signers on every leg, the native devnet's) verified under pq-fast and
// pq-heavy in the light and the full WebAssembly builds, single-threaded. `LightClient#verify`
// checks it against a set whose keys were validated once (what a light client does per block);
// `verifyCertificate` takes the set's bytes and validates its keys on every call, so its total
// includes that, and its report gives each leg's own time (`micros`, measured inside the module
// with performance.now()). Also a light-client update
// across the epoch change (a fresh client: the new set's BLS keys, proofs and ML-DSA keys
// are validated once, inside the update).
//
// Run: node js/bench/cert.mjs   (builds the chain once with the native CLI into
//                                target/bench-cert/k<K>; K = 21 by default, BENCH_K to change)
// Env: BENCH_SECONDS (default 2) — time budget per case. Not part of the package.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import * as full from '../index.js';
import * as light from '../verify.js';
import { summary } from '../support/stats.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const K = Number(process.env.BENCH_K ?? 21);
const BUDGET_MS = Number(process.env.BENCH_SECONDS ?? 2) * 1000;
const DIR = `${ROOT}target/bench-cert/k${K}`;

function chain() {
  if (!existsSync(`${DIR}/set-1.qvst`)) {
    const args = ['run', '--quiet', '--profile', 'dev', '--features', 'sim,hazmat', '--bin', 'quasar', '--', 'cert', 'build', '--out', DIR,
      '--validators', String(K), '--policy', 'pq-heavy', '--magnetar', '192s', '--epochs', '2', '--blocks', '1'];
    console.log(`$ cargo ${args.join(' ')}`);
    const r = spawnSync('cargo', args, { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('quasar cert build failed');
  }
  const certs = readdirSync(DIR).filter((n) => n.endsWith('.qcrt')).sort();
  return {
    set0: readFileSync(`${DIR}/set-0.qvst`),
    set1: readFileSync(`${DIR}/set-1.qvst`),
    block: readFileSync(`${DIR}/${certs[0]}`),
    last: readFileSync(`${DIR}/${certs[0]}`),
  };
}

const median = (xs) => summary(xs).median;

/** Runs `fn` for the budget after a warm-up; returns the median ms and the samples' legs. */
function time(fn) {
  for (let i = 0; i < 3; i++) fn();
  const samples = [];
  const legs = {};
  const end = performance.now() + BUDGET_MS;
  while (performance.now() < end || samples.length < 5) {
    const t0 = performance.now();
    const out = fn();
    samples.push(performance.now() - t0);
    for (const l of out?.legs ?? out?.report?.legs ?? []) if (l.micros !== undefined) (legs[l.kind] ??= []).push(l.micros);
  }
  return { ms: median(samples), n: samples.length, legs: Object.fromEntries(Object.entries(legs).map(([k, v]) => [k, median(v) / 1000])) };
}

await full.init();
await light.init();
const c = chain();
console.log(`K = ${K}; certificate ${c.block.length} bytes, set ${c.set0.length} bytes; Node ${process.version}\n`);
console.log('| build | policy | LightClient#verify (median ms) | verifyCertificate, set from bytes | its BLS leg | Pulsar leg | Magnetar leg | samples |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|');
for (const [name, api] of [['light', light], ['full', full]]) {
  for (const policy of ['pq-fast', 'pq-heavy']) {
    const client = new api.LightClient(c.set0, policy);
    const r = client.verify(c.block);
    if (!r.ok) throw new Error(`${name} ${policy}: ${r.code} ${r.reason}`);
    const prepared = time(() => client.verify(c.block));
    client.free();
    const t = time(() => api.verifyCertificate(c.block, c.set0, policy));
    const leg = (k) => (t.legs[k] === undefined ? '—' : t.legs[k].toFixed(2));
    console.log(`| ${name} | ${policy} | ${prepared.ms.toFixed(2)} | ${t.ms.toFixed(1)} | ${leg('bls')} | ${leg('pulsar')} | ${leg('magnetar')} | ${prepared.n} / ${t.n} |`);
  }
}
console.log('\n| build | light-client update across the epoch change (median ms) | samples |');
console.log('|---|---:|---:|');
for (const [name, api] of [['light', light], ['full', full]]) {
  const t = time(() => {
    const client = new api.LightClient(c.set0, 'pq-fast');
    const out = client.update(c.last, c.set1);
    client.free();
    if (!out.ok) throw new Error(`${name} update: ${out.code} ${out.reason}`);
    return out;
  });
  console.log(`| ${name} | ${t.ms.toFixed(1)} (includes building the client from the epoch-0 set) | ${t.n} |`);
}
