// Browser test, one part per demo tab (www/index.html: threshold, Pulsar committee, Magnetar,
// light client, ML-DSA),
// driven by playwright-core through Debian's Chromium, at 1366×900 and 390×844:
//
// - no horizontal overflow: the document is no wider than the viewport, and no element of a
//   card is wider than its card (the threshold tab's tables may scroll inside their card);
// - the first screen on a phone shows the tab's controls;
// - the title and the header say which tab this is;
// - no main-thread task over 100 ms during a run (Long Tasks API, buffered observer; the budget
//   stretches with the measured slowness of a busy machine): the committee's key generation and
//   signing at 4 of 6, the Magnetar round at K = 64, every light-client chain, the ML-DSA tab's
//   operations;
// - the light-client summary matches its table for every break toggle: where the client ended
//   (the last accepted block), every refused block with its code and reason, heights in order
//   with every jump explained; the Corona chain under both PQ-strict policies: the Corona leg
//   valid in every block, its trust note shown, its broken leg refused;
// - no console or page error.
//
//   node --test js/test/demo-tabs.test.mjs
//
// The threshold tab's run-time checks live in js/test/browser.test.mjs, the committee tab's in
// js/test/committee-demo.test.mjs. Needs /usr/bin/chromium
// and a built WASM package (`npm run build`), like js/test/browser.test.mjs.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { openChromium } from '../support/chromium.mjs';
import { patience, SLOWNESS, slownessNow } from '../support/patience.mjs';

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };
const TIMEOUT = patience(120);
const RUN_TIMEOUT = patience(300);
// The Long Tasks budget: 100 ms on an idle machine. A machine busy with other builds stretches
// every task (a thread waiting for a core counts in its task's duration), so the budget
// stretches with the slowness measured before, during and after the run, the slowest of:
// patience.mjs's calibration (this process), and a fixed JavaScript workload timed in tasks of
// the page's main thread against its time here at the suite's start, scaled to an idle machine
// (the page's main thread shares the cores with its own workers, busy during a run, and with
// every other process). Those sampling tasks are not counted as the page's. A slow machine
// never makes the suite red; on an idle one the budget is 100 ms.
const LONG_TASK_MS = 100;
/** The sampling workload during a run: a tenth of the calibration's. */
const SAMPLE_SHARE = 10;
const SAMPLE_EVERY_MS = 250;

/** A fixed CPU workload in plain JavaScript, the same here and in the page. */
function workload(n = 20_000_000) {
  let x = 0;
  for (let i = 0; i < n; i += 1) x = (Math.imul(x, 31) + i) | 0;
  return x;
}
/** What `workload` takes on an idle machine, in ms: timed here once, over this process's slowness. */
const WORKLOAD_IDLE_MS = (() => {
  const t0 = performance.now();
  workload();
  return Math.max(1, (performance.now() - t0) / SLOWNESS);
})();

/** The page's main thread's slowness now, ≥ 1: `workload` timed in one of its tasks. */
async function pageSlowness() {
  const ms = await page.evaluate(
    (src) =>
      new Promise((resolve) => {
        const work = new Function(`return (${src})();`);
        setTimeout(() => {
          const t0 = performance.now();
          work();
          resolve(performance.now() - t0);
        }, 0);
      }),
    workload.toString(),
  );
  return Math.min(20, Math.max(1, ms / WORKLOAD_IDLE_MS));
}

/** The slowest of this process and the page's main thread, now. */
async function slownessBoth() {
  return Math.max(slownessNow(), await pageSlowness());
}

/** Each tab: its id, what its title and heading must say, and its first control. */
const TABS = {
  threshold: { tab: '#tab-threshold', says: /threshold signatures/i, control: '#scheme' },
  committee: { tab: '#tab-committee', says: /committee/i, control: '#cm-n' },
  magnetar: { tab: '#tab-magnetar', says: /Magnetar/, control: '#mag-run' },
  light: { tab: '#tab-light', says: /light client/i, control: '#lc-run' },
  mldsa: { tab: '#tab-mldsa', says: /ML-DSA/, control: '#ml-keygen' },
};

/** Every light-client toggle and the refusal it must meet ('' = the honest chain). */
const LIGHT_TOGGLES = {
  '': null,
  'bls-leg': 'INVALID_SIGNATURE',
  'pulsar-leg': 'INVALID_SIGNATURE',
  quorum: 'QUORUM_NOT_MET',
  'forged-set': 'NEXT_SET_MISMATCH',
  'skip-epoch': 'SKIPPED_EPOCH',
};

