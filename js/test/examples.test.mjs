// The README's code examples are the repository's example files, byte for byte: every ```js
// and ```rust block of README.md follows a line naming its file (`examples/NAME.mjs`: or
// `examples/NAME.rs` (how to run it):), equals that file, and every examples/*.mjs and *.rs is
// shown exactly once. js/test/package.test.mjs runs each .mjs from the packed package and
// `cargo test` builds each .rs, which the last test here runs; this test keeps what the README
// shows the same as what runs.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { TEST_FEATURES } from '../../scripts/setup.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(new URL('README.md', `file://${ROOT}/`), 'utf8');

/** Every ```js and ```rust block of the README with the two non-empty lines before it. */
function codeBlocks(text) {
  const lines = text.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```js' && lines[i] !== '```rust') continue;
    let before = i - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    const end = lines.indexOf('```', i + 1);
    assert.ok(end > i, `the code block at README line ${i + 1} is not closed`);
    const intro = `${lines[before - 1] ?? ''} ${lines[before] ?? ''}`;
    out.push({ line: i + 1, lang: lines[i].slice(3), intro, body: `${lines.slice(i + 1, end).join('\n')}\n` });
    i = end;
  }
  return out;
}

test('every README js and rust block is an examples/ file, byte for byte, and every example is shown once', () => {
  const files = readdirSync(new URL('examples/', `file://${ROOT}/`)).filter((f) => /\.(mjs|rs)$/.test(f)).sort();
  assert.ok(files.length >= 7, `examples/ has ${files.length} .mjs and .rs files`);
  const shown = [];
  for (const b of codeBlocks(README)) {
    const ext = b.lang === 'js' ? 'mjs' : 'rs';
    const m = new RegExp(`\`examples/([\\w.-]+\\.${ext})\`(?: \\([^)]*\\))?:$`).exec(b.intro.replace(/\n/g, ' '));
    assert.ok(m, `README line ${b.line}: the text before a ${b.lang} block must end with \`examples/NAME.${ext}\`: (got ${JSON.stringify(b.intro)})`);
    const file = readFileSync(new URL(`examples/${m[1]}`, `file://${ROOT}/`), 'utf8');
    assert.equal(b.body, file, `README line ${b.line} differs from examples/${m[1]}`);
    shown.push(m[1]);
  }
  assert.deepEqual([...shown].sort(), files, 'each examples/*.mjs is shown exactly once');
});

/** The package's entry points (its `exports` map), as `quasar-pq/…` specifiers. */
const EXPORTS = Object.fromEntries(
  Object.keys(JSON.parse(readFileSync(new URL('package.json', `file://${ROOT}/`), 'utf8')).exports)
    .filter((k) => !k.includes('*') && !k.endsWith('.json'))
    .map((k) => [k === '.' ? 'quasar-pq' : `quasar-pq/${k.slice(2)}`, true]),
);

test('the examples import the package by name, as a user does', () => {
  for (const f of readdirSync(new URL('examples/', `file://${ROOT}/`)).filter((n) => /\.(mjs|js)$/.test(n))) {
    const text = readFileSync(new URL(`examples/${f}`, `file://${ROOT}/`), 'utf8');
    const specifiers = [...text.matchAll(/^import .* from '([^']+)';/gm)].map((m) => m[1]);
    assert.ok(specifiers.length > 0, `${f} imports nothing`);
    for (const s of specifiers) assert.ok(s in EXPORTS || /^node:[a-z/]+$/.test(s), `${f} imports ${s}`);
  }
});

// The Rust examples run as `cargo test` built them: under the test profile, with the package
// selection and features of `npm test`'s `cargo test -p quasar-pq -p quasar-cli …`, so nothing
// is compiled again (a `cargo run -p quasar-pq --example …` alone resolves the shared
// dependencies' features without the CLI's and rebuilt the library: three minutes of CI).
test('the README Rust examples run and print what they promise', { timeout: 0 }, () => {
  const build = spawnSync(
    'cargo',
    ['build', '-q', '-p', 'quasar-pq', '-p', 'quasar-cli', '--features', TEST_FEATURES, '--profile', 'test', '--examples', '--message-format=json'],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 },
  );
  assert.equal(build.status, 0, `cargo build --examples: ${build.stderr}`);
  // Each example's executable, as cargo reports it.
  const exe = new Map();
  for (const line of build.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const m = JSON.parse(line);
    if (m.reason === 'compiler-artifact' && m.executable && m.target?.kind?.includes('example')) exe.set(m.target.name, m.executable);
  }
  const run = (name) => {
    assert.ok(exe.has(name), `no executable for example ${name}`);
    const r = spawnSync(exe.get(name), [], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, `example ${name}: ${r.stderr}`);
    return r.stdout;
  };
  assert.match(run('mldsa'), /^valid: true\nother message: false\n$/);
  const light = run('light_client');
  assert.match(light, /^bls +valid.*\n^pulsar +valid.*\nfinal under pq-fast\n/m);
  const heights = [...light.matchAll(/^height (\d+): final, epoch (\d+)$/gm)].map((m) => [Number(m[1]), Number(m[2])]);
  assert.ok(heights.length >= 4, light);
  assert.ok(heights.some(([, e]) => e > 0), `the client never reached a later epoch:\n${light}`);
});
