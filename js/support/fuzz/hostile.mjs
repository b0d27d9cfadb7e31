// The hostile arguments of the JS fuzz suite, by argument kind, and the seeded generator that
// picks them. Each generator returns `{ value, expect, note }`:
//   expect 'reject'  — the call must throw a typed error (TypeError, RangeError, QuasarError);
//   expect 'same'    — the value is the base value in another form (a Buffer, a view of a shared
//                      or resizable buffer, a Proxy or frozen copy of an options bag, a getter
//                      whose first read is the base value): the call must behave as the base call;
//   expect 'changed' — well typed, other content (a mutated message, another party id): any typed
//                      error or a sane result, and a verifier must say false;
//   expect 'either'  — typed error or the base behaviour (a Uint8Array from another realm);
//   expect 'caller'  — the value's own getter or trap throws `HostileError`, which may propagate.
// Not part of the package.
import vm from 'node:vm';

/** What the fuzzer's own getters and proxy traps throw: a caller's exception, passed through. */
export class HostileError extends Error {
  constructor(what) {
    super(`hostile ${what}`);
    this.name = 'HostileError';
  }
}

// ------------------------------------------------------------------ seeded generator

/** Marsaglia's xorshift128 over four 32-bit words, seeded from one integer (SplitMix32 mixing). */
export function generator(seed) {
  let s = seed >>> 0;
  const mix = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let [x, y, z, w] = [mix(), mix(), mix(), mix() || 1];
  const u32 = () => {
    const t = x ^ (x << 11);
    [x, y, z] = [y, z, w];
    w = (w ^ (w >>> 19) ^ (t ^ (t >>> 8))) >>> 0;
    return w;
  };
  const int = (n) => (n <= 0 ? 0 : u32() % n);
  return {
    u32,
    int,
    pick: (list) => list[int(list.length)],
    chance: (p) => u32() / 2 ** 32 < p,
    bytes: (n) => Uint8Array.from({ length: n }, () => u32() & 0xff),
  };
}

// ------------------------------------------------------------------ helpers

const isBytes = (v) => v instanceof Uint8Array;
const copy = (b) => Uint8Array.from(b);
const equalBytes = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
export { equalBytes };

function detachedCopy(b) {
  const a = copy(b);
  if (typeof a.buffer.transfer === 'function') a.buffer.transfer();
  else structuredClone(a.buffer, { transfer: [a.buffer] });
  return a;
}

function withOwnAccessor(b, key, get) {
  const a = copy(b);
  Object.defineProperty(a, key, { get, configurable: true });
  return a;
}

function subclassWith(b, key, get) {
  class Lying extends Uint8Array {}
  Object.defineProperty(Lying.prototype, key, { get, configurable: true });
  const a = new Lying(b.length);
  a.set(b);
  return a;
}

function viaPrototype(b, key, get) {
  const proto = Object.create(Uint8Array.prototype, { [key]: { get, configurable: true } });
  return Object.setPrototypeOf(copy(b), proto);
}

/** A chain of `depth` empty objects between the array and Uint8Array.prototype. */
function deepChain(b, depth) {
  let proto = Uint8Array.prototype;
  for (let i = 0; i < depth; i++) proto = Object.create(proto);
  return Object.setPrototypeOf(copy(b), proto);
}

function sharedCopy(b, growable) {
  const sab = growable ? new SharedArrayBuffer(b.length, { maxByteLength: b.length + 64 }) : new SharedArrayBuffer(b.length);
  const a = new Uint8Array(sab);
  a.set(b);
  return a;
}

function resizableCopy(b, tracking) {
  const ab = new ArrayBuffer(b.length, { maxByteLength: b.length + 64 });
  const a = tracking ? new Uint8Array(ab) : new Uint8Array(ab, 0, b.length);
  a.set(b);
  return a;
}

function offsetView(b, offset) {
  const big = new Uint8Array(b.length + offset + 5).fill(0xa5);
  big.set(b, offset);
  return big.subarray(offset, offset + b.length);
}

const otherRealm = vm.runInNewContext('({ u8: (n) => new Uint8Array(n), obj: () => ({}) })');

