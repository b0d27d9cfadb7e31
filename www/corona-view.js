// The Corona tab's view (www/corona.js runs the actions): the verdict and the sizes, the rounds
// table (messages, bytes per signer, time per round as min / median / max over the signers, and
// where that time goes), the parties table and the blame box. Everything drawn here comes from
// public outcomes and from the router's trace (www/coordinator.js `RoundStats`: who sent how
// many bytes after which of its own rounds, who stepped, finished, waited or failed, and whom a
// step named); nothing looks inside a message.

import { byteCount, describeError as describe, fmtMs, hex, median, setStatus } from './util.js';

const $ = (id) => document.getElementById(id);

const el = {
  verdict: $('co-verdict'),
  verdictDetail: $('co-verdict-detail'),
  status: $('co-status'),
  key: $('co-key'),
  gkSize: $('co-gk-size'),
  kpSize: $('co-kp-size'),
  signedBy: $('co-signed-by'),
  r1Size: $('co-r1-size'),
  r2Size: $('co-r2-size'),
  sigSize: $('co-sig-size'),
  traffic: $('co-traffic'),
  gkHex: $('co-gk-hex'),
  sigHex: $('co-sig-hex'),
  blame: $('co-blame'),
  summary: $('co-summary'),
  rounds: $('co-rounds').tBodies[0],
  parties: $('co-parties').tBodies[0],
};

/** The frames' sizes (README, "Corona"): COR1 614,666 + 36·|T|, COR2 11,048. */
export const cor1Bytes = (k) => 614666 + 36 * k;
export const COR2_BYTES = 11048;

/** A size in decimal units (the README's "~615 KB"): kB = 1,000 bytes, MB = 10⁶. */
function fmtBytes(n) {
  if (n < 1000) return `${n} B`;
  if (n < 1e6) return `${(n / 1000).toFixed(1)} KB`;
  return `${(n / 1e6).toFixed(2)} MB`;
}

/** What each step of a signer computes (the README's benchmark section: where the time goes). */
const WHERE = {
  deal: 'drawing the secret s and its Shamir shares over R_q, the pairwise PRF and MAC keys, and the group key (A and b)',
  load: 'decoding the package against the group key into a CoronaShare in WASM memory; the bytes are wiped',
  r1: 'sampling R′ᵢ and E′ᵢ (constant-time discrete Gaussian, cSHAKE256 streams) and computing Dᵢ = A·R′ᵢ + E′ᵢ; independent of the message',
  r2: 'hashing and checking the other signers’ commitments (K − 1 messages of ~615 KB, their MACs), deriving the challenge, and computing zᵢ masked by the pairwise zero-sum masks',
  combine: 'checking the others’ responses, summing the zᵢ into the signature and verifying it before releasing it',
  verify: 'corona.verify on the page’s main thread, under the 4,654-byte group key',
};

const ROUND_COLUMNS = ['Round', 'Messages', 'Bytes per signer', 'Time (min / median / max)', 'Where the time goes'];
const PARTY_COLUMNS = ['Party', 'Worker', 'Signing', 'Sent', 'Round 1 · 2 · combine', 'Outcome'];

export const nameOf = (k) => `party ${k}`;

