// Rewrites the JS glue wasm-bindgen generates (pkg/<build>/quasar_pq.js) so that it calls only
// built-ins it captured when it loaded (hostile built-ins after load). Called by
// scripts/build-wasm.mjs on each build's output; the glue is generated, never committed, so
// this transform is what the repository holds.
//
// Why: the generated glue copies an argument into WebAssembly memory with
// `malloc(arg.length)` then `getUint8ArrayMemory0().set(arg, ptr)` (which copies the array's true
// contents), builds result objects with `arg0.push(arg1)` and `Reflect.set(...)` from Rust,
// reads the externref table with `table.get(idx)` and times with `performance.now()`: all of
// them looked up at the moment of the call. A caller who redefines `%TypedArray%.prototype.length`
// after the package loaded writes past an allocation; a throwing `Array.prototype.push` or a
// `performance.now` returning a BigInt throws through Rust frames (no destructor runs: memory
// leaks, a RefCell borrow stays set); a setter on Object.prototype runs inside a Rust call.
//
// What: the rewritten glue opens with `__q`, a frozen object of the intrinsics it needs, taken
// once when the module loads (uncurried methods, accessor getters, constructors, the clock);
// everything the generated code did through a built-in now goes through `__q`:
//   - arguments are copied with the internal-slot length and %TypedArray%.prototype.set into a
//     fresh view of exactly that length (never a cached view: memory can grow);
//   - results are copied out with a constructor and `set`, never `slice`/`subarray` (which
//     read `constructor` and Symbol.species);
//   - Rust's `Array::push` and `Reflect::set` on the fresh objects it builds define own data
//     properties (as an object literal does: no setter, inherited or not, ever runs), and so
//     does an object's `__wbg_ptr` when the glue makes it;
//   - strings, the externref table, FinalizationRegistry, BigInt conversions, the WebAssembly
//     loading functions and `performance.now` (a number or `undefined`, never an exception)
//     are all the load-time ones.
//
// How it stays honest: wasm-bindgen-cli is pinned (`=0.2.130`, Cargo.lock and scripts/setup.mjs).
// Every runtime piece of the generated file is recognised by its first line and the SHA-256 of
// its text and replaced by this file's version of it; every import Rust makes is matched
// against the bodies this file knows; the generated bindings (classes and exported functions)
// are rewritten with a few patterns and then audited line by line: no global built-in, no
// member access but the exports object, `__q`, the glue's own objects. Anything this file does
// not know fails the build, naming it: after a wasm-bindgen upgrade, or when Rust starts calling
// a new JavaScript function, extend the tables below (and keep every new call going through
// `__q`).
//
// Usage: import { hardenGlue } from './harden-glue.mjs'; hardenGlue(text) → text (throws on an
// unknown shape). `node scripts/harden-glue.mjs pkg/full/quasar_pq.js` rewrites a file in place.

import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** The wasm-bindgen-cli whose output this transform knows. */
export const GLUE_VERSION = '0.2.130';

/** The marker the rewritten file carries (the build checks it; a second run refuses). */
export const HARDENED_MARK = '// quasar-pq: hardened glue (scripts/harden-glue.mjs)';

const HEADER = '/* @ts-self-types="./quasar_pq.d.ts" */';

const sha = (s) => createHash('sha256').update(s).digest('hex').slice(0, 16);

/**
 * Runtime pieces of the 0.2.130 glue (after the imports function), by first line: the SHA-256
 * prefix of each piece's exact text. All are replaced by RUNTIME below; a piece not listed, or
 * listed with another text, fails the build. (The FinalizationRegistry constants and
 * `__wbg_finalize_init`, which vary with the classes, are matched by pattern instead.)
 */
