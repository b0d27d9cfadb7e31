// The shipped type declarations describe exactly what the package exports, so they cannot
// drift from the JS again:
//   1. the value exports that js/index.d.ts and js/verify.d.ts declare (read from the files,
//      following `export *` and `export { … } from`) are exactly `Object.keys` of the
//      modules `quasar-pq` and `quasar-pq/verify`;
//   2. TypeScript (the `typescript` dev dependency) checks a file generated from the live
//      modules — the member names of every exported object and class, and the value of
//      every string or number constant (`constants`, `trustModels`, `ML_DSA_LENGTHS`, …),
//      which must equal its declared literal type or fit its wide one — together with the
//      example flows in js/test/types/*.ts, in one `tsc --noEmit` (strict). KEEP_GENERATED=1
//      keeps js/test/types/exports.generated.ts for reading.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

import * as full from '../index.js';
import * as light from '../verify.js';
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

/** The one-module entry points: their export path, declaration file, namespace and alias. */
const ENTRIES = [
  ['quasar-pq/verify/mldsa', 'entry/mldsa-verify.d.ts', mldsaVerify, 'mldsaVerify'],
  ['quasar-pq/verify/slhdsa', 'entry/slhdsa-verify.d.ts', slhdsaVerify, 'slhdsaVerify'],
  ['quasar-pq/sign', 'entry/sign.d.ts', sign, 'sign'],
  ['quasar-pq/cert', 'entry/cert.d.ts', cert, 'cert'],
  ['quasar-pq/lens/ed25519', 'entry/lens-ed25519.d.ts', lensEd25519, 'lensEd25519'],
  ['quasar-pq/lens/secp256k1', 'entry/lens-secp256k1.d.ts', lensSecp256k1, 'lensSecp256k1'],
  ['quasar-pq/lens/ristretto255', 'entry/lens-ristretto255.d.ts', lensRistretto255, 'lensRistretto255'],
  ['quasar-pq/pulsar', 'entry/pulsar.d.ts', pulsar, 'pulsar'],
  ['quasar-pq/committee', 'entry/committee.d.ts', committee, 'committee'],
  ['quasar-pq/corona', 'entry/corona.d.ts', corona, 'corona'],
];

const JS = new URL('../', import.meta.url);
const TYPES = new URL('./types/', import.meta.url);
const GENERATED = new URL('exports.generated.ts', TYPES);
const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));

before(async () => {
  await full.init();
  await light.init();
  for (const [, , ns] of ENTRIES) await ns.init();
});

after(() => process.env.KEEP_GENERATED || rmSync(GENERATED, { force: true }));

// ------------------------------------------------------------------ 1. export names

/** The text of a declaration file without its comments. */
function code(url) {
  return readFileSync(url, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|\s)\/\/.*$/gm, '$1');
}

/** The value (not type-only) names a declaration file exports, re-exports followed. */
function declaredValues(url) {
  const text = code(url);
  const names = new Set();
  for (const m of text.matchAll(/^export\s+declare\s+(?:abstract\s+)?(?:const|let|var|function|class|enum|namespace)\s+([\w$]+)/gm)) names.add(m[1]);
  if (/^export\s+default\b/m.test(text)) names.add('default');
  for (const m of text.matchAll(/^export\s*\{([^}]*)\}\s*from\s*'([^']+)'/gm)) {
    for (const item of m[1].split(',').map((s) => s.trim()).filter(Boolean)) names.add(item.split(/\s+as\s+/).pop());
  }
  for (const m of text.matchAll(/^export\s*\*\s*from\s*'([^']+)'/gm)) {
    for (const n of declaredValues(new URL(m[1].replace(/\.js$/, '.d.ts'), url))) if (n !== 'default') names.add(n);
  }
  return [...names].sort();
}

test('js/index.d.ts declares exactly the exports of quasar-pq', () => {
  assert.deepEqual(declaredValues(new URL('index.d.ts', JS)), Object.keys(full).sort());
});

