// Small helpers the demo's tabs share (formatting, bytes, status lines, error boxes). The one
// place for them: a tab imports these rather than restating them. No protocol logic.

/** Lower-case hex of the first `n` bytes, with "…" when cut. */
export function hex(bytes, n = 32) {
  let s = '';
  for (let i = 0; i < Math.min(n, bytes.length); i++) s += bytes[i].toString(16).padStart(2, '0');
  return bytes.length > n ? `${s}…` : s;
}

/** A duration for people: µs, ms or s. */
export function fmtMs(ms) {
  if (ms === undefined || ms === null || Number.isNaN(ms)) return '—';
  if (ms < 1) return `${(ms * 1000).toFixed(0)} µs`;
  if (ms < 100) return `${ms.toFixed(1)} ms`;
  if (ms < 10_000) return `${ms.toFixed(0)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A size for people: B, KB or MB. */
export function fmtBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(2)} MB`;
}

/** An exact size for people: "1,312 bytes". */
export function byteCount(n) {
  return `${n.toLocaleString('en-US')} bytes`;
}

/** [1,2,3,5,7,8] → "P1–P3, P5, P7, P8" */
export function ranges(ids) {
  const s = [...ids].sort((a, b) => a - b);
  const out = [];
  for (let i = 0; i < s.length; i++) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j] + 1) j++;
    out.push(j - i >= 2 ? `P${s[i]}–P${s[j]}` : j === i ? `P${s[i]}` : `P${s[i]}, P${s[j]}`);
    i = j;
  }
  return out.join(', ');
}

export function median(xs) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

export function equalBytes(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** 32 fresh random bytes (a session id). */
export function randomSession() {
  return crypto.getRandomValues(new Uint8Array(32));
}

/** One line for an error: name [code]: message (named: …). */
export function describeError(err, nameOf = (k) => `party ${k}`) {
  if (err && typeof err === 'object') {
    const name = err.name && err.name !== 'Error' ? err.name : '';
    const code = err.code ? ` [${err.code}]` : '';
    const msg = err.message || String(err);
    const culprits = err.culprits?.length ? ` (named: ${err.culprits.map(nameOf).join(', ')})` : '';
    return `${name}${code}${name || code ? ': ' : ''}${msg}${culprits}`;
  }
  return String(err);
}

/** A serialisable description of an error (a QuasarError keeps its code, module, culprits, blame). */
export function errorInfo(err, party) {
  if (err && typeof err === 'object') {
    return {
      name: err.name ?? 'Error',
      code: err.code,
      module: err.module,
      message: err.message ?? String(err),
      culprits: Array.isArray(err.culprits) ? [...err.culprits] : [],
      blame: Array.isArray(err.blame) ? err.blame : [],
      party,
      stack: err.stack,
    };
  }
  return { name: 'Error', message: String(err), culprits: [], blame: [], party };
}

/** Set a status line or verdict element: its `data-state` (styled and read by tests) and text. */
export function setStatus(out, state, text) {
  out.dataset.state = state;
  out.textContent = text;
}

/**
 * A tab's error box (`box` holding `text`, closed by `dismiss`): `show(err)` writes one line
 * for the error (parties named by `nameOf`) and opens it; `clear()` closes it.
 */
export function errorBox({ box, text, dismiss }, nameOf) {
  const clear = () => {
    box.hidden = true;
    text.textContent = '';
  };
  dismiss?.addEventListener('click', clear);
  return {
    show(err) {
      text.textContent = describeError(err, nameOf);
      box.hidden = false;
    },
    clear,
  };
}

/**
 * Long tasks on the page's own thread while `busy()` is true: the evidence that the work is in
 * the workers (the browser reports every main-thread task longer than 50 ms). Returns the live
 * tally `{ max, count, supported }`; the caller resets `max` and `count` before each action.
 */
export function watchLongTasks(busy) {
  const tally = { max: 0, count: 0, supported: false };
  try {
    new PerformanceObserver((list) => {
      if (!busy()) return;
      for (const e of list.getEntries()) {
        tally.max = Math.max(tally.max, e.duration);
        tally.count += 1;
      }
    }).observe({ type: 'longtask', buffered: false });
    tally.supported = true;
  } catch {
    // Not every browser has the Long Tasks API.
  }
  return tally;
}
