// quasar-pq demo, Magnetar tab: K validators, each in a worker of the pool with its own
// SLH-DSA key, sign a block; the page batch-verifies their signatures across the workers (one
// bit per validator), aggregates the valid ones into a MAGA certificate, and checks it as a
// light client (the `quasar-pq/verify` build) against the registry and the quorum, both in a
// worker of their own (www/light-worker.js), so that even at K = 64 nothing blocks the page. A cheating
// validator signs another block: its bit is 0, it is counted out, and a certificate that
// carried its signature anyway is refused, naming it.
//
// No cryptography here: keys and signatures are made in the workers by `magnetar.keygen` and
// `magnetar.sign`, the batch is checked there by the library's `MagnetarRegistry`, and the
// light worker calls `magnetar.aggregate` and `MagnetarRegistry.verifyAggregate`.

import { describeError, errorBox, fmtBytes, fmtMs, hex, median, setStatus as setLine } from './util.js';
import { lightVerifier } from './light-verifier.js';

const $ = (id) => document.getElementById(id);
const utf8 = new TextEncoder();
const CONTEXT = utf8.encode('quasar-demo-finality');
/** Every validator's voting weight (equal stakes). */
const WEIGHT = 100;

const el = {
  status: $('mag-status'),
  error: $('mag-error'),
  errorText: $('mag-error-text'),
  errorDismiss: $('mag-error-dismiss'),
  k: $('mag-validators'),
  mode: $('mag-mode'),
  cheater: $('mag-cheater'),
  message: $('mag-message'),
  hint: $('mag-hint'),
  run: $('mag-run'),
  elapsed: $('mag-elapsed'),
  summary: $('mag-summary'),
  grid: $('mag-grid'),
  bitmap: $('mag-bitmap'),
  count: $('mag-count'),
  batchTime: $('mag-batch-time'),
  verdict: $('mag-verdict'),
  weight: $('mag-weight'),
  certSize: $('mag-cert-size'),
  verifyTime: $('mag-verify-time'),
  refusal: $('mag-refusal'),
  table: $('mag-table'),
};

const state = {
  lib: null, // the full build (set once the page has loaded it: the tab is ready)
  getPool: null, // () => Promise<WorkerPool>, the page's shared pool
  busy: false,
  keys: null, // { mode, k, pool, validators: [{ index, id, publicKey, weight, worker }], version }
  version: 0,
};

/** Validator i's 32-byte id: "validator-i" zero-padded (public, readable in a hex dump). */
function validatorId(i) {
  const id = new Uint8Array(32);
  id.set(utf8.encode(`validator-${i}`));
  return id;
}

function readK() {
  const v = Number(el.k.value);
  const ok = Number.isInteger(v) && v >= 3 && v <= 64;
  el.k.setAttribute('aria-invalid', ok ? 'false' : 'true');
  return ok ? v : null;
}

const setStatus = (state, text) => setLine(el.status, state, text);
const { show: showError, clear: clearError } = errorBox(
  { box: el.error, text: el.errorText, dismiss: el.errorDismiss },
  (k) => `validator ${k}`,
);

function refresh() {
  const k = readK();
  const keep = el.cheater.value;
  if (k !== null && el.cheater.options.length !== k + 1) {
    el.cheater.length = 1;
    for (let i = 1; i <= k; i++) el.cheater.add(new Option(`validator ${i}`, String(i)));
    el.cheater.value = Number(keep) <= k ? keep : '';
  }
  if (k === null) {
    el.hint.textContent = 'K must be a whole number from 3 to 64.';
  } else {
    // More than 2/3 of K·100: the smallest count whose weight exceeds it.
    const need = Math.floor((2 * k) / 3) + 1;
    el.hint.textContent =
      `${k} validators of weight ${WEIGHT} each (total ${k * WEIGHT}); the quorum needs more than 2/3 of it: ` +
      `at least ${need} valid signatures. ` +
      (el.cheater.value ? `With validator ${el.cheater.value} cheating, ${k - 1} can sign${k - 1 >= need ? '' : ' — not enough'}.` : '');
  }
  el.run.disabled = state.busy || state.lib === null || k === null;
  for (const c of [el.k, el.mode, el.cheater, el.message]) c.disabled = state.busy;
}

