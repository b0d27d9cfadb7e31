//! `quasar`: the native demo of the threshold pipelines, one thread per party.
//!
//! `quasar cert build|verify` makes and checks finality certificates over files (`cert`).
//!
//! `quasar demo --scheme committee --parties N --threshold T` runs the Pulsar committee
//! (no party ever holds the key): key generation, sign, verify (`committee`).
//!
//! `quasar demo --scheme corona --parties N --threshold T [--signers K]` runs Corona (the
//! two-round threshold lattice signature): key generation by a trusted dealer (the hub deals
//! and erases), any K of the N parties sign (T ≤ K ≤ N), every member verifies (`corona`).
//!
//! `quasar demo --scheme pulsar|lens --parties N --threshold T [--reshare N:T] …` runs
//! the key ceremony, signs, verifies with the standard verifier, optionally reshares (the
//! dealing ends with the activation certificate; every old party verifies it before it
//! erases its share) and signs again under the unchanged group key, and prints per-phase
//! timings: wall-clock, per-party time measured inside each party's thread (min / median /
//! max), messages and bytes. `quasar --help` prints the usage.
//!
//! Every thread holds the library's lifecycle party (`pulsar::custody::lifecycle`,
//! `lens::lifecycle`: setup, sign, reshare with activation into the member's keyring) and
//! only routes its bytes: one generic driver (`driver`) runs every path, through an
//! in-process router (`net`); the schemes (`pulsar`, `lens`) only say which lifecycle
//! party each node starts on the paths of one shared pipeline (`flow`). An old share is
//! erased only by the keyring (`party::keyring`), on a verified activation. Misbehaviour
//! is the library's (`party::hazmat::Cheat`), and blame is printed with the library's
//! codes and words.
//!
//! Its own package (`quasar-cli`, a workspace member) so that its dependency on the
//! library carries the features it needs: `cargo run --release --bin quasar -- …` and
//! `cargo install --path cli` take no feature flags.

