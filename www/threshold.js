// The threshold tab: K parties in a pool of Web Workers run a scheme's lifecycle — the key
// ceremony, signing, resharing with activation — under one public key (Pulsar custody or Lens).
// The tab only renders and routes: every protocol step runs in a worker
// (www/party-worker.js), messages are routed by www/coordinator.js, and each action starts
// one path of the library's lifecycle parties (www/flows.js). The story of the group — every
// round's messages, the blame, the hand-over — is drawn from the router's trace
// (www/story.js), and each party's steps on a timeline (www/timeline.js).
// Here: the actions and their flow. The form is www/threshold-form.js, the party tiles
// www/tiles.js, the view of a run (story, timeline, rounds, tables, blame) www/run-view.js,
// and the elements and state they share www/threshold-page.js.

import { WorkerPool, defaultPoolSize } from './pool.js';
import { MAX_K, Run, SCHEMES, defaultThreshold } from './flows.js';
import { byteCount, errorBox, fmtMs, hex, plural, ranges, setStatus as setLine, watchLongTasks } from './util.js';
import { app, el, params, setStatus } from './threshold-page.js';
import { currentParams, fillWorkerChoices, readInt, refreshButtons, renderPreview, reshareCheck, setupCheck, syncParamFields, updateSchemeFields } from './threshold-form.js';
import { updatePartySummary } from './tiles.js';
import { describeError, frames, partyName, renderBlame, renderTables, renderTimeline, story, timeline, ui } from './run-view.js';

const utf8 = new TextEncoder();

// ------------------------------------------------------------------------------ status & errors

const setVerdict = setLine;
const { show: showError, clear: clearError } = errorBox({ box: el.error, text: el.errorText, dismiss: el.errorDismiss }, partyName);

function stage(name, state, time) {
  const li = el.pipeline.querySelector(`[data-stage="${name}"]`);
  if (!li) return;
  li.dataset.state = state;
  if (time !== undefined) li.querySelector('.t').textContent = time;
}

function resetPipeline(from = 'ceremony') {
  let on = false;
  for (const li of el.pipeline.querySelectorAll('li')) {
    if (li.dataset.stage === from) on = true;
    if (on) {
      li.dataset.state = 'todo';
      li.querySelector('.t').textContent = '';
      delete li.dataset.ms;
    }
  }
}

// ------------------------------------------------------------------------------ controls

/** Any change of the form discards the current group (its parties and key). */
function invalidateRun() {
  if (app.busy || !app.run) return;
  const old = app.run;
  clearRun();
  old.net.drop([...old.net.placement.keys()]).catch(() => {});
}

/** A change of the form: its fields follow each other, and the current group is discarded. */
function updateParamFields() {
  syncParamFields();
  invalidateRun();
  renderPreview();
  refreshButtons();
  if (!app.run) renderBlame();
}

// ------------------------------------------------------------------------------ pool

async function ensurePool() {
  const size = Number(el.workers.value) || defaultPoolSize();
  if (app.pool && app.poolSize === size) return app.pool;
  if (app.pool) app.pool.terminate();
  app.pool = null;
  const pool = new WorkerPool(size, {
    onEvent: (w, ev) => app.run?.net.handleEvent(w, ev),
  });
  const t0 = performance.now();
  await pool.ready();
  app.pool = pool;
  app.poolSize = size;
  app.poolInitMs = performance.now() - t0;
  return pool;
}

// ------------------------------------------------------------------------------ actions

function clearRun() {
  app.run = null;
  app.failure = null;
  app.tiles.clear();
  app.roundRows.clear();
  app.blames = [];
  story.reset({ scheme: el.scheme.value });
  timeline.reset();
  app.keyHistory = [];
  el.grid.textContent = '';
  el.rounds.textContent = '';
  setVerdict(el.verifyResult, 'none', '—');
  setVerdict(el.activationResult, 'none', '—');
  el.verifyDetail.textContent = '';
  el.activationDetail.textContent = '';
  el.signers.textContent = '—';
  el.sigSize.textContent = '—';
  el.sigHex.textContent = '—';
  el.generation.textContent = '—';
  el.groupShape.textContent = '—';
  el.groupKey.textContent = '—';
  el.keyHistory.textContent = '—';
  renderBlame();
  renderTables(true);
  resetPipeline();
  renderPreview();
}

// Long tasks on the page's own thread while an action runs (util.js).
const longTasks = watchLongTasks(() => app.busy);

