// Corona (a two-round t-of-n threshold lattice signature): a trusted dealer deals a 3-of-5 key
// (it knows the key while dealing and keeps nothing), each party loads only its own package,
// then any three or more sign in two rounds; every signer combines the same signature. Run in
// this thread by `run`.
import { CoronaShare, corona, init, run } from 'quasar-pq';
await init();
const { groupKey, shares } = corona.deal({ threshold: 3, parties: 5 }); // groupKey: CORG, 4,654 bytes
const held = new Map(shares.map(({ id, keyPackage }) => [id, CoronaShare.fromDealer(keyPackage, groupKey)]));

const message = new TextEncoder().encode('block 42');
const session = crypto.getRandomValues(new Uint8Array(32)); // a new one per signing session
const sign = { session, signers: [1, 3, 4], message, context: new TextEncoder().encode('my-chain') };
const s = run(sign.signers.map((id) => corona.signer({ ...sign, share: held.get(id) })));
const { signature } = [...s.outcomes.values()][0]; // CORS, 15,666 bytes
console.log('signed:', s.errors.size === 0 ? 'done' : 'failed', `in ${s.rounds} rounds`);
console.log('valid:', corona.verify(groupKey, message, sign.context, signature)); // true
console.log('other message:', corona.verify(groupKey, new TextEncoder().encode('block 43'), sign.context, signature)); // false
