// The package's shared core, used by every family (js/mldsa.js, js/slhdsa.js, js/bls.js,
// js/magnetar.js, js/cert.js, the protocols) and both entry points: the one boundary every byte
// argument crosses, option checks, randomness, WASM loading. Not a public entry point.

/** Options each call accepts. Unknown keys throw, so a misspelt `ctx` cannot drop the context. */
export const VERIFY_OPTS = Object.freeze(['context']);
export const SIGN_OPTS = Object.freeze(['context', 'extraEntropy']);
export const INTERNAL_SIGN_OPTS = Object.freeze(['extraEntropy', 'externalMu']);
export const INTERNAL_VERIFY_OPTS = Object.freeze(['externalMu']);
export const INTERNAL_SLH_SIGN_OPTS = Object.freeze(['extraEntropy']);

const EMPTY = new Uint8Array(0);

/** The longest message the package signs or verifies (16 MiB; the protocols' own maximum). */
export const MAX_MESSAGE_BYTES = 1 << 24;
/** The longest ML-DSA context string (FIPS 204). */
export const MAX_CONTEXT_BYTES = 255;

// ---------------------------------------------------------------------------------------
// The one boundary every byte argument of the package crosses.
//
// The generated glue copies an argument into WASM memory by allocating `arg.length` bytes and
// then copying the array's true contents; an overridable `.length` is therefore a write out of
// bounds. Nothing here reads a property of the argument through its own prototype chain: the
// %TypedArray%.prototype getters (taken once, when this module loads) read the internal slots.
// Defended: subclasses and instances with overridden accessors, proxies (they have no typed-
// array slots), detached buffers, shared and resizable buffers (copied), huge claimed lengths
// (only the true length counts, and it is bounded).
//
// Built-ins changed after load are defended too: this module and the generated glue
// (rewritten by scripts/harden-glue.mjs) call only intrinsics they captured when they loaded —
// the copy into WebAssembly memory (internal-slot length, %TypedArray%.prototype.set), the
// copies out, the objects Rust builds (own data properties: no setter runs), strings, the
// externref table, the clock (`performance.now` as it was) and the randomness
// (`crypto.getRandomValues` as it was, on an array made here and checked). So a lying
// `%TypedArray%.prototype.length`, a replaced `Array.prototype.push`, `performance.now` or
// `crypto.getRandomValues`, or a setter on Object.prototype, never reaches WebAssembly memory
// nor runs inside a Rust call. What such a realm can still do is break the caller's own use of
// the package (a throwing `Array.prototype.forEach` makes a list argument throw; that is the
// caller's exception, passed through). Not defended: a realm whose built-ins were modified
// before this module loaded (the captured ones are then the modified ones), and the source
// of the module itself (`fetch`, a `Response`, the bytes given to `init()`).

const uncurry = (f) => Function.prototype.call.bind(f);
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const getOwnDescriptor = Object.getOwnPropertyDescriptor;
const getterOf = (o, k) => {
  const d = getOwnDescriptor(o, k);
  return d && typeof d.get === 'function' ? uncurry(d.get) : undefined;
};
const taLength = getterOf(TypedArrayPrototype, 'length');
const taBuffer = getterOf(TypedArrayPrototype, 'buffer');
const taTag = getterOf(TypedArrayPrototype, Symbol.toStringTag);
const taSet = uncurry(TypedArrayPrototype.set);
const abResizable = getterOf(ArrayBuffer.prototype, 'resizable');
const abDetached = getterOf(ArrayBuffer.prototype, 'detached');
const sabProto = typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer.prototype : null;
const sabGrowable = sabProto ? getterOf(sabProto, 'growable') : undefined;
const getPrototypeOf = Reflect.getPrototypeOf;
const setPrototypeOf = Reflect.setPrototypeOf;
const defineProperty = Reflect.defineProperty;
const ownKeys = Reflect.ownKeys;
const hasOwn = uncurry(Object.prototype.hasOwnProperty);
const objectTag = uncurry(Object.prototype.toString);
const stringSlice = uncurry(String.prototype.slice);
const stringify = JSON.stringify;
const isArray = Array.isArray;
const arrayFrom = Array.from;
const isView = ArrayBuffer.isView;
const freeze = Object.freeze;
const ObjectPrototype = Object.prototype;
const U8 = Uint8Array;
const U8Proto = Uint8Array.prototype;
const ACCESSORS = freeze(['length', 'byteLength', 'byteOffset', 'buffer']);
const isSharedBuffer = (b) => sabProto !== null && getPrototypeOf(b) === sabProto;
/** Whether `e` is a WebAssembly trap (OrdinaryHasInstance: a Symbol.hasInstance added later is not consulted). */
const hasInstance = uncurry(Function.prototype[Symbol.hasInstance]);
const WasmRuntimeError = WebAssembly.RuntimeError;
const isTrap = (e) => hasInstance(WasmRuntimeError, e);
const wasmValidate = WebAssembly.validate;

