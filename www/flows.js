// The flows of each scheme, on the page side. A `Run` is one group of parties (plus the
// combiner or the FROST coordinator) living in the worker pool. Each action — the key
// ceremony, a signature, a reshare — starts one path of the library's lifecycle parties
// (`pulsar.lifecycle.*`, `lens.lifecycle.*`: DKG → key ceremony → certification, sign,
// reshare → activation, each one party per role) with public parameters, and routes their
// bytes (www/coordinator.js) until every party is done. Which protocol follows which, and when
// an old share is erased (only by a verified activation certificate, the keyring's rule), is
// the library's; this module reads back public outcomes (group key, signatures, certificates,
// the keyrings' verdicts, blame with the library's own codes) and picks who signs.
//
// The cheating toggle: the cheater runs its lifecycle party with the library's misbehaviour
// hook (`cheat`, in the demo build only: js/support/demo.mjs), armed only in the path its mode
// names — a dealing cheat in the key ceremony and reshares, a signing cheat in signing
// sessions (never in the Pulsar key ceremony, whose key derivation is also a release of
// shares: armed there, a signing cheat would be caught before anyone signs).
//
// Before anything runs, `checkSetup` and `checkReshare` say whether a setup can succeed at
// all (t > K, t = K with a cheater, …), in words the page shows instead of starting a run
// that must fail. A `seed` makes a run reproducible: every session id and party seed is then
// derived from it (SHA-256), instead of drawn from `crypto.getRandomValues`.

import { Network } from './coordinator.js';
import { equalBytes, plural, randomSession, ranges } from './util.js';

/** The most parties a key ceremony or reshare of the page takes. */
export const MAX_K = 128;

/** Keys of the two service roles (parties are 1..MAX_K). */
export const COMBINER = 1000;
export const COORDINATOR = 1001;

/** ⌊2K/3⌋ + 1, the default threshold: strictly more than two thirds (the CLI's default too). */
export function defaultThreshold(k) {
  return Math.min(k, Math.floor((2 * k) / 3) + 1);
}

/** The smallest threshold a scheme's signing accepts (FROST needs two signers). */
function minThreshold(scheme) {
  return scheme === 'lens' ? 2 : 1;
}

/**
 * Whether a key ceremony with these parameters can succeed, before it runs: `{ ok: true }`, or
 * `{ ok: false, reason }` in words for the page. A cheater, once caught, is left out of every
 * later session, so it leaves K − 1 parties for t signers.
 */
export function checkSetup({ scheme, k, t, cheater }) {
  if (!Number.isInteger(k) || k < 3 || k > MAX_K) return { ok: false, reason: `K must be a whole number from 3 to ${MAX_K}.` };
  if (!Number.isInteger(t)) return { ok: false, reason: `The threshold t must be a whole number from ${minThreshold(scheme)} to K = ${k}.` };
  if (t > k) return { ok: false, reason: `t = ${t} is more than K = ${k}: ${t} signers can never be found among ${k} parties. Choose t ≤ ${k}.` };
  if (t < minThreshold(scheme)) return { ok: false, reason: `Lens (FROST) needs t ≥ 2: with t = ${t} a single party could sign alone.` };
  if (cheater !== null && cheater !== undefined && k - 1 < t) {
    return {
      ok: false,
      reason:
        `This setup cannot succeed: party ${cheater} cheats, and once caught it is left out of every session, which leaves ` +
        `${k - 1} honest parties for t = ${t} signers. Lower t to at most ${k - 1}, or pick nobody to cheat.`,
    };
  }
  return { ok: true };
}

/**
 * Whether a reshare to t′ of n′ can run: `{ ok: true }` or `{ ok: false, reason }`. `dealers` is
 * how many unblamed members of the current group can deal (undefined before a ceremony), `oldT`
 * the current threshold.
 */
