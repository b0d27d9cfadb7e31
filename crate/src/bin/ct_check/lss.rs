//! VSS share arithmetic and LSS dealings (DKG, refresh, reshare: dealing, share checks,
//! complaints, finalize) on each curve, every party drawing from a secret RNG, and a key
//! share decoded from secret bytes.

use std::collections::BTreeMap;

use quasar_pq::lss::{Ceremony, DealingParty, KeyShare};
use quasar_pq::party::sim::Network;
use quasar_pq::vss::{self, Commitments, Curve, Ed25519, Mode, Polynomial, Ristretto255, Secp256k1, Share};
use quasar_pq::PartyId;

use crate::rng::SecretRng;
use crate::{path, Path};

pub(crate) fn paths() -> Vec<Path> {
    vec![
        path(
            "vss/share-arithmetic/ristretto255",
            vss_arithmetic::<Ristretto255>,
        ),
        path("vss/share-arithmetic/ed25519", vss_arithmetic::<Ed25519>),
        path("vss/share-arithmetic/secp256k1", vss_arithmetic::<Secp256k1>),
        path("lss/dkg+refresh+reshare/ristretto255", || {
            dealings::<Ristretto255>(Mode::Pedersen)
        }),
        path("lss/dkg+refresh+reshare/ed25519", || {
            dealings::<Ed25519>(Mode::Feldman)
        }),
        path("lss/dkg+refresh+reshare/secp256k1", || {
            dealings::<Secp256k1>(Mode::Feldman)
        }),
        // A busy process's multiples of G (a simulator's, past 4,096 of them).
        path("vss/commit/ed25519-wide-table", || {
            vss::group::use_wide_table();
            vss_arithmetic::<Ed25519>();
            dealings::<Ed25519>(Mode::Feldman);
        }),
    ]
}

pub(crate) fn pid(v: u16) -> PartyId {
    PartyId::new(v).expect("non-zero")
}

pub(crate) fn ids(r: impl IntoIterator<Item = u16>) -> Vec<PartyId> {
    r.into_iter().map(pid).collect()
}

/// Shamir shares of a secret with Pedersen commitments, share verification, Lagrange
/// reconstruction over a signer set.
fn vss_arithmetic<C: Curve>() {
    let mut rng = SecretRng::new("vss");
    let secret = vss::group::random_scalar::<C>(&mut rng);
    let f = Polynomial::<C>::random(secret, 3, &mut rng).expect("poly");
    let b = Polynomial::<C>::random(vss::group::random_scalar::<C>(&mut rng), 3, &mut rng).expect("poly");
    let c = Commitments::commit(Mode::Pedersen, &f, Some(&b)).expect("commit");
    let set = ids([2, 4, 5]);
    let mut shares = Vec::new();
    for &p in &set {
        let s = Share::new(f.evaluate(p), b.evaluate(p));
        c.verify_share(p, &s).expect("share");
        shares.push((p, *s.value()));
    }
    let again = vss::reconstruct::<C>(&shares).expect("reconstruct");
    // The harness's own check, in constant time and declassified.
    assert!(quasar_pq::ct::declassify(bool::from(
        subtle::ConstantTimeEq::ct_eq(&again, f.constant())
    )));
}

/// Runs one dealing among its participants; returns the new shares.
pub(crate) fn deal<C: Curve>(
    c: &Ceremony<C>,
    old: &BTreeMap<PartyId, KeyShare<C>>,
    label: &str,
) -> BTreeMap<PartyId, KeyShare<C>> {
    let mut all: Vec<PartyId> = c.dealers().iter().chain(c.receivers()).copied().collect();
    all.sort();
    all.dedup();
    let mut net = Network::new();
    for p in all {
        let mut rng = SecretRng::new(&format!("{label} {p}"));
        let (party, first) = DealingParty::start(c.clone(), p, old.get(&p), &mut rng).expect("start");
        net.add(party, first);
    }
    net.run()
        .into_iter()
        .filter_map(|(p, o)| o.expect("dealing").key_share.map(|k| (p, k)))
        .collect()
}

/// A DKG among 1..=4 (t = 3), a refresh, a reshare to 3..=7 (t = 3), and every new share
/// decoded again from secret bytes.
fn dealings<C: Curve>(mode: Mode) {
    let dkg = Ceremony::<C>::dkg([1; 32], mode, &ids(1..=4), 3).expect("dkg");
    let shares = deal(&dkg, &BTreeMap::new(), "dkg");
    assert_eq!(shares.len(), 4);
    let public = shares[&pid(1)].public().clone();
    let refresh = Ceremony::<C>::refresh([2; 32], &public, &ids(1..=4)).expect("refresh");
    let shares = deal(&refresh, &shares, "refresh");
    let public = shares[&pid(2)].public().clone();
    let reshare = Ceremony::<C>::reshare([3; 32], &public, &ids(1..=3), &ids(3..=7), 3).expect("reshare");
    let shares = deal(&reshare, &shares, "reshare");
    assert_eq!(shares.len(), 5);
    // Encoding: a 10-byte header (magic, version, curve, mode, id), then the share pair
    // (the value, and the blind in Pedersen mode), then the group's public data.
    let len = match mode {
        Mode::Pedersen => 64,
        Mode::Feldman => 32,
    };
    for s in shares.values() {
        let bytes = s.to_bytes();
        quasar_pq::ct::secret_slice(&bytes[10..10 + len]);
        KeyShare::<C>::from_bytes(&bytes).expect("decode");
    }
}