const KNOWN_RUNTIME = {
  'function addToExternrefTable0(obj) {': '01570b349682cd22',
  'function _assertClass(instance, klass) {': 'fd852daf04f47e59',
  'function getArrayU32FromWasm0(ptr, len) {': '482fcc21cd522684',
  'function getArrayU8FromWasm0(ptr, len) {': 'bb47a84f9b4ca915',
  'let cachedBigUint64ArrayMemory0 = null;': 'e9cfbedb8f8b6239',
  'function getBigUint64ArrayMemory0() {': '849508fc67d816b4',
  'let cachedDataViewMemory0 = null;': '023b53e0c44cdff1',
  'function getDataViewMemory0() {': '4777d9b12333510b',
  'function getStringFromWasm0(ptr, len) {': '0c079eb348da5a91',
  'let cachedUint16ArrayMemory0 = null;': '167c9c331a7571db',
  'function getUint16ArrayMemory0() {': '25bbe2be22caab34',
  'let cachedUint32ArrayMemory0 = null;': 'd252f0d34b178665',
  'function getUint32ArrayMemory0() {': 'd26fd3469c87840f',
  'let cachedUint8ArrayMemory0 = null;': 'dbc859718f9d18cb',
  'function getUint8ArrayMemory0() {': '8c8840a651035288',
  'function handleError(f, args) {': 'f0ef19098374cf57',
  'function isLikeNone(x) {': 'c12b63e969e0db3d',
  'function passArray16ToWasm0(arg, malloc) {': 'ce5ea96d29beac92',
  'function passArray64ToWasm0(arg, malloc) {': 'fa91fb72537db5cf',
  'function passArray8ToWasm0(arg, malloc) {': 'e413fcc4aa23e76c',
  'function passStringToWasm0(arg, malloc, realloc) {': '03e72bfc8af08dea',
  'function takeFromExternrefTable0(idx) {': 'ed7867f537db659b',
  "let cachedTextDecoder = new TextDecoder('utf-8', { ignoreBOM: true });": '3e7d89a4935cf3e3',
  'cachedTextDecoder.decode();': '9d7ba3d31c5b401c',
  'const MAX_SAFARI_DECODE_BYTES = 2146435072;': '9d0208b6905db594',
  'let numBytesDecoded = 0;': '2d42a5f2b2edd2c8',
  'function decodeText(bytes) {': 'bfa2e8210b77121b',
  'const cachedTextEncoder = new TextEncoder();': '5d2815c9a6e1928d',
  "if (!('encodeInto' in cachedTextEncoder)) {": '9b996eeb72fc9d8c',
  'let WASM_VECTOR_LEN = 0;': 'c315ecd966cd627a',
  'let wasmModule, wasmInstance, wasm;': '4cf0302a5ab98da3',
  'async function __wbg_load(module, imports) {': 'a5fc0b793100f8d3',
  'function initSync(module) {': '04eeebe8799d6bc0',
  'let __wbg_init_promise;': 'e4569abd1138fb7f',
  'async function __wbg_init(module_or_path) {': 'd296e5749fd99420',
  'async function __wbg_init_once(module_or_path) {': '403eacd85e5627d9',
  'export { initSync, __wbg_init as default };': '1e2486c5f9601d1f',
};

const FINALIZATION = /^const (\w+)Finalization = \(typeof FinalizationRegistry === 'undefined'\)\n {4}\? \{ register: \(\) => \{\}, unregister: \(\) => \{\} \}\n {4}: new FinalizationRegistry\(ptr => wasm\.__wbg_\w+_free\(ptr, 1\)\);$/;
const FINALIZE_INIT = /^function __wbg_finalize_init\(instance, module\) \{\n {4}wasmInstance = instance;\n {4}wasm = instance\.exports;\n {4}wasmModule = module;\n(?: {4}cached\w+Memory0 = null;\n)* {4}wasm\.__wbindgen_start\(\);\n {4}return wasm;\n\}$/;

/**
 * The bodies of the imports Rust makes (inside `__wbg_get_imports`), each with what replaces it.
 * Keyed by the entry's text with its name replaced by NAME.
 */
