// The Magnetar flow, type-checked: validator keys, signatures, the aggregator's batch check
// against the registry, the certificate, and the light client's verdict.
import { init, magnetar, MagnetarRegistry } from 'quasar-pq';
import type { AggregateVerdict, MagnetarContribution, MagnetarMode, MagnetarValidator } from 'quasar-pq';
import * as light from 'quasar-pq/verify';

await init();
await light.init();
const mode: MagnetarMode = 'shake192f';
const block = new TextEncoder().encode('chain 7, height 42');
const context = new TextEncoder().encode('quasar-demo-finality');
const keys = [1, 2, 3, 4].map(() => magnetar.keygen(mode));
const validators: MagnetarValidator[] = keys.map((k, i) => ({ id: new Uint8Array(32).fill(i + 1), publicKey: k.publicKey, weight: 10 }));
const contributions: MagnetarContribution[] = keys.map((k, i) => ({ id: validators[i]!.id, signature: magnetar.sign(mode, block, k.secretKey, { context }) }));
const aggregator = new MagnetarRegistry(mode, validators);
const bitmap: boolean[] = aggregator.verifyBatch(contributions, block, { context });
const certificate = magnetar.aggregate(mode, contributions.filter((_, i) => bitmap[i]));
aggregator.free();
const registry = new light.MagnetarRegistry(mode, validators);
const verdict: AggregateVerdict = registry.verifyAggregate(certificate, block, { context, quorum: { numerator: 2, denominator: 3 } });
const weight: bigint | undefined = verdict.signedWeight;
const one: boolean = light.magnetar.verify(contributions[0]!.signature, block, keys[0]!.publicKey, { context });
registry.free();
console.log(verdict.ok, verdict.code, weight, one, light.magnetar.lengths[mode].signature, magnetar.trustModel);
