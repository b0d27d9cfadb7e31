// A worker of the pool: its own WebAssembly instance, hosting one or more entities (parties,
// a combiner, a signing coordinator). Each entity is an independent protocol instance with its
// own state; its secrets never leave this worker. In and out go only bytes (the envelopes
// routed by www/coordinator.js) and small public results for the page to display.
//
// Requests: { id, op, ... } → { id, ok, result } | { id, ok: false, error }.
// Events:   { event: 'step-start', token, key } and { event: 'step-done', token, key, ms, ok }
//           around each entity's step (progress; the entities of one worker run one at a time).

import * as lib from '/js/index.js';
import { createEntity, errorInfo, standardVerify } from './party-logic.js';

const entities = new Map(); // key -> entity
let ready = null;

function outBuffers(out) {
  const set = new Set();
  for (const env of out ?? []) {
    let b = env.bytes;
    if (!(b instanceof Uint8Array)) throw new TypeError(`message ${env.tag ?? ''} is not a Uint8Array`);
    if (b.byteOffset !== 0 || b.byteLength !== b.buffer.byteLength) {
      b = b.slice();
      env.bytes = b;
    }
    set.add(b.buffer);
  }
  return set;
}

async function step({ step: name, phase, round, token, steps }) {
  const replies = [];
  const transfer = new Set();
  for (const s of steps) {
    const ent = entities.get(s.key);
    postMessage({ event: 'step-start', token, key: s.key });
    const t0 = performance.now();
    let reply;
    try {
      if (!ent) throw new Error(`no entity ${String(s.key)} in this worker`);
      const r = (await ent.step(name, s.input ?? {}, s.inbox ?? [], { phase, round })) ?? {};
      const ms = performance.now() - t0;
      for (const b of outBuffers(r.out)) transfer.add(b);
      reply = { key: s.key, ok: true, ms, out: r.out ?? [], result: r.result ?? null };
    } catch (err) {
      const ms = performance.now() - t0;
      reply = { key: s.key, ok: false, ms, error: errorInfo(err, s.key) };
    }
    replies.push(reply);
    postMessage({ event: 'step-done', token, key: s.key, ms: reply.ms, ok: reply.ok });
  }
  return { result: { steps: replies }, transfer: [...transfer] };
}

async function handle(msg) {
  switch (msg.op) {
    case 'init': {
      const t0 = performance.now();
      ready ??= lib.init();
      await ready;
      return { result: { ms: performance.now() - t0 } };
    }
    case 'spawn': {
      await ready;
      for (const e of msg.entities) {
        entities.get(e.key)?.free?.();
        entities.set(e.key, createEntity(lib, e.role, e.key, e.config));
      }
      return { result: { count: entities.size } };
    }
    case 'drop': {
      for (const k of msg.keys) {
        entities.get(k)?.free?.();
        entities.delete(k);
      }
      return { result: { count: entities.size } };
    }
    case 'step':
      await ready;
      return step(msg);
    case 'verify': {
      await ready;
      const t0 = performance.now();
      const r = await standardVerify(lib, msg.request);
      return { result: { ...r, ms: performance.now() - t0 } };
    }
    default:
      throw new Error(`unknown worker op ${msg.op}`);
  }
}

// One request at a time, in order (a step must not interleave with the next one).
let queue = Promise.resolve();
self.onmessage = (e) => {
  const msg = e.data;
  queue = queue.then(async () => {
    try {
      const { result, transfer = [] } = await handle(msg);
      postMessage({ id: msg.id, ok: true, result }, transfer);
    } catch (err) {
      postMessage({ id: msg.id, ok: false, error: errorInfo(err) });
    }
  });
};