/** [1, 2, 4] → "parties 1, 2 and 4"; runs of four or more as ranges: [1, …, 21] → "parties 1–21". */
export function partyList(ids) {
  const s = [...new Set(ids)].sort((a, b) => a - b);
  if (!s.length) return 'nobody';
  if (s.length === 1) return `party ${s[0]}`;
  const parts = [];
  for (let i = 0; i < s.length; i++) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j] + 1) j++;
    if (j - i >= 3) parts.push(`${s[i]}–${s[j]}`);
    else for (let x = i; x <= j; x++) parts.push(String(s[x]));
    i = j;
  }
  return parts.length === 1 ? `parties ${parts[0]}` : `parties ${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}
export const describeError = (err) => describe(err, nameOf);

const cur = {
  net: null,
  parties: [],
  key: null,
  dealer: null, // { ms, sizes, loadMs: [] }
  signing: null, // { phase, signers, cheater, kind, result? }
};

// ------------------------------------------------------------------------------ the trace

const roundsOf = (phase) => (cur.net?.rounds ?? []).filter((s) => s.phase === phase);

/** Every party a step of `phase` named: `{ by, party, code, reason, how }`. */
export function namedIn(phase) {
  return roundsOf(phase).flatMap((s) => s.named);
}

/**
 * Per signer, its step times by what the step ran: r1 (its start), r2 ('respond'), combine;
 * a step that returned `waiting` (it dropped what it got, or still misses a message) is left out.
 */
function stepTimes(phase, started) {
  const out = new Map();
  const of = (k) => out.get(k) ?? out.set(k, {}).get(k);
  for (const [k, ms] of started ?? []) of(k).r1 = ms;
  for (const s of roundsOf(phase)) {
    for (const [k, ms] of s.partyMs) {
      if (s.waited.includes(k)) continue; // a step that only dropped or waited ran no round
      const name = s.names.get(k);
      const o = of(k);
      if (name === 'respond' && o.r2 === undefined) o.r2 = ms;
      else if (name === 'combine' && o.combine === undefined) o.combine = ms;
    }
  }
  return out;
}

/** Messages each signer sent, by the round it had just run ('start' → COR1, 'respond' → COR2). */
function sendsOf(phase) {
  const out = { start: [], respond: [] };
  for (const s of roundsOf(phase)) for (const m of s.sends) (out[m.sentIn] ??= []).push(m);
  return out;
}

const spread = (xs) => {
  const v = xs.filter((x) => x !== undefined);
  if (!v.length) return '—';
  return `${fmtMs(Math.min(...v))} / ${fmtMs(median(v))} / ${fmtMs(Math.max(...v))}`;
};

/** "614,774 bytes each" or the distinct sizes per sender when they differ (a cheater). */
function perSigner(list, expected) {
  if (!list.length) return '—';
  const sizes = new Map();
  for (const m of list) sizes.set(m.from, (sizes.get(m.from) ?? 0) + m.bytes);
  const all = [...sizes.values()];
  if (all.every((b) => b === all[0])) return `${byteCount(all[0])} each${all[0] === expected ? '' : ` (expected ${byteCount(expected)})`}`;
  return [...sizes]
    .sort((a, b) => a[0] - b[0])
    .map(([k, b]) => `${k}: ${byteCount(b)}${b === expected ? '' : ' ⚠'}`)
    .join(' · ');
}

// ------------------------------------------------------------------------------ tables

function cell(tr, text, label, cls) {
  const td = document.createElement('td');
  td.textContent = text;
  td.dataset.label = label;
  if (cls) td.className = cls;
  tr.append(td);
  return td;
}

function emptyRow(body, cols, text) {
  body.textContent = '';
  const tr = document.createElement('tr');
  tr.className = 'empty';
  const td = document.createElement('td');
  td.colSpan = cols;
  td.textContent = text;
  tr.append(td);
  body.append(tr);
}

function renderRounds() {
  const rows = [];
  if (cur.dealer) {
    const sizes = [...cur.dealer.sizes.values()];
    rows.push({ id: 'deal', round: 'Trusted dealer (this page’s main thread) · deal: it knows the whole key while dealing, and keeps nothing', messages: '—', bytes: `group key ${byteCount(4654)}`, time: fmtMs(cur.dealer.ms), where: WHERE.deal });
    rows.push({
      id: 'load',
      round: 'Trusted dealer · one key package to each party (private, moved to its worker), loaded there',
      messages: String(sizes.length),
      bytes: sizes.every((b) => b === sizes[0]) ? `${byteCount(sizes[0])} each` : sizes.map(byteCount).join(' · '),
      time: spread(cur.dealer.loadMs),
      where: WHERE.load,
    });
  }
  const s = cur.signing;
  if (s) {
    const res = s.result;
    const k = s.signers.length;
    const sends = sendsOf(s.phase);
    const times = stepTimes(s.phase, res?.started);
    const t = (what) => spread(s.signers.map((id) => times.get(id)?.[what]));
    rows.push({
      id: 'r1',
      round: `Round 1 · COR1: each signer broadcasts its commitment Dᵢ — about 615 KB per signer, the scheme’s price for two rounds`,
      messages: sends.start.length ? `${sends.start.length} broadcast${sends.start.length === 1 ? '' : 's'} (${sends.start.length * (k - 1)} deliveries)` : res ? '—' : '…',
      bytes: perSigner(sends.start, cor1Bytes(k)),
      time: res ? t('r1') : '…',
      where: WHERE.r1,
    });
    const r2Ran = roundsOf(s.phase).some((x) => [...x.names.values()].includes('respond'));
    if (r2Ran || sends.respond.length) {
      rows.push({
        id: 'r2',
        round: 'Round 2 · COR2: each signer broadcasts its response zᵢ (with the challenge it derived)',
        messages: sends.respond.length ? `${sends.respond.length} broadcast${sends.respond.length === 1 ? '' : 's'}` : 'none',
        bytes: perSigner(sends.respond, COR2_BYTES),
        time: t('r2'),
        where: WHERE.r2,
      });
    }
    const combined = s.signers.some((id) => times.get(id)?.combine !== undefined);
    if (combined) {
      const fin = roundsOf(s.phase).flatMap((x) => x.finished);
      rows.push({
        id: 'combine',
        round: fin.length ? `Combine: ${partyList(fin)} each combined and verified the signature` : 'Combine: each signer combined the signature and checked it',
        messages: '—',
        bytes: '—',
        time: t('combine'),
        where: WHERE.combine,
      });
    }
    for (const x of roundsOf(s.phase)) {
      for (const [id, e] of x.errors) {
        const naming = e.culprits?.length ? `, naming ${partyList(e.culprits)}` : e.code === 'UNATTRIBUTABLE_ABORT' ? ' — nobody can be named' : '';
        rows.push({ id: 'error', round: `${x.names.get(id) ?? x.name}: ${nameOf(id)} stopped with ${e.code ?? e.name}${naming}`, messages: '—', bytes: '—', time: fmtMs(x.partyMs.get(id)), where: '', bad: true });
      }
    }
    if (res?.waiting.length) {
      const last = roundsOf(s.phase).at(-1);
      const at = new Map();
      for (const id of res.waiting) {
        const name = last?.names.get(id) ?? '?';
        at.set(name, [...(at.get(name) ?? []), id]);
      }
      const where = [...at].map(([name, ids]) => `${partyList(ids)} waiting to run “${name}”`).join('; ');
      rows.push({ id: 'stalled', round: `Stalled, nothing left in flight — the session cannot finish: ${where}`, messages: '—', bytes: '—', time: '—', where: '', bad: true });
    }
    if (res?.verdict) rows.push({ id: 'verify', round: 'The page verifies: corona.verify under the group key', messages: '—', bytes: `signature ${byteCount(res.signature.length)}`, time: fmtMs(res.verdict.ms), where: WHERE.verify });
  }
  if (!rows.length) {
    emptyRow(el.rounds, 5, 'Deal a key to fill this table.');
    return;
  }
  el.rounds.textContent = '';
  for (const r of rows) {
    const tr = document.createElement('tr');
    tr.dataset.round = r.id;
    if (r.bad) tr.className = 'bad';
    [r.round, r.messages, r.bytes, r.time, r.where].forEach((v, i) => cell(tr, v, ROUND_COLUMNS[i], i === 2 ? 'per' : undefined));
    el.rounds.append(tr);
  }
}

/** What a party ended with, in words (and a data-outcome for tests). */
function partyOutcome(id) {
  const s = cur.signing;
  if (!s || !s.signers.includes(id)) return { text: cur.key ? 'holds its share' : 'loading…', state: cur.key ? 'share' : '' };
  const res = s.result;
  if (!res) return { text: 'signing…', state: 'running' };
  const named = namedIn(s.phase).filter((n) => n.party === id);
  if (res.outcomes.has(id)) return { text: `signed and verified (${byteCount(res.outcomes.get(id).signature.length)})`, state: 'signed' };
  if (res.errors.has(id)) {
    const e = res.errors.get(id);
    const how = e.culprits?.length ? `, naming ${e.culprits.map(nameOf).join(', ')}` : e.code === 'UNATTRIBUTABLE_ABORT' ? ': nobody can be named' : '';
    return { text: `stopped: ${e.code ?? e.name}${how}`, state: 'stopped' };
  }
  const at = roundsOf(s.phase).at(-1)?.names.get(id);
  const by = named.length ? `; named by ${partyList(new Set(named.map((n) => n.by)))} (${[...new Set(named.map((n) => n.code))].join(', ')})` : '';
  return { text: `${res.waiting.includes(id) ? `waiting${at ? ` to run “${at}”` : ''}` : 'no outcome'}${by}`, state: named.length ? 'named' : 'waiting' };
}

function renderParties() {
  if (!cur.parties.length) {
    emptyRow(el.parties, 6, 'Deal a key to fill this table.');
    return;
  }
  const s = cur.signing;
  const sent = new Map();
  if (s) {
    for (const x of roundsOf(s.phase)) {
      for (const m of x.sends) {
        const o = sent.get(m.from) ?? { messages: 0, bytes: 0 };
        o.messages += 1;
        o.bytes += m.bytes;
        sent.set(m.from, o);
      }
    }
  }
  const times = s ? stepTimes(s.phase, s.result?.started) : new Map();
  el.parties.textContent = '';
  for (const id of cur.parties) {
    const tr = document.createElement('tr');
    tr.dataset.party = String(id);
    const signer = !!s && s.signers.includes(id);
    const out = partyOutcome(id);
    tr.dataset.outcome = out.state;
    const role = !s ? '—' : !signer ? 'not signing' : s.cheater === id ? `signer ⚠ cheats (${s.kind})` : 'signer';
    const sentText = signer && sent.has(id) ? `${sent.get(id).messages} broadcast${sent.get(id).messages === 1 ? '' : 's'}, ${fmtBytes(sent.get(id).bytes)}` : '—';
    const tm = times.get(id);
    const timeText = signer && tm ? [tm.r1, tm.r2, tm.combine].map((x) => (x === undefined ? '—' : fmtMs(x))).join(' · ') : '—';
    const values = [`${nameOf(id)}${s?.cheater === id ? ' ⚠' : ''}`, `w${cur.net.workerOf(id)}`, role, sentText, timeText, out.text];
    values.forEach((v, i) => cell(tr, v, PARTY_COLUMNS[i], i === 5 && (out.state === 'stopped' || out.state === 'named') ? 'bad' : undefined));
    if (s?.cheater === id) tr.dataset.cheater = '1';
    el.parties.append(tr);
  }
  const parts = [`${cur.parties.length} parties`];
  if (cur.key) parts.unshift(`${cur.key.threshold} of ${cur.key.parties}, trusted dealer`);
  if (s) parts.push(`signing: ${partyList(s.signers)} (K = ${s.signers.length})`);
  el.summary.textContent = parts.join(' · ');
}

// ------------------------------------------------------------------------------ verdict, blame

function resetResult() {
  setStatus(el.verdict, 'none', '—');
  el.verdictDetail.textContent = '';
  for (const d of [el.signedBy, el.r1Size, el.r2Size, el.sigSize, el.traffic, el.sigHex]) d.textContent = '—';
  delete el.r1Size.dataset.bytes;
  el.blame.dataset.state = 'none';
  el.blame.removeAttribute('data-party');
  el.blame.removeAttribute('data-code');
  el.blame.textContent = 'No party has been named.';
}

const cap = (t) => t.charAt(0).toUpperCase() + t.slice(1);

function para(text, strong) {
  const p = document.createElement('p');
  p.style.margin = '0 0 0.4rem';
  if (strong) {
    const b = document.createElement('strong');
    b.textContent = strong;
    p.append(b, ' ');
  }
  p.append(text);
  return p;
}

/** The blame box: UNATTRIBUTABLE_ABORT (nobody named), or every party a signer named. */
function renderBlame(res) {
  el.blame.textContent = '';
  const codes = [...new Set([...res.errors.values()].map((e) => e.code).filter(Boolean))];
  const named = namedIn(res.phase);
  if (codes.includes('UNATTRIBUTABLE_ABORT') && !named.length) {
    const who = [...res.errors].filter(([, e]) => e.code === 'UNATTRIBUTABLE_ABORT').map(([id]) => id);
    el.blame.dataset.state = 'unattributable';
    el.blame.dataset.code = 'UNATTRIBUTABLE_ABORT';
    el.blame.append(
      para(`${cap(partyList(who))} ended with UNATTRIBUTABLE_ABORT.`, 'Nobody can be named.'),
      para(
        `The combined signature did not verify, so no signer released it. Every response was well formed, and the scheme has no ` +
          `per-party verification equation (a per-party public key A·sᵢ would reveal s), so no signer can tell which response was wrong` +
          `${res.cheater !== null ? ` — it was party ${res.cheater}'s (set to cheat), but nothing in the messages shows it` : ''}. ` +
          'Nothing was signed; an invalid signature is never returned.',
      ),
    );
    return;
  }
  if (!named.length) {
    el.blame.dataset.state = res.signature ? 'none' : 'failed';
    el.blame.textContent = res.signature
      ? res.cheater === null
        ? 'No party has been named.'
        : `Party ${res.cheater} was set to cheat, yet nobody was named.`
      : 'Nobody was named, and nothing was signed.';
    return;
  }
  const byParty = new Map();
  for (const n of named) {
    const b = byParty.get(n.party) ?? { by: new Set(), codes: new Set(), reasons: new Set() };
    b.by.add(n.by);
    if (n.code) b.codes.add(n.code);
    if (n.reason) b.reasons.add(n.reason);
    byParty.set(n.party, b);
  }
  el.blame.dataset.state = 'blamed';
  el.blame.dataset.party = [...byParty.keys()].join(',');
  el.blame.dataset.code = [...new Set(named.map((n) => n.code).filter(Boolean))].join(',');
  const ul = document.createElement('ul');
  for (const [party, b] of byParty) {
    const li = document.createElement('li');
    const code = document.createElement('code');
    code.textContent = [...b.codes].join(', ') || 'no code';
    li.append(`${nameOf(party)}, named by ${partyList(b.by)}: `, code, ` — ${[...b.reasons].join('; ')}`);
    if (party === res.cheater) li.append(` (it was set to cheat: ${res.kind}).`);
    ul.append(li);
  }
  const after = res.signature
    ? 'The session still ended with a signature.'
    : res.waiting.length
      ? `The session cannot finish: the honest signers dropped the malformed messages and kept waiting for valid ones, which never come; ` +
        `the scheme is not robust (every signer must answer), so it stalled with nothing signed, ${partyList(res.waiting)} still waiting. ` +
        'A host would give up on a timeout.'
      : 'Nothing was signed.';
  el.blame.append(para('', `Named: ${[...byParty.keys()].map(nameOf).join(', ')}.`), ul, para(after));
}

// ------------------------------------------------------------------------------ the view the actions report into

export const view = {
  namedIn,

  clearKey() {
    cur.net = null;
    cur.parties = [];
    cur.key = null;
    cur.dealer = null;
    cur.signing = null;
    for (const d of [el.key, el.gkSize, el.kpSize, el.gkHex]) d.textContent = '—';
    el.summary.textContent = '—';
    resetResult();
    renderParties();
    renderRounds();
  },

  startKey({ net, parties }) {
    cur.net = net;
    cur.parties = parties;
    cur.key = null;
    cur.dealer = null;
    cur.signing = null;
    el.key.textContent = 'trusted dealer: dealing…';
    resetResult();
    renderParties();
    renderRounds();
  },

  dealt({ ms, sizes, loadMs, key }) {
    cur.dealer = { ms, sizes, loadMs };
    cur.key = key;
    el.key.textContent = `${key.threshold} of ${key.parties}, trusted dealer (this page): it knew the whole key while dealing and kept nothing`;
    el.gkSize.textContent = byteCount(key.groupKey.length);
    el.kpSize.textContent = byteCount(key.packageBytes);
    el.gkHex.textContent = hex(key.groupKey);
    renderParties();
    renderRounds();
  },

  startSigning({ phase, signers, cheater, kind }) {
    cur.signing = { phase, signers, cheater, kind, result: null };
    resetResult();
    setStatus(el.verdict, 'running', 'signing…');
    renderParties();
    renderRounds();
  },

  roundStart(r) {
    setStatus(el.status, 'running', `${r.phase}: ${r.round} (${r.total} signer${r.total === 1 ? '' : 's'})…`);
  },

  roundEnd() {
    renderRounds();
    renderParties();
  },

  verifying() {
    setStatus(el.verdict, 'running', 'verifying…');
  },

  signed(res) {
    cur.signing.result = res;
    const k = res.signers.length;
    el.signedBy.textContent = `${partyList(res.signers)} (K = ${k})`;
    const sends = sendsOf(res.phase);
    const r1 = sends.start.filter((m) => m.from !== res.cheater);
    const r1Bytes = r1.length ? r1[0].bytes : cor1Bytes(k);
    el.r1Size.textContent = `${byteCount(r1Bytes)} (~${Math.round(r1Bytes / 1000)} KB: 614,666 + 36·K) — the scheme’s price for two rounds`;
    el.r1Size.dataset.bytes = String(r1Bytes);
    const r2 = sends.respond.filter((m) => m.from !== res.cheater);
    el.r2Size.textContent = r2.length ? byteCount(r2[0].bytes) : `${byteCount(COR2_BYTES)} (none sent)`;
    const total = [...sends.start, ...sends.respond].reduce((a, m) => a + m.bytes * m.to.length, 0);
    el.traffic.textContent = `${fmtBytes(total)} delivered (each broadcast to K − 1 = ${k - 1})`;
    if (res.signature) {
      el.sigSize.textContent = byteCount(res.signature.length);
      el.sigHex.textContent = hex(res.signature);
      const v = res.verdict;
      setStatus(el.verdict, v.ok ? 'valid' : 'invalid', v.ok ? 'valid' : 'invalid');
      el.verdictDetail.textContent =
        `corona.verify (${fmtMs(v.ms)}, on this page) under the ${byteCount(cur.key.groupKey.length)} group key. Every signer combined ` +
        `this same signature and verified it itself before releasing it; none of them held the key.`;
    } else {
      setStatus(el.verdict, 'nosig', 'no signature');
      el.verdictDetail.textContent = res.errors.size
        ? 'The session aborted before any signature was released, so there was nothing to verify.'
        : `The session stalled and cannot finish: ${partyList(res.waiting)} still waited for messages they could accept, so no signature was combined.`;
    }
    renderBlame(res);
    renderParties();
    renderRounds();
  },

  failed(err) {
    if (el.verdict.dataset.state === 'running') setStatus(el.verdict, 'failed', 'failed');
    if (!el.verdictDetail.textContent) el.verdictDetail.textContent = describeError(err);
    renderParties();
    renderRounds();
  },
};
