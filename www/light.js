// quasar-pq demo, light-client tab: a chain of finality certificates across an epoch change,
// followed block by block by the light build (`quasar-pq/verify`) in a Web Worker
// (www/light-worker.js), so the page never freezes: `LightClient.update` decides,
// `verifyCertificate` against the set the client trusts for that epoch shows each leg's verdict
// and time. The chain is the golden one of kats/cert.json (made by `cargo run --bin genkat`
// with the library's devnet): epoch 0 of four validators, an epoch change to a set where one
// validator left and two joined and the Pulsar custody group was reshared to them under the same
// group key (same key era), and a block of epoch 1. Or the committee chain of the same file: its
// Pulsar leg signed by a 3-of-4 Pulsar committee whose key no machine ever held (threshold ML-DSA
// without reconstruction), whose first member leaves at the epoch change — so epoch 1 is signed
// by a new committee under a new key, in key era 1, which the client follows. Or the Corona chain:
// four validators whose certificates also carry a Corona leg (a 3-of-4 threshold lattice
// signature of the set's Corona group, whose key a trusted dealer made: here, the devnet) and an
// ML-DSA set leg, followed under pq-strict or strict-pq-strict; its first validator leaves at the
// epoch change, so epoch 1 has a newly dealt Corona group, a new key in key era 1. Each toggle
// swaps in the matching golden broken certificate or the golden forged next set; the client must
// refuse it, with its reason. The policy is the client's choice, never the certificate's.
// When the page's server follows a devnet (`npm run devnet`: scripts/serve.mjs --live DIR), a
// "Live devnet" chain is offered too: the client trusts its set-0 and follows its certificates
// as the devnet writes them, polling /live/index.json, until it has been quiet for a while.
//
// Rows are labelled by the height in each certificate's header; a jump in heights gets a row of
// its own saying why (a light client needs no certificate per block). The summary is written
// from the same events as the rows: where the client ended, and every refusal with its reason.
//
// No cryptography here: every verdict is the library's.

import { describeError, fmtMs, hex, setStatus } from './util.js';
import { lightVerifier } from './light-verifier.js';

const $ = (id) => document.getElementById(id);

/**
 * Each leg in one line: what signs it, and whom that trusts. Shown for the legs the chosen
 * policy requires, and as each leg's tooltip in the table.
 */
export const LEG_NOTES = {
  bls: 'BLS: one BLS12-381 aggregate signature by more than 2/3 of the weight (classical: not post-quantum).',
  pulsar: 'Pulsar: one threshold ML-DSA signature under the epoch’s Pulsar group key.',
  corona:
    'Corona: a t-of-n threshold lattice signature of the set’s Corona group; a trusted dealer made its key ' +
    '(here the devnet that made the chain was that dealer, so it could sign alone).',
  magnetar: 'Magnetar: each signer’s own SLH-DSA (hash-based) signature, by more than 2/3 of the weight; no threshold.',
  'mldsa-set': 'ML-DSA set: one ML-DSA signature per signer, by more than 2/3 of the weight.',
};

/**
 * The legs each policy offered here requires, as Rust's `Policy` table says (the page loads no
 * WebAssembly; every run's report lists the legs the library required, and the tests compare).
 */
export const POLICY_LEGS = {
  'pq-fast': ['bls', 'pulsar'],
  'pq-heavy': ['bls', 'pulsar', 'magnetar'],
  'strict-pq-fast': ['pulsar', 'mldsa-set'],
  'pq-strict': ['bls', 'pulsar', 'corona'],
  'strict-pq-strict': ['pulsar', 'corona', 'mldsa-set'],
};

/**
 * The golden chains: the set the client trusts, the policies the client may follow it under
 * (the first by default: every certificate carries their legs), the blocks ([certificate, next
 * set on an epoch's last block]), what the chain is, and what the key era means at the end.
 */
