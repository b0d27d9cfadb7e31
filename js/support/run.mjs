// The tests' view of the package's `run()` (js/run.js: the Rust simulator's semantics
// and message order, so `onSent(from, outgoing)` sees every post in the order the
// known-answer vectors hash). A party still waiting when the run ends is also listed in
// `errors` here, so a test asserting on `errors` sees it. `pulsarGroup` sets up a Pulsar group
// through the custody lifecycle parties: the tests' one way to make one. Not part of the
// package.
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

/**
 * A Pulsar custody group made by the lifecycle parties (`pulsar.lifecycle.*`, of the package
 * `pulsar` belongs to) through `run()`: the tests' one way to set up a group. `members` with
 * `threshold`, the key derived at ML-DSA `level` by `combiner` from `signers` (default: the
 * first `threshold` members); the session and every party's seed come from `label` (`seeded:
 * false`: the system RNG); `cheats` maps member ids to a misbehaviour. Returns the run's
 * result (`r`, parties freed), the combiner's outcome (`record`: `keyRecord`, `groupKey`,
 * `sharing`, `announcement`, `level`, …) and every member's outcome by id (`members`, each
 * with its `keyring`, which the caller frees). Throws if the combiner made no record.
 */
export function pulsarGroup(pulsar, { label, level = 44, members, threshold, signers = members.slice(0, threshold), combiner = 9, seeded = true, cheats = {} }) {
  const setup = { session: label32(`${label}/setup`), level, members, threshold, signers };
  const seed = (id) => (seeded ? { seed: label32(`${label}/${id}`) } : {});
  const parties = [
    ...members.map((id) => pulsar.lifecycle.member.setup({ ...setup, combiner, id, ...seed(id), ...(cheats[id] ? { cheat: cheats[id] } : {}) })),
    pulsar.lifecycle.combiner.setup({ ...setup, id: combiner, ...seed(combiner) }),
  ];
  const r = run(parties);
  parties.forEach((p) => p.free());
  if (r.errors.has(combiner)) throw r.errors.get(combiner);
  const outcomes = new Map([...r.outcomes].filter(([id]) => id !== combiner));
  return { r, record: r.outcomes.get(combiner), members: outcomes };
}