const IMPORTS = new Map([
  // wasm_bindgen::throw_str (an ownership error, a null pointer: thrown before Rust borrows anything).
  [
    ['NAME: function(arg0, arg1) {', '    throw new Error(getStringFromWasm0(arg0, arg1));', '},'],
    ['NAME: function(arg0, arg1) {', '    throw new __q.Error(getStringFromWasm0(arg0, arg1));', '},'],
  ],
  // JsValue::as_f64 (the clock's value, checked in Rust): a number or nothing, written to Rust's slot.
  [
    [
      'NAME: function(arg0, arg1) {',
      '    const obj = arg1;',
      "    const ret = typeof(obj) === 'number' ? obj : undefined;",
      '    getDataViewMemory0().setFloat64((arg0 >>> 0) + 8 * 1, isLikeNone(ret) ? 0 : ret, true);',
      '    getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, !isLikeNone(ret), true);',
      '},',
    ],
    [
      'NAME: function(arg0, arg1) {',
      '    const obj = arg1;',
      "    const ret = typeof(obj) === 'number' ? obj : undefined;",
      '    const view = dataViewOfWasm0();',
      '    __q.setFloat64(view, (arg0 >>> 0) + 8 * 1, isLikeNone(ret) ? 0 : ret, true);',
      '    __q.setInt32(view, (arg0 >>> 0) + 4 * 0, !isLikeNone(ret), true);',
      '},',
    ],
  ],
  // js_sys::Array::new
  [
    ['NAME: function() {', '    const ret = new Array();', '    return ret;', '},'],
    ['NAME: function() {', '    const ret = [];', '    return ret;', '},'],
  ],
  // js_sys::Error::new
  [
    ['NAME: function(arg0, arg1) {', '    const ret = new Error(getStringFromWasm0(arg0, arg1));', '    return ret;', '},'],
    ['NAME: function(arg0, arg1) {', '    const ret = new __q.Error(getStringFromWasm0(arg0, arg1));', '    return ret;', '},'],
  ],
  // js_sys::RangeError::new
  [
    ['NAME: function(arg0, arg1) {', '    const ret = new RangeError(getStringFromWasm0(arg0, arg1));', '    return ret;', '},'],
    ['NAME: function(arg0, arg1) {', '    const ret = new __q.RangeError(getStringFromWasm0(arg0, arg1));', '    return ret;', '},'],
  ],
  // js_sys::Object::new
  [
    ['NAME: function() {', '    const ret = new Object();', '    return ret;', '},'],
    ['NAME: function() {', '    const ret = {};', '    return ret;', '},'],
  ],
  // js_sys::Object::create (a prototype Rust passes, or null).
  [
    ['NAME: function(arg0) {', '    const ret = Object.create(arg0);', '    return ret;', '},'],
    ['NAME: function(arg0) {', '    const ret = __q.create(arg0);', '    return ret;', '},'],
  ],
  // js_sys::Uint8Array::from(&[u8])
  [
    ['NAME: function(arg0, arg1) {', '    const ret = new Uint8Array(getArrayU8FromWasm0(arg0, arg1));', '    return ret;', '},'],
    ['NAME: function(arg0, arg1) {', '    const ret = copyArrayU8FromWasm0(arg0, arg1);', '    return ret;', '},'],
  ],
  // crate::wasm::cert's clock: the one captured at load (a number or undefined, never a throw).
  [
    ['NAME: function() { return handleError(function () {', '    const ret = performance.now();', '    return ret;', '}, arguments); },'],
    ['NAME: function() { return handleError(function () {', '    const ret = __q.now();', '    return ret;', '}, arguments); },'],
  ],
  // js_sys::Array::push on an array Rust made: an own data property, no setter runs.
  [
    ['NAME: function(arg0, arg1) {', '    const ret = arg0.push(arg1);', '    return ret;', '},'],
    ['NAME: function(arg0, arg1) {', '    const ret = __q.push(arg0, arg1);', '    return ret;', '},'],
  ],
  // js_sys::Reflect::set on an object Rust made: an own data property, no setter runs.
  [
    ['NAME: function() { return handleError(function (arg0, arg1, arg2) {', '    const ret = Reflect.set(arg0, arg1, arg2);', '    return ret;', '}, arguments); },'],
    ['NAME: function() { return handleError(function (arg0, arg1, arg2) {', '    const ret = __q.defineField(arg0, arg1, arg2);', '    return ret;', '}, arguments); },'],
  ],
  // js_sys::Error::set_name
  [
    ['NAME: function(arg0, arg1, arg2) {', '    arg0.name = getStringFromWasm0(arg1, arg2);', '},'],
    ['NAME: function(arg0, arg1, arg2) {', "    __q.defineField(arg0, 'name', getStringFromWasm0(arg1, arg2));", '},'],
  ],
  // Cast intrinsics.
  [
    ['NAME: function(arg0) {', '    // Cast intrinsic for `F64 -> Externref`.', '    const ret = arg0;', '    return ret;', '},'],
    ['NAME: function(arg0) {', '    // Cast intrinsic for `F64 -> Externref`.', '    const ret = arg0;', '    return ret;', '},'],
  ],
  [
    ['NAME: function(arg0, arg1) {', '    // Cast intrinsic for `Ref(String) -> Externref`.', '    const ret = getStringFromWasm0(arg0, arg1);', '    return ret;', '},'],
    ['NAME: function(arg0, arg1) {', '    // Cast intrinsic for `Ref(String) -> Externref`.', '    const ret = getStringFromWasm0(arg0, arg1);', '    return ret;', '},'],
  ],
  [
    ['NAME: function(arg0) {', '    // Cast intrinsic for `U64 -> Externref`.', '    const ret = BigInt.asUintN(64, arg0);', '    return ret;', '},'],
    ['NAME: function(arg0) {', '    // Cast intrinsic for `U64 -> Externref`.', '    const ret = __q.asUintN(64, arg0);', '    return ret;', '},'],
  ],
  // The externref table's first slots (run once by __wbindgen_start).
  [
    ['NAME: function() {', '    const table = wasm.__wbindgen_externrefs;', '    table.set(0, undefined);', '    table.set(1024, undefined);', '    table.set(1025, null);', '    table.set(1026, true);', '    table.set(1027, false);', '},'],
    ['NAME: function() {', '    const table = wasm.__wbindgen_externrefs;', '    __q.tableSet(table, 0, undefined);', '    __q.tableSet(table, 1024, undefined);', '    __q.tableSet(table, 1025, null);', '    __q.tableSet(table, 1026, true);', '    __q.tableSet(table, 1027, false);', '},'],
  ],
].map(([from, to]) => [from.map((l) => `        ${l}`).join('\n'), to.map((l) => `        ${l}`).join('\n')]));

