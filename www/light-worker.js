// quasar-pq demo: the light (verify-only) build in a Web Worker, as a light client would run it,
// so that no check blocks the page. The page (www/light-verifier.js) sends requests by id:
//
//   { id, op: 'follow', set, policy, chain: [{ name, certificate, nextSet? }] }
//       → one { id, event: 'block', index, name, report, update, updateMs, client } per block,
//         then { id, result: { client } }
//   { id, op: 'magnetar-check', mode, validators, sets: [[{ id, signature }]], message, context }
//       → { id, result: { totalWeight, verdicts: [{ ...verdict, ms, bytes }] } }
//
// and an error as { id, error: { name, code, message } }. For Magnetar the worker plays two
// roles, each with its own build: the aggregator frames each set of contributions into a MAGA
// certificate (`magnetar.aggregate`, the full build, loaded only for it), and the light client
// checks it (the light build) — megabytes at K = 64, kept off the page. No cryptography here:
// every verdict is the library's (`verifyCertificate`, `LightClient.update`,
// `MagnetarRegistry.verifyAggregate`).

const ready = import('/js/verify.js').then(async (light) => {
  await light.init();
  return light;
});
/** The full build, for the Magnetar aggregator only (a light client never needs it). */
let full = null;
const aggregator = () =>
  (full ??= import('/js/index.js').then(async (lib) => {
    await lib.init();
    return lib;
  }));

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

async function magnetarCheck(light, { mode, validators, sets, message, context }) {
  const { magnetar } = await aggregator();
  const registry = new light.MagnetarRegistry(mode, validators);
  try {
    const verdicts = sets.map((contributions) => {
      const cert = magnetar.aggregate(mode, contributions);
      const t0 = performance.now();
      const v = registry.verifyAggregate(cert, message, { context });
      return { ...v, ms: performance.now() - t0, bytes: cert.length };
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
    else if (data.op === 'magnetar-check') result = await magnetarCheck(light, data);
    else throw new Error(`light worker: unknown op ${data.op}`);
    postMessage({ id: data.id, result });
  } catch (err) {
    postMessage({ id: data.id, error: { name: err?.name ?? 'Error', code: err?.code, message: err?.message ?? String(err) } });
  }
});
