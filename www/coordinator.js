// The network between the parties: a router that moves bytes, and counts them.
//
// Parties live in workers (www/party-worker.js); this module lives on the page. It never
// looks inside a message: a party's step returns envelopes `{ to, tag, bytes }` where `to` is
// a party key, a list of keys, or '*' (broadcast to the round's audience). The router puts
// each payload in the recipients' inboxes and hands an inbox over, as one postMessage per
// worker with the buffers transferred, when its owner next acts. Nothing else crosses: no
// shared memory, no shortcuts, so the same parties could sit in other processes or hosts.
//
// Rounds are synchronous (every actor of a round runs, then the next round starts), which is
// how the Rust step functions are shaped: each step takes the previous round's messages.

/** Wire accounting of one round. */
export class RoundStats {
  constructor(phase, name, actors) {
    this.phase = phase;
    this.name = name;
    this.actors = actors; // number of entities that ran this step
    this.messages = 0; // envelopes sent (a broadcast counts once)
    this.broadcasts = 0;
    this.direct = 0;
    this.bytesSent = 0; // payload bytes, each envelope once
    this.bytesDelivered = 0; // payload bytes times recipients (self-delivery excluded)
    this.wallMs = 0; // page-side wall clock of the round (dispatch → last reply)
    this.partyMs = new Map(); // key -> ms measured inside the worker, per party
    this.errors = new Map(); // key -> error info, for steps that failed
  }
}

function ownBuffer(bytes) {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('a party emitted a message that is not a Uint8Array');
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes;
  return bytes.slice();
}

export class Network {
  /**
   * @param {import('./pool.js').WorkerPool} pool
   * @param {{
   *   onRoundStart?: (r: {phase: string, round: string, total: number, token: string, actors: any[]}) => void,
   *   onProgress?: (p: {phase: string, round: string, done: number, total: number, token: string, key: any, ms: number}) => void,
   * }} [opts]
   */
  constructor(pool, { onRoundStart, onStepStart, onProgress } = {}) {
    this.pool = pool;
    this.onStepStart = onStepStart ?? (() => {});
    this.onRoundStart = onRoundStart ?? (() => {});
    this.onProgress = onProgress ?? (() => {});
    this.placement = new Map(); // key -> worker index
    this.roles = new Map(); // key -> role
    this.inbox = new Map(); // key -> [{ from, channel, tag, bytes }]
    this.refs = new Map(); // ArrayBuffer -> number of inbox entries still holding it
    this.nextWorker = 0;
    this.rounds = []; // RoundStats, in order
    this.perParty = new Map(); // key -> { sentMsgs, sentBytes, recvMsgs, recvBytes }
    this.current = null; // { phase, round, done, total }
  }

  /** Called by the pool's onEvent hook (progress from inside a worker). */
  handleEvent(worker, ev) {
    if (ev.event === 'step-start' && this.current && ev.token === this.current.token) {
      this.onStepStart({ ...this.current, key: ev.key });
      return;
    }
    if (ev.event === 'step-done' && this.current && ev.token === this.current.token) {
      this.current.done += 1;
      this.onProgress({ ...this.current, key: ev.key, ms: ev.ms, ok: ev.ok });
    }
  }

  /**
   * Create entities (parties, a combiner, a coordinator) in the workers.
   * Parties are placed round-robin; `worker` in a spec pins one.
   * @param {{ key: any, role: string, config: object, worker?: number }[]} specs
   */
  async spawn(specs) {
    const byWorker = new Map();
    for (const s of specs) {
      if (this.placement.has(s.key)) throw new Error(`entity ${String(s.key)} exists already`);
      const w = s.worker ?? this.nextWorker++ % this.pool.size;
      this.placement.set(s.key, w);
      this.roles.set(s.key, s.role);
      this.inbox.set(s.key, []);
      if (!byWorker.has(w)) byWorker.set(w, []);
      byWorker.get(w).push({ key: s.key, role: s.role, config: s.config });
    }
    await Promise.all([...byWorker].map(([w, list]) => this.pool.call(w, { op: 'spawn', entities: list })));
  }

  /** Remove entities from their workers (their secrets go with them). */
  async drop(keys) {
    const byWorker = new Map();
    for (const k of keys) {
      const w = this.placement.get(k);
      if (w === undefined) continue;
      this.placement.delete(k);
      this.roles.delete(k);
      for (const m of this.inbox.get(k) ?? []) this.#release(m.bytes.buffer);
      this.inbox.delete(k);
      if (!byWorker.has(w)) byWorker.set(w, []);
      byWorker.get(w).push(k);
    }
    await Promise.all([...byWorker].map(([w, list]) => this.pool.call(w, { op: 'drop', keys: list })));
  }

  workerOf(key) {
    return this.placement.get(key);
  }

  /** Discard undelivered messages (between independent sessions). */
  clearInboxes() {
    for (const [k, list] of this.inbox) {
      for (const m of list) this.#release(m.bytes.buffer);
      this.inbox.set(k, []);
    }
  }