function reportMainThread(name, ms) {
  if (!longTasks.supported) {
    el.mainThread.textContent = '';
    return;
  }
  el.mainThread.dataset.longTasks = String(longTasks.count);
  el.mainThread.textContent =
    longTasks.count === 0
      ? `Page thread during "${name}" (${fmtMs(ms)}): no task over 50 ms — all protocol work ran in the workers.`
      : `Page thread during "${name}" (${fmtMs(ms)}): ${plural(longTasks.count, 'task')} over 50 ms, the longest ${fmtMs(longTasks.max)}.`;
}

/** Run an action with the controls locked; status ends as data-state done or error. */
async function action(name, fn) {
  if (app.busy) return;
  clearError();
  app.busy = true;
  app.stopRequested = false;
  app.failure = null;
  el.storyNowText.textContent = `${name}…`;
  el.storyNow.hidden = false;
  longTasks.max = 0;
  longTasks.count = 0;
  refreshButtons();
  setStatus('running', `${name}…`);
  const t0 = performance.now();
  el.elapsed.textContent = '';
  const ticker = setInterval(() => {
    frames.queue(() => (el.elapsed.textContent = `running for ${fmtMs(performance.now() - t0)}`), 'elapsed');
  }, 100);
  try {
    const summary = await fn();
    frames.flush();
    setStatus('done', `${summary ?? `${name}: done`} (${fmtMs(performance.now() - t0)})`);
  } catch (err) {
    frames.flush(); // what the run reported before it failed, drawn before the failure
    if (app.stopRequested) {
      setStatus('error', `${name}: stopped. The workers were terminated; run the key ceremony again.`);
      story.stopped(`${name} was stopped here: the workers were terminated.`);
    } else {
      console.warn('quasar-pq demo:', err);
      showError(err);
      setStatus('error', `${name} failed: ${describeError(err)}`);
      app.failure = err;
      story.note({ kind: 'fail', text: `${name} failed here: ${describeError(err)}.` });
      renderBlame();
    }
    for (const li of el.pipeline.querySelectorAll('[data-state="running"]')) li.dataset.state = 'error';
    for (const t of app.tiles.values()) {
      t.busy = false;
      t.el.dataset.state = t.base;
    }
  } finally {
    clearInterval(ticker);
    el.storyNow.hidden = true;
    renderTimeline(true);
    renderTables(true);
    const ms = performance.now() - t0;
    el.elapsed.textContent = `took ${fmtMs(ms)}`;
    reportMainThread(name, ms);
    app.busy = false;
    refreshButtons();
    updatePartySummary();
    document.body.dataset.runs = String(Number(document.body.dataset.runs ?? 0) + 1);
  }
}

async function timedStage(name, fn) {
  stage(name, 'running');
  const t0 = performance.now();
  try {
    const r = await fn();
    const ms = performance.now() - t0;
    stage(name, r?.warn ? 'warn' : 'done', fmtMs(ms));
    const li = el.pipeline.querySelector(`[data-stage="${name}"]`);
    li.dataset.ms = String((Number(li.dataset.ms) || 0) + ms);
    return r;
  } catch (err) {
    stage(name, 'error', 'failed');
    throw err;
  }
}

function showGroup() {
  const g = app.run.group;
  el.generation.textContent = String(g.generation);
  el.groupShape.textContent = `${g.t} of ${g.parties.length}`;
  el.groupKey.textContent = hex(g.publicKey);
  el.groupKey.dataset.full = hex(g.publicKey, g.publicKey.length);
  const h = hex(g.publicKey, g.publicKey.length);
  app.keyHistory.push({ generation: g.generation, hex: h, n: g.parties.length, t: g.t });
  el.keyHistory.textContent = '';
  const ol = document.createElement('ol');
  ol.start = 0;
  const first = app.keyHistory[0].hex;
  for (const e of app.keyHistory) {
    const li = document.createElement('li');
    li.value = e.generation;
    li.append(`gen ${e.generation}, ${e.t} of ${e.n}: ${e.hex.slice(0, 24)}… `);
    if (e !== app.keyHistory[0]) {
      const s = document.createElement('span');
      s.className = e.hex === first ? 'same' : '';
      s.textContent = e.hex === first ? '= the same key' : '≠ CHANGED';
      li.append(s);
    }
    ol.append(li);
  }
  el.keyHistory.append(ol);
  updatePartySummary();
}

