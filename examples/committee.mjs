// The Pulsar committee (threshold ML-DSA with no reconstruction): four members generate a
// key with nobody ever holding it, then any three of them sign; every signer combines the
// same plain FIPS 204 signature itself. Run in this thread by `run`.
import { init, mlDsa44, pulsar, run } from 'quasar-pq';
await init();
const session = () => crypto.getRandomValues(new Uint8Array(32)); // one per run
const keygen = { session: session(), level: 44, threshold: 3, members: [1, 2, 3, 4] };
const k = run(keygen.members.map((id) => pulsar.committee.keygen({ ...keygen, id })));
const keyed = [...k.outcomes.values()];                             // one per member
const { publicKey } = keyed[0];                                     // the same at every member
const shares = new Map(keyed.map((o) => [o.keyShare.id, o.keyShare]));
console.log('keygen:', k.errors.size === 0 ? 'done' : 'failed', `in ${k.rounds} rounds`);

// Members 1, 2 and 4 sign: exactly three, each broadcasting a commitment, a reveal and its
// responses; a run that fails restarts itself with fresh randomness.
const message = new TextEncoder().encode('block 42');
const sign = { session: session(), signers: [1, 2, 4], message };
const s = run(sign.signers.map((id) => pulsar.committee.signer({ ...sign, share: shares.get(id) })));
const { signature, runs } = [...s.outcomes.values()][0];
console.log('signed:', s.errors.size === 0 ? 'done' : 'failed', runs >= 1);
console.log('signature valid:', mlDsa44.verify(signature, message, publicKey)); // true: plain ML-DSA-44
