// The entry points that load one module each (package.json `exports`; scripts/build-wasm.mjs
// builds the modules): each works on its own module, agrees with the all-in-one build
// (`quasar-pq`) on the same inputs, offers the same names as that build for its family, and its
// module exports that family only — a page that loads `quasar-pq/verify/mldsa` gets no SLH-DSA,
// no signing and no protocol code.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';

import * as full from '../index.js';
import * as mldsaVerify from '../entry/mldsa-verify.js';
import * as slhdsaVerify from '../entry/slhdsa-verify.js';
import * as sign from '../entry/sign.js';
import * as cert from '../entry/cert.js';
import * as lensEd25519 from '../entry/lens-ed25519.js';
import * as lensSecp256k1 from '../entry/lens-secp256k1.js';
import * as lensRistretto255 from '../entry/lens-ristretto255.js';
import * as pulsar from '../entry/pulsar.js';
import * as committee from '../entry/committee.js';
import * as corona from '../entry/corona.js';
import { label32 } from '../support/run.mjs';

const ROOT = new URL('../../', import.meta.url);
const utf8 = (s) => new TextEncoder().encode(s);
const LENS = { ed25519: lensEd25519, secp256k1: lensSecp256k1, ristretto255: lensRistretto255 };
const ENTRIES = {
  'mldsa-verify': mldsaVerify,
  'slhdsa-verify': slhdsaVerify,
  sign,
  cert,
  ...Object.fromEntries(Object.entries(LENS).map(([c, e]) => [`lens-${c}`, e])),
  pulsar,
  committee,
  corona,
};

before(async () => {
  await full.init();
  for (const e of Object.values(ENTRIES)) await e.init();
});

/** The names of a module's WebAssembly exports. */
function wasmExports(module) {
  const bytes = readFileSync(new URL(`pkg/${module}/quasar_pq_bg.wasm`, ROOT));
  return WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name);
}

/** Runs `parties` with the entry point's `run`, frees them, and returns the outcomes (no errors). */
function runAll(entry, parties) {
  const r = entry.run(parties);
  parties.forEach((q) => q.free());
  assert.equal(r.errors.size, 0, [...r.errors.values()].map((e) => e.message).join('; '));
  return r.outcomes;
}

/** No export of `module` starts with one of the other families' prefixes. */
function onlyFamily(module, others) {
  const foreign = new RegExp(`^(${others.join('|')})`, 'i');
  assert.deepEqual(wasmExports(module).filter((n) => foreign.test(n)), [], `pkg/${module} exports another family`);
}

/** Every export but `init`, `initSync` and `default` is the full build's, with the same members. */
function sameShape(entry, name) {
  for (const key of Object.keys(entry)) {
    if (['init', 'initSync', 'default'].includes(key)) continue;
    assert.ok(key in full, `${name} exports ${key}, which quasar-pq does not`);
    const a = entry[key];
    const b = full[key];
    assert.equal(typeof a, typeof b, `${name}.${key}`);
    if (typeof a === 'object' && a !== null && !ArrayBuffer.isView(a) && !Array.isArray(a)) {
      for (const member of Object.keys(a)) assert.ok(member in b, `${name}.${key}.${member} is not in quasar-pq`);
    }
  }
}

describe('quasar-pq/verify/mldsa', () => {
  test('verifies what the full build signs, refuses what it refuses, with the same errors', () => {
    for (const set of ['mlDsa44', 'mlDsa65', 'mlDsa87']) {
      const { publicKey, secretKey } = full[set].keygen(label32(`modules/${set}`));
      const msg = utf8(`message for ${set}`);
      const sig = full[set].sign(msg, secretKey, { context: utf8('ctx') });
      const v = mldsaVerify[set];
      assert.equal(v.verify(sig, msg, publicKey, { context: utf8('ctx') }), true);
      assert.equal(v.verify(sig, msg, publicKey), false, 'another context');
      const bad = sig.slice();
      bad[7] ^= 1;
      assert.equal(v.verify(bad, msg, publicKey, { context: utf8('ctx') }), false);
      const prepared = v.prepare(publicKey);
      try {
        assert.equal(prepared.verify(sig, msg, { context: utf8('ctx') }), true);
      } finally {
        prepared.free();
      }
      const mu = v.internal.computeMu(msg, publicKey, { context: utf8('ctx') });
      assert.deepEqual(mu, full[set].internal.computeMu(msg, publicKey, { context: utf8('ctx') }));
      assert.equal(v.internal.verify(sig, mu, publicKey, { externalMu: true }), true);
      assert.throws(() => v.verify(sig, msg, publicKey.subarray(1)), RangeError);
      const long = { context: new Uint8Array(256) };
      const code = (f) => {
        try {
          f();
        } catch (e) {
          return [e.name, e.code, e.module, e.message];
        }
        return null;
      };
      assert.deepEqual(code(() => v.verify(sig, msg, publicKey, long)), code(() => full[set].verify(sig, msg, publicKey, long)));
    }
    sameShape(mldsaVerify, 'quasar-pq/verify/mldsa');
  });

  test('its module holds ML-DSA verification only', () => {
    const names = wasmExports('mldsa-verify');
    assert.ok(names.includes('mlDsaVerify'));
    assert.deepEqual(names.filter((n) => /sign|keygen/i.test(n) || /^(slhdsa|cert|lens|pulsar|corona|bls|magnetar|keyfmt)/i.test(n)), []);
  });
});

