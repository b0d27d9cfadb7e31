// An in-process network of `Party` objects for the JS tests, with the semantics of the
// Rust simulator (`party::sim`): every round, each unfinished party steps, in increasing id
// order, on what was sent to it in the previous round — a broadcast reaches every other party
// of the run, a direct message its recipient — and a party that answers `MISSING_MESSAGE`
// waits for the next round. `sent(from, outgoing)` sees every post in the simulator's order
// (the starts as given, then round by round by increasing id), which is the order the
// known-answer vectors hash. Not part of the package.

/** Is `e` the party layer's "still waiting for a message, step again" error? */
export function isWaiting(e) {
  return e?.name === 'QuasarError' && e.code === 'MISSING_MESSAGE' && e.module === 'party';
}

/**
 * Runs `parties` (an array of Party) to the end. `tamper(envelope)` may return a list of
 * envelopes to deliver instead (`{ from, to, channel, bytes }`); `onSent(from, outgoing)` is
 * called for every post, in order. Returns `{ outcomes: Map<id, outcome>, errors: Map<id,
 * Error>, rounds, sent }`.
 */
export function run(parties, { tamper, onSent, maxRounds = 16 } = {}) {
  const live = new Map([...parties].sort((a, b) => a.id - b.id).map((p) => [p.id, p]));
  const ids = [...live.keys()];
  const outcomes = new Map();
  const errors = new Map();
  let sent = parties.map((p) => ({ from: p.id, outgoing: p.start.outgoing }));
  if (onSent) for (const s of sent) onSent(s.from, s.outgoing);
  let rounds = 0;
  let total = 0;
  while (live.size && rounds < maxRounds) {
    let envelopes = [];
    for (const { from, outgoing } of sent) {
      if (outgoing.broadcast) for (const to of ids) if (to !== from) envelopes.push({ from, to, channel: 'broadcast', bytes: outgoing.broadcast });
      for (const d of outgoing.direct) envelopes.push({ from, to: d.to, channel: 'direct', bytes: d.bytes });
    }
    if (tamper) envelopes = envelopes.flatMap((e) => tamper(e, rounds) ?? [e]);
    total += envelopes.length;
    if (!envelopes.length && rounds > 0) break;
    rounds += 1;
    sent = [];
    for (const [id, p] of [...live]) {
      const inbox = envelopes.filter((e) => e.to === id).map((e) => ({ from: e.from, bytes: e.bytes }));
      try {
        const r = p.step(inbox);
        sent.push({ from: id, outgoing: r.outgoing });
        if (onSent) onSent(id, r.outgoing);
        if (r.done) {
          outcomes.set(id, r.outcome);
          live.delete(id);
        }
      } catch (e) {
        if (isWaiting(e)) continue;
        errors.set(id, e);
        live.delete(id);
      }
    }
  }
  for (const id of live.keys()) errors.set(id, new Error(`party ${id} did not finish`));
  return { outcomes, errors, rounds, sent: total };
}

/** 32 bytes from a label (deterministic test sessions). */
export function label32(label) {
  const out = new Uint8Array(32);
  const b = new TextEncoder().encode(label);
  out.set(b.subarray(0, 32));
  return out;
}
