// What a browser process's members report and share, as the native nodes do
// (cli/src/conduct.rs `Event`, `agreed`; cli/src/report.rs `Failure::local`).

import { sha3_256 } from '/pkg/libp2p.js';
import { equal } from './wire.js';

/** The label of a setup's group key, as the conductor compares it across nodes. */
export const BEFORE = 'before reshare';

/** `Event::key`: a label, the SHA3-256 of the bytes, their length. */
export const keyEvent = (label, bytes) => ({ kind: 'key', label, digest: sha3_256(bytes), len: bytes.length });

/** `Event::blame(None, …)` for a party's dropped entries. */
export const blameEvents = (dropped) => (dropped ?? []).map((b) => ({ kind: 'blame', phase: null, party: b.party, code: b.code, reason: b.reason }));

/** A failure the node found itself (`Failure::local`). */
export function failure(code, message, module = 'demo', culprits = []) {
  return Object.assign(new Error(message), { name: 'QuasarError', code, module, culprits });
}

/**
 * The bytes more than half of `senders` published (`driver::Published::agreed_with`), counting
 * `own` (`{ from, bytes }`: this node's copy when it is a sender; nobody publishes to itself).
 */
export function agreed(published, senders, accept, own = null) {
  const copies = new Map();
  for (const f of own ? [...published, own] : published) if (senders.includes(f.from) && accept(f.bytes)) copies.set(f.from, f.bytes);
  const groups = [];
  for (const bytes of copies.values()) {
    const g = groups.find((x) => equal(x.bytes, bytes));
    if (g) g.n++;
    else groups.push({ bytes, n: 1 });
  }
  const best = groups.sort((a, b) => b.n - a.n)[0];
  if (best && 2 * best.n > senders.length) return best.bytes;
  throw failure('CONFLICTING_PUBLIC_DATA', `no majority of parties ${senders.join(', ')} sent the same public data`);
}
