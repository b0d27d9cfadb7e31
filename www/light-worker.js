// quasar-pq demo: the light (verify-only) build in a Web Worker, as a light client would run it,
// so that no check blocks the page. The page (www/light-verifier.js) sends requests by id:
//
//   { id, op: 'follow', set, policy, chain: [{ name, certificate, nextSet? }] }
//       → one { id, event: 'block', index, name, report, update, updateMs, client } per block,
//         then { id, result: { client } }
//   { id, op: 'live-start', set, policy }  → { id, result: { client } }: a client kept for
//       'live-blocks' (a chain followed as it grows; a new 'live-start' replaces it)
//   { id, op: 'live-blocks', blocks: [{ name, certificate, nextSet? }] }
//       → one 'block' event per block it took, then { id, result: { client, taken, waiting } }:
//         it stops before a block that commits to a next set it was not given (`waiting`: the
//         page sends it again with that set)
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

/** Every leg of `block` against the set `state` trusts now. */
const verifyFull = (light, state, block) =>
  light.verifyCertificate(block.certificate, state.trusted, state.policy, { full: true });

/**
 * One block for `state` ({ client, trusted, policy }): each leg's verdict against the set the
 * client trusts now, then the client's decision. Returns the event.
 */
function step(light, state, block, nextSet, report = verifyFull(light, state, block)) {
  const t0 = performance.now();
  const update = state.client.update(block.certificate, nextSet);
  const updateMs = performance.now() - t0;
  if (update.ok && nextSet) state.trusted = nextSet;
  return { name: block.name, report, update, updateMs, client: clientState(state.client) };
}

async function follow(light, { id, set, policy, chain }) {
  const state = { client: new light.LightClient(set, policy), trusted: set, policy };
  try {
    chain.forEach((block, index) => {
      postMessage({ id, event: 'block', index, ...step(light, state, block, block.nextSet) });
    });
    return { client: clientState(state.client) };
  } finally {
    state.client.free();
  }
}

/** The live client ({ client, trusted, policy, index }), between 'live-blocks' requests. */
let live = null;

function liveStart(light, { set, policy }) {
  live?.client.free();
  live = null;
  live = { client: new light.LightClient(set, policy), trusted: set, policy, index: 0 };
  return { client: clientState(live.client) };
}

function liveBlocks(light, { id, blocks }) {
  if (!live) throw new Error('light worker: live-blocks before live-start');
  let taken = 0;
  for (const block of blocks) {
    // A block that ends its epoch needs the next set; the page has not seen it yet.
    const report = verifyFull(light, live, block);
    const ends = Boolean(report.header?.nextSetRoot);
    if (ends && !block.nextSet) return { client: clientState(live.client), taken, waiting: block.name };
    postMessage({ id, event: 'block', index: live.index++, ...step(light, live, block, ends ? block.nextSet : undefined, report) });
    taken += 1;
  }
  return { client: clientState(live.client), taken, waiting: null };
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
    else if (data.op === 'live-start') result = liveStart(light, data);
    else if (data.op === 'live-blocks') result = liveBlocks(light, data);
    else if (data.op === 'magnetar-check') result = await magnetarCheck(light, data);
    else throw new Error(`light worker: unknown op ${data.op}`);
    postMessage({ id: data.id, result });
  } catch (err) {
    postMessage({ id: data.id, error: { name: err?.name ?? 'Error', code: err?.code, message: err?.message ?? String(err) } });
  }
});
