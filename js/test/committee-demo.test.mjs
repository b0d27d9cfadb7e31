// Browser test of the demo's Pulsar committee tab (www/committee.js), driven by playwright-core
// through Debian's Chromium: N = 4 members in the worker pool generate an ML-DSA-44 key by the
// distributed key generation and T = 3 of them sign; the plain FIPS 204 verifier says "valid"
// under the committee's key. Then, with the same key: a signer whose reveal breaks its
// commitment is named by the others with the library's code and nothing is signed; a signer
// sending garbage stalls the session (the scheme is not robust) and nothing is signed; a
// trusted dealer's key signs with another signer set; the form refuses a signer set that is
// not exactly T; `?seed=` makes a run reproducible. No console error.
//
//   node --test js/test/committee-demo.test.mjs
//
// Needs /usr/bin/chromium and a built WASM package (`npm run build`), like js/test/browser.test.mjs.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { openChromium } from '../support/chromium.mjs';
import { patience } from '../support/patience.mjs';

const TIMEOUT = patience(120);

let browser;
let server;
let page;
let pageErrors = [];
let consoleErrors = [];

const text = async (selector) => (await page.locator(selector).textContent()).trim();

/** Open the page on the committee tab (with `query`, e.g. "?seed=…") and wait until it is ready. */
async function open(query = '') {
  // From a blank page: going to the same URL with a #hash would not load the page again.
  await page.goto('about:blank');
  await page.goto(`${server.url}${query}#committee`, { waitUntil: 'load' });
  await page.waitForSelector('body[data-ready]', { state: 'attached', timeout: TIMEOUT });
  assert.equal(await page.getAttribute('body', 'data-ready'), '1', 'the demo initialised');
  assert.equal(await page.getAttribute('#tab-committee', 'aria-selected'), 'true');
}

/** Set the form: N, T, level, key generation, the ticked signers, the cheater and its kind. */
async function setForm({ n = 4, t = 3, level = '44', keygen = 'dkg', signers, cheater = '', kind = 'bad-contribution' } = {}) {
  await page.fill('#cm-n', String(n));
  await page.fill('#cm-t', String(t));
  await page.selectOption('#cm-level', level);
  await page.selectOption('#cm-keygen', keygen);
  if (signers) {
    for (let id = 1; id <= n; id++) await page.setChecked(`#cm-signers input[value="${id}"]`, signers.includes(id));
  }
  await page.selectOption('#cm-cheater', cheater);
  if (cheater) await page.selectOption('#cm-cheat-kind', kind);
}

/** Click a button of the tab and wait until its action ended (success or error). */
async function act(selector) {
  const before = Number((await page.getAttribute('body', 'data-cm-runs')) ?? 0);
  await page.click(selector);
  await page.waitForFunction((n) => Number(document.body.dataset.cmRuns ?? 0) > n, before, { timeout: TIMEOUT });
  if (await page.locator('#cm-error').isVisible()) assert.fail(`${selector}: the tab shows an error: ${await text('#cm-error-text')}`);
}

/** The members table: member id -> { outcome (data-outcome), cells }. */
async function members() {
  const rows = await page.$$eval('#cm-members tbody tr[data-member]', (trs) =>
    trs.map((tr) => ({ id: Number(tr.dataset.member), outcome: tr.dataset.outcome, cells: [...tr.cells].map((c) => c.textContent.trim()) })),
  );
  return new Map(rows.map((r) => [r.id, r]));
}

const rounds = () => page.$$eval('#cm-rounds tbody tr', (trs) => trs.map((tr) => tr.cells[0].textContent.trim()));