/** A Rust object returned to JS by an import (`Class::__wrap`): the glue's own static. */
const WRAP_IMPORT = /^ {8}NAME: function\(arg0\) \{\n {12}const ret = (\w+)\.__wrap\(arg0\);\n {12}return ret;\n {8}\},$/;

/**
 * The prologue: every built-in the rewritten glue calls, taken once, when the module loads.
 * Nothing of it is reachable from outside the module; every member is a function or value
 * fixed here (the object is frozen and has no prototype).
 */
const PROLOGUE = `${HARDENED_MARK}, from wasm-bindgen ${GLUE_VERSION}'s output.
// Every built-in this glue calls is taken here, once, when the module loads: a realm whose
// built-ins change later cannot reach WebAssembly memory or run code inside a Rust call. Do not
// edit: rebuild (node scripts/build-wasm.mjs).
const __q = (() => {
    const uncurry = (f) => Function.prototype.call.bind(f);
    const getter = (o, k) => uncurry(Object.getOwnPropertyDescriptor(o, k).get);
    const TypedArray = Object.getPrototypeOf(Uint8Array.prototype);
    const defineProperty = Reflect.defineProperty;
    const field = (value) => ({ __proto__: null, value, writable: true, enumerable: true, configurable: true });
    const length = getter(TypedArray, 'length');
    const set = uncurry(TypedArray.set);
    const encoder = new TextEncoder();
    const encode = uncurry(TextEncoder.prototype.encode);
    const encodeInto = typeof TextEncoder.prototype.encodeInto === 'function' ? uncurry(TextEncoder.prototype.encodeInto) : undefined;
    const perf = typeof performance === 'object' && performance !== null ? performance : undefined;
    const perfNow = perf !== undefined && typeof perf.now === 'function' ? uncurry(perf.now) : undefined;
    const registry = typeof FinalizationRegistry === 'function' ? FinalizationRegistry.prototype : undefined;
    const con = typeof console === 'object' && console !== null ? console : undefined;
    const warn = con !== undefined && typeof con.warn === 'function' ? uncurry(con.warn) : undefined;
    const fetchAtLoad = typeof fetch === 'function' ? fetch : undefined;
    return Object.freeze({
        __proto__: null,
        Uint8Array, Uint16Array, Uint32Array, Int32Array, BigUint64Array, BigInt64Array, Float32Array, Float64Array,
        Error, RangeError, TypeError, TextDecoder, DataView,
        setFloat64: uncurry(DataView.prototype.setFloat64),
        setInt32: uncurry(DataView.prototype.setInt32),
        /** The length of a typed array, from its internal slot (a TypeError for anything else). */
        length,
        /** %TypedArray%.prototype.set(target, source[, offset]). */
        set,
        /** The current ArrayBuffer of a WebAssembly.Memory. */
        buffer: getter(WebAssembly.Memory.prototype, 'buffer'),
        tableGet: uncurry(WebAssembly.Table.prototype.get),
        tableSet: uncurry(WebAssembly.Table.prototype.set),
        apply: Reflect.apply,
        create: Object.create,
        getPrototypeOf: Object.getPrototypeOf,
        ObjectPrototype: Object.prototype,
        asUintN: BigInt.asUintN,
        asIntN: BigInt.asIntN,
        charCodeAt: uncurry(String.prototype.charCodeAt),
        sliceString: uncurry(String.prototype.slice),
        decode: uncurry(TextDecoder.prototype.decode),
        encode: (s) => encode(encoder, s),
        /** TextEncoder#encodeInto(s, view): the bytes written. */
        encodeInto: (s, view) => {
            if (encodeInto !== undefined) return encodeInto(encoder, s, view).written;
            const bytes = encode(encoder, s);
            set(view, bytes);
            return length(bytes);
        },
        /** An own data property, as an object literal makes it: no setter, own or inherited, runs. */
        defineField: (o, k, v) => defineProperty(o, k, field(v)),
        /** Array#push on an array the glue made, without [[Set]] (an index setter never runs). */
        push: (a, v) => {
            const n = a.length;
            defineProperty(a, n, field(v));
            return n + 1;
        },
        /** The glue object's pointer, as an own property (a setter on Object.prototype never sees it). */
        ownPtr: (o, ptr) => {
            defineProperty(o, '__wbg_ptr', field(ptr));
        },
        register: registry !== undefined ? uncurry(registry.register) : () => {},
        unregister: registry !== undefined ? uncurry(registry.unregister) : () => {},
        /** performance.now() as it was at load: a number, or undefined (no clock, a throw, not a number). */
        now: () => {
            if (perfNow === undefined) return undefined;
            try {
                const t = perfNow(perf);
                return typeof t === 'number' ? t : undefined;
            } catch {
                return undefined;
            }
        },
        Module: WebAssembly.Module,
        Instance: WebAssembly.Instance,
        exports: getter(WebAssembly.Instance.prototype, 'exports'),
        instantiate: WebAssembly.instantiate,
        instantiateStreaming: typeof WebAssembly.instantiateStreaming === 'function' ? WebAssembly.instantiateStreaming : undefined,
        Response: typeof Response === 'function' ? Response : undefined,
        Request: typeof Request === 'function' ? Request : undefined,
        URL: typeof URL === 'function' ? URL : undefined,
        fetch: fetchAtLoad === undefined ? undefined : (input) => fetchAtLoad(input),
        warn: (message) => {
            if (warn !== undefined) warn(con, message);
        },
    });
})();
`;

