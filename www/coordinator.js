// The network between the parties: a router that moves bytes, and counts them.
//
// Parties live in workers (www/party-worker.js); this module lives on the page. It never
// looks inside a message: a party's step returns `outgoing = { broadcast?, direct: [{ to,
// bytes }] }`; the router puts a broadcast in the inbox of every other party of the run and a
// direct message in its recipient's, and hands an inbox over, as one postMessage per worker
// with the buffers transferred, when its owner next steps. Nothing else crosses: no shared
// memory, no shortcuts, so the same parties could sit in other processes or hosts.
//
// `run()` only routes: every round, each unfinished party of the run steps on what was sent
// to it in the previous round (the semantics of the Rust simulator, `party::sim`, and of the
// package's `run()`; here each step is a message to a worker, and the parties of a round step
// in parallel across the workers); a party whose step result is `waiting` sends nothing and
// steps again next round; the run ends when every party is done (or failed) or nothing is in
// flight. What the parties do — which protocol follows which, who keeps which share — is the
// library's lifecycle parties' business; the router never looks inside a message.
//
// The trace: each round's `RoundStats` also keeps what the router saw — every message routed
// into the round (sender, recipients, size, and the round its sender had just run, by the
// sender's own name for it), who stepped, who finished, waited or failed, and every party a
// step named (a failed step's culprits, a finished party's `dropped` list and outcome
// `blame`). The page draws the story from it (www/story.js); nothing in it comes from inside
// a message.

/** The most rounds a run takes (the Rust simulator's `MAX_ROUNDS`). */
const MAX_ROUNDS = 64;

/** The name of a round: the distinct round names its parties report ("DKG · await sharing"). */
function roundName(list) {
  const names = [...new Set(list.filter(Boolean).map((r) => r.name))];
  return names.length ? names.join(' · ') : 'finish';
}

/** Wire accounting of one round. */
export class RoundStats {
  constructor(phase, name, actors) {
    this.phase = phase;
    this.name = name;
    this.actors = actors; // number of entities that ran this step
    this.messages = 0; // messages sent (a broadcast counts once)
    this.broadcasts = 0;
    this.bytesSent = 0; // payload bytes, each message once
    this.bytesDelivered = 0; // payload bytes times recipients
    this.wallMs = 0; // page-side wall clock of the round (dispatch → last reply)
    this.partyMs = new Map(); // key -> ms measured inside the worker, per party
    this.errors = new Map(); // key -> error info, for steps that failed
    // The trace (see the module doc).
    this.sends = []; // { from, to: key[], bytes, broadcast, sentIn }
    this.stepped = []; // keys that stepped this round
    this.finished = []; // keys whose step finished them
    this.waited = []; // keys whose step returned `waiting`
    this.named = []; // { by, party, code, reason, how: 'error' | 'dropped' | 'blame' }
    this.run = 0; // which `Network.run` call this round belongs to
    this.label = ''; // that call's label (the caller's words: "signers P1–P5")
    this.names = new Map(); // key -> the round it ran, by its own name
  }
}

/** The parties a step result names: a failure's culprits, a finished party's drops and blame. */
function namedBy(key, s) {
  return namedIn(key, s).filter((n) => n.party !== key); // a party's word about itself is no blame
}

