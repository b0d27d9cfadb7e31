// quasar-pq demo, "one signer" tab: ML-DSA keygen / sign / verify / tamper, with timings.
// Runs on the page (each operation takes about a millisecond); the threshold tab uses workers.

import { byteCount as fmtBytes, equalBytes, errorBox, fmtMs, hex as hexPrefix, setStatus } from './util.js';

const $ = (id) => document.getElementById(id);

const el = {
  status: $('ml-status'),
  error: $('ml-error'),
  errorText: $('ml-error-text'),
  errorDismiss: $('ml-error-dismiss'),
  level: $('ml-level'),
  keygen: $('ml-keygen'),
  pkSize: $('ml-pk-size'),
  skSize: $('ml-sk-size'),
  keygenTime: $('ml-keygen-time'),
  pkHex: $('ml-pk-hex'),
  message: $('ml-message'),
  messageBytes: $('ml-message-bytes'),
  context: $('ml-context'),
  contextBytes: $('ml-context-bytes'),
  contextHint: $('ml-context-hint'),
  deterministic: $('ml-deterministic'),
  modeHint: $('ml-mode-hint'),
  sign: $('ml-sign'),
  sigSize: $('ml-sig-size'),
  sigMode: $('ml-sig-mode'),
  signTime: $('ml-sign-time'),
  sigHex: $('ml-sig-hex'),
  verify: $('ml-verify'),
  flip: $('ml-flip'),
  verdict: $('ml-verdict'),
  verdictDetail: $('ml-verdict-detail'),
  verifyTime: $('ml-verify-time'),
  tamper: $('ml-tamper'),
};

const utf8 = new TextEncoder();

/** Demo state. `signed` remembers what was signed so the page can explain an `invalid`. */
const state = {
  lib: null,
  keys: null, // { level, publicKey, secretKey }
  signature: null, // Uint8Array (possibly tampered)
  signed: null, // { message: Uint8Array, context: Uint8Array }
  flips: [], // [{ index, before, after }]
};

function scheme() {
  const name = `mlDsa${el.level.value}`;
  const s = state.lib[name];
  if (!s) throw new Error(`the wrapper does not export ${name}`);
  return s;
}

const { show: showError, clear: clearError } = errorBox({ box: el.error, text: el.errorText, dismiss: el.errorDismiss });

/** Run a button action: clears old errors, shows new ones, never fails silently. */
function action(fn) {
  return async () => {
    clearError();
    try {
      await fn();
    } catch (err) {
      console.warn('quasar-pq demo:', err);
      showError(err);
    }
    refreshButtons();
    // Completed-action counter: lets tests (and curious users) see that a click finished.
    document.body.dataset.actions = String(Number(document.body.dataset.actions ?? 0) + 1);
  };
}

function timed(fn) {
  const t0 = performance.now();
  const value = fn();
  return { value, ms: performance.now() - t0 };
}

function setVerdict(kind, detail = '') {
  setStatus(el.verdict, kind, kind === 'none' ? '—' : kind);
  el.verdictDetail.textContent = detail;
}

function resetSignature() {
  state.signature = null;
  state.signed = null;
  state.flips = [];
  el.sigSize.textContent = '—';
  el.sigMode.textContent = '—';
  el.signTime.textContent = '—';
  el.sigHex.textContent = '—';
  el.verifyTime.textContent = '—';
  el.tamper.textContent = 'none';
  setVerdict('none');
}

function resetKeys() {
  state.keys = null;
  el.pkSize.textContent = '—';
  el.skSize.textContent = '—';
  el.keygenTime.textContent = '—';
  el.pkHex.textContent = '—';
  resetSignature();
}

function refreshButtons() {
  const ready = state.lib !== null;
  el.keygen.disabled = !ready;
  el.sign.disabled = !ready || state.keys === null;
  el.verify.disabled = !ready || state.signature === null;
  el.flip.disabled = !ready || state.signature === null;
}

function updateCounters() {
  el.messageBytes.textContent = utf8.encode(el.message.value).length.toLocaleString('en-US');
  const ctxLen = utf8.encode(el.context.value).length;
  el.contextBytes.textContent = String(ctxLen);
  const tooLong = ctxLen > 255;
  el.contextHint.classList.toggle('over', tooLong);
  el.context.setAttribute('aria-invalid', tooLong ? 'true' : 'false');
}

function updateModeHint() {
  el.modeHint.textContent = el.deterministic.checked
    ? 'Deterministic: the same key and message always give the same signature.'
    : 'Hedged: fresh randomness is mixed in, so each signature differs; all of them verify.';
}

