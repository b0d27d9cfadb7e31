// The threshold tab: K parties in a pool of Web Workers run a scheme's lifecycle — the key
// ceremony, signing, resharing with activation — under one public key (Pulsar custody or Lens).
// This module only renders and routes: every protocol step runs in a worker
// (www/party-worker.js), messages are routed by www/coordinator.js, and each action starts
// one path of the library's lifecycle parties (www/flows.js). The story of the group — every
// round's messages, the blame, the hand-over — is drawn from the router's trace
// (www/story.js), and each party's steps on a timeline (www/timeline.js).

import { WorkerPool, defaultPoolSize } from './pool.js';
import { COMBINER, COORDINATOR, Run, SCHEMES, checkReshare, checkSetup, defaultThreshold } from './flows.js';
import { Story } from './story.js';
import { Timeline } from './timeline.js';
import { renderTables as drawTables } from './tables.js';
import { byteCount, describeError as describe, errorBox, fmtBytes, fmtMs, hex, plural, ranges, setStatus as setLine } from './util.js';

const $ = (id) => document.getElementById(id);
const utf8 = new TextEncoder();

const el = {
  status: $('status'),
  error: $('error'),
  errorText: $('error-text'),
  errorDismiss: $('error-dismiss'),
  scheme: $('scheme'),
  level: $('pq-level'),
  levelField: $('level-field'),
  curve: $('curve'),
  curveField: $('curve-field'),
  trust: $('trust-model'),
  parties: $('parties'),
  threshold: $('threshold'),
  workers: $('workers'),
  cheater: $('cheater'),
  cheatMode: $('cheat-mode'),
  paramsHint: $('params-hint'),
  runCeremony: $('run-ceremony'),
  runAll: $('run-all'),
  stop: $('stop'),
  elapsed: $('elapsed'),
  mainThread: $('main-thread'),
  pipeline: $('pipeline'),
  grid: $('party-grid'),
  partySummary: $('party-summary'),
  rounds: $('rounds'),
  message: $('message'),
  messageBytes: $('message-bytes'),
  sign: $('sign'),
  verifyResult: $('verify-result'),
  verifyDetail: $('verify-detail'),
  signers: $('signers'),
  sigSize: $('sig-size'),
  sigHex: $('sig-hex'),
  reshareN: $('reshare-n'),
  reshareT: $('reshare-t'),
  reshare: $('reshare'),
  activationResult: $('activation-result'),
  activationDetail: $('activation-detail'),
  generation: $('generation'),
  groupShape: $('group-shape'),
  groupKey: $('group-key'),
  keyHistory: $('key-history'),
  blame: $('blame'),
  phaseTable: $('phase-table'),
  partyTable: $('party-table'),
  tables: $('tables'),
  reshareHint: $('reshare-hint'),
  timeline: $('timeline'),
  storyNow: $('story-now'),
  storyNowText: $('story-now-text'),
};

const params = new URLSearchParams(location.search);

const app = {
  pool: null,
  poolSize: 0,
  run: null, // the current Run (a group of parties with their key)
  busy: false,
  thresholdTouched: false,
  reshareNTouched: false, // the reshare fields follow K until edited
  reshareTTouched: false,
  failure: null, // the last action's failure (the blame card says so, not "nothing detected")
  tiles: new Map(), // key -> { el, base, label, busy }
  roundRows: new Map(), // token -> row element
  blames: [],
  keyHistory: [], // [{ generation, hex, n, t }]
  stopRequested: false,
};

// ------------------------------------------------------------------------------ formatting

function describeError(err) {
  return describe(err, partyName);
}

function isParty(key) {
  return typeof key === 'number' && key < COMBINER;
}

function partyName(key) {
  if (key === COMBINER) return 'the combiner';
  if (key === COORDINATOR) return 'the coordinator';
  return `party ${key}`;
}

const isService = (k) => k === COMBINER || k === COORDINATOR;
const story = new Story(
  {
    root: $('story'),
    scroll: $('story-scroll'),
    head: $('story-head'),
    bands: $('story-bands'),
    caption: $('story-caption'),
    pos: $('story-pos'),
    back: $('story-back'),
    fwd: $('story-fwd'),
    replay: $('story-replay'),
    whole: $('story-whole'),
  },
  { nameOf: (k) => partyName(k), isService },
);
const timeline = new Timeline(el.timeline, { nameOf: (k) => partyName(k), isService });
let timelineQueued = null;