export const CHAINS = {
  custody: {
    label: 'Pulsar custody group (reshared under the same key)',
    set: 'epoch-0',
    policies: ['pq-fast'],
    blocks: [
      ['fast', null],
      ['heavy', null],
      ['end-of-epoch-0', 'epoch-1'],
      ['epoch-1', null],
    ],
    about:
      'Epoch 0 has four validators; its last block commits to the set of epoch 1, where one validator left, two ' +
      'joined, and the Pulsar custody group was reshared to them under the same group key (same key era).',
    era: 'the reshared Pulsar group signs under the same key',
  },
  committee: {
    label: 'Pulsar committee (no machine ever held its key)',
    set: 'committee-epoch-0',
    policies: ['pq-fast'],
    blocks: [
      ['committee-1', null],
      ['committee-end-of-epoch-0', 'committee-epoch-1'],
      ['committee-epoch-1', null],
    ],
    about:
      'Epoch 0 has four validators; a 3-of-4 Pulsar committee whose key no machine ever held signs the Pulsar leg. ' +
      'Its first member leaves at the epoch change, so epoch 1 has a new committee.',
    era:
      'the Pulsar leg is signed by a committee whose key no machine ever held; a committee key is never reshared, ' +
      'so the new committee of epoch 1 signs under a new key in the next key era',
  },
  corona: {
    label: 'Corona group (a threshold lattice leg, dealt anew at the epoch change)',
    set: 'strict-epoch-0',
    policies: ['pq-strict', 'strict-pq-strict'],
    blocks: [
      ['strict-1', null],
      ['strict-end-of-epoch-0', 'strict-epoch-1'],
      ['strict-epoch-1', null],
    ],
    about:
      'Epoch 0 has four validators of weight 1; every certificate carries a BLS, a Pulsar (custody group), a Corona ' +
      '(3 of 4) and an ML-DSA set leg, so it meets both PQ-strict policies. At the epoch change the first validator ' +
      'leaves and one joins: the Pulsar custody group is reshared under its key, and a new Corona group is dealt for epoch 1.',
    era:
      'a Corona key is never reshared: the group dealt anew for epoch 1 signs under a new key in the next key era, ' +
      'which the last block of epoch 0 committed to',
  },
};

/**
 * The live chain: what a devnet (`quasar … --chain DIR`, `npm run devnet`) writes, served by
 * this page's server under /live/ and followed as it grows. Offered only when the server has
 * one (`node scripts/serve.mjs --live DIR`).
 */
export const LIVE = {
  label: 'Live devnet (this server’s /live/: validators on loopback, certified as they go)',
  live: true,
  policies: ['pq-heavy', 'strict-pq-fast'],
  about:
    'A devnet running now: each validator signs every block with its own BLS, ML-DSA-44 and Magnetar keys, a ' +
    'Pulsar quorum signs its certificate’s message, and an aggregator writes each certificate as it is made; the ' +
    'client follows them as they appear, across the epoch change the devnet’s reshare makes. It trusts set-0 as ' +
    'this server gives it (compare its root with the devnet’s output).',
  era: 'the reshared Pulsar group signs under the same key',
};
/** How often the live chain is polled, and how long without a new certificate ends the follow. */
const LIVE_POLL_MS = 400;
const LIVE_QUIET_MS = 15000;
/** The most certificates one live follow takes (a bound, far above any devnet run here). */
const LIVE_MAX = 10000;

const first = (name) => (c) => c.map((b, i) => (i === 0 ? [name, b[1]] : b));
const skipEpoch = (c) => c.filter((b) => !b[1]);

/** Each toggle: what it changes in each chain that has it, and the refusal it must meet. */
export const TOGGLES = {
  'bls-leg': { label: 'break one leg: a BLS signature from another block, in the first certificate', expect: 'INVALID_SIGNATURE', apply: { custody: first('bls-broken') } },
  'pulsar-leg': { label: 'break one leg: flip a byte of the Pulsar signature in the first certificate', expect: 'INVALID_SIGNATURE', apply: { custody: first('pulsar-broken'), committee: first('committee-pulsar-broken') } },
  'corona-leg': { label: 'break one leg: flip a byte of the Corona signature in the first certificate', expect: 'INVALID_SIGNATURE', apply: { corona: first('strict-corona-broken') } },
  quorum: { label: 'quorum: instead of the second certificate, a block signed by 60 of the 100 weight', expect: 'QUORUM_NOT_MET', apply: { custody: (c) => c.map((b, i) => (i === 1 ? ['bls-quorum-one-short', b[1]] : b)) } },
  'forged-set': { label: 'epoch change: a forged next set (one weight changed) with the last block of epoch 0', expect: 'NEXT_SET_MISMATCH', apply: { custody: (c) => c.map((b) => (b[1] ? [b[0], 'epoch-1-forged'] : b)) } },
  'skip-epoch': { label: 'epoch change: the last block of epoch 0 never arrives', expect: 'SKIPPED_EPOCH', apply: { custody: skipEpoch, committee: skipEpoch, corona: skipEpoch } },
};

const COLUMNS = ['Height', 'Epoch', 'Light client', 'Legs', 'update()'];
const GAP_WHY =
  'no certificate for these blocks in this chain. A light client needs none: a final block at a later height ' +
  'of the same epoch supersedes them. Only an epoch’s last block, which commits to the next set, cannot be skipped.';

