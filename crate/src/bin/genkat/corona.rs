//! `kats/corona.json`: Corona (spec §8.1), self-generated — no reference vectors exist.
//!
//! - `expand_a`: SHA-256 of ExpandA(ρ)'s coefficients (u64 big-endian, row-major 8 × 7).
//! - `sample_in_ball`: SampleInBall(c̃) for ten seeds, as −1/0/1.
//! - `cases`: a trusted-dealer key for (t, n) from `ChaCha20Rng::from_seed(dealer_seed)`
//!   ([`corona::deal`] reads ρ, then σ_D), each `CORK`'s SHA-256, then [`corona::Signer`]s
//!   `signers` (party `i` with `ChaCha20Rng::from_seed(seeds[i])`) sign `message` under
//!   `context` in session `session` on the simulator (this file only routes). Recorded: the
//!   `CORG`, the `CORS`, and every message hashed as the binary's docs say.
//! - `signatures`: each case's (group key, message, context, signature) again, flat, for
//!   verifiers written from the spec alone (the tests' JavaScript oracle).

use quasar_pq::corona::{self, kat, SignParams, Signed};
use quasar_pq::party::sim::Network;
use rand_core::SeedableRng;
use sha2::{Digest, Sha256};

use crate::format::{ensure, nums, pid, pids, run, Failure, MessageLog, Obj, Rngs, Stream};

const CONTEXT: &[u8] = b"quasar";

/// (t, n, signers) of each case.
const CASES: [(usize, u16, &[u16]); 3] = [(2, 3, &[1, 3]), (3, 5, &[1, 2, 4, 5]), (4, 7, &[2, 3, 5, 7])];

/// Corona vectors (`kats/corona.json`).
///
/// # Panics
/// If the protocol fails on its own honest run (a bug in the code under test).
pub(crate) fn corona() -> String {
    let mut rho = [0u8; 32];
    for (i, b) in rho.iter_mut().enumerate() {
        // Exact: i < 32.
        #[allow(clippy::cast_possible_truncation)]
        let v = i as u8;
        *b = v;
    }
    let expand_a = vec![Obj::default()
        .bytes("rho", &rho)
        .bytes("sha256", &kat::expand_a_sha256(&rho))];
    let mut stream = Stream::new("quasar-pq/kat/corona/ball");
    let balls: Vec<Obj> = (0..10)
        .map(|_| {
            let seed = stream.array32();
            let c = kat::sample_in_ball(&seed);
            Obj::default()
                .bytes("seed", &seed)
                .signed_ints("c", c.iter().map(|&v| i64::from(v)))
        })
        .collect();
    let mut cases = Vec::new();
    let mut signatures = Vec::new();
    for (t, n, signers) in CASES {
        let (case, flat) = case(t, n, signers).unwrap_or_else(|e| panic!("corona KAT ({t}, {n}): {}", e.0));
        cases.push(case);
        signatures.push(flat);
    }
    let top = Obj::default()
        .str("name", "corona")
        .str("generator", "cargo run --bin genkat")
        .objs("expand_a", expand_a)
        .objs("sample_in_ball", balls)
        .objs("signatures", signatures)
        .objs("cases", cases);
    format!("{}\n", top.render(0))
}

fn case(t: usize, n: u16, signers: &[u16]) -> Result<(Obj, Obj), Failure> {
    let mut stream = Stream::new(&format!("quasar-pq/kat/corona/{t}-of-{n}"));
    let dealer_seed = stream.array32();
    let (key, shares) = corona::deal(
        t,
        usize::from(n),
        &mut rand_chacha::ChaCha20Rng::from_seed(dealer_seed),
    )?;
    let signers: Vec<_> = signers.iter().map(|&s| pid(s)).collect::<Result<_, _>>()?;
    let (mut rngs, seeds) = Rngs::new(&mut stream, &signers);
    let session = stream.array32();
    let message = format!("quasar-pq corona KAT: {t} of {n}");
    let mut log = MessageLog::default();
    let params = SignParams::new(session, &signers, message.as_bytes(), CONTEXT)?;
    let mut net: Network<Signed> = Network::new();
    for &s in &signers {
        let share = shares
            .iter()
            .find(|k| k.id() == s)
            .ok_or_else(|| Failure(format!("no share of {s}")))?;
        let (party, out) = corona::Signer::start(share, &params, rngs.of(s)?)?;
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
    key.verify(message.as_bytes(), CONTEXT, &first.signature)?;
    let package_hashes: Vec<Obj> = shares
        .iter()
        .map(|s| {
            Obj::default()
                .int("party", u64::from(s.id().get()))
                .bytes("sha256", &Sha256::digest(&s.to_bytes()[..]))
        })
        .collect();
    let group_key = key.to_bytes();
    let flat = Obj::default()
        .str("name", &format!("{t} of {n}"))
        .bytes("group_key", &group_key)
        .bytes("message", message.as_bytes())
        .bytes("context", CONTEXT)
        .bytes("signature", &first.signature);
    let obj = Obj::default()
        .int("threshold", t as u64)
        .ints("parties", nums(&pids(1..=n)?))
        .bytes("dealer_seed", &dealer_seed)
        .bytes("group_key", &group_key)
        .objs("packages", package_hashes)
        .objs("seeds", seeds)
        .bytes("session", &session)
        .ints("signers", nums(&signers))
        .bytes("message", message.as_bytes())
        .bytes("context", CONTEXT)
        .bytes("signature", &first.signature);
    Ok((log.record(obj), flat))
}