/**
 * The glue's runtime, in the generated file's words where it can be, every built-in through
 * `__q`. Views of WebAssembly memory are made per use (a cached view goes stale when memory
 * grows, and a view's own `subarray`/`slice` consult Symbol.species).
 */
const RUNTIME = `
function addToExternrefTable0(obj) {
    const idx = wasm.__externref_table_alloc();
    __q.tableSet(wasm.__wbindgen_externrefs, idx, obj);
    return idx;
}

function _assertClass(instance, klass) {
    if (!(instance instanceof klass)) {
        throw new __q.Error('expected instance of ' + klass.name);
    }
}

/** A view of \`len\` elements of \`Ctor\` at byte \`ptr\` of WebAssembly memory. */
function viewOfWasm0(Ctor, ptr, len) {
    return new Ctor(__q.buffer(wasm.memory), ptr >>> 0, len >>> 0);
}

/** A fresh copy of \`len\` elements of \`Ctor\` at byte \`ptr\` of WebAssembly memory. */
function copyFromWasm0(Ctor, ptr, len) {
    const out = new Ctor(len >>> 0);
    __q.set(out, viewOfWasm0(Ctor, ptr, len));
    return out;
}

function copyArrayU8FromWasm0(ptr, len) {
    return copyFromWasm0(__q.Uint8Array, ptr, len);
}

function copyArrayU16FromWasm0(ptr, len) {
    return copyFromWasm0(__q.Uint16Array, ptr, len);
}

function copyArrayU32FromWasm0(ptr, len) {
    return copyFromWasm0(__q.Uint32Array, ptr, len);
}

function copyArrayI32FromWasm0(ptr, len) {
    return copyFromWasm0(__q.Int32Array, ptr, len);
}

function copyArrayU64FromWasm0(ptr, len) {
    return copyFromWasm0(__q.BigUint64Array, ptr, len);
}

function copyArrayI64FromWasm0(ptr, len) {
    return copyFromWasm0(__q.BigInt64Array, ptr, len);
}

function copyArrayF32FromWasm0(ptr, len) {
    return copyFromWasm0(__q.Float32Array, ptr, len);
}

function copyArrayF64FromWasm0(ptr, len) {
    return copyFromWasm0(__q.Float64Array, ptr, len);
}

/** A DataView of all of WebAssembly memory (made per use: memory can grow). */
function dataViewOfWasm0() {
    return new __q.DataView(__q.buffer(wasm.memory));
}

function getStringFromWasm0(ptr, len) {
    return decodeText(viewOfWasm0(__q.Uint8Array, ptr, len));
}

function handleError(f, args) {
    try {
        return __q.apply(f, undefined, args);
    } catch (e) {
        const idx = addToExternrefTable0(e);
        wasm.__wbindgen_exn_store(idx);
    }
}

function isLikeNone(x) {
    return x === undefined || x === null;
}

/**
 * Copies the typed array \`arg\` into a fresh allocation: its length is the internal slot's
 * (a TypeError for anything but a typed array), and exactly that many elements are copied.
 */
function passArrayToWasm0(Ctor, size, arg, malloc) {
    const len = __q.length(arg);
    const ptr = malloc(len * size, size) >>> 0;
    try {
        __q.set(viewOfWasm0(Ctor, ptr, len), arg);
    } catch (e) {
        wasm.__wbindgen_free(ptr, len * size, size);
        throw e;
    }
    WASM_VECTOR_LEN = len;
    return ptr;
}

function passArray8ToWasm0(arg, malloc) {
    return passArrayToWasm0(__q.Uint8Array, 1, arg, malloc);
}

function passArray16ToWasm0(arg, malloc) {
    return passArrayToWasm0(__q.Uint16Array, 2, arg, malloc);
}

function passArray32ToWasm0(arg, malloc) {
    return passArrayToWasm0(__q.Uint32Array, 4, arg, malloc);
}

function passArray64ToWasm0(arg, malloc) {
    return passArrayToWasm0(__q.BigUint64Array, 8, arg, malloc);
}

function passStringToWasm0(arg, malloc, realloc) {
    if (typeof arg !== 'string') throw new __q.TypeError('expected a string');
    if (realloc === undefined) {
        const buf = __q.encode(arg);
        const n = __q.length(buf);
        const ptr = malloc(n, 1) >>> 0;
        __q.set(viewOfWasm0(__q.Uint8Array, ptr, n), buf);
        WASM_VECTOR_LEN = n;
        return ptr;
    }

    let len = arg.length;
    let ptr = malloc(len, 1) >>> 0;

    const mem = viewOfWasm0(__q.Uint8Array, ptr, len);

    let offset = 0;

    for (; offset < len; offset++) {
        const code = __q.charCodeAt(arg, offset);
        if (code > 0x7F) break;
        mem[offset] = code;
    }
    if (offset !== len) {
        if (offset !== 0) {
            arg = __q.sliceString(arg, offset);
        }
        ptr = realloc(ptr, len, len = offset + arg.length * 3, 1) >>> 0;
        const view = viewOfWasm0(__q.Uint8Array, ptr + offset, len - offset);
        offset += __q.encodeInto(arg, view);
        ptr = realloc(ptr, len, offset, 1) >>> 0;
    }

    WASM_VECTOR_LEN = offset;
    return ptr;
}

function takeFromExternrefTable0(idx) {
    const value = __q.tableGet(wasm.__wbindgen_externrefs, idx);
    wasm.__externref_table_dealloc(idx);
    return value;
}

let cachedTextDecoder = new __q.TextDecoder('utf-8', { __proto__: null, ignoreBOM: true });
__q.decode(cachedTextDecoder);
const MAX_SAFARI_DECODE_BYTES = 2146435072;
let numBytesDecoded = 0;
function decodeText(bytes) {
    numBytesDecoded += __q.length(bytes);
    if (numBytesDecoded >= MAX_SAFARI_DECODE_BYTES) {
        cachedTextDecoder = new __q.TextDecoder('utf-8', { __proto__: null, ignoreBOM: true });
        __q.decode(cachedTextDecoder);
        numBytesDecoded = __q.length(bytes);
    }
    return __q.decode(cachedTextDecoder, bytes);
}

let WASM_VECTOR_LEN = 0;

let wasmModule, wasmInstance, wasm;
function __wbg_finalize_init(instance, module) {
    // One instance per realm: an instantiation that finishes after another (init() racing
    // initSync()) keeps the first, whose objects are live, and returns it.
    if (wasm !== undefined) return wasm;
    wasmInstance = instance;
    wasm = __q.exports(instance);
    wasmModule = module;
    wasm.__wbindgen_start();
    return wasm;
}

async function __wbg_load(module, imports) {
    if (__q.Response !== undefined && module instanceof __q.Response) {
        if (!module.ok) {
            throw new __q.Error('failed to fetch Wasm: ' + module.status + ' ' + module.statusText + " fetching '" + module.url + "'");
        }

        if (__q.instantiateStreaming !== undefined) {
            try {
                return await __q.instantiateStreaming(module, imports);
            } catch (e) {
                const validResponse = expectedResponseType(module.type);

                if (validResponse && module.headers.get('Content-Type') !== 'application/wasm') {
                    __q.warn("\`WebAssembly.instantiateStreaming\` failed because your server does not serve Wasm with \`application/wasm\` MIME type. Falling back to \`WebAssembly.instantiate\` which is slower. Original error:\\n" + e);

                } else { throw e; }
            }
        }

        const bytes = await module.arrayBuffer();
        return await __q.instantiate(bytes, imports);
    } else {
        const instance = await __q.instantiate(module, imports);

        if (instance instanceof __q.Instance) {
            return { instance, module };
        } else {
            return instance;
        }
    }

    function expectedResponseType(type) {
        switch (type) {
            case 'basic': case 'cors': case 'default': return true;
        }
        return false;
    }
}

function initSync(module) {
    if (wasm !== undefined) return wasm;


    if (module !== undefined) {
        if (__q.getPrototypeOf(module) === __q.ObjectPrototype) {
            ({module} = module)
        } else {
            __q.warn('using deprecated parameters for \`initSync()\`; pass a single object instead')
        }
    }

    const imports = __wbg_get_imports();
    if (!(module instanceof __q.Module)) {
        module = new __q.Module(module);
    }
    const instance = new __q.Instance(module, imports);
    return __wbg_finalize_init(instance, module);
}

let __wbg_init_promise;
async function __wbg_init(module_or_path) {
    if (wasm !== undefined) return wasm;
    if (__wbg_init_promise === undefined) {
        const once = __wbg_init_once(module_or_path);
        __wbg_init_promise = once;
        once.then(undefined, () => { if (__wbg_init_promise === once) __wbg_init_promise = undefined; });
    }
    return __wbg_init_promise;
}

async function __wbg_init_once(module_or_path) {

    if (module_or_path !== undefined) {
        if (__q.getPrototypeOf(module_or_path) === __q.ObjectPrototype) {
            ({module_or_path} = module_or_path)
        } else {
            __q.warn('using deprecated parameters for the initialization function; pass a single object instead')
        }
    }

    if (module_or_path === undefined) {
        module_or_path = new __q.URL('quasar_pq_bg.wasm', import.meta.url);
    }
    const imports = __wbg_get_imports();

    if (typeof module_or_path === 'string' || (__q.Request !== undefined && module_or_path instanceof __q.Request) || (__q.URL !== undefined && module_or_path instanceof __q.URL)) {
        module_or_path = __q.fetch(module_or_path);
    }

    const { instance, module } = await __wbg_load(await module_or_path, imports);

    return __wbg_finalize_init(instance, module);
}

export { initSync, __wbg_init as default };
`;

