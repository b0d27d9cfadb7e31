// The Pulsar committee tab's view (www/committee.js runs the actions): the verdict and the
// key's facts, the members table, the rounds table and the blame box. Everything drawn here
// comes from public outcomes and from the router's trace (www/coordinator.js `RoundStats`:
// who sent how many bytes in which of its own rounds, who stepped, finished, waited or failed,
// and whom a step named); nothing looks inside a message.

import { byteCount, describeError as describe, fmtBytes, fmtMs, hex, plural, setStatus } from './util.js';

const $ = (id) => document.getElementById(id);

const el = {
  status: $('cm-status'),
  verdict: $('cm-verdict'),
  verdictDetail: $('cm-verdict-detail'),
  keyMode: $('cm-key-mode'),
  pkSize: $('cm-pk-size'),
  slots: $('cm-slots'),
  runs: $('cm-runs'),
  signedBy: $('cm-signed-by'),
  sigSize: $('cm-sig-size'),
  pkHex: $('cm-pk-hex'),
  sigHex: $('cm-sig-hex'),
  blame: $('cm-blame'),
  summary: $('cm-summary'),
  members: $('cm-members').tBodies[0],
  rounds: $('cm-rounds').tBodies[0],
};

/** What each message round carries, by the round its senders had just run (their own names). */
const CARRIES = {
  keygen: {
    start: 'commitments (PQD1, broadcast) and the subset seeds (PQD2, private, to the subset’s other members)',
    publish: 'published parts tᵢ (PQD3, broadcast)',
    confirm: 'confirmations of the public key (PQD4, broadcast)',
  },
  sign: {
    start: 'commit: a 32-byte commitment to the reveal (PQC1)',
    combine: 'commit: a 32-byte commitment to the reveal (PQC1)',
    reveal: 'reveal: the K masked vectors w (PQC2)',
    respond: 'respond: per slot a response z, or “rejected” (PQC3)',
  },
};

const MEMBER_COLUMNS = ['Member', 'Worker', 'Share', 'Signing', 'Sent', 'Rejected slots', 'Outcome'];
const ROUND_COLUMNS = ['Round', 'Messages', 'Bytes per sender (member: bytes)', 'Time'];

export const nameOf = (k) => `member ${k}`;

/** [1, 2, 4] → "members 1, 2 and 4". */
export function memberList(ids) {
  const s = [...ids].sort((a, b) => a - b);
  if (!s.length) return 'nobody';
  if (s.length === 1) return `member ${s[0]}`;
  return `members ${s.slice(0, -1).join(', ')} and ${s.at(-1)}`;
}
export const describeError = (err) => describe(err, nameOf);

const cur = {
  net: null,
  members: [],
  mode: 'dkg',
  key: null,
  dealer: null, // { ms, sizes, loadMs }
  signing: null, // { phase, signers, cheater, kind, result? }
};

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

/** The rounds of one phase of the router's trace. */
const roundsOf = (phase) => (cur.net?.rounds ?? []).filter((s) => s.phase === phase);

/** Bytes each member sent in `phase`, by the router's count (each message once). */
function sentIn(phase) {
  const out = new Map();
  for (const s of roundsOf(phase)) {
    for (const m of s.sends) {
      const o = out.get(m.from) ?? { messages: 0, bytes: 0 };
      o.messages += 1;
      o.bytes += m.bytes;
      out.set(m.from, o);
    }
  }
  return out;
}

/** Every party a step of `phase` named: `{ by, party, code, reason, how }`. */
export function namedIn(phase) {
  return roundsOf(phase).flatMap((s) => s.named);
}

/**
 * The rows of one phase: one per round of messages (labelled with what they carry and, when
 * signing, the run), plus how the phase ended. A signing run restarts when its signers, having
 * run "combine", send again instead of finishing: the next commitments open run r + 1.
 */
