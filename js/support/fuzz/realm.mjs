// The "polluted realm" class of the JS fuzz suite. Code that runs beside the package
// may add properties to Object.prototype and Array.prototype (option names, `ok`, `code`, quorum
// fields, curve names, list elements), or replace built-ins, after the package loaded. Each round
// pollutes the worker's realm with a seeded choice of those, makes calls of both builds under it,
// and checks that every verdict, key and signature is what the same call gives in a clean realm
// (or, for a call that must draw fresh randomness, that two calls still differ). The realm is
// restored in a `finally` before anything is checked, and the restoration is itself checked.
// Everything that runs while the realm is polluted uses intrinsics taken when this module loads.
// Not part of the package.

const uncurry = (f) => Function.prototype.call.bind(f);
const hasOwn = uncurry(Object.prototype.hasOwnProperty);
const getOwnDescriptor = Object.getOwnPropertyDescriptor;
const defineProperty = Reflect.defineProperty;
const deleteProperty = Reflect.deleteProperty;
const ownKeys = Reflect.ownKeys;
const getPrototypeOf = Reflect.getPrototypeOf;
const OP = Object.prototype;
const AP = Array.prototype;
const HEX = Array.from({ length: 256 }, (_, i) => (i < 16 ? '0' : '') + i.toString(16));

/** An accessor to install (a getter returning what `get` returns). */
class Getter {
  constructor(get) {
    this.get = get;
  }
}
const getter = (get) => new Getter(get);
const boom = () => {
  throw new Error('a built-in replaced after load was called');
};

/**
 * The pollutions, `[note, [[target, key, value], …]]`: values that would change a result if the
 * package read them (an inherited context, a lower quorum, an attacker's seed, `ok: true`).
 */
function pollutions(fx) {
  return [
    // Option names of every call, and the fields of nested bags.
    ['Object.prototype.context', [[OP, 'context', fx.ctx]]],
    ['Object.prototype.extraEntropy = false', [[OP, 'extraEntropy', false]]],
    ['Object.prototype.seed (32 bytes)', [[OP, 'seed', fx.seed32]]],
    ['Object.prototype.seed (a Magnetar seed)', [[OP, 'seed', fx.magnetarSeed]]],
    ['Object.prototype.referenceSeed', [[OP, 'referenceSeed', fx.referenceSeed]]],
    ['Object.prototype.quorum = 0/1', [[OP, 'quorum', { numerator: 0, denominator: 1 }]]],
    ['Object.prototype.numerator = 0, denominator = 1', [[OP, 'numerator', 0], [OP, 'denominator', 1]]],
    ['Object.prototype.diagnose, full, externalMu = true', [[OP, 'diagnose', true], [OP, 'full', true], [OP, 'externalMu', true]]],
    ['Object.prototype.keyInfo', [[OP, 'keyInfo', fx.ctx]]],
    ['Object.prototype.cheat = garbage', [[OP, 'cheat', 'garbage']]],
    ['Object.prototype.deterministic = true', [[OP, 'deterministic', true]]],
    ['Object.prototype.weight, from, id, signature, publicKey, message', [[OP, 'weight', 1000], [OP, 'from', 2], [OP, 'id', fx.id], [OP, 'signature', fx.signature], [OP, 'publicKey', fx.publicKey], [OP, 'message', fx.ctx]]],
    // Verdict fields, as values and as getters.
    ['Object.prototype.ok getter → true', [[OP, 'ok', getter(() => true)]]],
    ['Object.prototype.ok = true, code = POLLUTED', [[OP, 'ok', true], [OP, 'code', 'POLLUTED']]],
    ['Object.prototype.code, reason getters', [[OP, 'code', getter(() => 'POLLUTED')], [OP, 'reason', getter(() => 'polluted')]]],
    ['Object.prototype.accepted getter → true, failed', [[OP, 'accepted', getter(() => true)], [OP, 'failed', []]]],
    ['Object.prototype.outcome, broadcast, newEpoch', [[OP, 'outcome', { keyShare: 'forged' }], [OP, 'broadcast', fx.ctx], [OP, 'newEpoch', 7n]]],
    // Names.
    ['Object.prototype curve, mode and policy names', [[OP, 'ed448', 1], [OP, 'shake512s', [2, 'SLH-DSA-SHAKE-192f']], [OP, 'pq-evil', ['bls']]]],
    // Array.prototype: elements (a hole would read them), names.
    ['Array.prototype[0..3]', [[AP, '0', fx.item], [AP, '1', 2], [AP, '2', 3], [AP, '3', fx.signature]]],
    ['Array.prototype.context, ok, length-like names', [[AP, 'context', fx.ctx], [AP, 'ok', true], [AP, 'code', 'POLLUTED']]],
    // Built-ins replaced after load (none of them is used by the generated glue).
    ['Object.entries/keys/values/hasOwn/fromEntries replaced', [[Object, 'entries', boom], [Object, 'keys', boom], [Object, 'values', boom], [Object, 'hasOwn', boom], [Object, 'fromEntries', boom]]],
    ['Array.prototype.includes/forEach/map/find/join/some/every/indexOf replaced', ['includes', 'forEach', 'map', 'find', 'join', 'some', 'every', 'indexOf'].map((k) => [AP, k, boom])],
    // The array iterator replaced: destructuring [publicKey, secretKey] would take the attacker's.
    ['Array.prototype[Symbol.iterator] replaced', [[AP, Symbol.iterator, function* () { yield fx.publicKey; yield fx.signature; }]]],
  ];
}

