// The threshold tab's view of a run as it goes: the story (the router's trace as a sequence
// diagram), the timeline, the round rows, the tables and the blame card, and `ui`, the hooks a
// Run of www/flows.js reports into. It draws what the flows report and runs nothing itself.

import { COMBINER, COORDINATOR } from './flows.js';
import { Frames } from './frames.js';
import { Story } from './story.js';
import { Timeline } from './timeline.js';
import { renderTables as drawTables } from './tables.js';
import { describeError as describe, fmtBytes, fmtMs, plural } from './util.js';
import { $, app, el, setStatus } from './threshold-page.js';
import { setupCheck } from './threshold-form.js';
import { addTile, setBusy, setTile, tileLabel } from './tiles.js';

// ------------------------------------------------------------------------------ names, the story, the timeline

export function describeError(err) {
  return describe(err, partyName);
}

function isParty(key) {
  return typeof key === 'number' && key < COMBINER;
}

export function partyName(key) {
  if (key === COMBINER) return 'the combiner';
  if (key === COORDINATOR) return 'the coordinator';
  return `party ${key}`;
}

const isService = (k) => k === COMBINER || k === COORDINATOR;

/**
 * Every DOM write of the views below, while a run goes, is queued here and drawn in one frame
 * at most every 120 ms (www/frames.js: the workers report dozens of steps a second at K = 64,
 * and a frame per report would take CPU time the workers need). An action flushes it before
 * it ends, so what the page shows afterwards is complete.
 */
export const frames = new Frames(120);

export const story = new Story(
  {
    root: $('story'),
    scroll: $('story-scroll'),
    head: $('story-head'),
    bands: $('story-bands'),
    caption: $('story-caption'),
    pos: $('story-pos'),
    back: $('story-back'),
    fwd: $('story-fwd'),
    replay: $('story-replay'),
    whole: $('story-whole'),
  },
  { nameOf: (k) => partyName(k), isService, schedule: (fn) => frames.queue(fn, 'story') },
);
export const timeline = new Timeline(el.timeline, { nameOf: (k) => partyName(k), isService });
let timelineQueued = null;

/**
 * Redraw the timeline: a few times a second while a run goes on (at K = 64 a run has
 * thousands of steps, and redrawing them every round would cost the page a frame each time),
 * at once when `now`.
 */
export function renderTimeline(now = false) {
  if (now) {
    clearTimeout(timelineQueued);
    timelineQueued = null;
    timeline.render(story.keys);
    return;
  }
  if (timelineQueued) return;
  timelineQueued = setTimeout(() => {
    timelineQueued = null;
    frames.queue(() => timeline.render(story.keys), 'timeline');
  }, 400);
}

// ------------------------------------------------------------------------------ rounds & tables

/** The round `key` is in, as its party names it ("DKG", "release", "check shares", …). */
function roundOf(p, key) {
  return p.names?.get(key) ?? p.round;
}

function roundStart(info) {
  frames.queue(() => drawRoundStart(info));
}

function drawRoundStart(info) {
  const row = document.createElement('div');
  row.className = 'round';
  row.dataset.state = 'running';
  const label = document.createElement('span');
  label.className = 'label';
  const b = document.createElement('b');
  b.textContent = info.phase;
  label.append(b, ` › ${info.round}`);
  const bar = document.createElement('progress');
  bar.max = Math.max(1, info.total);
  bar.value = 0;
  bar.setAttribute('aria-label', `${info.phase}, ${info.round}`);
  const meta = document.createElement('span');
  meta.className = 'meta';
  meta.textContent = `0 / ${info.total}`;
  row.append(label, bar, meta);
  el.rounds.append(row);
  app.roundRows.set(info.token, { row, bar, meta, total: info.total });
  for (const k of info.actors) setBusy(k, 'queued');
  setStatus('running', `${info.phase}: ${info.round} (${info.total} ${info.total === 1 ? 'party' : 'parties'})…`);
  if (info.stats) story.roundStart(info.stats);
  el.storyNowText.textContent = `${info.phase} › ${info.round} · round ${story.bands.length} · ${plural(info.stats?.messages ?? 0, 'message')} in flight`;
}

// A round's live progress, drawn with the next batch of frames: the bar, and each party's
// tile (running, or done and how long it took).
const live = new Map(); // token -> { done, started: Map(key -> p), finished: Map(key -> p) }

function liveOf(token) {
  let l = live.get(token);
  if (!l) {
    l = { done: 0, started: new Map(), finished: new Map() };
    live.set(token, l);
    frames.queue(() => drawLive(token), `live ${token}`);
  }
  return l;
}

/** Draw the progress of round `token` reported so far and not drawn yet. */
function drawLive(token) {
  const l = live.get(token);
  if (!l) return;
  live.delete(token);
  const r = app.roundRows.get(token);
  if (r && l.done) {
    r.bar.value = l.done;
    r.meta.textContent = `${l.done} / ${r.total}`;
  }
  for (const [key, p] of l.finished) {
    setBusy(key, false);
    const t = app.tiles.get(key);
    if (!t) continue;
    t.ms.textContent = `${fmtMs(p.ms)} …`;
    if (t.base !== 'blamed') setTile(key, { label: p.ok === false ? `${roundOf(p, key)}: error` : `✓ ${roundOf(p, key)}` });
  }
  for (const [key, p] of l.started) {
    if (l.finished.has(key)) continue;
    setBusy(key, true);
    setTile(key, { label: `${roundOf(p, key)}…` });
  }
}

