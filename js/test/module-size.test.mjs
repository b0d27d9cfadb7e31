// Each WebAssembly module against its size budget (gzip -9 of the .wasm `scripts/build-wasm.mjs`
// wrote, the figure the README's module table gives; the budgets are in its BUILDS table): a
// module that outgrows its budget fails here instead of shipping. Issue 23's goals: the ML-DSA
// verifier ≤ 20 KiB, the light client ≤ 110 KiB.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { BUILDS, sizes } from '../../scripts/build-wasm.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('WASM module sizes', () => {
  test('the goals are budgets: the ML-DSA verifier within 20 KiB, the light client within 110 KiB', () => {
    assert.ok(BUILDS['mldsa-verify'].budget <= 20 * 1024);
    assert.ok(BUILDS.light.budget <= 110 * 1024);
  });
  for (const [module, { budget }] of Object.entries(BUILDS)) {
    test(`${module}: at most ${budget.toLocaleString('en')} bytes gzipped`, () => {
      const path = `${ROOT}pkg/${module}/quasar_pq_bg.wasm`;
      assert.ok(existsSync(path), `${path} is missing: run node scripts/build-wasm.mjs`);
      const { raw, gzip } = sizes(path);
      assert.ok(
        gzip <= budget,
        `${module} is ${gzip.toLocaleString('en')} bytes gzipped (${raw.toLocaleString('en')} raw), over its budget of ${budget.toLocaleString('en')}`,
      );
    });
  }
});
