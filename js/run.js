// Running protocol parties in one process: `run` and `runAsync`, the Rust simulator's loop
// (`party::sim::Network`). They take any `{ id, start, step(inbox) }`, so they serve the
// parties of every instance (the package's, a worker's proxies, the demo build's).

import { checkOpts, echo, listOf } from './common.js';
import { MAX_PARTIES, partyId } from './party.js';

/** The most rounds `run` takes before it gives up (the Rust simulator's `MAX_ROUNDS`). */
const MAX_ROUNDS = 128;
const RUN_KEYS = Object.freeze(['tamper', 'onSent', 'maxRounds']);

/** Every entry a step result names (its `dropped`, an outcome's `blame`, an error's `blame`), with who named it. */
function blameOf(by, entries, into) {
  if (entries === undefined || entries === null) return;
  for (let i = 0; i < entries.length; i++) into.push({ by, ...entries[i] });
}

/**
 * The one loop, with the semantics of the Rust simulator (`party::sim::Network`), as a
 * generator: it yields `[party, inbox]` and takes back `{ value }` (the step result) or
 * `{ error }`, so that `run` and `runAsync` share it. The starts are posted in the order
 * given (round 0); each round delivers what the previous round posted — a broadcast to every
 * other party of the run, a direct message to its recipient — through `tamper`, then steps
 * every unfinished party by increasing id on its inbox. A waiting party posts nothing and
 * steps again next round; a party that throws leaves the run. The run stops when every party
 * is done or failed, when a round posted nothing, or after `maxRounds`; what a party still
 * waiting had dropped by then (a step's `dropped` before it is done: what it reports so far)
 * joins the blame.
 */
function* network(list, o) {
  const live = new Map();
  for (let i = 0; i < list.length; i++) {
    const p = list[i];
    const id = partyId(p?.id, `parties[${i}].id`);
    if (live.has(id)) throw new RangeError(`parties[${i}]: party ${id} is in the run twice`);
    live.set(id, p);
  }
  const ids = [...live.keys()].sort((a, b) => a - b);
  const byId = new Map(ids.map((id) => [id, live.get(id)]));
  const maxRounds = o.maxRounds === undefined ? MAX_ROUNDS : o.maxRounds;
  if (typeof maxRounds !== 'number' || maxRounds % 1 !== 0 || !(maxRounds >= 1 && maxRounds <= 65535)) {
    throw new RangeError(`maxRounds must be an integer in 1..65535, got ${echo(maxRounds)}`);
  }
  const outcomes = new Map();
  const errors = new Map();
  const blame = [];
  /** Each unfinished party's last step's `dropped` (so far). */
  const droppedSoFar = new Map();
  let posts = [];
  for (let i = 0; i < list.length; i++) posts.push({ from: list[i].id, outgoing: list[i].start.outgoing });
  if (o.onSent) for (const s of posts) o.onSent(s.from, s.outgoing, 0);
  let round = 0;
  while (round < maxRounds) {
    let envelopes = [];
    for (const { from, outgoing } of posts) {
      if (outgoing.broadcast) {
        for (const to of ids) if (to !== from) envelopes.push({ round, from, to, channel: 'broadcast', bytes: outgoing.broadcast });
      }
      for (const d of outgoing.direct) envelopes.push({ round, from, to: d.to, channel: 'direct', bytes: d.bytes });
    }
    if (o.tamper) envelopes = envelopes.flatMap((e) => o.tamper(e, round) ?? [e]);
    round += 1;
    posts = [];
    for (const [id, p] of byId) {
      const inbox = envelopes.filter((e) => e.to === id).map((e) => ({ from: e.from, bytes: e.bytes }));
      const r = yield [p, inbox];
      if ('error' in r) {
        errors.set(id, r.error);
        blameOf(id, r.error?.blame, blame);
        byId.delete(id);
        continue;
      }
      const res = r.value;
      droppedSoFar.set(id, res.dropped);
      if (res.waiting) continue;
      posts.push({ from: id, outgoing: res.outgoing });
      if (o.onSent) o.onSent(id, res.outgoing, round);
      if (res.done) {
        outcomes.set(id, res.outcome);
        blameOf(id, res.dropped, blame);
        blameOf(id, res.outcome?.blame, blame);
        byId.delete(id);
      }
    }
    const inFlight = posts.some((s) => s.outgoing.broadcast !== undefined || s.outgoing.direct.length > 0);
    if (!byId.size || !inFlight) break;
  }
  const waiting = [...byId.keys()];
  for (const id of waiting) blameOf(id, droppedSoFar.get(id), blame);
  return {
    outcomes,
    errors,
    waiting,
    blame,
    rounds: round,
    of(party) {
      const id = typeof party === 'number' ? party : party?.id;
      if (outcomes.has(id)) return outcomes.get(id);
      if (errors.has(id)) throw errors.get(id);
      throw new Error(waiting.includes(id) ? `party ${id} did not finish: still waiting after round ${round}` : `party ${id} is not in the run`);
    },
  };
}

function runOpts(parties, opts) {
  const list = listOf(parties, 'parties', MAX_PARTIES);
  const o = checkOpts(opts, RUN_KEYS, 'run options');
  if (o.tamper !== undefined && typeof o.tamper !== 'function') throw new TypeError('tamper must be a function');
  if (o.onSent !== undefined && typeof o.onSent !== 'function') throw new TypeError('onSent must be a function');
  return [list, o];
}

/**
 * Runs `parties` (Party objects, or any `{ id, start, step(inbox) }`) to the end in this
 * process, as the Rust simulator does: `{ outcomes, errors, waiting, blame, rounds, of(party) }`.
 * See protocols.d.ts.
 */
export function run(parties, opts) {
  const g = network(...runOpts(parties, opts));
  let next = g.next();
  while (!next.done) {
    const [p, inbox] = next.value;
    let r;
    try {
      r = { value: p.step(inbox) };
    } catch (error) {
      r = { error };
    }
    next = g.next(r);
  }
  return next.value;
}

/**
 * As `run`, for parties whose `step` returns a promise (a party in a worker): every step is
 * awaited in turn, in the same order.
 */
export function runAsync(parties, opts) {
  // Arguments are checked now, so a caller's mistake throws here rather than rejecting later.
  const g = network(...runOpts(parties, opts));
  // The first round (every party's start, its entries checked) runs now too.
  return drive(g, g.next());
}

async function drive(g, first) {
  let next = first;
  while (!next.done) {
    const [p, inbox] = next.value;
    let r;
    try {
      r = { value: await p.step(inbox) };
    } catch (error) {
      r = { error };
    }
    next = g.next(r);
  }
  return next.value;
}
