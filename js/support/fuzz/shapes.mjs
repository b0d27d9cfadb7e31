// The fuzz "shapes": one line per exported function, method, getter, static and constructor of
// `quasar-pq`, `quasar-pq/verify` and the protocol layer. js/test/fuzz.test.mjs enumerates the
// real exports and fails, naming it, on any export without a line here (and on a line that names
// nothing), so a new export cannot go unfuzzed.
//
// A line is `key: [slots, base, returns, options?]`:
//   key      the export's path: `mlDsa*.sign` (the ML-DSA levels 44/65/87 of either build),
//            `lens.keygen`, `Party#step` (an instance member, keyed by the class that defines it:
//            `Owned#free` covers every class that inherits it), `Rng.fromSeed` (a static),
//            `new Party` (the constructor), `mlDsa*.prepare().verify` (a member of a returned object);
//   slots    the kind of each argument (an `opts({ key: kind })` for an options bag);
//   base     the valid arguments, from the fixtures (`f`; for `mlDsa*` the level's own, `m`);
//   returns  what a successful call must return (checked by the engine's `RETURNS`);
//   options  `this(f)`: the receiver of a member (default: the class's shared receiver);
//            `slow(m)`: true for a call too slow for every round (it runs every few);
//            `strict`: any changed argument must make the call fail (a sealed snapshot);
//            `check(out, args, f)`: a further check of a result, on the args' plain values;
//            `sameStatement(args, f)`: whether changed args still state what the base args do,
//            so that a verifier may still say true (see the two lines that have one).
// Not part of the package.

const bytes = (o = {}) => ({ kind: 'bytes', ...o });
const B = bytes();
const B32 = bytes({ length: 32 });
const MSG = bytes({ max: 'message' });
const REC = bytes({ max: 'record' });
const SEED = bytes({ optional: true, length: 32 });
const CTX = bytes({ optional: true, max: 'context' });
const INT = { kind: 'int' };
/** A count that sizes what the call returns (a Corona deal's parties): 777 parties would be a
 *  legitimate 50 MB of key packages, which the memory bound would take for a leak; 77 instead. */
const COUNT = { kind: 'int', small: true };
/** An integer option with a default: leaving it out is no error. */
const OPT_INT = { kind: 'int', optional: true };
const IDS = { kind: 'ids' };
const GEN = { kind: 'generation' };
const LEVEL = { kind: 'level' };
const BOOL = { kind: 'bool' };
const CURVE = { kind: 'curve' };
const ENTROPY = { kind: 'entropy' };
const ANY = { kind: 'any' };
const INBOX = { kind: 'inbox' };
const MODE = { kind: 'mode' };
const LIST = { kind: 'list' };
const POLICY = { kind: 'policy' };
const ALG = { kind: 'alg' };
const TEXT = { kind: 'text' };
const choice = (values) => ({ kind: 'choice', values });
const holder = (cls, optional = false) => ({ kind: 'holder', cls, optional });
const RNG = holder('Rng', true);
const opts = (keys, optional = true) => ({ kind: 'opts', keys, optional });
const O = opts({}, true);

const eq = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
/** A signature `sign` returned verifies under the fixture key when the secret key was the fixture's. */
const verifies = (sig, [msg, sk, o], m) => (eq(sk, m.sk) && !m.api.verify(sig, msg, m.pk, { context: o?.context }) ? 'a signature that does not verify' : undefined);
const verifiesInternal = (sig, [msg, sk, o], m) =>
  eq(sk, m.sk) && !m.api.internal.verify(sig, msg, m.pk, { externalMu: o?.externalMu }) ? 'an internal signature that does not verify' : undefined;

const slhVerifies = (sig, [msg, sk, o], m) => (eq(sk, m.sk) && !m.api.verify(sig, msg, m.pk, { context: o?.context }) ? 'a signature that does not verify' : undefined);
const slhVerifiesInternal = (sig, [msg, sk], m) => (eq(sk, m.sk) && !m.api.internal.verify(sig, msg, m.pk) ? 'an internal signature that does not verify' : undefined);
/** A MAGS envelope of the mode asked for (an SLH-DSA secret key does not name its set), verifying under the fixture key when signed with it. */
function magnetarVerifies(sig, [mode, msg, sk, o], m) {
  if (!(sig instanceof Uint8Array) || sig.length !== m.api.lengths[mode]?.signature) return `not a MAGS envelope of ${String(mode)}`;
  return mode === m.mode && eq(sk, m.sk) && !m.api.verify(sig, msg, m.pk, { context: o?.context }) ? 'a MAGS envelope that does not verify' : undefined;
}
/** SLH-DSA "s" signing takes about a second in WebAssembly: those lines run every few rounds. */
const small = (m) => m.small;

