// The Pulsar committee tab: N members (2–6), each an entity of the shared worker pool
// (www/party-worker.js), get one ML-DSA key — from the distributed key generation
// (`pulsar.committee.keygen`, one party per member: nobody ever holds the key) or from a
// trusted dealer (`pulsar.committee.deal`, which knows the key while it deals) — and exactly T
// of them sign (`pulsar.committee.signer`): a commitment, a reveal and the responses per run,
// each a broadcast, and a run in which no slot passes restarts itself inside the library.
//
// The page runs no round: it starts each member's party with public parameters, routes its
// bytes (www/coordinator.js, in the tab's own scope of the workers) and reads back public
// outcomes. A member's share stays in its worker (`share: true` in the signer's parameters
// stands for it); the page only sees its public info. The signature is checked by the plain
// FIPS 204 verifier under the committee's public key (www/verify.js, in a worker). A
// cheating signer runs the library's misbehaviour hook (`cheat`, the demo build only). The
// view — verdict, members, rounds, blame — is www/committee-view.js.
//
// ?seed=<text> (as on the threshold tab) makes runs reproducible: every session id and member
// seed is then derived from it (SHA-256) instead of drawn from crypto.getRandomValues.

import { Network } from './coordinator.js';
import { equalBytes, errorBox, fmtMs, plural, randomSession, setStatus as setLine, watchLongTasks } from './util.js';
import { describeError, memberList, nameOf, view } from './committee-view.js';

const $ = (id) => document.getElementById(id);
const utf8 = new TextEncoder();

/** The workers' namespace for this tab's entities (www/party-worker.js). */
const SCOPE = 'committee';
const MIN_N = 2;
const MAX_N = 6; // `pulsar.committee.maxParties`, checked against the package at start

const el = {
  status: $('cm-status'),
  error: $('cm-error'),
  errorText: $('cm-error-text'),
  errorDismiss: $('cm-error-dismiss'),
  n: $('cm-n'),
  t: $('cm-t'),
  level: $('cm-level'),
  keygen: $('cm-keygen'),
  signers: $('cm-signers'),
  signersCount: $('cm-signers-count'),
  message: $('cm-message'),
  cheater: $('cm-cheater'),
  cheatKind: $('cm-cheat-kind'),
  hint: $('cm-hint'),
  run: $('cm-run'),
  sign: $('cm-sign'),
  elapsed: $('cm-elapsed'),
  mainThread: $('cm-main-thread'),
  trust: $('cm-trust'),
};

const state = {
  lib: null, // the demo build (set once the page loaded it: the tab is ready)
  getPool: null, // () => Promise<WorkerPool>, the page's shared pool
  busy: false,
  signersTouched: false, // the ticks follow T until the user ticks one
  net: null, // the members' network (www/coordinator.js) and its pool, from the last key generation on: { net, pool }
  key: null, // the committee's key: { pool, net, mode, level, threshold, members, publicKey, slots, shares, signings }
  seed: new URLSearchParams(location.search).get('seed'),
  draws: 0,
};

const setStatus = (s, text) => setLine(el.status, s, text);
const { show: showError, clear: clearError } = errorBox({ box: el.error, text: el.errorText, dismiss: el.errorDismiss }, nameOf);

// ------------------------------------------------------------------------------ the form

function readInt(input, lo, hi) {
  const v = Number(input.value);
  const ok = input.value.trim() !== '' && Number.isInteger(v) && v >= lo && v <= hi;
  input.setAttribute('aria-invalid', ok ? 'false' : 'true');
  return ok ? v : null;
}

/** The form as it stands: `{ n, t, level, mode, signers, cheater, kind, message, problem }`. */
function readForm() {
  const n = readInt(el.n, MIN_N, MAX_N);
  const t = n === null ? readInt(el.t, MIN_N, MAX_N) : readInt(el.t, MIN_N, n);
  const signers = [...el.signers.querySelectorAll('input:checked')].map((c) => Number(c.value));
  const cheater = el.cheater.value === '' ? null : Number(el.cheater.value);
  const form = { n, t, level: Number(el.level.value), mode: el.keygen.value, signers, cheater, kind: el.cheatKind.value, message: utf8.encode(el.message.value) };
  if (n === null) form.problem = `N must be a whole number from ${MIN_N} to ${MAX_N}.`;
  else if (t === null) form.problem = `T must be a whole number from ${MIN_N} to N = ${n}: exactly T members sign.`;
  else if (signers.length !== t) form.problem = `Tick exactly T = ${t} signers (${signers.length} ticked): the scheme signs with exactly T.`;
  return form;
}

