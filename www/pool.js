// A pool of Web Workers, each with its own WebAssembly instance (www/party-worker.js).
//
// The pool only moves messages: request/response by id, plus unsolicited events (progress)
// forwarded to `onEvent`. It does no cryptography and keeps no protocol state.

const WORKER_URL = new URL('./party-worker.js', import.meta.url);

/** Default pool size: one worker per logical core the browser reports (at least 1). */
export function defaultPoolSize() {
  const hc = Number(globalThis.navigator?.hardwareConcurrency) || 2;
  return Math.max(1, Math.min(hc, 64));
}

/** The error a worker reported, rebuilt on this side with its name, code and culprits. */
export class WorkerError extends Error {
  constructor(info, worker) {
    super(info?.message ?? 'worker error');
    this.name = info?.name || 'WorkerError';
    this.code = info?.code;
    this.culprits = info?.culprits ?? [];
    this.party = info?.party;
    this.worker = worker;
    if (info?.stack) this.workerStack = info.stack;
  }
}

export class WorkerPool {
  /**
   * @param {number} size number of workers
   * @param {{ onEvent?: (worker: number, event: object) => void }} [opts]
   */
  constructor(size, { onEvent } = {}) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`pool size must be a positive integer, got ${size}`);
    this.size = size;
    this.onEvent = onEvent ?? (() => {});
    this.nextId = 1;
    this.pending = new Map(); // id -> { resolve, reject, worker }
    this.workers = [];
    this.dead = null;
    for (let i = 0; i < size; i++) {
      const w = new Worker(WORKER_URL, { type: 'module', name: `quasar-party-worker-${i}` });
      w.onmessage = (e) => this.#onMessage(i, e.data);
      w.onerror = (e) => {
        e.preventDefault?.();
        this.#fail(new Error(`worker ${i} crashed: ${e.message || 'unknown error'} (${e.filename ?? '?'}:${e.lineno ?? '?'})`));
      };
      w.onmessageerror = () => this.#fail(new Error(`worker ${i}: a message could not be deserialised`));
      this.workers.push(w);
    }
  }

  /** Wait until every worker has instantiated its WebAssembly module. Returns per-worker init times. */
  async ready() {
    return Promise.all(this.workers.map((_, i) => this.call(i, { op: 'init' })));
  }

  /**
   * Send one request to worker `i`. `transfer` lists ArrayBuffers to move (not copy).
   * Resolves with the worker's result; rejects with a WorkerError.
   */
  call(i, msg, transfer = []) {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, worker: i });
      try {
        this.workers[i].postMessage({ ...msg, id }, transfer);
      } catch (err) {
        this.pending.delete(id);
        reject(err);
      }
    });
  }

  /** Stop every worker; pending calls reject. */
  terminate() {
    for (const w of this.workers) w.terminate();
    this.#fail(new Error('the worker pool was stopped'));
    this.workers = [];
  }

  #onMessage(worker, data) {
    if (data && data.event) {
      this.onEvent(worker, data);
      return;
    }
    const p = this.pending.get(data?.id);
    if (!p) return;
    this.pending.delete(data.id);
    if (data.ok) p.resolve(data.result);
    else p.reject(new WorkerError(data.error, worker));
  }

  #fail(err) {
    this.dead = this.dead ?? err;
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(err);
    }
  }
}
