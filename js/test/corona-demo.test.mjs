// Browser test of the demo's Corona tab (www/corona.js), driven by playwright-core through
// Debian's Chromium: the page (the trusted dealer) deals a 3-of-5 key, each party loads its own
// package in the worker pool, and parties 1, 2 and 3 sign in two rounds; every signer combines
// the same signature and `corona.verify` says "valid" under the group key; the round-1 size
// (614,666 + 36·3 = 614,774 bytes, ~615 KB) is shown. Then, with the same key: a wrong response
// (bad-contribution) ends every signer with UNATTRIBUTABLE_ABORT and nobody is named; a garbage
// sender is named MALFORMED_MESSAGE by the honest signers while the session stalls. No long
// task on the page's thread over the budget, nothing wider than its card on a desktop or a phone,
// `?seed=` reproduces a run, no console error.
//
//   node --test js/test/corona-demo.test.mjs
//
// Needs /usr/bin/chromium and a built WASM package (`npm run build`), like js/test/browser.test.mjs.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { openChromium } from '../support/chromium.mjs';
import { patience, SLOWNESS } from '../support/patience.mjs';

const TIMEOUT = patience(120);

let browser;
let server;
let page;
let pageErrors = [];
let consoleErrors = [];

const text = async (selector) => (await page.locator(selector).textContent()).trim();

/** Set the form: n, t, the ticked signers, the cheater and its kind. */
async function setForm({ n = 5, t = 3, signers, cheater = '', kind = 'bad-contribution' } = {}) {
  await page.fill('#co-n', String(n));
  await page.fill('#co-t', String(t));
  if (signers) {
    for (let id = 1; id <= n; id++) await page.setChecked(`#co-signers input[value="${id}"]`, signers.includes(id));
  }
  await page.selectOption('#co-cheater', cheater);
  if (cheater) await page.selectOption('#co-cheat-kind', kind);
}

/** Click a button of the tab and wait until its action ended (success or error). */
async function act(selector) {
  const before = Number((await page.getAttribute('body', 'data-co-runs')) ?? 0);
  await page.click(selector);
  await page.waitForFunction((n) => Number(document.body.dataset.coRuns ?? 0) > n, before, { timeout: TIMEOUT });
  if (await page.locator('#co-error').isVisible()) assert.fail(`${selector}: the tab shows an error: ${await text('#co-error-text')}`);
}

