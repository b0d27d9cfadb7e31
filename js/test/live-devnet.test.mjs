// The light-client tab follows a live devnet: the page's server follows an empty chain
// directory (scripts/serve.mjs --live), the tab starts following it under pq-heavy, and only
// then does a devnet (the `quasar` CLI: `demo --scheme pulsar --chain DIR`, every party a
// validator, a reshare for the epoch change) write its sets and certificates there. Every
// certificate must appear as a row the light build accepted, the epoch's last block taking
// the next set, and the client must end in epoch 1 at the last height — verified in the
// browser, from bytes fetched over HTTP as they were written.
//
//   node --test js/test/live-devnet.test.mjs
//
// Needs /usr/bin/chromium, the built WASM package (`npm run build`) and the `quasar` binary
// (built here with `cargo build -p quasar-cli` if `cargo test` has not left one).

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { openChromium, ROOT } from '../support/chromium.mjs';
import { patience } from '../support/patience.mjs';

const TIMEOUT = patience(120);
const QUASAR = path.join(process.env.CARGO_TARGET_DIR || path.join(ROOT, 'target'), 'debug', 'quasar');
/** 3 blocks per epoch, two epochs: heights 1–6, the third ending epoch 0. */
const BLOCKS = 3;

let browser;
let page;
let tmp;

/** Runs the devnet into `chain`; resolves with its output when it exits, rejects on failure. */
function devnet(chain) {
  const args = ['demo', '--scheme', 'pulsar', '--set', '44', '--parties', '4', '--threshold', '3', '--reshare', '4:3'];
  args.push('--chain', chain, '--blocks', String(BLOCKS));
  return new Promise((resolve, reject) => {
    const child = spawn(QUASAR, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill(), TIMEOUT);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`quasar ${args.join(' ')} exited ${code}:\n${out}`));
    });
  });
}

describe('demo: the light-client tab follows a live devnet', { timeout: patience(300) }, () => {
  before(async () => {
    if (!existsSync(QUASAR)) {
      const r = spawnSync('cargo', ['build', '-p', 'quasar-cli'], { cwd: ROOT, stdio: 'inherit' });
      assert.equal(r.status, 0, 'cargo build -p quasar-cli');
    }
    tmp = await mkdtemp(path.join(os.tmpdir(), 'quasar-live-'));
    browser = await openChromium({ needs: ['pkg/light/quasar_pq.js'], profile: 'live', timeout: TIMEOUT, live: path.join(tmp, 'chain') });
    ({ page } = browser);
    await page.goto(`${browser.server.url}#light`, { waitUntil: 'load' });
    await page.waitForSelector('body[data-lc-live="available"]', { state: 'attached', timeout: TIMEOUT });
    await page.waitForSelector('#lc-run:not([disabled])', { timeout: TIMEOUT });
  });

  after(async () => {
    await browser?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  test('/live/ serves the chain directory\'s index and its set and certificate files, nothing else', async () => {
    const get = (p) =>
      new Promise((resolve, reject) => {
        http
          .get(new URL(p, browser.server.url), (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
          })
          .on('error', reject);
      });
    // Before the devnet runs: an empty chain, not an error.
    assert.deepEqual(JSON.parse((await get('/live/index.json')).body), { live: true, sets: [], certs: [] });
    await mkdir(path.join(tmp, 'chain'));
    await writeFile(path.join(tmp, 'roster.json'), '{"secret":1}');
    await writeFile(path.join(tmp, 'chain', 'process-1.key'), 'secret');
    await writeFile(path.join(tmp, 'chain', '.cert-0-1.qcrt.part'), 'half');
    for (const p of ['/live/process-1.key', '/live/.cert-0-1.qcrt.part', '/live/%2e%2e/roster.json', '/live/..%2froster.json', '/live/set-0.qvst']) {
      const r = await get(p);
      assert.ok(r.status === 400 || r.status === 404, `${p} -> ${r.status}`);
      assert.doesNotMatch(r.body, /secret|half/, p);
    }
    await rm(path.join(tmp, 'chain'), { recursive: true });
    await rm(path.join(tmp, 'roster.json'));
  });

  test('every certificate is accepted as it is written, across the epoch change', async () => {
    await page.selectOption('#lc-chain', 'live');
    await page.selectOption('#lc-policy', 'pq-heavy');
    await page.click('#lc-run');
    // The tab is waiting for a chain that does not exist yet; now the devnet makes it.
    const out = await devnet(path.join(tmp, 'chain'));
    assert.match(out, /block 6 in .*cert-1-6\.qcrt/, out);
    const last = 2 * BLOCKS;
    await page.waitForSelector(`#lc-blocks tr[data-height="${last}"]`, { timeout: TIMEOUT });
    const rows = await page.$$eval('#lc-blocks tr[data-height]', (trs) =>
      trs.map((tr) => ({ ...tr.dataset, legs: [...tr.querySelectorAll('.leg')].map((l) => `${l.dataset.kind}:${l.dataset.state}`) })),
    );
    assert.deepEqual(
      rows.map((r) => [r.height, r.epoch, r.verdict]),
      [1, 2, 3, 4, 5, 6].map((h) => [String(h), h <= BLOCKS ? '0' : '1', 'accepted']),
      JSON.stringify(rows),
    );
    // The epoch's last block moved the client to epoch 1; it ends at the last height.
    assert.equal(rows[BLOCKS - 1].clientEpoch, '1');
    assert.equal(rows.at(-1).clientHeight, String(last));
    for (const r of rows) {
      for (const kind of ['bls', 'pulsar', 'magnetar']) assert.ok(r.legs.includes(`${kind}:valid`), `${r.height}: ${r.legs}`);
    }
  });
});
