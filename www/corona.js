// The Corona tab: a trusted dealer — this page's main thread, `corona.deal` — deals a t-of-n
// key (2 ≤ t ≤ n ≤ 21) and keeps nothing; each of the n parties is an entity of the shared
// worker pool (www/party-worker.js) and loads only its own key package (`corona-load`: the
// package is moved to its worker, decoded into a `CoronaShare` in WASM memory, and wiped).
// Then the K ticked signers (t ≤ K ≤ n) sign in two rounds of broadcasts (`corona.signer`:
// COR1, about 615 KB each, then COR2, 11,048 bytes), every signer combining and verifying the
// signature itself, and the page checks it with `corona.verify` under the group key.
//
// The page runs no round: it starts each signer with public parameters (`share: true` stands
// for the entity's own share), routes its bytes (www/coordinator.js, in the tab's own scope of
// the workers) and reads back public outcomes. A cheating signer runs the library's
// misbehaviour hook (`cheat`, the demo build only). The view is www/corona-view.js.
//
// ?seed=<text> (as on the other tabs) makes runs reproducible: the dealer's seed, every
// session id and signer seed are then derived from it (SHA-256).

import { Network } from './coordinator.js';
import { equalBytes, errorBox, fmtMs, plural, randomSession, setStatus as setLine, watchLongTasks } from './util.js';
import { describeError, nameOf, partyList, view } from './corona-view.js';

const $ = (id) => document.getElementById(id);
const utf8 = new TextEncoder();

/** The workers' namespace for this tab's entities (www/party-worker.js). */
const SCOPE = 'corona';
const MIN_N = 2;
const MAX_N = 21;

const el = {
  status: $('co-status'),
  error: $('co-error'),
  errorText: $('co-error-text'),
  errorDismiss: $('co-error-dismiss'),
  n: $('co-n'),
  t: $('co-t'),
  signers: $('co-signers'),
  signersCount: $('co-signers-count'),
  message: $('co-message'),
  context: $('co-context'),
  cheater: $('co-cheater'),
  cheatKind: $('co-cheat-kind'),
  hint: $('co-hint'),
  run: $('co-run'),
  sign: $('co-sign'),
  elapsed: $('co-elapsed'),
  mainThread: $('co-main-thread'),
  trust: $('co-trust'),
};

const state = {
  lib: null, // the demo build (set once the page loaded it: the tab is ready)
  getPool: null,
  busy: false,
  signersTouched: false, // the ticks follow t until the user ticks one
  net: null, // { net, pool }: the parties' network, from the last deal on
  key: null, // { pool, net, threshold, parties, groupKey, packageBytes, signings }
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

/** The form as it stands: `{ n, t, signers, cheater, kind, message, context, problem }`. */
function readForm() {
  const n = readInt(el.n, MIN_N, MAX_N);
  const t = n === null ? readInt(el.t, MIN_N, MAX_N) : readInt(el.t, MIN_N, n);
  const signers = [...el.signers.querySelectorAll('input:checked')].map((c) => Number(c.value));
  const cheater = el.cheater.value === '' ? null : Number(el.cheater.value);
  const context = utf8.encode(el.context.value);
  const form = { n, t, signers, cheater, kind: el.cheatKind.value, message: utf8.encode(el.message.value), context };
  if (n === null) form.problem = `n must be a whole number from ${MIN_N} to ${MAX_N}.`;
  else if (t === null) form.problem = `t must be a whole number from ${MIN_N} to n = ${n}.`;
  else if (signers.length < t) form.problem = `Tick at least t = ${t} signers (${signers.length} ticked): any t to n of the parties sign.`;
  else if (context.length > 255) form.problem = `The context is ${context.length} bytes; at most 255.`;
  return form;
}

/** The signer ticks for parties 1..n: kept as ticked, or the first t while untouched. */
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
      box.name = 'co-signer';
      box.addEventListener('change', () => {
        state.signersTouched = true;
        refresh();
      });
      const span = document.createElement('span');
      span.textContent = nameOf(id);
      label.append(box, span);
      el.signers.append(label);
    }
  }
  [...el.signers.querySelectorAll('input')].forEach((b, i) => {
    b.checked = state.signersTouched ? ticked.has(i + 1) : t !== null && i < t;
  });
}

/** The cheater's choices: nobody, or one of the ticked signers. */
function syncCheater(signers) {
  const keep = el.cheater.value;
  el.cheater.length = 1;
  for (const id of signers) el.cheater.add(new Option(nameOf(id), String(id)));
  el.cheater.value = signers.map(String).includes(keep) ? keep : '';
  el.cheatKind.disabled = state.busy || el.cheater.value === '';
}

/** Whether the dealt key is the one the form describes (n, t). */
function keyMatches(f) {
  const k = state.key;
  return !!k && k.parties === f.n && k.threshold === f.t;
}

