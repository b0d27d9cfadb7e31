// Key formats (full build): ML-DSA and SLH-DSA keys as X.509 SubjectPublicKeyInfo, PKCS #8
// OneAsymmetricKey (DER or PEM), JWK and COSE_Key `AKP` keys, and their thumbprints — the Rust
// `keyfmt` module, through `makeKeyFormats`. Not a public entry point: js/index.js exports `keys`.
//
//   keys.toSpki(alg, publicKey, { format })        → DER bytes, or PEM text with format 'pem'
//   keys.fromSpki(derOrPem)                        → { alg, publicKey }
//   keys.toPkcs8(alg, { seed } | { secretKey }, { format, form, includePublicKey })
//   keys.fromPkcs8(derOrPem)                       → { alg, seed?, secretKey, publicKey }
//   keys.toJwk(alg, key) / keys.toCoseKey(alg, key) → JWK text / COSE_Key bytes
//   keys.fromJwk(text) / keys.fromCoseKey(bytes)   → { alg, publicKey, seed?, secretKey? }
//   keys.jwkThumbprint(alg, publicKey) → string;  keys.coseThumbprint(alg, publicKey) → bytes
//
// `alg` is the standard name ('ML-DSA-65', 'SLH-DSA-SHAKE-128s'). Bytes are DER or CBOR and
// strings are text (PEM, JSON), never the other way round: a Uint8Array holding PEM text is
// a TypeError saying so. A `key` is `{ publicKey }` (a public JWK or COSE_Key) or holds a
// secret, `seed` (ML-DSA) or `secretKey`; a `publicKey` or `alg` beside it must match, so a
// decoded key can be passed back as it is (any other member is a TypeError, as a misspelt
// option is). Every secret crosses into WebAssembly as bytes that
// are wiped on both sides after the call; results are null-prototype objects.

import { ML_DSA_LENGTHS } from './mldsa.js';
import { SLH_DSA_LENGTHS } from './slhdsa.js';
import { boolOpt, bytes, byteLength, checkOpts, echo, named, oneOf, quasarError, secretBytes } from './common.js';

/** The algorithms, ML-DSA then SLH-DSA (the Rust `keyfmt::Algorithm::ALL` order). */
export const KEY_ALGORITHMS = Object.freeze([
  'ML-DSA-44',
  'ML-DSA-65',
  'ML-DSA-87',
  'SLH-DSA-SHAKE-128s',
  'SLH-DSA-SHAKE-128f',
  'SLH-DSA-SHAKE-192s',
  'SLH-DSA-SHAKE-192f',
  'SLH-DSA-SHAKE-256s',
  'SLH-DSA-SHAKE-256f',
]);

/** Per algorithm: its byte lengths and whether it is ML-DSA (a null-prototype table). */
const SIZES = { __proto__: null };
for (const level of [44, 65, 87]) SIZES[`ML-DSA-${level}`] = Object.freeze({ __proto__: null, mlDsa: true, ...ML_DSA_LENGTHS[level] });
for (let i = 3; i < KEY_ALGORITHMS.length; i++) SIZES[KEY_ALGORITHMS[i]] = Object.freeze({ __proto__: null, mlDsa: false, ...SLH_DSA_LENGTHS[KEY_ALGORITHMS[i]] });
Object.freeze(SIZES);

/** The longest DER or CBOR key accepted (an ML-DSA-87 `both` key with its public key is 7.6 KB). */
export const MAX_KEY_BYTES = 1 << 16;
/** The longest PEM or JWK text accepted, in UTF-16 code units. */
export const MAX_KEY_TEXT = 1 << 17;

const FORMATS = Object.freeze(['der', 'pem']);
const FORMS = Object.freeze(['seed', 'expanded', 'both']);
const SPKI_OPTS = Object.freeze(['format']);
const PKCS8_OPTS = Object.freeze(['format', 'form', 'includePublicKey']);
const KEY_FIELDS = Object.freeze(['alg', 'publicKey', 'seed', 'secretKey']);

// Text crosses as UTF-8, through the codecs as they were when this module loaded.
const uncurry = (f) => Function.prototype.call.bind(f);
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
const encode = uncurry(TextEncoder.prototype.encode);
const decode = uncurry(TextDecoder.prototype.decode);
const fill = uncurry(Object.getPrototypeOf(Uint8Array.prototype).fill);

/** The algorithm name `alg`, checked here so that no other string reaches WebAssembly. */
function algOf(alg) {
  if (typeof alg !== 'string') throw new TypeError(`alg must be a string (one of ${oneOf(KEY_ALGORITHMS)}), got ${typeof alg}`);
  if (!named(SIZES, alg)) throw quasarError('UNKNOWN_ALGORITHM', `unknown algorithm ${echo(alg)} (the names: ${oneOf(KEY_ALGORITHMS)})`, 'alg', 'keyfmt');
  return alg;
}

