// Bad input through the WASM builds: truncated, extended and bit-flipped public keys and
// signatures, malformed encodings, wrong modes, wrong argument types and option keys.
// A verifier given a bad signature returns false — never true, never a crash; caller mistakes
// throw TypeError / RangeError, and library errors are QuasarErrors with a stable `code`.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import * as full from '../index.js';
import * as light from '../verify.js';
import * as fullGlue from '../../pkg/full/quasar_pq.js';
import * as lightGlue from '../../pkg/light/quasar_pq.js';
import { bytes } from '../support/bytes.mjs';

/** Every code the ML-DSA bindings may throw. Codes are API: never renamed. */
const ML_DSA_CODES = new Set(['INVALID_LENGTH', 'CONTEXT_TOO_LONG', 'MALFORMED_SECRET_KEY', 'INVALID_SIGNATURE', 'UNKNOWN_MODE']);


/** Assert `fn` throws a QuasarError with `code` (and the usual fields). */
function assertQuasar(fn, code, why) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof Error, `${why}: an Error`);
    assert.equal(e.name, 'QuasarError', `${why}: name (${e})`);
    assert.equal(e.code, code, `${why}: code`);
    assert.equal(e.module, 'mldsa', `${why}: module`);
    assert.ok(Array.isArray(e.culprits), `${why}: culprits`);
    assert.ok(e.message.length > 0, `${why}: message`);
    return true;
  }, why);
}

/** Verification of a bad signature: false, or a QuasarError with a known code; never true. */
function assertRejected(fn, why) {
  let r;
  try {
    r = fn();
  } catch (e) {
    assert.equal(e.name, 'QuasarError', `${why}: threw a non-QuasarError: ${e?.stack ?? e}`);
    assert.ok(ML_DSA_CODES.has(e.code), `${why}: unknown code ${e.code}`);
    return;
  }
  assert.equal(r, false, `${why}: accepted a bad signature`);
}

const flip = (b, bit) => {
  const c = Uint8Array.from(b);
  c[bit >> 3] ^= 1 << (bit & 7);
  return c;
};

const SETS = [
  { name: 'ML-DSA-44', level: 44, ours: full.mlDsa44, light: light.mlDsa44, omega: 80, k: 4, cTilde: 32, eta: 2, l: 4 },
  { name: 'ML-DSA-65', level: 65, ours: full.mlDsa65, light: light.mlDsa65, omega: 55, k: 6, cTilde: 48, eta: 4, l: 5 },
  { name: 'ML-DSA-87', level: 87, ours: full.mlDsa87, light: light.mlDsa87, omega: 75, k: 8, cTilde: 64, eta: 2, l: 7 },
];

test('calls before init() throw a clear Error', () => {
  assert.throws(() => full.mlDsa65.keygen(new Uint8Array(32)), /init\(\)/);
  assert.throws(() => light.mlDsa65.verify(new Uint8Array(1), new Uint8Array(0), new Uint8Array(1952)), /init\(\)/);
});

test('init() loads both builds, twice is fine', async () => {
  await Promise.all([full.init(), full.init(), light.init()]);
  await light.init();
});

test('lengths match the WASM module and FIPS 204 Table 2', () => {
  for (const s of SETS) {
    const [pk, sk, sig] = fullGlue.mlDsaLengths(s.level);
    assert.deepEqual([pk, sk, sig], [s.ours.lengths.publicKey, s.ours.lengths.secretKey, s.ours.lengths.signature]);
    assert.deepEqual(s.light.lengths, s.ours.lengths);
    assert.ok(Object.isFrozen(s.ours) && Object.isFrozen(s.ours.lengths) && Object.isFrozen(s.ours.internal));
  }
});

test('the light build exports verification only', () => {
  for (const name of ['mlDsaKeygen', 'mlDsaSign', 'mlDsaSignInternal', 'mlDsaSignMu']) {
    assert.equal(typeof fullGlue[name], 'function', `full exports ${name}`);
    assert.equal(lightGlue[name], undefined, `light does not export ${name}`);
  }
  for (const name of ['mlDsaVerify', 'mlDsaVerifyInternal', 'mlDsaVerifyMu', 'mlDsaComputeMu']) {
    assert.equal(typeof lightGlue[name], 'function', `light exports ${name}`);
  }
  assert.equal(light.mlDsa65.keygen, undefined);
  assert.equal(light.mlDsa65.sign, undefined);
  assert.equal(light.mlDsa65.internal.sign, undefined);
});

