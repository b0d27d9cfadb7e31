// Browser test: the demo page (www/) driven by playwright-core through Debian's Chromium.
//
//   node --test js/test/browser.test.mjs
//
// Needs /usr/bin/chromium (installed by `npm run setup -- --browser` / scripts/setup.mjs) and a
// built WASM package (`npm run build`). Screenshots go to test-output/ (git-ignored).

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { startServer } from '../../scripts/serve.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = path.join(ROOT, 'test-output');
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
];
const LEVELS = ['44', '65', '87'];
const EXPECTED = {
  44: { publicKey: 1312, signature: 2420 },
  65: { publicKey: 1952, signature: 3309 },
  87: { publicKey: 2592, signature: 4627 },
};
const TIMEOUT = 30_000;

let server;
let context;
let page;
let userDataDir;
const pageErrors = [];
const consoleErrors = [];

/** Raw GET (no URL normalisation, unlike fetch), so `..` reaches the server as written. */
function rawGet(url, rawPath) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path: rawPath, method: 'GET' }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode, type: res.headers['content-type'], body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function text(selector) {
  return (await page.locator(selector).textContent()).trim();
}

/** Fail with the page's own error text if the demo showed one. */
async function assertNoPageErrorShown(what) {
  const visible = await page.locator('#error').isVisible();
  if (visible) assert.fail(`${what}: the page shows an error: ${await text('#error-text')}`);
}

/** Click a demo button and wait until the page has finished that action (success or error). */
async function clickAndSettle(selector) {
  const before = Number((await page.getAttribute('body', 'data-actions')) ?? 0);
  await page.click(selector);
  await page.waitForFunction((n) => Number(document.body.dataset.actions ?? 0) > n, before, {
    timeout: TIMEOUT,
  });
  await assertNoPageErrorShown(selector);
}

async function screenshot(name) {
  await page.screenshot({ path: path.join(OUT, `${name}.png`), fullPage: true });
}