describe('quasar-pq/verify/slhdsa', () => {
  test('verifies what the full build signs and refuses a flipped bit', () => {
    const { publicKey, secretKey } = full.slhDsaShake128f.keygen(new Uint8Array(48).fill(3));
    const msg = utf8('slh message');
    const sig = full.slhDsaShake128f.sign(msg, secretKey);
    assert.equal(slhdsaVerify.slhDsaShake128f.verify(sig, msg, publicKey), true);
    const bad = sig.slice();
    bad[100] ^= 1;
    assert.equal(slhdsaVerify.slhDsaShake128f.verify(bad, msg, publicKey), false);
    assert.equal(slhdsaVerify.slhDsaShake192s.verify(sig, msg, new Uint8Array(48)), false, 'a signature of another set');
    sameShape(slhdsaVerify, 'quasar-pq/verify/slhdsa');
    assert.deepEqual(wasmExports('slhdsa-verify').filter((n) => /sign|keygen/i.test(n) || /^(mldsa|cert|lens|pulsar|corona|bls|magnetar|keyfmt)/i.test(n)), []);
  });
});

describe('quasar-pq/sign', () => {
  test('keys and signatures equal the full build\'s for the same seeds; key formats agree', () => {
    const seed = label32('modules/sign');
    const a = sign.mlDsa65.keygen(seed);
    const b = full.mlDsa65.keygen(seed);
    assert.deepEqual(a, b);
    const msg = utf8('signed by the sign module');
    const sig = sign.mlDsa65.sign(msg, a.secretKey, { extraEntropy: false });
    assert.deepEqual(sig, full.mlDsa65.sign(msg, b.secretKey, { extraEntropy: false }));
    assert.equal(full.mlDsa65.verify(sig, msg, b.publicKey), true);
    const slh = sign.slhDsaShake128f.keygen(new Uint8Array(48).fill(5));
    assert.deepEqual(slh, full.slhDsaShake128f.keygen(new Uint8Array(48).fill(5)));
    const spki = sign.keys.toSpki('ML-DSA-65', a.publicKey);
    assert.deepEqual(spki, full.keys.toSpki('ML-DSA-65', a.publicKey));
    assert.deepEqual(sign.keys.fromSpki(spki).publicKey, a.publicKey);
    sameShape(sign, 'quasar-pq/sign');
    onlyFamily('sign', ['cert', 'lens', 'pulsar', 'corona', 'bls', 'magnetar']);
  });
});