async function doCeremony() {
  const p = currentParams();
  const check = setupCheck();
  if (!check.ok) throw new Error(`this setup cannot run: ${check.reason}`);
  if (app.run) await app.run.net.drop([...app.run.net.placement.keys()]).catch(() => {});
  clearRun();
  await ensurePool();
  const run = new Run({ pool: app.pool, params: p, ui, lib: app.lib });
  app.run = run;
  renderBlame();
  el.grid.textContent = '';
  await timedStage('ceremony', async () => {
    await run.start();
    updatePartySummary();
    await run.keyCeremony();
  });
  showGroup();
  el.reshareN.max = String(MAX_K);
  return `Key ceremony done: ${run.group.t} of ${run.group.parties.length}, ${run.describeKey()}`;
}

async function doSign() {
  const run = app.run;
  const again = run.group.generation > 0;
  const st = again ? 'sign-again' : 'sign';
  resetPipeline(st);
  el.rounds.textContent = '';
  setVerdict(el.verifyResult, 'none', '—');
  el.verifyDetail.textContent = '';
  const message = utf8.encode(el.message.value);
  const signed = await timedStage(st, () => run.sign(message));
  el.signers.textContent = ranges(signed.signers);
  el.signers.dataset.parties = signed.signers.join(',');
  el.sigSize.textContent = byteCount(signed.signature.length);
  el.sigHex.textContent = hex(signed.signature);
  setVerdict(el.verifyResult, 'running', 'verifying…');
  const v = await timedStage(again ? 'sign-again' : 'verify', () => run.verify(message, signed.signature));
  setVerdict(el.verifyResult, v.ok ? 'verified' : 'failed', v.ok ? 'verified' : 'not verified');
  el.verifyDetail.textContent =
    `${v.verifier} (${fmtMs(v.ms)}) under the group public key: ${v.note}.` + (signed.note ? ` ${signed.note}.` : '');
  if (!v.ok) throw new Error(`the standard verifier rejected the signature (${v.verifier})`);
  ui.note({ kind: 'result', text: `The signature (${byteCount(signed.signature.length)}) verifies with ${v.verifier} under the group key.` });
  return `Signed by ${signed.signers.length} parties; ${v.verifier}: verified`;
}

async function doReshare() {
  const run = app.run;
  const check = reshareCheck();
  if (!check.ok) throw new Error(`this reshare cannot run: ${check.reason}`);
  const n = Number(el.reshareN.value);
  const t = Number(el.reshareT.value);
  el.rounds.textContent = '';
  resetPipeline('reshare');
  setVerdict(el.activationResult, 'none', '—');
  el.activationDetail.textContent = '';
  const before = hex(run.group.publicKey, run.group.publicKey.length);
  await timedStage('reshare', () => run.reshare(n, t));
  showGroup();
  const cert = await timedStage('activation', () => run.activate());
  setVerdict(el.activationResult, 'running', 'verifying…');
  const v = await timedStage('verify-cert', () => run.verifyActivation(cert));
  const after = hex(run.group.publicKey, run.group.publicKey.length);
  const same = before === after;
  setVerdict(el.activationResult, v.ok && same ? 'verified' : 'failed', v.ok && same ? 'verified' : 'not verified');
  el.activationDetail.textContent =
    `${cert.bytes.length.toLocaleString('en-US')}-byte certificate for generation ${run.group.generation}, ` +
    `with the proofs of possession of ${ranges(cert.signers)}; accepted by the keyring of every old party (${ranges(cert.verifiedBy)}), the only way its old share is erased, and checked by ${v.verifier} under the ` +
    `${same ? 'unchanged' : 'CHANGED'} group key (${fmtMs(v.ms)}).`;
  if (!same) throw new Error('the group public key changed during resharing');
  if (!v.ok) throw new Error(`the activation certificate did not verify (${v.verifier})`);
  ui.note(handOver(run, cert));
  resetPipeline('sign-again');
  return `Reshared to ${t} of ${n}; the new set proved its new shares in the activation certificate; each keyring erased its old share on that verified certificate`;
}

/** The hand-over, for the story: who holds the new generation, whose old share was erased. */
function handOver(run, cert) {
  const { outcomes, old, fresh } = run.lastReshare;
  const g = run.group;
  const marks = [];
  const erased = [];
  for (const p of new Set([...old.parties, ...g.parties])) {
    if (run.blamed.has(p)) continue;
    const a = outcomes.get(p)?.activated;
    if (g.parties.includes(p)) {
      marks.push({ key: p, glyph: fresh.includes(p) ? '★' : '↻', title: `${partyName(p)} holds a generation-${g.generation} share${fresh.includes(p) ? ' (new member)' : ''}` });
    } else if (a?.ok) {
      marks.push({ key: p, glyph: '⌫', cls: 'erased', title: `${partyName(p)} left: its keyring erased its generation-${a.erased} share` });
    }
    if (a?.ok && a.erased !== undefined) erased.push(p);
  }
  return {
    kind: 'handover',
    text:
      `Hand-over: the activation certificate (${byteCount(cert.bytes.length)}, proofs of possession of ${ranges(cert.signers)}) was verified by the keyring ` +
      `of every old party, and only then did ${erased.length ? ranges(erased) : 'they'} erase the generation-${old.generation} share; ` +
      `${g.t} of ${g.parties.length} now hold generation ${g.generation} of the same key (★ new member, ↻ kept its seat, ⌫ left).`,
    marks,
  };
}

