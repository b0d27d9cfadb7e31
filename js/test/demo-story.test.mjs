// Browser test of the threshold tab's story (www/story.js, www/timeline.js): the sequence view
// draws every routed message of every round, the blame and the hand-over stay visible after
// the run, the page thread has no long task during a run, the tab fits at 1366 and 390 px,
// the reshare defaults follow K, and a setup that cannot succeed is explained before it runs.
//
//   node --test js/test/demo-story.test.mjs
//
// Needs /usr/bin/chromium and a built WASM package (`npm run build`), like browser.test.mjs.
// Runs use `?seed=…`: session ids and party seeds derived from a fixed seed. The main-thread
// check reads Chromium's trace through the DevTools protocol (playwright-core's CDP session).

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';

import { OUT, openChromium } from '../support/chromium.mjs';
import { SLOWNESS, patience } from '../support/patience.mjs';

const TIMEOUT = patience(120);
const RUN_TIMEOUT = patience(300);
/** The longest main-thread task a run may have (the Long Tasks API), on an idle machine. */
const LONG_TASK_MS = 100;

let browser;
let server;
let context;
let page;
let pageErrors = [];

const text = async (sel) => (await page.locator(sel).textContent()).trim();

/** Open the demo (seeded), wait until it is ready, on the threshold tab. */
async function open(query = '') {
  await page.goto(`${server.url}?seed=demo-story-test${query}`, { waitUntil: 'load' });
  await page.waitForSelector('body[data-ready]', { state: 'attached', timeout: TIMEOUT });
  assert.equal(await page.getAttribute('body', 'data-ready'), '1', 'the demo initialised');
  await page.click('#tab-threshold');
}

async function setup({ scheme, k, cheater = '', cheatMode = 'signing', t }) {
  await page.selectOption('#scheme', scheme);
  await page.fill('#parties', String(k));
  if (t !== undefined) await page.fill('#threshold', String(t));
  await page.selectOption('#cheater', cheater);
  if (cheater) await page.selectOption('#cheat-mode', cheatMode);
}

/** Click a threshold action; wait until it finished; fail with the page's own error. */
async function runAction(selector) {
  const before = Number((await page.getAttribute('body', 'data-runs')) ?? 0);
  await page.click(selector);
  await page.waitForFunction((n) => Number(document.body.dataset.runs ?? 0) > n, before, { timeout: RUN_TIMEOUT });
  const state = await page.getAttribute('#status', 'data-state');
  if (state !== 'done') assert.fail(`${selector}: ${state}: ${await text('#status')} | ${await text('#error-text')}`);
  await settle();
}