// Factory options, shared by the factories that take them.
const GENERATOR = { seed: SEED, rng: RNG };
const RESHARE = { session: B32, dealers: IDS, receivers: IDS, threshold: INT };

export const SHAPES = {
  // ---------------------------------------------------------------- loading (both builds)
  init: [[ANY], () => [undefined], 'promise'],
  initSync: [[ANY], () => [undefined], 'undefined'],
  default: [[ANY], () => [undefined], 'promise'],

  // ---------------------------------------------------------------- ML-DSA (both builds where present)
  'mlDsa*.keygen': [[SEED], (m) => [m.seed], 'keypair'],
  'mlDsa*.sign': [[MSG, B, opts({ context: CTX, extraEntropy: ENTROPY })], (m) => [m.msg, m.sk, { context: m.ctx, extraEntropy: false }], 'signature', { check: verifies }],
  'mlDsa*.verify': [[B, MSG, B, opts({ context: CTX })], (m) => [m.sig, m.msg, m.pk, { context: m.ctx }], 'verdict'],
  'mlDsa*.prepare': [[B], (m) => [m.pk], 'prepared'],
  'mlDsa*.prepare().verify': [[B, MSG, opts({ context: CTX })], (m) => [m.sig, m.msg, { context: m.ctx }], 'verdict'],
  'mlDsa*.prepare().free': [[], () => [], 'undefined', { this: 'fresh' }],
  'mlDsa*.internal.keygen': [[SEED], (m) => [m.seed], 'keypair'],
  'mlDsa*.internal.sign': [[MSG, B, opts({ extraEntropy: ENTROPY, externalMu: BOOL })], (m) => [m.msg, m.sk, { extraEntropy: false }], 'signature', { check: verifiesInternal }],
  // With an external μ the key enters only through μ (tr = H(pk) is inside it): a key differing
  // in low bits of t1 can verify the same (σ, μ). FIPS 204 external μ; the caller binds μ to pk.
  'mlDsa*.internal.verify': [[B, MSG, B, opts({ externalMu: BOOL })], (m) => [m.sigMu, m.mu, m.pk, { externalMu: true }], 'verdict', { sameStatement: ([sig, mu, , o], m) => sig instanceof Uint8Array && mu instanceof Uint8Array && eq(sig, m.sigMu) && eq(mu, m.mu) && o?.externalMu === true }],
  'mlDsa*.internal.computeMu': [[MSG, B, opts({ context: CTX })], (m) => [m.msg, m.pk, { context: m.ctx }], 'mu'],

  // ---------------------------------------------------------------- SLH-DSA (verify in both builds)
  'slhDsa*.keygen': [[bytes({ optional: true })], (m) => [m.seed], 'keypair'],
  'slhDsa*.sign': [[MSG, B, opts({ context: CTX, extraEntropy: ENTROPY })], (m) => [m.msg, m.sk, { context: m.ctx, extraEntropy: false }], 'signature', { check: slhVerifies, slow: small }],
  'slhDsa*.verify': [[B, MSG, B, opts({ context: CTX })], (m) => [m.sig, m.msg, m.pk, { context: m.ctx }], 'verdict'],
  'slhDsa*.internal.keygen': [[bytes({ optional: true })], (m) => [m.seed], 'keypair'],
  'slhDsa*.internal.sign': [[MSG, B, opts({ extraEntropy: ENTROPY })], (m) => [m.msg, m.sk, { extraEntropy: false }], 'signature', { check: slhVerifiesInternal, slow: small }],
  'slhDsa*.internal.verify': [[B, MSG, B], (m) => [m.sigInternal, m.msg, m.pk], 'verdict'],

  // ---------------------------------------------------------------- Magnetar (verification in both builds)
  'magnetar.keygen': [[MODE, opts({ seed: bytes({ optional: true }), referenceSeed: bytes({ optional: true }) })], (m) => [m.mode, { seed: m.seed }], 'keypair'],
  'magnetar.sign': [[MODE, MSG, B, opts({ context: CTX, extraEntropy: ENTROPY })], (m) => [m.mode, m.msg, m.sk, { context: m.ctx, extraEntropy: false }], 'bytes', { check: magnetarVerifies }],
  'magnetar.verify': [[B, MSG, B, opts({ context: CTX })], (m) => [m.sig, m.msg, m.pk, { context: m.ctx }], 'verdict'],
  'magnetar.verifyBatch': [[LIST, opts({ context: CTX })], (m) => [m.items, { context: m.ctx }], 'bitmap'],
  'magnetar.aggregate': [[MODE, LIST], (m) => [m.mode, m.votes], 'bytes'],
  'new MagnetarRegistry': [[MODE, LIST], (f) => [f.magnetar.mode, f.magnetar.validators], 'registry'],
  'MagnetarRegistry#mode': [[], () => [], 'string'],
  'MagnetarRegistry#size': [[], () => [], 'count'],
  'MagnetarRegistry#totalWeight': [[], () => [], 'bigint'],
  'MagnetarRegistry#validators': [[], () => [], 'validators'],
  'MagnetarRegistry#verifyBatch': [[LIST, MSG, opts({ context: CTX })], (f) => [f.magnetar.votes, f.magnetar.msg, { context: f.magnetar.ctx }], 'bitmap'],
  // Every validator signed the base certificate: any valid quorum rule, and diagnose, keep it valid.
  'MagnetarRegistry#verifyAggregate': [[B, MSG, opts({ context: CTX, quorum: { kind: 'quorum' }, diagnose: BOOL })], (f) => [f.magnetar.certificate, f.magnetar.msg, { context: f.magnetar.ctx }], 'aggregate', {
    sameStatement: ([cert, msg, o], { magnetar: M }) => cert instanceof Uint8Array && msg instanceof Uint8Array && o?.context instanceof Uint8Array && eq(cert, M.certificate) && eq(msg, M.msg) && eq(o.context, M.ctx),
  }],
  'MagnetarRegistry#free': [[], () => [], 'undefined', { this: 'fresh' }],
  'MagnetarRegistry#Symbol.dispose': [[], () => [], 'undefined', { this: 'fresh' }],

  // ---------------------------------------------------------------- finality certificates (both builds)
  // The golden `bls-only` certificate (one leg, so every byte of it is checked) is final under
  // pq-off only; a full report states the same.
  verifyCertificate: [[B, REC, POLICY, opts({ full: BOOL })], (f) => [f.cert.certificate, f.cert.set, f.cert.policy], 'report', {
    sameStatement: ([cert, set], { cert: C }) => cert instanceof Uint8Array && set instanceof Uint8Array && eq(cert, C.certificate) && eq(set, C.set),
  }],
  'new LightClient': [[REC, POLICY, opts({ full: BOOL })], (f) => [f.cert.set, f.cert.policy], 'lightClient'],
  // The shared client accepts the certificate once, then calls it stale: a shape check here;
  // verifyCertificate above checks that no changed certificate is accepted.
  'LightClient#update': [[B, bytes({ optional: true, max: 'record' })], (f) => [f.cert.certificate], 'update'],
  'LightClient#verify': [[B], (f) => [f.cert.certificate], 'report', { sameStatement: ([cert], { cert: C }) => cert instanceof Uint8Array && eq(cert, C.certificate) }],
  'LightClient#epoch': [[], () => [], 'u64'],
  'LightClient#height': [[], () => [], 'u64?'],
  'LightClient#setRoot': [[], () => [], 'bytes'],
  'LightClient#totalWeight': [[], () => [], 'bigint'],
  'LightClient#keyEra': [[], () => [], 'u64'],
  'LightClient#validators': [[], () => [], 'count'],
  'LightClient#maxCertificateLength': [[], () => [], 'count'],
  'LightClient#policy': [[], () => [], 'string'],
  'LightClient#free': [[], () => [], 'undefined', { this: 'fresh' }],
  'LightClient#Symbol.dispose': [[], () => [], 'undefined', { this: 'fresh' }],

  // ---------------------------------------------------------------- test chain (full build)
  // The smallest chain (one validator, one block, BLS only); one option changed at a time keeps
  // it small (a Pulsar group of one, or a Corona group of one, when the policy changes), and the
  // same options must give the same bytes.
  testChain: [[opts({ seed: B32, chainId: { kind: 'u64' }, validators: OPT_INT, policy: POLICY, epochs: OPT_INT, blocks: OPT_INT, level: LEVEL, magnetar: MODE }, false)], () => [{ seed: new Uint8Array(32).fill(7), validators: 1, policy: 'pq-off', epochs: 1, blocks: 1 }], 'testChain'],

  // ---------------------------------------------------------------- BLS (full build)
  'bls.keygen': [[bytes({ optional: true }), opts({ keyInfo: bytes({ optional: true }) })], (m) => [m.ikm], 'keypair'],
  'bls.getPublicKey': [[B], (m) => [m.sk], 'bytes'],
  'bls.sign': [[MSG, B], (m) => [m.msg, m.sk], 'signature', { check: (sig, [msg, sk], m) => (eq(sk, m.sk) && !m.api.verify(sig, msg, m.pk) ? 'a BLS signature that does not verify' : undefined) }],
  'bls.popProve': [[B], (m) => [m.sk], 'signature'],
  'bls.verify': [[B, MSG, B], (m) => [m.sig, m.msg, m.pk], 'verdict'],
  'bls.popVerify': [[B, B], (m) => [m.pop, m.pk], 'verdict'],
  'bls.aggregate': [[LIST], (m) => [m.sigs], 'signature'],
  // The aggregate is over a set of keys: the same keys in another order state the same.
  'bls.fastAggregateVerify': [[B, MSG, LIST], (m) => [m.agg, m.msg, m.pks], 'verdict', {
    sameStatement: ([sig, msg, pks], m) =>
      sig instanceof Uint8Array && msg instanceof Uint8Array && Array.isArray(pks) && eq(sig, m.agg) && eq(msg, m.msg) && pks.length === m.pks.length &&
      m.pks.every((k) => pks.some((x) => x instanceof Uint8Array && eq(x, k))),
  }],

  // ---------------------------------------------------------------- key formats (full build)
  // The fixtures' key is ML-DSA-44's (fixtures.mjs: f.keys); a key bag is checked as options are.
  'keys.toSpki': [[ALG, B, opts({})], (m) => [m.alg, m.pk], 'bytes'],
  'keys.fromSpki': [[REC], (m) => [m.spki], 'object'],
  'keys.toPkcs8': [[ALG, opts({ alg: ALG, publicKey: bytes({ optional: true }), seed: SEED, secretKey: bytes({ optional: true }) }, false), opts({ form: choice(['seed', 'expanded', 'both']), includePublicKey: BOOL })], (m) => [m.alg, { seed: m.seed }], 'bytes'],
  'keys.fromPkcs8': [[REC], (m) => [m.pkcs8], 'object'],
  'keys.toJwk': [[ALG, opts({ publicKey: bytes({ optional: true }), seed: SEED }, false)], (m) => [m.alg, { publicKey: m.pk }], 'string'],
  'keys.fromJwk': [[TEXT], (m) => [m.jwk], 'object'],
  'keys.toCoseKey': [[ALG, opts({ publicKey: bytes({ optional: true }), seed: SEED }, false)], (m) => [m.alg, { seed: m.seed }], 'bytes'],
  'keys.fromCoseKey': [[REC], (m) => [m.cose], 'object'],
  'keys.jwkThumbprint': [[ALG, B], (m) => [m.alg, m.pk], 'string'],
  'keys.coseThumbprint': [[ALG, B], (m) => [m.alg, m.pk], 'bytes'],

  // ---------------------------------------------------------------- Lens
  'lens.deal': [[opts({ curve: CURVE, parties: IDS, threshold: INT, ...GENERATOR }, false)], (f) => [{ curve: 'ed25519', parties: [1, 2, 3], threshold: 2, seed: f.lens.seed }], 'deal'],
  'lens.keygen': [[opts({ curve: CURVE, session: B32, parties: IDS, threshold: INT, id: INT, ...GENERATOR }, false)], (f) => [{ curve: 'ed25519', session: f.lens.session, parties: [1, 2, 3], threshold: 2, id: 1, seed: f.lens.seed }], 'party'],
  'lens.reshare': [[opts({ share: holder('LensKeyShare'), ...RESHARE, ...GENERATOR }, false)], (f) => [{ share: f.lens.shares[0], session: f.lens.session, dealers: [1, 2], receivers: [1, 2, 3], threshold: 2, seed: f.lens.seed }], 'party'],
  'lens.reshareJoin': [[opts({ publicPackage: REC, ...RESHARE, id: INT, ...GENERATOR }, false)], (f) => [{ publicPackage: f.lens.publicPackage, session: f.lens.session, dealers: [1, 2], receivers: [1, 2, 3, 4], threshold: 2, id: 4, seed: f.lens.seed }], 'party'],
  'lens.refresh': [[opts({ share: holder('LensKeyShare'), session: B32, dealers: IDS, ...GENERATOR }, false)], (f) => [{ share: f.lens.shares[0], session: f.lens.session, dealers: [1, 2, 3], seed: f.lens.seed }], 'party'],
  'lens.sign': [[opts({ share: holder('LensKeyShare'), coordinator: INT, message: MSG, ...GENERATOR }, false)], (f) => [{ share: f.lens.shares[0], coordinator: 100, message: f.lens.message, seed: f.lens.seed }], 'party'],
  'lens.coordinate': [[opts({ publicPackage: REC, id: INT, message: MSG }, false)], (f) => [{ publicPackage: f.lens.publicPackage, id: 100, message: f.lens.message }], 'party'],
  'lens.verify': [[CURVE, B, MSG, B], (f) => ['ed25519', f.lens.groupKey, f.lens.message, f.lens.signature], 'verdict'],
  'lens.verifyActivation': [[REC, GEN, B32, REC], (f) => [f.lens.activation.publicPackage, f.lens.activation.generation, f.lens.activation.transcriptHash, f.lens.activation.certificate], 'activation'],

  // ---------------------------------------------------------------- Pulsar
  'pulsar.dkg': [[opts({ session: B32, parties: IDS, threshold: INT, id: INT, ...GENERATOR }, false)], (f) => [{ session: f.pulsar.session, parties: [1, 2, 3], threshold: 2, id: 1, seed: f.pulsar.seed }], 'party'],
  'pulsar.keyCeremony.combiner': [[opts({ id: INT, level: LEVEL, sharing: REC, signers: IDS, session: B32, ...GENERATOR }, false)], (f) => [{ id: 9, level: 44, sharing: f.pulsar.sharing, signers: [1, 2], session: f.pulsar.session, seed: f.pulsar.seed }], 'party'],
  'pulsar.keyCeremony.signer': [[opts({ share: holder('PulsarDkgShare'), session: REC, ...GENERATOR }, false)], (f) => [{ share: f.pulsar.dkgShares[0], session: f.pulsar.ceremonySession, seed: f.pulsar.seed }], 'party'],
  'pulsar.certify': [[opts({ share: holder('PulsarDkgShare'), announcement: REC, ...GENERATOR }, false)], (f) => [{ share: f.pulsar.dkgShares[0], announcement: f.pulsar.announcement, seed: f.pulsar.seed }], 'party'],
  'pulsar.sign.combiner': [[opts({ id: INT, keyRecord: REC, sharing: REC, signers: IDS, message: MSG, context: CTX, session: B32, ...GENERATOR, deterministic: BOOL }, false)], (f) => [{ id: 9, keyRecord: f.pulsar.keyRecord, sharing: f.pulsar.sharing, signers: [1, 2], message: f.pulsar.message, context: f.pulsar.context, session: f.pulsar.session, seed: f.pulsar.seed }], 'party'],
  'pulsar.sign.signer': [[opts({ share: holder('PulsarKeyShare'), session: REC, message: MSG, context: CTX, ...GENERATOR }, false)], (f) => [{ share: f.pulsar.shares[0], session: f.pulsar.signSession, message: f.pulsar.message, context: f.pulsar.context, seed: f.pulsar.seed }], 'party'],
  'pulsar.reshare': [[opts({ share: holder('PulsarKeyShare'), ...RESHARE, ...GENERATOR }, false)], (f) => [{ share: f.pulsar.shares[0], session: f.pulsar.session, dealers: [1, 2], receivers: [1, 2, 3], threshold: 2, seed: f.pulsar.seed }], 'party'],
  'pulsar.reshareJoin': [[opts({ keyRecord: REC, sharing: REC, ...RESHARE, id: INT, ...GENERATOR }, false)], (f) => [{ keyRecord: f.pulsar.keyRecord, sharing: f.pulsar.sharing, session: f.pulsar.session, dealers: [1, 2], receivers: [1, 2, 3], threshold: 2, id: 3, seed: f.pulsar.seed }], 'party'],
  'pulsar.refresh': [[opts({ share: holder('PulsarKeyShare'), session: B32, dealers: IDS, ...GENERATOR }, false)], (f) => [{ share: f.pulsar.shares[0], session: f.pulsar.session, dealers: [1, 2], seed: f.pulsar.seed }], 'party'],
  'pulsar.committee.deal': [[opts({ level: LEVEL, threshold: INT, members: IDS, ...GENERATOR }, false)], (f) => [{ level: 44, threshold: 2, members: [1, 2, 3], seed: f.pulsar.seed }], 'object'],
  'pulsar.committee.keygen': [[opts({ session: B32, level: LEVEL, threshold: INT, members: IDS, id: INT, ...GENERATOR }, false)], (f) => [{ session: f.pulsar.session, level: 44, threshold: 2, members: [1, 2, 3], id: 1, seed: f.pulsar.seed }], 'party'],
  'pulsar.committee.signer': [[opts({ share: holder('PulsarCommitteeShare'), session: B32, signers: IDS, message: MSG, context: CTX, ...GENERATOR }, false)], (f) => [{ share: f.pulsar.committeeShares[0], session: f.pulsar.session, signers: [1, 2], message: f.pulsar.message, context: f.pulsar.context, seed: f.pulsar.seed }], 'party'],
  'pulsar.envelope.keygen': [[opts({ id: OPT_INT, ...GENERATOR })], (f) => [{ id: 2, seed: f.pulsar.seed }], 'object'],
  'pulsar.envelope.seal': [[opts({ recipient: REC, aad: B, message: B, ...GENERATOR }, false)], (f) => [{ recipient: f.pulsar.envelope.encapsulationKey, aad: f.pulsar.aad, message: f.pulsar.message, seed: f.pulsar.seed }], 'bytes'],
  'pulsar.envelope.open': [[opts({ key: REC, aad: B, sealed: B }, false)], (f) => [{ key: f.pulsar.envelope.key, aad: f.pulsar.aad, sealed: f.pulsar.sealed }], 'bytes', { strict: true }],
  'corona.deal': [[opts({ threshold: INT, parties: COUNT, ...GENERATOR }, false)], (f) => [{ threshold: 2, parties: 3, seed: f.corona.seed }], 'object'],
  'corona.signer': [[opts({ share: holder('CoronaShare'), session: B32, signers: IDS, message: MSG, context: CTX, ...GENERATOR }, false)], (f) => [{ share: f.corona.shares[0], session: f.corona.session, signers: [1, 2], message: f.corona.message, context: f.corona.context, seed: f.corona.seed }], 'party'],
  'corona.verify': [[B, MSG, CTX, B], (f) => [f.corona.dealt.groupKey, f.corona.message, f.corona.context, f.corona.signature], 'verdict'],
  'pulsar.verify': [[B, MSG, B, opts({ context: CTX })], (f) => [f.pulsar.groupKey, f.pulsar.message, f.pulsar.signature, { context: f.pulsar.context }], 'verdict'],
  'pulsar.verifyActivation': [[REC, REC, GEN, B32, REC], (f) => [f.pulsar.activation.sharing, f.pulsar.activation.keyRecord, f.pulsar.activation.generation, f.pulsar.activation.transcriptHash, f.pulsar.activation.certificate], 'activation', {
    // Every byte of the record is part of the statement (the record of the generation it activates).
    sameStatement: ([sh, kr, g, th, cert], { pulsar: { activation: a } }) => kr instanceof Uint8Array && eq(kr, a.keyRecord) && eq(sh, a.sharing) && g === a.generation && eq(th, a.transcriptHash) && eq(cert, a.certificate),
  }],

  // ---------------------------------------------------------------- classes
  'new Party': [[ANY, ANY], () => [undefined, undefined], 'throws'],
  'new LensKeyShare': [[ANY, ANY], () => [undefined, undefined], 'throws'],
  'new PulsarKeyShare': [[ANY, ANY], () => [undefined, undefined], 'throws'],
  'new PulsarCommitteeShare': [[ANY, ANY], () => [undefined, undefined], 'throws'],
  'new CoronaShare': [[ANY, ANY], () => [undefined, undefined], 'throws'],
  // The lifecycle parties and their keyrings. A reshare moves the keyring into the party: its
  // base takes a fresh one.
  'run': [[{ kind: 'parties' }, O], () => [[], undefined], 'object'],
  'runAsync': [[{ kind: 'parties' }, O], () => [[], undefined], 'promise'],
  'new PulsarKeyring': [[ANY, ANY], () => [undefined, undefined], 'throws'],
  'PulsarKeyring.empty': [[], () => [], 'holder:PulsarKeyring'],
  'PulsarKeyring.fromShare': [[holder('PulsarKeyShare')], (f) => [f.pulsar.shares[0]], 'holder:PulsarKeyring'],
  'PulsarKeyring#generation': [[], () => [], 'generation?'],
  'PulsarKeyring#pendingGeneration': [[], () => [], 'generation?'],
  'PulsarKeyring#publicInfo': [[], () => [], 'object'],
  'PulsarKeyring#current': [[], () => [], 'holder:PulsarKeyShare'],
  'new LensKeyring': [[ANY, ANY], () => [undefined, undefined], 'throws'],
  'LensKeyring.empty': [[], () => [], 'holder:LensKeyring'],
  'LensKeyring.fromShare': [[holder('LensKeyShare')], (f) => [f.lens.shares[0]], 'holder:LensKeyring'],
  'LensKeyring#generation': [[], () => [], 'generation?'],
  'LensKeyring#pendingGeneration': [[], () => [], 'generation?'],
  'LensKeyring#publicInfo': [[], () => [], 'object'],
  'LensKeyring#current': [[], () => [], 'holder:LensKeyShare'],
  'pulsar.lifecycle.member.setup': [[opts({ session: B32, level: LEVEL, members: IDS, threshold: INT, signers: IDS, combiner: INT, id: INT, ...GENERATOR }, false)], (f) => [{ session: f.pulsar.session, level: 44, members: [1, 2, 3], threshold: 2, signers: [1, 2], combiner: 9, id: 1, seed: f.pulsar.seed }], 'party'],
  'pulsar.lifecycle.member.sign': [[opts({ keyring: holder('PulsarKeyring'), session: B32, signers: IDS, message: MSG, context: CTX, combiner: INT, ...GENERATOR }, false)], (f) => [{ keyring: f.receivers.PulsarKeyring, session: f.pulsar.session, signers: [1, 2], message: f.pulsar.message, context: f.pulsar.context, combiner: 9, seed: f.pulsar.seed }], 'party'],
  'pulsar.lifecycle.member.reshare': [[opts({ keyring: holder('PulsarKeyring'), id: INT, ...RESHARE, keyRecord: bytes({ optional: true, max: 'record' }), sharing: bytes({ optional: true, max: 'record' }), ...GENERATOR }, false)], (f) => [{ keyring: f.fresh.PulsarKeyring(), id: 1, session: f.pulsar.session, dealers: [1, 2], receivers: [1, 2, 3], threshold: 2, seed: f.pulsar.seed }], 'party'],
  'pulsar.lifecycle.combiner.setup': [[opts({ session: B32, level: LEVEL, members: IDS, threshold: INT, signers: IDS, id: INT, ...GENERATOR }, false)], (f) => [{ session: f.pulsar.session, level: 44, members: [1, 2, 3], threshold: 2, signers: [1, 2], id: 9, seed: f.pulsar.seed }], 'party'],
  'pulsar.lifecycle.combiner.sign': [[opts({ id: INT, keyRecord: REC, sharing: REC, session: B32, signers: IDS, message: MSG, context: CTX, ...GENERATOR, deterministic: BOOL }, false)], (f) => [{ id: 9, keyRecord: f.pulsar.keyRecord, sharing: f.pulsar.sharing, session: f.pulsar.session, signers: [1, 2], message: f.pulsar.message, context: f.pulsar.context, seed: f.pulsar.seed }], 'party'],
  'lens.lifecycle.member.keygen': [[opts({ curve: CURVE, session: B32, members: IDS, threshold: INT, id: INT, ...GENERATOR }, false)], (f) => [{ curve: 'ed25519', session: f.lens.session, members: [1, 2, 3], threshold: 2, id: 1, seed: f.lens.seed }], 'party'],
  'lens.lifecycle.member.sign': [[opts({ keyring: holder('LensKeyring'), coordinator: INT, message: MSG, ...GENERATOR }, false)], (f) => [{ keyring: f.receivers.LensKeyring, coordinator: 100, message: f.lens.message, seed: f.lens.seed }], 'party'],
  'lens.lifecycle.member.reshare': [[opts({ keyring: holder('LensKeyring'), id: INT, ...RESHARE, publicPackage: bytes({ optional: true, max: 'record' }), ...GENERATOR }, false)], (f) => [{ keyring: f.fresh.LensKeyring(), id: 1, session: f.lens.session, dealers: [1, 2], receivers: [1, 2, 3], threshold: 2, seed: f.lens.seed }], 'party'],
  'lens.lifecycle.coordinator.sign': [[opts({ publicPackage: REC, id: INT, message: MSG }, false)], (f) => [{ publicPackage: f.lens.publicPackage, id: 100, message: f.lens.message }], 'party'],
  'new PulsarDkgShare': [[ANY, ANY], () => [undefined, undefined], 'throws'],
  'new Rng': [[ANY, ANY], () => [undefined, undefined], 'throws'],
  'Rng.fromSeed': [[B32], (f) => [f.lens.seed], 'holder:Rng'],
  'LensKeyShare.restore': [[CURVE, REC, B32], (f) => ['ed25519', f.lens.snapshot, f.lens.snapshotKey], 'holder:LensKeyShare', { strict: true }],
  'LensKeyShare.fromDealer': [[CURVE, bytes({ max: 'record' }), REC], (f) => ['ed25519', f.lens.dealerShare, f.lens.dealt.publicPackage], 'holder:LensKeyShare'],
  'PulsarCommitteeShare.fromDealer': [[bytes({ max: 'record' }), REC], (f) => [f.pulsar.committee.shares[0].dealerShare, f.pulsar.committee.key], 'holder:PulsarCommitteeShare'],
  'PulsarCommitteeShare.restore': [[REC, B32], (f) => [f.pulsar.committeeSnapshot, f.pulsar.snapshotKey], 'holder:PulsarCommitteeShare', { strict: true }],
  'CoronaShare.fromDealer': [[bytes({ max: 'record' }), REC], (f) => [f.corona.dealt.shares[0].keyPackage, f.corona.dealt.groupKey], 'holder:CoronaShare'],
  'CoronaShare.restore': [[REC, B32], (f) => [f.corona.snapshot, f.pulsar.snapshotKey], 'holder:CoronaShare', { strict: true }],
  'PulsarKeyShare.restore': [[REC, B32], (f) => [f.pulsar.snapshot, f.pulsar.snapshotKey], 'holder:PulsarKeyShare', { strict: true }],
  'Owned#free': [[], () => [], 'undefined', { this: 'fresh' }],
  'Owned#Symbol.dispose': [[], () => [], 'undefined', { this: 'fresh' }],
  'Party#id': [[], () => [], 'id'],
  'Party#protocol': [[], () => [], 'string'],
  'Party#start': [[], () => [], 'start'],
  'Party#info': [[], () => [], 'object'],
  'Party#round': [[], () => [], 'round'],
  'Party#done': [[], () => [], 'boolean'],
  'Party#maxInboxBytes': [[], () => [], 'count'],
  'Party#step': [[INBOX], () => [], 'step'],
  'KeyShareHolder#id': [[], () => [], 'id'],
  'KeyShareHolder#publicInfo': [[], () => [], 'object'],
  'SealableShare#seal': [[B32], (f) => [f.lens.snapshotKey], 'bytes'],
};

/**
 * Exports that share lines: `[name pattern, key prefix, context]`. `context(f, name, api)` is
 * what the lines' `base` get for the export `name` (its object in the build at hand: `api`): the
 * fixtures of that parameter set, with `lengths` for the results' checks. A new parameter-set
 * family (SLH-DSA, say) adds one entry here, its fixtures in fixtures.mjs, and its lines.
 */
export const FAMILIES = [
  [/^mlDsa(44|65|87)$/, 'mlDsa*', (f, name, api) => ({ ...f.ml[name.slice(5)], api })],
  [/^slhDsaShake(128|192|256)[sf]$/, 'slhDsa*', (f, name, api) => ({ ...f.slh[name], api })],
  [/^magnetar$/, 'magnetar', (f, name, api) => ({ ...f.magnetar, api })],
  [/^bls$/, 'bls', (f, name, api) => ({ ...f.bls, api })],
  [/^keys$/, 'keys', (f, name, api) => ({ ...f.keys, api })],
];