/** Values of other types than Uint8Array (and a few Uint8Array look-alikes). */
function notBytes(n) {
  const ab = new ArrayBuffer(n);
  return [
    ['0', 0], ['1', 1], ['-1', -1], ['NaN', NaN], ['Infinity', Infinity], ['0x7fffffff', 0x7fffffff], ['2^32+1', 2 ** 32 + 1],
    ['-0', -0], ['empty string', ''], ['string', 'abc'], [`string of ${n}`, 'x'.repeat(n)], ['true', true], ['false', false],
    ['null', null], ['[]', []], ['[1,2,3]', [1, 2, 3]], [`Array(${n})`, new Array(n).fill(0)], ['sparse array', new Array(0x7fffffff)],
    ['{ length }', { length: n }], ['{ length: 0x7fffffff }', { length: 0x7fffffff, 0: 1 }], ['ArrayBuffer', ab],
    ['SharedArrayBuffer', new SharedArrayBuffer(n)], ['DataView', new DataView(new ArrayBuffer(n))], ['Uint16Array', new Uint16Array(n)],
    ['Int8Array', new Int8Array(n)], ['Uint8ClampedArray', new Uint8ClampedArray(n)], ['Float64Array', new Float64Array(4)],
    ['BigUint64Array', new BigUint64Array(4)], ['function', () => new Uint8Array(n)], ['class', class {}], ['BigInt', BigInt(n)],
    ['Symbol', Symbol('bytes')], ['Date', new Date(0)], ['RegExp', /x/], ['Map', new Map()], ['Promise', Promise.resolve(new Uint8Array(n))],
    ['Object.create(null)', Object.create(null)], ['Error', new Error('x')], ['String object', new String('abc')],
    ['{ [Symbol.toStringTag]: "Uint8Array" }', { [Symbol.toStringTag]: 'Uint8Array', length: n, byteLength: n, buffer: ab, byteOffset: 0 }],
    ['Object.create(Uint8Array.prototype)', Object.create(Uint8Array.prototype)],
  ];
}

const LIES = [
  ['0x7fffffff', () => 0x7fffffff], ['2^32+1', () => 2 ** 32 + 1], ['-1', () => -1], ['1', () => 1], ['0', () => 0], ['NaN', () => NaN],
  ['throws', () => { throw new HostileError('getter'); }],
];
const LIED = ['length', 'byteLength', 'byteOffset', 'buffer'];

/** Well-typed mutations of `base` (truncation, extension, bit flips, length-field inflation, splices). */
export function mutate(r, base, foreign) {
  const n = base.length;
  let out;
  let note;
  switch (r.int(9)) {
    case 0: {
      const cut = r.pick([0, 1, 4, n - 1, r.int(n)].filter((c) => c >= 0 && c < n));
      out = base.slice(0, cut ?? 0);
      note = `truncated to ${out.length}`;
      break;
    }
    case 1: {
      const extra = r.pick([1, 2, 33, 64, 1024]);
      out = new Uint8Array(n + extra);
      out.set(base);
      if (r.chance(0.5)) out.set(r.bytes(extra), n);
      note = `extended by ${extra}`;
      break;
    }
    case 2:
    case 3: {
      out = copy(base);
      const flips = 1 + r.int(3);
      for (let i = 0; i < flips && n; i++) out[r.int(n)] ^= 1 << r.int(8);
      note = `${flips} bit flips`;
      break;
    }
    case 4: {
      // A length or count field inflated: a 2- or 4-byte window set high, most often in a header.
      out = copy(base);
      const at = n > 16 && r.chance(0.6) ? r.int(Math.min(n, 48)) : r.int(n);
      const w = r.pick([2, 4]);
      for (let i = at; i < Math.min(n, at + w); i++) out[i] = 0xff;
      if (r.chance(0.5) && at < n) out[at] = 0x7f;
      note = `inflated ${w} bytes at ${at}`;
      break;
    }
    case 5: {
      const f = r.pick(foreign);
      const i = r.int(n + 1);
      const j = r.int(f.length + 1);
      out = new Uint8Array(i + f.length - j);
      out.set(base.subarray(0, i));
      out.set(f.subarray(j), i);
      note = `spliced at ${i} with ${f.length - j} foreign bytes`;
      break;
    }
    case 6:
      out = copy(r.pick(foreign));
      note = `another record (${out.length} bytes)`;
      break;
    case 7:
      out = new Uint8Array(n).fill(r.pick([0, 0xff]));
      note = `all ${out[0]}`;
      break;
    default: {
      out = copy(base);
      if (n >= 2) {
        const [i, j] = [r.int(n), r.int(n)];
        [out[i], out[j]] = [out[j], out[i]];
      }
      note = 'two bytes swapped';
    }
  }
  if (equalBytes(out, base)) {
    out = new Uint8Array(n + 1);
    out.set(base);
    note += ', then extended by 1 (the mutation was a no-op)';
  }
  return { value: out, expect: 'changed', note };
}

// ------------------------------------------------------------------ by kind