/**
 * The smallest module with a WebAssembly SIMD instruction (one function returning
 * `v128.const 0`). Every module of the package is built with simd128 (.cargo/config.toml); the
 * verify modules also ship a build without it, which `init` loads on an engine the probe fails
 * on. The others say so (`NO_WASM_SIMD`) instead of failing to compile.
 */
export const SIMD_PROBE = freeze([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type: () -> v128
  0x03, 0x02, 0x01, 0x00, // function 0 has type 0
  0x0a, 0x16, 0x01, 0x14, 0x00, 0xfd, 0x0c, ...new Array(16).fill(0), 0x0b, // v128.const 0; end
]);

/** Whether this engine runs WebAssembly SIMD. */
const hasSimd = () => wasmValidate(new U8(SIMD_PROBE));

/** QuasarError `NO_WASM_SIMD`: this module has no build without WebAssembly SIMD. */
function noSimd() {
  return quasarError(
    'NO_WASM_SIMD',
    'quasar-pq: this JavaScript engine has no WebAssembly SIMD (simd128), which this module uses: Chrome 91, Firefox 89, Safari 16.4 and Node 16.4 or later have it (quasar-pq/verify, /verify/mldsa and /verify/slhdsa also run without it)',
  );
}
const platformCrypto = typeof globalThis.crypto === 'object' && globalThis.crypto !== null ? globalThis.crypto : undefined;
const getRandomValues = platformCrypto !== undefined && typeof platformCrypto.getRandomValues === 'function' ? uncurry(platformCrypto.getRandomValues) : undefined;
const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const byteLengthGetter = getOwnPropertyDescriptor(TypedArrayPrototype, 'byteLength').get;
/**
 * Whether a Uint8Array's `byteLength` is still the built-in accessor. Node's getRandomValues
 * reads it through the prototype: a lie fills fewer bytes than asked (a weak seed) or more
 * (Node aborts the process), so randomness is refused rather than drawn in such a realm.
 */
const byteLengthIntact = () => getOwnPropertyDescriptor(TypedArrayPrototype, 'byteLength')?.get === byteLengthGetter && !hasOwn(U8Proto, 'byteLength');

/** Defines `key` on `o` as an own, enumerable data property: no accessor of a prototype runs. */
function put(o, key, value) {
  defineProperty(o, key, { __proto__: null, value, writable: true, enumerable: true, configurable: true });
}

/**
 * A `QuasarError` made on the JS side: the same shape as the ones the WASM module throws
 * (`name`, `code`, `module`, `culprits`), plus `argument` when an argument was at fault. A
 * check that mirrors a Rust one (a context over 255 bytes) uses that code and module. Its
 * fields are its own (defined, not assigned), so a setter or getter on Object.prototype
 * neither sees nor replaces them.
 */
export function quasarError(code, message, argument, module = 'js') {
  const e = new Error(message);
  put(e, 'name', 'QuasarError');
  put(e, 'code', code);
  put(e, 'module', module);
  put(e, 'culprits', []);
  if (argument !== undefined) put(e, 'argument', argument);
  return e;
}

