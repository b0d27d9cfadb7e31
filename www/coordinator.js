// The network between the parties: a router that moves bytes, and counts them.
//
// Parties live in workers (www/party-worker.js); this module lives on the page. It never
// looks inside a message: a party's step returns `outgoing = { broadcast?, direct: [{ to,
// bytes }] }`; the router puts a broadcast in the inbox of every other party of the run and a
// direct message in its recipient's, and hands an inbox over, as one postMessage per worker
// with the buffers transferred, when its owner next steps. Nothing else crosses: no shared
// memory, no shortcuts, so the same parties could sit in other processes or hosts.
//
// `run()` is the one generic driver (the semantics of the Rust simulator, `party::sim`):
// every round, each unfinished party of the run steps on what was sent to it in the previous
// round; a party whose step result is `waiting` sends nothing and steps again next round;
// the run ends when every party is done (or failed) or nothing is in flight. (The same loop
// as the package's `run()`; here each step is a message to a worker.)

/** Wire accounting of one round. */
export class RoundStats {
  constructor(phase, name, actors) {
    this.phase = phase;
    this.name = name;
    this.actors = actors; // number of entities that ran this step
    this.messages = 0; // messages sent (a broadcast counts once)
    this.broadcasts = 0;
    this.direct = 0;
    this.bytesSent = 0; // payload bytes, each message once
    this.bytesDelivered = 0; // payload bytes times recipients
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
  constructor(pool, { onRoundStart, onStepStart, onProgress, onRoundEnd } = {}) {
    this.pool = pool;
    this.onRoundEnd = onRoundEnd ?? (() => {});
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
   * Place entities (parties, a combiner, a coordinator) in the workers, round-robin
   * (`worker` in a spec pins one). An entity keeps its key share between runs.
   * @param {{ key: any, role: string, worker?: number }[]} specs
   */
  spawn(specs) {
    for (const s of specs) {
      if (this.placement.has(s.key)) throw new Error(`entity ${String(s.key)} exists already`);
      const w = s.worker ?? this.nextWorker++ % this.pool.size;
      this.placement.set(s.key, w);
      this.roles.set(s.key, s.role);
      this.inbox.set(s.key, []);
    }
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
   * Run parties to the end. `parties`: `[{ key, factory, params }]` (a package factory and its
   * public parameters; `share: true` = the entity's own key share). Broadcasts reach every
   * other party of the run plus `observers`. Resolves with `{ outcomes: Map, errors: Map,
   * starts: Map }` (errors: the failed starts and steps, with codes and culprits).
   */
  async run({ phase, parties, observers = [] }) {
    const outcomes = new Map();
    const errors = new Map();
    const starts = new Map();
    const keys = parties.map((p) => p.key);
    for (const p of parties) if (!this.placement.has(p.key)) throw new Error(`no entity ${String(p.key)}`);
    // Parties whose params are a function start second, with the first ones' public start
    // data (a Pulsar combiner's session for its signers).
    const startBatch = async (list) => {
      const groups = new Map();
      for (const p of list) {
        const w = this.placement.get(p.key);
        if (!groups.has(w)) groups.set(w, []);
        groups.get(w).push({ key: p.key, factory: p.factory, params: typeof p.params === 'function' ? p.params(starts) : p.params });
      }
      const rs = await Promise.all([...groups].map(([w, specs]) => this.pool.call(w, { op: 'start', specs })));
      for (const r of rs) for (const s of r.results) if (s.ok) starts.set(s.key, s);
      return rs;
    };
    const replies = [
      ...(await startBatch(parties.filter((p) => typeof p.params !== 'function'))),
      ...(await startBatch(parties.filter((p) => typeof p.params === 'function'))),
    ];
    let sent = [];
    const live = new Set();
    let roundName = 'start';
    for (const r of replies) {
      for (const s of r.results) {
        if (!s.ok) {
          errors.set(s.key, s.error);
          continue;
        }
        live.add(s.key);
        sent.push({ from: s.key, outgoing: s.outgoing });
        if (s.round) roundName = `round ${s.round.number}: ${s.round.name}`;
      }
    }
    if (errors.size) return { outcomes, errors, starts };
    const audience = [...keys, ...observers];
    for (let tick = 0; live.size && tick < 16; tick++) {
      const stats = new RoundStats(phase, roundName, live.size);
      for (const { from, outgoing } of sent) this.#post(from, outgoing, audience, stats);
      if (tick > 0 && stats.messages === 0) break;
      const r = await this.#round(phase, roundName, [...live], stats);
      sent = [];
      for (const s of r) {
        if (!s.ok) {
          errors.set(s.key, s.error);
          stats.errors.set(s.key, s.error);
          live.delete(s.key);
          continue;
        }
        if (s.waiting) continue;
        sent.push({ from: s.key, outgoing: s.outgoing });
        if (s.done) {
          outcomes.set(s.key, s.outcome);
          live.delete(s.key);
        } else if (s.round) {
          roundName = `round ${s.round.number}: ${s.round.name}`;
        }
      }
      this.rounds.push(stats);
      this.onRoundEnd(stats);
    }
    // The last messages (a signer's envelope, a combiner's announcement) reach observers.
    for (const { from, outgoing } of sent) this.#post(from, outgoing, audience, new RoundStats(phase, 'last', 0));
    if (live.size) {
      await Promise.all([...new Set([...live].map((k) => this.placement.get(k)))].map((w) => this.pool.call(w, { op: 'stop', keys: [...live].filter((k) => this.placement.get(k) === w) })));
      for (const k of live) errors.set(k, { name: 'Error', message: `party ${k} still waits for a message that never came`, culprits: [] });
    }
    return { outcomes, errors, starts, waiting: [...live] };
  }

  /** Take the messages waiting for `key` (e.g. an announcement an observer received). */
  takeInbox(key) {
    const list = this.inbox.get(key) ?? [];
    this.inbox.set(key, []);
    return list;
  }

  async #round(phase, name, actors, stats) {
    const token = `${this.rounds.length}:${phase}/${name}`;
    stats.token = token;
    this.current = { phase, round: name, done: 0, total: actors.length, token };
    this.onRoundStart({ ...this.current, actors });
    const byWorker = new Map();
    for (const key of actors) {
      const w = this.placement.get(key);
      if (!byWorker.has(w)) byWorker.set(w, []);
      byWorker.get(w).push(key);
    }
    const t0 = performance.now();
    const calls = [];
    for (const [w, keys] of byWorker) {
      const steps = [];
      const buffers = new Set();
      for (const key of keys) {
        const inbox = this.takeInbox(key);
        const pp = this.#party(key);
        for (const m of inbox) {
          this.#release(m.bytes.buffer);
          buffers.add(m.bytes.buffer);
          pp.recvMsgs += 1;
          pp.recvBytes += m.bytes.length;
        }
        steps.push({ key, inbox: inbox.map((m) => ({ from: m.from, bytes: m.bytes })) });
      }
      // A buffer another party on this worker still waits for is copied, not moved.
      for (const b of buffers) if (this.refs.has(b)) buffers.delete(b);
      calls.push(this.pool.call(w, { op: 'step', token, steps }, [...buffers]));
    }
    const replies = (await Promise.all(calls)).flatMap((r) => r.steps);
    stats.wallMs = performance.now() - t0;
    this.current = null;
    for (const s of replies) stats.partyMs.set(s.key, s.ms);
    return replies;
  }

  #post(from, outgoing, audience, stats) {
    if (!outgoing) return;
    if (outgoing.broadcast) this.#route(from, outgoing.broadcast, audience.filter((k) => k !== from), stats, true);
    for (const d of outgoing.direct) this.#route(from, d.bytes, [d.to], stats, false);
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

  #route(from, payload, recipients, stats, broadcast) {
    const bytes = ownBuffer(payload);
    if (broadcast) stats.broadcasts += 1;
    else stats.direct += 1;
    stats.messages += 1;
    stats.bytesSent += bytes.length;
    const pp = this.#party(from);
    pp.sentMsgs += 1;
    pp.sentBytes += bytes.length;
    // One copy per destination worker; the parties of one worker share it (read-only).
    const copies = new Map();
    let originalUsed = false;
    for (const to of recipients) {
      const w = this.placement.get(to);
      if (w === undefined) continue; // not (or no longer) in the pool: the network drops it
      let copy = copies.get(w);
      if (!copy) {
        copy = originalUsed ? bytes.slice() : bytes;
        originalUsed = true;
        copies.set(w, copy);
      }
      this.#hold(copy.buffer);
      this.inbox.get(to).push({ from, bytes: copy });
      stats.bytesDelivered += bytes.length;
    }
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
