// The Pulsar lifecycle parties, type-checked: setup, sign, reshare → activation into the
// members' keyrings, all through the package's `run()`.
import { init, lens, pulsar, run, LensKeyring, PulsarKeyring } from 'quasar-pq';
import type { PulsarActivated, PulsarCombinerCertified, PulsarSigned, RunResult, StepResult } from 'quasar-pq';
import { sid } from './run.js';

await init();
const members = [1, 2, 3];
const combiner = 100;

const setup = { session: sid(), level: 44 as const, members, threshold: 2, signers: [1, 2] };
const ms = members.map((id) => pulsar.lifecycle.member.setup({ ...setup, combiner, id }));
const c = pulsar.lifecycle.combiner.setup({ ...setup, id: combiner });
const r: RunResult = run([...ms, c]);
const record: PulsarCombinerCertified = r.of(c);
const keyrings = new Map<number, PulsarKeyring>(ms.map((m) => [m.id, r.of(m).keyring]));

const message = new TextEncoder().encode('block 1');
const sp = { session: sid(), signers: [1, 3], message };
const sc = pulsar.lifecycle.combiner.sign({ ...sp, id: combiner, keyRecord: record.keyRecord, sharing: record.sharing });
const ss = sp.signers.map((id) => pulsar.lifecycle.member.sign({ ...sp, keyring: keyrings.get(id)!, combiner }));
const signed: PulsarSigned = run([sc, ...ss]).of(sc);
pulsar.verify(record.groupKey, message, signed.signature);

keyrings.set(4, PulsarKeyring.empty());
const rp = { session: sid(), dealers: [1, 2], receivers: [2, 3, 4], threshold: 2 };
const rs = [1, 2, 3, 4].map((id) =>
  pulsar.lifecycle.member.reshare({ ...rp, id, keyring: keyrings.get(id)!, keyRecord: record.keyRecord, sharing: record.sharing }),
);
const rr = run(rs);
for (const p of rs) {
  const o = rr.of(p);
  const activated: PulsarActivated = o.activated;
  if (activated.ok) keyrings.set(p.id, o.keyring);
  const gen: number | undefined = o.keyring.generation;
  void gen;
}
// A signer with no session yet waits: a result, not an error.
const early = pulsar.lifecycle.member.sign({ ...sp, keyring: keyrings.get(3)!, combiner });
const step: StepResult<unknown> = early.step([]);
if (!step.done && step.waiting) console.log('step again with more messages');

// Lens: key generation into keyrings, a signature, a reshare back into them.
const lk = [1, 2, 3].map((id) => lens.lifecycle.member.keygen({ curve: 'ed25519', session: sid(), members: [1, 2, 3], threshold: 2, id }));
const lr = run(lk);
const lrings = new Map<number, LensKeyring>(lk.map((p) => [p.id, lr.of(p).keyring]));
const pkg: Uint8Array = lr.of(lk[0]!).publicPackage;
const coord = lens.lifecycle.coordinator.sign({ publicPackage: pkg, id: 100, message });
const lsigners = [1, 2].map((id) => lens.lifecycle.member.sign({ keyring: lrings.get(id)!, coordinator: 100, message }));
const sig: Uint8Array = run([coord, ...lsigners]).of(coord).signature;
void sig;
const lrs = [1, 2, 3].map((id) => lens.lifecycle.member.reshare({ session: sid(), dealers: [1, 2], receivers: [1, 2, 3], threshold: 2, id, keyring: lrings.get(id)! }));
const lrr = run(lrs);
for (const p of lrs) lrings.set(p.id, lrr.of(p).keyring);