/**
 * Redraw the timeline: a few times a second while a run goes on (at K = 64 a run has
 * thousands of steps, and redrawing them every round would cost the page a frame each time),
 * at once when `now`.
 */
function renderTimeline(now = false) {
  if (now) {
    clearTimeout(timelineQueued);
    timelineQueued = null;
    timeline.render(story.keys);
    return;
  }
  if (timelineQueued) return;
  timelineQueued = setTimeout(() => {
    timelineQueued = null;
    requestAnimationFrame(() => timeline.render(story.keys));
  }, 400);
}

// ------------------------------------------------------------------------------ status & errors

const setStatus = (state, text) => setLine(el.status, state, text);
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

function readInt(input, lo, hi) {
  const v = Number(input.value);
  const ok = Number.isInteger(v) && v >= lo && v <= hi;
  input.setAttribute('aria-invalid', ok ? 'false' : 'true');
  return ok ? v : null;
}

/** The form's setup, checked before anything runs (t > K, t = K with a cheater, …). */
function setupCheck() {
  const p = currentParams();
  const raw = Number(el.threshold.value);
  return checkSetup({ scheme: p.scheme, k: p.k, t: p.t ?? (Number.isInteger(raw) ? raw : null), cheater: p.cheater });
}

/** The reshare fields, checked against the current group (if any) before the reshare runs. */
function reshareCheck() {
  const n = Number(el.reshareN.value);
  const t = Number(el.reshareT.value);
  const g = app.run?.hasKey ? app.run.group : null;
  const dealers = g ? g.parties.filter((q) => !app.run.blamed.has(q)).length : undefined;
  const r = checkReshare({ scheme: el.scheme.value, n: el.reshareN.value === '' ? NaN : n, t: el.reshareT.value === '' ? NaN : t, dealers, oldT: g?.t });
  const nOk = Number.isInteger(n) && n >= 1 && n <= 64;
  el.reshareN.setAttribute('aria-invalid', String(!nOk));
  el.reshareT.setAttribute('aria-invalid', String(nOk && !r.ok));
  el.reshareHint.textContent = r.ok ? '' : r.reason;
  el.reshareHint.classList.toggle('over', !r.ok);
  el.reshareHint.dataset.state = r.ok ? 'ok' : 'impossible';
  return r;
}

function selectedScheme() {
  return SCHEMES[el.scheme.value];
}

function currentParams() {
  const k = readInt(el.parties, 3, 64);
  const t = k === null ? null : readInt(el.threshold, 1, k);
  const cheater = el.cheater.value === '' ? null : Number(el.cheater.value);
  return {
    scheme: el.scheme.value,
    level: Number(el.level.value),
    curve: el.curve.value,
    k,
    t,
    cheater,
    cheatMode: el.cheatMode.value,
    seed: params.get('seed') ?? undefined,
  };
}

function updateSchemeFields() {
  const s = el.scheme.value;
  el.levelField.hidden = s !== 'pulsar';
  el.curveField.hidden = s !== 'lens';
  el.trust.dataset.scheme = s;
  el.trust.innerHTML = '';
  const b = document.createElement('strong');
  b.textContent = 'Trust model. ';
  el.trust.append(b, selectedScheme().trust);
}

/** Before a ceremony: K waiting tiles (and the service role) so the page shows who will take part. */
function renderPreview() {
  if (app.run || app.busy) return;
  el.grid.textContent = '';
  app.tiles.clear();
  const p = currentParams();
  if (p.k === null) return;
  for (let i = 1; i <= p.k; i++) {
    addTile(i, { label: 'not started' });
    if (i === p.cheater) setTile(i, { cheater: true });
  }
  addTile(p.scheme === 'pulsar' ? COMBINER : COORDINATOR, {
    role: 'service',
    title: p.scheme === 'pulsar' ? 'Combiner' : 'Coordinator',
    label: p.scheme === 'pulsar' ? 'trusted while signing' : 'public data only',
  });
  el.partySummary.textContent = `${p.k} parties, threshold ${p.t ?? '?'} · not started`;
}

/** Any change of the form discards the current group (its parties and key). */
function invalidateRun() {
  if (app.busy || !app.run) return;
  const old = app.run;
  clearRun();
  old.net.drop([...old.net.placement.keys()]).catch(() => {});
}

