// NIST ACVP vectors through the WASM builds: ML-DSA (keyGen, sigGen, sigVer) and SLH-DSA
// (keyGen, sigVer, and every valid sigVer case re-signed: the file carries sk and
// additionalRandomness, so each is a sigGen case too).
//
// The vectors are read from tests/vectors/acvp/{ml-dsa,slh-dsa}/ (NIST ACVP, copied unchanged) in the
// repository root. For SLH-DSA every SHAKE case runs; the SHA2 groups are skipped and
// counted (the package has the SHAKE sets only).
// Every loader counts the cases it ran and fails on zero, and fails on a parameter set or a
// signature interface it does not know.
//
// These files are from the early FIPS204 revision of ACVP: no context field and no
// `signatureInterface`. Their sigGen/sigVer messages are M′ as given to ML-DSA.Sign_internal /
// ML-DSA.Verify_internal (checked: all 60 sigGen signatures match the internal interface and
// none match pure ML-DSA with an empty context), so groups without `signatureInterface` run
// through `internal`. Later revisions' groups (`signatureInterface: 'external'` with
// `preHash: 'pure'` and a `context`, or `externalMu`) are handled too.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import * as full from '../index.js';
import * as light from '../verify.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIR = `${ROOT}tests/vectors/acvp/ml-dsa/`;
const SLH_DIR = `${ROOT}tests/vectors/acvp/slh-dsa/`;

const hex = (s) => Uint8Array.from(Buffer.from(s ?? '', 'hex'));
const toHex = (b) => Buffer.from(b).toString('hex').toUpperCase();

function load(name) {
  return JSON.parse(readFileSync(`${DIR}${name}`, 'utf8'));
}

/** The full and light objects for an ACVP parameter set name; throws on an unknown one. */
function paramSet(name) {
  const sets = {
    'ML-DSA-44': [full.mlDsa44, light.mlDsa44],
    'ML-DSA-65': [full.mlDsa65, light.mlDsa65],
    'ML-DSA-87': [full.mlDsa87, light.mlDsa87],
  };
  const s = sets[name];
  if (!s) throw new Error(`unknown ACVP parameterSet ${JSON.stringify(name)}`);
  return s;
}

/** How a group's messages are signed: 'internal' (M′), 'pure' (with context) or 'mu'. */
function interfaceOf(group) {
  if (group.externalMu === true) return 'mu';
  const si = group.signatureInterface;
  if (si === undefined || si === 'internal') return 'internal';
  if (si === 'external' && (group.preHash === undefined || group.preHash === 'pure')) return 'pure';
  throw new Error(`unsupported ACVP group tgId ${group.tgId}: signatureInterface=${si} preHash=${group.preHash}`);
}

function signWith(set, iface, t, sk, extraEntropy) {
  switch (iface) {
    case 'internal':
      return set.internal.sign(hex(t.message), sk, { extraEntropy });
    case 'mu':
      return set.internal.sign(hex(t.mu), sk, { extraEntropy, externalMu: true });
    default:
      return set.sign(hex(t.message), sk, { context: hex(t.context), extraEntropy });
  }
}

function verifyWith(set, iface, t, pk) {
  switch (iface) {
    case 'internal':
      return set.internal.verify(hex(t.signature), hex(t.message), pk);
    case 'mu':
      return set.internal.verify(hex(t.signature), hex(t.mu), pk, { externalMu: true });
    default:
      return set.verify(hex(t.signature), hex(t.message), pk, { context: hex(t.context) });
  }
}

const counts = { keyGen: 0, sigGen: 0, sigVer: 0, sigVerLight: 0 };
const slh = { keyGen: 0, sigVer: 0, sigVerLight: 0, resigned: 0, skipped: 0 };