/** How many characters of a caller's string an error message repeats at most. */
export const ECHO_CHARS = 64;

/**
 * A caller's value as an error message shows it, short whatever it is: a string quoted, cut
 * after ECHO_CHARS characters with an ellipsis and its length; a number, boolean or BigInt as
 * written (a long BigInt cut the same way); anything else by its kind. Never calls a method of
 * the value (no `toString` of the caller's runs).
 */
export function echo(v) {
  if (typeof v === 'string') return v.length <= ECHO_CHARS ? stringify(v) : `${stringify(stringSlice(v, 0, ECHO_CHARS))}… (${v.length} characters)`;
  if (typeof v === 'number' || typeof v === 'boolean') return `${v}`;
  if (typeof v === 'bigint') {
    const s = `${v}`;
    return s.length <= ECHO_CHARS ? `${s}n` : `${stringSlice(s, 0, ECHO_CHARS)}…n (${s.length} digits)`;
  }
  if (v === null || v === undefined) return `${v}`;
  return typeof v === 'object' ? (isArray(v) ? 'an array' : 'an object') : `a ${typeof v}`;
}

function describe(v) {
  if (v === null) return 'null';
  if (typeof v !== 'object') return typeof v;
  return taTag(v) ?? (isView(v) ? 'a view' : 'an object');
}