/** The parties table: id -> { outcome (data-outcome), cells }. */
async function parties() {
  const rows = await page.$$eval('#co-parties tbody tr[data-party]', (trs) =>
    trs.map((tr) => ({ id: Number(tr.dataset.party), outcome: tr.dataset.outcome, cells: [...tr.cells].map((c) => c.textContent.trim()) })),
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** The rounds table: data-round -> its cells. */
async function rounds() {
  const rows = await page.$$eval('#co-rounds tbody tr[data-round]', (trs) => trs.map((tr) => [tr.dataset.round, [...tr.cells].map((c) => c.textContent.trim())]));
  return rows;
}

/** What sticks out: the document wider than the viewport, or an element of a card wider than its card. */
async function overflow() {
  return page.evaluate(() => {
    const out = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth) out.push(`the document is ${doc.scrollWidth} px wide in ${doc.clientWidth}`);
    const name = (e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}`;
    for (const card of document.querySelectorAll('#panel-corona .card, #panel-corona .note')) {
      const c = card.getBoundingClientRect();
      for (const e of card.querySelectorAll('*')) {
        if (!e.getClientRects().length) continue;
        const r = e.getBoundingClientRect();
        if (r.width > 0 && (r.right > c.right + 1 || r.left < c.left - 1)) out.push(`${name(e)} outside ${name(card)}`);
      }
    }
    return out.slice(0, 10);
  });
}

/** Long tasks (over `ms`) on the page's own thread, from a buffered observer installed at load. */
const longTasks = (ms) => page.evaluate((limit) => window.__coLongTasks.filter((d) => d > limit), ms);

describe('demo: the Corona tab in Chromium', { timeout: patience(300) }, () => {
  before(async () => {
    browser = await openChromium({ needs: ['pkg/demo/quasar_pq.js', 'js/support/demo.mjs'], profile: 'corona', timeout: TIMEOUT });
    ({ server, page, pageErrors, consoleErrors } = browser);
    await page.addInitScript(() => {
      window.__coLongTasks = [];
      try {
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__coLongTasks.push(e.duration);
        }).observe({ type: 'longtask', buffered: true });
      } catch {
        // no Long Tasks API
      }
    });
    await page.goto(`${server.url}#corona`, { waitUntil: 'load' });
    await page.waitForSelector('body[data-ready]', { state: 'attached', timeout: TIMEOUT });
    assert.equal(await page.getAttribute('body', 'data-ready'), '1', 'the demo initialised');
    assert.equal(await page.getAttribute('#tab-corona', 'aria-selected'), 'true');
    assert.match(await page.title(), /Corona/);
    await page.waitForSelector('#co-run:not([disabled])', { timeout: TIMEOUT });
  });

  after(() => browser?.close());

  test('3 of 5, parties 1–3 sign in two rounds; every signer combines the same signature; corona.verify: valid', async () => {
    // The defaults: t = 3, n = 5, the first t ticked.
    assert.equal(await page.inputValue('#co-n'), '5');
    assert.equal(await page.inputValue('#co-t'), '3');
    await page.evaluate(() => {
      window.__coLongTasks.length = 0;
    });
    await act('#co-run');
    assert.equal(await page.getAttribute('#co-status', 'data-state'), 'done', await text('#co-status'));
    assert.equal(await page.getAttribute('#co-verdict', 'data-state'), 'valid');
    assert.equal(await text('#co-verdict'), 'valid');
    assert.match(await text('#co-verdict-detail'), /corona\.verify/);
    assert.match(await text('#co-key'), /3 of 5, trusted dealer.*knew the whole key while dealing and kept nothing/);
    assert.equal(await text('#co-gk-size'), '4,654 bytes');
    assert.equal(await text('#co-sig-size'), '15,666 bytes');
    assert.equal(await page.getAttribute('#co-r1-size', 'data-bytes'), '614774');
    assert.match(await text('#co-r1-size'), /^614,774 bytes \(~615 KB: 614,666 \+ 36·K\) — the scheme’s price for two rounds$/);
    assert.equal(await text('#co-r2-size'), '11,048 bytes');
    const r = new Map(await rounds());
    for (const id of ['deal', 'load', 'r1', 'r2', 'combine', 'verify']) assert.ok(r.has(id), `row ${id}: ${[...r.keys()].join(', ')}`);
    assert.match(r.get('r1')[0], /about 615 KB per signer, the scheme’s price for two rounds/);
    assert.equal(r.get('r1')[1], '3 broadcasts (6 deliveries)');
    assert.equal(r.get('r1')[2], '614,774 bytes each');
    assert.equal(r.get('r2')[2], '11,048 bytes each');
    for (const id of ['r1', 'r2', 'combine']) assert.match(r.get(id)[3], /^[\d.]+ (µs|ms|s) \/ [\d.]+ (µs|ms|s) \/ [\d.]+ (µs|ms|s)$/, `${id} time: ${r.get(id)[3]}`);
    assert.match(r.get('r1')[4], /sampling R′ᵢ and E′ᵢ .* computing Dᵢ = A·R′ᵢ \+ E′ᵢ/);
    assert.match(r.get('r2')[4], /hashing and checking the other signers’ commitments.*challenge.*zᵢ/);
    assert.match(r.get('combine')[4], /verifying/);
    assert.match(r.get('deal')[0], /this page’s main thread.*knows the whole key while dealing, and keeps nothing/);
    const p = await parties();
    for (const id of [1, 2, 3]) {
      assert.equal(p.get(id).outcome, 'signed', `party ${id}: ${p.get(id).cells.join(' | ')}`);
      assert.match(p.get(id).cells[3], /^2 broadcasts, 625\.8 KB$/, `party ${id} sent`);
    }
    for (const id of [4, 5]) assert.equal(p.get(id).cells[2], 'not signing');
    assert.match(await text('#co-trust'), /^Corona: a trusted dealer/);
    // The page's thread: the budget of js/test/demo-tabs.test.mjs (100 ms on an idle machine).
    const long = await longTasks(100 * SLOWNESS);
    assert.deepEqual(long, [], `main-thread tasks over ${100 * SLOWNESS} ms during the run`);
    assert.match(await text('#co-main-thread'), /^Page thread during "Dealing and signing"/);
    // The layout holds on a desktop and on a phone.
    for (const viewport of [{ width: 390, height: 844 }, { width: 1366, height: 900 }]) {
      await page.setViewportSize(viewport);
      assert.deepEqual(await overflow(), [], `at ${viewport.width}`);
    }
  });

  test('a wrong response (bad-contribution): every signer ends with UNATTRIBUTABLE_ABORT, nobody can be named', async () => {
    await setForm({ n: 5, t: 3, signers: [1, 2, 3], cheater: '2', kind: 'bad-contribution' });
    await act('#co-sign'); // the same key
    assert.equal(await page.getAttribute('#co-verdict', 'data-state'), 'nosig');
    assert.equal(await page.getAttribute('#co-blame', 'data-state'), 'unattributable');
    assert.equal(await page.getAttribute('#co-blame', 'data-code'), 'UNATTRIBUTABLE_ABORT');
    assert.equal(await page.getAttribute('#co-blame', 'data-party'), null, 'nobody is named');
    assert.match(await text('#co-blame'), /Nobody can be named\. Parties 1, 2 and 3 ended with UNATTRIBUTABLE_ABORT\./);
    const p = await parties();
    for (const id of [1, 3]) assert.equal(p.get(id).cells[5], 'stopped: UNATTRIBUTABLE_ABORT: nobody can be named', `party ${id}`);
    assert.match(await text('#co-status'), /UNATTRIBUTABLE_ABORT — nobody can be named/);
  });

  test('a garbage sender is named MALFORMED_MESSAGE by the honest signers; the session stalls', async () => {
    await setForm({ n: 5, t: 3, signers: [1, 3, 4], cheater: '3', kind: 'garbage' });
    await act('#co-sign');
    assert.equal(await page.getAttribute('#co-verdict', 'data-state'), 'nosig');
    assert.equal(await page.getAttribute('#co-blame', 'data-state'), 'blamed');
    assert.equal(await page.getAttribute('#co-blame', 'data-party'), '3');
    assert.equal(await page.getAttribute('#co-blame', 'data-code'), 'MALFORMED_MESSAGE');
    assert.match(await text('#co-blame'), /party 3, named by parties 1 and 4: MALFORMED_MESSAGE/);
    assert.match(await text('#co-blame'), /The session cannot finish/);
    assert.ok((await rounds()).some(([id]) => id === 'stalled'), 'the stall is shown');
    assert.match(await text('#co-status'), /party 3 named \(MALFORMED_MESSAGE\); the session stalled and cannot finish/);
    const p = await parties();
    for (const id of [1, 4]) assert.equal(p.get(id).outcome, 'waiting', p.get(id).cells.join(' | '));
    assert.equal(p.get(3).outcome, 'named');
  });

  test('?seed= makes a run reproducible: the same group key and signature after a reload', async () => {
    const seen = [];
    for (let i = 0; i < 2; i++) {
      await page.goto('about:blank');
      await page.goto(`${server.url}?seed=corona-test#corona`, { waitUntil: 'load' });
      await page.waitForSelector('body[data-ready]', { state: 'attached', timeout: TIMEOUT });
      await page.waitForSelector('#co-run:not([disabled])', { timeout: TIMEOUT });
      await setForm({ n: 3, t: 2 });
      await act('#co-run');
      assert.equal(await page.getAttribute('#co-verdict', 'data-state'), 'valid');
      seen.push([await text('#co-gk-hex'), await text('#co-sig-hex')]);
    }
    assert.deepEqual(seen[0], seen[1]);
  });

  test('no uncaught page errors or console errors', () => {
    assert.deepEqual(pageErrors, [], `uncaught page errors:\n${pageErrors.join('\n')}`);
    assert.deepEqual(consoleErrors, [], `console errors:\n${consoleErrors.join('\n')}`);
  });
});
