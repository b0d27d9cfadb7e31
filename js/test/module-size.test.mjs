// Each WebAssembly module against its size budget (gzip -9 of the .wasm `scripts/build-wasm.mjs`
// wrote, the figure the README's module table gives; the budgets are in its BUILDS table): a
// module that outgrows its budget fails here instead of shipping, and so does a verify module's
// build without SIMD (the same budget). Issue 23's goals: the ML-DSA verifier ≤ 20 KiB, the
// light client ≤ 110 KiB, no module of the package but the all-in-one `quasar-pq` over 200 KB.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { BASELINE, BUILDS, sizes } from '../../scripts/build-wasm.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('WASM module sizes', () => {
  test('the goals are budgets: the ML-DSA verifier within 20 KiB, the light client within 110 KiB', () => {
    assert.ok(BUILDS['mldsa-verify'].budget <= 20 * 1024);
    assert.ok(BUILDS.light.budget <= 110 * 1024);
    for (const [module, { budget }] of Object.entries(BUILDS)) {
      if (module !== 'full' && module !== 'demo') assert.ok(budget <= 200_000, `${module}'s budget is over 200 KB`);
    }
  });
  for (const [module, { budget, baseline }] of Object.entries(BUILDS)) {
    for (const file of ['quasar_pq_bg.wasm', ...(baseline ? [BASELINE] : [])]) {
      test(`${module}${file === BASELINE ? ' without SIMD' : ''}: at most ${budget.toLocaleString('en')} bytes gzipped`, () => {
        const path = `${ROOT}pkg/${module}/${file}`;
        assert.ok(existsSync(path), `${path} is missing: run node scripts/build-wasm.mjs`);
        const { raw, gzip } = sizes(path);
        assert.ok(
          gzip <= budget,
          `pkg/${module}/${file} is ${gzip.toLocaleString('en')} bytes gzipped (${raw.toLocaleString('en')} raw), over its budget of ${budget.toLocaleString('en')}`,
        );
      });
    }
  }
});
