#!/usr/bin/env node
// The cluster finality benchmark (issue 22, the seeds' "end-to-end distributed-cluster cert
// finality" table): a live devnet (`quasar node run --scheme pulsar --chain DIR`) at each scale,
// its validators in separate `quasar node` processes on loopback, with a simulated round trip
// (`--rtt`: every message a process sends waits half of it). Prints one markdown row per run:
// blocks/s, block p50/p95, when the validators' BLS/ML-DSA/Magnetar legs were made and checked
// at the aggregator (p50; and the aggregator's check alone), when the Pulsar leg and the certificate were (p50 = the block), bytes
// and CPU per validator per block, and the machine's load.
//
//   node scripts/cluster-bench.mjs [--scales 10,100,500] [--rtts 0,50,200] [--blocks 5] [--per 10] [--group 100]
//                                  [--no-corona]
//
// The validators are spread over --per processes (2 cores cannot run 100 processes usefully);
// the aggregator and conductor are process 0. The Pulsar custody group is the first
// min(validators, --group) of them (`--validators`: the rest only sign blocks), threshold
// floor(2G/3) + 1. Nodes 1-8 also hold a Corona key the aggregator dealt (`--corona`), and
// 6 of them sign each block's Corona leg after the Pulsar leg is in (PQ-strict waits for it). Every run is bounded (--timeout 120 on
// every wait) and every process is killed at the end.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './setup.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
};
const scales = option('--scales', '10,100,500').split(',').map(Number);
const rtts = option('--rtts', '0,50,200').split(',').map(Number);
const blocks = option('--blocks', '5');
const perMax = Number(option('--per', '10'));
const groupMax = Number(option('--group', '100'));
const corona = !argv.includes('--no-corona');

const build = spawnSync('cargo', ['build', '--release', '-p', 'quasar-cli'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const quasar = path.join(process.env.CARGO_TARGET_DIR || path.join(ROOT, 'target'), 'release', 'quasar');

/** One run: `n` validators, round trip `rtt` ms; the parsed figures. */
function run(n, rtt, port) {
  const per = Math.max(1, Math.ceil(n / perMax));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'quasar-cluster-'));
  const children = [];
  try {
    const keys = spawnSync(quasar, ['node', 'keys', '--dir', dir, '--parties', String(n), '--per', String(per), '--port', String(port)]);
    if (keys.status !== 0) throw new Error(`node keys: ${keys.stderr}`);
    const processes = Math.ceil(n / per);
    for (let i = 1; i <= processes; i++) {
      children.push(
        spawn(quasar, ['node', 'serve', '--once', '--dir', dir, '--process', String(i), '--timeout', '120', '--rtt', String(rtt)], {
          stdio: 'ignore',
        }),
      );
    }
    const load = os.loadavg()[0];
    const group = Math.min(n, groupMax);
    const demo = ['--scheme', 'pulsar', '--parties', String(group), '--validators', String(n)];
    demo.push('--chain', path.join(dir, 'chain'), '--blocks', blocks);
    if (corona) demo.push('--corona');
    const r = spawnSync(quasar, ['node', 'run', '--dir', dir, '--timeout', '120', '--rtt', String(rtt), ...demo], {
      encoding: 'utf8',
      timeout: 3_600_000,
    });
    const out = `${r.stdout}\n${r.stderr}`;
    if (r.status !== 0) throw new Error(`the run failed (exit ${r.status}):\n${out.slice(-3000)}`);
    const line = out.split('\n').find((l) => l.includes('devnet:'));
    const num = (re) => Number(re.exec(line)?.[1]);
    const row = out.split('\n').find((l) => l.startsWith('Blocks, epoch 0'));
    const bytes = Number(row.trim().split(/\s+/).at(-1).replaceAll(',', ''));
    return {
      n,
      group,
      rtt,
      processes: processes + 1,
      load,
      perSecond: num(/\(([\d.]+) blocks\/s\)/),
      p50: num(/block p50 ([\d.]+) ms/),
      p95: num(/block p50 [\d.]+ ms, p95 ([\d.]+) ms/),
      legs: num(/aggregator p50 ([\d.]+) ms/),
      check: num(/its check alone p50 ([\d.]+) ms/),
      pulsar: corona ? num(/the Pulsar leg in at p50 ([\d.]+) ms/) : num(/block p50 ([\d.]+) ms/),
      corona: corona ? num(/then the Corona leg .* p50 ([\d.]+) ms/) : NaN,
      cpu: num(/CPU per validator per block ([\d.]+) ms/),
      bytes: bytes / Number(blocks) / n,
    };
  } finally {
    for (const c of children) c.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`cluster benchmark: ${os.cpus().length} cores (${os.cpus()[0]?.model}), ${blocks} blocks per run, release build\n`);
console.log(
  '| validators | Pulsar group | processes | round trip | blocks/s | block p50 / p95 | BLS, ML-DSA, Magnetar legs p50 | of which the aggregator’s check | ' +
    'Pulsar leg p50 | Corona leg p50 (after the Pulsar leg) | bytes / validator / block | CPU / validator / block | load |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
let port = 42000 + (process.pid % 100) * 200;
for (const n of scales) {
  for (const rtt of rtts) {
    port += 150;
    const r = run(n, rtt, port);
    console.log(
      `| ${r.n} | ${r.group} | ${r.processes} | ${rtt ? `${rtt} ms` : 'LAN (loopback)'} | ${r.perSecond.toFixed(2)} | ${r.p50.toFixed(0)} / ${r.p95.toFixed(0)} ms | ` +
        `${r.legs.toFixed(0)} ms | ${r.check.toFixed(0)} ms | ${r.pulsar.toFixed(0)} ms | ${corona ? `${r.corona.toFixed(0)} ms` : '—'} | ${Math.round(r.bytes).toLocaleString('en')} | ${r.cpu.toFixed(1)} ms | ${r.load.toFixed(2)} |`,
    );
  }
}
