// The "hostile built-ins after load" class of the JS fuzz suite: changes a caller can
// make to the realm after the package loaded, each installed around one call made with the
// site's base arguments and undone right after it (whatever the call did). The package and its
// generated glue call only what they captured at load, so the call must behave exactly as with
// the realm intact (the engine compares it with the base call), with two exceptions a line
// declares:
//   caller: true  — a built-in the caller's own use of the package reaches (reading a list
//                   argument with Array.prototype.forEach, framing it with a DataView, checking
//                   options with Object.create): the hostile one may throw `HostileError`,
//                   which then propagates unchanged;
//   refused: [..] — codes the package may refuse with instead (RNG_FAILURE: no randomness is
//                   drawn in a realm whose typed-array byteLength lies).
// A "calls the package" line runs a verification from inside the hook: it must give its normal
// verdict (the hook ran outside any call) or QuasarError REENTRANT_CALL (it ran inside one).
// Not part of the package.
import { HostileError } from './hostile.mjs';

const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const defineProperty = Object.defineProperty;
const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const apply = Reflect.apply;

const thrower = (what) =>
  function () {
    throw new HostileError(what);
  };

/** A typed array whose `length` claims 32 whatever it holds. */
class Liar extends Uint8Array {
  get length() {
    return 32;
  }
}

/**
 * The tamperings: `{ name, patches: [[object, key, descriptor(hooks)]], caller?, refused? }`.
 * `hooks.reenter()` calls the package from inside a hook (see the module docs).
 */
