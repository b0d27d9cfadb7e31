//! LSS dealing on the library's party (`lss::DealingParty`): whole verified runs in one
//! process, true per-party times, and the activation certificate.
//!
//! Cases (t = ⌈2n/3⌉, dealers = a minimal quorum of t_old old parties, unless noted):
//! n → n reshare for n ∈ {3, 7, 21, 64, 128}; the transitions 21→21 refresh (all 21 deal),
//! 21→21 new set, 21→64, 64→21, 64→128, 128→64. Each on Ristretto255 with Pedersen
//! commitments (Pulsar-style: nothing like x·G published) and Ed25519 with Feldman
//! commitments (Lens-style).
//!
//! Ids `lss/<curve>-<mode>/<case>/<step>`:
//! - `total`: every party's whole dealing through `party::sim` — deal, decoding every
//!   message, share and constant-term checks, complaints, answers, finalize (combination,
//!   torsion check, transcript hash, its proof of possession) and the activation round
//!   (checking the others' proofs, the certificate);
//! - `total-parallel` (with the `parallel` feature): `total` with each round's parties
//!   stepped concurrently on rayon's threads;
//! - `deal`: one dealer's `start` (its polynomials, commitments, shares, encodings);
//! - `receive`: one receiver's rounds 1–3 (check shares, answer complaints, finalize,
//!   which makes its proof of possession), on the inbox of a reference run;
//! - `activate`: the same receiver's activation round (decode and check the other new
//!   members' proofs, assemble the certificate);
//! - `receive-alone`: `receive` with nothing shared in the process (`party::release_shared`
//!   first): the receiver decodes every deal and checks its shares per dealer itself, as a
//!   party alone in its process does.
//!
//! Ids `lss/<curve>-<mode>/dkg/<n>/<step>` (n ∈ {21, 128}): `total`, `deal`, `receive` of a
//! DKG among n.
//!
//! Ids `lss/<curve>-<mode>/activation/<n>/<step>` (n ∈ {21, 128}, the generation of a DKG
//! among n, scheme `Lss`): `prove` (one member's proof of possession and its `LSV1`),
//! `make` (one participant's activation round on the n − 1 others' proofs: the
//! certificate), `verify` (decode the `LSA2` certificate and check it against the
//! generation's public data, as a third party does).
//!
//! Per-party figures are one party's own steps (`benches/common`), never a total ÷ n.
//! Run: `cargo bench --bench lss --features sim` (`sim,parallel` adds `total-parallel`;
//! filter with e.g. `-- lss/ristretto255-pedersen/21`); after the run a markdown table of
//! medians is printed. Seeds are fixed and labelled, so reruns are comparable.

mod common;

use core::time::Duration;
use std::collections::BTreeMap;

use common::{
    bench, cases, fmt, ids, median_of, pid, replay, run, run_logged, timed, two_thirds, wanted, Case,
};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode};
use quasar_pq::lss::{
    ActivationCertificate, ActivationKind, ActivationParty, Ceremony, DealingParty, GroupPublic, KeyShare,
    Outcome,
};
use quasar_pq::party::sim::{Network, Sent};
use quasar_pq::party::{Incoming, Outgoing, Party, Step};
use quasar_pq::vss::{Curve, Ed25519, Mode, Ristretto255};
use quasar_pq::PartyId;

/// Starts every participant of `c` in a simulator, party `p` with the RNG of `label`.
fn network<C: Curve>(
    c: &Ceremony<C>,
    old: &BTreeMap<PartyId, KeyShare<C>>,
    label: &str,
) -> Network<Outcome<C>> {
    let mut net = Network::new();
    for (party, first) in started(c, old, label) {
        net.add(party, first);
    }
    net
}

/// Every participant of `c` started, in party order.
fn started<C: Curve>(
    c: &Ceremony<C>,
    old: &BTreeMap<PartyId, KeyShare<C>>,
    label: &str,
) -> Vec<(DealingParty<C>, Outgoing)> {
    participants(c)
        .into_iter()
        .map(|p| {
            DealingParty::start(c.clone(), p, old.get(&p), &mut common::party_rng(label, p)).expect("start")
        })
        .collect()
}

/// Every participant of `ceremony`, increasing.
fn participants<C: Curve>(c: &Ceremony<C>) -> Vec<PartyId> {
    let mut all: Vec<PartyId> = c.dealers().iter().chain(c.receivers()).copied().collect();
    all.sort_unstable();
    all.dedup();
    all
}

