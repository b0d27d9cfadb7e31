//! Lens (FROST, RFC 9591) signing sessions on the library's parties (`lens::SignerParty`,
//! `lens::CoordinatorParty`), on Ed25519, secp256k1 (BIP-340) and Ristretto255 at
//! (t, n) = (2, 3), (14, 21), (43, 64): the sizes, which the Zcash Foundation's
//! FROST book also reports for its crates.
//!
//! Ids read `lens/<curve>/<t>-of-<n>/<step>`:
//! - `round1`: one signer's `start` (draw nonces, commit, encode `LNC1`);
//! - `package`: the coordinator's round 1 (decode `t` commitments, build and encode the
//!   signing package);
//! - `round2`: one signer's step on the package (decode, check, sign, encode `LNZ2`);
//! - `aggregate`: the coordinator's last step (decode `t` shares, aggregate; shares are
//!   verified only if the aggregate fails, as in frost);
//! - `verify`: `lens::verify` of the final signature;
//! - `total`: one whole sign path of the lifecycle (`lens::lifecycle`) through
//!   `party::sim`: `t` signers and the coordinator (the sum of what every party does, not
//!   a per-party figure).
//!
//! The per-round figures replay the single-protocol parties (`lens::SignerParty`,
//! `lens::CoordinatorParty`) on the lifecycle run's log: the lifecycle parties are built
//! from them and send the same bytes.
//!
//! Per-party figures are one party's own steps on the inbox of a reference run
//! (`benches/common`). Keys come from the trusted dealer with a fixed, labelled seed, so
//! reruns are comparable. Run: `cargo bench --bench lens --features sim`.

mod common;

use core::hint::black_box;
use core::time::Duration;
use std::collections::BTreeSet;

use common::{bench, pid, replay, run, run_logged, timed, wanted};
use criterion::Criterion;
use quasar_pq::lens::lifecycle::{Coordinator, Member};
use quasar_pq::lens::{self, CoordinatorParty, Curve, KeyShare, PublicKeyPackage, SignerParty};
use quasar_pq::party::sim::{map_output, Network};
use quasar_pq::PartyId;

const MESSAGE: &[u8] = b"quasar-pq/bench/lens/message: a 64-byte message to be signed....";

/// The coordinator's id.
const HUB: u16 = 4000;

fn keys(curve: Curve, t: u16, n: u16, label: &str) -> (Vec<KeyShare>, PublicKeyPackage) {
    let parties: BTreeSet<PartyId> = (1..=n).map(pid).collect();
    let (dealt, public) = lens::deal(curve, t, &parties, &mut common::rng(label)).expect("deal");
    let shares = dealt
        .into_values()
        .map(|d| KeyShare::from_dealer(d, &public).expect("share"))
        .collect();
    (shares, public)
}

/// One sign path of the lifecycle (`lens::lifecycle`): `signers`, party `p` with the RNG
/// of `label`, and the coordinator; the coordinator's signature (and the signers' `None`s).
fn session(signers: &[KeyShare], public: &PublicKeyPackage, label: &str) -> Network<Option<lens::Signature>> {
    let mut net = Network::new();
    let (c, first) = Coordinator::sign(pid(HUB), public, MESSAGE).expect("coordinator");
    net.add(map_output(c, |o| Some(o.signature)), first);
    for s in signers {
        let rng = &mut common::party_rng(label, s.party());
        let (p, first) = Member::sign(s, pid(HUB), MESSAGE, rng).expect("signer");
        net.add(map_output(p, |_| None), first);
    }
    net
}

fn bench_curve(c: &mut Criterion, curve: Curve) {
    for (t, n) in [(2u16, 3u16), (14, 21), (43, 64)] {
        let label = format!("lens/{curve}/{t}-of-{n}");
        if !wanted(&format!("{label}/")) {
            continue;
        }
        let (mut shares, public) = keys(curve, t, n, &label);
        shares.truncate(usize::from(t));
        let signers = shares;
        let reference = format!("{label}/reference");
        let (out, sent) = run_logged(session(&signers, &public, &reference));
        let sig = out.into_values().flatten().next().expect("a signature");
        let gk = public.group_key_bytes();
        lens::verify(curve, &gk, MESSAGE, sig.as_bytes()).expect("verify");

        let mut g = c.benchmark_group(&label);
        g.sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(1));
        let me = &signers[0];
        let signer = || {
            let mut rng = common::party_rng(&reference, me.party());
            move || SignerParty::start(me, pid(HUB), MESSAGE, &mut rng).expect("signer")
        };
        let coordinator = || || CoordinatorParty::start(pid(HUB), &public, MESSAGE).expect("coordinator");
        bench(&mut g, &format!("{label}/round1"), || timed(signer()).1);
        bench(&mut g, &format!("{label}/package"), || {
            replay(coordinator(), &sent).times[1]
        });
        bench(&mut g, &format!("{label}/round2"), || {
            let r = replay(signer(), &sent);
            r.times[r.times.len() - 1]
        });
        bench(&mut g, &format!("{label}/aggregate"), || {
            let r = replay(coordinator(), &sent);
            r.times[r.times.len() - 1]
        });
        bench(&mut g, &format!("{label}/verify"), || {
            timed(|| black_box(lens::verify(curve, &gk, MESSAGE, sig.as_bytes())).expect("verify")).1
        });
        let mut i = 0;
        bench(&mut g, &format!("{label}/total"), || {
            i += 1;
            timed(|| run(session(&signers, &public, &format!("{label}/total/{i}")))).1
        });
        g.finish();
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    for curve in Curve::ALL {
        bench_curve(&mut c, curve);
    }
    c.final_summary();
}
