// The peer crates compiled to WebAssembly (benches/wasm-peer: fips205, RustCrypto slh-dsa,
// libcrux-ml-dsa behind a C ABI), for the benches that time them in the same Node process as
// ours. Not part of the package.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PEER_WASM = `${ROOT}target/wasm-peer/wasm32-unknown-unknown/release/quasar_pq_wasm_peer.wasm`;

/**
 * The peer module's exports and `put(bytes)` → [pointer, length] (a copy in its memory), built
 * first (cargo is incremental: a no-op when it is up to date; from the repository root, so
 * .cargo/config.toml enables simd128 as for ours); null when it cannot be built.
 */
export async function loadPeerModule() {
  const r = spawnSync('cargo', [
    'build', '--release', '--target', 'wasm32-unknown-unknown',
    '--manifest-path', 'benches/wasm-peer/Cargo.toml', '--target-dir', 'target/wasm-peer',
  ], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.error || r.status !== 0 || !existsSync(PEER_WASM)) return null;
  const { instance } = await WebAssembly.instantiate(readFileSync(PEER_WASM));
  const x = instance.exports;
  const put = (b) => {
    const p = x.peer_alloc(Math.max(1, b.length));
    new Uint8Array(x.memory.buffer, p, b.length).set(b);
    return [p, b.length];
  };
  return { x, put };
}
