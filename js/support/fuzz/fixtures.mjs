// The valid material the JS fuzz suite mutates, all from real runs through the package: ML-DSA
// and SLH-DSA keys and signatures per parameter set, three Magnetar validators with their votes,
// a certificate and a registry per build, the golden validator set and certificate with a light
// client per build, BLS keys, signatures and an aggregate, a Lens key (DKG, dealer, refresh with its activation
// certificate, a FROST signature, a sealed share), a Pulsar group (made by the custody lifecycle,
// a signature, a reshare with its certificate, a sealed share; a DKG, key-ceremony session and
// announcement for the single-protocol factories), receivers for
// every exported class, and the protocol scenarios whose parties `Party#step` is fuzzed on.
// Deterministic: every seed is a label. Not part of the package.
import { readFileSync } from 'node:fs';

import { label32, pulsarGroup, run } from '../run.mjs';
import { bytes as labelled } from '../bytes.mjs';

const enc = (s) => new TextEncoder().encode(s);
const SLH_SETS = ['128s', '128f', '192s', '192f', '256s', '256f'].map((p) => `slhDsaShake${p}`);

/** Runs `parties` to the end, frees them, and returns their outcomes (throws on any error). */
function complete(parties, what) {
  const r = run(parties);
  parties.forEach((p) => p.free());
  for (const [id, e] of r.errors) throw new Error(`fixture ${what}: party ${id}: ${e.code ?? ''} ${e.message}`);
  return r.outcomes;
}

/** The messages a started party sends to `to`: its broadcast and its direct messages for `to`. */
export function addressed(from, to) {
  const out = [];
  if (from.start.outgoing.broadcast) out.push({ from: from.id, bytes: from.start.outgoing.broadcast });
  for (const d of from.start.outgoing.direct) if (d.to === to) out.push({ from: from.id, bytes: d.bytes });
  return out;
}

/**
 * Builds the material. `beat(label)` is called between its parts (the suite's watchdog: on a
 * loaded machine the whole takes over its 30 s).
 */
