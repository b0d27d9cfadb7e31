// The threshold tab's timeline plot: one row per party, time going right, a bar for every
// step a party ran, coloured by phase (key ceremony, signing, reshare). A step's length is
// measured inside its worker; where it sits is the page's clock when the worker reported it.
// Idle time between actions (a learner reading the page) is cut out: each phase gets its own
// window, side by side, as wide as its share of the time spent (at least a sliver).
//
//   const tl = new Timeline(root, { nameOf, isService });
//   tl.reset();
//   tl.step({ key, phase, seq, ms, end });   // a step finished (end: on the page's performance.now() clock)
//   tl.render(keys);                          // redraw (the caller throttles)

import { fmtMs } from './util.js';

const GUTTER = 64; // row labels
const HEAD = 30; // phase names and times
const MIN_PHASE = 26;
const GAP = 8;

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** The colour family of a phase, by its name. */
function phaseClass(name) {
  if (name.startsWith('Key')) return 'ph-key';
  if (name.startsWith('Reshare')) return 'ph-reshare';
  return 'ph-sign';
}

export class Timeline {
  constructor(root, { nameOf, isService }) {
    this.root = root;
    this.nameOf = nameOf;
    this.isService = isService;
    // The width, as the layout reports it (reading it here would force a layout per render).
    this.width = root.clientWidth || 600;
    new ResizeObserver((entries) => {
      const w = Math.round(entries.at(-1).contentRect.width);
      if (!w || w === this.width) return;
      this.width = w;
      if (this.steps.length) this.render(this.keys);
    }).observe(root);
    this.reset();
  }

  reset() {
    this.steps = [];
    this.root.textContent = '';
    this.root.dataset.steps = '0';
  }

  step(s) {
    this.steps.push(s);
  }

  render(keys) {
    this.keys = keys;
    const steps = this.steps;
    this.root.dataset.steps = String(steps.length);
    if (!steps.length) {
      this.root.textContent = '';
      return;
    }
    const rows = [...new Set(steps.map((s) => s.key))].sort((a, b) => (this.isService(a) - this.isService(b)) || a - b);
    const order = keys?.length ? rows.sort((a, b) => keys.indexOf(a) - keys.indexOf(b)) : rows;
    // One window per phase occurrence, in time order.
    const phases = new Map();
    for (const s of steps) {
      const p = phases.get(s.seq) ?? { name: s.phase, t0: Infinity, t1: -Infinity, busy: 0 };
      p.t0 = Math.min(p.t0, s.end - s.ms);
      p.t1 = Math.max(p.t1, s.end);
      p.busy += s.ms;
      phases.set(s.seq, p);
    }
    const list = [...phases.entries()].sort((a, b) => a[1].t0 - b[1].t0);
    const width = Math.max(300, this.width);
    const plot = width - GUTTER - 4 - GAP * (list.length - 1);
    const total = list.reduce((a, [, p]) => a + (p.t1 - p.t0), 0) || 1;
    const spare = Math.max(0, plot - MIN_PHASE * list.length);
    let x = GUTTER;
    for (const [, p] of list) {
      p.x = x;
      p.w = MIN_PHASE + (spare * (p.t1 - p.t0)) / total;
      p.scale = p.w / Math.max(p.t1 - p.t0, 1e-3);
      x += p.w + GAP;
    }
    const rowH = Math.max(6, Math.min(16, Math.floor(420 / order.length)));
    const height = HEAD + rowH * order.length + 4;
    const out = [];
    for (const [, p] of list) {
      const label = `${p.name} · ${fmtMs(p.t1 - p.t0)}`;
      const fit = Math.floor(p.w / 6.2);
      out.push(
        `<g class="phase ${phaseClass(p.name)}"><title>${esc(`${p.name}: ${fmtMs(p.t1 - p.t0)} on the page's clock, ${fmtMs(p.busy)} of steps in the workers`)}</title>` +
          `<rect class="win" x="${p.x}" y="${HEAD - 4}" width="${p.w}" height="${height - HEAD + 4}"/>` +
          (fit >= 3 ? `<text x="${p.x + 2}" y="12">${esc(label.length > fit ? `${label.slice(0, fit - 1)}…` : label)}</text>` : '') +
          `</g>`,
      );
    }
    order.forEach((k, r) => {
      const y = HEAD + r * rowH;
      if (rowH >= 10 || r % 5 === 0 || this.isService(k)) {
        const name = this.isService(k) ? this.nameOf(k).replace(/^the /, '') : `P${k}`;
        out.push(`<text class="row" x="${GUTTER - 6}" y="${y + rowH - 2}" text-anchor="end">${esc(name)}</text>`);
      }
    });
    const bars = [];
    for (const s of steps) {
      const p = phases.get(s.seq);
      const r = order.indexOf(s.key);
      const x0 = p.x + (s.end - s.ms - p.t0) * p.scale;
      const w = Math.max(1, s.ms * p.scale);
      bars.push(
        `<rect class="bar ${phaseClass(s.phase)}" x="${x0.toFixed(1)}" y="${HEAD + r * rowH + 1}" width="${w.toFixed(1)}" height="${rowH - 2}">` +
          `<title>${esc(`${this.nameOf(s.key)}, ${s.phase} › ${s.round}: ${fmtMs(s.ms)}`)}</title></rect>`,
      );
    }
    this.root.innerHTML =
      `<svg width="${width}" height="${height}" role="img" aria-label="${esc(`timeline of ${order.length} parties over ${list.length} phases`)}">` +
      `${out.join('')}${bars.join('')}</svg>`;
  }
}
