// The Pulsar flow of protocols.d.ts, type-checked: a 3-of-5 group set up by the custody
// lifecycle parties (DKG → key ceremony → certification, one run), signing, a reshare to
// {1..6} with t = 4 and its activation into the keyrings, a refresh, seal and restore.
import { init, mlDsa65, pulsar, constants, trustModels, PulsarKeyring, PulsarKeyShare, Rng } from 'quasar-pq';
import type { BlameEntry, PulsarCombinerCertified, PulsarMemberSetup, PulsarSigned, QuasarError, Verdict } from 'quasar-pq';
import { run, sid } from './run.js';

await init();
const message = new TextEncoder().encode('block 1');
const ids = [1, 2, 3, 4, 5];
const combiner = 100;

// 1. Setup, one generator per party across its paths: the first t derive the key.
const rngs = new Map([...ids, 6].map((id) => [id, Rng.fromSeed(sid())]));
const setup = { session: sid(), level: 65 as const, members: ids, threshold: 3, signers: [1, 2, 3] };
const members = ids.map((id) => pulsar.lifecycle.member.setup({ ...setup, combiner, id, rng: rngs.get(id)! }));
const c = pulsar.lifecycle.combiner.setup({ ...setup, id: combiner });
const s = run([...members, c]);
const record: PulsarCombinerCertified = s.of(c);
const { keyRecord, sharing, groupKey, level } = record;
const first: PulsarMemberSetup = s.of(members[0]!);
const blame: BlameEntry[] = first.blame;
const keyrings = new Map<number, PulsarKeyring>(members.map((m) => [m.id, s.of(m).keyring]));

// 2. Signing by any t, a fresh combiner per session; deterministic for reproducible output.
const sp = { session: sid(), signers: [2, 4, 5], message };
const sc = pulsar.lifecycle.combiner.sign({ ...sp, id: combiner, keyRecord, sharing, deterministic: true });
const ss = sp.signers.map((id) => pulsar.lifecycle.member.sign({ ...sp, keyring: keyrings.get(id)!, combiner, rng: rngs.get(id)! }));
const signed: PulsarSigned = run([sc, ...ss]).of(sc);
const ok: boolean = mlDsa65.verify(signed.signature, message, groupKey) && pulsar.verify(groupKey, message, signed.signature);

// 3. Reshare to {1..6}, t = 4: holders with their keyring, member 6 with an empty one and the
//    group's record. Each keyring erases its old share only on a verified activation.
keyrings.set(6, PulsarKeyring.empty());
const rs = { session: sid(), dealers: [1, 2, 3], receivers: [1, 2, 3, 4, 5, 6], threshold: 4 };
const rsParties = [...ids, 6].map((id) =>
  pulsar.lifecycle.member.reshare({ ...rs, id, keyring: keyrings.get(id)!, ...(id === 6 ? { keyRecord, sharing } : {}), rng: rngs.get(id)! }),
);
const r = run(rsParties);
const o6 = r.of(rsParties[5]!);
for (const p of rsParties) {
  keyrings.get(p.id)!.free();
  keyrings.set(p.id, r.of(p).keyring);
}
const verdict: Verdict = pulsar.verifyActivation(o6.sharing, o6.keyRecord!, o6.generation, o6.transcriptHash, o6.activation!.certificate);
const why: string = verdict.ok ? 'ok' : verdict.code;
const activated: string = o6.activated.ok ? `generation ${o6.activated.generation}` : o6.activated.code;

// 4. A refresh (the single-protocol factory, from a copy out of a keyring), seal and restore.
const next: PulsarKeyShare = keyrings.get(6)!.current();
const refresh = pulsar.refresh({ share: next, session: sid(), dealers: [6] });
const sealed = next.seal(new Uint8Array(32));
const back = PulsarKeyShare.restore(sealed, new Uint8Array(32));
const info = back.publicInfo();
const lvl: 44 | 65 | 87 = info.level;

try {
  refresh.step([{ from: 1, bytes: new Uint8Array(3) }]);
} catch (e) {
  const q = e as QuasarError;
  console.log(q.code, q.culprits, q.blame?.length);
}
[refresh, next, back, ...keyrings.values(), ...rngs.values()].forEach((x) => x.free());
console.log(blame, level, ok, why, activated, lvl, trustModels.pulsar, constants.pulsarActivationContext.length);