/** The full and light objects of an SLH-DSA set; null for a SHA2 set (skipped, counted). */
function slhSet(name) {
  const m = /^SLH-DSA-(SHAKE|SHA2)-(128|192|256)([sf])$/.exec(name);
  if (!m) throw new Error(`unknown ACVP SLH-DSA parameterSet ${JSON.stringify(name)}`);
  if (m[1] === 'SHA2') return null;
  const key = `slhDsaShake${m[2]}${m[3]}`;
  return [full[key], light[key]];
}

/** The SLH-DSA groups of `file`, SHAKE ones only, with the SHA2 cases counted as skipped. */
function shakeGroups(file, mode) {
  const f = JSON.parse(readFileSync(`${SLH_DIR}${file}`, 'utf8'));
  assert.equal(f.mode, mode);
  assert.equal(f.revision, 'FIPS205');
  const groups = [];
  for (const g of f.testGroups) {
    const sets = slhSet(g.parameterSet);
    if (sets === null) slh.skipped += g.tests.length;
    else groups.push([g, sets]);
  }
  assert.ok(groups.length > 0, `${file}: no SHAKE groups`);
  return groups;
}

before(async () => {
  await full.init();
  await light.init();
});

describe('ACVP ML-DSA', () => {
  test('keyGen: pk and sk from seed', () => {
    const file = load('key-gen.json');
    assert.equal(file.mode, 'keyGen');
    for (const g of file.testGroups) {
      const [set] = paramSet(g.parameterSet);
      for (const t of g.tests) {
        const { publicKey, secretKey } = set.keygen(hex(t.seed));
        assert.equal(toHex(publicKey), t.pk.toUpperCase(), `keyGen tcId ${t.tcId} (${g.parameterSet}) pk`);
        assert.equal(toHex(secretKey), t.sk.toUpperCase(), `keyGen tcId ${t.tcId} (${g.parameterSet}) sk`);
        counts.keyGen++;
      }
    }
    assert.ok(counts.keyGen > 0, 'keyGen: no cases ran');
  });

  test('sigGen: deterministic and hedged signatures', () => {
    const file = load('sig-gen.json');
    assert.equal(file.mode, 'sigGen');
    for (const g of file.testGroups) {
      const [set] = paramSet(g.parameterSet);
      const iface = interfaceOf(g);
      for (const t of g.tests) {
        // Deterministic groups have no rnd: rnd = 0³² (extraEntropy: false).
        const extraEntropy = g.deterministic ? false : hex(t.rnd);
        if (!g.deterministic) assert.equal(extraEntropy.length, 32, `sigGen tcId ${t.tcId}: rnd length`);
        const sig = signWith(set, iface, t, hex(t.sk), extraEntropy);
        assert.equal(toHex(sig), t.signature.toUpperCase(), `sigGen tcId ${t.tcId} (${g.parameterSet}, ${iface})`);
        counts.sigGen++;
      }
    }
    assert.ok(counts.sigGen > 0, 'sigGen: no cases ran');
  });

  test('sigVer: accept and reject, full and light builds', () => {
    const file = load('sig-ver.json');
    assert.equal(file.mode, 'sigVer');
    for (const g of file.testGroups) {
      const [fullSet, lightSet] = paramSet(g.parameterSet);
      const iface = interfaceOf(g);
      for (const t of g.tests) {
        assert.equal(typeof t.testPassed, 'boolean', `sigVer tcId ${t.tcId}: testPassed`);
        const pk = hex(t.pk ?? g.pk);
        const why = `sigVer tcId ${t.tcId} (${g.parameterSet}, ${t.reason})`;
        assert.equal(verifyWith(fullSet, iface, t, pk), t.testPassed, `${why}, full build`);
        counts.sigVer++;
        assert.equal(verifyWith(lightSet, iface, t, pk), t.testPassed, `${why}, light build`);
        counts.sigVerLight++;
      }
    }
    assert.ok(counts.sigVer > 0, 'sigVer: no cases ran');
  });
});

