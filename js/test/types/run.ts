// A minimal in-process network of `Party` objects, typed: every round, each unfinished party
// steps on what the previous round sent to it; 'MISSING_MESSAGE' from module 'party' means
// "step me again next round". (js/support/run.mjs is the tests' own, with the simulator's
// message order.) Type-checked by js/test/declarations.test.mjs, not run.
import type { Incoming, Outgoing, Party, QuasarError } from 'quasar-pq';

/** The outcomes of a run, by party. */
export interface Outcomes {
  /** The outcome of `party` (typed by its factory). @throws if it did not finish. */
  of<O>(party: Party<O>): O;
}

function isWaiting(e: unknown): boolean {
  const q = e as Partial<QuasarError>;
  return q?.name === 'QuasarError' && q.code === 'MISSING_MESSAGE' && q.module === 'party';
}

export function run(parties: Party<unknown>[]): Outcomes {
  const outcomes = new Map<number, unknown>();
  let sent: { from: number; out: Outgoing }[] = parties.map((p) => ({ from: p.id, out: p.start.outgoing }));
  for (let round = 0; round < 64 && outcomes.size < parties.length; round++) {
    const inbox = (id: number): Incoming[] =>
      sent.flatMap(({ from, out }) => [
        ...(out.broadcast && from !== id ? [{ from, bytes: out.broadcast }] : []),
        ...out.direct.filter((d) => d.to === id).map((d) => ({ from, bytes: d.bytes })),
      ]);
    const next: typeof sent = [];
    for (const p of parties) {
      if (p.done) continue;
      try {
        const r = p.step(inbox(p.id));
        next.push({ from: p.id, out: r.outgoing });
        if (r.done) outcomes.set(p.id, r.outcome);
      } catch (e) {
        if (!isWaiting(e)) throw e;
      }
    }
    sent = next;
  }
  return {
    of<O>(party: Party<O>): O {
      if (!outcomes.has(party.id)) throw new Error(`party ${party.id} did not finish`);
      return outcomes.get(party.id) as O;
    },
  };
}

export const sid = (): Uint8Array => crypto.getRandomValues(new Uint8Array(32));
