// A Corona party as a browser process plays it: the same node as the native `quasar node`'s
// (cli/src/corona.rs `Member`), over the npm package — its key package from the trusted
// dealer (node 0: the `CORK`, secret, arrives as a direct message sealed to this process, the
// `CORG` group key as a public one), signing (`corona.signer`, two rounds), then every member
// checks the signature the signers published (`corona.verify`, public inputs only). The share
// stays in this page's WASM memory.

import { BEFORE, failure, keyEvent } from './events.js';
import { signingMember } from './member.js';

/** The context every signature of the demo's runs is bound to (cli/src/corona.rs). */
const CONTEXT = new TextEncoder().encode('quasar demo');
/** A `CORS` signature's length. */
const SIGNATURE_BYTES = 15666;
const HUB = 0;

const magic = (bytes, m) => bytes.length >= 4 && String.fromCharCode(...bytes.subarray(0, 4)) === m;

/** Party `id` of a Corona key of `parties` parties with threshold `threshold`, on the package `lib`. */
export function coronaMember(lib, id, { parties, threshold }) {
  let share = null;
  let groupKey = null;
  return signingMember(id, {
    module: 'corona',
    signatureLength: SIGNATURE_BYTES,
    key: () => groupKey,
    setup(phase, published) {
      const fromDealer = published.filter((f) => f.from === HUB).map((f) => f.bytes);
      const group = fromDealer.find((b) => magic(b, 'CORG'));
      const pkg = fromDealer.find((b) => magic(b, 'CORK'));
      if (!group || !pkg) throw failure('MISSING_MESSAGE', `no ${group ? 'key package' : 'group key'} from the dealer`);
      const loaded = lib.CoronaShare.fromDealer(pkg, group);
      const info = loaded.publicInfo();
      if (info.id !== id || info.threshold !== threshold || info.parties !== parties) {
        loaded.free?.();
        throw failure('WRONG_KEY_PACKAGE', `party ${id} was dealt the package of party ${info.id} (${info.threshold} of ${info.parties}), not its own (${threshold} of ${parties})`);
      }
      share?.free?.();
      share = loaded;
      groupKey = group;
      return { local: [keyEvent(BEFORE, group)] };
    },
    setupDone: () => [],
    signer: (phase) => lib.corona.signer({ share, session: phase.id, signers: phase.signers, message: phase.message, context: CONTEXT }),
    // Public inputs only: the group key, the message, the context, the signature.
    verify: (message, signature) => lib.corona.verify(groupKey, message, CONTEXT, signature),
  });
}
