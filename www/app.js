// quasar-pq demo page: the tabs and the start. One module per tab — the threshold ceremony
// (www/threshold.js), the Pulsar committee (www/committee.js), Corona (www/corona.js), Magnetar
// (www/magnetar.js), the light client (www/light.js) and the single-signer ML-DSA tab
// (www/mldsa.js) — sharing the UI helpers of www/util.js and one worker pool (started by the threshold tab).

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
selectTab(fromHash ? fromHash[0] : TABS[0]);

// ------------------------------------------------------------------------------ start

async function boot() {
  let lib;
  try {
    lib = await import('/js/support/demo.mjs');
  } catch (err) {
    throw new Error(`could not load /js/support/demo.mjs (${describeError(err)}). Build the WASM package first: npm run build`);
  }
  // The single-signer tab runs on the page (about a millisecond per operation).
  await lib.init();
  setupMlDsa(lib);
  // The Magnetar tab's aggregate check and the light-client tab's chain run in a worker with the
  // verify-only build (www/light-worker.js), as a light client would; the page only reads the
  // light build's constants (its trust model), so it does not instantiate it.
  const light = await import('/js/verify.js');
  setupMagnetar({ lib, getPool: ensurePool });
  setupLightClient({ light });
  await setupThreshold(lib);
  setupCommittee({ lib, getPool: ensurePool });
  setupCorona({ lib, getPool: ensurePool });
  document.body.dataset.ready = '1';
}

boot().catch((err) => {
  console.error('quasar-pq demo: initialisation failed:', err);
  showStartFailure(err);
  showCommitteeStartFailure(err);
  showCoronaStartFailure(err);
  document.body.dataset.ready = 'error';
});