/** A string option whose value is one of `list` (`fallback` when absent). */
function choice(o, key, list, fallback) {
  const v = o[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'string') throw new TypeError(`opts.${key} must be a string (one of ${oneOf(list)}), got ${typeof v}`);
  for (let i = 0; i < list.length; i++) if (list[i] === v) return v;
  throw new RangeError(`opts.${key} must be one of ${oneOf(list)}, got ${echo(v)}`);
}

/** Text for WebAssembly: a string of at most MAX_KEY_TEXT units, as fresh UTF-8 bytes. */
function textBytes(text, name) {
  if (text.length > MAX_KEY_TEXT) throw new RangeError(`${name} is ${text.length} characters, at most ${MAX_KEY_TEXT} are accepted`);
  return encode(encoder, text);
}

/** UTF-8 bytes from WebAssembly as a string; the bytes are wiped. */
function textOf(u8) {
  try {
    return decode(decoder, u8);
  } finally {
    fill(u8, 0);
  }
}

/**
 * An encoded key argument: a string is text (`pem` true, its UTF-8 bytes, wiped after use);
 * a Uint8Array is DER, and one that starts with `-` (never a DER SEQUENCE) is PEM text in
 * bytes, refused with a TypeError that says so.
 */
function encoded(input, name) {
  if (typeof input === 'string') return { pem: true, data: textBytes(input, name) };
  if (input === null || typeof input !== 'object') throw new TypeError(`${name} must be a Uint8Array (DER) or a string (PEM), got ${input === null ? 'null' : typeof input}`);
  const der = secretBytes(input, name, { max: MAX_KEY_BYTES });
  if (byteLength(der) > 0 && der[0] === 0x2d) {
    fill(der, 0);
    throw new TypeError(`${name} holds PEM text in a Uint8Array; pass PEM as a string (e.g. readFileSync(path, 'utf8')), DER as bytes`);
  }
  return { pem: false, data: der };
}

/**
 * The parts of a `key` argument for algorithm `alg`: `{ publicKey?, seed?, secretKey? }`, the
 * secrets as fresh copies (the caller wipes them). `needSecret` refuses a key with no secret.
 */
function keyParts(alg, key, needSecret) {
  if (key === undefined) throw new TypeError('key must be an object holding a publicKey, a seed or a secretKey, got undefined');
  const k = checkOpts(key, KEY_FIELDS, 'key');
  if (k.alg !== undefined && k.alg !== alg) {
    throw quasarError('KEY_MISMATCH', `key.alg is ${typeof k.alg === 'string' ? echo(k.alg) : typeof k.alg}, the call names ${alg}`, 'key.alg', 'keyfmt');
  }
  const sizes = SIZES[alg];
  if (k.seed !== undefined && !sizes.mlDsa) throw new TypeError(`key.seed: an ${alg} private key has no seed form in these formats; pass its secretKey`);
  if (needSecret && k.seed === undefined && k.secretKey === undefined) throw new TypeError('key must hold a seed or a secretKey');
  if (k.seed === undefined && k.secretKey === undefined && k.publicKey === undefined) throw new TypeError('key must hold a publicKey, a seed or a secretKey');
  const publicKey = k.publicKey === undefined ? undefined : bytes(k.publicKey, 'key.publicKey', { length: sizes.publicKey });
  const seed = k.seed === undefined ? undefined : secretBytes(k.seed, 'key.seed', { length: 32 });
  let secretKey;
  try {
    secretKey = k.secretKey === undefined ? undefined : secretBytes(k.secretKey, 'key.secretKey', { length: sizes.secretKey });
  } catch (e) {
    if (seed !== undefined) fill(seed, 0);
    throw e;
  }
  return { publicKey, seed, secretKey };
}

function wipe(parts) {
  if (parts.seed !== undefined) fill(parts.seed, 0);
  if (parts.secretKey !== undefined) fill(parts.secretKey, 0);
}

