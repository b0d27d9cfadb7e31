// The full build's `testChain`: its chains verify with the LightClient of both builds under
// every policy, across the epoch change; a flipped byte of a certificate or of the next set is
// refused; the same options give the same bytes, and the bytes the native Rust devnet makes
// (tests/vectors/test-chain.json, checked natively by tests/suite/test_chain.rs); the sample/ the
// build wrote is that chain; the bounds are typed errors. Needs `node scripts/build-wasm.mjs`.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';

import * as full from '../index.js';
import * as light from '../verify.js';

const ROOT = new URL('../../', import.meta.url);
const VECTOR = JSON.parse(readFileSync(new URL('tests/vectors/test-chain.json', ROOT), 'utf8'));
const SEED = Uint8Array.from({ length: 32 }, (_, i) => i);
const SPEC = { seed: SEED, validators: 4, policy: 'pq-fast', epochs: 2, blocks: 3 };
const sha256 = (b) => createHash('sha256').update(b).digest('hex');
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

before(async () => {
  await full.init();
  await light.init();
});

/** Follows `chain` with a client of `build` under `policy`: each update's code ('ok' when accepted). */
function follow(build, chain, policy) {
  const client = new build.LightClient(chain.sets[0], policy);
  try {
    const codes = chain.blocks.map((b) => {
      const r = client.update(b.certificate, b.nextSet);
      return r.ok ? 'ok' : r.code;
    });
    return { codes, epoch: client.epoch, height: client.height, keyEra: client.keyEra };
  } finally {
    client.free();
  }
}

test('the chain has the documented shape and both builds follow it across the epoch change', () => {
  const chain = full.testChain(SPEC);
  assert.equal(Object.getPrototypeOf(chain), null);
  assert.deepEqual(Object.keys(chain), ['sets', 'blocks']);
  assert.equal(chain.sets.length, 2);
  assert.equal(chain.blocks.length, 6);
  chain.blocks.forEach((b, i) => {
    assert.equal(Object.getPrototypeOf(b), null);
    assert.ok(b.certificate instanceof Uint8Array);
    assert.equal('nextSet' in b, i === 2, `only block 3 ends its epoch (block ${i + 1})`);
  });
  assert.ok(same(chain.blocks[2].nextSet, chain.sets[1]));
  for (const build of [full, light]) {
    assert.deepEqual(follow(build, chain, 'pq-fast'), { codes: Array(6).fill('ok'), epoch: 1n, height: 6n, keyEra: 0n });
  }
});

test("pulsar: 'committee': the Pulsar leg signed by a committee no machine holds the key of, a new key era per new committee, followed by both builds", () => {
  const chain = full.testChain({ ...SPEC, pulsar: 'committee', epochs: 3, blocks: 1 });
  assert.equal(chain.sets.length, 3);
  for (const build of [full, light]) {
    assert.deepEqual(follow(build, chain, 'pq-fast'), { codes: ['ok', 'ok', 'ok'], epoch: 2n, height: 3n, keyEra: 2n });
  }
  // Another key than the custody group's, the same bytes again for the same options.
  const custody = full.testChain({ ...SPEC, epochs: 1, blocks: 1 });
  assert.ok(!same(custody.sets[0], chain.sets[0]));
  const again = full.testChain({ ...SPEC, pulsar: 'committee', epochs: 3, blocks: 1 });
  assert.ok(again.blocks.every((b, i) => same(b.certificate, chain.blocks[i].certificate)));
  // The custody default is unchanged by naming it.
  const named = full.testChain({ ...SPEC, pulsar: 'custody', epochs: 1, blocks: 1 });
  assert.ok(same(named.blocks[0].certificate, custody.blocks[0].certificate));
});

test('every policy: a chain with exactly its legs, final under it in both builds', () => {
  for (const policy of full.CERT_POLICIES) {
    const chain = full.testChain({ seed: SEED, validators: 2, policy, epochs: 2, blocks: 1 });
    const report = full.verifyCertificate(chain.blocks[0].certificate, chain.sets[0], policy, { full: true });
    const present = report.legs.filter((l) => l.present).map((l) => l.kind);
    const required = report.legs.filter((l) => l.required).map((l) => l.kind);
    assert.deepEqual(present, required, `${policy}: the certificate carries exactly the required legs`);
    // The Pulsar custody group is reshared under its key; a Corona group is dealt anew when
    // its members change (the first validator leaves), in the next key era.
    const keyEra = required.includes('corona') ? 1n : 0n;
    for (const build of [full, light]) {
      assert.deepEqual(follow(build, chain, policy), { codes: ['ok', 'ok'], epoch: 1n, height: 2n, keyEra }, `${policy}`);
    }
  }
});