function updateParamFields() {
  const k = readInt(el.parties, 3, 64);
  if (k !== null && !app.thresholdTouched) el.threshold.value = String(defaultThreshold(k));
  // The reshare follows K (same size, the default threshold) until its fields are edited.
  if (k !== null && !app.reshareNTouched) el.reshareN.value = String(k);
  if (!app.reshareTTouched) {
    const n = readInt(el.reshareN, 1, 64);
    if (n !== null) el.reshareT.value = String(defaultThreshold(n));
  }
  el.threshold.max = String(k ?? 64);
  const p = currentParams();
  // Cheater options follow K.
  const keep = el.cheater.value;
  const n = p.k ?? 0;
  if (el.cheater.options.length !== n + 1) {
    el.cheater.length = 1;
    for (let i = 1; i <= n; i++) el.cheater.add(new Option(`party ${i}`, String(i)));
    el.cheater.value = Number(keep) <= n ? keep : '';
  }
  const check = setupCheck();
  el.paramsHint.classList.toggle('over', !check.ok);
  el.paramsHint.dataset.state = check.ok ? 'ok' : 'impossible';
  el.paramsHint.textContent = check.ok ? selectedScheme().explainThreshold(p.k, p.t, p.cheater) : check.reason;
  invalidateRun();
  renderPreview();
  refreshButtons();
  if (!app.run) renderBlame();
}

function refreshButtons() {
  const p = currentParams();
  const ready = app.pool !== null;
  const idle = ready && !app.busy;
  const paramsOk = p.k !== null && p.t !== null && setupCheck().ok;
  const reshare = reshareCheck();
  const reshareOk = reshare.ok;
  el.runAll.title = reshareOk ? '' : `The whole story ends with a reshare that cannot run: ${reshare.reason}`;
  el.runCeremony.disabled = !idle || !paramsOk;
  el.runAll.disabled = !idle || !paramsOk || !reshareOk;
  el.stop.disabled = !app.busy;
  const haveGroup = app.run?.hasKey === true;
  el.sign.disabled = !idle || !haveGroup;
  el.reshare.disabled = !idle || !haveGroup || !reshareOk;
  for (const c of [el.scheme, el.level, el.curve, el.parties, el.threshold, el.workers, el.cheater, el.cheatMode]) c.disabled = app.busy;
  el.cheatMode.disabled = app.busy || el.cheater.value === '';
}

function fillWorkerChoices() {
  const hc = defaultPoolSize();
  const fromUrl = Number(params.get('workers'));
  const choices = new Set([1, 2, 4, 8, hc]);
  if (Number.isInteger(fromUrl) && fromUrl >= 1 && fromUrl <= 64) choices.add(fromUrl);
  const list = [...choices].filter((n) => n >= 1 && n <= Math.max(hc, fromUrl || 0, 2)).sort((a, b) => a - b);
  el.workers.length = 0;
  for (const n of list) {
    const label = n === hc ? `${n} (one per core)` : n === 1 ? '1 (no parallelism)' : String(n);
    el.workers.add(new Option(label, String(n)));
  }
  el.workers.value = String(Number.isInteger(fromUrl) && fromUrl >= 1 && fromUrl <= 64 ? fromUrl : hc);
}

// ------------------------------------------------------------------------------ party tiles

function tileLabel(key) {
  if (key === COMBINER) return 'Combiner';
  if (key === COORDINATOR) return 'Coordinator';
  return `P${key}`;
}

function addTile(key, { role = 'party', worker, label = 'waiting', base = 'idle', title } = {}) {
  const div = document.createElement('div');
  div.className = role === 'party' ? 'tile' : 'tile role';
  div.dataset.party = String(key);
  div.dataset.role = role;
  div.dataset.state = base;
  const pid = document.createElement('span');
  pid.className = 'pid';
  pid.textContent = title ?? tileLabel(key);
  const wk = document.createElement('span');
  wk.className = 'wk';
  wk.textContent = worker === undefined ? '' : `w${worker}`;
  wk.title = worker === undefined ? '' : `hosted by worker ${worker}`;
  const st = document.createElement('span');
  st.className = 'st';
  st.textContent = label;
  const ms = document.createElement('span');
  ms.className = 'ms';
  ms.textContent = '';
  div.append(pid, wk, st, ms);
  el.grid.append(div);
  app.tiles.set(key, { el: div, st, ms, base, busy: false, total: 0 });
}