/** A hostile value for a byte argument whose valid value is `base`. `bounds`: oversize lengths. */
export function hostileBytes(r, base, { foreign, optional, oversize }) {
  const n = isBytes(base) ? base.length : 32;
  const b = isBytes(base) ? base : new Uint8Array(32);
  const mode = r.int(100);
  if (mode < 30) return mutate(r, b, foreign);
  if (mode < 44) {
    const [note, value] = r.pick(notBytes(n));
    return { value, expect: 'reject', note };
  }
  if (mode < 64) {
    const key = r.pick(LIED);
    const [lie, get] = r.pick(LIES);
    const how = r.pick(['own accessor', 'subclass', 'prototype']);
    const make = { 'own accessor': withOwnAccessor, subclass: subclassWith, prototype: viaPrototype }[how];
    return { value: make(b, key, get), expect: 'reject', note: `${how} ${key} → ${lie}` };
  }
  if (mode < 70) {
    const traps = r.pick([
      ['plain', {}],
      ['lying length', { get: (t, k) => (k === 'length' ? 0x7fffffff : Reflect.get(t, k)) }],
      ['throwing traps', { get: () => { throw new HostileError('proxy get'); }, getPrototypeOf: () => { throw new HostileError('proxy proto'); } }],
      ['prototype trap', { getPrototypeOf: () => Uint8Array.prototype }],
    ]);
    return { value: new Proxy(copy(b), traps[1]), expect: 'reject', note: `Proxy (${traps[0]})` };
  }
  if (mode < 74) return { value: detachedCopy(b), expect: 'reject', note: 'detached buffer' };
  if (mode < 77) return { value: Object.setPrototypeOf(copy(b), null), expect: 'reject', note: 'null prototype' };
  if (mode < 79) return { value: deepChain(b, 12), expect: 'reject', note: 'prototype chain of 12' };
  if (mode < 81) return { value: otherRealm.u8(n), expect: 'either', note: 'Uint8Array of another realm' };
  if (mode < 84 && oversize !== undefined) {
    return { value: oversize.subarray(0, oversize.length), expect: 'changed', note: `oversize (${oversize.length} bytes)` };
  }
  if (mode < 86 && !optional) return { value: undefined, expect: 'reject', note: 'undefined' };
  // The same bytes in another form: the call must behave exactly as with the base value.
  const same = [
    ['Node Buffer', () => Buffer.from(b)],
    ['view at offset 3', () => offsetView(b, 3)],
    ['view at offset 1', () => offsetView(b, 1)],
    ['SharedArrayBuffer view', () => sharedCopy(b, false)],
    ['growable SharedArrayBuffer view', () => sharedCopy(b, true)],
    ['resizable ArrayBuffer view', () => resizableCopy(b, false)],
    ['length-tracking view', () => resizableCopy(b, true)],
    ['benign subclass', () => { class Plain extends Uint8Array {} return Plain.from(b); }],
    ['prototype chain of 3', () => deepChain(b, 3)],
    ['non-extensible array', () => Object.preventExtensions(copy(b))],
    ['array with an own toStringTag', () => Object.defineProperty(copy(b), Symbol.toStringTag, { value: 'DataView' })],
  ];
  const [note, make] = r.pick(same);
  return { value: isBytes(base) ? make() : undefined, expect: isBytes(base) ? 'same' : 'either', note };
}