test('js/verify.d.ts declares exactly the exports of quasar-pq/verify', () => {
  assert.deepEqual(declaredValues(new URL('verify.d.ts', JS)), Object.keys(light).sort());
});

for (const [path, file, ns] of ENTRIES) {
  test(`js/${file} declares exactly the exports of ${path}`, () => {
    assert.deepEqual(declaredValues(new URL(file, JS)), Object.keys(ns).sort());
  });
}

// ------------------------------------------------------------------ 2. members and values, by tsc

const isPlain = (v) => v !== null && typeof v === 'object' && !ArrayBuffer.isView(v) && !Array.isArray(v);
const union = (names) => (names.length ? [...names].sort().map((n) => JSON.stringify(n)).join(' | ') : 'never');

/** Public instance members of a class (its prototype chain, without internals). */
function instanceNames(C) {
  const names = new Set();
  for (let p = C.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const n of Object.getOwnPropertyNames(p)) if (n !== 'constructor' && !n.startsWith('_')) names.add(n);
  }
  return [...names];
}

/** The TypeScript checks of one module namespace (`ns`, imported as `alias`). */
function checks(ns, alias) {
  const out = [];
  // `type` is the TypeScript type of the value at hand: `(typeof full.lens)["sign"]`.
  const walk = (value, type, name) => {
    if (typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value))) {
      out.push(`check<Eq<Names<${name}>, ${union(instanceNames(value))}>>();`);
      const statics = Object.getOwnPropertyNames(value).filter((n) => n !== 'length' && n !== 'name');
      out.push(`check<Eq<Names<${type}>, ${union(statics)}>>();`);
    } else if (isPlain(value)) {
      out.push(`check<Eq<Names<${type}>, ${union(Object.keys(value))}>>();`);
      for (const [k, v] of Object.entries(value)) walk(v, `${type}[${JSON.stringify(/^\d+$/.test(k) ? Number(k) : k)}]`);
    } else if (typeof value === 'string' || typeof value === 'number') {
      out.push(`check<Holds<${type}, ${JSON.stringify(value)}>>();`);
    } else if (Array.isArray(value)) {
      out.push(`{ const v: ${type} = ${JSON.stringify(value)}; void v; }`);
    }
  };
  for (const [k, v] of Object.entries(ns)) if (k !== 'default') walk(v, `(typeof ${alias}.${k})`, `${alias}.${k}`);
  return out;
}

test('tsc: every member name and constant value matches its declaration; the examples type-check', () => {
  assert.ok(existsSync(TSC), 'typescript is missing: run `npm ci` (it is a dev dependency)');
  const lines = [
    '// Generated by js/test/declarations.test.mjs from the live modules; deleted after the test.',
    "import * as full from 'quasar-pq';",
    "import * as light from 'quasar-pq/verify';",
    ...ENTRIES.map(([path, , , alias]) => `import * as ${alias} from '${path}';`),
    'type Eq<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;',
    'type Names<T> = `${Extract<keyof T, string | number>}`;',
    '// A value of a declared type: equal to a literal type, or one of a wide one (number, string).',
    'type Holds<T, V> = [V] extends [T] ? (number extends T ? true : string extends T ? true : Eq<T, V>) : false;',
    'function check<T extends true>(): T | void {}',
    ...checks(full, 'full'),
    ...checks(light, 'light'),
    ...ENTRIES.flatMap(([, , ns, alias]) => checks(ns, alias)),
  ];
  writeFileSync(GENERATED, `${lines.join('\n')}\n`);
  assert.ok(lines.length > 80, `${lines.length} lines of checks`);
  try {
    execFileSync(process.execPath, [TSC, '-p', fileURLToPath(new URL('tsconfig.json', TYPES))], { encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    assert.fail(`tsc --noEmit failed:\n${e.stdout}${e.stderr}`);
  }
});