/// [`network`] with the parties started concurrently, stepping each round's parties
/// concurrently (the `parallel` feature's whole run).
#[cfg(feature = "parallel")]
fn network_parallel<C: Curve>(
    c: &Ceremony<C>,
    old: &BTreeMap<PartyId, KeyShare<C>>,
    label: &str,
) -> Network<Outcome<C>> {
    use rayon::prelude::*;
    // One participant per task, so that the dealers (often the first ids) spread over
    // every thread.
    let parties: Vec<(DealingParty<C>, Outgoing)> = participants(c)
        .into_par_iter()
        .with_max_len(1)
        .map(|p| {
            DealingParty::start(c.clone(), p, old.get(&p), &mut common::party_rng(label, p)).expect("start")
        })
        .collect();
    let mut net = Network::new();
    for (party, first) in parties {
        net.add(party, first);
    }
    net.parallel(true);
    net
}

/// A DKG among `n` (outside every timer): the shares and the public data.
fn dkg<C: Curve>(group: &str, mode: Mode, n: u16) -> Generation<C> {
    let c = Ceremony::<C>::dkg([7; 32], mode, &ids(1..=n), two_thirds(n)).expect("dkg");
    let out = run(network(&c, &BTreeMap::new(), &format!("{group}/dkg/{n}")));
    let public = out[&pid(1)].public.clone();
    let shares = out
        .into_iter()
        .filter_map(|(p, o)| o.key_share.map(|s| (p, s)))
        .collect();
    (shares, public)
}

fn ceremony<C: Curve>(case: Case, old: &GroupPublic<C>) -> Ceremony<C> {
    let (dealers, receivers, t) = case.sets();
    match t {
        Some(t) => Ceremony::reshare([8; 32], old, &dealers, &receivers, t),
        None => Ceremony::refresh([8; 32], old, &dealers),
    }
    .expect("ceremony")
}

fn group_name(curve: &str, mode: Mode) -> String {
    let mode = match mode {
        Mode::Pedersen => "pedersen",
        Mode::Feldman => "feldman",
    };
    format!("lss/{curve}-{mode}")
}

fn bench_case<C: Curve>(c: &mut Criterion, mode: Mode, case: Case, dkgs: &mut Dkgs<C>) {
    let key = format!("{}/{}", group_name(C::NAME, mode), case.name());
    if !wanted(&format!("{key}/")) {
        return;
    }
    let (old_shares, old_public) = dkgs.get(mode, case.n_old());
    let ceremony = ceremony(case, &old_public);
    let reference = format!("{key}/reference");
    let (outcomes, sent) = run_logged(network(&ceremony, &old_shares, &reference));
    assert!(outcomes
        .values()
        .all(|o| o.activation.is_some() && o.blame.is_empty()));

    let mut g = whole_runs(c, &key);
    let mut i = 0;
    bench(&mut g, &format!("{key}/total"), || {
        i += 1;
        let (out, d) = timed(|| run(network(&ceremony, &old_shares, &format!("{key}/total/{i}"))));
        assert_eq!(
            out.values().filter(|o| o.key_share.is_some()).count(),
            ceremony.receivers().len()
        );
        d
    });
    // The same run with each round's parties stepped on every core (feature `parallel`).
    #[cfg(feature = "parallel")]
    bench(&mut g, &format!("{key}/total-parallel"), || {
        i += 1;
        timed(|| {
            run(network_parallel(
                &ceremony,
                &old_shares,
                &format!("{key}/total/{i}"),
            ))
        })
        .1
    });
    let dealer = ceremony.dealers()[0];
    let start = |p: PartyId| {
        let (c, old, mut rng) = (
            ceremony.clone(),
            old_shares.get(&p),
            common::party_rng(&reference, p),
        );
        move || DealingParty::start(c, p, old, &mut rng).expect("start")
    };
    bench(&mut g, &format!("{key}/deal"), || timed(start(dealer)).1);
    // A receiver that is not a dealer when there is one (its start is then empty).
    let receiver = ceremony
        .receivers()
        .iter()
        .copied()
        .rfind(|r| !ceremony.is_dealer(*r))
        .unwrap_or(*ceremony.receivers().last().expect("receivers"));
    let one = |sent: &[Sent]| replay(start(receiver), sent);
    bench(&mut g, &format!("{key}/receive"), || one(&sent).span(1, 3));
    // The same receiver alone in its process: it decodes every deal itself.
    bench(&mut g, &format!("{key}/receive-alone"), || {
        quasar_pq::party::release_shared();
        one(&sent).span(1, 3)
    });
    bench(&mut g, &format!("{key}/activate"), || {
        let r = one(&sent);
        r.times[r.times.len() - 1]
    });
    g.finish();
}

