// Corona verifier oracle: TEST-ONLY, written from shared/specs/corona.md alone (§2, §3, §4.1,
// §4.9, §5.1, §5.4, §6, §7.1–§7.3), without reading the crate's Rust. It exists so that the
// crate and this file, disagreeing, point at a bug on one side or at an ambiguity in the spec.
// Nothing here is constant time or fast: polynomial products are schoolbook (§6 allows any
// correct multiplication), done on 17-bit limbs in doubles so that the 56 products of a
// verification take tens of milliseconds instead of a BigInt second.
import { cshake256 } from '@noble/hashes/sha3-addons.js';

// ---------------------------------------------------------------- §2 parameters

export const N = 256;
export const Q = 2n ** 48n + 18945n; // 0x1000000004A01
export const QN = Number(Q); // < 2^53, so every residue is an exact double
export const ROWS = 8; // A is 8 × 7
export const COLS = 7;
export const KAPPA = 23;
export const XI = 30;
export const NU = 29;
export const B2 = 184960669042442604975662780477n; // inclusive bound on ‖z‖² + 2^58‖Δ‖²

export const TAG = {
  A: 'QUASAR-CORONA-A-v1',
  GK: 'QUASAR-CORONA-GK-v1',
  MSG: 'QUASAR-CORONA-MSG-v1',
  HC: 'QUASAR-CORONA-HC-v1',
  BALL: 'QUASAR-CORONA-BALL-v1',
};

// ---------------------------------------------------------------- §3 hashing

const utf8 = (s) => new TextEncoder().encode(s);

/** Minimal big-endian bytes of a non-negative integer, at least one byte (SP 800-185 §2.3.1). */
function minimalBytes(n) {
  const out = [];
  let v = BigInt(n);
  do {
    out.unshift(Number(v & 0xffn));
    v >>= 8n;
  } while (v > 0n);
  return out;
}
export const leftEncode = (n) => {
  const b = minimalBytes(n);
  return Uint8Array.from([b.length, ...b]);
};
export const rightEncode = (n) => {
  const b = minimalBytes(n);
  return Uint8Array.from([...b, b.length]);
};
/** encode_string(x) = left_encode(bit length) ‖ x. */
export const encodeString = (x) => concat(leftEncode(8 * x.length), x);

