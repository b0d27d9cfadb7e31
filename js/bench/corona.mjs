// Corona in WASM, in one Node process: per party and per phase for keys 4-of-6, 14-of-21,
// 21-of-21 and 43-of-64 (the issue's sizes; K = |T| signers each time), the
// same columns as the native `cargo bench --bench corona` (R1 = the signer's start, R2 = its
// step on the other round-1 messages, Combine = its step on the round-2 messages, verifying
// before it releases; Verify = `corona.verify`), so the two read side by side. Whole sessions
// run through `run` with every signer in this thread; each phase is one signer's own time
// (signer 1; never a total ÷ K), the median over the sessions.
//
// Run: node js/bench/corona.mjs   (uses the existing pkg/; `node scripts/build-wasm.mjs` builds)
// Env: CORONA_BENCH_SESSIONS (default 3).

import os from 'node:os';

import * as full from '../index.js';
import { bytes } from '../support/bytes.mjs';

const SESSIONS = Math.max(1, Number(process.env.CORONA_BENCH_SESSIONS ?? 3));
const ms = (ns) => (Number(ns) / 1e6).toFixed(1);
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const median = (v) => [...v].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[v.length >> 1];

/** A party whose start and each step are timed into `times` (start first). */
function timed(make, times) {
  const t0 = process.hrtime.bigint();
  const p = make();
  times.push(process.hrtime.bigint() - t0);
  return {
    id: p.id,
    start: p.start,
    step(inbox) {
      const t = process.hrtime.bigint();
      try {
        return p.step(inbox);
      } finally {
        times.push(process.hrtime.bigint() - t);
      }
    },
    free: () => p.free(),
  };
}

await full.init();
console.log(`load average before: ${load()}`);
console.log(`Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores`);
console.log();
console.log('| K (key) | R1 | R2 (with preprocess) | Combine (with verify) | Verify |');
console.log('|---|---|---|---|---|');
for (const [k, n] of [[4, 6], [14, 21], [21, 21], [43, 64]]) {
  const dealt = full.corona.deal({ threshold: k, parties: n, seed: bytes(`bench/corona/${k}`, 32) });
  const shares = dealt.shares.map((s) => full.CoronaShare.fromDealer(s.keyPackage, dealt.groupKey));
  const signers = Array.from({ length: k }, (_, i) => i + 1);
  const phases = [[], [], [], []];
  // One untimed session first, so the engine has compiled the hot code optimised.
  for (let s = -1; s < SESSIONS; s++) {
    const message = new TextEncoder().encode(`block ${s}`);
    const session = bytes(`bench/corona/session/${k}/${s}`, 32);
    const times = signers.map(() => []);
    const parties = signers.map((id, i) =>
      timed(() => full.corona.signer({ share: shares[id - 1], session, signers, message, seed: bytes(`bench/corona/seed/${s}/${id}`, 32) }), times[i]),
    );
    const r = full.run(parties);
    const out = r.outcomes.get(1);
    const t = process.hrtime.bigint();
    const ok = out && full.corona.verify(dealt.groupKey, message, new Uint8Array(0), out.signature);
    const verify = process.hrtime.bigint() - t;
    if (!ok) throw new Error(`K = ${k} session ${s}: no valid signature`);
    parties.forEach((p) => p.free());
    if (s < 0) continue;
    const [r1, r2, combine] = times[0];
    phases[0].push(r1);
    phases[1].push(r2);
    phases[2].push(combine);
    phases[3].push(verify);
  }
  shares.forEach((sh) => sh.free());
  console.log(`| ${k} (${k}-of-${n}) | ${phases.map((p) => `${ms(median(p))} ms`).join(' | ')} |`);
}
console.log();
console.log(`load average after: ${load()}`);