/// A group of whole runs: ten samples, each one run.
fn whole_runs<'a>(c: &'a mut Criterion, key: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(key);
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    g
}

/// A whole DKG among `n` (t = ⌈2n/3⌉) through the simulator, and one receiver's rounds.
fn bench_dkg<C: Curve>(c: &mut Criterion, mode: Mode, n: u16) {
    let key = format!("{}/dkg/{n}", group_name(C::NAME, mode));
    if !wanted(&format!("{key}/")) {
        return;
    }
    let ceremony = Ceremony::<C>::dkg([9; 32], mode, &ids(1..=n), two_thirds(n)).expect("dkg");
    let none = BTreeMap::new();
    let reference = format!("{key}/reference");
    let (_, sent) = run_logged(network(&ceremony, &none, &reference));
    let mut g = whole_runs(c, &key);
    let mut i = 0;
    bench(&mut g, &format!("{key}/total"), || {
        i += 1;
        let (out, d) = timed(|| run(network(&ceremony, &none, &format!("{key}/total/{i}"))));
        assert_eq!(
            out.values().filter(|o| o.key_share.is_some()).count(),
            usize::from(n)
        );
        d
    });
    let me = pid(n);
    let start = || {
        let (c, mut rng) = (ceremony.clone(), common::party_rng(&reference, me));
        move || DealingParty::start(c, me, None, &mut rng).expect("start")
    };
    bench(&mut g, &format!("{key}/deal"), || timed(start()).1);
    bench(&mut g, &format!("{key}/receive"), || {
        replay(start(), &sent).span(1, 3)
    });
    g.finish();
}

/// The shares and public data of one generation.
type Generation<C> = (BTreeMap<PartyId, KeyShare<C>>, GroupPublic<C>);

/// DKGs already run, by (mode, n).
struct Dkgs<C: Curve> {
    group: String,
    done: BTreeMap<(u8, u16), Generation<C>>,
}

impl<C: Curve> Dkgs<C> {
    fn get(&mut self, mode: Mode, n: u16) -> Generation<C> {
        let group = self.group.clone();
        let (shares, public) = self
            .done
            .entry((mode.to_byte(), n))
            .or_insert_with(|| dkg::<C>(&group, mode, n));
        let shares = shares
            .iter()
            .map(|(p, s)| (*p, KeyShare::from_bytes(&s.to_bytes()).expect("share")))
            .collect();
        (shares, public.clone())
    }
}

/// The activation certificate of a DKG's generation: prove, make, verify.
fn bench_activation<C: Curve>(c: &mut Criterion, mode: Mode, n: u16, dkgs: &mut Dkgs<C>) {
    let key = format!("{}/activation/{n}", group_name(C::NAME, mode));
    if !wanted(&format!("{key}/")) {
        return;
    }
    let (shares, public) = dkgs.get(mode, n);
    let kind = ActivationKind::Lss;
    let start = |p: PartyId| {
        let rng = &mut common::party_rng(&key, p);
        ActivationParty::start(p, shares.get(&p), &public, kind, &[], rng).expect("activation")
    };
    // Every member's proof, as the reference inbox.
    let proofs: Vec<(PartyId, Vec<u8>)> = shares
        .keys()
        .map(|&p| (p, start(p).1.broadcast.expect("a member broadcasts its proof")))
        .collect();
    let me = pid(1);
    let inbox: Vec<Incoming<'_>> = proofs
        .iter()
        .filter(|(p, _)| *p != me)
        .map(|(p, b)| Incoming::new(*p, b))
        .collect();
    let make = || {
        let (mut party, _) = start(me);
        timed(|| match party.step(&inbox) {
            Ok(Step::Done(_, cert)) => cert,
            other => panic!("activation: {other:?}"),
        })
    };
    let cert = make().0.to_bytes();
    assert_eq!(
        ActivationCertificate::from_bytes(&cert)
            .expect("cert")
            .members()
            .len(),
        usize::from(n)
    );

    let mut g = c.benchmark_group(&key);
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    bench(&mut g, &format!("{key}/prove"), || timed(|| start(me)).1);
    bench(&mut g, &format!("{key}/make"), || make().1);
    bench(&mut g, &format!("{key}/verify"), || {
        timed(|| {
            let cert = ActivationCertificate::from_bytes(&cert).expect("cert");
            cert.verify(&public, kind, &[]).expect("verify")
        })
        .1
    });
    g.finish();
}

