// Key formats through the full WASM build (`keys`): round trips for every ML-DSA and SLH-DSA
// set in every format the documents define; the IETF examples the Rust tests use
// (tests/vectors/keyfmt: RFC 9881 PEMs decoded and re-encoded byte for byte, the RFC 9909
// SHA-2 example refused by name, the RFC 9964 JWK and COSE_Key with their thumbprints and
// signatures); @noble/post-quantum's key generation from the same seeds as an independent
// check of the keys inside the encodings; a key made by `mlDsa65.keygen` that signs after
// PKCS #8 and back; and bad input: wrong types (TypeError), wrong sizes (RangeError), and
// truncated, altered or mismatched encodings (QuasarError, module 'keyfmt', a stable code).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';

import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';
import * as nobleSlh from '@noble/post-quantum/slh-dsa.js';

import * as full from '../index.js';
import { bytes as labelled } from '../support/bytes.mjs';

const { keys, KEY_ALGORITHMS } = full;
const vector = (name) => readFileSync(new URL(`../../tests/vectors/keyfmt/${name}`, import.meta.url), 'utf8');
const hex = (u8) => Buffer.from(u8).toString('hex');
const fromHex = (s) => new Uint8Array(Buffer.from(s, 'hex'));
/** The PEM text as the encoders write it: LF line ends, one final newline. */
const normalise = (pem) => `${pem.replace(/\r\n/g, '\n').trimEnd()}\n`;
const NOBLE_ML = { 44: ml_dsa44, 65: ml_dsa65, 87: ml_dsa87 };
const ML_LEVELS = [44, 65, 87];
const SLH_SETS = ['128s', '128f', '192s', '192f', '256s', '256f'];
/** The sets JOSE defines (RFC 9964, draft-ietf-cose-sphincs-plus); COSE_Key: ML-DSA only. */
const JOSE = new Set(['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', 'SLH-DSA-SHAKE-128s']);

/** A QuasarError of the key-format module with `code`. */
const keyError = (code) => (e) => e?.name === 'QuasarError' && e.code === code && e.module === 'keyfmt';

before(async () => {
  await full.init();
});