describe('demo: the Pulsar committee tab in Chromium', { timeout: patience(600) }, () => {
  before(async () => {
    browser = await openChromium({ needs: ['pkg/demo/quasar_pq.js', 'js/support/demo.mjs'], profile: 'committee', timeout: TIMEOUT });
    ({ server, page, pageErrors, consoleErrors } = browser);
    await open();
  });

  after(() => browser?.close());

  test('N = 4, T = 3 at ML-DSA-44: the distributed key generation, then signing; the standard verifier says valid', async () => {
    await setForm({ n: 4, t: 3, level: '44', keygen: 'dkg' });
    await act('#cm-run');
    assert.equal(await page.getAttribute('#cm-status', 'data-state'), 'done', await text('#cm-status'));
    assert.equal(await page.getAttribute('#cm-verdict', 'data-state'), 'valid');
    assert.equal(await text('#cm-verdict'), 'valid');
    assert.match(await text('#cm-verdict-detail'), /ML-DSA-44 verify \(FIPS 204\)/);
    assert.ok(Number(await page.getAttribute('#cm-runs', 'data-runs')) >= 1, 'runs used');
    assert.ok(Number(await page.getAttribute('#cm-slots', 'data-slots')) >= 1, 'slots per run');
    assert.equal(await page.getAttribute('#cm-key-mode', 'data-mode'), 'dkg');
    assert.equal(await text('#cm-sig-size'), '2,420 bytes');
    const m = await members();
    for (const id of [1, 2, 3]) {
      assert.equal(m.get(id).outcome, 'signed', `member ${id}: ${m.get(id).cells.join(' | ')}`);
      assert.match(m.get(id).cells[5], /^\d+$/, `member ${id}: rejected slots`);
    }
    assert.equal(m.get(4).cells[3], 'not signing');
    const r = await rounds();
    assert.ok(r.some((x) => x.startsWith('Key generation · commitments')), r.join('\n'));
    for (const step of ['commit', 'reveal', 'respond']) assert.ok(r.some((x) => x.startsWith(`Run 1 · ${step}: `)), `${step}: ${r.join('\n')}`);
    // The last run combined the signature; a run before it restarted (the table says so).
    const runs = Number(await page.getAttribute('#cm-runs', 'data-runs'));
    assert.ok(r.some((x) => x.startsWith(`Run ${runs} · combine: `)), `combine in run ${runs}: ${r.join('\n')}`);
    assert.equal(r.filter((x) => x.includes('restarted with fresh randomness')).length, runs - 1, r.join('\n'));
    assert.match(await text('#cm-trust'), /Pulsar committee/);
  });

  test('a signer whose reveal breaks its commitment is named with the library code; nothing is signed', async () => {
    await setForm({ n: 4, t: 3, signers: [1, 2, 3], cheater: '2', kind: 'bad-contribution' });
    await act('#cm-sign'); // the same key
    assert.equal(await page.getAttribute('#cm-blame', 'data-state'), 'blamed');
    assert.equal(await page.getAttribute('#cm-blame', 'data-party'), '2');
    assert.equal(await page.getAttribute('#cm-blame', 'data-code'), 'BROKEN_REVEAL');
    assert.match(await text('#cm-blame'), /member 2, named by members 1 and 3: BROKEN_REVEAL/);
    assert.equal(await page.getAttribute('#cm-verdict', 'data-state'), 'nosig', 'no signature, so no verdict');
    const m = await members();
    for (const id of [1, 3]) assert.equal(m.get(id).outcome, 'stopped', m.get(id).cells.join(' | '));
  });

  test('a signer sending garbage stalls the session (not robust): nothing is signed, no honest member is named', async () => {
    await setForm({ n: 4, t: 3, signers: [1, 2, 3], cheater: '2', kind: 'garbage' });
    await act('#cm-sign');
    assert.equal(await page.getAttribute('#cm-verdict', 'data-state'), 'nosig');
    // The library names a dropped sender in the outcome of a signer that finishes; a stalled
    // signer never finishes, so nobody is named — and certainly no honest member.
    const named = (await page.getAttribute('#cm-blame', 'data-party')) ?? '';
    assert.ok(named === '' || named === '2', `named: ${named}`);
    if (named === '') assert.match(await text('#cm-blame'), /Nobody was named\. Member 2 was set to send garbage/);
    else assert.ok(await page.getAttribute('#cm-blame', 'data-code'), 'a named member has its code');
    assert.ok((await rounds()).some((x) => x.includes('stalled')), 'the stall is shown');
    assert.match(await text('#cm-status'), /stalled/);
  });

  test('a trusted dealer’s key (the dealer knew it) signs with members 2, 3 and 4', async () => {
    await setForm({ n: 4, t: 3, keygen: 'dealer', signers: [2, 3, 4], cheater: '' });
    await act('#cm-run');
    assert.equal(await page.getAttribute('#cm-key-mode', 'data-mode'), 'dealer');
    assert.match(await text('#cm-key-mode'), /dealer.*knew the key/);
    assert.ok((await rounds()).some((x) => x.startsWith('Trusted dealer')));
    assert.equal(await page.getAttribute('#cm-verdict', 'data-state'), 'valid');
    const m = await members();
    assert.deepEqual([1, 2, 3, 4].map((id) => m.get(id).outcome), ['share', 'signed', 'signed', 'signed']);
  });

  test('the form wants exactly T signers', async () => {
    await setForm({ n: 4, t: 3, keygen: 'dkg', signers: [1, 2] });
    assert.ok(await page.isDisabled('#cm-run'));
    assert.match(await text('#cm-hint'), /Tick exactly T = 3 signers \(2 ticked\)/);
    await page.setChecked('#cm-signers input[value="4"]', true);
    assert.ok(await page.isEnabled('#cm-run'));
  });

  test('?seed= makes a run reproducible: the same key and signature after a reload', async () => {
    const seen = [];
    for (let i = 0; i < 2; i++) {
      await open('?seed=committee-test');
      await setForm({ n: 3, t: 2, level: '44', keygen: 'dkg' });
      await act('#cm-run');
      assert.equal(await page.getAttribute('#cm-verdict', 'data-state'), 'valid');
      seen.push([await text('#cm-pk-hex'), await text('#cm-sig-hex')]);
    }
    assert.deepEqual(seen[0], seen[1]);
  });

  test('no uncaught page errors or console errors', () => {
    assert.deepEqual(pageErrors, [], `uncaught page errors:\n${pageErrors.join('\n')}`);
    assert.deepEqual(consoleErrors, [], `console errors:\n${consoleErrors.join('\n')}`);
  });
});
