// Finality certificates in Node: K-validator certificates (⌊2K/3⌋ + 1 signers on every leg,
// the native devnet's) verified in the light and the full WebAssembly builds, single-threaded:
// BLS + Pulsar ML-DSA-65 + Magnetar SHAKE-192s under pq-fast and pq-heavy; BLS + Pulsar +
// Corona under pq-strict; Pulsar + Corona + the ML-DSA set under strict-pq-strict (the Corona
// leg signed by a t-of-n group of the set's first min(K, 8) validators, t = ⌊2m/3⌋ + 1). The
// goal for pq-strict: a K = 21 certificate verified in WASM under 20 ms. `LightClient#verify`
// checks it against a set whose keys were validated once (what a light client does per block);
// `verifyCertificate` takes the set's bytes and validates its keys on every call, so its total
// includes that, and its report gives each leg's own time (`micros`, measured inside the module
// with performance.now()). Also a light-client update across the epoch change (a fresh client:
// the new set's BLS keys, proofs, ML-DSA keys and Corona group key are validated once, inside
// the update).
//
// Run: node js/bench/cert.mjs   (builds each chain once with the native CLI into
//                                target/bench-cert/k<K>[-policy]; K = 21 by default, BENCH_K to change)
//      node js/bench/cert.mjs --chromium   (the same LightClient#verify cases in headless Chromium:
//                                the page imports the package from the served repository)
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
/** The pq-strict goal: a K = 21 certificate verified in WASM in under this many ms. */
const GOAL_MS = 20;

/**
 * The chains, each built with exactly its policy's legs: the policies each is verified under
 * (a chain meets any policy whose legs it carries), and the policy of its light-client update.
 */
const CHAINS = [
  { build: 'pq-heavy', dir: `k${K}`, extra: ['--magnetar', '192s'], verify: ['pq-fast', 'pq-heavy'], update: 'pq-fast' },
  { build: 'pq-strict', dir: `k${K}-pq-strict`, extra: [], verify: ['pq-strict'], update: 'pq-strict' },
  { build: 'strict-pq-strict', dir: `k${K}-strict-pq-strict`, extra: [], verify: ['strict-pq-strict'], update: 'strict-pq-strict' },
];
const LEGS = ['bls', 'pulsar', 'corona', 'magnetar', 'mldsa-set'];