function namedIn(key, s) {
  const out = [];
  if (!s.ok) {
    const why = new Map((s.error?.blame ?? []).map((b) => [b.party, b]));
    const parties = new Set([...(s.error?.culprits ?? []), ...why.keys()]);
    for (const p of parties) out.push({ by: key, party: p, code: why.get(p)?.code ?? s.error?.code, reason: why.get(p)?.reason ?? s.error?.message, how: 'error' });
    return out;
  }
  for (const d of s.dropped ?? []) out.push({ by: key, party: d.party, code: d.code, reason: d.reason, how: 'dropped' });
  for (const b of (s.done && Array.isArray(s.outcome?.blame) ? s.outcome.blame : [])) {
    if (!out.some((o) => o.party === b.party && o.code === b.code)) out.push({ by: key, party: b.party, code: b.code, reason: b.reason, how: 'blame' });
  }
  return out;
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
   *   onRoundStart?: (r: {phase: string, round: string, names: Map<any, string>, total: number, token: string, actors: any[]}) => void,
   *   onStepStart?: (p: {phase: string, round: string, token: string, key: any}) => void,
   *   onProgress?: (p: {phase: string, round: string, done: number, total: number, token: string, key: any, ms: number, ok: boolean, end: number}) => void,
   *   scope?: string,
   * }} [opts] `scope`: the workers' namespace for this network's entities (a tab's own, so
   *   two tabs' party 3 are two entities); '' by default.
   */
  constructor(pool, { onRoundStart, onStepStart, onProgress, onRoundEnd, scope = '' } = {}) {
    this.pool = pool;
    this.scope = scope; // the workers keep this network's entities apart from other tabs'
    this.onRoundEnd = onRoundEnd ?? (() => {});
    this.onStepStart = onStepStart ?? (() => {});
    this.onRoundStart = onRoundStart ?? (() => {});
    this.onProgress = onProgress ?? (() => {});
    this.placement = new Map(); // key -> worker index
    this.inbox = new Map(); // key -> [{ from, channel, tag, bytes }]
    this.refs = new Map(); // ArrayBuffer -> number of inbox entries still holding it
    this.nextWorker = 0;
    this.rounds = []; // RoundStats, in order
    this.runs = 0; // `run` calls so far
    this.current = null; // the round running: { phase, round, names, done, total, token, reported }
  }

  /** Called by the pool's onEvent hook: a worker's progress, in batches (www/party-worker.js). */
  handleEvent(worker, ev) {
    if (ev.event !== 'steps' || !this.current || ev.token !== this.current.token) return;
    for (const d of ev.done) this.#progress(d);
    if (ev.running !== undefined) this.onStepStart({ ...this.current, key: ev.running });
  }

  /** One party's step ended (`at`: when, as epoch milliseconds; the page's own clock). */
  #progress({ key, ms, ok, at }) {
    if (this.current.reported.has(key)) return;
    this.current.reported.add(key);
    this.current.done += 1;
    this.onProgress({ ...this.current, key, ms, ok, end: at - performance.timeOrigin });
  }

  /**
   * Place entities (parties, a combiner, a coordinator) in the workers, round-robin
   * (`worker` in a spec pins one). An entity keeps its keyring between runs.
   * @param {{ key: any, role: string, worker?: number }[]} specs
   */
  spawn(specs) {
    for (const s of specs) {
      if (this.placement.has(s.key)) throw new Error(`entity ${String(s.key)} exists already`);
      const w = s.worker ?? this.nextWorker++ % this.pool.size;
      this.placement.set(s.key, w);
      this.inbox.set(s.key, []);
    }
  }

  /** Remove entities from their workers (their secrets go with them). */
  async drop(keys) {
    const byWorker = this.#byWorker(keys.filter((k) => this.placement.has(k)));
    for (const k of keys) {
      this.placement.delete(k);
      for (const m of this.inbox.get(k) ?? []) this.#release(m.bytes.buffer);
      this.inbox.delete(k);
    }
    await Promise.all([...byWorker].map(([w, list]) => this.pool.call(w, { op: 'drop', scope: this.scope, keys: list })));
  }

  /** `items` (keys, or objects with a `key`) grouped by the worker that hosts them. */
  #byWorker(items) {
    const out = new Map();
    for (const it of items) {
      const w = this.placement.get(typeof it === 'object' ? it.key : it);
      if (!out.has(w)) out.set(w, []);
      out.get(w).push(it);
    }
    return out;
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
   * Run parties to the end: route their bytes round by round until every party is done.
   * `parties`: `[{ key, factory, params }]` (a package factory and its public parameters; see
   * www/party-worker.js). A broadcast reaches every other party of the run. Resolves with
   * `{ outcomes: Map, errors: Map, waiting: [], started: Map }` (errors: the failed starts and
   * steps, with codes and culprits; waiting: parties still waiting when nothing was left in
   * flight; started: key -> ms of its party's start, measured inside its worker).
   * `label` names this run in the trace.
   */
  async run({ phase, parties, label = '' }) {
    const runIndex = ++this.runs;
    const outcomes = new Map();
    const errors = new Map();
    const started = new Map();
    const keys = parties.map((p) => p.key);
    for (const k of keys) if (!this.placement.has(k)) throw new Error(`no entity ${String(k)}`);
    const live = new Set();
    const rounds = new Map(); // key -> the round its next step runs, as the party names it
    let sent = [];
    const byWorker = this.#byWorker(parties.map(({ key, factory, params }) => ({ key, factory, params })));
    const replies = await Promise.all([...byWorker].map(([w, specs]) => this.pool.call(w, { op: 'start', scope: this.scope, specs })));
    for (const s of replies.flatMap((r) => r.results)) {
      if (s.ms !== undefined) started.set(s.key, s.ms);
      if (!s.ok) {
        errors.set(s.key, s.error);
        continue;
      }
      live.add(s.key);
      rounds.set(s.key, s.round);
      sent.push({ from: s.key, outgoing: s.outgoing, sentIn: 'start' });
    }
    if (errors.size) {
      await this.#stop([...live]);
      return { outcomes, errors, waiting: [], started };
    }
    for (let tick = 0; live.size && tick < MAX_ROUNDS; tick++) {
      const stats = new RoundStats(phase, roundName([...live].map((k) => rounds.get(k))), live.size);
      stats.run = runIndex;
      stats.label = label;
      stats.stepped = [...live];
      for (const { from, outgoing, sentIn } of sent) this.#post(from, outgoing, keys, stats, sentIn);
      if (tick > 0 && stats.messages === 0) break; // nothing in flight: the rest would wait forever
      const r = await this.#round(phase, stats.name, [...live], stats, new Map([...live].map((k) => [k, rounds.get(k)?.name ?? 'finish'])));
      sent = [];
      for (const s of r) {
        stats.named.push(...namedBy(s.key, s));
        if (!s.ok) {
          errors.set(s.key, s.error);
          stats.errors.set(s.key, s.error);
          live.delete(s.key);
          continue;
        }
        if (s.waiting) {
          stats.waited.push(s.key);
          continue;
        }
        sent.push({ from: s.key, outgoing: s.outgoing, sentIn: rounds.get(s.key)?.name ?? 'finish' });
        if (s.done) {
          stats.finished.push(s.key);
          outcomes.set(s.key, s.outcome);
          live.delete(s.key);
        } else {
          rounds.set(s.key, s.round);
        }
      }
      this.rounds.push(stats);
      this.onRoundEnd(stats);
    }
    const waiting = [...live];
    await this.#stop(waiting);
    return { outcomes, errors, waiting, started };
  }

  /** Free the parties of `keys` in their workers (their keyrings stay). */
  async #stop(keys) {
    await Promise.all([...this.#byWorker(keys)].map(([w, list]) => this.pool.call(w, { op: 'stop', scope: this.scope, keys: list })));
  }

  /** Take the messages waiting for `key`. */
  takeInbox(key) {
    const list = this.inbox.get(key) ?? [];
    this.inbox.set(key, []);
    return list;
  }

  async #round(phase, name, actors, stats, names) {
    const token = `${this.rounds.length}:${phase}/${name}`;
    stats.token = token;
    stats.names = names;
    this.current = { phase, round: name, names, done: 0, total: actors.length, token, reported: new Set() };
    this.onRoundStart({ ...this.current, actors, stats });
    const byWorker = this.#byWorker(actors);
    const t0 = performance.now();
    const calls = [];
    for (const [w, keys] of byWorker) {
      const steps = [];
      const buffers = new Set();
      for (const key of keys) {
        const inbox = this.takeInbox(key);
        for (const m of inbox) {
          this.#release(m.bytes.buffer);
          buffers.add(m.bytes.buffer);
        }
        steps.push({ key, inbox: inbox.map((m) => ({ from: m.from, bytes: m.bytes })) });
      }
      // A buffer another party on this worker still waits for is copied, not moved.
      for (const b of buffers) if (this.refs.has(b)) buffers.delete(b);
      calls.push(this.pool.call(w, { op: 'step', scope: this.scope, token, steps }, [...buffers]));
    }
    const replies = (await Promise.all(calls)).flatMap((r) => r.steps);
    stats.wallMs = performance.now() - t0;
    for (const s of replies) this.#progress(s); // the steps no event reported
    this.current = null;
    for (const s of replies) stats.partyMs.set(s.key, s.ms);
    return replies;
  }

  #post(from, outgoing, audience, stats, sentIn) {
    if (!outgoing) return;
    if (outgoing.broadcast) this.#route(from, outgoing.broadcast, audience.filter((k) => k !== from), stats, true, sentIn);
    for (const d of outgoing.direct) this.#route(from, d.bytes, [d.to], stats, false, sentIn);
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

  #route(from, payload, recipients, stats, broadcast, sentIn) {
    const bytes = ownBuffer(payload);
    if (broadcast) stats.broadcasts += 1;
    stats.messages += 1;
    stats.bytesSent += bytes.length;
    stats.sends.push({ from, to: recipients.filter((k) => this.placement.has(k)), bytes: bytes.length, broadcast, sentIn });
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
}