export function concat(...parts) {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** The TupleHash-style body: every item as encode_string, then right_encode(bits) (0 for XOF). */
const tupleBody = (items, outBits) => concat(...items.map(encodeString), rightEncode(outBits));
const cshakeOpts = (tag) => ({ NISTfn: 'QUASAR', personalization: utf8(tag) });

/** TH(tag; x_1..x_k; L): L output bytes. */
export function TH(tag, items, L) {
  return cshake256(tupleBody(items, 8 * L), { ...cshakeOpts(tag), dkLen: L });
}

/** XOF(tag; x_1..x_k): returns read(n), which squeezes the next n bytes of one stream. */
export function XOF(tag, items) {
  const h = cshake256.create(cshakeOpts(tag)).update(tupleBody(items, 0));
  return (n) => h.xof(n);
}

const u8 = (v) => Uint8Array.of(v);

// ---------------------------------------------------------------- §4.1 rounding

// Values are Numbers < 2^49, so dividing by a power of two and flooring is exact.
/** Round_ξ(x) = ((x + 2^29) >> 30) mod 2^18, x ∈ [0, q). */
export const roundXi = (x) => Math.floor((x + 2 ** (XI - 1)) / 2 ** XI) % 2 ** 18;
/** Round_ν(x) = ((x + 2^28) >> 29) mod 2^19, x ∈ [0, q). The final reduction is the §4.1 fix. */
export const roundNu = (x) => Math.floor((x + 2 ** (NU - 1)) / 2 ** NU) % 2 ** 19;

// ---------------------------------------------------------------- §5.1 uniform mod q, ExpandA

export const UNIFORM_LIMIT = 65535n * Q; // reject words ≥ 65535·q so w mod q is unbiased

/** One polynomial of uniform residues from a stream: u64 LE words, 256 accepted, coefficient 0 first. */
export function uniformPoly(read) {
  const out = [];
  while (out.length < N) {
    const buf = read(8 * (N - out.length)); // refill only as much as could still be needed
    for (let off = 0; off < buf.length && out.length < N; off += 8) {
      let w = 0n;
      for (let k = 7; k >= 0; k--) w = (w << 8n) | BigInt(buf[off + k]);
      if (w < UNIFORM_LIMIT) out.push(Number(w % Q));
    }
  }
  return out;
}

/** ExpandA(ρ): A[r][c] = uniform poly from XOF(A; ρ, u8 r, u8 c), each entry its own stream. */
export function expandA(rho) {
  const A = [];
  for (let r = 0; r < ROWS; r++) {
    const row = [];
    for (let c = 0; c < COLS; c++) row.push(uniformPoly(XOF(TAG.A, [rho, u8(r), u8(c)])));
    A.push(row);
  }
  return A;
}

// ---------------------------------------------------------------- §5.4 SampleInBall

/** SampleInBall(c̃) with κ = 23 (FIPS 204 Algorithm shape). Coefficients in {−1, 0, 1}. */
export function sampleInBall(cTilde) {
  const read = XOF(TAG.BALL, [cTilde]);
  const signBytes = read(8);
  let signs = 0n;
  for (let k = 7; k >= 0; k--) signs = (signs << 8n) | BigInt(signBytes[k]); // u64 LE
  const c = new Array(N).fill(0);
  for (let i = N - KAPPA; i < N; i++) {
    let j;
    do j = read(1)[0];
    while (j > i);
    c[i] = c[j];
    c[j] = (signs & 1n) === 0n ? 1 : -1;
    signs >>= 1n;
  }
  return c;
}

// ---------------------------------------------------------------- §6 arithmetic in R_q

const mod = (x, m) => ((x % m) + m) % m;
const LIMB = 2 ** 17;

/** Three 17-bit limbs of each residue in [0, 2^51), as Float64Arrays. */
function limbs(poly) {
  const l = [new Float64Array(N), new Float64Array(N), new Float64Array(N)];
  for (let i = 0; i < N; i++) {
    const x = poly[i];
    l[0][i] = x % LIMB;
    l[1][i] = Math.floor(x / LIMB) % LIMB;
    l[2][i] = Math.floor(x / LIMB ** 2);
  }
  return l;
}

/**
 * Σ_k a[k]·b[k] in R_q = Z_q[X]/(X^256 + 1), schoolbook. a, b: arrays of polys with residues in
 * [0, q). Limb products are < 2^34 and at most 3·256·len of them meet in one sum, so for
 * len ≤ 16 every partial sum stays an exact double (< 2^48); BigInt recombines at the end.
 */
export function innerProduct(a, b) {
  if (a.length > 16) throw new Error('innerProduct: too many terms for exact doubles');
  const acc = Array.from({ length: 5 }, () => new Float64Array(2 * N));
  for (let k = 0; k < a.length; k++) {
    const la = limbs(a[k]);
    const lb = limbs(b[k]);
    for (let x = 0; x < 3; x++) {
      for (let y = 0; y < 3; y++) {
        const dst = acc[x + y];
        const ax = la[x];
        const by = lb[y];
        for (let i = 0; i < N; i++) {
          const ai = ax[i];
          if (ai === 0) continue;
          for (let j = 0; j < N; j++) dst[i + j] += ai * by[j];
        }
      }
    }
  }
  const out = [];
  for (let i = 0; i < N; i++) {
    let v = 0n;
    for (let d = 4; d >= 0; d--) v = v * BigInt(LIMB) + BigInt(acc[d][i]);
    let hi = 0n; // X^256 = −1: the upper half folds back with a minus sign
    for (let d = 4; d >= 0; d--) hi = hi * BigInt(LIMB) + BigInt(acc[d][i + N]);
    out.push(Number(mod(v - hi, Q)));
  }
  return out;
}

/** Plain BigInt schoolbook a·b in R_q, for cross-checking innerProduct in tests. */
export function polyMulSlow(a, b) {
  const acc = new Array(2 * N).fill(0n);
  for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) acc[i + j] += BigInt(a[i]) * BigInt(b[j]);
  return Array.from({ length: N }, (_, i) => Number(mod(acc[i] - acc[i + N], Q)));
}

/** A·v for A ∈ R_q^{8×7}, v ∈ R_q^7. */
export const matVec = (A, v) => A.map((row) => innerProduct(row, v));

