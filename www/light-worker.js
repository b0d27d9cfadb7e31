// quasar-pq demo: the light (verify-only) build in a Web Worker, as a light client would run it,
// so that no check blocks the page. The page (www/light-verifier.js) sends requests by id:
//
//   { id, op: 'follow', set, policy, chain: [{ name, certificate, nextSet? }] }
//       → one { id, event: 'block', index, name, report, update, updateMs, client } per block,
//         then { id, result: { client } }
//   { id, op: 'magnetar-check', mode, validators, certificates: [bytes], message, context }
//       → { id, result: { totalWeight, verdicts: [{ ...verdict, ms }] } }
//
// and an error as { id, error: { name, code, message } }. No cryptography here: every verdict is
// the light build's (`verifyCertificate`, `LightClient.update`, `MagnetarRegistry.verifyAggregate`).

const ready = import('/js/verify.js').then(async (light) => {
  await light.init();
  return light;
});

/** Where the client stands now (BigInts kept: structured clone carries them). */
function clientState(client) {
  return { epoch: client.epoch, height: client.height, keyEra: client.keyEra, setRoot: client.setRoot };
}

async function follow(light, { id, set, policy, chain }) {
  const client = new light.LightClient(set, policy);
  // The set the client trusts now: `verifyCertificate` reports each leg against it.
  let trusted = set;
  try {
    chain.forEach((block, index) => {
      const report = light.verifyCertificate(block.certificate, trusted, policy, { full: true });
      const t0 = performance.now();
      const update = client.update(block.certificate, block.nextSet);
      const updateMs = performance.now() - t0;
      if (update.ok && block.nextSet) trusted = block.nextSet;
      postMessage({ id, event: 'block', index, name: block.name, report, update, updateMs, client: clientState(client) });
    });
    return { client: clientState(client) };
  } finally {
    client.free();
  }
}

function magnetarCheck(light, { mode, validators, certificates, message, context }) {
  const registry = new light.MagnetarRegistry(mode, validators);
  try {
    const verdicts = certificates.map((cert) => {
      const t0 = performance.now();
      const v = registry.verifyAggregate(cert, message, { context });
      return { ...v, ms: performance.now() - t0 };
    });
    return { totalWeight: registry.totalWeight, verdicts };
  } finally {
    registry.free();
  }
}

self.addEventListener('message', async ({ data }) => {
  try {
    const light = await ready;
    let result;
    if (data.op === 'follow') result = await follow(light, data);
    else if (data.op === 'magnetar-check') result = magnetarCheck(light, data);
    else throw new Error(`light worker: unknown op ${data.op}`);
    postMessage({ id: data.id, result });
  } catch (err) {
    postMessage({ id: data.id, error: { name: err?.name ?? 'Error', code: err?.code, message: err?.message ?? String(err) } });
  }
});