/** The signer ticks for members 1..N: kept as ticked, or the first T while untouched. */
function syncSigners(n, t) {
  const ticked = new Set([...el.signers.querySelectorAll('input:checked')].map((c) => Number(c.value)));
  if (n === null) return;
  if (el.signers.children.length !== n) {
    el.signers.textContent = '';
    for (let id = 1; id <= n; id++) {
      const label = document.createElement('label');
      label.className = 'check';
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = String(id);
      box.name = 'cm-signer';
      box.addEventListener('change', () => {
        state.signersTouched = true;
        refresh();
      });
      const span = document.createElement('span');
      span.textContent = `member ${id}`;
      label.append(box, span);
      el.signers.append(label);
    }
  }
  const boxes = [...el.signers.querySelectorAll('input')];
  boxes.forEach((b, i) => {
    b.checked = state.signersTouched ? ticked.has(i + 1) : t !== null && i < t;
  });
}

/** The cheater's choices: nobody, or one of the ticked signers (only a signer can cheat). */
function syncCheater(signers) {
  const keep = el.cheater.value;
  el.cheater.length = 1;
  for (const id of signers) el.cheater.add(new Option(`member ${id}`, String(id)));
  el.cheater.value = signers.map(String).includes(keep) ? keep : '';
  el.cheatKind.disabled = state.busy || el.cheater.value === '';
}

/** Whether the key in the workers is the one the form describes (N, T, level, key generation). */
function keyMatches(f) {
  const k = state.key;
  return !!k && k.members.length === f.n && k.threshold === f.t && k.level === f.level && k.mode === f.mode;
}

function refresh() {
  const n = readInt(el.n, MIN_N, MAX_N);
  el.t.max = String(n ?? MAX_N);
  let f = readForm();
  syncSigners(n, f.t);
  f = readForm();
  syncCheater(f.signers);
  f = readForm();
  el.signersCount.textContent = f.t === null ? '(tick exactly T)' : `(tick exactly T = ${f.t}; ${f.signers.length} ticked)`;
  const ready = state.lib !== null && !state.busy;
  el.run.disabled = !ready || !!f.problem;
  el.sign.disabled = !ready || !!f.problem || !keyMatches(f);
  for (const c of [el.n, el.t, el.level, el.keygen, el.message, el.cheater, ...el.signers.querySelectorAll('input')]) c.disabled = state.busy;
  const parts = [];
  if (f.problem) parts.push(f.problem);
  else {
    parts.push(`${f.t} of ${f.n} sign with ML-DSA-${f.level}: exactly these ${f.t}, and every one of them must answer.`);
    if (f.cheater !== null) parts.push(`Member ${f.cheater} cheats: ${f.kind === 'garbage' ? 'the session will stall, with nothing signed' : 'it will be named, with nothing signed'}.`);
    if (state.key && !keyMatches(f)) parts.push('The form no longer matches the current key: generate a new one.');
    if (f.level === 65 && f.n === 6 && f.t >= 4) parts.push('Heavy: ML-DSA-65 with T = 4 or 5 of 6 has hundreds of slots per run — megabytes per signer per run, tens of seconds here.');
  }
  if (state.seed !== null) parts.push(`Reproducible: session ids and member seeds derived from the seed "${state.seed}" of the URL.`);
  el.hint.textContent = parts.join(' ');
  el.hint.classList.toggle('over', !!f.problem);
}

// ------------------------------------------------------------------------------ randomness

/** 32 bytes for `what`: fresh, or derived from the URL's seed (reproducible). */
async function bytes(what) {
  if (state.seed === null) return randomSession();
  const text = utf8.encode(`quasar-pq demo committee\0${state.seed}\0${what}`);
  return new Uint8Array(await crypto.subtle.digest('SHA-256', text));
}

/** A session id and each member's seed (undefined: the factory draws one). */
async function draw(keys) {
  const n = ++state.draws;
  const session = await bytes(`session ${n}`);
  const seeds = new Map();
  if (state.seed !== null) for (const k of keys) seeds.set(k, await bytes(`session ${n} member ${k}`));
  return { session, seed: (k) => seeds.get(k) };
}

const withSeed = (params, seed) => (seed === undefined ? params : { ...params, seed });

// ------------------------------------------------------------------------------ the actions

/** A failure a party reported, with its code and culprits (for describeError). */
function failure(info, context) {
  const e = new Error(`${context}: ${info.message}`);
  e.name = info.name && info.name !== 'Error' ? info.name : 'ProtocolError';
  e.code = info.code;
  e.culprits = info.culprits ?? [];
  return e;
}

