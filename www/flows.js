// The flows of each scheme, on the page side. A `Run` is one group of parties (plus the
// combiner or the FROST coordinator) living in the worker pool. A flow only says which
// package factory each party starts with which public parameters, and routes the bytes
// (www/coordinator.js: step until done); it reads back public outcomes (group key, signatures,
// certificates, blame with the library's own codes). No round is implemented here.

import { Network } from './coordinator.js';
import { equalBytes, plural, randomSession } from './util.js';

/** Keys of the two service roles (parties are 1..64). */
export const COMBINER = 1000;
export const COORDINATOR = 1001;

/** ⌈2K/3⌉, the default threshold. */
export function defaultThreshold(k) {
  return Math.ceil((2 * k) / 3);
}

const EMPTY = new Uint8Array(0);

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
  }

  describeKey() {
    if (this.scheme === 'pulsar') return `ML-DSA-${this.group.level} public key of ${this.group.publicKey.length} bytes`;
    return `${this.p.curve} group key of ${this.group.publicKey.length} bytes`;
  }

  /** The misbehaviour a party runs in a `kind` ('dealing' | 'signing') step: the one Cheat model. */
  cheat(id, kind) {
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
  async run(phase, parties, { tolerate = [] } = {}) {
    const r = await this.net.run({ phase, parties });
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

  /** t signers of the current group: the cheater (if not caught yet) and the lowest ids. */
  pickSigners() {
    const g = this.group;
    const avail = g.parties.filter((p) => !this.blamed.has(p));
    if (avail.length < g.t) {
      throw new ProtocolError(
        { name: 'ProtocolError', code: 'NOT_ENOUGH_HONEST', message: `only ${avail.length} parties are not blamed, ${g.t} are needed`, culprits: [...this.blamed] },
        'signing',
      );
    }
    const set =
      this.cheater !== null && avail.includes(this.cheater)
        ? [this.cheater, ...avail.filter((p) => p !== this.cheater).slice(0, g.t - 1)]
        : avail.slice(0, g.t);
    return set.sort((a, b) => a - b);
  }

  /**
   * Run a session with t signers; if it fails naming culprits, name them, leave them out and
   * run it again with another set (while t unblamed parties remain).
   */
  async withExclusion(phase, fn) {
    let lastErr = null;
    for (let attempt = 1; attempt <= 4; attempt++) {
      const signers = this.pickSigners();
      try {
        const res = await fn(signers, attempt > 1 ? `attempt ${attempt} · ` : '');
        this.blameFrom(phase, res.blame, (b) => `party ${b.party} was excluded (${b.code}: ${b.reason}); the session still had ${res.signers.length} valid contributions.`);
        return { ...res, note: lastErr ? `First attempt failed with ${lastErr.code}; signed on attempt ${attempt} without ${names(lastErr.culprits)}` : '' };
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

  markSigners(signers, label) {
    for (const p of this.group.parties) {
      if (this.blamed.has(p)) continue;
      this.ui.party(p, { state: signers.includes(p) ? 'signer' : 'share', label: signers.includes(p) ? label : `share · gen ${this.group.generation}` });
    }
  }

  // -------------------------------------------------------------------------- key ceremony

  async keyCeremony() {
    const { k, t } = this.p;
    const members = Array.from({ length: k }, (_, i) => i + 1);
    this.newPhase();
    const factory = this.scheme === 'pulsar' ? 'pulsar.dkg' : 'lens.keygen';
    const session = randomSession();
    const dkg = await this.run(
      'DKG',
      members.map((id) => ({
        key: id,
        factory,
        params: { session, parties: members, threshold: t, id, cheat: this.cheat(id, 'dealing'), ...(this.scheme === 'lens' ? { curve: this.p.curve } : {}) },
      })),
    );
    const out = this.honest(dkg, members, 'DKG');
    this.blameFrom('Key ceremony (DKG)', out.blame, (b) =>
      `party ${b.party} was disqualified as a dealer (${b.code}: ${b.reason})${b.related ? `, after a complaint by party ${b.related}` : ''}. ` +
      `It was excluded and the ceremony continued: the key comes from the ${plural(out.qualified.length, 'qualified dealer')}.`,
    );
    this.group = { generation: out.generation, t: out.threshold, parties: out.parties, transcriptHash: out.transcriptHash };
    if (this.scheme === 'lens') {
      Object.assign(this.group, { publicKey: out.groupKey, publicPackage: out.publicPackage });
    } else {
      this.group.sharing = out.sharing;
      for (const p of members) if (!this.blamed.has(p)) this.ui.party(p, { state: 'share', label: 'Pedersen share' });
      await this.pulsarKey();
    }
    for (const p of this.group.parties) if (!this.blamed.has(p)) this.ui.party(p, { state: 'share', label: 'share · gen 0' });
    this.hasKey = true;
  }

  /** Pulsar: t parties release their shares to the combiner, which derives the key once and
   *  announces it; then every party certifies the announced key for its sharing. */
  async pulsarKey() {
    this.newPhase();
    const res = await this.withExclusion('Key derivation', async (signers) => {
      this.net.clearInboxes();
      const session = randomSession();
      const r = await this.run('Key derivation', [
        { key: COMBINER, factory: 'pulsar.keyCeremony.combiner', params: { id: COMBINER, level: this.p.level, sharing: this.group.sharing, signers, session } },
        ...signers.map((id) => ({
          key: id,
          factory: 'pulsar.keyCeremony.signer',
          params: (starts) => ({ share: true, session: starts.get(COMBINER).info.session, cheat: this.cheat(id, 'signing') }),
        })),
      ], { tolerate: signers });
      if (r.errors.has(COMBINER)) throw new ProtocolError(r.errors.get(COMBINER), 'the combiner (key derivation)');
      return r.outcomes.get(COMBINER);
    });
    this.ui.party(COMBINER, { state: 'idle', label: 'derived, announced, erased' });
    this.newPhase();
    const holders = this.group.parties.filter((p) => !this.blamed.has(p));
    const r = await this.run('Key certification', holders.map((id) => ({ key: id, factory: 'pulsar.certify', params: { share: true, announcement: res.announcement } })));
    const cert = r.outcomes.get(holders[0]);
    for (const [p, o] of r.outcomes) if (!equalBytes(o.groupKey, res.groupKey)) throw new Error(`party ${p} certified a different group key`);
    Object.assign(this.group, { publicKey: cert.groupKey, keyRecord: cert.keyRecord, level: cert.level });
  }

  // -------------------------------------------------------------------------- signing

  async sign(message) {
    this.signCount += 1;
    const g = this.group;
    const phase = `Sign ${this.signCount}${g.generation ? ` (gen ${g.generation})` : ''}`;
    this.newPhase();
    const res = await this.withExclusion(phase, async (signers) => {
      this.net.clearInboxes();
      if (this.scheme === 'pulsar') {
        const session = randomSession();
        const r = await this.run(phase, [
          { key: COMBINER, factory: 'pulsar.sign.combiner', params: { id: COMBINER, keyRecord: g.keyRecord, sharing: g.sharing, signers, message, context: EMPTY, session } },
          ...signers.map((id) => ({
            key: id,
            factory: 'pulsar.sign.signer',
            params: (starts) => ({ share: true, session: starts.get(COMBINER).info.session, message, context: EMPTY, cheat: this.cheat(id, 'signing') }),
          })),
        ], { tolerate: signers });
        if (r.errors.has(COMBINER)) throw new ProtocolError(r.errors.get(COMBINER), 'the combiner');
        this.ui.party(COMBINER, { state: 'idle', label: 'rebuilt, signed, erased' });
        return r.outcomes.get(COMBINER);
      }
      const r = await this.run(phase, [
        { key: COORDINATOR, factory: 'lens.coordinate', params: { publicPackage: g.publicPackage, id: COORDINATOR, message } },
        ...signers.map((id) => ({ key: id, factory: 'lens.sign', params: { share: true, coordinator: COORDINATOR, message, cheat: this.cheat(id, 'signing') } })),
      ], { tolerate: signers });
      if (r.errors.has(COORDINATOR)) throw new ProtocolError(r.errors.get(COORDINATOR), 'the coordinator');
      return { ...r.outcomes.get(COORDINATOR), blame: [] };
    });
    this.markSigners(res.signers, `signed #${this.signCount}`);
    return res;
  }

  async verify(message, signature) {
    const g = this.group;
    const request =
      this.scheme === 'pulsar'
        ? { kind: 'pulsar', groupKey: g.publicKey, message, signature, context: EMPTY }
        : { kind: 'lens', curve: this.p.curve, groupKey: g.publicKey, message, signature };
    return this.pool.call(0, { op: 'verify', request });
  }

  // -------------------------------------------------------------------------- resharing

  /**
   * Reshare to (t, n): the dealing ends with the activation round, and every party checks the
   * certificate against the new generation before its worker erases an old share.
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
    const common = { session: randomSession(), dealers, receivers, threshold: t };
    const join =
      this.scheme === 'pulsar'
        ? { factory: 'pulsar.reshareJoin', extra: { keyRecord: g.keyRecord, sharing: g.sharing } }
        : { factory: 'lens.reshareJoin', extra: { publicPackage: g.publicPackage } };
    const r = await this.run(
      phase,
      participants.map((id) =>
        dealers.includes(id)
          ? { key: id, factory: `${this.scheme}.reshare`, params: { share: true, ...common, cheat: this.cheat(id, 'dealing') } }
          : { key: id, factory: join.factory, params: { ...join.extra, ...common, id } },
      ),
    );
    const out = this.honest(r, receivers, 'reshare');
    for (const p of receivers) {
      const o = r.outcomes.get(p);
      if (!o || p === this.cheater) continue;
      if (!o.hasShare) throw new Error(`new party ${p} did not get a share`);
      if (!equalBytes(o.groupKey, g.publicKey)) throw new Error(`party ${p} ended with a different group key`);
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
      publicKey: g.publicKey,
    };
    for (const p of out.parties) {
      if (this.blamed.has(p)) continue;
      this.ui.party(p, { state: 'share', label: `share · gen ${out.generation}${fresh.includes(p) ? ' (new)' : ''}` });
    }
    return { dealers, receivers };
  }

  /** The activation certificate of the last reshare, and every old party's own check of it. */
  async activate() {
    const { outcomes, old, out } = this.lastReshare;
    const oldParties = old.parties.filter((p) => !this.blamed.has(p));
    const unverified = oldParties.filter((p) => !outcomes.get(p)?.activation?.verified);
    if (unverified.length) throw new Error(`the activation certificate was not verified by ${names(unverified)}`);
    return { bytes: out.activation.certificate, signers: out.activation.members, verifiedBy: oldParties };
  }

  /** A third party's check, with only the new generation's public data; then the old shares
   *  (erased by their workers after their own check) are shown as erased. */
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
        if (this.blamed.has(p) || !outcomes.get(p)?.erasedOld) continue;
        const stays = g.parties.includes(p);
        this.ui.party(p, stays
          ? { detail: `old share erased (after verifying the activation certificate); holds its generation-${g.generation} share` }
          : { state: 'retired', label: 'old share erased', detail: `left the group; erased its generation-${old.generation} share after verifying the activation certificate` });
      }
    }
    return { ...v, verifier: v.ok ? v.verifier : `${v.verifier}: ${v.code} (${v.reason})` };
  }
}