async function doAll() {
  const check = reshareCheck();
  if (!check.ok) throw new Error(`the whole story cannot run: ${check.reason}`);
  await doCeremony();
  await doSign();
  await doReshare();
  await doSign();
  return `The whole story ran: key ceremony, signature, reshare to ${app.run.group.t} of ${app.run.group.parties.length}, activation, signature again, one public key throughout`;
}

function stop() {
  if (!app.busy) return;
  app.stopRequested = true;
  app.pool?.terminate();
  app.pool = null;
  app.poolSize = 0;
  if (app.run) app.run.hasKey = false;
  // Start a fresh pool in the background so the next run does not wait.
  ensurePool().then(refreshButtons, showError);
}

// ------------------------------------------------------------------------------ wiring

el.scheme.addEventListener('change', () => {
  updateSchemeFields();
  updateParamFields();
});
el.parties.addEventListener('input', updateParamFields);
el.curve.addEventListener('change', updateParamFields);
el.level.addEventListener('change', updateParamFields);
el.threshold.addEventListener('input', () => {
  app.thresholdTouched = true;
  updateParamFields();
});
el.cheater.addEventListener('change', updateParamFields);
el.cheatMode.addEventListener('change', updateParamFields);
el.reshareN.addEventListener('input', () => {
  app.reshareNTouched = true;
  if (!app.reshareTTouched) {
    const n = readInt(el.reshareN, 1, MAX_K);
    if (n !== null) el.reshareT.value = String(defaultThreshold(n));
  }
  refreshButtons();
});
el.reshareT.addEventListener('input', () => {
  app.reshareTTouched = true;
  refreshButtons();
});
el.message.addEventListener('input', () => {
  el.messageBytes.textContent = utf8.encode(el.message.value).length.toLocaleString('en-US');
});
el.runCeremony.addEventListener('click', () => action('Key ceremony', doCeremony));
el.runAll.addEventListener('click', () => action('The whole story', doAll));
el.sign.addEventListener('click', () => action('Signing', doSign));
el.reshare.addEventListener('click', () => action('Resharing', doReshare));
el.stop.addEventListener('click', stop);
el.tables.addEventListener('toggle', () => renderTables());
el.workers.addEventListener('change', () => {
  if (!app.busy) {
    clearRun();
    ensurePool().then(() => {
      setStatus('idle', `Ready: ${app.poolSize} worker${app.poolSize === 1 ? '' : 's'}. Choose a scheme and run the key ceremony.`);
      refreshButtons();
    }, showError);
  }
});

// URL parameters preset the form (handy for links and measurements): ?scheme=lens&k=21&t=15&curve=ed25519;
// ?seed=<text> makes every run reproducible (session ids and party seeds derived from it).
if (params.get('scheme') in SCHEMES) el.scheme.value = params.get('scheme');
if (params.get('curve')) el.curve.value = params.get('curve');
if (params.get('k')) el.parties.value = params.get('k');
if (params.get('t')) {
  el.threshold.value = params.get('t');
  app.thresholdTouched = true;
}
fillWorkerChoices();
updateSchemeFields();
updateParamFields();
el.message.dispatchEvent(new Event('input'));
refreshButtons();

/**
 * Called once the package is loaded: starts the pool. Returns what the other tabs share (the
 * pool) and the status the page's loader reports into.
 */
export async function setupThreshold(lib) {
  app.lib = lib;
  await ensurePool();
  setStatus(
    'idle',
    `Ready: ${app.poolSize} Web Worker${app.poolSize === 1 ? '' : 's'}, each with its own WebAssembly instance ` +
      `(started in ${fmtMs(app.poolInitMs)}). Choose a scheme and run the key ceremony.`,
  );
  refreshButtons();
}

/** The pool the tabs share (started, or restarted with the chosen size, on demand). */
export { ensurePool };

/** The page could not start: say so in this tab's status and error box. */
export function showStartFailure(err) {
  setStatus('error', 'The WebAssembly module or the workers did not start.');
  showError(err);
}
