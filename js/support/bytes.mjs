// Deterministic test and benchmark inputs: `n` bytes from SHA-256 of a label and counter.
// Not part of the package.
import { createHash } from 'node:crypto';

export function bytes(label, n) {
  const out = new Uint8Array(n);
  for (let off = 0, ctr = 0; off < n; ctr++) {
    const block = createHash('sha256').update(`${label}/${ctr}`).digest();
    out.set(block.subarray(0, Math.min(32, n - off)), off);
    off += 32;
  }
  return out;
}
