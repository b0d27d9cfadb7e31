// The WebAssembly build reproduces the committed known-answer vectors byte for byte
// (native == WASM). The vectors come from `cargo run --bin genkat`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, mlDsa44, mlDsa65, mlDsa87 } from '../index.js';
import * as light from '../verify.js';

const SETS = { 'ML-DSA-44': mlDsa44, 'ML-DSA-65': mlDsa65, 'ML-DSA-87': mlDsa87 };
const LIGHT = { 'ML-DSA-44': light.mlDsa44, 'ML-DSA-65': light.mlDsa65, 'ML-DSA-87': light.mlDsa87 };
const kats = new URL('../../kats/', import.meta.url);
const hex = (s) => Uint8Array.from(s.match(/../g) ?? [], (b) => parseInt(b, 16));
const toHex = (u) => Buffer.from(u).toString('hex');

await init();
await light.init();

test('kats/mldsa.json: keygen, deterministic and hedged signatures, verdicts', () => {
  const file = JSON.parse(readFileSync(new URL('mldsa.json', kats), 'utf8'));
  let ran = 0;
  for (const c of file.cases) {
    const set = SETS[c.set];
    assert.ok(set, `unknown set ${c.set}`);
    const where = `${c.set} #${c.index}`;
    const { publicKey, secretKey } = set.keygen(hex(c.seed));
    assert.equal(toHex(publicKey), c.public_key, `${where} public key`);
    assert.equal(toHex(secretKey), c.secret_key, `${where} secret key`);
    const context = hex(c.context);
    const msg = hex(c.message);
    const det = set.sign(msg, secretKey, { context, extraEntropy: false });
    assert.equal(toHex(det), c.signature_deterministic, `${where} deterministic signature`);
    const hedged = set.sign(msg, secretKey, { context, extraEntropy: hex(c.rnd) });
    assert.equal(toHex(hedged), c.signature_hedged, `${where} hedged signature`);
    assert.equal(set.verify(hedged, msg, publicKey, { context }), c.valid, `${where} verdict`);
    assert.equal(LIGHT[c.set].verify(det, msg, publicKey, { context }), c.valid, `${where} light verdict`);
    ran++;
  }
  assert.ok(ran >= 12, `only ${ran} cases ran`);
});
