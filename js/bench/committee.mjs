// The Pulsar committee (threshold ML-DSA, no reconstruction) in WASM, in one Node process: the
// same table as the native `cargo bench --bench committee --features sim` (keys from the
// trusted dealer, T signers of each (T, N), whole signing sessions through `run`), so the two
// can be read side by side. Per set: mean runs, the mean session (all T signers in this one
// thread, the sum of their work), the mean busiest signer's own time (what a session costs
// when each signer has its own core or machine, network excluded), that time per run (a
// session's length is random — each run succeeds with probability at least ½ — so per run is
// the figure to compare across builds and machines), and the bytes one signer sends. Every
// signature is verified with plain ML-DSA. The keys, sessions and each signer's randomness
// come from the same labels as in the native bench, so both time the very same sessions
// (the same runs and slots): their figures compare one to one.
//
// Run: node js/bench/committee.mjs [44|65|87]   (uses the existing pkg/; `npm run bench` builds)
// Env: COMMITTEE_BENCH_SESSIONS (default 20); COMMITTEE_BENCH_ALL=1 also runs the ML-DSA-65
//      and -87 sets with K > 100, as the native bench.

import os from 'node:os';

import * as full from '../index.js';
import { bytes } from '../support/bytes.mjs';

const SESSIONS = Math.max(1, Number(process.env.COMMITTEE_BENCH_SESSIONS ?? 20));
const ALL = process.env.COMMITTEE_BENCH_ALL === '1';
const FILTER = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const VERIFY = { 44: full.mlDsa44, 65: full.mlDsa65, 87: full.mlDsa87 };
const ms = (ns) => (Number(ns) / 1e6).toFixed(2);
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

/** A party whose start and steps are timed into `clock.ns`. */
function timed(make, clock) {
  const t0 = process.hrtime.bigint();
  const p = make();
  clock.ns += process.hrtime.bigint() - t0;
  return {
    id: p.id,
    start: p.start,
    step(inbox) {
      const t = process.hrtime.bigint();
      try {
        return p.step(inbox);
      } finally {
        clock.ns += process.hrtime.bigint() - t;
      }
    },
    free: () => p.free(),
  };
}

await full.init();
console.log(`load average before: ${load()}`);
console.log(`Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores`);
console.log();
console.log('| level | (T, N) | K | mean runs | session, all T signers | busiest signer | busiest signer per run | bytes sent per signer |');
console.log('|---|---|---|---|---|---|---|---|');
for (const level of [44, 65, 87]) {
  if (FILTER.length && !FILTER.some((f) => String(level).includes(f))) continue;
  for (let n = 2; n <= full.pulsar.committee.maxParties; n++) {
    for (let t = 2; t <= n; t++) {
      const members = Array.from({ length: n }, (_, i) => i + 1);
      const dealt = full.pulsar.committee.deal({ level, threshold: t, members, seed: bytes(`bench/committee/${level}/${t}/${n}`, 32) });
      if (level !== 44 && dealt.slots > 100 && !ALL) continue;
      const shares = dealt.shares.map((s) => full.PulsarCommitteeShare.fromDealer(s.dealerShare, dealt.key));
      const signers = members.slice(0, t);
      let [total, busiest, runs, sent] = [0n, 0n, 0, 0];
      // Two untimed sessions first, so the engine has compiled the hot code optimised (native
      // code needs no such warm-up).
      for (let s = -2; s < SESSIONS; s++) {
        const message = new TextEncoder().encode(`block ${s}`);
        const session = bytes(`bench/committee/session/${level}/${t}/${n}/${s}`, 32);
        const clocks = signers.map(() => ({ ns: 0n }));
        const start = process.hrtime.bigint();
        const parties = signers.map((id, i) =>
          timed(() => full.pulsar.committee.signer({ share: shares[id - 1], session, signers, message, seed: bytes(`bench/committee/seed/${s}/${id}`, 32) }), clocks[i]),
        );
        const r = full.run(parties);
        const spent = process.hrtime.bigint() - start;
        const out = r.outcomes.get(signers[0]);
        if (!out || !VERIFY[level].verify(out.signature, message, dealt.publicKey)) {
          throw new Error(`ML-DSA-${level} (${t}, ${n}) session ${s}: no valid signature`);
        }
        parties.forEach((p) => p.free());
        if (s < 0) continue;
        total += spent;
        busiest += clocks.reduce((m, c) => (c.ns > m ? c.ns : m), 0n);
        runs += out.runs;
        sent += out.bytesSent;
      }
      shares.forEach((sh) => sh.free());
      const k = BigInt(SESSIONS);
      console.log(
        `| ML-DSA-${level} | (${t}, ${n}) | ${dealt.slots} | ${(runs / SESSIONS).toFixed(2)} | ${ms(total / k)} ms | ${ms(busiest / k)} ms | ` +
          `${ms(busiest / BigInt(runs))} ms | ${Math.round(sent / SESSIONS)} |`,
      );
    }
  }
}
console.log();
console.log(`load average after: ${load()}`);