for (const s of SETS) {
  describe(`${s.name} bad input`, () => {
    const seed = bytes(`quasar-pq/bad-input/${s.name}/seed`, 32);
    const msg = bytes(`quasar-pq/bad-input/${s.name}/msg`, 100);
    const context = bytes(`quasar-pq/bad-input/${s.name}/ctx`, 7);
    let pk, sk, sig;

    test('setup: a valid signature verifies in both builds', () => {
      ({ publicKey: pk, secretKey: sk } = s.ours.keygen(seed));
      sig = s.ours.sign(msg, sk, { context, extraEntropy: false });
      assert.equal(s.ours.verify(sig, msg, pk, { context }), true);
      assert.equal(s.light.verify(sig, msg, pk, { context }), true);
    });

    test('signature truncated at every length, and extended: false', () => {
      let n = 0;
      for (let len = 0; len < sig.length; len++) {
        assert.equal(s.ours.verify(sig.subarray(0, len), msg, pk, { context }), false, `truncated to ${len}`);
        n++;
      }
      for (const extra of [1, 2, 64, 4096]) {
        const longer = new Uint8Array(sig.length + extra);
        longer.set(sig);
        assert.equal(s.ours.verify(longer, msg, pk, { context }), false, `extended by ${extra} zero bytes`);
        longer.fill(0xff, sig.length);
        assert.equal(s.light.verify(longer, msg, pk, { context }), false, `extended by ${extra} 0xff bytes`);
        n += 2;
      }
      assert.equal(s.light.verify(new Uint8Array(0), msg, pk, { context }), false);
      assert.ok(n > sig.length);
    });

    test('signature bit flips (c̃, hints, sampled z): never true', () => {
      const bits = [];
      for (let bit = 0; bit < s.cTilde * 8; bit++) bits.push(bit); // c̃: every bit
      const hintStart = sig.length - (s.omega + s.k);
      for (let bit = hintStart * 8; bit < sig.length * 8; bit++) bits.push(bit); // h: every bit
      for (let byte = s.cTilde; byte < hintStart; byte += 3) bits.push(byte * 8 + (byte % 8)); // z: sampled
      for (const bit of bits) {
        assertRejected(() => s.ours.verify(flip(sig, bit), msg, pk, { context }), `flip bit ${bit}`);
      }
      // Sampled through the light build too.
      for (let i = 0; i < bits.length; i += 37) {
        assertRejected(() => s.light.verify(flip(sig, bits[i]), msg, pk, { context }), `light: flip bit ${bits[i]}`);
      }
    });

    test('malformed hints and out-of-range z: false', () => {
      const hintStart = sig.length - (s.omega + s.k);
      const cases = {
        'hint counts all 0xff': (c) => c.fill(0xff, sig.length - s.k),
        'hint region all 0xff': (c) => c.fill(0xff, hintStart),
        'hint region all 0': (c) => c.fill(0, hintStart),
        'hint count beyond omega': (c) => { c[sig.length - 1] = s.omega + 1; },
        'hint counts decreasing': (c) => {
          if (s.k >= 2) { c[sig.length - s.k] = 5; c[sig.length - s.k + 1] = 2; }
        },
        'hint indices not increasing': (c) => {
          c[sig.length - s.k] = Math.max(c[sig.length - s.k], 2);
          c[hintStart] = 9; c[hintStart + 1] = 9;
        },
        'nonzero padding after the last hint': (c) => {
          const used = c[sig.length - 1];
          if (used < s.omega) c[hintStart + s.omega - 1] = 1;
        },
        'z all 0xff': (c) => c.fill(0xff, s.cTilde, hintStart),
        'z all 0': (c) => c.fill(0, s.cTilde, hintStart),
        'signature all 0': (c) => c.fill(0),
        'signature all 0xff': (c) => c.fill(0xff),
      };
      for (const [why, mutate] of Object.entries(cases)) {
        const c = Uint8Array.from(sig);
        mutate(c);
        if (Buffer.from(c).equals(Buffer.from(sig))) continue; // the mutation was a no-op here
        assertRejected(() => s.ours.verify(c, msg, pk, { context }), why);
        assertRejected(() => s.light.verify(c, msg, pk, { context }), `light: ${why}`);
        assertRejected(() => s.ours.internal.verify(c, msg, pk), `internal: ${why}`);
      }
      for (let i = 0; i < 50; i++) {
        const junk = bytes(`quasar-pq/bad-input/${s.name}/junk/${i}`, sig.length);
        assertRejected(() => s.ours.verify(junk, msg, pk, { context }), `random signature ${i}`);
      }
    });

    test('public key: wrong length throws RangeError (wrapper) / INVALID_LENGTH (bindings)', () => {
      for (const len of [0, 1, 32, pk.length - 1, pk.length + 1, pk.length * 2]) {
        const bad = new Uint8Array(len);
        bad.set(pk.subarray(0, Math.min(len, pk.length)));
        assert.throws(() => s.ours.verify(sig, msg, bad, { context }), RangeError, `pk length ${len}`);
        assert.throws(() => s.light.verify(sig, msg, bad, { context }), RangeError, `light pk length ${len}`);
        assertQuasar(() => fullGlue.mlDsaVerify(s.level, bad, msg, context, sig), 'INVALID_LENGTH', `bindings pk length ${len}`);
        assertQuasar(() => lightGlue.mlDsaVerify(s.level, bad, msg, context, sig), 'INVALID_LENGTH', `light bindings pk length ${len}`);
      }
      // The bindings themselves return false for a wrong-size signature.
      assert.equal(fullGlue.mlDsaVerify(s.level, pk, msg, context, sig.subarray(1)), false);
      assert.equal(lightGlue.mlDsaVerifyInternal(s.level, pk, msg, sig.subarray(1)), false);
    });

    test('public key bit flips: never true', () => {
      for (let bit = 0; bit < pk.length * 8; bit += 61) {
        assertRejected(() => s.ours.verify(sig, msg, flip(pk, bit), { context }), `pk flip bit ${bit}`);
      }
      assertRejected(() => s.ours.verify(sig, msg, new Uint8Array(pk.length), { context }), 'all-zero pk');
      assertRejected(() => s.ours.verify(sig, msg, new Uint8Array(pk.length).fill(0xff), { context }), 'all-0xff pk');
    });

    test('message and context changes: false', () => {
      assert.equal(s.ours.verify(sig, msg.subarray(1), pk, { context }), false);
      assert.equal(s.ours.verify(sig, flip(msg, 5), pk, { context }), false);
      assert.equal(s.ours.verify(sig, msg, pk), false, 'no context');
      assert.equal(s.ours.verify(sig, msg, pk, { context: flip(context, 0) }), false);
      assert.equal(s.ours.verify(sig, msg, pk, { context: context.subarray(1) }), false);
      assert.equal(s.ours.internal.verify(sig, msg, pk), false, 'internal interface on a pure signature');
    });

    test('context longer than 255 bytes: CONTEXT_TOO_LONG; 255 is fine', () => {
      const c255 = new Uint8Array(255).fill(1);
      const sig255 = s.ours.sign(msg, sk, { context: c255 });
      assert.equal(s.ours.verify(sig255, msg, pk, { context: c255 }), true);
      const c256 = new Uint8Array(256);
      assertQuasar(() => s.ours.sign(msg, sk, { context: c256 }), 'CONTEXT_TOO_LONG', 'sign');
      assertQuasar(() => s.ours.verify(sig, msg, pk, { context: c256 }), 'CONTEXT_TOO_LONG', 'verify');
      assertQuasar(() => s.light.verify(sig, msg, pk, { context: c256 }), 'CONTEXT_TOO_LONG', 'light verify');
    });

    test('secret key: wrong length RangeError, malformed MALFORMED_SECRET_KEY', () => {
      for (const len of [0, 32, sk.length - 1, sk.length + 1]) {
        assert.throws(() => s.ours.sign(msg, new Uint8Array(len)), RangeError, `sk length ${len}`);
        assertQuasar(() => fullGlue.mlDsaSign(s.level, new Uint8Array(len), msg, context, undefined), 'INVALID_LENGTH', `bindings sk length ${len}`);
      }
      // s1 starts after ρ ‖ K ‖ tr (32 + 32 + 64 bytes); all-ones bits there decode to
      // coefficients η − (2^bits − 1) < −η, outside the range skDecode allows.
      const bad = Uint8Array.from(sk);
      bad.fill(0xff, 128, 128 + 32 * (s.eta === 2 ? 3 : 4));
      assertQuasar(() => s.ours.sign(msg, bad, { extraEntropy: false }), 'MALFORMED_SECRET_KEY', 'malformed s1');
    });

    test('wrong mode: other sets reject', () => {
      for (const other of SETS) {
        if (other === s) continue;
        assert.equal(other.ours.verify(sig, msg, new Uint8Array(other.ours.lengths.publicKey), { context }), false, `${s.name} sig under ${other.name}`);
        assert.throws(() => other.ours.verify(sig, msg, pk, { context }), RangeError, `${s.name} pk under ${other.name}`);
        assert.throws(() => other.ours.sign(msg, sk), RangeError, `${s.name} sk under ${other.name}`);
      }
    });

    test('calls do not mutate their inputs', () => {
      const copies = [seed, msg, context, pk, sk, sig].map((b) => Uint8Array.from(b));
      const rnd = new Uint8Array(32).fill(9);
      s.ours.keygen(seed);
      s.ours.sign(msg, sk, { context, extraEntropy: rnd });
      s.ours.verify(sig, msg, pk, { context });
      s.light.verify(sig, msg, pk, { context });
      s.ours.internal.sign(msg, sk, { extraEntropy: rnd });
      [seed, msg, context, pk, sk, sig].forEach((b, i) => assert.deepEqual(b, copies[i]));
      assert.deepEqual(rnd, new Uint8Array(32).fill(9), 'caller-supplied extraEntropy is not wiped');
    });
  });
}