function showSignature() {
  const sig = state.signature;
  el.sigSize.textContent = fmtBytes(sig.length);
  el.sigHex.textContent = hexPrefix(sig);
}

function updateStatus() {
  const { lengths } = scheme();
  el.status.textContent =
    `WebAssembly ready. ML-DSA-${el.level.value}: public key ${fmtBytes(lengths.publicKey)}, ` +
    `secret key ${fmtBytes(lengths.secretKey)}, signature ${fmtBytes(lengths.signature)}.`;
}

// --- actions -------------------------------------------------------------------------------

function doKeygen() {
  const s = scheme();
  const { value: keys, ms } = timed(() => s.keygen());
  resetSignature();
  state.keys = { level: el.level.value, ...keys };
  el.pkSize.textContent = fmtBytes(keys.publicKey.length);
  el.skSize.textContent = fmtBytes(keys.secretKey.length);
  el.keygenTime.textContent = fmtMs(ms);
  el.pkHex.textContent = hexPrefix(keys.publicKey);
}

function doSign() {
  if (!state.keys) throw new Error('generate a key first');
  const s = scheme();
  const message = utf8.encode(el.message.value);
  const context = utf8.encode(el.context.value);
  const deterministic = el.deterministic.checked;
  const opts = deterministic ? { context, extraEntropy: false } : { context };
  resetSignature(); // a failed sign must not leave the previous signature on screen
  const { value: sig, ms } = timed(() => s.sign(message, state.keys.secretKey, opts));
  state.signature = sig;
  state.signed = { message, context };
  showSignature();
  el.sigMode.textContent = deterministic ? 'deterministic' : 'hedged';
  el.signTime.textContent = fmtMs(ms);
}

function doVerify() {
  if (!state.keys || !state.signature) throw new Error('sign a message first');
  const s = scheme();
  const message = utf8.encode(el.message.value);
  const context = utf8.encode(el.context.value);
  const { value: ok, ms } = timed(() => s.verify(state.signature, message, state.keys.publicKey, { context }));
  el.verifyTime.textContent = fmtMs(ms);
  if (ok === true) {
    setVerdict('valid', `signature checks out under this ML-DSA-${state.keys.level} public key`);
    return;
  }
  if (ok !== false) throw new Error(`verify returned ${String(ok)}, expected a boolean`);
  const reasons = [];
  if (state.flips.length) reasons.push(`${state.flips.length === 1 ? 'a byte' : 'bytes'} of the signature flipped`);
  if (!equalBytes(message, state.signed.message)) reasons.push('message edited since signing');
  if (!equalBytes(context, state.signed.context)) reasons.push('context differs from the one signed with');
  setVerdict('invalid', reasons.length ? `expected: ${reasons.join('; ')}` : 'signature does not verify');
}

function doFlip() {
  if (!state.signature) throw new Error('sign a message first');
  const sig = state.signature.slice();
  const rnd = new Uint32Array(2);
  crypto.getRandomValues(rnd);
  const index = rnd[0] % sig.length;
  const mask = (rnd[1] % 255) + 1; // never 0, so the byte always changes
  const before = sig[index];
  sig[index] ^= mask;
  state.signature = sig;
  state.flips.push({ index, before, after: sig[index] });
  showSignature();
  const hx = (b) => `0x${b.toString(16).padStart(2, '0')}`;
  const last = state.flips[state.flips.length - 1];
  el.tamper.textContent =
    `flipped byte ${index.toLocaleString('en-US')} of ${sig.length.toLocaleString('en-US')} ` +
    `(${hx(last.before)} → ${hx(last.after)})` +
    (state.flips.length > 1 ? ` · ${state.flips.length} flips so far` : '');
  setVerdict('none', 'signature changed; verify again');
}

// --- wiring --------------------------------------------------------------------------------

export function setupMlDsa(lib) {
  state.lib = lib;
  updateStatus();
  refreshButtons();
}

el.keygen.addEventListener('click', action(doKeygen));
el.sign.addEventListener('click', action(doSign));
el.verify.addEventListener('click', action(doVerify));
el.flip.addEventListener('click', action(doFlip));
el.level.addEventListener('change', () => {
  clearError();
  resetKeys();
  refreshButtons();
  if (state.lib) updateStatus();
});
el.message.addEventListener('input', updateCounters);
el.context.addEventListener('input', updateCounters);
el.deterministic.addEventListener('change', updateModeHint);
updateCounters();
updateModeHint();
refreshButtons();