describe('quasar-pq/cert', () => {
  test('follows the sample chain with the same reports as the full build', () => {
    const manifest = JSON.parse(readFileSync(new URL('sample/chain.json', ROOT), 'utf8'));
    const file = (name) => new Uint8Array(readFileSync(new URL(`sample/${name}`, ROOT)));
    const set0 = file(manifest.sets[0]);
    const first = file(manifest.blocks[0].certificate);
    const a = cert.verifyCertificate(first, set0, 'pq-fast', { full: true });
    assert.equal(a.ok, true);
    const legs = (r) => r.legs.map((l) => `${l.kind}:${l.ok}`);
    assert.deepEqual(legs(a), legs(full.verifyCertificate(first, set0, 'pq-fast', { full: true })));
    const forged = first.slice();
    forged[forged.length - 5] ^= 1;
    const b = cert.verifyCertificate(forged, set0, 'pq-fast');
    const c = full.verifyCertificate(forged, set0, 'pq-fast');
    assert.deepEqual([b.ok, b.code], [c.ok, c.code]);
    assert.equal(b.ok, false);
    const client = new cert.LightClient(set0, 'pq-fast');
    try {
      for (const [i, block] of manifest.blocks.entries()) {
        const next = manifest.blocks[i + 1];
        const u = next && next.epoch !== block.epoch ? client.update(file(block.certificate), file(manifest.sets[next.epoch])) : client.update(file(block.certificate));
        assert.equal(u.ok, true, `block ${block.height}: ${u.reason}`);
      }
      assert.equal(client.height, BigInt(manifest.blocks.at(-1).height));
    } finally {
      client.free();
    }
    const { secretKey } = cert.bls.keygen(new Uint8Array(32).fill(9));
    assert.deepEqual(cert.bls.getPublicKey(secretKey), full.bls.getPublicKey(secretKey));
    sameShape(cert, 'quasar-pq/cert');
    onlyFamily('cert', ['lens', 'pulsar', 'corona', 'keyfmt', 'testchain']);
  });
});

describe('the protocol families', () => {
  test('quasar-pq/corona: a dealt 2-of-3 key signs; the full build verifies', () => {
    const dealt = corona.corona.deal({ threshold: 2, parties: 3, seed: label32('modules/corona') });
    const shares = dealt.shares.map((s) => corona.CoronaShare.fromDealer(s.keyPackage, dealt.groupKey));
    try {
      const message = utf8('corona block');
      const parties = [1, 2].map((id) =>
        corona.corona.signer({ share: shares[id - 1], signers: [1, 2], session: label32('modules/corona/session'), message, seed: label32(`modules/corona/${id}`) }),
      );
      const o = runAll(corona, parties).get(1);
      assert.equal(full.corona.verify(dealt.groupKey, message, new Uint8Array(0), o.signature), true);
    } finally {
      shares.forEach((s) => s.free());
    }
    sameShape(corona, 'quasar-pq/corona');
    onlyFamily('corona', ['lens', 'pulsar', 'cert', 'bls', 'magnetar', 'slhdsa', 'keyfmt']);
  });

  test('quasar-pq/committee: a dealt 2-of-3 committee key signs; the full build verifies', () => {
    const p = committee.pulsar;
    const dealt = p.committee.deal({ level: 44, threshold: 2, members: [1, 2, 3], seed: label32('modules/committee') });
    const shares = new Map(dealt.shares.map((s) => [s.id, committee.PulsarCommitteeShare.fromDealer(s.dealerShare, dealt.key)]));
    try {
      const message = utf8('committee block');
      const session = label32('modules/committee/session');
      const parties = [1, 3].map((id) => p.committee.signer({ share: shares.get(id), session, signers: [1, 3], message, seed: label32(`modules/committee/${id}`) }));
      const { signature } = runAll(committee, parties).get(1);
      assert.equal(p.verify(dealt.publicKey, message, signature), true);
      assert.equal(full.pulsar.verify(dealt.publicKey, message, signature), true);
      assert.equal(full.mlDsa44.verify(signature, message, dealt.publicKey), true);
    } finally {
      shares.forEach((s) => s.free());
    }
    assert.deepEqual(Object.keys(p).sort(), ['committee', 'levels', 'verify']);
    sameShape(committee, 'quasar-pq/committee');
    onlyFamily('committee', ['lens', 'corona', 'cert', 'bls', 'magnetar', 'slhdsa', 'keyfmt', 'pulsarDkg', 'pulsarSeal', 'pulsarReshare', 'lss']);
  });

  test('quasar-pq/pulsar: a 2-of-3 Pulsar DKG agrees on one sharing; an envelope it seals, the full build opens; it verifies ML-DSA', () => {
    const p = pulsar.pulsar;
    assert.equal(p.committee, undefined, 'the committee is quasar-pq/committee');
    const ids = [1, 2, 3];
    const session = label32('modules/pulsar');
    const parties = ids.map((id) => p.dkg({ session, parties: ids, threshold: 2, id, seed: label32(`modules/pulsar/${id}`) }));
    const outcomes = runAll(pulsar, parties);
    try {
      const sharings = [...outcomes.values()].map((o) => o.sharing);
      assert.ok(sharings.every((s) => s.length > 0 && s.every((b, i) => b === sharings[0][i])), 'one sharing');
    } finally {
      for (const o of outcomes.values()) o.keyShare?.free();
    }
    const aad = utf8('modules/pulsar/envelope');
    const message = utf8('a share for party 7');
    const mine = full.pulsar.envelope.keygen({ id: 7, seed: label32('modules/pulsar/kem') });
    const sealed = p.envelope.seal({ recipient: mine.encapsulationKey, aad, message, seed: label32('modules/pulsar/seal') });
    assert.deepEqual(full.pulsar.envelope.open({ key: mine.key, aad, sealed }), message);
    // Plain FIPS 204 verification, as the full build's.
    const { publicKey, secretKey } = full.mlDsa65.keygen(label32('modules/pulsar/verify'));
    const signature = full.mlDsa65.sign(message, secretKey);
    assert.equal(p.verify(publicKey, message, signature), true);
    assert.equal(p.verify(publicKey, utf8('another message'), signature), false);
    sameShape(pulsar, 'quasar-pq/pulsar');
    onlyFamily('pulsar', ['lens', 'corona', 'cert', 'bls', 'magnetar', 'slhdsa', 'keyfmt', 'pulsarCommittee']);
  });

  for (const [curve, entry] of Object.entries(LENS)) {
    test(`quasar-pq/lens/${curve}: a dealt 2-of-3 key signs through a coordinator; the full build verifies; other curves name their entry point`, () => {
      const l = entry.lens;
      const dealt = l.deal({ curve, parties: [1, 2, 3], threshold: 2, seed: label32(`modules/lens/${curve}`) });
      const shares = dealt.shares.map((s) => entry.LensKeyShare.fromDealer(curve, s.dealerShare, dealt.publicPackage));
      try {
        const message = utf8('lens block');
        const hub = 100;
        const coordinator = l.coordinate({ publicPackage: dealt.publicPackage, id: hub, message });
        const signers = shares.slice(0, 2).map((share) => l.sign({ share, coordinator: hub, message, seed: label32(`modules/lens/${curve}/${share.id}`) }));
        const out = runAll(entry, [coordinator, ...signers]).get(hub);
        assert.equal(full.lens.verify(curve, shares[0].publicInfo().groupKey, message, out.signature), true);
        assert.equal(l.verify(curve, shares[0].publicInfo().groupKey, message, out.signature), true);
      } finally {
        shares.forEach((s) => s.free());
      }
      for (const other of Object.keys(LENS).filter((c) => c !== curve)) {
        assert.throws(
          () => l.deal({ curve: other, parties: [1, 2, 3], threshold: 2, seed: label32('modules/lens/other') }),
          (e) => e instanceof RangeError && e.message.includes(`quasar-pq/lens/${other}`),
          `${curve}'s module refuses ${other}`,
        );
      }
      sameShape(entry, `quasar-pq/lens/${curve}`);
      onlyFamily(`lens-${curve}`, ['pulsar', 'corona', 'cert', 'bls', 'magnetar', 'slhdsa', 'keyfmt']);
    });
  }
});