/** Every long-task budget used, in ms (reported at the end). */
const budgets = [];
let browser;
let server;
let context;
let page;
let pageErrors = [];
let consoleErrors = [];

const text = async (selector) => (await page.locator(selector).textContent()).trim();

/** Run `action` and return the main-thread tasks longer than the budget that started during it. */
async function longTasksDuring(action) {
  const before = await slownessBoth();
  const since = await page.evaluate(
    ({ src, n, every }) => {
      window.__longTaskObserver.takeRecords().forEach((e) => window.__longTasks.push(e));
      // Sample the main thread's slowness during the run: [start, ms] of a fixed workload.
      const work = new Function(`return (${src})(${n});`);
      window.__samples = [];
      window.__sampler = setInterval(() => {
        const t0 = performance.now();
        work();
        window.__samples.push([t0, performance.now() - t0]);
      }, every);
      return performance.now();
    },
    { src: workload.toString(), n: 20_000_000 / SAMPLE_SHARE, every: SAMPLE_EVERY_MS },
  );
  await action();
  // A long task is reported when it ends; one more turn of the page's event loop, then read.
  const { tasks, samples } = await page.evaluate(async () => {
    clearInterval(window.__sampler);
    await new Promise((r) => setTimeout(r, 0));
    window.__longTaskObserver.takeRecords().forEach((e) => window.__longTasks.push(e));
    return { tasks: window.__longTasks.map((e) => ({ start: e.startTime, ms: e.duration, name: e.name })), samples: window.__samples };
  });
  const during = samples.map(([, ms]) => ms / (WORKLOAD_IDLE_MS / SAMPLE_SHARE));
  const slowness = Math.min(20, Math.max(SLOWNESS, before, await slownessBoth(), ...during));
  const budget = LONG_TASK_MS * slowness;
  budgets.push(Math.round(budget));
  // A sampling task is the test's, not the page's.
  const sampling = (t) => samples.some(([t0]) => t0 >= t.start && t0 <= t.start + t.ms);
  return tasks.filter((t) => t.start >= since && t.ms > budget && !sampling(t)).map((t) => ({ ...t, budget }));
}

/** Open a tab at a viewport size; check its title, heading and layout. */
async function openTab(name, viewport) {
  await page.setViewportSize(viewport);
  await page.click(TABS[name].tab);
  await page.evaluate(() => window.scrollTo(0, 0));
  const title = await page.title();
  const heading = await text('header.site h1');
  assert.match(title, TABS[name].says, `${name}: the title says the tab: ${title}`);
  assert.match(heading, TABS[name].says, `${name}: the header says the tab: ${heading}`);
  if (name !== 'threshold') {
    assert.doesNotMatch(title, /threshold/i, `${name}: title ${title}`);
    assert.doesNotMatch(heading, /threshold/i, `${name}: heading ${heading}`);
  }
}

/**
 * Elements that stick out of their card (or the document out of the viewport), as strings.
 * With `scrollers`, an element inside a horizontally scrolling box counts only through that box.
 */