/** The functions RUNTIME defines (what the bindings may call besides their own classes). */
const RUNTIME_FUNCTIONS = new Set([...RUNTIME.matchAll(/^(?:async )?function (\w+)/gm)].map((m) => m[1]));

/** Global names the bindings may still mention: none but these, and only as shown. */
const GLOBALS_ALLOWED = new Set(['undefined']);

/** The rewrites of the generated bindings (classes and exported functions). */
const BINDING_REWRITES = [
  // A copy out of WebAssembly memory: a constructor and %TypedArray%.prototype.set.
  [/\bgetArray(U8|U16|U32|I32|U64|I64|F32|F64)FromWasm0\(([^()]*)\)\.slice\(\)/g, 'copyArray$1FromWasm0($2)'],
  [/\bBigInt\.asUintN\(64, /g, '__q.asUintN(64, '],
  [/\bBigInt\.asIntN\(64, /g, '__q.asIntN(64, '],
  // The pointer of a glue object: an own data property.
  [/^( *)(this|obj)\.__wbg_ptr = ([^;]+);$/gm, '$1__q.ownPtr($2, $3);'],
  [/\bObject\.create\((\w+)\.prototype\)/g, '__q.create($1.prototype)'],
  [/\b(\w+Finalization)\.register\(/g, '__q.register($1, '],
  [/\b(\w+Finalization)\.unregister\(/g, '__q.unregister($1, '],
];

const fail = (why) => {
  throw new Error(`harden-glue: ${why} (this transform knows wasm-bindgen ${GLUE_VERSION}'s output; see scripts/harden-glue.mjs)`);
};

/** Top-level statements of `text`: each starts at column 0 at brace depth 0 with no leading `}`. */
function statements(text) {
  const out = [];
  let depth = 0;
  let cur = null;
  for (const line of text.split('\n')) {
    if (depth === 0 && /^[^\s}]/.test(line)) {
      cur = [line];
      out.push(cur);
    } else if (cur) {
      cur.push(line);
    } else if (line.trim() !== '') {
      fail(`unexpected text before the first statement: ${JSON.stringify(line)}`);
    }
    for (const ch of line) depth += ch === '{' ? 1 : ch === '}' ? -1 : 0;
  }
  return out.map((lines) => {
    while (lines.length && lines[lines.length - 1] === '') lines.pop();
    return lines.join('\n');
  });
}

/** Rewrites the imports function: every entry must be one IMPORTS or WRAP_IMPORT knows. */
function hardenImports(block, classes) {
  const head = 'function __wbg_get_imports() {\n    const import0 = {\n        __proto__: null,\n';
  const tail = '\n    };\n    return {\n        __proto__: null,\n        "./quasar_pq_bg.js": import0,\n    };\n}';
  if (!block.startsWith(head) || !block.endsWith(tail)) fail('the imports function has another shape');
  const body = block.slice(head.length, block.length - tail.length);
  const entries = [];
  for (const line of body.split('\n')) {
    if (/^ {8}\w+: function/.test(line)) entries.push([line]);
    else if (entries.length) entries[entries.length - 1].push(line);
    else fail(`unexpected line in the imports: ${JSON.stringify(line)}`);
  }
  const out = entries.map((lines) => {
    const text = lines.join('\n');
    const name = text.match(/^ {8}(\w+):/)[1];
    const generic = text.replace(/^ {8}\w+:/, '        NAME:');
    const known = IMPORTS.get(generic);
    if (known !== undefined) return known.replace('        NAME:', `        ${name}:`);
    const wrap = generic.match(WRAP_IMPORT);
    if (wrap && classes.has(wrap[1])) return text;
    return fail(`an import this transform does not know (a JavaScript function Rust calls): ${name}\n${text}`);
  });
  return head + out.join('\n') + tail;
}

/** The bindings after the rewrites, audited: see the module docs. */
function hardenBindings(text) {
  let out = text;
  for (const [re, to] of BINDING_REWRITES) out = out.replace(re, to);
  const classes = new Set([...out.matchAll(/^export class (\w+) \{$/gm)].map((m) => m[1]));
  const consts = new Set([...classes].map((c) => `${c}Finalization`));
  // The build's globals, and a browser's that Node lacks.
  const globals = new Set([...Object.getOwnPropertyNames(globalThis), 'window', 'self', 'document', 'location', 'navigator', 'top', 'parent', 'frames']);
  let inDoc = false;
  out.split('\n').forEach((line, i) => {
    const where = `bindings line ${i + 1}: ${JSON.stringify(line.trim())}`;
    const t = line.trim();
    if (inDoc) {
      if (t.endsWith('*/')) inDoc = false;
      return;
    }
    if (t.startsWith('/**') || t.startsWith('/*')) {
      inDoc = !t.endsWith('*/');
      return;
    }
    if (t.startsWith('//') || t === '') return;
    if (/^if \(Symbol\.dispose\) (\w+)\.prototype\[Symbol\.dispose\] = \1\.prototype\.free;$/.test(t)) return;
    if (/['"`]/.test(t)) fail(`a string literal in the bindings, ${where}`);
    if (/\b(instanceof|in|typeof|delete|eval|arguments|await|yield|import)\b/.test(t)) fail(`an operator this audit does not allow, ${where}`);
    // The only computed access: the multi-value return of a WebAssembly export (`ret[0]`).
    for (const m of t.matchAll(/([\w$]*)\s*\[([^\]]*)\]/g)) {
      if (m[1] !== 'ret' || !/^\d+$/.test(m[2])) fail(`a computed member access (${m[0]}), ${where}`);
    }
    if (/\.__wbg_ptr\s*=[^=]/.test(t)) fail(`an assignment to a pointer that is not an own definition, ${where}`);
    for (const m of t.matchAll(/([\w$]+|\))\s*\.\s*([\w$]+)/g)) {
      const [, obj, prop] = m;
      const ok =
        obj === 'wasm' ||
        obj === '__q' ||
        prop === '__wbg_ptr' ||
        prop === '__destroy_into_raw' ||
        (prop === '__wrap' && classes.has(obj)) ||
        (prop === 'prototype' && classes.has(obj));
      if (!ok) fail(`a member access through a built-in or a caller's object (${obj}.${prop}), ${where}`);
    }
    const bare = t.replace(/([\w$]+|\))\s*\.\s*[\w$]+/g, '$1');
    for (const m of bare.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)\b/g)) {
      const id = m[1];
      if (globals.has(id) && !GLOBALS_ALLOWED.has(id)) fail(`a global built-in (${id}), ${where}`);
    }
    for (const m of bare.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)\s*\(/g)) {
      const id = m[1];
      if (/Wasm0$/.test(id) && !RUNTIME_FUNCTIONS.has(id)) fail(`a helper the hardened runtime does not define (${id}), ${where}`);
    }
  });
  for (const c of consts) if (!classes.has(c.slice(0, -'Finalization'.length))) fail(`unknown class ${c}`);
  return { text: out, classes };
}