describe('ACVP SLH-DSA (SHAKE sets)', () => {
  test('keyGen: pk and sk from SK.seed ‖ SK.prf ‖ PK.seed', () => {
    for (const [g, [set]] of shakeGroups('key-gen.json', 'keyGen')) {
      for (const t of g.tests) {
        const seed = hex(t.skSeed + t.skPrf + t.pkSeed);
        assert.equal(seed.length, set.lengths.seed, `keyGen tcId ${t.tcId}: seed length`);
        const { publicKey, secretKey } = set.keygen(seed);
        assert.equal(toHex(publicKey), t.pk.toUpperCase(), `keyGen tcId ${t.tcId} (${g.parameterSet}) pk`);
        assert.equal(toHex(secretKey), t.sk.toUpperCase(), `keyGen tcId ${t.tcId} (${g.parameterSet}) sk`);
        slh.keyGen++;
      }
    }
    // key-gen.json: SHAKE-192s and SHAKE-256f, 10 cases each.
    assert.equal(slh.keyGen, 20);
  });

  // This sample file predates `signatureInterface`: its messages are M′ of the internal
  // interface (slh_verify_internal), as tests/fips/slhdsa_sigver.rs pins natively.
  test('sigVer: accept and reject on M′, full and light builds', () => {
    for (const [g, [fullSet, lightSet]] of shakeGroups('sig-ver.json', 'sigVer')) {
      for (const t of g.tests) {
        assert.equal(typeof t.testPassed, 'boolean', `sigVer tcId ${t.tcId}: testPassed`);
        const [pk, msg, sig] = [hex(t.pk), hex(t.message), hex(t.signature)];
        const why = `sigVer tcId ${t.tcId} (${g.parameterSet}, ${t.reason})`;
        assert.equal(fullSet.internal.verify(sig, msg, pk), t.testPassed, `${why}, full build`);
        slh.sigVer++;
        assert.equal(lightSet.internal.verify(sig, msg, pk), t.testPassed, `${why}, light build`);
        slh.sigVerLight++;
        if (t.testPassed) {
          // The pure interface frames M with 0 ‖ |ctx| ‖ ctx: the same bytes do not verify there.
          assert.equal(fullSet.verify(sig, msg, pk), false, `${why}: not a pure-interface signature`);
        }
      }
    }
    // SHAKE-128f, -192s and -256f, 9 cases each.
    assert.equal(slh.sigVer, 27);
  });

  test('sigGen: every valid sigVer case re-signed from sk and additionalRandomness, byte for byte', () => {
    for (const [g, [set]] of shakeGroups('sig-ver.json', 'sigVer')) {
      for (const t of g.tests.filter((x) => x.testPassed)) {
        const rnd = hex(t.additionalRandomness);
        assert.equal(rnd.length, set.lengths.signRand, `tcId ${t.tcId}: additionalRandomness length`);
        const sig = set.internal.sign(hex(t.message), hex(t.sk), { extraEntropy: rnd });
        assert.equal(toHex(sig), t.signature.toUpperCase(), `sigGen tcId ${t.tcId} (${g.parameterSet})`);
        slh.resigned++;
      }
    }
    assert.equal(slh.resigned, 9);
    // key-gen.json has 20 SHA2 cases, sig-ver.json 18 (counted once per loading test).
    assert.equal(slh.skipped, 20 + 18 + 18);
  });
});

after(() => {
  console.log(
    `ACVP SLH-DSA cases run: keyGen ${slh.keyGen}, sigVer ${slh.sigVer} (full) + ${slh.sigVerLight} (light), ` +
      `re-signed ${slh.resigned}; SHA2 cases skipped ${slh.skipped}`,
  );
  console.log(
    `ACVP ML-DSA cases run: keyGen ${counts.keyGen}, sigGen ${counts.sigGen}, ` +
      `sigVer ${counts.sigVer} (full) + ${counts.sigVerLight} (light)`,
  );
});
