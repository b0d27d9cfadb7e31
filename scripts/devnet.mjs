#!/usr/bin/env node
// A live devnet on loopback, and the demo following it: `npm run devnet`.
//
//   npm run devnet [-- --parties 5 --threshold 3 --reshare 6:4 --blocks 20 --delay 10 --corona]
//
// Builds the `quasar` CLI, writes a roster for one process per validator (`quasar node keys`),
// starts them (`quasar node serve`), serves the demo with the devnet's chain directory under
// /live/ (scripts/serve.mjs), waits `--delay` seconds so the light-client tab can start
// following, then conducts the devnet (`quasar node run --scheme pulsar --chain DIR`): every
// validator signs each block with its own keys, a Pulsar quorum signs each certificate, the
// reshare changes the epoch; with --corona, nodes 1-8 also sign each block's Corona leg. The page stays up until Ctrl-C; the roster, keys and chain live
// in a temporary directory removed at exit.
//
// Open the printed URL, pick the light-client tab, "Live devnet", and follow the chain.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './setup.mjs';
import { startServer } from './serve.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
};
const parties = Number(option('--parties', '5'));
const threshold = option('--threshold', String(Math.floor((2 * parties) / 3) + 1));
const reshare = option('--reshare', `${parties + 1}:${Math.floor((2 * (parties + 1)) / 3) + 1}`);
const blocks = option('--blocks', '20');
const delay = Number(option('--delay', '10'));
const processes = Math.max(parties, Number(reshare.split(':')[0]));
if (!Number.isInteger(parties) || parties < 2 || !Number.isInteger(processes) || processes > 64) {
  console.error('devnet: --parties must be 2 to 64 (and --reshare N:T at most 64 parties)');
  process.exit(2);
}

const build = spawnSync('cargo', ['build', '-p', 'quasar-cli'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const quasar = path.join(process.env.CARGO_TARGET_DIR || path.join(ROOT, 'target'), 'debug', 'quasar');

const dir = mkdtempSync(path.join(os.tmpdir(), 'quasar-devnet-'));
const chain = path.join(dir, 'chain');
const servers = [];
let page = null;
function cleanUp() {
  for (const s of servers) s.kill();
  page?.close();
  rmSync(dir, { recursive: true, force: true });
}
process.on('SIGINT', () => {
  cleanUp();
  process.exit(0);
});

const base = 40000 + (process.pid % 200) * 100;
const keys = spawnSync(quasar, ['node', 'keys', '--dir', dir, '--parties', String(processes), '--port', String(base)], {
  stdio: 'inherit',
});
if (keys.status !== 0) {
  cleanUp();
  process.exit(keys.status ?? 1);
}
for (let i = 1; i <= processes; i++) {
  servers.push(spawn(quasar, ['node', 'serve', '--once', '--dir', dir, '--process', String(i)], { stdio: 'ignore' }));
}
const port = process.env.PORT === undefined ? 8080 : Number(process.env.PORT);
page = await startServer({ port, live: chain });
console.log(`\ndevnet: the demo is at ${page.url}#light — pick "Live devnet" and follow the chain.`);
console.log(`devnet: ${processes} validator processes on 127.0.0.1:${base + 1}…; the chain goes to ${chain}`);
console.log(`devnet: starting in ${delay} s (--delay)…\n`);
await new Promise((done) => setTimeout(done, delay * 1000));

const demo = ['--scheme', 'pulsar', '--set', '44', '--parties', String(parties), '--threshold', threshold];
demo.push('--reshare', reshare, '--chain', chain, '--blocks', blocks);
if (argv.includes('--corona')) demo.push('--corona');
const run = spawnSync(quasar, ['node', 'run', '--dir', dir, ...demo], { stdio: 'inherit' });
console.log(
  run.status === 0
    ? `\ndevnet: done; ${chain} is served under ${page.url}live/ until Ctrl-C.`
    : `\ndevnet: the run failed (exit ${run.status}); the page stays up until Ctrl-C.`,
);