function refresh() {
  const n = readInt(el.n, MIN_N, MAX_N);
  el.t.max = String(n ?? MAX_N);
  let f = readForm();
  syncSigners(n, f.t);
  f = readForm();
  syncCheater(f.signers);
  f = readForm();
  el.signersCount.textContent = f.t === null ? '(tick t to n)' : `(tick t = ${f.t} to n = ${f.n ?? '?'}; K = ${f.signers.length} ticked)`;
  const ready = state.lib !== null && !state.busy;
  el.run.disabled = !ready || !!f.problem;
  el.sign.disabled = !ready || !!f.problem || !keyMatches(f);
  for (const c of [el.n, el.t, el.message, el.context, el.cheater, ...el.signers.querySelectorAll('input')]) c.disabled = state.busy;
  const parts = [];
  if (f.problem) parts.push(f.problem);
  else {
    const k = f.signers.length;
    parts.push(
      `${k} of the ${f.n} parties sign a ${f.t}-of-${f.n} key: each broadcasts ${(614666 + 36 * k).toLocaleString('en-US')} bytes in round 1 ` +
        `(about 615 KB: the scheme's price for two rounds) and 11,048 in round 2; every one of them must answer.`,
    );
    if (f.cheater !== null) {
      parts.push(
        f.kind === 'garbage'
          ? `Party ${f.cheater} sends garbage: it will be named (MALFORMED_MESSAGE), and the session cannot finish.`
          : `Party ${f.cheater} sends a wrong response: the session ends with UNATTRIBUTABLE_ABORT, and nobody can be named.`,
      );
    }
    if (state.key && !keyMatches(f)) parts.push('The form no longer matches the dealt key: deal a new one.');
    if (k > 12) parts.push(`Heavy: ${k} signers move ${((k * (k - 1) * 615) / 1024).toFixed(0)} MB of round-1 messages through this page — seconds here.`);
  }
  if (state.seed !== null) parts.push(`Reproducible: the dealer's seed, session ids and signer seeds derived from the seed "${state.seed}" of the URL.`);
  el.hint.textContent = parts.join(' ');
  el.hint.classList.toggle('over', !!f.problem);
}

// ------------------------------------------------------------------------------ randomness

/** 32 bytes for `what`: fresh, or derived from the URL's seed (reproducible). */
async function bytes(what) {
  if (state.seed === null) return randomSession();
  const text = utf8.encode(`quasar-pq demo corona\0${state.seed}\0${what}`);
  return new Uint8Array(await crypto.subtle.digest('SHA-256', text));
}

/** A session id and each signer's seed (undefined: the factory draws one). */
async function draw(keys) {
  const n = ++state.draws;
  const session = await bytes(`session ${n}`);
  const seeds = new Map();
  if (state.seed !== null) for (const k of keys) seeds.set(k, await bytes(`session ${n} party ${k}`));
  return { session, seed: (k) => seeds.get(k) };
}

const withSeed = (params, seed) => (seed === undefined ? params : { ...params, seed });

// ------------------------------------------------------------------------------ the actions

/** A failure a party reported, with its code and culprits. */
function failure(info, context) {
  const e = new Error(`${context}: ${info.message}`);
  e.name = info.name && info.name !== 'Error' ? info.name : 'ProtocolError';
  e.code = info.code;
  e.culprits = info.culprits ?? [];
  return e;
}

/** Forget the key: the parties (and their shares) leave the workers. */
async function dropKey() {
  const old = state.net;
  state.key = null;
  state.net = null;
  view.clearKey();
  if (old && old.pool === (await state.getPool())) await old.net.drop([...old.net.placement.keys()]).catch(() => {});
}

/** Yield to the event loop (a paint, input) between pieces of main-thread work. */
const breathe = () => new Promise((r) => setTimeout(r, 0));

/**
 * The trusted dealer: this page's main thread deals the key (it knows it while it deals; the
 * library keeps nothing), then moves each key package to its party's worker, which loads it.
 */
async function deal(f) {
  await dropKey();
  const pool = await state.getPool();
  const parties = Array.from({ length: f.n }, (_, i) => i + 1);
  const net = new Network(pool, { scope: SCOPE, onRoundStart: (r) => view.roundStart(r), onRoundEnd: () => view.roundEnd() });
  net.spawn(parties.map((key) => ({ key, role: 'party' })));
  state.net = { net, pool };
  view.startKey({ net, parties });
  const seed = state.seed === null ? undefined : await bytes(`dealer ${++state.draws}`);
  await breathe();
  const t0 = performance.now();
  const dealt = state.lib.corona.deal(seed === undefined ? { threshold: f.t, parties: f.n } : { threshold: f.t, parties: f.n, seed });
  const dealMs = performance.now() - t0;
  await breathe();
  const sizes = new Map(dealt.shares.map((s) => [s.id, s.keyPackage.length]));
  // Each package is moved (transferred), not copied: the page keeps no byte of it.
  const loads = await Promise.all(
    dealt.shares.map((s) => pool.call(net.workerOf(s.id), { op: 'corona-load', scope: SCOPE, key: s.id, keyPackage: s.keyPackage, groupKey: dealt.groupKey }, [s.keyPackage.buffer])),
  );
  for (const [i, l] of loads.entries()) {
    if (l.share.id !== dealt.shares[i].id || l.share.threshold !== f.t || l.share.parties !== f.n) throw new Error(`${nameOf(dealt.shares[i].id)} loaded a share of another key`);
  }
  state.key = { pool, net, threshold: dealt.threshold, parties: dealt.parties, groupKey: dealt.groupKey, packageBytes: sizes.get(1), signings: 0 };
  view.dealt({ ms: dealMs, sizes, loadMs: loads.map((l) => l.ms), key: state.key });
}

