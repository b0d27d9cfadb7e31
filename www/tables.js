// The threshold tab's tables, behind their toggle: per phase and round (actors, wall clock,
// per-party median and max, messages, bytes sent and delivered) and per party (its time in
// each phase, measured inside its worker). Read from the router's `RoundStats`; no protocol.

import { fmtBytes, fmtMs, median } from './util.js';

function td(text, cls) {
  const c = document.createElement('td');
  c.textContent = text;
  if (cls) c.className = cls;
  return c;
}

/**
 * Fill the phase table (one row per phase, one per round) and the per-party table (one
 * column per phase) from the network's `rounds` (www/coordinator.js `RoundStats`).
 */
export function renderTables({ rounds, workerOf, phaseTable, partyTable, tileLabel, isParty }) {
  const tbody = phaseTable.tBodies[0];
  tbody.textContent = '';
  if (rounds.length === 0) {
    const tr = document.createElement('tr');
    tr.className = 'empty';
    tr.append(td('Run a key ceremony to fill this table.'));
    tr.firstChild.colSpan = 8;
    tbody.append(tr);
    partyTable.tHead.textContent = '';
    partyTable.tBodies[0].textContent = '';
    return;
  }
  const phases = [];
  for (const r of rounds) {
    let ph = phases.at(-1);
    if (!ph || ph.name !== r.phase || ph.seq !== r.seq) {
      ph = { name: r.phase, seq: r.seq, rounds: [] };
      phases.push(ph);
    }
    ph.rounds.push(r);
  }
  const total = { wall: 0, msgs: 0, sent: 0, deliv: 0 };
  for (const ph of phases) {
    const per = new Map();
    let wall = 0;
    let msgs = 0;
    let sent = 0;
    let deliv = 0;
    for (const r of ph.rounds) {
      wall += r.wallMs;
      msgs += r.messages;
      sent += r.bytesSent;
      deliv += r.bytesDelivered;
      for (const [k, ms] of r.partyMs) per.set(k, (per.get(k) ?? 0) + ms);
    }
    total.wall += wall;
    total.msgs += msgs;
    total.sent += sent;
    total.deliv += deliv;
    const tr = document.createElement('tr');
    tr.className = 'phase';
    const perParties = [...per].filter(([k]) => isParty(k)).map(([, v]) => v);
    tr.append(
      td(ph.name),
      td(String(Math.max(...ph.rounds.map((r) => r.actors)))),
      td(fmtMs(wall)),
      td(perParties.length ? fmtMs(median(perParties)) : '—'),
      td(perParties.length ? fmtMs(Math.max(...perParties)) : '—'),
      td(String(msgs)),
      td(fmtBytes(sent)),
      td(fmtBytes(deliv)),
    );
    tbody.append(tr);
    for (const r of ph.rounds) {
      const ms = [...r.partyMs].filter(([k]) => isParty(k)).map(([, v]) => v);
      const roles = [...r.partyMs].filter(([k]) => !isParty(k));
      const sub = document.createElement('tr');
      sub.className = 'sub';
      const roleNote = roles.length ? ` (${roles.map(([k, v]) => `${tileLabel(k).toLowerCase()} ${fmtMs(v)}`).join(', ')})` : '';
      sub.append(
        td(`${r.name}${roleNote}`),
        td(String(r.actors)),
        td(fmtMs(r.wallMs)),
        td(ms.length ? fmtMs(median(ms)) : '—'),
        td(ms.length ? fmtMs(Math.max(...ms)) : '—'),
        td(`${r.messages}${r.broadcasts ? ` (${r.broadcasts} bcast)` : ''}`),
        td(fmtBytes(r.bytesSent)),
        td(fmtBytes(r.bytesDelivered)),
      );
      tbody.append(sub);
    }
  }
  const tr = document.createElement('tr');
  tr.className = 'total';
  tr.append(td('Total'), td(''), td(fmtMs(total.wall)), td(''), td(''), td(String(total.msgs)), td(fmtBytes(total.sent)), td(fmtBytes(total.deliv)));
  tbody.append(tr);

  // Per-party table: one column per phase.
  const keys = [...new Set(rounds.flatMap((r) => [...r.partyMs.keys()]))].sort((a, b) => {
    return a - b;
  });
  const head = document.createElement('tr');
  const th = (t) => {
    const c = document.createElement('th');
    c.scope = 'col';
    c.textContent = t;
    return c;
  };
  head.append(th('Party'), th('Worker'), ...phases.map((p) => th(p.name)), th('Total'));
  partyTable.tHead.textContent = '';
  partyTable.tHead.append(head);
  const body = partyTable.tBodies[0];
  body.textContent = '';
  for (const k of keys) {
    const row = document.createElement('tr');
    let sum = 0;
    const cells = phases.map((p) => {
      let ms = 0;
      let any = false;
      for (const r of p.rounds) {
        if (r.partyMs.has(k)) {
          ms += r.partyMs.get(k);
          any = true;
        }
      }
      sum += ms;
      return td(any ? ms.toFixed(1) : '·');
    });
    const w = workerOf(k);
    row.append(td(tileLabel(k)), td(w === undefined ? '—' : `w${w}`), ...cells, td(sum.toFixed(1)));
    body.append(row);
  }
}