async function overflow({ scrollers = false } = {}) {
  return page.evaluate((allowScrollers) => {
    const out = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth) out.push(`the document is ${doc.scrollWidth} px wide in ${doc.clientWidth}`);
    const name = (e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.className && typeof e.className === 'string' ? `.${e.className.split(' ').join('.')}` : ''}`;
    const panel = document.querySelector('[role="tabpanel"]:not([hidden])');
    for (const card of panel.querySelectorAll('.card, .note')) {
      const c = card.getBoundingClientRect();
      for (const e of card.querySelectorAll('*')) {
        if (!e.getClientRects().length) continue;
        if (allowScrollers && e.parentElement.closest('.table-wrap') && card.contains(e.parentElement.closest('.table-wrap'))) continue;
        const r = e.getBoundingClientRect();
        if (r.width === 0) continue;
        if (r.right > c.right + 1 || r.left < c.left - 1) {
          out.push(`${name(e)} [${Math.round(r.left)}, ${Math.round(r.right)}] outside ${name(card)} [${Math.round(c.left)}, ${Math.round(c.right)}]`);
        }
      }
    }
    return out.slice(0, 10);
  }, scrollers);
}

/** The light-client table and summary as a reader sees them. */
async function lightClientView() {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll('#lc-blocks tr')].map((tr) => ({
      gap: tr.classList.contains('gap'),
      cells: [...tr.cells].map((td) => td.textContent.trim()),
      fits: (() => {
        const card = tr.closest('.card').getBoundingClientRect();
        const v = tr.cells[2]?.getBoundingClientRect();
        return !v || (v.left >= card.left - 1 && v.right <= card.right + 1 && v.width > 0);
      })(),
    }));
    const wrap = document.querySelector('#lc-table').parentElement;
    return {
      rows,
      verdict: document.querySelector('#lc-verdict').textContent.trim(),
      state: document.querySelector('#lc-verdict').dataset.state,
      code: document.querySelector('#lc-verdict').dataset.code,
      detail: document.querySelector('#lc-detail').textContent.trim(),
      refusals: [...document.querySelectorAll('#lc-refusals li')].map((li) => li.textContent.trim()),
      tableFits: wrap.scrollWidth <= wrap.clientWidth,
    };
  });
}

async function followChain(toggle) {
  await page.selectOption('#lc-toggle', toggle);
  const before = Number((await page.getAttribute('body', 'data-lc-runs')) ?? 0);
  // The verification runs in a worker: the page says so ("verifying…") while it waits.
  await page.evaluate(() => {
    window.__lcStates = [];
    const v = document.querySelector('#lc-verdict');
    new MutationObserver(() => window.__lcStates.push(`${v.dataset.state}: ${v.textContent}`)).observe(v, { attributes: true, childList: true });
  });
  await page.click('#lc-run');
  await page.waitForFunction((n) => Number(document.body.dataset.lcRuns ?? 0) > n, before, { timeout: RUN_TIMEOUT });
  const states = await page.evaluate(() => window.__lcStates);
  assert.ok(states.includes('running: verifying…'), `"${toggle}": no "verifying…" state: ${JSON.stringify(states)}`);
}

/** The Corona chain's breaks (on the golden strict chain) and the refusal each must meet. */
const CORONA_TOGGLES = { '': null, 'corona-leg': 'INVALID_SIGNATURE', 'skip-epoch': 'SKIPPED_EPOCH' };

/** The summary must say what the rows say: where the client ended, and every refusal. */
function checkSummary(toggle, v, expect = LIGHT_TOGGLES[toggle]) {
  const blocks = v.rows.filter((r) => !r.gap);
  assert.ok(blocks.length >= 2, `${toggle}: ${blocks.length} rows`);
  // Columns: Height, Epoch, Light client, Legs, update().
  const parsed = blocks.map((r) => ({ height: Number(r.cells[0]), epoch: Number.parseInt(r.cells[1], 10), verdict: r.cells[2] }));
  for (const b of parsed) assert.ok(Number.isInteger(b.height) && Number.isInteger(b.epoch), `${toggle}: a block labelled by its height: ${JSON.stringify(b)}`);

  // Heights in order, and every jump has its row saying which heights are missing, and why.
  let prev = null;
  for (const r of v.rows) {
    if (r.gap) {
      assert.ok(prev !== null, `${toggle}: a gap row before any block`);
      continue;
    }
    const h = Number(r.cells[0]);
    if (prev !== null && h > prev + 1) {
      const gap = v.rows[v.rows.indexOf(r) - 1];
      assert.ok(gap.gap, `${toggle}: heights ${prev} → ${h} with no row explaining the jump`);
      const span = h - 1 === prev + 1 ? `Height ${prev + 1}:` : `Heights ${prev + 1}–${h - 1}:`;
      assert.ok(gap.cells[0].startsWith(span), `${toggle}: "${gap.cells[0]}" should start with "${span}"`);
      assert.match(gap.cells[0], /light client needs none/);
    }
    prev = h;
  }

  // Where the client ended: the last accepted block's height, in the epoch it moved to (if any).
  const accepted = parsed.filter((b) => b.verdict.startsWith('accepted'));
  const refused = parsed.filter((b) => b.verdict.startsWith('refused'));
  assert.equal(accepted.length + refused.length, parsed.length, `${toggle}: every block accepted or refused`);
  let epoch = 0;
  for (const b of accepted) epoch = Number(/now epoch (\d+)/.exec(b.verdict)?.[1] ?? b.epoch);
  const height = accepted.length ? String(accepted.at(-1).height) : 'none yet';
  const where = `epoch ${epoch}, height ${height}`;
  assert.ok(v.verdict.includes(where), `${toggle}: the verdict "${v.verdict}" should say ${where}`);
  assert.ok(v.detail.includes(`ended at ${where}`) || v.detail.includes(`client ended at ${where}`), `${toggle}: "${v.detail}" should say ${where}`);
  if (accepted.length) {
    const last = accepted.at(-1);
    assert.ok(v.detail.includes(`height ${last.height} of epoch ${last.epoch}`), `${toggle}: "${v.detail}" names the last accepted block`);
  }

  // Every refused block is listed, by its height, with its code and its reason.
  assert.equal(v.state, refused.length ? 'invalid' : 'valid', `${toggle}: ${v.verdict}`);
  assert.equal(v.refusals.length, refused.length, `${toggle}: ${JSON.stringify(v.refusals)}`);
  if (refused.length) assert.ok(v.verdict.startsWith(`${refused.length} of ${parsed.length} refused`), `${toggle}: ${v.verdict}`);
  refused.forEach((b, i) => {
    const reason = b.verdict.replace(/^refused: /, '');
    assert.ok(v.refusals[i].startsWith(`height ${b.height} (epoch ${b.epoch}): `), `${toggle}: "${v.refusals[i]}" for height ${b.height}`);
    assert.ok(v.refusals[i].endsWith(reason), `${toggle}: "${v.refusals[i]}" should end with "${reason}"`);
  });
  if (expect) {
    assert.equal(v.code, expect, toggle);
    assert.ok(refused.some((b) => b.verdict.startsWith(`refused: ${expect}: `)), `${toggle}: ${expect} among ${JSON.stringify(refused)}`);
  } else {
    assert.equal(refused.length, 0, `the honest chain: ${JSON.stringify(refused)}`);
  }
}

describe('demo tabs in Chromium: layout, titles, long tasks, the light-client summary', { timeout: patience(1200) }, () => {
  before(async () => {
    browser = await openChromium({ needs: ['pkg/demo/quasar_pq.js', 'pkg/light/quasar_pq.js', 'js/support/demo.mjs'], profile: 'tabs', viewport: DESKTOP, timeout: TIMEOUT });
    ({ server, context, page, pageErrors, consoleErrors } = browser);
    // Every main-thread task over 50 ms, from the page's start (buffered); tests read the ones
    // that began during a run.
    await page.addInitScript(() => {
      window.__longTasks = [];
      window.__longTaskObserver = new PerformanceObserver((list) => window.__longTasks.push(...list.getEntries()));
      window.__longTaskObserver.observe({ type: 'longtask', buffered: true });
    });
    await page.goto(server.url, { waitUntil: 'load' });
    await page.waitForSelector('body[data-ready]', { state: 'attached', timeout: TIMEOUT });
    assert.equal(await page.getAttribute('body', 'data-ready'), '1', 'the demo initialised');
  });

  after(() => browser?.close());

  test('the long-task observer sees a task over the budget (so the checks below can fail)', async () => {
    const ms = Math.ceil(LONG_TASK_MS * Math.max(SLOWNESS, await slownessBoth())) * 3 + 100;
    // A task of the page's own (script run through the DevTools protocol is not one).
    const busy = (n) =>
      new Promise((resolve) => {
        setTimeout(() => {
          const end = performance.now() + n;
          while (performance.now() < end);
          setTimeout(resolve, 0);
        }, 0);
      });
    const tasks = await longTasksDuring(() => page.evaluate(busy, ms));
    assert.ok(tasks.length >= 1, `a ${ms} ms busy loop was not reported as a long task`);
  });

  for (const viewport of [DESKTOP, PHONE]) {
    const size = `${viewport.width}×${viewport.height}`;

    test(`${size}: every tab has its own title and header, and nothing sticks out of its card`, async () => {
      for (const name of Object.keys(TABS)) {
        await openTab(name, viewport);
        // The threshold tab's tables scroll inside their cards (its layout is js/test/browser.test.mjs's).
        assert.deepEqual(await overflow({ scrollers: name === 'threshold' }), [], `${name} at ${size}`);
        if (viewport === PHONE) {
          const header = await page.locator('header.site').boundingBox();
          assert.ok(header.height <= viewport.height / 4, `${name}: the header takes ${header.height} of ${viewport.height} px`);
          const control = await page.locator(TABS[name].control).boundingBox();
          assert.ok(control && control.y + control.height <= viewport.height, `${name}: ${TABS[name].control} is below the first screen (${control?.y})`);
        }
      }
    });
  }

  test('light client: for every break, the summary matches the table; the table fits; no long task', async () => {
    await openTab('light', DESKTOP);
    await page.waitForSelector('#lc-run:not([disabled])', { timeout: TIMEOUT });
    for (const toggle of Object.keys(LIGHT_TOGGLES)) {
      const long = await longTasksDuring(() => followChain(toggle));
      assert.deepEqual(long, [], `"${toggle}": main-thread tasks over the budget`);
      const v = await lightClientView();
      checkSummary(toggle || 'honest', v);
      assert.ok(v.tableFits, `"${toggle}": the table is wider than its card`);
      assert.ok(v.rows.every((r) => r.fits), `"${toggle}": a verdict cell is outside the card`);
      assert.deepEqual(await overflow(), [], `"${toggle}" at 1366`);
    }
  });

  test('light client: the Corona chain under pq-strict and strict-pq-strict, its Corona leg valid with its trust note; broken, refused', async () => {
    await openTab('light', DESKTOP);
    await page.waitForSelector('#lc-run:not([disabled])', { timeout: TIMEOUT });
    await page.selectOption('#lc-chain', 'corona');
    const options = (sel) => page.locator(`${sel} option`).evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(await options('#lc-policy'), ['pq-strict', 'strict-pq-strict']);
    assert.deepEqual(await options('#lc-toggle'), Object.keys(CORONA_TOGGLES), 'only the breaks the Corona chain has');
    const legsOf = { 'pq-strict': ['bls', 'pulsar', 'corona'], 'strict-pq-strict': ['pulsar', 'corona', 'mldsa-set'] };
    for (const policy of Object.keys(legsOf)) {
      await page.selectOption('#lc-policy', policy);
      // The policy's legs, one note each; Corona's says who made its key.
      const notes = await page.locator('#lc-legs li').evaluateAll((ls) => ls.map((l) => [l.dataset.kind, l.textContent]));
      assert.deepEqual(notes.map(([k]) => k), legsOf[policy]);
      assert.match(notes.find(([k]) => k === 'corona')[1], /t-of-n threshold lattice signature of the set’s Corona group; a trusted dealer made its key/);
      assert.match(await text('#lc-policy-note'), new RegExp(`^Policy ${policy} `));
      for (const [toggle, expect] of Object.entries(CORONA_TOGGLES)) {
        const long = await longTasksDuring(() => followChain(toggle));
        assert.deepEqual(long, [], `${policy} "${toggle}": main-thread tasks over the budget`);
        const v = await lightClientView();
        checkSummary(`${policy} ${toggle || 'honest'}`, v, expect);
        // Each block's report: exactly the policy's legs required (the library's table, as the
        // page says it), the Corona leg valid wherever it was not the break.
        const legs = await page.locator('#lc-blocks tr[data-certificate]').evaluateAll((rs) =>
          rs.map((r) => ({ cert: r.dataset.certificate, verdict: r.dataset.verdict, legs: [...r.querySelectorAll('.leg')].map((l) => [l.dataset.kind, l.dataset.state, l.title]) })),
        );
        for (const row of legs) {
          const required = row.legs.filter(([, state]) => state !== 'not-required').map(([k]) => k);
          assert.deepEqual(required, legsOf[policy], `${policy} ${row.cert}: the required legs`);
          const corona = row.legs.find(([k]) => k === 'corona');
          // A block of epoch 1 after a skipped epoch change is checked against epoch 0's set: WRONG_EPOCH, no leg checked.
          const want = row.cert === 'strict-corona-broken' ? 'invalid' : row.verdict === 'accepted' ? 'valid' : 'not-checked';
          assert.equal(corona[1], want, `${policy} ${row.cert}: the Corona leg`);
          assert.match(corona[2], /trusted dealer/, 'the Corona leg carries its note');
        }
        if (!toggle) assert.match(v.detail, new RegExp(`final under ${policy}; .*key era 1: a Corona key is never reshared`));
        assert.ok(v.tableFits && v.rows.every((r) => r.fits), `${policy} "${toggle}": the table fits its card`);
      }
    }
    assert.deepEqual(await overflow(), [], 'the Corona chain at 1366');
    await page.selectOption('#lc-chain', 'custody');
    assert.deepEqual(await options('#lc-policy'), ['pq-fast']);
  });

  test('light client on a phone: a refused chain, the rows stacked, every verdict on screen width', async () => {
    await openTab('light', PHONE);
    await followChain('quorum');
    const v = await lightClientView();
    checkSummary('quorum', v);
    assert.ok(v.tableFits, 'the table is wider than its card');
    assert.ok(v.rows.every((r) => r.fits), 'a verdict cell is outside the card');
    assert.deepEqual(await overflow(), [], 'quorum at 390');
    await page.setViewportSize(DESKTOP);
  });

  test('Magnetar at K = 64 with a cheater: the checks run off the page (no long task); the layout holds', async () => {
    await openTab('magnetar', DESKTOP);
    await page.fill('#mag-validators', '64');
    await page.selectOption('#mag-mode', 'shake192f');
    await page.selectOption('#mag-cheater', '64');
    const long = await longTasksDuring(async () => {
      const before = Number((await page.getAttribute('body', 'data-mag-runs')) ?? 0);
      await page.click('#mag-run');
      await page.waitForFunction((n) => Number(document.body.dataset.magRuns ?? 0) > n, before, { timeout: RUN_TIMEOUT });
    });
    if (await page.locator('#mag-error').isVisible()) assert.fail(`Magnetar round: ${await text('#mag-error-text')}`);
    assert.equal(await page.getAttribute('#mag-status', 'data-state'), 'done', await text('#mag-status'));
    assert.deepEqual(long, [], `main-thread tasks over the budget`);
    assert.equal(await page.getAttribute('#mag-bitmap', 'data-bits'), `${'1'.repeat(63)}0`);
    assert.equal(await text('#mag-verdict'), 'quorum met');
    assert.match(await text('#mag-refusal'), /naming validator 64$/);
    assert.deepEqual(await overflow(), [], 'Magnetar K = 64 at 1366');
    await openTab('magnetar', PHONE);
    assert.deepEqual(await overflow(), [], 'Magnetar K = 64 at 390');
    await page.setViewportSize(DESKTOP);
  });

  test('Pulsar committee: key generation and signing at 4 of 6 off the page (no long task); the layout holds', async () => {
    await openTab('committee', DESKTOP);
    await page.fill('#cm-n', '6');
    await page.fill('#cm-t', '4');
    await page.selectOption('#cm-level', '44');
    await page.selectOption('#cm-keygen', 'dkg');
    await page.waitForSelector('#cm-run:not([disabled])', { timeout: TIMEOUT });
    const long = await longTasksDuring(async () => {
      const before = Number((await page.getAttribute('body', 'data-cm-runs')) ?? 0);
      await page.click('#cm-run');
      await page.waitForFunction((n) => Number(document.body.dataset.cmRuns ?? 0) > n, before, { timeout: RUN_TIMEOUT });
    });
    if (await page.locator('#cm-error').isVisible()) assert.fail(`committee: ${await text('#cm-error-text')}`);
    assert.equal(await text('#cm-verdict'), 'valid');
    assert.ok(Number(await page.getAttribute('#cm-runs', 'data-runs')) >= 1);
    assert.deepEqual(long, [], `main-thread tasks over the budget`);
    for (const viewport of [DESKTOP, PHONE]) {
      await openTab('committee', viewport);
      assert.deepEqual(await overflow(), [], `committee 4 of 6 at ${viewport.width}`);
    }
    await page.setViewportSize(DESKTOP);
  });

  test('ML-DSA: keygen, sign, verify at ML-DSA-87 with no long task; the layout holds', async () => {
    await openTab('mldsa', DESKTOP);
    await page.selectOption('#ml-level', '87');
    const long = await longTasksDuring(async () => {
      for (const b of ['#ml-keygen', '#ml-sign', '#ml-verify']) {
        const before = Number((await page.getAttribute('body', 'data-actions')) ?? 0);
        await page.click(b);
        await page.waitForFunction((n) => Number(document.body.dataset.actions ?? 0) > n, before, { timeout: TIMEOUT });
      }
    });
    assert.equal(await text('#ml-verdict'), 'valid');
    assert.deepEqual(long, [], `main-thread tasks over the budget`);
    for (const viewport of [DESKTOP, PHONE]) {
      await openTab('mldsa', viewport);
      assert.deepEqual(await overflow(), [], `ML-DSA at ${viewport.width}`);
    }
    await page.setViewportSize(DESKTOP);
  });

  test('no uncaught page errors or console errors', (t) => {
    t.diagnostic(`long-task budgets used (ms, 100 on an idle machine): ${budgets.join(', ')}`);
    assert.deepEqual(pageErrors, [], `uncaught page errors:\n${pageErrors.join('\n')}`);
    assert.deepEqual(consoleErrors, [], `console errors:\n${consoleErrors.join('\n')}`);
  });
});
