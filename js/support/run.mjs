// The tests' view of the package's `run()` (js/run.js: the Rust simulator's semantics
// and message order, so `onSent(from, outgoing)` sees every post in the order the
// known-answer vectors hash). A party still waiting when the run ends is also listed in
// `errors` here, so a test asserting on `errors` sees it. Not part of the package.
import { run as runParties } from '../run.js';

/**
 * Runs `parties` (an array of Party) to the end with the package's `run()` (options
 * `tamper`, `onSent`, `maxRounds`). Returns its result; `errors` also names the parties that
 * did not finish.
 */
export function run(parties, opts) {
  const r = runParties(parties, opts);
  for (const id of r.waiting) r.errors.set(id, new Error(`party ${id} did not finish`));
  return r;
}

/** 32 bytes from a label (deterministic test sessions). */
export function label32(label) {
  const out = new Uint8Array(32);
  const b = new TextEncoder().encode(label);
  out.set(b.subarray(0, 32));
  return out;
}
