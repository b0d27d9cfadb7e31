//! A light client from Rust on a test chain (the devnet's `chain`, the chain the npm
//! package's sample is made from): full verification reports, then every block across the
//! epoch change (`cargo run --example light_client --features sim`).
use quasar_pq::cert::devnet::{chain, ChainSpec};
use quasar_pq::cert::{verify, LightClient, Options, Policy, TrustedSet, ValidatorSet};

fn main() -> Result<(), Box<dyn core::error::Error>> {
    let made = chain(&ChainSpec {
        seed: [1; 32],
        ..ChainSpec::default()
    })?; // 4 validators, pq-fast
    let checkpoint = made.sets[0].as_bytes(); // QVST: a set the caller trusts

    let set = ValidatorSet::from_bytes(checkpoint)?;
    let trusted = TrustedSet::new(set.clone())?; // BLS keys + PoPs validated once
    let cert = &made.blocks[0].certificate;
    let report = verify(cert, &trusted, &Policy::PQ_FAST, &Options::default());
    println!("{report}"); // one line per leg, then the verdict
    let mut client = LightClient::new(set, Policy::PQ_FAST)?; // the policy is the caller's
    for block in &made.blocks {
        let next = block.next_set.as_ref().map(ValidatorSet::as_bytes); // an epoch's last block: next set
        let accepted = client.update(&block.certificate, next).map_err(|r| r.error)?;
        println!(
            "height {}: final, epoch {}",
            accepted.header.height,
            client.epoch()
        );
    }
    Ok(())
}