export const TAMPERINGS = Object.freeze([
  { name: '%TypedArray%.prototype.length says 1', patches: [[TypedArrayPrototype, 'length', () => ({ get: () => 1 })]] },
  { name: '%TypedArray%.prototype.length says 2^31-1', patches: [[TypedArrayPrototype, 'length', () => ({ get: () => 0x7fffffff })]] },
  { name: '%TypedArray%.prototype.byteLength says 1', patches: [[TypedArrayPrototype, 'byteLength', () => ({ get: () => 1 })]], refused: ['RNG_FAILURE'] },
  { name: '%TypedArray%.prototype.byteOffset and buffer lie', patches: [[TypedArrayPrototype, 'byteOffset', () => ({ get: () => 8 })], [TypedArrayPrototype, 'buffer', () => ({ get: () => new ArrayBuffer(8) })]] },
  { name: '%TypedArray%.prototype.set throws', patches: [[TypedArrayPrototype, 'set', () => ({ value: thrower('set') })]], caller: true },
  { name: '%TypedArray%.prototype.subarray and slice throw', patches: [[TypedArrayPrototype, 'subarray', () => ({ value: thrower('subarray') })], [TypedArrayPrototype, 'slice', () => ({ value: thrower('slice') })]], caller: true },
  { name: 'Uint8Array.prototype.constructor is another species', patches: [[Uint8Array.prototype, 'constructor', () => ({ value: class extends Uint8Array { static get [Symbol.species]() { throw new HostileError('species'); } } })]], caller: true },
  { name: 'Array.prototype.push throws', patches: [[Array.prototype, 'push', () => ({ value: thrower('push') })]], caller: true },
  {
    name: 'Array.prototype.push calls the package',
    patches: [[Array.prototype, 'push', (hooks, old) => ({ value(...args) { hooks.reenter(); return apply(old.value, this, args); } })]],
    caller: true,
  },
  { name: 'a setter at Array.prototype[0] throws', patches: [[Array.prototype, '0', () => ({ set: thrower('index setter') })]], caller: true },
  { name: 'Array.prototype.forEach, Array.from and Array.isArray throw', patches: ['forEach', 'map', 'entries'].map((k) => [Array.prototype, k, () => ({ value: thrower(k) })]).concat([[Array, 'from', () => ({ value: thrower('from') })], [Array, 'isArray', () => ({ value: thrower('isArray') })]]), caller: true },
  { name: 'Reflect.set and Reflect.get throw', patches: [[Reflect, 'set', () => ({ value: thrower('Reflect.set') })], [Reflect, 'get', () => ({ value: thrower('Reflect.get') })]] },
  { name: 'Object.create, Object.entries and Object.freeze throw', patches: ['create', 'entries', 'freeze'].map((k) => [Object, k, () => ({ value: thrower(`Object.${k}`) })]), caller: true },
  {
    name: 'setters on Object.prototype for what Rust and the glue set throw',
    patches: ['__wbg_ptr', 'ok', 'legs', 'accepted', 'outgoing', 'direct', 'bitmap'].map((k) => [Object.prototype, k, () => ({ set: thrower(`${k} setter`) })]),
  },
  { name: 'Object.prototype.__wbg_ptr is a wild pointer', patches: [[Object.prototype, '__wbg_ptr', () => ({ get: () => 8, set() {} })]] },
  { name: 'performance.now returns a BigInt', patches: [[globalThis.performance, 'now', () => ({ value: () => 1n })]] },
  { name: 'performance.now throws', patches: [[globalThis.performance, 'now', () => ({ value: thrower('now') })]] },
  { name: 'performance.now calls the package', patches: [[globalThis.performance, 'now', (hooks) => ({ value: () => (hooks.reenter(), 1) })]] },
  { name: 'crypto.getRandomValues returns another, longer array', patches: [[globalThis.crypto, 'getRandomValues', () => ({ value: () => new Liar(1 << 16) })]] },
  { name: 'crypto.getRandomValues fills nothing', patches: [[globalThis.crypto, 'getRandomValues', () => ({ value: (a) => a })]] },
  { name: 'WebAssembly.Table.prototype.get forges results', patches: [[WebAssembly.Table.prototype, 'get', () => ({ value: () => ({ ok: true, legs: [], bitmap: [], accepted: true }) })]] },
  { name: 'WebAssembly.Table.prototype.set throws', patches: [[WebAssembly.Table.prototype, 'set', () => ({ value: thrower('Table#set') })]] },
  { name: 'WebAssembly.Memory.prototype.buffer is another buffer', patches: [[WebAssembly.Memory.prototype, 'buffer', () => ({ get: () => new ArrayBuffer(1 << 16) })]] },
  { name: 'TextDecoder.prototype.decode and TextEncoder.prototype.encodeInto lie', patches: [[TextDecoder.prototype, 'decode', () => ({ value: () => 'pq-off' })], [TextEncoder.prototype, 'encodeInto', () => ({ value: () => ({ read: 0, written: 1 << 30 }) })], [TextEncoder.prototype, 'encode', () => ({ value: () => new Uint8Array(1 << 20) })]] },
  { name: 'String.prototype.charCodeAt and slice lie', patches: [[String.prototype, 'charCodeAt', () => ({ value: () => 0xe9 })], [String.prototype, 'slice', () => ({ value: () => 'x'.repeat(1 << 16) })]] },
  { name: 'FinalizationRegistry.prototype.register and unregister throw', patches: [[FinalizationRegistry.prototype, 'register', () => ({ value: thrower('register') })], [FinalizationRegistry.prototype, 'unregister', () => ({ value: thrower('unregister') })]] },
  { name: 'BigInt.asUintN and BigInt.asIntN throw', patches: [[BigInt, 'asUintN', () => ({ value: thrower('asUintN') })], [BigInt, 'asIntN', () => ({ value: thrower('asIntN') })]] },
  { name: 'Function.prototype.apply, call and bind throw', patches: ['apply', 'call', 'bind'].map((k) => [Function.prototype, k, () => ({ value: thrower(k) })]), caller: true },
  {
    name: 'DataView.prototype.setUint32 calls the package',
    patches: [[DataView.prototype, 'setUint32', (hooks, old) => ({ value(...args) { hooks.reenter(); return apply(old.value, this, args); } })]],
    caller: true,
  },
  { name: 'DataView.prototype.setUint32 and setUint16 throw', patches: [[DataView.prototype, 'setUint32', () => ({ value: thrower('setUint32') })], [DataView.prototype, 'setUint16', () => ({ value: thrower('setUint16') })]], caller: true },
]);

/**
 * Runs `fn` with tampering `t` installed and undoes it afterwards (each property put back
 * exactly as it was, or deleted), whatever `fn` does.
 */
export function withBuiltins(t, hooks, fn) {
  // Saved before anything is changed, and walked by index: the tampering may be the Array
  // methods or an index setter this function would otherwise use.
  const saved = t.patches.map(([obj, key]) => getOwnPropertyDescriptor(obj, key));
  let installed = 0;
  try {
    for (let i = 0; i < t.patches.length; i++) {
      const p = t.patches[i];
      const desc = p[2](hooks, saved[i]);
      defineProperty(p[0], p[1], 'value' in desc ? { configurable: true, writable: true, ...desc } : { configurable: true, ...desc });
      installed = i + 1;
    }
    return fn();
  } finally {
    for (let i = installed - 1; i >= 0; i--) {
      const p = t.patches[i];
      if (saved[i]) defineProperty(p[0], p[1], saved[i]);
      else delete p[0][p[1]];
    }
  }
}