/** Forget the key: its members (and their shares, also those of a failed key generation) leave the workers. */
async function dropKey() {
  const old = state.net;
  state.key = null;
  state.net = null;
  view.clearKey();
  if (old && old.pool === (await state.getPool())) await old.net.drop([...old.net.placement.keys()]).catch(() => {});
}

/** The key generation of the form's committee: distributed, or by a trusted dealer. */
async function generateKey(f) {
  await dropKey();
  const pool = await state.getPool();
  const members = Array.from({ length: f.n }, (_, i) => i + 1);
  const net = new Network(pool, { scope: SCOPE, onRoundStart: (r) => view.roundStart(r), onRoundEnd: (s) => view.roundEnd(s) });
  net.spawn(members.map((key) => ({ key, role: 'member' })));
  state.net = { net, pool };
  view.startKey({ net, members, mode: f.mode });
  let info;
  let shares;
  if (f.mode === 'dkg') {
    const { session, seed } = await draw(members);
    const common = { session, level: f.level, threshold: f.t, members };
    const r = await net.run({
      phase: 'Key generation',
      parties: members.map((id) => ({ key: id, factory: 'pulsar.committee.keygen', params: withSeed({ ...common, id }, seed(id)) })),
      label: `distributed key generation of ${f.n}`,
    });
    for (const [id, e] of r.errors) throw failure(e, `key generation (${nameOf(id)})`);
    if (r.outcomes.size !== members.length) throw new Error(`key generation: ${memberList(r.waiting)} did not finish`);
    info = r.outcomes.get(1);
    for (const [id, o] of r.outcomes) {
      if (!equalBytes(o.publicKey, info.publicKey)) throw new Error(`key generation: ${nameOf(id)} ended with another public key`);
    }
    shares = new Map([...r.outcomes].map(([id, o]) => [id, o.share]));
  } else {
    // The dealer runs in a worker; each share is moved (not copied) to its member's worker,
    // through the page as the key generation's private seeds are, and loaded there.
    const opts = withSeed({ level: f.level, threshold: f.t, members }, state.seed === null ? undefined : await bytes(`dealer ${++state.draws}`));
    const dealt = await pool.call(0, { op: 'committee-deal', opts });
    info = dealt.info;
    const sizes = new Map(dealt.shares.map((s) => [s.id, s.dealerShare.length]));
    const loads = await Promise.all(
      dealt.shares.map((s) => pool.call(net.workerOf(s.id), { op: 'committee-load', scope: SCOPE, key: s.id, dealerShare: s.dealerShare, committeeKey: info.key }, [s.dealerShare.buffer])),
    );
    shares = new Map(dealt.shares.map((s, i) => [s.id, loads[i].share]));
    view.dealt({ ms: dealt.ms, sizes, loadMs: Math.max(...loads.map((l) => l.ms)) });
  }
  state.key = { pool, net, mode: f.mode, level: info.level, threshold: info.threshold, members: [...info.members], publicKey: info.publicKey, slots: info.slots, shares, signings: 0 };
  view.keyed(state.key);
}

/** One signing session of the ticked signers; the verdict of the standard verifier. */
async function sign(f) {
  const key = state.key;
  if (key.pool !== (await state.getPool())) {
    await dropKey();
    throw new Error('the worker pool was restarted (from the threshold tab), and the members and their shares with it: generate a new key');
  }
  key.signings += 1;
  const phase = `Signing ${key.signings}`;
  key.net.clearInboxes();
  const { signers, cheater, kind, message } = f;
  view.startSigning({ phase, signers, cheater, kind });
  const { session, seed } = await draw(signers);
  const common = { share: true, session, signers, message };
  const r = await key.net.run({
    phase,
    parties: signers.map((id) => ({ key: id, factory: 'pulsar.committee.signer', params: withSeed(id === cheater ? { ...common, cheat: kind } : common, seed(id)) })),
    label: `signers: ${memberList(signers)}`,
  });
  const honest = signers.filter((id) => id !== cheater);
  const signed = honest.filter((id) => r.outcomes.has(id));
  let verdict = null;
  let signature = null;
  if (signed.length && signed.length === honest.length) {
    signature = r.outcomes.get(signed[0]).signature;
    for (const id of signed) {
      if (!equalBytes(r.outcomes.get(id).signature, signature)) throw new Error(`${nameOf(id)} combined another signature than ${nameOf(signed[0])}`);
    }
    view.verifying();
    verdict = await key.pool.call(0, { op: 'verify', request: { kind: 'pulsar', groupKey: key.publicKey, message, signature } });
  }
  const result = { phase, signers, cheater, kind, outcomes: r.outcomes, errors: r.errors, waiting: r.waiting, signature, verdict };
  view.signed(result);
  if (signature && !verdict.ok) throw new Error(`the standard verifier rejected the signature (${verdict.verifier})`);
  if (!signature && cheater === null) {
    const [id, e] = [...r.errors][0] ?? [];
    throw e ? failure(e, `signing (${nameOf(id)})`) : new Error(`signing stalled: ${memberList(r.waiting)} still waiting`);
  }
  return result;
}

