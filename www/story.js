// The threshold tab's sequence view: the story of a group, round by round, drawn from the
// router's trace (www/coordinator.js `RoundStats`: who sent what to whom, how many bytes, who
// stepped, finished or failed, and whom a step named). Nothing here looks inside a message.
//
//   const story = new Story(elements, { nameOf, isService, schedule });
//   story.reset({ scheme, service });        // a new group
//   story.lanes(keys);                       // parties (and the service) as lanes
//   story.roundStart(stats) / roundEnd(stats) // live, from the network's hooks
//   story.note(note)                         // blame, hand-over, failure: under the last round
//   story.step(±1) / replay() / whole()      // the controls
//
// Drawing: one lifeline per party (the combiner or coordinator on the right, dashed), time
// going down; one band per round with one row per sender: a broadcast is a bus line from the
// sender across every recipient (one message), a direct message a ◆ at its recipient (one
// message each). What a direct message carries is read from the sender's own round names
// and the lifecycle paths' message tables (their module docs): an LSS dealer's direct
// messages are private shares, a Pulsar signer's in "release" its encrypted key share for
// the combiner, a Lens signer's in "sign" its signature share. A party named by another is
// drawn in red, with the message that got it named. Bands are SVG built as strings, parsed
// once per frame; a big round (a 64-party DKG sends 4,000 messages) draws a row's diamonds
// as one path of `data-count` subpaths, so it stays within a frame.

import { fmtBytes, fmtMs, plural, ranges } from './util.js';

const ROW = 22; // one sender
const TOP = 10;
const STEP_ROW = 20; // who stepped, finished, failed
const NOTE_ROW = 17; // one named party, or the hand-over marks
const MIN_LANE = 24;
const MAX_LANE = 96;
const GUTTER = 12;

const count = new Intl.NumberFormat('en-US'); // one formatter: toLocaleString makes one per call
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** How a message reads, from the sender's round and roles: `{ label, share }`. */
function kindOf(scheme, m, isService) {
  if (m.broadcast) return { label: 'broadcast', share: false };
  const toService = isService(m.to[0]);
  if (isService(m.from)) return { label: 'direct', share: false };
  if (!toService) return { label: 'private share', share: true };
  if (scheme === 'pulsar' && m.sentIn === 'release') return { label: 'encrypted key share', share: true };
  if (scheme === 'lens' && m.sentIn === 'sign') return { label: 'signature share', share: true };
  if (scheme === 'lens') return { label: 'nonce commitment', share: false };
  return { label: 'report to the combiner', share: false };
}

