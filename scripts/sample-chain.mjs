#!/usr/bin/env node
// Writes sample/: the small chain the package ships for its light-client example
// (examples/light-client.mjs, examples/browser.html). Made at build time with the full build's
// `testChain` from a fixed seed (so every build writes the same bytes), never committed:
//   sample/chain.json   the manifest: how the chain was made, its sets and its blocks in order
//   sample/set-E.qvst   the validator set of epoch E (set-0 is the checkpoint a client trusts)
//   sample/block-H.qcrt the certificate of block H (an epoch's last block names its next set)
// Four validators, two epochs of three blocks, one epoch change with a Pulsar reshare, policy
// pq-fast. Every key comes from the seed printed in the manifest: a sample, not a real chain.
//
// Usage: node scripts/sample-chain.mjs   (after `node scripts/build-wasm.mjs full`)

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SAMPLE_DIR = join(ROOT, 'sample');

/** What the sample is: testChain's options (the seed is the bytes 0, 1, …, 31). */
export const SAMPLE = Object.freeze({
  seed: Uint8Array.from({ length: 32 }, (_, i) => i),
  chainId: 1,
  validators: 4,
  policy: 'pq-fast',
  epochs: 2,
  blocks: 3,
});

const hex = (b) => Buffer.from(b).toString('hex');

export async function writeSample(dir = SAMPLE_DIR) {
  const { init, testChain } = await import('../js/index.js');
  await init();
  const chain = testChain(SAMPLE);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const manifest = {
    name: 'quasar-pq sample chain',
    generator: 'scripts/sample-chain.mjs: testChain (full build) with the options below',
    options: { ...SAMPLE, seed: hex(SAMPLE.seed) },
    sets: [],
    blocks: [],
  };
  chain.sets.forEach((set, epoch) => {
    const file = `set-${epoch}.qvst`;
    writeFileSync(join(dir, file), set);
    manifest.sets.push(file);
  });
  let epoch = 0;
  chain.blocks.forEach((block, i) => {
    const height = i + 1;
    const entry = { height, epoch, certificate: `block-${height}.qcrt` };
    writeFileSync(join(dir, entry.certificate), block.certificate);
    if (block.nextSet) {
      epoch += 1;
      entry.nextSet = manifest.sets[epoch];
    }
    manifest.blocks.push(entry);
  });
  writeFileSync(join(dir, 'chain.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const m = await writeSample();
  console.log(`sample/: ${m.sets.length} validator sets, ${m.blocks.length} certificates (policy ${m.options.policy})`);
}