  /**
   * Run one round: every actor's step runs in its worker, with the messages waiting for it.
   * @param {object} spec
   * @param {string} spec.phase      e.g. 'Key ceremony'
   * @param {string} spec.round      e.g. 'DKG round 1'
   * @param {any[]} spec.actors      keys of the entities that act
   * @param {string} spec.step       the step name the entities understand
   * @param {any[]} [spec.audience]  who a '*' broadcast reaches (default: the actors)
   * @param {(key: any) => object} [spec.input] per-actor input (small, public)
   * @returns {Promise<{ results: Map<any, any>, errors: Map<any, any>, stats: RoundStats }>}
   */
  async round({ phase, round, actors, step, audience, input }) {
    const stats = new RoundStats(phase, round, actors.length);
    const token = `${this.rounds.length}:${phase}/${round}`;
    this.current = { phase, round, done: 0, total: actors.length, token };
    stats.token = token;
    this.onRoundStart({ ...this.current, actors });
    const byWorker = new Map();
    for (const key of actors) {
      const w = this.placement.get(key);
      if (w === undefined) throw new Error(`no entity ${String(key)} to run ${round}`);
      if (!byWorker.has(w)) byWorker.set(w, []);
      byWorker.get(w).push(key);
    }
    const t0 = performance.now();
    const calls = [];
    for (const [w, keys] of byWorker) {
      const steps = [];
      const buffers = new Set();
      for (const key of keys) {
        const inbox = this.inbox.get(key) ?? [];
        this.inbox.set(key, []);
        for (const m of inbox) {
          this.#release(m.bytes.buffer);
          buffers.add(m.bytes.buffer);
          const pp = this.#party(key);
          if (m.from !== key) {
            pp.recvMsgs += 1;
            pp.recvBytes += m.bytes.length;
          }
        }
        steps.push({ key, input: input ? input(key) : undefined, inbox });
      }
      // A buffer some other party on this worker still waits for is copied, not moved.
      for (const b of buffers) if (this.refs.has(b)) buffers.delete(b);
      calls.push(
        this.pool.call(w, { op: 'step', step, phase, round, token, steps }, [...buffers]).then((r) => ({ w, r })),
      );
    }
    const replies = await Promise.all(calls);
    stats.wallMs = performance.now() - t0;
    this.current = null;

    const results = new Map();
    const errors = new Map();
    const who = audience ?? actors;
    for (const { w, r } of replies) {
      for (const s of r.steps) {
        stats.partyMs.set(s.key, s.ms);
        if (!s.ok) {
          errors.set(s.key, s.error);
          stats.errors.set(s.key, s.error);
          continue;
        }
        results.set(s.key, s.result);
        for (const env of s.out ?? []) this.#route(s.key, env, who, stats, w);
      }
    }
    this.rounds.push(stats);
    return { results, errors, stats };
  }

  #party(key) {
    let p = this.perParty.get(key);
    if (!p) {
      p = { sentMsgs: 0, sentBytes: 0, recvMsgs: 0, recvBytes: 0 };
      this.perParty.set(key, p);
    }
    return p;
  }

  #hold(buffer) {
    this.refs.set(buffer, (this.refs.get(buffer) ?? 0) + 1);
  }

  #release(buffer) {
    const n = (this.refs.get(buffer) ?? 1) - 1;
    if (n <= 0) this.refs.delete(buffer);
    else this.refs.set(buffer, n);
    return Math.max(n, 0);
  }

  #route(from, env, audience, stats, fromWorker) {
    const bytes = ownBuffer(env.bytes);
    let recipients;
    if (env.to === '*') {
      recipients = audience;
      stats.broadcasts += 1;
    } else {
      recipients = Array.isArray(env.to) ? env.to : [env.to];
      stats.direct += 1;
    }
    stats.messages += 1;
    stats.bytesSent += bytes.length;
    const pp = this.#party(from);
    pp.sentMsgs += 1;
    pp.sentBytes += bytes.length;
    // One copy per destination worker; the parties of one worker share it (read-only).
    const copies = new Map();
    let originalUsed = false;
    for (const to of recipients) {
      if (!this.placement.has(to)) throw new Error(`${String(from)} sent ${env.tag ?? 'a message'} to unknown party ${String(to)}`);
      const w = this.placement.get(to);
      let copy = copies.get(w);
      if (!copy) {
        copy = originalUsed ? bytes.slice() : bytes;
        originalUsed = true;
        copies.set(w, copy);
      }
      this.#hold(copy.buffer);
      this.inbox.get(to).push({ from, channel: env.to === '*' ? 'broadcast' : 'direct', tag: env.tag, bytes: copy });
      if (to !== from) stats.bytesDelivered += bytes.length;
    }
    void fromWorker;
  }

  /** Totals over the rounds of one phase (or all rounds). */
  totals(phase) {
    const rs = phase ? this.rounds.filter((r) => r.phase === phase) : this.rounds;
    const t = { rounds: rs.length, messages: 0, bytesSent: 0, bytesDelivered: 0, wallMs: 0 };
    for (const r of rs) {
      t.messages += r.messages;
      t.bytesSent += r.bytesSent;
      t.bytesDelivered += r.bytesDelivered;
      t.wallMs += r.wallMs;
    }
    return t;
  }
}