function detached(buffer, length) {
  if (abDetached !== undefined && !isSharedBuffer(buffer)) return abDetached(buffer);
  // Node 20 has no `detached` getter: a detached buffer is the only one no view can be made of.
  if (length !== 0 || isSharedBuffer(buffer)) return false;
  try {
    new U8(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

/** The true byte length of an array `bytes()` returned (read from its internal slot). */
export function byteLength(u8) {
  return taLength(u8);
}

/**
 * The boundary check of every byte argument: returns a `Uint8Array` that is safe to hand to
 * the WASM glue (the argument itself, or a fresh plain copy), or throws naming `name`:
 * - `TypeError` unless `value` is a genuine `Uint8Array` (a proxy, another typed array, an
 *   object whose prototype chain redefines `length`/`byteLength`/`byteOffset`/`buffer`);
 * - `QuasarError` `DETACHED_BUFFER` for a view of a detached (transferred) buffer;
 * - `RangeError` for a length other than `length`, or over `max`.
 * A subclass that leaves the accessors alone (Node's `Buffer`) and a view of a shared or
 * resizable buffer are copied into a fresh plain array of the true length.
 */
export function bytes(value, name, bounds) {
  const length = bounds !== undefined && hasOwn(bounds, 'length') ? bounds.length : undefined;
  const max = bounds !== undefined && hasOwn(bounds, 'max') ? bounds.max : undefined;
  const tag = value !== null && (typeof value === 'object' || typeof value === 'function') ? taTag(value) : undefined;
  if (tag !== 'Uint8Array') throw new TypeError(`${name} must be a Uint8Array, got ${describe(value)}`);
  let copy = false;
  let p = value;
  for (let hops = 0; p !== U8Proto; hops++) {
    if (p === null || hops > 8) throw new TypeError(`${name} must be a Uint8Array (its prototype chain does not reach Uint8Array.prototype)`);
    for (let i = 0; i < ACCESSORS.length; i++) {
      const k = ACCESSORS[i];
      if (hasOwn(p, k)) throw new TypeError(`${name} redefines "${k}": a Uint8Array with overridden accessors is refused`);
    }
    if (p !== value) copy = true; // a subclass: copy, whatever it does
    p = getPrototypeOf(p);
  }
  const buffer = taBuffer(value);
  const n = taLength(value);
  if (detached(buffer, n)) {
    throw quasarError('DETACHED_BUFFER', `${name} is a view of a detached ArrayBuffer (was it transferred to a worker?)`, name);
  }
  if (length !== undefined && n !== length) throw new RangeError(`${name} must be ${length} bytes, got ${n}`);
  if (max !== undefined && n > max) throw new RangeError(`${name} is ${n} bytes, at most ${max} are accepted`);
  if (isSharedBuffer(buffer) || (abResizable !== undefined && !isSharedBuffer(buffer) && abResizable(buffer))) copy = true;
  if (sabGrowable !== undefined && isSharedBuffer(buffer) && sabGrowable(buffer)) copy = true;
  if (!copy) return value;
  const out = new U8(n);
  taSet(out, value);
  return out;
}

/** Secret bytes: as `bytes()`, always a fresh copy (so the caller's array can be wiped apart). */
export function secretBytes(value, name, opts) {
  const v = bytes(value, name, opts);
  const out = new U8(taLength(v));
  taSet(out, v);
  return out;
}

/**
 * Return `value` if it is a Uint8Array (of `length` bytes, when given), checked by
 * `bytes()`. Kept for the ML-DSA surface: TypeError, RangeError as noble's `abytes`.
 */
export function abytes(value, length, title) {
  return bytes(value, title, { length, max: length === undefined ? MAX_MESSAGE_BYTES : undefined });
}

// ---------------------------------------------------------------------------------------
// Reading what the caller passed, in a realm that may be polluted.
//
// Code beside the package may add properties to Object.prototype or Array.prototype, or replace
// built-ins (Object.entries, Array.prototype.includes, …), after this module loaded. Options
// bags, the bags nested in them (a quorum), list entries (`{ id, signature }`, `{ from, bytes }`)
// and lists are therefore read only through the intrinsics taken above, and only from the
// caller's OWN data properties: an inherited key is never seen (an inherited `quorum`, `seed`,
// `context` or `extraEntropy` is no option), a getter or setter is refused without being run,
// and a list's length is read once. What they return has no prototype: a key it lacks reads
// `undefined`, whatever the realm holds.

/** Whether `list` (one of the package's own arrays) holds `v`. */
export function member(list, v) {
  for (let i = 0; i < list.length; i++) if (list[i] === v) return true;
  return false;
}

/** The names of `list` (one of the package's own arrays), comma-separated, for a message. */
export function oneOf(list) {
  let s = '';
  for (let i = 0; i < list.length; i++) s += i === 0 ? list[i] : `, ${list[i]}`;
  return s;
}

/** Whether the package's own name table `table` (a null-prototype object) names `name`. */
export function named(table, name) {
  return typeof name === 'string' && hasOwn(table, name);
}

/**
 * The prototype chain of a bag: a plain object (prototype Object.prototype or null) passes; a
 * built-in's kind (a Map, a Date) is a TypeError; so is a key of `keys` that the bag would
 * inherit from a prototype of its own (a class getter), as it would be ignored. What
 * Object.prototype itself holds is never read.
 */
function checkChain(o, keys, title) {
  let p = getPrototypeOf(o);
  if (p === null || p === ObjectPrototype) return;
  // An instance of a class, or a plain object of another realm.
  const tag = objectTag(o);
  if (tag !== '[object Object]') throw new TypeError(`${title} must be a plain object, got ${echo(tag)}`);
  for (let hops = 0; p !== null && p !== ObjectPrototype; hops++) {
    if (hops >= 16) throw new TypeError(`${title} has a prototype chain of over 16 objects`);
    for (let i = 0; i < keys.length; i++) {
      if (hasOwn(p, keys[i])) throw new TypeError(`${title}.${keys[i]} is inherited from a prototype, so it would be ignored; pass it as an own property`);
    }
    p = getPrototypeOf(p);
  }
}

function checkBag(o, title) {
  if (o === null || typeof o !== 'object' || isArray(o) || isView(o)) {
    throw new TypeError(`${title} must be an object, got ${o === null ? 'null' : isArray(o) ? 'an array' : isView(o) ? 'a view' : typeof o}`);
  }
}

/**
 * Validate an options bag (`title` names it: `options`, `opts.quorum`): undefined, or an object
 * whose own enumerable keys are all in `allowed`. Returns a null-prototype object of its own
 * data properties that are not undefined. An option the bag has but would not be read — in a
 * Map, inherited from a prototype of its own, a getter or setter, not enumerable — is a
 * TypeError, as an unknown key is: a context must not go missing. Keys on Object.prototype are
 * not the caller's options and are never read.
 */
export function checkOpts(opts, allowed, title = 'options') {
  const out = { __proto__: null };
  if (opts === undefined) return out;
  checkBag(opts, title);
  checkChain(opts, allowed, title);
  const keys = ownKeys(opts);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (typeof k !== 'string') continue;
    const d = getOwnDescriptor(opts, k);
    if (d === undefined) continue;
    const known = member(allowed, k);
    if (!d.enumerable) {
      if (known) throw new TypeError(`${title}.${k} is not enumerable, so it would be ignored; pass it as a plain property`);
      continue;
    }
    if (!hasOwn(d, 'value')) throw new TypeError(`${title}: ${echo(k)} is a getter or setter; options are read only as plain data properties`);
    if (d.value === undefined) continue;
    if (!known) throw new TypeError(`unexpected option ${echo(k)}; expected one of: ${oneOf(allowed)}`);
    out[k] = d.value;
  }
  return out;
}

/**
 * The fields `keys` of a nested bag `v` (a list entry such as `{ id, signature }`): a
 * null-prototype object of its own data properties under those names (a missing one is
 * absent). Other keys are ignored. A getter or setter under one of `keys`, one inherited from a
 * prototype of its own, or a `v` that is no object is a TypeError naming `title`.
 */
export function fieldsOf(v, keys, title) {
  checkBag(v, title);
  checkChain(v, keys, title);
  const out = { __proto__: null };
  for (let i = 0; i < keys.length; i++) {
    const d = getOwnDescriptor(v, keys[i]);
    if (d === undefined) continue;
    if (!hasOwn(d, 'value')) throw new TypeError(`${title}.${keys[i]} is a getter or setter; it is read only as a plain data property`);
    out[keys[i]] = d.value;
  }
  return out;
}

/**
 * The caller's list `v`, copied: an array (a Proxy of one passes `Array.isArray` too, so its
 * `length` is read exactly once), of at most `max` elements (else a RangeError naming `title`),
 * each its own data property read once, into a fresh null-prototype array (index it; it has no
 * methods). A hole, a getter or a setter is a TypeError: an element is never inherited from
 * Array.prototype nor computed by the caller's code during the call.
 */
export function listOf(v, title, max) {
  if (!isArray(v)) throw new TypeError(`${title} must be an array`);
  const n = v.length;
  if (typeof n !== 'number' || !(n >= 0) || n % 1 !== 0) throw new TypeError(`${title} has no valid length`);
  if (n > max) throw new RangeError(`${title} has ${n} entries, at most ${max} are accepted`);
  const out = freshList();
  for (let i = 0; i < n; i++) {
    const d = getOwnDescriptor(v, i);
    if (d === undefined) throw new TypeError(`${title}[${i}] is missing (a sparse array)`);
    if (!hasOwn(d, 'value')) throw new TypeError(`${title}[${i}] is a getter or setter; list elements are read only as plain data properties`);
    out[i] = d.value;
  }
  return out;
}

/** A fresh empty array without a prototype: writing or reading it never reaches Array.prototype. */
export function freshList() {
  const out = [];
  setPrototypeOf(out, null);
  return out;
}

/** Copies the checked array `src` into `dst` at byte `at` (through the intrinsic, not `dst.set`). */
export function copyInto(dst, src, at) {
  taSet(dst, src, at);
}

/**
 * A genuine array for the caller, `[fn(0), …, fn(n - 1)]`, its elements defined (not assigned),
 * so an index setter on Array.prototype sees none of them.
 */
export function arrayOf(n, fn) {
  return arrayFrom({ __proto__: null, length: n }, (_, i) => fn(i));
}

/** A genuine array of booleans (`bits[i] === 1`) for the caller (see `arrayOf`). */
export function booleans(bits) {
  return arrayOf(taLength(bits), (i) => bits[i] === 1);
}

/** The context option: absent means empty. `module` names the scheme in the error. */
export function contextOf(opts, module = 'mldsa') {
  if (opts.context === undefined) return EMPTY;
  const c = bytes(opts.context, 'opts.context', { max: MAX_MESSAGE_BYTES });
  if (taLength(c) > MAX_CONTEXT_BYTES) {
    throw quasarError('CONTEXT_TOO_LONG', `opts.context is ${taLength(c)} bytes; a context is at most ${MAX_CONTEXT_BYTES}`, 'opts.context', module);
  }
  return c;
}

/** A boolean option (false when absent). */
export function boolOpt(opts, key) {
  const v = opts[key];
  if (v === undefined) return false;
  if (typeof v !== 'boolean') throw new TypeError(`opts.${key} must be a boolean, got ${typeof v}`);
  return v;
}

/**
 * `n` bytes (at most 65,536) from the platform CSPRNG (Web Crypto, in browsers and Node ≥ 20):
 * `crypto.getRandomValues` as it was when this module loaded, called on an array made here,
 * which is what is returned (whatever the call returns). Refused with QuasarError
 * `RNG_FAILURE`: a realm whose `%TypedArray%.prototype.byteLength` was replaced (Node's
 * generator reads it), a generator that hands back another array or leaves 16 or more bytes
 * all zero.
 */
export function randomBytes(n) {
  if (getRandomValues === undefined) {
    throw new Error('crypto.getRandomValues is not available; pass a seed / extraEntropy explicitly');
  }
  if (!byteLengthIntact()) {
    throw quasarError('RNG_FAILURE', 'refusing to draw randomness: %TypedArray%.prototype.byteLength was replaced, and the platform generator reads it (it would fill fewer bytes than asked)');
  }
  const out = new U8(n);
  const r = getRandomValues(platformCrypto, out);
  let any = 0;
  for (let i = 0; i < n; i++) any |= out[i];
  if (r !== out || (n >= 16 && any === 0)) {
    throw quasarError('RNG_FAILURE', 'crypto.getRandomValues did not fill the array it was given');
  }
  return out;
}

/**
 * The signing randomness for `extraEntropy`: `false` → deterministic (undefined, meaning
 * rnd = 0³² for ML-DSA, opt_rand = PK.seed for SLH-DSA), `undefined` → `n` fresh random
 * bytes, a Uint8Array → those `n` bytes. `deterministicAsZeros` returns an explicit all-zero
 * array instead of undefined.
 */
export function signRandomness(extraEntropy, deterministicAsZeros = false, n = 32) {
  if (extraEntropy === false) return deterministicAsZeros ? new Uint8Array(n) : undefined;
  if (extraEntropy === undefined) return randomBytes(n);
  if (extraEntropy === true) throw new TypeError(`opts.extraEntropy must be a Uint8Array(${n}) or false, got true`);
  return secretBytes(extraEntropy, 'opts.extraEntropy', { length: n });
}

/**
 * Make an `init()` for a wasm-bindgen `--target web` module.
 * `glue` is the generated module namespace (default export = async init, `initSync`);
 * `wasmUrl` is the URL of its .wasm, and `baselineUrl` (optional) that of its build without
 * WebAssembly SIMD, which `init()` loads instead on an engine without SIMD (SIMD_PROBE); with
 * no `baselineUrl` such an engine gets QuasarError `NO_WASM_SIMD`. In Node (file: URLs) the
 * bytes are read with fs, in browsers they are fetched (streaming compile). `init(input)`
 * passes any explicit input (URL, Response, BufferSource, WebAssembly.Module) through
 * unchanged, and `initSync(bytes)` instantiates the bytes it is given (the caller picks the
 * build).
 *
 * One instance per realm: the first `init()` or `initSync()` makes it; a later `init()`
 * returns the same promise, a later `initSync()` returns; an `initSync()` while an `init()` is
 * still loading throws QuasarError `INIT_IN_PROGRESS` (await the `init()`): nothing is ever
 * instantiated twice, which would leave every live object pointing into the wrong memory.
 *
 * `call(fn)` runs one call into the instance: it throws until `init()` has run; a call made
 * while another runs (from a hook inside it: a getter, a replaced built-in) throws QuasarError
 * `REENTRANT_CALL` and leaves the running call alone; if the instance ever traps (a
 * `WebAssembly.RuntimeError`: its memory can no longer be trusted) it marks the instance dead,
 * and this and every later call throw `QuasarError` `INSTANCE_POISONED`.
 *
 * `release(w)` frees the generated object `w` (a wrapper's `free()`, which forgets `w` first):
 * at once, or, when a call is running — a hook freed an object, maybe the one the call works
 * on — as soon as that call returns. The wrapper answers `USE_AFTER_FREE` from then on.
 */
export function makeInit(glue, wasmUrl, baselineUrl) {
  let ready = null;
  const state = { ok: false, exports: null, poisoned: null };
  /** A call is running; objects freed meanwhile (a list of `{ w, next }`, no Array built-ins). */
  let busy = false;
  let deferred = null;
  async function init(input) {
    if (ready) return ready;
    const simd = hasSimd();
    if (!simd && baselineUrl === undefined) throw noSimd();
    ready = (async () => {
      let source = input;
      if (source === undefined) {
        const url = new URL(simd ? wasmUrl : baselineUrl);
        if (url.protocol === 'file:') {
          const { readFile } = await import('node:fs/promises');
          source = await readFile(url);
        } else {
          source = url;
        }
      }
      state.exports = await glue.default({ module_or_path: source });
      state.ok = true;
    })();
    try {
      await ready;
    } catch (e) {
      ready = null;
      throw e;
    }
    return ready;
  }
  function initSync(moduleOrBytes) {
    if (state.ok) return;
    if (ready) {
      throw quasarError('INIT_IN_PROGRESS', 'quasar-pq: init() is still loading the module; await it instead of calling initSync()');
    }
    if (baselineUrl === undefined && !hasSimd()) throw noSimd();
    state.exports = glue.initSync({ module: moduleOrBytes });
    state.ok = true;
    ready = Promise.resolve();
  }
  function poisonedError(cause) {
    const e = quasarError(
      'INSTANCE_POISONED',
      'quasar-pq: the WebAssembly instance trapped earlier and was marked dead; reload the module (a new realm or worker)',
    );
    if (cause) e.cause = cause;
    return e;
  }
  function assertReady() {
    if (state.poisoned) throw poisonedError(state.poisoned);
    if (!state.ok) throw new Error('quasar-pq: call `await init()` before using the library');
  }
  /** Frees what was released during the call that just ended (each at most once). */
  function flush() {
    while (deferred !== null) {
      const { w, next } = deferred;
      deferred = next;
      if (state.poisoned) continue;
      try {
        w.free();
      } catch {
        // Nothing holds it any more; a failure here must not replace the call's own outcome.
      }
    }
  }
  function call(fn) {
    assertReady();
    if (busy) {
      throw quasarError('REENTRANT_CALL', 'quasar-pq: called while another call into the same WebAssembly instance is running (from a hook inside it); the running call is unaffected');
    }
    busy = true;
    try {
      return fn();
    } catch (e) {
      if (isTrap(e)) {
        state.poisoned = e;
        throw poisonedError(e);
      }
      throw e;
    } finally {
      busy = false;
      flush();
    }
  }
  function release(w) {
    if (w === null || w === undefined || state.poisoned) return;
    if (busy) {
      deferred = { __proto__: null, w, next: deferred };
      return;
    }
    w.free();
  }
  /** The instance's memory size in bytes (tests check that bad input does not grow it). */
  function memoryBytes() {
    return state.exports?.memory?.buffer.byteLength ?? 0;
  }
  return { init, initSync, assertReady, call, release, memoryBytes, get poisoned() { return state.poisoned !== null; } };
}
