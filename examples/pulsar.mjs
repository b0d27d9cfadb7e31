// Pulsar custody (threshold ML-DSA): a group's whole setup, then a signing session, with one
// party per role, run in this thread by `run` (the Rust simulator's routing). The signature is
// a plain FIPS 204 ML-DSA signature under the group key.
import { init, mlDsa44, pulsar, run } from 'quasar-pq';
await init();
const session = () => crypto.getRandomValues(new Uint8Array(32)); // one per run
const setup = { session: session(), level: 44, members: [1, 2, 3, 4], threshold: 3, signers: [1, 2, 3] };
const members = setup.members.map((id) => pulsar.lifecycle.member.setup({ ...setup, combiner: 100, id }));
const combiner = pulsar.lifecycle.combiner.setup({ ...setup, id: 100 });
const r = run([...members, combiner]);       // DKG → key ceremony → certification
const { keyRecord, sharing, groupKey } = r.of(combiner);
console.log('setup:', r.errors.size === 0 ? 'done' : 'failed', `in ${r.rounds} rounds`);

// Sign with members 2, 3 and 4: each checks the combiner's session before releasing anything.
// A member's keyring (a PulsarKeyring) moves into its signing party and comes back in its
// outcome; reshare takes it the same way, the old share erased only by a verified activation.
const message = new TextEncoder().encode('block 42');
const sign = { session: session(), signers: [2, 3, 4], message };
const sc = pulsar.lifecycle.combiner.sign({ ...sign, id: 100, keyRecord, sharing });
const ss = [2, 3, 4].map((id) => pulsar.lifecycle.member.sign({ ...sign, keyring: r.of(members[id - 1]).keyring, combiner: 100 }));
const { signature } = run([sc, ...ss]).of(sc);
console.log('signature valid:', mlDsa44.verify(signature, message, groupKey)); // true: plain ML-DSA-44
console.log('pulsar.verify:', pulsar.verify(groupKey, message, signature));    // true