/// `println!` that ends the process quietly when stdout is closed (`quasar … | head`).
macro_rules! say {
    () => {
        say!("")
    };
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

/// `print!` that ends the process quietly when stdout is closed.
macro_rules! say_raw {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if write!(std::io::stdout(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

mod args;
mod cert;
mod committee;
mod conduct;
mod corona;
mod devnet;
mod driver;
mod flow;
mod lens;
mod net;
mod node;
mod pulsar;
mod report;
mod store;

use std::process::ExitCode;
use std::time::Instant;

use args::{Command, Demo, Scheme};

/// What a finished run hands to the report.
pub struct Summary {
    /// Every command, with its phase, wall-clock and per-node times.
    pub log: Vec<report::StepLog>,
    /// Messages and bytes by step.
    pub traffic: net::Traffic,
    /// Group key digests and lengths, by label ("before reshare", "after reshare").
    pub keys: conduct::Keys,
    /// What the group key is ("ML-DSA-65 public key").
    pub key_kind: String,
    /// The hub's column name.
    pub hub: &'static str,
    /// Parties named and excluded, one line each.
    pub blame: Vec<String>,
}

const TRUST_PULSAR: &str = "Pulsar custody: the ML-DSA seed comes from a group secret Shamir-shared with \
     Pedersen (perfectly hiding) commitments, so no party and no coalition below t knows the key at rest; \
     to sign, t parties release their shares, encrypted, to one combiner, which is trusted while it \
     rebuilds the key, signs, verifies and zeroizes.";
const TRUST_LENS: &str = "Lens: FROST with a dishonest majority (fewer than t parties cannot sign, the \
     coordinator is trusted only for liveness), and signatures verify under standard \
     Ed25519/BIP-340 (RFC 9591 for ristretto255).";
const TRUST_COMMITTEE: &str = "Pulsar committee: the ML-DSA secret is a sum of short secrets, one per subset of \
     N − T + 1 members, each drawn by one member of its subset and held only by that subset, so no party — and no \
     combiner, for there is none — ever holds the key, not even while signing; any T members sign (exactly T, all \
     must answer: no robustness), and whether a slot was accepted is public. A reveal that breaks its commitment \
     names its sender; every combined signature is verified before it is released.";
const TRUST_CORONA: &str = "Corona: a trusted dealer draws the key and deals each party a Shamir share \
     and pairwise PRF and MAC keys — it knows the whole key while dealing, then erases it (no DKG is offered); \
     after the deal nobody holds the key, and any T of the N parties sign in two rounds, leaderless, without \
     reconstructing it: every signer combines and verifies, so only a valid signature is released. Not \
     robust: a malformed, replayed or badly MACed message names its sender, but a wrong response cannot \
     be attributed (no per-party verification equation): the session ends without a signature and nobody \
     is named. Round 1 costs about 615 KB per signer (its D_i, to every other signer), round 2 about \
     11 KB; the signature is 15,666 bytes.";
const TRUST_LSS: &str = "LSS: a dealer who sends an inconsistent share is detected and named (blame); a \
     misaddressed, replayed or non-member message is dropped and its sender named, never an abort; the group \
     public key never changes; an activation certificate, checkable against the new generation's public \
     data, proves that at least t_new members of the new set took part with their new shares (the old set \
     cannot produce it); an old share is erased only after such a certificate is verified.";

fn scheme_name(d: &Demo) -> String {
    match d.scheme {
        Scheme::Pulsar(mode) => format!("Pulsar custody ({})", mode.name()),
        Scheme::Lens(curve) => format!("Lens / FROST ({})", curve.name()),
        Scheme::Committee(mode) => format!("Pulsar committee ({})", mode.name()),
        Scheme::Corona => "Corona (two-round threshold lattice signature)".into(),
    }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The command that reproduces this run, as words.
fn command_words(d: &Demo) -> Vec<String> {
    let mut s = match d.scheme {
        Scheme::Pulsar(mode) => format!("quasar demo --scheme pulsar --set {}", mode.level()),
        Scheme::Lens(curve) => format!("quasar demo --scheme lens --curve {}", curve.name()),
        Scheme::Committee(mode) => format!("quasar demo --scheme committee --set {}", mode.level()),
        Scheme::Corona => "quasar demo --scheme corona".into(),
    };
    s.push_str(&format!(" --parties {} --threshold {}", d.parties, d.threshold));
    if let Some(k) = d.signers {
        s.push_str(&format!(" --signers {k}"));
    }
    if let Some((n, t)) = d.reshare {
        s.push_str(&format!(" --reshare {n}:{t}"));
    }
    s.push_str(&format!(" --seed {}", hex(&d.seed)));
    if let Some(c) = d.cheat {
        s.push_str(&format!(" --cheat {}", c.arg()));
    }
    if d.resume {
        s.push_str(" --resume");
    }
    let mut words: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    // A devnet's: its directory one word whatever it holds (the other processes need only
    // its validators, but the options parse together).
    if let Some(dir) = &d.chain {
        words.extend([
            "--chain".into(),
            dir.display().to_string(),
            "--blocks".into(),
            d.blocks.to_string(),
        ]);
        if d.validators > d.parties {
            words.extend(["--validators".into(), d.validators.to_string()]);
        }
        if d.corona {
            words.push("--corona".into());
        }
    }
    words
}

/// The command that reproduces this run.
fn command_line(d: &Demo) -> String {
    command_words(d).join(" ")
}

/// The demo's options as process 0 sends them to the others (`node`): the run's public
/// parameters, the seed of its session ids included.
pub(crate) fn hello_args(d: &Demo) -> Vec<String> {
    command_words(d).split_off(2)
}

/// Runs `d`'s scheme with its nodes at `place`.
pub(crate) fn run_scheme(d: &Demo, place: &node::Place<'_>) -> Result<Summary, report::Failure> {
    match d.scheme {
        Scheme::Pulsar(mode) => pulsar::run(d, mode, place),
        Scheme::Lens(curve) => lens::run(d, curve, place),
        Scheme::Committee(mode) => committee::run(d, mode, place),
        Scheme::Corona => corona::run(d, place),
    }
}

fn header(d: &Demo, processes: Option<(usize, usize)>) {
    let mut title = format!(
        "quasar demo · {} · {}-of-{}",
        scheme_name(d),
        d.threshold,
        d.parties
    );
    if let Some((n, t)) = d.reshare {
        title.push_str(&format!(" · reshare to {t}-of-{n}"));
    }
    if let Some(k) = d.signers {
        title.push_str(&format!(" · {k} signers"));
    }
    if d.chain.is_some() {
        title.push_str(&format!(
            " · devnet of {} validators, {} blocks per epoch",
            d.validators, d.blocks
        ));
        if d.corona {
            title.push_str(" · with the Corona leg");
        }
    }
    if let Some(c) = d.cheat {
        let default = match d.scheme {
            Scheme::Corona => "bad-contribution",
            _ => "bad shares in dealings, bad contributions in signing",
        };
        let how = c.kind.map_or(default, |k| k.name());
        title.push_str(&format!(" · party {} cheats ({how})", c.party));
    }
    let nodes = flow::nodes(d);
    let hub = match d.scheme {
        Scheme::Pulsar(_) => "combiner",
        Scheme::Lens(_) => "coordinator",
        Scheme::Committee(_) if d.chain.is_some() => "the aggregator (a committee has no combiner)",
        Scheme::Committee(_) => "an idle hub: a committee has no combiner",
        Scheme::Corona => "the trusted dealer, idle after the deal",
    };
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    say!("{title}");
    let load = report::load_average().map_or(String::new(), |l| format!(" (load average {l})"));
    let running = match processes {
        None => format!(
            "{} threads ({nodes} parties + {hub}) + router",
            usize::from(nodes) + 2
        ),
        Some((p, 0)) => format!("{p} processes on libp2p: TCP + Noise + Yamux ({nodes} parties + {hub})"),
        Some((p, b)) => format!(
            "{p} processes on libp2p, {b} of them in a browser: TCP or WebSocket + Noise + Yamux ({nodes} parties + {hub})"
        ),
    };
    say!(
        "{running} · {cores} cores{load} · {} {} · {} · {} build · {} UTC · seed {}",
        std::env::consts::OS,
        std::env::consts::ARCH,
        report::cpu_model().unwrap_or_else(|| "unknown CPU".into()),
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
        report::today(),
        hex(&d.seed),
    );
    say!();
    say!(
        "Trust model: {}",
        match d.scheme {
            Scheme::Pulsar(_) => TRUST_PULSAR,
            Scheme::Lens(_) => TRUST_LENS,
            Scheme::Committee(_) => TRUST_COMMITTEE,
            Scheme::Corona => TRUST_CORONA,
        }
    );
    if d.reshare.is_some() {
        say!("Resharing: {TRUST_LSS}");
    }
    say!();
    say!(
        "{}",
        match processes {
            None =>
                "Pipeline (each thread holds the library's party; every message crosses the router as bytes):",
            Some(_) =>
                "Pipeline (each node holds the library's party; every message crosses the network as bytes):",
        }
    );
}

fn summary(d: &Demo, s: &Summary, total: core::time::Duration, processes: Option<usize>) {
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    say!();
    say!(
        "Timings in ms, lower is better. wall = the phase end to end ({} party threads on {cores} cores{});",
        report::active_parties(&s.log),
        processes.map_or(String::new(), |p| format!(
            ", in {p} processes, every command and report a network message"
        ))
    );
    say!(
        "per party = {} measured inside each party's thread, min / median / max over the parties",
        net::cpu::kind()
    );
    say!(
        "active in the phase (never total ÷ n); {} = {}; msgs = point-to-point",
        s.hub,
        match s.hub {
            "combiner" => "the combiner's own time",
            "coordinator" => "the coordinator's own time",
            "dealer" => "the dealer's own time (the deal; it has no part in signing)",
            _ => "nobody: a committee has no combiner",
        }
    );
    say!("deliveries (a broadcast to k peers counts k) and bytes = protocol-message bytes delivered,");
    say!("both counted in the phase that sends them.");
    say!();
    say_raw!("{}", report::table(&s.log, &s.traffic, s.hub));
    say!(
        "end to end, with thread start-up and shutdown: {} ms",
        report::ms(total)
    );
    say!();
    match (s.keys.get("before reshare"), s.keys.get("after reshare")) {
        (Some((a, len)), Some((b, _))) => say!(
            "Group key ({}, {len} bytes), SHA3-256 fingerprint: before reshare {}, after reshare {} — {}",
            s.key_kind,
            conduct::fingerprint(a),
            conduct::fingerprint(b),
            if a == b { "byte-identical" } else { "DIFFERENT" }
        ),
        (Some((a, len)), None) => say!(
            "Group key ({}, {len} bytes), SHA3-256 fingerprint: {}",
            s.key_kind,
            conduct::fingerprint(a)
        ),
        _ => {}
    }
    if !s.blame.is_empty() {
        say!("Named (and excluded from later sessions and the new set):");
        for line in &s.blame {
            say!("  {line}");
        }
    }
    say!(
        "{}: cargo run --release --bin quasar -- {}",
        if processes.is_some() {
            "The same run in one process"
        } else {
            "Reproduce"
        },
        &command_line(d)["quasar ".len()..]
    );
}

/// Runs the demo `d` with its nodes at `place`, printing the report.
pub(crate) fn demo(d: &Demo, place: &node::Place<'_>) -> ExitCode {
    let _ = conduct::HUB_NAME.set(match d.scheme {
        Scheme::Pulsar(_) => "combiner",
        Scheme::Lens(_) => "coordinator",
        Scheme::Committee(_) if d.chain.is_some() => "aggregator",
        Scheme::Committee(_) => "idle hub",
        Scheme::Corona => "dealer",
    });
    let processes = place.processes();
    header(d, processes);
    let start = Instant::now();
    match run_scheme(d, place) {
        Ok(s) => {
            summary(d, &s, start.elapsed(), processes.map(|p| p.0));
            ExitCode::SUCCESS
        }
        Err(f) => {
            eprintln!("quasar: {f}");
            ExitCode::from(1)
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    match args::parse(&args) {
        Err(msg) => {
            eprintln!("quasar: {msg}");
            ExitCode::from(2)
        }
        Ok(Command::Help) => {
            say_raw!("{}", args::USAGE);
            ExitCode::SUCCESS
        }
        Ok(Command::Demo(d)) => demo(&d, &node::Place::Threads),
        Ok(Command::Cert(rest)) => cert::run(&rest),
        Ok(Command::Node(rest)) => node::run(&rest),
    }
}
