// A prepared key gives exactly the verdicts of plain verify, in both builds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as full from '../index.js';
import * as light from '../verify.js';

await full.init();
await light.init();

for (const name of ['mlDsa44', 'mlDsa65', 'mlDsa87']) {
  test(`${name}: prepared verify agrees with verify (full and light builds)`, () => {
    const seed = new Uint8Array(32).fill(name.length);
    const { publicKey, secretKey } = full[name].keygen(seed);
    const msg = new TextEncoder().encode(`prepared ${name}`);
    const context = new Uint8Array([1, 2, 3]);
    const sig = full[name].sign(msg, secretKey, { context });
    for (const build of [full, light]) {
      const key = build[name].prepare(publicKey);
      assert.equal(key.verify(sig, msg, { context }), true);
      assert.equal(key.verify(sig, msg), false, 'wrong context');
      assert.equal(key.verify(sig.subarray(1), msg, { context }), false, 'short signature');
      for (let i = 0; i < sig.length; i += 211) {
        const bad = sig.slice();
        bad[i] ^= 0x10;
        assert.equal(key.verify(bad, msg, { context }), build[name].verify(bad, msg, publicKey, { context }));
        assert.equal(key.verify(bad, msg, { context }), false);
      }
      assert.throws(() => key.verify(sig, msg, { ctx: context }), TypeError);
      key.free();
      assert.throws(() => build[name].prepare(publicKey.subarray(1)), RangeError);
    }
  });
}