// ------------------------------------------------------------------ statements

/** A byte string as hex (no Array.prototype method). */
function hex(b) {
  let s = '';
  for (let i = 0; i < b.length; i++) s += HEX[b[i]];
  return s;
}

/** What a verdict states: its `ok` (own or not), its code. */
function said(v) {
  if (v === null || typeof v !== 'object') return `not an object: ${typeof v}`;
  return `ok=${v.ok} own=${hasOwn(v, 'ok')} code=${v.code} proto=${getPrototypeOf(v) === null ? 'null' : 'object'}`;
}

/** What a report's legs state. */
function legs(v) {
  let s = '';
  for (let i = 0; i < v.legs.length; i++) s += `[${said(v.legs[i])}]`;
  return s;
}

/** `fn()`'s statement, or what it threw (a typed error's class and code). */
function attempt(fn) {
  try {
    return fn();
  } catch (e) {
    const code = e !== null && typeof e === 'object' && hasOwn(e, 'code') ? e.code : '';
    return `threw ${e?.name}${code ? ` ${code}` : ''}`;
  }
}

// ------------------------------------------------------------------ the calls

/**
 * The calls, `[name, builds, kind, run(b, x, build)]` (`b` the build's namespace, `x` the
 * material, `build` its name): `same` (the statement must equal the clean realm's) or `fresh`
 * (run twice; the two statements must differ: the call draws randomness).
 */
