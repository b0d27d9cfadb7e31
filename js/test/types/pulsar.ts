// The Pulsar flow of protocols.d.ts, type-checked: DKG 3-of-5, key ceremony, certification,
// signing, reshare to {1..6} with t = 4 and its activation, a refresh, seal and restore.
import { init, mlDsa65, pulsar, constants, trustModels, PulsarKeyShare, Rng } from 'quasar-pq';
import type { BlameEntry, PulsarSigned, QuasarError, Verdict } from 'quasar-pq';
import { run, sid } from './run.js';

await init();
const message = new TextEncoder().encode('block 1');
const ids = [1, 2, 3, 4, 5];

// 1. DKG, one generator per party across its protocols.
const rngs = new Map(ids.map((id) => [id, Rng.fromSeed(sid())]));
const dkg = { session: sid(), parties: ids, threshold: 3 };
const dkgParties = ids.map((id) => pulsar.dkg({ ...dkg, id, rng: rngs.get(id)! }));
const d = run(dkgParties);
const dkgShares = dkgParties.map((p) => d.of(p).keyShare!);
const { sharing } = d.of(dkgParties[0]!);
const blame: BlameEntry[] = d.of(dkgParties[0]!).blame;

// 2. Key ceremony by the first t.
const kc = pulsar.keyCeremony.combiner({ id: 100, level: 65, sharing, signers: [1, 2, 3], session: sid() });
const kcSigners = dkgShares.slice(0, 3).map((share) => pulsar.keyCeremony.signer({ share, session: kc.info.session!, rng: rngs.get(share.id)! }));
const { announcement, groupKey, level } = run([kc, ...kcSigners]).of(kc);

// 3. Certification by every party.
const certs = dkgShares.map((share) => pulsar.certify({ share, announcement }));
const c = run(certs);
const shares: PulsarKeyShare[] = certs.map((p) => c.of(p).keyShare);
const keyRecord: Uint8Array = c.of(certs[0]!).keyRecord;

// 4. Signing by any t, a fresh combiner per session; deterministic for reproducible output.
const signers = [shares[1]!, shares[3]!, shares[4]!];
const sc = pulsar.sign.combiner({ id: 100, keyRecord, sharing, signers: signers.map((s) => s.id), message, session: sid(), deterministic: true });
const ss = signers.map((share) => pulsar.sign.signer({ share, session: sc.info.session!, message }));
const signed: PulsarSigned = run([sc, ...ss]).of(sc);
const ok: boolean = mlDsa65.verify(signed.signature, message, groupKey) && pulsar.verify(groupKey, message, signed.signature);

// 5. Reshare to {1..6}, t = 4: holders with their share, member 6 with the public data.
const rs = { session: sid(), dealers: [1, 2, 3], receivers: [1, 2, 3, 4, 5, 6], threshold: 4 };
const rsParties = [...shares.map((share) => pulsar.reshare({ share, ...rs })), pulsar.reshareJoin({ keyRecord, sharing, id: 6, ...rs })];
const r = run(rsParties);
const o6 = r.of(rsParties[5]!);
if (o6.activation.verified) shares.forEach((s) => s.free()); // only now may old shares go
const verdict: Verdict = pulsar.verifyActivation(o6.sharing, o6.keyRecord!, o6.generation, o6.transcriptHash, o6.activation.certificate);
const why: string = verdict.ok ? 'ok' : verdict.code;

// 6. A refresh, seal and restore.
const next = o6.keyShare!;
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
[refresh, back, ...rngs.values()].forEach((x) => x.free());
console.log(blame, level, ok, why, lvl, trustModels.pulsar, constants.pulsarActivationContext.length);
