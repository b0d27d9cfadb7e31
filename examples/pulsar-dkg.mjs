// A Pulsar DKG among five parties, routed by hand: what a transport does with each party's
// messages. Each party is the library's own state machine; this file only moves bytes.
import { init, pulsar } from 'quasar-pq';
await init();
const session = crypto.getRandomValues(new Uint8Array(32));
const ids = [1, 2, 3, 4, 5];
const parties = new Map(ids.map((id) => [id, pulsar.dkg({ session, parties: ids, threshold: 3, id })]));
const inbox = new Map(ids.map((id) => [id, []]));
function send(from, outgoing) {             // broadcast → everyone else; direct[i] → direct[i].to (confidential)
  for (const to of ids) if (to !== from && outgoing.broadcast) inbox.get(to).push({ from, bytes: outgoing.broadcast });
  for (const d of outgoing.direct) inbox.get(d.to).push({ from, bytes: d.bytes });
}
for (const [id, party] of parties) send(id, party.start.outgoing);
const outcomes = new Map();
for (let round = 1; outcomes.size < ids.length; round++) {
  if (round > 20) throw new Error('the DKG did not finish');
  const delivered = new Map(ids.map((id) => [id, inbox.get(id).splice(0)]));
  for (const [id, party] of parties) {
    if (outcomes.has(id)) continue;
    const r = party.step(delivered.get(id)); // inbox: [{ from, bytes }], `from` as the transport authenticated it
    // r.waiting: nothing to do yet, step again with what arrives next (a result, not an error)
    send(id, r.outgoing);
    if (r.done) outcomes.set(id, r.outcome); // r.outcome: { sharing, qualified, blame, keyShare, … }, r.dropped
  }
}
const [first, ...rest] = [...outcomes.values()];
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
console.log('qualified:', first.qualified.join(' '));                       // 1 2 3 4 5
console.log('one sharing:', rest.every((o) => same(o.sharing, first.sharing))); // true
for (const o of outcomes.values()) o.keyShare?.free();                      // shares live in WASM memory
for (const party of parties.values()) party.free();