function calls() {
  const BOTH = ['full', 'light'];
  const FULL = ['full'];
  return [
    ['mlDsa44.verify with its context', BOTH, 'same', (b, x) => b.mlDsa44.verify(x.ml.sigCtx, x.msg, x.ml.pk, { context: x.ctx })],
    ['mlDsa44.verify, no options, of a signature under a context', BOTH, 'same', (b, x) => b.mlDsa44.verify(x.ml.sigCtx, x.msg, x.ml.pk)],
    ['mlDsa44.verify, no options', BOTH, 'same', (b, x) => b.mlDsa44.verify(x.ml.sig, x.msg, x.ml.pk)],
    ['mlDsa44.internal.verify, no options', BOTH, 'same', (b, x) => b.mlDsa44.internal.verify(x.ml.sigInternal, x.msg, x.ml.pk)],
    ['slhDsaShake128f.verify, no options', BOTH, 'same', (b, x) => b.slhDsaShake128f.verify(x.slh.sig, x.msg, x.slh.pk)],
    ['mlDsa44.keygen(seed)', FULL, 'same', (b, x) => hex(b.mlDsa44.keygen(x.seed32).publicKey)],
    ['mlDsa44.sign, deterministic, with a context', FULL, 'same', (b, x) => hex(b.mlDsa44.sign(x.msg, x.ml.sk, { context: x.ctx, extraEntropy: false }))],
    ['mlDsa44.sign, no options', FULL, 'fresh', (b, x) => hex(b.mlDsa44.sign(x.msg, x.ml.sk))],
    ['slhDsaShake128f.sign, no options', FULL, 'fresh', (b, x) => hex(b.slhDsaShake128f.sign(x.msg, x.slh.sk))],
    ['magnetar.keygen, no options', FULL, 'fresh', (b, x) => hex(b.magnetar.keygen(x.mode).publicKey)],
    ['magnetar.sign, no options', FULL, 'fresh', (b, x) => hex(b.magnetar.sign(x.mode, x.msg, x.magnetar.sk))],
    ['magnetar.verify, no options', BOTH, 'same', (b, x) => b.magnetar.verify(x.magnetar.sig, x.msg, x.magnetar.pk)],
    ['magnetar.verifyBatch, no options', BOTH, 'same', (b, x) => attempt(() => `${b.magnetar.verifyBatch([x.item])[0]}`)],
    ['magnetar.verifyBatch of a hole', BOTH, 'same', (b) => attempt(() => `${b.magnetar.verifyBatch(new Array(1)).length}`)],
    ['new MagnetarRegistry', BOTH, 'same', (b, x) => attempt(() => { const r = new b.MagnetarRegistry(x.mode, x.validators); try { return `${r.totalWeight}`; } finally { r.free(); } })],
    ['MagnetarRegistry#verifyAggregate of 1 signer of 3, no options', BOTH, 'same', (b, x, build) => said(x.registry[build].verifyAggregate(x.oneOfThree, x.msg))],
    ['MagnetarRegistry#verifyAggregate of 3 of 3', BOTH, 'same', (b, x, build) => said(x.registry[build].verifyAggregate(x.threeOfThree, x.msg, {}))],
    ['MagnetarRegistry#verifyAggregate, tampered', BOTH, 'same', (b, x, build) => said(x.registry[build].verifyAggregate(x.tampered.threeOfThree, x.msg))],
    ['MagnetarRegistry#verifyAggregate with an empty quorum', BOTH, 'same', (b, x, build) => attempt(() => said(x.registry[build].verifyAggregate(x.oneOfThree, x.msg, { quorum: {} })))],
    ['new MagnetarRegistry of a validator without a weight', BOTH, 'same', (b, x) => attempt(() => { const r = new b.MagnetarRegistry(x.mode, [{ id: x.id, publicKey: x.publicKey }]); try { return `${r.totalWeight}`; } finally { r.free(); } })],
    ['magnetar.verifyBatch of an item without a signature', BOTH, 'same', (b, x) => attempt(() => `${b.magnetar.verifyBatch([{ publicKey: x.publicKey, message: x.msg }])[0]}`)],
    ['bls.keygen(ikm), no options', FULL, 'same', (b, x) => hex(b.bls.keygen(x.seed32).publicKey)],
    ['Party#step of an entry without a sender', FULL, 'same', (b, x) => {
      const p = b.lens.keygen({ curve: 'ed25519', session: x.seed32, parties: [1, 2], threshold: 2, id: 1, seed: x.seed32 });
      const q = b.lens.keygen({ curve: 'ed25519', session: x.seed32, parties: [1, 2], threshold: 2, id: 2, seed: x.seed32 });
      try {
        return attempt(() => said(p.step([{ bytes: q.start.outgoing.broadcast }])));
      } finally {
        p.free();
        q.free();
      }
    }],
    ['MagnetarRegistry#verifyBatch', BOTH, 'same', (b, x, build) => attempt(() => `${x.registry[build].verifyBatch([x.vote], x.msg)[0]}`)],
    ['verifyCertificate', BOTH, 'same', (b, x) => { const r = b.verifyCertificate(x.cert.certificate, x.cert.set, 'pq-off'); return `${said(r)} ${legs(r)}`; }],
    ['verifyCertificate, tampered', BOTH, 'same', (b, x) => { const r = b.verifyCertificate(x.tampered.certificate, x.cert.set, 'pq-off'); return `${said(r)} ${legs(r)}`; }],
    ['verifyCertificate, unknown policy', BOTH, 'same', (b, x) => attempt(() => said(b.verifyCertificate(x.cert.certificate, x.cert.set, 'pq-evil')))],
    ['LightClient#update and #verify', BOTH, 'same', (b, x) => {
      const c = new b.LightClient(x.cert.set, 'pq-off');
      try {
        const u = c.update(x.cert.certificate);
        return `${said(c.update(x.tampered.certificate))} ${said(c.verify(x.cert.certificate))} ${said(u)} ${u.newEpoch} ${c.height}`;
      } finally {
        c.free();
      }
    }],
    ['lens.verify', FULL, 'same', (b, x) => b.lens.verify('ed25519', x.lens.groupKey, x.lens.message, x.lens.signature)],
    ['lens.verify, an inherited curve name', FULL, 'same', (b, x) => attempt(() => `${b.lens.verify('ed448', x.lens.groupKey, x.lens.message, x.lens.signature)}`)],
    ['lens.verifyActivation', FULL, 'same', (b, x) => { const a = x.lens.activation; return `${said(b.lens.verifyActivation(a[0], a[1], a[2], a[3]))} ${said(b.lens.verifyActivation(a[0], a[1], a[2], x.tampered.lensCertificate))}`; }],
    ['pulsar.verifyActivation', FULL, 'same', (b, x) => { const a = x.pulsar.activation; return `${said(b.pulsar.verifyActivation(a[0], a[1], a[2], a[3], a[4]))} ${said(b.pulsar.verifyActivation(a[0], a[1], a[2], a[3], x.tampered.pulsarCertificate))}`; }],
    ['mlDsa44, slhDsaShake128f, magnetar and bls keygen from a seed', FULL, 'same', (b, x) => `${hex(b.mlDsa44.keygen(x.seed32).publicKey)} ${hex(b.slhDsaShake128f.keygen(x.slhSeed).publicKey)} ${hex(b.magnetar.keygen(x.mode, { seed: x.magnetarSeed }).publicKey)} ${hex(b.bls.keygen(x.seed32).publicKey)}`],
    ['lens.deal with a seed', FULL, 'same', (b, x) => hex(b.lens.deal({ curve: 'ed25519', parties: [1, 2, 3], threshold: 2, seed: x.seed32 }).publicPackage)],
    ['lens.deal, no seed', FULL, 'fresh', (b) => hex(b.lens.deal({ curve: 'ed25519', parties: [1, 2, 3], threshold: 2 }).publicPackage)],
    ['lens.keygen with a seed: its start', FULL, 'same', (b, x) => {
      const p = b.lens.keygen({ curve: 'ed25519', session: x.seed32, parties: [1, 2, 3], threshold: 2, id: 1, seed: x.seed32 });
      try {
        const s = p.start;
        return `${hex(s.outgoing.broadcast)} ${s.outcome} ${said(s)}`;
      } finally {
        p.free();
      }
    }],
    ['bls.fastAggregateVerify and aggregate', FULL, 'same', (b, x) => `${b.bls.fastAggregateVerify(x.bls.agg, x.msg, x.bls.pks)} ${hex(b.bls.aggregate(x.bls.sigs))}`],
    ['a QuasarError of the module', FULL, 'same', (b) => attempt(() => b.LensKeyShare.restore('ed25519', new Uint8Array(100), new Uint8Array(32)))],
    ['a QuasarError of the JS boundary', BOTH, 'same', (b, x) => attempt(() => b.mlDsa44.verify(x.ml.sig, x.msg, x.ml.pk, { context: new Uint8Array(256) }))],
  ];
}