const PULSAR: &str = "lss/ristretto255-pedersen";
const LENS: &str = "lss/ed25519-feldman";

fn print_table() {
    let row = |case: Case| {
        let cells: Vec<String> = [PULSAR, LENS]
            .iter()
            .flat_map(|g| {
                ["total", "deal", "receive", "activate"]
                    .map(|w| fmt(median_of(&format!("{g}/{}/{w}", case.name()))))
            })
            .collect();
        if cells.iter().any(|c| c != "–") {
            println!("| {} | {} |", case.label(), cells.join(" | "));
        }
    };
    let header = "| Pulsar-style total | deal | receive + finalize | activate | Lens-style total | deal | \
                  receive + finalize | activate |";
    println!();
    println!(
        "Reshare n → n (same set, t = ⌈2n/3⌉, quorum of t_old dealers), ending with the activation round."
    );
    println!("Pulsar-style = Ristretto255 with Pedersen commitments; Lens-style = Ed25519 with Feldman commitments.");
    println!(
        "Total = every party through party::sim, all verification and decoding included; deal, receive +"
    );
    println!(
        "finalize (rounds 1–3) and activate (round 4) are one party's own steps. Median time per operation,"
    );
    println!("lower is better.");
    println!();
    println!("| n_old = n_new {header}");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    cases()
        .into_iter()
        .filter(|c| matches!(c, Case::Same(_)))
        .for_each(row);
    println!();
    println!("| transition {header}");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    cases()
        .into_iter()
        .filter(|c| !matches!(c, Case::Same(_)))
        .for_each(row);
    println!();
    println!("DKG among n (t = ⌈2n/3⌉; median, lower is better):");
    println!();
    println!("| n | Pulsar-style total | deal | receive + finalize | Lens-style total | deal | receive + finalize |");
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for n in [21, 128] {
        let cells: Vec<String> = [PULSAR, LENS]
            .iter()
            .flat_map(|g| ["total", "deal", "receive"].map(|w| fmt(median_of(&format!("{g}/dkg/{n}/{w}")))))
            .collect();
        if cells.iter().any(|c| c != "–") {
            println!("| {n} | {} |", cells.join(" | "));
        }
    }
    println!();
    println!("Activation certificate (the generation of a DKG among n; median, lower is better):");
    println!();
    println!("| n | group | prove (one member) | make (one participant's round) | verify (third party) |");
    println!("|---:|---|---:|---:|---:|");
    for n in [21, 128] {
        for g in [PULSAR, LENS] {
            let get = |w: &str| fmt(median_of(&format!("{g}/activation/{n}/{w}")));
            if get("verify") != "–" {
                println!(
                    "| {n} | {} | {} | {} | {} |",
                    &g[4..],
                    get("prove"),
                    get("make"),
                    get("verify")
                );
            }
        }
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let mut ristretto = Dkgs::<Ristretto255> {
        group: group_name("ristretto255", Mode::Pedersen),
        done: BTreeMap::new(),
    };
    let mut ed25519 = Dkgs::<Ed25519> {
        group: group_name("ed25519", Mode::Feldman),
        done: BTreeMap::new(),
    };
    for case in cases() {
        bench_case(&mut c, Mode::Pedersen, case, &mut ristretto);
        bench_case(&mut c, Mode::Feldman, case, &mut ed25519);
    }
    for n in [21, 128] {
        bench_dkg::<Ristretto255>(&mut c, Mode::Pedersen, n);
        bench_dkg::<Ed25519>(&mut c, Mode::Feldman, n);
    }
    for n in [21, 128] {
        bench_activation(&mut c, Mode::Pedersen, n, &mut ristretto);
        bench_activation(&mut c, Mode::Feldman, n, &mut ed25519);
    }
    c.final_summary();
    print_table();
}