test('the algorithm list is the standard names, ML-DSA then SLH-DSA', () => {
  assert.deepEqual([...KEY_ALGORITHMS], ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', ...SLH_SETS.map((p) => `SLH-DSA-SHAKE-${p}`)]);
  assert.equal(keys.algorithms, KEY_ALGORITHMS);
  assert.ok(Object.isFrozen(keys) && Object.isFrozen(KEY_ALGORITHMS));
});

/** Round trips of one private key `k` (`{ publicKey, secretKey, seed? }`) of algorithm `alg`. */
function roundTrips(alg, k) {
  const mlDsa = alg.startsWith('ML-DSA');
  // SubjectPublicKeyInfo, DER and PEM.
  const der = keys.toSpki(alg, k.publicKey);
  const pem = keys.toSpki(alg, k.publicKey, { format: 'pem' });
  assert.ok(der instanceof Uint8Array && der[0] === 0x30);
  assert.match(pem, /^-----BEGIN PUBLIC KEY-----\n[A-Za-z0-9+/=\n]+-----END PUBLIC KEY-----\n$/);
  for (const input of [der, pem]) {
    const back = keys.fromSpki(input);
    assert.equal(Object.getPrototypeOf(back), null);
    assert.deepEqual({ ...back }, { alg, publicKey: k.publicKey });
  }
  // PKCS #8: every ML-DSA form, with and without the public key, DER and PEM.
  const given = mlDsa ? { seed: k.seed } : { secretKey: k.secretKey };
  for (const form of mlDsa ? ['seed', 'expanded', 'both'] : ['seed']) {
    for (const includePublicKey of [false, true]) {
      const d = keys.toPkcs8(alg, given, { form, includePublicKey });
      const p = keys.toPkcs8(alg, given, { form, includePublicKey, format: 'pem' });
      assert.match(p, /^-----BEGIN PRIVATE KEY-----\n/);
      for (const input of [d, p]) {
        const back = keys.fromPkcs8(input);
        assert.equal(Object.getPrototypeOf(back), null);
        const expected = { alg, publicKey: k.publicKey, secretKey: k.secretKey };
        if (mlDsa && form !== 'expanded') expected.seed = k.seed;
        assert.deepEqual({ ...back }, expected, `${alg} ${form} ${includePublicKey}`);
      }
    }
  }
  // A decoded key passes back unchanged; from the expanded key alone the seed forms fail.
  const decoded = keys.fromPkcs8(keys.toPkcs8(alg, given));
  assert.deepEqual(keys.toPkcs8(alg, decoded), keys.toPkcs8(alg, given));
  if (mlDsa) {
    assert.deepEqual(keys.fromPkcs8(keys.toPkcs8(alg, { secretKey: k.secretKey }, { form: 'expanded' })).publicKey, k.publicKey);
    assert.throws(() => keys.toPkcs8(alg, { secretKey: k.secretKey }), keyError('NO_SEED'));
    assert.throws(() => keys.toJwk(alg, { secretKey: k.secretKey }), keyError('NO_SEED'));
  }
  // JWK where JOSE defines the set.
  if (JOSE.has(alg)) {
    const pub = keys.toJwk(alg, { publicKey: k.publicKey });
    const jwk = JSON.parse(pub);
    assert.deepEqual(Object.keys(jwk), ['kty', 'alg', 'pub']);
    assert.equal(jwk.kty, 'AKP');
    assert.equal(jwk.alg, alg);
    assert.deepEqual({ ...keys.fromJwk(pub) }, { alg, publicKey: k.publicKey });
    const priv = keys.toJwk(alg, given);
    const back = keys.fromJwk(priv);
    assert.deepEqual(back.publicKey, k.publicKey);
    assert.deepEqual(back.secretKey, k.secretKey);
    if (mlDsa) assert.deepEqual(back.seed, k.seed);
    assert.match(keys.jwkThumbprint(alg, k.publicKey), /^[A-Za-z0-9_-]{43}$/);
  } else {
    assert.throws(() => keys.toJwk(alg, { publicKey: k.publicKey }), keyError('UNSUPPORTED_FORMAT'));
    assert.throws(() => keys.jwkThumbprint(alg, k.publicKey), keyError('UNSUPPORTED_FORMAT'));
  }
  // COSE_Key: ML-DSA only (the SLH-DSA numbers are still TBD).
  if (mlDsa) {
    const pub = keys.toCoseKey(alg, { publicKey: k.publicKey });
    assert.deepEqual({ ...keys.fromCoseKey(pub) }, { alg, publicKey: k.publicKey });
    const back = keys.fromCoseKey(keys.toCoseKey(alg, given));
    assert.deepEqual({ ...back }, { alg, publicKey: k.publicKey, seed: k.seed, secretKey: k.secretKey });
    assert.equal(keys.coseThumbprint(alg, k.publicKey).length, 32);
  } else {
    assert.throws(() => keys.toCoseKey(alg, { publicKey: k.publicKey }), keyError('UNSUPPORTED_FORMAT'));
    assert.throws(() => keys.toCoseKey(alg, given), keyError('UNSUPPORTED_FORMAT'));
  }
}

describe('round trips', () => {
  for (const level of ML_LEVELS) {
    test(`ML-DSA-${level}: SPKI, PKCS #8 (three forms), JWK, COSE_Key`, () => {
      const seed = labelled(`keyfmt/ml/${level}`, 32);
      const k = { seed, ...full[`mlDsa${level}`].keygen(seed) };
      roundTrips(`ML-DSA-${level}`, k);
    });
  }
  for (const p of SLH_SETS) {
    test(`SLH-DSA-SHAKE-${p}: SPKI, PKCS #8${p === '128s' ? ', JWK' : ''}`, () => {
      const api = full[`slhDsaShake${p}`];
      const k = api.keygen(labelled(`keyfmt/slh/${p}`, api.lengths.seed));
      roundTrips(`SLH-DSA-SHAKE-${p}`, k);
    });
  }
});

describe('the IETF examples (tests/vectors/keyfmt), as the Rust tests read them', () => {
  const seed = Uint8Array.from({ length: 32 }, (_, i) => i);
  for (const level of ML_LEVELS) {
    const alg = `ML-DSA-${level}`;
    test(`RFC 9881 ${alg}: decoded, re-encoded exactly, and the key noble derives from the seed`, () => {
      const pubPem = vector(`${alg}.pub`);
      const pk = keys.fromSpki(pubPem);
      assert.equal(pk.alg, alg);
      assert.equal(keys.toSpki(alg, pk.publicKey, { format: 'pem' }), normalise(pubPem));
      // Independent: noble's ML-DSA.KeyGen_internal from the example seed 00 01 … 1f.
      const noble = NOBLE_ML[level].keygen(seed);
      assert.equal(hex(pk.publicKey), hex(noble.publicKey));
      for (const form of ['seed', 'expanded', 'both']) {
        const text = vector(`${alg}-${form}.priv`);
        const k = keys.fromPkcs8(text);
        assert.equal(k.alg, alg);
        assert.equal(hex(k.publicKey), hex(noble.publicKey));
        assert.equal(hex(k.secretKey), hex(noble.secretKey));
        assert.equal(k.seed === undefined ? undefined : hex(k.seed), form === 'expanded' ? undefined : hex(seed));
        // The same form, written again, is the example byte for byte.
        assert.equal(keys.toPkcs8(alg, k, { form, format: 'pem' }), normalise(text));
      }
    });
  }

  test('RFC 9881: the three inconsistent ML-DSA-44 keys are refused (KEY_MISMATCH)', () => {
    for (const i of [1, 2, 3]) assert.throws(() => keys.fromPkcs8(vector(`bad-ML-DSA-44-${i}.priv`)), keyError('KEY_MISMATCH'));
  });

  test('RFC 9909: the SLH-DSA-SHA2-128s example is refused by name (UNKNOWN_ALGORITHM)', () => {
    assert.throws(() => keys.fromSpki(vector('id-slh-dsa-sha2-128s.pub')), keyError('UNKNOWN_ALGORITHM'));
    assert.throws(() => keys.fromPkcs8(vector('id-slh-dsa-sha2-128s.priv')), keyError('UNKNOWN_ALGORITHM'));
  });

  for (const level of ML_LEVELS) {
    const alg = `ML-DSA-${level}`;
    test(`RFC 9964 ${alg}: the JWK and COSE_Key decode, with their thumbprints, and the examples' signatures verify`, () => {
      const jose = JSON.parse(vector(`ML_DSA_${level}.jose.json`));
      const k = keys.fromJwk(JSON.stringify(jose.jwk));
      assert.equal(k.alg, alg);
      assert.equal(hex(k.seed), jose.priv);
      assert.equal(hex(k.publicKey), hex(NOBLE_ML[level].keygen(fromHex(jose.priv)).publicKey));
      assert.equal(keys.jwkThumbprint(alg, k.publicKey), jose.jwk.kid);
      const api = full[`mlDsa${level}`];
      assert.equal(api.verify(fromHex(jose.raw_signature), fromHex(jose.raw_to_be_signed), k.publicKey), true);
      // Written again: the example's members (its kid aside) in the order RFC 9964 shows.
      const again = JSON.parse(keys.toJwk(alg, k));
      assert.deepEqual(again, { kty: 'AKP', alg, pub: jose.jwk.pub, priv: jose.jwk.priv });

      const cose = JSON.parse(vector(`ML_DSA_${level}.cose.json`));
      const bytes = fromHex(cose.key);
      const c = keys.fromCoseKey(bytes);
      assert.deepEqual({ ...c }, { ...k });
      // Its kid (label 2) is the COSE Key thumbprint (RFC 9679).
      assert.equal(bytes[1], 0x02);
      assert.equal(hex(keys.coseThumbprint(alg, c.publicKey)), hex(bytes.subarray(4, 36)));
      assert.equal(api.verify(fromHex(cose.raw_signature), fromHex(cose.raw_to_be_signed), c.publicKey), true);
    });
  }
});

test('noble derives the same SLH-DSA public key as the one inside the SPKI (every set)', () => {
  for (const p of SLH_SETS) {
    const api = full[`slhDsaShake${p}`];
    const seed = labelled(`keyfmt/noble/${p}`, api.lengths.seed);
    const ours = keys.fromSpki(keys.toSpki(`SLH-DSA-SHAKE-${p}`, api.keygen(seed).publicKey));
    const noble = nobleSlh[`slh_dsa_shake_${p}`].keygen(seed);
    assert.equal(hex(ours.publicKey), hex(noble.publicKey), p);
    assert.equal(hex(keys.fromPkcs8(keys.toPkcs8(ours.alg, { secretKey: noble.secretKey })).secretKey), hex(noble.secretKey), p);
  }
});

test('a key made by mlDsa65.keygen, through PKCS #8 PEM and back, signs and verifies', () => {
  const { publicKey, secretKey } = full.mlDsa65.keygen();
  // keygen() does not return its seed: the key travels in the expanded form.
  const pem = keys.toPkcs8('ML-DSA-65', { secretKey, publicKey }, { form: 'expanded', format: 'pem' });
  const back = keys.fromPkcs8(pem);
  assert.equal(back.seed, undefined);
  const msg = new TextEncoder().encode('block 42');
  const context = new TextEncoder().encode('keyfmt');
  const sig = full.mlDsa65.sign(msg, back.secretKey, { context });
  assert.equal(full.mlDsa65.verify(sig, msg, keys.fromSpki(keys.toSpki('ML-DSA-65', back.publicKey)).publicKey, { context }), true);
  // From a seed, the seed form (RFC 9881's recommendation) is the default.
  const seed = labelled('keyfmt/sign/65', 32);
  const k = keys.fromPkcs8(keys.toPkcs8('ML-DSA-65', { seed }));
  assert.deepEqual(k.secretKey, full.mlDsa65.keygen(seed).secretKey);
  assert.equal(full.mlDsa65.verify(full.mlDsa65.sign(msg, k.secretKey), msg, k.publicKey), true);
});

describe('bad input', () => {
  const seed = labelled('keyfmt/bad', 32);
  let k44;
  let k65;
  before(() => {
    k44 = full.mlDsa44.keygen(seed);
    k65 = full.mlDsa65.keygen(seed);
  });
  const spki = () => keys.toSpki('ML-DSA-44', k44.publicKey);
  const pkcs8 = () => keys.toPkcs8('ML-DSA-44', { seed }, { includePublicKey: true });

  test('every truncation of an SPKI, a PKCS #8 key and a COSE_Key is a typed error', () => {
    const codes = new Set(['KEY_TRUNCATED', 'KEY_LENGTH_MISMATCH', 'MALFORMED_KEY', 'UNEXPECTED_TAG', 'BAD_CBOR', 'KEY_TRAILING_DATA', 'UNSUPPORTED_KEY_VERSION']);
    const cose = keys.toCoseKey('ML-DSA-44', { seed });
    for (const [what, whole, decode] of [['spki', spki(), keys.fromSpki], ['pkcs8', pkcs8(), keys.fromPkcs8], ['cose', cose, keys.fromCoseKey]]) {
      for (let n = 0; n < whole.length; n += n < 64 ? 1 : 97) {
        assert.throws(() => decode(whole.subarray(0, n)), (e) => e.name === 'QuasarError' && e.module === 'keyfmt' && codes.has(e.code), `${what} cut at ${n}`);
      }
      const longer = new Uint8Array(whole.length + 1);
      longer.set(whole);
      assert.throws(() => decode(longer), (e) => e.name === 'QuasarError' && e.module === 'keyfmt', `${what} extended`);
    }
  });

  test('a truncated or altered PEM, or JWK, is a typed error', () => {
    const pem = keys.toSpki('ML-DSA-44', k44.publicKey, { format: 'pem' });
    assert.throws(() => keys.fromSpki(pem.slice(0, 100)), keyError('BAD_PEM'));
    assert.throws(() => keys.fromSpki(pem.replace('PUBLIC', 'PRIVATE')), keyError('BAD_PEM'));
    assert.throws(() => keys.fromPkcs8(pem), keyError('BAD_PEM'));
    const jwk = keys.toJwk('ML-DSA-44', { seed });
    assert.throws(() => keys.fromJwk(jwk.slice(0, -1)), keyError('BAD_JSON'));
    assert.throws(() => keys.fromJwk(jwk.replace('"kty":"AKP"', '"kty":"OKP"')), keyError('WRONG_KEY_TYPE'));
    assert.throws(() => keys.fromJwk(jwk.replace('ML-DSA-44', 'ML-DSA-65')), keyError('KEY_LENGTH_MISMATCH'));
    assert.throws(() => keys.fromJwk(`{"kty":"AKP",${jwk.slice(1)}`), keyError('DUPLICATE_FIELD'));
    // The seed of one key beside the public key of another.
    const other = JSON.parse(keys.toJwk('ML-DSA-44', { seed: labelled('keyfmt/other', 32) }));
    assert.throws(() => keys.fromJwk(JSON.stringify({ ...JSON.parse(jwk), pub: other.pub })), keyError('KEY_MISMATCH'));
  });

  test('wrong types are TypeErrors; bytes are DER or CBOR, strings are text', () => {
    for (const v of [undefined, null, 1, {}, [1], new Uint16Array(4), new String('x')]) {
      assert.throws(() => keys.fromSpki(v), TypeError);
      assert.throws(() => keys.fromPkcs8(v), TypeError);
      assert.throws(() => keys.fromCoseKey(v), TypeError);
      assert.throws(() => keys.toSpki('ML-DSA-44', v), TypeError);
    }
    assert.throws(() => keys.fromCoseKey('a5'), TypeError);
    assert.throws(() => keys.fromJwk(new TextEncoder().encode(keys.toJwk('ML-DSA-44', { publicKey: k44.publicKey }))), TypeError);
    assert.throws(() => keys.fromJwk(JSON.parse(keys.toJwk('ML-DSA-44', { publicKey: k44.publicKey }))), TypeError);
    // PEM text read as bytes (readFileSync without an encoding) is named as such.
    const pemBytes = new TextEncoder().encode(keys.toSpki('ML-DSA-44', k44.publicKey, { format: 'pem' }));
    assert.throws(() => keys.fromSpki(pemBytes), { name: 'TypeError', message: /PEM text in a Uint8Array/ });
    assert.throws(() => keys.toSpki(44, k44.publicKey), TypeError);
    assert.throws(() => keys.toPkcs8('ML-DSA-44', seed), TypeError); // the seed bare, not { seed }
    assert.throws(() => keys.toPkcs8('ML-DSA-44', {}), TypeError);
    assert.throws(() => keys.toPkcs8('ML-DSA-44', { sed: seed }), TypeError);
    assert.throws(() => keys.toPkcs8('ML-DSA-44', { seed }, { fromat: 'pem' }), TypeError);
    assert.throws(() => keys.toPkcs8('ML-DSA-44', { seed }, { format: 'PEM' }), RangeError);
    assert.throws(() => keys.toPkcs8('ML-DSA-44', { seed }, { form: 'expandedKey' }), RangeError);
    assert.throws(() => keys.toPkcs8('ML-DSA-44', { seed }, { includePublicKey: 1 }), TypeError);
    assert.throws(() => keys.toPkcs8('SLH-DSA-SHAKE-128f', { seed: new Uint8Array(32) }), TypeError);
    // An option inherited from a prototype of the caller's own is refused; Object.prototype's is not read.
    assert.throws(() => keys.toSpki('ML-DSA-44', k44.publicKey, Object.create({ format: 'pem' })), TypeError);
    Object.prototype.format = 'pem';
    Object.prototype.seed = new Uint8Array(32);
    try {
      assert.ok(keys.toSpki('ML-DSA-44', k44.publicKey, {}) instanceof Uint8Array);
      assert.equal(keys.fromPkcs8(keys.toPkcs8('ML-DSA-44', { secretKey: k44.secretKey }, { form: 'expanded' })).seed, undefined);
    } finally {
      delete Object.prototype.format;
      delete Object.prototype.seed;
    }
  });

  test('wrong sizes are RangeErrors, a wrong or unknown algorithm a QuasarError', () => {
    assert.throws(() => keys.toSpki('ML-DSA-44', k65.publicKey), RangeError);
    assert.throws(() => keys.toPkcs8('ML-DSA-44', { seed: new Uint8Array(31) }), RangeError);
    assert.throws(() => keys.toPkcs8('ML-DSA-65', { secretKey: k44.secretKey }), RangeError);
    assert.throws(() => keys.fromSpki(new Uint8Array((1 << 16) + 1)), RangeError);
    assert.throws(() => keys.fromJwk('x'.repeat((1 << 17) + 1)), RangeError);
    for (const alg of ['ML-DSA-66', 'ml-dsa-44', 'SLH-DSA-SHA2-128s', '', 'toString', '__proto__']) {
      assert.throws(() => keys.toSpki(alg, k44.publicKey), keyError('UNKNOWN_ALGORITHM'), alg);
    }
    // A decoded key given under another name, or beside another key's parts.
    const decoded = keys.fromPkcs8(pkcs8());
    assert.throws(() => keys.toPkcs8('ML-DSA-65', { ...decoded, secretKey: undefined, publicKey: undefined }), keyError('KEY_MISMATCH'));
    assert.throws(() => keys.toPkcs8('ML-DSA-44', { seed, publicKey: full.mlDsa44.keygen(labelled('keyfmt/x', 32)).publicKey }), keyError('KEY_MISMATCH'));
    assert.throws(() => keys.toPkcs8('ML-DSA-44', { seed, secretKey: full.mlDsa44.keygen(labelled('keyfmt/x', 32)).secretKey }), keyError('KEY_MISMATCH'));
    // An ML-DSA-44 SPKI whose OID is changed to ML-DSA-65's: the key is the wrong length.
    const der = spki();
    const i = der.indexOf(0x11, 8);
    der[i] = 0x12;
    assert.throws(() => keys.fromSpki(der), keyError('KEY_LENGTH_MISMATCH'));
    // An SLH-DSA key whose PK.root is not its seeds' root.
    const slh = full.slhDsaShake128f.keygen(labelled('keyfmt/slh', 48));
    const sk = slh.secretKey.slice();
    sk[sk.length - 1] ^= 1;
    assert.throws(() => keys.toPkcs8('SLH-DSA-SHAKE-128f', { secretKey: sk }), keyError('KEY_MISMATCH'));
  });

  test('the caller\'s secret arrays are copied, neither wiped nor changed', () => {
    const s = seed.slice();
    keys.toPkcs8('ML-DSA-44', { seed: s }, { format: 'pem' });
    keys.toJwk('ML-DSA-44', { seed: s });
    assert.deepEqual(s, seed);
  });
});