function tile(v, label) {
  const div = document.createElement('div');
  div.className = 'tile';
  div.dataset.validator = String(v.index);
  div.dataset.state = 'idle';
  const pid = document.createElement('span');
  pid.className = 'pid';
  pid.textContent = `V${v.index}`;
  const wk = document.createElement('span');
  wk.className = 'wk';
  wk.textContent = `w${v.worker}`;
  wk.title = `hosted by worker ${v.worker}`;
  const st = document.createElement('span');
  st.className = 'st';
  st.textContent = label;
  const ms = document.createElement('span');
  ms.className = 'ms';
  div.append(pid, wk, st, ms);
  el.grid.append(div);
  return { div, st, ms };
}

function resetOutputs() {
  for (const e of [el.bitmap, el.count, el.batchTime, el.weight, el.certSize, el.verifyTime, el.refusal]) e.textContent = '—';
  delete el.bitmap.dataset.bits;
  for (const k of ['valid', 'total']) delete el.count.dataset[k];
  for (const k of ['signed', 'total']) delete el.weight.dataset[k];
  setLine(el.verdict, 'none', '—');
  delete el.refusal.dataset.code;
}

/** Per-worker requests in parallel: `jobs[w]` is worker w's list; `make(list)` its request. */
async function perWorker(pool, jobs, make) {
  return Promise.all(jobs.map((list, w) => (list.length ? pool.call(w, make(list)) : null)));
}

/** Generate the validators' keys in the workers (again only when K, the mode or the pool changed). */
async function ensureKeys(pool, k, mode) {
  if (state.keys && state.keys.k === k && state.keys.mode === mode && state.keys.pool === pool) return null;
  if (state.keys?.pool === pool) await Promise.all(pool.workers.map((_, w) => pool.call(w, { op: 'magnetar-drop' })));
  const vs = Array.from({ length: k }, (_, i) => ({ index: i + 1, id: validatorId(i + 1), weight: WEIGHT, worker: i % pool.size }));
  const jobs = pool.workers.map((_, w) => vs.filter((v) => v.worker === w).map((v) => v.index));
  const t0 = performance.now();
  const replies = await perWorker(pool, jobs, (list) => ({ op: 'magnetar-keygen', mode, validators: list }));
  const wall = performance.now() - t0;
  const ms = [];
  for (const r of replies) {
    for (const key of r?.keys ?? []) {
      vs[key.index - 1].publicKey = key.publicKey;
      ms.push(key.ms);
    }
  }
  state.version += 1;
  const row = { step: 'Key generation (once per set of validators)', where: `${pool.size} worker${pool.size === 1 ? '' : 's'}`, wall, ms, bytes: `${vs[0].publicKey.length} B per MAGG key` };
  state.keys = { mode, k, pool, validators: vs, version: state.version, row };
  return wall;
}