export function checkReshare({ scheme, n, t, dealers, oldT }) {
  if (!Number.isInteger(n) || n < 1 || n > MAX_K) return { ok: false, reason: `The new group size n′ must be a whole number from 1 to ${MAX_K}.` };
  if (!Number.isInteger(t)) return { ok: false, reason: `The new threshold t′ must be a whole number from ${minThreshold(scheme)} to n′ = ${n}.` };
  if (t > n) return { ok: false, reason: `t′ = ${t} is more than n′ = ${n}: the new group could never sign, nor make the activation certificate (it needs t′ members' proofs).` };
  if (t < minThreshold(scheme)) return { ok: false, reason: `Lens (FROST) needs t′ ≥ 2.` };
  if (dealers !== undefined && dealers < oldT) return { ok: false, reason: `Only ${dealers} unblamed members can deal, and the current threshold needs ${oldT}.` };
  return { ok: true };
}

/** `params` with the party's `seed`, when the run has one. */
function withSeed(params, seed) {
  return seed === undefined ? params : { ...params, seed };
}

function names(list) {
  return list.map((p) => `party ${p}`).join(', ');
}

/** A protocol failure carried back from a worker, with its stable code and culprits. */
export class ProtocolError extends Error {
  constructor(info, context) {
    super(`${context ? `${context}: ` : ''}${info.message}`);
    this.name = info.name && info.name !== 'Error' ? info.name : 'ProtocolError';
    this.code = info.code;
    this.culprits = info.culprits ?? [];
    this.blameList = info.blame ?? [];
    this.party = info.party;
  }
}

export const SCHEMES = {
  pulsar: {
    label: 'Pulsar custody',
    trust:
      'at rest no coalition below t knows the key; to sign, t shares go encrypted to one combiner that rebuilds the key in memory, signs, and erases it — the combiner is trusted at that moment.',
    explainThreshold(k, t) {
      return (
        `Any ${t} of the ${k} parties can sign; ${k - t} may be offline. Fewer than ${t} learn nothing about the key ` +
        `(and ${k - t + 1} refusing can block signing). Signing sends ${t} encrypted shares to the combiner.`
      );
    },
  },
  lens: {
    label: 'Lens (FROST)',
    trust: 'FROST: any t of n sign without ever rebuilding the key; signatures verify under standard Ed25519 / BIP-340.',
    explainThreshold(k, t) {
      const extra = t < 2 ? ' FROST needs t ≥ 2.' : '';
      return (
        `Any ${t} of the ${k} parties can sign, and no ${t - 1} can, even together with the coordinator; ` +
        `${k - t} may be offline.${extra}`
      );
    },
  },
};

export class Run {
  /**
   * @param {{ pool: import('./pool.js').WorkerPool, params: object, ui: object, lib: object }} opts
   *   params: { scheme, level, curve, k, t, cheater, cheatMode }
   */
  constructor({ pool, params, ui, lib }) {
    this.pool = pool;
    this.p = params;
    this.ui = ui;
    this.lib = lib;
    this.scheme = params.scheme;
    this.cheater = params.cheater ?? null;
    this.cheatMode = params.cheatMode ?? 'signing';
    this.net = new Network(pool, {
      onRoundStart: (r) => ui.roundStart(r),
      onStepStart: (r) => ui.stepStart(r),
      onProgress: (p) => ui.roundProgress(p),
      onRoundEnd: (stats) => {
        stats.seq = this.phaseSeq;
        ui.roundEnd(stats, stats.token);
      },
    });
    this.blamed = new Set();
    this.group = null; // { generation, t, parties, publicKey, transcriptHash, sharing?, keyRecord?, publicPackage? }
    this.hasKey = false;
    this.phaseSeq = 0;
    this.signCount = 0;
    this.service = this.scheme === 'pulsar' ? COMBINER : COORDINATOR;
    this.lastReshare = null;
    this.seed = params.seed ?? null; // a string: derive every session id and party seed from it
    this.draws = 0;
  }