export class Story {
  /**
   * @param {{ root: HTMLElement, scroll: HTMLElement, head: HTMLElement, bands: HTMLElement,
   *   caption: HTMLElement, pos: HTMLElement, back: HTMLButtonElement, fwd: HTMLButtonElement,
   *   replay: HTMLButtonElement, whole: HTMLButtonElement }} el
   */
  constructor(el, { nameOf, isService, schedule = (fn) => requestAnimationFrame(fn) }) {
    this.el = el;
    this.nameOf = nameOf;
    this.isService = isService;
    this.scheme = 'pulsar';
    this.keys = [];
    this.bands = []; // { stats, el, notes: [] }
    this.sel = null; // index of the selected band, or null (whole story)
    this.follow = true; // select each new round as it arrives
    this.timer = null;
    this.laneW = MIN_LANE;
    // DOM work waits for the next frame, all of it at once: bands to draw, then the one
    // layout read (scrolling the selected round into view). No forced layout per message.
    // `schedule(fn)` runs fn in that frame (the page's batched frames, www/frames.js).
    this.schedule = schedule;
    this.dirty = new Set();
    this.dirtyAll = false;
    this.scrollTo = null;
    this.frame = 0;
    this.width = el.scroll.clientWidth || 600;
    el.back.addEventListener('click', () => this.step(-1));
    el.fwd.addEventListener('click', () => this.step(1));
    el.replay.addEventListener('click', () => (this.timer ? this.stopReplay() : this.replay()));
    el.whole.addEventListener('click', () => this.whole());
    // Whether the story box is on screen: scrolling a round into view reads the layout, and
    // while the box is off screen that read would lay out rounds the page otherwise skips
    // (content-visibility), so it waits until the box is seen.
    this.onScreen = true;
    new IntersectionObserver((entries) => {
      this.onScreen = entries.at(-1).isIntersecting;
      if (this.onScreen && this.scrollTo) this.#schedule();
    }).observe(el.scroll);
    new ResizeObserver((entries) => {
      const w = entries.at(-1).contentRect.width;
      if (!w || w === this.width) return;
      this.width = w;
      if (this.#measure()) this.#redrawAll();
    }).observe(el.scroll);
    this.reset({ scheme: 'pulsar' });
  }

  /** A new group: no lanes, no rounds. */
  reset({ scheme }) {
    this.stopReplay();
    this.scheme = scheme;
    this.keys = [];
    this.bands = [];
    this.sel = null;
    this.follow = true;
    this.dirty.clear();
    this.dirtyAll = false;
    this.scrollTo = null;
    this.frame = 0; // a frame still queued finds nothing to draw
    this.el.bands.textContent = '';
    this.el.head.textContent = '';
    this.el.root.dataset.rounds = '0';
    this.el.caption.textContent = 'Run the key ceremony: every round will appear here, message by message.';
    this.#controls();
  }

  /** Add lanes (parties ascending, services on the right). */
  lanes(keys) {
    const fresh = keys.filter((k) => !this.keys.includes(k));
    if (!fresh.length) return;
    this.keys = [...this.keys, ...fresh].sort((a, b) => (this.isService(a) - this.isService(b)) || a - b);
    this.#measure();
    this.#redrawAll();
  }

  /** A round begins: its messages are in flight; draw them (the round is running). */
  roundStart(stats) {
    if (this.timer) this.stopReplay();
    const band = { stats, el: document.createElement('section'), notes: [], running: true };
    band.el.className = 'band';
    this.bands.push(band);
    const prev = this.bands.at(-2)?.stats;
    if (!prev || prev.run !== stats.run) this.el.bands.append(this.#runHead(stats, prev));
    this.el.bands.append(band.el);
    this.#queue(this.bands.length - 1);
    this.el.root.dataset.rounds = String(this.bands.length);
    if (this.follow) this.select(this.bands.length - 1, { live: true });
    else this.#controls();
  }

  /** A round ended: who finished, failed, waited, and whom they named. */
  roundEnd(stats) {
    const i = this.bands.findIndex((b) => b.stats === stats);
    if (i < 0) return;
    this.bands[i].running = false;
    // A party named now may be named for a message of an earlier round of the run: redraw it.
    for (const j of this.#badTargets(i)) this.#queue(j);
    this.#queue(i);
    if (this.sel === i) this.#caption();
  }

  /**
   * Something the flows concluded, shown under the last round so far: `{ kind: 'blame' |
   * 'handover' | 'fail' | 'result', text, marks?: [{ key, glyph, title }] }`.
   */
  note(n) {
    const band = this.bands.at(-1);
    if (!band) {
      this.el.caption.textContent = n.text;
      this.el.caption.dataset.kind = n.kind;
      return;
    }
    band.notes.push(n);
    this.#queue(this.bands.length - 1);
    if (this.sel === this.bands.length - 1 || this.sel === null) this.#caption();
  }

  /** The run was stopped (its workers terminated): no round is running any more. */
  stopped(text) {
    for (const [i, b] of this.bands.entries()) {
      if (!b.running) continue;
      b.running = false;
      this.#queue(i);
    }
    this.note({ kind: 'fail', text });
  }

  // ---------------------------------------------------------------------------- controls

  step(d) {
    this.stopReplay();
    if (!this.bands.length) return;
    const at = this.sel ?? (d > 0 ? -1 : this.bands.length);
    const i = Math.max(0, Math.min(this.bands.length - 1, at + d));
    this.follow = i === this.bands.length - 1;
    this.select(i);
  }

  /** Show the whole story: every round, none highlighted, from the top. */
  whole() {
    this.stopReplay();
    this.sel = null;
    this.follow = true;
    for (const b of this.bands) {
      b.el.hidden = false;
      b.el.classList.remove('sel');
    }
    for (const h of this.el.bands.querySelectorAll('.run-head')) h.hidden = false;
    this.el.scroll.scrollTop = 0;
    this.#caption();
    this.#controls();
  }

  /** Replay: hide every round, then show them one by one, each highlighted in turn. */
  replay() {
    if (!this.bands.length) return;
    this.stopReplay();
    for (const b of this.bands) b.el.hidden = true;
    for (const h of this.el.bands.querySelectorAll('.run-head')) h.hidden = true;
    let i = 0;
    const reduce = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    const next = () => {
      if (i >= this.bands.length) {
        this.stopReplay();
        return;
      }
      const b = this.bands[i];
      b.el.hidden = false;
      const head = b.el.previousElementSibling;
      if (head?.classList.contains('run-head')) head.hidden = false;
      b.el.classList.remove('enter');
      void b.el.offsetWidth; // restart the entry animation
      b.el.classList.add('enter');
      this.select(i);
      i += 1;
    };
    next();
    this.timer = setInterval(next, reduce ? 400 : 900);
    this.el.root.dataset.replaying = '1';
    this.#controls();
  }

  stopReplay() {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    for (const b of this.bands) b.el.hidden = false;
    for (const h of this.el.bands.querySelectorAll('.run-head')) h.hidden = false;
    delete this.el.root.dataset.replaying;
    this.#controls();
  }

  /** Highlight round `i` and scroll it into view inside the story box (not the page). */
  select(i, { live = false } = {}) {
    this.sel = i;
    this.bands.forEach((b, j) => b.el.classList.toggle('sel', j === i));
    this.scrollTo = { i, live };
    this.#schedule();
    this.#caption();
    this.#controls();
  }

  #queue(i) {
    this.dirty.add(i);
    this.#schedule();
  }

  #redrawAll() {
    this.dirtyAll = true;
    this.#schedule();
  }

  #schedule() {
    if (this.frame) return;
    this.frame = 1;
    this.schedule(() => this.#flush());
  }

  /** The frame's DOM work: draw what changed, then scroll the selected round into view. */
  #flush() {
    this.frame = 0;
    if (this.dirtyAll) {
      this.#drawHead();
      for (let i = 0; i < this.bands.length; i++) this.#draw(i);
    } else {
      for (const i of this.dirty) if (i < this.bands.length) this.#draw(i);
    }
    this.dirtyAll = false;
    this.dirty.clear();
    const go = this.scrollTo;
    if (!go || !this.onScreen) return;
    this.scrollTo = null;
    const b = this.bands[go.i];
    if (!b || b.el.hidden) return;
    const box = this.el.scroll;
    const head = this.el.head.offsetHeight;
    const top = b.el.offsetTop - head - 4; // the box is the bands' offset parent
    const bottom = top + b.el.offsetHeight + head + 8;
    if (go.live || top < box.scrollTop || bottom > box.scrollTop + box.clientHeight) box.scrollTop = Math.max(0, top);
  }