describe('demo page in Chromium', { timeout: 180_000 }, () => {
  before(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `${CHROMIUM} is missing: the browser test needs Debian's Chromium. ` +
          'Install it with `node scripts/setup.mjs --browser` (or `apt-get install -y chromium`).',
      );
    }
    for (const f of ['pkg/full/quasar_pq.js', 'pkg/full/quasar_pq_bg.wasm', 'js/index.js']) {
      if (!existsSync(path.join(ROOT, f))) {
        throw new Error(`${f} is missing: build the WASM package first with \`npm run build\`.`);
      }
    }
    let chromium;
    try {
      ({ chromium } = await import('playwright-core'));
    } catch (err) {
      throw new Error(`playwright-core is not installed (npm install): ${err.message}`);
    }
    await mkdir(OUT, { recursive: true });
    server = await startServer({ port: 0 });
    userDataDir = await mkdtemp(path.join(os.tmpdir(), 'quasar-pq-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1100, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(TIMEOUT);
    page.on('pageerror', (err) => pageErrors.push(String(err?.stack ?? err)));
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(`${msg.text()} @ ${msg.location()?.url ?? '?'}`);
    });
  });

  after(async () => {
    await context?.close().catch(() => {});
    await server?.close().catch(() => {});
    if (userDataDir) await rm(userDataDir, { recursive: true, force: true }).catch(() => {});
  });

  test('static server: routes, MIME types, no traversal', async () => {
    const root = await rawGet(server.url, '/');
    assert.equal(root.status, 200);
    assert.match(root.type, /^text\/html/);
    assert.match(root.body.toString(), /id="verdict"/);

    const wasm = await rawGet(server.url, '/pkg/full/quasar_pq_bg.wasm');
    assert.equal(wasm.status, 200);
    assert.equal(wasm.type, 'application/wasm');
    assert.deepEqual([...wasm.body.subarray(0, 4)], [0x00, 0x61, 0x73, 0x6d]);

    for (const p of ['/js/index.js', '/www/app.js', '/pkg/full/quasar_pq.js']) {
      const r = await rawGet(server.url, p);
      assert.equal(r.status, 200, p);
      assert.match(r.type, /^text\/javascript/, p);
    }
    assert.match((await rawGet(server.url, '/www/style.css')).type, /^text\/css/);

    for (const p of [
      '/js/../Cargo.toml',
      '/pkg/%2e%2e/Cargo.toml',
      '/www/..%2f..%2fCargo.toml',
      '/../../etc/passwd',
      '/www/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    ]) {
      const r = await rawGet(server.url, p);
      assert.ok(r.status === 400 || r.status === 404, `${p} -> ${r.status}`);
      assert.doesNotMatch(r.body.toString(), /\[package\]|root:/, p);
    }
    for (const p of ['/Cargo.toml', '/crate/src/lib.rs', '/scripts/serve.mjs', '/www/nope.html']) {
      assert.equal((await rawGet(server.url, p)).status, 404, p);
    }
  });

  test('page loads and initialises WASM', async () => {
    await page.goto(server.url, { waitUntil: 'load' });
    await page.waitForSelector('body[data-ready]', { state: 'attached', timeout: TIMEOUT });
    const ready = await page.getAttribute('body', 'data-ready');
    if (ready !== '1') assert.fail(`the demo failed to initialise: ${await text('#error-text')}`);
    await assertNoPageErrorShown('init');
    await screenshot('demo-ready');
  });

  for (const level of LEVELS) {
    test(`ML-DSA-${level}: keygen, sign, verify valid; flipped byte verifies invalid`, async () => {
      await page.selectOption('#level', level);
      await clickAndSettle('#keygen');
      assert.equal(await text('#pk-size'), `${EXPECTED[level].publicKey.toLocaleString('en-US')} bytes`);
      assert.match(await text('#pk-hex'), /^[0-9a-f]{64}…$/);

      await page.fill('#message', `Quasar finality, ML-DSA-${level}, block ${Date.now()}`);
      await page.fill('#context', 'quasar-demo-v1');
      await page.setChecked('#deterministic', true);
      await clickAndSettle('#sign');
      assert.equal(await text('#sig-size'), `${EXPECTED[level].signature.toLocaleString('en-US')} bytes`);

      await clickAndSettle('#verify');
      assert.equal(await text('#verdict'), 'valid');
      await screenshot(`mldsa${level}-valid`);

      await clickAndSettle('#flip');
      assert.match(await text('#tamper'), /^flipped byte \d[\d,]* of /);
      await clickAndSettle('#verify');
      assert.equal(await text('#verdict'), 'invalid');
      await screenshot(`mldsa${level}-flipped-invalid`);
    });
  }

  test('editing the message after signing makes verify say invalid', async () => {
    await page.selectOption('#level', '65');
    await clickAndSettle('#keygen');
    await page.fill('#message', 'pay 10 to alice');
    await page.fill('#context', '');
    await clickAndSettle('#sign');
    await clickAndSettle('#verify');
    assert.equal(await text('#verdict'), 'valid');

    await page.fill('#message', 'pay 99 to mallory');
    await clickAndSettle('#verify');
    assert.equal(await text('#verdict'), 'invalid');

    await page.fill('#message', 'pay 10 to alice');
    await clickAndSettle('#verify');
    assert.equal(await text('#verdict'), 'valid');
  });

  test('deterministic signatures repeat, hedged ones do not', async () => {
    await page.selectOption('#level', '44');
    await clickAndSettle('#keygen');
    await page.fill('#message', 'same message');
    const sign = async () => {
      await clickAndSettle('#sign');
      return text('#sig-hex');
    };
    await page.setChecked('#deterministic', true);
    assert.equal(await sign(), await sign());
    await page.setChecked('#deterministic', false);
    assert.notEqual(await sign(), await sign());
    assert.equal(await text('#sig-mode'), 'hedged');
    await clickAndSettle('#verify');
    assert.equal(await text('#verdict'), 'valid');
    await page.setChecked('#deterministic', true);
  });

  test('a context over 255 bytes is reported in the page', async () => {
    await page.selectOption('#level', '44');
    await clickAndSettle('#keygen');
    await page.fill('#context', 'x'.repeat(256));
    await page.click('#sign');
    await page.waitForSelector('#error', { state: 'visible' });
    const msg = await text('#error-text');
    assert.ok(msg.length > 0, 'error text is empty');
    assert.equal(await text('#sig-size'), '—', 'no signature should be shown after a failed sign');
    await screenshot('context-too-long');
    await page.fill('#context', '');
    await page.click('#error-dismiss');
  });

  test('no uncaught page errors or console errors', () => {
    assert.deepEqual(pageErrors, [], `uncaught page errors:\n${pageErrors.join('\n')}`);
    assert.deepEqual(consoleErrors, [], `console errors:\n${consoleErrors.join('\n')}`);
  });
});
