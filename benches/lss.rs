//! LSS reshare: the whole verified run in one process, and true per-party times.
//!
//! Cases (t = ⌈2n/3⌉, dealers = a minimal quorum of t_old old parties, unless noted):
//! n → n reshare for n ∈ {3, 7, 21, 64, 128}; the transitions 21→21 refresh (all 21 deal),
//! 21→21 new set, 21→64, 64→21, 64→128, 128→64. Each on Ristretto255 with Pedersen
//! commitments (Pulsar-style: nothing like x·G published) and Ed25519 with Feldman
//! commitments (Lens-style).
//!
//! Ids: `lss/<curve>-<mode>/<case>/total` — every party's round 1 (deal), decoding of every
//! message it receives from bytes, round 2 (share and constant-term checks, complaints),
//! round 3, and finalize (combination, torsion check, transcript hash), all parties one
//! after another; `…/deal` — one dealer's round 1 including encoding its messages;
//! `…/receive` — one receiver's decoding plus rounds 2, 3 and finalize. Per-party figures
//! are measured on one party, never a total divided by n.
//!
//! Run: `cargo bench --bench lss` (filter with e.g. `-- lss/ristretto255-pedersen/21`);
//! after the run a markdown table of medians is printed. Seeds are fixed
//! (ChaCha20 from 1, 2, …) so reruns are comparable.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode};
use quasar_pq::lss::{
    self, Ceremony, ComplaintMessage, DealMessage, GroupPublic, KeyShare, ResponseMessage, ShareMessage,
};
use quasar_pq::vss::{Curve, Ed25519, Mode, Ristretto255};
use quasar_pq::PartyId;
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

fn ids(range: impl IntoIterator<Item = u16>) -> Vec<PartyId> {
    range.into_iter().map(|v| PartyId::new(v).unwrap()).collect()
}

fn two_thirds(n: u16) -> u16 {
    (2 * n).div_ceil(3)
}

/// Every message of one run, as bytes.
#[derive(Default, Clone)]
struct Wire {
    deals: BTreeMap<PartyId, Vec<u8>>,
    shares: BTreeMap<(PartyId, PartyId), Vec<u8>>,
    complaints: BTreeMap<PartyId, Vec<u8>>,
    responses: BTreeMap<PartyId, Vec<u8>>,
}

/// One whole run, every party, through bytes; returns the receivers' shares and the wire.
fn run<C: Curve>(
    ceremony: &Ceremony<C>,
    old: &BTreeMap<PartyId, KeyShare<C>>,
    seed: u64,
) -> (BTreeMap<PartyId, KeyShare<C>>, GroupPublic<C>, Wire) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let parties: BTreeSet<PartyId> = ceremony
        .dealers()
        .iter()
        .chain(ceremony.receivers())
        .copied()
        .collect();
    let mut wire = Wire::default();
    let mut s1 = Vec::new();
    for &p in &parties {
        let (state, out) = lss::round1(ceremony.clone(), p, old.get(&p), &mut rng).unwrap();
        if let Some(d) = out.broadcast {
            wire.deals.insert(p, d.to_bytes());
        }
        for m in out.shares {
            wire.shares.insert((p, m.to()), m.to_bytes().to_vec());
        }
        s1.push((p, state));
    }
    let mut s2 = Vec::new();
    for (p, state) in s1 {
        let (deals, shares) = inbox1::<C>(&wire, p);
        let (state, complaint) = state.round2(deals, shares).unwrap();
        if let Some(c) = complaint {
            wire.complaints.insert(p, c.to_bytes());
        }
        s2.push((p, state));
    }
    let mut s3 = Vec::new();
    for (p, state) in s2 {
        let (state, response) = state.round3(inbox2::<C>(&wire, p)).unwrap();
        if let Some(r) = response {
            wire.responses.insert(p, r.to_bytes());
        }
        s3.push((p, state));
    }
    let mut shares = BTreeMap::new();
    let mut public = None;
    for (p, state) in s3 {
        let out = state.finalize(inbox3::<C>(&wire, p)).unwrap();
        if let Some(k) = out.key_share {
            shares.insert(p, k);
        }
        public = Some(out.public);
    }
    (shares, public.unwrap(), wire)
}

fn inbox1<C: Curve>(
    wire: &Wire,
    p: PartyId,
) -> (
    BTreeMap<PartyId, DealMessage<C>>,
    BTreeMap<PartyId, ShareMessage<C>>,
) {
    let deals = wire
        .deals
        .iter()
        .filter(|(&d, _)| d != p)
        .map(|(&d, b)| (d, DealMessage::from_bytes(b).unwrap()))
        .collect();
    let shares = wire
        .shares
        .iter()
        .filter(|((_, to), _)| *to == p)
        .map(|((from, _), b)| (*from, ShareMessage::from_bytes(b).unwrap()))
        .collect();
    (deals, shares)
}