test('a flipped byte of a certificate or of the next set is refused, and the client stays put', () => {
  const chain = full.testChain(SPEC);
  const first = chain.blocks[0].certificate;
  for (let at = 0; at < first.length; at += 13) {
    const bad = first.slice();
    bad[at] ^= 0x01;
    const r = light.verifyCertificate(bad, chain.sets[0], 'pq-fast');
    assert.equal(r.ok, false, `certificate byte ${at} flipped was accepted`);
  }
  const client = new light.LightClient(chain.sets[0], 'pq-fast');
  for (const b of chain.blocks.slice(0, 2)) assert.equal(client.update(b.certificate).ok, true);
  const end = chain.blocks[2];
  for (let at = 0; at < end.nextSet.length; at += 97) {
    const bad = end.nextSet.slice();
    bad[at] ^= 0x01;
    const r = client.update(end.certificate, bad);
    assert.equal(r.ok, false, `next-set byte ${at} flipped was accepted`);
    assert.equal(client.epoch, 0n);
  }
  assert.equal(client.update(end.certificate, end.nextSet).ok, true);
  assert.equal(client.epoch, 1n);
  client.free();
});

test('same options, same bytes; and the bytes the native Rust devnet makes', () => {
  const a = full.testChain(SPEC);
  const b = full.testChain({ ...SPEC, seed: SEED.slice() });
  assert.ok(a.sets.every((s, i) => same(s, b.sets[i])) && a.blocks.every((x, i) => same(x.certificate, b.blocks[i].certificate)));
  assert.deepEqual(VECTOR.sha256, { sets: a.sets.map(sha256), certificates: a.blocks.map((x) => sha256(x.certificate)) });
  const other = full.testChain({ ...SPEC, seed: new Uint8Array(32).fill(9) });
  assert.ok(!same(other.sets[0], a.sets[0]), 'another seed, other keys');
});

test('the sample/ the build wrote is that chain, with its manifest', () => {
  const manifest = JSON.parse(readFileSync(new URL('sample/chain.json', ROOT), 'utf8'));
  const file = (name) => new Uint8Array(readFileSync(new URL(`sample/${name}`, ROOT)));
  assert.deepEqual(manifest.options, { ...SPEC, seed: Buffer.from(SEED).toString('hex'), chainId: 1 });
  assert.deepEqual(manifest.sets.map((n) => sha256(file(n))), VECTOR.sha256.sets);
  assert.deepEqual(manifest.blocks.map((b) => sha256(file(b.certificate))), VECTOR.sha256.certificates);
  assert.deepEqual(manifest.blocks.map((b) => [b.height, b.epoch, b.nextSet ?? null]), [
    [1, 0, null], [2, 0, null], [3, 0, 'set-1.qvst'], [4, 1, null], [5, 1, null], [6, 1, null],
  ]);
});

test('bounds and bad options are typed errors, before anything is made', () => {
  const code = (opts) => {
    try {
      full.testChain(opts);
    } catch (e) {
      return `${e.name}:${e.code ?? ''}`;
    }
    return 'made';
  };
  const base = { seed: SEED, policy: 'pq-off' };
  assert.equal(code({ ...base, validators: 65 }), 'QuasarError:COUNT_TOO_LARGE');
  assert.equal(code({ ...base, validators: 0 }), 'QuasarError:INVALID_VALUE');
  assert.equal(code({ ...base, epochs: 9 }), 'QuasarError:COUNT_TOO_LARGE');
  assert.equal(code({ ...base, epochs: 0 }), 'QuasarError:INVALID_VALUE');
  assert.equal(code({ ...base, blocks: 65 }), 'QuasarError:COUNT_TOO_LARGE');
  assert.equal(code({ ...base, epochs: 8, blocks: 9 }), 'QuasarError:COUNT_TOO_LARGE');
  assert.equal(code({ ...base, validators: 2 ** 32 }), 'RangeError:');
  assert.equal(code({ ...base, validators: 1.5 }), 'TypeError:');
  assert.equal(code({ ...base, validators: '4' }), 'TypeError:');
  assert.equal(code({ ...base, level: 45 }), 'QuasarError:INVALID_VALUE');
  assert.equal(code({ ...base, level: 65536 + 44 }), 'QuasarError:INVALID_VALUE');
  assert.equal(code({ ...base, policy: 'pq-maybe' }), 'QuasarError:UNKNOWN_POLICY');
  assert.equal(code({ ...base, magnetar: 'shake128f' }), 'TypeError:');
  assert.equal(code({ ...base, pulsar: 'dealer' }), 'TypeError:');
  assert.equal(code({ ...base, pulsar: 'toString' }), 'TypeError:');
  assert.equal(code({ ...base, chainId: -1 }), 'TypeError:');
  assert.equal(code({ ...base, chainId: 2n ** 64n }), 'RangeError:');
  assert.equal(code({ ...base, seed: new Uint8Array(31) }), 'RangeError:');
  assert.equal(code({ policy: 'pq-off' }), 'TypeError:');
  assert.equal(code(undefined), 'TypeError:');
  assert.equal(code({ ...base, height: 3 }), 'TypeError:');
  const chain7 = full.testChain({ ...base, chainId: 7n, validators: 1, epochs: 1, blocks: 1 });
  assert.equal(full.verifyCertificate(chain7.blocks[0].certificate, chain7.sets[0], 'pq-off').header.chainId, 7n);
});

test('the light build has no testChain', () => {
  assert.equal('testChain' in light, false);
});
