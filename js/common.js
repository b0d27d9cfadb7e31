// Shared by js/index.js (full build) and js/verify.js (light build): argument checks,
// randomness, WASM loading and the ML-DSA verify surface. Not a public entry point.

/** FIPS 204, Table 2: byte lengths of each parameter set, plus seed and signing randomness. */
export const ML_DSA_LENGTHS = Object.freeze({
  44: Object.freeze({ seed: 32, publicKey: 1312, secretKey: 2560, signature: 2420, signRand: 32 }),
  65: Object.freeze({ seed: 32, publicKey: 1952, secretKey: 4032, signature: 3309, signRand: 32 }),
  87: Object.freeze({ seed: 32, publicKey: 2592, secretKey: 4896, signature: 4627, signRand: 32 }),
});

/** NIST security category of each level (as noble's `securityLevel`, in bits: 128/192/256). */
export const SECURITY_LEVEL = Object.freeze({ 44: 128, 65: 192, 87: 256 });

/** Options each call accepts. Unknown keys throw, so a misspelt `ctx` cannot drop the context. */
export const VERIFY_OPTS = Object.freeze(['context']);
export const SIGN_OPTS = Object.freeze(['context', 'extraEntropy']);
export const INTERNAL_SIGN_OPTS = Object.freeze(['extraEntropy', 'externalMu']);
export const INTERNAL_VERIFY_OPTS = Object.freeze(['externalMu']);

const EMPTY = new Uint8Array(0);

function isBytes(a) {
  return a instanceof Uint8Array || (ArrayBuffer.isView(a) && a.constructor.name === 'Uint8Array');
}

/**
 * Return `value` if it is a Uint8Array (of `length` bytes, when given).
 * Throws TypeError for anything else, RangeError for a wrong length.
 */
export function abytes(value, length, title) {
  if (!isBytes(value)) {
    throw new TypeError(`${title} must be a Uint8Array, got ${value === null ? 'null' : typeof value}`);
  }
  if (length !== undefined && value.length !== length) {
    throw new RangeError(`${title} must be ${length} bytes, got ${value.length}`);
  }
  return value;
}

/** Validate an options bag: undefined or a plain object whose defined keys are all allowed. */
export function checkOpts(opts, allowed) {
  if (opts === undefined) return {};
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts) || isBytes(opts)) {
    throw new TypeError(`options must be an object, got ${opts === null ? 'null' : typeof opts}`);
  }
  const out = Object.create(null);
  for (const [k, v] of Object.entries(opts)) {
    if (v === undefined) continue;
    if (!allowed.includes(k)) {
      throw new TypeError(`unexpected option "${k}"; expected one of: ${allowed.join(', ')}`);
    }
    out[k] = v;
  }
  return out;
}

/** The context option: absent means empty. */
export function contextOf(opts) {
  return opts.context === undefined ? EMPTY : abytes(opts.context, undefined, 'opts.context');
}

/** A boolean option (false when absent). */
export function boolOpt(opts, key) {
  const v = opts[key];
  if (v === undefined) return false;
  if (typeof v !== 'boolean') throw new TypeError(`opts.${key} must be a boolean, got ${typeof v}`);
  return v;
}

/** `n` bytes from the platform CSPRNG (Web Crypto, in browsers and Node ≥ 20). */
export function randomBytes(n) {
  const c = globalThis.crypto;
  if (!c || typeof c.getRandomValues !== 'function') {
    throw new Error('crypto.getRandomValues is not available; pass a seed / extraEntropy explicitly');
  }
  return c.getRandomValues(new Uint8Array(n));
}

/**
 * The signing randomness for `extraEntropy`: `false` → deterministic (undefined, meaning
 * rnd = 0³²), `undefined` → 32 fresh random bytes, a Uint8Array → those 32 bytes.
 * `deterministicAsZeros` returns an explicit all-zero array instead of undefined.
 */
export function signRandomness(extraEntropy, deterministicAsZeros = false) {
  if (extraEntropy === false) return deterministicAsZeros ? new Uint8Array(32) : undefined;
  if (extraEntropy === undefined) return randomBytes(32);
  if (extraEntropy === true) throw new TypeError('opts.extraEntropy must be a Uint8Array(32) or false, got true');
  return abytes(extraEntropy, 32, 'opts.extraEntropy');
}