fn inbox2<C: Curve>(wire: &Wire, p: PartyId) -> BTreeMap<PartyId, ComplaintMessage<C>> {
    wire.complaints
        .iter()
        .filter(|(&j, _)| j != p)
        .map(|(&j, b)| (j, ComplaintMessage::from_bytes(b).unwrap()))
        .collect()
}

fn inbox3<C: Curve>(wire: &Wire, p: PartyId) -> BTreeMap<PartyId, ResponseMessage<C>> {
    wire.responses
        .iter()
        .filter(|(&d, _)| d != p)
        .map(|(&d, b)| (d, ResponseMessage::from_bytes(b).unwrap()))
        .collect()
}

#[derive(Clone, Copy)]
enum Case {
    /// n → n, same set, minimal quorum.
    Same(u16),
    /// Refresh of n parties, all dealing.
    Refresh(u16),
    /// n_old → n_new with a disjoint new set.
    NewSet(u16, u16),
}

impl Case {
    fn name(self) -> String {
        match self {
            Case::Same(n) => format!("{n}->{n}"),
            Case::Refresh(n) => format!("{n}->{n} refresh"),
            Case::NewSet(a, b) => format!("{a}->{b} new set"),
        }
    }

    fn n_old(self) -> u16 {
        match self {
            Case::Same(n) | Case::Refresh(n) | Case::NewSet(n, _) => n,
        }
    }
}

/// Median per-iteration times recorded by `iter_custom`, for the table.
static RESULTS: Mutex<BTreeMap<(String, String), Vec<Duration>>> = Mutex::new(BTreeMap::new());

fn record(group: &str, id: &str, d: Duration) {
    RESULTS
        .lock()
        .unwrap()
        .entry((group.to_string(), id.to_string()))
        .or_default()
        .push(d);
}

/// The benchmark filter given on the command line, if any (criterion's own filtering
/// would still run every case's setup).
fn filter() -> Option<String> {
    std::env::args().skip(1).find(|a| !a.starts_with('-'))
}

fn bench_case<C: Curve>(c: &mut Criterion, mode: Mode, case: Case) {
    let group_name = format!(
        "lss/{}-{}",
        C::NAME,
        match mode {
            Mode::Pedersen => "pedersen",
            Mode::Feldman => "feldman",
        }
    );
    if let Some(f) = filter() {
        if !format!("{group_name}/{}/", case.name()).contains(f.as_str()) {
            return;
        }
    }
    let n_old = case.n_old();
    let t_old = two_thirds(n_old);
    // The old generation, from a DKG (outside every timer).
    let dkg = Ceremony::<C>::dkg([7; 32], mode, &ids(1..=n_old), t_old).unwrap();
    let (old_shares, old_public, _) = run(&dkg, &BTreeMap::new(), 1);
    let ceremony = match case {
        Case::Same(n) => Ceremony::reshare([8; 32], &old_public, &ids(1..=t_old), &ids(1..=n), two_thirds(n)),
        Case::Refresh(n) => Ceremony::refresh([8; 32], &old_public, &ids(1..=n)),
        Case::NewSet(_, n) => Ceremony::reshare(
            [8; 32],
            &old_public,
            &ids(1..=t_old),
            &ids(1001..=1000 + n),
            two_thirds(n),
        ),
    }
    .unwrap();
    let (_, new_public, wire) = run(&ceremony, &old_shares, 2);
    assert_eq!(new_public.group_commitment(), old_public.group_commitment());

    let mut g = c.benchmark_group(format!("{group_name}/{}", case.name()));
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    let key = format!("{group_name}/{}", case.name());

    g.bench_function("total", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for i in 0..iters {
                let (shares, public, _) = run(&ceremony, &old_shares, 3 + i);
                assert_eq!(shares.len(), ceremony.receivers().len());
                assert_eq!(public.group_commitment(), old_public.group_commitment());
            }
            let d = start.elapsed();
            record(&key, "total", d / iters as u32);
            d
        })
    });

    let dealer = ceremony.dealers()[0];
    g.bench_function("deal", |b| {
        b.iter_custom(|iters| {
            let mut rng = ChaCha20Rng::seed_from_u64(4);
            let start = Instant::now();
            for _ in 0..iters {
                let (state, out) =
                    lss::round1(ceremony.clone(), dealer, old_shares.get(&dealer), &mut rng).unwrap();
                let bytes: usize = out.broadcast.map_or(0, |d| d.to_bytes().len())
                    + out.shares.iter().map(|m| m.to_bytes().len()).sum::<usize>();
                std::hint::black_box((state, bytes));
            }
            let d = start.elapsed();
            record(&key, "deal", d / iters as u32);
            d
        })
    });

    // A receiver that is not a dealer when there is one (its round 1 is then empty).
    let receiver = ceremony
        .receivers()
        .iter()
        .copied()
        .rfind(|r| !ceremony.is_dealer(*r))
        .unwrap_or(*ceremony.receivers().last().unwrap());
    g.bench_function("receive", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut rng = ChaCha20Rng::seed_from_u64(5);
            for _ in 0..iters {
                let (state, _) =
                    lss::round1(ceremony.clone(), receiver, old_shares.get(&receiver), &mut rng).unwrap();
                let start = Instant::now();
                let (deals, shares) = inbox1::<C>(&wire, receiver);
                let (state, _) = state.round2(deals, shares).unwrap();
                let (state, _) = state.round3(inbox2::<C>(&wire, receiver)).unwrap();
                let out = state.finalize(inbox3::<C>(&wire, receiver)).unwrap();
                total += start.elapsed();
                std::hint::black_box(out);
            }
            record(&key, "receive", total / iters as u32);
            total
        })
    });
    g.finish();
}

