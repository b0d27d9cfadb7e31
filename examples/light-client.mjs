// A light client following the sample chain the package ships (sample/: four validators, two
// epochs, one epoch change with a Pulsar reshare, policy pq-fast): from the checkpoint set it
// trusts, block by block, across the epoch change; then a forged certificate is refused.
import { readFile } from 'node:fs/promises';
import { init, LightClient, verifyCertificate } from 'quasar-pq/verify'; // light build; also in 'quasar-pq'
await init();
const sample = new URL('./', import.meta.resolve('quasar-pq/sample/chain.json'));
const load = async (file) => new Uint8Array(await readFile(new URL(file, sample)));
const chain = JSON.parse(await readFile(new URL('chain.json', sample), 'utf8')); // the manifest
const checkpoint = await load(chain.sets[0]);               // QVST bytes you trust (out of band)
const client = new LightClient(checkpoint, 'pq-fast');      // the policy is yours
for (const block of chain.blocks) {
  const certificate = await load(block.certificate);
  const nextSet = block.nextSet && (await load(block.nextSet)); // an epoch's last block carries the next set
  const r = client.update(certificate, nextSet);              // { ok, code?, reason?, epoch, newEpoch?, header?, report? }
  console.log(`block ${block.height}: ${r.ok ? 'final' : `refused ${r.code}`}${r.newEpoch !== undefined ? `, now at epoch ${r.newEpoch}` : ''}`);
}
console.log(`client at epoch ${client.epoch}, height ${client.height}`);

// One-off verification with the full report: legs, signers, weight, µs per leg.
const first = await load(chain.blocks[0].certificate);
const report = verifyCertificate(first, checkpoint, 'pq-fast', { full: true });
for (const leg of report.legs) console.log(`  ${leg.kind}: ${leg.verdict}${leg.signers ? `, ${leg.signers} signers` : ''}`);
const forged = first.slice();
forged[forged.length - 100] ^= 1;                           // one byte of the Pulsar signature
const refused = verifyCertificate(forged, checkpoint, 'pq-fast');
console.log('forged:', refused.ok ? 'accepted' : `refused ${refused.code}`);
client.free();