  /** 32 bytes for `what`: fresh randomness, or derived from the run's seed (reproducible). */
  async #bytes(what) {
    if (this.seed === null) return randomSession();
    const text = new TextEncoder().encode(`quasar-pq demo\0${this.seed}\0${what}`);
    return new Uint8Array(await crypto.subtle.digest('SHA-256', text));
  }

  /** A session id, and the seed of each party of that session (undefined: the factory draws one). */
  async #session(keys) {
    const n = ++this.draws;
    const session = await this.#bytes(`session ${n}`);
    const seeds = new Map();
    if (this.seed !== null) for (const k of keys) seeds.set(k, await this.#bytes(`session ${n} party ${k}`));
    return { session, seed: (k) => seeds.get(k) };
  }

  describeKey() {
    if (this.scheme === 'pulsar') return `ML-DSA-${this.group.level} public key of ${this.group.publicKey.length} bytes`;
    return `${this.p.curve} group key of ${this.group.publicKey.length} bytes`;
  }

  /** The misbehaviour the cheater runs (in `kind` steps only, if given): the one Cheat model. */
  cheat(id, kind = this.cheatMode) {
    return id === this.cheater && this.cheatMode === kind ? this.lib.constants.cheats[kind] : undefined;
  }

  // -------------------------------------------------------------------------- plumbing

  addParties(ids, label) {
    const fresh = ids.filter((p) => !this.net.placement.has(p));
    this.net.spawn(fresh.map((key) => ({ key, role: 'party' })));
    for (const p of fresh) {
      this.ui.addParty(p, { role: 'party', worker: this.net.workerOf(p), label, cheater: p === this.cheater });
      if (p === this.cheater) this.ui.party(p, { cheater: true });
    }
    return fresh;
  }

  async start() {
    this.addParties(Array.from({ length: this.p.k }, (_, i) => i + 1), 'waiting');
    this.net.spawn([{ key: this.service, role: 'service' }]);
    this.ui.addParty(this.service, {
      role: 'service',
      worker: this.net.workerOf(this.service),
      title: this.scheme === 'pulsar' ? 'Combiner' : 'Coordinator',
      label: this.scheme === 'pulsar' ? 'holds no key' : 'public data only',
    });
  }

  newPhase() {
    this.phaseSeq += 1;
    this.net.clearInboxes();
  }

  /** Run parties to the end; a failure of a party not expected to fail aborts with its code. */
  async run(phase, parties, { tolerate = [], label = '' } = {}) {
    const r = await this.net.run({ phase, parties, label });
    for (const [key, info] of r.errors) {
      if (tolerate.includes(key) || this.blamed.has(key) || key === this.cheater) continue;
      throw new ProtocolError(info, `${phase} (${key === this.service ? 'the service' : `party ${key}`})`);
    }
    return r;
  }

  blame(phase, parties, text, short) {
    for (const p of parties) this.blamed.add(p);
    if (parties.length) this.ui.blame({ phase, parties, text, short });
  }

  /** Blame every party an honest outcome names (the library's codes and reasons). */
  blameFrom(phase, list, how) {
    for (const b of list ?? []) {
      this.blame(phase, [b.party], how(b), `${b.code}`);
    }
  }

  /** The outcome every honest party agrees on (the cheater's own may differ). */
  honest(r, keys, context) {
    let ref = null;
    for (const k of keys) {
      if (k === this.cheater || !r.outcomes.has(k)) continue;
      const o = r.outcomes.get(k);
      if (!ref) ref = o;
      else if (!equalBytes(ref.transcriptHash, o.transcriptHash)) throw new Error(`${context}: party ${k} disagrees on the transcript`);
    }
    if (!ref) throw new Error(`${context}: no honest party finished`);
    return ref;
  }

  /** t signers among `parties`: the cheater (if not caught yet) and the lowest ids. */
  pickSigners(parties = this.group.parties, t = this.group.t) {
    const avail = parties.filter((p) => !this.blamed.has(p));
    if (avail.length < t) {
      throw new ProtocolError(
        { name: 'ProtocolError', code: 'NOT_ENOUGH_HONEST', message: `only ${avail.length} parties are not blamed, ${t} are needed`, culprits: [...this.blamed] },
        'signing',
      );
    }
    const set =
      this.cheater !== null && avail.includes(this.cheater)
        ? [this.cheater, ...avail.filter((p) => p !== this.cheater).slice(0, t - 1)]
        : avail.slice(0, t);
    return set.sort((a, b) => a - b);
  }

  /**
   * Run a session with t signers; if it fails naming culprits, name them, leave them out and
   * run it again with another set (while t unblamed parties remain).
   */
  async withExclusion(phase, fn, pick = () => this.pickSigners()) {
    let lastErr = null;
    for (let attempt = 1; attempt <= 4; attempt++) {
      const signers = pick();
      try {
        this.net.clearInboxes();
        const res = await fn(signers, attempt > 1 ? `attempt ${attempt} · ` : '');
        return { ...res, note: lastErr ? `First attempt failed with ${lastErr.code}; done on attempt ${attempt} without ${names(lastErr.culprits)}` : '' };
      } catch (err) {
        const culprits = (err.culprits ?? []).filter((c) => signers.includes(c));
        if (!culprits.length) throw err;
        lastErr = err;
        const why = new Map((err.blameList ?? []).map((b) => [b.party, b]));
        for (const c of culprits) {
          const b = why.get(c);
          this.blame(phase, [c], `the session failed cleanly with ${err.code} naming party ${c}${b ? ` (${b.code}: ${b.reason})` : ''}. It is excluded and the session retried.`, err.code);
        }
      }
    }
    throw lastErr;
  }

  /** The failure of the service role (combiner or coordinator), if it failed. */
  serviceFailed(r, context) {
    if (r.errors.has(this.service)) throw new ProtocolError(r.errors.get(this.service), context);
    if (!r.outcomes.has(this.service)) throw new Error(`${context}: the service did not finish`);
    return r.outcomes.get(this.service);
  }

  markSigners(signers, label) {
    for (const p of this.group.parties) {
      if (this.blamed.has(p)) continue;
      this.ui.party(p, { state: signers.includes(p) ? 'signer' : 'share', label: signers.includes(p) ? label : `share · gen ${this.group.generation}` });
    }
  }

  // -------------------------------------------------------------------------- key ceremony

  /**
   * The setup path of the lifecycle: Pulsar DKG → key ceremony → certification (members and
   * the combiner, its key-ceremony signers picked here), Lens key generation (members).
   */
  async keyCeremony() {
    const { k, t } = this.p;
    const members = Array.from({ length: k }, (_, i) => i + 1);
    this.newPhase();
    let r;
    if (this.scheme === 'pulsar') {
      const res = await this.withExclusion(
        'Key ceremony',
        async (signers) => {
          const { session, seed } = await this.#session([...members, COMBINER]);
          const setup = { session, level: this.p.level, members, threshold: t, signers };
          // Only a dealing cheat here: the key derivation releases shares to the combiner too,
          // and a signing cheat belongs to signing sessions.
          const r = await this.run('Key ceremony', [
            ...members.map((id) => ({ key: id, factory: 'pulsar.lifecycle.member.setup', params: withSeed({ ...setup, combiner: COMBINER, id, cheat: this.cheat(id, 'dealing') }, seed(id)) })),
            { key: COMBINER, factory: 'pulsar.lifecycle.combiner.setup', params: withSeed({ ...setup, id: COMBINER }, seed(COMBINER)) },
          ], { tolerate: signers, label: `DKG of ${members.length}; key derivation by ${ranges(signers)}` });
          this.serviceFailed(r, 'the combiner (key ceremony)');
          return { r };
        },
        () => this.pickSigners(members, t),
      );
      r = res.r;
      this.ui.party(COMBINER, { state: 'idle', label: 'derived, announced, erased' });
    } else {
      const { session, seed } = await this.#session(members);
      r = await this.run('Key ceremony', members.map((id) => (
        { key: id, factory: 'lens.lifecycle.member.keygen', params: withSeed({ curve: this.p.curve, session, members, threshold: t, id, cheat: this.cheat(id, 'dealing') }, seed(id)) })),
        { label: `DKG of ${members.length}` });
    }
    const out = this.honest(r, members, 'key ceremony');
    this.blameFrom('Key ceremony (DKG)', out.blame, (b) =>
      `party ${b.party} was disqualified as a dealer (${b.code}: ${b.reason})${b.related ? `, after a complaint by party ${b.related}` : ''}. ` +
      `It was excluded and the ceremony continued: the key comes from the ${plural(out.qualified.length, 'qualified dealer')}.`,
    );
    // The group's public record: the combiner's certified record (Pulsar), the package (Lens).
    const rec = this.scheme === 'pulsar' ? r.outcomes.get(COMBINER) : out;
    this.group = {
      generation: rec.generation,
      t: rec.threshold,
      parties: rec.parties,
      transcriptHash: rec.transcriptHash,
      publicKey: rec.groupKey,
      sharing: rec.sharing,
      keyRecord: rec.keyRecord,
      level: rec.level,
      publicPackage: rec.publicPackage,
    };
    for (const p of this.group.parties) if (!this.blamed.has(p)) this.ui.party(p, { state: 'share', label: 'share · gen 0' });
    this.hasKey = true;
  }

  // -------------------------------------------------------------------------- signing

  async sign(message) {
    this.signCount += 1;
    const g = this.group;
    const phase = `Sign ${this.signCount}${g.generation ? ` (gen ${g.generation})` : ''}`;
    this.newPhase();
    const res = await this.withExclusion(phase, async (signers) => {
      if (this.scheme === 'pulsar') {
        const { session, seed } = await this.#session([COMBINER, ...signers]);
        const common = { session, signers, message };
        const r = await this.run(phase, [
          { key: COMBINER, factory: 'pulsar.lifecycle.combiner.sign', params: withSeed({ ...common, id: COMBINER, keyRecord: g.keyRecord, sharing: g.sharing }, seed(COMBINER)) },
          ...signers.map((id) => ({ key: id, factory: 'pulsar.lifecycle.member.sign', params: withSeed({ ...common, keyring: true, combiner: COMBINER, cheat: this.cheat(id, 'signing') }, seed(id)) })),
        ], { tolerate: signers, label: `signers ${ranges(signers)}` });
        const out = this.serviceFailed(r, 'the combiner');
        this.ui.party(COMBINER, { state: 'idle', label: 'rebuilt, signed, erased' });
        return out;
      }
      const { seed } = await this.#session(signers); // the coordinator draws nothing
      const r = await this.run(phase, [
        { key: COORDINATOR, factory: 'lens.lifecycle.coordinator.sign', params: { publicPackage: g.publicPackage, id: COORDINATOR, message } },
        ...signers.map((id) => ({ key: id, factory: 'lens.lifecycle.member.sign', params: withSeed({ keyring: true, coordinator: COORDINATOR, message, cheat: this.cheat(id, 'signing') }, seed(id)) })),
      ], { tolerate: signers, label: `signers ${ranges(signers)}` });
      return { ...this.serviceFailed(r, 'the coordinator'), blame: [] };
    });
    this.blameFrom(phase, res.blame, (b) => `party ${b.party} was excluded (${b.code}: ${b.reason}); the session still had ${res.signers.length} valid contributions.`);
    this.markSigners(res.signers, `signed #${this.signCount}`);
    return res;
  }

  async verify(message, signature) {
    const g = this.group;
    const request =
      this.scheme === 'pulsar'
        ? { kind: 'pulsar', groupKey: g.publicKey, message, signature }
        : { kind: 'lens', curve: this.p.curve, groupKey: g.publicKey, message, signature };
    return this.pool.call(0, { op: 'verify', request });
  }

  // -------------------------------------------------------------------------- resharing

  /**
   * The reshare path of the lifecycle to (t, n): the dealing ends with the activation round,
   * and each member's keyring makes the new generation current — erasing the old share —
   * only if it verified the activation certificate.
   */
  async reshare(n, t) {
    const g = this.group;
    const phase = `Reshare → ${t} of ${n}`;
    this.newPhase();
    const dealers = g.parties.filter((p) => !this.blamed.has(p));
    if (dealers.length < g.t) throw new Error(`only ${dealers.length} honest parties can deal, ${g.t} are needed`);
    // The new set: ids 1, 2, … skipping blamed parties (so a cheater is not invited back).
    const receivers = [];
    for (let id = 1; receivers.length < n; id++) if (!this.blamed.has(id)) receivers.push(id);
    const fresh = this.addParties(receivers, 'new, no share yet');
    const participants = [...new Set([...dealers, ...receivers])].sort((a, b) => a - b);
    const { session, seed } = await this.#session(participants);
    const common = { session, dealers, receivers, threshold: t };
    // The group's public record, for a joining member (a holder uses its own share's).
    const record = this.scheme === 'pulsar' ? { keyRecord: g.keyRecord, sharing: g.sharing } : { publicPackage: g.publicPackage };
    const r = await this.run(
      phase,
      participants.map((id) => ({
        key: id,
        factory: `${this.scheme}.lifecycle.member.reshare`,
        params: withSeed({ keyring: true, id, ...common, ...record, cheat: this.cheat(id, 'dealing') }, seed(id)),
      })),
      { label: `dealers ${ranges(dealers)} → receivers ${ranges(receivers)}` },
    );
    const out = this.honest(r, receivers, 'reshare');
    for (const p of receivers) {
      const o = r.outcomes.get(p);
      if (!o || p === this.cheater) continue;
      if (o.keyring?.generation !== out.generation) throw new Error(`new party ${p} does not hold a generation-${out.generation} share`);
      if (!equalBytes(o.keyring.share.groupKey, g.publicKey)) throw new Error(`party ${p} ended with a different group key`);
    }
    this.blameFrom(phase, out.blame, (b) => `dealer ${b.party} was disqualified (${b.code}: ${b.reason}); the new shares come from the ${out.qualified.length} qualified dealers.`);
    this.lastReshare = { old: g, outcomes: r.outcomes, dealers, receivers, fresh, out };
    this.group = {
      ...g,
      generation: out.generation,
      t: out.threshold,
      parties: out.parties,
      transcriptHash: out.transcriptHash,
      sharing: out.sharing ?? g.sharing,
      keyRecord: out.keyRecord ?? g.keyRecord,
      publicPackage: out.publicPackage ?? g.publicPackage,
    };
    for (const p of out.parties) {
      if (this.blamed.has(p)) continue;
      this.ui.party(p, { state: 'share', label: `share · gen ${out.generation}${fresh.includes(p) ? ' (new)' : ''}` });
    }
    return { dealers, receivers };
  }

  /** The activation certificate of the last reshare, and what every old party's keyring did with it. */
  async activate() {
    const { outcomes, old, out } = this.lastReshare;
    const oldParties = old.parties.filter((p) => !this.blamed.has(p) && outcomes.has(p));
    const refused = oldParties.filter((p) => !outcomes.get(p).activated?.ok);
    if (refused.length) throw new Error(`the keyring of ${names(refused)} refused the activation certificate and kept the old share`);
    return { bytes: out.activation.certificate, signers: out.activation.members, verifiedBy: oldParties };
  }

  /** A third party's check, with only the new generation's public data; then the old shares
   *  the keyrings erased are shown as erased. */
  async verifyActivation(cert) {
    const g = this.group;
    const common = { generation: g.generation, transcriptHash: g.transcriptHash, certificate: cert.bytes };
    const request =
      this.scheme === 'pulsar'
        ? { kind: 'pulsar-activation', sharing: g.sharing, keyRecord: g.keyRecord, ...common }
        : { kind: 'lens-activation', publicPackage: g.publicPackage, ...common };
    const v = await this.pool.call(0, { op: 'verify', request });
    if (v.ok) {
      const { outcomes, old } = this.lastReshare;
      for (const p of old.parties) {
        const a = outcomes.get(p)?.activated;
        if (this.blamed.has(p) || !a?.ok || a.erased === undefined) continue;
        this.ui.party(p, a.member
          ? { detail: `its keyring erased the generation-${a.erased} share on the verified activation certificate; holds its generation-${a.generation} share` }
          : { state: 'retired', label: 'old share erased', detail: `left the group; its keyring erased the generation-${a.erased} share on the verified activation certificate` });
      }
    }
    return { ...v, verifier: v.ok ? v.verifier : `${v.verifier}: ${v.code} (${v.reason})` };
  }
}
