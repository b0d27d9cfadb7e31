// The threshold tab's party tiles: one per party (and one for the service role), showing its
// state, its worker and its time. Kept apart from the actions so the flows' reports and the
// form's preview draw the tiles the same way.

import { COMBINER, COORDINATOR } from './flows.js';
import { app, el } from './threshold-page.js';

export function tileLabel(key) {
  if (key === COMBINER) return 'Combiner';
  if (key === COORDINATOR) return 'Coordinator';
  return `P${key}`;
}

export function addTile(key, { role = 'party', worker, label = 'waiting', base = 'idle', title } = {}) {
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

export function setTile(key, { state, label, ms, cheater, detail } = {}) {
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
export function setBusy(key, busy) {
  const t = app.tiles.get(key);
  if (!t) return;
  t.busy = busy;
  t.el.dataset.state = busy === 'queued' ? 'queued' : busy ? 'busy' : t.base;
}

export function updatePartySummary() {
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
