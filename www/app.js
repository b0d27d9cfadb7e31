// quasar-pq demo page: the tabs and the start. One module per tab — the threshold ceremony
// (www/threshold.js), the Pulsar committee (www/committee.js), Corona (www/corona.js), Magnetar
// (www/magnetar.js), the light client (www/light.js) and the single-signer ML-DSA tab
// (www/mldsa.js) — sharing the UI helpers of www/util.js and one worker pool (started by the threshold tab).
//
// WebAssembly is loaded by need, as a page using the package would: the ML-DSA tab runs on
// `quasar-pq/sign` (js/entry/sign.js, 96 KB gzipped), the light client on `quasar-pq/verify` in
// its worker, and the demo build (pkg/demo, about 1 MB: every family plus the misbehaviour
// hooks) is fetched only when a tab that runs parties opens (DEMO_TABS).

import { ensurePool, setupThreshold, showStartFailure } from './threshold.js';
import { setupMlDsa } from './mldsa.js';
import { setupMagnetar } from './magnetar.js';
import { setupCommittee, showCommitteeStartFailure } from './committee.js';
import { setupCorona, showCoronaStartFailure } from './corona.js';
import { setupLightClient } from './light.js';
import { describeError } from './util.js';

const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------------------ tabs

const TABS = ['tab-threshold', 'tab-committee', 'tab-corona', 'tab-magnetar', 'tab-light', 'tab-mldsa'];
/** The tabs that run on the demo build (their pages and the worker pool's parties). */
const DEMO_TABS = new Set(['tab-threshold', 'tab-committee', 'tab-corona', 'tab-magnetar']);
const TAB_HASH = { 'tab-threshold': '', 'tab-committee': '#committee', 'tab-corona': '#corona', 'tab-magnetar': '#magnetar', 'tab-light': '#light', 'tab-mldsa': '#mldsa' };

const heading = $('site-heading');
const lede = $('site-lede');
/** The threshold tab's lede, as written in the page (the other tabs carry theirs in data-lede). */
const LEDE = lede.textContent;

function selectTab(which) {
  // The title and the header say which demo this is (each tab's data-title, -heading, -lede).
  const t = $(which).dataset;
  document.title = t.title;
  heading.textContent = t.heading;
  lede.textContent = t.lede ?? LEDE;
  for (const id of TABS) {
    const tab = $(id);
    const on = id === which;
    tab.setAttribute('aria-selected', on ? 'true' : 'false');
    tab.tabIndex = on ? 0 : -1;
    $(tab.getAttribute('aria-controls')).hidden = !on;
  }
  const hash = TAB_HASH[which];
  if (location.hash !== hash) history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
  if (DEMO_TABS.has(which) && started) loadDemo().catch(failed);
}

TABS.forEach((id, i) => {
  $(id).addEventListener('click', () => selectTab(id));
  $(id).addEventListener('keydown', (e) => {
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      const other = TABS[(i + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length];
      selectTab(other);
      $(other).focus();
    }
  });
});

const fromHash = Object.entries(TAB_HASH).find(([, h]) => h && h === location.hash);
const firstTab = fromHash ? fromHash[0] : TABS[0];
/** Whether `boot` has begun (tabs chosen before it load the demo build through it). */
let started = false;
selectTab(firstTab);

// ------------------------------------------------------------------------------ start

/** The demo build with the tabs that run on it set up, loaded once, the first time one opens. */
let demo = null;

function loadDemo() {
  demo ??= (async () => {
    let lib;
    try {
      lib = await import('/js/support/demo.mjs');
    } catch (err) {
      throw new Error(`could not load /js/support/demo.mjs (${describeError(err)}). Build the WASM package first: npm run build`);
    }
    await lib.init();
    setupMagnetar({ lib, getPool: ensurePool });
    await setupThreshold(lib);
    setupCommittee({ lib, getPool: ensurePool });
    setupCorona({ lib, getPool: ensurePool });
    return lib;
  })();
  return demo;
}

async function boot() {
  started = true;
  // The single-signer tab runs on the page (about a millisecond per operation).
  const sign = await import('/js/entry/sign.js');
  await sign.init();
  setupMlDsa(sign);
  // The Magnetar tab's aggregate check and the light-client tab's chain run in a worker with the
  // verify-only build (www/light-worker.js), as a light client would; the page only reads the
  // light build's constants (its trust model), so it does not instantiate it.
  const light = await import('/js/verify.js');
  setupLightClient({ light });
  if (DEMO_TABS.has(firstTab)) await loadDemo();
  document.body.dataset.ready = '1';
}

/** A start that failed: every tab that runs on the demo build says so. */
function failed(err) {
  console.error('quasar-pq demo: initialisation failed:', err);
  showStartFailure(err);
  showCommitteeStartFailure(err);
  showCoronaStartFailure(err);
  document.body.dataset.ready = 'error';
}

boot().catch(failed);
