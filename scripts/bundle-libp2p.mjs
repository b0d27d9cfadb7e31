#!/usr/bin/env node
// Bundles the js-libp2p a browser process of a `quasar node` cluster uses (www/node/libp2p.js)
// into pkg/libp2p.js with esbuild (generated, git-ignored, served by scripts/serve.mjs; never
// part of the npm package, whose modules carry no network code). Prints its raw and gzip size.
//
//   node scripts/bundle-libp2p.mjs

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { ROOT, fail } from './setup.mjs';

export const BUNDLE = join(ROOT, 'pkg', 'libp2p.js');

export async function bundleLibp2p() {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    fail('esbuild is not installed; run `npm install` (or `npm run setup`).');
  }
  await esbuild.build({
    entryPoints: [join(ROOT, 'www', 'node', 'libp2p.js')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    outfile: BUNDLE,
    logLevel: 'warning',
  });
  const b = readFileSync(BUNDLE);
  return { raw: b.length, gzip: gzipSync(b, { level: 9 }).length };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const s = await bundleLibp2p();
  console.log(`pkg/libp2p.js (js-libp2p for browser processes): ${s.raw} bytes, ${s.gzip} gzip -9`);
}