async function runRound() {
  const k = readK();
  const mode = el.mode.value;
  const cheater = el.cheater.value === '' ? null : Number(el.cheater.value);
  const block = utf8.encode(el.message.value);
  const forged = utf8.encode(`${el.message.value} (a conflicting block)`);
  const rows = [];
  resetOutputs();
  setStatus('running', 'Starting the workers…');
  const pool = await state.getPool();

  setStatus('running', `Generating ${k} validator keys (${mode})…`);
  await ensureKeys(pool, k, mode);
  rows.push(state.keys.row);
  const vs = state.keys.validators;
  el.grid.textContent = '';
  const tiles = new Map(vs.map((v) => [v.index, tile(v, 'signing…')]));
  for (const v of vs) {
    const t = tiles.get(v.index);
    t.div.dataset.state = 'busy';
    if (v.index === cheater) t.div.dataset.cheater = '1';
  }
  el.summary.textContent = `${k} validators · ${mode} · ${pool.size} worker${pool.size === 1 ? '' : 's'}`;

  // 1. Every validator signs in its worker; the cheater signs another block.
  setStatus('running', `${k} validators sign the block…`);
  const jobs = pool.workers.map((_, w) =>
    vs.filter((v) => v.worker === w).map((v) => ({ index: v.index, message: v.index === cheater ? forged : block })),
  );
  let t0 = performance.now();
  const signed = await perWorker(pool, jobs, (list) => ({ op: 'magnetar-sign', jobs: list, context: CONTEXT }));
  const signWall = performance.now() - t0;
  const signatures = new Map();
  const signMs = [];
  for (const r of signed) {
    for (const s of r?.signatures ?? []) {
      signatures.set(s.index, s.signature);
      signMs.push(s.ms);
      const t = tiles.get(s.index);
      t.st.textContent = 'signed';
      t.ms.textContent = `${fmtMs(s.ms)} sign`;
      t.div.dataset.state = 'share';
    }
  }
  const sigBytes = signatures.get(1).length;
  rows.push({ step: 'Signing', where: 'workers', wall: signWall, ms: signMs, bytes: `${sigBytes.toLocaleString('en-US')} B per MAGS signature` });

  // 2. The aggregator's batch check, split across the workers, against the public registry.
  setStatus('running', 'Batch-verifying the contributions across the workers…');
  const registry = { version: state.keys.version, mode, validators: vs.map((v) => ({ id: v.id, publicKey: v.publicKey, weight: v.weight })) };
  const contributions = vs.map((v) => ({ id: v.id, signature: signatures.get(v.index) }));
  const chunk = Math.ceil(k / pool.size);
  const parts = pool.workers.map((_, w) => contributions.slice(w * chunk, (w + 1) * chunk));
  t0 = performance.now();
  const checked = await perWorker(pool, parts, (list) => ({ op: 'magnetar-verify-batch', registry, contributions: list, message: block, context: CONTEXT }));
  const batchWall = performance.now() - t0;
  const bitmap = checked.flatMap((r) => r?.bitmap ?? []);
  const batchMs = checked.filter(Boolean).map((r) => r.ms);
  rows.push({ step: 'Batch verification', where: `${batchMs.length} worker${batchMs.length === 1 ? '' : 's'}`, wall: batchWall, ms: batchMs, bytes: `${fmtBytes(sigBytes * k)} checked` });
  const valid = bitmap.filter(Boolean).length;
  el.bitmap.textContent = bitmap.map((b) => (b ? '1' : '0')).join('');
  el.bitmap.dataset.bits = el.bitmap.textContent;
  el.count.textContent = `${valid} of ${k} validators`;
  el.count.dataset.valid = String(valid);
  el.count.dataset.total = String(k);
  el.batchTime.textContent = `${fmtMs(batchWall)} (${batchMs.length} worker${batchMs.length === 1 ? '' : 's'})`;
  vs.forEach((v, i) => {
    const t = tiles.get(v.index);
    t.div.dataset.bit = bitmap[i] ? '1' : '0';
    t.div.dataset.state = bitmap[i] ? 'signer' : 'blamed';
    t.st.textContent = bitmap[i] ? 'bit 1' : 'bit 0 · out';
    t.div.title = `validator ${v.index}: ${bitmap[i] ? 'its signature verifies, counted' : 'its signature does not verify for this block, counted out'}`;
  });

  // 3. The certificate of the valid contributions, checked by the light client in its worker;
  // with a bad signature, also the certificate a dishonest aggregator would make by keeping it.
  setStatus('running', 'Aggregating; the light client checks the certificate (in their worker)…');
  setLine(el.verdict, 'running', 'verifying…');
  const good = contributions.filter((_, i) => bitmap[i]);
  const sets = [];
  if (good.length) sets.push(good);
  if (valid < k) sets.push(contributions);
  const checkedAll = await lightVerifier().call({ op: 'magnetar-check', mode, validators: registry.validators, sets, message: block, context: CONTEXT });
  const verdicts = [...checkedAll.verdicts];
  let verdict;
  let certLen = 0;
  if (good.length) {
    verdict = verdicts.shift();
    certLen = verdict.bytes;
    rows.push({ step: 'Aggregate certificate check', where: 'light-client worker', wall: verdict.ms, ms: [], bytes: `${certLen.toLocaleString('en-US')} B certificate` });
  } else {
    verdict = { ok: false, code: 'NO_SIGNERS', reason: 'no valid signature to aggregate' };
  }
  const signedWeight = verdict.signedWeight ?? BigInt(good.length * WEIGHT);
  const total = checkedAll.totalWeight;
  el.weight.textContent = `${signedWeight} of ${total}`;
  el.weight.dataset.signed = String(signedWeight);
  el.weight.dataset.total = String(total);
  el.certSize.textContent = certLen ? `${fmtBytes(certLen)} (${good.length} signers)` : '—';
  el.verifyTime.textContent = certLen ? `${fmtMs(verdict.ms)} (in the worker)` : '—';
  el.verdict.dataset.code = verdict.code ?? '';
  setLine(el.verdict, verdict.ok ? 'valid' : 'invalid', verdict.ok ? 'quorum met' : verdict.code === 'QUORUM_NOT_MET' ? 'quorum not met' : `refused (${verdict.code})`);

  // What a dishonest aggregator gets for keeping the bad signature: a refusal naming it.
  if (valid < k) {
    const v = verdicts.shift();
    const names = (v.failed ?? []).map((id) => `validator ${vs.findIndex((x) => hex(x.id, 32) === hex(id, 32)) + 1}`);
    el.refusal.dataset.code = v.code ?? 'OK';
    el.refusal.textContent = v.ok ? 'accepted' : `refused: ${v.code}${names.length ? `, naming ${names.join(', ')}` : ''}`;
  } else {
    el.refusal.textContent = 'no bad signature to include';
  }
  renderTable(rows);
  return `${valid} of ${k} signatures valid; the certificate ${verdict.ok ? 'meets' : 'does not meet'} the quorum (${signedWeight} of ${total})`;
}