fn cases() -> Vec<Case> {
    let mut v: Vec<Case> = [3, 7, 21, 64, 128].into_iter().map(Case::Same).collect();
    v.extend([
        Case::Refresh(21),
        Case::NewSet(21, 21),
        Case::NewSet(21, 64),
        Case::NewSet(64, 21),
        Case::NewSet(64, 128),
        Case::NewSet(128, 64),
    ]);
    v
}

fn median(v: &[Duration]) -> Duration {
    let mut v = v.to_vec();
    v.sort();
    v[v.len() / 2]
}

fn fmt(d: Option<Duration>) -> String {
    match d {
        None => "–".into(),
        Some(d) if d < Duration::from_millis(1) => format!("{:.0} µs", d.as_secs_f64() * 1e6),
        Some(d) if d < Duration::from_secs(1) => format!("{:.2} ms", d.as_secs_f64() * 1e3),
        Some(d) => format!("{:.2} s", d.as_secs_f64()),
    }
}

const PULSAR: &str = "lss/ristretto255-pedersen";
const LENS: &str = "lss/ed25519-feldman";

fn print_table() {
    let results = RESULTS.lock().unwrap();
    if results.is_empty() {
        return;
    }
    let get = |group: &str, case: Case, what: &str| {
        results
            .get(&(format!("{group}/{}", case.name()), what.to_string()))
            .map(|v| median(v))
    };
    let row = |case: Case, label: String| {
        let cells: Vec<String> = [PULSAR, LENS]
            .iter()
            .flat_map(|g| ["total", "deal", "receive"].map(|w| fmt(get(g, case, w))))
            .collect();
        if cells.iter().all(|c| c == "–") {
            return;
        }
        println!("| {label} | {} |", cells.join(" | "));
    };
    let header =
        "| Pulsar-style total | deal | receive + finalize | Lens-style total | deal | receive + finalize |";
    println!();
    println!(
        "Reshare n → n (same set, t = ⌈2n/3⌉, quorum of t_old dealers). Pulsar-style = Ristretto255 with"
    );
    println!(
        "Pedersen commitments; Lens-style = Ed25519 with Feldman commitments. Total = every party, one after"
    );
    println!(
        "another, all verification and decoding included; deal and receive + finalize are measured on one"
    );
    println!("party. Median time per operation, lower is better.");
    println!();
    println!("| n_old = n_new {header}");
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for case in cases() {
        if let Case::Same(n) = case {
            row(case, n.to_string());
        }
    }
    println!();
    println!("| transition {header}");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for case in cases() {
        let label = match case {
            Case::Same(_) => continue,
            Case::Refresh(n) => format!("{n} → {n} (refresh, same set)"),
            Case::NewSet(a, b) if a == b => format!("{a} → {b} (reshare, new set)"),
            Case::NewSet(a, b) if a < b => format!("{a} → {b} (expansion, new set)"),
            Case::NewSet(a, b) => format!("{a} → {b} (contraction, new set)"),
        };
        row(case, label);
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    for case in cases() {
        bench_case::<Ristretto255>(&mut c, Mode::Pedersen, case);
        bench_case::<Ed25519>(&mut c, Mode::Feldman, case);
    }
    c.final_summary();
    print_table();
}
