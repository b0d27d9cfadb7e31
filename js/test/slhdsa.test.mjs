// SLH-DSA through the WASM builds: the objects' shape, lengths against FIPS 205 Table 2 and
// the module, what the light build leaves out, and bad input. A verifier given a bad
// signature returns false (truncated, extended, any section altered, another key, message or
// context); caller mistakes throw TypeError / RangeError naming the argument, and the
// library's own checks are QuasarErrors (`module: 'slhdsa'`) with a stable `code`.
// The hostile-array reproductions (lying subclasses, proxies, detached buffers) are in
// boundary.test.mjs with every other byte argument of the package.
//
// Signing an "s" set takes about a second in WebAssembly, so the per-set checks run on the
// three sets Magnetar uses (192s, 192f, 256s) with one "s" signature each.

import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import * as full from '../index.js';
import * as light from '../verify.js';
import * as fullGlue from '../../pkg/full/quasar_pq.js';
import * as lightGlue from '../../pkg/light/quasar_pq.js';
import { bytes } from '../support/bytes.mjs';

/** FIPS 205 Table 2, written out here: n, h, d, h′, a, k, signature bytes. */
const TABLE_2 = {
  '128s': [16, 63, 7, 9, 12, 14, 7856],
  '128f': [16, 66, 22, 3, 6, 33, 17088],
  '192s': [24, 63, 7, 9, 14, 17, 16224],
  '192f': [24, 66, 22, 3, 8, 33, 35664],
  '256s': [32, 64, 8, 8, 14, 22, 29792],
  '256f': [32, 68, 17, 4, 9, 35, 49856],
};

const hex = (b) => Buffer.from(b).toString('hex');
const flip = (b, i) => {
  const c = Uint8Array.from(b);
  c[i] ^= 0x01;
  return c;
};

/** Assert `fn` throws a QuasarError with `code` from module `module`. */
function assertQuasar(fn, code, why, module = 'slhdsa') {
  assert.throws(fn, (e) => {
    assert.equal(e.name, 'QuasarError', `${why}: name (${e})`);
    assert.equal(e.code, code, `${why}: code`);
    assert.equal(e.module, module, `${why}: module`);
    assert.deepEqual(e.culprits, [], `${why}: culprits`);
    return true;
  }, why);
}

/** Assert `fn` throws `Kind` whose message names `arg`. */
function assertNames(fn, Kind, arg, why) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof Kind, `${why}: ${e?.name}: ${e?.message}`);
    assert.ok(e.message.includes(arg), `${why}: the message names ${arg}: ${e.message}`);
    return true;
  }, why);
}

before(async () => {
  await full.init();
  await light.init();
});

test('lengths: FIPS 205 Table 2, the module, noble-shaped, frozen', () => {
  for (const [p, [n, h, d, hp, a, k, sigLen]] of Object.entries(TABLE_2)) {
    const name = `SLH-DSA-SHAKE-${p}`;
    const ours = full[`slhDsaShake${p}`];
    // len = len1 + len2 = 8n/lg_w + 3 = 2n + 3 WOTS+ chains per layer (lg_w = 4).
    const len = (1 + k * (1 + a) + h + d * (2 * n + 3)) * n;
    assert.equal(len, sigLen, `${name}: Table 2 signature size from its row`);
    assert.equal(hp * d, h);
    assert.deepEqual({ ...ours.lengths }, { seed: 3 * n, publicKey: 2 * n, secretKey: 4 * n, signature: sigLen, signRand: n }, name);
    assert.deepEqual([...fullGlue.slhDsaLengths(name)], [n, 2 * n, 4 * n, sigLen], `${name}: full module`);
    assert.deepEqual([...lightGlue.slhDsaLengths(name)], [n, 2 * n, 4 * n, sigLen], `${name}: light module`);
    assert.deepEqual(light[`slhDsaShake${p}`].lengths, ours.lengths);
    assert.equal(full.SLH_DSA_LENGTHS[name], ours.lengths);
    assert.equal(light.SLH_DSA_LENGTHS[name], ours.lengths);
    assert.equal(ours.securityLevel, 8 * n);
    for (const o of [ours, ours.lengths, ours.internal, light[`slhDsaShake${p}`], light[`slhDsaShake${p}`].internal]) {
      assert.ok(Object.isFrozen(o), `${name}: frozen`);
    }
  }
  assert.ok(Object.isFrozen(full.SLH_DSA_LENGTHS));
});