// ------------------------------------------------------------------ the class

/** The material of the class, made from the suite's fixtures `f` (in a clean realm). */
export function realmFixtures(full, light, f) {
  const tamper = (b) => {
    const t = Uint8Array.from(b);
    t[t.length - 1] ^= 1;
    return t;
  };
  const M = f.magnetar;
  const msg = M.msg;
  const mode = M.mode;
  // Votes on `msg` with no context (so a call without options verifies them), by three validators.
  const keys = [0, 1, 2].map((i) => full.magnetar.keygen(mode, { seed: seedOf(M.lengths.seed, i) }));
  const validators = keys.map((k, i) => ({ id: M.validators[i].id, publicKey: k.publicKey, weight: i + 1 }));
  const votes = keys.map((k, i) => ({ id: validators[i].id, signature: full.magnetar.sign(mode, msg, k.secretKey, { extraEntropy: false }) }));
  const ml = full.mlDsa44.keygen(f.ml[44].seed);
  const slhApi = full.slhDsaShake128f;
  const x = {
    msg,
    mode,
    ctx: f.ml[44].ctx,
    seed32: f.ml[44].seed,
    slhSeed: f.slh.slhDsaShake128f.seed,
    magnetarSeed: M.seed,
    referenceSeed: new Uint8Array(M.lengths.referenceSeed).fill(7),
    id: validators[0].id,
    publicKey: keys[0].publicKey,
    signature: votes[0].signature,
    item: { publicKey: keys[0].publicKey, message: msg, signature: votes[0].signature },
    vote: votes[0],
    validators,
    oneOfThree: full.magnetar.aggregate(mode, [votes[0]]),
    threeOfThree: full.magnetar.aggregate(mode, votes),
    ml: {
      pk: ml.publicKey,
      sk: ml.secretKey,
      sig: full.mlDsa44.sign(msg, ml.secretKey, { extraEntropy: false }),
      sigCtx: full.mlDsa44.sign(msg, ml.secretKey, { context: f.ml[44].ctx, extraEntropy: false }),
      sigInternal: full.mlDsa44.internal.sign(msg, ml.secretKey, { extraEntropy: false }),
    },
    slh: { pk: f.slh.slhDsaShake128f.pk, sk: f.slh.slhDsaShake128f.sk, sig: slhApi.sign(msg, f.slh.slhDsaShake128f.sk, { extraEntropy: false }) },
    magnetar: { pk: keys[0].publicKey, sk: keys[0].secretKey, sig: votes[0].signature },
    cert: { set: f.cert.set, certificate: f.cert.certificate },
    lens: { groupKey: f.lens.groupKey, message: f.lens.message, signature: f.lens.signature, activation: [f.lens.activation.publicPackage, f.lens.activation.generation, f.lens.activation.transcriptHash, f.lens.activation.certificate] },
    pulsar: { activation: [f.pulsar.activation.sharing, f.pulsar.activation.keyRecord, f.pulsar.activation.generation, f.pulsar.activation.transcriptHash, f.pulsar.activation.certificate] },
    bls: { agg: f.bls.agg, pks: f.bls.pks, sigs: f.bls.sigs },
  };
  x.tampered = {
    threeOfThree: tamper(x.threeOfThree),
    certificate: tamper(x.cert.certificate),
    lensCertificate: tamper(x.lens.activation[3]),
    pulsarCertificate: tamper(x.pulsar.activation[4]),
  };
  x.registry = { full: new full.MagnetarRegistry(mode, validators), light: new light.MagnetarRegistry(mode, validators) };
  const builds = [['full', full], ['light', light]];
  // The clean realm's statements.
  const list = calls();
  const clean = new Map();
  for (const [name, on, kind, run] of list) {
    if (kind !== 'same') continue;
    for (const [build, ns] of builds) if (on.includes(build)) clean.set(`${build}:${name}`, run(ns, x, build));
  }
  return { x, list, clean, builds, pollutions: pollutions(x), snapshot: snapshotRealm() };
}