function roundProgress(p) {
  if (p.key === null || p.key === undefined) return;
  timeline.step({ key: p.key, phase: p.phase, seq: app.run?.phaseSeq ?? 0, round: roundOf(p, p.key), ms: p.ms, end: p.end });
  const l = liveOf(p.token);
  l.done = p.done;
  l.finished.set(p.key, p);
}

function stepStart(p) {
  liveOf(p.token).started.set(p.key, p);
}

function roundEnd(stats, token) {
  frames.queue(() => drawRoundEnd(stats, token));
}

function drawRoundEnd(stats, token) {
  drawLive(token);
  const r = app.roundRows.get(token);
  if (r) {
    r.bar.value = r.total;
    r.row.dataset.state = stats.errors.size ? 'error' : 'done';
    r.meta.textContent = `${fmtMs(stats.wallMs)} · ${stats.messages} msg · ${fmtBytes(stats.bytesDelivered)}`;
  }
  for (const [k, ms] of stats.partyMs) {
    setBusy(k, false);
    const t = app.tiles.get(k);
    if (t) {
      if (t.seq !== stats.seq) {
        t.seq = stats.seq;
        t.phaseMs = 0;
      }
      t.phaseMs += ms;
      t.total += ms;
      const short = stats.phase.split(' ')[0].toLowerCase();
      t.ms.textContent = `${fmtMs(t.phaseMs)} ${short}`;
      t.ms.title = `time spent by ${tileLabel(k)} in ${stats.phase}, measured inside its worker`;
    }
  }
  story.roundEnd(stats);
  renderTimeline();
  renderTables();
}

/**
 * The phase and per-party tables (behind their toggle), from the current group's rounds:
 * round by round while they are open, else once an action ends (`force`).
 */
export function renderTables(force = false) {
  if (!el.tables.open && force !== true) return;
  drawTables({ rounds: app.run?.net.rounds ?? [], workerOf: (k) => app.run?.net.workerOf(k), phaseTable: el.phaseTable, partyTable: el.partyTable, tileLabel, isParty });
}

// ------------------------------------------------------------------------------ blame

export function renderBlame() {
  el.blame.textContent = '';
  if (!app.blames.length) {
    el.blame.removeAttribute('data-party');
    const check = app.run ? { ok: true } : setupCheck();
    if (app.failure || !check.ok) {
      // A setup that failed, or cannot succeed, is not "nothing detected".
      el.blame.dataset.state = 'failed';
      el.blame.textContent = app.failure
        ? `No party was blamed: the run failed before any cheating could be detected — ${describeError(app.failure)}.`
        : `Nothing will run. ${check.reason}`;
      return;
    }
    el.blame.dataset.state = 'none';
    el.blame.textContent = app.run?.cheater
      ? `Party ${app.run.cheater} is set to cheat (${app.run.cheatMode === 'signing' ? 'a bad contribution when signing: it is caught at the first signature' : 'dealing bad key shares: it is caught in the key ceremony'}); nothing detected yet.`
      : 'No party has been blamed.';
    return;
  }
  el.blame.dataset.state = 'blamed';
  const named = [...new Set(app.blames.flatMap((b) => b.parties))];
  el.blame.dataset.party = named.join(',');
  const head = document.createElement('p');
  head.style.margin = '0';
  const s = document.createElement('strong');
  s.textContent = `Blamed: ${named.map((k) => `party ${k}`).join(', ')}.`;
  head.append(s);
  const ul = document.createElement('ul');
  for (const b of app.blames) {
    const li = document.createElement('li');
    li.textContent = `${b.phase}: ${b.text}`;
    ul.append(li);
  }
  el.blame.append(head, ul);
}

// ------------------------------------------------------------------------------ the UI object flows talk to

export const ui = {
  roundStart,
  stepStart,
  roundProgress,
  roundEnd,
  party(key, patch) {
    frames.queue(() => setTile(key, patch));
  },
  addParty(key, opts) {
    frames.queue(() => {
      if (!app.tiles.has(key)) addTile(key, opts);
      else setTile(key, opts);
      story.lanes([key]);
    });
  },
  blame(event) {
    app.blames.push(event);
    frames.queue(() => {
      story.note({ kind: 'blame', text: `Blame (${event.phase}): ${event.text}` });
      for (const k of event.parties) setTile(k, { state: 'blamed', label: 'blamed, excluded', detail: `${event.phase}: ${event.text}` });
      renderBlame();
    });
  },
  /** A note under the story's last round so far (in order with the rounds still to draw). */
  note(n) {
    frames.queue(() => story.note(n));
  },
  status(text) {
    frames.queue(() => setStatus('running', text));
  },
};