function phaseRows(phase, kind) {
  const rows = [];
  let prev = null;
  let run = 1;
  const label = (what) => (kind === 'sign' ? `Run ${run} · ${what}` : `Key generation · ${what}`);
  for (const s of roundsOf(phase)) {
    const groups = new Map();
    for (const m of s.sends) {
      if (!groups.has(m.sentIn)) groups.set(m.sentIn, []);
      groups.get(m.sentIn).push(m);
    }
    for (const [made, list] of groups) {
      const per = new Map();
      for (const m of [...list].sort((a, b) => a.from - b.from)) per.set(m.from, (per.get(m.from) ?? 0) + m.bytes);
      const direct = list.filter((m) => !m.broadcast).length;
      const ms = made === 'start' || !prev ? null : Math.max(...[...per.keys()].map((k) => prev.partyMs.get(k) ?? 0));
      const restart = made === 'combine' ? ` — run ${run - 1} had no slot that passed, so it restarted with fresh randomness` : '';
      rows.push({
        round: label(CARRIES[kind][made] ?? made) + restart,
        messages: `${list.length}${direct ? ` (${direct} private)` : ''}`,
        bytes: [...per].map(([k, b]) => `${k}: ${fmtBytes(b)}`).join(' · '),
        time: ms === null ? 'at start' : fmtMs(ms),
        restart: !!restart,
      });
    }
    // The step of this round: a signer that ran "combine" and sent again opened a new run.
    const continued = s.stepped.filter((k) => s.names.get(k) === 'combine' && !s.finished.includes(k) && !s.waited.includes(k) && !s.errors.has(k));
    if (continued.length) run += 1;
    if (s.finished.length) {
      const ms = Math.max(...s.finished.map((k) => s.partyMs.get(k) ?? 0));
      rows.push({
        round: kind === 'sign' ? label(`combine: ${memberList(s.finished)} each combined the signature from a slot that passed`) : label(`finish: ${memberList(s.finished)} hold their shares and the public key`),
        messages: '—',
        bytes: '—',
        time: fmtMs(ms),
      });
    }
    for (const [k, e] of s.errors) {
      const naming = e.culprits?.length ? `, naming ${memberList(e.culprits)}` : '';
      rows.push({ round: label(`${s.names.get(k) ?? s.name}: ${nameOf(k)} stopped with ${e.code ?? e.name}${naming}`), messages: '—', bytes: '—', time: fmtMs(s.partyMs.get(k)), bad: true });
    }
    prev = s;
  }
  // A session that ended with parties still waiting and nothing in flight: where each stood.
  const res = kind === 'sign' ? cur.signing?.result : null;
  if (res?.waiting.length && prev) {
    const at = new Map();
    for (const k of res.waiting) {
      const name = prev.names.get(k) ?? '?';
      at.set(name, [...(at.get(name) ?? []), k]);
    }
    const where = [...at].map(([name, ks]) => `${memberList(ks)} waiting to run “${name}”`).join('; ');
    rows.push({ round: label(`stalled, nothing left in flight: ${where}`), messages: '—', bytes: '—', time: '—', bad: true });
  }
  return rows;
}

function renderRounds() {
  const rows = [];
  if (cur.dealer) {
    const sizes = [...cur.dealer.sizes.values()];
    rows.push({ round: 'Trusted dealer · deal: it draws every subset secret (it knows the key)', messages: '—', bytes: '—', time: fmtMs(cur.dealer.ms) });
    rows.push({
      round: 'Trusted dealer · one share to each member (private), loaded in its worker',
      messages: String(sizes.length),
      bytes: [...cur.dealer.sizes].map(([k, b]) => `→${k}: ${fmtBytes(b)}`).join(' · '),
      time: fmtMs(cur.dealer.loadMs),
    });
  } else if (cur.net) {
    rows.push(...phaseRows('Key generation', 'keygen'));
  }
  if (cur.signing) rows.push(...phaseRows(cur.signing.phase, 'sign'));
  if (!rows.length) {
    emptyRow(el.rounds, 4, 'Generate a key to fill this table.');
    return;
  }
  el.rounds.textContent = '';
  for (const r of rows) {
    const tr = document.createElement('tr');
    if (r.restart) tr.className = 'restart';
    if (r.bad) tr.className = 'bad';
    [r.round, r.messages, r.bytes, r.time].forEach((v, i) => cell(tr, v, ROUND_COLUMNS[i], i === 2 ? 'per' : undefined));
    el.rounds.append(tr);
  }
}

