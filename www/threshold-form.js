// The threshold tab's form: reading and checking its parameters (K, t, the cheater, the
// reshare), keeping its fields consistent, the preview tiles before a ceremony, and which
// buttons are enabled. No protocol and no run here: www/threshold.js acts on what it reads.

import { defaultPoolSize } from './pool.js';
import { COMBINER, COORDINATOR, MAX_K, SCHEMES, checkReshare, checkSetup, defaultThreshold } from './flows.js';
import { app, el, params } from './threshold-page.js';
import { addTile, setTile } from './tiles.js';

export function readInt(input, lo, hi) {
  const v = Number(input.value);
  const ok = Number.isInteger(v) && v >= lo && v <= hi;
  input.setAttribute('aria-invalid', ok ? 'false' : 'true');
  return ok ? v : null;
}

/** The form's setup, checked before anything runs (t > K, t = K with a cheater, …). */
export function setupCheck() {
  const p = currentParams();
  const raw = Number(el.threshold.value);
  return checkSetup({ scheme: p.scheme, k: p.k, t: p.t ?? (Number.isInteger(raw) ? raw : null), cheater: p.cheater });
}

/** The reshare fields, checked against the current group (if any) before the reshare runs. */
export function reshareCheck() {
  const n = Number(el.reshareN.value);
  const t = Number(el.reshareT.value);
  const g = app.run?.hasKey ? app.run.group : null;
  const dealers = g ? g.parties.filter((q) => !app.run.blamed.has(q)).length : undefined;
  const r = checkReshare({ scheme: el.scheme.value, n: el.reshareN.value === '' ? NaN : n, t: el.reshareT.value === '' ? NaN : t, dealers, oldT: g?.t });
  const nOk = Number.isInteger(n) && n >= 1 && n <= MAX_K;
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

export function currentParams() {
  const k = readInt(el.parties, 3, MAX_K);
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

export function updateSchemeFields() {
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
export function renderPreview() {
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

/**
 * Make the form's fields follow each other (the threshold and the reshare follow K until edited,
 * the cheater options follow K) and say whether the setup can run.
 */
export function syncParamFields() {
  const k = readInt(el.parties, 3, MAX_K);
  if (k !== null && !app.thresholdTouched) el.threshold.value = String(defaultThreshold(k));
  // The reshare follows K (same size, the default threshold) until its fields are edited.
  if (k !== null && !app.reshareNTouched) el.reshareN.value = String(k);
  if (!app.reshareTTouched) {
    const n = readInt(el.reshareN, 1, MAX_K);
    if (n !== null) el.reshareT.value = String(defaultThreshold(n));
  }
  el.threshold.max = String(k ?? MAX_K);
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
}

export function refreshButtons() {
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

export function fillWorkerChoices() {
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
