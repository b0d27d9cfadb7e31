#!/usr/bin/env node
// The constant-flow check: builds the `ct-check` harness (crate/src/bin/ct_check.rs)
// at each opt-level, runs every secret path in its own Valgrind memcheck process with the
// secrets marked undefined, and fails on any secret-dependent branch or memory index
// ("Conditional jump or move depends on uninitialised value(s)", "Use of uninitialised
// value" in an address) that is not one of the declassifications below.
//
// The library declassifies what it makes public at its own call sites (crate/src/ct.rs,
// each with its reason). DEPENDENCY_DECLASSIFICATIONS are the few public values computed
// inside dependencies, where no call site of ours can declassify them; each matches by the
// versioned source location of the branch, so a dependency upgrade makes the check fail
// until someone reviews the entry again.
//
// Usage: node scripts/ct-check.mjs [--levels 3,1,s,z] [--quick] [--no-plant] [PATH-PREFIX…]
//   levels: 3 = the release profile (native, and the full WASM module's opt-level),
//           1 = a plausible user choice, s / z = the light WASM module's, run natively on
//           the portable code paths (ML-KEM without AVX2, SLH-DSA's scalar Keccak);
//   --quick: one build with the `ct-quick` profile (the dev profile's opt-level 3 without
//           overflow checks or debug assertions, which branch on secrets by design),
//           every path; what `npm test` runs. Skips (exit 0) without valgrind.
//   --no-plant: skip the planted-branch run (the harness's `--plant`: a secret-dependent branch
//           and table index in ML-DSA signing, same binary), which must be caught.
// Prints a table path × level. Exit 1 on any finding, a crashed path, or an uncaught plant.

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const TARGET = process.env.CARGO_TARGET_DIR || join(ROOT, 'target');
const FEATURES = 'sim,hazmat,ct-check';

const LEVELS = {
  3: { profile: 'ct-o3', dir: 'ct-o3', portable: false },
  1: { profile: 'ct-o1', dir: 'ct-o1', portable: false },
  s: { profile: 'ct-os', dir: 'ct-os', portable: true },
  z: { profile: 'ct-oz', dir: 'ct-oz', portable: true },
  t: { profile: 'ct-quick', dir: 'ct-quick', portable: false },
};

// Public values computed inside dependencies. `frames`: regular expressions over
// `dir/file:line` that must match the top frame and then, in order, later frames, with no
// frame of this crate above the last one matched (the branch is in the dependency).
const DEPENDENCY_DECLASSIFICATIONS = [
  {
    name: 'libcrux-ml-kem SampleNTT on rho',
    why: 'Â is expanded from ρ by rejection sampling (FIPS 203 Alg. 7); ρ is public, the last ' +
      '32 bytes of the encapsulation key. libcrux derives it from the secret d inside key ' +
      'generation, where no call site of ours can declassify it.',
    kinds: ['UninitCondition', 'UninitValue'],
    frames: [/./, /libcrux-ml-kem-0\.0\.11\/src\/matrix\.rs:\d+$/],
  },
  {
    name: 'chacha20poly1305 authentication result',
    why: 'The Poly1305 tag is compared in constant time (subtle); whether the ciphertext ' +
      'authenticates is public (the caller reports it). Pulsar envelopes, snapshots.',
    kinds: ['UninitCondition'],
    frames: [/chacha20poly1305-0\.10\.1\/src\/cipher\.rs:87$/],
  },
  {
    name: 'k256 Scalar::random rejection',
    why: 'k256 0.13 draws 32-byte strings until one is below n; a draw is rejected with ' +
      'probability ~2^-128 and independently of the accepted scalar, so the bit is public.',
    kinds: ['UninitCondition'],
    frames: [/subtle-2\.6\.1\/src\/lib\.rs:663$/, /k256-0\.13\.4\/src\/arithmetic\/scalar\.rs:201$/],
  },
  {
    name: 'k256 Scalar::neg zero test',
    why: 'crypto-bigint 0.5 neg_mod computes "scalar ≠ 0" with masks, compiled into a branch ' +
      'on a secret scalar being zero (shares, nonces, BIP-340 negations, GLV halves). A zero ' +
      'secret scalar has probability ~2^-256; recorded as a finding for upstream.',
    kinds: ['UninitCondition'],
    frames: [/crypto-bigint-0\.5\.5\/src\/limb\/cmp\.rs:38$/, /crypto-bigint-0\.5\.5\/src\/uint\/neg_mod\.rs:9$/],
  },
  {
    name: 'k256 Scalar::neg zero test (opt-level s and z form)',
    why: 'The same "scalar ≠ 0" mask of crypto-bigint 0.5 neg_mod, applied limb by limb (ct_choice if_true), ' +
      'compiled into a branch at opt-levels s and z. Same justification: a zero secret scalar has probability ~2^-256.',
    kinds: ['UninitCondition'],
    frames: [/crypto-bigint-0\.5\.5\/src\/ct_choice\.rs:68$/, /crypto-bigint-0\.5\.5\/src\/uint\/neg_mod\.rs:15$/],
  },
];

