#!/usr/bin/env node
// A mixed run: native `quasar node` processes and a browser process in one committee
// ceremony — `npm run mixed`.
//
//   npm run mixed [-- --scheme committee|corona --parties 3 --threshold 3 --set 44 --delay 15]
//
// Builds the `quasar` CLI, writes a roster whose last process is a browser process
// (`quasar node keys --browser 1`), starts the native ones (`quasar node serve`), serves the
// demo with that roster and the browser process's key under /cluster/ (scripts/serve.mjs,
// loopback only), waits `--delay` seconds for the page to join, then conducts one run
// (`quasar node run`): the committee's key generation and exactly T signers, or Corona's
// trusted dealer and every party signing; every member verifying. Open the printed URL before the delay runs out: the page (www/node/) dials every
// native process over WebSocket and plays its member. The page stays up until Ctrl-C; the
// roster and keys live in a temporary directory removed at exit.

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
const parties = Number(option('--parties', '3'));
const threshold = Number(option('--threshold', String(parties)));
const level = option('--set', '44');
const delay = Number(option('--delay', '15'));
const scheme = option('--scheme', 'committee');
if (!['committee', 'corona'].includes(scheme) || !(parties >= 2 && parties <= 6) || !(threshold >= 2 && threshold <= parties) || !['44', '65', '87'].includes(level)) {
  console.error('mixed: --scheme committee or corona, 2 to 6 --parties, 2 ≤ --threshold ≤ --parties, --set 44, 65 or 87');
  process.exit(2);
}

const build = spawnSync('cargo', ['build', '-p', 'quasar-cli'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const quasar = path.join(process.env.CARGO_TARGET_DIR || path.join(ROOT, 'target'), 'debug', 'quasar');

const dir = mkdtempSync(path.join(os.tmpdir(), 'quasar-mixed-'));
const natives = [];
let page = null;
function cleanUp() {
  for (const s of natives) s.kill();
  page?.close();
  rmSync(dir, { recursive: true, force: true });
}
process.on('SIGINT', () => {
  cleanUp();
  process.exit(0);
});

const base = 40000 + (process.pid % 100) * 200;
const keys = spawnSync(quasar, ['node', 'keys', '--dir', dir, '--parties', String(parties), '--browser', '1', '--port', String(base)], {
  stdio: 'inherit',
});
if (keys.status !== 0) {
  cleanUp();
  process.exit(keys.status ?? 1);
}
// Processes 1 … parties − 1 are native; process `parties` (member `parties`) is the page.
for (let i = 1; i < parties; i++) {
  natives.push(spawn(quasar, ['node', 'serve', '--once', '--dir', dir, '--process', String(i)], { stdio: 'ignore' }));
}
const port = process.env.PORT === undefined ? 8080 : Number(process.env.PORT);
page = await startServer({ port, cluster: { dir, process: parties } });
console.log(`\nmixed: open ${page.url}www/node/ — the page joins as process ${parties} (member ${parties}).`);
console.log(`mixed: ${parties - 1} native processes on 127.0.0.1:${base + 1}… (WebSocket on ${base + 101}…)`);
console.log(`mixed: the ${scheme} run starts in ${delay} s (--delay)…\n`);
await new Promise((done) => setTimeout(done, delay * 1000));

const demo =
  scheme === 'committee'
    ? ['--scheme', 'committee', '--set', level, '--parties', String(parties), '--threshold', String(threshold)]
    : ['--scheme', 'corona', '--parties', String(parties), '--threshold', String(threshold), '--signers', String(parties)];
const run = spawnSync(quasar, ['node', 'run', '--dir', dir, ...demo], { stdio: 'inherit' });
console.log(run.status === 0 ? '\nmixed: done; the page stays up until Ctrl-C.' : `\nmixed: the run failed (exit ${run.status}); the page stays up until Ctrl-C.`);
