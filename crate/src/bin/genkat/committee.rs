//! `kats/committee.json`: the Pulsar committee (threshold ML-DSA with no reconstruction),
//! one case per ML-DSA level, under per-party seeded generators.
//!
//! Each case runs the committee's parties on the simulator (this file only routes): the
//! distributed key generation ([`committee::Dkg`]) among members 1–4 with threshold 3 in
//! session `keygen_session`, party `i` with `ChaCha20Rng::from_seed(seeds[i])`; then
//! [`committee::Signer`]s 1, 2 and 4 sign `message` (context `context`) in session
//! `sign_session`, each continuing its own generator. Recorded: the committee key (`PQCK`),
//! the public key, the signature, the runs it took, and the messages of each phase
//! (`keygen`, `sign`) hashed as the binary's docs say. The signature is a standard FIPS 204
//! one, and it passes through the ellipsoid sampler's floating point: an implementation
//! that replays the case (the WASM parties do) reproduces it only if its floats agree bit
//! for bit.

use quasar_pq::mldsa::Mode;
use quasar_pq::party::sim::Network;
use quasar_pq::pulsar::committee::{self, DkgParams, Keyed, SignParams, Signed};

use crate::format::{ensure, file, nums, pid, pids, run, Failure, MessageLog, Obj, Rngs, Stream};

/// The committee: threshold and members.
const T: usize = 3;
const N: u16 = 4;
/// The signers (exactly T).
const SIGNERS: [u16; 3] = [1, 2, 4];
const MESSAGE: &[u8] = b"quasar-pq committee KAT: block 1";
const CONTEXT: &[u8] = b"quasar";

/// Committee vectors (`kats/committee.json`), one case per level.
///
/// # Panics
/// If the protocol fails on its own honest run (a bug in the code under test).
pub(crate) fn committee() -> String {
    let cases: Vec<Obj> = [Mode::MlDsa44, Mode::MlDsa65, Mode::MlDsa87]
        .into_iter()
        .map(|mode| case(mode).unwrap_or_else(|e| panic!("committee KAT {mode:?}: {}", e.0)))
        .collect();
    file("committee", &cases)
}

fn case(mode: Mode) -> Result<Obj, Failure> {
    let mut stream = Stream::new(&format!("quasar-pq/kat/committee/{}", mode.level()));
    let members = pids(1..=N)?;
    let (mut rngs, seeds) = Rngs::new(&mut stream, &members);
    let keygen_session = stream.array32();
    let sign_session = stream.array32();
    let mut log = MessageLog::default();

    let params = DkgParams::new(keygen_session, mode, T, &members)?;
    let mut net: Network<Keyed> = Network::new();
    for &p in &members {
        let (party, out) = committee::Dkg::start(p, &params, rngs.of(p)?)?;
        net.add(party, out);
    }
    let keyed = run(net, &mut log)?;
    log.end_phase("keygen");
    let key = keyed
        .values()
        .next()
        .ok_or_else(|| Failure("no member".into()))?
        .key
        .clone();
    ensure(
        keyed.values().all(|k| k.key == key),
        "every member ends with the same key",
    )?;

    let signers: Vec<_> = SIGNERS.iter().map(|&s| pid(s)).collect::<Result<_, _>>()?;
    let sign = SignParams::new(sign_session, &signers, MESSAGE, CONTEXT)?;
    let mut net: Network<Signed> = Network::new();
    for &s in &signers {
        let share = &keyed
            .get(&s)
            .ok_or_else(|| Failure(format!("no share of {s}")))?
            .share;
        let (party, out) = committee::Signer::start(share, &sign, rngs.of(s)?)?;
        net.add(party, out);
    }
    let signed = run(net, &mut log)?;
    log.end_phase("sign");
    let first = signed
        .values()
        .next()
        .ok_or_else(|| Failure("no signer".into()))?;
    ensure(
        signed.values().all(|s| s.signature == first.signature),
        "every signer combines the same signature",
    )?;
    key.verify(MESSAGE, CONTEXT, &first.signature)?;

    let obj = Obj::default()
        .int("level", u64::from(mode.level()))
        .int("threshold", T as u64)
        .ints("members", nums(&members))
        .objs("seeds", seeds)
        .bytes("keygen_session", &keygen_session)
        .bytes("sign_session", &sign_session)
        .ints("signers", nums(&signers))
        .bytes("message", MESSAGE)
        .bytes("context", CONTEXT)
        .bytes("key", &key.to_bytes())
        .bytes("public_key", key.public_key())
        .bytes("signature", &first.signature)
        .int("runs", u64::from(first.runs));
    Ok(log.record(obj))
}
