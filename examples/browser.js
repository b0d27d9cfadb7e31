// The module script of examples/browser.html: the light client of examples/light-client.mjs,
// in a page, reading the package's sample chain over HTTP.
import { init, LightClient } from 'quasar-pq/verify';
const out = document.getElementById('out');
const lines = [];
const show = (line) => {
  lines.push(line);
  out.textContent = lines.join('\n');
};
await init();                                               // fetches the light module beside js/verify.js
const sample = new URL('../sample/', import.meta.url);
const load = async (file) => new Uint8Array(await (await fetch(new URL(file, sample))).arrayBuffer());
const chain = await (await fetch(new URL('chain.json', sample))).json();
const client = new LightClient(await load(chain.sets[0]), 'pq-fast');
for (const block of chain.blocks) {
  const nextSet = block.nextSet && (await load(block.nextSet));
  const r = client.update(await load(block.certificate), nextSet);
  show(`block ${block.height}: ${r.ok ? 'final' : `refused ${r.code}`}${r.newEpoch !== undefined ? `, now at epoch ${r.newEpoch}` : ''}`);
}
show(`client at epoch ${client.epoch}, height ${client.height}`);
client.free();
document.body.dataset.done = 'true';
