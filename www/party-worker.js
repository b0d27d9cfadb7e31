// A worker of the pool: its own WebAssembly instance, hosting entities (members, a combiner,
// a signing coordinator). An entity holds at most one running `Party` (js/protocols.js) and
// its keyring (`PulsarKeyring` / `LensKeyring`, in WASM memory); its secrets never leave this
// worker. In and out go only bytes (a party's `outgoing`, routed by www/coordinator.js) and
// public outcomes.
//
// There is no protocol logic here: `start` calls a package factory by name
// (`pulsar.lifecycle.member.setup`, `lens.lifecycle.coordinator.sign`, …) with the page's
// public parameters (`keyring: true` stands for the entity's own keyring, empty until a setup
// fills it), and `step` calls `party.step(inbox)`. When a party finishes with
// a keyring, that keyring is the entity's: which generation it holds, and whether the old
// share was erased, is the keyring's decision (only a verified activation certificate erases
// it), reported back as public data.
//
// A Pulsar committee member (`pulsar.committee.keygen`, `.signer`) keeps its committee share
// (`PulsarCommitteeShare`, in WASM memory) the same way: a key generation that finishes leaves
// it in the entity, `share: true` in a signer's parameters stands for it, and only its public
// info (`publicInfo()`) goes back to the page. `committee-deal` runs the trusted dealer (it
// keeps nothing) and `committee-load` gives an entity the share a dealer sent it.
//
// A Corona party (`corona.signer`) holds its `CoronaShare` the same way: `corona-load` gives an
// entity the key package the dealer (the page) sent it, moved here and wiped once decoded, and
// `share: true` in the signer's parameters stands for it.
//
// Entities live in scopes: each tab's network (www/coordinator.js) names its own, so the
// committee tab's member 3 is not the threshold tab's party 3 in the same worker.
//
// Magnetar validators live here too (`magnetar-keygen`, `magnetar-sign`): each holds its own
// SLH-DSA secret key, made and used only through `lib.magnetar`, and never sent out; the page
// gets public keys and signatures. `magnetar-verify-batch` checks a share of the aggregator's
// batch with the library's `MagnetarRegistry`, built from the public registry the page sends.
//
// Requests: { id, op, ... } → { id, ok, result } | { id, ok: false, error }.
// Events:   { event: 'steps', token, done: [{ key, ms, ok, at }], running: key } while a `step`
//           request runs: the parties stepped since the last event, and the one starting now.

import * as lib from '/js/support/demo.mjs';
import { errorInfo } from './util.js';
import { standardVerify } from './verify.js';

const scopes = new Map(); // scope -> (key -> { party, keyring, share })
const validators = new Map(); // Magnetar validator index -> { mode, secretKey }
let registry = null; // { version, r: MagnetarRegistry }
let ready = null;

/** The entities of one scope (the default scope is ''). */
function entitiesOf(scope = '') {
  let m = scopes.get(scope);
  if (!m) {
    m = new Map();
    scopes.set(scope, m);
  }
  return m;
}

function entity(scope, key) {
  const entities = entitiesOf(scope);
  let e = entities.get(key);
  if (!e) {
    e = { party: null, keyring: null, share: null };
    entities.set(key, e);
  }
  return e;
}

/** Frees everything an entity holds (its party, keyring and committee share: secrets wiped). */
function release(e) {
  e?.party?.free();
  e?.keyring?.free();
  e?.share?.free();
}

function factory(name) {
  const f = name.split('.').reduce((o, k) => (o && Object.hasOwn(o, k) ? o[k] : undefined), { lens: lib.lens, pulsar: lib.pulsar, corona: lib.corona });
  if (typeof f !== 'function') throw new Error(`no factory ${name}`);
  return f;
}

/** The keyring class of a factory's scheme. */
function keyringClass(name) {
  return name.startsWith('pulsar.') ? lib.PulsarKeyring : lib.LensKeyring;
}

/** The public view of a keyring (what the page shows). */
function keyringInfo(k) {
  return { generation: k.generation, pendingGeneration: k.pendingGeneration, share: k.publicInfo() };
}

/**
 * A finished party's outcome, its secrets kept here: a keyring becomes the entity's (the one
 * the party took is empty now), and so does a committee key generation's `keyShare`, which
 * the page sees as its public info only (`share`).
 */
function keep(ent, outcome) {
  const next = outcome.keyring;
  delete outcome.keyring;
  if (next) {
    ent.keyring?.free();
    ent.keyring = next;
  }
  if (outcome.keyShare instanceof lib.PulsarCommitteeShare) {
    ent.share?.free();
    ent.share = outcome.keyShare;
    delete outcome.keyShare;
    return { ...outcome, share: ent.share.publicInfo() };
  }
  return { ...outcome, keyring: ent.keyring ? keyringInfo(ent.keyring) : null };
}

function transferables(list) {
  const set = new Set();
  for (const o of list) {
    if (!o) continue;
    if (o.broadcast) set.add(o.broadcast.buffer);
    for (const d of o.direct) set.add(d.bytes.buffer);
  }
  return [...set];
}

function start({ scope, specs }) {
  const results = [];
  for (const s of specs) {
    const ent = entity(scope, s.key);
    ent.party?.free();
    ent.party = null;
    const t0 = performance.now();
    try {
      const params = { ...s.params };
      if (params.keyring === true) {
        ent.keyring ??= keyringClass(s.factory).empty();
        params.keyring = ent.keyring;
      }
      if (params.share === true) {
        if (!ent.share) throw new Error(`entity ${String(s.key)} holds no share`);
        params.share = ent.share;
      }
      ent.party = factory(s.factory)(params);
      results.push({ key: s.key, ok: true, outgoing: ent.party.start.outgoing, round: ent.party.round, ms: performance.now() - t0 });
    } catch (err) {
      results.push({ key: s.key, ok: false, error: errorInfo(err, s.key) });
    }
  }
  return { result: { results }, transfer: transferables(results.map((r) => r.outgoing)) };
}