/** c·p for a ternary c (entries −1, 0, 1), by shifting: c has only κ non-zero entries. */
export function ternaryMul(c, p) {
  const acc = new Array(N).fill(0n);
  for (let j = 0; j < N; j++) {
    if (c[j] === 0) continue;
    for (let i = 0; i < N; i++) {
      const t = BigInt(c[j]) * BigInt(p[i]);
      if (i + j < N) acc[i + j] += t;
      else acc[i + j - N] -= t; // X^256 = −1
    }
  }
  return acc.map((x) => Number(mod(x, Q)));
}

// ---------------------------------------------------------------- §7.1 coefficient codecs

/** Packs non-negative integers (< 2^bits) LSB-first into one bit stream, coefficient 0 first. */
export function packBits(values, bits) {
  const out = new Uint8Array(Math.ceil((values.length * bits) / 8));
  let pos = 0;
  for (const v of values) {
    if (!(Number.isSafeInteger(v) && v >= 0 && v < 2 ** bits)) throw new Error(`packBits: ${v} not in [0, 2^${bits})`);
    for (let b = 0; b < bits; b++, pos++) if (Math.floor(v / 2 ** b) % 2) out[pos >> 3] |= 1 << (pos & 7);
  }
  return out;
}
export function unpackBits(bytes, bits, count) {
  const out = [];
  let pos = 0;
  for (let k = 0; k < count; k++) {
    let v = 0;
    for (let b = 0; b < bits; b++, pos++) if ((bytes[pos >> 3] >> (pos & 7)) & 1) v += 2 ** b;
    out.push(v);
  }
  return out;
}
const flat = (polys) => polys.flat();
const split = (values) => Array.from({ length: values.length / N }, (_, k) => values.slice(k * N, (k + 1) * N));
const signedIn = (v, bits) => (v >= 2 ** (bits - 1) ? v - 2 ** bits : v); // two's complement
const signedOut = (v, bits) => (v < 0 ? v + 2 ** bits : v);

/** enc19 of w'/h̃ values in [0, 2^19), the form that is hashed. */
export const enc19 = (polys) => packBits(flat(polys), 19);

// ---------------------------------------------------------------- §7.2 CORS, §7.3 CORG

const SIG = { magic: 'CORS', sizes: [32, 7 * 1536, 8 * 608] }; // 32, 10752, 4864
const GK = { magic: 'CORG', sizes: [32, 8 * 576] }; // 32, 4608
const VERSION = 2;
export const SIG_BYTES = 10 + 4 * 2 + 32 + 10752 + 4864; // 15,666
export const GK_BYTES = 10 + 4 + 32 + 4608; // 4,654

/** Frame: magic ‖ u16 version ‖ (u32 len ‖ field)*, big-endian. */
function frame(spec, fields) {
  const parts = [utf8(spec.magic), Uint8Array.of(VERSION >> 8, VERSION & 0xff)];
  fields.forEach((f, k) => {
    if (f.length !== spec.sizes[k]) throw new Error(`${spec.magic}: field ${k} has ${f.length} bytes`);
    const len = new Uint8Array(4);
    new DataView(len.buffer).setUint32(0, f.length);
    parts.push(len, f);
  });
  return concat(...parts);
}

