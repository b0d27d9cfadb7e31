// Running parties with the package's own `run()`, typed: the outcome of each party is
// typed by its factory through `of`. Type-checked by js/test/declarations.test.mjs, not run.
import { run, type Party, type RunResult } from 'quasar-pq';

/** The outcomes of a run, by party. */
export interface Outcomes {
  /** The outcome of `party` (typed by its factory). @throws if it did not finish. */
  of<O>(party: Party<O>): O;
}

export function runAll(parties: Party<unknown>[]): Outcomes {
  const r: RunResult = run(parties);
  const stuck: number[] = r.waiting;
  if (stuck.length > 0) throw new Error(`still waiting: ${stuck.join(', ')}`);
  return r;
}

export { runAll as run };

export const sid = (): Uint8Array => crypto.getRandomValues(new Uint8Array(32));
