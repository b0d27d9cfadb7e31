// The sequence of rounds of each scheme, on the page side. A `Run` is one group of parties
// (plus the combiner or the FROST coordinator) living in the worker pool: it says who acts in
// each round and who a broadcast reaches, and reads back only public results (group key,
// signatures, certificates, blame). Parties exchange bytes through www/coordinator.js only.

import { Network } from './coordinator.js';
import { COMBINER, COORDINATOR } from './party-logic.js';

/** ⌈2K/3⌉, the default threshold. */
export function defaultThreshold(k) {
  return Math.ceil((2 * k) / 3);
}

const EMPTY = new Uint8Array(0);

function session() {
  return crypto.getRandomValues(new Uint8Array(32));
}

function equalBytes(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** A library message without its context prefix and Rust debug forms. */
function tidy(message) {
  return message
    .replace(/^.*?\(party \d+\): /, '')
    .replace(/^[^:]*: /, '')
    .replace(/;?\s*culprits:? \[[^\]]*\]/g, '')
    .replace(/PartyId\((\d+)\)/g, 'party $1');
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
   * @param {{ pool: import('./pool.js').WorkerPool, params: object, ui: object }} opts
   *   params: { scheme, level, curve, k, t, cheater, cheatMode }
   */
  constructor({ pool, params, ui }) {
    this.pool = pool;
    this.p = params;
    this.ui = ui;
    this.scheme = params.scheme;
    this.cheater = params.cheater ?? null;
    this.cheatMode = params.cheatMode ?? 'signing';
    this.net = new Network(pool, {
      onRoundStart: (r) => ui.roundStart(r),
      onStepStart: (r) => ui.stepStart(r),
      onProgress: (p) => ui.roundProgress(p),
    });
    this.blamed = new Set();
    this.group = null; // { generation, t, parties, publicKey, sharing?, keyRecord?, publicPackage?, transcriptHash }
    this.hasKey = false;
    this.phaseSeq = 0;
    this.signCount = 0;
    this.service = this.scheme === 'pulsar' ? COMBINER : COORDINATOR;
  }

  get partyRole() {
    return this.scheme === 'pulsar' ? 'pulsar-party' : 'lens-party';
  }

  describeKey() {
    if (this.scheme === 'pulsar') return `ML-DSA-${this.group.level} public key of ${this.group.publicKey.length} bytes`;
    return `${this.p.curve} group key of ${this.group.publicKey.length} bytes`;
  }

  partyConfig(id) {
    return { curve: this.p.curve, cheat: id === this.cheater ? this.cheatMode : null };
  }

  // -------------------------------------------------------------------------- plumbing

  async start() {
    const specs = [];
    for (let id = 1; id <= this.p.k; id++) specs.push({ key: id, role: this.partyRole, config: this.partyConfig(id) });
    specs.push(
      this.scheme === 'pulsar'
        ? { key: COMBINER, role: 'pulsar-combiner', config: {} }
        : { key: COORDINATOR, role: 'lens-coordinator', config: { curve: this.p.curve } },
    );
    await this.net.spawn(specs);
    for (const s of specs) {
      const service = s.key === this.service;
      this.ui.addParty(s.key, {
        role: service ? 'service' : 'party',
        worker: this.net.workerOf(s.key),
        title: service ? (this.scheme === 'pulsar' ? 'Combiner' : 'Coordinator') : undefined,
        label: service ? (this.scheme === 'pulsar' ? 'holds no key' : 'public data only') : 'waiting',
        cheater: s.key === this.cheater,
      });
      if (s.key === this.cheater) this.ui.party(s.key, { cheater: true });
    }
  }

  async round(phase, name, step, actors, opts = {}) {
    const r = await this.net.round({ phase, round: name, step, actors, audience: opts.audience, input: opts.input });
    r.stats.seq = this.phaseSeq;
    this.ui.roundEnd(r.stats, r.stats.token);
    return r;
  }

  newPhase() {
    this.phaseSeq += 1;
    this.net.clearInboxes();
  }

  /**
   * Errors of a round: those of parties named by others are expected (a cheater's own
   * outcome is unspecified); any other error aborts with its code and culprits.
   */
  check(r, context, tolerate = new Set()) {
    for (const [key, info] of r.errors) {
      if (tolerate.has(key) || this.blamed.has(key)) continue;
      throw new ProtocolError(info, `${context} (party ${key})`);
    }
  }

  blame(phase, parties, text, short) {
    const fresh = parties.filter((p) => !this.blamed.has(p));
    for (const p of parties) this.blamed.add(p);
    if (fresh.length || parties.length) this.ui.blame({ phase, parties, text, short });
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
    let set;
    if (this.cheater !== null && avail.includes(this.cheater)) {
      set = [this.cheater, ...avail.filter((p) => p !== this.cheater).slice(0, g.t - 1)];
    } else {
      set = avail.slice(0, g.t);
    }
    return set.sort((a, b) => a - b);
  }

  /**
   * Run a signing-type session with t signers; if it fails naming culprits, name them,
   * leave them out and run it again with another set (while t honest parties remain).
   */
  async withExclusion(phase, fn) {
    let lastErr = null;
    for (let attempt = 1; attempt <= 4; attempt++) {
      const signers = this.pickSigners();
      const label = attempt > 1 ? `attempt ${attempt} · ` : '';
      try {
        const res = await fn(signers, label);
        if (res.blame?.length) {
          for (const b of res.blame) {
            this.blame(phase, [b.party], `the combiner excluded party ${b.party} (${b.code}: ${b.reason}) and still had ${res.signers.length} valid shares.`, `excluded: ${b.code}`);
          }
        }
        return { ...res, attempts: attempt, signers: res.signers ?? signers, note: lastErr ? `First attempt failed with ${lastErr.code}; signed on attempt ${attempt} without ${names(lastErr.culprits)}` : '' };
      } catch (err) {
        const culprits = (err.culprits ?? []).filter((c) => signers.includes(c));
        if (!culprits.length) throw err;
        lastErr = err;
        const left = this.group.parties.filter((p) => !this.blamed.has(p) && !culprits.includes(p)).length;
        if (left < this.group.t) {
          this.blame(phase, culprits, `the session failed cleanly with ${err.code ?? err.name} naming ${names(culprits)} (${tidy(err.message)}). Only ${left} unblamed parties remain, fewer than t = ${this.group.t}: no retry is possible.`, `blamed: ${err.code ?? 'error'}`);
          throw new ProtocolError(
            { name: err.name, code: err.code, culprits, message: `${tidy(err.message)}; only ${left} honest parties remain for t = ${this.group.t}, so the session cannot be retried` },
            phase,
          );
        }
        this.blame(
          phase,
          culprits,
          `the session failed cleanly with ${err.code ?? err.name} naming ${names(culprits)}` +
            ` (${tidy(err.message)}). It is excluded; the session is retried with another ${plural(this.group.t, 'signer')}.`,
          `blamed: ${err.code ?? 'error'}`,
        );
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
    if (this.scheme === 'pulsar') await this.pulsarCeremony();
    else await this.lensCeremony();
    this.hasKey = true;
  }

  /**
   * The LSS DKG (Pulsar: Pedersen mode; Lens: Feldman mode with proofs of knowledge): deal,
   * complain, respond, finish. A cheating dealer is disqualified and named, and the others
   * finish without its contribution. Returns the honest parties' common result.
   */
  async lssDkg(members, t, dealLabel) {
    const phase = 'DKG';
    const params = { session: session(), threshold: t, parties: members };
    const all = { audience: members };
    let r = await this.round(phase, dealLabel, 'dkg1', members, { ...all, input: () => ({ params }) });
    this.check(r, 'DKG round 1', new Set([this.cheater]));
    r = await this.round(phase, 'round 2: check shares, complain', 'dkg2', members, all);
    this.check(r, 'DKG round 2', new Set([this.cheater]));
    r = await this.round(phase, 'round 3: answer complaints', 'dkg3', members, all);
    this.check(r, 'DKG round 3', new Set([this.cheater]));
    r = await this.round(phase, 'finish: qualify dealers, store share', 'dkgFinish', members, all);
    const out = this.honestResult(r, 'DKG finish');
    for (const b of out.blame) {
      this.blame(
        'Key ceremony (DKG)',
        [b.party],
        `party ${b.party} was disqualified as a dealer (${b.code}: ${b.reason})` +
          `${b.related ? `, after a complaint by party ${b.related}` : ''}. It was excluded and the ceremony continued: ` +
          `the key comes from the ${plural(out.qualified.length, 'qualified dealer')}.`,
        `disqualified: ${b.code}`,
      );
    }
    if (out.groupKey) {
      for (const [p, res] of r.results) {
        if (p !== this.cheater && !equalBytes(res.groupKey, out.groupKey)) throw new Error(`party ${p} computed a different group key`);
      }
    }
    return out;
  }

  async pulsarCeremony() {
    const { k, t } = this.p;
    const members = Array.from({ length: k }, (_, i) => i + 1);
    // 1. Pedersen DKG (LSS dealing): deal, complain, respond, finish.
    this.newPhase();
    const out = await this.lssDkg(members, t, 'round 1: deal');
    this.group = {
      generation: out.generation,
      t: out.threshold,
      parties: out.parties,
      sharing: out.sharing,
      transcriptHash: out.transcriptHash,
      level: this.p.level,
    };
    for (const p of members) if (!this.blamed.has(p)) this.ui.party(p, { state: 'share', label: 'Pedersen share' });

    // 2. Key derivation: t parties seal their shares to the combiner, which derives the
    //    ML-DSA key once, announces it with a proof, and erases it.
    this.newPhase();
    const kphase = 'Key derivation';
    const res = await this.withExclusion('Key ceremony (derivation)', async (signers, label) => {
      this.net.clearInboxes();
      const kc = { session: session(), level: this.p.level, signers };
      return this.custody(kphase, label, signers, 'ceremony', { params: kc }, 'finishCeremony', {
        params: kc,
        sharing: this.group.sharing,
      }, this.group.parties);
    });
    // 3. Every party checks the announcement against its sharing and stores the key.
    const r = await this.round(kphase, 'store: check announcement', 'storeKey', this.group.parties);
    this.check(r, 'storing the group key', new Set([this.cheater]));
    for (const [p, info] of r.results) {
      if (!equalBytes(info.groupKey, res.groupKey)) throw new Error(`party ${p} stored a different group key`);
    }
    this.group.publicKey = res.groupKey;
    this.group.keyRecord = res.keyRecord;
    this.group.level = res.level;
    this.ui.party(COMBINER, { state: 'idle', label: 'derived, announced, erased' });
    for (const p of this.group.parties) if (!this.blamed.has(p)) this.ui.party(p, { state: 'share', label: 'share · gen 0' });
  }

  /** The result every honest party agrees on (the cheater's own may differ). */
  honestResult(r, context) {
    this.check(r, context, new Set([this.cheater]));
    let ref = null;
    for (const [p, res] of r.results) {
      if (p === this.cheater) continue;
      if (!ref) ref = res;
      else if (!equalBytes(ref.transcriptHash, res.transcriptHash)) throw new Error(`${context}: party ${p} disagrees on the transcript`);
    }
    if (!ref) throw new Error(`${context}: no honest party finished`);
    return ref;
  }

  /**
   * One Pulsar custody session: session key, round 1 (broadcast), round 2 (envelopes to the
   * combiner), combine. Returns the combiner's result; throws its typed error.
   */
  async custody(phase, label, signers, kind, signerInput, finishStep, finishInput, announceTo) {
    let r = await this.round(phase, `${label}combiner session key`, 'sessionKey', [COMBINER], { audience: signers });
    this.check(r, 'combiner');
    r = await this.round(phase, `${label}round 1: commit, seal share`, 'round1', signers, {
      audience: [...signers, COMBINER],
      input: () => ({ kind, ...signerInput }),
    });
    this.check(r, `${phase} round 1`);
    r = await this.round(phase, `${label}round 2: envelope to combiner`, 'round2', signers);
    this.check(r, `${phase} round 2`);
    const finishName = finishStep === 'finishCeremony' ? 'derive key, announce' : finishStep === 'activate' ? 'rebuild, sign certificate, erase' : 'rebuild key, sign, erase';
    r = await this.round(phase, `${label}combiner: ${finishName}`, finishStep, [COMBINER], {
      audience: announceTo ?? [],
      input: () => finishInput,
    });
    const err = r.errors.get(COMBINER);
    if (err) throw new ProtocolError(err, `the combiner (${phase})`);
    return r.results.get(COMBINER);
  }

  async lensCeremony() {
    const { k, t } = this.p;
    const members = Array.from({ length: k }, (_, i) => i + 1);
    // The LSS DKG in Feldman mode (with proofs of knowledge): a cheating dealer is
    // excluded and named, and the ceremony continues without its contribution.
    this.newPhase();
    const out = await this.lssDkg(members, t, 'round 1: deal (commitments + proof of knowledge)');
    this.group = {
      generation: out.generation,
      t: out.threshold,
      parties: out.parties,
      publicKey: out.groupKey,
      publicPackage: out.publicPackage,
      transcriptHash: out.transcriptHash,
    };
    for (const p of this.group.parties) if (!this.blamed.has(p)) this.ui.party(p, { state: 'share', label: 'share · gen 0' });
    const r = await this.round('DKG', 'coordinator: load public key package', 'setup', [COORDINATOR], {
      input: () => ({ publicPackage: this.group.publicPackage }),
    });
    this.check(r, 'coordinator');
  }

  // -------------------------------------------------------------------------- signing

  async sign(message) {
    this.signCount += 1;
    const g = this.group;
    const phase = `Sign ${this.signCount}${g.generation ? ` (gen ${g.generation})` : ''}`;
    this.newPhase();
    const res = await this.signSession(phase, { message });
    this.markSigners(res.signers, `signed #${this.signCount}`);
    return res;
  }

  /** A signing session of the current group (a message, or the activation certificate). */
  async signSession(phase, { message, activation = false }) {
    const g = this.group;
    if (this.scheme === 'pulsar') {
      return this.withExclusion(phase, async (signers, label) => {
        this.net.clearInboxes();
        const base = { session: session(), signers };
        const params = activation ? base : { ...base, message, context: EMPTY };
        const res = await this.custody(
          phase,
          label,
          signers,
          activation ? 'activation' : 'sign',
          { params },
          activation ? 'activate' : 'sign',
          { params, keyRecord: g.keyRecord, sharing: g.sharing },
        );
        this.ui.party(COMBINER, { state: 'idle', label: 'rebuilt, signed, erased' });
        return res;
      });
    }
    return this.withExclusion(phase, async (signers, label) => {
      this.net.clearInboxes();
      let r = await this.round(phase, `${label}round 1: nonce commitments`, 'sign1', signers);
      this.check(r, `${phase} round 1`);
      r = await this.round(phase, `${label}coordinator: signing package`, 'package', [COORDINATOR], {
        audience: signers,
        input: () => ({ message, activation }),
      });
      if (r.errors.has(COORDINATOR)) throw new ProtocolError(r.errors.get(COORDINATOR), 'the coordinator');
      r = await this.round(phase, `${label}round 2: signature shares`, 'sign2', signers);
      this.check(r, `${phase} round 2`);
      r = await this.round(phase, `${label}coordinator: aggregate`, 'aggregate', [COORDINATOR], { input: () => ({ activation }) });
      if (r.errors.has(COORDINATOR)) throw new ProtocolError(r.errors.get(COORDINATOR), 'the coordinator');
      return { ...r.results.get(COORDINATOR), signers, blame: [] };
    });
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

  async reshare(n, t) {
    const g = this.group;
    const phase = `Reshare → ${t} of ${n}`;
    this.newPhase();
    const dealers = g.parties.filter((p) => !this.blamed.has(p));
    if (dealers.length < g.t) throw new Error(`only ${dealers.length} honest parties can deal, ${g.t} are needed`);
    // The new set: ids 1, 2, … skipping blamed parties (so a cheater is not invited back).
    const receivers = [];
    for (let id = 1; receivers.length < n; id++) if (!this.blamed.has(id)) receivers.push(id);
    const fresh = receivers.filter((p) => !this.net.placement.has(p));
    if (fresh.length) {
      await this.net.spawn(fresh.map((key) => ({ key, role: this.partyRole, config: this.partyConfig(key) })));
      for (const p of fresh) this.ui.addParty(p, { worker: this.net.workerOf(p), label: 'new, no share yet', cheater: p === this.cheater });
    }
    const participants = [...new Set([...dealers, ...receivers])].sort((a, b) => a - b);
    const params =
      this.scheme === 'pulsar'
        ? { session: session(), dealers, receivers, threshold: t, sharing: g.sharing, keyRecord: g.keyRecord }
        : { session: session(), dealers, receivers, threshold: t, publicPackage: g.publicPackage };
    const all = { audience: participants };
    let r = await this.round(phase, `round 1: ${dealers.length} dealers deal to ${n}`, 'reshare1', participants, { ...all, input: () => ({ params }) });
    this.check(r, 'reshare round 1', new Set([this.cheater]));
    r = await this.round(phase, 'round 2: check shares, complain', 'reshare2', participants, all);
    this.check(r, 'reshare round 2', new Set([this.cheater]));
    r = await this.round(phase, 'round 3: answer complaints', 'reshare3', participants, all);
    this.check(r, 'reshare round 3', new Set([this.cheater]));
    r = await this.round(phase, 'finish: store new share', 'reshareFinish', participants, all);
    this.check(r, 'reshare finish', new Set([this.cheater]));
    let out = null;
    for (const p of receivers) {
      const res = r.results.get(p);
      if (!res || p === this.cheater) continue;
      if (!res.hasShare) throw new Error(`new party ${p} did not get a share`);
      out ??= res;
      if (!equalBytes(out.transcriptHash, res.transcriptHash)) throw new Error(`party ${p} disagrees on the reshare transcript`);
      if (res.groupKey && !equalBytes(res.groupKey, g.publicKey)) throw new Error(`party ${p} ended with a different group key`);
    }
    if (!out) throw new Error('no receiver finished the reshare');
    for (const b of out.blame) {
      this.blame(phase, [b.party], `dealer ${b.party} was disqualified (${b.code}: ${b.reason}); the new shares come from the ${out.qualified.length} qualified dealers.`, `disqualified: ${b.code}`);
    }
    const old = g.parties;
    this.group = {
      ...g,
      generation: out.generation,
      t: out.threshold,
      parties: out.parties,
      transcriptHash: out.transcriptHash,
      sharing: out.sharing ?? g.sharing,
      publicPackage: out.publicPackage ?? g.publicPackage,
      publicKey: g.publicKey,
    };
    for (const p of old) {
      if (!out.parties.includes(p) && !this.blamed.has(p)) this.ui.party(p, { state: 'retired', label: 'left the group', detail: `not in the new set; its generation-${g.generation} share is useless now` });
    }
    for (const p of out.parties) {
      if (this.blamed.has(p)) continue;
      this.ui.party(p, { state: 'share', label: `share · gen ${out.generation}${fresh.includes(p) ? ' (new)' : ''}` });
    }
    if (this.scheme === 'lens') {
      const c = await this.round(phase, 'coordinator: load new key package', 'setup', [COORDINATOR], {
        input: () => ({ publicPackage: this.group.publicPackage }),
      });
      this.check(c, 'coordinator');
    }
    return { dealers, receivers };
  }

  /** The new set signs the activation certificate of its generation, under the same key. */
  async activate() {
    const phase = `Activation (gen ${this.group.generation})`;
    this.newPhase();
    const res = await this.signSession(phase, { activation: true });
    this.markSigners(res.signers, 'signed certificate');
    return { bytes: res.certificate, signature: res.signature, signers: res.signers };
  }

  async verifyActivation(cert) {
    const g = this.group;
    const request =
      this.scheme === 'pulsar'
        ? { kind: 'pulsar-activation', groupKey: g.publicKey, certificate: cert.bytes }
        : { kind: 'lens-activation', curve: this.p.curve, groupKey: g.publicKey, certificate: cert.bytes };
    const v = await this.pool.call(0, { op: 'verify', request });
    if (v.ok && v.generation !== g.generation) {
      return { ...v, ok: false, verifier: `${v.verifier}; but it names generation ${v.generation}, not ${g.generation}` };
    }
    return v;
  }
}
