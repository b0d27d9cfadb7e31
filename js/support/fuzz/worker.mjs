// The worker thread the JS fuzz suite runs in, so that js/test/fuzz.test.mjs can time-box every
// call: before each call the engine writes the call's label into the shared heartbeat buffer and
// bumps its counter; the main thread terminates a worker whose counter stops. Not part of the
// package.
import { parentPort, workerData } from 'node:worker_threads';
import v8 from 'node:v8';
import vm from 'node:vm';

import { fuzz } from './engine.mjs';

// A garbage collector for the heap measurement (gc is not exposed in a worker otherwise).
v8.setFlagsFromString('--expose-gc');
globalThis.gc = vm.runInNewContext('gc');

const { seed, iters, heartbeat } = workerData;
const counter = new Int32Array(heartbeat, 0, 1);
const label = new Uint8Array(heartbeat, 4);
const encoder = new TextEncoder();

function beat(text) {
  const b = encoder.encode(text);
  const n = Math.min(b.length, label.length - 1);
  label.set(b.subarray(0, n));
  label[n] = 0;
  Atomics.add(counter, 0, 1);
}

parentPort.postMessage(await fuzz({ seed, iters, beat }));