function run(cmd, args, opts = {}) {
  return spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
}

function build(level) {
  const l = LEVELS[level];
  const env = { ...process.env };
  if (l.portable) env.LIBCRUX_DISABLE_SIMD256 = '1';
  const features = FEATURES;
  // `-p quasar-pq`: the harness with exactly these features, never the CLI's.
  console.log(`$ cargo build -p quasar-pq --profile ${l.profile} --features ${features} --bin ct-check`);
  const r = run('cargo', ['build', '-p', 'quasar-pq', '--profile', l.profile, '--features', features, '--bin', 'ct-check'], {
    env,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error(`build of level ${level} failed`);
  return join(TARGET, l.dir, 'ct-check');
}

function listPaths(bin, level, prefixes) {
  const env = { ...process.env, CT_PORTABLE: LEVELS[level].portable ? '1' : '0' };
  const r = run(bin, ['--list', ...prefixes], { env });
  if (r.status !== 0) throw new Error(`${bin} --list failed: ${r.stderr}`);
  return r.stdout.split('\n').filter(Boolean);
}

/** The memcheck errors of an XML log: kind and frames as `dir/file:line` (or the function). */
function parseErrors(xml) {
  const out = [];
  for (const m of xml.matchAll(/<error>([\s\S]*?)<\/error>/g)) {
    const kind = (m[1].match(/<kind>(\w+)<\/kind>/) || [])[1];
    const stack = (m[1].match(/<stack>([\s\S]*?)<\/stack>/) || [])[1] || '';
    const frames = [...stack.matchAll(/<frame>([\s\S]*?)<\/frame>/g)].map(([, f]) => {
      const get = (tag) => (f.match(new RegExp(`<${tag}>([^<]*)</${tag}>`)) || [])[1];
      const file = get('file');
      return { loc: file ? `${get('dir') || ''}/${file}:${get('line')}` : '', fn: get('fn') || '?' };
    });
    out.push({ kind, frames });
  }
  return out;
}

const OURS = join(ROOT, 'crate', 'src');

function classify(err) {
  for (const d of DEPENDENCY_DECLASSIFICATIONS) {
    if (!d.kinds.includes(err.kind)) continue;
    let i = 0;
    let ok = d.frames[0].test(err.frames[0]?.loc || '');
    for (let k = 1; ok && k < d.frames.length; k++) {
      i++;
      while (i < err.frames.length && i < 24 && !d.frames[k].test(err.frames[i].loc)) i++;
      ok = i < err.frames.length && i < 24;
    }
    if (ok && err.frames.slice(0, i + 1).every((f) => !f.loc.startsWith(OURS))) return d.name;
  }
  return null;
}

function describe(err) {
  const frames = err.frames.slice(0, 6).map((f) => `      ${f.fn.replace(/&lt;/g, '<').replace(/&gt;/g, '>').slice(0, 90)} (${f.loc.replace(/^.*\/(?=[^/]+\/[^/]+$)/, '')})`);
  return [`    ${err.kind}`, ...frames].join('\n');
}

/** Runs one path under memcheck; returns { failed, findings, declassified: {name: count} }. */
function checkPath(bin, level, name, logDir, index, extra = []) {
  const xml = join(logDir, `${index}.xml`);
  const env = { ...process.env, CT_PORTABLE: LEVELS[level].portable ? '1' : '0' };
  const r = run('valgrind', [
    '--tool=memcheck', '--xml=yes', `--xml-file=${xml}`, '--error-limit=no', '--num-callers=50',
    '--leak-check=no', bin, '--exact', ...extra, name,
  ], { env });
  const errors = parseErrors(readFileSync(xml, 'utf8'));
  const declassified = {};
  const findings = [];
  for (const e of errors) {
    const d = classify(e);
    if (d) declassified[d] = (declassified[d] || 0) + 1;
    else findings.push(e);
  }
  // The harness exits 1 when memcheck counted errors (also those declassified here), 101 on a panic.
  return { failed: r.status !== 0 && r.status !== 1, status: r.status, findings, declassified, output: r.stdout + r.stderr };
}

function main() {
  const argv = process.argv.slice(2);
  const quick = argv.includes('--quick');
  const plant = !argv.includes('--no-plant');
  let levels = quick ? ['t'] : ['3', '1', 's', 'z'];
  const li = argv.indexOf('--levels');
  if (li >= 0) levels = argv[li + 1].split(',');
  const prefixes = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--levels');
  for (const l of levels) if (!(l in LEVELS)) throw new Error(`unknown level ${l}`);

  if (run('valgrind', ['--version']).status !== 0) {
    const msg = 'ct-check: valgrind is not installed: the constant-flow check is SKIPPED (apt-get install valgrind)';
    console.log(msg);
    process.exit(quick ? 0 : 1);
  }

  const table = new Map(); // path -> level -> cell
  const totals = {};
  let bad = 0;
  for (const level of levels) {
    const bin = build(level);
    const logDir = join(TARGET, 'ct-check', `level-${level}`);
    rmSync(logDir, { recursive: true, force: true });
    mkdirSync(logDir, { recursive: true });
    const paths = listPaths(bin, level, prefixes);
    console.log(`ct-check: level ${level} (${LEVELS[level].profile}): ${paths.length} paths`);
    paths.forEach((name, i) => {
      const t0 = Date.now();
      const res = checkPath(bin, level, name, logDir, i);
      const dep = Object.entries(res.declassified);
      for (const [d, n] of dep) totals[`${d} @ ${level}`] = (totals[`${d} @ ${level}`] || 0) + n;
      let cell;
      if (res.findings.length) {
        cell = `FOUND ${res.findings.length}`;
        bad++;
        console.log(`  ${name}: ${res.findings.length} finding(s); the first ones:`);
        for (const f of res.findings.slice(0, 3)) console.log(describe(f));
      } else if (res.failed) {
        cell = `FAILED (exit ${res.status})`;
        bad++;
        console.log(`  ${name}: exit ${res.status}\n${res.output.slice(-2000)}`);
      } else {
        cell = 'clean';
      }
      console.log(`  ${name.padEnd(48)} ${cell}  (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      if (!table.has(name)) table.set(name, {});
      table.get(name)[level] = cell;
    });
  }

  let plantResult = 'not run';
  if (plant) {
    const level = levels[0];
    const bin = build(level);
    const logDir = join(TARGET, 'ct-check', 'plant');
    rmSync(logDir, { recursive: true, force: true });
    mkdirSync(logDir, { recursive: true });
    const res = checkPath(bin, level, 'mldsa/sign/ML-DSA-44', logDir, 0, ['--plant']);
    const inPlant = res.findings.filter((f) => f.frames.some((fr) => /planted_leak/.test(fr.fn) || /crate\/src\/ct\.rs:/.test(fr.loc)));
    const kinds = new Set(inPlant.map((f) => f.kind));
    const caught = kinds.has('UninitCondition') && kinds.has('UninitValue');
    plantResult = caught
      ? `caught: ${inPlant.length} finding(s) in ct::planted_leak (branch: UninitCondition, table index: UninitValue)`
      : `NOT CAUGHT (findings in the planted code: ${inPlant.length}, kinds ${[...kinds].join(', ') || 'none'})`;
    if (!caught) bad++;
  }

  console.log('\n## Constant-flow check (Valgrind memcheck, secrets undefined)\n');
  console.log(`| path | ${levels.map((l) => `opt-level ${l === 't' ? '3 (ct-quick, no LTO)' : l}`).join(' | ')} |`);
  console.log(`|---|${levels.map(() => '---').join('|')}|`);
  for (const [name, cells] of table) console.log(`| ${name} | ${levels.map((l) => cells[l] || '—').join(' | ')} |`);
  console.log('\nDeclassified inside dependencies (errors matched, per level):');
  for (const d of DEPENDENCY_DECLASSIFICATIONS) {
    const per = levels.map((l) => `${l}: ${totals[`${d.name} @ ${l}`] || 0}`).join(', ');
    console.log(`- ${d.name} (${per}): ${d.why}`);
  }
  console.log(`\nPlanted secret-dependent branch and index (--plant): ${plantResult}`);
  const paths = [...table.values()].length * levels.length;
  console.log(`${paths - bad} passed, ${bad} failed`);
  process.exit(bad ? 1 : 0);
}

main();
