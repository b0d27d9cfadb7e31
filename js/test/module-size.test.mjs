// Each WebAssembly module against its size ceiling (gzip -9 of the .wasm `scripts/build-wasm.mjs`
// wrote, the figure the README's size table gives): a module that outgrows its ceiling fails
// here instead of shipping. The ceilings sit about 5 % above the sizes measured on 2026-12-03
// (rustc 1.95); the per-family modules of issue 23 will bring their own, lower budgets.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { sizes } from '../../scripts/build-wasm.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** gzip -9 ceilings, bytes. Measured: light 118,654; full 1,007,569; demo 1,008,890. */
const CEILINGS = {
  light: 125_000,
  full: 1_060_000,
  demo: 1_062_000,
};

describe('WASM module sizes', () => {
  for (const [module, ceiling] of Object.entries(CEILINGS)) {
    test(`${module}: at most ${ceiling.toLocaleString('en')} bytes gzipped`, () => {
      const path = `${ROOT}pkg/${module}/quasar_pq_bg.wasm`;
      assert.ok(existsSync(path), `${path} is missing: run node scripts/build-wasm.mjs`);
      const { raw, gzip } = sizes(path);
      assert.ok(
        gzip <= ceiling,
        `${module} is ${gzip.toLocaleString('en')} bytes gzipped (${raw.toLocaleString('en')} raw), over its ceiling of ${ceiling.toLocaleString('en')}`,
      );
    });
  }
});