/** What a member's signer ended with, in words (and a data-outcome for tests). */
function memberOutcome(id) {
  const s = cur.signing;
  if (!s || !s.signers.includes(id)) return { text: cur.key ? 'holds its share' : '—', state: cur.key ? 'share' : '' };
  const res = s.result;
  if (!res) return { text: 'signing…', state: 'running' };
  const named = namedIn(s.phase).filter((n) => n.party === id);
  if (res.outcomes.has(id)) {
    const o = res.outcomes.get(id);
    return { text: `signed: ${plural(o.runs, 'run')}, slot ${o.slot} of run ${o.runs}`, state: 'signed', o };
  }
  if (res.errors.has(id)) {
    const e = res.errors.get(id);
    return { text: `stopped: ${e.code ?? e.name}${e.culprits?.length ? `, naming ${e.culprits.map(nameOf).join(', ')}` : ''}`, state: 'stopped' };
  }
  const at = roundsOf(s.phase).at(-1)?.names.get(id);
  const suffix = named.length ? `; named by ${memberList(new Set(named.map((n) => n.by)))}` : '';
  return { text: `${res.waiting.includes(id) ? `waiting${at ? ` to run “${at}”` : ''}` : 'no outcome'}${suffix}`, state: named.length ? 'named' : 'waiting' };
}

function renderMembers() {
  if (!cur.members.length) {
    emptyRow(el.members, 7, 'Generate a key to fill this table.');
    return;
  }
  const s = cur.signing;
  const sent = s ? sentIn(s.phase) : new Map();
  el.members.textContent = '';
  for (const id of cur.members) {
    const tr = document.createElement('tr');
    tr.dataset.member = String(id);
    const share = cur.key?.shares.get(id);
    const signer = !!s && s.signers.includes(id);
    const out = memberOutcome(id);
    tr.dataset.outcome = out.state;
    const role = !s ? '—' : !signer ? 'not signing' : s.cheater === id ? `signer ⚠ cheats (${s.kind})` : 'signer';
    const sentText = signer && sent.has(id) ? `${plural(sent.get(id).messages, 'message')}, ${fmtBytes(sent.get(id).bytes)}` : '—';
    const values = [
      `${nameOf(id)}${s?.cheater === id ? ' ⚠' : ''}`,
      `w${cur.net.workerOf(id)}`,
      share ? `${plural(share.subsets, 'subset')}` : cur.key ? '—' : 'none yet',
      role,
      sentText,
      out.o ? String(out.o.rejected) : '—',
      out.text,
    ];
    values.forEach((v, i) => cell(tr, v, MEMBER_COLUMNS[i], i === 6 && (out.state === 'stopped' || out.state === 'named') ? 'bad' : undefined));
    if (s?.cheater === id) tr.dataset.cheater = '1';
    el.members.append(tr);
  }
  const parts = [`${cur.members.length} members`];
  if (cur.key) parts.unshift(`${cur.key.threshold} of ${cur.key.members.length}, ML-DSA-${cur.key.level}`);
  if (s) parts.push(`signing: ${memberList(s.signers)}`);
  el.summary.textContent = parts.join(' · ');
}

// ------------------------------------------------------------------------------ verdict, blame

function resetResult() {
  setStatus(el.verdict, 'none', '—');
  el.verdictDetail.textContent = '';
  for (const d of [el.runs, el.signedBy, el.sigSize, el.sigHex]) d.textContent = '—';
  delete el.runs.dataset.runs;
  el.blame.dataset.state = 'none';
  el.blame.removeAttribute('data-party');
  el.blame.removeAttribute('data-code');
  el.blame.textContent = 'No member has been named.';
}