/**
 * Make an `init()` for a wasm-bindgen `--target web` module.
 * `glue` is the generated module namespace (default export = async init, `initSync`);
 * `wasmUrl` is the URL of its .wasm. In Node (file: URLs) the bytes are read with fs,
 * in browsers they are fetched (streaming compile). `init(input)` passes any explicit
 * input (URL, Response, BufferSource, WebAssembly.Module) through unchanged.
 */
export function makeInit(glue, wasmUrl) {
  let ready = null;
  const state = { ok: false };
  async function init(input) {
    if (ready) return ready;
    ready = (async () => {
      let source = input;
      if (source === undefined) {
        const url = new URL(wasmUrl);
        if (url.protocol === 'file:') {
          const { readFile } = await import('node:fs/promises');
          source = await readFile(url);
        } else {
          source = url;
        }
      }
      await glue.default({ module_or_path: source });
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
    glue.initSync({ module: moduleOrBytes });
    state.ok = true;
    ready = Promise.resolve();
  }
  function assertReady() {
    if (!state.ok) throw new Error('quasar-pq: call `await init()` before using the library');
  }
  return { init, initSync, assertReady };
}

/**
 * The verify half of an ML-DSA parameter set (shared by the full and light builds).
 * `w` is the generated module; `assertReady` throws until init() has run.
 */
export function mlDsaVerifySurface(level, w, assertReady) {
  const lengths = ML_DSA_LENGTHS[level];
  /** Verify `sig` on `msg` under `publicKey`; false for any bad signature. */
  function verify(sig, msg, publicKey, opts) {
    const o = checkOpts(opts, VERIFY_OPTS);
    const ctx = contextOf(o);
    abytes(sig, undefined, 'signature');
    abytes(msg, undefined, 'message');
    abytes(publicKey, lengths.publicKey, 'publicKey');
    assertReady();
    return w.mlDsaVerify(level, publicKey, msg, ctx, sig);
  }
  /** Verify on M′ (or on μ with `externalMu: true`); false for any bad signature. */
  function internalVerify(sig, msg, publicKey, opts) {
    const o = checkOpts(opts, INTERNAL_VERIFY_OPTS);
    const externalMu = boolOpt(o, 'externalMu');
    abytes(sig, undefined, 'signature');
    abytes(msg, externalMu ? 64 : undefined, externalMu ? 'mu' : 'message');
    abytes(publicKey, lengths.publicKey, 'publicKey');
    assertReady();
    return externalMu
      ? w.mlDsaVerifyMu(level, publicKey, msg, sig)
      : w.mlDsaVerifyInternal(level, publicKey, msg, sig);
  }
  /** μ = H(H(pk) ‖ 0 ‖ |ctx| ‖ ctx ‖ msg, 64), the input of external-μ signing. */
  function computeMu(msg, publicKey, opts) {
    const o = checkOpts(opts, VERIFY_OPTS);
    const ctx = contextOf(o);
    abytes(msg, undefined, 'message');
    abytes(publicKey, lengths.publicKey, 'publicKey');
    assertReady();
    return w.mlDsaComputeMu(level, publicKey, msg, ctx);
  }
  /**
   * Expand `publicKey` once for verifying many signatures under it (about 3x faster per
   * verification). Returns `{ verify(sig, msg, opts), free() }`.
   */
  function prepare(publicKey) {
    abytes(publicKey, lengths.publicKey, 'publicKey');
    assertReady();
    const key = new w.MlDsaPreparedKey(level, publicKey);
    return Object.freeze({
      verify(sig, msg, opts) {
        const o = checkOpts(opts, VERIFY_OPTS);
        const ctx = contextOf(o);
        abytes(sig, undefined, 'signature');
        abytes(msg, undefined, 'message');
        return key.verify(msg, ctx, sig);
      },
      free() {
        key.free();
      },
    });
  }
  return { lengths, verify, internalVerify, computeMu, prepare };
}