/** Validator i's seed for the no-context votes (fixed bytes: the run is reproducible). */
function seedOf(n, i) {
  const s = new Uint8Array(n);
  for (let j = 0; j < n; j++) s[j] = (i * 31 + j * 7 + 1) & 0xff;
  return s;
}

/** Whether `list` holds `v` (Array.prototype.includes may be replaced while the realm is polluted). */
function member(list, v) {
  for (let i = 0; i < list.length; i++) if (list[i] === v) return true;
  return false;
}

/** How many own keys the objects the class pollutes have. */
function snapshotRealm() {
  return [OP, AP, Object, Array].map((t) => ownKeys(t).length);
}

/** Whether `t[k]` is again what it was (`d`, its descriptor before the round, or none). */
function restored(t, k, d) {
  const now = getOwnDescriptor(t, k);
  if (d === undefined || now === undefined) return d === now;
  return now.value === d.value && now.get === d.get && now.set === d.set && now.writable === d.writable && now.enumerable === d.enumerable;
}

/**
 * Runs `fn` with `props` (`[[target, key, value], …]`) installed, then puts every property back
 * as it was, whatever `fn` did. Descriptors are null-prototype so the pollution cannot reach them.
 */
export function polluted(props, fn) {
  // Index access only, no destructuring: a pollution may replace the array iterator.
  const saved = [];
  for (let i = 0; i < props.length; i++) {
    const d = getOwnDescriptor(props[i][0], props[i][1]);
    saved[i] = { __proto__: null, t: props[i][0], k: props[i][1], d: d && { __proto__: null, ...d } };
  }
  try {
    for (let i = 0; i < props.length; i++) {
      const v = props[i][2];
      const d = v instanceof Getter ? { __proto__: null, get: v.get, configurable: true } : { __proto__: null, value: v, writable: true, configurable: true };
      if (!defineProperty(props[i][0], props[i][1], d)) throw new Error(`could not pollute ${String(props[i][1])}`);
    }
    return fn();
  } finally {
    for (let i = saved.length - 1; i >= 0; i--) {
      const { t, k, d } = saved[i];
      if (d) defineProperty(t, k, d);
      else deleteProperty(t, k);
    }
  }
}

