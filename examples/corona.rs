//! Corona from Rust: a trusted dealer's 3-of-5 key, three of the parties sign in two rounds
//! (each party is the library's state machine; this loop only routes their bytes), and anyone
//! verifies with the 4,654-byte group key (`cargo run --example corona`).
use quasar_pq::corona::{self, SignParams, Signer};
use quasar_pq::party::{Incoming, Party, Step};
use quasar_pq::PartyId;
use rand_chacha::{rand_core::SeedableRng, ChaCha20Rng};

fn main() -> Result<(), quasar_pq::Error> {
    let mut rng = ChaCha20Rng::from_seed([7; 32]); // seed it from your OS CSPRNG
    let (group_key, shares) = corona::deal(3, 5, &mut rng)?; // the dealer knew the key; it kept nothing
    let signers: Vec<PartyId> = [1, 3, 4].into_iter().filter_map(PartyId::new).collect();
    let params = SignParams::new([42; 32], &signers, b"block 42", b"my-chain")?; // a new session id per signing
    let (mut parties, mut sent) = (Vec::new(), Vec::new());
    for share in shares.iter().filter(|s| signers.contains(&s.id())) {
        let (party, out) = Signer::start(share, &params, &mut rng)?; // round 1: COR1, ~615 KB
        sent.extend(out.broadcast.map(|b| (party.id(), b)));
        parties.push(party);
    }
    let mut signatures = Vec::new();
    while signatures.len() < parties.len() {
        let mut next = Vec::new();
        {
            let inbox: Vec<Incoming<'_>> = sent.iter().map(|(from, b)| Incoming::new(*from, b)).collect();
            for party in &mut parties {
                match party.step(&inbox)? {
                    Step::Continue(out) => next.extend(out.broadcast.map(|b| (party.id(), b))), // COR2
                    Step::Done(_, signed) => signatures.push(signed.signature), // combined and verified
                    Step::Waiting => {}
                }
            }
        }
        sent = next;
    }
    let signature = &signatures[0];
    println!(
        "{} signers combined the same {}-byte signature: {}",
        signatures.len(),
        signature.len(),
        signatures.iter().all(|s| s == signature)
    );
    group_key.verify(b"block 42", b"my-chain", signature)?; // public inputs only
    println!(
        "another message: {}",
        group_key.verify(b"block 43", b"my-chain", signature).is_ok()
    );
    Ok(())
}