/**
 * Progress goes to the page in batches, not per party: at most one `steps` event per
 * PROGRESS_MS of stepping (each event costs the page a message task, and a worker steps
 * dozens of parties a round at K = 64). The step replies carry every party's time anyway.
 */
const PROGRESS_MS = 40;

function step({ scope, token, steps }) {
  const replies = [];
  let done = [];
  let sentAt = -Infinity; // the first step is announced at once
  for (const s of steps) {
    const now = performance.now();
    if (now - sentAt >= PROGRESS_MS) {
      postMessage({ event: 'steps', token, done, running: s.key });
      done = [];
      sentAt = now;
    }
    const ent = entitiesOf(scope).get(s.key);
    const t0 = performance.now();
    let reply;
    try {
      if (!ent?.party) throw new Error(`entity ${String(s.key)} runs no party`);
      const r = ent.party.step(s.inbox);
      if (r.done) {
        r.outcome = keep(ent, r.outcome);
        ent.party.free();
        ent.party = null;
      }
      reply = { key: s.key, ok: true, ms: performance.now() - t0, ...r };
    } catch (err) {
      reply = { key: s.key, ok: false, ms: performance.now() - t0, error: errorInfo(err, s.key) };
    }
    reply.at = performance.timeOrigin + performance.now(); // when it ended, on a clock the page shares
    replies.push(reply);
    done.push({ key: s.key, ms: reply.ms, ok: reply.ok, at: reply.at });
  }
  // The last batch rides on the reply itself (the page reports what was not yet reported).
  return { result: { steps: replies }, transfer: transferables(replies.map((r) => r.outgoing)) };
}

async function handle(msg) {
  switch (msg.op) {
    case 'init': {
      const t0 = performance.now();
      ready ??= lib.init();
      await ready;
      return { result: { ms: performance.now() - t0 } };
    }
    case 'start':
      await ready;
      return start(msg);
    case 'step':
      await ready;
      return step(msg);
    case 'stop': {
      for (const k of msg.keys) {
        const e = entitiesOf(msg.scope).get(k);
        e?.party?.free();
        if (e) e.party = null;
      }
      return { result: {} };
    }
    case 'drop': {
      const entities = entitiesOf(msg.scope);
      for (const k of msg.keys) {
        release(entities.get(k));
        entities.delete(k);
      }
      return { result: { count: entities.size } };
    }
    case 'committee-deal': {
      // The trusted dealer: it draws every subset secret, so it knows the key while it deals;
      // the library keeps nothing, and each share leaves here moved (transferred), not copied.
      await ready;
      const t0 = performance.now();
      const { shares, ...info } = lib.pulsar.committee.deal(msg.opts);
      return { result: { info, shares, ms: performance.now() - t0 }, transfer: shares.map((s) => s.dealerShare.buffer) };
    }
    case 'committee-load': {
      await ready;
      const t0 = performance.now();
      const ent = entity(msg.scope, msg.key);
      try {
        const share = lib.PulsarCommitteeShare.fromDealer(msg.dealerShare, msg.committeeKey);
        ent.share?.free();
        ent.share = share;
      } finally {
        msg.dealerShare.fill(0);
      }
      return { result: { share: ent.share.publicInfo(), ms: performance.now() - t0 } };
    }
    case 'corona-load': {
      // A Corona party's key package from the trusted dealer (the page): decoded into a
      // CoronaShare in WASM memory, the transferred bytes wiped.
      await ready;
      const t0 = performance.now();
      const ent = entity(msg.scope, msg.key);
      try {
        const share = lib.CoronaShare.fromDealer(msg.keyPackage, msg.groupKey);
        ent.share?.free();
        ent.share = share;
      } finally {
        msg.keyPackage.fill(0);
      }
      const { id, threshold, parties } = ent.share.publicInfo();
      return { result: { share: { id, threshold, parties }, ms: performance.now() - t0 } };
    }
    case 'magnetar-keygen': {
      await ready;
      const out = [];
      for (const index of msg.validators) {
        const t0 = performance.now();
        const { publicKey, secretKey } = lib.magnetar.keygen(msg.mode);
        validators.get(index)?.secretKey.fill(0);
        validators.set(index, { mode: msg.mode, secretKey });
        out.push({ index, publicKey, ms: performance.now() - t0 });
      }
      return { result: { keys: out }, transfer: out.map((k) => k.publicKey.buffer) };
    }
    case 'magnetar-sign': {
      await ready;
      const out = [];
      for (const { index, message } of msg.jobs) {
        const v = validators.get(index);
        if (!v) throw new Error(`validator ${index} has no key in this worker`);
        const t0 = performance.now();
        const signature = lib.magnetar.sign(v.mode, message, v.secretKey, { context: msg.context });
        out.push({ index, signature, ms: performance.now() - t0 });
      }
      return { result: { signatures: out }, transfer: out.map((x) => x.signature.buffer) };
    }
    case 'magnetar-verify-batch': {
      await ready;
      if (registry?.version !== msg.registry.version) {
        registry?.r.free();
        registry = { version: msg.registry.version, r: new lib.MagnetarRegistry(msg.registry.mode, msg.registry.validators) };
      }
      const t0 = performance.now();
      const bitmap = registry.r.verifyBatch(msg.contributions, msg.message, { context: msg.context });
      return { result: { bitmap, ms: performance.now() - t0 } };
    }
    case 'magnetar-drop': {
      for (const v of validators.values()) v.secretKey.fill(0);
      validators.clear();
      registry?.r.free();
      registry = null;
      return { result: {} };
    }
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