function setTile(key, { state, label, ms, cheater, detail } = {}) {
  const t = app.tiles.get(key);
  if (!t) return;
  if (state) t.base = state;
  if (label !== undefined) t.st.textContent = label;
  if (ms !== undefined) t.ms.textContent = ms;
  if (cheater !== undefined) t.el.dataset.cheater = cheater ? '1' : '0';
  if (detail !== undefined) t.detail = detail;
  t.el.dataset.state = t.busy === 'queued' ? 'queued' : t.busy ? 'busy' : t.base;
  t.el.title = `${tileLabel(key)}${t.el.dataset.cheater === '1' ? ' (set to cheat)' : ''}: ${t.detail ?? t.st.textContent}`;
}

/** busy: false | 'queued' (its worker will run it this round) | true (running now). */
function setBusy(key, busy) {
  const t = app.tiles.get(key);
  if (!t) return;
  t.busy = busy;
  t.el.dataset.state = busy === 'queued' ? 'queued' : busy ? 'busy' : t.base;
}

function updatePartySummary() {
  const run = app.run;
  if (!run) {
    el.partySummary.textContent = '—';
    return;
  }
  const g = run.group;
  const parts = [`${app.poolSize} worker${app.poolSize === 1 ? '' : 's'}`];
  if (g) parts.unshift(`${g.t} of ${g.parties.length} can sign (generation ${g.generation})`);
  el.partySummary.textContent = parts.join(' · ');
}

// ------------------------------------------------------------------------------ rounds & tables

/** The round `key` is in, as its party names it ("DKG", "release", "check shares", …). */
function roundOf(p, key) {
  return p.names?.get(key) ?? p.round;
}

function roundStart(info) {
  const row = document.createElement('div');
  row.className = 'round';
  row.dataset.state = 'running';
  const label = document.createElement('span');
  label.className = 'label';
  const b = document.createElement('b');
  b.textContent = info.phase;
  label.append(b, ` › ${info.round}`);
  const bar = document.createElement('progress');
  bar.max = Math.max(1, info.total);
  bar.value = 0;
  bar.setAttribute('aria-label', `${info.phase}, ${info.round}`);
  const meta = document.createElement('span');
  meta.className = 'meta';
  meta.textContent = `0 / ${info.total}`;
  row.append(label, bar, meta);
  el.rounds.append(row);
  app.roundRows.set(info.token, { row, bar, meta, total: info.total });
  for (const k of info.actors) setBusy(k, 'queued');
  setStatus('running', `${info.phase}: ${info.round} (${info.total} ${info.total === 1 ? 'party' : 'parties'})…`);
  if (info.stats) story.roundStart(info.stats);
  el.storyNowText.textContent = `${info.phase} › ${info.round} · round ${story.bands.length} · ${plural(info.stats?.messages ?? 0, 'message')} in flight`;
}

function roundProgress(p) {
  if (p.key !== null && p.key !== undefined && p.ms !== undefined) {
    timeline.step({ key: p.key, phase: p.phase, seq: app.run?.phaseSeq ?? 0, round: roundOf(p, p.key), ms: p.ms, end: performance.now() });
  }
  const r = app.roundRows.get(p.token);
  if (!r) return;
  r.bar.value = p.done;
  r.meta.textContent = `${p.done} / ${r.total}`;
  if (p.key !== null && p.key !== undefined) {
    setBusy(p.key, false);
    const t = app.tiles.get(p.key);
    if (t) {
      t.ms.textContent = `${fmtMs(p.ms)} …`;
      if (t.base !== 'blamed') setTile(p.key, { label: p.ok === false ? `${roundOf(p, p.key)}: error` : `✓ ${roundOf(p, p.key)}` });
    }
  }
}

function roundEnd(stats, token) {
  const r = app.roundRows.get(token);
  if (r) {
    r.bar.value = r.total;
    r.row.dataset.state = stats.errors.size ? 'error' : 'done';
    r.meta.textContent = `${fmtMs(stats.wallMs)} · ${stats.messages} msg · ${fmtBytes(stats.bytesDelivered)}`;
  }
  for (const [k, ms] of stats.partyMs) {
    setBusy(k, false);
    const t = app.tiles.get(k);
    if (t) {
      if (t.seq !== stats.seq) {
        t.seq = stats.seq;
        t.phaseMs = 0;
      }
      t.phaseMs += ms;
      t.total += ms;
      const short = stats.phase.split(' ')[0].toLowerCase();
      t.ms.textContent = `${fmtMs(t.phaseMs)} ${short}`;
      t.ms.title = `time spent by ${tileLabel(k)} in ${stats.phase}, measured inside its worker`;
    }
  }
  story.roundEnd(stats);
  renderTimeline();
  renderTables();
}