describe('the verify modules\' allocator (crate/src/wasm/heap.rs)', () => {
  test('memory stops growing under repeated calls of every size, and every answer stays right', async () => {
    // The same glue instance the entry point loaded: initSync returns its exports.
    const glue = await import('../../pkg/mldsa-verify/quasar_pq.js');
    const { memory } = glue.initSync({ module: readFileSync(new URL('pkg/mldsa-verify/quasar_pq_bg.wasm', ROOT)) });
    const { publicKey, secretKey } = full.mlDsa65.keygen(label32('modules/heap'));
    const sizes = [0, 1, 15, 16, 17, 1000, 4096, 65_535, 65_536, 200_000, 1 << 20];
    const messages = sizes.map((n) => new Uint8Array(n).fill(n & 0xff));
    const sigs = messages.map((m) => full.mlDsa65.sign(m, secretKey));
    const round = () => {
      for (let i = 0; i < messages.length; i++) {
        assert.equal(mldsaVerify.mlDsa65.verify(sigs[i], messages[i], publicKey), true);
        assert.equal(mldsaVerify.mlDsa65.verify(sigs[(i + 1) % sigs.length], messages[i], publicKey), false);
        const key = mldsaVerify.mlDsa65.prepare(publicKey);
        assert.equal(key.verify(sigs[i], messages[i]), true);
        key.free();
      }
    };
    round();
    round();
    const settled = memory.buffer.byteLength;
    for (let r = 0; r < 20; r++) round();
    assert.equal(memory.buffer.byteLength, settled, 'freed blocks serve the next calls: nothing grows');
    assert.ok(settled < 16 << 20, `${settled} bytes of memory for a 1 MiB message`);
  });
});