/** The blame box: every member a signer named, with the library's code and words. */
function renderBlame(res) {
  const named = namedIn(res.phase);
  el.blame.textContent = '';
  if (!named.length) {
    el.blame.dataset.state = res.signature ? 'none' : 'failed';
    if (res.signature) el.blame.textContent = res.cheater === null ? 'No member has been named.' : `Member ${res.cheater} was set to cheat, yet nobody was named.`;
    else if (res.cheater !== null && res.kind === 'garbage') {
      el.blame.textContent =
        `Nobody was named. Member ${res.cheater} was set to send garbage: the other signers dropped its messages as malformed and kept ` +
        `waiting for valid ones, so the session stalled with nothing signed (every signer must answer). The library names a dropped ` +
        `sender in the outcome of a signer that finishes, and here none did.`;
    } else el.blame.textContent = 'Nobody was named, and nothing was signed.';
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
  const head = document.createElement('p');
  head.style.margin = '0';
  const strong = document.createElement('strong');
  strong.textContent = `Named: ${[...byParty.keys()].map(nameOf).join(', ')}.`;
  head.append(strong);
  const ul = document.createElement('ul');
  for (const [party, b] of byParty) {
    const li = document.createElement('li');
    const code = document.createElement('code');
    code.textContent = [...b.codes].join(', ') || 'no code';
    li.append(`${nameOf(party)}, named by ${memberList(b.by)}: `, code, ` — ${[...b.reasons].join('; ')}`);
    if (party === res.cheater) li.append(` (it was set to cheat: ${res.kind === 'garbage' ? 'garbage' : 'its reveal breaks its commitment'}).`);
    ul.append(li);
  }
  const after = document.createElement('p');
  after.className = 'hint';
  after.textContent = res.signature
    ? 'The session still ended with a signature.'
    : 'Nothing was signed: the scheme is not robust, so a session with a cheating signer ends without a signature, never with an invalid one.';
  el.blame.append(head, ul, after);
}

// ------------------------------------------------------------------------------ the view the actions report into

export const view = {
  namedIn,

  clearKey() {
    cur.net = null;
    cur.members = [];
    cur.key = null;
    cur.dealer = null;
    cur.signing = null;
    for (const d of [el.keyMode, el.pkSize, el.slots, el.pkHex]) d.textContent = '—';
    delete el.slots.dataset.slots;
    el.summary.textContent = '—';
    resetResult();
    renderMembers();
    renderRounds();
  },

  startKey({ net, members, mode }) {
    cur.net = net;
    cur.members = members;
    cur.mode = mode;
    cur.key = null;
    cur.dealer = null;
    cur.signing = null;
    el.keyMode.textContent = mode === 'dkg' ? 'distributed: nobody held the key' : 'trusted dealer: the dealer knew the key';
    el.keyMode.dataset.mode = mode;
    resetResult();
    renderMembers();
    renderRounds();
  },

  dealt(d) {
    cur.dealer = d;
    renderRounds();
  },

  keyed(key) {
    cur.key = key;
    el.pkSize.textContent = `ML-DSA-${key.level}, ${byteCount(key.publicKey.length)}`;
    el.pkHex.textContent = hex(key.publicKey);
    el.slots.textContent = String(key.slots);
    el.slots.dataset.slots = String(key.slots);
    renderMembers();
    renderRounds();
  },

  startSigning({ phase, signers, cheater, kind }) {
    cur.signing = { phase, signers, cheater, kind, result: null };
    resetResult();
    setStatus(el.verdict, 'running', 'signing…');
    renderMembers();
    renderRounds();
  },

  roundStart(r) {
    setStatus(el.status, 'running', `${r.phase}: ${r.round} (${plural(r.total, 'member')})…`);
  },

  roundEnd() {
    renderRounds();
    renderMembers();
  },

  verifying() {
    setStatus(el.verdict, 'running', 'verifying…');
  },

  signed(res) {
    cur.signing.result = res;
    const first = res.signers.find((id) => res.outcomes.has(id));
    const o = first === undefined ? null : res.outcomes.get(first);
    el.signedBy.textContent = memberList(res.signers);
    if (o) {
      el.runs.textContent = `${o.runs} (signature from slot ${o.slot} of ${cur.key.slots})`;
      el.runs.dataset.runs = String(o.runs);
    } else {
      el.runs.textContent = 'no signature';
    }
    if (res.signature) {
      el.sigSize.textContent = byteCount(res.signature.length);
      el.sigHex.textContent = hex(res.signature);
      const v = res.verdict;
      setStatus(el.verdict, v.ok ? 'valid' : 'invalid', v.ok ? 'valid' : 'invalid');
      el.verdictDetail.textContent =
        `${v.verifier} (${fmtMs(v.ms)}) under the committee's public key: ${v.note}. Every signer combined this same signature ` +
        `itself; none of them, and no one else, ever held the key.`;
    } else {
      setStatus(el.verdict, 'nosig', 'no signature');
      el.verdictDetail.textContent = res.errors.size
        ? 'The session aborted before any signature was combined, so the verifier had nothing to check.'
        : `The session stalled: ${memberList(res.waiting)} still waited for messages they could accept, so no signature was combined.`;
    }
    renderBlame(res);
    renderMembers();
    renderRounds();
  },

  failed(err) {
    if (el.verdict.dataset.state === 'running') setStatus(el.verdict, 'failed', 'failed');
    if (!el.verdictDetail.textContent) el.verdictDetail.textContent = describeError(err);
    renderMembers();
    renderRounds();
  },
};