  #controls() {
    const n = this.bands.length;
    const { back, fwd, replay, whole, pos } = this.el;
    back.disabled = !n || this.sel === 0;
    fwd.disabled = !n || this.sel === n - 1;
    replay.disabled = !n;
    whole.disabled = !n;
    replay.textContent = this.timer ? '■ Stop' : '⟲ Replay';
    pos.textContent = !n ? 'no rounds yet' : this.sel === null ? `the whole story: ${plural(n, 'round')}` : `round ${this.sel + 1} of ${n}`;
  }

  // ---------------------------------------------------------------------------- words

  #caption() {
    const cap = this.el.caption;
    delete cap.dataset.kind;
    if (!this.bands.length) return;
    if (this.sel === null) {
      const runs = new Set(this.bands.map((b) => b.stats.run)).size;
      const msgs = this.bands.reduce((a, b) => a + b.stats.messages, 0);
      const bytes = this.bands.reduce((a, b) => a + b.stats.bytesDelivered, 0);
      const notes = this.bands.flatMap((b) => b.notes).filter((n) => n.kind !== 'result');
      cap.textContent =
        `The whole story: ${plural(this.bands.length, 'round')} in ${plural(runs, 'session')}, ${plural(msgs, 'message')} routed, ` +
        `${fmtBytes(bytes)} delivered.${notes.map((n) => ` ${n.text}`).join('')}`;
      return;
    }
    const { stats, notes, running } = this.bands[this.sel];
    const b = stats.broadcasts;
    const senders = [...new Set(stats.sends.map((m) => m.from))];
    const kinds = new Map();
    for (const m of stats.sends) {
      if (m.broadcast) continue;
      const k = kindOf(this.scheme, m, this.isService).label;
      kinds.set(k, (kinds.get(k) ?? 0) + 1);
    }
    const what = [b ? plural(b, 'broadcast') : '', ...[...kinds].map(([k, n]) => plural(n, k))].filter(Boolean).join(', ');
    const stepped = stats.stepped.map((k) => this.#short(k));
    const parts = [
      `${stats.phase}${stats.label ? ` (${stats.label})` : ''}, round ${this.sel + 1}: `,
      stats.messages
        ? `the router delivered ${what} from ${this.#list(senders)} (${fmtBytes(stats.bytesDelivered)} in all); `
        : 'nothing was in flight; ',
      `then ${stepped.length > 6 ? plural(stepped.length, 'party', 'parties') : stepped.join(', ')} ran “${stats.name}”`,
      running ? ' — running now.' : ` (${fmtMs(stats.wallMs)}).`,
    ];
    if (!running && stats.finished.length) parts.push(` Finished: ${this.#list(stats.finished)}.`);
    if (!running && stats.errors.size) parts.push(` Failed: ${this.#list([...stats.errors.keys()])}.`);
    for (const n of notes) parts.push(` ${n.text}`);
    cap.textContent = parts.join('');
    const kind = notes.find((n) => n.kind !== 'result')?.kind;
    if (kind) cap.dataset.kind = kind;
  }

  #short(k) {
    return this.isService(k) ? this.nameOf(k) : `P${k}`;
  }

  #list(keys) {
    const parties = keys.filter((k) => !this.isService(k));
    const services = keys.filter((k) => this.isService(k)).map((k) => this.nameOf(k));
    return [parties.length ? ranges(parties) : '', ...services].filter(Boolean).join(', ');
  }

  #runHead(stats, prev) {
    const h = document.createElement('h3');
    h.className = 'run-head';
    const again = prev && prev.phase === stats.phase; // a session retried without a blamed party
    h.textContent = `${stats.phase}${again ? ' — a new session' : ''}${stats.label ? ` · ${stats.label}` : ''}`;
    return h;
  }

  // ---------------------------------------------------------------------------- drawing

  /** Lane width for the box's width; true if it changed. */
  #measure() {
    const w = this.width;
    const n = Math.max(1, this.keys.length);
    const lane = Math.max(MIN_LANE, Math.min(MAX_LANE, Math.floor((w - 2 * GUTTER) / n)));
    this.el.bands.style.setProperty('--box', `${Math.round(w)}px`); // notes wrap inside the visible box
    if (lane === this.laneW) return false;
    this.laneW = lane;
    return true;
  }

  #x(key) {
    if (this.laneOf?.keys !== this.keys) this.laneOf = { keys: this.keys, at: new Map(this.keys.map((k, i) => [k, i])) };
    return GUTTER + this.laneW * (this.laneOf.at.get(key) + 0.5);
  }

  get #width() {
    return 2 * GUTTER + this.laneW * this.keys.length;
  }

  #drawHead() {
    const w = this.#width;
    const labels = this.keys.map((k) => {
      const svc = this.isService(k);
      const text = svc ? this.nameOf(k).replace(/^the /, '') : `P${k}`;
      const fit = svc && this.laneW < 70 ? `${text.slice(0, this.laneW < 40 ? 1 : 5)}.` : text;
      return `<text x="${this.#x(k)}" y="14" class="${svc ? 'svc' : ''}" text-anchor="middle"><title>${esc(this.nameOf(k))}</title>${esc(fit)}</text>`;
    });
    this.el.head.innerHTML = `<svg width="${w}" height="20" role="img" aria-label="lanes: ${esc(this.keys.map((k) => this.#short(k)).join(', '))}">${labels.join('')}</svg>`;
  }

  /** Band indexes holding the messages that got a party named in band `i` (see #bad). */
  #badTargets(i) {
    return [...new Set([...this.#bad(i).values()].map((v) => v.band))];
  }

  /**
   * For each party named in band `i`: the band (of the same session, at or before `i`) with
   * its latest messages to the parties that named it, and those messages.
   */
  #bad(i) {
    const out = new Map();
    const { named, run } = this.bands[i].stats;
    for (const n of named) {
      const by = named.filter((m) => m.party === n.party).map((m) => m.by);
      for (let j = i; j >= 0 && this.bands[j].stats.run === run; j--) {
        const msgs = this.bands[j].stats.sends.filter((m) => m.from === n.party && m.to.some((t) => by.includes(t)));
        if (msgs.length) {
          out.set(n.party, { band: j, msgs });
          break;
        }
      }
    }
    return out;
  }

  /** Every message drawn red in band `j`: named in it or in a later band of its session. */
  #badIn(j) {
    const set = new Set();
    for (let i = j; i < this.bands.length && this.bands[i].stats.run === this.bands[j].stats.run; i++) {
      for (const v of this.#bad(i).values()) if (v.band === j) for (const m of v.msgs) set.add(m);
    }
    return set;
  }

  #draw(i) {
    const band = this.bands[i];
    const { stats } = band;
    const w = this.#width;
    const bad = this.#badIn(i);
    const bySender = new Map();
    for (const m of stats.sends) {
      if (!bySender.has(m.from)) bySender.set(m.from, []);
      bySender.get(m.from).push(m);
    }
    const senders = [...bySender.keys()].sort((a, b) => this.#x(a) - this.#x(b));
    const named = band.running ? [] : [...new Map(stats.named.map((n) => [n.party, n])).values()];
    const marks = band.notes.flatMap((n) => n.marks ?? []);
    // The Pulsar combiner's moment: the step that received the released (encrypted) shares.
    const combiner = this.scheme === 'pulsar' && !band.running ? stats.stepped.find((k) => this.isService(k)) : undefined;
    const combineRow = combiner !== undefined && (stats.errors.has(combiner) || stats.sends.some((m) => m.to.includes(combiner) && m.sentIn === 'release'));
    const h = TOP + senders.length * ROW + STEP_ROW + (named.length + (marks.length ? 1 : 0) + (combineRow ? 1 : 0)) * NOTE_ROW + 6;
    const svg = [];
    const lives = [];
    // Lifelines.
    const involved = new Set([...stats.stepped, ...senders]);
    for (const m of stats.sends) for (const t of m.to) involved.add(t);
    for (const k of this.keys) {
      const x = this.#x(k);
      const on = involved.has(k);
      lives.push(`<line class="life${this.isService(k) ? ' svc' : ''}${on ? ' on' : ''}" x1="${x}" y1="0" x2="${x}" y2="${h}"/>`);
    }
    // One row per sender: parsed once per band (and again only when the lanes or the red
    // messages change), the round's end redraws only the rest.
    const rowsKey = `${this.laneW}|${this.keys.join(',')}|${[...bad].map((m) => stats.sends.indexOf(m)).join(',')}`;
    const keepRows = band.rowsKey === rowsKey ? band.el.querySelector('g.rows') : null;
    const rows = [];
    const titled = stats.messages <= 300; // a title per message, where that stays cheap
    if (!keepRows) senders.forEach((from, r) => {
      const y = TOP + r * ROW + ROW / 2;
      const xs = this.#x(from);
      const mine = bySender.get(from);
      const words = [];
      for (const m of mine.filter((m) => m.broadcast)) {
        const xr = m.to.map((t) => this.#x(t));
        const x1 = Math.min(xs, ...xr);
        const x2 = Math.max(xs, ...xr);
        const ticks = xr.map((x) => `M${x} ${y - 7}v6`).join('');
        const cls = `m b${bad.has(m) ? ' bad' : ''}`;
        rows.push(
          `<g class="${cls}" data-from="${from}" data-bytes="${m.bytes}" data-to="${m.to.join(',')}" style="--row:${r}">` +
            `<title>${esc(`${this.#short(from)} → every other party of the session (${m.to.length}): broadcast, ${count.format(m.bytes)} bytes${bad.has(m) ? ' — the message it was named for' : ''}`)}</title>` +
            `<line x1="${x1}" y1="${y - 4}" x2="${x2}" y2="${y - 4}"/><path d="${ticks}"/><circle cx="${xs}" cy="${y - 4}" r="3.5"/></g>`,
        );
        words.push(`⇉ ${fmtBytes(m.bytes)}`);
      }
      const direct = mine.filter((m) => !m.broadcast);
      if (direct.length) {
        const xr = direct.map((m) => this.#x(m.to[0]));
        const k0 = kindOf(this.scheme, direct[0], this.isService);
        rows.push(
          `<line class="wire" x1="${Math.min(xs, ...xr)}" y1="${y + 4}" x2="${Math.max(xs, ...xr)}" y2="${y + 4}">` +
            `<title>${esc(`${this.#short(from)} → ${plural(direct.length, 'party', 'parties')}: ${k0.label}${direct.length > 1 ? 's' : ''}`)}</title></line>`,
        );
        const sizes = new Set(direct.map((m) => m.bytes));
        // A big round draws a row's plain diamonds as one path (each subpath one message,
        // counted in data-count): thousands of elements would cost more than a frame.
        const bulk = titled ? [] : direct.filter((m) => !bad.has(m));
        if (bulk.length) {
          const share = kindOf(this.scheme, bulk[0], this.isService).share;
          const d = bulk.map((m) => `M${this.#x(m.to[0])} ${y - 1}l5 5-5 5-5-5z`).join('');
          rows.push(`<path class="m d${share ? ' share' : ''}" style="--row:${r}" data-from="${from}" data-count="${bulk.length}" data-to="${bulk.map((m) => m.to[0]).join(',')}" d="${d}"/>`);
        }
        for (const m of titled ? direct : direct.filter((m) => bad.has(m))) {
          const x = this.#x(m.to[0]);
          const k = kindOf(this.scheme, m, this.isService);
          rows.push(
            `<path class="m d${k.share ? ' share' : ''}${bad.has(m) ? ' bad' : ''}" style="--row:${r}" data-from="${from}" data-to="${m.to[0]}" data-bytes="${m.bytes}" d="M${x} ${y - 1}l5 5-5 5-5-5z">` +
              (titled || bad.has(m) ? `<title>${esc(`${this.#short(from)} → ${this.#short(m.to[0])}: ${k.label}, ${count.format(m.bytes)} bytes${bad.has(m) ? ' — the message it was named for' : ''}`)}</title>` : '') +
              `</path>`,
          );
        }
        const size = sizes.size === 1 ? fmtBytes(direct[0].bytes) : `${fmtBytes(Math.min(...sizes))}–${fmtBytes(Math.max(...sizes))}`;
        words.push(direct.length === 1 ? `◆ ${k0.label} ${size}` : `◆ ${direct.length} × ${size}`);
      }
      rows.push(this.#label(from, y, words.join(' · '), [...mine.flatMap((m) => m.to), from]));
    });
    // Who stepped, and how it ended.
    const ys = TOP + senders.length * ROW + STEP_ROW / 2;
    for (const k of stats.stepped) {
      const x = this.#x(k);
      const ran = stats.names?.get(k) ?? stats.name;
      const ms = stats.partyMs.get(k);
      let cls = 'ran';
      let what = `ran “${ran}”`;
      if (band.running) {
        cls = 'busy';
        what = `is running “${ran}”`;
      } else if (stats.errors.has(k)) {
        cls = 'failed';
        what = `failed in “${ran}”: ${stats.errors.get(k).code ?? stats.errors.get(k).message}`;
      } else if (stats.finished.includes(k)) {
        cls = 'done';
        what = `ran “${ran}” and finished`;
      } else if (stats.waited.includes(k)) {
        cls = 'waiting';
        what = `ran “${ran}” and waits for more messages`;
      }
      const title = `${this.nameOf(k)} ${what}${ms === undefined ? '' : ` (${fmtMs(ms)} in its worker)`}`;
      svg.push(`<rect class="st ${cls}" x="${x - 5}" y="${ys - 5}" width="10" height="10" rx="2"><title>${esc(title)}</title></rect>`);
      if (k === combiner && combineRow) {
        const ok = !stats.errors.has(k);
        const words = ok ? (stats.phase.startsWith('Key') ? 'the combiner rebuilds the seed · derives the key · erases it' : 'the combiner rebuilds the key · signs · erases it') : 'the combiner could not combine';
        svg.push(`<rect class="combine${ok ? '' : ' bad'}" x="${x - 7}" y="${ys - 8}" width="14" height="16" rx="3"/>`);
        svg.push(`<text class="lbl combine-lbl" x="${x + 6}" y="${ys + 20}" text-anchor="end">${esc(words)}</text>`);
      }
    }
    // Whom a step named, and why.
    const below = ys + STEP_ROW / 2 + (combineRow ? NOTE_ROW : 0);
    named.forEach((n, r) => {
      const y = below + r * NOTE_ROW + NOTE_ROW / 2 + 2;
      const x = this.#x(n.party);
      const by = stats.named.filter((m) => m.party === n.party).map((m) => m.by);
      const text = `✗ ${this.#short(n.party)} named by ${this.#list(by)}: ${n.code ?? 'named'}`;
      svg.push(
        `<g class="named" data-party="${n.party}"><title>${esc(`${text} — ${n.reason ?? ''}`)}</title>` +
          `<path d="M${x - 5} ${y - 5}l10 10M${x + 5} ${y - 5}l-10 10"/>${this.#label(n.party, y + 1, text, [n.party], 'named-lbl')}</g>`,
      );
    });
    // The hand-over marks (new share, old share erased, …).
    if (marks.length) {
      const y = below + named.length * NOTE_ROW + NOTE_ROW / 2 + 2;
      for (const m of marks) {
        svg.push(`<text class="mark ${m.cls ?? ''}" x="${this.#x(m.key)}" y="${y + 4}" text-anchor="middle"><title>${esc(m.title)}</title>${esc(m.glyph)}</text>`);
      }
    }
    const b = stats.broadcasts;
    const d = stats.messages - b;
    band.el.dataset.index = String(i);
    band.el.dataset.messages = String(stats.messages);
    band.el.dataset.broadcasts = String(b);
    band.el.dataset.direct = String(d);
    band.el.dataset.phase = stats.phase;
    band.el.dataset.round = stats.name;
    band.el.dataset.state = band.running ? 'running' : stats.errors.size || named.length ? 'blame' : 'done';
    if (band.notes.some((n) => n.kind === 'handover')) band.el.dataset.handover = '1';
    const notes = band.notes.map((n) => `<p class="story-note" data-kind="${esc(n.kind)}">${esc(n.text)}</p>`).join('');
    band.el.innerHTML =
      `<button type="button" class="band-head" data-i="${i}"><b>${i + 1}</b> ${esc(stats.phase)} › ${esc(stats.name)}` +
      `<span class="meta">${b ? `${plural(b, 'broadcast')} · ` : ''}${d ? `${d} direct · ` : ''}${stats.messages ? fmtBytes(stats.bytesDelivered) : 'no messages'}${band.running ? ' · running…' : ''}</span></button>` +
      `<svg class="seq" width="${w}" height="${h}" role="img" aria-label="${esc(`round ${i + 1}: ${stats.messages} messages`)}">` +
      `<g class="lives">${lives.join('')}</g><g class="rows">${keepRows ? '' : rows.join('')}</g>${svg.join('')}</svg>${notes}`;
    if (keepRows) band.el.querySelector('g.rows').replaceWith(keepRows);
    band.rowsKey = rowsKey;
    band.el.querySelector('.band-head').addEventListener('click', () => {
      this.stopReplay();
      this.follow = i === this.bands.length - 1;
      this.select(i);
    });
  }

  /** A row's words beside its extent [min, max of `keys`], or over it (with a halo). */
  #label(from, y, text, keys, cls = 'lbl') {
    if (!text) return '';
    const xs = keys.map((k) => this.#x(k));
    const lo = Math.min(...xs);
    const hi = Math.max(...xs);
    const tw = text.length * 6.4; // 10 px monospace
    if (hi + 10 + tw <= this.#width) return `<text class="${cls}" x="${hi + 10}" y="${y + 4}">${esc(text)}</text>`;
    if (lo - 10 - tw >= 0) return `<text class="${cls}" x="${lo - 10}" y="${y + 4}" text-anchor="end">${esc(text)}</text>`;
    const x = Math.min(this.#x(from) + 8, Math.max(2, this.#width - tw - 2));
    return `<text class="${cls} halo" x="${x}" y="${y - 7}">${esc(text)}</text>`;
  }
}
