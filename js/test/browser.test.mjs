// Browser test: the demo page (www/) driven by playwright-core through Debian's Chromium:
// the threshold tab (K parties in a pool of Web Workers: Pulsar custody and Lens ceremonies,
// signing, resharing with activation under the unchanged key, a cheating party), the Magnetar
// tab (K validators sign in the pool, batch verification across the workers, the aggregate
// certificate against the quorum, a cheating validator counted out) and the single-signer
// ML-DSA tab.
//
//   node --test js/test/browser.test.mjs
//
// Needs /usr/bin/chromium (installed by `npm run setup -- --browser` / scripts/setup.mjs) and a
// built WASM package (`npm run build`). Screenshots go to test-output/ (git-ignored).

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';

import { OUT, openChromium } from '../support/chromium.mjs';
import { patience } from '../support/patience.mjs';

const LEVELS = ['44', '65', '87'];
const EXPECTED = {
  44: { publicKey: 1312, signature: 2420 },
  65: { publicKey: 1952, signature: 3309 },
  87: { publicKey: 2592, signature: 4627 },
};
const TIMEOUT = patience(120);
const RUN_TIMEOUT = patience(300);

let browser;
let server;
let context;
let page;
let pageErrors = [];
let consoleErrors = [];

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

/** Fail with the page's own error text if the demo showed one (either tab). */
async function assertNoPageErrorShown(what) {
  for (const [box, msg] of [['#ml-error', '#ml-error-text'], ['#error', '#error-text']]) {
    const visible = await page.locator(box).isVisible();
    if (visible) assert.fail(`${what}: the page shows an error: ${await text(msg)}`);
  }
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

/** Open the threshold tab and set its form. */
async function setupThreshold({ scheme, k, cheater = '', cheatMode = 'signing', curve = 'ed25519' }) {
  await page.click('#tab-threshold');
  await page.selectOption('#scheme', scheme);
  if (scheme === 'lens') await page.selectOption('#curve', curve);
  await page.fill('#parties', String(k));
  await page.selectOption('#cheater', cheater);
  if (cheater) await page.selectOption('#cheat-mode', cheatMode);
}

/** Click a threshold-tab action and wait for it to finish; fail with the page's error. */
async function runAction(selector) {
  const before = Number((await page.getAttribute('body', 'data-runs')) ?? 0);
  await page.click(selector);
  await page.waitForFunction((n) => Number(document.body.dataset.runs ?? 0) > n, before, { timeout: RUN_TIMEOUT });
  const state = await page.getAttribute('#status', 'data-state');
  if (state !== 'done') {
    await screenshot(`failed-${selector.slice(1)}`);
    assert.fail(`${selector}: status ${state}: ${await text('#status')} | ${await text('#error-text')}`);
  }
  await assertNoPageErrorShown(selector);
}

async function screenshot(name) {
  await page.screenshot({ path: path.join(OUT, `${name}.png`), fullPage: true });
}

describe('demo page in Chromium', { timeout: patience(1800) }, () => {
  before(async () => {
    browser = await openChromium({ needs: ['pkg/demo/quasar_pq.js', 'pkg/demo/quasar_pq_bg.wasm', 'js/support/demo.mjs'], viewport: { width: 1100, height: 900 }, timeout: TIMEOUT });
    ({ server, context, page, pageErrors, consoleErrors } = browser);
  });

  after(() => browser?.close());

  test('static server: routes, MIME types, no traversal', async () => {
    const root = await rawGet(server.url, '/');
    assert.equal(root.status, 200);
    assert.match(root.type, /^text\/html/);
    assert.match(root.body.toString(), /id="ml-verdict"/);
    assert.match(root.body.toString(), /id="party-grid"/);

    const wasm = await rawGet(server.url, '/pkg/full/quasar_pq_bg.wasm');
    assert.equal(wasm.status, 200);
    assert.equal(wasm.type, 'application/wasm');
    assert.deepEqual([...wasm.body.subarray(0, 4)], [0x00, 0x61, 0x73, 0x6d]);

    for (const p of ['/js/index.js', '/js/verify.js', '/js/magnetar.js', '/www/magnetar.js', '/www/light.js', '/www/light-worker.js', '/www/light-verifier.js', '/js/cert.js', '/www/app.js', '/www/threshold.js', '/www/mldsa.js', '/www/pool.js', '/www/party-worker.js', '/www/coordinator.js', '/www/flows.js', '/www/util.js', '/www/verify.js', '/pkg/full/quasar_pq.js', '/js/support/demo.mjs', '/pkg/demo/quasar_pq.js', '/www/story.js', '/www/timeline.js', '/www/tables.js', '/www/threshold-page.js', '/www/threshold-form.js', '/www/tiles.js', '/www/run-view.js']) {
      const r = await rawGet(server.url, p);
      assert.equal(r.status, 200, p);
      assert.match(r.type, /^text\/javascript/, p);
    }
    assert.match((await rawGet(server.url, '/www/style.css')).type, /^text\/css/);
    assert.match((await rawGet(server.url, '/kats/cert.json')).type, /^application\/json/);

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
    // /live/ serves files only when the server follows a devnet (js/test/live-devnet.test.mjs).
    assert.deepEqual(JSON.parse((await rawGet(server.url, '/live/index.json')).body.toString()), { live: false, sets: [], certs: [] });
    for (const p of ['/Cargo.toml', '/crate/src/lib.rs', '/scripts/serve.mjs', '/www/nope.html', '/live/set-0.qvst']) {
      assert.equal((await rawGet(server.url, p)).status, 404, p);
    }
  });

  test('page loads and initialises WASM', async () => {
    await page.goto(server.url, { waitUntil: 'load' });
    await page.waitForSelector('body[data-ready]', { state: 'attached', timeout: TIMEOUT });
    const ready = await page.getAttribute('body', 'data-ready');
    if (ready !== '1') assert.fail(`the demo failed to initialise: ${await text('#ml-error-text')}`);
    await assertNoPageErrorShown('init');
    assert.equal(await page.getAttribute('#status', 'data-state'), 'idle');
    assert.equal(await page.locator('#tab-threshold').getAttribute('aria-selected'), 'true');
    await screenshot('demo-ready');
  });

  test('threshold tab: controls, defaults and the trust model', async () => {
    assert.equal(await page.inputValue('#parties'), '21');
    assert.equal(await page.inputValue('#threshold'), '15', 'default threshold is floor(2K/3) + 1, as the CLI');
    await page.fill('#parties', '64');
    assert.equal(await page.inputValue('#threshold'), '43');
    // Up to 128 parties; one more is refused before anything runs.
    await page.fill('#parties', '128');
    assert.equal(await page.inputValue('#threshold'), '86');
    assert.equal(await page.inputValue('#reshare-n'), '128');
    await page.fill('#parties', '129');
    assert.match(await text('#params-hint'), /K must be a whole number from 3 to 128/);
    await page.fill('#parties', '7');
    assert.equal(await page.inputValue('#threshold'), '5');
    assert.equal(await page.locator('#cheater option').count(), 8, 'nobody + 7 parties');
    await page.selectOption('#scheme', 'pulsar');
    assert.match(await text('#trust-model'), /combiner that rebuilds the key in memory, signs, and erases it/);
    assert.ok(await page.locator('#curve').isHidden());
    await page.selectOption('#scheme', 'lens');
    assert.match(await text('#trust-model'), /any t of n sign without ever rebuilding the key/);
    assert.ok(await page.locator('#curve').isVisible());
    const workers = await page.locator('#workers option').allTextContents();
    assert.ok(workers.some((w) => w.startsWith('1')), `a one-worker choice: ${workers}`);
  });

  for (const scheme of ['pulsar', 'lens']) {
    test(`${scheme}: 7-party ceremony, sign, verify; reshare to (5, 9), activation and a new signature under the same key`, async () => {
      await setupThreshold({ scheme, k: 7 });
      await runAction('#run-ceremony');
      assert.equal(await page.locator('#party-grid .tile[data-role="party"]').count(), 7);
      assert.equal(await page.locator('#party-grid .tile[data-state="share"]').count(), 7);
      const key0 = await page.getAttribute('#group-key', 'data-full');
      assert.match(key0, /^[0-9a-f]+$/);
      assert.equal(key0.length / 2, scheme === 'pulsar' ? 1952 : 32, 'ML-DSA-65 / Ed25519 public key size');
      assert.equal(await text('#group-shape'), '5 of 7');
      // The rounds carried bytes, and every phase has per-party timings.
      assert.ok((await page.locator('#phase-table tbody tr.phase').count()) >= 1);
      assert.ok((await page.locator('#party-table tbody tr').count()) >= 7);
      // The phases show as the lifecycle parties name their rounds.
      assert.match(await text('#phase-table'), scheme === 'pulsar' ? /DKG[\s\S]*release[\s\S]*certify/ : /check shares[\s\S]*finalize/);

      await page.fill('#message', `Quasar ${scheme} block ${Date.now()}`);
      await runAction('#sign');
      assert.equal(await text('#verify-result'), 'verified');
      assert.equal((await page.getAttribute('#signers', 'data-parties')).split(',').length, 5, 'signed by t = 5 parties');
      await screenshot(`${scheme}-7-signed`);

      await page.fill('#reshare-n', '9');
      await page.fill('#reshare-t', '5');
      await runAction('#reshare');
      assert.equal(await text('#activation-result'), 'verified');
      assert.equal(await text('#generation'), '1');
      assert.equal(await text('#group-shape'), '5 of 9');
      assert.equal(await page.getAttribute('#group-key', 'data-full'), key0, 'the group key is unchanged');
      assert.equal(await page.locator('#party-grid .tile[data-role="party"]').count(), 9);
      assert.match(await text('#key-history'), /= the same key/);
      assert.match(await text('#phase-table'), scheme === 'pulsar' ? /Reshare → 5 of 9/ : /Reshare → 5 of 9[\s\S]*activate/);

      await page.fill('#message', `after the reshare, ${scheme}`);
      await runAction('#sign');
      assert.equal(await text('#verify-result'), 'verified');
      assert.equal(await page.getAttribute('#group-key', 'data-full'), key0);
      for (const st of ['ceremony', 'sign', 'verify', 'reshare', 'activation', 'verify-cert', 'sign-again']) {
        assert.equal(await page.getAttribute(`#pipeline [data-stage="${st}"]`, 'data-state'), 'done', st);
      }
      await screenshot(`${scheme}-7-reshared-5-of-9`);
    });
  }

  test('pulsar: a party corrupting its signature share is named, excluded, and signing succeeds without it', async () => {
    await setupThreshold({ scheme: 'pulsar', k: 7, cheater: '3', cheatMode: 'signing' });
    await runAction('#run-ceremony');
    await runAction('#sign');
    assert.equal(await text('#verify-result'), 'verified');
    assert.equal(await page.getAttribute('#blame', 'data-state'), 'blamed');
    assert.equal(await page.getAttribute('#blame', 'data-party'), '3');
    assert.match(await text('#blame'), /party 3/);
    assert.equal(await page.getAttribute('#party-grid .tile[data-party="3"]', 'data-state'), 'blamed');
    const signers = (await page.getAttribute('#signers', 'data-parties')).split(',');
    assert.equal(signers.length, 5);
    assert.ok(!signers.includes('3'), `the cheater is not among the signers: ${signers}`);
    await screenshot('pulsar-7-cheater-signing');
  });

  test('lens: a party dealing bad shares is excluded and named; the ceremony continues without it', async () => {
    await setupThreshold({ scheme: 'lens', k: 7, cheater: '2', cheatMode: 'dealing', curve: 'secp256k1' });
    await runAction('#run-ceremony');
    assert.equal(await page.getAttribute('#blame', 'data-state'), 'blamed');
    assert.equal(await page.getAttribute('#blame', 'data-party'), '2');
    assert.match(await text('#blame'), /party 2 was disqualified as a dealer \(INVALID_OPENING/);
    assert.match(await text('#blame'), /ceremony continued/);
    // One DKG run, no restart: the 5-of-7 key stands (the disqualified dealer's share is
    // of the same key, its contribution is not), and the dealer is left out of signing.
    assert.equal(await text('#group-shape'), '5 of 7');
    assert.equal(await page.getAttribute('#party-grid .tile[data-party="2"]', 'data-state'), 'blamed');
    await runAction('#sign');
    assert.equal(await text('#verify-result'), 'verified');
    const signers = (await page.getAttribute('#signers', 'data-parties')).split(',');
    assert.equal(signers.length, 5);
    assert.ok(!signers.includes('2'), `the excluded dealer does not sign: ${signers}`);
    await screenshot('lens-7-cheater-dealing');
  });

  /** Run one Magnetar round with `k` validators, `cheater` ('' for none); the verdict fields. */
  async function magnetarRound(k, cheater) {
    await page.fill('#mag-validators', String(k));
    await page.selectOption('#mag-mode', 'shake192f');
    await page.selectOption('#mag-cheater', cheater);
    const before = Number((await page.getAttribute('body', 'data-mag-runs')) ?? 0);
    await page.click('#mag-run');
    await page.waitForFunction((n) => Number(document.body.dataset.magRuns ?? 0) > n, before, { timeout: RUN_TIMEOUT });
    if (await page.locator('#mag-error').isVisible()) assert.fail(`Magnetar round: ${await text('#mag-error-text')}`);
    assert.equal(await page.getAttribute('#mag-status', 'data-state'), 'done', await text('#mag-status'));
    return {
      bits: await page.getAttribute('#mag-bitmap', 'data-bits'),
      valid: Number(await page.getAttribute('#mag-count', 'data-valid')),
      total: Number(await page.getAttribute('#mag-count', 'data-total')),
      signedWeight: Number(await page.getAttribute('#mag-weight', 'data-signed')),
      totalWeight: Number(await page.getAttribute('#mag-weight', 'data-total')),
      verdict: await text('#mag-verdict'),
      verdictState: await page.getAttribute('#mag-verdict', 'data-state'),
      refusal: await text('#mag-refusal'),
    };
  }

  test('Magnetar tab: the trust model is stated; SHAKE-192f by default, SHAKE-192s selectable', async () => {
    await page.click('#tab-magnetar');
    assert.ok(await page.locator('#panel-magnetar').isVisible());
    assert.ok(await page.locator('#panel-threshold').isHidden());
    assert.match(await text('#mag-trust'), /Each validator signs independently with its own\s+SLH-DSA key/);
    assert.match(await text('#mag-trust'), /the list of\s+their ordinary signatures on the block, checked one by one against the keys and weights of the validator\s+registry/);
    assert.equal(await page.inputValue('#mag-mode'), 'shake192f');
    const modes = await page.locator('#mag-mode option').evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(modes, ['shake192f', 'shake192s', 'shake256s']);
    assert.equal(await page.locator('#mag-cheater option').count(), 8, 'nobody + 7 validators');
  });

  test('Magnetar: 7 honest validators sign in the workers; every bit set, the quorum met', async () => {
    const r = await magnetarRound(7, '');
    assert.deepEqual(r, {
      bits: '1111111', valid: 7, total: 7, signedWeight: 700, totalWeight: 700,
      verdict: 'quorum met', verdictState: 'valid', refusal: 'no bad signature to include',
    });
    assert.equal(await page.locator('#mag-grid .tile[data-bit="1"]').count(), 7);
    const workers = new Set(await page.locator('#mag-grid .tile .wk').allTextContents());
    assert.ok(workers.size >= 1, `hosted by ${[...workers]}`);
    await screenshot('magnetar-7-honest');
  });

  test('Magnetar: a cheating validator\'s bit is 0, it is counted out, count and weight drop; the quorum still holds', async () => {
    const r = await magnetarRound(7, '3');
    assert.equal(r.bits, '1101111');
    assert.equal(await page.getAttribute('#mag-grid .tile[data-validator="3"]', 'data-bit'), '0');
    assert.equal(await page.getAttribute('#mag-grid .tile[data-validator="3"]', 'data-state'), 'blamed');
    assert.deepEqual([r.valid, r.total, r.signedWeight, r.totalWeight], [6, 7, 600, 700]);
    assert.deepEqual([r.verdict, r.verdictState], ['quorum met', 'valid']);
    assert.equal(await page.getAttribute('#mag-refusal', 'data-code'), 'INVALID_SIGNATURE');
    assert.match(r.refusal, /naming validator 3$/);
    await screenshot('magnetar-7-cheater');
  });

  test('Magnetar: with 3 validators one cheater leaves exactly 2/3, which is not more than 2/3', async () => {
    const r = await magnetarRound(3, '2');
    assert.deepEqual([r.bits, r.valid, r.signedWeight, r.totalWeight], ['101', 2, 200, 300]);
    assert.deepEqual([r.verdict, r.verdictState], ['quorum not met', 'invalid']);
    await page.fill('#mag-validators', '7');
    await page.selectOption('#mag-cheater', '');
  });

  async function followChain(toggle) {
    await page.selectOption('#lc-toggle', toggle);
    const before = Number((await page.getAttribute('body', 'data-lc-runs')) ?? 0);
    await page.click('#lc-run');
    await page.waitForFunction((n) => Number(document.body.dataset.lcRuns ?? 0) > n, before, { timeout: RUN_TIMEOUT });
    return {
      state: await page.getAttribute('#lc-verdict', 'data-state'),
      code: await page.getAttribute('#lc-verdict', 'data-code'),
      rows: await page.locator('#lc-blocks tr[data-certificate]').evaluateAll((rs) => rs.map((r) => ({ cert: r.dataset.certificate, verdict: r.dataset.verdict, code: r.dataset.code ?? '' }))),
    };
  }

  test('light-client tab: the golden chain is followed across the epoch change, leg by leg with timings', async () => {
    await page.click('#tab-light');
    assert.ok(await page.locator('#panel-light').isVisible());
    await page.waitForSelector('#lc-run:not([disabled])', { timeout: TIMEOUT });
    assert.match(await text('#lc-trust'), /trusts the validator set it starts from/);
    assert.match(await text('#lc-trust'), /not that the chain\s+is valid otherwise/);
    assert.match(await text('#lc-source'), /kats\/cert\.json/);
    const r = await followChain('');
    assert.equal(r.state, 'valid', await text('#lc-detail'));
    assert.deepEqual(r.rows.map((x) => x.verdict), ['accepted', 'accepted', 'accepted', 'accepted']);
    assert.match(await text('#lc-verdict'), /epoch 1, height 7/);
    const legs = await page.locator('#lc-blocks .leg[data-state="valid"]').count();
    assert.equal(legs, 8, 'bls and pulsar valid in each of the 4 blocks');
    assert.match(await text('#lc-blocks'), /bls: valid, 3 signers, weight 90\/100 [\d.]+ (ms|µs|s)/);
    await screenshot('light-client-chain');
  });

  test('light-client tab: the committee chain (a Pulsar leg no machine could sign alone) is followed into key era 1; its broken Pulsar leg refused', async () => {
    await page.selectOption('#lc-chain', 'committee');
    const toggles = await page.locator('#lc-toggle option').evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(toggles, ['', 'pulsar-leg', 'skip-epoch'], 'only the breaks the committee chain has');
    const r = await followChain('');
    assert.equal(r.state, 'valid', await text('#lc-detail'));
    assert.deepEqual(r.rows.map((x) => x.cert), ['committee-1', 'committee-end-of-epoch-0', 'committee-epoch-1']);
    assert.match(await text('#lc-verdict'), /epoch 1, height 3/);
    assert.match(await text('#lc-detail'), /key era 1: the Pulsar leg is signed by a committee whose key no machine ever held/);
    assert.equal(await page.locator('#lc-blocks .leg[data-kind="pulsar"][data-state="valid"]').count(), 3);
    const broken = await followChain('pulsar-leg');
    assert.equal(broken.code, 'INVALID_SIGNATURE');
    assert.equal(broken.rows[0].verdict, 'refused');
    await page.selectOption('#lc-chain', 'custody');
  });

  for (const [toggle, code] of [['bls-leg', 'INVALID_SIGNATURE'], ['pulsar-leg', 'INVALID_SIGNATURE'], ['quorum', 'QUORUM_NOT_MET'], ['forged-set', 'NEXT_SET_MISMATCH'], ['skip-epoch', 'SKIPPED_EPOCH']]) {
    test(`light-client tab: "${toggle}" is refused with ${code}, its reason shown`, async () => {
      const r = await followChain(toggle);
      assert.equal(r.state, 'invalid');
      assert.equal(r.code, code);
      assert.ok(r.rows.some((x) => x.verdict === 'refused' && x.code === code), JSON.stringify(r.rows));
      assert.match(await text('#lc-detail'), /The client ended at epoch \d+, height/);
      assert.ok((await page.locator('#lc-refusals li').count()) >= 1, 'the refused blocks are listed');
    });
  }

  test('ML-DSA tab is reachable', async () => {
    await page.click('#tab-mldsa');
    assert.ok(await page.locator('#panel-mldsa').isVisible());
    assert.ok(await page.locator('#panel-threshold').isHidden());
    assert.match(await text('#ml-status'), /WebAssembly ready/);
  });

  for (const level of LEVELS) {
    test(`ML-DSA-${level}: keygen, sign, verify valid; flipped byte verifies invalid`, async () => {
      await page.selectOption('#ml-level', level);
      await clickAndSettle('#ml-keygen');
      assert.equal(await text('#ml-pk-size'), `${EXPECTED[level].publicKey.toLocaleString('en-US')} bytes`);
      assert.match(await text('#ml-pk-hex'), /^[0-9a-f]{64}…$/);

      await page.fill('#ml-message', `Quasar finality, ML-DSA-${level}, block ${Date.now()}`);
      await page.fill('#ml-context', 'quasar-demo-v1');
      await page.setChecked('#ml-deterministic', true);
      await clickAndSettle('#ml-sign');
      assert.equal(await text('#ml-sig-size'), `${EXPECTED[level].signature.toLocaleString('en-US')} bytes`);

      await clickAndSettle('#ml-verify');
      assert.equal(await text('#ml-verdict'), 'valid');
      await screenshot(`mldsa${level}-valid`);

      await clickAndSettle('#ml-flip');
      assert.match(await text('#ml-tamper'), /^flipped byte \d[\d,]* of /);
      await clickAndSettle('#ml-verify');
      assert.equal(await text('#ml-verdict'), 'invalid');
      await screenshot(`mldsa${level}-flipped-invalid`);
    });
  }

  test('editing the message after signing makes verify say invalid', async () => {
    await page.selectOption('#ml-level', '65');
    await clickAndSettle('#ml-keygen');
    await page.fill('#ml-message', 'pay 10 to alice');
    await page.fill('#ml-context', '');
    await clickAndSettle('#ml-sign');
    await clickAndSettle('#ml-verify');
    assert.equal(await text('#ml-verdict'), 'valid');

    await page.fill('#ml-message', 'pay 99 to mallory');
    await clickAndSettle('#ml-verify');
    assert.equal(await text('#ml-verdict'), 'invalid');

    await page.fill('#ml-message', 'pay 10 to alice');
    await clickAndSettle('#ml-verify');
    assert.equal(await text('#ml-verdict'), 'valid');
  });

  test('deterministic signatures repeat, hedged ones do not', async () => {
    await page.selectOption('#ml-level', '44');
    await clickAndSettle('#ml-keygen');
    await page.fill('#ml-message', 'same message');
    const sign = async () => {
      await clickAndSettle('#ml-sign');
      return text('#ml-sig-hex');
    };
    await page.setChecked('#ml-deterministic', true);
    assert.equal(await sign(), await sign());
    await page.setChecked('#ml-deterministic', false);
    assert.notEqual(await sign(), await sign());
    assert.equal(await text('#ml-sig-mode'), 'hedged');
    await clickAndSettle('#ml-verify');
    assert.equal(await text('#ml-verdict'), 'valid');
    await page.setChecked('#ml-deterministic', true);
  });

  test('a context over 255 bytes is reported in the page', async () => {
    await page.selectOption('#ml-level', '44');
    await clickAndSettle('#ml-keygen');
    await page.fill('#ml-context', 'x'.repeat(256));
    await page.click('#ml-sign');
    await page.waitForSelector('#ml-error', { state: 'visible' });
    const msg = await text('#ml-error-text');
    assert.ok(msg.length > 0, 'error text is empty');
    assert.equal(await text('#ml-sig-size'), '—', 'no signature should be shown after a failed sign');
    await screenshot('context-too-long');
    await page.fill('#ml-context', '');
    await page.click('#ml-error-dismiss');
  });

  test('modules by need: a page opened on the ML-DSA tab runs on quasar-pq/sign and fetches the demo build only when a threshold tab opens', async () => {
    const other = await context.newPage();
    const fetched = [];
    other.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    try {
      await other.goto(`${server.url}#mldsa`, { waitUntil: 'load' });
      await other.waitForSelector('body[data-ready]', { state: 'attached', timeout: TIMEOUT });
      assert.equal(await other.getAttribute('body', 'data-ready'), '1');
      await other.click('#ml-keygen');
      await other.click('#ml-sign');
      await other.click('#ml-verify');
      await other.waitForFunction(() => document.querySelector('#ml-verdict')?.textContent === 'valid', null, { timeout: TIMEOUT });
      assert.ok(fetched.includes('/pkg/sign/quasar_pq_bg.wasm'), 'the ML-DSA tab loads quasar-pq/sign');
      assert.deepEqual(fetched.filter((f) => f.startsWith('/pkg/demo/') || f.startsWith('/pkg/full/')), [], 'no demo or full build yet');
      await other.click('#tab-committee');
      await other.waitForFunction(() => !document.querySelector('#cm-run')?.disabled, null, { timeout: TIMEOUT });
      assert.ok(fetched.includes('/pkg/demo/quasar_pq_bg.wasm'), 'the committee tab brought the demo build');
    } finally {
      await other.close();
    }
  });

  test('no uncaught page errors or console errors', () => {
    assert.deepEqual(pageErrors, [], `uncaught page errors:\n${pageErrors.join('\n')}`);
    assert.deepEqual(consoleErrors, [], `console errors:\n${consoleErrors.join('\n')}`);
  });
});