function chain({ build, dir: name, extra }) {
  const dir = `${ROOT}target/bench-cert/${name}`;
  if (!existsSync(`${dir}/set-1.qvst`)) {
    const args = ['run', '--quiet', '--profile', 'dev', '--features', 'sim,hazmat', '--bin', 'quasar', '--', 'cert', 'build', '--out', dir,
      '--validators', String(K), '--policy', build, ...extra, '--epochs', '2', '--blocks', '1'];
    console.log(`$ cargo ${args.join(' ')}`);
    const r = spawnSync('cargo', args, { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('quasar cert build failed');
  }
  const certs = readdirSync(dir).filter((n) => n.endsWith('.qcrt')).sort();
  return {
    set0: readFileSync(`${dir}/set-0.qvst`),
    set1: readFileSync(`${dir}/set-1.qvst`),
    // One block per epoch: the first certificate is epoch 0's last block, which commits to set 1.
    block: readFileSync(`${dir}/${certs[0]}`),
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

const chains = CHAINS.map((spec) => ({ ...spec, ...chain(spec) }));
if (process.argv.includes('--chromium')) {
  await inChromium(chains);
  process.exit(0);
}
await full.init();
await light.init();
console.log(`K = ${K}; Node ${process.version}`);
for (const c of chains) console.log(`- ${c.build} chain: certificate ${c.block.length} bytes, set ${c.set0.length} bytes`);
console.log('\nms, median, lower is better; legs: `micros` of verifyCertificate\'s report.\n');
console.log(`| build | policy | LightClient#verify | verifyCertificate, set from bytes | ${LEGS.map((l) => `${l} leg`).join(' | ')} | samples |`);
console.log(`|---|---|---:|---:|${LEGS.map(() => '---:|').join('')}---:|`);
const strictMs = [];
for (const [name, api] of [['light', light], ['full', full]]) {
  for (const c of chains) {
    for (const policy of c.verify) {
      const client = new api.LightClient(c.set0, policy);
      const r = client.verify(c.block);
      if (!r.ok) throw new Error(`${name} ${policy}: ${r.code} ${r.reason}`);
      const prepared = time(() => client.verify(c.block));
      client.free();
      const t = time(() => api.verifyCertificate(c.block, c.set0, policy));
      if (policy === 'pq-strict') strictMs.push([name, prepared.ms]);
      const leg = (k) => (t.legs[k] === undefined ? '—' : t.legs[k].toFixed(2));
      console.log(`| ${name} | ${policy} | ${prepared.ms.toFixed(2)} | ${t.ms.toFixed(1)} | ${LEGS.map(leg).join(' | ')} | ${prepared.n} / ${t.n} |`);
    }
  }
}
console.log('\n| build | policy | light-client update across the epoch change (median ms) | samples |');
console.log('|---|---|---:|---:|');
for (const [name, api] of [['light', light], ['full', full]]) {
  for (const c of chains) {
    const t = time(() => {
      const client = new api.LightClient(c.set0, c.update);
      const out = client.update(c.block, c.set1);
      client.free();
      if (!out.ok) throw new Error(`${name} ${c.update} update: ${out.code} ${out.reason}`);
      return out;
    });
    console.log(`| ${name} | ${c.update} | ${t.ms.toFixed(1)} (includes building the client from the epoch-0 set) | ${t.n} |`);
  }
}
if (K === 21) {
  console.log('');
  for (const [name, ms] of strictMs) {
    console.log(`pq-strict goal, ${name} build: LightClient#verify ${ms.toFixed(2)} ms ${ms < GOAL_MS ? '<' : '≥'} ${GOAL_MS} ms${ms < GOAL_MS ? '' : ' (missed)'}`);
  }
}

/**
 * LightClient#verify of each chain's certificate in headless Chromium, light and full builds,
 * the page timing itself (median of the budget's samples after a warm-up).
 */
async function inChromium(chains) {
  const { openChromium } = await import('../support/chromium.mjs');
  const b = await openChromium({ needs: ['pkg/light/quasar_pq_bg.wasm', 'pkg/full/quasar_pq_bg.wasm'], profile: 'bench-cert' });
  try {
    await b.page.goto(`${b.server.url}www/`);
    const version = await b.page.evaluate(() => navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? navigator.userAgent);
    console.log(`K = ${K}; ${version}, headless\n`);
    console.log('| build | policy | LightClient#verify (median ms) | samples |');
    console.log('|---|---|---:|---:|');
    for (const name of ['light', 'full']) {
      for (const c of chains) {
        for (const policy of c.verify) {
          const r = await b.page.evaluate(
            async ({ entry, set0, block, policy, budget }) => {
              const api = await import(entry);
              await api.init();
              const bytes = (a) => new Uint8Array(a);
              const client = new api.LightClient(bytes(set0), policy);
              const cert = bytes(block);
              const first = client.verify(cert);
              if (!first.ok) return { error: `${first.code} ${first.reason}` };
              for (let i = 0; i < 3; i++) client.verify(cert);
              const samples = [];
              const end = performance.now() + budget;
              while (performance.now() < end || samples.length < 5) {
                const t0 = performance.now();
                client.verify(cert);
                samples.push(performance.now() - t0);
              }
              client.free();
              samples.sort((x, y) => x - y);
              return { ms: samples[samples.length >> 1], n: samples.length };
            },
            { entry: `/js/${name === 'light' ? 'verify' : 'index'}.js`, set0: [...c.set0], block: [...c.block], policy, budget: BUDGET_MS },
          );
          if (r.error) throw new Error(`${name} ${policy} in Chromium: ${r.error}`);
          console.log(`| ${name} | ${policy} | ${r.ms.toFixed(2)} | ${r.n} |`);
        }
      }
    }
    if (b.pageErrors.length) throw new Error(`page errors: ${b.pageErrors.join('; ')}`);
  } finally {
    await b.close();
  }
}