/** The key-format API over the full build's generated module `w` and its `loader`. */
export function makeKeyFormats(w, loader) {
  const publicKeyOf = (alg, publicKey) => bytes(publicKey, 'publicKey', { length: SIZES[alg].publicKey });

  /** The SubjectPublicKeyInfo of `publicKey`: DER bytes, or with `{ format: 'pem' }` a `PUBLIC KEY` block. */
  function toSpki(alg, publicKey, opts) {
    const a = algOf(alg);
    const pem = choice(checkOpts(opts, SPKI_OPTS), 'format', FORMATS, 'der') === 'pem';
    const pk = publicKeyOf(a, publicKey);
    const out = loader.call(() => w.keyfmtSpkiEncode(a, pk, pem));
    return pem ? textOf(out) : out;
  }

  /** Decodes a SubjectPublicKeyInfo (DER bytes or a `PUBLIC KEY` PEM string): `{ alg, publicKey }`. */
  function fromSpki(derOrPem) {
    const { pem, data } = encoded(derOrPem, 'spki');
    try {
      return loader.call(() => w.keyfmtSpkiDecode(data, pem));
    } finally {
      fill(data, 0);
    }
  }

  /**
   * The PKCS #8 OneAsymmetricKey of a private key: DER bytes, or a `PRIVATE KEY` block with
   * `{ format: 'pem' }`. ML-DSA: `form` 'seed' (default, RFC 9881's recommendation), 'expanded'
   * or 'both'; `includePublicKey` writes the public key too (version 2).
   */
  function toPkcs8(alg, key, opts) {
    const a = algOf(alg);
    const o = checkOpts(opts, PKCS8_OPTS);
    const pem = choice(o, 'format', FORMATS, 'der') === 'pem';
    const form = choice(o, 'form', FORMS, 'seed');
    const withPublic = boolOpt(o, 'includePublicKey');
    const p = keyParts(a, key, true);
    try {
      const out = loader.call(() => w.keyfmtPkcs8Encode(a, p.seed, p.secretKey, p.publicKey, form, withPublic, pem));
      return pem ? textOf(out) : out;
    } finally {
      wipe(p);
    }
  }

  /** Decodes a PKCS #8 private key (DER bytes or a `PRIVATE KEY` PEM string), checked against itself. */
  function fromPkcs8(derOrPem) {
    const { pem, data } = encoded(derOrPem, 'pkcs8');
    try {
      return loader.call(() => w.keyfmtPkcs8Decode(data, pem));
    } finally {
      fill(data, 0);
    }
  }

  /** The JWK (RFC 9964 `AKP`) text of `{ publicKey }`, or of a private key (`priv`: the ML-DSA seed). */
  function toJwk(alg, key) {
    const a = algOf(alg);
    const p = keyParts(a, key, false);
    try {
      return textOf(loader.call(() => w.keyfmtJwkEncode(a, p.publicKey, p.seed, p.secretKey)));
    } finally {
      wipe(p);
    }
  }

  /** Decodes JWK text: `{ alg, publicKey }`, or with `priv` also `seed` (ML-DSA) and `secretKey`. */
  function fromJwk(text) {
    if (typeof text !== 'string') throw new TypeError(`jwk must be a string (the JSON text), got ${text === null ? 'null' : typeof text}`);
    const data = textBytes(text, 'jwk');
    try {
      return loader.call(() => w.keyfmtJwkDecode(data));
    } finally {
      fill(data, 0);
    }
  }

  /** The COSE_Key (`kty` AKP, deterministic CBOR) of `{ publicKey }` or of an ML-DSA private key. */
  function toCoseKey(alg, key) {
    const a = algOf(alg);
    const p = keyParts(a, key, false);
    try {
      return loader.call(() => w.keyfmtCoseEncode(a, p.publicKey, p.seed, p.secretKey));
    } finally {
      wipe(p);
    }
  }

  /** Decodes a COSE_Key as `fromJwk` decodes JWK text. */
  function fromCoseKey(cbor) {
    const data = secretBytes(cbor, 'coseKey', { max: MAX_KEY_BYTES });
    try {
      return loader.call(() => w.keyfmtCoseDecode(data));
    } finally {
      fill(data, 0);
    }
  }

  /** The JWK thumbprint (RFC 7638, base64url) of a public key: the `kid` RFC 9964's examples use. */
  function jwkThumbprint(alg, publicKey) {
    const a = algOf(alg);
    const pk = publicKeyOf(a, publicKey);
    return loader.call(() => w.keyfmtJwkThumbprint(a, pk));
  }

  /** The COSE Key thumbprint (RFC 9679, SHA-256, 32 bytes) of a public key. */
  function coseThumbprint(alg, publicKey) {
    const a = algOf(alg);
    const pk = publicKeyOf(a, publicKey);
    return loader.call(() => w.keyfmtCoseThumbprint(a, pk));
  }

  const keys = Object.freeze({
    algorithms: KEY_ALGORITHMS,
    toSpki,
    fromSpki,
    toPkcs8,
    fromPkcs8,
    toJwk,
    fromJwk,
    toCoseKey,
    fromCoseKey,
    jwkThumbprint,
    coseThumbprint,
  });
  return Object.freeze({ keys });
}