/** A hostile party id, threshold or other small integer. */
export function hostileInt(r, base, small = false) {
  if (r.chance(0.35)) {
    const [note, value] = r.pick([
      ['"1"', '1'], ['1n', 1n], ['null', null], ['undefined', undefined], ['true', true], ['{}', {}], ['[1]', [1]],
      ['Number object', new Number(base)], ['Symbol', Symbol('id')], ['function', () => 1], ['Uint8Array', new Uint8Array(1)],
    ]);
    return { value, expect: 'reject', note };
  }
  const [note, value] = r.pick([
    ['0', 0], ['-1', -1], ['1.5', 1.5], ['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity], ['65535', 65535], ['65536', 65536],
    ['0x7fffffff', 0x7fffffff], ['2^32+1', 2 ** 32 + 1], ['2^53', 2 ** 53], ['-0', -0], ['base+1', base + 1], ['base-1', base - 1],
    ['1', 1], ['2', 2], ['9', 9], small ? ['77', 77] : ['777', 777],
  ]);
  return { value, expect: Object.is(value, base) ? 'same' : 'changed', note };
}

/** A hostile list of party ids. */
export function hostileIds(r, base) {
  const mode = r.int(10);
  if (mode < 2) {
    const [note, value] = r.pick([
      ['null', null], ['number', 3], ['string', '1,2'], ['Uint16Array', Uint16Array.from(base)], ['Set', new Set(base)],
      ['{ length }', { length: base.length, 0: base[0] }], ['arguments-like', Object.assign(Object.create(null), base, { length: base.length })],
    ]);
    return { value, expect: 'reject', note };
  }
  if (mode < 5) {
    const [note, value] = r.pick([
      ['[]', []], ['[0]', [0]], ['duplicate', [...base, base[0]]], ['reversed', [...base].reverse()], ['with a string', [...base.slice(1), '1']],
      ['with 1.5', [...base, 1.5]], ['with 65536', [...base, 65536]], ['4097 ids', Array.from({ length: 4097 }, (_, i) => i + 1)],
      ['sparse', Object.assign(new Array(base.length + 2), base)], ['one more', [...base, Math.max(...base) + 1]], ['one fewer', base.slice(1)],
      ['huge sparse', new Array(0x7fffffff)],
    ]);
    return { value, expect: 'changed', note };
  }
  if (mode < 7) {
    // Getters: one that throws, one that answers differently on every read. Both are refused
    // before they run: a list element is a plain data property.
    const a = [...base];
    if (r.chance(0.5)) {
      Object.defineProperty(a, 0, { get() { throw new HostileError('id getter'); } });
      return { value: a, expect: 'reject', note: 'element getter that throws' };
    }
    let reads = 0;
    Object.defineProperty(a, 0, { get: () => (reads++ === 0 ? base[0] : 0) });
    return { value: a, expect: 'reject', note: 'element getter: base value first, then 0' };
  }
  if (mode < 9) {
    // A Proxy whose length is the base length on the first read and grows on later reads, every
    // index answering a valid id: a loop bounded by a re-read length would run for ever.
    let reads = 0;
    const value = new Proxy([...base], {
      get: (t, k) => {
        if (k === 'length') return reads++ === 0 ? t.length : 3e7;
        if (typeof k === 'string' && /^\d+$/.test(k)) return Number(k) < t.length ? t[k] : 1;
        return Reflect.get(t, k);
      },
    });
    return { value, expect: 'same', note: 'Proxy whose length grows after the first read' };
  }
  return { value: Object.freeze([...base]), expect: 'same', note: 'frozen copy' };
}

/**
 * A hostile list of plain entries (`{ id, publicKey, weight }`, `{ id, signature }`, …) around
 * `base`: not a list, entries dropped, repeated or reordered, one entry's bytes changed by
 * `mutateBytes`, a throwing element getter, malformed entries, or a copy.
 */
export function hostileList(r, base, mutateBytes) {
  const mode = r.int(10);
  if (mode < 2) {
    const [note, value] = r.pick([
      ['null', null], ['number', 3], ['string', 'validators'], ['Set', new Set(base)], ['{ length }', { length: base.length, 0: base[0] }], ['Uint8Array', new Uint8Array(base.length)],
    ]);
    return { value, expect: 'reject', note };
  }
  if (mode < 4) {
    const [note, value] = r.pick([
      ['[]', []], ['one fewer', base.slice(1)], ['first twice', [...base, base[0]]], ['reversed', [...base].reverse()],
      ['2000 entries', Array.from({ length: 2000 }, () => base[0])], ['sparse', Object.assign(new Array(base.length + 1), base)],
    ]);
    return { value, expect: 'changed', note };
  }
  if (mode < 6) {
    const i = r.int(base.length);
    if (base[i] instanceof Uint8Array) {
      const h = mutateBytes(base[i]);
      return { value: base.map((e, j) => (j === i ? h.value : e)), expect: 'changed', note: `[${i}]: ${h.note}` };
    }
    const fields = Object.keys(base[i]).filter((k) => base[i][k] instanceof Uint8Array);
    const k = r.pick(fields);
    const h = mutateBytes(base[i][k]);
    const value = base.map((e, j) => (j === i ? { ...e, [k]: h.value } : e));
    return { value, expect: 'changed', note: `[${i}].${k}: ${h.note}` };
  }
  if (mode < 7) {
    const a = [...base];
    Object.defineProperty(a, 0, { get() { throw new HostileError('entry getter'); } });
    return { value: a, expect: 'reject', note: 'element getter that throws' };
  }
  if (mode < 9) {
    const e = base[0];
    const [note, bad] = r.pick([
      ['null entry', null], ['number entry', 1], ['entry without fields', {}], ['entry as array', Object.values(e)],
      ...('weight' in e ? [['weight -1', { ...e, weight: -1 }], ['weight 1.5', { ...e, weight: 1.5 }], ['weight 2^64', { ...e, weight: 1n << 64n }], ['weight "1"', { ...e, weight: '1' }]] : []),
      ['a field as string', { ...e, [Object.keys(e)[0]]: 'x' }],
    ]);
    return { value: [bad, ...base.slice(1)], expect: 'reject', note };
  }
  return r.chance(0.5) ? { value: base.map((e) => (e instanceof Uint8Array ? Uint8Array.from(e) : { ...e })), expect: 'same', note: 'a copy' } : { value: Object.freeze([...base]), expect: 'same', note: 'frozen copy' };
}

/** A hostile quorum rule `{ numerator, denominator }` (absent: 2/3). */
export function hostileQuorum(r, base) {
  const [note, value, ok] = r.pick([
    ['2/3', { numerator: 2, denominator: 3 }, true], ['1/2', { numerator: 1, denominator: 2 }, true], ['0/1', { numerator: 0, denominator: 1 }, true],
    ['BigInts 3/4', { numerator: 3n, denominator: 4n }, true], ['1/1', { numerator: 1, denominator: 1 }, false], ['2/0', { numerator: 2, denominator: 0 }, false],
    ['-1/3', { numerator: -1, denominator: 3 }, false], ['1.5/3', { numerator: 1.5, denominator: 3 }, false], ['2^64/1', { numerator: 1n << 64n, denominator: 1 }, false],
    ['"2"/"3"', { numerator: '2', denominator: '3' }, false], ['{}', {}, false], ['null', null, false], ['a number', 0.66, false], ['[2, 3]', [2, 3], false],
  ]);
  return { value, expect: ok ? (base === undefined && note === '2/3' ? 'same' : 'changed') : 'reject', note };
}

/** A hostile string from a fixed set of names (`valid`), the base being `base`. */
export function hostileName(r, base, valid) {
  const mode = r.int(10);
  if (mode < 3) return { value: r.pick(valid), expect: 'same-if-equal', note: 'another valid name' };
  const [note, value] = r.pick([
    ['toString', 'toString'], ['__proto__', '__proto__'], ['constructor', 'constructor'], ['hasOwnProperty', 'hasOwnProperty'],
    ['valueOf', 'valueOf'], ['empty', ''], ['upper case', String(base ?? valid[0]).toUpperCase()], ['padded', ` ${base ?? valid[0]}`],
    ['String object', new String(base ?? valid[0])], ['number', 1], ['null', null], ['Symbol', Symbol('name')], ['array', [base]],
    ['10 MB string', 'x'.repeat(10 << 20)], ['with NUL', `${base ?? valid[0]}\0`], ['{ toString }', { toString: () => base ?? valid[0] }],
  ]);
  return { value, expect: 'reject', note };
}

/**
 * A hostile text argument (a JWK's JSON) around the valid `base`: anything but a string is
 * refused, a string changed in any way may decode to another key or be refused.
 */
export function hostileText(r, base) {
  const at = r.int(base.length);
  const [note, value, expect] = r.pick([
    ['the same', base, 'same'], ['truncated', base.slice(0, at), 'changed'], ['one character changed', `${base.slice(0, at)}${String.fromCharCode(r.int(0x80))}${base.slice(at + 1)}`, 'changed'],
    ['a BOM first', `\uFEFF${base}`, 'changed'], ['a lone surrogate inside', `${base.slice(0, at)}\uD800${base.slice(at)}`, 'changed'], ['doubled', base + base, 'changed'],
    ['empty', '', 'reject'], ['String object', new String(base), 'reject'], ['its UTF-8 bytes', new TextEncoder().encode(base), 'reject'], ['number', 1, 'reject'],
    ['null', null, 'reject'], ['undefined', undefined, 'reject'], ['Symbol', Symbol('text'), 'reject'], ['array', [base], 'reject'],
    ['{ toString }', { toString: () => base }, 'reject'], ['10 MB string', 'x'.repeat(10 << 20), 'reject'], ['parsed', JSON.parse(base), 'reject'],
  ]);
  return { value, expect, note };
}

/** A hostile level (44, 65, 87). */
export function hostileLevel(r, base) {
  const [note, value] = r.pick([['65', 65], ['87', 87], ['44', 44], ['"44"', '44'], ['44n', 44n], ['45', 45], ['0', 0], ['null', null], ['NaN', NaN], ['Number object', new Number(44)]]);
  const valid = [44, 65, 87].includes(value);
  return { value, expect: valid ? (value === base ? 'same' : 'changed') : 'reject', note };
}

/** A hostile boolean option. */
export function hostileBool(r, base) {
  const [note, value] = r.pick([['true', true], ['false', false], ['1', 1], ['"true"', 'true'], ['null', null], ['Boolean object', new Boolean(true)], ['{}', {}]]);
  const ok = typeof value === 'boolean';
  return { value, expect: ok ? (value === (base ?? false) ? 'same' : 'changed') : 'reject', note };
}

/** A hostile non-negative generation number. */
export function hostileGeneration(r, base) {
  const [note, value] = r.pick([
    ['-1', -1], ['1.5', 1.5], ['NaN', NaN], ['Infinity', Infinity], ['2^53', 2 ** 53], ['2^53-1', 2 ** 53 - 1], ['-0', -0], ['base+1', base + 1],
    ['"1"', '1'], ['1n', 1n], ['null', null], ['Number object', new Number(base)], ['0', 0], ['1', 1],
  ]);
  const ok = typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
  return { value, expect: ok ? (Object.is(value, base) || (value === 0 && base === 0) ? 'same' : 'changed') : 'reject', note };
}

/** A hostile key-share holder or generator argument: the wrong class, a freed one, look-alikes. */
export function hostileHolder(r, base, { others, freed }) {
  const [note, make] = r.pick([
    ['null', () => null], ['{}', () => ({})], ['a Uint8Array', () => new Uint8Array(32)], ['Object.create(prototype)', () => Object.create(Object.getPrototypeOf(base))],
    ['Proxy of the holder', () => new Proxy(base, {})], ['freed holder', freed], ['another holder', () => r.pick(others)],
    ['{ _w: the holder }', () => ({ _w: base })], ['string', () => 'share'],
  ]);
  const value = make();
  return { value, expect: value === base ? 'same' : 'reject', note };
}

/** A hostile extraEntropy: false, bytes, or something else. */
export function hostileEntropy(r, base) {
  const mode = r.int(4);
  if (mode === 0) return { value: false, expect: base === false ? 'same' : 'changed', note: 'false' };
  if (mode === 1) return { value: new Uint8Array(32).fill(r.int(256)), expect: 'changed', note: '32 other bytes' };
  if (mode === 2) {
    const [note, value] = r.pick([['true', true], ['0', 0], ['null', null], ['string', 'x'.repeat(32)], ['32 numbers', new Array(32).fill(0)]]);
    return { value, expect: 'reject', note };
  }
  // Any other value: as a byte argument, except that false (deterministic) and undefined
  // (fresh randomness) are valid here.
  const b = hostileBytes(r, new Uint8Array(32), { foreign: [new Uint8Array(31)], optional: true });
  const valid = b.value === false || b.value === undefined || b.expect === 'same';
  return { ...b, expect: valid ? (b.value === base ? 'same' : 'changed') : b.expect };
}

/** What `init(input)` and `initSync(input)` get once the module is loaded: anything at all. */
export function hostileAny(r) {
  const [note, value] = r.pick([...notBytes(8), ['undefined', undefined], ['Uint8Array', new Uint8Array(8)], ['URL', new URL('file:///nonexistent.wasm')]]);
  return { value, expect: 'same', note };
}

/**
 * A hostile options bag around `base` (a plain object; `keys` the kinds of its keys), or one
 * of its keys made hostile by `valueOf(key, baseValue)`.
 */
export function hostileOpts(r, base, keys, valueOf) {
  const mode = r.int(100);
  const names = Object.keys(keys);
  if (mode < 45 && names.length) {
    const key = r.pick(names);
    const h = valueOf(key, base?.[key]);
    const o = { ...base };
    if (h.value === undefined) delete o[key];
    else o[key] = h.value;
    return { ...h, value: o, note: `opts.${key}: ${h.note}` };
  }
  const o = base ?? {};
  const cases = [
    ['null', () => null, 'reject'], ['number', () => 1, 'reject'], ['string', () => 'context', 'reject'], ['array', () => [o], 'reject'],
    ['Uint8Array', () => new Uint8Array(1), 'reject'], ['function', () => Object.assign(() => 0, o), 'reject'], ['true', () => true, 'reject'],
    ['Symbol', () => Symbol('opts'), 'reject'], ['BigInt', () => 1n, 'reject'],
    ['unknown key', () => ({ ...o, ctx: new Uint8Array(1) }), 'reject'], ['misspelt key', () => ({ ...o, contxt: 1 }), 'reject'],
    ['__proto__ own key', () => Object.assign(JSON.parse('{"__proto__": 1}'), o), 'reject'],
    ['unknown key set to undefined', () => ({ ...o, ctx: undefined }), 'same'], ['symbol key', () => ({ ...o, [Symbol('x')]: 1 }), 'same'],
    ['frozen', () => Object.freeze({ ...o }), 'same'], ['sealed', () => Object.seal({ ...o }), 'same'],
    ['null prototype', () => Object.assign(Object.create(null), o), 'same'], ['Proxy', () => new Proxy({ ...o }, {}), 'same'],
    ['Proxy with throwing ownKeys', () => new Proxy({ ...o }, { ownKeys: () => { throw new HostileError('ownKeys'); } }), 'caller'],
    // Options are read through their own property descriptors: a Proxy's get trap never runs.
    ['Proxy with throwing get', () => new Proxy({ ...o }, { get: () => { throw new HostileError('get'); } }), 'same'],
    ['Proxy answering differently on every read', () => changing(o, true), 'same'],
    // A getter is refused before it runs: an option is a plain data property.
    ['getters: base value first, then other values', () => changing(o, false), Object.keys(o).length ? 'reject' : 'same'],
    ['getter that throws', () => throwing(o), 'reject'],
    ['options of another realm', () => Object.assign(otherRealm.obj(), o), 'either'],
    // Keys the call would not see: inherited, on a class prototype, in a Map. They must not be
    // dropped in silence (a misplaced context is as bad as a misspelt one).
    ...(names.length && Object.keys(o).length
      ? [
          ['keys inherited from a prototype', () => Object.create({ ...o }), 'reject'],
          ['keys as getters of a class', () => classOpts(o), 'reject'],
          ['a Map of the keys', () => new Map(Object.entries(o)), 'reject'],
        ]
      : []),
  ];
  if (names.length && Object.keys(o).length) {
    const missing = r.pick(Object.keys(o));
    const m = { ...o };
    delete m[missing];
    cases.push([`without ${missing}`, () => m, 'changed']);
  }
  const [note, make, expect] = r.pick(cases);
  return { value: make(), expect, note: `options: ${note}` };
}

function changing(o, proxy) {
  const reads = new Map();
  const read = (k) => {
    const n = reads.get(k) ?? 0;
    reads.set(k, n + 1);
    if (n === 0) return o[k];
    const v = o[k];
    return v instanceof Uint8Array ? Object.defineProperty(Uint8Array.from(v), 'length', { get: () => 0x7fffffff }) : 0;
  };
  if (proxy) return new Proxy({ ...o }, { get: (t, k) => (typeof k === 'string' && k in t ? read(k) : Reflect.get(t, k)) });
  const out = {};
  for (const k of Object.keys(o)) Object.defineProperty(out, k, { get: () => read(k), enumerable: true });
  return out;
}

function throwing(o) {
  const out = { ...o };
  Object.defineProperty(out, Object.keys(o)[0] ?? 'context', { get() { throw new HostileError('option getter'); }, enumerable: true });
  return out;
}

function classOpts(o) {
  class Opts {}
  for (const k of Object.keys(o)) Object.defineProperty(Opts.prototype, k, { get: () => o[k] });
  return new Opts();
}

/** Hostile `this` values for a method or getter whose valid receiver is `base`. */
export function hostileThis(r, base, freed) {
  const [note, make] = r.pick([
    ['undefined', () => undefined], ['null', () => null], ['{}', () => ({})], ['Object.create(prototype)', () => Object.create(Object.getPrototypeOf(base))],
    ['Proxy of the receiver', () => new Proxy(base, {})], ['freed receiver', freed ?? (() => ({}))], ['a number', () => 1],
  ]);
  return { value: make(), expect: 'any', note: `this = ${note}` };
}

/**
 * A hostile inbox for `victim`, whose genuine first inbox is `inbox`: bad entries, huge counts,
 * re-entrant getters, or the genuine messages mutated, duplicated, dropped, misattributed.
 * `suspects`: the senders a step that accepts it may blame (the senders of what was changed);
 * `consumes`: the victim was freed or stepped behind the call's back. `refused`: only inboxes the
 * step must refuse, leaving the party as it was (not an array, a malformed entry, over the bound).
 */
export function hostileInbox(r, { inbox, victim, max, foreign, refused = false }) {
  const senders = [...new Set(inbox.map((e) => e.from))];
  const copyOf = () => inbox.map((e) => ({ from: e.from, bytes: e.bytes }));
  const i = r.int(inbox.length);
  const e = inbox[i];
  const mode = refused ? r.pick([0, 8, 32]) + r.int(8) : r.int(100);
  if (mode < 8) {
    const [note, value] = r.pick([['null', null], ['an entry', e], ['a string', 'inbox'], ['a number', 3], ['a Set', new Set(inbox)], ['{ length }', { length: 1, 0: e }], ['a typed array', new Uint8Array(8)]]);
    return { value, expect: 'reject', note: `inbox: ${note}` };
  }
  if (mode < 32) {
    const out = copyOf();
    switch (refused ? r.int(2) : r.int(8)) {
      case 0: {
        const [note, bad] = r.pick([['null', null], ['1', 1], ['a string', 'x'], ['[]', []], ['a Symbol', Symbol('entry')], ['true', true]]);
        out[i] = bad;
        return { value: out, expect: 'reject', note: `entry ${i}: ${note}` };
      }
      case 1:
        out[i] = r.chance(0.5) ? { from: e.from } : { bytes: e.bytes };
        return { value: out, expect: 'reject', note: `entry ${i} without ${'from' in out[i] ? 'bytes' : 'from'}` };
      case 2: {
        const h = hostileInt(r, e.from);
        out[i] = { from: h.value, bytes: e.bytes };
        return { value: out, expect: h.expect === 'same' ? 'same' : h.expect, suspects: new Set([h.value, e.from]), note: `entry ${i}.from: ${h.note}` };
      }
      case 3: {
        const h = hostileBytes(r, e.bytes, { foreign });
        out[i] = { from: e.from, bytes: h.value };
        return { value: out, expect: h.expect, suspects: new Set([e.from]), note: `entry ${i}.bytes: ${h.note}` };
      }
      case 4:
        out[i] = { from: e.from, get bytes() { throw new HostileError('entry getter'); } };
        return { value: out, expect: 'reject', note: `entry ${i}: a getter that throws` };
      case 5: {
        let reads = 0;
        out[i] = { from: e.from, get bytes() { return reads++ === 0 ? e.bytes : Object.defineProperty(Uint8Array.from(e.bytes), 'length', { get: () => 0x7fffffff }); } };
        return { value: out, expect: 'reject', note: `entry ${i}: a getter, the genuine bytes first, then a lying array` };
      }
      case 6:
        out[i] = new Proxy({ from: e.from, bytes: e.bytes }, {});
        return { value: out, expect: 'same', note: `entry ${i} is a Proxy` };
      default:
        if (r.chance(0.5)) {
          out[i] = { from: e.from, get bytes() { victim.free(); return e.bytes; } };
          return { value: out, expect: 'reject', consumes: true, note: `entry ${i}: a getter that frees the party` };
        }
        out[i] = { from: e.from, get bytes() { try { victim.step(inbox); } catch {} return e.bytes; } };
        return { value: out, expect: 'any', consumes: true, note: `entry ${i}: a getter that steps the party` };
    }
  }
  if (mode < 44) {
    const empty = new Uint8Array(0);
    const [note, make] = r.pick([
      ['200000 copies of an entry', () => new Array(200000).fill(e)],
      ['a sparse array of 2^32-1', () => new Array(2 ** 32 - 1)],
      ['a Proxy claiming 2^32-1 empty entries', () => new Proxy([], { get: (t, k) => (k === 'length' ? 2 ** 32 - 1 : typeof k === 'string' && /^\d+$/.test(k) ? { from: e.from, bytes: empty } : Reflect.get(t, k)) })],
      ['more empty entries than the bound holds', () => Array.from({ length: Math.min(Math.ceil(max / 6) + 1, 1 << 20) }, () => ({ from: e.from, bytes: empty }))],
      ['one entry over the bound', () => [{ from: e.from, bytes: new Uint8Array(max + 1) }]],
    ]);
    return { value: make(), expect: 'reject', note: `inbox: ${note}` };
  }
  if (mode < 80) {
    const out = copyOf();
    const [note, change, suspects] = r.pick([
      ['duplicated', () => out.push({ ...e }), [e.from]],
      ['dropped', () => out.splice(i, 1), [e.from]],
      ['from an unknown party', () => out.push({ from: 777, bytes: e.bytes }), [777]],
      ['from the victim itself', () => out.push({ from: victim.id, bytes: e.bytes }), [victim.id]],
      ['mutated', () => { out[i] = { from: e.from, bytes: mutate(r, e.bytes, foreign).value }; }, [e.from]],
      ['empty inbox', () => out.splice(0), senders],
      ['every entry from one sender', () => out.forEach((x) => { x.from = e.from; }), senders],
      ['senders rotated', () => { const fs = out.map((x) => x.from); out.forEach((x, j) => { x.from = fs[(j + 1) % fs.length]; }); }, senders],
      ['reversed', () => out.reverse(), senders],
    ]);
    change();
    return { value: out, expect: 'changed', suspects: new Set(suspects), note: `entry ${i} ${note}` };
  }
  const [note, make] = r.pick([
    ['frozen', () => Object.freeze(copyOf().map(Object.freeze))],
    ['a Proxy of the inbox', () => new Proxy(copyOf(), {})],
    ['entries with extra keys', () => copyOf().map((x) => ({ ...x, channel: 'broadcast', to: victim.id }))],
    ['entries of null prototype', () => copyOf().map((x) => Object.assign(Object.create(null), x))],
    ['bytes in shared buffers', () => copyOf().map((x) => ({ from: x.from, bytes: hostileSame(x.bytes, 'shared') }))],
    ['bytes as views at an offset', () => copyOf().map((x) => ({ from: x.from, bytes: hostileSame(x.bytes, 'offset') }))],
    ['bytes as Node Buffers', () => copyOf().map((x) => ({ from: x.from, bytes: Buffer.from(x.bytes) }))],
  ]);
  return { value: make(), expect: 'same', note: `inbox: ${note}` };
}

function hostileSame(b, how) {
  return how === 'shared' ? sharedCopy(b, false) : offsetView(b, 7);
}