/** Strict decoding in the §7.2 order: header, magic, version, each length exact and present, no trailer. */
function unframe(spec, bytes) {
  const what = spec.magic;
  if (!(bytes instanceof Uint8Array)) throw new Error(`${what}: expected a Uint8Array`);
  if (bytes.length < 10) throw new Error(`${what}: ${bytes.length} bytes is shorter than the header`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (String.fromCharCode(...bytes.subarray(0, 4)) !== what) throw new Error(`${what}: bad magic`);
  const version = dv.getUint16(4);
  if (version !== VERSION) throw new Error(`${what}: version ${version}, expected ${VERSION}`);
  let off = 6;
  const fields = spec.sizes.map((size, k) => {
    if (bytes.length - off < 4) throw new Error(`${what}: truncated before the length of field ${k}`);
    const len = dv.getUint32(off);
    off += 4;
    if (len !== size) throw new Error(`${what}: field ${k} declares ${len} bytes, expected ${size}`);
    if (len > bytes.length - off) throw new Error(`${what}: field ${k} truncated`);
    off += len;
    return bytes.subarray(off - len, off);
  });
  if (off !== bytes.length) throw new Error(`${what}: ${bytes.length - off} trailing bytes`);
  return fields;
}

/** CORG → { rho, bTilde (8 polys in [0, 2^18)), tr = TH(GK; ρ ‖ b̃ bytes; 64) }. */
export function decodeGroupKey(bytes) {
  const [rho, bBytes] = unframe(GK, bytes);
  const bTilde = split(unpackBits(bBytes, 18, 8 * N)); // enc18 rejects nothing
  const tr = TH(TAG.GK, [concat(rho, bBytes)], 64);
  return { rho: rho.slice(), bTilde, tr };
}
export const encodeGroupKey = ({ rho, bTilde }) => frame(GK, [rho, packBits(flat(bTilde), 18)]);

/** CORS → { cTilde, z (7 polys, signed, |z| < 2^47), delta (8 polys, signed, [−2^18, 2^18)) }. */
export function decodeSignature(bytes) {
  const [cTilde, zBytes, dBytes] = unframe(SIG, bytes);
  const z = split(unpackBits(zBytes, 48, 7 * N).map((v) => signedIn(v, 48)));
  const delta = split(unpackBits(dBytes, 19, 8 * N).map((v) => signedIn(v, 19)));
  return { cTilde: cTilde.slice(), z, delta };
}
export function encodeSignature({ cTilde, z, delta }) {
  for (const v of flat(z)) if (!(v >= -(2 ** 47) && v < 2 ** 47)) throw new Error(`z coefficient ${v} outside [−2^47, 2^47)`);
  for (const v of flat(delta)) if (!(v >= -(2 ** 18) && v < 2 ** 18)) throw new Error(`Δ coefficient ${v} outside [−2^18, 2^18)`);
  const zb = packBits(flat(z).map((v) => signedOut(v, 48)), 48);
  const db = packBits(flat(delta).map((v) => signedOut(v, 19)), 19);
  return frame(SIG, [cTilde, zb, db]);
}

// ---------------------------------------------------------------- §4.9 Verify

/** N2 = Σ cent_q(z)² + 2^58·Σ Δ² over the integers; z, Δ as signed (centred) values. */
export function norm2(z, delta) {
  let s = 0n;
  for (const v of flat(z)) s += BigInt(v) ** 2n;
  let d = 0n;
  for (const v of flat(delta)) d += BigInt(v) ** 2n;
  return s + (d << BigInt(2 * NU));
}
export const normOk = (z, delta) => norm2(z, delta) <= B2;

/** μ = TH(MSG; tr, ctx, M; 64). */
export const messageDigest = (tr, context, message) => TH(TAG.MSG, [tr, context, message], 64);

/** c̃ = TH(HC; tr, μ, enc19(w); 32), the enc19 bytes of all 8 polys as one tuple item. */
export const challengeSeed = (tr, mu, w) => TH(TAG.HC, [tr, mu, enc19(w)], 32);

/** Round_ν(A·z − 2^ξ·c·b̃) coefficient-wise on [0, q) representatives. */
export function commitment(A, bTilde, c, z) {
  const zq = z.map((p) => p.map((v) => mod(v, QN)));
  const Az = matVec(A, zq);
  return Az.map((poly, r) => {
    const cb = ternaryMul(c, bTilde[r].map((v) => v * 2 ** XI)); // lift: b̃·2^30 ∈ [0, 2^48)
    return poly.map((v, i) => roundNu(mod(v - cb[i], QN)));
  });
}

/** Every intermediate of §4.9, for tests and for debugging a disagreement. Throws on decode errors. */
export function verifyDetail(groupKeyBytes, message, context, signatureBytes) {
  if (context.length > 255) throw new Error('context longer than 255 bytes');
  const { rho, bTilde, tr } = decodeGroupKey(groupKeyBytes);
  const { cTilde, z, delta } = decodeSignature(signatureBytes);
  const mu = messageDigest(tr, context, message);
  const c = sampleInBall(cTilde);
  const w = commitment(expandA(rho), bTilde, c, z);
  const wPrime = w.map((poly, r) => poly.map((v, i) => mod(v + delta[r][i], 2 ** 19)));
  const cTildePrime = challengeSeed(tr, mu, wPrime);
  const n2 = norm2(z, delta);
  const hashOk = cTildePrime.every((b, i) => b === cTilde[i]);
  return { tr, mu, c, wPrime, cTilde, cTildePrime, n2, hashOk, normOk: n2 <= B2, ok: hashOk && n2 <= B2 };
}

/** Verify(pk, M, ctx, σ) → boolean; any decoding defect rejects. */
export function verify(groupKeyBytes, message, context, signatureBytes) {
  try {
    return verifyDetail(groupKeyBytes, message, context, signatureBytes).ok;
  } catch {
    return false;
  }
}