/** One signing session of the ticked signers; the page's verdict with `corona.verify`. */
async function sign(f) {
  const key = state.key;
  if (key.pool !== (await state.getPool())) {
    await dropKey();
    throw new Error('the worker pool was restarted (from the threshold tab), and the parties and their shares with it: deal a new key');
  }
  key.signings += 1;
  const phase = `Signing ${key.signings}`;
  key.net.clearInboxes();
  const { signers, cheater, kind, message, context } = f;
  view.startSigning({ phase, signers, cheater, kind });
  const { session, seed } = await draw(signers);
  const common = { share: true, session, signers, message, context };
  const r = await key.net.run({
    phase,
    parties: signers.map((id) => ({ key: id, factory: 'corona.signer', params: withSeed(id === cheater ? { ...common, cheat: kind } : common, seed(id)) })),
    label: `signers: ${partyList(signers)}`,
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
    await breathe();
    const t0 = performance.now();
    const ok = state.lib.corona.verify(key.groupKey, message, context, signature);
    verdict = { ok, ms: performance.now() - t0 };
  }
  const result = { phase, signers, cheater, kind, outcomes: r.outcomes, errors: r.errors, waiting: r.waiting, started: r.started, signature, verdict };
  view.signed(result);
  if (signature && !verdict.ok) throw new Error('corona.verify rejected the signature under the group key');
  if (!signature && cheater === null) {
    const [id, e] = [...r.errors][0] ?? [];
    throw e ? failure(e, `signing (${nameOf(id)})`) : new Error(`signing stalled: ${partyList(r.waiting)} still waiting`);
  }
  return result;
}

/** The status line's summary of a signing session. */
function summary(res) {
  if (res.signature) return `Signed by ${partyList(res.signers)} in two rounds; corona.verify: ${res.verdict.ok ? 'valid' : 'INVALID'}`;
  const codes = [...new Set([...res.errors.values()].map((e) => e.code))];
  if (codes.includes('UNATTRIBUTABLE_ABORT')) return 'No signature: every signer ended with UNATTRIBUTABLE_ABORT — nobody can be named';
  const named = [...new Set(view.namedIn(res.phase).map((n) => n.party))];
  if (res.errors.size) return `No signature: the session aborted${named.length ? `, naming ${partyList(named)}` : ''}`;
  return `No signature: ${named.length ? `${partyList(named)} named (MALFORMED_MESSAGE); ` : ''}the session stalled and cannot finish, ${partyList(res.waiting)} still waiting`;
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
    console.warn('quasar-pq demo (corona):', err);
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
        ? `Page thread during "${name}" (${fmtMs(ms)}): no task over 50 ms — the dealer and the verifier ran here, the signers in the workers.`
        : `Page thread during "${name}" (${fmtMs(ms)}): ${plural(longTasks.count, 'task')} over 50 ms, the longest ${fmtMs(longTasks.max)}.`;
    state.busy = false;
    refresh();
    document.body.dataset.coRuns = String(Number(document.body.dataset.coRuns ?? 0) + 1);
  }
}

async function dealAndSign(f) {
  await deal(f);
  return summary(await sign(f));
}

async function signAgain(f) {
  return summary(await sign(f));
}

// ------------------------------------------------------------------------------ wiring

/** A change of n or t discards the key (and its shares). */
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
for (const c of [el.cheater, el.cheatKind, el.context]) c.addEventListener(c === el.context ? 'input' : 'change', refresh);
el.run.addEventListener('click', () => action('Dealing and signing', dealAndSign));
el.sign.addEventListener('click', () => action('Signing', signAgain));
refresh();

/** Called once the package is loaded: the tab is ready. `getPool` gives the page's worker pool. */
export function setupCorona({ lib, getPool }) {
  if (lib.corona.maxSigners < MAX_N) throw new Error(`the package allows ${lib.corona.maxSigners} Corona signers, this tab ${MAX_N}`);
  state.lib = lib;
  state.getPool = getPool;
  el.trust.textContent = lib.trustModels.corona;
  setStatus('idle', 'Ready. Choose t, n and the signers, then deal the key and sign.');
  refresh();
}

/** The page could not start: say so in this tab's status line. */
export function showCoronaStartFailure(err) {
  setStatus('error', 'The WebAssembly module or the workers did not start.');
  showError(err);
}
