// The live views' DOM writes, batched into few frames.
//
//   const frames = new Frames(120);
//   frames.queue(() => drawRow(r));            // runs in order with the other jobs
//   frames.queue(() => drawProgress(), 'bar'); // keyed: queued once, however often asked
//   frames.flush();                            // now (an action's end, before the DOM is read)
//
// While a run goes, the workers report dozens of steps a second and every round starts and
// ends within ~100 ms at K = 64. A DOM write per report costs a frame each time: style,
// layout, paint and raster (in software, in headless Chromium), on the page's thread and its
// raster threads. On a machine with as many cores as workers that is CPU the parties' workers
// need. So the views change only their own state when told something, and queue the DOM work
// here: it runs in order, all of it in one animation frame, at most once every `gap` ms.

export class Frames {
  /** @param {number} gap the fewest milliseconds between two batches */
  constructor(gap) {
    this.gap = gap;
    this.jobs = new Map(); // key -> job, in the order first queued
    this.timer = null;
    this.frame = 0;
    this.last = -Infinity;
    this.flushing = false;
  }

  /**
   * Run `fn` in the next batch. With a `key`, a job already queued under that key keeps its
   * place and `fn` replaces it. A job may queue more jobs: they run in the same batch.
   */
  queue(fn, key = Symbol('job')) {
    this.jobs.set(key, fn);
    if (this.flushing || this.timer !== null || this.frame) return;
    const wait = Math.max(0, this.gap - (performance.now() - this.last));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.frame = requestAnimationFrame(() => this.flush());
    }, wait);
  }

  /** Run every queued job now, in order (a job that throws is reported; the others run). */
  flush() {
    if (this.flushing) return;
    clearTimeout(this.timer);
    cancelAnimationFrame(this.frame);
    this.timer = null;
    this.frame = 0;
    this.last = performance.now();
    this.flushing = true;
    try {
      while (this.jobs.size) {
        const [key, fn] = this.jobs.entries().next().value;
        this.jobs.delete(key);
        try {
          fn();
        } catch (err) {
          reportError(err);
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