test('the light build exports SLH-DSA verification only', () => {
  for (const fn of ['slhDsaKeygen', 'slhDsaSign', 'slhDsaSignInternal']) {
    assert.equal(typeof fullGlue[fn], 'function', `full exports ${fn}`);
    assert.equal(lightGlue[fn], undefined, `light does not export ${fn}`);
  }
  for (const fn of ['slhDsaVerify', 'slhDsaVerifyInternal', 'slhDsaLengths']) assert.equal(typeof lightGlue[fn], 'function', fn);
  const v = light.slhDsaShake192s;
  assert.deepEqual(Object.keys(v).sort(), ['internal', 'lengths', 'securityLevel', 'verify']);
  assert.deepEqual(Object.keys(v.internal).sort(), ['lengths', 'verify']);
  assert.deepEqual(Object.keys(full.slhDsaShake192s).sort(), ['internal', 'keygen', 'lengths', 'securityLevel', 'sign', 'verify']);
});

test('the generated layer: an unknown set is a RangeError, a short key an INVALID_LENGTH naming it', () => {
  assert.throws(() => fullGlue.slhDsaLengths('SLH-DSA-SHA2-128s'), RangeError);
  assert.throws(() => lightGlue.slhDsaVerify('ML-DSA-65', new Uint8Array(48), new Uint8Array(0), new Uint8Array(0), new Uint8Array(0)), RangeError);
  assert.throws(
    () => lightGlue.slhDsaVerify('SLH-DSA-SHAKE-192s', new Uint8Array(47), new Uint8Array(0), new Uint8Array(0), new Uint8Array(16224)),
    (e) => e.name === 'QuasarError' && e.code === 'INVALID_LENGTH' && e.module === 'slhdsa' && /public key/.test(e.message),
  );
  assert.throws(
    () => fullGlue.slhDsaKeygen('SLH-DSA-SHAKE-128f', new Uint8Array(47)),
    (e) => e.code === 'INVALID_LENGTH' && /seed must be 48 bytes, got 47/.test(e.message),
  );
  assert.throws(
    () => fullGlue.slhDsaSign('SLH-DSA-SHAKE-128f', new Uint8Array(64), new Uint8Array(1), new Uint8Array(0), new Uint8Array(15)),
    (e) => e.code === 'INVALID_LENGTH' && /randomness/.test(e.message),
  );
  assert.throws(
    () => fullGlue.slhDsaSign('SLH-DSA-SHAKE-128f', new Uint8Array(63), new Uint8Array(1), new Uint8Array(0), undefined),
    (e) => e.code === 'INVALID_LENGTH' && /secret key/.test(e.message),
  );
  assert.throws(
    () => fullGlue.slhDsaSign('SLH-DSA-SHAKE-128f', new Uint8Array(64), new Uint8Array(1), new Uint8Array(256), undefined),
    (e) => e.code === 'CONTEXT_TOO_LONG' && e.module === 'slhdsa',
  );
});