/**
 * The hardened glue of the generated `text` (wasm-bindgen GLUE_VERSION, `--target web`).
 * @throws Error naming the first piece it does not know.
 */
export function hardenGlue(text) {
  if (text.includes(HARDENED_MARK)) fail('this file is already hardened');
  if (!text.startsWith(`${HEADER}\n`)) fail('the file does not start with the ts-self-types header');
  const start = text.indexOf('\nfunction __wbg_get_imports() {\n');
  if (start < 0) fail('no imports function');
  const end = text.indexOf('\n}\n', start + 1);
  const bindingsText = text.slice(HEADER.length + 1, start + 1);
  const importsText = text.slice(start + 1, end + 2);
  const runtimeText = text.slice(end + 3);

  const bindings = hardenBindings(bindingsText);
  const imports = hardenImports(importsText, bindings.classes);

  const kept = [];
  for (const s of statements(runtimeText)) {
    const first = s.split('\n')[0];
    const fin = s.match(FINALIZATION);
    if (fin) {
      if (!bindings.classes.has(fin[1])) fail(`a FinalizationRegistry for an unknown class ${fin[1]}`);
      kept.push(s);
      continue;
    }
    if (FINALIZE_INIT.test(s)) continue;
    const want = KNOWN_RUNTIME[first];
    if (want === undefined) fail(`a runtime piece this transform does not know: ${JSON.stringify(first)}`);
    if (sha(s) !== want) fail(`the runtime piece ${JSON.stringify(first)} has another text (sha256 ${sha(s)}, expected ${want})`);
  }
  return `${HEADER}\n${PROLOGUE}\n${bindings.text}${imports}\n\n${kept.join('\n')}\n${RUNTIME}`;
}

function main() {
  const files = process.argv.slice(2);
  if (!files.length) {
    console.error('usage: node scripts/harden-glue.mjs <pkg/.../quasar_pq.js> ...');
    process.exit(2);
  }
  for (const f of files) writeFileSync(f, hardenGlue(readFileSync(f, 'utf8')));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
