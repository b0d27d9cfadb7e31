// How long a test waits before it calls something a hang, on this machine, now.
//
// No wall-clock limit may decide a verdict: a machine busy with other builds makes the suite
// slower, never red. So every wait in the Node and browser tests is a *ceiling* for a real hang,
// not a speed check: minutes, multiplied by how slow this machine is at the moment the suite
// starts. The multiplier comes from a calibration: a fixed CPU workload (SHA-256 over a 1 MiB
// buffer, chained, via node:crypto) timed once, divided by what the same work takes on an idle
// 2-core CI VM (~60 ms), clamped to [1, 20]. A busy machine measures slow and gets more time; a
// fast one keeps the base ceilings. `QUASAR_PATIENCE=<factor>` overrides the calibration.

import { createHash } from 'node:crypto';

/** What the calibration workload takes on an idle 2-core CI VM, in ms. */
const IDLE_MS = 60;

function calibrate() {
  const forced = Number(process.env.QUASAR_PATIENCE);
  if (Number.isFinite(forced) && forced > 0) return forced;
  const block = Buffer.alloc(1 << 20, 0x5a);
  const t0 = performance.now();
  let digest = Buffer.alloc(32);
  for (let i = 0; i < 64; i += 1) digest = createHash('sha256').update(digest).update(block).digest();
  const ms = performance.now() - t0;
  return Math.min(20, Math.max(1, ms / IDLE_MS));
}

/** This machine's slowness now, ≥ 1 (1 = an idle CI VM or faster). */
export const SLOWNESS = calibrate();

/** A ceiling of `seconds` on an idle machine, in ms, scaled by {@link SLOWNESS}. */
export function patience(seconds) {
  return Math.round(seconds * 1000 * SLOWNESS);
}

/**
 * This machine's slowness measured again now (the same calibration), for a budget that must
 * follow the load while a long suite runs, such as the browser tests' long-task budget.
 */
export function slownessNow() {
  return calibrate();
}
