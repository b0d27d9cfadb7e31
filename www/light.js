// quasar-pq demo, light-client tab: a chain of finality certificates across an epoch change,
// followed block by block by the light build (`quasar-pq/verify`): `LightClient.update` decides,
// `verifyCertificate` against the set the client trusts for that epoch shows each leg's verdict
// and time. The chain is the golden one of kats/cert.json (made by `cargo run --bin genkat`
// with the library's devnet): epoch 0 of four validators, an epoch change to a set where one
// validator left and two joined and the Pulsar custody group was reshared to them under the same
// group key (same key era), and a block of epoch 1. Each toggle swaps in the matching golden
// broken certificate or the golden forged next set; the client must refuse it, with its reason.
//
// No cryptography here: every verdict is the library's.

import { describeError, fmtMs, hex, setStatus } from './util.js';

const $ = (id) => document.getElementById(id);
const POLICY = 'pq-fast';

/** The golden chain: [certificate, next set on an epoch's last block]. */
const CHAIN = [
  ['fast', null],
  ['heavy', null],
  ['end-of-epoch-0', 'epoch-1'],
  ['epoch-1', null],
];

/** Each toggle: what it changes in the chain, and the refusal it must meet. */
export const TOGGLES = {
  'bls-leg': { label: 'break one leg: a BLS signature from another block in block 1', expect: 'INVALID_SIGNATURE', apply: (c) => c.map((b, i) => (i === 0 ? ['bls-broken', b[1]] : b)) },
  'pulsar-leg': { label: 'break one leg: flip a byte of the Pulsar signature in block 1', expect: 'INVALID_SIGNATURE', apply: (c) => c.map((b, i) => (i === 0 ? ['pulsar-broken', b[1]] : b)) },
  quorum: { label: 'quorum: block 2 signed by validators with 60 of the 100 weight', expect: 'QUORUM_NOT_MET', apply: (c) => c.map((b, i) => (i === 1 ? ['bls-quorum-one-short', b[1]] : b)) },
  'forged-set': { label: 'epoch change: a forged next set (one weight changed) with the last block of epoch 0', expect: 'NEXT_SET_MISMATCH', apply: (c) => c.map((b) => (b[1] ? [b[0], 'epoch-1-forged'] : b)) },
  'skip-epoch': { label: 'epoch change: the last block of epoch 0 never arrives', expect: 'SKIPPED_EPOCH', apply: (c) => c.filter((b) => !b[1]) },
};

const hexBytes = (h) => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16));

export function setupLightClient({ light }) {
  const el = {
    status: $('lc-status'),
    toggle: $('lc-toggle'),
    run: $('lc-run'),
    verdict: $('lc-verdict'),
    detail: $('lc-detail'),
    blocks: $('lc-blocks'),
    trust: $('lc-trust'),
    source: $('lc-source'),
  };
  let kats = null;
  let runs = 0;

  const byName = (list, name) => list.find((x) => x.name === name);
  function certOf(name) {
    const c = byName(kats.certificates, name);
    if (c.bytes !== undefined) return hexBytes(c.bytes);
    const b = [...certOf(c.base)];
    for (const s of c.splices) b.splice(s.at, s.cut, ...hexBytes(s.insert));
    return Uint8Array.from(b);
  }
  const setOf = (name) => hexBytes(byName(kats.sets, name).bytes);

  for (const [value, t] of [['', { label: 'nothing: the honest chain' }], ...Object.entries(TOGGLES)]) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = t.label;
    el.toggle.append(o);
  }
  el.trust.textContent = light.CERT_TRUST_MODEL;

  function cell(tr, text, cls) {
    const td = document.createElement('td');
    td.textContent = text;
    if (cls) td.className = cls;
    tr.append(td);
    return td;
  }

  function run() {
    const toggle = el.toggle.value;
    const chain = toggle ? TOGGLES[toggle].apply(CHAIN) : CHAIN;
    const client = new light.LightClient(setOf('epoch-0'), POLICY);
    let trusted = setOf('epoch-0');
    let firstRefusal = null;
    el.blocks.replaceChildren();
    const started = performance.now();
    try {
      for (const [name, nextName] of chain) {
        const cert = certOf(name);
        const next = nextName ? setOf(nextName) : undefined;
        // Leg by leg, timed, against the set the client trusts now; then the client decides.
        const report = light.verifyCertificate(cert, trusted, POLICY, { full: true });
        const t0 = performance.now();
        const u = client.update(cert, next);
        const updateMs = performance.now() - t0;
        if (u.ok && next) trusted = next;
        if (!u.ok && firstRefusal === null) firstRefusal = u;
        const tr = document.createElement('tr');
        tr.dataset.certificate = name;
        tr.dataset.verdict = u.ok ? 'accepted' : 'refused';
        if (!u.ok) tr.dataset.code = u.code;
        const h = report.header;
        cell(tr, h ? `${h.height}` : '—');
        cell(tr, h ? `${h.epoch}${h.nextSetRoot ? ' → next set ' + hex(h.nextSetRoot, 4) : ''}` : '—');
        const legs = cell(tr, '');
        for (const l of report.legs) {
          const span = document.createElement('span');
          span.className = 'leg';
          span.dataset.state = l.verdict;
          span.dataset.kind = l.kind;
          const weight = l.weight !== undefined ? `, ${l.signers} signers, weight ${l.weight}/${report.totalWeight}` : '';
          const time = l.micros !== undefined ? ` ${fmtMs(l.micros / 1000)}` : '';
          span.textContent = `${l.kind}: ${l.verdict}${l.code ? ` (${l.code})` : ''}${weight}${time}`;
          legs.append(span, document.createElement('br'));
        }
        cell(tr, u.ok ? `accepted${u.newEpoch !== undefined ? `, now epoch ${u.newEpoch}` : ''}` : `refused: ${u.code}: ${u.reason}`, u.ok ? 'ok' : 'bad');
        cell(tr, fmtMs(updateMs));
        el.blocks.append(tr);
      }
      const ok = firstRefusal === null;
      el.verdict.dataset.code = ok ? '' : firstRefusal.code;
      setStatus(el.verdict, ok ? 'valid' : 'invalid', ok ? `Chain followed: epoch ${client.epoch}, height ${client.height}` : `Refused: ${firstRefusal.code}`);
      el.detail.textContent = ok
        ? `Every certificate final under ${POLICY}; the client moved to epoch ${client.epoch} (key era ${client.keyEra}: the reshared Pulsar group signs under the same key), set root ${hex(client.setRoot, 8)}…, in ${fmtMs(performance.now() - started)}.`
        : `${firstRefusal.reason}. The client stays at epoch ${client.epoch}, height ${client.height ?? '—'}.`;
    } finally {
      client.free();
    }
    runs += 1;
    document.body.dataset.lcRuns = String(runs);
  }

  el.run.addEventListener('click', () => {
    try {
      run();
    } catch (err) {
      setStatus(el.verdict, 'invalid', `Error: ${describeError(err)}`);
    }
  });

  fetch('/kats/cert.json')
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`/kats/cert.json: HTTP ${r.status}`))))
    .then((k) => {
      kats = k;
      el.source.textContent = `The chain is the golden one of kats/cert.json (${k.generator}): ${k.sets.length} validator sets, ${k.certificates.length} certificates, loaded from /kats/cert.json.`;
      el.status.textContent = 'Ready. Pick what to break (or nothing) and follow the chain.';
      el.run.disabled = false;
    })
    .catch((err) => {
      el.status.textContent = `Could not load the chain: ${describeError(err)}`;
    });
}