describe('argument checking (TypeError / RangeError)', () => {
  const m = full.mlDsa44;
  const seed = new Uint8Array(32).fill(4);
  let kp, sig;
  test('setup', () => {
    kp = m.keygen(seed);
    sig = m.sign(new Uint8Array(3), kp.secretKey);
    assert.equal(m.verify(sig, new Uint8Array(3), kp.publicKey), true);
  });

  const notBytes = ['abc', [1, 2, 3], null, 42, {}, new ArrayBuffer(32), new Uint16Array(16), new DataView(new ArrayBuffer(32))];

  test('non-Uint8Array arguments throw TypeError', () => {
    for (const v of notBytes) {
      assert.throws(() => m.keygen(v), TypeError, `keygen(${String(v)})`);
      assert.throws(() => m.sign(v, kp.secretKey), TypeError, `sign msg ${String(v)}`);
      assert.throws(() => m.sign(new Uint8Array(1), v), TypeError, `sign sk ${String(v)}`);
      assert.throws(() => m.verify(v, new Uint8Array(1), kp.publicKey), TypeError, `verify sig ${String(v)}`);
      assert.throws(() => m.verify(sig, v, kp.publicKey), TypeError, `verify msg ${String(v)}`);
      assert.throws(() => m.verify(sig, new Uint8Array(1), v), TypeError, `verify pk ${String(v)}`);
      assert.throws(() => light.mlDsa44.verify(sig, new Uint8Array(1), v), TypeError, `light verify pk ${String(v)}`);
      if (v !== null) {
        assert.throws(() => m.sign(new Uint8Array(1), kp.secretKey, { context: v }), TypeError, `context ${String(v)}`);
        assert.throws(() => m.verify(sig, new Uint8Array(1), kp.publicKey, { context: v }), TypeError, `verify context ${String(v)}`);
      }
    }
    assert.throws(() => m.sign(new Uint8Array(1), kp.secretKey, { extraEntropy: true }), TypeError);
    assert.throws(() => m.sign(new Uint8Array(1), kp.secretKey, { extraEntropy: 'x'.repeat(32) }), TypeError);
    assert.throws(() => m.internal.sign(new Uint8Array(1), kp.secretKey, { externalMu: 1 }), TypeError);
    // A Node Buffer is a Uint8Array: accepted.
    assert.equal(m.verify(Buffer.from(sig), Buffer.alloc(3), Buffer.from(kp.publicKey)), true);
  });

  test('wrong fixed lengths throw RangeError', () => {
    for (const n of [0, 16, 31, 33, 64]) {
      assert.throws(() => m.keygen(new Uint8Array(n)), RangeError, `seed ${n}`);
      assert.throws(() => m.sign(new Uint8Array(1), kp.secretKey, { extraEntropy: new Uint8Array(n) }), RangeError, `extraEntropy ${n}`);
    }
    for (const n of [0, 32, 63, 65]) {
      assert.throws(() => m.internal.sign(new Uint8Array(n), kp.secretKey, { externalMu: true }), RangeError, `mu ${n}`);
      assert.throws(() => m.internal.verify(sig, new Uint8Array(n), kp.publicKey, { externalMu: true }), RangeError, `verify mu ${n}`);
    }
    assert.throws(() => m.sign(new Uint8Array(1), kp.secretKey.subarray(1)), RangeError);
    assert.throws(() => m.verify(sig, new Uint8Array(1), kp.publicKey.subarray(1)), RangeError);
  });

  test('unknown option keys throw; undefined values are ignored', () => {
    assert.throws(() => m.sign(new Uint8Array(1), kp.secretKey, { ctx: new Uint8Array(1) }), TypeError);
    assert.throws(() => m.sign(new Uint8Array(1), kp.secretKey, { context: new Uint8Array(1), random: true }), TypeError);
    assert.throws(() => m.verify(sig, new Uint8Array(3), kp.publicKey, { extraEntropy: false }), TypeError);
    assert.throws(() => m.verify(sig, new Uint8Array(3), kp.publicKey, { externalMu: true }), TypeError);
    assert.throws(() => light.mlDsa44.verify(sig, new Uint8Array(3), kp.publicKey, { ctx: new Uint8Array(0) }), TypeError);
    assert.throws(() => m.internal.sign(new Uint8Array(1), kp.secretKey, { context: new Uint8Array(1) }), TypeError);
    assert.throws(() => m.internal.verify(sig, new Uint8Array(3), kp.publicKey, { context: new Uint8Array(1) }), TypeError);
    for (const bad of [null, 5, 'context', [new Uint8Array(1)], new Uint8Array(1)]) {
      assert.throws(() => m.verify(sig, new Uint8Array(3), kp.publicKey, bad), TypeError, `opts ${String(bad)}`);
    }
    assert.equal(m.verify(sig, new Uint8Array(3), kp.publicKey, { context: undefined }), true);
    assert.equal(m.verify(sig, new Uint8Array(3), kp.publicKey, {}), true);
  });

  test('deterministic signing is deterministic; hedged signing is not', () => {
    const a = m.sign(new Uint8Array(3), kp.secretKey, { extraEntropy: false });
    const b = m.sign(new Uint8Array(3), kp.secretKey, { extraEntropy: false });
    assert.deepEqual(a, b);
    const c = m.sign(new Uint8Array(3), kp.secretKey);
    const d = m.sign(new Uint8Array(3), kp.secretKey);
    assert.notDeepEqual(c, d);
    assert.equal(m.verify(c, new Uint8Array(3), kp.publicKey), true);
    const z = m.sign(new Uint8Array(3), kp.secretKey, { extraEntropy: new Uint8Array(32) });
    assert.deepEqual(z, a, 'extraEntropy of 32 zero bytes is the deterministic variant');
  });

  test('keygen without a seed is random; returned arrays are fresh copies', () => {
    const a = m.keygen();
    const b = m.keygen();
    assert.notDeepEqual(a.publicKey, b.publicKey);
    assert.ok(a.publicKey.buffer !== a.secretKey.buffer);
    assert.equal(a.publicKey.byteOffset, 0);
    assert.equal(a.publicKey.buffer.byteLength, a.publicKey.length, 'not a view into WASM memory');
    const s1 = m.sign(new Uint8Array(1), a.secretKey, { extraEntropy: false });
    assert.equal(s1.buffer.byteLength, s1.length, 'signature is not a view into WASM memory');
  });

  test('raw bindings: unknown level is a RangeError', () => {
    assert.throws(() => fullGlue.mlDsaVerify(66, kp.publicKey, new Uint8Array(0), new Uint8Array(0), sig), RangeError);
    assert.throws(() => lightGlue.mlDsaVerify(0, kp.publicKey, new Uint8Array(0), new Uint8Array(0), sig), RangeError);
  });

  test('QuasarError codes are unique strings from the known set', () => {
    const seen = new Set();
    const collect = (fn) => {
      try { fn(); } catch (e) { if (e.name === 'QuasarError') seen.add(e.code); }
    };
    collect(() => fullGlue.mlDsaKeygen(44, new Uint8Array(5)));
    collect(() => m.sign(new Uint8Array(1), kp.secretKey, { context: new Uint8Array(300) }));
    const bad = Uint8Array.from(kp.secretKey).fill(0xff, 128, 224);
    collect(() => m.sign(new Uint8Array(1), bad));
    for (const c of seen) assert.ok(ML_DSA_CODES.has(c) && /^[A-Z_]+$/.test(c), c);
    assert.deepEqual([...seen].sort(), ['CONTEXT_TOO_LONG', 'INVALID_LENGTH', 'MALFORMED_SECRET_KEY']);
  });
});