for (const p of ['192s', '192f', '256s']) {
  describe(`SLH-DSA-SHAKE-${p}`, () => {
    const ours = full[`slhDsaShake${p}`];
    const lite = light[`slhDsaShake${p}`];
    const n = ours.lengths.signRand;
    const label = `quasar-pq/slhdsa-test/${p}`;
    const seed = bytes(`${label}/seed`, ours.lengths.seed);
    const msg = bytes(`${label}/msg`, 100);
    const context = bytes(`${label}/ctx`, 7);
    let pk, sk, sig;

    test('setup: keygen, a deterministic signature, verified by both builds', () => {
      const seedCopy = Uint8Array.from(seed);
      ({ publicKey: pk, secretKey: sk } = ours.keygen(seed));
      assert.equal(hex(seed), hex(seedCopy), 'keygen leaves its seed alone');
      assert.equal(hex(sk.subarray(2 * n)), hex(pk), 'sk ends with pk');
      const [m, s, c] = [msg, sk, context].map((x) => Uint8Array.from(x));
      sig = ours.sign(msg, sk, { context, extraEntropy: false });
      assert.deepEqual([hex(msg), hex(sk), hex(context)], [hex(m), hex(s), hex(c)], 'sign leaves its inputs alone');
      assert.equal(sig.length, ours.lengths.signature);
      const sigCopy = Uint8Array.from(sig);
      assert.equal(ours.verify(sig, msg, pk, { context }), true);
      assert.equal(lite.verify(sig, msg, pk, { context }), true);
      assert.equal(hex(sig), hex(sigCopy), 'verify leaves the signature alone');
    });

    test('a well-formed invalid signature is false: every section altered, another key, message or context', () => {
      const [, , , , a, k] = TABLE_2[p];
      const fors = n + k * (1 + a) * n;
      const at = {
        R: 0,
        'first FORS secret': n,
        'a FORS auth node': n + n,
        'last FORS byte': fors - 1,
        'first WOTS+ chain': fors,
        'an XMSS auth node': fors + (2 * n + 3) * n,
        'last byte': sig.length - 1,
      };
      for (const [where, i] of Object.entries(at)) {
        assert.equal(ours.verify(flip(sig, i), msg, pk, { context }), false, `${where} altered (byte ${i})`);
        assert.equal(lite.verify(flip(sig, i), msg, pk, { context }), false, `${where} altered, light`);
      }
      assert.equal(ours.verify(new Uint8Array(sig.length), msg, pk, { context }), false, 'all zero');
      assert.equal(ours.verify(sig, msg, flip(pk, 0), { context }), false, 'PK.seed altered');
      assert.equal(ours.verify(sig, msg, flip(pk, pk.length - 1), { context }), false, 'PK.root altered');
      assert.equal(ours.verify(sig, flip(msg, 5), pk, { context }), false, 'another message');
      assert.equal(ours.verify(sig, msg, pk, { context: flip(context, 0) }), false, 'another context');
      assert.equal(ours.verify(sig, msg, pk), false, 'no context');
      assert.equal(ours.internal.verify(sig, msg, pk), false, 'the internal interface on M itself');
    });

    test('wrong-length signatures are false, never a throw', () => {
      for (const len of [0, 1, n, sig.length - 1]) {
        assert.equal(ours.verify(sig.subarray(0, len), msg, pk, { context }), false, `truncated to ${len}`);
        assert.equal(lite.verify(sig.subarray(0, len), msg, pk, { context }), false, `truncated to ${len}, light`);
        assert.equal(lite.internal.verify(sig.subarray(0, len), msg, pk), false, `truncated to ${len}, internal`);
      }
      for (const extra of [1, 4096]) {
        const longer = new Uint8Array(sig.length + extra);
        longer.set(sig);
        assert.equal(ours.verify(longer, msg, pk, { context }), false, `extended by ${extra}`);
        assert.equal(lite.verify(longer, msg, pk, { context }), false, `extended by ${extra}, light`);
      }
    });

    test('wrong lengths of the caller\'s own arguments: RangeError naming the argument', () => {
      for (const v of [ours, lite]) {
        assertNames(() => v.verify(sig, msg, pk.subarray(1), { context }), RangeError, 'publicKey', 'short public key');
        assertNames(() => v.verify(sig, msg, new Uint8Array(pk.length + 1), { context }), RangeError, 'publicKey', 'long public key');
        assertNames(() => v.internal.verify(sig, msg, new Uint8Array(0)), RangeError, 'publicKey', 'empty public key (internal)');
      }
      assertNames(() => ours.keygen(seed.subarray(1)), RangeError, 'seed', 'short seed');
      assertNames(() => ours.keygen(new Uint8Array(32)), RangeError, 'seed', 'an ML-DSA-sized seed');
      assertNames(() => ours.sign(msg, sk.subarray(1)), RangeError, 'secretKey', 'short secret key');
      assertNames(() => ours.sign(msg, pk), RangeError, 'secretKey', 'a public key as secret key');
      assertNames(() => ours.sign(msg, sk, { extraEntropy: new Uint8Array(n + 1) }), RangeError, 'extraEntropy', 'long extraEntropy');
      assertNames(() => ours.internal.sign(msg, sk, { extraEntropy: new Uint8Array(n - 1) }), RangeError, 'extraEntropy', 'short extraEntropy');
      assertNames(() => ours.sign(new Uint8Array((1 << 24) + 1), sk), RangeError, 'message', 'message over 16 MiB');
      assertNames(() => lite.verify(sig, new Uint8Array((1 << 24) + 1), pk), RangeError, 'message', 'message over 16 MiB (verify)');
    });

    test('a context over 255 bytes: QuasarError CONTEXT_TOO_LONG naming opts.context; 255 is fine', () => {
      const long = new Uint8Array(256);
      for (const [what, fn] of [
        ['sign', () => ours.sign(msg, sk, { context: long })],
        ['verify', () => ours.verify(sig, msg, pk, { context: long })],
        ['light verify', () => lite.verify(sig, msg, pk, { context: long })],
      ]) {
        assertQuasar(fn, 'CONTEXT_TOO_LONG', what);
        assert.throws(fn, (e) => e.argument === 'opts.context');
      }
      assert.equal(ours.verify(sig, msg, pk, { context: new Uint8Array(255) }), false);
    });

    test('wrong types and unknown options: TypeError', () => {
      for (const bad of [null, 'abc', [1, 2, 3], new Uint16Array(n), new ArrayBuffer(n), { length: n }]) {
        assert.throws(() => ours.verify(bad, msg, pk), TypeError);
        assert.throws(() => lite.verify(sig, bad, pk), TypeError);
        assert.throws(() => lite.verify(sig, msg, bad), TypeError);
        assert.throws(() => ours.sign(bad, sk), TypeError);
        assert.throws(() => ours.sign(msg, bad), TypeError);
        assert.throws(() => ours.keygen(bad), TypeError);
      }
      assert.throws(() => ours.sign(msg, sk, { ctx: context }), /unexpected option "ctx"/);
      assert.throws(() => lite.verify(sig, msg, pk, { ctx: context }), /unexpected option "ctx"/);
      assert.throws(() => lite.verify(sig, msg, pk, { extraEntropy: false }), TypeError, 'verify takes no extraEntropy');
      assert.throws(() => ours.internal.sign(msg, sk, { context }), TypeError, 'internal sign takes no context');
      assert.throws(() => lite.internal.verify(sig, msg, pk, { context }), TypeError, 'internal verify takes no options');
      assert.throws(() => ours.sign(msg, sk, { extraEntropy: true }), TypeError);
      assert.throws(() => ours.sign(msg, sk, 'hedged'), TypeError);
    });

    if (!p.endsWith('s')) {
      test('hedged by default (two signatures differ, both verify); deterministic repeats', () => {
        const a = ours.sign(msg, sk, { context });
        const b = ours.sign(msg, sk, { context });
        assert.notEqual(hex(a), hex(b));
        assert.ok(ours.verify(a, msg, pk, { context }) && lite.verify(b, msg, pk, { context }));
        assert.equal(hex(ours.sign(msg, sk, { context, extraEntropy: false })), hex(sig));
        // opt_rand = PK.seed is what `extraEntropy: false` means (FIPS 205 Alg. 22).
        assert.equal(hex(ours.sign(msg, sk, { context, extraEntropy: pk.subarray(0, n) })), hex(sig));
        const e = bytes(`${label}/rnd`, n);
        assert.equal(hex(ours.sign(msg, sk, { context, extraEntropy: e })), hex(ours.sign(msg, sk, { context, extraEntropy: e })));
      });

      test('a secret key whose PK.root is not its own signs, and the signature is rejected', () => {
        const forged = Uint8Array.from(sk);
        forged[forged.length - 1] ^= 0x80;
        const s = ours.sign(msg, forged, { extraEntropy: false });
        assert.equal(ours.verify(s, msg, forged.subarray(2 * n)), false);
        assert.equal(ours.verify(s, msg, pk), false);
      });
    }
  });
}