export function build(full, light, beat = () => {}) {
  const { lens, pulsar, corona, LensKeyShare, PulsarKeyShare, PulsarCommitteeShare, CoronaShare, Rng } = full;
  const seed = (label) => label32(`fuzz/${label}`);
  const f = { full, light, ml: {}, curves: lens.curves };

  // ML-DSA, per level.
  for (const level of [44, 65, 87]) {
    beat(`fixtures: ML-DSA-${level}`);
    const api = full[`mlDsa${level}`];
    const kp = api.keygen(seed(`ml/${level}`));
    const msg = labelled(`fuzz/ml/${level}/msg`, 100);
    const ctx = labelled(`fuzz/ml/${level}/ctx`, 7);
    const mu = api.internal.computeMu(msg, kp.publicKey, { context: ctx });
    f.ml[level] = {
      level,
      lengths: api.lengths,
      seed: seed(`ml/${level}`),
      pk: kp.publicKey,
      sk: kp.secretKey,
      msg,
      ctx,
      rnd: labelled(`fuzz/ml/${level}/rnd`, 32),
      sig: api.sign(msg, kp.secretKey, { context: ctx, extraEntropy: false }),
      sigInternal: api.internal.sign(msg, kp.secretKey, { extraEntropy: false }),
      mu,
      sigMu: api.internal.sign(mu, kp.secretKey, { externalMu: true, extraEntropy: false }),
    };
  }

  // SLH-DSA, per set (an "s" set signs in about a second: its sign lines are slow ones).
  f.slh = {};
  for (const name of SLH_SETS) {
    beat(`fixtures: ${name}`);
    const api = full[name];
    const sd = labelled(`fuzz/slh/${name}/seed`, api.lengths.seed);
    const kp = api.keygen(sd);
    const msg = labelled(`fuzz/slh/${name}/msg`, 100);
    const ctx = labelled(`fuzz/slh/${name}/ctx`, 7);
    f.slh[name] = {
      lengths: api.lengths,
      small: name.endsWith('s'),
      seed: sd,
      pk: kp.publicKey,
      sk: kp.secretKey,
      msg,
      ctx,
      sig: api.sign(msg, kp.secretKey, { context: ctx, extraEntropy: false }),
      sigInternal: api.internal.sign(msg, kp.secretKey, { extraEntropy: false }),
    };
  }

  beat('fixtures: Magnetar');
  // Magnetar (SHAKE-192f): three validators, their votes on a block, a 3-of-3 certificate, and
  // a registry in each build.
  const { magnetar, MagnetarRegistry } = full;
  const mode = 'shake192f';
  const M = (f.magnetar = { mode, modes: magnetar.modes, lengths: magnetar.lengths[mode], msg: enc('fuzz magnetar block'), ctx: enc('chain') });
  M.seed = labelled('fuzz/magnetar/seed', M.lengths.seed);
  const keys = [0, 1, 2].map((i) => magnetar.keygen(mode, { seed: labelled(`fuzz/magnetar/${i}`, M.lengths.seed) }));
  M.sk = keys[0].secretKey;
  M.pk = keys[0].publicKey;
  M.validators = keys.map((k, i) => ({ id: labelled(`fuzz/magnetar/id/${i}`, 32), publicKey: k.publicKey, weight: i + 1 }));
  M.votes = keys.map((k, i) => ({ id: M.validators[i].id, signature: magnetar.sign(mode, M.msg, k.secretKey, { context: M.ctx, extraEntropy: false }) }));
  M.sig = M.votes[0].signature;
  M.items = keys.map((k, i) => ({ publicKey: k.publicKey, message: M.msg, signature: M.votes[i].signature }));
  M.certificate = magnetar.aggregate(mode, M.votes);
  const registry = (cls) => () => new cls(mode, M.validators);

  beat('fixtures: certificates, BLS');
  // Certificates: the golden epoch-0 set and its valid one-leg `bls-only` certificate (kats/cert.json), a
  // light client per build; BLS keys, signatures and a three-key aggregate.
  const golden = JSON.parse(readFileSync(new URL('../../../kats/cert.json', import.meta.url), 'utf8'));
  const hex = (h) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));
  const C = (f.cert = {
    set: hex(golden.sets.find((x) => x.name === 'epoch-0').bytes),
    nextSet: hex(golden.sets.find((x) => x.name === 'epoch-1').bytes),
    certificate: hex(golden.certificates.find((x) => x.name === 'bls-only').bytes),
    policy: 'pq-off',
    policies: full.CERT_POLICIES,
  });
  const { bls } = full;
  const blsKeys = [0, 1, 2].map((i) => bls.keygen(labelled(`fuzz/bls/${i}`, 32)));
  const Bm = (f.bls = { lengths: bls.lengths, ikm: labelled('fuzz/bls/0', 32), msg: enc('fuzz bls message') });
  Bm.sk = blsKeys[0].secretKey;
  Bm.pk = blsKeys[0].publicKey;
  Bm.sig = bls.sign(Bm.msg, Bm.sk);
  Bm.pop = bls.popProve(Bm.sk);
  Bm.sigs = blsKeys.map((k) => bls.sign(Bm.msg, k.secretKey));
  Bm.pks = blsKeys.map((k) => k.publicKey);
  Bm.agg = bls.aggregate(Bm.sigs);

  beat('fixtures: key formats');
  // Key formats: ML-DSA-44's fixture key in every format.
  const K = (f.keys = { alg: 'ML-DSA-44', algs: full.KEY_ALGORITHMS, seed: f.ml[44].seed, pk: f.ml[44].pk, sk: f.ml[44].sk });
  K.spki = full.keys.toSpki(K.alg, K.pk);
  K.pkcs8 = full.keys.toPkcs8(K.alg, { seed: K.seed });
  K.jwk = full.keys.toJwk(K.alg, { seed: K.seed });
  K.cose = full.keys.toCoseKey(K.alg, { seed: K.seed });

  beat('fixtures: Lens');
  // Lens: a 2-of-3 Ed25519 key by DKG, a signature, a refresh (generation 1, with its
  // activation certificate), a trusted dealer's key, a sealed share.
  const L = (f.lens = { ids: [1, 2, 3], session: seed('lens/session'), seed: seed('lens/seed'), message: enc('fuzz lens message') });
  const kg = complete([1, 2, 3].map((id) => lens.keygen({ curve: 'ed25519', session: seed('lens/kg'), parties: L.ids, threshold: 2, id, seed: seed(`lens/kg/${id}`) })), 'lens keygen');
  L.shares = [1, 2, 3].map((id) => kg.get(id).keyShare);
  L.publicPackage = kg.get(1).publicPackage;
  L.groupKey = kg.get(1).groupKey;
  const signed = complete([lens.coordinate({ publicPackage: L.publicPackage, id: 100, message: L.message }), ...L.shares.slice(0, 2).map((s) => lens.sign({ share: s, coordinator: 100, message: L.message, seed: seed(`lens/sign/${s.id}`) }))], 'lens sign');
  L.signature = signed.get(100).signature;
  const rf = complete(L.shares.map((s) => lens.refresh({ share: s, session: seed('lens/refresh'), dealers: L.ids, seed: seed(`lens/rf/${s.id}`) })), 'lens refresh');
  const r1 = rf.get(1);
  L.activation = { publicPackage: r1.publicPackage, generation: r1.generation, transcriptHash: r1.transcriptHash, certificate: r1.activation.certificate };
  L.refreshed = [1, 2, 3].map((id) => rf.get(id).keyShare);
  L.dealt = lens.deal({ curve: 'ed25519', parties: L.ids, threshold: 2, seed: seed('lens/deal') });
  L.dealerShare = L.dealt.shares[0].dealerShare;
  L.snapshotKey = seed('lens/snapshot-key');
  L.snapshot = L.shares[0].seal(L.snapshotKey);

  beat('fixtures: Pulsar');
  // Pulsar: a 2-of-2 ML-DSA-44 group made by the custody lifecycle (setup, a signature, a
  // reshare to the same set: generation 1 with its activation certificate), a share out of a
  // keyring and its sealed copy; for the single-protocol factories, a DKG's shares with a key
  // ceremony's session and announcement for their sharing, and a signing session.
  const P = (f.pulsar = { ids: [1, 2], session: seed('pulsar/session'), seed: seed('pulsar/seed'), message: enc('fuzz pulsar message'), context: enc('ctx') });
  const g = pulsarGroup(pulsar, { label: 'fuzz/pulsar/group', members: P.ids, threshold: 2, combiner: 9 });
  if (g.r.errors.size) throw new Error(`fixture pulsar setup: ${[...g.r.errors.values()].map((e) => e.message).join('; ')}`);
  Object.assign(P, { sharing: g.record.sharing, keyRecord: g.record.keyRecord, groupKey: g.record.groupKey, level: g.record.level });
  const keyrings = P.ids.map((id) => g.members.get(id).keyring);
  P.shares = keyrings.map((k) => k.current());
  const sign = { session: seed('pulsar/sign'), signers: P.ids, message: P.message, context: P.context };
  const ps = complete(
    [
      pulsar.lifecycle.combiner.sign({ ...sign, id: 9, keyRecord: P.keyRecord, sharing: P.sharing, seed: seed('pulsar/sign/9') }),
      ...keyrings.map((keyring, i) => pulsar.lifecycle.member.sign({ ...sign, keyring, combiner: 9, seed: seed(`pulsar/sign/${P.ids[i]}`) })),
    ],
    'pulsar sign',
  );
  P.signature = ps.get(9).signature;
  const reshare = { session: seed('pulsar/reshare'), dealers: P.ids, receivers: P.ids, threshold: 2 };
  const prs = complete(keyrings.map((keyring, i) => pulsar.lifecycle.member.reshare({ ...reshare, id: P.ids[i], keyring, seed: seed(`pulsar/rs/${P.ids[i]}`) })), 'pulsar reshare');
  const p1 = prs.get(1);
  P.activation = { sharing: p1.sharing, keyRecord: p1.keyRecord, generation: p1.generation, transcriptHash: p1.transcriptHash, certificate: p1.activation.certificate };
  [...keyrings, ...P.ids.map((id) => prs.get(id).keyring)].forEach((k) => k.free());
  P.snapshotKey = seed('pulsar/snapshot-key');
  P.snapshot = P.shares[0].seal(P.snapshotKey);
  // The single-protocol factories' inputs.
  const dkg = complete(P.ids.map((id) => pulsar.dkg({ session: seed('pulsar/dkg'), parties: P.ids, threshold: 2, id, seed: seed(`pulsar/dkg/${id}`) })), 'pulsar dkg');
  P.dkgShares = P.ids.map((id) => dkg.get(id).keyShare);
  const kc = pulsar.keyCeremony.combiner({ id: 9, level: 44, sharing: dkg.get(1).sharing, signers: P.ids, session: seed('pulsar/kc'), seed: seed('pulsar/kc/9') });
  P.ceremonySession = kc.info.session;
  const ann = complete([kc, ...P.dkgShares.map((s) => pulsar.keyCeremony.signer({ share: s, session: kc.info.session, seed: seed(`pulsar/kc/${s.id}`) }))], 'pulsar key ceremony');
  P.announcement = ann.get(9).announcement;
  const signCombiner = () =>
    pulsar.sign.combiner({ id: 9, keyRecord: P.keyRecord, sharing: P.sharing, signers: P.ids, message: P.message, context: P.context, session: seed('pulsar/sign'), seed: seed('pulsar/sign/9') });
  const sc = signCombiner();
  P.signSession = sc.info.session;
  sc.free();
  // The committee: a 2-of-3 ML-DSA-44 key from the dealer, its shares and a sealed copy.
  P.committee = pulsar.committee.deal({ level: 44, threshold: 2, members: [1, 2, 3], seed: seed('pulsar/committee') });
  P.committeeShares = P.committee.shares.map((s) => PulsarCommitteeShare.fromDealer(s.dealerShare, P.committee.key));
  P.committeeSnapshot = P.committeeShares[0].seal(P.snapshotKey);
  // The direct-message envelope: a key pair and one sealed message.
  P.envelope = pulsar.envelope.keygen({ id: 2, seed: seed('pulsar/envelope') });
  P.aad = enc('fuzz run, round, sender, recipient');
  P.sealed = pulsar.envelope.seal({ recipient: P.envelope.encapsulationKey, aad: P.aad, message: P.message, seed: seed('pulsar/envelope/seal') });

  // Corona: a 2-of-3 key from the dealer, its shares, a sealed copy and one signature.
  beat('fixtures: Corona');
  const Co = (f.corona = { seed: seed('corona'), session: seed('corona/session'), message: labelled('fuzz/corona/msg', 40), context: labelled('fuzz/corona/ctx', 5) });
  Co.dealt = corona.deal({ threshold: 2, parties: 3, seed: Co.seed });
  Co.shares = Co.dealt.shares.map((s) => CoronaShare.fromDealer(s.keyPackage, Co.dealt.groupKey));
  Co.snapshot = Co.shares[0].seal(P.snapshotKey);
  const coronaSigned = complete(
    [1, 2].map((id) => corona.signer({ share: Co.shares[id - 1], session: Co.session, signers: [1, 2], message: Co.message, context: Co.context, seed: seed(`corona/sign/${id}`) })),
    'corona signing',
  );
  Co.signature = coronaSigned.get(1).signature;

  beat('fixtures: receivers, scenarios');
  // Receivers of every exported class: a shared one, fresh ones (for free), freed ones.
  let dkgPool = [];
  const freshDkgShare = () => {
    if (!dkgPool.length) {
      const out = complete(P.ids.map((id) => pulsar.dkg({ session: seed('pulsar/pool'), parties: P.ids, threshold: 2, id, seed: seed(`pulsar/pool/${id}`) })), 'pulsar dkg pool');
      dkgPool = P.ids.map((id) => out.get(id).keyShare);
    }
    return dkgPool.pop();
  };
  f.fresh = {
    Party: () => lens.coordinate({ publicPackage: L.publicPackage, id: 100, message: L.message }),
    LensKeyShare: () => LensKeyShare.fromDealer('ed25519', L.dealerShare, L.dealt.publicPackage),
    PulsarKeyShare: () => PulsarKeyShare.restore(P.snapshot, P.snapshotKey),
    PulsarDkgShare: freshDkgShare,
    PulsarCommitteeShare: () => PulsarCommitteeShare.restore(P.committeeSnapshot, P.snapshotKey),
    CoronaShare: () => CoronaShare.restore(f.corona.snapshot, P.snapshotKey),
    Rng: () => Rng.fromSeed(seed('rng')),
    MagnetarRegistry: registry(MagnetarRegistry),
    LightClient: () => new full.LightClient(C.set, C.policy),
    PulsarKeyring: () => full.PulsarKeyring.fromShare(P.shares[0]),
    LensKeyring: () => full.LensKeyring.fromShare(L.shares[0]),
  };
  const freed = (make) => () => {
    const o = make();
    o.free();
    return o;
  };
  f.freed = Object.fromEntries(Object.entries(f.fresh).map(([k, make]) => [k, freed(make)]));
  f.receivers = {
    Party: f.fresh.Party(),
    LensKeyShare: L.shares[0],
    PulsarKeyShare: P.shares[0],
    PulsarDkgShare: P.dkgShares[0],
    PulsarCommitteeShare: P.committeeShares[0],
    CoronaShare: f.corona.shares[0],
    Rng: f.fresh.Rng(),
    MagnetarRegistry: f.fresh.MagnetarRegistry(),
    LightClient: f.fresh.LightClient(),
    PulsarKeyring: f.fresh.PulsarKeyring(),
    LensKeyring: f.fresh.LensKeyring(),
  };
  // The light build's classes are its own: their members get receivers of that build.
  const lightFresh = { MagnetarRegistry: registry(light.MagnetarRegistry), LightClient: () => new light.LightClient(C.set, C.policy) };
  f.byBuild = {
    'quasar-pq/verify': {
      fresh: lightFresh,
      freed: Object.fromEntries(Object.entries(lightFresh).map(([k, make]) => [k, freed(make)])),
      receivers: Object.fromEntries(Object.entries(lightFresh).map(([k, make]) => [k, make()])),
    },
  };
  f.holders = [...L.shares, ...P.shares, ...P.dkgShares, ...P.committeeShares, ...f.corona.shares, f.receivers.Rng, f.receivers.Party, f.receivers.PulsarKeyring, f.receivers.LensKeyring];

  // The protocol scenarios: a victim party, its peers, the victim's genuine first inbox (what its
  // peers' starts sent it), and a check of the run's outcomes once it completes (a string: why not).
  const scenario = (make) => () => {
    const s = make();
    s.inbox = s.parties.filter((p) => p !== s.victim).flatMap((p) => addressed(p, s.victim.id));
    return s;
  };
  f.scenarios = {
    'lens-dealing': scenario(() => {
      const parties = L.ids.map((id) => lens.keygen({ curve: 'ed25519', session: seed('sc/lens'), parties: L.ids, threshold: 2, id, seed: seed(`sc/lens/${id}`) }));
      return { victim: parties[0], parties, check: (o) => L.ids.forEach((id) => o.get(id).keyShare.free()) };
    }),
    'lens-coordinator': scenario(() => {
      const c = lens.coordinate({ publicPackage: L.publicPackage, id: 100, message: L.message });
      const signers = L.shares.slice(1).map((s) => lens.sign({ share: s, coordinator: 100, message: L.message, seed: seed(`sc/ls/${s.id}`) }));
      return { victim: c, parties: [c, ...signers], check: (o) => (lens.verify('ed25519', L.groupKey, L.message, o.get(100).signature) ? undefined : 'the signature does not verify') };
    }),
    'pulsar-dkg': scenario(() => {
      const ids = [1, 2, 3];
      const parties = ids.map((id) => pulsar.dkg({ session: seed('sc/pdkg'), parties: ids, threshold: 2, id, seed: seed(`sc/pdkg/${id}`) }));
      return { victim: parties[0], parties, check: (o) => ids.forEach((id) => o.get(id).keyShare.free()) };
    }),
    'pulsar-combiner': scenario(() => {
      const c = signCombiner();
      const signers = P.shares.map((s) => pulsar.sign.signer({ share: s, session: c.info.session, message: P.message, context: P.context, seed: seed(`sc/ps/${s.id}`) }));
      return { victim: c, parties: [c, ...signers], check: (o) => (pulsar.verify(P.groupKey, P.message, o.get(9).signature, { context: P.context }) ? undefined : 'the signature does not verify') };
    }),
  };
  // Every fixture byte string, for splices and for the check that no call mutates its inputs.
  f.allBytes = [];
  const collect = (v, depth = 0) => {
    if (v instanceof Uint8Array) f.allBytes.push(v);
    else if (v && typeof v === 'object' && depth < 3 && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype) Object.values(v).forEach((x) => collect(x, depth + 1));
    else if (Array.isArray(v) && depth < 3) v.forEach((x) => collect(x, depth + 1));
  };
  collect(f.ml);
  collect(f.slh);
  collect(M);
  collect(C);
  collect(Bm);
  collect(L);
  collect(P);
  f.snapshotOfInputs = f.allBytes.map((b) => Uint8Array.from(b));
  return f;
}