/** Two frames: the story draws in the next animation frame. */
function settle() {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Every band of the story: its phase, round name, the router's counts and what is drawn. */
function bands() {
  return page.locator('#story-bands .band').evaluateAll((list) => {
    // A mark is one message; a big round's row of diamonds is one path of `data-count`.
    const marks = (b, sel) => [...b.querySelectorAll(`svg.seq ${sel}`)].reduce((n, m) => n + Number(m.dataset.count ?? 1), 0);
    return list.map((b) => ({
      phase: b.dataset.phase,
      round: b.dataset.round,
      state: b.dataset.state,
      messages: Number(b.dataset.messages),
      broadcasts: Number(b.dataset.broadcasts),
      direct: Number(b.dataset.direct),
      drawn: marks(b, '.m'),
      drawnBroadcasts: marks(b, '.m.b'),
      drawnDirect: marks(b, '.m.d'),
      senders: new Set([...b.querySelectorAll('svg.seq .m')].map((m) => m.dataset.from)).size,
      handover: b.dataset.handover === '1',
    }));
  });
}

/**
 * Record Chromium's trace of the page's main thread; `stop()` resolves with the thread time
 * (ms of CPU, not wall clock) of every task it ran meanwhile.
 */
async function traceMainThread() {
  const cdp = await context.newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  await cdp.send('Tracing.start', { categories: 'toplevel,devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  return {
    async stop() {
      const complete = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
      await cdp.send('Tracing.end');
      await complete;
      await cdp.detach();
      const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
      assert.ok(main.size >= 1, 'the trace names the page thread');
      return events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && main.has(`${e.pid}:${e.tid}`)).map((e) => (e.tdur ?? e.dur) / 1000);
    },
  };
}

/** The page's widest element against its viewport (no horizontal overflow). */
function overflow() {
  return page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
}

describe('the threshold tab tells its story', { timeout: patience(1800) }, () => {
  before(async () => {
    browser = await openChromium({ needs: ['pkg/demo/quasar_pq.js', 'pkg/demo/quasar_pq_bg.wasm'], profile: 'story', timeout: TIMEOUT });
    ({ server, context, page, pageErrors } = browser);
    // Every main-thread task over 50 ms, from the first byte of the page on.
    await page.addInitScript(() => {
      window.__longTasks = [];
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) window.__longTasks.push({ start: e.startTime, ms: e.duration });
      }).observe({ type: 'longtask', buffered: true });
    });
    await open();
  });

  after(() => browser?.close());

  test('one default threshold, ⌊2K/3⌋ + 1; the reshare follows K', async () => {
    for (const [k, t] of [[21, 15], [64, 43], [7, 5], [9, 7], [3, 3]]) {
      await page.fill('#parties', String(k));
      assert.equal(await page.inputValue('#threshold'), String(t), `t for K = ${k}`);
      assert.equal(await page.inputValue('#reshare-n'), String(k), `n′ for K = ${k}`);
      assert.equal(await page.inputValue('#reshare-t'), String(t), `t′ for K = ${k}`);
      assert.ok(3 * t > 2 * k, `${t} of ${k} is more than two thirds`);
    }
    // An edited n′ keeps its value; t′ follows it.
    await page.fill('#reshare-n', '10');
    assert.equal(await page.inputValue('#reshare-t'), '7');
    await page.fill('#parties', '12');
    assert.equal(await page.inputValue('#reshare-n'), '10');
  });

  test('a setup that cannot succeed is explained before it runs', async () => {
    await open();
    // t = K with a cheater: once caught, K − 1 parties remain.
    await setup({ scheme: 'pulsar', k: 5, t: 5, cheater: '2' });
    assert.equal(await page.getAttribute('#params-hint', 'data-state'), 'impossible');
    assert.match(await text('#params-hint'), /cannot succeed[\s\S]*4 honest parties for t = 5/);
    assert.ok(await page.locator('#run-ceremony').isDisabled());
    assert.ok(await page.locator('#run-all').isDisabled());
    assert.equal(await page.getAttribute('#blame', 'data-state'), 'failed');
    assert.doesNotMatch(await text('#blame'), /nothing detected yet/);
    assert.match(await text('#blame'), /Nothing will run/);
    // t > K.
    await page.selectOption('#cheater', '');
    await page.fill('#threshold', '6');
    assert.match(await text('#params-hint'), /t = 6 is more than K = 5/);
    assert.ok(await page.locator('#run-ceremony').isDisabled());
    // FROST needs two signers.
    await setup({ scheme: 'lens', k: 5, t: 1 });
    assert.match(await text('#params-hint'), /needs t ≥ 2/);
    assert.ok(await page.locator('#run-ceremony').isDisabled());
    // The reshare: t′ > n′.
    await setup({ scheme: 'lens', k: 5, t: 4 });
    assert.ok(await page.locator('#run-ceremony').isEnabled());
    await page.fill('#reshare-n', '4');
    await page.fill('#reshare-t', '6');
    assert.equal(await page.getAttribute('#reshare-hint', 'data-state'), 'impossible');
    assert.match(await text('#reshare-hint'), /t′ = 6 is more than n′ = 4/);
    assert.ok(await page.locator('#run-all').isDisabled(), 'the whole story would end in an impossible reshare');
    await page.fill('#reshare-t', '3');
    assert.ok(await page.locator('#run-all').isEnabled());
  });

  for (const [scheme, k] of [['lens', 5], ['pulsar', 4]]) {
    test(`${scheme}, K = ${k}, fixed seed: the whole story is drawn, every routed message of every round; no long task`, async () => {
      await open();
      await setup({ scheme, k });
      const t = Math.floor((2 * k) / 3) + 1;
      assert.equal(await page.inputValue('#threshold'), String(t));
      const t0 = await page.evaluate(() => performance.now());
      const trace = await traceMainThread();
      await runAction('#run-all');
      const work = await trace.stop();
      const list = await bands();
      assert.ok(list.length >= 6, `rounds drawn: ${list.length}`);
      // What is drawn is what the router routed, round by round.
      for (const [i, b] of list.entries()) {
        assert.equal(b.drawn, b.messages, `round ${i + 1} (${b.phase} › ${b.round}): drawn ${b.drawn}, routed ${b.messages}`);
        assert.equal(b.drawnBroadcasts, b.broadcasts, `round ${i + 1}: broadcasts`);
        assert.equal(b.drawnDirect, b.direct, `round ${i + 1}: direct messages`);
      }
      // And what the protocols' structure says (the message tables of the lifecycle paths):
      // [broadcasts, direct messages] per round.
      const shape = (phase) => list.filter((b) => b.phase === phase).map((b) => [b.broadcasts, b.direct]);
      // The DKG: every dealer broadcasts its commitments and sends one private share to each
      // other party; everyone broadcasts its complaints (none), then its answers.
      const dkg = [[k, k * (k - 1)], [k, 0], [k, 0]];
      const ceremony =
        scheme === 'lens'
          ? dkg
          : // … then each member reports its sharing to the combiner; the combiner broadcasts the
            // key-ceremony session; t signers broadcast their commitments, then send their
            // encrypted shares to the combiner, which announces the key; every member broadcasts
            // its proof of possession (the certification).
            [...dkg, [0, k], [1, 0], [t, 0], [0, t], [1, 0], [k, 0]];
      assert.deepEqual(shape('Key ceremony'), ceremony, 'the key ceremony, round by round');
      assert.equal(list[0].senders, k);
      // Signing with t signers: Pulsar — the combiner's session, the signers' commitments, their
      // encrypted shares; Lens — the signers' commitments, the coordinator's package, the shares.
      const sign = scheme === 'lens' ? [[0, t], [1, 0], [0, t]] : [[1, 0], [t, 0], [0, t]];
      assert.deepEqual(shape('Sign 1'), sign, 'a signing session, round by round');
      // The hand-over is still drawn after the run.
      assert.ok(list.some((b) => b.phase.startsWith('Reshare') && b.handover), 'the hand-over is marked');
      assert.match(await text('#story-bands'), /Hand-over: the activation certificate/);
      assert.equal(await page.locator(`#story-head text`).count(), k + 1, 'K party lanes and the service lane');
      // The controls: step back and forward, the whole story.
      await page.click('#story-whole');
      assert.match(await text('#story-pos'), new RegExp(`the whole story: ${list.length} rounds`));
      await page.click('#story-fwd');
      assert.equal(await text('#story-pos'), `round 1 of ${list.length}`);
      assert.equal(await page.locator('#story-bands .band.sel').getAttribute('data-index'), '0');
      await page.click('#story-fwd');
      await page.click('#story-back');
      assert.equal(await text('#story-pos'), `round 1 of ${list.length}`);
      assert.match(await text('#story-caption'), /Key ceremony[\s\S]*round 1: the router delivered/);
      // The timeline: one row per party and the service, bars for their steps.
      assert.ok(Number(await page.getAttribute('#timeline', 'data-steps')) > list.length);
      assert.ok((await page.locator('#timeline rect.bar').count()) > 0);
      // No main-thread task over 100 ms while it ran. The Long Tasks API finds the tasks over
      // 50 ms of wall clock; on a machine whose cores are all busy (the parties' workers, other
      // builds) a 15 ms task waits for a core and lasts 100, so the verdict is on what each
      // task itself ran — its thread time, from Chromium's trace — under the calibrated ceiling.
      const longTasks = (await page.evaluate(() => window.__longTasks)).filter((x) => x.start >= t0);
      const heaviest = Math.max(0, ...work);
      assert.ok(
        heaviest <= LONG_TASK_MS * SLOWNESS,
        `a task ran ${heaviest.toFixed(0)} ms on the page's thread during the run (ceiling ${LONG_TASK_MS} ms × ${SLOWNESS.toFixed(2)}); ` +
          `long tasks (wall clock): ${JSON.stringify(longTasks.map((x) => Math.round(x.ms)))}`,
      );
      await page.screenshot({ path: path.join(OUT, `story-${scheme}-${k}.png`), fullPage: true });
    });
  }

  test('lens, K = 21: a big round (the DKG: 21 broadcasts, 420 private shares) is drawn whole', async () => {
    await open();
    await setup({ scheme: 'lens', k: 21 });
    await runAction('#run-ceremony');
    const list = await bands();
    assert.deepEqual(list.map((b) => [b.broadcasts, b.direct]), [[21, 420], [21, 0], [21, 0]]);
    for (const [i, b] of list.entries()) assert.deepEqual([b.drawnBroadcasts, b.drawnDirect], [b.broadcasts, b.direct], `round ${i + 1}`);
    assert.equal(await page.locator('#story-head text').count(), 22);
    assert.equal(await page.inputValue('#threshold'), '15');
    assert.equal(await text('#group-shape'), '15 of 21');
  });

  test('replay animates the story round by round, then shows it whole', async () => {
    const n = (await bands()).length;
    await page.click('#story-replay');
    assert.equal(await page.getAttribute('#story', 'data-replaying'), '1');
    assert.ok((await page.locator('#story-bands .band:not([hidden])').count()) < n, 'rounds appear one by one');
    await page.waitForFunction(() => !document.getElementById('story').dataset.replaying, null, { timeout: TIMEOUT });
    assert.equal(await page.locator('#story-bands .band:not([hidden])').count(), n);
    assert.equal(await text('#story-pos'), `round ${n} of ${n}`);
  });

  test('pulsar: "a bad contribution when signing" is caught at signing, its message and sender drawn', async () => {
    await open();
    await setup({ scheme: 'pulsar', k: 4, t: 3, cheater: '2', cheatMode: 'signing' });
    await runAction('#run-ceremony');
    assert.equal(await page.getAttribute('#blame', 'data-state'), 'none', 'nothing to catch in the key ceremony');
    assert.match(await text('#blame'), /caught at the first signature/);
    await runAction('#sign');
    assert.equal(await text('#verify-result'), 'verified');
    assert.equal(await page.getAttribute('#blame', 'data-party'), '2');
    assert.match(await text('#blame'), /^Blamed: party 2\.[\s\S]*Sign 1/);
    // The moment of blame, in the story: the signing round where the combiner named party 2,
    // its share drawn red.
    const blamed = page.locator('#story-bands .band[data-state="blame"]');
    assert.ok((await blamed.count()) >= 1);
    assert.match(await blamed.first().getAttribute('data-phase'), /^Sign 1/);
    assert.equal(await blamed.first().locator('.named[data-party="2"]').count(), 1);
    assert.match(await blamed.first().locator('.named').textContent(), /P2 named by the combiner/);
    assert.ok((await page.locator('#story-bands .m.bad[data-from="2"]').count()) >= 1, 'the message it was named for is marked');
    assert.match(await text('#story-bands'), /Blame \(Sign 1\): the session failed cleanly/);
  });

  for (const width of [1366, 390]) {
    test(`no horizontal overflow on the threshold tab at ${width} px, the story drawn`, async () => {
      await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
      await settle(); // the resize observers ran
      const o = await overflow();
      assert.ok(o.scroll <= o.client, `the page is ${o.scroll} px wide in a ${o.client} px viewport`);
      for (const sel of ['#story', '#timeline', '#blame-card', '#party-grid']) {
        const box = await page.locator(sel).boundingBox();
        assert.ok(box.x >= 0 && box.x + box.width <= o.client + 0.5, `${sel} fits: ${JSON.stringify(box)}`);
      }
      // Tile labels wrap rather than being cut.
      const cut = await page.locator('#party-grid .tile .st').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).length);
      assert.equal(cut, 0, 'a tile label is cut');
      await page.screenshot({ path: path.join(OUT, `story-${width}.png`), fullPage: true });
    });
  }

  test('no uncaught page errors', () => {
    assert.deepEqual(pageErrors, []);
  });
});
