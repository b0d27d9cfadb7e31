// The schemes a browser process plays, picked from the demo arguments of process 0's hello
// (cli/src/main.rs `hello_args`): the committee and Corona. Another scheme's hello gets no
// answer, and the conductor reports this process `TIMEOUT`.

import { committeeMember } from './committee.js';
import { coronaMember } from './corona.js';

/** `{ name, parties, threshold, member(lib, id) }` for a hello's `args`, or null. */
export function schemeOf(args) {
  const value = (flag) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const parties = Number(value('--parties'));
  const threshold = Number(value('--threshold'));
  switch (value('--scheme')) {
    case 'committee': {
      const level = Number(value('--set') ?? 65);
      if (![44, 65, 87].includes(level) || !(parties >= 2 && parties <= 6) || !(threshold >= 2 && threshold <= parties)) return null;
      return { name: 'committee', parties, threshold, member: (lib, id) => committeeMember(lib, id, level) };
    }
    case 'corona':
      if (!(parties >= 2 && parties <= 64) || !(threshold >= 2 && threshold <= parties)) return null;
      return { name: 'corona', parties, threshold, member: (lib, id) => coronaMember(lib, id, { parties, threshold }) };
    default:
      return null;
  }
}