describe('an engine without WebAssembly SIMD', () => {
  /** Runs `code` (an ES module body) in a child Node whose engine "lacks" SIMD: WebAssembly.validate
   *  refuses the 43-byte probe (js/common.js SIMD_PROBE), and every module instantiated from
   *  bytes (not from a compiled `WebAssembly.Module`) has its size recorded in `globalThis.sizes`. */
  function withoutSimd(code) {
    const stub = [
      'const v = WebAssembly.validate, i = WebAssembly.instantiate;',
      'globalThis.sizes = [];',
      'WebAssembly.validate = (b) => (b.byteLength === 43 ? false : v(b));',
      'WebAssembly.instantiate = (b, imports) => (b.byteLength === undefined || globalThis.sizes.push(b.byteLength), i(b, imports));',
    ].join('');
    return execFileSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(stub)}`, '--input-type=module', '-e', code], { encoding: 'utf8' }).trim();
  }

  test('the probe is SIMD and valid; a module without a build for such an engine throws QuasarError NO_WASM_SIMD instead of failing to compile', async () => {
    const { SIMD_PROBE } = await import('../common.js');
    assert.equal(SIMD_PROBE.length, 43);
    assert.equal(WebAssembly.validate(new Uint8Array(SIMD_PROBE)), true);
    // Its function returns a v128 (0x7b) made by v128.const (0xfd 0x0c): SIMD in type and body.
    assert.deepEqual(SIMD_PROBE.slice(8, 15), [0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b]);
    assert.deepEqual(SIMD_PROBE.slice(24, 26), [0xfd, 0x0c]);
    for (const entry of ['entry/sign.js', 'entry/pulsar.js', 'index.js']) {
      const url = new URL(`../${entry}`, import.meta.url).href;
      const out = withoutSimd(`const m = await import(${JSON.stringify(url)}); try { await m.init(); console.log('loaded'); } catch (e) { console.log(e.name, e.code); }`);
      assert.equal(out, 'QuasarError NO_WASM_SIMD', entry);
    }
  });

  test('the verify entry points load their build without SIMD there, and verify with it', () => {
    const { publicKey, secretKey } = full.mlDsa65.keygen(label32('modules/baseline/mldsa'));
    const msg = utf8('a block, checked on an old engine');
    const sig = full.mlDsa65.sign(msg, secretKey);
    const slh = full.slhDsaShake128f.keygen(new Uint8Array(48).fill(7));
    const slhSig = full.slhDsaShake128f.sign(msg, slh.secretKey);
    const hex = (b) => Buffer.from(b).toString('hex');
    const cases = [
      ['entry/mldsa-verify.js', 'mldsa-verify', `m.mlDsa65.verify(h(${JSON.stringify(hex(sig))}), msg, h(${JSON.stringify(hex(publicKey))}))`],
      ['verify.js', 'light', `m.mlDsa65.verify(h(${JSON.stringify(hex(sig))}), msg, h(${JSON.stringify(hex(publicKey))}))`],
      ['entry/slhdsa-verify.js', 'slhdsa-verify', `m.slhDsaShake128f.verify(h(${JSON.stringify(hex(slhSig))}), msg, h(${JSON.stringify(hex(slh.publicKey))}))`],
    ];
    for (const [entry, module, call] of cases) {
      const url = new URL(`../${entry}`, import.meta.url).href;
      const out = withoutSimd(
        `const m = await import(${JSON.stringify(url)}); await m.init();` +
          `const h = (x) => new Uint8Array(Buffer.from(x, 'hex')); const msg = new TextEncoder().encode(${JSON.stringify('a block, checked on an old engine')});` +
          `const ok = ${call}; msg[0] ^= 1; console.log(JSON.stringify({ ok, flipped: ${call}, sizes: globalThis.sizes }));`,
      );
      const r = JSON.parse(out);
      assert.equal(r.ok, true, `${entry} verifies`);
      assert.equal(r.flipped, false, `${entry} refuses another message`);
      const baseline = readFileSync(new URL(`pkg/${module}/quasar_pq_baseline_bg.wasm`, ROOT)).length;
      assert.deepEqual(r.sizes, [baseline], `${entry} instantiated pkg/${module}/quasar_pq_baseline_bg.wasm`);
    }
  });
});
