// The worker of js/test/builtins.test.mjs that races `init(bytes)` against `initSync(bytes)` in
// a realm of its own (a fresh module instance of the package). `workerData`: `build` ('full' or
// 'light'), `order` ('async-first': init() then initSync() while it loads; 'sync-first':
// initSync() then init()), and an ML-DSA-44 `publicKey`, `message` and `signature`. Posts what
// each entry point did and what keys prepared before, between and after the two said about the
// signature. Not part of the package.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { build, order, publicKey, message, signature } = workerData;
const lib = await import(build === 'full' ? '../index.js' : '../verify.js');
const bytes = readFileSync(new URL(`../../pkg/${build}/quasar_pq_bg.wasm`, import.meta.url));

const outcome = (e) => (e?.name === 'QuasarError' ? e.code : `${e?.name}: ${e?.message}`);
const report = { sync: null, async: null, verdicts: {} };
/** Verify with a key prepared now (kept, to be checked again at the end). */
const keys = {};
function prepareAs(name) {
  try {
    keys[name] = lib.mlDsa44.prepare(publicKey);
  } catch (e) {
    report.verdicts[name] = outcome(e);
  }
}

let pending;
if (order === 'async-first') {
  pending = lib.init(bytes);
  try {
    lib.initSync(bytes);
    report.sync = 'returned';
  } catch (e) {
    report.sync = outcome(e);
  }
  // Objects made with the instance initSync() returned (none when it refused).
  if (report.sync === 'returned') prepareAs('between');
} else {
  lib.initSync(bytes);
  report.sync = 'returned';
  prepareAs('between');
  pending = lib.init(bytes);
}
try {
  await pending;
  report.async = 'resolved';
} catch (e) {
  report.async = outcome(e);
}
prepareAs('after');
for (const [name, key] of Object.entries(keys)) {
  try {
    report.verdicts[name] = key.verify(signature, message);
    key.free();
  } catch (e) {
    report.verdicts[name] = outcome(e);
  }
}
try {
  report.verdicts.stateless = lib.mlDsa44.verify(signature, message, publicKey);
} catch (e) {
  report.verdicts.stateless = outcome(e);
}
parentPort.postMessage(report);