/**
 * Round `round` of the class: pollution `round` (they take turns, so a run of as many rounds as
 * there are pollutions uses each) and up to two more of a seeded choice, under which `perRound`
 * calls (a seeded choice) run in each build that has them. Returns `{ calls, failures, notes }`.
 */
export function realmRound(r, fx, round, perRound = 6) {
  const failures = [];
  const chosen = [];
  const notes = [];
  const picked = [fx.pollutions[round % fx.pollutions.length]];
  for (let i = r.int(3); i > 0; i--) picked.push(r.pick(fx.pollutions));
  for (const [note, props] of picked) {
    if (notes.includes(note)) continue;
    notes.push(note);
    for (const p of props) chosen.push(p);
  }
  const picks = [];
  for (let i = 0; i < perRound; i++) picks.push(r.pick(fx.list));
  const results = [];
  let count = 0;
  const before = chosen.map(([t, k]) => [t, k, getOwnDescriptor(t, k)]);
  polluted(chosen, () => {
    for (let i = 0; i < picks.length; i++) {
      const name = picks[i][0];
      const on = picks[i][1];
      const kind = picks[i][2];
      const run = picks[i][3];
      for (let j = 0; j < fx.builds.length; j++) {
        const build = fx.builds[j][0];
        const ns = fx.builds[j][1];
        if (!member(on, build)) continue;
        count += 1;
        let a;
        let c;
        try {
          a = run(ns, fx.x, build);
          c = kind === 'fresh' ? run(ns, fx.x, build) : undefined;
        } catch (e) {
          a = `threw ${e?.name}: ${e?.message}`;
        }
        results[results.length] = [`${build}:${name}`, kind, a, c];
      }
    }
  });
  // The realm is clean again: check it, then the results.
  const now = snapshotRealm();
  if (now.some((k, i) => k !== fx.snapshot[i]) || !before.every(([t, k, d]) => restored(t, k, d))) {
    failures.push(`the realm was not restored after ${notes.join(' + ')}`);
  }
  for (const [key, kind, a, c] of results) {
    const where = `polluted realm (${notes.join(' + ')}): ${key}`;
    if (kind === 'fresh') {
      if (typeof a !== 'string' || a.startsWith('threw')) failures.push(`${where}: ${a}`);
      else if (a === c) failures.push(`${where}: two calls gave the same output (no fresh randomness)`);
    } else if (a !== fx.clean.get(key)) {
      failures.push(`${where}: ${String(a)} (in a clean realm: ${String(fx.clean.get(key))})`);
    }
  }
  return { calls: count, failures, notes };
}