const TABLE_COLUMNS = ['Step', 'Where', 'Wall clock', 'Median', 'Max', 'Bytes'];

function renderTable(rows) {
  const tbody = el.table.tBodies[0];
  tbody.textContent = '';
  for (const r of rows) {
    const tr = document.createElement('tr');
    for (const text of [r.step, r.where, fmtMs(r.wall), r.ms.length ? fmtMs(median(r.ms)) : '—', r.ms.length ? fmtMs(Math.max(...r.ms)) : '—', r.bytes]) {
      const c = document.createElement('td');
      c.textContent = text;
      c.dataset.label = TABLE_COLUMNS[tr.cells.length];
      tr.append(c);
    }
    tbody.append(tr);
  }
}

async function action() {
  if (state.busy) return;
  clearError();
  state.busy = true;
  refresh();
  const t0 = performance.now();
  const ticker = setInterval(() => {
    el.elapsed.textContent = `running for ${fmtMs(performance.now() - t0)}`;
  }, 100);
  try {
    const summary = await runRound();
    setStatus('done', `${summary} (${fmtMs(performance.now() - t0)})`);
  } catch (err) {
    console.warn('quasar-pq demo:', err);
    showError(err);
    setStatus('error', `The round failed: ${describeError(err)}`);
    state.keys = null;
  } finally {
    clearInterval(ticker);
    el.elapsed.textContent = '';
    state.busy = false;
    refresh();
    document.body.dataset.magRuns = String(Number(document.body.dataset.magRuns ?? 0) + 1);
  }
}

/** Called once the page has loaded both builds and can start the pool. */
export function setupMagnetar({ lib, getPool }) {
  state.lib = lib;
  state.getPool = getPool;
  refresh();
}

el.run.addEventListener('click', action);
el.k.addEventListener('input', refresh);
el.cheater.addEventListener('change', refresh);
el.mode.addEventListener('change', refresh);
refresh();