/** The status line's summary of a signing session. */
function summary(res) {
  if (res.signature) {
    const o = res.outcomes.get(res.signers.find((id) => res.outcomes.has(id)));
    return `Signed by ${memberList(res.signers)} in ${plural(o.runs, 'run')}; ${res.verdict.verifier}: ${res.verdict.ok ? 'valid' : 'INVALID'}`;
  }
  const named = view.namedIn(res.phase).map((n) => n.party);
  if (res.errors.size) return `No signature: the session aborted${named.length ? `, naming ${[...new Set(named)].map(nameOf).join(', ')}` : ''}`;
  return `No signature: the session stalled, ${memberList(res.waiting)} still waiting for messages they could accept`;
}

// Long tasks on the page's own thread while an action runs (util.js).
const longTasks = watchLongTasks(() => state.busy);

/** Run an action with the controls locked; the status ends as data-state done or error. */
async function action(name, fn) {
  if (state.busy) return;
  const f = readForm();
  if (f.problem) return;
  clearError();
  state.busy = true;
  longTasks.max = 0;
  longTasks.count = 0;
  refresh();
  setStatus('running', `${name}…`);
  const t0 = performance.now();
  const ticker = setInterval(() => {
    el.elapsed.textContent = `running for ${fmtMs(performance.now() - t0)}`;
  }, 100);
  try {
    const text = await fn(f);
    setStatus('done', `${text} (${fmtMs(performance.now() - t0)})`);
  } catch (err) {
    console.warn('quasar-pq demo (committee):', err);
    showError(err);
    setStatus('error', `${name} failed: ${describeError(err)}`);
    view.failed(err);
  } finally {
    clearInterval(ticker);
    const ms = performance.now() - t0;
    el.elapsed.textContent = `took ${fmtMs(ms)}`;
    el.mainThread.textContent = !longTasks.supported
      ? ''
      : longTasks.count === 0
        ? `Page thread during "${name}" (${fmtMs(ms)}): no task over 50 ms — all protocol work ran in the workers.`
        : `Page thread during "${name}" (${fmtMs(ms)}): ${plural(longTasks.count, 'task')} over 50 ms, the longest ${fmtMs(longTasks.max)}.`;
    state.busy = false;
    refresh();
    document.body.dataset.cmRuns = String(Number(document.body.dataset.cmRuns ?? 0) + 1);
  }
}

async function keyAndSign(f) {
  await generateKey(f);
  return summary(await sign(f));
}

async function signAgain(f) {
  return summary(await sign(f));
}

// ------------------------------------------------------------------------------ wiring

/** A change of N, T, the level or the key generation discards the key (and its shares). */
function keyFieldChanged() {
  if (!state.busy && state.net && !keyMatches(readForm())) dropKey().catch(showError);
  refresh();
}

el.n.addEventListener('input', () => {
  const n = readInt(el.n, MIN_N, MAX_N);
  const t = Number(el.t.value);
  if (n !== null && t > n) el.t.value = String(n);
  keyFieldChanged();
});
el.t.addEventListener('input', () => {
  if (!state.signersTouched) syncSigners(readInt(el.n, MIN_N, MAX_N), readForm().t);
  keyFieldChanged();
});
el.level.addEventListener('change', keyFieldChanged);
el.keygen.addEventListener('change', keyFieldChanged);
el.cheater.addEventListener('change', refresh);
el.cheatKind.addEventListener('change', refresh);
el.run.addEventListener('click', () => action('Key generation and signing', keyAndSign));
el.sign.addEventListener('click', () => action('Signing', signAgain));
refresh();

/** Called once the package is loaded: the tab is ready. `getPool` gives the page's worker pool. */
export function setupCommittee({ lib, getPool }) {
  if (lib.pulsar.committee.maxParties !== MAX_N) throw new Error(`the package allows committees of up to ${lib.pulsar.committee.maxParties}, this tab ${MAX_N}`);
  state.lib = lib;
  state.getPool = getPool;
  el.trust.textContent = lib.trustModels.pulsarCommittee;
  setStatus('idle', 'Ready. Choose the committee and its signers, then generate the key and sign.');
  refresh();
}

/** The page could not start: say so in this tab's status line. */
export function showCommitteeStartFailure(err) {
  setStatus('error', 'The WebAssembly module or the workers did not start.');
  showError(err);
}
