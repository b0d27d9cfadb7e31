// The page of a browser process (www/node/index.html): loads the package, then joins the
// cluster a roster describes with this process's key file and serves one run. Tests call
// `window.quasarNode.join(…)` with the same inputs.

import * as lib from '/js/index.js';
import { joinCluster } from './host.js';

const logBox = document.getElementById('log');
const log = (line) => {
  logBox.textContent += `${line}\n`;
};

/** Joins, serves one run, closes; resolves with the run's public results. */
async function join({ roster, key, process, timeout = 20_000, idle = 600_000 }) {
  await lib.init();
  const cluster = await joinCluster({ lib, roster, key, process, timeout, idle, log });
  log(`process ${process}: peer ${cluster.peerId}`);
  try {
    await cluster.connect();
    log('connected to every native process; waiting for the conductor');
    const result = await cluster.run();
    for (const n of result.nodes) {
      log(`node ${n.addr}: ${n.commands.map((c) => `${c.cmd}→${c.status}${c.code ? ` ${c.code}` : ''}`).join(', ')}`);
      if (n.signature) log(`node ${n.addr}: the ${result.scheme.name} signature ${n.verified ? 'verified' : 'made'} (${n.signature.length} bytes)`);
    }
    log(`messages: ${cluster.stats.sent} sent (${cluster.stats.sealed} sealed), ${cluster.stats.received} received (${cluster.stats.opened} opened), ${cluster.stats.dropped} dropped`);
    // Plain arrays: what a test's page.evaluate can carry out.
    const plain = (b) => (b ? Array.from(b) : null);
    const nodes = result.nodes.map((n) => ({ ...n, publicKey: plain(n.publicKey), signature: plain(n.signature) }));
    return { ...result, nodes, stats: { ...cluster.stats } };
  } finally {
    await cluster.close();
  }
}

window.quasarNode = { join };
document.body.dataset.ready = 'true';

// `npm run mixed` serves a roster and this page's key under /cluster/: join at once.
(async () => {
  const index = await fetch('/cluster/index.json')
    .then((r) => (r.ok ? r.json() : { cluster: false }))
    .catch(() => ({ cluster: false }));
  if (!index.cluster) return;
  document.getElementById('join').hidden = true;
  const [roster, key] = await Promise.all(['roster.json', 'process.json'].map((f) => fetch(`/cluster/${f}`).then((r) => r.json())));
  log(`npm run mixed: playing process ${index.process}`);
  try {
    await join({ roster, key, process: index.process });
  } catch (e) {
    log(`error: ${e.code ?? ''} ${e.message}`);
  }
})();

document.getElementById('join').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  try {
    const roster = JSON.parse(await document.getElementById('roster').files[0].text());
    const key = JSON.parse(await document.getElementById('key').files[0].text());
    const process = Number(document.getElementById('process').value);
    await join({ roster, key, process });
  } catch (e) {
    log(`error: ${e.code ?? ''} ${e.message}`);
  }
});
