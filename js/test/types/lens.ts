// The Lens flow of protocols.d.ts, type-checked: a DKG and a trusted dealer, FROST signing,
// a reshare with its activation, standard verification.
import { init, lens, constants, trustModels, LensKeyShare, Party } from 'quasar-pq';
import type { LensCurve, LensDealingOutcome, Round, StepResult } from 'quasar-pq';
import { run, sid } from './run.js';

await init();
const message = new TextEncoder().encode('block 1');
const curve: LensCurve = 'ed25519';

// Key generation: the DKG …
const kg = { curve, session: sid(), parties: [1, 2, 3, 4, 5], threshold: 3 };
const kgParties = kg.parties.map((id) => lens.keygen({ ...kg, id }));
const k = run(kgParties);
const shares = kgParties.map((p) => k.of(p).keyShare!);
const { publicPackage, groupKey } = k.of(kgParties[0]!);
// … or a trusted dealer.
const dealt = lens.deal({ curve, parties: [1, 2, 3], threshold: 2, seed: sid() });
const fromDealer: LensKeyShare[] = dealt.shares.map((s) => LensKeyShare.fromDealer(curve, s.dealerShare, dealt.publicPackage));

// FROST signing with any t.
const coordinator = lens.coordinate({ publicPackage, id: 100, message });
const signers = [shares[0]!, shares[2]!, shares[4]!].map((share) => lens.sign({ share, coordinator: 100, message }));
const { signature } = run([coordinator, ...signers]).of(coordinator);
const ok: boolean = lens.verify(curve, groupKey, message, signature);

// Reshare 3-of-5 → 4-of-{3..7}: holders with their share, new members with the package.
const rs = { session: sid(), dealers: [1, 2, 3], receivers: [3, 4, 5, 6, 7], threshold: 4 };
const rsParties: Party<LensDealingOutcome>[] = [
  ...shares.map((share) => lens.reshare({ share, ...rs })),
  ...[6, 7].map((id) => lens.reshareJoin({ publicPackage, id, ...rs })),
];
const first: StepResult<LensDealingOutcome> = rsParties[0]!.step([]);
const round: Round | null = first.done ? null : first.round;
const r = run(rsParties);
const o7 = r.of(rsParties[6]!);
const verdict = lens.verifyActivation(o7.publicPackage, o7.generation, o7.transcriptHash, o7.activation!.certificate);

[...shares, ...fromDealer].forEach((s) => s.free());
console.log(ok, round, verdict.ok, o7.blame, trustModels.lens, constants.curves, lens.curves);