/**
 * The phase and per-party tables (behind their toggle), from the current group's rounds:
 * round by round while they are open, else once an action ends (`force`).
 */
function renderTables(force = false) {
  if (!el.tables.open && force !== true) return;
  drawTables({ rounds: app.run?.net.rounds ?? [], workerOf: (k) => app.run?.net.workerOf(k), phaseTable: el.phaseTable, partyTable: el.partyTable, tileLabel, isParty });
}

// ------------------------------------------------------------------------------ blame

function renderBlame() {
  el.blame.textContent = '';
  if (!app.blames.length) {
    el.blame.removeAttribute('data-party');
    const check = app.run ? { ok: true } : setupCheck();
    if (app.failure || !check.ok) {
      // A setup that failed, or cannot succeed, is not "nothing detected".
      el.blame.dataset.state = 'failed';
      el.blame.textContent = app.failure
        ? `No party was blamed: the run failed before any cheating could be detected — ${describeError(app.failure)}.`
        : `Nothing will run. ${check.reason}`;
      return;
    }
    el.blame.dataset.state = 'none';
    el.blame.textContent = app.run?.cheater
      ? `Party ${app.run.cheater} is set to cheat (${app.run.cheatMode === 'signing' ? 'a bad contribution when signing: it is caught at the first signature' : 'dealing bad key shares: it is caught in the key ceremony'}); nothing detected yet.`
      : 'No party has been blamed.';
    return;
  }
  el.blame.dataset.state = 'blamed';
  const named = [...new Set(app.blames.flatMap((b) => b.parties))];
  el.blame.dataset.party = named.join(',');
  const head = document.createElement('p');
  head.style.margin = '0';
  const s = document.createElement('strong');
  s.textContent = `Blamed: ${named.map((k) => `party ${k}`).join(', ')}.`;
  head.append(s);
  const ul = document.createElement('ul');
  for (const b of app.blames) {
    const li = document.createElement('li');
    li.textContent = `${b.phase}: ${b.text}`;
    ul.append(li);
  }
  el.blame.append(head, ul);
}

// ------------------------------------------------------------------------------ the UI object flows talk to

const ui = {
  roundStart,
  stepStart(p) {
    setBusy(p.key, true);
    setTile(p.key, { label: `${roundOf(p, p.key)}…` });
  },
  roundProgress,
  roundEnd,
  party(key, patch) {
    setTile(key, patch);
  },
  addParty(key, opts) {
    if (!app.tiles.has(key)) addTile(key, opts);
    else setTile(key, opts);
    story.lanes([key]);
  },
  blame(event) {
    app.blames.push(event);
    story.note({ kind: 'blame', text: `Blame (${event.phase}): ${event.text}` });
    for (const k of event.parties) setTile(k, { state: 'blamed', label: 'blamed, excluded', detail: `${event.phase}: ${event.text}` });
    renderBlame();
  },
  status(text) {
    setStatus('running', text);
  },
};

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

// Long tasks on the page's own thread while an action runs: the evidence that the work is
// in the workers (the browser reports every main-thread task longer than 50 ms).
const longTasks = { max: 0, count: 0, supported: false };
try {
  new PerformanceObserver((list) => {
    if (!app.busy) return;
    for (const e of list.getEntries()) {
      longTasks.max = Math.max(longTasks.max, e.duration);
      longTasks.count += 1;
    }
  }).observe({ type: 'longtask', buffered: false });
  longTasks.supported = true;
} catch {
  // Not every browser has the Long Tasks API.
}

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
    el.elapsed.textContent = `running for ${fmtMs(performance.now() - t0)}`;
  }, 100);
  try {
    const summary = await fn();
    setStatus('done', `${summary ?? `${name}: done`} (${fmtMs(performance.now() - t0)})`);
  } catch (err) {
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
  el.reshareN.max = '64';
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
  story.note({ kind: 'result', text: `The signature (${byteCount(signed.signature.length)}) verifies with ${v.verifier} under the group key.` });
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
  story.note(handOver(run, cert));
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
    const n = readInt(el.reshareN, 1, 64);
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