const hexBytes = (h) => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16));
const heightText = (h) => (h === undefined || h === null ? 'none yet' : String(h));

export function setupLightClient({ light }) {
  const el = {
    status: $('lc-status'),
    chain: $('lc-chain'),
    policy: $('lc-policy'),
    policyNote: $('lc-policy-note'),
    legs: $('lc-legs'),
    about: $('lc-about'),
    toggle: $('lc-toggle'),
    run: $('lc-run'),
    verdict: $('lc-verdict'),
    detail: $('lc-detail'),
    refusals: $('lc-refusals'),
    blocks: $('lc-blocks'),
    trust: $('lc-trust'),
    source: $('lc-source'),
  };
  let kats = null;
  let runs = 0;
  let busy = false;

  const byName = (list, name) => list.find((x) => x.name === name);
  function certOf(name) {
    const c = byName(kats.certificates, name);
    if (c.bytes !== undefined) return hexBytes(c.bytes);
    const b = [...certOf(c.base)];
    for (const s of c.splices) b.splice(s.at, s.cut, ...hexBytes(s.insert));
    return Uint8Array.from(b);
  }
  const setOf = (name) => hexBytes(byName(kats.sets, name).bytes);

  const chains = { ...CHAINS };
  function addChain(value, c) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = c.label;
    el.chain.append(o);
  }
  for (const [value, c] of Object.entries(CHAINS)) addChain(value, c);
  /** The breaks the chosen chain has. */
  function fillToggles() {
    const chain = el.chain.value;
    const kept = el.toggle.value;
    el.toggle.replaceChildren();
    for (const [value, t] of [['', { label: 'nothing: the honest chain', apply: { [chain]: true } }], ...Object.entries(TOGGLES)]) {
      if (!t.apply[chain]) continue;
      const o = document.createElement('option');
      o.value = value;
      o.textContent = t.label;
      el.toggle.append(o);
    }
    if ([...el.toggle.options].some((o) => o.value === kept)) el.toggle.value = kept;
  }
  /** The policies the chosen chain may be followed under, the first by default. */
  function fillPolicies() {
    const spec = chains[el.chain.value];
    const kept = el.policy.value;
    el.policy.replaceChildren(
      ...spec.policies.map((p) => {
        const o = document.createElement('option');
        o.value = p;
        o.textContent = p;
        return o;
      }),
    );
    if (spec.policies.includes(kept)) el.policy.value = kept;
    el.about.textContent = spec.about;
    describePolicy();
  }
  /** What the chosen policy requires of every block: each leg, with its note. */
  function describePolicy() {
    const legs = POLICY_LEGS[el.policy.value];
    el.policyNote.textContent =
      `Policy ${el.policy.value} (the client’s choice; a certificate never says which policy it meets): ` +
      `every block needs these ${legs.length} legs, each valid under the set the client trusts for its epoch.`;
    el.legs.replaceChildren(
      ...legs.map((kind) => {
        const li = document.createElement('li');
        li.dataset.kind = kind;
        li.textContent = LEG_NOTES[kind];
        return li;
      }),
    );
  }
  fillToggles();
  fillPolicies();
  el.chain.addEventListener('change', () => {
    fillToggles();
    fillPolicies();
  });
  el.policy.addEventListener('change', describePolicy);
  el.trust.textContent = light.CERT_TRUST_MODEL;

  function cell(tr, text, cls) {
    const td = document.createElement('td');
    td.textContent = text;
    td.dataset.label = COLUMNS[tr.cells.length];
    if (cls) td.className = cls;
    tr.append(td);
    return td;
  }

  /** A row for the heights no certificate covers, between two shown blocks. */
  function gapRow(from, to) {
    const tr = document.createElement('tr');
    tr.className = 'gap';
    const td = document.createElement('td');
    td.colSpan = COLUMNS.length;
    const span = from === to ? `Height ${from}` : `Heights ${from}–${to}`;
    td.textContent = `${span}: ${GAP_WHY}`;
    tr.append(td);
    return tr;
  }

  /** One block's row from the worker's event: the header, the client's decision, each leg. */
  function blockRow({ name, report, update: u, updateMs, client }) {
    const tr = document.createElement('tr');
    tr.dataset.certificate = name;
    tr.dataset.verdict = u.ok ? 'accepted' : 'refused';
    if (!u.ok) tr.dataset.code = u.code;
    const h = report.header;
    if (h) {
      tr.dataset.height = String(h.height);
      tr.dataset.epoch = String(h.epoch);
    }
    tr.dataset.clientEpoch = String(client.epoch);
    tr.dataset.clientHeight = heightText(client.height);
    cell(tr, h ? `${h.height}` : '—', 'height');
    cell(tr, h ? `${h.epoch}${h.nextSetRoot ? ` → next set ${hex(h.nextSetRoot, 4)}` : ''}` : '—');
    cell(
      tr,
      u.ok ? `accepted${u.newEpoch !== undefined ? `, now epoch ${u.newEpoch}` : ''}` : `refused: ${u.code}: ${u.reason}`,
      u.ok ? 'ok decision' : 'bad decision',
    );
    // One box for the legs, so a phone's stacked row keeps them under one label.
    const legs = document.createElement('div');
    cell(tr, '', 'legs').append(legs);
    for (const l of report.legs) {
      const span = document.createElement('span');
      span.className = 'leg';
      span.dataset.state = l.verdict;
      span.dataset.kind = l.kind;
      if (LEG_NOTES[l.kind]) span.title = LEG_NOTES[l.kind];
      const weight = l.weight !== undefined ? `, ${l.signers} signers, weight ${l.weight}/${report.totalWeight}` : '';
      const time = l.micros !== undefined ? ` ${fmtMs(l.micros / 1000)}` : '';
      span.textContent = `${l.kind}: ${l.verdict}${l.code ? ` (${l.code})` : ''}${weight}${time}`;
      legs.append(span);
    }
    cell(tr, fmtMs(updateMs));
    return tr;
  }

  /** The summary, from the same events as the rows: where the client ended, every refusal. */
  function summarise(events, client, ms, spec, policy) {
    const refused = events.filter((e) => !e.update.ok);
    const accepted = events.filter((e) => e.update.ok);
    const where = `epoch ${client.epoch}, height ${heightText(client.height)}`;
    el.verdict.dataset.code = refused.length ? refused[0].update.code : '';
    el.verdict.dataset.epoch = String(client.epoch);
    el.verdict.dataset.height = heightText(client.height);
    el.verdict.dataset.refused = refused.map((e) => e.report.header?.height ?? '—').join(',');
    setStatus(
      el.verdict,
      refused.length ? 'invalid' : 'valid',
      refused.length
        ? `${refused.length} of ${events.length} refused · client at ${where}`
        : `Chain followed: ${where}`,
    );
    const last = accepted.at(-1);
    const lastText = last
      ? `the last block it accepted is at height ${last.report.header?.height ?? '—'} of epoch ${last.report.header?.epoch ?? '—'}` +
        (last.update.newEpoch !== undefined ? `, which moved it to epoch ${last.update.newEpoch}` : '')
      : 'it accepted no block, so it still trusts only the set it started from';
    el.detail.textContent = refused.length
      ? `The client ended at ${where}: ${lastText}. A refused block changes nothing (the client keeps its set and ` +
        `height, and judges later blocks from there). Refused:`
      : `Every certificate final under ${policy}; the client ended at ${where}: ${lastText} (key era ${client.keyEra}: ` +
        `${spec.era}), set root ${hex(client.setRoot, 8)}, in ${fmtMs(ms)}.`;
    el.refusals.replaceChildren(
      ...refused.map((e) => {
        const li = document.createElement('li');
        const h = e.report.header;
        li.dataset.height = h ? String(h.height) : '—';
        li.dataset.code = e.update.code;
        li.textContent = `${h ? `height ${h.height} (epoch ${h.epoch})` : `the certificate “${e.name}” (no readable header)`}: ${e.update.code}: ${e.update.reason}`;
        return li;
      }),
    );
  }

  function setBusy(on) {
    busy = on;
    el.run.disabled = on;
    el.toggle.disabled = on;
    el.chain.disabled = on;
    el.policy.disabled = on;
  }

  /** Empties the table and the verdict for a new run, which `state` describes. */
  function clear(state) {
    el.blocks.replaceChildren();
    el.refusals.replaceChildren();
    el.detail.textContent = '';
    for (const k of ['code', 'epoch', 'height', 'refused']) delete el.verdict.dataset[k];
    setStatus(el.verdict, 'running', state);
  }

  /** Collects each block event of a run into `events` and shows its row (after a gap row when heights jump). */
  function shower(events) {
    let prevHeight = null;
    return (ev) => {
      events.push(ev);
      const h = ev.report.header?.height;
      if (h !== undefined && prevHeight !== null && BigInt(h) > prevHeight + 1n) {
        el.blocks.append(gapRow(prevHeight + 1n, BigInt(h) - 1n));
      }
      if (h !== undefined) prevHeight = BigInt(h);
      el.blocks.append(blockRow(ev));
    };
  }

  const bytesAt = async (url) => {
    const r = await fetch(url, { cache: 'no-store' });
    if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
    return new Uint8Array(await r.arrayBuffer());
  };
  const liveIndex = async () => {
    const r = await fetch('/live/index.json', { cache: 'no-store' });
    if (!r.ok) throw new Error(`/live/index.json: HTTP ${r.status}`);
    return r.json();
  };
  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

  /** Follows the live chain as it grows, until it has been quiet for LIVE_QUIET_MS. */
  async function runLive(spec, policy) {
    const started = performance.now();
    let index = await liveIndex();
    while (!index.sets.includes(0)) {
      if (performance.now() - started > LIVE_QUIET_MS) throw new Error('the devnet wrote no set-0.qvst yet');
      el.status.textContent = 'Waiting for the devnet’s first validator set…';
      await sleep(LIVE_POLL_MS);
      index = await liveIndex();
    }
    const set = await bytesAt('/live/set-0.qvst');
    const verifier = lightVerifier();
    await verifier.call({ op: 'live-start', set, policy });
    const events = [];
    const onEvent = shower(events);
    let taken = 0;
    let client = null;
    let quietSince = performance.now();
    while (taken < LIVE_MAX && performance.now() - quietSince < LIVE_QUIET_MS) {
      const fresh = index.certs.slice(taken);
      if (fresh.length) {
        const blocks = [];
        for (const [epoch, height] of fresh) {
          const name = `cert-${epoch}-${height}.qcrt`;
          const next = index.sets.includes(epoch + 1) ? await bytesAt(`/live/set-${epoch + 1}.qvst`) : undefined;
          blocks.push({ name, certificate: await bytesAt(`/live/${name}`), nextSet: next });
        }
        const r = await verifier.call({ op: 'live-blocks', blocks }, onEvent);
        client = r.client;
        if (r.taken) quietSince = performance.now();
        taken += r.taken;
        el.status.textContent =
          `Following the live chain under ${policy}: ${taken} certificates so far` +
          (r.waiting ? ` (${r.waiting} ends the epoch; waiting for the next set)` : '') +
          '…';
      }
      await sleep(LIVE_POLL_MS);
      index = await liveIndex();
    }
    if (!client) throw new Error('the devnet wrote no certificate');
    summarise(events, client, performance.now() - started, spec, policy);
    el.status.textContent = `The devnet has been quiet for ${LIVE_QUIET_MS / 1000} s: done. Follow again to start over.`;
  }

  async function run() {
    const toggle = el.toggle.value;
    const spec = chains[el.chain.value];
    const policy = el.policy.value;
    if (spec.live) {
      clear('following…');
      return runLive(spec, policy);
    }
    const chain = (toggle ? TOGGLES[toggle].apply[el.chain.value](spec.blocks) : spec.blocks).map(([name, next]) => ({
      name,
      certificate: certOf(name),
      nextSet: next ? setOf(next) : undefined,
    }));
    clear('verifying…');
    el.status.textContent = `Verifying ${chain.length} certificates under ${policy} in a worker (the light build)…`;
    const events = [];
    const started = performance.now();
    const { client } = await lightVerifier().call(
      { op: 'follow', set: setOf(spec.set), policy, chain },
      shower(events),
    );
    summarise(events, client, performance.now() - started, spec, policy);
    el.status.textContent = 'Done. Pick another break (or none) and follow the chain again.';
  }

  el.run.addEventListener('click', async () => {
    if (busy) return;
    setBusy(true);
    try {
      await run();
    } catch (err) {
      setStatus(el.verdict, 'invalid', `Error: ${describeError(err)}`);
      el.status.textContent = `The run failed: ${describeError(err)}`;
    } finally {
      setBusy(false);
      runs += 1;
      document.body.dataset.lcRuns = String(runs);
    }
  });

  fetch('/kats/cert.json')
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`/kats/cert.json: HTTP ${r.status}`))))
    .then((k) => {
      kats = k;
      el.source.textContent = `The chains are the golden ones of kats/cert.json (${k.generator}): ${k.sets.length} validator sets, ${k.certificates.length} certificates, loaded from /kats/cert.json.`;
      el.status.textContent = 'Ready. Pick what to break (or nothing) and follow the chain.';
      el.run.disabled = false;
    })
    .catch((err) => {
      el.status.textContent = `Could not load the chain: ${describeError(err)}`;
    });
  // A live chain too, if this server follows a devnet (`npm run devnet`); none otherwise.
  liveIndex()
    .then((index) => {
      if (!index.live) throw new Error('no live chain');
      chains.live = LIVE;
      addChain('live', LIVE);
      document.body.dataset.lcLive = 'available';
    })
    .catch(() => {
      document.body.dataset.lcLive = 'none';
    });
}
